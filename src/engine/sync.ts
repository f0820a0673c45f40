/**
 * Sync records: what docket last saw in sync for each object, so a plan can tell which side moved
 * since (engine/direction.ts). An apply records every object it left matching the files, a pull
 * every object it wrote back; both write them to docket.lock.json under the target the object
 * lives on. A record holds the live id and a short digest of each compared field's value (never
 * the value itself), as one line of text: `<id> <field>=<digest> …`. Pure.
 */
import { addTo } from '../util/multi-map.js';
import type { SyncRecords } from '../config/lock.js';
import { digest, sha256, sortedJson } from './canonical.js';
import { sortNamesInPlace } from '../util/sort-names.js';
import { CREATE_ACTIONS, formerKey, formerKeys, isFilesSide, refKey, type ApplyReport, type Change, type DesiredResource, type KindName, type LiveResource, type Plan } from './types.js';

export interface SyncRecord {
  /** The live object the record is about (a rename keeps it). */
  id: string;
  /** Field → digest of its value when last in sync. */
  fields: Record<string, string>;
}

/** Lookups over the records; a record is read from its text only when it is asked for. */
export interface RecordLookup<V> {
  readonly size: number;
  get(key: string): V | undefined;
  has(key: string): boolean;
  /** Every key that has a record text, without reading the records. */
  keys(): IterableIterator<string>;
  entries(): IterableIterator<[string, V]>;
}

/** Every recorded object, by `kind:key` and by live id. */
export interface SyncState {
  /** The live id recorded for `kind:key`, without reading the rest of its record. */
  idOf(key: string): string | undefined;
  /** Every `kind:key` whose record names this live id, without reading the records. */
  keysWithId(id: string): readonly string[];
  byKey: RecordLookup<SyncRecord>;
  byId: RecordLookup<SyncRecord & { key: string }>;
  /** The keys other than its own a record filed under `filed` may read under (withRenamedParents: the same child under each new name the files give its parent). */
  readUnder?(filed: string): string[];
}

/**
 * The keys a record filed under `filed` (byId's key, as filed) reads under now, as the state reads
 * its records: under a parent renamed away and given to another (A to B while B goes to C), `filed`
 * holds the other's history and is none of them; under a parent the files rename, the new name's
 * key is (probes RA-1, RD-1, second read SR87-3).
 */
export function keysFiledNow(state: SyncState, filed: string, id: string): string[] {
  return [filed, ...(state.readUnder?.(filed) ?? [])].filter((key) => state.byKey.get(key)?.id === id);
}

export const EMPTY_SYNC: SyncState = { idOf: () => undefined, keysWithId: () => [], byKey: new Map(), byId: new Map() };

/** Short: records only ever compare one object's own values with each other. */
const HASH_LENGTH = 10;

/** The digest a record keeps for one field's (normalised) value. */
export function fieldHash(value: unknown): string {
  return digest(value ?? null).slice(0, HASH_LENGTH);
}

/**
 * Whether a record's digest is of this value: as fieldHash makes it, or, for a value holding a
 * mapping whose order counts (a definition's fields), as records made before that order counted
 * hold it (keys sorted throughout), so those read as unchanged, not as moved on both sides (second read).
 */
export function recordHolds(recorded: string, value: unknown): boolean {
  if (fieldHash(value) === recorded) return true;
  return value !== null && typeof value === 'object' && sha256(sortedJson(value)).slice(0, HASH_LENGTH) === recorded;
}

export function formatSyncRecord(record: SyncRecord): string {
  const names = sortNamesInPlace(Object.keys(record.fields));
  // Joined once, flat: added piece by piece, the text is a chain of pieces until it is compared.
  const parts = new Array<string>(names.length + 1);
  parts[0] = record.id;
  for (let i = 0; i < names.length; i++) parts[i + 1] = `${encodedField(names[i]!)}=${record.fields[names[i]!]}`;
  return parts.join(' ');
}

/** Field names are few and repeat in every record of an apply. */
const encodedFields = new Map<string, string>();
function encodedField(field: string): string {
  let encoded = encodedFields.get(field);
  if (encoded === undefined) encodedFields.set(field, (encoded = encodeURIComponent(field)));
  return encoded;
}

export function parseSyncRecord(text: string): SyncRecord | undefined {
  const [id, ...parts] = text.split(' ').filter((p) => p !== '');
  if (!id) return undefined;
  const fields: Record<string, string> = {};
  for (const part of parts) {
    const eq = part.lastIndexOf('=');
    if (eq <= 0) return undefined;
    fields[decodeURIComponent(part.slice(0, eq))] = part.slice(eq + 1);
  }
  return { id, fields };
}

/** The id a record text starts with, without reading the rest of it. */
export function recordId(text: string): string {
  const space = text.indexOf(' ');
  return (space === -1 ? text : text.slice(0, space)).trim();
}

/**
 * The records of several targets (an object whose fields live on two services, the organization,
 * has a record in each) as one state. Records that cannot be read are left out: unknown direction.
 * A plan asks only about the objects it changes, so twenty thousand records are indexed by their
 * first word (the id) and read whole only when asked for.
 */
export function syncState(sections: readonly Readonly<SyncRecords>[]): SyncState {
  // Read where they are: gathering twenty thousand records into one map cost a plan 40 ms, and a
  // plan reads a few of them.
  const textsOf = (key: string): string[] => {
    const out: string[] = [];
    for (const section of sections) if (Object.hasOwn(section, key)) out.push(section[key]!);
    return out;
  };
  let allKeys: readonly string[] | undefined;
  const keys = (): readonly string[] => {
    if (allKeys) return allKeys;
    if (sections.length === 1) return (allKeys = Object.keys(sections[0]!));
    const union = new Set<string>();
    for (const section of sections) for (const key in section) union.add(key);
    return (allKeys = [...union]);
  };
  // Live id → the keys whose records name it, the first one first. Built when first asked: a plan
  // with no changes never asks, and the plan's reads wait for this state.
  let keysById: Map<string, string[]> | undefined;
  const idIndex = (): Map<string, string[]> => {
    if (keysById) return keysById;
    keysById = new Map();
    for (const section of sections) {
      for (const [key, text] of Object.entries(section)) {
        const id = recordId(text);
        if (!id) continue;
        const keys = keysById.get(id);
        if (!keys) keysById.set(id, [key]);
        else if (!keys.includes(key)) keys.push(key);
      }
    }
    return keysById;
  };
  const parsed = new Map<string, SyncRecord | null>();
  const recordAt = (key: string): SyncRecord | undefined => {
    const known = parsed.get(key);
    if (known !== undefined) return known ?? undefined;
    const read = textsOf(key).map(parseSyncRecord).filter((r): r is SyncRecord => r !== undefined);
    const record = read.length === 0 ? null : { id: read[0]!.id, fields: Object.assign({}, ...read.map((r) => r.fields)) as Record<string, string> };
    parsed.set(key, record);
    return record ?? undefined;
  };
  const byKey: RecordLookup<SyncRecord> = {
    get size() {
      return keys().length;
    },
    get: recordAt,
    has: (key) => recordAt(key) !== undefined,
    keys: () => keys().values(),
    *entries() {
      for (const key of keys()) {
        const record = recordAt(key);
        if (record) yield [key, record];
      }
    },
  };
  const byId: RecordLookup<SyncRecord & { key: string }> = {
    get size() {
      return idIndex().size;
    },
    get(id) {
      const key = idIndex().get(id)?.[0];
      if (key === undefined) return undefined;
      const record = recordAt(key);
      if (!record || record.id !== id) return undefined;
      return { id: record.id, fields: record.fields, key };
    },
    has: (id) => byId.get(id) !== undefined,
    keys: () => idIndex().keys(),
    *entries() {
      for (const id of idIndex().keys()) {
        const record = byId.get(id);
        if (record) yield [id, record];
      }
    },
  };
  const idOf = (key: string): string | undefined => {
    for (const section of sections) if (Object.hasOwn(section, key)) return recordId(section[key]!) || undefined;
    return undefined;
  };
  return { idOf, keysWithId: (id) => idIndex().get(id) ?? [], byKey, byId };
}

/**
 * The records as the files' renames of parents make them read. Until an apply records them anew,
 * the rules of a playbook the files rename from P to Q (`renamed_from`, or the id P was synced
 * under pinned) are recorded under P (`rule:P/R1`): read as none, a rule renamed, edited or deleted
 * in the app meanwhile was taken for the files' change, and apply deleted the app's work. A
 * child's own record under the new name comes first.
 */
export function withRenamedParents(state: SyncState, desired: readonly DesiredResource[], kinds: readonly KindParent[], live?: readonly LiveResource[]): SyncState {
  if (state === EMPTY_SYNC) return state;
  const children = kinds.filter((k) => k.parentKind !== undefined);
  const heldBy = liveParentsByKey(live);
  /** `rule:Q/` → `rule:P/`, for each former name P of a parent Q. */
  const moved: [string, string][] = [];
  /** `rule:P/` of a new parent the files name P while they rename the one synced as P: those records are not its. */
  const vacated: string[] = [];
  let declared: Set<string> | undefined;
  let renamers: Map<string, string[]> | undefined;
  for (const d of desired) {
    const kindsBelow = children.filter((c) => c.parentKind === d.kind);
    if (kindsBelow.length === 0) continue;
    const named = formerParentNames(d, state);
    if (named.length === 0) continue;
    // Another live object already holds the new name: plan matches that one, and the rename is
    // not made (both are live), so what the old name's children hold is not the new parent's (probe HC).
    const holder = d.pinId ? undefined : heldBy(refKey(d.kind, d.key));
    // Unless the files rename that holder away too, a rename not made yet (a chain: B to C while A
    // to B; C not live): it gives the name up (probe RD-1).
    if (!renamers) {
      renamers = new Map();
      for (const x of desired) for (const name of x.renamedFrom) addTo(renamers, refKey(x.kind, name), refKey(x.kind, x.key));
    }
    const givenUp = holder !== undefined && state.idOf(refKey(d.kind, d.key)) === holder && (renamers.get(refKey(d.kind, d.key)) ?? []).some((next) => heldBy(next) === undefined);
    const former = holder === undefined || givenUp ? named : named.filter((name) => state.idOf(refKey(d.kind, name)) === holder);
    if (former.length === 0) continue;
    // Until the rename is applied (nothing is recorded under the new name, or only the holder the
    // files rename away), what P's name holds is this parent's.
    const unapplied = state.idOf(refKey(d.kind, d.key)) === undefined || givenUp;
    declared ??= new Set(desired.map((x) => refKey(x.kind, x.key)));
    for (const child of kindsBelow) {
      for (const name of former) {
        moved.push([`${child.name}:${d.key}/`, `${child.name}:${name}/`]);
        if (unapplied && declared.has(refKey(d.kind, name))) vacated.push(`${child.name}:${name}/`);
      }
    }
  }
  if (moved.length === 0) return state;
  const isVacated = (key: string): boolean => vacated.some((prefix) => key.startsWith(prefix));
  /** Where a key's record was filed under a former name of its parent; `vacant`: its own is another's (a parent renamed away), so not looked at. */
  const formerKey = (key: string, vacant: boolean): string | undefined => {
    if (!vacant && state.idOf(key) !== undefined) return undefined;
    for (const [now, then] of moved) {
      if (!key.startsWith(now)) continue;
      const was = then + key.slice(now.length);
      if (state.idOf(was) !== undefined) return was;
    }
    return undefined;
  };
  // A vacated name (B, while the files rename B to C and A to B) still reads what a former name of
  // its new parent filed there (A's rules), along a chain of any length (probe RD-1: C's own
  // rules, vacated by C to D, hid B's, so B's rule renames read as the app's).
  const read = <V>(lookup: (key: string) => V | undefined) => (key: string): V | undefined => {
    const vacant = vacated.length > 0 && isVacated(key);
    const own = vacant ? undefined : lookup(key);
    if (own !== undefined) return own;
    const was = formerKey(key, vacant);
    return was === undefined ? undefined : lookup(was);
  };
  const byKeyGet = read((key) => state.byKey.get(key));
  return {
    idOf: read((key) => state.idOf(key)),
    keysWithId: (id) => state.keysWithId(id),
    readUnder: (filed) => moved.filter(([, then]) => filed.startsWith(then)).map(([now, then]) => now + filed.slice(then.length)),
    byKey: {
      get size() {
        return state.byKey.size;
      },
      get: byKeyGet,
      has: (key) => byKeyGet(key) !== undefined,
      keys: () => state.byKey.keys(),
      entries: () => state.byKey.entries(),
    },
    byId: state.byId,
  };
}

/** `state` with records `added` for keys it holds none of (objects docket made but could not record, landing.ts landedRecords). */
export function withRecordsAdded(state: SyncState, added: ReadonlyMap<string, SyncRecord>, replacing = false): SyncState {
  if (added.size === 0) return state;
  // `replacing`: the added records are read over the state's own (the fields of a write found made).
  const get = (key: string): SyncRecord | undefined => (replacing ? (added.get(key) ?? state.byKey.get(key)) : (state.byKey.get(key) ?? added.get(key)));
  const addedById = new Map([...added].map(([key, record]) => [record.id, { ...record, key }]));
  const idGet = (id: string): (SyncRecord & { key: string }) | undefined => (replacing ? (addedById.get(id) ?? state.byId.get(id)) : (state.byId.get(id) ?? addedById.get(id)));
  return {
    ...(state.readUnder ? { readUnder: (filed: string) => state.readUnder!(filed) } : {}),
    idOf: (key) => state.idOf(key) ?? added.get(key)?.id,
    keysWithId: (id) => {
      const own = state.keysWithId(id);
      const more = addedById.get(id)?.key;
      return more === undefined || own.includes(more) ? own : [...own, more];
    },
    byKey: {
      get size() {
        return state.byKey.size + added.size;
      },
      get,
      has: (key) => get(key) !== undefined,
      keys: () => new Set([...state.byKey.keys(), ...added.keys()]).values(),
      *entries() {
        for (const entry of state.byKey.entries()) yield replacing && added.has(entry[0]) ? [entry[0], added.get(entry[0])!] : entry;
        for (const entry of added) if (!state.byKey.has(entry[0])) yield entry;
      },
    },
    byId: {
      get size() {
        return state.byId.size + addedById.size;
      },
      get: idGet,
      has: (id) => idGet(id) !== undefined,
      keys: () => new Set([...state.byId.keys(), ...addedById.keys()]).values(),
      *entries() {
        for (const entry of state.byId.entries()) yield replacing && addedById.has(entry[0]) ? [entry[0], addedById.get(entry[0])!] : entry;
        for (const entry of addedById) if (!state.byId.has(entry[0])) yield entry;
      },
    },
  };
}

/** The id of the live top-level object holding a `kind:key`, from the live objects read (none given: not known). */
function liveParentsByKey(live: readonly LiveResource[] | undefined): (kindKey: string) => string | undefined {
  if (!live) return () => undefined;
  let byKey: Map<string, string> | undefined;
  return (kindKey) => (byKey ??= new Map(live.filter((l) => l.parentId === undefined).map((l) => [refKey(l.kind, l.key), l.id]))).get(kindKey);
}

/** The names a declared parent was synced under before the files renamed it (`renamed_from`, or the keys of the id it pins). */
function formerParentNames(d: Pick<DesiredResource, 'kind' | 'key' | 'renamedFrom' | 'pinId'>, state: Pick<SyncState, 'keysWithId'>): string[] {
  if (d.renamedFrom.length === 0 && !d.pinId) return [];
  const former = new Set(d.renamedFrom);
  if (d.pinId) for (const key of state.keysWithId(d.pinId)) if (key.startsWith(`${d.kind}:`)) former.add(key.slice(d.kind.length + 1));
  former.delete(d.key);
  return [...former];
}

/** What kinds tell the records: fields never recorded (sensitive ones), and the kind a child's parent is. */
export interface SyncKindInfo {
  name: KindName;
  sensitiveFields?: readonly string[];
  parentKind?: KindName;
  /** `never`: docket never removes one (members, the organization), so a record no file declares is of no use. */
  deletion?: string;
}

/** The record of an object that now matches its files: the file's values, minus ignored and sensitive fields. */
export function recordOf(d: DesiredResource, id: string, kind: SyncKindInfo | undefined, hash: (value: unknown, field: string) => string = fieldHash): SyncRecord {
  const ignored = d.policy?.ignoreFields;
  const sensitive = kind?.sensitiveFields;
  const fields: Record<string, string> = {};
  for (const field in d.fields) {
    if (ignored?.includes(field) === true || sensitive?.includes(field) === true) continue;
    fields[field] = hash(d.fields[field], field);
  }
  return { id, fields };
}

/** Longer text seldom repeats across objects; shorter values (flags, names of reviewers, enums) do. */
const REMEMBERED_LENGTH = 80;
/** Values of a field looked up before it is judged: one that seldom repeats (names) stops being remembered. */
const TRIAL_LOOKUPS = 256;

/**
 * fieldHash, remembering the digests of short values of the fields whose values repeat (flags,
 * reviewers, enums): an apply records every object it leaves in sync. Unique values (twenty
 * thousand rule names) are not kept: remembering them cost more than hashing them.
 */
function rememberingFieldHash(): (value: unknown, field: string) => string {
  const byField = new Map<string, { known: Map<unknown, string> | undefined; lookups: number; hits: number }>();
  return (value, field) => {
    if ((value !== null && typeof value === 'object') || (typeof value === 'string' && value.length > REMEMBERED_LENGTH)) return fieldHash(value);
    let seen = byField.get(field);
    if (!seen) byField.set(field, (seen = { known: new Map(), lookups: 0, hits: 0 }));
    if (!seen.known) return fieldHash(value);
    seen.lookups += 1;
    let hash = seen.known.get(value);
    if (hash !== undefined) {
      seen.hits += 1;
      return hash;
    }
    hash = fieldHash(value);
    if (seen.lookups >= TRIAL_LOOKUPS && seen.hits * 2 < seen.lookups) seen.known = undefined;
    else seen.known.set(value, hash);
    return hash;
  };
}

/** Record changes, `kind:key` → the new record or null (forget it). */
export type SyncUpdates = Map<string, SyncRecord | null>;

export interface AfterApplyInput {
  plan: Plan;
  /** Undefined: nothing ran (a plan without changes); every object in the plan's scope is in sync. */
  report?: ApplyReport;
  desired: readonly DesiredResource[];
  /** Ids known after the apply (plan ids plus those creates registered). */
  ids: ReadonlyMap<string, string>;
  /** Fields whose write did not stick, by `kind:key`, with the value the service holds (ApplyPlanResult.unkept). */
  unkept?: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** Fields a change wrote before a later request of it failed, by `kind:key` (ApplyPlanResult.written). */
  written?: ReadonlyMap<string, readonly string[]>;
  /** Ids a write's answer showed to be another object's, by `kind:key` (ApplyPlanResult.distrusted): a record of one is forgotten. */
  distrusted?: ReadonlyMap<string, string>;
  kinds: readonly SyncKindInfo[];
  /**
   * Records the lock already holds exactly as the updates would write them (see recordHeld) are
   * left out. An apply leaves most of twenty thousand records as they were, and holding them all
   * until the lock is written was the peak of its memory.
   */
  held?: RecordHeld;
  /**
   * The records as the apply started: a removed object's record is found by its id wherever it is
   * filed (under the old name of a parent renamed in the same apply), and the records of names an
   * object was renamed from are forgotten.
   */
  state?: Pick<SyncState, 'idOf' | 'keysWithId' | 'byKey'>;
}

/** Whether the sync records as read hold this record for this key as it would be written. */
export type RecordHeld = (key: string, record: SyncRecord) => boolean;

/**
 * A record holding, for each field a write did not make stick, the value the service holds: the
 * files' value reads as still owed next time, and a later edit in the app as made on both sides.
 * A value the kind cannot say (undefined) is recorded as NOT_KEPT.
 * `recordable`: the fields the record may hold (not ignored, not sensitive).
 */
function withServiceValues(
  fields: Record<string, string>,
  held: Readonly<Record<string, unknown>> | undefined,
  recordable: (field: string) => boolean,
  hash: (value: unknown, field: string) => string,
): Record<string, string> {
  if (!held) return fields;
  const out = { ...fields };
  for (const [field, value] of Object.entries(held)) {
    if (!recordable(field)) continue;
    out[field] = value === undefined ? NOT_KEPT : hash(value, field);
  }
  return out;
}

/**
 * Recorded for a field the service did not keep as written, holding a value docket cannot say (a
 * reviewer answered as another id): the files' change until an apply writes it, whatever the app
 * does. Left out, the field read as changed in an unknown direction, which `pull` wrote back.
 */
export const NOT_KEPT = 'unkept';

/**
 * After an apply: every declared object in the plan's scope whose changes all succeeded now
 * matches its files (drift held back by a policy included: the record says what the files hold,
 * so the next plan still sees that live moved; not on an object never in sync, which live never
 * matched); removed objects are forgotten.
 */
export function syncAfterApply(input: AfterApplyInput): SyncUpdates {
  const { plan, report } = input;
  const kinds = new Map(input.kinds.map((k) => [k.name, k]));
  const done = new Set((report?.results ?? []).filter((r) => r.status === 'done').map((r) => r.changeId));
  const pending = new Map<string, boolean>();
  for (const c of plan.changes) {
    const key = refKey(c.kind, c.key);
    pending.set(key, (pending.get(key) ?? true) && (report === undefined || done.has(c.id)));
  }
  const out: SyncUpdates = new Map();
  const hash = rememberingFieldHash();
  for (const c of plan.changes) {
    if ((c.action !== 'delete' && c.action !== 'archive') || !done.has(c.id)) continue;
    // Another object of the name removed by its id: the name's record is the one the files pin,
    // which stays (probe EE-1: forgotten, its next edit in the files read as drift of unknown direction).
    const recorded = input.state?.idOf(refKey(c.kind, c.key));
    const another = c.namesake && c.liveId !== undefined && recorded !== undefined && recorded.toLowerCase() !== c.liveId.toLowerCase();
    if (!another) out.set(refKey(c.kind, c.key), null);
    // A rule deleted from a playbook renamed in the same apply is recorded under the old name.
    if (c.liveId) for (const other of input.state?.keysWithId(c.liveId) ?? []) out.set(other, null);
  }
  const keyed = input.desired.map((d) => [d, refKey(d.kind, d.key)] as const);
  const declared = new Set(keyed.map(([, key]) => key));
  if (input.state && !plan.targets?.length) for (const key of goneUndeclared(input.state, plan, keyed, declared, input.kinds)) out.set(key, null);
  // No file declares them, and docket never removes one: drift is quiet about them, and the plan's
  // warning that they are left live would stand forever (probe DB-2). Forgotten, as Terraform's
  // `removed` without destroy forgets; declared again, one is compared anew.
  const neverRemoved = new Set(input.kinds.filter((k) => k.deletion === 'never').map((k) => k.name as string));
  if (input.state && !plan.targets?.length && neverRemoved.size > 0) {
    for (const key of input.state.byKey.keys()) if (!declared.has(key) && neverRemoved.has(key.slice(0, key.indexOf(':')))) out.set(key, null);
  }
  // With --target only what the plan touched is known to match; the rest was not looked at.
  const scoped = !plan.targets?.length;
  const inSync = keyed.filter(([, key]) => (scoped || pending.has(key)) && pending.get(key) !== false && input.ids.has(key));
  // Renamed, an object is recorded under its name: a record left under an old one would read a new
  // object given that name as removed live (an attachment renamed is a new upload, another id).
  // Not the record of another object still live under that name, which the plan did not rename
  // (another live object held the new name): that one keeps its history (probe MR-1).
  for (const [d, key] of inSync) {
    for (const oldKey of formerRecordKeys(d, key, input.state)) {
      const recorded = input.state?.idOf(oldKey);
      if (declared.has(oldKey) || recorded === undefined) continue;
      const stillThere = recorded !== input.ids.get(key) && input.ids.get(oldKey) === recorded;
      if (!stillThere) out.set(oldKey, null);
    }
  }
  // A child of an object forgotten is forgotten with it unless the updates write it again
  // (withChildrenForgotten): its record is restated even when the lock holds it as it is.
  // And of a name this apply gave another object (a chain of renames: Beta to Gamma, Alpha to Beta):
  // the children recorded under it are the old object's, which the name no longer is (probe OW-1).
  // So are those under a former name of an object renamed now, when the files give that name to a new one.
  const repointed = input.state
    ? inSync.flatMap(([d, key]) => {
        if (d.parent) return [];
        const [was, id] = [input.state!.idOf(key), input.ids.get(key)];
        return [...(was !== undefined && was !== id ? [key] : []), ...formerKeys(d).filter((old) => declared.has(old) && id !== undefined && input.state!.idOf(old) === id)];
      })
    : [];
  const forgotten = forgottenParents(out, input.kinds, repointed);
  // The children of an object a concurrent apply also created, whose copy was kept: this run's
  // children went aside with its own copy, and the ids it knows are theirs, not the kept ones'.
  const keptOther = keptOtherParents(plan, report);
  // Drift a policy holds on an object never in sync before: live never matched the files, so no
  // record says it did (it would make the next plan call the app's side changed live; probe JD-3).
  // By the live id, not the name: one renamed in the files since is recorded under its former name (fourth read RV4-1).
  const heldUnsynced = new Set(
    (plan.held ?? [])
      .map((c) => refKey(c.kind, c.key))
      .filter((key) => {
        const id = input.ids.get(key);
        return input.state === undefined || (input.state.idOf(key) === undefined && (id === undefined || input.state.keysWithId(id).length === 0));
      }),
  );
  // Drift a policy holds on a name now held live by another object than the one last synced under
  // it (a swap in the app): that object never matched the files, so its record stays as it was,
  // which tells pull the name moved (probe MI-1: re-pointed, the next pull took the swap for an edit).
  const heldMoved = new Set(
    (plan.held ?? [])
      .map((c) => refKey(c.kind, c.key))
      .filter((key) => {
        const [id, was] = [input.ids.get(key), input.state?.idOf(key)];
        return id !== undefined && was !== undefined && was !== id;
      }),
  );
  // The files' own change held (its name is another object's live, probe NJ-2): live is not as the files say.
  const heldFilesChange = new Set((plan.held ?? []).filter((c) => isFilesSide(c.direction)).map((c) => refKey(c.kind, c.key)));
  for (const [d, key] of inSync) {
    if (heldUnsynced.has(key) || heldMoved.has(key) || heldFilesChange.has(key)) continue;
    if (keptOther.size > 0 && d.parent && keptOther.has(refKey(d.parent.kind, d.parent.key))) continue;
    // Another's copy was kept: what it holds is not known to match the files (someone in the app may have made it).
    if (keptOther.size > 0 && keptOther.has(key)) {
      out.set(key, null);
      continue;
    }
    const inFiles = recordOf(d, input.ids.get(key)!, kinds.get(d.kind), hash);
    const record = { id: inFiles.id, fields: withServiceValues(inFiles.fields, input.unkept?.get(key), (f) => f in inFiles.fields, hash) };
    if (input.held && (forgotten.size === 0 || parentPrefixOf(key, forgotten) === undefined) && input.held(key, record)) continue;
    out.set(key, record);
  }
  for (const [key, id] of input.distrusted ?? []) if (input.state?.idOf(key)?.toLowerCase() === id.toLowerCase()) out.set(key, null);
  if (input.state && plan.targets?.length) followRenamesInReferrers(out, keyed, plan, done, input.state, hash);
  // A child whose own rename did not happen still has its former name, under the parent's new one.
  const renameOwed = new Set(plan.changes.filter((c) => c.action === 'rename' && !done.has(c.id)).map((c) => refKey(c.kind, c.key)));
  if (input.state) keepDisplacedRecords(out, input.state, input.ids, declared, (owner, filed) => renameOwed.has(owner) && parentPrefixOf(filed, forgotten) !== undefined);
  if (input.state && plan.held?.length) keepHeldRemovals(out, plan.held, input.state);
  const written = writtenByUnsettled(plan, done, pending, input.written, input.unkept);
  if (input.state && written.size) learnWritten(out, keyed, { ...input, written, state: input.state, pending, kinds, hash });
  if (input.state && forgotten.size > 0) {
    const children = keyed.flatMap(([d, key]) => (d.parent ? [{ key, parentKey: refKey(d.parent.kind, d.parent.key), id: input.ids.get(key), ...(renameOwed.has(key) ? { formerName: true } : {}) }] : []));
    // A child removed from the files whose delete did not happen (failed, or never started) is still live and owed.
    for (const c of plan.changes) {
      if ((c.action === 'delete' || c.action === 'archive') && c.parent && !done.has(c.id)) children.push({ key: refKey(c.kind, c.key), parentKey: refKey(c.parent.kind, c.parent.key), id: c.liveId });
    }
    keepUnsettledChildren(out, children, { state: input.state, forgotten, keptOther });
    keepRecordsOfAbsentChildren(out, keyed, { state: input.state, forgotten, ids: input.ids });
  }
  if (input.state) forgetChildrenOfRemade(out, plan, done, input.state, input.ids, input.kinds);
  return out;
}

/**
 * A parent this apply made again (archived in the app, put back under its name: another id) takes
 * none of its old children's records: they were of the copy archived. Those this apply was to make
 * and did not (failed, or not started) go, so the next plan makes them as the files' own, not as
 * removed live, which the guard counted against the put-back (probe GL-1).
 */
function forgetChildrenOfRemade(out: SyncUpdates, plan: Plan, done: ReadonlySet<string>, state: Pick<SyncState, 'idOf' | 'byKey'>, ids: ReadonlyMap<string, string>, kinds: readonly KindParent[]): void {
  const prefixes = new Set<string>();
  for (const c of plan.changes) {
    if (c.parent || !CREATE_ACTIONS.includes(c.action) || !done.has(c.id)) continue;
    const key = refKey(c.kind, c.key);
    const [was, now] = [state.idOf(key), ids.get(key)];
    if (was !== undefined && now !== undefined && was !== now) addChildPrefixes(prefixes, c.kind, c.key, kinds);
  }
  if (prefixes.size === 0) return;
  // Only the creates this apply owed: a child a `drift:` policy holds removed keeps its record, and with it that hold.
  for (const c of plan.changes) {
    const key = refKey(c.kind, c.key);
    if (c.parent && CREATE_ACTIONS.includes(c.action) && !done.has(c.id) && !out.has(key) && state.byKey.has(key) && parentPrefixOf(key, prefixes) !== undefined) out.set(key, null);
  }
}

/**
 * The keys an object was synced under before the files renamed it: its `renamed_from` names, and
 * those of the id it pins in its scope (an attachment renamed through its `id:` left its old name's
 * record, which a new attachment given that name then read as its own; probe TB-1).
 */
function formerRecordKeys(d: DesiredResource, key: string, state: Pick<SyncState, 'keysWithId'> | undefined): string[] {
  const former = formerKeys(d);
  if (!d.pinId || !state) return former;
  const scope = formerKey(d, '');
  for (const other of state.keysWithId(d.pinId)) if (other !== key && other.startsWith(scope) && !former.includes(other)) former.push(other);
  return former;
}

/**
 * Records, per kind, that a name became another: the digests a field naming it holds, alone or as
 * a list of one (what a longer list held is not known from its digest).
 */
export function addRenameDigests(byKind: Map<string, Map<string, string>>, kind: string, before: string, after: string): void {
  let digests = byKind.get(kind);
  if (!digests) byKind.set(kind, (digests = new Map()));
  digests.set(fieldHash(before), fieldHash(after));
  digests.set(fieldHash([before]), fieldHash([after]));
}

/** What followRenamesInDropped needs of a kind: the fields naming another kind's objects by name. */
export interface NamingKind {
  name: KindName;
  namesByName?: Readonly<Record<string, KindName>>;
}

/**
 * The records of objects the files dropped (kinds the services cannot delete, left live) name what
 * they reference by name (a custom template's term, a template's attachments: the kinds'
 * \`namesByName\`). An object these updates move to a new name (renamed by an apply, or in the app
 * and pulled: withMovedRecords forgets its record under the old one) is renamed in those fields
 * too: left as they were, drift read each such dropped object as changed live, on every run, though
 * no one edited it. A single name, or a list of one, is followed; what a longer list held is not
 * known from its digest. \`declared\`: the keys the files declare (their records are the files' to write).
 */
export function followRenamesInDropped(updates: SyncUpdates, state: Pick<SyncState, 'keysWithId' | 'byKey'>, declared: () => ReadonlySet<string>, kinds: readonly NamingKind[]): SyncUpdates {
  const named = new Set(kinds.flatMap((k) => Object.values(k.namesByName ?? {})));
  /** Per kind renamed: the digest of a former name (or a list of it) → that of the new one. */
  const renamed = new Map<string, Map<string, string>>();
  for (const [key, record] of updates) {
    const kind = key.slice(0, key.indexOf(':'));
    // Recorded under this name before: not renamed (and no index of every record by id is built).
    if (record === null || !named.has(kind as KindName) || state.byKey.get(key)?.id === record.id) continue;
    for (const was of state.keysWithId(record.id)) {
      if (was === key || !was.startsWith(`${kind}:`) || updates.get(was) !== null) continue;
      addRenameDigests(renamed, kind, was.slice(kind.length + 1), key.slice(kind.length + 1));
    }
  }
  if (renamed.size === 0) return updates;
  const naming = new Map(kinds.filter((k) => k.namesByName).map((k) => [k.name as string, Object.entries(k.namesByName!)]));
  const files = declared();
  let out: SyncUpdates | undefined;
  for (const [key, record] of state.byKey.entries()) {
    const fieldsNaming = naming.get(key.slice(0, key.indexOf(':')));
    if (!fieldsNaming || files.has(key) || updates.has(key)) continue;
    let fields: Record<string, string> | undefined;
    for (const [field, kind] of fieldsNaming) {
      const was = record.fields[field];
      const now = was === undefined ? undefined : renamed.get(kind)?.get(was);
      if (now !== undefined) (fields ??= { ...record.fields })[field] = now;
    }
    if (fields) (out ??= new Map(updates)).set(key, { id: record.id, fields });
  }
  return out ?? updates;
}

/**
 * A declared child that is not live (deleted in the app, its create held by a `drift:` policy)
 * keeps the record its parent's former name held, under the new one: forgotten with the old name,
 * its deletion read as the files' change, and the next apply made it again.
 */
function keepRecordsOfAbsentChildren(out: SyncUpdates, keyed: readonly (readonly [DesiredResource, string])[], env: { state: Pick<SyncState, 'keysWithId' | 'byKey'>; forgotten: ReadonlySet<string>; ids: ReadonlyMap<string, string> }): void {
  let parents: Map<string, DesiredResource> | undefined;
  for (const [d, key] of keyed) {
    if (!d.parent || out.has(key) || env.ids.has(key)) continue;
    parents ??= new Map(keyed.map(([p, k]) => [k, p]));
    const parent = parents.get(refKey(d.parent.kind, d.parent.key));
    if (!parent) continue;
    const local = d.key.slice(parent.key.length + 1);
    for (const name of formerParentNames(parent, env.state)) {
      const was = refKey(d.kind, `${name}/${local}`);
      if (parentPrefixOf(was, env.forgotten) === undefined) continue;
      const record = env.state.byKey.get(was);
      if (record) {
        out.set(key, record);
        break;
      }
    }
  }
}

/**
 * The fields written to each object not left in sync: those its failed changes wrote before they
 * failed (`written`), and those of its changes that succeeded (a rename done, then its publish
 * failed: the name is the files' now, and a later rename in the app is the app's alone).
 */
function writtenByUnsettled(
  plan: Plan,
  done: ReadonlySet<string>,
  pending: ReadonlyMap<string, boolean>,
  written: ReadonlyMap<string, readonly string[]> | undefined,
  unkept: ReadonlyMap<string, Readonly<Record<string, unknown>>> | undefined,
): Map<string, readonly string[]> {
  const out = new Map<string, readonly string[]>(written);
  for (const c of plan.changes) {
    const key = refKey(c.kind, c.key);
    if (!done.has(c.id) || pending.get(key) !== false || c.action === 'delete' || c.action === 'archive') continue;
    // A write the service did not keep is not the files' value live.
    const lost = unkept?.get(key);
    out.set(key, [...(out.get(key) ?? []), ...c.fields.map((f) => f.field).filter((f) => !(lost && f in lost))]);
  }
  return out;
}

/**
 * An object whose change failed after some of its requests succeeded (the review half of an
 * organization's update, a custom template's definition before its term link): its record learns
 * the fields written (a field the service did not keep: the value it holds), and keeps the rest
 * as it was.
 */
function learnWritten(
  out: SyncUpdates,
  keyed: readonly (readonly [DesiredResource, string])[],
  env: {
    written: ReadonlyMap<string, readonly string[]>;
    unkept?: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
    ids: ReadonlyMap<string, string>;
    state: Pick<SyncState, 'byKey' | 'keysWithId'>;
    pending: ReadonlyMap<string, boolean>;
    kinds: ReadonlyMap<string, SyncKindInfo>;
    hash: (value: unknown, field: string) => string;
  },
): void {
  for (const [d, key] of keyed) {
    const fields = env.written.get(key);
    const id = env.ids.get(key);
    if (!fields || !id || env.pending.get(key) !== false || out.has(key)) continue;
    // Under its name, or under the one it had (renamed in this apply: the record moves to the new one).
    const filed = env.state.byKey.get(key)?.id === id ? key : env.state.keysWithId(id)[0];
    const old = filed === undefined ? undefined : env.state.byKey.get(filed);
    if (!old || old.id !== id) continue;
    const now = recordOf(d, id, env.kinds.get(d.kind), env.hash).fields;
    const learned = { ...old.fields };
    for (const f of fields) if (now[f] !== undefined) learned[f] = now[f];
    out.set(key, { id, fields: withServiceValues(learned, env.unkept?.get(key), (f) => now[f] !== undefined, env.hash) });
  }
}

/**
 * A name another object now takes (a new A made, while the object synced as A is renamed to C by a
 * change this apply did not make: left out by `--target`, or failed) keeps the record it held,
 * under the key of the declared object the plan matched to it: overwritten, that object had none, so its
 * rename read as of no known direction and pull would have undone it (probe FT).
 */
function keepDisplacedRecords(out: SyncUpdates, state: Pick<SyncState, 'byKey'>, ids: ReadonlyMap<string, string>, declared: ReadonlySet<string>, filedUnderFormerName: (owner: string, filed: string) => boolean): void {
  let keyOfId: Map<string, string> | undefined;
  for (const [key, record] of [...out]) {
    const before = record ? state.byKey.get(key) : undefined;
    if (!record || !before || before.id === record.id) continue;
    // Not under the keys a saved plan gives ids it needs only as ids (names differing only by an API key; plan.ts).
    keyOfId ??= new Map([...ids].filter(([k]) => !k.includes('\u0000')).map(([k, id]) => [id, k]));
    const owner = keyOfId.get(before.id);
    // Only under a name the files declare: under one they do not (a rule moved aside in the app), the
    // record would read as the files' removal, which no drift policy holds (probe MM-1: deleted for good).
    // Not under a child's name whose own rename was not made in a renamed parent: it is still named
    // as filed, and keepUnsettledChildren files it so (probe RA-2: under the name the files give it,
    // the record took the place of its neighbour's in a chain, and the next plan traded their contents).
    if (owner !== undefined && owner !== key && declared.has(owner) && !out.has(owner) && !state.byKey.has(owner) && !filedUnderFormerName(owner, key)) out.set(owner, before);
  }
}

/**
 * An object removed live whose re-creation a policy holds (`drift: ignore` or `adopt`) keeps its
 * record when this apply records its live object under another key (renamed in the app onto a name
 * the files declare too): moved there, the record was gone, and the next plan read the held
 * removal as the files' new object to create (probe GB).
 */
function keepHeldRemovals(out: SyncUpdates, held: readonly Change[], state: Pick<SyncState, 'byKey'>): void {
  let recordedIds: Set<string> | undefined;
  for (const c of held) {
    if (c.direction !== 'removed-live' || !CREATE_ACTIONS.includes(c.action)) continue;
    const key = refKey(c.kind, c.key);
    const record = out.has(key) ? undefined : state.byKey.get(key);
    if (!record) continue;
    recordedIds ??= new Set([...out.values()].flatMap((r) => (r ? [r.id] : [])));
    if (recordedIds.has(record.id)) out.set(key, record);
  }
}

/**
 * A child whose changes did not all succeed (failed, or not started when the apply stopped), or
 * whose removal did not happen, keeps the record it had, under its key now (its parent's new name,
 * and its own former name when its own rename is still owed): filed under the old
 * name of a parent renamed in this apply, it went with that name, and its changes still owed lost
 * their direction (a `pull` then took the files' edits for the app's and wrote the old values
 * back, or a rule removed from the files back in).
 */
function keepUnsettledChildren(
  out: SyncUpdates,
  children: readonly { key: string; parentKey: string; id: string | undefined; formerName?: boolean }[],
  env: { state: Pick<SyncState, 'keysWithId' | 'byKey'>; forgotten: ReadonlySet<string>; keptOther: ReadonlySet<string> },
): void {
  for (const { key, parentKey, id, formerName } of children) {
    if (!id || env.keptOther.has(parentKey)) continue;
    const filed = env.state.keysWithId(id).find((other) => other !== key && parentPrefixOf(other, env.forgotten) !== undefined);
    const record = filed === undefined ? undefined : env.state.byKey.get(filed);
    if (!record) continue;
    // Its own rename not made (failed, or not started), it is still named as filed: recorded under
    // that name in the renamed parent, not under the name the files give it (probe FS: the next
    // plan then read a chain of renames as edits that traded the rules' contents).
    const under = formerName ? `${key.slice(0, key.indexOf(':'))}:${parentKey.slice(parentKey.indexOf(':') + 1)}/${filed!.slice(parentPrefixOf(filed!, env.forgotten)!.length)}` : key;
    if (!out.has(under)) out.set(under, record);
  }
}

/**
 * Whether `sections` (the records of each target, as `splitByService` names them) hold `record`
 * for `key` exactly as the updates would write it: whole, in the section of the service its
 * fields live on and in no other, with no other key naming its object (withMovedRecords would
 * forget that one). Writing it again would change nothing.
 */
export function recordHeld<S extends string>(key: string, record: SyncRecord, sections: ReadonlyMap<S, Readonly<SyncRecords>>, serviceOf: (kindKey: string, field: string) => S, state: SyncState): boolean {
  const whole = serviceOfWhole(key, record, serviceOf);
  if (whole === undefined || whole === false || !sections.has(whole)) return false;
  for (const [service, records] of sections) {
    const there = Object.hasOwn(records, key);
    if (service === whole ? !there || records[key] !== formatSyncRecord(record) : there) return false;
  }
  const named = state.keysWithId(record.id);
  return named.length === 1 && named[0] === key;
}

/**
 * The updates, plus forgetting records of other identities that name the same live object (a
 * playbook renamed: its record moves to the new name, so the old name reads as never synced).
 */
export function withMovedRecords(updates: SyncUpdates, state: SyncState): SyncUpdates {
  let out: SyncUpdates | undefined;
  for (const [key, record] of updates) {
    if (!record) continue;
    for (const other of state.keysWithId(record.id)) {
      if (other === key || updates.has(other) || out?.has(other)) continue;
      out ??= new Map(updates);
      out.set(other, null);
    }
  }
  return out ?? updates;
}

/**
 * The updates, plus forgetting the records of the children of every object forgotten: an archived
 * playbook takes its rules with it, with no change of their own, and their records left behind would
 * make a playbook declared again under that name read its rules as removed live (and pull drop
 * them from the file). A child's key is its parent's key, `/`, its own name; records the updates
 * write again (a declared child of another parent whose key merely starts the same) are kept.
 */
export function withChildrenForgotten(updates: SyncUpdates, state: SyncState, kinds: readonly KindParent[]): SyncUpdates {
  const prefixes = forgottenParents(updates, kinds);
  if (prefixes.size === 0) return updates;
  const out: SyncUpdates = new Map(updates);
  for (const key of state.byKey.keys()) {
    if (!out.has(key) && parentPrefixOf(key, prefixes) !== undefined) out.set(key, null);
  }
  return out;
}

/**
 * The records of objects no file declares and no read found (removed from the files and deleted
 * in the app alike, or by a version of docket that left their records behind), where this apply
 * read everything such an object could be in: a kind some file declares (its list is read), a
 * child of a playbook declared and live (its rules are read). Left, such a record would read an
 * object given that name again as removed live.
 */
function goneUndeclared(state: Pick<SyncState, 'idOf' | 'byKey'>, plan: Plan, keyed: readonly (readonly [DesiredResource, string])[], declared: ReadonlySet<string>, kinds: readonly KindParent[]): string[] {
  const liveIds = new Set(Object.values(plan.ids));
  const declaredKinds = new Set<string>(keyed.map(([d]) => d.kind));
  const childKinds = new Set<string>(kinds.filter((k) => k.parentKind).map((k) => k.name));
  const readParents = new Set<string>();
  const parentKinds = new Set<string>(kinds.flatMap((k) => (k.parentKind ? [k.parentKind] : [])));
  for (const [d, key] of keyed) if (parentKinds.has(d.kind) && plan.ids[key]) addChildPrefixes(readParents, d.kind, d.key, kinds);
  return unfoundRecords(state, declared, liveIds, (kind, key) => (childKinds.has(kind) ? parentPrefixOf(key, readParents) !== undefined : declaredKinds.has(kind)));
}

/**
 * The keys of records no file declares whose live id no read found, among those `readWhole` says
 * were read whole (every object there is of that kind, or of that parent): removed from the files
 * and live alike, such a record would read an object given that name again as removed live.
 */
export function unfoundRecords(state: Pick<SyncState, 'idOf' | 'byKey'>, declared: ReadonlySet<string>, liveIds: ReadonlySet<string>, readWhole: (kind: string, key: string) => boolean): string[] {
  const out: string[] = [];
  for (const key of state.byKey.keys()) {
    if (declared.has(key)) continue;
    const id = state.idOf(key);
    if (id === undefined || liveIds.has(id)) continue;
    if (readWhole(key.slice(0, key.indexOf(':')), key)) out.push(key);
  }
  return out;
}

type KindParent = { name: KindName; parentKind?: KindName };

/** The start of the keys of the children (`rule:Parent/`) of the object `kind` `key`. */
export function addChildPrefixes(prefixes: Set<string>, kind: string, key: string, kinds: readonly KindParent[]): void {
  for (const child of kinds) if (child.parentKind === kind) prefixes.add(`${child.name}:${key}/`);
}

/** The objects (`kind:key`) whose create kept a concurrent apply's copy. */
function keptOtherParents(plan: Plan, report: ApplyReport | undefined): Set<string> {
  const kept = new Set((report?.results ?? []).filter((r) => r.keptOther).map((r) => r.changeId));
  return new Set(plan.changes.filter((c) => kept.has(c.id)).map((c) => refKey(c.kind, c.key)));
}

/**
 * With --target, an object outside the targets that names one this apply renamed (a custom
 * template's `custom_term`): its record of that reference held the former name, which would read a
 * later change of the link in the app as made on both sides. Only that field is restated, and only
 * where it held a former name: the rest of the object was not looked at (probe OW-2).
 */
function followRenamesInReferrers(out: SyncUpdates, keyed: readonly (readonly [DesiredResource, string])[], plan: Plan, done: ReadonlySet<string>, state: Pick<SyncState, 'byKey'>, hash: (value: unknown, field: string) => string): void {
  const renamed = new Map<string, string[]>();
  const byKey = new Map(keyed.map(([d, key]) => [key, d]));
  for (const c of plan.changes) {
    const d = c.action === 'rename' && done.has(c.id) && !c.parent ? byKey.get(refKey(c.kind, c.key)) : undefined;
    if (d && d.renamedFrom.length > 0) renamed.set(refKey(d.kind, d.key), d.renamedFrom);
  }
  if (renamed.size === 0) return;
  for (const [d, key] of keyed) {
    if (out.has(key) || !d.refs?.length) continue;
    const record = state.byKey.get(key);
    if (!record) continue;
    let fields: Record<string, string> | undefined;
    for (const ref of d.refs) {
      const formers = renamed.get(refKey(ref.kind, ref.key));
      const held = record.fields[ref.field];
      if (!formers || held === undefined || !formers.some((name) => hash(name, ref.field) === held)) continue;
      (fields ??= { ...record.fields })[ref.field] = hash(d.fields[ref.field], ref.field);
    }
    if (fields) out.set(key, { id: record.id, fields });
  }
}

/** The start of the keys of the children (`rule:Parent/`) of every object the updates forget, and of those `repointed` (a name given to another object). */
function forgottenParents(updates: SyncUpdates, kinds: readonly KindParent[], repointed: Iterable<string> = []): Set<string> {
  const prefixes = new Set<string>();
  const add = (key: string): void => addChildPrefixes(prefixes, key.slice(0, key.indexOf(':')), key.slice(key.indexOf(':') + 1), kinds);
  for (const [key, record] of updates) if (record === null) add(key);
  for (const key of repointed) add(key);
  return prefixes;
}

/**
 * The start of a child's key (`rule:Parent/`) that `prefixes` holds, if any. Looked up at each `/`
 * of the key (a parent's name may hold one), not tried one prefix at a time: 500 playbooks
 * archived or renamed would otherwise test 500 prefixes against each of 20,000 records.
 */
export function parentPrefixOf(key: string, prefixes: { has(prefix: string): boolean }): string | undefined {
  for (let at = key.indexOf('/'); at !== -1; at = key.indexOf('/', at + 1)) {
    const prefix = key.slice(0, at + 1);
    if (prefixes.has(prefix)) return prefix;
  }
  return undefined;
}

/**
 * Record changes split by the service each field lives on (`serviceOf`): an object's record goes to
 * the target section of its service, and an organization's to both. Forgetting removes it from all.
 */
export function splitByService<S extends string>(updates: SyncUpdates, services: readonly S[], serviceOf: (kindKey: string, field: string) => S): Map<S, Record<string, string | null>> {
  const out = new Map<S, Record<string, string | null>>(services.map((s) => [s, {}]));
  for (const [key, record] of updates) {
    if (record === null) {
      for (const s of services) out.get(s)![key] = null;
      continue;
    }
    const whole = serviceOfWhole(key, record, serviceOf);
    // Most objects live on one service: their record goes there whole, with no split made.
    if (whole !== false) {
      const text = whole === undefined ? null : formatSyncRecord(record);
      for (const s of services) out.get(s)![key] = s === whole ? text : null;
      continue;
    }
    const parts = new Map<S, Record<string, string>>();
    for (const field in record.fields) {
      const s = serviceOf(key, field);
      if (!parts.has(s)) parts.set(s, {});
      parts.get(s)![field] = record.fields[field]!;
    }
    for (const s of services) {
      const part = parts.get(s);
      out.get(s)![key] = part ? formatSyncRecord({ id: record.id, fields: part }) : null;
    }
  }
  return out;
}

/** The one service all of a record's fields live on; undefined for a record of no fields, false when they are split. */
function serviceOfWhole<S extends string>(key: string, record: SyncRecord, serviceOf: (kindKey: string, field: string) => S): S | undefined | false {
  let whole: S | undefined;
  for (const field of Object.keys(record.fields)) {
    const s = serviceOf(key, field);
    if (whole === undefined) whole = s;
    else if (s !== whole) return false;
  }
  return whole;
}
