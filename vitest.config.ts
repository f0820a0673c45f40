import { defineConfig } from 'vitest/config';
import { WaitsFirstSequencer } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/v8-flags-setup.ts'],
    // Integration tests start emulators on loopback and spend much of their time waiting on child
    // processes and timers: on two cores, three workers finish the suite about 15 % sooner than two.
    // Four were as fast as three in warm paired runs (79 against 78 s) but spent a quarter more CPU
    // (each worker transforms and imports the whole module graph), which a cold CI run pays for.
    pool: 'forks',
    maxWorkers: 3,
    // One module graph per worker: every test file would otherwise load and compile the same
    // modules and schemas again. Tests keep their state in what they start (emulators, temp dirs).
    isolate: false,
    sequence: { sequencer: WaitsFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
