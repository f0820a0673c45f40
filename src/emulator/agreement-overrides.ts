/**
 * The per-type override objects of a create-agreement body (seed 001 "Agreement object on create"):
 * objects that override template defaults for one agreement type, "only valid for a matching
 * template". NOTE(api): their key names are not shown; ours are the seed's words in snake case,
 * bare or with Rails' `_attributes` (`csa`, `csa_attributes`, `csa_order_form_attributes`), and
 * one for another type, or one that is not an object, is a 422 naming it. `amendment` matches no
 * template type of seed 002, so it is kept as sent.
 */
import type { FieldErrors, JsonBody } from './fields.js';
import { isObject } from './seed-checks.js';
import type { AgreementType } from './template-defaults.js';

const OVERRIDES: Record<AgreementType, readonly string[]> = {
  NDA: [],
  CSA: ['csa', 'csa_order_form'],
  DPA: ['dpa'],
  PSA: ['psa', 'psa_statement_of_work'],
  Design: ['design_partner'],
  'Software License': ['software_license', 'software_license_order_form'],
  Pilot: ['pilot'],
  Partnership: ['partnership', 'partnership_business_terms'],
  BAA: ['baa'],
  LOI: ['loi'],
};

const TYPE_OF: ReadonlyMap<string, AgreementType> = new Map(
  (Object.entries(OVERRIDES) as [AgreementType, readonly string[]][]).flatMap(([type, names]) => names.map((name) => [name, type] as const)),
);

/** `type` is the template's agreement type, or `custom` for a custom template. */
export function checkOverrideObjects(agreement: JsonBody, type: AgreementType | 'custom', errors: FieldErrors): void {
  for (const key of Object.keys(agreement)) {
    const owner = TYPE_OF.get(key.replace(/_attributes$/, ''));
    if (owner === undefined) continue;
    const at = `agreement.${key}`;
    if (owner !== type) errors.add(at, `overrides ${owner} template defaults; it is only valid for an agreement from a ${owner} template, and this one is ${type === 'custom' ? 'a custom template' : `a ${type} template`}`);
    else if (!isObject(agreement[key])) errors.add(at, 'must be an object of the fields it overrides');
  }
}
