/**
 * `docket test --junit FILE`: JUnit XML in the Apache Ant form CI systems read (the Windy Road
 * JUnit.xsd): a test file is a `testsuite`, a case a `testcase`; a failed case has a `failure`
 * listing expected against found, a case that could not run an `error`, one not replayed
 * `skipped`. Flaky and warned cases pass, saying so in `system-out`; with `--fail-on-warn`, which
 * makes them fail the run, they are `failure`s too, so the report says what failed the job. When
 * the run could not start (invalid test files, no key, a service down) the report is still
 * written, with an `error` per problem, so the CI reporter shows why instead of a missing file. Pure.
 */
import { xmlChars } from '../util/xml-chars.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';
import type { Diagnostic } from '../diagnostics.js';
import type { CaseOutcome, SuiteOutcome, TestReport } from '../testing/types.js';
import type { ErrorJson } from './json.js';
import { stripControl } from './sanitize.js';

export interface JunitOptions {
  /** When the run started (the suites' timestamp). */
  started: Date;
  hostname: string;
  /** `--fail-on-warn`: warned and flaky cases fail the run, and are failures here too. */
  failOnWarn?: boolean;
}


/** Escape sequences go and bidirectional controls show as `<U+202E>`, as in text and markdown: a CI page renders this text too. */
export function xmlText(text: string): string {
  // A URL's secrets hidden, as in every other report (a case or playbook named with a URL).
  return xmlChars(stripControl(lineWithoutSecrets(text))).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

export function xmlAttr(text: string): string {
  return xmlText(text).replace(/"/g, '&quot;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;').replace(/\t/g, '&#9;');
}

function failureText(c: CaseOutcome): string {
  return c.expectations
    .filter((e) => e.held < e.runs)
    .map((e) => `${e.at.file}:${e.at.line}:${e.at.col} ${e.severity === 'warn' ? '[warn] ' : ''}expected ${e.label}, got ${e.got}${e.runs > 1 ? ` (held in ${e.held} of ${e.runs} runs)` : ''}`)
    .join('\n');
}

/** Whether a case counts as a failure: failed, or warned or flaky under `--fail-on-warn`. */
function failing(c: CaseOutcome, failOnWarn: boolean): boolean {
  return c.status === 'fail' || (failOnWarn && (c.status === 'warn' || c.status === 'flaky'));
}

function testcase(suite: SuiteOutcome, c: CaseOutcome, seconds: string, failOnWarn: boolean): string[] {
  const head = `    <testcase name="${xmlAttr(c.name)}" classname="${xmlAttr(`${suite.kind}.${suite.subject}`)}" time="${seconds}"`;
  if (c.status !== 'fail' && failing(c, failOnWarn)) {
    const message = c.status === 'flaky' ? `flaky: ${c.passedRuns} of ${c.runs} runs passed (--fail-on-warn)` : 'warn-level expectation(s) failed (--fail-on-warn)';
    return [`${head}>`, `      <failure message="${xmlAttr(message)}" type="${c.status}">${xmlText(failureText(c))}</failure>`, '    </testcase>'];
  }
  switch (c.status) {
    case 'fail': {
      const broken = c.expectations.filter((e) => e.severity === 'error' && e.held < e.runs).length;
      // The text lists the warn-level ones that broke too: counted apart, as they fail no run alone (probe IR-2).
      const warned = c.expectations.filter((e) => e.severity === 'warn' && e.held < e.runs).length;
      const message = c.runs > 1 ? `${c.passedRuns} of ${c.runs} runs passed (pass_rate ${c.passRate})` : `${broken} expectation(s) failed${warned > 0 ? `, and ${warned} warn-level expectation(s) not held` : ''}`;
      return [`${head}>`, `      <failure message="${xmlAttr(message)}" type="expectation">${xmlText(failureText(c))}</failure>`, '    </testcase>'];
    }
    case 'error':
      return [`${head}>`, `      <error message="${xmlAttr(c.reason ?? 'could not run')}" type="run"></error>`, '    </testcase>'];
    case 'skipped':
      // Why, where CI reporters show it (Jenkins' and Surefire's `skipped` take a message).
      return [`${head}>`, c.reason ? `      <skipped message="${xmlAttr(c.reason)}"/>` : '      <skipped/>', '    </testcase>'];
    default:
      return [`${head}/>`];
  }
}

/** A case's own time, as the run measured it; none for a case that never ran. */
function caseTime(c: CaseOutcome): string {
  return ((c.ms ?? 0) / 1000).toFixed(3);
}

/** The `T` form without a zone, as the schema's timestamp pattern wants. */
function timestamp(d: Date): string {
  return d.toISOString().slice(0, 19);
}

/**
 * A `testsuite` start tag, with the attributes the schema requires in its order. `skipped`, which
 * Ant's schema lacks (Jenkins, GitLab and Surefire read it), only where a case was skipped: a
 * report with none is valid against Ant's schema as it is.
 */
function suiteTag(
  s: { file: string; id: number; name: string; tests: number; failures: number; errors: number; skipped: number; time: string },
  options: Pick<JunitOptions, 'started' | 'hostname'>,
): string {
  return `  <testsuite package="${xmlAttr(s.file)}" id="${s.id}" name="${xmlAttr(s.name)}" timestamp="${timestamp(options.started)}" hostname="${xmlAttr(options.hostname || 'localhost')}" tests="${s.tests}" failures="${s.failures}" errors="${s.errors}"${s.skipped > 0 ? ` skipped="${s.skipped}"` : ''} time="${s.time}">`;
}

export function renderTestJunit(report: TestReport, options: JunitOptions): string {
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  report.suites.forEach((suite, id) => {
    const failOnWarn = Boolean(options.failOnWarn);
    const count = (status: CaseOutcome['status']) => suite.cases.filter((c) => c.status === status).length;
    const failures = suite.cases.filter((c) => failing(c, failOnWarn)).length;
    const out = suite.cases.filter((c) => ((c.status === 'flaky' || c.status === 'warn') && !failOnWarn) || (c.status === 'skipped' && c.reason)).map((c) => `${c.name}: ${c.status}${c.reason ? ` (${c.reason})` : c.status === 'flaky' ? ` (${c.passedRuns} of ${c.runs} runs passed)` : `\n${failureText(c)}`}`);
    lines.push(
      suiteTag({ file: suite.file, id, name: suite.subject, tests: suite.cases.length, failures, errors: count('error'), skipped: count('skipped'), time: suite.cases.reduce((sum, c) => sum + Number(caseTime(c)), 0).toFixed(3) }, options),
      '    <properties>',
      `      <property name="kind" value="${xmlAttr(suite.kind)}"/>`,
      `      <property name="target" value="${xmlAttr(report.target)}"/>`,
      ...(suite.digest ? [`      <property name="playbook_digest" value="${suite.digest}"/>`] : []),
      // `--live`: the cases ran against the live playbook (probe RH-4, second read SR88-8).
      ...(suite.live ? ['      <property name="live" value="true"/>'] : []),
      '    </properties>',
      ...suite.cases.flatMap((c) => testcase(suite, c, caseTime(c), failOnWarn)),
      `    <system-out>${xmlText([...out, ...suite.notes].join('\n'))}</system-out>`,
      '    <system-err></system-err>',
      '  </testsuite>',
    );
  });
  // With --fail-on-warn the test files' warnings fail the run: a suite per file, a failure per warning, so the reporter is not green.
  if (options.failOnWarn) lines.push(...warningSuites(report.warnings ?? [], report.suites.length, options));
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}

/** The test files' warnings as failures (`file:line:col code`), a suite per file, ids after `first`. */
function warningSuites(warnings: readonly Diagnostic[], first: number, options: Pick<JunitOptions, 'started' | 'hostname'>): string[] {
  const files = [...new Set(warnings.map((d) => d.file ?? 'docket test'))];
  return files.flatMap((file, i) => {
    const own = warnings.filter((d) => (d.file ?? 'docket test') === file);
    return [
      suiteTag({ file, id: first + i, name: `${file} warnings`, tests: own.length, failures: own.length, errors: 0, skipped: 0, time: '0.000' }, options),
      '    <properties/>',
      ...own.flatMap((d) => [
        `    <testcase name="${xmlAttr(`${where(d) || 'configuration'} ${d.code}`)}" classname="docket test" time="0.000">`,
        `      <failure message="${xmlAttr(`${d.message} (--fail-on-warn)`)}" type="${xmlAttr(d.code)}">${xmlText([`${where(d)}${where(d) ? ' ' : ''}warning ${d.code} ${d.message}`, ...(d.hint ? [`hint: ${d.hint}`] : [])].join('\n'))}</failure>`,
        '    </testcase>',
      ]),
      '    <system-out></system-out>',
      '    <system-err></system-err>',
      '  </testsuite>',
    ];
  });
}

/** Where a diagnostic points, as the text output says it (`file:line:col`, or the file, or nothing). */
function where(d: Diagnostic): string {
  return [d.file, d.line, d.col].filter((p) => p !== undefined).join(':');
}

/**
 * The report of a run that could not start: a suite per file with errors, a case per error (its
 * name is where it is), each an `error`; an error about no file is one case of a `docket test` suite.
 */
export function renderErrorJunit(error: ErrorJson, options: Pick<JunitOptions, 'started' | 'hostname'>): string {
  const errors = error.diagnostics.filter((d) => d.severity === 'error');
  const cases: { suite: string; name: string; message: string; type: string; text: string }[] =
    errors.length > 0
      ? errors.map((d) => ({ suite: d.file ?? 'docket test', name: `${where(d) || 'configuration'} ${d.code}`, message: d.message, type: d.code, text: [`${where(d)}${where(d) ? ' ' : ''}error ${d.code} ${d.message}`, ...(d.hint ? [`hint: ${d.hint}`] : [])].join('\n') }))
      : [{ suite: 'docket test', name: 'docket test could not run', message: error.error.message, type: error.error.code, text: [error.error.message, ...(error.error.hint ? [`hint: ${error.error.hint}`] : [])].join('\n') }];
  const suites = [...new Set(cases.map((c) => c.suite))];
  const lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<testsuites>'];
  suites.forEach((suite, id) => {
    const own = cases.filter((c) => c.suite === suite);
    lines.push(
      suiteTag({ file: suite, id, name: suite, tests: own.length, failures: 0, errors: own.length, skipped: 0, time: '0.000' }, options),
      '    <properties/>',
      ...own.flatMap((c) => [`    <testcase name="${xmlAttr(c.name)}" classname="docket test" time="0.000">`, `      <error message="${xmlAttr(c.message)}" type="${xmlAttr(c.type)}">${xmlText(c.text)}</error>`, '    </testcase>']),
      `    <system-out>${xmlText(error.error.message)}</system-out>`,
      '    <system-err></system-err>',
      '  </testsuite>',
    );
  });
  lines.push('</testsuites>');
  return `${lines.join('\n')}\n`;
}
