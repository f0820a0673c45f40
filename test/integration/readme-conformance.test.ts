/** Claims of README.md checked as a user would run them, where an audit found the CLI and the README apart. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { App } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { applyOk, emulatorForFile, expectNoChanges } from '../helpers/scenario.js';
import { copyExample, makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { rm, writeFile } from 'node:fs/promises';
import { DOCKET_YAML, NDA } from './fixtures.js';

afterAll(removeMadeDirs);

const { emulator, cli } = emulatorForFile();

describe('validate prints every problem at once', () => {
  it('reports the resource files’ problems beside an error in docket.yaml', async () => {
    const dir = await makeDir({
      'docket.yaml': 'version: 1\nconcurrency: 99\nagreements:\n  actor: legal-ops@acme.example\n',
      'organization.yaml': 'kind: Organization\nagreements:\n  zipcode: 01067\n',
      'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: A\n    actions: ACCEPT\n  - name: A\n    actions: ACCEPT\n',
    });
    const r = await runCli(['validate', '-C', dir, '-o', 'json']);
    expect(r.code).toBe(1);
    const found = (JSON.parse(r.stdout) as { diagnostics: { code: string; file: string; line: number }[] }).diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`);
    expect(found).toEqual(['docket.yaml:2 invalid-value', 'organization.yaml:3 number-as-text', 'playbooks/nda.yaml:6 duplicate-rule']);
  });

  it('does not also call a mistyped setting missing', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: 123\n', 'terms.yaml': 'kind: CustomTerm\nname: T\nbody: hello\n' });
    const r = await runCli(['validate', '-C', dir]);
    expect(r.stderr).toContain('docket.yaml:3:10 error invalid-value');
    expect(r.stderr).not.toContain('missing-actor');
  });
});

describe('repeated flags', () => {
  it('a --target given twice limits the plan once', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const r = await runCli(['plan', '-C', dir, '--emulator', '--target', 'playbook/Inbound NDA', '--target=playbook/Inbound NDA']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('only "playbook/Inbound NDA" and what it depends on');
  });

  it('--target playbook/P takes the rules of P, not those of another playbook whose name starts P/ (probe GF)', async () => {
    const playbook = (name: string, rule: string) => `kind: Playbook\nname: ${name}\nrules:\n  - name: ${rule}\n    actions: ACCEPT ${rule}\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/p.yaml': playbook('P', 'r'), 'playbooks/px.yaml': playbook('P/X', 'y') });
    const r = await runCli(['plan', '-C', dir, '--emulator', '--target', 'playbook/P', '-o', 'json']);
    const plan = JSON.parse(r.stdout) as { changes: { kind: string; key: string }[] };
    expect(plan.changes.map((c) => `${c.kind} ${c.key}`).sort()).toEqual(['playbook P', 'rule P/r']);
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve', '--target', 'playbook/P'])).stdout).toContain('Apply complete: 2 done.');
    expect((await runCli(['plan', '-C', dir, '--emulator', '-o', 'json'])).stdout).toContain('"key": "P/X/y"');
  });
});

describe('--kind', () => {
  it('names the kind to use for rules in words that fit drift and pull, not only export', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML });
    for (const args of [['drift'], ['pull'], ['export', '--out', join(dir, 'out')]]) {
      const command = args[0];
      const r = await runCli([...args, '-C', dir, '--emulator', '--kind', 'rule']);
      expect([command, r.code, r.stderr]).toEqual([command, 1, 'Error: rules come with their playbook\n  hint: use --kind playbook\n']);
    }
  });
});

describe('a saved plan and --env', () => {
  it('applies to the environment it was made for; another --env, or one the plan was made without, is an error', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nenvironments:\n  staging: {}\n', 'playbooks/nda.yaml': NDA });
    const plain = join(dir, 'plain.json');
    const staging = join(dir, 'staging.json');
    await runCli(['plan', '-C', dir, '--emulator', '--out', plain]);
    await runCli(['plan', '-C', dir, '--emulator', '--env', 'staging', '--out', staging]);
    const without = await runCli(['apply', '-C', dir, plain, '--env', 'staging']);
    expect([without.code, without.stderr]).toEqual([1, expect.stringContaining('the plan was made without --env, not --env staging')]);
    const other = await runCli(['apply', '-C', dir, staging, '--env', 'production']);
    expect([other.code, other.stderr]).toEqual([1, expect.stringContaining('the plan was made for --env staging, not --env production')]);
    const applied = await runCli(['apply', '-C', dir, staging]);
    expect([applied.code, applied.stdout]).toEqual([0, expect.stringContaining('environment: staging')]);
    expect((await runCli(['plan', '-C', dir, '--emulator', '--env', 'staging', '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('the common flags', () => {
  it('every command accepts them, also where its help does not offer them', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const plan = join(dir, 'plan.json');
    await runCli(['plan', '-C', dir, '--emulator', '--out', plan]);
    const runs = [
      ['--concurrency', '4', 'validate', '-C', dir],
      ['validate', '-C', dir, '--max-rps', '5', '-v'],
      ['init', join(dir, 'new'), '--concurrency', '2', '--no-color', '-v'],
      ['-q', 'show', plan, '--max-rps=3'],
      ['completion', 'bash', '-q', '--no-color', '--concurrency', '2'],
    ];
    for (const args of runs) expect([args.join(' '), (await runCli(args)).code]).toEqual([args.join(' '), 0]);
    // Still checked where they do nothing.
    expect((await runCli(['validate', '-C', dir, '--concurrency', '0'])).code).toBe(1);
    // Decimal digits only (probe AC-1).
    for (const written of ['8.0', '1.', '1e1', '+5']) expect((await runCli(['validate', '-C', dir, '--concurrency', written])).stderr, written).toContain(`must be an integer from 1 to 64 (got "${written}")`);
  });
});

describe('apply -q --auto-approve', () => {
  it('prints just the apply report, also when there is nothing to change', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const first = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve', '-q']);
    expect(first.stdout).not.toContain('Plan:');
    expect(first.stdout).toContain('Apply complete: 3 done.');
    const again = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve', '-q']);
    expect([again.code, again.stdout]).toEqual([0, 'docket apply · target: local emulator\n\nNo changes. The live services match the configuration.\n']);
    // A saved plan was read when it was made: it vouches only for itself.
    expect((await runCli(['plan', '-C', dir, '--emulator', '--out', join(dir, 'plan.json')])).code).toBe(0);
    const saved = await runCli(['apply', join(dir, 'plan.json'), '-C', dir]);
    expect([saved.code, saved.stdout]).toEqual([0, 'docket apply · target: local emulator\n\nNo changes in the saved plan: nothing was sent.\n']);
  });

  it('with -v too, still logs each request on stderr (asked for by name)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const both = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve', '-q', '-v']);
    expect(both.stdout).not.toContain('Plan:');
    expect(both.stderr).toMatch(/^review POST \/v1\/\S+ → 20\d in \d+ ms$/m);
  });
});

describe('drift --target', () => {
  it('reports a playbook made in the app when the target names it, as pull writes it', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    await new App(emulator().env).createPlaybook({ name: 'Side letters', description: 'Made in the app' });
    const named = await cli('drift', '-C', dir, '--target', 'playbook/Side letters');
    expect([named.code, named.stdout]).toEqual([2, expect.stringContaining('+ playbook "Side letters"')]);
    expect((await cli('drift', '-C', dir, '--target', 'playbook/Inbound NDA')).code).toBe(0);
    expect((await cli('pull', '-C', dir, '--target', 'playbook/Side letters')).code).toBe(0);
    expect((await cli('drift', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });
});

describe('the README’s configuration examples', () => {
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]!);
  const block = (start: string): string => {
    const found = blocks.find((b) => b.startsWith(start));
    if (!found) throw new Error(`README.md has no yaml example starting with ${JSON.stringify(start)}`);
    return found;
  };
  const cover = readFileSync(new URL('../../examples/acme-legal/custom-templates/consulting.cover.yaml', import.meta.url), 'utf8');

  it('docket.yaml and the kinds, copied as they are, validate, apply and re-plan to no changes', async () => {
    const dir = await makeDir({
      'docket.yaml': block('version: 1\nreview:'),
      'acme.yaml': block('kind: Organization'),
      'consulting.md': 'The consulting terms.\n',
      'consulting.cover.yaml': cover,
      'security.pdf': '%PDF-1.4\n%%EOF\n',
    });
    expect((await runCli(['validate', '-C', dir])).stderr).toBe('');
    expect((await runCli(['validate', '-C', dir, '--env', 'staging'])).code).toBe(0);
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'])).code).toBe(0);
  });

  it('the test file example, copied as it is into the bundled example, validates (probe EJ-1)', async () => {
    const dir = await copyExample();
    for (const f of ['consulting.test.yaml', 'inbound-nda.test.yaml']) await rm(join(dir, 'tests', f));
    await writeFile(join(dir, 'tests/readme.test.yaml'), block('kind: PlaybookTest\nplaybook: Inbound NDA'));
    const r = await runCli(['validate', '-C', dir]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('2 test suites with 4 cases');
  });

  it('the drift policies example, copied as it is, validates and applies', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'nda.yaml': block('kind: Playbook\nname: Inbound NDA\ndrift: adopt') });
    expect((await runCli(['validate', '-C', dir])).stderr).toBe('');
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'])).code).toBe(0);
  });
});

describe('only the services the configuration declares', () => {
  it('an organization that declares only its agreements part needs no review key and never calls the review service', async () => {
    const dir = await makeDir({
      'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n',
      'organization.yaml': 'kind: Organization\nagreements:\n  city: Lisbon\n',
    });
    const { DOCKET_API_KEY: key, ...env } = emulator().env;
    const agreementsOnly = { ...env, DOCKET_AGREEMENTS_API_KEY: key!, DOCKET_REVIEW_URL: 'http://127.0.0.1:9/review' };
    const applied = await runCli(['apply', '-C', dir, '--auto-approve'], { env: agreementsOnly });
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    expect(applied.stdout).toContain('agreements.city');
    const again = await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env: agreementsOnly });
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
  });
});
