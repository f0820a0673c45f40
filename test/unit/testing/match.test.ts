/** The matchers on their own: attribution of results to rules, and each expectation's check. */
import { describe, expect, it } from 'vitest';
import type { SubjectRule } from '../../../src/kinds/support/test-subjects.js';
import { attributeFlag, attributeReview, checkAgreement, checkReview, fieldNames, matchText } from '../../../src/testing/match.js';
import type { ReviewFacts } from '../../../src/testing/types.js';
import { compilePattern } from '../../../src/testing/load.js';

const rule = (name: string, extra: Partial<SubjectRule> = {}): SubjectRule => ({ name, description: null, actions: null, questions: null, generate_summary: true, ...extra });
const RULES = [
  rule('Term', { id: 'r-term', actions: 'ACCEPT a term of up to 3 years' }),
  rule('Governing law', { id: 'r-law', description: 'Which law governs the agreement' }),
  rule('Limitation of liability', { id: 'r-lol' }),
  rule('Liability'),
];

describe('flag attribution', () => {
  it('takes the rule whose id the flag names first', () => {
    expect(attributeFlag('something else entirely', 'r-law', RULES)).toBe('Governing law');
  });
  it('matches the rule name, then the rule text, then a summary headed by the name', () => {
    expect(attributeFlag('  TERM ', null, RULES)).toBe('Term');
    expect(attributeFlag('accept a term of   up to 3 years', null, RULES)).toBe('Term');
    expect(attributeFlag('Which law governs the agreement', null, RULES)).toBe('Governing law');
    expect(attributeFlag('Governing law: Louisiana is not on the list', null, RULES)).toBe('Governing law');
  });
  it('takes the longest rule name mentioned as whole words, and nothing when it cannot tell', () => {
    expect(attributeFlag('The limitation of liability is uncapped for data breaches', null, RULES)).toBe('Limitation of liability');
    expect(attributeFlag('Terminology differs from ours', null, RULES)).toBeNull();
    expect(attributeFlag(null, null, RULES)).toBeNull();
    expect(attributeFlag('Term and Governing law both', null, [rule('Term'), rule('Law')])).toBe('Term');
  });
});

describe('rules whose names compare alike (Term, TERM) (probe EA-2)', () => {
  const ALIKE = [rule('Term', { id: 'r1', actions: 'ACCEPT any term' }), rule('TERM', { id: 'r2', actions: 'REJECT any term' })];
  it('a flag or a topic goes to the rule it names as written, and to neither when it writes neither', () => {
    expect(attributeFlag('TERM', null, ALIKE)).toBe('TERM');
    expect(attributeFlag('Term', null, ALIKE)).toBe('Term');
    expect(attributeFlag('TERM: longer than allowed', null, ALIKE)).toBe('TERM');
    expect(attributeFlag('term', null, ALIKE)).toBeNull();
    expect(attributeFlag('The TERM is too long', null, ALIKE)).toBe('TERM');
    expect(attributeFlag('the term is too long', null, ALIKE)).toBeNull();
    // Rules of other names that head the text: the longest, as before (second read SR103-3).
    expect(attributeFlag('Term - Renewal: conflicts with Limitation of Liability', null, [rule('Term - Renewal'), rule('Term'), rule('Limitation of Liability')])).toBe('Term - Renewal');
    const facts = attributeReview('rv', { redline_evaluations: [{ relevant_rule_topic: { name: 'TERM' }, evaluation: 'reject' }, { relevant_rule_topic: { name: 'term' }, evaluation: 'accept' }] }, ALIKE);
    expect(facts.redlines.map((r) => [r.topic, r.rule])).toEqual([
      ['TERM', 'TERM'],
      ['term', null],
    ]);
  });
  it('an expectation marked exact takes only the rule it names as written', () => {
    const got: ReviewFacts = { review_id: 'rv', review_type: 'RedlineReview', redlines: [{ topic: 'TERM', rule: 'TERM', evaluation: 'reject', commentary: null }], flags: [{ rule: 'TERM', text: 'TERM', decision: null }], positions: [] };
    expect(checkReview({ type: 'flag-excludes', rule: 'Term', exact: true }, got).ok).toBe(true);
    expect(checkReview({ type: 'flag-includes', rule: 'Term', exact: true }, got).ok).toBe(false);
    expect(checkReview({ type: 'flag-includes', rule: 'TERM', exact: true }, got).ok).toBe(true);
    expect(checkReview({ type: 'redline', topic: 'Term', exact: true, count: { min: 1 } }, got).ok).toBe(false);
    expect(checkReview({ type: 'redline', topic: 'TERM', exact: true, count: { min: 1, max: 1 } }, got).ok).toBe(true);
    // Without rules alike, case still does not count (README: Matching rules).
    expect(checkReview({ type: 'flag-includes', rule: 'term' }, got).ok).toBe(true);
  });
});

describe('attributing a review', () => {
  it('reads evaluations, flags and positions in both inline shapes', () => {
    const facts = attributeReview(
      'rv',
      {
        review_type: 'SummaryReview',
        redline_evaluations: [{ relevant_rule_topic: { id: 'r-law', name: 'Jurisdiction' }, evaluation: 'reject', commentary: 'x' }, { relevant_rule_topic: { name: 'governing LAW' }, evaluation: 'accept' }],
        flag_violations: [{ id: 'f', attributes: { rule: 'Term', decision: 'confirmed' } }],
        summary_positions: [{ summary: 'Five years', detailed_explanation: null }],
      },
      RULES,
    );
    expect(facts.redlines.map((r) => [r.topic, r.evaluation])).toEqual([
      ['Governing law', 'reject'],
      ['Governing law', 'accept'],
    ]);
    expect(facts.flags).toEqual([{ rule: 'Term', text: 'Term', decision: 'confirmed' }]);
    expect(facts.positions).toEqual([{ summary: 'Five years', detailed_explanation: null }]);
  });
});

const facts: ReviewFacts = {
  review_id: 'rv',
  review_type: 'RedlineReview',
  redlines: [
    { topic: 'Governing law', rule: 'Governing law', evaluation: 'needs_review', commentary: 'Louisiana law is not on the list' },
    { topic: 'Term', rule: 'Term', evaluation: 'accept', commentary: null },
  ],
  flags: [{ rule: 'Term', text: 'Term', decision: null }, { rule: null, text: 'odd', decision: null }],
  positions: [{ summary: 'The term is five years.', detailed_explanation: 'Clause 2' }],
};

describe('checking expectations', () => {
  it('redlines: every evaluation of the topic in the set, at least one unless a count says otherwise', () => {
    expect(checkReview({ type: 'redline', topic: 'governing  law', evaluation: { in: ['reject', 'needs_review'] } }, facts)).toEqual({ ok: true, got: 'needs_review' });
    expect(checkReview({ type: 'redline', topic: 'Term', evaluation: { in: ['reject'] } }, facts)).toEqual({ ok: false, got: 'accept' });
    expect(checkReview({ type: 'redline', topic: 'Term', evaluation: { not_in: ['reject'] } }, facts).ok).toBe(true);
    expect(checkReview({ type: 'redline', topic: 'Residuals' }, facts)).toEqual({ ok: false, got: 'no evaluation of "Residuals"' });
    expect(checkReview({ type: 'redline', topic: 'Residuals', count: { max: 0 } }, facts).ok).toBe(true);
    // Got says what was found; the expectation's label already states the count (`count = 0`).
    expect(checkReview({ type: 'redline', topic: 'Governing law', count: { max: 0 } }, facts)).toEqual({ ok: false, got: '1 evaluation (needs_review)' });
    expect(checkReview({ type: 'redline', topic: 'Governing law', commentary: { contains: 'louisiana' } }, facts).ok).toBe(true);
    expect(checkReview({ type: 'redline', topic: 'Governing law', commentary: { equals: 'no' } }, facts).ok).toBe(false);
    // A failed check shows the commentary whole enough for its end, where an escalation is said (probe GJ-5).
    const long = `${'Paragraph 2 mentions the term. '.repeat(8)}Escalated to qa@acme.example.`;
    const escalated: ReviewFacts = { ...facts, redlines: [{ topic: 'Term', rule: 'Term', evaluation: 'needs_review', commentary: long }] };
    expect(checkReview({ type: 'redline', topic: 'Term', commentary: { contains: 'alice@acme.example' } }, escalated).got).toBe(`commentary ${JSON.stringify(long)}`);
  });
  it('redlines: an outcome the service gives in another case is the same outcome, as one the test file writes is (probe QY-4)', () => {
    const shouted: ReviewFacts = { ...facts, redlines: [{ topic: 'Term', rule: 'Term', evaluation: 'REJECT', commentary: null }] };
    expect(checkReview({ type: 'redline', topic: 'Term', evaluation: { in: ['reject'] } }, shouted)).toEqual({ ok: true, got: 'REJECT' });
    expect(checkReview({ type: 'redline', topic: 'Term', evaluation: { not_in: ['reject'] } }, shouted)).toEqual({ ok: false, got: 'REJECT' });
  });
  it('flags: includes and excludes by attributed rule; count includes unattributed flags', () => {
    expect(checkReview({ type: 'flag-includes', rule: 'term' }, facts).ok).toBe(true);
    expect(checkReview({ type: 'flag-excludes', rule: 'Term' }, facts)).toEqual({ ok: false, got: 'Term, unattributed "odd"' });
    expect(checkReview({ type: 'flag-excludes', rule: 'odd' }, facts).ok).toBe(true);
    expect(checkReview({ type: 'flag-count', count: { max: 1 } }, facts)).toEqual({ ok: false, got: '2 flags (Term, unattributed "odd")' });
  });
  it('positions: by default at least one must match every text given', () => {
    expect(checkReview({ type: 'position', summary: { matches: 'FIVE years', flags: 'i' }, count: { min: 1 } }, facts).ok).toBe(true);
    expect(checkReview({ type: 'position', summary: { matches: 'FIVE years', flags: '' }, count: { min: 1 } }, facts)).toEqual({ ok: false, got: '0 matching positions of 1: "The term is five years."' });
    expect(checkReview({ type: 'position', summary: { contains: 'five' }, detailed_explanation: { equals: 'Clause 3' }, count: { min: 1 } }, facts).ok).toBe(false);
    expect(checkReview({ type: 'position', summary: { contains: 'perpetual' }, count: { max: 0 } }, facts).ok).toBe(true);
  });
  it('positions: got quotes the text the expectation compared, an explanation as the explanation (probe HM-2)', () => {
    expect(checkReview({ type: 'position', detailed_explanation: { contains: 'no such words' }, count: { min: 1 } }, facts)).toEqual({ ok: false, got: '0 matching positions of 1: explanation "Clause 2"' });
    expect(checkReview({ type: 'position', detailed_explanation: { contains: 'clause' }, count: { min: 1 } }, facts)).toEqual({ ok: true, got: 'explanation "Clause 2"' });
    expect(checkReview({ type: 'position', summary: { contains: 'five' }, detailed_explanation: { equals: 'Clause 3' }, count: { min: 1 } }, facts)).toEqual({ ok: false, got: '0 matching positions of 1: "The term is five years." (explanation "Clause 2")' });
    const unexplained: ReviewFacts = { ...facts, positions: [{ summary: 'The term is five years.', detailed_explanation: null }] };
    expect(checkReview({ type: 'position', detailed_explanation: { contains: 'clause' }, count: { min: 1 } }, unexplained).got).toBe('0 matching positions of 1: explanation none');
  });
  it('positions: a count broken by too many matches shows the ones that matched, not the first of all', () => {
    const many: ReviewFacts = { ...facts, positions: ['One.', 'Two.', 'Three.', 'Residuals: unaided memory.'].map((summary) => ({ summary, detailed_explanation: null })) };
    expect(checkReview({ type: 'position', summary: { contains: 'memory' }, count: { max: 0 } }, many)).toEqual({ ok: false, got: '1 matching position of 4: "Residuals: unaided memory."' });
    expect(checkReview({ type: 'position', summary: { contains: 'zebra' }, count: { min: 1 } }, many)).toEqual({ ok: false, got: '0 matching positions of 4: "One.", "Two.", "Three.", and 1 more' });
  });
  it('text matchers trim equals, ignore case in contains, and take regular expressions as written', () => {
    expect(matchText({ equals: 'a' }, ' a ')).toBe(true);
    expect(matchText({ contains: 'B' }, 'abc')).toBe(true);
    expect(matchText({ matches: '^a.c$', flags: '' }, 'abc')).toBe(true);
    expect(matchText({ contains: 'x' }, null)).toBe(false);
  });
  it('template expectations: accepted, or rejected naming the field (however the service paths it)', () => {
    const rejected = { accepted: false as const, fields: ['agreement.include_expiration_type'], detail: 'bad' };
    expect(checkAgreement({ type: 'accepted' }, { accepted: true, agreement_id: 'a' })).toEqual({ ok: true, got: 'accepted' });
    expect(checkAgreement({ type: 'accepted' }, rejected)).toEqual({ ok: false, got: 'rejected (agreement.include_expiration_type): bad' });
    expect(checkAgreement({ type: 'rejected', field: 'include_expiration_type' }, rejected).ok).toBe(true);
    expect(checkAgreement({ type: 'rejected', field: 'hourly_rate' }, rejected).ok).toBe(false);
    expect(checkAgreement({ type: 'rejected' }, { accepted: true, agreement_id: 'a' }).ok).toBe(false);
    expect(fieldNames('values[Hourly_Rate]', 'hourly_rate')).toBe(true);
    expect(fieldNames('hourly_rate_max', 'hourly_rate')).toBe(false);
    // The expected field written as the service paths it names the same field (probe OK-2).
    for (const expected of ['agreement.hourly_rate', 'values[hourly_rate]']) expect(fieldNames('hourly_rate', expected), expected).toBe(true);
    expect(fieldNames('agreement.custom_field_values.hourly_rate', 'agreement.hourly_rate')).toBe(true);
    expect(fieldNames('hourly_rate', 'agreement.max_hourly_rate')).toBe(false);
    // Nothing else is taken off a path: another field of the same last name is another field (second read SR80B-3).
    for (const [named, expected] of [['counterparty.email', 'signer.email'], ['agreement.counterparty.email', 'agreement.signer.email'], ['parties[1].email', 'parties[0].email']]) expect(fieldNames(named!, expected!), expected).toBe(false);
    // A JSON:API error's `source.pointer`, as the docs show it (probe MH-1).
    expect(fieldNames('/data/attributes/hourly_rate', 'hourly_rate')).toBe(true);
    expect(fieldNames('/data/attributes/custom_field_values/hourly_rate', 'hourly_rate')).toBe(true);
    expect(fieldNames('/data/attributes/max_hourly_rate', 'hourly_rate')).toBe(false);
  });
});

describe('compilePattern', () => {
  it('turns leading inline flags into flags, in one group or several, as other engines take them', () => {
    expect(compilePattern('(?i)five years')).toEqual({ source: 'five years', flags: 'i', unicode: true });
    expect(compilePattern('(?is)a.b')).toEqual({ source: 'a.b', flags: 'is', unicode: true });
    expect(compilePattern('(?i)(?s)a.b')).toEqual({ source: 'a.b', flags: 'is', unicode: true });
    expect(compilePattern('x(?i)')).toMatchObject({ error: expect.any(String) });
  });

  it('runs a pattern in Unicode mode where it is valid there, as JavaScript reads it otherwise, and refuses a Unicode escape that would read as other text (probe FC-4)', () => {
    const matches = (pattern: string, text: string) => {
      const compiled = compilePattern(pattern);
      if ('error' in compiled) throw new Error(compiled.error);
      return matchText({ matches: compiled.source, flags: compiled.flags, ...(compiled.unicode ? { unicode: true as const } : {}) }, text);
    };
    expect(matches('^\\p{L}+ \\p{Lu}', 'Vertragsdauer Fünf')).toBe(true);
    expect(matches('^\\p{L}+$', 'p{L}')).toBe(false);
    expect(matches('^.$', '😀')).toBe(true);
    // Valid only without Unicode mode: an escape of a character that needs none.
    expect(compilePattern('5\\-year')).toEqual({ source: '5\\-year', flags: '', unicode: false });
    expect(matches('5\\-year', 'a 5-year term')).toBe(true);
    expect(compilePattern('\\p{L}\\-')).toMatchObject({ error: expect.stringContaining('needs a pattern valid in Unicode mode') });
    // Escaped itself, it is the text: no Unicode mode needed.
    expect(compilePattern('\\\\p{L}\\-')).toMatchObject({ unicode: false });
  });
});
