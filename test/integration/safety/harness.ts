/**
 * Runs that do not end normally: the real bin as a child process (so it can be killed or signalled
 * at a chosen moment) against an emulator in this process (so faults are placed exactly and its
 * state is read directly).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';
import { DEFAULT_ORGANIZATION_ID } from '../../../src/emulator/server.js';
import { runCli, type CliResult } from '../../helpers/cli.js';
import type { TestEmulator } from '../../helpers/emulator.js';
import { makeDir } from '../../helpers/tmpdir.js';
import { AGREEMENTS_DOCKET_YAML, ATTACHMENT_YAML, DOCX_TERM_YAML, docx, pdf } from '../agreements-fixtures.js';

export const BIN = fileURLToPath(new URL('../../../bin/docket.js', import.meta.url));

export interface Running {
  child: ChildProcess;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or the signal's name when killed by one). */
  exited: Promise<number | string>;
}

export function spawnBin(args: string[], env: Record<string, string>): Running {
  const child = spawn(process.execPath, [BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout!.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr!.on('data', (c: Buffer) => (err += c.toString()));
  const exited = new Promise<number | string>((resolve) => child.on('exit', (code, signal) => resolve(code ?? signal ?? -1)));
  return { child, stdout: () => out, stderr: () => err, exited };
}

/** Polls `check` until it is true; fails naming `what` after `timeoutMs`. */
export async function waitUntil(check: () => boolean, what: string, timeoutMs = 15_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** The follow-up runs, which end normally: the CLI program in this process (cheaper than a process each). */
export function bin(t: TestEmulator) {
  return (...args: string[]): Promise<CliResult> => runCli(args, { env: t.env });
}

export function agreementsOf(t: TestEmulator) {
  return t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!.agreements;
}

export function reviewOf(t: TestEmulator) {
  return t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
}

/** docket.lock.json is whole JSON of version 2 and nothing half-written lies beside it. */
export async function expectLockIntact(dir: string): Promise<Record<string, Record<string, Record<string, unknown>>>> {
  const names = await readdir(dir);
  expect(names.filter((n) => n.endsWith('.tmp'))).toEqual([]);
  if (!names.includes('docket.lock.json')) return {};
  const doc = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { version: number; targets: Record<string, { files: Record<string, Record<string, unknown>> }> };
  expect(doc.version).toBe(2);
  return Object.fromEntries(Object.entries(doc.targets).map(([k, v]) => [k, v.files]));
}

/** The plan on `dir` shows no changes (exit 0 with --detailed-exitcode). */
export async function expectConverged(run: (...args: string[]) => Promise<CliResult>, dir: string): Promise<CliResult> {
  const plan = await run('plan', '-C', dir, '--detailed-exitcode');
  expect(plan.stderr).toBe('');
  expect(plan.stdout).toContain('No changes.');
  expect(plan.code).toBe(0);
  return plan;
}

export const SIGNAL_DOCKET_YAML = 'version: 1\n';
export const numberedPlaybook = (i: number): string => `kind: Playbook\nname: Playbook ${String(i).padStart(2, '0')}\ndescription: Number ${i}\n`;

/** A configuration of `n` playbooks, "Playbook 01" to "Playbook NN", one file each. */
export async function manyPlaybooks(n: number): Promise<string> {
  const files: Record<string, string> = { 'docket.yaml': SIGNAL_DOCKET_YAML };
  for (let i = 1; i <= n; i++) files[`playbooks/p${i}.yaml`] = numberedPlaybook(i);
  return makeDir(files);
}

/**
 * docket run with `args(dir)` on a configuration of one playbook, stopped by `signal` while its read of
 * the playbooks hangs (`before` looks first); its exit code and what it printed.
 */
export async function stoppedWhileReading(t: TestEmulator, args: (dir: string) => string[], signal: NodeJS.Signals, before?: (dir: string) => void): Promise<{ code: number | string; run: Running }> {
  const dir = await manyPlaybooks(1);
  t.emulator.faults.add({ method: 'GET', path_pattern: '/playbooks', status: 'hang' });
  const run = spawnBin(args(dir), t.env);
  await waitUntil(() => t.emulator.stats().faults_injected > 0, 'the read');
  before?.(dir);
  run.child.kill(signal);
  return { code: await run.exited, run };
}

/** The playbooks live (not archived) in the emulator. */
export const livePlaybooks = (t: TestEmulator) => Object.values(reviewOf(t).playbooks).filter((p) => !p.archived_at);

export const KILL_PLAYBOOK = 'kind: Playbook\nname: Vendor MSA\nrules:\n  - name: Term\n    actions: REJECT if the term is over 3 years\n  - name: Fees\n    actions: REJECT if payment is due in under 30 days\n';

/** A configuration of a Word term and a playbook, with the term's .docx. */
export async function wordTermDir(): Promise<string> {
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML, 'playbooks/msa.yaml': KILL_PLAYBOOK });
  await writeFile(join(dir, 'terms/data.docx'), docx('version one'));
  return dir;
}

/** A configuration of the Security Exhibit attachment, applied to `t`. */
export async function appliedAttachment(t: TestEmulator): Promise<{ dir: string; run: ReturnType<typeof bin> }> {
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
  await writeFile(join(dir, 'attachments/security.pdf'), pdf('one'));
  const run = bin(t);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  return { dir, run };
}

/** The custom terms of one name in the emulator. */
export const termsNamed = (t: TestEmulator, name: string) => Object.values(agreementsOf(t).custom_terms).filter((x) => x.name === name);

/** Starts an apply, waits until the service has done what `done` checks, and kills the process. */
export async function killWhen(t: TestEmulator, dir: string, done: () => boolean, what: string): Promise<void> {
  const run = spawnBin(['apply', '-C', dir, '--auto-approve'], t.env);
  await waitUntil(done, what);
  run.child.kill('SIGKILL');
  expect(await run.exited).toBe('SIGKILL');
}
