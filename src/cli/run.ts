/**
 * Runs the plan step for plan and apply: load, connect, read live, plan. Keeps the connection open
 * for apply and always closes it.
 */
import { describeViolation, massDeleteViolations } from '../engine/guard.js';
import { limitToTargets, parseTarget, type Target } from '../engine/target.js';
import type { Plan } from '../engine/types.js';
import { ConfigError, UsageError } from '../errors.js';
import { KINDS } from '../kinds/index.js';
import { connect, type Connection } from './connect.js';
import { Logger, type Io } from './io.js';
import { Progress } from './progress.js';
import { emptyLock, writeLock } from '../config/lock.js';
import type { CommonOptions } from './options.js';
import { kindsToRead, loadProject, makePlan, readLive, servicesFor, type Project } from './pipeline.js';

export interface Session {
  project: Project;
  connection: Connection;
  logger: Logger;
  progress: Progress;
  concurrency: number;
}

export async function withSession<T>(io: Io, opts: CommonOptions & { emulator?: boolean }, fn: (s: Session) => Promise<T>): Promise<T> {
  const logger = new Logger(io, opts);
  const project = await loadProject(opts.dir, opts.env, io.env, { emulator: Boolean(opts.emulator) });
  const concurrency = opts.concurrency ?? project.config.project.concurrency;
  const kinds = kindsToRead(project);
  const progress = new Progress(io, Boolean(io.stderrTTY) && !opts.quiet);
  const connection = await connect({
    onRequest: () => progress.tick(),
    project: project.config.project,
    emulator: Boolean(opts.emulator),
    needs: servicesFor(kinds, project.desired),
    concurrency,
    io,
    logger,
  });
  try {
    if (connection.freshEmulator && Object.keys(project.lock.files).length > 0) {
      // A new emulator holds none of the files an earlier one was given: forget their lock entries.
      project.lock = emptyLock();
      await writeLock(project.lockLocation, project.lock);
    }
    return await fn({ project, connection, logger, progress, concurrency });
  } finally {
    progress.stop();
    await connection.close();
  }
}

export interface PlanOptions {
  prune: boolean;
  /** `--target` values as written. */
  targets: string[];
}

/** Reads live state and plans: targets limit the plan, and the mass-delete guard is recorded in it. */
export async function planSession(s: Session, options: PlanOptions): Promise<Plan> {
  const targets = parseTargets(options.targets);
  const kinds = kindsToRead(s.project);
  const started = performance.now();
  s.progress.start('Reading live state');
  const live = await readLive(s.project, kinds, s.connection, s.concurrency);
  s.progress.stop();
  s.logger.debug(`read ${live.length} live objects in ${Math.round(performance.now() - started)} ms`);
  let plan = makePlan(s.project, kinds, live, s.connection, new Date(), options.prune);
  if (targets.length > 0) {
    const limited = limitToTargets(plan, s.project.desired, targets);
    if (!limited.plan) throw new ConfigError(limited.diagnostics.items, 'the targets do not name known resources');
    plan = limited.plan;
  }
  const guard = massDeleteViolations(plan, live, s.project.config.project.safety.max_delete_fraction);
  if (guard.length === 0) return plan;
  return {
    ...plan,
    guard,
    warnings: [...plan.warnings, ...guard.map((v) => `apply will refuse this plan: ${describeViolation(v)}; pass --force to apply it anyway`)],
  };
}

function parseTargets(texts: string[]): Target[] {
  return texts.map((text) => {
    const t = parseTarget(text);
    if ('error' in t) throw new UsageError(t.error);
    return t;
  });
}

export const KIND_ORDER = KINDS.map((k) => ({ name: k.name, title: k.title }));
