/**
 * A seed's refusal as it is printed (`--seed`) or answered (`POST /_emulator/reset`): never with a
 * key of the seed, or of the emulator it would reset, pasted into another field.
 */
import { keyForms, redact } from '../cli/redact.js';
import { seedKeys } from './seed.js';

export function withoutSeedKeys(message: string, ...seeds: unknown[]): string {
  return redact(message, keyForms(seeds.flatMap(seedKeys)));
}
