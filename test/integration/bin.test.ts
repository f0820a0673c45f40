/** The real bin, as a process: exit codes, streams and the in-process emulator's persisted state. */
import { spawn, spawnSync } from 'node:child_process';
import { copyFile, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, runBin } from '../helpers/bin.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { DOCKET_YAML, NDA } from './fixtures.js';
import { junitErrors } from '../helpers/test-reports.js';
import { STOP_SIGNALS } from '../../src/errors.js';

afterAll(removeMadeDirs);

describe('docket bin', () => {
  it('prints its version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    const result = await runBin(['--version']);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(pkg.version);
  });

  it('says a checkout never built is not built, not Node\'s stack trace (probe LJ-2)', async () => {
    const home = await makeDir({ 'package.json': '{"type":"module"}\n' });
    await mkdir(join(home, 'bin'));
    await copyFile(BIN, join(home, 'bin', 'docket.js'));
    const run = spawnSync(process.execPath, [join(home, 'bin', 'docket.js'), '--version'], { encoding: 'utf8' });
    expect([run.status, run.stdout]).toEqual([1, '']);
    // An installed package has no build scripts: installing again is what builds it (probe MF-1).
    expect(run.stderr).toBe(
      `Error: docket is not built in ${home}/ (its dist/ folder is missing)\n  hint: install it again without --ignore-scripts (\`npm ci\` in the repository that depends on it): a git dependency's prepare script builds it, which --ignore-scripts skips\n`,
    );
    // A checkout has them.
    await mkdir(join(home, 'scripts'));
    await writeFile(join(home, 'scripts', 'tsc-dist.mjs'), '');
    const checkout = spawnSync(process.execPath, [join(home, 'bin', 'docket.js'), '--version'], { encoding: 'utf8' });
    expect(checkout.stderr).toBe(`Error: docket is not built in ${home}/ (its dist/ folder is missing)\n  hint: run \`npm run build\` there (after \`npm ci\`)\n`);
  });

  it('loads each kind module first in a process of its own: no import cycle reaches one before it is made (second read)', async () => {
    const kinds = new URL('../../dist/kinds/', import.meta.url);
    const modules = (await readdir(kinds)).filter((f) => f.endsWith('.js'));
    expect(modules).toContain('attachment.js');
    const failed = await Promise.all(
      modules.map(async (name) => {
        const child = spawn(process.execPath, ['--input-type=module', '-e', `await import(${JSON.stringify(new URL(name, kinds).href)})`], { stdio: ['ignore', 'ignore', 'pipe'] });
        let stderr = '';
        child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
        const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
        return code === 0 ? [] : [`${name}: ${stderr.split('\n').find((l) => l.includes('Error')) ?? stderr}`];
      }),
    );
    expect(failed.flat()).toEqual([]);
  });

  it('finishes quietly when its reader goes away (`docket --help | head -1`)', async () => {
    const child = spawn(process.execPath, [BIN, '--help'], { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    // The reader closes its end before docket writes: every write then fails with EPIPE.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  /** The bin run with a module hook that sends `sent` the moment `module` is asked for, and answers only after the signal has had time to arrive: docket's own handlers are not listening yet. */
  async function interruptedWhileLoading(module: string, args: string[], sent: NodeJS.Signals = 'SIGINT'): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
    const hook = `export async function resolve(specifier, context, next) { if (specifier.endsWith(${JSON.stringify(module)})) { process.kill(process.pid, ${JSON.stringify(sent)}); await new Promise((r) => setTimeout(r, 300)); } return next(specifier, context); }`;
    const preload = `import { register } from 'node:module'; register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
    const child = spawn(process.execPath, ['--import', `data:text/javascript,${encodeURIComponent(preload)}`, BIN, ...args], { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const [code, signal] = await new Promise<[number | null, NodeJS.Signals | null]>((resolve) => child.on('close', (c, s) => resolve([c, s])));
    return { code, signal, stdout, stderr };
  }

  it('ends a run that a signal reached while its modules loaded as after any first signal: exit 130, and -o json still one document', async () => {
    const { code, signal, stdout, stderr } = await interruptedWhileLoading('bundle/main.js', ['plan', '-o', 'json', '-C', '.']);
    expect([code, signal, stderr]).toEqual([130, null, '\nInterrupted (SIGINT).\n']);
    expect(JSON.parse(stdout)).toMatchObject({ error: { code: 'interrupted', exit_code: 130 } });
  });

  // bin/docket.js holds these by a list of its own, before docket's code (and STOP_SIGNALS) is loaded.
  it.each(['SIGTERM', 'SIGHUP', 'SIGQUIT'] as const)('ends a run that %s reached while its modules loaded as the same signal after they loaded', async (sent) => {
    const { code, signal, stderr } = await interruptedWhileLoading('bundle/main.js', ['validate', '-C', '.'], sent);
    // SIGHUP's clean stop ends by that signal (the shell's 129); the others by their exit code.
    expect([code ?? signal, stderr]).toEqual([sent === 'SIGHUP' ? 'SIGHUP' : STOP_SIGNALS[sent], `\nInterrupted (${sent}).\n`]);
  });

  it('writes `docket test --junit`\'s report for a run a signal reached while its modules loaded, saying it stopped (probe RR-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML });
    const report = join(dir, 'report.xml');
    const { code, stderr } = await interruptedWhileLoading('bundle/main.js', ['test', '-C', dir, '--emulator', '--junit', report]);
    expect([code, stderr]).toEqual([130, '\nInterrupted (SIGINT).\n']);
    const xml = await readFile(report, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<error message="docket test stopped by SIGINT before it could report" type="interrupted">');
  });

  it('holds a signal that comes while the V8 flags module, the first of docket\'s, loads (a tenth of a second on a busy machine, probe QC-2)', async () => {
    const { code, signal, stderr } = await interruptedWhileLoading('util/v8-flags.js', ['validate', '-C', '.']);
    expect([code, signal, stderr]).toEqual([130, null, '\nInterrupted (SIGINT).\n']);
  });

  it('ends `--version` (which loads less than other commands) as any run a signal reached while it loaded', async () => {
    const { code, signal, stdout, stderr } = await interruptedWhileLoading('bundle/version-main.js', ['--version']);
    expect([code, signal, stdout, stderr]).toEqual([130, null, '', '\nInterrupted (SIGINT).\n']);
  });

  it('fails validate with exit 1 and file:line:col diagnostics, without any network configuration', async () => {
    const dir = await makeDir({
      'docket.yaml': DOCKET_YAML,
      'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    reviewr: alice@acme.example\n    actions: ACCEPT\n  - name: Residuals\n',
      'members.yaml': 'kind: Membr\nemail: bob@acme.example\n',
    });
    const result = await runBin(['validate', '-C', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('members.yaml:1:7 error unknown-kind');
    expect(result.stderr).toContain('did you mean `Member`');
    expect(result.stderr).toContain('playbooks/nda.yaml:5:5 error unknown-key');
    expect(result.stderr).toContain('did you mean `reviewer`');
    expect(result.stderr).toMatch(/playbooks\/nda\.yaml:7:\d+ error missing-actions/);
    expect(result.stdout).toBe('');
  });

  it('plans with exit 2, applies, and re-plans with exit 0 on the in-process emulator', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const plan = await runBin(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect(plan.stdout).toContain('target: local emulator');
    expect(plan.code).toBe(2);
    const apply = await runBin(['apply', '-C', dir, '--emulator']);
    expect(apply.code).toBe(1);
    expect(apply.stderr).toContain('--auto-approve');
    const approved = await runBin(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toContain('Apply complete: 3 done.');
    const state = JSON.parse(await readFile(join(dir, '.docket', 'emulator.json'), 'utf8')) as unknown;
    expect(JSON.stringify(state)).toContain('Inbound NDA');
    const replan = await runBin(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect(replan.stdout).toContain('No changes.');
    expect(replan.code).toBe(0);
  });

  it('refuses to run against the real service without an API key, before any request', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const result = await runBin(['plan', '-C', dir], { DOCKET_ORGANIZATION_ID: '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('DOCKET_REVIEW_API_KEY');
  });
});
