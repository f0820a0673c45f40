/** The removal guards of `docket pull` (objects removed live it would take out of the files) and of apply's creates again. */
import { describe, expect, it } from 'vitest';
import { describePullViolation, describeViolation, pullRemovalViolations, recreateViolations } from '../../../src/engine/guard.js';
import type { Change, DesiredResource, KindName } from '../../../src/engine/types.js';
import { desiredPlaybook, desiredRule, planOf } from './builders.js';

const playbooks = (n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'playbook' as KindName, key: `P${i}` }));
const rules = (playbook: string, n: number) => Array.from({ length: n }, (_, i) => ({ kind: 'rule' as KindName, key: `${playbook}/R${i}` }));

describe('pullRemovalViolations', () => {
  it('refuses removing more than the threshold of a kind the files declare at least 5 of, and says the counts', () => {
    const [v] = pullRemovalViolations(playbooks(4), playbooks(6), 0.3);
    expect(v).toEqual({ kind: 'playbook', removals: 4, live: 6, threshold: 0.3 });
    expect(describePullViolation(v!)).toBe('the pull takes 4 of the 6 playbook objects the files declare out of them (66.7%; removed live), over the safety threshold of 30% (safety.max_delete_fraction)');
    // At the threshold, or a kind of fewer than 5: allowed.
    expect(pullRemovalViolations(playbooks(3), playbooks(10), 0.3)).toEqual([]);
    expect(pullRemovalViolations(playbooks(4), playbooks(4), 0.3)).toEqual([]);
  });

  it('refuses taking most of one kept playbook\'s rules out (its rule list answered empty), under the kind-wide share, naming the playbook', () => {
    const declared = ['P0', 'P1', 'P2', 'P3'].flatMap((p) => rules(p, 6).map((r) => ({ ...r, parent: { kind: 'playbook' as KindName, key: p } })));
    const [v, more] = pullRemovalViolations(rules('P2', 6), [...playbooks(4), ...declared], 0.3);
    expect([v, more]).toEqual([{ kind: 'rule', removals: 6, live: 6, threshold: 0.3, parent: 'playbook "P2"' }, undefined]);
    expect(describePullViolation(v!)).toBe('the pull takes 6 of the 6 rule objects of playbook "P2" the files declare out of them (100%; removed live), over the safety threshold of 30% (safety.max_delete_fraction)');
    // A few of one playbook's rules, or the rules of a playbook removed with them (the kind-wide count says those): allowed.
    expect(pullRemovalViolations(rules('P2', 1), [...playbooks(4), ...declared], 0.3)).toEqual([]);
    expect(pullRemovalViolations([{ kind: 'playbook', key: 'P2' }, ...rules('P2', 6)], [...playbooks(9), ...declared], 0.3)).toEqual([]);
  });

  it('counts the rules of playbooks removed with them: four playbooks are too few for a share, their 32 rules are not', () => {
    const all = [...playbooks(4), ...['P0', 'P1', 'P2', 'P3'].flatMap((p) => rules(p, 8))];
    expect(pullRemovalViolations(all, all, 0.3)).toEqual([{ kind: 'rule', removals: 32, live: 32, threshold: 0.3 }]);
  });
});

describe('recreateViolations', () => {
  const change = (kind: KindName, key: string, parent?: string): Change => ({
    id: `create:${kind}:${key}`,
    action: 'create',
    kind,
    key,
    name: key.split('/').pop()!,
    direction: 'removed-live',
    fields: [],
    refs: [],
    dependsOn: [],
    fingerprint: null,
    ...(parent ? { parent: { kind: 'playbook' as KindName, key: parent } } : {}),
  });
  const plan = planOf;
  const declared = (n: number, ruleCount: number): DesiredResource[] => Array.from({ length: n }, (_, i) => [desiredPlaybook(`P${i}`), ...Array.from({ length: ruleCount }, (_, j) => desiredRule(`P${i}`, `R${j}`))]).flat();

  it('refuses creating again more than the threshold of the objects the files declare (their list answered empty), and says so as its own', () => {
    const [v] = recreateViolations(plan(['P0', 'P1', 'P2', 'P3', 'P4'].map((p) => change('playbook', p))), declared(6, 0), 0.3);
    expect(v).toEqual({ kind: 'playbook', removals: 5, live: 6, threshold: 0.3, recreates: true });
    expect(describeViolation(v!)).toBe('the plan creates again 5 of the 6 playbook objects the files declare (83.3%; removed live, or a service in trouble answered an empty list), over the safety threshold of 30% (safety.max_delete_fraction)');
    // Creates of objects only in the files are no concern of it.
    expect(recreateViolations(plan(['P0', 'P1', 'P2', 'P3', 'P4'].map((p) => ({ ...change('playbook', p), direction: 'only-in-files' as const }))), declared(6, 0), 0.3)).toEqual([]);
  });

  it('counts a playbook made again with its rules as one object: one of three archived in the app is put back without --force', () => {
    const one = [change('playbook', 'P0'), ...Array.from({ length: 8 }, (_, j) => change('rule', `P0/R${j}`, 'P0'))];
    expect(recreateViolations(plan(one), declared(3, 8), 0.3)).toEqual([]);
    // Most rules of a playbook the plan keeps (its rule list answered empty): refused, naming it.
    const rules = Array.from({ length: 6 }, (_, j) => change('rule', `P1/R${j}`, 'P1'));
    expect(recreateViolations(plan(rules), declared(3, 8), 0.3)).toEqual([{ kind: 'rule', removals: 6, live: 8, threshold: 0.3, parent: 'playbook "P1"', recreates: true }]);
  });
});
