/**
 * The one place that says how docket's JSON Schemas are compiled: the ajv options, the formats,
 * the address each schema file is known by, and the sub-schemas validated on their own. The build
 * (scripts/compile-validators.mjs) compiles with it ahead of time into dist/validators/; a run
 * from the sources (the tests) compiles with it on first use, so both validate identically.
 */
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type AnySchemaObject, type Options } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { DocketError } from '../errors.js';
import { EDITORS_ONLY_MARK, EMAIL_PATTERN, FORMER_NAME_PATTERN, KIND_CHECKED_MARK, NAME_LENGTH_MARK, ONE_LINE_PATTERN, PLACEHOLDER_MARK, SCHEMA_BASE, SCHEMA_MARKS, schemasDir, VARIANT_KEYS, variantName } from './schema-names.js';
import { UUID } from '../util/uuid.js';

export { SCHEMA_BASE, SUBSCHEMAS, schemaFileOf, schemasDir, subschemaExport, validatorModule, VARIANT_INDEX, VARIANT_KEYS, variantName } from './schema-names.js';

/** Every schema file, as its path below schemas/ with `/` separators (`templates/nda.schema.json`). */
export function schemaFileNames(): string[] {
  const names: string[] = [];
  const walk = (rel: string) => {
    for (const entry of readdirSync(path.join(schemasDir(), rel), { withFileTypes: true })) {
      const name = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) walk(name);
      else if (entry.name.endsWith('.schema.json')) names.push(name);
    }
  };
  walk('');
  return names.sort();
}

export function readSchemaFile(name: string): AnySchemaObject {
  try {
    return JSON.parse(readFileSync(path.join(schemasDir(), ...name.split('/')), 'utf8')) as AnySchemaObject;
  } catch (err) {
    throw new DocketError('invalid-schema', `cannot read schema ${name}: ${(err as Error).message}`);
  }
}

// ajv-formats is CommonJS with `exports.default`; under NodeNext the default import is module.exports.
const addFormats = addFormatsModule.default;

/** An ajv instance that knows every schema file by its address. `code` is for the build. */
export function createAjv(code?: Options['code']): Ajv {
  const ajv = new Ajv({
    allErrors: true, // every problem at once, never one per run
    verbose: true, // errors carry the failing data and the parent schema (for "did you mean" among its properties)
    strict: true,
    allowUnionTypes: true, // `type: [string, "null"]` is how optional text is written
    // docket words its own messages (schema.ts); without ajv's, and with each $ref its own
    // function, the precompiled template validators are a quarter smaller and load in a tenth of the time.
    messages: false,
    inlineRefs: false,
    ...(code ? { code } : {}),
  });
  addFormats(ajv);
  // For editors only (yaml-language-server): what completion leaves out, and what a pattern's
  // mismatch says (docket says its own, schema.ts).
  ajv.addKeyword({ keyword: 'doNotSuggest', schemaType: 'boolean' });
  ajv.addKeyword({ keyword: 'patternErrorMessage', schemaType: 'string' });
  // The uuid format of ajv-formats also takes `urn:uuid:…`, which no service id ever matches.
  ajv.addFormat('uuid', UUID);
  // A scheme and the characters RFC 3986 allows; url-policy.ts parses every service URL with
  // WHATWG `URL` and says what else is wrong. The full RFC 3986 expression of ajv-formats costs a
  // run 25–30 ms to compile on first use.
  ajv.addFormat('uri', /^[a-z][a-z0-9+\-.]*:[\w\-.~:/?#[\]@!$&'()*+,;=%]*$/i);
  for (const { name, schema } of docketSchemas()) {
    ajv.addSchema(schema, `${SCHEMA_BASE}${name}`);
    // Known beside the file, so their relative `$ref`s resolve as the whole's do.
    for (const part of schemaVariants(name, schema)) ajv.addSchema(part.schema, `${SCHEMA_BASE}${variantName(name, part.value)}`);
  }
  return ajv;
}

/** Every schema file, as docket validates with it. */
function docketSchemas(): { name: string; schema: AnySchemaObject }[] {
  return schemaFileNames().map((name) => ({ name, schema: forDocket(withoutPlaceholders(readSchemaFile(name)), name) }));
}

/** The values each schema file named in VARIANT_KEYS has a variant validator for (the build writes it as VARIANT_INDEX). */
export function variantIndex(): Record<string, string[]> {
  return Object.fromEntries(
    docketSchemas()
      .map(({ name, schema }) => [name, schemaVariants(name, schema).map((p) => p.value)] as const)
      .filter(([, values]) => values.length > 0),
  );
}

/** Every validator the build writes: one per schema file, and one per variant of a file (`index`: variantIndex's). */
export function validatorNames(index: Readonly<Record<string, readonly string[]>> = variantIndex()): string[] {
  return schemaFileNames().flatMap((name) => [name, ...(index[name] ?? []).map((value) => variantName(name, value))]);
}

/**
 * The variants of a schema file named in VARIANT_KEYS, whose top-level `allOf` holds one
 * `if: { <key>: const } then: …` per value of the key: the same schema with the other values'
 * branches left empty. For a document whose key is that value it judges exactly as the whole does
 * (the other branches' `if` fails and adds nothing; errors keep their `allOf` index), and its code
 * is that value's alone. A file named there that is not so written fails the build.
 */
export function schemaVariants(name: string, schema: AnySchemaObject): { value: string; schema: AnySchemaObject }[] {
  const key = VARIANT_KEYS[name];
  if (key === undefined) return [];
  const branches: unknown[] = Array.isArray(schema.allOf) ? schema.allOf : [];
  const values = branches.map((branch) => constOf(branch, key)).filter((v): v is string => v !== undefined);
  if (values.length < 2 || values.length !== branches.length || new Set(values).size !== values.length) {
    throw new DocketError('invalid-schema', `schemas/${name}: its allOf is not one \`if: { ${key}: const }\` branch per value of ${key} (VARIANT_KEYS)`);
  }
  return values.map((value, i) => ({ value, schema: { ...schema, allOf: branches.map((branch, j) => (j === i ? branch : {})) } }));
}

/** V of `{ if: { properties: { <key>: { const: V } }, required: [<key>] }, then }`. */
function constOf(branch: unknown, key: string): string | undefined {
  const test = (branch as { if?: { properties?: Record<string, { const?: unknown } | undefined>; required?: unknown } } | null)?.if;
  const properties = test?.properties ?? {};
  const value = Object.keys(properties).length === 1 ? properties[key]?.const : undefined;
  const required = test?.required;
  return typeof value === 'string' && Array.isArray(required) && required.length === 1 && required[0] === key ? value : undefined;
}

/**
 * A schema file as docket validates with it: each part its kind checks itself (KIND_CHECKED_MARK)
 * as a plain object, rules for editors (EDITORS_ONLY_MARK) as always true, names without their
 * editors' length (NAME_LENGTH_MARK), and other one-line values without their pattern
 * (ONE_LINE_PATTERN, FORMER_NAME_PATTERN). A `docket:` mark it does not know fails the build, rather than docket
 * silently enforcing an editor's rule and saying each problem twice.
 */
function forDocket(node: AnySchemaObject, file: string): AnySchemaObject {
  const walk = (v: unknown): unknown => {
    if (Array.isArray(v)) return v.map(walk);
    if (v === null || typeof v !== 'object') return v;
    const o = v as Record<string, unknown>;
    if (typeof o.$comment === 'string' && o.$comment.startsWith('docket:') && !SCHEMA_MARKS.has(o.$comment)) {
      throw new DocketError('invalid-schema', `schemas/${file}: unknown mark ${JSON.stringify(o.$comment)}`);
    }
    if (o.$comment === KIND_CHECKED_MARK) return { ...(typeof o.description === 'string' ? { description: o.description } : {}), type: 'object' };
    if (o.$comment === EDITORS_ONLY_MARK) return {};
    // The editors' spelling of the e-mail format, compiled back into the format (its refusal is worded by docket).
    if (o.pattern === EMAIL_PATTERN) {
      const { pattern: _editors, patternErrorMessage: _editorsMessage, ...rest } = o;
      return { ...rest, format: 'email' };
    }
    if (o.$comment === NAME_LENGTH_MARK || o.pattern === ONE_LINE_PATTERN || o.pattern === FORMER_NAME_PATTERN) {
      const { pattern: _editorsOnly, patternErrorMessage: _editorsMessage, ...rest } = o;
      return rest;
    }
    return Object.fromEntries(Object.entries(o).map(([k, child]) => [k, walk(child)]));
  };
  return walk(node) as AnySchemaObject;
}

/**
 * The files let an editor accept `${var.NAME}` for any typed value; docket validates what the
 * placeholder became, so for it the alternative never matches: a literal `${…}` left in a typed
 * value (written `$${…}`, or from an environment variable) is refused like any other wrong value.
 */
function withoutPlaceholders(schema: AnySchemaObject): AnySchemaObject {
  const defs = schema.$defs as Record<string, unknown> | undefined;
  if (!defs?.variable && !defs?.wholeVariable) return schema;
  const never = { $comment: PLACEHOLDER_MARK, not: {} };
  return { ...schema, $defs: { ...defs, ...(defs.variable ? { variable: never } : {}), ...(defs.wholeVariable ? { wholeVariable: never } : {}) } };
}
