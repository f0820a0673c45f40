/**
 * Two applies of the bundled example on one organization at once, from two checkouts (a laptop
 * during a CI apply). Afterwards every identity has one live object: duplicates are archived or
 * deleted by the run that made them, or renamed aside where the service cannot remove them, and a
 * later apply converges to zero changes.
 */
import { existsSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { cp, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { App } from '../../helpers/app.js';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { DOCKET_YAML, MSA, NDA } from '../fixtures.js';
import { AGREEMENTS_DOCKET_YAML, DOCX_TERM_YAML, docx } from '../agreements-fixtures.js';
import { makeDir, removeMadeDirs, writeFiles } from '../../helpers/tmpdir.js';
import { agreementsOf, bin, expectConverged, expectLockIntact, livePlaybooks, reviewOf, spawnBin, waitUntil } from './harness.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/acme-legal', import.meta.url));

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});

async function checkout(): Promise<string> {
  const dir = await makeDir({});
  await cp(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes('.docket') && !src.endsWith('docket.lock.json') });
  return dir;
}

/** The live ids the sync records of a checkout's rules name. */
async function ruleRecordIds(dir: string): Promise<string[]> {
  const text = await readFile(join(dir, 'docket.lock.json'), 'utf8').catch(() => '{"synced":{}}');
  const { synced } = JSON.parse(text) as { synced: Record<string, Record<string, string>> };
  return Object.values(synced).flatMap((records) => Object.entries(records).filter(([key]) => key.startsWith('rule:')).map(([, text]) => text.split(' ')[0]!));
}

/** Applies NDA once while the emulator injects another copy: the apply ends well and says it kept that one. */
async function applyKeepingOther(injected: () => boolean): Promise<{ dir: string; run: ReturnType<typeof bin> }> {
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const run = bin(t);
  const first = await run('apply', '-C', dir, '--auto-approve');
  expect(first.code).toBe(0);
  expect(injected()).toBe(true);
  expect(first.stdout).toContain('another apply (or someone in the app) created it at the same time');
  return { dir, run };
}

const EARLIER = '2000-01-01T00:00:00.000Z';

/** A rule of the other run's copy, made earlier than anything this run makes. */
function addOtherRunsRule(playbookId: string, name: string): void {
  t.emulator.store.addRule(reviewOf(t), { id: t.emulator.store.newId(), playbook_id: playbookId, name, description: null, actions: null, internal_notes: null, questions: null, generate_summary: true, reviewer_id: null, created_at: EARLIER, updated_at: EARLIER });
}

/** Another run's copy of Inbound NDA with `rules`, created earlier than this run's: its id. */
function addOtherRunsCopy(rules: readonly string[]): string {
  const id = t.emulator.store.newId();
  reviewOf(t).playbooks[id] = { id, name: 'Inbound NDA', description: 'NDAs we receive', archived_at: null, created_at: EARLIER, updated_at: EARLIER };
  for (const name of rules) addOtherRunsRule(id, name);
  return id;
}

type SeenRequest = { method: string; path: string; status?: number };
/** An emulator hook, and whether it has run. */
type OnceHook = ((request: SeenRequest) => void) & { fired: boolean };

/** An emulator hook that runs `then` once, after the first request `when` takes is answered: another writer, meanwhile. */
function once(when: (request: SeenRequest) => boolean, then: () => void): OnceHook {
  const hook: OnceHook = Object.assign((request: SeenRequest) => {
    if (hook.fired || !when(request)) return;
    hook.fired = true;
    then();
  }, { fired: false });
  return hook;
}

/** Whether a request is this run's create of a playbook. */
const createsPlaybook = (request: SeenRequest): boolean => request.method === 'POST' && request.path.endsWith('/playbooks');

/** Applies both checkouts at once; both must end well. */
async function applyBoth(a: string, b: string) {
  const runs = [spawnBin(['apply', '-C', a, '--auto-approve'], t.env), spawnBin(['apply', '-C', b, '--auto-approve'], t.env)];
  const codes = await Promise.all(runs.map((r) => r.exited));
  for (const r of runs) expect(r.stderr()).not.toMatch(/Internal error|    at /);
  expect(codes).toEqual([0, 0]);
  return runs;
}

const names = (items: { name: string }[]) => items.map((i) => i.name).filter((n) => !n.includes('(duplicate ')).sort();
const unique = (list: string[]) => [...new Set(list)];

it('two applies at once end with one object per identity, and converge', async () => {
  t = await startTestEmulator({ latencyMs: 25 });
  const [a, b] = [await checkout(), await checkout()];
  const runs = await applyBoth(a, b);

  const org = reviewOf(t);
  const playbooks = Object.values(org.playbooks).filter((p) => !p.archived_at);
  expect(names(playbooks)).toEqual(unique(names(playbooks)));
  for (const p of playbooks) {
    const rules = t.emulator.store.rulesOf(org, p.id);
    expect(names(rules)).toEqual(unique(names(rules)));
  }
  const ag = agreementsOf(t);
  for (const collection of [ag.custom_terms, ag.custom_templates, ag.templates]) {
    const live = names(Object.values(collection));
    expect(live).toEqual(unique(live));
  }
  // Each checkout's sync records name the rules that stayed, never those archived with a
  // playbook set aside as a duplicate (whose ids the run that made them knows).
  const liveRuleIds = new Set(playbooks.flatMap((p) => t.emulator.store.rulesOf(org, p.id).map((r) => r.id)));
  for (const dir of [a, b]) expect((await ruleRecordIds(dir)).filter((id) => !liveRuleIds.has(id))).toEqual([]);
  // What each run said about a duplicate it set aside is in its report.
  const notes = runs.map((r) => r.stdout()).join('\n');
  const setAside = Object.values(org.playbooks).filter((p) => p.archived_at).length;
  if (setAside > 0) expect(notes).toContain('another apply (or someone in the app) created it at the same time');

  // Attachments cannot be listed: each run uploaded its own, and the README says so.
  const run = bin(t);
  expect((await run('apply', '-C', a, '--auto-approve')).code).toBe(0);
  await expectConverged(run, a);
});

it('two applies renaming two rules to one name at once leave at most one of that name: the later yields, renamed back and failed, and the plan converges (probe JF-1)', async () => {
  t = await startTestEmulator({ latencyMs: 5 });
  const playbook = (rules: string) => `kind: Playbook\nname: P\nrules:\n${rules}`;
  const a = await makeDir({ 'docket.yaml': DOCKET_YAML, 'p.yaml': playbook('  - name: One\n    actions: ACCEPT one\n  - name: Two\n    actions: ACCEPT two\n') });
  const run = bin(t);
  expect((await run('apply', '-C', a, '--auto-approve')).code).toBe(0);
  const b = await makeDir({});
  await cp(a, b, { recursive: true });
  await writeFiles(a, { 'p.yaml': playbook('  - name: Same\n    renamed_from: [One]\n    actions: ACCEPT one\n  - name: Two\n    actions: ACCEPT two\n') });
  await writeFiles(b, { 'p.yaml': playbook('  - name: One\n    actions: ACCEPT one\n  - name: Same\n    renamed_from: [Two]\n    actions: ACCEPT two\n') });
  // Both renames are held until both runs have planned, and land a moment apart or together: long
  // enough for the second run's cold start and plan on a busy two-core machine (600 ms was not, at times).
  t.emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 'late', delay_ms: 1500, count: 2 });
  const runs = [spawnBin(['apply', '-C', a, '--auto-approve'], t.env), spawnBin(['apply', '-C', b, '--auto-approve'], t.env)];
  const codes = await Promise.all(runs.map((r) => r.exited));
  const org = reviewOf(t);
  const live = Object.values(org.playbooks).filter((p) => !p.archived_at);
  expect(live).toHaveLength(1);
  const rules = t.emulator.store.rulesOf(org, live[0]!.id).map((r) => r.name);
  expect(rules.filter((n) => n === 'Same').length).toBeLessThanOrEqual(1);
  expect(rules).toHaveLength(2);
  // Each run that yielded says so and failed; one that kept the name ended well.
  const yielded = runs.filter((r) => r.stdout().includes('took the name at the same time'));
  expect(yielded.length).toBeGreaterThan(0);
  for (const [i, r] of runs.entries()) expect(codes[i]).toBe(yielded.includes(r) ? 1 : 0);
  expect(yielded[0]!.stdout()).toMatch(/docket renamed this one back to "(One|Two)"/);
  // Either checkout's files then converge.
  expect((await run('apply', '-C', a, '--auto-approve')).code).toBe(0);
  await expectConverged(run, a);
});

it('rules made in a playbook archived in the app before the checks at the end are failed, not done: they went with it (probe KY-3)', async () => {
  let ruleCreates = 0;
  t = await startTestEmulator({
    onRequest: once(
      (r) => r.method === 'POST' && /\/rules$|\/playbook_rules$/.test(r.path.split('?')[0]!) && r.status === 201 && ++ruleCreates === 2,
      () => {
        const p = Object.values(reviewOf(t).playbooks).find((x) => x.name === 'P')!;
        p.archived_at = new Date().toISOString();
      },
    ),
  });
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: One\n    actions: ACCEPT one\n  - name: Two\n    actions: ACCEPT two\n' });
  const apply = await run('apply', '-C', dir, '--auto-approve', '--concurrency', '1');
  expect(ruleCreates).toBe(2);
  expect(apply.code).toBe(1);
  expect(apply.stdout).toContain('made, but playbook "P" is no longer live (archived or deleted in the app, or by another apply, while this one ran), and the rule went with it');
  expect(apply.stdout).not.toContain('could not check for a duplicate');
  expect(apply.stdout).not.toContain('Apply complete');
  // The next plan makes the playbook and its rules again, and then converges.
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
});

it('a rename that yields to a name taken meanwhile takes a name of its own when its former one is taken too, records no sync record under the name, and says where the rest landed (second read SR70-1, SR70-2)', async () => {
  t = await startTestEmulator({
    onRequest: once(
      (r) => r.method === 'PATCH' && r.path.includes('/playbook_rules/'),
      () => {
        const org = reviewOf(t);
        const p = Object.values(org.playbooks).find((x) => x.name === 'P')!;
        t.emulator.store.addRule(org, { id: t.emulator.store.newId(), playbook_id: p.id, name: 'Same', description: null, actions: 'ACCEPT app', internal_notes: null, questions: null, generate_summary: false, reviewer_id: null, created_at: EARLIER, updated_at: EARLIER });
      },
    ),
  });
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: One\n    actions: ACCEPT one\n' });
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const mine = t.emulator.store.rulesOf(reviewOf(t), Object.values(reviewOf(t).playbooks)[0]!.id).find((r) => r.name === 'One')!.id;
  // Renamed to Same (its actions changed too), and a new rule takes its former name.
  await writeFiles(dir, { 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: Same\n    renamed_from: [One]\n    actions: ACCEPT one, edited\n  - name: One\n    actions: ACCEPT new\n' });
  const apply = await run('apply', '-C', dir, '--auto-approve', '--concurrency', '1');
  expect(apply.code).toBe(1);
  const aside = `One (renamed back by docket, ${mine.slice(0, 8)})`;
  expect(apply.stdout).toContain(`docket renamed this one back to "${aside}", as "One" is taken too`);
  expect(apply.stdout).toContain(`made on the object this apply then renamed back to "${aside}"`);
  const names = t.emulator.store.rulesOf(reviewOf(t), Object.values(reviewOf(t).playbooks)[0]!.id).map((r) => r.name).sort();
  expect(names).toEqual(['One', aside, 'Same']);
  const lock = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { synced: Record<string, Record<string, string>> };
  const sameRecord = Object.values(lock.synced).map((records) => records['rule:P/Same']).find((r) => r !== undefined);
  expect(sameRecord?.startsWith(mine)).not.toBe(true);
  // No name is held twice: the next plan plans, and applied it converges.
  const plan = await run('plan', '-C', dir);
  expect(plan.stderr).not.toContain('ambiguous-match');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
});

it('a playbook rename that yields notes its rules\' changes as made in the playbook renamed back, and records none of them under the name it lost (third read TR70-2)', async () => {
  t = await startTestEmulator({
    onRequest: once(
      (r) => r.method === 'PATCH' && /\/playbooks\/[^/]+$/.test(r.path),
      () => {
        const id = t.emulator.store.newId();
        reviewOf(t).playbooks[id] = { id, name: 'Q', description: null, archived_at: null, created_at: EARLIER, updated_at: EARLIER };
      },
    ),
  });
  const run = bin(t);
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'p.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT one\n' });
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await writeFiles(dir, { 'p.yaml': 'kind: Playbook\nname: Q\nrenamed_from: [P]\nrules:\n  - name: R\n    actions: ACCEPT two\n' });
  const apply = await run('apply', '-C', dir, '--auto-approve', '--concurrency', '1');
  expect(apply.code).toBe(1);
  expect(apply.stdout).toMatch(/update rule "Q\/R"[^\n]*\n\s+note: made on the playbook this apply then renamed back to "P"/);
  const lock = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { synced: Record<string, Record<string, string>> };
  expect(Object.values(lock.synced).flatMap((records) => Object.keys(records))).not.toContain('rule:Q/R');
  // The rule is not taken for one removed in the app, which pull would take out of the files.
  expect((await run('plan', '-C', dir)).stdout).not.toContain('removed live');
  expect((await run('drift', '-C', dir)).stdout).not.toMatch(/Removed live|rule "Q\/R"/);
  const pull = await run('pull', '-C', dir, '--dry-run');
  expect(pull.stdout).not.toContain('rules: []');
  expect(pull.stdout).not.toMatch(/^-  - name: R$/m);
});

it('two checkouts that share one docket.lock.json through a link take turns: neither loses the other\'s upload records, and the one waiting names the other', async () => {
  t = await startTestEmulator({ latencyMs: 25 });
  // A holds the file; B links to it.
  const checkoutOf = async (who: string, shared?: string): Promise<string> => {
    const files: Record<string, string> = { 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n' };
    for (let n = 1; n <= 4; n++) {
      files[`attachments/x${n}.yaml`] = `kind: Attachment\nname: ${who} Exhibit ${n}\nfile: x${n}.pdf\n`;
      files[`attachments/x${n}.pdf`] = `%PDF-1.4\n% ${who} ${n}\n%%EOF\n`;
    }
    if (!shared) files['docket.lock.json'] = '{"version":2,"targets":{}}\n';
    const dir = await makeDir(files);
    if (shared) await symlink(join(shared, 'docket.lock.json'), join(dir, 'docket.lock.json'));
    return dir;
  };
  const a = await checkoutOf('A');
  const b = await checkoutOf('B', a);
  // B's first upload is answered late, so B holds the lock (beside A's file) when A starts.
  t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'late', delay_ms: 1500, count: 1 });
  const runB = spawnBin(['apply', '-C', b, '--auto-approve', '--lock-timeout', '1m'], t.env);
  await until(() => existsSync(join(a, '.docket', 'apply.lock')));
  const runA = spawnBin(['apply', '-C', a, '--auto-approve', '--lock-timeout', '1m'], t.env);
  expect(await Promise.all([runA.exited, runB.exited])).toEqual([0, 0]);
  // A, whose own file is the shared one, names the checkout whose apply it waited for.
  expect(runA.stderr()).toContain(`Waiting for a docket apply of another checkout sharing this docket.lock.json (${b}) to finish`);
  const lock = JSON.parse(await readFile(join(a, 'docket.lock.json'), 'utf8')) as { targets: Record<string, { files: Record<string, unknown> }> };
  expect(Object.values(lock.targets).flatMap((section) => Object.keys(section.files)).sort()).toEqual([1, 2, 3, 4].flatMap((n) => [`attachment:A Exhibit ${n}`, `attachment:B Exhibit ${n}`]).sort());
  const run = bin(t);
  for (const dir of [a, b]) await expectConverged(run, dir);
});

it('an apply that took its lock at home while its docket.lock.json linked to nothing stops before changing anything once another checkout made the file (probe WC-1)', async () => {
  t = await startTestEmulator({});
  const a = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const b = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/msa.yaml': MSA });
  await symlink(join(a, 'docket.lock.json'), join(b, 'docket.lock.json'));
  // B's own lock is held by a live process: B waits for it at home, its link still leading to nothing.
  const holder = spawn('sleep', ['60'], { stdio: 'ignore' });
  try {
    await mkdir(join(b, '.docket'));
    await writeFile(join(b, '.docket', 'apply.lock'), JSON.stringify({ pid: holder.pid, host: hostname(), started: new Date().toISOString() }));
    const runB = spawnBin(['apply', '-C', b, '--auto-approve', '--lock-timeout', '1m'], t.env);
    await waitUntil(() => runB.stderr().includes('Waiting for'), 'the apply of B to wait for its lock');
    // Meanwhile A's apply makes the shared file; then B's lock is freed, and B reads its configuration.
    const run = bin(t);
    expect((await run('apply', '-C', a, '--auto-approve')).code).toBe(0);
    holder.kill();
    expect(await runB.exited).toBe(1);
    expect(runB.stderr()).toContain(`${join(b, 'docket.lock.json')} links to a file that another checkout's run made after this apply started`);
    expect(livePlaybooks(t).map((p) => p.name)).toEqual(['Inbound NDA']);
    // Run again, it takes turns through the lock beside the shared file, and applies.
    expect((await run('apply', '-C', b, '--auto-approve')).code).toBe(0);
    expect(livePlaybooks(t).map((p) => p.name).sort()).toEqual(['Inbound NDA', 'Vendor MSA']);
  } finally {
    holder.kill();
  }
});

it('a playbook another apply created first is kept: this run archives its own copy, and records no rule of that copy', async () => {
  // Just after this run creates the playbook, another run's copy appears, created earlier, with its rules.
  const otherCopy = once(createsPlaybook, () => addOtherRunsCopy(['Term', 'Residuals']));
  t = await startTestEmulator({ onRequest: otherCopy });
  const { dir, run } = await applyKeepingOther(() => otherCopy.fired);
  const org = reviewOf(t);
  const kept = Object.values(org.playbooks).filter((p) => !p.archived_at);
  expect(kept.map((p) => p.created_at)).toEqual([EARLIER]);
  const keptRules = new Set(t.emulator.store.rulesOf(org, kept[0]!.id).map((r) => r.id));
  expect((await ruleRecordIds(dir)).filter((id) => !keptRules.has(id))).toEqual([]);
  // The next apply makes the kept rules say what the files say, and records them.
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect((await ruleRecordIds(dir)).sort()).toEqual([...keptRules].sort());
  await expectConverged(run, dir);
});

it('a Word term another apply created first is kept: this run sets its own copy aside and records no upload of that copy, so the next plan asks to adopt the kept one\'s file (probe MY-1)', async () => {
  // Just after this run creates the term, another run's copy appears, created earlier.
  const otherCopy = once(
    (r) => r.method === 'POST' && r.path.split('?')[0]!.endsWith('/custom_terms') && r.status === 201,
    () => {
      const id = t.emulator.store.newId();
      agreementsOf(t).custom_terms[id] = { id, name: 'Data Terms', term_type: 'file', conversion_status: 'ready', versions: [{ id: t.emulator.store.newId(), version_number: 1, body: null, docx_sha256: null, created_by_email: null, created_at: EARLIER }], created_at: EARLIER, updated_at: EARLIER };
    },
  );
  t = await startTestEmulator({ onRequest: otherCopy });
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML, 'terms/data.docx': docx('our terms') });
  const run = bin(t);
  const first = await run('apply', '-C', dir, '--auto-approve');
  expect(first.code, first.stdout + first.stderr).toBe(0);
  expect(otherCopy.fired).toBe(true);
  expect(first.stdout).toContain('docket.lock.json no longer records terms/data.docx for it');
  const kept = Object.values(agreementsOf(t).custom_terms).find((c) => c.name === 'Data Terms')!;
  const files = Object.values(await expectLockIntact(dir)).flatMap((f) => Object.values(f));
  expect(files.filter((e) => e.id !== kept.id)).toEqual([]);
  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toContain(`run \`docket apply -C ${relative(process.cwd(), dir)} --adopt-files\` to record the current file as live`);
  expect((await run('apply', '-C', dir, '--auto-approve', '--adopt-files')).code).toBe(0);
  const adopted = Object.values(await expectLockIntact(dir))[0]!;
  expect(adopted['custom-term:Data Terms']?.id).toBe(kept.id);
  await expectConverged(run, dir);
});

it('a playbook another apply created first but was stopped before it made every rule: this run says which rules went with its archived copy and are not live, fails, and the next apply makes them (probe IL-1)', async () => {
  // Another run's copy, created earlier, that was stopped after its first rule.
  const otherCopy = once(createsPlaybook, () => addOtherRunsCopy(['Term']));
  t = await startTestEmulator({ onRequest: otherCopy });
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const run = bin(t);
  const first = await run('apply', '-C', dir, '--auto-approve');
  expect(otherCopy.fired).toBe(true);
  expect(first.code).toBe(1);
  expect(first.stdout).toContain('the one this apply created (id ');
  expect(first.stdout).toContain('made in the copy of playbook "Inbound NDA" this apply set aside as another apply\'s duplicate, and went with it; the kept playbook has its own (id ');
  expect(first.stdout + first.stderr).toContain('made in the copy of playbook "Inbound NDA" this apply set aside as another apply\'s duplicate, and went with it: the kept playbook has no such rule yet, so it is not live');
  expect(first.stdout + first.stderr).not.toContain('Apply complete');
  // Nothing of it is live: not "written before the failure".
  expect(first.stdout).not.toContain('live already');
  const kept = Object.values(reviewOf(t).playbooks).filter((p) => !p.archived_at);
  expect(t.emulator.store.rulesOf(reviewOf(t), kept[0]!.id).map((r) => r.name)).toEqual(['Term']);
  // The next plan creates the rule the kept copy lacks, and sends the files' content to the one it has.
  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toContain('+ create rule "Inbound NDA/Residuals"');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
});

it('a rule the kept playbook gains a moment after this run first looked (the other apply still making it) is found: the apply ends well (second read SR66-4)', async () => {
  let keptId = '';
  t = await startTestEmulator({
    onRequest: (request) => {
      if (!keptId && createsPlaybook(request)) keptId = addOtherRunsCopy(['Term']);
      // The other run makes its last rule just after this one's first look at the kept playbook.
      if (keptId && request.method === 'GET' && request.path.includes(keptId) && t.emulator.store.rulesOf(reviewOf(t), keptId).length === 1) {
        setTimeout(() => addOtherRunsRule(keptId, 'Residuals'), 300);
      }
    },
  });
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const run = bin(t);
  const first = await run('apply', '-C', dir, '--auto-approve');
  expect(keptId).not.toBe('');
  expect(first.code).toBe(0);
  expect(first.stdout.match(/the kept playbook has its own \(id /g)).toHaveLength(2);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
});

it('a rule someone made in the app with other content while the apply ran is kept, not recorded as in sync: the next plan shows the files\' content to send', async () => {
  const nda = () => Object.values(reviewOf(t).playbooks).find((p) => p.name === 'Inbound NDA');
  const appRule = once(
    (request) => request.method === 'POST' && request.path.endsWith('/playbook_rules') && nda() !== undefined,
    () => {
      const at = '2000-01-01T00:00:00.000Z';
      t.emulator.store.addRule(reviewOf(t), { id: t.emulator.store.newId(), playbook_id: nda()!.id, name: 'Residuals', description: null, actions: 'ACCEPT from the app', internal_notes: null, questions: null, generate_summary: true, reviewer_id: null, created_at: at, updated_at: at });
    },
  );
  t = await startTestEmulator({ onRequest: appRule });
  const { dir, run } = await applyKeepingOther(() => appRule.fired);
  const plan = await run('plan', '-C', dir);
  expect(plan.stdout).toContain('~ update rule "Inbound NDA/Residuals"');
  expect(plan.stdout).not.toContain('changed live');
  expect(plan.stdout).toContain('actions: "ACCEPT from the app" → null');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
});

it('a create not answered with an id takes the earliest made copy, as the duplicate check does, whatever order the list gives: the rules go where they are kept', async () => {
  // Another run's copy, made in the same millisecond with a smaller id, lands just after this
  // run's own, so the list this run reads to find what it created names its own first.
  const sameMillisecondCopy = once(createsPlaybook, () => {
    const own = Object.values(reviewOf(t).playbooks)[0]!;
    const id = '00000000-0000-4000-8000-0000000000aa';
    reviewOf(t).playbooks[id] = { ...own, id };
  });
  t = await startTestEmulator({ variants: { createStatus: 204 }, onRequest: sameMillisecondCopy });
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const run = bin(t);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect(sameMillisecondCopy.fired).toBe(true);
  const org = reviewOf(t);
  const kept = Object.values(org.playbooks).filter((p) => !p.archived_at);
  expect(kept.map((p) => p.id)).toEqual(['00000000-0000-4000-8000-0000000000aa']);
  expect(names(t.emulator.store.rulesOf(org, kept[0]!.id))).toEqual(['Residuals', 'Term']);
  await expectConverged(run, dir);
});

it('a rule and a playbook another apply removed first (answered 404) are done once a read finds them gone; a 404 for something still there stays an error', async () => {
  let removeNow: ((path: string) => void) | undefined;
  t = await startTestEmulator({
    // Answered the plan's read of a list: the objects it will remove go before this run gets to them.
    onRequest: (request) => {
      if (request.method === 'GET') removeNow?.(request.path);
    },
  });
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
  const run = bin(t);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const org = reviewOf(t);
  const active = (name: string) => Object.values(org.playbooks).find((p) => p.name === name && !p.archived_at);
  await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace(/  - name: Residuals\n.*\n/, ''), 'playbooks/msa.yaml': '# no longer managed here\n' });
  const nda = active('Inbound NDA')!;
  const msa = active('Vendor MSA')!;
  removeNow = (path) => {
    if (path.endsWith('/playbooks')) msa.archived_at = new Date().toISOString();
    const residuals = t.emulator.store.rulesOf(org, nda.id).find((r) => r.name === 'Residuals');
    if (path.includes(`/playbooks/${nda.id}/playbook_rules`) && residuals) t.emulator.store.removeRule(org, residuals);
    if (msa.archived_at && !t.emulator.store.rulesOf(org, nda.id).some((r) => r.name === 'Residuals')) removeNow = undefined;
  };
  const apply = await run('apply', '-C', dir, '--auto-approve', '--prune');
  expect(apply.code).toBe(0);
  expect(apply.stdout).toContain('Apply complete: 2 done.');
  expect(apply.stdout).toContain('deleted already (by another apply, or in the app)');
  expect(apply.stdout).toContain('archived already (by another apply, or in the app)');
  await expectConverged(run, dir);

  // A 404 on a delete of a rule that is still there is the error it was.
  await writeFiles(dir, { 'playbooks/nda.yaml': NDA });
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace(/  - name: Residuals\n.*\n/, '') });
  t.emulator.faults.add({ method: 'DELETE', path_pattern: '/playbook_rules/', status: 404 });
  const refused = await run('apply', '-C', dir, '--auto-approve');
  expect(refused.code).toBe(1);
  expect(refused.stdout + refused.stderr).toContain('HTTP 404');
  await run('apply', '-C', dir, '--auto-approve');
  await expectConverged(run, dir);
});

it('two applies at once whose creates are not answered with an id end with one object per identity: a run that found its object by name cannot tell it from the other run\'s, and sets aside every newer copy', async () => {
  // 204 with no body: each run finds what it created by reading the list, where both runs' copies may already be.
  t = await startTestEmulator({ latencyMs: 150, variants: { createStatus: 204 } });
  const files = { 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA };
  const [a, b] = [await makeDir(files), await makeDir(files)];
  await applyBoth(a, b);

  const org = reviewOf(t);
  const playbooks = Object.values(org.playbooks).filter((p) => !p.archived_at);
  expect(names(playbooks)).toEqual(['Inbound NDA', 'Vendor MSA']);
  for (const p of playbooks) {
    const rules = t.emulator.store.rulesOf(org, p.id);
    expect(names(rules)).toEqual(unique(names(rules)));
  }
  const run = bin(t);
  for (const dir of [a, b]) await expectConverged(run, dir);
});

it('a rule whose playbook was archived while the apply ran says so, and the next apply converges', async () => {
  let archiveNow = false;
  t = await startTestEmulator({
    // The create of the new rule arrives just after the playbook went (in the app, or set aside by another apply).
    onRequest: (request) => {
      if (!archiveNow || request.method !== 'POST' || !request.path.endsWith('/playbook_rules')) return;
      const nda = Object.values(reviewOf(t).playbooks).find((p) => p.name === 'Inbound NDA' && !p.archived_at);
      if (nda) nda.archived_at = new Date().toISOString();
      archiveNow = false;
    },
  });
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const run = bin(t);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await writeFiles(dir, { 'playbooks/nda.yaml': `${NDA}  - name: Audit\n    actions: ACCEPT audits once a year\n` });
  archiveNow = true;
  // Whether the service takes a rule into an archived playbook is not documented; the
  // emulator does, so the 404 a service may give is injected.
  t.emulator.faults.add({ method: 'POST', path_pattern: '/playbook_rules', status: 404, count: 1 });
  const apply = await run('apply', '-C', dir, '--auto-approve');
  expect(apply.code).toBe(1);
  expect(apply.stdout).toContain('(playbook "Inbound NDA" is no longer live: archived in the app or by another apply at the same time; the next plan shows what is left to make)');
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await expectConverged(run, dir);
});

async function until(done: () => boolean): Promise<void> {
  for (let waited = 0; !done(); waited += 20) {
    if (waited > 20_000) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

it('pull and apply of one checkout take turns: the one that finds the other running refuses, and no sync record pull wrote is lost (probe DP)', async () => {
  t = await startTestEmulator({ latencyMs: 5 });
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const run = bin(t);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const app = new App(t.env);
  // An apply of an edit in the files holds the lock while its update is answered late; meanwhile a reviewer edits another rule.
  await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('What is the term?', 'How long is the term?') });
  t.emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 'late', delay_ms: 2500, count: 1 });
  const applying = spawnBin(['apply', '-C', dir, '--auto-approve'], t.env);
  // Its update is being answered (the fault taken) before the app's edit, which would otherwise take it.
  await until(() => existsSync(join(dir, '.docket', 'apply.lock')) && t.emulator.faults.list().length === 0);
  await app.editRule('Inbound NDA', 'Residuals', { questions: 'Edited in the app?' });
  const before = await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8');
  const refused = await run('pull', '-C', dir);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^Error: another docket apply holds .*apply\.lock \(pid \d+/);
  expect(refused.stderr).toContain('pass --lock-timeout 5m to wait for it');
  expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toBe(before);
  // Waiting, it pulls once the apply is done; its records stand, so the app's edit is no longer drift.
  // The wait is --lock-timeout's: its --timeout (shorter than the wait) starts once it holds the lock.
  const pulled = await run('pull', '-C', dir, '--lock-timeout', '1m', '--timeout', '1s');
  expect(await applying.exited).toBe(0);
  expect(pulled.code).toBe(0);
  expect(pulled.stderr).toContain('Waiting for another docket apply of this checkout to finish');
  expect(await readFile(join(dir, 'playbooks/nda.yaml'), 'utf8')).toContain('Edited in the app?');
  expect((await run('drift', '-C', dir)).code).toBe(0);

  // The other way round: an apply refuses while a pull holds the lock (as its lock file says it), naming it,
  // and waits for it with --lock-timeout, its --timeout running from when it holds the lock.
  const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
  try {
    await mkdir(join(dir, '.docket'), { recursive: true });
    await writeFile(join(dir, '.docket', 'apply.lock'), JSON.stringify({ pid: holder.pid, host: hostname(), started: new Date().toISOString(), command: 'pull' }));
    const applyRefused = await run('apply', '-C', dir, '--auto-approve');
    expect(applyRefused.code).toBe(1);
    expect(applyRefused.stderr).toMatch(/^Error: another docket pull holds .*apply\.lock \(pid \d+/);
    setTimeout(() => void rm(join(dir, '.docket', 'apply.lock'), { force: true }), 1200);
    const applyWaited = await run('apply', '-C', dir, '--auto-approve', '--lock-timeout', '1m', '--timeout', '1s');
    expect([applyWaited.code, applyWaited.stderr]).toEqual([0, expect.stringContaining('Waiting for another docket pull of this checkout to finish')]);
  } finally {
    holder.kill();
  }
  await expectConverged(run, dir);
});
