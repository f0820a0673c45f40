/**
 * `docket test` against a standalone emulator when the service loses answers or never gives one:
 * what the run made is still archived or voided, and nothing is asked for (and billed) twice.
 * Apart from test-command-live.test.ts so that the two run side by side.
 */
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { runCli } from '../helpers/cli.js';
import { App } from '../helpers/app.js';
import { scratchDescription } from '../../src/testing/scratch.js';
import { copyExample, removeMadeDirs } from '../helpers/tmpdir.js';
import { reviewingEmulatorForFile, scratch } from '../helpers/test-runs.js';

const NDA = 'playbook/Inbound NDA';

afterAll(removeMadeDirs);

const example = copyExample;

describe('docket test when answers are lost', () => {
  const { emu, org } = reviewingEmulatorForFile();

  it('a create that never gets its answer (a hang, then the time budget) still has its scratch playbook archived and its test agreement voided by the run', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const faults = `${emu().emulator.url}/_emulator/faults`;
    const run = (target: string) => runCli(['test', '-C', dir, '--target', target, '--no-cache', '--timeout', '2s'], { env: emu().env });
    try {
      const active = () => scratch(org()).filter((p) => p.archived_at === null).length;
      const activeBefore = active();
      await fetch(faults, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'hang', count: 1 }) });
      const review = await run(NDA);
      expect(review.code).toBe(1);
      expect(active()).toBe(activeBefore);

      // Other tests of this file leave drafts of other runs: none may be added.
      const drafts = () => Object.entries(org().agreements.agreements).filter(([, a]) => a.status === 'draft' && a.test_agreement).map(([id]) => id);
      const before = drafts();
      await fetch(faults, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/agreements/v1/agreements', status: 'hang', count: 1 }) });
      const template = await run('template/Mutual NDA');
      expect(template.code).toBe(1);
      expect(template.stdout).toMatch(/voided 1 draft test agreement\(s\) this run made without hearing back/);
      expect(drafts()).toEqual(before);
    } finally {
      await fetch(faults, { method: 'DELETE' });
    }
  });

  it('a void whose answer was lost and whose retry is refused as voided already counts as done: no note to void it in the app (probe FD)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const faults = `${emu().emulator.url}/_emulator/faults`;
    await fetch(faults, { method: 'POST', body: JSON.stringify({ method: 'PATCH', path_pattern: '/agreements/v1/agreements/:id/void', status: 'drop', count: 1 }) });
    try {
      const r = await runCli(['test', '-C', dir, '--target', 'template/Mutual NDA', '--no-cache'], { env: emu().env });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('could not void');
      expect(Object.values(org().agreements.agreements).filter((a) => a.status === 'draft' && a.test_agreement)).toEqual([]);
    } finally {
      await fetch(faults, { method: 'DELETE' });
    }
  });

  it("a scratch playbook whose answer was lost is found by its run, not taken for a concurrent run's of the same name", async () => {
    const dir = await example();
    expect((await runCli(['test', '-C', dir, '--target', NDA, '--no-cache'], { env: emu().env })).code).toBe(0);
    const name = scratch(org()).at(-1)!.name;
    // Another run, testing the same playbook at the same time, holds a scratch playbook of that name.
    const other = await new App(emu().env).createPlaybook({ name, description: scratchDescription({ pid: process.pid, host: hostname(), until: new Date(Date.now() + 3_600_000) }) });
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'drop', count: 1 }) });
    try {
      const r = await runCli(['test', '-C', dir, '--target', NDA, '--no-cache'], { env: emu().env });
      expect(r.code).toBe(0);
      expect(org().playbooks[other]!.archived_at).toBeNull();
      expect(scratch(org()).filter((p) => p.archived_at === null).map((p) => p.name)).toEqual([name]);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
    await new App(emu().env).archivePlaybook(name);
  });

  it('a review whose answer was lost is found among the reviews, not asked for (and billed) twice', async () => {
    const dir = await example();
    const reviews = () => Object.keys(org().reviews).length;
    let before = reviews();
    expect((await runCli(['test', '-C', dir, '--target', NDA, '--no-cache'], { env: emu().env })).code).toBe(0);
    const perRun = reviews() - before;
    before = reviews();
    // The service makes the first review, then closes the connection without answering.
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/reviews', status: 'drop', count: 1 }) });
    try {
      const r = await runCli(['test', '-C', dir, '--target', NDA, '--no-cache'], { env: emu().env });
      expect(r.code).toBe(0);
      expect(reviews() - before).toBe(perRun);
      expect(emu().emulator.stats().faults_injected).toBeGreaterThan(0);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
  });

  it('against a service that answers a review create with 204 (no body), a contract reviewed twice at once passes: its creates go one at a time and each is found', async () => {
    const dir = await example();
    await writeFile(
      join(dir, 'tests/twice.test.yaml'),
      'kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - name: standard, twice\n    contract: { file: fixtures/nda-standard.docx }\n    review_type: SummaryReview\n    repeat: 2\n    expect:\n      flags: { excludes: [Term], count: { max: 0 } }\n  - name: standard, redlined\n    contract: { file: fixtures/nda-standard.docx }\n    review_type: RedlineReview\n    expect:\n      flags: { count: { max: 50 } }\n',
    );
    const config = `${emu().emulator.url}/_emulator/config`;
    const reviews = () => Object.keys(org().reviews).length;
    const before = reviews();
    await fetch(config, { method: 'PUT', body: JSON.stringify({ variants: { create_status: 204 } }) });
    try {
      const r = await runCli(['test', '-C', dir, 'tests/twice.test.yaml', '--no-cache'], { env: emu().env });
      expect([r.code, r.stdout], r.stderr).toEqual([0, expect.stringContaining('PASS  standard, redlined')]);
      expect(r.stdout).toContain('PASS  standard, twice');
      // Three reviews: none lost, none asked for twice.
      expect(reviews() - before).toBe(3);
    } finally {
      await fetch(config, { method: 'PUT', body: JSON.stringify({ variants: { create_status: 201 } }) });
    }
  });

  it('asks for no review of a contract whose turn comes after Ctrl-C: creates of one playbook and contract wait their turn, and none is asked for once the run stops', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/thrice.test.yaml'), 'kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - name: standard, thrice\n    contract: { file: fixtures/nda-standard.docx }\n    review_type: SummaryReview\n    repeat: 3\n    expect:\n      flags: { count: { max: 0 } }\n');
    const posts = () => emu().emulator.stats().requests.by_route['POST /review/v1/organizations/:org/reviews'] ?? 0;
    // The first create's answer comes slowly: the other two wait their turn meanwhile.
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/reviews', status: 'trickle', delay_ms: 2, count: 1 }) });
    try {
      const child = spawn(process.execPath, [BIN, 'test', '-C', dir, 'tests/thrice.test.yaml', '--no-cache'], { env: { PATH: process.env.PATH ?? '', ...emu().env }, stdio: ['ignore', 'pipe', 'pipe'] });
      const exit = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
      const before = posts();
      for (let i = 0; i < 400 && posts() === before; i++) await new Promise((r) => setTimeout(r, 25));
      child.kill('SIGINT');
      const atSignal = posts();
      expect(await exit).toBe(130);
      expect(posts() - atSignal).toBe(0);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
  });

  it('a test agreement whose create got no clear answer is found among the drafts (a lost answer) or sent again (a 500), never made twice', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: emu().env })).code).toBe(0);
    const made = () => Object.values(org().agreements.agreements).filter((a) => a.test_agreement).length;
    for (const status of ['drop', 500]) {
      const before = made();
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/agreements/v1/agreements', status, count: 1 }) });
      try {
        const r = await runCli(['test', '-C', dir, '--target', 'template/Mutual NDA', '--no-cache'], { env: emu().env });
        expect([r.code, r.stdout], String(status)).toEqual([0, expect.stringContaining('PASS')]);
        // One agreement, for the case the template accepts, as a run without the fault makes.
        expect(made() - before, String(status)).toBe(1);
      } finally {
        await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
      }
    }
    // A 500 whose look-up for the draft fails too: the case says what docket test does about it, not plan's and apply's words (probe JB-2).
    const faults = `${emu().emulator.url}/_emulator/faults`;
    await fetch(faults, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/agreements/v1/agreements', status: 500, count: 1 }) });
    // Refused outright, not a 503 whose retries would be waited out (16 s of the suite's time).
    await fetch(faults, { method: 'POST', body: JSON.stringify({ method: 'GET', path_pattern: '/agreements/v1/agreements', status: 403, count: 20 }) });
    try {
      const r = await runCli(['test', '-C', dir, '--target', 'template/Mutual NDA', '--no-cache'], { env: emu().env });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('hint: the draft may have been made: this run voids the drafts whose create got no answer');
      expect(r.stdout).not.toMatch(/docket plan|docket apply|next plan/);
      // The client's word on the next run is left out of the draft's message: its hint says what to do (second read SR88-1).
      expect(r.stdout).not.toContain('makes it again if it has no record of it');
    } finally {
      await fetch(faults, { method: 'DELETE' });
    }
    // The runs changed nothing a plan manages.
    const replan = await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env: emu().env });
    expect([replan.code, replan.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
  }, 90_000);

  it('a case with its own message whose draft got no answer says the draft is for a person to void: no mark tells it from another run\'s (probe MH-3)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: emu().env })).code).toBe(0);
    await writeFile(
      join(dir, 'tests', 'own-message.test.yaml'),
      'kind: TemplateTest\ntemplate: Mutual NDA\ncases:\n  - name: custom message\n    values: { recipient_name: Globex Corporation, recipient_email: legal@globex.example, governing_law_country: Germany, message: please sign }\n    expect: accepted\n',
    );
    const faults = `${emu().emulator.url}/_emulator/faults`;
    await fetch(faults, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/agreements/v1/agreements', status: 'drop', count: 1 }) });
    try {
      const r = await runCli(['test', '-C', dir, 'tests/own-message.test.yaml', '--no-cache'], { env: emu().env });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain("with the case's own `message` docket cannot tell it from another's draft, so it voids none: look for it in the app and void it");
      expect(r.stdout).not.toContain('this run voids the drafts');
    } finally {
      await fetch(faults, { method: 'DELETE' });
    }
  }, 60_000);

  it('ends as the signal\'s (exit 130, code interrupted) when Ctrl-C comes while it still reads the playbooks, before any case runs', async () => {
    const dir = await example();
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'GET', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'hang', count: 1 }) });
    try {
      // Other tests of this file read the playbooks too: the hung read is the one after these.
      const hung = () => emu().emulator.stats().requests.by_route['GET /review/v1/organizations/:org/playbooks'] ?? 0;
      const before = hung();
      const bin = fileURLToPath(new URL('../../bin/docket.js', import.meta.url));
      const child = spawn(process.execPath, [bin, 'test', '-C', dir, '--target', NDA, '--no-cache', '--timeout', '3s', '-o', 'json'], { env: { PATH: process.env.PATH ?? '', ...emu().env }, stdio: ['ignore', 'pipe', 'ignore'] });
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
      const exit = new Promise<number | null>((res) => child.on('close', (code) => res(code)));
      for (let i = 0; i < 400 && hung() === before; i++) await new Promise((r) => setTimeout(r, 25));
      expect(hung()).toBe(before + 1);
      child.kill('SIGINT');
      expect(await exit).toBe(130);
      expect(JSON.parse(out).error).toMatchObject({ code: 'interrupted', exit_code: 130, message: expect.stringMatching(/^docket test interrupted by SIGINT: list playbooks/) });
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
  });

  it('says what to do about a case the service refused, as the error says (the key a 403 names)', async () => {
    const dir = await example();
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/review/v1/organizations/:org/reviews', status: 403, count: 100 }) });
    try {
      const r = await runCli(['test', '-C', dir, '--target', NDA, '--no-cache'], { env: emu().env });
      expect(r.code).toBe(1);
      expect(r.stdout).toMatch(/ERROR a standard NDA raises no flag: .*HTTP 403.* \(hint: check DOCKET_API_KEY: the API key is not allowed to do this on the review service\)/);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
  });

  it('names in its JSON report the review a case asked for before it errored, for a person to look at', async () => {
    const dir = await example();
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'GET', path_pattern: '/review/v1/organizations/:org/reviews/:review', status: 404, count: 100 }) });
    try {
      const r = await runCli(['test', '-C', dir, '--target', NDA, '--no-cache', '-o', 'json'], { env: emu().env });
      expect(r.code).toBe(1);
      const cases = (JSON.parse(r.stdout) as { suites: { cases: { status: string; reason: string; evidence: string[] }[] }[] }).suites.flatMap((s) => s.cases);
      expect(cases.length).toBeGreaterThan(0);
      const reviews = Object.keys(org().reviews);
      for (const c of cases) {
        expect(c.status).toBe('error');
        expect(c.evidence.length).toBeGreaterThan(0);
        expect(reviews).toEqual(expect.arrayContaining(c.evidence));
      }
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
  });

  it('reports every case when the time budget runs out in a template suite\'s read of the templates: those cases ERROR, the rest as they ran (probe AA-1)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: emu().env })).code).toBe(0);
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'GET', path_pattern: '/agreements/v1/templates', status: 'hang', count: 100 }) });
    try {
      const r = await runCli(['test', '-C', dir, '--target', 'template/Mutual NDA', '--target', 'custom-template/Consulting Agreement', '--no-cache', '--timeout', '3s', '-o', 'json'], { env: emu().env });
      expect(r.code).toBe(1);
      const report = JSON.parse(r.stdout) as { error?: unknown; suites: { subject: string; cases: { name: string; status: string; message?: string }[] }[] };
      expect(report.error).toBeUndefined();
      const byCase = report.suites.flatMap((s) => s.cases.map((c) => [s.subject, c.status]));
      // The custom template's cases ran (its templates are another list); the standard one's each ERROR, none lost.
      expect(byCase.filter(([subject]) => subject === 'Mutual NDA')).toEqual([['Mutual NDA', 'error'], ['Mutual NDA', 'error']]);
      expect(byCase.filter(([subject]) => subject === 'Consulting Agreement').length).toBeGreaterThan(0);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
  });

  it('archives its scratch playbook also when the time budget runs out in a request the service never answers', async () => {
    const dir = await example();
    await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'POST', body: JSON.stringify({ method: 'GET', path_pattern: '/review/v1/organizations/:org/reviews/:review', status: 'hang', count: 100 }) });
    try {
      // Long enough to reach the review on a loaded machine (1s ran out before it there: probe KK-1); the hang spends the rest.
      const r = await runCli(['test', '-C', dir, '--target', NDA, '--no-cache', '--timeout', '3s'], { env: emu().env });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain('ERROR a standard NDA raises no flag');
      expect(r.stdout).not.toContain('could not archive');
      expect(scratch(org()).filter((p) => p.archived_at === null)).toEqual([]);
    } finally {
      await fetch(`${emu().emulator.url}/_emulator/faults`, { method: 'DELETE' });
    }
  });

  it('a repeated case one of whose reviews fails asks for no other, waits for those under way and keeps them: the next run asks only for the rest (probes FC-1, FC-2)', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/thrice.test.yaml'), 'kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - name: thrice\n    contract: { file: fixtures/nda-standard.docx }\n    review_type: SummaryReview\n    repeat: 3\n    expect: { flags: { count: { max: 0 } } }\n');
    const reviews = () => Object.keys(org().reviews).length;
    const faults = `${emu().emulator.url}/_emulator/faults`;
    await fetch(faults, { method: 'POST', body: JSON.stringify({ method: 'POST', path_pattern: '/review/v1/organizations/:org/reviews', status: 409, count: 1 }) });
    try {
      const before = reviews();
      const failed = await runCli(['test', '-C', dir, 'tests/thrice.test.yaml', '--no-cache', '--concurrency', '3'], { env: emu().env });
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('ERROR thrice');
      // The two creates sent beside the refused one were waited for: none is left to land after the run.
      expect(reviews() - before).toBe(2);
      expect(scratch(org()).filter((p) => p.archived_at === null)).toEqual([]);
      const replay = await runCli(['test', '-C', dir, 'tests/thrice.test.yaml', '--replay-only'], { env: emu().env });
      expect(replay.stdout).toContain('(2 of 3 runs recorded');
      const rest = await runCli(['test', '-C', dir, 'tests/thrice.test.yaml', '--concurrency', '3'], { env: emu().env });
      expect([rest.code, reviews() - before]).toEqual([0, 3]);
    } finally {
      await fetch(faults, { method: 'DELETE' });
    }
  });
});
