/**
 * A Word file docket publishes whose conversion fails: the next plan publishes it again as the
 * files' change, and drift reports nothing live (nobody edited the term in the app).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { removeMadeDirs } from '../../helpers/tmpdir.js';
import { docx } from '../agreements-fixtures.js';
import { agreementsOf, bin, expectConverged, waitUntil, wordTermDir } from './harness.js';
import { App } from '../../helpers/app.js';

let t: TestEmulator;

/** An emulator and a configuration of one Word custom term (and a playbook). */
async function wordTerm() {
  t = await startTestEmulator({ latencyMs: 0 });
  return { dir: await wordTermDir(), run: bin(t) };
}

afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

it("a conversion that failed on docket's own publish is owed by the files, not drift: plan publishes it again, drift and pull leave it", async () => {
  const { dir, run } = await wordTerm();
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await writeFile(join(dir, 'terms/data.docx'), docx('version two'));
  agreementsOf(t).docx_conversion = 'failed';
  const failed = await run('apply', '-C', dir, '--auto-approve');
  expect(failed.code).toBe(1);
  expect(failed.stdout + failed.stderr).toContain('conversion_status: failed');

  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toContain('↑ publish custom-term "Data Terms" (terms/data.yaml:3) · changed in files');
  const drift = await run('drift', '-C', dir);
  expect([drift.code, drift.stdout]).toEqual([0, expect.not.stringContaining('Changed live')]);
  const pull = await run('pull', '-C', dir, '--dry-run');
  expect(pull.stdout).not.toContain('from the app');

  agreementsOf(t).docx_conversion = 'ready';
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
});

it("a conversion that failed on docket's own create is owed by the files too, not a change of unknown direction", async () => {
  const { dir, run } = await wordTerm();
  agreementsOf(t).docx_conversion = 'failed';
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(1);
  agreementsOf(t).docx_conversion = 'ready';
  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toContain('↑ publish custom-term "Data Terms" (terms/data.yaml:3) · changed in files');
  const drift = await run('drift', '-C', dir);
  expect([drift.code, drift.stdout]).toEqual([0, expect.not.stringContaining('direction unknown')]);
  expect((await run('pull', '-C', dir, '--dry-run')).stdout).not.toContain('from the app');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
});

it('a Word version published in the app whose conversion failed is said to be that version, a live change', async () => {
  const { dir, run } = await wordTerm();
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  agreementsOf(t).docx_conversion = 'failed';
  await new App(t.env).publishTermDocx('Data Terms', docx('from the app'));
  // The conversion runs after the publish answers: read once it has failed.
  await waitUntil(() => Object.values(agreementsOf(t).custom_terms).some((x) => x.name === 'Data Terms' && x.conversion_status === 'failed'), 'the failed conversion');
  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toContain('· changed live');
  expect(plan.stdout).toContain('docx: "version 2, whose conversion failed, published since the upload docket.lock.json records (version 1, ');
});
