/** Verdicts from runs: pass, warn, flaky (pass rate met by some runs), fail; and the exit decision. */
import { describe, expect, it } from 'vitest';
import { caseOutcome, failed } from '../../../src/testing/outcome.js';
import type { Expectation, ExpectationResult } from '../../../src/testing/types.js';

const at = { file: 't.test.yaml', line: 3, col: 5 };
const exp = (label: string, severity: 'error' | 'warn' = 'error'): Expectation => ({ label, severity, at, spec: { type: 'accepted' } });
const r = (ok: boolean, got = ok ? 'ok' : 'bad'): ExpectationResult => ({ ok, got });

describe('case outcomes', () => {
  const shape = (passRate = 1) => ({ name: 'c', at, passRate, expectations: [exp('a'), exp('b', 'warn')] });
  it('passes when every run holds, warns when only a warn-level expectation broke', () => {
    expect(caseOutcome(shape(), [[r(true), r(true)]], { evidence: [] }).status).toBe('pass');
    expect(caseOutcome(shape(), [[r(true), r(false)]], { evidence: [] }).status).toBe('warn');
  });
  it('is flaky when some runs fail but the pass rate holds, and fails below it', () => {
    const runs = [[r(true), r(true)], [r(false, 'accept'), r(true)], [r(true), r(true)]];
    const flaky = caseOutcome(shape(0.6), runs, { evidence: [] });
    expect(flaky).toMatchObject({ status: 'flaky', passedRuns: 2, runs: 3 });
    expect(flaky.expectations[0]).toMatchObject({ held: 2, runs: 3, got: 'accept' });
    expect(caseOutcome(shape(0.8), runs, { evidence: [] }).status).toBe('fail');
    expect(caseOutcome(shape(1), [[r(false), r(true)]], { evidence: [] }).status).toBe('fail');
  });
  it('fails when no run passed, even with pass_rate 0: flaky means it sometimes works', () => {
    const none = [[r(false), r(true)], [r(false), r(true)]];
    expect(caseOutcome(shape(0), none, { evidence: [] })).toMatchObject({ status: 'fail', passedRuns: 0 });
    expect(caseOutcome(shape(0), [[r(false), r(true)], [r(true), r(true)]], { evidence: [] }).status).toBe('flaky');
  });
  it('exits 1 on failures and errors, and with --fail-on-warn on warnings and flaky cases', () => {
    const report = (status: 'pass' | 'warn' | 'flaky' | 'fail' | 'error' | 'skipped') => ({
      target: 't',
      notes: [],
      suites: [{ kind: 'PlaybookTest' as const, file: 'f', subject: 's', notes: [], cases: [{ name: 'c', at, status, runs: 1, passedRuns: 1, passRate: 1, expectations: [], evidence: [] }] }],
    });
    expect(failed(report('pass'), true)).toBe(false);
    expect(failed(report('skipped'), true)).toBe(false);
    expect(failed(report('fail'), false)).toBe(true);
    expect(failed(report('error'), false)).toBe(true);
    expect(failed(report('flaky'), false)).toBe(false);
    expect(failed(report('flaky'), true)).toBe(true);
    expect(failed(report('warn'), true)).toBe(true);
  });
});
