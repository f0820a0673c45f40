/**
 * The review service's reviews of one organization (`OrganizationRecord`: imported files, reviews
 * and pending signed uploads): plain JSON like the rest of the state, and how old state files
 * that lack them are completed.
 */
import type { DocumentReference, Evaluation, ReviewType } from './reviewer.js';

export type ReviewStatus = 'processing' | 'completed' | 'failed';

export interface ImportedFileRecord {
  id: string;
  filename: string | null;
  content_type: string;
  byte_size: number;
  sha256: string;
  /** The file itself, so the stand-in can read it and the original can be downloaded. */
  content_base64: string;
  created_at: string;
  updated_at: string;
}

/** NOTE(api): counterproposal `status` values are not shown; ours are `processing` and `completed`. */
export type CounterproposalStatus = 'processing' | 'completed';

export interface CounterproposalRecord {
  directive: string | null;
  /** Sent as `new_text`; becomes the suggested text as it is. */
  new_text: string | null;
  suggested_counterproposal_text: string | null;
  status: CounterproposalStatus;
  created_at: string;
  updated_at: string;
}

/** Outcomes a reviewer records (the five PATCH actions) besides the stand-in's evaluations. */
export type RedlineOutcome = Evaluation | 'manual' | 'counterpropose';

export interface RedlineEvaluationRecord {
  id: string;
  redline_id: string;
  evaluation: RedlineOutcome;
  commentary: string | null;
  rejection_comment: string | null;
  /** The `comment` of the last PATCH. */
  comment: string | null;
  /** The rule topic, as it was when the review was made. */
  topic: { id: string; name: string; questions: string | null };
  /** The redline's paragraph text (for generated counterproposals); not shown. */
  redline_text: string;
  counterproposal: CounterproposalRecord | null;
  created_at: string;
  updated_at: string;
}

export interface SummaryPositionRecord {
  id: string;
  summary: string;
  detailed_explanation: string | null;
  document_references: DocumentReference[];
  created_at: string;
  updated_at: string;
}

export interface FlagViolationRecord {
  id: string;
  /** The rule's name (its summary). */
  rule: string;
  /** The playbook rule the flag came from (shown as `summary_review_flag_id`). */
  flag_id: string;
  decision: string | null;
  reviewer: string | null;
  reasoning: string | null;
  remedy_suggested: string | null;
  document_references: DocumentReference[];
  created_at: string;
  updated_at: string;
}

export interface ReviewRecord {
  id: string;
  review_type: ReviewType;
  status: ReviewStatus;
  playbook_id: string | null;
  imported_file_id: string | null;
  /** Why the review failed (the stand-in could not read the file); null otherwise. */
  error: string | null;
  /** Made at creation (a snapshot of the rules then) and shown once the review is completed. */
  redline_evaluations: RedlineEvaluationRecord[];
  summary_positions: SummaryPositionRecord[];
  flag_violations: FlagViolationRecord[];
  created_at: string;
  updated_at: string;
  completed_at: string | null;
}

/** A signed upload URL handed out by the MCP mint body; used once. */
export interface ReviewUploadRecord {
  token: string;
  filename: string;
  playbook_id: string;
  review_type: ReviewType | null;
  created_at: string;
}

export interface ReviewCollections {
  imported_files: Record<string, ImportedFileRecord>;
  reviews: Record<string, ReviewRecord>;
  review_uploads: Record<string, ReviewUploadRecord>;
}

/** State files written before reviews existed lack these collections. */
export function normalizeReviewCollections(org: Partial<ReviewCollections>): void {
  org.imported_files ??= {};
  org.reviews ??= {};
  org.review_uploads ??= {};
}
