/**
 * A key the emulator's seed, settings or fault bodies do not have: a typo that would otherwise
 * change nothing, silently. Said the same way in all three, with the key it is closest to, or with
 * every key there is.
 */
import { didYouMean } from '../config/suggest.js';

export function reportUnknownKeys(obj: Record<string, unknown>, allowed: readonly string[], what: string, report: (key: string, message: string) => void): void {
  for (const key of Object.keys(obj)) {
    if (!allowed.includes(key)) report(key, `is not ${what}${didYouMean(key, allowed) || ` (${allowed.join(', ')})`}`);
  }
}
