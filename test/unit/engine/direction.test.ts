import { describe, expect, it } from 'vitest';
import { buildPlan } from '../../../src/engine/plan.js';
import { EMPTY_SYNC, recordOf, syncState, formatSyncRecord } from '../../../src/engine/sync.js';
import type { DesiredResource, KindName, LiveResource, ResourcePolicy } from '../../../src/engine/types.js';
import { KIND_META, change, desiredPlaybook, desiredRule, liveMember, livePlaybook, liveRule, pos } from './builders.js';
import { childrenEditedInFiles, classifyChanges } from '../../../src/engine/direction.js';
import { fieldDirectionLabel } from '../../../src/render/facts.js';

const NDA = { id: 'pb-1', name: 'NDA' };

/** The sync records an apply would have written when the files said `synced`. */
function recorded(synced: { d: DesiredResource; id: string }[]) {
  return syncState([Object.fromEntries(synced.map(({ d, id }) => [`${d.kind}:${d.key}`, formatSyncRecord(recordOf(d, id, undefined))]))]);
}

function plan(desired: DesiredResource[], live: LiveResource[], sync = EMPTY_SYNC) {
  const result = buildPlan({ kinds: KIND_META, desired, live, prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: '0', planFormat: 'test', sync });
  expect(result.diagnostics).toEqual([]);
  return result.plan!;
}

function withPolicy(d: DesiredResource, policy: ResourcePolicy): DesiredResource {
  return { ...d, policy };
}

const term = (actions: string, notes: string | null = null) => desiredRule(NDA.name, 'Term', { actions, internal_notes: notes });
const liveTerm = (actions: string, notes: string | null = null) => liveRule('r-1', NDA, 'Term', { actions, internal_notes: notes });
const base = [desiredPlaybook(NDA.name)];
const baseLive = [livePlaybook(NDA.id, NDA.name)];
const synced = (...rules: DesiredResource[]) => recorded([{ d: base[0]!, id: NDA.id }, ...rules.map((d) => ({ d, id: 'r-1' }))]);

describe('directions', () => {
  it('tells an edit in the app from an edit in the files, field by field', () => {
    const sync = synced(term('ACCEPT', 'old note'));
    const live = plan([...base, term('ACCEPT', 'old note')], [...baseLive, liveTerm('ACCEPT', 'reviewer note')], sync);
    expect(live.changes.map((c) => [c.id, c.direction, c.fields.map((f) => f.direction)])).toEqual([['update:rule:NDA/Term', 'changed-live', ['live']]]);

    const files = plan([...base, term('REJECT', 'old note')], [...baseLive, liveTerm('ACCEPT', 'old note')], sync);
    expect(files.changes.map((c) => c.direction)).toEqual(['changed-in-files']);

    const both = plan([...base, term('REJECT', 'old note')], [...baseLive, liveTerm('ACCEPT', 'reviewer note')], sync);
    expect(both.changes.map((c) => [c.direction, c.fields.map((f) => [f.field, f.direction])])).toEqual([
      ['changed-both', [['actions', 'files'], ['internal_notes', 'live']]],
    ]);
  });

  it('is unknown without a sync record, field by field too', () => {
    const p = plan([...base, term('REJECT')], [...baseLive, liveTerm('ACCEPT')]);
    expect(p.changes.map((c) => [c.direction, c.fields.map((f) => f.direction)])).toEqual([['unknown', ['unknown']]]);
    expect(fieldDirectionLabel(p.changes[0]!, p.changes[0]!.fields[0]!)).toBeUndefined();
  });

  it('without a sync record, a name live that renamed_from lists is the files\' rename still owed; the other fields stay unknown (probe RL-3)', () => {
    const renamed = desiredPlaybook('Env PB Two', { renamedFrom: ['Env PB 2'] });
    const p = plan([renamed], [livePlaybook(NDA.id, 'Env PB 2')]);
    expect(p.changes.map((c) => [c.action, c.direction, c.fields.map((f) => [f.field, f.direction])])).toEqual([['rename', 'changed-in-files', [['name', 'files']]]]);
    // Another field that differs says no side: no record says who moved it.
    const edited = plan([renamed], [livePlaybook(NDA.id, 'Env PB 2')].map((l) => ({ ...l, fields: { ...l.fields, description: 'live' } })));
    expect(edited.changes.map((c) => [c.action, c.direction, c.fields.map((f) => [f.field, f.direction])])).toEqual([
      ['rename', 'changed-in-files', [['name', 'files']]],
      ['update', 'unknown', [['description', 'unknown']]],
    ]);
  });

  it('types objects one side has: new in the files or removed live, created live or removed from the files', () => {
    const other = desiredRule(NDA.name, 'Law');
    const sync = recorded([{ d: base[0]!, id: NDA.id }, { d: other, id: 'r-2' }, { d: desiredRule(NDA.name, 'Old'), id: 'r-3' }]);
    const p = plan([...base, other, desiredRule(NDA.name, 'New')], [...baseLive, liveRule('r-3', NDA, 'Old'), liveRule('r-4', NDA, 'Made live')], sync);
    expect(Object.fromEntries(p.changes.map((c) => [c.id, c.direction]))).toEqual({
      'create:rule:NDA/Law': 'removed-live',
      'create:rule:NDA/New': 'only-in-files',
      'delete:rule:NDA/Old': 'removed-in-files',
      'delete:rule:NDA/Made live': 'only-live',
    });
  });

  it('an upload of a kind the services cannot list is new in the files even when a record names it: its lock entry is what went, not the object', () => {
    const d: DesiredResource = { ...desiredPlaybook('Exhibit'), kind: 'attachment', key: 'Exhibit' };
    const sync = recorded([{ d, id: 'att-1' }]);
    const upload = change('upload', 'attachment', 'Exhibit');
    const classify = (unlisted: ReadonlySet<KindName>) => classifyChanges([upload], { sensitive: new Map(), unlisted, desired: [d], live: [], sync }).changes[0]!.direction;
    expect(classify(new Set())).toBe('removed-live');
    expect(classify(new Set(['attachment']))).toBe('only-in-files');
  });

  it('a reference naming what docket replaced since is re-pointed as the files’ change, shown by the id it holds', () => {
    const d = desiredRule(NDA.name, 'Term', { actions: 'ACCEPT', reviewer: 'qa@acme.example' });
    const l = liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT', reviewer: 'qa@acme.example' });
    const stale: LiveResource = { ...l, refIds: { reviewer: 'u-earlier' }, staleRefs: ['reviewer'] };
    const members = [liveMember('u-1', 'qa@acme.example')];
    const sync = synced(d);
    expect(plan([...base, d], [...baseLive, ...members, l], sync).changes).toEqual([]);
    const p = plan([...base, d], [...baseLive, ...members, stale], sync);
    expect(p.changes.map((c) => [c.id, c.direction, c.fields])).toEqual([
      ['update:rule:NDA/Term', 'changed-in-files', [{ field: 'reviewer', before: 'u-earlier', after: 'qa@acme.example', direction: 'files' }]],
    ]);
    // Without a sync record nothing says which side moved.
    expect(plan([...base, d], [...baseLive, ...members, stale]).changes.map((c) => c.direction)).toEqual(['unknown']);
    // Pointed live at another object's earlier incarnation: that is a change made live.
    const elsewhere: LiveResource = { ...liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT', reviewer: 'alice@acme.example' }), refIds: { reviewer: 'u-earlier' }, staleRefs: ['reviewer'] };
    const moved = plan([...base, d], [...baseLive, ...members, liveMember('u-2', 'alice@acme.example'), elsewhere], sync);
    expect(moved.changes.map((c) => [c.direction, c.fields.map((f) => f.direction)])).toEqual([['changed-live', ['live']]]);
  });

  it('a reference last synced as the id the file wrote (an export\'s), read now by name, moved in the files alone when live still holds that id (probe KA-1)', () => {
    const asExported = desiredRule(NDA.name, 'Term', { actions: 'ACCEPT', reviewer: 'u-1' });
    const d = desiredRule(NDA.name, 'Term', { actions: 'ACCEPT', reviewer: 'bob@acme.example' });
    const l: LiveResource = { ...liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT', reviewer: 'qa@acme.example' }), refIds: { reviewer: 'u-1' } };
    const members = [liveMember('u-1', 'qa@acme.example'), liveMember('u-2', 'bob@acme.example')];
    const p = plan([...base, d], [...baseLive, ...members, l], synced(asExported));
    expect(p.changes.map((c) => [c.direction, c.fields.map((f) => f.direction)])).toEqual([['changed-in-files', ['files']]]);
    // Pointed live at another object since: that is a change made live too.
    const moved: LiveResource = { ...l, fields: { ...l.fields, reviewer: 'bob@acme.example' }, refIds: { reviewer: 'u-2' } };
    const both = plan([...base, desiredRule(NDA.name, 'Term', { actions: 'ACCEPT', reviewer: 'qa@acme.example' })], [...baseLive, ...members, moved], synced(asExported));
    expect(both.changes.map((c) => c.fields.map((f) => f.direction))).toEqual([['both']]);
  });

  it('a re-point to what the plan uploads again takes that upload\'s side, in whatever order the changes come', () => {
    const d = desiredRule(NDA.name, 'Term', { actions: 'ACCEPT', reviewer: 'qa@acme.example' });
    const l = liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT', reviewer: 'qa@acme.example' });
    const repoint = change('update', 'rule', 'NDA/Term', { liveId: 'r-1', parent: { kind: 'playbook', key: NDA.name, liveId: NDA.id }, fields: [{ field: 'reviewer', before: 'u-1', after: 'qa@acme.example' }], refs: [{ kind: 'member', key: 'qa@acme.example', field: 'reviewer' }] });
    const invite = change('invite', 'member', 'qa@acme.example');
    const input = { sensitive: new Map(), desired: [...base, d], live: [...baseLive, l], sync: synced(d) };
    for (const order of [[repoint, invite], [invite, repoint]]) {
      const { changes } = classifyChanges(order, input);
      expect(changes.find((c) => c.kind === 'rule')).toMatchObject({ direction: 'changed-in-files', fields: [{ field: 'reviewer', direction: 'files' }] });
    }
  });

  it('a field the record does not hold is new in the files only when the record is of this object, of a kind whose files may leave fields out', () => {
    // The record (of `name` alone) is of pb-0: another object, say an organization's half that another environment syncs.
    const d = { ...desiredPlaybook(NDA.name, { description: 'NDAs we receive' }), partial: true };
    const half = (id: string) => syncState([{ [`playbook:${NDA.name}`]: formatSyncRecord({ id, fields: { name: recordOf(d, id, undefined).fields.name! } }) }]);
    const direction = (sync: ReturnType<typeof half>, declared = d) => plan([declared], [livePlaybook(NDA.id, NDA.name, 'Old text')], sync).changes.map((c) => [c.direction, c.fields.map((f) => f.direction)]);
    expect(direction(half(NDA.id))).toEqual([['changed-in-files', ['files']]]);
    expect(direction(half('pb-0'))).toEqual([['unknown', ['unknown']]]);
    // A kind whose files declare every field left this one to the app when last in sync (`ignore_fields`, since removed): the app may have moved it (probe EH).
    expect(direction(half(NDA.id), { ...d, partial: false })).toEqual([['unknown', ['unknown']]]);
  });

  it('an object whose fields name one side and one cannot say is of unknown direction, each field saying its side', () => {
    const d = term('ACCEPT', 'a note');
    // A record of another object (r-0), holding `actions` alone: `internal_notes` cannot say.
    const sync = syncState([{ [`rule:${NDA.name}/Term`]: formatSyncRecord({ id: 'r-0', fields: { actions: recordOf(d, 'r-0', undefined).fields.actions! } }) }]);
    const p = plan([...base, d], [...baseLive, liveTerm('REJECT')], sync);
    expect(p.changes.map((c) => [c.direction, c.fields.map((f) => [f.field, f.direction])])).toEqual([['unknown', [['actions', 'live'], ['internal_notes', 'unknown']]]]);
    expect(fieldDirectionLabel(p.changes[0]!, p.changes[0]!.fields[0]!)).toBe('live');
    // One side alone: the headline says it, the fields need not.
    const one = plan([...base, term('ACCEPT')], [...baseLive, liveTerm('REJECT')], synced(term('ACCEPT')));
    expect(one.changes.map((c) => [c.direction, fieldDirectionLabel(c, c.fields[0]!)])).toEqual([['changed-live', undefined]]);
  });

  it('both sides holding one value other than the record\'s (a reference recorded in another form) is no side\'s move: a re-point takes its upload\'s side', () => {
    const d = desiredRule(NDA.name, 'Term', { actions: 'ACCEPT', reviewer: 'qa@acme.example' });
    const l = liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT', reviewer: 'qa@acme.example' });
    // Recorded as the id the export wrote, then written by name in the files.
    const sync = synced(desiredRule(NDA.name, 'Term', { actions: 'ACCEPT', reviewer: 'u-1' }));
    const repoint = change('update', 'rule', 'NDA/Term', { liveId: 'r-1', parent: { kind: 'playbook', key: NDA.name, liveId: NDA.id }, fields: [{ field: 'reviewer', before: 'u-1', after: 'qa@acme.example' }], refs: [{ kind: 'member', key: 'qa@acme.example', field: 'reviewer' }] });
    const input = { sensitive: new Map(), desired: [...base, d], live: [...baseLive, l], sync };
    expect(classifyChanges([repoint], input).changes[0]).toMatchObject({ direction: 'unknown', fields: [{ field: 'reviewer', direction: 'unknown' }] });
    const { changes } = classifyChanges([repoint, change('invite', 'member', 'qa@acme.example')], input);
    expect(changes.find((c) => c.kind === 'rule')).toMatchObject({ direction: 'changed-in-files', fields: [{ field: 'reviewer', direction: 'files' }] });
  });

  it('matches a rule renamed in the app by the id it was synced under: a rename, not a delete and a create', () => {
    const sync = synced(term('ACCEPT'));
    const p = plan([...base, term('ACCEPT')], [...baseLive, liveRule('r-1', NDA, 'Duration', { actions: 'ACCEPT' })], sync);
    expect(p.changes.map((c) => [c.id, c.direction, c.fields])).toEqual([['rename:rule:NDA/Term', 'changed-live', [{ field: 'name', before: 'Duration', after: 'Term', direction: 'live' }]]]);
  });

  it('a rule renamed in the app and otherwise in the files (`renamed_from` its synced name) is one rename, changed on both sides', () => {
    const length = desiredRule(NDA.name, 'Length', { actions: 'ACCEPT' }, { renamedFrom: ['Term'] });
    const p = plan([...base, length], [...baseLive, liveRule('r-1', NDA, 'Duration', { actions: 'ACCEPT' })], synced(term('ACCEPT')));
    expect(p.changes.map((c) => [c.id, c.liveId, c.direction, c.fields])).toEqual([
      ['rename:rule:NDA/Length', 'r-1', 'changed-both', [{ field: 'name', before: 'Duration', after: 'Length', direction: 'both' }]],
    ]);
    // A new rule that takes the old name, declared first, does not take the renamed one over.
    const again = plan([...base, term('REJECT'), length], [...baseLive, liveRule('r-1', NDA, 'Duration', { actions: 'ACCEPT' })], synced(term('ACCEPT')));
    expect(again.changes.map((c) => [c.id, c.liveId ?? null])).toEqual([
      ['rename:rule:NDA/Length', 'r-1'],
      ['create:rule:NDA/Term', null],
    ]);
  });
});

describe('a rename in the files, and a new object under the old name', () => {
  it('creates the new one as new in the files, not as removed live: the old one is live, renamed', () => {
    const length = desiredRule(NDA.name, 'Length', { actions: 'ACCEPT' }, { renamedFrom: ['Term'] });
    const p = plan([...base, length, term('REJECT')], [...baseLive, liveTerm('ACCEPT')], synced(term('ACCEPT')));
    expect(p.changes.map((c) => [c.id, c.direction])).toEqual([
      ['rename:rule:NDA/Length', 'changed-in-files'],
      ['create:rule:NDA/Term', 'only-in-files'],
    ]);
    // A new playbook under the old name of one renamed in the files: its rule is new too, not held by its policy.
    const renamed = desiredPlaybook('NDA 2', { renamedFrom: ['NDA'] });
    const fresh = withPolicy(desiredPlaybook(NDA.name), { drift: 'adopt' });
    const newTerm = withPolicy(term('ACCEPT'), { drift: 'adopt' });
    const moved = buildPlan({ kinds: KIND_META, desired: [renamed, desiredRule('NDA 2', 'Term', { actions: 'ACCEPT' }), fresh, newTerm], live: [...baseLive, liveTerm('ACCEPT')], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: '0', planFormat: 'test', sync: synced(term('ACCEPT')) }).plan!;
    expect(moved.changes.map((c) => [c.id, c.direction])).toEqual([
      ['rename:playbook:NDA 2', 'changed-in-files'],
      ['create:playbook:NDA', 'only-in-files'],
      ['create:rule:NDA/Term', 'only-in-files'],
    ]);
    // Gone from the app, it is removed live.
    expect(plan([...base, term('REJECT')], baseLive, synced(term('ACCEPT'))).changes.map((c) => [c.id, c.direction])).toEqual([['create:rule:NDA/Term', 'removed-live']]);
  });

  it('a rule of a playbook the plan makes, never synced, is new in the files, though another playbook\'s rule was synced under its key (`A/` + `B`, `A` + `/B`: probe CF-1)', () => {
    const slash = desiredPlaybook('A/');
    const sync = recorded([{ d: slash, id: 'pb-9' }, { d: desiredRule('A/', 'B'), id: 'r-9' }]);
    const p = plan([desiredPlaybook('A'), desiredRule('A', '/B', { actions: 'y' })], [livePlaybook('pb-9', 'A/')], sync);
    expect(p.changes.map((c) => [c.id, c.direction])).toEqual([
      ['create:playbook:A', 'only-in-files'],
      ['create:rule:A//B', 'only-in-files'],
    ]);
    // A synced playbook deleted in the app: it and its rules are removed live.
    const gone = plan([slash, desiredRule('A/', 'B')], [], sync);
    expect(gone.changes.map((c) => [c.id, c.direction])).toEqual([
      ['create:playbook:A/', 'removed-live'],
      ['create:rule:A//B', 'removed-live'],
    ]);
  });

  it('a playbook the files rename onto a name another live playbook holds reads its rules as new there, not as removed live: the rename is not made, the old one keeps them (probe HC)', () => {
    const renamed = desiredPlaybook('NDA 2', { renamedFrom: ['NDA'] });
    const rule = desiredRule('NDA 2', 'Term', { actions: 'ACCEPT' });
    const made = livePlaybook('pb-2', 'NDA 2');
    const result = buildPlan({ kinds: KIND_META, desired: [renamed, rule], live: [...baseLive, liveTerm('ACCEPT'), made], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: '0', planFormat: 'test', sync: synced(term('ACCEPT')) });
    expect(result.plan!.changes.map((c) => [c.id, c.direction])).toEqual([['create:rule:NDA 2/Term', 'only-in-files']]);
  });
});

describe('objects renamed in the app onto a name the files declare too', () => {
  const alpha = (actions: string, renamedFrom: string[] = []) => desiredRule(NDA.name, 'Alpha', { actions }, { renamedFrom });
  const beta = (actions: string) => desiredRule(NDA.name, 'Beta', { actions });
  const sync = recorded([{ d: base[0]!, id: NDA.id }, { d: alpha('A'), id: 'r-1' }, { d: beta('B'), id: 'r-2' }]);

  it('two rules that swap names are changed live, read against what each name held', () => {
    const p = plan([...base, alpha('A'), beta('B')], [...baseLive, liveRule('r-1', NDA, 'Beta', { actions: 'A' }), liveRule('r-2', NDA, 'Alpha', { actions: 'B' })], sync);
    expect(p.changes.map((c) => [c.id, c.direction, c.fields.map((f) => [f.field, f.direction])])).toEqual([
      ['update:rule:NDA/Alpha', 'changed-live', [['actions', 'live']]],
      ['update:rule:NDA/Beta', 'changed-live', [['actions', 'live']]],
    ]);
  });

  it('rules that moved with two playbooks swapping names are changed live, not removed from the files', () => {
    const A = { id: 'pb-a', name: 'A' };
    const B = { id: 'pb-b', name: 'B' };
    const files = [desiredPlaybook('A'), desiredRule('A', 'a1', { actions: 'x' }), desiredPlaybook('B'), desiredRule('B', 'b1', { actions: 'y' })];
    const was = recorded([{ d: files[0]!, id: A.id }, { d: files[1]!, id: 'r-a' }, { d: files[2]!, id: B.id }, { d: files[3]!, id: 'r-b' }]);
    // In the app: A renamed B and B renamed A; each rule is live under the other name.
    const live = [livePlaybook(B.id, 'A'), livePlaybook(A.id, 'B'), liveRule('r-a', { id: A.id, name: 'B' }, 'a1', { actions: 'x' }), liveRule('r-b', { id: B.id, name: 'A' }, 'b1', { actions: 'y' })];
    const p = plan(files, live, was);
    expect(p.changes.filter((c) => c.action === 'delete').map((c) => [c.id, c.direction])).toEqual([
      ['delete:rule:A/b1', 'changed-live'],
      ['delete:rule:B/a1', 'changed-live'],
    ]);
    // Under `drift: adopt` the app's move stays: nothing is deleted or created again.
    const adopting = plan(files.map((d) => withPolicy(d, { drift: 'adopt' })), live, was);
    expect(adopting.changes).toEqual([]);
    expect(adopting.held?.map((c) => [c.id, c.direction]).sort()).toEqual([
      ['create:rule:A/a1', 'removed-live'],
      ['create:rule:B/b1', 'removed-live'],
      ['delete:rule:A/b1', 'changed-live'],
      ['delete:rule:B/a1', 'changed-live'],
    ]);
    // A rule the files did take out is still their change.
    const removed = plan(files.slice(0, 3), [livePlaybook(A.id, 'A'), livePlaybook(B.id, 'B'), liveRule('r-a', A, 'a1', { actions: 'x' }), liveRule('r-b', B, 'b1', { actions: 'y' })], was);
    expect(removed.changes.map((c) => [c.id, c.direction])).toEqual([['delete:rule:B/b1', 'removed-in-files']]);
  });

  it('two playbooks that swapped names, one under drift: adopt or ignore: neither is written onto the other, and the plan says why (probe NC-1)', () => {
    const A = { id: 'pb-a', name: 'A' };
    const B = { id: 'pb-b', name: 'B' };
    for (const drift of ['adopt', 'ignore'] as const) {
      const files = [withPolicy(desiredPlaybook('A', { description: 'a' }), { drift }), withPolicy(desiredRule('A', 'a1', { actions: 'x' }), { drift }), desiredPlaybook('B', { description: 'b' }), desiredRule('B', 'b1', { actions: 'y' })];
      const was = recorded([{ d: files[0]!, id: A.id }, { d: files[1]!, id: 'r-a' }, { d: files[2]!, id: B.id }, { d: files[3]!, id: 'r-b' }]);
      const live = [livePlaybook(B.id, 'A', 'b'), livePlaybook(A.id, 'B', 'a'), liveRule('r-a', { id: A.id, name: 'B' }, 'a1', { actions: 'x' }), liveRule('r-b', { id: B.id, name: 'A' }, 'b1', { actions: 'y' })];
      const p = plan(files, live, was);
      // B's revert would give A's object B's description and rule: held with A's object.
      expect(p.changes, drift).toEqual([]);
      expect(p.held?.map((c) => [c.id, c.policy]).sort(), drift).toEqual([
        ['create:rule:A/a1', drift],
        ['create:rule:B/b1', drift],
        ['delete:rule:A/b1', drift],
        ['delete:rule:B/a1', drift],
        ['update:playbook:A', drift],
        ['update:playbook:B', drift],
      ]);
      expect(p.warnings.filter((w) => w.includes('is held')), drift).toEqual([
        `playbook "B" (playbooks/nda.yaml:1) is held: the app renamed playbook "A"'s object onto this name, and its \`drift: ${drift}\` leaves that object as it is, so apply does not write "B" onto it. \`docket pull\` leaves names swapped in the app: swap them in the files by hand, or take off the \`drift: ${drift}\` that covers "A" to have apply put both back`,
      ]);
    }
  });

  it('a rule renamed in the app under drift: adopt onto a name the files give a new rule: nothing of the new one is written onto it (probe NJ-2)', () => {
    const adopt = (d: DesiredResource) => withPolicy(d, { drift: 'adopt' });
    const a1 = adopt(desiredRule(NDA.name, 'a1', { actions: 'ACCEPT a1' }));
    const was = recorded([{ d: base[0]!, id: NDA.id }, { d: a1, id: 'r-1' }]);
    const files = [adopt(base[0]!), a1, adopt(desiredRule(NDA.name, 'a1x', { actions: 'ACCEPT a1x new' }))];
    const p = plan(files, [...baseLive, liveRule('r-1', NDA, 'a1x', { actions: 'ACCEPT a1' })], was);
    expect(p.changes).toEqual([]);
    expect(p.held?.map((c) => [c.id, c.direction, c.policy]).sort()).toEqual([
      ['create:rule:NDA/a1', 'removed-live', 'adopt'],
      ['update:rule:NDA/a1x', 'changed-in-files', 'adopt'],
    ]);
    expect(p.warnings.filter((w) => w.includes('is held'))).toEqual([
      'rule "NDA/a1x" (playbooks/nda.yaml:10) is held: the app renamed rule "NDA/a1"\'s object onto this name, which the files give a new rule, and its `drift: adopt` leaves that object as it is, so apply does not write "NDA/a1x" onto it. `docket pull` leaves a rename onto a name the files declare: give the new one another name in the files, or take off the `drift: adopt` that covers "NDA/a1" to have apply put it back',
    ]);
    // Without a policy the plan puts it back: the new rule made, the renamed one given the files' content.
    const reverting = plan([base[0]!, desiredRule(NDA.name, 'a1', { actions: 'ACCEPT a1' }), desiredRule(NDA.name, 'a1x', { actions: 'ACCEPT a1x new' })], [...baseLive, liveRule('r-1', NDA, 'a1x', { actions: 'ACCEPT a1' })], was);
    expect(reverting.changes.map((c) => c.id).sort()).toEqual(['create:rule:NDA/a1', 'update:rule:NDA/a1x']);
  });

  it('a playbook renamed in the app under drift: adopt onto a name the files give a new playbook with a rule of its own: the held rule\'s create names the warning it points to (probe OB-2)', () => {
    const adopt = (d: DesiredResource) => withPolicy(d, { drift: 'adopt' });
    const p1 = adopt(desiredPlaybook('P'));
    const r1 = adopt(desiredRule('P', 'r1', { actions: 'ACCEPT r1' }));
    const was = recorded([{ d: p1, id: 'pb-p' }, { d: r1, id: 'r-1' }]);
    const q = { ...desiredPlaybook('Q'), source: { file: 'playbooks/p.yaml', line: 8, col: 1 } };
    const p = plan([p1, r1, q, desiredRule('Q', 'q1', { actions: 'ACCEPT q1' })], [livePlaybook('pb-p', 'Q'), liveRule('r-1', { id: 'pb-p', name: 'Q' }, 'r1', { actions: 'ACCEPT r1' })], was);
    expect(p.changes).toEqual([]);
    expect(p.held?.map((c) => c.id)).toContain('create:rule:Q/q1');
    expect(p.warnings.filter((w) => w.includes('is held'))).toEqual([
      'playbook "Q" (playbooks/p.yaml:8) is held: the app renamed playbook "P"\'s object onto this name, which the files give a new playbook, and its `drift: adopt` leaves that object as it is, so apply does not write "Q" onto it. `docket pull` leaves a rename onto a name the files declare: give the new one another name in the files, or take off the `drift: adopt` that covers "P" to have apply put it back',
    ]);
  });

  it('the swap followed by hand in the files, then edited, reads as the files\' change until an apply records it', () => {
    const followed = [desiredRule(NDA.name, 'Beta', { actions: 'A, edited' }), desiredRule(NDA.name, 'Alpha', { actions: 'B' })];
    const p = plan([...base, ...followed], [...baseLive, liveRule('r-1', NDA, 'Beta', { actions: 'A' }), liveRule('r-2', NDA, 'Alpha', { actions: 'B' })], sync);
    expect(p.changes.map((c) => [c.id, c.direction, c.fields.map((f) => [f.field, f.direction])])).toEqual([['update:rule:NDA/Beta', 'changed-in-files', [['actions', 'files']]]]);
  });

  it('a pinned id takes the object over: read against its own record, whatever the name held', () => {
    const pinned = desiredRule(NDA.name, 'Alpha', { actions: 'A' }, { pinId: 'r-2' });
    const p = plan([...base, pinned, beta('B')], [...baseLive, liveRule('r-1', NDA, 'Gone', { actions: 'A' }), liveRule('r-2', NDA, 'Alpha', { actions: 'B' })], sync);
    const taken = p.changes.find((c) => c.key === 'NDA/Alpha');
    expect([taken?.direction, taken?.fields.map((f) => [f.field, f.direction])]).toEqual(['changed-in-files', [['actions', 'files']]]);
  });

  it('a rename in the files (renamed_from) still reads the renamed object against its own record', () => {
    const gamma = desiredRule(NDA.name, 'Gamma', { actions: 'A, edited' }, { renamedFrom: ['Alpha'] });
    const p = plan([...base, gamma, alpha('New'), beta('B')], [...baseLive, liveRule('r-1', NDA, 'Alpha', { actions: 'A' }), liveRule('r-2', NDA, 'Beta', { actions: 'B' })], sync);
    const renamed = p.changes.find((c) => c.key === 'NDA/Gamma' && c.action === 'update');
    expect([renamed?.direction, renamed?.fields.map((f) => [f.field, f.direction])]).toEqual(['changed-in-files', [['actions', 'files']]]);
  });
});

describe('drift policies', () => {
  it('places each part of a change a policy splits at its own first field: the files\' part at the field they change (probe EF-3)', () => {
    const fieldSources = { description: pos(8, 18), actions: pos(9, 14) };
    const filed = withPolicy(desiredRule(NDA.name, 'Term', { description: 'D', actions: 'ACCEPT 2' }, { fieldSources }), { drift: 'adopt' });
    const wasFiled = desiredRule(NDA.name, 'Term', { description: 'D', actions: 'ACCEPT' });
    const p = plan([...base, filed], [...baseLive, liveRule('r-1', NDA, 'Term', { description: 'D, edited live', actions: 'ACCEPT' })], synced(wasFiled));
    expect(p.changes.map((c) => [c.id, c.fields.map((f) => f.field), c.source?.line])).toEqual([['update:rule:NDA/Term', ['actions'], 9]]);
    expect(p.held?.map((c) => [c.id, c.fields.map((f) => f.field), c.source?.line])).toEqual([['update:rule:NDA/Term', ['description'], 8]]);
  });

  it('lists the live changes a policy holds by key, whatever order the service listed them in (probe EF-4)', () => {
    const names = ['made 2', 'made 10', 'made 1'];
    const live = names.map((n, i) => liveRule(`r-${i + 10}`, NDA, n, { actions: 'X' }));
    for (const order of [live, [...live].reverse()]) {
      const p = plan([withPolicy(base[0]!, { drift: 'adopt' }), term('ACCEPT')], [...baseLive, liveTerm('ACCEPT'), ...order], synced(term('ACCEPT')));
      expect(p.held?.map((c) => c.key)).toEqual(['NDA/made 1', 'NDA/made 10', 'NDA/made 2']);
    }
  });

  it('with no policy written, plan undoes the live edit (as revert does)', () => {
    const p = plan([...base, term('ACCEPT')], [...baseLive, liveTerm('REJECT')], synced(term('ACCEPT')));
    expect(p.changes.map((c) => c.id)).toEqual(['update:rule:NDA/Term']);
    expect(p.held).toBeUndefined();
  });

  it('adopt and ignore hold live edits back from the plan, keeping the file-side part of the same change', () => {
    for (const drift of ['adopt', 'ignore'] as const) {
      const sync = synced(term('ACCEPT', 'old note'));
      const p = plan([...base, withPolicy(term('REJECT', 'old note'), { drift })], [...baseLive, liveTerm('ACCEPT', 'reviewer note')], sync);
      expect(p.changes.map((c) => [c.id, c.fields.map((f) => f.field), c.direction])).toEqual([['update:rule:NDA/Term', ['actions'], 'changed-in-files']]);
      expect(p.held?.map((c) => [c.id, c.fields.map((f) => f.field), c.direction, c.policy])).toEqual([['update:rule:NDA/Term', ['internal_notes'], 'changed-live', drift]]);
    }
  });

  it('a rule renamed in the app, with a new one made under its old name, keeps the policy of the rule it was: its removal is held', () => {
    const d = withPolicy(term('ACCEPT'), { drift: 'ignore' });
    const moved = liveRule('r-1', NDA, 'Term 2025', { actions: 'ACCEPT' });
    const fresh = liveRule('r-2', NDA, 'Term', { actions: 'ACCEPT' });
    const p = plan([...base, d], [...baseLive, moved, fresh], synced(term('ACCEPT')));
    expect(p.changes.map((c) => [c.id, c.direction])).toEqual([]);
    expect(p.held?.map((c) => [c.id, c.direction, c.policy])).toEqual([['delete:rule:NDA/Term 2025', 'changed-live', 'ignore']]);
  });

  it("a playbook's policy covers the rules created and removed in the app", () => {
    const playbook = withPolicy(desiredPlaybook(NDA.name), { drift: 'adopt' });
    const gone = desiredRule(NDA.name, 'Law');
    const sync = recorded([{ d: playbook, id: NDA.id }, { d: gone, id: 'r-2' }]);
    const p = plan([playbook, withPolicy(gone, { drift: 'adopt' })], [...baseLive, liveRule('r-5', NDA, 'Made live')], sync);
    expect(p.changes).toEqual([]);
    expect(p.held?.map((c) => [c.id, c.direction])).toEqual([
      ['create:rule:NDA/Law', 'removed-live'],
      ['delete:rule:NDA/Made live', 'only-live'],
    ]);
  });

  it('ignore_fields are never compared', () => {
    const rule = withPolicy(term('ACCEPT', 'ours'), { ignoreFields: ['internal_notes'] });
    expect(plan([...base, rule], [...baseLive, liveTerm('ACCEPT', 'theirs')]).changes).toEqual([]);
  });
});

describe('drift policies and the files’ own changes', () => {
  it('a policy never holds back what is new in the files', () => {
    const playbook = withPolicy(desiredPlaybook(NDA.name), { drift: 'adopt' });
    const p = plan([playbook, withPolicy(desiredRule(NDA.name, 'New'), { drift: 'adopt' })], []);
    expect(p.changes.map((c) => [c.id, c.direction])).toEqual([
      ['create:playbook:NDA', 'only-in-files'],
      ['create:rule:NDA/New', 'only-in-files'],
    ]);
    expect(p.held).toBeUndefined();
  });

  it('a policy never holds back an object removed live that the files edited since: apply creates it again, with all its parent holds', () => {
    const playbook = withPolicy(desiredPlaybook(NDA.name), { drift: 'adopt' });
    const kept = withPolicy(desiredRule(NDA.name, 'Law', { actions: 'ACCEPT' }), { drift: 'adopt' });
    const edited = withPolicy(desiredRule(NDA.name, 'Term', { actions: 'ACCEPT 2 years' }), { drift: 'adopt' });
    const sync = recorded([
      { d: playbook, id: NDA.id },
      { d: kept, id: 'r-2' },
      { d: desiredRule(NDA.name, 'Term', { actions: 'ACCEPT 1 year' }), id: 'r-1' },
    ]);
    // The playbook was archived in the app; the files changed Term since the last sync.
    const p = plan([playbook, kept, edited], [], sync);
    expect(p.changes.map((c) => [c.id, c.direction])).toEqual([
      ['create:playbook:NDA', 'removed-live'],
      ['create:rule:NDA/Law', 'removed-live'],
      ['create:rule:NDA/Term', 'removed-live'],
    ]);
    expect(p.held).toBeUndefined();
    // Only Law removed live, untouched in the files: the policy holds it as ever.
    const alone = plan([playbook, kept, withPolicy(desiredRule(NDA.name, 'Term', { actions: 'ACCEPT 1 year' }), { drift: 'adopt' })], [...baseLive, liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT 1 year' })], sync);
    expect(alone.changes).toEqual([]);
    expect(alone.held?.map((c) => c.id)).toEqual(['create:rule:NDA/Law']);
  });

  it('a rule the files added to a playbook removed live under drift: adopt or ignore makes the playbook again, with all it holds: what the files change is applied (probe CG-1)', () => {
    for (const drift of ['adopt', 'ignore'] as const) {
      const playbook = withPolicy(desiredPlaybook(NDA.name), { drift });
      const first = withPolicy(desiredRule(NDA.name, 'F1', { actions: 'ACCEPT f1' }), { drift });
      const sync = recorded([{ d: playbook, id: NDA.id }, { d: first, id: 'r-1' }]);
      const p = plan([playbook, first, withPolicy(desiredRule(NDA.name, 'F2', { actions: 'ACCEPT f2' }), { drift })], [], sync);
      expect(p.changes.map((c) => [c.id, c.direction]), drift).toEqual([
        ['create:playbook:NDA', 'removed-live'],
        ['create:rule:NDA/F1', 'removed-live'],
        ['create:rule:NDA/F2', 'only-in-files'],
      ]);
      expect(p.held, drift).toBeUndefined();
      // Without the new rule, the removal is live's, and the policy holds it.
      expect(plan([playbook, first], [], sync).changes, drift).toEqual([]);
    }
  });

  it('a playbook removed live under drift: adopt is made again for a rule of it whose own policy pull keeps in the files (revert, ignore): pull leaves it, so apply must (probe HE)', () => {
    const playbook = withPolicy(desiredPlaybook(NDA.name), { drift: 'adopt' });
    const adopted = withPolicy(desiredRule(NDA.name, 'Law'), { drift: 'adopt' });
    for (const own of ['revert', 'ignore'] as const) {
      const keeps = withPolicy(desiredRule(NDA.name, 'Term'), { drift: own });
      const sync = recorded([{ d: playbook, id: NDA.id }, { d: adopted, id: 'r-2' }, { d: keeps, id: 'r-1' }]);
      const p = plan([playbook, adopted, keeps], [], sync);
      expect(p.changes.map((c) => c.id), own).toEqual(['create:playbook:NDA', 'create:rule:NDA/Law', ...(own === 'revert' ? ['create:rule:NDA/Term'] : [])]);
      expect(p.held?.map((c) => [c.id, c.policy]), own).toEqual(own === 'ignore' ? [['create:rule:NDA/Term', 'ignore']] : undefined);
      // The playbook still live: each rule's removal is its own policy's.
      const live = plan([playbook, adopted, keeps], baseLive, sync);
      expect(live.changes.map((c) => c.id), own).toEqual(own === 'revert' ? ['create:rule:NDA/Term'] : []);
      expect(live.held?.map((c) => [c.id, c.policy]), own).toEqual([['create:rule:NDA/Law', 'adopt'], ...(own === 'ignore' ? [['create:rule:NDA/Term', 'ignore']] : [])]);
    }
  });

  it('a rule held with its playbook is held under the playbook\'s policy, not its own', () => {
    const playbook = withPolicy(desiredPlaybook(NDA.name), { drift: 'ignore' });
    const reverted = withPolicy(desiredRule(NDA.name, 'Term'), { drift: 'revert' });
    const sync = recorded([{ d: playbook, id: NDA.id }, { d: reverted, id: 'r-1' }]);
    const p = plan([playbook, reverted], [], sync);
    expect(p.changes).toEqual([]);
    expect(p.held?.map((c) => [c.id, c.policy])).toEqual([['create:playbook:NDA', 'ignore'], ['create:rule:NDA/Term', 'ignore']]);
  });
});

describe('childrenEditedInFiles', () => {
  it('finds every child the files changed, one renamed in the files first among them, from a map\'s values as from a list (second read)', () => {
    const b1 = desiredRule(NDA.name, 'b1');
    const b2 = desiredRule(NDA.name, 'b2');
    const sync = recorded([{ d: b1, id: 'r-1' }, { d: b2, id: 'r-2' }]);
    // A new rule named from a name never synced, listed first (added in the files: probe LK-1); b2
    // edited in the files since; b1 as synced.
    const renamed = desiredRule(NDA.name, 'n1', {}, { renamedFrom: ['ghost'] });
    const declared = [renamed, b1, desiredRule(NDA.name, 'b2', { actions: 'REJECT everything' })];
    const byKey = new Map(declared.map((d) => [`${d.kind}:${d.key}`, d]));
    for (const desired of [declared, byKey.values()]) expect(childrenEditedInFiles(desired, sync, `playbook:${NDA.name}`).map((d) => d.key)).toEqual([`${NDA.name}/n1`, `${NDA.name}/b2`]);
  });
});
