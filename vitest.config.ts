import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Integration tests start emulators on loopback and spend much of their time waiting on child
    // processes and timers: on two cores, three workers finish the suite about 15 % sooner than two,
    // and four about 8 % sooner than three (69–75 s against 76–81 s in paired runs).
    pool: 'forks',
    maxWorkers: 4,
    // One module graph per worker: every test file would otherwise load and compile the same
    // modules and schemas again. Tests keep their state in what they start (emulators, temp dirs).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
