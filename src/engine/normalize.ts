/**
 * The normalisation the services apply, so a configuration that was just applied plans to zero
 * changes (DESIGN "No phantom diffs"). Kinds call these on both desired and live values.
 */
import { domainToASCII } from 'node:url';
import { showJson } from '../config/quote.js';
import { composed } from '../util/nfc.js';
import { isPlainObject } from '../util/plain.js';

/** Optional text: line endings to `\n`, trailing newlines removed, `""` equal to null. */
export function normText(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const text = lineText(String(value));
  return text === '' ? null : text;
}

/** No value, or text of white space only: what the services take as no value (and validate refuses where text is required). */
export function isBlankText(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/**
 * A text field as a service answered it: as normText, but a list, a mapping or a boolean is
 * refused (a TypeError, which the live read reports as a bad answer): `String()` would make it
 * "[object Object]", which plan, pull and apply would then take for text.
 */
export function liveText(value: unknown, field: string): string | null {
  if (typeof value === 'object' && value !== null) throw new TypeError(`\`${field}\` is ${Array.isArray(value) ? 'a list' : 'a mapping'}, not text`);
  if (typeof value === 'boolean') throw new TypeError(`\`${field}\` is ${String(value)}, not text`);
  return normText(value);
}

/** A true/false field as a service answered it (absent: `absent`); any other value is refused, as liveText does. */
export function liveFlag(value: unknown, field: string, absent: boolean): boolean {
  if (value === undefined || value === null) return absent;
  if (typeof value !== 'boolean') throw new TypeError(`\`${field}\` is ${showJson(value, 40)}, not true or false`);
  return value;
}

/**
 * Required text (names), canonically composed: an accent typed as one character or as a letter and
 * a combining mark (a macOS file name, another editor) is one name, as the web app shows it. Line
 * ends stay as they are: a name holds none (validate refuses one), so a live name ending in one is
 * another name, renamed back or reported, not the files' (probe QT-2).
 */
export function normName(value: unknown): string {
  return composed(String(value ?? ''));
}

/**
 * Line endings to `\n` and trailing newlines removed. Called for every text field of every object
 * on both sides of a plan, so without a regular expression where none is needed (most text has no
 * `\r`, and `/\n+$/` tries a match at every line break).
 */
export function lineText(text: string): string {
  const unix = text.includes('\r') ? text.replace(/\r\n?/g, '\n') : text;
  let end = unix.length;
  while (end > 0 && unix.charCodeAt(end - 1) === 10) end--;
  return end === unix.length ? unix : unix.slice(0, end);
}

/** E-mails compare case-insensitively. */
export function normEmail(value: unknown): string | null {
  if (value === undefined || value === null || value === '') return null;
  const email = String(value).trim().toLowerCase();
  // A domain of other letters as a URL spells it (`bücher.example` as `xn--bcher-kva.example`), the
  // form validate asks the files for: one mailbox either way, not a second user (probe KE-1).
  const at = email.lastIndexOf('@');
  if (at < 0 || !/[^\x00-\x7f]/.test(email.slice(at + 1))) return email;
  const ascii = domainToASCII(email.slice(at + 1));
  return ascii === '' ? email : `${email.slice(0, at + 1)}${ascii}`;
}

/**
 * Numbers and numeric strings compare by value. A leading zero (`"01099"`, a zip code) marks text,
 * not a number, so it is never equal to 1099. A whole number past 2^53 - 1 is kept as its exact
 * decimal text on both sides: as a number it would be sent rounded (`"99999999999999999999"` as
 * 1e+20, a value nobody wrote), and as text it still equals a live number of that exact value.
 */
export function normScalar(value: unknown): unknown {
  if (typeof value === 'string') {
    // Text as every text field is compared: line endings to `\n`, no trailing newline.
    const lines = lineText(value);
    // A leading zero marks text (above), and so do spaces around it (`"  7"` is sent as written,
    // probe NT-2); the rest is normNumeric's.
    return /^-?((0|[1-9]\d*)(\.\d*)?|\.\d+)$/.test(lines) ? normNumeric(lines)! : lines;
  }
  if (typeof value === 'number' && Number.isInteger(value) && !Number.isSafeInteger(value)) return BigInt(value).toString();
  return value ?? null;
}

/**
 * A numeric string as a number field's schema takes it (`"1.0"`, `".5"`, `"5."`), by value: the
 * number, or a whole number past 2^53 - 1 as its exact text (as normScalar keeps it); undefined for
 * text that is no number.
 */
export function normNumeric(text: string): number | string | undefined {
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(text)) return undefined;
  // `"9007199254740993.0"` is the same whole number as `"9007199254740993"` (decimals come back so).
  const exact = exactDecimal(text);
  const n = Number(exact);
  if (Number.isInteger(n) && !Number.isSafeInteger(n)) return exact;
  // A number only when it is that very value: `"0.1000000000000000000001"` rounded is 0.1, and an
  // edit to it would never be sent (probe NT-1).
  return plainDecimal(n) === exact ? n : exact;
}

/** The decimal written one way: no leading zeros, no trailing zeros after the point, no `-0` (`"-007.50"` → `"-7.5"`). */
function exactDecimal(text: string): string {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  const wholeDigits = whole.replace(/^0+(?=\d)/, '') || '0';
  const fractionDigits = fraction.replace(/0+$/, '');
  const digits = fractionDigits ? `${wholeDigits}.${fractionDigits}` : wholeDigits;
  return negative && /[1-9]/.test(digits) ? `-${digits}` : digits;
}

/** A number's shortest decimal without an exponent (`1e-7` → `"0.0000001"`), as exactDecimal writes text. */
function plainDecimal(n: number): string {
  const shortest = String(n);
  const e = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(shortest);
  if (!e) return shortest;
  const [, sign = '', lead = '', rest = '', power = '0'] = e;
  const digits = `${lead}${rest}`;
  const exponent = Number(power);
  if (exponent < 0) return `${sign}0.${'0'.repeat(-exponent - 1)}${digits}`;
  return digits.length > exponent + 1 ? `${sign}${digits.slice(0, exponent + 1)}.${digits.slice(exponent + 1)}` : `${sign}${digits.padEnd(exponent + 1, '0')}`;
}

/**
 * {@link normScalar} at every depth of lists and mappings (template parameters and their
 * defaults). A mapping's key with no value (`""`, as optional text, or null) is left out, as the
 * service's answer leaves out what it holds no value for: a fee item's `description: ""` is the
 * item without one.
 */
export function normDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(normDeep);
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const n = normDeep(v);
      // A mapping left with nothing is none too, as a service leaves out an object it holds nothing of.
      if (n !== '' && n !== null && !(isPlainObject(n) && Object.keys(n).length === 0)) out[k] = n;
    }
    return out;
  }
  return normScalar(value);
}

/** Every text at every depth with its line endings as compared, nothing else changed: a value as it is sent. */
export function linesDeep(value: unknown): unknown {
  if (typeof value === 'string') return lineText(value);
  if (Array.isArray(value)) return value.map(linesDeep);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, linesDeep(v)]));
  return value;
}

/** Nothing but spaces and characters that show as nothing (zero-width ones, a Hangul filler). */
export function isBlank(name: string): boolean {
  if (name.trim() === '') return true;
  // U+2800 (braille blank) shows as a space, and is used so (probe GA).
  return !/^[\x20-\x7e]*$/.test(name) && name.replace(/[\s\p{Default_Ignorable_Code_Point}\u2800]/gu, '') === '';
}
