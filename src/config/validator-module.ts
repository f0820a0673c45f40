/**
 * Loading a precompiled validator module (dist/validators/*.cjs) with V8's code cache. The build
 * compiles each module, runs its validators on the bundled example and saves what V8 compiled
 * beside it (`<file>.v8cache`); a run then takes the compiled code instead of parsing and
 * compiling up to 1.5 MB of generated code (the template validator: 60–90 ms of a `validate`).
 * A cache V8 does not accept (another Node.js version, a module changed since) is ignored, and the
 * module is compiled as it would be without one.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';

export type ModuleExports = Record<string, unknown>;

export function codeCacheOf(file: string): string {
  return `${file}.v8cache`;
}

/** CommonJS's wrapper, written out: the build and a run must compile exactly the same text. */
function wrapped(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

/** Compiles and runs a CommonJS module file; the Script is the build's, to make its cache from. */
export function runModuleFile(file: string, cachedData?: Buffer): { script: Script; exports: ModuleExports } {
  const source = readFileSync(file, 'utf8');
  const script = new Script(wrapped(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as ModuleExports };
  const body = script.runInThisContext() as (this: unknown, ...args: unknown[]) => void;
  body.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { script, exports: module.exports };
}

/** The module's exports, compiled from its code cache when there is one V8 accepts. */
export function loadValidatorModule(file: string): ModuleExports {
  let cachedData: Buffer | undefined;
  try {
    cachedData = readFileSync(codeCacheOf(file));
  } catch {
    cachedData = undefined;
  }
  return runModuleFile(file, cachedData).exports;
}
