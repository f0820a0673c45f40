/**
 * An upload whose answer never came, and kill -9 at arbitrary points of a larger apply: the lock
 * must stay whole, nothing is uploaded twice blindly, and a final plan shows nothing. Kills right
 * after an upload are in kill-uploads.test.ts.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { lockFiles } from '../../helpers/lock.js';
import { makeDir, removeMadeDirs, writeFiles } from '../../helpers/tmpdir.js';
import { AGREEMENTS_DOCKET_YAML, ATTACHMENT_YAML, pdf } from '../agreements-fixtures.js';
import { KILL_PLAYBOOK, agreementsOf, appliedAttachment, bin, expectConverged, expectLockIntact, killWhen, reviewOf, termsNamed, wordTermDir } from './harness.js';

let t: TestEmulator;
afterEach(async () => {
  await t?.emulator.close();
  await removeMadeDirs();
});


describe('an attachment upload whose answer never came', () => {
  // Performed, then the connection closes; or performed and never answered until the budget ends.
  const cases = [
    { lost: 'dropped', status: 'drop', flags: [] as string[] },
    { lost: 'cut off by --timeout', status: 'hang', flags: ['--timeout', '1s'] },
  ] as const;
  for (const { lost, status, flags } of cases) it(`${lost}: fails without claiming a plain re-run converges; the hint names the ways on, and --retry-uncertain converges`, async () => {
    t = await startTestEmulator({ latencyMs: 0 });
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('one'));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status });
    const run = bin(t);
    const failed = await run('apply', '-C', dir, '--auto-approve', ...flags);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toContain('✗ upload attachment "Security Exhibit"');
    expect(failed.stderr).not.toContain('it converges');
    expect(failed.stderr).toMatch(/hint: .*--adopt-files.*--retry-uncertain/);
    expect((await run('plan', '-C', dir)).stderr).toContain('error uncertain-upload');

    const retried = await run('apply', '-C', dir, '--auto-approve', '--retry-uncertain');
    expect(retried.code).toBe(0);
    await expectConverged(run, dir);
  });

  it('a document pinning the earlier upload (as export writes it) still stops at the unconfirmed replacement: nothing is uploaded again', async () => {
    t = await startTestEmulator({ latencyMs: 0 });
    const { dir, run } = await appliedAttachment(t);
    const first = (await lockFiles(dir))['attachment:Security Exhibit']!.id!;
    await writeFiles(dir, { 'attachments/security.yaml': `${ATTACHMENT_YAML}id: ${first}\n` });
    await expectConverged(run, dir);

    await writeFile(join(dir, 'attachments/security.pdf'), pdf('two'));
    t.emulator.faults.add({ method: 'POST', path_pattern: '/attachments', status: 'drop' });
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(1);
    const uploads = Object.keys(agreementsOf(t).attachments).length;
    const plan = await run('plan', '-C', dir);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('error uncertain-upload');
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(1);
    expect(Object.keys(agreementsOf(t).attachments)).toHaveLength(uploads);
    // The person's choice settles it: uploaded again, the next plan is clean.
    expect((await run('apply', '-C', dir, '--auto-approve', '--retry-uncertain')).code).toBe(0);
    await expectConverged(run, dir);
  });
});

describe('kill -9 at arbitrary points of a larger apply', () => {
  const TEXT_TERM = 'kind: CustomTerm\nname: Consulting Terms\nbody: Consultant performs the services.\n';
  for (const after of [3, 10]) {
    it(`killed after ${after} requests, the re-run converges with one object per identity and one version per term`, async () => {
      t = await startTestEmulator({ latencyMs: 15 });
      const dir = await wordTermDir();
      await writeFiles(dir, { 'terms/consulting.yaml': TEXT_TERM, 'playbooks/nda.yaml': KILL_PLAYBOOK.replace('Vendor MSA', 'Inbound NDA') });
      await killWhen(t, dir, () => t.emulator.requests().length >= after, `${after} requests`);
      await expectLockIntact(dir);

      const run = bin(t);
      const again = await run('apply', '-C', dir, '--auto-approve');
      expect(again.stderr).not.toMatch(/Internal error|    at /);
      expect(again.code).toBe(0);
      await expectConverged(run, dir);
      expect(termsNamed(t, 'Data Terms')).toHaveLength(1);
      expect(termsNamed(t, 'Data Terms')[0]!.versions).toHaveLength(1);
      expect(termsNamed(t, 'Consulting Terms')).toHaveLength(1);
      const playbooks = Object.values(reviewOf(t).playbooks).filter((p) => !p.archived_at);
      expect(playbooks.map((p) => p.name).sort()).toEqual(['Inbound NDA', 'Vendor MSA']);
      for (const p of playbooks) expect(t.emulator.store.rulesOf(reviewOf(t), p.id).map((r) => r.name).sort()).toEqual(['Fees', 'Term']);
    });
  }
});
