/**
 * `docket test --junit FILE` stopped by a signal before the command itself runs (while docket
 * loads, in its first half second): the report a CI reporter reads still says why (probe RR-1).
 * Loaded only for such a run; once the command holds its own report, it takes over.
 */
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { InterruptedError } from '../errors.js';
import { errorJson } from '../render/json.js';
import { renderErrorJunit } from '../render/test-junit.js';
import { writeFileAtomicSync } from '../util/atomic-write.js';
import type { Interrupts } from './interrupt.js';
import { JUNIT_REPORT, passesOutputCheckSync, writableUnjudged } from './output-file.js';
import { junitKeyValues, redact } from './redact.js';

/** The runs (by their interrupts) whose command writes the report from now on, whatever ends them. */
const takenOver = new WeakSet<Interrupts>();

export function junitTakenOver(interrupts: Interrupts): void {
  takenOver.add(interrupts);
}

/** Writes the report of a run a signal ended before the command started; returns the removal of that handler. */
export function earlyJunit(interrupts: Interrupts, file: { path: string; dir: string }, cwd: string, env: Record<string, string | undefined>): () => void {
  const started = new Date();
  return interrupts.onExit(() => {
    const signal = interrupts.received();
    const out = resolve(cwd, file.path);
    // Only where the command itself would write a report it could not check against the configuration.
    if (!signal || takenOver.has(interrupts) || !passesOutputCheckSync(file.path, out) || !writableUnjudged(out, resolve(cwd, file.dir), JUNIT_REPORT)) return;
    const error = new InterruptedError(signal, `docket test stopped by ${signal} before it could report`);
    writeFileAtomicSync(out, redact(renderErrorJunit(errorJson(error), { started, hostname: hostname() }), junitKeyValues(env)));
  });
}
