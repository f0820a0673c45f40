/** What `docket export` prints on stdout: files per kind, files to add, notes and next steps. Pure. */
import { shellWord } from '../util/shell-word.js';
import { stripControl } from '../render/sanitize.js';
import { shortList } from '../render/facts.js';
import type { Paint } from '../render/paint.js';
import type { AnyKind } from '../kinds/index.js';
import { PROJECT_FILE, type ExportResult } from './index.js';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { SETTING_CODES } from '../kinds/support/fixed-in-files.js';
import { GITIGNORE_ENTRY, GITIGNORE_FILE } from '../config/work-dir.js';
import { quoteValue, showPath } from '../config/quote.js';

/** How many objects were recorded and in which file, or why none were (and how many differences a plan of the files found, when that is why). */
/** `changes`: what a plan of the files shows; `unseen`: live objects the check found that export's read did not list (a plan lists them as declared in no file). */
export type ExportRecords = { recorded: number; file: string } | { skipped: string; changes?: number; unseen?: number; unchecked?: true };

export interface SummaryOptions {
  /** The output directory as the user wrote it (shown in commands). */
  out: string;
  /** `target: …` text for the header. */
  target: string;
  /** Extra flags the next commands need (`--emulator`). */
  flags: string[];
  /** The emulator state was copied along. */
  copiedEmulatorState?: boolean;
  paint: Paint;
  /** The kinds, for their titles and nouns. */
  kinds: readonly AnyKind[];
  /** What plan refuses in the written directory (validate's checks, then those against the services): what they hold that docket does not allow. */
  refused?: readonly Diagnostic[];
  /** The objects recorded as in sync in the written docket.lock.json, or why none were. */
  records?: ExportRecords;
}

/** Refusals listed before the rest is left to `docket plan`. */
const REFUSED_SHOWN = 10;

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function renderExportSummary(result: ExportResult, options: SummaryOptions): string {
  const { paint } = options;
  const clean = (s: string) => stripControl(s).replace(/\n/g, ' ');
  const lines: string[] = [`docket export · ${options.target}`, ''];
  lines.push(`Wrote ${plural(result.files.length, 'file', 'files')} to ${showPath(options.out)}:`);
  lines.push(`  ${GITIGNORE_FILE.padEnd(18)} keeps ${GITIGNORE_ENTRY} (docket's local scratch) out of git`);
  lines.push(`  ${'docket.yaml'.padEnd(18)} project settings`);
  const kindOf = (name: string) => options.kinds.find((k) => k.name === name);
  for (const part of result.parts) {
    const kind = kindOf(part.kind);
    const [one, many] = kind?.noun ?? [part.kind, part.kind];
    const children = part.children.map((c) => {
      const [cOne, cMany] = kindOf(c.kind)?.noun ?? [c.kind, c.kind];
      return plural(c.count, cOne, cMany);
    });
    const what = [plural(part.count, one, many), ...children].join(', ');
    lines.push(`  ${(kind?.title ?? part.kind).toLowerCase().padEnd(18)} ${plural(part.files.length, 'file', 'files')} (${what})`);
  }
  const dir = shellWord(options.out);
  const flags = options.flags.map((f) => ` ${f}`).join('');
  if (result.missing.length > 0) {
    lines.push('', paint('yellow', `Add ${plural(result.missing.length, 'file', 'files')} the services cannot give back:`));
    const width = Math.max(...result.missing.map((m) => m.path.length));
    for (const m of result.missing) {
      // Named only while it holds the bytes uploaded: another file adopted would be recorded as live (probe SC-2).
      // Not there to check (a source directory of its docket.yaml and lock alone): its sha256 says which file it is.
      const from = !m.sourceFile
        ? ''
        : m.sourceState === 'changed'
          ? `; the source configuration uploaded ${clean(m.sourceFile)}, which holds other bytes now: find the file of sha256 ${m.sourceSha256 ?? '(unknown)'}`
          : `; the source configuration uploaded ${clean(m.sourceFile)}${m.sourceState === 'gone' && m.sourceSha256 ? ` (sha256 ${m.sourceSha256})` : ''}`;
      lines.push(`  ${clean(m.path).padEnd(width)}  ${m.what} of ${m.kind} ${quoteValue(m.name, 200)}${from}`);
    }
  }
  if (result.notes.length > 0) {
    lines.push('', 'Notes:');
    for (const n of groupedNotes(result.notes)) lines.push(`  - ${clean(n)}`);
  }
  if (options.copiedEmulatorState) {
    lines.push('', `The emulator state was copied to ${showPath(path.join(options.out, '.docket', 'emulator.json'))}, so --emulator runs there see the same organization.`);
  }
  // A setting the source docket.yaml lacks, or holds wrong (an actor who is no user), is not a value
  // the services hold: the app cannot mend it.
  const isSetting = (d: Diagnostic): boolean => SETTING_CODES.has(d.code) || d.file === PROJECT_FILE;
  const settings = (options.refused ?? []).filter(isSetting);
  const refused = (options.refused ?? []).filter((d) => !isSetting(d));
  if (settings.length > 0) {
    lines.push('', paint('yellow', `docket refuses the written files until docket.yaml sets what they need:`));
    for (const message of new Set(settings.map((d) => d.message))) {
      // Where plan says it, so the two outputs can be matched.
      const where = settings.filter((d) => d.message === message && d.file).map((d) => `${clean(d.file!)}:${d.line ?? 1}:${d.col ?? 1}`);
      const shown = where.length > 3 ? `${where.slice(0, 3).join(', ')} and ${where.length - 3} more` : where.join(', ');
      lines.push(`  ${showPath(path.join(options.out, 'docket.yaml'))}: ${clean(message)}${shown ? ` (plan says it at ${shown})` : ''}`);
    }
  }
  if (refused.length > 0) {
    lines.push('', paint('yellow', `docket refuses ${plural(refused.length, 'value', 'values')} the services hold (docket allows less than they do):`));
    // Where the user runs the next commands from: under the output directory.
    const at = (d: Diagnostic): string => (d.file ? `${showPath(path.join(options.out, d.file))}:${d.line ?? 1}:${d.col ?? 1} ` : '');
    // The other place a message names (`(also at playbooks/x.yaml:3)`, `looks like playbook "X"
    // (playbooks/x.yaml:3)`) is under the output directory too (probes NO-2, QA-3).
    const under = (message: string): string => message.replace(/\((also at )?([^\s()"]+\.ya?ml:\d+)\)/g, (_, also: string | undefined, place: string) => `(${also ?? ''}${showPath(path.join(options.out, place))})`);
    for (const d of refused.slice(0, REFUSED_SHOWN)) lines.push(`  ${at(d)}${clean(under(d.message))}`);
    if (refused.length > REFUSED_SHOWN) lines.push(`  … and ${refused.length - REFUSED_SHOWN} more: docket plan -C ${shellWord(options.out)}${options.flags.map((f) => ` ${f}`).join('')}`);
  }
  const records = options.records;
  if (records && 'recorded' in records && records.recorded > 0) {
    lines.push('', `Recorded ${plural(records.recorded, 'object', 'objects')} as in sync in ${clean(records.file)}, so drift and pull see what changes in the app from now on.`);
  } else if (records && 'skipped' in records) {
    lines.push('', paint('yellow', `No sync records were written (${clean(records.skipped)}): the first apply records what it finds in sync.`));
  }
  lines.push('', 'Next steps:');
  if (settings.length > 0) lines.push(`  set them in ${showPath(path.join(options.out, 'docket.yaml'))}; then`);
  if (refused.length > 0) lines.push('  change these in the app (and export again) or in the files; then');
  if (result.parts.some((p) => p.sameNames > 0)) lines.push('  rename all but one of the objects that share a name (see the notes), in the app and in its file; then');
  lines.push(`  docket plan -C ${dir}${flags}`);
  const moved = records && 'skipped' in records ? (records.changes ?? 0) : 0;
  const unseen = records && 'skipped' in records ? (records.unseen ?? 0) : 0;
  // The files are of the state first read: what its check saw since is a plan's changes, not none;
  // objects export's read missed are no change of a plan, which lists them as declared in no file.
  if (moved > 0 || unseen > 0) {
    const shows = moved > 0 ? `shows the ${plural(moved, 'difference', 'differences')} its check found` : 'shows no changes';
    const lacking = unseen > 0 ? `${moved > 0 ? ', and' : ', though'} the files lack the ${plural(unseen, 'live object', 'live objects')} its check found and export's read missed` : '';
    // Said as what the command does (`which …`): on a line of its own, a bare `shows …` read as a command (probe LJ-8).
    lines.push(`  which ${shows}${lacking}; to have files that match the organization as it is now, export again into an empty directory.`);
  }
  // No plan of the files was made: whether they match was never seen, so no "no changes" is promised.
  else if (records && 'skipped' in records && records.unchecked) lines.push('  which shows whether the files match the organization (export could not check them: see above).');
  else lines.push('  which shows no changes.');
  if (result.missing.length > 0) {
    lines.push('', 'To manage the resources whose files the services cannot give back:');
    lines.push('  1. add each file listed above');
    lines.push('  2. rename its document from .yaml.pending to .yaml');
    for (const m of result.missing) lines.push(`       ${clean(m.document)}`);
    lines.push(`  3. docket apply -C ${dir}${flags} --adopt-files`);
    const again = result.missing.filter((m) => m.publishedAgain);
    // A Word file the service could not convert is published again by that apply: not promised otherwise (probe HH-2).
    lines.push(again.length === 0 ? '     records the files in docket.lock.json as live, without uploading anything' : `     records the files in docket.lock.json as live, uploading nothing but ${again.length === 1 ? `the Word file of ${quoteValue(again[0]!.name, 200)}` : `the Word files of ${again.length} custom terms`}, which the service could not convert and the apply publishes again (see the notes)`);
  }
  lines.push('', 'Commit the directory; API keys stay in the environment.');
  return `${lines.join('\n')}\n`;
}

/** An object's own note: `template "Template 004": <what>`, `custom term "W": <what>` (its name as quoteValue writes it). */
// Not a sentence that names an object later (`several templates are named "X": …`: second read SR100-4).
const OBJECT_NOTE = /^((?:custom )?[a-z][a-z-]*) ("(?:[^"\\]|\\.)*"): (.+)$/s;
/**
 * The notes, general ones first, and objects' notes that say the same thing as one line naming
 * them: an export of 50 templates naming one pending attachment said it 50 times (probes QU-4, RJ-6).
 */
export function groupedNotes(notes: readonly string[]): string[] {
  const general: string[] = [];
  const groups = new Map<string, { kind: string; what: string; names: string[] }>();
  for (const note of notes) {
    const own = OBJECT_NOTE.exec(note);
    if (!own) {
      general.push(note);
      continue;
    }
    const [, kind, name, what] = own as unknown as [string, string, string, string];
    const key = `${kind}\0${what}`;
    const group = groups.get(key);
    if (group) group.names.push(name);
    else groups.set(key, { kind, what, names: [name] });
  }
  const grouped = [...groups.values()].map(({ kind, what, names }) => (names.length === 1 ? `${kind} ${names[0]}: ${what}` : `${kind}s ${shortList(names)}: ${what}`));
  return [...general, ...grouped];
}
