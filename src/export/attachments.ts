/**
 * attachments/<slug>.yaml: the service can neither list attachments nor give a PDF back, so the
 * export knows only those the source configuration's docket.lock.json records. Each is written
 * pinned to its live id (`id:`), naming <slug>.pdf for the user to add; `docket apply
 * --adopt-files` then records the file as live without uploading it again.
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
    part.files.push(resourceFile(`${LAYOUT.attachments}/${slug}.yaml`, 'attachment.schema.json', [doc], paths));
    part.missing.push({ kind: 'attachment', name: a.name, path: `${LAYOUT.attachments}/${slug}.pdf`, what: 'PDF', ...(a.sourceFile ? { sourceFile: a.sourceFile } : {}) });
    part.count++;
  }
  return part;
}
