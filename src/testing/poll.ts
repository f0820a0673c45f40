/**
 * Waiting for a review: polled until its results are there, with a growing interval, bounded by
 * the run's time budget and stopped by Ctrl-C.
 */
import type { ReviewApi, ReviewAttrs } from '../api/review.js';
import type { ApiResource } from '../api/types.js';
import { DocketError } from '../errors.js';

export interface PollOptions {
  signal: AbortSignal;
  /** Epoch ms by which the review must be done. */
  deadline: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  firstDelayMs?: number;
  maxDelayMs?: number;
}

/**
 * NOTE(api): seed 000 shows no processing states. A review is done when its `status` is
 * `completed` or `failed` (the public docs' and the emulator's attribute), or, from a service that
 * sends no status, once `redline_evaluations` or `summary_positions` is present.
 */
export function reviewDone(a: ReviewAttrs): 'done' | 'failed' | 'waiting' {
  if (a.status === 'failed') return 'failed';
  if (a.status === 'completed') return 'done';
  if (a.status === undefined || a.status === null) return Array.isArray(a.redline_evaluations) || Array.isArray(a.summary_positions) ? 'done' : 'waiting';
  return 'waiting';
}

/**
 * The last read is made this long before the deadline: the HTTP client sends nothing at or past it,
 * and a read refused so said the budget ran out before its turn, not that the review was still
 * processing (second read SR73-3).
 */
export const LAST_READ_ROOM_MS = 250;

/** Said when the budget ran out: only a read that was answered tells the review was still processing (probe SJ-3). */
function outOfTime(id: string, answered: boolean): DocketError {
  const what = answered ? `review ${id} was still processing when the time budget ran out` : `review ${id}: the service answered no read of it before the time budget ran out, so whether it was still processing is not known`;
  return new DocketError('timeout', what, 'give the run more time with --timeout');
}

export async function awaitReview(api: ReviewApi, id: string, options: PollOptions): Promise<ApiResource<ReviewAttrs>> {
  let delay = options.firstDelayMs ?? 200;
  let answered = false;
  for (;;) {
    const review = await api.getReview(id).catch((error: unknown) => {
      // Cut off by the budget at its end: the review was still processing, if a read said so.
      throw error instanceof DocketError && error.code === 'timeout' && Date.now() >= options.deadline() - LAST_READ_ROOM_MS ? outOfTime(id, answered) : error;
    });
    answered = true;
    const state = reviewDone(review.attributes);
    if (state === 'done') return review;
    if (state === 'failed') throw new DocketError('review-failed', `review ${id} failed${review.attributes.error ? `: ${String(review.attributes.error)}` : ''}`);
    if (options.signal.aborted) throw new DocketError('interrupted', `review ${id}: interrupted while it was processing`);
    // The last wait ends just before the deadline, and the review is asked once more: giving up a
    // whole interval early (up to 5 s) said the budget ran out while it had not (probe KO-2).
    const left = options.deadline() - LAST_READ_ROOM_MS - Date.now();
    if (left <= 0) throw outOfTime(id, true);
    await options.sleep(Math.min(delay, left), options.signal);
    delay = Math.min(options.maxDelayMs ?? 5000, Math.round(delay * 1.6));
  }
}
