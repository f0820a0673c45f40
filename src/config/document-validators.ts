/**
 * Which validator judges each resource document: its kind's schema, or for a kind whose schema has
 * a validator per value of a key (VARIANT_KEYS: a template's type), the one of the value written.
 * Only what the documents need is loaded: a configuration of NDA templates loads the NDA rules,
 * not the 1.5 MB of all ten types.
 */
import type { ValidateFunction } from 'ajv';
import { DocketError } from '../errors.js';
import { isPlainObject } from '../util/plain.js';
import type { KindSchemaInfo } from './load.js';
import { VARIANT_KEYS } from './schema-names.js';
import { schemaValidator, variantValidator } from './validators.js';

/** The validator of one document, given its value as written (before placeholders are filled in). */
export type DocumentValidator = (written: Record<string, unknown>) => ValidateFunction;

type SchemaOfKind = Pick<KindSchemaInfo, 'yamlKind' | 'schema'>;

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
    if (key !== undefined) written.get(value.kind)?.add(value[key]);
  }
  const entries = await Promise.all(kinds.map(async (k) => [k.yamlKind, await kindValidator(k.schema, keyOf.get(k.yamlKind), written.get(k.yamlKind)!)] as const));
  return new Map(entries);
}

async function kindValidator(schema: string, key: string | undefined, values: ReadonlySet<unknown>): Promise<DocumentValidator> {
  if (key === undefined) {
    const whole = await schemaValidator(schema);
    return () => whole;
  }
  // A placeholder, or a value there is no variant for, gets the whole schema (variantValidator).
  const byValue = new Map<unknown, ValidateFunction>();
  for (const value of values) byValue.set(value, await variantValidator(schema, value));
  return (document) => {
    const validate = byValue.get(document[key]);
    // Asked only for the documents whose values were collected above.
    if (!validate) throw new DocketError('internal', `no validator of ${schema} was loaded for a document whose ${key} is ${JSON.stringify(document[key])}`);
    return validate;
  };
}
