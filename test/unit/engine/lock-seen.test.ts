import { describe, expect, it } from 'vitest';
import type { LockFile } from '../../../src/config/lock.js';
import { lockMovedSincePlan, withLockSeen } from '../../../src/engine/lock-seen.js';
import type { Plan } from '../../../src/engine/types.js';

const TERM = { id: '11111111-1111-4111-8111-111111111111', file: 'terms/data.docx', sha256: 'a'.repeat(64), version: 2 };

function savedPlan(lock: LockFile): Plan {
  const plan = {
    changes: [],
    lock_updates: [{ kind: 'custom-term', key: 'Data Terms', entry: TERM, reason: 'published by an earlier apply' }],
    adoptable: [{ kind: 'attachment', key: 'Security Exhibit', liveId: '22222222-2222-4222-8222-222222222222', field: 'sha256', file: 'attachments/security.pdf', sha256: 'b'.repeat(64), reason: 'no entry' }],
  } as unknown as Plan;
  return withLockSeen(plan, lock);
}

describe('the lock entries a saved plan rewrites', () => {
  const then: LockFile = { files: { 'custom-term:Data Terms': { ...TERM, version: 1 } } };

  it('hold while the lock still has the entries the plan read', () => {
    expect(lockMovedSincePlan(savedPlan(then), { files: { ...then.files } })).toEqual([]);
  });

  it('are stale once another apply recorded a later version, or an entry where the plan read none (probe GA-1)', () => {
    const later: LockFile = { files: { 'custom-term:Data Terms': { ...TERM, version: 4 }, 'attachment:Security Exhibit': { id: '33333333-3333-4333-8333-333333333333', file: 'attachments/security.pdf', sha256: 'c'.repeat(64) } } };
    expect(lockMovedSincePlan(savedPlan(then), later)).toEqual([
      'docket.lock.json\'s entry for custom-term "Data Terms" changed since the plan (an apply recorded another upload or version since): the plan would put back what it read then',
      'docket.lock.json\'s entry for attachment "Security Exhibit" changed since the plan (an apply recorded another upload or version since): the plan would put back what it read then',
    ]);
  });

  it('hold where another apply settled an entry as the plan would: nothing is put back (second read SR105-6)', () => {
    const settled: LockFile = { files: { 'custom-term:Data Terms': TERM } };
    expect(lockMovedSincePlan(savedPlan(then), settled)).toEqual([]);
  });

  it('of a plan saved before they were stamped are not checked', () => {
    const unstamped = { changes: [], lock_updates: [{ kind: 'custom-term', key: 'Data Terms', entry: TERM, reason: 'r' }] } as unknown as Plan;
    expect(lockMovedSincePlan(unstamped, { files: {} })).toEqual([]);
  });
});
