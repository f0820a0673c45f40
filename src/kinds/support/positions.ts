/** Small helpers kinds share to turn a document into desired resources with positions. */
import type { SourcePos } from '../../diagnostics.js';
import type { ResourceDoc } from '../../config/types.js';
import { lazyPos } from '../../config/yaml-read.js';

export function posOf(doc: ResourceDoc, pointer: string): SourcePos {
  return doc.positions.at(pointer);
}

/** Where the document starts; read lazily, as positions are (config/yaml-read.ts). */
export function docSource(doc: ResourceDoc): SourcePos {
  return lazyPos(doc.file, () => ({ line: doc.line, col: doc.col }));
}

/** `renamed_from` may be one name or a list. */
export function namesList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
