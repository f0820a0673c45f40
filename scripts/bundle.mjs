#!/usr/bin/env node
/**
 * Last step of `npm run build`: bundles tsc's output (dist/cli/main.js and everything it imports,
 * dependencies included) into dist/bundle/, one chunk per command plus shared chunks, so a run
 * loads a handful of files instead of two hundred modules: start-up CPU falls by about a third.
 * Commands stay lazily loaded (each `import()` of a command is its own chunk).
 *
 * dist/bundle/ sits directly under dist/, as dist/config/ does, so the paths the code works out
 * from its own location (../validators/, the schemas/ folder) are the same bundled or not.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'bundle');

rmSync(OUT, { recursive: true, force: true });
await build({
  entryPoints: [path.join(ROOT, 'dist', 'cli', 'main.js')],
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  minifyWhitespace: true,
  logLevel: 'warning',
  // One copy of the full YAML parser, from node_modules: the plan path loads it lazily by require
  // (src/util/lazy-yaml.ts), and an inlined second copy would be loaded beside it by pull and test.
  external: ['yaml'],
  // Bundled CommonJS dependencies (undici, commander) call require(); ES modules have none.
  banner: { js: "import { createRequire as __docketCreateRequire } from 'node:module'; const require = __docketCreateRequire(import.meta.url);" },
});
