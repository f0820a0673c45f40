import { existsSync, readdirSync, readFileSync, realpathSync } from 'node:fs';
import { mkdir, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireApplyLock, applyLockPath, applyLockRoot, PULL, refuseLockMovedAway, releaseApplyLockSync, takeApplyLock, takeOverStale, unusableHint, type ApplyLockHolder } from '../../../src/cli/apply-lock.js';
import type { Interrupts } from '../../../src/cli/interrupt.js';
import type { Io } from '../../../src/cli/io.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

describe('the apply lock', () => {
  it('refuses a run that took its lock at home while its docket.lock.json linked to nothing, once another checkout made the file (probe WC-1)', async () => {
    const shared = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const checkout = await makeDir({ 'docket.yaml': 'version: 1\n' });
    await symlink(join(shared, 'docket.lock.json'), join(checkout, 'docket.lock.json'));
    // Linked to nothing yet: the lock goes beside the configuration, and nothing is made where the link leads.
    const heldAt = applyLockRoot(checkout);
    expect(heldAt).toBe(checkout);
    expect(() => refuseLockMovedAway(checkout, heldAt)).not.toThrow();
    // The other checkout's apply made the file: this run holds the wrong lock, and stops before it changes anything.
    await writeFile(join(shared, 'docket.lock.json'), '{"version":1,"files":{}}\n');
    expect(applyLockRoot(checkout)).toBe(realpathSync(shared));
    expect(() => refuseLockMovedAway(checkout, heldAt)).toThrow(expect.objectContaining({ code: 'apply-locked', message: expect.stringContaining(`take turns through ${applyLockPath(realpathSync(shared))}`) }));
    expect(() => refuseLockMovedAway(checkout, heldAt, PULL)).toThrow(expect.objectContaining({ hint: 'run pull again (with --lock-timeout 5m to wait for the other run); nothing was changed' }));
    // Taken there from the start: nothing to refuse.
    expect(() => refuseLockMovedAway(checkout, applyLockRoot(checkout))).not.toThrow();
  });

  it('keeps its exit cleanup until the lock is removed: a signal while it is released leaves no lock (probe ET)', async () => {
    const root = await makeDir({});
    const cleanups = new Set<() => void>();
    const interrupts: Interrupts = {
      signal: new AbortController().signal,
      received: () => undefined,
      onExit: (fn) => (cleanups.add(fn), () => void cleanups.delete(fn)),
      hold: () => () => undefined,
    };
    const io = { stdout: () => undefined, stderr: () => undefined, isTTY: false, stderrTTY: false, canPrompt: false, prompt: async () => '', env: {}, cwd: root, interrupts } satisfies Io;
    const release = await takeApplyLock(io, { root, timeoutMs: 0 });
    const releasing = release();
    // A signal arrives while the lock file is being removed: its exit runs the cleanup.
    expect(cleanups.size).toBe(1);
    for (const cleanup of cleanups) cleanup();
    await releasing;
    expect([existsSync(applyLockPath(root)), cleanups.size]).toEqual([false, 0]);
  });

  it("takes over a lock naming this process's pid with no start recorded while it holds no lock: another process had the pid before (probe YD-3)", async () => {
    const root = await makeDir({});
    const ownPid = () => writeFile(applyLockPath(root), JSON.stringify({ pid: process.pid, host: hostname(), started: '2026-12-07T03:00:00.000Z' }));
    await mkdir(dirname(applyLockPath(root)), { recursive: true });
    await ownPid();
    const lock = await acquireApplyLock({ root, timeoutMs: 0 });
    expect(JSON.parse(readFileSync(applyLockPath(root), 'utf8'))).toMatchObject({ pid: process.pid, started: expect.not.stringMatching(/^2026-12-07T03:00/) });
    await lock.release();
    // Holding a lock of another checkout, the process may be that one's holder too (runs sharing a process): waited for.
    const other = await acquireApplyLock({ root: await makeDir({}), timeoutMs: 0 });
    try {
      await mkdir(dirname(applyLockPath(root)), { recursive: true });
      await ownPid();
      await expect(acquireApplyLock({ root, timeoutMs: 0 })).rejects.toMatchObject({ code: 'apply-locked' });
    } finally {
      await other.release();
    }
  });

  it('taken by a pull, says so in the lock, so an apply beside it names a pull', async () => {
    const root = await makeDir({});
    const held = await acquireApplyLock({ root, timeoutMs: 0, takenBy: PULL });
    expect(JSON.parse(readFileSync(applyLockPath(root), 'utf8'))).toMatchObject({ pid: process.pid, command: 'pull' });
    await held.release();
    expect(existsSync(applyLockPath(root))).toBe(false);
  });

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
    expect(seen.filter((text) => !/^\{"pid":\d+,"host":".*","started":"[^"]*"(,"start_ticks":\d+)?\}\n$/.test(text))).toEqual([]);
  });

  it('is taken over from a dead holder only while it is still that holder\'s (two racing applies both went on)', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const path = applyLockPath(root);
    const dead: ApplyLockHolder = { pid: 2 ** 22 + 7, host: hostname(), started: '2026-01-01T00:00:00.000Z' };
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(dead));
    // One apply takes it over; another, which found the same dead holder a moment before, comes to remove it late.
    const first = await acquireApplyLock({ root, timeoutMs: 0 });
    const held = readFileSync(path, 'utf8');
    expect(await takeOverStale(path, dead)).toBe(true);
    expect(readFileSync(path, 'utf8')).toBe(held);
    await first.release();
    // Released, the lock took its folder, left empty, with it.
    expect(existsSync(dirname(path))).toBe(false);
    // Still the dead holder's: removed.
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, JSON.stringify(dead));
    expect(await takeOverStale(path, dead)).toBe(true);
    expect([existsSync(path), existsSync(`${path}.takeover`)]).toEqual([false, false]);
    // Taken over, released and its folder removed by another run before this one's takeover began:
    // the lock is free, to be looked at again, not unusable (probe TA-1).
    await rm(dirname(path), { recursive: true, force: true });
    expect(await takeOverStale(path, dead)).toBe(true);
    expect(existsSync(dirname(path))).toBe(false);
  });

  it('is taken over when what was left is dated in the future (a clock stepped back), and cleans up after killed takers', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const path = applyLockPath(root);
    await mkdir(dirname(path), { recursive: true });
    const future = new Date(Date.now() + 3_600_000);
    // An empty lock, a takeover folder and another process's own copy, all left by killed applies.
    await writeFile(path, '');
    await mkdir(`${path}.takeover`);
    await writeFile(`${path}.${2 ** 22 + 9}`, 'left\n');
    for (const p of [path, `${path}.takeover`]) await utimes(p, future, future);
    const lock = await acquireApplyLock({ root, timeoutMs: 0 });
    expect(readdirSync(dirname(path)).sort()).toEqual(['apply.lock']);
    await lock.release();
  });

  it('says another apply is taking a stale lock over when its takeover folder is there, not that the dead holder holds it', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const path = applyLockPath(root);
    await mkdir(`${path}.takeover`, { recursive: true });
    await writeFile(path, JSON.stringify({ pid: 2 ** 22 + 11, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
    await expect(acquireApplyLock({ root, timeoutMs: 0 })).rejects.toThrow(`another docket run is taking over ${path}, left by a process that no longer runs`);
  });

  it('is removed on exit with what taking it left, and only when it is this process\'s', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const path = applyLockPath(root);
    await acquireApplyLock({ root, timeoutMs: 0 });
    await writeFile(`${path}.${process.pid}`, 'left while taking it\n');
    releaseApplyLockSync(root);
    expect([existsSync(path), existsSync(`${path}.${process.pid}`)]).toEqual([false, false]);
    // Its folder too, left empty (a second signal's exit, probe EK); one holding records stays.
    expect(existsSync(join(root, '.docket'))).toBe(false);
    await acquireApplyLock({ root, timeoutMs: 0 });
    await writeFile(join(root, '.docket', 'emulator.json'), '{}');
    releaseApplyLockSync(root);
    expect([existsSync(path), existsSync(join(root, '.docket', 'emulator.json'))]).toEqual([false, true]);

    const other = JSON.stringify({ pid: process.pid + 1, host: 'elsewhere', started: new Date().toISOString() });
    await writeFile(path, other);
    releaseApplyLockSync(root);
    expect(readFileSync(path, 'utf8')).toBe(other);
    expect(existsSync(join(root, '.docket'))).toBe(true);
    // Stopped after making the folder, before the lock was taken: the empty folder goes (probe IL-2).
    await rm(path);
    await rm(join(root, '.docket', 'emulator.json'));
    releaseApplyLockSync(root);
    expect(existsSync(join(root, '.docket'))).toBe(false);
  });

  it('says what to do by what stopped it: a file in the way, permissions, a full disk (not a file to move when there is none)', () => {
    const hints = ['in-the-way', 'EACCES', 'EPERM', 'EROFS', 'ENOSPC', 'EDQUOT', 'EIO'].map((cause) => unusableHint('/w/.docket', cause));
    expect(hints.filter((h) => h.includes('move the file that is in its way'))).toEqual([hints[0]]);
    expect(hints.slice(1, 4).every((h) => h.endsWith('let the user that runs docket write there (its permissions, or a read-only file system)'))).toBe(true);
    expect(hints.slice(4, 6).every((h) => h.endsWith('free some space on its disk (or quota), then run the command again'))).toBe(true);
    expect(hints[6]).toBe('docket keeps its apply lock in /w/.docket: make it a folder docket can write to (move anything in its way)');
  });
});
