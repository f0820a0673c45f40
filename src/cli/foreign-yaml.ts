/**
 * YAML files already below a directory `init` writes a configuration into, that are no docket
 * documents (a docker-compose.yml, a Kubernetes manifest, another configuration's docket.yaml):
 * docket reads every YAML file below its directory, so its first `validate` fails on them (probe
 * KK-2). Said as a warning; the starter files are written all the same.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { isMap, parseAllDocuments } from 'yaml';
import { discoverYamlFiles, isTestFile } from '../config/discover.js';
import { crAsLf } from '../util/line-break.js';
import { showPath } from '../config/quote.js';
import { KINDS } from '../kinds/index.js';
import { escapeControl } from '../render/sanitize.js';
import { shellWord } from '../util/shell-word.js';

/** How many files are read to tell: a repository of thousands is told by its first ones. */
const FILES_READ = 1000;
/** How many of them the warning names. */
const NAMED = 5;

/** The kinds a resource file declares (`kind: Playbook`), as the files write them. */
const RESOURCE_KINDS = new Set(KINDS.filter((k) => !k.internal).map((k) => k.yamlKind));

/** Whether every document of the text is a docket resource (an empty file or one of comments is none of docket's either way). */
function docketDocuments(text: string): boolean {
  // Read as docket reads it (second read RV9-4): a byte-order mark, quotes, a flow mapping, a value
  // on the next line are all a `kind:`; a Kubernetes manifest's `kind: Deployment` is none of docket's.
  // A lone CR a line break too (second read SR103-8).
  const docs = parseAllDocuments(crAsLf(text.replace(/^\uFEFF/, '')), { logLevel: 'silent' });
  const list = Array.isArray(docs) ? docs : [docs];
  return list.length > 0 && list.every((doc) => isMap(doc.contents) && RESOURCE_KINDS.has(String(doc.contents.get('kind'))));
}

/** The warning for `root` (written as `dir`), or undefined when every YAML file there but `written` is a docket document. */
export async function foreignYamlWarning(dir: string, root: string, written: readonly string[], made: readonly string[] = []): Promise<string | undefined> {
  const { files } = await discoverYamlFiles(root);
  const others = files.filter((f) => !written.includes(f) && !isTestFile(f));
  const foreign: string[] = [];
  for (const file of others.slice(0, FILES_READ)) {
    const text = await readFile(join(root, file), 'utf8').catch(() => undefined);
    if (text !== undefined && !docketDocuments(text)) foreign.push(file);
  }
  if (foreign.length === 0) return undefined;
  const named = foreign.slice(0, NAMED).map((f) => showPath(f)).join(', ');
  // Past the files read, how many more is not known (second read RV9-5).
  const more = others.length > FILES_READ ? ' and more' : foreign.length > NAMED ? ` and ${foreign.length - NAMED} more` : '';
  // A folder not there yet: one that is (another configuration's) would refuse the init suggested (probe RU-2).
  const folder = freeFolder(root);
  const inner = dir === '.' ? folder : `${dir.replace(/\/+$/, '')}/${folder}`;
  return escapeControl(
    `Warning: ${showPath(dir)} already holds YAML files that are no docket documents (${named}${more}); docket reads every YAML file below its directory, so \`docket validate\` fails on them. Keep the configuration in a folder of its own (${made.length > 0 ? `remove what this init wrote here, ${made.join(', ')}, then ` : ''}\`docket init ${shellWord(inner)}\`), or move them out (or into a dot-folder).`,
  );
}

/** `docket`, or `docket-2`, `docket-3`…: the first name no file or folder of `root` has. */
function freeFolder(root: string): string {
  for (let n = 1; ; n++) {
    const name = n === 1 ? 'docket' : `docket-${n}`;
    if (!existsSync(join(root, name))) return name;
  }
}
