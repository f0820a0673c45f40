/**
 * docket pull, review service: edits made in the app (over HTTP, on the emulator) come back into
 * files that carry comments, anchors, aliases, merge keys, flow and block styles, several
 * documents per file and ${var} values. Each file changes exactly where live changed, and the next
 * plan shows no changes.
 */
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse as parseYaml } from 'yaml';
import { App } from '../../helpers/app.js';
import { runCli } from '../../helpers/cli.js';
import { applyOk, cliWith, emulatorForFile, expectNoChanges } from '../../helpers/scenario.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir } from '../../helpers/tmpdir.js';

/** A key of the organization's own (the emulator's public key is not redacted). */
const SECRET = 'sk-live-7f3a9c21d0e4';
const { emulator, cli } = emulatorForFile({ seed: (s) => void s.organizations[0]!.api_keys.push(SECRET) });

const DOCKET = 'version: 1\nvars:\n  lead: alice@acme.example\n';

const ORGANIZATION = `# Acme's review settings
kind: Organization
review: { name: Acme Legal, default_reviewer: "\${var.lead}" }
`;

const MEMBERS = `# People who review
kind: Member
email: qa@acme.example
---
kind: Member
email: bob@acme.example
name: Bob Jones
`;

const NDA = `# Inbound NDAs: what we accept.
kind: Playbook
name: Inbound NDA
description: &nda-desc NDAs we receive   # shown to reviewers
rules:
  # Term: agreed with sales in 2025
  - name: Term
    actions: |
      ACCEPT a term of up to 3 years
      COUNTERPROPOSE 2 years when longer
    reviewer: \${var.lead}
  - &residuals
    name: Residuals
    description: *nda-desc
    actions: 'REJECT residuals clauses'
    generate_summary: false
  - <<: *residuals
    name: Non-solicit
    actions: >-
      FLAG any non-solicitation clause
  - { name: Law, actions: ACCEPT Delaware }
`;

const MORE = `# Vendor-side playbooks
kind: Playbook
name: Vendor MSA
description: MSAs from vendors
rules:
  - name: Liability
    actions: CAP at 12 months of fees
---
kind: Playbook
name: DPA
rules: []
`;

async function read(dir: string, file: string): Promise<string> {
  return readFile(join(dir, file), 'utf8');
}

describe('docket pull (review service)', () => {
  it('says as a warning a reference to no one that plan refuses: drift and pull still report, and plan still refuses it (probe FL)', async () => {
    const rules = 'kind: Playbook\nname: Typo\nrules:\n  - name: R\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/typo.yaml': rules });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/typo.yaml'), `${rules}    reviewer: nobody@acme.example\n`);
    const warning = 'Warning: `reviewer` names "nobody@acme.example", which is neither a user docket can see in the organization nor declared as a Member (playbooks/typo.yaml:6)';
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stderr]).toEqual([0, expect.stringContaining(warning)]);
    expect(drift.stderr).toContain('plan and apply refuse it');
    const pulled = await cli('pull', '-C', dir, '--dry-run');
    expect([pulled.code, pulled.stderr]).toEqual([0, expect.stringContaining(warning)]);
    const plan = await cli('plan', '-C', dir);
    expect([plan.code, plan.stderr]).toEqual([1, expect.stringContaining('playbooks/typo.yaml:6:15 error unknown-reference')]);
    await writeFile(join(dir, 'playbooks/typo.yaml'), rules);
    await expectNoChanges(cli, dir);
  });

  it('names a new file apart from one a case-blind file system takes for it: a final sigma, a dotless i (probe QT-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/ΟΔΟΣ-ΝΕΑ.yaml': 'kind: Playbook\nname: Sigma local\nrules: []\n', 'playbooks/kılıç.yaml': 'kind: Playbook\nname: Blade\nrules: []\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.createPlaybook({ name: 'οδος νεα' });
    await app.createPlaybook({ name: 'KILIÇ' });
    const pulled = await cli('pull', '-C', dir, '--dry-run');
    expect(pulled.stdout).toContain('+ playbook "οδος νεα" → playbooks/οδοσ-νεα-2.yaml (new file) · only live');
    expect(pulled.stdout).toContain('+ playbook "KILIÇ" → playbooks/kiliç-2.yaml (new file) · only live');
  });

  it('writes a live name that looks like a declared one this same pull takes out (removed live), in one pull (probe QT-4)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/greek.yaml': 'kind: Playbook\nname: Greek\nrules: []\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.archivePlaybook('Greek');
    await app.createPlaybook({ name: 'Gr\u0435ek' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('- playbook "Greek" (playbooks/greek.yaml) · removed live');
    expect(pulled.stdout).toContain('+ playbook "Gr\u0435ek" → playbooks/gr\u0435ek.yaml (new file) · only live');
    expect(pulled.stdout).not.toContain('Not pulled');
    await expectNoChanges(cli, dir);
  });

  it('says drift and pull could not compare the files with the live state, not that a plan could not be made, when two live playbooks hold a name (probe KT-4)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/twice.yaml': 'kind: Playbook\nname: Twice\nrules:\n  - name: R\n    actions: ACCEPT\n' });
    // An emulator of its own: the two playbooks would reach this file's other tests.
    const own = await startTestEmulator();
    try {
      const run = cliWith(() => own.env);
      const app = new App(own.env);
      await app.createPlaybook({ name: 'Twice' });
      await app.createPlaybook({ name: 'Twice' });
      for (const command of [['drift'], ['pull', '--dry-run']]) {
        const r = await run(...command, '-C', dir);
        expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('ambiguous-match')]);
        expect(r.stderr).toContain('the files could not be compared with the live state');
        expect(r.stderr).not.toContain('plan could not be made');
      }
      expect((await run('plan', '-C', dir)).stderr).toContain('the plan could not be made');
    } finally {
      await own.emulator.close();
    }
  });

  it('leaves a playbook archived in the app in the files when --target names only one of its rules, and takes it out whole when it names the playbook (probe YB-1)', async () => {
    const file = 'kind: Playbook\nname: Arch\nrules:\n  - name: a\n    actions: A\n  - name: b\n    actions: B\n  - name: c\n    actions: C\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/arch.yaml': file, 'playbooks/keep.yaml': 'kind: Playbook\nname: Keep\n' });
    const own = await startTestEmulator();
    try {
      const run = cliWith(() => own.env);
      await applyOk(run, dir);
      await new App(own.env).archivePlaybook('Arch');
      const one = await run('pull', '-C', dir, '--target', 'rule/Arch/a');
      expect([one.code, one.stderr]).toEqual([0, '']);
      expect(one.stdout).toContain('removed live with all it holds, and --target names only part of it: pull it whole with --target playbook/Arch');
      expect(one.stdout).toContain('removed live with its playbook, which stays in the files (above)');
      expect(await readFile(join(dir, 'playbooks/arch.yaml'), 'utf8')).toBe(file);
      const whole = await run('pull', '-C', dir, '--target', 'playbook/Arch');
      expect([whole.code, whole.stderr]).toEqual([0, '']);
      expect(await readdir(join(dir, 'playbooks'))).toEqual(['keep.yaml']);
      await expectNoChanges(run, dir);
    } finally {
      await own.emulator.close();
    }
  });

  it('runs drift and pull of other objects (--kind, --target) while a rule name is held twice live, and stops a run that names it (probe RL-1)', async () => {
    const dir = await makeDir({
      'docket.yaml': 'version: 1\n',
      'playbooks/p.yaml': 'kind: Playbook\nname: V1\nrules:\n  - name: a\n    actions: A\n---\nkind: Playbook\nname: V3\nrules:\n  - name: b\n    actions: B\n',
    });
    const own = await startTestEmulator();
    try {
      const run = cliWith(() => own.env);
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.createRule('V1', { name: 'a', actions: 'dup' });
      await app.editRule('V3', 'b', { actions: 'B live' });
      const drifted = await run('drift', '-C', dir, '--target', 'playbook/V3');
      expect([drifted.code, drifted.stderr]).toEqual([2, '']);
      expect(drifted.stdout).toContain('rule "V3/b"');
      expect(drifted.stdout).not.toContain('V1');
      expect(await run('drift', '-C', dir, '--kind', 'member')).toMatchObject({ code: 0, stderr: '' });
      const pulled = await run('pull', '-C', dir, '--target', 'rule/V3/b');
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toContain('actions: B live');
      // A run that takes in V1's rules still stops at the name, as a plan does.
      for (const command of [['drift'], ['drift', '--target', 'playbook/V1'], ['pull', '--dry-run', '--kind', 'playbook'], ['plan', '--target', 'rule/V1/a']]) {
        const r = await run(...command, '-C', dir);
        expect([command, r.code, r.stderr]).toEqual([command, 1, expect.stringContaining('p.yaml:4:11 error ambiguous-match 2 live rule objects are named "a"')]);
      }
      await app.deleteRule('V1', 'a');
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    } finally {
      await own.emulator.close();
    }
  });

  /** A configuration of one playbook applied to an emulator of the test's own, with the app's API on it; closed after `body`. */
  async function withKeptPlaybook(body: (dir: string, run: ReturnType<typeof cliWith>, app: App) => Promise<void>): Promise<void> {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/kept.yaml': 'kind: Playbook\nname: Kept\nrules:\n  - name: R\n    actions: ACCEPT\n' });
    const own = await startTestEmulator();
    try {
      const run = cliWith(() => own.env);
      await applyOk(run, dir);
      await body(dir, run, new App(own.env));
    } finally {
      await own.emulator.close();
    }
  }

  it('takes a --target of a rule of a live playbook no file declares in drift as in pull (probe LE-2)', async () => {
    await withKeptPlaybook(async (dir, run, app) => {
      await app.createPlaybook({ name: 'Made Live' });
      await app.createRule('Made Live', { name: 'Term', actions: 'ACCEPT 2 years' });
      const drift = await run('drift', '-C', dir, '--target', 'rule/Made Live/Term');
      expect([drift.code, drift.stderr]).toEqual([2, '']);
      expect(drift.stdout).toContain('+ rule "Made Live/Term"');
      expect((await run('pull', '-C', dir, '--dry-run', '--target', 'rule/Made Live/Term')).code).toBe(0);
      // A rule no playbook holds is still said unknown.
      expect((await run('drift', '-C', dir, '--target', 'rule/Made Live/Nope')).stderr).toContain('unknown-target');
      // The playbook made in the app is no file's: the plan leaves it alone.
      await expectNoChanges(run, dir);
    });
  });

  it('takes a --target of a rule by the playbook that holds it when one playbook\'s name starts another\'s (probes DD-1, DD-2)', async () => {
    await withKeptPlaybook(async (dir, run, app) => {
      await app.createPlaybook({ name: 'X' });
      await app.createRule('X', { name: 'Y/Z', actions: 'ACCEPT Y/Z' });
      await app.createPlaybook({ name: 'X/Y' });
      await app.createRule('X/Y', { name: 'W', actions: 'ACCEPT W' });
      // Rule `W` of `X/Y`: playbook `X`, whose only rule is `Y/Z`, is not pulled with it.
      const pulled = await run('pull', '-C', dir, '--target', 'rule/X/Y/W');
      expect(pulled.code).toBe(0);
      expect((await readdir(join(dir, 'playbooks'))).sort()).toEqual(['kept.yaml', 'x-y.yaml']);
      await expectNoChanges(run, dir);
      // With `A` declared and `A/B` only live: drift reads the rule of the playbook no file declares, not a rule of `A`.
      await app.createPlaybook({ name: 'A' });
      await app.createRule('A', { name: 'B/C', actions: 'ACCEPT B/C' });
      await app.createPlaybook({ name: 'A/B' });
      await app.createRule('A/B', { name: 'D', actions: 'ACCEPT D' });
      expect((await run('pull', '-C', dir, '--target', 'playbook/A')).code).toBe(0);
      const drift = await run('drift', '-C', dir, '--target', 'rule/A/B/D');
      expect([drift.code, drift.stderr]).toEqual([2, '']);
      expect(drift.stdout).toContain('+ rule "A/B/D"');
      expect(drift.stdout).not.toContain('B/C');
      await expectNoChanges(run, dir);
    });
  });

  it('keeps a playbook file written in JSON valid JSON, in its key order and indentation (probe DG-2)', async () => {
    const json = '{\n  "kind": "Playbook",\n  "name": "JSON Book",\n  "rules": [\n    {\n      "name": "a",\n      "actions": "x"\n    }\n  ]\n}\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/j.yaml': json });
    const own = await startTestEmulator();
    try {
      const run = cliWith(() => own.env);
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editRule('JSON Book', 'a', { questions: 'Q?' });
      await app.createRule('JSON Book', { name: 'b', actions: 'z' });
      expect((await run('pull', '-C', dir)).code).toBe(0);
      const text = await readFile(join(dir, 'playbooks/j.yaml'), 'utf8');
      expect(JSON.parse(text)).toMatchObject({ kind: 'Playbook', name: 'JSON Book', rules: [{ name: 'a', actions: 'x', questions: 'Q?' }, { name: 'b', actions: 'z' }] });
      expect(text.startsWith('{\n  "kind": "Playbook",\n  "name": "JSON Book",\n  "rules": [\n    {\n      "name": "a",\n')).toBe(true);
      await expectNoChanges(run, dir);
    } finally {
      await own.emulator.close();
    }
  });

  it('writes edits made in the app into the files, changing only their lines, and the next plan is empty', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'organization.yaml': ORGANIZATION, 'members.yaml': MEMBERS, 'playbooks/nda.yaml': NDA, 'playbooks/more.yaml': MORE });
    await applyOk(cli, dir, '--concurrency', '1');

    const app = new App(emulator().env);
    await app.editOrganization({ name: 'Acme Legal LLP' });
    await app.editRule('Inbound NDA', 'Term', { actions: 'ACCEPT a term of up to 3 years\nCOUNTERPROPOSE 18 months when longer', internal_notes: 'Sales agreed 18 months' });
    await app.editRule('Inbound NDA', 'Residuals', { description: 'Residuals clauses', generate_summary: true });
    await app.editRule('Inbound NDA', 'Non-solicit', { actions: 'FLAG any non-solicitation clause longer than a year' });
    await app.editRule('Inbound NDA', 'Law', { actions: 'ACCEPT Delaware or New York' });
    await app.createRule('Inbound NDA', { name: 'Governing law', actions: 'FLAG anything but Delaware' });
    await app.editPlaybook('Vendor MSA', { description: 'MSAs we receive from vendors' });
    await app.editRule('Vendor MSA', 'Liability', { name: 'Limitation of liability' });
    await app.createRule('DPA', { name: 'Subprocessors', actions: 'FLAG new subprocessors' });
    const sideLetters = await app.createPlaybook({ name: 'Side letters', description: 'Made in the app' });
    expect(sideLetters).not.toBe('');
    // Named in another script: the new file keeps the letters, a clash gets -2 (as export names files).
    await app.createPlaybook({ name: '秘密保持契約', description: 'Japanese NDAs' });
    await app.createPlaybook({ name: '秘密保持契約!', description: 'Urgent Japanese NDAs' });

    const before = { nda: await read(dir, 'playbooks/nda.yaml'), more: await read(dir, 'playbooks/more.yaml') };
    const dry = await cli('pull', '-C', dir, '--dry-run');
    expect(dry.stderr).toBe('');
    expect(dry.code).toBe(0);
    expect(dry.stdout).toContain('--- a/playbooks/nda.yaml\n+++ b/playbooks/nda.yaml\n');
    expect(dry.stdout).toContain('--- /dev/null\n+++ b/playbooks/side-letters.yaml\n');
    expect(dry.stdout).toContain('nothing was written');
    expect(await read(dir, 'playbooks/nda.yaml')).toBe(before.nda);

    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('~ rule "Inbound NDA/Term" (playbooks/nda.yaml) · changed live: actions, internal_notes');
    expect(pulled.stdout).toContain('+ rule "Inbound NDA/Governing law" (playbooks/nda.yaml) · only live');
    expect(pulled.stdout).toContain('~ rule "Vendor MSA/Liability" (playbooks/more.yaml) · changed live: name');
    expect(pulled.stdout).toContain('+ playbook "Side letters" → playbooks/side-letters.yaml (new file) · only live');
    expect(pulled.stdout).toContain('+ playbook "秘密保持契約" → playbooks/秘密保持契約.yaml (new file) · only live');
    expect(pulled.stdout).toContain('+ playbook "秘密保持契約!" → playbooks/秘密保持契約-2.yaml (new file) · only live');

    expect(await read(dir, 'organization.yaml')).toBe(ORGANIZATION.replace('name: Acme Legal,', 'name: Acme Legal LLP,'));
    expect(await read(dir, 'members.yaml')).toBe(MEMBERS);
    expect(await read(dir, 'playbooks/nda.yaml')).toBe(`# Inbound NDAs: what we accept.
kind: Playbook
name: Inbound NDA
description: &nda-desc NDAs we receive   # shown to reviewers
rules:
  # Term: agreed with sales in 2025
  - name: Term
    actions: |
      ACCEPT a term of up to 3 years
      COUNTERPROPOSE 18 months when longer
    reviewer: \${var.lead}
    internal_notes: Sales agreed 18 months
  - name: Governing law
    actions: FLAG anything but Delaware
  - &residuals
    name: Residuals
    description: Residuals clauses
    actions: 'REJECT residuals clauses'
    generate_summary: true
  - <<: *residuals
    name: Non-solicit
    description: NDAs we receive
    actions: >-
      FLAG any non-solicitation clause longer than a year
    generate_summary: false
  - { name: Law, actions: ACCEPT Delaware or New York }
`);
    expect(await read(dir, 'playbooks/more.yaml')).toBe(`# Vendor-side playbooks
kind: Playbook
name: Vendor MSA
description: MSAs we receive from vendors
rules:
  - name: Limitation of liability
    renamed_from:
      - Liability
    actions: CAP at 12 months of fees
---
kind: Playbook
name: DPA
rules:
  - name: Subprocessors
    actions: FLAG new subprocessors
`);
    expect(await read(dir, 'playbooks/side-letters.yaml')).toMatch(/^# yaml-language-server: \$schema=.*playbook\.schema\.json\nkind: Playbook\nname: Side letters\ndescription: Made in the app\nrules: \[\]\n$/);

    await expectNoChanges(cli, dir);
    // Pulled objects are in sync now: the drift report is empty.
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(0);
    expect(drift.stdout).toContain('No drift');
  });

  it('leaves a nested field it did not pull (written as a variable) changed live, while it pulls its neighbour: drift still reports it and apply would not call the revert the files\' change', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'organization.yaml': ORGANIZATION, 'members.yaml': MEMBERS });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editOrganization({ name: 'Acme Legal LLP', default_reviewer_id: await app.userId('qa@acme.example') });

    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('changed live: review.name');
    expect(pulled.stdout).toMatch(/review\.default_reviewer \(organization\.yaml:3\): live value "qa@acme\.example" differs from var\.lead/);
    expect(await read(dir, 'organization.yaml')).toBe(ORGANIZATION.replace('name: Acme Legal,', 'name: Acme Legal LLP,'));

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('review.default_reviewer: "qa@acme.example" → "alice@acme.example"');
    expect(plan.stdout).toContain('· changed live');
    expect(plan.stdout).not.toContain('· changed in files');
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('review.default_reviewer');
    // A second pull still says what it leaves, rather than nothing.
    expect((await cli('pull', '-C', dir)).stdout).toContain('review.default_reviewer');
    // The files keep the variable: apply sets it live again, and the plan is empty after.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a rule made in the app goes in before an anchored rule without writing out what its aliases and merges share', async () => {
    const file = `kind: Playbook
name: Side letters
rules:
  - name: Term
    actions: &shared ACCEPT what was agreed
  - name: Cap
    actions: *shared
  - &base
    name: Law
    actions: ACCEPT Germany
  - <<: *base
    name: Courts
    questions: Which courts?
`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/side.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).createRule('Side letters', { name: 'Extra', actions: 'ACCEPT extra' });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(pulled.stdout).toContain('+ rule "Side letters/Extra" (playbooks/side.yaml) · only live');
    const after = await read(dir, 'playbooks/side.yaml');
    expect(after.replace('  - name: Extra\n    actions: ACCEPT extra\n', '')).toBe(file);
    await expectNoChanges(cli, dir);
  });
  it('a summary turned on in the app is written `generate_summary: true` where the file states the key: through a merge, or in a placeholder it reports', async () => {
    const file = `kind: Playbook
name: Summaries
rules:
  - &base
    name: R1
    actions: ACCEPT r1
    generate_summary: false
  - <<: *base
    name: R2
  - name: R3
    actions: ACCEPT r3
    generate_summary: \${var.gs}
`;
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  gs: "false"\n`, 'playbooks/summaries.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('Summaries', 'R2', { generate_summary: true });
    await app.editRule('Summaries', 'R3', { generate_summary: true });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(pulled.stdout).toContain('rule "Summaries/R3" generate_summary (playbooks/summaries.yaml:12): live value true differs from var.gs; change the variable or the environment');
    expect(await read(dir, 'playbooks/summaries.yaml')).toBe(file.replace('    name: R2\n', '    name: R2\n    generate_summary: true\n'));
    await writeFile(join(dir, 'docket.yaml'), `${DOCKET}  gs: "true"\n`);
    await expectNoChanges(cli, dir);
  });

  it('writes no renamed_from for a rename a ${var} in the name holds back', async () => {
    const file = 'kind: Playbook\nname: Regional\nrules:\n  - name: three ${var.suffix}\n    actions: ACCEPT three\n';
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  suffix: (EU)\n`, 'playbooks/regional.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Regional', 'three (EU)', { name: 'three (UK)' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('live value "three (UK)" differs from var.suffix; change the variable or the environment');
    expect(await read(dir, 'playbooks/regional.yaml')).toBe(file);
    // The variable set to what live holds: nothing left to change.
    await writeFile(join(dir, 'docket.yaml'), `${DOCKET}  suffix: (UK)\n`);
    await expectNoChanges(cli, dir);
  });

  it('writes a description added in the app before the rules, also where the file writes its name after them (probe OH-4)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/late.yaml': 'kind: Playbook\nrules:\n  - name: a\n    actions: x\nname: Name Last\n' });
    await applyOk(cli, dir);
    await new App(emulator().env).editPlaybook('Name Last', { description: 'added in the app' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'playbooks/late.yaml')).toBe('kind: Playbook\ndescription: added in the app\nrules:\n  - name: a\n    actions: x\nname: Name Last\n');
    await expectNoChanges(cli, dir);
  });

  it('reads a literal $${ beside a ${var} as the text it writes: a new value of the variable is the variable\'s to change, and once changed nothing is left to pull (probe HT-1)', async () => {
    const file = 'kind: Playbook\nname: Escalation\ndescription: "Escalate $${x} and $${env.HOME} to ${var.lead}"\nrules: []\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/escalation.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).editPlaybook('Escalation', { description: 'Escalate ${x} and ${env.HOME} to bob@acme.example' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('playbook "Escalation" description (playbooks/escalation.yaml:3): live value "Escalate ${x} and ${env.HOME} to bob@acme.example" differs from var.lead; change the variable or the environment\n');
    expect(await read(dir, 'playbooks/escalation.yaml')).toBe(file);
    await writeFile(join(dir, 'docket.yaml'), DOCKET.replace('alice@', 'bob@'));
    const again = await cli('pull', '-C', dir);
    expect([again.code, again.stdout]).toEqual([0, expect.not.stringContaining('Not pulled')]);
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stderr]).toEqual([0, '']);
    await expectNoChanges(cli, dir);
  });

  it('says a variable\'s value is read as the files are when the live value it should give holds `${` (probe HV-9)', async () => {
    const file = 'kind: Playbook\nname: Prices\nrules:\n  - name: Price\n    actions: Price ${var.lead}\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/prices.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Prices', 'Price', { actions: 'Price ${amount}' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('live value "Price ${amount}" differs from var.lead; change the variable or the environment (a variable\'s value is read as the files are: write each `${` of it as `$${`)');
    await writeFile(join(dir, 'docket.yaml'), DOCKET.replace('alice@acme.example', () => '"$${amount}"'));
    await expectNoChanges(cli, dir);
    // An environment variable's value is taken as it is: no such note (probe HY-1).
    const withEnv = cliWith(() => ({ ...emulator().env, PRICE: 'ten' }));
    await writeFile(join(dir, 'playbooks/prices.yaml'), file.replace('${var.lead}', '${env.PRICE}'));
    await applyOk(withEnv, dir);
    await new App(emulator().env).editRule('Prices', 'Price', { actions: 'Price ${fee}' });
    expect((await withEnv('pull', '-C', dir)).stdout).toContain('live value "Price ${fee}" differs from env.PRICE; change the variable or the environment\n');
    // Set to live's text as it is, the environment variable gives what live holds.
    await expectNoChanges(cliWith(() => ({ ...emulator().env, PRICE: '${fee}' })), dir);
  });

  it('writes a value edited in the app over one written with a type tag (`!!null null`), the tag taken off, and the other edits of the file with it (probe HT-2)', async () => {
    const file = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT up to 3 years\n    questions: !!null null\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/nda.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('NDA', 'Term', { questions: 'What is the term?' });
    await app.editPlaybook('NDA', { name: 'NDA inbound' });
    const pulled = await cli('pull', '-C', dir);
    expect([pulled.code, pulled.stderr, pulled.stdout]).toEqual([0, '', expect.not.stringContaining('Not pulled')]);
    expect(await read(dir, 'playbooks/nda.yaml')).toBe('kind: Playbook\nname: NDA inbound\nrenamed_from:\n  - NDA\nrules:\n  - name: Term\n    actions: ACCEPT up to 3 years\n    questions: What is the term?\n');
    await expectNoChanges(cli, dir);
  });

  it('says an edit of the text around a ${var} is the file\'s to make by hand, not the variable\'s', async () => {
    const file = 'kind: Playbook\nname: Terms\nrules:\n  - name: Term\n    actions: |\n      ACCEPT ${var.suffix} years\n      COUNTERPROPOSE 1 year\n';
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  suffix: "3"\n`, 'playbooks/terms.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Terms', 'Term', { actions: 'ACCEPT 3 years\nCOUNTERPROPOSE 2 years\n' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('rule "Terms/Term" actions (playbooks/terms.yaml:5): live value "ACCEPT 3 years\\nCOUNTERPROPOSE 2 years" differs in the text around var.suffix, which no value of it gives; edit the file by hand');
    expect(await read(dir, 'playbooks/terms.yaml')).toBe(file);
    // Nor does drift send the user to pull for it: pull would write nothing (probe IB-3).
    for (const output of ['text', 'markdown']) {
      const drift = await cli('drift', '-C', dir, '--target', 'playbook/Terms', '-o', output);
      expect(drift.code).toBe(2);
      expect(drift.stdout).not.toContain(`docket pull -C ${dir}\` writes`);
      expect(drift.stdout).not.toContain(`Run \`docket pull -C ${dir}\``);
    }
    expect((await cli('drift', '-C', dir, '--target', 'playbook/Terms')).stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
  });

  it('leaves a rule a ${var} holds back as written while rules above it are added and removed', async () => {
    const file = 'kind: Playbook\nname: Shifted\nrules:\n  - name: one\n    actions: ACCEPT one\n  - name: two\n    actions: ACCEPT ${var.suffix}\n';
    const dir = await makeDir({ 'docket.yaml': `${DOCKET}  suffix: (EU)\n`, 'playbooks/shifted.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.deleteRule('Shifted', 'one');
    await app.createRule('Shifted', { name: 'zero', actions: 'ACCEPT zero' });
    await app.editRule('Shifted', 'two', { actions: 'ACCEPT NEW' });
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/Shifted');
    expect(pulled.stdout).toContain('rule "Shifted/two" actions (playbooks/shifted.yaml:7): live value "ACCEPT NEW" differs from var.suffix; change the variable or the environment');
    const written = parseYaml(await read(dir, 'playbooks/shifted.yaml')) as { rules: { name: string; actions: string }[] };
    expect(written.rules).toEqual(expect.arrayContaining([{ name: 'zero', actions: 'ACCEPT zero' }, { name: 'two', actions: 'ACCEPT ${var.suffix}' }]));
    expect(written.rules.map((r) => r.name)).not.toContain('one');
    // The held rule put back as the files say: nothing left to change.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('drift sends the user to pull for a rename in the app that pull writes, beside an edit of the same rule it refuses, and pull writes the rename (second read)', async () => {
    const nda = 'kind: Playbook\nname: Kilo\nrules:\n  - name: Term\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/kilo.yaml': nda });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Kilo', 'Term', { name: 'Term 2', actions: 'ACCEPT x\u000bpasted' });
    const drift = await cli('drift', '-C', dir, '--target', 'playbook/Kilo');
    expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining(`\`docket pull -C ${dir}\` writes it into the files`)]);
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/Kilo');
    expect(pulled.stdout).toContain('holds the control character U+000B');
    expect(await read(dir, 'playbooks/kilo.yaml')).toContain('name: Term 2\n');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('writes no value docket would refuse in the files (text pasted into the app with control characters), and says why', async () => {
    const nda = 'kind: Playbook\nname: Paste\nrules:\n  - name: Term\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/paste.yaml': nda });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('Paste', 'Term', { actions: 'ACCEPT x\u000bpasted from Word\u000c page' });
    await app.createPlaybook({ name: 'Evil\r\n::error title=x::injected' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('rule "Paste/Term" actions (playbooks/paste.yaml:5): `actions` holds the control character U+000B');
    expect(pulled.stdout).toContain('must be one line, without tabs or line breaks');
    expect(pulled.stdout).toContain('which docket refuses in the files; change it in the app, then pull again');
    expect(await readFile(join(dir, 'playbooks/paste.yaml'), 'utf8')).toBe(nda);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    // apply puts the files' text back; the playbook made in the app stays undeclared.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('writes no API key someone pasted into the app into the files, where it would be committed, and says why', async () => {
    const nda = 'kind: Playbook\nname: Keyed\nrules:\n  - name: Term\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/keyed.yaml': nda });
    await applyOk(cli, dir);
    const key = SECRET;
    const app = new App(emulator().env);
    await app.editRule('Keyed', 'Term', { actions: `use token ${key} now` });
    await app.createRule('Keyed', { name: 'Token', actions: 'ACCEPT', description: `key: ${key}` });
    const pulled = await runCli(['pull', '-C', dir], { env: { ...emulator().env, DOCKET_API_KEY: key } });
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('rule "Keyed/Term" actions (playbooks/keyed.yaml:5): its actions holds the value of an API key, which docket never writes into the files');
    expect(pulled.stdout).toContain('its description holds the value of an API key');
    expect(pulled.stdout + pulled.stderr).not.toContain(key);
    expect(await readFile(join(dir, 'playbooks/keyed.yaml'), 'utf8')).toBe(nda);
    // Nor does drift send the user to pull for them (probe HB).
    const drift = await runCli(['drift', '-C', dir, '--target', 'playbook/Keyed'], { env: { ...emulator().env, DOCKET_API_KEY: key } });
    expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining(`\`docket pull -C ${dir}\` leaves it; \`docket apply -C ${dir}\` reverts`)]);
    expect(drift.stdout).not.toContain(`Run \`docket pull -C ${dir}\``);
    await app.deleteRule('Keyed', 'Token');
    // A playbook whose name is the key as file names write it: its new file would carry it (probe EX).
    await app.createPlaybook({ name: SECRET.toUpperCase().replaceAll('-', ' ') });
    const named = await runCli(['pull', '-C', dir], { env: { ...emulator().env, DOCKET_API_KEY: key } });
    expect(named.code).toBe(0);
    expect(named.stdout).toContain('its name, written as a file name, holds the value of an API key, which docket never writes into the files');
    const keyNamed = await runCli(['drift', '-C', dir, '--target', `playbook/${SECRET.toUpperCase().replaceAll('-', ' ')}`], { env: { ...emulator().env, DOCKET_API_KEY: key } });
    expect([keyNamed.code, keyNamed.stdout]).toEqual([2, expect.stringContaining(`\`docket pull -C ${dir}\` leaves it`)]);
    // (The other playbooks of the emulator this file's tests share are written as they are.)
    expect((await readdir(join(dir, 'playbooks'))).filter((f) => f.includes('7f3a9c21'))).toEqual([]);
    await app.archivePlaybook(SECRET.toUpperCase().replaceAll('-', ' '));
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('writes no piece of an API key that output hides (16 characters of it) into the files either: a value, a rule\'s name, a file name (probe RB-1)', async () => {
    const nda = 'kind: Playbook\nname: Pieces\nrules:\n  - name: Term\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/pieces.yaml': nda });
    await applyOk(cli, dir);
    const env = { ...emulator().env, DOCKET_API_KEY: SECRET };
    const piece = SECRET.slice(3); // 'live-7f3a9c21d0e4': 17 characters, which output writes [redacted]
    const app = new App(emulator().env);
    await app.editRule('Pieces', 'Term', { actions: `token ${piece} now` });
    await app.createRule('Pieces', { name: `Rule ${piece.toUpperCase()}`, actions: 'ACCEPT' });
    // Its name is no piece (a space where the key has `-`); its file name would be `live-7f3a9c21d0e4-ops.yaml`.
    await app.createPlaybook({ name: `Live 7f3a9c21d0e4 ops` });
    const pulled = await runCli(['pull', '-C', dir], { env });
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('rule "Pieces/Term" actions (playbooks/pieces.yaml:5): its actions holds the value of an API key, which docket never writes into the files');
    expect(pulled.stdout).toContain('its name holds the value of an API key');
    expect(pulled.stdout).toContain('its name, written as a file name, holds the value of an API key');
    // The piece is not printed either; the playbook's own name is no piece, and is.
    expect(pulled.stdout + pulled.stderr).not.toMatch(/live-7f3a9c21d0e4/i);
    expect(await readFile(join(dir, 'playbooks/pieces.yaml'), 'utf8')).toBe(nda);
    expect((await readdir(join(dir, 'playbooks'))).filter((f) => f.includes('7f3a9c21'))).toEqual([]);
    // Nor does drift send the user to pull for them.
    const drift = await runCli(['drift', '-C', dir, '--target', 'playbook/Pieces'], { env });
    expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining(`\`docket pull -C ${dir}\` leaves it`)]);
    expect(drift.stdout).not.toContain(`Run \`docket pull -C ${dir}\``);
    await app.archivePlaybook('Live 7f3a9c21d0e4 ops');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('keeps what the files changed since the last sync of an object removed in the app: a rule deleted, a playbook archived, each with edits not applied yet', async () => {
    // Names of their own: the emulator is shared by the tests of this file.
    const nda = NDA.replace('name: Inbound NDA', 'name: Kept NDA');
    // A second rule the files did not change: pull leaves it in the files with its playbook all the same.
    const msa = MORE.replace('name: Vendor MSA', 'name: Kept MSA').replace('name: DPA', 'name: Kept DPA').replace('    actions: CAP at 12 months of fees\n', '    actions: CAP at 12 months of fees\n  - name: Renewal\n    actions: ACCEPT one year\n');
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/more.yaml': msa, 'playbooks/nda.yaml': nda });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    // Edited in the files, not applied; meanwhile removed in the app.
    const edited = (await read(dir, 'playbooks/nda.yaml')).replace('up to 3 years', 'up to 9 years');
    await writeFile(join(dir, 'playbooks/nda.yaml'), edited);
    await app.deleteRule('Kept NDA', 'Term');
    // A rule of the same playbook deleted in the app and not edited in the files goes, as always.
    await app.deleteRule('Kept NDA', 'Law');
    const more = (await read(dir, 'playbooks/more.yaml')).replace('CAP at 12 months', 'CAP at 24 months');
    await writeFile(join(dir, 'playbooks/more.yaml'), more);
    await app.archivePlaybook('Kept MSA');

    // Drift says so too: not that pull writes them, and the files' edits pending.
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout) as { drift: { key: string; edited_in_files?: boolean }[]; pending: { key: string; fields: { field: string }[] }[] };
    expect(report.drift.map((i) => [i.key, i.edited_in_files ?? false])).toEqual(expect.arrayContaining([['Kept NDA/Term', true], ['Kept MSA', true], ['Kept MSA/Renewal', true], ['Kept NDA/Law', false]]));
    expect(report.pending.map((i) => [i.key, i.fields.map((f) => f.field)])).toEqual(expect.arrayContaining([['Kept NDA/Term', ['actions']], ['Kept MSA/Liability', ['actions']]]));
    const text = await cli('drift', '-C', dir);
    expect(text.stdout).toContain(`Of these, 4 removed live stay in the files, which changed them (or what they belong with) since the last sync: pull leaves them; \`docket apply -C ${dir}\` creates them again as the files say, or remove them from the files by hand.`);
    expect(text.stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files`); // Kept NDA/Law: removed live, edited nowhere

    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(await read(dir, 'playbooks/nda.yaml')).toBe(edited.replace('  - { name: Law, actions: ACCEPT Delaware }\n', ''));
    expect(await read(dir, 'playbooks/more.yaml')).toBe(more);
    expect(pulled.stdout).toContain(
      'rule "Kept NDA/Term" actions (playbooks/nda.yaml:7): removed live, but the files changed it since the last sync: apply creates it again as they say, or remove it from the files by hand',
    );
    expect(pulled.stdout).toContain('playbook "Kept MSA" (playbooks/more.yaml:2): removed live, but the files changed what it holds since the last sync (rule "Kept MSA/Liability"): apply creates');
    // Apply puts them back as the files say.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('keeps a playbook archived in the app whose rule or own field the files changed, or that they added a rule to, also under a --target of another of its rules', async () => {
    const file = 'kind: Playbook\nname: Beta\ndescription: beta\nrules:\n  - { name: b1, actions: ACCEPT one }\n  - { name: b2, actions: ACCEPT two }\n  - { name: b3, actions: ACCEPT three }\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/beta.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).archivePlaybook('Beta');
    const marked = async (...args: string[]): Promise<[string, boolean][]> =>
      // The emulator is shared by the tests of this file: their playbooks are only live here.
      (JSON.parse((await cli('drift', '-C', dir, '-o', 'json', ...args)).stdout) as { drift: { key: string; edited_in_files?: boolean }[] }).drift.filter((i) => i.key.startsWith('Beta')).map((i) => [i.key, i.edited_in_files ?? false]);
    // A rule added in the files is such a change too: it has no record to compare with (probe LK-1).
    const added = file.replace('  - { name: b3, actions: ACCEPT three }\n', '  - { name: b3, actions: ACCEPT three }\n  - { name: b4, actions: ACCEPT four }\n');
    for (const edited of [file.replace('ACCEPT one', 'ACCEPT one edited'), file.replace('description: beta', 'description: beta edited'), added]) {
      await writeFile(join(dir, 'playbooks/beta.yaml'), edited);
      const all = [['Beta', true], ['Beta/b1', true], ['Beta/b2', true], ['Beta/b3', true]];
      expect((await marked()).sort()).toEqual(all);
      expect(await marked('--target', 'rule/Beta/b2')).toEqual(expect.arrayContaining([['Beta/b2', true]]));
      const pulled = await cli('pull', '-C', dir, '--target', 'rule/Beta/b3');
      expect(pulled.code, pulled.stderr).toBe(0);
      expect(await read(dir, 'playbooks/beta.yaml')).toBe(edited);
      expect((await cli('drift', '-C', dir, '--target', 'playbook/Beta')).stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
    }
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('says, in plan, drift and pull, that a rule removed from the files was edited in the app since the last sync', async () => {
    const file = (rules: string): string => `kind: Playbook\nname: Gone Rules\nrules:\n  - name: Term\n    actions: ACCEPT\n${rules}`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/gone.yaml': file('  - name: Gamma\n    actions: FLAG\n') });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/gone.yaml'), file(''));
    const warning = 'rule "Gone Rules/Gamma" is removed from the files, and its actions changed live since the last sync';
    // Not edited live: a removal like any other.
    expect((await cli('plan', '-C', dir)).stdout).not.toContain('changed live since');
    await new App(emulator().env).editRule('Gone Rules', 'Gamma', { actions: 'FLAG, edited in the app' });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain(`${warning}: applying deletes it with that edit; to keep the edit, put it back in the files`);
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    expect(drift.code).toBe(2);
    // (Other tests' playbooks share this emulator: they are only live here.)
    expect(JSON.parse(drift.stdout).drift.filter((d: { key: string }) => d.key.startsWith('Gone Rules'))).toEqual([expect.objectContaining({ key: 'Gone Rules/Gamma', direction: 'changed-both', fields: [{ field: 'actions', direction: 'live' }] })]);
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('removed from the files and changed live since the last sync: keep one by hand');
    expect(await read(dir, 'playbooks/gone.yaml')).toBe(file(''));
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('reports and pulls a default reviewer set in the app where the files say none, which no apply can clear (second read)', async () => {
    const own = await startTestEmulator();
    const ownCli = cliWith(() => own.env);
    try {
      const organization = 'kind: Organization\nreview:\n  name: Acme\n  default_reviewer: null\n';
      const dir = await makeDir({ 'docket.yaml': DOCKET, 'organization.yaml': organization });
      await applyOk(ownCli, dir);
      const app = new App(own.env);
      await app.editOrganization({ default_reviewer_id: await app.userId('alice@acme.example') });
      const drift = await ownCli('drift', '-C', dir);
      expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining('~ organization (organization.yaml:4): review.default_reviewer')]);
      expect(drift.stderr).toContain('Warning: `review.default_reviewer` is empty, but the review service cannot clear');
      const pulled = await ownCli('pull', '-C', dir);
      expect(pulled.code).toBe(0);
      expect(await read(dir, 'organization.yaml')).toBe(organization.replace('default_reviewer: null', 'default_reviewer: alice@acme.example'));
      await expectNoChanges(ownCli, dir);
    } finally {
      await own.emulator.close();
    }
  });

  it('pull says the same of a rule edited in the app in a playbook the files removed (prune archives it)', async () => {
    // An emulator of its own: pruning would archive the playbooks of the other tests.
    const own = await startTestEmulator();
    const ownCli = cliWith(() => own.env);
    try {
      const dir = await makeDir({ 'docket.yaml': `${DOCKET}prune:\n  playbooks: true\n`, 'playbooks/pruned.yaml': 'kind: Playbook\nname: Pruned Rules\nrules:\n  - name: Renewal\n    actions: FLAG\n' });
      await applyOk(ownCli, dir);
      await rm(join(dir, 'playbooks/pruned.yaml'));
      await new App(own.env).editRule('Pruned Rules', 'Renewal', { actions: 'FLAG, edited in the app' });
      const pulled = await ownCli('pull', '-C', dir, '-o', 'json');
      expect(JSON.parse(pulled.stdout).not_pulled).toEqual([
        expect.objectContaining({ key: 'Pruned Rules/Renewal', fields: ['actions'], reason: 'its playbook is removed from the files, and it changed live since the last sync: keep one by hand (to keep the live edit, put the playbook back in the files)' }),
      ]);
      await applyOk(ownCli, dir);
      await expectNoChanges(ownCli, dir);
    } finally {
      await own.emulator.close();
    }
  });

  it('with prune off, drift and pull say the same of a playbook the files dropped, and of its rules, edited in the app', async () => {
    const file = 'kind: Playbook\nname: Dropped Rules\ndescription: Before\nrules:\n  - name: Renewal\n    actions: FLAG\n';
    // Another playbook stays declared: playbooks are read.
    const kept = 'kind: Playbook\nname: Kept Beside\nrules: []\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/dropped.yaml': file, 'playbooks/kept.yaml': kept });
    await applyOk(cli, dir);
    await rm(join(dir, 'playbooks/dropped.yaml'));
    const app = new App(emulator().env);
    await app.editPlaybook('Dropped Rules', { description: 'Edited in the app' });
    await app.editRule('Dropped Rules', 'Renewal', { actions: 'FLAG, edited in the app' });
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    expect(drift.code).toBe(2);
    expect(JSON.parse(drift.stdout).drift.filter((d: { key: string }) => d.key.startsWith('Dropped Rules'))).toEqual([
      expect.objectContaining({ key: 'Dropped Rules', direction: 'changed-both', fields: [{ field: 'description', direction: 'live' }] }),
      expect.objectContaining({ key: 'Dropped Rules/Renewal', direction: 'changed-both', fields: [{ field: 'actions', direction: 'live' }] }),
    ]);
    const pulled = await cli('pull', '-C', dir, '-o', 'json');
    expect(JSON.parse(pulled.stdout).not_pulled.filter((p: { key: string }) => p.key.startsWith('Dropped Rules'))).toEqual([
      expect.objectContaining({ key: 'Dropped Rules', fields: ['description'], reason: 'removed from the files and changed live since the last sync: keep one by hand (to keep the live edit, put it back in the files)' }),
      expect.objectContaining({ key: 'Dropped Rules/Renewal', fields: ['actions'], reason: 'its playbook is removed from the files, and it changed live since the last sync: keep one by hand (to keep the live edit, put the playbook back in the files)' }),
    ]);
    // A target naming the rule finds it too (pull reads the rules of every live playbook).
    const targeted = await cli('pull', '-C', dir, '--dry-run', '-o', 'json', '--target', 'rule/Dropped Rules/Renewal');
    expect(JSON.parse(targeted.stdout).not_pulled).toEqual(expect.arrayContaining([expect.objectContaining({ key: 'Dropped Rules/Renewal', fields: ['actions'] })]));
    // Put back, as the reason says: the files take the live edit by pull, and nothing is left to do.
    await writeFile(join(dir, 'playbooks/dropped.yaml'), file);
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'playbooks/dropped.yaml')).toContain('description: Edited in the app');
    await expectNoChanges(cli, dir);
  });

  it('a rule the files removed that the app deleted and made again under its name is only live: drift reports it, and the plan says so of its delete', async () => {
    const file = (rules: string) => `kind: Playbook\nname: Remade Rules\nrules:\n  - name: A1\n    actions: ACCEPT a1\n${rules}`;
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/remade.yaml': file('  - name: A2\n    actions: ACCEPT a2\n') });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/remade.yaml'), file(''));
    const app = new App(emulator().env);
    await app.deleteRule('Remade Rules', 'A2');
    await app.createRule('Remade Rules', { name: 'A2', actions: 'ACCEPT a2, made again in the app' });
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    expect(drift.code).toBe(2);
    expect(JSON.parse(drift.stdout).drift.filter((d: { key: string }) => d.key.startsWith('Remade Rules'))).toEqual([expect.objectContaining({ key: 'Remade Rules/A2', direction: 'only-live' })]);
    expect((await cli('plan', '-C', dir)).stdout).toContain('- delete rule "Remade Rules/A2" (permanent) (playbooks/remade.yaml:3) · only live');
  });

  it('a playbook made in the app under the name of one the files dropped is a new object, not the dropped one edited', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/kept.yaml': 'kind: Playbook\nname: Kept Too\nrules: []\n', 'playbooks/gamma.yaml': 'kind: Playbook\nname: Gamma Again\ndescription: Before\nrules: []\n' });
    await applyOk(cli, dir);
    await rm(join(dir, 'playbooks/gamma.yaml'));
    const app = new App(emulator().env);
    await app.archivePlaybook('Gamma Again');
    await app.createPlaybook({ name: 'Gamma Again', description: 'New in the app' });
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    expect(JSON.parse(drift.stdout).drift.filter((d: { key: string }) => d.key === 'Gamma Again')).toEqual([expect.objectContaining({ direction: 'only-live', fields: [] })]);
  });

  it('a rule edited in the app in a playbook the files dropped: drift reports it, and a plan that prunes warns the archive takes it', async () => {
    // An emulator of its own: pruning would archive the playbooks of the other tests.
    const own = await startTestEmulator();
    const ownCli = cliWith(() => own.env);
    try {
      const kept = 'kind: Playbook\nname: Kept\nrules: []\n';
      const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/kept.yaml': kept, 'playbooks/beta.yaml': 'kind: Playbook\nname: Beta\nrules:\n  - name: B1\n    actions: ACCEPT b1\n' });
      await applyOk(ownCli, dir);
      await rm(join(dir, 'playbooks/beta.yaml'));
      const app = new App(own.env);
      await app.editRule('Beta', 'B1', { actions: 'ACCEPT b1, edited in the app' });
      await app.createRule('Beta', { name: 'B2', actions: 'ACCEPT b2, made in the app' });
      await app.editPlaybook('Beta', { description: 'Edited in the app' });
      const drift = await ownCli('drift', '-C', dir, '-o', 'json');
      expect(drift.code).toBe(2);
      expect(JSON.parse(drift.stdout).drift).toEqual([
        expect.objectContaining({ key: 'Beta', direction: 'changed-both', fields: [{ field: 'description', direction: 'live' }] }),
        expect.objectContaining({ key: 'Beta/B1', direction: 'changed-both', fields: [{ field: 'actions', direction: 'live' }] }),
        expect.objectContaining({ key: 'Beta/B2', direction: 'only-live', fields: [] }),
      ]);
      const text = await ownCli('drift', '-C', dir);
      expect(text.stdout).toContain('Of these, 3 are live work in objects the files removed, which pull leaves for you to settle');
      expect(JSON.parse(drift.stdout).drift.every((d: { removed_in_files?: boolean }) => d.removed_in_files === true)).toBe(true);
      // A target names one rule of it, as drift lists them.
      const one = await ownCli('drift', '-C', dir, '-o', 'json', '--target', 'rule/Beta/B1');
      expect(JSON.parse(one.stdout).drift.map((d: { key: string }) => d.key)).toEqual(['Beta/B1']);
      expect(JSON.parse(one.stdout).pending).toEqual([]);
      const pullOne = await ownCli('pull', '-C', dir, '--dry-run', '-o', 'json', '--target', 'rule/Beta/B1');
      expect(JSON.parse(pullOne.stdout).not_pulled.map((p: { key: string }) => p.key)).toEqual(['Beta/B1']);
      const pruning = await ownCli('plan', '-C', dir, '--prune');
      expect(pruning.stdout).toContain('playbook "Beta" is removed from the files, and its rule "B1": actions changed live since the last sync: applying archives it with that edit; to keep the edit, put the playbook back in the files');
      expect(pruning.stdout).toContain('playbook "Beta" is removed from the files, and its rule "B2" is in no sync record (made in the app since the last sync, or never recorded): applying archives it with the playbook; to keep the rule, put the playbook back in the files');
      // Without prune nothing is archived, so nothing is said, and no rule is read that the plan does not need.
      const plain = await ownCli('plan', '-C', dir, '-v');
      expect(plain.stdout).not.toContain('changed live since the last sync');
      const org = own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!;
      const beta = Object.values(org.playbooks).find((p) => p.name === 'Beta')!;
      expect(`${plain.stdout}${plain.stderr}`).toContain('/playbook_rules');
      expect(`${plain.stdout}${plain.stderr}`).not.toContain(`playbooks/${beta.id}/playbook_rules`);
      await applyOk(ownCli, dir, '--prune');
      await expectNoChanges(ownCli, dir);
    } finally {
      await own.emulator.close();
    }
  });

  it('writes text typed in the app with `${` literally (`$${`): it is never read back as a variable or the environment', async () => {
    const file = 'kind: Playbook\nname: Literal\nrules:\n  - name: Fee\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/literal.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('Literal', 'Fee', { actions: 'Pay ${var.lead} and ${env.HOME}', description: 'cost is $${x}' });
    await app.createRule('Literal', { name: 'Cap ${nope}', actions: 'ACCEPT' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    const written = await read(dir, 'playbooks/literal.yaml');
    expect(written).toContain('actions: Pay $${var.lead} and $${env.HOME}');
    expect(written).toContain('description: cost is $$${x}');
    expect(written).toContain('name: Cap $${nope}');
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('says a field changed on both sides at its own line, not at the object\'s first changed field (probe ER)', async () => {
    const file = 'kind: Playbook\nname: Lines\nrules:\n  - name: R\n    description: d\n    actions: ACCEPT\n    internal_notes: n\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/lines.yaml': file });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/lines.yaml'), file.replace('internal_notes: n', 'internal_notes: files'));
    await new App(emulator().env).editRule('Lines', 'R', { description: 'app d', internal_notes: 'app n' });
    const dry = await cli('pull', '-C', dir, '--dry-run');
    expect(dry.stdout).toContain('rule "Lines/R" internal_notes (playbooks/lines.yaml:7): changed live and in the files since the last sync: keep one by hand');
    // The files kept: apply makes live match them.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('does not write a name made in the app that looks like one the files declare (a trailing space, a zero-width character), and says why', async () => {
    const file = 'kind: Playbook\nname: Alike\nrules:\n  - name: T1\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/alike.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.createRule('Alike', { name: 'T1 ', actions: 'ACCEPT too' });
    await app.createPlaybook({ name: 'Al\u200bike' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('its name "T1 " looks like rule "T1", which the files declare');
    expect(pulled.stdout).toContain('looks like playbook "Alike", which the files declare');
    expect(await read(dir, 'playbooks/alike.yaml')).toBe(file);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
  });

  it('does not write a rename made in the app onto a name that differs from a declared one only in what output hides (a URL\'s query), and says why (probe ER)', async () => {
    const file = 'kind: Playbook\nname: Links\nrules:\n  - name: Link https://ex.example/x?y=1\n    actions: ACCEPT\n  - name: Other\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/links.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Links', 'Other', { name: 'Link https://ex.example/x?y=2' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('its name "Link https://ex.example/x?…" looks like rule "Link https://ex.example/x?…", which the files declare (they differ only in what output hides as it may hold a secret');
    expect(pulled.stdout).not.toContain('y=2');
    expect(await read(dir, 'playbooks/links.yaml')).toBe(file);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    // Nor does drift send the user to pull for it; but it does for another field edited with it (probe GO).
    expect((await cli('drift', '-C', dir, '--target', 'playbook/Links')).stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
    await new App(emulator().env).editRule('Links', 'Link https://ex.example/x?y=2', { actions: 'FLAG' });
    expect((await cli('drift', '-C', dir, '--target', 'playbook/Links')).stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files`);
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'playbooks/links.yaml')).toBe(file.replace('name: Other\n    actions: ACCEPT', 'name: Other\n    actions: FLAG'));
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('records as in sync what the files already hold live (a pull killed after writing them, run again): the next edit in the app is the app\'s alone', async () => {
    const vendor = 'kind: Playbook\nname: Vendor MSA\nrules:\n  - name: Liability\n    actions: CAP at 12 months of fees\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/vendor.yaml': vendor });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('Vendor MSA', 'Liability', { actions: 'CAP at 18 months of fees' });
    // As a pull killed after its write of this file, before its records: the file says what live does.
    await writeFile(join(dir, 'playbooks/vendor.yaml'), vendor.replace('12 months', '18 months'));
    const again = await cli('pull', '-C', dir);
    expect([again.code, again.stderr]).toEqual([0, '']);
    await app.editRule('Vendor MSA', 'Liability', { actions: 'CAP at 24 months of fees' });
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).toContain('Changed live (1)');
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('~ rule "Vendor MSA/Liability" (playbooks/vendor.yaml) · changed live: actions');
    expect(await read(dir, 'playbooks/vendor.yaml')).toBe(vendor.replace('12 months', '24 months'));
    await expectNoChanges(cli, dir);
  });

  it('forgets the records of a playbook it removed when a pull was killed before writing them: declared again, it is new in the files, not removed live', async () => {
    const gone = 'kind: Playbook\nname: Gone MSA\nrules:\n  - name: Liability\n    actions: CAP at 12 months of fees\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/gone.yaml': gone, 'playbooks/kept.yaml': 'kind: Playbook\nname: Kept MSA\nrules: []\n' });
    await applyOk(cli, dir);
    await new App(emulator().env).archivePlaybook('Gone MSA');
    // As a pull killed after removing the file, before its records.
    await rm(join(dir, 'playbooks/gone.yaml'));
    const again = await cli('pull', '-C', dir);
    expect([again.code, again.stderr]).toEqual([0, '']);
    await writeFile(join(dir, 'playbooks/gone.yaml'), gone);
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ create playbook "Gone MSA" (playbooks/gone.yaml:1) · only in files');
    expect(plan.stdout).not.toContain('removed live');
    // (Other tests of this file share the emulator: only this playbook is looked at.)
    expect((await cli('drift', '-C', dir, '--target', 'playbook/Gone MSA')).code).toBe(0);
  });

  it('reads a pinned playbook and a pinned rule archived or deleted in the app as removed live: drift reports it, pull takes them out (probe NY-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/pinned.yaml': 'kind: Playbook\nname: Pinned Gone\nrules:\n  - name: Only\n    actions: ACCEPT\n', 'playbooks/rules.yaml': 'kind: Playbook\nname: Pinned Rules\nrules:\n  - name: Keep\n    actions: ACCEPT\n  - name: Gone\n    actions: REJECT\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    const [playbookId, ruleId] = [await app.playbookId('Pinned Gone'), await app.ruleId('Pinned Rules', 'Gone')];
    await writeFile(join(dir, 'playbooks/pinned.yaml'), `kind: Playbook\nname: Pinned Gone\nid: ${playbookId}\nrules:\n  - name: Only\n    actions: ACCEPT\n`);
    await writeFile(join(dir, 'playbooks/rules.yaml'), `kind: Playbook\nname: Pinned Rules\nrules:\n  - name: Keep\n    actions: ACCEPT\n  - name: Gone\n    id: ${ruleId}\n    actions: REJECT\n`);
    await expectNoChanges(cli, dir);
    await app.archivePlaybook('Pinned Gone');
    await app.deleteRule('Pinned Rules', 'Gone');
    const targets = ['--target', 'playbook/Pinned Gone', '--target', 'playbook/Pinned Rules'];
    const drift = await cli('drift', '-C', dir, ...targets);
    expect([drift.code, drift.stderr]).toEqual([2, '']);
    expect(drift.stdout).toContain('playbook "Pinned Gone"');
    expect(drift.stdout).toContain('rule "Pinned Rules/Gone"');
    // With the pinned playbook's rule, which no apply makes again either (probe OP-3): said on the playbook's line (probe RJ-5), listed in JSON.
    expect(drift.stdout).toMatch(/playbook "Pinned Gone"[^\n]* · with its 1 rule\n/);
    expect(drift.stdout).not.toContain('rule "Pinned Gone/Only"');
    expect((await cli('drift', '-C', dir, ...targets, '-o', 'json')).stdout).toContain('"key": "Pinned Gone/Only"');
    expect(drift.stdout).toContain('removed live');
    // Apply cannot make them again under their ids: drift does not send the user there (second read SR79-3).
    expect(drift.stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files.`);
    expect(drift.stdout).not.toContain('docket apply');
    expect((await cli('drift', '-C', dir, ...targets, '-o', 'json')).stdout).toContain('"pinned": true');
    // A plan cannot make it again under its id: it says why, and what to do.
    const plan = await cli('plan', '-C', dir, ...targets);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`playbooks/pinned.yaml:3:5 error pinned-id-not-found playbook "Pinned Gone" is pinned to id "${playbookId}", which no live playbook has: docket last synced it under this name, and it was archived or deleted in the app since`);
    expect(plan.stderr).toContain('hint: remove the `id:` line to create it anew as the files say, or let `docket pull` take its document out of the files (it leaves one the files changed since, or one another document still names)');
    const pulled = await cli('pull', '-C', dir, ...targets);
    expect(pulled.code).toBe(0);
    await expect(readFile(join(dir, 'playbooks/pinned.yaml'), 'utf8')).rejects.toThrow();
    expect(await read(dir, 'playbooks/rules.yaml')).toBe('kind: Playbook\nname: Pinned Rules\nrules:\n  - name: Keep\n    actions: ACCEPT\n');
    // (Other tests of this file share the emulator: only this playbook is looked at; the other is gone from files and live.)
    expect((await cli('plan', '-C', dir, '--detailed-exitcode', '--target', 'playbook/Pinned Rules')).code).toBe(0);
  });

  it('writes a rule of several lines made in the app into a flow list without a final \\n, and the next plan is empty', async () => {
    const file = 'kind: Playbook\nname: Flow Rules\nrules: [{ name: One, actions: ACCEPT one }]\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/flow.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).createRule('Flow Rules', { name: 'Two', actions: 'ACCEPT a3\nREJECT b3' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'playbooks/flow.yaml')).toBe('kind: Playbook\nname: Flow Rules\nrules: [{ name: One, actions: ACCEPT one }, { name: Two, actions: "ACCEPT a3\\nREJECT b3" }]\n');
    await expectNoChanges(cli, dir);
  });

  it('gives a rule made in the app a line of its own in a flow list written a rule a line, beside one deleted there (probe FN)', async () => {
    const file = 'kind: Playbook\nname: Lined Rules\nrules: [\n  {name: X, actions: ACCEPT x},\n  {name: Y, actions: ACCEPT y},\n]\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/lined.yaml': file });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.createRule('Lined Rules', { name: 'Z', actions: 'ACCEPT z' });
    await app.deleteRule('Lined Rules', 'Y');
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await read(dir, 'playbooks/lined.yaml')).toBe('kind: Playbook\nname: Lined Rules\nrules: [\n  {name: X, actions: ACCEPT x},\n  {name: Z, actions: ACCEPT z},\n]\n');
    await expectNoChanges(cli, dir);
  });

  it('refuses to take most of a kind out of the files (objects removed live past safety.max_delete_fraction) unless --force', async () => {
    const names = ['Guard A', 'Guard B', 'Guard C', 'Guard D', 'Guard E', 'Guard F'];
    const files = Object.fromEntries(names.map((n, i) => [`playbooks/g${i}.yaml`, `kind: Playbook\nname: ${n}\nrules: []\n`]));
    const dir = await makeDir({ 'docket.yaml': DOCKET, ...files });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    for (const n of names.slice(0, 4)) await app.archivePlaybook(n);
    const refused = await cli('pull', '-C', dir, '--target', 'playbook/Guard A', '--target', 'playbook/Guard B', '--target', 'playbook/Guard C', '--target', 'playbook/Guard D', '--target', 'playbook/Guard E', '--target', 'playbook/Guard F');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error: refusing to pull: the pull takes 4 of the 6 playbook objects the files declare out of them (66.7%; removed live), over the safety threshold of 30% (safety.max_delete_fraction)');
    expect(refused.stderr).toContain('run pull again with --force');
    expect(await read(dir, 'playbooks/g0.yaml')).toBe(files['playbooks/g0.yaml']);
    const dry = await cli('pull', '-C', dir, '--dry-run');
    expect(dry.code).toBe(0);
    expect(dry.stderr).toContain('Warning: pull will refuse to write this: the pull takes 4 of the 6 playbook objects');
    // In the markdown report too, which a pull request or a job summary shows without stderr (probe EI-2).
    expect((await cli('pull', '-C', dir, '--dry-run', '-o', 'markdown')).stdout).toContain('> [!WARNING]\n> pull will refuse to write this: the pull takes 4 of the 6 playbook objects');
    // And in -o json, as the plan's guard: a bot reading the dry run knows the pull would refuse (probe JA-3).
    const dryJson = JSON.parse((await cli('pull', '-C', dir, '--dry-run', '-o', 'json')).stdout) as { guard?: unknown };
    expect(dryJson.guard).toEqual([{ kind: 'playbook', removals: 4, live: 6, threshold: 0.3 }]);
    expect(JSON.parse((await cli('pull', '-C', dir, '--dry-run', '-o', 'json', '--force')).stdout)).not.toHaveProperty('guard');
    const forced = await cli('pull', '-C', dir, '--force');
    // It says what it goes past, as apply --force does (probe DS).
    expect([forced.code, forced.stderr]).toEqual([0, expect.stringMatching(/^Warning: the pull takes 4 of the 6 playbook objects .*; --force writes it\n$/)]);
    await expect(read(dir, 'playbooks/g0.yaml')).rejects.toThrow();
    expect(await read(dir, 'playbooks/g5.yaml')).toBe(files['playbooks/g5.yaml']);
    await expectNoChanges(cli, dir);
  });

  it('refuses to take most of one playbook\'s rules out of its file when its rule list is answered empty, under any kind-wide share', async () => {
    const rules = Array.from({ length: 6 }, (_, i) => `  - name: R${i}\n    actions: ACCEPT ${i}\n`).join('');
    const files = { 'playbooks/one.yaml': `kind: Playbook\nname: Guard One\nrules:\n${rules}`, 'playbooks/two.yaml': `kind: Playbook\nname: Guard Two\nrules:\n${rules}`, 'playbooks/three.yaml': `kind: Playbook\nname: Guard Three\nrules:\n${rules}`, 'playbooks/four.yaml': `kind: Playbook\nname: Guard Four\nrules:\n${rules}` };
    const dir = await makeDir({ 'docket.yaml': DOCKET, ...files });
    await applyOk(cli, dir);
    const targets = ['Guard One', 'Guard Two', 'Guard Three', 'Guard Four'].flatMap((n) => ['--target', `playbook/${n}`]);
    // A service in trouble answers one playbook's rule list empty: 6 of 24 rules is 25 %, under the kind's share.
    const org = emulator().emulator.store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!;
    const two = Object.values(org.playbooks).find((p) => p.name === 'Guard Two' && !p.archived_at)!;
    // Twice: an empty answer where docket last saw rules is asked for again.
    emulator().emulator.faults.add({ method: 'GET', path_pattern: `/playbooks/${two.id}/playbook_rules`, status: 'malformed', body: { data: [] }, count: 2 });
    const refused = await cli('pull', '-C', dir, ...targets);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('Error: refusing to pull: the pull takes 6 of the 6 rule objects of playbook "Guard Two" the files declare out of them (100%; removed live)');
    for (const [file, text] of Object.entries(files)) expect(await read(dir, file)).toBe(text);
    await expectNoChanges(cli, dir);
  });

  it('asks again for a rule list answered empty where docket last saw rules: one such answer plans nothing and creates nothing twice', async () => {
    const rules = Array.from({ length: 5 }, (_, i) => `  - name: E${i}\n    actions: ACCEPT ${i}\n`).join('');
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/echo.yaml': `kind: Playbook\nname: Echo\nrules:\n${rules}` });
    await applyOk(cli, dir);
    const org = emulator().emulator.store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!;
    const echo = Object.values(org.playbooks).find((p) => p.name === 'Echo' && !p.archived_at)!;
    const before = Object.keys(org.rules).length;
    emulator().emulator.faults.add({ method: 'GET', path_pattern: `/playbooks/${echo.id}/playbook_rules`, status: 'malformed', body: { data: [] }, count: 1 });
    const applied = await cli('apply', '-C', dir, '--auto-approve', '--target', 'playbook/Echo');
    expect([applied.code, applied.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
    expect(Object.keys(org.rules).length).toBe(before);
    await expectNoChanges(cli, dir);
    // Renamed in the files: still the playbook whose rules the files declare.
    await writeFile(join(dir, 'playbooks/echo.yaml'), `kind: Playbook\nname: Echo Two\nrenamed_from: Echo\nrules:\n${rules}`);
    emulator().emulator.faults.add({ method: 'GET', path_pattern: `/playbooks/${echo.id}/playbook_rules`, status: 'malformed', body: { data: [] }, count: 1 });
    const renamed = await cli('plan', '-C', dir, '--target', 'playbook/Echo Two');
    expect(renamed.stdout).toContain('Plan: 0 to create, 0 to update, 1 to rename, 0 to delete.');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('asks again for the rule list of a playbook made in the app before writing its new file: `rules: []` would delete them on apply (probe EU)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/foxtrot.yaml': 'kind: Playbook\nname: Foxtrot\nrules:\n  - name: F0\n    actions: ACCEPT 0\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    const id = await app.createPlaybook({ name: 'Golf', description: 'Made in the app' });
    await app.createRule('Golf', { name: 'G0', actions: 'ACCEPT g' });
    emulator().emulator.faults.add({ method: 'GET', path_pattern: `/playbooks/${id}/playbook_rules`, status: 'malformed', body: { data: [] }, count: 1 });
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/Golf');
    expect(pulled.code).toBe(0);
    expect(await read(dir, 'playbooks/golf.yaml')).toContain('  - name: G0\n    actions: ACCEPT g\n');
    await expectNoChanges(cli, dir);
  });

  it('keeps the rules of a playbook the files rename onto a name a playbook made in the app holds: they are not removed live, the old playbook keeps them (probe HC)', async () => {
    const renamed = 'kind: Playbook\nname: Hotel 2\nrenamed_from: [Hotel]\nrules:\n  - name: H1\n    actions: ACCEPT one\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'playbooks/hotel.yaml': 'kind: Playbook\nname: Hotel\nrules:\n  - name: H1\n    actions: ACCEPT one\n' });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/hotel.yaml'), renamed);
    await new App(emulator().env).createPlaybook({ name: 'Hotel 2' });
    const plan = await cli('plan', '-C', dir, '--target', 'playbook/Hotel 2');
    expect(plan.stdout).toContain('+ create rule "Hotel 2/H1" (playbooks/hotel.yaml:5) · only in files');
    const drift = await cli('drift', '-C', dir, '--target', 'playbook/Hotel 2');
    expect([drift.code, drift.stdout]).toEqual([0, expect.not.stringContaining('Removed live')]);
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/Hotel 2');
    expect(pulled.code).toBe(0);
    expect(await read(dir, 'playbooks/hotel.yaml')).toBe(renamed);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});

/** Members who leave the organization in the app: their membership and their invitation go (rules keep naming them). */
function leave(t: TestEmulator, ...emails: string[]): void {
  const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
  const ids = new Set(emails.map((e) => t.emulator.store.memberByEmail(org, e)!.id));
  org.members = org.members.filter((m) => !ids.has(m.user_id));
  for (const [id, i] of Object.entries(org.invitations)) if (emails.includes(i.email)) delete org.invitations[id];
}

describe('a reviewer who leaves the organization in the app', () => {
  // An emulator of each test's own: the tests change who is a member.
  let t: TestEmulator;
  beforeEach(async () => {
    t = await startTestEmulator();
  });
  afterEach(async () => {
    await t.emulator.close();
  });
  const run = cliWith(() => t.env);

  it('is drift that pull takes: the default reviewer leaves the file (it cannot be written empty), and neither stops at the reference', async () => {
    const dir = await makeDir({
      'docket.yaml': 'version: 1\n',
      'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Legal\n  default_reviewer: alice@acme.example\n',
      'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT\n    reviewer: alice@acme.example\n',
    });
    await applyOk(run, dir);
    // Alice leaves: the service drops him as the default reviewer and as the rule's reviewer.
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    const alice = t.emulator.store.memberByEmail(org, 'alice@acme.example')!;
    org.members = org.members.filter((m) => m.user_id !== alice.id);
    org.default_reviewer_id = null;
    for (const rule of Object.values(org.rules)) if (rule.reviewer_id === alice.id) rule.reviewer_id = null;

    const drift = await run('drift', '-C', dir);
    expect([drift.code, drift.stderr]).toEqual([2, '']);
    const pulled = await run('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(await readFile(join(dir, 'organization.yaml'), 'utf8')).toBe('kind: Organization\nreview:\n  name: Acme Legal\n');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).not.toContain('alice@acme.example');
    await expectNoChanges(run, dir);
  });

  it('takes a default reviewer cleared in the app out of a review block that held only it, or out of the merge that gave it, as `review: {}` (probes IF-3, IG-2)', async () => {
    // Written `null` beside the merge, it was a plan error as soon as someone was named in the app (IG-2).
    for (const review of ['review:\n  default_reviewer: alice@acme.example\n', 'review:\n  <<: {default_reviewer: alice@acme.example}\n']) {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'organization.yaml': `kind: Organization\n${review}` });
      await applyOk(run, dir);
      const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
      org.default_reviewer_id = null;
      expect((await run('drift', '-C', dir)).stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files`);
      const pulled = await run('pull', '-C', dir);
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      expect(pulled.stdout).not.toContain('could not edit');
      expect(await readFile(join(dir, 'organization.yaml'), 'utf8')).toBe('kind: Organization\nreview: {}\n');
      await expectNoChanges(run, dir);
      // Someone named in the app later is theirs: the files no longer say none.
      org.default_reviewer_id = t.emulator.store.memberByEmail(org, 'alice@acme.example')!.id;
      await expectNoChanges(run, dir);
    }
  });

  it('says a variable a merge key gives other rules too is no way to change one of them alone (probe OZ-2)', async () => {
    const playbook = 'kind: Playbook\nname: OZ2\nrules:\n  - name: a\n    <<: &v {actions: "Do ${var.company} things"}\n  - name: b\n    <<: *v\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  company: Acme\n', 'playbooks/oz2.yaml': playbook });
    await applyOk(run, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    const playbookId = Object.values(org.playbooks).find((p) => p.name === 'OZ2' && !p.archived_at)!.id;
    const rule = Object.values(org.rules).find((r) => r.playbook_id === playbookId && r.name === 'b')!;
    rule.actions = 'Do Globex things';
    rule.updated_at = new Date().toISOString();
    const pulled = await run('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    expect(pulled.stdout).toContain('rule "OZ2/b" actions (playbooks/oz2.yaml:5): live value "Do Globex things" differs from var.company; change the variable or the environment (a merge key, `<<`, gives it here, so that changes every mapping that merges it), or write the key in this mapping by hand\n');
    expect(await readFile(join(dir, 'playbooks/oz2.yaml'), 'utf8')).toBe(playbook);
  });

  it('keeps a reviewer a merge gives through a placeholder when the app clears it, and says so (probe IH-1)', async () => {
    const playbook = 'kind: Playbook\nname: U\nrules:\n  - name: a\n    actions: x\n    <<: &v {reviewer: "${var.lead}", description: d}\n  - name: b\n    actions: y\n    <<: *v\n';
    const organization = 'kind: Organization\nreview:\n  <<: {default_reviewer: "${var.lead}"}\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  lead: alice@acme.example\n', 'playbooks/u.yaml': playbook, 'organization.yaml': organization });
    await applyOk(run, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    const rule = Object.values(org.rules).find((r) => r.name === 'b')!;
    rule.reviewer_id = null;
    rule.updated_at = new Date().toISOString();
    org.default_reviewer_id = null;
    const pulled = await run('pull', '-C', dir);
    expect([pulled.code, pulled.stderr]).toEqual([0, '']);
    // Rule a and the organization take the variable too: changing it is no way to change rule b alone (probe OZ-2).
    expect(pulled.stdout).toContain('rule "U/b" reviewer (playbooks/u.yaml:6): live has no value for var.lead, and no value of it stands for none there; a merge key (`<<`) gives it here and to every mapping that merges it: edit this mapping by hand\n');
    expect(pulled.stdout).toContain('organization review.default_reviewer');
    expect(pulled.stdout).not.toContain('could not edit');
    expect(await readFile(join(dir, 'playbooks/u.yaml'), 'utf8')).toBe(playbook);
    expect(await readFile(join(dir, 'organization.yaml'), 'utf8')).toBe(organization);
    // The files still say the variable's value: apply sets it again.
    await applyOk(run, dir);
    await expectNoChanges(run, dir);
  });

  it('a member whose e-mail the app changed is removed live (its e-mail is its identity), not refused as a pin no file writes: drift reports it, pull takes it out, and the plan converges (probe OE-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: pat@acme.example\nname: Pat Lee\n' });
    await applyOk(run, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    t.emulator.store.memberByEmail(org, 'pat@acme.example')!.email = 'patricia@acme.example';
    const plan = await run('plan', '-C', dir);
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toContain('+ invite member "pat@acme.example" (members.yaml:1) · removed live');
    const drift = await run('drift', '-C', dir, '-o', 'json');
    expect([drift.code, drift.stderr]).toEqual([2, '']);
    expect((JSON.parse(drift.stdout) as { drift: { kind: string; key: string; direction: string }[] }).drift.map((d) => [d.kind, d.key, d.direction])).toEqual([['member', 'pat@acme.example', 'removed-live']]);
    // As pull does it: drift's closing line does not say pull leaves it.
    expect((await run('drift', '-C', dir)).stdout).toContain(`\`docket pull -C ${dir}\` writes it into the files`);
    const pulled = await run('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('- member "pat@acme.example" (members.yaml) · removed live');
    await expect(readFile(join(dir, 'members.yaml'), 'utf8')).rejects.toThrow();
    await expectNoChanges(run, dir);
  });

  it('a member pinned by id whose e-mail the app changed is removed live for drift and pull, and a plan error says why (probe PD-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: hank@acme.example\n' });
    await applyOk(run, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    const user = t.emulator.store.memberByEmail(org, 'hank@acme.example')!;
    await writeFile(join(dir, 'members.yaml'), `kind: Member\nemail: hank@acme.example\nid: ${user.id}\n`);
    await expectNoChanges(run, dir);
    user.email = 'henry@acme.example';
    const drift = await run('drift', '-C', dir, '--target', 'member/hank@acme.example', '-o', 'json');
    expect([drift.code, drift.stderr]).toEqual([2, '']);
    expect((JSON.parse(drift.stdout) as { drift: { key: string; direction: string }[] }).drift.map((d) => [d.key, d.direction])).toEqual([['hank@acme.example', 'removed-live']]);
    const plan = await run('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`members.yaml:3:5 error pinned-id-not-found member "hank@acme.example" is pinned to id "${user.id}", which docket last synced under this name; that live member is "henry@acme.example" now (changed in the app)`);
    const pulled = await run('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('- member "hank@acme.example" (members.yaml) · removed live');
    await expect(readFile(join(dir, 'members.yaml'), 'utf8')).rejects.toThrow();
  });

  it('keeps the Member document of one who left while a template\'s signer or docket.yaml\'s agreements actor names them, which plan needs it for (probe OE-2)', async () => {
    const template = 'kind: Template\nname: Mutual NDA\ntype: NDA\nparameters:\n  term: 2\n  default_signer_email: newbie@acme.example\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'members.yaml': 'kind: Member\nemail: newbie@acme.example\nname: New Bie\n', 'templates/nda.yaml': template });
    expect((await run('apply', '-C', dir, '--auto-approve', '--target', 'member/newbie@acme.example')).code).toBe(0);
    await applyOk(run, dir);
    leave(t, 'newbie@acme.example');
    const pulled = await run('pull', '-C', dir);
    expect(pulled.stdout).toContain('member "newbie@acme.example" (members.yaml:1): removed live, but template "Mutual NDA" still names it (`parameters.default_signer_email` at templates/nda.yaml:6)');
    expect(await readFile(join(dir, 'members.yaml'), 'utf8')).toContain('newbie@acme.example');
    // Named by the actor alone, which a custom term needs: kept all the same.
    await writeFile(join(dir, 'templates/nda.yaml'), template.replace('  default_signer_email: newbie@acme.example\n', ''));
    await writeFile(join(dir, 'templates/t.yaml'), 'kind: CustomTerm\nname: T\nbody: Terms\n');
    await writeFile(join(dir, 'docket.yaml'), 'version: 1\nagreements:\n  actor: newbie@acme.example\n');
    const again = await run('pull', '-C', dir, '--dry-run');
    expect(again.stdout).toContain('member "newbie@acme.example" (members.yaml:1): removed live, but custom-term "T" still names it (`agreements.actor` at docket.yaml:3)');
  });

  it('says the organization by what it is when its default reviewer keeps the Member document of one who left (probe KE-6)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': 'kind: Member\nemail: pat@acme.example\n', 'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: pat@acme.example\n' });
    await applyOk(run, dir);
    leave(t, 'pat@acme.example');
    const pulled = await run('pull', '-C', dir);
    expect(pulled.stdout).toContain('member "pat@acme.example" (members.yaml:1): removed live, but the organization still names it (`review.default_reviewer` at organization.yaml:3)');
  });

  it('keeps the Member document of one who left while a rule still names them, or while a variable names them (other environments use it)', async () => {
    const dir = await makeDir({
      'docket.yaml': 'version: 1\nvars:\n  lead: lee@acme.example\n',
      'members.yaml': 'kind: Member\nemail: pat@acme.example\n---\nkind: Member\nemail: ${var.lead}\n',
      'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT\n    reviewer: pat@acme.example\n',
    });
    await applyOk(run, dir);
    const members = await readFile(join(dir, 'members.yaml'), 'utf8');
    // Both leave; the service keeps pat on the rule.
    leave(t, 'pat@acme.example', 'lee@acme.example');

    const pulled = await run('pull', '-C', dir);
    expect(pulled.stdout).toContain('member "pat@acme.example" (members.yaml:1): removed live, but rule "P/R" still names it (`reviewer` at playbooks/p.yaml:6), and without it the files would not plan');
    expect(pulled.stdout).toContain('member "lee@acme.example" (members.yaml:4): removed live, but the files name it with var.lead, which other environments may use too');
    expect(await readFile(join(dir, 'members.yaml'), 'utf8')).toBe(members);
    // The files still plan: the two are invited again.
    const plan = await run('plan', '-C', dir);
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    expect(plan.stdout).toContain('+ invite member "pat@acme.example"');
    expect(plan.stdout).toContain('+ invite member "lee@acme.example"');
    await applyOk(run, dir);
    await expectNoChanges(run, dir);
  });

  it('keeps a playbook named through a variable whole, its rules too, when it is archived live, and the member a rule of it names', async () => {
    const playbook = 'kind: Playbook\nname: ${var.pb}\nrules:\n  - name: R1\n    actions: ACCEPT\n    reviewer: kim@acme.example\n  - name: R2\n    actions: FLAG\n';
    const members = 'kind: Member\nemail: kim@acme.example\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  pb: Var NDA\n', 'playbooks/p.yaml': playbook, 'members.yaml': members });
    await applyOk(run, dir);
    await new App(t.env).archivePlaybook('Var NDA');
    // And kim, whom a rule of it names, leaves: kept too, as that rule stays.
    leave(t, 'kim@acme.example');
    const pulled = await run('pull', '-C', dir);
    expect(pulled.stdout).toContain('playbook "Var NDA" (playbooks/p.yaml:1): removed live, but the files name it with var.pb');
    expect(pulled.stdout).not.toContain('- rule "Var NDA/R1"');
    expect(pulled.stdout).toContain('member "kim@acme.example" (members.yaml:1): removed live, but rule "Var NDA/R1" still names it');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(playbook);
    expect(await readFile(join(dir, 'members.yaml'), 'utf8')).toBe(members);
    // The next apply makes it again, as the files say.
    await applyOk(run, dir);
    await expectNoChanges(run, dir);
  });

  it('keeps a rule named through a variable when it is deleted live: other environments name theirs so too (probe JL-1)', async () => {
    const playbook = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term ${var.stage}\n    actions: ACCEPT\n  - name: Other\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  stage: Dev\n', 'playbooks/p.yaml': playbook });
    await applyOk(run, dir);
    await new App(t.env).deleteRule('NDA', 'Term Dev');
    const pulled = await run('pull', '-C', dir);
    expect(pulled.stdout).toContain('rule "NDA/Term Dev" (playbooks/p.yaml:4): removed live, but the files name it with var.stage, which other environments may use too');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(playbook);
    // As the files say, the next apply makes it again.
    await applyOk(run, dir);
    await expectNoChanges(run, dir);
    // Its playbook removed live, it goes with the playbook's document, and is not said kept (fourth read RV5-3).
    await new App(t.env).archivePlaybook('NDA');
    const gone = await run('pull', '-C', dir);
    expect(gone.stdout).toContain('- rule "NDA/Term Dev" (playbooks/p.yaml) · removed live');
    expect(gone.stdout).not.toContain('which other environments may use too');
    expect(gone.stdout).toContain('playbooks/p.yaml (deleted)');
  });

  it('leaves a default reviewer written through a variable for a person to delete, saying so (no value of the variable stands for none)', async () => {
    const organization = 'kind: Organization\nreview:\n  name: Acme Legal\n  default_reviewer: ${var.lead}\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET, 'organization.yaml': organization });
    await applyOk(run, dir);
    const org = t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!;
    org.default_reviewer_id = null;

    const pulled = await run('pull', '-C', dir);
    expect(pulled.stdout).toContain('review.default_reviewer (organization.yaml:4): live has no value for var.lead, and no value of it stands for none there; delete the key from the file');
    expect(pulled.stdout).not.toContain('change the variable');
    expect(await readFile(join(dir, 'organization.yaml'), 'utf8')).toBe(organization);
    // Deleted by hand, as it says: nothing left to change.
    await writeFile(join(dir, 'organization.yaml'), 'kind: Organization\nreview:\n  name: Acme Legal\n');
    await expectNoChanges(run, dir);
  });
});

it('a pull that writes no file but forgets the records of a playbook gone from the files and the app says so, in text and JSON; the next says nothing (probe NH-2)', async () => {
  // An emulator of its own: the other tests' objects would be pulled here too.
  const own = await startTestEmulator();
  try {
    const run = cliWith(() => own.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/keep.yaml': 'kind: Playbook\nname: Keep\nrules: []\n', 'playbooks/gone.yaml': 'kind: Playbook\nname: Gone\nrules:\n  - name: g1\n    actions: ACCEPT g1\n' });
    await applyOk(run, dir);
    await rm(join(dir, 'playbooks/gone.yaml'));
    await new App(own.env).archivePlaybook('Gone');
    const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
    const pulled = await run('pull', '-C', dir);
    expect(pulled.code, pulled.stdout + pulled.stderr).toBe(0);
    expect(pulled.stdout).toContain('Nothing to pull: the files hold every live change.\nUpdated 2 sync records in docket.lock.json (objects gone from the files and the app forgotten, objects in sync recorded): commit it.');
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toBe(lock);
    const again = await run('pull', '-C', dir, '-o', 'json');
    expect(JSON.parse(again.stdout)).not.toHaveProperty('records_updated');
  } finally {
    await own.emulator.close();
  }
});

it('drift of a rule made in the app in a playbook made there says `docket apply --prune` archives it, with its playbook, not that no apply does (probe NH-4)', async () => {
  const own = await startTestEmulator();
  try {
    const run = cliWith(() => own.env);
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/kept.yaml': 'kind: Playbook\nname: Kept\nrules: []\n' });
    await applyOk(run, dir);
    const app = new App(own.env);
    await app.createPlaybook({ name: 'Made in app' });
    await app.createRule('Made in app', { name: 'r1', actions: 'ACCEPT 1' });
    const drift = await run('drift', '-C', dir, '--target', 'rule/Made in app/r1');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain(`\`docket apply -C ${dir} --prune\` archives the objects only live`);
    expect(drift.stdout).not.toContain('no apply does');
  } finally {
    await own.emulator.close();
  }
});
