/**
 * Live names pull will not write into the files, as validate would refuse them there: names two
 * live objects share (or look to), and names that look like another the files declare. One place
 * for pull, which refuses them, and drift, which must not send users to pull for them. Pure.
 */
import { HIDDEN_PARTS } from '../config/url-secrets.js';
import { quoteValue } from '../config/quote.js';
import { alikeIn, lookAlike, shownAlike } from '../engine/desired.js';
import type { DesiredResource, KindName, LiveResource } from '../engine/types.js';

/**
 * Why a live object may not be written: others of its kind and scope have its name, or one that
 * looks the same (made through the API, which takes them), or others of its kind its key (a `/`
 * in names: rule "X/Y" of playbook "K" and rule "Y" of playbook "K/X"). Counted when first asked.
 */
export function sharedLiveNames(live: readonly LiveResource[], parentKindOf: (kind: KindName) => KindName | undefined): (l: LiveResource) => string | undefined {
  const slot = (o: LiveResource): string => `${o.kind}\u0000${o.parentId ?? ''}\u0000${shownAlike(o.name)}`;
  const keySlot = (o: LiveResource): string => `${o.kind}\u0000\u0000${shownAlike(o.key)}`;
  let looks: Map<string, number> | undefined;
  return (l) => {
    if (!looks) {
      const counted = (looks = new Map<string, number>());
      const count = (at: string): void => void counted.set(at, (counted.get(at) ?? 0) + 1);
      for (const o of live) (count(slot(o)), o.parentId !== undefined && count(keySlot(o)));
    }
    const count = looks.get(slot(l)) ?? 0;
    const parent = l.parentId ? parentKindOf(l.kind) : undefined;
    if (count >= 2) return `${count} live ${l.kind} objects${parent ? ` of one ${parent}` : ''} are named ${quoteValue(l.name)} (or look so), which validate refuses in the files; rename all but one in the app, then pull again`;
    const sharingKey = l.parentId !== undefined ? (looks.get(keySlot(l)) ?? 0) : 0;
    if (sharingKey < 2) return undefined;
    return `${sharingKey} live ${l.kind} objects are ${l.kind} ${quoteValue(l.key)} (a \`/\` in the names of ${l.kind}s or ${parent}s makes them one), which validate refuses in the files; rename all but one in the app, then pull again`;
  };
}

/**
 * Why a live name may not be written: it looks like the name of another object the files declare
 * in its scope (a trailing space, a zero-width character typed in the app). `self`: the declared
 * object the name would be written to, which it may look like. `leaving`: whether a declared
 * object is taken out of the files by this pull (asked when a name is checked): its name is free.
 */
export function lookAlikeDeclared(desired: readonly DesiredResource[], leaving: (d: DesiredResource) => boolean = () => false): (kind: KindName, parentKey: string | undefined, name: string, self?: DesiredResource) => string | undefined {
  const slot = (k: string, parent: string | undefined, n: string): string => `${k}\u0000${parent ?? ''}\u0000${shownAlike(n)}`;
  let declared: Map<string, DesiredResource> | undefined;
  return (kind, parentKey, name, self) => {
    declared ??= new Map(desired.map((d) => [slot(d.kind, d.parent?.key, d.name), d]));
    const other = declared.get(slot(kind, parentKey, name));
    if (!other || other === self || other.name === name || leaving(other)) return undefined;
    const why = lookAlike(other.name) === lookAlike(name) ? alikeIn(name, other.name) : `what output hides as it may hold a secret (${HIDDEN_PARTS})`;
    return `its name ${quoteValue(name)} looks like ${kind} ${quoteValue(other.name)}, which the files declare (they differ only in ${why}), so validate would refuse it; rename it in the app, then pull again`;
  };
}

/**
 * Whether pull leaves a drift item for its name (above): an object only live whose name is shared
 * live or looks like a declared one, or one renamed in the app onto such a name. Drift asks it so
 * as not to send users to pull for what pull refuses; built when first asked.
 */
export function pullRefusesName(live: readonly LiveResource[], desired: readonly DesiredResource[], parentKindOf: (kind: KindName) => KindName | undefined): (item: { kind: KindName; key: string; direction: string; live_name?: string }) => boolean {
  let refused: Set<string> | undefined;
  let declared: Map<string, DesiredResource> | undefined;
  const alike = lookAlikeDeclared(desired);
  return (item) => {
    declared ??= new Map(desired.map((d) => [`${d.kind}:${d.key}`, d]));
    if (item.live_name !== undefined) {
      const self = declared.get(`${item.kind}:${item.key}`);
      if (alike(item.kind, self?.parent?.key, item.live_name, self) !== undefined) return true;
    }
    if (item.direction !== 'only-live') return false;
    if (!refused) {
      refused = new Set();
      const shared = sharedLiveNames(live, parentKindOf);
      const keyOf = new Map(live.map((l) => [l.id, l.key]));
      for (const l of live) {
        if (declared.has(`${l.kind}:${l.key}`)) continue;
        const parentKey = l.parentId !== undefined ? keyOf.get(l.parentId) : undefined;
        if (shared(l) !== undefined || alike(l.kind, parentKey, l.name) !== undefined) refused.add(`${l.kind}:${l.key}`);
      }
    }
    return refused.has(`${item.kind}:${item.key}`);
  };
}
