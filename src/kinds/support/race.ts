/** What the race guards of several kinds share: live objects as siblings, and the name a duplicate is renamed aside to. */
import { createdAtOf } from '../../api/found.js';
import type { ApiResource } from '../../api/types.js';
import { normName } from '../../engine/normalize.js';
import type { Sibling } from '../../engine/race.js';
import type { ExecContext } from '../kind.js';

/**
 * The live objects with the identity `key` (normalised name, plus a prefix for rules), from a fresh
 * read of the scope `scope` names. The read is kept as an index: one read of twenty thousand rules
 * checks twenty thousand creates (no scan each time), and an apply keeps one read per playbook
 * until its checks end (ids and names, not every rule's text).
 */
export async function freshSiblings(
  ctx: Pick<ExecContext, 'readAfterWrites'>,
  scope: string,
  list: () => Promise<readonly ApiResource<{ name: string }>[]>,
  key: string,
  prefix = '',
): Promise<Sibling[]> {
  // The list itself is shared under `scope` (a find-gone read takes it as a list); its index under a key of its own.
  const index = await ctx.readAfterWrites(`${scope} by key`, async () => indexByKey(await ctx.readAfterWrites(scope, list), prefix));
  return index.get(key) ?? [];
}

function indexByKey(items: readonly ApiResource<{ name: string }>[], prefix: string): ReadonlyMap<string, Sibling[]> {
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

export { asideName, isSetAside } from '../../engine/race.js';
