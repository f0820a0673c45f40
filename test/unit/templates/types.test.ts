/**
 * Every standard template type through the real loader: a valid fixture passes, and invalid ones
 * fail with the right code at the right place (unknown parameter, wrong type, bad enum value,
 * conditional requirement, nested objects, item arrays, attachment references).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanup, codes, loadTemplate } from './helpers.js';

afterEach(cleanup);

const UUID = '0b0f6a0e-8a4b-4c55-9a52-5b7e4f1c2d3e';

interface Invalid {
  what: string;
  params: string;
  /** `code path` of the one expected diagnostic. */
  expect: string;
  message?: RegExp;
  hint?: RegExp;
}

interface TypeCase {
  type: string;
  valid: string;
  invalid: Invalid[];
}

const CASES: TypeCase[] = [
  {
    type: 'NDA',
    valid: `
term: 2
confidentiality_period: 3
confidentiality_period_perpetual: false
term_period_perpetual: false
purpose: Evaluating a business relationship
effective_date_type: date
effective_date: 2025-03-01
effective_date_of_confidentiality: date of last disclosure
governing_law_region: Delaware
negotiations_allowed: true
default_signer_email: legal@acme.example
sender_last_to_sign: true
additional_changes: None`,
    invalid: [
      { what: 'unknown parameter', params: 'purpos: x', expect: 'unknown-key parameters.purpos', message: /did you mean `purpose`\?/ },
      { what: 'wrong type', params: 'term: two', expect: 'invalid-value parameters.term', message: /must be an integer, not "two"/ },
      { what: 'not an integer', params: 'term: 1.5', expect: 'invalid-value parameters.term', message: /must be an integer/ },
      {
        what: 'bad enum value',
        params: 'effective_date_type: later',
        expect: 'invalid-value parameters.effective_date_type',
        message: /must be one of: signature, date/,
      },
      {
        what: 'conditional requirement',
        params: 'effective_date_type: date',
        expect: 'missing-field parameters',
        message: /missing required field `effective_date`/,
        hint: /Required when effective_date_type is `date`/,
      },
      { what: 'bad date, reported once', params: 'effective_date: tomorrow', expect: 'invalid-value parameters.effective_date', message: /a date \(YYYY-MM-DD\)/ },
      { what: 'bad e-mail', params: 'default_signer_email: legal', expect: 'invalid-value parameters.default_signer_email', message: /e-mail/ },
      { what: 'name is the document name', params: 'name: Other', expect: 'invalid-value parameters.name', hint: /document's own `name:`/ },
    ],
  },
  {
    type: 'CSA',
    valid: `
provider: Acme
customer_description: Customers of Acme
effective_date_type: date
effective_date: 2025-03-01 09:00:00+0100
general_cap_amount_type: preceding
general_cap_preceding_amount: 12
include_increased_cap_amount: true
increased_cap_amount_type: base
increased_cap_amount_qty: 2
include_unlimited_claims_negligence: true
include_dpa: true
include_dpa_type: attachment
include_dpa_attachment_id: { attachment: DPA }
include_ai_addendum: true
include_ai_addendum_attachment_id: ${UUID}
include_security_policy_attachment_id: { attachment: Security }
billing_workflow_type: processor
processor_invoice_delivery: manual
include_insurance_minimums: true
include_insurance_minimums_general_liability_minimum: "1000000.0"
version: 7
template_csa_order_form_attributes:
  cloud_service_description: Hosted widgets
  subscription_period: 1
  subscription_start_date: 2025-04-01
  include_sla: true
  include_sla_type: standard
  include_sla_standard_target_uptime: 99.9
  include_sla_standard_maintenance_window_monday: true
  include_sla_standard_maintenance_window_sunday: false
  include_sla_attachment_id: { attachment: SLA }
  order_date_type: other
  order_date_other: On kickoff
  payment_process_type: custom
  payment_process_type_custom_val: Quarterly in advance
  fees_include_fee_increase_upon_renewal_fee: "5.0"
  framework_terms_type: new
  fees_attributes:
    - { type: "Fees::Flat", fee_type: recurring, processor_product_id: prod_1, description: Platform, cost: 1200 }
  service_credits_attributes:
    - { min: 99, max: 99.9, credit: 5 }
  use_limitations_attributes:
    - { limitation_type: users, amount: 50, unit: seats }`,
    invalid: [
      {
        what: 'unknown parameter',
        params: 'include_dpa_attachement_id: x',
        expect: 'unknown-key parameters.include_dpa_attachement_id',
        message: /did you mean `include_dpa_attachment_id`\?/,
        hint: /keys are allowed here \(docket Template parameters: CSA\)/,
      },
      { what: 'wrong type', params: 'include_dpa: "yes"', expect: 'invalid-value parameters.include_dpa', message: /must be true or false/ },
      {
        what: 'bad enum value',
        params: 'billing_workflow_type: stripe',
        expect: 'invalid-value parameters.billing_workflow_type',
        message: /must be one of: link, processor/,
      },
      { what: 'not a number', params: 'general_cap_amount: lots', expect: 'invalid-value parameters.general_cap_amount', message: /must be a number/ },
      {
        what: 'amount required for type base',
        params: 'general_cap_amount_type: base',
        expect: 'missing-field parameters',
        message: /`general_cap_amount`/,
      },
      {
        what: 'months required for type preceding',
        params: 'general_cap_amount_type: preceding',
        expect: 'missing-field parameters',
        message: /`general_cap_preceding_amount`/,
      },
      { what: 'location for a described DPA', params: 'include_dpa_type: description', expect: 'missing-field parameters', message: /`include_dpa_location`/ },
      { what: 'attachment for an attached DPA', params: 'include_dpa_type: attachment', expect: 'missing-field parameters', message: /`include_dpa_attachment_id`/ },
      {
        what: 'AI addendum needs its attachment',
        params: 'include_ai_addendum: true',
        expect: 'missing-field parameters',
        message: /`include_ai_addendum_attachment_id`/,
      },
      { what: 'bad datetime', params: 'effective_date: next week', expect: 'invalid-value parameters.effective_date', message: /must be a date/ },
      // A value with a time in it is told what a date-time must be, not a date alone.
      { what: 'date-time off the calendar', params: 'effective_date: "2027-04-31T10:00:00Z"', expect: 'invalid-value parameters.effective_date', message: /must be a date and time \(RFC 3339\)/ },
      // Off the clock, or without an offset: what the schema says, as an editor does (probe MG-1).
      { what: 'date-time off the clock', params: 'effective_date: "2027-01-15T25:00:00Z"', expect: 'invalid-value parameters.effective_date', message: /must be a date and time \(RFC 3339\)/ },
      { what: 'date-time without an offset', params: 'effective_date: "2027-01-15 10:00:00"', expect: 'invalid-value parameters.effective_date', message: /must be a date and time \(RFC 3339\)/ },
      { what: 'date off the calendar', params: 'effective_date: "2027-02-29"', expect: 'invalid-value parameters.effective_date', message: /must be a date \(YYYY-MM-DD\)/ },
      {
        what: 'attachment reference on a text parameter',
        params: 'provider: { attachment: DPA }',
        expect: 'invalid-value parameters.provider',
        message: /must be a string, not a mapping/,
      },
      {
        what: 'attachment reference with another key',
        params: 'include_dpa_attachment_id: { attachment: DPA, version: 2 }',
        expect: 'unknown-key parameters.include_dpa_attachment_id.version',
      },
      { what: 'attachment id that is no uuid', params: 'include_dpa_attachment_id: dpa.pdf', expect: 'invalid-value parameters.include_dpa_attachment_id', message: /UUID/ },
      {
        what: 'order form without its required description',
        params: 'template_csa_order_form_attributes: { subscription_period: 1 }',
        expect: 'missing-field parameters.template_csa_order_form_attributes',
        message: /`cloud_service_description`/,
        hint: /Description of the cloud service/,
      },
      {
        what: 'order form: custom payment needs its text',
        params: 'template_csa_order_form_attributes: { cloud_service_description: W, payment_process_type: custom }',
        expect: 'missing-field parameters.template_csa_order_form_attributes',
        message: /`payment_process_type_custom_val`/,
      },
      {
        what: 'order form: other order date needs its text',
        params: 'template_csa_order_form_attributes: { cloud_service_description: W, order_date_type: other }',
        expect: 'missing-field parameters.template_csa_order_form_attributes',
        message: /`order_date_other`/,
      },
      {
        what: 'order form: unknown key',
        params: 'template_csa_order_form_attributes: { cloud_service_description: W, max_user: 5 }',
        expect: 'unknown-key parameters.template_csa_order_form_attributes.max_user',
        message: /did you mean `max_users`\?/,
      },
      {
        what: 'fee item cost not a number',
        params: 'template_csa_order_form_attributes: { cloud_service_description: W, fees_attributes: [{ cost: lots }] }',
        expect: 'invalid-value parameters.template_csa_order_form_attributes.fees_attributes[0].cost',
        message: /must be a number/,
      },
      {
        what: 'fee item unknown field',
        params: 'template_csa_order_form_attributes: { cloud_service_description: W, fees_attributes: [{ costs: 1 }] }',
        expect: 'unknown-key parameters.template_csa_order_form_attributes.fees_attributes[0].costs',
        message: /did you mean `cost`\?/,
      },
      {
        what: 'service credits are a list',
        params: 'template_csa_order_form_attributes: { cloud_service_description: W, service_credits_attributes: { min: 1 } }',
        expect: 'invalid-value parameters.template_csa_order_form_attributes.service_credits_attributes',
        message: /must be a list/,
      },
      {
        what: 'use limitation amount',
        params: 'template_csa_order_form_attributes: { cloud_service_description: W, use_limitations_attributes: [{ amount: many }] }',
        expect: 'invalid-value parameters.template_csa_order_form_attributes.use_limitations_attributes[0].amount',
      },
      {
        what: 'attachment_ids is the document\'s attachments',
        params: `attachment_ids: [${UUID}]`,
        expect: 'invalid-value parameters.attachment_ids',
        hint: /`attachments:`/,
      },
    ],
  },
  {
    type: 'DPA',
    valid: `
provider: Acme
customer_description: Customer
approved_subprocessor_type: notice
security_policy_available_at: https://acme.example/security
include_provider_security_contact_email: false
include_data_subjects_employees: true
include_personal_data_contact_info: true
include_personal_data_custom: true
include_personal_data_custom_val: Device ids
include_frequency_of_transfer_continuous: true
include_security_measures_data_at_rest: true
include_security_measures_data_at_rest_val: AES-256
include_security_measures_security_policy: true
include_processing_purpose_holding: true
include_provider_security_contact_address_city: Berlin
data_exporter_address_city: Berlin
data_importer_contact_details: dpo@acme.example
underlying_agreement_id: 42
include_security_policy: [anything, goes]
subprocessors_attributes:
  - { name: AWS, country: US, processing_task: Hosting }`,
    invalid: [
      {
        what: 'unknown parameter',
        params: 'approved_subprocesor_type: list',
        expect: 'unknown-key parameters.approved_subprocesor_type',
        message: /did you mean `approved_subprocessor_type`\?/,
      },
      { what: 'wrong type', params: 'include_governing_law: 1', expect: 'invalid-value parameters.include_governing_law', message: /true or false/ },
      {
        what: 'bad enum value',
        params: 'approved_subprocessor_type: whenever',
        expect: 'invalid-value parameters.approved_subprocessor_type',
        message: /must be one of: list, notice/,
      },
      {
        what: 'subprocessor item type',
        params: 'subprocessors_attributes: [{ name: AWS, country: [US] }]',
        expect: 'invalid-value parameters.subprocessors_attributes[0].country',
        message: /must be a string/,
      },
      {
        what: 'subprocessor item unknown field',
        params: 'subprocessors_attributes: [{ name: AWS, processing: Hosting }]',
        expect: 'unknown-key parameters.subprocessors_attributes[0].processing',
        message: /did you mean `processing_task`\?/,
      },
    ],
  },
  {
    type: 'PSA',
    valid: `
effective_date_type: signature
general_cap_amount_type: unlimited
include_increased_claims: true
include_increased_claims_negligence: true
include_unlimited_claims: true
include_provider_insurance_min: true
include_provider_insurance_min_general_liability_minimum: 1000000
include_customer_insurance_min_include_add_provider_cyber_liability: true
include_customer_policies: true
include_customer_policies_attachment_id: { attachment: Policies }
include_security_policy_type: description
template_psa_statement_of_work_attributes:
  services_description: Implementation
  sow_date_type: date
  sow_date: 2025-01-15
  sow_term_type: at_will
  include_fees_travel: true
  include_fees_travel_type: attachment
  include_fees_travel_attachment_id: { attachment: Travel }
  payment_period_other: On completion
  fees_attributes:
    - { type: "Fees::Cost", fee_type: hourly, description: Consulting, quantity: 10, cost: "150.00" }`,
    invalid: [
      {
        what: 'unknown nested parameter',
        params: 'template_psa_statement_of_work_attributes: { services_description: X, sow_trem_type: at_will }',
        expect: 'unknown-key parameters.template_psa_statement_of_work_attributes.sow_trem_type',
        message: /did you mean `sow_term_type`\?/,
      },
      {
        what: 'statement of work without its required description',
        params: 'template_psa_statement_of_work_attributes: { sow_term_type: at_will }',
        expect: 'missing-field parameters.template_psa_statement_of_work_attributes',
        message: /`services_description`/,
      },
      {
        what: 'bad enum value',
        params: 'template_psa_statement_of_work_attributes: { services_description: X, sow_term_type: forever }',
        expect: 'invalid-value parameters.template_psa_statement_of_work_attributes.sow_term_type',
        message: /date, duration, at_will/,
      },
      { what: 'conditional requirement', params: 'effective_date_type: date', expect: 'missing-field parameters', message: /`effective_date`/ },
      { what: 'wrong type', params: 'include_dpa: [true]', expect: 'invalid-value parameters.include_dpa', message: /true or false, not a list/ },
      {
        what: 'fee item quantity',
        params: 'template_psa_statement_of_work_attributes: { services_description: X, fees_attributes: [{ quantity: many }] }',
        expect: 'invalid-value parameters.template_psa_statement_of_work_attributes.fees_attributes[0].quantity',
        message: /must be a number/,
      },
      {
        what: 'CSA-only parameter',
        params: 'include_insurance_minimums: true',
        expect: 'unknown-key parameters.include_insurance_minimums',
      },
    ],
  },
  {
    type: 'Design',
    valid: `
product_description: Widgets
effective_date_type: date
effective_date: 2025-02-01
term_amount: 3
term_unit: month(s)
include_program_discount: true
include_program_discount_amount: 15.5
include_program_discount_unit: "%"
include_fees: true
include_fees_amount: "99.90"
include_fees_description: Monthly
include_fees_pay_by_amount: { any: thing }`,
    invalid: [
      { what: 'unknown parameter', params: 'term_ammount: 3', expect: 'unknown-key parameters.term_ammount', message: /did you mean `term_amount`\?/ },
      { what: 'wrong type', params: 'term_amount: six', expect: 'invalid-value parameters.term_amount', message: /integer/ },
      { what: 'bad enum value', params: 'effective_date_type: signatur', expect: 'invalid-value parameters.effective_date_type', message: /did you mean `signature`\?/ },
      { what: 'conditional requirement', params: 'effective_date_type: date', expect: 'missing-field parameters', message: /`effective_date`/ },
    ],
  },
  {
    type: 'Software License',
    valid: `
effective_date_type: signature
general_cap_amount_type: preceding
general_cap_preceding_amount: 1
include_ai_addendum: true
include_ai_addendum_attachment_id: { attachment: AI Addendum }
include_dpa_type: attachment
include_dpa_attachment_id: ${UUID}
include_unlimited_claims_license_or_restrictions: true
include_covered_claims_provider_claims: Provider IP
processor_subsequent_bill_method: whatever
template_software_license_order_form_attributes:
  software_description: On-prem widgets
  order_date_type: date
  order_date_date: 2025-05-01
  warranty_period_type: duration
  warranty_period_description_amount: 90
  payment_process_type: custom
  payment_process_type_custom_val: Net 45
  permitted_uses_include_custom: true
  fees_attributes:
    - { type: "Fees::Flat", description: License, cost: 5000 }`,
    invalid: [
      {
        what: 'AI addendum needs its attachment',
        params: 'include_ai_addendum: true',
        expect: 'missing-field parameters',
        message: /`include_ai_addendum_attachment_id`/,
      },
      {
        what: 'bad enum value',
        params: 'template_software_license_order_form_attributes: { software_description: S, warranty_period_type: forever }',
        expect: 'invalid-value parameters.template_software_license_order_form_attributes.warranty_period_type',
        message: /none, duration, description/,
      },
      {
        what: 'order form without its required description',
        params: 'template_software_license_order_form_attributes: { order_date_type: date }',
        expect: 'missing-field parameters.template_software_license_order_form_attributes',
        message: /`software_description`/,
      },
      {
        what: 'order form: custom payment needs its text',
        params: 'template_software_license_order_form_attributes: { software_description: S, payment_process_type: custom }',
        expect: 'missing-field parameters.template_software_license_order_form_attributes',
        message: /`payment_process_type_custom_val`/,
      },
      {
        what: 'wrong type',
        params: 'template_software_license_order_form_attributes: { software_description: S, order_date_date: soon }',
        expect: 'invalid-value parameters.template_software_license_order_form_attributes.order_date_date',
        message: /a date/,
      },
      { what: 'unknown parameter', params: 'include_dpa_locaton: x', expect: 'unknown-key parameters.include_dpa_locaton' },
    ],
  },
  {
    type: 'Pilot',
    valid: `
product_description: Widgets
pilot_period_description: Three months
effective_date_type: signature
fees_type: paid
include_payment_process: true
payment_process_type: invoice
payment_process_invoice_days: 30
general_cap_amount: 5000
include_dpa: true
include_dpa_type: attachment
include_dpa_attachment_id: { attachment: DPA }
payment_process_invoice_from: signature
negotiations_allowed: false`,
    invalid: [
      { what: 'bad enum value', params: 'fees_type: premium', expect: 'invalid-value parameters.fees_type', message: /must be one of: free, paid/ },
      {
        what: 'value of another type\'s enum',
        params: 'payment_process_type: custom',
        expect: 'invalid-value parameters.payment_process_type',
        message: /must be one of: invoice, automatic/,
      },
      { what: 'conditional requirement', params: 'effective_date_type: date', expect: 'missing-field parameters', message: /`effective_date`/ },
      { what: 'wrong type', params: 'payment_process_invoice_days: 15 days', expect: 'invalid-value parameters.payment_process_invoice_days' },
      {
        what: 'unknown parameter',
        params: 'technical_suport_description: x',
        expect: 'unknown-key parameters.technical_suport_description',
        message: /did you mean `technical_support_description`\?/,
      },
    ],
  },
  {
    type: 'Partnership',
    valid: `
effective_date_type: signature
general_cap_amount_type: either
general_cap_amount_multiple_val: 2
general_cap_amount_currency_val: 10000
include_brand_guidelines: true
include_dpa_type: description
template_partnership_business_terms_attributes:
  territory_type: custom
  territory_type_val: EMEA
  end_date_type: duration
  end_date_after_effective_date_amount: 2
  end_date_after_effective_date_unit: year(s)
  include_obligations_company_referral: true
  include_obligations_company_referral_include_pay_sch_amount: 10
  include_obligations_company_referral_include_pay_sch_custom: per lead
  include_obligations_company_promotion_include_activities_val: Webinars
  include_obligations_partner_brand: true
  include_obligations_partner_referral: true`,
    invalid: [
      {
        what: 'conditional requirement in business terms',
        params: 'template_partnership_business_terms_attributes: { end_date_type: duration }',
        expect: 'missing-field parameters.template_partnership_business_terms_attributes',
        message: /`end_date_after_effective_date_amount`/,
      },
      {
        what: 'bad enum value',
        params: 'template_partnership_business_terms_attributes: { territory_type: galaxy }',
        expect: 'invalid-value parameters.template_partnership_business_terms_attributes.territory_type',
        message: /worldwide, custom/,
      },
      {
        what: 'unknown parameter',
        params: 'template_partnership_business_terms_attributes: { include_obligations_company_brnd: true }',
        expect: 'unknown-key parameters.template_partnership_business_terms_attributes.include_obligations_company_brnd',
        message: /did you mean `include_obligations_company_brand`\?/,
      },
      {
        what: 'wrong type',
        params: 'template_partnership_business_terms_attributes: []',
        expect: 'invalid-value parameters.template_partnership_business_terms_attributes',
        message: /must be a mapping, not a list/,
      },
      { what: 'conditional requirement', params: 'effective_date_type: date', expect: 'missing-field parameters', message: /`effective_date`/ },
      { what: 'bad cap type', params: 'general_cap_amount_type: preceding', expect: 'invalid-value parameters.general_cap_amount_type', message: /multiple, currency, either/ },
    ],
  },
  {
    type: 'BAA',
    valid: `
governing_law_country: United States of America
governing_law_region: New York
chosen_courts_region: New York
negotiations_allowed: false
sender_role: Covered Entity
recipient_role: Business Associate
include_terms: true
include_additional_changes: false`,
    invalid: [
      {
        what: 'unknown parameter',
        params: 'governing_law_regin: NY',
        expect: 'unknown-key parameters.governing_law_regin',
        message: /did you mean `governing_law_region`\?/,
        // Not `name` nor `attachment_ids`: known to the schema only to be refused.
        hint: /^allowed keys here: governing_law_region, (?![^]*\b(name|attachment_ids)\b)/,
      },
      { what: 'a parameter of another type', params: 'term: 2', expect: 'unknown-key parameters.term' },
      { what: 'wrong type', params: 'negotiations_allowed: sometimes', expect: 'invalid-value parameters.negotiations_allowed', message: /true or false/ },
    ],
  },
  {
    type: 'LOI',
    valid: `
product_name: Widgets
include_functionality: true
include_functionality_val: Reporting
include_fees_amount: 100
include_fees_amount_duration: month
include_launch_date_date: 2025-06-01
confidentiality_type: nda
confidentiality_nda_attachment_id: { attachment: NDA }
confidentiality_custom: [any, list]`,
    invalid: [
      { what: 'unknown parameter', params: 'product_nme: W', expect: 'unknown-key parameters.product_nme', message: /did you mean `product_name`\?/ },
      {
        what: 'attachment reference on a field that is no attachment id',
        params: 'product_name: { attachment: NDA }',
        expect: 'invalid-value parameters.product_name',
        hint: /only \*_attachment_id parameters take/,
      },
      {
        what: 'attachment id of the wrong type',
        params: 'confidentiality_nda_attachment_id: 12',
        expect: 'invalid-value parameters.confidentiality_nda_attachment_id',
        message: /UUID .* or a mapping/,
      },
    ],
  },
];

describe.each(CASES)('Template type $type', ({ type, valid, invalid }) => {
  it('accepts a valid fixture', async () => {
    const { diagnostics, documents } = await loadTemplate(type, valid);
    expect(diagnostics).toEqual([]);
    expect(documents).toHaveLength(1);
  });

  it.each(invalid)('rejects: $what', async ({ params, expect: expected, message, hint }) => {
    const { diagnostics } = await loadTemplate(type, params);
    expect(codes(diagnostics)).toEqual([expected]);
    const d = diagnostics[0]!;
    expect(d.file).toBe('templates/t.yaml');
    if (message) expect(d.message).toMatch(message);
    if (hint) expect(d.hint).toMatch(hint);
  });

  it('rejects attachment_ids in parameters, pointing to attachments:', async () => {
    const { diagnostics } = await loadTemplate(type, `attachment_ids: [${UUID}]`);
    expect(codes(diagnostics)).toEqual(['invalid-value parameters.attachment_ids']);
    expect(diagnostics[0]!.hint).toMatch(/`attachments:`/);
  });

  it('takes no more parameters than the common ones plus its own', async () => {
    const { diagnostics } = await loadTemplate(type, 'no_such_parameter_anywhere: 1');
    expect(codes(diagnostics)).toEqual(['unknown-key parameters.no_such_parameter_anywhere']);
  });
});

describe('every type', () => {
  it('checks the common parameters', async () => {
    for (const { type } of CASES) {
      const { diagnostics } = await loadTemplate(type, 'sender_last_to_sign: maybe');
      expect(codes(diagnostics), type).toEqual(['invalid-value parameters.sender_last_to_sign']);
    }
  });
});
