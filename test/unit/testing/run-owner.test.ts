/** Which leftovers a run may remove: the rule scratch playbooks and test agreements share. */
import { describe, expect, it } from 'vitest';
import { isLeftover, ownerText, type RunIdentity } from '../../../src/testing/run-owner.js';
import { scratchDescription } from '../../../src/testing/scratch.js';
import { testAgreementMessage } from '../../../src/testing/test-agreements.js';

const NOW = new Date('2027-01-15T10:00:00.000Z');
const LATER = new Date('2027-01-15T10:30:00.000Z');
const EARLIER = new Date('2027-01-15T09:30:00.000Z');
const ME: RunIdentity = { pid: 100, host: 'laptop', until: LATER };
const alive = (pid: number) => pid === 200;

describe('isLeftover', () => {
  it.each([
    ['a dead process on this machine', { pid: 300, host: 'laptop', until: LATER }, true],
    ['a living process on this machine', { pid: 200, host: 'laptop', until: LATER }, false],
    ['this run', { pid: 100, host: 'laptop', until: LATER }, false],
    ['a run on another machine within its budget', { pid: 300, host: 'ci-7', until: LATER }, false],
    ['a run on another machine past its budget', { pid: 300, host: 'ci-7', until: EARLIER }, true],
    ['a living process on this machine past its budget', { pid: 200, host: 'laptop', until: EARLIER }, true],
  ] as const)('%s: %s', (_what, owner, expected) => {
    for (const text of [scratchDescription(owner), testAgreementMessage(owner)]) expect(isLeftover(text, ME, NOW, alive)).toBe(expected);
  });

  it('counts a run whose deadline cannot be read as left over, and text that names no run (made by hand) as no run\'s', () => {
    expect(isLeftover('one run of pid 200 on laptop until someday', ME, NOW, alive)).toBe(true);
    expect(isLeftover(null, ME, NOW, alive)).toBe(false);
    expect(isLeftover('made by hand', ME, NOW, alive)).toBe(false);
    expect(isLeftover('docket-test: trial by sales, keep', ME, NOW, alive)).toBe(false);
  });

  it('reads back what it writes, with the sentence going on after the deadline', () => {
    expect(ownerText(ME)).toBe('one run of pid 100 on laptop until 2027-01-15T10:30:00.000Z');
    expect(testAgreementMessage(ME)).toMatch(/^docket-test: .*one run of pid 100 on laptop until 2027-01-15T10:30:00\.000Z\. Voided/);
  });
});
