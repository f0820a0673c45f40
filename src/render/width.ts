/**
 * How many terminal columns text takes: East Asian wide and fullwidth characters (CJK, most emoji)
 * take two, combining marks and zero-width characters none, so a caret under a column lines up.
 */
import { eastAsianWidth } from 'get-east-asian-width';

const ZERO_WIDTH = /^[\p{M}\u200b-\u200f\u2060-\u2064\ufe00-\ufe0f\ufeff]$/u;

export function displayWidth(text: string): number {
  let width = 0;
  for (const ch of text) width += ZERO_WIDTH.test(ch) ? 0 : eastAsianWidth(ch.codePointAt(0)!);
  return width;
}
