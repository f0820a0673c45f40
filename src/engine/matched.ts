/**
 * Which live objects a plan matched to declared ones, read back from the plan itself: its `ids`
 * name a live object for every `kind:key` it saw, matched or not, so a key the plan creates (no
 * live object was matched to it) names none. Pure.
 */
import { CREATE_ACTIONS, refKey, type DesiredResource, type Plan } from './types.js';

/** `kind:liveId` → the declared key the plan matched that live object to. */
export function matchedToDeclared(plan: Pick<Plan, 'ids' | 'changes'>, desired: Iterable<Pick<DesiredResource, 'kind' | 'key'>>): Map<string, string> {
  const created = new Set(plan.changes.filter((c) => CREATE_ACTIONS.includes(c.action) && !c.liveId).map((c) => refKey(c.kind, c.key)));
  const out = new Map<string, string>();
  for (const d of desired) {
    const key = refKey(d.kind, d.key);
    const id = created.has(key) ? undefined : plan.ids[key];
    if (id !== undefined) out.set(`${d.kind}:${id}`, d.key);
  }
  return out;
}
