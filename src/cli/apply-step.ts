/** The apply step's inputs that come from the session: apply and `docket test --emulator` share them. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from '../engine/canonical.js';
import { LockWriter, type LockFile } from '../config/lock.js';
import type { ApplyPlanInput, applyPlan, FileReader } from '../engine/apply.js';
import { syncAfterApply } from '../engine/sync.js';
import type { Plan } from '../engine/types.js';
import { KINDS } from '../kinds/index.js';
import type { Session } from './session.js';

/** Data files are read for upload from the configuration directory, and must be as planned. */
export function dataFileReader(root: string): FileReader {
  return async (path, expected) => {
    const bytes = await readFile(join(root, path));
    if (sha256(bytes) !== expected) throw new Error(`${path} changed since the plan was made; plan again`);
    return bytes;
  };
}

export function applyInputOf(s: Session): ApplyPlanInput {
  const w = s.workspace;
  return {
    services: s.connection.services,
    project: w.config.project,
    desired: w.desired,
    files: dataFileReader(w.config.project.root),
    lock: s.lock,
    clock: () => performance.now(),
    concurrency: s.concurrency,
  };
}

/**
 * What an apply records of its uploads while it runs: each lock write, after the in-process
 * emulator's state (the lock may name an upload it holds only in memory). `flush` waits for the last.
 */
export function lockRecorder(s: Session): { persistLock: (lock: LockFile) => Promise<void>; writeNow: () => void; flush: () => Promise<void> } {
  const writer = s.lockTarget ? new LockWriter(s.workspace.lockLocation, s.lockTarget) : undefined;
  return {
    persistLock: async (lock) => {
      if (!writer) return;
      await s.connection.saveEmulator();
      await writer.write(lock);
    },
    writeNow: () => writer?.writeNow(),
    flush: async () => {
      await writer?.flush();
    },
  };
}

/** The lock and the sync records as an apply of `plan` leaves them; returns what the lock file says of itself. */
export function settleApplied(s: Session, plan: Plan, result: Awaited<ReturnType<typeof applyPlan>>, stopped: boolean): Promise<string | undefined> {
  return s.settle(result.lock, stopped, (held) =>
    syncAfterApply({ plan, report: result.report, desired: s.workspace.desired, ids: result.ids, unkept: result.unkept, written: result.written, distrusted: result.distrusted, kinds: KINDS, held, state: s.sync() }),
    result.landing,
  );
}
