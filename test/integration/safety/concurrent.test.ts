/**
 * Two applies of the bundled example on one organization at once, from two checkouts (a laptop
 * during a CI apply). Afterwards every identity has one live object: duplicates are archived or
 * deleted by the run that made them, or renamed aside where the service cannot remove them, and a
 * later apply converges to zero changes.
 */
import { cp } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { afterEach, expect, it } from 'vitest';
import { startTestEmulator, type TestEmulator } from '../../helpers/emulator.js';
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
  // What each run said about a duplicate it set aside is in its report.
  const notes = runs.map((r) => r.stdout()).join('\n');
  const setAside = Object.values(org.playbooks).filter((p) => p.archived_at).length;
  if (setAside > 0) expect(notes).toContain('another apply created it at the same time');

  // Attachments cannot be listed: each run uploaded its own, and the README says so.
  const run = bin(t);
  expect((await run('apply', '-C', a, '--auto-approve')).code).toBe(0);
  await expectConverged(run, a);
});
