/**
 * A scratch playbook a `docket test` run still uses is not the configuration's business: plan,
 * drift, pull, export and `apply --prune` leave it out (an apply on merge archived one while a pull
 * request's tests ran), and the files may not take its prefix.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, expect, it } from 'vitest';
import { scratchDescription } from '../../src/testing/scratch.js';
import { scratchName } from '../../src/testing/scratch-name.js';
import { App } from '../helpers/app.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { expectNoChanges } from '../helpers/scenario.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';

let t: TestEmulator;
beforeEach(async () => {
  t = await startTestEmulator();
});
afterEach(() => t.emulator.close());
afterAll(removeMadeDirs);

const cli = (...args: string[]) => runCli(args, { env: t.env });

it('a scratch playbook in use is left out of plan, drift, pull, export and apply --prune', async () => {
  const dir = await makeDir({ 'docket.yaml': 'version: 1\nprune:\n  playbooks: true\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\n' });
  expect((await cli('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const scratch = scratchName('NDA', '8f512adb233a0000');
  // As a run on another machine makes it, until the end of its time budget.
  await new App(t.env).createPlaybook({ name: scratch, description: scratchDescription({ pid: 4242, host: 'ci-runner-7', until: new Date(Date.now() + 3_600_000) }) });

  const plan = await cli('plan', '-C', dir, '-v', '--detailed-exitcode');
  expect([plan.code, plan.stdout]).toEqual([0, expect.not.stringContaining('docket-test')]);
  expect((await cli('drift', '-C', dir)).code).toBe(0);
  const pulled = await cli('pull', '-C', dir);
  expect(pulled.stdout).not.toContain('docket-test');
  expect(await readdir(join(dir, 'playbooks'))).toEqual(['nda.yaml']);
  const out = join(await makeDir({}), 'export');
  expect((await cli('export', '-C', dir, '--out', out)).code).toBe(0);
  expect(await readdir(join(out, 'playbooks'))).toEqual(['nda.yaml']);

  const applied = await cli('apply', '-C', dir, '--auto-approve', '--prune');
  expect(applied.stdout).toContain('No changes.');
  expect(await new App(t.env).playbookId(scratch)).toMatch(/.+/);
  await expectNoChanges(cli, dir);
});

it('a playbook in the files may not take the scratch playbooks\' prefix', async () => {
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/x.yaml': 'kind: Playbook\nname: "docket-test: NDA"\n' });
  const validated = await cli('validate', '-C', dir);
  expect(validated.code).toBe(1);
  expect(validated.stderr).toContain('playbooks/x.yaml:2:7 error reserved-name playbook "docket-test: NDA" starts with "docket-test: ", which names the scratch playbooks docket test makes');
});
