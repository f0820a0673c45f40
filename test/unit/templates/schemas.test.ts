/**
 * The template schemas as files: generated and up to date, documented for editors, consistent with
 * TEMPLATE_TYPES and CSA_RENAMES, and covering seed 002's parameters with the seed's types.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { typedView } from '../../helpers/schema-view.js';
import { schemasDir } from '../../../src/config/load.js';
import { schemaValidator } from '../../../src/config/validators.js';
import { KINDS } from '../../../src/kinds/index.js';
import { CSA_RENAMES, TEMPLATE_TYPES } from '../../../src/kinds/support/template-params.js';

type Schema = Record<string, unknown> & { properties?: Record<string, Schema>; items?: Schema; allOf?: Schema[] };

function read(name: string): Schema {
  // What each field is typed as; the placeholder alternative every typed field has is tested on its own.
  return typedView(JSON.parse(readFileSync(path.join(schemasDir(), name), 'utf8')) as Schema);
}

/** Every `properties` map anywhere in `schema`, with its location. */
function propertyMaps(schema: unknown, at = '#'): [string, Record<string, Schema>][] {
  if (schema === null || typeof schema !== 'object') return [];
  const out: [string, Record<string, Schema>][] = [];
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'properties' && value && typeof value === 'object') out.push([at, value as Record<string, Schema>]);
    out.push(...propertyMaps(value, `${at}/${key}`));
  }
  return out;
}

/** Object schemas that declare properties outside if/then and `not` (those only restate names). */
function objectSchemas(schema: unknown, at = '#'): [string, Schema][] {
  if (schema === null || typeof schema !== 'object') return [];
  const s = schema as Schema;
  const out: [string, Schema][] = s.type === 'object' && s.properties ? [[at, s]] : [];
  for (const [key, value] of Object.entries(s)) {
    if (key === 'not' || key === 'allOf') continue;
    out.push(...objectSchemas(value, `${at}/${key}`));
  }
  return out;
}

const props = (file: string): Record<string, Schema> => read(file).properties!;
const nestedProps = (file: string, key: string): Record<string, Schema> => props(file)[key]!.properties!;
const itemProps = (s: Schema): Record<string, Schema> => s.items!.properties!;

const FILES = ['template.schema.json', ...TEMPLATE_TYPES.map((t) => t.schema)];

describe('template schema files', () => {
  it('are what the generator writes (the kind enum and prune keys from the source registry)', async () => {
    const script = path.join(schemasDir(), '..', 'scripts', 'gen-schemas.mjs');
    const { generateSchemas } = (await import(pathToFileURL(script).href)) as { generateSchemas(kinds: unknown): { file: string; text: string }[] };
    for (const { file, text } of generateSchemas(KINDS)) expect(readFileSync(file, 'utf8'), `${path.basename(file)} is out of date: run npm run gen:schemas`).toBe(text);
  });

  it.each(FILES)('%s compiles and is documented for editors', async (name) => {
    const schema = read(name);
    expect(schema.$schema).toBe('http://json-schema.org/draft-07/schema#');
    // No $id: an editor resolves the relative $refs next to the file it read, not on a host nobody runs.
    expect(schema.$id).toBeUndefined();
    expect(typeof schema.title).toBe('string');
    expect(schema.additionalProperties).toBe(false);
    for (const [where, map] of propertyMaps(schema)) {
      for (const [key, prop] of Object.entries(map)) {
        // if-schemas only test a value; every other property explains itself.
        if (where.includes('/if')) continue;
        expect(typeof prop.description, `${where}/${key}`).toBe('string');
      }
    }
    for (const [where, object] of objectSchemas(schema)) expect(object.additionalProperties, where).toBe(false);
    await expect(schemaValidator(name)).resolves.toBeTypeOf('function');
  });

  it('route each type to its parameters schema by relative $ref', () => {
    const template = read('template.schema.json');
    expect((template.properties!.type as Schema).enum).toEqual(TEMPLATE_TYPES.map((t) => t.type));
    const routes = template.allOf!.map((branch) => [
      ((branch.if as Schema).properties!.type as Schema).const,
      ((branch.then as Schema).properties!.parameters as Schema).$ref,
    ]);
    expect(routes).toEqual(TEMPLATE_TYPES.map((t) => [t.type, t.schema]));
  });

  it.each(TEMPLATE_TYPES)('$type: wire name and nested objects match the schema', ({ type, wire, schema, nested }) => {
    expect(wire).toBe(`template_${type.toLowerCase().replace(/ /g, '_')}`);
    const p = props(schema);
    const objects = Object.keys(p).filter((k) => p[k]!.type === 'object');
    expect(objects).toEqual(nested ?? []);
  });
});

describe('seed 002 coverage', () => {
  const COMMON = [
    'governing_law_region',
    'governing_law_country',
    'chosen_courts_region',
    'chosen_courts_country',
    'district_or_county',
    'negotiations_allowed',
    'default_signer_email',
    'sender_role',
    'recipient_role',
    'sender_last_to_sign',
    'include_terms',
    'include_additional_changes',
    'additional_changes',
  ];

  it.each(TEMPLATE_TYPES)('$type has the common parameters, and name/attachment_ids only as pointers elsewhere', ({ schema }) => {
    const p = props(schema);
    for (const key of COMMON) expect(p[key], key).toBeDefined();
    expect(p.negotiations_allowed).toMatchObject({ type: 'boolean', default: true });
    expect(p.sender_last_to_sign).toMatchObject({ type: 'boolean', default: false });
    expect(p.name).toMatchObject({ not: {} });
    expect(p.attachment_ids).toMatchObject({ not: {} });
  });

  it('BAA has only the common parameters', () => {
    expect(Object.keys(props('templates/baa.schema.json'))).toEqual(['name', ...COMMON, 'attachment_ids']);
  });

  it('NDA has its table with types, enums and defaults', () => {
    const p = props('templates/nda.schema.json');
    expect(Object.keys(p)).toHaveLength(COMMON.length + 2 + 8);
    expect(p.term).toMatchObject({ type: ['integer', 'string'], default: 1 });
    expect(p.confidentiality_period).toMatchObject({ type: ['integer', 'string'], default: 2 });
    expect(p.effective_date).toMatchObject({ type: 'string', format: 'date' });
    expect(p.effective_date_of_confidentiality!.enum).toEqual(['Effective Date', 'date of last disclosure']);
  });

  it('CSA: datetime, decimal, attachment id, both spellings of renamed attributes', () => {
    const p = props('templates/csa.schema.json');
    expect(p.effective_date!.anyOf).toEqual([{ format: 'date', pattern: expect.stringContaining('-02-29'), patternErrorMessage: expect.stringContaining('leap year') }, { pattern: expect.stringContaining('-02-29)[Tt ]'), patternErrorMessage: expect.any(String) }]);
    expect(p.general_cap_preceding_amount!.type).toEqual(['number', 'string']);
    expect(p.general_cap_amount_type!.enum).toEqual(['preceding', 'base', 'unlimited']);
    expect((p.include_ai_addendum_attachment_id!.anyOf as Schema[])[0]).toEqual({ type: 'string', format: 'uuid', pattern: expect.stringMatching(/^\^\[0-9a-fA-F\]/) });
    for (const [oldName, newName] of CSA_RENAMES) {
      const { description: oldDescription, ...oldShape } = p[oldName]!;
      const { description: newDescription, ...newShape } = p[newName]!;
      expect(newShape, newName).toEqual(oldShape);
      expect(oldDescription).toContain(`\`${newName}\``);
      expect(newDescription).toContain(`\`${oldName}\``);
    }
    expect(Object.values(p).filter((s) => String(s.description).includes('Pre-3.0 name'))).toHaveLength(CSA_RENAMES.size);
    // Further names: PSA/CSA groups and the CSA insurance group; not the PSA insurance group.
    for (const key of ['effective_date_marketplace', 'include_increased_claims_negligence', 'include_acceptable_use_policy_location', 'include_insurance_minimums_cyber_liability_aggregate', 'include_insurance_minimums_additional_information_text']) {
      expect(p[key], key).toBeDefined();
    }
    expect(p.include_provider_insurance_min_general_liability_minimum).toBeUndefined();
  });

  it('CSA order form: table, expanded groups, item arrays, extras', () => {
    const o = nestedProps('templates/csa.schema.json', 'template_csa_order_form_attributes');
    expect(props('templates/csa.schema.json').template_csa_order_form_attributes!.required).toEqual(['cloud_service_description']);
    for (const day of ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday']) {
      expect(o[`include_sla_standard_maintenance_window_${day}`], day).toMatchObject({ type: 'boolean', default: false });
    }
    expect(o.include_sla_standard_maintenance_window_start_time).toMatchObject({ type: 'string' });
    expect(o.include_sla_type!.enum).toEqual(['description', 'standard', 'attachment']);
    expect(o.max_users).toMatchObject({ type: ['integer', 'string'], default: 10 });
    expect(Object.keys(itemProps(o.fees_attributes!))).toEqual(['type', 'fee_type', 'processor_product_id', 'description', 'cost']);
    expect(Object.keys(itemProps(o.service_credits_attributes!))).toEqual(['min', 'max', 'credit']);
    expect(Object.keys(itemProps(o.use_limitations_attributes!))).toEqual(['limitation_type', 'amount', 'unit']);
    for (const key of ['include_sla_standard_maintenance_window_time_zone', 'invoice_period_custom_unit', 'framework_terms_type', 'underlying_agreement_id']) {
      expect(o[key], key).toBeDefined();
    }
    expect(o.include_fees_table_period).toMatchObject({ type: 'string' }); // typed row wins over the further list
  });

  it('DPA: expanded groups and subprocessors', () => {
    const p = props('templates/dpa.schema.json');
    const personal = Object.keys(p).filter((k) => /^include_personal_data_[a-z_]+$/.test(k) && !k.endsWith('_val'));
    expect(personal).toHaveLength(9);
    expect(Object.keys(p).filter((k) => k.startsWith('include_security_measures_'))).toHaveLength(1 + 17 * 2);
    expect(Object.keys(p).filter((k) => k.startsWith('include_processing_purpose_'))).toHaveLength(10);
    for (const key of ['data_importer_contact_position', 'data_exporter_address_zipcode', 'include_provider_security_contact_address_street_address', 'include_increased_claim_amount_currency']) {
      expect(p[key], key).toBeDefined();
    }
    expect(p.include_provider_security_contact_email).toMatchObject({ type: 'boolean', default: true });
    expect(Object.keys(itemProps(p.subprocessors_attributes!))).toEqual(['name', 'country', 'processing_task']);
  });

  it('PSA: statement of work, fee items, insurance groups', () => {
    const p = props('templates/psa.schema.json');
    const sow = nestedProps('templates/psa.schema.json', 'template_psa_statement_of_work_attributes');
    expect(props('templates/psa.schema.json').template_psa_statement_of_work_attributes!.required).toEqual(['services_description']);
    expect(Object.keys(itemProps(sow.fees_attributes!))).toEqual(['type', 'fee_type', 'description', 'quantity', 'cost']);
    expect(sow.sow_date).toMatchObject({ format: 'date' });
    // 13 coverage parts (general, employer, cyber, auto liability; workers' comp) + the add-party flag and its 3 parts.
    expect(Object.keys(p).filter((k) => k.startsWith('include_provider_insurance_min_'))).toHaveLength(17);
    expect(Object.keys(p).filter((k) => k.startsWith('include_customer_insurance_min_'))).toHaveLength(17);
    expect(p.include_provider_insurance_min_auto_liability_aggregate).toBeDefined();
    expect(p.include_customer_insurance_min_include_add_provider_errors_omissions).toBeDefined();
    expect(p.include_insurance_minimums_general_liability_minimum).toBeUndefined();
  });

  it('Software License, Pilot, Design, Partnership, LOI: spot checks', () => {
    const sl = props('templates/software-license.schema.json');
    expect(sl.general_cap_amount_type).toMatchObject({ default: 'preceding' });
    expect(sl.include_increased_claims_restrictions).toBeDefined();
    expect(nestedProps('templates/software-license.schema.json', 'template_software_license_order_form_attributes').warranty_period_type!.enum).toEqual([
      'none',
      'duration',
      'description',
    ]);
    const pilot = props('templates/pilot.schema.json');
    expect(pilot.payment_process_invoice_days).toMatchObject({ type: ['integer', 'string'], default: 15 });
    expect(pilot.negotiations_allowed).toMatchObject({ type: 'boolean' }); // the common row wins over the further list
    expect(pilot.include_dpa_attachment_id!.anyOf).toBeDefined();
    expect(props('templates/design.schema.json').include_program_discount_unit).toMatchObject({ default: '%' });
    const terms = nestedProps('templates/partnership.schema.json', 'template_partnership_business_terms_attributes');
    expect(terms.include_obligations_company_referral_include_pay_sch_custom).toMatchObject({ type: 'string' });
    expect(terms.include_obligations_company_promotion_include_activities_val).toMatchObject({ type: 'string' });
    const loi = props('templates/loi.schema.json');
    expect(Object.keys(loi)).toHaveLength(COMMON.length + 2 + 22);
    expect(loi.confidentiality_nda_attachment_id!.anyOf).toBeDefined();
    expect(loi.product_name!.type).toBeUndefined();
  });
});
