import { describe, expect, it } from 'vitest';
import type { DataFiles } from '../../../../src/config/data-files.js';
import type { LockFile } from '../../../../src/config/lock.js';
import { Diagnostics } from '../../../../src/diagnostics.js';
import { diff } from '../../../../src/engine/diff.js';
import type { Change, DesiredResource } from '../../../../src/engine/types.js';
import { attachmentKind, lockedAttachments } from '../../../../src/kinds/attachment.js';
import { KIND_META, resourceDoc } from '../../engine/builders.js';
import { ACTOR, agreementsExecContext, agreementsFetchContext, agreementsProject, dataFile, dataFiles, fakeAgreements, lockOf, sha } from './fakes.js';

const FILE = 'attachments/security.yaml';
const PDF_PATH = 'attachments/security.pdf';
const PDF = new Uint8Array(Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1'));
const PDF_V2 = new Uint8Array(Buffer.from('%PDF-1.7\n% version two\n%%EOF\n', 'latin1'));

async function toDesired(body: Record<string, unknown> = {}, files: DataFiles = dataFiles(dataFile(PDF_PATH, PDF))) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('Attachment', { name: 'Security Exhibit', description: 'Our security measures\n', file: 'security.pdf', ...body }, { '/name': 2, '/description': 3, '/file': 4 }, FILE);
  const resources = await attachmentKind.toDesired!(doc, diagnostics, { project: agreementsProject(), files });
  return { resource: resources[0]!, diagnostics };
}

async function fetchLive(lock: LockFile, declared?: DesiredResource[]) {
  const agreements = fakeAgreements();
  const live = await attachmentKind.fetch(agreementsFetchContext(agreements.services, { lock, ...(declared ? { declared } : {}) }));
  // Attachments cannot be listed: fetch reads nothing from the service.
  expect(agreements.calls).toEqual([]);
  return live;
}

function plan(desired: DesiredResource, lock: LockFile) {
  return fetchLive(lock, [desired]).then((live) => {
    const result = diff({ kinds: KIND_META, desired: [desired], live, prune: {} });
    expect(result.diagnostics.items).toEqual([]);
    return result;
  });
}

const entry = (id: string, bytes: Uint8Array, description: string | null = 'Our security measures') => ({ id, file: PDF_PATH, sha256: sha(bytes), description });

describe('Attachment toDesired', () => {
  it('compares name, description and the PDF digest; the path is payload', async () => {
    const { resource, diagnostics } = await toDesired();
    expect(diagnostics.items).toEqual([]);
    expect(resource).toMatchObject({ kind: 'attachment', key: 'Security Exhibit', partial: false });
    expect(resource.fields).toEqual({ name: 'Security Exhibit', description: 'Our security measures', sha256: sha(PDF) });
    expect(resource.payload).toEqual({ file: PDF_PATH });
    expect(resource.fieldSources.sha256).toMatchObject({ file: FILE, line: 4 });
  });

  it('an omitted description is null', async () => {
    const { resource } = await toDesired({ description: undefined });
    expect(resource.fields.description).toBeNull();
  });

  it('refuses a file that is not a PDF, at the `file` line', async () => {
    const { diagnostics } = await toDesired({ file: 'security.docx' }, dataFiles(dataFile('attachments/security.docx', 'PK\u0003\u0004 not a pdf')));
    expect(diagnostics.errors.map((d) => [d.code, d.file, d.line])).toEqual([['not-a-pdf', FILE, 4]]);
    expect(diagnostics.errors[0]!.message).toContain('attachments/security.docx');
  });

  it('refuses a file too short to be a PDF', async () => {
    const { diagnostics } = await toDesired({}, dataFiles(dataFile(PDF_PATH, '%PD')));
    expect(diagnostics.errors.map((d) => d.code)).toEqual(['not-a-pdf']);
  });

  it('needs agreements.actor (uploaded_by)', async () => {
    const diagnostics = new Diagnostics();
    const doc = resourceDoc('Attachment', { name: 'Security Exhibit', file: 'security.pdf' }, {}, FILE);
    await attachmentKind.toDesired!(doc, diagnostics, { project: agreementsProject(null), files: dataFiles(dataFile(PDF_PATH, PDF)) });
    expect(diagnostics.errors.map((d) => d.code)).toEqual(['missing-actor']);
  });
});

describe('Attachment fetch', () => {
  it('reads the live attachments from the lock entries named attachment:<name> only', async () => {
    const lock = lockOf({
      'attachment:Security Exhibit': entry('att-1', PDF, 'Our security measures\r\n'),
      'custom-term:Word Terms': { id: 'ct-3', file: 'custom-terms/word.docx', sha256: 'abc' },
    });
    const live = await fetchLive(lock);
    expect(live).toEqual([
      { kind: 'attachment', id: 'att-1', key: 'Security Exhibit', name: 'Security Exhibit', fields: { name: 'Security Exhibit', description: 'Our security measures', sha256: sha(PDF) }, refs: [] },
    ]);
    expect([...lockedAttachments(lock.files).keys()]).toEqual(['Security Exhibit']);
  });

  it('a pinned attachment without a lock entry exists but cannot be compared', async () => {
    const { resource } = await toDesired({ id: 'att-pinned' });
    const live = await fetchLive(lockOf(), [resource]);
    expect(live).toHaveLength(1);
    expect(live[0]).toMatchObject({ id: 'att-pinned', key: 'Security Exhibit', fields: { name: 'Security Exhibit' } });
    expect(Object.keys(live[0]!.unknownFields ?? {}).sort()).toEqual(['description', 'sha256']);
  });

  it('a pinned attachment with a lock entry is read from the lock only once', async () => {
    const { resource } = await toDesired({ id: 'att-1' });
    const live = await fetchLive(lockOf({ 'attachment:Security Exhibit': entry('att-1', PDF) }), [resource]);
    expect(live.map((l) => l.id)).toEqual(['att-1']);
    expect(live[0]!.unknownFields).toBeUndefined();
  });
});

describe('Attachment plan and execute', () => {
  it('the uploaded file plans nothing', async () => {
    const { resource } = await toDesired();
    const result = await plan(resource, lockOf({ 'attachment:Security Exhibit': entry('att-1', PDF) }));
    expect(result.changes).toEqual([]);
    expect(result.ids['attachment:Security Exhibit']).toBe('att-1');
  });

  it('a changed PDF is an upload that replaces the old attachment', async () => {
    const { resource } = await toDesired({}, dataFiles(dataFile(PDF_PATH, PDF_V2)));
    const { changes } = await plan(resource, lockOf({ 'attachment:Security Exhibit': entry('att-1', PDF) }));
    expect(changes).toHaveLength(1);
    expect(changes[0]).toMatchObject({ action: 'upload', kind: 'attachment', key: 'Security Exhibit', liveId: 'att-1' });
    expect(changes[0]!.fields).toEqual([{ field: 'sha256', before: sha(PDF), after: sha(PDF_V2) }]);
  });

  it('a changed description is an upload too', async () => {
    const { resource } = await toDesired({ description: 'New words' });
    const { changes } = await plan(resource, lockOf({ 'attachment:Security Exhibit': entry('att-1', PDF) }));
    expect(changes.map((c) => [c.action, c.fields.map((f) => f.field)])).toEqual([['upload', ['description']]]);
  });

  it('a new attachment is an upload, a pinned one without a lock entry is adoptable', async () => {
    const fresh = await plan((await toDesired()).resource, lockOf());
    expect(fresh.changes.map((c) => c.id)).toEqual(['upload:attachment:Security Exhibit']);
    const pinned = await plan((await toDesired({ id: 'att-pinned' })).resource, lockOf());
    expect(pinned.changes).toEqual([]);
    expect(pinned.adoptable).toEqual([expect.objectContaining({ kind: 'attachment', liveId: 'att-pinned', field: 'sha256', file: PDF_PATH, sha256: sha(PDF) })]);
  });

  it('an adopted lock entry (no description recorded) plans nothing', async () => {
    // `apply --adopt-files` records id, file and sha256 only: the live description is unknown.
    const { resource } = await toDesired();
    const result = await plan(resource, lockOf({ 'attachment:Security Exhibit': { id: 'att-1', file: PDF_PATH, sha256: sha(PDF) } }));
    expect(result.changes).toEqual([]);
  });

  it('execute uploads the planned file as the actor, registers the new id and records it in the lock', async () => {
    const { resource } = await toDesired({}, dataFiles(dataFile(PDF_PATH, PDF_V2)));
    const [upload] = (await plan(resource, lockOf({ 'attachment:Security Exhibit': entry('att-1', PDF) }))).changes as [Change];
    const agreements = fakeAgreements();
    const { ctx, read, registered, recorded } = agreementsExecContext(agreements.services, { files: { [PDF_PATH]: PDF_V2 } });
    await attachmentKind.execute(upload, ctx);
    expect(read).toEqual([[PDF_PATH, sha(PDF_V2)]]);
    expect(agreements.callsOf('uploadAttachment')).toEqual([
      [{ data: PDF_V2, filename: 'security.pdf' }, { name: 'Security Exhibit', description: 'Our security measures', uploadedBy: ACTOR }],
    ]);
    expect(registered).toEqual([['attachment', 'Security Exhibit', 'att-new-1']]);
    expect(recorded).toEqual([['attachment', 'Security Exhibit', { id: 'att-new-1', file: PDF_PATH, sha256: sha(PDF_V2), description: 'Our security measures' }]]);
  });

  it('execute records a null description when there is none', async () => {
    const { resource } = await toDesired({ description: undefined });
    const [upload] = (await plan(resource, lockOf())).changes as [Change];
    const agreements = fakeAgreements();
    const { ctx, recorded } = agreementsExecContext(agreements.services, { files: { [PDF_PATH]: PDF } });
    await attachmentKind.execute(upload, ctx);
    expect((agreements.callsOf('uploadAttachment')[0]![1] as { description: unknown }).description).toBeNull();
    expect(recorded[0]![2].description).toBeNull();
  });

  it('execute only uploads', async () => {
    const { ctx } = agreementsExecContext(fakeAgreements().services);
    const rename: Change = { id: 'rename:attachment:X', action: 'rename', kind: 'attachment', key: 'X', name: 'X', fields: [], refs: [], dependsOn: [], fingerprint: null };
    await expect(attachmentKind.execute(rename, ctx)).rejects.toThrow(/attachment cannot rename/);
  });
});
