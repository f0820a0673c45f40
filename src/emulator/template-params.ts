/**
 * Reading a standard template create/update body (seed 002): `type`, `name`, `standard_version`
 * and every other key as a parameter, with the checks seeds 001/002 name (all 422): unknown type,
 * CSA attribute spelled for the other standard version, unknown signer, unknown attachments.
 */
import { csaMisspelling } from './csa-versions.js';
import { FieldErrors, isPresent, readString, type JsonBody } from './fields.js';
import { isObject } from './seed-checks.js';
import { AGREEMENT_TYPES, isAgreementType, NESTED_ATTRIBUTES, templateResourceType, type AgreementType } from './template-defaults.js';

/** What the checks look up in the organization. */
export interface TemplateRefs {
  isUserEmail(email: string): boolean;
  hasAttachment(id: string): boolean;
}

export interface TemplateWrite {
  type: AgreementType;
  name?: string;
  /** Undefined when not sent. */
  standardVersion?: string;
  /** Parameters as sent (nested `template_*_attributes` objects not merged yet). */
  parameters: Record<string, unknown>;
}

/** Keys that are not parameters: the template's own fields, and read-only attributes (ignored). */
const OWN_KEYS = ['type', 'name', 'standard_version'];
const READ_ONLY = ['id', 'agreement_type', 'created_at', 'updated_at'];
const NESTED = /^template_\w+_attributes$/;

/**
 * Validates a body; `existing` is the template being updated (then `type` may not change and the
 * CSA spelling follows the sent or the stored standard version). Throws a 422 naming every field.
 */
export function readTemplateWrite(body: JsonBody, refs: TemplateRefs, existing?: { type: AgreementType; standardVersion: string | null }): TemplateWrite {
  const errors = new FieldErrors();
  const type = readType(body, errors, existing?.type);
  const name = readString(body, 'name', errors);
  if ((existing === undefined || name !== undefined) && !errors.has('name') && (name === undefined || name.trim() === '')) errors.add('name', "can't be blank");
  // NOTE(api): seed 002 says settings (standard version, message) sit in a nested object whose key is not shown; we take `standard_version` top-level.
  const standardVersion = readString(body, 'standard_version', errors);
  if (standardVersion !== undefined && standardVersion.trim() === '') errors.add('standard_version', "can't be blank");
  const parameters: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(body)) {
    if (!OWN_KEYS.includes(key) && !READ_ONLY.includes(key) && key !== '__proto__') parameters[key] = value;
  }
  if (type) checkParameters(type, parameters, refs, errors);
  if (type === 'CSA') {
    const version = standardVersion ?? existing?.standardVersion ?? null;
    for (const key of Object.keys(parameters)) {
      const why = csaMisspelling(key, version);
      if (why) errors.add(key, why);
    }
  }
  errors.throwIfAny();
  if (!type) throw new Error('unreachable: type validated above');
  const write: TemplateWrite = { type, parameters };
  if (name !== undefined) write.name = name;
  if (standardVersion !== undefined) write.standardVersion = standardVersion;
  return write;
}

function readType(body: JsonBody, errors: FieldErrors, existing: AgreementType | undefined): AgreementType | undefined {
  if (!isPresent(body, 'type')) return existing ?? 'NDA';
  const sent = body.type;
  if (existing !== undefined) {
    // NOTE(api): update bodies carry no type (seed 002); the same type is tolerated, another one refused.
    if (sent !== existing && sent !== templateResourceType(existing)) errors.add('type', 'the type of a template cannot change');
    return existing;
  }
  if (isAgreementType(sent)) return sent;
  errors.add('type', `must be one of: ${AGREEMENT_TYPES.join(', ')}`);
  return undefined;
}

function checkParameters(type: AgreementType, parameters: Record<string, unknown>, refs: TemplateRefs, errors: FieldErrors): void {
  for (const [key, value] of Object.entries(parameters)) {
    if (NESTED.test(key)) {
      // NOTE(api): a nested object of another type is refused rather than dropped.
      if (!NESTED_ATTRIBUTES[type].includes(key)) errors.add(key, `is not a parameter of ${type} templates`);
      else if (!isObject(value)) errors.add(key, 'must be an object');
      else for (const [inner, innerValue] of Object.entries(value)) checkAttachmentRef(`${key}.${inner}`, inner, innerValue, refs, errors);
      continue;
    }
    checkAttachmentRef(key, key, value, refs, errors);
  }
  if (isPresent(parameters, 'attachment_ids')) checkAttachmentIds(parameters.attachment_ids, refs, errors);
  if (isPresent(parameters, 'default_signer_email')) {
    const email = parameters.default_signer_email;
    if (email !== null && typeof email !== 'string') errors.add('default_signer_email', 'must be a string');
    else if (typeof email === 'string' && email.trim() !== '' && !refs.isUserEmail(email.trim())) errors.add('default_signer_email', 'is not a user of the organization');
  }
}

/** Any `*_attachment_id` parameter: null or "" (none), else an uploaded attachment. */
function checkAttachmentRef(field: string, key: string, value: unknown, refs: TemplateRefs, errors: FieldErrors): void {
  if (!key.endsWith('_attachment_id') || value === null || value === '') return;
  if (typeof value !== 'string') errors.add(field, 'must be the id of an attachment (a string)');
  else if (!refs.hasAttachment(value)) errors.add(field, `names no uploaded attachment (${value})`);
}

function checkAttachmentIds(value: unknown, refs: TemplateRefs, errors: FieldErrors): void {
  if (value === null) return;
  if (!Array.isArray(value) || !value.every((v): v is string => typeof v === 'string')) {
    errors.add('attachment_ids', 'must be an array of attachment ids');
    return;
  }
  const unknown = value.filter((id) => !refs.hasAttachment(id));
  if (unknown.length > 0) errors.add('attachment_ids', `names no uploaded attachment: ${unknown.join(', ')}`);
}

/**
 * Stored parameters after an update: the rest replaces; nested attribute objects merge key by key,
 * or (the `nested_update: replace` variant, like Rails nested attributes without an id) replace.
 */
export function mergeParameters(stored: Record<string, unknown>, sent: Record<string, unknown>, nested: 'merge' | 'replace' = 'merge'): Record<string, unknown> {
  const merged = { ...stored };
  for (const [key, value] of Object.entries(sent)) {
    const old = merged[key];
    merged[key] = nested === 'merge' && NESTED.test(key) && isObject(old) && isObject(value) ? { ...old, ...value } : value;
  }
  return merged;
}
