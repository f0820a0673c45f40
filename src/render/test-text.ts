/**
 * `docket test` as text: one line per case; for a case that did not pass, each expectation that
 * broke, at its file:line:col, with what was expected and what was found. With --compare-to each
 * line shows the status at the ref → now. Pure.
 */
import { failedOnWarn, tally } from '../testing/outcome.js';
import type { CaseOutcome, CaseStatus, SuiteOutcome, TestReport } from '../testing/types.js';
import { painter, type Paint, type Style } from './paint.js';
import { stripControl } from './sanitize.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';
import { markInvisible } from '../config/quote.js';

/**
 * Text of the report on one line as the terminal may show it: control characters gone, a URL's
 * secrets hidden, and what prints as nothing or as a space marked (`<U+200B>`), as the markdown
 * and the annotations mark it: a case name or an expected `"zz\u200bzz"` read as another (probe UA-2).
 */
const shown = (text: string): string => markInvisible(stripControl(lineWithoutSecrets(text)));

const WORD: Record<CaseStatus, string> = { pass: 'PASS', warn: 'WARN', flaky: 'FLAKY', fail: 'FAIL', error: 'ERROR', skipped: 'SKIP' };
const STYLE: Record<CaseStatus, Style> = { pass: 'green', warn: 'yellow', flaky: 'yellow', fail: 'red', error: 'red', skipped: 'dim' };

export function statusWord(status: CaseStatus, paint: Paint): string {
  return paint(STYLE[status], WORD[status].padEnd(5));
}

export function renderTestText(report: TestReport, options: { color: boolean; failOnWarn?: boolean }): string {
  const paint = painter(options.color);
  const out: string[] = [`docket test · target: ${shown(report.target)}${report.compareTo ? ` · compared to ${shown(report.compareTo)}` : ''}`, ''];
  for (const suite of report.suites) out.push(...suiteLines(suite, paint), '');
  for (const note of report.notes) out.push(`Note: ${shown(note)}`);
  out.push(summaryLine(report, options.failOnWarn ?? false));
  return `${out.join('\n')}\n`;
}

function suiteLines(suite: SuiteOutcome, paint: Paint): string[] {
  const digest = suite.digest ? ` (${suite.live ? 'the live playbook, ' : ''}digest ${suite.digest.slice(0, 12)})` : suite.live ? ' (the live playbook)' : '';
  const lines = [paint('bold', `${shown(suite.file)} · ${suite.kind} ${JSON.stringify(shown(suite.subject))}${digest}`)];
  if (suite.before?.note) lines.push(`  ${paint('dim', `${shown(suite.before.ref)}: ${shown(suite.before.note)}`)}`);
  const before = new Map((suite.before?.cases ?? []).map((c) => [c.name, c]));
  for (const c of suite.cases) {
    const old = before.get(c.name);
    const head = old ? `${statusWord(old.status, paint).trimEnd()} → ${statusWord(c.status, paint)}` : statusWord(c.status, paint);
    lines.push(`  ${head} ${shown(c.name)}${caseNote(c)}`);
    // Why the ref's side could not run, or was not replayed, when it says (probe PA-3).
    if (old?.reason && old.reason !== c.reason) lines.push(`      ${paint('dim', `at ${shown(suite.before!.ref)}: ${shown(old.reason)}`)}`);
    if (c.status !== 'pass' && c.status !== 'skipped' && c.status !== 'error') {
      for (const e of c.expectations) {
        if (e.held === e.runs) continue;
        const runs = e.runs > 1 ? ` (held in ${e.held} of ${e.runs} runs)` : '';
        const level = e.severity === 'warn' ? ' [warn]' : '';
        lines.push(`      ${e.at.file}:${e.at.line}:${e.at.col}${level} expected ${shown(e.label)}, got ${shown(e.got)}${runs}`);
      }
    }
  }
  for (const note of suite.notes) lines.push(`  ${paint('dim', `note: ${shown(note)}`)}`);
  return lines;
}

function caseNote(c: CaseOutcome): string {
  if (c.reason) return `: ${shown(c.reason)}`;
  const parts: string[] = [];
  if (c.runs > 1) parts.push(`${c.passedRuns}/${c.runs} runs passed${c.passRate < 1 ? `, pass_rate ${c.passRate}` : ''}`);
  if (c.source === 'cache') parts.push('replayed');
  return parts.length > 0 ? ` (${parts.join(', ')})` : '';
}

export function summaryLine(report: TestReport, failOnWarn = false): string {
  const t = tally(report);
  const parts = [`${t.pass} passed`];
  if (t.fail) parts.push(`${t.fail} failed`);
  if (t.error) parts.push(`${t.error} could not run`);
  if (t.flaky) parts.push(`${t.flaky} flaky`);
  if (t.warn) parts.push(`${t.warn} with warnings`);
  if (t.skipped) parts.push(`${t.skipped} not replayed`);
  const failing = failedOnWarn(report, failOnWarn);
  return `${t.cases} case${t.cases === 1 ? '' : 's'}: ${parts.join(', ')}.${failing ? ` Failed: --fail-on-warn fails the run on ${failing}.` : ''}`;
}
