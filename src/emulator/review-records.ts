/**
 * Making the records of the review service: an imported file from uploaded bytes, and a review
 * from an imported file and a playbook's rules (the stand-in reviewer's output with ids added).
 * Shared by the routes and by seeds.
 */
import { createHash, randomUUID } from 'node:crypto';
import { CONTENT_TYPES, contractKind, contractText, UnreadableContract, type ContractText } from './contract-text.js';
import type { ImportedFileRecord, RedlineEvaluationRecord, RedlineOutcome, ReviewCollections, ReviewRecord } from './review-state.js';
import { chooseReviewType, standInReview, type ReviewerRule, type ReviewType } from './reviewer.js';
import type { SeedImportedFile, SeedReview } from './seed-reviews.js';
import type { OrganizationRecord, UserRecord } from './store.js';

/** A seed whose reviews contradict it or themselves (found when its state is made): the seed's author's to fix. */
export class SeedError extends Error {}

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

// ---- seeds -----------------------------------------------------------------------------------

/**
 * The seeded imported files and reviews of an organization whose playbooks and rules are built
 * already. Throws when the seed contradicts itself (an unknown playbook, file or rule name, or
 * results of both review types).
 */
export function reviewCollectionsFromSeed(
  seed: { imported_files?: SeedImportedFile[]; reviews?: SeedReview[] },
  org: OrganizationRecord,
  users: Record<string, UserRecord>,
  now: string,
): Pick<ReviewCollections, 'imported_files' | 'reviews'> {
  const files: Record<string, ImportedFileRecord> = {};
  for (const sf of seed.imported_files ?? []) {
    const bytes = sf.content_base64 !== undefined ? Buffer.from(sf.content_base64, 'base64') : Buffer.from(sf.content ?? '', 'utf8');
    const file = newImportedFile(sf.id ?? randomUUID(), bytes, sf.filename, sf.content_type ?? null, now);
    files[file.id] = file;
  }
  const reviews: Record<string, ReviewRecord> = {};
  for (const sr of seed.reviews ?? []) {
    const what = `seed: review ${sr.id ?? `of ${sr.imported_file_filename ?? 'no file'}`}`;
    const playbook = sr.playbook_name === undefined ? undefined : Object.values(org.playbooks).find((p) => p.name === sr.playbook_name);
    if (sr.playbook_name !== undefined && !playbook) throw new SeedError(`${what} names unknown playbook "${sr.playbook_name}"`);
    const file = sr.imported_file_filename === undefined ? undefined : Object.values(files).find((f) => f.filename === sr.imported_file_filename);
    if (sr.imported_file_filename !== undefined && !file) throw new SeedError(`${what} names unknown imported file "${sr.imported_file_filename}"`);
    const rules = reviewerRules(users, org, playbook?.id ?? null);
    const recorded = sr.redline_evaluations !== undefined || sr.summary_positions !== undefined || sr.flag_violations !== undefined;
    let review: ReviewRecord;
    if (!recorded && file) {
      review = newReview({ id: sr.id ?? randomUUID(), playbookId: playbook?.id ?? null, file, reviewType: sr.review_type ?? null, rules }, randomUUID, now);
    } else {
      review = recordedReview(sr, what, playbook?.id ?? null, file?.id ?? null, rules, now);
    }
    review.status = sr.status ?? (review.error === null ? 'completed' : 'failed');
    if (sr.error !== undefined) review.error = sr.error;
    review.completed_at = review.status === 'processing' ? null : now;
    reviews[review.id] = review;
  }
  return { imported_files: files, reviews };
}

function recordedReview(sr: SeedReview, what: string, playbookId: string | null, fileId: string | null, rules: ReviewerRule[], now: string): ReviewRecord {
  const redline = sr.redline_evaluations !== undefined;
  if (redline && (sr.summary_positions !== undefined || sr.flag_violations !== undefined)) throw new SeedError(`${what} has results of both review types`);
  const type = sr.review_type ?? (redline ? 'RedlineReview' : 'SummaryReview');
  if ((type === 'RedlineReview') !== redline && (redline || sr.summary_positions !== undefined || sr.flag_violations !== undefined)) {
    throw new SeedError(`${what} is a ${type} with results of the other type`);
  }
  const stamps = { created_at: now, updated_at: now };
  return {
    id: sr.id ?? randomUUID(),
    review_type: type,
    status: 'completed',
    playbook_id: playbookId,
    imported_file_id: fileId,
    error: null,
    redline_evaluations: (sr.redline_evaluations ?? []).map((e) => {
      const rule = rules.find((r) => r.name === e.rule_name);
      if (playbookId !== null && !rule) throw new SeedError(`${what}: redline evaluation names "${e.rule_name}", not a rule of its playbook`);
      const cp = e.counterproposal;
      return {
        id: e.id ?? randomUUID(),
        redline_id: e.redline_id ?? randomUUID(),
        evaluation: e.evaluation as RedlineOutcome,
        commentary: e.commentary ?? null,
        rejection_comment: e.rejection_comment ?? null,
        comment: e.comment ?? null,
        topic: { id: rule?.id ?? randomUUID(), name: e.rule_name, questions: rule?.questions ?? null },
        redline_text: '',
        counterproposal: cp
          ? { directive: cp.directive ?? null, new_text: null, suggested_counterproposal_text: cp.suggested_counterproposal_text ?? null, status: cp.status ?? 'completed', ...stamps }
          : null,
        ...stamps,
      };
    }),
    summary_positions: (sr.summary_positions ?? []).map((p) => ({
      id: p.id ?? randomUUID(),
      summary: p.summary,
      detailed_explanation: p.detailed_explanation ?? null,
      document_references: p.document_references ?? [],
      ...stamps,
    })),
    flag_violations: (sr.flag_violations ?? []).map((v) => ({
      id: v.id ?? randomUUID(),
      rule: v.rule,
      flag_id: rules.find((r) => r.name === v.rule)?.id ?? randomUUID(),
      decision: v.decision ?? null,
      reviewer: v.reviewer_email ?? null,
      reasoning: v.reasoning ?? null,
      remedy_suggested: v.remedy_suggested ?? null,
      document_references: v.document_references ?? [],
      ...stamps,
    })),
    ...stamps,
    completed_at: now,
  };
}
