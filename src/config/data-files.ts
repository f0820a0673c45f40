/**
 * Data files named by resources (`file`, `body_file`, `docx_file`, `definition_file`), read once
 * with their digests so kinds can compare them without doing I/O themselves.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { sha256 } from '../engine/canonical.js';
import type { ResourceDoc } from './types.js';

export interface DataFile {
  /** Relative to the configuration root, `/` separators. */
  path: string;
  bytes: Uint8Array;
  sha256: string;
  /** UTF-8 text with line endings as written. */
  text: string;
}

export type DataFiles = Map<string, DataFile>;

/** Fields of every kind that name a data file. */
export const isFileField = (key: string): boolean => key === 'file' || key.endsWith('_file');

/** The root-relative path a file field names, relative to the folder of the YAML file `from`. */
export function resolveDataPath(from: string, value: string): string {
  return path.posix.normalize(path.posix.join(path.posix.dirname(from), value.replace(/\\/g, '/')));
}

/** The root-relative path a document's file field names (relative to the document's folder). */
export function dataFilePath(doc: ResourceDoc, value: string): string {
  return resolveDataPath(doc.file, value);
}

export async function readDataFiles(root: string, documents: ResourceDoc[]): Promise<{ files: DataFiles; diagnostics: Diagnostic[] }> {
  const wanted = new Map<string, { doc: ResourceDoc; key: string }>();
  const diagnostics: Diagnostic[] = [];
  for (const doc of documents) {
    for (const [key, value] of Object.entries(doc.body)) {
      if (!isFileField(key) || typeof value !== 'string' || value === '') continue;
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
