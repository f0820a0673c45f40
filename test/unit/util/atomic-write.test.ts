import { existsSync } from 'node:fs';
import { chmod, chown, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ownerToKeep, writeDestination, writeFileAtomic, writeFileAtomicSync } from '../../../src/util/atomic-write.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterEach(removeMadeDirs);

describe('writeFileAtomic', () => {
  it('writes a file whose temporary folder is another file system (.docket a mount): beside the file, not EXDEV on every run (probe KX-1)', async () => {
    const dir = await makeDir({});
    // /dev/shm is a tmpfs where there is one: another file system than the temporary folder's.
    const elsewhere = existsSync('/dev/shm') ? await mkdtemp(join('/dev/shm', 'docket-kx1-')) : await makeDir({});
    try {
      const file = join(dir, 'docket.lock.json');
      await writeFileAtomic(file, 'one\n', { tempDir: elsewhere });
      writeFileAtomicSync(file, 'two\n', { tempDir: elsewhere });
      expect(await readFile(file, 'utf8')).toBe('two\n');
      expect(await readdir(elsewhere)).toEqual([]);
      expect((await readdir(dir)).sort()).toEqual(['docket.lock.json']);
    } finally {
      await rm(elsewhere, { recursive: true, force: true });
    }
  });

  it('tells whileWriting its temporary file while it exists (so a signal can remove it), and releases it after', async () => {
    const dir = await makeDir({});
    const file = join(dir, 'plan.json');
    const told: string[] = [];
    let released = 0;
    await writeFileAtomic(file, ['{', '}'], {
      whileWriting: (tmp) => {
        told.push(tmp);
        return () => void released++;
      },
    });
    expect(told).toHaveLength(1);
    expect(told[0]).toMatch(/\.plan\.json\.\d+\.\w+\.tmp$/);
    expect(existsSync(told[0]!)).toBe(false);
    expect(released).toBe(1);
    expect(await readdir(dir)).toEqual(['plan.json']);
  });

  it('writes a file whose name is as long as a file system allows: its temporary name holds a digest of it (probe JN-1)', async () => {
    const dir = await makeDir({});
    const file = join(dir, `${'a'.repeat(250)}.yaml`);
    await writeFileAtomic(file, ['kind: Playbook\n']);
    expect(await readFile(file, 'utf8')).toBe('kind: Playbook\n');
    expect(await readdir(dir)).toEqual([`${'a'.repeat(250)}.yaml`]);
  });

  it('keeps the owner of the file it replaces when run as root, whom a later step as that user must find writable (probe JT-7)', async () => {
    expect(ownerToKeep({ uid: 1000, gid: 1000 }, 0)).toEqual({ uid: 1000, gid: 1000 });
    expect(ownerToKeep({ uid: 0, gid: 50 }, 0)).toEqual({ uid: 0, gid: 50 });
    // Root's own file, a new file, or any other user (who writes as the owner, and may not give it away): nothing to do.
    expect([ownerToKeep({ uid: 0, gid: 0 }, 0), ownerToKeep(undefined, 0), ownerToKeep({ uid: 1000, gid: 1000 }, 1000)]).toEqual([undefined, undefined, undefined]);
    if (process.getuid?.() !== 0) return;
    const dir = await makeDir({ 'p.yaml': 'before\n' });
    await chown(join(dir, 'p.yaml'), 65534, 65534);
    await writeFileAtomic(join(dir, 'p.yaml'), 'after\n');
    const now = await stat(join(dir, 'p.yaml'));
    expect([now.uid, now.gid, await readFile(join(dir, 'p.yaml'), 'utf8')]).toEqual([65534, 65534, 'after\n']);
  });

  it('keeps the mode, and run as root the owner, on the synchronous write a forced exit makes too (third read TR71-4)', async () => {
    const dir = await makeDir({ 'docket.lock.json': '{}\n' });
    const file = join(dir, 'docket.lock.json');
    await chmod(file, 0o600);
    if (process.getuid?.() === 0) await chown(file, 65534, 65534);
    writeFileAtomicSync(file, '{"version":2}\n');
    const now = await stat(file);
    expect([now.mode & 0o777, await readFile(file, 'utf8')]).toEqual([0o600, '{"version":2}\n']);
    if (process.getuid?.() === 0) expect([now.uid, now.gid]).toEqual([65534, 65534]);
  });

  it('releases the temporary file when the write fails too', async () => {
    // A folder where the file goes: the rename fails after the temporary file was written.
    const dir = await makeDir({ 'plan.json/inside': 'x' });
    let released = 0;
    await expect(writeFileAtomic(join(dir, 'plan.json'), 'x', { whileWriting: () => () => void released++ })).rejects.toThrow();
    expect(released).toBe(1);
    expect(await readdir(dir)).toEqual(['plan.json']);
  });

  it('writes the file a symbolic link names, keeping the link (a lock file two checkouts share)', async () => {
    const dir = await makeDir({ 'shared/docket.lock.json': '{}\n' });
    await mkdir(join(dir, 'a', '.docket'), { recursive: true });
    await symlink('../shared/docket.lock.json', join(dir, 'a', 'docket.lock.json'));
    await writeFileAtomic(join(dir, 'a', 'docket.lock.json'), '{"version":2}\n', { tempDir: join(dir, 'a', '.docket') });
    expect((await lstat(join(dir, 'a', 'docket.lock.json'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'shared', 'docket.lock.json'), 'utf8')).toBe('{"version":2}\n');
    writeFileAtomicSync(join(dir, 'a', 'docket.lock.json'), '{"version":3}\n', { tempDir: join(dir, 'a', '.docket') });
    expect((await lstat(join(dir, 'a', 'docket.lock.json'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'shared', 'docket.lock.json'), 'utf8')).toBe('{"version":3}\n');
    // A link to a file not made yet makes it.
    await symlink('../shared/new.json', join(dir, 'a', 'new.json'));
    await writeFileAtomic(join(dir, 'a', 'new.json'), 'x');
    expect(await readFile(join(dir, 'shared', 'new.json'), 'utf8')).toBe('x');
    // Reached through a linked folder, `..` is the link target's parent, as the system reads it.
    await mkdir(join(dir, 'elsewhere', 'co'), { recursive: true });
    await mkdir(join(dir, 'elsewhere', 'shared'));
    await writeFile(join(dir, 'elsewhere', 'shared', 'lock.json'), '{}');
    await symlink('../shared/lock.json', join(dir, 'elsewhere', 'co', 'lock.json'));
    await symlink(join(dir, 'elsewhere', 'co'), join(dir, 'co'));
    await writeFileAtomic(join(dir, 'co', 'lock.json'), 'through');
    expect(await readFile(join(dir, 'elsewhere', 'shared', 'lock.json'), 'utf8')).toBe('through');
    // A loop of links is an error, not a link replaced.
    await symlink('loop-b', join(dir, 'loop-a'));
    await symlink('loop-a', join(dir, 'loop-b'));
    await expect(writeFileAtomic(join(dir, 'loop-a'), 'x')).rejects.toMatchObject({ code: 'ELOOP' });
    expect((await lstat(join(dir, 'loop-a'))).isSymbolicLink()).toBe(true);
  });

  it('follows a chain of links to nothing to its end, keeping every link, where writeDestination said it would land', async () => {
    const dir = await makeDir({ 'a/keep': '' });
    await mkdir(join(dir, 'b'));
    // a/lock.json -> ../b/middle.json -> ../c/end.json (c not made yet)
    await symlink('../b/middle.json', join(dir, 'a', 'lock.json'));
    await symlink('../c/end.json', join(dir, 'b', 'middle.json'));
    expect(writeDestination(join(dir, 'a', 'lock.json'))).toBe(join(await realpath(dir), 'c', 'end.json'));
    await writeFileAtomic(join(dir, 'a', 'lock.json'), 'one');
    expect((await lstat(join(dir, 'b', 'middle.json'))).isSymbolicLink()).toBe(true);
    expect(await readFile(join(dir, 'c', 'end.json'), 'utf8')).toBe('one');
    expect(await readFile(join(dir, 'a', 'lock.json'), 'utf8')).toBe('one');
    // A link to nothing reached through a linked folder: `..` is the folder's real parent.
    await mkdir(join(dir, 'real', 'co'), { recursive: true });
    await symlink('../shared/new.json', join(dir, 'real', 'co', 'new.json'));
    await symlink(join(dir, 'real', 'co'), join(dir, 'co'));
    expect(writeDestination(join(dir, 'co', 'new.json'))).toBe(join(await realpath(dir), 'real', 'shared', 'new.json'));
    writeFileAtomicSync(join(dir, 'co', 'new.json'), 'two');
    expect(await readFile(join(dir, 'real', 'shared', 'new.json'), 'utf8')).toBe('two');
    expect(existsSync(join(dir, 'shared'))).toBe(false);
  });

  it('reads `..` in a link to nothing after a folder that is a link as the system does: from where that link leads', async () => {
    const dir = await makeDir({ 'elsewhere/deep/keep': '', 'cfg/keep': '' });
    await symlink('../elsewhere/deep', join(dir, 'cfg', 'sub'));
    await symlink('sub/../new.json', join(dir, 'cfg', 'a.json'));
    expect(writeDestination(join(dir, 'cfg', 'a.json'))).toBe(join(await realpath(dir), 'elsewhere', 'new.json'));
    await writeFileAtomic(join(dir, 'cfg', 'a.json'), 'x');
    expect(await readFile(join(dir, 'elsewhere', 'new.json'), 'utf8')).toBe('x');
    expect(await readFile(join(dir, 'cfg', 'a.json'), 'utf8')).toBe('x');
  });
});
