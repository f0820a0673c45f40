/**
 * YAML 1.2 (§7.4.2) allows an implicit key's `:` at most 1,024 characters after the key starts; the
 * full parser refuses a longer key, js-yaml takes it. The fast readers decline such a file so that
 * it is refused as the full parser (and an editor) refuses it, however else it is written (probe QW-6).
 */
export const IMPLICIT_KEY_LIMIT = 1024;

/**
 * Whether a line of `text` has a `:` more than IMPLICIT_KEY_LIMIT characters after its first
 * character that is not a space: where a key too long could be, since a key is on one line. A
 * long value with a colon far into it is answered yes too; the full parser then reads it as well.
 */
export function mayHoldLongKey(text: string): boolean {
  for (let start = 0; start < text.length; ) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end - start > IMPLICIT_KEY_LIMIT) {
      let first = start;
      while (first < end && (text.charCodeAt(first) === 0x20 || text.charCodeAt(first) === 0x09)) first++;
      const colon = text.indexOf(':', first + IMPLICIT_KEY_LIMIT + 1);
      if (colon >= 0 && colon < end) return true;
    }
    start = end + 1;
  }
  return false;
}
