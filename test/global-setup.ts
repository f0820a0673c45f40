/**
 * Builds dist/ once before the tests, so the tests that run the real bin test this source: tsc,
 * the precompiled schema validators when a schema is newer than them (they take seconds), and the
 * bundle bin/docket.js loads.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { builtValidatorsCurrent } from '../src/config/validators-current.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

export default function setup(): void {
  // For quick runs of unit tests while dist/ is known to be current.
  if (process.env.DOCKET_SKIP_BUILD) return;
  // Incremental, and whole when the build info is older than what is in dist/ (scripts/tsc-dist.mjs).
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'tsc-dist.mjs')], { stdio: 'inherit', cwd: ROOT });
  if (!builtValidatorsCurrent(path.join(ROOT, 'dist', 'validators'))) execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'compile-validators.mjs')], { stdio: 'inherit', cwd: ROOT });
  // bin/docket.js runs the bundle, so the tests that run it test this source.
  execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'bundle.mjs')], { stdio: 'inherit', cwd: ROOT });
}
