/**
 * The `agreement` object of a create-agreement body (seed 001 "Agreement object on create"): type
 * checks of the documented fields, 422 naming `agreement.<field>`. Other keys (per-type override
 * objects, whose names are not shown) are kept as sent.
 */
import { EMAIL, isIsoDate } from './definition.js';
import type { FieldErrors, JsonBody } from './fields.js';

const TEXT = [
  'recipient_name',
  'recipient_organization',
  // Seed 001: an older sample's spelling; which one is authoritative is not shown, so both pass.
  'recipient_organization_name',
  'message',
  'governing_law_country',
  'governing_law_region',
  'chosen_courts_country',
  'chosen_courts_region',
  'district_or_county',
  'billing_name',
  'framework_terms_description',
  'payment_link_url',
];
const EMAILS = ['recipient_email', 'billing_email', 'sender_notice_email_address', 'recipient_notice_email_address'];
const BOOLEANS = ['test_agreement', 'include_billing_workflow', 'include_automated_payment_reminders', 'include_billing_info', 'manual_send'];
const CHOICES: Record<string, readonly string[]> = {
  include_expiration_type: ['none', 'days', 'date'],
  billing_workflow_type: ['link', 'processor'],
  framework_terms_type: ['new', 'description'],
};

/** Records a 422 entry for each documented field of the wrong type; null clears a text field. */
export function checkAgreementFields(agreement: JsonBody, errors: FieldErrors): void {
  const at = (key: string): string => `agreement.${key}`;
  const has = (key: string): boolean => Object.hasOwn(agreement, key) && agreement[key] !== null;
  for (const key of TEXT) if (has(key) && typeof agreement[key] !== 'string') errors.add(at(key), 'must be a string');
  for (const key of EMAILS) {
    if (has(key) && !(typeof agreement[key] === 'string' && EMAIL.test(agreement[key]))) errors.add(at(key), 'must be an e-mail address');
  }
  for (const key of BOOLEANS) if (has(key) && typeof agreement[key] !== 'boolean') errors.add(at(key), 'must be true or false');
  for (const [key, allowed] of Object.entries(CHOICES)) {
    if (has(key) && !allowed.includes(agreement[key] as string)) errors.add(at(key), `must be one of: ${allowed.join(', ')}`);
  }
  const days = agreement.include_expiration_days;
  if (has('include_expiration_days') && !(typeof days === 'number' && Number.isInteger(days) && days >= 1)) errors.add(at('include_expiration_days'), 'must be a whole number of at least 1');
  const date = agreement.include_expiration_date;
  if (has('include_expiration_date') && !(typeof date === 'string' && isIsoDate(date))) errors.add(at('include_expiration_date'), 'must be a date written YYYY-MM-DD');
  // Seed 001: a payment link needs the billing workflow on, of type `link`.
  if (has('payment_link_url') && !(agreement.include_billing_workflow === true && agreement.billing_workflow_type === 'link')) {
    errors.add(at('payment_link_url'), 'requires include_billing_workflow true and billing_workflow_type "link"');
  }
  if (has('custom_field_values') && (typeof agreement.custom_field_values !== 'object' || Array.isArray(agreement.custom_field_values))) {
    errors.add(at('custom_field_values'), 'must be an object keyed by the template field keys');
  }
}
