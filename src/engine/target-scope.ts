/**
 * What a targeted plan reads: the kinds joined to its targets, and of parents' children (a
 * playbook's rules) those of the parents the targets name only. A plan of one playbook in an
 * organization of 500 read all 500 rule lists and every custom term (probe RJ-3), where the
 * changes it keeps are the targets' and what they depend on. Pure.
 */
import type { AnyKind } from '../kinds/index.js';
import type { TargetSpec } from './target.js';
import { addChildPrefixes, parentPrefixOf } from './sync.js';
import { prefixesOf, refKey, type DesiredResource, type KindName } from './types.js';

/** Per parent kind, the keys of the declared parents whose children a targeted plan reads and plans (FetchContext.targetedParents). */
export type TargetScope = ReadonlyMap<KindName, ReadonlySet<string>>;

/**
 * Undefined (every declared parent's children are read, as without targets) where a target is of a
 * kind children name or read (a member: a rule's reviewer, whose removal waits for every rule that
 * names them to stop), or names a parent, or a child's parent, by no declared parent's name or
 * former name (a live name of a pinned one, a typo: read whole, the plan finds or says which).
 */
export function targetScope(targets: readonly TargetSpec[], desired: readonly DesiredResource[], kinds: readonly AnyKind[]): TargetScope | undefined {
  const children = kinds.filter((k) => k.parentKind !== undefined);
  if (targets.length === 0 || children.length === 0) return undefined;
  const namedByChildren = new Set<KindName>(children.flatMap((k) => k.reads ?? []));
  for (const d of desired) if (d.parent) for (const r of d.refs) namedByChildren.add(r.kind);
  if (targets.some((t) => namedByChildren.has(t.kind))) return undefined;
  const declared = new Set(desired.filter((d) => !d.parent).map((d) => refKey(d.kind, d.key)));
  const parents = new Map<KindName, Set<string>>(children.map((k) => [k.parentKind!, new Set<string>()]));
  // A pinned parent may hold any name live, the one a target gives included (second read SR90C-1):
  // its children are read and planned too, as they would be were its name the target's.
  let pinned: DesiredResource[] | undefined;
  const addPinned = (into: Set<string>, kind: KindName): void => {
    for (const d of (pinned ??= desired.filter((p) => !p.parent && p.pinId))) if (d.kind === kind) into.add(d.key);
  };
  for (const t of targets) {
    const ofKind = parents.get(t.kind);
    if (ofKind) {
      const named = desired.filter((d) => d.kind === t.kind && !d.parent && (d.key === t.key || d.renamedFrom.includes(t.key)));
      if (named.length === 0) return undefined;
      for (const d of named) ofKind.add(d.key);
      addPinned(ofKind, t.kind);
      continue;
    }
    const parentKind = children.find((k) => k.name === t.kind)?.parentKind;
    if (parentKind === undefined) continue;
    // Every start that is a declared parent's name: one may hold a `/` (`P` with rule `X/y`, `P/X` with rule `y`).
    const starts = prefixesOf(t.key);
    const named = starts.filter((p) => declared.has(refKey(parentKind, p)));
    if (named.length === 0) return undefined;
    for (const p of named) parents.get(parentKind)!.add(p);
    // And the declared parents renamed from one: the live parent of that name is theirs, its children
    // theirs to plan (left out, they read as removed from the files and were deleted: probe SB-1).
    for (const d of desired) if (d.kind === parentKind && !d.parent && d.renamedFrom.some((old) => starts.includes(old))) parents.get(parentKind)!.add(d.key);
    addPinned(parents.get(parentKind)!, parentKind);
  }
  return parents;
}

/**
 * The kinds a targeted plan reads and plans: the targets' and those joined to them, kind by kind,
 * by a reference a declared object makes, a read a kind asks for, or a parent and its children,
 * and so on; and the kinds pruning is on for (their undeclared objects are listed as left out).
 * Another kind holds no target and nothing a target waits on, nor anything that waits on one.
 */
export function targetKinds(targets: readonly TargetSpec[], desired: readonly DesiredResource[], kinds: readonly AnyKind[], pruned: readonly KindName[]): ReadonlySet<KindName> | undefined {
  if (targets.length === 0) return undefined;
  const links = new Map<KindName, Set<KindName>>();
  const link = (a: KindName, b: KindName): void => {
    if (a === b) return;
    for (const [from, to] of [[a, b], [b, a]] as const) {
      let set = links.get(from);
      if (!set) links.set(from, (set = new Set()));
      set.add(to);
    }
  };
  for (const k of kinds) {
    if (k.parentKind) link(k.name, k.parentKind);
    for (const r of k.reads ?? []) link(k.name, r);
  }
  for (const d of desired) for (const r of d.refs) link(d.kind, r.kind);
  // An internal kind (the agreements actor every term, template and attachment names) is read for
  // what joins it, but joins nothing itself: through it, a targeted attachment read every term's
  // body (probe DC-1).
  const hubs = new Set(kinds.filter((k) => k.internal).map((k) => k.name));
  const family = new Set<KindName>();
  const queue: KindName[] = [...targets.map((t) => t.kind), ...pruned];
  for (let k = queue.pop(); k !== undefined; k = queue.pop()) {
    if (family.has(k)) continue;
    family.add(k);
    if (!hubs.has(k)) queue.push(...(links.get(k) ?? []));
  }
  return family;
}

/** The declared resources a targeted plan plans: those of its kinds, but the children of parents outside its scope. */
export function inScope(desired: readonly DesiredResource[], scope: TargetScope | undefined, family: ReadonlySet<KindName> | undefined): DesiredResource[] {
  return desired.filter((d) => (!family || family.has(d.kind)) && (!scope || !d.parent || scope.get(d.parent.kind)?.has(d.parent.key) === true));
}

/**
 * The children a scoped plan did not read, one per sync record under a declared parent outside its
 * scope: live as last seen, so a removal's share of the kind in the mass-delete guard is about
 * what it is read whole (the files' count would not be: a new playbook's 40 rules are not live).
 */
export function unreadChildren(scope: TargetScope, desired: readonly DesiredResource[], recorded: Iterable<string>, kinds: readonly AnyKind[]): { kind: KindName }[] {
  const prefixes = new Set<string>();
  for (const d of desired) if (!d.parent && scope.has(d.kind) && !scope.get(d.kind)!.has(d.key)) addChildPrefixes(prefixes, d.kind, d.key, kinds);
  if (prefixes.size === 0) return [];
  const out: { kind: KindName }[] = [];
  for (const key of recorded) {
    const prefix = parentPrefixOf(key, prefixes);
    if (prefix !== undefined) out.push({ kind: prefix.slice(0, prefix.indexOf(':')) as KindName });
  }
  return out;
}
