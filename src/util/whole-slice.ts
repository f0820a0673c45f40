/** A slice's start moved forward off the second half of a surrogate pair (half an emoji prints as `\udc00` or `�`). */
function wholeStart(text: string, start: number): number {
  return start > 0 && /[\udc00-\udfff]/.test(text.charAt(start)) ? start + 1 : start;
}

/** `text.slice(start, end)` moved inward so that it never splits a surrogate pair. */
export function wholeSlice(text: string, start: number, end: number): string {
  const from = wholeStart(text, start);
  const to = end < text.length && /[\ud800-\udbff]/.test(text.charAt(end - 1)) ? end - 1 : end;
  return text.slice(from, Math.max(from, to));
}

/**
 * `text`, or `width` characters of it around index `at` (`before` of them ahead of it), with `…`
 * where it was cut; `start` is the index the shown part begins at.
 */
export function windowAround(text: string, at: number, width: number, before: number): { text: string; start: number } {
  if (text.length <= width) return { text, start: 0 };
  const start = wholeStart(text, Math.max(0, Math.min(at - before, text.length - width)));
  const end = start + width;
  return { text: `${start > 0 ? '…' : ''}${wholeSlice(text, start, end)}${end < text.length ? '…' : ''}`, start };
}
