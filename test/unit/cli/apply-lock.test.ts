import { existsSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireApplyLock, applyLockPath, releaseApplyLockSync } from '../../../src/cli/apply-lock.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

describe('the apply lock', () => {
  it('is never there empty or half-written while it is taken (a signal then left an empty lock that refused the next apply)', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const path = applyLockPath(root);
    const seen: string[] = [];
    let watching = true;
    const watch = (): void => {
      if (!watching) return;
      try {
        seen.push(readFileSync(path, 'utf8'));
      } catch {
        // Not there: nothing to see.
      }
      setImmediate(watch);
    };
    watch();
    for (let i = 0; i < 100; i++) {
      const lock = await acquireApplyLock({ root, timeoutMs: 0 });
      await lock.release();
    }
    watching = false;
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.filter((text) => !/^\{"pid":\d+,"host":".*","started":".*"\}\n$/.test(text))).toEqual([]);
  });

  it('is removed on exit with what taking it left, and only when it is this process\'s', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const path = applyLockPath(root);
    await acquireApplyLock({ root, timeoutMs: 0 });
    await writeFile(`${path}.${process.pid}`, 'left while taking it\n');
    releaseApplyLockSync(root);
    expect([existsSync(path), existsSync(`${path}.${process.pid}`)]).toEqual([false, false]);

    const other = JSON.stringify({ pid: process.pid + 1, host: 'elsewhere', started: new Date().toISOString() });
    await writeFile(path, other);
    releaseApplyLockSync(root);
    expect(readFileSync(path, 'utf8')).toBe(other);
    expect(existsSync(join(root, '.docket'))).toBe(true);
  });
});
