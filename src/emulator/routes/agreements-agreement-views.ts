/**
 * How the agreements service shows agreements, their history, agreement types and statuses.
 * NOTE(api): seed 001 shows none of these response bodies; the attribute names are ours.
 */
import { latest, type AgreementHistoryRecord, type AgreementRecord, type CustomTemplateRecord } from '../agreements-state.js';
import type { ResourceObject } from '../jsonapi.js';
import { AGREEMENT_TYPES } from '../template-defaults.js';

export function agreementView(a: AgreementRecord): ResourceObject {
  return {
    id: a.id,
    type: 'agreement',
    attributes: {
      // The agreement object as sent first, so our own attributes win over a stray key of the same name.
      ...a.fields,
      agreement_type: a.agreement_type,
      status: a.status,
      template_id: a.template_id,
      custom_template_id: a.custom_template_id,
      custom_template_version_number: a.custom_template_version_number,
      owner_id: a.owner_id,
      owner_email: a.owner_email,
      signer_id: a.signer_id,
      signer_email: a.signer_email,
      cc_users: [...a.cc_users],
      test_agreement: a.test_agreement,
      manual_send: a.manual_send,
      custom_field_values: a.custom_field_values,
      sent_at: a.sent_at,
      voided_at: a.voided_at,
      created_at: a.created_at,
      updated_at: a.updated_at,
    },
  };
}

export function historyView(agreementId: string, e: AgreementHistoryRecord): ResourceObject {
  return { id: e.id, type: 'agreement_history', attributes: { agreement_id: agreementId, event: e.event, description: e.description, user_email: e.user_email, created_at: e.created_at } };
}

/** `nda`, `csa`, …, `software_license`: the lower-case agreement type an agreement and its filters use. */
export function agreementTypeValue(type: (typeof AGREEMENT_TYPES)[number]): string {
  return type.toLowerCase().replace(/ /g, '_');
}

/** NOTE(api): each custom template is a type of its own (value `custom`), as seed 001 lists "custom types of the organization". */
export function agreementTypeViews(customTemplates: CustomTemplateRecord[]): ResourceObject[] {
  return [
    ...AGREEMENT_TYPES.map((t) => ({ id: agreementTypeValue(t), type: 'agreement_type', attributes: { name: t, value: agreementTypeValue(t), custom: false } })),
    ...customTemplates.map((t) => ({
      id: t.id,
      type: 'agreement_type',
      attributes: { name: t.name, value: 'custom', custom: true, custom_template_id: t.id, current_version_number: latest(t.versions).version_number },
    })),
  ];
}
