/** The terminal apply report: one line per result, then what was done, failed and skipped. */
import type { ApplyReport, Change, ChangeResult, Plan } from '../engine/types.js';
import { changeLabel, headlineOf, isSingleton, renamedFrom, skippedBecause } from './facts.js';
import { painter, type Paint } from './paint.js';
import { writeLines } from './chunks.js';
import { stripControl } from './sanitize.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';

export function formatMs(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/** Service messages can span lines; keep continuation lines under their result. A URL's secrets hidden, as every message hides them (probe XF-1). */
function message(s: string): string {
  return stripControl(lineWithoutSecrets(s)).trimEnd().split('\n').join('\n    ');
}

/**
 * An error names the operation it came from; the line already says which change it is (`create
 * playbook "X": …`), also when the operation spells the kind in words (`publish custom term "X"`)
 * or is another step of the same change (a rename sent as `update playbook "New"`).
 */
function withoutPrefix(text: string, c: Change | undefined): string {
  if (!c) return text;
  const prefix = operationPrefixes(c).find((p) => text.startsWith(p));
  return prefix ? text.slice(prefix.length) : text;
}

/** A write only: `read playbook "X": …` says which step failed (the read after a create). */
const WRITES = ['create', 'update', 'rename', 'publish', 'delete', 'archive', 'upload', 'invite'];

function operationPrefixes(c: Change): string[] {
  if (isSingleton(c)) return [`${c.action} ${c.kind}: `];
  // As the operation names it (the identity as written) and as the plan showed it.
  const former = renamedFrom(c);
  const labels = [c.key !== '' ? c.key : c.name, changeLabel(c), former?.written, former?.label].filter((l): l is string => l !== undefined);
  const kinds = [c.kind, c.kind.replace(/-/g, ' ')];
  return WRITES.flatMap((action) => kinds.flatMap((kind) => labels.map((label) => `${action} ${kind} "${label}": `)));
}

function resultLine(r: ChangeResult, byId: Map<string, Change>, paint: Paint, shared: ReadonlySet<string>): string {
  const what = headlineOf(r.changeId, byId, true);
  const note = r.note && !shared.has(r.note) ? `\n    ${paint('yellow', 'note:')} ${message(r.note)}` : '';
  if (r.status === 'done') return `${paint('green', '✓')} ${what} (${formatMs(r.ms)})${note}`;
  if (r.status === 'failed') {
    const part = r.written ? `\n    ${paint('yellow', 'live already:')} ${r.written.join(', ')} (written before the failure)` : '';
    const hint = r.hint && !shared.has(r.hint) ? `\n    hint: ${message(r.hint)}` : '';
    return `${paint('red', '✗')} ${what}: ${message(withoutPrefix(r.message ?? 'failed', byId.get(r.changeId)))}${part}${hint}`;
  }
  if (r.status === 'not-started') return `${paint('yellow', '-')} not started: ${what}`;
  return `${paint('yellow', '-')} skipped ${what}: ${message(skippedBecause(r, byId))}`;
}

export function renderApplyReportText(plan: Plan, report: ApplyReport, opts: { color: boolean }): string {
  return `${[...applyReportLines(plan, report, opts)].join('\n')}\n`;
}

/** The same text a chunk at a time: one line per change of an apply that may hold twenty thousand. */
export function writeApplyReportText(plan: Plan, report: ApplyReport, opts: { color: boolean }, write: (text: string) => void, drained?: () => Promise<void>): Promise<void> {
  return writeLines(applyReportLines(plan, report, opts), write, drained);
}

function* applyReportLines(plan: Plan, report: ApplyReport, opts: { color: boolean }): Generator<string> {
  if (plan.changes.length === 0) {
    yield 'Nothing to apply. No changes.';
    return;
  }
  const paint = painter(opts.color);
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const shared = sharedNotes(report);
  const hints = sharedHints(report);
  const sharedTexts = new Set([...shared.keys(), ...hints.keys()]);
  const lines = report.results.map((r) => resultLine(r, byId, paint, sharedTexts));
  for (const [note, count] of shared) lines.push('', `${paint('yellow', 'note:')} ${count} of the changes above: ${message(note)}`);
  for (const [hint, count] of hints) lines.push('', `hint for ${count} of the failures above: ${message(hint)}`);
  if (report.stopped) {
    yield `${paint('bold', stoppedHeading(report.stopped))}: ${report.checksCutShort ? `${everyChangeTried(report)}; the checks for duplicates at the end were cut short.` : report.done + report.failed === 0 ? 'no change was started.' : 'nothing new was started after it.'}`;
    yield '';
    yield* lines;
    const tally = `${report.done} done, ${paint(report.failed > 0 ? 'red' : 'bold', `${report.failed} failed`)}, ${report.skipped} skipped, ${report.notStarted ?? 0} not started`;
    yield '';
    yield `${paint('bold', `${stoppedHeading(report.stopped)}:`)} ${tally}.`;
    return;
  }
  const failed = report.failed > 0 || report.skipped > 0;
  const tally = failed ? `${report.done} done, ${paint('red', `${report.failed} failed`)}, ${report.skipped} skipped` : `${report.done} done`;
  yield* lines;
  if (lines.length > 0) yield '';
  yield `${paint('bold', failed ? 'Apply finished with errors:' : 'Apply complete:')} ${tally}.`;
}

/** Above this many changes with the very same note, it is said once after them, with the count. */
const SHARED_NOTE = 3;

/**
 * Notes that many results carry word for word (an apply stopped before its duplicate checks gives
 * every create the same one: hundreds of repeated lines), by how many carry each.
 */
function sharedNotes(report: ApplyReport): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of report.results) if (r.status === 'done' && r.note) counts.set(r.note, (counts.get(r.note) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > SHARED_NOTE));
}

/** Hints several failures share (one cause: a redirect, a refused key): said once, after the results. */
function sharedHints(report: ApplyReport): Map<string, number> {
  const counts = new Map<string, number>();
  for (const r of report.results) if (r.status === 'failed' && r.hint) counts.set(r.hint, (counts.get(r.hint) ?? 0) + 1);
  return new Map([...counts].filter(([, n]) => n > 1));
}

/** `SIGINT` → "Apply interrupted (SIGINT)"; any other reason (the time budget) is said as it is. */
function stoppedHeading(reason: string): string {
  return /^SIG[A-Z]+$/.test(reason) ? `Apply interrupted (${reason})` : `Apply stopped (${stripControl(reason)})`;
}

/** Every change was started before the checks at the end, or skipped for one that failed (probe FZ). */
function everyChangeTried(report: ApplyReport): string {
  if (report.failed + report.skipped === 0) return 'every change was made';
  return `every change was started or skipped: ${report.failed} failed, ${report.skipped} skipped`;
}
