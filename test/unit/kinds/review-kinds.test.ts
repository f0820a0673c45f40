/**
 * The review-service kinds (organization, member, playbook, rule) through the engine against the
 * emulator: what their reads take from the service, what their writes send, and that the service's
 * own normalisation never shows as a change.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EmulatorSeed } from '../../../src/emulator/server.js';
import { startEngine, type Engine } from '../../helpers/engine.js';
import { makeDir, removeMadeDirs, writeFiles } from '../../helpers/tmpdir.js';

let engine: Engine | undefined;
afterEach(async () => {
  await engine?.close();
  engine = undefined;
});
afterAll(removeMadeDirs);

async function start(adjust?: (seed: EmulatorSeed) => void): Promise<Engine> {
  engine = await startEngine(adjust ? { seed: adjust } : {});
  return engine;
}

const DOCKET = 'version: 1\n';
const userId = (e: Engine, email: string) => e.t.emulator.store.userByEmail(email)!.id;
const rules = (e: Engine, playbook: string) => {
  const org = e.org();
  const pb = Object.values(org.playbooks).find((p) => p.name === playbook && p.archived_at === null)!;
  return Object.values(org.rules).filter((r) => r.playbook_id === pb.id);
};
const sent = (e: Engine, method: string, route: RegExp) =>
  e.requests().filter((r) => r.method === method && route.test(r.route ?? r.path)).map((r) => r.body as Record<string, unknown>);

describe('no phantom diffs', () => {
  it('plans nothing when the only differences are the ones the service normalises away', async () => {
    const e = await start((seed) => {
      const org = seed.organizations[0]!;
      org.name = 'Acme Legal';
      org.default_reviewer_email = 'alice@acme.example';
      org.users.push({ email: 'BOB@acme.example' });
      org.playbooks = [
        {
          name: 'Inbound NDA',
          description: '',
          rules: [
            { name: 'Term', description: 'How long\nit lasts', actions: 'ACCEPT up to 3 years\nCOUNTERPROPOSE 2 years', questions: null, internal_notes: '', reviewer_email: 'alice@acme.example' },
            { name: 'Summary', questions: 'What is the term?\n', actions: '' },
          ],
        },
      ];
    });
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Legal\n  default_reviewer: ALICE@acme.example\n',
      'members.yaml': 'kind: Member\nemail: bob@acme.example\nname: Bob\n---\nkind: Member\nemail: alice@ACME.EXAMPLE\n',
      // CRLF from a Windows checkout, block scalar newlines, "" for none, e-mails in any case.
      'playbooks/nda.yaml':
        'kind: Playbook\r\nname: Inbound NDA\r\nrules:\r\n  - name: Term\r\n    description: |\r\n      How long\r\n      it lasts\r\n    actions: |\r\n      ACCEPT up to 3 years\r\n      COUNTERPROPOSE 2 years\r\n    questions: ""\r\n    reviewer: Alice@ACME.example\r\n  - name: Summary\r\n    questions: What is the term?\r\n    reviewer: null\r\n',
    });
    const outcome = await e.plan(dir, { prune: 'all' });
    expect(outcome.diagnostics).toEqual([]);
    expect(outcome.plan!.changes).toEqual([]);
  });

  it('still sees a real difference next to the normalised ones', async () => {
    const e = await start((seed) => void (seed.organizations[0]!.playbooks = [{ name: 'NDA', description: 'Old text\r\n' }]));
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'nda.yaml': 'kind: Playbook\nname: NDA\ndescription: |\n  New text\n' });
    const plan = await e.planned(dir);
    expect(plan.changes.map((c) => [c.id, c.fields])).toEqual([['update:playbook:NDA', [{ field: 'description', before: 'Old text', after: 'New text', direction: 'unknown' }]]]);
  });
});

describe('reads', () => {
  it('read the user list once for all kinds, and rules only of declared playbooks (by name, old name or pin)', async () => {
    const e = await start((seed) => {
      const org = seed.organizations[0]!;
      org.playbooks = [{ name: 'NDA' }, { name: 'MSA' }, { name: 'Other' }, { id: '00000000-0000-4000-8000-0000000000b4', name: 'Whatever' }];
    });
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'a.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: T\n    actions: A\n    reviewer: alice@acme.example\n',
      'b.yaml': 'kind: Playbook\nname: MSA 2\nrenamed_from: MSA\n',
      'c.yaml': 'kind: Playbook\nname: Pinned\nid: 00000000-0000-4000-8000-0000000000b4\n',
      'o.yaml': 'kind: Organization\nreview:\n  default_reviewer: alice@acme.example\n',
    });
    e.requests();
    await e.planned(dir);
    const reads = e.requests().map((r) => `${r.method} ${r.route}`);
    expect(reads.filter((r) => r.endsWith('/users'))).toHaveLength(1);
    expect(reads.filter((r) => r.endsWith('/playbooks'))).toHaveLength(1);
    expect(reads.filter((r) => r.endsWith('/playbook_rules'))).toHaveLength(3);
  });
});

describe('a plan with --target reads the rules of the playbooks it names only (probe RJ-3)', () => {
  const seeded = (seed: EmulatorSeed) => {
    seed.organizations[0]!.playbooks = [
      { name: 'NDA', rules: ['T', 'U', 'V', 'W', 'X', 'Y'].map((name) => ({ name, actions: 'A' })) },
      { name: 'MSA', rules: [{ name: 'Venue', actions: 'A' }] },
      { name: 'Other', rules: Array.from({ length: 10 }, (_, i) => ({ name: `R${i}`, actions: 'A' })) },
    ];
  };
  const files = {
    'docket.yaml': DOCKET,
    'a.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: T\n    actions: B\n  - name: U\n    actions: A\n',
    'b.yaml': 'kind: Playbook\nname: MSA 2\nrenamed_from: MSA\nrules:\n  - name: Venue\n    actions: B\n',
    'c.yaml': `kind: Playbook\nname: Other\nrules:\n${Array.from({ length: 10 }, (_, i) => `  - name: R${i}\n    actions: ${i === 0 ? 'B' : 'A'}\n`).join('')}`,
  };
  const NDA_DELETES = ['delete rule NDA/V', 'delete rule NDA/W', 'delete rule NDA/X', 'delete rule NDA/Y'];
  const ruleLists = (e: Engine) => e.requests().filter((r) => r.method === 'GET' && (r.route ?? r.path).endsWith('/playbook_rules')).length;
  const planOf = async (e: Engine, dir: string, targets: string[], prune?: 'all') => {
    e.requests();
    const plan = await e.planned(dir, { targets, ...(prune ? { prune } : {}) });
    return { changes: plan.changes.map((c) => `${c.action} ${c.kind} ${c.key}`).sort(), lists: ruleLists(e), guard: plan.guard };
  };

  it('reads one rule list for a playbook or a rule target, by its name or its former one, and plans what it planned reading all', async () => {
    const e = await start(seeded);
    const dir = await makeDir(files);
    const all = await planOf(e, dir, []);
    expect(all.lists).toBe(3);
    // With no sync record of the rules it did not read, it counts none of them: four of NDA's six is over the guard's share (integration/targeted-reads has the lock's case).
    const nda = await planOf(e, dir, ['playbook/NDA']);
    expect(nda).toEqual({ changes: [...NDA_DELETES, 'update rule NDA/T'], lists: 1, guard: [expect.objectContaining({ kind: 'rule', removals: 4, live: 6 })] });
    expect(await planOf(e, dir, ['rule/MSA 2/Venue'])).toEqual({ changes: ['update rule MSA 2/Venue'], lists: 1, guard: undefined });
    expect((await planOf(e, dir, ['playbook/MSA'])).lists).toBe(1);
    expect(all.changes).toEqual(expect.arrayContaining([...nda.changes, 'update rule Other/R0']));
  });

  it('reads every rule list for a member target (a rule names its reviewer) and a rule of no declared playbook', async () => {
    const e = await start(seeded);
    const dir = await makeDir({ ...files, 'm.yaml': 'kind: Member\nemail: bob@acme.example\n' });
    expect((await planOf(e, dir, ['member/bob@acme.example'])).lists).toBe(3);
    e.requests();
    const outcome = await e.plan(dir, { targets: ['rule/Nowhere/T'] });
    expect(outcome.diagnostics.map((d) => d.code)).toEqual(['unknown-target']);
    expect(ruleLists(e)).toBe(3);
  });

  it('reads every rule list where the service has no users list: the rules it reads are all it shows of the members', async () => {
    engine = await startEngine({ seed: seeded, variants: { reviewUsers: false } });
    const dir = await makeDir(files);
    expect(await planOf(engine, dir, ['playbook/NDA'])).toMatchObject({ changes: [...NDA_DELETES, 'update rule NDA/T'], lists: 3 });
  });

  it('applies a targeted plan, and the next plan of everything shows only what the target left out', async () => {
    const e = await start(seeded);
    const dir = await makeDir(files);
    await e.converge(dir, { targets: ['playbook/NDA'] });
    expect((await planOf(e, dir, [])).changes).toEqual(['rename playbook MSA 2', 'update rule MSA 2/Venue', 'update rule Other/R0']);
    await e.converge(dir);
    expect((await e.planned(dir)).changes).toEqual([]);
  });
});

describe('rule writes', () => {
  it('create sends what the file states: the reviewer as an id, no nulls, generate_summary only when written', async () => {
    const e = await start();
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'nda.yaml':
        'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT 3 years\n    reviewer: Alice@acme.example\n  - name: Cap\n    actions: ACCEPT\n    generate_summary: false\n',
    });
    await e.converge(dir);
    const bodies = sent(e, 'POST', /playbook_rules$/);
    expect(bodies).toContainEqual({ name: 'Term', actions: 'ACCEPT 3 years', reviewer_id: userId(e, 'alice@acme.example') });
    expect(bodies).toContainEqual({ name: 'Cap', actions: 'ACCEPT', generate_summary: false });
    // The playbook created in the same apply is found by its key.
    expect(rules(e, 'NDA').map((r) => r.name).sort()).toEqual(['Cap', 'Term']);
  });

  it('update sends only the changed fields: null clears text, reviewer_id null is the default reviewer', async () => {
    const e = await start((seed) => {
      seed.organizations[0]!.playbooks = [{ name: 'NDA', rules: [{ name: 'Term', actions: 'ACCEPT', description: 'Old', reviewer_email: 'alice@acme.example' }] }];
    });
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n' });
    e.requests();
    await e.converge(dir);
    expect(sent(e, 'PATCH', /playbook_rules\/:rule$/)).toEqual([{ description: null, reviewer_id: null }]);
    expect(rules(e, 'NDA')[0]).toMatchObject({ description: null, reviewer_id: null });

    await writeFiles(dir, { 'nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: qa@acme.example\n' });
    await e.converge(dir);
    expect(sent(e, 'PATCH', /playbook_rules\/:rule$/)).toEqual([{ reviewer_id: userId(e, 'qa@acme.example') }]);
  });

  it('renames in place and deletes permanently', async () => {
    const e = await start((seed) => void (seed.organizations[0]!.playbooks = [{ name: 'NDA', rules: [{ name: 'Term', actions: 'A' }, { name: 'Gone', actions: 'B' }] }]));
    const id = rules(e, 'NDA').find((r) => r.name === 'Term')!.id;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Duration\n    renamed_from: Term\n    actions: A\n' });
    e.requests();
    await e.converge(dir);
    expect(sent(e, 'PATCH', /playbook_rules\/:rule$/)).toEqual([{ name: 'Duration' }]);
    expect(rules(e, 'NDA').map((r) => [r.id, r.name])).toEqual([[id, 'Duration']]);
    expect(e.requests().length).toBe(0);
  });
  it('says when the service answers a rule write without a field it was sent (every plan would show it again)', async () => {
    const e = await start((seed) => void (seed.organizations[0]!.playbooks = [{ name: 'NDA', rules: [{ name: 'Term', actions: 'ACCEPT' }] }]));
    const id = rules(e, 'NDA')[0]!.id;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    internal_notes: Agreed with sales\n    reviewer: qa@acme.example\n' });
    // The docs document only name, actions and description: a service may drop the rest silently.
    const answer = { data: { id, type: 'playbook_rule', attributes: { name: 'Term', actions: 'ACCEPT', internal_notes: null, reviewer_id: null } } };
    e.t.emulator.faults.add({ method: 'PATCH', path_pattern: 'playbook_rules', status: 'malformed', body: answer });
    const { report } = await e.apply(dir, await e.planned(dir));
    expect(report.failed).toBe(0);
    // Named as the files name them: the reviewer, not the `reviewer_id` it is sent as.
    expect(report.results.map((r) => r.note)).toContain('the service did not keep `internal_notes`, `reviewer` as sent (it holds null, null): the next plan will show them again');
  });
});

describe('playbook writes', () => {
  it('create leaves an omitted description out; an update clears it with ""; archive only with prune', async () => {
    const e = await start((seed) => void (seed.organizations[0]!.playbooks = [{ name: 'Old', description: 'x' }]));
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'a.yaml': 'kind: Playbook\nname: New\n', 'b.yaml': 'kind: Playbook\nname: Kept\ndescription: Some\n' });
    e.requests();
    await e.converge(dir);
    expect(sent(e, 'POST', /playbooks$/)).toEqual([{ name: 'Kept', description: 'Some' }, { name: 'New' }]);
    await writeFiles(dir, { 'b.yaml': 'kind: Playbook\nname: Kept\n' });
    await e.converge(dir);
    expect(sent(e, 'PATCH', /playbooks\/:playbook$/)).toEqual([{ description: '' }]);
    expect(Object.values(e.org().playbooks).find((p) => p.name === 'Old')!.archived_at).toBeNull();
    const archived = await e.converge(dir, { prune: 'all' });
    expect(archived.changes.map((c) => c.id)).toEqual(['archive:playbook:Old']);
    expect(Object.values(e.org().playbooks).find((p) => p.name === 'Old')!.archived_at).not.toBeNull();
  });
});

describe('member and organization writes', () => {
  it('invites with the name only when declared, and takes the new user id from the invitation', async () => {
    const e = await start();
    const dir = await makeDir({
      'docket.yaml': DOCKET,
      'members.yaml': 'kind: Member\nemail: dave@acme.example\nname: Dave\n---\nkind: Member\nemail: erin@acme.example\n',
      'nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: T\n    actions: A\n    reviewer: dave@acme.example\n',
    });
    e.requests();
    await e.converge(dir);
    expect(sent(e, 'POST', /invitations$/).sort((a, b) => String(a.email).localeCompare(String(b.email)))).toEqual([{ email: 'dave@acme.example', name: 'Dave' }, { email: 'erin@acme.example' }]);
    expect(rules(e, 'NDA')[0]!.reviewer_id).toBe(userId(e, 'dave@acme.example'));
    // The id came with the invitation: no users list was read after the invites.
    expect(e.requests().filter((r) => r.method === 'GET' && r.route?.endsWith('/users'))).toHaveLength(0);
  });

  it("refuses a Member pinned to another user's id at its `id:`, naming whose id it is", async () => {
    const e = await start();
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'members.yaml': `kind: Member\nemail: bob@acme.example\nid: ${userId(e, 'alice@acme.example')}\n` });
    const outcome = await e.plan(dir);
    expect(outcome.plan).toBeUndefined();
    expect(outcome.diagnostics.map((d) => [d.code, d.file, d.line, d.col, d.message])).toEqual([
      ['unsupported-change', 'members.yaml', 3, 5, 'member "bob@acme.example" is pinned to the id of the user "alice@acme.example"; a member\'s e-mail cannot be changed'],
    ]);
    // Its e-mail held by another live user: still the one error, not advice to rename a member.
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: alice@acme.example\nid: ${userId(e, 'qa@acme.example')}\n` });
    expect((await e.plan(dir)).diagnostics.map((d) => d.code)).toEqual(['unsupported-change']);
    // Named by a reviewer field too: the one error, not "name it … here too", which would point the field at another person.
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: bob@acme.example\nid: ${userId(e, 'alice@acme.example')}\n`, 'org.yaml': 'kind: Organization\nreview:\n  default_reviewer: alice@acme.example\n' });
    expect((await e.plan(dir)).diagnostics.map((d) => d.code)).toEqual(['unsupported-change']);
  });

  it('maps the default reviewer to its user id, and an agreements-only organization never calls the review service', async () => {
    const e = await start();
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'o.yaml': 'kind: Organization\nreview:\n  default_reviewer: QA@acme.example\n' });
    e.requests();
    await e.converge(dir);
    expect(sent(e, 'PATCH', /^\/review\/v1\/organizations\/:org$/)).toEqual([{ default_reviewer_id: userId(e, 'qa@acme.example') }]);

    await writeFiles(dir, { 'o.yaml': 'kind: Organization\nagreements:\n  city: Hamburg\n' });
    e.requests();
    await e.converge(dir);
    const calls = e.requests();
    expect(calls.every((r) => r.path.startsWith('/agreements/'))).toBe(true);
    expect(calls.filter((r) => r.method === 'PATCH').map((r) => r.body)).toEqual([{ city: 'Hamburg' }]);
  });
});
