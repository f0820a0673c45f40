/** Median and spread of a row's repetitions. */

export interface Spread {
  median: number;
  min: number;
  max: number;
}

export function spreadOf(values: number[]): Spread {
  if (values.length === 0) throw new Error('no values to summarise');
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  // An even count (only with --runs 2, 4, …) takes the mean of the middle two.
  const median = sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median: round2(median), min: round2(sorted[0]), max: round2(sorted[sorted.length - 1]) };
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
