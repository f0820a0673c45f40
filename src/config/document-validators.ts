/**
 * Which validator judges each resource document: its kind's schema, or for a kind whose schema has
 * a validator per value of a key (VARIANT_KEYS: a template's type), the one of the value written.
 * Only what the documents need is loaded: a configuration of NDA templates loads the NDA rules,
 * not the 1.5 MB of all ten types.
 */
import type { ValidateFunction } from 'ajv';
import { DocketError } from '../errors.js';
import { isPlainObject } from '../util/plain.js';
import { schemaValidator, variantValidator } from './schema.js';
import { VARIANT_KEYS } from './schema-names.js';

/** The validator of one document, given what it reads once its placeholders are filled in. */
export type DocumentValidator = (body: Record<string, unknown>) => ValidateFunction;

export interface SchemaOfKind {
  yamlKind: string;
  schema: string;
}

/**
 * For each kind of `kinds`, the validator of any of `documents` (their values as written) of that
 * kind; without documents, of any document at all (each kind's whole schema).
 */
export async function documentValidators(kinds: readonly SchemaOfKind[], documents?: Iterable<unknown>): Promise<Map<string, DocumentValidator>> {
  const written = new Map<string, Set<unknown>>(kinds.map((k) => [k.yamlKind, new Set()]));
  const keyOf = new Map(kinds.map((k) => [k.yamlKind, documents === undefined ? undefined : VARIANT_KEYS[k.schema]]));
  for (const value of documents ?? []) {
    if (!isPlainObject(value) || typeof value.kind !== 'string') continue;
    const key = keyOf.get(value.kind);
    written.get(value.kind)?.add(key === undefined ? undefined : value[key]);
  }
  const entries = await Promise.all(kinds.map(async (k) => [k.yamlKind, await kindValidator(k.schema, keyOf.get(k.yamlKind), written.get(k.yamlKind)!)] as const));
  return new Map(entries);
}

async function kindValidator(schema: string, key: string | undefined, values: ReadonlySet<unknown>): Promise<DocumentValidator> {
  if (key === undefined) {
    const whole = await schemaValidator(schema);
    return () => whole;
  }
  // A value written with a placeholder may read as any: the whole schema judges it.
  const byValue = new Map<string, ValidateFunction>();
  let whole: ValidateFunction | undefined;
  for (const value of values) {
    if (typeof value === 'string' && !value.includes('$')) byValue.set(value, await variantValidator(schema, value));
    else whole ??= await schemaValidator(schema);
  }
  return (body) => {
    const value = body[key];
    const validate = (typeof value === 'string' ? byValue.get(value) : undefined) ?? whole;
    // Every value a document can read as is covered above: a value without `$` reads as written.
    if (!validate) throw new DocketError('internal', `no validator of ${schema} for ${key} ${JSON.stringify(value)}`);
    return validate;
  };
}
