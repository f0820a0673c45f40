import type { LiveResource } from '../../../../src/engine/types.js';
import { describe, expect, it } from 'vitest';
import type { DataFiles } from '../../../../src/config/data-files.js';
import type { ProjectConfig } from '../../../../src/config/types.js';
import { Diagnostics } from '../../../../src/diagnostics.js';
import { customTermKind } from '../../../../src/kinds/custom-term.js';
import { resourceDoc } from '../../engine/builders.js';
import { ACTOR, agreementsProject, dataFile, dataFiles, sha } from './desired-helpers.js';

const FILE = 'custom-terms/consulting.yaml';
const LINES = { '/name': 2, '/body': 3, '/body_file': 4, '/docx_file': 5 };

async function toDesired(body: Record<string, unknown>, options: { files?: DataFiles; project?: ProjectConfig } = {}) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('CustomTerm', { name: 'Consulting Terms', ...body }, LINES, FILE);
  const resources = await customTermKind.toDesired!(doc, diagnostics, { project: options.project ?? agreementsProject(), files: options.files ?? new Map() });
  return { resource: resources[0]!, resources, diagnostics };
}

const DOCX_BYTES = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]);
const DOCX = dataFile('custom-terms/consulting.docx', DOCX_BYTES);

describe('CustomTerm toDesired', () => {
  it('takes an inline body, normalising line endings and trailing newlines', async () => {
    const { resource, diagnostics } = await toDesired({ body: '1. Scope\r\n2. Fees\r\n\r\n' });
    expect(diagnostics.items).toEqual([]);
    expect(resource).toMatchObject({ kind: 'custom-term', key: 'Consulting Terms', name: 'Consulting Terms', partial: false });
    expect(resource.fields).toEqual({ name: 'Consulting Terms', body: '1. Scope\n2. Fees' });
  });

  it('reads body_file from the data files, relative to the document', async () => {
    const files = dataFiles(dataFile('custom-terms/consulting.md', '# Terms\r\nPay on time.\n'));
    const { resource, diagnostics } = await toDesired({ body_file: 'consulting.md' }, { files });
    expect(diagnostics.items).toEqual([]);
    expect(resource.fields).toEqual({ name: 'Consulting Terms', body: '# Terms\nPay on time.' });
    expect(resource.fieldSources.body).toMatchObject({ file: FILE, line: 4 });
  });

  it('a body_file with the same text as a body gives the same desired body', async () => {
    const inline = await toDesired({ body: 'Same\nterms\n' });
    const fromFile = await toDesired({ body_file: 'consulting.md' }, { files: dataFiles(dataFile('custom-terms/consulting.md', 'Same\r\nterms')) });
    expect(fromFile.resource.fields).toEqual(inline.resource.fields);
  });

  it('docx_file: the compared field is the sha256, the payload carries the root-relative path', async () => {
    const { resource, diagnostics } = await toDesired({ docx_file: 'consulting.docx' }, { files: dataFiles(DOCX) });
    expect(diagnostics.items).toEqual([]);
    expect(resource.fields).toEqual({ name: 'Consulting Terms', docx: sha(DOCX_BYTES) });
    expect(resource.fields).not.toHaveProperty('body');
    expect(resource.payload).toEqual({ docx_file: 'custom-terms/consulting.docx' });
  });

  it('needs one of body, body_file, docx_file', async () => {
    const { diagnostics } = await toDesired({});
    expect(diagnostics.errors.map((d) => d.code)).toEqual(['term-content']);
    expect(diagnostics.errors[0]).toMatchObject({ file: FILE, line: 1 });
    expect(diagnostics.errors[0]!.message).toMatch(/exactly one of `body`, `body_file` or `docx_file`/);
  });

  it('leaves a content written as no value (`body: ~`) to the schema, which says it at its line: one error, not two (probe LZ)', async () => {
    expect((await toDesired({ body: null })).diagnostics.errors).toEqual([]);
    expect((await toDesired({ body_file: null, docx_file: null })).diagnostics.errors).toEqual([]);
  });

  it('refuses two contents at the second one, naming both', async () => {
    const files = dataFiles(dataFile('custom-terms/consulting.md', 'x'));
    const { diagnostics } = await toDesired({ body: 'inline', body_file: 'consulting.md' }, { files });
    expect(diagnostics.errors).toHaveLength(1);
    expect(diagnostics.errors[0]).toMatchObject({ code: 'term-content', file: FILE, line: 4 });
    expect(diagnostics.errors[0]!.message).toContain('body, body_file');
  });

  it('refuses a body that is empty after normalisation', async () => {
    const { diagnostics } = await toDesired({ body_file: 'consulting.md' }, { files: dataFiles(dataFile('custom-terms/consulting.md', '\n\n')) });
    expect(diagnostics.errors.map((d) => [d.code, d.line])).toEqual([['term-content', 4]]);
  });

  it('without agreements.actor it is an error at the document', async () => {
    const { resource, diagnostics } = await toDesired({ body: 'x' }, { project: agreementsProject(null) });
    expect(diagnostics.errors).toHaveLength(1);
    expect(diagnostics.errors[0]).toMatchObject({ code: 'missing-actor', file: FILE, line: 1 });
    expect(diagnostics.errors[0]!.message).toContain('docket.yaml');
    expect(resource.refs).toEqual([]);
  });

  it('the actor becomes a lowercase agreements-user reference at its line in docket.yaml', async () => {
    const { resource } = await toDesired({ body: 'x' });
    expect(resource.refs).toEqual([{ kind: 'agreements-user', key: ACTOR.toLowerCase(), field: 'agreements.actor', source: { file: 'docket.yaml', line: 5, col: 3 } }]);
  });

  it('keeps renamed_from and the pinned id', async () => {
    const { resource } = await toDesired({ body: 'x', renamed_from: 'Old Terms', id: 'ct-9' });
    expect(resource.renamedFrom).toEqual(['Old Terms']);
    expect(resource.pinId).toBe('ct-9');
  });
});




describe('CustomTerm pullField', () => {
  const live = (extra: Record<string, unknown>): LiveResource => ({ kind: 'custom-term', id: 't-1', key: 'W', name: 'W', version: 3, fields: { name: 'W', docx: 'x' }, refs: [], extra });
  it('says to save the app version of a Word term as its file, and adopt it; not one whose conversion failed, which apply publishes again (probe CJ-3)', () => {
    expect(customTermKind.pullField!('docx', live({}), { docx_file: 'w.docx' }, undefined as never)).toEqual({ fromApp: true, cannot: expect.stringContaining('save version 3 of "W" from the app as w.docx, then `docket apply --adopt-files` records it') });
    expect(customTermKind.pullField!('docx', live({ conversionFailed: true }), { docx_file: 'w.docx' }, undefined as never)).toEqual({ cannot: 'the service cannot give a Word file back, and version 3 of "W" failed its conversion in the app: `docket apply` publishes w.docx again as the next version' });
  });
});
