/**
 * The mass-delete guard: a plan whose deletes and archives exceed `safety.max_delete_fraction` of
 * a kind's live objects (kinds with at least 5) is refused unless `--force`; so is one that creates
 * again more than that share of the objects the files declare that were removed live (a service
 * in trouble answering an empty list would otherwise have every one made twice). Pure.
 */
import { CREATE_ACTIONS, type DesiredResource, type KindName, type Plan } from './types.js';
import { addTo } from '../util/multi-map.js';

export interface GuardViolation {
  kind: KindName;
  removals: number;
  live: number;
  threshold: number;
  /** For the children of one parent (`playbook "NDA"`): the share is of that parent's. */
  parent?: string;
  /** Creates of objects removed live, against those the files declare (`removals` counts them). */
  recreates?: true;
}

/** Below this many live objects a kind is too small for a share to mean anything. */
export const GUARD_MIN_LIVE = 5;

export function massDeleteViolations(plan: Plan, live: readonly { kind: KindName }[], threshold: number): GuardViolation[] {
  return violations(plan.changes.filter((c) => c.action === 'delete' || c.action === 'archive'), live, threshold);
}

/**
 * Objects removed live that the plan creates again, against those of the kind (or of one parent)
 * the files declare: the mirror of pull's guard. Templates and terms cannot be deleted over the
 * API, so a second copy made because a list was answered empty would stay for good.
 */
export function recreateViolations(plan: Plan, desired: readonly DesiredResource[], threshold: number): GuardViolation[] {
  const recreated = plan.changes.filter((c) => c.direction === 'removed-live' && CREATE_ACTIONS.includes(c.action));
  if (recreated.length === 0) return [];
  // The rules of a playbook made again come with it, as an archive takes them along: one playbook
  // archived in the app and put back is one object, not its rules' share.
  const again = new Set(recreated.map((c) => `${c.kind}:${c.key}`));
  const counted = recreated.filter((c) => !c.parent || !again.has(`${c.parent.kind}:${c.parent.key}`));
  return pullRemovalViolations(counted, desired, threshold).map((v) => ({ ...v, recreates: true as const }));
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
  return refusal(describeViolation(v));
}

/**
 * The refusals as the text and markdown plans say them: one each, but the children of more than
 * PARENTS_SAID_EACH parents of one kind as one, naming the first few. One per playbook made 200
 * warnings, which a comment cut, each past its reason (probe LA-1); `-o json` lists each (`guard`).
 */
export function guardWarnings(guard: readonly GuardViolation[]): string[] {
  return describeGuard(guard).map(refusal);
}

/** guardWarnings as an apply with `--force` says them. */
export function forcedWarnings(guard: readonly GuardViolation[]): string[] {
  return describeGuard(guard).map(forced);
}

/** What the guard refuses, said as guardWarnings groups it. */
export function describeGuard(guard: readonly GuardViolation[]): string[] {
  return grouped(guard, describeViolation, describeMany);
}

const refusal = (what: string): string => `apply will refuse this plan: ${what}; pass --force to apply it anyway`;
const forced = (what: string): string => `${what}; --force applies it`;

const PARENTS_SAID_EACH = 3;

function grouped(guard: readonly GuardViolation[], each: (v: GuardViolation) => string, many: (group: readonly GuardViolation[]) => string): string[] {
  const groupOf = (v: GuardViolation): string | undefined => (v.parent === undefined ? undefined : `${v.kind}\u0000${v.recreates === true}`);
  const groups = new Map<string, GuardViolation[]>();
  for (const v of guard) {
    const key = groupOf(v);
    if (key !== undefined) addTo(groups, key, v);
  }
  const out: string[] = [];
  const said = new Set<string>();
  for (const v of guard) {
    const key = groupOf(v);
    const group = key === undefined ? undefined : groups.get(key)!;
    if (!group || group.length <= PARENTS_SAID_EACH) out.push(each(v));
    else if (!said.has(key!)) {
      said.add(key!);
      out.push(many(group));
    }
  }
  return out;
}

/** The children of many parents of one kind over the threshold, each parent's share: the first few named. */
function describeMany(group: readonly GuardViolation[]): string {
  const v = group[0]!;
  const named = group.slice(0, PARENTS_SAID_EACH).map((g) => `${g.parent} (${g.removals} of ${g.live}, ${shareOver(g.removals, g.live, g.threshold)[0]})`);
  // `playbook "NDA"`: the parents' kind is the first word.
  const parents = `${v.parent!.slice(0, v.parent!.indexOf(' '))}s`;
  // The threshold with the decimals the closest share needs to be told from it.
  const closest = Math.min(...group.map((g) => g.removals / g.live));
  const each = `in each of ${group.length} ${parents}, over the safety threshold of ${pct(v.threshold, closest)} (safety.max_delete_fraction): ${named.join(', ')} and ${group.length - named.length} more (\`docket plan -o json\` lists each under \`guard\`)`;
  return v.recreates
    ? `the plan creates again ${v.kind} objects the files declare (removed live, or a service in trouble answered empty lists) ${each}`
    : `the plan removes live ${v.kind} objects ${each}`;
}

/**
 * The plan as an apply with `--force` shows it: the guard's refusals said as what is forced past,
 * not as a refusal the apply then does not make.
 */
export function forcedPastGuard(plan: Plan): Plan {
  if (!plan.guard?.length) return plan;
  const { guard, ...rest } = plan;
  const refusals = new Set(guard.map(guardWarning));
  // First, where the refusals stood: what a reader must see before the rest.
  return { ...rest, warnings: [...forcedWarnings(guard), ...plan.warnings.filter((w) => !refusals.has(w))] };
}


/**
 * One decimal, or as many more as tell `n` from `over` (a share over a threshold of 24.99 % is 25 %,
 * not "25 %, over 25 %": probe OQ-1); a share short of all (4,999 of 5,000) never rounds to 100 %,
 * nor one above none to 0 %.
 */
const pct = (n: number, over?: number): string => {
  let places = 1;
  while (places < 6 && over !== undefined && n !== over && rounded(n, places) === rounded(over, places)) places++;
  const r = rounded(n, places);
  const least = 10 ** -places;
  return `${n < 1 && r >= 100 ? `>${100 - least}` : n > 0 && r <= 0 ? `<${least}` : r}%`;
};
const rounded = (n: number, places: number): number => Number((n * 100).toFixed(places));

/** A share and the threshold it is over, each with the decimals that tell them apart. */
const shareOver = (removals: number, live: number, threshold: number): [string, string] => {
  const [share, over] = [pct(removals / live, threshold), pct(threshold, removals / live)];
  // Past six decimals, said as over it (second read SR81-3).
  return share === over ? [`just over ${over}`, over] : [share, over];
};

export function describeViolation(v: GuardViolation): string {
  const [share, threshold] = shareOver(v.removals, v.live, v.threshold);
  if (v.recreates) {
    const of = v.parent ? `${v.kind} objects of ${v.parent}` : `${v.kind} objects`;
    return `the plan creates again ${v.removals} of the ${v.live} ${of} the files declare (${share}; removed live, or a service in trouble answered an empty list), over the safety threshold of ${threshold} (safety.max_delete_fraction)`;
  }
  return `the plan removes ${v.removals} of ${v.live} live ${v.kind} objects (${share}), over the safety threshold of ${threshold} (safety.max_delete_fraction)`;
}

/**
 * The same guard for `docket pull`: objects removed live that it would take out of the files,
 * against those of the kind the files declare, the rules of a playbook removed with it included
 * (an empty playbook list from a service in trouble takes four playbooks and all their rules
 * out; four are too few for a share, their rules are not). Otherwise one pull request would take
 * every file out of git.
 */
export function pullRemovalViolations(removed: readonly Identity[], declared: readonly (Identity & { parent?: Identity })[], threshold: number): GuardViolation[] {
  const kindWide = violations(removed, declared, threshold);
  return [...kindWide, ...childViolations(removed, declared, threshold, new Set(kindWide.map((v) => v.kind)))];
}

interface Identity {
  kind: KindName;
  key: string;
}

/**
 * The children one parent the files keep would lose (one playbook's rule list answered empty
 * takes all its rules out, under any kind-wide share), for kinds not over their share already.
 */
function childViolations(removed: readonly Identity[], declared: readonly (Identity & { parent?: Identity })[], threshold: number, over: ReadonlySet<KindName>): GuardViolation[] {
  const id = (o: Identity): string => `${o.kind}:${o.key}`;
  const gone = new Set(removed.map(id));
  const parentOf = new Map<string, Identity>();
  const children = new Map<string, number>();
  for (const d of declared) {
    if (!d.parent) continue;
    parentOf.set(id(d), d.parent);
    children.set(`${d.kind} ${id(d.parent)}`, (children.get(`${d.kind} ${id(d.parent)}`) ?? 0) + 1);
  }
  const removals = new Map<string, { kind: KindName; parent: Identity; count: number }>();
  for (const r of removed) {
    const parent = parentOf.get(id(r));
    if (!parent || gone.has(id(parent)) || over.has(r.kind)) continue;
    const group = `${r.kind} ${id(parent)}`;
    const known = removals.get(group) ?? { kind: r.kind, parent, count: 0 };
    known.count++;
    removals.set(group, known);
  }
  const out: GuardViolation[] = [];
  for (const [group, { kind, parent, count }] of removals) {
    const total = children.get(group) ?? 0;
    if (total >= GUARD_MIN_LIVE && count / total > threshold) out.push({ kind, removals: count, live: total, threshold, parent: `${parent.kind} ${JSON.stringify(parent.key)}` });
  }
  return out.sort((a, b) => (a.parent ?? '').localeCompare(b.parent ?? ''));
}

export function describePullViolation(v: GuardViolation): string {
  const of = v.parent ? `${v.kind} objects of ${v.parent}` : `${v.kind} objects`;
  const [share, threshold] = shareOver(v.removals, v.live, v.threshold);
  return `the pull takes ${v.removals} of the ${v.live} ${of} the files declare out of them (${share}; removed live), over the safety threshold of ${threshold} (safety.max_delete_fraction)`;
}

