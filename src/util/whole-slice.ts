/** `text.slice(start, end)` moved inward so that it never splits a surrogate pair (half an emoji prints as `\ud83d` or `�`). */
export function wholeSlice(text: string, start: number, end: number): string {
  const isLow = (i: number): boolean => /[\udc00-\udfff]/.test(text.charAt(i));
  const isHigh = (i: number): boolean => /[\ud800-\udbff]/.test(text.charAt(i));
  const from = start > 0 && isLow(start) ? start + 1 : start;
  const to = end < text.length && isHigh(end - 1) ? end - 1 : end;
  return text.slice(from, Math.max(from, to));
}
