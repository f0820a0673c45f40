/**
 * The drift report (`docket drift`): every difference between the files and the live services,
 * sorted by which side moved, with when the service says the object last changed. Drift is a
 * live-side change; what the files change is pending, not drift; what a `drift: ignore` policy
 * covers is listed apart. Pure: built from a plan and the live objects no file declares.
 */
import { childrenEditedInFiles, childrenEditedLive, childrenKeptByPolicy, droppedEditedLive, editedInFilesSince, editedLiveChildren, editedLiveSince, editedLiveSinceMoved, governingPolicy, isDrift, liveRenames, liveSide, movedFromOf, type ChildWork, type LiveRenames } from './direction.js';
import type { NamingKind, SyncState } from './sync.js';
import { addTo } from '../util/multi-map.js';
import { isFilesSide, pendingDocumentOf, refKey, type Action, type Change, type DesiredResource, type Direction, type DriftPolicy, type FieldDirection, type KindName, type LiveResource, type Plan } from './types.js';
import type { SourcePos } from '../diagnostics.js';

export interface DriftItem {
  kind: KindName;
  key: string;
  name: string;
  direction: Direction;
  /** What apply would do about it (absent for live objects apply leaves alone). */
  action?: Action;
  /** The changed fields and which side each moved on (for objects both sides have). */
  fields: { field: string; direction?: FieldDirection; unsendable?: true }[];
  source?: SourcePos;
  /** When the service says the live object last changed. */
  updated_at?: string;
  /** The `drift:` policy when it is not the default: adopt (pull brings it in), ignore, revert written out (pull leaves it, apply reverts it). */
  policy?: 'adopt' | 'ignore' | 'revert';
  /** Live work in an object the files removed (or in its rules): neither pull nor apply settles it. */
  removed_in_files?: true;
  /** Removed live, but the files changed it (or its rules) since the last sync: pull leaves it in the files, apply creates it again. */
  edited_in_files?: true;
  /** Removed live with a parent a child's `drift: revert` or `ignore` keeps in the files: pull leaves it there, apply creates it again. */
  kept_by_policy?: true;
  /** The name it holds live, when renamed there (its `name` changed live): what the report says it became. */
  live_name?: string;
  /**
   * A live object renamed in the app away from a name the files declare, which another live object
   * holds now (a new one made under it): the key it was last in sync as (probe JA-1).
   */
  moved_from?: string;
  /** Removed live while its document pins its `id:`: no apply makes it again under that id (a plan error, pinned-id-not-found); pull takes it out (second read SR79-3). */
  pinned?: true;
  /** The live object's id, where another live object of its kind has its name too: the two items are told apart by it (probe GE-3). */
  live_id?: string;
}

/** A live object a pending document names (`docket export` wrote it; its file is still to add). */
export interface AdoptingItem {
  kind: KindName;
  key: string;
  name: string;
  /** The pending document, relative to the configuration directory. */
  file: string;
}

export interface DriftReport {
  /** Live-side changes: what `docket pull` adopts (and `apply` reverts, under the default policy). */
  drift: DriftItem[];
  /** Live-side changes a `drift: ignore` policy leaves alone: never counted as drift. */
  ignored: DriftItem[];
  /** Changes of the files not applied yet: not drift. */
  pending: DriftItem[];
  /** Live objects named by pending documents: being adopted, not drift. */
  adopting?: AdoptingItem[];
  /** The kinds `--prune` archives (what apply can remove of objects only live), when known. */
  prunable?: ReadonlySet<KindName>;
  /** Of those, the kinds it archives only with the object they are in (a rule, with its whole playbook). */
  prunedWithParent?: ReadonlySet<KindName>;
  /** Each kind's fields that hold a file only the user has (a Word file, a PDF): pull cannot write them. */
  userFiles?: ReadonlyMap<KindName, readonly string[]>;
  /** Whether pull leaves the live value of an object's field for what it, or another field of the same change, holds. */
  pullLeaves?: (item: Pick<DriftItem, 'kind' | 'key'>, field: string) => boolean;
  /** Whether pull leaves the object for its name (shared live, or like one the files declare: pull/name-refusals.ts), or, removed live, as still live under a name the files declare. */
  pullRefuses?: (item: DriftItem) => boolean;
  /** Whether pull, planned on this drift, writes any file: false when all it would do is say why not (a placeholder, a shared file). */
  pullWrites?: boolean;
  /** Objects removed live with their children (a playbook archived in the app, its rules): the text and markdown reports say them as one line each (probe RJ-5). */
  removedWith?: ReadonlyMap<DriftItem, readonly DriftItem[]>;
}

export interface DriftInput {
  plan: Plan;
  /** Top-level live objects no file declares. */
  unmatched: readonly LiveResource[];
  sync: SyncState;
  /** The identities (`kind:key`) the files declare. */
  declared: ReadonlySet<string>;
  /** Kinds whose undeclared objects are no news (members: every user of the organization). */
  quiet: ReadonlySet<KindName>;
  /** Kinds read only for the objects the files dropped (none of them declared): their other live objects are not drift. */
  onlyDropped?: ReadonlySet<KindName>;
  /** The kinds `--prune` archives (DriftReport.prunable). */
  prunable?: ReadonlySet<KindName>;
  /** DriftReport.prunedWithParent. */
  prunedWithParent?: ReadonlySet<KindName>;
  /** Each kind's fields that hold a file only the user has (DriftReport.userFiles). */
  userFiles?: ReadonlyMap<KindName, readonly string[]>;
  /** DriftReport.pullLeaves. */
  pullLeaves?: DriftReport['pullLeaves'];
  /** DriftReport.pullRefuses. */
  pullRefuses?: DriftReport['pullRefuses'];
  /** The pending document naming each live object being adopted, by `kind:key`. */
  pendingDocuments?: ReadonlyMap<string, string>;
  /** The live children (rules) read of a live id: those of an object the files removed that changed live are drift. */
  childrenOf?: (liveId: string) => readonly LiveResource[];
  /** Whether `--target`s name this undeclared object itself (absent: all do), not only a child of it. */
  named?: (l: LiveResource) => boolean;
  /** The declared resources: a parent removed live stays in the files for a child they changed, in the plan or not. */
  desired?: readonly DesiredResource[];
  /** The kinds' fields naming other kinds' objects by name: a rename in the app is no edit of an object the files dropped that names it (liveRenames). */
  kinds?: readonly NamingKind[];
}

/** The live name of an object renamed in the app (a `name` changed on the live side), for the report to say. */
function liveName(c: Change): Pick<DriftItem, 'live_name'> {
  if (!c.liveId || c.action === 'delete' || c.action === 'archive') return {};
  const name = c.fields.find((f) => f.field === 'name' && (liveSide(f.direction) || f.direction === 'both'));
  return typeof name?.before === 'string' && name.before !== c.name ? { live_name: name.before } : {};
}

export function driftReport(input: DriftInput): DriftReport {
  const movedFrom = (c: Change): Pick<DriftItem, 'moved_from'> => {
    const was = movedFromOf(c, input.sync);
    return was === undefined ? {} : { moved_from: was.slice(was.indexOf(':') + 1) };
  };
  // The declared objects by `kind:key`, indexed when first asked (most reports ask nothing of them).
  let declared: Map<string, DesiredResource> | undefined;
  const declaredByKey = (): ReadonlyMap<string, DesiredResource> => (declared ??= new Map((input.desired ?? []).map((d) => [refKey(d.kind, d.key), d])));
  const policyOf = (c: Change): DriftPolicy | undefined => {
    if (c.policy) return c.policy;
    if (!input.desired) return undefined;
    return governingPolicy(c, (key) => declaredByKey().get(key), input.sync);
  };
  // `drift: revert` written out: pull leaves such drift (probe GB).
  const revertWritten = (c: Change): boolean => !c.policy && policyOf(c) === 'revert';
  const report: DriftReport = { drift: [], ignored: [], pending: [], adopting: [], ...(input.prunable ? { prunable: input.prunable } : {}), ...(input.prunedWithParent ? { prunedWithParent: input.prunedWithParent } : {}), ...(input.userFiles ? { userFiles: input.userFiles } : {}), ...(input.pullLeaves ? { pullLeaves: input.pullLeaves } : {}), ...(input.pullRefuses ? { pullRefuses: input.pullRefuses } : {}) };
  const item = (c: Change): DriftItem => ({
    kind: c.kind,
    key: c.key,
    name: c.name,
    direction: c.direction ?? 'unknown',
    ...(c.policy ? {} : { action: c.action }),
    // Fields only for objects both sides have: a whole object came or went otherwise; but a rule
    // moved in the app and edited there since is deleted with that edit, which drift says (probe SI-1).
    fields: c.liveId && !['delete', 'archive'].includes(c.action) ? c.fields.map((f) => ({ field: f.field, ...(f.direction ? { direction: f.direction } : {}), ...(f.unsendable ? { unsendable: true as const } : {}) })) : editedLiveSinceMoved(c, input.sync).map((field) => ({ field, direction: 'live' as const })),
    ...liveName(c),
    ...movedFrom(c),
    ...(c.source ? { source: c.source } : {}),
    ...(c.liveUpdatedAt ? { updated_at: c.liveUpdatedAt } : {}),
    ...(c.policy ? { policy: c.policy } : revertWritten(c) ? { policy: 'revert' as const } : {}),
    ...(c.namesake && c.liveId ? { live_id: c.liveId } : {}),
  });
  // One object changed in the app is one item of drift, whatever changes the plan makes of it.
  const toDrift = adderTo(report.drift, true);
  const toPending = adderTo(report.pending);
  const toIgnored = adderTo(report.ignored);
  /** Parents removed live whose removed children the files changed: pull leaves them in the files too. */
  const editedChildrenOf = new Set<string>();
  /** The drift items of children removed live, by their parent's `kind:key`. */
  const removedChildren = new Map<string, DriftItem[]>();
  for (const c of input.plan.changes) {
    if (!isDrift(c.direction)) {
      toPending(item(c));
      // Removed from the files, and changed live since: the live part is drift all the same.
      const edited = editedLiveSince(c, input.sync);
      if (edited.length > 0) toDrift({ ...item(c), direction: 'changed-both', fields: edited.map((field) => ({ field, direction: 'live' })), removed_in_files: true }, c.liveId);
      if (input.childrenOf) for (const work of childrenEditedLive(c, input.sync, input.childrenOf)) toDrift(editedChild(work), work.child.id);
      continue;
    }
    // Removed live, but changed in the files since: the files' part is pending, and pull leaves the object in them.
    const editedInFiles = editedInFilesSince(c, input.sync, declaredByKey());
    if (editedInFiles.length > 0) {
      toDrift({ ...item(c), edited_in_files: true }, c.liveId);
      toPending({ ...item(c), direction: 'changed-in-files', fields: editedInFiles.map((field) => ({ field, direction: 'files' })) }, c.liveId);
      // Its parent stays with it; a parent stays with all its children.
      editedChildrenOf.add(c.parent ? refKey(c.parent.kind, c.parent.key) : refKey(c.kind, c.key));
      continue;
    }
    // A parent whose children the files changed, outside the plan too (a --target of another child).
    if (c.direction === 'removed-live' && !c.parent && input.desired && childrenEditedInFiles(input.desired, input.sync, refKey(c.kind, c.key)).length > 0) {
      editedChildrenOf.add(refKey(c.kind, c.key));
    }
    // Of an object both sides changed, the files' part is pending and the live part drift.
    const live = c.direction === 'changed-both' ? c.fields.filter((f) => liveSide(f.direction) || f.direction === 'both') : c.fields;
    // At the line of the first field that changed live, not of the change's first field, which the files may have changed (probe LK-3).
    const liveAt = c.direction === 'changed-both' && live[0] ? declaredByKey().get(refKey(c.kind, c.key))?.fieldSources[live[0].field] : undefined;
    const entry = item({ ...c, fields: live, ...(liveAt ? { source: liveAt } : {}) });
    toDrift(entry, c.liveId);
    if (c.direction === 'removed-live' && c.parent) addTo(removedChildren, refKey(c.parent.kind, c.parent.key), entry);
    const files = c.direction === 'changed-both' ? c.fields.filter((f) => f.direction === 'files') : [];
    if (files.length > 0) toPending(item({ ...c, direction: 'changed-in-files', fields: files }), c.liveId);
  }
  // A parent removed live with its children: one line of the report says them all.
  const removedWith = new Map<DriftItem, DriftItem[]>();
  withParents(report.drift, removedChildren, removedWith);
  // A parent pull leaves in the files (its removed children the files changed) keeps all its removed children there too.
  for (const i of report.drift) {
    if (i.direction !== 'removed-live' || !editedChildrenOf.has(refKey(i.kind, i.key))) continue;
    i.edited_in_files = true;
    for (const child of removedChildren.get(refKey(i.kind, i.key)) ?? []) child.edited_in_files = true;
  }
  // A parent removed live stays in the files, with all its removed children, for a declared child
  // whose own policy pull keeps there, in a --target's plan or not (pull/plan.ts keepEditedRemovals;
  // second read). (Held changes are listed below, after this.)
  const keptByPolicy = input.desired ? childrenKeptByPolicy(input.desired, input.sync) : () => [];
  for (const i of report.drift) {
    if (i.direction !== 'removed-live' || keptByPolicy(refKey(i.kind, i.key)).length === 0) continue;
    i.kept_by_policy = true;
    for (const child of removedChildren.get(refKey(i.kind, i.key)) ?? []) child.kept_by_policy = true;
  }
  for (const i of report.drift) {
    if (i.direction !== 'removed-live' || declaredByKey().get(refKey(i.kind, i.key))?.pinId === undefined) continue;
    i.pinned = true;
    // Its rules, removed with it, are made again by no apply either: the plan stops at the pin (probe OP-3).
    for (const child of removedChildren.get(refKey(i.kind, i.key)) ?? []) child.pinned = true;
  }
  // One the files changed, held as its name is another object's live (probe NJ-2), is pending, not drift (second read SR78-1).
  const ignoredChildren = new Map<string, DriftItem[]>();
  const adoptedChildren = new Map<string, DriftItem[]>();
  for (const c of input.plan.held ?? []) {
    const entry = item(c);
    (isFilesSide(c.direction) ? toPending : c.policy === 'ignore' ? toIgnored : toDrift)(entry, c.liveId);
    if (c.direction === 'removed-live' && c.parent) addTo(c.policy === 'ignore' ? ignoredChildren : adoptedChildren, refKey(c.parent.kind, c.parent.key), entry);
  }
  // A parent removed live that `drift: ignore` leaves alone, or `drift: adopt` holds for pull, is one line with its children too (probes YB-3, AG-2).
  withParents(report.ignored, ignoredChildren, removedWith);
  // Only under a playbook that adopt holds too: one apply makes again keeps its adopted rules lines of their own (second read SR99B-1).
  withParents(report.drift, adoptedChildren, removedWith, (i) => i.policy === 'adopt');
  if (removedWith.size > 0) report.removedWith = removedWith;
  const inPlan = new Set(input.plan.changes.map((c) => c.liveId).filter(Boolean));
  let renames: LiveRenames | undefined;
  // Two live objects of one name: each item says its id (probe GE-3).
  const unmatchedNames = new Map<string, number>();
  for (const l of input.unmatched) unmatchedNames.set(refKey(l.kind, l.key), (unmatchedNames.get(refKey(l.kind, l.key)) ?? 0) + 1);
  for (const l of input.unmatched) {
    if (input.quiet.has(l.kind) || inPlan.has(l.id)) continue;
    const pendingIn = pendingDocumentOf(input.pendingDocuments, l);
    if (pendingIn !== undefined) {
      (report.adopting ??= []).push({ kind: l.kind, key: l.key, name: l.name, file: pendingIn });
      continue;
    }
    // Declared before and dropped from the files (a kind the services cannot delete): not drift.
    const removed = droppedFromFiles(l, input.sync, input.plan.ids, input.declared);
    if (!removed && input.onlyDropped?.has(l.kind)) continue;
    // Or one the files declare, matched to another live object (by its `id:` pin): probe UH-1.
    const namesake = (unmatchedNames.get(refKey(l.kind, l.key)) ?? 0) > 1 || declaredByKey().has(refKey(l.kind, l.key)) ? { live_id: l.id } : {};
    const entry: DriftItem = { kind: l.kind, key: l.key, name: l.name, direction: removed ? 'removed-in-files' : 'only-live', fields: [], ...(l.updatedAt ? { updated_at: l.updatedAt } : {}), ...namesake };
    // Here only for a child a target names (`rule/P/R`): the object itself is not reported.
    const named = input.named?.(l) ?? true;
    // Changed live since: the live part is drift, as for one a change removes (prune may come later).
    const edited = removed && named ? droppedEditedLive(l, input.sync, (renames ??= liveRenames([...input.plan.changes, ...(input.plan.held ?? [])], input.kinds ?? []))) : [];
    // Left live and changed there since: said once, as that drift, not also as left live, "not drift" (probe YB-2).
    if (named) {
      if (!removed) report.drift.push(entry);
      else if (edited.length === 0) report.pending.push(entry);
    }
    // A child a target names of an object only live (pull writes the object's file for it): only live too (probe LE-2).
    else if (!removed && input.childrenOf) for (const child of input.childrenOf(l.id)) toDrift({ kind: child.kind, key: child.key, name: child.name, direction: 'only-live', fields: [], ...(child.updatedAt ? { updated_at: child.updatedAt } : {}) }, child.id);
    if (edited.length > 0) toDrift({ ...entry, direction: 'changed-both', fields: edited.map((field) => ({ field, direction: 'live' })), removed_in_files: true }, l.id);
    if (removed && input.childrenOf) for (const work of editedLiveChildren(l.id, input.sync, input.childrenOf)) toDrift(editedChild(work), work.child.id);
  }
  return report;
}

/** Each parent in `list` removed live, with the children removed with it that `list` holds: said on its line. */
function withParents(list: readonly DriftItem[], childrenOf: ReadonlyMap<string, DriftItem[]>, into: Map<DriftItem, DriftItem[]>, parentTakes: (i: DriftItem) => boolean = () => true): void {
  if (childrenOf.size === 0) return;
  const listed = new Set(list);
  for (const i of list) {
    const children = i.direction === 'removed-live' && parentTakes(i) ? childrenOf.get(refKey(i.kind, i.key))?.filter((child) => listed.has(child)) : undefined;
    // Added to those said with it already, not in their place.
    if (children?.length) into.set(i, [...(into.get(i) ?? []), ...children]);
  }
}

/** A child (rule) of an object the files removed, edited or made live since the last sync: its live part is drift. */
function editedChild({ child, fields, made }: ChildWork): DriftItem {
  const direction = made ? 'only-live' : 'changed-both';
  return { kind: child.kind, key: child.key, name: child.name, direction, fields: fields.map((field) => ({ field, direction: 'live' })), ...(child.updatedAt ? { updated_at: child.updatedAt } : {}), removed_in_files: true };
}

/**
 * Adds to `list` one item per object and direction (`oneDirection`: per object): a rename and an
 * update of one rule (two changes) are one object that moved. Found by identity, not by a scan: a
 * drift report can hold every object of a large organization. A live object is known by its id
 * too: two can share a key (rule "X/Y" of playbook "K" and rule "Y" of playbook "K/X").
 */
function adderTo(list: DriftItem[], oneDirection = false): (entry: DriftItem, liveId?: string) => void {
  const byIdentity = new Map<string, DriftItem>();
  return (entry, liveId) => {
    const object = `${entry.key}\n${liveId ?? ''}`;
    const identity = oneDirection ? `${entry.kind}\n${object}` : `${entry.kind}\n${object}\n${entry.direction}`;
    const same = byIdentity.get(identity);
    if (!same) {
      byIdentity.set(identity, entry);
      list.push(entry);
      return;
    }
    // Renamed in the app (changed live) and edited on both sides: the object changed on both.
    if (same.direction !== entry.direction && entry.direction === 'changed-both') same.direction = 'changed-both';
    const known = new Set(same.fields.map((f) => f.field));
    same.fields.push(...entry.fields.filter((f) => !known.has(f.field)));
  };
}

/**
 * A live object no file declares that was in sync: the files dropped it (not drift, not pulled).
 * Unless the identity it was in sync under is declared still and held by another live object:
 * renamed in the app, and another made under its old name (the files matched that one): only live.
 */
export function droppedFromFiles(l: LiveResource, sync: Pick<SyncState, 'byId' | 'byKey'>, ids: Readonly<Record<string, string>>, declared: ReadonlySet<string>): boolean {
  const record = sync.byId.get(l.id);
  // No record of its own (every record names its id): one under its name is another object's, made in the app since.
  if (record === undefined) return false;
  if (record.key === refKey(l.kind, l.key) || !declared.has(record.key)) return true;
  const holder = ids[record.key];
  return holder === undefined || holder === l.id;
}

