import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { inWriteOrder, writePulled } from '../../../src/cli/pull-write.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { FileWriteError } from '../../../src/util/file-write-error.js';

afterAll(removeMadeDirs);

describe('writePulled', () => {
  it('writes nothing, not even a new file or the records, when a file is no longer the text pull read', async () => {
    const dir = await makeDir({ 'a.yaml': 'saved since\n', 'b.yaml': 'as read\n', 'd.yaml': 'saved since\n' });
    let recorded = false;
    const changes = [
      { path: 'b.yaml', before: 'as read\n', after: 'pulled\n' },
      { path: 'a.yaml', before: 'as read\n', after: 'pulled\n' },
      { path: 'c.yaml', before: null, after: 'new\n' },
      { path: 'd.yaml', before: 'as read\n', after: 'pulled\n' },
    ];
    // Every file saved since is named (probe HL-5), not the first alone.
    await expect(writePulled(dir, changes, { file: join(dir, 'docket.lock.json'), write: async () => void (recorded = true) })).rejects.toMatchObject({ code: 'pull-files-changed', message: 'a.yaml, d.yaml changed while pull ran: nothing was written' });
    expect([readFileSync(join(dir, 'a.yaml'), 'utf8'), readFileSync(join(dir, 'b.yaml'), 'utf8'), existsSync(join(dir, 'c.yaml')), recorded]).toEqual(['saved since\n', 'as read\n', false, false]);
  });

  it('keeps a file an editor saved while the files before it were written, writes none after it, and says which were written (probe HL-1)', async () => {
    const dir = await makeDir({ 'a.yaml': 'as read\n', 'b.yaml': 'as read\n', 'c.yaml': 'as read\n' });
    let recorded = false;
    const changes = ['a.yaml', 'b.yaml', 'c.yaml'].map((path) => ({ path, before: 'as read\n', after: 'pulled\n' }));
    // Saved once a.yaml is written: after pull looked at every file, before it wrote b.yaml.
    const editorSaves = (root: string) => (written: string) => {
      if (written === 'a.yaml') writeFileSync(join(root, 'b.yaml'), 'saved by the editor\n');
    };
    await expect(writePulled(dir, changes, { file: join(dir, 'docket.lock.json'), write: async () => void (recorded = true) }, editorSaves(dir))).rejects.toMatchObject({
      code: 'pull-files-changed',
      message: 'b.yaml changed while pull wrote the files: it was not written, nor the files after it; written before it: a.yaml',
    });
    expect(['a.yaml', 'b.yaml', 'c.yaml'].map((f) => readFileSync(join(dir, f), 'utf8'))).toEqual(['pulled\n', 'saved by the editor\n', 'as read\n']);
    expect(recorded).toBe(false);
    // A file removed by the pull is looked at the same way.
    const gone = await makeDir({ 'a.yaml': 'as read\n', 'b.yaml': 'as read\n' });
    const removing = [{ path: 'a.yaml', before: 'as read\n', after: 'pulled\n' }, { path: 'b.yaml', before: 'as read\n', after: null }];
    await expect(writePulled(gone, removing, { file: join(gone, 'docket.lock.json'), write: async () => undefined }, editorSaves(gone))).rejects.toMatchObject({ code: 'pull-files-changed' });
    expect(readFileSync(join(gone, 'b.yaml'), 'utf8')).toBe('saved by the editor\n');
    expect(existsSync(join(gone, '.docket')) ? readdirSync(join(gone, '.docket')) : []).toEqual([]);
  });

  it('removes the new files it made when a later write fails: a new object\'s data file left would make the next pull name its document -2 (probe MU-1)', async () => {
    const dir = await makeDir({ 'a.yaml': 'as read\n' });
    const changes = [
      { path: 'a.yaml', before: 'as read\n', after: 'pulled\n' },
      { path: 'terms/live.md', before: null, after: 'body\n' },
      { path: 'terms/live.yaml', before: null, after: 'kind: CustomTerm\n' },
    ];
    // Something takes the document's place once the data file is written (a full disk, as the probe had it).
    const inTheWay = (written: string): void => {
      if (written === 'terms/live.md') mkdirSync(join(dir, 'terms/live.yaml'));
    };
    const error = (await writePulled(dir, changes, { file: join(dir, 'docket.lock.json'), write: async () => undefined }, inTheWay).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('pull-cannot-write');
    expect(error.message).toMatch(/^cannot write terms\/live\.yaml \(E[A-Z]+\); written before it: a\.yaml; the new file it had made was removed again: terms\/live\.md$/);
    expect(existsSync(join(dir, 'terms/live.md'))).toBe(false);
    expect(readFileSync(join(dir, 'a.yaml'), 'utf8')).toBe('pulled\n');
  });

  it('says a folder on the way that is a link to nothing is no folder to write into, not to make it writable (probe MU-7)', async () => {
    const dir = await makeDir({ 'a.yaml': 'as read\n' });
    symlinkSync(join(dir, 'nowhere'), join(dir, 'terms'));
    const error = (await writePulled(dir, [{ path: 'terms/t.yaml', before: null, after: 'new\n' }], { file: join(dir, 'docket.lock.json'), write: async () => undefined }).catch((e: unknown) => e)) as Error & { code: string; hint: string };
    expect(error.code).toBe('pull-cannot-write');
    expect(error.hint).toBe('a folder on their paths is no folder docket can write into (a file, or a link to nothing): make it one, or see the changes with --dry-run and make them by hand');
  });

  it('says which files it wrote when the records then cannot be written (a disk that filled meanwhile): the job that commits them must know (probe JT-4)', async () => {
    const dir = await makeDir({ 'a.yaml': 'as read\n' });
    const full = new FileWriteError('docket.lock.json', Object.assign(new Error('no space left on device'), { code: 'ENOSPC', syscall: 'write' }));
    const changes = [{ path: 'a.yaml', before: 'as read\n', after: 'pulled\n' }, { path: 'b.yaml', before: null, after: 'new\n' }];
    await expect(writePulled(dir, changes, { file: join(dir, 'docket.lock.json'), write: async () => Promise.reject(full) })).rejects.toMatchObject({
      code: 'pull-cannot-write',
      message: 'the pulled files were written (a.yaml, b.yaml), but docket.lock.json could not be written (ENOSPC)',
      hint: 'free some space, then run the command again',
    });
    expect(readFileSync(join(dir, 'a.yaml'), 'utf8')).toBe('pulled\n');
    // Thousands written are named as the report names them: the first ten (second read SR71-6).
    const many = Array.from({ length: 50 }, (_, i) => ({ path: `t${i}.yaml`, before: null, after: 'x\n' }));
    const manyDir = await makeDir({});
    const said = (await writePulled(manyDir, many, { file: join(manyDir, 'docket.lock.json'), write: async () => Promise.reject(full) }).catch((e: unknown) => e)) as Error;
    expect(said.message).toBe('the pulled files were written (t0.yaml, t1.yaml, t2.yaml, t3.yaml, t4.yaml, t5.yaml, t6.yaml, t7.yaml, t8.yaml, t9.yaml and 40 more: git status lists them), but docket.lock.json could not be written (ENOSPC)');
    // With nothing pulled, the records' own error is all there is.
    await expect(writePulled(dir, [], { file: join(dir, 'docket.lock.json'), write: async () => Promise.reject(full) })).rejects.toBe(full);
  });

  it('writes no new file through a folder link out of the directory or into a dot-folder, where validate would not read it (probe JT-2)', async () => {
    const outside = await makeDir({});
    const dir = await makeDir({ 'a.yaml': 'as read\n', '.scratch/keep': '' });
    symlinkSync(outside, join(dir, 'playbooks'));
    symlinkSync(join(dir, '.scratch'), join(dir, 'templates'));
    const changes = [
      { path: 'a.yaml', before: 'as read\n', after: 'pulled\n' },
      { path: 'playbooks/side-letters.yaml', before: null, after: 'new\n' },
      { path: 'templates/t.yaml', before: null, after: 'new\n' },
    ];
    const error = (await writePulled(dir, changes, { file: join(dir, 'docket.lock.json'), write: async () => undefined }).catch((e: unknown) => e)) as Error & { code: string };
    expect(error.code).toBe('pull-cannot-write');
    expect(error.message).toContain('cannot write playbooks/side-letters.yaml (a folder on its path is a link to ');
    expect(error.message).toContain('templates/t.yaml (a folder on its path is a link to ');
    expect(error.message).toMatch(/: nothing was written$/);
    expect([readdirSync(outside), readdirSync(join(dir, '.scratch')), readFileSync(join(dir, 'a.yaml'), 'utf8')]).toEqual([[], ['keep'], 'as read\n']);
  });

  it('writes the test files before the files of what they test, so a run stopped between leaves a rename to follow again', () => {
    const files = ['playbooks/nda.yaml', 'tests/nda.test.yaml', 'custom-terms/t.md', 'tests/b.test.yml'].map((path) => ({ path }));
    expect(inWriteOrder(files).map((f) => f.path)).toEqual(['tests/nda.test.yaml', 'tests/b.test.yml', 'playbooks/nda.yaml', 'custom-terms/t.md']);
  });

  it('removes what an earlier pull stopped mid-write left in .docket', async () => {
    const dir = await makeDir({ 'a.yaml': 'as read\n' });
    mkdirSync(join(dir, '.docket'));
    // A process id no process has (above the kernel's limit).
    const left = join(dir, '.docket', '.a.yaml.4194305.abcd1234.tmp');
    writeFileSync(left, 'half');
    await writePulled(dir, [{ path: 'a.yaml', before: 'as read\n', after: 'pulled\n' }], { file: join(dir, 'docket.lock.json'), write: async () => undefined });
    expect([existsSync(left), readFileSync(join(dir, 'a.yaml'), 'utf8')]).toEqual([false, 'pulled\n']);
  });
});
