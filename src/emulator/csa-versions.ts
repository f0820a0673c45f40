/**
 * CSA attribute names by standard version (seed 001 "Versioning"): 3.x templates must use the
 * renamed attributes, earlier versions the old names; the other spelling is a 422.
 */

/** Pre-3.0 name → 3.x name. */
const RENAMES: Readonly<Record<string, string>> = {
  include_increased_cap_amount: 'include_supercap',
  increased_cap_amount_type: 'supercap_type',
  increased_cap_amount_qty: 'supercap_qty',
  increased_cap_amount_currency: 'supercap_currency',
  increased_cap_amount_period_qty: 'supercap_period_qty',
  increased_cap_amount_period_currency: 'supercap_period_currency',
  include_unlimited_claims: 'include_uncapped_claims',
  include_unlimited_claims_indemnification_obligation: 'include_uncapped_claims_indemnification_obligation',
  include_unlimited_claims_breach_of_confidentiality: 'include_uncapped_claims_breach_of_confidentiality',
  include_unlimited_claims_breach_of_privsec: 'include_uncapped_claims_breach_of_privsec',
  include_unlimited_claims_breach_of_privsec_negligence: 'include_uncapped_claims_breach_of_privsec_negligence',
  include_unlimited_claims_breach_of_confidentiality_negligence: 'include_uncapped_claims_breach_of_confidentiality_negligence',
  include_unlimited_claims_include_other: 'include_uncapped_claims_include_other',
  include_unlimited_claims_other: 'include_uncapped_claims_other',
};

const OLD_NAME_OF: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(RENAMES).map(([oldName, newName]) => [newName, oldName]));

/** NOTE(api): "3.x" read as a major version of 3 or more; a missing or unparsable version counts as pre-3.0. */
export function isCsa3(standardVersion: string | null): boolean {
  const major = /^\s*(\d+)/.exec(standardVersion ?? '')?.[1];
  return major !== undefined && Number(major) >= 3;
}

/** A pre-3.0 name as the given version spells it. */
export function csaSpelling(preThreeName: string, standardVersion: string | null): string {
  return isCsa3(standardVersion) ? (RENAMES[preThreeName] ?? preThreeName) : preThreeName;
}

/** Why `name` is wrong for this version, or undefined when it is fine. */
export function csaMisspelling(name: string, standardVersion: string | null): string | undefined {
  if (isCsa3(standardVersion)) {
    const renamed = Object.hasOwn(RENAMES, name) ? RENAMES[name] : undefined;
    return renamed ? `is a pre-3.0 CSA attribute; standard_version ${standardVersion ?? ''} uses ${renamed}` : undefined;
  }
  const old = Object.hasOwn(OLD_NAME_OF, name) ? OLD_NAME_OF[name] : undefined;
  return old ? `is a CSA 3.x attribute; standard_version ${standardVersion ?? '(none)'} uses ${old}` : undefined;
}
