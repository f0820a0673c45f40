/** `docket test capture` names rules as the files name them now: a former name maps to today's. */
import { describe, expect, it } from 'vitest';
import { todaysNames } from '../../../src/testing/capture.js';
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
