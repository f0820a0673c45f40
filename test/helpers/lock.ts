/** docket.lock.json as tests look at it: the entries of each target section. */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LockEntry } from '../../src/config/lock.js';

export type LockFiles = Record<string, LockEntry & { id: string; file: string; sha256: string }>;

export async function lockTargets(dir: string): Promise<Record<string, LockFiles>> {
  const doc = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { version: number; targets: Record<string, { files: LockFiles }> };
  if (doc.version !== 2) throw new Error(`docket.lock.json has version ${doc.version}`);
  return Object.fromEntries(Object.entries(doc.targets).map(([k, v]) => [k, v.files]));
}

/** The entries of the one target the file holds (a test against one service); fails if there are several. */
export async function lockFiles(dir: string): Promise<LockFiles> {
  const targets = Object.values(await lockTargets(dir));
  if (targets.length !== 1) throw new Error(`docket.lock.json has ${targets.length} target sections`);
  return targets[0]!;
}
