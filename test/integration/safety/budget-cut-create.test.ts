/**
 * A create the command's time budget cut off while the service still held it: the run says it is
 * pending (wait, then plan), never "run apply again", which would make it twice once it lands.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { bin, reviewOf, waitUntil } from './harness.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

it('a create the time budget cut off while the service still held it is pending, not "run apply again" (which made a second one); the plan to run is the apply\'s own, with its --env and --prune, the apply with its --force too (probe OD-2, second read SR80-4)', async () => {
  t = await startTestEmulator();
  const dir = await makeDir({ 'docket.yaml': 'version: 1\nenvironments:\n  staging:\n    vars:\n      lead: x\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Late NDA\n' });
  // Held past the command's 1.5 s budget, so the read that would find it is not made.
  t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'late', delay_ms: 60_000, count: 1 });
  const run = await bin(t)('apply', '-C', dir, '--env', 'staging', '--prune', '--force', '--auto-approve', '--timeout', '1500ms');
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).toContain('the service may have carried it out, or still be carrying it out');
  expect(run.stderr).toContain(`wait a few minutes for what the service may still be carrying out, then run docket plan -C ${dir} --env staging --prune: it shows what is left to do (then run docket apply -C ${dir} --env staging --prune --force again)`);
  expect(run.stderr).not.toContain('it converges');
  // The failure's own hint names the commands as this run was given too (probe DI-3).
  expect(run.stdout + run.stderr).toContain(`run \`docket plan -C ${dir} --env staging --prune\` again in a few minutes`);
  expect(run.stdout + run.stderr).not.toContain('`docket plan` again');
  // As the hint says: once it landed, the plan finds it, and nothing is made twice.
  t.emulator.releaseHeld();
  await waitUntil(() => Object.values(reviewOf(t).playbooks).some((p) => p.name === 'Late NDA'), 'the late create');
  const plan = await bin(t)('plan', '-C', dir, '--env', 'staging', '--detailed-exitcode');
  expect([plan.code, plan.stderr]).toEqual([0, '']);
  expect(Object.values(reviewOf(t).playbooks).filter((p) => p.name === 'Late NDA')).toHaveLength(1);
});

it('an update the time budget cut off while the service still held it says to wait, then plan, as after a signal: not "run apply again", which the late write could overtake (probe FD-1)', async () => {
  t = await startTestEmulator();
  const playbook = (name: string, from = '') => `kind: Playbook\nname: Late Rename\nrules:\n  - name: ${name}\n${from}    actions: ACCEPT x\n`;
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('Old') });
  expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await writeFile(join(dir, 'playbooks/p.yaml'), playbook('New', '    renamed_from: [Old]\n'));
  t.emulator.faults.add({ method: 'PATCH', path_pattern: '/review/v1/organizations/:org/playbooks/:playbook/playbook_rules/:rule', status: 'late', delay_ms: 60_000, count: 1 });
  const run = await bin(t)('apply', '-C', dir, '--auto-approve', '--timeout', '1500ms');
  expect(run.code).toBe(1);
  expect(run.stderr).toContain(`wait a few minutes for what the service may still be carrying out, then run docket plan -C ${dir}: it shows what is left to do`);
  expect(run.stderr).not.toContain('it converges');
  t.emulator.releaseHeld();
  await waitUntil(() => Object.values(reviewOf(t).rules).some((r) => r.name === 'New'), 'the late rename');
  expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const plan = await bin(t)('plan', '-C', dir, '--detailed-exitcode');
  expect([plan.code, plan.stderr]).toEqual([0, '']);
});
