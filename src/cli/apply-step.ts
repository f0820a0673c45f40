/** The apply step's inputs that come from the session: apply and `docket test --emulator` share them. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { sha256 } from '../engine/canonical.js';
import type { ApplyPlanInput, FileReader } from '../engine/apply.js';
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
