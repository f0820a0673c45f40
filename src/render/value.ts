/** Field values as one line of JSON-ish text: strings quoted, numbers and booleans plain, null as `null`. */
import { stripControl } from './sanitize.js';

export function formatValue(v: unknown): string {
  if (v === null || v === undefined) return 'null';
  if (typeof v === 'string') return JSON.stringify(stripControl(v));
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  let json: string | undefined;
  try {
    json = JSON.stringify(v, (_k, x: unknown) => (typeof x === 'string' ? stripControl(x) : x));
  } catch {
    json = undefined; // cycles cannot come from a plan, but a renderer must not throw
  }
  // JSON escapes C0 but not DEL/C1, which can hide in keys.
  return stripControl(json ?? String(v));
}

/** A name or identity in quotes, escaped like a JSON string so it stays on one line. */
export function quote(s: string): string {
  return JSON.stringify(stripControl(s));
}

/** Untrusted text on one line: control characters gone, line breaks as spaces. */
export function oneLine(s: string): string {
  return stripControl(s).replace(/[\n\t]+/g, ' ');
}
