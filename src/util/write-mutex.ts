/**
 * A short exclusion between processes for a read, change and write of one shared file (the lock's
 * upload records, the test cache's copy of them): two `docket test` runs at once each read the
 * file, added their own uploads and wrote it whole, and the later write dropped the earlier's
 * records, whose contracts were then uploaded and paid for again (probe UA-1).
 *
 * The mutex is a folder made beside the file's temporaries: `mkdir` either makes it or finds it
 * there, on every file system. Its holder removes it once written; one left by a killed process
 * is taken over once it is older than any write takes.
 */
import { mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import { setTimeout as delay } from 'node:timers/promises';

/** Older than any read, change and write of a lock of 20,000 records takes (under a second): left by a killed run. */
export const STALE_MUTEX_MS = 15_000;

/** How long a run waits between looks at a mutex another holds. */
const POLL_MS = 15;

/**
 * Runs `work` holding the mutex folder `mutexPath`, waiting while another process holds it. Where
 * the folder cannot be made at all (a read-only checkout, or no folder to make it in: a first write
 * makes that, and a run that writes nothing must leave none) `work` runs without it: its own write
 * then says why it cannot write.
 */
export async function withWriteMutex<T>(mutexPath: string, work: () => Promise<T>, staleMs = STALE_MUTEX_MS): Promise<T> {
  const held = await take(mutexPath, staleMs);
  try {
    return await work();
  } finally {
    if (held) await rmdir(mutexPath).catch(() => undefined);
  }
}

/** True once the folder is made (held); false where it cannot be made at all. */
async function take(mutexPath: string, staleMs: number): Promise<boolean> {
  for (;;) {
    try {
      await mkdir(mutexPath);
      return true;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return false;
    }
    const since = await ageOf(mutexPath);
    if (since !== undefined && since > staleMs) {
      // Moved aside before it is removed: of two runs taking over at once, one moves it, the other finds it gone.
      const aside = `${mutexPath}.stale-${process.pid}-${Date.now()}`;
      if (await rename(mutexPath, aside).then(() => true, () => false)) await rm(aside, { recursive: true, force: true });
      continue;
    }
    await delay(POLL_MS + Math.random() * POLL_MS);
  }
}

/** How long ago the folder was made; undefined once it is gone. */
async function ageOf(path: string): Promise<number | undefined> {
  try {
    return Date.now() - (await stat(path)).mtimeMs;
  } catch {
    return undefined;
  }
}
