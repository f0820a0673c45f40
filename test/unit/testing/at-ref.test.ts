import { describe, expect, it } from 'vitest';
import type { PlaybookSubject, SubjectRule } from '../../../src/kinds/support/test-subjects.js';
import { factsNamedToday, playbookAtRef } from '../../../src/testing/at-ref.js';

const rule = (name: string, actions: string, formerNames?: string[]): SubjectRule => ({ name, description: null, actions, questions: null, generate_summary: true, ...(formerNames ? { formerNames } : {}) });
const playbook = (name: string, rules: SubjectRule[], formerNames?: string[]): PlaybookSubject => ({ name, rules, ...(formerNames ? { formerNames } : {}) });

describe('playbookAtRef', () => {
  const then = new Map([['NDA', playbook('NDA', [rule('Term', 'ACCEPT 2 years'), rule('Law', 'German law')])]]);

  it('finds a playbook renamed since under its former name, reviewed as it was, and reads what its review says of a renamed rule under its name of today', () => {
    const now = playbook('Mutual NDA', [rule('Duration', 'ACCEPT 3 years', ['Term']), rule('Law', 'German law')], ['NDA']);
    const old = playbookAtRef('Mutual NDA', now, then)!;
    // The rule's name is part of what the reviewer reads: the ref's playbook is reviewed unchanged.
    expect(old.subject).toEqual(then.get('NDA'));
    expect([...old.renamed]).toEqual([['Term', 'Duration']]);
    const facts = {
      review_id: 'r', review_type: 'SummaryReview', positions: [],
      flags: [{ rule: 'Term', text: 'Term', decision: null }, { rule: 'Law', text: 'x', decision: null }, { rule: null, text: 'y', decision: null }],
      redlines: [{ topic: 'Term', rule: 'Term', evaluation: 'ok', commentary: null }, { topic: 'Other', rule: null, evaluation: null, commentary: null }],
    };
    expect(factsNamedToday(facts, old.renamed)).toEqual({
      ...facts,
      flags: [{ rule: 'Duration', text: 'Term', decision: null }, { rule: 'Law', text: 'x', decision: null }, { rule: null, text: 'y', decision: null }],
      redlines: [{ topic: 'Duration', rule: 'Duration', evaluation: 'ok', commentary: null }, { topic: 'Other', rule: null, evaluation: null, commentary: null }],
    });
  });

  it('takes the playbook of the same name first, and renames no rule onto a name the ref had too', () => {
    const now = playbook('NDA', [rule('Law', 'Swiss law', ['Term'])]);
    expect(playbookAtRef('NDA', now, then)).toEqual({ subject: then.get('NDA'), renamed: new Map() });
    expect(playbookAtRef('Other', playbook('Other', [], ['Gone']), then)).toBeUndefined();
  });

  it('follows a chain of rule renames: a rule renamed onto a name whose rule was renamed away too', () => {
    const chain = new Map([['NDA', playbook('NDA', [rule('Non-solicitation', 'x'), rule('Governing law', 'y'), rule('Term', 'z')])]]);
    const now = playbook('NDA', [rule('Hiring', 'x', ['Non-solicitation']), rule('Non-solicitation', 'y', ['Governing law']), rule('Term', 'z')]);
    expect([...playbookAtRef('NDA', now, chain)!.renamed]).toEqual([
      ['Non-solicitation', 'Hiring'],
      ['Governing law', 'Non-solicitation'],
    ]);
  });

  it('takes the former name first when the ref had both (two playbooks that swapped names)', () => {
    const both = new Map([...then, ['MSA', playbook('MSA', [rule('Cap', '12 months')])]]);
    expect(playbookAtRef('NDA', playbook('NDA', [], ['MSA']), both)?.subject.rules.map((r) => r.name)).toEqual(['Cap']);
  });
});
