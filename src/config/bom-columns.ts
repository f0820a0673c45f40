/**
 * Columns on the lines of a YAML file that start with a byte-order mark docket does not read
 * (discover.ts withoutDocumentBoms): an editor counts the mark.
 */
import { lineColumnsOf } from '../util/line-columns.js';

/**
 * Texts withoutDocumentBoms took a mark from at the start of a later line → those lines and how
 * many marks: kept for the few files that hold one (files joined by a tool), so that a column on
 * such a line counts the mark, as editors and the Language Server Protocol do (probe VC-3).
 */
const bomShifts = new Map<string, Map<number, number>>();

/** lineColumnsOf for a YAML file's text as docket read it: a column counts a mark that starts a later document's line. */
export function documentLineColumns(text: string): (offset: number) => { line: number; col: number } {
  const lc = lineColumnsOf(text);
  const shifts = bomShifts.size > 0 ? bomShifts.get(text) : undefined;
  if (!shifts) return lc;
  return (offset) => {
    const at = lc(offset);
    const marks = shifts.get(at.line);
    return marks ? { line: at.line, col: at.col + marks } : at;
  };
}

/** Called by withoutDocumentBoms for a text it took marks from (line → how many). */
export function rememberBomColumns(text: string, shifts: Map<number, number>): void {
  bomShifts.set(text, shifts);
}
