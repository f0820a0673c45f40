/**
 * A playbook case's outcome from the reviews it got, and how long it took: from its start to its
 * result, unless it never ran (skipped, or stopped before any work for it), which took none
 * (README, Reports: a JUnit case's `time`; probe GW).
 */
import { factsNamedToday } from './at-ref.js';
import { checkReview } from './match.js';
import { caseOutcome, caseWithout } from './outcome.js';
import type { CaseOutcome, PlaybookCase, ReviewFacts } from './types.js';

/**
 * What a case got: its reviews, a reason it was skipped, or an error. `evidence`: the reviews asked
 * for before the error, which the report names for a person to look at; `notRun`: the error came
 * before any work for the case (its contract unreadable or contradicted, the run stopping).
 */
export type Runs = { facts: ReviewFacts[]; replayed: number } | { skipped: string } | { error: string; evidence?: string[]; notRun?: true };

/** `renamed`: the reviews are of the playbook at a ref, and these of its rules have other names today. */
export function playbookCaseResult(c: PlaybookCase, got: Runs, started: number, renamed: ReadonlyMap<string, string>, now: number = performance.now()): CaseOutcome {
  if ('skipped' in got) return caseWithout(c, 'skipped', got.skipped);
  if ('error' in got) return got.notRun ? caseWithout(c, 'error', got.error) : timed(caseWithout(c, 'error', got.error, got.evidence), started, now);
  const runs = got.facts.slice(0, c.repeat).map((facts) => c.expectations.map((e) => checkReview(e.spec, factsNamedToday(facts, renamed))));
  return timed(caseOutcome(c, runs, { evidence: got.facts.slice(0, c.repeat).map((f) => f.review_id), source: sourceOf(got.replayed, runs.length) }), started, now);
}

/**
 * Where a case's runs came from: the first `replayed` of the runs a key got are the cache's; a case
 * using `used` of them (a case of the same key may have needed more) is replayed when all its own
 * were (probe IC-1).
 */
function sourceOf(replayed: number, used: number): 'live' | 'cache' | 'mixed' {
  if (replayed >= used) return 'cache';
  return replayed === 0 ? 'live' : 'mixed';
}

/** The outcome with how long its case took since `started`. */
export function timed(outcome: CaseOutcome, started: number, now: number = performance.now()): CaseOutcome {
  return { ...outcome, ms: Math.round(now - started) };
}
