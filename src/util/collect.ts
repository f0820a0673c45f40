/**
 * A full garbage collection where most of a large run's heap is garbage: between the plan and the
 * apply, and between the apply and the lock file (parsed files, pages read, answers), and every
 * few thousand changes of an apply. V8 would grow the heap over it instead, and the next peak
 * lands on top (the edit apply of 20,000 rules: 227 MB peak RSS without the first two, 194 MB with).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

/**
 * Changes between collections during an apply: each change's request and answer are garbage once
 * it is settled, and V8 grows the heap over them rather than collect (an apply of 20,930 creates:
 * peak RSS 241 MB without, 211 MB with, for about 0.3 s of CPU in 7 s).
 */
export const CHANGES_PER_COLLECTION = 4_000;

/** Below this many declared objects the heap is small: a collection would return little (and, in a test runner's process, cost more than it saves). */
const WORTH_IT = 5_000;

/** Collects when the run holds `objects` declared objects or more. */
export function collectGarbage(objects: number): void {
  if (objects < WORTH_IT) return;
  if (!gc) {
    // V8's collector without starting Node with --expose-gc: set at run time, the flag gives `gc`
    // to contexts made after it. Set back at once: V8 refuses code caches (the precompiled
    // validators') made under other flags.
    setFlagsFromString('--expose-gc');
    gc = runInNewContext('gc') as () => void;
    setFlagsFromString('--no-expose-gc');
  }
  gc();
}
