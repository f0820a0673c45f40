/**
 * The docket.lock.json entries a plan rewrites (its `lock_updates`, and the `adoptable` files
 * `--adopt-files` records) are written as the plan found them then: a saved plan applied after
 * another apply recorded a newer upload or version would put the older one back, and the next plan
 * would publish the same file again (probe GA-1). Each carries the digest of the entry it replaces.
 */
import { lockKey, type LockFile } from '../config/lock.js';
import { quoteValue } from '../config/quote.js';
import { canonicalJson, digest } from './canonical.js';
import type { AdoptableFile, LockUpdate, Plan } from './types.js';

/** The digest of the entry under `kind:key` (null: none). */
function entrySeen(lock: LockFile, kind: string, key: string): string | null {
  const entry = lock.files[lockKey(kind, key)];
  return entry === undefined ? null : digest(entry).slice(0, 16);
}

/** The plan with each entry it rewrites stamped with the entry the plan read. */
export function withLockSeen(plan: Plan, lock: LockFile): Plan {
  if (!plan.lock_updates?.length && !plan.adoptable?.length) return plan;
  if (plan.lock_updates) plan.lock_updates = plan.lock_updates.map((u) => ({ ...u, lock_was: entrySeen(lock, u.kind, u.key) }));
  if (plan.adoptable) plan.adoptable = plan.adoptable.map((a) => ({ ...a, lock_was: entrySeen(lock, a.kind, a.key) }));
  return plan;
}

/** Whether the entry under the key is already what `u` writes (another apply settled it the same way): nothing to put back. */
function asPlanned(u: LockUpdate | AdoptableFile, lock: LockFile): boolean {
  const current = lock.files[lockKey(u.kind, u.key)];
  if ('entry' in u) return canonicalJson(current ?? null) === canonicalJson(u.entry);
  return current?.id?.toLowerCase() === u.liveId.toLowerCase() && current.sha256 === u.sha256 && current.file === u.file && (u.version === undefined || current.version === u.version);
}

/** Why the plan's lock rewrites are out of date: each entry another apply changed since (a plan without the stamps predates them). */
export function lockMovedSincePlan(plan: Plan, lock: LockFile): string[] {
  const reasons: string[] = [];
  for (const u of [...(plan.lock_updates ?? []), ...(plan.adoptable ?? [])]) {
    if (u.lock_was === undefined || entrySeen(lock, u.kind, u.key) === u.lock_was || asPlanned(u, lock)) continue;
    reasons.push(`docket.lock.json's entry for ${u.kind} ${quoteValue(u.key)} changed since the plan (an apply recorded another upload or version since): the plan would put back what it read then`);
  }
  return [...new Set(reasons)];
}
