import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { DataFiles } from '../../../../src/config/data-files.js';
import { Diagnostics } from '../../../../src/diagnostics.js';
import { customTemplateKind } from '../../../../src/kinds/custom-template.js';
import { resourceDoc } from '../../engine/builders.js';
import { ACTOR, agreementsProject, dataFile, dataFiles } from './desired-helpers.js';

const FILE = 'custom-templates/consulting.yaml';
const COVER = 'custom-templates/consulting.cover.yaml';
const LINES = { '/name': 2, '/custom_term': 3, '/definition_file': 4, '/definition': 4 };

const ORIGINAL = [
  '# The consulting cover page',
  'title: Consulting Agreement',
  'sections:',
  '  - heading: Engagement',
  '    fields:',
  '      services:',
  '        label: Services',
  '        input: textarea',
  '',
].join('\n');

async function toDesired(body: Record<string, unknown>, files: DataFiles = new Map()) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('CustomTemplate', { name: 'Consulting Agreement', ...body }, LINES, FILE);
  const resources = await customTemplateKind.toDesired!(doc, diagnostics, { project: agreementsProject(), files });
  return { resource: resources[0]!, diagnostics };
}

const fromFile = (text: string, extra: Record<string, unknown> = {}) => toDesired({ definition_file: 'consulting.cover.yaml', ...extra }, dataFiles(dataFile(COVER, text)));

describe('CustomTemplate toDesired', () => {
  it('an inline definition is compared as data and published as YAML text of that data', async () => {
    const definition = parse(ORIGINAL) as Record<string, unknown>;
    const { resource, diagnostics } = await toDesired({ definition });
    expect(diagnostics.items).toEqual([]);
    expect(resource.fields).toEqual({ name: 'Consulting Agreement', definition, custom_term: null });
    expect(parse(String(resource.payload?.definition_text))).toEqual(definition);
  });

  it('a definition file is compared as data and published as its own text (comments kept, CRLF to LF)', async () => {
    const { resource, diagnostics } = await fromFile(ORIGINAL.replace(/\n/g, '\r\n'));
    expect(diagnostics.items).toEqual([]);
    expect(resource.fields.definition).toEqual(parse(ORIGINAL));
    expect(resource.payload?.definition_text).toBe(ORIGINAL);
    expect(resource.fieldSources.definition).toMatchObject({ file: FILE, line: 4 });
  });

  it('reports YAML errors of the definition file at the file’s own lines, and the rest of what it reads', async () => {
    const broken = ['# comment', 'title: Consulting Agreement', 'title: Again', 'sections: []', ''].join('\n');
    const { diagnostics } = await fromFile(broken);
    expect(diagnostics.errors.map((d) => [d.code, d.file, d.line])).toEqual([['duplicate-key', COVER, 3], ['invalid-value', COVER, 4]]);
  });

  it('reports definition rule violations at the file’s own lines', async () => {
    const { diagnostics } = await fromFile(ORIGINAL.replace('input: textarea', 'input: txt'));
    expect(diagnostics.errors).toHaveLength(1);
    expect(diagnostics.errors[0]).toMatchObject({ file: COVER, line: 8 });
  });

  it('refuses a section heading of spaces only, which the service refuses once the apply has begun (probe WJ-1)', async () => {
    for (const blank of ['"  "', '"\\t"']) {
      const { diagnostics } = await fromFile(ORIGINAL.replace('heading: Engagement', `heading: ${blank}`));
      expect(diagnostics.errors.map((d) => [d.code, d.file, d.line, d.message])).toEqual([['invalid-value', COVER, 4, expect.stringContaining('`heading` is required and must not be blank')]]);
    }
  });

  it('quotes a wrong value of a definition file as written: `null`, a hex number, a list', async () => {
    const { diagnostics } = await fromFile(ORIGINAL.replace('title: Consulting Agreement', 'title: ~').replace('label: Services', 'label: [a, b]').replace('heading: Engagement', 'heading: 0x1F'));
    expect(diagnostics.errors.map((d) => `${d.line}:${d.col} ${d.message}`)).toEqual([
      '2:8 `title` must be a string, not null (written "~")',
      '4:14 `heading` must be a string, not an integer (written "0x1F", which YAML reads as 31)',
      '7:16 `label` must be a string, not a list (got ["a","b"])',
    ]);
  });

  it('needs exactly one of definition or definition_file', async () => {
    const none = await toDesired({});
    expect(none.diagnostics.errors.map((d) => [d.code, d.file, d.line])).toEqual([['definition-source', FILE, 1]]);
    const both = await toDesired({ definition: parse(ORIGINAL), definition_file: 'consulting.cover.yaml' }, dataFiles(dataFile(COVER, ORIGINAL)));
    expect(both.diagnostics.errors.map((d) => [d.code, d.line])).toEqual([['definition-source', 4]]);
  });

  it('custom_term is a reference to the CustomTerm by name; omitted means none', async () => {
    const linked = await fromFile(ORIGINAL, { custom_term: 'Consulting Terms' });
    expect(linked.resource.fields.custom_term).toBe('Consulting Terms');
    expect(linked.resource.refs).toContainEqual({ kind: 'custom-term', key: 'Consulting Terms', field: 'custom_term', source: { file: FILE, line: 3, col: 3 } });
    expect(linked.resource.refs).toContainEqual(expect.objectContaining({ kind: 'agreements-user', key: ACTOR.toLowerCase() }));
    const unlinked = await fromFile(ORIGINAL);
    expect(unlinked.resource.fields.custom_term).toBeNull();
    expect(unlinked.resource.refs.map((r) => r.kind)).toEqual(['agreements-user']);
  });
});


