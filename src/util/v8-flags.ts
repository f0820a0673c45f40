/**
 * The V8 flags docket runs with: bin/docket.js sets them before any of docket's code is loaded,
 * and the build sets them before it makes the validators' code cache (scripts/compile-validators.mjs),
 * as V8 takes a cache only in a process whose flags are those of the one that made it.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * The V8 these budgets were measured on (Node 20's). Later ones tier up otherwise and have no
 * `--interrupt-budget` (V8 prints "unrecognized flag" for it): there docket sets nothing (second read).
 */
const MEASURED_V8 = /^11\.3\./;

/** V8 11.3's own: a function is looked at for optimising after 66 KB of its bytecode ran. */
const DEFAULT_INTERRUPT_BUDGET = 67_584;

/**
 * Reading and checking the files and diffing them run many functions a few thousand times each,
 * once: a large plan spent about a quarter of its CPU optimising them on other threads. Nine
 * times the budget leaves the optimiser only the hottest: 15–20 % less CPU for a large plan at
 * the same wall time (README, Benchmarks, round fifty-nine).
 */
const PLANNING_INTERRUPT_BUDGET = 600_000;

/**
 * undici parses HTTP/1.1 with llhttp compiled to WebAssembly, whose main function (33 KB of wasm)
 * V8 recompiles with its optimising compiler on another thread once it is hot, which any run of a
 * few hundred requests makes it: 0.2–0.25 s of CPU and about 40 MB of compiler memory (8,000 page
 * faults) for a large plan, 7 % of its CPU. The baseline compiler's code (Liftoff) reads the few
 * hundred bytes of each answer's head fast enough, so wasm is not tiered up: a large no-change plan
 * took 7–12 % less CPU in alternated runs (README, Design decisions).
 */
const WASM_BASELINE_ONLY = ['--no-wasm-dynamic-tiering', '--no-wasm-tier-up'] as const;

/** The flags for this process's V8: none where they were not measured. */
export function v8FlagsFor(v8Version: string): readonly string[] {
  return MEASURED_V8.test(v8Version) ? [`--interrupt-budget=${PLANNING_INTERRUPT_BUDGET}`, ...WASM_BASELINE_ONLY] : [];
}

export const V8_FLAGS: readonly string[] = v8FlagsFor(process.versions.v8);

export function setV8Flags(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}

/**
 * V8's default budget again, for a loop of requests (an apply's changes, the emulator's answers):
 * it runs the same small functions tens of thousands of times, and optimising them early pays
 * (an apply from empty of 21,000 creates took about 15 % more CPU under the planning budget).
 * Once the validators are loaded: their code cache is V8's to take only under V8_FLAGS.
 */
export function setV8FlagsForRequestLoops(): void {
  if (V8_FLAGS.length > 0) setFlagsFromString(`--interrupt-budget=${DEFAULT_INTERRUPT_BUDGET}`);
}
