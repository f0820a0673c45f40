/** What the race guards of several kinds share: live objects as siblings, and the name a duplicate is renamed aside to. */
import { createdAtOf } from '../../api/found.js';
import type { ApiResource } from '../../api/types.js';
import { normName } from '../../engine/normalize.js';
import type { Sibling } from '../../engine/race.js';

/** One fresh read's objects by identity (normalised name, plus a prefix for rules). */
export type SiblingIndex = ReadonlyMap<string, Sibling[]>;

/**
 * The index a fresh list read is kept as: a read of twenty thousand rules checks twenty thousand
 * creates (index it, do not scan it each time), and an apply keeps one read per playbook until its
 * checks end (the index of ids and names, not every rule's text).
 */
export function siblingIndex(items: readonly ApiResource<{ name: string }>[], prefix = ''): SiblingIndex {
  const index = new Map<string, Sibling[]>();
  for (const i of items) {
    const created = createdAtOf(i);
    const sibling: Sibling = { id: i.id, key: `${prefix}${normName(i.attributes.name)}`, ...(created !== undefined ? { createdAt: created } : {}) };
    const same = index.get(sibling.key);
    if (same) same.push(sibling);
    else index.set(sibling.key, [sibling]);
  }
  return index;
}

/** The objects of an indexed read with the identity `key`. */
export function siblingsIn(index: SiblingIndex, key: string): Sibling[] {
  return index.get(key) ?? [];
}

/** A name no configuration declares by accident, that says what the object is and which one it is. */
export function asideName(name: string, id: string): string {
  return `${name} (duplicate ${id.slice(0, 8)}, created by a concurrent docket apply)`;
}
