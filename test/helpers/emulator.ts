/** A standalone emulator for a test, and the environment that points docket at it. */
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY, defaultSeed, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';

export interface TestEmulator {
  emulator: RunningEmulator;
  env: Record<string, string>;
}

export const TEST_USERS = [
  { email: 'alice@acme.example', name: 'Alice Moreau' },
  { email: 'qa@acme.example', name: 'QA Reviewer' },
];

export async function startTestEmulator(): Promise<TestEmulator> {
  const emulator = await startEmulator({ seed: defaultSeed({ users: TEST_USERS }), retryAfterSeconds: 0 });
  return {
    emulator,
    env: {
      DOCKET_REVIEW_URL: emulator.reviewUrl,
      DOCKET_ORGANIZATION_ID: DEFAULT_ORGANIZATION_ID,
      DOCKET_API_KEY: EMULATOR_API_KEY,
    },
  };
}
