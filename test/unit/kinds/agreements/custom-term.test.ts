import { describe, expect, it } from 'vitest';
import type { DataFiles } from '../../../../src/config/data-files.js';
import type { ProjectConfig } from '../../../../src/config/types.js';
import { Diagnostics } from '../../../../src/diagnostics.js';
import { diff } from '../../../../src/engine/diff.js';
import type { Change, DesiredResource, LiveResource } from '../../../../src/engine/types.js';
import { customTermKind } from '../../../../src/kinds/custom-term.js';
import { KIND_META, resourceDoc } from '../../engine/builders.js';
import {
  ACTOR,
  agreementsExecContext,
  agreementsFetchContext,
  agreementsProject,
  apiTerm,
  dataFile,
  dataFiles,
  fakeAgreements,
  lockOf,
  sha,
} from './fakes.js';

const FILE = 'custom-terms/consulting.yaml';
const LINES = { '/name': 2, '/body': 3, '/body_file': 4, '/docx_file': 5 };

async function toDesired(body: Record<string, unknown>, options: { files?: DataFiles; project?: ProjectConfig } = {}) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('CustomTerm', { name: 'Consulting Terms', ...body }, LINES, FILE);
  const resources = await customTermKind.toDesired!(doc, diagnostics, { project: options.project ?? agreementsProject(), files: options.files ?? new Map() });
  return { resource: resources[0]!, resources, diagnostics };
}

function plan(desired: DesiredResource[], live: LiveResource[]) {
  const result = diff({ kinds: KIND_META, desired, live, prune: {} });
  expect(result.diagnostics.items).toEqual([]);
  return result;
}

function only(changes: Change[]): Change {
  expect(changes).toHaveLength(1);
  return changes[0]!;
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

describe('CustomTerm fetch', () => {
  const terms = [
    apiTerm('ct-1', 'Consulting Terms', { body: 'Live body\r\n' }),
    apiTerm('ct-2', 'Other Terms', { body: 'Other' }),
    apiTerm('ct-3', 'Word Terms', { term_type: 'file', conversion_status: 'ready' }),
  ];

  it('reads the body of declared text terms only', async () => {
    const { resource } = await toDesired({ body: 'x' });
    const agreements = fakeAgreements({ terms });
    const live = await customTermKind.fetch(agreementsFetchContext(agreements.services, { declared: [resource] }));
    expect(agreements.callsOf('getCustomTerm')).toEqual([['ct-1', 'Consulting Terms']]);
    expect(live.find((l) => l.id === 'ct-1')!.fields).toEqual({ name: 'Consulting Terms', body: 'Live body' });
    expect(live.find((l) => l.id === 'ct-2')!.fields).toEqual({ name: 'Other Terms' });
  });

  it('reads every body when nothing is declared (export)', async () => {
    const agreements = fakeAgreements({ terms: terms.slice(0, 2) });
    await customTermKind.fetch(agreementsFetchContext(agreements.services));
    expect(agreements.callsOf('getCustomTerm').map((a) => a[0])).toEqual(['ct-1', 'ct-2']);
  });

  it('file terms take their docx digest from the lock entry with their id, never reading the term', async () => {
    const agreements = fakeAgreements({ terms });
    const lock = lockOf({ 'custom-term:Word Terms': { id: 'ct-3', file: 'custom-terms/word.docx', sha256: 'abc' } });
    const live = await customTermKind.fetch(agreementsFetchContext(agreements.services, { lock }));
    const word = live.find((l) => l.id === 'ct-3')!;
    expect(word.fields).toEqual({ name: 'Word Terms', docx: 'abc' });
    expect(word.unknownFields).toBeUndefined();
    expect(agreements.callsOf('getCustomTerm').map((a) => a[0])).not.toContain('ct-3');
  });

  it('a file term matches its lock entry by id, not by name', async () => {
    const agreements = fakeAgreements({ terms });
    const lock = lockOf({ 'custom-term:Word Terms': { id: 'ct-other', file: 'custom-terms/word.docx', sha256: 'abc' } });
    const live = await customTermKind.fetch(agreementsFetchContext(agreements.services, { lock }));
    const word = live.find((l) => l.id === 'ct-3')!;
    expect(word.fields).toEqual({ name: 'Word Terms' });
    expect(word.unknownFields?.docx).toMatch(/docket\.lock\.json has no entry/);
  });
});

describe('CustomTerm plan (toDesired, fetch, diff)', () => {
  async function liveFor(desired: DesiredResource, terms: ReturnType<typeof apiTerm>[], lock = lockOf()) {
    const agreements = fakeAgreements({ terms });
    return customTermKind.fetch(agreementsFetchContext(agreements.services, { declared: [desired], lock }));
  }

  it('an identical body (after normalisation) plans nothing', async () => {
    const { resource } = await toDesired({ body: 'Pay on time.\n' });
    const live = await liveFor(resource, [apiTerm('ct-1', 'Consulting Terms', { body: 'Pay on time.\r\n\r\n' })]);
    const result = plan([resource], live);
    expect(result.changes).toEqual([]);
    expect(result.adoptable).toEqual([]);
  });

  it('a changed body is an irreversible publish of the body', async () => {
    const { resource } = await toDesired({ body: 'Pay within 30 days.' });
    const live = await liveFor(resource, [apiTerm('ct-1', 'Consulting Terms', { body: 'Pay on time.' })]);
    const change = only(plan([resource], live).changes);
    expect(change).toMatchObject({ action: 'publish', kind: 'custom-term', key: 'Consulting Terms', liveId: 'ct-1', irreversible: true });
    expect(change.fields).toEqual([{ field: 'body', before: 'Pay on time.', after: 'Pay within 30 days.' }]);
  });

  it('a name change with renamed_from is a rename of the live term, not a create', async () => {
    const { resource } = await toDesired({ body: 'Same', renamed_from: ['Old Terms'] });
    const live = await liveFor(resource, [apiTerm('ct-1', 'Old Terms', { body: 'Same' })]);
    const change = only(plan([resource], live).changes);
    expect(change).toMatchObject({ action: 'rename', liveId: 'ct-1', name: 'Consulting Terms' });
    expect(change.fields).toEqual([{ field: 'name', before: 'Old Terms', after: 'Consulting Terms' }]);
  });

  it('a docx term without a lock entry plans nothing but is adoptable', async () => {
    const { resource } = await toDesired({ docx_file: 'consulting.docx' }, { files: dataFiles(DOCX) });
    const live = await liveFor(resource, [apiTerm('ct-1', 'Consulting Terms', { term_type: 'file' })]);
    const result = plan([resource], live);
    expect(result.changes).toEqual([]);
    expect(result.adoptable).toEqual([
      expect.objectContaining({ kind: 'custom-term', key: 'Consulting Terms', liveId: 'ct-1', field: 'docx', file: 'custom-terms/consulting.docx', sha256: sha(DOCX_BYTES) }),
    ]);
  });

  it('a docx whose digest differs from the lock publishes; the same digest plans nothing', async () => {
    const { resource } = await toDesired({ docx_file: 'consulting.docx' }, { files: dataFiles(DOCX) });
    const terms = [apiTerm('ct-1', 'Consulting Terms', { term_type: 'file' })];
    const stale = await liveFor(resource, terms, lockOf({ 'custom-term:Consulting Terms': { id: 'ct-1', file: 'custom-terms/consulting.docx', sha256: 'old' } }));
    expect(only(plan([resource], stale).changes)).toMatchObject({ action: 'publish', fields: [{ field: 'docx', before: 'old', after: sha(DOCX_BYTES) }] });
    const current = await liveFor(resource, terms, lockOf({ 'custom-term:Consulting Terms': { id: 'ct-1', file: 'custom-terms/consulting.docx', sha256: sha(DOCX_BYTES) } }));
    expect(plan([resource], current)).toMatchObject({ changes: [], adoptable: [] });
  });

  it('a term not live yet is a create with the body', async () => {
    const { resource } = await toDesired({ body: 'New' });
    const change = only(plan([resource], []).changes);
    expect(change).toMatchObject({ action: 'create', desired: { name: 'Consulting Terms', body: 'New' } });
  });
});

describe('CustomTerm execute', () => {
  async function planned(body: Record<string, unknown>, live: LiveResource[], files = dataFiles(DOCX)): Promise<Change> {
    const { resource } = await toDesired(body, { files });
    return only(plan([resource], live).changes);
  }
  const liveText = (body: string): LiveResource => ({ kind: 'custom-term', id: 'ct-1', key: 'Consulting Terms', name: 'Consulting Terms', fields: { name: 'Consulting Terms', body }, refs: [] });
  const liveDocx = (digest: string): LiveResource => ({ kind: 'custom-term', id: 'ct-1', key: 'Consulting Terms', name: 'Consulting Terms', fields: { name: 'Consulting Terms', docx: digest }, refs: [] });

  it('creates a text term recorded against the actor and registers its id', async () => {
    const agreements = fakeAgreements();
    const { ctx, registered, recorded } = agreementsExecContext(agreements.services);
    await customTermKind.execute(await planned({ body: 'Pay on time.\n' }, []), ctx);
    expect(agreements.callsOf('createTextTerm')).toEqual([['Consulting Terms', 'Pay on time.', { email: ACTOR }]]);
    expect(registered).toEqual([['custom-term', 'Consulting Terms', 'new-1']]);
    expect(recorded).toEqual([]);
    expect(agreements.writes()).toEqual(['createTextTerm']);
  });

  it('creates a docx term from the planned file, records it in the lock and waits for the conversion', async () => {
    const agreements = fakeAgreements({ termReads: { 'new-1': [{ conversion_status: 'processing' }, { conversion_status: 'processing' }, { conversion_status: 'ready' }] } });
    const { ctx, registered, read, recorded, slept } = agreementsExecContext(agreements.services, { files: { 'custom-terms/consulting.docx': DOCX_BYTES } });
    await customTermKind.execute(await planned({ docx_file: 'consulting.docx' }, []), ctx);
    expect(read).toEqual([['custom-terms/consulting.docx', sha(DOCX_BYTES)]]);
    expect(agreements.callsOf('createFileTerm')).toEqual([['Consulting Terms', { data: DOCX_BYTES, filename: 'consulting.docx' }, { email: ACTOR }]]);
    expect(registered).toEqual([['custom-term', 'Consulting Terms', 'new-1']]);
    expect(recorded).toEqual([['custom-term', 'Consulting Terms', { id: 'new-1', file: 'custom-terms/consulting.docx', sha256: sha(DOCX_BYTES) }]]);
    expect(agreements.callsOf('getCustomTerm')).toHaveLength(3);
    expect(slept).toHaveLength(2);
  });

  it('a failed conversion is an error naming the term and the file', async () => {
    const agreements = fakeAgreements({ termReads: { 'new-1': [{ conversion_status: 'processing' }, { conversion_status: 'failed' }] } });
    const { ctx } = agreementsExecContext(agreements.services, { files: { 'custom-terms/consulting.docx': DOCX_BYTES } });
    const create = await planned({ docx_file: 'consulting.docx' }, []);
    await expect(customTermKind.execute(create, ctx)).rejects.toThrow(/custom term "Consulting Terms".*custom-terms\/consulting\.docx.*failed/);
  });

  it('gives up on a conversion that never finishes, without really waiting', async () => {
    const agreements = fakeAgreements({ termReads: { 'new-1': [{ conversion_status: 'processing' }] } });
    const { ctx, slept } = agreementsExecContext(agreements.services, { files: { 'custom-terms/consulting.docx': DOCX_BYTES } });
    const create = await planned({ docx_file: 'consulting.docx' }, []);
    await expect(customTermKind.execute(create, ctx)).rejects.toThrow(/"Consulting Terms": conversion still processing/);
    expect(slept.reduce((a, b) => a + b, 0)).toBeGreaterThanOrEqual(120_000);
  });

  it('publishes a changed body as the version after the current one', async () => {
    const agreements = fakeAgreements({ terms: [apiTerm('ct-1', 'Consulting Terms', { current_version_number: 4 })] });
    const { ctx } = agreementsExecContext(agreements.services);
    await customTermKind.execute(await planned({ body: 'New body' }, [liveText('Old body')]), ctx);
    expect(agreements.callsOf('publishTermVersion')).toEqual([['ct-1', 'Consulting Terms', { body: 'New body' }, { email: ACTOR }, 5]]);
  });

  it('publishes a changed docx, re-records it and waits for the conversion', async () => {
    const agreements = fakeAgreements({
      terms: [apiTerm('ct-1', 'Consulting Terms', { term_type: 'file', current_version_number: 2 })],
      termReads: { 'ct-1': [{ conversion_status: 'ready' }, { conversion_status: 'processing' }, { conversion_status: 'ready' }] },
    });
    const { ctx, recorded, slept } = agreementsExecContext(agreements.services, { files: { 'custom-terms/consulting.docx': DOCX_BYTES } });
    await customTermKind.execute(await planned({ docx_file: 'consulting.docx' }, [liveDocx('old')]), ctx);
    expect(agreements.callsOf('publishTermVersion')).toEqual([['ct-1', 'Consulting Terms', { docx: { data: DOCX_BYTES, filename: 'consulting.docx' } }, { email: ACTOR }, 3]]);
    expect(recorded).toEqual([['custom-term', 'Consulting Terms', { id: 'ct-1', file: 'custom-terms/consulting.docx', sha256: sha(DOCX_BYTES) }]]);
    expect(slept).toHaveLength(1);
  });

  it('renames in place', async () => {
    const agreements = fakeAgreements();
    const { ctx } = agreementsExecContext(agreements.services);
    const live: LiveResource = { ...liveText('Same'), key: 'Old Terms', name: 'Old Terms', fields: { name: 'Old Terms', body: 'Same' } };
    await customTermKind.execute(await planned({ body: 'Same', renamed_from: 'Old Terms' }, [live]), ctx);
    expect(agreements.callsOf('renameCustomTerm')).toEqual([['ct-1', 'Consulting Terms', 'Consulting Terms']]);
  });
});
