/**
 * The data model of `docket test`: test files as loaded, the expectations they state, review
 * results as the matchers read them, and outcomes. Plain, serialisable data.
 */
import type { Diagnostic, SourcePos } from '../diagnostics.js';

export type Severity = 'error' | 'warn';

/**
 * How a text must read. `matches` holds the regular expression's source and its flags as written
 * (`(?i)`); `unicode`: it is run in Unicode mode too (compilePattern).
 */
export type TextMatch = { equals: string } | { contains: string } | { matches: string; flags: string; unicode?: true };

export interface Count {
  min?: number;
  max?: number;
}

export type OutcomeSet = { in: string[] } | { not_in: string[] };

/**
 * One thing a case expects: checked on its own, shown on its own line, annotated at its own place.
 * `exact`: the playbook has rules whose names compare alike (Term, TERM), so the name counts as written.
 */
export type ExpectationSpec =
  | { type: 'redline'; topic: string; evaluation?: OutcomeSet; count?: Count; commentary?: TextMatch; exact?: true }
  | { type: 'flag-includes'; rule: string; exact?: true }
  | { type: 'flag-excludes'; rule: string; exact?: true }
  | { type: 'flag-count'; count: Count }
  | { type: 'position'; summary?: TextMatch; detailed_explanation?: TextMatch; count: Count }
  | { type: 'accepted' }
  | { type: 'rejected'; field?: string };

export interface Expectation {
  /** How reports name it, e.g. `redline "Governing law" in {reject, needs_review}`; unique within its case. */
  label: string;
  severity: Severity;
  at: SourcePos;
  spec: ExpectationSpec;
}

/** `file`: relative to the configuration directory; `written`, `fileAt`: as the test file writes it, and where. */
export type ContractRef = { file: string; at: SourcePos; written?: string; fileAt?: SourcePos } | { importedFile: string; sha256: string; at: SourcePos };

export interface PlaybookCase {
  name: string;
  at: SourcePos;
  contract: ContractRef;
  /** null: the service chooses. */
  reviewType: string | null;
  repeat: number;
  passRate: number;
  expectations: Expectation[];
}

export interface TemplateCase {
  name: string;
  at: SourcePos;
  values: Record<string, unknown>;
  expectations: Expectation[];
}

export interface PlaybookTestFile {
  kind: 'PlaybookTest';
  file: string;
  /** The playbook's name as declared (normalised). */
  subject: string;
  at: SourcePos;
  cases: PlaybookCase[];
}

export interface TemplateTestFile {
  kind: 'TemplateTest';
  file: string;
  subject: string;
  at: SourcePos;
  cases: TemplateCase[];
}

export type TestFile = PlaybookTestFile | TemplateTestFile;

/** A redline evaluation, attributed to a rule of the playbook under test (or not: `rule` null). */
export interface RedlineFact {
  /** The rule's name when attributed, else the topic name the service gave. */
  topic: string;
  rule: string | null;
  evaluation: string | null;
  commentary: string | null;
}

export interface FlagFact {
  /** The rule the flag is attributed to (matching rules: src/testing/match.ts), or null. */
  rule: string | null;
  /** What the service said the flag is about (`rule`: the rule's text or summary). */
  text: string | null;
  decision: string | null;
}

export interface PositionFact {
  summary: string | null;
  detailed_explanation: string | null;
}

/** One review's results, attributed: what the matchers read and the cache keeps. */
export interface ReviewFacts {
  review_id: string;
  review_type: string;
  redlines: RedlineFact[];
  flags: FlagFact[];
  positions: PositionFact[];
}

export interface ExpectationResult {
  ok: boolean;
  /** What was found, in words (`accept`, `no flag of "Term"`, `3 flags`). */
  got: string;
}

export type CaseStatus = 'pass' | 'warn' | 'flaky' | 'fail' | 'error' | 'skipped';

export interface ExpectationOutcome {
  label: string;
  severity: Severity;
  at: SourcePos;
  /** Runs in which it held, of `runs`. */
  held: number;
  runs: number;
  /** What the first run in which it failed found (or the last run's when it always held). */
  got: string;
}

export interface CaseOutcome {
  name: string;
  at: SourcePos;
  status: CaseStatus;
  /** Why the case could not run or was skipped. */
  reason?: string;
  runs: number;
  /** Runs that met every error-level expectation. */
  passedRuns: number;
  passRate: number;
  expectations: ExpectationOutcome[];
  /** Reviews or agreements the results came from. */
  evidence: string[];
  /** Where the results came from: reviews made now, the cache, or both. */
  source?: 'live' | 'cache' | 'mixed';
  /** How long the case took, from its start to its result (cases run side by side: their times overlap). */
  ms?: number;
}

export interface SuiteOutcome {
  kind: TestFile['kind'];
  file: string;
  subject: string;
  /** The effective playbook digest the cases ran against (playbook suites). */
  digest?: string;
  /** `--live`: the cases ran against the live playbook, not the files' (probe RH-4). */
  live?: true;
  cases: CaseOutcome[];
  /** The same cases against the playbook at `--compare-to`. */
  before?: { ref: string; digest?: string; note?: string; cases: CaseOutcome[] };
  notes: string[];
}

export interface TestReport {
  target: string;
  suites: SuiteOutcome[];
  compareTo?: string;
  notes: string[];
  /** Scratch playbooks the run made and could not archive (the next run archives them). */
  leftBehind?: string[];
  /** Draft test agreements the run made and could not void (the next run voids them). */
  draftsLeft?: string[];
  /** The warnings of the test files and the configuration, at their lines (`--fail-on-warn` fails on them). */
  warnings?: Diagnostic[];
}
