import { describe, expect, it } from 'vitest';
import { syncState } from '../../../src/engine/sync.js';
import { KINDS } from '../../../src/kinds/index.js';
import { goneRecords } from '../../../src/pull/in-sync.js';
import { desiredPlaybook, desiredRule } from '../engine/builders.js';
import { plan as planOf } from '../render/fixtures.js';

const plan = (targets?: string[]) => planOf([], targets ? { targets } : {});

describe('goneRecords', () => {
  const state = syncState([
    {
      'playbook:Gone': 'pb-gone name=aaaaaaaaaa',
      'rule:Gone/Term': 'r-gone name=aaaaaaaaaa',
      'playbook:Dropped': 'pb-live name=aaaaaaaaaa',
      'playbook:Declared': 'pb-declared name=aaaaaaaaaa',
      'attachment:Exhibit': 'att-1 name=aaaaaaaaaa',
      'member:bob@acme.example': 'u-1 email=aaaaaaaaaa',
      // A kind no file declares is not read: the records of terms the files dropped stay.
      'custom-term:Dropped terms': 'ct-1 name=aaaaaaaaaa',
    },
  ]);
  const live = [{ id: 'pb-live' }];
  const desired = [desiredPlaybook('Declared')];

  it('forgets the records of objects neither declared nor live, of kinds read whole', () => {
    expect([...goneRecords(plan(), desired, live, KINDS, state).keys()].sort()).toEqual(['playbook:Gone', 'rule:Gone/Term']);
  });

  it('keeps the records under a former name the files rename from, with its children: removed live before the rename was applied (probe KN-4)', () => {
    const renamed = [desiredPlaybook('Declared'), desiredPlaybook('Arrived', { renamedFrom: ['Gone'] }), desiredRule('Arrived', 'Term')];
    expect(goneRecords(plan(), renamed, live, KINDS, state).size).toBe(0);
  });

  it('forgets a child under the former name that the files no longer declare under the new one: its removal pulled by a pull stopped before its records (probe QV-1)', () => {
    const renamed = [desiredPlaybook('Declared'), desiredPlaybook('Arrived', { renamedFrom: ['Gone'] }), desiredRule('Arrived', 'Other')];
    expect([...goneRecords(plan(), renamed, live, KINDS, state).keys()]).toEqual(['rule:Gone/Term']);
    // Renamed as well, from the name it had: still declared.
    const both = [desiredPlaybook('Declared'), desiredPlaybook('Arrived', { renamedFrom: ['Gone'] }), desiredRule('Arrived', 'Duration', {}, { renamedFrom: ['Term'] })];
    expect(goneRecords(plan(), both, live, KINDS, state).size).toBe(0);
  });

  it('tries every former parent a key can be under: `A` and `A/B` both renamed, a rule of `A/B` kept (second read SR86B-1)', () => {
    const slashed = syncState([{ 'playbook:A': 'pb-a name=aaaaaaaaaa', 'playbook:A/B': 'pb-ab name=aaaaaaaaaa', 'rule:A/B/T': 'r-t name=aaaaaaaaaa' }]);
    const renamed = [desiredPlaybook('N1', { renamedFrom: ['A'] }), desiredPlaybook('N2', { renamedFrom: ['A/B'] }), desiredRule('N2', 'T')];
    expect(goneRecords(plan(), renamed, [{ id: 'pb-a' }, { id: 'pb-ab' }], KINDS, slashed).size).toBe(0);
  });

  it('forgets nothing a targeted pull did not read, nor kinds --kind left out', () => {
    expect(goneRecords(plan(['playbook/Declared']), desired, live, KINDS, state).size).toBe(0);
    expect([...goneRecords(plan(), desired, live, KINDS, state, ['custom-term']).keys()]).toEqual(['custom-term:Dropped terms']);
    expect([...goneRecords(plan(), desired, live, KINDS, state, ['playbook']).keys()].sort()).toEqual(['playbook:Gone', 'rule:Gone/Term']);
  });
});
