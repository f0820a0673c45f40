/**
 * Agreements-service scenarios against the emulator over loopback, through the real CLI program:
 * each kind's edits plan as the right action and apply, and every scenario ends with a re-plan that
 * must show zero changes.
 */
import { existsSync } from 'node:fs';
import { lockFiles, lockTargets } from '../helpers/lock.js';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import { applyOk, expectNoChanges } from '../helpers/scenario.js';
import { App } from '../helpers/app.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator, type TestEmulatorOptions } from '../helpers/emulator.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';
import {
  AGREEMENTS_DOCKET_YAML,
  ATTACHMENT_YAML,
  CSA_TEMPLATE_YAML,
  CUSTOM_TEMPLATE_YAML,
  DEFINITION,
  DEFINITION_REFORMATTED,
  DOCX_TERM_YAML,
  NDA_TEMPLATE_YAML,
  TERM_MD,
  TERM_YAML,
  csaTemplate,
  docx,
  pdf,
} from './agreements-fixtures.js';

let t: TestEmulator;

/** A Word term and its file. */
const WORD_TERM = { 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML, 'terms/data.docx': docx('version one') };

async function start(options: TestEmulatorOptions = {}): Promise<void> {
  t = await startTestEmulator(options);
}

afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

const cli = (...args: string[]): Promise<CliResult> => runCli(args, { env: t.env });

const agreements = () => t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!.agreements;
const term = (name: string) => Object.values(agreements().custom_terms).find((x) => x.name === name);
const customTemplate = (name: string) => Object.values(agreements().custom_templates).find((x) => x.name === name);
const template = (name: string) => Object.values(agreements().templates).find((x) => x.name === name);

describe('custom terms', () => {
  it('says so when the lists read after the apply leave out the term it made: a list answered empty had it made again, and no duplicate could be looked for (probe AB-1)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/t.yaml': 'kind: CustomTerm\nname: T1\nbody: Body 1\n' });
    await applyOk(cli, dir);
    // Three reads of the list answered empty: the plan's, the look before the create, the check after it.
    t.emulator.faults.add({ method: 'GET', path_pattern: '/agreements/v1/custom_terms', status: 'malformed', body: { data: [] }, count: 3 });
    const again = await cli('apply', '-C', dir, '--auto-approve');
    expect(again.stdout).toContain('+ create custom-term "T1"');
    expect(again.stdout).toMatch(/did not show the one this apply created \(id [0-9a-f-]{36}\), so docket could not look for another of this name/);
    t.emulator.faults.clear();
    // The next plan stops at the two, as the note says; the one not wanted removed in the app (renamed aside here), the files and the service agree.
    const plan = await cli('plan', '-C', dir);
    expect([plan.code, plan.stderr]).toEqual([1, expect.stringContaining('ambiguous-match')]);
    const copies = Object.values(agreements().custom_terms).filter((x) => x.name === 'T1');
    expect(copies).toHaveLength(2);
    await new App(t.env).renameTerm('T1', 'T1 (unwanted copy)');
    await expectNoChanges(cli, dir);
  });

  it('creates text terms, publishes a changed body as version 2, renames, and ignores line-ending noise', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    await applyOk(cli, dir);
    expect(term('Consulting Terms')!.versions).toHaveLength(1);
    expect(term('Consulting Terms')!.versions[0]!.body).toBe(TERM_MD.trimEnd());
    expect(term('Consulting Terms')!.versions[0]!.created_by_email).toBe('legal-ops@acme.example');
    await expectNoChanges(cli, dir);

    await writeFiles(dir, { 'terms/consulting.md': TERM_MD.replace(/\n/g, '\r\n') + '\n\n' });
    await expectNoChanges(cli, dir);

    await writeFiles(dir, { 'terms/consulting.md': TERM_MD.replace('30 days', '45 days') });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('↑ publish custom-term "Consulting Terms"');
    expect(plan.stdout).toContain('-2. **Fees.** Customer pays within 30 days.');
    expect(plan.stdout).toContain('+2. **Fees.** Customer pays within 45 days.');
    expect(plan.stdout).toMatch(/Warning: 1 publish goes live at once and cannot be undone/);
    await applyOk(cli, dir);
    expect(term('Consulting Terms')!.versions).toHaveLength(2);
    await expectNoChanges(cli, dir);

    await writeFiles(dir, { 'terms/consulting.yaml': TERM_YAML.replace('name: Consulting Terms', 'name: Services Terms\nrenamed_from: Consulting Terms') });
    const rename = await cli('plan', '-C', dir);
    expect(rename.stdout).toContain('~ rename custom-term "Consulting Terms" → "Services Terms"');
    await applyOk(cli, dir);
    expect(term('Services Terms')!.versions).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it('a text term renamed in the files and in the app is read in full by its record: the plan renames it, nothing else', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/q.yaml': 'kind: CustomTerm\nname: Q1\nbody: hello\n' });
    await applyOk(cli, dir);
    term('Q1')!.name = 'Q1 in the app';
    await writeFiles(dir, { 'terms/q.yaml': 'kind: CustomTerm\nname: Q1 files\nrenamed_from: [Q1]\nbody: hello\n' });
    const plan = await cli('plan', '-C', dir, '-o', 'json');
    expect(plan.stderr).toBe('');
    expect((JSON.parse(plan.stdout) as { changes: { id: string }[] }).changes.map((c) => c.id)).toEqual(['rename:custom-term:Q1 files']);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a saved plan of term changes alone, applied where the review organization is not configured, keeps the review records in their section', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD, 'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules: []\n' });
    const { DOCKET_ORGANIZATION_ID: _unset, ...env } = t.env;
    const run = (...args: string[]) => runCli(args, { env });
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFiles(dir, { 'terms/consulting.md': TERM_MD.replace('30 days', '45 days') });
    expect((await run('plan', '-C', dir, '--out', join(dir, 'plan.json'))).code).toBe(0);
    expect((await run('apply', '-C', dir, join(dir, 'plan.json'))).code).toBe(0);
    const { synced } = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { synced: Record<string, Record<string, string>> };
    expect(Object.keys(synced).filter((target) => target.endsWith(' '))).toEqual([]);
    expect(Object.entries(synced).filter(([, records]) => 'playbook:P' in records)).toHaveLength(1);
    const again = await run('plan', '-C', dir, '--detailed-exitcode');
    expect(again.code).toBe(0);
  });

  it('uploads Word terms, waits for conversion, records them in docket.lock.json and publishes a changed file', async () => {
    await start();
    const dir = await makeDir(WORD_TERM);
    await applyOk(cli, dir);
    expect(term('Data Terms')!.conversion_status).toBe('ready');
    const lock = { files: await lockFiles(dir) };
    expect(lock.files['custom-term:Data Terms']).toMatchObject({ id: term('Data Terms')!.id, file: 'terms/data.docx' });
    await expectNoChanges(cli, dir);

    await writeFile(join(dir, 'terms/data.docx'), docx('version two'));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('↑ publish custom-term "Data Terms"');
    await applyOk(cli, dir);
    expect(term('Data Terms')!.versions).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it('publishes a Word term the lock records for another organization only: what is live there was never seen, whatever the file', async () => {
    const otherOrg = '00000000-0000-4000-8000-0000000000b2';
    await start({ seed: (s) => void s.organizations.push({ id: otherOrg, name: 'Beta', api_keys: ['beta-key'], users: [{ email: 'legal-ops@acme.example' }] }) });
    const beta = (...args: string[]) => runCli(args, { env: { ...t.env, DOCKET_API_KEY: 'beta-key' } });
    const dir = await makeDir(WORD_TERM);
    await applyOk(cli, dir);
    // Another organization holds a Word term of that name with another document, made without this lock.
    const elsewhere = await makeDir({ ...WORD_TERM, 'terms/data.docx': docx('other terms') });
    expect((await beta('apply', '-C', elsewhere, '--auto-approve')).code).toBe(0);
    const betaTerm = () => Object.values(t.emulator.store.organization(otherOrg)!.agreements.custom_terms).find((x) => x.name === 'Data Terms')!;
    const plan = await beta('plan', '-C', dir);
    expect(plan.stdout).toContain('↑ publish custom-term "Data Terms"');
    expect(plan.stdout).toContain('records it for another organization only');
    expect(plan.stdout).not.toContain('--adopt-files');
    expect((await beta('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    expect(betaTerm().versions).toHaveLength(2);
    const again = await beta('plan', '-C', dir, '--detailed-exitcode');
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
  });

  it('refuses agreements.organization_id naming another organization the key sees than its own, at the setting, and changes nothing', async () => {
    const otherOrg = '00000000-0000-4000-8000-0000000000b3';
    await start({ seed: (s) => void s.organizations.push({ id: otherOrg, name: 'Beta', api_keys: [...s.organizations[0]!.api_keys], users: [{ email: 'legal-ops@acme.example' }] }) });
    const own = '00000000-0000-4000-8000-000000000001';
    const dir = await makeDir({ 'docket.yaml': `version: 1\nagreements:\n  actor: legal-ops@acme.example\n  organization_id: ${otherOrg}\n`, 'org.yaml': 'kind: Organization\nagreements: { city: Paris }\n' });
    for (const command of ['plan', 'apply']) {
      const run = await cli(command, '-C', dir, ...(command === 'apply' ? ['--auto-approve'] : []));
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`docket.yaml:4:20 error unknown-organization agreements.organization_id is ${otherOrg}, but the templates and users the agreements API key lists belong to ${own}`);
      expect(run.stderr).toContain(`hint: set \`agreements.organization_id\` to ${own}`);
    }
    expect(Object.keys(t.emulator.stats().requests.by_route).filter((r) => !r.startsWith('GET '))).toEqual([]);
  });

  it('reads a pinned organization\'s id from the review service while its document writes `review:`, even with no key left in it (probe DB-1)', async () => {
    const reviewOrg = '00000000-0000-4000-8000-0000000000b3';
    await start({ seed: (s) => void s.organizations.push({ id: reviewOrg, name: 'Beta', api_keys: [...s.organizations[0]!.api_keys], users: [{ email: 'legal-ops@acme.example' }] }) });
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'org.yaml': `kind: Organization\nid: ${reviewOrg}\nreview: {}\nagreements:\n  city: Oslo\n` });
    const run = (...args: string[]): Promise<CliResult> => runCli(args, { env: { ...t.env, DOCKET_ORGANIZATION_ID: reviewOrg } });
    const plan = await run('plan', '-C', dir);
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toContain('~ update organization');
    await applyOk(run, dir);
    await expectNoChanges(run, dir);
  });

  it('a renamed Word term keeps its file record when a new term takes its former name, so its next file is published', async () => {
    await start();
    const dir = await makeDir(WORD_TERM);
    await applyOk(cli, dir);
    await writeFiles(dir, { 'terms/data.yaml': DOCX_TERM_YAML.replace('name: Data Terms', 'name: Data Terms 2019\nrenamed_from: [Data Terms]') });
    await applyOk(cli, dir);
    expect(Object.keys(await lockFiles(dir))).toEqual(['custom-term:Data Terms 2019']);
    await writeFiles(dir, { 'terms/new.yaml': 'kind: CustomTerm\nname: Data Terms\ndocx_file: new.docx\n', 'terms/new.docx': docx('new terms') });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);

    await writeFile(join(dir, 'terms/data.docx'), docx('version two'));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('↑ publish custom-term "Data Terms 2019"');
    await applyOk(cli, dir);
    expect(term('Data Terms 2019')!.versions).toHaveLength(2);
    expect(term('Data Terms')!.versions).toHaveLength(1);
    await expectNoChanges(cli, dir);
  });

  it('a Word term renamed in the app while a new one took its name: the file is the renamed one\'s, so the new one is published to, not adopted with it (probe YI-1)', async () => {
    await start();
    const dir = await makeDir(WORD_TERM);
    await applyOk(cli, dir);
    const app = new App(t.env);
    await app.renameTerm('Data Terms', 'Data Terms Old');
    await app.createTermDocx('Data Terms', docx('made in the app'));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).not.toContain('--adopt-files');
    expect(plan.stdout).toContain('↑ publish custom-term "Data Terms"');
    const renamed = Object.values(agreements().custom_terms).find((x) => x.name === 'Data Terms Old')!.id;
    expect(plan.stdout).toContain(`docx: "not known: docket.lock.json records terms/data.docx as the upload of custom term ${renamed}, renamed in the app since" → `);
    await applyOk(cli, dir);
    expect(term('Data Terms')!.versions).toHaveLength(2);
    expect(term('Data Terms Old')!.versions).toHaveLength(1);
    await expectNoChanges(cli, dir);
  });

  it('refuses to switch a term between text and Word at the file line: the service keeps a term\'s type', async () => {
    await start();
    const dir = await makeDir({ ...WORD_TERM, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'terms/consulting.yaml': TERM_YAML.replace('body_file: consulting.md', 'docx_file: data.docx'), 'terms/data.yaml': DOCX_TERM_YAML.replace('docx_file: data.docx', 'body: Now text.') });
    const plan = await cli('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('terms/consulting.yaml:3:12 error unsupported-change custom term "Consulting Terms" is a text term on the service; it cannot become a Word term');
    expect(plan.stderr).toContain('terms/data.yaml:3:7 error unsupported-change custom term "Data Terms" is a Word term on the service; it cannot become a text term');
    expect(Object.values(agreements().custom_terms).every((x) => x.versions.length === 1)).toBe(true);
    // Pull cannot make either: it says which type the service holds, not to save a Word file a text term never had (probe QL-1).
    const pulled = await cli('pull', '-C', dir, '--dry-run');
    expect(pulled.stdout).toContain('custom-term "Consulting Terms" docx (terms/consulting.yaml:3): it is a text term on the service, and the files declare a Word term');
    expect(pulled.stdout).toContain('custom-term "Data Terms" body (terms/data.yaml:3): it is a Word term on the service, and the files declare a text term');
    // A plan cut to a target that sends neither is not stopped by them; one that targets a term is (probe QL-4).
    await writeFile(join(dir, 'terms/other.yaml'), 'kind: CustomTerm\nname: Other Terms\nbody: Other.\n');
    const cut = await cli('plan', '-C', dir, '--target', 'custom-term/Other Terms');
    expect([cut.code, cut.stderr]).toEqual([0, '']);
    expect(cut.stdout).toContain('+ create custom-term "Other Terms"');
    const targeted = await cli('plan', '-C', dir, '--target', 'custom-term/Data Terms');
    expect([targeted.code, targeted.stderr]).toEqual([1, expect.stringContaining('terms/data.yaml:3:7 error unsupported-change custom term "Data Terms" is a Word term on the service')]);
    await rm(join(dir, 'terms/other.yaml'));
    // Nothing was sent: with the files as they were, there is nothing to do.
    await writeFiles(dir, { 'terms/consulting.yaml': TERM_YAML, 'terms/data.yaml': DOCX_TERM_YAML });
    await expectNoChanges(cli, dir);
  });

  it('reports a failed docx conversion as an error of that term, and publishes again once it can convert', async () => {
    await start({ docxConversion: 'failed' });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML });
    await writeFile(join(dir, 'terms/data.docx'), docx('broken'));
    const first = await cli('apply', '-C', dir, '--auto-approve');
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('✗ create custom-term "Data Terms"');
    expect(first.stdout).toContain('could not convert terms/data.docx to PDF');

    t.emulator.configure({ docxConversion: 'ready' });
    const retry = await cli('plan', '-C', dir);
    expect(retry.stdout).toContain('↑ publish custom-term "Data Terms"');
    await applyOk(cli, dir);
    expect(term('Data Terms')!.conversion_status).toBe('ready');
    await expectNoChanges(cli, dir);
  });

  it('cannot compare a docx it has no lock entry for, and adopts it with --adopt-files', async () => {
    await start();
    // A quote in its name is escaped as every message escapes one (probe HA).
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML.replace('Data Terms', '\'Data "Terms"\'') });
    await writeFile(join(dir, 'terms/data.docx'), docx('adopted'));
    await applyOk(cli, dir);
    await rm(join(dir, 'docket.lock.json'));

    const plan = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Warning: custom-term "Data \\"Terms\\"": cannot compare terms/data.docx');
    expect(plan.stdout).toContain('--adopt-files');

    // Adopted from a saved plan: it says what the saved plan held, not that live matches (read when the plan was made).
    const saved = join(dir, '.docket', 'adopt.json');
    expect((await cli('plan', '-C', dir, '--out', saved)).code).toBe(0);
    const adoptSaved = await cli('apply', '-C', dir, saved, '--adopt-files');
    expect([adoptSaved.code, adoptSaved.stdout.split('\n').at(-3)]).toEqual([0, 'No changes in the saved plan: nothing was sent.']);
    // The lock changed: a result, on stdout, with -q too, and in -o json (probe LH-1).
    expect(adoptSaved.stdout.split('\n').at(-2)).toBe('Recorded 1 file in docket.lock.json as live: terms/data.docx');
    await rm(join(dir, 'docket.lock.json'));
    const quiet = await cli('apply', '-C', dir, '--auto-approve', '--adopt-files', '-q', '-o', 'json');
    expect(JSON.parse(quiet.stdout)).toMatchObject({ done: 0, adopted_files: ['terms/data.docx'] });
    await rm(join(dir, 'docket.lock.json'));
    // -q without --auto-approve shows the plan (a person may be asked): its header and "No changes" once (probe QK-2).
    const shown = await cli('apply', '-C', dir, '--adopt-files', '-q');
    expect([shown.code, shown.stdout.match(/^docket (plan|apply) · /gm), shown.stdout.match(/^No changes\./gm)?.length]).toEqual([0, ['docket plan · '], 1]);
    expect(shown.stdout.trimEnd().split('\n').at(-1)).toBe('Recorded 1 file in docket.lock.json as live: terms/data.docx');
    await rm(join(dir, 'docket.lock.json'));

    const adopt = await cli('apply', '-C', dir, '--auto-approve', '--adopt-files', '-q');
    expect(adopt.code).toBe(0);
    expect(adopt.stdout).toContain('Recorded 1 file in docket.lock.json');
    // The plan it prints does not ask for the very thing it is doing.
    expect(adopt.stdout).not.toContain('cannot compare');
    expect(term('Data "Terms"')!.versions).toHaveLength(1);
    const replan = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect(replan.stdout).not.toContain('cannot compare');
    expect(replan.code).toBe(0);

    // Adopted as the version live held: a version published in the app since is a change made live.
    expect((await lockFiles(dir))['custom-term:Data "Terms"']).toMatchObject({ version: 1 });
    await new App(t!.env).publishTermDocx('Data "Terms"', docx('from the app'));
    const moved = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect(moved.code).toBe(2);
    expect(moved.stdout).toContain('↑ publish custom-term "Data \\"Terms\\""');
    // Said as what the lock knows: a later version may be an apply's from a checkout with another lock.
    expect(moved.stdout).toMatch(/docx: "version 2, published since the upload docket\.lock\.json records \(version 1, [0-9a-f]{64}\): in the app, or by an apply whose docket\.lock\.json this one is not" → "[0-9a-f]{64}"/);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    // A lock that records a later version than live holds (edited by hand, or a state rolled back):
    // that upload is not live, and the plan publishes it, not "No changes" (probe AK-2).
    const lockPath = join(dir, 'docket.lock.json');
    const lockText = await readFile(lockPath, 'utf8');
    const liveVersion = (await lockFiles(dir))['custom-term:Data "Terms"']!.version!;
    await writeFile(lockPath, lockText.replace(`"version": ${liveVersion}`, `"version": ${liveVersion + 5}`));
    const behind = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect([behind.code, behind.stdout]).toEqual([2, expect.stringContaining(`docx: "version ${liveVersion}, before version ${liveVersion + 5}, which docket.lock.json records as the upload of terms/data.docx"`)]);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  /** A Word term applied as version 1, whose file then changed: the next apply publishes version 2. */
  async function wordTermToPublish(): Promise<string> {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML });
    await writeFile(join(dir, 'terms/data.docx'), docx('first'));
    await applyOk(cli, dir);
    await writeFile(join(dir, 'terms/data.docx'), docx('second'));
    return dir;
  }

  it('a Word publish whose conversion wait the time budget cut short is said as made, its conversion not waited for, not as a request never sent (probe SC-4)', async () => {
    const dir = await wordTermToPublish();
    t.emulator.configure({ conversionDelayMs: 60_000 });
    const applied = await cli('apply', '-C', dir, '--auto-approve', '--timeout', '3s');
    expect(applied.code).toBe(1);
    expect(applied.stdout).toContain('✓ publish custom-term "Data Terms"');
    expect(applied.stdout).toContain("note: its PDF conversion was not waited for, as the command's time budget ran out: the next plan says whether it is done or failed (then it publishes again)");
    expect(applied.stdout).toContain('1 done, 0 failed');
    // The next plan says the conversion is under way (probe SC-1), and nothing once it is done.
    expect((await cli('plan', '-C', dir)).stdout).toContain('the service is still converting terms/data.docx (version 2) to PDF');
    term('Data Terms')!.conversion_status = 'ready';
    await expectNoChanges(cli, dir);
  });

  it("says a Word term docket published is still converting, rather than only \"No changes\": apply sent the user to the plan to see whether it failed (probe SC-1)", async () => {
    const dir = await wordTermToPublish();
    await applyOk(cli, dir);
    term('Data Terms')!.conversion_status = 'processing';
    const plan = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect([plan.code, plan.stdout]).toEqual([0, expect.stringContaining('No changes')]);
    expect(plan.stdout + plan.stderr).toContain('custom term "Data Terms": the service is still converting terms/data.docx (version 2) to PDF; plan again once it is done to see whether the conversion failed');
    term('Data Terms')!.conversion_status = 'ready';
    await expectNoChanges(cli, dir);
    expect((await cli('plan', '-C', dir)).stdout).not.toContain('still converting');
  });

  it('calls a saved plan stale when the app published a version of the same text since: its publish would take that number for its own (probe KT-2)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'terms/consulting.md': TERM_MD.replace('30 days', '45 days') });
    const saved = join(dir, '..', `kt2-${Date.now()}.json`);
    expect((await cli('plan', '-C', dir, '--out', saved)).code).toBe(0);
    // The same text again, as a new version: nothing in the term's fields changed.
    await new App(t.env).publishTerm('Consulting Terms', term('Consulting Terms')!.versions.at(-1)!.body ?? '');
    const stale = await cli('apply', '-C', dir, saved);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('changed live since the plan');
    expect(term('Consulting Terms')!.versions).toHaveLength(2);
    await applyOk(cli, dir);
    expect(term('Consulting Terms')!.versions.at(-1)!.body).toContain('45 days');
    await expectNoChanges(cli, dir);
    await rm(saved, { force: true });
  });

  it("records the version a Word term's publish became as the service numbers it, also when the app published another while it was sent", async () => {
    const dir = await wordTermToPublish();
    // docket's publish waits at the service (version 1 read at plan time) while the app publishes version 2.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 'late', delay_ms: 400, count: 1 });
    const applying = cli('apply', '-C', dir, '--auto-approve');
    while (t.emulator.stats().faults_injected === 0) await new Promise((r) => setTimeout(r, 10));
    await new App(t.env).publishTermDocx('Data Terms', docx('from the app'));
    expect((await applying).code).toBe(0);
    expect(term('Data Terms')!.versions).toHaveLength(3);
    expect((await lockFiles(dir))['custom-term:Data Terms']).toMatchObject({ version: 3 });
    // The file is live as docket's own version: no change made live, nothing to publish again.
    await expectNoChanges(cli, dir);
    expect((await cli('drift', '-C', dir)).code).toBe(0);
  });

  it("says which version a Word term's publish is recorded as when its answer was lost and the term was read to find it", async () => {
    const dir = await wordTermToPublish();
    // The service publishes it, then closes the connection without answering.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 'drop', count: 1 });
    const applied = await cli('apply', '-C', dir, '--auto-approve');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('custom term "Data Terms": the answer to its publish was lost; the term is at version 2, and docket.lock.json records terms/data.docx as version 2 (the service does not say who published a version: if version 2 in the app is not this file, publish the file there by hand; docket publishes a Word file again only when its bytes change)');
    expect(term('Data Terms')!.versions).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it("says a Word term's publish answered with no body (a 204) gave no version number, not that its answer was lost (probe DN)", async () => {
    const dir = await wordTermToPublish();
    t.emulator.configure({ variants: { ...t.emulator.config().variants, createStatus: 204 } });
    const applied = await cli('apply', '-C', dir, '--auto-approve');
    expect(applied.code).toBe(0);
    expect(applied.stdout).toContain('custom term "Data Terms": the service\'s answer to its publish gave no version number; the term is at version 2, and docket.lock.json records terms/data.docx as version 2');
    expect(applied.stdout).not.toContain('was lost');
    await expectNoChanges(cli, dir);
  });

  it('explains in plain words when custom terms are not enabled for the organization', async () => {
    await start({ seed: (s) => (s.organizations[0]!.features = { custom_terms: false }) });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    const plan = await cli('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('404');
    expect(plan.stderr).toContain('custom terms and templates are not enabled for this organization');
    // Export of everything leaves those kinds out, saying so; asked for by --kind, the error stands.
    const out = join(await makeDir({}), 'export');
    const exported = await cli('export', '-C', await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML }), '--out', out);
    expect([exported.code, exported.stderr]).toEqual([0, '']);
    expect(exported.stdout).toContain('custom terms and templates are not enabled for this organization (the agreements service answers 404): none were exported');
    await expectNoChanges(cli, out);
    const asked = await cli('export', '-C', dir, '--out', join(out, '..', 'terms'), '--kind', 'custom-term');
    expect(asked.code).toBe(1);
    expect(asked.stderr).toContain('hint: custom terms and templates are not enabled for this organization: export without those --kind values');
  });

  it('drift and pull pass, saying so, once custom terms are turned off for an organization whose files dropped the terms docket synced: only a file could have fixed it (probe CD-1)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD, 'templates/csa.yaml': CSA_TEMPLATE_YAML.replace(/  include_security_policy[^\n]*\n/g, '').replace(/attachments: .*\n/, '') });
    await applyOk(cli, dir);
    await rm(join(dir, 'terms'), { recursive: true });
    t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!.features.custom_terms = false;
    for (const command of [['drift'], ['pull', '--dry-run']]) {
      const run = await cli(...command, '-C', dir);
      expect([command[0], run.code, run.stderr], run.stdout).toEqual([command[0], 0, expect.stringContaining('Warning: custom terms and templates are not enabled for this organization (the agreements service answers 404): the custom terms docket synced before, which no file declares any more, are not read')]);
    }
    // A file still declaring a kind of the feature (a custom template): the error and its hint
    // stand, with no warning that would have it passed (second read SR101-6).
    await writeFiles(dir, { 'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms\n', ''), 'templates/consulting.cover.yaml': DEFINITION });
    const declared = await cli('drift', '-C', dir);
    expect([declared.code, declared.stderr]).toEqual([1, expect.stringContaining('remove those kinds from the configuration')]);
    expect(declared.stderr).not.toContain('Warning: custom terms and templates are not enabled');
  });

  it('a 404 on one custom term the list named fails the export, not taken for the feature being off (which exported no terms at all)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    await applyOk(cli, dir);
    t.emulator.faults.add({ method: 'GET', path_pattern: '/agreements/v1/custom_terms/:id', status: 404, count: 1 });
    const out = join(await makeDir({}), 'export');
    const exported = await cli('export', '-C', dir, '--out', out);
    expect(exported.code).toBe(1);
    expect(exported.stdout).not.toContain('none were exported');
    expect(exported.stderr).toContain('hint: it is not there any more: it may have been deleted or archived in the app since docket read it; run the command again');
    expect(existsSync(out)).toBe(false);
    // Run again, the term is exported and plans with no changes.
    expect((await cli('export', '-C', dir, '--out', out)).code).toBe(0);
    expect(existsSync(join(out, 'custom-terms'))).toBe(true);
    await expectNoChanges(cli, out);
  });
});

describe('custom templates', () => {
  async function project(): Promise<string> {
    return makeDir({
      'docket.yaml': AGREEMENTS_DOCKET_YAML,
      'terms/consulting.yaml': TERM_YAML,
      'terms/consulting.md': TERM_MD,
      'terms/other.yaml': 'kind: CustomTerm\nname: Other Terms\nbody: Other terms apply.\n',
      'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML,
      'templates/consulting.cover.yaml': DEFINITION,
    });
  }

  /** The definition's title and the term it links, both changed in the files: a publish of two versions. */
  function changeDefinitionAndLink(dir: string): Promise<void> {
    return writeFiles(dir, {
      'templates/consulting.cover.yaml': DEFINITION.replace('title: Consulting Agreement', 'title: Consulting Agreement 2'),
      'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms', 'custom_term: Other Terms'),
    });
  }

  /** The project applied, then its term renamed away in the files (`Consulting Terms 2019`) while a new term takes its name; the template still names `Consulting Terms`. */
  async function termRenamedAway(): Promise<string> {
    await start();
    const dir = await project();
    await applyOk(cli, dir);
    await writeFiles(dir, {
      'terms/consulting.yaml': TERM_YAML.replace('name: Consulting Terms', 'name: Consulting Terms 2019\nrenamed_from: [Consulting Terms]'),
      'terms/new.yaml': 'kind: CustomTerm\nname: Consulting Terms\nbody: New consulting terms.\n',
    });
    return dir;
  }

  it('a link the app broke (its new term deleted there) reads as changed live, though a renamed term lists that name in renamed_from (probe NN-1)', async () => {
    const dir = await termRenamedAway();
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    // As if deleted in the app (the API cannot): the new term under the name is gone.
    const terms = agreements().custom_terms;
    for (const [id, term] of Object.entries(terms)) if (term.name === 'Consulting Terms') delete terms[id];
    const plan = JSON.parse((await cli('plan', '-C', dir, '-o', 'json')).stdout) as { changes: { id: string; direction?: string }[] };
    expect(plan.changes.find((c) => c.id.endsWith(':custom-template:Consulting Agreement'))?.direction).toBe('changed-live');
  });

  it('publishes the file text, never republishes a reformatted definition, and shows field-level changes', async () => {
    await start();
    const dir = await project();
    await applyOk(cli, dir);
    const created = customTemplate('Consulting Agreement')!;
    expect(created.versions).toHaveLength(1);
    expect(created.versions[0]!.definition).toBe(DEFINITION);
    expect(created.custom_term_id).toBe(term('Consulting Terms')!.id);
    await expectNoChanges(cli, dir);

    await writeFiles(dir, { 'templates/consulting.cover.yaml': DEFINITION_REFORMATTED });
    await expectNoChanges(cli, dir);

    await writeFiles(dir, { 'templates/consulting.cover.yaml': DEFINITION.replace('"Time and materials"]', '"Time and materials", "Retainer"]') });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('↑ publish custom-template "Consulting Agreement"');
    expect(plan.stdout).toContain('billing_model.options: + "Retainer"');
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.versions).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it('relinks and unlinks terms with a PATCH that publishes a version, and renames in place', async () => {
    await start();
    const dir = await project();
    await applyOk(cli, dir);

    await writeFiles(dir, { 'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms', 'custom_term: Other Terms') });
    const relink = await cli('plan', '-C', dir);
    expect(relink.stdout).toContain('custom_term: "Consulting Terms" → "Other Terms"');
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.custom_term_id).toBe(term('Other Terms')!.id);
    expect(customTemplate('Consulting Agreement')!.versions).toHaveLength(2);
    await expectNoChanges(cli, dir);

    await writeFiles(dir, {
      'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms\n', '').replace('name: Consulting Agreement', 'name: Advisory Agreement\nrenamed_from: [Consulting Agreement]'),
    });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ rename custom-template "Consulting Agreement" → "Advisory Agreement"');
    expect(plan.stdout).toContain('custom_term: "Other Terms" → null');
    await applyOk(cli, dir);
    expect(customTemplate('Advisory Agreement')!.custom_term_id).toBeNull();
    await expectNoChanges(cli, dir);
  });

  it('a Word term created whose conversion wait then failed says it is live already, and the next apply does not create it again', async () => {
    await start();
    const dir = await makeDir(WORD_TERM);
    t.emulator.faults.add({ method: 'GET', path_pattern: '/agreements/v1/custom_terms/:id', status: 400, count: 3 });
    const json = await cli('apply', '-C', dir, '--auto-approve', '-o', 'json');
    expect(json.code).toBe(1);
    const [failed] = (JSON.parse(json.stdout) as { results: { status: string; written_fields?: string[] }[] }).results.filter((r) => r.status === 'failed');
    expect(failed!.written_fields).toEqual(expect.arrayContaining(['docx']));
    await applyOk(cli, dir);
    expect(Object.values(agreements().custom_terms).filter((x) => x.name === 'Data Terms')).toHaveLength(1);
    await expectNoChanges(cli, dir);

    // The same for a new version: published, then the wait failed.
    await writeFile(join(dir, 'terms/data.docx'), docx('version two'));
    t.emulator.faults.add({ method: 'GET', path_pattern: '/agreements/v1/custom_terms/:id', status: 400, count: 3 });
    const publish = await cli('apply', '-C', dir, '--auto-approve');
    expect(publish.code).toBe(1);
    expect(publish.stdout).toMatch(/✗ publish custom-term "Data Terms": [^\n]*\n {4}live already: docx \(written before the failure\)/);
    await applyOk(cli, dir);
    expect(term('Data Terms')!.versions).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it('says that a change of a definition and its term link publishes two versions, and makes exactly two (probe LQ-1)', async () => {
    await start();
    const dir = await project();
    await applyOk(cli, dir);
    await changeDefinitionAndLink(dir);
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toMatch(/↑ publish custom-template "Consulting Agreement" \(2 versions\)/);
    expect(plan.stdout).toContain('Warning: 1 publish (2 versions) goes live at once and cannot be undone: custom-template "Consulting Agreement" (2 versions).');
    const json = JSON.parse((await cli('plan', '-C', dir, '-o', 'json')).stdout) as { changes: { action: string; versions?: number }[] };
    expect(json.changes.map((c) => [c.action, c.versions])).toEqual([['publish', 2]]);
    expect((await cli('plan', '-C', dir, '-o', 'markdown')).stdout).toContain('custom-template `Consulting Agreement` (2 versions)');
    const before = customTemplate('Consulting Agreement')!.versions.length;
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.versions.length - before).toBe(2);
    // One field alone is one version, said as before.
    await writeFiles(dir, { 'templates/consulting.cover.yaml': DEFINITION.replace('title: Consulting Agreement', 'title: Consulting Agreement 3') });
    const one = await cli('plan', '-C', dir);
    expect(one.stdout).not.toContain('versions)');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a change that wrote part of itself before it failed says what is live already: a definition published, its term link refused', async () => {
    await start();
    const dir = await project();
    await applyOk(cli, dir);
    await changeDefinitionAndLink(dir);
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/v1/custom_templates/', status: 422, count: 2 });
    const json = await cli('apply', '-C', dir, '--auto-approve', '-o', 'json');
    expect(json.code).toBe(1);
    const [failed] = (JSON.parse(json.stdout) as { results: { status: string; written_fields?: string[] }[] }).results.filter((r) => r.status === 'failed');
    expect(failed!.written_fields).toEqual(['definition']);
    expect(customTemplate('Consulting Agreement')!.versions).toHaveLength(2);
    // The text report says it under the failure; the next apply makes the link alone.
    await writeFiles(dir, { 'templates/consulting.cover.yaml': DEFINITION.replace('title: Consulting Agreement', 'title: Consulting Agreement 3') });
    const text = await cli('apply', '-C', dir, '--auto-approve');
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/✗ [^\n]*custom-template "Consulting Agreement"[^\n]*\n {4}live already: definition \(written before the failure\)/);
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.custom_term_id).toBe(term('Other Terms')!.id);
    await expectNoChanges(cli, dir);
  });

  it('links a template to the term version the same apply publishes, and skips it when that publish fails', async () => {
    await start();
    const dir = await project();
    await applyOk(cli, dir);
    await writeFiles(dir, {
      'terms/other.yaml': 'kind: CustomTerm\nname: Other Terms\nbody: Other terms apply, revised.\n',
      'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms', 'custom_term: Other Terms'),
    });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 422, count: 1 });
    const failed = await cli('apply', '-C', dir, '--auto-approve', '--concurrency', '16');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('✗ publish custom-term "Other Terms"');
    expect(failed.stdout).toContain('- skipped publish custom-template "Consulting Agreement": depends on publish custom-term "Other Terms", which failed');
    expect(customTemplate('Consulting Agreement')!.custom_term_id).toBe(term('Consulting Terms')!.id);
    await applyOk(cli, dir, '--concurrency', '16');
    const latest = customTemplate('Consulting Agreement')!.versions.at(-1)!;
    expect([customTemplate('Consulting Agreement')!.custom_term_id, latest.custom_term_version_number]).toEqual([term('Other Terms')!.id, 2]);
    await expectNoChanges(cli, dir);
  });

  it('publishes a template\'s new definition after the new text of the term it keeps linking, whatever the concurrency and the answer\'s delay', async () => {
    await start();
    const dir = await project();
    await applyOk(cli, dir);
    const edit = (n: number) =>
      writeFiles(dir, {
        'terms/consulting.md': `${TERM_MD}${n}. **Notice.** In writing.\n`,
        'templates/consulting.cover.yaml': DEFINITION.replace('title: Consulting Agreement', `title: Consulting Agreement ${n}`),
      });
    await edit(3);
    t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 422, count: 1 });
    const failed = await cli('apply', '-C', dir, '--auto-approve', '--concurrency', '16');
    expect(failed.stdout).toContain('- skipped publish custom-template "Consulting Agreement": depends on publish custom-term "Consulting Terms", which failed');
    expect(customTemplate('Consulting Agreement')!.versions).toHaveLength(1);
    await applyOk(cli, dir, '--concurrency', '16');
    // The term's answer late: the template still waits for it.
    await edit(4);
    t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 'late', delay_ms: 300, count: 1 });
    await applyOk(cli, dir, '--concurrency', '16');
    const latest = customTemplate('Consulting Agreement')!.versions.at(-1)!;
    expect(latest.custom_term_version_number).toBe(term('Consulting Terms')!.versions.length);
    await expectNoChanges(cli, dir);
  });

  it('renaming linked terms renames only the terms: the template still points at the same object', async () => {
    await start();
    const dir = await project();
    await applyOk(cli, dir);
    await writeFiles(dir, {
      'terms/consulting.yaml': TERM_YAML.replace('name: Consulting Terms', 'name: Consulting Terms v2\nrenamed_from: [Consulting Terms]'),
      'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms', 'custom_term: Consulting Terms v2'),
    });
    const plan = await cli('plan', '-C', dir, '-o', 'json');
    const ids = (JSON.parse(plan.stdout) as { changes: { id: string }[] }).changes.map((c) => c.id);
    expect(ids).toEqual(['rename:custom-term:Consulting Terms v2']);
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.versions).toHaveLength(1);
    await expectNoChanges(cli, dir);
  });
  it('a term renamed with --target leaves its template recorded under the new name: a link the app moves later reads as changed live, and pull takes it (probe OW-2)', async () => {
    await start();
    const dir = await project();
    await writeFiles(dir, { 'terms/other.yaml': 'kind: CustomTerm\nname: Other Terms\nbody: Other text.\n' });
    await applyOk(cli, dir);
    await writeFiles(dir, {
      'terms/consulting.yaml': TERM_YAML.replace('name: Consulting Terms', 'name: Consulting Terms v3\nrenamed_from: [Consulting Terms]'),
      'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms', 'custom_term: Consulting Terms v3'),
    });
    expect((await cli('apply', '-C', dir, '--auto-approve', '--target', 'custom-term/Consulting Terms v3')).code).toBe(0);
    await new App(t.env).linkTemplate('Consulting Agreement', 'Other Terms');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toMatch(/publish custom-template "Consulting Agreement" \(templates\/consulting\.yaml:\d+\) · changed live\n/);
    expect(plan.stdout).not.toContain('live and in files');
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(await readFile(join(dir, 'templates/consulting.yaml'), 'utf8')).toContain('custom_term: Other Terms');
    await expectNoChanges(cli, dir);
  });

  it('a template still naming terms the files rename is refused at the reference, saying what the plan renames them to', async () => {
    await start();
    const dir = await project();
    await applyOk(cli, dir);
    await writeFiles(dir, { 'terms/consulting.yaml': TERM_YAML.replace('name: Consulting Terms', 'name: Consulting Terms 2019\nrenamed_from: [Consulting Terms]') });
    const plan = await cli('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('templates/consulting.yaml:3:14 error unknown-reference `custom_term` names custom-term "Consulting Terms", which this plan renames to "Consulting Terms 2019"');
    expect(plan.stderr).toContain('hint: name it "Consulting Terms 2019" here too');
    // Named so, the plan is the rename alone, and applied it converges.
    await writeFiles(dir, { 'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms', 'custom_term: Consulting Terms 2019') });
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.custom_term_id).toBe(term('Consulting Terms 2019')!.id);
    await expectNoChanges(cli, dir);
  });

  it('a template naming terms that are renamed away while new terms take their name is re-pointed to the new terms in the same apply', async () => {
    const dir = await termRenamedAway();
    // (Live as applied: the files' rename is not made yet.)
    const old = term('Consulting Terms')!.id;
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ rename custom-term "Consulting Terms" → "Consulting Terms 2019"');
    expect(plan.stdout).toContain('+ create custom-term "Consulting Terms"');
    expect(plan.stdout).toContain('custom-template "Consulting Agreement"');
    // The link moves from the term renamed away, said by the name it gets, to the new one.
    expect(plan.stdout).toContain('custom_term: "Consulting Terms 2019" → "Consulting Terms"');
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.custom_term_id).toBe(term('Consulting Terms')!.id);
    expect(term('Consulting Terms 2019')!.id).toBe(old);
    await expectNoChanges(cli, dir);
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(0);
  });

  it('the re-point still owed after an apply made only the rename (a --target) is the files\' change: not drift, and pull does not undo it (probe HC)', async () => {
    const dir = await termRenamedAway();
    await applyOk(cli, dir, '--target', 'custom-term/Consulting Terms 2019');
    const plan = JSON.parse((await cli('plan', '-C', dir, '-o', 'json')).stdout) as { changes: { kind: string; direction: string }[] };
    expect(plan.changes.map((c) => [c.kind, c.direction])).toEqual([['custom-term', 'only-in-files'], ['custom-template', 'changed-in-files']]);
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stdout]).toEqual([0, expect.not.stringContaining('custom_term')]);
    const pulled = await cli('pull', '-C', dir, '--dry-run');
    expect(pulled.stdout).not.toContain('+custom_term');
    // Renamed again in the app since: the template still links that term, by id, so the re-point is still the files' (probe HG).
    await new App(t.env).renameTerm('Consulting Terms 2019', 'Consulting Terms 2020');
    const again = JSON.parse((await cli('plan', '-C', dir, '-o', 'json')).stdout) as { changes: { kind: string; direction: string }[] };
    expect(again.changes.filter((c) => c.kind === 'custom-template').map((c) => c.direction)).toEqual(['changed-in-files']);
    const renamedLive = await cli('pull', '-C', dir);
    expect(renamedLive.code).toBe(0);
    expect(await readFile(join(dir, 'templates/consulting.yaml'), 'utf8')).toBe(CUSTOM_TEMPLATE_YAML);
    expect(await readFile(join(dir, 'terms/consulting.yaml'), 'utf8')).toContain('name: Consulting Terms 2020');
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.custom_term_id).toBe(term('Consulting Terms')!.id);
    await expectNoChanges(cli, dir);
  });

  it('a link the app moved to another term, named as the files rename theirs to, is the app\'s change, not the files\' (second read)', async () => {
    const dir = await termRenamedAway();
    const app = new App(t.env);
    await app.createTerm('Consulting Terms 2019', 'Made in the app.');
    await app.linkTemplate('Consulting Agreement', 'Consulting Terms 2019');
    const plan = JSON.parse((await cli('plan', '-C', dir, '-o', 'json')).stdout) as { changes: { kind: string; direction: string }[] };
    expect(plan.changes.filter((c) => c.kind === 'custom-template').map((c) => c.direction)).toEqual(['changed-live']);
  });

  it('the re-point of a template to a term another renames onto its name is the files\' change, not one of unknown direction', async () => {
    await start();
    const dir = await project();
    await writeFiles(dir, { 'terms/extra.yaml': 'kind: CustomTerm\nname: Extra Terms\nbody: Extra.\n' });
    await applyOk(cli, dir);
    await writeFiles(dir, {
      'terms/consulting.yaml': TERM_YAML.replace('name: Consulting Terms', 'name: Old Terms\nrenamed_from: [Consulting Terms]'),
      'terms/extra.yaml': 'kind: CustomTerm\nname: Consulting Terms\nrenamed_from: [Extra Terms]\nbody: Extra.\n',
    });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('custom_term: "Old Terms" → "Consulting Terms"');
    expect(plan.stdout).not.toContain('no sync record');
    const json = JSON.parse((await cli('plan', '-C', dir, '-o', 'json')).stdout) as { changes: { kind: string; direction: string }[] };
    expect(json.changes.filter((c) => c.kind === 'custom-template').map((c) => c.direction)).toEqual(['changed-in-files']);
    await applyOk(cli, dir);
    expect(customTemplate('Consulting Agreement')!.custom_term_id).toBe(term('Consulting Terms')!.id);
    await expectNoChanges(cli, dir);
  });
});

/**
 * The example's attachment applied, then renamed away (`Security Old`, renamed_from) while a new
 * `Security Exhibit` with another PDF takes its name; the CSA template still names `Security Exhibit`.
 */
async function securityRenamedAway(): Promise<string> {
  await start();
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
  await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
  await applyOk(cli, dir);
  await writeFiles(dir, {
    'attachments/security.yaml': `${ATTACHMENT_YAML.replace('name: Security Exhibit', 'name: Security Old\nrenamed_from: [Security Exhibit]')}---\n${ATTACHMENT_YAML.replace('security.pdf', 'new.pdf')}`,
  });
  await writeFile(join(dir, 'attachments/new.pdf'), pdf('new'));
  return dir;
}

/** The example's attachment applied on an emulator of its own (with `files` beside it); the upload's id. */
async function securityExhibitApplied(files: Record<string, string> = {}): Promise<{ dir: string; id: string }> {
  await start();
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, ...files });
  await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
  await applyOk(cli, dir);
  return { dir, id: (await lockFiles(dir))['attachment:Security Exhibit']!.id };
}

/** The example's attachment applied; `annex`: its document renamed to "Security Annex" through an `id:` pin of its live id. */
async function securityPinnedAsAnnex(): Promise<{ dir: string; annex: string }> {
  const { dir, id } = await securityExhibitApplied();
  return { dir, annex: ATTACHMENT_YAML.replace('name: Security Exhibit\n', `name: Security Annex\nid: ${id}\n`) };
}

/** Attachment "Sec" applied, then renamed in the files to "Sec Old" with a new "Sec" of another file, which template T names (on an emulator of its own). */
async function attachmentRenamedAway(): Promise<string> {
  await start();
  const template = 'kind: Template\nname: T\ntype: NDA\nattachments: [Sec]\n';
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'r.yaml': `kind: Attachment\nname: Sec\ndescription: d\nfile: a.pdf\n---\n${template}` });
  await writeFile(join(dir, 'a.pdf'), pdf('one'));
  await applyOk(cli, dir);
  await writeFile(join(dir, 'b.pdf'), pdf('two'));
  await writeFiles(dir, { 'r.yaml': `kind: Attachment\nname: Sec Old\nrenamed_from: [Sec]\ndescription: d\nfile: a.pdf\n---\nkind: Attachment\nname: Sec\ndescription: d2\nfile: b.pdf\n---\n${template}` });
  return dir;
}

describe('standard templates and attachments', () => {
  it('shows a parameter the schema leaves open as apply sends it: a "3" inside it stays text in the plan, its JSON `sent` and the service', async () => {
    await start();
    const dpa = 'kind: Template\nname: Open DPA\ntype: DPA\nparameters:\n  underlying_agreement_val: {a: 1, b: [x, "3"]}\n';
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'templates/dpa.yaml': dpa });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('parameters.underlying_agreement_val: {"a":1,"b":["x","3"]}');
    const json = JSON.parse((await cli('plan', '-C', dir, '-o', 'json')).stdout) as { changes: { fields: { field: string; after: unknown; sent?: unknown }[] }[] };
    expect(json.changes[0]!.fields.find((f) => f.field === 'parameters.underlying_agreement_val')).toMatchObject({ after: { a: 1, b: ['x', 3] }, sent: { a: 1, b: ['x', '3'] } });
    await applyOk(cli, dir);
    expect(template('Open DPA')!.parameters.underlying_agreement_val).toEqual({ a: 1, b: ['x', '3'] });
    await expectNoChanges(cli, dir);
  });

  it('an update of one key of a nested object leaves the keys it does not change as live holds them, though the file writes them otherwise (probe OR-1)', async () => {
    await start();
    const csa = (period: string) => `kind: Template\nname: Nested CSA\ntype: CSA\nparameters:\n  template_csa_order_form_attributes:\n    cloud_service_description: Platform\n    fees_currency: ""\n    subscription_period: ${period}\n`;
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'templates/csa.yaml': csa('"2"') });
    await applyOk(cli, dir);
    // Live holds a null where the file writes "" and the number 2 where it writes "2": both compare equal.
    const form = () => template('Nested CSA')!.parameters.template_csa_order_form_attributes as Record<string, unknown>;
    Object.assign(form(), { fees_currency: null, subscription_period: 2 });
    await expectNoChanges(cli, dir);
    await writeFiles(dir, { 'templates/csa.yaml': csa('"3"').replace('Platform', 'Platform 2') });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('parameters.template_csa_order_form_attributes.cloud_service_description: "Platform" → "Platform 2"');
    expect(plan.stdout).not.toContain('fees_currency');
    await applyOk(cli, dir);
    // What the plan showed changed, and nothing else: the null and the number stay.
    expect(form()).toMatchObject({ cloud_service_description: 'Platform 2', fees_currency: null, subscription_period: '3' });
    await expectNoChanges(cli, dir);
  });

  it('a live id written where a template lists attachments by name says whose id it is, and the name to write (probe OX-1)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/a.yaml': 'kind: Attachment\nname: Sec OX\nfile: a.pdf\n', 'templates/t.yaml': 'kind: Template\nname: T OX\ntype: NDA\nattachments: [Sec OX]\n' });
    await writeFile(join(dir, 'attachments/a.pdf'), pdf('ox'));
    await applyOk(cli, dir);
    const id = (await lockFiles(dir))['attachment:Sec OX']!.id!;
    await writeFiles(dir, { 'templates/t.yaml': `kind: Template\nname: T OX\ntype: NDA\nattachments: [${id}]\n` });
    const plan = await cli('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`templates/t.yaml:4:15 error unknown-reference \`attachments\` names attachment "${id}", which is the id of attachment "Sec OX": it takes names\n  hint: write "Sec OX"`);
  });

  it('shows text written empty as apply sends it (`""`), on create and on update, though it compares as none', async () => {
    await start();
    const nda = 'kind: Template\nname: Empty Role NDA\ntype: NDA\nparameters:\n  purpose: P\n  recipient_role: ""\n';
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'templates/nda.yaml': nda });
    expect((await cli('plan', '-C', dir)).stdout).toContain('parameters.recipient_role: ""');
    await applyOk(cli, dir);
    expect(template('Empty Role NDA')!.parameters.recipient_role).toBe('');
    await expectNoChanges(cli, dir);
    template('Empty Role NDA')!.parameters.recipient_role = 'Someone';
    expect((await cli('plan', '-C', dir)).stdout).toContain('parameters.recipient_role: "Someone" → ""');
    const json = JSON.parse((await cli('plan', '-C', dir, '-o', 'json')).stdout) as { changes: { fields: { field: string; after: unknown; sent?: unknown }[] }[] };
    expect(json.changes[0]!.fields).toEqual([expect.objectContaining({ field: 'parameters.recipient_role', before: 'Someone', after: null, sent: '' })]);
    await applyOk(cli, dir);
    expect(template('Empty Role NDA')!.parameters.recipient_role).toBe('');
    await expectNoChanges(cli, dir);
  });

  it('compares the `version` parameter of the types that have one (CSA, PSA, Design): applied, it converges', async () => {
    await start();
    const csa = csaTemplate('standard_version: "2.1"\nparameters:\n  provider: Acme, Inc.\n  version: "7"\n  template_csa_order_form_attributes:\n    cloud_service_description: Contract analytics\n');
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'templates/csa.yaml': csa });
    await applyOk(cli, dir);
    expect(template('Cloud Service Agreement')!.parameters.version).toBe('7');
    await expectNoChanges(cli, dir);
    await writeFile(join(dir, 'templates/csa.yaml'), csa.replace('version: "7"', 'version: "8"'));
    expect((await cli('plan', '-C', dir)).stdout).toContain('parameters.version: 7 → "8"');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('manages only the parameters written: server defaults never show as changes', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'templates/nda.yaml': NDA_TEMPLATE_YAML });
    await applyOk(cli, dir);
    const nda = template('Mutual NDA')!;
    expect(nda.parameters).toMatchObject({ term: 2, confidentiality_period: 2, purpose: 'Evaluating a partnership' });
    await expectNoChanges(cli, dir);

    await writeFiles(dir, { 'templates/nda.yaml': NDA_TEMPLATE_YAML.replace('term: 2', 'term: 3') });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update template "Mutual NDA"');
    expect(plan.stdout).toContain('parameters.term: 2 → 3');
    await applyOk(cli, dir);
    expect(template('Mutual NDA')!.parameters.term).toBe(3);
    await expectNoChanges(cli, dir);

    // Numbers and numeric strings compare by value.
    await writeFiles(dir, { 'templates/nda.yaml': NDA_TEMPLATE_YAML.replace('term: 2', 'term: "3"') });
    await expectNoChanges(cli, dir);
  });

  it('records the file an upload is of under the name the files give it now when it is renamed on disk, the same bytes uploaded once (probe GU)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    const uploaded = (await lockFiles(dir))['attachment:Security Exhibit']!;
    expect(uploaded.file).toBe('attachments/security.pdf');
    await rm(join(dir, 'attachments/security.pdf'));
    await writeFile(join(dir, 'attachments/security-final.pdf'), pdf('first'));
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML.replace('security.pdf', 'security-final.pdf') });
    const apply = await cli('apply', '-C', dir, '--auto-approve');
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('No changes.');
    expect((await lockFiles(dir))['attachment:Security Exhibit']).toEqual({ ...uploaded, file: 'attachments/security-final.pdf' });
    await expectNoChanges(cli, dir);
    // Moved again beside a change of another object: the apply that makes it records the move too.
    await rm(join(dir, 'attachments/security-final.pdf'));
    await writeFile(join(dir, 'attachments/v3.pdf'), pdf('first'));
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML.replace('security.pdf', 'v3.pdf'), 'templates/csa.yaml': CSA_TEMPLATE_YAML.replace('provider: Acme, Inc.', 'provider: Acme Corp.') });
    const changed = await cli('apply', '-C', dir, '--auto-approve');
    expect([changed.code, changed.stdout]).toEqual([0, expect.stringContaining('Apply complete: 1 done.')]);
    expect((await lockFiles(dir))['attachment:Security Exhibit']).toEqual({ ...uploaded, file: 'attachments/v3.pdf' });
    await expectNoChanges(cli, dir);
  });

  it('an attachment renamed in the files whose upload the service refused is uploaded again by the next apply: the old upload stays recorded under its old name (probe QH-1)', async () => {
    await start();
    const nda = 'kind: Template\nname: T\ntype: NDA\nattachments: [Sec A]\n';
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/a.yaml': ATTACHMENT_YAML.replace('Security Exhibit', 'Sec A'), 'templates/t.yaml': nda });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    const first = (await lockFiles(dir))['attachment:Sec A']!;
    await writeFiles(dir, { 'attachments/a.yaml': ATTACHMENT_YAML.replace('Security Exhibit', 'Sec A2\nrenamed_from: [Sec A]'), 'templates/t.yaml': nda.replace('[Sec A]', '[Sec A2]') });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/attachments', status: 422, count: 1 });
    const refused = await cli('apply', '-C', dir, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toContain('✗ upload attachment "Sec A2"');
    // Nothing was uploaded: the lock still records the first upload under its own name, so the next plan uploads again.
    expect(await lockFiles(dir)).toEqual({ 'attachment:Sec A': first });
    const again = await cli('plan', '-C', dir);
    expect(again.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete, 1 to upload.');
    await applyOk(cli, dir);
    const attachments = Object.values(agreements().attachments);
    expect(attachments.map((a) => a.name).sort()).toEqual(['Sec A', 'Sec A2']);
    expect(template('T')!.parameters.attachment_ids).toEqual([attachments.find((a) => a.name === 'Sec A2')!.id]);
    await expectNoChanges(cli, dir);
  });

  it('ends an apply whose upload answer was lost with the two ways on, as commands of this run, not with a plain re-run the plan refuses (probe DI-2)', async () => {
    await start();
    // With a template that names it: skipped, as the upload failed, and no failure of its own to fix (second read SR102B-1).
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/attachments', status: 'drop', count: 1 });
    const lost = await cli('apply', '-C', dir, '--auto-approve');
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain('skip');
    expect(lost.stderr).toContain(`the next plan stops at the upload whose outcome is unknown: if it is live, pin its id with \`id:\` and run docket apply -C ${dir} --adopt-files, otherwise docket apply -C ${dir} --retry-uncertain; it then converges`);
    expect(lost.stderr).not.toContain('fix what each failure above names');
    const retried = await cli('apply', '-C', dir, '--auto-approve', '--retry-uncertain');
    expect(retried.code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('says so when docket.lock.json knows nothing of an organization whose templates are live: its uploads may be live already', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    // A first apply to an organization without the template (it holds another one no file declares): nothing to say.
    await new App(t!.env).createTemplate({ name: 'Vendor NDA', type: 'NDA', term: 2 });
    const first = await cli('apply', '-C', dir, '--auto-approve');
    expect(first.stdout).not.toContain('records nothing for this target');
    await rm(join(dir, 'docket.lock.json'));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect(plan.stdout).toContain('Warning: docket.lock.json records nothing for this target (it is missing, or was made for another organization), yet the organization already holds templates the files declare: the upload above may be of files that are live already');
    // Applied all the same, it uploads the file again and re-points the template: it converges.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('leaves alone a copy a concurrent apply set aside: not drift, and pull writes no file of it (probe HN-3)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    await applyOk(cli, dir);
    const app = new App(t!.env);
    await app.createTerm('Consulting Terms copy', 'the copy');
    const copy = term('Consulting Terms copy')!;
    await app.renameTerm('Consulting Terms copy', `Consulting Terms (duplicate ${copy.id.slice(0, 8)}, created by a concurrent docket apply)`);
    // One named so by hand, with another object's id in it, is someone's: drift says it.
    await app.createTerm('Vendor Terms (duplicate 12345678, created by a concurrent docket apply)', 'by hand');
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).not.toContain('Consulting Terms (duplicate');
    expect(drift.stdout).toContain('Vendor Terms (duplicate 12345678');
    const pull = await cli('pull', '-C', dir, '--dry-run');
    expect(pull.stdout).not.toContain('Consulting Terms (duplicate');
    expect(pull.stdout).toContain('Vendor Terms (duplicate 12345678');
    await expectNoChanges(cli, dir);
  });

  it('says where a version 1 lock keeps the entries of an environment renamed before an apply moved them, and how to take them over (probe HP-1)', async () => {
    await start();
    const docketYaml = (env: string) => `${AGREEMENTS_DOCKET_YAML}environments:\n  ${env}: {}\n`;
    const dir = await makeDir({ 'docket.yaml': docketYaml('old'), 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir, '--env', 'old');
    // The same entries as a version 1 lock keeps them: by the environment's name.
    const entry = (await lockFiles(dir))['attachment:Security Exhibit'];
    await writeFile(join(dir, 'docket.lock.json'), JSON.stringify({ version: 1, files: {}, environments: { old: { files: { 'attachment:Security Exhibit': entry } } } }));
    await expectNoChanges(cli, dir, '--env', 'old');

    await writeFiles(dir, { 'docket.yaml': docketYaml('new') });
    const renamed = await cli('plan', '-C', dir, '--env', 'new');
    expect(renamed.stdout).toContain('+ upload attachment "Security Exhibit"');
    // The command as this run was made: its folder (-C, from where docket runs), its environment's former name.
    expect(renamed.stdout).toContain(`. docket.lock.json still holds version 1 entries of the environment "old", which docket.yaml no longer defines: if this environment was renamed from it, give it that name again, run \`docket apply -C ${relative(process.cwd(), dir)} --env old\` once (it moves those entries to this target's section), then rename it to "new" again`);
    // As told: the entries move, and the environment under its new name uploads nothing again.
    await writeFiles(dir, { 'docket.yaml': docketYaml('old') });
    const moved = await cli('apply', '-C', dir, '--auto-approve', '--env', 'old');
    expect([moved.code, moved.stdout, moved.stderr]).toEqual([0, expect.stringContaining('No changes.'), expect.stringContaining("this run's entries moved from the version 1 section")]);
    await writeFiles(dir, { 'docket.yaml': docketYaml('new') });
    await expectNoChanges(cli, dir, '--env', 'new');
    expect(Object.values(agreements().attachments)).toHaveLength(1);
  });

  it('says where a renamed environment\'s version 1 entries wait when its files declare uploads alone, with no template live to tell (probe PJ-2)', async () => {
    await start();
    const docketYaml = (env: string) => `${AGREEMENTS_DOCKET_YAML}environments:\n  ${env}: {}\n`;
    const dir = await makeDir({ 'docket.yaml': docketYaml('staging'), 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir, '--env', 'staging');
    const entry = (await lockFiles(dir))['attachment:Security Exhibit'];
    await writeFile(join(dir, 'docket.lock.json'), JSON.stringify({ version: 1, files: {}, environments: { staging: { files: { 'attachment:Security Exhibit': entry } } } }));
    await writeFiles(dir, { 'docket.yaml': docketYaml('stage') });
    const renamed = await cli('plan', '-C', dir, '--env', 'stage');
    expect(renamed.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect(renamed.stdout).toContain('Warning: the upload above may be of a file that is live already (the service cannot list them). docket.lock.json still holds version 1 entries of the environment "staging", which docket.yaml no longer defines');
  });

  it('an apply that uploads says it moved the entries of a version 1 lock, and takes the upload another environment of the same organization made (probe PN-1)', async () => {
    await start();
    const docketYaml = `${AGREEMENTS_DOCKET_YAML}environments:\n  staging: {}\n  prod: {}\n`;
    const second = ATTACHMENT_YAML.replace('Security Exhibit', 'Second Exhibit').replace('security.pdf', 'second.pdf');
    const dir = await makeDir({ 'docket.yaml': docketYaml, 'attachments/security.yaml': ATTACHMENT_YAML, 'attachments/second.yaml': second });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await writeFile(join(dir, 'attachments/second.pdf'), pdf('second'));
    await applyOk(cli, dir, '--env', 'prod');
    const files = await lockFiles(dir);
    // As a version 1 lock kept them: staging knows the first upload, prod both (one organization).
    await writeFile(join(dir, 'docket.lock.json'), JSON.stringify({ version: 1, files: {}, environments: { staging: { files: { 'attachment:Security Exhibit': files['attachment:Security Exhibit'] } }, prod: { files } } }));
    await expectNoChanges(cli, dir, '--env', 'staging');
    // A third attachment, uploaded by the apply that moves the entries: said all the same.
    await writeFiles(dir, { 'attachments/third.yaml': ATTACHMENT_YAML.replace('Security Exhibit', 'Third Exhibit').replace('security.pdf', 'third.pdf') });
    await writeFile(join(dir, 'attachments/third.pdf'), pdf('third'));
    const moved = await cli('apply', '-C', dir, '--auto-approve', '--env', 'staging');
    expect([moved.code, moved.stderr]).toEqual([0, expect.stringContaining("docket.lock.json: this run's entries moved from the version 1 section")]);
    expect(moved.stdout).not.toContain('upload attachment "Second Exhibit"');
    await expectNoChanges(cli, dir, '--env', 'prod');
    expect(Object.values(agreements().attachments)).toHaveLength(3);
  });

  it('refuses to create again most of the templates the files declare when their list is answered empty: copies could never be deleted (probe FC)', async () => {
    await start();
    const names = ['A', 'B', 'C', 'D', 'E', 'F'].map((x) => `Mutual NDA ${x}`);
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'templates/nda.yaml': names.map((n) => NDA_TEMPLATE_YAML.replace('Mutual NDA', n)).join('---\n') });
    await applyOk(cli, dir);
    const templates = () => Object.values(agreements().templates);
    expect(templates()).toHaveLength(6);
    // A service in trouble answers every read of the list empty.
    t.emulator.faults.add({ method: 'GET', path_pattern: '/agreements/v1/templates', status: 'malformed', body: { data: [] }, count: 100 });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('Warning: apply will refuse this plan: the plan creates again 6 of the 6 template objects the files declare (100%; removed live, or a service in trouble answered an empty list), over the safety threshold of 30% (safety.max_delete_fraction); pass --force to apply it anyway');
    const refused = await cli('apply', '-C', dir, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error: refusing to apply: the plan creates again 6 of the 6 template objects');
    expect(refused.stderr).toContain('hint: review the plan; if the creates again are intended, run apply again with --force');
    expect(templates()).toHaveLength(6);
    t.emulator.faults.clear();
    await expectNoChanges(cli, dir);

    // One template removed in the app (archived there) is made again, as ever: under the share.
    delete agreements().templates[templates().find((x) => x.name === 'Mutual NDA A')!.id];
    const again = await cli('plan', '-C', dir);
    expect(again.stdout).toContain('+ create template "Mutual NDA A"');
    expect(again.stdout).not.toContain('apply will refuse');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('says that a template names another upload than the one its attachment pins, when the lock that recorded the later upload is lost (probe LP-1)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    const first = Object.keys(agreements().attachments)[0]!;
    // Pinned as export writes it, then a new file: uploaded again, the template re-pointed at the new upload.
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML.replace('name: Security Exhibit', `name: Security Exhibit\nid: ${first}`) });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('second'));
    await applyOk(cli, dir);
    const second = Object.keys(agreements().attachments).find((id) => id !== first)!;
    await rm(join(dir, 'docket.lock.json'));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain(
      `Warning: template "Cloud Service Agreement" names upload ${second} where the files name attachment "Security Exhibit", which pins \`id: ${first}\` and docket.lock.json records no upload of: if that is a later upload of attachments/security.pdf (the lock that recorded it is lost), pin it instead before \`docket apply -C ${relative(process.cwd(), dir)} --adopt-files\`; as written, apply points template "Cloud Service Agreement" back at ${first}`,
    );
    // Once, though the template names the attachment in a parameter and in its list (probe MN-3).
    expect(plan.stdout.match(/names upload /g)).toHaveLength(1);
    // Pinned as it says, adopting records the later upload, and the template is left on it.
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML.replace('name: Security Exhibit', `name: Security Exhibit\nid: ${second}`) });
    const adopted = await cli('apply', '-C', dir, '--adopt-files', '--auto-approve');
    expect([adopted.code, adopted.stdout]).toEqual([0, expect.not.stringContaining('update template')]);
    expect(Object.values(agreements().templates)[0]!.parameters).toMatchObject({ include_security_policy_attachment_id: second });
    await expectNoChanges(cli, dir);
  });

  // The attachment's new upload lands while its answer is lost; pinned as uncertain-upload's hint says, the template is re-pointed to it without a warning.
  for (const [what, name, renamedFrom] of [
    ['the lock says which upload it replaces (probe NK-1)', 'Security Exhibit', ''],
    ['that upload renamed the attachment, and the lock records the earlier one under the former name (probe NE-2)', 'Security Annex', '\nrenamed_from: [Security Exhibit]'],
  ] as const) {
    it(`gives no such warning when the pin follows the hint of an upload never confirmed: ${what}`, async () => {
      await start();
      const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
      await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
      await applyOk(cli, dir);
      const first = Object.keys(agreements().attachments)[0]!;
      const written = ATTACHMENT_YAML.replace('name: Security Exhibit', `name: ${name}${renamedFrom}`);
      await writeFiles(dir, { 'attachments/security.yaml': written, 'templates/csa.yaml': CSA_TEMPLATE_YAML.replaceAll('Security Exhibit', name) });
      await writeFile(join(dir, 'attachments/security.pdf'), pdf('second'));
      t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'drop', count: 1 });
      expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(1);
      const second = Object.keys(agreements().attachments).find((id) => id !== first)!;
      expect((await cli('plan', '-C', dir)).stderr).toContain('uncertain-upload');
      await writeFiles(dir, { 'attachments/security.yaml': written.replace(`name: ${name}`, `name: ${name}\nid: ${second}`) });
      const plan = await cli('plan', '-C', dir);
      expect(plan.stdout).toContain('~ update template "Cloud Service Agreement"');
      expect(plan.stdout).not.toContain('names upload');
      expect((await cli('apply', '-C', dir, '--adopt-files', '--auto-approve')).code).toBe(0);
      expect(Object.values(agreements().templates)[0]!.parameters).toMatchObject({ include_security_policy_attachment_id: second });
      await expectNoChanges(cli, dir);
    });
  }

  it('says the agreements kinds docket synced that no file declares any more, though the run talks to the review service only (probes LS-2, LS-3)', async () => {
    await start();
    const playbook = 'kind: Playbook\nname: Inbound NDA\nrules:\n  - name: Term\n    actions: ACCEPT a term of up to 3 years\n';
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'playbooks/nda.yaml': playbook, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    for (const folder of ['attachments', 'templates', 'terms']) await rm(join(dir, folder), { recursive: true });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('Warning: docket.lock.json records 1 attachment, 1 custom term, 1 template docket synced, and no file declares an attachment or a custom term or a template any more');
    expect(plan.stdout).toContain('No changes.');
  });

  it('says the organization docket synced once its document is deleted: docket manages none of its settings then (probe ZD-4)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'organization.yaml': 'kind: Organization\nagreements:\n  city: Berlin\n' });
    await applyOk(cli, dir);
    await rm(join(dir, 'organization.yaml'));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('Warning: docket.lock.json records 1 organization docket synced, and no file declares an organization any more: this plan did not read it, and leaves it live as it is\n');
    expect(plan.stdout).toContain('No changes.');
    // Nothing could ever act on it: an apply that writes the section forgets the record, and the
    // warning with it (probe DB-2). (One that declares nothing of the service writes no section.)
    await writeFiles(dir, { 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    expect((await cli('plan', '-C', dir)).stdout).toContain('(docket never removes that organization: the next apply forgets its record)\n');
    await applyOk(cli, dir);
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('"organization:');
    const after = await expectNoChanges(cli, dir);
    expect(after.stdout).not.toContain('Warning');
    await rm(join(dir, 'terms'), { recursive: true });
    // A document that writes no key says so itself, and is no deleted one (probe ZL-3).
    await writeFiles(dir, { 'organization.yaml': 'kind: Organization\n' });
    const empty = await cli('plan', '-C', dir);
    expect(empty.stdout + empty.stderr).toContain('this Organization document writes no key');
    expect(empty.stdout + empty.stderr).not.toContain('no file declares an organization');
  });

  it('names every upload the lost lock held that docket synced before, each with the id to pin (probe LP-2)', async () => {
    await start();
    const files: Record<string, string> = { 'docket.yaml': AGREEMENTS_DOCKET_YAML };
    for (const name of ['A', 'B', 'C']) files[`attachments/${name}.yaml`] = `kind: Attachment\nname: Att ${name}\nfile: ${name}.pdf\n`;
    const dir = await makeDir(files);
    for (const name of ['A', 'B', 'C']) await writeFile(join(dir, `attachments/${name}.pdf`), pdf(name));
    await applyOk(cli, dir);
    const records = (JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { targets: Record<string, { files: Record<string, { id: string }> }> }).targets;
    const idOf = (name: string): string => Object.values(records)[0]!.files[`attachment:Att ${name}`]!.id;
    // The uploads' entries lost, the sync records kept (a lock merged by hand; with --emulator, the records live apart from it).
    const doc = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { targets: Record<string, { files: Record<string, unknown> }> };
    for (const section of Object.values(doc.targets)) section.files = {};
    await writeFile(join(dir, 'docket.lock.json'), JSON.stringify(doc, null, 2));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout.match(/records no upload of/g)).toHaveLength(1);
    expect(plan.stdout).toContain(`Warning: docket.lock.json records no upload of 3 attachments docket synced before: "Att A" (\`id: ${idOf('A')}\`), "Att B" (\`id: ${idOf('B')}\`), "Att C" (\`id: ${idOf('C')}\`); the uploads above may be of files that are live already`);
    // Pinned as it says, the live ones are kept: nothing is uploaded.
    for (const name of ['A', 'B', 'C']) await writeFiles(dir, { [`attachments/${name}.yaml`]: `kind: Attachment\nname: Att ${name}\nid: ${idOf(name)}\nfile: ${name}.pdf\n` });
    const uploads = Object.keys(agreements().attachments).length;
    const adopted = await cli('apply', '-C', dir, '--adopt-files', '--auto-approve');
    expect([adopted.code, adopted.stdout]).toEqual([0, expect.not.stringContaining('upload attachment')]);
    expect(Object.keys(agreements().attachments)).toHaveLength(uploads);
    await expectNoChanges(cli, dir);
  });

  it('says so too when the lock was lost and since holds only records of the review service, or a record of the upload without its entry', async () => {
    await start();
    const playbook = 'kind: Playbook\nname: Inbound NDA\nrules:\n  - name: Term\n    actions: ACCEPT a term of up to 3 years\n';
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'playbooks/nda.yaml': playbook, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    const warning = 'Warning: docket.lock.json records nothing for this target (it is missing, or was made for another organization), yet the organization already holds templates the files declare: the upload above may be of files that are live already';

    // The lock lost, then an apply of the playbook alone: its records say nothing of the uploads.
    await rm(join(dir, 'docket.lock.json'));
    await writeFiles(dir, { 'playbooks/nda.yaml': playbook.replace('3 years', '4 years') });
    await applyOk(cli, dir, '--target', 'rule/Inbound NDA/Term');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect(plan.stdout).toContain(warning);

    // A plan saved while the lock knew the upload, applied after the lock was lost: refused, as
    // the files' references to the upload no longer resolve (its records would be of no id).
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/nda.yaml': playbook });
    const saved = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', saved)).code).toBe(0);
    const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
    // Applied to another service, the target is the reason, not uploads that service's records cannot know (probe FG-5).
    const other = await startTestEmulator();
    try {
      const elsewhere = await runCli(['apply', '-C', dir, saved], { env: other.env });
      expect([elsewhere.code, elsewhere.stderr]).toEqual([1, expect.stringContaining('the plan was made for a different target (agreements service: ')]);
      expect(elsewhere.stderr).not.toContain('no longer records the upload');
    } finally {
      await other.emulator.close();
    }
    await rm(join(dir, 'docket.lock.json'));
    const stale = await cli('apply', '-C', dir, saved);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toMatch(/docket\.lock\.json no longer records the upload of attachment "Security Exhibit" \([0-9a-f-]{36}\) that the plan was made with/);
    // The lock restored, the same plan applies and leaves nothing to do.
    await writeFile(join(dir, 'docket.lock.json'), lock);
    expect((await cli('apply', '-C', dir, saved)).code).toBe(0);
    await expectNoChanges(cli, dir);

    // A record of the upload left without its entry (a lock merged by hand): the plan says so too.
    const doc = JSON.parse(lock) as { targets: Record<string, { files: Record<string, unknown> }> };
    for (const section of Object.values(doc.targets)) section.files = {};
    await writeFile(join(dir, 'docket.lock.json'), JSON.stringify(doc, null, 2));
    const again = await cli('plan', '-C', dir);
    expect(again.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect(again.stdout).toContain('Warning: docket.lock.json records no upload of attachment "Security Exhibit", though docket synced it before: the upload above may be of a file that is live already');
    // The id to pin is the one the record names (probe JO-2): pinned, the live one is kept, and nothing is uploaded.
    const recorded = JSON.parse(lock) as { targets: Record<string, { files: Record<string, { id: string }> }> };
    const synced = Object.values(recorded.targets)[0]!.files['attachment:Security Exhibit']!.id;
    expect(again.stdout).toContain(`to keep the live one, pin the id docket synced it as, \`id: ${synced}\`, and apply with --adopt-files`);
    const uploads = Object.keys(agreements().attachments).length;
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML.replace('name: Security Exhibit', `name: Security Exhibit\nid: ${synced}`) });
    const adopted = await cli('apply', '-C', dir, '--adopt-files', '--auto-approve');
    expect([adopted.code, adopted.stdout]).toEqual([0, expect.not.stringContaining('upload attachment')]);
    expect(Object.keys(agreements().attachments)).toHaveLength(uploads);
    await expectNoChanges(cli, dir);
    // Unpinned again, the files still name the same upload.
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('says no upload is lost where an attachment is renamed away and a new one takes its name (probe FS)', async () => {
    const dir = await attachmentRenamedAway();
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ upload attachment "Sec"');
    expect(plan.stdout).not.toContain('records no upload');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    // The renamed_from kept as history silences nothing later: the entry of "Sec" lost from the lock is said (second read).
    const lock = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { targets: Record<string, { files: Record<string, unknown> }> };
    for (const section of Object.values(lock.targets)) delete section.files['attachment:Sec'];
    await writeFile(join(dir, 'docket.lock.json'), JSON.stringify(lock, null, 2));
    expect((await cli('plan', '-C', dir)).stdout).toContain('Warning: docket.lock.json records no upload of attachment "Sec", though docket synced it before');
  });

  it('says no upload is lost after a --target apply uploaded the renamed-away attachment alone: its id is not offered to pin for the new one (probe MS-1)', async () => {
    const dir = await attachmentRenamedAway();
    await applyOk(cli, dir, '--target', 'attachment/Sec Old');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ upload attachment "Sec"');
    expect(plan.stdout).not.toContain('records no upload');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    const sec = Object.values(agreements().attachments).filter((a) => a.description === 'd2');
    expect(sec).toHaveLength(1);
    expect(template('T')!.parameters.attachment_ids).toEqual([sec[0]!.id]);
  });

  it('calls a saved plan of a template stale for the lost upload alone, not also changed live: the template reads its upload as a bare id then (probe FF)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    await writeFiles(dir, { 'templates/csa.yaml': CSA_TEMPLATE_YAML.replace('provider: Acme, Inc.', 'provider: Acme GmbH') });
    const saved = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', saved)).code).toBe(0);
    const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
    const doc = JSON.parse(lock) as { targets: Record<string, unknown> };
    doc.targets = {};
    await writeFile(join(dir, 'docket.lock.json'), JSON.stringify(doc, null, 2));
    const stale = await cli('apply', '-C', dir, saved);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('docket.lock.json no longer records the upload of attachment "Security Exhibit"');
    expect(stale.stderr).not.toContain('changed live since the plan');
    await writeFile(join(dir, 'docket.lock.json'), lock);
    expect((await cli('apply', '-C', dir, saved)).code).toBe(0);
    await expectNoChanges(cli, dir);

    // Uploaded again since the plan (second read): the lock lost nothing, and a plan that sends nothing of the upload still applies.
    await writeFiles(dir, { 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    expect((await cli('plan', '-C', dir, '--out', saved)).code).toBe(0);
    // Another checkout uploads a new PDF; its lock is merged here.
    const other = await makeDir({});
    await cp(dir, other, { recursive: true });
    await writeFile(join(other, 'attachments/security.pdf'), pdf('second'));
    await applyOk(cli, other, '--target', 'attachment/Security Exhibit');
    await writeFile(join(dir, 'docket.lock.json'), await readFile(join(other, 'docket.lock.json'), 'utf8'));
    const moved = await cli('apply', '-C', dir, saved);
    expect([moved.code, moved.stderr]).toEqual([0, '']);
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('second'));
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);

    // Uploaded again by a whole apply since, which forgets what it superseded: said so, not as a lock that lost it (probe GA-2).
    await writeFiles(dir, { 'templates/csa.yaml': CSA_TEMPLATE_YAML.replace('provider: Acme, Inc.', 'provider: Acme GmbH') });
    expect((await cli('plan', '-C', dir, '--out', saved)).code).toBe(0);
    const planned = (await lockFiles(dir))['attachment:Security Exhibit']!.id;
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('third'));
    await applyOk(cli, dir);
    const now = (await lockFiles(dir))['attachment:Security Exhibit']!.id;
    const again = await cli('apply', '-C', dir, saved);
    expect([again.code, again.stderr]).toEqual([1, expect.stringContaining(`attachment "Security Exhibit" was uploaded again since the plan: docket.lock.json records ${now}, not the plan's ${planned}`)]);
    expect(again.stderr).not.toContain('no longer records the upload');
    await expectNoChanges(cli, dir);
  });

  it('names the attachment beside each file --adopt-files records when two share one PDF (probe NK-2)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'a.yaml': 'kind: Attachment\nname: HA\nfile: x.pdf\n---\nkind: Attachment\nname: HB\nfile: x.pdf\n' });
    await writeFile(join(dir, 'x.pdf'), pdf('shared'));
    await applyOk(cli, dir);
    const files = await lockFiles(dir);
    await writeFile(join(dir, 'a.yaml'), `kind: Attachment\nname: HA\nid: ${files['attachment:HA']!.id}\nfile: x.pdf\n---\nkind: Attachment\nname: HB\nid: ${files['attachment:HB']!.id}\nfile: x.pdf\n`);
    await rm(join(dir, 'docket.lock.json'));
    const adopt = await cli('apply', '-C', dir, '--auto-approve', '--adopt-files', '-q');
    expect(adopt.code, adopt.stderr).toBe(0);
    expect(adopt.stdout).toContain('Recorded 2 files in docket.lock.json as live: x.pdf (attachment "HA"), x.pdf (attachment "HB")\n');
    await expectNoChanges(cli, dir);
  });

  it('says of a pinned attachment the lock lost, renamed with renamed_from, that adopting takes the new name, and how to upload it instead (probes OC-2, SR80-1)', async () => {
    const { dir, id } = await securityExhibitApplied();
    await rm(join(dir, 'docket.lock.json'));
    const renamed = ATTACHMENT_YAML.replace('name: Security Exhibit\n', `name: Security Annex\nrenamed_from: [Security Exhibit]\nid: ${id}\n`);
    await writeFiles(dir, { 'attachments/security.yaml': renamed });
    const plan = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toContain('adopting records it as named "Security Annex": if the live one is still named "Security Exhibit" (the rename never uploaded), take the `id:` out instead, to upload it under the new name');
    // As it says: without the pin, it is uploaded under the new name.
    await writeFiles(dir, { 'attachments/security.yaml': renamed.replace(`id: ${id}\n`, '') });
    expect((await cli('plan', '-C', dir)).stdout).toContain('+ upload attachment "Security Annex"');
    await applyOk(cli, dir);
    expect(Object.values(agreements().attachments).map((a) => a.name)).toContain('Security Annex');
    await expectNoChanges(cli, dir);
  });

  it('renamed through its `id:` pin, an attachment leaves no record under its old name, which a new attachment then takes as a plain upload (probe TB-1)', async () => {
    const { dir, annex } = await securityPinnedAsAnnex();
    await writeFiles(dir, { 'attachments/security.yaml': annex });
    await applyOk(cli, dir);
    const syncedKeys = async () => Object.values((JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { synced: Record<string, Record<string, string>> }).synced).flatMap((records) => Object.keys(records));
    expect(await syncedKeys()).toEqual(['attachment:Security Annex']);
    // A new attachment given the old name: an upload, with no advice to pin the id the renamed one pins.
    await expectPlainUpload(dir, `${annex}---\n${ATTACHMENT_YAML}`);
  });

  it('gives no advice to pin an id another document pins, when a new document pins the id of a declared attachment (probe TB-1)', async () => {
    const { dir, annex } = await securityPinnedAsAnnex();
    await expectPlainUpload(dir, `${ATTACHMENT_YAML}---\n${annex}`);
  });

  /** With `attachments/security.yaml` written so, "Security Exhibit" is a plain upload, with no advice to pin an id; applied, nothing is left to change. */
  async function expectPlainUpload(dir: string, attachments: string): Promise<void> {
    await writeFiles(dir, { 'attachments/security.yaml': attachments });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect(plan.stdout).not.toContain('records no upload');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  }

  it('says it cannot compare the description of an attachment adopted without one, and records it with --adopt-files', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    // As an adoption by an earlier docket left it: the file recorded, its description not.
    const lockPath = join(dir, 'docket.lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as { targets: Record<string, { files: Record<string, { description?: unknown }> }> };
    for (const target of Object.values(lock.targets)) delete target.files['attachment:Security Exhibit']!.description;
    await writeFile(lockPath, JSON.stringify(lock, null, 2));

    const plan = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect(plan.code).toBe(0);
    // The command as this run was made: copied, it acts on the same configuration (probe WB-1).
    expect(plan.stdout).toContain(`attachment "Security Exhibit": cannot compare its description (not readable over the API, and docket.lock.json records none for it), so a change to it is not seen; run \`docket apply -C ${relative(process.cwd(), dir)} --adopt-files\``);
    const adopt = await cli('apply', '-C', dir, '--auto-approve', '--adopt-files', '-q');
    expect(adopt.code).toBe(0);
    // Only the lock changed: the report still names the target and says the services match.
    // What was recorded: the description of a file recorded already, and whose (probe OX-2).
    expect(adopt.stdout).toMatch(/^docket apply · target: .*\nNo changes\. The live services match the configuration\.\nRecorded in docket\.lock\.json as live: the description of attachments\/security\.pdf \(attachment "Security Exhibit"\)\n$/s);
    expect((await lockFiles(dir))['attachment:Security Exhibit']).toMatchObject({ description: 'Our security measures', file: 'attachments/security.pdf' });
    const replan = await expectNoChanges(cli, dir);
    expect(replan.stdout).not.toContain('cannot compare');

    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML.replace('Our security measures', 'Our measures') });
    const edited = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect(edited.code).toBe(2);
    expect(edited.stdout).toContain('+ upload attachment "Security Exhibit"');
    // It replaces the live one: both sides show, as for an update.
    expect(edited.stdout).toContain('description: "Our security measures" → "Our measures"');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    // Sent as the file says it, line breaks and all (a FormData body made them CRLF).
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML.replace('Our security measures', '"Our measures,\\nin two lines"') });
    await applyOk(cli, dir);
    // Each description is a new upload: the newest is this one.
    expect(Object.values(agreements().attachments).at(-1)?.description).toBe('Our measures,\nin two lines');
    await expectNoChanges(cli, dir);
  });

  it('a template renamed in the app keeps an attachment id its file writes as the id: only the rename shows, and pull leaves the id (probe YI-2)', async () => {
    const { dir, id } = await securityExhibitApplied();
    const byId = CSA_TEMPLATE_YAML.replace('{ attachment: Security Exhibit }', id);
    expect(byId).not.toBe(CSA_TEMPLATE_YAML);
    await writeFiles(dir, { 'templates/csa.yaml': byId });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    await new App(t.env).editTemplate('Cloud Service Agreement', { name: 'CSA renamed' });
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    expect((JSON.parse(drift.stdout) as { drift: { key: string; fields: { field: string }[] }[] }).drift.map((d) => [d.key, d.fields.map((f) => f.field)])).toEqual([['Cloud Service Agreement', ['name']]]);
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    const file = await readFile(join(dir, 'templates/csa.yaml'), 'utf8');
    expect(file).toContain(`include_security_policy_attachment_id: ${id}`);
    expect(file).toContain('name: CSA renamed');
    await expectNoChanges(cli, dir);
  });

  it('an attachment id written in capitals is that id: no change to plan or drift, and sent in lower case, as the service writes ids (probe CD-2)', async () => {
    const { dir, id } = await securityExhibitApplied({ 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFiles(dir, { 'templates/csa.yaml': CSA_TEMPLATE_YAML.replace('{ attachment: Security Exhibit }', id.toUpperCase()) });
    await expectNoChanges(cli, dir);
    expect((await cli('drift', '-C', dir)).code).toBe(0);
    // A template made with it: the id goes as the service writes it, which the service takes.
    await writeFiles(dir, { 'templates/second.yaml': CSA_TEMPLATE_YAML.replace('{ attachment: Security Exhibit }', id.toUpperCase()).replace('name: Cloud Service Agreement', 'name: Second CSA') });
    await applyOk(cli, dir);
    expect(template('Second CSA')!.parameters.include_security_policy_attachment_id).toBe(id);
    await expectNoChanges(cli, dir);
  });

  it('a template pointed from one attachment by name to another by its id reads as changed in the files alone, not in the app (probe GC-1)', async () => {
    await start();
    const second = ATTACHMENT_YAML.replace('name: Security Exhibit', 'name: Privacy Exhibit').replace('security.pdf', 'privacy.pdf');
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': `${ATTACHMENT_YAML}---\n${second}`, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('security'));
    await writeFile(join(dir, 'attachments/privacy.pdf'), pdf('privacy'));
    await applyOk(cli, dir);
    const privacyId = (await lockFiles(dir))['attachment:Privacy Exhibit']!.id;
    await writeFiles(dir, { 'templates/csa.yaml': CSA_TEMPLATE_YAML.replace('include_security_policy_attachment_id: { attachment: Security Exhibit }', `include_security_policy_attachment_id: "${privacyId}"`) });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update template "Cloud Service Agreement" (templates/csa.yaml:9) · changed in files\n');
    expect((await cli('drift', '-C', dir)).code).toBe(0);
    const pull = await cli('pull', '-C', dir, '--dry-run');
    expect([pull.code, pull.stdout]).toEqual([0, expect.not.stringContaining('keep one by hand')]);
    await applyOk(cli, dir);
    expect(template('Cloud Service Agreement')!.parameters.include_security_policy_attachment_id).toBe(privacyId);
    await expectNoChanges(cli, dir);
  });

  it('uploads an attachment, points templates at it, and re-points them when the PDF changes', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    const first = await cli('plan', '-C', dir, '-o', 'json');
    const order = (JSON.parse(first.stdout) as { changes: { id: string }[] }).changes.map((c) => c.id);
    expect(order.indexOf('upload:attachment:Security Exhibit')).toBeLessThan(order.indexOf('create:template:Cloud Service Agreement'));
    await applyOk(cli, dir);
    const firstId = Object.values(agreements().attachments).find((a) => a.name === 'Security Exhibit')!.id;
    const csa = template('Cloud Service Agreement')!;
    expect(csa.parameters.include_security_policy_attachment_id).toBe(firstId);
    expect(csa.parameters.attachment_ids).toEqual([firstId]);
    await expectNoChanges(cli, dir);

    await writeFile(join(dir, 'attachments/security.pdf'), pdf('second'));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect(plan.stdout).toContain('~ update template "Cloud Service Agreement"');
    // The same name before and after: the id it points at now tells them apart.
    expect(plan.stdout).toContain(`parameters.include_security_policy_attachment_id: "${firstId}" → {"attachment":"Security Exhibit"}`);
    await applyOk(cli, dir);
    const secondId = (await lockFiles(dir))['attachment:Security Exhibit']!.id;
    expect(secondId).not.toBe(firstId);
    expect(template('Cloud Service Agreement')!.parameters.include_security_policy_attachment_id).toBe(secondId);
    expect(template('Cloud Service Agreement')!.parameters.attachment_ids).toEqual([secondId]);
    await expectNoChanges(cli, dir);

    // The service cannot rename an attachment: renamed_from uploads it under the new name and re-points.
    await writeFiles(dir, {
      'attachments/security.yaml': ATTACHMENT_YAML.replace('name: Security Exhibit', 'name: Security Measures\nrenamed_from: Security Exhibit'),
      'templates/csa.yaml': CSA_TEMPLATE_YAML.replace(/Security Exhibit/g, 'Security Measures'),
    });
    const rename = await cli('plan', '-C', dir);
    expect(rename.stdout).toContain('+ upload attachment "Security Measures"');
    // The parameter's before is the name, as the list's is: the names differ, no id is needed to tell them apart (probe JQ-4).
    expect(rename.stdout).toContain('parameters.include_security_policy_attachment_id: {"attachment":"Security Exhibit"} → {"attachment":"Security Measures"}');
    expect(rename.stdout).toContain('attachments: ["Security Exhibit"] → ["Security Measures"]');
    await applyOk(cli, dir);
    const lock = { files: await lockFiles(dir) };
    expect(Object.keys(lock.files)).toEqual(['attachment:Security Measures']);
    expect(template('Cloud Service Agreement')!.parameters.attachment_ids).toEqual([lock.files['attachment:Security Measures']!.id]);
    await expectNoChanges(cli, dir);
  });

  it('shows a re-point an apply left owed with only the earlier upload by id, the attachments not moving by name (probe DC-2)', async () => {
    await start();
    const annex = 'kind: Attachment\nname: DPA Annex\nfile: annex.pdf\n';
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'attachments/annex.yaml': annex, 'templates/csa.yaml': CSA_TEMPLATE_YAML.replace('attachments: [Security Exhibit]', 'attachments: [Security Exhibit, DPA Annex]') });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('security'));
    await writeFile(join(dir, 'attachments/annex.pdf'), pdf('annex one'));
    await applyOk(cli, dir);
    const oldAnnex = (await lockFiles(dir))['attachment:DPA Annex']!.id;
    await writeFile(join(dir, 'attachments/annex.pdf'), pdf('annex two'));
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/agreements/v1/templates/:id', status: 422, count: 1 });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(1);
    const plan = await cli('plan', '-C', dir);
    // In the list's sorted order, wherever the random id sorts.
    expect(plan.stdout).toContain(`attachments: ${JSON.stringify([oldAnnex, 'Security Exhibit'].sort())} → ["DPA Annex","Security Exhibit"]`);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a template naming an attachment renamed away while a new one takes its name is re-pointed at the new one, its parameter and its list, in the same apply', async () => {
    const dir = await securityRenamedAway();
    const plan = await cli('plan', '-C', dir, '--out', join(dir, 'plan.json'));
    expect(plan.stdout).toContain('parameters.include_security_policy_attachment_id: {"attachment":"Security Old"} → {"attachment":"Security Exhibit"}');
    expect(plan.stdout).toContain('attachments: ["Security Old"] → ["Security Exhibit"]');
    // Saved, it applies: the name the new one takes is the old one's, which the plan moves away.
    const saved = await cli('apply', '-C', dir, join(dir, 'plan.json'));
    expect([saved.code, saved.stderr]).toEqual([0, '']);
    const newId = (await lockFiles(dir))['attachment:Security Exhibit']!.id;
    expect(template('Cloud Service Agreement')!.parameters.include_security_policy_attachment_id).toBe(newId);
    expect(template('Cloud Service Agreement')!.parameters.attachment_ids).toEqual([newId]);
    await expectNoChanges(cli, dir);
  });

  it('an attachment renamed away while a new one takes its name: a --target of the new one uploads the old one first, and a re-point the service refused stays the files\' change', async () => {
    const dir = await securityRenamedAway();
    const uploads = () => Object.values(agreements().attachments).length;
    // The new one alone: the old one's upload under its new name comes with it (the name it frees).
    const targeted = await cli('apply', '-C', dir, '--auto-approve', '--target', 'attachment/Security Exhibit');
    expect(targeted.code).toBe(0);
    expect(targeted.stdout).toContain('upload attachment "Security Old"');
    expect(uploads()).toBe(3);
    // The templates' re-point, refused by the service: still the files' change, not drift.
    const csa = template('Cloud Service Agreement')!;
    t.emulator.faults.add({ method: 'PATCH', path_pattern: csa.id, status: 422, count: 1 });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(1);
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update template "Cloud Service Agreement" (templates/csa.yaml:9) · changed in files');
    expect(plan.stdout).toContain('attachments: ["Security Old"] → ["Security Exhibit"]');
    expect(plan.stdout).not.toContain('upload');
    expect((await cli('drift', '-C', dir)).code).toBe(0);
    await applyOk(cli, dir);
    expect(uploads()).toBe(3);
    const newId = (await lockFiles(dir))['attachment:Security Exhibit']!.id;
    expect(template('Cloud Service Agreement')!.parameters.attachment_ids).toEqual([newId]);
    await expectNoChanges(cli, dir);
  });

  it('a new PDF in the files, not yet uploaded, is the files\' change, and so is the re-point of the templates that name it', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('second'));

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toMatch(/~ update template "Cloud Service Agreement" \([^)]*\) · changed in files/);
    expect(plan.stdout).not.toContain('direction unknown');
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(0);
    expect(drift.stdout).toContain('No drift');
    const before = await readFile(join(dir, 'templates/csa.yaml'), 'utf8');
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).not.toContain('Pulled into the files');
    expect(await readFile(join(dir, 'templates/csa.yaml'), 'utf8')).toBe(before);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  /** An attachment and the template naming it, applied on an emulator of their own; the upload's id. */
  async function securityApplied(): Promise<{ dir: string; firstId: string }> {
    const { dir, id } = await securityExhibitApplied({ 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    return { dir, firstId: id };
  }

  it('a re-point left undone after a new upload is the files\' change still owed: not drift, not pulled, made by the next apply', async () => {
    const { dir, firstId } = await securityApplied();

    // The new PDF is uploaded, and the template update that would re-point at it is refused.
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('second'));
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/v1/templates/', status: 422 });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(1);
    const { id: secondId, superseded } = (await lockFiles(dir))['attachment:Security Exhibit']!;
    expect(secondId).not.toBe(firstId);
    expect(superseded).toEqual([firstId]);
    expect(template('Cloud Service Agreement')!.parameters.include_security_policy_attachment_id).toBe(firstId);

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update template "Cloud Service Agreement"');
    expect(plan.stdout).toContain('changed in files');
    expect(plan.stdout).not.toContain('changed live');
    expect((await cli('drift', '-C', dir)).code).toBe(0);
    const before = await readFile(join(dir, 'templates/csa.yaml'), 'utf8');
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'templates/csa.yaml'), 'utf8')).toBe(before);

    await applyOk(cli, dir);
    expect(template('Cloud Service Agreement')!.parameters.include_security_policy_attachment_id).toBe(secondId);
    expect(template('Cloud Service Agreement')!.parameters.attachment_ids).toEqual([secondId]);
    // Re-pointed: the earlier upload is forgotten, so a template pointed back at it in the app is a change made live.
    expect((await lockFiles(dir))['attachment:Security Exhibit']!.superseded).toBeUndefined();
    await expectNoChanges(cli, dir);
    const csa = template('Cloud Service Agreement')!;
    csa.parameters.include_security_policy_attachment_id = firstId;
    expect((await cli('plan', '-C', dir)).stdout).toContain('changed live');
    expect((await cli('drift', '-C', dir)).code).toBe(2);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('forgets an earlier upload on an apply with nothing left to do, after a --target apply made the re-point: pointed back at it in the app, the template is drift (probe KR-2)', async () => {
    const { dir, firstId } = await securityApplied();
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('second'));
    await applyOk(cli, dir, '--target', 'template/Cloud Service Agreement');
    expect((await lockFiles(dir))['attachment:Security Exhibit']!.superseded).toEqual([firstId]);
    const nothing = await cli('apply', '-C', dir, '--auto-approve');
    expect([nothing.code, nothing.stdout]).toEqual([0, expect.stringContaining('No changes')]);
    expect((await lockFiles(dir))['attachment:Security Exhibit']!.superseded).toBeUndefined();
    template('Cloud Service Agreement')!.parameters.include_security_policy_attachment_id = firstId;
    expect((await cli('plan', '-C', dir)).stdout).toContain('changed live');
    expect((await cli('drift', '-C', dir)).code).toBe(2);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('leaves docket.lock.json as it was when the service refuses an upload, so the next plan is a plain upload', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    // Over the emulator's 20 MB limit for a request body: answered 413, nothing stored.
    const tooLarge = Buffer.concat([pdf('large'), Buffer.alloc(21 * 1024 * 1024, 32)]);
    await writeFile(join(dir, 'attachments/security.pdf'), tooLarge);
    const refused = await cli('apply', '-C', dir, '--auto-approve');
    expect([refused.code, refused.stdout + refused.stderr]).toEqual([1, expect.stringContaining('HTTP 413')]);
    // None was there before, and there is nothing to record: none is left to commit (probe OC-4).
    expect(existsSync(join(dir, 'docket.lock.json'))).toBe(false);

    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect(plan.stdout + plan.stderr).not.toMatch(/never confirmed|uncertain/);
    await applyOk(cli, dir);
    const confirmed = (await lockFiles(dir))['attachment:Security Exhibit'];

    // A refused replacement keeps the upload confirmed before it.
    await writeFile(join(dir, 'attachments/security.pdf'), tooLarge);
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(1);
    expect((await lockFiles(dir))['attachment:Security Exhibit']).toEqual(confirmed);
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await expectNoChanges(cli, dir);
  });

  it('updates only the declared agreements organization keys', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'organization.yaml': 'kind: Organization\nagreements:\n  name: Acme, Inc.\n  city: Berlin\n  zipcode: 10115\n' });
    await applyOk(cli, dir);
    expect(agreements().organization).toMatchObject({ name: 'Acme, Inc.', city: 'Berlin', zipcode: '10115' });
    // The review service was never contacted: only the agreements part is declared.
    expect(Object.keys(t.emulator.stats().requests.by_route).some((r) => r.includes('/review/'))).toBe(false);
    await expectNoChanges(cli, dir);
  });
});

describe('an organization update the service does not keep as sent', () => {
  it('notes the field, and the next plan shows the files\' value as still owed: not drift, not for pull to write back (probe ZD-1)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'organization.yaml': 'kind: Organization\nagreements:\n  city: Hamburg\n  state: Hessen\n' });
    // The service answers the write without the state, and holds none (as one that drops it would).
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/agreements/v1/organizations/:id', status: 'malformed', count: 1, body: { data: { id: DEFAULT_ORGANIZATION_ID, type: 'organization', attributes: { ...agreements().organization, city: 'Hamburg', state: null } } } });
    const applied = await applyOk(cli, dir);
    agreements().organization.state = null;
    expect(applied.stdout).toMatch(/update organization[^\n]*\n\s+note: the service did not keep `agreements.state` as sent \(it holds null\): the next plan will show it again/);
    expect((await cli('plan', '-C', dir)).stdout).toMatch(/~ update organization[^\n]*· changed in files/);
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stdout]).toEqual([0, expect.stringContaining('1 object changed in the files is pending')]);
    expect((await cli('pull', '--dry-run', '-C', dir)).stdout).not.toContain('state: null');
    // Kept the next time: in sync.
    await applyOk(cli, dir);
    expect(agreements().organization).toMatchObject({ city: 'Hamburg', state: 'Hessen' });
    await expectNoChanges(cli, dir);
  });

  it('records a review name the service did not keep though the agreements half then fails: not drift for pull to write back (second read SR98-2)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Legal\nagreements:\n  city: Hamburg\n' });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Legal GmbH\nagreements:\n  city: Berlin\n' });
    const org = t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/review/v1/organizations/:org', status: 'malformed', count: 1, body: { data: { id: DEFAULT_ORGANIZATION_ID, type: 'organization', attributes: { name: 'Acme Legal', default_reviewer_id: org.default_reviewer_id } } } });
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/agreements/v1/organizations/:id', status: 422, count: 1 });
    const failed = await cli('apply', '-C', dir, '--auto-approve');
    expect(failed.code).toBe(1);
    // The service holds the old name, as its answer said.
    org.name = 'Acme Legal';
    expect(failed.stdout).toContain('(before it, the service did not keep `review.name` as sent (it holds "Acme Legal"): the next plan will show it again)');
    const drift = await cli('drift', '-C', dir);
    expect(drift.code, drift.stdout).toBe(0);
    expect((await cli('pull', '--dry-run', '-C', dir)).stdout).not.toContain('name: Acme Legal\n');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});

describe('an organization that no longer holds the uploads docket.lock.json records', () => {
  it('says of a template refused for its attachment that the id sent is the lock\'s, and how to upload the PDF again (probes JF-3, JK-2)', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    // The organization is reset (a restarted emulator): its uploads and templates are gone.
    for (const id of Object.keys(agreements().attachments)) delete agreements().attachments[id];
    for (const id of Object.keys(agreements().templates)) delete agreements().templates[id];
    const failed = await cli('apply', '-C', dir, '--auto-approve');
    expect(failed.code).toBe(1);
    const said = "the attachment ids sent are the uploads docket.lock.json records for this service, and the ids attachment documents pin with `id:`: if the organization was reset, or is not the one they were uploaded to, delete those entries, or the lock's section for this URL, and remove those `id:` lines, so the PDFs are uploaded again";
    expect(failed.stdout).toContain(said);
    // As it says: without the lock's entries the PDF is uploaded again, and the template names it.
    await rm(join(dir, 'docket.lock.json'));
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);

    // Pinned by `id:` (as export writes it), the id is sent from the document: the lock's entries alone are not it (probe LP-3).
    const pinned = Object.keys(agreements().attachments)[0]!;
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML.replace('name: Security Exhibit', `name: Security Exhibit\nid: ${pinned}`) });
    await applyOk(cli, dir);
    for (const id of Object.keys(agreements().attachments)) delete agreements().attachments[id];
    for (const id of Object.keys(agreements().templates)) delete agreements().templates[id];
    await rm(join(dir, 'docket.lock.json'));
    // No upload of it recorded here, and the template made anew: refused before any write, at the template's line (probe RI-1).
    const stillPinned = await cli('apply', '-C', dir, '--auto-approve');
    expect([stillPinned.code, stillPinned.stderr]).toEqual([1, expect.stringContaining(`names attachment "Security Exhibit", whose document pins id ${pinned}, which this organization has no record of`)]);
    expect(stillPinned.stderr).toContain('delete the `id:` line of its Attachment document');
    expect(Object.keys(agreements().templates)).toEqual([]);
    await writeFiles(dir, { 'attachments/security.yaml': ATTACHMENT_YAML });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});

describe('saved plans', () => {
  it('refuses a plan made for the organization another agreements key acts for', async () => {
    const otherOrg = '00000000-0000-4000-8000-0000000000b2';
    await start({ seed: (s) => void s.organizations.push({ id: otherOrg, name: 'Beta', api_keys: ['beta-key'], users: [{ email: 'legal-ops@acme.example' }] }) });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    const planFile = join(dir, 'plan.json');
    const plan = await cli('plan', '-C', dir, '--out', planFile);
    expect(plan.stdout).toContain(`(organization ${DEFAULT_ORGANIZATION_ID})`);
    // The same URL, another key: the reviewed plan was for the first organization, not this one.
    const other = await runCli(['apply', '-C', dir, planFile], { env: { ...t.env, DOCKET_API_KEY: 'beta-key' } });
    expect(other.code).toBe(1);
    expect(other.stderr).toContain('cannot be applied: its seal does not match: it was edited after `docket plan --out` saved it, or saved with other API keys than this run has');
    expect(Object.values(t.emulator.store.organization(otherOrg)!.agreements.custom_terms)).toEqual([]);
    expect((await cli('apply', '-C', dir, planFile)).code).toBe(0);
    expect(term('Consulting Terms')).toBeDefined();
    await expectNoChanges(cli, dir);
  });

  it('says a plan applied with another --env was made for its own, before its seal, which that environment\'s key cannot match (probe FE)', async () => {
    const otherOrg = '00000000-0000-4000-8000-0000000000b2';
    await start({ seed: (s) => void s.organizations.push({ id: otherOrg, name: 'Beta', api_keys: ['beta-key'], users: [{ email: 'legal-ops@acme.example' }] }) });
    const docketYaml = `${AGREEMENTS_DOCKET_YAML}environments:\n  staging: {}\n  production: {}\n`;
    const dir = await makeDir({ 'docket.yaml': docketYaml, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--env', 'staging', '--out', planFile)).code).toBe(0);
    const other = await runCli(['apply', '-C', dir, planFile, '--env', 'production'], { env: { ...t.env, DOCKET_API_KEY: 'beta-key' } });
    expect([other.code, other.stderr]).toEqual([1, 'Error: the plan was made for --env staging, not --env production\n  hint: apply it without --env: it applies to the environment it was made for\n']);
    expect(Object.values(t.emulator.store.organization(otherOrg)!.agreements.custom_terms)).toEqual([]);
    expect((await cli('apply', '-C', dir, planFile)).code).toBe(0);
    await expectNoChanges(cli, dir, '--env', 'staging');
  });

  it('is stale once an apply of it left its upload unconfirmed: applied again, it would upload a second copy', async () => {
    await start();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    const attachments = () => Object.values(agreements().attachments);
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    // The upload is made, and its answer lost: the lock marks it pending.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'drop', count: 1 });
    expect((await cli('apply', '-C', dir, planFile)).code).toBe(1);
    expect(attachments()).toHaveLength(1);

    const again = await cli('apply', '-C', dir, planFile);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('the saved plan is stale');
    expect(again.stderr).toContain('attachment "Security Exhibit": an upload of attachments/security.pdf (sha256 ');
    expect(again.stderr).toContain('was never confirmed, and attachments cannot be listed over the API; it may already exist live, so the plan would upload it again');
    expect(attachments()).toHaveLength(1);

    // A plan made knowing of the mark, choosing to upload again, gives up that mark only, and applies.
    const retry = join(dir, 'retry.json');
    expect((await cli('plan', '-C', dir, '--retry-uncertain', '--out', retry)).code).toBe(0);
    expect((await cli('apply', '-C', dir, retry)).code).toBe(0);
    expect(attachments()).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });
});

describe('plan-time checks', () => {
  it('refuses an actor or a default signer that is not a user, at their file:line', async () => {
    await start();
    const dir = await makeDir({
      'docket.yaml': 'version: 1\nagreements:\n  actor: ghost@acme.example\n',
      'terms/consulting.yaml': TERM_YAML,
      'terms/other.yaml': 'kind: CustomTerm\nname: Other Terms\nbody: Other terms apply.\n',
      'terms/consulting.md': TERM_MD,
      'templates/nda.yaml': NDA_TEMPLATE_YAML + '  default_signer_email: nobody@acme.example\n',
    });
    const plan = await cli('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('docket.yaml:3:10 error unknown-reference `agreements.actor` names "ghost@acme.example", which is not a user of the agreements service');
    expect(plan.stderr).toContain('templates/nda.yaml:7:25 error unknown-reference `parameters.default_signer_email` names "nobody@acme.example"');
    expect(t.emulator.stats().requests.by_route['POST /agreements/v1/custom_terms']).toBeUndefined();
    // Two terms name the same actor: the problem is reported once.
    expect(plan.stderr.split('`agreements.actor` names').length - 1).toBe(1);
  });
});

describe('docket.lock.json with the in-process emulator', () => {
  it('keeps emulator ids in their own section, and forgets them when the emulator starts over', async () => {
    await start(); // this test runs its own in-process emulator; afterEach closes this one
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('emulated'));
    const first = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect(first.code).toBe(0);
    const lock = await lockTargets(dir);
    expect(Object.keys(lock)).toEqual(['emulator']);
    expect(Object.keys(lock.emulator!)).toEqual(['attachment:Security Exhibit']);

    await rm(join(dir, '.docket'), { recursive: true });
    const again = await runCli(['plan', '-C', dir, '--emulator']);
    expect(again.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    const replan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect(replan.code).toBe(0);
  });
});
