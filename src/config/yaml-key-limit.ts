/**
 * YAML 1.2 (§7.4.2) allows an implicit key's `:` at most 1,024 characters after the key starts; the
 * full parser refuses a longer key, js-yaml takes it. The fast readers decline such a file so that
 * it is refused as the full parser (and an editor) refuses it, however else it is written (probe QW-6).
 */
export const IMPLICIT_KEY_LIMIT = 1024;

/**
 * Whether a line of `text` has a `:` that could end a key more than IMPLICIT_KEY_LIMIT characters
 * after where the key would start (past the indentation and any `- `): followed by a space, a tab
 * or the line's end, or right after a quote (a flow key). A key is on one line. A value with such a
 * colon far into it is answered yes too (rare: `note: ` 1,000 characters into a line); the full
 * parser then reads that file (second read SR87-4: any colon, `https:` too, doubled such a file's cost).
 */
export function mayHoldLongKey(text: string): boolean {
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > IMPLICIT_KEY_LIMIT && longKeyColon(text, start, end)) return true;
    start = end + 1;
  }
  return false;
}

function longKeyColon(text: string, start: number, end: number): boolean {
  let key = start;
  for (;;) {
    while (key < end && isBlank(text.charCodeAt(key))) key++;
    if (text.charCodeAt(key) === 0x2d && isBlank(text.charCodeAt(key + 1))) key++;
    else break;
  }
  for (let colon = text.indexOf(':', key + IMPLICIT_KEY_LIMIT + 1); colon >= 0 && colon < end; colon = text.indexOf(':', colon + 1)) {
    const [before, after] = [text.charCodeAt(colon - 1), text.charCodeAt(colon + 1)];
    if (colon + 1 >= end || isBlank(after) || after === 0x0d || before === 0x22 || before === 0x27) return true;
  }
  return false;
}

function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}
