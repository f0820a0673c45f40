import { mkdir, stat, utimes } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { holdingGuard } from '../../../src/util/guard-folder.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

const options = { waitMs: 2_000, staleMs: 60_000, busy: () => new Error('busy') };

describe('holdingGuard', () => {
  it('runs one holder at a time, and gives the guard back after each, a failed one too', async () => {
    const guard = join(await makeDir({}), '.docket', 'capture.lock');
    const order: string[] = [];
    const held = (name: string) => holdingGuard(guard, async () => {
      order.push(`${name} in`);
      await new Promise((resolve) => setTimeout(resolve, 30));
      order.push(`${name} out`);
      return name;
    }, options);
    expect(await Promise.all([held('a'), held('b'), held('c')])).toEqual(['a', 'b', 'c']);
    // Never two inside at once.
    for (let i = 0; i < order.length; i += 2) expect(order[i + 1]).toBe(order[i]!.replace(' in', ' out'));
    await expect(holdingGuard(guard, () => Promise.reject(new Error('write failed')), options)).rejects.toThrow('write failed');
    await expect(stat(guard)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('says another holds it past the wait, and takes over one left behind by a killed process', async () => {
    const guard = join(await makeDir({}), 'capture.lock');
    await mkdir(guard);
    await expect(holdingGuard(guard, async () => 'ran', { ...options, waitMs: 100 })).rejects.toThrow('busy');
    const old = new Date(Date.now() - 120_000);
    await utimes(guard, old, old);
    expect(await holdingGuard(guard, async () => 'ran', { ...options, waitMs: 100 })).toBe('ran');
    // Two waiters at a stale guard: one takes it over, and they still run one at a time (second read SR106-4).
    await mkdir(guard);
    await utimes(guard, old, old);
    let inside = 0;
    let most = 0;
    const held = () => holdingGuard(guard, async () => {
      most = Math.max(most, ++inside);
      await new Promise((resolve) => setTimeout(resolve, 40));
      inside--;
    }, options);
    await Promise.all([held(), held(), held()]);
    expect(most).toBe(1);
    await expect(stat(`${guard}.takeover`)).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('gives the guard back when the process exits while it holds it (a second Ctrl-C)', async () => {
    const guard = join(await makeDir({}), 'capture.lock');
    let atExit: (() => void) | undefined;
    await holdingGuard(guard, async () => {
      atExit!();
      await expect(stat(guard)).rejects.toMatchObject({ code: 'ENOENT' });
    }, { ...options, onExit: (cleanup) => ((atExit = cleanup), () => (atExit = undefined)) });
    expect(atExit).toBeUndefined();
  });
});
