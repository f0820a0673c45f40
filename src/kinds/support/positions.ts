/** Small helpers kinds share to turn a document into desired resources with positions. */
import type { Diagnostics, SourcePos } from '../../diagnostics.js';
import { quoteValue } from '../../config/quote.js';
import { isBlank, normName } from '../../engine/normalize.js';
import type { ResourceDoc } from '../../config/types.js';
import { pointerToPath, type DocPositions } from '../../config/yaml-positions.js';
import { isPlainObject } from '../../util/plain.js';
import { valueAt } from '../../config/value-at.js';

export function posOf(doc: ResourceDoc, pointer: string): SourcePos {
  return doc.positions.at(pointer);
}

/** Where the value at `pointer` starts: for an error about the value, or a reference it makes. */
export function valueOf(doc: ResourceDoc, pointer: string): SourcePos {
  return doc.positions.valueAt(pointer);
}

/** Where the document starts; read lazily, as positions are (config/yaml-read.ts). */
export function docSource(doc: ResourceDoc): SourcePos {
  const positions = doc.positions as Partial<DocPositions>;
  return positions.startPos ? positions.startPos() : { file: doc.file, line: doc.line, col: doc.col };
}

/**
 * The `renamed_from` of the resource at `pointer` (`/rules/3`; `''` for the document), each name as compared. A name listed twice in two
 * Unicode forms (an accent as one character or two: one live name either way) is refused at the
 * later item; a list with a name written twice alike the schema refuses already (one error a list).
 */
export function formerNamesAt(doc: ResourceDoc, pointer: string, value: unknown, diag: Diagnostics): string[] {
  // Most objects have none: no list, set or map for each of 20,000 rules.
  if (value === undefined || value === null) return [];
  const written = namesList(value);
  const names = written.map(normName);
  // Its own name: nothing to rename from (the matching finds the object by its name already).
  const owner = valueAt(doc.body, pointer);
  const own = isPlainObject(owner) ? owner.name : undefined;
  const self = typeof own === 'string' ? names.indexOf(normName(own)) : -1;
  if (self >= 0) {
    diag.warning('renamed-from-itself', `\`renamed_from\` names ${quoteValue(written[self])}, the name this ${pointer === '' ? 'document' : 'rule'} has now: nothing is renamed from it`, {
      ...problemAt(doc, Array.isArray(value) ? `${pointer}/renamed_from/${self}` : `${pointer}/renamed_from`),
      hint: '`renamed_from` lists the names it had before; take this one out',
    });
  }
  // A blank one names nothing any object could have been called (probe MR-4); each is said (probe NF-4).
  written.forEach((name, blank) => {
    if (name === '' || !isBlank(name)) return;
    diag.error('blank-name', `\`renamed_from\` lists ${quoteValue(name)}, which is blank`, {
      ...problemAt(doc, Array.isArray(value) ? `${pointer}/renamed_from/${blank}` : `${pointer}/renamed_from`),
      hint: 'list the names it had before, or take it out',
    });
  });
  if (new Set(written).size < written.length) return names;
  const first = new Map<string, number>();
  for (let i = 0; i < names.length; i++) {
    const name = names[i]!;
    const j = first.get(name);
    if (j === undefined) {
      first.set(name, i);
      continue;
    }
    // Only a name in two Unicode forms: one that differs by a line end is refused as a control character.
    if (written[j]!.normalize('NFC') !== written[i]!.normalize('NFC')) continue;
    diag.error('invalid-value', `\`renamed_from\` must not list the same value twice (${quoteValue(written[i])} at [${j}] and [${i}], written in two Unicode forms)`, problemAt(doc, `${pointer}/renamed_from/${i}`));
    break;
  }
  return names;
}

/** `renamed_from` may be one name or a list. */
export function namesList(value: unknown): string[] {
  if (value === undefined || value === null) return [];
  return (Array.isArray(value) ? value : [value]).map((v) => String(v));
}

export function optionalString(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The document and where a resource's fields were written: under `base` (`/rules/3/<field>`), or
 * at the pointers given per field (see fieldSourcesAt).
 */
class FieldSourcesBase {
  #doc: ResourceDoc;
  #base: string;
  #pointers: Readonly<Record<string, string>> | undefined;

  constructor(doc: ResourceDoc, base: string, pointers?: Readonly<Record<string, string>>) {
    this.#doc = doc;
    this.#base = base;
    this.#pointers = pointers;
  }

  static pointer(self: FieldSourcesBase, field: string): string {
    return self.#pointers?.[field] ?? `${self.#base}/${field}`;
  }

  static at(self: FieldSourcesBase, field: string): SourcePos {
    return posOf(self.#doc, FieldSourcesBase.pointer(self, field));
  }

  static valueAt(self: FieldSourcesBase, field: string): SourcePos {
    return valueOf(self.#doc, FieldSourcesBase.pointer(self, field));
  }

  static valueAtPointer(self: FieldSourcesBase, pointer: string): SourcePos {
    return valueOf(self.#doc, pointer);
  }

  static has(self: FieldSourcesBase, pointer: string): boolean {
    return self.#doc.positions.has(pointer);
  }
}

type FieldSourcesClass = new (doc: ResourceDoc, base: string, pointers?: Readonly<Record<string, string>>) => FieldSourcesBase;

const fieldSourceClasses = new Map<string, FieldSourcesClass>();

/** By the list itself first: a kind passes the same constant list for each of its resources. */
const classOfList = new WeakMap<readonly string[], FieldSourcesClass>();

function classFor(fields: readonly string[]): FieldSourcesClass {
  const same = classOfList.get(fields);
  if (same) return same;
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
  classOfList.set(fields, Sources);
  return Sources;
}

/** The pointer in its document where a field was written (`/definition` or `/definition_file`), when the sources know it. */
export function pointerOf(sources: Readonly<Record<string, SourcePos>>, field: string): string | undefined {
  return sources instanceof FieldSourcesBase && field in sources ? FieldSourcesBase.pointer(sources, field) : undefined;
}

/**
 * `fieldSources` for fields written under `base` (`/rules/3`): each position is looked up only
 * when asked for (a change or an error needs it), through getters shared by every resource with
 * the same fields, so twenty thousand rules cost twenty thousand small objects.
 */
export function fieldSourcesUnder(doc: ResourceDoc, base: string, fields: readonly string[]): Record<string, SourcePos> {
  return new (classFor(fields))(doc, base) as unknown as Record<string, SourcePos>;
}

/** `fieldSources` for fields written at the given pointers (`{ body: '/body_file' }`), looked up when asked for. */
export function fieldSourcesAt(doc: ResourceDoc, pointers: Readonly<Record<string, string>>): Record<string, SourcePos> {
  return new (classFor(Object.keys(pointers)))(doc, '', pointers) as unknown as Record<string, SourcePos>;
}

/**
 * Where the value of a field starts (for an error about the value: a blank name, a repeated
 * `renamed_from`), or where the field was written when only that is known.
 */
export function valueSourceOf(sources: Readonly<Record<string, SourcePos>>, field: string): SourcePos | undefined {
  if (sources instanceof FieldSourcesBase) return field in sources ? FieldSourcesBase.valueAt(sources, field) : undefined;
  return sources[field];
}

/** valueSourceOf for a diagnostic: with the field's `path` (`rules[3].name`) where the sources know where it was written. */
export function problemSourceOf(sources: Readonly<Record<string, SourcePos>>, field: string): (SourcePos & { path?: string }) | undefined {
  const at = valueSourceOf(sources, field);
  if (!at || !(sources instanceof FieldSourcesBase)) return at;
  return { ...at, path: pointerToPath(FieldSourcesBase.pointer(sources, field)) };
}

/**
 * problemSourceOf for one item of a list field (`renamed_from: [A, B]`, a list of one too: probe
 * MO-2): the item's line and path; a single value written as no list is its own item.
 */
export function itemProblemSourceOf(sources: Readonly<Record<string, SourcePos>>, field: string, index: number): (SourcePos & { path?: string }) | undefined {
  if (!(sources instanceof FieldSourcesBase) || !(field in sources)) return problemSourceOf(sources, field);
  const pointer = `${FieldSourcesBase.pointer(sources, field)}/${index}`;
  if (!FieldSourcesBase.has(sources, pointer)) return problemSourceOf(sources, field);
  return { ...FieldSourcesBase.valueAtPointer(sources, pointer), path: pointerToPath(pointer) };
}

/** Where the value at `pointer` starts, with its `path`: for a diagnostic about the value. */
export function problemAt(doc: ResourceDoc, pointer: string): SourcePos & { path?: string } {
  const path = pointerToPath(pointer);
  return { ...valueOf(doc, pointer), ...(path ? { path } : {}) };
}
