/**
 * A folder and the missing ones above it, one `mkdir` each from the nearest that exists. Not
 * Node's `recursive: true`, which retries for ever where a folder's parent exists but it cannot
 * be made there (ENOENT under /proc): `plan --out /proc/x/p.json` spun at full CPU, and `docket
 * test` writing its JUnit report that way on a signal could then be stopped by no other (probe BL-1).
 * Returns the first folder it made, as recursive mkdir does; one that fails past folders it made
 * takes them away again while they are empty (a name too long below two new folders, probe BF-3):
 * never what another writer put in them meanwhile.
 */
import { mkdirSync, rmdirSync, statSync, type Stats } from 'node:fs';
import { mkdir, rmdir, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

export async function makeFolders(dir: string): Promise<string | undefined> {
  const missing = await missingFolders(dir);
  const made: string[] = [];
  try {
    for (const m of missing) if (await mkdir(m).then(() => true, (error: unknown) => (isExists(error) ? false : Promise.reject(error)))) made.push(m);
  } catch (error) {
    for (const m of made.reverse()) await rmdir(m).catch(() => undefined);
    throw error;
  }
  return made[0];
}

export function makeFoldersSync(dir: string): string | undefined {
  const missing = missingFoldersSync(dir);
  const made: string[] = [];
  try {
    for (const m of missing) {
      try {
        mkdirSync(m);
        made.push(m);
      } catch (error) {
        if (!isExists(error)) throw error;
      }
    }
  } catch (error) {
    for (const m of made.reverse()) {
      try {
        rmdirSync(m);
      } catch {
        // Not empty (another writer's) or gone: left as it is.
      }
    }
    throw error;
  }
  return made[0];
}

/** The folders from the nearest existing one down to `dir`, first to last; a file in the way said as recursive mkdir says it. */
async function missingFolders(dir: string): Promise<string[]> {
  const statOf = (path: string): Promise<Stats | undefined> => stat(path).catch(() => undefined);
  const missing: string[] = [];
  let d = dir;
  let found = await statOf(d);
  while (!found && dirname(d) !== d) {
    missing.unshift(d);
    d = dirname(d);
    found = await statOf(d);
  }
  if (found && !found.isDirectory()) throw notAFolder(dir, d);
  return missing;
}

function missingFoldersSync(dir: string): string[] {
  const missing: string[] = [];
  let d = dir;
  let found = statOf(d);
  while (!found && dirname(d) !== d) {
    missing.unshift(d);
    d = dirname(d);
    found = statOf(d);
  }
  if (found && !found.isDirectory()) throw notAFolder(dir, d);
  return missing;
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
