/**
 * `--emulator` keeps its state in memory during a run and writes .docket/emulator.json before each
 * file that names what it holds (an upload's id in docket.lock.json), and when the run ends. A run
 * killed at any point must leave no lock entry ahead of that state file, and must converge when run
 * again.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../../helpers/cli.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { AGREEMENTS_DOCKET_YAML, DOCX_TERM_YAML, docx } from '../agreements-fixtures.js';
import { numberedPlaybook, spawnBin, waitUntil, type Running } from './harness.js';

let running: Running | undefined;
afterEach(async () => {
  running?.child.kill('SIGKILL');
  running = undefined;
  await removeMadeDirs();
});

/** A Word term and enough playbooks that the apply goes on well after the term is recorded (their rules, two at a time, come last). */
async function termAndManyPlaybooks(): Promise<string> {
  const files: Record<string, string> = { 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'terms/data.yaml': DOCX_TERM_YAML };
  for (let i = 1; i <= 200; i++) files[`playbooks/p${i}.yaml`] = `${numberedPlaybook(i)}rules:\n  - name: Term\n    actions: REJECT if over ${i} years\n`;
  const dir = await makeDir(files);
  await writeFile(join(dir, 'terms/data.docx'), docx('version one'));
  return dir;
}

/** The id docket.lock.json records for the term once its upload is confirmed (not merely pending). */
async function recordedTermId(dir: string): Promise<string | undefined> {
  const text = await readFile(join(dir, 'docket.lock.json'), 'utf8').catch(() => '');
  if (!text) return undefined;
  try {
    const doc = JSON.parse(text) as { targets: Record<string, { files: Record<string, { id?: string; pending?: unknown }> }> };
    const entry = doc.targets.emulator?.files['custom-term:Data Terms'];
    return entry?.id !== undefined && entry.pending === undefined ? entry.id : undefined;
  } catch {
    return undefined;
  }
}

const run = (...args: string[]) => runCli(args, { env: {} });

/** Waits (reading the file one read at a time) until the running apply records the term, and gives its id. */
async function termRecorded(dir: string): Promise<string> {
  let termId: string | undefined;
  let reading = false;
  await waitUntil(() => {
    if (!reading) {
      reading = true;
      void recordedTermId(dir).then((id) => {
        termId = id;
        reading = false;
      });
    }
    return termId !== undefined;
  }, 'the term to be recorded in docket.lock.json');
  return termId!;
}

describe('kill -9 during an apply against the in-process emulator', () => {
  it('leaves no lock entry the emulator state lacks, and the re-run converges with one term', async () => {
    const dir = await termAndManyPlaybooks();
    running = spawnBin(['apply', '-C', dir, '--emulator', '--auto-approve', '--concurrency', '2'], {});
    const termId = await termRecorded(dir);
    running.child.kill('SIGKILL');
    // Killed mid-run: the playbooks were still being created.
    expect(await running.exited).toBe('SIGKILL');
    running = undefined;

    const state = await readFile(join(dir, '.docket/emulator.json'), 'utf8');
    expect(state).toContain(`"${termId}"`);

    const again = await run('apply', '-C', dir, '--emulator', '--auto-approve');
    expect(again.stderr).not.toContain('rror');
    expect(again.code).toBe(0);
    const plan = await run('plan', '-C', dir, '--emulator', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
    const final = JSON.parse(await readFile(join(dir, '.docket/emulator.json'), 'utf8')) as { organizations: Record<string, { agreements: { custom_terms: Record<string, { name: string }> }; playbooks: Record<string, { archived_at: string | null }> }> };
    const org = Object.values(final.organizations)[0]!;
    expect(Object.values(org.agreements.custom_terms).filter((t) => t.name === 'Data Terms')).toHaveLength(1);
    expect(Object.values(org.playbooks).filter((p) => !p.archived_at)).toHaveLength(200);
  });

  it('a second SIGINT saves the state before the lock, so the re-run converges (no upload was under way)', async () => {
    const dir = await termAndManyPlaybooks();
    running = spawnBin(['apply', '-C', dir, '--emulator', '--auto-approve', '--concurrency', '2'], {});
    const termId = await termRecorded(dir);
    running.child.kill('SIGINT');
    running.child.kill('SIGINT');
    expect(await running.exited).toBe(130);
    running = undefined;
    const state = await readFile(join(dir, '.docket/emulator.json'), 'utf8');
    expect(state).toContain(`"${termId}"`);

    expect((await run('apply', '-C', dir, '--emulator', '--auto-approve')).code).toBe(0);
    const plan = await run('plan', '-C', dir, '--emulator', '--detailed-exitcode');
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });
});

describe('docket test --emulator beside an apply --emulator', () => {
  it('waits for the apply lock, as a second apply would: two processes would each save their own copy of the state', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/p.yaml': `${numberedPlaybook(1)}rules:\n  - name: Term\n    actions: ACCEPT\n` });
    await mkdir(join(dir, '.docket'), { recursive: true });
    // An apply of this checkout running now (the process that started this one stands for it).
    await writeFile(join(dir, '.docket', 'apply.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), started: new Date().toISOString() }));
    const r = await run('test', '-C', dir, '--emulator', '--timeout', '300ms');
    expect(r.stderr).toContain('Waiting for another docket apply of this checkout to finish');
    expect(r.stderr).toContain('still after waiting 300ms');
    expect(r.code).toBe(1);
  });
});
