/** `docket test capture` names rules as the files name them now (a former name maps to today's), and writes no case validate would refuse. */
import { afterAll, describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expectationsOf, refuseUnreadableCase, todaysNames, writeCapture } from '../../../src/testing/capture.js';
import type { ReviewFacts } from '../../../src/testing/types.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';
import { DocketError } from '../../../src/errors.js';
import type { SubjectRule } from '../../../src/kinds/support/test-subjects.js';

const rule = (name: string, formerNames?: string[]): SubjectRule => ({ name, description: null, actions: null, questions: null, generate_summary: true, ...(formerNames ? { formerNames } : {}) });

describe('todaysNames', () => {
  it('maps each former name to the rule that lists it, the first to claim it, in any letter case', () => {
    expect([...todaysNames([rule('Duration', ['Term', 'Length']), rule('Span', ['term'])])]).toEqual([
      ['term', 'Duration'],
      ['length', 'Duration'],
    ]);
  });

  it('leaves a former name that a rule of the files has today (B renamed from A, beside a new A)', () => {
    expect([...todaysNames([rule('B', ['A']), rule('A')])]).toEqual([]);
  });
});

describe('refuseUnreadableCase', () => {
  const playbook = { name: 'Inbound NDA', rules: [rule('Term'), rule('Governing law')] };
  const made = (expect: Record<string, unknown>) => ({ playbook: 'Inbound NDA', case: { name: 'c', contract: { imported_file: 'f', sha256: 'a'.repeat(64) }, review_type: 'SummaryReview', expect } });

  it('takes a case naming only rules of the playbook, in any letter case', () => {
    expect(() => refuseUnreadableCase(made({ redlines: [{ topic: 'governing LAW', evaluation: { in: ['ok'] } }], flags: { includes: ['Term'] } }), playbook, 'r1', [])).not.toThrow();
  });

  it('refuses one naming rules the playbook does not have: --playbook named another than the review\'s (probe KO-3)', () => {
    const err = (() => {
      try {
        refuseUnreadableCase(made({ redlines: [{ topic: 'Non-solicitation' }], flags: { excludes: ['Term', 'Residuals'] } }), playbook, 'r1', []);
      } catch (e) {
        return e as DocketError;
      }
      return undefined;
    })();
    expect([err?.code, err?.message]).toEqual(['unknown-rule', 'review r1 names rules "Non-solicitation", "Residuals" that playbook "Inbound NDA" does not have: validate would refuse the case; nothing was written']);
  });

  it('refuses one holding an API key, as a rule renamed with it in the app would write it into git (probe KO-1)', () => {
    const key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
    const run = () => refuseUnreadableCase(made({ flags: { includes: [`Term ${key}`] } }), { ...playbook, rules: [rule(`Term ${key}`)] }, 'r1', [['DOCKET_API_KEY', key]]);
    expect(run).toThrow(DocketError);
    expect(run).toThrow(/hold the value of DOCKET_API_KEY, an API key .*nothing was written/);
    expect(run).not.toThrow(new RegExp(key));
  });
});

afterAll(removeMadeDirs);

describe('a captured case of a playbook whose rules differ only in letter case (second read SR103-2, SR103-4, SR103-5)', () => {
  it('keeps the evaluations of Term and TERM apart', () => {
    const facts: ReviewFacts = {
      review_id: 'rv',
      review_type: 'RedlineReview',
      redlines: [
        { topic: 'Term', rule: 'Term', evaluation: 'accept', commentary: null },
        { topic: 'TERM', rule: 'TERM', evaluation: 'reject', commentary: null },
      ],
      flags: [],
      positions: [],
    };
    expect(expectationsOf(facts).redlines).toEqual([
      { topic: 'Term', evaluation: { in: ['accept'] } },
      { topic: 'TERM', evaluation: { in: ['reject'] } },
    ]);
  });

  it('replaces the file whole or not at all: a write that fails leaves it as it was, said as the file that could not be written (probe HC-2)', async () => {
    const before = 'kind: PlaybookTest\nplaybook: NDA\ncases:\n  - name: one\n    contract: { file: c.txt }\n';
    const dir = await makeDir({ 'a.test.yaml': before, 'blocked': 'a file where the copy\'s folder goes' });
    const path = join(dir, 'a.test.yaml');
    const failed = writeCapture(path, { playbook: 'NDA', case: { name: 'two', contract: { file: 'c.txt' } } }, { shown: 'tests/a.test.yaml', tempDir: join(dir, 'blocked', 'tmp') });
    await expect(failed).rejects.toMatchObject({ code: 'file-write-failed', message: expect.stringMatching(/^tests\/a\.test\.yaml could not be written \(/) });
    expect(await readFile(path, 'utf8')).toBe(before);
    expect(await writeCapture(path, { playbook: 'NDA', case: { name: 'two', contract: { file: 'c.txt' } } }, { tempDir: join(dir, '.docket') })).toBe('appended');
    expect(await readFile(path, 'utf8')).toMatch(/^kind: PlaybookTest\nplaybook: NDA\ncases:\n  - name: one\n    contract: \{ file: c\.txt \}\n  - name: two\n/);
  });

  it('appends a suite to a file of lone CRs in lone CRs, and to the suite of the playbook named exactly', async () => {
    const dir = await makeDir({ 'a.test.yaml': 'kind: PlaybookTest\rplaybook: NDA\rcases:\r  - name: one\r    contract: { file: c.txt }\r' });
    const path = join(dir, 'a.test.yaml');
    expect(await writeCapture(path, { playbook: 'nda', case: { name: 'two', contract: { file: 'c.txt' } } })).toBe('appended');
    const text = await readFile(path, 'utf8');
    expect(text).not.toContain('\n');
    expect(text).toContain('\r---\rkind: PlaybookTest\rplaybook: nda\r');
  });
});
