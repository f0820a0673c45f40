/**
 * What plan, apply and export share around the engine: the workspace loaded, the services
 * connected (only those the configuration needs), a logger and a progress line, and the
 * connection always closed.
 */
import { EMULATOR_TARGET, emptyLock, resolveLockTarget, writeLock, type LockFile } from '../config/lock.js';
import { kindsToRead, servicesNeeded, type PruneSwitches } from '../engine/project.js';
import { loadWorkspace, lockFor, type Workspace } from '../engine/workspace.js';
import type { ServiceName } from '../api/types.js';
import { KINDS } from '../kinds/index.js';
import { DEFAULT_AGREEMENTS_URL, connect, type Connection } from './connect.js';
import { Logger, type Io } from './io.js';
import type { CommonOptions } from './options.js';
import { Progress } from './progress.js';

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
}

export interface SessionOptions extends CommonOptions {
  emulator?: boolean;
  prune?: boolean;
  /** The services to connect; by default what the configuration's kinds need. */
  needs?: (workspace: Workspace, prune: PruneSwitches) => Set<ServiceName>;
  /** Aborts the requests in flight. */
  signal?: AbortSignal;
  /** Once aborted, requests the services refused or lost are not tried again. */
  stop?: AbortSignal;
  /** When the command's requests must be done by (epoch ms), asked per request. */
  deadline?: () => number | undefined;
}

/** `KIND_ORDER` for the renderers: every kind's name and plural title, in registry order. */
export const KIND_ORDER = KINDS.map((k) => ({ name: k.name, title: k.title }));

export async function withSession<T>(io: Io, opts: SessionOptions, fn: (s: Session) => Promise<T>): Promise<T> {
  const logger = new Logger(io, opts);
  const emulator = Boolean(opts.emulator);
  const workspace = await loadWorkspace({ dir: opts.dir, processEnv: io.env, emulator, ...(opts.env ? { env: opts.env } : {}) });
  const prune: PruneSwitches = opts.prune ? 'all' : workspace.config.project.prune;
  const concurrency = opts.concurrency ?? workspace.config.project.concurrency;
  const maxRps = opts.maxRps ?? workspace.config.project.maxRps;
  const progress = new Progress(io, Boolean(io.stderrTTY) && !opts.quiet);
  const needs = opts.needs ? opts.needs(workspace, prune) : servicesNeeded(kindsToRead(workspace.desired, prune), workspace.desired);
  const connection = await connect({
    onRequest: () => progress.tick(),
    project: workspace.config.project,
    emulator,
    needs,
    concurrency,
    ...(maxRps !== undefined ? { maxRps } : {}),
    io,
    logger,
    ...(opts.signal ? { signal: opts.signal } : {}),
    ...(opts.stop ? { stop: opts.stop } : {}),
    ...(opts.deadline ? { deadline: opts.deadline } : {}),
  });
  try {
    const project = workspace.config.project;
    const lockTarget = await resolveLockTarget(workspace.lockDoc, {
      emulator,
      agreementsUrl: project.agreements.url ?? DEFAULT_AGREEMENTS_URL,
      ...(needs.has('agreements') ? { organizationId: async () => (await connection.services.agreements().getOrganization()).id } : {}),
    });
    let lock = lockFor(workspace, lockTarget);
    if (connection.freshEmulator && lockTarget === EMULATOR_TARGET && Object.keys(lock.files).length > 0) {
      // A new emulator holds none of the files an earlier one was given: forget their lock entries.
      lock = emptyLock();
      await writeLock(workspace.lockLocation, EMULATOR_TARGET, lock);
    }
    if (lockTarget) logger.debug(`docket.lock.json section: ${lockTarget}`);
    return await fn({ workspace, connection, logger, progress, concurrency, prune, lock, lockTarget });
  } finally {
    progress.stop();
    await connection.close();
  }
}
