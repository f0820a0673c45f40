import { describe, expect, it } from 'vitest';
import { orderChanges } from '../../../src/engine/order.js';
import type { Change, LiveResource } from '../../../src/engine/types.js';
import { KIND_META, change } from './builders.js';

function order(changes: Change[], live: LiveResource[] = []) {
  return orderChanges(changes, KIND_META, live);
}

function idsOf(changes: Change[]): string[] {
  return changes.map((c) => c.id);
}

function byId(changes: Change[], id: string): Change {
  const found = changes.find((c) => c.id === id);
  if (!found) throw new Error(`no change ${id} in ${idsOf(changes).join(', ')}`);
  return found;
}

/** Asserts `first` comes before `second` in the ordered list. */
function expectBefore(changes: Change[], first: string, second: string): void {
  const ids = idsOf(changes);
  expect(ids).toContain(first);
  expect(ids).toContain(second);
  expect(ids.indexOf(first), `${first} before ${second} in ${ids.join(', ')}`).toBeLessThan(ids.indexOf(second));
}

const nameField = (before: string, after: string): Change['fields'] => [{ field: 'name', before, after }];

describe('order: what a change needs exists first', () => {
  it('creates a rule after the playbook that holds it', () => {
    const rule = change('create', 'rule', 'NDA/Term', { parent: { kind: 'playbook', key: 'NDA' } });
    const playbook = change('create', 'playbook', 'NDA');
    const { changes, diagnostics } = order([rule, playbook]);
    expect(diagnostics.items).toEqual([]);
    expect(idsOf(changes)).toEqual(['create:playbook:NDA', 'create:rule:NDA/Term']);
    expect(byId(changes, 'create:rule:NDA/Term').dependsOn).toEqual(['create:playbook:NDA']);
  });

  it('publishes a custom term\'s new version before a custom template that links to it is sent, which then waits on it (a failed publish skips it)', () => {
    const template = change('create', 'custom-template', 'Consulting', { refs: [{ kind: 'custom-term', key: 'Fees', field: 'custom_term' }] });
    const edited = change('publish', 'custom-template', 'Services', { refs: [{ kind: 'custom-term', key: 'Fees', field: 'custom_term' }] });
    const term = change('publish', 'custom-term', 'Fees');
    const { changes } = order([template, edited, term]);
    expect(byId(changes, 'create:custom-template:Consulting').dependsOn).toEqual(['publish:custom-term:Fees']);
    expect(byId(changes, 'publish:custom-template:Services').dependsOn).toEqual(['publish:custom-term:Fees']);
    expectBefore(changes, 'publish:custom-term:Fees', 'publish:custom-template:Services');
  });

  it('does not make a rule wait for a playbook that already exists', () => {
    const rule = change('create', 'rule', 'NDA/Term', { parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } });
    const update = change('update', 'playbook', 'NDA', { liveId: 'pb-1' });
    const { changes } = order([rule, update]);
    expect(byId(changes, 'create:rule:NDA/Term').dependsOn).toEqual([]);
  });

  it('runs the organization update and a rule create after inviting the member they name', () => {
    const member = { kind: 'member' as const, key: 'bob@acme.example' };
    const org = change('update', 'organization', 'organization', { liveId: 'org-1', refs: [{ ...member, field: 'review.default_reviewer' }] });
    const rule = change('create', 'rule', 'NDA/Term', { parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' }, refs: [{ ...member, field: 'reviewer' }] });
    const invite = change('invite', 'member', 'bob@acme.example');
    // The invite is given last and its kind ranks after organization: only the dependency moves it.
    const { changes } = order([org, rule, invite]);
    expectBefore(changes, 'invite:member:bob@acme.example', 'update:organization:organization');
    expectBefore(changes, 'invite:member:bob@acme.example', 'create:rule:NDA/Term');
    expect(byId(changes, 'update:organization:organization').dependsOn).toEqual(['invite:member:bob@acme.example']);
    expect(byId(changes, 'create:rule:NDA/Term').dependsOn).toEqual(['invite:member:bob@acme.example']);
  });

  it('a reference to something that already exists adds no dependency', () => {
    const rule = change('update', 'rule', 'NDA/Term', { liveId: 'r-1', refs: [{ kind: 'member', key: 'alice@acme.example', field: 'reviewer' }] });
    expect(order([rule]).changes[0]!.dependsOn).toEqual([]);
  });
});

describe('order: names are freed before they are taken', () => {
  it('renames A→B before creating a new A', () => {
    const create = change('create', 'playbook', 'A');
    const rename = change('rename', 'playbook', 'B', { liveId: 'pb-1', fields: nameField('A', 'B') });
    const { changes } = order([create, rename]);
    expect(idsOf(changes)).toEqual(['rename:playbook:B', 'create:playbook:A']);
    expect(byId(changes, 'create:playbook:A').dependsOn).toEqual(['rename:playbook:B']);
  });

  it('renames a rule before creating another rule with its old name in the same playbook only', () => {
    const parent = { kind: 'playbook' as const, key: 'NDA', liveId: 'pb-1' };
    const rename = change('rename', 'rule', 'NDA/Duration', { liveId: 'r-1', parent, fields: nameField('Term', 'Duration') });
    const create = change('create', 'rule', 'NDA/Term', { parent });
    const elsewhere = change('create', 'rule', 'MSA/Term', { parent: { kind: 'playbook', key: 'MSA', liveId: 'pb-2' } });
    const { changes } = order([elsewhere, create, rename]);
    expect(byId(changes, 'create:rule:NDA/Term').dependsOn).toEqual(['rename:rule:NDA/Duration']);
    expect(byId(changes, 'create:rule:MSA/Term').dependsOn).toEqual([]);
    expectBefore(changes, 'rename:rule:NDA/Duration', 'create:rule:NDA/Term');
  });

  it('deletes a rule before a rename takes its name', () => {
    const parent = { kind: 'playbook' as const, key: 'NDA', liveId: 'pb-1' };
    const rename = change('rename', 'rule', 'NDA/Term', { liveId: 'r-2', parent, fields: nameField('Duration', 'Term') });
    const del = change('delete', 'rule', 'NDA/Term', { liveId: 'r-1', parent });
    const { changes } = order([rename, del]);
    expect(idsOf(changes)).toEqual(['delete:rule:NDA/Term', 'rename:rule:NDA/Term']);
    expect(byId(changes, 'rename:rule:NDA/Term').dependsOn).toEqual(['delete:rule:NDA/Term']);
  });

  it('swapping two names is a cycle, reported with both renames', () => {
    const ab = { ...change('rename', 'playbook', 'B', { liveId: 'pb-1', fields: nameField('A', 'B') }), source: { file: 'playbooks/b.yaml', line: 2, col: 7 } };
    const ba = { ...change('rename', 'playbook', 'A', { liveId: 'pb-2', fields: nameField('B', 'A') }), source: { file: 'playbooks/a.yaml', line: 4, col: 7 } };
    const { diagnostics } = order([ab, ba]);
    expect(diagnostics.errors.map((d) => d.code)).toEqual(['dependency-cycle']);
    // Each rename by the name it has live and the one it gets, and where it is declared (probe IY-3), at the file line of the first.
    expect(diagnostics.errors[0]!.message).toBe('these changes depend on each other in a cycle: rename playbook "A" → "B" (playbooks/b.yaml:2), rename playbook "B" → "A" (playbooks/a.yaml:4)');
    expect(diagnostics.errors[0]).toMatchObject({ file: 'playbooks/b.yaml', line: 2, col: 7 });
  });

  it('names the rules of a cycle with their playbook, as every plan line names a rule (probe MR-3)', () => {
    const parent = { kind: 'playbook' as const, key: 'NDA', liveId: 'pb-1' };
    const ab = { ...change('rename', 'rule', 'NDA/B', { liveId: 'r-1', fields: nameField('A', 'B') }), name: 'B', parent };
    const ba = { ...change('rename', 'rule', 'NDA/A', { liveId: 'r-2', fields: nameField('B', 'A') }), name: 'A', parent };
    expect(order([ab, ba]).diagnostics.errors[0]!.message).toBe('these changes depend on each other in a cycle: rename rule "NDA/A" → "NDA/B", rename rule "NDA/B" → "NDA/A"');
  });

  it('names swapped in the app stop a plan that sends (saying to pull), not one only read (drift, pull), which keeps both renames', () => {
    const live = (c: Change): Change => ({ ...c, direction: 'changed-live' });
    const ab = live(change('rename', 'playbook', 'B', { liveId: 'pb-1', fields: nameField('A', 'B') }));
    const ba = live(change('rename', 'playbook', 'A', { liveId: 'pb-2', fields: nameField('B', 'A') }));
    const sent = orderChanges([ab, ba], KIND_META, []);
    expect(sent.diagnostics.errors[0]?.hint).toContain('the names were swapped in the app: `docket pull` writes the live names into the files');
    const read = orderChanges([ab, ba], KIND_META, [], true);
    expect([read.diagnostics.items, idsOf(read.changes).sort()]).toEqual([[], ['rename:playbook:A', 'rename:playbook:B']]);
    // A swap the files made is the files' to break, read or not.
    const files = orderChanges([{ ...ab, direction: 'changed-in-files' }, ba], KIND_META, [], true);
    expect(files.diagnostics.errors.map((d) => d.code)).toEqual(['dependency-cycle']);
  });
});

describe('order: deletes after what stopped referencing them', () => {
  it('deletes a custom term after the template that pointed to it is updated', () => {
    const live: LiveResource[] = [
      { kind: 'custom-template', id: 't-1', key: 'Consulting', name: 'Consulting', fields: {}, refs: [{ kind: 'custom-term', key: 'Old Terms' }] },
      { kind: 'custom-term', id: 'c-1', key: 'Old Terms', name: 'Old Terms', fields: {}, refs: [] },
    ];
    const del = change('delete', 'custom-term', 'Old Terms', { liveId: 'c-1' });
    const update = change('update', 'custom-template', 'Consulting', { liveId: 't-1' });
    const unrelated = change('update', 'custom-template', 'Other', { liveId: 't-2' });
    const { changes } = order([del, update, unrelated], live);
    expect(byId(changes, 'delete:custom-term:Old Terms').dependsOn).toEqual(['update:custom-template:Consulting']);
    expectBefore(changes, 'update:custom-template:Consulting', 'delete:custom-term:Old Terms');
  });

  it('archives a playbook after the rule that referenced it changes', () => {
    const live: LiveResource[] = [
      { kind: 'rule', id: 'r-1', key: 'NDA/Term', name: 'Term', parentId: 'pb-1', fields: {}, refs: [{ kind: 'playbook', key: 'Old' }] },
    ];
    const archive = change('archive', 'playbook', 'Old', { liveId: 'pb-9' });
    const update = change('update', 'rule', 'NDA/Term', { liveId: 'r-1', parent: { kind: 'playbook', key: 'NDA', liveId: 'pb-1' } });
    // Playbooks rank before rules, so without the dependency the archive would run first.
    const { changes } = order([archive, update], live);
    expect(byId(changes, 'archive:playbook:Old').dependsOn).toEqual(['update:rule:NDA/Term']);
    expect(idsOf(changes)).toEqual(['update:rule:NDA/Term', 'archive:playbook:Old']);
  });
});

describe('order: deterministic', () => {
  const make = (): Change[] => [
    change('update', 'rule', 'NDA/B', { liveId: 'r-2' }),
    change('create', 'playbook', 'Zeta'),
    change('invite', 'member', 'zed@acme.example'),
    change('update', 'organization', 'organization', { liveId: 'org-1' }),
    change('delete', 'rule', 'NDA/A', { liveId: 'r-1' }),
    change('create', 'playbook', 'Alpha'),
    change('update', 'playbook', 'Mid', { liveId: 'pb-3' }),
    change('invite', 'member', 'amy@acme.example'),
    change('update', 'rule', 'NDA/A2', { liveId: 'r-3' }),
  ];

  it('gives the same order whatever the input order', () => {
    const forward = idsOf(order(make()).changes);
    const reversed = idsOf(order(make().reverse()).changes);
    const shuffled = make();
    shuffled.push(...shuffled.splice(0, 4));
    expect(reversed).toEqual(forward);
    expect(idsOf(order(shuffled).changes)).toEqual(forward);
  });

  it('orders independent changes by kind, then action, then key', () => {
    expect(idsOf(order(make()).changes)).toEqual([
      'update:organization:organization',
      'invite:member:amy@acme.example',
      'invite:member:zed@acme.example',
      'create:playbook:Alpha',
      'create:playbook:Zeta',
      'update:playbook:Mid',
      'update:rule:NDA/A2',
      'update:rule:NDA/B',
      'delete:rule:NDA/A',
    ]);
  });

  it('keeps every change and sorts dependsOn', () => {
    const parent = { kind: 'playbook' as const, key: 'NDA' };
    const rule = change('create', 'rule', 'NDA/Term', { parent, refs: [{ kind: 'member', key: 'zed@acme.example', field: 'reviewer' }] });
    const { changes } = order([rule, change('invite', 'member', 'zed@acme.example'), change('create', 'playbook', 'NDA')]);
    expect(changes).toHaveLength(3);
    expect(byId(changes, 'create:rule:NDA/Term').dependsOn).toEqual(['create:playbook:NDA', 'invite:member:zed@acme.example']);
  });

  it('drops dependencies on changes that are not in the plan and does not mutate its input', () => {
    const input = change('update', 'playbook', 'NDA', { liveId: 'pb-1', dependsOn: ['rename:playbook:Elsewhere'] });
    const { changes, diagnostics } = order([input]);
    expect(diagnostics.items).toEqual([]);
    expect(changes[0]!.dependsOn).toEqual([]);
    expect(input.dependsOn).toEqual(['rename:playbook:Elsewhere']);
  });
});

describe('order: cycles', () => {
  it('reports a cycle as dependency-cycle naming its members, and only them', () => {
    const a = change('update', 'playbook', 'A', { liveId: 'pb-1', dependsOn: ['update:playbook:B'] });
    const b = change('update', 'playbook', 'B', { liveId: 'pb-2', dependsOn: ['update:playbook:A'] });
    const c = change('update', 'playbook', 'C', { liveId: 'pb-3' });
    const { changes, diagnostics } = order([a, b, c]);
    expect(diagnostics.errors).toHaveLength(1);
    const error = diagnostics.errors[0]!;
    expect(error.code).toBe('dependency-cycle');
    expect(error.message).toContain('update playbook "A"');
    expect(error.message).toContain('update playbook "B"');
    expect(error.message).not.toContain('"C"');
    // The way out a --target cannot give (one of them alone holds the cycle too): a third name (probe OW-5).
    expect(error.hint).toBe('break the cycle in the configuration: rename one of them to a third name first, apply, then finish the swap');
    expect(idsOf(changes)).toEqual(['update:playbook:C']);
  });
});
