import { describe, expect, it } from 'vitest';
import type { DataFiles } from '../../../../src/config/data-files.js';
import { Diagnostics } from '../../../../src/diagnostics.js';
import { attachmentKind } from '../../../../src/kinds/attachment.js';
import { resourceDoc } from '../../engine/builders.js';
import { agreementsProject, dataFile, dataFiles, sha } from './desired-helpers.js';

const FILE = 'attachments/security.yaml';
const PDF_PATH = 'attachments/security.pdf';
const PDF = new Uint8Array(Buffer.from('%PDF-1.4\n1 0 obj\n<<>>\nendobj\n%%EOF\n', 'latin1'));

async function toDesired(body: Record<string, unknown> = {}, files: DataFiles = dataFiles(dataFile(PDF_PATH, PDF))) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('Attachment', { name: 'Security Exhibit', description: 'Our security measures\n', file: 'security.pdf', ...body }, { '/name': 2, '/description': 3, '/file': 4 }, FILE);
  const resources = await attachmentKind.toDesired!(doc, diagnostics, { project: agreementsProject(), files });
  return { resource: resources[0]!, diagnostics };
}

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


