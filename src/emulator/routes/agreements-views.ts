/** How the agreements service shows its objects: JSON:API resource objects (reference/api.md). */
import type {
  AgreementsOrganizationRecord,
  AttachmentRecord,
  CustomTemplateRecord,
  CustomTemplateVersionRecord,
  CustomTermRecord,
  CustomTermVersionRecord,
  TemplateRecord,
} from '../agreements-state.js';
import { latest } from '../agreements-state.js';
import type { ResourceObject } from '../jsonapi.js';
import type { MembershipRecord, UserRecord } from '../store.js';
import type { EmulatorVariants } from '../variants.js';
import { templateResourceType } from '../template-defaults.js';

export function agreementsUserView(user: UserRecord, membership: MembershipRecord, organizationId: string): ResourceObject {
  return { id: user.id, type: 'user', attributes: { email: user.email, name: user.name, role: membership.role, organization_id: organizationId } };
}

export function agreementsOrganizationView(id: string, org: AgreementsOrganizationRecord): ResourceObject {
  return { id, type: 'organization', attributes: { ...org } };
}

/** List form: metadata only; `withBody` adds the released version's markdown (single reads and writes). */
export function customTermView(term: CustomTermRecord, withBody: boolean): ResourceObject {
  const current = latest(term.versions);
  const attributes: Record<string, unknown> = {
    name: term.name,
    term_type: term.term_type,
    current_version_number: current.version_number,
    conversion_status: term.conversion_status,
    created_at: term.created_at,
    updated_at: term.updated_at,
  };
  if (withBody) attributes.body = term.term_type === 'text' ? current.body : null;
  return { id: term.id, type: 'custom_term', attributes };
}

/** NOTE(api): the versions list and its attributes are ours; the real service shows no such read. */
export function customTermVersionView(v: CustomTermVersionRecord): ResourceObject {
  return {
    id: v.id,
    type: 'custom_term_version',
    attributes: { version_number: v.version_number, body: v.body, docx_sha256: v.docx_sha256, created_by_email: v.created_by_email, created_at: v.created_at },
  };
}

export function customTemplateView(t: CustomTemplateRecord): ResourceObject {
  const current = latest(t.versions);
  return {
    id: t.id,
    type: 'custom_template',
    attributes: {
      name: t.name,
      current_definition: current.definition,
      current_version_number: current.version_number,
      custom_term_id: t.custom_term_id,
      created_at: t.created_at,
      updated_at: t.updated_at,
    },
  };
}

/** NOTE(api): like the custom term versions list, a read of ours. */
export function customTemplateVersionView(v: CustomTemplateVersionRecord): ResourceObject {
  return {
    id: v.id,
    type: 'custom_template_version',
    attributes: {
      version_number: v.version_number,
      definition: v.definition,
      custom_term_id: v.custom_term_id,
      custom_term_version_number: v.custom_term_version_number,
      created_by_email: v.created_by_email,
      created_at: v.created_at,
    },
  };
}

/**
 * Compact: name, standard_version, agreement_type and timestamps; `full` adds every stored
 * parameter. The variants: `generic` types (`type: template`, a lower-case `agreement_type`,
 * `standard_version` beside `attributes`), `attribute` types (`type: template`, the type only as
 * `attributes.type`), and nested objects read back without `_attributes`.
 */
export function templateView(t: TemplateRecord, full: boolean, organizationId: string, variants: EmulatorVariants): ResourceObject {
  const form = variants.templateTypes;
  const attributes: Record<string, unknown> = {
    name: t.name,
    ...(form === 'generic' ? {} : { standard_version: t.standard_version }),
    ...(form === 'attribute' ? { type: t.agreement_type } : { agreement_type: form === 'generic' ? t.agreement_type.toLowerCase().replace(/ /g, '_') : t.agreement_type }),
    organization_id: organizationId,
  };
  if (full) {
    for (const [key, value] of Object.entries(t.parameters)) {
      attributes[variants.nestedReadNames ? key.replace(/^(template_\w+)_attributes$/, '$1') : key] = value;
    }
  }
  attributes.created_at = t.created_at;
  attributes.updated_at = t.updated_at;
  const resource: ResourceObject = { id: t.id, type: form === 'wire' ? templateResourceType(t.agreement_type) : 'template', attributes };
  if (form === 'generic') resource.standard_version = t.standard_version;
  return resource;
}

export function attachmentView(a: AttachmentRecord): ResourceObject {
  return {
    id: a.id,
    type: 'attachment',
    attributes: { name: a.name, description: a.description, filename: a.filename, byte_size: a.byte_size, sha256: a.sha256, created_at: a.created_at },
  };
}
