/**
 * A value docket sends as text but YAML read as a number loses how it was written when the number
 * prints otherwise: `zipcode: 01067` is the number 1067, `vars: { code: 1.10 }` is 1.1.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Diagnostic, SourcePos } from '../diagnostics.js';
import { quoteValue } from './quote.js';

/** The diagnostic when `value` is a number written (at `pos`, below `root`) as other text than it prints as. */
export function numberAsText(value: unknown, root: string, pos: SourcePos, label: string): Diagnostic | undefined {
  if (typeof value !== 'number') return undefined;
  let line: string | undefined;
  try {
    line = readFileSync(path.join(root, pos.file), 'utf8').replace(/^\uFEFF/, '').split(/\r?\n/)[pos.line - 1];
  } catch {
    return undefined;
  }
  // A plain scalar ends at a comment, a flow indicator or the line's end.
  const written = /^[^\s,\]}#]+/.exec(line?.slice(pos.col - 1) ?? '')?.[0];
  if (written === undefined || written === String(value) || written.startsWith('${')) return undefined;
  return {
    severity: 'error',
    code: 'number-as-text',
    message: `\`${label}\` is sent as text, but YAML reads ${quoteValue(written)} as the number ${String(value)}`,
    ...pos,
    hint: `quote it to keep what is written: ${JSON.stringify(written)}`,
  };
}
