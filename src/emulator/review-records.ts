/**
 * Making the records of the review service: an imported file from uploaded bytes, and a review
 * from an imported file and a playbook's rules (the stand-in reviewer's output with ids added).
 * Shared by the routes and by seeds.
 */
import { createHash } from 'node:crypto';
import { CONTENT_TYPES, contractKind, contractText, UnreadableContract, type ContractText } from './contract-text.js';
import type { ImportedFileRecord, RedlineEvaluationRecord, ReviewRecord } from './review-state.js';
import { chooseReviewType, standInReview, type ReviewerRule, type ReviewType } from './reviewer.js';
import type { OrganizationRecord, UserRecord } from './store.js';

export function newImportedFile(id: string, bytes: Buffer, filename: string | null, sentType: string | null, now: string): ImportedFileRecord {
  const kind = contractKind(bytes);
  // What the bytes are decides for Word and PDF files; a text file keeps the type it was sent with.
  const generic = sentType === null || sentType === '' || sentType === 'application/octet-stream';
  return {
    id,
    filename,
    content_type: kind !== 'text' || generic ? CONTENT_TYPES[kind] : sentType,
    byte_size: bytes.length,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    content_base64: bytes.toString('base64'),
    created_at: now,
    updated_at: now,
  };
}

export function fileBytes(file: ImportedFileRecord): Buffer {
  return Buffer.from(file.content_base64, 'base64');
}

/** The playbook's rules as the stand-in reads them, with each rule's effective reviewer e-mail. */
export function reviewerRules(users: Record<string, UserRecord>, org: OrganizationRecord, playbookId: string | null): ReviewerRule[] {
  if (playbookId === null) return [];
  return Object.values(org.rules)
    .filter((r) => r.playbook_id === playbookId)
    .map((r) => {
      const reviewerId = r.reviewer_id ?? org.default_reviewer_id;
      const reviewer = reviewerId !== null && Object.hasOwn(users, reviewerId) ? (users[reviewerId]?.email ?? null) : null;
      return { id: r.id, name: r.name, actions: r.actions, questions: r.questions, generate_summary: r.generate_summary, reviewer };
    });
}

export interface ReviewInput {
  id: string;
  playbookId: string | null;
  file: ImportedFileRecord;
  /** The requested type; null lets the stand-in choose. */
  reviewType: ReviewType | null;
  rules: ReviewerRule[];
}

/**
 * A `processing` review whose results are made now (a snapshot of the rules at creation). A file
 * the stand-in cannot read makes a review that will fail.
 */
export function newReview(input: ReviewInput, newId: () => string, now: string): ReviewRecord {
  const review: ReviewRecord = {
    id: input.id,
    review_type: input.reviewType ?? 'SummaryReview',
    status: 'processing',
    playbook_id: input.playbookId,
    imported_file_id: input.file.id,
    error: null,
    redline_evaluations: [],
    summary_positions: [],
    flag_violations: [],
    created_at: now,
    updated_at: now,
    completed_at: null,
  };
  let contract: ContractText;
  try {
    contract = contractText(fileBytes(input.file));
  } catch (err) {
    if (!(err instanceof UnreadableContract)) throw err;
    review.error = err.message;
    return review;
  }
  const stand = standInReview(contract, input.rules, input.reviewType ?? chooseReviewType(contract));
  review.review_type = stand.review_type;
  const redlineIds = new Map<number, string>();
  review.redline_evaluations = stand.redline_evaluations.map((e): RedlineEvaluationRecord => {
    const redlineId = redlineIds.get(e.paragraph) ?? newId();
    redlineIds.set(e.paragraph, redlineId);
    return {
      id: newId(),
      redline_id: redlineId,
      evaluation: e.evaluation,
      commentary: e.commentary,
      rejection_comment: null,
      comment: null,
      topic: { id: e.rule.id, name: e.rule.name, questions: e.rule.questions },
      redline_text: e.redline_text,
      counterproposal: e.counterproposal ? { ...e.counterproposal, new_text: null, status: 'completed', created_at: now, updated_at: now } : null,
      created_at: now,
      updated_at: now,
    };
  });
  review.summary_positions = stand.summary_positions.map((p) => ({
    id: newId(),
    summary: p.summary,
    detailed_explanation: p.detailed_explanation,
    document_references: p.document_references,
    created_at: now,
    updated_at: now,
  }));
  review.flag_violations = stand.flag_violations.map((v) => ({
    id: newId(),
    rule: v.rule.name,
    flag_id: v.rule.id,
    decision: null,
    reviewer: null,
    reasoning: v.reasoning,
    remedy_suggested: v.remedy_suggested,
    document_references: v.document_references,
    created_at: now,
    updated_at: now,
  }));
  return review;
}

/** The text the stand-in suggests for a counterproposal given as a directive. */
export function suggestedCounterproposal(directive: string, redlineText: string): string {
  return `${redlineText === '' ? '' : `${redlineText} `}[Counterproposal: ${directive}]`;
}
