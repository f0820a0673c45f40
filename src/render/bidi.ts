/**
 * Right-to-left text in a left-to-right line: between two such runs, the quotes and the `→` of
 * `"before" → "after"` are laid out right to left, so a reader saw the change backwards (probe
 * EA-3). A shown value holding right-to-left letters is set in a first-strong isolate (U+2068 …
 * U+2069), which keeps each side in its place: terminals, browsers and GitHub honour it.
 */
const RIGHT_TO_LEFT = /[\u0590-\u08FF\uFB1D-\uFDFF\uFE70-\uFEFC\u{10800}-\u{10FFF}\u{1E800}-\u{1EFFF}]/u;

export function isolated(shown: string): string {
  return RIGHT_TO_LEFT.test(shown) ? `\u2068${shown}\u2069` : shown;
}
