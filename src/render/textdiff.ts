/**
 * Multi-line values (rule actions, term bodies) read best as a unified diff. Shared by the text
 * and markdown renderers; returns bare lines (hunk headers and `+`/`-`/` ` lines) without the
 * file header, which would only repeat the field name.
 */
import { structuredPatch } from 'diff';
import { markInvisible } from '../config/quote.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';
import { markedControl } from '../util/control-text.js';
import { stripControl } from './sanitize.js';
import { canonicalJson } from '../engine/canonical.js';
import { formatValue } from './value.js';
import { displayWidth } from './width.js';
import { ACCENTS_ONLY, composed, differOnlyInAccents } from '../util/nfc.js';

/** The text a side contributes: strings as they are, nothing for null, other values as JSON. */
function sideText(v: unknown): string {
  if (v === null || v === undefined) return '';
  // A line differing only in a no-break or zero-width space must not show as the same line twice;
  // nor one differing in a control character, shown as `<U+0007>` rather than dropped (probe KD-2).
  // A URL's password, query and fragment hidden, as in every value a plan shows on one line (probe
  // AH-1); no URL without a `/` or `\` (the text of 20,000 rules is read once more only where one may be).
  const text = typeof v === 'string' ? markInvisible(stripControl(markedControl(v.includes('/') || v.includes('\\') ? lineWithoutSecrets(v) : v, true))) : formatValue(v);
  // Every line gets an end of line, so a last line that gained a successor is not shown as changed.
  return text === '' ? '' : `${text}\n`;
}

export function diffLines(before: unknown, after: unknown): string[] {
  const oldText = sideText(before);
  const newText = sideText(after);
  // A value created or removed is all one side: what the diff would say, without running it (the
  // plan of a bootstrap shows 20,000 rules' actions).
  if (oldText === '' || newText === '') return wholeSide(oldText === '' ? newText : oldText, oldText === '' ? '+' : '-');
  return unified(oldText, newText);
}

/** A list longer than this, or one holding mappings or lists, changes item by item. */
const SHORT_LIST = 3;

/**
 * A list's change item by item, one item a line as the plan shows a value (hunks count items), when
 * that reads best: both sides lists, one longer than SHORT_LIST or holding mappings or lists (a
 * DPA's 2,000 subprocessors with one renamed were shown as both whole lists on one line).
 * Undefined for a short list of plain values (it stays inline), or no difference to show.
 */
export function itemDiff(before: unknown, after: unknown): string[] | undefined {
  if (!Array.isArray(before) || !Array.isArray(after)) return undefined;
  const nested = (list: readonly unknown[]): boolean => list.some((item) => item !== null && typeof item === 'object');
  if (before.length <= SHORT_LIST && after.length <= SHORT_LIST && !nested(before) && !nested(after)) return undefined;
  // An item both sides hold reads as one line on both, whatever order the keys of its mapping are written in (probe GC-2).
  const shownBefore = new Map(before.map((item) => [canonicalJson(item), formatValue(item)]));
  const itemLines = (list: readonly unknown[]): string => list.map((item) => `${shownBefore.get(canonicalJson(item)) ?? formatValue(item)}\n`).join('');
  const lines = unified(itemLines(before), itemLines(after));
  return lines.length > 0 ? lines : undefined;
}

/**
 * How far the line diff of a value may look for the shortest edit: Myers' diff costs about
 * (lines of both sides) × (edits), so two 10,000-line texts with every line changed took 20 s.
 * Beyond it a value's change is shown as one replaced block (still a true unified diff), bounded
 * to some 0.05 s a value. It may look further, up to FEW_EDITS_BUDGET, where the lines one side
 * has and the other has not (counted first, in linear time) say the edit is that short: 63 lines
 * edited across a 25,000-line text are 63 hunks, and a text rewritten throughout is one block
 * without running the diff at all.
 */
const VALUE_DIFF_BUDGET = 1_000_000;
const FEW_EDITS_BUDGET = 20_000_000;

/**
 * The longest edit a line diff of `oldText` and `newText` may look for within `budget`; further, up
 * to `furthest` edits, where the lines one side has and the other has not say the edit is that
 * short (the diff of sparse edits costs far less than the budget's lines × edits: 1,000 edits across
 * a 144,000-line file take 0.4 s). Past it the diff gives up at once and the caller shows one block.
 */
export function maxEditLength(oldText: string, newText: string, budget: number, furthest = 0): number {
  const limit = editLimit(lineCount(oldText) + lineCount(newText), budget);
  if (furthest <= limit) return limit;
  const fewest = unsharedLines(oldText.split('\n'), newText.split('\n'));
  return fewest > furthest ? limit : Math.max(limit, Math.min(2 * fewest, furthest));
}

function editLimit(lines: number, budget: number): number {
  return Math.max(100, Math.floor(budget / Math.max(1, lines)));
}

/**
 * How many lines one side holds that the other does not (as many times): the fewest lines any
 * edit script adds and removes. Its shortest edit is at least this long, and as long when no
 * line moved.
 */
function unsharedLines(before: readonly string[], after: readonly string[]): number {
  const counts = new Map<string, number>();
  for (const line of before) counts.set(line, (counts.get(line) ?? 0) + 1);
  for (const line of after) counts.set(line, (counts.get(line) ?? 0) - 1);
  let unshared = 0;
  for (const n of counts.values()) unshared += Math.abs(n);
  return unshared;
}

/** The lines of a text each of whose lines ends in `\n`. */
function linesOf(text: string): string[] {
  return text === '' ? [] : text.slice(0, -1).split('\n');
}

function lineCount(text: string): number {
  let n = 1;
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) n++;
  return n;
}

/**
 * The line-diff work (lines × edits, as above) one rendering of a plan may spend on all its values:
 * some 3 s. Each value's diff is bounded, but not their sum: 150 rules of 3,000 lines, every other
 * line edited, took 100 s to print, past --timeout and Ctrl-C (probe YH-1). Past it, each further
 * value's change is one replaced block, as a value past its own bound is.
 */
const RENDER_DIFF_BUDGET = 100_000_000;
let diffWorkLeft = RENDER_DIFF_BUDGET;

/** Gives a rendering (a plan's text or markdown) the whole budget of line-diff work. */
export function newDiffBudget(budget = RENDER_DIFF_BUDGET): void {
  diffWorkLeft = budget;
}

function unified(oldText: string, newText: string): string[] {
  const lines = lineCount(oldText) + lineCount(newText);
  if (diffWorkLeft < lines) return replacedBlock(linesOf(oldText), linesOf(newText));
  let maxEdit = editLimit(lines, VALUE_DIFF_BUDGET);
  const furthest = editLimit(lines, FEW_EDITS_BUDGET);
  if (maxEdit < furthest) {
    // A long value: how short its edit can be decides how far to look (twice that, as some lines may move).
    const [before, after] = [linesOf(oldText), linesOf(newText)];
    const fewest = unsharedLines(before, after);
    if (fewest > furthest) return replacedBlock(before, after);
    maxEdit = Math.max(maxEdit, Math.min(2 * fewest, furthest));
  }
  maxEdit = Math.min(maxEdit, Math.floor(diffWorkLeft / lines));
  const patch = structuredPatch('before', 'after', oldText, newText, undefined, undefined, { context: 3, maxEditLength: maxEdit });
  // What the diff cost: the edits it found, or all it was allowed before it gave up.
  diffWorkLeft -= lines * Math.max(1, patch ? patch.hunks.reduce((n, h) => n + h.oldLines + h.newLines, 0) : maxEdit);
  if (!patch) return replacedBlock(linesOf(oldText), linesOf(newText));
  const out: string[] = [];
  for (const h of patch.hunks) {
    // Unified-diff convention (as jsdiff's own formatPatch): an empty side starts at the line before.
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    out.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`);
    // `\ No newline at end of file` cannot occur (every side ends in one); filtered all the same.
    for (const line of h.lines) if (!line.startsWith('\\')) out.push(line);
  }
  return out;
}

/** The hunk of a side that is all added (`+`) or all removed (`-`); nothing when it is empty. */
function wholeSide(text: string, sign: '+' | '-'): string[] {
  if (text === '') return [];
  const lines = text.slice(0, -1).split('\n');
  const header = sign === '+' ? `@@ -0,0 +1,${lines.length} @@` : `@@ -1,${lines.length} +0,0 @@`;
  return [header, ...lines.map((line) => sign + line)];
}

/**
 * The change of `before` into `after` as one hunk: the lines both share at the start and the end
 * kept (three of them shown as context), the rest removed and added. What a line diff too long to
 * work out shows instead.
 */
export function replacedBlock(before: readonly string[], after: readonly string[], context = 3): string[] {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  if (head === before.length && head === after.length) return [];
  const from = Math.max(0, head - context);
  const oldEnd = Math.min(before.length, before.length - tail + context);
  const newEnd = Math.min(after.length, after.length - tail + context);
  const oldLines = oldEnd - from;
  const newLines = newEnd - from;
  // Unified-diff convention: an empty side starts at the line before.
  const header = `@@ -${oldLines === 0 ? from : from + 1},${oldLines} +${newLines === 0 ? from : from + 1},${newLines} @@`;
  return [
    header,
    ...before.slice(from, head).map((l) => ` ${l}`),
    ...before.slice(head, before.length - tail).map((l) => `-${l}`),
    ...after.slice(head, after.length - tail).map((l) => `+${l}`),
    ...before.slice(before.length - tail, oldEnd).map((l) => ` ${l}`),
  ];
}

/**
 * The plan's note for each added line (`+…`) of a diff that prints as a line its hunk removes, ''
 * for the rest: one whose accents are encoded otherwise (NFC and NFD), or that differs only in the
 * white space ending it or in tabs against spaces (probe JH-1), which no terminal shows. Only lines
 * that could be such are compared (a replaced block may have thousands).
 */
export function sameLineNotes(lines: readonly string[], fileHeaders = false): string[] {
  const notes = lines.map(() => '');
  let removed = new Map<string, string>();
  lines.forEach((line, at) => {
    if (line.startsWith('@@')) removed = new Map();
    // A file diff's first two lines name the files; a value's diff has none (`--x` is a line), nor has
    // a file's diff past them (a `---` marker of a document; second read SR70-5).
    if (fileHeaders && at < 2 && (line.startsWith('---') || line.startsWith('+++'))) return;
    const text = line.slice(1);
    if (line.startsWith('-')) {
      const key = lookAlikeKey(text);
      if (!removed.has(key)) removed.set(key, text);
    } else if (line.startsWith('+') && removed.size > 0) {
      const was = removed.get(lookAlikeKey(text));
      if (was !== undefined) notes[at] = lookAlikeNote(was, text);
    }
  });
  return notes;
}

/**
 * A value's diff with each added line's note after it as a line of its own, `\\ …` (as diff's own
 * `\\ No newline at end of file`): beside the line, it ran into the white space it is about (probe
 * JH-3). Not for a file's diff, which stays a patch: see notesBelow.
 */
export function withNoteLines(lines: readonly string[], notes: readonly string[]): string[] {
  const out: string[] = [];
  lines.forEach((line, at) => {
    out.push(line);
    if (notes[at]) out.push(`${NOTE_MARK}${notes[at]}`);
  });
  return out;
}

/** How a note line of a value's diff starts. */
export const NOTE_MARK = '\\ ';

/**
 * A file's diff with its notes after its last hunk, each naming the line of the new file it is
 * about (`# line 2: no visible difference: …`): inside a hunk a line of another kind breaks the
 * patch for `git apply` and `patch` (second read SR70-3), which read what follows the hunks as
 * commentary.
 */
export function notesBelow(lines: readonly string[], notes: readonly string[]): string[] {
  const said: string[] = [];
  let line = 0;
  lines.forEach((text, at) => {
    const hunk = /^@@ -\d+(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(text);
    if (hunk) line = Number(hunk[1]);
    else if (at >= 2 && (text.startsWith('+') || text.startsWith(' '))) {
      if (notes[at]) said.push(`${FILE_NOTE_MARK}line ${line}: ${notes[at]}`);
      line++;
    }
  });
  return said.length === 0 ? [...lines] : [...lines, ...said];
}

/** How a note under a file's diff starts. */
export const FILE_NOTE_MARK = '# ';

/** What two lines that print alike share: their letters composed, tabs and runs of spaces as one space, no white space at the end. */
function lookAlikeKey(text: string): string {
  const key = composed(text).trimEnd();
  return key.includes('\t') || key.includes('  ') ? key.replace(/[ \t]+/g, ' ') : key;
}

/** Why an added line that prints as the removed one differs; '' when it shows (indentation of spaces, a space between words). */
function lookAlikeNote(was: string, now: string): string {
  if (was === now) return '';
  if (differOnlyInAccents(was, now)) return ACCENTS_ONLY;
  const [before, after] = [composed(was), composed(now)];
  // Accents encoded otherwise as well as the white space: both said, neither as the only difference (second read SR70-4).
  const accents = lettersDiffer(was, now);
  const [what, also] = accents ? ['', ', and the accents encoded otherwise'] : ['only ', ''];
  const [endBefore, endAfter] = [before.length - before.trimEnd().length, after.length - after.trimEnd().length];
  if (before.slice(0, before.length - endBefore) === after.slice(0, after.length - endAfter)) {
    return `no visible difference: ${what}the white space ending the line, ${whiteSpace(before.slice(before.length - endBefore))} before and ${whiteSpace(after.slice(after.length - endAfter))} now${also}`;
  }
  // The indentation only (a tab between words prints wider, and shows): said by its white space
  // alone, never the line's text, which may hold what output hides (fourth read RV5-1, RV5-4).
  const [leadBefore, leadAfter] = [/^[ \t]*/.exec(before)![0], /^[ \t]*/.exec(after)![0]];
  const rest = (text: string, lead: string): string => text.slice(lead.length).trimEnd();
  if ((leadBefore.includes('\t') || leadAfter.includes('\t')) && rest(before, leadBefore) === rest(after, leadAfter)) {
    return `no visible difference: ${what}the indentation, ${whiteSpace(leadBefore)} before and ${whiteSpace(leadAfter)} now${also}`;
  }
  // A tab between words against spaces that reach the same tab stop: the lines print alike (probe
  // KC-3); a tab that prints wider shows. Said by what differs, never the line's text.
  if ((before.includes('\t') || after.includes('\t')) && tabsExpanded(before.trimEnd()) === tabsExpanded(after.trimEnd())) {
    return `no visible difference: ${what}tabs against spaces between words${also}`;
  }
  return '';
}

/**
 * The line as a terminal prints it, tabs as spaces to the next 8-column stop. A diff line starts
 * one column in (after `-`/`+` in markdown, after eight spaces and the sign in a text plan: one
 * past a stop both ways).
 */
function tabsExpanded(text: string): string {
  let out = '';
  // Columns as a terminal counts them: a wide letter takes two (second read SR72-5).
  let column = 1;
  for (const c of text) {
    const width = c === '\t' ? 8 - (column % 8) : displayWidth(c);
    out += c === '\t' ? ' '.repeat(width) : c;
    column += width;
  }
  return out;
}

/** Whether two lines that compose alike hold their letters encoded otherwise, white space aside. */
function lettersDiffer(was: string, now: string): boolean {
  const letters = (text: string): string => text.replace(/\s+/g, '');
  return letters(was) !== letters(now);
}

/** White space as a plan says it: `none`, or quoted with its tabs escaped (`" "`, `"\t"`). */
function whiteSpace(text: string): string {
  return text === '' ? 'none' : formatValue(text);
}
