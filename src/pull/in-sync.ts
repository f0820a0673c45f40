/**
 * The records of declared objects the files and live already agree on (no change planned or held
 * back by a policy, nothing the plan could not compare), as an apply with nothing to do would make them. A pull killed after writing some files, then run again, finds those objects
 * in sync and writes nothing for them: without these records their record stays the one from
 * before the app's edit, and the next edit in the app reads as made on both sides. Pure.
 */
import { formatSyncRecord, syncAfterApply, unfoundRecords, type SyncKindInfo, type SyncRecord, type SyncState, type SyncUpdates } from '../engine/sync.js';
import { refKey, type ApplyReport, type DesiredResource, type KindName, type Plan } from '../engine/types.js';
import { syncedAsAnotherDeclared } from './moved-live.js';
import { declaredByKey, historyKeys } from './history-keys.js';

const NOTHING_DONE: ApplyReport = { results: [], done: 0, failed: 0, skipped: 0, ms: 0 };

export function inSyncRecords(plan: Plan, desired: readonly DesiredResource[], kinds: readonly SyncKindInfo[], state: SyncState, only: readonly KindName[] = []): SyncUpdates {
  // A targeted plan read only what it names: the rest is not known to match.
  if (plan.targets?.length) return new Map();
  const changed = new Set([...plan.changes, ...(plan.held ?? [])].map((c) => refKey(c.kind, c.key)));
  // A file the plan could not compare (no lock entry) is not known to match live.
  for (const a of plan.adoptable ?? []) changed.add(refKey(a.kind, a.key));
  // A child of a changed parent (renamed in the app, say) is recorded by the pull under its new key.
  const parentKind = new Map(kinds.map((k) => [k.name, k.parentKind]));
  const chosen = (kind: KindName): boolean => only.length === 0 || only.includes(kind) || only.includes(parentKind.get(kind) as KindName);
  // Not one whose live object was last in sync as another declared object, moved onto its name in
  // the app (two names swapped or shifted, which pull leaves): recorded here, the object would change
  // documents, and the other's record would be lost (probe NB-4).
  const declaredKeys = new Set(desired.map((d) => refKey(d.kind, d.key)));
  const movedOnto = (key: string): boolean => {
    const id = plan.ids[key];
    return id !== undefined && syncedAsAnotherDeclared(state, id, key, (other) => declaredKeys.has(other));
  };
  const settled = desired.filter((d) => !(d.parent && changed.has(refKey(d.parent.kind, d.parent.key))) && chosen(d.kind) && !movedOnto(refKey(d.kind, d.key)));
  // As recorded, or recorded with more: a new file's record holds every live field (wholeRecord),
  // and the fields its document leaves out are compared by no plan, so rewriting it without them
  // changed the lock on a pull with nothing to pull (probe ND-1).
  const held = (key: string, record: SyncRecord): boolean => {
    const now = state.byKey.get(key);
    if (now === undefined) return false;
    if (formatSyncRecord(now) === formatSyncRecord(record)) return true;
    return now.id === record.id && Object.entries(record.fields).every(([field, digest]) => now.fields[field] === digest);
  };
  // As an apply whose every change failed: only the objects without one are in sync.
  const updates = syncAfterApply({ plan, report: NOTHING_DONE, desired: settled, ids: new Map(Object.entries(plan.ids)), kinds, held, state });
  // Forgetting is the pull's own business (what it removes or renames).
  for (const [key, record] of updates) if (record === null) updates.delete(key);
  return updates;
}

/** What a kind says of how its live objects are read. */
export interface ListedKindInfo {
  name: KindName;
  parentKind?: KindName;
  singleton?: boolean;
  internal?: boolean;
  uploadsUnreadable?: true;
  comparedOnlyDeclared?: string;
}

/**
 * The records of objects no file declares and no read found: a pull or apply stopped after
 * removing one (its file, or the object live) and before writing its records left them behind, and
 * the object declared again would read as removed live (pull would then remove it from the files).
 * Only where pull read every object there is, as the apply's own check (engine/sync.ts): kinds
 * some file declares or `--kind` names (and their children: pull reads the rules of every live
 * playbook), not with `--target`, and not kinds the service cannot list whole (attachments;
 * members, without a users list). A kind no file declares keeps its records: drift tells the
 * objects the files dropped by them. Pure.
 */
export function goneRecords(plan: Plan, desired: readonly DesiredResource[], live: readonly { id: string }[], kinds: readonly ListedKindInfo[], state: SyncState, only: readonly KindName[] = []): SyncUpdates {
  const out: SyncUpdates = new Map();
  if (plan.targets?.length) return out;
  const read = new Set<string>([...desired.map((d) => d.kind), ...only]);
  const listed = new Set(
    kinds
      .filter((k) => !k.singleton && !k.internal && !k.uploadsUnreadable && k.comparedOnlyDeclared === undefined)
      .filter((k) => (only.length === 0 || only.includes(k.name) || (k.parentKind !== undefined && only.includes(k.parentKind))) && (read.has(k.name) || (k.parentKind !== undefined && read.has(k.parentKind))))
      .map((k) => k.name as string),
  );
  // Under a former name the files rename from (`renamed_from`) too, with the children filed under
  // it: the object's history until an apply renames it (probe KN-4: removed live meanwhile, its
  // record dropped, drift no longer said the app removed it, and plan took it for new in the files).
  // A child the files no longer declare is gone under its playbook's former names too (its removal
  // pulled by a pull stopped before its records; probe QV-1).
  const parents = declaredByKey(desired);
  const declared = new Set(desired.flatMap((d) => historyKeys(d, parents)));
  for (const key of unfoundRecords(state, declared, new Set(live.map((l) => l.id)), (kind) => listed.has(kind))) out.set(key, null);
  return out;
}

