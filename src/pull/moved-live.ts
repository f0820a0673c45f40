/**
 * Whether the live object a removal's record names is still live where the files could lose it if
 * pull took the removal out of them: under a name the files declare too, or under a parent they
 * declare (renamed or moved in the app: two playbooks that swapped names, a rule renamed onto one the
 * files add). Pull leaves such a removal for a rename by hand, and drift says so. Pure.
 */
import { matchedToDeclared } from '../engine/matched.js';
import { refKey, type DesiredResource, type LiveResource, type Plan } from '../engine/types.js';

export interface MovedLiveInput {
  plan: Pick<Plan, 'ids' | 'changes'>;
  desired: ReadonlyMap<string, DesiredResource>;
  liveById: ReadonlyMap<string, LiveResource>;
}

/** The live object `recordedId` as it is now, when it is still live where the files could lose it (see above); undefined otherwise. */
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
  return (kind, recordedId) => {
    const now = recordedId !== undefined ? input.liveById.get(recordedId) : undefined;
    return now && now.kind === kind && (input.desired.has(refKey(now.kind, now.key)) || underDeclaredParent(now)) ? now : undefined;
  };
}
