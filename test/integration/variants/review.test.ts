/** The bundled example against the review-service shapes of the public docs (api.md's is the first). */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { TestEmulator } from '../../helpers/emulator.js';
import { applyOk, cliWith, expectNoChanges } from '../../helpers/scenario.js';
import { makeDir, removeMadeDirs, writeFiles } from '../../helpers/tmpdir.js';
import { runExampleScenario, startVariant } from './scenario.js';

let t: TestEmulator | undefined;
afterEach(async () => {
  await t?.emulator.close();
  t = undefined;
});
afterAll(removeMadeDirs);

/** The emulator's organization, and the rules of its live playbook NDA (not an archived one of that name). */
function ndaRules(emulated: TestEmulator) {
  const org = emulated.emulator.store.organization(emulated.env.DOCKET_ORGANIZATION_ID!)!;
  const nda = Object.values(org.playbooks).find((p) => p.name === 'NDA' && !p.archived_at)!;
  return { org, rules: Object.values(org.rules).filter((r) => r.playbook_id === nda.id) };
}

/** A service whose invitations name no user, with dave invited by an apply: the CLI, the folder and dave as the emulator knows him. */
async function daveInvitedNamingNoUser() {
  t = await startVariant({ reviewUsers: false, invitationUser: false });
  const cli = cliWith(() => t!.env);
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: dave@acme.example\n' });
  await applyOk(cli, dir);
  return { emulated: t, cli, dir, dave: t.emulator.store.userByEmail('dave@acme.example')! };
}

describe('the bundled example converges against each review-service shape', () => {
  it.each([
    // Flat routes and no users list run together in variants/agreements.test.ts, and no users list again below.
    ['the default shape (nested routes, users list, 201)', {}],
    ['archived playbooks kept in the list', { listArchived: true }],
    ['200 instead of 201 on creates', { createStatus: 200 as const }],
    [
      'no users list, invitations naming their user as attributes.user_id, archived playbooks listed with status: archived',
      { reviewUsers: false, invitationUserAt: 'attribute' as const, listArchived: true, archivedMarker: 'status' as const },
    ],
  ])('%s', async (_name, variants) => {
    t = await startVariant(variants);
    await runExampleScenario(t);
  });
});

describe('without a users list', () => {
  it('a member docket invited and recorded stays known once their invitation is gone (accepted) and nothing names them: not invited again (probe RS-1)', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: hank@acme.example\nname: Hank\n' });
    await applyOk(cli, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    for (const [id, invitation] of Object.entries(org.invitations)) if (invitation.email === 'hank@acme.example') delete org.invitations[id];
    await expectNoChanges(cli, dir);
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stdout]).toEqual([0, expect.stringContaining('No drift')]);
    // Named as a reviewer, the recorded id is what the rule is sent.
    const hank = t.emulator.store.userByEmail('hank@acme.example')!;
    await writeFiles(dir, { 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: hank@acme.example\n' });
    await applyOk(cli, dir);
    expect(ndaRules(t).rules[0]!.reviewer_id).toBe(hank.id);
    await expectNoChanges(cli, dir);
  });

  it('says how to name a user docket cannot see, and trusts a Member pinned by id', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const playbook = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: qa@acme.example\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': playbook });
    const refused = await cli('plan', '-C', dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('playbooks/nda.yaml:6:15 error unknown-reference `reviewer` names "qa@acme.example", which is neither a user docket can see');
    expect(refused.stderr).toContain('add its `id:` to that Member document');

    const qa = t.emulator.store.userByEmail('qa@acme.example')!;
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: qa@acme.example\nid: ${qa.id}\n` });
    await applyOk(cli, dir);
    const [rule] = ndaRules(t).rules;
    expect(rule!.reviewer_id).toBe(qa.id);
    await expectNoChanges(cli, dir);
  });

  it('fails the organization update whose answer names another default reviewer than the files: a Member pinned to another user\'s id (probe KE-2)', async () => {
    t = await startVariant({ reviewUsers: false, invitationUser: false });
    const cli = cliWith(() => t!.env);
    const admin = t.emulator.store.userByEmail('admin@emulator.local')!;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'members.yaml': `kind: Member\nemail: qa@acme.example\nid: ${admin.id}\n`, 'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Review\n  default_reviewer: qa@acme.example\nagreements:\n  name: Acme Agreements\n' });
    const apply = await cli('apply', '-C', dir, '--auto-approve');
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('✗ update organization');
    expect(apply.stdout).toContain('the service made "admin@emulator.local" the default reviewer for the id docket sent for "qa@acme.example"');
    // The agreements half is sent all the same; the reviewer is not recorded as written (second read SR72-2).
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    expect(JSON.stringify(org)).toContain('Acme Agreements');
    // Corrected, the plan sends the reviewer as the files' change, not as one made live.
    const qa = t.emulator.store.userByEmail('qa@acme.example')!;
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: qa@acme.example\nid: ${qa.id}\n` });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('review.default_reviewer');
    expect(plan.stdout).not.toContain('changed live');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('names the Member\'s `id:` pin when the service refuses the id it gave a rule\'s reviewer, no user of the organization (probe VB-1)', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const nobody = '11111111-1111-4111-8111-111111111111';
    const dir = await makeDir({
      'docket.yaml': 'version: 1\n',
      'members.yaml': `kind: Member\nemail: bob@acme.example\nid: ${nobody}\nname: Bob\n`,
      'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules: [{name: R, actions: ACCEPT, reviewer: bob@acme.example}]\n',
    });
    const made = await cli('apply', '-C', dir, '--auto-approve');
    expect(made.code).toBe(1);
    expect(made.stdout).toContain(`(the service does not take the id docket sent for "bob@acme.example" as a reviewer: it is the \`id:\` that member's Member document pins, ${nobody}, which may be no user of the organization; check that \`id:\`, or remove it so that docket invites "bob@acme.example")`);
    expect(made.stdout).not.toContain('invite them again');
    // Without the pin, docket invites bob and names him.
    await writeFiles(dir, { 'members.yaml': 'kind: Member\nemail: bob@acme.example\nname: Bob\n' });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('fails a rule write whose answer names another reviewer than the files: a Member pinned to another user\'s id, made and updated (probe QX-1)', async () => {
    t = await startVariant({ reviewUsers: false, invitationUser: false });
    const cli = cliWith(() => t!.env);
    const [qa, admin] = ['qa@acme.example', 'admin@emulator.local'].map((e) => t!.emulator.store.userByEmail(e)!);
    const rules = (reviewer: string) => `kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: ${reviewer}\n`;
    const member = (id: string) => `kind: Member\nemail: qa@acme.example\nid: ${id}\n`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': member(admin!.id), 'playbooks/nda.yaml': rules('qa@acme.example') });
    const made = await cli('apply', '-C', dir, '--auto-approve');
    expect(made.code).toBe(1);
    expect(made.stdout).toContain('✗ create rule "NDA/Term"');
    expect(made.stdout).toContain('the service made "admin@emulator.local" the reviewer for the id docket sent for "qa@acme.example": the id docket has for that member is another user\'s (check the Member document\'s `id:`), then apply again');
    // Corrected, the next apply gives the rule its reviewer, and says nothing was changed in the app.
    await writeFiles(dir, { 'members.yaml': member(qa!.id) });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).not.toContain('changed live');
    await applyOk(cli, dir);
    expect(ndaRules(t).rules.map((r) => r.reviewer_id)).toEqual([qa!.id]);
    await expectNoChanges(cli, dir);
    // An update that pins the wrong id again fails the same way.
    await writeFiles(dir, { 'members.yaml': `${member(qa!.id)}---\nkind: Member\nemail: dave@acme.example\nid: ${admin!.id}\n`, 'playbooks/nda.yaml': rules('dave@acme.example') });
    const updated = await cli('apply', '-C', dir, '--auto-approve');
    expect([updated.code, updated.stdout]).toEqual([1, expect.stringContaining('the service made "admin@emulator.local" the reviewer for the id docket sent for "dave@acme.example"')]);
    // Not said to be live as the files write it (second read SR86B-4).
    expect(updated.stdout).not.toMatch(/live already: [^\n]*reviewer/);
    // Nor is the wrong pin recorded as dave's: the next plan says the pin is another user's, not that dave changed in the app (probe RS-2).
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('member:dave@acme.example');
    const pinned = await cli('plan', '-C', dir);
    expect([pinned.code, pinned.stderr]).toEqual([1, expect.stringContaining('member "dave@acme.example" is pinned to the id of the user "admin@emulator.local"')]);
    expect(pinned.stderr).not.toContain('last synced');
    // What it wrote is docket's own: the files' reviewer again is the files' change, nothing made in the app (second read SR86-2).
    await writeFiles(dir, { 'members.yaml': member(qa!.id), 'playbooks/nda.yaml': rules('qa@acme.example') });
    const back = await cli('plan', '-C', dir);
    expect(back.stdout).toContain('update rule "NDA/Term"');
    expect(back.stdout).not.toContain('changed live');
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stdout]).toEqual([0, expect.not.stringContaining('Changed live')]);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    // Also when an earlier apply recorded the wrong pin, nothing then naming the member (second read SR90-1).
    await writeFiles(dir, { 'members.yaml': `${member(qa!.id)}---\nkind: Member\nemail: erin@acme.example\nid: ${admin!.id}\n`, 'playbooks/nda.yaml': rules('qa@acme.example') });
    await applyOk(cli, dir);
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toContain('member:erin@acme.example');
    await writeFiles(dir, { 'playbooks/nda.yaml': rules('erin@acme.example') });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(1);
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('member:erin@acme.example');
    const recorded = await cli('plan', '-C', dir);
    expect([recorded.code, recorded.stderr]).toEqual([1, expect.stringContaining('member "erin@acme.example" is pinned to the id of the user "admin@emulator.local"')]);
    expect(recorded.stderr).not.toContain('last synced');
    // Taken out again, the files converge.
    await writeFiles(dir, { 'members.yaml': member(qa!.id), 'playbooks/nda.yaml': rules('qa@acme.example') });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('an organization update whose reviewer id the service refuses (a Member pinned to an id it does not know) still sends the agreements half, and says to check the pin (probe MW-2)', async () => {
    t = await startVariant({ reviewUsers: false, invitationUser: false });
    const cli = cliWith(() => t!.env);
    const unknown = '0b3f4c2e-1111-4222-8333-944455556666';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'members.yaml': `kind: Member\nemail: qa@acme.example\nid: ${unknown}\n`, 'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: qa@acme.example\nagreements:\n  name: Acme Leipzig\n' });
    const apply = await cli('apply', '-C', dir, '--auto-approve');
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('✗ update organization');
    expect(apply.stdout).toContain(`the service does not take the id docket sent for "qa@acme.example" as a reviewer: it is the \`id:\` that member's Member document pins, ${unknown}, which may be no user of the organization; check that \`id:\`, or remove it so that docket invites "qa@acme.example"; its agreements settings were sent`);
    expect(JSON.stringify(t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!))).toContain('Acme Leipzig');
  });

  it('refuses a pin to another id for a member a reviewer field shows, before anything is assigned (invitations naming no user either)', async () => {
    t = await startVariant({ reviewUsers: false, invitationUser: false });
    const cli = cliWith(() => t!.env);
    const qa = t.emulator.store.userByEmail('qa@acme.example')!;
    const admin = t.emulator.store.userByEmail('admin@emulator.local')!;
    const rule = (name: string) => `  - name: ${name}\n    actions: ACCEPT\n    reviewer: qa@acme.example\n`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': `kind: Member\nemail: qa@acme.example\nid: ${qa.id}\n`, 'playbooks/p.yaml': `kind: Playbook\nname: P\nrules:\n${rule('A')}` });
    await applyOk(cli, dir);
    // The pin now names another user, and a new rule names qa.
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: qa@acme.example\nid: ${admin.id}\n`, 'playbooks/p.yaml': `kind: Playbook\nname: P\nrules:\n${rule('A')}${rule('B')}` });
    const plan = await cli('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`members.yaml:3:5 error pinned-id-not-found member "qa@acme.example" is pinned to id "${admin.id}"`);
    const apply = await cli('apply', '-C', dir, '--auto-approve');
    expect(apply.code).toBe(1);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    const p = Object.values(org.playbooks).find((x) => x.name === 'P')!;
    expect(Object.values(org.rules).filter((r) => r.playbook_id === p.id).map((r) => [r.name, r.reviewer_id])).toEqual([['A', qa.id]]);
    // Corrected, it converges.
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: qa@acme.example\nid: ${qa.id}\n` });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('drift whose only change is a reviewer pull cannot pin says pull leaves it, with no --target too (probe IE-2)', async () => {
    t = await startVariant({ reviewUsers: false, invitationUser: false });
    const cli = cliWith(() => t!.env);
    const playbook = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': playbook });
    await applyOk(cli, dir);
    const rule = ndaRules(t).rules.find((r) => r.name === 'Term')!;
    rule.reviewer_id = t.emulator.store.userByEmail('admin@emulator.local')!.id;
    rule.updated_at = new Date().toISOString();

    // The members its read took in to name reviewers are not asked for again (second read SR-7).
    const invitationReads = () => t!.emulator.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/invitations')).length;
    const beforePlan = invitationReads();
    await cli('plan', '-C', dir);
    const byPlan = invitationReads() - beforePlan;
    const beforeDrift = invitationReads();
    const drift = await cli('drift', '-C', dir);
    expect(invitationReads() - beforeDrift).toBe(byPlan);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
    expect(drift.stdout).not.toContain(`\`docket pull -C ${dir}\` writes`);
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(playbook);
    // Pinned as pull says, drift sends the user to pull, and pull takes it.
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: admin@emulator.local\nid: ${rule.reviewer_id}\n` });
    expect((await cli('drift', '-C', dir)).stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files`);
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toContain('reviewer: admin@emulator.local');
    await expectNoChanges(cli, dir);
  });

  /** Pat invited by an apply and named by a rule, whose e-mail the app then changed: the CLI, the folder and Pat's id. */
  async function patRenamedInTheApp() {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const playbook = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: pat@acme.example\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: pat@acme.example\n', 'playbooks/nda.yaml': playbook });
    await applyOk(cli, dir);
    const pat = t.emulator.store.userByEmail('pat@acme.example')!;
    pat.email = 'patricia@acme.example';
    return { cli, dir, playbook, patId: pat.id };
  }

  it('a member whose e-mail the app changed, still named by a rule, has that e-mail now, not the one invited: drift says so, and pull converges (probe PD-2)', async () => {
    const { cli, dir, playbook } = await patRenamedInTheApp();
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    expect([drift.code, drift.stderr]).toEqual([2, '']);
    expect((JSON.parse(drift.stdout) as { drift: { kind: string; key: string; direction: string }[] }).drift.map((d) => [d.kind, d.key, d.direction])).toEqual([
      ['member', 'pat@acme.example', 'removed-live'],
      ['rule', 'NDA/Term', 'changed-live'],
    ]);
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(pulled.stdout).toContain('- member "pat@acme.example" (members.yaml) · removed live');
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(playbook.replace('pat@', 'patricia@'));
    await expectNoChanges(cli, dir);
  });

  it('a member whose e-mail the app changed is invited again when the files win, and the rule names the new user, not the renamed one (probe PD-2)', async () => {
    const { cli, dir, patId } = await patRenamedInTheApp();
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ invite member "pat@acme.example" (members.yaml:1) · removed live');
    expect(plan.stdout).toContain('reviewer: "patricia@acme.example" → "pat@acme.example"');
    await applyOk(cli, dir);
    const invited = t!.emulator.store.userByEmail('pat@acme.example')!;
    expect(invited.id).not.toBe(patId);
    expect(ndaRules(t!).rules[0]!.reviewer_id).toBe(invited.id);
    await expectNoChanges(cli, dir);
  });

  it('a rule update whose reviewer left the organization (their invitation kept) says the service refuses them, not only its 422: applied again unchanged it fails the same way (probe PT-3)', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: hank@acme.example\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: hank@acme.example\n' });
    await applyOk(cli, dir);
    const { org, rules } = ndaRules(t);
    const hank = t.emulator.store.userByEmail('hank@acme.example')!;
    org.members = org.members.filter((m) => m.user_id !== hank.id);
    rules[0]!.reviewer_id = null;
    const applied = await cli('apply', '-C', dir, '--auto-approve');
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain('(the service does not take "hank@acme.example" as a reviewer: no member of the organization now, if they left it; docket forgets the id it recorded for them, so the next plan invites them again unless the service still shows them; or name another reviewer)');
    // Their invitation still shows them, with their id: not invited again, and the same refusal.
    const again = await cli('apply', '-C', dir, '--auto-approve');
    expect(again.stdout).not.toContain('invite member');
    expect([again.code, again.stdout]).toEqual([1, expect.stringContaining('(the service does not take "hank@acme.example" as a reviewer')]);
  });

  it('a declared member docket invited and recorded, named as a reviewer once their invitation is gone, gets no id-while-named warning: the record keeps their id (second read SR106-1)', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: hank@acme.example\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n' });
    await applyOk(cli, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    for (const [id, invitation] of Object.entries(org.invitations)) if (invitation.email === 'hank@acme.example') delete org.invitations[id];
    await writeFiles(dir, { 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: hank@acme.example\n' });
    await applyOk(cli, dir);
    expect((await expectNoChanges(cli, dir)).stdout).not.toContain('every plan stops at this reference');
    // As it says: once the app names someone else, the plan puts hank back, no unknown-id.
    ndaRules(t).rules[0]!.reviewer_id = t.emulator.store.userByEmail('qa@acme.example')!.id;
    const plan = await cli('plan', '-C', dir);
    expect([plan.code, plan.stdout]).toEqual([0, expect.stringContaining('reviewer: "qa@acme.example" → "hank@acme.example"')]);
  });

  it('a member docket recorded who left (no invitation shows them either) is forgotten once the service refuses them as a reviewer, of a rule or of the organization: the next apply invites them again and converges (probe HD-1)', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: hank@acme.example\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: hank@acme.example\n' });
    await applyOk(cli, dir);
    const leaves = () => {
      const { org, rules } = ndaRules(t!);
      const hank = t!.emulator.store.userByEmail('hank@acme.example')!;
      org.members = org.members.filter((m) => m.user_id !== hank.id);
      for (const [id, invitation] of Object.entries(org.invitations)) if (invitation.email === 'hank@acme.example') delete org.invitations[id];
      for (const r of rules) if (r.reviewer_id === hank.id) r.reviewer_id = null;
    };
    leaves();
    // Nothing shows docket he left: the plan puts the reviewer back, and the service refuses it.
    const refused = await cli('apply', '-C', dir, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('docket forgets the id it recorded for them, so the next plan invites them again');
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('member:hank@acme.example');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ invite member "hank@acme.example"');
    await applyOk(cli, dir);
    const rejoined = t.emulator.store.userByEmail('hank@acme.example')!.id;
    expect(ndaRules(t).rules[0]!.reviewer_id).toBe(rejoined);
    await expectNoChanges(cli, dir);

    // The organization's default reviewer, the same way.
    leaves();
    await writeFiles(dir, { 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n', 'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: hank@acme.example\n' });
    const orgRefused = await cli('apply', '-C', dir, '--auto-approve');
    expect([orgRefused.code, orgRefused.stdout]).toEqual([1, expect.stringContaining('✗ update organization')]);
    expect(orgRefused.stdout).toContain('docket forgets the id it recorded for them');
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('member:hank@acme.example');
    await applyOk(cli, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    expect(org.default_reviewer_id).toBe(rejoined);
    expect(org.members.map((m) => m.user_id)).toContain(rejoined);
    await expectNoChanges(cli, dir);
  });

  it('pull does not write a reviewer docket sees only through that field until it is pinned, and drift and pull never call an unseen member removed', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const playbook = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n  - name: Fees\n    actions: ACCEPT\n';
    const qa = t.emulator.store.userByEmail('qa@acme.example')!;
    const qaMember = `kind: Member\nemail: qa@acme.example\nid: ${qa.id}\n`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': playbook, 'members.yaml': qaMember });
    await applyOk(cli, dir);
    // In the app: Term's reviewer becomes a user no invitation names (the organization's creator),
    // and Fees' a member the files pin.
    const { rules } = ndaRules(t);
    const ruleNamed = (name: string) => rules.find((r) => r.name === name)!;
    const rule = ruleNamed('Term');
    const admin = t.emulator.store.userByEmail('admin@emulator.local')!;
    rule.reviewer_id = admin.id;
    rule.updated_at = new Date().toISOString();
    ruleNamed('Fees').reviewer_id = qa.id;
    ruleNamed('Fees').updated_at = new Date().toISOString();

    // Drift of the rule pull refuses alone does not send the user to pull (probe ID-2).
    const onlyRefused = await cli('drift', '-C', dir, '--target', 'rule/NDA/Term');
    expect([onlyRefused.code, onlyRefused.stdout]).toEqual([2, expect.stringContaining(`\`docket pull -C ${dir}\` leaves it`)]);
    const refused = await cli('pull', '-C', dir);
    expect(refused.code).toBe(0);
    expect(refused.stdout).toContain('Not pulled (1):\n  rule "NDA/Term" reviewer');
    expect(refused.stdout).toContain('`reviewer` names "admin@emulator.local", a user docket sees only because the app names them as a reviewer now');
    expect(refused.stdout).toContain(`give their Member document \`id: ${admin.id}\` (declare one in members.yaml with \`kind: Member\` and \`email: admin@emulator.local\` if there is none), then pull again`);
    // The other rule's change is pulled.
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(playbook.replace('  - name: Fees\n    actions: ACCEPT\n', '  - name: Fees\n    actions: ACCEPT\n    reviewer: qa@acme.example\n'));

    await writeFiles(dir, { 'members.yaml': `${qaMember}---\nkind: Member\nemail: admin@emulator.local\nid: ${admin.id}\n` });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toContain('reviewer: admin@emulator.local');
    // The app names them no more: the change is drift, not an error, and pull takes it.
    rule.reviewer_id = null;
    rule.updated_at = new Date(Date.now() + 1000).toISOString();
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).toContain('~ rule "NDA/Term"');
    expect(drift.code).toBe(2);

    // A member declared without id whom nothing names is not seen, and not "removed live" either.
    const unpinned = `${qaMember}---\nkind: Member\nemail: admin@emulator.local\n`;
    await writeFiles(dir, { 'members.yaml': unpinned });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'members.yaml'), 'utf8')).toBe(unpinned);
    const unseen = await cli('drift', '-C', dir);
    expect(unseen.stdout).not.toContain('Removed live');
    expect(unseen.code).toBe(0);
    // Declared, but with no id: a reviewer naming them is still not written until it is pinned.
    rule.reviewer_id = admin.id;
    rule.updated_at = new Date(Date.now() + 2000).toISOString();
    const unpinnedPull = await cli('pull', '-C', dir);
    expect(unpinnedPull.stdout).toContain(`give their Member document \`id: ${admin.id}\``);
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).not.toContain('admin@emulator.local');
    // Pinned as asked, the reviewer is pulled, and the files and the app agree.
    await writeFiles(dir, { 'members.yaml': `${qaMember}---\nkind: Member\nemail: admin@emulator.local\nid: ${admin.id}\n` });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('export pins a member it sees only as a reviewer, so its files still find the user once the app names them no more', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n' });
    await applyOk(cli, dir);
    const rule = ndaRules(t).rules[0]!;
    const admin = t.emulator.store.userByEmail('admin@emulator.local')!;
    rule.reviewer_id = admin.id;

    const out = join(dir, 'exported');
    const exported = await cli('export', '-C', dir, '--out', out);
    expect(exported.code).toBe(0);
    expect(exported.stdout + exported.stderr).toContain(`member "admin@emulator.local": written with \`id: ${admin.id}\`, as the review`);
    expect(await readFile(join(out, 'members.yaml'), 'utf8')).toContain(`email: admin@emulator.local\nid: ${admin.id}\n`);
    await expectNoChanges(cli, out);
    // A name in the file is not said to be none live: docket cannot see it (probe NN-2).
    await writeFile(join(out, 'members.yaml'), `kind: Member\nemail: admin@emulator.local\nid: ${admin.id}\nname: Admin\n`);
    expect((await expectNoChanges(cli, out)).stdout).not.toContain('it has none live');
    // The app names them no more: the plan puts the reviewer back, and invites nobody.
    rule.reviewer_id = null;
    const plan = await cli('plan', '-C', out);
    expect(plan.stdout).toContain('~ update rule "NDA/Term"');
    expect(plan.stdout).not.toContain('invite');
    await applyOk(cli, out);
    await expectNoChanges(cli, out);
  });

  it('export --kind playbook or organization, which writes no Member documents, says which member its files name that only a reviewer field shows, with the id to pin (probe HD-2)', async () => {
    t = await startVariant({ reviewUsers: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n' });
    await applyOk(cli, dir);
    const admin = t.emulator.store.userByEmail('admin@emulator.local')!;
    ndaRules(t).rules[0]!.reviewer_id = admin.id;
    t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!.default_reviewer_id = admin.id;
    const said = `member "admin@emulator.local": named by the files written here, but the review service has no users list and gives this user's id only where a reviewer field names them: add a Member document with \`email: admin@emulator.local\` and \`id: ${admin.id}\` (or export --kind member too)`;
    for (const kind of ['playbook', 'organization']) {
      const out = join(dir, `only-${kind}`);
      const exported = await cli('export', '-C', dir, '--kind', kind, '--out', out);
      expect([kind, exported.code, exported.stdout + exported.stderr]).toEqual([kind, 0, expect.stringContaining(said)]);
    }
    // With the members written, the pin is in them: nothing more to say.
    const both = await cli('export', '-C', dir, '--kind', 'organization', '--kind', 'member', '--out', join(dir, 'both'));
    expect([both.code, both.stdout + both.stderr]).toEqual([0, expect.not.stringContaining('named by the files written here')]);
    // Following the note, the files still find the user once the app names them no more.
    const out = join(dir, 'only-organization');
    await writeFile(join(out, 'members.yaml'), `kind: Member\nemail: admin@emulator.local\nid: ${admin.id}\n`);
    await expectNoChanges(cli, out);
    const qa = t.emulator.store.userByEmail('qa@acme.example')!;
    t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!.default_reviewer_id = qa.id;
    await applyOk(cli, out);
    expect(t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!.default_reviewer_id).toBe(admin.id);
    await expectNoChanges(cli, out);
  });

  it('when invitations name no user either, a member\'s name their invitation gives is compared, and exported once a reviewer field names them too (probes NW-1, NW-2)', async () => {
    t = await startVariant({ reviewUsers: false, invitationUser: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: dave@acme.example\nname: Dave Okafor\n' });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'members.yaml': 'kind: Member\nemail: dave@acme.example\nname: Dave O.\n' });
    const renamed = await expectNoChanges(cli, dir);
    expect(renamed.stdout).toContain('`name` is set only when docket invites it, and is not managed for an existing one: it stays "Dave Okafor" live (the file says "Dave O.")');

    const dave = t.emulator.store.userByEmail('dave@acme.example')!;
    t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!.default_reviewer_id = dave.id;
    const out = join(dir, 'exported');
    expect((await cli('export', '-C', dir, '--out', out, '--kind', 'member')).code).toBe(0);
    expect(await readFile(join(out, 'members.yaml'), 'utf8')).toContain(`kind: Member\nemail: dave@acme.example\nname: Dave Okafor\nid: ${dave.id}\n`);
    await expectNoChanges(cli, out);
  });

  it('when invitations name no user either: a new member converges, and naming it is a plan error until its id is pinned', async () => {
    t = await startVariant({ reviewUsers: false, invitationUser: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: dave@acme.example\nname: Dave Okafor\n---\nkind: Member\nemail: erin@acme.example\n---\nkind: Member\nemail: finn@acme.example\n---\nkind: Member\nemail: gail@acme.example\n' });
    const invited = await applyOk(cli, dir);
    // Said once for the four invitations, with a count, not once under each.
    expect(invited.stdout).toContain("note: 4 of the changes above: invited; the review service does not say the new user's id, so rules and the organization cannot name this member until its Member document has `id:`");
    expect(invited.stdout.match(/does not say the new user's id/g)).toHaveLength(1);
    await expectNoChanges(cli, dir);

    await writeFiles(dir, { 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: dave@acme.example\n' });
    const refused = await cli('plan', '-C', dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("playbooks/nda.yaml:6:15 error unknown-id `reviewer` names \"dave@acme.example\", who is a member by invitation, but the review service does not say the user's id");
    expect(refused.stderr).toContain('add `id: <the user\'s uuid>` to the Member document');

    const dave = t.emulator.store.userByEmail('dave@acme.example')!;
    // The rule now names dave, and his invitation still names him: no warning that his name "stays null".
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: dave@acme.example\nname: Dave Okafor\nid: ${dave.id}\n` });
    await applyOk(cli, dir);
    const { org, rules } = ndaRules(t);
    expect(rules[0]!.reviewer_id).toBe(dave.id);
    expect(Object.values(org.invitations).filter((i) => i.email === 'dave@acme.example')).toHaveLength(1);
    const clean = await expectNoChanges(cli, dir);
    expect(clean.stdout).not.toContain('Warning');
  });

  it('when invitations name no user: a reviewer docket cannot send is drift to report and pull, not an error, once the app names someone else', async () => {
    const { emulated, cli, dir, dave } = await daveInvitedNamingNoUser();
    const playbook = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: dave@acme.example\n';
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: dave@acme.example\nid: ${dave.id}\n`, 'playbooks/nda.yaml': playbook });
    await applyOk(cli, dir);
    // The Member document goes; the rule still names dave, whom the live rule shows: no change,
    // and a warning of what follows once the app names someone else there (probe HA-1).
    await rm(join(dir, 'members.yaml'));
    const warned = await cli('plan', '-C', dir);
    expect([warned.code, warned.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
    expect(warned.stdout).toContain(`Warning: \`reviewer\` names "dave@acme.example", whose id the review service gives only where a reviewer field names them (it has no users list, and no invitation it lists gives their user id): once the app names someone else there, every plan stops at this reference (playbooks/nda.yaml:6): pin it now: give their Member document \`id: ${dave.id}\``);

    // In the app the reviewer becomes qa: nothing names dave any more, so his id is unknown.
    const rule = ndaRules(emulated).rules[0]!;
    rule.reviewer_id = emulated.emulator.store.userByEmail('qa@acme.example')!.id;
    rule.updated_at = new Date().toISOString();
    const refused = await cli('plan', '-C', dir);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('playbooks/nda.yaml:6:15 error unknown-id `reviewer` names "dave@acme.example"');
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).toContain('~ rule "NDA/Term"');
    expect(drift.code).toBe(2);
    // qa is seen only as that reviewer (no invitation names a user): pinned first, as pull asks.
    const qa = emulated.emulator.store.userByEmail('qa@acme.example')!;
    const asked = await cli('pull', '-C', dir);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain(`give their Member document \`id: ${qa.id}\``);
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: qa@acme.example\nid: ${qa.id}\n` });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(playbook.replace('dave@', 'qa@'));
    await expectNoChanges(cli, dir);
  });

  it('when invitations name no user: naming a member the same apply invites is a plan error once an invitation shows it, and nothing is sent', async () => {
    // An invitation the service holds names no user: so will the next one. Pinned as the hint of
    // such errors says, dave's invitation still shows it.
    const { emulated, cli, dir, dave } = await daveInvitedNamingNoUser();
    await writeFiles(dir, {
      'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: erin@acme.example\n',
      'members.yaml': `kind: Member\nemail: dave@acme.example\nid: ${dave.id}\n---\nkind: Member\nemail: erin@acme.example\n`,
    });
    const before = emulated.emulator.stats().requests.by_route;
    const refused = await cli('apply', '-C', dir, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('organization.yaml:3:21 error unknown-id `review.default_reviewer` names "erin@acme.example", whom this apply invites');
    expect(refused.stderr).toContain('apply the invitation first without naming the member (`docket apply --target member/<e-mail>`)');
    const writes = (counts: Record<string, number>): number => Object.entries(counts).reduce((n, [route, count]) => (route.startsWith('GET ') ? n : n + count), 0);
    expect(writes(emulated.emulator.stats().requests.by_route)).toBe(writes(before));

    // Invited first, as the hint says (the invitation alone, by --target, the files left as they are), then named.
    const invited = await cli('apply', '-C', dir, '--auto-approve', '--target', 'member/erin@acme.example');
    expect([invited.code, invited.stderr]).toEqual([0, '']);
    expect(invited.stdout).toContain('invite member "erin@acme.example"');
    expect(invited.stdout).not.toMatch(/update organization/);
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(1);
    await writeFiles(dir, { 'organization.yaml': 'kind: Organization\n' });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});

describe('rule fields the service drops without a word', () => {
  it('docket test says which fields of a scratch rule the service did not keep: the reviews test the playbook as the service holds it', async () => {
    t = await startVariant({ ruleFields: 'documented' });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({
      'docket.yaml': 'version: 1\n',
      'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: NEEDS REVIEW perpetual\n    generate_summary: false\n',
      'tests/p.test.yaml': 'kind: PlaybookTest\nplaybook: P\ncases:\n  - name: any\n    contract: { file: c.txt }\n    review_type: SummaryReview\n    expect:\n      flags: { count: { max: 100 } }\n',
      'tests/c.txt': 'This agreement is perpetual.\n',
    });
    const run = await cli('test', '-C', dir);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Note: P: the service did not keep `generate_summary` (it holds true) of rule "R" as the files give it: the reviews test the playbook as the service holds it');
    // Replayed from the cache, as a fork's CI does: said again (probe NL-4).
    for (const args of [[], ['--replay-only']]) {
      const replayed = await cli('test', '-C', dir, ...args);
      expect(replayed.stdout).toContain('(replayed)');
      expect(replayed.stdout).toContain('Note: P: the service did not keep `generate_summary` (it holds true) of rule "R"');
    }
    // Topped up where the service now keeps every field: the cached review is still one of the two, and its note stays (probe PP-1).
    t.emulator.configure({ variants: { ...t.emulator.config().variants, ruleFields: 'all' } });
    await writeFiles(dir, { 'tests/p.test.yaml': 'kind: PlaybookTest\nplaybook: P\ncases:\n  - name: any\n    contract: { file: c.txt }\n    review_type: SummaryReview\n    repeat: 2\n    expect:\n      flags: { count: { max: 100 } }\n' });
    for (const args of [[], ['--replay-only']]) {
      const topped = await cli('test', '-C', dir, ...args);
      expect([topped.code, topped.stdout]).toEqual([0, expect.stringContaining('Note: P: the service did not keep `generate_summary` (it holds true) of rule "R"')]);
    }
    // Reviewed again with no cache: the note is forgotten.
    expect((await cli('test', '-C', dir, '--no-cache')).stdout).not.toContain('did not keep');
    expect((await cli('test', '-C', dir, '--replay-only')).stdout).not.toContain('did not keep');
    t.emulator.configure({ variants: { ...t.emulator.config().variants, ruleFields: 'documented' } });
 
    // A summary-only rule this service refuses: the case's error says what apply's does, to give it actions (probe JB-4).
    await writeFiles(dir, { 'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    generate_summary: true\n    questions: Is it perpetual?\n' });
    const refused = await cli('test', '-C', dir, '--no-cache');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain("(the rule has no `actions`, only `questions` with `generate_summary`, which this service's rules may not keep: give the rule `actions`)");
  });

  it('says so under the create and the update that sent them, and converges once the files leave them out', async () => {
    t = await startVariant({ ruleFields: 'documented' });
    const cli = cliWith(() => t!.env);
    const playbook = (actions: string, notes?: string) => `kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ${actions}\n${notes ? `    internal_notes: ${notes}\n` : ''}`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('ACCEPT', 'keep me') });
    const created = await applyOk(cli, dir);
    expect(created.stdout).toMatch(/create rule "P\/R"[^\n]*\n\s+note: the service did not keep `internal_notes` as sent/);
    // Not in sync, so not recorded as such: still the files' change, not drift pull would write back.
    expect((await cli('plan', '-C', dir)).stdout).toMatch(/~ update rule "P\/R"[^\n]*· changed in files/);
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(0);
    expect(drift.stdout).toContain('1 object changed in the files is pending');

    // Notes written in the app later (as the service held none, not the files' value): both sides
    // moved, so drift reports it, and pull leaves it as a conflict rather than taking either.
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    const rule = Object.values(org.rules).find((r) => r.name === 'R')!;
    rule.internal_notes = 'written in the app';
    expect((await cli('plan', '-C', dir)).stdout).toMatch(/~ update rule "P\/R"[^\n]*· changed live and in files/);
    const moved = await cli('drift', '-C', dir);
    expect([moved.code, moved.stdout]).toEqual([2, expect.stringContaining('rule "P/R"')]);
    expect(moved.stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
    expect((await cli('pull', '--dry-run', '-C', dir)).stdout).toContain('rule "P/R" internal_notes (playbooks/p.yaml:6): changed live and in the files since the last sync: keep one by hand');
    // Cleared in the app again (this service keeps no notes docket sends, so no apply could).
    rule.internal_notes = null;

    await writeFiles(dir, { 'playbooks/p.yaml': playbook('ACCEPT up to 3 years', 'keep me too') });
    const updated = await applyOk(cli, dir);
    expect(updated.stdout).toMatch(/update rule "P\/R"[^\n]*\n\s+note: the service did not keep `internal_notes` as sent/);

    await writeFiles(dir, { 'playbooks/p.yaml': playbook('ACCEPT up to 3 years') });
    await expectNoChanges(cli, dir);
  });
  it('a summary-only rule the service refuses as without actions says what it takes, and converges once given actions (probe ID-1)', async () => {
    t = await startVariant({ ruleFields: 'documented' });
    const cli = cliWith(() => t!.env);
    const playbook = (rule: string) => `kind: Playbook\nname: P\nrules:\n  - name: Residuals\n${rule}`;
    const summaryOnly = '    generate_summary: true\n    questions: Does it hold a residuals clause?\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook(summaryOnly) });
    /** Applies the rule as written, which the service refuses, and expects the note. */
    const refusedSaying = async (rule: string, note: string): Promise<void> => {
      await writeFiles(dir, { 'playbooks/p.yaml': playbook(rule) });
      const refused = await cli('apply', '-C', dir, '--auto-approve');
      expect(refused.code).toBe(1);
      expect(refused.stdout + refused.stderr).toContain(note);
    };
    // Actions of white space only are none, to the service as to validate (probe IF-1).
    await refusedSaying(`    actions: "   "\n${summaryOnly}`, '(the rule has no `actions`, only `questions` with `generate_summary`');
    await refusedSaying(summaryOnly, "(the rule has no `actions`, only `questions` with `generate_summary`, which this service's rules may not keep: give the rule `actions`)");
    // A refusal about another field is said as it is (second read SR-2).
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbook_rules', status: 422, count: 1, body: { errors: [{ detail: 'is not a member of the organization', source: { pointer: '/data/attributes/reviewer_id' } }] } });
    const other = await cli('apply', '-C', dir, '--auto-approve');
    expect(other.code).toBe(1);
    expect(other.stdout + other.stderr, other.stdout + other.stderr).toContain('is not a member of the organization');
    expect(other.stdout + other.stderr).not.toContain('give the rule `actions`');
    await writeFiles(dir, { 'playbooks/p.yaml': playbook('    actions: FLAG residuals clauses\n') });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    // An update that takes the actions away is refused so too, and says it (probe IE-7), white space too (IF-1).
    const takenAway = "(the update takes the rule's `actions` away, and this service's rules may not keep a rule without them, even with `questions` and `generate_summary`: give the rule `actions`)";
    await refusedSaying(summaryOnly, takenAway);
    await refusedSaying(`    actions: "\\u00a0 "\n${summaryOnly}`, takenAway);
    await writeFiles(dir, { 'playbooks/p.yaml': playbook('    actions: FLAG residuals clauses\n') });
    await expectNoChanges(cli, dir);
  });

  it('a failed apply does not promise that a rerun converges where the service dropped fields every plan shows again (probe JE-1)', async () => {
    t = await startVariant({ ruleFields: 'documented' });
    const cli = cliWith(() => t!.env);
    const playbook = (ignore: string) => `kind: Playbook\nname: P\n${ignore}rules:\n  - name: Kept\n    actions: ACCEPT\n    internal_notes: n\n  - name: Refused\n    generate_summary: true\n    questions: Which?\n`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('') });
    const failed = await cli('apply', '-C', dir, '--auto-approve');
    expect(failed.code).toBe(1);
    expect(failed.stderr).toMatch(/fix what each failure above names, then run docket apply -C \S+ again: it converges, but for the fields the service did not keep as sent \(noted above\), which every plan shows again until `ignore_fields` leaves them out/);
    // Left out of every plan, they do not keep it from converging.
    await writeFiles(dir, { 'playbooks/p.yaml': playbook('ignore_fields: [internal_notes]\n') });
    const again = await cli('apply', '-C', dir, '--auto-approve');
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/fix what each failure above names, then run docket apply -C \S+ again: it converges\n/);
  });

  it('does not say a plan will show again what ignore_fields leaves out of every plan (probe EQ)', async () => {
    t = await startVariant({ ruleFields: 'documented' });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': 'kind: Playbook\nname: P\nignore_fields: [internal_notes]\nrules:\n  - name: R\n    actions: ACCEPT\n    internal_notes: n\n    questions: Which?\n' });
    const created = await applyOk(cli, dir);
    expect(created.stdout).toContain('note: the service did not keep `internal_notes`, `questions` as sent (it holds null, null): the next plan will show `questions` again; `ignore_fields` leaves `internal_notes` out of every plan');
    expect((await cli('plan', '-C', dir)).stdout).toMatch(/~ update rule "P\/R"[^\n]*· changed in files\n\s+questions: null → "Which\?"\n\n/);
    await writeFiles(dir, { 'playbooks/p.yaml': 'kind: Playbook\nname: P\nignore_fields: [internal_notes, questions]\nrules:\n  - name: R\n    actions: ACCEPT\n    internal_notes: n\n    questions: Which?\n' });
    await expectNoChanges(cli, dir);
  });

  it('a reviewer the service dropped is the files\' change: not drift, and pull keeps it in the files (probe EQ)', async () => {
    t = await startVariant({ ruleFields: 'documented' });
    const cli = cliWith(() => t!.env);
    const file = 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT all\n    reviewer: alice@acme.example\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: alice@acme.example\n', 'playbooks/p.yaml': file });
    const created = await applyOk(cli, dir);
    expect(created.stdout).toMatch(/create rule "P\/R"[^\n]*\n\s+note: the service did not keep `reviewer` as sent \(it holds null\)/);
    expect((await cli('plan', '-C', dir)).stdout).toMatch(/~ update rule "P\/R"[^\n]*· changed in files/);
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stdout]).toEqual([0, expect.stringContaining('1 object changed in the files is pending')]);
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(file);
    // Left out of the files, as this service keeps no reviewer: no changes.
    await writeFiles(dir, { 'playbooks/p.yaml': file.replace('    reviewer: alice@acme.example\n', '') });
    await expectNoChanges(cli, dir);
  });
});

describe('creates answered 204 with no body', () => {
  it('finds each object it created by reading, and converges with no duplicates', async () => {
    t = await startVariant({ createStatus: 204 });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({
      'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n',
      'members.yaml': 'kind: Member\nemail: dave@acme.example\n',
      'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT\n    reviewer: dave@acme.example\n',
      'custom-terms/t.yaml': 'kind: CustomTerm\nname: T\nbody: Terms.\n',
      'templates/nda.yaml': 'kind: Template\nname: N\ntype: NDA\nparameters:\n  term: 2\n',
    });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    expect(Object.values(org.playbooks).filter((p) => p.name === 'P')).toHaveLength(1);
    expect(Object.values(org.rules).filter((r) => r.name === 'R')).toHaveLength(1);
    expect(Object.values(org.agreements.custom_terms)).toHaveLength(1);
    expect(Object.values(org.agreements.templates).filter((x) => x.name === 'N')).toHaveLength(1);
    expect(Object.values(org.invitations).filter((i) => i.email === 'dave@acme.example')).toHaveLength(1);
  });
});

describe('invitations that do not name their user', () => {
  it('an invitation made before the read for its user failed makes the saved plan stale, and says to make a new one (second read SR-5)', async () => {
    t = await startVariant({ invitationUser: false });
    const cli = cliWith(() => t!.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: dave@acme.example\n' });
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    // The invitation is made; the read that looks for its user is then refused.
    const { store, faults } = t.emulator;
    const addMember = store.addMember.bind(store);
    store.addMember = (...args: Parameters<typeof addMember>) => {
      faults.add({ method: 'GET', path_pattern: '/users', status: 403, count: 1 });
      return addMember(...args);
    };
    const apply = await cli('apply', '-C', dir, planFile);
    store.addMember = addMember;
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain(`make a new plan (docket plan -C ${dir} --out ${planFile}) and apply that one`);
    expect(apply.stderr).not.toContain('apply the saved plan again');
    // Its line says the invitation is live (probe IH-3).
    expect(apply.stdout).toMatch(/✗ invite member "dave@acme\.example"[^\n]*\n(?:[^\n]*\n)*?\s+live already: email \(written before the failure\)/);
    await expectNoChanges(cli, dir);
    const org = store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    expect(Object.values(org.invitations).filter((i) => i.email === 'dave@acme.example')).toHaveLength(1);
  });
});

describe('a members list cut at a page size the service keeps to itself (10)', () => {
  for (const reviewUsers of [true, false]) {
    it(`reads on for the declared members missing from the first page, ${reviewUsers ? 'users' : 'invitations (no users list)'}: none invited twice, none removed live (probe RP-3)`, async () => {
      t = await startVariant({ paging: 'hidden', ignorePageSize: true, maxPageSize: 10, reviewUsers });
      const cli = cliWith(() => t!.env);
      const members = Array.from({ length: 14 }, (_, i) => `kind: Member\nemail: U${i + 1}@acme.example\n`).join('---\n');
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': members });
      await applyOk(cli, dir);
      await expectNoChanges(cli, dir);
      const drift = await cli('drift', '-C', dir);
      expect([drift.code, drift.stdout]).toEqual([0, expect.stringContaining('No drift')]);
      const pulled = await cli('pull', '-C', dir, '--dry-run');
      expect([pulled.code, pulled.stdout]).toEqual([0, expect.not.stringContaining('U1')]);
      const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
      expect(Object.values(org.invitations).filter((i) => i.email === 'u14@acme.example')).toHaveLength(1);
    });
  }

  it('and its invitations name no user: the read after inviting reads on for the users made, so the organization can name the last one in the same apply (probe RS-3)', async () => {
    t = await startVariant({ paging: 'hidden', ignorePageSize: true, maxPageSize: 10, invitationUser: false });
    const cli = cliWith(() => t!.env);
    const members = Array.from({ length: 12 }, (_, i) => `kind: Member\nemail: m${String(i + 1).padStart(2, '0')}@acme.example\n`).join('---\n');
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': members, 'org.yaml': 'kind: Organization\nreview:\n  default_reviewer: m12@acme.example\n' });
    const apply = await applyOk(cli, dir);
    expect(apply.stdout).toContain('✓ update organization');
    await expectNoChanges(cli, dir);
  });
});
