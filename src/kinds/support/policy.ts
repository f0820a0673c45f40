/** `drift:` and `ignore_fields:` of a playbook or rule (a rule inherits its playbook's). */
import type { DriftPolicy, ResourcePolicy } from '../../engine/types.js';

const POLICIES: readonly DriftPolicy[] = ['adopt', 'revert', 'ignore'];

/**
 * The policy a document entry states, over the one it inherits: its own `drift` wins, and its
 * `ignore_fields` add to the inherited ones. Undefined when neither says anything (no cost per rule).
 */
export function policyOf(entry: Record<string, unknown>, inherited?: ResourcePolicy): ResourcePolicy | undefined {
  // Most objects state none and inherit none (20,000 rules a plan): nothing to build.
  if (!inherited && entry.drift === undefined && entry.ignore_fields === undefined) return undefined;
  const own = POLICIES.find((p) => p === entry.drift);
  const drift = own ?? inherited?.drift;
  const listed = Array.isArray(entry.ignore_fields) ? entry.ignore_fields.filter((f): f is string => typeof f === 'string') : [];
  const ignoreFields = [...new Set([...(inherited?.ignoreFields ?? []), ...listed])];
  if (!drift && ignoreFields.length === 0) return undefined;
  return { ...(drift ? { drift } : {}), ...(ignoreFields.length > 0 ? { ignoreFields } : {}) };
}
