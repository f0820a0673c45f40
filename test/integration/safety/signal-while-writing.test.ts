/**
 * A first signal while pull writes its files, or once export has put its directory in place: the
 * work takes moments and is what the user asked for, so it is finished and reported, exit 0.
 * Cut short, a pull left some files pulled and the records not (and a new object's data file
 * without its document); an export reported interrupted (exit 143) a directory it had written,
 * which a retry then refused as not empty (probe HL-2..4).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Interrupts, SignalName } from '../../../src/cli/interrupt.js';
import { App } from '../../helpers/app.js';
import { runCli } from '../../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { applyOk, expectNoChanges } from '../../helpers/scenario.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

/**
 * Interrupts whose first signal comes as the run starts holding signals to say `saying` (a process
 * exits at once on a first signal nothing holds); `sent` tells whether the run ever held them so.
 */
function signalWhenHolding(name: SignalName, saying: string): Interrupts & { sent: () => boolean } {
  const controller = new AbortController();
  const held: string[] = [];
  let first: SignalName | undefined;
  return {
    signal: controller.signal,
    received: () => first,
    sent: () => first !== undefined,
    onExit: () => () => {},
    hold(said = '') {
      held.push(said);
      if (said === saying && first === undefined) {
        first = name;
        controller.abort(new Error(name));
      }
      return () => void held.splice(held.indexOf(said), 1);
    },
  };
}

const PLAYBOOK = (description: string) => `kind: Playbook\nname: Inbound NDA\ndescription: ${description}\nrules:\n  - name: Term\n    actions: ACCEPT a term of up to 3 years\n`;

describe('a signal while the files are written', () => {
  it('pull writes every file and its sync records, reports them and exits 0', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': PLAYBOOK('as written'), 'playbooks/msa.yaml': PLAYBOOK('as written').replace('Inbound NDA', 'Vendor MSA') });
    await applyOk((...args) => runCli(args, { env: t.env }), dir);
    const app = new App(t.env);
    await app.editPlaybook('Inbound NDA', { description: 'edited in the app' });
    await app.editPlaybook('Vendor MSA', { description: 'edited in the app' });
    const interrupts = signalWhenHolding('SIGINT', 'the pulled files are being written');
    const pulled = await runCli(['pull', '-C', dir], { env: t.env, interrupts });
    expect(interrupts.sent()).toBe(true);
    expect([pulled.code, pulled.stdout]).toEqual([0, expect.stringContaining('Wrote 2 files')]);
    for (const file of ['nda', 'msa']) expect(await readFile(join(dir, `playbooks/${file}.yaml`), 'utf8')).toContain('description: edited in the app');
    // The records were written too: the app's edits read as pulled, not as the files' change to revert.
    await expectNoChanges((...args) => runCli(args, { env: t.env }), dir);
    const drift = await runCli(['drift', '-C', dir], { env: t.env });
    expect(drift.code).toBe(0);
  });

  it('export, once its directory is in place, reports it and exits 0', async () => {
    t = await startTestEmulator();
    await new App(t.env).createPlaybook({ name: 'Inbound NDA' });
    const from = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const out = join(await makeDir({}), 'exported');
    const interrupts = signalWhenHolding('SIGTERM', 'the export is written; its report is being written');
    const exported = await runCli(['export', '-C', from, '--out', out, '--kind', 'playbook'], { env: t.env, interrupts });
    expect(interrupts.sent()).toBe(true);
    expect([exported.code, exported.stdout]).toEqual([0, expect.stringContaining('Commit the directory')]);
    await expectNoChanges((...args) => runCli(args, { env: t.env }), out);
  });
});
