/**
 * Standard template types (seed 002 "Template creation") and the server-side defaults a create
 * fills in for parameters the request omits (seed 002 "default …" notes, top-level parameters).
 */
import { csaSpelling } from './csa-versions.js';

export const AGREEMENT_TYPES = ['NDA', 'CSA', 'DPA', 'PSA', 'Design', 'Software License', 'Pilot', 'Partnership', 'BAA', 'LOI'] as const;
export type AgreementType = (typeof AGREEMENT_TYPES)[number];

export function isAgreementType(value: unknown): value is AgreementType {
  return typeof value === 'string' && (AGREEMENT_TYPES as readonly string[]).includes(value);
}

/** JSON:API `type` of a template: `template_nda`, …, `template_software_license` [public docs]. */
export function templateResourceType(type: AgreementType): string {
  return `template_${type.toLowerCase().replace(/ /g, '_')}`;
}

/** The nested `template_*_attributes` objects each type accepts (seed 002). */
export const NESTED_ATTRIBUTES: Record<AgreementType, readonly string[]> = {
  NDA: [],
  CSA: ['template_csa_order_form_attributes'],
  DPA: [],
  PSA: ['template_psa_statement_of_work_attributes'],
  Design: [],
  'Software License': ['template_software_license_order_form_attributes'],
  Pilot: [],
  Partnership: ['template_partnership_business_terms_attributes'],
  BAA: [],
  LOI: [],
};

/** NOTE(api): only CSA documents a default standard version (the "Versioning" table implies 2.x and 3.x); others stay null. */
export function defaultStandardVersion(type: AgreementType): string | null {
  return type === 'CSA' ? '2.1' : null;
}

const COMMON_DEFAULTS: Record<string, unknown> = {
  negotiations_allowed: true,
  sender_last_to_sign: false,
  include_terms: true,
  include_additional_changes: true,
};

const falses = (...names: string[]): Record<string, boolean> => Object.fromEntries(names.map((n) => [n, false]));

const TYPE_DEFAULTS: Record<AgreementType, Record<string, unknown>> = {
  NDA: {
    term: 1,
    confidentiality_period: 2,
    confidentiality_period_perpetual: false,
    term_period_perpetual: false,
    effective_date_type: 'signature',
    effective_date_of_confidentiality: 'Effective Date',
  },
  // CSA names are the pre-3.0 spelling here; csaSpelling renames them for 3.x templates.
  CSA: {
    effective_date_type: 'signature',
    ...falses(
      'include_covered_claims',
      'include_increased_cap_amount',
      'include_unlimited_claims',
      'include_dpa',
      'include_ai_addendum',
      'include_security_policy',
      'include_acceptable_use_policy',
      'include_additional_warranties',
      'include_insurance_minimums',
      'include_publicity_rights',
      'include_billing_workflow',
    ),
    processor_invoice_delivery: 'automatic',
    processor_subsequent_bill_method: 'automatic',
  },
  DPA: {
    ...falses(
      'include_governing_law',
      'include_governing_country_eu',
      'include_governing_country_uk',
      'include_covered_claim',
      'include_increased_claim_amount',
      'include_liability_cap',
      'include_data_subjects_end_users',
      'include_data_subjects_employees',
      'include_data_subjects_custom',
      ...['name', 'contact_info', 'financial_info', 'employment_info', 'biographic_info', 'transactional_info', 'user_activity_info', 'location', 'custom'].map((s) => `include_personal_data_${s}`),
      'include_special_category_data',
      'include_frequency_of_transfer_custom',
    ),
    include_provider_security_contact_email: true,
    include_frequency_of_transfer_continuous: true,
  },
  PSA: falses(
    'include_covered_claims',
    'include_increased_claims',
    'include_unlimited_claims',
    'include_additional_warranties',
    'include_dpa',
    'include_security_policy',
    'include_provider_insurance_min',
    'include_customer_insurance_min',
    'include_publicity_rights',
    'include_customer_policies',
  ),
  Design: {
    effective_date_type: 'signature',
    term_amount: 6,
    term_unit: 'month(s)',
    include_program_participation_feedback: true,
    include_program_appear_as_customer_private: true,
    include_program_appear_as_customer_public: true,
    ...falses('include_program_case_study', 'include_program_reference', 'include_program_develop_functionality', 'include_fees'),
    include_program_discount: true,
    include_program_discount_amount: 20,
    include_program_discount_unit: '%',
  },
  'Software License': {
    general_cap_amount_type: 'preceding',
    general_cap_preceding_amount: 1,
    ...falses(
      'include_covered_claims',
      'include_increased_claims',
      'include_unlimited_claims',
      'include_additional_warranties',
      'include_dpa',
      'include_ai_addendum',
      'include_billing_workflow',
    ),
    processor_invoice_delivery: 'automatic',
  },
  Pilot: {
    effective_date_type: 'signature',
    fees_type: 'free',
    include_payment_process: false,
    payment_process_invoice_days: 15,
    general_cap_amount: 1000,
    include_dpa: false,
    include_technical_support: false,
  },
  Partnership: {
    effective_date_type: 'signature',
    general_cap_amount_type: 'multiple',
    general_cap_amount_multiple_val: 1,
    ...falses(
      'include_covered_claims',
      'include_increased_claims',
      'include_unlimited_claims',
      'include_additional_warranties',
      'include_dpa',
      'include_brand_guidelines',
    ),
  },
  // Seed 002: BAA parameters are not shown; LOI lists names without defaults.
  BAA: {},
  LOI: {},
};

/**
 * The parameters of a new template: the documented defaults (spelled for the CSA standard version)
 * overlaid with what the request sent. NOTE(api): nested `template_*_attributes` get no defaults.
 */
export function withDefaults(type: AgreementType, standardVersion: string | null, sent: Record<string, unknown>): Record<string, unknown> {
  const defaults: Record<string, unknown> = { ...COMMON_DEFAULTS };
  for (const [key, value] of Object.entries(TYPE_DEFAULTS[type])) {
    defaults[type === 'CSA' ? csaSpelling(key, standardVersion) : key] = value;
  }
  return { ...defaults, ...sent };
}
