import { describe, expect, it } from 'vitest';
import { diff, fingerprint } from '../../../src/engine/diff.js';
import { childInTargets } from '../../../src/engine/target.js';
import { KINDS } from '../../../src/kinds/index.js';
import type { KindMeta, RecordedIds } from '../../../src/engine/diff.js';
import type { Change, DesiredResource, LiveResource } from '../../../src/engine/types.js';
import {
  KIND_META,
  desiredMember,
  desiredOrganization,
  desiredPlaybook,
  desiredRule,
  liveMember,
  liveOrganization,
  livePlaybook,
  liveRule,
  pos,
} from './builders.js';

function run(desired: DesiredResource[], live: LiveResource[], prune: Record<string, boolean> = {}) {
  return diff({ kinds: KIND_META, desired, live, prune });
}

/** Sync records as diff asks them, from `kind:key` → live id. */
function recorded(records: Record<string, string>): RecordedIds {
  return { idOf: (kindKey) => records[kindKey], keysWithId: (id) => Object.keys(records).filter((k) => records[k] === id) };
}

function ids(changes: Change[]): string[] {
  return changes.map((c) => c.id).sort();
}

function only(changes: Change[], id: string): Change {
  const found = changes.filter((c) => c.id === id);
  expect(found, `exactly one change ${id} in ${ids(changes).join(', ')}`).toHaveLength(1);
  return found[0]!;
}

const NDA = { id: 'pb-1', name: 'Inbound NDA' };

describe('diff: creates', () => {
  it('creates a playbook and its rules that do not exist live', () => {
    const { changes, diagnostics } = run(
      [desiredPlaybook('Inbound NDA', { description: 'NDAs we receive' }), desiredRule('Inbound NDA', 'Term', { actions: 'ACCEPT 3 years' })],
      [],
    );
    expect(diagnostics.items).toEqual([]);
    expect(ids(changes)).toEqual(['create:playbook:Inbound NDA', 'create:rule:Inbound NDA/Term']);

    const playbook = only(changes, 'create:playbook:Inbound NDA');
    expect(playbook.liveId).toBeUndefined();
    expect(playbook.fingerprint).toBeNull();
    expect(playbook.fields).toEqual([
      { field: 'name', before: null, after: 'Inbound NDA' },
      { field: 'description', before: null, after: 'NDAs we receive' },
    ]);

    const rule = only(changes, 'create:rule:Inbound NDA/Term');
    expect(rule.parent).toEqual({ kind: 'playbook', key: 'Inbound NDA', liveId: undefined });
    // Null (omitted) fields are not shown as "+ field: null" but are still part of what is sent;
    // `generate_summary` unwritten is not sent, so not shown either (probe MK-1).
    expect(rule.fields.map((f) => f.field)).toEqual(['name', 'actions']);
    const stated = run([desiredPlaybook('Inbound NDA'), { ...desiredRule('Inbound NDA', 'Term', { actions: 'A' }), payload: { generate_summary_stated: true } }], []).changes;
    expect(only(stated, 'create:rule:Inbound NDA/Term').fields.map((f) => f.field)).toEqual(['name', 'actions', 'generate_summary']);
    expect(rule.desired).toMatchObject({ description: null, reviewer: null, actions: 'ACCEPT 3 years' });
  });

  it('creates a rule inside an existing playbook with the playbook id as parent', () => {
    const { changes } = run([desiredPlaybook('Inbound NDA'), desiredRule('Inbound NDA', 'Term')], [livePlaybook(NDA.id, NDA.name)]);
    expect(ids(changes)).toEqual(['create:rule:Inbound NDA/Term']);
    expect(changes[0]!.parent).toEqual({ kind: 'playbook', key: 'Inbound NDA', liveId: 'pb-1' });
  });
});

describe('diff: no phantom diffs', () => {
  it('plans nothing when desired and live are equal', () => {
    const { changes, undeclared, diagnostics } = run(
      [
        desiredOrganization({ 'review.name': 'Acme Legal', 'review.default_reviewer': 'alice@acme.example' }),
        desiredMember('alice@acme.example'),
        desiredPlaybook('Inbound NDA', { description: 'x' }),
        desiredRule('Inbound NDA', 'Term', { actions: 'ACCEPT', reviewer: 'alice@acme.example' }),
      ],
      [
        liveOrganization('org-1', { 'review.name': 'Acme Legal', 'review.default_reviewer': 'alice@acme.example' }),
        liveMember('u-1', 'alice@acme.example'),
        livePlaybook(NDA.id, NDA.name, 'x'),
        liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT', reviewer: 'alice@acme.example' }),
      ],
    );
    expect(diagnostics.items).toEqual([]);
    expect(changes).toEqual([]);
    expect(undeclared).toEqual([]);
  });

  it("refuses a member pinned to another user's id in drift and pull too, at its `id:`: a member only ever invited has no change to hold (probe LB-1)", () => {
    const ghost = { ...desiredMember('ghost@acme.example'), pinId: 'u-1', fieldSources: { id: { file: 'members.yaml', line: 3, col: 5 } } };
    for (const readOnly of [false, true]) {
      const result = diff({ kinds: KIND_META, desired: [ghost], live: [liveMember('u-1', 'qa@acme.example')], prune: {}, ...(readOnly ? { readOnly } : {}) });
      expect(result.diagnostics.items.map((d) => [d.severity, d.code, d.line, d.message]), String(readOnly)).toEqual([
        ['error', 'unsupported-change', 3, 'member "ghost@acme.example" is pinned to the id of the user "qa@acme.example"; a member\'s e-mail cannot be changed'],
      ]);
    }
  });

  it('does not show a member as new when only the e-mail case differs', () => {
    // Desired e-mails are lowercased by the kind; live ones by fetch.
    const { changes } = run([desiredMember('Alice@ACME.example')], [liveMember('u-1', 'alice@acme.example')]);
    expect(changes).toEqual([]);
  });

  it('ignores key order inside field values', () => {
    const desired = desiredPlaybook('P', { fields: { meta: { a: 1, b: 2 } } });
    const live = livePlaybook('pb-1', 'P');
    live.fields.meta = { b: 2, a: 1 };
    expect(run([desired], [live]).changes).toEqual([]);
  });
});

describe('diff: updates', () => {
  it('lists only the fields that changed, with before and after', () => {
    const { changes } = run(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Term', { actions: 'ACCEPT 2 years', description: 'How long', questions: 'Term?' })],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT 3 years', description: 'How long', questions: null })],
    );
    expect(ids(changes)).toEqual(['update:rule:Inbound NDA/Term']);
    const update = changes[0]!;
    expect(update.fields).toEqual([
      { field: 'actions', before: 'ACCEPT 3 years', after: 'ACCEPT 2 years' },
      { field: 'questions', before: null, after: 'Term?' },
    ]);
    expect(update.liveId).toBe('r-1');
    expect(update.parent).toEqual({ kind: 'playbook', key: NDA.name, liveId: NDA.id });
    expect(update.fingerprint).toMatch(/^[0-9a-f]{16}$/);
  });

  it('clearing a text field is an update to null, sent as the kind clears it (a playbook\'s description as `""`, probe PK-3)', () => {
    const { changes } = run([desiredPlaybook(NDA.name, { description: null })], [livePlaybook(NDA.id, NDA.name, 'old text')]);
    expect(only(changes, 'update:playbook:Inbound NDA').fields).toEqual([{ field: 'description', before: 'old text', after: null, sent: '' }]);
  });

  it('carries only the references of changed fields', () => {
    const { changes } = run(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Term', { reviewer: 'bob@acme.example', description: 'new' })],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Term', { reviewer: 'bob@acme.example' })],
    );
    const update = only(changes, 'update:rule:Inbound NDA/Term');
    expect(update.fields.map((f) => f.field)).toEqual(['description']);
    expect(update.refs).toEqual([]);
  });
});

describe('diff: organization (partial)', () => {
  const live = liveOrganization('org-1', { 'review.name': 'Acme', 'review.default_reviewer': 'alice@acme.example' });

  it('compares only the keys the file declares', () => {
    const { changes } = run([desiredOrganization({ 'review.name': 'Acme Legal' })], [live]);
    expect(ids(changes)).toEqual(['update:organization:organization']);
    expect(changes[0]!.fields).toEqual([{ field: 'review.name', before: 'Acme', after: 'Acme Legal' }]);
  });

  it('declares nothing, changes nothing', () => {
    expect(run([desiredOrganization({})], [live]).changes).toEqual([]);
  });

  it('a default reviewer change references the member', () => {
    const { changes } = run([desiredOrganization({ 'review.default_reviewer': 'bob@acme.example' })], [live]);
    const update = only(changes, 'update:organization:organization');
    expect(update.fields).toEqual([{ field: 'review.default_reviewer', before: 'alice@acme.example', after: 'bob@acme.example' }]);
    expect(update.refs.map((r) => `${r.kind}:${r.key}`)).toEqual(['member:bob@acme.example']);
  });

  it('is never created: a missing live organization is an error', () => {
    const { changes, diagnostics } = run([desiredOrganization({ 'review.name': 'Acme' })], []);
    expect(changes).toEqual([]);
    expect(diagnostics.errors.map((d) => d.code)).toEqual(['missing-singleton']);
  });
});

describe('diff: members', () => {
  it('invites a missing member, sending the create-only name', () => {
    const { changes } = run([desiredMember('bob@acme.example', 'Bob Jones')], []);
    expect(ids(changes)).toEqual(['invite:member:bob@acme.example']);
    const invite = changes[0]!;
    expect(invite.action).toBe('invite');
    expect(invite.fields).toEqual([
      { field: 'email', before: null, after: 'bob@acme.example' },
      { field: 'name', before: null, after: 'Bob Jones' },
    ]);
    expect(invite.desired).toEqual({ email: 'bob@acme.example', name: 'Bob Jones' });
  });

  it('never deletes members and counts the undeclared ones', () => {
    const { changes, undeclared } = run(
      [desiredMember('alice@acme.example')],
      [liveMember('u-1', 'alice@acme.example'), liveMember('u-2', 'zed@acme.example'), liveMember('u-3', 'bob@acme.example')],
      { playbooks: true },
    );
    expect(changes).toEqual([]);
    expect(undeclared).toEqual([{ kind: 'member', count: 2, names: ['bob@acme.example', 'zed@acme.example'], reason: expect.any(String), quiet: true }]);
  });

  it('says an undeclared object holding a declared name is not the one its file pins by id (probe GU)', () => {
    const { changes, undeclared } = run([desiredPlaybook('NDA', { pinId: 'pb-2' })], [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA'), livePlaybook('pb-3', 'MSA')]);
    expect(changes).toEqual([]);
    expect(undeclared).toEqual([
      { kind: 'playbook', count: 2, names: ['MSA', 'NDA'], prunable: true, reason: 'prune is off: set prune.playbooks or pass --prune to archive them; "NDA" is another playbook than the one the files declare by that name, which its file pins by `id:`' },
    ]);
  });

  it('archives an object holding a declared name (another than the one pinned) and two of one name each by its own change, named by its live id (probes YE-1, YE-2)', () => {
    const { changes } = run([desiredPlaybook('NDA', { pinId: 'pb-2' })], [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA'), livePlaybook('pb-3', 'Twin'), livePlaybook('pb-4', 'Twin'), livePlaybook('pb-5', 'MSA')], { playbooks: true });
    expect(changes.map((c) => [c.id, c.liveId, c.namesake])).toEqual([
      ['archive:playbook:NDA', 'pb-1', true],
      ['archive:playbook:Twin@pb-3', 'pb-3', true],
      ['archive:playbook:Twin@pb-4', 'pb-4', true],
      ['archive:playbook:MSA', 'pb-5', undefined],
    ]);
  });

  it('a changed create-only name never shows as a change', () => {
    expect(run([desiredMember('bob@acme.example', 'Robert')], [liveMember('u-2', 'bob@acme.example')]).changes).toEqual([]);
  });
});

describe('diff: renames', () => {
  it('renamed_from renames the live object in place', () => {
    const { changes } = run([desiredPlaybook('Inbound NDA v2', { renamedFrom: ['Inbound NDA'] })], [livePlaybook(NDA.id, NDA.name)]);
    expect(ids(changes)).toEqual(['rename:playbook:Inbound NDA v2']);
    const rename = changes[0]!;
    expect(rename.liveId).toBe(NDA.id);
    expect(rename.fields).toEqual([{ field: 'name', before: 'Inbound NDA', after: 'Inbound NDA v2' }]);
  });

  it('tries each old name in turn', () => {
    const { changes } = run([desiredPlaybook('C', { renamedFrom: ['A', 'B'] })], [livePlaybook('pb-b', 'B')]);
    expect(ids(changes)).toEqual(['rename:playbook:C']);
    expect(changes[0]!.liveId).toBe('pb-b');
  });

  it('of several former names, takes the object synced under one of them, not one made in the app since under an earlier-listed name (probe JQ-1)', () => {
    const desired = [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Duration', {}, { renamedFrom: ['Length', 'Term'] })];
    const live = [livePlaybook(NDA.id, NDA.name), liveRule('r-app', NDA, 'Length'), liveRule('r-synced', NDA, 'Term')];
    const records: Record<string, string> = { [`playbook:${NDA.name}`]: NDA.id, [`rule:${NDA.name}/Term`]: 'r-synced' };
    const { changes } = diff({ kinds: KIND_META, desired, live, prune: {}, records: recorded(records) });
    expect(only(changes, 'rename:rule:Inbound NDA/Duration').liveId).toBe('r-synced');
    // The rule made in the app is no file's: deleted as any rule the playbook no longer lists, not renamed over the synced one.
    expect(only(changes, 'delete:rule:Inbound NDA/Length').liveId).toBe('r-app');
    // With no record (no lock), the list's order decides, as before.
    expect(only(run(desired, live).changes, 'rename:rule:Inbound NDA/Duration').liveId).toBe('r-app');
  });

  it('of one former name, takes the object synced under it, renamed otherwise in the app, not one made there since under that name (probe KU-2)', () => {
    const desired = [desiredPlaybook('Vendor Agreements', { renamedFrom: ['Vendor MSA'] })];
    const live = [livePlaybook('pb-synced', 'Vendor MSA (old)'), livePlaybook('pb-app', 'Vendor MSA')];
    const records: Record<string, string> = { 'playbook:Vendor MSA': 'pb-synced' };
    const { changes } = diff({ kinds: KIND_META, desired, live, prune: {}, records: recorded(records) });
    const rename = only(changes, 'rename:playbook:Vendor Agreements');
    expect(rename.liveId).toBe('pb-synced');
    expect(rename.fields).toEqual([{ field: 'name', before: 'Vendor MSA (old)', after: 'Vendor Agreements' }]);
    // With no record (no lock), the holder of the former name is all there is to go by.
    expect(only(run(desired, live).changes, 'rename:playbook:Vendor Agreements').liveId).toBe('pb-app');
  });

  it('names the other document of a duplicate pin, and the id a pin stands for now (probe KS-2)', () => {
    // Pinned to X, replaced since by the upload Y (its lock entry records `pinned: X`); another document pins Y.
    const live = [{ ...livePlaybook('pb-y', 'Security'), pinnedAs: ['pb-x'] }];
    const { diagnostics } = run([desiredPlaybook('Ghost', { pinId: 'pb-y' }), desiredPlaybook('Security', { pinId: 'pb-x' })], live);
    expect(diagnostics.errors.map((d) => [d.code, d.message])).toEqual([
      ['duplicate-pin', 'playbook "Security" pins id "pb-x", which is "pb-y" now (docket.lock.json records the upload that replaced it), and playbook "Ghost" (playbooks/nda.yaml:1) pins that id too'],
    ]);
  });

  it('a rename with other changes is a rename plus an update that depends on it', () => {
    const { changes } = run(
      [desiredPlaybook('Inbound NDA v2', { renamedFrom: ['Inbound NDA'], description: 'new' })],
      [livePlaybook(NDA.id, NDA.name, 'old')],
    );
    expect(ids(changes)).toEqual(['rename:playbook:Inbound NDA v2', 'update:playbook:Inbound NDA v2']);
    const update = only(changes, 'update:playbook:Inbound NDA v2');
    expect(update.fields).toEqual([{ field: 'description', before: 'old', after: 'new' }]);
    expect(update.dependsOn).toEqual(['rename:playbook:Inbound NDA v2']);
  });

  it('renames a rule inside its playbook', () => {
    const { changes } = run(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Duration', {}, { renamedFrom: ['Term'] })],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Term')],
    );
    expect(ids(changes)).toEqual(['rename:rule:Inbound NDA/Duration']);
    expect(changes[0]!.liveId).toBe('r-1');
    expect(changes[0]!.fields).toEqual([{ field: 'name', before: 'Term', after: 'Duration' }]);
  });

  it('renamed_from wins over a new resource that takes the old name (rename A→B, then create A)', () => {
    const { changes, diagnostics } = run(
      [desiredPlaybook('NDA (legacy)', { renamedFrom: ['NDA'] }), desiredPlaybook('NDA', { description: 'the new one' })],
      [livePlaybook('pb-1', 'NDA')],
    );
    expect(diagnostics.items).toEqual([]);
    expect(ids(changes)).toEqual(['create:playbook:NDA', 'rename:playbook:NDA (legacy)']);
    expect(only(changes, 'rename:playbook:NDA (legacy)').liveId).toBe('pb-1');
  });

  it('does not rename once the new name exists live (a converged rename plans nothing)', () => {
    const { changes, undeclared } = run(
      [desiredPlaybook('NDA (legacy)', { renamedFrom: ['NDA'] }), desiredPlaybook('NDA')],
      [livePlaybook('pb-1', 'NDA (legacy)'), livePlaybook('pb-2', 'NDA')],
    );
    expect(changes).toEqual([]);
    expect(undeclared).toEqual([]);
  });

  it('a stale renamed_from whose old name is still live elsewhere is left alone', () => {
    const { changes, undeclared } = run([desiredPlaybook('B', { renamedFrom: ['A'] })], [livePlaybook('pb-1', 'A'), livePlaybook('pb-2', 'B')]);
    expect(changes).toEqual([]);
    expect(undeclared).toEqual([expect.objectContaining({ names: ['A'] })]);
  });

  it('matches the rules of a renamed playbook and keys them by the new name', () => {
    const { changes, ids: known } = run(
      [
        desiredPlaybook('NDA 2025', { renamedFrom: [NDA.name] }),
        desiredRule('NDA 2025', 'Term', { actions: 'ACCEPT 2 years' }),
        desiredRule('NDA 2025', 'Law'),
      ],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT 3 years' }), liveRule('r-2', NDA, 'Law'), liveRule('r-3', NDA, 'Gone')],
    );
    expect(ids(changes)).toEqual(['delete:rule:NDA 2025/Gone', 'rename:playbook:NDA 2025', 'update:rule:NDA 2025/Term']);
    expect(only(changes, 'update:rule:NDA 2025/Term').liveId).toBe('r-1');
    expect(only(changes, 'delete:rule:NDA 2025/Gone').parent).toEqual({ kind: 'playbook', key: 'NDA 2025', liveId: NDA.id });
    expect(known['rule:NDA 2025/Law']).toBe('r-2');
    expect(known['playbook:NDA 2025']).toBe(NDA.id);
  });
});

describe('diff: pins and ambiguity', () => {
  it('a pinned id wins over a name match', () => {
    const { changes, undeclared } = run(
      [desiredPlaybook('NDA', { pinId: 'pb-2' })],
      [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'Old NDA')],
    );
    expect(ids(changes)).toEqual(['rename:playbook:NDA']);
    expect(changes[0]!.liveId).toBe('pb-2');
    expect(undeclared).toEqual([expect.objectContaining({ kind: 'playbook', count: 1, names: ['NDA'] })]);
  });

  it('a pinned id that does not exist live is an error at the resource', () => {
    const { diagnostics } = run([desiredPlaybook('NDA', { pinId: 'pb-missing', source: pos(7, 1, 'playbooks/x.yaml') })], [livePlaybook('pb-1', 'NDA')]);
    expect(diagnostics.errors).toEqual([
      expect.objectContaining({ code: 'pinned-id-not-found', file: 'playbooks/x.yaml', line: 7, message: expect.stringContaining('pb-missing') }),
    ]);
    // Compared in lower case, quoted as the file writes it.
    const capitals = { ...desiredPlaybook('NDA', { pinId: 'pb-missing' }), pinIdWritten: 'PB-Missing' };
    const written = run([capitals], [livePlaybook('pb-1', 'NDA')]);
    expect(written.diagnostics.errors[0]!.message).toContain('pinned to id "PB-Missing", which no live playbook has (it does not exist, or was archived)');
    // A rule is deleted, never archived: said as an id of elsewhere, a typo, or one removed (probe KA-4).
    const rule = run([desiredPlaybook(NDA.name), { ...desiredRule(NDA.name, 'Term'), pinId: 'r-missing' }], [livePlaybook(NDA.id, NDA.name)]);
    expect(rule.diagnostics.errors[0]!.message).toContain('which no live rule has (an id of another organization or environment, a mistyped one, or one removed in the app, unless it is a rule of a playbook no file declares, which docket does not read)');
    // A member is never archived: an id that names none here is another organization's, or a typo.
    const member = run([{ ...desiredMember('bob@acme.example'), pinId: 'u-missing' }], [liveMember('u-1', 'bob@acme.example')]);
    expect(member.diagnostics.errors[0]).toMatchObject({
      message: 'member "bob@acme.example" is pinned to id "u-missing", which no live member has (an id of another organization or environment, or a mistyped one)',
      hint: 'remove the `id:` line (an id exported from another organization names nothing here), or correct the id',
    });
  });

  it('renamed_from when both names are live: the file\'s name is matched, the former left alone, and a warning says so', () => {
    const d = desiredPlaybook('NDA 2025', { renamedFrom: ['NDA'], fieldSources: { renamed_from: pos(3, 15, 'playbooks/nda.yaml') } });
    const { changes, diagnostics } = run([d], [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA 2025')]);
    expect(ids(changes)).toEqual([]);
    // A rename A→B, then a new A: both live and both declared, which is no reason to warn.
    const after = run([d, desiredPlaybook('NDA')], [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA 2025')]);
    expect(after.diagnostics.items).toEqual([]);
    expect(diagnostics.warnings).toEqual([
      expect.objectContaining({
        code: 'rename-target-live',
        line: 3,
        col: 15,
        message: 'playbook "NDA 2025" says it was renamed from "NDA", but both are live: docket matches the live "NDA 2025" and leaves "NDA" as it is',
      }),
    ]);
  });

  it('renamed_from naming a live rule under a playbook that adopts drift: one made in the app is left, one synced under that name is deleted, and the warning says which (probe PH-2)', () => {
    const playbook = { ...desiredPlaybook(NDA.name), policy: { drift: 'adopt' as const } };
    const a = desiredRule(NDA.name, 'a', {}, { renamedFrom: ['b'] });
    const live = [livePlaybook(NDA.id, NDA.name), liveRule('r-a', NDA, 'a'), liveRule('r-b', NDA, 'b')];
    const made = diff({ kinds: KIND_META, desired: [playbook, a], live, prune: {}, records: recorded({ [`rule:${NDA.name}/a`]: 'r-a' }) });
    expect(made.diagnostics.warnings.map((w) => w.message)).toEqual(['rule "a" says it was renamed from "b", but both are live: docket matches the live "a" and leaves "b" as it is']);
    const synced = diff({ kinds: KIND_META, desired: [playbook, a], live, prune: {}, records: recorded({ [`rule:${NDA.name}/a`]: 'r-a', [`rule:${NDA.name}/b`]: 'r-b' }) });
    expect(synced.diagnostics.warnings.map((w) => [w.message, w.hint])).toEqual([['rule "a" says it was renamed from "b", but both are live: docket matches the live "a" and deletes "b", which no file declares', 'remove "b" from `renamed_from`, or declare it to keep it']]);
    expect(ids(synced.changes)).toContain(`delete:rule:${NDA.name}/b`);
  });

  it('a playbook created with no description sends and shows none (probe PK-3)', () => {
    const created = run([desiredPlaybook('New', { description: null })], []);
    expect(created.changes[0]!.fields.map((f) => f.field)).toEqual(['name']);
  });

  it('a pinned document whose renamed_from names another live object: the pin decides, and the warning says what happens to the other (probe PH-3)', () => {
    const d = desiredPlaybook('N2', { pinId: 'pb-m', renamedFrom: ['N'], fieldSources: { renamed_from: pos(4, 16, 'playbooks/m.yaml') } });
    const live = [livePlaybook('pb-m', 'M'), livePlaybook('pb-n', 'N')];
    const left = run([d], live);
    expect(left.changes.map((c) => [c.action, c.liveId])).toEqual([['rename', 'pb-m']]);
    expect(left.diagnostics.warnings).toEqual([
      expect.objectContaining({ code: 'rename-target-live', line: 4, col: 16, message: 'playbook "N2" is pinned by `id:` to live "M" and says it was renamed from "N", live as another object: the pin decides, and docket leaves "N" as it is' }),
    ]);
    const pruned = run([d], live, { playbooks: true });
    expect(pruned.diagnostics.warnings.map((w) => [w.message, w.hint])).toEqual([['playbook "N2" is pinned by `id:` to live "M" and says it was renamed from "N", live as another object: the pin decides, and docket archives "N", which no file declares', 'remove "N" from `renamed_from`, or declare it to keep it']]);
    // A rule's is deleted, as any its playbook no longer lists.
    const rule = desiredRule(NDA.name, 'c', {}, { pinId: 'r-a', renamedFrom: ['b'] });
    const rules = run([desiredPlaybook(NDA.name), rule], [livePlaybook(NDA.id, NDA.name), liveRule('r-a', NDA, 'a'), liveRule('r-b', NDA, 'b')]);
    expect(rules.diagnostics.warnings.map((w) => w.message)).toEqual(['rule "c" is pinned by `id:` to live "a" and says it was renamed from "b", live as another object: the pin decides, and docket deletes "b", which no file declares']);
    // Renamed from the pinned one's own name, or from a name another file declares: nothing to say.
    expect(run([{ ...d, renamedFrom: ['M'] }], live).diagnostics.warnings).toEqual([]);
    expect(run([d, desiredPlaybook('N')], live).diagnostics.warnings).toEqual([]);
  });

  it('of several former names live as different objects, renames the first and says it leaves the others (probe LR-4)', () => {
    const d = desiredPlaybook('Merged', { renamedFrom: ['Old A', 'Old B'], fieldSources: { renamed_from: pos(3, 15, 'playbooks/p.yaml') } });
    const { changes, diagnostics } = run([d], [livePlaybook('pb-1', 'Old A'), livePlaybook('pb-2', 'Old B')]);
    expect(changes.map((c) => [c.action, c.liveId])).toEqual([['rename', 'pb-1']]);
    expect(diagnostics.warnings).toEqual([
      expect.objectContaining({ code: 'renamed-from-several-live', message: 'playbook "Merged" lists "Old B" in renamed_from, live as another object than the one it renames ("Old A"): docket leaves it as it is' }),
    ]);
    // Under --prune the other is archived, and the warning says so (probe AD-1).
    const pruned = run([d], [livePlaybook('pb-1', 'Old A'), livePlaybook('pb-2', 'Old B')], { playbooks: true });
    expect(pruned.changes.map((c) => [c.action, c.liveId, c.namesake ?? false])).toEqual([['rename', 'pb-1', false], ['archive', 'pb-2', false]]);
    expect(pruned.diagnostics.warnings.map((w) => [w.message, w.hint])).toEqual([
      [
        'playbook "Merged" lists "Old B" in renamed_from, live as another object than the one it renames ("Old A"): this plan archives it, as no file declares it',
        'one object is renamed into "Merged": keep in `renamed_from` only the names it had; to keep "Old B", declare it in a file',
      ],
    ]);
    // A rule's is deleted, as any its playbook no longer lists.
    const rule = desiredRule(NDA.name, 'c', {}, { renamedFrom: ['a', 'b'] });
    const rules = run([desiredPlaybook(NDA.name), rule], [livePlaybook(NDA.id, NDA.name), liveRule('r-a', NDA, 'a'), liveRule('r-b', NDA, 'b')]);
    expect(rules.changes.map((c) => [c.action, c.liveId])).toEqual([['rename', 'r-a'], ['delete', 'r-b']]);
    expect(rules.diagnostics.warnings.map((w) => w.message)).toEqual(['rule "c" lists "b" in renamed_from, live as another object than the one it renames ("a"): this plan deletes it, as no file declares it']);
    // Cut to --target, the plan archives no playbook outside them: said so (second read SR99-2).
    const cut = diff({ kinds: KIND_META, desired: [d], live: [livePlaybook('pb-1', 'Old A'), livePlaybook('pb-2', 'Old B')], prune: { playbooks: true }, hold: { sends: (x) => x.key === 'Merged', unsent: [] } });
    expect(cut.diagnostics.warnings.map((w) => w.message)).toEqual(['playbook "Merged" lists "Old B" in renamed_from, live as another object than the one it renames ("Old A"): docket leaves it as it is in this plan, cut to its targets (one without --target archives it)']);
    // A target naming that one (`--prune --target playbook/"Old B"`) archives it: said so (probe BG-1).
    const named = diff({ kinds: KIND_META, desired: [d], live: [livePlaybook('pb-1', 'Old A'), livePlaybook('pb-2', 'Old B')], prune: { playbooks: true }, hold: { sends: childInTargets(['playbook/Old B'], KINDS), unsent: [] } });
    expect(named.diagnostics.warnings.map((w) => w.message)).toEqual(['playbook "Merged" lists "Old B" in renamed_from, live as another object than the one it renames ("Old A"): this plan archives it, as no file declares it']);
    // A rule's is deleted only where a target names it or its playbook, not another rule of it (probe BG-1),
    // under the key the declared playbook gives it, renamed in the files or not (second read SR100-1).
    const ruleCut = (targets: string[], playbook = NDA.name) =>
      diff({
        kinds: KIND_META,
        desired: [desiredPlaybook(playbook, playbook === NDA.name ? {} : { renamedFrom: [NDA.name] }), desiredRule(playbook, 'c', {}, { renamedFrom: ['a', 'b'] })],
        live: [livePlaybook(NDA.id, NDA.name), liveRule('r-a', NDA, 'a'), liveRule('r-b', NDA, 'b')],
        prune: {},
        hold: { sends: childInTargets(targets, KINDS), unsent: [] },
      }).diagnostics.warnings.map((w) => w.message);
    const leaves = 'rule "c" lists "b" in renamed_from, live as another object than the one it renames ("a"): docket leaves it as it is in this plan, cut to its targets (one without --target deletes it)';
    const deletes = 'rule "c" lists "b" in renamed_from, live as another object than the one it renames ("a"): this plan deletes it, as no file declares it';
    expect(ruleCut([`rule/${NDA.name}/c`])).toEqual([leaves]);
    expect(ruleCut([`rule/${NDA.name}/b`])).toEqual([deletes]);
    expect(ruleCut([`playbook/${NDA.name}`])).toEqual([deletes]);
    expect(ruleCut(['playbook/New NDA'], 'New NDA')).toEqual([deletes]);
    // A playbook whose name starts as this one's does (`Inbound NDA/X`) is another (probe GF).
    expect(ruleCut([`playbook/${NDA.name}/X`])).toEqual([leaves]);
    // Uncut, a rule kept by its playbook's drift policy is left as it is, no word of targets (second read SR100-2).
    const adopted = diff({
      kinds: KIND_META,
      desired: [{ ...desiredPlaybook(NDA.name), policy: { drift: 'adopt' } }, desiredRule(NDA.name, 'c', {}, { renamedFrom: ['a', 'b'] })],
      live: [livePlaybook(NDA.id, NDA.name), liveRule('r-a', NDA, 'a'), liveRule('r-b', NDA, 'b')],
      prune: {},
    });
    expect(adopted.diagnostics.warnings.map((w) => w.message)).toEqual(['rule "c" lists "b" in renamed_from, live as another object than the one it renames ("a"): docket leaves it as it is']);
    // One another document's record takes (pass 4) is that one's: nothing to say of it (second read SR99-2).
    const taken = diff({
      kinds: KIND_META,
      desired: [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'c', {}, { renamedFrom: ['a', 'b'] }), desiredRule(NDA.name, 'X')],
      live: [livePlaybook(NDA.id, NDA.name), liveRule('r-a', NDA, 'a'), liveRule('r-b', NDA, 'b')],
      prune: {},
      records: recorded({ [`rule:${NDA.name}/X`]: 'r-b' }),
    });
    expect(taken.changes.map((c) => [c.action, c.key, c.liveId])).toEqual([['rename', `${NDA.name}/c`, 'r-a'], ['rename', `${NDA.name}/X`, 'r-b']]);
    expect(taken.diagnostics.warnings).toEqual([]);
    // One of them live only, or the other declared by a file: nothing to say.
    expect(run([d], [livePlaybook('pb-1', 'Old A')]).diagnostics.items).toEqual([]);
    expect(run([d, desiredPlaybook('Old B')], [livePlaybook('pb-1', 'Old A'), livePlaybook('pb-2', 'Old B')]).diagnostics.items).toEqual([]);
  });

  it('of a former name two live objects hold, renames the one synced under it and says the other is left, not to take the name out of renamed_from (probe MR-2)', () => {
    const d = desiredPlaybook('NDA 2', { renamedFrom: ['NDA'], fieldSources: { renamed_from: pos(3, 15, 'playbooks/p.yaml') } });
    const live = [livePlaybook('pb-app', 'NDA'), livePlaybook('pb-synced', 'NDA')];
    const records: Record<string, string> = { 'playbook:NDA': 'pb-synced' };
    const { changes, diagnostics } = diff({ kinds: KIND_META, desired: [d], live, prune: {}, records: recorded(records) });
    expect(changes.map((c) => [c.action, c.liveId])).toEqual([['rename', 'pb-synced']]);
    expect(diagnostics.warnings).toEqual([
      expect.objectContaining({
        code: 'renamed-from-several-live',
        message: 'playbook "NDA 2" renames the "NDA" docket last synced; another live playbook named "NDA" (made in the app since) is left as it is',
        hint: 'if that one is not wanted, archive or rename it in the app; `renamed_from` is right as it is',
      }),
    ]);
    // A rule's is deleted, as any its playbook no longer lists, and said so; its delete is named by
    // its live id beside the rename of the synced one away from that name (probe AD-1).
    const rule = desiredRule(NDA.name, 'Duration', {}, { renamedFrom: ['Term'] });
    const rules = diff({
      kinds: KIND_META,
      desired: [desiredPlaybook(NDA.name), rule],
      live: [livePlaybook(NDA.id, NDA.name), liveRule('r-synced', NDA, 'Term'), liveRule('r-app', NDA, 'Term')],
      prune: {},
      records: recorded({ [`rule:${NDA.name}/Term`]: 'r-synced' }),
    });
    expect(rules.changes.map((c) => [c.action, c.liveId, c.namesake ?? false])).toEqual([['rename', 'r-synced', false], ['delete', 'r-app', true]]);
    expect(rules.diagnostics.warnings.map((w) => [w.message, w.hint])).toEqual([
      [
        'rule "Duration" renames the "Term" docket last synced; another live rule named "Term" (made in the app since) is declared by no file: this plan deletes it',
        'to keep that one, declare it in a file (rename it in the app first, or declare it under "Term" once this rename is applied); `renamed_from` is right as it is',
      ],
    ]);
  });

  it('of a former name the app renamed the synced object from and then gave a new one, says the new one is left and `renamed_from` is right (probe OB-1)', () => {
    const d = desiredPlaybook('R', { renamedFrom: ['P'], fieldSources: { renamed_from: pos(3, 15, 'playbooks/p.yaml') } });
    const live = [livePlaybook('pb-synced', 'Q'), livePlaybook('pb-app', 'P')];
    const { changes, diagnostics } = diff({ kinds: KIND_META, desired: [d], live, prune: {}, records: recorded({ 'playbook:P': 'pb-synced' }) });
    expect(changes.map((c) => [c.action, c.liveId])).toEqual([['rename', 'pb-synced']]);
    expect(diagnostics.warnings).toEqual([
      expect.objectContaining({
        code: 'renamed-from-several-live',
        line: 3,
        message: 'playbook "R" renames the "P" docket last synced (live as "Q" now); another live playbook named "P" (made in the app since) is left as it is',
        hint: 'if that one is not wanted, archive or rename it in the app; `renamed_from` is right as it is',
      }),
    ]);
  });

  it('a former name another file declares as its own is tried last: two playbooks that traded names over renames pulled from another environment each keep their object', () => {
    // Here: "P2" is the first playbook (renamed P1 → P1X → P2), "P2X" the second (P2 → P2X).
    // The files, pulled where both were renamed once more, name the second "P1" from [P2, P2X].
    const first = desiredPlaybook('P2', { renamedFrom: ['P1', 'P1X'] });
    const second = desiredPlaybook('P1', { renamedFrom: ['P2', 'P2X'] });
    const live = [livePlaybook('pb-first', 'P2'), livePlaybook('pb-second', 'P2X')];
    const { changes } = run([first, second], live);
    expect(changes.map((c) => [c.id, c.liveId])).toEqual([['rename:playbook:P1', 'pb-second']]);
    // Still: renamed A → B, then a new A made, where only A is live, B is the renamed A.
    const made = run([desiredPlaybook('B', { renamedFrom: ['A'] }), desiredPlaybook('A')], [livePlaybook('pb-a', 'A')]);
    expect(made.changes.map((c) => [c.id, c.liveId ?? null])).toEqual([['rename:playbook:B', 'pb-a'], ['create:playbook:A', null]]);
  });

  it('a former name another file declares comes after the object synced under an own former name that the app renamed since (probe FS)', () => {
    // TA renamed to TB, then a new TA; TB renamed in the app to "TB live"; the files now rename it "TB files" from [TA, TB].
    const renamed = desiredPlaybook('TB files', { renamedFrom: ['TA', 'TB'] });
    const live = [livePlaybook('pb-first', 'TB live'), livePlaybook('pb-new-ta', 'TA')];
    const records: Record<string, string> = { 'playbook:TB': 'pb-first', 'playbook:TA': 'pb-new-ta' };
    const { changes } = diff({ kinds: KIND_META, desired: [renamed, desiredPlaybook('TA')], live, prune: {}, records: recorded(records) });
    expect(changes.map((c) => [c.id, c.liveId ?? null])).toEqual([['rename:playbook:TB files', 'pb-first']]);
    // The same for rules, in either order of the former names: nothing deleted, nothing made.
    const nda = desiredPlaybook(NDA.name);
    const rules = [liveRule('r-first', NDA, 'B live'), liveRule('r-new-a', NDA, 'A')];
    const ruleRecords: Record<string, string> = { [`rule:${NDA.name}/B`]: 'r-first', [`rule:${NDA.name}/A`]: 'r-new-a' };
    for (const formers of [['A', 'B'], ['B', 'A']]) {
      const result = diff({ kinds: KIND_META, desired: [nda, desiredRule(NDA.name, 'B files', {}, { renamedFrom: formers }), desiredRule(NDA.name, 'A')], live: [livePlaybook(NDA.id, NDA.name), ...rules], prune: {}, records: recorded(ruleRecords) });
      expect(result.changes.map((c) => [c.id, c.liveId ?? null])).toEqual([[`rename:rule:${NDA.name}/B files`, 'r-first']]);
    }
  });

  it('takes by record no object another document names now, declares as renamed from, or after its own rename is done (second read)', () => {
    const plan = (desired: DesiredResource[], live: LiveResource[], records: Record<string, string>) =>
      diff({ kinds: KIND_META, desired, live, prune: {}, records: recorded(records) }).changes.map((c) => [c.id, c.liveId ?? null]);
    // The record under F names an object now called G, which a document declares: G keeps it.
    const x = desiredPlaybook('X', { renamedFrom: ['F', 'Y'] });
    expect(plan([x, desiredPlaybook('Y'), desiredPlaybook('G')], [livePlaybook('id1', 'Y'), livePlaybook('id2', 'G')], { 'playbook:Y': 'id1', 'playbook:F': 'id2' })).toEqual([
      ['rename:playbook:X', 'id1'],
      ['create:playbook:Y', null],
    ]);
    // ... or that another document says it was renamed from.
    const h = desiredPlaybook('H', { renamedFrom: ['F2'] });
    expect(plan([x, desiredPlaybook('Y'), h], [livePlaybook('id1', 'Y'), livePlaybook('id2', 'F2')], { 'playbook:Y': 'id1', 'playbook:F': 'id2' })).toEqual([
      ['rename:playbook:X', 'id1'],
      ['create:playbook:Y', null],
      ['rename:playbook:H', 'id2'],
    ]);
    // X synced under its new name already (its object deleted in the app since): its rename is done, and nothing else is taken for it.
    expect(plan([x, desiredPlaybook('Y'), desiredPlaybook('G')], [livePlaybook('id2', 'G'), livePlaybook('id3', 'Y')], { 'playbook:X': 'id1', 'playbook:F': 'id2', 'playbook:Y': 'id3' })).toEqual([['create:playbook:X', null]]);
  });

  it('a renamed_from whose rename is done (the object synced under its new name, since archived) takes no object made under the former name since', () => {
    const b = desiredPlaybook('B', { renamedFrom: ['A'] });
    const live = [livePlaybook('pb-new', 'A')];
    const records: Record<string, string> = { 'playbook:B': 'pb-old' };
    const { changes } = diff({ kinds: KIND_META, desired: [b], live, prune: {}, records: recorded(records) });
    expect(ids(changes)).toEqual(['create:playbook:B']);
    // Where B was never synced (another environment), A is the object B was renamed from.
    expect(ids(run([b], live).changes)).toEqual(['rename:playbook:B']);
  });

  it('renamed_from of rules with both names live says the former is deleted, and says nothing when a later rename takes the former', () => {
    const nda = desiredPlaybook(NDA.name);
    const live = [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'R1'), liveRule('r-2', NDA, 'R2')];
    const r2 = desiredRule(NDA.name, 'R2', {}, { renamedFrom: ['R1'] });
    const deleted = run([nda, r2], live);
    expect(ids(deleted.changes)).toEqual([`delete:rule:${NDA.name}/R1`]);
    expect(deleted.diagnostics.warnings.map((w) => w.message)).toEqual(['rule "R2" says it was renamed from "R1", but both are live: docket matches the live "R2" and deletes "R1", which no file declares']);
    // B from A, declared before C from B: the plan renames B to C and A to B, and nothing is left behind.
    const chain = run([nda, desiredRule(NDA.name, 'R2', {}, { renamedFrom: ['R1'] }), desiredRule(NDA.name, 'R3', {}, { renamedFrom: ['R2'] })], live);
    expect(chain.diagnostics.warnings).toEqual([]);
    expect(ids(chain.changes).sort()).toEqual([`rename:rule:${NDA.name}/R2`, `rename:rule:${NDA.name}/R3`]);
  });

  it('a rule pinned to the id of a rule of another playbook says so: rules cannot move between playbooks', () => {
    const MSA = { id: 'pb-2', name: 'Vendor MSA' };
    const { diagnostics } = run(
      [desiredPlaybook(NDA.name), desiredPlaybook(MSA.name), desiredRule(NDA.name, 'Term', {}, { pinId: 'r-9', source: pos(9, 5, 'playbooks/nda.yaml') })],
      [livePlaybook(NDA.id, NDA.name), livePlaybook(MSA.id, MSA.name), liveRule('r-9', MSA, 'Cap')],
    );
    // Nor may it be taken into a playbook the plan creates.
    const created = run(
      [desiredPlaybook('New'), desiredPlaybook(MSA.name), desiredRule('New', 'Term', {}, { pinId: 'r-9' })],
      [livePlaybook(MSA.id, MSA.name), liveRule('r-9', MSA, 'Cap')],
    );
    expect(created.diagnostics.errors.map((e) => e.message)).toEqual([`rule "Term" is pinned to id "r-9", which is rule "Vendor MSA/Cap" live, of another playbook`]);
    expect(diagnostics.errors).toEqual([
      expect.objectContaining({
        code: 'pinned-id-not-found',
        line: 9,
        message: `rule "Term" is pinned to id "r-9", which is rule "Vendor MSA/Cap" live, of another playbook`,
        hint: 'a rule cannot move to another playbook: remove the `id:` line to create it here, or declare it in the playbook that holds it',
      }),
    ]);
  });

  it('the organization pinned to an id it does not have is that error alone, at the id', () => {
    const org = desiredOrganization({ 'review.name': 'Acme' }, { pinId: 'org-missing', fieldSources: { id: pos(2, 5, 'organization.yaml') } });
    const { diagnostics } = run([org], [liveOrganization('org-1', { 'review.name': 'Acme' })]);
    expect(diagnostics.errors.map((e) => [e.code, e.file, e.line, e.col])).toEqual([['pinned-id-not-found', 'organization.yaml', 2, 5]]);
    // Named as the one document it is, not `organization "organization"` (probe JJ-5).
    expect(diagnostics.errors[0]!.message).toMatch(/^the organization document is pinned to id "org-missing", /);
  });

  it('two live objects with the same name are ambiguous, said at the name', () => {
    const { diagnostics } = run([desiredPlaybook('NDA', { source: pos(3), fieldSources: { name: pos(4, 7) } })], [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA')]);
    expect(diagnostics.errors).toHaveLength(1);
    const error = diagnostics.errors[0]!;
    expect(error).toMatchObject({ code: 'ambiguous-match', line: 4, col: 7 });
    expect(error.hint).toContain('pb-1');
    expect(error.hint).toContain('pb-2');
  });

  it('a former name two live objects hold is ambiguous too, at renamed_from: neither is taken, nothing is created', () => {
    const d = desiredPlaybook('Ee', { renamedFrom: ['Dd'], fieldSources: { renamed_from: pos(4, 15) } });
    const { diagnostics } = run([d], [livePlaybook('pb-1', 'Dd'), livePlaybook('pb-2', 'Dd')]);
    expect(diagnostics.errors).toMatchObject([{ code: 'ambiguous-match', line: 4, col: 15, message: '2 live playbook objects are named "Dd", which playbook "Ee" says it was renamed from; docket cannot tell which one the file means' }]);
    expect(diagnostics.errors[0]!.hint).toBe('archive (or rename) the one not wanted in the app (made twice by two applies at once, or by one killed and run again at once: the later one), or pin one with `id:` (pb-1, pb-2)');
  });

  it('says of two live rules of one name to delete one: a rule cannot be archived (probe LY-3)', () => {
    const nda = { id: 'pb-1', name: 'NDA' };
    const { diagnostics } = run([desiredPlaybook('NDA'), desiredRule('NDA', 'Term')], [livePlaybook(nda.id, nda.name), liveRule('r-1', nda, 'Term'), liveRule('r-2', nda, 'Term')]);
    expect(diagnostics.errors[0]!.hint).toBe('delete (or rename) the one not wanted in the app (made twice by two applies at once, or by one killed and run again at once: the later one), or pin one with `id:` (r-1, r-2)');
  });

  it('says which of two live objects of one name docket last synced', () => {
    const { diagnostics } = diff({ kinds: KIND_META, desired: [desiredPlaybook('NDA')], live: [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA')], prune: {}, records: recorded({ 'playbook:NDA': 'pb-2' }) });
    expect(diagnostics.errors[0]!.hint).toBe('archive (or rename) the one not wanted in the app (made twice by two applies at once, or by one killed and run again at once: the later one); docket last synced pb-2, or pin one with `id:` (pb-1, pb-2)');
  });

  it('says which of two live objects of one name was last synced as another name: renamed onto it in the app, not two applies at once (probes MM-7, NB-10)', () => {
    const records: Record<string, string> = { 'playbook:NDA': 'pb-2', 'playbook:MSA': 'pb-1' };
    const { diagnostics } = diff({ kinds: KIND_META, desired: [desiredPlaybook('NDA'), desiredPlaybook('MSA')], live: [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA')], prune: {}, records: recorded(records) });
    expect(diagnostics.errors[0]!.hint).toBe('pb-1 was last synced as playbook "MSA", renamed in the app onto this name: rename it back there; docket last synced pb-2 under this name; or pin one with `id:` (pb-1, pb-2)');
  });

  it('a pin that would rename its object onto a name another live object no file declares holds is refused at the id', () => {
    const d = desiredPlaybook('Tea', { pinId: 'pb-b', fieldSources: { id: pos(3, 5) } });
    const { diagnostics } = run([d], [livePlaybook('pb-b', 'Beta'), livePlaybook('pb-t', 'Tea')]);
    expect(diagnostics.errors).toMatchObject([{ code: 'rename-target-live', line: 3, col: 5 }]);
    expect(diagnostics.errors[0]!.message).toBe('playbook "Tea" is pinned to id "pb-b", live "Beta": renaming it would make two live playbook objects named "Tea" (another, id pb-t, no file declares, has that name)');
    // A live name is quoted as any value: one line, escaped.
    const tabbed = run([d], [livePlaybook('pb-b', 'Be\tta'), livePlaybook('pb-t', 'Tea')]);
    expect(tabbed.diagnostics.errors[0]!.message).toContain('live "Be\\tta": renaming it');
    // Onto a name that shows as its own (a Cyrillic `Т`), the message says so, or it reads as nonsense (probe RF-1).
    const alike = run([desiredPlaybook('\u0422ea', { pinId: 'pb-b', fieldSources: { id: pos(3, 5) } })], [livePlaybook('pb-b', 'Tea'), livePlaybook('pb-t', '\u0422ea')]);
    expect(alike.diagnostics.errors[0]!.message).toBe('playbook "\u0422ea" is pinned to id "pb-b", live "Tea" (the two names show alike: they differ only in letters of another alphabet drawn alike (Cyrillic `\u0422`, Latin `T`)): renaming it would make two live playbook objects named "\u0422ea" (another, id pb-t, no file declares, has that name)');
    // Declared under its own name (a swap through pins), the holder is renamed too: no error.
    const swap = run([d, desiredPlaybook('Beta', { pinId: 'pb-t' })], [livePlaybook('pb-b', 'Beta'), livePlaybook('pb-t', 'Tea')]);
    expect(swap.diagnostics.errors.filter((e) => e.code === 'rename-target-live')).toEqual([]);
    // Under --prune the holder is archived first; so too in a plan cut to a target naming it (probe BG-3).
    const live = [livePlaybook('pb-b', 'Beta'), livePlaybook('pb-t', 'Tea')];
    expect(run([d], live, { playbooks: true }).diagnostics.errors).toEqual([]);
    const cut = (key: string) => diff({ kinds: KIND_META, desired: [d], live, prune: { playbooks: true }, hold: { sends: childInTargets([`playbook/${key}`], KINDS), unsent: [] } }).diagnostics.errors.map((e) => e.code);
    expect(cut('Tea')).toEqual([]);
    expect(cut('Other')).toEqual(['rename-target-live']);
  });

  it('a chain of renames of any length is made whole, in either order of declaration, synced before or not', () => {
    const names = ['A', 'B', 'C', 'D', 'E'];
    const live = names.slice(0, 4).map((n) => livePlaybook(`pb-${n}`, n));
    // B from A, C from B, D from C, E from D: each object moves one name along.
    const chain = names.slice(1).map((n, i) => desiredPlaybook(n, { renamedFrom: [names[i]!] }));
    // As the apply that made A to D recorded them.
    const synced = recorded(Object.fromEntries(live.map((l) => [`playbook:${l.key}`, l.id])));
    for (const desired of [chain, [...chain].reverse()]) {
      for (const records of [undefined, synced]) {
        const result = diff({ kinds: KIND_META, desired, live, prune: {}, ...(records ? { records } : {}) });
        expect(result.diagnostics.items).toEqual([]);
        expect(result.changes.map((c) => [c.id, c.liveId]).sort()).toEqual([
          ['rename:playbook:B', 'pb-A'],
          ['rename:playbook:C', 'pb-B'],
          ['rename:playbook:D', 'pb-C'],
          ['rename:playbook:E', 'pb-D'],
        ]);
      }
    }
    // Rules renumbered after a new first one (Step 2 from Step 1, …): renames, no rewrite or delete.
    const steps = [1, 2, 3, 4].map((n) => liveRule(`r-${n}`, NDA, `Step ${n}`));
    const renumbered = [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Step 1'), ...[2, 3, 4, 5].map((n) => desiredRule(NDA.name, `Step ${n}`, {}, { renamedFrom: [`Step ${n - 1}`] }))];
    const rules = run(renumbered, [livePlaybook(NDA.id, NDA.name), ...steps]);
    expect(rules.diagnostics.items).toEqual([]);
    expect(ids(rules.changes).sort()).toEqual([`create:rule:${NDA.name}/Step 1`, ...[2, 3, 4, 5].map((n) => `rename:rule:${NDA.name}/Step ${n}`)]);
    // Renumbered after the first was taken out (Step 1 from Step 2, …): every name is live, so each
    // document is the rule of its name, and the fields move along; said at the head (probe RZ-1).
    const dropped = [desiredPlaybook(NDA.name), ...[1, 2, 3].map((n) => desiredRule(NDA.name, `Step ${n}`, {}, { renamedFrom: [`Step ${n + 1}`] }))];
    const shifted = run(dropped, [livePlaybook(NDA.id, NDA.name), ...steps]);
    expect(ids(shifted.changes).sort()).toEqual([`delete:rule:${NDA.name}/Step 4`]);
    const head = shifted.diagnostics.items.filter((d) => d.message.includes('and so is each name along the chain'));
    expect(head).toEqual([expect.objectContaining({ code: 'rename-target-live', message: expect.stringContaining('rule "Step 1" says it was renamed from "Step 2", but both are live, and so is each name along the chain of renames after it: docket matches every document to the live rule of its own name, so the rules keep their names and their fields move from one to the next (their ids, and what the service keeps of each, change hands)') })]);
    expect(head[0]!.hint).toContain('first the files with the live "Step 1" taken out and the others under their live names');
    // Made in the app in a playbook whose drift policy keeps such rules: taken out, it would stay too (second read SR95B-1).
    const adopting = [{ ...desiredPlaybook(NDA.name), policy: { drift: 'adopt' as const } }, ...dropped.slice(1)];
    const held = run(adopting, [livePlaybook(NDA.id, NDA.name), ...steps]).diagnostics.items.filter((d) => d.message.includes('and so is each name along the chain'));
    expect(held.map((d) => d.hint)).toEqual([expect.stringContaining('first the files with the live "Step 1" renamed aside')]);
    // Of a kind docket cannot remove, the live head is renamed aside instead: taken out, it would stay (probe WH-1).
    const terms: KindMeta = { name: 'custom-term', deletion: 'none', nameField: 'name' };
    const liveTerms = [1, 2, 3].map((n): LiveResource => ({ kind: 'custom-term', id: `ct-${n}`, key: `Tx ${n}`, name: `Tx ${n}`, fields: { name: `Tx ${n}` }, refs: [] }));
    const termChain = [1, 2].map((n): DesiredResource => ({ ...desiredPlaybook(`Tx ${n}`, { renamedFrom: [`Tx ${n + 1}`] }), kind: 'custom-term' }));
    const termHead = diff({ kinds: [terms], desired: termChain, live: liveTerms, prune: {} }).diagnostics.items.filter((d) => d.message.includes('and so is each name along the chain'));
    expect(termHead.map((d) => d.hint)).toEqual([expect.stringContaining('first the files with the live "Tx 1" renamed aside (declared under a name of its own, with `renamed_from: ["Tx 1"]`) and the others under their live names')]);
    // Not once a chain was applied, its renamed_from lines kept: the two-step renumbering, a forward one, a chain of playbooks (second read SR90B-1).
    const renumberedLive = [livePlaybook(NDA.id, NDA.name), ...[1, 2, 3].map((n) => liveRule(`r-${n + 1}`, NDA, `Step ${n}`))];
    expect(run(dropped, renumberedLive).diagnostics.items).toEqual([]);
    expect(run(renumbered, [livePlaybook(NDA.id, NDA.name), ...[1, 2, 3, 4, 5].map((n) => liveRule(`r-${n}`, NDA, `Step ${n}`))]).diagnostics.items).toEqual([]);
    const playbookChain = ['B', 'C', 'D', 'E'].map((name, i) => desiredPlaybook(name, { renamedFrom: [String.fromCharCode(65 + i)] }));
    expect(run(playbookChain, ['B', 'C', 'D', 'E'].map((name) => livePlaybook(`pb-${name}`, name))).diagnostics.items).toEqual([]);
  });

  it('a chain an apply cut short (killed before it recorded its first rename) goes on where it stopped, with the records from before it', () => {
    // T2 from T1, T3 from T2, T4 from T3, and a new T1: the kill came after T3's object became T4.
    const records: Record<string, string> = { 'playbook:T1': 'pb-1', 'playbook:T2': 'pb-2', 'playbook:T3': 'pb-3' };
    const live = [livePlaybook('pb-1', 'T1'), livePlaybook('pb-2', 'T2'), livePlaybook('pb-3', 'T4')];
    const chain = [desiredPlaybook('T4', { renamedFrom: ['T3'] }), desiredPlaybook('T3', { renamedFrom: ['T2'] }), desiredPlaybook('T2', { renamedFrom: ['T1'] }), desiredPlaybook('T1')];
    for (const desired of [chain, [...chain].reverse()]) {
      const result = diff({ kinds: KIND_META, desired, live, prune: {}, records: recorded(records) });
      expect(result.diagnostics.items).toEqual([]);
      expect(result.changes.map((c) => [c.id, c.liveId ?? null]).sort()).toEqual([
        ['create:playbook:T1', null],
        ['rename:playbook:T2', 'pb-1'],
        ['rename:playbook:T3', 'pb-2'],
      ]);
    }
    // Rules renumbered after a new first one, cut short the same way after Step 5 became Step 6.
    const steps = [1, 2, 3, 4].map((n) => liveRule(`r-${n}`, NDA, `Step ${n}`));
    const ruleRecords = Object.fromEntries([1, 2, 3, 4, 5].map((n) => [`rule:${NDA.name}/Step ${n}`, `r-${n}`]));
    const renumbered = [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Step 1'), ...[2, 3, 4, 5, 6].map((n) => desiredRule(NDA.name, `Step ${n}`, {}, { renamedFrom: [`Step ${n - 1}`] }))];
    const rules = diff({ kinds: KIND_META, desired: renumbered, live: [livePlaybook(NDA.id, NDA.name), ...steps, liveRule('r-5', NDA, 'Step 6')], prune: {}, records: recorded(ruleRecords) });
    expect(rules.diagnostics.items).toEqual([]);
    expect(ids(rules.changes).sort()).toEqual([`create:rule:${NDA.name}/Step 1`, ...[2, 3, 4, 5].map((n) => `rename:rule:${NDA.name}/Step ${n}`)]);
    // A record whose object another document holds by identity, not by renamed_from, stays its own:
    // B (from A) was renamed C in the app, where a new A was made; the new A is not renamed to B.
    const appRenamed = diff({
      kinds: KIND_META,
      desired: [desiredPlaybook('A'), desiredPlaybook('B', { renamedFrom: ['A'] }), desiredPlaybook('C')],
      live: [livePlaybook('pb-3', 'A'), livePlaybook('pb-1', 'C')],
      prune: {},
      records: recorded({ 'playbook:A': 'pb-3', 'playbook:B': 'pb-1' }),
    });
    expect(ids(appRenamed.changes)).toEqual(['create:playbook:B']);
  });

  it('a renamed_from left in the file after its rename does not take the new object of the former name when the renamed one was renamed again in the app', () => {
    const records: Record<string, string> = { 'playbook:B': 'pb-b', 'playbook:A': 'pb-new' };
    const result = diff({
      kinds: KIND_META,
      desired: [desiredPlaybook('B', { renamedFrom: ['A'] }), desiredPlaybook('A')],
      live: [livePlaybook('pb-new', 'A'), livePlaybook('pb-b', 'B in the app')],
      prune: {},
      records: recorded(records),
    });
    expect(result.diagnostics.items).toEqual([]);
    expect(result.changes.map((c) => [c.id, c.liveId])).toEqual([['rename:playbook:B', 'pb-b']]);
    // Gone live since (archived in the app): B is created again, and the new A is left alone.
    const gone = diff({ kinds: KIND_META, desired: [desiredPlaybook('B', { renamedFrom: ['A'] }), desiredPlaybook('A')], live: [livePlaybook('pb-new', 'A')], prune: {}, records: recorded(records) });
    expect(ids(gone.changes)).toEqual(['create:playbook:B']);
    // The first time (no record of B yet), the rename takes A's object, and the new A is created.
    const first = diff({ kinds: KIND_META, desired: [desiredPlaybook('B', { renamedFrom: ['A'] }), desiredPlaybook('A')], live: [livePlaybook('pb-a', 'A')], prune: {}, records: recorded({ 'playbook:A': 'pb-a' }) });
    expect(ids(first.changes)).toEqual(['create:playbook:A', 'rename:playbook:B']);
  });

  it('a pin may rename onto a name whose holder the same plan removes: the removal runs first', () => {
    const rules = run(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'R2', {}, { pinId: 'r-1' })],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'R1'), liveRule('r-2', NDA, 'R2')],
    );
    expect(rules.diagnostics.errors).toEqual([]);
    expect(ids(rules.changes)).toEqual([`delete:rule:${NDA.name}/R2`, `rename:rule:${NDA.name}/R2`]);
    // Not when the playbook adopts drift: the holder's delete is held, and it stays.
    const adoptingDesired = [{ ...desiredPlaybook(NDA.name), policy: { drift: 'adopt' as const } }, desiredRule(NDA.name, 'R2', {}, { pinId: 'r-1' })];
    const adopting = { desired: adoptingDesired, ...run(adoptingDesired, [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'R1'), liveRule('r-2', NDA, 'R2')]) };
    expect(adopting.diagnostics.errors.map((e) => e.code)).toEqual(['rename-target-live']);
    // Unless the holder was synced under that name: its removal is the files', deleted whatever the policy (probe PH-2).
    const synced = diff({ kinds: KIND_META, desired: adopting.desired, live: [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'R1'), liveRule('r-2', NDA, 'R2')], prune: {}, records: recorded({ [`rule:${NDA.name}/R2`]: 'r-2' }) });
    expect(synced.diagnostics.errors).toEqual([]);
    expect(ids(synced.changes)).toEqual([`delete:rule:${NDA.name}/R2`, `rename:rule:${NDA.name}/R2`]);
    const pruned = run([desiredPlaybook('Tea', { pinId: 'pb-b' })], [livePlaybook('pb-b', 'Beta'), livePlaybook('pb-t', 'Tea')], { playbooks: true });
    expect(pruned.diagnostics.errors).toEqual([]);
    expect(ids(pruned.changes)).toEqual(['archive:playbook:Tea', 'rename:playbook:Tea']);
  });

  it('a rename chain whose first former name two live objects hold is ambiguous, and nothing is said of leaving it', () => {
    const { diagnostics } = run(
      [desiredPlaybook('B', { renamedFrom: ['A'] }), desiredPlaybook('C', { renamedFrom: ['B'] })],
      [livePlaybook('pb-a1', 'A'), livePlaybook('pb-a2', 'A'), livePlaybook('pb-b', 'B')],
      { playbooks: true },
    );
    expect(diagnostics.errors.map((e) => e.code)).toEqual(['ambiguous-match']);
    expect(diagnostics.warnings).toEqual([]);
  });

  it('under prune, the former name left beside a renamed_from is archived, and the warning says so', () => {
    const { diagnostics } = run([desiredPlaybook('B', { renamedFrom: ['A'] })], [livePlaybook('pb-a', 'A'), livePlaybook('pb-b', 'B')], { playbooks: true });
    expect(diagnostics.warnings.map((w) => w.message)).toEqual(['playbook "B" says it was renamed from "A", but both are live: docket matches the live "B" and archives "A", which no file declares']);
  });

  it('a pin names the object that answers to it when no object has that id', () => {
    const replacement = { ...livePlaybook('pb-3', 'NDA'), pinnedAs: ['pb-2'] };
    const { changes, diagnostics, ids: known } = run([desiredPlaybook('NDA', { pinId: 'pb-2' })], [replacement]);
    expect(diagnostics.items).toEqual([]);
    expect(changes).toEqual([]);
    expect(known['playbook:NDA']).toBe('pb-3');
    // An object that has the pinned id itself still wins.
    const both = run([desiredPlaybook('NDA', { pinId: 'pb-2' })], [replacement, livePlaybook('pb-2', 'Old NDA')]);
    expect(both.changes[0]!.liveId).toBe('pb-2');
  });

  it('a pin resolves the ambiguity', () => {
    const { changes, diagnostics } = run([desiredPlaybook('NDA', { pinId: 'pb-2' })], [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA')]);
    expect(diagnostics.items).toEqual([]);
    expect(changes).toEqual([]);
  });
});

describe('diff: rules live inside their playbook', () => {
  const other = { id: 'pb-2', name: 'Outbound NDA' };

  it('does not match a rule of the same name in another playbook', () => {
    const { changes } = run(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Term')],
      [livePlaybook(NDA.id, NDA.name), livePlaybook(other.id, other.name), liveRule('r-9', other, 'Term')],
    );
    expect(ids(changes)).toEqual(['create:rule:Inbound NDA/Term']);
  });

  it('deletes a rule removed from a declared playbook, marked irreversible', () => {
    const { changes } = run(
      [desiredPlaybook(NDA.name), desiredRule(NDA.name, 'Term')],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Term'), liveRule('r-2', NDA, 'Old rule', { description: 'd' })],
    );
    expect(ids(changes)).toEqual(['delete:rule:Inbound NDA/Old rule']);
    const del = changes[0]!;
    expect(del).toMatchObject({ action: 'delete', liveId: 'r-2', irreversible: true, name: 'Old rule' });
    expect(del.fingerprint).toBe(fingerprint(liveRule('r-2', NDA, 'Old rule', { description: 'd' })));
    expect(del.fields).toContainEqual({ field: 'description', before: 'd', after: null });
  });

  it('places a deleted rule at its playbook\'s `rules:`, or at the playbook when the file has no rules list', () => {
    const live = [livePlaybook(NDA.id, NDA.name), liveRule('r-2', NDA, 'Old rule')];
    const listed = run([desiredPlaybook(NDA.name, { source: pos(2), fieldSources: { name: pos(3, 7), rules: pos(5) } })], live);
    expect(only(listed.changes, 'delete:rule:Inbound NDA/Old rule').source).toEqual(pos(5));
    const unlisted = run([desiredPlaybook(NDA.name, { source: pos(2), fieldSources: { name: pos(3, 7) } })], live);
    expect(only(unlisted.changes, 'delete:rule:Inbound NDA/Old rule').source).toEqual(pos(2));
  });

  it('leaves the rules of an undeclared playbook alone', () => {
    const { changes } = run(
      [desiredPlaybook(NDA.name)],
      [livePlaybook(NDA.id, NDA.name), livePlaybook(other.id, other.name), liveRule('r-9', other, 'Term'), liveRule('r-8', other, 'Law')],
    );
    expect(changes).toEqual([]);
  });

  it('leaves the rules of an undeclared playbook alone even when prune archives the playbook', () => {
    const { changes } = run([desiredPlaybook(NDA.name)], [livePlaybook(NDA.id, NDA.name), livePlaybook(other.id, other.name), liveRule('r-9', other, 'Term')], {
      playbooks: true,
    });
    expect(ids(changes)).toEqual(['archive:playbook:Outbound NDA']);
  });
});

describe('diff: undeclared playbooks', () => {
  const live = [livePlaybook(NDA.id, NDA.name), livePlaybook('pb-3', 'Zeta'), livePlaybook('pb-2', 'Alpha')];

  it('reports them with count and names when prune is off', () => {
    const { changes, undeclared } = run([desiredPlaybook(NDA.name)], live);
    expect(changes).toEqual([]);
    expect(undeclared).toEqual([{ kind: 'playbook', count: 2, names: ['Alpha', 'Zeta'], reason: expect.stringContaining('prune'), prunable: true }]);
  });

  it('archives them when prune.playbooks is on', () => {
    const { changes, undeclared } = run([desiredPlaybook(NDA.name)], live, { playbooks: true });
    expect(undeclared).toEqual([]);
    expect(ids(changes)).toEqual(['archive:playbook:Alpha', 'archive:playbook:Zeta']);
    const archive = only(changes, 'archive:playbook:Alpha');
    expect(archive.liveId).toBe('pb-2');
    expect(archive.irreversible).toBeFalsy(); // an archive is a soft delete
  });

  it('another prune switch does not archive playbooks', () => {
    const { changes } = run([desiredPlaybook(NDA.name)], live, { templates: true });
    expect(changes).toEqual([]);
  });
});

describe('diff: kinds without delete', () => {
  it('reports undeclared objects of a kind the service cannot delete, whatever prune says', () => {
    const terms: KindMeta = { name: 'custom-term', deletion: 'none', nameField: 'name' };
    const live: LiveResource = { kind: 'custom-term', id: 'ct-1', key: 'Old Terms', name: 'Old Terms', fields: { name: 'Old Terms' }, refs: [] };
    const { changes, undeclared } = diff({ kinds: [terms], desired: [], live: [live], prune: { playbooks: true, 'custom-terms': true } });
    expect(changes).toEqual([]);
    expect(undeclared).toEqual([{ kind: 'custom-term', count: 1, names: ['Old Terms'], reason: expect.stringContaining('no delete') }]);
  });
});

describe('fingerprint', () => {
  it('changes when the live object changes and not otherwise', () => {
    const a = livePlaybook('pb-1', 'NDA', 'x');
    expect(fingerprint(a)).toBe(fingerprint(livePlaybook('pb-1', 'NDA', 'x')));
    expect(fingerprint(a)).not.toBe(fingerprint(livePlaybook('pb-1', 'NDA', 'y')));
    expect(fingerprint(a)).not.toBe(fingerprint(livePlaybook('pb-2', 'NDA', 'x')));
  });
});

describe('diff: sensitive fields', () => {
  const SECRET: KindMeta = { name: 'playbook', deletion: 'none', nameField: 'name', sensitiveFields: ['token'] };
  const desired = (token: string): DesiredResource => ({ ...desiredPlaybook('Hook'), fields: { name: 'Hook', token } });
  const live = (token: string): LiveResource => ({ ...livePlaybook('h-1', 'Hook'), fields: { name: 'Hook', token } });

  it('compares them by digest and never puts the value in the plan', () => {
    expect(diff({ kinds: [SECRET], desired: [desired('s3cret')], live: [live('s3cret')], prune: {} }).changes).toEqual([]);
    const [update] = diff({ kinds: [SECRET], desired: [desired('n3w-s3cret')], live: [live('s3cret')], prune: {} }).changes;
    expect(update!.fields).toEqual([{ field: 'token', before: '(sensitive value)', after: '(sensitive value)' }]);
    expect(JSON.stringify(update)).not.toMatch(/s3cret/);
    const [create] = diff({ kinds: [SECRET], desired: [desired('n3w-s3cret')], live: [], prune: {} }).changes;
    expect(JSON.stringify(create)).not.toMatch(/s3cret/);
  });
});

describe('diff: fields a kind compares itself', () => {
  it('asks the kind first, and falls back to normalised equality where it has no opinion', () => {
    const kind: KindMeta = { name: 'playbook', deletion: 'none', nameField: 'name', sameField: (field, a, b) => (field === 'description' ? String(a).toLowerCase() === String(b).toLowerCase() : undefined) };
    const compare = (description: string) => diff({ kinds: [kind], desired: [desiredPlaybook('NDA', { description })], live: [livePlaybook('pb-1', 'NDA', 'Mutual NDAs')], prune: {} }).changes;
    expect(compare('MUTUAL ndas')).toEqual([]);
    expect(compare('One-way NDAs').map((c) => c.fields.map((f) => f.field))).toEqual([['description']]);
  });
});

describe('diff: what apply sends, where it is written otherwise than compared', () => {
  // A kind that compares a number written as text by value, and sends the text (template parameters).
  const kind: KindMeta = { name: 'playbook', deletion: 'none', nameField: 'name', sentValue: (field, d) => (field === 'limit' ? (d.payload?.limit ?? undefined) : undefined) };
  const desired = (limit: number, written: unknown): DesiredResource => ({ ...desiredPlaybook('Caps'), fields: { name: 'Caps', limit }, payload: { limit: written } });
  const live = (limit: number): LiveResource => ({ ...livePlaybook('c-1', 'Caps'), fields: { name: 'Caps', limit } });

  it('holds the written value as `sent` on creates and updates, and nothing when it reads the same', () => {
    const [create] = diff({ kinds: [kind], desired: [desired(0, '0')], live: [], prune: {} }).changes;
    expect(create!.fields.find((f) => f.field === 'limit')).toEqual({ field: 'limit', before: null, after: 0, sent: '0' });
    const [update] = diff({ kinds: [kind], desired: [desired(12, '12.0')], live: [live(3)], prune: {} }).changes;
    expect(update!.fields).toEqual([{ field: 'limit', before: 3, after: 12, sent: '12.0' }]);
    // Equal by value is no change, however written; written as compared, there is nothing to add.
    expect(diff({ kinds: [kind], desired: [desired(3, '3')], live: [live(3)], prune: {} }).changes).toEqual([]);
    expect(diff({ kinds: [kind], desired: [desired(4, 4)], live: [live(3)], prune: {} }).changes[0]!.fields).toEqual([{ field: 'limit', before: 3, after: 4 }]);
  });

  it('holds a mapping written otherwise as `sent` too (a "3" inside it), but never a list, whose items are shown as compared', () => {
    const open = (limit: unknown, written: unknown): DesiredResource => ({ ...desiredPlaybook('Caps'), fields: { name: 'Caps', limit }, payload: { limit: written } });
    const mapped = diff({ kinds: [kind], desired: [open({ a: 1, b: ['x', 3] }, { a: 1, b: ['x', '3'] })], live: [live(3)], prune: {} }).changes[0]!;
    expect(mapped.fields).toEqual([{ field: 'limit', before: 3, after: { a: 1, b: ['x', 3] }, sent: { a: 1, b: ['x', '3'] } }]);
    // Written as compared, in another key order: nothing to add.
    expect(diff({ kinds: [kind], desired: [open({ a: 1, b: 2 }, { b: 2, a: 1 })], live: [live(3)], prune: {} }).changes[0]!.fields).toEqual([{ field: 'limit', before: 3, after: { a: 1, b: 2 } }]);
    expect(diff({ kinds: [kind], desired: [open([1, 2], ['1', '2'])], live: [live(3)], prune: {} }).changes[0]!.fields).toEqual([{ field: 'limit', before: 3, after: [1, 2] }]);
  });
});

describe('uploads', () => {
  const attachment = (name: string, renamedFrom: string[] = []): DesiredResource => ({
    kind: 'attachment',
    key: name,
    name,
    fields: { name, description: null, sha256: 'a'.repeat(64) },
    payload: { file: 'attachments/sp ace.pdf' },
    partial: false,
    refs: [],
    renamedFrom,
    source: pos(2, 7, 'attachments/a.yaml'),
    fieldSources: {},
  });
  const live = (name: string): LiveResource => ({ kind: 'attachment', id: 'att-1', key: name, name, fields: { name, description: null, sha256: 'a'.repeat(64) }, refs: [] });

  it('names the file an upload sends, which its fields show only a digest of: a new one, and one renamed, sent whole though only its name changed (probe MP-1)', () => {
    expect(run([attachment('Exhibit')], []).changes.map((c) => [c.id, c.uploads])).toEqual([['upload:attachment:Exhibit', 'attachments/sp ace.pdf']]);
    const renamed = run([attachment('Exhibit 2', ['Exhibit'])], [live('Exhibit')]).changes;
    expect(renamed.map((c) => [c.id, c.fields.map((f) => f.field), c.uploads])).toEqual([['upload:attachment:Exhibit 2', ['name'], 'attachments/sp ace.pdf']]);
    // What sends no file names none.
    expect(run([desiredPlaybook('P')], []).changes.every((c) => c.uploads === undefined)).toBe(true);
  });
});

describe('diff: identities several live objects hold', () => {
  const user = (id: string, email: string): LiveResource => ({ kind: 'agreements-user', id, key: email, name: email, fields: { email }, refs: [] });
  const agreementsUser: KindMeta = { name: 'agreements-user', deletion: 'never', internal: true };

  it('keeps them apart from the ids a reference resolves to, and says only what the app can do where no file can declare one (second read SR83-4)', () => {
    const result = diff({ kinds: [...KIND_META, agreementsUser], desired: [], live: [user('u-1', 'ops@acme.example'), user('u-2', 'ops@acme.example'), user('u-3', 'qa@acme.example')], prune: {} });
    expect(Object.keys(result.ambiguous)).toEqual(['agreements-user:ops@acme.example']);
    expect(result.ambiguous['agreements-user:ops@acme.example']).toEqual({
      message: 'which 2 live agreements-user objects hold; docket cannot tell which one is meant',
      hint: 'remove the one not wanted from the organization in the app; the files cannot name one of them by id (u-1, u-2)',
    });
    // Still known by id, as sync records and duplicate checks go by every id read.
    expect(result.ids['agreements-user:ops@acme.example']).toBe('u-1');
    expect(result.ids['agreements-user:qa@acme.example']).toBe('u-3');
  });
});
