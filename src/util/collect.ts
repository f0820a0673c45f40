/**
 * A full garbage collection at a phase boundary of a large run. Between the plan and the apply,
 * and between the apply and the lock file, most of the heap is garbage (parsed files, pages read,
 * answers); V8 would grow the heap over it instead, and the next phase's peak lands on top
 * (the edit apply of 20,000 rules: 227 MB peak RSS without these two collections, 194 MB with).
 * Not during an apply: one every 4,000 changes of 21,000 creates took 18 MB off the peak for 13 %
 * more CPU (bench round thirty-one).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let gc: (() => void) | undefined;

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
