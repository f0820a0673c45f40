/**
 * A docket.lock.json that cannot be written by the end of an apply (a full disk; here a folder put
 * where it goes): the changes were made, so their report is printed, then the error, exit 1.
 */
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { App } from '../../helpers/app.js';
import { runCli } from '../../helpers/cli.js';
import { applyOk, emulatorForFile } from '../../helpers/scenario.js';
import { makeDir } from '../../helpers/tmpdir.js';
import { AGREEMENTS_DOCKET_YAML, ATTACHMENT_YAML, pdf } from '../agreements-fixtures.js';

/** Run as each request is answered, while a test sets it. */
let whileAnswering: (() => void) | undefined;
const { cli, emulator } = emulatorForFile({ onRequest: () => whileAnswering?.() });

const playbook = (name: string, actions: string): string => `kind: Playbook\nname: ${name}\nrules:\n  - name: Term\n    actions: ${actions}\n`;

describe('a lock file that cannot be written', () => {
  it('still gets the apply its report, then says what was not saved, with no stack trace', async () => {
    for (const output of ['text', 'json']) {
      const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook(`P ${output}`, 'ACCEPT') });
      await applyOk(cli, dir);
      await writeFile(join(dir, 'playbooks/p.yaml'), playbook(`P ${output}`, 'REJECT'));
      whileAnswering = () => {
        whileAnswering = undefined;
        rmSync(join(dir, 'docket.lock.json'));
        mkdirSync(join(dir, 'docket.lock.json'));
      };
      const r = await cli('apply', '-C', dir, '--auto-approve', '-o', output);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Error: the changes reported above were made, but docket.lock.json could not be written (EISDIR)');
      expect(r.stderr).not.toMatch(/Internal error|\n\s+at /);
      if (output === 'json') {
        const report = JSON.parse(r.stdout) as { results: { status: string }[]; unsaved?: unknown };
        expect(report.results.map((x) => x.status)).toEqual(['done']);
        // The one document on stdout says what was not saved: alone, it read as a clean run that exited 1 (probe DI-1).
        expect(report.unsaved).toEqual({ file: 'docket.lock.json', reason: 'EISDIR' });
      }
      else expect(r.stdout).toContain(`✓ update rule "P ${output}/Term"`);
    }
  });

  it('made read-only (to freeze it) stops an apply before any change, as it stops a pull, and a writable one converges (probe NU-7)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('Frozen', 'ACCEPT') });
    await applyOk(cli, dir);
    chmodSync(join(dir, 'docket.lock.json'), 0o444);
    // Nothing to change, nothing to record: it is not written, so nothing stops (second read SR79-2).
    await applyOk(cli, dir);
    await writeFile(join(dir, 'playbooks/p.yaml'), playbook('Frozen', 'REJECT'));
    const before = readFileSync(join(dir, 'docket.lock.json'), 'utf8');
    const r = await cli('apply', '-C', dir, '--auto-approve');
    expect(r.code).toBe(1);
    // The file as a path from where docket ran, to paste there (probe FG-4).
    expect(r.stderr).toContain(`Error: cannot write docket.lock.json (EACCES): nothing was changed\n  hint: make docket.lock.json writable (\`chmod u+w ${join(dir, 'docket.lock.json')}\`), then apply again`);
    expect(r.stdout).not.toContain('✓');
    expect(readFileSync(join(dir, 'docket.lock.json'), 'utf8')).toBe(before);
    expect((await cli('plan', '-C', dir)).stdout).toContain('~ update rule "Frozen/Term"');
    // A pull that would record what it pulls stops alike, root or not (second read SR79-5).
    await new App(emulator().env).editRule('Frozen', 'Term', { actions: 'COUNTER' });
    const pulled = await cli('pull', '-C', dir);
    expect(pulled.code).toBe(1);
    expect(pulled.stderr).toContain('cannot write docket.lock.json (EACCES): nothing was written');
    expect(readFileSync(join(dir, 'playbooks/p.yaml'), 'utf8')).toBe(playbook('Frozen', 'REJECT'));
    expect(readFileSync(join(dir, 'docket.lock.json'), 'utf8')).toBe(before);
    chmodSync(join(dir, 'docket.lock.json'), 0o644);
    await applyOk(cli, dir);
    expect((await cli('plan', '-C', dir, '--detailed-exitcode')).code).toBe(0);
  });

  it('fails an upload whose mark it cannot record, unsent, and does not call it uncertain', async () => {
    const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML });
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('first'));
    await applyOk(cli, dir);
    await writeFile(join(dir, 'attachments/security.pdf'), pdf('second'));
    whileAnswering = () => {
      whileAnswering = undefined;
      rmSync(join(dir, 'docket.lock.json'));
      mkdirSync(join(dir, 'docket.lock.json'));
    };
    const r = await cli('apply', '-C', dir, '--auto-approve');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('✗ upload attachment "Security Exhibit": docket.lock.json could not be written (EISDIR), so nothing was sent');
    expect(r.stderr).not.toMatch(/uncertain|Internal error|\n\s+at /);
  });
});

describe('--emulator files that cannot be written', () => {
  it('.docket/emulator-sync.json made read-only stops an apply with changes before any, and one with only records to write says so, with no stack trace (second read SR79B-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('Frozen sync', 'ACCEPT') });
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'], { env: {} })).code).toBe(0);
    // The same edit live and in the files: nothing to change, the record to write anew.
    const state = join(dir, '.docket/emulator.json');
    writeFileSync(state, readFileSync(state, 'utf8').replace('"actions":"ACCEPT"', '"actions":"REJECT"'));
    await writeFile(join(dir, 'playbooks/p.yaml'), playbook('Frozen sync', 'REJECT'));
    chmodSync(join(dir, '.docket/emulator-sync.json'), 0o444);
    const records = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'], { env: {} });
    expect([records.code, records.stdout.includes('No changes.'), records.stderr]).toEqual([1, true, 'Error: .docket/emulator-sync.json could not be written (EACCES)\n  hint: make the file and its folder writable, then run the command again\n']);
    await writeFile(join(dir, 'playbooks/p.yaml'), playbook('Frozen sync', 'COUNTER'));
    const changes = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'], { env: {} });
    expect([changes.code, changes.stderr.split('\n')[0]]).toEqual([1, 'Error: cannot write .docket/emulator-sync.json (EACCES): nothing was changed']);
    expect(changes.stdout).not.toContain('✓');
    expect(readFileSync(state, 'utf8')).not.toContain('COUNTER');
    chmodSync(join(dir, '.docket/emulator-sync.json'), 0o644);
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'], { env: {} })).code).toBe(0);
    expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'], { env: {} })).code).toBe(0);
  });


  it('names .docket/emulator-sync.json, not docket.lock.json, when the sync records cannot be written: refused before any change', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': playbook('Sync', 'ACCEPT') });
    mkdirSync(join(dir, '.docket/emulator-sync.json'), { recursive: true });
    const r = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'], { env: {} });
    expect(r.code).toBe(1);
    expect(r.stdout).not.toContain('create playbook');
    expect(r.stderr).toContain('.docket/emulator-sync.json:1:1 error invalid-lock-file .docket/emulator-sync.json is a folder, not a file');
    expect(r.stderr).toContain('hint: .docket/emulator-sync.json is a file docket writes: remove what is there\n');
    expect(r.stderr).not.toMatch(/Internal error|\n\s+at /);
    // Scratch that is no lock file is to be deleted: no commit holds it to restore (probe FL).
    rmSync(join(dir, '.docket/emulator-sync.json'), { recursive: true });
    writeFileSync(join(dir, '.docket/emulator-sync.json'), '[1]\n');
    const broken = await runCli(['plan', '-C', dir, '--emulator'], { env: {} });
    expect([broken.code, broken.stderr]).toEqual([1, expect.stringContaining('.docket/emulator-sync.json:1:1 error invalid-lock-file .docket/emulator-sync.json is not a docket lock file\n  hint: delete it (local scratch, never in git): the next --emulator apply writes it again\n')]);
    // The folder gone, the next run applies and converges.
    rmSync(join(dir, '.docket/emulator-sync.json'));
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'], { env: {} })).code).toBe(0);
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'], { env: {} });
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });
});
