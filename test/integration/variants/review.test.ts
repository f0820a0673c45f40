/** The bundled example against the review-service shapes of the public docs (api.md's is the first). */
import { afterAll, afterEach, describe, it } from 'vitest';
import type { TestEmulator } from '../../helpers/emulator.js';
import { removeMadeDirs } from '../../helpers/tmpdir.js';
import { runExampleScenario, startVariant } from './scenario.js';

let t: TestEmulator | undefined;
afterEach(async () => {
  await t?.emulator.close();
  t = undefined;
});
afterAll(removeMadeDirs);

describe('the bundled example converges against each review-service shape', () => {
  it.each([
    ['the default shape (nested routes, users list, 201)', {}],
    ['flat routes (the organization is the key\'s)', { reviewPaths: 'flat' as const }],
    ['no users list', { reviewUsers: false }],
    ['archived playbooks kept in the list', { listArchived: true }],
    ['200 instead of 201 on creates', { createStatus: 200 as const }],
  ])('%s', async (_name, variants) => {
    t = await startVariant(variants);
    await runExampleScenario(t);
  });
});
