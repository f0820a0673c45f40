#!/usr/bin/env node
// Before any of docket's code is loaded, so that every function starts with them (v8-flags.ts says why).
import { setV8Flags } from '../dist/util/v8-flags.js';

setV8Flags();

// The bundle of dist/cli/main.js (scripts/bundle.mjs): a few files to load instead of hundreds.
// A Ctrl-C or SIGTERM while they load is held and handed to docket once its own handlers listen,
// so the run ends as after any first signal (exit 130 or 143, -o json's error document) rather
// than with Node's default (killed by the signal, saying nothing).
const held = [];
const hold = (signal) => held.push(signal);
process.on('SIGINT', hold);
process.on('SIGTERM', hold);
// `docket --version` alone loads only what printing it needs; with a signal held, main() ends the run as it should.
if (process.argv.length === 3 && process.argv[2] === '--version') {
  const version = await import('../dist/bundle/version-main.js');
  if (held.length === 0) await version.exitWhenWritten(version.printVersion());
}
const { exitWhenWritten, main } = await import('../dist/bundle/main.js');

await exitWhenWritten(
  await main(process.argv, {
    signalsBeforeStart: () => {
      process.off('SIGINT', hold);
      process.off('SIGTERM', hold);
      return held;
    },
  }),
);
