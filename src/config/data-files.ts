/**
 * Data files named by resources (the fields each kind declares: `file`, `body_file`, `docx_file`,
 * `definition_file`), read once with their digests, YAML ones parsed once, so kinds can compare
 * them without doing I/O themselves.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { sha256 } from '../engine/canonical.js';
import type { ResourceDoc } from './types.js';
import type { ParsedFile } from './yaml-positions.js';

export interface DataFile {
  /** Relative to the configuration root, `/` separators. */
  path: string;
  bytes: Uint8Array;
  sha256: string;
  /** UTF-8 text with line endings as written. */
  text: string;
  /** For a YAML data file: its documents, as the loader parsed them. */
  parsed?: ParsedFile;
}

export type DataFiles = Map<string, DataFile>;

export interface DataFileOptions {
  /** The data fields of a document's kind (field → what the file holds). */
  fieldsOf(doc: ResourceDoc): Readonly<Record<string, unknown>>;
  /** YAML data files the loader already read and parsed. */
  yaml?: ReadonlyMap<string, { text: string; parsed: ParsedFile }>;
}

/** The root-relative path a file field names, relative to the folder of the YAML file `from`. */
export function resolveDataPath(from: string, value: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), value.replace(/\\/g, '/')));
}

/** The root-relative path a document's file field names (relative to the document's folder). */
export function dataFilePath(doc: ResourceDoc, value: string): string {
  return resolveDataPath(doc.file, value);
}

export async function readDataFiles(root: string, documents: ResourceDoc[], options: DataFileOptions): Promise<{ files: DataFiles; diagnostics: Diagnostic[] }> {
  const wanted = new Map<string, { doc: ResourceDoc; key: string }>();
  const diagnostics: Diagnostic[] = [];
  for (const doc of documents) {
    for (const key of Object.keys(options.fieldsOf(doc))) {
      const value = doc.body[key];
      if (typeof value !== 'string' || value === '') continue;
      const rel = dataFilePath(doc, value);
      if (rel.startsWith('../') || path.posix.isAbsolute(rel)) {
        diagnostics.push({ severity: 'error', code: 'file-outside-config', message: `\`${key}\` names ${value}, which is outside the configuration directory`, ...doc.positions.at(`/${key}`), path: key });
        continue;
      }
      if (!wanted.has(rel)) wanted.set(rel, { doc, key });
    }
  }
  const files: DataFiles = new Map();
  await Promise.all(
    [...wanted].map(async ([rel, { doc, key }]) => {
      const known = options.yaml?.get(rel);
      if (known) {
        const bytes = Buffer.from(known.text, 'utf8');
        files.set(rel, { path: rel, bytes, sha256: sha256(bytes), text: known.text, parsed: known.parsed });
        return;
      }
      try {
        const bytes = await readFile(path.join(root, rel));
        files.set(rel, { path: rel, bytes, sha256: sha256(bytes), text: bytes.toString('utf8') });
      } catch {
        diagnostics.push({
          severity: 'error',
          code: 'missing-file',
          message: `\`${key}\` names ${String(doc.body[key])}, which does not exist (looked for ${rel})`,
          ...doc.positions.at(`/${key}`),
          path: key,
        });
      }
    }),
  );
  return { files, diagnostics };
}
