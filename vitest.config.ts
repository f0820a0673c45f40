import { defineConfig } from 'vitest/config';
import { WaitsFirstSequencer } from './test/sequencer.js';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    setupFiles: ['test/v8-flags-setup.ts'],
    // Integration tests start emulators on loopback and spend much of their time waiting on child
    // processes, timers and time budgets: the suite used 1.4 of two cores with three workers. Four
    // finish it in 92 s against 107 s for the same CPU (147 s); five, 91 s for 12 % more CPU (each
    // worker transforms and imports the whole module graph), which a cold CI run pays for.
    pool: 'forks',
    maxWorkers: 4,
    // One module graph per worker: every test file would otherwise load and compile the same
    // modules and schemas again. Tests keep their state in what they start (emulators, temp dirs).
    isolate: false,
    sequence: { sequencer: WaitsFirstSequencer },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
