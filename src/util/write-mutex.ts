/**
 * A short exclusion between processes for a read, change and write of one shared file (the lock's
 * upload records, the test cache's copy of them): two `docket test` runs at once each read the
 * file, added their own uploads and wrote it whole, and the later write dropped the earlier's
 * records, whose contracts were then uploaded and paid for again (probe UA-1).
 *
 * The mutex is a folder: `mkdir` either makes it or finds it there, on every file system. Its
 * holder touches it while it works and removes it once written (only if it is still its own). One
 * not touched for STALE_MUTEX_MS, by the file system's own clock, was left by a killed run (or one
 * stopped that long): it is taken over, by one run at a time (a takeover folder beside it). It is a
 * courtesy, never a reason to stop: where it cannot be made, taken over or had within MAX_WAIT_MS,
 * the write goes ahead without it and says its own problems.
 */
import { mkdirSync, rmdirSync, statSync } from 'node:fs';
import { mkdir, rmdir, stat, utimes } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';

/** Longer than any read, change and write of a lock of 20,000 records takes between touches: left by a killed run. */
export const STALE_MUTEX_MS = 10_000;

/** Dated further ahead than this (by the file system's clock): a touch by hand, not a holder's. */
const FUTURE_SKEW_MS = 60_000;

/** Past this a run writes without the mutex: a holder never holds it that long. */
const MAX_WAIT_MS = STALE_MUTEX_MS + 5_000;

/** How long a run waits between looks at a mutex another holds. */
const POLL_MS = 15;

/** What a synchronous write (a signal's landing marks) waits at most: it cannot wait long. */
const SYNC_WAIT_MS = 200;

/** The mutexes this process holds, by path, with the identity of the folder it made. */
const held = new Map<string, string>();
let releasedAtExit = false;

export interface MutexOptions {
  staleMs?: number;
  /** Make the folder the mutex goes in first: for a caller that writes there anyway (otherwise a missing one means no mutex). */
  makeFolder?: boolean;
}

/** Runs `work` holding the mutex folder `mutexPath`, waiting while another run holds it (see above). */
export async function withWriteMutex<T>(mutexPath: string, work: () => Promise<T>, options: MutexOptions = {}): Promise<T> {
  const staleMs = options.staleMs ?? STALE_MUTEX_MS;
  if (options.makeFolder) await mkdir(dirname(mutexPath), { recursive: true }).catch(() => undefined);
  const made = await take(mutexPath, staleMs);
  if (made === undefined) return work();
  held.set(mutexPath, made);
  releaseAtExit();
  // Touched while held: a long write is no killed run's (third read SR93C-1).
  const touch = setInterval(() => void utimes(mutexPath, new Date(), new Date()).catch(() => undefined), Math.max(1, Math.floor(staleMs / 3)));
  touch.unref();
  try {
    return await work();
  } finally {
    clearInterval(touch);
    held.delete(mutexPath);
    if (await sameFolder(mutexPath, made)) await rmdir(mutexPath).catch(() => undefined);
  }
}

/**
 * The same for a synchronous write, which waits SYNC_WAIT_MS at most and takes nothing over; one
 * this process holds already (its own write under way, which cannot end while this one waits) is
 * not waited for (third read SR93C-2).
 */
export function withWriteMutexSync<T>(mutexPath: string, work: () => T): T {
  const made = held.has(mutexPath) ? undefined : takeSync(mutexPath);
  try {
    return work();
  } finally {
    if (made !== undefined) releaseSync(mutexPath, made);
  }
}

/**
 * A folder's identity: its inode, which a folder made after one removed may be given again, with
 * its birth time (0 where the file system keeps none).
 */
function identity(s: { ino: number; birthtimeMs: number }): string {
  return `${s.ino}:${s.birthtimeMs}`;
}

/** The folder's identity once made (held); undefined where the write should go ahead without it. */
async function take(mutexPath: string, staleMs: number): Promise<string | undefined> {
  const until = Date.now() + MAX_WAIT_MS;
  for (;;) {
    try {
      await mkdir(mutexPath);
      return identity(await stat(mutexPath));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return undefined;
    }
    const taken = await takeOver(mutexPath, staleMs);
    if (taken === 'unusable') return undefined;
    if (taken === 'taken') continue;
    if (Date.now() >= until) return undefined;
    await delay(POLL_MS + Math.random() * POLL_MS);
  }
}

function takeSync(mutexPath: string): string | undefined {
  const until = Date.now() + SYNC_WAIT_MS;
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (;;) {
    try {
      mkdirSync(mutexPath);
      return identity(statSync(mutexPath));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST' || Date.now() >= until) return undefined;
    }
    // A synchronous pause: the listener of a signal cannot await.
    Atomics.wait(pause, 0, 0, POLL_MS);
  }
}

/**
 * Removes a mutex folder left by a killed run, by one run at a time: under `PATH.takeover`, whose own
 * time is the file system's now, so that the folder's age is read on one clock (a shared file
 * system's server's, not this machine's); and only if it is still the folder judged stale (second
 * read SR93B-4).
 */
async function takeOver(mutexPath: string, staleMs: number): Promise<'taken' | 'busy' | 'unusable'> {
  const takeover = `${mutexPath}.takeover`;
  try {
    await mkdir(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return 'unusable';
    // One left by a run killed while it took over is itself stale (by this machine's clock: it is
    // only ever held for a moment): removed, and looked at again.
    const since = await statOf(takeover);
    if (since !== undefined && since !== 'gone' && Math.abs(Date.now() - since.mtimeMs) > staleMs) await rmdir(takeover).catch(() => undefined);
    return 'busy';
  }
  try {
    const [now, folder] = await Promise.all([statOf(takeover), statOf(mutexPath)]);
    if (folder === 'gone') return 'taken';
    // Ours removed meanwhile (judged stale by a run whose clock is far off): looked at again.
    if (now === 'gone') return 'busy';
    if (now === undefined || folder === undefined) return 'unusable';
    const age = now.mtimeMs - folder.mtimeMs;
    if (age <= staleMs && age >= -FUTURE_SKEW_MS) return 'busy';
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

async function statOf(path: string): Promise<{ mtimeMs: number; ino: number; birthtimeMs: number } | 'gone' | undefined> {
  try {
    return await stat(path);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'gone' : undefined;
  }
}

/** Whether the folder at `path` is still the one this run made: another's, after a takeover, is left alone. */
async function sameFolder(path: string, made: string): Promise<boolean> {
  const now = await statOf(path);
  return typeof now === 'object' && identity(now) === made;
}

function releaseSync(path: string, made: string): void {
  try {
    if (identity(statSync(path)) === made) rmdirSync(path);
  } catch {
    // Gone already: nothing to give back.
  }
}

/** A process that exits while it holds one (a second signal mid-write) gives it back, so the next run does not wait for it. */
function releaseAtExit(): void {
  if (releasedAtExit) return;
  releasedAtExit = true;
  process.on('exit', () => {
    for (const [path, made] of held) releaseSync(path, made);
  });
}
