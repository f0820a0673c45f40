/** Finds the YAML files of a configuration directory and reads them. */
import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { mapLimit } from '../util/map-limit.js';

const YAML_FILE = /\.ya?ml$/i;

/** Dot-folders hold local scratch (`.docket/`, `.git/`); node_modules holds other people's YAML. */
function skipDirectory(name: string): boolean {
  return name.startsWith('.') || name === 'node_modules';
}

/**
 * Every `*.yaml`/`*.yml` below `root`, as paths relative to it with `/` separators, sorted so
 * that output is the same on every machine. Sibling directories are listed in parallel.
 */
export async function discoverYamlFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  async function walk(relDir: string): Promise<void> {
    const entries = await readdir(path.join(root, relDir), { withFileTypes: true });
    const subdirs: Promise<void>[] = [];
    for (const entry of entries) {
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!skipDirectory(entry.name)) subdirs.push(walk(rel));
      } else if (YAML_FILE.test(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && (await isFile(path.join(root, rel)))))) {
        // A symlinked file is read like any other; symlinked folders are not followed (they can loop).
        found.push(rel);
      }
    }
    await Promise.all(subdirs);
  }
  await walk('');
  // Plain code-unit order, not locale order: the same on every machine and CI runner.
  return found.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

async function isFile(file: string): Promise<boolean> {
  return (await stat(file).catch(() => undefined))?.isFile() ?? false;
}

/**
 * Reads files in parallel with a bound, so a repository with thousands of files neither waits on
 * them one by one nor runs out of file descriptors.
 */
export function readFiles(root: string, files: string[], limit = 64): Promise<string[]> {
  return mapLimit(files, limit, (file) => readFile(path.join(root, file), 'utf8'));
}
