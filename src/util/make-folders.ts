/**
 * A folder and the missing ones above it, one `mkdir` each from the nearest that exists. Not
 * Node's `recursive: true`, which retries for ever where a folder's parent exists but it cannot
 * be made there (ENOENT under /proc): `plan --out /proc/x/p.json` spun at full CPU, and `docket
 * test` writing its JUnit report that way on a signal could then be stopped by no other (probe BL-1).
 */
import { mkdirSync, statSync } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let d = dir; !(await stat(d).then(() => true, () => false)); d = dirname(d)) {
    if (dirname(d) === d) break;
    missing.unshift(d);
  }
  for (const d of missing) await mkdir(d).catch((error: unknown) => (isExists(error) ? undefined : Promise.reject(error)));
}

export function makeFoldersSync(dir: string): void {
  const missing: string[] = [];
  for (let d = dir; !exists(d); d = dirname(d)) {
    if (dirname(d) === d) break;
    missing.unshift(d);
  }
  for (const d of missing) {
    try {
      mkdirSync(d);
    } catch (error) {
      if (!isExists(error)) throw error;
    }
  }
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Made meanwhile (another writer): what was wanted. */
function isExists(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EEXIST';
}
