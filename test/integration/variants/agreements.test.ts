/** The bundled example against the agreements-service and paging shapes of the public docs. */
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

describe('the bundled example converges against each agreements and paging shape', () => {
  it.each([
    ['generic template types (agreement_type, standard_version beside attributes)', { templateTypes: 'generic' as const }],
    ['nested objects under their read names, replaced on update', { nestedReadNames: true, nestedUpdate: 'replace' as const }],
    ['page[size] at most 50', { maxPageSize: 50 }],
    ['links-only paging', { paging: 'links' as const }],
    ['meta-only paging', { paging: 'meta' as const }],
    ['no paging (every item at once)', { paging: 'none' as const }],
    [
      'flat routes + no users list + generic types + nested read names + page[size] at most 50',
      { reviewPaths: 'flat' as const, reviewUsers: false, templateTypes: 'generic' as const, nestedReadNames: true, nestedUpdate: 'replace' as const, maxPageSize: 50 },
    ],
  ])('%s', async (_name, variants) => {
    t = await startVariant(variants);
    await runExampleScenario(t);
  });
});
