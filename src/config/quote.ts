import { windowAround } from '../util/whole-slice.js';
import { NOT_EMOJI_PART, SHOWN_AS_NOTHING, SPACE_LIKE } from '../util/invisible.js';
import { lineWithoutSecrets } from './url-secrets.js';

/**
 * A value as a diagnostic quotes it: in double quotes, one line, every control character escaped
 * (JSON escapes C0; DEL and C1 are escaped here too), a URL's secrets hidden (`https://***@host/?…`,
 * as the source line under the message hides them), and cut short so a huge value stays readable.
 */
export function quoteValue(text: string, max = 60): string {
  return escapeC1(JSON.stringify(cutShort(lineWithoutSecrets(text), max)));
}

/**
 * As quoteValue, but a long value is shown around index `at` (the character a message is about),
 * `…` where it is cut: its first characters may not reach it.
 */
export function quoteAround(raw: string, at: number, max = 60): string {
  const text = lineWithoutSecrets(raw);
  if (text.length <= max) return quoteValue(text, max);
  // Two characters kept for the `…` at either end.
  return escapeC1(JSON.stringify(windowAround(text, at, max - 2, (max - 2) / 2).text));
}

/**
 * Any value as JSON, one line, cut short as quoteValue cuts text: for a place where a string was
 * expected and something else was found (`7`, `{"id":"x"}`).
 */
export function showJson(value: unknown, max = 60): string {
  // JSON writes a number too large for a double (`1e400`, read as Infinity) as null: said as what it is read as (probe BC-4).
  const shown = typeof value === 'number' && !Number.isFinite(value) ? `${value} (a number too large)` : (JSON.stringify(value) ?? String(value));
  return escapeC1(cutShort(lineWithoutSecrets(shown), max));
}

function cutShort(text: string, max: number): string {
  if (text.length <= max) return text;
  // Counted in characters, as a name's length is (an emoji is one, not two UTF-16 units), and
  // never cut between the two halves of one: half of one prints as `\ud83d`.
  const characters = Array.from(text);
  return characters.length > max ? `${characters.slice(0, max - 3).join('')}...` : text;
}

/** SHOWN_AS_NOTHING: quoted raw, a value holding one would read as the very value it is refused for looking unlike ("alice@acme.example"). */
const ESCAPED = SHOWN_AS_NOTHING;
const EACH_ESCAPED = new RegExp(`${NOT_EMOJI_PART}[${ESCAPED}]`, 'gu');
const SPACE_LIKE_CHAR = new RegExp(`^[${SPACE_LIKE}\\u2800\\u3164\\uffa0]$`, 'u');
/** What a name must not hold to be shown as written: C0, a backtick, or any of the above. */
const NOT_PLAIN = new RegExp(`${NOT_EMOJI_PART}[\\u0000-\\u001f\`${ESCAPED}]`, 'u');

/** Those characters as `<U+00A0>`: for text shown bare line by line (a diff), where a quote's `\u00a0` would read as typed text. */
export function markInvisible(text: string): string {
  // A lone half of a surrogate pair too: printed, it reads as U+FFFD, and two such names as one (probe GE-5).
  return text.replace(EACH_ESCAPED, (c) => `<${codePointOf(c)}>`).replace(LONE_SURROGATE, (c) => `<${codePointOf(c)}>`);
}

/** With the `u` flag a surrogate matches only where it is no half of a pair. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu;

/** The text as it prints: what prints as a blank a plain space (the braille blank and Hangul fillers too), what prints as nothing gone. */
export function withoutInvisible(text: string): string {
  return text.replace(EACH_ESCAPED, (c) => (SPACE_LIKE_CHAR.test(c) ? ' ' : ''));
}

/** Each character markInvisible would mark in `text`, as `U+00A0`, with how many times it appears. */
export function invisibleCounts(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const m of text.matchAll(EACH_ESCAPED)) counts.set(codePointOf(m[0]), (counts.get(codePointOf(m[0])) ?? 0) + 1);
  return counts;
}

/** The distinct characters markInvisible would mark in `text`, as `U+00A0`, in the order they first appear. */
export function invisibleIn(text: string): string[] {
  return [...new Set(Array.from(text.matchAll(EACH_ESCAPED), (m) => codePointOf(m[0])))];
}

/** `U+00A0`: how a message names one character. */
export function codePointOf(c: string): string {
  return `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** A value as JSON, whole, with what prints as nothing escaped (`"\ufeffG"`): a value quoted in a plan line. */
export function jsonQuoted(value: unknown): string {
  return showJson(value, Number.POSITIVE_INFINITY);
}

/** Each escaped as JSON escapes (a character past U+FFFF as one code point, `\\u{E0020}`). */
function escapeC1(json: string): string {
  // A character beyond U+FFFF (a tag character) as one code point, not as the halves of its UTF-16 pair.
  return json.replace(EACH_ESCAPED, (c) => (c.length === 2 ? `\\u{${c.codePointAt(0)!.toString(16).toUpperCase()}}` : `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** Short, one line, nothing to escape, and visible at both ends (an empty or blank name in backticks shows nothing): shown as written. */
function isPlain(text: string, max = 60): boolean {
  return text.length > 0 && text.length <= max && !NOT_PLAIN.test(text) && !/^\s|\s$/.test(text);
}

/**
 * A name a message shows (a key, a kind, an environment): in backticks as written when it is
 * short and plain, else quoted as a value is, so a control character or a line break in it
 * cannot reach a terminal or break the line.
 */
export function showName(text: string): string {
  return isPlain(text) && lineWithoutSecrets(text) === text ? `\`${text}\`` : quoteValue(text);
}

/** As showName, but never cut: a suggestion to write (\`did you mean …\`), whole or escaped (probe IA-1). */
export function showWholeName(text: string): string {
  return isPlain(text, Number.POSITIVE_INFINITY) && lineWithoutSecrets(text) === text ? `\`${text}\`` : quoteValue(text, Number.POSITIVE_INFINITY);
}

/** As showWholeName, for text a message shows bare (a list of names). */
export function showWholeText(text: string): string {
  return isPlain(text, Number.POSITIVE_INFINITY) && lineWithoutSecrets(text) === text ? text : quoteValue(text, Number.POSITIVE_INFINITY);
}

/** As showName, for text a message shows bare (`--target playbook/X`). */
export function showText(text: string): string {
  return isPlain(text) && lineWithoutSecrets(text) === text ? text : quoteValue(text);
}

/** A path a message shows: as written, or, when it holds a character that must be escaped, quoted in full (a path is never cut). */
export function showPath(path: string): string {
  return NOT_PLAIN.test(path.replaceAll('`', '')) ? quoteValue(path, Number.POSITIVE_INFINITY) : path;
}
