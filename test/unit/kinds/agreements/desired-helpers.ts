/** Plain inputs of the agreements kinds' toDesired: docket.yaml with an actor, and data files as the loader reads them. */
import { createHash } from 'node:crypto';
import type { DataFile, DataFiles } from '../../../../src/config/data-files.js';
import type { ProjectConfig } from '../../../../src/config/types.js';
import { fixedPositions, projectConfig } from '../../engine/builders.js';

export const ACTOR = 'Legal-Ops@acme.example';

/** docket.yaml with `agreements.actor` written at line 5 (`null`: no actor). */
export function agreementsProject(actor: string | null = ACTOR): ProjectConfig {
  const base = projectConfig();
  return {
    ...base,
    agreements: actor === null ? {} : { actor },
    positions: fixedPositions('docket.yaml', 1, actor === null ? {} : { '/agreements': 4, '/agreements/actor': 5 }),
  };
}

export function sha(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** A data file as readDataFiles would have read it. */
export function dataFile(path: string, content: string | Uint8Array): DataFile {
  const bytes = typeof content === 'string' ? new Uint8Array(Buffer.from(content, 'utf8')) : content;
  const head = bytes.subarray(0, 8);
  // Binary files (a string content here is text) carry no text, as readDataFiles reads them.
  return typeof content === 'string' ? { path, head, sha256: sha(bytes), text: content } : { path, head, sha256: sha(bytes) };
}

export function dataFiles(...files: DataFile[]): DataFiles {
  return new Map(files.map((f) => [f.path, f]));
}
