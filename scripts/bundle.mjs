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
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const OUT = path.join(ROOT, 'dist', 'bundle');

/**
 * js-yaml's readFlowCollection allocates a dictionary object before it looks at the first
 * character, and js-yaml tries it on every node: for the 160,000 scalars of a 20,000-rule
 * configuration that is 47 MB of garbage (15 % of a large plan's allocations), for `[` and `{`
 * that are almost never there. The allocation is moved after the check. The build fails if the
 * text is not found (a js-yaml upgrade must look again), never silently bundles it unchanged.
 */
const lazyFlowKeys = {
  name: 'js-yaml-lazy-flow-keys',
  setup(b) {
    b.onLoad({ filter: /[\\/]js-yaml[\\/]dist[\\/]js-yaml\.mjs$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const start = source.indexOf('function readFlowCollection(');
      const eager = 'const overridableKeys = /* @__PURE__ */ Object.create(null);';
      const at = source.indexOf(eager, start);
      // The `else { return false; }` that ends the first-character check: the allocation goes after it.
      const bail = source.indexOf('return false;\n    }\n', at);
      if (start === -1 || at === -1 || bail === -1 || source.indexOf('if (ch === 91)', at) > bail) {
        throw new Error(`js-yaml changed: ${args.path} no longer has the readFlowCollection this build patches (scripts/bundle.mjs)`);
      }
      const end = bail + 'return false;\n    }'.length;
      const contents =
        source.slice(0, at) + 'let overridableKeys;' + source.slice(at + eager.length, end + 1) +
        '    overridableKeys = Object.create(null);\n' + source.slice(end + 1);
      return { contents, loader: 'js' };
    });
  },
};

/**
 * commander requires node:child_process when it loads, for subcommands that are executables of
 * their own, which docket has none of: loading it (and node:net beneath it) costs every command
 * 6–9 ms, `--version` and an offline `validate` included. commander gets it when it first asks.
 */
const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(b) {
    b.onResolve({ filter: /^node:child_process$/ }, (args) =>
      /[\\/]commander[\\/]/.test(args.importer) ? { path: 'child_process', namespace: 'docket-lazy' } : undefined,
    );
    b.onLoad({ filter: /.*/, namespace: 'docket-lazy' }, () => ({
      contents: "let loaded; module.exports = new Proxy({}, { get: (_, key) => (loaded ??= require('node:child_process'))[key] });",
      loader: 'js',
    }));
  },
};

/**
 * undici's client requires its HTTP/2 half when it loads, and that half requires node:http2, which
 * loads node:tls: about 11 ms of CPU on every command that talks to a service, for a protocol
 * docket never negotiates (its pools do not allow h2). The half is required the first time a
 * connection answers ALPN with h2, which cannot happen. The build fails if the line is not found.
 */
const lazyHttp2 = {
  name: 'undici-lazy-h2',
  setup(b) {
    b.onLoad({ filter: /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const eager = "const connectH2 = require('./client-h2.js')";
      if (source.split(eager).length !== 2) throw new Error(`undici changed: ${args.path} no longer requires client-h2.js as this build expects (scripts/bundle.mjs)`);
      const lazy = "let h2Half\nconst connectH2 = (client, socket) => (h2Half ??= require('./client-h2.js'))(client, socket)";
      return { contents: source.replace(eager, lazy), loader: 'js' };
    });
  },
};

rmSync(OUT, { recursive: true, force: true });
await build({
  plugins: [lazyFlowKeys, lazyChildProcess, lazyHttp2],
  // `docket --version` alone loads version-main.js and the few modules it shares with main.js.
  entryPoints: [path.join(ROOT, 'dist', 'cli', 'main.js'), path.join(ROOT, 'dist', 'cli', 'version-main.js')],
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  minifyWhitespace: true,
  // Beside the chunks (*.LEGAL.txt), not in them: one name with an accent in undici's made its
  // 400 KB chunk text Node decodes and V8 keeps as two bytes a character (11 ms of every plan).
  legalComments: 'external',
  logLevel: 'warning',
  // One copy of the full YAML parser, from node_modules: the plan path loads it lazily by require
  // (src/util/lazy-yaml.ts), and an inlined second copy would be loaded beside it by pull and test.
  external: ['yaml'],
  // Bundled CommonJS dependencies (undici, commander) call require(); ES modules have none.
  banner: { js: "import { createRequire as __docketCreateRequire } from 'node:module'; const require = __docketCreateRequire(import.meta.url);" },
});
