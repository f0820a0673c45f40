/** Live children (rules) by their parent's live id: several reports ask for them one parent at a time. */
import { addTo } from '../util/multi-map.js';
import { digest } from './canonical.js';
import { fingerprint } from './diff.js';
import type { Change, KindName, LiveResource } from './types.js';

/** The live children of a live id, from an index built when first asked (most plans never ask). */
export function childrenLookup(live: readonly LiveResource[]): (liveId: string) => readonly LiveResource[] {
  let byParent: Map<string, LiveResource[]> | undefined;
  return (liveId) => {
    if (!byParent) {
      byParent = new Map();
      for (const l of live) if (l.parentId) addTo(byParent, l.parentId, l);
    }
    return byParent.get(liveId) ?? [];
  };
}

/**
 * One fingerprint of a removed parent's live children: a saved plan that archives a playbook
 * archives its rules too, so one edited, made or deleted in the app since makes it stale (probe GB-2).
 */
export function childrenFingerprint(children: readonly LiveResource[]): string {
  return digest(children.map((l) => fingerprint(l)).sort()).slice(0, 16);
}

/**
 * Gives each removal of a parent the fingerprint of the children the plan read of it: where it read
 * some, or `read` says it read them and found none (a parent docket never synced, or one outside
 * `--target`, has none read, which an empty list cannot be told from).
 */
export function fingerprintRemovedChildren(changes: Change[], kinds: readonly { parentKind?: KindName }[], live: readonly LiveResource[], read: (c: Change) => boolean): void {
  const parents = new Set(kinds.flatMap((k) => (k.parentKind ? [k.parentKind] : [])));
  const childrenOf = childrenLookup(live);
  for (const c of changes) {
    if ((c.action !== 'archive' && c.action !== 'delete') || c.parent || !c.liveId || !parents.has(c.kind)) continue;
    const children = childrenOf(c.liveId);
    if (children.length > 0 || read(c)) c.childrenFingerprint = childrenFingerprint(children);
  }
}
