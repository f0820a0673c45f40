// Compiles src/ into dist/ incrementally (dist/.tsbuildinfo). tsc trusts its build info without
// looking at its outputs: JavaScript written after it by another compile (a checkout of a commit
// from before incremental builds, built there) would be left in place as if current. So when any
// compiled file is newer than the build info, the build info is dropped and everything compiled.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const DIST = path.join(ROOT, 'dist');
const INFO = path.join(DIST, '.tsbuildinfo');
// Written after each compile here. Not the build info's own time: `tsc --noEmit` (npm run
// typecheck) writes that too, with the output still to be made.
const DONE = path.join(DIST, '.tsbuildinfo.done');
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

/** The newest change under `dir`: a folder's own time counts, so a file removed or renamed does. */
function newestInput(dir) {
  let newest = statSync(dir).mtimeMs;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestInput(full) : statSync(full).mtimeMs);
  }
  return newest;
}

if (existsSync(INFO) && newestOutput(DIST) > statSync(INFO).mtimeMs) rmSync(INFO);
// tsc reads every source and declaration even when nothing changed (4 s here, before each test
// run): when nothing it reads is newer than its last compile here, there is nothing to do.
const inputs = () => Math.max(newestInput(path.join(ROOT, 'src')), ...['tsconfig.json', 'package-lock.json'].map((f) => statSync(path.join(ROOT, f)).mtimeMs));
if (!existsSync(INFO) || !existsSync(DONE) || inputs() >= statSync(DONE).mtimeMs) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  // Marked as of the compile's start: a source saved while tsc ran may not be in its output.
  const started = new Date();
  execFileSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.json')], { stdio: 'inherit', cwd: ROOT });
  writeFileSync(DONE, '');
  utimesSync(DONE, started, started);
}
