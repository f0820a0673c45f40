#!/usr/bin/env node
// The bundle of dist/cli/main.js (scripts/bundle.mjs): a few files to load instead of hundreds.
import { main } from '../dist/bundle/main.js';

process.exitCode = await main(process.argv);
