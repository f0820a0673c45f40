/**
 * Golden plan output: text, markdown and JSON of a plan with every review-service action, made
 * against the in-process emulator (whose header is stable). Regenerate with `npx vitest -u`.
 */
import { cp } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaValidator } from '../../src/config/validators.js';
import { runCli } from '../helpers/cli.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';
import { DOCKET_YAML, MSA, NDA } from './fixtures.js';

afterAll(removeMadeDirs);

const EDITED_NDA = NDA.replace('description: NDAs we receive\n', 'description: NDAs we receive from counterparties\n')
  .replace('COUNTERPROPOSE 2 years when longer', 'COUNTERPROPOSE 18 months when longer')
  .replace(/  - name: Residuals\n.*\n/, '  - name: Non-solicitation\n    actions: REJECT any non-solicitation clause\n    reviewer: erin@acme.example\n');
const EDITED_MSA = MSA.replace('name: Vendor MSA\n', 'name: Supplier MSA\nrenamed_from: Vendor MSA\n');

async function editedProject(): Promise<string> {
  const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/msa.yaml': MSA });
  const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
  expect(applied.code).toBe(0);
  await writeFiles(dir, {
    'playbooks/nda.yaml': EDITED_NDA,
    'playbooks/msa.yaml': EDITED_MSA,
    'members.yaml': 'kind: Member\nemail: erin@acme.example\nname: Erin Walsh\n',
  });
  return dir;
}

/** Ids, digests and times differ on every run; the rest must not. */
function stable(json: string): string {
  return json
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, '<uuid>')
    .replace(/"(config_digest|fingerprint|plan_format)": "[0-9a-f]+"/g, '"$1": "<digest>"')
    .replace(/"(created_at|liveUpdatedAt)": "[^"]+"/g, '"$1": "<time>"');
}

describe('golden plans', () => {
  it('text, markdown and JSON of a plan with invite, create, update, rename and delete', async () => {
    const dir = await editedProject();
    const text = await runCli(['plan', '-C', dir, '--emulator']);
    expect(text.code).toBe(0);
    await expect(text.stdout).toMatchFileSnapshot('golden/edit-plan.txt');

    const markdown = await runCli(['plan', '-C', dir, '--emulator', '-o', 'markdown']);
    await expect(markdown.stdout).toMatchFileSnapshot('golden/edit-plan.md');

    const json = await runCli(['plan', '-C', dir, '--emulator', '-o', 'json']);
    await expect(stable(json.stdout)).toMatchFileSnapshot('golden/edit-plan.json');
    const validate = await schemaValidator('plan.schema.json');
    const valid = validate(JSON.parse(json.stdout));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);

    const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect(applied.code).toBe(0);
    const replan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect(replan.code).toBe(0);
  });

  it('a plan of every kind (the bundled example, a template naming attachments in a list) follows the schema, and its saved file shows and applies', async () => {
    const dir = join(await makeDir({}), 'acme-legal');
    // Without what `npm run demo` leaves there (the emulator's state, the lock): a plan from nothing.
    await cp(fileURLToPath(new URL('../../examples/acme-legal', import.meta.url)), dir, { recursive: true, filter: (from) => !/[\\/](\.docket|docket\.lock\.json)$/.test(from) });
    const json = await runCli(['plan', '-C', dir, '--emulator', '-o', 'json']);
    const plan = JSON.parse(json.stdout) as { changes: { kind: string; refs: { path?: string }[] }[] };
    expect(new Set(plan.changes.map((c) => c.kind))).toEqual(new Set(['organization', 'member', 'playbook', 'rule', 'custom-term', 'custom-template', 'template', 'attachment']));
    expect(plan.changes.some((c) => c.refs.some((r) => r.path?.startsWith('attachments[')))).toBe(true);
    const validate = await schemaValidator('plan.schema.json');
    validate(plan);
    expect(validate.errors ?? []).toEqual([]);

    const saved = join(dir, 'plan.json');
    expect((await runCli(['plan', '-C', dir, '--emulator', '--out', saved])).code).toBe(0);
    const shown = await runCli(['show', saved]);
    expect([shown.code, shown.stderr]).toEqual([0, '']);
    const applied = await runCli(['apply', '-C', dir, '--emulator', saved]);
    expect([applied.code, applied.stderr]).toEqual([0, '']);
    expect(applied.stdout).toContain('Apply complete');
    const replan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect(replan.code).toBe(0);
  });
});
