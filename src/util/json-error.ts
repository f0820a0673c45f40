/**
 * Where JSON text stops being JSON, for messages: JSON.parse names a position in some of its
 * messages and not in others (which quote the text instead), so jsonc-parser's scanner finds the
 * first error of strict JSON (no comments, no trailing commas) and says it in words.
 */
import { createRequire } from 'node:module';
import { lineColumnsOf } from './line-columns.js';

/** The offset JSON.parse's message names (`… at position 16`), if it names one. */
export function jsonParsePosition(error: unknown): number | undefined {
  const m = /at position (\d+)/.exec(error instanceof Error ? error.message : '');
  return m ? Number(m[1]) : undefined;
}

/** The first syntax error of `text` as strict JSON: where, how long, and in words (`InvalidSymbol` → "invalid symbol"). */
export function firstJsonSyntaxError(text: string): { offset: number; length: number; words: string } | undefined {
  const jsonc = createRequire(import.meta.url)('jsonc-parser') as typeof import('jsonc-parser');
  const errors: import('jsonc-parser').ParseError[] = [];
  jsonc.parse(text, errors, { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false });
  const first = errors[0];
  if (!first) return undefined;
  return { offset: first.offset, length: first.length, words: jsonc.printParseErrorCode(first.error).replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase() };
}

/**
 * Where, and in words that quote nothing, JSON.parse stopped: its message may hold a snippet of the
 * text, and a state file that is a link (to a configuration file, to /proc/self/environ) must not
 * be shown. Placed by jsonc-parser's scanner when JSON.parse names no position.
 */
export function whereJsonStops(err: unknown, text: string): string {
  const first = firstJsonSyntaxError(text);
  const offset = jsonParsePosition(err) ?? first?.offset ?? text.length;
  const { line, col } = lineColumnsOf(text)(offset);
  return `${first?.words ?? 'unexpected text'} at line ${line}, column ${col}`;
}
