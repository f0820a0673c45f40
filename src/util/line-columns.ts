/**
 * Offset → line and column (1-based) in `text`, by binary search over where each line starts.
 * The function keeps those starts only, not the text.
 */
export function lineColumnsOf(text: string): (offset: number) => { line: number; col: number } {
  const lines = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lines.push(at + 1);
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
