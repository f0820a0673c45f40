/**
 * A create docket stopped waiting for may land after the apply ended: the lock marks it, and a plan
 * or apply made at once (plain or of a saved plan) does not send it a second time (probe IH-2).
 */
import { readFileSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { agreementsOf, bin, expectConverged, reviewOf, spawnBin, waitUntil } from './harness.js';
import { AGREEMENTS_DOCKET_YAML, CUSTOM_TEMPLATE_YAML, DEFINITION, DOCX_TERM_YAML, TERM_MD, TERM_YAML, docx, pdf } from '../agreements-fixtures.js';
import { writeFile } from 'node:fs/promises';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

const lockOf = async (dir: string): Promise<{ landing?: Record<string, Record<string, string>> }> => JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { landing?: Record<string, Record<string, string>> };
const named = (name: string) => Object.values(reviewOf(t).playbooks).filter((p) => p.name === name);
/** Held past any budget or grace docket has; each test lets it land with `releaseHeld()` when it wants. */
const HELD_MS = 60_000;
const creates = () => t.emulator.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/playbooks')).length;

it('a create still landing after its apply gave up is not sent again by a plan, an apply or the saved plan made before it, until it lands', async () => {
  t = await startTestEmulator();
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Late NDA\n' });
  const planFile = join(dir, 'plan.json');
  expect((await run('plan', '-C', dir, '--out', planFile)).code).toBe(0);
  // Held past the apply's 1.5 s budget, so it ends before the create lands.
  t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'late', delay_ms: HELD_MS, count: 1 });
  const first = await run('apply', '-C', dir, planFile, '--timeout', '1500ms');
  expect(first.code).toBe(1);
  expect(first.stderr).toContain('wait a few minutes for what the service may still be carrying out');
  const marks = Object.values((await lockOf(dir)).landing ?? {});
  expect(marks.map((m) => Object.keys(m))).toEqual([['playbook:Late NDA']]);
  expect(Object.values(marks[0]!)[0]).toMatch(/^create \d{4}-\d\d-\d\dT/);

  // The saved plan still says create: applied again, it is stale, and sends nothing.
  const again = await run('apply', '-C', dir, planFile);
  expect(again.code).toBe(1);
  expect(again.stderr).toContain('playbook "Late NDA": a create an earlier apply stopped waiting for by ');
  expect(again.stderr).toContain('the plan would send it a second time');
  // A new plan, and a plain apply, stop at the file's line and send nothing.
  const plan = await run('plan', '-C', dir);
  expect(plan.code).toBe(1);
  expect(plan.stderr).toContain('playbooks/nda.yaml:1:1 error uncertain-create playbook "Late NDA"');
  expect(plan.stderr).toContain('so docket will not send it again yet');
  // As this run was made (second read SR82B-2).
  expect(plan.stderr).toMatch(/`docket apply -C \S+ --retry-uncertain` sends it again now/);
  const apply = await run('apply', '-C', dir, '--auto-approve');
  expect(apply.code).toBe(1);
  expect(apply.stderr).toContain('error uncertain-create');
  // --retry-uncertain is the person's choice to send it now: the plan shows the create, and says the risk.
  const retry = await run('plan', '-C', dir, '--retry-uncertain');
  expect(retry.code).toBe(0);
  expect(retry.stdout).toContain('--retry-uncertain: apply sends it again, and if the first request still lands, it is made twice');
  expect(named('Late NDA')).toHaveLength(0);
  expect(t.emulator.releaseHeld()).toBe(1);

  // Once it landed, nothing is left to do; the next apply forgets the mark.
  await waitUntil(() => named('Late NDA').length > 0, 'the late create');
  await expectConverged(run, dir);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect((await lockOf(dir)).landing).toBeUndefined();
  expect(named('Late NDA')).toHaveLength(1);
  expect(creates()).toBe(1);
});

it('a create still landing keeps its mark through an apply of files that dropped it: put back within ten minutes, it is not sent a second time (probe CB-1)', async () => {
  t = await startTestEmulator();
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/other.yaml': 'kind: Playbook\nname: Other\n' });
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const nda = 'kind: Playbook\nname: Late NDA\n';
  await writeFile(join(dir, 'playbooks/nda.yaml'), nda);
  t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'late', delay_ms: HELD_MS, count: 1 });
  expect((await run('apply', '-C', dir, '--auto-approve', '--timeout', '1500ms')).code).toBe(1);
  // A revert merged: the apply of files without it changes nothing, and keeps the mark.
  await rm(join(dir, 'playbooks/nda.yaml'));
  const reverted = await run('apply', '-C', dir, '--auto-approve');
  expect([reverted.code, reverted.stdout]).toEqual([0, expect.stringContaining('No changes')]);
  expect(Object.values((await lockOf(dir)).landing ?? {}).flatMap((m) => Object.keys(m))).toEqual(['playbook:Late NDA']);
  // Put back: not sent again while the first may land.
  await writeFile(join(dir, 'playbooks/nda.yaml'), nda);
  const back = await run('apply', '-C', dir, '--auto-approve');
  expect([back.code, back.stderr]).toEqual([1, expect.stringContaining('error uncertain-create playbook "Late NDA"')]);
  expect(t.emulator.releaseHeld()).toBe(1);
  await waitUntil(() => named('Late NDA').length > 0, 'the late create');
  await expectConverged(run, dir);
  expect(named('Late NDA')).toHaveLength(1);
  // Other's, and Late NDA's once.
  expect(creates()).toBe(2);
});

/** Playbook `name`'s create held by the service `delayMs` before it answers: the apply, once it is held (and `also` holds). */
async function applyWithHeldCreate(name: string, delayMs: number, opts: { status?: 'late' | 500 | 504; files?: Record<string, string>; before?: (dir: string) => Promise<void>; args?: string[]; also?: () => boolean } = {}) {
  t = await startTestEmulator();
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': `kind: Playbook\nname: ${name}\n`, ...opts.files });
  await opts.before?.(dir);
  t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: opts.status ?? 'late', delay_ms: delayMs, count: 1 });
  const apply = spawnBin(['apply', '-C', dir, '--auto-approve', ...(opts.args ?? [])], t.env);
  await waitUntil(() => t.emulator.stats().faults_injected > 0 && (opts.also?.() ?? true), 'the create to be held');
  return { run, dir, apply };
}

/** The `kind:key`s docket.lock.json marks landing. */
const markedKeys = async (dir: string): Promise<string[]> => keysMarked(await lockOf(dir));
const keysMarked = (lock: { landing?: Record<string, Record<string, string>> }): string[] => Object.values(lock.landing ?? {}).flatMap((m) => Object.keys(m));
/** As markedKeys, for a poll: none while the lock is not yet written. */
function markedKeysNow(dir: string): string[] {
  try {
    return keysMarked(JSON.parse(readFileSync(join(dir, 'docket.lock.json'), 'utf8')) as { landing?: Record<string, Record<string, string>> });
  } catch {
    return [];
  }
}

/** SIGTERM, taken, then SIGKILL `after` ms later: a runner's stop that sends no second signal. */
async function termThenKill(apply: ReturnType<typeof spawnBin>, after: number): Promise<void> {
  apply.child.kill('SIGTERM');
  await waitUntil(() => apply.stderr().includes('SIGTERM: stopping'), 'the first signal to be taken');
  await new Promise((r) => setTimeout(r, after));
  apply.child.kill('SIGKILL');
  await apply.exited;
}

it('a second signal, which ends the apply at once, leaves a landing mark for the create it cut off', async () => {
  const { run, dir, apply } = await applyWithHeldCreate('Cut NDA', HELD_MS);
  apply.child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 200));
  apply.child.kill('SIGINT');
  expect(await apply.exited).toBe(130);
  expect(await markedKeys(dir)).toEqual(['playbook:Cut NDA']);
  const plan = await run('plan', '-C', dir);
  expect(plan.code).toBe(1);
  expect(plan.stderr).toContain('error uncertain-create playbook "Cut NDA": a create an earlier apply stopped waiting for by ');
  t.emulator.releaseHeld();
  await waitUntil(() => named('Cut NDA').length > 0, 'the late create');
  await expectConverged(run, dir);
  expect(named('Cut NDA')).toHaveLength(1);
});

it('a second signal forgets the first one\'s mark of a create that ended unsent meanwhile (refused with a 429, its retry dropped): only the one cut off is marked (probe ML-1)', async () => {
  const { run, dir, apply } = await applyWithHeldCreate('Cut NDA', HELD_MS, {
    files: { 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Cut NDA\n---\nkind: Playbook\nname: Paused NDA\n' },
    before: async () => void t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 429, retry_after: 5, count: 1 }),
    also: () => t.emulator.stats().faults_injected >= 2,
  });
  apply.child.kill('SIGINT');
  await new Promise((r) => setTimeout(r, 500));
  apply.child.kill('SIGINT');
  expect(await apply.exited).toBe(130);
  // The one held is marked; the one refused is not, whichever of the two each create met.
  const marked = await markedKeys(dir);
  expect(marked).toHaveLength(1);
  t.emulator.releaseHeld();
  await waitUntil(() => named(marked[0]!.slice('playbook:'.length)).length > 0, 'the late create');
  // The refused one is made by the next apply, not held back as landing.
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
  expect([named('Cut NDA').length, named('Paused NDA').length]).toEqual([1, 1]);
});

it('a first signal marks the creates under way landing at once: a runner that kills soon after SIGTERM (docker stop) sends no second one (probe JY-2)', async () => {
  const { run, dir, apply } = await applyWithHeldCreate('Killed NDA', HELD_MS);
  const signalled = Date.now();
  await termThenKill(apply, 0);
  expect(await markedKeys(dir)).toEqual(['playbook:Killed NDA']);
  // Stamped with the end of the 30 s grace, the latest docket waits: its ten minutes run from then (probe OT-4).
  const mark = Object.values((await lockOf(dir)).landing ?? {})[0]!['playbook:Killed NDA']!;
  expect(Date.parse(mark.split(' ')[1]!)).toBeGreaterThanOrEqual(signalled + 29_000);
  // The next apply does not make it a second time while it may still land.
  expect((await run('apply', '-C', dir, '--auto-approve')).stderr).toContain('error uncertain-create playbook "Killed NDA"');
  t.emulator.releaseHeld();
  await waitUntil(() => named('Killed NDA').length > 0, 'the late create');
  await expectConverged(run, dir);
  expect(named('Killed NDA')).toHaveLength(1);
});

it('a first signal marks only the creates a request of which may reach the service: not one refused with a 429 and waiting to be sent again (probe TF-1)', async () => {
  const { run, dir, apply } = await applyWithHeldCreate('Held NDA', HELD_MS, {
    files: { 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Held NDA\n---\nkind: Playbook\nname: Refused NDA\n' },
    before: async () => void t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 429, retry_after: 20, count: 1 }),
    also: () => t.emulator.stats().faults_injected >= 2,
  });
  // As docker stop does: SIGTERM, then SIGKILL before the grace ends; only the first signal's marks are left.
  await termThenKill(apply, 500);
  await expectOnlyHeldMarked(run, dir, 'Refused NDA');
});

it('a first signal does not mark a create still waiting for its turn: that wait ends with the signal, unsent (probe TF-1)', async () => {
  // At one request a second, the second create waits a second for its turn behind the held one.
  const { run, dir, apply } = await applyWithHeldCreate('Held NDA', HELD_MS, {
    files: { 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Held NDA\n---\nkind: Playbook\nname: Paced NDA\n' },
    args: ['--max-rps', '1', '--concurrency', '2'],
  });
  await termThenKill(apply, 300);
  await expectOnlyHeldMarked(run, dir, 'Paced NDA');
});

/**
 * After a kill, only "Held NDA" (answered late) is marked landing; once it lands, the next apply
 * makes `other`, which never reached the service, at once, not held back ten minutes as landing.
 */
async function expectOnlyHeldMarked(run: ReturnType<typeof bin>, dir: string, other: string): Promise<void> {
  expect(await markedKeys(dir)).toHaveLength(1);
  const [held] = await markedKeys(dir);
  t.emulator.releaseHeld();
  await waitUntil(() => named(held!.slice('playbook:'.length)).length > 0, 'the late create');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
  expect(['Held NDA', other].map((name) => named(name).length)).toEqual([1, 1]);
}

it('a mark a first signal wrote survives a lock write that was under way then: uploads recorded as they land read the file before it (second read RV6-2)', async () => {
  const attachments = Array.from({ length: 40 }, (_, i) => `kind: Attachment\nname: A${i}\nfile: a${i}.pdf\n`).join('---\n');
  const uploads = () => t.emulator.requests().filter((r) => r.method === 'POST' && r.path.endsWith('/attachments')).length;
  const { run, dir, apply } = await applyWithHeldCreate('Held NDA', HELD_MS, {
    files: { 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/a.yaml': attachments },
    before: async (at) => {
      for (let i = 0; i < 40; i++) await writeFile(join(at, `attachments/a${i}.pdf`), pdf(`m${i}`));
    },
    args: ['--concurrency', '8'],
    also: () => uploads() >= 5,
  });
  await termThenKill(apply, 500);
  expect(await markedKeys(dir)).toEqual(['playbook:Held NDA']);
  expect((await run('apply', '-C', dir, '--auto-approve')).stderr).toContain('error uncertain-create playbook "Held NDA"');
  t.emulator.releaseHeld();
  await waitUntil(() => named('Held NDA').length > 0, 'the late create');
  expect((await run('apply', '-C', dir, '--auto-approve', '--retry-uncertain')).code).toBe(0);
  expect(named('Held NDA')).toHaveLength(1);
});

it('a mark a first signal wrote is forgotten when the create it marked ends within the grace, answered', async () => {
  const { run, dir, apply } = await applyWithHeldCreate('Landed NDA', HELD_MS);
  apply.child.kill('SIGINT');
  // Answered once the signal's mark is written, within the grace the apply gives what is under way.
  await waitUntil(() => markedKeysNow(dir).includes('playbook:Landed NDA'), 'the signal\'s mark');
  t.emulator.releaseHeld();
  expect(await apply.exited).toBe(130);
  expect(await markedKeys(dir)).toEqual([]);
  await expectConverged(run, dir);
  expect(named('Landed NDA')).toHaveLength(1);
});

/** An apply of playbook `name` whose create is answered `status` 1.5 s after it is sent, and Ctrl-C meanwhile: ended by it (exit 130). */
async function createAnsweredAsCtrlCComes(name: string, status: 500 | 504) {
  const { run, dir, apply } = await applyWithHeldCreate(name, 1500, { status });
  apply.child.kill('SIGINT');
  expect(await apply.exited).toBe(130);
  return { run, dir, apply };
}

it('a create the service answered with a 500 as Ctrl-C came is not marked: nothing of it still runs there, so the next plan reads whether it was made (probes IX-3, JG-1)', async () => {
  // Answered 500 after 1.5 s: a signal meanwhile, and the create is not tried again.
  const { run, dir, apply } = await createAnsweredAsCtrlCComes('Failed NDA', 500);
  expect(apply.stdout()).toContain('the service may have carried it out, and the next plan shows whether it did');
  expect(apply.stderr()).not.toContain('wait a few minutes');
  // No mark, nor any lock at all: the apply made nothing to record.
  const lock = await lockOf(dir).catch(() => ({ landing: undefined }));
  expect(Object.values(lock.landing ?? {}).flatMap((m) => Object.keys(m))).toEqual([]);
  // As the report says: the next plan reads it, and shows the create, sent once.
  expect((await run('plan', '-C', dir)).stdout).toContain('+ create playbook "Failed NDA"');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
  expect(named('Failed NDA')).toHaveLength(1);
});

it('a create a gateway answered 504 as Ctrl-C came may still run there: it is marked, and the closing hint says to wait (probe IX-3)', async () => {
  const { run, dir, apply } = await createAnsweredAsCtrlCComes('Gateway NDA', 504);
  expect(apply.stderr()).toContain('wait a few minutes for what the service may still be carrying out, then run docket plan');
  expect(Object.values((await lockOf(dir)).landing ?? {}).map((m) => Object.keys(m))).toEqual([['playbook:Gateway NDA']]);
  expect((await run('apply', '-C', dir, '--auto-approve')).stderr).toContain('error uncertain-create playbook "Gateway NDA"');
  expect((await run('apply', '-C', dir, '--auto-approve', '--retry-uncertain')).code).toBe(0);
  await expectConverged(run, dir);
  expect(named('Gateway NDA')).toHaveLength(1);
});

it('a publish that landed after its apply gave up does not hold back the next edit\'s publish', async () => {
  t = await startTestEmulator();
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const versions = () => Object.values(agreementsOf(t).custom_terms).find((x) => x.name === 'Consulting Terms')!.versions.length;
  await writeFile(join(dir, 'terms/consulting.md'), `${TERM_MD}3. Version three.\n`);
  t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 'late', delay_ms: HELD_MS, count: 1 });
  expect((await run('apply', '-C', dir, '--auto-approve', '--timeout', '1500ms')).code).toBe(1);
  expect(Object.values((await lockOf(dir)).landing ?? {}).flatMap((m) => Object.values(m))).toEqual([expect.stringMatching(/^publish \S+ body=[0-9a-f]{10}$/)]);
  t.emulator.releaseHeld();
  await waitUntil(() => versions() === 2, 'the late publish');
  // The publish landed; the files moved on: the next one is planned, not held as a repeat.
  await writeFile(join(dir, 'terms/consulting.md'), `${TERM_MD}3. Version four.\n`);
  const apply = await run('apply', '-C', dir, '--auto-approve');
  expect([apply.code, apply.stderr]).toEqual([0, '']);
  expect(versions()).toBe(3);
  expect((await lockOf(dir)).landing).toBeUndefined();
  await expectConverged(run, dir);
});

it('a text publish that landed after its apply gave up, the files reverted since, reads as docket\'s own write: the revert is the files\' change, not drift for pull to undo (probe FK-1)', async () => {
  t = await startTestEmulator();
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/consulting.yaml': TERM_YAML, 'terms/consulting.md': TERM_MD });
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const versions = () => Object.values(agreementsOf(t).custom_terms).find((x) => x.name === 'Consulting Terms')!.versions.length;
  await writeFile(join(dir, 'terms/consulting.md'), `${TERM_MD}3. Abandoned.\n`);
  t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 'late', delay_ms: HELD_MS, count: 1 });
  expect((await run('apply', '-C', dir, '--auto-approve', '--timeout', '1500ms')).code).toBe(1);
  // The user takes the edit back; then the late publish lands.
  await writeFile(join(dir, 'terms/consulting.md'), TERM_MD);
  t.emulator.releaseHeld();
  await waitUntil(() => versions() === 2, 'the late publish');
  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toMatch(/↑ publish custom-term "Consulting Terms" .*· changed in files\n/);
  const drift = await run('drift', '-C', dir);
  expect([drift.code, drift.stdout]).toEqual([0, expect.stringContaining('No drift')]);
  const pull = await run('pull', '-C', dir, '--dry-run');
  expect(pull.stdout).not.toContain('Abandoned');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect([versions(), JSON.stringify(Object.values(agreementsOf(t).custom_terms).find((x) => x.name === 'Consulting Terms')!.versions.at(-1))]).toEqual([3, expect.not.stringContaining('Abandoned')]);
  await expectConverged(run, dir);
});

it('a custom template relink still landing after its apply gave up is marked and not sent again until it lands: a late first PATCH would publish the old link over a later one (probe RQ-4)', async () => {
  t = await startTestEmulator();
  const run = bin(t);
  const dir = await makeDir({
    'docket.yaml': AGREEMENTS_DOCKET_YAML,
    'terms/consulting.yaml': TERM_YAML,
    'terms/consulting.md': TERM_MD,
    'terms/other.yaml': 'kind: CustomTerm\nname: Other Terms\nbody: Other terms.\n',
    'custom-templates/consulting.yaml': CUSTOM_TEMPLATE_YAML,
    'custom-templates/consulting.cover.yaml': DEFINITION,
  });
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const template = () => Object.values(agreementsOf(t).custom_templates)[0]!;
  const other = Object.values(agreementsOf(t).custom_terms).find((x) => x.name === 'Other Terms')!.id;
  const relinks = () => t.emulator.requests().filter((r) => r.method === 'PATCH' && r.path.includes('/custom_templates/')).length;
  await writeFile(join(dir, 'custom-templates/consulting.yaml'), CUSTOM_TEMPLATE_YAML.replace('custom_term: Consulting Terms', 'custom_term: Other Terms'));
  t.emulator.faults.add({ method: 'PATCH', path_pattern: '/agreements/v1/custom_templates/:id', status: 'late', delay_ms: HELD_MS, count: 1 });
  expect((await run('apply', '-C', dir, '--auto-approve', '--timeout', '1500ms')).code).toBe(1);
  expect(Object.values((await lockOf(dir)).landing ?? {}).flatMap((m) => Object.values(m))).toEqual([expect.stringMatching(/^publish \S+ custom_term=[0-9a-f]{10}$/)]);
  // Not sent again, by a plan or an apply, while it may still land.
  const plan = await run('plan', '-C', dir);
  expect([plan.code, plan.stderr]).toEqual([1, expect.stringContaining('error uncertain-create custom-template "Consulting Agreement"')]);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(1);
  t.emulator.releaseHeld();
  await waitUntil(() => template().custom_term_id === other, 'the late relink');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect((await lockOf(dir)).landing).toBeUndefined();
  expect([relinks(), template().versions.length]).toEqual([1, 2]);
  await expectConverged(run, dir);
});

it('a Word publish sent again by --retry-uncertain while the first was still held: the first landing later is the same file one version on, recorded, not published a third time (probe PI-1)', async () => {
  t = await startTestEmulator();
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML });
  await writeFile(join(dir, 'terms/data.docx'), docx('first'));
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const versions = () => Object.values(agreementsOf(t).custom_terms).find((x) => x.name === 'Data Terms')!.versions.length;
  await writeFile(join(dir, 'terms/data.docx'), docx('second'));
  t.emulator.faults.add({ method: 'POST', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 'late', delay_ms: HELD_MS, count: 1 });
  expect((await run('apply', '-C', dir, '--auto-approve', '--timeout', '1500ms')).code).toBe(1);
  const retried = await run('apply', '-C', dir, '--auto-approve', '--retry-uncertain');
  expect([retried.code, retried.stdout]).toEqual([0, expect.stringContaining('--retry-uncertain: apply sends it again, and if the first request still lands')]);
  expect(versions()).toBe(2);
  t.emulator.releaseHeld();
  await waitUntil(() => versions() === 3, 'the late publish');
  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toContain('custom term "Data Terms": version 3 is the publish of terms/data.docx an earlier apply stopped waiting for, which `--retry-uncertain` sent again as version 2: the same file, recorded as live');
  expect(plan.stdout).toContain('No changes.');
  expect((await run('drift', '-C', dir)).code).toBe(0);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect(versions()).toBe(3);
  await expectConverged(run, dir);
  // The next edit of the file is published as ever.
  await writeFile(join(dir, 'terms/data.docx'), docx('third'));
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect(versions()).toBe(4);
  await expectConverged(run, dir);
});

it('a rule under drift: adopt whose create landed after its apply stopped waiting reads as what that apply sent: the files\' edit since is applied, not held as a live change (probe OI-1)', async () => {
  t = await startTestEmulator();
  const run = bin(t);
  const file = (actions: string) => `kind: Playbook\nname: Adopted\ndrift: adopt\nrules:\n  - name: W0\n    actions: ACCEPT w0\n  - name: WR\n    actions: ${actions}\n`;
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': file('ACCEPT w0').replace(/ {2}- name: WR\n.*\n$/, '') });
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await writeFile(join(dir, 'playbooks/p.yaml'), file('ACCEPT version X'));
  t.emulator.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks/:playbook/playbook_rules', status: 'late', delay_ms: HELD_MS, count: 1 });
  expect((await run('apply', '-C', dir, '--auto-approve', '--timeout', '1500ms')).code).toBe(1);
  // A new commit while it is held; then it lands.
  await writeFile(join(dir, 'playbooks/p.yaml'), file('ACCEPT version Y'));
  t.emulator.releaseHeld();
  await waitUntil(() => Object.values(reviewOf(t).rules).some((r) => r.actions === 'ACCEPT version X'), 'the late create');
  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toContain('~ update rule "Adopted/WR" (playbooks/p.yaml:8) · changed in files');
  expect(plan.stdout).not.toContain('drift policy leaves alone');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect(Object.values(reviewOf(t).rules).some((r) => r.actions === 'ACCEPT version Y')).toBe(true);
  await expectConverged(run, dir);
});
