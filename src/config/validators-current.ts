/**
 * Whether the build's validators in `dir` (dist/validators/) were made from the schemas and the
 * ajv setup as they are now: not older than any file in schemas/ nor than ajv-setup.ts and
 * schema-names.ts, which decide how a schema compiles, nor than v8-flags.ts (their code cache).
 * The tests' global setup rebuilds them when not; a run from the sources takes them only when
 * they are (schema.ts's loader, validators.ts).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { schemasDir } from './schema-names.js';

// V8's flags too: the validators' code cache is taken only by a process with the flags it was made with.
const HOW_SCHEMAS_COMPILE = ['ajv-setup.ts', 'schema-names.ts', '../util/v8-flags.ts'];

export function builtValidatorsCurrent(dir: string): boolean {
  if (!existsSync(dir)) return false;
  const built = readdirSync(dir).map((f) => statSync(path.join(dir, f)).mtimeMs);
  if (built.length === 0) return false;
  const sources = path.dirname(fileURLToPath(import.meta.url));
  const inputs = [newestIn(schemasDir()), ...HOW_SCHEMAS_COMPILE.map((f) => path.join(sources, f)).filter(existsSync).map((f) => statSync(f).mtimeMs)];
  return Math.min(...built) >= Math.max(...inputs);
}

function newestIn(dir: string): number {
  return Math.max(0, ...readdirSync(dir, { withFileTypes: true }).map((e) => (e.isDirectory() ? newestIn(path.join(dir, e.name)) : statSync(path.join(dir, e.name)).mtimeMs)));
}
