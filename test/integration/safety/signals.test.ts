/**
 * Ctrl-C and SIGTERM (what CI cancellation sends) during an apply: a first signal stops it cleanly
 * with a report and the lock written, a second stops it at once. Never a stack trace. Signals
 * outside an apply's changes are in signals-outside-apply.test.ts.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { AGREEMENTS_DOCKET_YAML, DOCX_TERM_YAML, docx } from '../agreements-fixtures.js';
import { SIGNAL_DOCKET_YAML, bin, expectConverged, expectLockIntact, livePlaybooks, manyPlaybooks, numberedPlaybook, spawnBin, stoppedWhileReading, waitUntil } from './harness.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

const creates = () => t.emulator.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/playbooks')).length;

describe('a signal during apply', () => {
  // SIGHUP (a terminal or SSH session closed) and SIGQUIT (Ctrl-\\) too: they ended it as kill -9 did (probe NE-1).
  // After SIGHUP's clean stop docket ends by that signal, which the shell reports as 129 (second read SR78B-1).
  for (const [signal, code, again] of [['SIGTERM', 143, 'SIGTERM'], ['SIGINT', 130, 'Ctrl-C'], ['SIGHUP', 'SIGHUP', 'SIGHUP'], ['SIGQUIT', 131, 'Ctrl-\\']] as const) {
    it(`${signal}: finishes what is in flight, starts nothing new, reports, exits ${code}, and a re-run converges`, async () => {
      t = await startTestEmulator({ latencyMs: 60 });
      const dir = await manyPlaybooks(12);
      const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--concurrency', '2', '--no-color'], t.env);
      await waitUntil(() => creates() >= 2, 'two creates');
      run.child.kill(signal);
      expect(await run.exited).toBe(code);
      expect(run.stdout()).toContain(`Apply interrupted (${signal}): nothing new was started after it.`);
      expect(run.stdout()).toMatch(new RegExp(`Apply interrupted \\(${signal}\\): \\d+ done, 0 failed, 0 skipped, \\d+ not started\\.`));
      expect(run.stdout()).toContain('- not started: create playbook');
      expect(run.stderr()).toContain(`apply interrupted by ${signal}`);
      // Playbooks only: no upload for the lock to speak of.
      expect(run.stderr()).toMatch(/ {2}what was done is live; run docket apply -C \S+ again to finish/);
      // Said at once, before the wait for what is in flight.
      expect(run.stderr()).toContain(`${signal}: stopping: no new change starts, and those under way get up to 30 s to finish; ${again} again stops at once.`);
      expect(run.stderr()).not.toMatch(/Internal error|    at /);
      const done = livePlaybooks(t).length;
      expect(done).toBeGreaterThanOrEqual(2);
      expect(done).toBeLessThan(12);
      await expectLockIntact(dir);

      const b = bin(t);
      expect((await b('apply', '-C', dir, '--auto-approve')).code).toBe(0);
      await expectConverged(b, dir);
      expect(livePlaybooks(t)).toHaveLength(12);
    });
  }

  it('SIGUSR1 opens no debugger an API key could be read through: the apply carries on (probe NE-3)', async () => {
    t = await startTestEmulator({ latencyMs: 60 });
    const dir = await manyPlaybooks(6);
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--concurrency', '2', '--no-color'], t.env);
    await waitUntil(() => creates() >= 1, 'a create');
    run.child.kill('SIGUSR1');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).not.toContain('Debugger listening');
    expect(livePlaybooks(t)).toHaveLength(6);
  });

  it('a saved plan whose interrupted apply changed nothing is said to apply again, and does (probe HZ-2)', async () => {
    t = await startTestEmulator();
    const dir = await manyPlaybooks(2);
    const b = bin(t);
    // Beside the configuration, in a directory of its own (not the shared temporary directory).
    const plan = join(await makeDir({}), 'plan.json');
    expect((await b('plan', '-C', dir, '--out', plan)).code).toBe(0);
    // The first create is refused for pace, with a long wait: the signal comes during it.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 429, retry_after: 60, count: 1 });
    const run = spawnBin(['apply', '-C', dir, '--concurrency', '1', plan], t.env);
    await waitUntil(() => t.emulator.faults.list().length === 0, 'the first create refused');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stdout()).toMatch(/0 done, 1 failed/);
    expect(run.stderr()).toContain(`no change is known to have been made; apply the saved plan again (docket apply -C ${dir} ${plan}) to finish`);
    expect(livePlaybooks(t)).toHaveLength(0);
    expect((await b('apply', '-C', dir, plan)).code).toBe(0);
    await expectConverged(b, dir);
  });

  it('a second signal stops at once, without waiting for the operation in flight', async () => {
    t = await startTestEmulator();
    const dir = await manyPlaybooks(3);
    // The service takes the create and never answers.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 'hang' });
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--concurrency', '1'], t.env);
    await waitUntil(() => livePlaybooks(t).length === 1, 'the first create');
    run.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill('SIGINT');
    // The create never answers: only the second signal, not the 30 s grace, can end the run in the test's time.
    expect(await run.exited).toBe(130);
    // What was under way is unknown: said, with what to run.
    expect(run.stderr()).toContain('SIGINT again: stopped at once; changes and uploads under way may have been made: run docket plan, which shows what is live and stops at what may still be landing (a create or publish cut off, an upload whose outcome is unknown).');
    expect(run.stderr()).not.toMatch(/Internal error|    at /);
    await expectLockIntact(dir);
  });

  it('with -o json, a second signal\'s error document says in its hint what was under way, as stderr does (probe JV-2)', async () => {
    t = await startTestEmulator();
    const dir = await manyPlaybooks(3);
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 'hang' });
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--concurrency', '1', '-o', 'json'], t.env);
    await waitUntil(() => livePlaybooks(t).length === 1, 'the first create');
    run.child.kill('SIGINT');
    await new Promise((r) => setTimeout(r, 300));
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(JSON.parse(run.stdout())).toMatchObject({
      error: { code: 'interrupted', message: 'interrupted by SIGINT', hint: expect.stringContaining('changes and uploads under way may have been made: run docket plan'), exit_code: 130 },
    });
  });

  it('a request waiting out a Retry-After is not sent again after the first signal', async () => {
    t = await startTestEmulator();
    const dir = await manyPlaybooks(3);
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 429, retry_after: 20 });
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--concurrency', '1', '--no-color'], t.env);
    await waitUntil(() => t.emulator.stats().faults_injected > 0, 'the 429');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stdout()).toContain('✗ create playbook "Playbook 01": interrupted, so not tried again after the review service answered HTTP 429');
    expect(run.stdout()).toMatch(/Apply interrupted \(SIGINT\): 0 done, 1 failed, 0 skipped, 2 not started\./);
    // The error line counts as the report does (skipped included), so its numbers add up.
    expect(run.stderr()).toContain('apply interrupted by SIGINT: 0 done, 1 failed, 0 skipped, 2 not started');
    // The refused POST was the only one: it is not in the request log (faults are counted apart).
    expect(t.emulator.stats().faults_injected).toBe(1);
    expect(creates()).toBe(0);
    expect(livePlaybooks(t)).toHaveLength(0);
  });

  it('a signal during the duplicate checks after the last change stops them too: interrupted, exit 130', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': SIGNAL_DOCKET_YAML, 'playbooks/p.yaml': `${numberedPlaybook(1)}rules:\n  - name: Term\n    actions: ACCEPT\n` });
    // The rule list is read only by the check after the creates; it is asked to wait 20 s.
    t.emulator.faults.add({ method: 'GET', path_pattern: '/playbook_rules', status: 429, retry_after: 20 });
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--no-color'], t.env);
    await waitUntil(() => t.emulator.stats().faults_injected > 0, 'the check to be asked to wait');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stdout()).toMatch(/Apply interrupted \(SIGINT\): 2 done, 0 failed, 0 skipped, 0 not started\./);
    expect(run.stdout()).toContain('Apply interrupted (SIGINT): every change was made; the checks for duplicates at the end were cut short.');
    expect(run.stderr()).toContain('apply interrupted by SIGINT');
    // Every change was made: nothing is left for apply to finish, only the checks the signal stopped.
    expect(run.stderr()).toContain('every change was made; docket plan shows any duplicate a concurrent apply made that the checks did not look for');
    expect(run.stderr()).not.toMatch(/again to finish/);
    await expectLockIntact(dir);
    await expectConverged(bin(t), dir);
  });

  it('a signal during checks at the end that then end, answered, within their grace cuts nothing short', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': SIGNAL_DOCKET_YAML, 'playbooks/p.yaml': `${numberedPlaybook(1)}rules:\n  - name: Term\n    actions: ACCEPT\n` });
    // The check's read is answered, a second late.
    t.emulator.faults.add({ method: 'GET', path_pattern: '/playbook_rules', status: 'late', delay_ms: 1000 });
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--no-color'], t.env);
    await waitUntil(() => t.emulator.stats().faults_injected > 0, 'the check to be answered late');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    expect(run.stdout()).not.toContain('cut short');
    expect(run.stderr()).toContain('every change was made and checked: nothing is left to apply');
    await expectConverged(bin(t), dir);
  });

  /** An apply of `dir` given Ctrl-C once the service has been asked twice about its Word term's conversion (exit 130). */
  async function interruptedConverting(dir: string): Promise<ReturnType<typeof spawnBin>> {
    const polls = () => t.emulator.requests().filter((r) => r.method === 'GET' && /\/custom_terms\/[^/]+$/.test(r.path)).length;
    const before = polls();
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--no-color'], t.env);
    await waitUntil(() => polls() >= before + 2, 'the conversion to be polled');
    run.child.kill('SIGINT');
    expect(await run.exited).toBe(130);
    // Not waited for, so not said checked (probe OI-3).
    expect(run.stdout()).toContain('note: its PDF conversion was still under way when the apply stopped, and was not waited for: the next plan shows whether it failed (then it publishes again)');
    expect(run.stderr()).not.toContain('and checked');
    return run;
  }

  it('a Word file uploaded before the signal is recorded at once, without waiting for its conversion', async () => {
    t = await startTestEmulator({ conversionDelayMs: 600_000 });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML });
    await writeFile(join(dir, 'terms/data.docx'), docx('one'));
    const run = await interruptedConverting(dir);
    expect(run.stdout()).toContain('✓ create custom-term "Data Terms"');
    expect(Object.values(await expectLockIntact(dir))[0]!['custom-term:Data Terms']).toMatchObject({ file: 'terms/data.docx' });
  });

  it('a Word term publish whose conversion a signal left unwaited for is not said checked: its note and the closing hint send to the next plan (probe OI-3)', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML });
    await writeFile(join(dir, 'terms/data.docx'), docx('one'));
    expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    t.emulator.configure({ conversionDelayMs: 600_000 });
    await writeFile(join(dir, 'terms/data.docx'), docx('two'));
    const run = await interruptedConverting(dir);
    expect(run.stdout()).toContain('✓ publish custom-term "Data Terms"');
    expect(run.stderr()).toContain('every change was made; run docket plan for what the notes above leave open');
  });

  it('a Word term publish cut short says a re-run settles it, not the steps of an attachment nothing can read back', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML });
    await writeFile(join(dir, 'terms/data.docx'), docx('one'));
    const b = bin(t);
    expect((await b('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFile(join(dir, 'terms/data.docx'), docx('two'));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/versions', status: 'hang' });
    const cut = await b('apply', '-C', dir, '--auto-approve', '--timeout', '2s');
    expect(cut.code).toBe(1);
    expect(cut.stderr).toMatch(/run docket apply -C \S+ again/);
    expect(cut.stderr).not.toContain('--retry-uncertain');
    expect(cut.stderr).not.toContain('--adopt-files');
    t.emulator.faults.clear();
    await expectConverged(b, dir);
  });

  it('a signal while apply is still planning ends it at once, saying nothing live was changed, and leaves no .docket/apply.lock (probe XD-1)', async () => {
    t = await startTestEmulator();
    let where = '';
    const { code, run } = await stoppedWhileReading(t, (dir) => ['apply', '-C', (where = dir), '--auto-approve'], 'SIGTERM', (dir) => expect(existsSync(join(dir, '.docket', 'apply.lock'))).toBe(true));
    expect([code, run.stderr()]).toEqual([143, '\nInterrupted (SIGTERM): nothing live was changed; run the apply again.\n']);
    expect(existsSync(join(where, '.docket', 'apply.lock'))).toBe(false);
  });

  it('with -o json, a signal while apply still plans leaves one document whose hint says nothing live was changed (probe XD-1)', async () => {
    t = await startTestEmulator();
    const json = await stoppedWhileReading(t, (dir) => ['apply', '-C', dir, '--auto-approve', '-o', 'json'], 'SIGINT');
    expect(json.code).toBe(130);
    expect(JSON.parse(json.run.stdout())).toMatchObject({ error: { code: 'interrupted', exit_code: 130, hint: 'nothing live was changed; run the apply again' } });
  });

  it('no apply.lock is left behind, so the next apply is not refused', async () => {
    t = await startTestEmulator({ latencyMs: 50 });
    const dir = await manyPlaybooks(6);
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--concurrency', '1'], t.env);
    await waitUntil(() => creates() >= 1, 'a create');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(143);
    const b = bin(t);
    const again = await b('apply', '-C', dir, '--auto-approve');
    expect(again.stderr).toBe('');
    expect(again.code).toBe(0);
  });
});
