/**
 * Whether a saved plan may still be applied: the configuration and every live object it touches
 * must be as they were when it was made. Reads live state; the comparison itself is pure.
 */
import { canonicalUrl, lockEntries, type LockFile } from '../config/lock.js';
import { quoteValue } from '../config/quote.js';
import { KINDS, kindNamed, type AnyKind } from '../kinds/index.js';
import type { Services } from '../kinds/kind.js';
import { checkedFields, fingerprint, managedFields, storable, type KindMeta } from './diff.js';
import { canonicalJson } from './canonical.js';
import { childrenFingerprint, childrenLookup } from './children.js';
import { fetchLive } from './live.js';
import { lockMovedSincePlan } from './lock-seen.js';
import { childrenNoun } from './target.js';
import { matchedToDeclared } from './matched.js';
import { unconfirmedSincePlan } from './uncertain.js';
import { landingSincePlan, type LandingMarks } from './landing.js';
import { kindsToRead, type PruneSwitches } from './project.js';
import { CREATE_ACTIONS, formerKeys, namesakeNote, refKey, type Change, type DesiredResource, type LiveResource, type Plan, type PlanTarget } from './types.js';

export interface StaleCheck {
  /** The digest of the configuration as it is now. */
  configDigest: string;
  /** Where the plan would apply now (after the live reads). */
  target: PlanTarget;
  live: LiveResource[];
  /** The fields the fingerprint of a change covers (checkedFields); undefined: every field. */
  checked?: (c: Change) => readonly string[] | undefined;
  /**
   * The fields it may have covered when the plan was made, under another configuration (a drift
   * policy changed since): the plan is stale for that change, and no live edit is said that none made.
   */
  checkedBefore?: (c: Change) => readonly (readonly string[] | undefined)[];
  /** The kinds read: one of them with nothing live (the only playbook archived) was still read. Else those with something live. */
  read?: ReadonlySet<string>;
  /**
   * Objects (\`kind:key\`) whose live fingerprint cannot be compared: they name an upload
   * docket.lock.json no longer records, which now reads as a bare id (said as its own reason).
   */
  uncomparable?: ReadonlySet<string>;
  /**
   * Uploads (\`kind:key\`) docket.lock.json no longer records: the service cannot list them, so
   * they read as not live, which is not what happened (said as its own reason; probe KD-3).
   */
  unrecorded?: ReadonlySet<string>;
  /**
   * Whether the files rename the declared `kind:key` from live object `l`'s name (`renamed_from`, or
   * an `id:` pin): a plan cut to `--target`s may create children in it without its rename, and its
   * live name is then the one it had when the plan was made (probe PS-1).
   */
  renamedInFiles?: (kindKey: string, l: LiveResource) => boolean;
}

/**
 * How the place the plan was made for differs from where it would apply now, as "what (then, now)";
 * undefined when it does not. What this run has not had to find out yet (the review organization or
 * path style, learnt from the first review request, when the plan touches nothing there) cannot
 * tell a difference, and does not matter to a plan that makes no review call.
 */
export function targetDifference(planned: PlanTarget, now: PlanTarget): string | undefined {
  const was = (then: string, current: string): string => `${then} then, ${current} now`;
  if (planned.emulator !== now.emulator) return planned.emulator ? was('the emulator', 'the services') : was('the services', 'the emulator');
  // Every service that moved: the one the plan writes to may be the second.
  const moved: string[] = [];
  const plannedUrl = planned.agreements?.url ?? null;
  const nowUrl = now.agreements?.url ?? null;
  // One service however its URL is spelled (`…/review/`, `LOCALHOST`), as the lock's sections count it.
  const sameUrl = (a: string | null, b: string | null): boolean => a === b || (a !== null && b !== null && canonicalUrl(a) === canonicalUrl(b));
  if (!sameUrl(plannedUrl, nowUrl)) moved.push(`agreements service: ${was(plannedUrl ?? 'not used', nowUrl ?? 'not used')}`);
  else {
    // Another agreements key at the same URL acts for another organization.
    const plannedOrg = planned.agreements?.organization_id;
    const nowOrg = now.agreements?.organization_id;
    if (plannedOrg && nowOrg && plannedOrg.toLowerCase() !== nowOrg.toLowerCase()) moved.push(`agreements organization: ${was(plannedOrg, nowOrg)}`);
  }
  const p = planned.review;
  const n = now.review;
  if (!p || !n) {
    if (Boolean(p) !== Boolean(n)) moved.push(`review service: ${was(p?.url ?? 'not used', n?.url ?? 'not used')}`);
  } else if (!sameUrl(p.url, n.url)) moved.push(`review service: ${was(p.url, n.url)}`);
  // Not known on either side: a plan that never had to learn it made no review call (probe FG-3).
  else if (n.organization_id !== '' && p.organization_id !== '' && p.organization_id !== n.organization_id) moved.push(`review organization: ${was(p.organization_id, n.organization_id)}`);
  else if (n.path_style !== undefined && p.path_style !== undefined && p.path_style !== n.path_style) moved.push(`review paths: ${was(p.path_style, n.path_style)}`);
  return moved.length > 0 ? moved.join('; ') : undefined;
}

/** How a plan made for another target (services, emulator, organization) is said stale. */
export const OTHER_TARGET = 'the plan was made for a different target';

/** Why a saved plan may not be applied any more: configuration, target or touched live objects changed. */
export function staleReasons(plan: Plan, now: StaleCheck): string[] {
  const reasons: string[] = [];
  // The digest is of the configuration as read: an environment variable's value counts as much as the files.
  if (plan.config_digest !== now.configDigest) reasons.push('the configuration changed since the plan was made (its files, or a value they take from the environment), or it is not the one the plan was made from (apply it with -C naming that folder)');
  const moved = targetDifference(plan.target, now.target);
  // Elsewhere, what the plan touched is not there to compare: that follows from the target alone.
  if (moved) return [...reasons, `${OTHER_TARGET} (${moved})`];
  const byId = new Map(now.live.map((l) => [`${l.kind}:${l.id}`, l]));
  const kindsRead = now.read ?? new Set(now.live.map((l) => l.kind));
  // An object the plan changes and that is gone is said once, below, not also for each reference to it.
  const gone = new Set(plan.changes.filter((c) => c.liveId && !byId.has(`${c.kind}:${c.liveId}`)).map((c) => refKey(c.kind, c.key)));
  // The ids the plan resolves references to must still be those objects' ids, and theirs, not
  // another object's (an edited plan file would send it): an object the plan renames, or whose
  // rename in the app a policy holds, is live under another name; so is a pinned attachment the
  // plan uploads again under a new name (an upload that names the object it replaces).
  const renaming = new Set([...plan.changes, ...(plan.held ?? [])].filter((c) => (c.action === 'rename' || c.action === 'upload') && c.liveId).map((c) => `${refKey(c.kind, c.key)}|${c.liveId}`));
  for (const c of plan.changes) {
    for (const ref of c.refs) {
      const id = plan.ids[`${ref.kind}:${ref.key}`];
      if (!id || !kindsRead.has(ref.kind) || gone.has(refKey(ref.kind, ref.key))) continue;
      const holder = byId.get(`${ref.kind}:${id}`);
      if (!holder) reasons.push(`${named(ref.kind, ref.key)} no longer has the id the plan recorded`);
      else if (holder.key !== ref.key && !renaming.has(`${refKey(ref.kind, ref.key)}|${id}`)) reasons.push(`${named(ref.kind, ref.key)} has another id than the plan records for it (${id} is ${named(ref.kind, holder.key)})`);
    }
  }
  // Each name live, in its scope, with the ids that hold it; not the objects the plan itself renames
  // away, replaces by an upload under another name (an attachment renamed away), or removes (their
  // fingerprints say they still hold their planned names).
  const liveKeyOf = (c: Change): string | undefined => byId.get(`${c.kind}:${c.liveId}`)?.key;
  const movesAway = (c: Change): boolean => c.action === 'rename' || c.action === 'delete' || c.action === 'archive' || (CREATE_ACTIONS.includes(c.action) && c.key !== liveKeyOf(c));
  // Only while it still holds the name the plan moves it from: renamed in the app since, it holds
  // another name, which a create of the plan may be about to take too (probe GV).
  const stillWherePlanned = (c: Change): boolean => {
    const live = byId.get(`${c.kind}:${c.liveId}`);
    if (CREATE_ACTIONS.includes(c.action) || !live) return true;
    // By its own name: a child's key holds its parent's, which the plan may rename too (second
    // read). A rename that does not say its former name is taken to hold it, as before.
    const before = c.action === 'rename' ? c.fields.find((f) => f.field === 'name')?.before : c.name;
    return typeof before !== 'string' || live.name === before;
  };
  const vacated = new Set(plan.changes.filter((c) => c.liveId && movesAway(c) && stillWherePlanned(c)).map((c) => `${c.kind}:${c.liveId}`));
  const holders = new Map<string, string[]>();
  for (const l of now.live) {
    if (vacated.has(`${l.kind}:${l.id}`)) continue;
    const slot = l.parentId ? `${l.kind}|${l.parentId}|${l.name}` : `${l.kind}|${l.key}`;
    const ids = holders.get(slot);
    if (ids) ids.push(l.id);
    else holders.set(slot, [l.id]);
  }
  const heldBy = (c: Change): string[] => {
    const scope = c.parent ? (c.parent.liveId ?? plan.ids[`${c.parent.kind}:${c.parent.key}`]) : undefined;
    return holders.get(c.parent ? `${c.kind}|${scope}|${c.name}` : `${c.kind}|${c.key}`) ?? [];
  };
  const configChanged = now.configDigest !== plan.config_digest;
  const fingerprintHolds = (live: LiveResource, c: Change): boolean =>
    fingerprint(live, now.checked?.(c)) === c.fingerprint || (configChanged && (now.checkedBefore?.(c) ?? []).some((fields) => fingerprint(live, fields) === c.fingerprint));
  // An object the plan both renames and updates is said once, by the first of its changes.
  const said = new Set<string>();
  for (const c of plan.changes) {
    // The organization, of which there is one, by what it is, not as `organization "organization"`.
    // One of two live objects of one name, by its id as the plan named it (second read SR97-3).
    const label = c.action === 'rename' ? renameLabel(c) : kindNamed(c.kind)?.singleton === true ? `the ${c.kind}` : `${named(c.kind, c.key)}${namesakeNote(c)}`;
    if (c.liveId) {
      const live = byId.get(`${c.kind}:${c.liveId}`);
      const once = (reason: string): void => {
        if (!said.has(`${c.kind}:${c.liveId}`)) reasons.push(reason);
        said.add(`${c.kind}:${c.liveId}`);
      };
      if (!live && now.unrecorded?.has(refKey(c.kind, c.key))) said.add(`${c.kind}:${c.liveId}`);
      else if (!live) once(c.action !== 'rename' && heldBy(c).length > 0 ? `${label} was replaced since the plan (another object of that name is live now)` : `${label} no longer exists live`);
      // With the configuration changed too (an `ignore_fields` no candidate covers), what was fingerprinted is not known for sure.
      else if (c.fingerprint !== null && !now.uncomparable?.has(refKey(c.kind, c.key)) && !fingerprintHolds(live, c)) once(configChanged ? `${label} may have changed live since the plan (the configuration changed too, so docket cannot tell)` : `${label} changed live since the plan`);
      // Another object given the new name since: renaming onto it (or uploading it again under it) would make two of that name.
      if (live && c.action === 'rename' && heldBy(c).some((id) => id !== c.liveId)) reasons.push(`${named(c.kind, c.key)} now exists live, so renaming ${quoteValue(live.name)} to it would duplicate it`);
      if (live && movesAway(c) && CREATE_ACTIONS.includes(c.action) && heldBy(c).some((id) => id !== c.liveId)) reasons.push(`${named(c.kind, c.key)} now exists live, so uploading ${quoteValue(live.name)} again under that name would duplicate it`);
    } else if (CREATE_ACTIONS.includes(c.action)) {
      if (heldBy(c).length > 0) reasons.push(`${label} now exists live, so ${c.action === 'invite' ? 'inviting it would invite it twice' : `${c.action === 'upload' ? 'uploading' : 'creating'} it would duplicate it`}`);
    }
  }
  reasons.push(...lostParents(plan, byId, kindsRead, gone, renaming, (kind, key) => holders.has(`${kind}|${key}`), now.renamedInFiles));
  reasons.push(...childrenMoved(plan, now.live, gone));
  return [...new Set(reasons)];
}

/** The parents the plan removes whose children, which go with them, changed live since the plan. */
function childrenMoved(plan: Plan, live: readonly LiveResource[], gone: ReadonlySet<string>): string[] {
  const removed = plan.changes.filter((c) => c.childrenFingerprint !== undefined && c.liveId && !gone.has(refKey(c.kind, c.key)));
  if (removed.length === 0) return [];
  const childrenOf = childrenLookup(live);
  return removed
    .filter((c) => childrenFingerprint(childrenOf(c.liveId!)) !== c.childrenFingerprint)
    .map((c) => `${named(c.kind, c.key)}, which the plan ${c.action === 'delete' ? 'deletes' : 'archives'}, had ${childrenNoun(KINDS, c.kind)} edited, made or removed live since the plan (they go with it)`);
}

/**
 * The parents the plan's creates go into, where the plan found them live, that are no longer
 * there or went by another name since: archived in the app, each create would fail half-way
 * through the apply beside the changes that went ahead; renamed there, the rule would land in a
 * playbook the files do not name. Said once per parent.
 */
function lostParents(
  plan: Plan,
  byId: ReadonlyMap<string, LiveResource>,
  kindsRead: ReadonlySet<string>,
  gone: ReadonlySet<string>,
  renaming: ReadonlySet<string>,
  /** Whether a top-level object of that kind and name is live now (staleReasons' index of names). */
  liveNamed: (kind: string, key: string) => boolean,
  renamedInFiles: StaleCheck['renamedInFiles'],
): string[] {
  const reasons: string[] = [];
  // A parent the plan changes itself is checked as such above (its fingerprint, or gone).
  const changed = new Set(plan.changes.filter((c) => c.liveId).map((c) => refKey(c.kind, c.key)));
  for (const c of plan.changes) {
    if (!c.parent || !CREATE_ACTIONS.includes(c.action) || !kindsRead.has(c.parent.kind)) continue;
    const parentKey = refKey(c.parent.kind, c.parent.key);
    const parentId = c.parent.liveId ?? plan.ids[`${c.parent.kind}:${c.parent.key}`];
    // A parent the plan creates has no id yet.
    if (!parentId || gone.has(parentKey) || changed.has(parentKey)) continue;
    const parent = byId.get(`${c.parent.kind}:${parentId}`);
    const label = `${named(c.parent.kind, c.parent.key)}`;
    const creates = `the plan creates ${kindNamed(c.kind)?.title.toLowerCase() ?? `${c.kind}s`} in it`;
    if (!parent) {
      // Archived and made again under its name in the app: a person finds one of that name live.
      reasons.push(liveNamed(c.parent.kind, c.parent.key) ? `${label} was replaced since the plan (another object of that name is live now; ${creates})` : `${label} no longer exists live (${creates})`);
    } else if (parent.key !== c.parent.key && !renaming.has(`${parentKey}|${parentId}`) && renamedInFiles?.(parentKey, parent) !== true) reasons.push(`${label} was renamed live to ${quoteValue(parent.name)} since the plan (${creates})`);
  }
  return reasons;
}

/** An object as a reason names it: its kind and its identity, quoted whole. */
function named(kind: string, key: string): string {
  return `${kind} ${quoteValue(key, Infinity)}`;
}

/** The key a rename moves its object from (its own key when the change says no former name). */
function formerKeyOf(c: Change): string {
  const from = c.fields.find((f) => f.field === 'name')?.before;
  if (typeof from !== 'string') return c.key;
  return c.parent ? `${c.parent.key}/${from}` : from;
}

/** A rename is of the object under its old name, which is what a person finds live (or not). */
function renameLabel(c: Change): string {
  const former = formerKeyOf(c);
  if (former === c.key) return `${named(c.kind, c.key)}`;
  return `${named(c.kind, former)} (renamed to ${quoteValue(c.key, Infinity)} by the plan)`;
}

/**
 * Changes of a saved plan whose values are not what the configuration declares. The configuration
 * is the one the plan was made from (its digest says so), so a difference is an edit of the plan
 * file: applied, it would go live and then read as a change made in the app.
 */
export function editedChanges(plan: Plan, desired: readonly DesiredResource[], kinds: readonly KindMeta[]): string[] {
  const byKey = new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
  const kindOf = new Map(kinds.map((k) => [k.name, k]));
  const out: string[] = [];
  // The live objects the plan matched to declared ones, by id: whatever name a removal carries.
  let matched: Map<string, string> | undefined;
  const declaredAs = (kind: string, liveId: string): string | undefined => (matched ??= matchedToDeclared(plan, desired)).get(`${kind}:${liveId}`);
  for (const c of plan.changes) {
    const d = byKey.get(refKey(c.kind, c.key));
    const kind = kindOf.get(c.kind);
    // Removing an object the plan matched to a declared one (not a duplicate of its name): no plan docket makes.
    const removesDeclared = (c.action === 'delete' || c.action === 'archive') && c.liveId !== undefined ? declaredAs(c.kind, c.liveId) : undefined;
    if (removesDeclared !== undefined) {
      out.push(`${named(c.kind, c.key)}: the plan removes what the configuration declares as ${named(c.kind, removesDeclared)} (was PLAN.json edited?)`);
      continue;
    }
    if (!c.desired || !d || !kind) continue;
    const declared = Object.assign({}, d.fields, !c.liveId && CREATE_ACTIONS.includes(c.action) ? d.createOnly : undefined, d.payload);
    // As the plan file holds it: through JSON, both sides; a plan made in this run holds what JSON
    // drops (the mark that keeps a definition's fields in their order), which compared otherwise
    // (probe JK-1: every interactive apply of a custom template was refused as edited).
    const expected: unknown = JSON.parse(JSON.stringify(storable(kind, declared)));
    if (canonicalJson(expected) !== canonicalJson(JSON.parse(JSON.stringify(c.desired)))) out.push(`${named(c.kind, c.key)}: the plan's values are not what the configuration declares (was PLAN.json edited?)`);
  }
  return out;
}

export interface SavedPlanCheck {
  desired: DesiredResource[];
  kinds?: readonly AnyKind[];
  services: Services;
  lock: LockFile;
  prune: PruneSwitches;
  concurrency: number;
  /** The configuration's digest now; asked for once the reads are under way. */
  configDigest: string | (() => Promise<string>);
  target: () => PlanTarget;
  /** Creates, invitations and publishes an apply stopped waiting for (docket.lock.json's `landing`). */
  landing?: LandingMarks;
}

/** Reads what the plan and the configuration touch, and says why the plan went stale (empty: it holds). */
export async function checkSavedPlan(plan: Plan, input: SavedPlanCheck): Promise<string[]> {
  const kinds = input.kinds ?? KINDS;
  const planned = new Set(plan.changes.map((c) => c.kind));
  // Only what the plan touches is read: its objects, and the parents they live in (a plan that
  // edits 200 of 20,000 rules reads 200 rule lists, not 500). Kinds read whole lists anyway.
  const touched = new Set(plan.changes.flatMap((c) => [refKey(c.kind, c.key), ...(c.parent ? [refKey(c.parent.kind, c.parent.key)] : [])]));
  // And what those objects name (a template's attachment, a rule's reviewer): a kind reads a
  // referenced object differently when it is declared (a pinned attachment without a lock entry).
  for (const d of input.desired) if (touched.has(refKey(d.kind, d.key))) for (const r of d.refs) touched.add(refKey(r.kind, r.key));
  const declared = input.desired.filter((d) => touched.has(refKey(d.kind, d.key)));
  // The children of a parent the plan removes go with it: read again where the plan read them (probe GB-2).
  const removedParents = new Map(plan.changes.flatMap((c) => (c.childrenFingerprint !== undefined && c.liveId ? [[c.liveId, c] as const] : [])));
  const childKinds = kinds.filter((k) => k.parentKind !== undefined && [...removedParents.values()].some((c) => c.kind === k.parentKind));
  const read = [...new Set([...kindsToRead(declared, input.prune, kinds), ...kinds.filter((k) => planned.has(k.name)), ...childKinds])];
  // The plan's ids find what was renamed in the app since it was matched.
  const removedKey = (c: Change | undefined): string[] => (c ? [refKey(c.kind, c.key)] : []);
  const synced = { idOf: (kindKey: string) => plan.ids[kindKey], keysWithId: (id: string) => removedKey(removedParents.get(id)) };
  const readDropped = new Set([...removedParents.values()].map((c) => c.kind));
  const reading = fetchLive({ kinds: read, known: kinds, services: input.services, concurrency: input.concurrency, lock: input.lock, declared, readDropped, synced: () => synced });
  const [{ live, uncertain }, configDigest] = await Promise.all([reading, typeof input.configDigest === 'string' ? input.configDigest : input.configDigest()]);
  // Of what the plan touches only: a plan of 200 changes asks about 200 objects, not 20,000.
  const declaredByKey = new Map(declared.map((d) => [refKey(d.kind, d.key), d]));
  const checked = (c: Change): readonly string[] | undefined => {
    const d = declaredByKey.get(refKey(c.kind, c.key));
    return d ? checkedFields(d, c) : undefined;
  };
  // What checkedFields gives under either kind of drift policy (probe GB).
  const checkedBefore = (c: Change): (readonly string[] | undefined)[] => {
    const d = declaredByKey.get(refKey(c.kind, c.key));
    return d ? [managedFields(d), c.fields.map((f) => f.field)] : [];
  };
  const lost = lostUploads(plan, input.lock, input.desired, kinds);
  const naming = new Set(lost.keys());
  // By what the files name (a change's own refs are only those of the fields it sends).
  const uncomparable = new Set(naming.size === 0 ? [] : input.desired.filter((d) => d.refs.some((r) => naming.has(refKey(r.kind, r.key)))).map((d) => refKey(d.kind, d.key)));
  const renamedInFiles = (kindKey: string, l: LiveResource): boolean => {
    const d = declaredByKey.get(kindKey);
    return d !== undefined && (formerKeys(d).includes(refKey(l.kind, l.key)) || d.pinId?.toLowerCase() === l.id.toLowerCase());
  };
  const target = input.target();
  const checks = staleReasons(plan, { configDigest, target, live, checked, checkedBefore, read: new Set(read.map((k) => k.name)), uncomparable, unrecorded: naming, renamedInFiles });
  // Elsewhere, the lock's records here say nothing of the plan's uploads and creates: the target is the reason (probe FG-5).
  if (checks.some((reason) => reason.startsWith(OTHER_TARGET))) return checks;
  const reasons = [...checks, ...lockMovedSincePlan(plan, input.lock), ...unconfirmedSincePlan(plan, uncertain), ...landingSincePlan(plan, input.landing ?? new Map(), input.desired), ...lost.values()];
  // Worth comparing only against the configuration the plan was made from.
  return plan.config_digest === configDigest ? [...reasons, ...editedChanges(plan, input.desired, kinds), ...removalsOfDeclared(plan, input.desired, live)] : reasons;
}

/**
 * Uploads the plan knew from docket.lock.json (their ids in its \`ids\`) that the lock no longer
 * records: the service cannot list them, so the files' references to them no longer resolve, and
 * the apply would record those objects as naming an upload still to be made (the next plan would
 * call them changed live). A pinned upload (\`id:\`) needs no entry.
 */
export function lostUploads(plan: Plan, lock: LockFile, desired: readonly DesiredResource[], kinds: readonly Pick<AnyKind, 'name' | 'uploadsUnreadable'>[]): Map<string, string> {
  /** \`kind:key\` of each lost upload → the reason. */
  const out = new Map<string, string>();
  const pinned = new Set(desired.flatMap((d) => (d.pinId ? [refKey(d.kind, d.key)] : [])));
  for (const kind of kinds) {
    if (!kind.uploadsUnreadable) continue;
    const prefix = `${kind.name}:`;
    const entries = lockEntries(lock.files, kind.name);
    const recorded = new Set([...entries.values()].flatMap((e) => (e.id ? [e.id.toLowerCase()] : [])));
    for (const [kindKey, id] of Object.entries(plan.ids)) {
      if (!kindKey.startsWith(prefix) || pinned.has(kindKey) || recorded.has(id.toLowerCase())) continue;
      // Uploaded again since the plan (its entry names the plan's upload as the one it superseded):
      // the lock lost nothing, and the check of the plan's ids says what moved.
      const entry = entries.get(kindKey.slice(prefix.length));
      if (entry?.id && (entry.superseded ?? []).some((earlier) => earlier.toLowerCase() === id.toLowerCase())) continue;
      // Another upload recorded under its name since (an apply of this or another checkout): not a lost lock to restore (probe GA-2).
      const again = entry?.id ? `${named(kind.name, kindKey.slice(prefix.length))} was uploaded again since the plan: docket.lock.json records ${entry.id}, not the plan's ${id}` : undefined;
      out.set(kindKey, again ?? `docket.lock.json no longer records the upload of ${named(kind.name, kindKey.slice(prefix.length))} (${id}) that the plan was made with`);
    }
  }
  return out;
}

/**
 * Removals of live objects the configuration declares, found by what is live now, not by the
 * plan's own ids (an edited plan file may drop those too): a live object under a name the files
 * declare, the only one of that name, or one a file pins by id. No plan docket makes removes one;
 * nor does it remove anything without a fingerprint.
 */
export function removalsOfDeclared(plan: Plan, desired: readonly DesiredResource[], live: readonly LiveResource[]): string[] {
  const removals = plan.changes.filter((c) => (c.action === 'delete' || c.action === 'archive') && c.liveId !== undefined);
  if (removals.length === 0) return [];
  // By name: not a document pinned by id, which means its pinned object whatever it is called. A
  // child by its parent too: rule `A/B` of `P` and rule `B` of `P/A` share a key (probe FU).
  const declared = new Map(desired.filter((d) => !d.pinId).map((d) => [refKey(d.kind, d.key), d.parent ? refKey(d.parent.kind, d.parent.key) : undefined]));
  const pinned = new Set(desired.flatMap((d) => (d.pinId ? [`${d.kind}:${d.pinId}`] : [])));
  const byId = new Map(live.map((l) => [`${l.kind}:${l.id}`, l]));
  const holding = new Map<string, number>();
  for (const l of live) holding.set(refKey(l.kind, l.key), (holding.get(refKey(l.kind, l.key)) ?? 0) + 1);
  let parentIds: Map<string, Set<string>> | undefined;
  // The live ids the declared parent's key names (by what is live, as above).
  const underDeclaredParent = (parentKey: string | undefined, l: LiveResource): boolean => {
    if (parentKey === undefined) return true;
    if (!parentIds) {
      parentIds = new Map();
      for (const p of live) if (p.parentId === undefined) parentIds.set(refKey(p.kind, p.key), (parentIds.get(refKey(p.kind, p.key)) ?? new Set()).add(p.id));
    }
    return l.parentId !== undefined && (parentIds.get(parentKey)?.has(l.parentId) ?? false);
  };
  const out: string[] = [];
  for (const c of removals) {
    const l = byId.get(`${c.kind}:${c.liveId}`);
    if (!l) continue;
    const key = refKey(l.kind, l.key);
    if (c.fingerprint === null) out.push(`${named(c.kind, c.key)}: the plan removes it without the fingerprint docket writes (was PLAN.json edited?)`);
    else if (pinned.has(`${l.kind}:${l.id.toLowerCase()}`)) out.push(`${named(c.kind, c.key)}: the plan removes what the configuration declares as ${named(l.kind, l.key)} (was PLAN.json edited?)`);
    else if (declared.has(key) && underDeclaredParent(declared.get(key), l)) {
      // Renamed in the app since the plan (which knew it by the change's name), onto a name the
      // files declare: no edit of the plan file (probe GV), and said also where another object
      // holds that name, as two do now (probe GY).
      const renamedLive = l.name !== c.name && plan.ids[refKey(c.kind, c.key)] === c.liveId;
      const holders = holding.get(key) ?? 0;
      if (renamedLive) out.push(`${named(c.kind, c.key)} was renamed live to ${quoteValue(l.name, Infinity)} since the plan, a name the configuration declares${holders > 1 ? ` and ${holders - 1 === 1 ? 'another live object holds' : `${holders - 1} other live objects hold`} too` : ''}: the plan would ${c.action} it`);
      else if (holders === 1) out.push(`${named(c.kind, c.key)}: the plan removes what the configuration declares as ${named(l.kind, l.key)} (was PLAN.json edited?)`);
    }
  }
  return out;
}
