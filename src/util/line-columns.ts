/**
 * Offset → line and column (1-based) in `text`, by binary search over where each line starts.
 * The function keeps those starts only, not the text.
 */
export function lineColumnsOf(text: string, loneCr = false): (offset: number) => { line: number; col: number } {
  const lines = [0];
  if (loneCr) {
    // As an editor counts lines: a CR not before a line feed ends one too (old Mac text).
    for (const m of text.matchAll(/\r\n?|\n/g)) lines.push(m.index + m[0].length);
  } else for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines.push(at + 1);
  return (offset) => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - lines[lo]! + 1 };
  };
}
