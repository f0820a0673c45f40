import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    globalSetup: ['test/global-setup.ts'],
    // Integration tests start emulators on loopback; two cores, so keep the pool small.
    pool: 'forks',
    maxWorkers: 2,
    // One module graph per worker: every test file would otherwise load and compile the same
    // modules and schemas again. Tests keep their state in what they start (emulators, temp dirs).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
