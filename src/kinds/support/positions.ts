/** Small helpers kinds share to turn a document into desired resources with positions. */
import type { SourcePos } from '../../diagnostics.js';
import type { ResourceDoc } from '../../config/types.js';
import type { DocPositions } from '../../config/yaml-positions.js';

export function posOf(doc: ResourceDoc, pointer: string): SourcePos {
  return doc.positions.at(pointer);
}

/** Where the document starts; read lazily, as positions are (config/yaml-read.ts). */
export function docSource(doc: ResourceDoc): SourcePos {
  const positions = doc.positions as Partial<DocPositions>;
  return positions.startPos ? positions.startPos() : { file: doc.file, line: doc.line, col: doc.col };
}

/** `renamed_from` may be one name or a list. */
export function namesList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** The document and the pointer under which a resource's fields were written (see fieldSourcesUnder). */
class FieldSourcesBase {
  #doc: ResourceDoc;
  #base: string;

  constructor(doc: ResourceDoc, base: string) {
    this.#doc = doc;
    this.#base = base;
  }

  static at(self: FieldSourcesBase, field: string): SourcePos {
    return posOf(self.#doc, `${self.#base}/${field}`);
  }
}

const fieldSourceClasses = new Map<string, new (doc: ResourceDoc, base: string) => FieldSourcesBase>();

/**
 * `fieldSources` for fields written under `base` (`/rules/3`): each position is looked up only
 * when asked for (a change or an error needs it), through getters shared by every resource with
 * the same fields, so twenty thousand rules cost twenty thousand small objects.
 */
export function fieldSourcesUnder(doc: ResourceDoc, base: string, fields: readonly string[]): Record<string, SourcePos> {
  const key = fields.join('\n');
  let Sources = fieldSourceClasses.get(key);
  if (!Sources) {
    Sources = class extends FieldSourcesBase {};
    for (const field of fields) {
      Object.defineProperty(Sources.prototype, field, {
        enumerable: true,
        get(this: FieldSourcesBase) {
          return FieldSourcesBase.at(this, field);
        },
      });
    }
    fieldSourceClasses.set(key, Sources);
  }
  return new Sources(doc, base) as unknown as Record<string, SourcePos>;
}
