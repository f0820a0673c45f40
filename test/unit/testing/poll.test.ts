/** Waiting for a review: polled until done, within the run's time budget, to its very end. */
import { describe, expect, it } from 'vitest';
import type { ReviewApi } from '../../../src/api/review.js';
import { DocketError } from '../../../src/errors.js';
import { awaitReview } from '../../../src/testing/poll.js';

/** A review done at `doneAt` ms of a clock that only the sleeps move; the reads and sleeps it saw. */
function clocked(doneAt: number) {
  let now = 0;
  const seen: string[] = [];
  const api = {
    getReview: async (id: string) => {
      seen.push(`read@${now}`);
      return { id, type: 'review', attributes: { status: now >= doneAt ? 'completed' : 'processing' } };
    },
  } as unknown as ReviewApi;
  const options = {
    signal: new AbortController().signal,
    deadline: () => 2000,
    sleep: async (ms: number) => {
      seen.push(`sleep ${ms}`);
      now += ms;
    },
  };
  const realNow = Date.now;
  const run = async <T>(f: () => Promise<T>): Promise<T> => {
    Date.now = () => now;
    try {
      return await f();
    } finally {
      Date.now = realNow;
    }
  };
  return { api, options, seen, run };
}

describe('awaitReview', () => {
  it('waits out the whole budget, asking once more at its end, before it says the budget ran out (probe KO-2)', async () => {
    const done = clocked(1750);
    const review = await done.run(() => awaitReview(done.api, 'r1', done.options));
    expect(review.attributes.status).toBe('completed');
    // 200, 320, 512 ms: 1,032 ms; then what is left up to 250 ms before the deadline (the HTTP
    // client sends nothing at it), not a give-up before the next 819 ms wait.
    expect(done.seen).toEqual(['read@0', 'sleep 200', 'read@200', 'sleep 320', 'read@520', 'sleep 512', 'read@1032', 'sleep 718', 'read@1750']);

    const never = clocked(Infinity);
    const error = (await never.run(() => awaitReview(never.api, 'r1', never.options)).catch((e: unknown) => e)) as DocketError;
    expect([error.code, error.message]).toEqual(['timeout', 'review r1 was still processing when the time budget ran out']);
    expect(never.seen.at(-1)).toBe('read@1750');

    // The last read cut off by the command's budget says the review was still processing (second read SR73-3).
    const cut = clocked(Infinity);
    const refuse = cut.api.getReview.bind(cut.api);
    cut.api.getReview = async (id: string) => (cut.seen.at(-1)?.startsWith('sleep 718') ? Promise.reject(new DocketError('timeout', 'read review: not sent: this command\'s time budget ran out before its turn came')) : refuse(id));
    const cutError = (await cut.run(() => awaitReview(cut.api, 'r1', cut.options)).catch((e: unknown) => e)) as DocketError;
    expect(cutError.message).toBe('review r1 was still processing when the time budget ran out');

    // A service that answered no read at all (each one hung until the budget's end) has not said the review was processing (probe SJ-3).
    const hung = clocked(Infinity);
    hung.api.getReview = async () => {
      hung.seen.push('hang');
      await hung.options.sleep(2000);
      throw new DocketError('timeout', "read review: no answer before this command's time budget ran out");
    };
    const hungError = (await hung.run(() => awaitReview(hung.api, 'r1', hung.options)).catch((e: unknown) => e)) as DocketError;
    expect([hungError.code, hungError.message]).toEqual(['timeout', 'review r1: the service answered no read of it before the time budget ran out, so whether it was still processing is not known']);
  });
});
