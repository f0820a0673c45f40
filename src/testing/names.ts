/**
 * Where a test document names what it tests, so `docket pull` can follow a rename made in the app:
 * its subject (`playbook:` of a PlaybookTest, `template:` of a TemplateTest) and the rules of that
 * playbook its expectations name (`redlines[].topic`, `flags.includes`, `flags.excludes`). Pure.
 */
import { isPlainObject } from '../util/plain.js';

export type TestKind = 'PlaybookTest' | 'TemplateTest';

export interface TestNames {
  test: TestKind;
  subject: { name: string; pointer: string };
  /** Names of the subject's parts (a playbook's rules), with where each is written. */
  parts: { name: string; pointer: string }[];
}

/** The names a test document writes; undefined for a document that is not a test (or not one docket can read). */
export function testNames(doc: unknown): TestNames | undefined {
  if (!isPlainObject(doc) || (doc.kind !== 'PlaybookTest' && doc.kind !== 'TemplateTest')) return undefined;
  const test: TestKind = doc.kind;
  const [subject, pointer] = test === 'PlaybookTest' ? [doc.playbook, '/playbook'] : [doc.template, '/template'];
  if (typeof subject !== 'string') return undefined;
  const parts: TestNames['parts'] = [];
  const cases = test === 'PlaybookTest' && Array.isArray(doc.cases) ? doc.cases : [];
  cases.forEach((c, i) => {
    const expect = isPlainObject(c) && isPlainObject(c.expect) ? c.expect : {};
    const at = `/cases/${i}/expect`;
    (Array.isArray(expect.redlines) ? expect.redlines : []).forEach((r, j) => {
      if (isPlainObject(r) && typeof r.topic === 'string') parts.push({ name: r.topic, pointer: `${at}/redlines/${j}/topic` });
    });
    const flags = isPlainObject(expect.flags) ? expect.flags : {};
    for (const list of ['includes', 'excludes'] as const) {
      (Array.isArray(flags[list]) ? flags[list] : []).forEach((name, j) => {
        if (typeof name === 'string') parts.push({ name, pointer: `${at}/flags/${list}/${j}` });
      });
    }
  });
  return { test, subject: { name: subject, pointer }, parts };
}
