/**
 * Waits are bounded and say why: a server that trickles its answer, one that never answers, and
 * one that asks to wait an hour all end within the command's budget with a clear message; a
 * malformed answer is a typed error naming the endpoint.
 */
import { mkdir, readdir, symlink, utimes, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { execFileSync, spawn } from 'node:child_process';
import { join } from 'node:path';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { bin, expectConverged, reviewOf, spawnBin, waitUntil } from './harness.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

const config = () => makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Inbound NDA\n' });

describe('bounded waits', () => {
  it('a reader of stdout that takes the plan slowly does not use up the apply\'s --timeout', async () => {
    t = await startTestEmulator();
    // Plan text of about 1.5 MB: more than a pipe and docket's 1 MB of pacing hold, so printing waits
    // for the reader. In 30 long rules, not 150 short ones: the creates themselves must end well
    // within the budget on a busy two-core machine, or the test measures that instead.
    const actions = 'Accept only what the standard allows. '.repeat(1400);
    const rules = Array.from({ length: 30 }, (_, i) => `  - name: Rule ${i}\n    actions: ${actions}\n`).join('');
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': `kind: Playbook\nname: Inbound NDA\nrules:\n${rules}` });
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--timeout', '3s'], t.env);
    run.child.stdout!.pause();
    await new Promise((r) => setTimeout(r, 4500));
    run.child.stdout!.resume();
    expect([await run.exited, run.stderr()]).toEqual([0, '']);
    expect(run.stdout()).toContain('Apply complete: 31 done.');
    expect((await bin(t)('plan', '-C', dir, '--detailed-exitcode')).code).toBe(0);
  });

  it('a budget spent at the pace --max-rps allows leaves the changes after it not started, not failed unsent (probe EN)', async () => {
    t = await startTestEmulator();
    const rules = Array.from({ length: 40 }, (_, i) => `  - name: Rule ${i}\n    actions: A\n`).join('');
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': `kind: Playbook\nname: Inbound NDA\nrules:\n${rules}` });
    const apply = await bin(t)('apply', '-C', dir, '--auto-approve', '--max-rps', '5', '--timeout', '2s');
    expect(apply.code).toBe(1);
    const summary = /Apply stopped \(.*\): (\d+) done, (\d+) failed, (\d+) skipped, (\d+) not started\./.exec(apply.stdout);
    expect(summary).not.toBeNull();
    const [done, failed, , notStarted] = summary!.slice(1).map(Number);
    // At most the changes under way when it ran out (--concurrency 8) fail unsent; the rest were never started.
    expect(failed).toBeLessThanOrEqual(8);
    expect(notStarted).toBeGreaterThan(15);
    expect(done! + failed! + notStarted!).toBe(41);
    expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await expectConverged(bin(t), dir);
  });

  it('a read whose turn the pace puts past the budget, behind others queued for it, fails at once saying when it comes (probe GQ)', async () => {
    t = await startTestEmulator();
    const playbook = (i: number) => `kind: Playbook\nname: P${i}\nrules:\n  - name: R\n    actions: ACCEPT x\n`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p1.yaml': playbook(1), 'playbooks/p2.yaml': playbook(2), 'playbooks/p3.yaml': playbook(3) });
    expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    // At 0.05 a second the three rule lists start at about 40, 60 and 80 s: each past a 30 s budget.
    const plan = await bin(t)('plan', '-C', dir, '--max-rps', '0.05', '--timeout', '30s');
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/list rules: not sent: its turn comes in [4-8]0 s \(at most 0\.05 requests a second, as --max-rps or docket.yaml's max_rps sets/);
    expect(plan.stderr).not.toContain('ran out');
  });

  it('a server that trickles its answer one byte a second ends within --timeout, saying so', async () => {
    t = await startTestEmulator();
    const dir = await config();
    t.emulator.faults.add({ method: 'GET', path_pattern: '/playbooks', status: 'trickle', delay_ms: 1000, count: 10 });
    // The budget, not the test's own timeout, ends it: the message names it.
    const plan = await bin(t)('plan', '-C', dir, '--timeout', '3s');
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/list playbooks: .*time budget|no complete answer within 3 s/);
    expect(plan.stderr).toContain('--timeout');
  });

  it('a server that never answers ends within --timeout', async () => {
    t = await startTestEmulator();
    const dir = await config();
    t.emulator.faults.add({ method: 'GET', path_pattern: '/playbooks', status: 'silent', count: 10 });
    const plan = await bin(t)('plan', '-C', dir, '--timeout', '2s');
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('--timeout');
    expect(plan.stderr).not.toMatch(/Internal error|    at /);
  });

  it('Retry-After beyond the budget fails at once, naming the wait', async () => {
    t = await startTestEmulator();
    const dir = await config();
    t.emulator.faults.add({ method: 'GET', path_pattern: '/playbooks', status: 429, retry_after: 3600 });
    const plan = await bin(t)('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toMatch(/list playbooks: the review service answered HTTP 429 and asked to wait 3600 s \(Retry-After\), longer than the 1\d\d s left of this command's time budget/);
  });

  it('duplicate checks the budget leaves no time for stop the apply (exit 1), never "Apply complete"', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Inbound NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n' });
    // The rule list is read only by the check after the creates; its wait is past the budget.
    t.emulator.faults.add({ method: 'GET', path_pattern: '/playbook_rules', status: 429, retry_after: 600 });
    const apply = await bin(t)('apply', '-C', dir, '--auto-approve', '--timeout', '60s');
    expect(apply.code).toBe(1);
    expect(apply.stdout).not.toContain('Apply complete');
    // With most of the budget left, the wait the service asked for is what is said, not that no time was left (probe OG-2).
    expect(apply.stdout).toContain('Apply stopped (the checks for duplicates at the end wait past its time budget: their turn comes in 600 s (the service asked to wait that long, Retry-After)): every change was made; the checks for duplicates at the end were cut short.');
    expect(apply.stderr).toContain('every change was made; docket plan shows any duplicate a concurrent apply made that the checks did not look for (give the next apply more time with --timeout)');
    expect(apply.stdout).toContain('could not check for a duplicate created by a concurrent apply');
    t.emulator.faults.clear();
    await expectConverged(bin(t), dir);
  });

  it('with a change that failed as well, the stopped apply does not say every change was made (probe FZ)', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Inbound NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n' });
    // The rule create waits past the budget (it fails), and the checks after it wait on the same pause.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbook_rules', status: 429, retry_after: 3600, count: 1 });
    const apply = await bin(t)('apply', '-C', dir, '--auto-approve', '--timeout', '60s');
    expect(apply.code).toBe(1);
    expect(apply.stdout).toContain('✗ create rule "Inbound NDA/Term"');
    expect(apply.stdout).not.toContain('every change was made');
    expect(apply.stderr).not.toContain('every change was made');
    expect(apply.stderr).toMatch(/fix what each failure above names, then run docket apply -C \S+ again: it converges/);
    // Nor that its budget ran out, with nearly all of it left: a turn an hour away is past it (probe GK).
    expect(apply.stderr).toContain("apply stopped: the checks for duplicates at the end wait past its time budget: their turn comes in 3600 s (every request waits out a service's 429 pause)");
    expect(apply.stdout).not.toMatch(/left no time|ran out/);
    t.emulator.faults.clear();
    expect((await bin(t)('apply', '-C', dir, '--auto-approve')).stdout).toContain('Apply complete: 1 done.');
    await expectConverged(bin(t), dir);
  });

  it('a 429 pause past the budget stops the changes after it, saying when their turn comes rather than that the budget ran out (probe GK)', async () => {
    t = await startTestEmulator();
    const rules = Array.from({ length: 4 }, (_, i) => `  - name: Rule ${i}\n    actions: ACCEPT\n`).join('');
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': `kind: Playbook\nname: Inbound NDA\nrules:\n${rules}` });
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbook_rules', status: 429, retry_after: 3600, count: 1 });
    const apply = await bin(t)('apply', '-C', dir, '--auto-approve', '--concurrency', '1');
    expect(apply.code).toBe(1);
    expect(apply.stdout).toMatch(/Apply stopped \(the next request waits past its time budget of 10m: its turn comes in 3600 s \(every request waits out a service's 429 pause\); raise it with --timeout, or try again later\): 1 done, 2 failed, 0 skipped, 2 not started\./);
    expect(apply.stdout).not.toContain('ran out');
    t.emulator.faults.clear();
    expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await expectConverged(bin(t), dir);

    // Requests already queued for the pace (--max-rps) when the pause came fail at once too, not
    // at the end of the budget, waited out in the queue (probe GO).
    await writeFile(join(dir, 'playbooks/nda.yaml'), `kind: Playbook\nname: Inbound NDA\nrules:\n${rules}  - name: New A\n    actions: ACCEPT\n  - name: New B\n    actions: ACCEPT\n`);
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbook_rules', status: 429, retry_after: 3600, count: 1 });
    const paced = await bin(t)('apply', '-C', dir, '--auto-approve', '--max-rps', '5', '--timeout', '15s');
    expect(paced.code).toBe(1);
    expect(paced.stdout).toContain("Apply stopped (the next request waits past its time budget of 15s: its turn comes in 3600 s (every request waits out a service's 429 pause)");
    expect(paced.stdout).not.toContain('ran out');
    t.emulator.faults.clear();
    expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await expectConverged(bin(t), dir);
  });
});

describe('malformed answers', () => {
  it('an invitation answered with another member\'s user id: the new member is found by e-mail, and its rule names it, not the other', async () => {
    t = await startTestEmulator();
    const member = (email: string) => `kind: Member\nemail: ${email}\n`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'members.yaml': member('m1@acme.example') });
    expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    const m1 = t.emulator.store.userByEmail('m1@acme.example')!;
    await writeFile(join(dir, 'members.yaml'), `${member('m1@acme.example')}---\n${member('m2@acme.example')}`);
    await writeFile(join(dir, 'p.yaml'), 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT\n    reviewer: m2@acme.example\n');
    const body = { data: { id: 'inv-mixed-up', type: 'invitations', attributes: { email: 'm2@acme.example' }, relationships: { user: { data: { id: m1.id, type: 'users' } } } } };
    t.emulator.faults.add({ method: 'POST', path_pattern: '/invitations', status: 'malformed', body });
    const applied = await bin(t)('apply', '-C', dir, '--auto-approve');
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    const m2 = t.emulator.store.userByEmail('m2@acme.example')!;
    expect(Object.values(reviewOf(t).rules).find((r) => r.name === 'R')!.reviewer_id).toBe(m2.id);
    await expectConverged(bin(t), dir);
  });

  it('a playbook create answered with the id of a playbook live before (under the name sent) is found by name: its rules go into it, not into the other', async () => {
    t = await startTestEmulator();
    const playbook = (name: string, rule: string) => `kind: Playbook\nname: ${name}\nrules:\n  - name: ${rule}\n    actions: ACCEPT\n`;
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/msa.yaml': playbook('Vendor MSA', 'Cap') });
    expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    const msa = Object.values(reviewOf(t).playbooks).find((p) => p.name === 'Vendor MSA')!;
    await writeFile(join(dir, 'playbooks/two.yaml'), playbook('Probe Two', 'P2 rule'));
    // The create is made; its answer names the other playbook's id (a gateway's mix-up).
    t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'malformed', body: { data: { id: msa.id, type: 'playbooks', attributes: { name: 'Probe Two' } } } });
    const applied = await bin(t)('apply', '-C', dir, '--auto-approve');
    expect([applied.code, applied.stdout]).toEqual([0, expect.stringContaining('Apply complete: 2 done.')]);
    const rulesOf = (id: string) => Object.values(reviewOf(t).rules).filter((r) => r.playbook_id === id).map((r) => r.name);
    const two = Object.values(reviewOf(t).playbooks).find((p) => p.name === 'Probe Two')!;
    expect([rulesOf(msa.id), rulesOf(two.id)]).toEqual([['Cap'], ['P2 rule']]);
    await expectConverged(bin(t), dir);
  });

  for (const [what, body, problem] of [
    ['an item without attributes', { data: [{ id: 'p1', type: 'playbook' }] }, 'item 0 of "data" (id p1) has no "attributes" object'],
    ['items that are not objects', { data: [null, 42] }, 'item 0 of "data" is not an object (null)'],
    // Without its name the playbook would look absent, and apply would create a second one.
    ['an item without its name', { data: [{ id: 'p1', type: 'playbook', attributes: { description: 'NDAs' } }] }, 'item 0 of "data" (id p1) has no "name" (missing)'],
  ] as const) {
    it(`${what} is a bad-response error naming the service, method, path and item`, async () => {
      t = await startTestEmulator();
      const dir = await config();
      t.emulator.faults.add({ method: 'GET', path_pattern: '/playbooks', status: 'malformed', body });
      const plan = await bin(t)('plan', '-C', dir);
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain(`Error: list playbooks: review service GET /v1/organizations/00000000-0000-4000-8000-000000000001/playbooks answered with a malformed list: ${problem}`);
      expect(plan.stderr).not.toMatch(/Internal error|TypeError|    at /);
    });
  }

  it('a text field answered as a mapping, a list or a boolean is a bad-response error, never text like "[object Object]" that pull would write and apply send', async () => {
    t = await startTestEmulator();
    const dir = await config();
    for (const [description, said] of [[{ a: { b: 1 } }, 'a mapping'], [['a', 'b'], 'a list'], [true, 'true']] as const) {
      t.emulator.faults.add({ method: 'GET', path_pattern: '/playbooks', status: 'malformed', body: { data: [{ id: 'p1', type: 'playbook', attributes: { name: 'Inbound NDA', description } }] } });
      const plan = await bin(t)('plan', '-C', dir);
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain(`Error: reading playbooks: the review service answered with a value docket cannot read (\`description\` is ${said}, not text)`);
      expect(plan.stdout).not.toContain('[object Object]');
    }
  });

  it('a read of one object that answers no "data" is a bad-response error naming the read', async () => {
    t = await startTestEmulator();
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'organization.yaml': 'kind: Organization\nreview:\n  name: Acme Legal\n' });
    t.emulator.faults.add({ method: 'GET', path_pattern: '/review/v1/organizations/:org', status: 'malformed', body: { meta: {} } });
    const plan = await bin(t)('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('Error: read organization: review service GET /v1/organizations/00000000-0000-4000-8000-000000000001 answered with a malformed body: it has no "data"');
    expect(plan.stderr).not.toMatch(/cannot read|TypeError|    at /);
  });
});

describe('one apply per checkout at a time (.docket/apply.lock)', () => {
  it('a second apply refuses at once, naming the holder; with --lock-timeout it waits', async () => {
    t = await startTestEmulator();
    const dir = await config();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/playbooks', status: 'hang' });
    const first = spawnBin(['apply', '-C', dir, '--auto-approve'], t.env);
    await waitUntil(() => Object.keys(reviewOf(t).playbooks).length === 1, 'the first apply to create');
    const b = bin(t);
    const refused = await b('apply', '-C', dir, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`another docket apply holds ${join(dir, '.docket', 'apply.lock')} (pid ${first.child.pid} on ${hostname()}`);
    expect(refused.stderr).toContain('--lock-timeout');

    const waited = await b('apply', '-C', dir, '--auto-approve', '--lock-timeout', '1s');
    expect(waited.code).toBe(1);
    expect(waited.stderr).toContain('still after waiting 1s');
    // Told to wait longer than it did, not the first wait again (probe RT-1).
    expect(waited.stderr).toContain('pass a --lock-timeout longer than 1s to wait for it');
    expect(waited.stderr).not.toContain('--lock-timeout 5m');
    first.child.kill('SIGKILL');
    await first.exited;
  });

  it('a lock left by a killed apply is taken over', async () => {
    t = await startTestEmulator();
    const dir = await config();
    await mkdir(join(dir, '.docket'), { recursive: true });
    await writeFile(join(dir, '.docket', 'apply.lock'), JSON.stringify({ pid: 2 ** 22 + 12345, host: hostname(), started: '2026-01-01T00:00:00.000Z' }));
    const applied = await bin(t)('apply', '-C', dir, '--auto-approve');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
  });

  it.runIf(process.platform === 'linux')('a lock whose pid another process took since (another start than the lock records) is taken over, also when it is this one', async () => {
    t = await startTestEmulator();
    const dir = await config();
    await mkdir(join(dir, '.docket'), { recursive: true });
    const ticksOf = (pid: number): number => {
      const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    };
    // The folder again each time: a released lock takes it with it, left empty.
    const lock = async (pid: number, ticks: number) => {
      await mkdir(join(dir, '.docket'), { recursive: true });
      await writeFile(join(dir, '.docket', 'apply.lock'), JSON.stringify({ pid, host: hostname(), started: new Date().toISOString(), start_ticks: ticks }));
    };
    // A process that runs now, under the pid of an apply that started at another time (a reboot, a restarted container).
    const other = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      await lock(other.pid!, ticksOf(other.pid!) - 1000);
      const applied = await bin(t)('apply', '-C', dir, '--auto-approve');
      expect([applied.code, applied.stderr]).toEqual([0, '']);
      // The process the lock records (its start matches): refused, as a live holder is.
      await lock(other.pid!, ticksOf(other.pid!));
      const refused = await bin(t)('apply', '-C', dir, '--auto-approve');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`another docket apply holds ${join(dir, '.docket', 'apply.lock')} (pid ${other.pid}`);
      // This very process's pid, recorded with another start (a restarted container gives docket the same pid): not its own.
      await lock(process.pid, ticksOf(process.pid) - 1000);
      expect((await bin(t)('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('a lock left half-written is taken over; one that may be being written is refused at once, not waited on for ever', async () => {
    t = await startTestEmulator();
    const dir = await config();
    const lock = join(dir, '.docket', 'apply.lock');
    await mkdir(join(dir, '.docket'), { recursive: true });
    await writeFile(lock, '');
    // Written "now" however long the process takes to start on a busy machine (the grace is 2 s).
    const soon = new Date(Date.now() + 30_000);
    await utimes(lock, soon, soon);
    // A process of its own, killed if it hangs: the lock loop once spun on an unreadable lock for ever.
    const fresh = spawnBin(['apply', '-C', dir, '--auto-approve'], t.env);
    const hung = setTimeout(() => fresh.child.kill('SIGKILL'), 10_000);
    expect(await fresh.exited).toBe(1);
    clearTimeout(hung);
    expect(fresh.stderr()).toContain('(a process docket cannot identify: the file is being written, or was left half-written)');
    expect(Object.keys(reviewOf(t).playbooks)).toEqual([]);

    await writeFile(lock, '{"pid": 12');
    const minuteAgo = new Date(Date.now() - 60_000);
    await utimes(lock, minuteAgo, minuteAgo);
    const b = bin(t);
    const applied = await b('apply', '-C', dir, '--auto-approve');
    expect(applied.stderr).toBe('');
    expect(applied.code).toBe(0);
    expect(existsSync(lock)).toBe(false);
    expect((await b('plan', '-C', dir, '--detailed-exitcode')).code).toBe(0);
  });

  it('a file where .docket goes, or a folder or a named pipe where the lock goes, is a plain error that changes nothing, not a crash', async () => {
    t = await startTestEmulator();
    const b = bin(t);
    const fileInTheWay = await config();
    await writeFile(join(fileInTheWay, '.docket'), 'notes\n');
    const refused = await b('apply', '-C', fileInTheWay, '--auto-approve');
    expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(`Error: cannot create the apply lock ${join(fileInTheWay, '.docket', 'apply.lock')}: ${join(fileInTheWay, '.docket')} is not a folder`)]);
    expect(refused.stderr).not.toMatch(/bug in docket|\n\s+at /);
    // A link to nothing is in the way as well.
    const linkInTheWay = await config();
    await symlink('gone', join(linkInTheWay, '.docket'));
    expect((await b('apply', '-C', linkInTheWay, '--auto-approve')).stderr).toContain(`${join(linkInTheWay, '.docket')} is a symbolic link to nothing`);
    // A link out of the configuration: nothing is written where it leads, by apply or pull (probe LU-3).
    const linkedOut = await config();
    const elsewhere = await makeDir({});
    await symlink(elsewhere, join(linkedOut, '.docket'));
    for (const command of [['apply', '--auto-approve'], ['pull']]) {
      const out = await b(command[0]!, '-C', linkedOut, ...command.slice(1));
      expect([out.code, out.stderr], command[0]).toEqual([1, expect.stringContaining(`.docket is a link to "${elsewhere}", which is outside the configuration directory; docket keeps its apply lock and the temporary copies of the files it writes there`)]);
    }
    expect(await readdir(elsewhere)).toEqual([]);

    const folderInTheWay = await config();
    await mkdir(join(folderInTheWay, '.docket', 'apply.lock'), { recursive: true });
    const old = new Date(Date.now() - 60_000);
    await utimes(join(folderInTheWay, '.docket', 'apply.lock'), old, old);
    const asJson = await b('apply', '-C', folderInTheWay, '--auto-approve', '-o', 'json');
    expect(JSON.parse(asJson.stdout).error.code).toBe('apply-lock-unusable');
    for (const run of [await b('apply', '-C', folderInTheWay, '--auto-approve'), asJson]) {
      expect(run.code).toBe(1);
      expect(run.stdout + run.stderr).toMatch(/apply-lock-unusable|apply\.lock is not a file/);
      expect(run.stdout + run.stderr).not.toMatch(/bug in docket|EISDIR/);
    }
    expect(existsSync(join(folderInTheWay, '.docket', 'apply.lock'))).toBe(true);

    // A named pipe is not read (that would wait for a writer for ever).
    const pipeInTheWay = await config();
    await mkdir(join(pipeInTheWay, '.docket'), { recursive: true });
    execFileSync('mkfifo', [join(pipeInTheWay, '.docket', 'apply.lock')]);
    const piped = spawnBin(['apply', '-C', pipeInTheWay, '--auto-approve'], t.env);
    const hung = setTimeout(() => piped.child.kill('SIGKILL'), 10_000);
    expect([await piped.exited, piped.stderr()]).toEqual([1, expect.stringContaining('apply.lock is not a file')]);
    clearTimeout(hung);

    // Nor is a lock that is a link to nothing taken for released, and tried again for ever.
    const danglingLock = await config();
    await mkdir(join(danglingLock, '.docket'), { recursive: true });
    await symlink('gone', join(danglingLock, '.docket', 'apply.lock'));
    const dangling = spawnBin(['apply', '-C', danglingLock, '--auto-approve'], t.env);
    const spun = setTimeout(() => dangling.child.kill('SIGKILL'), 10_000);
    expect([await dangling.exited, dangling.stderr()]).toEqual([1, expect.stringContaining('apply.lock is a symbolic link to nothing')]);
    clearTimeout(spun);
    expect(Object.keys(reviewOf(t).playbooks)).toEqual([]);

    // The in-process emulator's sync records as a named pipe: refused before anything is done, not
    // written to at the end (which waited for a reader for ever, past every signal).
    const pipedSync = await config();
    await mkdir(join(pipedSync, '.docket'), { recursive: true });
    execFileSync('mkfifo', [join(pipedSync, '.docket', 'emulator-sync.json')]);
    const emulated = spawnBin(['apply', '-C', pipedSync, '--emulator', '--auto-approve'], t.env);
    const stuck = setTimeout(() => emulated.child.kill('SIGKILL'), 10_000);
    expect([await emulated.exited, emulated.stderr()]).toEqual([1, expect.stringContaining('.docket/emulator-sync.json:1:1 error invalid-lock-file .docket/emulator-sync.json is not a regular file (a named pipe or a device)')]);
    clearTimeout(stuck);
    expect(existsSync(join(pipedSync, '.docket', 'emulator.json'))).toBe(false);
  });
});
