/** `docket test -o json`: the report as documented by schemas/test-report.schema.json. Pure. */
import { tally } from '../testing/outcome.js';
import type { CaseOutcome, TestReport } from '../testing/types.js';
import { stripControl } from './sanitize.js';

export function renderTestJson(report: TestReport, failed: boolean): string {
  const caseJson = (c: CaseOutcome) => ({
    name: stripControl(c.name),
    file: c.at.file,
    line: c.at.line,
    status: c.status,
    ...(c.reason ? { reason: stripControl(c.reason) } : {}),
    runs: c.runs,
    passed_runs: c.passedRuns,
    pass_rate: c.passRate,
    ...(c.source ? { source: c.source } : {}),
    evidence: c.evidence,
    expectations: c.expectations.map((e) => ({
      label: stripControl(e.label),
      severity: e.severity,
      file: e.at.file,
      line: e.at.line,
      col: e.at.col,
      held: e.held,
      runs: e.runs,
      got: stripControl(e.got),
    })),
  });
  const body = {
    format_version: 1,
    ok: !failed,
    target: stripControl(report.target),
    ...(report.compareTo ? { compare_to: report.compareTo } : {}),
    summary: tally(report),
    suites: report.suites.map((s) => ({
      kind: s.kind,
      file: s.file,
      subject: stripControl(s.subject),
      ...(s.digest ? { digest: s.digest } : {}),
      cases: s.cases.map(caseJson),
      ...(s.before ? { before: { ref: s.before.ref, ...(s.before.digest ? { digest: s.before.digest } : {}), ...(s.before.note ? { note: s.before.note } : {}), cases: s.before.cases.map(caseJson) } } : {}),
      notes: s.notes.map(stripControl),
    })),
    notes: report.notes.map(stripControl),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
