/** Durations on the command line: `90s`, `10m`, `1h`, `500ms`, `2m30s`, or a bare number of seconds. */
import { InvalidArgumentError } from 'commander';

const UNITS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

export function parseDuration(text: string): number {
  return Math.round(exactMs(text));
}

/**
 * A year: longer budgets end past the dates a clock can say (a run's deadline is written as one, in
 * the description of a test's scratch playbook), and no run needs them (probe HM-1).
 */
const LONGEST_MS = 8760 * UNITS.h!;

function exactMs(text: string): number {
  // A bare number of seconds, or parts each with its unit, as Go and Terraform write them (`2m30s`, probe LE-4).
  const bare = /^\d+(?:\.\d+)?$/.test(text);
  if (!bare && !/^(?:\d+(?:\.\d+)?(?:ms|s|m|h))+$/.test(text)) throw new InvalidArgumentError(`${JSON.stringify(text)} is not a duration (like 30s, 10m, 1h or 2m30s)`);
  const ms = bare ? Number(text) * UNITS.s! : Array.from(text.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g), ([, n, unit]) => Number(n) * UNITS[unit!]!).reduce((a, b) => a + b, 0);
  if (ms > LONGEST_MS) throw new InvalidArgumentError(`a duration can be at most 8760h, a year (got "${text}")`);
  return ms;
}

/** A time budget: a duration longer than nothing (a budget of 0 would fail the first request). */
export function parseTimeBudget(text: string): number {
  // Judged before rounding: `0.5ms` is less than 1ms in any unit, as `0.0005s` is.
  const ms = exactMs(text);
  if (ms < 1) throw new InvalidArgumentError(`a time budget must be at least 1ms (got "${text}")`);
  return Math.round(ms);
}

export function formatDuration(ms: number): string {
  if (ms % 3_600_000 === 0 && ms > 0) return `${ms / 3_600_000}h`;
  if (ms % 60_000 === 0 && ms > 0) return `${ms / 60_000}m`;
  if (ms % 1000 === 0) return `${ms / 1000}s`;
  return `${ms}ms`;
}
