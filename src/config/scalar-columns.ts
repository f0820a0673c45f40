/**
 * Where a character of a scalar's value is written in its line, for a message about that one
 * character (a control character late in a long description): asked only when there is a problem.
 */

/** What each one-character escape of a double-quoted scalar means (YAML 1.2, 5.7). */
const ESCAPES: Readonly<Record<string, string>> = {
  '0': '\0', a: '\x07', b: '\b', t: '\t', '\t': '\t', n: '\n', v: '\v', f: '\f', r: '\r', e: '\x1b',
  ' ': ' ', '"': '"', '/': '/', '\\': '\\', N: '\x85', _: '\xa0', L: '\u2028', P: '\u2029',
};
/** How many hex digits follow `\x`, `\u` and `\U`. */
const HEX_DIGITS: Readonly<Record<string, number>> = { x: 2, u: 4, U: 8 };

/** The text the escape starting at `line[i]` (a backslash) means, and where it ends; undefined for one that continues the line. */
function escapeAt(line: string, i: number): { text: string; end: number } | undefined {
  const c = line.charAt(i + 1);
  if (Object.hasOwn(ESCAPES, c)) return { text: ESCAPES[c]!, end: i + 2 };
  const digits = Object.hasOwn(HEX_DIGITS, c) ? HEX_DIGITS[c]! : 0;
  const hex = line.slice(i + 2, i + 2 + digits);
  if (digits === 0 || hex.length !== digits || !/^[0-9a-fA-F]+$/.test(hex)) return undefined;
  const code = Number.parseInt(hex, 16);
  return code > 0x10ffff ? undefined : { text: String.fromCodePoint(code), end: i + 2 + digits };
}

/**
 * The column (1-based) of character `at` of `value`, a scalar that starts at column `col` of
 * `line`: plain, single- or double-quoted, each escape matched to what it means (an escape is
 * pointed at by its backslash). Undefined unless what is written there reads as the value up to
 * and including that character, so a guess is never given: a scalar over several lines, a block
 * scalar or a placeholder filled in before it leave the value's start to be said.
 */
export function columnInLine(line: string, col: number, value: string, at: number): number | undefined {
  const quote = line.charAt(col - 1);
  const quoted = quote === '"' || quote === "'";
  let i = quoted ? col : col - 1;
  for (let k = 0; k <= at; ) {
    if (i >= line.length) return undefined;
    const start = i;
    let meant: string;
    if (quote === '"' && line[i] === '\\') {
      const escape = escapeAt(line, i);
      if (!escape) return undefined;
      meant = escape.text;
      i = escape.end;
    } else if (quoted && line[i] === quote) {
      // `''` is a quote in a single-quoted scalar; any other closing quote ends it before `at`.
      if (quote === '"' || line[i + 1] !== "'") return undefined;
      meant = "'";
      i += 2;
    } else {
      meant = line.charAt(i);
      i += 1;
    }
    if (!value.startsWith(meant, k)) return undefined;
    if (at < k + meant.length) return start + 1;
    k += meant.length;
  }
  return undefined;
}
