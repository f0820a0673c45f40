/**
 * `docket export`, the pure part: live data → the files of a configuration directory on which
 * `docket plan` shows no changes, plus the files the user must add and notes. No I/O here: the
 * command (src/cli/commands/export.ts) reads the live state and writes the files.
 */
import { exportAttachments, type AttachmentData } from './attachments.js';
import { exportCustomTemplates, type CustomTemplateData } from './custom-templates.js';
import { EXPORT_KINDS, LAYOUT, type ExportKind } from './layout.js';
import { exportMembers, type MemberData } from './members.js';
import { exportOrganization, type OrganizationData } from './organization.js';
import { exportPlaybooks, type PlaybookData } from './playbooks.js';
import { exportTemplates, type ParameterSchema, type TemplateData } from './templates.js';
import { exportTerms, type TermData } from './terms.js';
import type { ExportFile, ExportPart, MissingFile, SchemaPaths } from './types.js';
import { resourceFile } from './yaml.js';

export type { AttachmentData, CustomTemplateData, MemberData, OrganizationData, PlaybookData, TemplateData, TermData, ParameterSchema };
export type { ExportFile, ExportPart, MissingFile, SchemaPaths };

/** docket.yaml settings of the exported target (never a key or secret). */
export interface ProjectSettings {
  review?: { url: string; organization_id?: string };
  agreements?: { url: string; actor?: string };
  /** Written only when it differs from the default. */
  concurrency?: number;
}

export const DEFAULT_CONCURRENCY = 8;

export interface LiveExport {
  kinds: ReadonlySet<ExportKind>;
  project: ProjectSettings;
  organization?: OrganizationData;
  members?: MemberData[];
  playbooks?: PlaybookData[];
  terms?: TermData[];
  customTemplates?: CustomTemplateData[];
  templates?: TemplateData[];
  attachments?: AttachmentData[];
  /** Parameter schemas by template type, for dropping default values. */
  templateSchemas: ReadonlyMap<string, ParameterSchema>;
}

export interface ExportResult {
  /** Every file, sorted by path. */
  files: ExportFile[];
  /** One entry per exported kind, in EXPORT_KINDS order. */
  parts: ExportPart[];
  missing: MissingFile[];
  notes: string[];
}

/** Kinds whose writes are recorded against `agreements.actor` (plan needs it for them). */
const NEEDS_ACTOR: ExportKind[] = ['custom-term', 'custom-template', 'attachment'];

export function projectDocument(settings: ProjectSettings): Record<string, unknown> {
  const doc: Record<string, unknown> = { version: 1 };
  if (settings.review) {
    doc.review = { url: settings.review.url, ...(settings.review.organization_id ? { organization_id: settings.review.organization_id } : {}) };
  }
  if (settings.agreements) {
    doc.agreements = { url: settings.agreements.url, ...(settings.agreements.actor ? { actor: settings.agreements.actor } : {}) };
  }
  if (settings.concurrency !== undefined && settings.concurrency !== DEFAULT_CONCURRENCY) doc.concurrency = settings.concurrency;
  return doc;
}

export function buildExport(live: LiveExport, paths: SchemaPaths): ExportResult {
  const parts: ExportPart[] = [];
  // Exported attachments stay pending until their PDFs are added, so templates keep naming them by id.
  const attachmentNames = new Map<string, string>();

  for (const kind of EXPORT_KINDS) {
    if (!live.kinds.has(kind)) continue;
    switch (kind) {
      case 'organization':
        if (live.organization) parts.push(exportOrganization(live.organization, paths));
        break;
      case 'member':
        parts.push(exportMembers(live.members ?? [], paths));
        break;
      case 'playbook':
        parts.push(exportPlaybooks(live.playbooks ?? [], paths));
        break;
      case 'custom-term':
        parts.push(exportTerms(live.terms ?? [], paths));
        break;
      case 'custom-template':
        parts.push(exportCustomTemplates(live.customTemplates ?? [], paths));
        break;
      case 'template': {
        const part = exportTemplates(live.templates ?? [], { schemas: live.templateSchemas, attachmentName: (id) => attachmentNames.get(id) }, paths);
        if ((live.templates ?? []).some(usesAttachments)) {
          part.notes.push('templates name attachments by id; once an attachment is managed here, write `{ attachment: <name> }` instead so a new PDF re-points them');
        }
        parts.push(part);
        break;
      }
      case 'attachment': {
        const part = exportAttachments(live.attachments ?? [], paths);
        part.notes.push('attachments cannot be listed over the API: only those the source docket.lock.json records are exported');
        parts.push(part);
        break;
      }
    }
  }

  const notes = parts.flatMap((p) => p.notes);
  const needsActor = NEEDS_ACTOR.some((k) => parts.some((p) => p.kind === k && p.count > 0));
  if (needsActor && !live.project.agreements?.actor) {
    notes.push(`set \`agreements.actor\` in ${LAYOUT.project} (the user recorded as author of term and template versions): plan needs it for custom terms, custom templates and attachments`);
  }
  const files = [resourceFile(LAYOUT.project, 'docket.schema.json', [projectDocument(live.project)], paths), ...parts.flatMap((p) => p.files)];
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  return { files, parts, missing: parts.flatMap((p) => p.missing), notes };
}

function usesAttachments(t: TemplateData): boolean {
  const ids = t.attributes.attachment_ids;
  if (Array.isArray(ids) && ids.length > 0) return true;
  const visit = (v: unknown, key: string): boolean =>
    (key.endsWith('_attachment_id') && typeof v === 'string') ||
    (Array.isArray(v) && v.some((x) => visit(x, ''))) ||
    (v !== null && typeof v === 'object' && !Array.isArray(v) && Object.entries(v).some(([k, x]) => visit(x, k)));
  return visit(t.attributes, '');
}
