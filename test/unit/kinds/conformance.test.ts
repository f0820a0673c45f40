/**
 * The kind conformance suite: every registered kind passes it by being registered. Against one
 * emulator, the bundled example (plus a Word term) goes through a life cycle that should exercise
 * every action any kind declares; then, per kind: each declared action was executed, the kind's
 * own export plans to zero changes (toConfig ↔ toDesired), identities survive their
 * normalisation and `--target`, the services it names are all it reads, and the schemas know it.
 */
import { EMULATOR_TARGET } from '../../../src/config/lock.js';
import { lockFor } from '../../../src/engine/workspace.js';
import { cp, readFile, rm, writeFile } from 'node:fs/promises';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemasDir } from '../../../src/config/schema.js';
import { fetchLive } from '../../../src/engine/live.js';
import { servicesNeeded, withAskedFor } from '../../../src/engine/project.js';
import { parseTarget } from '../../../src/engine/target.js';
import type { LiveResource, Plan } from '../../../src/engine/types.js';
import { buildExport, type ExportResult } from '../../../src/export/index.js';
import { exportKinds } from '../../../src/export/layout.js';
import { readSchema } from '../../../src/config/schema-read.js';
import { writeExport } from '../../../src/export/write.js';
import { KINDS, type AnyKind, type KindName } from '../../../src/kinds/index.js';
import type { Services } from '../../../src/kinds/kind.js';
import { startEngine, type Engine } from '../../helpers/engine.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { docx } from '../../integration/agreements-fixtures.js';

const EXAMPLE = fileURLToPath(new URL('../../../examples/acme-legal', import.meta.url));

let engine: Engine;
let dir: string;
const executed = new Set<string>();
let live: ReadonlyMap<KindName, LiveResource[]>;

async function edit(file: string, from: string | RegExp, to: string): Promise<void> {
  const path = join(dir, file);
  const text = await readFile(path, 'utf8');
  const next = text.replace(from, to);
  if (next === text) throw new Error(`${file}: the edit changed nothing`);
  await writeFile(path, next);
}

/** Plans and applies, recording every action that was executed. */
async function step(prune?: 'all'): Promise<Plan> {
  const plan = await engine.planned(dir, prune ? { prune } : {});
  const { report } = await engine.apply(dir, plan);
  expect(report.results.filter((r) => r.status !== 'done')).toEqual([]);
  for (const c of plan.changes) executed.add(`${c.kind}:${c.action}`);
  return plan;
}

beforeAll(async () => {
  engine = await startEngine();
  dir = await makeDir({});
  await cp(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes('.docket') && !src.endsWith('docket.lock.json') });
  await writeFile(join(dir, 'custom-terms/data.yaml'), 'kind: CustomTerm\nname: Data Terms\ndocx_file: data.docx\n');
  await writeFile(join(dir, 'custom-terms/data.docx'), docx('version one'));
  await step();

  // Edits: new versions, updates, a replaced attachment, rule changes, a new member.
  await edit('custom-terms/consulting.md', /\n*$/, '\n\n5. **Audit.** Once a year.\n');
  await writeFile(join(dir, 'custom-terms/data.docx'), docx('version two'));
  await edit('custom-templates/consulting.cover.yaml', 'label: Hourly rate', 'label: Hourly rate (EUR)');
  await edit('templates/mutual-nda.yaml', 'term: 2', 'term: 3');
  await writeFile(join(dir, 'attachments/security.pdf'), Buffer.from('%PDF-1.4\n% revised\n'));
  await edit('playbooks/inbound-nda.yaml', 'ACCEPT a term of up to 3 years', 'ACCEPT a term of up to 4 years');
  await edit('playbooks/inbound-nda.yaml', /  - name: Residuals\n(    .*\n)+/, '');
  await edit('playbooks/vendor-msa.yaml', 'description: Master services agreements with our suppliers', 'description: Master services agreements with suppliers');
  await writeFile(join(dir, 'members-new.yaml'), 'kind: Member\nemail: dave@acme.example\n');
  await edit('organization.yaml', 'city: Berlin', 'city: Hamburg');
  await step();

  // Renames of every kind that has names.
  await edit('playbooks/vendor-msa.yaml', 'name: Vendor MSA\n', 'name: Supplier MSA\nrenamed_from: Vendor MSA\n');
  await edit('playbooks/inbound-nda.yaml', '  - name: Term\n', '  - name: Duration\n    renamed_from: Term\n');
  await edit('custom-terms/consulting.yaml', 'name: Consulting Terms', 'name: Services Terms\nrenamed_from: Consulting Terms');
  await edit('custom-templates/consulting.yaml', 'custom_term: Consulting Terms', 'custom_term: Services Terms');
  await edit('custom-templates/consulting.yaml', 'name: Consulting Agreement', 'name: Services Agreement\nrenamed_from: Consulting Agreement');
  await edit('templates/mutual-nda.yaml', 'name: Mutual NDA', 'name: Two-way NDA\nrenamed_from: Mutual NDA');
  await step();

  // Prune: a playbook no file declares any more is archived.
  await rm(join(dir, 'playbooks/vendor-msa.yaml'));
  await step('all');

  const plan = await engine.planned(dir);
  expect(plan.changes).toEqual([]);
  ({ byKind: live } = await fetchLive({ kinds: KINDS, services: engine.services, concurrency: 8, lock: lockFor((await engine.plan(dir)).workspace, EMULATOR_TARGET) }));
}, 60_000);

afterAll(async () => {
  await engine.close();
  await removeMadeDirs();
});

/** Exports the kinds into a fresh directory (with the source's lock), as `docket export` does, and plans it against the same emulator. */
async function exportAndPlan(kinds: AnyKind[]): Promise<{ plan: Plan; result: ExportResult }> {
  const out = await makeDir({});
  const { workspace } = await engine.plan(dir);
  const lock = lockFor(workspace, EMULATOR_TARGET);
  const { config } = workspace;
  const result = buildExport({
    kinds,
    registry: KINDS,
    live,
    project: { agreements: { url: 'https://example.test', actor: 'legal-ops@acme.example' } },
    source: config.project,
    lock,
    schema: readSchema,
    paths: { outRoot: out, schemasDir: schemasDir() },
  });
  await writeExport(out, out, result.files, undefined);
  await writeFile(join(out, 'docket.lock.json'), await readFile(join(dir, 'docket.lock.json'), 'utf8'));
  return { plan: await engine.planned(out), result };
}

describe.each(KINDS.map((k) => [k.name, k] as const))('kind %s', (_name, kind: AnyKind) => {
  it('executed every action it declares in the life cycle', () => {
    const missing = kind.actions.filter((a) => !executed.has(`${kind.name}:${a}`));
    expect(missing, `${kind.name} declares actions the life cycle never executed; add a step that exercises them`).toEqual([]);
  });

  it('has live objects after the life cycle, with identities stable under its normalisation', () => {
    const objects = live.get(kind.name) ?? [];
    expect(objects.length).toBeGreaterThan(0);
    for (const o of objects) {
      if (!kind.keyOf) continue;
      // A live identity is already normal, and normalising is idempotent (what a file or a target says maps to it).
      expect(kind.keyOf(o.key)).toBe(o.key);
      expect(kind.keyOf(kind.keyOf(` ${o.key.toUpperCase()} `))).toBe(kind.keyOf(` ${o.key.toUpperCase()} `));
    }
  });

  if (!kind.internal) it('can be named with --target', () => {
    const o = (live.get(kind.name) ?? [])[0]!;
    const target = parseTarget(kind.singleton ? kind.name : `${kind.name}/${o.key}`, KINDS);
    expect(target).toEqual({ kind: kind.name, key: o.key, text: expect.any(String) });
  });

  it('is known to the plan schema, and has its own schema when files declare it', () => {
    if (kind.yamlKind !== undefined) expect(existsSync(join(schemasDir(), kind.schema!))).toBe(true);
    const plan = JSON.parse(readFileSync(join(schemasDir(), 'plan.schema.json'), 'utf8')) as { $defs: { kind: { enum: string[] } } };
    expect(plan.$defs.kind.enum).toContain(kind.name);
  });

  if (kind.layout !== undefined) it('exports to files that plan to zero changes', async () => {
    const { plan } = await exportAndPlan(exportKinds([kind.name], KINDS));
    expect(plan.changes).toEqual([]);
  });

  if (kind.parentKind !== undefined && kind.layout === undefined) it('exports inside its parent, to files that plan to zero changes', async () => {
    const { plan, result } = await exportAndPlan(exportKinds([kind.parentKind!], KINDS));
    expect(result.parts.flatMap((p) => p.children).find((c) => c.kind === kind.name)?.count).toBeGreaterThan(0);
    expect(plan.changes).toEqual([]);
  });

  it('reads with only the services it names, for plan and for export', async () => {
    const { workspace } = await engine.plan(dir);
    const lock = lockFor(workspace, EMULATOR_TARGET);
    for (const declared of [workspace.desired, undefined]) {
      const needs = servicesNeeded([kind], declared);
      const check = (service: 'review' | 'agreements'): void => {
        if (!needs.has(service)) throw new Error(`${kind.name} ${declared ? 'planned' : 'exported'} asked for the ${service} service, which it does not name`);
      };
      const services: Services = { review: () => (check('review'), engine.services.review()), agreements: () => (check('agreements'), engine.services.agreements()) };
      const state = await fetchLive({ kinds: [kind], known: KINDS, services, concurrency: 8, lock, ...(declared ? { declared } : {}) });
      // Planned: what pull reads as kinds (so a value it writes can name their objects) covers what the fetch asked for.
      if (declared) {
        const asked = withAskedFor([kind], declared).map((k) => k.name);
        expect([...state.byKind.keys()].filter((name) => !asked.includes(name))).toEqual([]);
      }
    }
  });
});
