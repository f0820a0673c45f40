/**
 * Loading a precompiled validator module (dist/validators/*.cjs) with V8's code cache. The build
 * compiles each module, runs its validators on the bundled example and saves what V8 compiled
 * beside it (`<file>.v8cache`); a run then takes the compiled code instead of parsing and
 * compiling up to 1.5 MB of generated code (the template validator: 60–90 ms of a `validate`).
 * A cache V8 does not accept (another Node.js version) is ignored, and the module is compiled as
 * it would be without one.
 *
 * V8 checks a cache only by its header and the length of the source: a damaged byte past the
 * header aborts the process (uncatchably), and a module edited to the same length would run the
 * old code. So the file is sealed: the SHA-256 of the source it was made from and of its own V8
 * bytes come first, and a cache whose digests do not match is never handed to V8.
 */
import { isAscii } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import { Script } from 'node:vm';
import { sha256 } from '../engine/canonical.js';

export type ModuleExports = Record<string, unknown>;

export function codeCacheOf(file: string): string {
  return `${file}.v8cache`;
}

/** CommonJS's wrapper, written out: the build and a run must compile exactly the same text. */
function wrapped(source: string): string {
  return `(function (exports, require, module, __filename, __dirname) {${source}\n})`;
}

const DIGEST_BYTES = 32;

/** The cache file's bytes: the digest of the module's source, of V8's bytes, then V8's bytes. */
export function sealedCodeCache(source: string | Uint8Array, v8Bytes: Buffer): Buffer {
  return Buffer.concat([Buffer.from(sha256(source), 'hex'), Buffer.from(sha256(v8Bytes), 'hex'), v8Bytes]);
}

/** V8's bytes of a sealed cache made from exactly this source, else undefined (damaged, stale, not one). */
export function openedCodeCache(source: string | Uint8Array, sealed: Buffer): Buffer | undefined {
  if (sealed.length <= 2 * DIGEST_BYTES) return undefined;
  const v8Bytes = sealed.subarray(2 * DIGEST_BYTES);
  if (sealed.toString('hex', 0, DIGEST_BYTES) !== sha256(source)) return undefined;
  if (sealed.toString('hex', DIGEST_BYTES, 2 * DIGEST_BYTES) !== sha256(v8Bytes)) return undefined;
  return v8Bytes;
}

/**
 * Compiles and runs a CommonJS module file; the Script is the build's, to make its cache from.
 * `cachedData` is V8's own bytes, handed over as they are.
 */
export function runModuleFile(file: string, cachedData?: Buffer, source = readFileSync(file, 'utf8')): { script: Script; exports: ModuleExports } {
  const script = new Script(wrapped(source), { filename: file, ...(cachedData ? { cachedData } : {}) });
  const module = { exports: {} as ModuleExports };
  const body = script.runInThisContext() as (this: unknown, ...args: unknown[]) => void;
  body.call(module.exports, module.exports, createRequire(file), module, file, dirname(file));
  return { script, exports: module.exports };
}

/** The module's exports, compiled from its code cache when there is one sealed for this source that V8 accepts. */
export function loadValidatorModule(file: string): ModuleExports {
  // Digested as the bytes read (a digest of the text encodes 1.5 MB to UTF-8 again: 8 ms of a
  // `validate`), and decoded as Latin-1 when they are ASCII, as the build writes them.
  const bytes = readFileSync(file);
  const source = isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
  let cachedData: Buffer | undefined;
  try {
    cachedData = openedCodeCache(bytes, readFileSync(codeCacheOf(file)));
  } catch {
    cachedData = undefined;
  }
  return runModuleFile(file, cachedData, source).exports;
}
