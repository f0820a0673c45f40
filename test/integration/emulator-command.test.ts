/** `docket emulator` as a process: prints how to reach it, serves docket, keeps state, stops on SIGTERM. */
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { DOCKET_YAML, NDA } from './fixtures.js';

afterAll(removeMadeDirs);

const BIN = fileURLToPath(new URL('../../bin/docket.js', import.meta.url));
const EXAMPLE = fileURLToPath(new URL('../../examples/acme-legal', import.meta.url));

/** Runs `docket emulator ARGS` until `use` is done, with its banner; then stops it with SIGTERM, which must end it (exit 0). */
async function withEmulator(args: string[], use: (banner: string, env: Record<string, string>, log: () => string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, [BIN, 'emulator', '--port', '0', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log += chunk.toString();
  });
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes('Press Ctrl-C')) resolve(out);
      });
      child.on('exit', (code) => reject(new Error(`emulator exited with ${code}: ${out}`)));
    });
    const variable = (name: string) => new RegExp(`${name}=(\\S*)`).exec(banner)?.[1] ?? '';
    await use(banner, { DOCKET_REVIEW_URL: variable('DOCKET_REVIEW_URL'), DOCKET_AGREEMENTS_URL: variable('DOCKET_AGREEMENTS_URL'), DOCKET_API_KEY: variable('DOCKET_API_KEY') }, () => log);
  } finally {
    const exited = new Promise((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    // An emulator that ignores SIGTERM fails the test (its signalCode says SIGKILL) instead of outliving it.
    const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
    await exited;
    clearTimeout(kill);
  }
  expect(child.signalCode).toBeNull();
  expect(child.exitCode).toBe(0);
}

it('serves a configuration with its own organization id, persists state to --state, and logs each request with -v', async () => {
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const state = join(dir, 'state', 'emulator.json');
  await withEmulator(['--state', state, '-v'], async (banner, served, log) => {
    // Each variable a line a shell takes pasted as it is (probe JK-4).
    for (const name of ['DOCKET_REVIEW_URL', 'DOCKET_AGREEMENTS_URL', 'DOCKET_ORGANIZATION_ID', 'DOCKET_API_KEY']) expect(banner).toMatch(new RegExp(`^  export ${name}=\\S+`, 'm'));
    const env = { ...served, DOCKET_ORGANIZATION_ID: '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' };
    const apply = await runCli(['apply', '-C', dir, '--auto-approve'], { env });
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);
    const replan = await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env });
    expect(replan.code).toBe(0);
    // -v: one line per request, method, path, status, time and request id, never a key.
    expect(log()).toMatch(/^POST \/review\/v1\/organizations\/6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f\/playbooks → 201 in \d+ ms \[request [0-9a-f-]{36}\]$/m);
    expect(log()).not.toContain(served.DOCKET_API_KEY);
    // A hand-made request with a key in its query: the emulator's own key, and any credential by its name, are masked (probe DR).
    await fetch(`${served.DOCKET_REVIEW_URL}/v1/organizations?api_key=${served.DOCKET_API_KEY}&page[size]=5`, { headers: { authorization: `Bearer ${served.DOCKET_API_KEY}` } });
    await fetch(`${served.DOCKET_REVIEW_URL}/v1/organizations?access_token=sk-live-elsewhere-1234&client_secret=sk-other-5678`, { headers: { authorization: `Bearer ${served.DOCKET_API_KEY}` } });
    // Its key with escapes of another client's (`%2d` for `-`): found decoded (probe DS).
    await fetch(`${served.DOCKET_REVIEW_URL}/v1/x/${served.DOCKET_API_KEY.replace(/-/g, '%2d')}`, { headers: { authorization: `Bearer ${served.DOCKET_API_KEY}` } });
    // The organization's own key (the public key is the start of it) in a path: masked whole.
    const orgKey = `${served.DOCKET_API_KEY}-6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f`;
    await fetch(`${served.DOCKET_REVIEW_URL}/v1/organizations/6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f/playbooks/${orgKey}`, { headers: { authorization: `Bearer ${served.DOCKET_API_KEY}` } });
    for (let i = 0; i < 200 && !(log().includes('access_token=') && log().includes('/playbooks/[redacted]')); i++) await new Promise((r) => setTimeout(r, 10));
    expect(log()).toMatch(/^GET \/review\/v1\/organizations\/6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f\/playbooks\/\[redacted\] → 404/m);
    expect(log()).toMatch(/^GET \/review\/v1\/organizations\?api_key=\[redacted\]&page\[size\]=5 → 200/m);
    expect(log()).toContain('?access_token=[redacted]&client_secret=[redacted] → 200');
    expect(log()).toMatch(/^GET \/review\/v1\/x\/\[redacted\] → 404/m);
    expect(log()).not.toMatch(new RegExp(`${served.DOCKET_API_KEY}|sk-live-elsewhere|sk-other|docket%2demulator`));
    // A second emulator on the same state would drop the first one's writes (each writes it whole): refused.
    const second = await runCli(['emulator', '--port', '0', '--state', state]);
    expect([second.code, second.stdout]).toEqual([1, '']);
    expect(second.stderr).toMatch(new RegExp(`^Error: cannot start the emulator: another docket process uses ${state.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(pid \\d+ on .*\\) \\(an emulator, or a command run with --emulator\\), and each writes the whole state, so one would drop the other's changes\n  hint: let that process end or stop it first \\(or start this one on another --state file\\); if none runs, delete .*emulator\\.json\\.lock\n$`));
  });
  // Stopped, it gives the state file back.
  expect(existsSync(`${state}.lock`)).toBe(false);
  // An apply with --emulator changes the same state file in its configuration: refused while a standalone emulator uses it.
  const config = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  await withEmulator(['--state', join(config, '.docket', 'emulator.json')], async () => {
    const apply = await runCli(['apply', '-C', config, '--emulator', '--auto-approve']);
    expect([apply.code, apply.stderr]).toEqual([1, expect.stringContaining(`cannot start the emulator: another docket process uses ${join(config, '.docket', 'emulator.json')} (pid `)]);
  });
  expect((await runCli(['apply', '-C', config, '--emulator', '--auto-approve'])).code).toBe(0);
  expect(existsSync(join(config, '.docket', 'emulator.json.lock'))).toBe(false);
  const saved = JSON.parse(await readFile(state, 'utf8')) as { organizations: Record<string, { playbooks: Record<string, { name: string }> }> };
  const names = Object.values(saved.organizations['6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f']!.playbooks).map((p) => p.name);
  expect(names).toEqual(['Inbound NDA']);
});

it('plays the documented shapes its flags name, and the bundled example converges against them as the README runs it', async () => {
  const dir = await makeDir({});
  await cp(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes('.docket') && !src.endsWith('docket.lock.json') });
  const flags = ['--review-paths', 'flat', '--no-review-users', '--invitation-user-at', 'attribute', '--template-types', 'generic', '--nested-read-names', '--archived-marker', 'status', '--max-page-size', '50', '--paging', 'links', '--links-origin', 'other', '--create-status', '200'];
  await withEmulator(flags, async (banner, env) => {
    expect(banner).toContain(
      'shape: review_paths=flat, review_users=false, invitation_user_at=attribute, template_types=generic, nested_read_names=true, list_archived=true, archived_marker=status, max_page_size=50, paging=links, links_origin=other, create_status=200',
    );
    // No organization id: flat routes act on the key's organization.
    const apply = await runCli(['apply', '-C', dir, '--auto-approve'], { env });
    expect(apply.stderr).toBe('');
    expect(apply.stdout).toContain('(organization 00000000-0000-4000-8000-000000000001, flat paths)');
    const replan = await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env });
    expect(replan.stdout).toContain('No changes.');
    expect(replan.code).toBe(0);
  });
});

it('says in its banner that a seed\'s archive marker does nothing while archived playbooks are not listed (probe JW-4)', async () => {
  const dir = await makeDir({ 'seed.json': JSON.stringify({ organizations: [{ id: '8f14e45f-ceea-4e6b-9a1c-3f2d1e0b7a11', name: 'A', api_keys: [], users: [] }], variants: { archived_marker: 'status' } }) });
  await withEmulator(['--seed', join(dir, 'seed.json')], async (banner) => {
    expect(banner).toContain('shape: archived_marker=status (no effect: archived playbooks are not listed, list_archived=false)');
  });
});

it('refuses variant flags that contradict each other, and says which of a seed\'s variants another turns off (probe KM-1)', async () => {
  const both = await runCli(['emulator', '--port', '0', '--no-invitation-user', '--invitation-user-at', 'attribute']);
  expect(both.code).toBe(1);
  expect(both.stderr).toContain("option '--invitation-user-at <WHERE>' cannot be used with option '--no-invitation-user'");
  const dir = await makeDir({ 'seed.json': JSON.stringify({ organizations: [{ id: '8f14e45f-ceea-4e6b-9a1c-3f2d1e0b7a11', name: 'A', api_keys: [], users: [] }], variants: { invitation_user: false, invitation_user_at: 'attribute', paging: 'meta', links_origin: 'other' } }) });
  await withEmulator(['--seed', join(dir, 'seed.json')], async (banner) => {
    expect(banner).toContain('invitation_user_at=attribute (no effect: invitations name no user, invitation_user=false)');
    expect(banner).toContain('links_origin=other (no effect: lists carry no paging links, paging=meta)');
  });
  // A list not paged has no page size to ignore (probe SF-2).
  await withEmulator(['--paging', 'none', '--ignore-page-size'], async (banner) => {
    expect(banner).toContain('ignore_page_size=true (no effect: lists are not paged, paging=none)');
  });
});

it('answers a path it has no route for, however long, and still stops on SIGTERM', async () => {
  await withEmulator([], async (_banner, env) => {
    // An id pasted with its JSON quotes (jq without -r), after a long plain prefix: a 404, not a busy loop.
    const id = '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f';
    const url = `${env.DOCKET_REVIEW_URL}/v1/organizations/${id}/playbooks/"${id}"`;
    const res = await fetch(url, { headers: { authorization: `Bearer ${env.DOCKET_API_KEY}` }, signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(404);
  });
});

it("never prints a seed's own API key in its banner (a seed may be made from a real organization)", async () => {
  const dir = await makeDir({ 'seed.json': JSON.stringify({ organizations: [{ id: '11111111-1111-4111-8111-111111111111', name: 'Production copy', api_keys: ['sk_live_PRODSECRET_abc12345'], users: [{ email: 'admin@acme.example', role: 'admin' }] }] }) });
  await withEmulator(['--seed', join(dir, 'seed.json')], async (banner) => {
    expect(banner).not.toContain('sk_live_PRODSECRET_abc12345');
    expect(banner).toContain("  # DOCKET_API_KEY: the first of the seed's api_keys\n");
    expect(banner).toContain('DOCKET_ORGANIZATION_ID=11111111-1111-4111-8111-111111111111');
  });
});

it("never prints a seed's API key in a refusal of the seed, where one was pasted into another field (probe FV)", async () => {
  const key = 'sk_live_SEEDSECRET999';
  const dir = await makeDir({ 'seed.json': JSON.stringify({ organizations: [{ id: '11111111-1111-4111-8111-111111111111', name: 'A', users: [], api_keys: [key], default_reviewer_email: key }] }) });
  const r = await runCli(['emulator', '--port', '0', '--seed', join(dir, 'seed.json')]);
  expect(r.code).toBe(1);
  expect(r.stderr).toContain('organizations[0].default_reviewer_email [redacted] is not one of organizations[0].users');
  expect(r.stderr).not.toContain('SEEDSECRET');
  // Nor a file that is not JSON, which the parser's own message quotes (second read).
  await writeFile(join(dir, 'broken.json'), `{"organizations":[{"id":"11111111-1111-4111-8111-111111111111","api_keys":[${key}]}]}`);
  const broken = await runCli(['emulator', '--port', '0', '--seed', join(dir, 'broken.json')]);
  expect(broken.code).toBe(1);
  expect(broken.stderr).toContain('is not a valid seed: not valid JSON (');
  expect(broken.stderr).not.toMatch(/SEEDSEC|sk_live/);
  // POSTed to reset, the same seed is refused in the same words, where it stops (GH-6).
  const where = /not valid JSON \(([^)]*)\)/.exec(broken.stderr)![1]!;
  const t = await startTestEmulator();
  try {
    const reset = await fetch(`${t.emulator.url}/_emulator/reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: await readFile(join(dir, 'broken.json'), 'utf8') });
    expect(reset.status).toBe(400);
    const detail = ((await reset.json()) as { detail: string }).detail;
    expect(detail).toBe(`the request body is not valid JSON (${where})`);
  } finally {
    await t.emulator.close();
  }
});

it('refuses a state file in a folder it cannot write before it answers anything, and fails when its banner cannot be written', async () => {
  // (/sys is read-only: EACCES even for root.)
  const unwritable = await runCli(['emulator', '--port', '0', '--state', '/sys/docket-emulator-state.json']);
  expect([unwritable.code, unwritable.stderr]).toEqual([1, 'Error: cannot start the emulator: the state file /sys/docket-emulator-state.json cannot be written in its folder (EACCES)\n  hint: make the folder writable, or name a --state file in a folder you can write\n']);
  // A folder where the lock goes is said, not a crash.
  const dir = await makeDir({});
  await mkdir(join(dir, 'state.json.lock'));
  const folder = await runCli(['emulator', '--port', '0', '--state', join(dir, 'state.json')]);
  expect([folder.code, folder.stderr]).toEqual([1, expect.stringContaining(`cannot start the emulator: ${join(dir, 'state.json.lock')}, where it records that it uses ${join(dir, 'state.json')}, is not a file it can read`)]);
  // stdout on a full disk (said by processIo, where the write fails): it stops (exit 1), rather than serving on.
  const full = await runCli(['emulator', '--port', '0'], { outputFailure: 'ENOSPC' });
  expect(full.code).toBe(1);
  expect(full.stdout).toContain('docket emulator listening on');
});
