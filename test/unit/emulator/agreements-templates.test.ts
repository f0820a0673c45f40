import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed } from '../../../src/emulator/seed.js';
import { startAgreements, type AgreementsHarness } from './agreements-harness.js';
import { closeAll, fields, list, one, problem } from './harness.js';

afterEach(closeAll);

const TEMPLATES = '/v1/templates';

async function uploadPdf(h: AgreementsHarness, name: string): Promise<string> {
  const res = await h.upload('POST', '/v1/attachments', [
    { name: 'attachment[pdf]', file: '%PDF-1.4 test', filename: `${name}.pdf`, type: 'application/pdf' },
    { name: 'attachment[name]', value: name },
  ]);
  return one(res).id;
}

describe('standard templates', () => {
  it('creates an NDA by default and fills the documented defaults the request omits', async () => {
    const h = await startAgreements();
    const res = await h.ag('POST', TEMPLATES, { name: 'Mutual NDA', purpose: 'Evaluating a partnership', term: 3 });
    expect(res.status).toBe(201);
    const tpl = one(res);
    expect(tpl.type).toBe('template_nda');
    expect(tpl.attributes).toMatchObject({
      name: 'Mutual NDA',
      agreement_type: 'NDA',
      standard_version: null,
      purpose: 'Evaluating a partnership',
      term: 3,
      confidentiality_period: 2,
      confidentiality_period_perpetual: false,
      term_period_perpetual: false,
      effective_date_type: 'signature',
      effective_date_of_confidentiality: 'Effective Date',
      negotiations_allowed: true,
      sender_last_to_sign: false,
      include_terms: true,
      include_additional_changes: true,
    });
    expect(one(await h.ag('GET', `${TEMPLATES}/${tpl.id}`)).attributes).toEqual(tpl.attributes);
  });

  it('fills the defaults of each type, CSA with standard_version 2.1 and names for its version', async () => {
    const h = await startAgreements();
    const csa = one(await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'Cloud' }));
    expect(csa.type).toBe('template_csa');
    expect(csa.attributes).toMatchObject({ standard_version: '2.1', effective_date_type: 'signature', include_increased_cap_amount: false, include_dpa: false, processor_invoice_delivery: 'automatic' });
    const csa3 = one(await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'Cloud 3', standard_version: '3.0' }));
    expect(csa3.attributes).toMatchObject({ standard_version: '3.0', include_supercap: false, include_uncapped_claims: false });
    expect(csa3.attributes).not.toHaveProperty('include_increased_cap_amount');
    const design = one(await h.ag('POST', TEMPLATES, { type: 'Design', name: 'Design partner' }));
    expect(design).toMatchObject({ type: 'template_design', attributes: { term_amount: 6, term_unit: 'month(s)', include_program_discount_amount: 20, include_program_discount_unit: '%' } });
    const pilot = one(await h.ag('POST', TEMPLATES, { type: 'Pilot', name: 'Pilot', fees_type: 'paid' }));
    expect(pilot.attributes).toMatchObject({ fees_type: 'paid', payment_process_invoice_days: 15, general_cap_amount: 1000 });
    const partnership = one(await h.ag('POST', TEMPLATES, { type: 'Partnership', name: 'Partners' }));
    expect(partnership.attributes).toMatchObject({ general_cap_amount_type: 'multiple', general_cap_amount_multiple_val: 1 });
    const sl = one(await h.ag('POST', TEMPLATES, { type: 'Software License', name: 'SL' }));
    expect(sl.type).toBe('template_software_license');
    const unknown = await h.ag('POST', TEMPLATES, { type: 'MSA', name: 'X' });
    expect(unknown.status).toBe(422);
    expect(fields(unknown)).toEqual(['type']);
    expect(fields(await h.ag('POST', TEMPLATES, { type: 'NDA' }))).toEqual(['name']);
  });

  it('lists compact attributes, every parameter with full=true, and pages', async () => {
    const h = await startAgreements();
    for (let i = 0; i < 16; i++) await h.ag('POST', TEMPLATES, { name: `NDA ${String(i).padStart(2, '0')}`, purpose: 'p' });
    const compact = await h.ag('GET', TEMPLATES);
    const page = compact.body as { data: { attributes: Record<string, unknown> }[]; meta: { pagination: { records: number; next: number | null } } };
    expect(page.data).toHaveLength(15);
    expect(page.meta.pagination).toMatchObject({ records: 16, next: 2 });
    expect(Object.keys(page.data[0]?.attributes ?? {}).sort()).toEqual(['agreement_type', 'created_at', 'name', 'organization_id', 'standard_version', 'updated_at']);
    const full = list(await h.ag('GET', `${TEMPLATES}?full=true&page[size]=100`));
    expect(full).toHaveLength(16);
    expect(full[0]?.attributes).toMatchObject({ name: 'NDA 00', purpose: 'p', term: 1, negotiations_allowed: true });
  });

  it('PATCH changes the sent parameters and merges nested attributes key by key', async () => {
    const h = await startAgreements();
    const tpl = one(
      await h.ag('POST', TEMPLATES, {
        type: 'CSA',
        name: 'Cloud',
        provider: 'Acme',
        template_csa_order_form_attributes: { cloud_service_description: 'Hosting', subscription_period: 1 },
      }),
    );
    const res = await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { name: 'Cloud v2', include_dpa: true, template_csa_order_form_attributes: { subscription_period: 2, fees_currency: 'EUR' } });
    expect(res.status).toBe(200);
    expect(one(res).attributes).toMatchObject({
      name: 'Cloud v2',
      provider: 'Acme',
      include_dpa: true,
      standard_version: '2.1',
      template_csa_order_form_attributes: { cloud_service_description: 'Hosting', subscription_period: 2, fees_currency: 'EUR' },
    });
    const changeType = await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { type: 'NDA' });
    expect(fields(changeType)).toEqual(['type']);
    const otherNested = await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { template_psa_statement_of_work_attributes: {} });
    expect(fields(otherNested)).toEqual(['template_psa_statement_of_work_attributes']);
    expect(fields(await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { name: '' }))).toEqual(['name']);
    expect((await h.ag('PATCH', `${TEMPLATES}/nope`, { name: 'x' })).status).toBe(404);
  });

  it('rejects CSA attributes spelled for the other standard version (422)', async () => {
    const h = await startAgreements();
    const old3 = await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'C3', standard_version: '3.1', include_increased_cap_amount: true, increased_cap_amount_type: 'base' });
    expect(old3.status).toBe(422);
    expect(fields(old3)).toEqual(['include_increased_cap_amount', 'increased_cap_amount_type']);
    expect(problem(old3).errors?.[0]?.message).toContain('include_supercap');
    const new2 = await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'C2', standard_version: '2.1', include_supercap: true });
    expect(new2.status).toBe(422);
    expect(fields(new2)).toEqual(['include_supercap']);
    const defaulted = await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'C', include_uncapped_claims: true });
    expect(fields(defaulted)).toEqual(['include_uncapped_claims']);
    const ok3 = one(await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'C3', standard_version: '3.1', include_supercap: true }));
    expect(ok3.attributes.include_supercap).toBe(true);
    // On update the stored version decides when the body sends none.
    expect(fields(await h.ag('PATCH', `${TEMPLATES}/${ok3.id}`, { include_unlimited_claims: true }))).toEqual(['include_unlimited_claims']);
    // Other types keep their names whatever the version.
    expect((await h.ag('POST', TEMPLATES, { type: 'PSA', name: 'P', standard_version: '3.0', include_unlimited_claims: true })).status).toBe(201);
  });

  it('rejects a default_signer_email that is not a user of the organization', async () => {
    const h = await startAgreements({ seed: defaultSeed({ users: [{ email: 'alice@acme.example' }] }) });
    const bad = await h.ag('POST', TEMPLATES, { name: 'N', default_signer_email: 'ghost@elsewhere.example' });
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['default_signer_email']);
    const ok = await h.ag('POST', TEMPLATES, { name: 'N', default_signer_email: 'Alice@acme.example' });
    expect(ok.status).toBe(201);
    expect(fields(await h.ag('PATCH', `${TEMPLATES}/${one(ok).id}`, { default_signer_email: 'ghost@x.example' }))).toEqual(['default_signer_email']);
  });

  it('checks attachment_ids and *_attachment_id parameters against uploaded attachments', async () => {
    const h = await startAgreements();
    const pdf = await uploadPdf(h, 'Security policy');
    const missing = await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'C', attachment_ids: [pdf, 'no-such-attachment'] });
    expect(missing.status).toBe(422);
    expect(fields(missing)).toEqual(['attachment_ids']);
    expect(problem(missing).errors?.[0]?.message).toContain('no-such-attachment');
    const nested = await h.ag('POST', TEMPLATES, {
      type: 'CSA',
      name: 'C',
      include_dpa_attachment_id: 'nope',
      template_csa_order_form_attributes: { include_sla_attachment_id: 'nope-2' },
    });
    expect(fields(nested)).toEqual(['include_dpa_attachment_id', 'template_csa_order_form_attributes.include_sla_attachment_id']);
    expect(fields(await h.ag('POST', TEMPLATES, { name: 'N', attachment_ids: 'x' }))).toEqual(['attachment_ids']);
    const created = await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'C', attachment_ids: [pdf], include_dpa_attachment_id: pdf, include_ai_addendum_attachment_id: null });
    expect(created.status).toBe(201);
    expect(one(created).attributes).toMatchObject({ attachment_ids: [pdf], include_dpa_attachment_id: pdf });
    expect(list(await h.ag('GET', TEMPLATES))).toHaveLength(1);
  });

  it('starts with the seeded templates, defaults filled', async () => {
    const seed = defaultSeed();
    const org = seed.organizations[0];
    if (org) org.agreements = { templates: [{ id: 'tpl-1', type: 'CSA', name: 'Seeded CSA', standard_version: '3.0', parameters: { provider: 'Acme' } }] };
    const h = await startAgreements({ seed });
    expect(one(await h.ag('GET', `${TEMPLATES}/tpl-1`))).toMatchObject({ type: 'template_csa', attributes: { name: 'Seeded CSA', provider: 'Acme', include_supercap: false } });
  });
});
