/**
 * The agreements service's objects of one organization (`OrganizationRecord.agreements`): plain
 * JSON like the rest of the state. Also how a seed organization becomes one.
 */
import { randomUUID } from 'node:crypto';
import { definitionErrors } from './definition.js';
import { ADDRESS_FIELDS, type SeedAgreements } from './seed-agreements.js';
import { isObject } from './seed-checks.js';
import { defaultStandardVersion, isAgreementType, withDefaults, type AgreementType } from './template-defaults.js';

export type ConversionStatus = 'processing' | 'ready' | 'failed';
export type DocxConversion = 'ready' | 'failed';

/** The agreements service's view of the organization, separate from the review service's. */
export interface AgreementsOrganizationRecord {
  name: string;
  street_address: string | null;
  city: string | null;
  state: string | null;
  zipcode: string | null;
  country: string | null;
  onboarded: boolean;
  created_at: string;
  updated_at: string;
}

export interface CustomTermVersionRecord {
  id: string;
  version_number: number;
  /** Markdown of a text term; null for file terms. */
  body: string | null;
  /** sha256 (hex) of the uploaded docx of a file term; null for text terms and seeded files. */
  docx_sha256: string | null;
  created_by_email: string | null;
  created_at: string;
}

export interface CustomTermRecord {
  id: string;
  name: string;
  term_type: 'text' | 'file';
  /** Of the released version; null for text terms. */
  conversion_status: ConversionStatus | null;
  /** Oldest first; the last one is the released version. */
  versions: CustomTermVersionRecord[];
  created_at: string;
  updated_at: string;
}

export interface CustomTemplateVersionRecord {
  id: string;
  version_number: number;
  definition: string;
  custom_term_id: string | null;
  /** The released version of the linked terms when this version was published. */
  custom_term_version_number: number | null;
  created_by_email: string | null;
  created_at: string;
}

export interface CustomTemplateRecord {
  id: string;
  name: string;
  custom_term_id: string | null;
  /** Oldest first; the last one is the current version. */
  versions: CustomTemplateVersionRecord[];
  created_at: string;
  updated_at: string;
}

export interface TemplateRecord {
  id: string;
  agreement_type: AgreementType;
  name: string;
  standard_version: string | null;
  /** Every stored parameter (defaults included), nested `template_*_attributes` and `attachment_ids`. */
  parameters: Record<string, unknown>;
  created_at: string;
  updated_at: string;
}

export interface AttachmentRecord {
  id: string;
  name: string;
  description: string | null;
  filename: string | null;
  byte_size: number;
  sha256: string | null;
  uploaded_by: string | null;
  created_at: string;
}

/**
 * NOTE(api): agreement status values are not shown (a listing operation exists); ours follow the
 * webhook event kinds. The emulator itself moves agreements to draft, sent and voided only.
 */
export const AGREEMENT_STATUSES = ['draft', 'sent', 'viewed', 'signed', 'completed', 'declined', 'voided'] as const;
export type AgreementStatus = (typeof AGREEMENT_STATUSES)[number];

/** NOTE(api): history field names are not shown (seed 001: who, when, a description). */
export interface AgreementHistoryRecord {
  id: string;
  event: 'created' | 'sent' | 'voided';
  description: string;
  user_email: string | null;
  created_at: string;
}

export interface AgreementRecord {
  id: string;
  /** `nda`, `csa`, … for standard templates; `custom` for custom templates. */
  agreement_type: string;
  status: AgreementStatus;
  template_id: string | null;
  custom_template_id: string | null;
  /** The custom template version the agreement is pinned to. */
  custom_template_version_number: number | null;
  owner_id: string;
  owner_email: string;
  signer_id: string;
  signer_email: string;
  cc_users: string[];
  test_agreement: boolean;
  manual_send: boolean;
  /** The create body's `agreement` object as sent, without `custom_field_values`. */
  fields: Record<string, unknown>;
  /** Custom templates: the values after defaults; null for standard templates. */
  custom_field_values: Record<string, unknown> | null;
  history: AgreementHistoryRecord[];
  sent_at: string | null;
  voided_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface AgreementsRecord {
  organization: AgreementsOrganizationRecord;
  /** Agreements made through the API (seed 001 "Endpoints"); none are seeded. */
  agreements: Record<string, AgreementRecord>;
  /** Non-test agreements allowed per calendar month (UTC); null: no limit (seed option). */
  monthly_agreement_limit: number | null;
  custom_terms: Record<string, CustomTermRecord>;
  custom_templates: Record<string, CustomTemplateRecord>;
  templates: Record<string, TemplateRecord>;
  attachments: Record<string, AttachmentRecord>;
  /** Outcome of this organization's docx conversions (seed option). */
  docx_conversion: DocxConversion;
}

export function latest<T>(versions: T[]): T {
  const last = versions[versions.length - 1];
  if (last === undefined) throw new Error('a versioned object without versions');
  return last;
}

function emptyAgreements(orgName: string, now: string): AgreementsRecord {
  return {
    organization: { name: orgName, street_address: null, city: null, state: null, zipcode: null, country: null, onboarded: true, created_at: now, updated_at: now },
    custom_terms: {},
    custom_templates: {},
    templates: {},
    attachments: {},
    docx_conversion: 'ready',
    agreements: {},
    monthly_agreement_limit: null,
  };
}

/** A loaded state's slot, completed with what older state files lack (they stored `{}`). */
export function normalizeAgreements(value: unknown, orgName: string, now: string): AgreementsRecord {
  return { ...emptyAgreements(orgName, now), ...(isObject(value) ? value : {}) } as AgreementsRecord;
}

/**
 * Builds the slot from a seed; throws when the seed contradicts itself (an invalid definition, a
 * custom_term_name that names no seeded term). `author` is recorded as creator of seeded versions.
 */
export function agreementsFromSeed(seed: SeedAgreements | undefined, orgName: string, author: string | null, now: string): AgreementsRecord {
  const a = emptyAgreements(seed?.organization?.name ?? orgName, now);
  if (!seed) return a;
  for (const key of ADDRESS_FIELDS) {
    const value = seed.organization?.[key];
    if (value !== undefined) a.organization[key] = value;
  }
  a.docx_conversion = seed.docx_conversion ?? 'ready';
  a.monthly_agreement_limit = seed.monthly_agreement_limit ?? null;
  const termIdByName = new Map<string, { id: string; version: number }>();
  for (const st of seed.custom_terms ?? []) {
    const id = st.id ?? randomUUID();
    const file = st.term_type === 'file';
    a.custom_terms[id] = {
      id,
      name: st.name,
      term_type: file ? 'file' : 'text',
      conversion_status: file ? a.docx_conversion : null,
      versions: [{ id: randomUUID(), version_number: 1, body: file ? null : (st.body ?? ''), docx_sha256: null, created_by_email: author, created_at: now }],
      created_at: now,
      updated_at: now,
    };
    termIdByName.set(st.name, { id, version: 1 });
  }
  for (const sc of seed.custom_templates ?? []) {
    const problems = definitionErrors(sc.definition);
    if (problems.length > 0) throw new Error(`seed: custom template "${sc.name}" has an invalid definition: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`);
    const term = sc.custom_term_name === undefined ? undefined : termIdByName.get(sc.custom_term_name);
    if (sc.custom_term_name !== undefined && !term) throw new Error(`seed: custom template "${sc.name}" links unknown custom term "${sc.custom_term_name}"`);
    const id = sc.id ?? randomUUID();
    a.custom_templates[id] = {
      id,
      name: sc.name,
      custom_term_id: term?.id ?? null,
      versions: [
        {
          id: randomUUID(),
          version_number: 1,
          definition: sc.definition,
          custom_term_id: term?.id ?? null,
          custom_term_version_number: term?.version ?? null,
          created_by_email: author,
          created_at: now,
        },
      ],
      created_at: now,
      updated_at: now,
    };
  }
  for (const st of seed.templates ?? []) {
    if (!isAgreementType(st.type)) throw new Error(`seed: template "${st.name}" has unknown type "${st.type}"`);
    const id = st.id ?? randomUUID();
    const version = st.standard_version ?? defaultStandardVersion(st.type);
    a.templates[id] = {
      id,
      agreement_type: st.type,
      name: st.name,
      standard_version: version,
      parameters: withDefaults(st.type, version, st.parameters ?? {}),
      created_at: now,
      updated_at: now,
    };
  }
  for (const sa of seed.attachments ?? []) {
    const id = sa.id ?? randomUUID();
    a.attachments[id] = { id, name: sa.name, description: sa.description ?? null, filename: null, byte_size: 0, sha256: null, uploaded_by: null, created_at: now };
  }
  return a;
}
