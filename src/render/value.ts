/** Field values as one line of JSON-ish text: strings quoted, numbers and booleans plain, null as `null`. */
import { escapeInvisible } from '../config/quote.js';
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
 * JSON escapes C0 controls (ESC too); what it leaves raw but a reader cannot see or tell from a
 * space (DEL, C1, zero-width and space-like characters, bidirectional controls) is escaped as
 * diagnostics quote it (config/quote.ts), so two values that differ never look the same.
 */
function escapedJson(json: string): string {
  return stripControl(escapeInvisible(json));
}

/** Untrusted text on one line: control characters gone, line breaks as spaces. */
export function oneLine(s: string): string {
  return stripControl(s).replace(/[\n\t]+/g, ' ');
}
