/**
 * The mass-delete guard: a plan whose deletes and archives exceed `safety.max_delete_fraction` of
 * a kind's live objects (kinds with at least 5) is refused unless `--force`. Pure.
 */
import type { KindName, LiveResource, Plan } from './types.js';

export interface GuardViolation {
  kind: KindName;
  removals: number;
  live: number;
  threshold: number;
}

/** Below this many live objects a kind is too small for a share to mean anything. */
export const GUARD_MIN_LIVE = 5;

export function massDeleteViolations(plan: Plan, live: LiveResource[], threshold: number): GuardViolation[] {
  return violations(plan.changes.filter((c) => c.action === 'delete' || c.action === 'archive'), live, threshold);
}

/** The kinds whose removals are more than `threshold` of the objects `of` holds of them (at least GUARD_MIN_LIVE). */
function violations(removed: readonly { kind: KindName }[], of: readonly { kind: KindName }[], threshold: number): GuardViolation[] {
  const removals = new Map<KindName, number>();
  for (const r of removed) removals.set(r.kind, (removals.get(r.kind) ?? 0) + 1);
  const out: GuardViolation[] = [];
  for (const [kind, count] of removals) {
    const total = of.filter((o) => o.kind === kind).length;
    if (total >= GUARD_MIN_LIVE && count / total > threshold) out.push({ kind, removals: count, live: total, threshold });
  }
  return out.sort((a, b) => a.kind.localeCompare(b.kind));
}

/** The plan's warning of a violation: the first thing a reader of the plan must see. */
export function guardWarning(v: GuardViolation): string {
  return `apply will refuse this plan: ${describeViolation(v)}; pass --force to apply it anyway`;
}

const pct = (n: number): string => `${Math.round(n * 1000) / 10}%`;

export function describeViolation(v: GuardViolation): string {
  return `the plan removes ${v.removals} of ${v.live} live ${v.kind} objects (${pct(v.removals / v.live)}), over the safety threshold of ${pct(v.threshold)} (safety.max_delete_fraction)`;
}

/**
 * The same guard for `docket pull`: objects removed live that it would take out of the files,
 * against those of the kind the files declare, the rules of a playbook removed with it included
 * (an empty playbook list from a service in trouble takes four playbooks and all their rules
 * out; four are too few for a share, their rules are not). Otherwise one pull request would take
 * every file out of git.
 */
export function pullRemovalViolations(removed: readonly { kind: KindName }[], declared: readonly { kind: KindName }[], threshold: number): GuardViolation[] {
  return violations(removed, declared, threshold);
}

export function describePullViolation(v: GuardViolation): string {
  return `the pull takes ${v.removals} of the ${v.live} ${v.kind} objects the files declare out of them (${pct(v.removals / v.live)}; removed live), over the safety threshold of ${pct(v.threshold)} (safety.max_delete_fraction)`;
}

