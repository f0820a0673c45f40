/**
 * The executor: runs a plan's changes with bounded parallelism. A change starts once everything it
 * depends on is done; when one fails, its dependents are skipped and the rest goes on.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { ApiError, mayStillRun } from '../errors.js';
import { MinHeap } from './heap.js';
import type { ApplyReport, Change, ChangeResult, Plan } from './types.js';

export interface ExecuteOptions {
  concurrency: number;
  /** Runs a change; a string it resolves to is a note for the report (what happened besides the change). */
  run: (change: Change) => Promise<string | void>;
  /** Milliseconds, monotonic; injected so tests are deterministic. */
  clock: () => number;
  onResult?: (result: ChangeResult, change: Change) => void;
  /** Once aborted, nothing new starts; what is running may finish within `graceMs`. The reason is reported. */
  signal?: AbortSignal;
  /**
   * Asked before each change starts; may abort `signal` (a time budget that ran out while its timer
   * waited behind busy work: changes started then would fail at once, "not sent").
   */
  beforeStart?: () => void;
  /**
   * Told of each change's failure before the next starts; may abort `signal` (a request the time
   * budget left unsent: the changes after it would each fail at once, unsent too).
   */
  afterFailure?: (error: unknown) => void;
  /** How long running changes may take to finish after `signal` (default 30 s). */
  graceMs?: number;
  /** Waits `ms` or until the returned promise is settled by the caller; injected for tests. */
  wait?: (ms: number) => Promise<void>;
}

export const DEFAULT_GRACE_MS = 30_000;

/**
 * Waits for `work`, or, once `signal` aborts, for at most `graceMs` more (`wait` sleeps; it may
 * ignore `cancel`, which ends the sleep when the work ends first). Whether it ended on its own
 * (false also when it ended after the stop: what it left unfinished is for the caller to say).
 */
export async function withinGrace(
  work: Promise<unknown>,
  signal: AbortSignal | undefined,
  graceMs: number,
  wait: (ms: number, cancel: AbortSignal) => Promise<void> = (ms, cancel) => delay(ms, undefined, { signal: cancel }),
): Promise<boolean> {
  if (!signal) {
    await work;
    return true;
  }
  const done = new AbortController();
  const gaveUp = new Promise<void>((resolve) => {
    const grace = (): void => void wait(graceMs, done.signal).then(resolve, () => undefined);
    if (signal.aborted) grace();
    else signal.addEventListener('abort', grace, { once: true, signal: done.signal });
  });
  try {
    await Promise.race([work, gaveUp]);
  } finally {
    done.abort();
  }
  return !signal.aborted;
}

export async function executePlan(plan: Plan, options: ExecuteOptions): Promise<ApplyReport> {
  const started = options.clock();
  const changes = plan.changes;
  const index = new Map(changes.map((c, i) => [c.id, i]));
  const results = new Map<string, ChangeResult>();
  // Dependencies outside the plan cannot block (they are not part of this apply).
  const waiting = changes.map((c) => c.dependsOn.filter((id) => index.has(id)).length);
  const dependents = changes.map((): number[] => []);
  changes.forEach((c, i) => {
    for (const id of c.dependsOn) {
      const j = index.get(id);
      if (j !== undefined) dependents[j]!.push(i);
    }
  });
  // Ready changes start in plan order.
  const ready = new MinHeap<number>((a, b) => a < b);
  changes.forEach((_, i) => {
    if (waiting[i] === 0) ready.push(i);
  });
  const limit = Math.max(1, options.concurrency);
  const running = new Set<Promise<void>>();

  const finish = (change: Change, result: ChangeResult): void => {
    results.set(change.id, result);
    options.onResult?.(result, change);
  };

  /** Skips everything that depends on `failed`, directly or through another skipped change. */
  const skipDependents = (failedAt: number): void => {
    const failed = changes[failedAt]!;
    const queue: [number, string][] = dependents[failedAt]!.map((i) => [i, failed.id]);
    while (queue.length > 0) {
      const [i, through] = queue.shift()!;
      const change = changes[i]!;
      if (results.has(change.id)) continue;
      const via = through === failed.id ? '' : ` (through ${through})`;
      const blockedBy = { failed: failed.id, ...(through === failed.id ? {} : { through }) };
      finish(change, { changeId: change.id, status: 'skipped', message: `depends on ${failed.id}, which failed${via}`, blockedBy, ms: 0 });
      for (const j of dependents[i]!) queue.push([j, change.id]);
    }
  };

  const complete = (i: number, ok: boolean): void => {
    if (!ok) {
      skipDependents(i);
      return;
    }
    for (const j of dependents[i]!) {
      waiting[j]!--;
      if (waiting[j] === 0 && !results.has(changes[j]!.id)) ready.push(j);
    }
  };

  const startedAt = new Set<string>();
  const start = (i: number): void => {
    const change = changes[i]!;
    startedAt.add(change.id);
    const t0 = options.clock();
    const task: Promise<void> = options
      .run(change)
      .then(
        (note) => {
          finish(change, { changeId: change.id, status: 'done', ...(typeof note === 'string' ? { note } : {}), ms: Math.round(options.clock() - t0) });
          complete(i, true);
        },
        (error: unknown) => {
          // Never sent, the run stopping when its turn came: not started, as what waits for it (left
          // for the end, which says so of every change not started once stopped).
          if (stopped() && (error as { neverSent?: unknown } | null)?.neverSent === true) {
            startedAt.delete(change.id);
            return;
          }
          // An upload that may have arrived, or arrived unnamed: the next plan stops at it.
          // Any write still running there (an update too, probe SG-1): the hint says to wait before a re-run.
          const code = (error as { code?: unknown } | null)?.code;
          const unknown = code === 'unknown-outcome' || code === 'unnamed-upload';
          const hint = tooLargeHint(change, error) ?? (error as { hint?: unknown } | null)?.hint;
          // The object it acts on answered 404, or the one a child is made in: gone since the plan,
          // which a saved plan cannot be applied again over (probe AJ-1, second read SR99B-4).
          const gone = (change.liveId !== undefined || change.parent?.liveId !== undefined) && error instanceof ApiError && error.status === 404 ? { gone: true as const } : {};
          finish(change, { changeId: change.id, status: 'failed', message: error instanceof Error ? error.message : String(error), ...(typeof hint === 'string' && hint !== '' ? { hint } : {}), ...(unknown ? { outcomeUnknown: true as const } : {}), ...(mayStillRun(error) ? { pending: true as const } : {}), ...((error as { notCarriedOut?: unknown } | null)?.notCarriedOut === true ? { unchanged: true as const } : {}), ...gone, ms: Math.round(options.clock() - t0) });
          options.afterFailure?.(error);
          // Once stopped (by this failure's budget, or before it), what depends on it is not started,
          // as everything else left: not skipped for a failure that a run again may not have (probe OM-4).
          if (!stopped()) complete(i, false);
        },
      )
      .finally(() => {
        running.delete(task);
        wake();
      });
    running.add(task);
  };

  // The loop sleeps until a change finishes or a stop is asked for. (A Promise.race over what runs
  // and a stop that never comes would add a reaction to that stop per change: 20,000 of them.)
  let sleeper: (() => void) | undefined;
  let woken = false;
  const wake = (): void => {
    woken = true;
    const s = sleeper;
    sleeper = undefined;
    s?.();
  };

  const signal = options.signal;
  const stopped = (): boolean => signal?.aborted === true;
  // One listener for the whole apply: a new one per wait would pile up, one per change.
  signal?.addEventListener('abort', wake, { once: true });
  for (;;) {
    while (!stopped() && running.size < limit && ready.size > 0) {
      options.beforeStart?.();
      if (stopped()) break;
      const i = ready.pop()!;
      if (!results.has(changes[i]!.id)) start(i);
    }
    if (running.size === 0) break;
    if (stopped()) break;
    if (!woken) await new Promise<void>((resolve) => (sleeper = resolve));
    woken = false;
  }
  signal?.removeEventListener('abort', wake);
  if (stopped() && running.size > 0) {
    // Let what is in flight finish, for a while: its outcome is then known and recorded.
    await withinGrace(Promise.allSettled([...running]), signal, options.graceMs ?? DEFAULT_GRACE_MS, options.wait);
  }
  for (const change of changes) {
    if (results.has(change.id)) continue;
    const started = startedAt.has(change.id);
    if (stopped()) {
      finish(
        change,
        started
          ? // Sent, and maybe still being carried out by the service: a re-run at once could make it twice.
            { changeId: change.id, status: 'failed', message: 'still running when docket stopped; its outcome is unknown, and the service may still be carrying it out', pending: true, ms: 0 }
          : { changeId: change.id, status: 'not-started', ms: 0 },
      );
    } else {
      // Stay total: anything left never became ready (a cycle cannot reach here, but do not hang).
      finish(change, { changeId: change.id, status: 'skipped', message: 'its dependencies never completed', ms: 0 });
    }
  }

  const ordered = changes.map((c) => results.get(c.id)!);
  const notStarted = ordered.filter((r) => r.status === 'not-started').length;
  return {
    results: ordered,
    done: ordered.filter((r) => r.status === 'done').length,
    failed: ordered.filter((r) => r.status === 'failed').length,
    skipped: ordered.filter((r) => r.status === 'skipped').length,
    ...(stopped() ? { notStarted, stopped: reasonOf(signal!) } : {}),
    ms: Math.round(options.clock() - started),
  };
}

export function reasonOf(signal: AbortSignal): string {
  const r: unknown = signal.reason;
  return r instanceof Error ? r.message : typeof r === 'string' ? r : 'stopped';
}

/** A change that sends a file whole, refused as too large: the file it is, which no rerun changes (probe MP-2). */
function tooLargeHint(change: Change, error: unknown): string | undefined {
  if (!change.uploads || (error as { status?: unknown } | null)?.status !== 413) return undefined;
  return `the service takes no request this large: make ${change.uploads} smaller (or split it), then apply again`;
}
