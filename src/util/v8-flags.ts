/**
 * The V8 flags docket runs with: bin/docket.js sets them before any of docket's code is loaded,
 * and the build sets them before it makes the validators' code cache (scripts/compile-validators.mjs),
 * as V8 takes a cache only in a process whose flags are those of the one that made it.
 */
import { setFlagsFromString } from 'node:v8';

/**
 * V8 optimises a function once it has run 66 KB of bytecode, and a large plan then spends about a
 * quarter of its CPU on optimising compiles on other threads. Nine times that budget leaves the
 * optimiser only the hottest functions: 10–15 % less CPU for a large plan at the same wall time
 * (README, Benchmarks, round fifty-nine).
 */
export const V8_FLAGS: readonly string[] = ['--interrupt-budget=600000'];

export function setV8Flags(): void {
  for (const flag of V8_FLAGS) setFlagsFromString(flag);
}
