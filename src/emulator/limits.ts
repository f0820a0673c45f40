/** The emulator's limits on waits and pace, shared by its command line and its control routes. */

/** The longest wait a Node timer holds (about 24.8 days); a longer one fires at once, with a warning. */
export const LONGEST_TIMER_MS = 2_147_483_647;

/** Added latency per request, as `--latency` takes it. */
export const MAX_LATENCY_MS = 60_000;

/** `--rate-limit` and `rate_limit`: under a tenth of a request a second, a 429's wait outgrows any client timeout. */
export const MIN_RATE_LIMIT = 0.1;
export const MAX_RATE_LIMIT = 100_000;

/**
 * The longest `Retry-After` the emulator sends (`retry_after_seconds`, a fault's `retry_after`),
 * about 31 years: past it, a number prints as `1e+21`, which no client reads as seconds (probe FH-3).
 */
export const MAX_RETRY_AFTER_SECONDS = 1_000_000_000;
