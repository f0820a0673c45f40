/**
 * The pace of both service clients together: one permit per HTTP attempt, so the requests in
 * flight never exceed `--concurrency`, whichever service they go to; and, once a service says
 * "too many requests", a shared slowdown instead of every request retrying on its own.
 *
 * On a 429 every request waits for its Retry-After (nothing new starts during the pause), the
 * allowed concurrency halves, and request starts are spaced at 90 % of the rate the service
 * actually served over the last seconds (of the time docket was not paused), and of the pace that
 * was refused. Too few answers to measure: where most of many requests were refused, what was
 * answered over the whole window is the pace; else a first 429 sets none, and at a second half
 * of what was sent is one. A refused request, once its own wait is over, goes before those queued
 * meanwhile, at the pace; the slowdown is made once for the requests sent at one pace. Each
 * success then grows both back slowly (about one more request a second per second, 5 % a second
 * below 20 a second; one more in flight per round), up to `--concurrency` and `--max-rps`, until
 * the next 429 finds the limit again. So a steady apply runs just under the service's limit with
 * few refusals.
 */
import { seconds } from '../util/seconds.js';
import { DocketError } from '../errors.js';

/**
 * A retry that waited out a pause: `true`, its own; a number, the limiter's time its own pause
 * ended (what `throttled` returned), so a longer pause another refusal set since still holds it.
 */
export type Resumed = boolean | number;

export interface Limiter {
  /** The most requests in flight (`--concurrency`). */
  readonly limit: number;
  /** Whether a pace was set (`--max-rps`, `max_rps:`), not only found from a service's 429s. */
  readonly capped: boolean;
  /** The pace set, requests a second (Infinity when none was). */
  readonly cap: number;
  /** Permits held right now (for tests and the benchmark report). */
  readonly active: number;
  /** Callers waiting for a permit. */
  readonly pending: number;
  /** Nothing starts now: a 429's Retry-After is being waited out. */
  readonly paused: boolean;
  /**
   * Milliseconds until a request queued now could start at the earliest: the pause, and the pace for
   * it and each request queued ahead of it (not what --concurrency adds). `resumed`: a retry that
   * waited out its own pause, which goes first.
   */
  startsIn(resumed?: Resumed): number;
  /**
   * Slowdowns so far. Read as a request starts and given back with its 429: a request sent before
   * the last slowdown was sent at the old pace, and its refusal slows nothing down again.
   */
  readonly slowdowns: number;
  /**
   * Runs `fn` once a permit is free (and the pace allows) and releases it when `fn` settles.
   * `resumed`: the retry of a request that waited out the pause itself; it goes before the
   * requests queued meanwhile, at the pace all keep. `signal`: gives up the place in the
   * queue (rejecting with the signal's reason) when aborted before a permit came, so a command
   * stopped or out of time never waits for the pace; a function makes it only if the call has to
   * wait (a signal and its timer per request cost more than a request that finds a free permit).
   */
  run<T>(fn: () => Promise<T>, resumed?: Resumed, signal?: AbortSignal | (() => AbortSignal)): Promise<T>;
  /**
   * The service refused a request for its rate: slow down, and start nothing for `pauseMs`.
   * `sentAfter`: `slowdowns` when the refused request started (without it: a refusal during a
   * pause slows nothing down again). `service`: the one that refused, as the slowdown's message names it.
   */
  throttled(pauseMs: number, sentAfter?: number, asked?: boolean, service?: string): number;
  /** Calls `listener` with how long each 429 pause lasts from now, as it is set (its own clock is the limiter's); the function returned stops it. */
  onPause(listener: (pauseMs: number) => void): () => void;
  /** A request succeeded: speed back up a little. */
  succeeded(): void;
  /**
   * The service answered a request, but not with a success or a 429 (a 5xx, a 404): it served it
   * all the same, so it counts toward the rate the service serves; it does not speed up the pace.
   */
  answered(): void;
}

export interface LimiterOptions {
  /** A ceiling on request starts per second (`--max-rps`, `max_rps:`), from the start. */
  maxRps?: number;
  /** Monotonic milliseconds; injected for tests. */
  now?: () => number;
  /** Told when docket slows down for a 429 (for `-v`). */
  onSlowDown?: (message: string) => void;
}

interface Waiter {
  go: () => void;
  resumed: Resumed;
}

/** How far back the served rate is measured. */
const WINDOW_MS = 5_000;
/**
 * Fewer answers in the window than this measure no rate: a 429 among the first few requests of a
 * run set a pace of one request a second, which successes then raised by about one a second.
 */
const MIN_MEASURED = 10;
/** Fewer refusals in the window than this say nothing about a limit (a 429 or two may be chance). */
const MIN_REFUSALS = 3;
/** The share of the measured rate docket goes back to after a 429. */
const BACK_OFF = 0.9;
/** The slowest pace a 429 sets: below the service's limit also where that is 1 a second (at 1, every start was a coin toss). */
const MIN_RATE = 0.5;
/** The most one success adds to the pace (requests a second): at a pace of r, r successes a second add 5 % of it. */
const GROWTH_PER_ANSWER = 0.05;

/** The longest wait a timer holds (about 24 days): past it Node fires at once, again and again. */
export const MAX_TIMER_MS = 2_147_483_647;

export function createLimiter(limit: number, options: LimiterOptions = {}): Limiter {
  if (!Number.isInteger(limit) || limit < 1) {
    throw new DocketError('invalid-concurrency', `concurrency must be a whole number of at least 1 (got ${String(limit)})`);
  }
  if (options.maxRps !== undefined && !(options.maxRps > 0)) {
    throw new DocketError('invalid-max-rps', `max_rps must be a positive number (got ${String(options.maxRps)})`);
  }
  const now = options.now ?? (() => performance.now());
  /** How far past a resumed retry's own pause the current one may run and still be taken for it (clocks differ by a few ms). */
  const RESUMED_SLACK_MS = 1000;
  const maxRps = options.maxRps ?? Infinity;
  let active = 0;
  /** In-flight requests allowed now: `limit`, less after 429s. */
  let allowed = limit;
  /** Request starts per second allowed now (Infinity: no spacing). */
  let rate = maxRps;
  let nextStart = 0;
  let pausedUntil = 0;
  let slowdowns = 0;
  /** Answers other than 429 in the window, oldest first (times). */
  const served: number[] = [];
  /** Request starts in the window, oldest first (times). */
  const starts: number[] = [];
  /** Pauses (from, to) that may overlap the window: time nothing could be served. */
  const pauses: [number, number][] = [];
  /** When each 429 of the window came: "most refused" is counted, not guessed from requests not answered yet. */
  const refusals: number[] = [];
  const started = now();
  // FIFO so that a long list cannot starve the writes queued behind it.
  const waiting: Waiter[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  /** When the timer fires. */
  let timerAt = Infinity;

  const pump = (): void => {
    if (waiting.length === 0 && timer) {
      // Nobody left to start: a pending timer must not keep the process alive.
      clearTimeout(timer);
      timer = undefined;
    }
    while (waiting.length > 0 && active < Math.floor(allowed)) {
      const t = now();
      const at = dueAt(waiting[0]!.resumed);
      if (t < at) {
        // A retry put first may be due before the timer a request queued earlier set.
        if (timer && at < timerAt) {
          clearTimeout(timer);
          timer = undefined;
        }
        if (!timer) {
          // A pace of --max-rps 0.0000001 waits longer than a timer holds.
          const wait = Math.min(at - t, MAX_TIMER_MS);
          timerAt = t + wait;
          timer = setTimeout(() => {
            timer = undefined;
            pump();
          }, wait);
        }
        return;
      }
      take(t);
      waiting.shift()!.go();
    }
  };

  const pauseListeners = new Set<(pauseMs: number) => void>();

  /**
   * The earliest a request may start: a retry that waited out its own pause goes at the pace (all
   * of them at once were the next burst of refusals), unless a longer pause another refusal set is
   * still running past it: the service asked every request to wait that out (probe PF-1: retries
   * went during an hour's pause, a second after their own one).
   */
  const dueAt = (resumed: Resumed): number => {
    if (resumed === false) return Math.max(pausedUntil, nextStart);
    if (typeof resumed === 'number' && pausedUntil > resumed + RESUMED_SLACK_MS) return Math.max(pausedUntil, nextStart);
    return nextStart;
  };

  /** A request starts at `t`: it holds a permit, and the next may start one pace step later. */
  const take = (t: number): void => {
    active++;
    starts.push(t);
    nextStart = Number.isFinite(rate) ? Math.max(t, nextStart) + 1000 / rate : 0;
  };

  const release = (): void => {
    active--;
    pump();
  };

  /** Only the last few seconds count. */
  const forgetOld = (t: number): void => {
    while (served.length > 0 && served[0]! < t - WINDOW_MS) served.shift();
    while (starts.length > 0 && starts[0]! < t - WINDOW_MS) starts.shift();
    while (pauses.length > 0 && pauses[0]![1] < t - WINDOW_MS) pauses.shift();
    while (refusals.length > 0 && refusals[0]! < t - WINDOW_MS) refusals.shift();
  };

  /**
   * Answers per second of the window's time docket could send: a pause is no measure of the
   * service's rate. Counted in, the pauses of 429s that come at random (a faulty service, not a
   * limit) pushed each slowdown lower than the last, down to a few requests a second; so did
   * counting only successes, when one answer in five was a 5xx (each slowdown then took 72 % of
   * the pace, not 90 %: 2,100 creates at `--fault-rate 0.2` ran 10 minutes at 3.5 requests a second).
   */
  const servedRate = (t: number): number => {
    forgetOld(t);
    const from = t - Math.min(WINDOW_MS, t - started);
    let paused = 0;
    for (const [a, b] of pauses) paused += Math.max(0, Math.min(b, t) - Math.max(a, from));
    // At least a second: a burst the service let through at once is not its sustained rate.
    const span = Math.max(1000, t - from - paused);
    return (served.length * 1000) / span;
  };

  /** Answers per second of the window's whole time, pauses included (at least a second). */
  const answeredRate = (t: number): number => {
    forgetOld(t);
    return (served.length * 1000) / Math.max(1000, Math.min(WINDOW_MS, t - started));
  };

  /** 90 % of `pace`, within --max-rps and no slower than MIN_RATE (or than a --max-rps below it allows). */
  const slowed = (pace: number): number => Math.min(maxRps, Math.max(Math.min(MIN_RATE, maxRps * BACK_OFF), pace * BACK_OFF));

  /** Requests started per second, over the time since the window's first start (at least a second). */
  const sentRate = (t: number): number => {
    forgetOld(t);
    return starts.length === 0 ? 0 : (starts.length * 1000) / Math.max(1000, t - starts[0]!);
  };

  /** An answer other than a 429, for the served rate; a long apply without a 429 must not keep every one. */
  const answer = (): void => {
    const t = now();
    served.push(t);
    forgetOld(t);
  };

  return {
    limit,
    capped: options.maxRps !== undefined,
    cap: maxRps,
    get active() {
      return active;
    },
    get pending() {
      return waiting.length;
    },
    get paused() {
      return now() < pausedUntil;
    },
    startsIn(resumed: Resumed = false) {
      // Each request queued ahead starts one pace step after the last (probe GQ: three rule lists
      // at 0.05 a second each took their turn for 20 s away, and the last two waited the budget out).
      const ahead = resumed !== false || !Number.isFinite(rate) ? 0 : waiting.length * (1000 / rate);
      return Math.max(0, dueAt(resumed) - now()) + ahead;
    },
    get slowdowns() {
      return slowdowns;
    },
    async run<T>(fn: () => Promise<T>, resumed: Resumed = false, waitSignal?: AbortSignal | (() => AbortSignal)): Promise<T> {
      if (resumed === false && typeof waitSignal !== 'object' && waiting.length === 0 && active < Math.floor(allowed)) {
        const t = now();
        if (t >= Math.max(pausedUntil, nextStart)) {
          // A free permit and the pace allows it: nothing to wait for, so no signal to make.
          take(t);
          try {
            return await fn();
          } finally {
            release();
          }
        }
      }
      const signal = typeof waitSignal === 'function' ? waitSignal() : waitSignal;
      signal?.throwIfAborted();
      await new Promise<void>((resolve, reject) => {
        const onAbort = (): void => {
          const at = waiting.indexOf(waiter);
          if (at >= 0) waiting.splice(at, 1);
          pump();
          reject(signal!.reason);
        };
        const waiter: Waiter = {
          go: () => {
            signal?.removeEventListener('abort', onAbort);
            resolve();
          },
          resumed,
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        // A resumed retry goes first: it was first in line before the pause.
        if (resumed !== false) waiting.unshift(waiter);
        else waiting.push(waiter);
        pump();
      });
      try {
        return await fn();
      } finally {
        release();
      }
    },
    throttled(pauseMs, sentAfter, asked = true, service) {
      const t = now();
      refusals.push(t);
      // The requests already in flight when the first 429 came were sent at the old pace: one
      // slowdown per pace, not one per refusal.
      if (sentAfter === undefined ? t >= pausedUntil : sentAfter >= slowdowns) {
        slowdowns++;
        allowed = Math.max(1, Math.floor(allowed / 2));
        forgetOld(t);
        // Never faster than the pace that was refused: the answers to what was let through at once
        // after a pause (the service saved up for it) read as a rate above the limit.
        if (served.length >= MIN_MEASURED) rate = slowed(Math.min(servedRate(t), rate));
        // Too few answers to measure, but most of many requests refused: the service serves about
        // what it answered over the window, pauses included (its quota fills during them). A burst
        // of 64 at a limit of 1 a second otherwise set a pace 30 times too fast, and each 429 took
        // only a tenth off it: a request used up its retries first. Refusals counted as they came:
        // requests merely not answered yet (the first of a run, in flight) are no refusals, and one
        // 429 by chance among them set a pace of a few a second for the whole run.
        else if (starts.length >= MIN_MEASURED && refusals.length >= MIN_REFUSALS && refusals.length >= served.length) rate = slowed(Math.min(rate, answeredRate(t)));
        // Too few answers to measure (a limit of 2 a second): a pace there is still too fast.
        else if (Number.isFinite(rate)) rate = slowed(rate);
        // No pace yet, and a 429 again after a slowdown: the limit is real (a limit of 1 a second,
        // where every retry went at once, again and again). Half of what was sent is a pace; more
        // than was served, as a few requests measure little.
        else if (slowdowns > 1) rate = slowed(Math.max(servedRate(t), sentRate(t) / 2));
        const pace = Number.isFinite(rate) ? `, at most ${rate.toFixed(1)} per second` : '';
        // What the service asked for (its Retry-After), not a pause promised, which a run whose time
        // budget it would outlast does not take (probe OG-3), nor docket's own backoff (probe PF-4).
        const askedFor = asked && pauseMs > 0 ? `; it asked for a pause of ${seconds(pauseMs)}` : '';
        // Which service refused: the pace is both services' (probe CC-6).
        options.onSlowDown?.(`the ${service ? `${service} ` : ''}service is rate limiting: ${requestsOf(Math.floor(allowed))} at a time${pace}${askedFor}${service ? ' (both services\' requests keep this pace)' : ''}`);
      }
      const until = Math.max(pausedUntil, t + Math.max(0, pauseMs));
      const last = pauses[pauses.length - 1];
      if (last && last[1] >= t) last[1] = until;
      else if (until > t) pauses.push([t, until]);
      pausedUntil = until;
      for (const listener of pauseListeners) listener(until - t);
      pump();
      // When this refusal's own pause ends: its retry, resumed then, waits out only a longer one set since.
      return t + Math.max(0, pauseMs);
    },
    onPause(listener) {
      pauseListeners.add(listener);
      return () => void pauseListeners.delete(listener);
    },
    answered: answer,
    succeeded() {
      answer();
      if (allowed < limit) allowed = Math.min(limit, allowed + 1 / Math.max(1, allowed));
      // About one more request per second, per second of success; below 20 a second, 5 % more
      // (at a limit of 5 a second, one more each second was over it again within a second).
      if (rate < maxRps) rate = Math.min(maxRps, rate + Math.min(GROWTH_PER_ANSWER, 1 / Math.max(1, rate)));
      pump();
    },
  };
}

/** `1 request`, `0.5 requests`, `0.0000001 requests`: a rate as written, never `1e-7` (probe FH-4). */
export function requestsOf(n: number): string {
  return n === 1 ? '1 request' : `${n.toLocaleString('en-US', { maximumSignificantDigits: 21, useGrouping: false })} requests`;
}
