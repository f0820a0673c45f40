/** Targeting, pruning and the mass-delete guard, through the CLI against the emulator. */
import { existsSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import { expectNoChanges } from '../helpers/scenario.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';
import { App } from '../helpers/app.js';
import { DOCKET_YAML, MSA, NDA, playbookYaml } from './fixtures.js';

let t: TestEmulator;

beforeEach(async () => {
  t = await startTestEmulator();
});

afterEach(async () => {
  await t.emulator.close();
  await removeMadeDirs();
});

const cli = (...args: string[]): Promise<CliResult> => runCli(args, { env: t.env });
const livePlaybooks = () => t.emulator.store.activePlaybooks(t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!).map((p) => p.name).sort();

describe('--target', () => {
  it('plans and applies only the targets and what they need, with a partial-plan warning', async () => {
    const dir = await makeDir({
      'docket.yaml': DOCKET_YAML,
      'members.yaml': 'kind: Member\nemail: dave@acme.example\n',
      'playbooks/nda.yaml': NDA,
      'playbooks/msa.yaml': MSA.replace('reviewer: alice@acme.example', 'reviewer: dave@acme.example'),
    });
    const plan = await cli('plan', '-C', dir, '--target', 'rule/Vendor MSA/Liability cap', '-o', 'json');
    expect(plan.code).toBe(0);
    const ids = (JSON.parse(plan.stdout) as { changes: { id: string }[] }).changes.map((c) => c.id).sort();
    expect(ids).toEqual(['create:playbook:Vendor MSA', 'create:rule:Vendor MSA/Liability cap', 'invite:member:dave@acme.example']);

    const text = await cli('plan', '-C', dir, '--target', 'playbook/Inbound NDA');
    expect(text.stdout).toContain('partial');
    expect(text.stdout).toContain('create rule "Inbound NDA/Term"');
    expect(text.stdout).not.toContain('Vendor MSA');

    const apply = await cli('apply', '-C', dir, '--auto-approve', '--target', 'playbook/Inbound NDA');
    expect(apply.code).toBe(0);
    expect(livePlaybooks()).toEqual(['Inbound NDA']);
    const rest = await cli('apply', '-C', dir, '--auto-approve');
    expect(rest.code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('a chain of renames applied with --target records the rules under their playbook\'s new name: a rule deleted in the app is then drift (probe OW-1)', async () => {
    const pb = (name: string, rules: string[], from?: string) => `kind: Playbook\nname: ${name}\n${from ? `renamed_from: [${from}]\n` : ''}rules:\n${rules.map((r) => `  - name: ${r}\n    actions: ACCEPT ${r}\n`).join('')}`;
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/alpha.yaml': pb('Alpha', ['a1', 'a2']), 'playbooks/beta.yaml': pb('Beta', ['b1']) });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFiles(dir, { 'playbooks/alpha.yaml': pb('Beta', ['a1', 'a2'], 'Alpha'), 'playbooks/beta.yaml': pb('Gamma', ['b1'], 'Beta') });
    expect((await cli('apply', '-C', dir, '--auto-approve', '--target', 'playbook/Beta')).code).toBe(0);
    await expectNoChanges(cli, dir);
    await new App(t.env).deleteRule('Gamma', 'b1');
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('- rule "Gamma/b1"');
    expect(drift.stdout).toContain('removed live');

    // Renamed with --target while a new document takes its former name (made by a later apply).
    await cli('apply', '-C', dir, '--auto-approve');
    await writeFiles(dir, { 'playbooks/beta.yaml': pb('Delta', ['b1'], 'Gamma'), 'playbooks/gamma.yaml': pb('Gamma', ['g1']) });
    expect((await cli('apply', '-C', dir, '--auto-approve', '--target', 'playbook/Delta')).code).toBe(0);
    await new App(t.env).deleteRule('Delta', 'b1');
    const again = await cli('drift', '-C', dir, '--target', 'playbook/Delta');
    expect(again.stdout).toContain('- rule "Delta/b1"');
  });

  it('refuses a target that names nothing', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const result = await cli('plan', '-C', dir, '--target', 'playbook/Outbound NDA');
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('unknown-target');
    const bad = await cli('plan', '-C', dir, '--target', 'playbok/Inbound NDA');
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('unknown kind `playbok`');
  });
});

describe('pruning and the mass-delete guard', () => {
  const many = (n: number): Record<string, string> =>
    Object.fromEntries(Array.from({ length: n }, (_, i) => [`playbooks/p${i}.yaml`, playbookYaml(`Playbook ${i}`, '  - name: Rule\n    actions: ACCEPT\n')]));

  it('never touches undeclared playbooks without prune, archives them with it', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, ...many(2) });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFiles(dir, { 'playbooks/p1.yaml': '# retired\n' });
    const plan = await cli('plan', '-C', dir, '-v');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).toContain('Playbook 1');
    const pruned = await cli('plan', '-C', dir, '--prune');
    expect(pruned.stdout).toContain('- archive playbook "Playbook 1"');
    expect((await cli('apply', '-C', dir, '--auto-approve', '--prune')).code).toBe(0);
    expect(livePlaybooks()).toEqual(['Playbook 0']);
    await expectNoChanges(cli, dir);
  });

  it('refuses to archive more than the safety share of a kind unless --force, and says so with the numbers', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nprune:\n  playbooks: true\n', ...many(6) });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFiles(dir, Object.fromEntries(Array.from({ length: 5 }, (_, i) => [`playbooks/p${i + 1}.yaml`, '# retired\n'])));

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('5 of 6 live playbook objects (83.3%)');
    const refused = await cli('apply', '-C', dir, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('removes 5 of 6 live playbook objects');
    expect(refused.stderr).toContain('30%');
    expect(refused.stderr).toContain('run apply again with --force (or raise safety.max_delete_fraction)');
    expect(livePlaybooks()).toHaveLength(6);
    // A saved plan: raising the setting would make that plan stale, so the way on is --force or a new plan.
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    const savedRefused = await cli('apply', '-C', dir, planFile);
    expect([savedRefused.code, savedRefused.stderr]).toEqual([1, expect.stringContaining('apply this plan file again with --force (or raise safety.max_delete_fraction and make a new plan)')]);
    expect(livePlaybooks()).toHaveLength(6);

    // The saved plan with --force: not printed again, it says on stderr what it goes past (probe DU).
    const forced = await cli('apply', '-C', dir, planFile, '--force');
    expect(forced.code).toBe(0);
    expect(forced.stderr).toContain('Warning: the plan removes 5 of 6 live playbook objects (83.3%), over the safety threshold of 30% (safety.max_delete_fraction); --force applies it\n');
    expect(forced.stdout + forced.stderr).not.toContain('apply will refuse this plan');
    expect(livePlaybooks()).toEqual(['Playbook 0']);
    await expectNoChanges(cli, dir);
  });

  it('guards permanent rule deletes the same way', async () => {
    const rules = Array.from({ length: 6 }, (_, i) => `  - name: Rule ${i}\n    actions: ACCEPT\n`).join('');
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/p.yaml': playbookYaml('Big', rules) });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFiles(dir, { 'playbooks/p.yaml': playbookYaml('Big', '  - name: Rule 0\n    actions: ACCEPT\n') });
    const refused = await cli('apply', '-C', dir, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('removes 5 of 6 live rule objects');
    const forced = await cli('apply', '-C', dir, '--auto-approve', '--force');
    expect(forced.code).toBe(0);
    // The plan it shows says what --force goes past, not that apply will refuse it (probe DQ).
    expect(forced.stdout).toContain('Warning: the plan removes 5 of 6 live rule objects (83.3%), over the safety threshold of 30% (safety.max_delete_fraction); --force applies it');
    expect(forced.stdout).not.toContain('apply will refuse this plan');
    await expectNoChanges(cli, dir);
    // With -o json no plan is printed: stderr says its warnings, what --force goes past too, for the CI log (probes FI, EC-1).
    await writeFiles(dir, { 'playbooks/p.yaml': playbookYaml('Big', rules) });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFiles(dir, { 'playbooks/p.yaml': playbookYaml('Big', '  - name: Rule 0\n    actions: ACCEPT\n') });
    const json = await cli('apply', '-C', dir, '--auto-approve', '--force', '-o', 'json');
    expect([json.code, json.stderr]).toEqual([
      0,
      'Warning: 5 rules will be permanently deleted (cannot be undone): "Big/Rule 1", "Big/Rule 2", "Big/Rule 3", "Big/Rule 4", "Big/Rule 5".\nWarning: the plan removes 5 of 6 live rule objects (83.3%), over the safety threshold of 30% (safety.max_delete_fraction); --force applies it\n',
    ]);
    await expectNoChanges(cli, dir);
  });

  it('counts the rules of declared playbooks only: those of a dropped one, read to warn of live edits, do not dilute the share', async () => {
    const rules = (n: number) => Array.from({ length: n }, (_, i) => `  - name: Rule ${i}\n    actions: ACCEPT\n`).join('');
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/big.yaml': playbookYaml('Big Two', rules(6)), 'playbooks/other.yaml': playbookYaml('Other Two', rules(12)) });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFiles(dir, { 'playbooks/big.yaml': playbookYaml('Big Two', rules(1)), 'playbooks/other.yaml': '# retired\n' });
    const plan = await cli('plan', '-C', dir, '--prune');
    expect(plan.stdout).toContain('removes 5 of 6 live rule objects');
    expect((await cli('apply', '-C', dir, '--auto-approve', '--prune', '--force')).code).toBe(0);
    await expectNoChanges(cli, dir);
  });
});

describe('every file of a kind deleted', () => {
  it('says the playbooks docket synced are not read and left live, not only that live matches the files (probe KV-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await rm(join(dir, 'playbooks'), { recursive: true });
    const plan = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('Warning: docket.lock.json records 2 playbooks docket synced, and no file declares a playbook any more: this plan read none of them, and leaves them live as they are (`--prune` reads the playbooks and archives them)');
    expect(livePlaybooks()).toEqual(['Inbound NDA', 'Vendor MSA']);
    // With a playbook declared again, the others are named as undeclared, as before.
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA });
    expect((await cli('plan', '-C', dir)).stdout).not.toContain('docket.lock.json records');
     // With no organization configured (the key's own), and with --emulator, the same (probe LE-1).
    await rm(join(dir, 'playbooks'), { recursive: true });
    const noOrganization = await runCli(['plan', '-C', dir], { env: { ...t.env, DOCKET_ORGANIZATION_ID: '' } });
    expect(noOrganization.stdout).toContain('Warning: docket.lock.json records 2 playbooks docket synced');
    const local = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    expect((await runCli(['apply', '-C', local, '--emulator', '--auto-approve'], { env: {} })).code).toBe(0);
    await rm(join(local, 'playbooks'), { recursive: true });
    expect((await runCli(['plan', '-C', local, '--emulator'], { env: {} })).stdout).toContain('Warning: .docket/emulator-sync.json records 1 playbook docket synced');
  });
});

describe('quiet output', () => {
  it('prints only the apply report with -q', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const result = await cli('apply', '-C', dir, '--auto-approve', '-q');
    expect(result.code).toBe(0);
    expect(result.stdout).not.toContain('Plan:');
    expect(result.stdout).toContain('Apply complete: 3 done.');
    expect(result.stderr).toBe('');
    // export -q writes the directory and says nothing (outside the source: inside it, the warning is printed even with -q).
    const out = join(await makeDir({}), 'exported');
    const exported = await cli('export', '-C', dir, '--out', out, '-q');
    expect(exported.code).toBe(0);
    expect([exported.stdout, exported.stderr]).toEqual(['', '']);
    expect(existsSync(join(out, 'playbooks'))).toBe(true);
  });
});

describe('pull-request output', () => {
  it('keeps a large plan under the comment size cap with a note, and stays well-formed', async () => {
    const rules = Array.from({ length: 25 }, (_, i) => `  - name: Rule ${i}\n    actions: |\n      ACCEPT clause ${i} as written\n      COUNTERPROPOSE ${'a longer sentence '.repeat(6)}\n`).join('');
    const files = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`playbooks/p${i}.yaml`, playbookYaml(`Playbook ${i}`, rules)]));
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, ...files });
    const result = await cli('plan', '-C', dir, '-o', 'markdown');
    expect(result.code).toBe(0);
    const md = result.stdout;
    expect(md.length).toBeLessThan(60_000);
    expect(md).toContain('Output truncated to stay under the 60,000-character comment limit');
    expect(md.match(/<details>/g)?.length).toBe(md.match(/<\/details>/g)?.length);
    expect((md.match(/^\s*```/gm)?.length ?? 0) % 2).toBe(0);
  });
});
