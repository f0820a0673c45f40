/**
 * Creates, invitations and publishes an apply stopped waiting for (its own timeout, a gateway's,
 * the end of its grace after a signal, a second signal once the request was out): the service may
 * still be carrying one out minutes later, so a plan made at once that does not find it must not
 * send it again, or the object (or version) is made twice, and a custom term cannot be deleted.
 * The apply leaves a landing mark in the lock; the next plan:
 *
 * - does not plan that action any more (the object is live, the version published, or the files
 *   no longer want it): the mark is settled, and the apply forgets it;
 * - plans it again within LANDING_WINDOW_MS of the mark: stops (`uncertain-create`), unless
 *   `--retry-uncertain` sends it now;
 * - plans it again later: it never landed, so it is sent, and the mark forgotten.
 *
 * Uploads keep their own marks (docket.lock.json's `pending`): those are not marked here.
 */
import type { Diagnostic } from '../diagnostics.js';
import { quoteValue } from '../config/quote.js';
import { fieldHash, recordOf, type SyncKindInfo, type SyncRecord, type SyncState } from './sync.js';
import { formerKeys, liveKeysOfRenamed, refKey, type Action, type ApplyReport, type Change, type DesiredResource, type LiveResource, type LockUpdate, type Plan } from './types.js';

/** The actions a repeat of makes a second object or version. */
export type LandingAction = Extract<Action, 'create' | 'invite' | 'publish'>;

const LANDING_ACTIONS: ReadonlySet<string> = new Set<LandingAction>(['create', 'invite', 'publish']);

export function isLandingAction(action: string): action is LandingAction {
  return LANDING_ACTIONS.has(action);
}

/**
 * How long after docket stopped waiting for a request it may still land. NOTE(api): neither
 * service says how long one runs; the emulator's `late` fault plays one that lands after docket
 * stopped waiting. A Word term's pending mark (kinds/custom-term.ts) has the same window.
 */
export const LANDING_WINDOW_MS = 10 * 60_000;

/** Whether a request docket stopped waiting for at `since` may still land `now`. */
export function mayStillLand(since: string, now = Date.now()): boolean {
  const at = Date.parse(since);
  // Either way: a mark from a clock far ahead of this one would otherwise stop every plan until then.
  return Number.isFinite(at) && Math.abs(now - at) < LANDING_WINDOW_MS;
}

export interface LandingMark {
  action: LandingAction;
  /** When docket stopped waiting for the request (ISO 8601): the window runs from then. */
  since: string;
  /**
   * For a publish: the digest (sync.ts fieldHash) of each field's value it sent. Live with those
   * values, it landed, whatever the files want now (a later edit is another publish).
   */
  sent?: Readonly<Record<string, string>>;
}

/** The mark of `change`, which docket stopped waiting for at `since`. */
export function markOf(change: Pick<Change, 'fields'> & { action: LandingAction }, since: string): LandingMark {
  return { action: change.action, since, ...(change.action === 'publish' && change.fields.length > 0 ? { sent: Object.fromEntries(change.fields.map((f) => [f.field, fieldHash(f.after)])) } : {}) };
}

/** `kind:key` → the mark, across the services' sections. */
export type LandingMarks = ReadonlyMap<string, LandingMark>;

/**
 * How an apply changes a section's marks, by `kind:key`: a mark's text to set, or the time of a
 * mark the plan gave up, forgotten only if it is still that mark (another apply may have left a new one).
 */
export type LandingChange = string | { forget: string };

/** `<action> <time>`, then for a publish `<field>=<digest>` of each field it sent (field names URI-encoded, as in sync records). */
export function formatLandingMark(mark: LandingMark): string {
  const sent = Object.entries(mark.sent ?? {}).map(([field, digest]) => ` ${encodeURIComponent(field)}=${digest}`);
  return `${mark.action} ${mark.since}${sent.join('')}`;
}

/** A mark as the lock holds it (undefined: not one; its time is checked where the lock is read). */
export function parseLandingMark(text: string): LandingMark | undefined {
  const [action, since, ...fields] = text.split(' ');
  if (action === undefined || !isLandingAction(action) || !since) return undefined;
  const sent: Record<string, string> = {};
  for (const part of fields) {
    const eq = part.indexOf('=');
    const digest = part.slice(eq + 1);
    if (eq <= 0 || !/^[0-9a-f]{10}$/.test(digest)) return undefined;
    try {
      sent[decodeURIComponent(part.slice(0, eq))] = digest;
    } catch {
      return undefined;
    }
  }
  return { action, since, ...(fields.length > 0 ? { sent } : {}) };
}

/**
 * The records of objects an earlier apply created (or invited) and stopped waiting for, live now:
 * the create landed, so what the object holds is what that apply sent, and the files' edits since
 * are theirs to apply, not live changes of unknown side a drift policy holds (probe OI-1). Only
 * for an object with no record of its own, read as the apply would have recorded it.
 */
export function landedRecords(marks: LandingMarks, live: readonly LiveResource[], desired: readonly DesiredResource[], kinds: readonly SyncKindInfo[], state: Pick<SyncState, 'idOf'>): Map<string, SyncRecord> {
  const out = new Map<string, SyncRecord>();
  const created = new Set([...marks].filter(([key, mark]) => mark.action !== 'publish' && state.idOf(key) === undefined).map(([key]) => key));
  if (created.size === 0) return out;
  const declared = new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
  const kindOf = new Map(kinds.map((k) => [k.name, k]));
  for (const l of live) {
    const key = refKey(l.kind, l.key);
    const d = created.has(key) ? declared.get(key) : undefined;
    if (!d) continue;
    // As recordOf reads the files' values: here the live object's, of the fields the files declare.
    const held = Object.fromEntries(Object.keys(d.fields).map((field) => [field, l.fields[field] ?? null]));
    out.set(key, recordOf({ ...d, fields: held }, l.id, kindOf.get(d.kind)));
  }
  return out;
}

/**
 * The records of objects whose publish an earlier apply stopped waiting for, landed since (live
 * holds every value the mark says it sent): the record as that apply would have left it, those
 * fields at the values sent. Else the publish read as the app's edit, and `pull` wrote the
 * abandoned text back over the files' revert (probe FK-1). Only where the record is of that object.
 */
export function landedPublishRecords(marks: LandingMarks, live: readonly LiveResource[], state: Pick<SyncState, 'byKey'>): Map<string, SyncRecord> {
  const out = new Map<string, SyncRecord>();
  const published = [...marks].filter(([, mark]) => mark.action === 'publish' && mark.sent !== undefined);
  if (published.length === 0) return out;
  const liveByKey = new Map(live.map((l) => [refKey(l.kind, l.key), l]));
  for (const [key, mark] of published) {
    const record = state.byKey.get(key);
    const l = liveByKey.get(key);
    if (!record || !l || record.id !== l.id) continue;
    const sent = Object.entries(mark.sent!);
    if (!sent.every(([field, digest]) => Object.hasOwn(l.fields, field) && fieldHash(l.fields[field]) === digest)) continue;
    out.set(key, { id: record.id, fields: { ...record.fields, ...mark.sent } });
  }
  return out;
}

/**
 * The records of objects a write an earlier apply made but never recorded has changed (a Word
 * publish found live): the record as that apply would have left it, the fields it set at their new
 * values. Else the write reads as the app's, and a later edit of the files as made on both sides
 * (probe OT-2). Only where the record is of the object written.
 */
export function settledRecords(updates: readonly LockUpdate[], state: Pick<SyncState, 'byKey'>): Map<string, SyncRecord> {
  const out = new Map<string, SyncRecord>();
  for (const u of updates) {
    if (!u.synced || !u.entry?.id) continue;
    const key = refKey(u.kind, u.key);
    const record = out.get(key) ?? state.byKey.get(key);
    if (!record || record.id !== u.entry.id) continue;
    const fields = { ...record.fields };
    for (const [field, value] of Object.entries(u.synced)) if (field in fields) fields[field] = fieldHash(value);
    out.set(key, { id: record.id, fields });
  }
  return out;
}

/** A publish whose marked values are live now: it landed (the plan publishes a later edit). Unsure without every field's value in the change. */
function landedAlready(change: Change, mark: LandingMark): boolean {
  const sent = Object.entries(mark.sent ?? {});
  if (sent.length === 0) return false;
  const live = new Map(change.fields.map((f) => [f.field, f.before]));
  return sent.every(([field, digest]) => live.has(field) && fieldHash(live.get(field)) === digest);
}

/** A mark the plan gave up (settled, expired or retried): a saved plan applied later forgets that mark only. */
export interface LandingGivenUp {
  /** `kind:key`. */
  key: string;
  since: string;
}

export interface LandingOutcome {
  /** Plans that send what may still land: an error at the object's file:line (a warning for a plan only read). */
  stops: Diagnostic[];
  warnings: string[];
  givenUp: LandingGivenUp[];
}

export interface LandingScope {
  /** Drift and pull send nothing: the stop is said as a warning. */
  readOnly?: boolean;
  /** A plan cut to `--target`s: a mark of an object it does not send is left as it is. */
  sends?: (d: DesiredResource) => boolean;
  retry?: boolean;
  now: Date;
}

/** What each mark means for this plan's changes (`changes`: as the plan sends them, cut to its targets). */
export function resolveLanding(marks: LandingMarks, changes: readonly Change[], desired: readonly DesiredResource[], scope: LandingScope): LandingOutcome {
  const out: LandingOutcome = { stops: [], warnings: [], givenUp: [] };
  // Almost always none: no index of every change for them.
  if (marks.size === 0) return out;
  const declared = new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
  const liveKeys = liveKeysOfRenamed(changes);
  const used = new Set<string>();
  // A mark under a name another declared object was renamed from, that object live under it (this
  // plan renames it, or its parent, from there; no landing change of its own): the write landed as
  // that object, not as a new one given the name (probe EG-1). One live under its new name all along
  // says nothing of the mark, which stays (second read SR103B-1).
  let owners: Map<string, DesiredResource> | undefined;
  const ownersOf = (): Map<string, DesiredResource> => (owners ??= formerOwners(desired, declared));
  const sending = new Set(changes.filter((c) => isLandingAction(c.action)).map((c) => refKey(c.kind, c.key)));
  const renamedNow = new Set(changes.filter((c) => c.action === 'rename').map((c) => refKey(c.kind, c.key)));
  const movingNow = (o: DesiredResource): boolean => renamedNow.has(refKey(o.kind, o.key)) || (o.parent !== undefined && renamedNow.has(refKey(o.parent.kind, o.parent.key)));
  const landedOwner = (k: string): DesiredResource | undefined => {
    const owner = ownersOf().get(k);
    return owner !== undefined && movingNow(owner) && !sending.has(refKey(owner.kind, owner.key)) ? owner : undefined;
  };
  const landedAsAnother = (k: string, d: DesiredResource | undefined): boolean => {
    const owner = landedOwner(k);
    return owner !== undefined && owner !== d;
  };
  for (const change of changes) {
    if (!isLandingAction(change.action)) continue;
    const d = declared.get(refKey(change.kind, change.key));
    const key = markedKeyOf(change, d, declared, marks, liveKeys, (k) => !landedAsAnother(k, d));
    if (key === undefined) continue;
    const mark = marks.get(key)!;
    used.add(key);
    const what = sentText(change, mark, key);
    // A stalled publish of other values than the files hold now: landing late, it replaces the files' publish, not doubles it (probe DO-3).
    const otherValues = d !== undefined && sentOtherThan(mark, d);
    if (landedAlready(change, mark)) {
      out.givenUp.push({ key, since: mark.since });
    } else if (!mayStillLand(mark.since, scope.now.getTime())) {
      out.givenUp.push({ key, since: mark.since });
      // A time ahead of this clock (another machine's) is no reason to hold the write for as long.
      const ahead = Date.parse(mark.since) - scope.now.getTime() >= LANDING_WINDOW_MS;
      out.warnings.push(ahead ? `${what}, more than ten minutes ahead of this machine's clock; it is not live, so apply sends it again` : `${what} is not live ten minutes on, so apply sends it again`);
    } else if (scope.retry) {
      out.givenUp.push({ key, since: mark.since });
      out.warnings.push(
        otherValues
          ? `${what}, of other values than the files hold now, is not live yet; --retry-uncertain: apply publishes the files', and if the earlier request still lands, its values replace them live (the next plan shows that as changed live)`
          : `${what} is not live yet; --retry-uncertain: apply sends it again, and if the first request still lands, it is made twice`,
      );
    } else {
      out.stops.push({
        severity: scope.readOnly ? 'warning' : 'error',
        code: 'uncertain-create',
        ...(d?.source ?? change.source ?? {}),
        message: otherValues
          ? `${what}, of other values than the files hold now, is not live yet, but the service may still be carrying it out, and landing after the files' publish it would replace them live, so docket will not publish the files' yet`
          : `${what} is not live yet, but the service may still be carrying it out, so docket will not send it again yet`,
        hint: otherValues
          ? 'run `docket plan` again in a few minutes: once it has landed the next plan publishes the files over it, and one that never landed is forgotten ten minutes on; `docket apply --retry-uncertain` publishes the files now'
          : 'run `docket plan` again in a few minutes: once it has landed it is not sent again, and one that never landed is sent again ten minutes on; `docket apply --retry-uncertain` sends it again now',
      });
    }
  }
  // The rest: live now, or no longer wanted. Out of this plan's targets, neither settled nor sent:
  // left for a plan that sends it. Found under a former name too: an object the files renamed since
  // its write landed is live, and its mark done with (probe EG-1: kept, it stopped every plan).
  for (const [key, mark] of marks) {
    if (used.has(key)) continue;
    const d = declared.get(key) ?? (scope.sends ? ownersOf().get(key) : landedOwner(key));
    if (d && scope.sends?.(d) === false) continue;
    // No longer declared: nothing sends it, and the mark stays for its ten minutes, so a document put
    // back meanwhile still waits for the request that may land, as a Word term's mark does (probe CB-1).
    if (!d && !scope.retry && mayStillLand(mark.since, scope.now.getTime())) continue;
    // A publish of what the files no longer hold, live as the files are now: not landed yet, and
    // landing, it would make the value it sent live over theirs (the files put back, probe RQ-2).
    if (d && !scope.retry && mayStillLand(mark.since, scope.now.getTime()) && sentOtherThan(mark, d)) {
      out.stops.push({
        severity: scope.readOnly ? 'warning' : 'error',
        code: 'uncertain-create',
        ...d.source,
        message: `${d.kind} ${quoteValue(d.key, 200)}: a publish an earlier apply stopped waiting for by ${mark.since}, of other values than the files hold now, is not live, but the service may still be carrying it out, and landing it would make them live over the files', so docket will not take the files as live yet`,
        hint: 'run `docket plan` again in a few minutes: once it has landed the next plan publishes the files again, and one that never landed is forgotten ten minutes on; `docket apply --retry-uncertain` forgets it now',
      });
      continue;
    }
    out.givenUp.push({ key, since: mark.since });
  }
  return out;
}

/** Whether a publish's mark sent other values than the files hold now (a field the files no longer declare aside). */
function sentOtherThan(mark: LandingMark, d: DesiredResource): boolean {
  return mark.sent !== undefined && Object.entries(mark.sent).some(([field, digest]) => field in d.fields && fieldHash(d.fields[field]) !== digest);
}

/** The declared objects by the `kind:key`s they had under former names (keysOf), for the few marks that need it. */
function formerOwners(desired: readonly DesiredResource[], declared: ReadonlyMap<string, DesiredResource>): Map<string, DesiredResource> {
  const out = new Map<string, DesiredResource>();
  for (const d of desired) for (const key of keysOf(d, declared).slice(1)) out.set(key, d);
  return out;
}

/**
 * The key of the mark a change's write left, if any: renamed in the files since (or its playbook),
 * or renamed back by this plan (`liveKeys`), the mark is under the name the write was sent with.
 * `counts` leaves out marks already dealt with.
 */
function markedKeyOf(change: Change, d: DesiredResource | undefined, declared: ReadonlyMap<string, DesiredResource>, marks: LandingMarks, liveKeys: ReadonlyMap<string, string>, counts: (key: string, mark: LandingMark) => boolean = () => true): string | undefined {
  const live = liveKeys.get(refKey(change.kind, change.key));
  return [...(d ? keysOf(d, declared) : [refKey(change.kind, change.key)]), ...(live !== undefined ? [live] : [])].find((k) => {
    const mark = marks.get(k);
    return mark?.action === change.action && counts(k, mark);
  });
}

/** The `kind:key`s a declared object's write may have been sent under: its own, its former names', and under its parent's former names. */
function keysOf(d: DesiredResource, declared: ReadonlyMap<string, DesiredResource>): string[] {
  const own = [refKey(d.kind, d.key), ...formerKeys(d)];
  const parent = d.parent ? declared.get(refKey(d.parent.kind, d.parent.key)) : undefined;
  if (!parent || parent.renamedFrom.length === 0) return own;
  const names = [d.name, ...d.renamedFrom];
  return [...own, ...parent.renamedFrom.flatMap((former) => names.map((name) => refKey(d.kind, `${former}/${name}`)))];
}

/**
 * Landing marks of a saved plan's objects that an apply since it was made left: the plan would
 * send them again (it gives up only the marks that were there when it was made).
 */
export function landingSincePlan(plan: Plan, marks: LandingMarks, desired: readonly DesiredResource[], now = Date.now()): string[] {
  if (marks.size === 0) return [];
  const givenUp = new Set((plan.landing_given_up ?? []).map((g) => `${g.key}|${g.since}`));
  const declared = new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
  const liveKeys = liveKeysOfRenamed(plan.changes);
  return plan.changes.flatMap((c) => {
    if (!isLandingAction(c.action)) return [];
    const key = markedKeyOf(c, declared.get(refKey(c.kind, c.key)), declared, marks, liveKeys, (k, mark) => !givenUp.has(`${k}|${mark.since}`));
    if (key === undefined) return [];
    const mark = marks.get(key)!;
    const how = mayStillLand(mark.since, now) ? 'docket plan stops at it and says how to go on' : 'make a new plan: it sends it again, with a warning';
    return [`${sentText(c, mark, key)} may not be live yet, and the service may still be carrying it out, so the plan would send it a second time (${how})`];
  });
}

/**
 * The marks an apply leaves, by `kind:key`: those the plan gave up go, and each write it stopped
 * waiting for is marked: one that failed so (`stoppedWaiting`, when), and one still running when
 * the apply stopped (`pending`, marked `now`), unless it is an upload, which has a mark of its own.
 */
export function landingAfterApply(plan: Plan, report: ApplyReport, stoppedWaiting: ReadonlyMap<string, LandingMark>, options: { uploadMarked: (kindKey: string) => boolean; now: Date }): Map<string, LandingChange> {
  const out = givenUpForgotten(plan);
  for (const [key, mark] of stoppedWaiting) out.set(key, formatLandingMark(mark));
  const still = report.results.filter((r) => r.status === 'failed' && r.pending);
  if (still.length === 0) return out;
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  for (const r of still) {
    const c = byId.get(r.changeId);
    const key = c && refKey(c.kind, c.key);
    const action = c?.action;
    if (!c || !key || action === undefined || !isLandingAction(action) || stoppedWaiting.has(key) || options.uploadMarked(key)) continue;
    out.set(key, formatLandingMark(markOf({ action, fields: c.fields }, options.now.toISOString())));
  }
  return out;
}

/**
 * The apply's landing changes, with each mark written early (at a first signal, for what was under
 * way then) forgotten where the apply's end says nothing of it: that write ended, answered.
 */
export function withEndedForgotten(landing: ReadonlyMap<string, LandingChange>, early: ReadonlyMap<string, LandingChange>): Map<string, LandingChange> {
  const out = new Map(landing);
  for (const [key, mark] of early) {
    const since = typeof mark === 'string' ? parseLandingMark(mark)?.since : undefined;
    // Not a mark the apply sets (a write still landing): a plan's forget of an older mark of the key gives way (second read RV6-1).
    if (typeof out.get(key) !== 'string' && since !== undefined) out.set(key, { forget: since });
  }
  return out;
}

/** `marks` with each mark's time `ms` later (a mark to set; a forget is left as it is). */
export function marksLaterBy(marks: ReadonlyMap<string, LandingChange>, ms: number): Map<string, LandingChange> {
  return new Map(
    [...marks].map(([key, change]): [string, LandingChange] => {
      const mark = typeof change === 'string' ? parseLandingMark(change) : undefined;
      const at = mark ? Date.parse(mark.since) : Number.NaN;
      return [key, mark && Number.isFinite(at) ? formatLandingMark({ ...mark, since: new Date(at + ms).toISOString() }) : change];
    }),
  );
}

/** The marks the plan gave up, each forgotten only while it is still that mark: all an apply with nothing to send changes. */
export function givenUpForgotten(plan: Plan): Map<string, LandingChange> {
  return new Map((plan.landing_given_up ?? []).map((g) => [g.key, { forget: g.since }]));
}

/** `markedAs`: the `kind:key` the mark is under, when another than the change's (a name the files renamed since). */
function sentText(c: Pick<Change, 'kind' | 'key' | 'action'>, mark: LandingMark, markedAs = refKey(c.kind, c.key)): string {
  const request = c.action === 'publish' ? 'a publish of its new version' : c.action === 'invite' ? 'an invitation' : 'a create';
  const as = markedAs === refKey(c.kind, c.key) ? '' : ` (as ${quoteValue(markedAs.slice(markedAs.indexOf(':') + 1), 200)})`;
  return `${c.kind} ${quoteValue(c.key, 200)}: ${request}${as} an earlier apply stopped waiting for by ${mark.since}`;
}

