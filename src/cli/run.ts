/**
 * Runs the plan step for plan and apply: load, connect, read live, plan. Keeps the connection open
 * for apply and always closes it.
 */
import type { Plan } from '../engine/types.js';
import { KINDS } from '../kinds/index.js';
import { connect, type Connection } from './connect.js';
import { Logger, type Io } from './io.js';
import type { CommonOptions } from './options.js';
import { kindsToRead, loadProject, makePlan, readLive, servicesFor, type Project } from './pipeline.js';

export interface Session {
  project: Project;
  connection: Connection;
  logger: Logger;
  concurrency: number;
}

export async function withSession<T>(io: Io, opts: CommonOptions & { emulator?: boolean }, fn: (s: Session) => Promise<T>): Promise<T> {
  const logger = new Logger(io, opts);
  const project = await loadProject(opts.dir, opts.env, io.env, { emulator: Boolean(opts.emulator) });
  const concurrency = opts.concurrency ?? project.config.project.concurrency;
  const kinds = kindsToRead(project);
  const connection = await connect({
    project: project.config.project,
    emulator: Boolean(opts.emulator),
    needs: servicesFor(kinds, project.desired),
    concurrency,
    io,
    logger,
  });
  try {
    return await fn({ project, connection, logger, concurrency });
  } finally {
    await connection.close();
  }
}

export async function planSession(s: Session, prune: boolean): Promise<Plan> {
  const kinds = kindsToRead(s.project);
  const started = performance.now();
  const live = await readLive(s.project, kinds, s.connection, s.concurrency);
  s.logger.debug(`read ${live.length} live objects in ${Math.round(performance.now() - started)} ms`);
  return makePlan(s.project, kinds, live, s.connection, new Date(), prune);
}

export const KIND_ORDER = KINDS.map((k) => ({ name: k.name, title: k.title }));
