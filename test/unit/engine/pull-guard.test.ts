/** The removal guard of `docket pull`: objects removed live that it would take out of the files. */
import { describe, expect, it } from 'vitest';
import { describePullViolation, pullRemovalViolations } from '../../../src/engine/guard.js';
import type { KindName } from '../../../src/engine/types.js';

const parentKindOf = (kind: KindName): KindName | undefined => (kind === 'rule' ? 'playbook' : undefined);
const playbooks = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'playbook' as KindName, key: `P${i}` }));
const rules = (playbook: string, n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'rule' as KindName, key: `${playbook}/R${i}` }));

describe('pullRemovalViolations', () => {
  it('refuses removing more than the threshold of a kind the files declare at least 5 of, and says the counts', () => {
    const [v] = pullRemovalViolations(playbooks(4), playbooks(6), 0.3, parentKindOf);
    expect(v).toEqual({ kind: 'playbook', removals: 4, live: 6, threshold: 0.3 });
    expect(describePullViolation(v!)).toBe('the pull takes 4 of the 6 playbook objects the files declare out of them (66.7%; removed live), over the safety threshold of 30% (safety.max_delete_fraction)');
    // At the threshold, or a kind of fewer than 5: allowed.
    expect(pullRemovalViolations(playbooks(3), playbooks(10), 0.3, parentKindOf)).toEqual([]);
    expect(pullRemovalViolations(playbooks(4), playbooks(4), 0.3, parentKindOf)).toEqual([]);
  });

  it('counts the rules of a playbook removed with it as part of it, not again as rules (a name with / too)', () => {
    const declared = [...playbooks(10), ...rules('P0', 3), ...rules('A/B', 3)];
    const removed = [{ kind: 'playbook' as KindName, key: 'P0' }, { kind: 'playbook' as KindName, key: 'A/B' }, ...rules('P0', 3), ...rules('A/B', 3)];
    expect(pullRemovalViolations(removed, declared, 0.3, parentKindOf)).toEqual([]);
    // Rules removed from a playbook that stays count as rules.
    expect(pullRemovalViolations(rules('P1', 3), [...playbooks(2), ...rules('P1', 5)], 0.3, parentKindOf)).toEqual([{ kind: 'rule', removals: 3, live: 5, threshold: 0.3 }]);
  });
});
