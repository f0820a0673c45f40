/**
 * What names docket's schema files and their precompiled validators, without loading ajv: the
 * address each schema is known by, the sub-schemas validated on their own, and where the files are.
 */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocketError } from '../errors.js';

/**
 * The address a schema file is known by inside ajv. The files themselves carry no `$id`, so an
 * editor resolves their relative `$ref`s (`templates/nda.schema.json`) next to the file it read.
 */
export const SCHEMA_BASE = 'https://docket.dev/schemas/';

/** Sub-schemas validated on their own (a `DOCKET_*` variable is checked like the key it replaces). */
export const SUBSCHEMAS: Readonly<Record<string, readonly string[]>> = {
  'docket.schema.json': ['#/$defs/httpUrl', '#/$defs/review/properties/organization_id'],
};

/** The export name of a sub-schema's validator in a precompiled module. */
export function subschemaExport(fragment: string): string {
  return `at_${fragment.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

/** The precompiled module of a schema file, relative to dist/validators/ (CommonJS: see the build script). */
export function validatorModule(name: string): string {
  return `${name.replace(/\//g, '__')}.cjs`;
}

let schemasDirCache: string | undefined;

/**
 * Absolute path of the repository's `schemas/` folder. Found by walking up from this module, so it
 * works from `src/` under vitest and from `dist/` after tsc (and from an installed package).
 */
export function schemasDir(): string {
  if (schemasDirCache) return schemasDirCache;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'schemas');
    if (existsSync(path.join(dir, 'package.json')) && existsSync(candidate) && statSync(candidate).isDirectory()) {
      schemasDirCache = candidate;
      return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new DocketError('schemas-not-found', 'cannot find the schemas/ folder of the docket installation');
    dir = parent;
  }
}
