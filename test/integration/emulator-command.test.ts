/** `docket emulator` as a process: prints how to reach it, serves docket, keeps state, stops on SIGTERM. */
import { spawn } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { DOCKET_YAML, NDA } from './fixtures.js';

afterAll(removeMadeDirs);

const BIN = fileURLToPath(new URL('../../bin/docket.js', import.meta.url));

it('serves a configuration with its own organization id, persists state to --state, and logs each request with -v', async () => {
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const state = join(dir, 'state', 'emulator.json');
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--state', state, '-v'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Press Ctrl-C')) resolve(out);
      });
      child.on('exit', (code) => reject(new Error(`emulator exited with ${code}: ${out}`)));
    });
    const reviewUrl = /DOCKET_REVIEW_URL=(\S+)/.exec(banner)![1]!;
    const key = /DOCKET_API_KEY=(\S+)/.exec(banner)![1]!;
    const env = { DOCKET_REVIEW_URL: reviewUrl, DOCKET_API_KEY: key, DOCKET_ORGANIZATION_ID: '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' };

    const apply = await runCli(['apply', '-C', dir, '--auto-approve'], { env });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const replan = await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env });
    expect(replan.code).toBe(0);
    const saved = JSON.parse(await readFile(state, 'utf8')) as { organizations: Record<string, { playbooks: Record<string, { name: string }> }> };
    const names = Object.values(saved.organizations['6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f']!.playbooks).map((p) => p.name);
    expect(names).toEqual(['Inbound NDA']);
    // -v: one line per request, method, path, status, time and request id, never a key.
    expect(log).toMatch(/^POST \/review\/v1\/organizations\/6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f\/playbooks → 201 in \d+ ms \[request [0-9a-f-]{36}\]$/m);
    expect(log).not.toContain(key);
  } finally {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  }
  expect(child.exitCode ?? 0).toBe(0);
});
