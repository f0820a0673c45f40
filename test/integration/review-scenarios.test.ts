/**
 * Scenarios against the emulator over loopback, through the real CLI program. Every scenario ends
 * with a re-plan that must show zero changes.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import { App } from '../helpers/app.js';
import { applyOk, expectNoChanges } from '../helpers/scenario.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';
import { DOCKET_YAML, MSA, NDA } from './fixtures.js';

let t: TestEmulator;

beforeEach(async () => {
  t = await startTestEmulator();
});

afterEach(async () => {
  await t.emulator.close();
  await removeMadeDirs();
});

const cli = (...args: string[]): Promise<CliResult> => runCli(args, { env: t.env });

function org() {
  return t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
}

function livePlaybook(name: string) {
  return t.emulator.store.activePlaybooks(org()).find((p) => p.name === name);
}

function liveRules(playbook: string) {
  const p = livePlaybook(playbook);
  return p ? t.emulator.store.rulesOf(org(), p.id) : [];
}

describe('review service scenarios', () => {
  it('creates playbooks with their rules, then re-plans to zero changes', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    const plan = await cli('plan', '-C', dir, '--detailed-exitcode');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toContain('+ create playbook "Inbound NDA" (playbooks/nda.yaml:1)');
    expect(plan.stdout).toContain('Plan: 6 to create, 0 to update, 0 to delete.');

    await applyOk(cli, dir);
    expect(liveRules('Inbound NDA').map((r) => r.name).sort()).toEqual(['Residuals', 'Term']);
    const term = liveRules('Inbound NDA').find((r) => r.name === 'Term')!;
    // Block scalars are sent without their trailing newline.
    expect(term.actions).toBe('ACCEPT a term of up to 3 years\nCOUNTERPROPOSE 2 years when longer');
    const cap = liveRules('Vendor MSA').find((r) => r.name === 'Liability cap')!;
    expect(t.emulator.store.user(cap.reviewer_id!)?.email).toBe('alice@acme.example');
    expect(liveRules('Vendor MSA').find((r) => r.name === 'Auto-renewal')!.generate_summary).toBe(false);
    await expectNoChanges(cli, dir);
  });

  it('updates only the changed fields, clears omitted text, and shows a unified diff', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    const before = liveRules('Inbound NDA').find((r) => r.name === 'Term')!;
    await writeFiles(dir, {
      'playbooks/nda.yaml': NDA.replace('COUNTERPROPOSE 2 years when longer', 'COUNTERPROPOSE 18 months when longer').replace(
        '    description: How long the agreement lasts\n',
        '',
      ),
    });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update rule "Inbound NDA/Term"');
    expect(plan.stdout).toContain('-COUNTERPROPOSE 2 years when longer');
    expect(plan.stdout).toContain('+COUNTERPROPOSE 18 months when longer');
    expect(plan.stdout).toContain('description: "How long the agreement lasts" → null');
    expect(plan.stdout).toContain('Plan: 0 to create, 1 to update, 0 to delete.');

    await applyOk(cli, dir);
    const after = liveRules('Inbound NDA').find((r) => r.name === 'Term')!;
    expect(after.id).toBe(before.id);
    expect(after.description).toBeNull();
    expect(after.actions).toContain('18 months');
    await expectNoChanges(cli, dir);
  });

  it('renames a playbook and a rule in place with renamed_from, keeping their ids', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    const playbookId = livePlaybook('Inbound NDA')!.id;
    const ruleId = liveRules('Inbound NDA').find((r) => r.name === 'Term')!.id;
    await writeFiles(dir, {
      'playbooks/nda.yaml': NDA.replace('name: Inbound NDA\n', 'name: Incoming NDA\nrenamed_from: Inbound NDA\n').replace(
        '  - name: Term\n',
        '  - name: Duration\n    renamed_from: [Term]\n',
      ),
    });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('rename playbook');
    expect(plan.stdout).toContain('rename rule');
    expect(plan.stdout).not.toContain('+ create');
    await applyOk(cli, dir);
    expect(livePlaybook('Incoming NDA')!.id).toBe(playbookId);
    expect(liveRules('Incoming NDA').find((r) => r.name === 'Duration')!.id).toBe(ruleId);
    await expectNoChanges(cli, dir);
  });

  it('renames back a playbook and a rule whose live names gained a line end in the app: another name, not the files\' (probe QT-2)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    const app = new App(t.env);
    await app.editRule('Inbound NDA', 'Term', { name: 'Term\r\n' });
    await app.editPlaybook('Inbound NDA', { name: 'Inbound NDA\n' });
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('name now "Inbound NDA\\n"');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ rename playbook "Inbound NDA\\n" → "Inbound NDA"');
    expect(plan.stdout).toContain('~ rename rule "Inbound NDA/Term\\r\\n" → "Inbound NDA/Term"');
    await applyOk(cli, dir);
    expect(livePlaybook('Inbound NDA')).toBeDefined();
    await expectNoChanges(cli, dir);
    // With no sync record to go by, the hint pins the id, which a file can hold where the name cannot be (second read SR85B-2).
    await rm(join(dir, 'docket.lock.json'));
    await app.editPlaybook('Inbound NDA', { name: 'Inbound NDA\n' });
    const id = livePlaybook('Inbound NDA\n')!.id;
    const unsynced = await cli('plan', '-C', dir);
    expect(unsynced.stdout + unsynced.stderr).toContain(`add \`id: ${id}\` (a \`renamed_from\` cannot hold a line end)`);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('name: Inbound NDA\n', `name: Inbound NDA\nid: ${id}\n`) });
    expect((await cli('plan', '-C', dir)).stdout).toContain('~ rename playbook "Inbound NDA\\n" → "Inbound NDA"');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('permanently deletes a rule removed from a declared playbook and never touches undeclared playbooks', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace(/  - name: Residuals\n.*\n/, '') });
    await writeFile(join(dir, 'playbooks/msa.yaml'), '# no longer managed here\n');
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('- delete rule "Inbound NDA/Residuals"');
    expect(plan.stdout).toMatch(/permanent/i);
    expect(plan.stdout).toContain('not declared in any file');
    expect(plan.stdout).not.toContain('Vendor MSA/');
    await applyOk(cli, dir);
    expect(liveRules('Inbound NDA').map((r) => r.name)).toEqual(['Term']);
    expect(liveRules('Vendor MSA')).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it('archiving another playbook of a pinned one\'s name keeps the pinned one\'s records: its next edit in the files is the files\' change, not drift (probe EE-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    const pinned = livePlaybook('Inbound NDA')!.id;
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('name: Inbound NDA\n', `name: Inbound NDA\nid: ${pinned}\n`) });
    await new App(t.env).createPlaybook({ name: 'Inbound NDA' });
    const pruned = await applyOk(cli, dir, '--prune');
    expect(pruned.stdout).toMatch(/archive playbook "Inbound NDA" \(id [0-9a-f-]+\)/);
    const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
    expect(lock).toContain(`"playbook:Inbound NDA": "${pinned}`);
    expect(lock).toContain('"rule:Inbound NDA/Term"');
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('name: Inbound NDA\n', `name: Inbound NDA\nid: ${pinned}\n`).replace('NDAs we receive', 'NDAs we receive, v2') });
    const drift = await cli('drift', '-C', dir);
    expect([drift.code, drift.stdout]).toEqual([0, expect.not.stringContaining('direction unknown')]);
    expect((await cli('plan', '-C', dir)).stdout).toContain('changed in files');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('--prune archives another playbook of a pinned one\'s name whatever the pinned one\'s drift policy: it is no file\'s (probe EE-2)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA.replace('name: Inbound NDA\n', 'name: Inbound NDA\ndrift: ignore\n') });
    await applyOk(cli, dir);
    const pinned = livePlaybook('Inbound NDA')!.id;
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('name: Inbound NDA\n', `name: Inbound NDA\nid: ${pinned}\ndrift: ignore\n`) });
    const other = await new App(t.env).createPlaybook({ name: 'Inbound NDA' });
    expect((await cli('drift', '-C', dir)).code).toBe(2);
    const pruned = await applyOk(cli, dir, '--prune');
    expect(pruned.stdout).toContain(`archive playbook "Inbound NDA" (id ${other})`);
    expect(t.emulator.store.activePlaybooks(org()).map((p) => p.id)).toEqual([pinned]);
    expect((await cli('drift', '-C', dir)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('a rename the plan does not make (its new name taken live) leaves the records of the object still live under the former name: an edit in the app to it is still changed live (probe MR-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    const app = new App(t.env);
    await app.createPlaybook({ name: 'Legacy NDA' });
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('name: Inbound NDA\n', 'name: Legacy NDA\nrenamed_from: [Inbound NDA]\n') });
    const apply = await applyOk(cli, dir);
    expect(apply.stdout).toContain('Inbound NDA');
    const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
    expect(lock).toContain('"playbook:Inbound NDA"');
    expect(lock).toContain('"rule:Inbound NDA/Term"');
    await app.editRule('Inbound NDA', 'Term', { actions: 'ACCEPT any term' });
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toMatch(/~ update rule "Inbound NDA\/Term" \([^)]*\) · changed live/);
  });

  it('a plan saved with --prune that only archives applies when no file declares a playbook: the saved plan\'s services are connected (probe MQ-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/nda.yaml'), '# no longer managed here\n');
    const saved = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--prune', '--out', saved)).code).toBe(0);
    const apply = await cli('apply', '-C', dir, saved, '--force');
    expect(apply.stderr).toBe('');
    expect(apply.stdout).toContain('archive playbook "Inbound NDA"');
    expect(apply.code).toBe(0);
    expect(livePlaybook('Inbound NDA')).toBeUndefined();
    await expectNoChanges(cli, dir, '--prune');
  });

  it('a saved plan that archives a playbook goes stale when one of its rules is edited or made in the app since, as they go with it (probe GB-2)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/msa.yaml'), '# no longer managed here\n');
    const saved = join(dir, 'plan.json');
    const app = new App(t.env);
    const stale = 'playbook "Vendor MSA", which the plan archives, had rules edited, made or removed live since the plan (they go with it)';
    for (const edit of [() => app.editRule('Vendor MSA', 'Auto-renewal', { actions: 'ACCEPT any notice' }), () => app.createRule('Vendor MSA', { name: 'Added in the app', actions: 'ACCEPT' })]) {
      expect((await cli('plan', '-C', dir, '--prune', '--out', saved)).code).toBe(0);
      await edit();
      const refused = await cli('apply', '-C', dir, saved);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(stale)]);
      expect(livePlaybook('Vendor MSA')).toBeDefined();
    }
    // Unchanged since, the saved plan applies.
    expect((await cli('plan', '-C', dir, '--prune', '--out', saved)).code).toBe(0);
    const apply = await cli('apply', '-C', dir, saved);
    expect([apply.code, apply.stderr]).toEqual([0, '']);
    expect(livePlaybook('Vendor MSA')).toBeUndefined();
    await expectNoChanges(cli, dir, '--prune');
    // One docket synced with no rules: a rule made there since goes with it too (second read SR105-7).
    await writeFile(join(dir, 'playbooks/empty.yaml'), 'kind: Playbook\nname: Empty\nrules: []\n');
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/empty.yaml'), '# no longer managed here\n');
    expect((await cli('plan', '-C', dir, '--prune', '--out', saved)).code).toBe(0);
    await app.createRule('Empty', { name: 'Made in the app', actions: 'ACCEPT' });
    const empty = await cli('apply', '-C', dir, saved);
    expect([empty.code, empty.stderr]).toEqual([1, expect.stringContaining('playbook "Empty", which the plan archives, had rules edited, made or removed live since the plan (they go with it)')]);
  });

  it('drift tells two live playbooks of one name apart by their ids, in -o json and in text (probe GE-3)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    const app = new App(t.env);
    const twins = [await app.createPlaybook({ name: 'Twin' }), await app.createPlaybook({ name: 'Twin' })];
    const json = await cli('drift', '-C', dir, '-o', 'json');
    const items = (JSON.parse(json.stdout) as { drift: { key: string; live_id?: string }[] }).drift.filter((i) => i.key === 'Twin');
    expect(items.map((i) => i.live_id).sort()).toEqual([...twins].sort());
    const text = await cli('drift', '-C', dir);
    for (const id of twins) expect(text.stdout).toContain(`playbook "Twin" (id ${id})`);
    // One of a name has none.
    await app.createPlaybook({ name: 'Single' });
    const single = await cli('drift', '-C', dir, '-o', 'json');
    expect((JSON.parse(single.stdout) as { drift: { key: string; live_id?: string }[] }).drift.find((i) => i.key === 'Single')).not.toHaveProperty('live_id');
  });

  it('drift names by its id a live playbook of the name of a declared one its file pins to another: not "NDA is only live" while the files declare NDA (probe UH-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': 'kind: Playbook\nname: Pinned NDA\nrules:\n  - name: Term\n    actions: ACCEPT 1\n' });
    await applyOk(cli, dir);
    const app = new App(t.env);
    const pinned = await app.playbookId('Pinned NDA');
    await writeFiles(dir, { 'playbooks/nda.yaml': `kind: Playbook\nid: ${pinned}\nname: Pinned NDA\nrules:\n  - name: Term\n    actions: ACCEPT 1\n` });
    const other = await app.createPlaybook({ name: 'Pinned NDA' });
    const json = await cli('drift', '-C', dir, '-o', 'json');
    const items = (JSON.parse(json.stdout) as { drift: { key: string; live_id?: string; direction: string }[] }).drift.filter((i) => i.key === 'Pinned NDA');
    expect(items).toEqual([expect.objectContaining({ direction: 'only-live', live_id: other })]);
    expect((await cli('drift', '-C', dir)).stdout).toContain(`playbook "Pinned NDA" (id ${other})`);
  });

  it('a saved plan that archives two live playbooks of one name and deletes two rules of one name is shown and applied, each told apart by its live id (probe YE-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    const app = new App(t.env);
    const twins = [await app.createPlaybook({ name: 'Twin' }), await app.createPlaybook({ name: 'Twin' })];
    for (let i = 0; i < 2; i++) await app.createRule('Inbound NDA', { name: 'Exception', actions: 'ACCEPT' });
    const saved = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--prune', '--out', saved)).code).toBe(0);
    const ids = (JSON.parse(await readFile(saved, 'utf8')) as { changes: { id: string }[] }).changes.map((c) => c.id);
    expect(ids.filter((id) => id.startsWith('archive:playbook:Twin@')).sort()).toEqual(twins.map((id) => `archive:playbook:Twin@${id}`).sort());
    expect(ids.filter((id) => id.startsWith('delete:rule:Inbound NDA/Exception@'))).toHaveLength(2);
    const show = await cli('show', saved);
    expect([show.code, show.stderr]).toEqual([0, '']);
    for (const id of twins) expect(show.stdout).toContain(`- archive playbook "Twin" (id ${id})`);
    const apply = await cli('apply', '-C', dir, saved);
    expect([apply.code, apply.stderr]).toEqual([0, '']);
    expect(livePlaybook('Twin')).toBeUndefined();
    expect(liveRules('Inbound NDA').map((r) => r.name).sort()).toEqual(['Residuals', 'Term']);
    await expectNoChanges(cli, dir, '--prune');
  });

  it('a playbook archived with --prune and declared again has no drift: its rules are created, not removed live', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/msa.yaml'), '# no longer managed here\n');
    await applyOk(cli, dir, '--prune');
    expect(livePlaybook('Vendor MSA')).toBeUndefined();
    await writeFiles(dir, { 'playbooks/msa.yaml': MSA });
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).not.toContain('Removed live');
    expect(drift.code).toBe(0);
    const pull = await cli('pull', '-C', dir, '--dry-run');
    expect(pull.stdout).not.toContain('removed live');
    expect(await applyOk(cli, dir)).toMatchObject({ stdout: expect.stringMatching(/create rule "Vendor MSA\/\S+.*· only in files/) });
    expect(liveRules('Vendor MSA')).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it('a playbook archived in the app and renamed in the files reads as removed live with its rules, and is put back with them as one object, as without the rename (probe HO-1)', async () => {
    const third = NDA.replace('Inbound NDA', 'Outbound NDA');
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA, 'playbooks/out.yaml': third });
    await applyOk(cli, dir);
    await new App(t.env).archivePlaybook('Vendor MSA');
    await writeFiles(dir, { 'playbooks/msa.yaml': MSA.replace('name: Vendor MSA\n', 'name: Supplier MSA\nrenamed_from: [Vendor MSA]\n') });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('+ create playbook "Supplier MSA" (playbooks/msa.yaml:1) · removed live');
    expect(plan.stdout).toContain('+ create rule "Supplier MSA/Auto-renewal" (playbooks/msa.yaml:');
    expect(plan.stdout).not.toContain('only in files');
    // Two of six rules: over the share, were they counted apart from their playbook.
    expect(plan.stdout).not.toContain('apply will refuse');
    // The rename is the files' edit since the last sync: pull keeps the playbook in them (probe HR-2), as after any edit.
    const pull = await cli('pull', '-C', dir, '--dry-run');
    expect(pull.stdout).toContain('playbook "Supplier MSA" name (playbooks/msa.yaml:1): removed live, but the files changed it since the last sync');
    expect(pull.stdout).toContain('would write no file');
    await applyOk(cli, dir);
    expect(liveRules('Supplier MSA')).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it('a playbook archived in the app whose put-back failed part way is finished by the next apply, without --force: its rules left to make are the files\', not removed live (probe GL-1)', async () => {
    const rules = ['R1', 'R2', 'R3', 'R4', 'R5', 'R6'].map((r) => `  - name: ${r}\n    actions: ACCEPT ${r}\n`).join('');
    const files = Object.fromEntries(['A', 'B', 'C'].map((p) => [`playbooks/${p.toLowerCase()}.yaml`, `kind: Playbook\nname: ${p}\nrules:\n${rules}`]));
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, ...files });
    await applyOk(cli, dir);
    await new App(t.env).archivePlaybook('A');
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbook_rules', status: 422, count: 6 });
    const failed = await cli('apply', '-C', dir, '--auto-approve');
    expect(failed.code).toBe(1);
    expect(livePlaybook('A')).toBeDefined();
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).not.toContain('apply will refuse');
    expect(plan.stdout).not.toContain('removed live');
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).not.toContain('Removed live');
    await applyOk(cli, dir);
    expect(liveRules('A')).toHaveLength(6);
    await expectNoChanges(cli, dir);
  });

  it('a playbook renamed in the app onto one the files add, taking a rule they do not declare there: drift says pull leaves it all, as pull does (probe HR-3)', async () => {
    // Under `drift: adopt` too, where the plan holds the delete (second read).
    for (const [name, policy] of [['Pc', ''], ['Qc', 'drift: adopt\n']] as const) {
      const renamedTo = name.replace('c', 'd');
      const pc = `kind: Playbook\nname: ${name}\n${policy}rules:\n  - name: R\n    actions: ACCEPT r\n  - name: R2\n    actions: ACCEPT r2\n`;
      const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/c.yaml': pc });
      await applyOk(cli, dir);
      await writeFiles(dir, { 'playbooks/d.yaml': `kind: Playbook\nname: ${renamedTo}\n${policy}rules:\n  - name: R\n    actions: ACCEPT r\n` });
      await new App(t.env).editPlaybook(name, { name: renamedTo });
      const pull = await cli('pull', '-C', dir, '--dry-run');
      expect(pull.stdout, policy).toContain('would write no file');
      const drift = await cli('drift', '-C', dir);
      expect(drift.stdout, policy).toContain(`~ rule "${renamedTo}/R2"`);
      expect(drift.stdout, policy).toContain(`\`docket pull -C ${dir}\` leaves it`);
      expect(drift.stdout, policy).not.toContain(`\`docket pull -C ${dir}\` writes it into the files`);
      await applyOk(cli, dir);
      await expectNoChanges(cli, dir);
      // Out of the next round's organization (without a policy, the apply made the original again; adopt keeps its removal).
      for (const playbook of policy ? [renamedTo] : [renamedTo, name]) await new App(t.env).archivePlaybook(playbook);
    }
  });

  it('a rule the files renamed since the last sync and the app deleted stays in the files: pull keeps it, apply makes it again (probe HR-2)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/msa.yaml': MSA });
    await applyOk(cli, dir);
    await new App(t.env).deleteRule('Vendor MSA', 'Auto-renewal');
    const renamed = MSA.replace('  - name: Auto-renewal\n', '  - name: Renewal\n    renamed_from: [Auto-renewal]\n');
    await writeFiles(dir, { 'playbooks/msa.yaml': renamed });
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).toContain('- rule "Vendor MSA/Renewal"');
    expect(drift.stdout).toContain('pull leaves it');
    const pull = await cli('pull', '-C', dir);
    expect(pull.stdout).toContain('rule "Vendor MSA/Renewal" name (playbooks/msa.yaml:');
    expect(await readFile(join(dir, 'playbooks/msa.yaml'), 'utf8')).toBe(renamed);
    await applyOk(cli, dir);
    expect(liveRules('Vendor MSA').map((r) => r.name).sort()).toEqual(['Liability cap', 'Renewal']);
    await expectNoChanges(cli, dir);
  });

  it('a rule renamed in the app onto a name the files add: drift does not send the renamed one to pull, which leaves it for a rename by hand (probe HN-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/msa.yaml': MSA });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/msa.yaml': `${MSA}  - name: Governing law\n    actions: ACCEPT New York\n` });
    await new App(t.env).editRule('Vendor MSA', 'Auto-renewal', { name: 'Governing law' });
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).toContain('- rule "Vendor MSA/Auto-renewal" (playbooks/msa.yaml:7)');
    expect(drift.stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
    expect(drift.stdout).not.toContain(`\`docket pull -C ${dir}\` writes it into the files`);
    const pull = await cli('pull', '-C', dir, '--dry-run');
    expect(pull.stdout).toContain('rule "Vendor MSA/Auto-renewal" (playbooks/msa.yaml:7): still live as rule "Vendor MSA/Governing law", renamed or moved in the app to a name the files declare too');
    expect(pull.stdout).toContain('would write no file');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a rule removed while its playbook is renamed leaves no record under the old name: a new playbook taking that name has no drift', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('name: Inbound NDA\n', 'name: Incoming NDA\nrenamed_from: Inbound NDA\n').replace(/  - name: Residuals\n.*\n/, '') });
    await applyOk(cli, dir);
    const lock = await readFile(join(dir, 'docket.lock.json'), 'utf8');
    expect(lock).not.toContain('Inbound NDA');
    // The old name declared again, with the removed rule's name.
    await writeFiles(dir, { 'playbooks/old.yaml': NDA });
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).not.toContain('Removed live');
    expect(drift.code).toBe(0);
    expect(await applyOk(cli, dir)).toMatchObject({ stdout: expect.stringMatching(/create rule "Inbound NDA\/Residuals".*· only in files/) });
    expect(liveRules('Inbound NDA').map((r) => r.name).sort()).toEqual(['Residuals', 'Term']);
    await expectNoChanges(cli, dir);
  });

  it('a rule deleted in the app and removed from the files leaves no record: declared again, it is new, not removed live', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    t.emulator.store.removeRule(org(), liveRules('Inbound NDA').find((r) => r.name === 'Residuals')!);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace(/  - name: Residuals\n.*\n/, '') });
    expect((await applyOk(cli, dir)).stdout).toContain('No changes.');
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('Inbound NDA/Residuals');
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA });
    expect((await cli('drift', '-C', dir)).code).toBe(0);
    expect(await applyOk(cli, dir)).toMatchObject({ stdout: expect.stringMatching(/create rule "Inbound NDA\/Residuals".*· only in files/) });
    await expectNoChanges(cli, dir);
  });

  it('invites a declared member before the rule and the organization that name them as reviewer', async () => {
    const dir = await makeDir({
      'docket.yaml': DOCKET_YAML,
      'members.yaml': 'kind: Member\nemail: Dave@Acme.example\nname: Dave Ng\n',
      'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Legal\n  default_reviewer: dave@acme.example\n',
      'playbooks/msa.yaml': MSA.replace('reviewer: alice@acme.example', 'reviewer: DAVE@acme.example'),
    });
    const plan = await cli('plan', '-C', dir, '-o', 'json');
    const changes = JSON.parse(plan.stdout).changes as { id: string; dependsOn: string[] }[];
    const invite = changes.findIndex((c) => c.id === 'invite:member:dave@acme.example');
    const rule = changes.findIndex((c) => c.id === 'create:rule:Vendor MSA/Liability cap');
    const orgUpdate = changes.findIndex((c) => c.id === 'update:organization:organization');
    expect(invite).toBeGreaterThanOrEqual(0);
    expect(invite).toBeLessThan(rule);
    expect(invite).toBeLessThan(orgUpdate);
    expect(changes[rule]!.dependsOn).toContain('invite:member:dave@acme.example');

    await applyOk(cli, dir);
    const dave = t.emulator.store.userByEmail('dave@acme.example')!;
    expect(dave.name).toBe('Dave Ng');
    expect(liveRules('Vendor MSA').find((r) => r.name === 'Liability cap')!.reviewer_id).toBe(dave.id);
    expect(org().default_reviewer_id).toBe(dave.id);
    expect(org().name).toBe('Acme Legal');
    await expectNoChanges(cli, dir);

    // The service cannot clear it: refused at the value written, which the message names.
    await writeFiles(dir, { 'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Legal\n  default_reviewer: null\n' });
    const cleared = await cli('plan', '-C', dir);
    expect(cleared.code).toBe(1);
    expect(cleared.stderr).toContain('organization.yaml:4:21 error unsupported-change `review.default_reviewer` is empty, but the review service cannot clear');
    expect(org().default_reviewer_id).toBe(dave.id);
    await writeFiles(dir, { 'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Legal\n' });
    await expectNoChanges(cli, dir);
  });

  it('refuses a reviewer that is neither declared nor a user, at its file:line, before any write', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/msa.yaml': MSA.replace('alice@', 'nobody@') });
    const result = await cli('plan', '-C', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('playbooks/msa.yaml:6:');
    expect(result.stderr).toContain('unknown-reference');
    expect(t.emulator.stats().requests.by_route['POST /review/v1/organizations/:org/playbooks']).toBeUndefined();
  });

  it('reports drift of objects whose updated_at is not a timestamp text (epoch seconds, true), leaving the time out (probe EG)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    const playbook = livePlaybook('Inbound NDA')!;
    const rule = liveRules('Inbound NDA').find((r) => r.name === 'Term')!;
    // As a service that keeps times as numbers would send them.
    Object.assign(playbook, { description: 'Edited in the app', updated_at: 1764672000 });
    Object.assign(rule, { description: 'Edited in the app too', updated_at: true });
    for (const output of ['text', 'markdown']) {
      const drift = await cli('drift', '-C', dir, '-o', output);
      expect([drift.code, drift.stderr]).toEqual([2, '']);
      expect(drift.stdout).toMatch(/playbook "?`?Inbound NDA/);
      expect(drift.stdout).toMatch(/rule "?`?Inbound NDA\/Term/);
      expect(drift.stdout).not.toContain('updated');
    }
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('places a rule to delete at its playbook\'s `rules:`, or at the playbook when the file has none, also in a later document (probe IQ-5)', async () => {
    const p = (rules: string) => `# P\nkind: Playbook\nname: P\n${rules}`;
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/p.yaml': p('rules:\n  - name: A\n    actions: ACCEPT a\n  - name: B\n    actions: ACCEPT b\n') });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/p.yaml': p('rules: [{name: A, actions: ACCEPT a}]\n') });
    expect((await cli('plan', '-C', dir)).stdout).toContain('- delete rule "P/B" (permanent) (playbooks/p.yaml:4) · removed from files');
    await writeFiles(dir, { 'playbooks/p.yaml': `kind: Playbook\nname: Q\n---\n${p('')}` });
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('- delete rule "P/A" (permanent) (playbooks/p.yaml:5) · removed from files');
    expect(plan.stdout).toContain('- delete rule "P/B" (permanent) (playbooks/p.yaml:5) · removed from files');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});

describe('saved plans', () => {
  it('applies exactly a saved plan, then re-plans to zero changes', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const planFile = join(dir, 'plan.json');
    const plan = await cli('plan', '-C', dir, '--out', planFile);
    expect(plan.code).toBe(0);
    const saved = JSON.parse(await readFile(planFile, 'utf8'));
    expect(saved.format_version).toBe(1);
    expect(JSON.stringify(saved)).not.toContain('docket-emulator-key');
    const apply = await cli('apply', '-C', dir, planFile);
    expect(apply.code).toBe(0);
    expect(apply.stdout).toContain('Apply complete: 3 done.');
    expect(apply.stdout).toMatch(/^docket apply · target: http:\/\/127\.0\.0\.1:\d+\/review/);
    await expectNoChanges(cli, dir);
    // A saved plan with nothing to do (a merge that changed nothing live) still reports, as CI logs it.
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    const idle = await cli('apply', '-C', dir, planFile);
    expect(idle.code).toBe(0);
    expect(idle.stdout).toMatch(/^docket apply · target: http:\/\/127\.0\.0\.1:\d+\/review.*\n\nNo changes in the saved plan: nothing was sent\.\n$/);
  });

  it('applies a saved plan that deletes rule A/B of playbook P and creates rule B of playbook P/A (one key, two objects), with no drift before it (probe FU)', async () => {
    const rule = (name: string, actions: string) => `  - name: ${name}\n    actions: ${actions}\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/p.yaml': `kind: Playbook\nname: P\nrules:\n${rule('A/B', 'ACCEPT one')}`, 'playbooks/pa.yaml': `kind: Playbook\nname: P/A\nrules:\n${rule('C', 'ACCEPT two')}` });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/p.yaml': `kind: Playbook\nname: P\nrules:\n${rule('X', 'ACCEPT one')}`, 'playbooks/pa.yaml': `kind: Playbook\nname: P/A\nrules:\n${rule('C', 'ACCEPT two')}${rule('B', 'ACCEPT three')}` });
    const drift = await cli('drift', '-C', dir);
    expect(drift.stdout).toContain('No drift');
    expect(drift.code).toBe(0);
    const planFile = join(dir, 'plan.json');
    const plan = await cli('plan', '-C', dir, '--out', planFile);
    expect(plan.stdout).toContain('+ create rule "P/A/B" (playbooks/pa.yaml:6) · only in files');
    // Two changes named "P/A/B": the one removing a live object says which by its id.
    expect(plan.stdout).toMatch(/- delete rule "P\/A\/B" \(id [0-9a-f-]{36}\) \(permanent\) \(playbooks\/p\.yaml:3\) · removed from files\n {6}name: "A\/B"\n/);
    const apply = await cli('apply', '-C', dir, planFile);
    expect(apply.stderr).toBe('');
    expect(apply.stdout).toContain('Apply complete: 3 done.');
    await expectNoChanges(cli, dir);
  });

  it('refuses a saved plan when the configuration changed since', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const planFile = join(dir, 'plan.json');
    await cli('plan', '-C', dir, '--out', planFile);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('NDAs we receive', 'NDAs we sign') });
    const apply = await cli('apply', '-C', dir, planFile);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('the configuration changed since the plan was made');
    expect(livePlaybook('Inbound NDA')).toBeUndefined();
    // So does a tightened deletion guard: a plan saved under a looser one would pass what it stops.
    await cli('plan', '-C', dir, '--out', planFile);
    await writeFiles(dir, { 'docket.yaml': `${DOCKET_YAML}safety:\n  max_delete_fraction: 0.1\n` });
    const guarded = await cli('apply', '-C', dir, planFile);
    expect([guarded.code, guarded.stderr]).toEqual([1, expect.stringContaining('the configuration changed since the plan was made')]);
    expect(livePlaybook('Inbound NDA')).toBeUndefined();
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('refuses a plan file edited into another shape, or made by another docket version, and changes nothing', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const planFile = join(dir, 'plan.json');
    await cli('plan', '-C', dir, '--out', planFile);
    const saved = JSON.parse(await readFile(planFile, 'utf8'));
    const edited = async (name: string, edit: (plan: any) => void): Promise<string> => { // eslint-disable-line @typescript-eslint/no-explicit-any -- a plan file being broken on purpose
      const copy = structuredClone(saved);
      edit(copy);
      await writeFile(join(dir, name), JSON.stringify(copy));
      return join(dir, name);
    };
    const broken = [
      [await edited('action.json', (p) => (p.changes.at(-1).action = 'explode')), '.action: `action` must be one of: create, update'],
      [await edited('fields.json', (p) => (p.changes[0].fields = 'x')), 'changes[0].fields: `fields` must be a list'],
      [await edited('ids.json', (p) => (p.ids = null)), 'ids: `ids` must be a mapping'],
      [await edited('null.json', (p) => p.changes.push(null)), `changes[${saved.changes.length}]: `],
    ];
    for (const [file, message] of broken) {
      for (const command of [['show', file!], ['apply', '-C', dir, file!]]) {
        const result = await cli(...command);
        expect(result.code).toBe(1);
        expect(result.stderr).toContain(`${file} is not a valid docket plan file: `);
        expect(result.stderr).toContain(message);
        expect(result.stderr).not.toContain('bug');
      }
    }
    // The hint's command plans the folder the apply was given (probe FU); so for a file that is not JSON.
    // It makes the plan again under the name the apply was given.
    expect((await cli('apply', '-C', dir, broken[0]![0]!)).stderr).toContain(`make a new one with \`docket plan -C ${dir} --out ${broken[0]![0]!}\` instead of editing it`);
    await writeFile(join(dir, 'cut.json'), JSON.stringify(saved).slice(0, 100));
    expect((await cli('apply', '-C', dir, join(dir, 'cut.json'))).stderr).toContain(`hint: make a new one with \`docket plan -C ${dir} --out ${join(dir, 'cut.json')}\``);
    // One that is not there is made there; one that cannot be read as a file (a folder) is not named.
    expect((await cli('apply', '-C', dir, join(dir, 'gone.json'))).stderr).toContain(`hint: make one with \`docket plan -C ${dir} --out ${join(dir, 'gone.json')}\``);
    expect((await cli('apply', '-C', dir, dir)).stderr).toContain(`hint: make one with \`docket plan -C ${dir} --out PLAN.json\``);
    // Nor a file plan --out would refuse: a configuration file, or one that is no saved plan (SR66-6).
    expect((await cli('apply', '-C', dir, join(dir, 'docket.yaml'))).stderr).toContain(`--out PLAN.json`);
    expect((await cli('apply', '-C', dir, join(dir, 'playbooks', 'new.yaml'))).stderr).toContain(`hint: make one with \`docket plan -C ${dir} --out PLAN.json\``);
    // A file that says nothing of itself: as the apply was given (second read).
    expect((await cli('apply', '-C', dir, '--emulator', join(dir, 'cut.json'))).stderr).toContain(`hint: make a new one with \`docket plan -C ${dir} --emulator --out ${join(dir, 'cut.json')}\``);
    const older = await cli('apply', '-C', dir, await edited('older.json', (p) => (p.docket_version = '0.0.1')));
    expect(older.code).toBe(1);
    expect(older.stderr).toContain('older.json was made by docket 0.0.1, and this is docket');
    // Of this version, by a build before plans carried their format: refused too, not applied without this build's checks (probe HF-1).
    const otherBuild = await cli('apply', '-C', dir, await edited('other-build.json', (p) => delete p.plan_format));
    expect([otherBuild.code, otherBuild.stderr]).toEqual([1, expect.stringContaining("other-build.json was made by another build of docket 0.1.0, whose saved plans record other things than this build's (no plan format; this build's is")]);
    const shown = await cli('show', join(dir, 'other-build.json'));
    expect([shown.code, shown.stderr]).toEqual([0, expect.stringContaining("was made by another build of docket 0.1.0, whose saved plans record other things than this build's; only a build of its plan format applies it")]);
    expect(livePlaybook('Inbound NDA')).toBeUndefined();
    expect((await cli('apply', '-C', dir, planFile)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('refuses a saved plan edited after it was saved, whatever the edit, and applies one written again unedited', async () => {
    const rule = (reviewer: string) => `kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT\n    reviewer: ${reviewer}\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/p.yaml': rule('alice@acme.example') });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/p.yaml': rule('qa@acme.example') });
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    const text = await readFile(planFile, 'utf8');
    type Saved = { ids: Record<string, string>; changes: { action: string; id: string; fields: { after: unknown }[] }[]; seal?: string };
    const org = t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
    const alice = t.emulator.store.userByEmail('alice@acme.example')!.id;
    // Edits that keep to the schema, each of which the configuration and live checks cannot see.
    const edits: [string, (p: Saved) => void][] = [
      ['an id swapped', (p) => void (p.ids['member:qa@acme.example'] = p.ids['member:alice@acme.example'] ?? alice)],
      ['an update turned into a delete', (p) => Object.assign(p.changes[0]!, { action: 'delete', id: p.changes[0]!.id.replace(/^update/, 'delete'), fields: [] })],
      ['what the plan shows, not what it sends', (p) => void (p.changes[0]!.fields[0]!.after = 'HACKED')],
      ['its seal taken out', (p) => void delete p.seal],
    ];
    for (const [what, edit] of edits) {
      const saved = JSON.parse(text) as Saved;
      edit(saved);
      await writeFile(planFile, JSON.stringify(saved, null, 2));
      const refused = await cli('apply', '-C', dir, planFile);
      expect([what, refused.code]).toEqual([what, 1]);
      expect(refused.stderr).toContain(`${planFile} cannot be applied: `);
      expect(Object.values(org.rules).find((r) => r.name === 'R')!.reviewer_id).toBe(alice);
    }
    // A CI script tells a tampered plan, another docket's plan and a file that is no plan apart by code.
    const asJson = async (content: string): Promise<unknown> => {
      await writeFile(planFile, content);
      return (JSON.parse((await cli('apply', '-C', dir, planFile, '-o', 'json')).stdout) as { error: { code: string } }).error.code;
    };
    const tampered = JSON.parse(text) as Saved;
    tampered.changes[0]!.fields[0]!.after = 'HACKED';
    expect(await asJson(JSON.stringify(tampered))).toBe('plan-seal');
    expect(await asJson(JSON.stringify({ ...(JSON.parse(text) as object), docket_version: '0.0.1' }))).toBe('plan-version');
    expect(await asJson(JSON.stringify({ ...(JSON.parse(text) as object), format_version: 2, docket_version: '9.0.0' }))).toBe('plan-version');
    expect(await asJson('{}')).toBe('invalid-plan-file');
    // Nested thousands deep (a few kilobytes): refused as no plan, not a stack overflow (probe TC-1).
    const deep = `{"format_version":1,"docket_version":"0.1.0","changes":${'['.repeat(5000)}${']'.repeat(5000)}}`;
    expect(await asJson(deep)).toBe('invalid-plan-file');
    expect((await cli('show', planFile)).stderr).toContain('nests more than 200 levels deep');
    // An empty plan argument (`docket apply "$PLAN"` with PLAN unset) is refused, not taken as none: nothing unreviewed is applied.
    const empty = await cli('apply', '-C', dir, '', '--auto-approve');
    expect([empty.code, empty.stderr]).toEqual([1, expect.stringContaining('the plan file argument is empty')]);
    expect((await cli('show', '')).stderr).toContain('the plan file argument is empty');
    expect(await asJson(JSON.stringify({ format_version: 2 }))).toBe('invalid-plan-file');
    // Edited into another format by hand, or a field taken out: said as such, not as another docket's plan or no plan.
    const saying = async (edit: (p: Record<string, unknown>) => void): Promise<string> => {
      const plan = JSON.parse(text) as Record<string, unknown>;
      edit(plan);
      await writeFile(planFile, JSON.stringify(plan));
      return (await cli('apply', '-C', dir, planFile)).stderr;
    };
    const reformatted = await saying((p) => void (p.format_version = 2));
    expect(reformatted).toContain('says `format_version: 2`, but docket');
    expect(reformatted).toContain('the file was edited');
    expect(reformatted).not.toContain('apply it with the docket that made it');
    expect(await saying((p) => void delete p.changes)).toMatch(/is not a valid docket plan file: .*`changes`/);
    expect(await saying((p) => void delete p.format_version)).toMatch(/is not a valid docket plan file: .*`format_version`/);
    // A null in JSON is said as the null it is, not as YAML's empty value (probe IP-4).
    expect(await saying((p) => void ((p.changes as Record<string, unknown>[])[0]!.fields = null))).toContain('changes[0].fields: `fields` must be a list, not null');
    expect(await saying((p) => void ((p.changes as Record<string, unknown>[])[0]!.action = null))).toMatch(/changes\[0\]\.action: `action` must be one of: [a-z, -]+ \(got null\)/);
    // Written again unedited (another layout, keys in another order), it is the same plan.
    const same = JSON.parse(text) as Record<string, unknown>;
    await writeFile(planFile, JSON.stringify(Object.fromEntries(Object.entries(same).reverse())));
    expect((await cli('apply', '-C', dir, planFile)).code).toBe(0);
    expect(Object.values(org.rules).find((r) => r.name === 'R')!.reviewer_id).toBe(t.emulator.store.userByEmail('qa@acme.example')!.id);
    await expectNoChanges(cli, dir);
  });

  it('applies a saved plan with the key it was made with, whatever space a CI secret adds, and asks for a key that is missing', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const planFile = join(dir, 'plan.json');
    expect((await runCli(['plan', '-C', dir, '--out', planFile], { env: { ...t.env, DOCKET_API_KEY: `${t.env.DOCKET_API_KEY}\n` } })).code).toBe(0);
    const keyless = await runCli(['apply', '-C', dir, planFile], { env: { ...t.env, DOCKET_API_KEY: '' } });
    expect(keyless.code).toBe(1);
    expect(keyless.stderr).toContain('no API key for the review service');
    expect((await runCli(['apply', '-C', dir, planFile], { env: { ...t.env, DOCKET_API_KEY: `  ${t.env.DOCKET_API_KEY}` } })).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('refuses a saved plan when a live object it touches changed since, and names it', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('NDAs we receive', 'NDAs we sign') });
    const planFile = join(dir, 'plan.json');
    await cli('plan', '-C', dir, '--out', planFile);
    // Someone edits the playbook in the web app meanwhile.
    const res = await fetch(`${t.env.DOCKET_REVIEW_URL}/v1/organizations/${DEFAULT_ORGANIZATION_ID}/playbooks/${livePlaybook('Inbound NDA')!.id}`, {
      method: 'PATCH',
      headers: { authorization: `Bearer ${t.env.DOCKET_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'edited by hand' }),
    });
    expect(res.status).toBe(200);
    const apply = await cli('apply', '-C', dir, planFile);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('playbook "Inbound NDA" changed live since the plan');
    // Never applied: the hint leads with what to do, not with "applies once".
    expect(apply.stderr).toContain(`hint: run \`docket plan -C ${dir} --out ${planFile}\` again and review the new plan: a saved plan applies only to what it was made from`);
    expect(livePlaybook('Inbound NDA')!.description).toBe('edited by hand');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('refuses a saved plan that creates rules in a playbook archived or renamed in the app since, and changes nothing else it holds (probe EH)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    await applyOk(cli, dir);
    await writeFiles(dir, {
      'playbooks/nda.yaml': `${NDA}  - name: Governing law\n    actions: ACCEPT New York\n`,
      'playbooks/msa.yaml': MSA.replace('60 days notice', '90 days notice'),
    });
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    const app = new App(t.env);
    await app.archivePlaybook('Inbound NDA');
    const archived = await cli('apply', '-C', dir, planFile);
    expect(archived.code).toBe(1);
    expect(archived.stderr).toContain('playbook "Inbound NDA" no longer exists live (the plan creates rules in it)');
    // The plan's other change is not made either: a stale plan changes nothing.
    expect(liveRules('Vendor MSA').find((r) => r.name === 'Auto-renewal')!.actions).toBe('COUNTERPROPOSE 60 days notice');

    // Renamed in the app instead: the rule would go into a playbook the files do not name.
    const again = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await writeFiles(again, { 'playbooks/nda.yaml': NDA.replace('Inbound NDA', 'Outbound NDA') });
    await applyOk(cli, again);
    await writeFiles(again, { 'playbooks/nda.yaml': `${NDA.replace('Inbound NDA', 'Outbound NDA')}  - name: Governing law\n    actions: ACCEPT New York\n` });
    expect((await cli('plan', '-C', again, '--out', planFile)).code).toBe(0);
    await app.editPlaybook('Outbound NDA', { name: 'Outbound NDA (2026)' });
    const renamed = await cli('apply', '-C', again, planFile);
    expect(renamed.code).toBe(1);
    expect(renamed.stderr).toContain('playbook "Outbound NDA" was renamed live to "Outbound NDA (2026)" since the plan (the plan creates rules in it)');
    expect(liveRules('Outbound NDA (2026)').map((r) => r.name)).not.toContain('Governing law');
    await applyOk(cli, again);
    await expectNoChanges(cli, again);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);

    // Archived in the app under drift: adopt, its files edited since: a --target of one rule makes it
    // again with all its rules, as a plan without --target does (probe PS-2).
    const adopt = 'kind: Playbook\nname: Adopt NDA\ndrift: adopt\nrules:\n  - name: r1\n    actions: ACCEPT 1\n  - name: r2\n    actions: ACCEPT 2\n';
    const held = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/adopt.yaml': adopt });
    await applyOk(cli, held);
    await app.archivePlaybook('Adopt NDA');
    await writeFiles(held, { 'playbooks/adopt.yaml': adopt.replace('ACCEPT 1', 'ACCEPT 1 edited') });
    const remade = await cli('plan', '-C', held, '--target', 'rule/Adopt NDA/r1');
    expect(remade.stdout).toContain('+ create rule "Adopt NDA/r2"');
    expect(remade.stdout).toContain('playbook "Adopt NDA" is made again (removed live) with all its declared rules, as a plan without --target makes it, the targets naming only some of them');
    // Drift reports what the targets name, and makes nothing (second read SR82-5).
    expect((await cli('drift', '-C', held, '--target', 'rule/Adopt NDA/r1')).stdout).not.toContain('Adopt NDA/r2');
    await applyOk(cli, held, '--target', 'rule/Adopt NDA/r1');
    expect(liveRules('Adopt NDA').map((r) => r.name).sort()).toEqual(['r1', 'r2']);
    await expectNoChanges(cli, held);

    // Renamed in the files, the rename left out by --target: the playbook still has the name it had
    // when the plan was made, and the rule goes in, saved or asked (probe PS-1).
    const cut = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA.replace('Inbound NDA', 'Cut NDA') });
    await applyOk(cli, cut);
    await writeFiles(cut, { 'playbooks/nda.yaml': `${NDA.replace('Inbound NDA', 'Cut NDA 2\nrenamed_from: [Cut NDA]')}  - name: Venue\n    actions: ACCEPT Delaware\n` });
    expect((await cli('plan', '-C', cut, '--target', 'rule/Cut NDA 2/Venue', '--out', planFile)).code).toBe(0);
    const targeted = await cli('apply', '-C', cut, planFile);
    expect([targeted.code, targeted.stderr]).toEqual([0, '']);
    expect(liveRules('Cut NDA').map((r) => r.name)).toContain('Venue');
    await applyOk(cli, cut);
    await expectNoChanges(cli, cut);
  });
});

describe('failures and retries', () => {
  /**
   * An apply of `dir` whose invitation of race@acme.example the service holds while another apply's
   * is made (after docket has read the invitations): the service then refuses docket's. Its result,
   * and the user the other one made.
   */
  async function applyRacingAnInvitation(dir: string) {
    t.emulator.faults.add({ method: 'POST', path_pattern: '/invitations', status: 'late', delay_ms: 400, count: 1 });
    const apply = cli('apply', '-C', dir, '--auto-approve');
    const org = t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
    const deadline = Date.now() + 10_000;
    while (!t.emulator.requests().some((r) => r.method === 'GET' && r.path.endsWith('/invitations')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    const user = t.emulator.store.addMember(org, 'race@acme.example', null, 'member');
    org.invitations['inv-race'] = { id: 'inv-race', email: 'race@acme.example', name: null, invited_by_email: null, user_id: user.id, created_at: t.emulator.store.timestamp() };
    return { done: await apply, org, user };
  }

  it('a create that yields to an object renamed to its name meanwhile fails, saying the name may be held by neither, and the next apply converges (probe TA-2)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/a.yaml': 'kind: Playbook\nname: Contested\nrules: []\n' });
    await applyOk(cli, dir);
    const org = t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!;
    const contested = Object.values(org.playbooks).find((p) => p.name === 'Contested')!;
    await writeFiles(dir, { 'playbooks/b.yaml': 'kind: Playbook\nname: Contested2\ndescription: from here\nrules: []\n' });
    // Another checkout renames Contested to Contested2 while this apply's create of it is on its way.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 'late', delay_ms: 400, count: 1 });
    const seen = t.emulator.requests().length;
    const apply = cli('apply', '-C', dir, '--auto-approve');
    const deadline = Date.now() + 10_000;
    while (!t.emulator.requests().slice(seen).some((r) => r.method === 'GET' && r.path.endsWith('/playbooks')) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    contested.name = 'Contested2';
    const done = await apply;
    expect(done.code).toBe(1);
    expect(done.stdout).toContain(`another object (id ${contested.id}), live under another name when the plan was read, was renamed to this name at the same time`);
    expect(done.stdout).toContain('so the name may now be held by neither');
    // What the create wrote went with the copy it set aside: not said to be live (second read SR92-7).
    expect(done.stdout).not.toContain('live already:');
    await applyOk(cli, dir);
    expect(Object.values(org.playbooks).filter((p) => p.archived_at === null && p.name.startsWith('Contested')).map((p) => p.name).sort()).toEqual(['Contested', 'Contested2']);
    await expectNoChanges(cli, dir);
  });

  it('without a users list, an invitation another apply sent since the plan counts as done, as the invitations list shows it', async () => {
    await t.emulator.close();
    t = await startTestEmulator({ variants: { reviewUsers: false } });
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'members.yaml': 'kind: Member\nemail: race@acme.example\n', 'playbooks/p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT\n    reviewer: race@acme.example\n' });
    const { done, org, user } = await applyRacingAnInvitation(dir);
    expect([done.code, done.stderr]).toEqual([0, '']);
    expect(done.stdout).toContain('already a member (invited since the plan, by another apply or by hand)');
    expect(Object.values(org.invitations).filter((i) => i.email === 'race@acme.example')).toHaveLength(1);
    const p = Object.values(org.playbooks).find((x) => x.name === 'P')!;
    expect(Object.values(org.rules).filter((r) => r.playbook_id === p.id).map((r) => r.reviewer_id)).toEqual([user.id]);
    await expectNoChanges(cli, dir);

    // Where invitations name no user either: done too, and said that nothing can name the member yet.
    await t.emulator.close();
    t = await startTestEmulator({ variants: { reviewUsers: false, invitationUser: false } });
    const bare = await makeDir({ 'docket.yaml': DOCKET_YAML, 'members.yaml': 'kind: Member\nemail: race@acme.example\n' });
    const second = await applyRacingAnInvitation(bare);
    expect([second.done.code, second.done.stderr]).toEqual([0, '']);
    expect(second.done.stdout).toContain('already invited (since the plan, by another apply or by hand)');
    await expectNoChanges(cli, bare);
  });

  it('a plan cut to --target member/… leaves the references of what it does not send to the plans that send them: the actor a new member will be (probe KE-3)', async () => {
    const dir = await makeDir({
      'docket.yaml': 'version: 1\nagreements:\n  actor: newbie@acme.example\n',
      'members.yaml': 'kind: Member\nemail: newbie@acme.example\n',
      'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: nobody@acme.example\n',
      'custom-terms/t.yaml': 'kind: CustomTerm\nname: T\nbody: hello\n',
    });
    const cut = await cli('plan', '-C', dir, '--target', 'member/newbie@acme.example');
    expect([cut.code, cut.stderr]).toEqual([0, '']);
    expect(cut.stdout).toContain('+ invite member "newbie@acme.example"');
    const whole = await cli('plan', '-C', dir);
    expect(whole.code).toBe(1);
    expect(whole.stderr).toContain('organization.yaml:3:21 error unknown-reference `review.default_reviewer` names "nobody@acme.example"');
    // The actor, a declared Member not invited yet: the hint names that first step (probe KV-4).
    // As this run was made, the target as a shell reads it back (probe PS-3).
    expect(whole.stderr).toContain(`hint: it is declared as a Member not invited yet: run \`docket apply -C ${relative(process.cwd(), dir)} --target member/newbie@acme.example\` first, then plan again`);
    await writeFiles(dir, { 'docket.yaml': "version: 1\nagreements:\n  actor: \"o'neil@acme.example\"\n", 'members.yaml': "kind: Member\nemail: \"o'neil@acme.example\"\n" });
    expect((await cli('plan', '-C', dir)).stderr).toContain(`run \`docket apply -C ${relative(process.cwd(), dir)} --target 'member/o'\\''neil@acme.example'\` first`);
    // Drift says it as a warning, the command shaped the same (second read SR82-3).
    expect((await cli('drift', '-C', dir)).stderr).toContain(`run \`docket apply -C ${relative(process.cwd(), dir)} --target 'member/o'\\''neil@acme.example'\` first`);
    await writeFiles(dir, { 'docket.yaml': 'version: 1\nagreements:\n  actor: newbie@acme.example\n', 'members.yaml': 'kind: Member\nemail: newbie@acme.example\n' });
    // A target whose change sends the reference still refuses it.
    expect((await cli('plan', '-C', dir, '--target', 'organization')).stderr).toContain('error unknown-reference `review.default_reviewer`');
  });

  it('a refused invitation hints at pinning the member only where the service has no users list to say who is one', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'members.yaml': 'kind: Member\nemail: new@acme.example\n' });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/invitations', status: 422, count: 1 });
    const listed = await cli('apply', '-C', dir, '--auto-approve');
    expect(listed.code).toBe(1);
    expect(listed.stdout).toContain('✗ invite member "new@acme.example"');
    expect(listed.stdout).not.toContain('docket could not see');
    await t.emulator.close();
    t = await startTestEmulator({ variants: { reviewUsers: false } });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/invitations', status: 422, count: 1 });
    const unlisted = await cli('apply', '-C', dir, '--auto-approve');
    expect(unlisted.stdout).toContain('if new@acme.example is already a member that docket could not see, add `id:');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('two users the users list shows under one e-mail in letters of another case are two people: a file naming that e-mail is refused, not given either one (probe PT-1)', async () => {
    // A service that keeps e-mails as written (the emulator folds case, so the second is put in by hand).
    const alice = t.emulator.store.userByEmail('alice@acme.example')!;
    const twin = { ...alice, id: '0b0b0b0b-0000-4000-8000-00000000a11c', email: 'Alice@acme.example' };
    t.emulator.store.state.users[twin.id] = twin;
    org().members.push({ user_id: twin.id, role: 'member', created_at: alice.created_at });
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/msa.yaml': MSA });
    const named = await cli('plan', '-C', dir);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('`reviewer` names "alice@acme.example", which 2 live member objects hold; docket cannot tell which one is meant');
    expect(named.stderr).toContain('hint: remove the one not wanted from the organization in the app, or declare the one meant (`kind: Member`) pinned with `id:` (');
    expect(named.stderr).toContain(twin.id);
    expect(named.stderr).toContain(alice.id);
    // Drift and pull, which send nothing, say it as a warning: a scheduled drift job must not read it as none (probe ZD-3).
    const drift = await cli('drift', '-C', dir);
    expect(drift.stderr).toContain('Warning: `reviewer` names "alice@acme.example", which 2 live member objects hold; docket cannot tell which one is meant (playbooks/msa.yaml:6)');
    expect(drift.stderr).toContain('plan and apply refuse it');
    // Declared, it is the member's own identity that is ambiguous; pinned, the pin says which.
    await writeFiles(dir, { 'members.yaml': 'kind: Member\nemail: alice@acme.example\n' });
    expect((await cli('plan', '-C', dir)).stderr).toContain('2 live member objects are named "alice@acme.example"; docket cannot tell which one the file means');
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: alice@acme.example\nid: ${twin.id}\n`, 'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: alice@acme.example\n' });
    await applyOk(cli, dir);
    const cap = () => liveRules('Vendor MSA').find((r) => r.name === 'Liability cap')!;
    expect([cap().reviewer_id, org().default_reviewer_id]).toEqual([twin.id, twin.id]);
    await expectNoChanges(cli, dir);
    // Switched in the app to the other user of that e-mail: the same e-mail, another person, whom the pin
    // says the files do not mean; the plan sets both back (probe BE-1).
    cap().reviewer_id = alice.id;
    org().default_reviewer_id = alice.id;
    const switched = await cli('plan', '-C', dir);
    expect(switched.stdout).toContain(`reviewer: "${alice.id}" → "alice@acme.example"`);
    expect(switched.stdout).toContain(`review.default_reviewer: "${alice.id}" → "alice@acme.example"`);
    await applyOk(cli, dir);
    expect([cap().reviewer_id, org().default_reviewer_id]).toEqual([twin.id, twin.id]);
    await expectNoChanges(cli, dir);
    // Exported, they are one document (two would be refused as declared twice), said with both ids (second read SR83-1).
    const out = join(await makeDir({}), 'export');
    const exported = await cli('export', '-C', dir, '--out', out, '--kind', 'member');
    expect(exported.code).toBe(0);
    expect(exported.stdout).toContain(`are all "alice@acme.example" to docket: plan will refuse the one document written for them until it pins the one meant with \`id:\``);
    expect((await readFile(join(out, 'members.yaml'), 'utf8')).match(/email: alice@acme\.example/g)).toHaveLength(1);
  });
  it('a plan cut to --target says of a rule the files seem to have renamed what it does in that playbook: deletes it, creates beside it, or both (probe BG-2, second read SR100-3)', async () => {
    const playbook = (name: string, rule: string) => `kind: Playbook\nname: ${name}\nrules:\n  - name: ${rule}\n    actions: ACCEPT a term of up to three years\n`;
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/p1.yaml': playbook('P1', 'Term'), 'playbooks/p2.yaml': playbook('P2', 'Term') });
    await applyOk(cli, dir);
    // Renamed in both playbooks without renamed_from: each would delete its Term and make a new rule.
    await writeFiles(dir, { 'playbooks/p1.yaml': playbook('P1', 'Term of agreement'), 'playbooks/p2.yaml': playbook('P2', 'Term of agreement') });
    const hints = async (...targets: string[]) => (await cli('plan', '-C', dir, ...targets.flatMap((t) => ['--target', t]))).stdout.split('\n').filter((l) => l.includes('looks like a rename'));
    const said = (file: string, then: string) => `Warning: rule "Term of agreement" (playbooks/${file}:4) looks like a rename of the live rule "Term" (the same content), but the plan ${then}: if it was renamed, add \`renamed_from: [Term]\``;
    expect(await hints('playbook/P2')).toEqual([said('p2.yaml', 'deletes "Term" and creates "Term of agreement"')]);
    expect(await hints('rule/P1/Term')).toEqual([said('p1.yaml', 'deletes "Term" (creating "Term of agreement" is outside its targets)')]);
    expect(await hints('rule/P2/Term of agreement')).toEqual([said('p2.yaml', 'creates "Term of agreement" beside it')]);
    // P1 read for another rule's change, neither of its Term changes sent: its hint is not this plan's,
    // and P2's delete is not said of P1's rule of the same name.
    await writeFiles(dir, { 'playbooks/p1.yaml': `${playbook('P1', 'Term of agreement')}  - name: Other\n    actions: ACCEPT\n` });
    expect(await hints('rule/P1/Other', 'rule/P2/Term')).toEqual([said('p2.yaml', 'deletes "Term" (creating "Term of agreement" is outside its targets)')]);
    await writeFiles(dir, { 'playbooks/p1.yaml': playbook('P1', 'Term'), 'playbooks/p2.yaml': playbook('P2', 'Term') });
    await expectNoChanges(cli, dir);
  });

  it('without a users list, whoever sent an invitation is a member: declared, not invited again (a 422 every apply), and named, said as one whose id is unknown (probe PZ-1)', async () => {
    await t.emulator.close();
    t = await startTestEmulator({ variants: { reviewUsers: false } });
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'members.yaml': 'kind: Member\nemail: new@acme.example\n' });
    await applyOk(cli, dir);
    const inviter = Object.values(org().invitations)[0]!.invited_by_email!;
    await writeFiles(dir, { 'members.yaml': `kind: Member\nemail: new@acme.example\n---\nkind: Member\nemail: ${inviter}\n` });
    await expectNoChanges(cli, dir);
    await writeFiles(dir, { 'playbooks/msa.yaml': MSA.replace('reviewer: alice@acme.example', `reviewer: ${inviter}`) });
    const named = await cli('plan', '-C', dir);
    expect(named.code).toBe(1);
    expect(named.stderr).toContain(`\`reviewer\` names "${inviter}", who is a member (the invitations name them as the one who sent them), but the review service does not say the user's id`);
    // New members are still invited as ones whose ids the invitations give (they do here).
    await writeFiles(dir, { 'playbooks/msa.yaml': MSA.replace('reviewer: alice@acme.example', 'reviewer: newer@acme.example'), 'more.yaml': 'kind: Member\nemail: newer@acme.example\n' });
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('retries through injected 429s and 5xx responses and converges', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 429, count: 2, retry_after: 0 });
    t.emulator.faults.add({ method: 'GET', path_pattern: '/users', status: 503, count: 1 });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbook_rules', status: 502, count: 1 });
    // -v says why a request was retried, with the request id the service gave.
    const verbose = await cli('plan', '-C', dir, '-v');
    expect(verbose.stderr).toMatch(/GET \S*\/users\S* → 200 in \d+ ms after 1 retry \(HTTP 503 \(request [0-9a-f-]{36}\)\)/);
    await applyOk(cli, dir);
    expect(t.emulator.stats().faults_injected).toBe(4);
    expect(liveRules('Inbound NDA')).toHaveLength(2);
    expect(liveRules('Vendor MSA')).toHaveLength(2);
    await expectNoChanges(cli, dir);
  });

  it('a create the service answered 500, whose read then failed, is left to the next plan, which creates it once: no landing mark holds it back (probe PW-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbook_rules', status: 500, count: 1 });
    // Refused at once (a 400 is not tried again), so the read fails without minutes of backoff.
    t.emulator.faults.add({ method: 'GET', path_pattern: '/playbook_rules', status: 400, count: 1 });
    const failed = await cli('apply', '-C', dir, '--auto-approve', '--concurrency', '1');
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('the service may have carried it out, and the next plan shows whether it did');
    expect(failed.stdout).not.toContain('still be carrying it out');
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('"landing"');
    t.emulator.faults.clear();
    const plan = await cli('plan', '-C', dir);
    expect([plan.code, plan.stderr]).toEqual([0, '']);
    await applyOk(cli, dir);
    expect(liveRules('Inbound NDA').map((r) => r.name).sort()).toEqual(['Residuals', 'Term']);
    await expectNoChanges(cli, dir);
  });

  it('does not duplicate a create whose connection dropped after the write', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 'drop', count: 1 });
    await applyOk(cli, dir);
    expect(t.emulator.store.activePlaybooks(org()).filter((p) => p.name === 'Inbound NDA')).toHaveLength(1);
    await expectNoChanges(cli, dir);
  });

  it('counts a delete and an archive whose answers were lost as done when the retry finds them gone', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace(/  - name: Residuals\n.*\n/, '') });
    await writeFile(join(dir, 'playbooks/msa.yaml'), '# no longer managed here\n');
    t.emulator.faults.add({ method: 'DELETE', status: 'drop', count: 2 });
    const apply = await applyOk(cli, dir, '--prune');
    expect(apply.stdout).toContain('Apply complete: 2 done.');
    expect(liveRules('Inbound NDA').map((r) => r.name)).toEqual(['Term']);
    expect(livePlaybook('Vendor MSA')).toBeUndefined();
    await expectNoChanges(cli, dir, '--prune');
  });

  it('tries a read again after a 500, and looks a create up before repeating it', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    t.emulator.faults.add({ method: 'GET', path_pattern: '/playbooks', status: 500, count: 1 });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 500, count: 1 });
    await applyOk(cli, dir);
    expect(t.emulator.store.activePlaybooks(org()).filter((p) => p.name === 'Inbound NDA')).toHaveLength(1);
    await expectNoChanges(cli, dir);
  });

  it('says what an error body in each documented shape says, as the emulator answers it with a fault\'s body (probe DN)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const refusedWith = async (body: unknown): Promise<string> => {
      t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 422, count: 1, body });
      const run = await cli('apply', '-C', dir, '--auto-approve');
      expect(run.code).toBe(1);
      return run.stdout;
    };
    // A JSON:API pointer named as the other shapes name the field (probe NA-1).
    expect(await refusedWith({ errors: [{ source: { pointer: '/data/attributes/name' }, detail: 'has already been taken' }] })).toContain('(name: has already been taken)');
    expect(await refusedWith({ errors: [{ source: { pointer: '/data/attributes/template_csa_attributes/provider' }, detail: 'is too long' }] })).toContain('(template_csa_attributes.provider: is too long)');
    expect(await refusedWith({ errors: { name: ["can't be blank"] } })).toContain("name: can't be blank");
    const messaged = await refusedWith({ message: 'names must be unique', request_id: 'req-42' });
    expect(messaged).toContain('names must be unique');
    expect(messaged).toContain('req-42');
    // An HTML page: the status alone, neither the page nor the emulator's own problem document.
    const html = await refusedWith('<html><body>Bad gateway</body></html>');
    expect(html).toContain('failed with HTTP 422');
    expect(html).not.toMatch(/<html>|injected fault/);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('skips what depends on a failed operation, finishes the rest, and a re-run converges', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    // The first playbook create is refused, finally (a 422 is not tried again; one at a time).
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 422, count: 1 });
    const first = await cli('apply', '-C', dir, '--auto-approve', '--concurrency', '1');
    expect(first.code).toBe(1);
    expect(first.stdout).toContain('Apply finished with errors: 3 done, 1 failed, 2 skipped.');
    expect(first.stderr).toContain('1 operation failed, 2 skipped');
    expect(first.stderr).toMatch(/fix what each failure above names, then run docket apply -C \S+ again: it converges/);
    expect(t.emulator.store.activePlaybooks(org())).toHaveLength(1);

    const second = await cli('apply', '-C', dir, '--auto-approve');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('Apply complete: 3 done.');
    await expectNoChanges(cli, dir);
  });

  it('refuses a saved plan that renames onto a name someone has since given another playbook, and changes nothing', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('name: Inbound NDA', 'name: NDA Inbound\nrenamed_from: Inbound NDA') });
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    const at = '2026-11-28T00:00:00.000Z';
    const id = t.emulator.store.newId();
    org().playbooks[id] = { id, name: 'NDA Inbound', description: null, archived_at: null, created_at: at, updated_at: at };
    const stale = await cli('apply', '-C', dir, planFile);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('playbook "NDA Inbound" now exists live, so renaming "Inbound NDA" to it would duplicate it');
    expect(t.emulator.store.activePlaybooks(org()).map((p) => p.name).sort()).toEqual(['Inbound NDA', 'NDA Inbound']);
    // A new plan takes the playbook of that name for the file's.
    await applyOk(cli, dir);
    expect(t.emulator.store.activePlaybooks(org()).filter((p) => p.name === 'NDA Inbound')).toHaveLength(1);
    await expectNoChanges(cli, dir);
  });

  it('after a saved plan fails part-way, says to make a new plan: the same file is stale once part of it ran', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 422, count: 1 });
    const first = await cli('apply', '-C', dir, planFile, '--concurrency', '1');
    expect(first.code).toBe(1);
    // The plan to make is for the same folder (second read).
    expect(first.stderr).toContain(`fix what each failure above names, then make a new plan (docket plan -C ${dir} --out ${planFile}) and apply that one: it converges`);
    expect((await cli('apply', '-C', dir, planFile)).code).toBe(1);
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    expect((await cli('apply', '-C', dir, planFile)).code).toBe(0);
    await expectNoChanges(cli, dir);
  });

  it('after a saved plan whose only change failed, says to apply it again when the service surely did nothing, and to make a new plan when its answer was lost (probe IE-3)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('What is the term?', 'What is the term (IE-3)?') });
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    // Refused outright: nothing changed, the saved plan still holds.
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 422, count: 1 });
    const refused = await cli('apply', '-C', dir, planFile);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`fix what each failure above names, then apply the saved plan again (docket apply -C ${dir} ${planFile})`);
    // Carried out, but every answer lost: the plan is stale, as applying it again would show. (Its
    // retries' waits cut short by a time budget: the answer is as lost, and the suite 10 s shorter.)
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 'drop', count: 20 });
    const lost = await cli('apply', '-C', dir, planFile, '--timeout', '2s');
    expect(lost.code).toBe(1);
    expect(lost.stdout).toContain('the service may have carried it out');
    expect(lost.stderr).toContain(`fix what each failure above names, then make a new plan (docket plan -C ${dir} --out ${planFile}) and apply that one: it converges`);
    expect(lost.stderr).not.toContain('apply the saved plan again');
    t.emulator.faults.clear();
    expect(liveRules('Inbound NDA').find((r) => r.name === 'Term')?.questions).toBe('What is the term (IE-3)?');
    await expectNoChanges(cli, dir);
    // Its object gone live (a 404: deleted in the app meanwhile): the saved plan is stale, so a new plan (probe AJ-1).
    await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('What is the term?', 'What is the term (AJ-1)?') });
    expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
    t.emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 404, count: 1 });
    const gone = await cli('apply', '-C', dir, planFile);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain(`then make a new plan (docket plan -C ${dir} --out ${planFile}) and apply that one`);
    t.emulator.faults.clear();
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});

describe('approval', () => {
  it('needs --auto-approve without a terminal and changes nothing', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const result = await cli('apply', '-C', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('--auto-approve');
    expect(livePlaybook('Inbound NDA')).toBeUndefined();
  });

  it('applies after `yes` at the prompt and cancels on anything else', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const no = await runCli(['apply', '-C', dir], { env: t.env, answer: 'y' });
    expect(no.code).toBe(1);
    expect(no.stderr).toContain('cancelled');
    expect(livePlaybook('Inbound NDA')).toBeUndefined();
    const yes = await runCli(['apply', '-C', dir], { env: t.env, answer: 'yes' });
    expect(yes.code).toBe(0);
    expect(livePlaybook('Inbound NDA')).toBeDefined();
    await expectNoChanges(cli, dir);
  });

  it('refuses, changing nothing, when live changed while the plan waited for `yes`: the app\'s edit is not overwritten unseen', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/nda.yaml'), NDA.replace('How long the agreement lasts', 'Edited in the files'));
    const app = new App(t.env);
    // --force changes what an apply does (past the delete guard): the command to run again keeps it (probe DQ).
    const edited = await runCli(['apply', '-C', dir, '--force'], { env: t.env, answer: 'yes', whileAsked: () => app.editRule('Inbound NDA', 'Term', { description: 'Edited in the app meanwhile' }) });
    expect(edited.code).toBe(1);
    expect(edited.stderr).toContain('the plan changed live while it waited for your yes; nothing was changed:\n  - rule "Inbound NDA/Term" changed live since the plan');
    expect(edited.stderr).toContain(`run \`docket apply -C ${dir} --force\` again`);
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('changed live and in files');
    // Applied now, with the app's edit in view, it converges.
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});

describe('logs and secrets', () => {
  it('logs each request with -v and never prints the API key', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const result = await cli('plan', '-C', dir, '-v');
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(/review GET \/v1\/organizations\/[0-9a-f-]+\/playbooks\S* → 200 in \d+ ms/);
    expect(result.stdout + result.stderr).not.toContain(t.env.DOCKET_API_KEY);
  });

  it('explains a rejected API key without printing it', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const result = await runCli(['plan', '-C', dir], { env: { ...t.env, DOCKET_API_KEY: 'zpka_wrong_key_123' } });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('401');
    // The variable the key came from (the review service's own is unset).
    expect(result.stderr).toContain('hint: check DOCKET_API_KEY: the review service did not accept the API key');
    expect(result.stderr).not.toContain('zpka_wrong_key_123');
  });
});
