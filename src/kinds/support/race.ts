/** What the race guards of several kinds share: live objects as siblings, and the name a duplicate is renamed aside to. */
import { createdAtOf } from '../../api/found.js';
import type { ApiResource } from '../../api/types.js';
import { normName } from '../../engine/normalize.js';
import type { Sibling } from '../../engine/race.js';

/** One fresh read's objects by identity, built once per read and shared by every create it checks. */
const indexes = new WeakMap<readonly ApiResource<{ name: string }>[], Map<string, Sibling[]>>();

/**
 * The objects of a fresh list with the identity `key` (normalised name, plus a prefix for rules).
 * A read of twenty thousand rules checks twenty thousand creates: index it, do not scan it each time.
 */
export function siblingsOf(items: readonly ApiResource<{ name: string }>[], key: string, prefix = ''): Sibling[] {
  let index = indexes.get(items);
  if (!index) {
    index = new Map();
    for (const i of items) {
      const created = createdAtOf(i);
      const sibling: Sibling = { id: i.id, key: `${prefix}${normName(i.attributes.name)}`, ...(created !== undefined ? { createdAt: created } : {}) };
      const same = index.get(sibling.key);
      if (same) same.push(sibling);
      else index.set(sibling.key, [sibling]);
    }
    indexes.set(items, index);
  }
  return index.get(key) ?? [];
}

/** A name no configuration declares by accident, that says what the object is and which one it is. */
export function asideName(name: string, id: string): string {
  return `${name} (duplicate ${id.slice(0, 8)}, created by a concurrent docket apply)`;
}
