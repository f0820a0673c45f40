import { mkdir, readdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkOut, writeExport } from '../../../src/export/write.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

/** What checkOut says of `--out`: where export may write, or the usage error it refuses with. */
const said = (out: string): Promise<string> => checkOut(out, 'OUT').catch((error: unknown) => `${(error as Error).name}: ${(error as Error).message}`);

describe('export --out', () => {
  it('may be a path that does not exist, or an empty folder', async () => {
    const dir = await makeDir({});
    await mkdir(join(dir, 'empty'));
    expect(await said(join(dir, 'new'))).toBe('missing');
    expect(await said(join(dir, 'empty'))).toBe('empty');
  });

  it('is refused as a usage error, not a crash after every object was read, when it is a link or lies below a file', async () => {
    // A dangling link passed as "missing", and the final rename then failed with ENOTDIR.
    const dir = await makeDir({});
    await mkdir(join(dir, 'empty'));
    await symlink(join(dir, 'gone'), join(dir, 'dangling'));
    await symlink(join(dir, 'empty'), join(dir, 'linked'));
    await writeFile(join(dir, 'file'), 'x');
    expect(await said(join(dir, 'dangling'))).toBe('UsageError: --out OUT is a symbolic link');
    expect(await said(join(dir, 'linked'))).toBe('UsageError: --out OUT is a symbolic link');
    expect(await said(join(dir, 'file', 'below'))).toBe('UsageError: --out OUT cannot be used: a folder on its path is a file');
  });
});

describe('writeExport', () => {
  it('makes the directory with the mode mkdir gives (not the 0700 of its staging directory)', async () => {
    const dir = await makeDir({});
    await mkdir(join(dir, 'plain'));
    await writeExport(join(dir, 'out'), 'out', [{ path: 'docket.yaml', content: 'version: 1\n' }], undefined);
    expect((await stat(join(dir, 'out'))).mode & 0o777).toBe((await stat(join(dir, 'plain'))).mode & 0o777);
  });

  it('says a write the file system refuses (a full disk) as an error of the export, not a bug, and leaves nothing (probe JT-5)', async () => {
    const dir = await makeDir({});
    // `a` written as a file, then needed as a folder: the file system refuses, as a full disk would.
    const files = [{ path: 'a', content: 'x' }, { path: 'a/b.yaml', content: 'y' }];
    const error = (await writeExport(join(dir, 'out'), 'out', files, undefined).catch((e: unknown) => e)) as Error & { code?: string; hint?: string };
    expect(error.name).toBe('DocketError');
    expect(error.message).toMatch(/^cannot write the export to out \((EEXIST|ENOTDIR)\); nothing was written$/);
    expect(error.hint).toMatch(/, then run the command again$/);
    expect(await readdir(dir)).toEqual([]);
  });

  it('removes the staging directory a killed export to the same --out left, and no other', async () => {
    const dir = await makeDir({});
    // 2^22 + 1 is past Linux's largest process id: no process has it.
    await mkdir(join(dir, '.out.export-4194305-AbCdEf', 'playbooks'), { recursive: true });
    await mkdir(join(dir, `.out.export-${process.ppid}-XyZabc`));
    await mkdir(join(dir, '.other.export-4194305-AbCdEf'));
    // The staging directory of an export to `out.export-2026-11`, not a killed one of process 2026.
    await mkdir(join(dir, '.out.export-2026-11.export-4194305-GhIjKl'));
    await writeExport(join(dir, 'out'), 'out', [{ path: 'docket.yaml', content: 'version: 1\n' }], undefined);
    expect((await readdir(dir)).sort()).toEqual(['.other.export-4194305-AbCdEf', '.out.export-2026-11.export-4194305-GhIjKl', `.out.export-${process.ppid}-XyZabc`, 'out'].sort());
  });
});
