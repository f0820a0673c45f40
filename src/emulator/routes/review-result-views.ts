/**
 * How the review service shows imported files, reviews and their results. NOTE(api): seed 000
 * names the fields of evaluations, positions and violations but shows no review or imported file
 * attributes beyond `review_type`; ours are marked below. Inside a review the results are plain
 * objects with their `id`; their own routes answer JSON:API resources.
 */
import type { ResourceObject } from '../jsonapi.js';
import type { FlagViolationRecord, ImportedFileRecord, RedlineEvaluationRecord, ReviewRecord, SummaryPositionRecord } from '../review-state.js';
import type { OrganizationRecord } from '../store.js';

/** NOTE(api): imported file attributes are ours (seed 000 shows id and type only). */
export function importedFileView(f: ImportedFileRecord): ResourceObject {
  return {
    id: f.id,
    type: 'imported_file',
    attributes: { filename: f.filename, content_type: f.content_type, byte_size: f.byte_size, sha256: f.sha256, created_at: f.created_at, updated_at: f.updated_at },
  };
}

/**
 * `full`: the single-review form, with `redline_evaluations` (RedlineReview) or `summary_positions`
 * and `flag_violations` (SummaryReview), present only once the review is completed (seed 000 shows
 * no processing states; docket waits for them). The list form never has them.
 * NOTE(api): `type: review`, `status`, `error`, `playbook_id`, `imported_file_id`, `filename` and
 * `completed_at` are ours.
 */
export function reviewView(org: OrganizationRecord, review: ReviewRecord, full: boolean): ResourceObject {
  const file = review.imported_file_id !== null && Object.hasOwn(org.imported_files, review.imported_file_id) ? org.imported_files[review.imported_file_id] : undefined;
  const attributes: Record<string, unknown> = {
    review_type: review.review_type,
    status: review.status,
    error: review.error,
    playbook_id: review.playbook_id,
    imported_file_id: review.imported_file_id,
    filename: file?.filename ?? null,
    created_at: review.created_at,
    updated_at: review.updated_at,
    completed_at: review.completed_at,
  };
  if (full && review.status === 'completed') {
    if (review.review_type === 'RedlineReview') attributes.redline_evaluations = review.redline_evaluations.map((e) => ({ id: e.id, ...evaluationAttributes(review, e) }));
    else {
      attributes.summary_positions = review.summary_positions.map((p) => ({ id: p.id, ...positionAttributes(review, p) }));
      attributes.flag_violations = review.flag_violations.map((v) => ({ id: v.id, ...violationAttributes(review, v) }));
    }
  }
  return { id: review.id, type: 'review', attributes };
}

/** Seed 000 fields, plus `comment` (the last PATCH's) and `counterproposal` (seed 000's counterproposal fields, or null). */
function evaluationAttributes(review: ReviewRecord, e: RedlineEvaluationRecord): Record<string, unknown> {
  const cp = e.counterproposal;
  return {
    commentary: e.commentary,
    evaluation: e.evaluation,
    redline_id: e.redline_id,
    redline_review_id: review.id,
    relevant_rule_topic: { ...e.topic },
    rejection_comment: e.rejection_comment,
    comment: e.comment,
    counterproposal: cp
      ? { directive: cp.directive, suggested_counterproposal_text: cp.suggested_counterproposal_text, status: cp.status, created_at: cp.created_at, updated_at: cp.updated_at }
      : null,
    created_at: e.created_at,
    updated_at: e.updated_at,
  };
}

function positionAttributes(review: ReviewRecord, p: SummaryPositionRecord): Record<string, unknown> {
  return {
    created_at: p.created_at,
    updated_at: p.updated_at,
    detailed_explanation: p.detailed_explanation,
    // NOTE(api): the shape of document_references is not shown; ours is [{paragraph, text}].
    document_references: p.document_references,
    summary: p.summary,
    summary_review_id: review.id,
  };
}

function violationAttributes(review: ReviewRecord, v: FlagViolationRecord): Record<string, unknown> {
  return {
    decision: v.decision,
    created_at: v.created_at,
    updated_at: v.updated_at,
    document_references: v.document_references,
    reasoning: v.reasoning,
    remedy_suggested: v.remedy_suggested,
    reviewer: v.reviewer,
    rule: v.rule,
    // NOTE(api): ours is the id of the playbook rule the flag came from.
    summary_review_flag_id: v.flag_id,
    summary_review_id: review.id,
  };
}

export function evaluationView(review: ReviewRecord, e: RedlineEvaluationRecord): ResourceObject {
  return { id: e.id, type: 'redline_evaluation', attributes: evaluationAttributes(review, e) };
}

export function violationView(review: ReviewRecord, v: FlagViolationRecord): ResourceObject {
  return { id: v.id, type: 'flag_violation', attributes: violationAttributes(review, v) };
}
