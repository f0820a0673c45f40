#!/usr/bin/env node
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

// A Ctrl-C or SIGTERM while docket loads is held and handed to docket once its own handlers
// listen, so the run ends as after any first signal (exit 130 or 143, -o json's error document)
// rather than with Node's default (killed by the signal, saying nothing). First of all: the loads
// below take a tenth of a second or more on a busy machine (probe QC-2).
const held = [];
const hold = (signal) => held.push(signal);
// Those docket stops cleanly at (src/errors.ts STOP_SIGNALS): a closed terminal's SIGHUP too.
const stopSignals = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
for (const signal of stopSignals) process.on(signal, hold);
// Node opens its debugger on 127.0.0.1:9229 at a SIGUSR1, which anyone on the machine's loopback could
// then attach to and read the API key from memory; listened to, it does nothing (probe NE-3).
process.on('SIGUSR1', () => {});

// Before any of docket's code is loaded, so that every function starts with them (v8-flags.ts says why).
// Imported so that a checkout never built (an install with --ignore-scripts skips a git
// dependency's prepare script) is said as such, not as Node's stack trace (probe LJ-2).
const { setV8Flags } = await import('../dist/util/v8-flags.js').catch(notBuilt);

setV8Flags();

// The bundle of dist/cli/main.js (scripts/bundle.mjs): a few files to load instead of hundreds.
// `docket --version` alone loads only what printing it needs; with a signal held, main() ends the run as it should.
if (process.argv.length === 3 && process.argv[2] === '--version') {
  const version = await import('../dist/bundle/version-main.js');
  if (held.length === 0) await version.exitWhenWritten(version.printVersion());
}
const { exitWhenWritten, main } = await import('../dist/bundle/main.js');

await exitWhenWritten(
  await main(process.argv, {
    signalsBeforeStart: () => {
      for (const signal of stopSignals) process.off(signal, hold);
      return held;
    },
  }),
);

function notBuilt(error) {
  if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
  const home = fileURLToPath(new URL('..', import.meta.url));
  // An installed package holds no build scripts (package.json's `files`): only installing it again builds it (probe MF-1).
  const hint = existsSync(fileURLToPath(new URL('../scripts/tsc-dist.mjs', import.meta.url)))
    ? "run `npm run build` there (after `npm ci`)"
    : "install it again without --ignore-scripts (`npm ci` in the repository that depends on it): a git dependency's prepare script builds it, which --ignore-scripts skips";
  process.stderr.write(`Error: docket is not built in ${home} (its dist/ folder is missing)\n  hint: ${hint}\n`);
  process.exit(1);
}
