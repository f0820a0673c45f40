/**
 * A create the command's time budget cut off while the service still held it: the run says it is
 * pending (wait, then plan), never "run apply again", which would make it twice once it lands.
 */
import { afterEach, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { bin, expectConverged, reviewOf, waitUntil } from './harness.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

it('a create the time budget cut off while the service still held it is pending, not "run apply again" (which made a second one)', async () => {
  t = await startTestEmulator();
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Late NDA\n' });
  // Held 2.5 s, then carried out: past the command's 1.5 s budget, so the read that would find it is not made.
  t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'late', delay_ms: 2500, count: 1 });
  const run = await bin(t)('apply', '-C', dir, '--auto-approve', '--timeout', '1500ms');
  expect(run.code).toBe(1);
  expect(run.stdout + run.stderr).toContain('the service may have carried it out, or still be carrying it out');
  expect(run.stderr).toContain('wait a few minutes for what the service may still be carrying out, then run docket plan');
  expect(run.stderr).not.toContain('it converges');
  // As the hint says: once it landed, the plan finds it, and nothing is made twice.
  await waitUntil(() => Object.values(reviewOf(t).playbooks).some((p) => p.name === 'Late NDA'), 'the late create');
  await expectConverged(bin(t), dir);
  expect(Object.values(reviewOf(t).playbooks).filter((p) => p.name === 'Late NDA')).toHaveLength(1);
});
