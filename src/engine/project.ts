/**
 * The plan life cycle of a project, without any command line: which kinds to read and which
 * services that takes, reading live state, the guarded and targeted plan, and whether a saved plan
 * still holds. The CLI, the tests and the benchmark call these.
 */
import { withLockSeen } from './lock-seen.js';
import { fingerprintRemovedChildren } from './children.js';
import type { UnsentHold } from './unsent.js';
import type { VariableOrigins } from '../config/schema.js';
import { uniqueDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { LockFile } from '../config/lock.js';
import { UsageError } from '../errors.js';
import { KINDS, type AnyKind } from '../kinds/index.js';
import type { Services } from '../kinds/kind.js';
import type { ServiceName } from '../api/types.js';
import { guardWarning, massDeleteViolations, recreateViolations } from './guard.js';
import { fetchLive } from './live.js';
import { buildPlan } from './plan.js';
import { landedPublishRecords, landedRecords, resolveLanding, settledRecords, type LandingMark, type LandingMarks } from './landing.js';
import { withRecordsAdded, type SyncState } from './sync.js';
import { childInTargets, limitToTargets, parseTarget, type TargetSpec } from './target.js';
import { inScope, targetKinds, targetScope, unreadChildren } from './target-scope.js';
import { pendingDocumentOf, refKey, type DesiredResource, type KindName, type LiveResource, type Plan, type PlanTarget, type UndeclaredSummary } from './types.js';

/** `prune:` of docket.yaml, by each kind's prune key; `all` is `--prune`. */
export type PruneSwitches = Readonly<Record<string, boolean>> | 'all';

function pruneOn(kind: AnyKind, prune: PruneSwitches): boolean {
  return kind.pruneKey !== undefined && (prune === 'all' || prune[kind.pruneKey] === true);
}

/** Kinds to read: those declared, their children, what they reference, and prunable kinds with prune on. */
export function kindsToRead(desired: readonly DesiredResource[], prune: PruneSwitches, kinds: readonly AnyKind[] = KINDS): AnyKind[] {
  const names = new Set<KindName>();
  for (const d of desired) {
    names.add(d.kind);
    for (const r of d.refs) names.add(r.kind);
  }
  for (const k of kinds) if (pruneOn(k, prune)) names.add(k.name);
  for (const k of kinds) if (k.parentKind && names.has(k.parentKind)) names.add(k.name);
  return kinds.filter((k) => names.has(k.name));
}

/**
 * The kinds the files manage: those they declare objects of or prune (and `also`), with their children. A kind
 * read only because a reference names it (the custom terms of custom templates) is not one: its
 * objects no file declares are not the files' (drift and pull leave them).
 */
export function kindsManaged(desired: readonly DesiredResource[], prune: PruneSwitches, kinds: readonly AnyKind[] = KINDS, also: readonly KindName[] = []): Set<KindName> {
  const names = new Set<KindName>([...desired.map((d) => d.kind), ...also]);
  for (const k of kinds) if (pruneOn(k, prune)) names.add(k.name);
  for (const k of kinds) if (k.parentKind && names.has(k.parentKind)) names.add(k.name);
  return names;
}

/** `read` plus the kinds named (and their children), in registry order. */
export function withAlso(read: readonly AnyKind[], also: readonly KindName[], kinds: readonly AnyKind[] = KINDS): AnyKind[] {
  if (also.length === 0) return [...read];
  const names = new Set([...read.map((k) => k.name), ...also]);
  for (const k of kinds) if (k.parentKind && names.has(k.parentKind)) names.add(k.name);
  return kinds.filter((k) => names.has(k.name));
}

/**
 * The kinds `read` asks for to name their objects in their own service's writes (a rule's reviewer
 * is a member's user id), with `read` itself. What a kind reads counts only when that kind's
 * declared parts use the same service: an organization that declares only its agreements part
 * needs no review members.
 */
export function withAskedFor(read: readonly AnyKind[], desired: readonly DesiredResource[] | undefined, kinds: readonly AnyKind[] = KINDS): AnyKind[] {
  const byName = new Map(kinds.map((k) => [k.name, k]));
  const all = new Map(read.map((k) => [k.name, k]));
  // Each kind's services once: finding them filters every desired resource.
  const known = new Map<string, ServiceName[]>();
  const services = (k: AnyKind): ServiceName[] => known.get(k.name) ?? known.set(k.name, servicesOf(k, desired)).get(k.name)!;
  for (const k of read) {
    const own = services(k);
    for (const r of k.reads ?? []) {
      const other = byName.get(r);
      if (other && services(other).some((s) => own.includes(s))) all.set(r, other);
    }
  }
  return [...kinds.filter((k) => all.has(k.name)), ...read.filter((k) => !byName.has(k.name))];
}

/** The services reading `kinds` (and what they ask for in turn) and writing the declared resources take. */
export function servicesNeeded(read: readonly AnyKind[], desired: readonly DesiredResource[] | undefined, kinds: readonly AnyKind[] = KINDS): Set<ServiceName> {
  const needs = new Set<ServiceName>();
  for (const k of withAskedFor(read, desired, kinds)) for (const s of servicesOf(k, desired)) needs.add(s);
  return needs;
}

function servicesOf(k: AnyKind, desired: readonly DesiredResource[] | undefined): ServiceName[] {
  if (k.servicesFor) return k.servicesFor(desired?.filter((d) => d.kind === k.name));
  return k.service === 'both' ? [] : [k.service];
}

export interface PlanProjectInput {
  desired: DesiredResource[];
  kinds?: readonly AnyKind[];
  services: Services;
  lock: LockFile;
  clock: () => Date;
  prune: PruneSwitches;
  /** `--target` values as written. */
  targets?: readonly string[];
  /** `--kind` of drift and pull: only these kinds' objects (and their children) are reported, so only their problems stop the run. */
  reportedKinds?: readonly KindName[];
  /** Kinds to read even when no file declares any (`--kind` of drift and pull: objects made in the app). */
  alsoRead?: readonly KindName[];
  /**
   * Read undeclared objects in detail too (pull writes them into files), and what the kinds read
   * ask for as kinds of their own: a value pull writes may name one of their objects.
   */
  readAll?: boolean;
  /** Kinds read only for the objects the files dropped: not read whole, even with readAll (FetchContext.droppedOnly). */
  droppedOnly?: ReadonlySet<KindName>;
  /** Upload again what an interrupted apply may have uploaded (`--retry-uncertain`). */
  retryUncertain?: boolean;
  /** `apply --adopt-files`: what the plan cannot compare is recorded as live in this run. */
  adoptFiles?: boolean;
  /** Drift and pull: the plan is only read, never sent (BuildPlanInput.readOnly). */
  readOnly?: boolean;
  safety: { max_delete_fraction: number };
  concurrency: number;
  /** What docket last saw in sync (docket.lock.json), read once the target is known; gives changes their direction. */
  sync?: () => SyncState | Promise<SyncState>;
  /** Creates, invitations and publishes an earlier apply stopped waiting for (docket.lock.json's `landing`), read as `sync` is. */
  landing?: () => LandingMarks;
  /** Where each `var.` name got the value this run uses: a reference one filled in is told where to change it. */
  varOrigin?: VariableOrigins;
  /** The live objects the pending documents (`*.yaml.pending`) name, by `kind:key` → file: read only when a reference names nothing. */
  pendingDocuments?: () => Promise<ReadonlyMap<string, string>>;
  /** What the plan records: the configuration digest, where it applies (known once read), and so on. */
  meta: { configDigest: string | (() => string); target: () => PlanTarget; environment?: string; version: string; planFormat: string | (() => string); warnings: string[] };
}

export interface PlanProjectResult {
  /** Absent when the plan could not be made (see diagnostics). */
  plan?: Plan;
  live: LiveResource[];
  diagnostics: Diagnostic[];
  /** Top-level live objects no file declares. */
  unmatched: LiveResource[];
  /** For a read-only run (drift, pull): the live objects of kinds read only because a kind read asked for them (the members, for rule reviewers), not planned. */
  readForOthers?: LiveResource[];
}

/**
 * Kinds read from docket.lock.json alone (attachments: the service cannot list them) of which the
 * lock holds an upload unconfirmed (a `pending` mark): read even when no file declares the kind any
 * more, so the plan says the upload may be an orphan and apply drops its mark, as it does beside a
 * declared one (probe ZA-1); reading them sends no request. Not under --target, which leaves marks alone.
 */
export function kindsWithPendingUploads(lock: LockFile, kinds: readonly AnyKind[] = KINDS): KindName[] {
  const names = new Set<string>();
  for (const [key, entry] of Object.entries(lock.files)) if (entry.pending) names.add(key.slice(0, key.indexOf(':')));
  return kinds.filter((k) => k.uploadsUnreadable && names.has(k.name)).map((k) => k.name);
}

/** Reads live state and plans: targets limit the plan, and the mass-delete guard is recorded in it. */
export async function planProject(input: PlanProjectInput): Promise<PlanProjectResult> {
  const kinds = input.kinds ?? KINDS;
  const targets = parseTargets(input.targets ?? [], kinds);
  // A plan or apply with targets reads their kinds' family, and of it the children of the parents they name only; drift and pull report and write more.
  const cut = !input.readOnly && !input.readAll && targets.length > 0;
  const family = cut ? targetKinds(targets, input.desired, kinds, kinds.filter((k) => pruneOn(k, input.prune)).map((k) => k.name)) : undefined;
  const scope = cut ? targetScope(targets, input.desired, kinds) : undefined;
  const inPlan = family || scope ? inScope(input.desired, scope, family) : input.desired;
  const asked = withAlso(kindsToRead(inPlan, input.prune, kinds), [...(input.alsoRead ?? []), ...(cut ? [] : kindsWithPendingUploads(input.lock, kinds))], kinds);
  const read = input.readAll ? withAskedFor(asked, input.desired, kinds) : asked;
  // What the files dropped is read in detail where its live edits matter: drift reports them (every kind), a prune would archive them.
  const readDropped = new Set(kinds.filter((k) => input.readOnly || pruneOn(k, input.prune)).map((k) => k.name));
  const { live, byKind, lockUpdates, uncertain, seenInPart, notes } = await fetchLive({ kinds: read, known: kinds, services: input.services, concurrency: input.concurrency, lock: input.lock, declared: input.desired, ...(input.readAll ? { readAll: true } : {}), ...(input.droppedOnly ? { droppedOnly: input.droppedOnly } : {}), ...(readDropped.size > 0 ? { readDropped } : {}), ...(input.sync ? { synced: input.sync } : {}), ...(scope ? { targetedParents: scope } : {}), ...(input.adoptFiles && !input.readOnly ? { adoptFiles: true } : {}) });
  const prune = Object.fromEntries(kinds.filter((k) => k.pruneKey).map((k) => [k.pruneKey!, pruneOn(k, input.prune)]));
  const marks = input.landing?.() ?? new Map<string, LandingMark>();
  const recorded = input.sync ? await input.sync() : undefined;
  // A create an earlier apply stopped waiting for, landed since, reads as that apply would have recorded it.
  const created = recorded && marks.size > 0 ? withRecordsAdded(recorded, landedRecords(marks, live, input.desired, kinds, recorded)) : recorded;
  // So does a publish it stopped waiting for, landed since.
  const landed = created && marks.size > 0 ? withRecordsAdded(created, landedPublishRecords(marks, live, created), true) : created;
  // A write an earlier apply made and never recorded (a Word publish found live) reads as recorded.
  const sync = landed && lockUpdates.some((u) => u.synced) ? withRecordsAdded(landed, settledRecords(lockUpdates, landed), true) : landed;
  const planInput = {
    kinds: read,
    desired: inPlan,
    live,
    prune,
    configDigest: input.meta.configDigest,
    target: input.meta.target(),
    ...(input.meta.environment ? { environment: input.meta.environment } : {}),
    now: input.clock(),
    version: input.meta.version,
    planFormat: input.meta.planFormat,
    warnings: notes.length > 0 ? [...input.meta.warnings, ...notes] : input.meta.warnings,
    lockUpdates,
    uncertain,
    ...(seenInPart.size > 0 ? { seenInPart } : {}),
    ...(input.retryUncertain ? { retryUncertain: true } : {}),
    ...(input.adoptFiles ? { adoptFiles: true } : {}),
    ...(input.readOnly ? { readOnly: true } : {}),
    ...sendsOf(input.targets ?? [], input.reportedKinds ?? [], kinds),
    ...(sync ? { sync } : {}),
    ...(input.varOrigin ? { varOrigin: input.varOrigin } : {}),
  };
  let result = buildPlan(planInput);
  // A reference to nothing may name what a pending document is adopting: read only then, and said (probe PL-1).
  let pending: ReadonlyMap<string, string> | undefined;
  if (input.pendingDocuments && result.diagnostics.some((d) => d.code === 'unknown-reference')) {
    pending = await input.pendingDocuments();
    if (pending.size > 0) result = buildPlan({ ...planInput, pending });
  }
  const unmatched = result.unmatched;
  if (!result.plan) return { live, diagnostics: result.diagnostics, unmatched };
  let plan = result.plan;
  // The children of a removed parent go with it: a saved plan reads them again (probe GB-2). None
  // found counts where they were read: a plan not cut to targets reads those of a dropped parent it
  // has a sync record of (FetchContext.readDropped; second read SR105-7).
  fingerprintRemovedChildren(plan.changes, kinds, live, (c) => !scope && readDropped.has(c.kind) && (recorded?.keysWithId(c.liveId!) ?? []).some((k) => k.startsWith(`${c.kind}:`)));
  // Live objects no file declares that a pending document names: counted, so the plan says how to adopt them (probe RI-3).
  // Not for quiet kinds (members, no pending document names one): most plans would walk the directory again for them.
  if (input.pendingDocuments && plan.undeclared.some((u) => u.count > 0 && !u.quiet)) {
    pending ??= await input.pendingDocuments();
    if (pending.size > 0) plan = { ...plan, undeclared: withPendingCounts(plan.undeclared, unmatched, pending) };
  }
  if (targets.length > 0) {
    const unplannedParent = scope ? (parent: { kind: KindName; key: string }): boolean => scope.get(parent.kind)?.has(parent.key) === false : undefined;
    const limited = limitToTargets(plan, input.desired, targets, kinds, { undeclaredParents: Boolean(input.readAll || input.readOnly), ...(input.readOnly ? { readOnly: true } : {}), ...(unplannedParent ? { unplannedParent } : {}) });
    if (!limited.plan) return { live, diagnostics: uniqueDiagnostics([...result.diagnostics, ...limited.diagnostics.items]), unmatched };
    // A change kept because a target depends on it sends its references too.
    const kept = new Set(limited.plan.changes.map((c) => refKey(c.kind, c.key)));
    const sent = (result.unsentReferences ?? []).filter((u) => kept.has(u.of)).map((u) => u.diagnostic);
    if (sent.length > 0) return { live, diagnostics: uniqueDiagnostics([...result.diagnostics, ...sent]), unmatched };
    plan = limited.plan;
  }
  // Of the changes the plan sends, cut to its targets: a mark of an object it leaves alone stays.
  const landing = resolveLanding(marks, plan.changes, input.desired, { now: input.clock(), ...(input.readOnly ? { readOnly: true } : {}), ...(input.retryUncertain ? { retry: true } : {}), ...(targets.length > 0 ? { sends: childInTargets(input.targets ?? [], kinds) } : {}) });
  if (landing.stops.length > 0 && !input.readOnly) return { live, diagnostics: uniqueDiagnostics([...result.diagnostics, ...landing.stops]), unmatched };
  // Set on the plan as built, not spread: a spread would work out its configuration digest now.
  plan.warnings.push(...landing.warnings);
  if (landing.givenUp.length > 0) plan.landing_given_up = landing.givenUp;
  const diagnostics = input.readOnly && landing.stops.length > 0 ? uniqueDiagnostics([...result.diagnostics, ...landing.stops]) : result.diagnostics;
  // The children a targeted plan did not read count as last synced: a removal's share of the kind is about the same cut or not.
  const unread = scope && sync ? unreadChildren(scope, input.desired, sync.byKey.keys(), kinds) : [];
  const removals = plan.changes.some((c) => c.action === 'delete' || c.action === 'archive') ? massDeleteViolations(plan, [...inPlay(live, inPlan, plan), ...unread], input.safety.max_delete_fraction) : [];
  const guard = [...removals, ...recreateViolations(plan, input.desired, input.safety.max_delete_fraction)];
  if (guard.length > 0) {
    plan = {
      ...plan,
      guard,
      warnings: [...plan.warnings, ...guard.map(guardWarning)],
    };
  }
  // Only drift and pull (read-only) use them: a plan or apply gathers none.
  const planned = new Set(read.map((k) => k.name));
  const readForOthers = input.readOnly ? [...byKind].flatMap(([kind, objects]) => (planned.has(kind) ? [] : objects)) : [];
  return { plan: withLockSeen(plan, input.lock), live, diagnostics, unmatched, ...(readForOthers.length > 0 ? { readForOthers } : {}) };
}

function parseTargets(texts: readonly string[], kinds: readonly AnyKind[]): TargetSpec[] {
  return texts.map((text) => {
    const t = parseTarget(text, kinds);
    if ('error' in t) throw new UsageError(t.error);
    return t;
  });
}

/** The live objects a removal counts against: children only where the files declare their parent (those of a dropped playbook are read only to warn of live edits). */
function inPlay(live: readonly LiveResource[], desired: readonly DesiredResource[], plan: Plan): LiveResource[] {
  const declaredParents = new Set(desired.filter((d) => !d.parent).map((d) => plan.ids[refKey(d.kind, d.key)]));
  return live.filter((l) => !l.parentId || declaredParents.has(l.parentId));
}

/** What a plan cut to targets, or a report of some kinds, may send or say: the problems of other resources are held (unsent.ts). */
function sendsOf(targets: readonly string[], reported: readonly KindName[], kinds: readonly AnyKind[]): Partial<Pick<UnsentHold, 'sends'>> {
  if (targets.length === 0 && reported.length === 0) return {};
  const targeted = childInTargets(targets, kinds);
  const wanted = new Set<KindName>([...reported, ...kinds.filter((k) => k.parentKind && reported.includes(k.parentKind)).map((k) => k.name)]);
  return { sends: (d) => targeted(d) && (reported.length === 0 || wanted.has(d.kind)) };
}

/** Each group of undeclared objects with how many of them a pending document names. */
function withPendingCounts(groups: readonly UndeclaredSummary[], unmatched: readonly LiveResource[], pending: ReadonlyMap<string, string>): UndeclaredSummary[] {
  return groups.map((u) => {
    if (u.quiet) return u;
    const named = unmatched.filter((l) => l.kind === u.kind && pendingDocumentOf(pending, l) !== undefined).length;
    return named > 0 ? { ...u, pending: named } : u;
  });
}
