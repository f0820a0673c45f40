#!/usr/bin/env node
/**
 * Generates the schemas that must not drift from their sources:
 * - schemas/template.schema.json (the Template kind) and schemas/templates/<type>.schema.json (the
 *   parameters of each standard template type) from the compact tables below, which transcribe
 *   seed 002 ("Template Parameters and Agreement Term Field Reference") row by row, so that the ten
 *   files stay consistent: every parameter exactly once per type, the same JSON shape for the same
 *   seed type, the same wording for the same rule;
 * - the parts of schemas/plan.schema.json (the `kind` enum) and schemas/docket.schema.json (the
 *   `prune:` keys) that come from the registry of kinds (src/kinds/index.ts).
 *
 *   npm run gen:schemas                          build, then write the files
 *   node scripts/gen-schemas.mjs --check         exit 1 when a file differs from what it would write
 *
 * The registry is read from dist/ (the build); tests call generateSchemas() with the source registry.
 *
 * Conventions of the tables:
 *   row(names, type, note, extra)  `names` may list several parameters separated by commas, as the
 *     seed does; `type` is one of the seed's types (string, integer, number, boolean, date,
 *     datetime, uuid) or an object/array built with nested()/items(); `note` is the seed's Notes
 *     column; `extra` holds `enum`, `default` and `cond` (a conditional requirement, see when()).
 *   further(list, note)  the seed's "Further … field names (types not shown)": accepted with any
 *     value, except that a `*_attachment_id` name takes an attachment id like the typed ones.
 * A name already declared by a typed row is not repeated by a further list (the typed row wins).
 */
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// Editors (yaml-language-server) do not check `format: uuid`; the same rule as a pattern they do.
const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
// Names carry their length limit for editors; docket says it itself (see NAME_LENGTH_MARK).
const { EMAIL_MESSAGE, EMAIL_PATTERN, FORMER_NAME_MESSAGE, FORMER_NAME_PATTERN, VARIABLE_VALUE_PATTERN, NAME_LENGTH_MARK, NAME_LENGTH_MESSAGE, NAME_LENGTH_PATTERN, ONE_LINE_MESSAGE, ONE_LINE_PATTERN } = await import(pathToFileURL(path.join(ROOT, 'dist', 'config', 'schema-names.js')).href);
// How a variable's name is spelled, as docket reads placeholders (src/config/interpolate.ts).
const { VARIABLE_NAME } = await import(pathToFileURL(path.join(ROOT, 'dist', 'config', 'interpolate.js')).href);
const OUT = path.join(ROOT, 'schemas', 'templates');

// ---------------------------------------------------------------------------------------------
// Building blocks

/** A decimal written as text, which is how the service returns decimal columns ("1.0"). */
const DECIMAL = '^-?(\\d+(\\.\\d*)?|\\.\\d+)$';
// A calendar date: months of 30 and 31 days, February 29 in leap years only (as docket's date format
// checks it; an editor's own date format let 2027-02-30 pass).
const CALENDAR_DATE =
  '(?:\\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\\d|30)|02-(?:0[1-9]|1\\d|2[0-8]))|(?:\\d{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)';
const DATE = `^${CALENDAR_DATE}$`;
const DATE_MESSAGE = 'A date on the calendar, YYYY-MM-DD (February 29 only in a leap year).';
/**
 * An RFC 3339 date-time whose date is on the calendar, `T` or a space between date and time, as
 * docket takes it. A pattern, not `format: date-time`: yaml-language-server's format wants the `T`
 * and flagged what docket accepts (probe MG-1). Offsets as ajv's format took them (`+01`, `+0100`,
 * `+01:00`); a leap second (`:60`) at any time, which no pattern ties to 23:59 UTC (second read
 * SR76-5). src/config/schema.ts says it in words.
 */
const DATE_TIME = `^${CALENDAR_DATE}[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3])(?::?[0-5]\\d)?)$`;
/** A whole number written as text; a leading zero marks text, not a number. */
const INTEGER = '^-?(0|[1-9]\\d*)$';

function row(names, type, note = '', extra = {}) {
  return { names: split(names), type, note, ...extra };
}

function split(names) {
  return names.split(',').map((n) => n.trim()).filter(Boolean);
}

/** `prefix_{a, b}` → `prefix_a`, `prefix_b`. */
function group(prefix, suffixes) {
  return split(suffixes).map((s) => `${prefix}${s}`);
}

function further(names, note) {
  return { further: [...new Set(names.flat())], note };
}

/** A nested `*_attributes` object. */
function nested(title, rows, required = []) {
  return { kind: 'object', title, rows, required };
}

/** An array of items with the given fields. */
function items(title, fields) {
  return { kind: 'array', title, fields };
}

/** Conditional requirement: `then` is required when `field` equals `value`. */
function when(field, value, then) {
  return { field, value, then };
}

// ---------------------------------------------------------------------------------------------
// Seed 002, "Common parameters (all types)"

const COMMON = [
  { names: ['name'], forbidden: 'Not a parameter in docket: the template\'s display name is the document\'s own `name:`, which docket sends as `name`.' },
  row('governing_law_region', 'string', 'Governing law: state or region.'),
  row('governing_law_country', 'string', 'Governing law: country.'),
  row('chosen_courts_region', 'string', 'Chosen courts: state or region.'),
  row('chosen_courts_country', 'string', 'Chosen courts: country.'),
  row('district_or_county', 'string', 'District or county of the chosen courts.'),
  row('negotiations_allowed', 'boolean', 'The recipient may propose changes.', { default: true }),
  row('default_signer_email', 'string', 'Pre-filled sender signer: the e-mail of a user of the organization.', { format: 'email' }),
  row('sender_role', 'string', 'Label of the sending party.'),
  row('recipient_role', 'string', 'Label of the receiving party.'),
  row('sender_last_to_sign', 'boolean', 'The sender\'s signer signs after the recipient.', { default: false }),
  row('include_terms', 'boolean', 'Include the standard terms.', { default: true }),
  row('include_additional_changes', 'boolean', 'Allow additional changes.', { default: true }),
  row('additional_changes', 'string', 'Text of the additional changes.'),
  // Seed 002 "Template creation": `attachment_ids` is an array of attachment uuids, on every type.
  {
    names: ['attachment_ids'],
    forbidden: 'Not a parameter in docket: list Attachment names under the document\'s `attachments:` key; docket resolves them and sends them as `attachment_ids`.',
  },
];

const EFFECTIVE_DATE_TYPE = { enum: ['signature', 'date'] };
const CAP_TYPES = ['preceding', 'base', 'unlimited'];
const DESC_OR_ATTACHMENT = ['description', 'attachment'];

/** The `effective_date_type` / `effective_date` pair most types share. */
function effectiveDate(dateType, withDefault = true) {
  return [
    row('effective_date_type', 'string', withDefault ? '`signature` (default) or `date`.' : '`signature` or `date`.', {
      ...EFFECTIVE_DATE_TYPE,
      ...(withDefault ? { default: 'signature' } : {}),
      cond: when('effective_date_type', 'date', 'effective_date'),
    }),
    row('effective_date', dateType, 'Required when effective_date_type is `date`.'),
  ];
}

// ---------------------------------------------------------------------------------------------
// Fee and other item arrays (seed 001 "Fee items", seed 002 tables)
// NOTE(api): the item fields' types are not shown; text fields are strings, amounts numbers (or
// decimal strings, as the service writes decimals). Allowed values of `type`/`fee_type`: not shown.

const ORDER_FORM_FEE = items('Order form fee item', [
  row('type', 'string', 'Fee class discriminator.'),
  row('fee_type', 'string', 'Fee type.'),
  row('processor_product_id', 'string', 'Product id at the payment processor.'),
  row('description', 'string', 'What the fee is for.'),
  row('cost', 'number', 'Amount.'),
]);

const SOW_FEE = items('Statement of work fee item', [
  row('type', 'string', 'Fee class discriminator.'),
  row('fee_type', 'string', 'Fee type.'),
  row('description', 'string', 'What the fee is for.'),
  row('quantity', 'number', 'Quantity.'),
  row('cost', 'number', 'Amount per unit.'),
]);

const SERVICE_CREDIT = items('Service credit', [
  row('min', 'number', 'Lower bound of the range.'),
  row('max', 'number', 'Upper bound of the range.'),
  row('credit', 'number', 'Credit for the range.'),
]);

const USE_LIMITATION = items('Use limitation', [
  row('limitation_type', 'string', 'What is limited.'),
  row('amount', 'number', 'Limit.'),
  row('unit', 'string', 'Unit of the limit.'),
]);

const SUBPROCESSOR = items('Subprocessor', [
  row('name', 'string', 'Name of the subprocessor.'),
  row('country', 'string', 'Country where it processes data.'),
  row('processing_task', 'string', 'What it does with the data.'),
]);

// ---------------------------------------------------------------------------------------------
// "Further PSA and CSA field names" (shared by PSA, CSA and, in part, Software License)

const CLAIM_SUFFIXES =
  'indemnification_obligation, breach_of_privsec, breach_of_confidentiality, breach_of_privsec_negligence, breach_of_confidentiality_negligence, negligence, include_other, other';
const COVERED_CLAIMS_GROUP = group('include_covered_claims_', 'include_provider_claims, provider_claims, include_customer_claims, customer_claims');
const INCREASED_CLAIMS_GROUP = group('include_increased_claims_', CLAIM_SUFFIXES);
const UNLIMITED_CLAIMS_GROUP = group('include_unlimited_claims_', CLAIM_SUFFIXES);

const INSURANCE_PARTS =
  'include_general_liability, general_liability_minimum, general_liability_aggregate, include_workers_comp, include_employer_liability, employer_liability_minimum, employer_liability_aggregate, include_cyber_liability, cyber_liability_minimum, cyber_liability_aggregate, include_auto_liability, auto_liability_minimum, auto_liability_aggregate';
/** `include_add_customer` "with `_com_gen_liability`, `_errors_omissions`, `_cyber_liability`": the flag and its three parts. */
function addParty(flag) {
  return [flag, ...group(flag, '_com_gen_liability, _errors_omissions, _cyber_liability')];
}
const PSA_INSURANCE = [
  ...group('include_provider_insurance_min_', INSURANCE_PARTS),
  ...addParty('include_provider_insurance_min_include_add_customer'),
  ...group('include_customer_insurance_min_', INSURANCE_PARTS),
  ...addParty('include_customer_insurance_min_include_add_provider'),
];
// Seed: "(general_liability, workers_compensation, employer_liability, cyber_liability
// minimum/aggregate, add_customer parts, additional_information, additional_information_text)",
// expanded like the PSA insurance group (an include_ flag, minimum and aggregate per coverage).
const CSA_INSURANCE = [
  ...group(
    'include_insurance_minimums_',
    'include_general_liability, general_liability_minimum, general_liability_aggregate, include_workers_compensation, include_employer_liability, employer_liability_minimum, employer_liability_aggregate, include_cyber_liability, cyber_liability_minimum, cyber_liability_aggregate',
  ),
  ...addParty('include_insurance_minimums_include_add_customer'),
  ...group('include_insurance_minimums_', 'additional_information, additional_information_text'),
];

const PSA_CSA_FURTHER = [
  'provider',
  'customer_description',
  'effective_date_marketplace',
  COVERED_CLAIMS_GROUP,
  'general_cap_period_currency',
  'general_cap_period_qty',
  INCREASED_CLAIMS_GROUP,
  UNLIMITED_CLAIMS_GROUP,
  group('increased_cap_amount_', 'type, qty, currency, period_qty, period_currency'),
  group('include_additional_warranties_', 'include_by_provider, by_provider, include_by_customer, by_customer'),
  group('include_customer_policies_', 'type, location, attachment_id'),
  group(
    'include_security_policy_',
    'type, location, attachment_id, include_annual_maintenance, include_reasonable_efforts, include_location, iso27001, soc2, soc2_type1, soc2_type2, hipaa, hitrust, penetration_testing, pci1, pci2, fedramp_auth, include_other, include_other_val, other',
  ),
  group('include_acceptable_use_policy_', 'type, location, attachment_id'),
  'include_publicity_rights_type',
  'version',
];

/** Seed 001 "Versioning": CSA attributes renamed in standard_version 3.x (pre-3.0 name → 3.x name). */
const CSA_RENAMES = [
  ['include_increased_cap_amount', 'include_supercap'],
  ['increased_cap_amount_type', 'supercap_type'],
  ['increased_cap_amount_qty', 'supercap_qty'],
  ['increased_cap_amount_currency', 'supercap_currency'],
  ['increased_cap_amount_period_qty', 'supercap_period_qty'],
  ['increased_cap_amount_period_currency', 'supercap_period_currency'],
  ['include_unlimited_claims', 'include_uncapped_claims'],
  ['include_unlimited_claims_indemnification_obligation', 'include_uncapped_claims_indemnification_obligation'],
  ['include_unlimited_claims_breach_of_confidentiality', 'include_uncapped_claims_breach_of_confidentiality'],
  ['include_unlimited_claims_breach_of_privsec', 'include_uncapped_claims_breach_of_privsec'],
  ['include_unlimited_claims_breach_of_privsec_negligence', 'include_uncapped_claims_breach_of_privsec_negligence'],
  ['include_unlimited_claims_breach_of_confidentiality_negligence', 'include_uncapped_claims_breach_of_confidentiality_negligence'],
  ['include_unlimited_claims_include_other', 'include_uncapped_claims_include_other'],
  ['include_unlimited_claims_other', 'include_uncapped_claims_other'],
];

// ---------------------------------------------------------------------------------------------
// The types

const NDA = [
  row('term', 'integer', 'Term in years. Required by the service; default 1.', { default: 1 }),
  row('confidentiality_period', 'integer', 'Confidentiality period in years. Required by the service; default 2.', { default: 2 }),
  row('confidentiality_period_perpetual', 'boolean', 'Confidentiality never ends.', { default: false }),
  row('term_period_perpetual', 'boolean', 'The term never ends.', { default: false }),
  row('purpose', 'string', 'Purpose of the disclosures. Required by the service.'),
  ...effectiveDate('date'),
  row('effective_date_of_confidentiality', 'string', '`Effective Date` (default) or `date of last disclosure`.', {
    enum: ['Effective Date', 'date of last disclosure'],
    default: 'Effective Date',
  }),
];

const CSA_ORDER_FORM = nested(
  'CSA order form',
  [
    row('cloud_service_description', 'string', 'Description of the cloud service. Required.'),
    row('subscription_period', 'integer', 'Length of the subscription.', { default: 1 }),
    row('subscription_period_unit', 'string', 'Unit of the subscription period.', { default: 'year(s)' }),
    row('subscription_start_date_type', 'string', '`signature` or `date`.', { enum: ['signature', 'date'] }),
    row('subscription_start_date', 'datetime', 'Start of the subscription.'),
    row('include_subscription_start_date', 'boolean', '', { default: false }),
    row('include_subscription_start_date_date', 'date', ''),
    row('subscription_auto_renew', 'string', 'Renewal.', { default: 'days' }),
    row('subscription_renewal_notice_days', 'integer', 'Days of notice to stop a renewal.', { default: 30 }),
    row('order_date_type', 'string', '`signature`, `date` or `other`.', {
      enum: ['signature', 'date', 'other'],
      cond: when('order_date_type', 'other', 'order_date_other'),
    }),
    row('order_date_date', 'datetime', 'Order date.'),
    row('order_date_other', 'string', 'Required when order_date_type is `other`.'),
    row('affiliates_as_users', 'boolean', 'Affiliates may be users.', { default: false }),
    row('include_use_limitations', 'boolean', '', { default: false }),
    row('include_use_limitations_val', 'string', ''),
    row('include_max_users', 'boolean', '', { default: false }),
    row('max_users', 'integer', 'Maximum number of users.', { default: 10 }),
    row('include_consumption', 'boolean', '', { default: false }),
    row('max_consumption', 'integer', ''),
    row('consumption_units', 'string', ''),
    row('include_additional_parameters_or_limitations', 'boolean', '', { default: false }),
    row('additional_parameters_or_limitations', 'string', ''),
    row('include_fees', 'boolean', '', { default: false }),
    row('include_fees_table', 'boolean', '', { default: false }),
    row('include_fees_table_period', 'string', ''),
    row('include_fees_other', 'boolean', '', { default: false }),
    row('include_fees_other_val', 'string', ''),
    row('include_fees_include_attachment', 'boolean', '', { default: false }),
    row('include_fees_attachment_id', 'uuid', 'Attachment with the fees.'),
    row('fees_currency', 'string', 'Currency of the fees.', { default: 'USD' }),
    row('fees_inclusive_of_taxes', 'boolean', '', { default: false }),
    row('fees_include_fee_increase_upon_renewal', 'boolean', '', { default: false }),
    row('fees_include_fee_increase_upon_renewal_fee', 'number', 'Increase upon renewal.', { default: 5.0 }),
    row('fees_include_fee_increase_upon_renewal_type', 'string', '`percentage` or `fixed`.', { enum: ['percentage', 'fixed'] }),
    row('fee_amount', 'number', ''),
    row('fee_period', 'string', 'E.g. month, year.'),
    row('fee_custom_unit', 'string', ''),
    row('include_free_trial', 'boolean', '', { default: false }),
    row('free_trial_days', 'integer', ''),
    row('payment_period', 'integer', 'Days.', { default: 30 }),
    row('payment_period_unit', 'string', ''),
    row('payment_period_timeframe', 'string', 'When the payment clock starts.'),
    row('payment_process_type', 'string', '`invoice`, `automatic` or `custom`.', {
      enum: ['invoice', 'automatic', 'custom'],
      cond: when('payment_process_type', 'custom', 'payment_process_type_custom_val'),
    }),
    row('payment_process_automatic_frequency', 'string', ''),
    row('payment_process_type_invoice_amount', 'integer', 'Invoice due days.'),
    row('payment_process_type_invoice_type', 'string', ''),
    row('payment_process_type_invoice_duration', 'string', ''),
    row('payment_process_type_invoice_duration_start', 'string', ''),
    row('payment_process_type_custom_val', 'string', 'Required when payment_process_type is `custom`.'),
    row('invoice_period', 'string', ''),
    row('include_sla', 'boolean', '', { default: false }),
    row('include_sla_type', 'string', '`description` (default), `standard` or `attachment`.', {
      enum: ['description', 'standard', 'attachment'],
      default: 'description',
    }),
    row('include_sla_description', 'string', ''),
    row('include_sla_attachment_id', 'uuid', ''),
    row('include_sla_include_target_uptime', 'boolean', '', { default: false }),
    row('include_sla_standard_target_uptime', 'number', 'Percentage.'),
    row('include_sla_include_response_time', 'boolean', '', { default: false }),
    row('include_sla_include_response_time_amount', 'integer', ''),
    row('include_sla_include_response_time_duration', 'string', 'Unit.'),
    row('include_sla_include_response_time_credit', 'number', 'Service credit percentage.'),
    row('include_sla_include_response_time_support_channel', 'string', ''),
    row('include_sla_maintenance_window', 'boolean', ''),
    row('include_sla_maintenance_window_type', 'string', '`standard` (default) or `custom`.', { enum: ['standard', 'custom'], default: 'standard' }),
    row('include_sla_standard_maintenance_window_start_time, include_sla_standard_maintenance_window_end_time', 'string', ''),
    row(
      group('include_sla_standard_maintenance_window_', 'monday, tuesday, wednesday, thursday, friday, saturday, sunday').join(','),
      'boolean',
      'Maintenance window on this day.',
      { default: false },
    ),
    row('include_sla_maintenance_notice', 'boolean', ''),
    row('include_sla_standard_maintenance_notice_qty', 'number', ''),
    row('include_sla_standard_maintenance_notice_unit', 'string', ''),
    row('include_product_support', 'boolean', '', { default: false }),
    row('include_product_support_type', 'string', '`description` (default) or `attachment`.', { enum: DESC_OR_ATTACHMENT, default: 'description' }),
    row('include_product_support_description', 'string', ''),
    row('include_product_support_attachment_id', 'uuid', ''),
    row('include_professional_services', 'boolean', '', { default: false }),
    row('include_professional_services_type', 'string', '`description` (default) or `attachment`.', {
      enum: DESC_OR_ATTACHMENT,
      default: 'description',
    }),
    row('include_professional_services_description', 'string', ''),
    row('include_professional_services_custom_name', 'string', ''),
    row('include_professional_services_include_end_date', 'boolean', '', { default: false }),
    row('include_professional_services_end_date', 'datetime', ''),
    row('include_professional_services_include_fees_description', 'boolean', '', { default: false }),
    row('include_professional_services_fees_description', 'string', ''),
    row('include_professional_services_attachment_id', 'uuid', ''),
    row('include_pilot_period', 'boolean', '', { default: false }),
    row('include_pilot_period_duration_amount', 'integer', ''),
    row('include_pilot_period_duration_type', 'string', 'Unit.'),
    row('include_pilot_period_include_fees', 'boolean', '', { default: false }),
    row('include_pilot_period_include_fees_amount', 'number', ''),
    row('include_pilot_period_include_modifications', 'boolean', '', { default: false }),
    row('include_pilot_period_include_modifications_description', 'string', ''),
    row('include_billing_info', 'boolean', '', { default: false }),
    row('include_usage_review', 'boolean', '', { default: false }),
    row('include_usage_review_val', 'string', ''),
    row('fees_attributes', ORDER_FORM_FEE, 'Fee items.'),
    row('service_credits_attributes', SERVICE_CREDIT, 'Service credits, items `{ min, max, credit }`.'),
    row('use_limitations_attributes', USE_LIMITATION, 'Use limitations, items `{ limitation_type, amount, unit }`.'),
    further(
      [
        'include_sla_standard_maintenance_window_time_zone',
        'invoice_period_custom_unit',
        'payment_process_type_invoice_custom_unit',
        'pilot_period_processor_product_id',
        'underlying_agreement_id',
        'framework_terms_type',
        'include_fees_table_period',
      ],
      'Further CSA order form field names',
    ),
  ],
  ['cloud_service_description'],
);

const CSA = [
  row('provider', 'string', 'The provider.'),
  row('customer_description', 'string', 'The customer.'),
  ...effectiveDate('datetime'),
  row('general_cap_amount_type', 'string', '`preceding`, `base` or `unlimited`.', {
    enum: CAP_TYPES,
    cond: [when('general_cap_amount_type', 'preceding', 'general_cap_preceding_amount'), when('general_cap_amount_type', 'base', 'general_cap_amount')],
  }),
  row('general_cap_preceding_amount', 'number', 'Months. Required when general_cap_amount_type is `preceding`.'),
  row('general_cap_amount', 'number', 'Required when general_cap_amount_type is `base`.'),
  row('include_covered_claims', 'boolean', '', { default: false }),
  row('include_increased_cap_amount', 'boolean', '', { default: false }),
  row('increased_cap_amount_type', 'string', '`preceding`, `base` or `unlimited`.', { enum: CAP_TYPES }),
  row('include_unlimited_claims', 'boolean', '', { default: false }),
  row('include_dpa', 'boolean', 'Include a data processing agreement.', { default: false }),
  row('include_dpa_type', 'string', '`description` or `attachment`.', {
    enum: DESC_OR_ATTACHMENT,
    cond: [when('include_dpa_type', 'description', 'include_dpa_location'), when('include_dpa_type', 'attachment', 'include_dpa_attachment_id')],
  }),
  row('include_dpa_location', 'string', 'Where the DPA is found; when include_dpa_type is `description`.'),
  row('include_dpa_attachment_id', 'uuid', 'The DPA; when include_dpa_type is `attachment`.'),
  row('include_ai_addendum', 'boolean', 'Include an AI addendum.', { default: false, cond: when('include_ai_addendum', true, 'include_ai_addendum_attachment_id') }),
  row('include_ai_addendum_attachment_id', 'uuid', 'The AI addendum. Required when include_ai_addendum is true.'),
  row('include_security_policy', 'boolean', '', { default: false }),
  row('include_security_policy_type', 'string', '`description` or `attachment`.', { enum: DESC_OR_ATTACHMENT }),
  row('include_acceptable_use_policy', 'boolean', '', { default: false }),
  row('include_additional_warranties', 'boolean', '', { default: false }),
  row('include_insurance_minimums', 'boolean', '', { default: false }),
  row('include_publicity_rights', 'boolean', '', { default: false }),
  row('include_billing_workflow', 'boolean', '', { default: false }),
  row('billing_workflow_type', 'string', '`link` or `processor`.', { enum: ['link', 'processor'] }),
  row('payment_link_url', 'string', 'Used when billing_workflow_type is `link`.'),
  row('processor_product_id', 'string', 'Used when billing_workflow_type is `processor`.'),
  row('processor_product_name', 'string', ''),
  row('processor_invoice_delivery', 'string', '`automatic` (default) or `manual`.', { enum: ['automatic', 'manual'], default: 'automatic' }),
  row('processor_subsequent_bill_method', 'string', '`automatic` (default) or `manual`.', { enum: ['automatic', 'manual'], default: 'automatic' }),
  row('template_csa_order_form_attributes', CSA_ORDER_FORM, 'Nested order form defaults.'),
  further([...PSA_CSA_FURTHER, ...CSA_INSURANCE], 'Further PSA and CSA field names'),
];

const DPA = [
  row('provider', 'string', 'Data processor.'),
  row('customer_description', 'string', 'Data controller.'),
  row('approved_subprocessor_type', 'string', '`list` or `notice`.', { enum: ['list', 'notice'] }),
  row('security_policy_type', 'string', ''),
  row('security_policy_available_at', 'string', 'URL.'),
  row('include_governing_law', 'boolean', '', { default: false }),
  row('include_governing_country_eu', 'boolean', '', { default: false }),
  row('include_governing_country_eu_val', 'string', 'EU member state.'),
  row('include_governing_country_uk', 'boolean', '', { default: false }),
  row('include_governing_country_uk_val', 'string', ''),
  row('include_provider_security_contact_email', 'boolean', '', { default: true }),
  row('include_provider_security_contact_email_val', 'string', ''),
  row('include_covered_claim', 'boolean', '', { default: false }),
  row('include_increased_claim_amount', 'boolean', '', { default: false }),
  row('include_liability_cap', 'boolean', '', { default: false }),
  row('include_data_subjects_end_users, include_data_subjects_employees, include_data_subjects_custom', 'boolean', '', { default: false }),
  row('include_data_subjects_custom_val', 'string', ''),
  row(
    group(
      'include_personal_data_',
      'name, contact_info, financial_info, employment_info, biographic_info, transactional_info, user_activity_info, location, custom',
    ).join(','),
    'boolean',
    'Category of personal data processed.',
    { default: false },
  ),
  row('include_personal_data_custom_val', 'string', ''),
  row('include_special_category_data', 'boolean', '', { default: false }),
  row('include_frequency_of_transfer_continuous', 'boolean', '', { default: true }),
  row('include_frequency_of_transfer_custom', 'boolean', '', { default: false }),
  row('include_frequency_of_transfer_custom_val', 'string', ''),
  row('duration_of_processing', 'string', ''),
  row('competent_supervisory_authority', 'string', ''),
  row('data_exporter_contact_name, data_exporter_contact_details, data_exporter_address_country, data_importer_address_country', 'string', ''),
  row('subprocessors_attributes', SUBPROCESSOR, 'Subprocessors, items with `name`, `country`, `processing_task`.'),
  further(
    [
      'underlying_agreement_type',
      'underlying_agreement_id',
      'underlying_agreement_val',
      'include_provider_security_contact_address',
      group('include_provider_security_contact_address_', 'city, state, zipcode, country, street_address'),
      'include_covered_claim_type',
      'include_covered_claim_internal_val',
      'include_covered_claim_external_val',
      'include_increased_claim_amount_type',
      group('include_increased_claim_amount_', 'qty, currency'),
      'include_liability_cap_csa_type',
      'include_liability_cap_amount_constant_internal',
      'include_liability_cap_amount_currency_internal',
      'include_liability_cap_amount_constant_external',
      'include_liability_cap_amount_currency_external',
      'include_governing_law_country',
      'include_governing_law_state',
      'include_external_subprocessor_location',
      group('data_exporter_address_', 'city, state, street_address, zipcode'),
      group('data_importer_address_', 'city, state, street_address, zipcode'),
      'data_exporter_contact_position',
      'data_exporter_role',
      'data_importer_address',
      'data_importer_contact_name',
      group('data_importer_contact_', 'details, position'),
      'cloud_service_product_name',
      'include_service_provider_relationship',
      'include_sensitive_data_restrictions_security_policy',
      group('include_sensitive_data_restrictions_', 'custom, custom_val'),
      group('include_processing_purpose_', 'receiving, holding, using, updating, protecting, sharing, returning, erasing, custom'),
      'include_processing_purpose_custom_val',
      'include_security_policy',
      'include_security_policy_provider',
      group(
        'include_security_policy_',
        'iso27001, hipaa, hitrust, pci1, pci2, fedramp_auth, include_other, other, penetration_testing, soc2, soc2_type2',
      ),
      'include_security_measures_security_policy',
      split(
        'pseudonym_encryption, confidentiality_integrity, restore_data_access, testing_assessment, identity_auth, data_transmission, data_at_rest, physical_security, event_logging, system_configuration, it_security_governance, certification_or_assurance, data_minimization, data_quality, data_retention, accountability, portability_and_erasure',
      ).flatMap((m) => [`include_security_measures_${m}`, `include_security_measures_${m}_val`]),
    ],
    'Further DPA field names',
  ),
];

const PSA_SOW = nested(
  'PSA statement of work',
  [
    row('services_description', 'string', 'Description of the services. Required.'),
    row('sow_date_type', 'string', '`signature` or `date`.', { enum: ['signature', 'date'] }),
    row('sow_date', 'date', ''),
    row('sow_term_type', 'string', '`date`, `duration` or `at_will`.', { enum: ['date', 'duration', 'at_will'] }),
    row('sow_term_amount', 'integer', ''),
    row('sow_term_unit', 'string', ''),
    row('sow_term_date', 'date', ''),
    row('include_deliverables', 'boolean', '', { default: false }),
    row('include_deliverables_description', 'string', ''),
    row('include_deliverables_include_draft_deliverables', 'boolean', ''),
    row('include_deliverables_include_acceptance', 'boolean', '', { default: false }),
    row('include_deliverables_rejection_amount', 'integer', 'Days to reject.'),
    row('include_deliverables_rejection_unit', 'string', ''),
    row('include_deliverables_resubmission_amount', 'integer', 'Days to resubmit.'),
    row('include_deliverables_resubmission_unit', 'string', ''),
    row('include_deliverables_include_attachment', 'boolean', '', { default: false }),
    row('include_deliverables_attachment_id', 'uuid', ''),
    row('include_time_of_assignment', 'boolean', '', { default: false }),
    row('include_time_of_assignment_type', 'string', ''),
    row(
      'include_third_party_materials, include_third_party_provider, include_third_party_customer, include_third_party_include_description',
      'boolean',
      '',
      { default: false },
    ),
    row('include_third_party_include_description_val', 'string', ''),
    row('include_fees_table', 'boolean', '', { default: false }),
    row('include_fees_table_total', 'boolean', ''),
    row('include_fees_other', 'boolean', '', { default: false }),
    row('include_fees_other_val', 'string', ''),
    row('include_fees_travel', 'boolean', '', { default: false }),
    row('include_fees_travel_type', 'string', '`description` or `attachment`.', { enum: DESC_OR_ATTACHMENT }),
    row('include_fees_travel_val', 'string', ''),
    row('include_fees_travel_attachment_id', 'uuid', ''),
    row('payment_period_type', 'string', ''),
    row('payment_period', 'integer', ''),
    row('payment_period_unit, payment_period_timeframe, payment_period_other, invoice_period_description', 'string', ''),
    row('include_customer_obligation', 'boolean', '', { default: false }),
    row('include_customer_obligation_val', 'string', ''),
    row('fees_attributes', SOW_FEE, 'Fee items `{ fee_type, description, quantity, cost }`.'),
  ],
  ['services_description'],
);

const PSA = [
  ...effectiveDate('date', false),
  row('general_cap_amount_type', 'string', '`preceding`, `base` or `unlimited`.', { enum: CAP_TYPES }),
  row('general_cap_preceding_amount', 'number', ''),
  row('general_cap_amount', 'number', ''),
  row('include_covered_claims, include_increased_claims, include_unlimited_claims, include_additional_warranties', 'boolean', '', { default: false }),
  row('include_dpa', 'boolean', '', { default: false }),
  row('include_dpa_type', 'string', '`description` or `attachment`.', { enum: DESC_OR_ATTACHMENT }),
  row('include_dpa_location', 'string', ''),
  row('include_dpa_attachment_id', 'uuid', ''),
  row('include_security_policy', 'boolean', '', { default: false }),
  row('include_security_policy_type', 'string', '`description` or `attachment`.', { enum: DESC_OR_ATTACHMENT }),
  row('include_provider_insurance_min, include_customer_insurance_min, include_publicity_rights, include_customer_policies', 'boolean', '', {
    default: false,
  }),
  row('template_psa_statement_of_work_attributes', PSA_SOW, 'Nested statement of work defaults.'),
  further([...PSA_CSA_FURTHER, ...PSA_INSURANCE], 'Further PSA and CSA field names'),
];

const DESIGN = [
  row('product_description, customer_description', 'string', ''),
  ...effectiveDate('date'),
  row('term_amount', 'integer', 'Length of the program.', { default: 6 }),
  row('term_unit', 'string', 'Unit of term_amount.', { default: 'month(s)' }),
  row('include_program_participation_feedback', 'boolean', '', { default: true }),
  row('include_program_participation_feedback_amount', 'integer', ''),
  row('include_program_participation_feedback_unit', 'string', ''),
  row('include_program_appear_as_customer_private', 'boolean', '', { default: true }),
  row('include_program_appear_as_customer_public', 'boolean', '', { default: true }),
  row('include_program_case_study, include_program_reference, include_program_develop_functionality', 'boolean', '', { default: false }),
  row('include_program_discount', 'boolean', '', { default: true }),
  row('include_program_discount_amount', 'number', '', { default: 20 }),
  row('include_program_discount_unit', 'string', '', { default: '%' }),
  row('include_fees', 'boolean', '', { default: false }),
  row('include_fees_type, include_fees_unit', 'string', ''),
  row('include_fees_amount', 'number', ''),
  further(
    [
      'version',
      'include_program_partner_other',
      'include_program_partner_other_val',
      'include_program_develop_functionality_val',
      'include_program_provider_other',
      'include_program_provider_other_val',
      'include_fees_pay_by_amount',
      'include_fees_description',
    ],
    'Further design field names',
  ),
];

const SOFTWARE_LICENSE_ORDER_FORM = nested(
  'Software license order form',
  [
    row('software_description', 'string', 'Description of the software. Required.'),
    row('order_date_type', 'string', '`signature` or `date`.', { enum: ['signature', 'date'] }),
    row('order_date_date', 'date', ''),
    row('subscription_period', 'integer', ''),
    row('subscription_period_unit', 'string', '', { default: 'year' }),
    row('subscription_auto_renew', 'string', ''),
    row('subscription_renewal_notice_days', 'integer', ''),
    row('fee_period, fee_custom_unit', 'string', ''),
    row('fees_currency', 'string', '', { default: 'USD' }),
    row('fees_inclusive_of_taxes, fees_include_fee_increase_upon_renewal', 'boolean', ''),
    row('fees_include_fee_increase_upon_renewal_fee', 'number', ''),
    row('fees_include_fee_increase_upon_renewal_type', 'string', '`percentage` or `fixed`.', { enum: ['percentage', 'fixed'] }),
    row('payment_process_type', 'string', '`invoice`, `automatic` or `custom`.', {
      enum: ['invoice', 'automatic', 'custom'],
      cond: when('payment_process_type', 'custom', 'payment_process_type_custom_val'),
    }),
    row('payment_process_automatic_frequency', 'string', ''),
    row('payment_process_type_invoice_amount', 'integer', ''),
    row('payment_process_type_invoice_type, payment_process_type_invoice_duration, payment_process_type_invoice_duration_start', 'string', ''),
    row('payment_process_type_custom_val', 'string', 'Required when payment_process_type is `custom`.'),
    row('include_payment_process_include_billing_email', 'boolean', '', { default: false }),
    row('permitted_uses_include_internal_business, permitted_uses_include_customers_affiliates, permitted_uses_include_custom', 'boolean', ''),
    row('permitted_uses_include_custom_description', 'string', ''),
    row('include_license_limits', 'boolean', ''),
    row('include_license_limits_description', 'string', ''),
    row('warranty_period_type', 'string', '`none`, `duration` or `description`.', { enum: ['none', 'duration', 'description'] }),
    row('warranty_period_description_amount', 'integer', ''),
    row('warranty_period_description_duration, warranty_period_description_duration_start', 'string', ''),
    row(
      'deletion_procedure_include_provider_disable, deletion_procedure_include_customer_disable, deletion_procedure_include_customer_proof, deletion_procedure_include_custom',
      'boolean',
      '',
    ),
    row('deletion_procedure_include_custom_description', 'string', ''),
    row('include_license_compliance_verification', 'boolean', ''),
    row('include_license_compliance_verification_description', 'string', ''),
    row('include_services', 'boolean', ''),
    row('include_services_description', 'string', ''),
    row('include_pilot_period', 'boolean', '', { default: false }),
    row('include_pilot_period_duration_amount', 'integer', ''),
    row('include_pilot_period_duration_type', 'string', ''),
    row('include_pilot_period_include_fees, include_pilot_period_include_modifications', 'boolean', ''),
    row('include_pilot_period_include_fees_amount', 'number', ''),
    row('include_pilot_period_include_modifications_description', 'string', ''),
    row('fees_attributes', ORDER_FORM_FEE, 'Fee items.'),
  ],
  ['software_description'],
);

const SOFTWARE_LICENSE = [
  ...effectiveDate('date', false),
  row('general_cap_amount_type', 'string', '`preceding` (default), `base` or `unlimited`.', { enum: CAP_TYPES, default: 'preceding' }),
  row('general_cap_preceding_amount', 'number', '', { default: 1 }),
  row('general_cap_amount', 'number', ''),
  row(
    'include_covered_claims, include_increased_claims, include_unlimited_claims, include_additional_warranties, include_dpa, include_ai_addendum, include_billing_workflow',
    'boolean',
    '',
    { default: false },
  ),
  row('include_dpa_type', 'string', '`description` or `attachment`.', { enum: DESC_OR_ATTACHMENT }),
  row('include_dpa_attachment_id', 'uuid', ''),
  row('include_ai_addendum_attachment_id', 'uuid', 'Required when include_ai_addendum is true.'),
  row('billing_workflow_type', 'string', '`link` or `processor`.', { enum: ['link', 'processor'] }),
  row('payment_link_url, processor_product_id', 'string', ''),
  row('processor_invoice_delivery', 'string', '`automatic` (default) or `manual`.', { enum: ['automatic', 'manual'], default: 'automatic' }),
  row('template_software_license_order_form_attributes', SOFTWARE_LICENSE_ORDER_FORM, 'Nested order form defaults.'),
  further(
    [
      COVERED_CLAIMS_GROUP,
      INCREASED_CLAIMS_GROUP,
      UNLIMITED_CLAIMS_GROUP,
      'include_increased_claims_restrictions',
      'include_unlimited_claims_license_or_restrictions',
      'general_cap_period_qty',
      'general_cap_period_currency',
      'processor_payment_link_id',
      'processor_product_name',
      'processor_subsequent_bill_method',
    ],
    'Further software license field names',
  ),
];
// The `include_ai_addendum` row is shared with other booleans, so its condition is attached here.
const SOFTWARE_LICENSE_CONDS = [when('include_ai_addendum', true, 'include_ai_addendum_attachment_id')];

const PILOT = [
  row('product_description, pilot_period_description, pilot_period_fees_description', 'string', ''),
  ...effectiveDate('date'),
  row('fees_type', 'string', '`free` (default) or `paid`.', { enum: ['free', 'paid'], default: 'free' }),
  row('include_payment_process', 'boolean', '', { default: false }),
  row('payment_process_type', 'string', '`invoice` or `automatic`.', { enum: ['invoice', 'automatic'] }),
  row('payment_process_invoice_days', 'integer', '', { default: 15 }),
  row('general_cap_amount_type', 'string', ''),
  row('general_cap_amount', 'number', '', { default: 1000 }),
  row('include_dpa', 'boolean', '', { default: false }),
  row('include_dpa_type', 'string', '`description` or `attachment`.', { enum: DESC_OR_ATTACHMENT }),
  row('include_dpa_location', 'string', ''),
  row('include_technical_support', 'boolean', '', { default: false }),
  row('technical_support_description', 'string', ''),
  further(
    [
      'negotiations_allowed',
      'general_cap_preceding_amount',
      'general_cap_period_currency',
      'general_cap_period_qty',
      'payment_process_invoice_timeframe',
      'payment_process_automatic_frequency',
      'payment_process_invoice_from',
      'include_dpa_attachment_id',
    ],
    'Further pilot field names',
  ),
];

const PARTNERSHIP_BUSINESS_TERMS = nested(
  'Partnership business terms',
  [
    row('territory_type', 'string', '`worldwide` (default) or `custom`.', { enum: ['worldwide', 'custom'], default: 'worldwide' }),
    row('territory_type_val', 'string', ''),
    row('end_date_type', 'string', '`specified` (default), `duration` or `at_will`.', {
      enum: ['specified', 'duration', 'at_will'],
      default: 'specified',
      cond: when('end_date_type', 'duration', 'end_date_after_effective_date_amount'),
    }),
    row('end_date_date', 'datetime', ''),
    row('end_date_after_effective_date_amount', 'integer', 'When end_date_type is `duration`.'),
    row('end_date_after_effective_date_unit', 'string', ''),
    row(
      'include_obligations_company_brand, include_obligations_company_referral, include_obligations_company_referral_include_criteria, include_obligations_company_referral_include_pay_sch',
      'boolean',
      '',
      { default: false },
    ),
    row('include_obligations_company_referral_include_criteria_val', 'string', ''),
    row('include_obligations_company_referral_include_pay_sch_amount', 'number', ''),
    row('include_obligations_company_referral_include_pay_sch_unit, include_obligations_company_referral_include_pay_sch_custom', 'string', ''),
    row(
      'include_obligations_company_sponsorship, include_obligations_company_sponsorship_include_benefits, include_obligations_company_sponsorship_include_payments',
      'boolean',
      '',
      { default: false },
    ),
    row('include_obligations_company_sponsorship_include_benefits_val', 'string', ''),
    row('include_obligations_company_sponsorship_include_payments_amount', 'number', ''),
    row('include_obligations_company_sponsorship_include_payments_unit', 'string', ''),
    row(
      'include_obligations_company_promotion, include_obligations_company_promotion_include_materials, include_obligations_company_promotion_include_activities',
      'boolean',
      '',
      { default: false },
    ),
    row('include_obligations_company_promotion_include_materials_val, include_obligations_company_promotion_include_activities_val', 'string', ''),
    row('include_obligations_partner_brand', 'boolean', '', { default: false }),
  ],
  [],
);
// Seed gap: "Partnership business terms parameters after include_obligations_partner_brand: not
// shown". They are most likely the partner's obligations, so those names are let through untyped.
PARTNERSHIP_BUSINESS_TERMS.patternProperties = {
  '^include_obligations_partner_': 'Partner obligation; the service documents only `include_obligations_partner_brand`, so the type of the others is not documented.',
};

const PARTNERSHIP = [
  ...effectiveDate('date'),
  row('general_cap_amount_type', 'string', '`multiple` (default), `currency` or `either`.', { enum: ['multiple', 'currency', 'either'], default: 'multiple' }),
  row('general_cap_amount_multiple_val', 'number', '', { default: 1 }),
  row('general_cap_amount_currency_val', 'number', ''),
  row(
    'include_covered_claims, include_increased_claims, include_unlimited_claims, include_additional_warranties, include_dpa, include_brand_guidelines',
    'boolean',
    '',
    { default: false },
  ),
  row('include_dpa_type', 'string', '`description` or `attachment`.', { enum: DESC_OR_ATTACHMENT }),
  row('template_partnership_business_terms_attributes', PARTNERSHIP_BUSINESS_TERMS, 'Nested business terms defaults.'),
];

const LOI = [
  further(
    split(
      'product_name, include_functionality, include_functionality_val, include_fees, include_fees_include_amount, include_fees_amount, include_fees_amount_duration, include_fees_include_other, include_fees_other, include_launch_date, include_launch_date_type, include_launch_date_date, include_launch_date_custom, include_custom_details, include_custom_details_val, confidentiality_type, confidentiality_mutual_include_loi, confidentiality_nda_type, confidentiality_nda_attachment_id, confidentiality_nda_description, confidentiality_nda_include_loi, confidentiality_custom',
    ),
    'LOI field names',
  ),
];

/** The ten types. Keep in step with TEMPLATE_TYPES in src/kinds/support/template-params.ts (a test compares them). */
const TYPES = [
  { type: 'NDA', file: 'nda', agreement: 'Mutual Non-Disclosure Agreement', rows: NDA },
  { type: 'CSA', file: 'csa', agreement: 'Cloud Service Agreement', rows: CSA, renames: CSA_RENAMES },
  { type: 'DPA', file: 'dpa', agreement: 'Data Processing Agreement', rows: DPA },
  { type: 'PSA', file: 'psa', agreement: 'Professional Services Agreement', rows: PSA },
  { type: 'Design', file: 'design', agreement: 'Design Partner Agreement', rows: DESIGN },
  { type: 'Software License', file: 'software-license', agreement: 'Software License Agreement', rows: SOFTWARE_LICENSE, conds: SOFTWARE_LICENSE_CONDS },
  { type: 'Pilot', file: 'pilot', agreement: 'Pilot Agreement', rows: PILOT },
  { type: 'Partnership', file: 'partnership', agreement: 'Partnership Agreement', rows: PARTNERSHIP },
  {
    type: 'BAA',
    file: 'baa',
    agreement: 'Business Associate Agreement',
    rows: [],
    note: 'The service documents no BAA-specific parameters, so only the common parameters are accepted.',
  },
  {
    type: 'LOI',
    file: 'loi',
    agreement: 'Letter of Intent',
    rows: LOI,
    note: 'The service documents LOI field names only, so their values are not type-checked.',
  },
];

// ---------------------------------------------------------------------------------------------
// Rows → JSON Schema

function sentence(text) {
  const t = text.trim();
  if (t === '') return '';
  const s = t[0].toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/** "include_sla_description" → "Include sla description." for rows the seed leaves without a note. */
function humanize(name) {
  return sentence(name.replace(/_/g, ' '));
}

function describe(name, note, tail = []) {
  return [sentence(note) || humanize(name), ...tail].filter(Boolean).join(' ');
}

function attachmentIdSchema(description) {
  return {
    description,
    anyOf: [
      { type: 'string', format: 'uuid', pattern: UUID_PATTERN },
      {
        type: 'object',
        additionalProperties: false,
        required: ['attachment'],
        properties: {
          attachment: { description: 'Name of an Attachment (declared in this configuration or live); docket sends its id.', type: 'string', minLength: 1, pattern: ONE_LINE_PATTERN, patternErrorMessage: ONE_LINE_MESSAGE },
        },
      },
    ],
  };
}

const ATTACHMENT_TAIL = 'A UUID, or `{ attachment: <name> }` naming an Attachment.';

function propertySchema(name, r) {
  const t = r.type;
  const defaults = r.default !== undefined ? { default: r.default } : {};
  if (typeof t === 'object' && t.kind === 'object') return objectSchema(t, describe(name, r.note));
  if (typeof t === 'object' && t.kind === 'array') {
    return { description: describe(name, r.note), type: 'array', items: itemSchema(t) };
  }
  switch (t) {
    case 'string':
      return {
        description: describe(name, r.note),
        type: 'string',
        // An e-mail as docket checks it, in a pattern editors check too (see EMAIL_PATTERN).
        ...(r.format === 'email' ? { pattern: EMAIL_PATTERN, patternErrorMessage: EMAIL_MESSAGE } : r.format ? { format: r.format } : {}),
        ...(r.enum ? { enum: r.enum } : {}),
        ...defaults,
      };
    case 'integer':
      // DESIGN compares numbers and numeric strings by value, so `term: "2"` is accepted like `term: 2`.
      return { description: describe(name, r.note, ['A whole number (a numeric string such as "2" is accepted too).']), type: ['integer', 'string'], pattern: INTEGER, ...defaults };
    case 'number':
      // NOTE(api): decimals come back from the service as strings ("1.0"); both forms are accepted.
      return { description: describe(name, r.note, ['A number (a decimal string such as "1.0" is accepted too).']), type: ['number', 'string'], pattern: DECIMAL, ...defaults };
    case 'boolean':
      return { description: describe(name, r.note), type: 'boolean', ...defaults };
    case 'date':
      return { description: describe(name, r.note, ['A date, YYYY-MM-DD.']), type: 'string', format: 'date', pattern: DATE, patternErrorMessage: DATE_MESSAGE, ...defaults };
    case 'datetime':
      return {
        description: describe(name, r.note, ['A date (YYYY-MM-DD) or an RFC 3339 date-time.']),
        type: 'string',
        anyOf: [
          { format: 'date', pattern: DATE, patternErrorMessage: DATE_MESSAGE },
          { pattern: DATE_TIME, patternErrorMessage: 'A date-time (RFC 3339), such as 2027-01-15T10:00:00Z, whose date is on the calendar.' },
        ],
        ...defaults,
      };
    case 'uuid':
      return name.endsWith('_attachment_id')
        ? attachmentIdSchema(describe(name, r.note, [ATTACHMENT_TAIL]))
        : { description: describe(name, r.note), type: 'string', format: 'uuid', pattern: UUID_PATTERN };
    default:
      throw new Error(`unknown type ${String(t)} of ${name}`);
  }
}

function furtherSchema(name, note) {
  const base = `${humanize(name)} Type not documented (${note}).`;
  if (name.endsWith('_attachment_id')) return attachmentIdSchema(`${base} ${ATTACHMENT_TAIL}`);
  // Any value, except the `{ attachment: … }` reference, which only *_attachment_id parameters take.
  return {
    description: `${base} Any value is sent as YAML reads it (quote a number YAML would read otherwise than written, such as 1.10, which validate refuses unquoted), except \`{ attachment: … }\`, which only *_attachment_id parameters take.`,
    not: { type: 'object', required: ['attachment'], properties: { attachment: { description: 'An attachment reference.' } }, additionalProperties: false },
  };
}

function itemSchema(def) {
  const properties = {};
  for (const r of def.fields) for (const n of r.names) properties[n] = propertySchema(n, r);
  return { title: def.title, description: `${def.title}.`, type: 'object', additionalProperties: false, properties };
}

/** Properties, in table order, each name once; conditional requirements collected on the way. */
function buildProperties(rows, where) {
  const properties = {};
  const conds = [];
  const typed = new Set();
  for (const r of rows) {
    if (r.further) {
      for (const n of r.further) if (!(n in properties)) properties[n] = furtherSchema(n, r.note);
      continue;
    }
    for (const n of r.names) {
      if (typed.has(n)) throw new Error(`${where}: ${n} declared twice`);
      typed.add(n);
      if (n in properties) throw new Error(`${where}: ${n} declared after a further list`);
      // Never offered by an editor's completion (yaml-language-server's `doNotSuggest`): docket refuses it here.
      properties[n] = r.forbidden ? { description: r.forbidden, not: {}, doNotSuggest: true } : propertySchema(n, r);
    }
    if (r.cond) conds.push(...[r.cond].flat());
  }
  return { properties, conds };
}

function conditionals(conds, properties, where) {
  return conds.map((c) => {
    for (const n of [c.field, c.then]) if (!(n in properties)) throw new Error(`${where}: condition names unknown ${n}`);
    const shown = typeof c.value === 'string' ? `\`${c.value}\`` : String(c.value);
    const p = properties[c.then];
    const notBlank = plainText(p) ? { type: 'string', ...notBlankText(`Required when ${c.field} is ${shown}`) } : {};
    return {
      if: { properties: { [c.field]: { const: c.value } }, required: [c.field] },
      then: {
        properties: { [c.then]: { description: `Required when ${c.field} is ${shown}.`, ...notBlank } },
        required: [c.then],
      },
    };
  });
}

/** A required text parameter holds some visible text: docket compares `""` (and a lone line end) as no value, so it would hold none. */
const NOT_BLANK = '\\S';

/** The pattern of a required text, and what an editor says when it is blank. */
function notBlankText(required) {
  return { pattern: NOT_BLANK, patternErrorMessage: `${required}: write some text (an empty value is no value).` };
}

/** Free text: no pattern, choices, format or alternatives of its own already say what it holds. */
function plainText(p) {
  return p.type === 'string' && !p.pattern && !p.enum && !p.format && !p.anyOf;
}

function objectSchema(def, description) {
  const { properties, conds } = buildProperties(def.rows, def.title);
  for (const key of def.required) {
    const p = properties[key];
    if (p && plainText(p)) Object.assign(p, notBlankText('Required'));
  }
  const schema = {
    title: def.title,
    description,
    type: 'object',
    additionalProperties: false,
    ...(def.required.length > 0 ? { required: def.required } : {}),
    properties,
  };
  if (def.patternProperties) {
    schema.patternProperties = Object.fromEntries(
      Object.entries(def.patternProperties).map(([re, d]) => [re, { description: d }]),
    );
  }
  if (conds.length > 0) schema.allOf = conditionals(conds, properties, def.title);
  return schema;
}

function typeSchema(t) {
  const { properties: base, conds } = buildProperties([...COMMON, ...t.rows], t.type);
  let properties = base;
  if (t.renames) {
    // Both spellings are known properties; src/kinds/support/template-params.ts reports the one that does
    // not fit the document's standard_version (the service answers 422 to it).
    properties = {};
    const renamed = new Map(t.renames);
    for (const [n, s] of Object.entries(base)) {
      const next = renamed.get(n);
      if (!next) {
        properties[n] = s;
        continue;
      }
      properties[n] = { ...s, description: `${s.description} Pre-3.0 name: on standard_version 3.x write \`${next}\`.` };
      properties[next] = { ...s, description: `standard_version 3.x name of \`${n}\`: ${s.description}` };
    }
    for (const [from] of t.renames) if (!(from in base)) throw new Error(`${t.type}: renamed ${from} is not a parameter`);
  }
  conds.push(...(t.conds ?? []));
  const schema = {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: `docket Template parameters: ${t.type}`,
    description: [
      `Parameters of a standard template of type ${t.type} (${t.agreement}), seed 002. Only the keys present are managed.`,
      t.note,
      `Generated by scripts/gen-schemas.mjs; edit that script, not this file.`,
    ]
      .filter(Boolean)
      .join(' '),
    type: 'object',
    additionalProperties: false,
    properties,
  };
  if (conds.length > 0) schema.allOf = conditionals(conds, properties, t.type);
  return schema;
}

/** schemas/template.schema.json: the Template kind, whose `parameters` are checked by `type`. */
function templateSchema() {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'docket Template',
    description:
      'A standard template of the agreements service (seed 002). A partial kind: only the parameters present are managed; server defaults for the rest are never shown as changes. Generated by scripts/gen-schemas.mjs.',
    type: 'object',
    additionalProperties: false,
    required: ['kind', 'name', 'type'],
    properties: {
      kind: { description: 'Resource kind.', const: 'Template' },
      id: { description: 'UUID of the live template, to pin this document to it.', type: 'string', format: 'uuid', pattern: UUID_PATTERN },
      renamed_from: {
        description:
          'Former names of this template: the live template found under one of them is renamed in place instead of a new one being created.',
        $ref: '#/$defs/renamedFrom',
      },
      name: { description: 'Display name of the template; its identity. Sent as the `name` parameter.', type: 'string', minLength: 1, pattern: NAME_LENGTH_PATTERN, patternErrorMessage: NAME_LENGTH_MESSAGE, $comment: NAME_LENGTH_MARK },
      type: {
        description: `Agreement type: ${TYPES.map((t) => `${t.type} (${t.agreement})`).join(', ')}. Set when the template is created; updates cannot change it.`,
        type: 'string',
        enum: TYPES.map((t) => t.type),
      },
      standard_version: {
        description:
          'Version of the standard agreement, as text: "1.0", "2.1", "3.0" (quote it, or YAML reads 2.0 as the number 2). Omitted: the service default. For CSA it decides the spelling of the renamed 3.x parameters.',
        type: 'string',
        pattern: '^\\d+(\\.\\d+)*$',
        examples: ['1.0', '2.1', '3.0'],
      },
      parameters: {
        description:
          'Parameters of the template\'s type (seed 002), checked against schemas/templates/<type>.schema.json. Only the keys present are managed. Any *_attachment_id may be written as `{ attachment: <name> }`.',
        type: 'object',
      },
      attachments: {
        description: 'Names of Attachments attached to the template; docket sends their ids as `attachment_ids`.',
        type: 'array',
        items: { description: 'Name of an Attachment.', type: 'string', minLength: 1, pattern: ONE_LINE_PATTERN, patternErrorMessage: ONE_LINE_MESSAGE },
        uniqueItems: true,
      },
    },
    allOf: TYPES.map((t) => ({
      if: { properties: { type: { const: t.type } }, required: ['type'] },
      then: { properties: { parameters: { description: `Parameters of a ${t.type} template.`, $ref: `templates/${t.file}.schema.json` } } },
    })),
    $defs: {
      renamedFrom: {
        description: 'One former name, or a list of them.',
        anyOf: [
          { type: 'string', minLength: 1, pattern: FORMER_NAME_PATTERN, patternErrorMessage: FORMER_NAME_MESSAGE },
          { type: 'array', items: { type: 'string', minLength: 1, pattern: FORMER_NAME_PATTERN, patternErrorMessage: FORMER_NAME_MESSAGE }, uniqueItems: true },
        ],
      },
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Output: JSON with short arrays and tiny objects on one line, so the files read like tables.

function format(value, indent = '') {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    const flat = JSON.stringify(value);
    if (value.every((v) => v === null || typeof v !== 'object') && flat.length <= 100) return flat.replace(/,/g, ', ');
    return `[\n${value.map((v) => `${inner}${format(v, inner)}`).join(',\n')}\n${indent}]`;
  }
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value);
    if (entries.length === 0) return '{}';
    const flat = `{ ${entries.map(([k, v]) => `${JSON.stringify(k)}: ${format(v, inner)}`).join(', ')} }`;
    if (!flat.includes('\n') && flat.length + indent.length <= 110 && !entries.some(([k]) => k === 'properties')) return flat;
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// The registry's parts of the plan and docket.yaml schemas.

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** plan.schema.json with `$defs.kind.enum` = every registered kind, in registry order. */
function planSchema(kinds) {
  const schema = readJson(path.join(ROOT, 'schemas', 'plan.schema.json'));
  schema.$defs.kind = { ...schema.$defs.kind, enum: kinds.map((k) => k.name) };
  return schema;
}

/** docket.schema.json with one `prune:` key per kind that declares one. */
function docketSchema(kinds) {
  const schema = readJson(path.join(ROOT, 'schemas', 'docket.schema.json'));
  const properties = {};
  for (const k of kinds) {
    if (!k.pruneKey) continue;
    properties[k.pruneKey] = {
      description: `${k.deletion === 'archive' ? 'Archive' : 'Delete'} live ${k.noun[1]} that no file declares (same as --prune).`,
      type: 'boolean',
      default: false,
    };
  }
  schema.$defs.prune = { ...schema.$defs.prune, properties };
  // Variable and environment names are spelled as placeholders spell them.
  const names = { pattern: mergeKeyToo(`^${VARIABLE_NAME}$`) };
  schema.properties.environments = { ...schema.properties.environments, propertyNames: names };
  schema.$defs.vars = { ...schema.$defs.vars, propertyNames: names };
  return schema;
}

// ---------------------------------------------------------------------------------------------
// What docket accepts, the editor accepts: any typed value of a file docket fills variables into
// may be written as `${var.NAME}` / `${env.NAME}` (docket checks the value it becomes).

const VARIABLE_REF = '#/$defs/variable';
const VARIABLE = {
  $comment: 'A value docket fills in when it runs: ${var.NAME} from `vars:` in docket.yaml, or ${env.NAME} from the environment (checked once filled in).',
  type: 'string',
  // Not after a `$`: `$${var.x}` is the literal text `${var.x}`, no placeholder.
  pattern: `(^|[^$])\\$\\{(var|env)\\.${VARIABLE_NAME}\\}`,
};
const WHOLE_VARIABLE_REF = '#/$defs/wholeVariable';
const WHOLE_VARIABLE = {
  $comment: 'A value docket fills in when it runs, written as one placeholder and nothing else (only that becomes a number or a boolean): ${var.NAME} from `vars:` in docket.yaml, or ${env.NAME} from the environment.',
  type: 'string',
  pattern: `^\\$\\{(var|env)\\.${VARIABLE_NAME}\\}$`,
};
/** What stays on the wrapper, where editors look for it (hover text, completion defaults). */
const OUTER_KEYS = ['description', 'title', 'default', 'examples'];
/** Keys whose value is never a variable: docket reads them before it fills any in. */
const LITERAL_PROPERTIES = new Set(['kind', 'version']);

const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);
const isVariableRef = (v) => isObject(v) && (v.$ref === VARIABLE_REF || v.$ref === WHOLE_VARIABLE_REF);

/** Whether a value's alternative takes text: a placeholder inside text can become its value; a number or a boolean only a whole one. */
function takesText(node) {
  if (!isObject(node)) return false;
  if (node.type !== undefined) return [].concat(node.type).includes('string');
  const choices = 'enum' in node ? node.enum : 'const' in node ? [node.const] : undefined;
  return choices === undefined || choices.some((c) => typeof c === 'string');
}

/** The placeholder alternative beside `alternatives`, noted in `state` so its definition is written. */
function variableRef(alternatives, state) {
  const ref = alternatives.some(takesText) ? VARIABLE_REF : WHOLE_VARIABLE_REF;
  state.refs.add(ref);
  return { $ref: ref };
}

/** A leaf whose type, format, pattern or choices a placeholder string would fail. */
function typedLeaf(node) {
  if (!isObject(node) || ['$ref', 'anyOf', 'oneOf', 'allOf', 'if', 'not'].some((k) => k in node)) return false;
  const types = node.type === undefined ? [] : [].concat(node.type);
  if (types.some((t) => t === 'integer' || t === 'number' || t === 'boolean')) return true;
  if ('enum' in node || 'const' in node) return true;
  // An alternative of a string's `anyOf` (`{ format: date }`) constrains the string without naming its type.
  // Any placeholder is one line, and not blank: the one-line and former-name patterns take it as it
  // is, and a variable's value says itself which placeholders it takes.
  const takesPlaceholders = [ONE_LINE_PATTERN, FORMER_NAME_PATTERN, VARIABLE_VALUE_PATTERN].includes(node.pattern);
  return (types.length === 0 || types.includes('string')) && ('format' in node || ('pattern' in node && !takesPlaceholders));
}

function wrapLeaf(node, state) {
  const outer = {};
  const inner = {};
  // Examples of text stay beside the type: there an editor completes "3.0" quoted; beside anyOf, as the number 3.0 (probe DJ-6).
  const outerKeys = node.type === 'string' ? OUTER_KEYS.filter((k) => k !== 'examples') : OUTER_KEYS;
  for (const [k, v] of Object.entries(node)) (outerKeys.includes(k) ? outer : inner)[k] = v;
  return { ...outer, anyOf: [inner, variableRef([inner], state)] };
}

/** The schema with every typed leaf also taking a placeholder (idempotent); `state.refs` says which placeholder definitions it uses. */
function withVariables(node, state, propertyName) {
  if (Array.isArray(node)) return node.map((n) => withVariables(n, state));
  if (!isObject(node)) return node;
  if (typedLeaf(node) && !LITERAL_PROPERTIES.has(propertyName)) return wrapLeaf(node, state);
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    // `if` only tests values and `not`/`propertyNames` restrict them: left as written.
    if (key === 'if' || key === 'not' || key === 'propertyNames' || key === 'enum' || key === 'const' || key === 'default' || key === 'examples') out[key] = value;
    else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value) && value.some(isVariableRef)) {
      const others = value.filter((v) => !isVariableRef(v));
      out[key] = [...others, variableRef(others, state)];
    } else if ((key === 'anyOf' || key === 'oneOf') && Array.isArray(value) && value.some(typedLeaf)) {
      // Alternatives already: the placeholder is one more, beside them (not one per alternative).
      out[key] = [...value.map((v) => (typedLeaf(v) ? v : withVariables(v, state))), variableRef(value, state)];
    } else if (key === 'properties' && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).map(([name, v]) => [name, withVariables(v, state, name)]));
    // docket.yaml's `vars` say themselves which placeholders they take (`${env.X}`, never another var: VARIABLE_VALUE_PATTERN).
    else if (key === '$defs' && isObject(value)) out[key] = Object.fromEntries(Object.entries(value).filter(([name]) => name !== 'variable' && name !== 'wholeVariable').map(([name, v]) => [name, name === 'vars' ? v : withVariables(v, state)]));
    else out[key] = withVariables(value, state);
  }
  return out;
}

/** A schema of a file docket fills variables into, with placeholders accepted and defined once. */
function acceptVariables(schema) {
  const state = { refs: new Set() };
  const out = withVariables(schema, state);
  if (state.refs.size > 0) {
    out.$defs = {
      ...(out.$defs ?? {}),
      ...(state.refs.has(VARIABLE_REF) ? { variable: VARIABLE } : {}),
      ...(state.refs.has(WHOLE_VARIABLE_REF) ? { wholeVariable: WHOLE_VARIABLE } : {}),
    };
  }
  return out;
}

/**
 * resource.schema.json: one schema for every resource document of a configuration, choosing the
 * kind's schema by `kind`, so one `yaml.schemas` glob covers its files. Documents without a `kind`
 * (data files) are left alone. Test documents are not resources: docket reads them only from
 * `*.test.yaml` files (test.schema.json), and refuses a test kind anywhere else, as this does.
 */
function resourceSchema(kinds) {
  const declared = kinds.filter((k) => k.yamlKind && k.schema);
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    title: 'docket resource document',
    description: 'Any docket resource document, checked against the schema of its `kind`. Map it to the YAML files of a configuration but docket.yaml, *.test.yaml (test.schema.json) and definition files (custom-template-definition.schema.json); data files (no `kind`) are left alone.',
    // An empty document (a file's trailing `---`, one of comments only) is null, and docket skips it.
    type: ['object', 'null'],
    properties: { kind: { description: 'What the document declares.', enum: declared.map((k) => k.yamlKind) } },
    // `type` in each condition: for null, `required` alone holds, and every kind's schema was applied.
    allOf: declared.map((k) => ({ if: { type: 'object', required: ['kind'], properties: { kind: { const: k.yamlKind } } }, then: { $ref: k.schema } })),
  };
}

/**
 * A key pattern that takes YAML's merge key `<<` too: docket reads merges before it checks keys,
 * so the pattern never sees one, but an editor checks the key as written (probe HF).
 */
function mergeKeyToo(pattern) {
  return `^(?:<<|${pattern.replace(/^\^/, '').replace(/\$$/, '')})$`;
}

/** A schema whose `propertyNames` patterns take the merge key too, at any depth. */
function withMergeKeys(node) {
  if (Array.isArray(node)) return node.map(withMergeKeys);
  if (!isObject(node)) return node;
  const out = {};
  for (const [key, value] of Object.entries(node)) {
    out[key] = key === 'propertyNames' && typeof value?.pattern === 'string' ? { ...value, pattern: mergeKeyToo(value.pattern) } : withMergeKeys(value);
  }
  return out;
}

/**
 * custom-template.schema.json with its inline `definition:` checked by a copy of the definition
 * schema kept in its own `$defs`: docket fills variables into an inline definition (a resource
 * file's value), never into a definition file, so only the copy takes placeholders (acceptVariables
 * adds them). The definition schema's own `$defs` come along under their names.
 */
function withInlineDefinition(schema) {
  const { $schema: _schema, $defs: definitionDefs = {}, ...definition } = readJson(path.join(ROOT, 'schemas', 'custom-template-definition.schema.json'));
  const inline = schema.properties.definition;
  return {
    ...schema,
    properties: { ...schema.properties, definition: { description: inline.description, $comment: inline.$comment, $ref: '#/$defs/definition' } },
    // Written out resolved, an inline definition may use merge keys, which a definition file may not.
    $defs: { ...(schema.$defs ?? {}), ...withMergeKeys({ ...definitionDefs, definition }) },
  };
}

/** Every generated file and its text; `kinds` is the registry (src/kinds/index.ts KINDS). */
export function generateSchemas(kinds) {
  const generated = new Map([
    [path.join(ROOT, 'schemas', 'template.schema.json'), templateSchema()],
    ...TYPES.map((t) => [path.join(OUT, `${t.file}.schema.json`), typeSchema(t)]),
    [path.join(ROOT, 'schemas', 'plan.schema.json'), planSchema(kinds)],
    [path.join(ROOT, 'schemas', 'docket.schema.json'), docketSchema(kinds)],
    [path.join(ROOT, 'schemas', 'resource.schema.json'), resourceSchema(kinds)],
    [path.join(ROOT, 'schemas', 'custom-template.schema.json'), withInlineDefinition(readJson(path.join(ROOT, 'schemas', 'custom-template.schema.json')))],
  ]);
  // The files docket fills variables into: docket.yaml, each kind's, and the template types'.
  const interpolated = [
    path.join(ROOT, 'schemas', 'docket.schema.json'),
    ...kinds.filter((k) => k.schema).map((k) => path.join(ROOT, 'schemas', k.schema)),
    ...TYPES.map((t) => path.join(OUT, `${t.file}.schema.json`)),
  ];
  for (const file of interpolated) generated.set(file, acceptVariables(generated.get(file) ?? readJson(file)));
  return [...generated].map(([file, schema]) => ({ file, text: `${format(schema)}\n` }));
}

async function main() {
  const check = process.argv.includes('--check');
  const { KINDS } = await import(pathToFileURL(path.join(ROOT, 'dist', 'kinds', 'index.js')).href);
  let stale = 0;
  mkdirSync(OUT, { recursive: true });
  for (const { file, text } of generateSchemas(KINDS)) {
    let current;
    try {
      current = readFileSync(file, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    if (check) {
      console.error(`${path.relative(ROOT, file)} is out of date; run npm run gen:schemas`);
      stale++;
    } else {
      writeFileSync(file, text);
      console.log(`wrote ${path.relative(ROOT, file)}`);
    }
  }
  if (stale > 0) process.exit(1);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
