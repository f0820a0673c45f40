/** `--env` selects an environment's overrides: its own organization and its own variables. */
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY } from '../../src/emulator/server.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';
import { App } from '../helpers/app.js';
import { ATTACHMENT_YAML, pdf } from './agreements-fixtures.js';

afterAll(removeMadeDirs);

const STAGING_ORG = '0a9b8c7d-6e5f-4a3b-9c2d-1e0f9a8b7c6d';

/** An emulator whose key sees a second review organization, for staging, and a configuration of `files` that names both. */
/** Staging, still at the names before the app's rename, follows what pull wrote: it plans `expected`, deletes no rule, and applies to no changes. */
async function expectStagingFollows(cli: (...args: string[]) => ReturnType<typeof runCli>, dir: string, expected: readonly string[]): Promise<void> {
  const staging = await cli('plan', '-C', dir, '--env', 'staging');
  for (const line of expected) expect(staging.stdout).toContain(line);
  expect(staging.stdout).not.toContain('- delete rule');
  expect((await cli('apply', '-C', dir, '--env', 'staging', '--auto-approve')).code).toBe(0);
  expect((await cli('plan', '-C', dir, '--env', 'staging', '--detailed-exitcode')).code).toBe(0);
}

async function withStaging(files: Record<string, string>, run: (ctx: { dir: string; cli: (...args: string[]) => ReturnType<typeof runCli>; env: Record<string, string> }) => Promise<void>): Promise<void> {
  const t = await startTestEmulator({ seed: (seed) => void seed.organizations.push({ id: STAGING_ORG, name: 'Staging', api_keys: [EMULATOR_API_KEY], users: [{ email: 'admin@emulator.local', role: 'admin' }], playbooks: [] }) });
  try {
    // Each environment's organization as docket.yaml names it.
    const { DOCKET_ORGANIZATION_ID: _, ...env } = t.env;
    const dir = await makeDir({
      'docket.yaml': `version: 1\nreview: { organization_id: ${DEFAULT_ORGANIZATION_ID} }\nenvironments:\n  staging:\n    review: { organization_id: ${STAGING_ORG} }\n`,
      ...files,
    });
    await run({ dir, cli: (...args: string[]) => runCli(args, { env }), env: t.env });
  } finally {
    await t.emulator.close();
  }
}

it('applies each environment to its own organization with its own variables', async () => {
  const dir = await makeDir({
    'docket.yaml': `version: 1
vars:
  legal_lead: alice@acme.example
environments:
  staging:
    review: { organization_id: ${STAGING_ORG} }
    vars: { legal_lead: qa@acme.example }
`,
    'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: ${var.legal_lead}\n',
  });
  const staging = await runCli(['apply', '-C', dir, '--env', 'staging', '--emulator', '--auto-approve']);
  expect(staging.code).toBe(0);
  expect(staging.stdout).toContain('review.default_reviewer: null → "qa@acme.example"');

  const production = await runCli(['plan', '-C', dir, '--emulator']);
  expect(production.stdout).toContain('review.default_reviewer: null → "alice@acme.example"');

  const state = JSON.parse(await readFile(join(dir, '.docket/emulator.json'), 'utf8')) as {
    organizations: Record<string, { default_reviewer_id: string | null }>;
    users: Record<string, { email: string }>;
  };
  const reviewer = state.organizations[STAGING_ORG]!.default_reviewer_id!;
  expect(state.users[reviewer]!.email).toBe('qa@acme.example');

  const replan = await runCli(['plan', '-C', dir, '--env', 'staging', '--emulator', '--detailed-exitcode']);
  expect(replan.code).toBe(0);
});

it('with --emulator, each environment\'s organization has its agreements objects to itself, also in a state made when they shared one', async () => {
  const PRODUCTION_ORG = '22222222-2222-4222-8222-222222222222';
  const dir = await makeDir({
    'docket.yaml': `version: 1\nagreements: { actor: legal-ops@acme.example }\nvars: { label: Base }\nenvironments:\n  staging: { review: { organization_id: ${STAGING_ORG} }, vars: { label: Staging } }\n  production: { review: { organization_id: ${PRODUCTION_ORG} }, vars: { label: Production } }\n`,
    'nda.yaml': 'kind: Template\nname: Mutual NDA\ntype: NDA\nparameters: { purpose: "Evaluating (${var.label})" }\nattachments: [Security Exhibit]\n',
    'security.yaml': ATTACHMENT_YAML,
    'security.pdf': pdf('security'),
  });
  const run = (...args: string[]) => runCli([...args, '-C', dir, '--emulator']);
  expect((await run('apply', '--env', 'staging', '--auto-approve')).code).toBe(0);
  // Production's template is its own to create, not staging's to change.
  const production = await run('plan', '--env', 'production');
  expect(production.stdout).toContain('+ create template "Mutual NDA"');
  expect(production.stdout).not.toContain('Evaluating (Staging)');
  // Its attachment is uploaded to it too: the staging upload's id is staging's, in a lock section of its own.
  expect(production.stdout).toContain('+ upload attachment "Security Exhibit"');
  expect((await run('apply', '--env', 'production', '--auto-approve')).code).toBe(0);
  for (const env of ['staging', 'production']) expect((await run('plan', '--env', env, '--detailed-exitcode')).code).toBe(0);

  // A state saved when every organization had the shared key alone: each gets its own on the next run.
  const stateFile = join(dir, '.docket/emulator.json');
  const state = JSON.parse(await readFile(stateFile, 'utf8')) as { organizations: Record<string, { api_keys: string[]; agreements: { templates: Record<string, unknown> } }> };
  for (const org of Object.values(state.organizations)) org.api_keys = [EMULATOR_API_KEY];
  state.organizations[PRODUCTION_ORG]!.agreements.templates = {};
  await writeFile(stateFile, JSON.stringify(state));
  expect((await run('plan', '--env', 'staging', '--detailed-exitcode')).code).toBe(0);
  expect((await run('plan', '--env', 'production')).stdout).toContain('+ create template "Mutual NDA"');
});

it('with --emulator, the agreements organization docket.yaml names holds the agreements objects, and the review organization the playbooks (probe BI-3)', async () => {
  const AGREEMENTS_ORG = '11111111-1111-4111-8111-111111111111';
  const dir = await makeDir({
    'docket.yaml': `version: 1\nagreements: { actor: legal-ops@acme.example, organization_id: ${AGREEMENTS_ORG} }\nenvironments:\n  staging: { agreements: { organization_id: ${STAGING_ORG} } }\n`,
    'nda.yaml': 'kind: Template\nname: Mutual NDA\ntype: NDA\nattachments: [Security Exhibit]\n',
    'security.yaml': ATTACHMENT_YAML,
    'security.pdf': pdf('security'),
    'playbook.yaml': 'kind: Playbook\nname: Sales\nrules: []\n',
  });
  const run = (...args: string[]) => runCli([...args, '-C', dir, '--emulator']);
  expect((await run('apply', '--auto-approve')).code).toBe(0);
  const state = JSON.parse(await readFile(join(dir, '.docket/emulator.json'), 'utf8')) as { organizations: Record<string, { playbooks: Record<string, unknown>; agreements: { templates: Record<string, unknown>; attachments: Record<string, unknown> } }> };
  const count = (o: Record<string, unknown>): number => Object.keys(o).length;
  expect(count(state.organizations[AGREEMENTS_ORG]!.agreements.templates)).toBe(1);
  expect(count(state.organizations[AGREEMENTS_ORG]!.agreements.attachments)).toBe(1);
  expect(count(state.organizations[DEFAULT_ORGANIZATION_ID]!.agreements.templates)).toBe(0);
  expect(count(state.organizations[DEFAULT_ORGANIZATION_ID]!.playbooks)).toBe(1);
  expect((await run('plan', '--detailed-exitcode')).code).toBe(0);
  // Staging's agreements organization has none of them; its review organization is production's.
  const staging = await run('plan', '--env', 'staging');
  expect(staging.stdout).toContain('+ create template "Mutual NDA"');
  expect(staging.stdout).toContain('+ upload attachment "Security Exhibit"');
  expect(staging.stdout).not.toContain('playbook "Sales"');
  expect((await run('apply', '--env', 'staging', '--auto-approve')).code).toBe(0);
  for (const env of [[], ['--env', 'staging']]) expect((await run('plan', ...env, '--detailed-exitcode')).code).toBe(0);
});

it('an organization never synced in one environment is drift of unknown direction, though another environment shares its agreements organization', async () => {
  await withStaging({ 'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Counsel\nagreements:\n  name: Acme, Inc.\n' }, async ({ dir, cli }) => {
    expect((await cli('apply', '-C', dir, '--env', 'staging', '--auto-approve')).code).toBe(0);
    // The default environment's review organization was never synced; its agreements one is staging's.
    const plan = await cli('plan', '-C', dir, '-o', 'json');
    const changes = (JSON.parse(plan.stdout) as { changes: { kind: string; direction: string; fields: { field: string; direction?: string }[] }[] }).changes;
    expect(changes.map((c) => [c.kind, c.direction, c.fields.map((f) => [f.field, f.direction])])).toEqual([['organization', 'unknown', [['review.name', 'unknown']]]]);
    expect((await cli('drift', '-C', dir)).code).toBe(2);
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    expect((await cli('plan', '-C', dir, '--detailed-exitcode')).code).toBe(0);
  });
});

it('names the environment a saved plan was made for when it applies it', async () => {
  const dir = await makeDir({
    'docket.yaml': `version: 1\nenvironments:\n  staging:\n    review: { organization_id: ${STAGING_ORG} }\n`,
    'playbook.yaml': 'kind: Playbook\nname: Staged\nrules: []\n',
  });
  expect((await runCli(['plan', '-C', dir, '--env', 'staging', '--emulator', '--out', join(dir, 'p.json')])).code).toBe(0);
  const apply = await runCli(['apply', join(dir, 'p.json'), '-C', dir]);
  expect(apply.code).toBe(0);
  expect(apply.stdout).toMatch(/^docket apply · target: local emulator\nenvironment: staging\n\n/);
  // Applied once, it is stale; the command that plans again is for the same folder, environment and emulator (probe DO).
  const again = await runCli(['apply', join(dir, 'p.json'), '-C', dir]);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain(`hint: run \`docket plan -C ${dir} --env staging --emulator --out ${join(dir, 'p.json')}\` again and review the new plan`);
  // The JSON report says it too, as the plan's JSON does.
  await writeFile(join(dir, 'playbook.yaml'), 'kind: Playbook\nname: Staged\ndescription: second\nrules: []\n');
  expect((await runCli(['plan', '-C', dir, '--env', 'staging', '--emulator', '--out', join(dir, 'p.json')])).code).toBe(0);
  const json = await runCli(['apply', join(dir, 'p.json'), '-C', dir, '-o', 'json']);
  expect(json.code).toBe(0);
  expect(JSON.parse(json.stdout)).toMatchObject({ environment: 'staging', done: 1 });
  expect((await runCli(['plan', '-C', dir, '--env', 'staging', '--emulator', '--detailed-exitcode'])).code).toBe(0);
});

it('a saved plan applied to another organization is stale for its target alone: no file changed', async () => {
  const t = await startTestEmulator({ seed: (seed) => void seed.organizations.push({ id: STAGING_ORG, name: 'Staging', api_keys: [EMULATOR_API_KEY], users: [{ email: 'admin@emulator.local', role: 'admin' }], playbooks: [] }) });
  try {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbook.yaml': 'kind: Playbook\nname: Staged\nrules: []\n' });
    expect((await runCli(['plan', '-C', dir, '--out', join(dir, 'p.json')], { env: t.env })).code).toBe(0);
    const elsewhere = await runCli(['apply', join(dir, 'p.json'), '-C', dir], { env: { ...t.env, DOCKET_ORGANIZATION_ID: STAGING_ORG } });
    expect(elsewhere.code).toBe(1);
    expect(elsewhere.stderr).toContain(`the plan was made for a different target (review organization: ${DEFAULT_ORGANIZATION_ID} then, ${STAGING_ORG} now)`);
    expect(elsewhere.stderr).not.toContain('the configuration changed');
    // Not "a saved plan applies once": it was never applied, and applies where it was made for.
    expect(elsewhere.stderr).toContain('hint: apply it against the target it was made for (the same --emulator, --env, URLs and keys), or make a new plan for this one');
    // What it touched is not there to compare: no "no longer exists live" beside the target.
    expect(elsewhere.stderr).not.toContain('no longer exists');
    // With --emulator: stale before the emulator's state (or anything else) is made in the folder (probe EH).
    const local = await runCli(['apply', join(dir, 'p.json'), '-C', dir, '--emulator'], { env: t.env });
    expect(local.code).toBe(1);
    expect(local.stderr).toContain('the plan was made for a different target (the services then, the emulator now)');
    expect(local.stderr).toContain(`hint: apply it against the target it was made for (the same --emulator, --env, URLs and keys), or make a new plan for this one with \`docket plan -C ${dir} --emulator --out ${join(dir, 'p.json')}\``);
    expect(existsSync(join(dir, '.docket'))).toBe(false);
    // Where it was made for, it applies.
    expect((await runCli(['apply', join(dir, 'p.json'), '-C', dir], { env: t.env })).code).toBe(0);
    expect((await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env: t.env })).code).toBe(0);
  } finally {
    await t.emulator.close();
  }
});

it('rejects an unknown environment with a suggestion', async () => {
  const dir = await makeDir({ 'docket.yaml': 'version: 1\nenvironments:\n  staging: {}\n' });
  const result = await runCli(['validate', '-C', dir, '--env', 'stagin']);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('unknown-environment');
  expect(result.stderr).toContain('staging');
  // Named before the command, an environment called like a command is no command: plan's error document.
  const json = await runCli(['--env', 'test', 'plan', '-C', dir, '-o', 'json']);
  expect(json.code).toBe(1);
  const document = JSON.parse(json.stdout);
  expect(document.diagnostics.map((d: { code: string }) => d.code)).toEqual(['unknown-environment']);
  expect(document.suites).toBeUndefined();
  // Said alone: files whose values come from the environment's variables are not read with none (probe JL-3).
  await writeFiles(dir, {
    'docket.yaml': 'version: 1\nvars:\n  label: Note\nenvironments:\n  dev:\n    vars:\n      label: Dev note\n',
    'terms/t.yaml': 'kind: CustomTerm\nname: T\nbody: ${var.label}\n',
  });
  const alone = await runCli(['validate', '-C', dir, '--env', 'deb', '-o', 'json']);
  expect(JSON.parse(alone.stdout).diagnostics.map((d: { code: string }) => d.code)).toEqual(['unknown-environment']);
});

it('applies a plan saved against a fresh in-process emulator, with references to seeded users', async () => {
  const dir = await makeDir({
    'docket.yaml': 'version: 1\n',
    'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: alice@acme.example\n',
    'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT\n    reviewer: qa@acme.example\n',
  });
  const plan = await runCli(['plan', '-C', dir, '--emulator', '--out', join(dir, 'p.json')]);
  expect(plan.code).toBe(0);
  // A service URL set on the apply's step only: the emulator runs at its own, so the plan holds.
  const apply = await runCli(['apply', '-C', dir, join(dir, 'p.json')], { env: { DOCKET_REVIEW_URL: 'https://review.example.com/v1' } });
  expect(apply.stdout).toContain('Apply complete: 3 done.');
  expect(apply.code).toBe(0);
  const replan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
  expect(replan.code).toBe(0);
});

it('applies a saved plan that changes nothing on the review service, and one that changes nothing at all', async () => {
  // Review reads are only made for what a saved plan touches: a plan about a template alone must
  // not look as if it were made for another review organization.
  const dir = await makeDir({
    'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n',
    'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT\n',
    'templates/nda.yaml': 'kind: Template\nname: NDA\ntype: NDA\nparameters:\n  term: 2\n',
  });
  expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve', '-q'])).code).toBe(0);
  const none = await runCli(['plan', '-C', dir, '--emulator', '--out', join(dir, 'none.json'), '--detailed-exitcode']);
  expect(none.code).toBe(0);
  const applyNone = await runCli(['apply', '-C', dir, join(dir, 'none.json')]);
  expect(applyNone.stderr).not.toContain('stale');
  expect(applyNone.code).toBe(0);

  await writeFile(join(dir, 'templates/nda.yaml'), 'kind: Template\nname: NDA\ntype: NDA\nparameters:\n  term: 3\n');
  expect((await runCli(['plan', '-C', dir, '--emulator', '--out', join(dir, 'template.json')])).code).toBe(0);
  const apply = await runCli(['apply', '-C', dir, join(dir, 'template.json')]);
  expect(apply.stderr).not.toContain('stale');
  expect(apply.stdout).toContain('Apply complete: 1 done.');
  expect(apply.code).toBe(0);
  expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'])).code).toBe(0);
});

it('applies a saved plan for a template that names a pinned attachment the lock file does not know', async () => {
  // The saved plan reads only what it touches, and what that names: the attachment is declared,
  // so it reads as the live attachment, not as a raw id that would make the template look changed.
  const example = fileURLToPath(new URL('../../examples/acme-legal', import.meta.url));
  const dir = await makeDir({});
  await cp(example, dir, { recursive: true, filter: (f) => !f.includes('.docket') && !f.endsWith('docket.lock.json') });
  expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve', '-q'])).code).toBe(0);
  const lock = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { targets: Record<string, { files: Record<string, { id: string }> }> };
  const files = Object.values(lock.targets)[0]!.files;
  const key = Object.keys(files).find((k) => k.startsWith('attachment:'))!;
  const id = files[key]!.id;
  delete files[key];
  await writeFile(join(dir, 'docket.lock.json'), `${JSON.stringify(lock, null, 2)}\n`);
  const attachment = join(dir, 'attachments', 'security.yaml');
  await writeFile(attachment, (await readFile(attachment, 'utf8')).replace('kind: Attachment\n', `kind: Attachment\nid: ${id}\n`));
  const template = join(dir, 'templates', 'cloud-services.yaml');
  await writeFile(template, (await readFile(template, 'utf8')).replace('provider: Acme, Inc.', 'provider: Acme Europe GmbH'));

  expect((await runCli(['plan', '-C', dir, '--emulator', '--out', join(dir, 'p.json')])).code).toBe(0);
  const apply = await runCli(['apply', '-C', dir, join(dir, 'p.json')]);
  expect(apply.stderr).not.toContain('stale');
  expect(apply.code).toBe(0);
  expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'])).code).toBe(0);
});

it('a rename pulled from one environment is a rename in the other, not a second playbook: pull keeps the former name in renamed_from', async () => {
  await withStaging({ 'playbooks/nda.yaml': 'kind: Playbook\nname: Inbound NDA\nrules:\n  - name: Term\n    actions: ACCEPT up to 3 years\n' }, async ({ dir, cli, env }) => {
    for (const environment of [[], ['--env', 'staging']]) expect((await cli('apply', '-C', dir, '--auto-approve', ...environment)).code).toBe(0);
    // Renamed in production's app, and pulled from there.
    const app = new App(env);
    await app.editPlaybook('Inbound NDA', { name: 'Inbound NDAs' });
    await app.editRule('Inbound NDAs', 'Term', { name: 'Duration' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe('kind: Playbook\nname: Inbound NDAs\nrenamed_from:\n  - Inbound NDA\nrules:\n  - name: Duration\n    renamed_from:\n      - Term\n    actions: ACCEPT up to 3 years\n');
    const staging = await cli('plan', '-C', dir, '--env', 'staging', '--prune');
    expect(staging.stdout).toContain('~ rename playbook "Inbound NDA" → "Inbound NDAs"');
    expect(staging.stdout).toContain('~ rename rule "Inbound NDAs/Term" → "Inbound NDAs/Duration"');
    expect(staging.stdout).toContain('Plan: 0 to create, 0 to update, 2 to rename, 0 to delete.');
    expect((await cli('apply', '-C', dir, '--env', 'staging', '--auto-approve', '--prune')).code).toBe(0);
    for (const environment of [[], ['--env', 'staging']]) expect((await cli('plan', '-C', dir, '--detailed-exitcode', ...environment)).code).toBe(0);
  });
});

it('renames pulled one at a time through a swap keep the other environment renaming, never swapping contents: a later rename takes its former name from an older one that listed it', async () => {
  const files = { 'playbooks/pbs.yaml': 'kind: Playbook\nname: A\ndescription: first\nrules:\n  - name: r1\n    actions: ACCEPT\n---\nkind: Playbook\nname: B\ndescription: second\nrules:\n  - name: s1\n    actions: ACCEPT\n' };
  await withStaging(files, async ({ dir, cli, env }) => {
    const both = async (...args: string[]) => {
      for (const environment of [[], ['--env', 'staging']]) expect((await cli(...args, '-C', dir, ...environment)).code).toBe(0);
    };
    await both('apply', '--auto-approve');
    const app = new App(env);
    // A and B swap names through T in production's app, a pull after each step; staging follows.
    for (const [from, to] of [['A', 'T'], ['B', 'A'], ['T', 'B']] as const) {
      await app.editPlaybook(from, { name: to });
      expect((await cli('pull', '-C', dir)).code).toBe(0);
    }
    await both('apply', '--auto-approve', '--prune');
    // One rename more: staging renames that one object, and nothing else.
    await app.editPlaybook('B', { name: 'D' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    const staging = await cli('plan', '-C', dir, '--env', 'staging', '--prune');
    expect(staging.stdout).toContain('~ rename playbook "B" → "D"');
    expect(staging.stdout).toContain('Plan: 0 to create, 0 to update, 1 to rename, 0 to delete.');
    await both('apply', '--auto-approve', '--prune');
    for (const environment of [[], ['--env', 'staging']]) expect((await cli('plan', '-C', dir, '--detailed-exitcode', ...environment)).code).toBe(0);
  });
});

it('says a saved plan whose environment docket.yaml no longer defines (renamed or removed) is stale, not the configuration invalid', async () => {
  await withStaging({ 'p.yaml': 'kind: Playbook\nname: P\nrules: []\n' }, async ({ dir, cli }) => {
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--env', 'staging', '--out', planFile)).code).toBe(0);
    await writeFile(join(dir, 'docket.yaml'), `version: 1\nreview: { organization_id: ${DEFAULT_ORGANIZATION_ID} }\nenvironments:\n  stage:\n    review: { organization_id: ${STAGING_ORG} }\n`);
    const applied = await cli('apply', '-C', dir, planFile);
    expect(applied.code).toBe(1);
    expect(applied.stderr).toContain('the saved plan is stale:\n  - it was made for --env staging, which docket.yaml no longer defines');
    expect(applied.stderr).not.toContain('configuration is invalid');
    expect(applied.stderr).toContain(`hint: environments in docket.yaml: stage; make a new plan for the environment as docket.yaml names it now: docket plan -C ${dir} --env NAME --out ${planFile}\n`);
    // With the new name given, the same: not "apply it without --env", which only leads here (probe FU).
    const named = await cli('apply', '-C', dir, '--env', 'stage', planFile);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('the saved plan is stale:\n  - it was made for --env staging, which docket.yaml no longer defines');
    expect(named.stderr).not.toContain('apply it without --env');
    // The same hint as without --env: the environments there are, and the plan's own file (probe PN-4).
    expect(named.stderr).toContain(`hint: environments in docket.yaml: stage; make a new plan for the environment as docket.yaml names it now: docket plan -C ${dir} --env NAME --out ${planFile}\n`);
    // A new plan for the renamed environment applies, and converges.
    expect((await cli('apply', '-C', dir, '--env', 'stage', '--auto-approve')).code).toBe(0);
    expect((await cli('plan', '-C', dir, '--env', 'stage', '--detailed-exitcode')).code).toBe(0);
  });
});

it('a playbook renamed in the app with a new one made under its name: pull gives the renamed one its history, so another environment renames its copy instead of the newcomer taking it (probe KN-2)', () =>
  withStaging({ 'playbooks/p.yaml': 'kind: Playbook\nname: Old\nrules:\n  - name: R\n    actions: ACCEPT r\n  - name: R2\n    actions: ACCEPT r2\n' }, async ({ dir, cli, env }) => {
    for (const e of [[], ['--env', 'staging']]) expect((await cli('apply', '-C', dir, '--auto-approve', ...e)).code).toBe(0);
    await writeFiles(dir, { 'playbooks/p.yaml': 'kind: Playbook\nname: Mid\nrenamed_from: [Old]\nrules:\n  - name: R\n    actions: ACCEPT r\n  - name: R2\n    actions: ACCEPT r2\n' });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    const app = new App({ ...env, DOCKET_ORGANIZATION_ID: DEFAULT_ORGANIZATION_ID });
    await app.editPlaybook('Mid', { name: 'Gone' });
    await app.createPlaybook({ name: 'Mid', description: 'made in the app' });
    // Cut to the new one, the renamed one's file is not written: the history is not handed over either (second read SR73-8).
    const cut = await cli('pull', '-C', dir, '--target', 'playbook/Mid');
    expect(cut.stdout).toContain('was last in sync as the live playbook now named "Gone" (renamed in the app), and a new one was made under its name: pull both together');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toContain('renamed_from: [Old]');
    // Both targeted: pulled together, as without --target (second read RV10-1).
    const both = await cli('pull', '-C', dir, '--target', 'playbook/Mid', '--target', 'playbook/Gone');
    expect(both.stdout).not.toContain('pull both together');
    expect(both.stdout).toContain('playbook "Gone" was "Mid" when last in sync: its new file lists that name and playbooks/p.yaml\'s `renamed_from` in `renamed_from`');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toContain('description: made in the app');
    // Nothing left for a whole pull.
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('Nothing to pull');
    expect(await readFile(join(dir, 'playbooks/gone.yaml'), 'utf8')).toMatch(/^name: Gone\nrenamed_from:\n {2}- Mid\n {2}- Old\n/m);
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).not.toContain('renamed_from');
    expect((await cli('plan', '-C', dir, '--detailed-exitcode')).code).toBe(0);
    // Staging still has Old, with its rules: renamed to Gone, and Mid made beside it; no rule deleted.
    await expectStagingFollows(cli, dir, ['~ rename playbook "Old" → "Gone"', '+ create playbook "Mid"']);
  }));

it('a rule renamed in the app with a new one made under its name: pull gives the renamed one its history in the playbook, so another environment renames its copy (probe LR-1)', () =>
  withStaging({ 'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: Term\n    actions: ACCEPT term\n  - name: Res\n    renamed_from: [Residuals]\n    actions: ACCEPT res\n' }, async ({ dir, cli, env }) => {
    for (const e of [[], ['--env', 'staging']]) expect((await cli('apply', '-C', dir, '--auto-approve', ...e)).code).toBe(0);
    const app = new App({ ...env, DOCKET_ORGANIZATION_ID: DEFAULT_ORGANIZATION_ID });
    await app.editRule('P', 'Res', { name: 'Res (old)' });
    await app.createRule('P', { name: 'Res', actions: 'REJECT res (new in the app)' });
    // Cut to the renamed one, the new one's values would not reach the item it leaves: not pulled alone (second read SR75-4).
    const before = await readFile(join(dir, 'playbooks/p.yaml'), 'utf8');
    const cut = await cli('pull', '-C', dir, '--target', 'rule/P/Res (old)');
    expect(cut.stdout).toContain('was rule "P/Res" when last in sync, and a new rule was made in the app under that name: pull both together (also --target rule/P/Res)');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(before);
    const pulled = await cli('pull', '-C', dir, '--target', 'rule/P/Res (old)', '--target', 'rule/P/Res');
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('rule "P/Res (old)" was "P/Res" when last in sync: its new item in playbooks/p.yaml lists that name and its former `renamed_from` in `renamed_from`');
    const file = await readFile(join(dir, 'playbooks/p.yaml'), 'utf8');
    expect(file).toContain('  - name: Res\n    actions: REJECT res (new in the app)\n');
    expect(file).toMatch(/ {2}- name: Res \(old\)\n {4}renamed_from:\n {6}- Res\n {6}- Residuals\n/);
    expect(file.match(/renamed_from/g)).toHaveLength(1);
    expect((await cli('plan', '-C', dir, '--detailed-exitcode')).code).toBe(0);
    // Staging still has Res: renamed to Res (old), with its id and content, and Res made beside it.
    await expectStagingFollows(cli, dir, ['~ rename rule "P/Res" → "P/Res (old)"', '+ create rule "P/Res"']);
  }));

it('hands the history over as the file writes the name: through a variable, another environment renames its own (second read SR73-1)', () =>
  withStaging({}, async ({ dir, cli, env }) => {
    await writeFiles(dir, {
      'docket.yaml': `version: 1\nreview: { organization_id: ${DEFAULT_ORGANIZATION_ID} }\nvars: { region: EU }\nenvironments:\n  staging:\n    review: { organization_id: ${STAGING_ORG} }\n    vars: { region: US }\n`,
      'playbooks/p.yaml': 'kind: Playbook\nname: ${var.region} Mid\nrules:\n  - name: R\n    actions: ACCEPT r\n',
    });
    for (const e of [[], ['--env', 'staging']]) expect((await cli('apply', '-C', dir, '--auto-approve', ...e)).code).toBe(0);
    const app = new App({ ...env, DOCKET_ORGANIZATION_ID: DEFAULT_ORGANIZATION_ID });
    await app.editPlaybook('EU Mid', { name: 'EU Gone' });
    await app.createPlaybook({ name: 'EU Mid', description: 'made in the app' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/eu-gone.yaml'), 'utf8')).toContain('renamed_from:\n  - ${var.region} Mid\n');
    const staging = await cli('plan', '-C', dir, '--env', 'staging');
    expect(staging.stdout).toContain('~ rename playbook "US Mid" → "EU Gone"');
    expect(staging.stdout).not.toContain('- delete rule');
  }));
