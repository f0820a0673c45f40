/**
 * The stand-in reviewer: a deterministic, documented imitation of the review service's reviewer,
 * good enough to test docket's runner, matching, caching and reports. It does not model the real
 * reviewer. Pure: the same contract text and rules give the same output (ids are added by the caller).
 *
 * Rules, exactly (src/emulator/README.md "The stand-in reviewer" says the same):
 * - Words: the text lower-cased (NFKC) and split on anything that is not a letter or digit.
 * - Topic words of a rule: the words of its name minus STOP_WORDS (all of them if only stop
 *   words are left). A text mentions the topic when every topic word is one of its words.
 * - Action lines: each line of `actions` that starts (after bullets or numbering) with ACCEPT,
 *   REJECT, NEEDS REVIEW or COUNTERPROPOSE (any case; NEEDS_REVIEW/NEEDS-REVIEW too). The rest
 *   of the line is its condition; the condition words are its words minus STOP_WORDS.
 * - Decision for a text: the first action line whose condition words all appear in the text (an
 *   empty condition always applies): ACCEPT → accept, REJECT → reject, NEEDS REVIEW → needs_review,
 *   COUNTERPROPOSE → reject with a suggested counterproposal (the condition text). No line applies,
 *   or the rule has no action lines → needs_review.
 * - RedlineReview: the redlines are the paragraphs with tracked changes when the .docx has any,
 *   else every paragraph. Each (redline, rule) pair where the redline (its text plus deleted text)
 *   mentions the rule's topic gets one evaluation: the decision for the paragraph's current text.
 * - SummaryReview: each rule with generate_summary gets a summary position: the first sentence
 *   mentioning its topic, else the first paragraph mentioning it, else NOT_ADDRESSED. A rule
 *   with action lines gets a flag violation when a paragraph mentions its topic and the decision
 *   for it is reject or needs_review (the first such paragraph). Unmentioned topics never flag.
 * - Review type when the request names none: RedlineReview for a .docx with tracked changes,
 *   else SummaryReview.
 */
import type { ContractText } from './contract-text.js';

export type ReviewType = 'RedlineReview' | 'SummaryReview';
export const REVIEW_TYPES: readonly ReviewType[] = ['RedlineReview', 'SummaryReview'];

export type Evaluation = 'accept' | 'reject' | 'needs_review';

export const NOT_ADDRESSED = 'Not addressed in the contract.';

/** Dropped from topic and condition words, so "Limitation of Liability" needs "limitation" and "liability". */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  'a an and any are as at be by for from if in into is it its of on or than that the their this to when where which while with unless'.split(' '),
);

export interface ReviewerRule {
  id: string;
  name: string;
  actions: string | null;
  questions: string | null;
  generate_summary: boolean;
  /** E-mail of the escalation reviewer (the rule's, else the organization default), if any. */
  reviewer: string | null;
}

export interface DocumentReference {
  /** 1-based paragraph number in the contract. */
  paragraph: number;
  text: string;
}

export interface Counterproposal {
  directive: string | null;
  suggested_counterproposal_text: string | null;
}

export interface StandInEvaluation {
  /** 1-based number of the redline's paragraph; evaluations of one paragraph share a redline. */
  paragraph: number;
  rule: ReviewerRule;
  evaluation: Evaluation;
  commentary: string;
  /** The redline's text (for counterproposals later). */
  redline_text: string;
  counterproposal: Counterproposal | null;
}

export interface StandInPosition {
  rule: ReviewerRule;
  summary: string;
  detailed_explanation: string;
  document_references: DocumentReference[];
}

export interface StandInViolation {
  rule: ReviewerRule;
  reasoning: string;
  remedy_suggested: string;
  document_references: DocumentReference[];
}

export interface StandInReview {
  review_type: ReviewType;
  redline_evaluations: StandInEvaluation[];
  summary_positions: StandInPosition[];
  flag_violations: StandInViolation[];
}

export function chooseReviewType(contract: ContractText): ReviewType {
  return contract.kind === 'docx' && contract.trackedChanges ? 'RedlineReview' : 'SummaryReview';
}

export function words(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

export function topicWords(ruleName: string): string[] {
  const all = words(ruleName);
  const significant = all.filter((w) => !STOP_WORDS.has(w));
  return significant.length > 0 ? significant : all;
}

/** Every one of `wanted` is a word of `text` (no wanted words: false, so a nameless topic never matches). */
export function mentions(text: string, wanted: string[]): boolean {
  if (wanted.length === 0) return false;
  const have = new Set(words(text));
  return wanted.every((w) => have.has(w));
}

type Keyword = 'ACCEPT' | 'REJECT' | 'NEEDS REVIEW' | 'COUNTERPROPOSE';

export interface ActionLine {
  keyword: Keyword;
  /** The line as written (trimmed, without its bullet). */
  line: string;
  /** The text after the keyword. */
  condition: string;
}

const ACTION_LINE = /^(accept|reject|needs[\s_-]+review|counter-?propose)\b[\s:,-]*(.*)$/i;

export function actionLines(actions: string | null): ActionLine[] {
  const out: ActionLine[] = [];
  for (const raw of (actions ?? '').split(/\r?\n/)) {
    const line = raw.trim().replace(/^(?:[-*\u2022]+|\d+[.)])\s*/, '');
    const m = ACTION_LINE.exec(line);
    if (!m) continue;
    const word = (m[1] ?? '').toUpperCase().replace(/[\s_-]+/g, ' ');
    const keyword: Keyword = word === 'NEEDS REVIEW' ? 'NEEDS REVIEW' : word.startsWith('COUNTER') ? 'COUNTERPROPOSE' : (word as Keyword);
    out.push({ keyword, line, condition: (m[2] ?? '').trim() });
  }
  return out;
}

export interface Decision {
  evaluation: Evaluation;
  /** The action line that applied; null when none did (or the rule has none). */
  applied: ActionLine | null;
  /** Whether the rule has any action line at all. */
  hasActions: boolean;
}

const OUTCOME: Record<Keyword, Evaluation> = { ACCEPT: 'accept', REJECT: 'reject', 'NEEDS REVIEW': 'needs_review', COUNTERPROPOSE: 'reject' };

export function decide(actions: string | null, text: string): Decision {
  const lines = actionLines(actions);
  const have = new Set(words(text));
  for (const line of lines) {
    const condition = words(line.condition).filter((w) => !STOP_WORDS.has(w));
    if (condition.every((w) => have.has(w))) return { evaluation: OUTCOME[line.keyword], applied: line, hasActions: true };
  }
  return { evaluation: 'needs_review', applied: null, hasActions: lines.length > 0 };
}

export function standInReview(contract: ContractText, rules: ReviewerRule[], reviewType: ReviewType): StandInReview {
  return reviewType === 'RedlineReview'
    ? { review_type: reviewType, redline_evaluations: redlineEvaluations(contract, rules), summary_positions: [], flag_violations: [] }
    : { review_type: reviewType, redline_evaluations: [], summary_positions: summaryPositions(contract, rules), flag_violations: flagViolations(contract, rules) };
}

function redlineEvaluations(contract: ContractText, rules: ReviewerRule[]): StandInEvaluation[] {
  const out: StandInEvaluation[] = [];
  contract.paragraphs.forEach((p, i) => {
    if (contract.trackedChanges && !p.changed) return;
    // A deletion is about its topic too, but the decision reads what the paragraph says now.
    const seen = `${p.text} ${p.deleted}`;
    const shown = p.text === '' ? `deleted: ${p.deleted}` : p.text;
    for (const rule of rules) {
      if (!mentions(seen, topicWords(rule.name))) continue;
      const decision = decide(rule.actions, p.text);
      const counter = decision.applied?.keyword === 'COUNTERPROPOSE';
      out.push({
        paragraph: i + 1,
        rule,
        evaluation: decision.evaluation,
        commentary: `Paragraph ${i + 1} (${quote(shown)}) mentions "${rule.name}"; ${why(decision, rule)}`,
        redline_text: p.text,
        counterproposal: counter ? { directive: null, suggested_counterproposal_text: decision.applied?.condition || null } : null,
      });
    }
  });
  return out;
}

function why(decision: Decision, rule: ReviewerRule): string {
  if (decision.applied) return `the playbook says: ${decision.applied.line}`;
  const escalate = rule.reviewer ? `; escalated to ${rule.reviewer}` : '';
  return decision.hasActions ? `no action of the rule applies, so it needs review${escalate}` : `the rule has no actions, so it needs review${escalate}`;
}

function quote(text: string): string {
  return `"${text.length > 80 ? `${text.slice(0, 79)}…` : text}"`;
}

function sentences(text: string): string[] {
  return text.split(/(?<=[.!?])\s+(?=\S)/).filter((s) => s !== '');
}

function summaryPositions(contract: ContractText, rules: ReviewerRule[]): StandInPosition[] {
  return rules
    .filter((rule) => rule.generate_summary)
    .map((rule) => {
      const topic = topicWords(rule.name);
      const refs: DocumentReference[] = [];
      contract.paragraphs.forEach((p, i) => {
        for (const s of sentences(p.text)) if (mentions(s, topic)) refs.push({ paragraph: i + 1, text: s });
      });
      const paragraph = contract.paragraphs.findIndex((p) => mentions(p.text, topic));
      const summary = refs[0]?.text ?? contract.paragraphs[paragraph]?.text ?? NOT_ADDRESSED;
      if (refs.length === 0 && paragraph >= 0) refs.push({ paragraph: paragraph + 1, text: summary });
      const where = refs.length > 0 ? `mentioned in paragraph ${[...new Set(refs.map((r) => r.paragraph))].join(', ')}` : `no sentence mentions ${topic.join(' + ')}`;
      const questions = rule.questions ? ` Questions: ${rule.questions}` : '';
      return { rule, summary, detailed_explanation: `Topic "${rule.name}": ${where}.${questions}`, document_references: refs };
    });
}

function flagViolations(contract: ContractText, rules: ReviewerRule[]): StandInViolation[] {
  const out: StandInViolation[] = [];
  for (const rule of rules) {
    const topic = topicWords(rule.name);
    for (const [i, p] of contract.paragraphs.entries()) {
      if (!mentions(p.text, topic)) continue;
      const decision = decide(rule.actions, p.text);
      if (!decision.hasActions || decision.evaluation === 'accept') continue;
      out.push({
        rule,
        reasoning: `Paragraph ${i + 1} (${quote(p.text)}) mentions "${rule.name}"; ${why(decision, rule)}`,
        remedy_suggested: decision.applied ? decision.applied.line : `Needs review${rule.reviewer ? ` by ${rule.reviewer}` : ''}: no action of the rule applies.`,
        document_references: [{ paragraph: i + 1, text: p.text }],
      });
      break;
    }
  }
  return out;
}
