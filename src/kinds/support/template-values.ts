/**
 * How a standard template's parameter values compare, by what the type's JSON Schema says each
 * holds, at any depth (nested `template_*_attributes`, the items of fee lists): a number (numbers
 * and numeric strings by value, `".5"` is 0.5), free text (compared as text: `"2.50"` is not
 * `"2.5"`), or anything else (by value where it looks like a number: a key the schema does not type).
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { readSchema } from '../../config/schema-read.js';
import { builtDir } from '../../config/validators.js';
import { lineText, normDeep, normNumeric, normScalar } from '../../engine/normalize.js';
import { isPlainObject } from '../../util/plain.js';
import { sameValue } from '../../engine/canonical.js';

type ValueKind = 'number' | 'text' | 'other';

/** The part of a parameter's schema that says what it holds. */
interface ValueSchema {
  type?: string | string[];
  anyOf?: ValueSchema[];
  $ref?: string;
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  properties?: Record<string, ValueSchema>;
  items?: ValueSchema;
}

/**
 * What each parameter of a type holds, as a tree of the parameters' shape: `k` a number (`n`) or
 * free text (`t`), `p` the keys of a mapping, `i` the items of a list; what the schema leaves open
 * has no `k`. Made at build time from the schemas (scripts/compile-validators.mjs), so a run reads a
 * few kilobytes instead of parsing the type's whole schema.
 */
export interface ValueKinds {
  k?: 'n' | 't';
  p?: Record<string, ValueKinds>;
  i?: ValueKinds;
}

/** Where the build writes every type's ValueKinds, beside the validators. */
export const VALUE_KINDS_FILE = 'template-value-kinds.json';

/** The ValueKinds of a type's parameter schema. */
export function valueKindsOf(schema: unknown): ValueKinds {
  const walk = (node: ValueSchema): ValueKinds => {
    const out: ValueKinds = {};
    const kind = kindOf(node);
    if (kind !== 'other') out.k = kind === 'number' ? 'n' : 't';
    const props = Object.entries(node.properties ?? {}).map(([key, child]) => [key, walk(child)] as const).filter(([, child]) => Object.keys(child).length > 0);
    if (props.length > 0) out.p = Object.fromEntries(props);
    if (node.items) {
      const items = walk(node.items);
      if (Object.keys(items).length > 0) out.i = items;
    }
    return out;
  };
  return isPlainObject(schema) ? walk(schema as ValueSchema) : {};
}

let builtKinds: Record<string, ValueKinds> | null | undefined;

/** The ValueKinds of a type (by its schema file): the build's, else (run from the sources) made from the schema. */
export function templateValueKinds(schemaFile: string): ValueKinds {
  if (builtKinds === undefined) {
    const dir = builtDir();
    const file = dir === null ? undefined : path.join(dir, VALUE_KINDS_FILE);
    builtKinds = file !== undefined && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as Record<string, ValueKinds>) : null;
  }
  return builtKinds?.[schemaFile] ?? valueKindsOf(readSchema(schemaFile));
}

/** A parameter's value as compared (template kind: both sides of a plan); `path` is `key` or `nested_attributes.key`. */
export function normParameterValue(kinds: ValueKinds | undefined, path: string, value: unknown): unknown {
  const normal = bySchema(kindsAt(kinds, path), value);
  return normal === '' ? null : normal;
}

/**
 * `pulled` with each value that compares equal to `written`'s kept as written: items of a list by
 * the written item equal to them (keptItems), keys of a mapping by name. The result compares as `pulled` does.
 */
export function keptWhereEqual(kinds: ValueKinds | undefined, path: string, written: unknown, pulled: unknown): unknown {
  return kept(kindsAt(kinds, path), written, pulled);
}

/** What the parameter at `path` holds: undefined with no type's kinds, `{}` (open) where the schema says nothing. */
function kindsAt(kinds: ValueKinds | undefined, path: string): ValueKinds | undefined {
  if (kinds === undefined) return undefined;
  let at: ValueKinds | undefined = kinds;
  for (const key of path.split('.')) at = at?.p?.[key];
  return at ?? {};
}

function kept(node: ValueKinds | undefined, written: unknown, pulled: unknown): unknown {
  if (Array.isArray(pulled)) return Array.isArray(written) ? keptItems(node && (node.i ?? {}), written, pulled) : pulled;
  if (isPlainObject(pulled)) {
    if (!isPlainObject(written)) return pulled;
    return Object.fromEntries(Object.entries(pulled).map(([key, v]) => [key, key in written ? kept(node && (node.p?.[key] ?? {}), written[key], v) : v]));
  }
  return sameValue(bySchema(node, written), bySchema(node, pulled)) ? written : pulled;
}

/** Past this many pairs a list's items keep the spelling of the item at their place only. */
const MAX_ITEM_PAIRS = 10_000;

/**
 * A list's items, each spelt as the written item equal to it by value wherever that stands, else
 * as the one at its place: a fee item the app moved keeps its own `"1.0"`, not the spelling of the
 * item it took the place of, which then read as changed and swapped the two in the file (probe DG-1).
 */
function keptItems(node: ValueKinds | undefined, written: readonly unknown[], pulled: readonly unknown[]): unknown[] {
  if (pulled.length * written.length > MAX_ITEM_PAIRS) return pulled.map((item, i) => (i < written.length ? kept(node, written[i], item) : item));
  const used = new Set<number>();
  const writtenBySchema = written.map((w) => bySchema(node, w));
  const places = pulled.map((item) => {
    const read = bySchema(node, item);
    const at = writtenBySchema.findIndex((w, j) => !used.has(j) && sameValue(w, read));
    if (at >= 0) used.add(at);
    return at;
  });
  // The rest (items edited in the app) take the written items left, in order: an item moved and
  // edited keeps the spelling of the one it was (second read SR102-5).
  const left = written.map((_, j) => j).filter((j) => !used.has(j));
  let next = 0;
  return pulled.map((item, i) => {
    const at = places[i]! >= 0 ? places[i]! : (left[next++] ?? -1);
    return at < 0 ? item : kept(node, written[at], item);
  });
}

/** Whether `""` is a value the parameter's schema accepts: free text, with no enum, format or pattern. */
export function acceptsEmptyText(schema: unknown, path: string): boolean {
  if (!isPlainObject(schema)) return false;
  const prop = propertyAt(schema as ValueSchema, path);
  return prop !== undefined && alternatives(prop).some((a) => typesOf(a).includes('string') && a.enum === undefined && a.const === undefined && a.format === undefined && a.pattern === undefined);
}

function bySchema(node: ValueKinds | undefined, value: unknown): unknown {
  if (node === undefined) return normDeep(value);
  if (Array.isArray(value)) return value.map((item) => bySchema(node.i ?? {}, item));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const n = bySchema(node.p?.[key] ?? {}, v);
      // A key with no value, or a mapping left with nothing, is none (as normDeep leaves them out).
      if (n !== '' && n !== null && !(isPlainObject(n) && Object.keys(n).length === 0)) out[key] = n;
    }
    return out;
  }
  if (node.k === 't' && (typeof value === 'string' || typeof value === 'number')) return lineText(String(value));
  if (node.k === 'n' && typeof value === 'string') {
    const n = normNumeric(value.trim());
    if (n !== undefined) return n;
  }
  return normScalar(value);
}

function propertyAt(schema: ValueSchema, path: string): ValueSchema | undefined {
  let at: ValueSchema | undefined = schema;
  for (const key of path.split('.')) at = at?.properties?.[key];
  return at;
}

/** The alternatives a value may take, a placeholder's (`$ref` to a variable definition) aside. */
function alternatives(prop: ValueSchema): ValueSchema[] {
  return (prop.anyOf ?? [prop]).filter((a) => a.$ref === undefined);
}

function typesOf(s: ValueSchema): string[] {
  return s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
}

function kindOf(prop: ValueSchema): ValueKind {
  const types = alternatives(prop).flatMap(typesOf);
  if (types.includes('number') || types.includes('integer')) return 'number';
  return types.length > 0 && types.every((t) => t === 'string') && alternatives(prop).every((a) => a.enum === undefined && a.format === undefined) ? 'text' : 'other';
}
