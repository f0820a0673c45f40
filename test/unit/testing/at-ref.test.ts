import { describe, expect, it } from 'vitest';
import type { PlaybookSubject, SubjectRule } from '../../../src/kinds/support/test-subjects.js';
import { playbookAtRef } from '../../../src/testing/at-ref.js';

const rule = (name: string, actions: string, formerNames?: string[]): SubjectRule => ({ name, description: null, actions, questions: null, generate_summary: true, ...(formerNames ? { formerNames } : {}) });
const playbook = (name: string, rules: SubjectRule[], formerNames?: string[]): PlaybookSubject => ({ name, rules, ...(formerNames ? { formerNames } : {}) });

describe('playbookAtRef', () => {
  const then = new Map([['NDA', playbook('NDA', [rule('Term', 'ACCEPT 2 years'), rule('Law', 'German law')])]]);

  it('finds a playbook renamed since under its former name, its renamed rules under their names of today', () => {
    const now = playbook('Mutual NDA', [rule('Duration', 'ACCEPT 3 years', ['Term']), rule('Law', 'German law')], ['NDA']);
    expect(playbookAtRef('Mutual NDA', now, then)).toEqual(playbook('NDA', [rule('Duration', 'ACCEPT 2 years'), rule('Law', 'German law')]));
  });

  it('takes the playbook of the same name first, and renames no rule onto a name the ref had too', () => {
    const now = playbook('NDA', [rule('Law', 'Swiss law', ['Term'])]);
    expect(playbookAtRef('NDA', now, then)).toEqual(then.get('NDA'));
    expect(playbookAtRef('Other', playbook('Other', [], ['Gone']), then)).toBeUndefined();
  });

  it('takes the former name first when the ref had both (two playbooks that swapped names)', () => {
    const both = new Map([...then, ['MSA', playbook('MSA', [rule('Cap', '12 months')])]]);
    expect(playbookAtRef('NDA', playbook('NDA', [], ['MSA']), both)?.rules.map((r) => r.name)).toEqual(['Cap']);
  });
});
