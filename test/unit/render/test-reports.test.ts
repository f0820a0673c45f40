/**
 * The test reports: JUnit XML valid against the Apache Ant JUnit schema, the PR comment escaped
 * and kept under its size limit, annotations at the test file's lines.
 */
import { validateXML } from 'xmllint-wasm';
import { describe, expect, it } from 'vitest';
import { renderTestAnnotations } from '../../../src/render/test-annotations.js';
import { errorJson } from '../../../src/render/json.js';
import { renderTestErrorJson, renderTestJson } from '../../../src/render/test-json.js';
import { renderErrorJunit, renderTestJunit } from '../../../src/render/test-junit.js';
import { ConfigError, DocketError } from '../../../src/errors.js';
import { renderTestMarkdown } from '../../../src/render/test-markdown.js';
import { renderTestText } from '../../../src/render/test-text.js';
import type { CaseOutcome, TestReport } from '../../../src/testing/types.js';
import { antJunitSchema, antJunitSchemaAsShipped, junitErrors, testReportErrors } from '../../helpers/test-reports.js';

const at = (line: number) => ({ file: 'tests/nda.test.yaml', line, col: 7 });
const kase = (name: string, status: CaseOutcome['status'], extra: Partial<CaseOutcome> = {}): CaseOutcome => ({
  name,
  at: at(4),
  status,
  runs: 1,
  passedRuns: status === 'fail' ? 0 : 1,
  passRate: 1,
  evidence: [],
  expectations: [{ label: 'redline "Governing law" in {reject, needs_review}', severity: 'error', at: at(9), held: status === 'fail' ? 0 : 1, runs: 1, got: 'accept' }],
  ...extra,
});

const report: TestReport = {
  target: 'local emulator',
  notes: [],
  suites: [
    {
      kind: 'PlaybookTest',
      file: 'tests/nda.test.yaml',
      subject: 'Inbound NDA',
      digest: 'a'.repeat(64),
      notes: [],
      cases: [
        kase('passes <b>&</b> @team #12 | pipe', 'pass'),
        kase('fails', 'fail'),
        kase('flaky', 'flaky', { runs: 3, passedRuns: 2, passRate: 0.6, expectations: [{ label: 'flag "Term"', severity: 'error', at: at(9), held: 2, runs: 3, got: 'no flags' }] }),
        kase('errs', 'error', { reason: 'review failed: \u0007bell' }),
        kase('skips', 'skipped', { reason: 'not in the cache' }),
      ],
    },
  ],
};

describe('JUnit', () => {
  it('is valid against the Ant JUnit schema (with `skipped`, which its later revision added), with a suite per test file and a case per case', async () => {
    const xml = renderTestJunit(report, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci' });
    const schema = await antJunitSchema();
    expect(schema).toContain('name="skipped"');
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: schema }] });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(xml).toContain('<testsuite package="tests/nda.test.yaml" id="0" name="Inbound NDA"');
    expect(xml).toContain('tests="5" failures="1" errors="1" skipped="1"');
    expect(xml).toContain('<skipped message="not in the cache"/>');
    expect(xml).toContain('expected redline "Governing law" in {reject, needs_review}, got accept');
    expect(xml).not.toContain('\u0007');
  });

  it("gives each case its own time when the run measured it, and the suite their sum, not the run's time split evenly", () => {
    const timedCases = [kase('slow', 'pass', { ms: 1234 }), kase('fast', 'pass', { ms: 20 }), kase('never ran', 'skipped')];
    const xml = renderTestJunit({ ...report, suites: [{ ...report.suites[0]!, cases: timedCases }] }, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci' });
    expect(xml).toContain('<testcase name="slow" classname="PlaybookTest.Inbound NDA" time="1.234"');
    expect(xml).toContain('<testcase name="fast" classname="PlaybookTest.Inbound NDA" time="0.020"');
    // One that never ran took none.
    expect(xml).toContain('<testcase name="never ran" classname="PlaybookTest.Inbound NDA" time="0.000"');
    expect(xml).toMatch(/tests="3"[^>]* time="1.254">/);
  });

  it('shows service text with terminal escapes removed and direction overrides named, as text and markdown do', () => {
    const evil = kase('fails', 'fail', { expectations: [{ label: 'redline "Residuals"', severity: 'error', at: at(9), held: 0, runs: 1, got: 'commentary "memory \u001b[31mRED\u001b[0m rtl\u202e evil"' }] });
    const xml = renderTestJunit({ ...report, suites: [{ ...report.suites[0]!, cases: [evil] }] }, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci' });
    expect(xml).toContain('got commentary "memory RED rtl&lt;U+202E&gt; evil"');
    expect(xml).not.toMatch(/[\u001b\u202e]/);
  });
  it('counts the warn-level expectations a failed case lists apart from the failed ones (probe IR-2)', () => {
    const both = kase('fails', 'fail', { expectations: [...kase('x', 'fail').expectations, { label: 'flag "Term"', severity: 'warn', at: at(12), held: 0, runs: 1, got: 'no flags' }] });
    const xml = renderTestJunit({ ...report, suites: [{ ...report.suites[0]!, cases: [both] }] }, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci' });
    expect(xml).toContain('<failure message="1 expectation(s) failed, and 1 warn-level expectation(s) not held" type="expectation">');
    expect(xml).toContain('tests/nda.test.yaml:12:7 [warn] expected flag "Term", got no flags');
    const one = renderTestJunit({ ...report, suites: [{ ...report.suites[0]!, cases: [kase('fails', 'fail')] }] }, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci' });
    expect(one).toContain('<failure message="1 expectation(s) failed" type="expectation">');
  });

  it('with --fail-on-warn, warned and flaky cases are failures too, as they fail the run', async () => {
    const warned = kase('warns', 'warn', { expectations: [{ label: 'flag "Term"', severity: 'warn', at: at(12), held: 0, runs: 1, got: 'no flags' }] });
    const suites = [{ ...report.suites[0]!, cases: [report.suites[0]!.cases[0]!, report.suites[0]!.cases[2]!, warned] }];
    const strict = renderTestJunit({ ...report, suites }, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci', failOnWarn: true });
    expect(strict).toContain('tests="3" failures="2" errors="0"');
    expect(strict).toContain('<failure message="flaky: 2 of 3 runs passed (--fail-on-warn)" type="flaky">');
    expect(strict).toContain('type="warn">tests/nda.test.yaml:12:7 [warn] expected flag "Term", got no flags</failure>');
    // No case skipped: valid against Ant's schema as it ships, which has no `skipped`.
    expect(strict).not.toContain('skipped');
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: strict }], schema: [{ fileName: 'junit.xsd', contents: await antJunitSchemaAsShipped() }] });
    expect(result.errors).toEqual([]);
    // Without it they pass, and say so.
    const lenient = renderTestJunit({ ...report, suites }, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci' });
    expect(lenient).toContain('tests="3" failures="0" errors="0"');
    expect(lenient).toContain('warns: warn');
  });

  it("with --fail-on-warn, the test files' warnings are failures too, a suite per file, valid against the schema", async () => {
    const warning = { severity: 'warning' as const, code: 'unknown-outcome', message: 'outcome "rejectt" is none of accept, reject', file: 'tests/nda.test.yaml', line: 10, col: 23, hint: 'kept as written' };
    const started = new Date('2026-11-24T10:00:00Z');
    const strict = renderTestJunit({ ...report, warnings: [warning] }, { started, hostname: 'ci', failOnWarn: true });
    expect(strict).toContain('<testsuite package="tests/nda.test.yaml" id="1" name="tests/nda.test.yaml warnings"');
    expect(strict).toContain('tests="1" failures="1" errors="0"');
    expect(strict).toContain('<testcase name="tests/nda.test.yaml:10:23 unknown-outcome" classname="docket test" time="0.000">');
    expect(await junitErrors(strict, { withSkipped: true })).toEqual([]);
    expect(renderTestJunit({ ...report, warnings: [warning] }, { started, hostname: 'ci' })).not.toContain('unknown-outcome');
  });

  it('says why when the run could not start: an error per problem at its file:line, or the one error', async () => {
    const started = new Date('2026-11-24T10:00:00Z');
    const invalid = errorJson(new ConfigError([{ severity: 'error', code: 'unknown-playbook', message: 'no Playbook named "Inbound NDAA" <is> declared', file: 'tests/nda.test.yaml', line: 2, col: 11, hint: 'did you mean `Inbound NDA`?' }, { severity: 'warning', code: 'unknown-outcome', message: 'kept', file: 'tests/nda.test.yaml', line: 9, col: 3 }, { severity: 'error', code: 'duplicate-case', message: 'case "a" is named twice', file: 'tests/b.test.yaml', line: 7, col: 11 }], 'the test files are invalid'));
    const xml = renderErrorJunit(invalid, { started, hostname: 'ci' });
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<testsuite package="tests/nda.test.yaml" id="1" name="tests/nda.test.yaml" timestamp="2026-11-24T10:00:00" hostname="ci" tests="1" failures="0" errors="1"');
    expect(xml).toContain('<error message="no Playbook named &quot;Inbound NDAA&quot; &lt;is&gt; declared" type="unknown-playbook">tests/nda.test.yaml:2:11 error unknown-playbook');
    expect(xml).toContain('<testcase name="tests/b.test.yaml:7:11 duplicate-case"');
    expect(xml).not.toContain('unknown-outcome');
    const down = renderErrorJunit(errorJson(new DocketError('network', 'review service GET /v1/playbooks failed with no response', 'check the URL')), { started, hostname: 'ci' });
    expect(await junitErrors(down)).toEqual([]);
    expect(down).toContain('<testcase name="docket test could not run" classname="docket test" time="0.000">');
    expect(down).toContain('<error message="review service GET /v1/playbooks failed with no response" type="network">');
  });

  it('the schema catches a broken report (the check can fail)', async () => {
    const xml = renderTestJunit(report, { started: new Date(), hostname: 'ci' }).replace(' hostname="ci"', '');
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: await antJunitSchema() }] });
    expect(result.valid).toBe(false);
  });
});

describe('the JSON report', () => {
  it('keeps names and service text as written, escaping only what JSON readers must not meet raw', () => {
    const evil = kase('huge \u202e evil', 'fail', { expectations: [{ label: 'redline "R"', severity: 'error', at: at(9), held: 0, runs: 1, got: 'bell\u0007 c1\u009b rtl\u202e' }] });
    const text = renderTestJson({ ...report, suites: [{ ...report.suites[0]!, cases: [evil] }] }, true);
    const doc = JSON.parse(text) as { suites: { cases: { name: string; expectations: { got: string }[] }[] }[] };
    expect(doc.suites[0]!.cases[0]!.name).toBe('huge \u202e evil');
    expect(doc.suites[0]!.cases[0]!.expectations[0]!.got).toBe('bell\u0007 c1\u009b rtl\u202e');
    expect(text).not.toMatch(/[\u0007\u009b]/);
  });

  it("holds the test files' warnings as diagnostics, valid against the schema", async () => {
    const warning = { severity: 'warning' as const, code: 'unknown-outcome', message: 'outcome "rejectt" is none of accept, reject', file: 'tests/nda.test.yaml', line: 10, col: 23 };
    const doc = JSON.parse(renderTestJson({ ...report, warnings: [warning] }, false)) as Record<string, unknown>;
    expect(doc.diagnostics).toEqual([warning]);
    expect(await testReportErrors(doc)).toEqual([]);
    expect(JSON.parse(renderTestJson(report, false))).not.toHaveProperty('diagnostics');
  });
});

describe('the JSON report of a run that could not start', () => {
  it('is a report (no suites, not ok) holding the error, valid against the schema', async () => {
    const doc = JSON.parse(renderTestErrorJson(errorJson(new DocketError('missing-api-key', 'no API key for the review service', 'set DOCKET_REVIEW_API_KEY')))) as Record<string, unknown>;
    expect(await testReportErrors(doc)).toEqual([]);
    expect(doc).toMatchObject({ ok: false, suites: [], summary: { cases: 0 }, error: { code: 'missing-api-key', message: 'no API key for the review service', exit_code: 1 }, diagnostics: [] });
    // A source line quoted from a test file cannot drive the terminal that shows the JSON.
    const quoted = renderTestErrorJson(errorJson(new ConfigError([{ severity: 'error', code: 'x', message: 'y', file: 'tests/a.test.yaml', line: 1, col: 1 }]), () => 'name: \u009b31m'));
    expect(quoted).toContain('"excerpt": "name: \\u009b31m"');
    // The schema can fail: the common error document is not a test report.
    expect(await testReportErrors(errorJson(new DocketError('usage', 'x')))).not.toEqual([]);
  });
});

describe('the pull-request comment', () => {
  it('shows a case × expectation matrix with user text escaped', () => {
    const md = renderTestMarkdown(report);
    expect(md).toContain('| case | result | redline "Governing law" in {reject, needs\\_review} | flag "Term" |');
    expect(md).toContain('passes &lt;b&gt;&amp;&lt;/b&gt; @&#8203;team #&#8203;12 \\| pipe');
    expect(md).toContain('| fails | ❌ | ❌ | – |');
    expect(md).toContain('| flaky | 🔀 | – | 🔀 2/3 |');
    // A case that could not run, or was not replayed, marks only its own expectations.
    expect(md).toContain('| errs | 💥 | 💥 | – |');
    expect(md).toContain('| skips | ⏭️ | ⏭️ | – |');
    expect(md).toContain('expected redline "Governing law" in {reject, needs\\_review}, got accept');
    expect(md).not.toContain('\u0007');
  });
  it('flags the emulator as the plan\'s comment does, with an environment too (probe UH-2)', () => {
    expect(renderTestMarkdown(report)).toContain('**Target:** ⚠️ **local emulator** (not the live services)\n');
    expect(renderTestMarkdown({ ...report, target: 'local emulator · environment staging' })).toContain('**Target:** ⚠️ **local emulator** (not the live services) · **Environment:** `staging`\n');
    expect(renderTestMarkdown({ ...report, target: 'review https://x.example' })).toContain('**Target:** `review https://x.example`\n');
  });
  it('marks what prints as nothing or as a space in the text report, in case names and quoted values, as the markdown does (probe UA-2)', () => {
    const invisible = kase('zero\u200bwidth and\u00a0nbsp', 'fail', { expectations: [{ label: 'position summary contains "zz\u200bzz"', severity: 'error', at: at(9), held: 0, runs: 1, got: 'no position' }] });
    const text = renderTestText({ ...report, suites: [{ ...report.suites[0]!, cases: [invisible] }] }, { color: false });
    expect(text).toContain('FAIL  zero<U+200B>width and<U+00A0>nbsp');
    expect(text).toContain('expected position summary contains "zz<U+200B>zz", got no position');
    expect(text).not.toMatch(/[\u200b\u00a0]/);
    expect(renderTestMarkdown({ ...report, suites: [{ ...report.suites[0]!, cases: [invisible] }] })).toContain('zz&lt;U+200B&gt;zz');
  });

  it('bolds a case name that ends in white space, which `**x **` would not (probe SJ-3)', () => {
    const md = renderTestMarkdown({ ...report, suites: [{ ...report.suites[0]!, cases: [kase('padded  ', 'fail')] }] });
    expect(md).toContain('- **padded&#32;&#32;** (');
    expect(md).not.toMatch(/\*\*padded\s+\*\*/);
  });
  it('with --fail-on-warn, says that warned and flaky cases failed the run, in the comment and the text summary', () => {
    const warned = kase('warns', 'warn', { expectations: [{ label: 'flag "Term"', severity: 'warn', at: at(12), held: 0, runs: 1, got: 'no flags' }] });
    const lenient = { ...report, suites: [{ ...report.suites[0]!, cases: [report.suites[0]!.cases[0]!, report.suites[0]!.cases[2]!, warned] }] };
    const strict = renderTestMarkdown(lenient, { failOnWarn: true });
    expect(strict).toContain('**❌ Failed:** `--fail-on-warn` fails the run on 1 case with warnings and 1 flaky case.');
    expect(renderTestMarkdown(lenient)).not.toContain('Failed:');
    expect(renderTestText(lenient, { color: false, failOnWarn: true })).toContain('3 cases: 1 passed, 1 flaky, 1 with warnings. Failed: --fail-on-warn fails the run on 1 case with warnings and 1 flaky case.\n');
    expect(renderTestText(lenient, { color: false })).toContain('3 cases: 1 passed, 1 flaky, 1 with warnings.\n');
    // Nothing it turned into a failure: nothing said.
    expect(renderTestText({ ...report, suites: [{ ...report.suites[0]!, cases: [report.suites[0]!.cases[0]!] }] }, { color: false, failOnWarn: true })).toContain('1 case: 1 passed.\n');
  });
  it("hides a URL's secrets in names, as every other report does: text and JUnit", () => {
    const named = { ...report, suites: [{ ...report.suites[0]!, subject: 'Vendor https://bob:pw1@v.example/x?tok=Q1#F1', cases: [kase('case https://c:pw2@c.example/?q=Q2', 'fail')] }] };
    const text = renderTestText(named, { color: false });
    const xml = renderTestJunit(named, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci' });
    for (const out of [text, xml]) expect(out).not.toMatch(/pw1|pw2|Q1|Q2|F1/);
    expect(text).toContain('"Vendor https://***@v.example/x?…#…"');
  });
  it('shows before → after with --compare-to', () => {
    const suite = report.suites[0]!;
    const md = renderTestMarkdown({ ...report, compareTo: 'origin/main', suites: [{ ...suite, before: { ref: 'origin/main', cases: suite.cases.map((c) => ({ ...c, status: 'pass' as const })) } }] });
    expect(md).toContain('| fails | ✅ → ❌ |');
    // Why the ref's side could not run is said beside today's result, in text and markdown (probe PA-3).
    const erred = { ...report, compareTo: 'origin/main', suites: [{ ...suite, before: { ref: 'origin/main', cases: suite.cases.map((c) => ({ ...c, status: 'error' as const, reason: 'review r-1 was still processing when the time budget ran out' })) } }] };
    expect(renderTestText(erred, { color: false })).toContain('      at origin/main: review r-1 was still processing when the time budget ran out\n');
    expect(renderTestMarkdown(erred)).toContain('at origin/main: review r-1 was still processing when the time budget ran out');
  });
  it('stays under 60,000 characters with a note when cut', () => {
    const many = Array.from({ length: 4000 }, (_, i) => kase(`case ${i} ${'x'.repeat(40)}`, i % 2 ? 'fail' : 'pass'));
    const md = renderTestMarkdown({ ...report, suites: [{ ...report.suites[0]!, cases: many }] });
    expect(md.length).toBeLessThan(60_000);
    expect(md).toContain('This comment was cut');
    expect((md.match(/<details/g) ?? []).length).toBe((md.match(/<\/details>/g) ?? []).length);
    expect(renderTestMarkdown(report).length).toBeLessThan(60_000);
    expect(renderTestMarkdown(report)).not.toContain('was cut');
  });
  it('when cut, keeps every failing row (with its details while they fit) before passing ones, filling the budget (probe HM-4)', () => {
    const name = (i: number) => `case ${i} ${'n'.repeat(140)}`;
    const cases = (n: number) => Array.from({ length: n }, (_, i) => kase(name(i), i % 3 === 2 ? 'fail' : 'pass'));
    const rowOf = (i: number) => `| ${name(i)} |`;
    // Details fit with the failing rows: passing rows go, and the comment uses most of its budget.
    const some = renderTestMarkdown({ ...report, suites: [{ ...report.suites[0]!, cases: cases(400) }] });
    expect(some).toContain('some passing rows are left out');
    expect(some.length).toBeLessThan(60_000);
    expect(some.length).toBeGreaterThan(55_000);
    for (let i = 2; i < 400; i += 3) expect(some, `row ${i}`).toContain(rowOf(i));
    expect(some).toContain(`**${name(398)}** (tests/nda.test.yaml:9): expected redline`);
    expect(some).toContain(rowOf(0));
    expect(some).not.toContain(rowOf(399));
    // Too many failures for all their details: every failing row, no passing one, and the details that fit (probe HR-5).
    const more = renderTestMarkdown({ ...report, suites: [{ ...report.suites[0]!, cases: cases(900) }] });
    expect(more).toContain('failure details and some rows are left out');
    expect(more.length).toBeLessThan(60_000);
    expect(more.length).toBeGreaterThan(55_000);
    for (let i = 2; i < 900; i += 3) expect(more, `row ${i}`).toContain(rowOf(i));
    expect(more).not.toContain(rowOf(0));
    expect(more).toContain(`**${name(2)}** (tests/nda.test.yaml:9): expected redline`);
    expect(more).toMatch(/_…and \d+ more failure details?, left out to keep this comment under the size limit\._/);
    // Too many failures for their rows: as many failing rows as fit, no details.
    const most = renderTestMarkdown({ ...report, suites: [{ ...report.suites[0]!, cases: cases(1500) }] });
    expect(most.length).toBeLessThan(60_000);
    expect(most).not.toContain('expected redline');
    expect(most).toContain(rowOf(2));
    expect(most).not.toContain(rowOf(0));
    // Across test files: a small file's passing rows go before a large file's failing ones (probe JB-1).
    const small = { ...report.suites[0]!, file: 'tests/small.test.yaml', cases: [kase('small passes 1', 'pass'), kase('small passes 2', 'pass'), kase('small fails', 'fail')] };
    const large = { ...report.suites[0]!, file: 'tests/large.test.yaml', cases: Array.from({ length: 1500 }, (_, i) => kase(name(i), 'fail')) };
    const both = renderTestMarkdown({ ...report, suites: [large, small] });
    expect(both.length).toBeLessThan(60_000);
    expect(both).not.toContain('| small passes 1 |');
    expect(both).toContain('| small fails |');
    expect(both).toContain('tests/small.test.yaml · 3 cases, 1 not passing');
    // A file whose rows all went: no table left with a header and no rows, which GitHub draws empty (probe RG-3).
    const passing = { ...report.suites[0]!, file: 'tests/passing.test.yaml', cases: [kase('passes 1', 'pass'), kase('passes 2', 'pass')] };
    const emptied = renderTestMarkdown({ ...report, suites: [large, passing] });
    const section = emptied.slice(emptied.indexOf('tests/passing.test.yaml'));
    expect(section.slice(0, section.indexOf('</details>'))).toMatch(/<\/summary>\n\n_2 cases, left out to keep this comment under the size limit\._\n/);
    expect(emptied).not.toMatch(/\|---\|[^\n]*\n(?!\|)/);
  });

  it('cuts the test files\' warnings to half the comment before a failing case loses its row or its detail (probe GE-2)', () => {
    const warnings = Array.from({ length: 2000 }, (_, i) => ({ file: 'tests/nda.test.yaml', line: i + 1, col: 3, severity: 'warning' as const, code: 'unknown-key', message: `values: ${JSON.stringify(`field_${i}`)} is no field of the template` }));
    const md = renderTestMarkdown({ ...report, warnings, suites: [{ ...report.suites[0]!, cases: [kase('fails', 'fail')] }] });
    expect(md.length).toBeLessThan(60_000);
    expect(md).toContain('| fails |');
    expect(md).toContain('**fails** (tests/nda.test.yaml:9): expected redline');
    expect(md).toContain('`tests/nda.test.yaml:1` values: "field\\_0" is no field of the template');
    expect(md).toMatch(/- _… and [\d,]+ more warnings not listed: the job log has them all_/);
    const listed = md.split('\n').filter((l) => l.startsWith('- ⚠️')).join('\n');
    expect(listed.length).toBeLessThanOrEqual(30_000);
    expect(listed.length).toBeGreaterThan(25_000);
  });

  it('when cut, keeps only the columns and legend lines of the rows it shows: each failing case its own expectation (probe MZ-3)', () => {
    const own = (i: number): CaseOutcome => kase(`case ${i}`, 'fail', { expectations: [{ label: `summary contains "zzz ${i}"`, severity: 'error', at: at(9), held: 0, runs: 1, got: 'nothing' }] });
    const md = renderTestMarkdown({ ...report, suites: [{ ...report.suites[0]!, cases: Array.from({ length: 400 }, (_, i) => own(i)) }] });
    expect(md.length).toBeLessThan(60_000);
    const rows = md.split('\n').filter((l) => /^\| case \d+ \|/.test(l));
    // Far more than the 22 rows of 400 columns each that fit before.
    expect(rows.length).toBeGreaterThan(100);
    const legend = md.split('\n').filter((l) => /^\d+\. summary contains/.test(l));
    expect(legend).toHaveLength(rows.length);
    expect(rows[0]!.split(' | ')).toHaveLength(2 + rows.length);
  });
});

describe('annotations', () => {
  it('point at the line of the failing expectation, relative to the repository', () => {
    const text = renderTestAnnotations(report, { pathPrefix: 'config' });
    expect(text).toContain('::error file=config/tests/nda.test.yaml,line=9,title=docket test failed::Inbound NDA / fails: expected redline "Governing law" in {reject, needs_review}, got accept');
    expect(text).toContain('::warning file=config/tests/nda.test.yaml,line=9,title=docket test flaky::');
    expect(text).toContain('::error file=config/tests/nda.test.yaml,line=4,title=docket test could not run::Inbound NDA / errs: review failed: bell');
    expect(text).not.toContain('skips');
  });
});
