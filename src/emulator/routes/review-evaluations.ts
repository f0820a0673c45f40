/**
 * A review's redline evaluations and flag violations (seed 000): list, get, and the PATCH that
 * records a reviewer's outcome (the five actions) or decision. They exist once the review is
 * completed; before, the lists are empty and single reads are 404.
 */
import { FieldErrors, isPresent, readText, type JsonBody } from '../fields.js';
import { many } from '../jsonapi.js';
import { isObject } from '../seed-checks.js';
import type { RedlineEvaluationRecord, RedlineOutcome, ReviewRecord } from '../review-state.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord } from '../store.js';
import { lookup, ok, organizationOf, type StyleRoute, type ReviewDeps } from './review-common.js';
import { evaluationView, violationView } from './review-result-views.js';

/**
 * NOTE(api): the literal values of the action `type` are not shown (seed 000 names accept, reject,
 * manual handling, needs further review, counterpropose); the outcome each records is its name.
 */
export const REDLINE_ACTIONS: readonly RedlineOutcome[] = ['accept', 'reject', 'manual', 'needs_review', 'counterpropose'];
/** NOTE(api): the name of the field carrying the counterpropose payload is not shown; ours. */
export const COUNTERPROPOSAL_FIELD = 'counterproposal';
const COUNTERPROPOSAL_KEYS = ['directive', 'new_text'] as const;

export function redlineEvaluationRoutes(prefix: string, r: StyleRoute, deps: ReviewDeps): Route[] {
  const EVALUATIONS = `${prefix}/reviews/:review/redline_evaluations`;
  return [
    r('GET', EVALUATIONS, (ctx) => {
      const { review } = reviewOf(ctx);
      // NOTE(api): seed 000 shows "an array of redline evaluations": unpaged.
      return { status: 200, body: many(visible(review).evaluations.map((e) => evaluationView(review, e))) };
    }),
    r('GET', `${EVALUATIONS}/:evaluation`, (ctx) => {
      const { review } = reviewOf(ctx);
      return ok(evaluationView(review, evaluationOf(ctx, review)));
    }),
    r('PATCH', `${EVALUATIONS}/:evaluation`, (ctx) => updateEvaluation(ctx, deps)),
  ];
}

export function flagViolationRoutes(prefix: string, r: StyleRoute): Route[] {
  const VIOLATIONS = `${prefix}/reviews/:review/flag_violations`;
  return [
    r('GET', VIOLATIONS, (ctx) => {
      const { review } = reviewOf(ctx);
      return { status: 200, body: many(visible(review).violations.map((v) => violationView(review, v))) };
    }),
    r('GET', `${VIOLATIONS}/:violation`, (ctx) => {
      const { review } = reviewOf(ctx);
      return ok(violationView(review, lookup(byId(visible(review).violations), ctx.params.violation, 'flag violation')));
    }),
    r('PATCH', `${VIOLATIONS}/:violation`, updateViolation),
  ];
}

function reviewOf(ctx: RequestContext): { org: OrganizationRecord; review: ReviewRecord } {
  const org = organizationOf(ctx);
  return { org, review: lookup(org.reviews, ctx.params.review, 'review') };
}

/** What a review shows: its results once completed (a RedlineReview has no violations and the reverse). */
function visible(review: ReviewRecord): { evaluations: RedlineEvaluationRecord[]; violations: ReviewRecord['flag_violations'] } {
  if (review.status !== 'completed') return { evaluations: [], violations: [] };
  return review.review_type === 'RedlineReview' ? { evaluations: review.redline_evaluations, violations: [] } : { evaluations: [], violations: review.flag_violations };
}

function byId<T extends { id: string }>(items: T[]): Record<string, T> {
  return Object.fromEntries(items.map((i) => [i.id, i]));
}

function evaluationOf(ctx: RequestContext, review: ReviewRecord): RedlineEvaluationRecord {
  return lookup(byId(visible(review).evaluations), ctx.params.evaluation, 'redline evaluation');
}

interface RedlineAction {
  type: RedlineOutcome;
  comment: string | null | undefined;
  counterproposal?: { directive: string | null; new_text: string | null };
}

/** Seed 000: a `type` among the five actions, an optional `comment`, and for counterpropose exactly one of directive or new_text (422s). */
export function readRedlineAction(body: JsonBody): RedlineAction {
  const errors = new FieldErrors();
  const type = body.type;
  if (!(typeof type === 'string' && (REDLINE_ACTIONS as readonly string[]).includes(type))) errors.add('type', `must be one of: ${REDLINE_ACTIONS.join(', ')}`);
  const comment = readText(body, 'comment', errors, true);
  const payload = body[COUNTERPROPOSAL_FIELD];
  let counterproposal: RedlineAction['counterproposal'];
  if (type === 'counterpropose') counterproposal = readCounterproposal(payload, errors);
  else if (isPresent(body, COUNTERPROPOSAL_FIELD)) errors.add(COUNTERPROPOSAL_FIELD, 'is sent only with type counterpropose');
  errors.throwIfAny();
  const action: RedlineAction = { type: type as RedlineOutcome, comment };
  if (counterproposal) action.counterproposal = counterproposal;
  return action;
}

function readCounterproposal(payload: unknown, errors: FieldErrors): RedlineAction['counterproposal'] {
  const field = COUNTERPROPOSAL_FIELD;
  if (!isObject(payload)) {
    errors.add(field, 'is required with type counterpropose: an object with exactly one of directive or new_text');
    return undefined;
  }
  const sent = COUNTERPROPOSAL_KEYS.filter((k) => isPresent(payload, k));
  // Seed 000 "Errors" 5: both, or neither.
  if (sent.length !== 1) errors.add(field, sent.length === 0 ? 'must carry exactly one of directive or new_text' : 'must carry exactly one of directive or new_text, not both');
  for (const key of Object.keys(payload)) {
    if (!(COUNTERPROPOSAL_KEYS as readonly string[]).includes(key)) errors.add(`${field}.${key}`, 'is not allowed (send directive or new_text only)');
  }
  const key = sent[0];
  if (sent.length !== 1 || key === undefined) return undefined;
  const value = payload[key];
  if (typeof value !== 'string' || value.trim() === '') {
    errors.add(`${field}.${key}`, 'must be a non-empty string');
    return undefined;
  }
  return { directive: key === 'directive' ? value : null, new_text: key === 'new_text' ? value : null };
}

function updateEvaluation(ctx: RequestContext, deps: ReviewDeps): RouteResult {
  const { org, review } = reviewOf(ctx);
  const evaluation = evaluationOf(ctx, review);
  const action = readRedlineAction(ctx.json());
  const now = ctx.store.timestamp();
  evaluation.evaluation = action.type;
  if (action.comment !== undefined) evaluation.comment = action.comment;
  // NOTE(api): a reject's comment is its rejection_comment; any other outcome clears it.
  evaluation.rejection_comment = action.type === 'reject' ? (action.comment ?? null) : null;
  if (action.counterproposal) {
    evaluation.counterproposal = { ...action.counterproposal, suggested_counterproposal_text: null, status: 'processing', created_at: now, updated_at: now };
    deps.reviews.schedule(org.id, review.id);
  }
  evaluation.updated_at = now;
  review.updated_at = now;
  return ok(evaluationView(review, evaluation));
}

/**
 * Seed 000: `decision` is recorded and `reviewer` names who recorded it. NOTE(api): the allowed
 * decisions are not shown, so any non-blank string is kept; the reviewer is the organization's
 * first admin (keys are not users).
 */
function updateViolation(ctx: RequestContext): RouteResult {
  const { org, review } = reviewOf(ctx);
  const violation = lookup(byId(visible(review).violations), ctx.params.violation, 'flag violation');
  const body = ctx.json();
  const errors = new FieldErrors();
  const decision = readText(body, 'decision', errors, false);
  if (!errors.has('decision') && (decision === undefined || decision === null || decision.trim() === '')) errors.add('decision', "can't be blank");
  errors.throwIfAny();
  const now = ctx.store.timestamp();
  violation.decision = decision ?? null;
  violation.reviewer = ctx.store.firstAdminEmail(org);
  violation.updated_at = now;
  review.updated_at = now;
  return ok(violationView(review, violation));
}
