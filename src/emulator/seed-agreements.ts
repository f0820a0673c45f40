/**
 * The agreements part of a seed organization (`organizations[].agreements`): the agreements
 * organization profile and pre-existing custom terms, custom templates, templates and attachments.
 */
import { isObject, onlyKeys, optionalList, optionalOneOf, optionalType, requireString } from './seed-checks.js';
import { AGREEMENT_TYPES } from './template-defaults.js';

export interface SeedAgreementsOrganization {
  /** Default: the organization's (review service) name. */
  name?: string;
  street_address?: string | null;
  city?: string | null;
  state?: string | null;
  zipcode?: string | null;
  country?: string | null;
}

export interface SeedCustomTerm {
  id?: string;
  name: string;
  /** Markdown of released version 1 of a text term. */
  body?: string;
  /** Default `text`. A seeded file term is converted already (`ready`, or `failed` per docx_conversion). */
  term_type?: 'text' | 'file';
}

export interface SeedCustomTemplate {
  id?: string;
  name: string;
  /** YAML text; must be a valid definition. */
  definition: string;
  /** Links the seeded custom term with this name. */
  custom_term_name?: string;
}

export interface SeedTemplate {
  id?: string;
  /** `NDA`, `CSA`, … (seed 002); documented defaults fill omitted parameters, as on create. */
  type: string;
  name: string;
  standard_version?: string;
  parameters?: Record<string, unknown>;
}

export interface SeedAttachment {
  id?: string;
  name: string;
  description?: string;
}

export interface SeedAgreements {
  organization?: SeedAgreementsOrganization;
  custom_terms?: SeedCustomTerm[];
  custom_templates?: SeedCustomTemplate[];
  templates?: SeedTemplate[];
  attachments?: SeedAttachment[];
  /** Outcome of docx conversions for this organization; default `ready`. */
  docx_conversion?: 'ready' | 'failed';
  /** Non-test agreements allowed per calendar month (UTC); more are a 403. Default: no limit. */
  monthly_agreement_limit?: number;
}

export const ADDRESS_FIELDS = ['street_address', 'city', 'state', 'zipcode', 'country'] as const;

export function checkAgreementsSeed(value: unknown, at: string, problems: string[]): void {
  if (!isObject(value)) return void problems.push(`${at} must be an object`);
  onlyKeys(value, ['organization', 'custom_terms', 'custom_templates', 'templates', 'attachments', 'docx_conversion', 'monthly_agreement_limit'], at, problems);
  if (value.organization !== undefined) {
    const org = value.organization;
    if (!isObject(org)) problems.push(`${at}.organization must be an object`);
    else {
      onlyKeys(org, ['name', ...ADDRESS_FIELDS], `${at}.organization`, problems);
      if (org.name !== undefined) requireString(org, 'name', `${at}.organization`, problems);
      for (const key of ADDRESS_FIELDS) optionalType(org, key, 'string', `${at}.organization`, problems, true);
    }
  }
  optionalOneOf(value, 'docx_conversion', ['ready', 'failed'], at, problems);
  const limit = value.monthly_agreement_limit;
  if (limit !== undefined && !(typeof limit === 'number' && Number.isInteger(limit) && limit >= 0)) problems.push(`${at}.monthly_agreement_limit must be a whole number of at least 0`);
  optionalList(value, 'custom_terms', at, problems, (t, tat) => {
    onlyKeys(t, ['id', 'name', 'body', 'term_type'], tat, problems);
    requireString(t, 'name', tat, problems);
    optionalType(t, 'id', 'string', tat, problems);
    optionalType(t, 'body', 'string', tat, problems);
    optionalOneOf(t, 'term_type', ['text', 'file'], tat, problems);
  });
  optionalList(value, 'custom_templates', at, problems, (t, tat) => {
    onlyKeys(t, ['id', 'name', 'definition', 'custom_term_name'], tat, problems);
    requireString(t, 'name', tat, problems);
    if (typeof t.definition !== 'string') problems.push(`${tat}.definition must be a string (YAML text)`);
    optionalType(t, 'id', 'string', tat, problems);
    optionalType(t, 'custom_term_name', 'string', tat, problems);
  });
  optionalList(value, 'templates', at, problems, (t, tat) => {
    onlyKeys(t, ['id', 'type', 'name', 'standard_version', 'parameters'], tat, problems);
    requireString(t, 'name', tat, problems);
    optionalOneOf(t, 'type', AGREEMENT_TYPES, tat, problems);
    if (t.type === undefined) problems.push(`${tat}.type is required`);
    optionalType(t, 'id', 'string', tat, problems);
    optionalType(t, 'standard_version', 'string', tat, problems);
    if (t.parameters !== undefined && !isObject(t.parameters)) problems.push(`${tat}.parameters must be an object`);
  });
  optionalList(value, 'attachments', at, problems, (a, aat) => {
    onlyKeys(a, ['id', 'name', 'description'], aat, problems);
    requireString(a, 'name', aat, problems);
    optionalType(a, 'id', 'string', aat, problems);
    optionalType(a, 'description', 'string', aat, problems);
  });
}
