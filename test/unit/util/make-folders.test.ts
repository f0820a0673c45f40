import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeFolders, makeFoldersSync } from '../../../src/util/make-folders.js';
import { writeFileAtomic, writeFileAtomicSync } from '../../../src/util/atomic-write.js';

describe('makeFolders', () => {
  it('makes a folder and the missing ones above it, and takes one that exists', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docket-folders-'));
    try {
      await makeFolders(join(dir, 'a', 'b', 'c'));
      makeFoldersSync(join(dir, 'a', 'x', 'y'));
      await makeFolders(join(dir, 'a', 'b', 'c'));
      expect([existsSync(join(dir, 'a', 'b', 'c')), existsSync(join(dir, 'a', 'x', 'y'))]).toEqual([true, true]);
      // A file in the way is said as recursive mkdir says it, which the messages of callers read.
      await writeFile(join(dir, 'f'), '');
      await expect(makeFolders(join(dir, 'f'))).rejects.toMatchObject({ code: 'EEXIST', syscall: 'mkdir', path: join(dir, 'f') });
      expect(() => makeFoldersSync(join(dir, 'f', 'x'))).toThrow(expect.objectContaining({ code: 'ENOTDIR', syscall: 'mkdir', path: join(dir, 'f', 'x') }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('fails where a folder cannot be made though its parent exists, not retrying for ever as recursive mkdir does under /proc (probe BL-1)', async () => {
    if (!existsSync('/proc/self')) return;
    await expect(makeFolders('/proc/docket-no-such/sub')).rejects.toMatchObject({ code: expect.any(String) });
    expect(() => makeFoldersSync('/proc/docket-no-such/sub')).toThrow();
    // The writes of --out, --junit and the lock, which made their folders so.
    await expect(writeFileAtomic('/proc/docket-no-such/p.json', '{}')).rejects.toMatchObject({ code: expect.any(String) });
    expect(() => writeFileAtomicSync('/proc/docket-no-such/j.xml', '<x/>')).toThrow();
  });
});
