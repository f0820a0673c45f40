#!/usr/bin/env node
// The bundle of dist/cli/main.js (scripts/bundle.mjs): a few files to load instead of hundreds.
import { exitWhenWritten, main } from '../dist/bundle/main.js';

await exitWhenWritten(await main(process.argv));
