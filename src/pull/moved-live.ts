/**
 * What pull leaves for a rename or move by hand, of objects renamed or moved in the app, as pull
 * and drift both tell it (drift's closing line says whether pull writes anything). Pure.
 */
import { movedFromOf } from '../engine/direction.js';
import { matchedToDeclared } from '../engine/matched.js';
import type { SyncState } from '../engine/sync.js';
import { refKey, type Change, type DesiredResource, type LiveResource, type Plan } from '../engine/types.js';

export interface MovedLiveInput {
  plan: Pick<Plan, 'ids' | 'changes'>;
  desired: ReadonlyMap<string, DesiredResource>;
  liveById: ReadonlyMap<string, LiveResource>;
  /** The kinds, for those whose identity never changes (a member's e-mail): one under another identity is another object. */
  kinds: readonly { name: string; identityFixed?: true }[];
}

/**
 * The live object a removal's record names (`recordedId`), when it is still live where the files
 * could lose it if pull took the removal out of them: under a name the files declare too, or under
 * a parent they declare (two playbooks that swapped names, a rule renamed onto one the files add).
 */
export function movedLiveOntoDeclared(input: MovedLiveInput): (kind: string, recordedId: string | undefined) => LiveResource | undefined {
  let matched: Map<string, string> | undefined;
  // A live child's parent the files declare, matched by name, old name or pin (moved between
  // declared parents: by hand); true too for an object without a parent, or one whose parent was
  // not read: only a child moved under an undeclared parent is written by pull, with that parent.
  const underDeclaredParent = (l: LiveResource): boolean => {
    const parent = l.parentId ? input.liveById.get(l.parentId) : undefined;
    if (!parent) return true;
    return input.desired.has(refKey(parent.kind, parent.key)) || (matched ??= matchedToDeclared(input.plan, input.desired.values())).has(`${parent.kind}:${parent.id}`);
  };
  const fixed = new Set(input.kinds.filter((k) => k.identityFixed).map((k) => k.name));
  return (kind, recordedId) => {
    // A member under another e-mail is another member, not this one moved (probe OE-1).
    if (fixed.has(kind)) return undefined;
    const now = recordedId !== undefined ? input.liveById.get(recordedId) : undefined;
    return now && now.kind === kind && (input.desired.has(refKey(now.kind, now.key)) || underDeclaredParent(now)) ? now : undefined;
  };
}

/**
 * Whether live object `id`, found under the declared `kind:key` `key`, was last in sync as another
 * object the files declare: moved onto the name in the app (two names swapped or shifted), no
 * object made there under it (probes NB-2, NB-4).
 */
export function syncedAsAnotherDeclared(sync: Pick<SyncState, 'keysWithId'>, id: string, key: string, declared: (kindKey: string) => boolean): boolean {
  return sync.keysWithId(id).some((other) => other !== key && declared(other));
}

/**
 * The `kind:key` a delete changed live was last in sync as, when pull leaves it for a move by hand:
 * moved in the app from an object the files still declare, whose declaration names no other live
 * object made in the app under the old name (syncedAsAnotherDeclared is none). Written too, it
 * would be declared twice.
 */
export function movedFromDeclared(c: Change, sync: Pick<SyncState, 'idOf' | 'byId' | 'keysWithId'>, ids: Readonly<Record<string, string>>, declared: (kindKey: string) => boolean): string | undefined {
  const movedFrom = movedFromOf(c, sync);
  const takenBy = movedFrom === undefined ? undefined : ids[movedFrom];
  if (movedFrom === undefined) return undefined;
  const newcomer = takenBy !== undefined && takenBy !== c.liveId && !syncedAsAnotherDeclared(sync, takenBy, movedFrom, declared);
  return newcomer ? undefined : movedFrom;
}

/**
 * Whether a reference changed live only because what it names was renamed in the app onto a name
 * the files declare too (two terms that swapped names): live names, by `before`, the object the
 * files' name was last in sync as. Pull leaves it (written, it would name the other object).
 */
export function followsSwappedName(d: DesiredResource, c: Pick<Change, 'fields'>, field: string, input: { liveOfKind: (kind: string) => readonly LiveResource[]; declared: (kindKey: string) => boolean; sync: Pick<SyncState, 'idOf'> }): boolean {
  const ref = d.refs.find((r) => r.field === field);
  const named = c.fields.find((f) => f.field === field)?.before;
  if (!ref || typeof named !== 'string') return false;
  const target = input.liveOfKind(ref.kind).find((l) => l.name === named);
  if (!target || !input.declared(refKey(target.kind, target.key))) return false;
  return input.sync.idOf(refKey(ref.kind, ref.key)) === target.id;
}
