/** What the race guards of several kinds share: live objects as siblings, and the name a duplicate is renamed aside to. */
import type { ApiResource } from '../../api/types.js';
import { normName } from '../../engine/normalize.js';
import type { Sibling } from '../../engine/race.js';

/** Objects of a fresh list as siblings, keyed by their normalised name (plus a prefix, for rules). */
export function siblingsOf(items: readonly ApiResource<{ name: string }>[], prefix = ''): Sibling[] {
  return items.map((i) => {
    const created = (i.attributes as { created_at?: unknown }).created_at;
    return { id: i.id, key: `${prefix}${normName(i.attributes.name)}`, ...(typeof created === 'string' ? { createdAt: created } : {}) };
  });
}

/** A name no configuration declares by accident, that says what the object is and which one it is. */
export function asideName(name: string, id: string): string {
  return `${name} (duplicate ${id.slice(0, 8)}, created by a concurrent docket apply)`;
}
