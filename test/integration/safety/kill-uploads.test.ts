/**
 * kill -9 in the middle of an apply after the service did an upload and before docket heard. The
 * re-run must adopt what was done (no second version of a Word term, no second PDF), the lock must
 * stay whole, and a final plan shows nothing. (Apart from kill.test.ts so the two run side by side.)
 */
import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { makeDir, removeMadeDirs, writeFiles } from '../../helpers/tmpdir.js';
import { App } from '../../helpers/app.js';
import { AGREEMENTS_DOCKET_YAML, ATTACHMENT_YAML, CSA_TEMPLATE_YAML, docx, pdf } from '../agreements-fixtures.js';
import { agreementsOf, appliedAttachment, bin, expectConverged, expectLockIntact, killWhen, spawnBin, termsNamed, waitUntil, wordTermDir } from './harness.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});


/** A Word term applied, then its file changed: the next apply publishes version 2. */
async function appliedWordTermWithNewFile() {
  t = await startTestEmulator({ latencyMs: 20 });
  const dir = await wordTermDir();
  const run = bin(t);
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  await writeFile(join(dir, 'terms/data.docx'), docx('version two'));
  return { dir, run };
}

/** An attachment beside a playbook, on an emulator whose upload never answers: what an apply killed then leaves. */
async function uploadThatHangsBesideAPlaybook(): Promise<{ dir: string; playbook: string }> {
  t = await startTestEmulator({ latencyMs: 20 });
  const playbook = 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT 1 year\n';
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'playbooks/nda.yaml': playbook });
  await writeFile(join(dir, 'attachments/security.pdf'), pdf('one'));
  t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'hang' });
  return { dir, playbook };
}

describe('kill -9 after the service did an upload, before docket heard', () => {
  it('a created Word term is adopted by the re-run: one term, one version, recorded in the lock', async () => {
    t = await startTestEmulator({ latencyMs: 20 });
    const dir = await wordTermDir();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/custom_terms', status: 'hang' });
    await killWhen(t, dir, () => termsNamed(t, 'Data Terms').length === 1, 'the term to exist');
    const before = await expectLockIntact(dir);
    expect(Object.values(before)[0]!['custom-term:Data Terms']).toMatchObject({ pending: { file: 'terms/data.docx', version: 1 } });

    const run = bin(t);
    const again = await run('apply', '-C', dir, '--auto-approve');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('was published (version 1) by an earlier apply that stopped before recording it');
    expect(again.stdout).toContain('if version 1 in the app is not this file, publish the file there by hand; docket publishes a Word file again only when its bytes change');
    expect(termsNamed(t, 'Data Terms')).toHaveLength(1);
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(1);
    const after = await expectLockIntact(dir);
    expect(Object.values(after)[0]!['custom-term:Data Terms']).toEqual({ id: termsNamed(t, 'Data Terms')[0]!.id, file: 'terms/data.docx', sha256: expect.any(String), version: 1 });
    await expectConverged(run, dir);
  });

  it('a published version is not published again', async () => {
    const { dir, run } = await appliedWordTermWithNewFile();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/versions', status: 'hang' });
    await killWhen(t, dir, () => termsNamed(t, 'Data Terms')[0]!.versions.length === 2, 'version 2');
    await expectLockIntact(dir);

    const again = await run('apply', '-C', dir, '--auto-approve');
    expect(again.code).toBe(0);
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(2);
    await expectConverged(run, dir);
  });

  it('a saved plan that records a publish an earlier apply made is stale once another apply recorded a later version: it would put the old one back (probe GA-1)', async () => {
    const { dir, run } = await appliedWordTermWithNewFile();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/versions', status: 'hang' });
    await killWhen(t, dir, () => termsNamed(t, 'Data Terms')[0]!.versions.length === 2, 'version 2');
    const saved = join(await makeDir({}), 'old.json');
    expect((await run('plan', '-C', dir, '--out', saved)).code).toBe(0);
    expect(JSON.parse(await readFile(saved, 'utf8')).lock_updates).toHaveLength(1);
    // Another apply records it, then publishes two more versions (the file changed, then put back).
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    const two = await readFile(join(dir, 'terms/data.docx'));
    await writeFile(join(dir, 'terms/data.docx'), docx('version three'));
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await writeFile(join(dir, 'terms/data.docx'), two);
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    const lockPath = join(dir, 'docket.lock.json');
    const lock = await readFile(lockPath, 'utf8');

    const old = await run('apply', '-C', dir, saved);
    expect([old.code, old.stderr]).toEqual([1, expect.stringContaining('docket.lock.json\'s entry for custom-term "Data Terms" changed since the plan (an apply recorded another upload or version since)')]);
    expect(await readFile(lockPath, 'utf8')).toBe(lock);
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(4);
    await expectConverged(run, dir);
  });

  it('a published version is said as the version that publish became, not one the app published since (probe OT-1)', async () => {
    const { dir, run } = await appliedWordTermWithNewFile();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/versions', status: 'hang' });
    await killWhen(t, dir, () => termsNamed(t, 'Data Terms')[0]!.versions.length === 2, 'version 2');
    await new App(t.env).publishTermDocx('Data Terms', docx('from the app'));
    const plan = await run('plan', '-C', dir);
    expect(plan.stdout).toContain('terms/data.docx was published (version 2) by an earlier apply that stopped before recording it');
    expect(plan.stdout).not.toContain('(version 3) by an earlier apply');
  });

  it('a published version found live is docket\'s own change: a later edit of the file is the files\' alone, not drift (probe OT-2)', async () => {
    const { dir, run } = await appliedWordTermWithNewFile();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/versions', status: 'hang' });
    await killWhen(t, dir, () => termsNamed(t, 'Data Terms')[0]!.versions.length === 2, 'version 2');
    await writeFile(join(dir, 'terms/data.docx'), docx('version three'));
    const drift = await run('drift', '-C', dir);
    expect(drift.code, drift.stdout).toBe(0);
    expect(drift.stdout).not.toContain('live and in files');
    const plan = await run('plan', '-C', dir);
    expect(plan.stdout).toContain('· changed in files');
    expect(plan.stdout).not.toContain('changed live and in files');
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    await expectConverged(run, dir);
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(3);
  });

  it('a publish that may still land stops the re-run after its file changed again too, and the files\' bytes are published after it lands (probe RK-1)', async () => {
    const { dir, run } = await appliedWordTermWithNewFile();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/versions', status: 'late', delay_ms: 4_000, count: 1 });
    const started = t.emulator.stats().faults_injected;
    await killWhen(t, dir, () => t.emulator.stats().faults_injected > started, 'the publish to be sent');
    // The next commit changes the file: published now, it would be overtaken by the late request.
    await writeFile(join(dir, 'terms/data.docx'), docx('version three'));
    const early = await run('apply', '-C', dir, '--auto-approve');
    expect([early.code, early.stderr]).toEqual([1, expect.stringContaining('may still be running at the service, and landing after a publish of the file as it is now it would be the live version, so docket will not publish yet')]);
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(1);
    await waitUntil(() => termsNamed(t, 'Data Terms')[0]!.versions.length === 2, 'the late publish');
    const after = await run('apply', '-C', dir, '--auto-approve');
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toContain('was published (version 2) by an earlier apply that stopped before recording it');
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(3);
    await expectConverged(run, dir);
    const lock = await expectLockIntact(dir);
    expect(Object.values(lock)[0]!['custom-term:Data Terms']).toMatchObject({ version: 3 });
  });

  it('a publish that never reached the service is made by the re-run, once', async () => {
    const { dir, run } = await appliedWordTermWithNewFile();
    const saved = join(await makeDir({}), 'plan.json');
    expect((await run('plan', '-C', dir, '--out', saved)).code).toBe(0);
    // A dead server: the request is neither performed nor answered.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/versions', status: 'silent' });
    const started = t.emulator.stats().faults_injected;
    await killWhen(t, dir, () => t.emulator.stats().faults_injected > started, 'the publish to be sent');
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(1);

    // Moments later it may still land (a request docket stopped waiting for may still run there):
    // not sent again yet, or the same file could be published twice (probe HK).
    const early = await run('apply', '-C', dir, '--auto-approve');
    expect(early.code).toBe(1);
    expect(early.stderr).toContain('error uncertain-upload custom-term "Data Terms": an upload of terms/data.docx');
    expect(early.stderr).toContain('the publish is not live yet, though a request docket stopped waiting for may still be running at the service, so docket will not send it again yet');
    // With the folder it was run for, as the hint's apply command beside it (probe ZA-2).
    expect(early.stderr).toMatch(/run `docket plan -C \S+` again in a few minutes/);
    // Nor does a plan saved before the apply publish it again (second read).
    const stale = await run('apply', '-C', dir, saved);
    expect([stale.code, stale.stderr]).toEqual([1, expect.stringContaining('the publish is not live yet')]);
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(1);

    const lockPath = join(dir, 'docket.lock.json');
    const lock = await readFile(lockPath, 'utf8');
    // A mark dated a day ahead (a clock far off) is not "may still land" until then (second read).
    await writeFile(lockPath, lock.replace(/"since": "[^"]+"/, `"since": "${new Date(Date.now() + 24 * 3_600_000).toISOString()}"`));
    const ahead = await run('plan', '-C', dir);
    expect([ahead.code, ahead.stdout]).toEqual([0, expect.stringContaining('did not happen')]);
    // Ten minutes on, it did not happen: the re-run publishes it, once.
    await writeFile(lockPath, lock.replace(/"since": "[^"]+"/, `"since": "${new Date(Date.now() - 11 * 60_000).toISOString()}"`));
    const again = await run('apply', '-C', dir, '--auto-approve');
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('did not happen');
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(2);
    await expectConverged(run, dir);
  });

  it('a publish the service answered 500 at every attempt does not hold the next plan back: its read says it did not happen, and apply publishes once (probe FK-2)', async () => {
    const { dir, run } = await appliedWordTermWithNewFile();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/versions', status: 500, count: 7 });
    const failed = await run('apply', '-C', dir, '--auto-approve');
    expect([failed.code, failed.stdout]).toEqual([1, expect.stringContaining('(7 attempts); the service may have carried it out, and the next plan shows whether it did')]);
    const lock = await expectLockIntact(dir);
    expect(Object.values(lock)[0]!['custom-term:Data Terms']).toMatchObject({ version: 1, pending: { version: 2, ended: true } });

    // Answered, nothing of it still runs there: no ten-minute wait.
    const again = await run('apply', '-C', dir, '--auto-approve');
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('the publish of terms/data.docx that an earlier apply started did not happen; apply forgets it')]);
    expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(2);
    await expectConverged(run, dir);
  });

  it('a create that never reached the service is not sent again while it may still land, then made once (second read)', async () => {
    t = await startTestEmulator({ latencyMs: 20 });
    const dir = await wordTermDir();
    t.emulator.faults.add({ method: 'POST', path_pattern: '/custom_terms', status: 'silent' });
    await killWhen(t, dir, () => t.emulator.stats().faults_injected > 0, 'the create to be sent');
    t.emulator.faults.clear();
    const run = bin(t);
    const early = await run('apply', '-C', dir, '--auto-approve');
    expect([early.code, early.stderr]).toEqual([1, expect.stringContaining('the create is not live yet')]);
    expect(termsNamed(t, 'Data Terms')).toHaveLength(0);
    const lockPath = join(dir, 'docket.lock.json');
    await writeFile(lockPath, (await readFile(lockPath, 'utf8')).replace(/"since": "[^"]+"/, `"since": "${new Date(Date.now() - 11 * 60_000).toISOString()}"`));
    const again = await run('apply', '-C', dir, '--auto-approve');
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('did not happen')]);
    expect(termsNamed(t, 'Data Terms')).toHaveLength(1);
    await expectConverged(run, dir);
  });

  it('an attachment upload that may have happened is not sent again blindly; pinning its id adopts it', async () => {
    t = await startTestEmulator({ latencyMs: 20 });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('one'));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'hang' });
    const attachments = () => Object.values(agreementsOf(t).attachments);
    await killWhen(t, dir, () => attachments().length === 1, 'the upload');
    await expectLockIntact(dir);

    const run = bin(t);
    const refused = await run('apply', '-C', dir, '--auto-approve');
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('attachments/security.yaml:4:7 error uncertain-upload attachment "Security Exhibit": an upload of attachments/security.pdf');
    expect(refused.stderr).toMatch(/docket apply -C \S+ --retry-uncertain/);
    expect(refused.stderr).not.toMatch(/Internal error|    at /);
    expect(attachments()).toHaveLength(1);

    // The person looked it up in the app: pin it and record the file as live.
    await writeFiles(dir, { 'attachments/security.yaml': `${ATTACHMENT_YAML}id: ${attachments()[0]!.id}\n` });
    const adopted = await run('apply', '-C', dir, '--auto-approve', '--adopt-files');
    expect(adopted.code).toBe(0);
    expect(attachments()).toHaveLength(1);
    await expectConverged(run, dir);
  });

  it('a plan beside a running apply says that apply runs, and takes its upload under way for work still to do, not for one an interrupted apply left (probe FK)', async () => {
    t = await startTestEmulator({ latencyMs: 20 });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('one'));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'hang' });
    const attachments = () => Object.values(agreementsOf(t).attachments);
    const running = spawnBin(['apply', '-C', dir, '--auto-approve'], t.env);
    await waitUntil(() => attachments().length === 1, 'the upload');
    const run = bin(t);
    const beside = await run('plan', '-C', dir);
    expect(beside.code).toBe(0);
    expect(beside.stdout).toContain('+ upload attachment "Security Exhibit"');
    expect(beside.stdout).toContain(`an apply of this checkout is running (pid ${running.child.pid}, since `);
    expect(beside.stdout).toContain('what it is changing now shows here as still to do; plan again once it ends');
    expect(beside.stderr).not.toContain('uncertain-upload');
    // Drift says it too, where it says warnings (probe FT).
    const drift = await run('drift', '-C', dir);
    expect([drift.code, drift.stderr]).toEqual([0, expect.stringContaining(`Warning: an apply of this checkout is running (pid ${running.child.pid}, since `)]);
    // Killed, it is the interrupted apply it was not before: the plan stops at the upload.
    running.child.kill('SIGKILL');
    expect(await running.exited).toBe('SIGKILL');
    const after = await run('plan', '-C', dir);
    expect([after.code, after.stderr]).toEqual([1, expect.stringContaining('attachments/security.yaml:4:7 error uncertain-upload')]);
    // Another run holding the lock since (a pull, or a later apply) made no mark older than it: the killed one's still stops the plan (second read).
    const holder = spawn('sleep', ['30'], { stdio: 'ignore' });
    try {
      for (const command of [{ command: 'pull' }, {}]) {
        await writeFile(join(dir, '.docket', 'apply.lock'), JSON.stringify({ pid: holder.pid, host: hostname(), started: new Date().toISOString(), ...command }));
        const held = await run('plan', '-C', dir);
        expect([held.code, held.stderr]).toEqual([1, expect.stringContaining('attachments/security.yaml:4:7 error uncertain-upload')]);
      }
    } finally {
      holder.kill('SIGKILL');
      await rm(join(dir, '.docket', 'apply.lock'), { force: true });
    }
    await writeFiles(dir, { 'attachments/security.yaml': `${ATTACHMENT_YAML}id: ${attachments()[0]!.id}\n` });
    expect((await run('apply', '-C', dir, '--auto-approve', '--adopt-files')).code).toBe(0);
    await expectConverged(run, dir);
  });

  it('an attachment upload that may have happened, its document then deleted with every other attachment\'s: the plan warns of the orphan and apply drops the mark (probe ZA-1)', async () => {
    const { dir } = await uploadThatHangsBesideAPlaybook();
    await killWhen(t, dir, () => Object.values(agreementsOf(t).attachments).length === 1, 'the upload');
    await rm(join(dir, 'attachments'), { recursive: true });
    const run = bin(t);
    const plan = await run('plan', '-C', dir);
    expect(plan.code).toBe(0);
    expect(plan.stdout + plan.stderr).toContain('attachment "Security Exhibit": an upload of attachments/security.pdf');
    expect(plan.stdout + plan.stderr).toContain('the configuration no longer declares it, so apply drops the record of it');
    // Read for that, the kind is not said to be unread (second read SR98B-5).
    expect(plan.stdout + plan.stderr).not.toContain('no file declares an attachment any more');
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    expect(await readFile(join(dir, 'docket.lock.json'), 'utf8')).not.toContain('"pending"');
    const again = await run('plan', '-C', dir);
    expect(again.stdout + again.stderr).not.toContain('never confirmed');
    await expectConverged(run, dir);
  });

  it('an upload that may have happened stops only plans that send it: a targeted playbook fix applies, drift warns (probe FK)', async () => {
    const { dir, playbook } = await uploadThatHangsBesideAPlaybook();
    const attachments = () => Object.values(agreementsOf(t).attachments);
    await killWhen(t, dir, () => attachments().length === 1 && Object.keys(t.emulator.store.organization(t.env.DOCKET_ORGANIZATION_ID!)!.rules).length === 1, 'the upload and the rule');
    await writeFiles(dir, { 'playbooks/nda.yaml': playbook.replace('1 year', '2 years') });
    const run = bin(t);
    expect((await run('plan', '-C', dir)).stderr).toContain('error uncertain-upload');
    const targeted = await run('apply', '-C', dir, '--target', 'playbook/NDA', '--auto-approve');
    expect([targeted.code, targeted.stdout]).toEqual([0, expect.stringContaining('~ update rule "NDA/Term"')]);
    const drift = await run('drift', '-C', dir, '--kind', 'playbook');
    expect([drift.code, drift.stderr]).toEqual([0, expect.stringContaining('Warning: attachment "Security Exhibit": an upload of attachments/security.pdf')]);
    // A target that sends it is still stopped.
    expect((await run('plan', '-C', dir, '--target', 'attachment/Security Exhibit')).stderr).toContain('attachments/security.yaml:4:7 error uncertain-upload');
    await writeFiles(dir, { 'attachments/security.yaml': `${ATTACHMENT_YAML}id: ${attachments()[0]!.id}\n` });
    expect((await run('apply', '-C', dir, '--auto-approve', '--adopt-files')).code).toBe(0);
    await expectConverged(run, dir);
  });

  it('a pinned attachment renamed, whose new upload got no answer, is not uploaded again: its pin names the attachment it replaced', async () => {
    t = await startTestEmulator({ latencyMs: 0 });
    const { dir, run } = await appliedAttachment(t);
    const attachments = () => Object.values(agreementsOf(t).attachments);
    const pinned = attachments()[0]!.id;
    await writeFiles(dir, { 'attachments/security.yaml': `kind: Attachment\nid: ${pinned}\nname: Security Exhibit 2026\nrenamed_from: [Security Exhibit]\ndescription: Our security measures\nfile: security.pdf\n` });
    // The upload is made, and its answer lost.
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'drop', count: 1 });
    const lost = await run('apply', '-C', dir, '--auto-approve');
    expect(lost.code).toBe(1);
    expect(attachments()).toHaveLength(2);
    await expectLockIntact(dir);
    for (const again of ['plan', 'apply']) {
      const r = await run(again, '-C', dir, ...(again === 'apply' ? ['--auto-approve'] : []));
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('attachments/security.yaml:6:7 error uncertain-upload attachment "Security Exhibit 2026": an upload of attachments/security.pdf');
    }
    expect(attachments()).toHaveLength(2);
  });

  it('a new PDF whose upload may have happened, adopted by its pinned id: the templates naming the earlier upload are re-pointed in the same apply', async () => {
    t = await startTestEmulator({ latencyMs: 20 });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'templates/csa.yaml': CSA_TEMPLATE_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('one'));
    const run = bin(t);
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
    const attachments = () => Object.values(agreementsOf(t).attachments);
    const csa = () => Object.values(agreementsOf(t).templates).find((x) => x.name === 'Cloud Service Agreement')!;
    const first = attachments()[0]!.id;

    await writeFile(join(dir, 'attachments/security.pdf'), pdf('two'));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'hang' });
    await killWhen(t, dir, () => attachments().length === 2, 'the second upload');
    const second = attachments().find((a) => a.id !== first)!.id;
    await writeFiles(dir, { 'attachments/security.yaml': `${ATTACHMENT_YAML}id: ${second}\n` });
    const plan = await run('plan', '-C', dir);
    expect(plan.stdout).toContain('~ update template "Cloud Service Agreement"');
    expect(plan.stdout).toContain('changed in files');
    // The lock holds the upload's pending mark beside the earlier upload: said so, not "no confirmed upload" (probe BE-2).
    expect(plan.stdout + plan.stderr).toContain(`docket.lock.json records an earlier upload of attachments/security.pdf as id ${first}, and one since that was never confirmed, which the \`id:\` likely pins`);
    expect((await run('drift', '-C', dir)).code).toBe(0);
    const adopted = await run('apply', '-C', dir, '--auto-approve', '--adopt-files');
    expect(adopted.code).toBe(0);
    expect(adopted.stdout).toContain('Apply complete: 1 done.');
    expect(csa().parameters.include_security_policy_attachment_id).toBe(second);
    expect(csa().parameters.attachment_ids).toEqual([second]);
    expect(attachments()).toHaveLength(2);
    await expectConverged(run, dir);
  });

  it('uploads still waiting for their turn leave no pending mark: only the one sent is uncertain', async () => {
    t = await startTestEmulator({ latencyMs: 20 });
    const files: Record<string, string> = { 'docket.yaml': AGREEMENTS_DOCKET_YAML };
    for (const n of [1, 2, 3]) files[`attachments/a${n}.yaml`] = `kind: Attachment\nname: Exhibit ${n}\nfile: a${n}.pdf\n`;
    const dir = await makeDir(files);
    for (const n of [1, 2, 3]) await writeFile(join(dir, `attachments/a${n}.pdf`), pdf(`exhibit ${n}`));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'hang' });
    // Two requests a second: the other two uploads wait for their turn while the first hangs.
    const run = spawnBin(['apply', '-C', dir, '--auto-approve', '--max-rps', '2'], t.env);
    await waitUntil(() => Object.values(agreementsOf(t).attachments).length === 1, 'the first upload');
    run.child.kill('SIGKILL');
    expect(await run.exited).toBe('SIGKILL');
    const lock = Object.values(await expectLockIntact(dir))[0]!;
    expect(Object.keys(lock)).toHaveLength(1);
    expect(Object.values(agreementsOf(t).attachments)).toHaveLength(1);

    const plan = await bin(t)('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr.match(/error uncertain-upload/g)).toHaveLength(1);
  });

  it('--retry-uncertain uploads it again when the person says so', async () => {
    t = await startTestEmulator({ latencyMs: 20 });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('one'));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'silent' });
    const started = t.emulator.stats().faults_injected;
    await killWhen(t, dir, () => t.emulator.stats().faults_injected > started, 'the upload to be sent');
    const run = bin(t);
    const retried = await run('apply', '-C', dir, '--auto-approve', '--retry-uncertain');
    expect(retried.code).toBe(0);
    expect(retried.stdout).toContain('--retry-uncertain: apply uploads it again');
    expect(Object.values(agreementsOf(t).attachments)).toHaveLength(1);
    await expectConverged(run, dir);
  });
});
