/**
 * How a standard template's parameter values compare, by what the type's JSON Schema says each
 * holds, at any depth (nested `template_*_attributes`, the items of fee lists): a number (numbers
 * and numeric strings by value, `".5"` is 0.5), free text (compared as text: `"2.50"` is not
 * `"2.5"`), or anything else (by value where it looks like a number: a key the schema does not type).
 */
import { lineText, normDeep, normNumeric, normScalar } from '../../engine/normalize.js';
import { isPlainObject } from '../../util/plain.js';

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

/** A parameter's value as compared (template kind: both sides of a plan); `path` is `key` or `nested_attributes.key`. */
export function normParameterValue(schema: unknown, path: string, value: unknown): unknown {
  const normal = bySchema(isPlainObject(schema) ? propertyAt(schema as ValueSchema, path) : undefined, value);
  return normal === '' ? null : normal;
}

/** Whether `""` is a value the parameter's schema accepts: free text, with no enum, format or pattern. */
export function acceptsEmptyText(schema: unknown, path: string): boolean {
  if (!isPlainObject(schema)) return false;
  const prop = propertyAt(schema as ValueSchema, path);
  return prop !== undefined && alternatives(prop).some((a) => typesOf(a).includes('string') && a.enum === undefined && a.const === undefined && a.format === undefined && a.pattern === undefined);
}

function bySchema(node: ValueSchema | undefined, value: unknown): unknown {
  if (node === undefined) return normDeep(value);
  if (Array.isArray(value)) return value.map((item) => bySchema(node.items, item));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, v] of Object.entries(value)) {
      const n = bySchema(node.properties?.[key], v);
      // A key with no value, or a mapping left with nothing, is none (as normDeep leaves them out).
      if (n !== '' && n !== null && !(isPlainObject(n) && Object.keys(n).length === 0)) out[key] = n;
    }
    return out;
  }
  const kind = kindOf(node);
  if (kind === 'text' && (typeof value === 'string' || typeof value === 'number')) return lineText(String(value));
  if (kind === 'number' && typeof value === 'string') {
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

const kinds = new WeakMap<ValueSchema, ValueKind>();

function kindOf(prop: ValueSchema): ValueKind {
  let kind = kinds.get(prop);
  if (kind === undefined) {
    const types = alternatives(prop).flatMap(typesOf);
    kind =
      types.includes('number') || types.includes('integer')
        ? 'number'
        : types.length > 0 && types.every((t) => t === 'string') && alternatives(prop).every((a) => a.enum === undefined && a.format === undefined)
          ? 'text'
          : 'other';
    kinds.set(prop, kind);
  }
  return kind;
}
