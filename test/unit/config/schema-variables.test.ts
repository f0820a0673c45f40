/**
 * What `docket validate` accepts, an editor accepts: the schema files take `${var.NAME}` and
 * `${env.NAME}` wherever a typed value goes (the editor cannot know the value), while docket
 * checks the value each placeholder becomes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { schemaFileNames, SCHEMA_BASE, schemasDir } from '../../../src/config/ajv-setup.js';
import { cleanup, load } from './helpers.js';

afterEach(cleanup);

/** The schema files as an editor reads them (no docket code in between): the files as they are. */
const editor = new Ajv({ strict: false, allowUnionTypes: true });
addFormats.default(editor);
for (const name of schemaFileNames()) editor.addSchema(JSON.parse(readFileSync(path.join(schemasDir(), name), 'utf8')) as object, `${SCHEMA_BASE}${name}`);
const valid = (name: string, doc: unknown): boolean => editor.getSchema(`${SCHEMA_BASE}${name}`)!(doc) as boolean;

describe('schema files, as an editor reads them', () => {
  it('take a placeholder for typed values of every kind docket fills variables into', () => {
    expect(valid('docket.schema.json', { version: 1, concurrency: '${env.CONCURRENCY}', review: { organization_id: '${env.ORG}', url: '${var.url}' } })).toBe(true);
    expect(valid('organization.schema.json', { kind: 'Organization', review: { default_reviewer: '${var.legal_lead}' } })).toBe(true);
    expect(valid('member.schema.json', { kind: 'Member', email: '${var.legal_lead}' })).toBe(true);
    expect(valid('playbook.schema.json', { kind: 'Playbook', name: 'P', rules: [{ name: 'R', actions: 'x', generate_summary: '${var.summaries}', reviewer: '${var.legal_lead}' }] })).toBe(true);
    expect(valid('template.schema.json', { kind: 'Template', name: 'T', type: 'NDA', parameters: { term: '${var.term}', negotiations_allowed: '${env.NEGOTIATE}' } })).toBe(true);
    expect(valid('template.schema.json', { kind: 'Template', name: 'T', type: 'CSA', parameters: { include_dpa_attachment_id: '${var.dpa}' } })).toBe(true);
    // A date written as a date or a date-time (the formats are alternatives of one string).
    expect(valid('templates/csa.schema.json', { effective_date: '${var.start}', template_csa_order_form_attributes: { cloud_service_description: 'x', subscription_start_date: '${var.start}' } })).toBe(true);
    expect(valid('templates/partnership.schema.json', { template_partnership_business_terms_attributes: { end_date_date: '${env.END}' } })).toBe(true);
    expect(valid('templates/csa.schema.json', { effective_date: 'next tuesday' })).toBe(false);
  });

  it('check an inline custom template definition as a definition file is checked', () => {
    const definition = { title: 'T', sections: [{ heading: 'H', fields: { a: { label: 'A', input: 'text' } } }] };
    expect(valid('custom-template.schema.json', { kind: 'CustomTemplate', name: 'C', definition })).toBe(true);
    expect(valid('custom-template.schema.json', { kind: 'CustomTemplate', name: 'C', definition: { ...definition, titel: 'x' } })).toBe(false);
    expect(valid('custom-template.schema.json', { kind: 'CustomTemplate', name: 'C', definition: { title: 'T', sections: [{ heading: 'H', fields: { a: { label: 'A', input: 'txt' } } }] } })).toBe(false);
  });

  it('still refuse what no placeholder excuses: a wrong literal value, a placeholder for the kind', () => {
    expect(valid('organization.schema.json', { kind: 'Organization', review: { default_reviewer: 'not an e-mail' } })).toBe(false);
    expect(valid('playbook.schema.json', { kind: 'Playbook', name: 'P', rules: [{ name: 'R', actions: 'x', generate_summary: 'yes please' }] })).toBe(false);
    expect(valid('member.schema.json', { kind: '${var.kind}', email: 'a@b.example' })).toBe(false);
    expect(valid('docket.schema.json', { version: 1, concurrency: '${nope}' })).toBe(false);
  });

  it('define one placeholder, the same in every file, matching what docket fills in', () => {
    const definitions = new Set<string>();
    let defining = 0;
    for (const name of schemaFileNames()) {
      const schema = JSON.parse(readFileSync(path.join(schemasDir(), name), 'utf8')) as { $defs?: { variable?: { pattern?: string } } };
      if (!schema.$defs?.variable) continue;
      defining++;
      definitions.add(JSON.stringify(schema.$defs.variable));
    }
    // docket.yaml, seven kinds, ten template types.
    expect(defining).toBe(18);
    expect(definitions.size).toBe(1);
    const pattern = new RegExp((JSON.parse([...definitions][0]!) as { pattern: string }).pattern);
    for (const text of ['${var.legal_lead}', '${env.DOCKET_N}', 'x-${var.a-b}']) expect(pattern.test(text), text).toBe(true);
    expect(pattern.test('${lead}')).toBe(false);
    // `$${` writes a literal `${`: no placeholder, so not the editor's to accept for a typed value.
    expect(pattern.test('$${var.flag}')).toBe(false);
  });
});

describe('docket, on the same files', () => {
  it('refuses a placeholder left as text in a typed value (written `$${…}`, or from the environment)', async () => {
    const result = await load({
      'docket.yaml': 'version: 1\nconcurrency: $${env.C}\n',
      'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: ${env.LEAD}\n',
    }, { processEnv: { LEAD: '${var.someone}' } });
    const d = result.diagnostics.filter((x) => x.severity === 'error').map((x) => `${x.file}:${x.line} ${x.message}`);
    expect(d).toEqual([
      expect.stringMatching(/^docket\.yaml:2 `concurrency` must be an integer, not a string/),
      expect.stringMatching(/^organization\.yaml:3 `default_reviewer` must be an e-mail address/),
    ]);
  });

  it('checks the value a placeholder becomes, with the message a literal gets', async () => {
    const result = await load({
      'docket.yaml': 'version: 1\nvars:\n  lead: not-an-email\n',
      'organization.yaml': 'kind: Organization\nreview:\n  default_reviewer: ${var.lead}\n',
    });
    const d = result.diagnostics.filter((x) => x.severity === 'error');
    expect(d).toHaveLength(1);
    expect(d[0]).toMatchObject({ file: 'organization.yaml', line: 3, code: 'invalid-value' });
    expect(d[0]!.message).toMatch(/must be an e-mail address/);
  });

  it('gives a value that is one placeholder the type its field wants, quoted or not, and never changes text', async () => {
    const result = await load({
      'docket.yaml': [
        'version: 1',
        'concurrency: ${var.c}',
        'prune: { playbooks: "${var.p}" }',
        'safety: { max_delete_fraction: "${var.f}" }',
        'vars: { zip: "01067", year: "2024", yes: "true", c: "1e1", p: true, f: "0.5", ver: "3.0" }',
      ].join('\n'),
      'organization.yaml': 'kind: Organization\nreview:\n  name: ${var.year}\nagreements:\n  zipcode: ${var.zip}\n  city: ${env.CITY}\n',
      'p.yaml': 'kind: Playbook\nname: P\ndescription: ${var.yes}\nrules:\n  - name: R\n    actions: ${var.year}\n    generate_summary: "${var.yes}"\n',
    }, { processEnv: { CITY: '1.10' } });
    expect(result.diagnostics.filter((x) => x.severity === 'error')).toEqual([]);
    expect(result.config!.project).toMatchObject({ concurrency: 10, prune: { playbooks: true }, safety: { max_delete_fraction: 0.5 } });
    const [org, playbook] = ['organization.yaml', 'p.yaml'].map((f) => result.config!.documents.find((d) => d.file === f)!.body);
    expect(org).toMatchObject({ review: { name: '2024' }, agreements: { zipcode: '01067', city: '1.10' } });
    expect(playbook).toMatchObject({ description: 'true', rules: [{ actions: '2024', generate_summary: true }] });
  });

  it('reads a number a placeholder gives a field of numbers as text as YAML reads the literal (`+2`, `2e0`), and refuses one that is not whole (probe AE-5)', async () => {
    const files = { 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 't.yaml': 'kind: Template\ntype: NDA\nname: N\nparameters:\n  term: ${env.T}\n' };
    const kinds = [{ yamlKind: 'Template', schema: 'template.schema.json' }];
    // (Digits alone are the number already; the rest the text that number prints as, which the field takes as it.)
    for (const [written, read] of [['+2', '2'], ['2e0', '2'], ['3', 3]] as const) {
      const result = await load(files, { processEnv: { T: written }, kinds });
      expect(result.diagnostics.filter((x) => x.severity === 'error'), written).toEqual([]);
      expect(result.config!.documents[0]!.body, written).toMatchObject({ parameters: { term: read } });
    }
    const refused = await load(files, { processEnv: { T: '2.5' }, kinds });
    expect(refused.diagnostics.filter((x) => x.severity === 'error').map((x) => x.message)).toEqual(['`term` must be an integer, not "2.5"']);
  });
});
