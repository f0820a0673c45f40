/**
 * Every seed error condition of the emulator's review and agreement routes that docket test uses,
 * over HTTP: seed 000 "Errors" 5 and 7, seed 001's custom template values, owner/signer, page
 * parameter and CSA version naming.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_ID } from '../../src/emulator/server.js';
import { startTestEmulator, ACTOR, type TestEmulator } from '../helpers/emulator.js';

let emu: TestEmulator;
const headers = () => ({ authorization: `Bearer ${emu.env.DOCKET_API_KEY}`, 'content-type': 'application/json' });
async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: { data?: { id: string }; errors?: { field: string }[] } }> {
  const res = await fetch(url, { method, headers: headers(), ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as never };
}
const fields = (r: { body: { errors?: { field: string }[] } }) => (r.body.errors ?? []).map((e) => e.field);

beforeAll(async () => {
  emu = await startTestEmulator({ reviewDelayMs: 0 });
});
afterAll(async () => {
  await emu.emulator.close();
});

describe('review routes (seed 000 "Errors")', () => {
  const review = () => `${emu.env.DOCKET_REVIEW_URL}/v1/organizations/${DEFAULT_ORGANIZATION_ID}`;
  it('5: a counterproposal with both directive and new_text, or neither, is 422', async () => {
    const pb = await call('POST', `${review()}/playbooks`, { name: 'P' });
    await call('POST', `${review()}/playbooks/${pb.body.data!.id}/playbook_rules`, { name: 'Term', actions: 'REJECT any term' });
    const form = new FormData();
    form.append('file', new Blob(['Term: five years.']), 'c.txt');
    const file = (await (await fetch(`${review()}/imported_files`, { method: 'POST', headers: { authorization: headers().authorization }, body: form })).json()) as { data: { id: string } };
    const rv = await call('POST', `${review()}/reviews`, { imported_file_id: file.data.id, playbook_id: pb.body.data!.id, review_type: 'RedlineReview' });
    let evaluations: { data: { id: string }[] } = { data: [] };
    for (let i = 0; i < 50 && evaluations.data.length === 0; i++) {
      evaluations = (await call('GET', `${review()}/reviews/${rv.body.data!.id}/redline_evaluations`)).body as never;
      await new Promise((r) => setTimeout(r, 20));
    }
    const at = `${review()}/reviews/${rv.body.data!.id}/redline_evaluations/${evaluations.data[0]!.id}`;
    for (const counterproposal of [{ directive: 'x', new_text: 'y' }, {}]) {
      const r = await call('PATCH', at, { type: 'counterpropose', counterproposal });
      expect(r.status).toBe(422);
      expect(fields(r)).toContain('counterproposal');
    }
    expect((await call('PATCH', at, { type: 'counterpropose', counterproposal: { directive: 'shorter' } })).status).toBe(200);
  });
  it('7: an MCP mint filename with control characters is 422', async () => {
    for (const filename of ['a\nb.pdf', 'a\u0000.pdf', 'a\u009b.pdf']) {
      const r = await call('POST', `${review()}/reviews`, { filename });
      expect(r.status).toBe(422);
      expect(fields(r)).toEqual(['filename']);
    }
  });
});

describe('agreement routes (seed 001 "Errors")', () => {
  const base = () => emu.env.DOCKET_AGREEMENTS_URL!;
  let custom: string;
  let csa: string;
  beforeAll(async () => {
    const definition = 'title: T\nsections:\n  - heading: S\n    required: true\n    fields:\n      rate: { label: Rate, input: number, required: true }\n';
    custom = (await call('POST', `${base()}/v1/custom_templates`, { name: 'C', definition, user_email: ACTOR })).body.data!.id;
    csa = (await call('POST', `${base()}/v1/templates`, { type: 'CSA', name: 'CSA 3', standard_version: '3.0', template_csa_order_form_attributes: { cloud_service_description: 'x' } })).body.data!.id;
  });
  const create = (template: string, agreement: Record<string, unknown>, parties: Record<string, unknown> = { owner_email: ACTOR, signer_email: ACTOR }) =>
    call('POST', `${base()}/v1/agreements`, { template_id: template, ...parties, draft: true, agreement: { test_agreement: true, ...agreement } });

  it('a custom template value invalid for its input type, or a required one missing, is 400 naming the field', async () => {
    const bad = await create(custom, { custom_field_values: { rate: 'lots' } });
    expect([bad.status, fields(bad)]).toEqual([400, ['rate']]);
    const missing = await create(custom, { custom_field_values: {} });
    expect([missing.status, fields(missing)]).toEqual([400, ['rate']]);
    expect((await create(custom, { custom_field_values: { rate: 12 } })).status).toBe(201);
  });
  it('owner or signer not given by exactly one of id or e-mail is rejected', async () => {
    const users = (await call('GET', `${base()}/v1/users`)).body as unknown as { data: { id: string; attributes: { email: string } }[] };
    const id = users.data.find((u) => u.attributes.email === ACTOR)!.id;
    expect((await create(custom, { custom_field_values: { rate: 1 } }, { owner_email: ACTOR, owner_id: id, signer_email: ACTOR })).status).toBe(422);
    expect((await create(custom, { custom_field_values: { rate: 1 } }, { signer_id: id })).status).toBe(422);
  });
  it('a page parameter not in the documented form is 400', async () => {
    expect((await call('GET', `${base()}/v1/agreements?page[]=2`)).status).toBe(400);
    expect((await call('GET', `${base()}/v1/agreements?page=2`)).status).toBe(200);
  });
  it('a CSA 3.x agreement with a pre-3.0 attribute name is 422', async () => {
    const r = await create(csa, { include_increased_cap_amount: true });
    expect([r.status, fields(r)]).toEqual([422, ['agreement.include_increased_cap_amount']]);
    const nested = await create(csa, { csa: { include_unlimited_claims: true } });
    expect(fields(nested)).toEqual(['agreement.csa.include_unlimited_claims']);
    expect((await create(csa, { include_supercap: true })).status).toBe(201);
  });
});
