#!/usr/bin/env node
// The bundle of dist/cli/main.js (scripts/bundle.mjs): a few files to load instead of hundreds.
// A Ctrl-C or SIGTERM while they load is held and handed to docket once its own handlers listen,
// so the run ends as after any first signal (exit 130 or 143, -o json's error document) rather
// than with Node's default (killed by the signal, saying nothing).
const held = [];
const hold = (signal) => held.push(signal);
process.on('SIGINT', hold);
process.on('SIGTERM', hold);
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
