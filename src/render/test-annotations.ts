/**
 * `docket test --annotations github`: a workflow command per broken expectation at the test file's
 * line that states it (`::error` for error-level, `::warning` for warn-level and flaky cases), and
 * one per case that could not run, at the case. Pure; paths come relative to the repository root
 * through `pathPrefix`.
 */
import { posix } from 'node:path';
import type { TestReport } from '../testing/types.js';
import { formatAnnotation, renderDiagnosticAnnotations } from './annotations.js';

export function renderTestAnnotations(report: TestReport, options: { pathPrefix: string }): string {
  const repoPath = (file: string): string => (options.pathPrefix ? posix.join(options.pathPrefix, file) : file);
  const lines: string[] = [];
  for (const suite of report.suites) {
    for (const c of suite.cases) {
      const name = `${suite.subject} / ${c.name}`;
      if (c.status === 'error') {
        lines.push(formatAnnotation({ level: 'error', title: 'docket test could not run', message: `${name}: ${c.reason ?? ''}`, at: { file: repoPath(c.at.file), line: c.at.line } }));
        continue;
      }
      if (c.status === 'pass' || c.status === 'skipped') continue;
      for (const e of c.expectations) {
        if (e.held === e.runs) continue;
        const level = c.status === 'fail' && e.severity === 'error' ? 'error' : 'warning';
        const runs = e.runs > 1 ? ` (held in ${e.held} of ${e.runs} runs)` : '';
        lines.push(formatAnnotation({ level, title: c.status === 'flaky' ? 'docket test flaky' : `docket test ${level === 'error' ? 'failed' : 'warning'}`, message: `${name}: expected ${e.label}, got ${e.got}${runs}`, at: { file: repoPath(e.at.file), line: e.at.line } }));
      }
    }
  }
  const out = lines.length > 0 ? `${lines.join('\n')}\n` : '';
  // The test files' own warnings (a renamed subject, an outcome docket does not know) at their lines.
  return `${renderDiagnosticAnnotations(report.warnings ?? [], options.pathPrefix)}${out}`;
}
