/** The benchmark's model of the minimum requests and the ideal wall time (test/bench/ideal.ts). */
import { describe, expect, it } from 'vitest';
import { idealOf, minimumLevels } from '../../bench/ideal.js';
import { SCALES, editCounts, type FixtureShape } from '../../bench/shapes.js';

const counts = (shape: FixtureShape, work: Parameters<typeof minimumLevels>[1]): number[] => minimumLevels(shape, work).map((l) => l.requests);

describe('minimum requests from the shape', () => {
  const large = SCALES.large;

  it('reads lists first, then rule lists, later pages and term bodies, then bodies on later pages', () => {
    // Level 1: playbooks, review users, agreements users and organization, and the first page of
    // 200 terms (2 pages), 20 custom templates (1 page) and 200 templates (2 pages).
    expect(counts(large, 'plan-live')).toEqual([7, 1 + 1 + 500 + 100, 100]);
  });

  it('creates from empty in two levels after the first-page reads', () => {
    // 50 of 200 templates are CSAs naming an attachment; custom templates need their term.
    expect(counts(large, 'apply-from-empty')).toEqual([7, 0, 0, 500 + 200 + 10 + 150, 20_000 + 20 + 50]);
  });

  it('edits 1 % of the rules and a few terms and templates', () => {
    expect(editCounts(large)).toEqual({ rules: 200, playbooksTouched: 200, customTerms: 4, customTemplates: 2, templates: 4 });
    expect(counts(large, 'apply-edit').at(-1)).toBe(210);
    // apply PLAN.json reads only what the plan touches: 200 rules, 4 term bodies, 1 + 2 list
    // pages, and the agreements organization (the lock section).
    expect(counts(large, 'apply-plan-file')).toEqual([200 + 4 + 1 + 2 + 1, 210]);
  });

  it('needs no request for a command without a service', () => {
    expect(minimumLevels(undefined, 'none')).toEqual([]);
  });
});

describe('ideal', () => {
  it('is node start plus one latency per concurrency-sized batch of each level', () => {
    const ideal = idealOf({ levels: [{ label: 'a', requests: 9 }, { label: 'b', requests: 0 }, { label: 'c', requests: 8 }], latencyMs: 20, concurrency: 8, nodeStartMs: 40 });
    expect(ideal.levels.map((l) => l.label)).toEqual(['a', 'c']);
    expect(ideal.requests).toBe(17);
    expect(ideal.ms).toBe(40 + 20 * (2 + 1));
  });

  it('is bounded by the rate limit after the initial burst', () => {
    const ideal = idealOf({ levels: [{ label: 'writes', requests: 520 }], latencyMs: 0, concurrency: 8, nodeStartMs: 40, rateLimit: 20 });
    expect(ideal.rateLimitMs).toBe(25_000);
    expect(ideal.ms).toBe(25_040);
  });
});
