/** The Template document's own fields, exact positions, the CSA naming rule and attachment references. */
import { afterEach, describe, expect, it } from 'vitest';
import {
  CSA_RENAMES,
  attachmentParameterPaths,
  attachmentParameterRefs,
  csaUsesNewNames,
  templateTypeInfo,
} from '../../../src/kinds/support/template-params.js';
import { brief, cleanup, codes, lines, loadTemplate, loadTemplateText } from './helpers.js';

afterEach(cleanup);

describe('Template document', () => {
  it('accepts the documented example', async () => {
    const { diagnostics, documents } = await loadTemplateText(
      lines(
        'kind: Template',
        'name: Mutual NDA',
        'type: NDA',
        'standard_version: "1.0"',
        'parameters:',
        '  term: 2',
        '  purpose: Evaluating a business relationship',
        'attachments: [Security Exhibit]',
        'id: 6f1c2d3e-1111-4a2b-8c3d-0123456789ab',
        'renamed_from: [Old name]',
      ),
    );
    expect(diagnostics).toEqual([]);
    expect(documents[0]!.body).toMatchObject({ kind: 'Template', type: 'NDA', attachments: ['Security Exhibit'] });
  });

  it('reports file:line:col of parameter problems end to end', async () => {
    const { diagnostics } = await loadTemplateText(
      lines(
        'kind: Template',
        'name: Mutual NDA',
        'type: NDA',
        'parameters:',
        '  term: two', // 5:9 the value
        '  purpos: x', // 6:3 the key
        '  effective_date_type: date', // requirement reported at `parameters:` (4:1)
      ),
    );
    expect(diagnostics.map(brief)).toEqual([
      'templates/t.yaml:4:1 missing-field',
      'templates/t.yaml:5:9 invalid-value',
      'templates/t.yaml:6:3 unknown-key',
    ]);
  });

  it('needs kind, name and type', async () => {
    const { diagnostics } = await loadTemplateText(lines('kind: Template', 'parameters: { term: 2 }'));
    expect(diagnostics.map((d) => d.message)).toEqual([
      'missing required field `name` in Template',
      'missing required field `type` in Template',
    ]);
  });

  it('suggests the type meant', async () => {
    const { diagnostics } = await loadTemplateText(lines('kind: Template', 'name: T', 'type: software license'));
    expect(codes(diagnostics)).toEqual(['invalid-value type']);
    expect(diagnostics[0]!.message).toMatch(/did you mean `Software License`\?/);
  });

  it('wants standard_version as a quoted string', async () => {
    const number = await loadTemplate('CSA', 'provider: Acme', ['standard_version: 2.0']);
    expect(codes(number.diagnostics)).toEqual(['invalid-value standard_version']);
    expect(number.diagnostics[0]!.message).toMatch(/must be a string, not an integer/);
    expect(number.diagnostics[0]!.hint).toMatch(/quotes/);
    const malformed = await loadTemplate('CSA', 'provider: Acme', ['standard_version: v3']);
    expect(codes(malformed.diagnostics)).toEqual(['invalid-value standard_version']);
  });

  it('checks attachments, id and renamed_from', async () => {
    const { diagnostics } = await loadTemplateText(
      lines('kind: Template', 'name: T', 'type: BAA', 'attachments: [A, ""]', 'id: 12', 'renamed_from: [""]'),
    );
    expect(codes(diagnostics)).toEqual(['invalid-value attachments[1]', 'invalid-value id', 'invalid-value renamed_from[0]']);
  });

  it('rejects unknown top-level keys with a suggestion', async () => {
    const { diagnostics } = await loadTemplateText(lines('kind: Template', 'name: T', 'type: NDA', 'parameter: { term: 2 }'));
    expect(codes(diagnostics)).toEqual(['unknown-key parameter']);
    expect(diagnostics[0]!.message).toMatch(/did you mean `parameters`\?/);
  });

  it('needs parameters to be a mapping', async () => {
    const { diagnostics } = await loadTemplateText(lines('kind: Template', 'name: T', 'type: NDA', 'parameters: [term]'));
    expect(codes(diagnostics)).toEqual(['invalid-value parameters']);
  });
});

describe('CSA attribute names by standard_version', () => {
  it('knows the seed 001 table', () => {
    expect(CSA_RENAMES.size).toBe(14);
    expect(CSA_RENAMES.get('include_increased_cap_amount')).toBe('include_supercap');
    expect(CSA_RENAMES.get('include_unlimited_claims_other')).toBe('include_uncapped_claims_other');
  });

  it.each([
    [undefined, false],
    ['1.0', false],
    ['2.1', false],
    ['3.0', true],
    ['3.2', true],
    ['10.0', true],
    [3, undefined],
    ['v3', undefined],
  ])('standard_version %j uses the 3.x names: %j', (version, expected) => {
    expect(csaUsesNewNames(version)).toBe(expected);
  });

  it('on 3.x, reports each pre-3.0 name at its key, naming the 3.x spelling', async () => {
    const { diagnostics } = await loadTemplate(
      'CSA',
      ['include_increased_cap_amount: true', 'increased_cap_amount_type: base', 'include_unlimited_claims_breach_of_privsec: true', 'include_covered_claims: true'].join('\n'),
      ['standard_version: "3.0"'],
    );
    expect(diagnostics.map(brief)).toEqual([
      'templates/t.yaml:6:3 csa-version-naming',
      'templates/t.yaml:7:3 csa-version-naming',
      'templates/t.yaml:8:3 csa-version-naming',
    ]);
    expect(diagnostics[0]).toMatchObject({
      path: 'parameters.include_increased_cap_amount',
      message: '`include_increased_cap_amount` is the pre-3.0 name; on standard_version 3.x write `include_supercap`',
    });
    expect(diagnostics[1]!.message).toMatch(/write `supercap_type`/);
    expect(diagnostics[2]!.message).toMatch(/write `include_uncapped_claims_breach_of_privsec`/);
  });

  it('on 3.x, accepts the 3.x names', async () => {
    const { diagnostics } = await loadTemplate(
      'CSA',
      ['include_supercap: true', 'supercap_type: preceding', 'supercap_qty: 2', 'include_uncapped_claims: true', 'include_uncapped_claims_other: Fraud'].join('\n'),
      ['standard_version: "3.1"'],
    );
    expect(diagnostics).toEqual([]);
  });

  it('before 3.0, reports each 3.x name naming the old spelling', async () => {
    const { diagnostics } = await loadTemplate('CSA', 'include_uncapped_claims: true\nsupercap_currency: EUR', ['standard_version: "2.0"']);
    expect(codes(diagnostics)).toEqual(['csa-version-naming parameters.include_uncapped_claims', 'csa-version-naming parameters.supercap_currency']);
    expect(diagnostics[0]!.message).toBe('`include_uncapped_claims` is the 3.x name; on standard_version 2.0 write `include_unlimited_claims`');
  });

  it('without standard_version, leaves the names to the plan, which knows the live template\'s version (probe BN-1)', async () => {
    // A live 3.0 template takes the 3.x names though the file sets no version; a new one gets 2.1 (template-refuse-send.test.ts).
    const { diagnostics } = await loadTemplate('CSA', 'include_supercap: true');
    expect(diagnostics).toEqual([]);
  });

  it('before 3.0, accepts the old names', async () => {
    const { diagnostics } = await loadTemplate('CSA', 'include_increased_cap_amount: true\nincreased_cap_amount_period_qty: 1', ['standard_version: "2.1"']);
    expect(diagnostics).toEqual([]);
  });

  it('adds nothing to an invalid standard_version, which the schema reports', async () => {
    const { diagnostics } = await loadTemplate('CSA', 'include_increased_cap_amount: true', ['standard_version: 3']);
    expect(codes(diagnostics)).toEqual(['invalid-value standard_version']);
  });

  it('is about CSA only', async () => {
    const { diagnostics } = await loadTemplate('PSA', 'include_unlimited_claims: true', ['standard_version: "3.0"']);
    expect(diagnostics).toEqual([]);
    const other = await loadTemplate('PSA', 'include_uncapped_claims: true');
    expect(codes(other.diagnostics)).toEqual(['unknown-key parameters.include_uncapped_claims']);
  });

  it('gives the 3.x names the types of the old ones', async () => {
    const { diagnostics } = await loadTemplate('CSA', 'include_supercap: "yes"\nsupercap_type: fixed', ['standard_version: "3.0"']);
    expect(codes(diagnostics)).toEqual(['invalid-value parameters.include_supercap', 'invalid-value parameters.supercap_type']);
  });
});

describe('attachment references in parameters', () => {
  const parameters = {
    include_dpa_attachment_id: { attachment: 'DPA' },
    include_ai_addendum_attachment_id: '0b0f6a0e-8a4b-4c55-9a52-5b7e4f1c2d3e',
    provider: { attachment: 'not an id field' },
    include_security_policy_attachment_id: { attachment: 'Security', extra: 1 },
    template_csa_order_form_attributes: {
      cloud_service_description: 'W',
      include_sla_attachment_id: { attachment: 'SLA' },
      fees_attributes: [{ cost: 1 }, { odd_attachment_id: { attachment: 'In a list' } }],
    },
    'a/b_attachment_id': { attachment: 'Escaped' },
  };

  it('finds every {attachment: name} of a *_attachment_id at any depth', () => {
    expect(attachmentParameterPaths(parameters)).toEqual([
      '/include_dpa_attachment_id',
      '/template_csa_order_form_attributes/include_sla_attachment_id',
      '/template_csa_order_form_attributes/fees_attributes/1/odd_attachment_id',
      '/a~1b_attachment_id',
    ]);
  });

  it('gives names, and pointers into the document with a base', () => {
    expect(attachmentParameterRefs(parameters, '/parameters').slice(0, 2)).toEqual([
      { pointer: '/parameters/include_dpa_attachment_id', name: 'DPA' },
      { pointer: '/parameters/template_csa_order_form_attributes/include_sla_attachment_id', name: 'SLA' },
    ]);
  });

  it('handles absent and odd parameters', () => {
    expect(attachmentParameterPaths(undefined)).toEqual([]);
    expect(attachmentParameterPaths([])).toEqual([]);
    expect(attachmentParameterPaths({ x_attachment_id: { attachment: 3 } })).toEqual([]);
  });

  it('is what the schema accepts, end to end', async () => {
    const { diagnostics, documents } = await loadTemplate(
      'CSA',
      ['include_dpa_attachment_id: { attachment: DPA }', 'template_csa_order_form_attributes:', '  cloud_service_description: W', '  include_professional_services_attachment_id: { attachment: SOW }'].join('\n'),
    );
    expect(diagnostics).toEqual([]);
    expect(attachmentParameterPaths(documents[0]!.body.parameters, '/parameters')).toEqual([
      '/parameters/include_dpa_attachment_id',
      '/parameters/template_csa_order_form_attributes/include_professional_services_attachment_id',
    ]);
  });
});

describe('type table', () => {
  it('finds a type by its YAML name', () => {
    expect(templateTypeInfo('Software License')).toMatchObject({ wire: 'template_software_license', schema: 'templates/software-license.schema.json' });
    expect(templateTypeInfo('nda')).toBeUndefined();
  });
});
