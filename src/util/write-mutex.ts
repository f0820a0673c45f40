/**
 * A short exclusion between processes for a read, change and write of one shared file (the lock's
 * upload records, the test cache's copy of them): two `docket test` runs at once each read the
 * file, added their own uploads and wrote it whole, and the later write dropped the earlier's
 * records, whose contracts were then uploaded and paid for again (probe UA-1).
 *
 * The mutex is a folder: `mkdir` either makes it or finds it there, on every file system. Its
 * holder removes it once written. One left by a killed run is taken over once it is older than any
 * write takes, or dated in the future (another machine's clock), by one run at a time (a takeover
 * folder beside it). It is a courtesy, never a reason to stop: where it cannot be made, taken
 * over or had within MAX_WAIT_MS, the write goes ahead without it and says its own problems.
 */
import { mkdirSync, rmdirSync } from 'node:fs';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** Older than any read, change and write of a lock of 20,000 records takes (under a second): left by a killed run. */
export const STALE_MUTEX_MS = 10_000;

/** Dated further ahead than this: another machine's clock, or a touch, not a holder's. */
const FUTURE_SKEW_MS = 60_000;

/** Past this a run writes without the mutex: a holder never holds it that long. */
const MAX_WAIT_MS = STALE_MUTEX_MS + 5_000;

/** How long a run waits between looks at a mutex another holds. */
const POLL_MS = 15;

/** What a synchronous write (a signal's landing marks) waits at most: it cannot wait long. */
const SYNC_WAIT_MS = 200;

export interface MutexOptions {
  staleMs?: number;
  /** Ends the wait early: the command stopping (its first signal) or out of time. */
  giveUp?: () => boolean;
}

/** Runs `work` holding the mutex folder `mutexPath`, waiting while another run holds it (see above). */
export async function withWriteMutex<T>(mutexPath: string, work: () => Promise<T>, options: MutexOptions = {}): Promise<T> {
  const held = await take(mutexPath, options.staleMs ?? STALE_MUTEX_MS, options.giveUp);
  try {
    return await work();
  } finally {
    if (held) await rmdir(mutexPath).catch(() => undefined);
  }
}

/** The same for a synchronous write, which waits SYNC_WAIT_MS at most and takes nothing over. */
export function withWriteMutexSync<T>(mutexPath: string, work: () => T): T {
  const held = takeSync(mutexPath);
  try {
    return work();
  } finally {
    if (held) {
      try {
        rmdirSync(mutexPath);
      } catch {
        // Gone already, or another's now: nothing to give back.
      }
    }
  }
}

/** True once the folder is made (held); false where the write should go ahead without it. */
async function take(mutexPath: string, staleMs: number, giveUp: (() => boolean) | undefined): Promise<boolean> {
  const until = Date.now() + MAX_WAIT_MS;
  for (;;) {
    const made = await mkdir(mutexPath).then(
      () => 'made' as const,
      (error: NodeJS.ErrnoException) => (error.code === 'EEXIST' ? ('there' as const) : ('unusable' as const)),
    );
    if (made === 'made') return true;
    if (made === 'unusable') return false;
    const since = await ageOf(mutexPath);
    if (since === 'unreadable') return false;
    if (since !== 'gone' && isStale(since, staleMs)) {
      const taken = await takeOver(mutexPath, staleMs);
      if (taken === 'unusable') return false;
      if (taken === 'taken') continue;
    }
    if (Date.now() >= until || giveUp?.() === true) return false;
    await delay(POLL_MS + Math.random() * POLL_MS);
  }
}

function takeSync(mutexPath: string): boolean {
  const until = Date.now() + SYNC_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(mutexPath);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() >= until) return false;
    }
    // A synchronous pause: the listener of a signal cannot await.
    Atomics.wait(pause, 0, 0, POLL_MS);
  }
}

function isStale(ageMs: number, staleMs: number): boolean {
  return ageMs > staleMs || ageMs < -FUTURE_SKEW_MS;
}

/**
 * Removes a stale mutex folder, by one run at a time: under `PATH.takeover`, and only if it is still
 * the folder judged stale (of two runs taking over at once, the second would otherwise remove the
 * first's new one, and both would hold it: second read SR93B-4).
 */
async function takeOver(mutexPath: string, staleMs: number): Promise<'taken' | 'busy' | 'unusable'> {
  const takeover = `${mutexPath}.takeover`;
  try {
    await mkdir(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return 'unusable';
    // One left by a run killed while it took over is itself stale: removed, and looked at again.
    const age = await ageOf(takeover);
    if (typeof age === 'number' && isStale(age, staleMs)) await rmdir(takeover).catch(() => undefined);
    return 'busy';
  }
  try {
    const age = await ageOf(mutexPath);
    if (age === 'gone') return 'taken';
    if (age === 'unreadable' || !isStale(age, staleMs)) return age === 'unreadable' ? 'unusable' : 'busy';
    // A folder that cannot be removed (a read-only or another user's `.docket/`) cannot be taken
    // over: the write goes ahead, and says its own problem (second read SR93B-1).
    return await rmdir(mutexPath).then(
      () => 'taken' as const,
      (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? ('taken' as const) : ('unusable' as const)),
    );
  } finally {
    await rmdir(takeover).catch(() => undefined);
  }
}

/** How long ago the folder was last changed; `gone` once it is not there. */
async function ageOf(path: string): Promise<number | 'gone' | 'unreadable'> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : 'unreadable';
  }
}
