/**
 * The part of a source line an excerpt shows around a column, as JSON's `excerpt` and the terminal's
 * line under a problem show it. Pure.
 */
import { aroundColumn } from '../config/url-secrets.js';
import { windowAround } from '../util/whole-slice.js';

/**
 * `line` as `shown` writes it (secrets hidden, control characters taken out), or of a long one at
 * most `width` characters around `col` (1-based), `before` of them ahead of it, with `…` where it
 * was cut; `caret` is the column's index in `text`. Only the part of the line around the column is
 * read (aroundColumn): thousands of problems on one line of a megabyte each read their own part.
 */
export function lineAround(line: string, col: number, shown: (text: string) => string, width: number, before: number, trimEnd = false): { text: string; caret: number } {
  const near = aroundColumn(line, col, 4 * width);
  const written = shown(near.text);
  const whole = trimEnd ? written.replace(/\s+$/, '') : written;
  // Where the column is in the line as shown: what is hidden or taken out before it is shorter there.
  const at = Math.min(whole === near.text ? near.col - 1 : shown(near.text.slice(0, Math.max(0, near.col - 1))).length, whole.length);
  const { text, start } = windowAround(whole, at, width, before);
  // A line cut before the window cut it is said to be, as the window says it.
  const offset = col - near.col;
  const cutAfter = /\S/.test(line.slice(offset + near.text.length)) && !text.endsWith('…');
  return { text: `${offset > 0 && start === 0 ? '…' : ''}${text}${cutAfter ? '…' : ''}`, caret: at - start + (start > 0 || offset > 0 ? 1 : 0) };
}
