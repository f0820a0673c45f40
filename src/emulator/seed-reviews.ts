/**
 * The review part of a seed organization: imported files and reviews that exist already, e.g. a
 * completed review with recorded decisions for `docket test capture --review <id>`.
 */
import { isObject, onlyKeys, optionalList, optionalOneOf, optionalType, requireString } from './seed-checks.js';

export interface SeedImportedFile {
  id?: string;
  filename: string;
  /** The file as UTF-8 text (a text contract); or give `content_base64`. */
  content?: string;
  /** The file's bytes, base64 (a .docx or PDF). */
  content_base64?: string;
  /** Default: from the bytes (docx, PDF), else text/plain. */
  content_type?: string;
}

export interface SeedCounterproposal {
  directive?: string | null;
  suggested_counterproposal_text?: string | null;
  /** Default `completed`. */
  status?: 'processing' | 'completed';
}

export interface SeedRedlineEvaluation {
  id?: string;
  /** A rule of the review's playbook by name (any name when the review names no playbook). */
  rule_name: string;
  /** accept, reject, manual, needs_review or counterpropose (a recorded outcome). */
  evaluation: string;
  commentary?: string | null;
  comment?: string | null;
  rejection_comment?: string | null;
  /** Evaluations with the same redline_id are about one redline; default: one redline each. */
  redline_id?: string;
  counterproposal?: SeedCounterproposal | null;
}

export interface SeedDocumentReference {
  paragraph: number;
  text: string;
}

export interface SeedSummaryPosition {
  id?: string;
  summary: string;
  detailed_explanation?: string | null;
  document_references?: SeedDocumentReference[];
}

export interface SeedFlagViolation {
  id?: string;
  /** The rule text or summary that was evaluated (the stand-in uses the rule's name). */
  rule: string;
  decision?: string | null;
  /** Who recorded the decision. */
  reviewer_email?: string | null;
  reasoning?: string | null;
  remedy_suggested?: string | null;
  document_references?: SeedDocumentReference[];
}

export interface SeedReview {
  id?: string;
  /** Default: RedlineReview when redline_evaluations are given, else as the stand-in chooses for the file. */
  review_type?: 'RedlineReview' | 'SummaryReview';
  /** A seeded playbook of the organization. */
  playbook_name?: string;
  /** A seeded imported file, by filename. */
  imported_file_filename?: string;
  /** Default `completed`; `processing` completes after the review delay. */
  status?: 'processing' | 'completed' | 'failed';
  /** Why a `failed` review failed. */
  error?: string;
  /**
   * The results as recorded. When none of the three is given and the review has a file, the
   * stand-in reviewer makes them from the file and the playbook's rules.
   */
  redline_evaluations?: SeedRedlineEvaluation[];
  summary_positions?: SeedSummaryPosition[];
  flag_violations?: SeedFlagViolation[];
}

export const SEED_EVALUATIONS = ['accept', 'reject', 'manual', 'needs_review', 'counterpropose'] as const;

export function checkReviewsSeed(org: Record<string, unknown>, at: string, problems: string[]): void {
  optionalList(org, 'imported_files', at, problems, (f, fat) => {
    onlyKeys(f, ['id', 'filename', 'content', 'content_base64', 'content_type'], fat, problems);
    requireString(f, 'filename', fat, problems);
    for (const key of ['id', 'content', 'content_base64', 'content_type']) optionalType(f, key, 'string', fat, problems);
    if ((f.content === undefined) === (f.content_base64 === undefined)) problems.push(`${fat} needs exactly one of content or content_base64`);
  });
  optionalList(org, 'reviews', at, problems, (r, rat) => {
    onlyKeys(r, ['id', 'review_type', 'playbook_name', 'imported_file_filename', 'status', 'error', 'redline_evaluations', 'summary_positions', 'flag_violations'], rat, problems);
    for (const key of ['id', 'playbook_name', 'imported_file_filename', 'error']) optionalType(r, key, 'string', rat, problems);
    optionalOneOf(r, 'review_type', ['RedlineReview', 'SummaryReview'], rat, problems);
    optionalOneOf(r, 'status', ['processing', 'completed', 'failed'], rat, problems);
    optionalList(r, 'redline_evaluations', rat, problems, (e, eat) => {
      onlyKeys(e, ['id', 'rule_name', 'evaluation', 'commentary', 'comment', 'rejection_comment', 'redline_id', 'counterproposal'], eat, problems);
      requireString(e, 'rule_name', eat, problems);
      optionalOneOf(e, 'evaluation', SEED_EVALUATIONS, eat, problems);
      if (e.evaluation === undefined) problems.push(`${eat}.evaluation is required`);
      optionalType(e, 'id', 'string', eat, problems);
      optionalType(e, 'redline_id', 'string', eat, problems);
      for (const key of ['commentary', 'comment', 'rejection_comment']) optionalType(e, key, 'string', eat, problems, true);
      const cp = e.counterproposal;
      if (cp !== undefined && cp !== null) {
        if (!isObject(cp)) problems.push(`${eat}.counterproposal must be an object or null`);
        else {
          onlyKeys(cp, ['directive', 'suggested_counterproposal_text', 'status'], `${eat}.counterproposal`, problems);
          for (const key of ['directive', 'suggested_counterproposal_text']) optionalType(cp, key, 'string', `${eat}.counterproposal`, problems, true);
          optionalOneOf(cp, 'status', ['processing', 'completed'], `${eat}.counterproposal`, problems);
        }
      }
    });
    optionalList(r, 'summary_positions', rat, problems, (p, pat) => {
      onlyKeys(p, ['id', 'summary', 'detailed_explanation', 'document_references'], pat, problems);
      requireString(p, 'summary', pat, problems);
      optionalType(p, 'id', 'string', pat, problems);
      optionalType(p, 'detailed_explanation', 'string', pat, problems, true);
      checkReferences(p, pat, problems);
    });
    optionalList(r, 'flag_violations', rat, problems, (v, vat) => {
      onlyKeys(v, ['id', 'rule', 'decision', 'reviewer_email', 'reasoning', 'remedy_suggested', 'document_references'], vat, problems);
      requireString(v, 'rule', vat, problems);
      optionalType(v, 'id', 'string', vat, problems);
      for (const key of ['decision', 'reviewer_email', 'reasoning', 'remedy_suggested']) optionalType(v, key, 'string', vat, problems, true);
      checkReferences(v, vat, problems);
    });
  });
}

function checkReferences(obj: Record<string, unknown>, at: string, problems: string[]): void {
  optionalList(obj, 'document_references', at, problems, (ref, rat) => {
    onlyKeys(ref, ['paragraph', 'text'], rat, problems);
    if (!(typeof ref.paragraph === 'number' && Number.isInteger(ref.paragraph) && ref.paragraph >= 1)) problems.push(`${rat}.paragraph must be a whole number of at least 1`);
    if (typeof ref.text !== 'string') problems.push(`${rat}.text must be a string`);
  });
}
