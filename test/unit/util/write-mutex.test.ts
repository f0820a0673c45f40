import { existsSync } from 'node:fs';
import { mkdir, rmdir, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { withWriteMutex, withWriteMutexSync } from '../../../src/util/write-mutex.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

/** Work that notes how many holders are inside at once. */
function counted(): { work: () => Promise<void>; most: () => number } {
  let inside = 0;
  let most = 0;
  return {
    work: async () => {
      inside++;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, 3));
      inside--;
    },
    most: () => most,
  };
}

async function datedFolder(path: string, offsetMs: number): Promise<void> {
  await mkdir(path);
  const at = new Date(Date.now() + offsetMs);
  await utimes(path, at, at);
}

describe('withWriteMutex', () => {
  it('runs one holder at a time, and gives the mutex back after a failure too', async () => {
    const mutex = join(await makeDir({}), 'f.writing');
    const { work, most } = counted();
    await Promise.all(Array.from({ length: 8 }, () => withWriteMutex(mutex, work)));
    expect(most()).toBe(1);
    await expect(withWriteMutex(mutex, () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
    expect(existsSync(mutex)).toBe(false);
  });

  it('waits on a fresh one, another run\'s, until it goes', async () => {
    const mutex = join(await makeDir({}), 'f.writing');
    await mkdir(mutex);
    let ran = false;
    const waiting = withWriteMutex(mutex, async () => void (ran = true));
    await new Promise((r) => setTimeout(r, 60));
    expect(ran).toBe(false);
    await rmdir(mutex);
    await waiting;
    expect(ran).toBe(true);
  });

  it('takes over one a killed run left, or one dated in the future, by one run at a time (second reads SR93B-2, SR93B-4)', async () => {
    const root = await makeDir({});
    for (const [name, offset] of [['old', -60_000], ['ahead', 3_600_000]] as const) {
      const mutex = join(root, `${name}.writing`);
      await datedFolder(mutex, offset);
      // Runs that find it stale together: never two inside at once.
      const { work, most } = counted();
      await Promise.all(Array.from({ length: 6 }, () => withWriteMutex(mutex, work)));
      expect(most()).toBe(1);
      expect(existsSync(mutex)).toBe(false);
      expect(existsSync(`${mutex}.takeover`)).toBe(false);
    }
  });

  it('writes without it, at once, where it cannot be made or taken over: never a wait without end (second read SR93B-1)', async () => {
    const root = await makeDir({ 'a-file': 'x' });
    expect(await withWriteMutex(join(root, 'no-folder', 'f.writing'), async () => 1)).toBe(1);
    expect(await withWriteMutex(join(root, 'a-file', 'f.writing'), async () => 2)).toBe(2);
    expect(existsSync(join(root, 'no-folder'))).toBe(false);
    // A stale one that cannot be removed (here it holds a file, as another user's folder would refuse).
    const stuck = join(root, 'stuck.writing');
    await datedFolder(stuck, -60_000);
    await writeFile(join(stuck, 'x'), '');
    await utimes(stuck, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
    expect(await withWriteMutex(stuck, async () => 3)).toBe(3);
    expect(existsSync(join(stuck, 'x'))).toBe(true);
  });

  it('keeps a holder that works longer than the stale time: touched while held, never taken over (third read SR93C-1)', async () => {
    const mutex = join(await makeDir({}), 'f.writing');
    let inside = 0;
    let most = 0;
    const slow = (ms: number) => async (): Promise<void> => {
      inside++;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, ms));
      inside--;
    };
    const first = withWriteMutex(mutex, slow(1200), { staleMs: 400 });
    await new Promise((r) => setTimeout(r, 50));
    await Promise.all([first, withWriteMutex(mutex, slow(1), { staleMs: 400 })]);
    expect(most).toBe(1);
  });

  it('gives back only its own folder: one another run made after a takeover stays (third read SR93C-1)', async () => {
    const mutex = join(await makeDir({}), 'f.writing');
    await withWriteMutex(mutex, async () => {
      // Taken over meanwhile: removed, and made again by another run.
      await rmdir(mutex);
      await new Promise((r) => setTimeout(r, 5));
      await mkdir(mutex);
    });
    expect(existsSync(mutex)).toBe(true);
  });

});

describe('withWriteMutexSync', () => {
  it('does not wait for one this process holds: its own write cannot end while this one waits (third read SR93C-2)', async () => {
    const mutex = join(await makeDir({}), 'f.writing');
    const pauses = vi.spyOn(Atomics, 'wait');
    try {
      await withWriteMutex(mutex, async () => withWriteMutexSync(mutex, () => undefined));
      expect(pauses).not.toHaveBeenCalled();
    } finally {
      pauses.mockRestore();
    }
    expect(existsSync(mutex)).toBe(false);
  });

  it('holds it while it writes, and waits only briefly for another run before writing anyway', async () => {
    const mutex = join(await makeDir({}), 'f.writing');
    expect(withWriteMutexSync(mutex, () => existsSync(mutex))).toBe(true);
    expect(existsSync(mutex)).toBe(false);
    await mkdir(mutex);
    expect(withWriteMutexSync(mutex, () => 'written')).toBe('written');
    // Another's: left as it was.
    expect(existsSync(mutex)).toBe(true);
  });
});
