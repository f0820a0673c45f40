/** A standalone emulator for a test, and the environment that points docket at it. */
import {
  DEFAULT_ORGANIZATION_ID,
  EMULATOR_API_KEY,
  defaultSeed,
  startEmulator,
  type EmulatorOptions,
  type EmulatorSeed,
  type RunningEmulator,
} from '../../src/emulator/server.js';

export interface TestEmulator {
  emulator: RunningEmulator;
  env: Record<string, string>;
}

export const ACTOR = 'legal-ops@acme.example';

export const TEST_USERS = [
  { email: 'alice@acme.example', name: 'Alice Moreau' },
  { email: 'qa@acme.example', name: 'QA Reviewer' },
  { email: ACTOR, name: 'Legal Ops' },
];

export interface TestEmulatorOptions extends Omit<EmulatorOptions, 'seed'> {
  /** Adjusts the default seed (feature switches, pre-existing objects). */
  seed?: (seed: EmulatorSeed) => void;
}

export async function startTestEmulator(options: TestEmulatorOptions = {}): Promise<TestEmulator> {
  const { seed: adjust, ...rest } = options;
  const seed = defaultSeed({ users: TEST_USERS });
  adjust?.(seed);
  const emulator = await startEmulator({ retryAfterSeconds: 0, conversionDelayMs: 20, ...rest, seed });
  return {
    emulator,
    env: {
      DOCKET_REVIEW_URL: emulator.reviewUrl,
      DOCKET_AGREEMENTS_URL: emulator.agreementsUrl,
      DOCKET_ORGANIZATION_ID: DEFAULT_ORGANIZATION_ID,
      DOCKET_API_KEY: EMULATOR_API_KEY,
    },
  };
}
