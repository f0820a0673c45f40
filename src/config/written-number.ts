/**
 * A value docket sends as text but YAML read as a number loses how it was written when the number
 * prints otherwise: `zipcode: 01067` is the number 1067, `vars: { code: 1.10 }` is 1.1.
 */
import type { Diagnostic, SourcePos } from '../diagnostics.js';
import { quoteValue } from './quote.js';
import { plainScalar } from './yaml-block-reader.js';
import type { LineOf, SourceLine } from './source-lines.js';

/** The plain scalar written at `col` of `line` (it ends at a comment, a flow indicator or the line's end). */
export function plainScalarAt(line: string | undefined, col: number): string | undefined {
  return /^[^\s,\]}#]+/.exec(line?.slice(col - 1) ?? '')?.[0];
}

/**
 * Reads a plain scalar as written from a file's lines (linesIn, shared with what quotes them), by
 * position. Made here, not inline where it is used: a closure there would share its scope with the
 * getters of the document it returns, and keep every file's text alive for the whole run.
 */
export function writtenIn(lineOf: LineOf): (pos: { line: number; col: number }) => string | undefined {
  return (pos) => plainScalarAt(lineOf(pos.line), pos.col);
}

/**
 * The diagnostic when `value` is a number written (at `pos`) as other text than it prints as.
 * `asRead`: the value is sent as YAML reads it (a field of no documented type), not as text.
 */
export function numberAsText(value: unknown, lineAt: SourceLine, pos: SourcePos, label: string, asRead = false): Diagnostic | undefined {
  if (typeof value !== 'number') return undefined;
  const line = lineAt(pos.file, pos.line);
  const written = plainScalarAt(line, pos.col);
  if (written === undefined || written === String(value) || written.startsWith('${')) return undefined;
  // Infinity and NaN as YAML says them: JSON has neither, so no such value would be sent (probe GA).
  const finite = Number.isFinite(value);
  const read = finite ? `the number ${String(value)}` : nonFiniteName(value);
  // An alias: what is written, and to quote, is at its anchor; `"*c"` quoted here would be the text `*c` (second read SR86-8).
  // A tag there (`&c !!int "007"`) makes even a quoted value a number, so the hint names it too (SR86B-6).
  const alias = written.startsWith('*');
  const shown = alias ? `the value alias ${quoteValue(written)} names` : quoteValue(written);
  return {
    severity: 'error',
    code: 'number-as-text',
    message: asRead ? `YAML reads ${shown} as ${read}, ${finite ? `which is what \`${label}\` would be sent as` : `which \`${label}\` cannot be sent as (JSON has no such number)`}` : `\`${label}\` is sent as text, but YAML reads ${shown} as ${read}`,
    ...pos,
    // Quoted, a tagged value is still made a number: the tag is what goes (probe ET).
    hint: alias ? `quote the value where ${quoteValue(`&${written.slice(1)}`)} is written, with no tag before it (such as \`!!int\`), to keep what is written there` : taggedBefore(line, pos.col) ? TAG_HINT : `quote it to keep what is written: ${JSON.stringify(written)}`,
  };
}

/**
 * A mapping key as written, when YAML read it as a number, a true or false or a null that names it
 * otherwise (`1e3:` is the key `1000`, `.inf:` the key `Infinity`, `True:` the key `true`): a
 * message names the key the file shows (probes OJ-1, PN-5).
 */
export function keyAsWritten(key: string, written: string | undefined): string | undefined {
  const raw = written?.replace(/:$/, '');
  if (raw === undefined || raw === key) return undefined;
  const read = plainScalar(raw);
  return (typeof read === 'number' || typeof read === 'boolean' || read === null) && String(read) === key ? raw : undefined;
}

/** The words YAML 1.1 (a `%YAML 1.1` document) reads as true or false beside YAML 1.2's. */
export const YAML_11_BOOLEAN = /^(?:y|Y|yes|Yes|YES|on|On|ON|n|N|no|No|NO|off|Off|OFF)$/;

/**
 * A true or false as written (`True`, `FALSE`; `NO`, `Yes` in a `%YAML 1.1` document), for a
 * variable: used as text, it keeps what the file writes, not `true` (a country `NO` sent as
 * "false": probe HG-2); in a true/false field it is what YAML 1.2 reads the text as (interpolate.ts
 * retype), so a YAML 1.1 word there is refused as it is in a resource file (probe PB-1).
 */
export function booleanAsWritten(value: unknown, lineAt: SourceLine, pos: SourcePos): string | undefined {
  if (typeof value !== 'boolean') return undefined;
  const written = plainScalarAt(lineAt(pos.file, pos.line), pos.col);
  return written !== undefined && (typeof plainScalar(written) === 'boolean' || YAML_11_BOOLEAN.test(written)) ? written : undefined;
}

/** `.inf`, `-.inf` and `.nan` as a message says what YAML read them as. */
export function nonFiniteName(value: number): string {
  return Number.isNaN(value) ? 'NaN' : value > 0 ? 'infinity' : 'minus infinity';
}

/** What to do about a tag that made a value a number. */
export const TAG_HINT = 'remove the tag before the value (such as `!!int`): docket reads plain YAML, and the tag makes the text a number';

/** Whether a tag (`!!int`, `!custom`) is written just before the value at `pos` on its line. */
export function taggedIn(lineOf: LineOf): (pos: { line: number; col: number }) => boolean {
  return (pos) => taggedBefore(lineOf(pos.line), pos.col);
}

function taggedBefore(line: string | undefined, col: number): boolean {
  return /(?:^|[\s:[{,-])![^\s]*\s+$/.test(line?.slice(0, col - 1) ?? '');
}
