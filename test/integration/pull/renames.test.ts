/**
 * Objects renamed in the app: the plan matches them by the live id docket last synced, so it shows
 * a rename and nothing else (the rules of a renamed playbook are still read, a renamed term's body
 * still compared), drift counts one change each, and pull writes the new names (in the test files
 * that name them too), keeping the records of the playbook's rules under its new name. Objects
 * removed in the app are named in the notes where a test names them.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { App } from '../../helpers/app.js';
import { applyOk, cliWith, emulatorForFile, expectNoChanges } from '../../helpers/scenario.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir, writeFiles } from '../../helpers/tmpdir.js';
import { docx } from '../agreements-fixtures.js';
import { lockFiles } from '../../helpers/lock.js';

const { emulator, cli } = emulatorForFile();

/** A scenario on an emulator of its own (its app-side renames and deletes would reach the other tests), closed whatever happens. */
async function onOwnEmulator(scenario: (run: ReturnType<typeof cliWith>, own: TestEmulator) => Promise<void>): Promise<void> {
  const own = await startTestEmulator();
  try {
    await scenario(cliWith(() => own.env), own);
  } finally {
    await own.emulator.close();
  }
}

/** In the app: rule Term of `playbook` renamed `Term 2025`, and a new rule made under its old name with `values`. */
async function termRenamedWithNewOne(app: App, playbook: string, values: Record<string, unknown>): Promise<void> {
  await app.editRule(playbook, 'Term', { name: 'Term 2025' });
  await app.createRule(playbook, { name: 'Term', ...values });
}

/** `files` applied on an emulator of its own, and the app to change what they made there. */
async function appliedOn(run: ReturnType<typeof cliWith>, own: TestEmulator, files: Record<string, string>): Promise<{ dir: string; app: App }> {
  const dir = await makeDir(files);
  await applyOk(run, dir);
  return { dir, app: new App(own.env) };
}

/** Two playbooks of one rule each, `[name, rule, action]`, as files (docket.yaml included), by file name. */
function twoPlaybooks(a: [string, string, string], b: [string, string, string]): Record<string, string> {
  const file = ([name, rule, action]: [string, string, string]) => [`playbooks/${name.toLowerCase()}.yaml`, `kind: Playbook\nname: ${name}\nrules:\n  - name: ${rule}\n    actions: ${action}\n`];
  return { 'docket.yaml': 'version: 1\n', ...Object.fromEntries([file(a), file(b)]) };
}

/** Two pulls of `dir` that write nothing: the files as `files` holds them, docket.lock.json as it was; each report passed to `says`. */
async function pullsTwiceWritingNothing(run: ReturnType<typeof cliWith>, dir: string, files: Record<string, string>, says: (stdout: string) => void): Promise<void> {
  const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
  for (let i = 0; i < 2; i++) {
    const pull = await run('pull', '-C', dir, '--force');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toContain('Wrote no file');
    says(pull.stdout);
    for (const [file, text] of Object.entries(files)) expect(await readFile(join(dir, file), 'utf8')).toBe(text);
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toBe(lock);
  }
}

/** `files` applied with an agreements actor, and the app to change what they made. */
async function applied(files: Record<string, string>): Promise<{ dir: string; app: App }> {
  const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', ...files });
  await applyOk(cli, dir);
  return { dir, app: new App(emulator().env) };
}

const NDA = `kind: Playbook
name: Inbound NDA   # what reviewers see
rules:
  - name: Term
    actions: ACCEPT up to 3 years   # agreed with sales
  - name: Law
    actions: ACCEPT Delaware
    generate_summary: false   # short clauses
`;

const TERMS = 'kind: CustomTerm\nname: Consulting Terms\nbody_file: consulting.md\n';
const TEMPLATE = 'kind: CustomTemplate\nname: Consulting Agreement\ndefinition_file: consulting.cover.yaml\n';
const COVER = 'title: Consulting Agreement\nterms_label: Statement of Work\nparties: { sender: Customer, recipient: Consultant }\nsections:\n  - heading: Engagement\n    fields:\n      start_date: { label: Start date, input: date }\n';

const NDA_TEST = `# Regression tests of the NDA playbook
kind: PlaybookTest
playbook: Inbound NDA   # by name
cases:
  - name: a standard NDA
    contract: { file: nda.txt }
    review_type: RedlineReview
    expect:
      redlines:
        - topic: Law
          evaluation: accept
  - name: its flags
    contract: { file: nda.txt }
    review_type: SummaryReview
    expect:
      flags: { includes: [Term], excludes: ['law  '] }
`;
const COVER_TEST = 'kind: TemplateTest\ntemplate: "Consulting Agreement"\ncases:\n  - name: a start date\n    values: { start_date: 2027-01-15 }\n    expect: accepted\n';

describe('objects renamed in the app', () => {
  it('writes a former name holding a literal `${` into renamed_from as the files write it, `$${` (probe HY-4)', async () => {
    // On an emulator of its own: the rename in the app would reach the other tests.
    await onOwnEmulator(async (run, own) => {
      const file = 'kind: Playbook\nname: Fee $${amount}\nrules:\n  - name: R\n    actions: ACCEPT r\n';
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/fee.yaml': file });
      await applyOk(run, dir);
      await new App(own.env).editPlaybook('Fee ${amount}', { name: 'Fees' });
      const pulled = await run('pull', '-C', dir);
      expect([pulled.code, pulled.stderr, pulled.stdout]).toEqual([0, '', expect.not.stringContaining('Not pulled')]);
      expect(await readFile(join(dir, 'playbooks/fee.yaml'), 'utf8')).toBe(file.replace('name: Fee $${amount}\n', () => 'name: Fees\nrenamed_from:\n  - Fee $${amount}\n'));
      await expectNoChanges(run, dir);
    });
  });

  it('writes a name holding `${` into the test files as they read it, unescaped: they take `${` as text (probe HY-5)', async () => {
    await onOwnEmulator(async (run, own) => {
      const test = 'kind: PlaybookTest\nplaybook: Fees\ncases:\n  - name: c\n    contract: { file: nda.txt }\n    expect: { flags: { includes: [R] } }\n';
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/fee.yaml': 'kind: Playbook\nname: Fees\nrules:\n  - name: R\n    actions: ACCEPT r\n', 'tests/fee.test.yaml': test, 'tests/nda.txt': 'An NDA.\n' });
      await applyOk(run, dir);
      await new App(own.env).editPlaybook('Fees', { name: 'Fee ${amount}' });
      const pulled = await run('pull', '-C', dir);
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      expect(pulled.stdout).toContain('tests/fee.test.yaml:2: now names playbook "Fee ${amount}", renamed in the app from "Fees"');
      expect(await readFile(join(dir, 'tests/fee.test.yaml'), 'utf8')).toBe(test.replace('playbook: Fees', () => 'playbook: Fee ${amount}'));
      expect(await readFile(join(dir, 'playbooks/fee.yaml'), 'utf8')).toContain('name: Fee $${amount}\n');
      const validated = await run('validate', '-C', dir);
      expect([validated.code, validated.stderr]).toEqual([0, '']);
      await expectNoChanges(run, dir);
      // Renamed again: the test's name holding `${` is text, written over as any name is (second read SR-1).
      await new App(own.env).editPlaybook('Fee ${amount}', { name: 'Fee ${amount} net' });
      const again = await run('pull', '-C', dir);
      expect([again.code, again.stderr, again.stdout]).toEqual([0, '', expect.not.stringContaining('edit the file by hand')]);
      expect(await readFile(join(dir, 'tests/fee.test.yaml'), 'utf8')).toBe(test.replace('playbook: Fees', () => 'playbook: Fee ${amount} net'));
      expect((await run('validate', '-C', dir)).code).toBe(0);
      await expectNoChanges(run, dir);
    });
  });

  it("leaves a test file holding git's conflict markers as it is, saying so where the conflict starts, not that it now names the new name", async () => {
    await onOwnEmulator(async (run, own) => {
      const test = 'kind: PlaybookTest\nplaybook: Gamma NDA\ncases:\n<<<<<<< HEAD\n  - name: c\n=======\n  - name: d\n>>>>>>> br\n    contract: { file: nda.txt }\n    expect: accepted\n';
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/gamma.yaml': 'kind: Playbook\nname: Gamma NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n', 'tests/nda.txt': 'An NDA.\n' });
      await applyOk(run, dir);
      await writeFiles(dir, { 'tests/gamma.test.yaml': test });
      await new App(own.env).editPlaybook('Gamma NDA', { name: 'Delta NDA' });
      const pulled = await run('pull', '-C', dir);
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      expect(pulled.stdout).toContain('tests/gamma.test.yaml:4: holds git\'s conflict markers "<<<<<<< HEAD" (line 4), "=======" (line 6) and ">>>>>>> br" (line 8), so no name in it is changed to one renamed in the app; resolve the conflict, then run docket validate, which names what to rename');
      expect(pulled.stdout).not.toContain('now names');
      expect(pulled.stdout).not.toContain('could not edit');
      expect(await readFile(join(dir, 'tests/gamma.test.yaml'), 'utf8')).toBe(test);
    });
  });

  it('says a rename it writes into a test with the names hidden as output hides them: a URL\'s password and query (second read)', async () => {
    await onOwnEmulator(async (run, own) => {
      const test = 'kind: PlaybookTest\nplaybook: Links\ncases:\n  - name: c\n    contract: { file: nda.txt }\n    expect: { flags: { excludes: [Link https://ex.example/a] } }\n';
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/links.yaml': 'kind: Playbook\nname: Links\nrules:\n  - name: Link https://ex.example/a\n    actions: ACCEPT\n', 'tests/links.test.yaml': test, 'tests/nda.txt': 'An NDA.\n' });
      await applyOk(run, dir);
      await new App(own.env).editRule('Links', 'Link https://ex.example/a', { name: 'Link https://u:secretpw@ex.example/a?token=SECRET' });
      for (const args of [['--dry-run'], ['--dry-run', '-o', 'json'], []]) {
        const pulled = await run('pull', '-C', dir, ...args);
        expect(pulled.code).toBe(0);
        const notes = args.includes('json') ? (JSON.parse(pulled.stdout) as { notes: string[] }).notes.join('\n') : pulled.stdout;
        expect(notes).toContain('now names rule "Link https://***@ex.example/a?…", renamed in the app from "Link https://ex.example/a"');
        expect(notes).not.toMatch(/secretpw|SECRET/);
      }
      await expectNoChanges(run, dir);
    });
  });

  it('a rule renamed in the app and in the files from [its name before, a name a new rule took] is renamed, not deleted (probe FS)', () =>
    onOwnEmulator(async (run, own) => {
      const playbook = (rules: string) => `kind: Playbook\nname: Chain Rules\nrules:\n${rules}`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('  - name: A\n    actions: ACCEPT one\n') });
      await applyOk(run, dir);
      await writeFiles(dir, { 'playbooks/p.yaml': playbook('  - name: B\n    renamed_from: [A]\n    actions: ACCEPT one\n') });
      await applyOk(run, dir);
      await writeFiles(dir, { 'playbooks/p.yaml': playbook('  - name: B\n    renamed_from: [A]\n    actions: ACCEPT one\n  - name: A\n    actions: ACCEPT two\n') });
      await applyOk(run, dir);
      const rulesLive = () => Object.values(own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!.rules).map((r) => [r.id, r.name, r.actions]);
      const [first] = rulesLive().filter(([, name]) => name === 'B');
      await new App(own.env).editRule('Chain Rules', 'B', { name: 'B live' });
      await writeFiles(dir, { 'playbooks/p.yaml': playbook('  - name: B files\n    renamed_from: [A, B]\n    actions: ACCEPT one\n  - name: A\n    actions: ACCEPT two\n') });
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('~ rename rule "Chain Rules/B live" → "Chain Rules/B files"');
      expect(plan.stdout).not.toMatch(/delete rule|create rule/);
      await applyOk(run, dir);
      expect(rulesLive()).toEqual(expect.arrayContaining([[first![0], 'B files', 'ACCEPT one']]));
      expect(rulesLive()).toHaveLength(2);
      await expectNoChanges(run, dir);
    }));

  it('forgets a rule deleted in the app in a playbook renamed there: declared again, it is only in the files, not removed live (probe ET)', async () => {
    await onOwnEmulator(async (run, own) => {
      const file = 'kind: Playbook\nname: P\nrules:\n  - name: A\n    actions: a\n  - name: B\n    actions: b\n';
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.deleteRule('P', 'B');
      await app.editPlaybook('P', { name: 'Q' });
      expect((await run('pull', '-C', dir)).code).toBe(0);
      const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
      expect(lock).toContain('"rule:Q/A"');
      expect(lock).not.toMatch(/"rule:[PQ]\/B"/);
      // The team adds it back: a create of its own, which pull leaves to apply.
      const pulled = await readFile(join(dir, 'playbooks/p.yaml'), 'utf8');
      await writeFile(join(dir, 'playbooks/p.yaml'), `${pulled}  - name: B\n    actions: b\n`);
      expect((await run('plan', '-C', dir)).stdout).toMatch(/\+ create rule "Q\/B" \(playbooks\/p\.yaml:\d+\) · only in files/);
      expect((await run('drift', '-C', dir)).code).toBe(0);
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    });
  });

  it('a playbook renamed in the files keeps its rules\' records: a rule renamed, edited or deleted in the app meanwhile is drift, not the files\' change (probe EX)', async () => {
    await onOwnEmulator(async (run, own) => {
      const rules = '  - name: R1\n    actions: ACCEPT one\n  - name: R2\n    actions: ACCEPT two\n  - name: R3\n    actions: ACCEPT three\n';
      const dir = await makeDir({ 'docket.yaml': 'version: 1\nsafety:\n  max_delete_fraction: 1\n', 'playbooks/p.yaml': `kind: Playbook\nname: P\ndrift: adopt\nrules:\n${rules}` });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editRule('P', 'R1', { name: 'R1 app', actions: 'ACCEPT one, tuned by a reviewer' });
      await app.editRule('P', 'R2', { actions: 'ACCEPT two, tuned' });
      await app.deleteRule('P', 'R3');
      // The files rename the playbook only, as its id pins it in a second run.
      for (const renamed of ['name: Q\nrenamed_from: [P]', `name: Q\nid: ${await app.playbookId('P')}`]) {
        await writeFile(join(dir, 'playbooks/p.yaml'), `kind: Playbook\n${renamed}\ndrift: adopt\nrules:\n${rules}`);
        const plan = await run('plan', '-C', dir);
        expect(plan.stdout).toContain('~ rename playbook "P" → "Q"');
        // The app's work is drift the policy holds (pull brings it in), not a change apply makes.
        expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 1 to rename, 0 to delete.');
        expect(plan.stdout).toContain('+ create rule "Q/R3" (playbooks/p.yaml:10) · removed live · drift: adopt');
        expect(plan.stdout).not.toContain('delete rule');
        const drift = await run('drift', '-C', dir);
        expect(drift.stdout).toMatch(/rule "Q\/R1 app"|rule "Q\/R1"/);
        expect(drift.stdout).toContain('Removed live');
        expect(drift.stdout).toMatch(/- rule "Q\/R3"/);
      }
      // Pulled, the files take the app's work; applied, the playbook is renamed and nothing else.
      const pulled = await run('pull', '-C', dir);
      expect(pulled.code).toBe(0);
      const file = await readFile(join(dir, 'playbooks/p.yaml'), 'utf8');
      expect(file).toContain('name: R1 app');
      expect(file).toContain('ACCEPT two, tuned');
      expect(file).not.toContain('R3');
      await applyOk(run, dir);
      expect(await app.playbookId('Q')).toBeTruthy();
      await expectNoChanges(run, dir);
    });
  });

  it('a rule deleted in the app and edited in the files of a playbook the files rename stays in the files: pull and drift read its record as the plan does (second read)', async () => {
    await onOwnEmulator(async (run, own) => {
      const file = (name: string, three: string) => `kind: Playbook\n${name}\nrules:\n  - name: R1\n    actions: ACCEPT one\n  - name: R3\n    actions: ${three}\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file('name: P', 'ACCEPT three') });
      await applyOk(run, dir);
      await new App(own.env).deleteRule('P', 'R3');
      await writeFile(join(dir, 'playbooks/p.yaml'), file('name: Q\nrenamed_from: [P]', 'ACCEPT three, edited in the files'));
      const drift = await run('drift', '-C', dir);
      expect(drift.stdout).toContain('Of these, 1 removed live stays in the files, which changed it');
      const pulled = await run('pull', '-C', dir);
      expect(pulled.stdout).toContain('removed live, but the files changed it since the last sync');
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toContain('ACCEPT three, edited in the files');
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    });
  });

  it('the apply that renames a playbook keeps the record of a rule deleted in the app that drift: adopt holds: still drift after it, not made again (probe FA)', async () => {
    await onOwnEmulator(async (run, own) => {
      const file = (name: string) => `kind: Playbook\n${name}\ndrift: adopt\nrules:\n  - name: R1\n    actions: ACCEPT one\n  - name: R2\n    actions: ACCEPT two\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/a.yaml': file('name: Alpha') });
      await applyOk(run, dir);
      await new App(own.env).deleteRule('Alpha', 'R2');
      await writeFile(join(dir, 'playbooks/a.yaml'), file('name: Beta\nrenamed_from: [Alpha]'));
      await applyOk(run, dir);
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('+ create rule "Beta/R2" (playbooks/a.yaml:8) · removed live · drift: adopt');
      expect(plan.stdout).not.toContain('only in files');
      const drift = await run('drift', '-C', dir);
      expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining('- rule "Beta/R2"')]);
      // Pulled, the files take the app's deletion; then nothing is left to do.
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect(await readFile(join(dir, 'playbooks/a.yaml'), 'utf8')).not.toContain('R2');
      await expectNoChanges(run, dir);
    });
  });

  it('a new playbook the files give the name of one they rename does not take its rules\' records: its rules are only in the files (probe FA)', async () => {
    await onOwnEmulator(async (run, own) => {
      const rules = '  - name: R1\n    actions: ACCEPT one\n  - name: R2\n    actions: ACCEPT two\n';
      for (const renamed of ['renamed_from: [Alpha]', 'pin']) {
        const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/a.yaml': `kind: Playbook\nname: Alpha\nrules:\n${rules}` });
        await applyOk(run, dir);
        const app = new App(own.env);
        const way = renamed === 'pin' ? `id: ${await app.playbookId('Alpha')}` : renamed;
        await writeFile(join(dir, 'playbooks/a.yaml'), `kind: Playbook\nname: Beta\n${way}\nrules:\n${rules}`);
        await writeFile(join(dir, 'playbooks/c.yaml'), `kind: Playbook\nname: Alpha\nrules:\n${rules}`);
        const plan = await run('plan', '-C', dir);
        expect(plan.stdout).toContain('+ create rule "Alpha/R1" (playbooks/c.yaml:4) · only in files');
        expect(plan.stdout).not.toContain('removed live');
        const drift = await run('drift', '-C', dir);
        expect(drift.code).toBe(0);
        expect((await run('pull', '-C', dir, '--dry-run')).stdout).not.toContain('Not pulled');
        await applyOk(run, dir);
        await expectNoChanges(run, dir);
        // Both playbooks go, for the next way round on the same emulator.
        await app.archivePlaybook('Alpha');
        await app.archivePlaybook('Beta');
      }
    });
  });

  it('a rename a variable holds back is not written into the tests either: validate still passes (probe ER)', async () => {
    await onOwnEmulator(async (run, own) => {
      const test = 'kind: PlaybookTest\nplaybook: Sales NDA\ncases:\n  - name: c\n    contract: { file: nda.txt }\n    expect: { flags: { excludes: [Sales NDA rule] } }\n';
      const dir = await makeDir({
        'docket.yaml': 'version: 1\nvars: { pb: Sales NDA }\n',
        'playbooks/sales.yaml': 'kind: Playbook\nname: ${var.pb}\nrules:\n  - name: "${var.pb} rule"\n    actions: ACCEPT\n',
        'tests/sales.test.yaml': test,
        'tests/nda.txt': 'An NDA.\n',
      });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editPlaybook('Sales NDA', { name: 'Sales NDA 2' });
      await app.editRule('Sales NDA 2', 'Sales NDA rule', { name: 'Sales NDA 2 rule' });
      const pulled = await run('pull', '-C', dir);
      expect(pulled.code).toBe(0);
      expect(pulled.stdout).toContain('live value "Sales NDA 2" differs from var.pb; change the variable or the environment');
      expect(pulled.stdout).not.toContain('now names');
      expect(await readFile(join(dir, 'tests/sales.test.yaml'), 'utf8')).toBe(test);
      expect((await run('validate', '-C', dir)).code).toBe(0);
      // Once the variable says the new name, the plan shows nothing to change.
      await writeFiles(dir, { 'docket.yaml': 'version: 1\nvars: { pb: Sales NDA 2 }\n', 'tests/sales.test.yaml': test.replaceAll('Sales NDA', 'Sales NDA 2') });
      await expectNoChanges(run, dir);
    });
  });

  it('two pinned playbooks that swapped names in the app: each test follows its playbook to its new name, and validate passes', async () => {
    const playbook = (name: string, rule: string, id = '') => `kind: Playbook\n${id ? `id: ${id}\n` : ''}name: ${name}\nrules:\n  - name: ${rule}\n    actions: ACCEPT\n`;
    const test = (name: string, rule: string) => `kind: PlaybookTest\nplaybook: ${name}\ncases:\n  - name: c\n    contract: { file: nda.txt }\n    expect: { flags: { includes: [${rule}] } }\n`;
    // Its own emulator: the file's shared one would list these playbooks in the other tests' drift.
    await onOwnEmulator(async (run, own) => {
      const app = new App(own.env);
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/alpha.yaml': playbook('Alpha NDA', 'Term'), 'playbooks/beta.yaml': playbook('Beta MSA', 'Fees'), 'tests/alpha.test.yaml': test('Alpha NDA', 'Term'), 'tests/beta.test.yaml': test('Beta MSA', 'Fees'), 'tests/nda.txt': 'An NDA.\n' });
      await applyOk(run, dir);
      const [alpha, beta] = [await app.playbookId('Alpha NDA'), await app.playbookId('Beta MSA')];
      await writeFiles(dir, { 'playbooks/alpha.yaml': playbook('Alpha NDA', 'Term', alpha), 'playbooks/beta.yaml': playbook('Beta MSA', 'Fees', beta) });
      await app.swapPlaybookNames('Alpha NDA', 'Beta MSA');

      const pulled = await run('pull', '-C', dir);
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      expect(await readFile(join(dir, 'tests/alpha.test.yaml'), 'utf8')).toBe(test('Beta MSA', 'Term'));
      expect(await readFile(join(dir, 'tests/beta.test.yaml'), 'utf8')).toBe(test('Alpha NDA', 'Fees'));
      expect(pulled.stdout).toContain('tests/alpha.test.yaml:2: now names playbook "Beta MSA", renamed in the app from "Alpha NDA"');
      expect((await run('validate', '-C', dir)).code).toBe(0);
      await expectNoChanges(run, dir);
    });
  });

  it('pinned playbooks and rules whose names shifted in the app (B to C, then A to B) keep every record once pulled: an edit in the files after it is pending, not drift (probe PH-1)', async () => {
    const playbook = (name: string, id: string, rules: [string, string][]) => `kind: Playbook\nid: ${id}\nname: ${name}\nrules:\n${rules.map(([rule, ruleId]) => `  - name: ${rule}\n    id: ${ruleId}\n    actions: ACCEPT ${rule}\n`).join('')}`;
    await onOwnEmulator(async (run, own) => {
      const app = new App(own.env);
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/a.yaml': 'kind: Playbook\nname: A\nrules:\n  - name: r\n    actions: ACCEPT r\n  - name: s\n    actions: ACCEPT s\n', 'playbooks/b.yaml': 'kind: Playbook\nname: B\nrules:\n  - name: r\n    actions: ACCEPT r\n' });
      await applyOk(run, dir);
      const [a, b] = [await app.playbookId('A'), await app.playbookId('B')];
      const [r, rs] = [await app.ruleId('A', 'r'), await app.ruleId('A', 's')];
      await writeFiles(dir, { 'playbooks/a.yaml': playbook('A', a, [['r', r], ['s', rs]]), 'playbooks/b.yaml': playbook('B', b, [['r', await app.ruleId('B', 'r')]]) });
      await expectNoChanges(run, dir);
      await app.editPlaybook('B', { name: 'C' });
      await app.editPlaybook('A', { name: 'B' });
      await app.editRule('B', 's', { name: 't' });
      await app.editRule('B', 'r', { name: 's' });

      const pulled = await run('pull', '-C', dir);
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      await expectNoChanges(run, dir);
      const synced = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { synced: Record<string, Record<string, string>> };
      const records = Object.values(synced.synced)[0]!;
      expect([records['playbook:B']?.split(' ')[0], records['playbook:C']?.split(' ')[0], records['rule:B/s']?.split(' ')[0], records['rule:B/t']?.split(' ')[0]]).toEqual([a, b, r, rs]);
      // The team's edit of the shifted playbook and rule is theirs, not drift pull would undo.
      const shifted = await readFile(join(dir, 'playbooks/a.yaml'), 'utf8');
      await writeFile(join(dir, 'playbooks/a.yaml'), shifted.replace('name: B\n', 'name: B\ndescription: added in a PR\n').replace('actions: ACCEPT r', 'actions: ACCEPT r now'));
      const drift = await run('drift', '-C', dir);
      expect([drift.code, drift.stderr]).toEqual([0, '']);
      expect(drift.stdout).toContain('2 objects changed in the files are pending (not drift)');
    });
  });

  it('plan shows only the renames, drift counts each once, and pull writes the new names and keeps the rules in sync', async () => {
    const { dir, app } = await applied({
      'playbooks/nda.yaml': NDA,
      'custom-terms/consulting.yaml': TERMS,
      'custom-terms/consulting.md': '1. **Services.** As agreed.\n',
      'custom-templates/consulting.yaml': TEMPLATE,
      'custom-templates/consulting.cover.yaml': COVER,
      'tests/nda.test.yaml': NDA_TEST,
      'tests/nda.txt': 'This NDA is governed by the laws of Delaware.\n',
      'tests/consulting.test.yaml': COVER_TEST,
    });
    await app.editPlaybook('Inbound NDA', { name: 'Inbound NDAs' });
    await app.renameTerm('Consulting Terms', 'Consulting Terms 2026');
    await app.renameCustomTemplate('Consulting Agreement', 'Consulting Agreement 2026');

    const plan = await cli('plan', '-C', dir);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('~ rename playbook "Inbound NDAs" → "Inbound NDA" (playbooks/nda.yaml:2) · changed live');
    expect(plan.stdout).toContain('Plan: 0 to create, 0 to update, 3 to rename, 0 to delete.');
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('Drift: 3 objects (3 changed live).');

    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stderr).toBe('');
    expect(pulled.code).toBe(0);
    // Each keeps its former name, so that another environment of these files renames it too.
    const ndaRenamed = NDA.replace('Inbound NDA   # what reviewers see\n', 'Inbound NDAs   # what reviewers see\nrenamed_from:\n  - Inbound NDA\n');
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(ndaRenamed);
    expect(await readFile(join(dir, 'custom-terms/consulting.yaml'), 'utf8')).toBe(TERMS.replace('Consulting Terms\n', 'Consulting Terms 2026\nrenamed_from:\n  - Consulting Terms\n'));
    expect(await readFile(join(dir, 'custom-templates/consulting.yaml'), 'utf8')).toBe(TEMPLATE.replace('Consulting Agreement\n', 'Consulting Agreement 2026\nrenamed_from:\n  - Consulting Agreement\n'));
    // The tests name what they test by its new name too, and say so.
    expect(await readFile(join(dir, 'tests/nda.test.yaml'), 'utf8')).toBe(NDA_TEST.replace('Inbound NDA   #', 'Inbound NDAs   #'));
    expect(await readFile(join(dir, 'tests/consulting.test.yaml'), 'utf8')).toBe(COVER_TEST.replace('"Consulting Agreement"', '"Consulting Agreement 2026"'));
    expect(pulled.stdout).toContain('tests/nda.test.yaml:3: now names playbook "Inbound NDAs", renamed in the app from "Inbound NDA"');
    expect(pulled.stdout).toContain('tests/consulting.test.yaml:2: now names custom-template "Consulting Agreement 2026"');
    // Notes of what pull did ask nothing more (probe FS).
    // Named as this pull was run: from the same folder (probe OD-2).
    expect(pulled.stdout).toContain(`\`docket plan -C ${dir}\` now shows no changes for what was pulled.`);
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);

    // The rules were synced under the old playbook name: their records moved with it, so an edit
    // in the app reads as changed live; a rule renamed beside a new one keeps its lines.
    await app.editRule('Inbound NDAs', 'Term', { actions: 'ACCEPT up to 5 years' });
    await app.editRule('Inbound NDAs', 'Law', { name: 'Choice of law' });
    await app.createRule('Inbound NDAs', { name: 'Residuals', actions: 'REJECT' });
    const again = await cli('drift', '-C', dir);
    expect(again.stdout).toContain('Changed live (2)');
    expect(again.stdout).not.toContain('direction unknown');
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(
      ndaRenamed.replace('3 years', '5 years').replace('  - name: Law\n', '  - name: Residuals\n    actions: REJECT\n  - name: Choice of law\n    renamed_from:\n      - Law\n'),
    );
    // A renamed rule, wherever the tests name it (rule names match whatever their case and spacing).
    expect(await readFile(join(dir, 'tests/nda.test.yaml'), 'utf8')).toBe(
      NDA_TEST.replace('Inbound NDA   #', 'Inbound NDAs   #').replace('topic: Law', 'topic: Choice of law').replace("excludes: ['law  ']", "excludes: ['Choice of law']"),
    );
    expect((await cli('validate', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });
  it('a term renamed in the app that its template no longer links: the template keeps the link the app gave it, and no note asks to undo it (probes OP-1, OP-4)', async () => {
    await onOwnEmulator(async (run, own) => {
      const files = {
        'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n',
        'custom-terms/consulting.yaml': TERMS,
        'custom-terms/consulting.md': '1. **Services.** As agreed.\n',
        'custom-templates/consulting.yaml': `${TEMPLATE}custom_term: Consulting Terms\n`,
        'custom-templates/consulting.cover.yaml': COVER,
      };
      const { dir, app } = await appliedOn(run, own, files);
      // Linked to another term in the app, then the old term renamed there.
      await app.createTerm('Other Terms', 'Other body.');
      await app.linkTemplate('Consulting Agreement', 'Other Terms');
      await app.renameTerm('Consulting Terms', 'Consulting Terms 2026');
      // The term alone: the template, not pulled, keeps its file, and the note says what it links live.
      const termOnly = await run('pull', '-C', dir, '--target', 'custom-term/Consulting Terms');
      expect([termOnly.code, termOnly.stderr]).toEqual([0, '']);
      expect(await readFile(join(dir, 'custom-templates/consulting.yaml'), 'utf8')).toBe(`${TEMPLATE}custom_term: Consulting Terms\n`);
      expect(termOnly.stdout).toContain('custom-templates/consulting.yaml:4: `custom_term` names custom-term "Consulting Terms", renamed "Consulting Terms 2026" in the app, but custom-template "Consulting Agreement" links "Other Terms" live now: pull it too, or write the name it should link');
      const pulled = await run('pull', '-C', dir);
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      expect(await readFile(join(dir, 'custom-templates/consulting.yaml'), 'utf8')).toBe(`${TEMPLATE}custom_term: Other Terms\n`);
      expect(pulled.stdout).not.toContain('write the new name there');
      await expectNoChanges(run, dir);

      // Unlinked in the app, then renamed again: the link stays out, with no note to write it back.
      await app.unlinkTemplate('Consulting Agreement');
      await app.renameTerm('Consulting Terms 2026', 'Consulting Terms 2027');
      const again = await run('pull', '-C', dir);
      expect([again.code, again.stderr]).toEqual([0, '']);
      expect(await readFile(join(dir, 'custom-templates/consulting.yaml'), 'utf8')).toBe(TEMPLATE);
      expect(again.stdout).toContain('changed live: custom_term');
      expect(again.stdout).not.toContain('`custom_term` names');
      await expectNoChanges(run, dir);
    });
  });

  it('a term renamed in the app with a new one made under its old name: one pull writes both, and drift is then clean', async () => {
    const { dir, app } = await applied({ 'custom-terms/consulting.yaml': TERMS, 'custom-terms/consulting.md': '1. **Services.** As agreed.\n' });
    await app.renameTerm('Consulting Terms', 'Consulting Terms 2019');
    await app.createTerm('Consulting Terms', 'New terms.');
    const pull = await cli('pull', '-C', dir);
    expect(pull.code).toBe(0);
    expect(pull.stdout).toContain('+ custom-term "Consulting Terms 2019"');
    const drift = await cli('drift', '-C', dir);
    expect(drift.code, drift.stdout).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('a playbook renamed in the app with a new one made under its old name: one pull moves the rules to the renamed one, and plan then shows nothing', async () => {
    // Names of their own: the emulator is shared with this file's other tests.
    const { dir, app } = await applied({ 'playbooks/gamma.yaml': NDA.replace('Inbound NDA', 'Gamma NDA').replace('3 years', '4 years') });
    await app.editPlaybook('Gamma NDA', { name: 'Gamma NDA 2025' });
    await app.createPlaybook({ name: 'Gamma NDA', description: 'new' });
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Gamma NDA', '--target', 'playbook/Gamma NDA 2025');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toContain('+ playbook "Gamma NDA 2025"');
    expect(pull.stdout).toContain('- rule "Gamma NDA/Term"');
    expect(pull.stdout).not.toContain('Not pulled');
    // The new playbook has no rules; the renamed one has them, written once.
    expect(await readFile(join(dir, 'playbooks/gamma.yaml'), 'utf8')).not.toContain('- name: Term');
    expect((await cli('drift', '-C', dir, '--target', 'playbook/Gamma NDA', '--target', 'playbook/Gamma NDA 2025')).code).toBe(0);
    expect((await cli('plan', '-C', dir, '--target', 'playbook/Gamma NDA', '--target', 'playbook/Gamma NDA 2025', '--detailed-exitcode')).code).toBe(0);
  });

  it('a playbook renamed in the app with a new one made under its old name, then renamed in the files from that name: the synced one is renamed, its rules kept (probe KU-2)', () =>
    onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/delta.yaml': NDA.replace('Inbound NDA', 'Delta MSA') });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editPlaybook('Delta MSA', { name: 'Delta MSA (old)' });
      const newcomer = await app.createPlaybook({ name: 'Delta MSA', description: 'made in the app' });
      await writeFiles(dir, { 'playbooks/delta.yaml': NDA.replace('Inbound NDA', 'Delta Agreements\nrenamed_from: [Delta MSA]') });
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('~ rename playbook "Delta MSA (old)" → "Delta Agreements"');
      expect(plan.stdout).not.toMatch(/\+ create rule/);
      await applyOk(run, dir);
      // The one made in the app is left as it was: no file declares it.
      expect(await app.playbookId('Delta MSA')).toBe(newcomer);
      await expectNoChanges(run, dir);
    }));

  it('a renumbering the app repeats after the files made it, renamed_from kept as history: the app\'s edits read as changed live, not as the files\' (probe KU-4)', () =>
    onOwnEmulator(async (run, own) => {
      const steps = (names: [string, string, string?][]) => `kind: Playbook\nname: Steps\nrules:\n${names.map(([n, text, from]) => `  - name: ${n}\n${from ? `    renamed_from: [${from}]\n` : ''}    actions: ACCEPT ${text}\n`).join('')}`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/steps.yaml': steps([['S1', 'one'], ['S2', 'two'], ['S3', 'three']]) });
      await applyOk(run, dir);
      // A new first step, the others renumbered.
      await writeFiles(dir, { 'playbooks/steps.yaml': steps([['S1', 'brand new'], ['S2', 'one', 'S1'], ['S3', 'two', 'S2'], ['S4', 'three', 'S3']]) });
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
      // The app does the same again: S4 → S5, …, S1 → S2, and a new S1.
      const app = new App(own.env);
      for (const n of [4, 3, 2, 1]) await app.editRule('Steps', `S${n}`, { name: `S${n + 1}` });
      await app.createRule('Steps', { name: 'S1', actions: 'ACCEPT app newest' });
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toMatch(/~ update rule "Steps\/S2" \(playbooks\/steps.yaml:\d+\) · changed live/);
      expect(plan.stdout).not.toContain('changed in files');
      const drift = await run('drift', '-C', dir, '-o', 'json');
      expect(drift.stdout).not.toContain('"changed-in-files"');
      expect(drift.code).toBe(2);
    }));

  it('a pull keeps the record of a rule removed live that the files rename: drift still says the app removed it, and the plan makes it again as such (probe KN-4)', () =>
    onOwnEmulator(async (run, own) => {
      const rules = (second: string) => `kind: Playbook\nname: Kn4\nrules:\n  - name: a\n    actions: ACCEPT a\n${second}`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/kn4.yaml': rules('  - name: b\n    actions: ACCEPT b\n') });
      await applyOk(run, dir);
      await new App(own.env).deleteRule('Kn4', 'b');
      await writeFiles(dir, { 'playbooks/kn4.yaml': rules('  - name: b2\n    renamed_from: [b]\n    actions: ACCEPT b\n') });
      const pulled = await run('pull', '-C', dir);
      expect(pulled.stdout).toContain('removed live, but the files changed it');
      for (let i = 0; i < 2; i++) {
        const drift = await run('drift', '-C', dir);
        expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining('Removed live')]);
      }
      expect((await run('plan', '-C', dir)).stdout).toMatch(/\+ create rule "Kn4\/b2" \(playbooks\/kn4.yaml:\d+\) · removed live/);
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    }));

  it('a pull that takes out of the files a rule removed live, of a playbook the files rename, forgets its record under the former name: declared again, the rule is new in the files (second read SR86B-2)', () =>
    onOwnEmulator(async (run, own) => {
      const rules = (name: string, extra: string) => `kind: Playbook\nname: ${name}\n${extra}rules:\n  - name: Term\n    actions: ACCEPT a\n  - name: Other\n    actions: ACCEPT b\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': rules('Gone', '') });
      await applyOk(run, dir);
      await writeFiles(dir, { 'playbooks/p.yaml': rules('Arrived', 'renamed_from: [Gone]\n') });
      await new App(own.env).deleteRule('Gone', 'Term');
      const pulled = await run('pull', '-C', dir);
      expect(pulled.code).toBe(0);
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).not.toContain('Term');
      expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('"rule:Gone/Term"');
      await writeFiles(dir, { 'playbooks/p.yaml': rules('Arrived', 'renamed_from: [Gone]\n') });
      expect((await run('plan', '-C', dir)).stdout).toMatch(/\+ create rule "Arrived\/Term" \(playbooks\/p.yaml:\d+\)(?! · removed live)/);
      expect((await run('drift', '-C', dir)).code).toBe(0);
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    }));

  it('keeps the record, under a former name, of another rule the files still declare that was removed live too: drift still says so (second read SR86C-2)', () =>
    onOwnEmulator(async (run, own) => {
      const file = (name: string, extra: string, rules: string) => `kind: Playbook\nname: ${name}\n${extra}rules:\n${rules}  - name: Other\n    actions: ACCEPT b\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file('Gone', '', '  - name: X\n    actions: ACCEPT x\n') });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editRule('Gone', 'X', { name: 'New' });
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toContain('    renamed_from:\n      - X\n');
      const newRule = (await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).match(/ {2}- name: New\n(?: {4}.*\n)+/)![0];
      await writeFiles(dir, { 'playbooks/p.yaml': file('Gone', '', `${newRule}  - name: X\n    actions: ACCEPT x2\n`) });
      await applyOk(run, dir);
      await writeFiles(dir, { 'playbooks/p.yaml': file('Arrived', 'renamed_from: [Gone]\n', `${newRule}  - name: X\n    actions: ACCEPT x3\n`) });
      await app.deleteRule('Gone', 'X');
      await app.deleteRule('Gone', 'New');
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toContain('"rule:Gone/X"');
      const drift = await run('drift', '-C', dir);
      expect([drift.code, drift.stdout]).toEqual([2, expect.stringContaining('Removed live')]);
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    }));

  it('a pull run again after one stopped before its records forgets the record of a rule it took out of a playbook renamed in the app: declared again, the rule is new in the files, not removed live (probe QV-1)', () =>
    onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/minp.yaml': 'kind: Playbook\nname: MinP\nrules:\n  - name: R1\n    actions: ACCEPT a\n  - name: R2\n    actions: ACCEPT b\n' });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editPlaybook('MinP', { name: 'MinP renamed' });
      await app.deleteRule('MinP renamed', 'R2');
      const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
      expect((await run('pull', '-C', dir)).code).toBe(0);
      // As a pull stopped after its files and before its records leaves it.
      await writeFile(join(dir, 'docket.lock.json'), lock);
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('"rule:MinP/R2"');
      await writeFiles(dir, { 'playbooks/again.yaml': 'kind: Playbook\nname: MinP\nrules:\n  - name: R2\n    actions: ACCEPT b\n' });
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toMatch(/\+ create rule "MinP\/R2" \(playbooks\/again.yaml:\d+\)(?! · removed live)/);
      expect((await run('drift', '-C', dir)).code).toBe(0);
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    }));

  it('a pull cut to the one made in the app under a renamed playbook\'s or rule\'s name leaves it, also with no renamed_from yet: written, the renamed one would lose the name from its history (probe MX-1)', async () => {
    const { dir, app } = await applied({ 'playbooks/mu.yaml': NDA.replace('Inbound NDA', 'Mu NDA').replace('3 years', '12 years') });
    await app.editPlaybook('Mu NDA', { name: 'Mu NDA Old' });
    await app.createPlaybook({ name: 'Mu NDA', description: 'new' });
    const before = await readFile(join(dir, 'playbooks/mu.yaml'), 'utf8');
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Mu NDA');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toContain('playbook "Mu NDA" (playbooks/mu.yaml:1): was last in sync as the live playbook now named "Mu NDA Old" (renamed in the app), and a new one was made under its name: pull both together (without --target) so the renamed one keeps this name in its `renamed_from`');
    expect(await readFile(join(dir, 'playbooks/mu.yaml'), 'utf8')).toBe(before);
    // Together, the renamed one's new file keeps the name.
    const both = await cli('pull', '-C', dir, '--target', 'playbook/Mu NDA', '--target', 'playbook/Mu NDA Old');
    expect(both.stdout).not.toContain('Not pulled');
    expect(await readFile(join(dir, 'playbooks/mu-nda-old.yaml'), 'utf8')).toContain('renamed_from:\n  - Mu NDA\n');
    // A rule the same way: cut to the new one, its item is left as it is.
    const { dir: rules, app: ruleApp } = await applied({ 'playbooks/nu.yaml': NDA.replace('Inbound NDA', 'Nu NDA').replace('3 years', '13 years') });
    await ruleApp.editRule('Nu NDA', 'Term', { name: 'Term Old' });
    await ruleApp.createRule('Nu NDA', { name: 'Term', actions: 'ACCEPT up to 1 year' });
    const rulesBefore = await readFile(join(rules, 'playbooks/nu.yaml'), 'utf8');
    const cut = await cli('pull', '-C', rules, '--target', 'rule/Nu NDA/Term');
    expect(cut.stdout).toContain('rule "Nu NDA/Term"');
    expect(cut.stdout).toContain('was last in sync as the live rule now named "Term Old"');
    expect(await readFile(join(rules, 'playbooks/nu.yaml'), 'utf8')).toBe(rulesBefore);
  });

  it('leaves the renamed playbook\'s rules too when the one made in the app under its name differs in nothing else: they went with the renamed one, not removed live (probe RB-3)', async () => {
    const nda = NDA.replace('Inbound NDA', 'Xi NDA').replace('3 years', '14 years');
    const { dir, app } = await applied({ 'playbooks/xi.yaml': nda });
    await app.editPlaybook('Xi NDA', { name: 'Xi NDA Old' });
    await app.createPlaybook({ name: 'Xi NDA' });
    const before = await readFile(join(dir, 'playbooks/xi.yaml'), 'utf8');
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Xi NDA');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toMatch(/Not pulled \(\d+\):\n  playbook "Xi NDA" \(playbooks\/xi\.yaml:\d+\): was last in sync as the live playbook now named "Xi NDA Old" \(renamed in the app\), and a new one was made under its name: pull both together \(without --target\)/);
    expect(pull.stdout).toContain('rule "Xi NDA/Term" (playbooks/xi.yaml:');
    expect(pull.stdout).toContain('its playbook is left as it is (above), and so is what it holds');
    expect(pull.stdout).not.toContain('removed live');
    expect(await readFile(join(dir, 'playbooks/xi.yaml'), 'utf8')).toBe(before);
    // Together, the rules go to the renamed one's new file, which keeps the name in its history.
    const both = await cli('pull', '-C', dir, '--target', 'playbook/Xi NDA', '--target', 'playbook/Xi NDA Old');
    expect(both.stdout).not.toContain('Not pulled');
    expect(await readFile(join(dir, 'playbooks/xi-nda-old.yaml'), 'utf8')).toContain('renamed_from:\n  - Xi NDA\n');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a pull of the renamed playbook alone does not write its rules into a new file while the files still declare them under the old name', async () => {
    const { dir, app } = await applied({ 'playbooks/zeta.yaml': NDA.replace('Inbound NDA', 'Zeta NDA').replace('3 years', '6 years') });
    await app.editPlaybook('Zeta NDA', { name: 'Zeta NDA 2025' });
    await app.createPlaybook({ name: 'Zeta NDA', description: 'new' });
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Zeta NDA 2025');
    expect(pull.code, pull.stdout).toBe(0);
    // The new one under its old name left out, its history could not go with it (second read SR75-4).
    expect(pull.stdout).toContain('playbook "Zeta NDA 2025": was playbook "Zeta NDA" when last in sync, and a new playbook was made in the app under that name: pull both together (also --target \'playbook/Zeta NDA\')');
    // Nothing the next apply would copy into the new playbook.
    const plan = await cli('plan', '-C', dir, '--target', 'playbook/Zeta NDA', '--target', 'playbook/Zeta NDA 2025', '-o', 'json');
    expect((JSON.parse(plan.stdout) as { changes: { action: string; direction: string }[] }).changes.filter((c) => c.action === 'create' && c.direction === 'only-in-files')).toEqual([]);
    const both = await cli('pull', '-C', dir, '--target', 'playbook/Zeta NDA', '--target', 'playbook/Zeta NDA 2025');
    expect(both.stdout).not.toContain('Not pulled');
    expect((await cli('plan', '-C', dir, '--target', 'playbook/Zeta NDA', '--target', 'playbook/Zeta NDA 2025', '--detailed-exitcode')).code).toBe(0);
  });

  it('a rule renamed in the app with a new one under its old name keeps its drift: revert in pull: not written into the files', async () => {
    const { dir, app } = await applied({ 'playbooks/eta.yaml': NDA.replace('Inbound NDA', 'Eta NDA').replace('3 years', '7 years').replace('  - name: Term\n', '  - name: Term\n    drift: revert\n') });
    await termRenamedWithNewOne(app, 'Eta NDA', { actions: 'ACCEPT up to 1 year' });
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Eta NDA');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toContain('rule "Eta NDA/Term 2025"');
    expect(pull.stdout).toContain('drift: revert');
    expect(await readFile(join(dir, 'playbooks/eta.yaml'), 'utf8')).not.toContain('Term 2025');
  });

  it('a pull that a policy keeps from moving a renamed playbook\'s rules says the policy, not to pull again', async () => {
    const { dir, app } = await applied({ 'playbooks/theta.yaml': NDA.replace('Inbound NDA', 'Theta NDA').replace('3 years', '8 years').replace('rules:\n', 'drift: ignore\nrules:\n') });
    await app.editPlaybook('Theta NDA', { name: 'Theta NDA 2025' });
    await app.createPlaybook({ name: 'Theta NDA', description: 'new' });
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Theta NDA', '--target', 'playbook/Theta NDA 2025');
    // The playbook's own policy holds its rename (probe PG-1), which holds its rules with it.
    expect(pull.stdout).toContain('playbook "Theta NDA 2025": renamed in the app from playbook "Theta NDA", whose `drift: ignore` leaves the rename as it is');
    expect(pull.stdout).not.toContain('pull again');
  });

  it('a playbook renamed in the app with a new one made under its old name: its new file keeps its drift: and its rules\' ignore_fields, with the files\' values of what they ignore (probe MM-5)', async () => {
    const policies = NDA.replace('Inbound NDA', 'Iota NDA').replace('3 years', '9 years').replace('rules:\n', 'drift: adopt\nrules:\n').replace('  - name: Term\n', '  - name: Term\n    description: as agreed\n    ignore_fields: [description]\n');
    const { dir, app } = await applied({ 'playbooks/iota.yaml': policies });
    await app.editRule('Iota NDA', 'Term', { description: 'edited in the app' });
    await app.editPlaybook('Iota NDA', { name: 'Iota NDA 2025' });
    await app.createPlaybook({ name: 'Iota NDA', description: 'new' });
    const targets = ['--target', 'playbook/Iota NDA', '--target', 'playbook/Iota NDA 2025'];
    const pull = await cli('pull', '-C', dir, ...targets);
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toContain('+ playbook "Iota NDA 2025"');
    const written = await readFile(join(dir, 'playbooks/iota-nda-2025.yaml'), 'utf8');
    expect(written).toContain('drift: adopt');
    expect(written).toMatch(/- name: Term\n {4}description: as agreed\n[^-]*ignore_fields:\n {6}- description\n/);
    expect(written).not.toContain('edited in the app');
    // The old document is the new playbook's: its policy went with the renamed one (probe NH-1).
    expect(await readFile(join(dir, 'playbooks/iota.yaml'), 'utf8')).not.toContain('drift:');
    expect((await cli('plan', '-C', dir, ...targets, '--detailed-exitcode')).code).toBe(0);
    expect((await cli('pull', '-C', dir, ...targets)).stdout).toContain('Nothing to pull');
  });

  it('a playbook renamed in the app with a new one made under its old name: its rules go with it, not counted as removed by the pull guard (probe OP-2)', async () => {
    await onOwnEmulator(async (run, own) => {
      const rules = ['A', 'B', 'C', 'D', 'E'].map((r) => `  - name: ${r}\n    actions: ACCEPT ${r}\n`).join('');
      const { dir, app } = await appliedOn(run, own, { 'docket.yaml': 'version: 1\n', 'playbooks/omicron.yaml': `kind: Playbook\nname: Omicron NDA\nrules:\n${rules}`, 'playbooks/other.yaml': 'kind: Playbook\nname: Other\nrules:\n  - name: X\n    actions: ACCEPT X\n' });
      await app.editPlaybook('Omicron NDA', { name: 'Omicron NDA 2025' });
      await app.createPlaybook({ name: 'Omicron NDA', description: 'new' });
      // Five of six rules leave the old document, but none leaves the organization: no refusal.
      const pull = await run('pull', '-C', dir);
      expect([pull.code, pull.stderr]).toEqual([0, '']);
      expect(await readFile(join(dir, 'playbooks/omicron-nda-2025.yaml'), 'utf8')).toContain(rules);
      expect(await readFile(join(dir, 'playbooks/omicron.yaml'), 'utf8')).not.toContain('- name: A');
      await expectNoChanges(run, dir);
    });
  });

  it('the new rule that keeps an item whose ignore_fields went with the renamed one is recorded with those fields: a later edit of them in the files is the files\' (probe OZ-1)', async () => {
    await onOwnEmulator(async (run, own) => {
      const { dir, app } = await appliedOn(run, own, { 'docket.yaml': 'version: 1\n', 'playbooks/ig.yaml': 'kind: Playbook\nname: Ig\nrules:\n  - name: A\n    actions: a\n    ignore_fields: [internal_notes]\n' });
      await app.editRule('Ig', 'A', { name: 'A2' });
      await app.createRule('Ig', { name: 'A', actions: 'new a', internal_notes: 'new A notes' });
      expect((await run('pull', '-C', dir)).code).toBe(0);
      // A second pull has nothing to record.
      const again = await run('pull', '-C', dir);
      expect(again.stdout).toContain('Nothing to pull');
      expect(again.stdout).not.toContain('sync record');
      await writeFile(join(dir, 'playbooks/ig.yaml'), (await readFile(join(dir, 'playbooks/ig.yaml'), 'utf8')).replace('new A notes', 'edited in PR'));
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('~ update rule "Ig/A"');
      expect(plan.stdout).toContain('· changed in files');
      expect((await run('drift', '-C', dir)).code).toBe(0);
      await applyOk(run, dir);

      // A playbook's too.
      await writeFile(join(dir, 'playbooks/jg.yaml'), 'kind: Playbook\nname: Jg\ndescription: old desc\nignore_fields: [description]\n');
      await applyOk(run, dir);
      await app.editPlaybook('Jg', { name: 'Jg2' });
      await app.createPlaybook({ name: 'Jg', description: 'new desc' });
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect((await run('pull', '-C', dir)).stdout).not.toContain('sync record');
      await writeFile(join(dir, 'playbooks/jg.yaml'), (await readFile(join(dir, 'playbooks/jg.yaml'), 'utf8')).replace('new desc', 'edited in PR'));
      expect((await run('plan', '-C', dir)).stdout).toMatch(/~ update playbook "Jg" \(playbooks\/jg\.yaml:\d+\) · changed in files/);
    });
  });

  it('renames in a test only the rule it names as written, where two rules differ only in letter case (probe EA-1)', async () => {
    await onOwnEmulator(async (run, own) => {
      const test = 'kind: PlaybookTest\nplaybook: Case\ncases:\n  - name: c\n    contract: { file: c.txt }\n    review_type: SummaryReview\n    expect:\n      flags: { includes: [TERM], excludes: [Term] }\n';
      const { dir, app } = await appliedOn(run, own, { 'docket.yaml': 'version: 1\n', 'playbooks/case.yaml': 'kind: Playbook\nname: Case\nrules:\n  - name: Term\n    actions: ACCEPT any term\n  - name: TERM\n    actions: REJECT any term\n', 'tests/case.test.yaml': test, 'tests/c.txt': 'A contract.\n' });
      await app.editRule('Case', 'Term', { name: 'Duration' });
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect(await readFile(join(dir, 'tests/case.test.yaml'), 'utf8')).toBe(test.replace('excludes: [Term]', 'excludes: [Duration]'));
      await app.editRule('Case', 'TERM', { name: 'Beta' });
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect(await readFile(join(dir, 'tests/case.test.yaml'), 'utf8')).toBe(test.replace('excludes: [Term]', 'excludes: [Duration]').replace('includes: [TERM]', 'includes: [Beta]'));
      expect((await run('validate', '-C', dir)).code).toBe(0);
      expect((await run('plan', '-C', dir, '--detailed-exitcode')).code).toBe(0);
    });
  });

  it('says the places a test file names a renamed rule in line order (probe OW-4)', async () => {
    await onOwnEmulator(async (run, own) => {
      const test = 'kind: PlaybookTest\nplaybook: Ord\ncases:\n  - name: c\n    contract: { file: c.txt }\n    expect:\n      flags: { excludes: [a1] }\n      redlines:\n        - topic: a1\n          evaluation: accept\n';
      const { dir, app } = await appliedOn(run, own, { 'docket.yaml': 'version: 1\n', 'playbooks/ord.yaml': 'kind: Playbook\nname: Ord\nrules:\n  - name: a1\n    actions: ACCEPT a1\n', 'tests/ord.test.yaml': test, 'tests/c.txt': 'A contract.\n' });
      await app.editRule('Ord', 'a1', { name: 'a1L' });
      const pulled = await run('pull', '-C', dir);
      expect(pulled.code).toBe(0);
      const lines = [...pulled.stdout.matchAll(/tests\/ord\.test\.yaml:(\d+): now names rule/g)].map((m) => Number(m[1]));
      expect(lines).toEqual([7, 9]);
    });
  });

  it('a playbook renamed in the app with a new one made under its old name: its new file keeps the placeholders live still reads as, and its rules\' renamed_from (probes GH-1, GH-2)', async () => {
    const playbook = 'kind: Playbook\nname: Nu NDA\ndescription: Reviewed by ${var.lead}\nrules:\n  - name: Term 2\n    renamed_from: [Term]\n    actions: ACCEPT 3 years\n    reviewer: ${var.lead}\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  lead: alice@acme.example\n', 'playbooks/nu.yaml': playbook });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editPlaybook('Nu NDA', { name: 'Nu NDA 2025' });
    // (Made with the text the old document's placeholder reads as, which that document, now the new one's, keeps.)
    await app.createPlaybook({ name: 'Nu NDA', description: 'Reviewed by alice@acme.example' });
    const targets = ['--target', 'playbook/Nu NDA', '--target', 'playbook/Nu NDA 2025'];
    const pull = await cli('pull', '-C', dir, ...targets);
    expect(pull.code, pull.stdout).toBe(0);
    const written = await readFile(join(dir, 'playbooks/nu-nda-2025.yaml'), 'utf8');
    expect(written).toContain('description: Reviewed by ${var.lead}\n');
    expect(written).toMatch(/- name: Term 2\n {4}actions: ACCEPT 3 years\n {4}reviewer: \$\{var\.lead\}\n {4}renamed_from:\n {6}- Term\n/);
    const after = await cli('plan', '-C', dir, ...targets, '--detailed-exitcode');
    expect(after.code, after.stdout + written).toBe(0);
  });

  it('a playbook renamed in the app with a new one made under its old name: a rule renamed in the app too keeps the name it was last in sync as in its renamed_from (second read SR105-2)', async () => {
    const playbook = 'kind: Playbook\nname: Omicron NDA\nrules:\n  - name: Term 2\n    renamed_from: [Term]\n    actions: ACCEPT 3 years\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/omicron.yaml': playbook });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('Omicron NDA', 'Term 2', { name: 'Term 3' });
    await app.editPlaybook('Omicron NDA', { name: 'Omicron NDA 2025' });
    await app.createPlaybook({ name: 'Omicron NDA' });
    const targets = ['--target', 'playbook/Omicron NDA', '--target', 'playbook/Omicron NDA 2025'];
    const pull = await cli('pull', '-C', dir, ...targets);
    expect(pull.code, pull.stdout).toBe(0);
    expect(await readFile(join(dir, 'playbooks/omicron-nda-2025.yaml'), 'utf8')).toMatch(/- name: Term 3\n {4}actions: ACCEPT 3 years\n {4}renamed_from:\n {6}- Term 2\n {6}- Term\n/);
    expect((await cli('plan', '-C', dir, ...targets, '--detailed-exitcode')).code).toBe(0);
  });

  it('a rule renamed in the app, a new one made under its old name, whose placeholder live no longer reads as: its new item says it writes the live value (second read SR105-3)', async () => {
    const playbook = 'kind: Playbook\nname: Pi NDA\nrules:\n  - name: Term\n    actions: ACCEPT 3 years\n    reviewer: ${var.lead}\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  lead: alice@acme.example\n', 'playbooks/pi.yaml': playbook });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('Pi NDA', 'Term', { reviewer_id: null });
    await termRenamedWithNewOne(app, 'Pi NDA', { actions: 'ACCEPT 1 year' });
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Pi NDA');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toContain('rule "Term 2025"\'s new item in playbooks/pi.yaml writes `reviewer` as live holds it: its old item gave it by a placeholder');
  });

  it('a playbook renamed in the app whose placeholder live no longer reads as, with a new one made under its old name, is not pulled: its new file would write this environment\'s value (probe GH-1)', async () => {
    const playbook = 'kind: Playbook\nname: Xi NDA\nrules:\n  - name: Term\n    actions: ACCEPT 3 years\n    reviewer: ${var.lead}\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars:\n  lead: alice@acme.example\n', 'playbooks/xi.yaml': playbook });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('Xi NDA', 'Term', { reviewer_id: null });
    await app.editPlaybook('Xi NDA', { name: 'Xi NDA 2025' });
    await app.createPlaybook({ name: 'Xi NDA', description: 'new' });
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Xi NDA', '--target', 'playbook/Xi NDA 2025');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toContain('playbooks/xi.yaml writes its rule "Term"\'s `reviewer` with a placeholder');
    expect(await readFile(join(dir, 'playbooks/xi.yaml'), 'utf8')).toContain('reviewer: ${var.lead}');
  });

  it('a rule renamed in the app with a new one made under its old name keeps its ignore_fields in its new item (probe MM-5)', async () => {
    const { dir, app } = await applied({ 'playbooks/kappa.yaml': NDA.replace('Inbound NDA', 'Kappa NDA').replace('3 years', '10 years').replace('  - name: Term\n', '  - name: Term\n    ignore_fields: [generate_summary]\n') });
    await termRenamedWithNewOne(app, 'Kappa NDA', { actions: 'ACCEPT up to 2 years' });
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Kappa NDA');
    expect(pull.code, pull.stdout).toBe(0);
    const written = await readFile(join(dir, 'playbooks/kappa.yaml'), 'utf8');
    expect(written).toMatch(/- name: Term 2025\n {4}renamed_from:\n {6}- Term\n {4}actions: ACCEPT up to 10 years\n {4}ignore_fields:\n {6}- generate_summary\n/);
    expect((await cli('plan', '-C', dir, '--target', 'playbook/Kappa NDA', '--detailed-exitcode')).code).toBe(0);
  });

  it('a rule renamed in the app with a new one made under its old name takes its drift:, ignore_fields and ignored values away from the item the new one keeps: no other environment creates the new one with them (probe NH-1)', async () => {
    const { dir, app } = await applied({ 'playbooks/mu.yaml': 'kind: Playbook\nname: Mu NDA\nrules:\n  - name: Term\n    actions: ACCEPT 3 years\n    internal_notes: Agreed with sales\n    ignore_fields: [internal_notes]\n    drift: adopt\n' });
    await termRenamedWithNewOne(app, 'Mu NDA', { actions: 'ACCEPT 1 year' });
    const targets = ['--target', 'playbook/Mu NDA'];
    const pull = await cli('pull', '-C', dir, ...targets);
    expect(pull.code, pull.stdout).toBe(0);
    expect(await readFile(join(dir, 'playbooks/mu.yaml'), 'utf8')).toBe(
      'kind: Playbook\nname: Mu NDA\nrules:\n  - name: Term 2025\n    renamed_from:\n      - Term\n    actions: ACCEPT 3 years\n    internal_notes: Agreed with sales\n    drift: adopt\n    ignore_fields:\n      - internal_notes\n  - name: Term\n    actions: ACCEPT 1 year\n',
    );
    expect((await cli('plan', '-C', dir, ...targets, '--detailed-exitcode')).code).toBe(0);
    expect((await cli('pull', '-C', dir, ...targets)).stdout).toContain('Nothing to pull');
  });

  it('a field the playbook ignores goes with the renamed rule too, and the new one\'s live value is not pulled in its place, as for any new rule (second read SR78-2, probe GB)', async () => {
    const { dir, app } = await applied({ 'playbooks/xi.yaml': 'kind: Playbook\nname: Xi NDA\nignore_fields: [internal_notes]\nrules:\n  - name: Term\n    actions: ACCEPT 3 years\n    internal_notes: Agreed with sales\n' });
    await termRenamedWithNewOne(app, 'Xi NDA', { actions: 'ACCEPT 1 year', internal_notes: 'set in the app' });
    const targets = ['--target', 'playbook/Xi NDA'];
    expect((await cli('pull', '-C', dir, ...targets)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/xi.yaml'), 'utf8')).toBe(
      'kind: Playbook\nname: Xi NDA\nignore_fields: [internal_notes]\nrules:\n  - name: Term 2025\n    renamed_from:\n      - Term\n    actions: ACCEPT 3 years\n    internal_notes: Agreed with sales\n  - name: Term\n    actions: ACCEPT 1 year\n',
    );
    expect((await cli('plan', '-C', dir, ...targets, '--detailed-exitcode')).code).toBe(0);
  });

  it('a playbook renamed in the app while a policy keeps pull from writing it leaves its old document as it is, rules and history: not given to the one made under its name (probe MM-5, second read SR77-2)', async () => {
    const lambda = NDA.replace('Inbound NDA', 'Lambda NDA').replace('3 years', '11 years').replace('  - name: Law\n', '  - name: Law\n    drift: ignore\n');
    const { dir, app } = await applied({ 'playbooks/lambda.yaml': lambda });
    await app.editPlaybook('Lambda NDA', { name: 'Lambda NDA 2025' });
    await app.createPlaybook({ name: 'Lambda NDA', description: 'new' });
    const targets = ['--target', 'playbook/Lambda NDA', '--target', 'playbook/Lambda NDA 2025'];
    const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
    for (let i = 0; i < 2; i++) {
      const pull = await cli('pull', '-C', dir, ...targets);
      expect(pull.code, pull.stdout).toBe(0);
      expect(pull.stdout).toContain('playbook "Lambda NDA 2025": its rule "Law": the files still declare it as rule "Lambda NDA/Law", whose `drift: ignore` keeps it there');
      expect(pull.stdout).toContain('playbook "Lambda NDA" (playbooks/lambda.yaml:1): was last in sync as the live playbook now named "Lambda NDA 2025" (renamed in the app), which this pull does not write (said above)');
      expect(pull.stdout).toContain('rule "Lambda NDA/Term" (playbooks/lambda.yaml:4): its playbook is left as it is (above)');
      expect(pull.stdout).toContain('Wrote no file');
      expect(await readFile(join(dir, 'playbooks/lambda.yaml'), 'utf8')).toBe(lambda);
      expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toBe(lock);
    }
    // The policy taken out, the renamed one is written with the name in its history, and the old document is the new one's.
    await writeFiles(dir, { 'playbooks/lambda.yaml': lambda.replace('    drift: ignore\n', '') });
    const pulled = await cli('pull', '-C', dir, ...targets);
    expect(pulled.code, pulled.stdout).toBe(0);
    expect(await readFile(join(dir, 'playbooks/lambda-nda-2025.yaml'), 'utf8')).toContain('renamed_from:\n  - Lambda NDA\n');
    expect(await readFile(join(dir, 'playbooks/lambda.yaml'), 'utf8')).toContain('description: new');
  });

  it('a playbook renamed in the app while its own drift: ignore or revert keeps pull from writing the rename, with a new one made under its old name: pull writes nothing, twice (probe PG-1)', async () => {
    for (const policy of ['ignore', 'revert']) {
      await onOwnEmulator(async (run, own) => {
        const files = { 'docket.yaml': 'version: 1\n', 'playbooks/gamma.yaml': `kind: Playbook\nname: Gamma\ndrift: ${policy}\nrules:\n  - name: G1\n    actions: ACCEPT g1\n` };
        const { dir, app } = await appliedOn(run, own, files);
        await app.editPlaybook('Gamma', { name: 'Gamma X' });
        await app.createPlaybook({ name: 'Gamma', description: 'new gamma' });
        await app.createRule('Gamma', { name: 'G1', actions: 'ACCEPT new g1' });
        await pullsTwiceWritingNothing(run, dir, files, (stdout) => {
          expect(stdout).toContain(`playbook "Gamma X": renamed in the app from playbook "Gamma", whose \`drift: ${policy}\` leaves the rename as it is`);
        });
      });
    }
  });

  it('a playbook renamed in the app whose ignore_fields go with it, with a new one and its rules made under its old name: the rules the old document keeps take their live values of what it ignored, and the plan is then clean (probes PG-1, PG-3)', () =>
    onOwnEmulator(async (run, own) => {
      const { dir, app } = await appliedOn(run, own, { 'docket.yaml': 'version: 1\n', 'playbooks/gamma.yaml': 'kind: Playbook\nname: Gamma\nignore_fields: [description, actions]\nrules:\n  - name: G1\n    actions: ACCEPT g1\n  - name: G2\n    actions: ACCEPT g2\n    ignore_fields: [actions]\n' });
      await app.editPlaybook('Gamma', { name: 'Gamma X' });
      await app.createPlaybook({ name: 'Gamma', description: 'new gamma' });
      await app.createRule('Gamma', { name: 'G1', actions: 'ACCEPT new g1' });
      await app.createRule('Gamma', { name: 'G2', actions: 'ACCEPT new g2' });
      const pulled = await run('pull', '-C', dir);
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      // The description before the rules; G1's actions the new rule's; G2 still ignores its own.
      expect(await readFile(join(dir, 'playbooks/gamma.yaml'), 'utf8')).toBe('kind: Playbook\nname: Gamma\ndescription: new gamma\nrules:\n  - name: G1\n    actions: ACCEPT new g1\n  - name: G2\n    actions: ACCEPT g2\n    ignore_fields: [actions]\n');
      expect(await readFile(join(dir, 'playbooks/gamma-x.yaml'), 'utf8')).toContain('ignore_fields:\n  - description\n  - actions\n');
      await expectNoChanges(run, dir);
      const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
      expect((await run('pull', '-C', dir)).stdout).toContain('Nothing to pull');
      expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toBe(lock);
      // An edit of G1's actions in the files is theirs, not drift.
      await writeFile(join(dir, 'playbooks/gamma.yaml'), (await readFile(join(dir, 'playbooks/gamma.yaml'), 'utf8')).replace('ACCEPT new g1', 'ACCEPT newer g1'));
      const drift = await run('drift', '-C', dir);
      expect([drift.code, drift.stderr]).toEqual([0, '']);
    }));

  it('a rename in the app onto a name another rule lists as a former one takes it out of that list: the files declare it once (probe XH-2)', () =>
    onOwnEmulator(async (run, own) => {
      const playbook = ['kind: Playbook', 'name: P', 'rules:', '  - name: C3', '    renamed_from: [C, C2]', '    actions: ACCEPT c', '  - name: Z', '    actions: ACCEPT z', ''].join('\n');
      const { dir, app } = await appliedOn(run, own, { 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook });
      await app.editRule('P', 'Z', { name: 'C' });
      const pull = await run('pull', '-C', dir);
      expect(pull.code, pull.stdout).toBe(0);
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(playbook.replace('[C, C2]', '[C2]').replace('  - name: Z\n', '  - name: C\n    renamed_from:\n      - Z\n'));
      expect((await run('validate', '-C', dir)).code).toBe(0);
      await expectNoChanges(run, dir);
    }));

  it('a rename in the app onto the name of a declared playbook pinned to its own object is not written: the files would declare the name twice (probe NB-1)', () =>
    onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/gamma.yaml': 'kind: Playbook\nname: Gamma\nrules: []\n', 'playbooks/delta.yaml': 'kind: Playbook\nname: Delta\nrules: []\n' });
      await applyOk(run, dir);
      const app = new App(own.env);
      const delta = await app.playbookId('Delta');
      await app.editPlaybook('Gamma', { name: 'Delta' });
      // As the ambiguous-match hint says: pin the one the file means.
      await writeFiles(dir, { 'playbooks/delta.yaml': `kind: Playbook\nname: Delta\nid: ${delta}\nrules: []\n` });
      const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
      const pull = await run('pull', '-C', dir);
      expect(pull.code, pull.stdout).toBe(0);
      expect(pull.stdout).toContain('playbook "Gamma" name (playbooks/gamma.yaml:2): renamed in the app to "Delta", the name playbook "Delta" has in the files (playbooks/delta.yaml:2) and live');
      expect(pull.stdout).toContain('Wrote no file');
      expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toBe(lock);
      expect((await run('validate', '-C', dir)).code).toBe(0);
      expect((await run('drift', '-C', dir)).stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
    }));

  it('a playbook renamed aside in the app and another moved onto its name is no newcomer: pull writes nothing and keeps every record, twice (probes NB-4, MX-2)', () =>
    onOwnEmulator(async (run, own) => {
      const files = twoPlaybooks(['Gamma', 'g1', 'ACCEPT g'], ['Delta', 'd1', 'ACCEPT d']);
      const { dir, app } = await appliedOn(run, own, files);
      await app.editPlaybook('Delta', { name: 'Delta 2' });
      await app.editPlaybook('Gamma', { name: 'Delta' });
      await pullsTwiceWritingNothing(run, dir, files, (stdout) => {
        expect(stdout).toContain('playbook "Delta 2": the files still declare it as playbook "Delta", which this pull leaves there (said above): once that is settled, pull again, or move it in the files by hand');
        expect(stdout).not.toContain('without --target');
      });
    }));

  it('two playbooks that swapped names in the app, one under drift: adopt: apply writes neither onto the other, and the swap made by hand in the files converges (probes NC-1, NB-3)', () =>
    onOwnEmulator(async (run, own) => {
      const alpha = 'kind: Playbook\nname: Alpha\ndrift: adopt\ndescription: a\nrules:\n  - name: a1\n    actions: ACCEPT a\n';
      const beta = 'kind: Playbook\nname: Beta\ndescription: b\nrules:\n  - name: b1\n    actions: ACCEPT b\n';
      const { dir, app } = await appliedOn(run, own, { 'docket.yaml': 'version: 1\n', 'playbooks/alpha.yaml': alpha, 'playbooks/beta.yaml': beta });
      await app.editPlaybook('Alpha', { name: 'Aside' });
      await app.editPlaybook('Beta', { name: 'Alpha' });
      await app.editPlaybook('Aside', { name: 'Beta' });
      const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
      for (let i = 0; i < 2; i++) {
        const applied = await applyOk(run, dir);
        expect(applied.stdout).toContain('No changes');
        expect(applied.stdout).toContain('Warning: playbook "Beta" (playbooks/beta.yaml:3) is held: the app renamed playbook "Alpha"\'s object onto this name, and its `drift: adopt` leaves that object as it is');
        expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toBe(lock);
      }
      // As the warning says: the swap made in the files by hand (had apply written Beta onto Alpha's object, this would differ).
      await writeFiles(dir, { 'playbooks/alpha.yaml': alpha.replace('name: Alpha', 'name: Beta'), 'playbooks/beta.yaml': beta.replace('name: Beta', 'name: Alpha') });
      await expectNoChanges(run, dir);
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    }));

  it('a rule renamed in the app under drift: adopt onto a name the files give a new rule is not overwritten; the new one renamed as the warning says, a pull converges (probe NJ-2)', () =>
    onOwnEmulator(async (run, own) => {
      const playbook = 'kind: Playbook\nname: P\ndrift: adopt\nrules:\n  - name: a1\n    actions: ACCEPT a1\n';
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook });
      await applyOk(run, dir);
      await new App(own.env).editRule('P', 'a1', { name: 'a1x' });
      await writeFiles(dir, { 'playbooks/p.yaml': `${playbook}  - name: a1x\n    actions: ACCEPT a1x new\n` });
      const applied = await applyOk(run, dir);
      expect(applied.stdout).toContain('No changes');
      expect(applied.stdout).toContain('~ update rule "P/a1x" (playbooks/p.yaml:8) · changed in files · drift: adopt of the object live under this name (see the warning)');
      expect(applied.stdout).toContain('Warning: rule "P/a1x" (playbooks/p.yaml:8) is held: the app renamed rule "P/a1"\'s object onto this name, which the files give a new rule');
      // The files' change held is pending, not drift (second read SR78-1).
      const drift = JSON.parse((await run('drift', '-C', dir, '-o', 'json')).stdout) as { drift: { key: string }[]; pending: { key: string }[] };
      expect([drift.drift.map((i) => i.key), drift.pending.map((i) => i.key)]).toEqual([['P/a1'], ['P/a1x']]);
      await writeFiles(dir, { 'playbooks/p.yaml': `${playbook}  - name: a1y\n    actions: ACCEPT a1x new\n` });
      await applyOk(run, dir);
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe('kind: Playbook\nname: P\ndrift: adopt\nrules:\n  - name: a1x\n    renamed_from:\n      - a1\n    actions: ACCEPT a1\n  - name: a1y\n    actions: ACCEPT a1x new\n');
      await expectNoChanges(run, dir);
      expect((await run('drift', '-C', dir)).code).toBe(0);
    }));

  it('holds, under drift: adopt, a new rule the files give the name the app renamed a rule to, also in a playbook renamed in a chain (A to B while B goes to C): the app\'s rule is not overwritten (second read SR87-3)', () =>
    onOwnEmulator(async (run, own) => {
      const book = (name: string, was: string | undefined, extra = '') => `kind: Playbook\nname: ${name}\n${was ? `renamed_from: [${was}]\n` : ''}drift: adopt\nrules:\n  - { name: S0, actions: ACCEPT ${name}0 }\n  - { name: S1, actions: ACCEPT ${name}1 }\n${extra}`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/a.yaml': book('A', undefined), 'playbooks/b.yaml': book('B', undefined) });
      await applyOk(run, dir);
      await new App(own.env).editRule('B', 'S1', { name: 'S9' });
      await writeFiles(dir, {
        'playbooks/a.yaml': book('B', 'A').replaceAll('ACCEPT B', 'ACCEPT A'),
        'playbooks/b.yaml': book('C', 'B', '  - { name: S9, actions: ACCEPT files9 }\n').replaceAll('ACCEPT C', 'ACCEPT B'),
      });
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('the app renamed rule "C/S1"\'s object onto this name, which the files give a new rule');
      await applyOk(run, dir);
      const org = own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!;
      const c = Object.values(org.playbooks).find((p) => p.name === 'C')!.id;
      expect(Object.values(org.rules).filter((r) => r.playbook_id === c).map((r) => [r.name, r.actions]).sort()).toEqual([['S0', 'ACCEPT B0'], ['S9', 'ACCEPT B1']]);
      // As the warning says: the new one named otherwise in the files, applied, and the app's rename pulled, it converges.
      const settle = async (at: string, file: string): Promise<void> => {
        await writeFiles(at, { [file]: (await readFile(join(at, file), 'utf8')).replace('name: S9, actions: ACCEPT files9', 'name: S10, actions: ACCEPT files9') });
        await applyOk(run, at);
        expect((await run('pull', '-C', at)).code).toBe(0);
        await expectNoChanges(run, at);
        expect((await run('drift', '-C', at)).code).toBe(0);
      };
      await settle(dir, 'playbooks/b.yaml');
      // One playbook renamed (D to E), no chain: the same.
      const one = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/d.yaml': book('D', undefined) });
      await applyOk(run, one);
      await new App(own.env).editRule('D', 'S1', { name: 'S9' });
      await writeFiles(one, { 'playbooks/d.yaml': book('E', 'D', '  - { name: S9, actions: ACCEPT files9 }\n').replaceAll('ACCEPT E', 'ACCEPT D') });
      expect((await run('plan', '-C', one)).stdout).toContain('the app renamed rule "E/S1"\'s object onto this name, which the files give a new rule');
      await applyOk(run, one);
      const e = Object.values(org.playbooks).find((p) => p.name === 'E')!.id;
      expect(Object.values(org.rules).filter((r) => r.playbook_id === e).map((r) => [r.name, r.actions]).sort()).toEqual([['S0', 'ACCEPT D0'], ['S9', 'ACCEPT D1']]);
      await settle(one, 'playbooks/d.yaml');
    }));

  it('a Word term renamed in the app and pulled keeps its upload record when a new term takes its former name: an edit of its file is still published (probe NJ-1)', () =>
    onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'terms/d.yaml': 'kind: CustomTerm\nname: Data Terms\ndocx_file: data.docx\n', 'terms/data.docx': docx('data terms'), 'terms/dp.docx': docx('new data terms') });
      await applyOk(run, dir);
      await new App(own.env).renameTerm('Data Terms', 'DPA Terms');
      expect((await run('pull', '-C', dir)).code).toBe(0);
      expect(await readFile(join(dir, 'terms/d.yaml'), 'utf8')).toContain('name: DPA Terms');
      // An apply with nothing to change moves the entry too (second read SR78-6).
      await applyOk(run, dir);
      expect(Object.keys(await lockFiles(dir))).toEqual(['custom-term:DPA Terms']);
      await writeFile(join(dir, 'terms/d.yaml'), `${await readFile(join(dir, 'terms/d.yaml'), 'utf8')}---\nkind: CustomTerm\nname: Data Terms\ndocx_file: dp.docx\n`);
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
      await writeFile(join(dir, 'terms/data.docx'), docx('data terms, edited'));
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('↑ publish custom-term "DPA Terms"');
      expect(plan.stdout).not.toContain('cannot compare');
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    }));

  it('a shift of names in the app with a new object under the first name gives the new one no history: pull writes nothing, twice (second read SR77-2)', () =>
    onOwnEmulator(async (run, own) => {
      const files = twoPlaybooks(['A', 'a1', 'ACCEPT a'], ['B', 'b1', 'ACCEPT b']);
      const { dir, app } = await appliedOn(run, own, files);
      await app.editPlaybook('B', { name: 'B old' });
      await app.editPlaybook('A', { name: 'B' });
      await app.createPlaybook({ name: 'A', description: 'new A' });
      await pullsTwiceWritingNothing(run, dir, files, (stdout) => {
        expect(stdout).toContain('playbook "A" (playbooks/a.yaml:1): was last in sync as the live playbook now named "B", which the files declare as another (renamed in the app), and a new one was made under its name: left as it is');
      });
    }));

  it('a rule renamed in the app with a new one made under its old name: one pull writes both', async () => {
    const { dir, app } = await applied({ 'playbooks/delta.yaml': NDA.replace('Inbound NDA', 'Delta NDA').replace('3 years', '5 years') });
    await termRenamedWithNewOne(app, 'Delta NDA', { actions: 'ACCEPT up to 2 years' });
    // Drift says what became of the one renamed, not a change of no field (probe JA-1).
    const drift = await cli('drift', '-C', dir, '--target', 'playbook/Delta NDA');
    expect(drift.stdout).toMatch(/~ rule "Delta NDA\/Term 2025" \([^)]*\): renamed in the app from "Delta NDA\/Term", a name another live rule holds now/);
    const json = JSON.parse((await cli('drift', '-C', dir, '--target', 'playbook/Delta NDA', '-o', 'json')).stdout) as { drift: { key: string; moved_from?: string }[] };
    expect(json.drift.find((i) => i.key === 'Delta NDA/Term 2025')?.moved_from).toBe('Delta NDA/Term');
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Delta NDA');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).not.toContain('Not pulled');
    const written = await readFile(join(dir, 'playbooks/delta.yaml'), 'utf8');
    expect(written).toContain('- name: Term 2025');
    expect(written).toContain('ACCEPT up to 2 years');
    expect((await cli('drift', '-C', dir, '--target', 'playbook/Delta NDA')).code).toBe(0);
    expect((await cli('plan', '-C', dir, '--target', 'playbook/Delta NDA', '--detailed-exitcode')).code).toBe(0);
  });

  it('records a rule renamed and edited in the app as in sync only in what it pulled: the edit it could not pull is still drift', async () => {
    const playbook = 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT x\n    reviewer: ${var.lead}\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nvars: { lead: alice@acme.example }\n', 'playbooks/p.yaml': playbook });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editRule('P', 'R', { reviewer_id: await app.userId('qa@acme.example') });
    await app.editRule('P', 'R', { name: 'R2' });

    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('differs from var.lead');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(playbook.replace('name: R\n', 'name: R2\n    renamed_from:\n      - R\n'));
    // The reviewer changed in the app and was not pulled: still drift, still the app's change.
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('Changed live (1)');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toMatch(/~ update rule "P\/R2"[^\n]*· changed live/);

    // Put back in the app as the files have it, it converges.
    await app.editRule('P', 'R2', { reviewer_id: await app.userId('alice@acme.example') });
    await expectNoChanges(cli, dir);

    // Renamed again, beside text docket refuses: the rename is pulled, the text is still drift.
    await app.editRule('P', 'R2', { name: 'R3', actions: 'ACCEPT\u0007 y' });
    const again = await cli('pull', '-C', dir);
    expect(again.stdout).toContain('which docket refuses in the files');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(playbook.replace('name: R\n', 'name: R3\n    renamed_from:\n      - R\n      - R2\n'));
    expect((await cli('drift', '-C', dir)).code).toBe(2);
    await app.editRule('P', 'R3', { actions: 'ACCEPT x' });
    await expectNoChanges(cli, dir);
  });

  it('a playbook renamed back in the app to a name it had lists the name it leaves, never its own', async () => {
    const { dir, app } = await applied({ 'playbooks/back.yaml': 'kind: Playbook\nname: Back\nrules: []\n' });
    await app.editPlaybook('Back', { name: 'Back 2' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/back.yaml'), 'utf8')).toBe('kind: Playbook\nname: Back 2\nrenamed_from:\n  - Back\nrules: []\n');
    await app.editPlaybook('Back 2', { name: 'Back' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/back.yaml'), 'utf8')).toBe('kind: Playbook\nname: Back\nrenamed_from:\n  - Back 2\nrules: []\n');
    await expectNoChanges(cli, dir);
  });

  it('a playbook and one of its rules renamed in the app together: one record per rule, so a new rule under the old name is new in the files', async () => {
    const playbook = 'kind: Playbook\nname: P\nrules:\n  - name: r\n    actions: A\n  - name: k\n    actions: K\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editPlaybook('P', { name: 'Q' });
    await app.editRule('Q', 'r', { name: 's' });
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    const { synced } = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { synced: Record<string, Record<string, string>> };
    const ruleIds = Object.values(synced).flatMap((records) => Object.entries(records).filter(([key]) => key.startsWith('rule:')).map(([, text]) => text.split(' ')[0]));
    expect(new Set(ruleIds).size).toBe(ruleIds.length);
    await expectNoChanges(cli, dir);
    await writeFile(join(dir, 'playbooks/p.yaml'), `${await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')}  - name: r\n    actions: new\n`);
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ create rule "Q/r"');
    expect(plan.stdout).toContain('· only in files');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a rule renamed in the app and otherwise in the files is one rename on both sides: drift names it, pull leaves it, apply renames it', async () => {
    const playbook = 'kind: Playbook\nname: P\nrules:\n  - name: Term\n    actions: ACCEPT x\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('P', 'Term', { name: 'Duration' });
    await writeFile(join(dir, 'playbooks/p.yaml'), playbook.replace('name: Term\n', 'name: Length\n    renamed_from: [Term]\n'));

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ rename rule "P/Duration" → "P/Length" (playbooks/p.yaml:4) · changed live and in files');
    expect(plan.stdout).not.toContain('delete rule');
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('rule "P/Length" (playbooks/p.yaml:4): name now "Duration" (live and in files)');
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.stdout).toContain('changed live and in the files since the last sync: keep one by hand');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a rule whose change failed in the apply that renamed its playbook keeps its record: its change is still the files\', and pull does not undo it', async () => {
    // Its record was filed under the playbook's old name and went with it; the next plan could not
    // tell which side moved, and pull wrote the old live value back over the edit.
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/nda.yaml'), NDA.replace('name: Inbound NDA   # what reviewers see', 'name: NDA Inbound\nrenamed_from: [Inbound NDA]').replace('ACCEPT up to 3 years', 'ACCEPT up to 2 years'));
    emulator().emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 422, count: 1 });
    const failed = await cli('apply', '-C', dir, '--auto-approve');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/✓ rename playbook "Inbound NDA" → "NDA Inbound"/);
    expect(failed.stdout).toMatch(/✗ update rule "NDA Inbound\/Term"/);

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update rule "NDA Inbound/Term" (playbooks/nda.yaml:6) · changed in files');
    expect(plan.stdout).not.toContain('no sync record');
    // (Other tests of this file share the emulator: only this playbook's drift is looked at.)
    expect((await cli('drift', '-C', dir, '--target', 'playbook/NDA Inbound')).stdout).toContain('No drift');
    const pull = await cli('pull', '-C', dir, '--dry-run');
    expect(pull.stdout).not.toContain('ACCEPT up to 3 years');
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('a rename not made by a --target apply that made a new object under its former name keeps its direction: pull does not undo it (probe FT)', () =>
    onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/x.yaml': 'kind: Playbook\nname: A\ndescription: the first\nrules: []\n' });
      await applyOk(run, dir);
      await new App(own.env).editPlaybook('A', { name: 'B' });
      await writeFiles(dir, {
        'playbooks/x.yaml': 'kind: Playbook\nname: C\nrenamed_from: [A, B]\ndescription: the first\nrules: []\n',
        'playbooks/a.yaml': 'kind: Playbook\nname: A\ndescription: a new one\nrules: []\n',
      });
      const before = await run('plan', '-C', dir);
      expect(before.stdout).toContain('~ rename playbook "B" → "C" (playbooks/x.yaml:2) · changed live and in files');
      await applyOk(run, dir, '--target', 'playbook/A');
      const after = await run('plan', '-C', dir);
      expect(after.stdout).toContain('~ rename playbook "B" → "C" (playbooks/x.yaml:2) · changed live and in files');
      expect(after.stdout).not.toContain('no sync record');
      const pulled = await run('pull', '-C', dir, '--dry-run');
      expect(pulled.stdout).not.toContain('name: B');
      await applyOk(run, dir);
      await expectNoChanges(run, dir);
    }));

  it('a chain of rule renames that failed in the apply that renamed their playbook is taken up where it stopped, each rule keeping its content (probe FS)', () =>
    onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R1\n    actions: ACCEPT a\n  - name: R2\n    actions: ACCEPT b\n' });
      await applyOk(run, dir);
      const org = own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!;
      const idOf = (name: string) => Object.values(org.rules).find((r) => r.name === name)!.id;
      const [r1, r2] = [idOf('R1'), idOf('R2')];
      await writeFiles(dir, { 'playbooks/p.yaml': 'kind: Playbook\nname: Q\nrenamed_from: [P]\nrules:\n  - name: R2\n    renamed_from: [R1]\n    actions: ACCEPT a\n  - name: R3\n    renamed_from: [R2]\n    actions: ACCEPT b\n' });
      own.emulator.faults.add({ method: 'PATCH', path_pattern: r2, status: 422, count: 1 });
      const failed = await run('apply', '-C', dir, '--auto-approve');
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('✓ rename playbook "P" → "Q"');
      own.emulator.faults.clear();
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('~ rename rule "Q/R1" → "Q/R2"');
      expect(plan.stdout).toContain('~ rename rule "Q/R2" → "Q/R3"');
      expect(plan.stdout).not.toContain('actions:');
      await applyOk(run, dir);
      expect([org.rules[r1]!.name, org.rules[r1]!.actions, org.rules[r2]!.name, org.rules[r2]!.actions]).toEqual(['R2', 'ACCEPT a', 'R3', 'ACCEPT b']);
      await expectNoChanges(run, dir);
    }));

  it('a chain of rule renames cut short in a chain of playbook renames, with a new rule under the first name, is taken up where it stopped (probe RA-2)', () =>
    onOwnEmulator(async (run, own) => {
      const book = (name: string, was: string | undefined, rules: string) => `kind: Playbook\nname: ${name}\n${was ? `renamed_from: [${was}]\n` : ''}rules:\n${rules}`;
      const two = (p: string) => `  - { name: S0, actions: ACCEPT ${p}0 }\n  - { name: S1, actions: ACCEPT ${p}1 }\n`;
      const shifted = (p: string) => `  - { name: S0, actions: ACCEPT ${p}new }\n  - { name: S1, renamed_from: [S0], actions: ACCEPT ${p}0 }\n  - { name: S2, renamed_from: [S1], actions: ACCEPT ${p}1 }\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/a.yaml': book('A', undefined, two('a')), 'playbooks/b.yaml': book('B', undefined, two('b')) });
      await applyOk(run, dir);
      const org = own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!;
      const bookOf = (name: string) => Object.values(org.playbooks).find((p) => p.name === name)!.id;
      const ruleOf = (book: string, name: string) => Object.values(org.rules).find((r) => r.playbook_id === bookOf(book) && r.name === name)!.id;
      const [b0, b1] = [ruleOf('B', 'S0'), ruleOf('B', 'S1')];
      await writeFiles(dir, { 'playbooks/a.yaml': book('B', 'A', shifted('a')), 'playbooks/b.yaml': book('C', 'B', shifted('b')) });
      own.emulator.faults.add({ method: 'PATCH', path_pattern: b1, status: 422, count: 1 });
      const failed = await run('apply', '-C', dir, '--auto-approve');
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('✓ rename playbook "B" → "C"');
      expect(failed.stdout).toContain('✗ rename rule "C/S1" → "C/S2"');
      own.emulator.faults.clear();
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('~ rename rule "C/S1" → "C/S2"');
      expect(plan.stdout).toContain('~ rename rule "C/S0" → "C/S1"');
      expect(plan.stdout).not.toMatch(/changed live|removed live|update rule/);
      expect((await run('drift', '-C', dir)).code).toBe(0);
      await applyOk(run, dir);
      expect([org.rules[b0]!.name, org.rules[b0]!.actions, org.rules[b1]!.name, org.rules[b1]!.actions]).toEqual(['S1', 'ACCEPT b0', 'S2', 'ACCEPT b1']);
      await expectNoChanges(run, dir);
    }));

  for (const policy of ['adopt', 'ignore']) {
    it(`applies a chain of playbook renames that shifts their rules' names under \`drift: ${policy}\` as under the default: the files' renames, held as the app's (probe RA-1)`, () =>
      onOwnEmulator(async (run, own) => {
        const book = (name: string, was: string | undefined, rules: string) => `kind: Playbook\nname: ${name}\n${was ? `renamed_from: [${was}]\n` : ''}drift: ${policy}\nrules:\n${rules}`;
        const two = (p: string) => `  - { name: S0, actions: ACCEPT ${p}0 }\n  - { name: S1, actions: ACCEPT ${p}1 }\n`;
        const shifted = (p: string) => `  - { name: S0, actions: ACCEPT ${p}new }\n  - { name: S1, renamed_from: [S0], actions: ACCEPT ${p}0 }\n  - { name: S2, renamed_from: [S1], actions: ACCEPT ${p}1 }\n`;
        const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/a.yaml': book('A', undefined, two('a')), 'playbooks/b.yaml': book('B', undefined, two('b')) });
        await applyOk(run, dir);
        const org = own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!;
        const rulesOf = (book: string) => {
          const id = Object.values(org.playbooks).find((p) => p.name === book)!.id;
          return Object.values(org.rules).filter((r) => r.playbook_id === id).map((r) => [r.name, r.actions]).sort();
        };
        await writeFiles(dir, { 'playbooks/a.yaml': book('B', 'A', shifted('a')), 'playbooks/b.yaml': book('C', 'B', shifted('b')) });
        const plan = await run('plan', '-C', dir);
        expect(plan.stdout).toContain('~ rename rule "C/S1" → "C/S2" (playbooks/b.yaml:8) · changed in files');
        expect(plan.stdout).not.toContain('leaves alone');
        await applyOk(run, dir);
        expect(rulesOf('C')).toEqual([['S0', 'ACCEPT bnew'], ['S1', 'ACCEPT b0'], ['S2', 'ACCEPT b1']]);
        expect(rulesOf('B')).toEqual([['S0', 'ACCEPT anew'], ['S1', 'ACCEPT a0'], ['S2', 'ACCEPT a1']]);
        expect((await run('drift', '-C', dir)).code).toBe(0);
        await expectNoChanges(run, dir);
      }));
  }

  // Four or more links under a policy are not handled yet: a middle link's new name is held live by a playbook the files rename in turn (README, renamed_from limits).
  for (const length of [3]) {
    it(`applies a chain of ${length} playbook renames that shifts their rules' names under drift: adopt in one apply, ids kept (probe RD-1)`, () =>
      onOwnEmulator(async (run, own) => {
        const book = (n: number, was: number | undefined, rules: string) => `kind: Playbook\nname: Book${n}\n${was === undefined ? '' : `renamed_from: [Book${was}]\n`}drift: adopt\nrules:\n${rules}`;
        const two = (p: number) => `  - { name: S0, actions: ACCEPT p${p} r0 }\n  - { name: S1, actions: ACCEPT p${p} r1 }\n`;
        const shifted = (p: number) => `  - { name: S0, actions: ACCEPT p${p} new }\n  - { name: S1, renamed_from: [S0], actions: ACCEPT p${p} r0 }\n  - { name: S2, renamed_from: [S1], actions: ACCEPT p${p} r1 }\n`;
        const books = [...Array(length).keys()];
        const dir = await makeDir({ 'docket.yaml': 'version: 1\n', ...Object.fromEntries(books.map((p) => [`playbooks/p${p}.yaml`, book(p, undefined, two(p))])) });
        await applyOk(run, dir);
        const org = own.emulator.store.organization(own.env.DOCKET_ORGANIZATION_ID!)!;
        const idsBefore = Object.fromEntries(Object.values(org.rules).map((r) => [r.actions, r.id]));
        await writeFiles(dir, Object.fromEntries(books.map((p) => [`playbooks/p${p}.yaml`, book(p + 1, p, shifted(p))])));
        const plan = await run('plan', '-C', dir);
        expect(plan.stdout).not.toContain('leaves alone');
        const applied = await applyOk(run, dir);
        expect(applied.stdout).not.toMatch(/renamed back|at the same time/);
        for (const p of books) {
          const id = Object.values(org.playbooks).find((b) => b.name === `Book${p + 1}`)!.id;
          const rules = Object.values(org.rules).filter((r) => r.playbook_id === id);
          expect(rules.map((r) => [r.name, r.actions]).sort()).toEqual([['S0', `ACCEPT p${p} new`], ['S1', `ACCEPT p${p} r0`], ['S2', `ACCEPT p${p} r1`]]);
          for (const r of rules.filter((r) => r.name !== 'S0')) expect(r.id).toBe(idsBefore[r.actions!]);
        }
        expect((await run('drift', '-C', dir)).code).toBe(0);
        await expectNoChanges(run, dir);
      }));
  }

  it('a playbook that goes while pull reads its rules is said to have gone, with the way on, not a bare 404', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': NDA.replace('Inbound NDA', 'Going NDA') });
    await applyOk(cli, dir);
    // Listed, then archived in the app before its rules were read.
    emulator().emulator.faults.add({ method: 'GET', path_pattern: '/playbook_rules', status: 404, count: 1 });
    const pull = await cli('pull', '-C', dir, '--dry-run');
    expect(pull.code).toBe(1);
    expect(pull.stderr).toMatch(/went while docket read the organization: archived or deleted in the app; run the command again/);
    expect((await cli('pull', '-C', dir, '--dry-run')).code).toBe(0);
  });

  it('a rule removed from the files whose delete failed in the apply that renamed its playbook stays removed from the files: pull does not write it back', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': NDA.replace('Inbound NDA', 'Outbound NDA') });
    await applyOk(cli, dir);
    const renamed = NDA.replace('name: Inbound NDA   # what reviewers see', 'name: NDA Outbound\nrenamed_from: [Outbound NDA]').replace(/  - name: Law\n.*\n.*\n/, '');
    await writeFile(join(dir, 'playbooks/nda.yaml'), renamed);
    emulator().emulator.faults.add({ method: 'DELETE', path_pattern: '/playbook_rules/', status: 422, count: 1 });
    const failed = await cli('apply', '-C', dir, '--auto-approve');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toMatch(/✗ delete rule "NDA Outbound\/Law"/);

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('- delete rule "NDA Outbound/Law" (permanent) (playbooks/nda.yaml:4) · removed from files');
    expect((await cli('drift', '-C', dir, '--target', 'playbook/NDA Outbound')).stdout).toContain('No drift');
    expect((await cli('pull', '-C', dir, '--dry-run', '--target', 'playbook/NDA Outbound')).stdout).not.toContain('name: Law');
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('says which tests name a rule or playbook removed in the app, since validate then refuses them', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': NDA, 'tests/nda.test.yaml': NDA_TEST, 'tests/nda.txt': 'Delaware.\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.deleteRule('Inbound NDA', 'Law');
    const rule = await cli('pull', '-C', dir);
    expect(rule.code).toBe(0);
    expect(rule.stdout).toContain('tests/nda.test.yaml:10: names rule "Inbound NDA/Law", removed in the app; remove it from the test');
    expect(rule.stdout).toContain('tests/nda.test.yaml:16: names rule "Inbound NDA/Law"');

    await app.archivePlaybook('Inbound NDA');
    const playbook = await cli('pull', '-C', dir);
    expect(playbook.stdout).toContain('tests/nda.test.yaml:3: names playbook "Inbound NDA", removed in the app; remove the test');
    expect(playbook.stdout).not.toContain('names rule');
    await expectNoChanges(cli, dir);
  });

  it('says a rule that moved in the app with its playbook, renamed there while a new one took its name, is not removed: the test is to name that playbook, not to drop the rule (probe WG-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': NDA, 'tests/nda.test.yaml': NDA_TEST, 'tests/nda.txt': 'Delaware.\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.editPlaybook('Inbound NDA', { name: 'Inbound NDA old' });
    // One of its rules renamed there too: named as it is live now (second read SR95B-2).
    await app.editRule('Inbound NDA old', 'Law', { name: 'Governing law' });
    await app.createPlaybook({ name: 'Inbound NDA', description: 'brand new' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code, pulled.stdout).toBe(0);
    expect(pulled.stdout).toContain('tests/nda.test.yaml:10: names rule "Inbound NDA/Law", which moved in the app with its playbook, now rule "Governing law" of playbook "Inbound NDA old": if the test was written for that one, name them so in the test');
    expect(pulled.stdout).toContain('tests/nda.test.yaml:16: names rule "Inbound NDA/Term", which moved in the app with its playbook, now rule "Term" of playbook "Inbound NDA old"');
    expect(pulled.stdout).not.toContain('removed in the app');
    await expectNoChanges(cli, dir);
  });

  it('says which tests name a rule removed in the app when its playbook was renamed there too (the tests now name the new name)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': NDA.replace('Inbound NDA', 'Epsilon NDA'), 'tests/nda.test.yaml': NDA_TEST.replace('Inbound NDA', 'Epsilon NDA'), 'tests/nda.txt': 'Delaware.\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.deleteRule('Epsilon NDA', 'Law');
    await app.editPlaybook('Epsilon NDA', { name: 'Epsilon NDA 2025' });
    const pull = await cli('pull', '-C', dir, '--target', 'playbook/Epsilon NDA');
    expect(pull.code, pull.stdout).toBe(0);
    expect(pull.stdout).toContain('tests/nda.test.yaml:3: now names playbook "Epsilon NDA 2025"');
    expect(pull.stdout).toContain('tests/nda.test.yaml:10: names rule "Epsilon NDA/Law", removed in the app; remove it from the test');
  });

  it('leaves the files alone when two playbooks swap names in the app, saying where each rule now is', async () => {
    const alpha = 'kind: Playbook\nname: Alpha\nrules:\n  - name: a1\n    actions: do a1\n  - name: a2\n    actions: do a2\n';
    const beta = 'kind: Playbook\nname: Beta\nrules:\n  - name: b1\n    actions: do b1\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/alpha.yaml': alpha, 'playbooks/beta.yaml': beta });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.swapPlaybookNames('Alpha', 'Beta');

    // The rules moved with their playbooks in the app; the files removed nothing.
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('delete rule "Alpha/b1" (permanent) (playbooks/alpha.yaml:3) · changed live');
    expect(plan.stdout).not.toContain('removed from files');
    expect(plan.stdout).not.toContain('moved in the app, last in sync');
    // A moved rule edited in the app since: the delete would take the edit, which the plan says (probe NB-6).
    await app.editRule('Alpha', 'b1', { actions: 'do b1, edited live' });
    expect((await cli('plan', '-C', dir)).stdout).toContain('Warning: rule "Alpha/b1" moved in the app, last in sync as Beta/b1, and its actions changed live since the last sync: applying deletes it with that edit; to keep the edit, move it in the files, or `docket pull` what it can');
    // And so does drift, which a scheduled report reads alone (probe SI-1).
    const edited = await cli('drift', '-C', dir, '-o', 'json');
    expect((JSON.parse(edited.stdout) as { drift: { key: string; fields: unknown[] }[] }).drift.find((d) => d.key === 'Alpha/b1')?.fields).toEqual([{ field: 'actions', direction: 'live' }]);
    expect((await cli('drift', '-C', dir)).stdout).toMatch(/~ rule "Alpha\/b1" \([^)]*\): moved in the app from "Beta\/b1" with its playbook's rename, and its actions changed live since the last sync: applying deletes it with that edit · updated /);
    await app.editRule('Alpha', 'b1', { actions: 'do b1' });
    const drift = await cli('drift', '-C', dir, '-o', 'json');
    const report = JSON.parse(drift.stdout) as { pending: unknown[]; drift: { key: string; direction: string }[] };
    expect(report.pending).toEqual([]);
    expect(report.drift.filter((d) => d.direction === 'changed-live').map((d) => d.key).sort()).toEqual(['Alpha/b1', 'Beta/a1', 'Beta/a2']);
    // Said as moved with its playbook, not renamed onto a name another rule holds (probe NB-9).
    expect((await cli('drift', '-C', dir)).stdout).toMatch(/~ rule "Alpha\/b1" \([^)]*\): moved in the app from "Beta\/b1" with its playbook's rename/);

    // Each file's rules were in sync under its name and are still live, under the other name: not
    // removed, so not taken out of the files (which would lose them from both), and not added
    // where they are live now (which would declare them twice).
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/alpha.yaml'), 'utf8')).toBe(alpha);
    expect(await readFile(join(dir, 'playbooks/beta.yaml'), 'utf8')).toBe(beta);
    expect(pulled.stdout).toContain('still live as rule "Beta/a1", renamed or moved in the app to a name the files declare too');
    expect(pulled.stdout).toContain('still live as rule "Alpha/b1"');
    expect(pulled.stdout).toContain('rule "Alpha/b1" (playbooks/alpha.yaml:3): was rule "Beta/b1" when last in sync, which the files still declare');

    // Renamed by hand as the note says, the files match live again.
    await writeFile(join(dir, 'playbooks/alpha.yaml'), alpha.replace('name: Alpha', 'name: Beta'));
    await writeFile(join(dir, 'playbooks/beta.yaml'), beta.replace('name: Beta', 'name: Alpha'));
    await expectNoChanges(cli, dir);
  });

  it('a swap in the app onto a playbook whose drift a policy holds leaves the records as they were: a second pull still writes nothing (probe MI-1)', async () => {
    const file = 'kind: Playbook\nname: Pa\ndescription: first\nrules:\n  - name: r1\n    actions: act one\n---\nkind: Playbook\nname: Qa\ndescription: second\ndrift: adopt\nrules:\n  - name: r2\n    actions: act two\n';
    // Its own organization: a pull of the shared one takes every other test's playbooks too.
    await onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file });
      await applyOk(run, dir);
      await new App(own.env).swapPlaybookNames('Pa', 'Qa');
      const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
      for (const round of [1, 2]) {
        const pulled = await run('pull', '-C', dir);
        expect([round, pulled.code, pulled.stdout]).toEqual([round, 0, expect.stringContaining('renamed in the app onto a name the files declare too')]);
        expect(pulled.stdout).not.toContain('Pulled into the files');
        expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(file);
        expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toBe(lock);
      }
    });
  });

  it('a rule moved aside in the app under drift: ignore stays left alone after an apply of a files edit: no record makes it read as removed from the files (probe MM-1)', async () => {
    const beta = (b2: string) => `kind: Playbook\nname: Beta\ndrift: ignore\nrules:\n  - name: B1\n    actions: ACCEPT B1\n  - name: B2\n    actions: ${b2}\n`;
    await onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/beta.yaml': beta('ACCEPT B2') });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editRule('Beta', 'B2', { name: 'B2 old' });
      await app.editRule('Beta', 'B1', { name: 'B2' });
      await writeFile(join(dir, 'playbooks/beta.yaml'), beta('ACCEPT B2 v2'));
      await applyOk(run, dir);
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('No changes.');
      expect(plan.stdout).not.toContain('removed from files');
      expect(plan.stdout).toMatch(/- delete rule "Beta\/B2 old".*drift: ignore/);
    });
    // Two playbooks that swap names in the app, one of them ignored, while the files edit it: the same.
    await onOwnEmulator(async (run, own) => {
      const delta = 'kind: Playbook\nname: Delta\nrules:\n  - name: D1\n    actions: ACCEPT D1\n';
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/beta.yaml': beta('ACCEPT B2'), 'playbooks/delta.yaml': delta });
      await applyOk(run, dir);
      await new App(own.env).swapPlaybookNames('Beta', 'Delta');
      await writeFile(join(dir, 'playbooks/beta.yaml'), beta('ACCEPT B2 v2'));
      await run('apply', '-C', dir, '--auto-approve');
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).not.toContain('removed from files');
    });
  });

  it('a rule moved onto another declared rule\'s name under drift: adopt is read as changed live, and pull leaves both moves for a person (probes MM-2, NB-2)', async () => {
    const alpha = 'kind: Playbook\nname: Alpha\ndrift: adopt\nrules:\n  - name: A1\n    actions: ACCEPT A1\n  - name: A2\n    actions: ACCEPT A2\n';
    await onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/alpha.yaml': alpha });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editRule('Alpha', 'A2', { name: 'A2 old' });
      await app.editRule('Alpha', 'A1', { name: 'A2' });
      // A1 moved onto A2's name is no object made in the app under it: pull moves neither by itself,
      // leaves the lock as it was, and a second pull does the same (probe NB-2).
      const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
      for (let i = 0; i < 2; i++) {
        const pulled = await run('pull', '-C', dir);
        expect(pulled.code).toBe(0);
        expect(pulled.stdout).toContain('rule "Alpha/A2 old" (playbooks/alpha.yaml:4): was rule "Alpha/A2" when last in sync, which the files still declare: renamed or moved in the app; move it in the files by hand');
        expect(pulled.stdout).toContain('Wrote no file');
        expect(await readFile(join(dir, 'playbooks/alpha.yaml'), 'utf8')).toBe(alpha);
        expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toBe(lock);
      }
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).not.toContain('changed in files');
      expect(plan.stdout).toMatch(/update rule "Alpha\/A2".*changed live · drift: adopt/);
      // So apply leaves the move live, as the policy says.
      const applied = await run('apply', '-C', dir, '--auto-approve');
      expect(applied.stdout).not.toContain('✓ update rule "Alpha/A2"');
    });
  });

  it('a rule moved aside in the app under another name is no edit taken by its delete: the move is its name (second read SR77-5)', async () => {
    await onOwnEmulator(async (run, own) => {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/alpha.yaml': 'kind: Playbook\nname: Alpha\nrules:\n  - name: A1\n    actions: ACCEPT A1\n  - name: A2\n    actions: ACCEPT A2\n' });
      await applyOk(run, dir);
      const app = new App(own.env);
      await app.editRule('Alpha', 'A2', { name: 'A2 old' });
      await app.editRule('Alpha', 'A1', { name: 'A2' });
      const plan = await run('plan', '-C', dir);
      expect(plan.stdout).toContain('delete rule "Alpha/A2 old"');
      expect(plan.stdout).not.toContain('moved in the app, last in sync');
      // Edited there too, it is said.
      await app.editRule('Alpha', 'A2 old', { actions: 'ACCEPT A2, edited' });
      expect((await run('plan', '-C', dir)).stdout).toContain('Warning: rule "Alpha/A2 old" moved in the app, last in sync as Alpha/A2, and its actions changed live since the last sync');
    });
  });

  it('two terms that swap names in the app are drift, not the files\' change, and pull says to rename them by hand', async () => {
    const terms = 'kind: CustomTerm\nname: Alpha\nbody: Alpha body\n---\nkind: CustomTerm\nname: Beta\nbody: Beta body\n';
    const { dir, app } = await applied({ 'terms.yaml': terms });
    await app.swapTermNames('Alpha', 'Beta');

    // Each name now holds the other term: compared with the other term's record, the files read as
    // the side that moved, and the nightly drift check passed.
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('Changed live (2)');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('↑ publish custom-term "Alpha" (terms.yaml:3) · changed live');
    expect(plan.stdout).not.toContain('changed in files');

    // Written into the files, each name's body would take the other term's place in its document.
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(0);
    expect(await readFile(join(dir, 'terms.yaml'), 'utf8')).toBe(terms);
    expect(pulled.stdout).toContain('custom-term "Alpha" body (terms.yaml:3): the live custom-term of this name was "Beta" when last in sync: renamed in the app onto a name the files declare too; rename them in the files by hand');

    await writeFile(join(dir, 'terms.yaml'), terms.replace('name: Alpha', 'name: Swapped').replace('name: Beta', 'name: Alpha').replace('name: Swapped', 'name: Beta'));
    await expectNoChanges(cli, dir);
  });
});
