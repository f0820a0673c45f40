/**
 * A short critical section two docket processes must not interleave (two `test capture`s editing
 * one test file: each reads the file, then writes it with its own case). The guard is a folder,
 * because making one is atomic; it is held for the milliseconds of a read and a write, so one
 * older than `staleMs` was left by a process killed meanwhile and is taken over, one waiter at a
 * time (`<guard>.takeover`), which looks at its age again once it holds the takeover: another
 * waiter may have taken it over and made its own since.
 */
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { rmdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface GuardOptions {
  /** How long to wait for another holder. */
  waitMs: number;
  /** A guard older than this was left behind. */
  staleMs: number;
  /** The error when another holder keeps it past `waitMs`. */
  busy: () => Error;
  /** Runs `cleanup` if the process exits while it holds the guard (a second Ctrl-C); returns what unregisters it. */
  onExit?: (cleanup: () => void) => () => void;
}

const POLL_MS = 25;

export async function holdingGuard<T>(path: string, fn: () => Promise<T>, options: GuardOptions): Promise<T> {
  await mkdir(dirname(path), { recursive: true });
  const started = Date.now();
  for (;;) {
    try {
      await mkdir(path);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if ((await ageOf(path)) > options.staleMs) await takeOver(path, options.staleMs);
      else if (Date.now() - started >= options.waitMs) throw options.busy();
      else await sleep(POLL_MS);
    }
  }
  const unregister = options.onExit?.(() => {
    try {
      rmdirSync(path);
    } catch {
      // Gone already.
    }
  });
  try {
    return await fn();
  } finally {
    unregister?.();
    await rmdir(path).catch(() => undefined);
  }
}

/** Milliseconds since `path` was made; -1 when it is gone. */
async function ageOf(path: string): Promise<number> {
  return stat(path).then(
    (s) => Date.now() - s.mtimeMs,
    () => -1,
  );
}

/** Removes a stale guard, unless another waiter is doing so (or did, and holds a new one). */
async function takeOver(path: string, staleMs: number): Promise<void> {
  const takeover = `${path}.takeover`;
  try {
    await mkdir(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    // Left by a waiter killed while it took over: removed, and the next turn tries again.
    if ((await ageOf(takeover)) > staleMs) await rmdir(takeover).catch(() => undefined);
    else await sleep(POLL_MS);
    return;
  }
  try {
    if ((await ageOf(path)) > staleMs) await rmdir(path).catch(() => undefined);
  } finally {
    await rmdir(takeover).catch(() => undefined);
  }
}
