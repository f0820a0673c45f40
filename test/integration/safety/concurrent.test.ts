/**
 * Two applies of the bundled example on one organization at once, from two checkouts (a laptop
 * during a CI apply). Afterwards every identity has one live object: duplicates are archived or
 * deleted by the run that made them, or renamed aside where the service cannot remove them, and a
 * later apply converges to zero changes.
 */
import { cp, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
import { DOCKET_YAML, NDA } from '../fixtures.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { agreementsOf, bin, expectConverged, reviewOf, spawnBin } from './harness.js';

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
  const { synced } = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { synced: Record<string, Record<string, string>> };
  return Object.values(synced).flatMap((records) => Object.entries(records).filter(([key]) => key.startsWith('rule:')).map(([, text]) => text.split(' ')[0]!));
}

const names = (items: { name: string }[]) => items.map((i) => i.name).filter((n) => !n.includes('(duplicate ')).sort();
const unique = (list: string[]) => [...new Set(list)];

it('two applies at once end with one object per identity, and converge', async () => {
  t = await startTestEmulator({ latencyMs: 25 });
  const [a, b] = [await checkout(), await checkout()];
  const runs = [spawnBin(['apply', '-C', a, '--auto-approve'], t.env), spawnBin(['apply', '-C', b, '--auto-approve'], t.env)];
  const codes = await Promise.all(runs.map((r) => r.exited));
  for (const r of runs) expect(r.stderr()).not.toMatch(/Internal error|    at /);
  expect(codes).toEqual([0, 0]);

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
  if (setAside > 0) expect(notes).toContain('another apply created it at the same time');

  // Attachments cannot be listed: each run uploaded its own, and the README says so.
  const run = bin(t);
  expect((await run('apply', '-C', a, '--auto-approve')).code).toBe(0);
  await expectConverged(run, a);
});

it('a playbook another apply created first is kept: this run archives its own copy, and records no rule of that copy', async () => {
  let injected = false;
  t = await startTestEmulator({
    // Just after this run creates the playbook, another run's copy appears, created earlier, with its rules.
    onRequest: (request) => {
      if (injected || request.method !== 'POST' || !request.path.endsWith('/playbooks')) return;
      injected = true;
      const org = reviewOf(t);
      const at = '2000-01-01T00:00:00.000Z';
      const id = t.emulator.store.newId();
      org.playbooks[id] = { id, name: 'Inbound NDA', description: 'NDAs we receive', archived_at: null, created_at: at, updated_at: at };
      for (const name of ['Term', 'Residuals']) {
        const rule = { id: t.emulator.store.newId(), playbook_id: id, name, description: null, actions: null, internal_notes: null, questions: null, generate_summary: true, reviewer_id: null, created_at: at, updated_at: at };
        t.emulator.store.addRule(org, rule);
      }
    },
  });
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
  const run = bin(t);
  const first = await run('apply', '-C', dir, '--auto-approve');
  expect(first.code).toBe(0);
  expect(injected).toBe(true);
  expect(first.stdout).toContain('another apply created it at the same time');
  const org = reviewOf(t);
  const kept = Object.values(org.playbooks).filter((p) => !p.archived_at);
  expect(kept.map((p) => p.created_at)).toEqual(['2000-01-01T00:00:00.000Z']);
  const keptRules = new Set(t.emulator.store.rulesOf(org, kept[0]!.id).map((r) => r.id));
  expect((await ruleRecordIds(dir)).filter((id) => !keptRules.has(id))).toEqual([]);
  // The next apply makes the kept rules say what the files say, and records them.
  expect((await run('apply', '-C', dir, '--auto-approve')).code).toBe(0);
  expect((await ruleRecordIds(dir)).sort()).toEqual([...keptRules].sort());
  await expectConverged(run, dir);
});
