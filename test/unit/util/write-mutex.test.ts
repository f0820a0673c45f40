import { existsSync } from 'node:fs';
import { mkdir, rmdir, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { withWriteMutex } from '../../../src/util/write-mutex.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

describe('withWriteMutex', () => {
  it('runs one holder at a time, and gives the mutex back after a failure too', async () => {
    const root = await makeDir({});
    const mutex = join(root, 'f.writing');
    let inside = 0;
    let most = 0;
    const work = async (): Promise<void> => {
      inside++;
      most = Math.max(most, inside);
      await new Promise((r) => setTimeout(r, 3));
      inside--;
    };
    await Promise.all(Array.from({ length: 8 }, () => withWriteMutex(mutex, work)));
    expect(most).toBe(1);
    await expect(withWriteMutex(mutex, () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
    expect(existsSync(mutex)).toBe(false);
  });

  it('takes over a mutex left by a killed run once it is older than any write takes, and waits on a fresh one', async () => {
    const root = await makeDir({});
    const mutex = join(root, 'f.writing');
    await mkdir(mutex);
    const old = new Date(Date.now() - 60_000);
    await utimes(mutex, old, old);
    expect(await withWriteMutex(mutex, async () => 'written')).toBe('written');
    expect(existsSync(mutex)).toBe(false);
    // A fresh one is another run's: waited for until it goes.
    await mkdir(mutex);
    let ran = false;
    const waiting = withWriteMutex(mutex, async () => void (ran = true));
    await new Promise((r) => setTimeout(r, 60));
    expect(ran).toBe(false);
    await rmdir(mutex);
    await waiting;
    expect(ran).toBe(true);
  });

  it('runs the work without it where it cannot be made: the work\'s own write says why', async () => {
    const root = await makeDir({ 'a-file': 'x' });
    expect(await withWriteMutex(join(root, 'no-folder', 'f.writing'), async () => 1)).toBe(1);
    expect(await withWriteMutex(join(root, 'a-file', 'f.writing'), async () => 2)).toBe(2);
    expect(existsSync(join(root, 'no-folder'))).toBe(false);
  });
});
