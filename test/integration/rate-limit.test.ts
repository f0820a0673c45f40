/**
 * `--max-rps` and `max_rps:` against a service with a known quota: the emulator's token bucket.
 * Paced below the quota from the first request, an apply is never refused; a bad value is refused
 * before any request.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator, type TestEmulator } from '../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';

let t: TestEmulator | undefined;
afterEach(async () => {
  await t?.emulator.close();
  t = undefined;
  await removeMadeDirs();
});

/** One playbook of `n` rules: 1 + n creates after the reads. */
function playbook(n: number): string {
  const rules = Array.from({ length: n }, (_, i) => `  - name: Rule ${i + 1}\n    actions: ACCEPT ${i + 1}\n`).join('');
  return `kind: Playbook\nname: Paced\nrules:\n${rules}`;
}

describe('--max-rps', () => {
  it('keeps an apply under a quota it knows: no request refused', async () => {
    // 10 requests a second (a burst of 10); paced at 8 a second from the first request.
    t = await startTestEmulator({ rateLimit: 10 });
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nmax_rps: 8\n', 'nda.yaml': playbook(16) });
    const apply = await runCli(['apply', '-C', dir, '--auto-approve', '-q'], { env: t.env });
    expect(apply.code).toBe(0);
    expect(t.emulator.stats().requests.total).toBeGreaterThan(10);
    expect(t.emulator.stats().rate_limited).toBe(0);
    expect((await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env: t.env })).code).toBe(0);
  });

  it('without it, the same apply meets the quota and slows down by itself, and still converges', async () => {
    // A quota far below what docket sends at once: some requests are refused, then paced.
    t = await startTestEmulator({ rateLimit: 5 });
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'nda.yaml': playbook(8) });
    const apply = await runCli(['apply', '-C', dir, '--auto-approve', '-v'], { env: t.env });
    expect(apply.code).toBe(0);
    expect(t.emulator.stats().rate_limited).toBeGreaterThan(0);
    expect(apply.stderr).toContain('the review service is rate limiting');
    expect((await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env: t.env })).code).toBe(0);
  });

  it('refuses a value that is not a positive number, before any request', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': 'version: 1\nmax_rps: 0\n', 'nda.yaml': playbook(1) });
    const plan = await runCli(['plan', '-C', dir], { env: t.env });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/docket\.yaml:2:10 error invalid-value `max_rps` must be greater than 0 \(got 0\)/);
    const flag = await runCli(['plan', '-C', dir, '--max-rps', 'lots'], { env: t.env });
    expect(flag.code).toBe(1);
    expect(flag.stderr).toContain('Error: --max-rps: ');
    expect(t.emulator.stats().requests.total).toBe(0);
  });
});
