/**
 * Applying a plan: the context kinds execute in (ids known at plan time or created on the way,
 * the files to upload, the lock entries uploads make), run through the executor. The caller gets
 * the report and the lock as it should now be; it decides where to write it.
 */
import { countingWrites, mayLand, type WriteAttempts } from '../api/write-attempts.js';
import { errnoOf, isFileSystemError, unwrittenFile, writeFixFor } from '../util/file-write-error.js';
import { setTimeout as delay } from 'node:timers/promises';
import type { ProjectConfig } from '../config/types.js';
import { lockEntries, lockKey, moveEntry, supersededBy, type LockEntry, type LockFile } from '../config/lock.js';
import { KINDS, type AnyKind } from '../kinds/index.js';
import type { ExecContext, Services } from '../kinds/kind.js';
import { foundByReading } from '../api/found.js';
import { freshReads, onceReads } from '../util/fresh-read.js';
import { DocketError, mayStillRun } from '../errors.js';
import { quoteValue } from '../config/quote.js';
import { normName } from './normalize.js';
import { DEFAULT_GRACE_MS, executePlan, reasonOf, withinGrace } from './execute.js';
import { keeperOf, lookBeforeCreate, ScopeGone, settleAfterCreate, type Sibling } from './race.js';
import { mapLimit } from '../util/map-limit.js';
import { CREATE_ACTIONS, formerKeys, refKey, type ApplyReport, type Change, type ChangeResult, type DesiredResource, type Plan } from './types.js';
import { followRenamedFiles, followRenamedObjects } from './lock-follow.js';
import { formatLandingMark, isLandingAction, landingAfterApply, markOf, mayStillLand, type LandingAction, type LandingChange, type LandingMark } from './landing.js';

/** Reads a data file for upload (the CLI reads it from the configuration directory). */
export type FileReader = (path: string, sha256: string) => Promise<Uint8Array>;

export interface ApplyPlanInput {
  kinds?: readonly AnyKind[];
  services: Services;
  project: ProjectConfig;
  /** The desired resources as the files say now (sensitive values are read from them). */
  desired: readonly DesiredResource[];
  files: FileReader;
  lock: LockFile;
  /** Monotonic milliseconds, for the report's timings. */
  clock: () => number;
  /** The wall clock, for when an upload was sent (docket.lock.json's pending marks); default: now. */
  now?: () => Date;
  concurrency: number;
  /** Record the files the plan could not compare as live, without uploading (`--adopt-files`). */
  adoptFiles?: boolean;
  onResult?: (result: ChangeResult, change: Change) => void;
  /**
   * Writes the lock as it now is, every time it changes: before an upload (its pending mark) and as
   * soon as one is confirmed. The upload waits for it, so a killed run never forgets what it sent.
   */
  persistLock?: (lock: LockFile) => Promise<void>;
  sleep?: (ms: number) => Promise<void>;
  /** Once aborted, nothing new starts; what is running may finish within `graceMs`. */
  signal?: AbortSignal;
  /** Asked before each change starts (see ExecuteOptions.beforeStart). */
  beforeStart?: () => void;
  /** Told of each change's failure (see ExecuteOptions.afterFailure). */
  afterFailure?: (error: unknown) => void;
  graceMs?: number;
  /** How long a rule missing from a kept playbook is given before it is looked for again (KEPT_CHILD_WAIT_MS; tests shorten it). */
  lookAgainMs?: number;
  /**
   * Given, once, how to read the landing marks of the creates, invitations and publishes under
   * way at that moment: what a second signal, ending the process at once, leaves in the lock.
   */
  underWay?: (read: () => Map<string, LandingChange>) => void;
}

export interface ApplyPlanResult {
  report: ApplyReport;
  /** The lock after the apply (what was uploaded is recorded, even when other operations failed). */
  lock: LockFile;
  lockChanged: boolean;
  /** Every id known after the apply (the plan's, and those creates registered), `kind:key` → id. */
  ids: ReadonlyMap<string, string>;
  /** Fields whose write did not stick, by `kind:key`, with the value the service holds (ExecContext.registerUnkept). */
  unkept: ReadonlyMap<string, Readonly<Record<string, unknown>>>;
  /** Ids a write's answer showed to be another object's, by `kind:key` (ExecContext.distrustId): their records are forgotten. */
  distrusted: ReadonlyMap<string, string>;
  /** How many objects hold a field the service did not keep that no `ignore_fields` leaves out: every plan shows them again. */
  unkeptShownAgain: number;
  /** Fields written by a change that then failed, by `kind:key` (ExecContext.registerWritten). */
  written: ReadonlyMap<string, readonly string[]>;
  /** How the apply changes the landing marks, by `kind:key` (engine/landing.ts). */
  landing: ReadonlyMap<string, LandingChange>;
}

export async function applyPlan(plan: Plan, input: ApplyPlanInput): Promise<ApplyPlanResult> {
  const kinds = new Map((input.kinds ?? KINDS).map((k) => [k.name, k]));
  const ids = new Map(Object.entries(plan.ids));
  const unkept = new Map<string, Record<string, unknown>>();
  /** Ids of the objects this apply's creates made (or found), lower-cased. */
  const madeIds = new Set<string>();
  const written = new Map<string, string[]>();
  /** Creates whose object a read found by name (the answer was lost or named no id): maybe another run's copy. */
  const found = new Set<string>();
  /** Objects a create of this apply made, whatever the rest of that change did (a Word term's conversion wait). */
  const createdNow = new Set<string>();
  /** Objects this apply created whose ids the service did not say. */
  const unknownIds = new Map<string, { message: string; hint: string }>();
  /** Ids a write's answer showed to be another object's, by `kind:key` (ExecContext.distrustId). */
  const distrusted = new Map<string, string>();
  const lock: LockFile = { files: { ...input.lock.files } };
  let lockChanged = false;
  const changed = async (): Promise<void> => {
    lockChanged = true;
    await input.persistLock?.({ files: { ...lock.files } });
  };
  const set = (kind: string, key: string, entry: LockEntry | null): void => {
    if (entry) lock.files[lockKey(kind, key)] = entry;
    else delete lock.files[lockKey(kind, key)];
  };
  for (const u of plan.lock_updates ?? []) set(u.kind, u.key, u.entry);
  if (followRenamedObjects(lock, plan.ids, input.desired, plan.changes)) lockChanged = true;
  if (input.adoptFiles) {
    let declaredKeys: Map<string, DesiredResource> | undefined;
    for (const a of plan.adoptable ?? []) {
      // Adopted in place of the upload recorded (an uncertain one's id, pinned): what named that one is owed a re-point.
      const recorded = lock.files[lockKey(a.kind, a.key)];
      if (a.valuesOnly) {
        if (recorded?.id === a.liveId) set(a.kind, a.key, { ...recorded, ...a.values });
        continue;
      }
      const superseded = supersededBy(a.liveId, recorded);
      // Its entry under the name the files rename it from is this one's, older: it would follow the rename over the adoption (probe CJ-2).
      for (const [key, entry] of lockEntries(lock.files, a.kind)) if (key !== a.key && entry.id?.toLowerCase() === a.liveId.toLowerCase()) delete lock.files[lockKey(a.kind, key)];
      set(a.kind, a.key, { id: a.liveId, file: a.file, sha256: a.sha256, ...a.values, ...(a.version !== undefined ? { version: a.version } : {}), ...(superseded ? { superseded } : {}) });
      // Its former names' entries are of the uploads it replaces (a rename cut off and settled by
      // adopting the new upload), folded away as an upload's record folds them (probe UJ-2); not
      // one another document declares under that name now.
      declaredKeys ??= new Map(input.desired.map((d) => [refKey(d.kind, d.key), d]));
      const adopted = declaredKeys.get(refKey(a.kind, a.key));
      for (const former of adopted ? formerKeys(adopted) : []) if (!declaredKeys.has(former)) delete lock.files[former];
    }
  }
  if ((plan.lock_updates ?? []).length > 0 || (input.adoptFiles && (plan.adoptable ?? []).length > 0)) {
    // Before any change: a lock that cannot take what the plan settles stops the apply with nothing done.
    await changed().catch((error: unknown) => {
      if (!isFileSystemError(error)) throw error;
      throw lockWriteFailed(error, '; nothing was changed', `${writeFixFor(errnoOf(error))}, then apply again`);
    });
  }
  /** A renamed object's file entry moves to its new name: a new object may take the old one (and its entry key). */
  const kindsWithEntries = new Set(Object.keys(lock.files).map((k) => k.slice(0, k.indexOf(':'))));
  const followRename = async (change: Change): Promise<void> => {
    if (!kindsWithEntries.has(change.kind)) return;
    let moved = false;
    for (const [key, entry] of lockEntries(lock.files, change.kind)) {
      // An entry under the new name is an older docket's, left by a rename it did not follow: the renamed object holds the name now.
      if (key === change.key || entry.id === undefined || entry.id !== change.liveId) continue;
      moveEntry(lock.files, lockKey(change.kind, key), lockKey(change.kind, change.key));
      moved = true;
    }
    if (moved) await changed();
  };
  // Indexed when first asked (a sensitive value, a create's look): most applies of 20,000 declared
  // objects ask neither.
  let desiredIndex: Map<string, DesiredResource> | undefined;
  const desiredAt = (kindKey: string): DesiredResource | undefined => (desiredIndex ??= new Map(input.desired.map((d) => [`${d.kind}:${d.key}`, d]))).get(kindKey);
  const ctx: ExecContext = {
    services: input.services,
    project: input.project,
    resolveId(kind, key) {
      const id = ids.get(`${kind}:${key}`);
      const unknown = unknownIds.get(`${kind}:${key}`);
      if (!id && unknown) throw new DocketError('unknown-id', `it names ${kind} ${JSON.stringify(key)}, ${unknown.message}`, unknown.hint);
      if (!id) throw new Error(`${kind} "${key}" has no id yet (it was not created)`);
      return id;
    },
    registerId(kind, key, id) {
      ids.set(`${kind}:${key}`, id);
    },
    registerCreated(kind, key, created) {
      ids.set(`${kind}:${key}`, created.id);
      madeIds.add(created.id.toLowerCase());
      createdNow.add(`${kind}:${key}`);
      if (foundByReading(created)) found.add(`${kind}:${key}`);
    },
    registerUnknownId(kind, key, why) {
      unknownIds.set(`${kind}:${key}`, why);
    },
    distrustId(kind, key, why) {
      // Without an id, the object is not recorded as in sync (syncAfterApply records known ids only),
      // and a record an earlier apply made of that id is forgotten (second read SR90-1).
      const id = ids.get(`${kind}:${key}`);
      if (id !== undefined) distrusted.set(`${kind}:${key}`, id);
      ids.delete(`${kind}:${key}`);
      unknownIds.set(`${kind}:${key}`, why);
    },
    registerUnkept(kind, key, held) {
      unkept.set(`${kind}:${key}`, { ...unkept.get(`${kind}:${key}`), ...held });
    },
    isKnownId(id) {
      return isKnownId(id);
    },
    registerWritten(kind, key, fields) {
      written.set(`${kind}:${key}`, [...(written.get(`${kind}:${key}`) ?? []), ...fields]);
    },
    readFile: input.files,
    async recordPending(kind, key, pending) {
      const current = lock.files[lockKey(kind, key)];
      set(kind, key, { ...current, pending: { ...pending, since: (input.now?.() ?? new Date()).toISOString() } });
      try {
        await changed();
      } catch (error) {
        // Not recorded, not sent: the mark goes again, so nothing reads the upload as uncertain.
        set(kind, key, current ?? null);
        throw lockWriteFailed(error, ', so nothing was sent: an upload is recorded in docket.lock.json before it is sent');
      }
    },
    async forgetPending(kind, key) {
      const current = lock.files[lockKey(kind, key)];
      if (!current?.pending) return;
      const { pending: _dropped, ...rest } = current;
      set(kind, key, rest.id === undefined ? null : rest);
      await changed();
    },
    async recordFile(kind, key, entry, replacesId) {
      let replaced: LockEntry | undefined;
      if (replacesId) {
        for (const [k, e] of lockEntries(lock.files, kind)) {
          if (e.id !== replacesId) continue;
          replaced = e;
          if (k !== key) delete lock.files[lockKey(kind, k)];
        }
      }
      // A pinned object no entry recorded (an export's attachment) is replaced all the same.
      const superseded = replacesId ? supersededBy(entry.id, replaced ?? { id: replacesId }) : undefined;
      // The first request of this same file, which may still land, stays noted (LockEntry.abandoned).
      const abandoned = lock.files[lockKey(kind, key)]?.abandoned;
      const noted = abandoned && abandoned.sha256 === entry.sha256 && mayStillLand(abandoned.since) ? { abandoned } : {};
      set(kind, key, { ...entry, ...(superseded ? { superseded } : {}), ...noted });
      await changed();
    },
    ignoredFields(kind, key) {
      return desiredAt(`${kind}:${key}`)?.policy?.ignoreFields ?? [];
    },
    pinnedId(kind, key) {
      return desiredAt(`${kind}:${key}`)?.pinId;
    },
    keyOfId(kind, id) {
      // A scan: asked only to word a rare note (a reviewer the service did not keep).
      const wanted = id.toLowerCase();
      for (const [kindKey, known] of ids) if (known.toLowerCase() === wanted && kindKey.startsWith(`${kind}:`)) return kindKey.slice(kind.length + 1);
      return undefined;
    },
    sensitive(kind, key, field) {
      const d = desiredAt(`${kind}:${key}`);
      if (!d) throw new Error(`${kind} "${key}" is not declared any more; plan again`);
      return d.fields[field];
    },
    readAfterWrites: freshReads(),
    sleep: input.sleep ?? ((ms) => wait(ms, input.signal)),
    stopping: () => input.signal?.aborted === true,
  };
  // The look before a create is for what another run created since the plan: one read per scope
  // per apply finds it (what is created during this apply, the check after the create settles).
  const lookCtx: ExecContext = { ...ctx, readAfterWrites: onceReads() };
  let knownIds: Set<string> | undefined;
  const known = (): Set<string> => (knownIds ??= new Set([...Object.values(plan.ids), ...plan.changes.flatMap((c) => (c.liveId ? [c.liveId] : []))]));
  // Built at the first create's answer (most applies of 20,000 objects create few or none); a UUID
  // in any letter case is the same object. Objects this apply made count too: a second create
  // answered with the first one's id made another object than that.
  let knownLower: Set<string> | undefined;
  const planKnew = (id: string): boolean => (knownLower ??= new Set([...known()].map((i) => i.toLowerCase()))).has(id.toLowerCase());
  const isKnownId = (id: string): boolean => planKnew(id) || madeIds.has(id.toLowerCase());
  input.services.knowExistingIds?.(isKnownId);
  // Creates whose duplicate check waits for the end: nothing in the apply refers to their ids (one
  // read per scope then, not one after every few creates: 2,000 terms read the list 260 times).
  const checkLater: Change[] = [];
  const referredTo = new Set(plan.changes.flatMap((c) => c.dependsOn));
  /** Creates, invitations and publishes this apply sent and stopped waiting for, by `kind:key`. */
  const stoppedWaiting = new Map<string, LandingMark>();
  // An upload keeps its own pending mark in the lock, which the next plan settles.
  const uploadMarked = (kindKey: string): boolean => lock.files[kindKey]?.pending !== undefined;
  const now = (): string => (input.now?.() ?? new Date()).toISOString();
  /** By `kind:key`, with the count of its writes that may reach the service: one whose writes were all refused cannot land (probe TF-1). */
  const underWay = new Map<string, { action: LandingAction; fields: Change['fields']; attempts: WriteAttempts }>();
  // With the writes that ended but may still run there (timed out): both are what may still land.
  input.underWay?.(
    () =>
      new Map([
        ...[...stoppedWaiting].filter(([key]) => !uploadMarked(key)).map(([key, mark]): [string, string] => [key, formatLandingMark(mark)]),
        ...[...underWay].filter(([key, change]) => !uploadMarked(key) && mayLand(change.attempts)).map(([key, change]): [string, string] => [key, formatLandingMark(markOf(change, now()))]),
      ]),
  );
  const sent = async <T>(change: Change, write: () => Promise<T>): Promise<T> => {
    const action = change.action;
    if (!isLandingAction(action)) return write();
    const key = `${change.kind}:${change.key}`;
    const attempts: WriteAttempts = { open: 0, mayHaveLanded: false, refused: false, queued: 0 };
    underWay.set(key, { action, fields: change.fields, attempts });
    try {
      return await countingWrites(attempts, write);
    } catch (error) {
      if (mayStillRun(error) && !uploadMarked(key)) stoppedWaiting.set(key, markOf({ action, fields: change.fields }, now()));
      throw error;
    } finally {
      underWay.delete(key);
    }
  };
  /** Creates that ended with an object this apply did not make: its fields are not known to be the files'. */
  const keptOther = new Set<string>();
  const foundBy = (change: Change): { known: ReadonlySet<string> } | undefined => (found.has(`${change.kind}:${change.key}`) ? { known: known() } : undefined);
  const report = await executePlan(plan, {
    concurrency: input.concurrency,
    clock: input.clock,
    run: async (change) => {
      const kind = kinds.get(change.kind);
      if (!kind) throw new Error(`the plan names kind ${change.kind}, which this docket does not know`);
      const guard = CREATE_ACTIONS.includes(change.action) ? kind.race : undefined;
      if (!guard) {
        const note = await sent(change, () => kind.execute(change, ctx));
        if (change.action === 'rename') {
          await followRename(change);
          // Another object may take the name at the same time: looked for at the end (settleRename).
          if (kind.race) checkLater.push(change);
        }
        return note;
      }
      const existing = await lookBeforeCreate(guard, change, lookCtx, known());
      if (existing) {
        ctx.registerId(change.kind, change.key, existing.id);
        keptOther.add(change.id);
        return existing.note;
      }
      // What the write itself noted (a field that did not stick) stays unless a concurrent run's object replaces it.
      const written = await sent(change, () => kind.execute(change, ctx));
      const mine = ids.get(`${change.kind}:${change.key}`);
      if (!mine) return written;
      if (guard.checkAtEnd || !referredTo.has(change.id)) {
        checkLater.push(change);
        return written;
      }
      const settled = await settleAfterCreate(guard, change, mine, ctx, foundBy(change), planKnew);
      ctx.registerId(change.kind, change.key, settled.id);
      if (settled.id !== mine) keptOther.add(change.id);
      if (settled.renamedIn) {
        // What it wrote went with the copy set aside: nothing of it is live under the name (second read SR92-7).
        createdNow.delete(`${change.kind}:${change.key}`);
        throw new DocketError('race', settled.note!, RENAMED_IN_HINT);
      }
      return settled.note ?? written;
    },
    ...(input.onResult ? { onResult: input.onResult } : {}),
    ...(input.signal ? { signal: input.signal } : {}),
    ...(input.beforeStart ? { beforeStart: input.beforeStart } : {}),
    ...(input.afterFailure ? { afterFailure: input.afterFailure } : {}),
    ...(input.graceMs !== undefined ? { graceMs: input.graceMs } : {}),
  });
  // Stopped by a signal or the time budget: start no new reads; the next plan shows any duplicate.
  // Stopped just after the last change, every change is made and its checks are what was cut short (probe FO).
  if (report.stopped) {
    if (noteUnchecked(checkLater, report) && report.done === plan.changes.length) report.checksCutShort = true;
  } else await settleLater(checkLater, report, { kinds, ids, foundBy, planKnew, keptOther, createdNow, followRename, ctx, concurrency: input.concurrency, signal: input.signal, graceMs: input.graceMs ?? DEFAULT_GRACE_MS, lookAgainMs: input.lookAgainMs ?? KEPT_CHILD_WAIT_MS });
  for (const r of report.results) if (keptOther.has(r.changeId)) r.keptOther = true;
  if (forgetUploadsSetAside(plan, report, keptOther, ids, lock)) lockChanged = true;
  // A failed change that wrote part of itself first says so: that part is live (a publish cannot be undone).
  const changeById = new Map(plan.changes.map((c) => [c.id, c]));
  for (const r of report.results) {
    const c = r.status === 'failed' ? changeById.get(r.changeId) : undefined;
    // A create that failed after its object was made: the object is live with what was sent.
    const made = c?.action === 'create' && createdNow.has(`${c.kind}:${c.key}`) ? c.fields.map((f) => f.field) : [];
    const fields = c ? [...(written.get(`${c.kind}:${c.key}`) ?? []), ...made] : undefined;
    if (fields && fields.length > 0) r.written = [...new Set(fields)];
    // Cut off by a signal once sent, and marked landing: the next apply waits for it, so the report says to wait first (probe IX-3).
    if (c && stoppedWaiting.has(`${c.kind}:${c.key}`)) r.pending = true;
  }
  if (forgetSuperseded(plan, report, lock)) lockChanged = true;
  // Not for --target, which acts on its targets alone.
  if (!plan.targets?.length && followRenamedFiles(lock, input.desired, [...kinds.values()])) lockChanged = true;
  const ignored = (kindKey: string): readonly string[] => desiredAt(kindKey)?.policy?.ignoreFields ?? [];
  const unkeptShownAgain = [...unkept].filter(([kindKey, held]) => Object.keys(held).some((f) => !ignored(kindKey).includes(f))).length;
  return { report, lock, lockChanged, ids, unkept, unkeptShownAgain, written, distrusted, landing: landingAfterApply(plan, report, stoppedWaiting, { uploadMarked, now: input.now?.() ?? new Date() }) };
}

/**
 * A create that uploaded a file (a Word term), then kept another run's copy and set its own aside:
 * the lock's entry names the copy set aside, so the kept one's file, which this run did not send,
 * would read as known and an edit of the file would never be published (probe MY-1). Forgotten,
 * the next plan says it cannot compare the file, and `--adopt-files` records it for the kept one.
 */
function forgetUploadsSetAside(plan: Plan, report: ApplyReport, keptOther: ReadonlySet<string>, ids: ReadonlyMap<string, string>, lock: LockFile): boolean {
  let forgot = false;
  for (const change of plan.changes) {
    if (!keptOther.has(change.id)) continue;
    const entry = lock.files[lockKey(change.kind, change.key)];
    const kept = ids.get(`${change.kind}:${change.key}`);
    if (entry?.id === undefined || kept === undefined || entry.id === kept) continue;
    delete lock.files[lockKey(change.kind, change.key)];
    forgot = true;
    const result = report.results.find((r) => r.changeId === change.id);
    const said = `docket.lock.json no longer records ${entry.file} for it, as docket did not upload the copy kept: when that copy holds the same file, \`docket apply --adopt-files\` records it`;
    if (result) result.note = result.note ? `${result.note}; ${said}` : said;
  }
  return forgot;
}

/**
 * Earlier uploads are remembered only while something may still name them: after an apply that
 * looked at everything (no --target) and made every change referring to the object, nothing
 * declared does. Kept, a template pointed back at one in the app would read as a re-point owed.
 */
export function forgetSuperseded(plan: Plan, report: Pick<ApplyReport, 'results'>, lock: Pick<LockFile, 'files'>): boolean {
  if (plan.targets?.length) return false;
  const done = new Set(report.results.filter((r) => r.status === 'done').map((r) => r.changeId));
  // By kind, not by name: a template whose attachment was renamed away names the new one, while
  // the upload it still points at is remembered under the name the old one took (`Sec Old` from
  // `Sec`). Kept a run longer than needed, an earlier upload only reads as a re-point owed.
  // Changes a drift policy held back are owed too: not made, they may still name an earlier upload.
  const owedKinds = new Set<string>([...plan.changes.filter((c) => !done.has(c.id)), ...(plan.held ?? [])].flatMap((c) => c.refs.map((r) => r.kind)));
  let forgot = false;
  for (const [key, entry] of Object.entries(lock.files)) {
    if (!entry.superseded || owedKinds.has(key.slice(0, key.indexOf(':')))) continue;
    const { superseded: _earlier, ...rest } = entry;
    lock.files[key] = rest;
    forgot = true;
  }
  return forgot;
}

/**
 * Says beside each create made that its end-of-apply duplicate check was not made (the apply was
 * stopped first); true when there was one.
 */
function noteUnchecked(changes: readonly Change[], report: ApplyReport): boolean {
  const results = new Map(report.results.map((r) => [r.changeId, r]));
  let noted = false;
  for (const change of changes) {
    const result = results.get(change.id);
    if (result?.status !== 'done') continue;
    const unchecked = change.action === 'rename' ? 'not checked for another object given the name at the same time (the apply was stopped); plan again to see' : 'not checked for a duplicate made by a concurrent apply (the apply was stopped); plan again to see';
    result.note = result.note ? `${result.note}; ${unchecked}` : unchecked;
    noted = true;
  }
  return noted;
}

interface SettleEnv {
  kinds: Map<string, AnyKind>;
  ids: Map<string, string>;
  foundBy: (change: Change) => { known: ReadonlySet<string> } | undefined;
  /** Whether the plan read an object of this id (under whatever name). */
  planKnew: (id: string) => boolean;
  /** Creates that ended with another's copy (change ids). */
  keptOther: Set<string>;
  /** `kind:key` of the objects this apply made: a failed create whose object is live says what it holds. */
  createdNow: Set<string>;
  /** Moves docket.lock.json's entries of a renamed object to its new name (a rename taken back too). */
  followRename: (change: Change) => Promise<void>;
  ctx: ExecContext;
  concurrency: number;
  lookAgainMs: number;
  /** A stop while the checks run: none starts after it, and those under way get `graceMs`. */
  signal: AbortSignal | undefined;
  graceMs: number;
  /** Set when a check could not be made for want of time, the budget stopping the apply: `true`, or when their turn comes and why. */
  budgetSpent?: boolean | string;
}

/** What the checks at the end share besides: a fresh read of a kept parent's scope, a moment after the first (one per parent, shared by its children). */
interface CheckEnv extends SettleEnv {
  lookAgain: (parentKey: string) => Promise<ExecContext>;
}

/** Said of a create that yielded to an object renamed to its name meanwhile (RaceOutcome.renamedIn). */
const RENAMED_IN_HINT = 'plan again: it shows whether an object holds the name now, and the next apply creates it if none does';

/** How long a child missing from the kept parent is given before it is looked for again: the other apply may be making it. */
const KEPT_CHILD_WAIT_MS = 2000;

/** Said of an apply whose duplicate checks the time budget cut short before its deadline's own stop. */
const BUDGET_SPENT_ON_CHECKS = 'its time budget left no time for the checks for duplicates at the end';

/**
 * The end-of-apply duplicate checks (rules): one fresh read per scope, shared by the creates in
 * it. A failed check is said beside its change; the apply's outcome stays what it was.
 */
async function settleLater(changes: readonly Change[], report: ApplyReport, env: SettleEnv): Promise<void> {
  const results = new Map(report.results.map((r) => [r.changeId, r]));
  // Every write of the apply is done: one read per scope now serves all its creates.
  const ctx: ExecContext = { ...env.ctx, readAfterWrites: onceReads() };
  const again = new Map<string, Promise<ExecContext>>();
  const lookAgain = (parentKey: string): Promise<ExecContext> => {
    let fresh = again.get(parentKey);
    // Whether a signal came meanwhile is asked by each child (lookedAgain), as the promise is shared.
    if (!fresh) again.set(parentKey, (fresh = wait(env.lookAgainMs, env.signal).then((): ExecContext => ({ ...env.ctx, readAfterWrites: onceReads() }))));
    return fresh;
  };
  // The same object: what a check learns of the budget (budgetSpent) is read below.
  const checkEnv: CheckEnv = Object.assign(env, { lookAgain });
  const checked = new Set<Change>();
  // A parent set aside as the other run's duplicate took this run's children in it along: what
  // is left to check is whether the kept parent has each of them (the other run may have been
  // stopped before it made them all).
  const createOf = new Map(changes.map((c) => [`${c.kind}:${c.key}`, c.id]));
  const wentWithParent = (c: Change): boolean => c.parent !== undefined && env.keptOther.has(createOf.get(`${c.parent.kind}:${c.parent.key}`) ?? '');
  // Checks that ended without an answer (the request failed, or was not sent after a signal).
  let unanswered = 0;
  const check = async (change: Change): Promise<void> => {
    if (env.signal?.aborted) return;
    const settle = change.action === 'rename' ? settleRename : wentWithParent(change) ? findInKeptParent : settleOne;
    if (!(await settle(change, results.get(change.id), ctx, checkEnv, report))) unanswered++;
    checked.add(change);
  };
  // Parents first, so that a child is checked knowing whether its parent stays. A bounded number
  // at a time: twenty thousand pending checks would each hold their state at once.
  const width = Math.max(1, env.concurrency);
  const checks = mapLimit(changes.filter((c) => !c.parent), width, check).then(() => mapLimit(changes.filter((c) => c.parent), width, check));
  if (await withinGrace(checks, env.signal, env.graceMs)) {
    // Checks that failed for want of time (a retry's wait past the budget, a request not sent) are
    // the budget stopping the apply, a moment before its deadline would have: never "complete".
    if (env.budgetSpent) {
      report.stopped = env.signal?.aborted ? reasonOf(env.signal) : typeof env.budgetSpent === 'string' ? `the checks for duplicates at the end wait past its time budget: their turn comes ${env.budgetSpent}` : BUDGET_SPENT_ON_CHECKS;
      report.checksCutShort = true;
    }
    return;
  }
  // Stopped during the checks: the apply is reported stopped as it would have been a moment earlier.
  report.stopped = reasonOf(env.signal!);
  report.notStarted = 0;
  const unchecked = changes.filter((c) => !checked.has(c));
  // The checks under way may all have ended, answered, within their grace: then none was cut short.
  if (unchecked.length > 0 || unanswered > 0) report.checksCutShort = true;
  // One that went with its parent is not live whether or not the kept parent has its own (TR66-3).
  for (const change of unchecked.filter(wentWithParent)) {
    const result = results.get(change.id);
    if (result?.status !== 'done' || !change.parent) continue;
    failCreateNotLive(change, result, env, report, `${madeInSetAside(change.parent)}; the apply was stopped before it looked for it in the kept ${change.parent.kind}`, 'plan again to see what the kept one lacks');
  }
  noteUnchecked(unchecked, report);
}

/**
 * A create made in a parent this apply then set aside as another run's duplicate: went with it.
 * The kept parent's own child of that identity stands for it. One the kept parent lacks, looked
 * for again a moment later (the other run may still be making it), is not live: the change is
 * failed, not done, and so is one whose check got no answer, as its own copy is gone either way
 * (probe IL-1, second read SR66-3/4).
 */
async function findInKeptParent(change: Change, result: ChangeResult | undefined, ctx: ExecContext, env: CheckEnv, report: ApplyReport): Promise<boolean> {
  const guard = env.kinds.get(change.kind)?.race;
  if (!guard || !result || result.status !== 'done' || !change.parent) return true;
  const made = madeInSetAside(change.parent);
  const kept = async (at: ExecContext): Promise<Sibling | undefined> => keeperOf((await guard.siblings(change, at)).filter((o) => o.key === change.key));
  const fail = (message: string, hint: string): void => failCreateNotLive(change, result, env, report, message, hint);
  try {
    const found = (await kept(ctx)) ?? (await kept(await lookedAgain(env, `${change.parent.kind}:${change.parent.key}`)));
    if (found) {
      ctx.registerId(change.kind, change.key, found.id);
      env.keptOther.add(change.id);
      result.note = `${made}; the kept ${change.parent.kind} has its own (id ${found.id}), whose fields may differ from the files (plan again to see)`;
      return true;
    }
    fail(
      `${made}: the kept ${change.parent.kind} has no such ${change.kind} yet, so it is not live (the other apply was stopped before it made it, or is still making it)`,
      `plan again once the other apply has ended: the next plan creates what the kept ${change.parent.kind} still lacks`,
    );
    return true;
  } catch (error) {
    noteBudgetSpent(error, env);
    fail(`${made}; could not check that the kept ${change.parent.kind} has it (${error instanceof Error ? error.message : String(error)})`, 'plan again to see what the kept one lacks');
    return false;
  }
}

/** How a change's message begins when the parent it was made in was set aside as another run's duplicate. */
function madeInSetAside(parent: NonNullable<Change['parent']>): string {
  return `made in the copy of ${parent.kind} ${quoteValue(parent.key, Infinity)} this apply set aside as another apply's duplicate, and went with it`;
}

/** The kept parent's scope read again, a moment later; no read once a signal came. */
async function lookedAgain(env: CheckEnv, parentKey: string): Promise<ExecContext> {
  const fresh = await env.lookAgain(parentKey);
  if (env.signal?.aborted) throw new Error('the apply was stopped before it looked again');
  return fresh;
}

/** A create whose object is not live under its name (gone with its parent, or set aside for one renamed in): failed, not done. */
function failCreateNotLive(change: Change, result: ChangeResult, env: SettleEnv, report: ApplyReport, message: string, hint: string): void {
  // Not live, so nothing of it was written either.
  env.createdNow.delete(`${change.kind}:${change.key}`);
  Object.assign(result, { status: 'failed', message, hint });
  delete result.note;
  report.done--;
  report.failed++;
}

/** Checks one create; false when the check got no answer (said beside its change). */
async function settleOne(change: Change, result: ChangeResult | undefined, ctx: ExecContext, env: SettleEnv, report: ApplyReport): Promise<boolean> {
  const guard = env.kinds.get(change.kind)?.race;
  const mine = env.ids.get(`${change.kind}:${change.key}`);
  if (!guard || !mine || !result) return true;
  try {
    const settled = await settleAfterCreate(guard, change, mine, ctx, env.foundBy(change), env.planKnew);
    // The object that stays (the other run's, when it was first) is the one the lock and sync records name.
    ctx.registerId(change.kind, change.key, settled.id);
    if (settled.id !== mine) env.keptOther.add(change.id);
    if (settled.renamedIn && result.status === 'done') failCreateNotLive(change, result, env, report, settled.note!, RENAMED_IN_HINT);
    else if (settled.note) result.note = settled.note;
    return true;
  } catch (error) {
    if (error instanceof ScopeGone) {
      // Made, then gone with what it was made in: failed, not done, as it is not live (probe KY-3).
      failCreateNotLive(change, result, env, report, `made, but ${error.scope} is no longer live (archived or deleted in the app, or by another apply, while this one ran), and the ${change.kind} went with it`, 'plan again: it shows what is missing live');
      return true;
    }
    return uncheckedBecause(error, result, env, (why) => `could not check for a duplicate created by a concurrent apply (${why}); plan again to see`);
  }
}

/**
 * Checks one rename: another object that took the same name meanwhile (a concurrent apply's rename,
 * someone in the app) leaves two live objects of one name, at which every later plan stops (probe
 * JF-1). The one this apply renamed yields: it is renamed back and its change failed, so the next
 * plan decides with both in view. Runs that both see both yield both; the next apply then renames one.
 */
async function settleRename(change: Change, result: ChangeResult | undefined, ctx: ExecContext, env: SettleEnv, report: ApplyReport): Promise<boolean> {
  const kind = env.kinds.get(change.kind);
  const guard = kind?.race;
  const name = change.fields[0];
  if (!kind || !guard || result?.status !== 'done' || !change.liveId || typeof name?.before !== 'string') return true;
  let others: string[];
  try {
    others = (await guard.siblings(change, ctx)).filter((o) => o.key === change.key && o.id !== change.liveId).map((o) => o.id);
  } catch (error) {
    return uncheckedBecause(error, result, env, (why) => `could not check that no other object took the name at the same time (${why}); plan again to see`);
  }
  if (others.length === 0) return true;
  const taken = `renamed, but ${others.length === 1 ? `another object (id ${others[0]})` : `${others.length} other objects (ids ${others.join(', ')})`} took the name at the same time (another apply, or someone in the app), and two live objects of one name would stop every plan`;
  const keyOf = (n: string): string => `${change.parent ? `${change.parent.key}/` : ''}${normName(n)}`;
  const former = name.before;
  let back: Change | undefined;
  let message: string;
  try {
    // Its former name may be held by now too (this apply's own create of it, second read SR70-1): then a name of its own.
    const formerTaken = (await guard.siblings({ ...change, key: keyOf(former) }, ctx)).some((o) => o.key === keyOf(former) && o.id !== change.liveId);
    const backName = formerTaken ? `${former} (renamed back by docket, ${change.liveId.slice(0, 8)})` : former;
    back = { ...change, key: keyOf(backName), name: backName, fields: [{ ...name, before: name.after, after: backName }] };
    await kind.execute(back, ctx);
    await env.followRename(back);
    message = `${taken}: docket renamed this one back to ${quoteValue(backName, Infinity)}${formerTaken ? `, as ${quoteValue(name.before, Infinity)} is taken too` : ''}`;
  } catch (error) {
    message = `${taken}, and renaming this one back to ${quoteValue(back?.name ?? name.before, Infinity)} failed (${error instanceof Error ? error.message : String(error)})`;
  }
  Object.assign(result, { status: 'failed', message, hint: 'plan again: it shows whose object holds the name; give one of them another name in the files (or in the app)' });
  delete result.note;
  report.done--;
  report.failed++;
  // Not the object of that name any more: no sync record names it so, and what else this apply
  // changed of it landed on the object as it is now named (second read SR70-2).
  // Its children's too (a playbook's rules, third read TR70-2): they are in the object renamed back.
  env.ids.delete(`${change.kind}:${change.key}`);
  const children = new Set([...env.kinds.values()].filter((k) => k.parentKind === change.kind).map((k) => k.name as string));
  for (const kindKey of [...env.ids.keys()]) {
    const [kind, key] = splitKindKey(kindKey);
    if (children.has(kind) && key.startsWith(`${change.key}/`)) env.ids.delete(kindKey);
  }
  for (const r of report.results) {
    if (r.changeId === change.id || r.status !== 'done') continue;
    const [, kind, key] = splitChangeId(r.changeId);
    const of = kind === change.kind && key === change.key ? 'the object' : children.has(kind) && key.startsWith(`${change.key}/`) ? `the ${change.kind}` : undefined;
    if (of === undefined) continue;
    const landed = `made on ${of} this apply then renamed back to ${quoteValue(back?.name ?? name.before, Infinity)} (another object took ${quoteValue(String(name.after), Infinity)})`;
    r.note = r.note ? `${r.note}; ${landed}` : landed;
  }
  return true;
}

/** `kind:key` as its two parts (a key may hold `:`). */
function splitKindKey(kindKey: string): [string, string] {
  const at = kindKey.indexOf(':');
  return [kindKey.slice(0, at), kindKey.slice(at + 1)];
}

/** A change id, `action:kind:key`, as its three parts. */
function splitChangeId(id: string): [string, string, string] {
  const at = id.indexOf(':');
  return [id.slice(0, at), ...splitKindKey(id.slice(at + 1))];
}

/** A check that got no answer, said beside its change; false. */
function uncheckedBecause(error: unknown, result: ChangeResult, env: SettleEnv, say: (why: string) => string): false {
  noteBudgetSpent(error, env);
  const unchecked = say(error instanceof Error ? error.message : String(error));
  result.note = result.note ? `${result.note}; ${unchecked}` : unchecked;
  return false;
}

/** A check that failed for want of time: a turn past the budget, once known, is what the stop says, whichever check ends last. */
function noteBudgetSpent(error: unknown, env: SettleEnv): void {
  if (error instanceof DocketError && error.code === 'timeout') env.budgetSpent = typeof env.budgetSpent === 'string' ? env.budgetSpent : (error.turnPastBudget ?? true);
}

/** Resolves after `ms`, or as soon as `signal` aborts (the caller asks `stopping()` next). */
function wait(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return delay(ms, undefined, signal ? { signal } : undefined).catch(() => undefined);
}

/** A write of the lock file (or of a file written before it) that failed (a full disk), said with what it left undone. */
function lockWriteFailed(error: unknown, consequence: string, hint?: string): DocketError {
  return new DocketError('lock-write-failed', `${unwrittenFile(error, 'docket.lock.json')} could not be written (${errnoOf(error) ?? String(error)})${consequence}`, hint);
}
