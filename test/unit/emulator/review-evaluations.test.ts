/** Redline evaluations and flag violations of a review: reads and the reviewer's PATCHes, both path styles. */
import { afterEach, describe, expect, it } from 'vitest';
import { waitFor } from './agreements-harness.js';
import { closeAll, fields, list, one, problem, type Resource } from './harness.js';
import { docx } from './documents.js';
import { CONTRACT, RULES, STYLES, startReviews, type ReviewHarness } from './reviews-harness.js';

afterEach(closeAll);

const REDLINED = docx([
  { text: 'Either party may end this Agreement. ', ins: 'Unilateral termination is allowed.' },
  { text: 'Governing law: ', del: 'Delaware', ins: 'New York' },
  'Indemnification is uncapped.',
]);

async function redlineReview(h: ReviewHarness): Promise<{ review: Resource; evaluations: Resource[] }> {
  await h.playbook('NDA', RULES);
  const fileId = await h.importFile(REDLINED, 'msa.docx');
  const created = one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId }));
  const review = await h.settled(created.id);
  return { review, evaluations: list(await h.review('GET', `${h.prefix}/reviews/${review.id}/redline_evaluations`)) };
}

describe.each(STYLES)('redline evaluations (%s paths)', (style) => {
  it('lists and reads the evaluations the review shows', async () => {
    const h = await startReviews(style);
    const { review, evaluations } = await redlineReview(h);
    expect(review.attributes.review_type).toBe('RedlineReview');
    expect(evaluations.map((e) => [e.type, (e.attributes.relevant_rule_topic as { name: string }).name, e.attributes.evaluation])).toEqual([
      ['redline_evaluation', 'Termination', 'reject'],
      ['redline_evaluation', 'Governing Law', 'needs_review'],
    ]);
    const first = evaluations[0];
    expect(first?.attributes).toMatchObject({
      redline_id: expect.any(String),
      redline_review_id: review.id,
      relevant_rule_topic: { id: expect.any(String), name: 'Termination', questions: null },
      rejection_comment: null,
      comment: null,
      counterproposal: null,
      commentary: expect.stringContaining('the playbook says: REJECT unilateral termination'),
    });
    expect(review.attributes.redline_evaluations).toEqual(evaluations.map((e) => ({ id: e.id, ...e.attributes })));
    expect(one(await h.review('GET', `${h.prefix}/reviews/${review.id}/redline_evaluations/${first?.id}`)).attributes).toEqual(first?.attributes);
    expect((await h.review('GET', `${h.prefix}/reviews/${review.id}/redline_evaluations/nope`)).status).toBe(404);
    expect(list(await h.review('GET', `${h.prefix}/reviews/${review.id}/flag_violations`))).toEqual([]);
  });

  it('records each of the five actions with an optional comment; a reject keeps its comment as rejection_comment', async () => {
    const h = await startReviews(style);
    const { review, evaluations } = await redlineReview(h);
    const path = `${h.prefix}/reviews/${review.id}/redline_evaluations/${evaluations[0]?.id}`;
    const rejected = await h.review('PATCH', path, { type: 'reject', comment: 'Not unilateral.' });
    expect(rejected.status).toBe(200);
    expect(one(rejected).attributes).toMatchObject({ evaluation: 'reject', comment: 'Not unilateral.', rejection_comment: 'Not unilateral.' });
    for (const type of ['accept', 'manual', 'needs_review']) {
      expect(one(await h.review('PATCH', path, { type })).attributes).toMatchObject({ evaluation: type, comment: 'Not unilateral.', rejection_comment: null });
    }
    const read = one(await h.review('GET', `${h.prefix}/reviews/${review.id}`));
    expect((read.attributes.redline_evaluations as { evaluation: string }[])[0]?.evaluation).toBe('needs_review');
  });

  it('counterproposes with a directive or new_text: processing, then a suggested text', async () => {
    const h = await startReviews(style);
    const { review, evaluations } = await redlineReview(h);
    const path = (i: number) => `${h.prefix}/reviews/${review.id}/redline_evaluations/${evaluations[i]?.id}`;
    const directed = one(await h.review('PATCH', path(0), { type: 'counterpropose', counterproposal: { directive: 'Make it mutual' }, comment: 'see directive' }));
    expect(directed.attributes).toMatchObject({ evaluation: 'counterpropose', comment: 'see directive', counterproposal: { directive: 'Make it mutual', suggested_counterproposal_text: null, status: 'processing' } });
    const done = await waitFor(
      async () => one(await h.review('GET', path(0))),
      (e) => (e.attributes.counterproposal as { status: string }).status === 'completed',
    );
    expect(done.attributes.counterproposal).toMatchObject({
      directive: 'Make it mutual',
      suggested_counterproposal_text: 'Either party may end this Agreement. Unilateral termination is allowed. [Counterproposal: Make it mutual]',
    });
    one(await h.review('PATCH', path(1), { type: 'counterpropose', counterproposal: { new_text: 'Governing law: Delaware' } }));
    const replaced = await waitFor(
      async () => one(await h.review('GET', path(1))),
      (e) => (e.attributes.counterproposal as { status: string }).status === 'completed',
    );
    expect(replaced.attributes.counterproposal).toMatchObject({ directive: null, suggested_counterproposal_text: 'Governing law: Delaware' });
  });

  it('rejects a counterproposal with both directive and new_text or neither, extra keys, blanks, and bad types (422)', async () => {
    const h = await startReviews(style);
    const { review, evaluations } = await redlineReview(h);
    const path = `${h.prefix}/reviews/${review.id}/redline_evaluations/${evaluations[0]?.id}`;
    const cases: [unknown, { field: string; message: string }[]][] = [
      [{ type: 'counterpropose', counterproposal: { directive: 'a', new_text: 'b' } }, [{ field: 'counterproposal', message: 'must carry exactly one of directive or new_text, not both' }]],
      [{ type: 'counterpropose', counterproposal: {} }, [{ field: 'counterproposal', message: 'must carry exactly one of directive or new_text' }]],
      [{ type: 'counterpropose' }, [{ field: 'counterproposal', message: 'is required with type counterpropose: an object with exactly one of directive or new_text' }]],
      [{ type: 'counterpropose', counterproposal: { directive: 'a', tone: 'firm' } }, [{ field: 'counterproposal.tone', message: 'is not allowed (send directive or new_text only)' }]],
      [{ type: 'counterpropose', counterproposal: { new_text: ' ' } }, [{ field: 'counterproposal.new_text', message: 'must be a non-empty string' }]],
      [{ type: 'accept', counterproposal: { directive: 'a' } }, [{ field: 'counterproposal', message: 'is sent only with type counterpropose' }]],
      [{ type: 'approve' }, [{ field: 'type', message: 'must be one of: accept, reject, manual, needs_review, counterpropose' }]],
      [{ comment: 'x' }, [{ field: 'type', message: 'must be one of: accept, reject, manual, needs_review, counterpropose' }]],
      [{ type: 'accept', comment: 5 }, [{ field: 'comment', message: 'must be a string or null' }]],
    ];
    for (const [body, errors] of cases) {
      const reply = await h.review('PATCH', path, body);
      expect([reply.status, problem(reply).errors], JSON.stringify(body)).toEqual([422, errors]);
    }
    expect(one(await h.review('GET', path)).attributes).toMatchObject({ evaluation: 'reject', counterproposal: null, comment: null });
  });
});

describe.each(STYLES)('flag violations (%s paths)', (style) => {
  it('lists, reads and records a decision with the recording reviewer', async () => {
    const h = await startReviews(style);
    await h.playbook('NDA', RULES);
    const fileId = await h.importFile(CONTRACT, 'nda.txt');
    const created = one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId, review_type: 'SummaryReview' }));
    const base = `${h.prefix}/reviews/${created.id}/flag_violations`;
    const review = await h.settled(created.id);
    const violations = list(await h.review('GET', base));
    expect(violations.map((v) => [v.type, v.attributes.rule])).toEqual([
      ['flag_violation', 'Governing Law'],
      ['flag_violation', 'Indemnification'],
    ]);
    expect(violations[1]?.attributes).toMatchObject({
      decision: null,
      reviewer: null,
      reasoning: expect.stringContaining('the playbook says: REJECT uncapped'),
      remedy_suggested: 'REJECT uncapped',
      document_references: [{ paragraph: 4, text: 'Indemnification is uncapped.' }],
      summary_review_flag_id: expect.any(String),
      summary_review_id: review.id,
    });
    const path = `${base}/${violations[1]?.id}`;
    const decided = await h.review('PATCH', path, { decision: 'accepted_risk' });
    expect(decided.status).toBe(200);
    expect(one(decided).attributes).toMatchObject({ decision: 'accepted_risk', reviewer: 'admin@emulator.local' });
    const reread = one(await h.review('GET', `${h.prefix}/reviews/${review.id}`));
    expect((reread.attributes.flag_violations as { decision: string | null }[]).map((v) => v.decision)).toEqual([null, 'accepted_risk']);
    expect(list(await h.review('GET', `${h.prefix}/reviews/${review.id}/redline_evaluations`))).toEqual([]);

    expect(fields(await h.review('PATCH', path, {}))).toEqual(['decision']);
    expect(fields(await h.review('PATCH', path, { decision: ' ' }))).toEqual(['decision']);
    expect(fields(await h.review('PATCH', path, { decision: 1 }))).toEqual(['decision']);
    expect((await h.review('PATCH', `${base}/nope`, { decision: 'x' })).status).toBe(404);
    expect(one(await h.review('GET', path)).attributes.decision).toBe('accepted_risk');
  });
});
