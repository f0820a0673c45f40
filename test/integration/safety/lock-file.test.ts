/**
 * docket.lock.json in the forms it is found in after git has been at it: a merge conflict whose
 * sides do not contradict, and a version 1 file keyed by --env. The next apply writes it whole
 * and keyed by target, even when it has nothing to change, and the plan stays at no changes.
 * And what a killed run leaves in .docket/ does not pile up.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import type { AnsweredRequest } from '../../../src/emulator/server.js';
import { emulatorForFile } from '../../helpers/scenario.js';
import { makeDir } from '../../helpers/tmpdir.js';
import { runCli } from '../../helpers/cli.js';
import { AGREEMENTS_DOCKET_YAML, ATTACHMENT_YAML, DOCX_TERM_YAML, docx, pdf } from '../agreements-fixtures.js';
import { DOCKET_YAML, MSA, NDA } from '../fixtures.js';
import { bin, expectConverged } from './harness.js';

/** Told of each request the emulator answers, while a test sets it. */
let onAnswered: ((request: AnsweredRequest) => void) | undefined;
const { emulator } = emulatorForFile({ onRequest: (request) => onAnswered?.(request) });

type Lock = { version: number; targets: Record<string, { files: Record<string, unknown> }> };
type Synced = { synced: Record<string, Record<string, string>> };

/** The NDA and the MSA applied: the lock, and the review service's section of its sync records. */
async function appliedWithRecords() {
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
  const run = bin(emulator());
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const path = join(dir, 'docket.lock.json');
  const [review, records] = Object.entries((JSON.parse(await readFile(path, 'utf8')) as Synced).synced).find(([, r]) => 'rule:Inbound NDA/Term' in r)!;
  return { dir, run, path, review, records };
}

it('a readable merge conflict and a version 1 file are rewritten by the next apply, with nothing to change', async () => {
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'attachments/security.yaml': ATTACHMENT_YAML, 'terms/data.yaml': DOCX_TERM_YAML });
  await writeFile(join(dir, 'attachments/security.pdf'), pdf('one'));
  await writeFile(join(dir, 'terms/data.docx'), docx('one'));
  const run = bin(emulator());
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const path = join(dir, 'docket.lock.json');
  const written = JSON.parse(await readFile(path, 'utf8')) as Lock;
  const [target, section] = Object.entries(written.targets)[0]!;
  const [[keyA, entryA], [keyB, entryB]] = Object.entries(section.files);

  // Two branches each recorded one upload; git left both between markers.
  const side = (key: string, entry: unknown) => JSON.stringify({ version: 2, targets: { [target]: { files: { [key]: entry } } } }, null, 2);
  await writeFile(path, `<<<<<<< HEAD\n${side(keyA!, entryA)}\n=======\n${side(keyB!, entryB)}\n>>>>>>> other\n`);
  const resolved = await run('apply', '-C', dir, '--auto-approve');
  expect(resolved.code).toBe(0);
  expect(resolved.stdout).toContain('No changes.');
  expect(resolved.stderr).toContain('docket.lock.json: its merge conflict is resolved');
  expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(written);

  // The version 1 form keyed the same entries by --env name.
  await writeFile(path, JSON.stringify({ version: 1, files: section.files }));
  const moved = await run('apply', '-C', dir, '--auto-approve');
  expect(moved.code).toBe(0);
  expect(moved.stderr).toContain(`docket.lock.json: this run's entries moved from the version 1 section to "${target}"`);
  expect(JSON.parse(await readFile(path, 'utf8'))).toEqual(written);
  await expectConverged(run, dir);
});

it('an apply rewrites only the sync records of what it changed, and puts a section sorted out of order by hand back in order', async () => {
  const { dir, run, path, review, records } = await appliedWithRecords();

  await writeFile(join(dir, 'playbooks/nda.yaml'), NDA.replace('How long the agreement lasts', 'How long it lasts'));
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  const edited = await readFile(path, 'utf8');
  const after = (JSON.parse(edited) as Synced).synced[review]!;
  const changed = Object.keys(after).filter((key) => after[key] !== records[key]);
  expect(changed).toEqual(['rule:Inbound NDA/Term']);
  expect(Object.keys(after)).toEqual(Object.keys(records));

  // Nothing to change, and every record as it is: the section is still written in key order.
  const reversed = JSON.parse(edited) as Synced;
  reversed.synced[review] = Object.fromEntries(Object.entries(after).reverse());
  await writeFile(path, `${JSON.stringify(reversed, null, 2)}\n`);
  const settled = await run('apply', '-C', dir, '--auto-approve');
  expect(settled.stdout).toContain('No changes.');
  expect(await readFile(path, 'utf8')).toBe(edited);
  await expectConverged(run, dir);
});

it('a lock someone rewrites during an apply has its records judged as they are then: a record damaged meanwhile is written again', async () => {
  const { dir, run, path, review, records } = await appliedWithRecords();
  const capKey = 'rule:Vendor MSA/Liability cap';
  const cap = records[capKey]!;

  // While the apply creates a playbook (its rule waits for the playbook's id), the lock is
  // rewritten with the untouched cap rule's record damaged.
  await writeFile(join(dir, 'playbooks/dpa.yaml'), 'kind: Playbook\nname: DPA\nrules:\n  - name: Transfers\n    actions: ACCEPT standard contractual clauses\n');
  let damaged = false;
  onAnswered = (request) => {
    if (damaged || request.method !== 'POST' || !request.path.endsWith('/playbooks')) return;
    damaged = true;
    const doc = JSON.parse(readFileSync(path, 'utf8')) as Synced;
    doc.synced[review]![capKey] = cap.replace(/=\w+/, '=0000000000');
    writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
  };
  try {
    expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  } finally {
    onAnswered = undefined;
  }
  expect(damaged).toBe(true);
  const after = (JSON.parse(await readFile(path, 'utf8')) as Synced).synced[review]!;
  expect(after[capKey]).toBe(cap);
  expect(Object.keys(after)).toContain('rule:DPA/Transfers');
  await expectConverged(run, dir);
});

it('a copy of the emulator state a killed run left half-written in .docket/ is removed when the emulator next starts', async () => {
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: Inbound NDA\n' });
  // Named as a write names it, by a pid above the kernel's limit: a process that no longer runs.
  const stale = join(dir, '.docket', `.emulator.json.${2 ** 22 + 12345}.abcd1234.tmp`);
  await mkdir(join(dir, '.docket'), { recursive: true });
  await writeFile(stale, '{"format": "docket-emulator-state/1", "organiz');
  const run = (...args: string[]) => runCli(args);
  expect((await run('apply', '-C', dir, '--emulator', '--auto-approve')).code).toBe(0);
  expect(existsSync(stale)).toBe(false);
  await expectConverged(async (...args: string[]) => run(...args, '--emulator'), dir);
});

it('pull and drift say what a merge conflict in the sync records drops, and pull that it resolved it, as apply does', async () => {
  const { dir, run, path, review, records } = await appliedWithRecords();
  const text = await readFile(path, 'utf8');
  const doc = JSON.parse(text) as Synced & Record<string, unknown>;
  const side = (term: string) => JSON.stringify({ ...doc, synced: { ...doc.synced, [review]: { ...records, 'rule:Inbound NDA/Term': term } } }, null, 2);
  // The other side's record: its last digest one digit else.
  const record = records['rule:Inbound NDA/Term']!;
  const theirs = `${record.slice(0, -1)}${record.endsWith('0') ? '1' : '0'}`;
  await writeFile(path, `<<<<<<< HEAD\n${side(records['rule:Inbound NDA/Term']!)}\n=======\n${side(theirs)}\n>>>>>>> other\n`);
  const warning = 'drops the 1 sync record the two sides disagree on';
  const drift = await run('drift', '-C', dir);
  expect(drift.stderr).toContain(`Warning: docket.lock.json:1: docket.lock.json has a merge conflict; docket reads both sides' file entries, which do not contradict, ${warning}`);
  const pulled = await run('pull', '-C', dir);
  expect(pulled.code, pulled.stderr).toBe(0);
  expect(pulled.stderr).toContain(warning);
  expect(pulled.stderr).toContain("docket.lock.json: its merge conflict is resolved (both sides' file entries kept, the sync record they disagreed on dropped) and the file written whole");
  expect(await readFile(path, 'utf8')).not.toContain('<<<<<<<');
  // apply of a lock holding only sync records (a review-only configuration) says so too.
  await writeFile(path, `<<<<<<< HEAD\n${side(records['rule:Inbound NDA/Term']!)}\n=======\n${side(theirs)}\n>>>>>>> other\n`);
  const applied = await run('apply', '-C', dir, '--auto-approve');
  expect(applied.stderr).toContain("docket.lock.json: its merge conflict is resolved (both sides' file entries kept, the sync record they disagreed on dropped) and the file written whole");
  expect(await readFile(path, 'utf8')).not.toContain('<<<<<<<');
  await expectConverged(run, dir);
});
