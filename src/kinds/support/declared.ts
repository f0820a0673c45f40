/** Which live objects a kind should read in detail: those the files declare. */
import type { DesiredResource, KindName } from '../../engine/types.js';

/**
 * Live objects worth a detailed read: the declared ones, by name, former name or pinned id.
 * `declared` undefined (export) or `readAll` (pull, which writes undeclared objects into files)
 * wants every object.
 */
export function declaredFilter(ctx: { declared?: DesiredResource[]; readAll?: boolean }, kind: KindName): (id: string, name: string) => boolean {
  const declared = ctx.declared;
  if (!declared || ctx.readAll) return () => true;
  const ids = new Set<string>();
  const names = new Set<string>();
  for (const d of declared) {
    if (d.kind !== kind) continue;
    names.add(d.key);
    for (const old of d.renamedFrom) names.add(old);
    if (d.pinId) ids.add(d.pinId);
  }
  return (id, name) => ids.has(id) || names.has(name);
}
