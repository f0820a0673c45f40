/**
 * Pending documents (`*.yaml.pending`): what `docket export` wrote for a Word term or an attachment
 * whose file the services cannot give back. docket does not read them as resources, but the live
 * objects they name are being adopted, not drift: `drift` and `pull` leave them to the user.
 */
import { readRegularFileSync } from '../util/special-file.js';
import path from 'node:path';
import { isPlainObject } from '../util/plain.js';
import { discoverYamlFiles } from './discover.js';
import { parseYamlFile } from './yaml-read.js';

const PENDING_FILE = /\.ya?ml\.pending$/i;

/** The `.yaml` file a pending document becomes once its file is added (`a.yaml` of `a.yaml.pending`); undefined for another file. */
export function activeFileOf(file: string): string | undefined {
  return PENDING_FILE.test(file) ? file.slice(0, -'.pending'.length) : undefined;
}

export interface PendingDocument {
  /** The kind as its document writes it (`CustomTerm`). */
  yamlKind: string;
  name: string;
  /** The live id it pins (`id:`), when it pins one. */
  id?: string;
  /** Relative to the configuration directory. */
  file: string;
}


/** Every pending document below `root` that names a kind and a name; one that cannot be read is left out. */
export async function pendingDocuments(root: string): Promise<PendingDocument[]> {
  const { files } = await discoverYamlFiles(root, PENDING_FILE);
  const out: PendingDocument[] = [];
  for (const file of files) {
    let text: string | undefined;
    try {
      text = readRegularFileSync(path.join(root, file)).toString('utf8');
    } catch {
      text = undefined;
    }
    // Read as any configuration file is (an id like 0e12… or a `<<` in a name needs the full parser).
    for (const doc of text === undefined ? [] : parseYamlFile(text, file).documents) {
      const value: unknown = doc.ok ? doc.value : undefined;
      if (isPlainObject(value) && typeof value.kind === 'string' && typeof value.name === 'string') out.push({ yamlKind: value.kind, name: value.name, ...(typeof value.id === 'string' ? { id: value.id } : {}), file });
    }
  }
  return out;
}
