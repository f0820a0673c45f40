import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createLimiter } from '../../../src/api/limiter.js';
import { DocketError } from '../../../src/errors.js';

describe('createLimiter', () => {
  it('waits out a pace longer than a timer holds without firing its timer again and again (--max-rps 0.0000001)', async () => {
    const warnings: string[] = [];
    const onWarning = (w: Error) => warnings.push(w.name);
    process.on('warning', onWarning);
    try {
      const limiter = createLimiter(8, { maxRps: 0.0000001 });
      await limiter.run(async () => undefined);
      const stop = new AbortController();
      const second = limiter.run(async () => undefined, false, stop.signal).catch(() => 'gave up');
      await new Promise((r) => setTimeout(r, 50));
      stop.abort(new Error('done'));
      expect(await second).toBe('gave up');
      expect(warnings.filter((w) => w === 'TimeoutOverflowWarning')).toEqual([]);
    } finally {
      process.off('warning', onWarning);
    }
  });


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

  it('makes the wait signal only for a call that has to wait, and that call can still leave the queue', async () => {
    const limiter = createLimiter(1);
    const made: string[] = [];
    const stop = new AbortController();
    const signalFor = (name: string) => () => {
      made.push(name);
      return stop.signal;
    };
    let finish!: () => void;
    const first = limiter.run(() => new Promise<string>((r) => (finish = () => r('first'))), false, signalFor('first'));
    const second = limiter.run(async () => 'second', false, signalFor('second'));
    expect(made).toEqual(['second']);
    expect(limiter.pending).toBe(1);
    stop.abort(new Error('stopped'));
    await expect(second).rejects.toThrow('stopped');
    finish();
    expect(await first).toBe('first');
    expect(limiter.active).toBe(0);
  });

  it('rejects a limit below 1', () => {
    expect(() => createLimiter(0)).toThrow(DocketError);
    expect(() => createLimiter(1.5)).toThrow(DocketError);
  });
});

/** `n` requests sent at once (retries when `resumed`), one of them answered, the others refused with a pause of 1 s. */
async function refusedBurst(limiter: ReturnType<typeof createLimiter>, n: number, resumed: boolean): Promise<void> {
  const sent = limiter.slowdowns;
  await Promise.all(Array.from({ length: n }, () => limiter.run(async () => undefined, resumed)));
  limiter.succeeded();
  for (let i = 1; i < n; i++) limiter.throttled(1000, sent);
}

describe('the shared pace after a 429', () => {
  /** vitest's fake clock: the limiter's readings and its timers move together, only when told. */
  function paced(limit: number, options: { maxRps?: number } = {}) {
    const messages: string[] = [];
    const limiter = createLimiter(limit, { ...options, now: () => Date.now(), onSlowDown: (m) => messages.push(m) });
    return {
      limiter,
      messages,
      advance: async (ms: number) => {
        await vi.advanceTimersByTimeAsync(ms);
      },
      /** `n` requests answered. */
      serve: (n: number) => {
        for (let i = 0; i < n; i++) limiter.succeeded();
      },
      /** The pace each slowdown set, as `-v` says it. */
      paces: () => messages.map((m) => /at most ([\d.]+)/.exec(m)?.[1]),
      /** `n` requests answered over a second, then a 429 with a pause of `pauseMs`. */
      refusedAfter: async (n: number, pauseMs: number) => {
        for (let i = 0; i < n; i++) limiter.succeeded();
        await vi.advanceTimersByTimeAsync(1000);
        limiter.throttled(pauseMs);
      },
    };
  }

  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('pauses every new request for the Retry-After, halves concurrency, once per pause', async () => {
    const { limiter, advance, messages } = paced(8);
    limiter.throttled(1000);
    limiter.throttled(1000); // a second 429 from the same burst: no second slowdown
    expect(messages).toHaveLength(1);
    // Nothing served yet measures no rate: concurrency halves, and no pace is set.
    expect(messages[0]).toMatch(/4 requests at a time; it asked for a pause of 1 s/);
    let ran = false;
    const waiting = limiter.run(async () => {
      ran = true;
    });
    await advance(999);
    expect(ran).toBe(false);
    await advance(1);
    await waiting;
    expect(ran).toBe(true);
  });

  it('lets the request that waited out its own pause go before one queued meanwhile, at the pace, without waiting for the pause again', async () => {
    const { limiter, advance } = paced(2, { maxRps: 2 });
    const t0 = Date.now();
    await limiter.run(async () => undefined);
    limiter.throttled(10_000);
    const starts: [string, number][] = [];
    const fresh = limiter.run(async () => void starts.push(['fresh', Date.now() - t0]));
    const resumed = limiter.run(async () => void starts.push(['resumed', Date.now() - t0]), true);
    await advance(10_000);
    await Promise.all([fresh, resumed]);
    // One pace step (--max-rps 2) after the last start, not when the timer the queued request set fires.
    expect(starts).toEqual([
      ['resumed', 500],
      ['fresh', 10_000],
    ]);
  });

  it('holds a retry that waited out its own pause for a longer one another refusal set since: the service asked every request to wait (probe PF-1)', async () => {
    const { limiter, advance } = paced(2);
    const t0 = Date.now();
    await limiter.run(async () => undefined);
    const own = limiter.throttled(1000);
    limiter.throttled(60_000);
    await advance(1000);
    const starts: number[] = [];
    const resumed = limiter.run(async () => void starts.push(Date.now() - t0), own);
    await advance(60_000);
    await resumed;
    expect(starts).toEqual([60_000]);
  });

  it('slows a --max-rps below the slowest pace a 429 sets further, never up to that pace', async () => {
    const { limiter, advance } = paced(8, { maxRps: 0.2 });
    await limiter.run(async () => undefined);
    limiter.throttled(0);
    const starts: number[] = [];
    const runs = Array.from({ length: 2 }, () => limiter.run(async () => void starts.push(Date.now())));
    await advance(20_000);
    await Promise.all(runs);
    // 90 % of 0.2 a second: 5.6 s apart (at 0.5 a second, 2 s).
    expect(starts[1]! - starts[0]!).toBe(5556);
  });

  it('paces request starts at 90 % of the rate served before the 429, and grows back with successes', async () => {
    const { limiter, advance } = paced(8);
    // 20 requests served over 1 s, then refused.
    for (let i = 0; i < 20; i++) limiter.succeeded();
    await advance(1000);
    limiter.throttled(0);
    const starts: number[] = [];
    let clock = 1000;
    const run = () =>
      limiter.run(async () => {
        starts.push(clock);
      });
    const all = [run(), run(), run()];
    for (let i = 0; i < 20; i++) {
      await advance(10);
      clock += 10;
    }
    await Promise.all(all);
    // 18 per second: one start every ~55 ms.
    expect(starts[1]! - starts[0]!).toBeGreaterThanOrEqual(50);
    expect(starts[2]! - starts[1]!).toBeLessThanOrEqual(60);
  });

  it('measures the served rate over the time it could send: a pause does not count as a slow service', async () => {
    const { limiter, advance, paces, refusedAfter } = paced(8);
    // 20 requests served over 1 s, then a 429 with a pause of 3 s, then another 429 as it ends.
    await refusedAfter(20, 3000);
    await advance(3000);
    limiter.throttled(0);
    // Counting the pause, 20 in 4 s would be 5 a second, and 4.5 after the slowdown: each 429
    // that came at random brought the next pace lower, down to a few requests a second. The second
    // 429 refused the pace of 18 the first set: 90 % of that.
    expect(paces()).toEqual(['18.0', '16.2']);
  });

  it('never paces faster than the pace a 429 refused, however much a burst after a pause let through', async () => {
    const { advance, paces, refusedAfter } = paced(8);
    await refusedAfter(20, 1000);
    await advance(1000);
    // The service saved up during the pause: 30 answers in the next second, then a 429.
    await refusedAfter(30, 1000);
    // Served over its 2 s of sending, 50 answers read as 25 a second: the pace refused was about 18 (and what it grew by).
    const [first, second] = paces().map(Number);
    expect(first).toBe(18);
    expect(second).toBeLessThan(18);
  });

  it('slows a pace it set on every 429, also when too few answers came since to measure a rate (a limit of 2 a second)', async () => {
    const { limiter, advance, serve, paces, refusedAfter } = paced(8);
    await refusedAfter(20, 0);
    // The window forgets those; three answers in the next 6 s measure nothing.
    await advance(6000);
    serve(3);
    limiter.throttled(0);
    expect(paces()).toEqual(['18.0', '16.3']);
  });

  it('keeps the pace it set, slowed by 10 %, when a long pause leaves few answers in the window: what it sent since is its own restart, not the service', async () => {
    const { limiter, advance, serve, paces, refusedAfter } = paced(8);
    await refusedAfter(20, 10_000);
    await advance(10_000);
    const sent = limiter.slowdowns;
    const runs = Array.from({ length: 3 }, () => limiter.run(async () => undefined, true));
    await advance(200);
    await Promise.all(runs);
    serve(3);
    limiter.throttled(1000, sent);
    // Half of 3 requests a second would be 1.5: a tenth of the pace the service sustains.
    expect(paces()).toEqual(['18.0', '16.3']);
  });

  it('slows down once for the requests sent at one pace, however many of them the service refuses', async () => {
    const { limiter, messages } = paced(8);
    const sent = limiter.slowdowns;
    limiter.throttled(0, sent);
    limiter.throttled(0, sent);
    expect(messages).toHaveLength(1);
    // One sent after that slowdown, refused too: the pace it was sent at is too fast as well.
    limiter.throttled(0, limiter.slowdowns);
    expect(messages).toHaveLength(2);
    expect(messages[1]).toMatch(/^the service is rate limiting: 2 requests at a time/);
  });

  it('paces at what the service answered once most of many requests were refused, however few the answers (a limit of 1 a second): the retries go a pace step apart', async () => {
    const { limiter, advance, paces } = paced(8);
    // Eight sent at once, one answered, a 429 with a pause of 1 s: no pace yet (too few sent to tell a limit from chance).
    await refusedBurst(limiter, 8, false);
    expect(paces()).toEqual([undefined]);
    await advance(1000);
    // Four retries at once after the pause, one answered, a 429 again: 2 answered of 12 sent in 1 s.
    await refusedBurst(limiter, 4, true);
    expect(paces()[1]).toBe('1.8');
    await advance(1000);
    // The retries after that pause go one pace step apart, not at once.
    const starts: number[] = [];
    const retries = Array.from({ length: 3 }, () => limiter.run(async () => void starts.push(Date.now()), true));
    await advance(2000);
    await Promise.all(retries);
    expect(starts[1]! - starts[0]!).toBe(556);
    expect(starts[2]! - starts[1]!).toBe(556);
  });

  it('sets no pace from one 429 among the first requests of a run, however many are still in flight (probe FD)', async () => {
    const { limiter, messages } = paced(8);
    // Twelve started at once, two answered, one refused: the other nine are not answered yet, not refused.
    const sent = limiter.slowdowns;
    await Promise.all(Array.from({ length: 12 }, () => limiter.run(async () => undefined)));
    limiter.succeeded();
    limiter.succeeded();
    limiter.throttled(1000, sent);
    expect(messages).toEqual(['the service is rate limiting: 4 requests at a time; it asked for a pause of 1 s']);
  });

  it('says a pause the service asked for as it asked, not rounded to whole seconds (probe PW-4)', async () => {
    const { limiter, messages } = paced(8);
    await limiter.run(async () => undefined);
    limiter.throttled(1500, limiter.slowdowns);
    expect(messages[0]).toMatch(/it asked for a pause of 1\.5 s$/);
  });

  it('takes half of what it sent as a first pace at a second 429, where too few were sent to measure the service', async () => {
    const { limiter, advance, paces } = paced(8);
    await refusedBurst(limiter, 5, false);
    await advance(1000);
    await refusedBurst(limiter, 4, true);
    // 9 sent in 1 s: 4.5 a second, less 10 %.
    expect(paces()).toEqual([undefined, '4.0']);
  });

  it('grows the pace back by about one a second per second, and below 20 a second by 5 % a second', async () => {
    const grown = async (served: number): Promise<number> => {
      const { limiter, serve, paces, refusedAfter } = paced(8);
      await refusedAfter(served, 0);
      // One second of successes at the new pace, then a 429 shows the pace it grew to.
      const pace = Number(paces()[0]);
      serve(Math.round(pace));
      limiter.throttled(0);
      return Number(paces()[1]) / 0.9 - pace;
    };
    expect(await grown(100)).toBeCloseTo(1, 0);
    expect(await grown(10)).toBeCloseTo(0.45, 1);
  });

  it('sets no pace from a handful of answers: a 429 among the first requests only halves concurrency', async () => {
    const { limiter, messages, advance } = paced(8);
    for (let i = 0; i < 3; i++) limiter.succeeded();
    await advance(100);
    limiter.throttled(0);
    expect(messages[0]).toBe('the service is rate limiting: 4 requests at a time');
    // Once the window holds enough answers, the next 429 paces at 90 % of them.
    for (let i = 0; i < 17; i++) limiter.succeeded();
    await advance(900);
    limiter.throttled(0);
    expect(messages[1]).toContain('at most 18.0 per second');
  });

  it('counts every answer but a 429 as served: a service that fails one request in five is not read as a slower one', async () => {
    const { limiter, messages, advance } = paced(8);
    // 20 answers over 1 s, 4 of them 5xx, then a 429.
    for (let i = 0; i < 16; i++) limiter.succeeded();
    for (let i = 0; i < 4; i++) limiter.answered();
    await advance(1000);
    limiter.throttled(0);
    expect(messages[0]).toContain('at most 18.0 per second');
  });

  it('never starts more than max-rps requests a second, from the start', async () => {
    const { limiter, advance } = paced(8, { maxRps: 10 });
    let started = 0;
    const all = Array.from({ length: 5 }, () =>
      limiter.run(async () => {
        started++;
      }),
    );
    await advance(0);
    expect(started).toBe(1);
    await advance(100);
    expect(started).toBe(2);
    await advance(300);
    await Promise.all(all);
    expect(started).toBe(5);
    expect(() => createLimiter(8, { maxRps: 0 })).toThrow(DocketError);
  });

  it('halves concurrency down to 1, never below, and grows it back to the bound', async () => {
    const { limiter, advance } = paced(8);
    for (let i = 0; i < 4; i++) {
      limiter.throttled(0);
      await advance(1);
    }
    let inFlight = 0;
    let peak = 0;
    // Each request holds its permit for a second, so overlapping requests would show in `peak`.
    const task = () =>
      limiter.run(async () => {
        inFlight++;
        peak = Math.max(peak, inFlight);
        await new Promise((resolve) => setTimeout(resolve, 1000));
        inFlight--;
      });
    const first = [task(), task(), task()];
    await advance(10_000);
    await Promise.all(first);
    expect(peak).toBe(1);
    for (let i = 0; i < 200; i++) limiter.succeeded();
    peak = 0;
    const more = Array.from({ length: 8 }, task);
    await advance(10_000);
    await Promise.all(more);
    expect(peak).toBeGreaterThan(4);
  });

  it('lets a request stopped while it waits leave the queue at once, and the others keep their order', async () => {
    const { limiter, advance } = paced(1);
    limiter.throttled(60_000);
    const stop = new AbortController();
    const order: string[] = [];
    const stopped = limiter.run(async () => order.push('stopped'), false, stop.signal);
    const after = limiter.run(async () => order.push('after'));
    stop.abort(new Error('out of time'));
    await expect(stopped).rejects.toThrow('out of time');
    expect(limiter.pending).toBe(1);
    await advance(60_000);
    await after;
    expect(order).toEqual(['after']);
    // Aborted before it even queued: no place taken.
    await expect(limiter.run(async () => 'never', false, stop.signal)).rejects.toThrow('out of time');
    expect(limiter.pending).toBe(0);
  });

  it('keeps no timer once nobody waits, so a stopped command can end', async () => {
    const { limiter } = paced(1);
    limiter.throttled(60_000);
    const stop = new AbortController();
    const waiting = limiter.run(async () => undefined, false, stop.signal);
    await vi.advanceTimersByTimeAsync(0);
    expect(vi.getTimerCount()).toBe(1);
    stop.abort(new Error('stopped'));
    await expect(waiting).rejects.toThrow('stopped');
    expect(vi.getTimerCount()).toBe(0);
  });
});
