/** Where a declared object's sync record may be filed: under its names and its playbook's, as the files give them. Pure. */
import { formerKeys, refKey, type DesiredResource } from '../engine/types.js';

/** The declared objects by `kind:key`. */
export function declaredByKey(desired: readonly DesiredResource[]): Map<string, DesiredResource> {
  return new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
}

/**
 * Every key the record of `d` may be filed under: its name and former names, under its playbook's
 * name and former names (`parents`: the declared objects by `kind:key`). Built from the names, not
 * by cutting keys at a `/`, which a playbook's name may hold (second read SR86B-1).
 */
export function historyKeys(d: DesiredResource, parents: ReadonlyMap<string, DesiredResource>): string[] {
  if (!d.parent) return [refKey(d.kind, d.key), ...formerKeys(d)];
  const parentNames = [d.parent.key, ...(parents.get(refKey(d.parent.kind, d.parent.key))?.renamedFrom ?? [])];
  const names = [d.key.slice(d.parent.key.length + 1), ...d.renamedFrom];
  return parentNames.flatMap((p) => names.map((n) => refKey(d.kind, `${p}/${n}`)));
}
