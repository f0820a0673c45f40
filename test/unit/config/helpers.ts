/** Temporary configuration directories built from small inline file trees. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type KindSchemaInfo, type LoadOptions, type LoadResult } from '../../../src/config/load.js';
import type { Diagnostic } from '../../../src/diagnostics.js';

export const KINDS: KindSchemaInfo[] = [
  { yamlKind: 'Organization', schema: 'organization.schema.json' },
  { yamlKind: 'Member', schema: 'member.schema.json' },
  { yamlKind: 'Playbook', schema: 'playbook.schema.json' },
];

export const PROJECT = 'version: 1\n';

const made: string[] = [];

/** Writes `files` (path → text) below a new temporary directory and returns its path. */
export async function tree(files: Record<string, string>): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'docket-config-'));
  made.push(dir);
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(dir, name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return dir;
}

/** Removes every directory `tree` made; call from afterEach. */
export async function cleanup(): Promise<void> {
  await Promise.all(made.splice(0).map((dir) => rm(dir, { recursive: true, force: true })));
}

/** Builds the tree and loads it with the three kinds above and an empty process environment. */
export async function load(files: Record<string, string>, options: Partial<LoadOptions> = {}): Promise<LoadResult> {
  const dir = await tree(files);
  return loadConfig({ dir, kinds: KINDS, processEnv: {}, ...options });
}

/** The essentials of a diagnostic, for exact comparisons. */
export function brief(d: Diagnostic): string {
  return `${d.file ?? '-'}:${d.line ?? '-'}:${d.col ?? '-'} ${d.code}`;
}

/** Joins lines, so file contents in tests read like the files themselves. */
export function lines(...ls: string[]): string {
  return `${ls.join('\n')}\n`;
}
