/**
 * How a standard template's parameter values compare, by what the type's JSON Schema says each
 * parameter holds: a number (numbers and numeric strings by value, `".5"` is 0.5), free text
 * (compared as text: `"2.50"` is not `"2.5"`), or anything else (by value where it looks like a
 * number, as before the schema was consulted: a mapping's keys the schema does not name).
 */
import { lineText, normDeep, normNumeric } from '../../engine/normalize.js';
import { isPlainObject } from '../../util/plain.js';

export type ParameterValueKind = 'number' | 'text' | 'other';

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
}

const kindsBySchema = new WeakMap<object, Map<string, ParameterValueKind>>();

/** What the parameter at `path` (`key`, or `nested_attributes.key`) holds, by the type's schema. */
export function parameterValueKind(schema: unknown, path: string): ParameterValueKind {
  if (!isPlainObject(schema)) return 'other';
  let kinds = kindsBySchema.get(schema);
  if (!kinds) kindsBySchema.set(schema, (kinds = new Map()));
  let kind = kinds.get(path);
  if (kind === undefined) kinds.set(path, (kind = kindOf(propertyAt(schema as ValueSchema, path))));
  return kind;
}

/** Whether `""` is a value the parameter's schema accepts: free text, with no enum, format or pattern. */
export function acceptsEmptyText(schema: unknown, path: string): boolean {
  if (!isPlainObject(schema)) return false;
  const prop = propertyAt(schema as ValueSchema, path);
  return prop !== undefined && alternatives(prop).some((a) => typesOf(a).includes('string') && a.enum === undefined && a.const === undefined && a.format === undefined && a.pattern === undefined);
}

/** A parameter's value as compared, by what it holds (template kind: both sides of a plan). */
export function normParameterValue(kind: ParameterValueKind, value: unknown): unknown {
  if (kind === 'text' && (typeof value === 'string' || typeof value === 'number')) {
    const text = lineText(String(value));
    return text === '' ? null : text;
  }
  if (kind === 'number' && typeof value === 'string') {
    const n = normNumeric(value.trim());
    if (n !== undefined) return n;
  }
  const v = normDeep(value);
  return v === '' ? null : v;
}

function propertyAt(schema: ValueSchema, path: string): ValueSchema | undefined {
  let at: ValueSchema | undefined = schema;
  for (const key of path.split('.')) at = at?.properties?.[key];
  return at;
}

/** The alternatives a value may take, a placeholder's (`$ref` to the variable definition) aside. */
function alternatives(prop: ValueSchema): ValueSchema[] {
  return (prop.anyOf ?? [prop]).filter((a) => a.$ref === undefined);
}

function typesOf(s: ValueSchema): string[] {
  return s.type === undefined ? [] : Array.isArray(s.type) ? s.type : [s.type];
}

function kindOf(prop: ValueSchema | undefined): ParameterValueKind {
  if (!prop) return 'other';
  const types = alternatives(prop).flatMap(typesOf);
  if (types.includes('number') || types.includes('integer')) return 'number';
  if (types.length > 0 && types.every((t) => t === 'string') && alternatives(prop).every((a) => a.enum === undefined && a.format === undefined)) return 'text';
  return 'other';
}
