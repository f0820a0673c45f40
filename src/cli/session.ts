/**
 * What plan, apply and export share around the engine: the workspace loaded, the services
 * connected (only those the configuration needs), a logger and a progress line, and the
 * connection always closed.
 */
import { lstat, rm } from 'node:fs/promises';
import { EMULATOR_TARGET, agreementsSections, emptyLock, forgetEmulatorUploads, forgetKnownLocks, hasAgreementsSection, landingMarks, movedFromVersion1, movesFromVersion1, readLockDocument, resolveLockTarget, serviceTarget, settleLock, syncRecords, writeLandingSync, writeSync, type LockDocument, type LockFile, type LockLocation, type SyncChanges } from '../config/lock.js';
import { kindsToRead, servicesNeeded, type PruneSwitches } from '../engine/project.js';
import { parseTarget } from '../engine/target.js';
import { followRenamesInDropped, recordHeld, splitByService, syncState, withChildrenForgotten, withMovedRecords, type RecordHeld, type SyncState, type SyncUpdates } from '../engine/sync.js';
import { loadWorkspace, lockFor, type Workspace } from '../engine/workspace.js';
import type { ServiceName } from '../api/types.js';
import type { NextRun } from '../api/problem.js';
import { KINDS, kindNamed } from '../kinds/index.js';
import { refKey } from '../engine/types.js';
import { parseLandingMark, type LandingChange, type LandingMark, type LandingMarks } from '../engine/landing.js';
import { DEFAULT_AGREEMENTS_URL, connect, refuseScratchOutside, type Connection, type EmulatorStateUse } from './connect.js';
import { emulatorOrganizations } from '../emulator/identity.js';
import { serviceApiKey } from '../config/api-keys.js';
import { Logger, type Io } from './io.js';
import { keyValues, withoutSecretKeys } from './redact.js';
import type { CommonOptions } from './options.js';
import { Progress, showsProgress } from './progress.js';
import { ConfigError, UsageError } from '../errors.js';
import { atSetting } from './setting-error.js';
import { EMULATOR_SYNC_FILE, workLabel, workPath } from '../config/work-dir.js';

export interface Session {
  workspace: Workspace;
  connection: Connection;
  logger: Logger;
  progress: Progress;
  concurrency: number;
  /** The `prune:` switches of docket.yaml, or every prunable kind with `--prune`. */
  prune: PruneSwitches;
  /** This target's docket.lock.json entries. */
  lock: LockFile;
  /** The lock section this run reads and writes (undefined: it cannot upload, so it writes none). */
  lockTarget: string | undefined;
  /** What docket last saw in sync, from the sections of the services this run talks to (ask once they answered). */
  sync(): SyncState;
  /** Creates, invitations and publishes an earlier apply stopped waiting for (engine/landing.ts), from the same sections as `sync`. */
  landing(): LandingMarks;
  /** Writes landing mark changes at once, synchronously: a second signal's last write (none for the in-process emulator, which ends with the process). */
  landingNow(changes: ReadonlyMap<string, LandingChange>): void;
  /** The file recordSync writes (docket.lock.json, or the emulator's sync file). */
  syncFile: string;
  /** The records of every target syncFile holds, as read: those of services this run does not talk to too. */
  syncDoc: LockDocument;
  /** Records sync changes in docket.lock.json, each field under the service it lives on. */
  /** Returns what is worth telling of the write (a merge conflict of the lock it resolved). */
  recordSync(updates: SyncUpdates): Promise<string | undefined>;
  /**
   * The end of an apply: this target's lock entries (`create`: write the file even with none) and
   * the sync changes, in one atomic write when both live in docket.lock.json (all but
   * `--emulator` runs). `updatesOf` makes the changes once the file is read, leaving out the
   * records it holds already (`held`), and `landing` how the landing marks change. Returns what is
   * worth telling about the lock file.
   */
  settle(lock: LockFile, create: boolean, updatesOf: (held: RecordHeld) => SyncUpdates, landing?: ReadonlyMap<string, LandingChange>): Promise<string | undefined>;
}

export interface SessionOptions extends CommonOptions {
  emulator?: boolean;
  /** What the command does with the in-process emulator's state (see connect). */
  emulatorState?: EmulatorStateUse;
  prune?: boolean;
  /** `--target`: its kinds and syntax are checked before anything is read. */
  targets?: readonly string[];
  /** A command's own offline checks of the loaded files, before any connection (and before `needs`). */
  check?: (workspace: Workspace) => Promise<void>;
  /** Told where the run goes once connected, before anything is read: an error after it can say so. */
  connected?: (target: Connection['target'], workspace: Workspace) => void;
  /** Keep the digest of each YAML file as loaded (pull). */
  digests?: boolean;
  /**
   * The lock's sections are read without the agreements service (export of attachments alone):
   * asked whose they are all the same when a key is set, as another organization's uploads are not this one's.
   */
  asksLockOrganization?: boolean;
  /** Load docket.yaml and the lock alone, not the resource files (export reads the live state, not them). */
  projectOnly?: boolean;
  /** The services to connect; by default what the configuration's kinds need. */
  needs?: (workspace: Workspace, prune: PruneSwitches) => Set<ServiceName>;
  /** Aborts the requests in flight. */
  signal?: AbortSignal;
  /** Once aborted, requests the services refused or lost are not tried again. */
  stop?: AbortSignal;
  /** Whether a request asked for after `stop` is part of stopping (a test run's cleanup). */
  waitsAfterStop?: () => boolean;
  /** The command whose next run shows what a write left undone (connect.ts). */
  nextRun?: NextRun;
  /** When the command's requests must be done by (epoch ms), asked per request. */
  deadline?: () => number | undefined;
  /**
   * The review organization a saved plan was made for: its records' section when this run makes no
   * review request to learn it (an apply of agreements changes alone), not a section under no id.
   */
  reviewOrganization?: string;
}

/** `KIND_ORDER` for the renderers: every kind's name and plural title, in registry order. */
export const KIND_ORDER = KINDS.map((k) => ({ name: k.name, title: k.title }));

export async function withSession<T>(io: Io, opts: SessionOptions, fn: (s: Session) => Promise<T>): Promise<T> {
  const logger = new Logger(io, opts);
  const emulator = Boolean(opts.emulator);
  forgetKnownLocks();
  for (const text of opts.targets ?? []) {
    const target = parseTarget(text, KINDS);
    if ('error' in target) throw new UsageError(target.error);
  }
  const workspace = await loadWorkspace({ dir: opts.dir, processEnv: io.env, emulator, ...(opts.env ? { env: opts.env } : {}), ...(opts.digests ? { digests: true } : {}), ...(opts.projectOnly ? { projectOnly: true } : {}) });
  const prune: PruneSwitches = opts.prune ? 'all' : workspace.config.project.prune;
  const concurrency = opts.concurrency ?? workspace.config.project.concurrency;
  const maxRps = opts.maxRps ?? workspace.config.project.maxRps;
  await opts.check?.(workspace);
  const progress = new Progress(io, showsProgress(io, opts.quiet));
  const needs = opts.needs ? opts.needs(workspace, prune) : servicesNeeded(kindsToRead(workspace.desired, prune), workspace.desired);
  // The emulator's sync records live beside its state, in .docket/ (not in git): they describe that state.
  // Read before the emulator starts: one that is no file to read (a named pipe would hang the write
  // at the end, a folder or a loop fail it after the changes) stops the run before anything is done.
  const syncLocation: LockLocation = emulator ? { ...workspace.lockLocation, path: workPath(workspace.config.project.root, EMULATOR_SYNC_FILE), label: workLabel(EMULATOR_SYNC_FILE) } : workspace.lockLocation;
  if (emulator) await refuseScratchOutside(workspace.config.project.root);
  const syncRead = emulator ? await readLockDocument(syncLocation) : undefined;
  // Only of something there: a .docket that is no folder is said by the emulator's start, as what is in the way.
  const syncThere = emulator && (await lstat(syncLocation.path).then(() => true, () => false));
  const syncProblems = syncThere ? (syncRead?.diagnostics.filter((d) => d.severity === 'error') ?? []) : [];
  if (syncProblems.length > 0) throw new ConfigError(syncProblems, `${syncLocation.label} cannot be used`, workspace.config.project.root);
  const connection = await connect({
    onRequest: () => progress.tick(),
    project: workspace.config.project,
    emulator,
    ...(opts.emulatorState ? { emulatorState: opts.emulatorState } : {}),
    needs,
    concurrency,
    ...(maxRps !== undefined ? { maxRps } : {}),
    io,
    logger,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.stop ? { stop: opts.stop } : {}),
    ...(opts.waitsAfterStop ? { waitsAfterStop: opts.waitsAfterStop } : {}),
    ...(opts.nextRun ? { nextRun: opts.nextRun } : {}),
    ...(opts.deadline ? { deadline: opts.deadline } : {}),
  });
  opts.connected?.(connection.target, workspace);
  let result: T;
  try {
    const project = workspace.config.project;
    // Whether the lock was there before this run wrote one (a link counts, dangling or not): one it
    // made and left recording nothing is taken away again (settleLock).
    const lockExisted = await lstat(workspace.lockLocation.path).then(
      () => true,
      () => false,
    );
    const agreementsUrl = project.agreements.url ?? DEFAULT_AGREEMENTS_URL;
    // An export of attachments alone, which reads no agreements, still asks whose the lock's
    // sections are when it has a key to (probe OC-1). No other command does: a review-only run
    // never depends on the agreements service (second read SR80-2).
    const askOrganization = needs.has('agreements') || (opts.asksLockOrganization === true && !emulator && serviceApiKey(io.env, 'agreements') !== undefined && hasAgreementsSection(workspace.lockDoc, agreementsUrl));
    const lockTarget = await resolveLockTarget(workspace.lockDoc, {
      emulator,
      // The uploads are the agreements organization's.
      emulatorOrganization: emulatorOrganizations(project).agreements,
      agreementsUrl,
      ...(askOrganization ? { organizationId: async () => (await connection.services.agreements().getOrganization()).id } : {}),
      ...(opts.asksLockOrganization === true && project.agreements.organization_id !== undefined ? { configuredOrganization: project.agreements.organization_id } : {}),
    });
    // No key to ask whose they are, and no organization named: several organizations' uploads cannot be told apart (probe OY-1).
    const sections = !lockTarget && !emulator && opts.asksLockOrganization === true ? agreementsSections(workspace.lockDoc, agreementsUrl).length : 0;
    if (sections > 1) logger.info(`Warning: docket.lock.json records uploads for ${sections} organizations of ${agreementsUrl}, and without an agreements API key to ask whose this run is, or \`agreements.organization_id\` in docket.yaml, none of them is used`);
    let lock = lockFor(workspace, lockTarget);
    if (connection.freshEmulator && emulator) {
      await forgetEmulatorUploads(workspace.lockLocation);
      // Its own uploads are gone with the old emulator; what other targets record stays theirs: a pin
      // of one of theirs is refused on this first run as on the next (probe YD-2).
      const { elsewhere, elsewhereKeys } = lock;
      lock = { ...emptyLock(), ...(elsewhere ? { elsewhere } : {}), ...(elsewhereKeys ? { elsewhereKeys } : {}) };
    }
    // (connect refused a sync records file that leads out of the configuration.)
    const syncDoc = syncRead ? syncRead.doc : workspace.lockDoc;
    if (connection.freshEmulator && Object.keys({ ...syncDoc.synced, ...syncDoc.landing }).length > 0) {
      // A new emulator holds none of the objects an earlier one did: what was in sync then says nothing now.
      await rm(syncLocation.path, { force: true });
      delete syncDoc.synced;
      delete syncDoc.landing;
    }
    if (lockTarget) logger.debug(`docket.lock.json section: ${lockTarget}`);
    /** The section of each service this run talks to (the emulator keeps one for both). */
    const syncTargets = (): Map<ServiceName, string> => {
      const out = new Map<ServiceName, string>();
      const target = connection.target;
      for (const service of needs) {
        // The emulator holds one organization per id, both services' parts of it: one section when docket.yaml names one organization.
        if (emulator) out.set(service, `${EMULATOR_TARGET} ${emulatorOrganizations(workspace.config.project)[service]}`);
        else if (service === 'review' && target.review) out.set(service, serviceTarget(target.review.url, target.review.organization_id || (opts.reviewOrganization ?? '')));
        else if (service === 'agreements' && lockTarget) out.set(service, lockTarget);
      }
      return out;
    };
    // syncDoc does not change during a run (records are written to disk), so the index of the same
    // sections is built once, however many steps ask for it.
    let indexed: { sections: string; state: SyncState } | undefined;
    const sync = (): SyncState => {
      const targets = [...new Set(syncTargets().values())];
      const sections = targets.join('\n');
      if (indexed?.sections !== sections) indexed = { sections, state: syncState(targets.map((t) => syncRecords(syncDoc, t))) };
      return indexed.state;
    };
    /** The section of each target records go to, and the one a field of an object goes to. */
    type Sections = { sections: string[]; serviceOf: (kindKey: string, field: string) => string };
    const sectionsNow = (): Sections => {
      const targets = syncTargets();
      const sections = [...new Set(targets.values())];
      // One section for every service (the emulator): records are not split.
      const serviceOf = (kindKey: string, field: string): string => {
        if (sections.length === 1) return sections[0]!;
        const kind = kindNamed(kindKey.slice(0, kindKey.indexOf(':')));
        const service = kind?.service === 'both' ? (kind.fieldService?.(field) ?? 'review') : (kind?.service ?? 'review');
        return targets.get(service) ?? sections[0]!;
      };
      return { sections, serviceOf };
    };
    const landing = (): LandingMarks => {
      const out = new Map<string, LandingMark>();
      for (const target of new Set(syncTargets().values())) {
        for (const [key, text] of Object.entries(landingMarks(syncDoc, target))) {
          const mark = parseLandingMark(text);
          if (mark) out.set(key, mark);
        }
      }
      return out;
    };
    /** Landing mark changes, each under the section of its object's service. */
    const landingChanges = (marks: ReadonlyMap<string, LandingChange>, { sections, serviceOf }: Sections): Map<string, Record<string, LandingChange>> => {
      const out = new Map<string, Record<string, LandingChange>>();
      if (sections.length === 0) return out;
      for (const [key, mark] of marks) {
        const target = serviceOf(key, '');
        let into = out.get(target);
        if (!into) out.set(target, (into = {}));
        into[key] = mark;
      }
      return out;
    };
    const landingNow = (marks: ReadonlyMap<string, LandingChange>): void => {
      if (emulator || marks.size === 0) return;
      writeLandingSync(syncLocation, Object.fromEntries([...landingChanges(marks, sectionsNow())].map(([target, landing]) => [target, { records: {}, landing }])));
    };
    let declared: Set<string> | undefined;
    const declaredKeys = (): ReadonlySet<string> => (declared ??= new Set(workspace.desired.map((d) => refKey(d.kind, d.key))));
    const secrets = keyValues(io.env);
    const syncChanges = (all: SyncUpdates, { sections, serviceOf }: Sections = sectionsNow()): SyncChanges | undefined => {
      const updates = withoutSecretKeys(all, secrets);
      if (sections.length === 0 || updates.size === 0) return undefined;
      const state = sync();
      const moved = withMovedRecords(withChildrenForgotten(updates, state, KINDS), state);
      const split = splitByService(followRenamesInDropped(moved, state, declaredKeys, KINDS), sections, serviceOf);
      return Object.fromEntries([...split].map(([target, records]) => [target, { records }]));
    };
    /** Against the records of `doc`, the file as read for the write: exactly what a write would keep. */
    const heldIn = (doc: LockDocument, { sections, serviceOf }: Sections): RecordHeld => {
      const records = new Map(sections.map((t) => [t, syncRecords(doc, t)]));
      const state = sync();
      return (key, record) => recordHeld(key, record, records, serviceOf, state);
    };
    const recordSync = async (updates: SyncUpdates): Promise<string | undefined> => {
      const changes = syncChanges(updates);
      if (!changes) return undefined;
      await connection.saveEmulator();
      return writeSync(syncLocation, changes);
    };
    const movedFromLegacy = lockTarget !== undefined && movesFromVersion1(workspace.lockDoc, lockTarget, workspace.lockLocation);
    const settle = async (files: LockFile, create: boolean, updatesOf: (held: RecordHeld) => SyncUpdates, marks?: ReadonlyMap<string, LandingChange>): Promise<string | undefined> => {
      // With every record held already, the sections are still named: one written out of order by
      // hand is put in order, as restating its records did.
      const changesIn = (doc: LockDocument): SyncChanges | undefined => {
        const where = sectionsNow();
        const changes: SyncChanges = syncChanges(updatesOf(heldIn(doc, where)), where) ?? Object.fromEntries(where.sections.map((target) => [target, { records: {} }]));
        for (const [target, landing] of landingChanges(marks ?? new Map(), where)) changes[target] = { ...(changes[target] ?? { records: {} }), landing };
        return changes;
      };
      const together = lockTarget !== undefined && syncLocation === workspace.lockLocation;
      await connection.saveEmulator();
      const settled = lockTarget ? await settleLock(workspace.lockLocation, lockTarget, files, create, together ? changesIn : undefined, lockExisted) : undefined;
      // Moved by a write during the run (an upload's entry), it is said all the same (probe PN-1).
      const told = settled === undefined && movedFromLegacy && (await readLockDocument(workspace.lockLocation)).doc.targets[lockTarget!] !== undefined ? movedFromVersion1(workspace.lockLocation, lockTarget!) : settled;
      // After the lock entries: a crash between loses only directions. Its word on a merge conflict
      // it resolved is said too (a review-only lock holds only sync records).
      const wrote = together ? undefined : await writeSync(syncLocation, changesIn);
      return [told, wrote].filter((said) => said !== undefined).join('\n') || undefined;
    };
    result = await fn({ workspace, connection, logger, progress, concurrency, prune, lock, lockTarget, sync, landing, landingNow, syncFile: syncLocation.path, syncDoc, recordSync, settle });
  } catch (error) {
    progress.stop();
    // The command's own failure is the one to report: closing (the emulator's last save) may fail too.
    await connection.close().catch(() => undefined);
    throw atSetting(error, workspace.config.project, io.env);
  }
  progress.stop();
  await connection.close();
  return result;
}
