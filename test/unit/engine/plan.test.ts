import { describe, expect, it } from 'vitest';
import { fingerprint } from '../../../src/engine/diff.js';
import { buildPlan, configDigest, configDigestInSlices, hasChanges } from '../../../src/engine/plan.js';
import type { BuildPlanInput } from '../../../src/engine/plan.js';
import type { DesiredResource, LiveResource } from '../../../src/engine/types.js';
import type { SourcePos } from '../../../src/diagnostics.js';
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

const NOW = new Date('2025-03-04T05:06:07.000Z');

function plan(desired: DesiredResource[], live: LiveResource[], extra: Partial<BuildPlanInput> = {}) {
  return buildPlan({
    kinds: KIND_META,
    desired,
    live,
    prune: {},
    configDigest: 'cfg',
    target: { emulator: true },
    now: NOW,
    version: '9.9.9', planFormat: 'test',
    ...extra,
  });
}

const NDA = { id: 'pb-1', name: 'NDA' };


/** A custom template `name` whose `field` names the custom term `term`, written at `at`. */
function templateNaming(name: string, term: string, field: string, at: SourcePos): DesiredResource {
  return { ...desiredPlaybook(name), kind: 'custom-template', refs: [{ kind: 'custom-term', key: term, field, source: at }] };
}

function liveTermNamed(name: string): LiveResource {
  return { kind: 'custom-term', id: 't-1', key: name, name, fields: {}, refs: [] };
}
describe('buildPlan', () => {
  it('counts changes per action in the summary', () => {
    const { plan: p, diagnostics } = plan(
      [
        desiredMember('new@acme.example'),
        desiredPlaybook('MSA'),
        desiredRule('MSA', 'Term'),
        desiredRule('MSA', 'Law'),
        desiredPlaybook(NDA.name, { description: 'changed' }),
        desiredRule(NDA.name, 'Keep'),
      ],
      [livePlaybook(NDA.id, NDA.name), liveRule('r-1', NDA, 'Keep'), liveRule('r-2', NDA, 'Drop'), livePlaybook('pb-9', 'Legacy')],
    );
    expect(diagnostics).toEqual([]);
    expect(p?.summary).toEqual({ invite: 1, create: 3, update: 1, delete: 1 });
    expect(p?.changes).toHaveLength(6);
    expect(p?.undeclared).toEqual([expect.objectContaining({ kind: 'playbook', count: 1, names: ['Legacy'] })]);
    expect(hasChanges(p!)).toBe(true);
  });

  it('an empty diff is a plan without changes', () => {
    const { plan: p } = plan([desiredPlaybook(NDA.name)], [livePlaybook(NDA.id, NDA.name)]);
    expect(p?.changes).toEqual([]);
    expect(p?.summary).toEqual({});
    expect(hasChanges(p!)).toBe(false);
  });

  it('says what the match warns of with the plan\'s warnings, at its file and line', () => {
    const renamed = desiredPlaybook('NDA 2025', { renamedFrom: ['NDA'], fieldSources: { renamed_from: pos(3, 15, 'playbooks/nda.yaml') } });
    const { plan: p } = plan([renamed], [livePlaybook('pb-1', 'NDA'), livePlaybook('pb-2', 'NDA 2025')]);
    expect(p?.warnings).toContain(
      'playbook "NDA 2025" says it was renamed from "NDA", but both are live: docket matches the live "NDA 2025" and leaves "NDA" as it is (playbooks/nda.yaml:3): remove "NDA" from `renamed_from` to keep both; to let the live "NDA" go, remove it (in the app, or with --prune where docket can); to rename it onto "NDA 2025" after all, remove the live "NDA 2025" in the app first',
    );
  });

  it('says of a kind the services cannot remove to rename the live holder of the name away, not to remove it (second read SR105-5)', () => {
    const term = (name: string, renamedFrom: string[] = []): DesiredResource => ({ kind: 'custom-term', key: name, name, fields: { name, body: 'B' }, partial: false, refs: [], renamedFrom, source: pos(1, 1, 'terms/t.yaml'), fieldSources: {} });
    const live = (id: string, name: string): LiveResource => ({ kind: 'custom-term', id, key: name, name, fields: { name, body: 'B' }, refs: [] });
    const { plan: p } = plan([term('Terms 2025', ['Terms'])], [live('t-1', 'Terms'), live('t-2', 'Terms 2025')]);
    expect(p?.warnings.find((w) => w.includes('but both are live'))).toMatch(/: remove "Terms" from `renamed_from` to keep both; to rename "Terms" onto "Terms 2025" after all, rename the live "Terms 2025" to another name in the app first$/);
  });

  it('records the clock, version, digest, environment and known ids it was given', () => {
    const { plan: p } = plan([desiredPlaybook(NDA.name)], [livePlaybook(NDA.id, NDA.name)], {
      environment: 'staging',
      configDigest: 'abc',
      warnings: ['partial plan'],
    });
    expect(p).toMatchObject({
      format_version: 1,
      docket_version: '9.9.9',
      plan_format: 'test',
      created_at: '2025-03-04T05:06:07.000Z',
      environment: 'staging',
      config_digest: 'abc',
      warnings: ['partial plan'],
    });
    expect(p?.ids['playbook:NDA']).toBe('pb-1');
  });

  it('puts changes in dependency order', () => {
    const { plan: p } = plan(
      [desiredPlaybook('MSA'), desiredRule('MSA', 'Term', { reviewer: 'new@acme.example' }), desiredMember('new@acme.example')],
      [],
    );
    expect(p?.changes.map((c) => c.id)).toEqual(['invite:member:new@acme.example', 'create:playbook:MSA', 'create:rule:MSA/Term']);
  });

  it('puts fingerprints on changes to live objects and null on creates', () => {
    const live = [livePlaybook(NDA.id, NDA.name, 'old'), liveRule('r-2', NDA, 'Drop')];
    const { plan: p } = plan([desiredPlaybook(NDA.name, { description: 'new' }), desiredRule(NDA.name, 'Fresh')], live);
    const byId = new Map(p!.changes.map((c) => [c.id, c]));
    expect(byId.get('update:playbook:NDA')?.fingerprint).toBe(fingerprint(live[0]!));
    expect(byId.get('delete:rule:NDA/Drop')?.fingerprint).toBe(fingerprint(live[1]!));
    expect(byId.get('create:rule:NDA/Fresh')?.fingerprint).toBeNull();
  });

  it('refuses to produce a plan when diff finds an error', () => {
    const { plan: p, diagnostics } = plan([desiredPlaybook(NDA.name)], [livePlaybook('pb-1', NDA.name), livePlaybook('pb-2', NDA.name)]);
    expect(p).toBeUndefined();
    expect(diagnostics.map((d) => d.code)).toEqual(['ambiguous-match']);
  });
});

describe('buildPlan: references', () => {
  const rule = (): DesiredResource =>
    desiredRule(NDA.name, 'Term', { reviewer: 'ghost@acme.example' }, {
      refs: [{ kind: 'member', key: 'ghost@acme.example', field: 'reviewer', source: pos(12, 15, 'playbooks/nda.yaml') }],
    });

  it('a reviewer that is neither declared nor live is unknown-reference at the reviewer line', () => {
    const { plan: p, diagnostics } = plan([desiredPlaybook(NDA.name), rule()], [livePlaybook(NDA.id, NDA.name), liveMember('u-1', 'alice@acme.example')]);
    expect(p).toBeUndefined();
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'unknown-reference', file: 'playbooks/nda.yaml', line: 12, col: 15 });
    expect(diagnostics[0]!.message).toContain('`reviewer` names "ghost@acme.example", which is neither');
    expect(diagnostics[0]!.hint).toContain('kind: Member');
  });

  it('looks a name missing in many places up once, and past a million names compared says the rest without "did you mean" (probe IG-3)', () => {
    const members = Array.from({ length: 1000 }, (_, i) => liveMember(`u-${i}`, `user${i}@acme.example`));
    // 1,001 different misspelt reviewers, each twice: the last one's is past the budget.
    const rules = Array.from({ length: 1001 }, (_, i) => {
      const ghost = `usr${i}@acme.example`;
      const refs = [1, 2].map((n) => ({ kind: 'member' as const, key: ghost, field: 'reviewer', source: pos(i * 2 + n, 15, 'playbooks/nda.yaml') }));
      return desiredRule(NDA.name, `R${i}`, { reviewer: ghost }, { refs });
    });
    const { diagnostics } = plan([desiredPlaybook(NDA.name), ...rules], [livePlaybook(NDA.id, NDA.name), ...members]);
    expect(diagnostics).toHaveLength(2002);
    expect(diagnostics[0]!.message).toContain('did you mean `user0@acme.example`?');
    expect(diagnostics[1]!.message).toContain('did you mean `user0@acme.example`?');
    expect(diagnostics.at(-1)!.message).not.toContain('did you mean');
    expect(diagnostics.at(-1)!.hint).toContain('kind: Member');
  });

  it('says a name only a pending document declares is live only where it is listed, and how to declare it in another organization (probe QO-1)', () => {
    const pending = new Map([['custom-term:Data Terms', 'custom-terms/data-terms.yaml.pending'], ['attachment:Security Exhibit', 'attachments/security-exhibit.yaml.pending']]);
    const naming = [templateNaming('Data Agreement', 'Data Terms', 'custom_term', pos(4, 14, 'custom-templates/data.yaml'))];
    const term = plan(naming, [], { pending }).diagnostics;
    expect(term).toEqual([expect.objectContaining({ code: 'unknown-reference', line: 4 })]);
    expect(term[0]!.message).toBe('`custom_term` names custom-term "Data Terms", which only a pending document declares (custom-terms/data-terms.yaml.pending), and no live custom-term has that name here');
    expect(term[0]!.hint).toContain('taking its `id:` line out');
    expect(term[0]!.hint).not.toContain('--adopt-files');
    // An attachment cannot be listed: live where it was exported from, unconfirmed; adopting is for there alone.
    const attachment = plan([{ ...templateNaming('CSA', 'x', 'x', pos(1)), kind: 'template', refs: [{ kind: 'attachment', key: 'Security Exhibit', field: 'parameters.include_security_policy_attachment_id', source: pos(7, 3, 'templates/csa.yaml') }] }], [], { pending }).diagnostics;
    expect(attachment[0]!.message).toContain('which only a pending document declares (attachments/security-exhibit.yaml.pending): live in the organization it was exported from, which the service cannot confirm');
    expect(attachment[0]!.hint).toBe('add the file it names and rename the document to .yaml; then, in the organization it was exported from, `docket apply --adopt-files`; in another, take its `id:` line out first, so apply uploads the file');
  });

  it('suggests a live name holding `${` as the files write it, `$${`: pasted as said, it validates (probe HY-3)', () => {
    const { diagnostics } = plan([templateNaming('Supplier NDA', 'Fee ${amounts}', 'terms', pos(6, 5, 'custom-templates/nda.yaml'))], [liveTermNamed('Fee ${amount}')]);
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'unknown-reference', line: 6 })]);
    expect(diagnostics[0]!.message).toContain('did you mean `Fee $${amount}`?');
    expect(diagnostics[0]!.hint).toMatch(/^if you meant "Fee \$\$\{amount\}", write that;/);
  });

  it('says what differs when the name it suggests shows as the one written: a Cyrillic letter typed for a Latin one (probe KQ-4)', () => {
    const { diagnostics } = plan([templateNaming('Consulting Agreement', 'C\u043ensulting Terms', 'custom_term', pos(3, 14, 'custom-templates/consulting.yaml'))], [liveTermNamed('Consulting Terms')]);
    expect(diagnostics[0]!.message).toContain('did you mean `Consulting Terms`? (they differ only in letters of another alphabet drawn alike (Cyrillic `о`, Latin `o`))');
  });

  it('warns of a reference to an undeclared live object named as a declared one shows, which would read as no change (probe RF-1)', () => {
    const declaredTerm: DesiredResource = { ...desiredPlaybook('Consulting Terms'), kind: 'custom-term' };
    const lookAlikeName = 'Consulting \u0422erms';
    const naming = templateNaming('Consulting Agreement', lookAlikeName, 'custom_term', pos(4, 14, 'custom-templates/consulting.yaml'));
    const live = [liveTermNamed('Consulting Terms'), { ...liveTermNamed(lookAlikeName), id: 't-2' }];
    const { diagnostics } = plan([declaredTerm, naming], live);
    expect(diagnostics).toEqual([expect.objectContaining({ severity: 'warning', code: 'look-alike-reference', file: 'custom-templates/consulting.yaml', line: 4, col: 14 })]);
    expect(diagnostics[0]!.message).toBe('`custom_term` names custom-term "Consulting \u0422erms", which no file declares but is live, and which shows as the declared "Consulting Terms": they differ only in letters of another alphabet drawn alike (Cyrillic `\u0422`, Latin `T`)');
    expect(diagnostics[0]!.hint).toBe('if you meant "Consulting Terms", write that; else rename one of the two, in the app or in its file, so that they can be told apart');
    // Naming the declared one, or an undeclared live one that shows as no declared name, is said nothing of.
    expect(plan([declaredTerm, templateNaming('Consulting Agreement', 'Consulting Terms', 'custom_term', pos(4))], live).diagnostics).toEqual([]);
    expect(plan([templateNaming('Consulting Agreement', lookAlikeName, 'custom_term', pos(4))], live).diagnostics).toEqual([]);
  });

  it('accepts a reviewer declared as a Member (and invites it first)', () => {
    const { plan: p, diagnostics } = plan([desiredPlaybook(NDA.name), rule(), desiredMember('ghost@acme.example')], [livePlaybook(NDA.id, NDA.name)]);
    expect(diagnostics).toEqual([]);
    expect(p?.changes.map((c) => c.id)).toEqual(['invite:member:ghost@acme.example', 'create:rule:NDA/Term']);
  });

  it('accepts a reviewer that exists live', () => {
    const { plan: p, diagnostics } = plan([desiredPlaybook(NDA.name), rule()], [livePlaybook(NDA.id, NDA.name), liveMember('u-7', 'ghost@acme.example')]);
    expect(diagnostics).toEqual([]);
    expect(p?.changes.map((c) => c.id)).toEqual(['create:rule:NDA/Term']);
    expect(p?.ids['member:ghost@acme.example']).toBe('u-7');
  });

  it('a member that exists but whose id the service does not say is not invited again, and naming it is an error at the reviewer line', () => {
    const invitedOnly: LiveResource = { ...liveMember('invited:ghost@acme.example', 'ghost@acme.example'), idUnknown: { message: 'whose id is not said', hint: 'pin its id' } };
    const alone = plan([desiredMember('ghost@acme.example')], [invitedOnly]);
    expect(alone.diagnostics).toEqual([]);
    expect(alone.plan?.changes).toEqual([]);
    const named = plan([desiredPlaybook(NDA.name), rule(), desiredMember('ghost@acme.example')], [livePlaybook(NDA.id, NDA.name), invitedOnly]);
    expect(named.plan).toBeUndefined();
    expect(named.diagnostics).toEqual([
      expect.objectContaining({ code: 'unknown-id', file: 'playbooks/nda.yaml', line: 12, col: 15, message: '`reviewer` names "ghost@acme.example", whose id is not said', hint: 'pin its id' }),
    ]);
  });

  it('a plan for --targets leaves a reference of another resource to the cut (an error only if the cut keeps a change of it)', () => {
    const invitedOnly: LiveResource = { ...liveMember('invited:ghost@acme.example', 'ghost@acme.example'), idUnknown: { message: 'whose id is not said', hint: 'pin its id' } };
    const named = plan([desiredPlaybook(NDA.name), rule(), desiredMember('ghost@acme.example')], [livePlaybook(NDA.id, NDA.name), invitedOnly], { sends: (d) => d.kind === 'member' });
    expect(named.diagnostics).toEqual([]);
    expect(named.plan).toBeDefined();
    expect(named.unsentReferences).toEqual([{ of: 'rule:NDA/Term', diagnostic: expect.objectContaining({ code: 'unknown-id', line: 12, col: 15, message: '`reviewer` names "ghost@acme.example", whose id is not said' }) }]);
  });

  it('checks the organization default reviewer too', () => {
    const { diagnostics } = plan(
      [desiredOrganization({ 'review.default_reviewer': 'ghost@acme.example' })],
      [liveOrganization('org-1', { 'review.default_reviewer': null })],
    );
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'unknown-reference', file: 'organization.yaml', line: 4, col: 21 })]);
  });
});

describe('changes the services cannot make are refused at plan time, at the file\'s line', () => {
  it('a template whose type would change', () => {
    const at = pos(3, 7, 'templates/nda.yaml');
    const desired: DesiredResource = {
      kind: 'template',
      key: 'Mutual NDA',
      name: 'Mutual NDA',
      fields: { name: 'Mutual NDA', type: 'CSA' },
      partial: true,
      refs: [],
      renamedFrom: [],
      source: pos(1, 1, 'templates/nda.yaml'),
      fieldSources: { type: at },
    };
    const live: LiveResource = { kind: 'template', id: 't-1', key: 'Mutual NDA', name: 'Mutual NDA', fields: { name: 'Mutual NDA', type: 'NDA' }, refs: [] };
    const { plan: p, diagnostics } = plan([desired], [live]);
    expect(p).toBeUndefined();
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'unsupported-change', file: 'templates/nda.yaml', line: 3, col: 7, message: 'template "Mutual NDA" is an NDA template on the service; its type cannot change to CSA' }),
    ]);
  });

  it('a template naming a pinned attachment by id: refused until apply --adopt-files records the pin in the same run', () => {
    const ID = 'ad19f439-0843-4c28-9a33-dc3fb78cc27a';
    const attachment: DesiredResource = {
      kind: 'attachment', key: 'Exhibit', name: 'Exhibit', fields: { name: 'Exhibit', sha256: 'abc' }, payload: { file: 'attachments/exhibit.pdf', pinned: ID }, partial: false,
      pinId: ID, refs: [], renamedFrom: [], source: pos(1, 1, 'attachments/exhibit.yaml'), fieldSources: { id: pos(2, 5, 'attachments/exhibit.yaml') },
    };
    const pinOnly: LiveResource = {
      kind: 'attachment', id: ID, key: 'Exhibit', name: 'Exhibit', fields: { name: 'Exhibit' }, refs: [], extra: { pinOnly: true },
      unknownFields: { sha256: 'docket.lock.json has no entry for it' },
    };
    const template: DesiredResource = {
      kind: 'template', key: 'CSA', name: 'CSA', fields: { name: 'CSA', type: 'CSA', 'parameters.include_security_policy_attachment_id': ID.toUpperCase() },
      partial: true, refs: [], renamedFrom: [], source: pos(1, 1, 'templates/csa.yaml'), fieldSources: { 'parameters.include_security_policy_attachment_id': pos(5, 40, 'templates/csa.yaml') },
    };
    const planned = plan([attachment, template], [pinOnly]);
    expect(planned.diagnostics).toEqual([expect.objectContaining({ code: 'unsupported-change', file: 'templates/csa.yaml', line: 5 })]);
    // The hint's way out: the pin, adopted in this run, is an id of this organization.
    const adopting = plan([attachment, template], [pinOnly], { adoptFiles: true });
    expect(adopting.diagnostics).toEqual([]);
    expect(adopting.plan?.summary).toEqual({ create: 1 });
    expect(adopting.plan?.adoptable).toEqual([expect.objectContaining({ kind: 'attachment', liveId: ID })]);
  });

  it('clearing the organization\'s default reviewer (the service takes only a user id)', () => {
    const desired = desiredOrganization({ 'review.default_reviewer': null }, { fieldSources: { 'review.default_reviewer': pos(4, 3, 'organization.yaml') } });
    const { plan: p, diagnostics } = plan([desired], [liveOrganization('org-1', { 'review.default_reviewer': 'alice@acme.example' }), liveMember('u-1', 'alice@acme.example')]);
    expect(p).toBeUndefined();
    expect(diagnostics).toEqual([expect.objectContaining({ code: 'unsupported-change', file: 'organization.yaml', line: 4, col: 3 })]);
    expect(diagnostics[0]!.message).toContain("`review.default_reviewer` is empty, but the review service cannot clear the organization's default reviewer (alice@acme.example live)");
  });
});

describe('configDigest', () => {
  const settings = { prune: { playbooks: false } };
  const config = (): DesiredResource[] => [
    desiredPlaybook(NDA.name, { description: 'd' }),
    desiredRule(NDA.name, 'Term', { reviewer: 'alice@acme.example' }),
    desiredMember('alice@acme.example', 'Alice'),
  ];

  it('is stable when the resources come in another order, and the same when worked out in slices', async () => {
    expect(configDigest(config().reverse(), settings)).toBe(configDigest(config(), settings));
    expect(await configDigestInSlices(config().reverse(), settings)).toBe(configDigest(config(), settings));
  });

  it('changes when a field changes', () => {
    const changed = config();
    changed[1]!.fields.actions = 'REJECT everything';
    expect(configDigest(changed, settings)).not.toBe(configDigest(config(), settings));
  });

  it('changes when a value sent only on create changes (the invited name)', () => {
    const renamed = config();
    renamed[2] = desiredMember('alice@acme.example', 'Alice Smith');
    expect(configDigest(renamed, settings)).not.toBe(configDigest(config(), settings));
  });

  it('changes when what a change carries beside its fields changes: a data file renamed, its bytes the same (probe GJ)', () => {
    const attachment = (file: string): DesiredResource => ({ ...desiredMember('x@acme.example', 'X'), kind: 'attachment', key: 'Sec', name: 'Sec', fields: { name: 'Sec', sha256: 'ab' }, payload: { file } });
    expect(configDigest([...config(), attachment('b.pdf')], settings)).not.toBe(configDigest([...config(), attachment('a.pdf')], settings));
  });

  it('changes when the settings change', () => {
    expect(configDigest(config(), { prune: { playbooks: true } })).not.toBe(configDigest(config(), settings));
  });

  it('does not change when only source positions change', () => {
    const moved = config().map((d) => ({
      ...d,
      source: pos(d.source.line + 40, 5, 'elsewhere.yaml'),
      fieldSources: { name: pos(99) },
      refs: d.refs.map((r) => ({ ...r, source: pos(77, 7) })),
    }));
    expect(configDigest(moved, settings)).toBe(configDigest(config(), settings));
  });
});

describe('buildPlan: actions a kind declares', () => {
  it('refuses a plan that would need an action its kind cannot execute, at the resource', () => {
    // A playbook kind that can create and update but not rename: a rename plans as an error.
    const kinds = KIND_META.map((k) => (k.name === 'playbook' ? { ...k, actions: ['create', 'update'] as const } : k));
    const moved = { ...desiredPlaybook('Mutual NDA', { source: pos(3) }), renamedFrom: ['NDA'] };
    const { plan: p, diagnostics } = plan([moved], [livePlaybook(NDA.id, NDA.name)], { kinds });
    expect(p).toBeUndefined();
    expect(diagnostics.map((d) => [d.code, d.message, d.line, d.hint])).toEqual([
      ['unsupported-change', 'playbook "Mutual NDA" would need rename, which docket cannot do for a playbook', 3, 'a playbook can only create, update'],
    ]);
    expect(plan([moved], [livePlaybook(NDA.id, NDA.name)]).plan?.changes.map((c) => c.id)).toEqual(['rename:playbook:Mutual NDA']);
  });
});
