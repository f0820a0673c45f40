/**
 * A signal that arrives after the last change, while the apply records docket.lock.json: the stop
 * was asked for and acknowledged, so the report and the exit code both say interrupted (nothing
 * was left not started), in text and in JSON; a re-plan shows no changes. And the other end: a
 * signal as the person answers yes, before any change starts.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Interrupts, SignalName } from '../../../src/cli/interrupt.js';
import { DEFAULT_ORGANIZATION_ID } from '../../../src/emulator/server.js';
import { runCli } from '../../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { expectNoChanges } from '../../helpers/scenario.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

/**
 * Interrupts whose first signal comes when the apply, still holding signals for itself, drops its
 * exit handler: that is once every change is done and the lock file is written.
 */
function signalOnceTheLockIsWritten(name: SignalName | undefined): Interrupts & { sent: () => boolean; held: () => readonly string[] } {
  const controller = new AbortController();
  let first: SignalName | undefined;
  const held: string[] = [];
  return {
    signal: controller.signal,
    received: () => first,
    sent: () => first !== undefined,
    held: () => held,
    onExit: () => () => {
      if (name !== undefined && first === undefined && held.some((s) => s.startsWith('stopping:'))) {
        first = name;
        controller.abort(new Error(name));
      }
    },
    hold(saying = '') {
      held.push(saying);
      return () => void held.splice(held.indexOf(saying), 1);
    },
  };
}

describe('a signal once every change is done', () => {
  it('after the report, is held to the end of the process: the exit code stays the report\'s', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Inbound NDA\n' });
    const interrupts = signalOnceTheLockIsWritten(undefined);
    const run = await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env, interrupts });
    expect([run.code, run.stdout]).toEqual([0, expect.stringContaining('Apply complete: 1 done.')]);
    // Nothing releases it: a signal now (the connections closing) is told, and stops nothing.
    expect(interrupts.held()).toEqual(['every change is done; the report is being written']);
    // With nothing to change, the same from its report on ("No changes." then a signal: exit 0).
    const again = signalOnceTheLockIsWritten(undefined);
    const none = await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env, interrupts: again });
    expect([none.code, none.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
    expect(again.held()).toEqual(['there was nothing to change; the report is being written']);
  });

  for (const output of ['text', 'json'] as const) {
    it(`reports the apply interrupted with nothing left not started, and exits 130 (-o ${output})`, async () => {
      t = await startTestEmulator();
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Inbound NDA\nrules:\n  - name: Term\n    actions: Accept up to 3 years.\n' });
      const interrupts = signalOnceTheLockIsWritten('SIGINT');
      const run = await runCli(['apply', '-C', dir, '--auto-approve', '-o', output], { env: t.env, interrupts });
      expect(interrupts.sent()).toBe(true);
      expect(run.code).toBe(130);
      if (output === 'text') expect(run.stdout).toContain('Apply interrupted (SIGINT): 2 done, 0 failed, 0 skipped, 0 not started.');
      else expect(JSON.parse(run.stdout)).toMatchObject({ done: 2, not_started: 0, stopped: 'SIGINT' });
      await expectNoChanges((...args: string[]) => runCli(args, { env: t.env }), dir);
    });
  }
});

describe('a signal as the apply is approved', () => {
  it('starts nothing, says nothing was done, exits 130, and the re-run applies', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Inbound NDA\n' });
    const controller = new AbortController();
    let first: SignalName | undefined;
    const interrupts: Interrupts = { signal: controller.signal, received: () => first, onExit: () => () => {}, hold: () => () => {} };
    const signalled = async (): Promise<void> => {
      first = 'SIGINT';
      controller.abort(new Error('SIGINT'));
    };
    const run = await runCli(['apply', '-C', dir], { env: t.env, answer: 'yes', whileAsked: signalled, interrupts });
    expect(run.code).toBe(130);
    expect(run.stderr).toMatch(/apply interrupted by SIGINT: 0 done, 0 failed, 0 skipped, 1 not started\n {2}nothing was done; run docket apply -C \S+ again\n/);
    expect(Object.keys(t.emulator.store.organization(DEFAULT_ORGANIZATION_ID)!.playbooks)).toEqual([]);
    const again = await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env });
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('Apply complete: 1 done.')]);
    await expectNoChanges((...args: string[]) => runCli(args, { env: t.env }), dir);
  });
});
