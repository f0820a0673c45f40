/** The upload records of docket test: each in the lock before its review is asked for, written in batches. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockLocation } from '../../../src/config/lock.js';
import { ContractStore } from '../../../src/testing/contracts.js';
import { UploadCopy } from '../../../src/testing/upload-copy.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

describe('ContractStore', () => {
  it('writes the uploads that end while one is written in the next write, each in the lock once its record resolves (probe EJ)', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    let writes = 0;
    const store = new ContractStore(lockLocation(root, { emulator: false }), () => 'https://r.example org-1', async () => void writes++, UploadCopy.in(root));
    const shas = Array.from({ length: 40 }, (_, i) => `${i}`.padStart(64, '0'));
    await Promise.all(
      shas.map(async (sha, i) => {
        await store.record(sha, `file-${i}`, `tests/fixtures/c${i}.txt`);
        // Resolved: this one is on disk, whatever batch took it.
        expect(await store.idFor(sha)).toBe(`file-${i}`);
      }),
    );
    // Forty records, not forty writes of the whole lock (and of the emulator's state before each).
    expect(writes).toBeLessThanOrEqual(2);
    const lock = JSON.parse(await readFile(join(root, 'docket.lock.json'), 'utf8')) as { targets: Record<string, { files: Record<string, { id: string }> }> };
    expect(Object.keys(Object.values(lock.targets)[0]!.files)).toHaveLength(40);
    expect(await UploadCopy.in(root).idFor('https://r.example org-1', shas[39]!)).toBe('file-39');
    // A later record is written on its own.
    const before = writes;
    await store.record(shas[0]!, undefined, 'tests/fixtures/c0.txt');
    expect([writes, await store.idFor(shas[0]!)]).toEqual([before + 1, undefined]);
  });

  it('keeps the records of two runs that record at once: neither run\'s write drops the other\'s, in the lock or in the copy (probe UA-1)', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const target = (): string => 'https://r.example org-1';
    const runs = ['a', 'b'].map((run) => ({ run, store: new ContractStore(lockLocation(root, { emulator: false }), target, undefined, UploadCopy.in(root)) }));
    const shaOf = (run: string, i: number): string => `${run}${i}`.padStart(64, '0');
    // Each run records its uploads one by one, as its reviews end: a write of the lock each.
    await Promise.all(runs.map(async ({ run, store }) => {
      for (let i = 0; i < 15; i++) await store.record(shaOf(run, i), `${run}-${i}`, `tests/fixtures/${run}${i}.txt`);
    }));
    const fresh = new ContractStore(lockLocation(root, { emulator: false }), target);
    const copy = UploadCopy.in(root);
    for (const { run } of runs) {
      for (let i = 0; i < 15; i++) {
        expect(await fresh.idFor(shaOf(run, i))).toBe(`${run}-${i}`);
        expect(await copy.idFor(target(), shaOf(run, i))).toBe(`${run}-${i}`);
      }
    }
  });

  it('on the in-process emulator keeps the records until flush, and knows them meanwhile: one write of its state for the run', async () => {
    const root = await makeDir({ 'docket.yaml': 'version: 1\n' });
    let writes = 0;
    const store = new ContractStore(lockLocation(root, { emulator: true }), () => 'emulator org-1', async () => void writes++, UploadCopy.in(root), true);
    for (let i = 0; i < 10; i++) await store.record(`${i}`.padStart(64, '0'), `file-${i}`, `tests/fixtures/c${i}.txt`);
    expect([writes, await store.idFor('9'.padStart(64, '0'))]).toEqual([0, 'file-9']);
    await store.flush();
    expect(writes).toBe(1);
    // Read afresh from the lock, as another run would.
    const fresh = new ContractStore(lockLocation(root, { emulator: true }), () => 'emulator org-1');
    expect(await fresh.idFor('3'.padStart(64, '0'))).toBe('file-3');
  });
});
