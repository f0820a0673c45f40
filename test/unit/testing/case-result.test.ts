/** A case's time in the reports: from its start to its result, none for a case that never ran (README, Reports). */
import { describe, expect, it } from 'vitest';
import { playbookCaseResult } from '../../../src/testing/case-result.js';
import type { PlaybookCase, ReviewFacts } from '../../../src/testing/types.js';

const at = { file: 't.test.yaml', line: 3, col: 5 };
const c: PlaybookCase = { name: 'c', at, contract: { file: 'c.txt', at }, reviewType: null, repeat: 1, passRate: 1, expectations: [] };
const NONE = new Map<string, string>();

describe('playbookCaseResult', () => {
  it('times a case that ran, reviews or an error after work began, from its start to its result', () => {
    expect(playbookCaseResult(c, { facts: [], replayed: 0 }, 1000, NONE, 1250).ms).toBe(250);
    expect(playbookCaseResult(c, { error: 'the review failed', evidence: ['r-1'] }, 1000, NONE, 1400)).toMatchObject({ status: 'error', ms: 400, evidence: ['r-1'] });
  });

  it('says a case replayed when all of its own runs came from the cache, though a case of the same key made more (probe IC-1)', () => {
    const facts = ['r-1', 'r-2', 'r-3', 'r-4'].map((review_id) => ({ review_id, flags: [], redlines: [], positions: [] }) as unknown as ReviewFacts);
    const two = { ...c, repeat: 2 };
    expect(playbookCaseResult(two, { facts, replayed: 2 }, 0, NONE, 0).source).toBe('cache');
    expect(playbookCaseResult({ ...c, repeat: 4 }, { facts, replayed: 2 }, 0, NONE, 0).source).toBe('mixed');
    expect(playbookCaseResult(two, { facts, replayed: 0 }, 0, NONE, 0).source).toBe('live');
  });

  it('gives a case that never ran no time: skipped, or stopped before any work for it (probe GW)', () => {
    const skipped = playbookCaseResult(c, { skipped: 'not in the cache' }, 1000, NONE, 1250);
    expect(skipped).toMatchObject({ status: 'skipped' });
    expect(skipped.ms).toBeUndefined();
    expect(playbookCaseResult(c, { error: 'cannot read c.txt: no such file', notRun: true }, 1000, NONE, 1250).ms).toBeUndefined();
  });
});
