/**
 * Columns on the lines of a YAML file that start with a byte-order mark docket does not read
 * (discover.ts withoutDocumentBoms): an editor counts the mark, as the Language Server Protocol
 * does (probe VC-3).
 */
import { lineColumnsOf } from '../util/line-columns.js';

/**
 * By file (as the configuration names it): the text as read, and its lines a mark was taken from
 * with how many. Only files that hold one (files joined by a tool) are kept; the text is compared,
 * so a file read again without its marks, or another text under the name, has no shifts.
 */
const byFile = new Map<string, { text: string; shifts: ReadonlyMap<number, number> }>();

/** Called by withoutDocumentBoms for each file it reads: the lines it took marks from (none: forgotten). */
export function rememberBomColumns(file: string, text: string, shifts: ReadonlyMap<number, number> | undefined): void {
  if (shifts) byFile.set(file, { text, shifts });
  else if (byFile.size > 0) byFile.delete(file);
}

/** lineColumnsOf for a YAML file's text as docket read it: a column counts a mark that starts a later document's line. */
export function documentLineColumns(text: string, file: string): (offset: number) => { line: number; col: number } {
  const lc = lineColumnsOf(text);
  const kept = byFile.size > 0 ? byFile.get(file) : undefined;
  if (kept?.text !== text) return lc;
  const { shifts } = kept;
  return (offset) => {
    const at = lc(offset);
    const marks = shifts.get(at.line);
    return marks ? { line: at.line, col: at.col + marks } : at;
  };
}
