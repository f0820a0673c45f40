/** Durations as messages say them. */

const DAY_MS = 86_400_000;

/**
 * A wait or a budget as people read it: under a second in ms ("waiting 0.0 s, longer than the 0 s
 * left" said nothing), and a Retry-After of 10^17 seconds as "more than a year", not 20 digits.
 * `round`: Math.ceil for a wait and Math.floor for what is left, where one is said past the other.
 */
export function seconds(ms: number, round: (x: number) => number = Math.round): string {
  if (ms < 1000) return `${round(ms)} ms`;
  if (ms > 365 * DAY_MS) return 'more than a year';
  if (ms >= 2 * DAY_MS) return `${round(ms / DAY_MS)} days`;
  return ms >= 10_000 ? `${round(ms / 1000)} s` : `${round(ms / 100) / 10} s`;
}
