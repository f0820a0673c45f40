// Compiles src/ into dist/ incrementally (dist/.tsbuildinfo). tsc trusts its build info without
// looking at its outputs: JavaScript written after it by another compile (a checkout of a commit
// from before incremental builds, built there) would be left in place as if current. So when any
// compiled file is newer than the build info, the build info is dropped and everything compiled.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
const INFO = path.join(DIST, '.tsbuildinfo');
// Written by the later build steps, not by tsc.
const NOT_TSC = new Set(['bundle', 'validators']);

function newestOutput(dir, top = true) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (top && NOT_TSC.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestOutput(full, false));
    else if (entry.name.endsWith('.js')) newest = Math.max(newest, statSync(full).mtimeMs);
  }
  return newest;
}

if (existsSync(INFO) && newestOutput(DIST) > statSync(INFO).mtimeMs) rmSync(INFO);
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.json')], { stdio: 'inherit', cwd: ROOT });
