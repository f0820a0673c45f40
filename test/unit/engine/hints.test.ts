import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildPlan } from '../../../src/engine/plan.js';
import { fieldHash, formatSyncRecord, syncState } from '../../../src/engine/sync.js';
import type { DesiredResource, LiveResource } from '../../../src/engine/types.js';
import { KIND_META, desiredMember, desiredPlaybook, desiredRule, liveMember, livePlaybook, liveRule } from './builders.js';
import { limitToTargets, parseTarget, type TargetSpec } from '../../../src/engine/target.js';
import { KINDS } from '../../../src/kinds/index.js';
import { oneTypoApart, pinHints, withoutCreateOf, withoutRemovalOf } from '../../../src/engine/hints.js';

function warnings(desired: DesiredResource[], live: LiveResource[]): string[] {
  const { plan, diagnostics } = buildPlan({ kinds: KIND_META, desired, live, prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: 't', planFormat: 'test' });
  expect(diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
  return plan!.warnings;
}

const NDA = { id: 'pb-1', name: 'NDA' };

describe('plan hints', () => {
  it('a new playbook with the same rules as an undeclared live one looks like a rename', () => {
    const hints = warnings(
      [desiredPlaybook('Mutual NDA'), desiredRule('Mutual NDA', 'Term'), desiredRule('Mutual NDA', 'Law')],
      [livePlaybook('pb-1', 'NDA'), liveRule('r-1', NDA, 'Law'), liveRule('r-2', NDA, 'Term')],
    );
    expect(hints).toEqual([
      'playbook "Mutual NDA" (playbooks/nda.yaml:1) looks like a rename of the live playbook "NDA" (the same rules), but the plan creates "Mutual NDA" beside it: if it was renamed, add `renamed_from: [NDA]`',
    ]);
    // Under --prune the plan archives the live one: not "beside it".
    const { plan } = buildPlan({
      kinds: KIND_META,
      desired: [desiredPlaybook('Mutual NDA'), desiredRule('Mutual NDA', 'Term'), desiredRule('Mutual NDA', 'Law')],
      live: [livePlaybook('pb-1', 'NDA'), liveRule('r-1', NDA, 'Law'), liveRule('r-2', NDA, 'Term')],
      prune: { playbooks: true },
      configDigest: 'c',
      target: { emulator: true },
      now: new Date(0),
      version: 't', planFormat: 'test',
    });
    expect(plan!.warnings).toContain(
      'playbook "Mutual NDA" (playbooks/nda.yaml:1) looks like a rename of the live playbook "NDA" (the same rules), but the plan archives "NDA" and creates "Mutual NDA": if it was renamed, add `renamed_from: [NDA]`',
    );
  });

  it('of several live objects with the same content, names the one of the closest name (probe KD-5)', () => {
    const hints = warnings([desiredPlaybook('Unterminated 2', { description: 'same text' })], [livePlaybook('pb-1', 'Evil pipe', 'same text'), livePlaybook('pb-2', 'Unterminated', 'same text')]);
    expect(hints).toEqual([expect.stringContaining('looks like a rename of the live playbook "Unterminated" (the same content)')]);
  });

  it('of several live playbooks with the same rules, names the one of the closest name, among many too: each renamed playbook its own (probe OA-1)', () => {
    const rules = (playbook: { id: string; name: string }, n: number) => [liveRule(`r-${n}-1`, playbook, 'Term'), liveRule(`r-${n}-2`, playbook, 'Law')];
    const two = [{ id: 'pb-s', name: 'Supplier NDA' }, { id: 'pb-c', name: 'Customer NDA' }];
    const hints = warnings(
      ['Customer NDA 2027', 'Supplier NDA 2027'].flatMap((name) => [desiredPlaybook(name), desiredRule(name, 'Term'), desiredRule(name, 'Law')]),
      two.flatMap((p, n) => [livePlaybook(p.id, p.name), ...rules(p, n)]),
    );
    expect(hints.map((h) => /^playbook "([^"]+)".*live playbook "([^"]+)"/.exec(h)!.slice(1))).toEqual([['Customer NDA 2027', 'Customer NDA'], ['Supplier NDA 2027', 'Supplier NDA']]);
    // Thirty of them, renamed from `PB i` to `PB-i`: past the few compared by spelling, alike but for punctuation.
    const many = Array.from({ length: 30 }, (_, i) => ({ id: `pb-${i}`, name: `PB ${i}` }));
    const renamed = warnings(
      [...many].reverse().flatMap((p) => [desiredPlaybook(p.name.replace(' ', '-')), desiredRule(p.name.replace(' ', '-'), 'Term'), desiredRule(p.name.replace(' ', '-'), 'Law')]),
      many.flatMap((p, n) => [livePlaybook(p.id, p.name), ...rules(p, n)]),
    );
    expect(renamed).toHaveLength(30);
    for (const h of renamed) {
      const [now, was] = /^playbook "([^"]+)".*live playbook "([^"]+)"/.exec(h)!.slice(1);
      expect(now!.replace('-', ' ')).toBe(was);
    }
  });

  it('finds a close name among more than 500 undeclared live objects too, by an index: a mass rename of a separator, a letter added (probe KG-1)', () => {
    const live = Array.from({ length: 2000 }, (_, i) => livePlaybook(`pb-${i}`, `Multi ${String(i).padStart(4, '0')}`));
    live.push(livePlaybook('pb-con', 'CON'), livePlaybook('pb-ab', 'AB'));
    const renamed = Array.from({ length: 600 }, (_, i) => desiredPlaybook(`Multi-${String(i).padStart(4, '0')}`));
    const hints = warnings([...renamed, desiredPlaybook('CONN'), desiredPlaybook('Zeta'), desiredPlaybook('A')], live);
    expect(hints).toHaveLength(601);
    expect(hints[0]).toBe('playbook "Multi-0000" (playbooks/nda.yaml:1) looks like a rename of the live playbook "Multi 0000" (a close name), but the plan creates "Multi-0000" beside it: if it was renamed, add `renamed_from: [Multi 0000]`');
    expect(hints).toContain('playbook "CONN" (playbooks/nda.yaml:1) looks like a rename of the live playbook "CON" (a close name), but the plan creates "CONN" beside it: if it was renamed, add `renamed_from: [CON]`');
    // No name is close to "Zeta"; a one-letter name is no typo of a two-letter one, as suggestions take it.
    expect(hints.some((h) => h.startsWith('playbook "Zeta"') || h.startsWith('playbook "A"'))).toBe(false);
    // A letter moved elsewhere is two edits, no close name (second read SR72-4); a letter other in its place is one.
    const moved = warnings([desiredPlaybook('Easel'), desiredPlaybook('Multi 0x00')], [...live, livePlaybook('pb-lease', 'Lease')]);
    expect(moved.some((h) => h.startsWith('playbook "Easel"'))).toBe(false);
    expect(moved).toContain('playbook "Multi 0x00" (playbooks/nda.yaml:1) looks like a rename of the live playbook "Multi 0000" (a close name), but the plan creates "Multi 0x00" beside it: if it was renamed, add `renamed_from: [Multi 0000]`');
  });

  it('writes a former name holding `${` as the files write it, `$${`, so the renamed_from it offers validates (probe HY-3)', () => {
    const hints = warnings(
      [desiredPlaybook('NDA'), desiredRule('NDA', 'Fee', { actions: 'ACCEPT 2 years' })],
      [livePlaybook('pb-1', 'NDA'), liveRule('r-1', NDA, 'Fee ${amount}', { actions: 'ACCEPT 2 years' })],
    );
    expect(hints).toEqual([
      'rule "Fee" (playbooks/nda.yaml:10) looks like a rename of the live rule "Fee ${amount}" (the same content), but the plan deletes "Fee ${amount}" and creates "Fee": if it was renamed, add `renamed_from: ["Fee $${amount}"]`',
    ]);
  });

  it('offers no copy docket renamed aside after a race as a rename source (probe KY-5)', () => {
    const aside = 'Term (duplicate r-1-abcd, created by a concurrent docket apply)';
    const hints = warnings([desiredPlaybook('NDA'), desiredRule('NDA', 'Term length', { actions: 'ACCEPT 2 years' })], [livePlaybook('pb-1', 'NDA'), liveRule('r-1-abcdef', NDA, aside, { actions: 'ACCEPT 2 years' })]);
    expect(hints).toEqual([]);
    // Another copy's suffix (not its own id) is a name like any other.
    expect(warnings([desiredPlaybook('NDA'), desiredRule('NDA', 'Term length', { actions: 'ACCEPT 2 years' })], [livePlaybook('pb-1', 'NDA'), liveRule('r-9', NDA, aside, { actions: 'ACCEPT 2 years' })])).toHaveLength(1);
  });

  it('a new rule with the same text as a rule the plan deletes looks like a rename; so does a close name', () => {
    const hints = warnings(
      [desiredPlaybook('NDA'), desiredRule('NDA', 'Term length', { actions: 'ACCEPT 2 years' }), desiredRule('NDA', 'Governing law', { actions: 'ACCEPT Germany' })],
      [livePlaybook('pb-1', 'NDA'), liveRule('r-1', NDA, 'Term', { actions: 'ACCEPT 2 years' }), liveRule('r-2', NDA, 'Governing Law', { actions: 'ACCEPT France' })],
    );
    expect(hints).toEqual([
      'rule "Term length" (playbooks/nda.yaml:10) looks like a rename of the live rule "Term" (the same content), but the plan deletes "Term" and creates "Term length": if it was renamed, add `renamed_from: [Term]`',
      'rule "Governing law" (playbooks/nda.yaml:10) looks like a rename of the live rule "Governing Law" (a close name), but the plan deletes "Governing Law" and creates "Governing law": if it was renamed, add `renamed_from: [Governing Law]`',
    ]);
  });

  it('says so first when the new name shows as a live one does, naming the letter of another alphabet or what shows as nothing, and to retype the file\'s name (probes IY-2, KQ-3)', () => {
    const hints = warnings(
      [desiredPlaybook('Inbound NDА'), desiredRule('Inbound NDА', 'Term'), desiredPlaybook('Vendor\u200b MSA'), desiredPlaybook('Outbound NDA')],
      [livePlaybook('pb-1', 'Inbound NDA'), liveRule('r-1', { id: 'pb-1', name: 'Inbound NDA' }, 'Term'), livePlaybook('pb-2', 'Vendor MSA'), livePlaybook('pb-3', 'Outbound NDА')],
    );
    expect(hints).toEqual([
      'playbook "Inbound NDА" (playbooks/nda.yaml:1) looks like a rename of the live playbook "Inbound NDA" (a name that shows the same: they differ only in letters of another alphabet drawn alike (Cyrillic `А`, Latin `A`)), but the plan creates "Inbound NDА" beside it: to keep "Inbound NDA" as it is, retype the name in the file; only if it is to be renamed to the look-alike, add `renamed_from: [Inbound NDA]`',
      'playbook "Vendor\\u200b MSA" (playbooks/nda.yaml:1) looks like a rename of the live playbook "Vendor MSA" (a name that shows the same: they differ only in characters that show as nothing), but the plan creates "Vendor\\u200b MSA" beside it: to keep "Vendor MSA" as it is, retype the name in the file; only if it is to be renamed to the look-alike, add `renamed_from: [Vendor MSA]`',
      // The odd letter live (typed in the app): the files' plain name is the one to keep, by a rename.
      'playbook "Outbound NDA" (playbooks/nda.yaml:1) looks like a rename of the live playbook "Outbound NDА" (a name that shows the same: they differ only in letters of another alphabet drawn alike (Cyrillic `А`, Latin `A`)), but the plan creates "Outbound NDA" beside it: if it was renamed, add `renamed_from: ["Outbound NDА"]`',
    ]);
  });

  it('writes `##[` in the renamed_from it offers as an escape YAML reads back, since every printed line breaks the characters up (probe JC-4)', () => {
    const [hint] = warnings([desiredPlaybook('Evil 2', { description: 'same' })], [livePlaybook('pb-1', 'Evil ##[error]x', 'same')]);
    const offered = /`renamed_from: \[(.*)\]`/.exec(hint!)![1]!;
    expect(offered).toBe('"Evil #\\u0023[error]x"');
    expect(parse(`[${offered}]`)).toEqual(['Evil ##[error]x']);
  });

  it('says nothing of an object removed live since the last sync: creating it again is no rename of another', () => {
    const sync = syncState([{ 'playbook:PB 2': formatSyncRecord({ id: 'pb-2', fields: { name: fieldHash('PB 2') } }) }]);
    const { plan } = buildPlan({ kinds: KIND_META, desired: [desiredPlaybook('PB 2')], live: [livePlaybook('pb-1', 'PB 1')], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: 't', planFormat: 'test', sync });
    expect(plan!.changes.map((c) => [c.action, c.direction])).toEqual([['create', 'removed-live']]);
    expect(plan!.warnings).toEqual([]);
    // Never in sync before, the same close name is worth the warning.
    expect(warnings([desiredPlaybook('PB 2')], [livePlaybook('pb-1', 'PB 1')])).toHaveLength(1);
  });

  it("says it of an object removed live whose record names another declared object's live id: a look-alike no file declares may be it, renamed in the app (probe KY-1)", () => {
    const rec = (name: string, id: string) => formatSyncRecord({ id, fields: { name: fieldHash(name) } });
    // The record of L1 edited by hand onto L2's id; L1 renamed in the app since.
    const sync = syncState([{ 'playbook:NDA': rec('NDA', 'pb-1'), 'rule:NDA/L1': rec('L1', 'r-2'), 'rule:NDA/L2': rec('L2', 'r-2') }]);
    const desired = [desiredPlaybook('NDA'), desiredRule('NDA', 'L1', { actions: 'ACCEPT one' }), desiredRule('NDA', 'L2', { actions: 'ACCEPT two' })];
    const live = [livePlaybook('pb-1', 'NDA'), liveRule('r-1', NDA, 'L1 live', { actions: 'ACCEPT one' }), liveRule('r-2', NDA, 'L2', { actions: 'ACCEPT two' })];
    const { plan } = buildPlan({ kinds: KIND_META, desired, live, prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: 't', planFormat: 'test', sync });
    expect(plan!.warnings).toEqual([expect.stringContaining('rule "L1" (playbooks/nda.yaml:10) looks like a rename of the live rule "L1 live" (the same content)')]);
  });

  it('a new playbook with the rules an undeclared live one had when last synced looks like a rename, though its rules were not read (probe LO-1)', () => {
    const rec = (name: string, id: string) => formatSyncRecord({ id, fields: { name: fieldHash(name) } });
    const records = { 'playbook:G': rec('G', 'pb-1'), 'rule:G/R1': rec('R1', 'r-1'), 'rule:G/R2': rec('R2', 'r-2'), 'rule:G/R 3': rec('R 3', 'r-3') };
    const plan = (rules: string[], sync: Record<string, string>) =>
      buildPlan({ kinds: KIND_META, desired: [desiredPlaybook('Zeta'), ...rules.map((r) => desiredRule('Zeta', r))], live: [livePlaybook('pb-1', 'G')], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: 't', planFormat: 'test', sync: syncState([sync]) }).plan!;
    expect(plan(['R 3', 'R1', 'R2'], records).warnings).toEqual([
      'playbook "Zeta" (playbooks/nda.yaml:1) looks like a rename of the live playbook "G" (the same rules when docket last synced it), but the plan creates "Zeta" beside it: if it was renamed, add `renamed_from: [G]`',
    ]);
    // Other rules, or rules recorded under another playbook: nothing to go by.
    expect(plan(['R1', 'R2'], records).warnings).toEqual([]);
    expect(plan(['R1', 'R2'], { 'playbook:G': rec('G', 'pb-1'), 'rule:H/R1': rec('R1', 'r-1'), 'rule:H/R2': rec('R2', 'r-2') }).warnings).toEqual([]);
    // A playbook whose name holds a slash keeps its rules apart from one named as its first part.
    expect(plan(['R1'], { 'playbook:G/H': rec('G/H', 'pb-1'), 'rule:G/H/R1': rec('R1', 'r-1') }).warnings).toEqual([expect.stringContaining('(the same rule when docket last synced it)')]);
    // And the rules of one named as its longer name are not its own (second read SR75-3).
    expect(plan(['R1'], { 'playbook:G': rec('G', 'pb-1'), 'rule:G/R1': rec('R1', 'r-1'), 'playbook:G/H': rec('G/H', 'pb-2'), 'rule:G/H/R2': rec('R2', 'r-2') }).warnings).toEqual([expect.stringContaining('(the same rule when docket last synced it)')]);
  });

  it('offers no live object another document lists in its renamed_from: two would claim one former name (probe LS-5)', () => {
    const live = [livePlaybook('pb-1', 'NDA'), liveRule('r-1', NDA, 'Term'), liveRule('r-2', NDA, 'Terms')];
    const fresh = desiredRule('NDA', 'Termz');
    const listed = warnings([desiredPlaybook('NDA'), desiredRule('NDA', 'Term', {}, { renamedFrom: ['Terms'] }), fresh], live);
    expect(listed.filter((w) => w.includes('looks like a rename'))).toEqual([]);
    // Listed by none, it is offered.
    expect(warnings([desiredPlaybook('NDA'), desiredRule('NDA', 'Term'), fresh], live)).toEqual([expect.stringContaining('looks like a rename of the live rule "Terms"')]);
  });

  it('says nothing when the new object is unlike every live one, or was renamed with renamed_from', () => {
    expect(warnings([desiredPlaybook('Vendor MSA', { description: 'Suppliers' })], [livePlaybook('pb-1', 'NDA', 'Counterparties')])).toEqual([]);
    expect(warnings([desiredPlaybook('Mutual NDA', { renamedFrom: ['NDA'] })], [livePlaybook('pb-1', 'NDA')])).toEqual([]);
  });

  it('says where a renamed_from that names no live object is written, so a misspelt former name is not taken for a missing one (probe IK-3)', () => {
    const renamed = { renamedFrom: ['Vendr MSA'], fieldSources: { renamed_from: { file: 'playbooks/nda.yaml', line: 3, col: 15 } } };
    expect(warnings([desiredPlaybook('Vendor MSA 2027', renamed)], [livePlaybook('pb-1', 'Vendor MSA')])).toEqual([
      'playbook "Vendor MSA 2027" (playbooks/nda.yaml:1) looks like a rename of the live playbook "Vendor MSA" (a close name), but the plan creates "Vendor MSA 2027" beside it: if it was renamed, add "Vendor MSA" to its `renamed_from` (playbooks/nda.yaml:3), whose "Vendr MSA" names no live playbook',
    ]);
  });

  it('a new template alike an undeclared live one only in its type (and a number) is no rename; alike in its text, it is', () => {
    const template = (name: string, fields: Record<string, unknown>): DesiredResource => ({
      kind: 'template',
      key: name,
      name,
      fields: { name, ...fields },
      partial: true,
      refs: [],
      renamedFrom: [],
      source: { file: 'templates/t.yaml', line: 1, col: 1 },
      fieldSources: {},
    });
    const vendor: LiveResource = { kind: 'template', id: 't-1', key: 'Vendor NDA', name: 'Vendor NDA', fields: { name: 'Vendor NDA', type: 'NDA', 'parameters.term': 2, 'parameters.purpose': 'Evaluating vendors' }, refs: [] };
    expect(warnings([template('Customer NDA', { type: 'NDA' })], [vendor])).toEqual([]);
    expect(warnings([template('Customer NDA', { type: 'NDA', 'parameters.term': 2 })], [vendor])).toEqual([]);
    expect(warnings([template('Supplier NDA', { type: 'NDA', 'parameters.purpose': 'Evaluating vendors' })], [vendor])).toEqual([
      'template "Supplier NDA" (templates/t.yaml:1) looks like a rename of the live template "Vendor NDA" (the same content), but the plan creates "Supplier NDA" beside it, and a template cannot be deleted over the API: if it was renamed, add `renamed_from: [Vendor NDA]`',
    ]);
  });

  it('quotes a suggested former name that YAML would misread', () => {
    const [hint] = warnings([desiredPlaybook('NDA: mutual', { description: 'x' })], [livePlaybook('pb-1', 'NDA: one-way', 'x')]);
    expect(hint).toContain('add `renamed_from: ["NDA: one-way"]`');
  });

  it('escapes in both names and the suggested renamed_from what shows as nothing, which may be all that differs', () => {
    const [hint] = warnings([desiredPlaybook('Omega', { description: 'bidi' })], [livePlaybook('pb-1', 'Omega\u202e\u200b\u0007', 'bidi')]);
    expect(hint).toBe(
      'playbook "Omega" (playbooks/nda.yaml:1) looks like a rename of the live playbook "Omega\\u202e\\u200b\\u0007" (the same content), but the plan creates "Omega" beside it: if it was renamed, add `renamed_from: ["Omega\\u202e\\u200b\\u0007"]`',
    );
  });

  it('a member name that differs from the existing user is said to be unmanaged, not "no changes"', () => {
    const live = { ...liveMember('u-1', 'bob@acme.example'), extra: { name: 'Bob Jones' } };
    const { plan } = buildPlan({ kinds: KIND_META, desired: [desiredMember('bob@acme.example', 'Robert Jones')], live: [live], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: 't', planFormat: 'test' });
    expect(plan!.changes).toEqual([]);
    expect(plan!.warnings).toEqual([
      'member "bob@acme.example" (members.yaml:1): `name` is set only when docket invites it, and is not managed for an existing one: it stays "Bob Jones" live (the file says "Robert Jones")',
    ]);
    expect(warnings([desiredMember('bob@acme.example', 'Bob Jones')], [live])).toEqual([]);
    // The service holds the name decomposed, as the files' read composes it: the same name (probe BB-1).
    expect(warnings([desiredMember('bob@acme.example', 'Caf\u00e9 Ops')], [{ ...live, extra: { name: 'Cafe\u0301 Ops' } }])).toEqual([]);
    // A no-break or zero-width space, which may be all that differs, is escaped (probe AH-2).
    const spaced = buildPlan({ kinds: KIND_META, desired: [desiredMember('bob@acme.example', 'Bob\u00a0Jones\u200b')], live: [live], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: 't', planFormat: 'test' });
    expect(spaced.plan!.warnings[0]).toContain('it stays "Bob Jones" live (the file says "Bob\\u00a0Jones\\u200b")');
    // A user with no name live: said so, not as the value null.
    const nameless = { ...live, extra: { name: null } };
    expect(warnings([desiredMember('bob@acme.example', 'Robert Jones')], [nameless])).toEqual([
      'member "bob@acme.example" (members.yaml:1): `name` is set only when docket invites it, and is not managed for an existing one: it has none live (the file says "Robert Jones")',
    ]);
  });
});

describe('plan hints of close identities', () => {
  it('says a member invited whose address is close to a live one no file declares, as a likely typo (probe DB-3)', () => {
    const live = [liveMember('u-1', 'gina@acme.example'), liveMember('u-2', 'alice@acme.example')];
    expect(warnings([desiredMember('gina@acme.exampel'), desiredMember('alice@acme.example')], live)).toEqual([
      'member "gina@acme.exampel" (members.yaml:1) is close to the live member "gina@acme.example", which no file declares: if it is a typo of it, fix the file, or the apply will invite "gina@acme.exampel"',
    ]);
    // A live one the files declare is theirs: not offered; nor a new address like no live one.
    expect(warnings([desiredMember('gina@acme.exampel'), desiredMember('gina@acme.example')], live)).toEqual([]);
    expect(warnings([desiredMember('zed@other.example')], live)).toEqual([]);
  });

  it('is not said by a plan cut to targets that leave the invite out (second read SR102-3)', () => {
    const { plan } = buildPlan({ kinds: KIND_META, desired: [desiredMember('gina@acme.exampel'), desiredPlaybook('P', { description: 'new' })], live: [liveMember('u-1', 'gina@acme.example'), livePlaybook('pb-1', 'P', 'old')], prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: 't', planFormat: 'test' });
    expect(plan!.warnings.some((w) => w.includes('is close to the live member'))).toBe(true);
    const cut = limitToTargets(plan!, [desiredMember('gina@acme.exampel'), desiredPlaybook('P', { description: 'new' })], [parseTarget('playbook/P', KINDS) as TargetSpec], KINDS);
    expect(cut.plan!.changes.map((c) => c.id)).toEqual(['update:playbook:P']);
    expect(cut.plan!.warnings.filter((w) => w.includes('is close to the live member'))).toEqual([]);
  });

  it('takes only one typo on one half of a long enough address: not a prefix, a word in common or a short name (second read SR102-2)', () => {
    for (const [made, held] of [['chris@acme.example', 'christine@acme.example'], ['legal@acme.example', 'legal-ops@acme.example'], ['tom@acme.example', 'tim@acme.example'], ['alice@acme.io', 'alice@acme.com'], ['jennifer.lee@acme.example', 'jennifer.li@acme.example']]) {
      expect(oneTypoApart(made!, held!), `${made} ${held}`).toBe(false);
    }
    for (const [made, held] of [['gina@acme.exampel', 'gina@acme.example'], ['jon.smith@acme.example', 'john.smith@acme.example'], ['Alcie@acme.example', 'alice@acme.example'], ['bobby@acme.exmple', 'bobby@acme.example']]) {
      expect(oneTypoApart(made!, held!), `${made} ${held}`).toBe(true);
    }
  });
});

describe('plan hints from the sync records', () => {
  const term = (name: string, body: string): DesiredResource => ({
    kind: 'custom-term',
    key: name,
    name,
    fields: { name, body },
    partial: false,
    refs: [],
    renamedFrom: [],
    source: { file: 'custom-terms/c.yaml', line: 1, col: 1 },
    fieldSources: {},
  });
  // A custom term no file declares is listed, not read: live, it holds only its name.
  const liveTerm = (id: string, name: string): LiveResource => ({ kind: 'custom-term', id, key: name, name, fields: { name }, refs: [] });
  const plan = (desired: DesiredResource[], live: LiveResource[], records: Record<string, string>) =>
    buildPlan({ kinds: KIND_META, desired, live, prune: {}, configDigest: 'c', target: { emulator: true }, now: new Date(0), version: 't', planFormat: 'test', sync: syncState([records]) }).plan!;

  it('a new custom term with the body an undeclared live one had when last synced looks like a rename (a revert of one), which would leave a term nobody can delete', () => {
    const body = '1. Fees. Customer pays within 45 days.';
    const records = { 'custom-term:Advisory Terms': formatSyncRecord({ id: 'ct-1', fields: { name: fieldHash('Advisory Terms'), body: fieldHash(body) } }) };
    expect(plan([term('Consulting Terms', body)], [liveTerm('ct-1', 'Advisory Terms')], records).warnings).toEqual([
      'custom-term "Consulting Terms" (custom-terms/c.yaml:1) looks like a rename of the live custom-term "Advisory Terms" (the same content when docket last synced it), but the plan creates "Consulting Terms" beside it, and a custom-term cannot be deleted over the API: if it was renamed, add `renamed_from: [Advisory Terms]`',
    ]);
    // Another body, or no record of the live term: nothing says they are one.
    expect(plan([term('Consulting Terms', `${body} Changed.`)], [liveTerm('ct-1', 'Advisory Terms')], records).warnings).toEqual([]);
    expect(plan([term('Consulting Terms', body)], [liveTerm('ct-1', 'Advisory Terms')], {}).warnings).toEqual([]);
  });
});

describe('withoutRemovalOf', () => {
  it('says the plan creates the new name beside the live one, also when a name holds the words the warning ends with (second read SR73-9)', () => {
    const warning = 'playbook "Records: to keep" (playbooks/r.yaml:1) looks like a rename of the live playbook "Records: to keep old" (the same rules), but the plan archives "Records: to keep old" and creates "Records: to keep": if it was renamed, add `renamed_from: ["Records: to keep old"]`';
    expect(withoutRemovalOf(warning, { kind: 'playbook', name: 'Records: to keep old', action: 'archive' })).toBe(
      'playbook "Records: to keep" (playbooks/r.yaml:1) looks like a rename of the live playbook "Records: to keep old" (the same rules), but the plan creates "Records: to keep" beside it: if it was renamed, add `renamed_from: ["Records: to keep old"]`',
    );
  });

  it('of a rule whose delete a cut plan leaves out, says it creates beside it; of one whose create it leaves out, that it deletes the look-alike (probe BG-2)', () => {
    const warning = 'rule "Term of agreement" (playbooks/p.yaml:4) looks like a rename of the live rule "Term" (the same content), but the plan deletes "Term" and creates "Term of agreement": if it was renamed, add `renamed_from: [Term]`';
    const term = { kind: 'rule', name: 'Term', action: 'delete' };
    expect(withoutRemovalOf(warning, term)).toBe('rule "Term of agreement" (playbooks/p.yaml:4) looks like a rename of the live rule "Term" (the same content), but the plan creates "Term of agreement" beside it: if it was renamed, add `renamed_from: [Term]`');
    expect(withoutCreateOf(warning, term)).toBe('rule "Term of agreement" (playbooks/p.yaml:4) looks like a rename of the live rule "Term" (the same content), but the plan deletes "Term" (creating "Term of agreement" is outside its targets): if it was renamed, add `renamed_from: [Term]`');
    // Of another object: not this hint's.
    expect(withoutCreateOf(warning, { ...term, name: 'Other' })).toBeUndefined();
    expect(withoutRemovalOf(warning, { ...term, action: 'archive' })).toBe(warning);
  });
});

describe('pinHints', () => {
  const adoptable = (key: string, liveId: string) => ({ kind: 'attachment' as const, key, liveId, field: 'sha256', sha256: 'ab', file: `attachments/${key}.pdf`, reason: 'no lock entry' });
  const template = (refs: { key: string; field: string }[]): DesiredResource =>
    ({ kind: 'template', key: 'T', name: 'T', fields: {}, refs: refs.map((r) => ({ kind: 'attachment', key: r.key, field: r.field })), renamedFrom: [], partial: false }) as unknown as DesiredResource;
  const liveTemplate = (attachments: string[]): LiveResource => ({ kind: 'template', id: 't-1', key: 'T', name: 'T', fields: {}, refs: [], refIds: { attachments } }) as unknown as LiveResource;

  it('of a list naming several attachments, says only the upload held where the pinned one is named, not the others the files name beside it (probe OC-3)', () => {
    const desired = [template([{ key: 'A', field: 'attachments' }, { key: 'B', field: 'attachments' }])];
    const ids = { 'template:T': 't-1', 'attachment:A': 'a-1', 'attachment:B': 'b-new' };
    // B pinned to its new upload; the template still names A's and B's earlier one.
    const said = pinHints([adoptable('B', 'b-new')], desired, [liveTemplate(['a-1', 'b-old'])], ids);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('names upload b-old where the files name attachment "B"');
    // Naming A's and B's own upload: nothing to say.
    expect(pinHints([adoptable('B', 'b-new')], desired, [liveTemplate(['a-1', 'b-new'])], ids)).toEqual([]);
  });

  it('takes no upload that docket.lock.json says another listed attachment replaced for the pinned one\'s (probe QC-1)', () => {
    const desired = [template([{ key: 'A', field: 'attachments' }, { key: 'B', field: 'attachments' }])];
    const ids = { 'template:T': 't-1', 'attachment:A': 'a-new', 'attachment:B': 'b-new' };
    const liveA = { kind: 'attachment', id: 'a-new', key: 'A', name: 'A', fields: {}, refs: [], extra: { earlier: ['a-old'] } } as unknown as LiveResource;
    // A re-uploaded and recorded; B's new upload pinned, its old one still named: only B's old one is said.
    const said = pinHints([adoptable('B', 'b-new')], desired, [liveTemplate(['a-old', 'b-old']), liveA], ids);
    expect(said).toHaveLength(1);
    expect(said[0]).toContain('names upload b-old where the files name attachment "B"');
  });
});
