/**
 * A folder and the missing ones above it, one `mkdir` each from the nearest that exists. Not
 * Node's `recursive: true`, which retries for ever where a folder's parent exists but it cannot
 * be made there (ENOENT under /proc): `plan --out /proc/x/p.json` spun at full CPU, and `docket
 * test` writing its JUnit report that way on a signal could then be stopped by no other (probe BL-1).
 */
import { mkdirSync, statSync, type Stats } from 'node:fs';
import { mkdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function makeFolders(dir: string): Promise<void> {
  const missing: string[] = [];
  let d = dir;
  for (let found = await stat(d).catch(() => undefined); !found; found = await stat(d).catch(() => undefined)) {
    if (dirname(d) === d) break;
    missing.unshift(d);
    d = dirname(d);
  }
  if (!(await stat(d).catch(() => undefined))?.isDirectory() && dirname(d) !== d) throw notAFolder(dir, d);
  for (const m of missing) await mkdir(m).catch((error: unknown) => (isExists(error) ? undefined : Promise.reject(error)));
}

export function makeFoldersSync(dir: string): void {
  const missing: string[] = [];
  let d = dir;
  for (let found = statOf(d); !found; found = statOf(d)) {
    if (dirname(d) === d) break;
    missing.unshift(d);
    d = dirname(d);
  }
  if (!statOf(d)?.isDirectory() && dirname(d) !== d) throw notAFolder(dir, d);
  for (const m of missing) {
    try {
      mkdirSync(m);
    } catch (error) {
      if (!isExists(error)) throw error;
    }
  }
}

function statOf(path: string): Stats | undefined {
  try {
    return statSync(path);
  } catch {
    return undefined;
  }
}

/** What recursive mkdir says of a file in the way (`inTheWay`), as callers tell it: EEXIST when it is the folder wanted, else ENOTDIR. */
function notAFolder(dir: string, inTheWay: string): NodeJS.ErrnoException {
  const [code, errno, what] = inTheWay === dir ? ['EEXIST', -17, 'file already exists'] : ['ENOTDIR', -20, 'not a directory'];
  return Object.assign(new Error(`${code}: ${what}, mkdir '${dir}'`), { code, errno, syscall: 'mkdir', path: dir });
}

/** Made meanwhile (another writer): what was wanted. */
function isExists(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EEXIST';
}
