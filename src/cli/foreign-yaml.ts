/**
 * YAML files already below a directory `init` writes a configuration into, that are no docket
 * documents (a docker-compose.yml, a CI workflow, another configuration's docket.yaml): docket reads
 * every YAML file below its directory, so its first `validate` fails on them (probe KK-2). Said as
 * a warning; the starter files are written all the same.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { discoverYamlFiles, isTestFile } from '../config/discover.js';
import { showPath } from '../config/quote.js';
import { escapeControl } from '../render/sanitize.js';
import { shellWord } from '../util/shell-word.js';

/** How many files are read to tell: a repository of thousands is told by its first ones. */
const FILES_READ = 1000;
/** How many of them the warning names. */
const NAMED = 5;

/** A line `kind: …` at the start of a line: what every docket document has. */
const KIND_LINE = /^kind:[ \t]*\S/m;

/** The warning for `root` (written as `dir`), or undefined when every YAML file there but `written` is a docket document. */
export async function foreignYamlWarning(dir: string, root: string, written: readonly string[]): Promise<string | undefined> {
  const { files } = await discoverYamlFiles(root);
  const others = files.filter((f) => !written.includes(f) && !isTestFile(f)).slice(0, FILES_READ);
  const foreign: string[] = [];
  for (const file of others) {
    const text = await readFile(join(root, file), 'utf8').catch(() => '');
    if (!KIND_LINE.test(text)) foreign.push(file);
  }
  if (foreign.length === 0) return undefined;
  const named = foreign.slice(0, NAMED).map((f) => showPath(f)).join(', ');
  const more = foreign.length > NAMED ? ` and ${foreign.length - NAMED} more` : '';
  const inner = dir === '.' ? 'docket' : `${dir.replace(/\/+$/, '')}/docket`;
  return escapeControl(
    `Warning: ${showPath(dir)} already holds YAML files that are no docket documents (${named}${more}); docket reads every YAML file below its directory, so \`docket validate\` fails on them. Keep the configuration in a folder of its own (\`docket init ${shellWord(inner)}\`), or move them out (or into a dot-folder).`,
  );
}
