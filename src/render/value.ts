/** Field values as one line of JSON-ish text: strings quoted, numbers and booleans plain, null as `null`. */
import { markInvisible, quoteValue, showJson } from '../config/quote.js';
import { HIDDEN_PARTS } from '../config/url-secrets.js';
import { stripControl } from './sanitize.js';
import { ACCENTS_ONLY, differOnlyInAccents } from '../util/nfc.js';
import { markedControl } from '../util/control-text.js';
import { drawnAlikeLetter } from '../util/other-script.js';

/** Never cut: a plan shows the whole value. */
const WHOLE = Number.POSITIVE_INFINITY;

/**
 * A value as the plan shows it: what it holds, escaped as diagnostics quote values (control,
 * bidirectional, zero-width and space-like characters as `\u` escapes), so no byte reaches the
 * terminal as a command and two values that differ never look the same.
 */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return quoteValue(v, WHOLE);
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  try {
    return showJson(v, WHOLE);
  } catch {
    return stripControl(String(v)); // cycles cannot come from a plan, but a renderer must not throw
  }
}

/**
 * What a field line adds when its two sides print the same but differ: text whose accents are
 * composed on one side and decomposed on the other (NFC and NFD), which no escape shows; or text
 * that differs only in what output hides of a URL (a password, a query, a fragment), which is not
 * shown even then: it may hold a token.
 */
export function sameShownNote(before: unknown, after: unknown): string {
  if (typeof before !== 'string' || typeof after !== 'string' || before === after) return '';
  if (differOnlyInAccents(before, after)) return ` (${ACCENTS_ONLY})`;
  // A Cyrillic `Т` for a Latin `T` (a reference to a look-alike name): the line would read as no change (probe RF-1).
  const letter = drawnAlikeLetter(before, after);
  if (letter) return ` (no visible difference: they differ only in a letter of another alphabet: ${letter})`;
  return formatValue(before) === formatValue(after) ? ` (no visible difference: they differ only in what output hides as it may hold a secret: ${HIDDEN_PARTS})` : '';
}

/** A one-line text longer than this, changed in a few words, is shown around what changed. */
const LONG_LINE = 300;
/** Characters both sides share that stay on either side of what changed. */
const AROUND = 60;
/** Leaving out fewer characters than this would not make the line readable. */
const WORTH_CUTTING = 100;

/**
 * Two one-line texts as a field line shows them: a long line changed in a word or two around what
 * changed, with what both sides share on either side left out (`…"… WORD01234 …"…`), so the change
 * can be found (probe LZ-2); undefined when both are shown whole. Cut only at a break (BREAK), so a
 * word (a URL, a key) is never shown in part; `-o json` keeps both whole.
 */
export function aroundChange(before: unknown, after: unknown): { before: string; after: string; note: string } | undefined {
  if (typeof before !== 'string' || typeof after !== 'string') return undefined;
  if (Math.max(before.length, after.length) <= LONG_LINE || before.includes('\n') || after.includes('\n')) return undefined;
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  // Where the shown part starts: after a break at least AROUND characters ahead of the change.
  const space = head - AROUND > 0 ? lastBreak(before, head - AROUND) : -1;
  const start = space > 0 ? space + 1 : 0;
  // Where it ends, counted from the end: at a break at least AROUND characters past the change.
  const endSpace = tail - AROUND > 0 ? nextBreak(before, before.length - tail + AROUND) : -1;
  const dropped = endSpace > 0 ? before.length - endSpace : 0;
  if (start + dropped < WORTH_CUTTING) return undefined;
  const shown = (text: string): string => `${start > 0 ? '…' : ''}${formatValue(text.slice(start, text.length - dropped))}${dropped > 0 ? '…' : ''}`;
  // Counted in characters, as a name's length is (an emoji is one), not in UTF-16 units.
  const [ahead, behind] = [[...before.slice(0, start)].length, [...before.slice(before.length - dropped)].length];
  const said = [start > 0 ? `${count(ahead)} before it` : '', dropped > 0 ? `${count(behind)} after it` : ''].filter((s) => s);
  return { before: shown(before), after: shown(after), note: ` (shown around what changed; both sides share the ${said.join(' and the ')} left out)` };
}

const count = (n: number): string => `${n.toLocaleString('en-US')} ${n === 1 ? 'character' : 'characters'}`;

/**
 * A character a line may be cut at: a space, or one of a script written without spaces (Chinese
 * and Japanese, their punctuation, fullwidth punctuation), which is a word of its own there (probe
 * OA-2). Never inside a run of other letters, which may be a URL or a key, nor of fullwidth
 * letters and digits (second read SR79B-5).
 */
const BREAK = /[ \u2e80-\u9fff\uf900-\ufaff\uff01-\uff0f\uff1a-\uff20\uff3b-\uff40\uff5b-\uff65]/;

/** The last break at or before `from`, or -1. */
function lastBreak(text: string, from: number): number {
  for (let i = from; i >= 0; i--) if (BREAK.test(text[i]!)) return i;
  return -1;
}

/** The first break at or after `from`, or -1. */
function nextBreak(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (BREAK.test(text[i]!)) return i;
  return -1;
}

/**
 * ` (organization …, nested paths)` of a review target, each part only once known: a run that made
 * no review call has learnt neither, and says none (probe FG-2).
 */
export function reviewPlace(review: { organization_id: string; path_style?: string | undefined }, show: (id: string) => string): string {
  const parts = [...(review.organization_id !== '' ? [`organization ${show(review.organization_id)}`] : []), ...(review.path_style ? [`${review.path_style} paths`] : [])];
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

/** A service URL as a report's header names it: without a final `/`, which names the same service (probe ME-2). */
export function targetUrl(url: string): string {
  return url.replace(/(?<=[^/])\/+$/, '');
}

/** A name or identity in quotes, escaped like a JSON string so it stays on one line. */
export function quote(s: string): string {
  return quoteValue(s, WHOLE);
}

/**
 * Untrusted text on one line: control characters gone, line breaks as spaces, what prints as
 * nothing or as a plain space shown (`no<U+200B>te`), so two texts that differ never look the same.
 */
export function oneLine(s: string): string {
  return markInvisible(stripControl(s).replace(/[\n\t]+/g, ' '));
}

/**
 * A file path on one line: a line break, a tab or another control character in it shown as
 * `<U+000A>`, not as a space or nothing, since a path with one is another file (probe JC-5); the
 * rest as oneLine.
 */
export function onePath(path: string): string {
  // Every C0, DEL and C1 character marked before the rest goes: a CR or a VT removed would name another file too (fourth read RV4-2).
  return markInvisible(stripControl(markedControl(path)));
}
