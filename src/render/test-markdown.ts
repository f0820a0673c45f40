/**
 * `docket test -o markdown`: a pull-request comment. A summary table, then per test file a matrix
 * of case × expectation (with --compare-to, each cell reads before → after) and the failures with
 * expected against found. All user text is escaped; the comment stays under the size limit by
 * dropping failure details, then rows, always with a note saying what was cut. Pure.
 */
import { failedOnWarn, tally } from '../testing/outcome.js';
import type { CaseOutcome, ExpectationOutcome, SuiteOutcome, TestReport } from '../testing/types.js';
import { codeSpan, escapeMarkdown, strongMarkdown } from './sanitize.js';
import { plural } from './facts.js';
import { countWithin } from './markdown-fit.js';

const DEFAULT_MAX_CHARS = 60_000;
/** Labels longer than this (all columns together) are numbered, with a legend under the table. */
const INLINE_HEADER_CHARS = 100;

const ICON = { pass: '✅', warn: '⚠️', flaky: '🔀', fail: '❌', error: '💥', skipped: '⏭️' } as const;

export interface TestMarkdownOptions {
  maxChars?: number;
  /** --fail-on-warn: warned and flaky cases fail the run, and the summary says so. */
  failOnWarn?: boolean;
}

function cell(c: CaseOutcome | undefined, label: string): string {
  if (!c) return '·';
  const e = c.expectations.find((x) => x.label === label);
  if (!e) return '–';
  // Not checked: the case could not run, or was not replayed (only its own expectations say so).
  if (c.status === 'error' || c.status === 'skipped') return ICON[c.status];
  return expectationIcon(e);
}

function expectationIcon(e: ExpectationOutcome): string {
  if (e.held === e.runs) return '✅';
  if (e.severity === 'warn') return '⚠️';
  return e.held > 0 ? `🔀 ${e.held}/${e.runs}` : '❌';
}

interface Layout {
  /** Failure details shown, at most, per test file (0: none; Infinity: all). */
  details: number;
  /** Rows of cases not passing shown, at most, per test file. */
  broken: number;
  /** Rows of the other cases shown, at most, per test file: these go first (probe JB-1: one limit for both kept a small file's passing rows and dropped a large one's failing rows). */
  passing: number;
  /** The test files' warnings shown, at most: cut to half the comment before anything else is (probe GE-2). */
  warnings?: number;
}

/** Whether a case is one a reviewer of the comment must see: it did not pass (a skipped case was not run). */
const broken = (c: CaseOutcome): boolean => c.status !== 'pass' && c.status !== 'skipped';

/** The cases a layout shows, in the file's order: at most so many not passing and so many others (probe HM-4). */
function shownCases(cases: readonly CaseOutcome[], layout: Layout): readonly CaseOutcome[] {
  const kept = new Set([...cases.filter(broken).slice(0, layout.broken), ...cases.filter((c) => !broken(c)).slice(0, layout.passing)]);
  return kept.size === cases.length ? cases : cases.filter((c) => kept.has(c));
}

function suiteSection(suite: SuiteOutcome, layout: Layout): string[] {
  const shown = shownCases(suite.cases, layout);
  // The columns of the rows shown: a cut that drops rows drops their own columns and legend lines too (probe MZ-3).
  const labels: string[] = [];
  const seen = new Set<string>();
  for (const c of shown) for (const e of c.expectations) if (!seen.has(e.label)) (seen.add(e.label), labels.push(e.label));
  const inline = labels.join('').length <= INLINE_HEADER_CHARS;
  const before = suite.before ? new Map(suite.before.cases.map((c) => [c.name, c])) : undefined;
  const notPassing = suite.cases.filter(broken).length;
  const head = `${escapeMarkdown(suite.subject, 'html')}${suite.live ? ' (the live playbook)' : ''} · ${escapeMarkdown(suite.file, 'html')} · ${suite.cases.length} case${suite.cases.length === 1 ? '' : 's'}${notPassing > 0 ? `, ${notPassing} not passing` : ''}`;
  const out = [`<details${notPassing > 0 ? ' open' : ''}><summary>${head}</summary>`, ''];
  if (suite.before?.note) out.push(`_${escapeMarkdown(`${suite.before.ref}: ${suite.before.note}`)}_`, '');
  const header = ['case', 'result', ...labels.map((l, i) => (inline ? escapeMarkdown(l) : String(i + 1)))];
  // No rows left by the cut: no table, which GitHub would draw empty (probe RG-3).
  if (shown.length > 0) out.push(`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`);
  for (const c of shown) {
    const old = before?.get(c.name);
    const pair = (f: (x: CaseOutcome | undefined) => string): string => (before ? `${f(old)} → ${f(c)}` : f(c));
    out.push(`| ${escapeMarkdown(c.name)} | ${pair((x) => (x ? ICON[x.status] : '·'))} | ${labels.map((l) => pair((x) => cell(x, l))).join(' | ')} |`);
  }
  if (suite.cases.length > shown.length) {
    const left = shown.length === 0 ? `_${plural(suite.cases.length, 'case')}` : `_…and ${plural(suite.cases.length - shown.length, 'more case')}`;
    out.push(...(shown.length > 0 ? [''] : []), `${left}, left out to keep this comment under the size limit._`);
  }
  if (!inline) out.push('', ...labels.map((l, i) => `${i + 1}. ${escapeMarkdown(l)}`));
  if (layout.details > 0) {
    const lines: string[] = [];
    for (const c of suite.cases) {
      if (c.reason && c.status !== 'pass') lines.push(`- ${strongMarkdown(c.name)}: ${escapeMarkdown(c.reason)}`);
      // The ref's side too, when it says why it could not run (probe PA-3).
      const old = before?.get(c.name);
      if (old?.reason && old.reason !== c.reason) lines.push(`- ${strongMarkdown(c.name)} at ${escapeMarkdown(suite.before!.ref)}: ${escapeMarkdown(old.reason)}`);
      for (const e of c.expectations) {
        if (e.held === e.runs || c.status === 'error' || c.status === 'skipped') continue;
        lines.push(`- ${strongMarkdown(c.name)} (${escapeMarkdown(`${e.at.file}:${e.at.line}`)}${e.severity === 'warn' ? ', warn' : ''}): expected ${escapeMarkdown(e.label)}, got ${escapeMarkdown(e.got)}${e.runs > 1 ? ` (held in ${e.held} of ${e.runs} runs)` : ''}`);
      }
    }
    if (lines.length > 0) out.push('', ...lines.slice(0, layout.details));
    if (lines.length > layout.details) out.push('', `_…and ${plural(lines.length - layout.details, 'more failure detail')}, left out to keep this comment under the size limit._`);
  }
  for (const note of suite.notes) out.push('', `_${escapeMarkdown(note)}_`);
  out.push('', '</details>', '');
  return out;
}

/** The target, the emulator flagged as the plan's comment flags it, also with an environment after it (probe UH-2). */
function targetShown(target: string): string {
  const emulated = /^local emulator(?: · environment (.+))?$/.exec(target);
  if (!emulated) return codeSpan(target);
  return `⚠️ **local emulator** (not the live services)${emulated[1] !== undefined ? ` · **Environment:** ${codeSpan(emulated[1])}` : ''}`;
}

function render(report: TestReport, layout: Layout, suites: number, failOnWarn: boolean): string {
  const t = tally(report);
  const out = ['### docket test', ''];
  out.push(`**Target:** ${targetShown(report.target)}${report.compareTo ? ` · compared to ${codeSpan(report.compareTo)} (cells read before → after)` : ''}`, '');
  out.push('| result | cases |', '|---|---:|');
  for (const [icon, label, n] of [
    [ICON.pass, 'passed', t.pass],
    [ICON.fail, 'failed', t.fail],
    [ICON.error, 'could not run', t.error],
    [ICON.flaky, 'flaky', t.flaky],
    [ICON.warn, 'passed with warnings', t.warn],
    [ICON.skipped, 'not replayed', t.skipped],
  ] as const) {
    if (n > 0 || label === 'passed') out.push(`| ${icon} ${label} | ${n} |`);
  }
  out.push('');
  const failing = failedOnWarn(report, failOnWarn);
  if (failing) out.push(`**${ICON.fail} Failed:** \`--fail-on-warn\` fails the run on ${failing}.`, '');
  const warnings = warningLines(report);
  const shownWarnings = Math.min(warnings.length, layout.warnings ?? Infinity);
  if (warnings.length > 0) out.push(...warnings.slice(0, shownWarnings));
  if (shownWarnings < warnings.length) out.push(`- _… and ${plural(warnings.length - shownWarnings, 'more warning')} not listed: the job log has them all_`);
  if (warnings.length > 0) out.push('');
  for (const s of report.suites.slice(0, suites)) out.push(...suiteSection(s, layout));
  if (suites < report.suites.length) out.push(`_…and ${plural(report.suites.length - suites, 'more test file')}, left out to keep this comment under the size limit; the job log and --junit have them all._`, '');
  for (const n of report.notes) out.push(`_${escapeMarkdown(n)}_`, '');
  return `${out.join('\n').trimEnd()}\n`;
}

function warningLines(report: TestReport): string[] {
  return (report.warnings ?? []).map((d) => `- ${ICON.warn} ${codeSpan(`${d.file}:${d.line}`)} ${escapeMarkdown(d.message)}`);
}

export function renderTestMarkdown(report: TestReport, options: TestMarkdownOptions = {}): string {
  const max = options.maxChars ?? DEFAULT_MAX_CHARS;
  const failOnWarn = options.failOnWarn ?? false;
  const most = Math.max(0, ...report.suites.map((s) => s.cases.length));
  const text = render(report, { details: Infinity, broken: most, passing: most }, report.suites.length, failOnWarn);
  if (text.length < max) return text;
  // The warnings take half the comment at most, whatever else is cut: the cases are what it is for.
  const warnings = countWithin(warningLines(report), max / 2, 1);
  const renderCut = (layout: Layout, note: string): string => render(report, { ...layout, warnings }, report.suites.length, failOnWarn) + note;
  const fits = (layout: Layout, note: string): boolean => renderCut(layout, note).length < max;
  // Passing rows go first, with every failure's details, while every case not passing still has its row.
  const passingCut = '\n_This comment was cut to stay under GitHub’s size limit: some passing rows are left out. The job log and the --junit report have everything._\n';
  const withDetails = mostRows(0, most, (passing) => fits({ details: Infinity, broken: most, passing }, passingCut));
  if (withDetails !== undefined) return renderCut({ details: Infinity, broken: most, passing: withDetails }, passingCut);
  // Then the failure details, as many as fit beside every failing row (probe HR-5: all or none went).
  const note = '\n_This comment was cut to stay under GitHub’s size limit: failure details and some rows are left out. The job log and the --junit report have everything._\n';
  const details = mostRows(1, Math.max(1, ...report.suites.map((s) => s.cases.length * Math.max(1, ...s.cases.map((c) => c.expectations.length + 1)))), (n) => fits({ details: n, broken: most, passing: 0 }, note));
  if (details !== undefined) return renderCut({ details, broken: most, passing: 0 }, note);
  // Then rows of failures.
  const rows = mostRows(1, most, (n) => fits({ details: 0, broken: n, passing: 0 }, note));
  if (rows !== undefined) return renderCut({ details: 0, broken: rows, passing: 0 }, note);
  for (let suites = report.suites.length - 1; suites >= 0; suites--) {
    const cut = render(report, { details: 0, broken: 1, passing: 0, warnings }, suites, failOnWarn);
    if (cut.length + note.length < max) return cut + note;
  }
  return `### docket test\n\n${plural(tally(report).cases, 'case')}; the report is too large for a comment: see the job log.\n`;
}

/** The most rows, from `least` to `most`, with which the comment fits (it grows with the rows); undefined when even `least` does not. */
function mostRows(least: number, most: number, fits: (rows: number) => boolean): number | undefined {
  if (least > most || !fits(least)) return undefined;
  let [low, high] = [least, most];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (fits(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}
