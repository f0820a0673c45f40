/**
 * Where a schema's validator comes from: precompiled by the build (dist/validators/, so no schema
 * is compiled at run time), loaded once per process. From the sources (the tests), the build's
 * when they are current (validators-current.ts; the tests' global setup builds them), else
 * compiled on first use with the same setup: compiling took 5 s of the test suite's CPU, once per
 * worker and schema.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import { DocketError } from '../errors.js';
import { SCHEMA_BASE, schemasDir, subschemaExport, validatorModule, VARIANT_INDEX, variantName } from './schema-names.js';
import { loadValidatorModule } from './validator-module.js';
import { builtValidatorsCurrent } from './validators-current.js';

type ValidatorModule = Record<string, ValidateFunction | undefined>;

let builtDirectory: string | null | undefined;

/** The folder of the build's validators this run takes, or null when none (run from the sources without a current build). */
export function builtDir(): string | null {
  if (builtDirectory !== undefined) return builtDirectory;
  const own = fileURLToPath(new URL('../validators/', import.meta.url));
  const fromSources = path.join(schemasDir(), '..', 'dist', 'validators');
  builtDirectory = existsSync(own) ? own : builtValidatorsCurrent(fromSources) ? fromSources : null;
  return builtDirectory;
}

async function validatorsOf(name: string): Promise<ValidatorModule> {
  const dir = builtDir();
  if (dir) return loadValidatorModule(path.join(dir, validatorModule(name))) as ValidatorModule;
  const { createAjv, SUBSCHEMAS } = await import('./ajv-setup.js');
  runtimeAjv ??= createAjv();
  const ajv = runtimeAjv;
  const id = `${SCHEMA_BASE}${name}`;
  const root = ajv.getSchema(id);
  if (!root) throw new DocketError('invalid-schema', `there is no schema ${name}`);
  const parts = (SUBSCHEMAS[name] ?? []).map((fragment) => [subschemaExport(fragment), ajv.getSchema(`${id}${fragment}`)] as const);
  return { validate: root, ...Object.fromEntries(parts) };
}

let runtimeAjv: import('ajv').Ajv | undefined;

const modules = new Map<string, Promise<ValidatorModule>>();

function moduleOf(name: string): Promise<ValidatorModule> {
  let m = modules.get(name);
  if (!m) {
    m = validatorsOf(name);
    // A failed load is a bug in a schema file; do not cache it so the error is not sticky in tests.
    m.catch(() => modules.delete(name));
    modules.set(name, m);
  }
  return m;
}

/** The validator of `schemas/<name>` (or of a variant of it, `variantName`). */
export async function schemaValidator(name: string): Promise<ValidateFunction> {
  const v = (await moduleOf(name)).validate;
  if (!v) throw new DocketError('invalid-schema', `there is no validator for schema ${name}`);
  return v;
}

/**
 * A validator for one definition of a schema, e.g.
 * `subschemaValidator('docket.schema.json', '#/$defs/httpUrl')` (listed in ajv-setup SUBSCHEMAS).
 */
export async function subschemaValidator(name: string, fragment: string): Promise<ValidateFunction> {
  const v = (await moduleOf(name))[subschemaExport(fragment)];
  if (!v) throw new DocketError('invalid-schema', `schema ${name} has no ${fragment}`);
  return v;
}

let variantsBuilt: Readonly<Record<string, readonly string[]>> | undefined;

/** The values each schema file has a variant validator for, as the build wrote them (none from the sources without a build). */
function builtVariants(): Readonly<Record<string, readonly string[]>> {
  if (variantsBuilt) return variantsBuilt;
  const dir = builtDir();
  variantsBuilt = dir ? (JSON.parse(readFileSync(path.join(dir, VARIANT_INDEX), 'utf8')) as Record<string, string[]>) : {};
  return variantsBuilt;
}

/**
 * The validator of `schemas/<name>` for a document whose key named in VARIANT_KEYS is written as
 * `value`: that value's alone (a CSA template's) when the build made one for it, else the whole
 * file's (a value the schema refuses, a placeholder). Both judge such a document alike.
 */
export async function variantValidator(name: string, value: unknown): Promise<ValidateFunction> {
  const made = typeof value === 'string' && builtVariants()[name]?.includes(value);
  return schemaValidator(made ? variantName(name, value) : name);
}
