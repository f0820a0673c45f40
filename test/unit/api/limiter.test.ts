import { describe, expect, it } from 'vitest';
import { createLimiter } from '../../../src/api/limiter.js';
import { DocketError } from '../../../src/errors.js';

describe('createLimiter', () => {
  it('bounds concurrency and runs waiters in order', async () => {
    const limiter = createLimiter(2);
    let inFlight = 0;
    let peak = 0;
    const started: number[] = [];
    const task = (i: number) =>
      limiter.run(async () => {
        started.push(i);
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((r) => setTimeout(r, 2));
        inFlight--;
        return i;
      });
    const out = await Promise.all(Array.from({ length: 10 }, (_, i) => task(i)));
    expect(out).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(peak).toBe(2);
    expect(started).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(limiter.active).toBe(0);
    expect(limiter.pending).toBe(0);
  });

  it('releases the permit when the task fails', async () => {
    const limiter = createLimiter(1);
    await expect(limiter.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await limiter.run(async () => 'next')).toBe('next');
    expect(limiter.active).toBe(0);
  });

  it('rejects a limit below 1', () => {
    expect(() => createLimiter(0)).toThrow(DocketError);
    expect(() => createLimiter(1.5)).toThrow(DocketError);
  });
});
