import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemasDir } from '../../../src/config/schema.js';
import { AGREEMENT_TYPES, defaultStandardVersion, templateResourceType, withDefaults } from '../../../src/emulator/template-defaults.js';
import type { ProjectConfig } from '../../../src/config/types.js';
import type { LiveResource } from '../../../src/engine/types.js';
import { buildExport } from '../../../src/export/index.js';
import { exportKinds } from '../../../src/export/layout.js';
import { KINDS } from '../../../src/kinds/index.js';
import { equalsDefault, templateDocument, type ParameterSchema, type TemplateData, type TemplateExportContext } from '../../../src/kinds/support/template-config.js';
import { TEMPLATE_TYPES } from '../../../src/kinds/support/template-params.js';

const schemas = new Map<string, ParameterSchema>(
  TEMPLATE_TYPES.map((t) => [t.type, JSON.parse(readFileSync(join(schemasDir(), t.schema), 'utf8')) as ParameterSchema]),
);

const SECURITY_ID = '11111111-1111-4111-8111-111111111111';
const OTHER_ID = '22222222-2222-4222-8222-222222222222';

function ctx(names: Record<string, string> = {}): TemplateExportContext {
  return { schemas, attachmentName: (id) => names[id] };
}

/** A template as the service lists it: metadata, every parameter with the server defaults filled in. */
function live(type: (typeof AGREEMENT_TYPES)[number], sent: Record<string, unknown>, standardVersion = defaultStandardVersion(type)): TemplateData {
  return {
    id: 'tpl-1',
    wireType: templateResourceType(type),
    attributes: {
      name: `My ${type}`,
      standard_version: standardVersion,
      agreement_type: type,
      ...withDefaults(type, standardVersion, sent),
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-02T00:00:00Z',
    },
  };
}

const doc = (t: TemplateData, c = ctx()) => templateDocument(t, c)!;

describe('templateDocument: dropping defaults', () => {
  it.each(AGREEMENT_TYPES)('writes no parameters for a %s template that holds only the server defaults', (type) => {
    const result = doc(live(type, {}));
    expect(result.doc.parameters).toBeUndefined();
    expect(result.notes).toEqual([]);
  });

  it('keeps only the non-default values, in schema order, with the short type and standard_version', () => {
    const result = doc(live('NDA', { purpose: 'Evaluating a partnership', term: 2, confidentiality_period: 2, negotiations_allowed: true, governing_law_country: null }));
    expect(result.doc).toEqual({ kind: 'Template', name: 'My NDA', type: 'NDA', parameters: { term: 2, purpose: 'Evaluating a partnership' } });
    expect(Object.keys(result.doc)).toEqual(['kind', 'name', 'type', 'parameters']);
    const order = Object.keys(schemas.get('NDA')!.properties!);
    const written = Object.keys(result.doc.parameters as object);
    expect(written).toEqual([...written].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  });

  it('says a parameter that holds none where its type documents a default: a file cannot say none, and an apply elsewhere gives the default (probe KJ-2)', () => {
    const result = doc(live('NDA', { term: null, effective_date_type: null, negotiations_allowed: false, governing_law_country: null }));
    expect(result.doc.parameters).toEqual({ negotiations_allowed: false });
    expect(result.notes).toEqual([
      // In the schema's order.
      '`term` holds no value on the service, which a file cannot write; not written (applied elsewhere, it takes the type\'s default, 1)',
      '`effective_date_type` holds no value on the service, which a file cannot write; not written (applied elsewhere, it takes the type\'s default, "signature")',
    ]);
  });

  it('writes free text cleared live as `""` where its type documents a default, as pull does: an apply elsewhere clears it too rather than taking the default (probe HH-1)', () => {
    const result = doc(live('Design', { product_description: 'Widget', term_unit: '', include_program_discount_unit: null }));
    expect(result.doc.parameters).toEqual({ product_description: 'Widget', term_unit: '', include_program_discount_unit: '' });
    expect(result.notes).toEqual([]);
    // Alone, it is still written.
    expect(doc(live('Design', { term_unit: null })).doc.parameters).toEqual({ term_unit: '' });
  });

  it('writes a parameter whose text is white space alone: a value, which plan compares as one, not none (probe PK-2)', () => {
    const result = doc(live('Design', { product_description: 'Widget', term_unit: '  ', customer_description: ' ' }));
    expect(result.doc.parameters).toEqual({ product_description: 'Widget', term_unit: '  ', customer_description: ' ' });
    expect(result.notes).toEqual([]);
  });

  it('keeps parameters whose type the docs do not give (no documented default), but not an empty text or false', () => {
    const result = doc(live('PSA', { provider: 'Acme Consulting', customer_description: '', include_increased_claims_indemnification_obligation: false }));
    expect(result.doc.parameters).toEqual({ provider: 'Acme Consulting' });
    expect(result.notes).toEqual([]);
    expect(doc(live('Pilot', { general_cap_preceding_amount: 6 })).doc.parameters).toMatchObject({ general_cap_preceding_amount: 6 });
  });

  it('compares numbers and numeric strings by value, as the plan does', () => {
    expect(equalsDefault('1', 1)).toBe(true);
    expect(equalsDefault('1.0', 1)).toBe(true);
    expect(equalsDefault(false, 'false')).toBe(false);
    expect(doc(live('NDA', { term: '1' })).doc.parameters).toBeUndefined();
  });

  it('keeps every value inside nested template_*_attributes, defaults too (whether a service fills them on create is not documented)', () => {
    const result = doc(
      live('CSA', {
        provider: 'Acme, Inc.',
        template_csa_order_form_attributes: {
          cloud_service_description: 'Contract analytics',
          subscription_period: 1,
          subscription_period_unit: 'year(s)',
          fees_currency: 'EUR',
          include_fees: false,
          max_users: null,
        },
      }),
    );
    expect(result.doc.standard_version).toBe('2.1');
    expect(result.doc.parameters).toEqual({
      provider: 'Acme, Inc.',
      // Left out, an order form's `subscription_period: 1` could be unset in another organization the export is applied to.
      template_csa_order_form_attributes: { cloud_service_description: 'Contract analytics', subscription_period: 1, subscription_period_unit: 'year(s)', fees_currency: 'EUR', include_fees: false },
    });
    expect(result.notes).toEqual([]);
  });

  it('puts a required nested key back even when it equals its default', () => {
    const schema: ParameterSchema = {
      properties: {
        template_x_attributes: { required: ['unit'], properties: { unit: { default: 'year' }, amount: { default: 1 } } },
      },
    };
    const c: TemplateExportContext = { schemas: new Map([['NDA', schema]]), attachmentName: () => undefined };
    const t: TemplateData = { id: 'x', wireType: 'template_nda', attributes: { name: 'X', template_x_attributes: { unit: 'year', amount: 3 } } };
    expect(doc(t, c).doc.parameters).toEqual({ template_x_attributes: { unit: 'year', amount: 3 } });
  });

  it('leaves out a nested object that holds nothing, and one whose required key the service lacks (with a note)', () => {
    const empty = doc(live('CSA', { template_csa_order_form_attributes: { max_users: null, include_use_limitations_val: '' } }));
    expect([empty.doc.parameters, empty.notes]).toEqual([undefined, []]);
    const defaultsOnly = doc(live('CSA', { template_csa_order_form_attributes: { subscription_period: 1, fees_currency: 'USD' } }));
    expect([defaultsOnly.doc.parameters, defaultsOnly.notes]).toEqual([undefined, ['`template_csa_order_form_attributes` not written: `cloud_service_description` is required but the service holds none']]);

    // Empty text is none too: written, validate would refuse the file (a required text is not blank).
    for (const none of [null, '', '\n']) {
      const noRequired = doc(live('CSA', { template_csa_order_form_attributes: { cloud_service_description: none, fees_currency: 'EUR' } }));
      expect(noRequired.doc.parameters).toBeUndefined();
      expect(noRequired.notes).toEqual(['`template_csa_order_form_attributes` not written: `cloud_service_description` is required but the service holds none']);
    }
  });

  it('writes a default value back when a condition on a written value requires it', () => {
    const schema: ParameterSchema = {
      properties: { mode: { default: 'simple' }, extra: { default: 5 }, other: {} },
      allOf: [{ if: { properties: { mode: { const: 'custom' } }, required: ['mode'] }, then: { required: ['extra'] } }],
    };
    const c: TemplateExportContext = { schemas: new Map([['NDA', schema]]), attachmentName: () => undefined };
    const at = (attributes: Record<string, unknown>): TemplateData => ({ id: 'x', wireType: 'template_nda', attributes: { name: 'X', ...attributes } });
    expect(doc(at({ mode: 'custom', extra: 5, other: 'o' }), c).doc.parameters).toEqual({ mode: 'custom', extra: 5, other: 'o' });
    expect(doc(at({ mode: 'simple', extra: 5, other: 'o' }), c).doc.parameters).toEqual({ other: 'o' });
    // Empty text is no value too: written, validate would refuse it (a required text is not blank).
    for (const none of [null, '', '\r\n', '  \t ', '\u00a0']) {
      const missing = doc(at({ mode: 'custom', extra: none }), c);
      expect(missing.doc.parameters).toEqual({ mode: 'custom' });
      expect(missing.notes).toEqual(['`mode` is "custom" but the service holds no `extra`; plan will report it until the file says what to use']);
    }
  });

  it('keeps a value the real schema requires under a condition (CSA: general_cap_amount for `base`)', () => {
    const result = doc(live('CSA', { general_cap_amount_type: 'base', general_cap_amount: 50000 }));
    expect(result.doc.parameters).toEqual({ general_cap_amount_type: 'base', general_cap_amount: 50000 });
  });
});

describe('templateDocument: CSA spellings by standard_version', () => {
  it('writes only the 3.x names on 3.x and only the old names before', () => {
    const three = doc(live('CSA', { include_supercap: true, supercap_type: 'multiple' }, '3.0'));
    expect(three.doc.standard_version).toBe('3.0');
    expect(three.doc.parameters).toEqual({ include_supercap: true, supercap_type: 'multiple' });

    const two = doc(live('CSA', { include_increased_cap_amount: true }, '2.1'));
    expect(two.doc.parameters).toEqual({ include_increased_cap_amount: true });
  });

  it('notes a non-default value held under the spelling that does not fit the version', () => {
    const result = doc(live('CSA', { include_supercap: true }, '2.1'));
    expect(result.doc.parameters).toBeUndefined();
    expect(result.notes).toEqual(['`include_supercap` is not the spelling for standard_version 2.1; not written']);
  });
});

describe('templateDocument: attachments', () => {
  const csa = (sent: Record<string, unknown>) =>
    live('CSA', { include_security_policy: true, include_security_policy_type: 'attachment', include_security_policy_attachment_id: SECURITY_ID, ...sent });

  it('names exported attachments: `{ attachment: <name> }` parameters and a sorted `attachments:` list', () => {
    const result = doc(csa({ attachment_ids: [SECURITY_ID, OTHER_ID] }), ctx({ [SECURITY_ID]: 'Security Exhibit', [OTHER_ID]: 'Acceptable Use' }));
    expect(result.doc.parameters).toEqual({
      include_security_policy: true,
      include_security_policy_type: 'attachment',
      include_security_policy_attachment_id: { attachment: 'Security Exhibit' },
    });
    expect(result.doc.attachments).toEqual(['Acceptable Use', 'Security Exhibit']);
    expect(result.notes).toEqual([]);
  });

  it('keeps unknown ids as uuids in parameters and leaves `attachments:` out when any id is unknown', () => {
    const result = doc(csa({ attachment_ids: [SECURITY_ID, OTHER_ID] }), ctx({ [SECURITY_ID]: 'Security Exhibit' }));
    expect((result.doc.parameters as Record<string, unknown>).include_security_policy_attachment_id).toEqual({ attachment: 'Security Exhibit' });
    expect(result.doc.attachments).toBeUndefined();
    expect(result.notes).toHaveLength(1);
    expect(result.notes[0]).toContain(OTHER_ID);

    const none = doc(csa({}), ctx());
    expect((none.doc.parameters as Record<string, unknown>).include_security_policy_attachment_id).toBe(SECURITY_ID);
  });

  it('says an unknown attachment waits for its pending document only when the export wrote one for it, and names --kind attachment when it left one out', () => {
    const THIRD_ID = '33333333-3333-4333-8333-333333333333';
    const FOURTH_ID = '44444444-4444-4444-8444-444444444444';
    const pending = new Set([OTHER_ID]);
    const known = new Set([OTHER_ID, FOURTH_ID]);
    const result = doc(csa({ attachment_ids: [SECURITY_ID, OTHER_ID, THIRD_ID, FOURTH_ID] }), { ...ctx(), attachmentPending: (id) => pending.has(id), attachmentKnown: (id) => known.has(id) });
    expect(result.notes).toEqual([
      // The parameter too names an id no document was written for (probe ZC-1).
      expect.stringContaining(`\`include_security_policy_attachment_id\` is written as the id ${SECURITY_ID}, an upload the source docket.lock.json does not record`),
      `\`attachments\` (${OTHER_ID}) not written: an attachment can be named only once its Attachment document is active (its PDF added, its .yaml.pending renamed); then list it here by name`,
      `\`attachments\` (${FOURTH_ID}) not written: this export leaves attachments out; export with --kind attachment too, then list it here by name`,
      `\`attachments\` (${SECURITY_ID}, ${THIRD_ID}) not written: no Attachment document was written for them (the service cannot list attachments; only those docket.lock.json records are known): write one for each, pinned with \`id:\` to its id, with the PDF beside it, and run \`docket apply --adopt-files\` (it records the PDF as the live one, uploading nothing; without the pin apply uploads a second attachment, and attachments cannot be deleted); then list them here by name`,
    ]);
  });

  it('says in pull\'s words what to write for an id pull leaves: pull writes no Attachment document, and has no source (probe FF-2)', () => {
    const known = new Set([OTHER_ID]);
    const pulled = doc(csa({ attachment_ids: [OTHER_ID, SECURITY_ID] }), { ...ctx(), attachmentKnown: (id) => known.has(id), pulling: true });
    expect(pulled.notes).toEqual([
      `\`include_security_policy_attachment_id\` is written as the id ${SECURITY_ID}, an upload docket.lock.json does not record (made by another checkout or in the app; the service cannot list attachments): to manage it here, write an Attachment document pinned with \`id: ${SECURITY_ID}\`, with that PDF beside it, and run \`docket apply --adopt-files\`; adopting another upload of the same name instead points the template at that one`,
      `\`attachments\` (${OTHER_ID}) not written: docket.lock.json records that upload, but no Attachment document here declares it; write one for it, then list it here by name`,
      expect.stringMatching(new RegExp(`^\`attachments\` \\(${SECURITY_ID}\\) not written: no Attachment document here declares it \\(the service`)),
    ]);
    expect(pulled.notes.join('\n')).not.toMatch(/source|this export|was written/);
  });

  it('says a parameter written as an id the way it says an `attachments` id: waiting for its pending document, left out, or an upload the lock does not record (probe ZC-1)', () => {
    const pending = new Set([OTHER_ID]);
    const ctxOf = { ...ctx(), attachmentPending: (id: string) => pending.has(id), attachmentKnown: (id: string) => pending.has(id) };
    const unknown = doc(live('CSA', { include_security_policy: true, include_security_policy_type: 'attachment', include_security_policy_attachment_id: SECURITY_ID }), ctxOf);
    expect((unknown.doc.parameters as Record<string, unknown>).include_security_policy_attachment_id).toBe(SECURITY_ID);
    expect(unknown.notes).toEqual([
      `\`include_security_policy_attachment_id\` is written as the id ${SECURITY_ID}, an upload the source docket.lock.json does not record (made by another checkout or in the app; the service cannot list attachments), so no Attachment document was written for it: write one pinned with \`id: ${SECURITY_ID}\`, with that PDF beside it, and run \`docket apply --adopt-files\`; adopting another upload of the same name instead points the template at that one`,
    ]);
    const nested = doc(live('CSA', { template_csa_order_form_attributes: { cloud_service_description: 'X', include_sla: true, include_sla_type: 'attachment', include_sla_attachment_id: OTHER_ID } }), ctxOf);
    expect(nested.notes).toEqual([
      `\`template_csa_order_form_attributes.include_sla_attachment_id\` is written as the id ${OTHER_ID}: an attachment can be named only once its Attachment document is active (its PDF added, its .yaml.pending renamed); then write \`{ attachment: <its name> }\``,
    ]);
    // One written by name is said nothing of.
    expect(doc(live('CSA', { include_security_policy: true, include_security_policy_type: 'attachment', include_security_policy_attachment_id: SECURITY_ID }), ctx({ [SECURITY_ID]: 'Security Exhibit' })).notes).toEqual([]);
  });

  it('maps ids inside nested objects too', () => {
    const result = doc(
      live('CSA', { template_csa_order_form_attributes: { cloud_service_description: 'X', include_sla: true, include_sla_type: 'attachment', include_sla_attachment_id: SECURITY_ID } }),
      ctx({ [SECURITY_ID]: 'SLA' }),
    );
    expect(result.doc.parameters).toEqual({
      template_csa_order_form_attributes: { cloud_service_description: 'X', include_sla: true, include_sla_type: 'attachment', include_sla_attachment_id: { attachment: 'SLA' } },
    });
  });
});

/** Templates exported as `docket export` does: the Template kind's toConfig, laid out by buildExport. */
function exportTemplates(templates: TemplateData[]) {
  const live: LiveResource[] = templates.map((t) => ({ kind: 'template', id: t.id, key: String(t.attributes.name), name: String(t.attributes.name), fields: {}, refs: [], extra: { wireType: t.wireType, attributes: t.attributes } }));
  const result = buildExport({
    kinds: exportKinds(['template'], KINDS),
    registry: KINDS,
    live: new Map([['template', live]]),
    project: {},
    source: { agreements: {}, review: {} } as unknown as ProjectConfig,
    lock: { files: {} },
    schema: (file) => JSON.parse(readFileSync(join(schemasDir(), file), 'utf8')) as unknown,
    paths: { outRoot: '/out', schemasDir: '/docket/schemas' },
  });
  return { files: result.files.filter((f) => f.path !== 'docket.yaml'), notes: result.notes };
}

describe('the Template kind exported', () => {

  it('skips parameters docket does not know, with a note, and never writes name, attachment_ids or timestamps', () => {
    const part = exportTemplates([live('NDA', { term: 3, mystery_flag: true, attachment_ids: [] })]);
    expect(part.files).toHaveLength(1);
    const text = part.files[0]!.content;
    expect(text).toContain('  term: 3\n');
    expect(text).not.toMatch(/mystery_flag|attachment_ids|created_at|agreement_type|\n {2}name:/);
    expect(part.notes).toEqual(['template "My NDA": `mystery_flag` is not a parameter docket knows for this type; not written']);
  });

  it('writes fee items with the keys their schema knows: an item id silently left out, another unknown key with a note', () => {
    const fees = [{ id: 'fee-1', description: 'Setup', cost: 100, extra: 'x', processor_product_id: null }];
    const result = doc(live('CSA', { provider: 'Acme', template_csa_order_form_attributes: { cloud_service_description: 'Platform', subscription_period: 1, fees_attributes: fees } }));
    expect((result.doc.parameters as Record<string, Record<string, unknown>>).template_csa_order_form_attributes!.fees_attributes).toEqual([{ description: 'Setup', cost: 100 }]);
    expect(result.notes).toEqual(['`template_csa_order_form_attributes.fees_attributes[0].extra` is not a parameter docket knows for this type; not written']);
  });

  it('reads the type as the Template kind does: a generic type with agreement_type exports as its short type', () => {
    const generic: TemplateData = { id: 'g', wireType: 'template', attributes: { name: 'License', agreement_type: 'software_license', standard_version: null } };
    const part = exportTemplates([generic]);
    expect(part.files).toHaveLength(1);
    expect(part.files[0]!.content).toContain('type: Software License\n');
  });

  it('skips templates of an unknown type with a note, and names files by slug with collisions in name order', () => {
    const a = { ...live('NDA', {}), id: 'b' };
    const b = { ...live('NDA', { term: 5 }), id: 'a' };
    const odd: TemplateData = { id: 'c', wireType: 'template_unheard_of', attributes: { name: 'Odd' } };
    const part = exportTemplates([a, odd, b]);
    expect(part.files.map((f) => f.path).sort()).toEqual(['templates/my-nda-2.yaml', 'templates/my-nda.yaml']);
    // Collisions in name order, ties by live id: `a` gets the plain name.
    expect(part.files.find((f) => f.path === 'templates/my-nda.yaml')!.content).toContain('term: 5');
    expect(part.notes).toContain('template "Odd": not written, as its type template_unheard_of is one docket does not know');
    expect(part.notes).toContain('several templates are named "My NDA": docket identifies them by name, so plan will refuse them until all but one are renamed');
  });

  it('starts the file with the schema comment and quotes standard_version', () => {
    const part = exportTemplates([live('CSA', { provider: 'Acme' })]);
    expect(part.files[0]!.content).toBe(
      '# yaml-language-server: $schema=../../docket/schemas/template.schema.json\nkind: Template\nname: My CSA\ntype: CSA\nstandard_version: "2.1"\nparameters:\n  provider: Acme\n',
    );
  });
});
