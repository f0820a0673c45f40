import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import type { DataFiles } from '../../../../src/config/data-files.js';
import { Diagnostics } from '../../../../src/diagnostics.js';
import { diff } from '../../../../src/engine/diff.js';
import type { Change, DesiredResource, LiveResource } from '../../../../src/engine/types.js';
import { customTemplateKind } from '../../../../src/kinds/custom-template.js';
import { KIND_META, resourceDoc } from '../../engine/builders.js';
import {
  ACTOR,
  agreementsExecContext,
  agreementsFetchContext,
  agreementsProject,
  apiCustomTemplate,
  apiTerm,
  dataFile,
  dataFiles,
  fakeAgreements,
} from './fakes.js';

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

/** The same data as ORIGINAL: flow style, other key order, other quoting, CRLF, no comment. */
const REFORMATTED = 'sections: [{fields: {services: {input: "textarea", label: Services}}, heading: Engagement}]\r\ntitle: "Consulting Agreement"\r\n';

const RELABELLED = ORIGINAL.replace('label: Services', 'label: Consulting services');

async function toDesired(body: Record<string, unknown>, files: DataFiles = new Map()) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('CustomTemplate', { name: 'Consulting Agreement', ...body }, LINES, FILE);
  const resources = await customTemplateKind.toDesired!(doc, diagnostics, { project: agreementsProject(), files });
  return { resource: resources[0]!, diagnostics };
}

const fromFile = (text: string, extra: Record<string, unknown> = {}) => toDesired({ definition_file: 'consulting.cover.yaml', ...extra }, dataFiles(dataFile(COVER, text)));

function plan(desired: DesiredResource[], live: LiveResource[]) {
  const result = diff({ kinds: KIND_META, desired, live, prune: {} });
  expect(result.diagnostics.items).toEqual([]);
  return result.changes;
}

function only(changes: Change[]): Change {
  expect(changes).toHaveLength(1);
  return changes[0]!;
}

async function liveOf(desired: DesiredResource, definition: string, termId: string | null = null): Promise<LiveResource[]> {
  const agreements = fakeAgreements({
    customTemplates: [apiCustomTemplate('tpl-1', 'Consulting Agreement', { current_definition: definition, custom_term_id: termId })],
    terms: [apiTerm('ct-1', 'Consulting Terms')],
  });
  return customTemplateKind.fetch(agreementsFetchContext(agreements.services, { declared: [desired] }));
}

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

  it('reports YAML errors of the definition file at the file’s own lines', async () => {
    const broken = ['# comment', 'title: Consulting Agreement', 'title: Again', 'sections: []', ''].join('\n');
    const { diagnostics } = await fromFile(broken);
    expect(diagnostics.errors.map((d) => [d.code, d.file, d.line])).toEqual([['duplicate-key', COVER, 3]]);
  });

  it('reports definition rule violations at the file’s own lines', async () => {
    const { diagnostics } = await fromFile(ORIGINAL.replace('input: textarea', 'input: txt'));
    expect(diagnostics.errors).toHaveLength(1);
    expect(diagnostics.errors[0]).toMatchObject({ file: COVER, line: 8 });
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

describe('CustomTemplate plan', () => {
  it('a reformatted file with the same data plans nothing against the live text of the original', async () => {
    const { resource } = await fromFile(REFORMATTED);
    expect(plan([resource], await liveOf(resource, ORIGINAL))).toEqual([]);
  });

  it('the same data inline plans nothing against the live text', async () => {
    const { resource } = await toDesired({ definition: parse(ORIGINAL) });
    expect(plan([resource], await liveOf(resource, ORIGINAL))).toEqual([]);
  });

  it('a changed definition is a publish whose field carries a readable summary', async () => {
    const { resource } = await fromFile(RELABELLED);
    const change = only(plan([resource], await liveOf(resource, ORIGINAL)));
    expect(change).toMatchObject({ action: 'publish', liveId: 'tpl-1', irreversible: true });
    expect(change.fields).toHaveLength(1);
    const field = change.fields[0]!;
    expect(field.field).toBe('definition');
    expect(field.summary).toBeDefined();
    expect(field.summary!.join('\n')).toMatch(/services/);
    expect(field.summary!.join('\n')).toContain('Consulting services');
  });

  it('linking terms is a publish of custom_term (by name, from the live term id)', async () => {
    const { resource } = await fromFile(ORIGINAL, { custom_term: 'Consulting Terms' });
    const change = only(plan([resource], await liveOf(resource, ORIGINAL)));
    expect(change).toMatchObject({ action: 'publish', fields: [{ field: 'custom_term', before: null, after: 'Consulting Terms' }] });
    expect(plan([resource], await liveOf(resource, ORIGINAL, 'ct-1'))).toEqual([]);
  });

  it('an omitted custom_term unlinks the live terms', async () => {
    const { resource } = await fromFile(ORIGINAL);
    const change = only(plan([resource], await liveOf(resource, ORIGINAL, 'ct-1')));
    expect(change.fields).toEqual([{ field: 'custom_term', before: 'Consulting Terms', after: null }]);
  });
});

describe('CustomTemplate execute', () => {
  it('create sends the definition file’s own text and the resolved custom_term_id', async () => {
    const { resource } = await fromFile(ORIGINAL, { custom_term: 'Consulting Terms' });
    const agreements = fakeAgreements();
    const { ctx, registered } = agreementsExecContext(agreements.services, { known: { 'custom-term:Consulting Terms': 'ct-new' } });
    await customTemplateKind.execute(only(plan([resource], [])), ctx);
    expect(agreements.callsOf('createCustomTemplate')).toEqual([[{ name: 'Consulting Agreement', definition: ORIGINAL, custom_term_id: 'ct-new' }, { email: ACTOR }]]);
    expect(registered).toEqual([['custom-template', 'Consulting Agreement', 'new-1']]);
  });

  it('create without terms sends no custom_term_id', async () => {
    const { resource } = await fromFile(ORIGINAL);
    const agreements = fakeAgreements();
    const { ctx } = agreementsExecContext(agreements.services);
    await customTemplateKind.execute(only(plan([resource], [])), ctx);
    expect(agreements.callsOf('createCustomTemplate')[0]![0]).toEqual({ name: 'Consulting Agreement', definition: ORIGINAL });
  });

  it('a changed definition publishes the file text as the version after the current one', async () => {
    const { resource } = await fromFile(RELABELLED);
    const agreements = fakeAgreements({ customTemplates: [apiCustomTemplate('tpl-1', 'Consulting Agreement', { current_definition: ORIGINAL, current_version_number: 7 })] });
    const { ctx } = agreementsExecContext(agreements.services);
    const live = await customTemplateKind.fetch(agreementsFetchContext(agreements.services, { declared: [resource] }));
    await customTemplateKind.execute(only(plan([resource], live)), ctx);
    expect(agreements.callsOf('publishCustomTemplateVersion')).toEqual([['tpl-1', 'Consulting Agreement', RELABELLED, { email: ACTOR }, 8]]);
    expect(agreements.callsOf('updateCustomTemplate')).toEqual([]);
  });

  it('unlinking terms PATCHes custom_term_id "" with the actor’s user id', async () => {
    const { resource } = await fromFile(ORIGINAL);
    const agreements = fakeAgreements();
    const { ctx, resolved } = agreementsExecContext(agreements.services, { known: { 'agreements-user:legal-ops@acme.example': 'u-7' } });
    await customTemplateKind.execute(only(plan([resource], await liveOf(resource, ORIGINAL, 'ct-1'))), ctx);
    expect(agreements.callsOf('updateCustomTemplate')).toEqual([['tpl-1', { custom_term_id: '', user_id: 'u-7' }, 'Consulting Agreement']]);
    expect(resolved).toContainEqual(['agreements-user', 'legal-ops@acme.example']);
    expect(agreements.callsOf('publishCustomTemplateVersion')).toEqual([]);
  });

  it('linking terms PATCHes the resolved term id', async () => {
    const { resource } = await fromFile(ORIGINAL, { custom_term: 'Consulting Terms' });
    const agreements = fakeAgreements();
    const { ctx } = agreementsExecContext(agreements.services, { known: { 'agreements-user:legal-ops@acme.example': 'u-7', 'custom-term:Consulting Terms': 'ct-1' } });
    await customTemplateKind.execute(only(plan([resource], await liveOf(resource, ORIGINAL))), ctx);
    expect(agreements.callsOf('updateCustomTemplate')).toEqual([['tpl-1', { custom_term_id: 'ct-1', user_id: 'u-7' }, 'Consulting Agreement']]);
  });
});
