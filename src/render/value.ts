/** Field values as one line of JSON-ish text: strings quoted, numbers and booleans plain, null as `null`. */
import { stripControl } from './sanitize.js';

/**
 * A value as the plan shows it: what it holds, control characters included, escaped (`\u0007`),
 * so no byte reaches the terminal as a command and no character is silently left out.
 */
export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return escapedJson(JSON.stringify(v));
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  let json: string | undefined;
  try {
    json = JSON.stringify(v);
  } catch {
    json = undefined; // cycles cannot come from a plan, but a renderer must not throw
  }
  return json === undefined ? stripControl(String(v)) : escapedJson(json);
}

/** A name or identity in quotes, escaped like a JSON string so it stays on one line. */
export function quote(s: string): string {
  return escapedJson(JSON.stringify(s));
}

/**
 * JSON escapes C0 controls (ESC too) but leaves DEL and C1 raw, and characters that show as nothing
 * or as a plain space (zero-width, soft hyphen, no-break space, byte-order mark, line and paragraph
 * separators): those as `\u` escapes, so two values that differ never look the same; bidirectional
 * controls shown as `<U+202E>`.
 */
function escapedJson(json: string): string {
  return stripControl(json.replace(/[\x7f-\x9f\u00a0\u00ad\u200b-\u200f\u2028\u2029\u2060-\u2064\ufeff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`));
}

/** Untrusted text on one line: control characters gone, line breaks as spaces. */
export function oneLine(s: string): string {
  return stripControl(s).replace(/[\n\t]+/g, ' ');
}
