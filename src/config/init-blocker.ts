/**
 * What stands in the way of `docket init DIR`: checked by init before it writes anything, and by
 * every other command that finds no docket.yaml, whose hint offers init only where init would make
 * one (probe HH-3).
 */
import { existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isInside, rootRelative } from './data-files.js';
import { skippedPartOf } from './not-read.js';
import { isProjectFile } from './project-files.js';
import { showPath } from './quote.js';
import { GITIGNORE_FILE } from './work-dir.js';

/** The files init writes besides .gitignore: the project file, then the example playbook. */
export const STARTER_FILES = ['docket.yaml', 'playbooks/example.yaml'] as const;

/** The first path in the way of init writing its files under `root`, and why. */
export function initBlocker(root: string): { path: string; why: string } | undefined {
  return blockerOf(root, [...STARTER_FILES, GITIGNORE_FILE]);
}

/**
 * The first path in the way of writing `files` under `root`: a file where a folder must be (the
 * root's or a starter's), or a folder where a file must be.
 */
function blockerOf(root: string, files: readonly string[]): { path: string; why: string } | undefined {
  for (let at = root; ; at = dirname(at)) {
    if (existsSync(at)) {
      const found = statSync(at);
      if (!found.isDirectory()) return { path: at, why: found.isFile() ? 'is a file, not a folder' : 'is not a folder (a named pipe or a device)' };
      break;
    }
    // A link to nothing is not a folder to make: the write would fail, saying only ENOENT.
    if (danglingLink(at)) return { path: at, why: 'is a symbolic link to something that does not exist, not a folder' };
    if (dirname(at) === at) break;
  }
  for (const file of files) {
    const parts = file.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const path = join(root, ...parts.slice(0, i));
      // A link to nothing is no file to keep (validate cannot read it), nor one to write through;
      // a project file there is said as one that exists, below.
      if (!existsSync(path)) {
        if (danglingLink(path) && !isProjectFile(file)) return { path, why: 'is a symbolic link to something that does not exist' };
        break;
      }
      // A link out of the directory (or into a dot-folder): what init writes there, validate would not read (probe JT-2).
      // .gitignore is git's, never read by docket: a link out of DIR, or into node_modules, is another's (second read SR71-5, RV6-4).
      const out = lstatSync(path).isSymbolicLink() ? linkOut(root, path, file === GITIGNORE_FILE ? (rel) => rel.split('/').includes('node_modules') : (rel) => skippedPartOf(rel) !== undefined) : undefined;
      if (out !== undefined) return { path, why: `is a symbolic link to ${showPath(out)}, which docket does not read as part of this directory` };
      const found = statSync(path);
      const folder = found.isDirectory();
      if (i < parts.length && !folder) return { path, why: 'is a file, not a folder' };
      if (i === parts.length && folder) return { path, why: 'is a folder, not a file' };
      // A named pipe would be read for ever (.gitignore is read to append to it), and kept it is no file validate reads.
      if (i === parts.length && !found.isFile() && !isProjectFile(file)) return { path, why: 'is not a regular file (a named pipe or a device)' };
    }
  }
  return undefined;
}

/** Where a link inside `root` leads, when that is out of it or into a part of it `another` says is not DIR's own. */
function linkOut(root: string, path: string, another: (rel: string) => boolean): string | undefined {
  const realRoot = realpathSync(root);
  const real = realpathSync(path);
  return isInside(realRoot, real) && !another(rootRelative(realRoot, real)) ? undefined : real;
}

/** Whether `path` is a link to nothing (below a file, it is nothing at all: said when the walk reaches the file). */
function danglingLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}
