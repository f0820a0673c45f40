/**
 * Direction: for every change, which side moved since docket last saw the object in sync (the
 * sync records of engine/sync.ts), so a plan tells "someone edited the rule in the app" from
 * "this change to the files edits the rule". Then the `drift:` policies: live-side changes of an
 * object whose policy is `adopt` or `ignore` leave the plan (apply never reverts them) and are
 * kept aside as held drift. Pure.
 */
import { CREATE_ACTIONS, formerKeys, keepsFilesFromPull, leavesLiveEdits, refKey } from './types.js';
import type { Change, DesiredResource, Direction, DriftPolicy, FieldChange, FieldDirection, KindName, LiveResource } from './types.js';
import { declaredAt } from './change-source.js';
import { addTo } from '../util/multi-map.js';
import { addRenameDigests, fieldHash, keysFiledNow, NOT_KEPT, recordHolds, type NamingKind, type SyncRecord, type SyncState } from './sync.js';
import { checkedFields, fingerprint } from './diff.js';

/** Changes on the live side: what `docket drift` reports and `docket pull` adopts. */
export const DRIFT_DIRECTIONS: ReadonlySet<Direction> = new Set<Direction>(['changed-live', 'changed-both', 'unknown', 'only-live', 'removed-live']);

/** How each direction reads in plans and reports. */
export const DIRECTION_LABEL: Record<Direction, string> = {
  'changed-live': 'changed live',
  'changed-in-files': 'changed in files',
  'changed-both': 'changed live and in files',
  unknown: 'changed, direction unknown',
  'only-live': 'only live',
  'removed-in-files': 'removed from files',
  'only-in-files': 'only in files',
  'removed-live': 'removed live',
};

/** How a drift line starts: an object only live is added back to the files, one removed live taken out. */
export function directionSign(direction: Direction): string {
  return direction === 'only-live' ? '+' : direction === 'removed-live' ? '-' : '~';
}

/** A field whose change may be live-side: unknown (or not known at all) counts, since nothing says the files moved. */
export function liveSide(direction: FieldDirection | undefined): boolean {
  return direction === undefined || direction === 'live' || direction === 'unknown';
}

export function isDrift(direction: Direction | undefined): boolean {
  return direction !== undefined && DRIFT_DIRECTIONS.has(direction);
}

export interface ClassifyInput {
  /** Fields of each kind that are never recorded (sensitive ones): their direction is unknown. */
  sensitive: ReadonlyMap<KindName, readonly string[]>;
  /**
   * Kinds the services cannot list (attachments), or list only in part (members without a users
   * list): one missing says docket cannot see it, not that the object was removed live.
   */
  unlisted?: ReadonlySet<KindName>;
  desired: readonly DesiredResource[];
  live: readonly LiveResource[];
  sync: SyncState;
}

export interface ClassifyResult {
  /** The plan's changes, each with its direction; those a policy holds back are gone. */
  changes: Change[];
  /** Live-side drift held back by `drift: adopt` or `drift: ignore`. */
  held: Change[];
  /** Objects held by the policy of another declared object the app moved onto their name (movedOwner), with that object's `kind:key`. */
  heldForMoved?: { change: Pick<Change, 'kind' | 'key' | 'source'>; owner: string; policy: 'adopt' | 'ignore'; fresh?: true }[];
}

/**
 * The record of a live object: the one its own identity keeps when that names this object (asked
 * first: finding the others needs an index of every record by id), else one another identity
 * keeps for it (renamed in the app), else its identity's record of another object.
 */
export function syncedRecordOf(sync: SyncState, liveId: string | undefined, key: string): SyncRecord | undefined {
  return ownRecord(sync, liveId, key) ?? sync.byKey.get(key);
}

/**
 * The identity (`kind:key`) the live object `liveId`, matched by name to `d`, was last in sync
 * under, when the object was renamed in the app onto the name of another object the files declare
 * (two objects swapping names): that identity is still declared, `d` does not carry it over (no
 * `renamed_from` or pinned id naming it), and the files still hold at this name exactly what the
 * name held when last in sync. Its record is then the other object's history, and what moved is
 * live. Files that changed here since (the swap followed by hand in the files, before an apply
 * recorded it) read against the live object's own record, as any rename.
 */
export function renamedOnto(
  sync: SyncState,
  d: DesiredResource,
  live: Pick<LiveResource, 'id' | 'name'>,
  declared: (kindKey: string) => boolean,
  heirOf?: (kindKey: string) => string | undefined,
): string | undefined {
  const key = refKey(d.kind, d.key);
  if (sync.idOf(key) === live.id) return undefined;
  const filed = sync.byId.get(live.id)?.key;
  // Read as the files' renames of parents read it: a parent renamed away along a chain gave the
  // name it was filed under to another (probe RD-1).
  const other = filed === undefined ? undefined : keysFiledNow(sync, filed, live.id).find(declared);
  // A `renamed_from` carries the former identity over to an object still named otherwise (the
  // files' rename to make); one already at this name, which was last synced as another object,
  // has it done (files kept as history after a renumbering the app then repeated: probe KU-4).
  const carried = d.pinId === live.id || (live.name !== d.name && carriesOver(d, other ?? '', live.id));
  if (other === undefined || other === key || carried) return undefined;
  const held = nameHistory(sync, key, heirOf);
  return held !== undefined && filesAsRecorded(d, held) ? other : undefined;
}

/**
 * What the name `key` held when last in sync: its own record, or, once the files renamed the
 * object that held it away (a `renamed_from` naming it, as pull writes for a move in the app),
 * that object's record: the name's history, which the object moved onto it is compared with (probe
 * MM-2: without it, the files' value read as their own change, and apply overwrote the move).
 */
export function nameHistory(sync: SyncState, key: string, heirOf?: (kindKey: string) => string | undefined): SyncRecord | undefined {
  const own = sync.byKey.get(key);
  if (own !== undefined) return own;
  const heir = heirOf?.(key);
  return heir === undefined ? undefined : sync.byKey.get(heir);
}

/** The declared object whose `renamed_from` names each former identity, by that identity (`kind:key`). */
export function heirsOf(desired: Iterable<DesiredResource>): (kindKey: string) => string | undefined {
  let heirs: Map<string, string> | undefined;
  return (kindKey) => {
    if (!heirs) {
      heirs = new Map();
      for (const d of desired) for (const former of formerKeys(d)) heirs.set(former, refKey(d.kind, d.key));
    }
    return heirs.get(kindKey);
  };
}

/** Whether every field the record holds, but the name (an heir's is its own), still has the recorded value in the files. */
function filesAsRecorded(d: DesiredResource, record: SyncRecord): boolean {
  return changedSinceRecord(d, record).every((field) => field === 'name');
}

/** The fields the record holds whose value in the files is no longer the recorded one (one not kept was edited on neither side). */
export function changedSinceRecord(d: DesiredResource, record: SyncRecord): string[] {
  return Object.keys(record.fields).filter((field) => record.fields[field] !== NOT_KEPT && fieldHash(d.fields[field]) !== record.fields[field]);
}

/**
 * The fields of an object the files removed that changed live since the last sync: applying the
 * removal loses that edit. Only fields live holds a value for are compared (a removal lists those).
 */
export function editedLiveSince(c: Change, sync: SyncState): string[] {
  if (!removedFromFiles(c)) return [];
  const record = ownRecord(sync, c.liveId, refKey(c.kind, c.key));
  return record ? movedSince(record, Object.fromEntries(c.fields.map((f) => [f.field, f.before]))) : [];
}

/**
 * The fields edited in the app since the last sync of an object the plan deletes because it moved
 * there (a rule that went with its playbook's swap of names, last in sync under another name the
 * files still declare): the delete takes the edit with it, unsaid until now (probe NB-6).
 */
export function editedLiveSinceMoved(c: Change, sync: SyncState): string[] {
  if (c.action !== 'delete' || c.direction !== 'changed-live' || !c.liveId) return [];
  const record = sync.byId.get(c.liveId);
  // Its name is the move itself (a rule moved aside under another name), no edit (second read SR77-5).
  return record ? movedSince(record, Object.fromEntries(c.fields.filter((f) => f.field !== 'name').map((f) => [f.field, f.before]))) : [];
}

/**
 * The fields the files changed since the last sync of an object removed live (the create that
 * would put it back): pull leaves such an object in the files, so its removal is not for it to
 * adopt. Sensitive fields are in no record, and so never compared.
 */
export function editedInFilesSince(c: Change, sync: SyncState, declared?: ReadonlyMap<string, Pick<DesiredResource, 'kind' | 'key' | 'parent' | 'renamedFrom'>>): string[] {
  if (c.direction !== 'removed-live') return [];
  const d = declared?.get(refKey(c.kind, c.key));
  const record = d ? recordOfDeclared(d, sync, (key) => declared!.has(key))?.[1] : sync.byKey.get(refKey(c.kind, c.key));
  return record ? movedSince(record, Object.fromEntries(c.fields.map((f) => [f.field, f.after]))) : [];
}

/**
 * The record (and its key) of what the files declare as `d`: under its name, or, renamed in the
 * files (`renamed_from`) since the last sync, under a former name no other document declares. Such
 * a rename is the files' edit: removed live, the object stays in the files and is made again, as
 * after an edit of any other field (probe HO-1, HR-2).
 */
export function recordOfDeclared(d: Pick<DesiredResource, 'kind' | 'key' | 'parent' | 'renamedFrom'>, sync: Pick<SyncState, 'byKey'>, declared: (kindKey: string) => boolean): [string, SyncRecord] | undefined {
  const key = refKey(d.kind, d.key);
  const recorded = sync.byKey.get(key);
  if (recorded) return [key, recorded];
  for (const former of formerKeys(d)) {
    const then = declared(former) ? undefined : sync.byKey.get(former);
    if (then) return [former, then];
  }
  return undefined;
}

/**
 * The declared children of a parent (`kind:key`) that the files changed or added since the last
 * sync: a parent removed live stays in the files for them, also when a --target left them out of the plan.
 */
export function childrenEditedInFiles(desired: Iterable<DesiredResource>, sync: SyncState, parent: string): DesiredResource[] {
  const edited: DesiredResource[] = [];
  // Read once: a caller's iterator (a map's values) would be used up by the declared keys' set.
  const all = [...desired];
  let keys: Set<string> | undefined;
  for (const d of all) {
    if (!d.parent || refKey(d.parent.kind, d.parent.key) !== parent) continue;
    // A former name another document declares is that one's (read only for a child renamed in the files).
    const record = recordOfDeclared(d, sync, (key) => (keys ??= new Set(all.map((x) => refKey(x.kind, x.key)))).has(key))?.[1];
    // None: added in the files since (or never applied), which taking the parent out would lose (probe LK-1).
    if (!record || changedSinceRecord(d, record).length > 0) edited.push(d);
  }
  return edited;
}

/**
 * The declared children, by parent (`kind:key`), whose own policy keeps the files from pull
 * (`revert`, `ignore`) and that were in sync (so removed live with a parent removed live): pull
 * leaves such a parent in the files with all its children, and apply makes it again, also when a
 * --target left those children out of the plan (second read). Indexed on the first question.
 */
export function childrenKeptByPolicy(desired: Iterable<DesiredResource>, sync: Pick<SyncState, 'byKey'>): (parent: string) => readonly DesiredResource[] {
  let byParent: Map<string, DesiredResource[]> | undefined;
  return (parent) => {
    if (!byParent) {
      byParent = new Map();
      for (const d of desired) {
        if (d.parent && keepsFilesFromPull(d.policy?.drift) && sync.byKey.get(refKey(d.kind, d.key)) !== undefined) addTo(byParent, refKey(d.parent.kind, d.parent.key), d);
      }
    }
    return byParent.get(parent) ?? [];
  };
}

/** Work done in the app inside an object the files removed: a child edited since the last sync (its fields), or one no sync record names (`made`: made in the app since, or never recorded). */
export interface ChildWork {
  child: LiveResource;
  fields: string[];
  made?: true;
}

/**
 * The live children (rules) of an object the files removed that were edited or made live since
 * the last sync: removing the parent takes them along. `childrenOf` gives the live children of a
 * live id.
 */
export function childrenEditedLive(c: Change, sync: SyncState, childrenOf: (liveId: string) => readonly LiveResource[]): ChildWork[] {
  if (!removedFromFiles(c) || c.parent) return [];
  return editedLiveChildren(c.liveId!, sync, childrenOf);
}

/**
 * A live object the files dropped: the fields that changed live since the last sync, which
 * removing it (now with prune, or later) takes along. Its own record only: one made in the app
 * under its name since is another object.
 */
export function droppedEditedLive(l: LiveResource, sync: SyncState, renames?: LiveRenames): string[] {
  const record = ownRecord(sync, l.id, refKey(l.kind, l.key));
  return record ? movedSince(record, l.fields, renames?.get(l.kind)) : [];
}

/** Per kind, per field naming another kind's objects by name: the digest of a name as live holds it → as the files give it. */
export type LiveRenames = ReadonlyMap<string, ReadonlyMap<string, ReadonlyMap<string, string>>>;

/**
 * What the plan's renames make of a name as live holds it in the fields that name objects of the
 * renamed kind (the kinds' \`namesByName\`): the name the files (and so the records of what names
 * it) still give it, alone or as a list of one. An object the files dropped that names a term
 * renamed in the app since names it as live does, which is no edit of its own (the next apply or
 * pull records the rename, and its record follows).
 */
export function liveRenames(changes: readonly Change[], kinds: readonly NamingKind[]): LiveRenames {
  const byKind = new Map<string, Map<string, string>>();
  for (const c of changes) {
    if (c.action !== 'rename' || c.parent) continue;
    const name = c.fields.find((f) => f.field === 'name');
    if (typeof name?.before === 'string' && typeof name.after === 'string') addRenameDigests(byKind, c.kind, name.before, name.after);
  }
  const out = new Map<string, Map<string, ReadonlyMap<string, string>>>();
  if (byKind.size === 0) return out;
  for (const k of kinds) {
    for (const [field, named] of Object.entries(k.namesByName ?? {})) {
      const digests = byKind.get(named);
      if (!digests) continue;
      let fields = out.get(k.name);
      if (!fields) out.set(k.name, (fields = new Map()));
      fields.set(field, digests);
    }
  }
  return out;
}

/** The live children of `liveId` edited live since the last sync (with those fields), or made there since (no record). */
export function editedLiveChildren(liveId: string, sync: SyncState, childrenOf: (liveId: string) => readonly LiveResource[]): ChildWork[] {
  return childrenOf(liveId).flatMap((child): ChildWork[] => {
    const record = ownRecord(sync, child.id, refKey(child.kind, child.key));
    if (!record) return [{ child, fields: [], made: true }];
    const fields = movedSince(record, child.fields);
    return fields.length > 0 ? [{ child, fields }] : [];
  });
}

/** The record of live object `liveId` itself (under `key` when that one is its), not of another object that held its name. */
function ownRecord(sync: SyncState, liveId: string | undefined, key: string): SyncRecord | undefined {
  if (!liveId) return undefined;
  const named = sync.byKey.get(key);
  return named?.id === liveId ? named : sync.byId.get(liveId);
}

/** A delete or archive of a live object because the files no longer declare it. */
function removedFromFiles(c: Change): boolean {
  return (c.action === 'delete' || c.action === 'archive') && c.direction === 'removed-in-files' && Boolean(c.liveId);
}

/** The fields of `values` (either side's) that the record holds another value for (one not kept was edited on neither side). */
function movedSince(record: SyncRecord, values: Readonly<Record<string, unknown>>, renames?: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] {
  return Object.keys(values).filter((f) => {
    const recorded = record.fields[f];
    if (recorded === undefined || recorded === NOT_KEPT) return false;
    const now = fieldHash(values[f]);
    return now !== recorded && renames?.get(f)?.get(now) !== recorded;
  });
}

/**
 * The identity (`kind:key`) a change's live object was last in sync under, when that is not the
 * change's own (moved in the app). The index by id is built only when the name's own record is of
 * another object.
 */
export function syncedAsOther(c: Pick<Change, 'kind' | 'key' | 'liveId'>, sync: Pick<SyncState, 'idOf' | 'byId'>): string | undefined {
  if (!c.liveId || sync.idOf(refKey(c.kind, c.key)) === c.liveId) return undefined;
  return sync.byId.get(c.liveId)?.key;
}

/**
 * The `drift:` policy a live change is under: the object's own, or for a removed child (a delete)
 * the parent's that declares it; an object moved in the app (renamed, and a new one made under its
 * old name) keeps the policy of the declared object it was last in sync as: its removal is that
 * object's live change. One rule for plan, drift and pull.
 */
export function governingPolicy(c: Change, declared: (kindKey: string) => DesiredResource | undefined, sync: Pick<SyncState, 'idOf' | 'byId'>, movedFrom = movedFromOf(c, sync)): DriftPolicy | undefined {
  const moved = movedFrom !== undefined ? declared(movedFrom)?.policy?.drift : undefined;
  if (moved !== undefined) return moved;
  if (c.action === 'delete') return c.parent ? declared(refKey(c.parent.kind, c.parent.key))?.policy?.drift : undefined;
  // Another live object of a pinned one's name is no file's: the pinned one's policy is not its own (probe EE-2).
  if (c.namesake) return undefined;
  return declared(refKey(c.kind, c.key))?.policy?.drift;
}

/** A delete changed live is of an object moved in the app: the `kind:key` it was last in sync as. */
export function movedFromOf(c: Change, sync: Pick<SyncState, 'idOf' | 'byId'>): string | undefined {
  return c.action === 'delete' && c.direction === 'changed-live' ? syncedAsOther(c, sync) : undefined;
}

/** Whether the declared object takes over the identity `kindKey` of live object `liveId`. */
function carriesOver(d: DesiredResource, kindKey: string, liveId: string): boolean {
  if (d.pinId === liveId) return true;
  return formerKeys(d).includes(kindKey);
}

export function classifyChanges(changes: readonly Change[], input: ClassifyInput): ClassifyResult {
  // No change to classify: the indexes below would cover 20,000 declared and live objects for nothing.
  if (changes.length === 0) return { changes: [], held: [] };
  const { desired, liveById } = indexFor(changes, input);
  let declaredKeys: Set<string> | undefined;
  const declared = (kindKey: string): boolean => (declaredKeys ??= new Set(input.desired.map((d) => refKey(d.kind, d.key)))).has(kindKey);
  const heirOf = heirsOf(input.desired);
  const kept: Change[] = [];
  const held: Change[] = [];
  /** Parents whose create a policy holds back, with that policy: their children's creates cannot run either. */
  const heldParents = new Map<string, 'adopt' | 'ignore'>();
  let liveIds: Set<string> | undefined;
  const isLive = (id: string): boolean => (liveIds ??= new Set(input.live.map((l) => l.id))).has(id);
  let carried: { keys: Set<string>; pins: Map<string, string> } | undefined;
  /**
   * Whether a declared object carries over identity `kindKey` (of the object, or of its parent: a
   * rule moved with its renamed playbook) from live object `liveId`, which is still live.
   */
  const takenOver = (kindKey: string, liveId: string): boolean => {
    carried ??= {
      keys: new Set(input.desired.flatMap(formerKeys)),
      pins: new Map(input.desired.flatMap((d) => (d.pinId ? [[d.pinId, refKey(d.kind, d.key)] as const] : []))),
    };
    // Pinned by another declared object; not its own pin, which no longer holds it (an identity changed in the app: probe PD-1).
    const pinnedBy = carried.pins.get(liveId);
    return (carried.keys.has(kindKey) || (pinnedBy !== undefined && pinnedBy !== kindKey)) && isLive(liveId);
  };
  let liveChildren: Map<string, LiveResource> | undefined;
  /**
   * Whether the child last synced under a key is live under that key still, in another parent:
   * rule `A/B` of playbook `P` and rule `B` of playbook `P/A` share the key `P/A/B`, and a create
   * of one is no removal of the other (probe FU). (One that moved with its parent's rename in the
   * app is live under another key.)
   */
  const livesElsewhere = (liveId: string, key: string, parentId: string | undefined): boolean => {
    liveChildren ??= new Map(input.live.filter((l) => l.parentId !== undefined).map((l) => [l.id, l]));
    const l = liveChildren.get(liveId);
    return l !== undefined && l.key === key && l.parentId !== parentId;
  };
  /**
   * The policy of the declared object whose live object this change writes to (an update of it, a
   * rule made in it), when the app moved that object onto a name the files give another (two
   * playbooks that swapped names): when it leaves live edits alone, the other name's revert, which
   * would write the other's content onto it, is held with it. Else one half of the swap was
   * reverted onto the held object and the two never converged (probe NC-1).
   */
  const movedOwner = (c: Change): { owner: string; policy: 'adopt' | 'ignore'; fresh?: true } | undefined => {
    const [kind, key, liveId] = CREATE_ACTIONS.includes(c.action) || c.action === 'delete' ? [c.parent?.kind, c.parent?.key, c.parent?.liveId] : [c.kind, c.key, c.liveId];
    if (kind === undefined || key === undefined || liveId === undefined) return undefined;
    const d = desired.get(refKey(kind, key));
    const l = liveById.get(liveId);
    if (!d || !l) return undefined;
    const swapped = renamedOnto(input.sync, d, l, declared, heirOf);
    // Or renamed in the app onto a name new to docket that the files give a new object: all the
    // files say of that one would be written onto the held object (probe NJ-2).
    const onto = swapped ?? freshNameOnto(d, l);
    const policy = onto !== undefined ? desired.get(onto)?.policy?.drift : undefined;
    if (onto === undefined || (policy !== 'adopt' && policy !== 'ignore')) return undefined;
    return swapped !== undefined ? { owner: onto, policy } : { owner: onto, policy, fresh: true };
  };
  /** The declared object live object `l` was last synced as, when `d` holds a name docket never synced and does not take `l` over. */
  const freshNameOnto = (d: DesiredResource, l: LiveResource): string | undefined => {
    const key = refKey(d.kind, d.key);
    if (nameHistory(input.sync, key, heirOf) !== undefined) return undefined;
    const filed = input.sync.byId.get(l.id)?.key;
    const other = filed === undefined ? undefined : keysFiledNow(input.sync, filed, l.id).find(declared);
    return other !== undefined && other !== key && !carriesOver(d, other, l.id) ? other : undefined;
  };
  const heldForMoved: NonNullable<ClassifyResult['heldForMoved']> = [];
  /** The direction of each create and upload, by what it makes: a re-point to it takes its side. */
  const directionOf = new Map<string, Direction>();
  /** `kind` NUL the digest of a former name (`renamed_from`) → the identities (`kind:key`) it and the name it became were synced under. */
  let renamedFromDigest: Map<string, string[]> | undefined;
  /**
   * Whether a reference reads as moved live only because the files renamed what it names
   * (`renamed_from`) and an apply made that rename without this object's re-point (a `--target`,
   * a create under the old name that failed): it still links, by id, the object it was synced
   * with, whatever that object is called now (an app rename since too), so the re-point the files
   * ask for is their change (probe HC). By id: a link the app moved to another object is the app's.
   */
  const renamedByFiles = (c: Change, field: string, l: LiveResource, record: SyncRecord): boolean => {
    const ref = c.refs.find((r) => r.field === field);
    const linked = l.refIds?.[field];
    if (!ref || typeof linked !== 'string') return false;
    if (!renamedFromDigest) {
      renamedFromDigest = new Map();
      for (const d of input.desired) {
        // Recorded under the old name until the rename is applied, under the new one after.
        // Not under a former name another declared object holds now (a new term made under it): a
        // link to that object is moved by the app, not by the files' rename (probe NN-1).
        for (const name of d.renamedFrom) {
          const former = refKey(d.kind, name);
          for (const key of declared(former) ? [refKey(d.kind, d.key)] : [former, refKey(d.kind, d.key)]) addTo(renamedFromDigest, `${d.kind}\u0000${fieldHash(name)}`, key);
        }
      }
    }
    return (renamedFromDigest.get(`${ref.kind}\u0000${record.fields[field]}`) ?? []).some((key) => input.sync.idOf(key) === linked);
  };
  /** The record of what a create makes again: removed live, renamed in the files or not (recordOfDeclared), as its children read (probe HO-1). */
  const createRecord = (c: Change, own: DesiredResource | undefined): [string, SyncRecord] | [] => {
    const key = refKey(c.kind, c.key);
    const recorded = own ? recordOfDeclared(own, input.sync, declared) : undefined;
    if (recorded) return recorded;
    const byKey = input.sync.byKey.get(key);
    return byKey ? [key, byKey] : [];
  };
  /**
   * Whether a child's parent is made by this plan and was never synced: its children were never
   * live, whatever record another parent's child has under the same key (`A/` + `B` and `A` + `/B`
   * are both `A//B`, probe CF-1).
   */
  const newParent = (c: Change): boolean => {
    if (!c.parent || c.parent.liveId) return false;
    const key = refKey(c.parent.kind, c.parent.key);
    const parent = desired.get(key);
    return (parent ? recordOfDeclared(parent, input.sync, declared) : undefined) === undefined && !input.sync.byKey.has(key);
  };
  const classify = (change: Change): Change => {
    const l = change.liveId ? liveById.get(change.liveId) : undefined;
    // Object.assign, not a spread: a spread of changes of many shapes gives each copy a hidden class
    // of its own in V8 (about 700 bytes per change, 15 MB for 21,000 creates).
    const c: Change = Object.assign({}, change);
    if (l?.updatedAt) c.liveUpdatedAt = l.updatedAt;
    const own = desired.get(refKey(c.kind, c.key));
    if (!c.liveId && CREATE_ACTIONS.includes(c.action)) {
      // Last synced here, and that object still live but taken over by another declared object
      // (a `renamed_from` naming this name, a pinned id): the files make a new one here.
      const [recordedAt, recorded] = createRecord(c, own);
      // A kind seen only in part says removed live only of an object live under another name now
      // (a member whose e-mail the app changed, probe PD-2): one not seen may be live unseen.
      const seen = recorded !== undefined && (!input.unlisted?.has(c.kind) || isLive(recorded.id));
      c.direction = !seen || newParent(c) || takenOver(recordedAt!, recorded.id) || (c.parent !== undefined && (takenOver(refKey(c.parent.kind, c.parent.key), recorded.id) || livesElsewhere(recorded.id, c.key, c.parent.liveId))) ? 'only-in-files' : 'removed-live';
    } else if (c.action === 'delete' || c.action === 'archive') {
      const key = refKey(c.kind, c.key);
      // Its own record: one under its name of another live id is another object's (this one was made in the app since).
      const record = ownRecord(input.sync, c.liveId, key);
      // Last in sync under another name the files still declare: it moved in the app (its
      // playbook swapped names with another), and the files removed nothing.
      // (The index by id is built only when the name's own record is of another object.)
      const was = input.sync.byKey.get(key)?.id === c.liveId ? key : c.liveId ? input.sync.byId.get(c.liveId)?.key : undefined;
      c.direction = !record ? 'only-live' : was !== undefined && was !== key && declared(was) ? 'changed-live' : 'removed-in-files';
    } else if (own && l) {
      const key = refKey(c.kind, own.key);
      // Renamed in the app onto this name: the name's own record (none: unknown) says what moved.
      const record = renamedOnto(input.sync, own, l, declared, heirOf) ? nameHistory(input.sync, key, heirOf) : syncedRecordOf(input.sync, l.id, key);
      if (record) {
        const sensitive = input.sensitive.get(c.kind) ?? [];
        c.fields = c.fields.map((f) => {
          if (sensitive.includes(f.field)) return { ...f, direction: 'unknown' };
          const direction = fieldDirection(f.field, own, l, record);
          if (direction === 'live' && renamedByFiles(c, f.field, l, record)) return { ...f, direction: 'files' };
          return { ...f, direction: direction === 'unknown' ? (repointedBy(c, f.field, directionOf) ?? direction) : direction };
        });
      }
      // Without a record no field says which side moved, but one docket's own write left as it is (a conversion that failed).
      if (!record) c.fields = c.fields.map((f) => ({ ...f, direction: fieldDirection(f.field, own, l, undefined) }));
      c.direction = record || l.failedWrites !== undefined || c.fields.some((f) => f.direction === 'files') ? objectDirection(c.fields) : 'unknown';
    }
    return c;
  };
  // Creates, uploads and renames first, whatever the order of the changes: the re-points to them
  // (to a new object, or to one another renames onto the name a reference gives) need their side.
  const classified = new Map<Change, Change>();
  for (const change of changes) {
    if (!CREATE_ACTIONS.includes(change.action) && change.action !== 'rename') continue;
    const c = classify(change);
    classified.set(change, c);
    if (c.direction) directionOf.set(refKey(c.kind, c.key), c.direction);
  }
  const revived = revivedRemovals([...classified.values()], desired, input.sync, declared);
  const keptByPolicy = childrenKeptByPolicy(input.desired, input.sync);
  for (const change of changes) {
    const c = classified.get(change) ?? classify(change);
    // Removed live, but edited in the files since: the files' edit, applied whatever the policy.
    if (revived.has(refKey(c.kind, c.key)) || (c.parent !== undefined && CREATE_ACTIONS.includes(c.action) && revived.has(refKey(c.parent.kind, c.parent.key)))) {
      kept.push(c);
      continue;
    }

    const named = governingPolicy(c, (key) => desired.get(key), input.sync);
    const owned = movedOwner(c);
    // A name the files give a new object, held live by another's: nothing of it is written there, the files' part neither.
    if (owned?.fresh) {
      held.push({ ...c, policy: owned.policy });
      if (CREATE_ACTIONS.includes(c.action)) heldParents.set(refKey(c.kind, c.key), owned.policy);
      if (c.liveId !== undefined && !CREATE_ACTIONS.includes(c.action) && c.action !== 'delete') heldForMoved.push({ change: c, ...owned });
      // A child the files add is held with its parent, which the warning names (probe OB-2).
      else if (c.parent !== undefined && CREATE_ACTIONS.includes(c.action)) heldForMoved.push({ change: { kind: c.parent.kind, key: c.parent.key, source: desired.get(refKey(c.parent.kind, c.parent.key))?.source }, ...owned });
      continue;
    }
    const moved = leavesLiveEdits(named) ? undefined : owned;
    const policy = moved?.policy ?? named;
    const heldParent = c.parent !== undefined ? heldParents.get(refKey(c.parent.kind, c.parent.key)) : undefined;
    // Removed live with a parent pull keeps in the files for a child's policy: what pull cannot adopt, apply makes again.
    const parentKey = c.parent ? refKey(c.parent.kind, c.parent.key) : refKey(c.kind, c.key);
    const keptWithParent = policy === 'adopt' && c.direction === 'removed-live' && directionOf.get(parentKey) === 'removed-live' && keptByPolicy(parentKey).length > 0;
    if ((!leavesLiveEdits(policy) || keptWithParent) && heldParent === undefined) {
      kept.push(c);
      continue;
    }
    // Held with its parent: under the parent's policy, whatever its own (a rule's `drift: revert` cannot make its playbook).
    const holding: 'adopt' | 'ignore' = heldParent ?? (policy === 'ignore' ? 'ignore' : 'adopt');
    // A delete changed live is of an object moved in the app (see classify): held like one only live.
    if (heldParent !== undefined || c.direction === 'removed-live' || c.direction === 'only-live' || (c.action === 'delete' && c.direction === 'changed-live')) {
      held.push({ ...c, policy: holding });
      if (CREATE_ACTIONS.includes(c.action)) heldParents.set(refKey(c.kind, c.key), holding);
      continue;
    }
    // New in the files, or removed from them: the files' own change, applied whatever the policy.
    if (c.direction === 'only-in-files' || c.direction === 'removed-in-files') {
      kept.push(c);
      continue;
    }
    const back = c.fields.filter((f) => liveSide(f.direction));
    if (back.length === 0) {
      kept.push(c);
      continue;
    }
    // Each part placed at its own first field, as diff places a change (probe EF-3).
    const own = c.source ? desired.get(refKey(c.kind, c.key)) : undefined;
    const placedAt = (fields: readonly FieldChange[]): Pick<Change, 'source'> => (own && fields[0] ? { source: declaredAt(own, fields[0].field) } : {});
    held.push({ ...c, fields: back, direction: objectDirection(back), policy: holding, ...placedAt(back) });
    if (moved) heldForMoved.push({ change: c, ...moved });
    const rest = c.fields.filter((f) => !liveSide(f.direction));
    if (rest.length > 0) kept.push({ ...c, fields: rest, refs: c.refs.filter((r) => rest.some((f) => f.field === r.field)), direction: objectDirection(rest), ...placedAt(rest) });
  }
  // One warning per object held: its own change and its children's creates name it alike.
  const heldObjects = [...new Map(heldForMoved.map((h) => [refKey(h.change.kind, h.change.key), h])).values()];
  return { changes: dropDanglingDependencies(kept.map((c) => checkedAsWritten(c, desired, liveById))), held, ...(heldObjects.length > 0 ? { heldForMoved: heldObjects } : {}) };
}

/**
 * A change of an object whose policy leaves live edits alone, fingerprinted over what it writes
 * (checkedFields): the fields it held back, and any other the app edits before a saved plan is
 * applied, are no reason to call the plan stale.
 */
function checkedAsWritten(c: Change, desired: ReadonlyMap<string, DesiredResource>, liveById: ReadonlyMap<string, LiveResource>): Change {
  const own = desired.get(refKey(c.kind, c.key));
  if (!own || !leavesLiveEdits(own.policy?.drift) || c.fingerprint === null || !c.liveId) return c;
  const l = liveById.get(c.liveId);
  return l ? { ...c, fingerprint: fingerprint(l, checkedFields(own, c)) } : c;
}

/**
 * Creates of objects removed live that the files edited since the last sync: those objects, and a
 * parent removed live whose child the files edited or added (it comes back with all it holds).
 */
function revivedRemovals(creates: readonly Change[], desired: ReadonlyMap<string, DesiredResource>, sync: SyncState, declared: (kindKey: string) => boolean): Set<string> {
  const removed = new Set(creates.filter((c) => c.direction === 'removed-live').map((c) => refKey(c.kind, c.key)));
  const revived = new Set<string>();
  for (const c of creates) {
    const key = refKey(c.kind, c.key);
    // A child the files added to a parent removed live: the files edited what it holds (probe CG-1).
    if (c.direction === 'only-in-files' && c.parent && removed.has(refKey(c.parent.kind, c.parent.key))) revived.add(refKey(c.parent.kind, c.parent.key));
    if (!removed.has(key)) continue;
    const d = desired.get(key);
    const found = d ? recordOfDeclared(d, sync, declared) : undefined;
    if (!d || !found) continue;
    // Its record found under a former name: renamed in the files since, which is the files' edit
    // as pull reads it too (editedInFilesSince), so apply makes it again (probe QB-1).
    const [recordKey, record] = found;
    if (recordKey === key && filesAsRecorded(d, record)) continue;
    revived.add(key);
    if (c.parent && removed.has(refKey(c.parent.kind, c.parent.key))) revived.add(refKey(c.parent.kind, c.parent.key));
  }
  return revived;
}

/**
 * The declared and live objects the changes name (their own, their parents'), indexed: a plan of
 * 200 changes among 20,000 objects indexes 400, and builds no key for the rest.
 */
function indexFor(changes: readonly Change[], input: ClassifyInput): { desired: Map<string, DesiredResource>; liveById: Map<string, LiveResource> } {
  const keys = new Set<string>();
  const ids = new Set<string>();
  for (const c of changes) {
    keys.add(c.key);
    if (c.parent) keys.add(c.parent.key);
    if (c.liveId) ids.add(c.liveId);
    if (c.parent?.liveId) ids.add(c.parent.liveId);
    // The declared object a live one was last in sync as, when not as this name (moved in the app
    // onto it): its policy may hold the change. (Asked by name first: the index by id is built only then.)
    const onto = (kind: KindName, key: string, id: string | undefined): void => {
      const owner = id !== undefined && input.sync.idOf(refKey(kind, key)) !== id ? input.sync.byId.get(id)?.key : undefined;
      if (owner !== undefined) keys.add(owner.slice(owner.indexOf(':') + 1));
    };
    onto(c.kind, c.key, c.liveId);
    if (c.parent) onto(c.parent.kind, c.parent.key, c.parent.liveId);
    // What a removed object was last in sync as (moved in the app): its policy may hold the removal.
    const was = c.action === 'delete' ? syncedAsOther(c, input.sync) : undefined;
    if (was !== undefined) keys.add(was.slice(was.indexOf(':') + 1));
  }
  const desired = new Map<string, DesiredResource>();
  for (const d of input.desired) if (keys.has(d.key)) desired.set(refKey(d.kind, d.key), d);
  const liveById = new Map<string, LiveResource>();
  for (const l of input.live) if (ids.has(l.id)) liveById.set(l.id, l);
  return { desired, liveById };
}

/** Which side moved for one field of an object both sides have. */
export function fieldDirection(field: string, d: DesiredResource, l: LiveResource, record: SyncRecord | undefined): FieldDirection {
  if (l.failedWrites?.includes(field) === true) return 'files';
  // The name live is one the files say it was renamed from: their rename, still owed, record or not
  // (an environment whose lock never recorded it: pull undid the rename there, then everywhere, probe RL-3).
  if (!record) return field === 'name' && typeof l.fields.name === 'string' && d.renamedFrom.includes(l.fields.name) ? 'files' : 'unknown';
  const recorded = record.fields[field];
  if (recorded === NOT_KEPT) return 'files';
  // A field the record does not hold: the files started to declare it (partial kinds) since. Not
  // so for a record of another object (an organization whose other half another environment syncs),
  // nor for a kind whose files declare every field: there the field was left to the app
  // (`ignore_fields`) when last in sync, and an edit in the app since is as likely as not.
  if (recorded === undefined) return record.id === l.id && d.partial ? 'files' : 'unknown';
  const filesHash = fieldHash(d.fields[field]);
  const liveHash = fieldHash(l.fields[field]);
  // A record neither side's digest is may be one made before a definition's field order counted
  // (keys sorted): read by that digest then (second read). Not while either side is the record
  // exactly, which tells a reordering of fields already sorted apart from none.
  const exact = filesHash === recorded || liveHash === recorded;
  const filesMoved = exact ? filesHash !== recorded : !recordHolds(recorded, d.fields[field]);
  // A reference recorded by its id (an export writes an attachment's id itself) and read now by
  // name (the file since names it so): the id it holds says whether live moved (probe KA-1).
  // And the reverse: recorded by name, read now as the id the file since writes (probe GC-1).
  const liveIds = l.refIds?.[field];
  const liveNamed = l.refNames?.[field];
  const recordedInOtherForm = (liveIds !== undefined && liveIds !== null && fieldHash(liveIds) === recorded) || (liveNamed !== undefined && fieldHash(liveNamed) === recorded);
  const liveMoved = (exact ? liveHash !== recorded : !recordHolds(recorded, l.fields[field])) && !recordedInOtherForm;
  // Both sides hold one value, other than the record's: a reference recorded in another form (an
  // exported attachment id, since written `{ attachment: … }`); the record cannot say who moved.
  if (filesMoved && liveMoved && filesHash === liveHash) return l.staleRefs?.includes(field) === true ? 'files' : 'unknown';
  // It names, by id, the upload docket replaced when it renamed that attachment away: live reads
  // otherwise only because of docket's own upload, a re-point still owed.
  if (liveMoved && !filesMoved && l.repointOwed?.includes(field) === true) return 'files';
  if (filesMoved && liveMoved) return 'both';
  if (liveMoved) return 'live';
  if (filesMoved) return 'files';
  // It names, by id, what docket itself replaced since (an attachment's earlier upload): the re-point is the files' change, still owed.
  if (l.staleRefs?.includes(field) === true) return 'files';
  // Neither differs from the record, yet the values differ: references compared by id, say.
  return 'unknown';
}

/**
 * The side that moved for a reference field whose value is what was last synced on both sides yet
 * changes: it names an object this plan creates or uploads again (a PDF changed in the files), or
 * one it renames onto that name, and the re-point follows that change's side (classified first,
 * so it is known).
 */
function repointedBy(c: Change, field: string, directionOf: ReadonlyMap<string, Direction>): FieldDirection | undefined {
  for (const ref of c.refs) {
    if (ref.field !== field) continue;
    const side = directionOf.get(refKey(ref.kind, ref.key));
    if (side === 'changed-in-files' || side === 'only-in-files') return 'files';
    if (side === 'changed-live' || side === 'removed-live') return 'live';
  }
  return undefined;
}

/**
 * An object's direction from its fields': one side, both, or unknown when no field says, or when
 * one field cannot say while the others name one side (the object is not that side's change alone).
 */
export function objectDirection(fields: readonly FieldChange[]): Direction {
  const known = new Set(fields.map((f) => f.direction).filter((d) => d !== undefined && d !== 'unknown'));
  if (known.size === 0) return 'unknown';
  if (known.size === 1 && !known.has('both') && fields.some((f) => f.direction === 'unknown')) return 'unknown';
  if (known.size === 1 && known.has('live')) return 'changed-live';
  if (known.size === 1 && known.has('files')) return 'changed-in-files';
  return 'changed-both';
}

/** A change held back leaves no dependency on it behind (a rename held, its update kept). */
function dropDanglingDependencies(changes: Change[]): Change[] {
  const ids = new Set(changes.map((c) => c.id));
  return changes.map((c) => (c.dependsOn.every((d) => ids.has(d)) ? c : { ...c, dependsOn: c.dependsOn.filter((d) => ids.has(d)) }));
}
