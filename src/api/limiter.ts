/**
 * A concurrency bound shared by both service clients: one permit per HTTP attempt, so the total
 * number of requests in flight never exceeds `--concurrency`, whichever service they go to.
 */
import { DocketError } from '../errors.js';

export interface Limiter {
  readonly limit: number;
  /** Permits held right now (for tests and the benchmark report). */
  readonly active: number;
  /** Callers waiting for a permit. */
  readonly pending: number;
  /** Runs `fn` once a permit is free and releases it when `fn` settles. */
  run<T>(fn: () => Promise<T>): Promise<T>;
}

export function createLimiter(limit: number): Limiter {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new DocketError('invalid-concurrency', `concurrency must be a whole number of at least 1 (got ${String(limit)})`);
  }
  let active = 0;
  // FIFO so that a long list cannot starve the writes queued behind it.
  const waiting: (() => void)[] = [];

  const acquire = (): Promise<void> => {
    if (active < limit) {
      active++;
      return Promise.resolve();
    }
    return new Promise<void>((resolve) => waiting.push(resolve));
  };

  const release = (): void => {
    const next = waiting.shift();
    // Hand the permit straight to the next waiter: `active` stays the same.
    if (next) next();
    else active--;
  };

  return {
    limit,
    get active() {
      return active;
    },
    get pending() {
      return waiting.length;
    },
    async run<T>(fn: () => Promise<T>): Promise<T> {
      await acquire();
      try {
        return await fn();
      } finally {
        release();
      }
    },
  };
}
