/**
 * What `docket pull` prints: the unified diff of each file (with --dry-run), what it adopted into
 * the files, what it could not and why, as text, markdown (a pull request's body) or JSON. Pure.
 */
import { createTwoFilesPatch } from 'diff';
import { DIRECTION_LABEL, directionSign } from '../engine/direction.js';
import type { Plan } from '../engine/types.js';
import type { GuardViolation } from '../engine/guard.js';
import { IGNORED_REASON, type FileChange, type PullEntry, type PullResult } from '../pull/plan.js';
import { shortList, subject } from './facts.js';
import { jsonText } from './json.js';
import { cutNote, fitMarkdown, listShares, MARKDOWN_MAX_CHARS, joinWithin, pushWithin, thousands, type ListBudget } from './markdown-fit.js';
import { docketText, targetLine as markdownTargetLine } from './markdown.js';
import { painter } from './paint.js';
import { codeSpan, defuseWorkflowCommands, escapeMarkdown, fencedBlock, stripControl } from './sanitize.js';
import { listedName, scopeLine, type ScopeFlag } from './drift.js';
import { headerLines } from './text.js';
import { oneLine, onePath, quote } from './value.js';
import { invisibleCounts, invisibleIn, markInvisible, withoutInvisible } from '../config/quote.js';
import { excerptWithoutSecrets } from '../config/url-secrets.js';
import { FILE_NOTE_MARK, maxEditLength, notesBelow, replacedBlock, sameLineNotes } from './textdiff.js';

/**
 * How far a file's diff may look for the shortest edit (see textdiff.ts), some 0.5 s a file: one
 * of 10,000 lines gets about 1,000 changed lines diffed line by line, and a file of any length up
 * to FEW_FILE_EDITS where that few lines changed (100 rules edited in a 144,000-line playbook were
 * one replaced block of the whole file, probe GR); past that, one replaced block.
 */
const FILE_DIFF_BUDGET = 20_000_000;
const FEW_FILE_EDITS = 2_000;

/** The unified diff of one file, `a/` and `b/` prefixed as git shows them. */
export function fileDiff(f: FileChange): string {
  const from = f.before === null ? '/dev/null' : `a/${f.path}`;
  const to = f.after === null ? '/dev/null' : `b/${f.path}`;
  // A file whose lines end in a lone CR (which pull edits so) is shown by its lines, not as one (third read TR70-3).
  const byCr = [f.before, f.after].some((t) => t !== null && t.includes('\r') && !t.includes('\n'));
  const before = byCr ? (f.before ?? '').replace(/\r/g, '\n') : (f.before ?? '');
  const after = byCr ? (f.after ?? '').replace(/\r/g, '\n') : (f.after ?? '');
  const patch = createTwoFilesPatch(from, to, before, after, undefined, undefined, { context: 3, maxEditLength: maxEditLength(before, after, FILE_DIFF_BUDGET, FEW_FILE_EDITS) });
  if (patch === undefined) return replacedFile(from, to, before, after);
  // The library's first line is an `Index:`-less `===` banner; git's form starts at `---`.
  return patch.replace(/^={10,}\n/m, '').replace(/^Index: .*\n/m, '');
}

const LISTED_FILES = 10;

/** Marks a file's last line that has no line break after it: it differs from the same line with one. */
const NO_FINAL_BREAK = '\u0000';

function replacedFile(from: string, to: string, before: string, after: string): string {
  const linesOf = (text: string): string[] => {
    if (text === '') return [];
    const lines = text.split('\n');
    if (lines[lines.length - 1] === '') lines.pop();
    else lines[lines.length - 1] += NO_FINAL_BREAK;
    return lines;
  };
  const hunk = replacedBlock(linesOf(before), linesOf(after)).map((l) => (l.endsWith(NO_FINAL_BREAK) ? `${l.slice(0, -1)}\n\\ No newline at end of file` : l));
  return `--- ${from}\n+++ ${to}\n${hunk.map((l) => `${l}\n`).join('')}`;
}

/** A byte-order mark both sides keep is no change: not shown in markdown (the text form keeps it, a patch `git apply` takes: probe MX-3). */
function withoutKeptMark(f: FileChange): FileChange {
  const mark = (t: string | null): boolean => t?.startsWith('\ufeff') ?? false;
  return mark(f.before) && mark(f.after) ? { ...f, before: f.before!.slice(1), after: f.after!.slice(1) } : f;
}

/**
 * A file's diff as a report shows it, line by line: a URL's password, query and fragment hidden as
 * plan hides them (-o json keeps the files' text), controls taken out, and an added line that
 * reads as the one it replaces noted. What prints as nothing or as a space is marked (`<U+00A0>`)
 * in a comment, which is read; the text form is a patch `git apply` takes, so its lines keep such
 * characters as the file has them, and a note below the hunks names each line holding one (probe
 * KZ-2: applied, the marks were written into the file, and the next apply sent them live).
 */
function shownDiff(f: FileChange, asPatch: boolean): string[] {
  const diffLines = fileDiff(asPatch ? f : withoutKeptMark(f)).replace(/\n$/, '').split('\n');
  // Content lines shown otherwise than the file has them (a secret hidden, a control taken out).
  const altered = new Set<number>();
  const shown = diffLines.map((raw, at) => {
    const content = at >= 2 && /^[-+ ]/.test(raw); // after the `---`/`+++` lines
    // A CRLF file's line keeps its CR, so the diff stays a patch `git apply` takes for that file
    // (probe JU-2); at a line's end it moves nothing a terminal shows.
    const cr = content && raw.endsWith('\r') ? '\r' : '';
    const line = cr === '' ? raw : raw.slice(0, -1);
    const text = stripControl(content ? line[0] + excerptWithoutSecrets(line.slice(1)) : line);
    // Output breaks up a CI runner's workflow commands (`: :`, `# #[`) too, after this (probe NX-1).
    if (content && (text !== line || defuseWorkflowCommands(text) !== text)) altered.add(at);
    return (asPatch && content ? text : markInvisible(text)) + cr;
  });
  const notes = sameLineNotes(diffLines, true);
  if (asPatch) {
    const goneNotes = invisibleGoneNotes(diffLines);
    diffLines.forEach((raw, at) => (notes[at] = joinNotes(notes[at] || goneNotes[at], at >= 2 && /^[+ ]/.test(raw) ? holdsNote(raw.slice(1)) : '', altered.has(at) ? SHOWN_OTHERWISE : '')));
    // Output never holds a secret nor drives a terminal: such a line is not the file's, which is said,
    // as the patch then does not apply as printed (second read SR74-2, SR74-3).
    if ([...altered].some((at) => diffLines[at]!.startsWith('-'))) return [...notesBelow(shown, notes), `${FILE_NOTE_MARK}a removed line is ${SHOWN_OTHERWISE}`];
  }
  return notesBelow(shown, notes);
}

const SHOWN_OTHERWISE = "shown with a URL's query or password hidden, a control character taken out, or a CI workflow command broken up (`: :`, `# #[`), not as the file has it: this patch does not apply as printed (docket pull writes the files)";

/** What a patch's line holds that prints as nothing or as a space, said below the hunks. */
function holdsNote(line: string): string {
  const held = invisibleIn(line);
  return held.length === 0 ? '' : `holds ${held.join(', ')}, which ${held.length === 1 ? 'prints' : 'print'} as nothing or as a space`;
}

/**
 * For each added line of a patch that prints as a line its hunk removes but for characters that
 * print as nothing or as a space (a no-break space become a plain one, a zero-width space dropped),
 * what the removed line held: the patch keeps them raw, so the pair reads alike (probe LZ-1). What
 * the added line holds is said by holdsNote; '' for the rest.
 */
function invisibleGoneNotes(lines: readonly string[]): string[] {
  const notes = lines.map(() => '');
  let removed = new Map<string, string>();
  lines.forEach((line, at) => {
    if (line.startsWith('@@')) removed = new Map();
    if (at < 2) return;
    const text = line.slice(1);
    // As the line prints: blanks at its end show as nothing either.
    const printed = (t: string): string => withoutInvisible(t).trimEnd();
    if (line.startsWith('-')) {
      if (invisibleIn(text).length > 0) removed.set(printed(text), text);
    } else if (line.startsWith('+') && removed.size > 0) {
      const was = removed.get(printed(text));
      // By count: one of two no-break spaces gone is as unseen as both (second read SR76-4).
      const [before, now] = [invisibleCounts(was ?? ''), invisibleCounts(text)];
      const gone = was === undefined ? [] : [...before].filter(([c, n]) => n > (now.get(c) ?? 0)).map(([c]) => c);
      if (was !== undefined && was !== text && gone.length > 0) {
        notes[at] = `no visible difference: the line held ${gone.join(', ')} before, which ${gone.length === 1 ? 'prints' : 'print'} as nothing or as a space`;
      }
    }
  });
  return notes;
}

function joinNotes(...notes: (string | undefined)[]): string {
  return notes.filter((n) => n).join('; ');
}

function changeOf(f: FileChange): 'created' | 'deleted' | 'modified' {
  return f.before === null ? 'created' : f.after === null ? 'deleted' : 'modified';
}

function entryLine(e: PullEntry, fmt: { name: (s: string) => string; code: (s: string) => string }): string {
  const at = e.file ? ` (${fmt.code(e.line ? `${e.file}:${e.line}` : e.file)})` : '';
  const where = e.newFile && e.file ? ` → ${fmt.code(e.file)} (new file)` : at;
  const fields = e.fields.length > 0 ? `: ${e.fields.map((f) => fmt.code(f)).join(', ')}` : '';
  return `${directionSign(e.direction)} ${subject(e, fmt.name)}${where} · ${DIRECTION_LABEL[e.direction]}${fields}`;
}

export interface PullTextOptions {
  color: boolean;
  dryRun: boolean;
  /** `--kind` and `--target` as given: what was compared, when not everything. */
  scope?: readonly ScopeFlag[];
  /** Where the sync records are written (docket.lock.json, or with --emulator .docket/emulator-sync.json), as shown. */
  syncFile?: string;
  /** The plan that checks what was pulled, as this run was given (its folder, --env, --emulator); `docket plan` when none. */
  planCommand?: string;
  /** false: the dry run's patch is not coloured, though the rest is (colour forced where there is no terminal). */
  patchColor?: boolean;
}

export function renderPullText(plan: Plan, result: PullResult, opts: PullTextOptions): string {
  const paint = painter(opts.color);
  // The patch is coloured on a terminal only: saved from a run with FORCE_COLOR, `git apply` must take it (probe EC-2).
  const patchPaint = painter(opts.color && opts.patchColor !== false);
  const fmt = { name: quote, code: oneLine };
  const lines: string[] = [];
  if (opts.dryRun) {
    for (const f of result.files) {
      for (const l of shownDiff(f, true)) {
        if (l.startsWith('+') && !l.startsWith('+++')) lines.push(patchPaint('green', l));
        else lines.push(l.startsWith('-') && !l.startsWith('---') ? patchPaint('red', l) : l.startsWith('@@') ? patchPaint('cyan', l) : l.startsWith(FILE_NOTE_MARK) ? patchPaint('dim', l) : l);
      }
    }
    if (result.files.length > 0) lines.push('');
  }
  lines.push(...headerLines('pull', plan, paint), '');
  if (result.pulled.length === 0 && result.notPulled.length === 0) lines.push('Nothing to pull: the files hold every live change.');
  const records = recordsOnly(result, opts.dryRun);
  if (records > 0) lines.push(recordsOnlyText(records, opts.syncFile));
  if (result.pulled.length > 0) {
    lines.push(paint('bold', `${opts.dryRun ? 'Would pull' : 'Pulled'} into the files (${result.pulled.length}):`));
    for (const e of result.pulled) {
      lines.push(`  ${entryLine(e, fmt)}`);
      if (e.reason) lines.push(`      ${oneLine(e.reason)}`);
    }
    lines.push('');
  }
  if (result.notPulled.length > 0) {
    lines.push(paint('bold', `Not pulled (${result.notPulled.length}):`));
    for (const e of result.notPulled) lines.push(`  ${subject(e, quote)}${e.fields.length ? ` ${e.fields.map(oneLine).join(', ')}` : ''}${e.file ? ` (${onePath(e.file)}${e.line ? `:${e.line}` : ''})` : ''}: ${oneLine(e.reason ?? '')}`);
    lines.push('');
  }
  if (result.notes.length > 0) lines.push('Notes:', ...result.notes.map((n) => `  - ${oneLine(n)}`), '');
  // Hundreds of files (terms made in the app, each with its body) are named as a partial plan names targets: the first few, then a count.
  const paths = shortList(
    result.files.map((f) => `${onePath(f.path)}${changeOf(f) === 'modified' ? '' : ` (${changeOf(f)})`}`),
    LISTED_FILES,
  );
  const rest = result.files.length > LISTED_FILES ? ' (git status lists them)' : '';
  if (result.files.length > 0) {
    lines.push(
      opts.dryRun
        ? `Dry run: would write ${result.files.length} ${result.files.length === 1 ? 'file' : 'files'} (${paths}); nothing was written.`
        : `Wrote ${result.files.length} ${result.files.length === 1 ? 'file' : 'files'}: ${paths}${rest}. Review ${result.files.length === 1 ? 'it' : 'them'} (git diff) and commit; \`${opts.planCommand ?? 'docket plan'}\` now shows no changes for what was pulled${(result.notesOwed ?? result.notes.length) > 0 ? ', once the notes above are dealt with' : ''}.`,
    );
  } else if (result.notPulled.length > 0 && result.pulled.length === 0) {
    // Every live change held back: said, so a run that wrote nothing does not end as if it had not looked.
    lines.push(opts.dryRun ? 'Dry run: would write no file; what changed live is listed above as not pulled.' : 'Wrote no file: what changed live is listed above as not pulled.');
  }
  const only = scopeLine(opts.scope, oneLine);
  if (only) lines.push(only);
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

/** Characters of a cut pull report the list of files may take first (about a hundred paths). */
const FILES_SHARE = 4_000;

/** `limitSaid`: the limit a cut report names, when it was fitted to less room than that (fitPrinted). */
/** `refusal`: a dry run's guard, which the pull itself would refuse: said in the report, where a pull request shows it (probe EI-2). */
export function renderPullMarkdown(plan: Plan, result: PullResult, opts: { dryRun: boolean; maxChars?: number; limitSaid?: number; scope?: readonly ScopeFlag[]; syncFile?: string; refusal?: string }): string {
  const maxChars = opts.maxChars ?? MARKDOWN_MAX_CHARS;
  const warning = opts.refusal ? `> [!WARNING]\n> ${escapeMarkdown(opts.refusal)}\n\n` : '';
  return fitMarkdown((budget) => withWarning(pullMarkdown(plan, result, opts.dryRun, budget, opts.limitSaid ?? maxChars, opts.scope, opts.syncFile), warning), maxChars);
}

/** The report with a warning after its heading and target line. */
function withWarning(report: string, warning: string): string {
  if (warning === '') return report;
  const at = report.indexOf('\n\n', report.indexOf('\n\n') + 2);
  return at === -1 ? `${report}\n${warning}` : `${report.slice(0, at + 2)}${warning}${report.slice(at + 2)}`;
}

function pullMarkdown(plan: Plan, result: PullResult, dryRun: boolean, budget: ListBudget, maxChars: number, scope: readonly ScopeFlag[] | undefined, syncFile: string | undefined): string {
  const fmt = { name: listedName, code: codeSpan };
  // The files to review take their room (up to a share) before the changes do: a long list of
  // changes cut short is still told by its count, while a report naming none of its files is no use.
  const room = Number.isFinite(budget.left) ? Math.min(budget.left, FILES_SHARE) : Infinity;
  const share: ListBudget = { left: room, cut: false };
  const files = result.files.length > 0 ? `Files: ${joinWithin(result.files.map((f) => `${codeSpan(f.path)}${changeOf(f) === 'modified' ? '' : ` (${changeOf(f)})`}`), share)}` : undefined;
  if (Number.isFinite(room)) budget.left -= room - share.left;
  budget.cut ||= share.cut;
  const lines = ['### docket pull', '', markdownTargetLine(plan), ''];
  if (result.pulled.length === 0 && result.notPulled.length === 0) lines.push('**Nothing to pull.** The files hold every live change.', '');
  const records = recordsOnly(result, dryRun);
  if (records > 0) lines.push(escapeMarkdown(recordsOnlyText(records, syncFile)), '');
  // What was not pulled is what a person must act on: a long list of what was keeps room for it.
  const pulled = result.pulled.map((e) => `- ${entryLine(e, fmt).replace(/^(\S+)/, '`$1`')}${e.reason ? ` (${docketText(e.reason)})` : ''}`);
  // docket's commands in a reason (`docket apply`) as code, not backticks shown as typed (probe EI-5).
  // What `drift: ignore` leaves alone goes last, and a cut that leaves out only that says so as each
  // of its lines would: a CI job fails on what else was not pulled (probe EI-1).
  const ignored = (e: PullEntry): boolean => e.reason === IGNORED_REASON;
  const unpulled = [...result.notPulled.filter((e) => !ignored(e)), ...result.notPulled.filter(ignored)];
  const notPulled = unpulled.map((e) => `- ${subject(e, listedName)}${e.fields.length ? ` ${e.fields.map(codeSpan).join(', ')}` : ''}${e.file ? ` (${codeSpan(`${e.file}${e.line ? `:${e.line}` : ''}`)})` : ''}: ${docketText(e.reason ?? '')}`);
  const allIgnoredFrom = (first: number): string => (unpulled.slice(first).every(ignored) ? `: ${escapeMarkdown(IGNORED_REASON)}` : '');
  const notes = result.notes.map((n) => `- ${docketText(n)}`);
  // A dry run's diffs share the room too: the lists took it all, and a long list left none for them (second read SR75-1).
  const diffs = dryRun ? diffBlocks(result.files, budget.left) : [];
  // (Each block is followed by a blank line: one character more than a list item.)
  const [pulledShare, notPulledShare, notesShare, diffsShare] = listShares(budget.left, [pulled, notPulled, notes, diffs.map((b) => `${b}\n`)]);
  if (result.pulled.length > 0) {
    lines.push(`${dryRun ? 'Would adopt' : 'Adopted'} ${result.pulled.length} live ${result.pulled.length === 1 ? 'change' : 'changes'} into the files:`, '');
    pushWithin(lines, pulled, budget, pulledShare);
    lines.push('');
  }
  if (result.notPulled.length > 0) {
    lines.push('**Not pulled**', '');
    pushWithin(lines, notPulled, budget, notPulledShare, allIgnoredFrom);
    lines.push('');
  }
  if (result.notes.length > 0) {
    lines.push('**Notes**', '');
    pushWithin(lines, notes, budget, notesShare);
    lines.push('');
  }
  if (files) lines.push(files, '');
  if (dryRun && result.files.length > 0) pushDiffs(lines, diffs, result.files.length, budget, diffsShare);
  const only = scopeLine(scope, codeSpan);
  if (only) lines.push(`_${only}_`, '');
  if (budget.cut) lines.push(cutNote(maxChars), '');
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

/** Each file's diff as a dry run shows it, up to the first past `room`: a diff may take half a second. */
/** Diffs too long for the comment on their own that are worked out before the rest are left unread. */
const MAX_TOO_LONG_DIFFS = 5;

function diffBlocks(files: readonly FileChange[], room: number): string[] {
  const blocks: string[] = [];
  let spent = 0;
  let tooLong = 0;
  for (const f of files) {
    if (spent > room) break;
    const block = `${codeSpan(f.path)}\n\n${fencedBlock(shownDiff(f, false).join('\n'), 'diff')}`;
    // One that could never fit is left out on its own: the ones after it may (probe MT-2). Past a
    // few such, the rest are not worked out (80 huge diffs took a minute and a half: SR77-4).
    if (block.length + 2 > room) {
      if (++tooLong > MAX_TOO_LONG_DIFFS) break;
      continue;
    }
    spent += block.length + 2;
    blocks.push(block);
  }
  return blocks;
}

/** A dry run's diffs, as the text report gives them, folded away, as many as their share holds (probe HJ). */
function pushDiffs(lines: string[], blocks: readonly string[], files: number, budget: ListBudget, share: number): void {
  const shown: string[] = [];
  let spent = 0;
  for (const block of blocks) {
    if (spent + block.length + 2 > share) continue;
    spent += block.length + 2;
    shown.push(block);
  }
  budget.left -= spent;
  if (shown.length === 0) {
    budget.cut = true;
    lines.push('_The diffs do not fit in this comment: `docket pull --dry-run` prints them._', '');
    return;
  }
  lines.push('<details><summary>Diff</summary>', '', ...shown.flatMap((b) => [b, '']));
  const left = files - shown.length;
  if (left > 0) {
    budget.cut = true;
    lines.push(`_… and the diff${left === 1 ? '' : 's'} of ${thousands(left)} more file${left === 1 ? '' : 's'} not shown: \`docket pull --dry-run\` prints ${left === 1 ? 'it' : 'them'}._`, '');
  }
  lines.push('</details>', '');
}

/** `guard`: what the removal guard refuses, for a dry run (a pull that writes is refused instead, exit 1). */
export function renderPullJson(plan: Plan, result: PullResult, opts: { dryRun: boolean; kinds?: readonly string[]; targets?: readonly string[]; guard?: readonly GuardViolation[] }): string {
  const records = recordsOnly(result, opts.dryRun);
  return jsonText({
    format_version: 1,
    target: plan.target,
    ...(plan.environment ? { environment: plan.environment } : {}),
    // As drift's: what limited the pull, so a bot tells a partial pull from a whole one.
    ...(opts.kinds?.length ? { kinds: [...opts.kinds] } : {}),
    ...(opts.targets?.length ? { targets: [...opts.targets] } : {}),
    dry_run: opts.dryRun,
    // As the plan's: a bot reading a dry run tells one the pull would refuse (probe JA-3).
    ...(opts.guard?.length ? { guard: [...opts.guard] } : {}),
    pulled: result.pulled,
    not_pulled: result.notPulled,
    notes: result.notes,
    files: result.files.map((f) => ({ path: f.path, change: changeOf(f), diff: fileDiff(f) })),
    ...(records > 0 ? { records_updated: records } : {}),
  });
}

/**
 * Sync records a pull that wrote no file changed in docket.lock.json (records of objects gone from
 * the files and the app forgotten, objects in sync recorded): said, or a CI job that opens a pull
 * request for a changed checkout opens one whose report says nothing changed (probe NH-2).
 */
function recordsOnly(result: PullResult, dryRun: boolean): number {
  return !dryRun && result.files.length === 0 ? result.sync.size : 0;
}

function recordsOnlyText(records: number, syncFile = 'docket.lock.json'): string {
  // The emulator's records (.docket/emulator-sync.json) are no file to commit (second read SR78-3).
  const commit = syncFile.endsWith('docket.lock.json') ? ': commit it' : '';
  return `Updated ${records === 1 ? '1 sync record' : `${records} sync records`} in ${syncFile} (objects gone from the files and the app forgotten, objects in sync recorded)${commit}.`;
}
