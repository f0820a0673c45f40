/** Docket's own JSON Schemas read as data (template parameter defaults and list items), each file once. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { schemasDir } from './schema-names.js';

const schemaCache = new Map<string, unknown>();

/** A schema of docket's schemas/ folder by file name (`templates/csa.schema.json`), read once. */
export function readSchema(file: string): unknown {
  let schema = schemaCache.get(file);
  if (schema === undefined) {
    schema = JSON.parse(readFileSync(path.join(schemasDir(), ...file.split('/')), 'utf8')) as unknown;
    schemaCache.set(file, schema);
  }
  return schema;
}
