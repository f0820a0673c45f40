/**
 * A short critical section two docket processes must not interleave (two `test capture`s editing
 * one test file: each reads the file, then writes it with its own case). The guard is a folder,
 * because making one is atomic; it is held for the milliseconds of a read and a write, so one
 * older than `staleMs` was left by a process killed meanwhile and is taken over.
 */
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

export interface GuardOptions {
  /** How long to wait for another holder. */
  waitMs: number;
  /** A guard older than this was left behind. */
  staleMs: number;
  /** The error when another holder keeps it past `waitMs`. */
  busy: () => Error;
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
      const age = await stat(path).then((s) => Date.now() - s.mtimeMs, () => 0);
      if (age > options.staleMs) await rmdir(path).catch(() => undefined);
      else if (Date.now() - started >= options.waitMs) throw options.busy();
      else await sleep(POLL_MS);
    }
  }
  try {
    return await fn();
  } finally {
    await rmdir(path).catch(() => undefined);
  }
}
