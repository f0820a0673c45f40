/**
 * What a targeted plan reads of parents' children (a playbook's rules): those of the parents the
 * targets name only. A plan of one playbook in an organization of 500 read all 500 rule lists
 * (probe RJ-3), where the changes it keeps are the targets' and what they depend on, never a rule
 * of another playbook. Pure.
 */
import type { AnyKind } from '../kinds/index.js';
import type { TargetSpec } from './target.js';
import { prefixesOf, refKey, type DesiredResource, type KindName } from './types.js';

export interface TargetScope {
  /** Per parent kind, the names the targets give its objects (FetchContext.targetedParents). */
  names: ReadonlyMap<KindName, ReadonlySet<string>>;
  /** The declared parents (`kind:key`) the targets name, by their name or a former one: only their children are planned. */
  parents: ReadonlySet<string>;
}

/**
 * Undefined (every declared parent's children are read, as without targets) where a target is of a
 * kind children name or read (a member: a rule's reviewer, whose removal waits for every rule that
 * names them to stop), or names a child under no declared parent's name (a former one, a typo: the
 * plan says which, from every parent's children).
 */
export function targetScope(targets: readonly TargetSpec[], desired: readonly DesiredResource[], kinds: readonly AnyKind[]): TargetScope | undefined {
  const children = kinds.filter((k) => k.parentKind !== undefined);
  if (targets.length === 0 || children.length === 0) return undefined;
  const namedByChildren = new Set<KindName>(children.flatMap((k) => k.reads ?? []));
  for (const d of desired) if (d.parent) for (const r of d.refs) namedByChildren.add(r.kind);
  if (targets.some((t) => namedByChildren.has(t.kind))) return undefined;
  const declared = new Set(desired.filter((d) => !d.parent).map((d) => refKey(d.kind, d.key)));
  const names = new Map<KindName, Set<string>>(children.map((k) => [k.parentKind!, new Set<string>()]));
  for (const t of targets) {
    const named = names.get(t.kind);
    if (named) {
      named.add(t.key);
      continue;
    }
    const parentKind = children.find((k) => k.name === t.kind)?.parentKind;
    if (parentKind === undefined) continue;
    // The longest start that is a declared parent's name: a parent's name may hold a `/`.
    const parent = prefixesOf(t.key).findLast((p) => declared.has(refKey(parentKind, p)));
    if (parent === undefined) return undefined;
    names.get(parentKind)!.add(parent);
  }
  const parents = new Set<string>();
  for (const d of desired) {
    const named = d.parent ? undefined : names.get(d.kind);
    if (named && (named.has(d.key) || d.renamedFrom.some((old) => named.has(old)))) parents.add(refKey(d.kind, d.key));
  }
  return { names, parents };
}

/** The declared resources a scoped plan plans: all but the children of parents outside its scope. */
export function inScope(desired: readonly DesiredResource[], scope: TargetScope): DesiredResource[] {
  return desired.filter((d) => !d.parent || scope.parents.has(refKey(d.parent.kind, d.parent.key)));
}
