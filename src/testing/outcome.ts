/**
 * From runs to a verdict. A case runs `repeat` times; a run passes when every error-level
 * expectation holds in it. The case passes when every run passed (warn: a warn-level one failed
 * somewhere), is flaky when only some runs passed but at least `pass_rate` of them did, and fails
 * otherwise. Pure.
 */
import type { SourcePos } from '../diagnostics.js';
import { isTestFile } from '../config/discover.js';
import type { CaseOutcome, CaseStatus, Expectation, ExpectationResult, TestReport } from './types.js';

export interface CaseShape {
  name: string;
  at: SourcePos;
  passRate?: number;
  expectations: Expectation[];
}

export function caseOutcome(c: CaseShape, runs: ExpectationResult[][], extra: Pick<CaseOutcome, 'evidence'> & Partial<Pick<CaseOutcome, 'source'>>): CaseOutcome {
  const passRate = c.passRate ?? 1;
  const expectations = c.expectations.map((e, i) => {
    const results = runs.map((r) => r[i]!);
    const failed = results.find((r) => !r.ok);
    return { label: e.label, severity: e.severity, at: e.at, held: results.filter((r) => r.ok).length, runs: runs.length, got: (failed ?? results[results.length - 1])?.got ?? '' };
  });
  const passedRuns = runs.filter((r) => r.every((x, i) => x.ok || c.expectations[i]!.severity !== 'error')).length;
  const warned = runs.some((r) => r.some((x, i) => !x.ok && c.expectations[i]!.severity === 'warn'));
  let status: CaseStatus;
  if (passedRuns === runs.length) status = warned ? 'warn' : 'pass';
  // A tiny tolerance: 0.8 of 5 runs is 4, whatever floating point says. No run passing is a
  // failure, whatever `pass_rate` allows: flaky means it sometimes works.
  else if (passedRuns > 0 && passedRuns / runs.length >= passRate - 1e-9) status = 'flaky';
  else status = 'fail';
  return { name: c.name, at: c.at, status, runs: runs.length, passedRuns, passRate, expectations, ...extra };
}

/** A case that could not run (the review failed, the service refused) or was not run (not in the cache). */
export function caseWithout(c: CaseShape, status: 'error' | 'skipped', reason: string, evidence: string[] = []): CaseOutcome {
  return {
    name: c.name,
    at: c.at,
    status,
    reason,
    runs: 0,
    passedRuns: 0,
    passRate: c.passRate ?? 1,
    expectations: c.expectations.map((e) => ({ label: e.label, severity: e.severity, at: e.at, held: 0, runs: 0, got: '' })),
    evidence,
  };
}

export interface Tally {
  cases: number;
  pass: number;
  warn: number;
  flaky: number;
  fail: number;
  error: number;
  skipped: number;
}

export function tally(report: TestReport): Tally {
  const t: Tally = { cases: 0, pass: 0, warn: 0, flaky: 0, fail: 0, error: 0, skipped: 0 };
  for (const s of report.suites) {
    for (const c of s.cases) {
      t.cases++;
      t[c.status]++;
    }
  }
  return t;
}

/** Exit 1 when an error-level expectation broke (or a case could not run); with --fail-on-warn also for warnings and flaky cases. */
export function failed(report: TestReport, failOnWarn: boolean): boolean {
  const t = tally(report);
  return t.fail > 0 || t.error > 0 || (failOnWarn && failedOnWarn(report, true) !== undefined);
}

/**
 * The cases --fail-on-warn turned into failures (`1 case with warnings and 1 flaky case`), for the
 * reports to say where the counts are: "1 case with warnings" reads as a pass, and the run exits 1.
 * Undefined when it turned none.
 */
export function failedOnWarn(report: TestReport, failOnWarn: boolean): string | undefined {
  if (!failOnWarn) return undefined;
  const t = tally(report);
  const all = report.warnings ?? [];
  // A test file's warnings are the tests', the others the configuration's.
  const ofTests = all.filter((w) => w.file !== undefined && isTestFile(w.file)).length;
  const ofConfiguration = all.length - ofTests;
  const which = [
    t.warn > 0 ? `${t.warn} case${t.warn === 1 ? '' : 's'} with warnings` : '',
    t.flaky > 0 ? `${t.flaky} flaky case${t.flaky === 1 ? '' : 's'}` : '',
    ofTests > 0 ? `${ofTests} warning${ofTests === 1 ? '' : 's'} of the test files` : '',
    ofConfiguration > 0 ? `${ofConfiguration} warning${ofConfiguration === 1 ? '' : 's'} of the configuration` : '',
  ].filter(Boolean);
  return which.length > 0 ? `${which.slice(0, -1).join(', ')}${which.length > 1 ? ' and ' : ''}${which.at(-1)}` : undefined;
}
