/**
 * The test reports: JUnit XML valid against the Apache Ant JUnit schema, the PR comment escaped
 * and kept under its size limit, annotations at the test file's lines.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { validateXML } from 'xmllint-wasm';
import { describe, expect, it } from 'vitest';
import { renderTestAnnotations } from '../../../src/render/test-annotations.js';
import { renderTestJunit } from '../../../src/render/test-junit.js';
import { renderTestMarkdown } from '../../../src/render/test-markdown.js';
import type { CaseOutcome, TestReport } from '../../../src/testing/types.js';

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

/**
 * The Apache Ant JUnit schema (Windy Road's JUnit.xsd) as the junit-xml package ships it for its
 * own tests, with the `skipped` element and attribute that the schema's later revision added.
 */
async function antJunitSchema(): Promise<string> {
  const source = await readFile(join(dirname(createRequire(import.meta.url).resolve('junit-xml/package.json')), 'src/index.test.ts'), 'utf8');
  const literal = /const antJunitSchema = '((?:[^'\\]|\\.)*)';/.exec(source)![1]!.replace(/\\'/g, "'");
  return literal
    .replace('<xs:choice minOccurs="0"><xs:element name="error">', '<xs:choice minOccurs="0"><xs:element name="skipped"/><xs:element name="error">')
    .replace('<xs:attribute name="time" type="xs:decimal" use="required"><xs:annotation><xs:documentation xml:lang="en">Time taken (in seconds) to execute the tests in the suite', '<xs:attribute name="skipped" type="xs:int" use="optional"/><xs:attribute name="time" type="xs:decimal" use="required"><xs:annotation><xs:documentation xml:lang="en">Time taken (in seconds) to execute the tests in the suite');
}

describe('JUnit', () => {
  it('is valid against the Ant JUnit schema, with a suite per test file and a case per case', async () => {
    const xml = renderTestJunit(report, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci', seconds: 2.5 });
    const schema = await antJunitSchema();
    expect(schema).toContain('name="skipped"');
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: schema }] });
    expect(result.errors).toEqual([]);
    expect(result.valid).toBe(true);
    expect(xml).toContain('<testsuite package="tests/nda.test.yaml" id="0" name="Inbound NDA"');
    expect(xml).toContain('tests="5" failures="1" errors="1" skipped="1"');
    expect(xml).toContain('expected redline "Governing law" in {reject, needs_review}, got accept');
    expect(xml).not.toContain('\u0007');
  });
  it('with --fail-on-warn, warned and flaky cases are failures too, as they fail the run', async () => {
    const warned = kase('warns', 'warn', { expectations: [{ label: 'flag "Term"', severity: 'warn', at: at(12), held: 0, runs: 1, got: 'no flags' }] });
    const suites = [{ ...report.suites[0]!, cases: [report.suites[0]!.cases[0]!, report.suites[0]!.cases[2]!, warned] }];
    const strict = renderTestJunit({ ...report, suites }, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci', seconds: 1, failOnWarn: true });
    expect(strict).toContain('tests="3" failures="2" errors="0"');
    expect(strict).toContain('<failure message="flaky: 2 of 3 runs passed (--fail-on-warn)" type="flaky">');
    expect(strict).toContain('type="warn">tests/nda.test.yaml:12:7 [warn] expected flag "Term", got no flags</failure>');
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: strict }], schema: [{ fileName: 'junit.xsd', contents: await antJunitSchema() }] });
    expect(result.errors).toEqual([]);
    // Without it they pass, and say so.
    const lenient = renderTestJunit({ ...report, suites }, { started: new Date('2026-11-24T10:00:00Z'), hostname: 'ci', seconds: 1 });
    expect(lenient).toContain('tests="3" failures="0" errors="0"');
    expect(lenient).toContain('warns: warn');
  });

  it('the schema catches a broken report (the check can fail)', async () => {
    const xml = renderTestJunit(report, { started: new Date(), hostname: 'ci', seconds: 1 }).replace(' hostname="ci"', '');
    const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit.xsd', contents: await antJunitSchema() }] });
    expect(result.valid).toBe(false);
  });
});

describe('the pull-request comment', () => {
  it('shows a case × expectation matrix with user text escaped', () => {
    const md = renderTestMarkdown(report);
    expect(md).toContain('| case | result | redline "Governing law" in {reject, needs\\_review} | flag "Term" |');
    expect(md).toContain('passes &lt;b&gt;&amp;&lt;/b&gt; @&#8203;team #&#8203;12 \\| pipe');
    expect(md).toContain('| fails | ❌ | ❌ | – |');
    expect(md).toContain('| flaky | 🔀 | – | 🔀 2/3 |');
    expect(md).toContain('expected redline "Governing law" in {reject, needs\\_review}, got accept');
    expect(md).not.toContain('\u0007');
  });
  it('shows before → after with --compare-to', () => {
    const suite = report.suites[0]!;
    const md = renderTestMarkdown({ ...report, compareTo: 'origin/main', suites: [{ ...suite, before: { ref: 'origin/main', cases: suite.cases.map((c) => ({ ...c, status: 'pass' as const })) } }] });
    expect(md).toContain('| fails | ✅ → ❌ |');
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
