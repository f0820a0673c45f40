/**
 * Signals outside an apply's changes: plan and the emulator just stop; at the approval prompt
 * Ctrl-C or Ctrl-D cancels and `yes` applies. Never a stack trace. (Apart from signals.test.ts so
 * the two halves run side by side.)
 */
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { App } from '../../helpers/app.js';
import { BIN, SIGNAL_DOCKET_YAML, livePlaybooks, manyPlaybooks, spawnBin, stoppedWhileReading, waitUntil } from './harness.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});


/** A configuration of one playbook of `rules` long rules, only in the files. */
function longPlaybook(name: string, rules: number): Promise<string> {
  const list = Array.from({ length: rules }, (_, i) => `  - name: Rule ${i}\n    actions: ACCEPT clause ${i}, with enough text to make the document long\n`).join('');
  return makeDir({ 'docket.yaml': 'version: 1\n', [`playbooks/${name.toLowerCase()}.yaml`]: `kind: Playbook\nname: ${name}\nrules:\n${list}` });
}

/** SIGINT once the run has started its document to a reader that takes nothing (it waits in the pipe), then the reader reads on. */
async function signalWhileWriting(run: ReturnType<typeof spawnBin>, timeoutMs?: number): Promise<void> {
  run.child.stdout!.pause();
  await waitUntil(() => run.child.stdout!.readableLength > 0, 'the document to start', timeoutMs);
  run.child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 300));
  run.child.stdout!.resume();
}

describe('a signal outside apply', () => {
  it('plan stops at once on Ctrl-C with exit 130 and no stack trace', async () => {
    t = await startTestEmulator();
    const { code, run } = await stoppedWhileReading(t, (dir) => ['plan', '-C', dir], 'SIGINT');
    expect([code, run.stderr()]).toEqual([130, '\nInterrupted (SIGINT).\n']);
  });

  it('pull stopped while it reads says no file was written, and how to go on (probe XI-2)', async () => {
    t = await startTestEmulator();
    const { code, run } = await stoppedWhileReading(t, (dir) => ['pull', '-C', dir], 'SIGINT');
    expect([code, run.stderr()]).toEqual([130, '\nInterrupted (SIGINT): no file was written; run the pull again.\n']);
  });

  it('with -o json, a signal still leaves one JSON document on stdout', async () => {
    t = await startTestEmulator();
    const { code, run } = await stoppedWhileReading(t, (dir) => ['plan', '-C', dir, '-o', 'json'], 'SIGTERM');
    expect(code).toBe(143);
    expect(JSON.parse(run.stdout())).toMatchObject({ error: { code: 'interrupted', message: 'interrupted by SIGTERM', exit_code: 143 } });
  });

  it('a signal while plan -o json is written to a slow reader lets the one document finish, not half of one', async () => {
    t = await startTestEmulator();
    const dir = await longPlaybook('P', 600);
    const run = spawnBin(['plan', '-C', dir, '-o', 'json'], t.env);
    await signalWhileWriting(run);
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toContain('SIGINT: the plan is being written');
    expect((JSON.parse(run.stdout()) as { changes: unknown[] }).changes).toHaveLength(601);
  });

  it('so does drift -o json: a CI job parses the one document it writes (probe MT-1; pull holds the same way)', async () => {
    t = await startTestEmulator();
    // A document well past what the pipe and the reader's buffer hold: drift's of rules only in the files.
    const dir = await longPlaybook('D', 1500);
    const run = spawnBin(['drift', '-C', dir, '-o', 'json'], t.env);
    // A loaded CI machine takes a while to read and plan 1,500 rules.
    await signalWhileWriting(run, 60_000);
    expect([await run.exited, run.stderr()]).toEqual([0, '\nSIGINT: the report is being written; Ctrl-C again stops at once.\n']);
    expect(run.stdout().length).toBeGreaterThan(131_072);
    expect(() => JSON.parse(run.stdout())).not.toThrow();
  }, 120_000);

  it('export stopped while it checks and records what it wrote leaves nothing: the directory appears with its lock file or not at all', async () => {
    // Each read takes 250 ms: the check of the written files (a plan of them) is still reading when the signal comes.
    t = await startTestEmulator({ latencyMs: 250 });
    await new App(t.env).createPlaybook({ name: 'Playbook 01' });
    const from = await makeDir({ 'docket.yaml': SIGNAL_DOCKET_YAML });
    const parent = await makeDir({});
    const out = join(parent, 'exported');
    // The export reads the playbooks once; the check of what it wrote (a playbook) reads them again.
    const playbookReads = () => t.emulator.requests().filter((r) => r.method === 'GET' && r.path.endsWith('/playbooks')).length;
    const before = playbookReads();
    const run = spawnBin(['export', '-C', from, '--out', out, '--kind', 'playbook'], t.env);
    await waitUntil(() => playbookReads() >= before + 2, 'the check of the written files', 20_000);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(143);
    expect(readdirSync(parent)).toEqual([]);
  });

  it('the emulator closes on SIGTERM with exit 0', async () => {
    const run = spawnBin(['emulator', '--port', '0'], {});
    await waitUntil(() => run.stdout().includes('Press Ctrl-C'), 'the banner');
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    expect(run.stderr()).toBe('');
  });
});

/** Runs docket in a pseudo-terminal (python3's pty), types `keys` at the prompt, and returns exit code and output. */
function atPrompt(args: string[], env: Record<string, string>, keys: string): Promise<{ code: number; output: string }> {
  const script = `
import os, pty, sys, select, time
pid, fd = pty.fork()
if pid == 0:
    os.execvpe(sys.argv[1], sys.argv[1:], os.environ)
out = b''
sent = False
deadline = time.time() + 30
while time.time() < deadline:
    r, _, _ = select.select([fd], [], [], 0.1)
    if r:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        out += chunk
    if not sent and b'Only \`yes\` is accepted' in out:
        time.sleep(0.2)
        os.write(fd, bytes.fromhex(os.environ['KEYS']))
        sent = True
_, status = os.waitpid(pid, 0)
sys.stdout.write(out.decode('utf8', 'replace'))
sys.exit(os.waitstatus_to_exitcode(status))
`;
  return new Promise((resolve) => {
    const child = spawn('python3', ['-c', script, process.execPath, BIN, ...args], { env: { PATH: process.env.PATH ?? '', ...env, KEYS: Buffer.from(keys).toString('hex'), TERM: 'dumb' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('exit', (code) => resolve({ code: code ?? -1, output }));
  });
}

describe('the approval prompt, in a terminal', () => {
  for (const [name, keys] of [['Ctrl-C', '\x03'], ['Ctrl-D', '\x04']] as const) {
    it(`${name} cancels: "cancelled; nothing was changed", exit 1, no stack trace, nothing created`, async () => {
      t = await startTestEmulator();
      const dir = await manyPlaybooks(2);
      const { code, output } = await atPrompt(['apply', '-C', dir, '--no-color'], t.env, keys);
      expect(output).toContain('Do you want to apply these changes?');
      expect(output).toContain('Error: cancelled; nothing was changed');
      expect(output).not.toMatch(/Internal error|AbortError|    at /);
      expect(code).toBe(1);
      expect(livePlaybooks(t)).toHaveLength(0);
    });
  }

  it('yes applies', async () => {
    t = await startTestEmulator();
    const dir = await manyPlaybooks(2);
    const { code, output } = await atPrompt(['apply', '-C', dir, '--no-color'], t.env, 'yes\r');
    expect(output).toContain('Apply complete: 2 done.');
    expect(code).toBe(0);
    expect(livePlaybooks(t)).toHaveLength(2);
  });
});
