/** Which live objects a kind should read in detail: those the files declare. */
import { formerKeys, refKey, type DesiredResource, type KindName } from '../../engine/types.js';
import type { ExpectedItem } from '../../api/types.js';
import { expectedByName, TO_THE_END } from '../../api/expected.js';

/**
 * Live objects worth a detailed read: the declared ones, by name, former name, pinned id, or the
 * live id docket last synced them under (an object renamed in the app: without its details the
 * plan would see its rules missing, or its body emptied). `declared` undefined (export) or
 * `readAll` (pull, which writes undeclared objects into files) wants every object.
 */
export async function declaredFilter(
  ctx: { declared?: DesiredResource[]; readAll?: boolean; droppedOnly?: ReadonlySet<KindName>; synced?: () => SyncedIds | Promise<SyncedIds> },
  kind: KindName,
): Promise<(id: string, name: string) => boolean> {
  const declared = ctx.declared;
  if (!declared || (ctx.readAll && !ctx.droppedOnly?.has(kind))) return () => true;
  const ids = declaredIds(declared, kind, await ctx.synced?.());
  const names = new Set<string>();
  for (const d of declared) {
    if (d.kind !== kind) continue;
    names.add(d.key);
    for (const old of d.renamedFrom) names.add(old);
  }
  return (id, name) => ids.has(id) || names.has(name);
}

/** The ids of declared objects of `kind`: pinned, or last synced under their key or a former one (an object renamed in the files and in the app too is matched by that record). */
function declaredIds(declared: readonly DesiredResource[], kind: KindName, synced: SyncedIds | undefined): Set<string> {
  const ids = new Set<string>();
  for (const d of declared) if (d.kind === kind) for (const id of idsOf(d, synced)) ids.add(id);
  return ids;
}

/** The live ids a declared object may have: its pin, and those it was last synced under (its key or a former one). */
export function idsOf(d: DesiredResource, synced: SyncedIds | undefined): Set<string> {
  const ids = new Set<string>();
  if (d.pinId) ids.add(d.pinId);
  for (const kindKey of [refKey(d.kind, d.key), ...formerKeys(d)]) {
    const recorded = synced?.idOf(kindKey);
    if (recorded) ids.add(recorded);
  }
  return ids;
}

/**
 * The declared objects a kind's list should hold, each by the ids it may be found under (pinned,
 * or last synced under its key or a former one) and its names (its own and former ones), and
 * those the declared objects refer to by name. Asked
 * only of a short page that says nothing of paging (api/http.ts), so a list cut at a size the
 * service keeps to itself is read on, not taken as whole, which would plan objects docket made as
 * "removed live" and make them again (probe RE-1), or an object made in the app as new (second read SR88-4).
 */
export function expectedOf(ctx: { declared?: DesiredResource[]; readAll?: boolean; readDropped?: ReadonlySet<KindName>; synced?: () => SyncedIds | Promise<SyncedIds> }, kind: KindName): () => Promise<readonly ExpectedItem[]> {
  // Every live object is wanted (export, pull, drift; a plan's prune reads playbooks, an unpaged list): the whole list.
  if (!ctx.declared || ctx.readAll || ctx.readDropped?.has(kind)) return async () => [TO_THE_END];
  return async () => {
    const synced = await ctx.synced?.();
    const declared = (ctx.declared ?? []).filter((d) => d.kind === kind);
    // And the objects of the kind the files name without declaring them (a rule's reviewer, the
    // agreements actor): not found, the plan says the name is no user (probes RS-4, RW-1).
    const named = new Set<string>();
    for (const d of ctx.declared ?? []) for (const r of d.refs) if (r.kind === kind) named.add(r.key);
    for (const d of declared) named.delete(d.key);
    // One renamed (or pinned, found by its id under another name) is found by a former name; its
    // own may be another live object's, which the plan must see to say so (probe UJ-1): looked for too.
    const ownNames = declared.filter((d) => d.renamedFrom.length > 0 || d.pinId !== undefined).map((d) => ({ ids: [], names: [d.name] }));
    return [...declared.map((d) => ({ ids: [...idsOf(d, synced)], names: [d.name, ...d.renamedFrom] })), ...ownNames, ...expectedByName(named)];
  };
}

/**
 * Whether a declared resource is this live object, as declaredFilter matches them: by name,
 * former name, pinned id, or the id docket last synced it under (its key or a former one).
 */
export function declaresLive(d: DesiredResource, id: string, name: string, synced: SyncedIds | undefined): boolean {
  return d.key === name || d.renamedFrom.includes(name) || d.pinId === id || [refKey(d.kind, d.key), ...formerKeys(d)].some((k) => synced?.idOf(k) === id);
}

/**
 * Live objects of `kind` with a sync record, when the run reads what the files dropped in detail
 * (`readDropped`): those the files dropped since the last sync are among them (drift says their live edits).
 */
export async function droppedFilter(ctx: { readDropped?: ReadonlySet<KindName>; synced?: () => SyncedIds | Promise<SyncedIds> }, kind: KindName): Promise<(id: string) => boolean> {
  const synced = ctx.readDropped?.has(kind) ? await ctx.synced?.() : undefined;
  if (!synced?.keysWithId) return () => false;
  return (id) => synced.keysWithId!(id).some((k) => k.startsWith(`${kind}:`));
}

/**
 * The objects a kind reads in detail (`wanted`): the declared ones (declaredFilter, also given
 * apart: a read of one of those may not fail quietly), and those the files dropped since the last
 * sync where the run reads them (droppedFilter).
 */
export async function detailFilter(ctx: Parameters<typeof declaredFilter>[0] & Parameters<typeof droppedFilter>[0], kind: KindName): Promise<{ wanted: (id: string, name: string) => boolean; declared: (id: string, name: string) => boolean }> {
  const [declared, dropped] = await Promise.all([declaredFilter(ctx, kind), droppedFilter(ctx, kind)]);
  return { wanted: (id, name) => declared(id, name) || dropped(id), declared };
}

/** The live id recorded for `kind:key` (engine/sync.ts's SyncState, or a saved plan's ids). */
export interface SyncedIds {
  idOf(kindKey: string): string | undefined;
  /** Every `kind:key` recorded for a live id (absent: a saved plan's ids, which name declared objects only). */
  keysWithId?(id: string): readonly string[];
}

/**
 * With `--target` (FetchContext.targetedParents): whether the children of a live parent of `kind`
 * are read: one of the declared parents in the plan's scope, matched as declaredFilter matches
 * (by name, former name, pinned id or recorded id). Undefined: every one's.
 */
export async function targetedParentFilter(ctx: { declared?: DesiredResource[]; targetedParents?: ReadonlyMap<KindName, ReadonlySet<string>>; synced?: () => SyncedIds | Promise<SyncedIds> }, kind: KindName): Promise<((id: string, name: string) => boolean) | undefined> {
  const keys = ctx.targetedParents?.get(kind);
  if (!keys) return undefined;
  const synced = await ctx.synced?.();
  const inScope = (ctx.declared ?? []).filter((d) => d.kind === kind && !d.parent && keys.has(d.key));
  return (id, name) => inScope.some((d) => declaresLive(d, id, name, synced));
}
