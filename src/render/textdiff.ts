/**
 * Multi-line values (rule actions, term bodies) read best as a unified diff. Shared by the text
 * and markdown renderers; returns bare lines (hunk headers and `+`/`-`/` ` lines) without the
 * file header, which would only repeat the field name.
 */
import { structuredPatch } from 'diff';
import { markInvisible } from '../config/quote.js';
import { stripControl } from './sanitize.js';
import { formatValue } from './value.js';

/** The text a side contributes: strings as they are, nothing for null, other values as JSON. */
function sideText(v: unknown): string {
  if (v === null || v === undefined) return '';
  // A line differing only in a no-break or zero-width space must not show as the same line twice.
  const text = typeof v === 'string' ? markInvisible(stripControl(v)) : formatValue(v);
  // Every line gets an end of line, so a last line that gained a successor is not shown as changed.
  return text === '' ? '' : `${text}\n`;
}

export function diffLines(before: unknown, after: unknown): string[] {
  const oldText = sideText(before);
  const newText = sideText(after);
  // A value created or removed is all one side: what the diff would say, without running it (the
  // plan of a bootstrap shows 20,000 rules' actions).
  if (oldText === '' || newText === '') return wholeSide(oldText === '' ? newText : oldText, oldText === '' ? '+' : '-');
  const patch = structuredPatch('before', 'after', oldText, newText, undefined, undefined, { context: 3 });
  const out: string[] = [];
  for (const h of patch.hunks) {
    // Unified-diff convention (as jsdiff's own formatPatch): an empty side starts at the line before.
    const oldStart = h.oldLines === 0 ? h.oldStart - 1 : h.oldStart;
    const newStart = h.newLines === 0 ? h.newStart - 1 : h.newStart;
    out.push(`@@ -${oldStart},${h.oldLines} +${newStart},${h.newLines} @@`);
    // `\ No newline at end of file` cannot occur (every side ends in one); filtered all the same.
    for (const line of h.lines) if (!line.startsWith('\\')) out.push(line);
  }
  return out;
}

/** The hunk of a side that is all added (`+`) or all removed (`-`); nothing when it is empty. */
function wholeSide(text: string, sign: '+' | '-'): string[] {
  if (text === '') return [];
  const lines = text.slice(0, -1).split('\n');
  const header = sign === '+' ? `@@ -0,0 +1,${lines.length} @@` : `@@ -1,${lines.length} +0,0 @@`;
  return [header, ...lines.map((line) => sign + line)];
}
