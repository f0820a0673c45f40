/**
 * attachments/<slug>.yaml: the service can neither list attachments nor give a PDF back, so the
 * export knows only those the source configuration's docket.lock.json records. Each is written
 * pinned to its live id (`id:`) as `<slug>.yaml.pending`, naming <slug>.pdf for the user to add;
 * once added and renamed to .yaml, `docket apply --adopt-files` records the file as live.
 */
import { assignSlugs, LAYOUT } from './layout.js';
import { emptyPart, type ExportPart, type SchemaPaths } from './types.js';
import { blockText, resourceFile } from './yaml.js';

export interface AttachmentData {
  name: string;
  id: string;
  /** The description uploaded with the file (null: none; undefined: not recorded). */
  description?: string | null;
  /** The PDF as the source configuration named it. */
  sourceFile?: string;
}

export function exportAttachments(attachments: readonly AttachmentData[], paths: SchemaPaths): ExportPart {
  const part = emptyPart('attachment');
  for (const { item: a, slug } of assignSlugs(attachments, (x) => x.name, (x) => x.id)) {
    const doc: Record<string, unknown> = { kind: 'Attachment', name: a.name, id: a.id };
    if (a.description) doc.description = blockText(a.description);
    doc.file = `${slug}.pdf`;
    // Pending until the user adds the PDF: docket reads only *.yaml, so the export plans clean.
    const document = `${LAYOUT.attachments}/${slug}.yaml.pending`;
    part.files.push(resourceFile(document, 'attachment.schema.json', [doc], paths));
    part.missing.push({ kind: 'attachment', name: a.name, path: `${LAYOUT.attachments}/${slug}.pdf`, document, what: 'PDF', ...(a.sourceFile ? { sourceFile: a.sourceFile } : {}) });
    part.count++;
  }
  return part;
}
