import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { LOCK_FILE, emptyLock, lockLocation, readLock, writeLock, type LockFile } from '../../../src/config/lock.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterEach(removeMadeDirs);

const ATTACHMENT = { id: 'att-1', file: 'attachments/security.pdf', sha256: 'a'.repeat(64), description: 'Our security measures' };
const TERM = { id: 'ct-1', file: 'custom-terms/consulting.docx', sha256: 'b'.repeat(64) };

const lockOf = (files: LockFile['files']): LockFile => ({ version: 1, files });

async function json(path: string): Promise<unknown> {
  return JSON.parse(await readFile(path, 'utf8'));
}

describe('docket.lock.json', () => {
  it('a missing lock file reads as empty, without complaint', async () => {
    const root = await makeDir({});
    const result = await readLock(lockLocation(root, { emulator: false }));
    expect(result).toEqual({ lock: emptyLock(), diagnostics: [] });
  });

  it('invalid JSON is an invalid-lock-file error at the lock file, and reads as empty', async () => {
    const root = await makeDir({ [LOCK_FILE]: '{ "version": 1, "files": {' });
    const { lock, diagnostics } = await readLock(lockLocation(root, { emulator: false }));
    expect(lock).toEqual(emptyLock());
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'invalid-lock-file', file: 'docket.lock.json', line: 1 });
    expect(diagnostics[0]!.message).toContain('not valid JSON');
  });

  it('another version, or an entry without id/file/sha256, is an invalid lock file too', async () => {
    const wrongVersion = await makeDir({ [LOCK_FILE]: JSON.stringify({ version: 2, files: {} }) });
    expect((await readLock(lockLocation(wrongVersion, { emulator: false }))).diagnostics.map((d) => d.code)).toEqual(['invalid-lock-file']);
    const badEntry = await makeDir({ [LOCK_FILE]: JSON.stringify({ version: 1, files: { 'attachment:X': { id: 'att-1', file: 'x.pdf' } } }) });
    const { diagnostics } = await readLock(lockLocation(badEntry, { emulator: false }));
    expect(diagnostics.map((d) => d.code)).toEqual(['invalid-lock-file']);
    expect(diagnostics[0]!.message).toContain('attachment:X');
  });

  it('write then read gives the same entries back; keys are sorted so the file diffs cleanly', async () => {
    const root = await makeDir({});
    const location = lockLocation(root, { emulator: false });
    await writeLock(location, lockOf({ 'custom-term:Consulting Terms': TERM, 'attachment:Security Exhibit': ATTACHMENT }));
    const text = await readFile(join(root, LOCK_FILE), 'utf8');
    expect(text.endsWith('}\n')).toBe(true);
    expect(Object.keys((JSON.parse(text) as LockFile).files)).toEqual(['attachment:Security Exhibit', 'custom-term:Consulting Terms']);
    expect(text.indexOf('attachment:Security Exhibit')).toBeLessThan(text.indexOf('custom-term:Consulting Terms'));
    const { lock, diagnostics } = await readLock(location);
    expect(diagnostics).toEqual([]);
    expect(lock).toEqual(lockOf({ 'attachment:Security Exhibit': ATTACHMENT, 'custom-term:Consulting Terms': TERM }));
  });

  it('writing the same entries twice gives byte-identical files, whatever their order', async () => {
    const root = await makeDir({});
    const location = lockLocation(root, { emulator: false });
    await writeLock(location, lockOf({ b: TERM, a: ATTACHMENT }));
    const first = await readFile(location.path, 'utf8');
    await writeLock(location, lockOf({ a: ATTACHMENT, b: TERM }));
    expect(await readFile(location.path, 'utf8')).toBe(first);
  });

  it('each environment has its own section; writing one keeps the top level and the others', async () => {
    const root = await makeDir({});
    const production = lockLocation(root, { emulator: false });
    const staging = lockLocation(root, { emulator: false, environment: 'staging' });
    const qa = lockLocation(root, { emulator: false, environment: 'qa' });

    await writeLock(production, lockOf({ 'attachment:Security Exhibit': ATTACHMENT }));
    await writeLock(staging, lockOf({ 'custom-term:Consulting Terms': TERM }));
    expect((await readLock(production)).lock.files).toEqual({ 'attachment:Security Exhibit': ATTACHMENT });
    expect((await readLock(staging)).lock.files).toEqual({ 'custom-term:Consulting Terms': TERM });
    expect((await readLock(qa)).lock).toEqual(emptyLock());

    // Writing the top level keeps the staging section, and vice versa.
    const replaced = { ...ATTACHMENT, id: 'att-2' };
    await writeLock(production, lockOf({ 'attachment:Security Exhibit': replaced }));
    await writeLock(qa, lockOf({}));
    expect((await readLock(staging)).lock.files).toEqual({ 'custom-term:Consulting Terms': TERM });
    expect((await readLock(production)).lock.files).toEqual({ 'attachment:Security Exhibit': replaced });
    expect(await json(production.path)).toEqual({
      version: 1,
      files: { 'attachment:Security Exhibit': replaced },
      environments: { qa: { files: {} }, staging: { files: { 'custom-term:Consulting Terms': TERM } } },
    });
  });

  it('an environment section that is invalid makes the whole file invalid', async () => {
    const root = await makeDir({ [LOCK_FILE]: JSON.stringify({ version: 1, files: {}, environments: { staging: { files: { x: { id: 1 } } } } }) });
    const { diagnostics } = await readLock(lockLocation(root, { emulator: false }));
    expect(diagnostics.map((d) => d.code)).toEqual(['invalid-lock-file']);
  });

  it('keeps the emulator entries in their own section of the same file, apart from production', async () => {
    const root = await makeDir({});
    const production = lockLocation(root, { emulator: false });
    const emulator = lockLocation(root, { emulator: true });
    expect(emulator).toEqual({ path: join(root, LOCK_FILE), label: LOCK_FILE, emulator: true });
    await writeLock(production, lockOf({ 'custom-term:Data Terms': { id: 'prod-id', file: 'data.docx', sha256: 'a'.repeat(64) } }));
    await writeLock(emulator, lockOf({ 'attachment:Security Exhibit': ATTACHMENT }));
    expect((await readLock(production)).lock.files).toEqual({ 'custom-term:Data Terms': { id: 'prod-id', file: 'data.docx', sha256: 'a'.repeat(64) } });
    expect((await readLock(emulator)).lock.files).toEqual({ 'attachment:Security Exhibit': ATTACHMENT });
    const onDisk = JSON.parse(await readFile(join(root, LOCK_FILE), 'utf8')) as { emulator: { files: object } };
    expect(Object.keys(onDisk.emulator.files)).toEqual(['attachment:Security Exhibit']);
  });

  it('keeps emulator environments apart too', async () => {
    const root = await makeDir({});
    const staging = lockLocation(root, { emulator: true, environment: 'staging' });
    await writeLock(staging, lockOf({ 'attachment:Security Exhibit': ATTACHMENT }));
    expect((await readLock(lockLocation(root, { emulator: true }))).lock).toEqual(emptyLock());
    expect((await readLock(staging)).lock.files).toEqual({ 'attachment:Security Exhibit': ATTACHMENT });
  });
});
