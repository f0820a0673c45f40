/**
 * `docket export` end to end against the emulator: seed an organization with every kind through
 * `docket apply`, export it from a directory holding only docket.yaml and the lock file, and check
 * that `docket plan` on the export shows zero changes straight away (resources whose files the
 * services cannot give back are written as `*.yaml.pending`, which docket does not read), that once
 * a file is added and its document renamed `apply --adopt-files` records it and plan still shows
 * zero changes, and that exports are deterministic.
 */
import { lockFiles } from '../helpers/lock.js';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { chmod, copyFile, cp, mkdir, readdir, readFile, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { BIN } from '../helpers/bin.js';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import { expectNoChanges } from '../helpers/scenario.js';
import { App } from '../helpers/app.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { recordExported } from '../../src/cli/export-records.js';
import { renderExportSummary } from '../../src/export/summary.js';
import { KINDS } from '../../src/kinds/index.js';
import { CSA_TEMPLATE_YAML, DEFINITION, DOCX_TERM_YAML, TERM_MD, docx, pdf } from './agreements-fixtures.js';

let t: TestEmulator | undefined;

afterEach(async () => {
  await t?.emulator.close();
  t = undefined;
  await removeMadeDirs();
});

const cli = (...args: string[]): Promise<CliResult> => runCli(args, { env: t!.env });
const execFileAsync = promisify(execFile);

const DOCKET_YAML = 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n';

const SOURCE: Record<string, string> = {
  'docket.yaml': DOCKET_YAML,
  'organization.yaml': `kind: Organization
review:
  name: Acme Legal
  default_reviewer: alice@acme.example
agreements:
  name: Acme, Inc.
  city: Berlin
  country: Germany
`,
  'members.yaml': 'kind: Member\nemail: carol@acme.example\nname: Carol Diaz\n---\nkind: Member\nemail: bob@acme.example\nname: Bob Jones\n',
  'playbooks/nda.yaml': `kind: Playbook
name: Inbound NDA
description: |
  NDAs we receive
  from counterparties
rules:
  - name: Term
    description: How long the agreement lasts
    actions: |
      ACCEPT a term of up to 3 years
      COUNTERPROPOSE 2 years when longer
    questions: What is the term?
    reviewer: bob@acme.example
  - name: Residuals
    questions: Is there a residuals clause?
  - name: "Governing law: where?"
    actions: "ACCEPT Germany # or Austria"
    internal_notes: |
      Agreed with sales in 2025.

      Revisit next year.
`,
  'playbooks/msa.yaml': `kind: Playbook
name: Vendor MSA
rules:
  - name: Liability cap
    actions: ACCEPT a cap of 12 months of fees
    reviewer: alice@acme.example
  - name: Auto-renewal
    actions: COUNTERPROPOSE 60 days notice
    generate_summary: false
`,
  'terms/consulting.yaml': 'kind: CustomTerm\nname: Consulting Terms\nbody_file: consulting.md\n',
  'terms/consulting.md': TERM_MD,
  'cover/consulting.yaml': 'kind: CustomTemplate\nname: Consulting Agreement\ncustom_term: Consulting Terms\ndefinition_file: consulting.cover.yaml\n',
  // The editor's modeline is the repository's, not the service's: it is not published, so export does not bring it back.
  'cover/consulting.cover.yaml': `# yaml-language-server: $schema=../../schemas/custom-template-definition.schema.json\n# the cover page, comments and all\n${DEFINITION}`,
  'templates/nda.yaml': `kind: Template
name: Mutual NDA
type: NDA
parameters:
  term: 2
  confidentiality_period: 2
  purpose: Evaluating a partnership
  negotiations_allowed: true
`,
  'templates/csa.yaml': CSA_TEMPLATE_YAML,
  'attachments/security.yaml': 'kind: Attachment\nname: Security Exhibit\ndescription: Our security measures\nfile: security.pdf\n',
};

/** Every file below `dir` (dot-folders included) → its text. */
async function tree(dir: string): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const entry of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const file = join(entry.parentPath, entry.name);
    out[relative(dir, file).split('\\').join('/')] = await readFile(file, 'utf8');
  }
  return out;
}

/** Applies SOURCE (with its PDF) and returns a directory holding only its docket.yaml and lock file. */
async function seed(extra: Record<string, string> = {}, binary: Record<string, Buffer> = {}): Promise<{ source: string; exportFrom: string }> {
  t = await startTestEmulator();
  const source = await makeDir({ ...SOURCE, ...extra });
  for (const [path, bytes] of Object.entries({ 'attachments/security.pdf': pdf('security'), ...binary })) await writeFile(join(source, path), bytes);
  const applied = await cli('apply', '-C', source, '--auto-approve');
  expect(applied.stderr).toBe('');
  expect(applied.code).toBe(0);
  const exportFrom = await makeDir({ 'docket.yaml': DOCKET_YAML });
  await copyFile(join(source, 'docket.lock.json'), join(exportFrom, 'docket.lock.json'));
  return { source, exportFrom };
}

/** Adds a file the services cannot give back and renames the pending document that names it. */
async function addFile(out: string, path: string, bytes: Buffer, pending: string): Promise<void> {
  await writeFile(join(out, path), bytes);
  expect(pending.endsWith('.yaml.pending')).toBe(true);
  await rename(join(out, pending), join(out, pending.replace(/\.pending$/, '')));
}

async function exportTo(from: string, ...extra: string[]): Promise<{ out: string; result: CliResult }> {
  const out = join(await makeDir({}), 'acme');
  const result = await cli('export', '-C', from, '--out', out, ...extra);
  return { out, result };
}

describe('docket export', () => {
  it('of the README\'s adoption recipe reads both services with only the API key set: its docket.yaml names the review service too (probe GF-1)', async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    const written = /printf '([^']+)' > acme-src\/docket\.yaml/.exec(readme)![1]!.replace(/\\n/g, '\n');
    const source = await makeDir({ 'docket.yaml': written });
    const out = join(await makeDir({}), 'acme');
    const result = await runCli(['export', '-C', source, '--emulator', '--out', out], { env: {} });
    expect([result.code, result.stdout]).toEqual([0, expect.not.stringContaining('was not read')]);
    expect(Object.keys(await tree(out))).toEqual(expect.arrayContaining(['members.yaml', 'organization.yaml']));
    expect((await tree(out))['organization.yaml']).toMatch(/^review:/m);
  });

  it('an exported template the app points at another attachment since is drift, not a refusal: the file\'s id was this organization\'s when exported (probe QA-1)', async () => {
    await seed();
    // Exported from a checkout with no record of the upload (everything was made in the app).
    const { out, result } = await exportTo(await makeDir({ 'docket.yaml': DOCKET_YAML }));
    expect(result.code).toBe(0);
    // Another PDF of this organization, uploaded in the app, and the template pointed at it there.
    const org = t!.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
    const other = '0c0c0c0c-0000-4000-8000-0000000000a7';
    org.agreements.attachments[other] = { id: other, name: 'Newer Exhibit', description: null, filename: 'newer.pdf', byte_size: 4, sha256: null, uploaded_by: null, created_at: new Date().toISOString() };
    await new App(t!.env).editTemplate('Cloud Service Agreement', { include_security_policy_attachment_id: other, attachment_ids: [other] });
    const drift = await cli('drift', '-C', out);
    expect([drift.code, drift.stderr]).toEqual([2, '']);
    expect(drift.stdout).toContain('template "Cloud Service Agreement"');
    const plan = await cli('plan', '-C', out);
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toContain('~ update template "Cloud Service Agreement"');
    expect((await cli('apply', '-C', out, '--auto-approve')).code).toBe(0);
    expect((await cli('plan', '-C', out, '--detailed-exitcode')).code).toBe(0);
  });

  it('exports every kind so that plan on the export shows no changes, and adopts the added PDF', async () => {
    const { exportFrom } = await seed();
    const { out, result } = await exportTo(exportFrom);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('docket refuses');

    const files = await tree(out);
    // Nothing but the files: no empty .docket/ the records' write left.
    expect(await readdir(out)).not.toContain('.docket');
    expect(Object.keys(files).sort()).toEqual([
      '.gitignore',
      'attachments/security-exhibit.yaml.pending',
      'custom-templates/consulting-agreement.cover.yaml',
      'custom-templates/consulting-agreement.yaml',
      'custom-terms/consulting-terms.md',
      'custom-terms/consulting-terms.yaml',
      'docket.lock.json',
      'docket.yaml',
      'members.yaml',
      'organization.yaml',
      'playbooks/inbound-nda.yaml',
      'playbooks/vendor-msa.yaml',
      'templates/cloud-service-agreement.yaml',
      'templates/mutual-nda.yaml',
    ]);
    // A new configuration directory, as init makes one: docket's scratch stays out of git (probe DO).
    expect(files['.gitignore']).toContain('\n.docket/\n');
    expect(result.stdout).toContain("  .gitignore         keeps .docket/ (docket's local scratch) out of git\n");
    // Every resource document (pending ones too) carries the schema comment, relative to the file.
    for (const [path, text] of Object.entries(files)) {
      if (!/\.yaml(\.pending)?$/.test(path) || path.endsWith('.cover.yaml')) continue;
      expect(text.startsWith('# yaml-language-server: $schema=')).toBe(true);
    }
    expect(files['docket.yaml']).toContain(`organization_id: ${DEFAULT_ORGANIZATION_ID}`);
    expect(files['docket.yaml']).toContain('actor: legal-ops@acme.example');
    expect(files['docket.yaml']).not.toMatch(/key/i);
    expect(files['organization.yaml']).toContain('default_reviewer: alice@acme.example');
    expect(files['custom-templates/consulting-agreement.cover.yaml']).toBe(`# the cover page, comments and all\n${DEFINITION}`);
    expect(files['custom-templates/consulting-agreement.yaml']).toContain('custom_term: Consulting Terms');
    expect(files['custom-terms/consulting-terms.md']).toBe(TERM_MD);
    // Multi-line text as block scalars; only what differs from the defaults.
    expect(files['playbooks/inbound-nda.yaml']).toContain('    actions: |\n      ACCEPT a term of up to 3 years\n      COUNTERPROPOSE 2 years when longer\n');
    expect(files['playbooks/inbound-nda.yaml']).not.toContain('generate_summary');
    expect(files['playbooks/vendor-msa.yaml']).toContain('generate_summary: false');
    expect(files['templates/mutual-nda.yaml']).toContain('term: 2');
    expect(files['templates/mutual-nda.yaml']).not.toContain('confidentiality_period');
    expect(files['templates/mutual-nda.yaml']).not.toContain('negotiations_allowed');
    // The attachment is pending, pinned to its live id; the template keeps that id raw and writes no `attachments:`.
    const attachmentId = /\nid: ([0-9a-f-]{36})\n/.exec(files['attachments/security-exhibit.yaml.pending']!)?.[1];
    expect(attachmentId).toBeDefined();
    expect(files['attachments/security-exhibit.yaml.pending']).toContain('file: security-exhibit.pdf');
    const csa = files['templates/cloud-service-agreement.yaml']!;
    expect(csa).toContain(`include_security_policy_attachment_id: ${attachmentId}\n`);
    expect(csa).not.toContain('Security Exhibit');
    expect(csa).not.toMatch(/^attachments:/m);
    // What was written is recorded as in sync (ids and digests, no values), as an apply with nothing to change would.
    const synced = (JSON.parse(files['docket.lock.json']!) as { synced: Record<string, Record<string, string>> }).synced;
    const records = Object.assign({}, ...Object.values(synced)) as Record<string, string>;
    const keys = Object.keys(records);
    expect(keys.filter((k) => !/^(member|rule):/.test(k)).sort()).toEqual([
      'custom-template:Consulting Agreement',
      'custom-term:Consulting Terms',
      'organization:organization',
      'playbook:Inbound NDA',
      'playbook:Vendor MSA',
      'template:Cloud Service Agreement',
      'template:Mutual NDA',
    ]);
    // One per member and rule written (the attachment is pending: nothing declares it yet).
    expect(keys.filter((k) => k.startsWith('member:')).length).toBe((files['members.yaml']!.match(/^kind: Member$/gm) ?? []).length);
    expect(keys.filter((k) => k.startsWith('rule:')).length).toBe((files['playbooks/inbound-nda.yaml']! + files['playbooks/vendor-msa.yaml']!).match(/^ {2}- name: /gm)!.length);
    expect(files['docket.lock.json']).not.toContain('ACCEPT');
    expect(result.stdout).toMatch(/Recorded \d+ objects as in sync in docket\.lock\.json/);

    expect(result.stdout).toMatch(/attachments\/security-exhibit\.pdf {2}PDF of attachment "Security Exhibit"; the source configuration uploaded attachments\/security\.pdf( \(sha256 [0-9a-f]{64}\))?\n/);
    expect(result.stdout).toContain('templates name attachments by id');
    expect(result.stdout).toContain(`Next steps:\n  docket plan -C ${out}\n  which shows no changes.\n`);
    expect(result.stdout).toContain('  2. rename its document from .yaml.pending to .yaml\n       attachments/security-exhibit.yaml.pending\n');
    expect(result.stdout).toContain(`  3. docket apply -C ${out} --adopt-files`);

    // Straight after the export, before any file is added: nothing to change, nothing missing.
    const fresh = await expectNoChanges(cli, out);
    expect(fresh.stdout).not.toContain('security-exhibit');
    expect(fresh.stdout).not.toContain('missing-file');
    expect(fresh.stdout).not.toContain('cannot compare');

    // Named by name while its document is still pending: live, and being adopted, not missing, and no other attachment suggested (probe PL-1).
    const byName = join(await makeDir({}), 'by-name');
    await cp(out, byName, { recursive: true });
    await writeFile(join(byName, 'templates/cloud-service-agreement.yaml'), csa.replace(`include_security_policy_attachment_id: ${attachmentId}\n`, 'include_security_policy_attachment_id: { attachment: Security Exhibit }\n'));
    const namedPlan = await cli('plan', '-C', byName);
    expect(namedPlan.code).toBe(1);
    expect(namedPlan.stderr).toContain('error unknown-reference `parameters.include_security_policy_attachment_id` names attachment "Security Exhibit", which only a pending document declares (attachments/security-exhibit.yaml.pending): live in the organization it was exported from');
    // The command as this run was made (second read SR82-3), for the organization it came from alone (probe QO-1).
    expect(namedPlan.stderr).toContain(`hint: add the file it names and rename the document to .yaml; then, in the organization it was exported from, \`docket apply -C ${relative(process.cwd(), byName)} --adopt-files\`; in another, take its \`id:\` line out first`);

    // A copy whose attachment document drops its `id:`: the upload is said to be of a file that may be
    // live already, the templates naming uploads the lock does not record (probe JD-2).
    const unpinned = join(await makeDir({}), 'unpinned');
    await cp(out, unpinned, { recursive: true });
    await addFile(unpinned, 'attachments/security-exhibit.pdf', pdf('security'), 'attachments/security-exhibit.yaml.pending');
    const unpinnedDoc = join(unpinned, 'attachments/security-exhibit.yaml');
    await writeFile(unpinnedDoc, (await readFile(unpinnedDoc, 'utf8')).replace(/^id: .*\n/m, ''));
    const unpinnedPlan = await cli('plan', '-C', unpinned);
    expect(unpinnedPlan.stdout).toContain('upload attachment "Security Exhibit"');
    // Said as what it is: the export recorded this target's objects, and no upload (probe YE-3).
    expect(unpinnedPlan.stdout).toContain('docket.lock.json records no upload for this target (an export records none: the service cannot give a PDF back), yet the organization already holds templates the files declare');

    // The user adds the PDF and renames the document: still nothing to change, the PDF not yet recorded.
    await addFile(out, 'attachments/security-exhibit.pdf', pdf('security'), 'attachments/security-exhibit.yaml.pending');
    const plan = await expectNoChanges(cli, out);
    expect(plan.stdout).toContain('cannot compare attachments/security-exhibit.pdf');

    // Adopting with --target records only the targets' files: the attachment is none of them (probe JD-1).
    const elsewhere = await cli('apply', '-C', out, '--auto-approve', '--adopt-files', '--target', 'template/Cloud Service Agreement');
    expect(elsewhere.code).toBe(0);
    expect(elsewhere.stderr).not.toContain('Recorded');
    // Said, not dropped with the warnings the run's own adoption makes moot (probe PL-2).
    expect(elsewhere.stdout).toContain("cannot compare attachments/security-exhibit.pdf");
    expect(elsewhere.stdout).toContain("(this run records only its --targets' files)");
    expect(await readFile(join(out, 'docket.lock.json'), 'utf8')).not.toContain('attachments/security-exhibit.pdf');
    const adopt = await cli('apply', '-C', out, '--auto-approve', '--adopt-files');
    expect(adopt.code).toBe(0);
    expect(adopt.stdout).toContain('Recorded 1 file in docket.lock.json');
    const lock = { files: await lockFiles(out) };
    expect(lock.files['attachment:Security Exhibit']).toMatchObject({ file: 'attachments/security-exhibit.pdf' });
    // Zero changes: the attachment is pinned by `id:`, and the template still references that id.
    const replan = await expectNoChanges(cli, out);
    expect(replan.stdout).not.toContain('cannot compare');
    expect(await readFile(join(out, 'attachments/security-exhibit.yaml'), 'utf8')).toContain(`id: ${attachmentId}`);
    expect(await readFile(join(out, 'templates/cloud-service-agreement.yaml'), 'utf8')).toBe(csa);
    // README step 4: the template names the attachment instead of its id; then a new PDF re-points
    // it, the files' change (the export recorded the id form): no drift, not "changed live and in files".
    const named = csa.replace(`include_security_policy_attachment_id: ${attachmentId}`, 'include_security_policy_attachment_id: { attachment: Security Exhibit }');
    await writeFile(join(out, 'templates/cloud-service-agreement.yaml'), `${named}attachments: [Security Exhibit]\n`);
    await expectNoChanges(cli, out);
    await writeFile(join(out, 'attachments/security-exhibit.pdf'), pdf('security, second edition'));
    const repoint = await cli('plan', '-C', out, '-o', 'json');
    const changes = (JSON.parse(repoint.stdout) as { changes: { kind: string; direction: string }[] }).changes;
    expect(changes.map((c) => [c.kind, c.direction])).toEqual([['attachment', 'changed-in-files'], ['template', 'changed-in-files']]);
    expect((await cli('drift', '-C', out)).code).toBe(0);
    expect((await cli('apply', '-C', out, '--auto-approve')).code).toBe(0);
    await expectNoChanges(cli, out);
    // The description the file declares was recorded with it: an edit to it is a change, not unseen.
    const doc = join(out, 'attachments/security-exhibit.yaml');
    const text = await readFile(doc, 'utf8');
    expect(text).toMatch(/^description: /m);
    await writeFile(doc, text.replace(/^description: .*$/m, 'description: Reworded exhibit'));
    const edited = await cli('plan', '-C', out, '--detailed-exitcode');
    expect(edited.code).toBe(2);
    expect(edited.stdout).toMatch(/upload attachment "Security Exhibit"/);
    expect((await cli('apply', '-C', out, '--auto-approve')).code).toBe(0);
    await expectNoChanges(cli, out);
  });

  it('says what docket will refuse among what the services hold, instead of promising a plan with no changes', async () => {
    const { exportFrom } = await seed();
    const app = new App(t!.env);
    await app.createPlaybook({ name: `Long ${'x'.repeat(245)}` });
    await app.createRule('Inbound NDA', { name: 'Term ', actions: 'ACCEPT' });
    const { out, result } = await exportTo(exportFrom, '--kind', 'playbook');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('docket refuses 2 values the services hold (docket allows less than they do):');
    expect(result.stdout).toMatch(/ {2}\S*acme\/playbooks\/long-x+\.yaml:\d+:7 playbook name "Long x+.*" is 250 characters long; docket allows 200/);
    expect(result.stdout).toMatch(/ {2}\S*acme\/playbooks\/inbound-nda\.yaml:\d+:\d+ .*"Term "/);
    expect(result.stdout).toContain('change these in the app (and export again) or in the files; then');
    expect(result.stdout).toContain('No sync records were written (docket refuses values in the written files): the first apply records what it finds in sync.');
    expect(Object.keys(await tree(out))).not.toContain('docket.lock.json');
    expect((await cli('validate', '-C', out)).code).toBe(1);

    // Changed in the app as it says, exported again: nothing refused, and no changes.
    await app.archivePlaybook(`Long ${'x'.repeat(245)}`);
    await app.deleteRule('Inbound NDA', 'Term ');
    const again = await exportTo(exportFrom, '--kind', 'playbook');
    expect(again.result.stdout).not.toContain('docket refuses');
    await expectNoChanges(cli, again.out);
  });

  it('from a docket.yaml without agreements.actor, says to set it there, not to change the app', async () => {
    await seed();
    const bare = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const { out, result } = await exportTo(bare);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('docket refuses the written files until docket.yaml sets what they need:');
    expect(result.stdout).toMatch(/acme\/docket\.yaml: custom term writes need `agreements\.actor` in docket\.yaml.* \(plan says it at custom-terms\/[^ ]+\.yaml:\d+:\d+/);
    expect(result.stdout).toMatch(/set them in \S*acme\/docket\.yaml; then/);
    // Its check of the files could not run: no "no changes" is promised (probe FD).
    expect(result.stdout).toMatch(/docket plan -C \S+\n {2}which shows whether the files match the organization \(export could not check them: see above\)\.\n/);
    expect(result.stdout).not.toContain('shows no changes');
    expect(result.stdout).not.toContain('the services hold');
    expect(result.stdout).not.toContain('change these in the app');
    // Set as it says, the export plans with no changes.
    await writeFile(join(out, 'docket.yaml'), `${await readFile(join(out, 'docket.yaml'), 'utf8')}`.replace(/^agreements:\n/m, 'agreements:\n  actor: legal-ops@acme.example\n'));
    await expectNoChanges(cli, out);
  });

  it('from a docket.yaml whose agreements.actor is no user there, says plan will refuse it', async () => {
    const { source } = await seed();
    const stranger = await makeDir({ 'docket.yaml': DOCKET_YAML.replace('legal-ops@acme.example', 'nobody@elsewhere.example') });
    const { result } = await exportTo(stranger);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('`agreements.actor` in docket.yaml ("nobody@elsewhere.example") is no user of the agreements organization: plan refuses custom terms, custom templates and attachments until it names one');
    // The check's refusal is of the new docket.yaml's setting, not a value the app holds (probe EX).
    expect(result.stdout).toMatch(/docket refuses the written files until docket\.yaml sets what they need:\n  \S+acme\/docket\.yaml: `agreements\.actor` names "nobody@elsewhere\.example", which is not a user of the agreements service/);
    expect(result.stdout).not.toContain('values the services hold');
    expect(result.stdout).not.toContain('change these in the app');
    // A user's e-mail, in any case, is not noted.
    expect((await exportTo(await makeDir({ 'docket.yaml': DOCKET_YAML.replace('legal-ops', 'Legal-Ops') }))).result.stdout).not.toContain('is no user');
    // Attachments alone come from the lock: no service is read for the actor, and no key is needed.
    await copyFile(join(source, 'docket.lock.json'), join(stranger, 'docket.lock.json'));
    const offline = await runCli(['export', '-C', stranger, '--out', join(await makeDir({}), 'acme'), '--kind', 'attachment'], { env: { ...t!.env, DOCKET_API_KEY: '', DOCKET_AGREEMENTS_API_KEY: '' } });
    expect([offline.code, offline.stdout.split('\n')[0]]).toEqual([0, 'docket export · target: none (attachments come from docket.lock.json)']);
  });

  it('writes text with `${` from the app literally, so the export reads back the same and validates', async () => {
    const { exportFrom } = await seed();
    const app = new App(t!.env);
    await app.createRule('Inbound NDA', { name: 'Fee ${var.x}', actions: 'Pay ${env.HOME}' });
    const { out, result } = await exportTo(exportFrom, '--kind', 'playbook');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('docket refuses');
    expect(await readFile(join(out, 'playbooks/inbound-nda.yaml'), 'utf8')).toContain('name: Fee $${var.x}\n    actions: Pay $${env.HOME}');
    await expectNoChanges(cli, out);
  });

  it('writes a term whose text starts with a byte-order mark in its document, where it is kept: a file would read past it (probe EF)', async () => {
    const { exportFrom } = await seed();
    await new App(t!.env).createTerm('Pasted from Word', '\uFEFFThe supplier warrants.\n');
    const { out, result } = await exportTo(exportFrom, '--kind', 'custom-term');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Recorded');
    expect(result.stdout).not.toContain('moved while export read it');
    expect(await readFile(join(out, 'custom-terms/pasted-from-word.yaml'), 'utf8')).toContain('name: Pasted from Word\nbody: "\\ufeffThe supplier warrants."\n');
    await expectNoChanges(cli, out);
  });

  it('writes nothing when an object in the app holds the value of an API key, which would be committed with the files, and says where', async () => {
    const { exportFrom } = await seed();
    const key = 'sk-live-5b2e8d10c7a4';
    t!.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!.api_keys.push(key);
    await new App(t!.env).createRule('Inbound NDA', { name: 'Token', actions: `use token ${key} now` });
    const out = join(await makeDir({}), 'acme');
    const result = await runCli(['export', '-C', exportFrom, '--out', out, '--kind', 'playbook'], { env: { ...t!.env, DOCKET_API_KEY: key } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('the live state holds the value of an API key (DOCKET_API_KEY), or 16 or more characters of it, which export would write into playbooks/inbound-nda.yaml; nothing was written');
    expect(result.stdout + result.stderr).not.toContain(key);
    await expect(readdir(out)).rejects.toThrow();
    // 24 characters of a longer key in a playbook's name, which every output hides: not committed either (probe QO-3).
    const long = 'sk_live_AlphaSecretKey0123456789abcdef';
    t!.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!.api_keys.push(long);
    await new App(t!.env).deleteRule('Inbound NDA', 'Token');
    // Six characters of it beside an ellipsis are hidden in output, as a key cut short may be; written, they give nothing away (second read SR85-2).
    await new App(t!.env).createPlaybook({ name: 'Managed…secret' });
    const cut = await runCli(['export', '-C', exportFrom, '--out', join(await makeDir({}), 'cut'), '--kind', 'playbook'], { env: { ...t!.env, DOCKET_API_KEY: long } });
    expect([cut.code, cut.stderr]).toEqual([0, '']);
    await new App(t!.env).createPlaybook({ name: 'Piece AlphaSecretKey0123456789' });
    const piece = await runCli(['export', '-C', exportFrom, '--out', out, '--kind', 'playbook'], { env: { ...t!.env, DOCKET_API_KEY: long } });
    expect([piece.code, piece.stderr]).toEqual([1, expect.stringContaining('the live state holds the value of an API key (DOCKET_API_KEY), or 16 or more characters of it, which export would write into playbooks/… (a file named after')]);
    expect(piece.stdout + piece.stderr).not.toContain('AlphaSecretKey0123456789');
    await expect(readdir(out)).rejects.toThrow();
  });

  it('records what it wrote as in sync, so a playbook archived in the app before the first apply is drift, and pull takes it', async () => {
    const { exportFrom } = await seed();
    const { out, result } = await exportTo(exportFrom, '--kind', 'playbook');
    expect(result.code).toBe(0);
    const app = new App(t!.env);
    await app.archivePlaybook('Vendor MSA');
    const drift = await cli('drift', '-C', out);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('Removed live');
    expect(drift.stdout).toContain('- playbook "Vendor MSA" (playbooks/vendor-msa.yaml:2)');
    // Its rules are 2 of the 5 the files declare: over safety.max_delete_fraction, so --force.
    const refused = await cli('pull', '-C', out);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining('refusing to pull: the pull takes 2 of the 5 rule objects')]);
    expect(Object.keys(await tree(out))).toContain('playbooks/vendor-msa.yaml');
    const pulled = await cli('pull', '-C', out, '--force');
    expect([pulled.code, pulled.stderr]).toEqual([0, expect.stringMatching(/^Warning: the pull takes 2 of the 5 rule objects .*; --force writes it\n$/)]);
    expect(Object.keys(await tree(out))).not.toContain('playbooks/vendor-msa.yaml');
    await expectNoChanges(cli, out);
  });

  it('reads only the source docket.yaml and lock: a resource file there that does not validate does not stop it', async () => {
    const { exportFrom } = await seed();
    await writeFile(join(exportFrom, 'playbooks.yaml'), 'kind: Playbook\nname: [Inbound NDA\nrules: []\n');
    const refused = await cli('validate', '-C', exportFrom);
    expect(refused.code).toBe(1);
    const { out, result } = await exportTo(exportFrom, '--kind', 'playbook');
    expect([result.code, result.stderr]).toEqual([0, '']);
    expect(Object.keys(await tree(out)).sort()).toEqual(['.gitignore', 'docket.lock.json', 'docket.yaml', 'playbooks/inbound-nda.yaml', 'playbooks/vendor-msa.yaml']);
    // The pace the source keeps to goes with it, as its concurrency does (probe QA-2).
    await writeFile(join(exportFrom, 'docket.yaml'), `${DOCKET_YAML}concurrency: 4\nmax_rps: 50\n`);
    const paced = await exportTo(exportFrom, '--kind', 'playbook');
    expect(await readFile(join(paced.out, 'docket.yaml'), 'utf8')).toMatch(/\nconcurrency: 4\nmax_rps: 50\n$/);
    // A docket.yaml that does not validate still stops it: it says what to read.
    await writeFile(join(exportFrom, 'docket.yaml'), 'version: 1\nconcurrency: many\n');
    const broken = await exportTo(exportFrom, '--kind', 'playbook');
    expect(broken.result.code).toBe(1);
    expect(broken.result.stderr).toContain('docket.yaml:2');
    await expectNoChanges(cli, out);
  });

  it('asks again for a rule list answered empty before writing `rules: []`, and says a check that found changes as such (probe EU)', async () => {
    const { exportFrom } = await seed();
    const org = t!.emulator.store.organization(t!.env.DOCKET_ORGANIZATION_ID!)!;
    const nda = Object.values(org.playbooks).find((p) => p.name === 'Inbound NDA' && !p.archived_at)!;
    const emptyOnce = (count: number) => t!.emulator.faults.add({ method: 'GET', path_pattern: `/playbooks/${nda.id}/playbook_rules`, status: 'malformed', body: { data: [] }, count });
    emptyOnce(1);
    const once = await exportTo(exportFrom, '--kind', 'playbook');
    expect(once.result.code).toBe(0);
    expect(await readFile(join(once.out, 'playbooks/inbound-nda.yaml'), 'utf8')).toContain('  - name: Residuals\n');
    expect(once.result.stdout).toContain('Recorded 7 objects as in sync');
    await expectNoChanges(cli, once.out);
    // Answered empty twice: the files say so, but the check reads the rules, records nothing and says so.
    emptyOnce(2);
    const twice = await exportTo(exportFrom, '--kind', 'playbook');
    expect(twice.result.code).toBe(0);
    expect(await readFile(join(twice.out, 'playbooks/inbound-nda.yaml'), 'utf8')).toContain('rules: []');
    expect(twice.result.stdout).toContain('No sync records were written (a plan of the written directory shows 3 changes: the live state moved while export read it, or a read of it was wrong)');
    expect(twice.result.stdout).toContain(`docket plan -C ${twice.out}\n  which shows the 3 differences its check found; to have files that match the organization as it is now, export again into an empty directory.\n`);
    expect(twice.result.stdout).not.toContain('shows no changes');
  });

  it('records nothing when its check finds live objects its own read did not list (the playbook list answered empty once, probe EX)', async () => {
    const { exportFrom } = await seed();
    t!.emulator.faults.add({ method: 'GET', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'malformed', body: { data: [] }, count: 1 });
    const { out, result } = await exportTo(exportFrom, '--kind', 'playbook');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('No sync records were written (a plan of the written directory finds 2 live objects export\'s read did not list: the live state moved while export read it, or a read of it was wrong)');
    // No difference a plan of the files shows (probe FG): the files lack them.
    expect(result.stdout).toContain("shows no changes, though the files lack the 2 live objects its check found and export's read missed; to have files that match the organization as it is now, export again into an empty directory.");
    expect((await cli('plan', '-C', out)).stdout).toContain('No changes.');
    expect(await readFile(join(out, 'docket.lock.json'), 'utf8').catch(() => '')).not.toContain('synced');
    // Exported again, the files hold them.
    const again = await exportTo(exportFrom, '--kind', 'playbook');
    expect(Object.keys(await tree(again.out))).toContain('playbooks/inbound-nda.yaml');
    await expectNoChanges(cli, again.out);
  });

  it('records what --kind wrote when the check reads other kinds it names: a default reviewer, a template\'s term (probe FP)', async () => {
    const { exportFrom } = await seed();
    const organization = await exportTo(exportFrom, '--kind', 'organization');
    expect(organization.result.stdout).toContain('Recorded 1 object as in sync');
    expect(organization.result.stdout).not.toContain("export's read did not list");
    const templates = await exportTo(exportFrom, '--kind', 'custom-template');
    expect(templates.result.stdout).toMatch(/Recorded \d+ objects? as in sync/);
    expect(templates.result.stdout).not.toContain("export's read did not list");
    // The terms its check read for the templates are not the files': no drift from the first day (probe FQ).
    const fresh = await cli('drift', '-C', templates.out);
    expect([fresh.code, fresh.stdout]).toEqual([0, expect.stringContaining('No drift')]);
    // Recorded, an edit in the app has its direction.
    await new App(t!.env).editAgreementsOrganization({ city: 'Basel' });
    const drift = await cli('drift', '-C', organization.out);
    expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining('Changed live (1)')]);
    await expectNoChanges(cli, templates.out);
  });

  it('says when its check found the files in sync and only writing the records failed, and writes nothing half-way', async () => {
    const { exportFrom } = await seed();
    const { out, result } = await exportTo(exportFrom, '--kind', 'playbook');
    expect(result.stdout).toContain('Recorded 7 objects as in sync');
    // Records gone, and nowhere to write new ones: the lock's temporary file goes in .docket/, here a file.
    const lock = JSON.parse(await readFile(join(out, 'docket.lock.json'), 'utf8')) as { synced?: unknown };
    expect(lock.synced).toBeDefined();
    delete lock.synced;
    const unrecorded = `${JSON.stringify(lock, null, 2)}\n`;
    await writeFile(join(out, 'docket.lock.json'), unrecorded);
    await rm(join(out, '.docket'), { recursive: true, force: true });
    await writeFile(join(out, '.docket'), 'not a folder\n');
    let said = '';
    const io = { stdout: (text: string) => void (said += text), stderr: (text: string) => void (said += text), isTTY: false, canPrompt: false, prompt: async () => null, env: { PATH: process.env.PATH, ...t!.env }, cwd: process.cwd() };
    const records = await recordExported(io, out, { emulator: false, deadline: () => undefined, exported: ['playbook'] });
    expect(records).toEqual({ skipped: `writing them failed: docket.lock.json could not be written (EEXIST: ${join(out, '.docket')} is in the way)` });
    expect(await readFile(join(out, 'docket.lock.json'), 'utf8')).toBe(unrecorded);
    // What the summary then says: nothing recorded, and the files match (the check found them in sync).
    const summary = renderExportSummary({ files: [], parts: [], missing: [], notes: [] }, { out, target: 'emulator', flags: [], copiedEmulatorState: false, paint: (_c, text) => text, kinds: KINDS, refused: [], records });
    expect(summary).toContain('No sync records were written (writing them failed: ');
    expect(summary).not.toContain('could not check');
    await rm(join(out, '.docket'));
    await expectNoChanges(cli, out);
  });

  it('limits the export to the kinds given with --kind', async () => {
    const { exportFrom } = await seed();
    const { out, result } = await exportTo(exportFrom, '--kind', 'playbook');
    expect(result.code).toBe(0);
    expect(Object.keys(await tree(out)).sort()).toEqual(['.gitignore', 'docket.lock.json', 'docket.yaml', 'playbooks/inbound-nda.yaml', 'playbooks/vendor-msa.yaml']);
    const project = await readFile(join(out, 'docket.yaml'), 'utf8');
    expect(project).toContain('review:');
    expect(project).not.toContain('agreements:');
    await expectNoChanges(cli, out);
  });

  it('exports with --kind attachment only the attachments of the organization the key acts for, not another\'s the lock holds (probe OC-1)', async () => {
    const { exportFrom } = await seed();
    const attachments = async (): Promise<string[]> => {
      const out = join(await makeDir({}), 'acme');
      const result = await cli('export', '-C', exportFrom, '--out', out, '--kind', 'attachment');
      expect([result.code, result.stderr]).toEqual([0, '']);
      return Object.keys(await tree(out)).filter((f) => f.startsWith('attachments/'));
    };
    expect(await attachments()).toEqual(['attachments/security-exhibit.yaml.pending']);
    // The lock's one section made another organization's: the key's own has none to export.
    const lockPath = join(exportFrom, 'docket.lock.json');
    await writeFile(lockPath, (await readFile(lockPath, 'utf8')).replaceAll(DEFAULT_ORGANIZATION_ID, '00000000-0000-4000-8000-0000000000c2'));
    expect(await attachments()).toEqual([]);
  });

  it('exports with --kind attachment and no key the section of the organization docket.yaml names, and says when it cannot tell sections apart (probe OY-1)', async () => {
    const { exportFrom } = await seed();
    const lockPath = join(exportFrom, 'docket.lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as { targets: Record<string, unknown> };
    const [own] = Object.keys(lock.targets).filter((k) => k.includes('/agreements'));
    // Another organization's section beside it, of the same URL.
    lock.targets[own!.replace(DEFAULT_ORGANIZATION_ID, '00000000-0000-4000-8000-0000000000c3')] = { files: { 'attachment:Other Exhibit': { id: '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f', file: 'attachments/other.pdf', sha256: 'a'.repeat(64) } } };
    await writeFile(lockPath, JSON.stringify(lock, null, 2));
    const keyless = async (docket: string) => {
      await writeFile(join(exportFrom, 'docket.yaml'), docket);
      const out = join(await makeDir({}), 'acme');
      const result = await runCli(['export', '-C', exportFrom, '--out', out, '--kind', 'attachment'], { env: { DOCKET_AGREEMENTS_URL: t!.env.DOCKET_AGREEMENTS_URL! } });
      expect(result.code).toBe(0);
      return { result, files: Object.keys(await tree(out)).filter((f) => f.startsWith('attachments/')) };
    };
    const named = await keyless(`version: 1\nagreements:\n  organization_id: ${DEFAULT_ORGANIZATION_ID}\n`);
    expect(named.files).toEqual(['attachments/security-exhibit.yaml.pending']);
    const unnamed = await keyless('version: 1\nagreements: {}\n');
    expect(unnamed.files).toEqual([]);
    expect(unnamed.result.stderr).toContain('Warning: docket.lock.json records uploads for 2 organizations of');
  });

  it('says an upload the source lock marks as never confirmed, which it cannot export, rather than dropping it unsaid (probe OX-3)', async () => {
    const { exportFrom } = await seed();
    const lockPath = join(exportFrom, 'docket.lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as { targets: Record<string, { files: Record<string, unknown> }> };
    const [own] = Object.keys(lock.targets).filter((k) => k.includes('/agreements'));
    lock.targets[own!]!.files['attachment:Pending Exhibit'] = { pending: { file: 'attachments/pending.pdf', sha256: 'b'.repeat(64), description: null, since: '2026-12-05T17:00:00.000Z' } };
    await writeFile(lockPath, JSON.stringify(lock, null, 2));
    const out = join(await makeDir({}), 'acme');
    const result = await cli('export', '-C', exportFrom, '--out', out, '--kind', 'attachment');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('attachment "Pending Exhibit": an upload of attachments/pending.pdf an earlier apply never confirmed may exist live, but cannot be read back: not exported; look for it in the app');
  });

  it('asks the agreements service whose a lock section is only for an export: a review-only plan beside such a lock never depends on it (second read SR80-2)', async () => {
    const { exportFrom } = await seed();
    const dead = 'http://127.0.0.1:9/agreements';
    const lockPath = join(exportFrom, 'docket.lock.json');
    await writeFile(lockPath, (await readFile(lockPath, 'utf8')).replaceAll(t!.env.DOCKET_AGREEMENTS_URL!, dead));
    await writeFile(join(exportFrom, 'docket.yaml'), 'version: 1\n');
    await writeFile(join(exportFrom, 'playbooks.yaml'), 'kind: Playbook\nname: Inbound NDA\nrules: []\n');
    const plan = await runCli(['plan', '-C', exportFrom, '--timeout', '20s'], { env: { ...t!.env, DOCKET_AGREEMENTS_URL: dead } });
    expect([plan.code, plan.stderr]).toEqual([0, '']);
  });

  it('reads only the service the source configuration names: a review-only docket.yaml exports with a review key alone', async () => {
    const { exportFrom } = await seed();
    await writeFile(join(exportFrom, 'docket.yaml'), `version: 1\nreview:\n  url: ${t!.env.DOCKET_REVIEW_URL}\n  organization_id: ${DEFAULT_ORGANIZATION_ID}\n`);
    const reviewOnly = (...args: string[]) => runCli(args, { env: { DOCKET_REVIEW_API_KEY: t!.env.DOCKET_API_KEY } });
    const out = join(await makeDir({}), 'acme');
    const result = await reviewOnly('export', '-C', exportFrom, '--out', out);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const files = await tree(out);
    expect(Object.keys(files).sort()).toEqual(['.gitignore', 'docket.lock.json', 'docket.yaml', 'members.yaml', 'organization.yaml', 'playbooks/inbound-nda.yaml', 'playbooks/vendor-msa.yaml']);
    expect(files['docket.yaml']).not.toContain('agreements');
    expect(files['organization.yaml']).toContain('name: Acme Legal');
    expect(files['organization.yaml']).not.toContain('agreements:');
    expect(result.stdout).toContain('the agreements service was not read: the source configuration names only the other one');
    // The target as plan says it: the service read, with the route layout it found.
    expect(result.stdout.split('\n')[0]).toBe(`docket export · target: ${t!.env.DOCKET_REVIEW_URL} (organization ${DEFAULT_ORGANIZATION_ID}, nested paths)`);
    // An environment is named on the line after, as plan names it.
    await writeFile(join(exportFrom, 'docket.yaml'), `version: 1\nreview:\n  url: ${t!.env.DOCKET_REVIEW_URL}\n  organization_id: ${DEFAULT_ORGANIZATION_ID}\nenvironments:\n  staging:\n    vars: { x: y }\n`);
    const staged = await reviewOnly('export', '-C', exportFrom, '--out', join(await makeDir({}), 'acme'), '--env', 'staging');
    expect(staged.stdout.split('\n')[1]).toBe('environment: staging');
    await expectNoChanges(reviewOnly, out);
    // The organization alone, named with --kind: its agreements part is not read either, and the summary says so (probe FF-1).
    const organizationOnly = await reviewOnly('export', '-C', exportFrom, '--out', join(await makeDir({}), 'org'), '--kind', 'organization');
    expect(organizationOnly.code).toBe(0);
    expect(organizationOnly.stdout).toContain('the agreements service was not read, so the agreements part of the organization is not exported: the source configuration names only the other one');
    // A kind of one service named alone says nothing of the other.
    const playbooksOnly = await reviewOnly('export', '-C', exportFrom, '--out', join(await makeDir({}), 'pb'), '--kind', 'playbook');
    expect(playbooksOnly.stdout).not.toContain('was not read');
  });

  it('refuses, before any write, a template that would send another organization’s attachment id, and converges once it names the attachment', async () => {
    // An order form value equal to its documented default: kept, or the other organization could lack it.
    const csa = CSA_TEMPLATE_YAML.replace('    cloud_service_description: Contract analytics\n', '    cloud_service_description: Contract analytics\n    subscription_period: 1\n');
    const { exportFrom } = await seed({ 'templates/csa.yaml': csa });
    const { out } = await exportTo(exportFrom, '--kind', 'attachment', '--kind', 'template');
    await addFile(out, 'attachments/security-exhibit.pdf', pdf('security'), 'attachments/security-exhibit.yaml.pending');
    const pinned = await readFile(join(out, 'attachments/security-exhibit.yaml'), 'utf8');
    const id = /\nid: (\S+)\n/.exec(pinned)![1]!;
    expect((await cli('apply', '-C', out, '--auto-approve', '--adopt-files')).code).toBe(0);

    // Another, empty organization: the exported ids mean nothing there, and the service would refuse them.
    const other = await startTestEmulator();
    try {
      const otherCli = (...args: string[]) => runCli(args, { env: other.env });
      const refused = await otherCli('plan', '-C', out);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`templates/cloud-service-agreement\\.yaml:\\d+:\\d+ error unsupported-change .*names attachment id ${id}`));
      expect(refused.stderr).toContain('delete that `id:` line');
      // docket.lock.json records that id for the source organization: the pin is not adopted here either.
      expect(refused.stderr).toMatch(new RegExp(`attachments/security-exhibit\\.yaml:\\d+:\\d+ error pinned-id-not-found attachment "Security Exhibit" is pinned to id "${id}"`));
      // Said as what docket knows of attachments, which no service lists: not that no live one has it (probe JD-4).
      expect(refused.stderr).toContain(`is pinned to id "${id}", which docket.lock.json records for another organization or environment, not for this target (the service cannot list them)`);
      const apply = await otherCli('apply', '-C', out, '--auto-approve');
      expect(apply.code).toBe(1);
      expect(apply.stderr).toContain('the plan could not be made');
      // The in-process emulator too, from its first run, when it has no state of its own yet (probe YD-2).
      for (const run of ['first', 'second']) {
        const emulated = await runCli(['plan', '-C', out, '--emulator'], { env: {} });
        expect([run, emulated.code]).toEqual([run, 1]);
        expect(emulated.stderr).toContain(`is pinned to id "${id}", which docket.lock.json records for another organization or environment`);
      }

      // As the error says: upload the PDF here, and name the attachment instead of its id.
      await writeFile(join(out, 'attachments/security-exhibit.yaml'), pinned.replace(`id: ${id}\n`, ''));
      const template = await readFile(join(out, 'templates/cloud-service-agreement.yaml'), 'utf8');
      await writeFile(join(out, 'templates/cloud-service-agreement.yaml'), template.replace(id, '{ attachment: Security Exhibit }'));
      const applied = await otherCli('apply', '-C', out, '--auto-approve');
      expect(applied.stdout).toContain('✓ upload attachment "Security Exhibit"');
      expect(applied.stdout).toContain('✓ create template "Mutual NDA"'); // the refused apply wrote nothing
      expect(applied.code).toBe(0);
      await expectNoChanges(otherCli, out);
      const orderForm = (e: typeof other) => Object.values(e.emulator.store.organization(e.env.DOCKET_ORGANIZATION_ID!)!.agreements.templates).find((x) => x.agreement_type === 'CSA')!.parameters.template_csa_order_form_attributes;
      expect(orderForm(other)).toEqual(orderForm(t!));
      expect(orderForm(other)).toMatchObject({ subscription_period: 1 });
      // The source organization still matches: its lock entry names the attachment, its id the template's.
      await expectNoChanges(cli, out);
    } finally {
      await other.emulator.close();
    }
  });

  it('refuses, before any write, a template naming an attachment whose exported document pins an id this organization has no record of (probe RI-1)', async () => {
    const { exportFrom } = await seed({ 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    const { out } = await exportTo(exportFrom, '--kind', 'attachment', '--kind', 'template');
    await addFile(out, 'attachments/security-exhibit.pdf', pdf('security'), 'attachments/security-exhibit.yaml.pending');
    const pinned = await readFile(join(out, 'attachments/security-exhibit.yaml'), 'utf8');
    const id = /\nid: (\S+)\n/.exec(pinned)![1]!;
    // Named, as the export's notes say to once the document is active; never adopted in the source organization.
    const templateFile = join(out, 'templates/cloud-service-agreement.yaml');
    const template = (await readFile(templateFile, 'utf8')).replaceAll(id, '{ attachment: Security Exhibit }');
    await writeFile(templateFile, template.includes('attachments:') ? template : `${template}attachments: [Security Exhibit]\n`);
    const other = await startTestEmulator();
    try {
      const otherCli = (...args: string[]) => runCli(args, { env: other.env });
      const refused = await otherCli('plan', '-C', out);
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(new RegExp(`templates/cloud-service-agreement\\.yaml:\\d+:\\d+ error unsupported-change template "Cloud Service Agreement": \`include_security_policy_attachment_id\` names attachment "Security Exhibit", whose document pins id ${id}, which this organization has no record of`));
      expect(refused.stderr).toContain('delete the `id:` line of its Attachment document');
      const before = JSON.stringify(other.emulator.store.organization(other.env.DOCKET_ORGANIZATION_ID!)!.agreements.templates);
      expect((await otherCli('apply', '-C', out, '--auto-approve')).code).toBe(1);
      expect(JSON.stringify(other.emulator.store.organization(other.env.DOCKET_ORGANIZATION_ID!)!.agreements.templates)).toBe(before);
      // As the hint says: without the pin the PDF is uploaded here, and the template names that upload.
      await writeFile(join(out, 'attachments/security-exhibit.yaml'), pinned.replace(`id: ${id}\n`, ''));
      const applied = await otherCli('apply', '-C', out, '--auto-approve');
      expect([applied.code, applied.stdout]).toEqual([0, expect.stringContaining('✓ upload attachment "Security Exhibit"')]);
      await expectNoChanges(otherCli, out);
    } finally {
      await other.emulator.close();
    }
  });

  it('names the source file to copy only while it is the one live: not a Word term\'s once the app published another version, not a file with other bytes now (probe SC-2)', async () => {
    const { source } = await seed({ 'terms/data.yaml': DOCX_TERM_YAML }, { 'terms/data.docx': docx('data') });
    await new App(t!.env).publishTermDocx('Data Terms', docx('from the app'));
    await writeFile(join(source, 'attachments/security.pdf'), pdf('edited, not applied'));
    const { out, result } = await exportTo(source, '--kind', 'custom-term', '--kind', 'attachment');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Word file of custom-term "Data Terms"\n/);
    expect(result.stdout).toMatch(/PDF of attachment "Security Exhibit"; the source configuration uploaded attachments\/security\.pdf, which holds other bytes now: find the file of sha256 [0-9a-f]{64}\n/);
    await expectNoChanges(cli, out);
  });

  it('writes a Word term as a pending document that plan ignores, and adopts its Word file once added and renamed', async () => {
    const { exportFrom } = await seed({ 'terms/data.yaml': DOCX_TERM_YAML }, { 'terms/data.docx': docx('data') });
    const { out, result } = await exportTo(exportFrom, '--kind', 'custom-term');
    expect(result.code).toBe(0);
    expect(Object.keys(await tree(out)).sort()).toEqual([
      '.gitignore',
      'custom-terms/consulting-terms.md',
      'custom-terms/consulting-terms.yaml',
      'custom-terms/data-terms.yaml.pending',
      'docket.lock.json',
      'docket.yaml',
    ]);
    expect(await readFile(join(out, 'custom-terms/data-terms.yaml.pending'), 'utf8')).toContain('docx_file: data-terms.docx');
    expect(result.stdout).toContain('custom-terms/data-terms.docx');
    // Not in the directory exported from (its docket.yaml and lock alone): its sha256 says which file it is.
    expect(result.stdout).toMatch(/Word file of custom-term "Data Terms"; the source configuration uploaded terms\/data\.docx \(sha256 [0-9a-f]{64}\)/);
    expect(result.stdout).toContain('  2. rename its document from .yaml.pending to .yaml\n       custom-terms/data-terms.yaml.pending\n');

    // Before the Word file is added, docket does not read the pending term: nothing to change.
    const fresh = await expectNoChanges(cli, out);
    expect(fresh.stdout).not.toContain('data-terms');
    expect(fresh.stdout).not.toContain('cannot compare');
    // Though the plan says how to adopt the live one it names, as drift does (probe RI-3).
    expect(fresh.stdout).toContain(`1 live object is not declared in any file and is left alone (custom-terms: 1); it is named by a pending document: add the file it names, rename the document to .yaml, then \`docket apply -C ${out} --adopt-files\`.`);
    const planJson = JSON.parse((await cli('plan', '-C', out, '-o', 'json')).stdout) as { undeclared: unknown[] };
    expect(planJson.undeclared).toEqual([expect.objectContaining({ kind: 'custom-term', count: 1, pending: 1 })]);
    // Nor is it drift, and pull does not write it a second time: it is being adopted.
    const drift = await cli('drift', '-C', out);
    expect(drift.code).toBe(0);
    // With the run's -C: copied, it adopts for this configuration (probe WB-1).
    expect(drift.stdout).toContain(`1 live object is named by a pending document (not drift; add the file it names, rename it to .yaml, then \`docket apply -C ${out} --adopt-files\`): custom-term "Data Terms" (custom-terms/data-terms.yaml.pending).`);
    const driftJson = JSON.parse((await cli('drift', '-C', out, '-o', 'json')).stdout) as { adopting: unknown[] };
    expect(driftJson.adopting).toEqual([{ kind: 'custom-term', key: 'Data Terms', name: 'Data Terms', file: 'custom-terms/data-terms.yaml.pending' }]);
    const pulled = await cli('pull', '-C', out);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('custom-terms/data-terms.yaml.pending: names custom-term "Data Terms", which is live');
    expect(Object.keys(await tree(out)).filter((f) => f.startsWith('custom-terms/')).sort()).toEqual(['custom-terms/consulting-terms.md', 'custom-terms/consulting-terms.yaml', 'custom-terms/data-terms.yaml.pending']);

    await addFile(out, 'custom-terms/data-terms.docx', docx('data'), 'custom-terms/data-terms.yaml.pending');
    const plan = await expectNoChanges(cli, out);
    expect(plan.stdout).toContain('cannot compare custom-terms/data-terms.docx');
    const adopt = await cli('apply', '-C', out, '--auto-approve', '--adopt-files');
    expect(adopt.code).toBe(0);
    expect(adopt.stdout).toContain('Recorded 1 file in docket.lock.json');
    const lock = { files: await lockFiles(out) };
    expect(lock.files['custom-term:Data Terms']).toMatchObject({ file: 'custom-terms/data-terms.docx' });
    const replan = await expectNoChanges(cli, out);
    expect(replan.stdout).not.toContain('cannot compare');
  });

  it('pins a pending Word term by id: renamed in the app before it is adopted, it is still being adopted, and its document adopts it (probe EX)', async () => {
    const { exportFrom } = await seed({ 'terms/data.yaml': DOCX_TERM_YAML }, { 'terms/data.docx': docx('data') });
    const { out } = await exportTo(exportFrom, '--kind', 'custom-term');
    const pending = await readFile(join(out, 'custom-terms/data-terms.yaml.pending'), 'utf8');
    expect(pending).toMatch(/\nname: Data Terms\nid: [0-9a-f-]{36}\n/);
    await new App(t!.env).renameTerm('Data Terms', 'Data Terms Renamed');
    const drift = await cli('drift', '-C', out);
    expect([drift.code, drift.stdout]).toEqual([0, expect.stringContaining('custom-term "Data Terms Renamed" (custom-terms/data-terms.yaml.pending)')]);
    const pulled = await cli('pull', '-C', out);
    expect(pulled.stdout).toContain('custom-terms/data-terms.yaml.pending: names custom-term "Data Terms Renamed", which is live');
    expect(Object.keys(await tree(out)).filter((f) => f.includes('.pending'))).toEqual(['custom-terms/data-terms.yaml.pending']);
    // Adopted under the name the files give, it is the live term renamed back, not a second one.
    await addFile(out, 'custom-terms/data-terms.docx', docx('data'), 'custom-terms/data-terms.yaml.pending');
    const plan = await cli('plan', '-C', out);
    expect(plan.stdout).toContain('~ rename custom-term "Data Terms Renamed" → "Data Terms"');
    expect(plan.stdout).not.toContain('+ create custom-term');
    expect((await cli('apply', '-C', out, '--auto-approve', '--adopt-files')).code).toBe(0);
    await expectNoChanges(cli, out);
  });

  it('writes byte-identical exports of the same live state', async () => {
    const { exportFrom } = await seed();
    const first = await exportTo(exportFrom);
    const second = await exportTo(exportFrom);
    expect(first.result.code).toBe(0);
    expect(second.result.code).toBe(0);
    expect(await tree(second.out)).toEqual(await tree(first.out));
  });

  it('refuses an --out directory that is not empty, unknown kinds and missing keys, without writing anything', async () => {
    t = await startTestEmulator();
    const from = await makeDir({ 'docket.yaml': DOCKET_YAML });
    const out = await makeDir({ 'notes.txt': 'keep me\n' });
    const busy = await cli('export', '-C', from, '--out', out);
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain('is not empty');
    expect(await tree(out)).toEqual({ 'notes.txt': 'keep me\n' });
    // Below a file: said in words, not as an error code.
    const below = await cli('export', '-C', from, '--out', join(out, 'notes.txt', 'x'));
    expect([below.code, below.stderr.split('\n')[0]]).toEqual([1, `Error: --out ${join(out, 'notes.txt', 'x')} cannot be used: a folder on its path is a file`]);
    await symlink('nowhere', join(out, 'gone'));
    const dangling = await cli('export', '-C', from, '--out', join(out, 'gone', 'x'));
    expect([dangling.code, dangling.stderr.split('\n')[0]]).toEqual([1, `Error: --out ${join(out, 'gone', 'x')} cannot be used: ${join(out, 'gone')} is a symbolic link to nothing`]);
    await rm(join(out, 'gone'));

    const unknown = await cli('export', '-C', from, '--out', join(out, 'new'), '--kind', 'playbok');
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain('did you mean `playbook`?');
    const rule = await cli('export', '-C', from, '--out', join(out, 'new'), '--kind', 'rule');
    expect(rule.code).toBe(1);
    expect(rule.stderr).toContain('--kind playbook');
    expect(await tree(out)).toEqual({ 'notes.txt': 'keep me\n' });

    // A review-only key: the error names the kinds that need the other service and how to skip them.
    const reviewOnly = { ...t!.env, DOCKET_API_KEY: undefined, DOCKET_REVIEW_API_KEY: t!.env.DOCKET_API_KEY };
    const noKey = await runCli(['export', '-C', from, '--out', join(out, 'new')], { env: reviewOnly });
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toContain('no API key for the agreements service');
    expect(noKey.stderr).toContain('--kind member --kind playbook');
    const playbooksOnly = await runCli(['export', '-C', from, '--out', join(out, 'new'), '--kind', 'member', '--kind', 'playbook'], { env: reviewOnly });
    expect(playbooksOnly.code).toBe(0);
  });

  it('round-trips the bundled example through --emulator, carrying the emulator state along', async () => {
    const source = join(await makeDir({}), 'acme-legal');
    await cp(fileURLToPath(new URL('../../examples/acme-legal', import.meta.url)), source, { recursive: true });
    const applied = await runCli(['apply', '-C', source, '--emulator', '--auto-approve']);
    expect(applied.code).toBe(0);

    const out = join(await makeDir({}), 'exported');
    const result = await runCli(['export', '-C', source, '--emulator', '--out', out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('target: local emulator');
    expect(result.stdout).toContain(`docket plan -C ${out} --emulator\n  which shows no changes.`);
    expect(result.stdout).toContain(`docket apply -C ${out} --emulator --adopt-files`);
    // The example names no organization: the emulator's own id is not written beside the real URLs (probe IW-2).
    expect(await readFile(join(out, 'docket.yaml'), 'utf8')).not.toContain('organization_id');
    const emulatorCli = (...args: string[]) => runCli([...args, '--emulator']);

    // No changes as exported, with the attachment pending ...
    await expectNoChanges(emulatorCli, out);
    // ... and after its PDF is added, the document renamed and the file adopted.
    await copyFile(join(source, 'attachments/security.pdf'), join(out, 'attachments/security-exhibit.pdf'));
    await rename(join(out, 'attachments/security-exhibit.yaml.pending'), join(out, 'attachments/security-exhibit.yaml'));
    const adopt = await emulatorCli('apply', '-C', out, '--auto-approve', '--adopt-files');
    expect(adopt.code).toBe(0);
    expect(adopt.stdout).toContain('Recorded 1 file in docket.lock.json');
    const replan = await expectNoChanges(emulatorCli, out);
    expect(replan.stdout).not.toContain('cannot compare');

    // From then on a changed PDF uploads a new attachment, as usual, while the document still pins
    // the exported id: the upload stands for that pinned attachment, twice over.
    for (const version of ['second', 'third']) {
      await writeFile(join(out, 'attachments/security-exhibit.pdf'), pdf(version));
      const upload = await emulatorCli('apply', '-C', out, '--auto-approve');
      expect(upload.stdout).toContain('✓ upload attachment "Security Exhibit"');
      expect(upload.code).toBe(0);
      const after = await expectNoChanges(emulatorCli, out);
      expect(after.stdout).not.toContain('cannot compare');
      expect(after.stdout).not.toContain('not declared');
    }
  });

  it('keeps the source\'s agreements.organization_id, so the export reads and writes that organization\'s terms (probe DA-1)', async () => {
    const own = '21212121-2121-4121-8121-212121212121';
    const source = await makeDir({ 'docket.yaml': `version: 1\nagreements:\n  organization_id: ${own}\n  actor: alice@acme.example\n`, 'terms/t.yaml': 'kind: CustomTerm\nname: Own term\nbody: hello\n' });
    expect((await runCli(['apply', '-C', source, '--emulator', '--auto-approve'])).code).toBe(0);
    const out = join(await makeDir({}), 'exported');
    expect((await runCli(['export', '-C', source, '--emulator', '--out', out])).code).toBe(0);
    expect(await readFile(join(out, 'docket.yaml'), 'utf8')).toContain(`organization_id: ${own}`);
    await expectNoChanges((...args: string[]) => runCli([...args, '--emulator']), out);
  });

  it('writes into an existing empty directory', async () => {
    const { exportFrom } = await seed();
    const out = await makeDir({});
    const result = await cli('export', '-C', exportFrom, '--out', out, '--kind', 'member');
    expect(result.code).toBe(0);
    expect(Object.keys(await tree(out)).sort()).toEqual(['.gitignore', 'docket.lock.json', 'docket.yaml', 'members.yaml']);
    expect(await readFile(join(out, 'members.yaml'), 'utf8')).toMatch(/email: alice@acme\.example[\s\S]*email: bob@acme\.example[\s\S]*name: Bob Jones[\s\S]*email: carol@acme\.example/);
    await expectNoChanges(cli, out);
    // One made private keeps its mode: exported playbooks hold internal notes (probe DA-2).
    const kept = join(await makeDir({}), 'private');
    await mkdir(kept, { mode: 0o700 });
    await chmod(kept, 0o2750);
    expect((await cli('export', '-C', exportFrom, '--out', kept, '--kind', 'member')).code).toBe(0);
    expect((await stat(kept)).mode & 0o7777).toBe(0o2750);
  });

  it('writes `--out .` into the current directory itself, not a new one renamed over it: the shell there sees the files (probe OF-3)', async () => {
    const { exportFrom } = await seed();
    const out = await makeDir({});
    const before = (await stat(out)).ino;
    // A process of its own, started in the folder (the emulator answers from this one: not spawnSync).
    const run = await execFileAsync(process.execPath, [BIN, 'export', '-C', exportFrom, '--out', '.', '--kind', 'member'], { cwd: out, env: { PATH: process.env.PATH, ...t!.env } });
    expect(run.stderr).toBe('');
    expect((await stat(out)).ino).toBe(before);
    expect(Object.keys(await tree(out)).sort()).toEqual(['.gitignore', 'docket.lock.json', 'docket.yaml', 'members.yaml']);
    await expectNoChanges(cli, out);
  });

  it('finishes the move of an export into `--out .` stopped while its files were moved into place, rather than deleting the rest; a name written there since is left to the user (probe RA-3)', async () => {
    const { exportFrom } = await seed();
    const whole = await makeDir({});
    const exported = await execFileAsync(process.execPath, [BIN, 'export', '-C', exportFrom, '--out', '.'], { cwd: whole, env: { PATH: process.env.PATH, ...t!.env } });
    expect(exported.stderr).toBe('');
    const names = (await readdir(whole)).sort();
    /** A folder as an export killed after moving the first `moved` of its entries leaves it (2^22 + 1: no process has that id). */
    const stopped = async (moved: number): Promise<{ out: string; moving: string }> => {
      const out = await makeDir({});
      const moving = join(out, `.${out.split('/').pop()}.export-4194305-AbCdEf.moving`);
      await cp(whole, moving, { recursive: true });
      for (const name of names.slice(0, moved)) await rename(join(moving, name), join(out, name));
      return { out, moving };
    };
    const again = (out: string) => execFileAsync(process.execPath, [BIN, 'export', '-C', exportFrom, '--out', '.'], { cwd: out, env: { PATH: process.env.PATH, ...t!.env } }).then(() => ({ code: 0, stderr: '' }), (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }));
    const { out } = await stopped(2);
    const finished = await again(out);
    expect([finished.code, finished.stderr]).toEqual([1, expect.stringContaining('holds an earlier export, stopped while its files were moved into place, which docket has now finished moving')]);
    expect(await tree(out)).toEqual(await tree(whole));
    await expectNoChanges(cli, out);
    // A file of the same name written there since: nothing is moved over it, and the user is told where the rest is.
    const { out: taken, moving } = await stopped(1);
    await writeFile(join(taken, names[names.length - 1]!), 'mine\n');
    const refused = await again(taken);
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(`holds part of an earlier export, stopped while its files were moved into place; the rest is in ${moving}`)]);
    expect(await readFile(join(taken, names[names.length - 1]!), 'utf8')).toBe('mine\n');
    // Nor does docket.lock.json, moved last, come up beside a file not the export's: it marks a whole export (probe SK-2).
    const { out: mine, moving: rest } = await stopped(0);
    const first = names.find((n) => n !== 'docket.lock.json')!;
    await writeFile(join(mine, first), 'mine\n');
    expect((await again(mine)).code).toBe(1);
    expect(await readdir(mine)).not.toContain('docket.lock.json');
    expect(await readdir(rest)).toEqual(expect.arrayContaining([first, 'docket.lock.json']));
    // Settled as the refusal says (the rest moved up over the name written there), the export is whole.
    await rm(join(mine, first), { recursive: true, force: true });
    for (const name of await readdir(rest)) await rename(join(rest, name), join(mine, name));
    await rm(rest, { recursive: true });
    expect(await tree(mine)).toEqual(await tree(whole));
    await expectNoChanges(cli, mine);
  });

  it('warns when --out is below the source configuration, also through a link, and not in a folder docket skips (a dot-folder, node_modules)', async () => {
    const { exportFrom } = await seed();
    const warning = 'is inside the source configuration';
    const linkParent = join(await makeDir({}), 'config-link');
    await symlink(exportFrom, linkParent);
    for (const [out, warned] of [[join(exportFrom, 'copy'), true], [join(linkParent, 'linked-copy'), true], [join(exportFrom, '.exports', 'copy'), false], [join(exportFrom, 'node_modules', 'copy'), false]] as const) {
      // With -q too: it is a warning, not progress (probe KX-7).
      const result = await cli('export', '-C', exportFrom, '--out', out, '--kind', 'member', '-q');
      expect(result.code).toBe(0);
      expect(result.stderr.includes(warning), out).toBe(warned);
      // Taken out again: the source would now declare every member twice, and the next export would stop on it.
      await rm(out, { recursive: true });
    }
    // Inside another configuration, as init warns: that one would now fail to validate (probe GD).
    const other = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const inOther = await cli('export', '-C', exportFrom, '--out', join(other, 'imported'), '--kind', 'member');
    expect(inOther.code).toBe(0);
    expect(inOther.stderr).toContain(`Warning: ${join(other, 'imported')} is inside the configuration directory ${other}, which reads every YAML file below it: \`docket validate -C ${other}\` now fails on the exported files.`);
    expect((await cli('export', '-C', exportFrom, '--out', join(other, '.imports', 'copy'), '--kind', 'member')).stderr).not.toContain('Warning:');
  });
});
