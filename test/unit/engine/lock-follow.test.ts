import { describe, expect, it } from 'vitest';
import { followRenamedFiles } from '../../../src/engine/lock-follow.js';
import type { LockFile } from '../../../src/config/lock.js';
import type { DesiredResource } from '../../../src/engine/types.js';
import { KINDS } from '../../../src/kinds/index.js';

const attachment = (file: string, sha256: string): DesiredResource =>
  ({ kind: 'attachment', key: 'Exhibit', name: 'Exhibit', fields: { name: 'Exhibit', description: null, sha256 }, payload: { file }, partial: false, refs: [], renamedFrom: [] }) as unknown as DesiredResource;

describe('followRenamedFiles', () => {
  const lockOf = (): LockFile => ({ files: { 'attachment:Exhibit': { id: 'a-1', file: 'old.pdf', sha256: 'aa' } } });

  it('points a confirmed upload at the path the files give the same content now', () => {
    const lock = lockOf();
    expect(followRenamedFiles(lock, [attachment('new.pdf', 'aa')], KINDS)).toBe(true);
    expect(lock.files['attachment:Exhibit']).toEqual({ id: 'a-1', file: 'new.pdf', sha256: 'aa' });
  });

  it('leaves an entry whose content changed (the upload to come records it), one never confirmed, and one already there', () => {
    const changed = lockOf();
    expect(followRenamedFiles(changed, [attachment('new.pdf', 'bb')], KINDS)).toBe(false);
    expect(changed).toEqual(lockOf());
    const pending: LockFile = { files: { 'attachment:Exhibit': { pending: { file: 'old.pdf', sha256: 'aa', since: '2026-01-01T00:00:00Z' } } } };
    expect(followRenamedFiles(pending, [attachment('new.pdf', 'aa')], KINDS)).toBe(false);
    expect(followRenamedFiles(lockOf(), [attachment('old.pdf', 'aa')], KINDS)).toBe(false);
  });
});
