/**
 * Drift policies (`drift: adopt | revert | ignore`, `ignore_fields`) as plan, drift, pull and apply
 * see them, and a playbook removed in the app leaving its multi-document file.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { App } from '../../helpers/app.js';
import { applyOk, emulatorForFile, expectNoChanges } from '../../helpers/scenario.js';
import { makeDir } from '../../helpers/tmpdir.js';

const { emulator, cli } = emulatorForFile();

const NDA = `kind: Playbook
name: NDA
drift: adopt            # reviewers tune these rules; we pull their edits
ignore_fields: [internal_notes]
rules:
  - name: Adopted
    actions: ACCEPT
    internal_notes: ours
  - name: Reverted
    drift: revert
    actions: ACCEPT
  - name: Ignored
    drift: ignore
    actions: ACCEPT
`;

const TWO = `kind: Playbook
name: Kept
---
# archived in the app
kind: Playbook
name: Retired
description: Old work
`;

describe('drift policies', () => {
  it('are checked offline, at their line', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\ndrift: keep\nrules:\n  - name: Term\n    actions: X\n    ignore_fields: [name]\n' });
    const result = await cli('validate', '-C', dir);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/playbooks\/nda\.yaml:3:8 error \S+ .*drift/);
    expect(result.stderr).toMatch(/playbooks\/nda\.yaml:7:\d+ error \S+ .*ignore_fields/);
  });

  it('adopt and ignore keep live edits out of the plan; drift reports them; pull adopts the adopt ones; apply reverts the rest', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': NDA, 'playbooks/two.yaml': TWO });
    // One at a time: rules are created in name order, which is then their live order.
    await applyOk(cli, dir, '--concurrency', '1');
    const app = new App(emulator().env);
    await app.editRule('NDA', 'Adopted', { actions: 'ACCEPT with care', internal_notes: 'theirs' });
    await app.editRule('NDA', 'Reverted', { actions: 'REJECT' });
    await app.editRule('NDA', 'Ignored', { actions: 'REJECT' });
    // Its notes are the app's: `ignore_fields` keeps them out of the files (probe GB).
    await app.createRule('NDA', { name: 'Made live', actions: 'FLAG', internal_notes: 'Sales promised an exception' });
    await app.archivePlaybook('Retired');

    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update rule "NDA/Reverted" (playbooks/nda.yaml:11) · changed live\n      actions: "REJECT" → "ACCEPT"');
    expect(plan.stdout).toContain('+ create playbook "Retired" (playbooks/two.yaml:5) · removed live');
    expect(plan.stdout).toContain('Live changes the drift policy leaves alone (3):');
    expect(plan.stdout).toContain('~ update rule "NDA/Adopted" (playbooks/nda.yaml:7) · changed live · drift: adopt');
    expect(plan.stdout).toContain('~ update rule "NDA/Ignored" (playbooks/nda.yaml:14) · changed live · drift: ignore (left alone)');
    expect(plan.stdout).not.toContain('internal_notes');

    const drift = await cli('drift', '-C', dir, '-o', 'json');
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout) as { drift: { key: string; direction: string; policy?: string }[]; ignored: { key: string }[]; summary: { by_direction: Record<string, number> } };
    // `drift: revert` written out is said (pull leaves it), the default is not (probe GB).
    expect(report.drift.map((d) => [d.key, d.direction, d.policy ?? 'default'])).toEqual([
      ['Retired', 'removed-live', 'default'],
      ['NDA/Reverted', 'changed-live', 'revert'],
      ['NDA/Adopted', 'changed-live', 'adopt'],
      ['NDA/Made live', 'only-live', 'adopt'],
    ]);
    expect(report.ignored.map((d) => d.key)).toEqual(['NDA/Ignored']);
    expect(report.summary.by_direction).toEqual({ 'removed-live': 1, 'changed-live': 2, 'only-live': 1 });

    const pulled = await cli('pull', '-C', dir, '-o', 'json');
    expect(pulled.code).toBe(0);
    const result = JSON.parse(pulled.stdout) as { pulled: { key: string }[]; not_pulled: { key: string; reason: string }[]; files: { path: string; change: string }[] };
    expect(result.pulled.map((p) => p.key)).toEqual(['Retired', 'NDA/Adopted', 'NDA/Made live']);
    expect(result.not_pulled.map((p) => [p.key, p.reason])).toEqual([
      ['NDA/Ignored', 'drift: ignore leaves it as it is on both sides'],
      // The apply to run as this pull ran (probe CJ-4).
      ['NDA/Reverted', `drift: revert: \`docket apply -C ${dir}\` puts the files’ value back`],
    ]);
    expect(result.files.map((f) => [f.path, f.change])).toEqual([['playbooks/nda.yaml', 'modified'], ['playbooks/two.yaml', 'modified']]);
    // Live, the new rule comes after Reverted (rules are created in name order, then it): so in the file.
    expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(
      NDA.replace('    actions: ACCEPT\n    internal_notes: ours\n', '    actions: ACCEPT with care\n    internal_notes: ours\n').replace('  - name: Ignored\n', '  - name: Made live\n    actions: FLAG\n  - name: Ignored\n'),
    );
    expect(await readFile(join(dir, 'playbooks/two.yaml'), 'utf8')).toBe('kind: Playbook\nname: Kept\n');
    // Nor in its sync record, as for a rule an apply made.
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).toMatch(/"rule:NDA\/Made live": "[^"]* actions=[^"]*"/);
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toMatch(/"rule:NDA\/Made live": "[^"]*internal_notes=/);

    // apply reverts what is not adopted; what is ignored stays as it is live.
    await applyOk(cli, dir);
    const after = await expectNoChanges(cli, dir);
    expect(after.stdout).toContain('~ update rule "NDA/Ignored" (playbooks/nda.yaml:16) · changed live · drift: ignore (left alone)');
    // An apply with nothing to do, told not to print its plan, does not say live matches whole either.
    const quiet = await cli('apply', '-C', dir, '--auto-approve', '-q');
    expect(quiet.stdout).toContain('No changes. The live services match the configuration, except for 1 live change a drift policy leaves alone (`docket plan` lists them).');
    expect((await cli('drift', '-C', dir)).code).toBe(0);
  });

  it('drift does not send the user to pull when all the drift is under drift: revert, which pull leaves (probe GB)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': 'kind: Playbook\nname: Reverting\nrules:\n  - name: Term\n    actions: ACCEPT 3 years\n    drift: revert\n' });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Reverting', 'Term', { actions: 'ACCEPT 5 years' });
    const drift = await cli('drift', '-C', dir, '--target', 'playbook/Reverting');
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('~ rule "Reverting/Term" (playbooks/p.yaml:5): actions');
    expect(drift.stdout).toContain('· drift: revert');
    expect(drift.stdout).toContain(`Drift: 1 object (1 changed live). \`docket pull -C ${dir}\` leaves it; \`docket apply -C ${dir}\` reverts`);
    const markdown = (await cli('drift', '-C', dir, '--target', 'playbook/Reverting', '-o', 'markdown')).stdout;
    expect(markdown).not.toContain(`Run \`docket pull -C ${dir}\``);
    expect(markdown).toContain(`\`docket pull -C ${dir}\` leaves it; run \`docket apply -C ${dir}\` to revert it.`);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    // Moved in the app (renamed, a new one made under its name): still under the policy of what it was (second read).
    const app = new App(emulator().env);
    await app.editRule('Reverting', 'Term', { name: 'Term old' });
    await app.createRule('Reverting', { name: 'Term', actions: 'ACCEPT 3 years' });
    const moved = await cli('drift', '-C', dir, '--target', 'playbook/Reverting');
    expect(moved.stdout).toMatch(/rule "Reverting\/Term old"[^\n]*· drift: revert/);
    expect(moved.stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
  });

  it('a rule under drift: revert deleted in the app is not pulled, said as made again by apply, not as fields given back (probe EI-6)', async () => {
    const file = 'kind: Playbook\nname: Revert Gone\nrules:\n  - name: Law\n    drift: revert\n    actions: ACCEPT Delaware\n  - name: Term\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).deleteRule('Revert Gone', 'Law');
    const pulled = await cli('pull', '-C', dir, '--dry-run', '-o', 'json', '--target', 'playbook/Revert Gone');
    const result = JSON.parse(pulled.stdout) as { not_pulled: { key: string; fields: string[]; reason: string }[] };
    expect(result.not_pulled.map((p) => [p.key, p.fields, p.reason])).toEqual([['Revert Gone/Law', [], `drift: revert: \`docket apply -C ${dir}\` makes it again`]]);
    await applyOk(cli, dir);
    expect((await cli('plan', '-C', dir, '--target', 'playbook/Revert Gone', '--detailed-exitcode')).code).toBe(0);
  });

  it('under drift: ignore, a field both sides changed is said to be the files to apply, not left as it is (probe GB)', async () => {
    const file = 'kind: Playbook\nname: Both Sides\ndrift: ignore\nrules:\n  - name: Term\n    actions: ACCEPT 3 years\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Both Sides', 'Term', { actions: 'ACCEPT 5 years' });
    await writeFile(join(dir, 'playbooks/p.yaml'), file.replace('3 years', '4 years'));
    const pulled = await cli('pull', '-C', dir, '--dry-run', '-o', 'json', '--target', 'playbook/Both Sides');
    const result = JSON.parse(pulled.stdout) as { not_pulled: { key: string; fields: string[]; reason: string }[] };
    expect(result.not_pulled.map((p) => [p.key, p.fields, p.reason])).toEqual([
      ['Both Sides/Term', ['actions'], `changed live and in the files since the last sync: \`docket apply -C ${dir}\` puts the files’ value over the live edit (a drift policy covers only what changed live alone)`],
    ]);
    // As apply does.
    await applyOk(cli, dir);
    expect((await cli('plan', '-C', dir, '--target', 'playbook/Both Sides', '--detailed-exitcode')).code).toBe(0);
  });

  it('an apply does not record in sync an object made in the app whose difference a policy holds: it never matched, so the next plan does not call it changed live (probe JD-3)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/z.yaml': 'kind: Playbook\nname: Zeta JD\ndescription: files text\ndrift: ignore\nrules: []\n' });
    await new App(emulator().env).createPlaybook({ name: 'Zeta JD', description: 'app text' });
    const line = async (): Promise<string> => (await cli('plan', '-C', dir, '--target', 'playbook/Zeta JD')).stdout.split('\n').find((l) => l.includes('playbook "Zeta JD"')) ?? '';
    const before = await line();
    expect(before).toContain('drift: ignore');
    await applyOk(cli, dir);
    const after = await line();
    expect(after).not.toContain('changed live');
    expect(after).toBe(before);
 
    // One in sync before, renamed in the files since (its record under the former name): still recorded,
    // so its held edit in the app is still said to be the app's (fourth read RV4-1).
    const synced = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/a.yaml': 'kind: Playbook\nname: Alpha RV\ndescription: files text\ndrift: ignore\nrules: []\n' });
    await applyOk(cli, synced);
    await new App(emulator().env).editPlaybook('Alpha RV', { description: 'app text' });
    await writeFile(join(synced, 'playbooks/a.yaml'), 'kind: Playbook\nname: Beta RV\nrenamed_from: [Alpha RV]\ndescription: files text\ndrift: ignore\nrules: []\n');
    await applyOk(cli, synced);
    const renamed = (await cli('plan', '-C', synced, '--target', 'playbook/Beta RV')).stdout;
    expect(renamed).toMatch(/playbook "Beta RV"[^\n]*changed live/);
  });

  it('a saved plan made stale by a changed drift policy says the configuration changed, not that the object changed live (probe GB)', async () => {
    const file = 'kind: Playbook\nname: Policy Flip\ndrift: revert\nrules:\n  - name: Term\n    actions: ACCEPT 3 years\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Policy Flip', 'Term', { actions: 'ACCEPT 5 years' });
    const planFile = join(dir, 'plan.json');
    expect((await cli('plan', '-C', dir, '--target', 'playbook/Policy Flip', '--out', planFile)).code).toBe(0);
    await writeFile(join(dir, 'playbooks/p.yaml'), file.replace('drift: revert', 'drift: adopt'));
    const stale = await cli('apply', '-C', dir, planFile);
    expect(stale.code).toBe(1);
    expect(stale.stderr).toContain('the configuration changed since the plan was made');
    expect(stale.stderr).not.toContain('changed live since the plan');
    // Put back, the same plan applies: nothing had changed live.
    await writeFile(join(dir, 'playbooks/p.yaml'), file);
    expect((await cli('apply', '-C', dir, planFile)).code).toBe(0);
  });

  it('a playbook archived in the app stays in the files when a rule of it keeps a revert or ignore policy: pull would have taken that rule with it (probe GB), and apply makes it again, under drift: adopt too (probe HE)', async () => {
    for (const [policy, own] of [['revert', ''], ['ignore', ''], ['revert', 'drift: adopt\n'], ['ignore', 'drift: adopt\n']] as const) {
      const file = `kind: Playbook\nname: Eps ${policy}\n${own}rules:\n  - name: E1\n    actions: FLAG e1\n  - name: E2\n    actions: FLAG e2\n    drift: ${policy}\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file });
      await applyOk(cli, dir);
      await new App(emulator().env).archivePlaybook(`Eps ${policy}`);
      // drift does not send the user to a pull that keeps it (second read), nor for a sibling rule named alone.
      const drift = await cli('drift', '-C', dir, '--target', `playbook/Eps ${policy}`);
      expect(drift.stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
      // And says why, as it says the other objects pull keeps (probe IB-4).
      const kept = `Of these, ${policy === 'revert' ? 3 : 2} removed live stay in the files for a \`drift: revert\` or \`ignore\` of their playbook or of a rule in it: pull leaves them;`;
      expect(drift.stdout).toContain(kept);
      expect((await cli('drift', '-C', dir, '--target', `playbook/Eps ${policy}`, '-o', 'markdown')).stdout).toContain(`_${kept}`);
      expect((await cli('drift', '-C', dir, '--target', `rule/Eps ${policy}/E1`)).stdout).toContain(`\`docket pull -C ${dir}\` leaves it`);
      const sibling = await cli('pull', '-C', dir, '--target', `rule/Eps ${policy}/E1`);
      expect([sibling.code, sibling.stdout]).toEqual([0, expect.stringContaining('Wrote no file')]);
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(file);
      // (Another iteration's playbook is live too: the emulator is the file's.)
      const pulled = await cli('pull', '-C', dir, '-o', 'json', '--target', `playbook/Eps ${policy}`);
      expect(pulled.code).toBe(0);
      const result = JSON.parse(pulled.stdout) as { pulled: { key: string }[]; not_pulled: { key: string; reason: string }[] };
      expect(result.pulled).toEqual([]);
      // The rule of no policy that stays with it is said too (probe GF).
      expect(result.not_pulled.find((p) => p.key === `Eps ${policy}/E1`)?.reason).toBe('removed live with its playbook, which stays in the files for a policy (above): apply creates it again');
      expect(result.not_pulled.find((p) => p.key === `Eps ${policy}`)?.reason).toBe(`removed live, but the policy of what it holds keeps that in the files (rule "Eps ${policy}/E2" (\`drift: ${policy}\`)): apply creates it again as they say, or remove it from the files by hand`);
      expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(file);
      // As pull says, apply makes the playbook again with its rules (a rule under `drift: ignore` is left removed).
      const plan = await cli('plan', '-C', dir, '--target', `playbook/Eps ${policy}`);
      expect(plan.stdout).toContain(`+ create playbook "Eps ${policy}"`);
      expect(plan.stdout).toContain(`+ create rule "Eps ${policy}/E1"`);
      expect(plan.stdout.split('\nPlan: ')[0]!.includes(`+ create rule "Eps ${policy}/E2"`), plan.stdout).toBe(policy === 'revert');
      expect(plan.stdout.includes(`Live changes the drift policy leaves alone (1):\n  + create rule "Eps ${policy}/E2"`), plan.stdout).toBe(policy === 'ignore');
      await applyOk(cli, dir);
      await expectNoChanges(cli, dir);
      const settled = await cli('drift', '-C', dir, '--target', `playbook/Eps ${policy}`);
      expect([settled.code, settled.stdout]).toEqual([0, expect.not.stringContaining('removed live ·')]);
      await new App(emulator().env).archivePlaybook(`Eps ${policy}`);
    }
  });

  it('a playbook under drift: ignore archived in the app with its rules is one line of the ignored section, as of the removed-live one (probe YB-3)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/i.yaml': 'kind: Playbook\nname: Quiet Arch\ndrift: ignore\nrules:\n  - name: Q1\n    actions: FLAG q1\n  - name: Q2\n    actions: FLAG q2\n  - name: Q3\n    actions: FLAG q3\n' });
    await applyOk(cli, dir);
    await new App(emulator().env).archivePlaybook('Quiet Arch');
    const drift = await cli('drift', '-C', dir, '--target', 'playbook/Quiet Arch');
    expect(drift.stdout).toContain('Left alone by drift: ignore (4)');
    expect(drift.stdout).toMatch(/playbook "Quiet Arch"[^\n]* · with its 3 rules\n/);
    expect(drift.stdout).not.toContain('rule "Quiet Arch/Q1"');
    const markdown = await cli('drift', '-C', dir, '--target', 'playbook/Quiet Arch', '-o', 'markdown');
    expect(markdown.stdout).toMatch(/`Quiet Arch`[^\n]* · with its 3 rules\n/);
    // JSON lists every object.
    expect((JSON.parse((await cli('drift', '-C', dir, '--target', 'playbook/Quiet Arch', '-o', 'json')).stdout) as { ignored: unknown[] }).ignored).toHaveLength(4);
    // Under drift: adopt, one line of the drift too (probe AG-2).
    const adopt = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/a.yaml': 'kind: Playbook\nname: Adopt Arch\ndrift: adopt\nrules:\n  - name: A1\n    actions: FLAG a1\n  - name: A2\n    actions: FLAG a2\n' });
    await applyOk(cli, adopt);
    await new App(emulator().env).archivePlaybook('Adopt Arch');
    for (const output of ['text', 'markdown']) {
      const adopted = await cli('drift', '-C', adopt, '-o', output);
      expect(adopted.stdout, output).toMatch(/Adopt Arch[^\n]* · with its 2 rules/);
      expect(adopted.stdout, output).not.toContain('Adopt Arch/A1');
    }
    // A playbook of no policy keeps its rules together, and a rule of its own `drift: adopt` a line of its own (second read SR99B-1).
    const mixed = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/m.yaml': 'kind: Playbook\nname: Mix Arch\nrules:\n  - name: M1\n    actions: FLAG m1\n  - name: M2\n    actions: FLAG m2\n  - name: M3\n    drift: adopt\n    actions: FLAG m3\n' });
    await applyOk(cli, mixed);
    await new App(emulator().env).archivePlaybook('Mix Arch');
    const mixedDrift = await cli('drift', '-C', mixed);
    expect(mixedDrift.stdout).toMatch(/playbook "Mix Arch"[^\n]* · with its 2 rules\n/);
    expect(mixedDrift.stdout).toMatch(/rule "Mix Arch\/M3"[^\n]*drift: adopt/);
  });

  it('a --target names a playbook renamed in the app by its live name under drift: adopt and ignore too, as under the default policy (probe HE)', async () => {
    for (const policy of ['adopt', 'ignore']) {
      const file = `kind: Playbook\nname: Tango ${policy}\ndrift: ${policy}\nrules:\n  - name: T1\n    actions: ACCEPT t\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/t.yaml': file });
      await applyOk(cli, dir);
      await new App(emulator().env).editPlaybook(`Tango ${policy}`, { name: `Tango ${policy} renamed` });
      for (const command of ['plan', 'drift']) {
        const run = await cli(command, '-C', dir, '--target', `playbook/Tango ${policy} renamed`);
        expect([run.code, run.stderr], `${command} ${policy}`).toEqual([policy === 'adopt' && command === 'drift' ? 2 : 0, expect.not.stringContaining('unknown-target')]);
        expect(run.stdout).toContain(command === 'plan' ? `~ rename playbook "Tango ${policy} renamed" → "Tango ${policy}"` : `~ playbook "Tango ${policy}"`);
      }
      const pulled = await cli('pull', '-C', dir, '--target', `playbook/Tango ${policy} renamed`, '--dry-run');
      expect([pulled.code, pulled.stderr]).toEqual([0, '']);
      expect(pulled.stdout.includes(`+name: Tango ${policy} renamed`), pulled.stdout).toBe(policy === 'adopt');
      await new App(emulator().env).editPlaybook(`Tango ${policy} renamed`, { name: `Tango ${policy}` });
      await expectNoChanges(cli, dir);
    }
  });

  it('a rule renamed in the app onto a name the files then declare too stays a held removal after the apply, and the new one is not written onto it: the re-plan is empty (probes GB, NJ-2)', async () => {
    for (const policy of ['ignore', 'adopt']) {
      const file = `kind: Playbook\nname: Zeta ${policy}\ndrift: ${policy}\nrules:\n  - name: Z1\n    actions: FLAG z1\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file });
      await applyOk(cli, dir);
      await new App(emulator().env).editRule(`Zeta ${policy}`, 'Z1', { name: 'Z1 app' });
      await writeFile(join(dir, 'playbooks/p.yaml'), `${file}  - name: Z1 app\n    actions: FLAG z1 from files\n`);
      const plan = await cli('plan', '-C', dir, '--target', `playbook/Zeta ${policy}`);
      expect(plan.stdout).toContain(`+ create rule "Zeta ${policy}/Z1" (playbooks/p.yaml:5) · removed live · drift: ${policy}`);
      // Its object is the renamed one's, whose policy holds it: the files' new rule is not written there.
      expect(plan.stdout).toContain(`~ update rule "Zeta ${policy}/Z1 app" (playbooks/p.yaml:8) · changed in files · drift: ${policy}`);
      expect(plan.stdout).toContain('No changes.');
      await applyOk(cli, dir);
      const again = await cli('plan', '-C', dir, '--target', `playbook/Zeta ${policy}`, '--detailed-exitcode');
      expect(again.stdout).toContain(`+ create rule "Zeta ${policy}/Z1" (playbooks/p.yaml:5) · removed live · drift: ${policy}`);
      expect(again.code).toBe(0);
    }
  });

  it('a rule made in the app that ignore_fields would leave invalid in the file is not pulled, with advice about ignore_fields, not the app (probe GF)', async () => {
    const file = 'kind: Playbook\nname: Ignoring Actions\nignore_fields: [actions, generate_summary]\nrules:\n  - name: A\n    actions: ACCEPT a\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).createRule('Ignoring Actions', { name: 'M', actions: 'ACCEPT m', generate_summary: false });
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/Ignoring Actions', '-o', 'json');
    expect(pulled.code).toBe(0);
    const result = JSON.parse(pulled.stdout) as { not_pulled: { key: string; reason: string }[] };
    const reason = result.not_pulled.find((p) => p.key === 'Ignoring Actions/M')?.reason ?? '';
    expect(reason).toContain("the playbook's `ignore_fields` leaves `actions` out of what pull writes, so the file would not validate; write the rule into the file by hand, or take it out of `ignore_fields` and pull again");
    expect(reason).not.toContain('change it in the app');
    expect(await readFile(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(file);
  });

  it('a field ignore_fields left to the app, no longer ignored, is of unknown direction: an edit in the app since is drift and pull takes it, not the files\' change (probe EH)', async () => {
    const ignoring = 'kind: Playbook\nname: Ign\nignore_fields: [description]\nrules:\n  - name: R\n    description: one\n    actions: ACCEPT\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/ign.yaml': ignoring });
    await applyOk(cli, dir);
    await new App(emulator().env).editRule('Ign', 'R', { description: 'edited in the app' });
    const managing = ignoring.replace('ignore_fields: [description]\n', '');
    await writeFile(join(dir, 'playbooks/ign.yaml'), managing);
    const plan = await cli('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update rule "Ign/R" (playbooks/ign.yaml:5)\n      description: "edited in the app" → "one"');
    expect(plan.stdout).toContain('1 change has no sync record that says which side moved, so docket cannot tell whether it was made live or in the files');
    expect(plan.stdout).not.toContain('changed in files');
    const drift = await cli('drift', '-C', dir);
    expect(drift.code).toBe(2);
    expect(drift.stdout).toContain('rule "Ign/R"');
    expect((await cli('pull', '-C', dir)).code).toBe(0);
    expect(await readFile(join(dir, 'playbooks/ign.yaml'), 'utf8')).toBe(managing.replace('description: one', 'description: edited in the app'));
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a saved plan of an object whose policy leaves live edits alone holds while the app edits what the plan does not write, and not when it edits what the plan writes (probe EH)', async () => {
    for (const policy of ['adopt', 'ignore']) {
      const playbook = (actions: string) => `kind: Playbook\nname: Tuned ${policy}\ndrift: ${policy}\nrules:\n  - name: R\n    description: one\n    actions: ${actions}\n`;
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/tuned.yaml': playbook('ACCEPT') });
      await applyOk(cli, dir);
      const app = new App(emulator().env);
      await app.editRule(`Tuned ${policy}`, 'R', { description: 'app edit 1' });
      await writeFile(join(dir, 'playbooks/tuned.yaml'), playbook('ACCEPT always'));
      const planFile = join(dir, 'plan.json');
      expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
      // Reviewers go on tuning it in the app: the held field again, and one no change touches.
      await app.editRule(`Tuned ${policy}`, 'R', { description: 'app edit 2', questions: 'Asked in the app?' });
      const applied = await cli('apply', '-C', dir, planFile);
      expect([applied.code, applied.stderr]).toEqual([0, '']);
      expect(applied.stdout).toContain(`✓ update rule "Tuned ${policy}/R"`);
      const { store } = emulator().emulator;
      const org = store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!;
      const rule = store.rulesOf(org, store.activePlaybooks(org).find((p) => p.name === `Tuned ${policy}`)!.id)[0]!;
      expect([rule.actions, rule.description, rule.questions]).toEqual(['ACCEPT always', 'app edit 2', 'Asked in the app?']);
      // What the plan writes, edited in the app since: applying would overwrite it.
      await writeFile(join(dir, 'playbooks/tuned.yaml'), playbook('ACCEPT never'));
      expect((await cli('plan', '-C', dir, '--out', planFile)).code).toBe(0);
      await app.editRule(`Tuned ${policy}`, 'R', { actions: 'REJECT' });
      const stale = await cli('apply', '-C', dir, planFile);
      expect(stale.code).toBe(1);
      expect(stale.stderr).toContain(`rule "Tuned ${policy}/R" changed live since the plan`);
      await applyOk(cli, dir);
      await expectNoChanges(cli, dir);
    }
  });
  it('under drift: adopt, a playbook or rule archived or deleted in the app that the files renamed since is made again by apply, as pull says, not held for pull (probe QB-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': 'kind: Playbook\nname: Held P\ndrift: adopt\nrules:\n  - name: a\n    actions: A\n  - name: d\n    actions: D\n' });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.deleteRule('Held P', 'd');
    await writeFile(join(dir, 'playbooks/p.yaml'), 'kind: Playbook\nname: Held P\ndrift: adopt\nrules:\n  - name: a\n    actions: A\n  - name: e\n    renamed_from: [d]\n    actions: D\n');
    const rule = await cli('plan', '-C', dir);
    expect(rule.stdout).toMatch(/\+ create rule "Held P\/e" .*· removed live\n/);
    expect(rule.stdout).not.toContain('apply leaves it for `docket pull`');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    await app.archivePlaybook('Held P');
    await writeFile(join(dir, 'playbooks/p.yaml'), 'kind: Playbook\nname: Held Q\nrenamed_from: [Held P]\ndrift: adopt\nrules:\n  - name: a\n    actions: A\n  - name: e\n    actions: D\n');
    const playbook = await cli('plan', '-C', dir);
    expect(playbook.stdout).toMatch(/\+ create playbook "Held Q" .*· removed live\n/);
    expect(playbook.stdout).not.toContain('apply leaves it for `docket pull`');
    await applyOk(cli, dir);
    const { store } = emulator().emulator;
    const org = store.organization(emulator().env.DOCKET_ORGANIZATION_ID!)!;
    expect(store.rulesOf(org, store.activePlaybooks(org).find((p) => p.name === 'Held Q')!.id).map((r) => r.name).sort()).toEqual(['a', 'e']);
    // (Other tests of this file share the organization: only this playbook is looked at.)
    expect((await cli('pull', '-C', dir, '--dry-run', '--target', 'playbook/Held Q')).stdout).toContain('Nothing to pull');
    await expectNoChanges(cli, dir);
  });
  it('under drift: ignore, a live change the files also made is drift all the same: apply makes the files\' edit over it (probe QB-2, second read SR83B-1)', async () => {
    const file = (i1: string, i2: string) => `kind: Playbook\nname: Ign PI\ndrift: ignore\nrules:\n  - name: i1\n    actions: ${i1}\n  - name: i2\n    actions: ${i2}\n`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/i.yaml': file('I1', 'I2') });
    await applyOk(cli, dir);
    const app = new App(emulator().env);
    await app.deleteRule('Ign PI', 'i1');
    await app.editRule('Ign PI', 'i2', { actions: 'I2 live' });
    await writeFile(join(dir, 'playbooks/i.yaml'), file('I1 edited', 'I2 edited'));
    const drift = await cli('drift', '-C', dir, '--target', 'playbook/Ign PI', '-o', 'json');
    expect(drift.code).toBe(2);
    const report = JSON.parse(drift.stdout) as { drift: { key: string }[]; ignored: unknown[] };
    expect(report.drift.map((i) => i.key).sort()).toEqual(['Ign PI/i1', 'Ign PI/i2']);
    expect(report.ignored).toEqual([]);
    const plan = await cli('plan', '-C', dir, '--target', 'playbook/Ign PI');
    expect(plan.stdout).toContain('+ create rule "Ign PI/i1"');
    expect(plan.stdout).toContain('~ update rule "Ign PI/i2"');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });

  it('a playbook under drift: revert archived in the app keeps in the files its rules whose own policy is adopt: they went with it, and apply makes them again with it (probe QB-3)', async () => {
    const file = 'kind: Playbook\nname: Rev PR\ndrift: revert\nrules:\n  - name: ra\n    actions: RA\n    drift: adopt\n  - name: rb\n    actions: RB\n';
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/r.yaml': file });
    await applyOk(cli, dir);
    await new App(emulator().env).archivePlaybook('Rev PR');
    const drift = JSON.parse((await cli('drift', '-C', dir, '--target', 'playbook/Rev PR', '-o', 'json')).stdout) as { drift: { key: string; kept_by_policy?: true }[] };
    expect(drift.drift.find((i) => i.key === 'Rev PR/ra')?.kept_by_policy).toBe(true);
    const pulled = await cli('pull', '-C', dir, '--target', 'playbook/Rev PR');
    expect(pulled.code).toBe(0);
    expect(pulled.stdout).toContain('rule "Rev PR/ra"');
    expect(pulled.stdout).toContain('removed live with its playbook, which stays in the files for its own policy: apply creates it again');
    expect(await readFile(join(dir, 'playbooks/r.yaml'), 'utf8')).toBe(file);
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
    // One kept for its own edit in the files, not a policy, is not said to be kept for a policy (second read SR83B-3).
    const edited = 'kind: Playbook\nname: Ed P\nrules:\n  - name: ra\n    actions: RA\n';
    await writeFile(join(dir, 'playbooks/e.yaml'), edited);
    await applyOk(cli, dir);
    await new App(emulator().env).archivePlaybook('Ed P');
    await writeFile(join(dir, 'playbooks/e.yaml'), edited.replace('rules:', 'description: edited\nrules:'));
    expect((await cli('pull', '-C', dir, '--dry-run', '--target', 'playbook/Ed P')).stdout).not.toContain('for its own policy');
    await applyOk(cli, dir);
    await expectNoChanges(cli, dir);
  });
});
