/**
 * `docket test -o json`: the report as documented by schemas/test-report.schema.json, also when
 * the run could not start or finish (`ok: false` with the error and its diagnostics, so a CI
 * step reading the report never meets a second document shape). Text is kept as it is, as in
 * plan's JSON: `jsonText` escapes what a JSON reader must not meet raw. Pure.
 */
import { tally } from '../testing/outcome.js';
import type { CaseOutcome, TestReport } from '../testing/types.js';
import { jsonText, type ErrorJson } from './json.js';

/** A run that produced no suites: what the error document reports around the error. */
const NO_RUN: TestReport = { target: '', suites: [], notes: [] };

/** The report, or with `error` the error that stopped the run (after `report`'s suites, when there are any). */
export function renderTestJson(report: TestReport, failed: boolean, error?: ErrorJson): string {
  const caseJson = (c: CaseOutcome) => ({
    name: c.name,
    file: c.at.file,
    line: c.at.line,
    status: c.status,
    ...(c.reason ? { reason: c.reason } : {}),
    runs: c.runs,
    passed_runs: c.passedRuns,
    pass_rate: c.passRate,
    ...(c.source ? { source: c.source } : {}),
    evidence: c.evidence,
    expectations: c.expectations.map((e) => ({
      label: e.label,
      severity: e.severity,
      file: e.at.file,
      line: e.at.line,
      col: e.at.col,
      held: e.held,
      runs: e.runs,
      got: e.got,
    })),
  });
  const body = {
    format_version: 1,
    ok: !failed && !error,
    target: report.target,
    ...(report.compareTo ? { compare_to: report.compareTo } : {}),
    summary: tally(report),
    suites: report.suites.map((s) => ({
      kind: s.kind,
      file: s.file,
      subject: s.subject,
      ...(s.digest ? { digest: s.digest } : {}),
      ...(s.live ? { live: true } : {}),
      cases: s.cases.map(caseJson),
      ...(s.before ? { before: { ref: s.before.ref, ...(s.before.digest ? { digest: s.before.digest } : {}), ...(s.before.note ? { note: s.before.note } : {}), cases: s.before.cases.map(caseJson) } } : {}),
      notes: s.notes,
    })),
    notes: report.notes,
    ...(error ? { error: error.error, diagnostics: error.diagnostics } : report.warnings?.length ? { diagnostics: report.warnings } : {}),
  };
  return jsonText(body);
}

/** What `docket test -o json` prints when it could not run: no suites, `ok: false`, the error. */
export function renderTestErrorJson(error: ErrorJson, report: TestReport = NO_RUN): string {
  return renderTestJson(report, true, error);
}
