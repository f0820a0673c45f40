/**
 * Git's conflict markers left in a file by mistake: `<<<<<<< ours`, `=======`, `>>>>>>> theirs`,
 * each at a line's start, in that order. A term's body published with them goes live at once and
 * cannot be taken back; a YAML file with them fails to parse with a message about keys.
 */
import type { Diagnostic } from '../diagnostics.js';
import { quoteValue } from './quote.js';
import { lineColumnsOf } from '../util/line-columns.js';

export interface ConflictMarkers {
  /** 1-based lines of the opening, middle and closing markers. */
  lines: [number, number, number];
  /** The line of the base section's marker (`||||||| base`, git's diff3 and zdiff3 styles), when there is one. */
  base?: number;
  /** The opening and closing markers as written (with the branch names git adds). */
  opening: string;
  closing: string;
}

/** A marker line: at the text's start or after a line feed (git writes LF or CRLF), as lineColumnsOf counts lines. */
const MARKER = /(?<![^\n])(?:<{7}(?![<])|\|{7}(?![|])|={7}(?![=])|>{7}(?![>]))[^\n]*/g;

/** The first conflict in `text`, if git's three markers are there in order. */
export function conflictMarkers(text: string): ConflictMarkers | undefined {
  // Most files: one search, no line walk.
  if (!text.includes('<<<<<<<')) return undefined;
  const lineAt = lineColumnsOf(text);
  let opened: { line: number; text: string } | undefined;
  let base: number | undefined;
  let middle: number | undefined;
  MARKER.lastIndex = 0;
  for (let m = MARKER.exec(text); m !== null; m = MARKER.exec(text)) {
    const written = m[0].replace(/\r$/, '');
    const at = lineAt(m.index).line;
    if (written.startsWith('<')) {
      opened = { line: at, text: written };
      base = undefined;
      middle = undefined;
    } else if (written.startsWith('|') && opened && middle === undefined) {
      base = at;
    } else if (written.startsWith('=') && opened && written.trim() === '=======') {
      middle = at;
    } else if (written.startsWith('>') && opened && middle !== undefined) {
      return { lines: [opened.line, middle, at], opening: opened.text, closing: written, ...(base !== undefined ? { base } : {}) };
    }
  }
  return undefined;
}

/** The markers as a message names them: `"<<<<<<< HEAD" (line 2), "=======" (line 4) and ">>>>>>> br" (line 6)`. */
export function markersNamed(markers: ConflictMarkers): string {
  const [open, middle, close] = markers.lines;
  const base = markers.base === undefined ? '' : `, "|||||||" (line ${markers.base})`;
  return `${quoteValue(markers.opening)} (line ${open})${base}, "=======" (line ${middle}) and ${quoteValue(markers.closing)} (line ${close})`;
}

/**
 * The error for a file holding `markers`, at the opening marker; `holder` names what holds them
 * when the message is not about the file it is placed in (a term's body file, named in its words).
 */
export function mergeConflictDiagnostic(file: string, markers: ConflictMarkers, holder?: string): Diagnostic {
  return {
    severity: 'error',
    code: 'merge-conflict',
    file,
    line: markers.lines[0],
    col: 1,
    message: holder ? `${holder} holds an unresolved merge conflict: git's markers ${markersNamed(markers)}` : `an unresolved merge conflict: git's markers ${markersNamed(markers)} are still in the file`,
    hint:
      markers.base === undefined
        ? 'keep the side you mean (or both, merged by hand), delete the three marker lines, then run docket validate'
        : 'keep the side you mean (or both, merged by hand), delete the marker lines and the base section (from "|||||||" to "======="), then run docket validate',
  };
}
