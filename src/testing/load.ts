/**
 * Loads `*.test.yaml` files: finds them anywhere below the configuration directory, checks them
 * against schemas/test.schema.json and against the configuration (the playbook or template they
 * test, its rules, the contract files, the regular expressions), and turns them into TestFiles.
 * Every problem is a diagnostic at file:line:col quoting the value; nothing stops at the first.
 */
import { xmlChars } from '../util/xml-chars.js';
import { tooManyDocuments } from '../config/yaml-read.js';
import { crAsLf } from '../util/line-break.js';
import { realpath, stat } from 'node:fs/promises';
import path from 'node:path';
import { PROJECT_FILES } from '../config/load.js';
import { isWorkFile, LOCK_FILE } from '../config/work-dir.js';
import { discoverYamlFiles, invalidUtf8, isTestFile, readFiles, unreadableFile } from '../config/discover.js';
import { isAbsoluteName, isInside, resolveDataPath, rootRelative, startsAsPdf, startsAsZip } from '../config/data-files.js';
import { gotValue, schemaDiagnostics } from '../config/schema.js';
import { schemaValidator } from '../config/validators.js';
import { didYouMean, didYouMeanBecause } from '../config/suggest.js';
import { quoteValue, showWholeText } from '../config/quote.js';
import { textDiagnostics, withoutEchoesOf } from '../config/text-hygiene.js';
import { taggedIn, writtenIn } from '../config/written-number.js';
import { keyInFileText, keyInPath, keysOf } from '../config/api-keys.js';
import { keysHeld, placeOf } from '../config/interpolate.js';
import { linesIn } from '../config/source-lines.js';
import { joinPointer, parseWithPositions, pointerToPath, type DocPositions } from '../config/yaml-positions.js';
import { compareDiagnostics, uniqueDiagnostics, type Diagnostic, type SourcePos } from '../diagnostics.js';
import { normName } from '../engine/normalize.js';
import { KINDS } from '../kinds/index.js';
import type { PlaybookSubject, RenamedAway, TemplateSubject } from '../kinds/support/test-subjects.js';
import { isPlainObject } from '../util/plain.js';
import { LINK_HINT, NOT_REGULAR_FILE, linkReason } from '../util/special-file.js';
import { fileHeadOrError } from '../util/file-head.js';
import { countLabel, outcomesLabel, textLabel } from './labels.js';
import { alikeIn, exactNameKey, fieldNames, nameKey } from './match.js';
import { shortList } from '../render/facts.js';
import type { ContractRef, Count, Expectation, ExpectationSpec, OutcomeSet, PlaybookCase, Severity, TemplateCase, TestFile, TextMatch } from './types.js';
import { wordFileProblem } from '../util/word-file.js';
import { deniedOrCode } from '../util/permission.js';
import { pushAll } from '../util/push-all.js';

/** A test file naming its subject through a placeholder: test files take none (probe JL-4). */
const PLACEHOLDER_HINT = (wanted: string): string | undefined =>
  wanted.includes('${') ? 'test files are read as written, without placeholders: name it as the environment the tests run against declares it' : undefined;

export const TEST_SCHEMA = 'test.schema.json';

/** The outcomes seed 000 and the public docs name; another value is allowed, with a warning. */
export const KNOWN_OUTCOMES = ['accept', 'reject', 'needs_review', 'manual', 'counterpropose'];

export interface TestSubjects {
  playbooks: Map<string, PlaybookSubject>;
  templates: Map<string, TemplateSubject>;
  /** `agreements.actor`: the owner and signer of template tests' agreements. */
  actor: string | undefined;
  /**
   * The configuration could not be read (validate still checks the test files, to report every
   * problem at once): what the tests name is not checked against it.
   */
  unknown?: boolean;
}

export interface LoadedTests {
  files: TestFile[];
  diagnostics: Diagnostic[];
}

/**
 * A case's name as reports show it, by which two cases of one subject must differ: JUnit reads a
 * name as a token (blanks at its ends dropped, runs of them one, characters XML cannot hold left
 * out), and text does not show them (probes YA-3, AA-2).
 */
export function shownCaseName(name: string): string {
  return xmlChars(name.normalize('NFC')).trim().replace(/\s+/g, ' ');
}

/** Every test file below `root` (relative paths, sorted). */
export async function findTestFiles(root: string): Promise<string[]> {
  // A folder or link that cannot be read is reported by the configuration's own loading.
  return (await discoverYamlFiles(root)).files.filter(isTestFile);
}

export async function loadTests(root: string, subjects: TestSubjects, only?: readonly string[], env: Readonly<Record<string, string | undefined>> = {}): Promise<LoadedTests> {
  const found = await findTestFiles(root);
  const files = only && only.length > 0 ? found.filter((f) => only.includes(f)) : found;
  const validate = await schemaValidator(TEST_SCHEMA);
  const diagnostics: Diagnostic[] = [];
  const out: TestFile[] = [];
  // Case names by subject, across documents and files: a JUnit report names a case by its suite's
  // kind and subject and its name, and could not tell two apart (probe CA-4).
  const firstCases = new Map<string, FirstCase>();
  for (const file of files) {
    // Strictly and never waited on, as resource files are read: a byte that is not UTF-8 is
    // reported, not read as U+FFFD, and a named pipe is refused rather than read.
    // One result per file given.
    const read = readFiles(root, [file])[0]!;
    if ('unreadable' in read) {
      diagnostics.push(unreadableFile(file, read.unreadable));
      continue;
    }
    if (!('text' in read)) {
      diagnostics.push(invalidUtf8(file, read));
      continue;
    }
    // A document bomb is refused before the full parser takes it, as a configuration file's is (second read SR92-5).
    // A lone CR is a line break, as the loader reads it: the library's parser takes it for text (probe EB-2).
    const text = crAsLf(read.text);
    const tooMany = tooManyDocuments(text, file);
    if (tooMany) {
      diagnostics.push(tooMany);
      continue;
    }
    const parsed = parseWithPositions(text, file);
    pushAll(diagnostics, parsed.diagnostics);
    // A key pasted into a test (a case's name, a comment) would be committed with it.
    const key = keyInFileText(file, text, env);
    if (key) diagnostics.push(key);
    // Or one its text does not show: written with double-quoted escapes (`\x73k_live_…`, probe IP).
    const escapedKeys = !key && text.includes('\\') ? keysOf(env) : [];
    // To quote a value as written (`review_type: ~`, `repeat: 0x3`).
    const lineOf = linesIn(text);
    const written = writtenIn(lineOf);
    for (const doc of parsed.documents) {
      // After a duplicate key every value still reads as written: the other checks run, as they do
      // in resource files, so one run reports every problem of the file.
      if (!doc.ok && !doc.readable) continue;
      const value: unknown = doc.value;
      for (const p of escapedKeys.length > 0 ? keysHeld(value, escapedKeys, text).slice(0, 1) : []) {
        diagnostics.push({ severity: 'error', code: p.code, message: p.message, ...placeOf(p, doc.positions), ...(p.hint ? { hint: p.hint } : {}) });
      }
      const hygiene = textDiagnostics(value, doc.positions, { lineOf });
      pushAll(diagnostics, hygiene);
      const label = isPlainObject(value) && typeof value.kind === 'string' ? value.kind : 'test file';
      // A resource in a test file is in the wrong file, not a misspelt test.
      const resource = isPlainObject(value) && typeof value.kind === 'string' ? KINDS.find((k) => k.yamlKind === value.kind) : undefined;
      if (resource) {
        const renamed = file.replace(/\.tests?\.ya?ml$/i, '.yaml');
        // Never a rename onto a file that exists: following the hint would overwrite it (probe OO-1).
        const taken = parsed.documents.length === 1 && (await stat(path.join(root, renamed)).then(() => true, () => false));
        const where = parsed.documents.length !== 1 ? '' : taken ? ` (${renamed} exists: add the document to it after a \`---\` line, or rename ${file} to another name)` : ` (rename ${file} to ${renamed})`;
        diagnostics.push({
          severity: 'error',
          code: 'unknown-kind',
          message: `${resource.yamlKind} is a resource, and files named *.test.yaml hold only tests (\`kind: PlaybookTest\` or \`kind: TemplateTest\`)`,
          ...doc.positions.valueAt('/kind'),
          path: 'kind',
          hint: `move it to a file not named *.test.yaml${where}`,
        });
        continue;
      }
      const valid = validate(value);
      // A value with a control character is one error, not also the schema's about the same value.
      // Tests written as list items (`- kind: PlaybookTest`) read as a list: said how to write them, as for resource files.
      const listed = Array.isArray(value) && value.some((item) => isPlainObject(item) && item.kind !== undefined);
      const hint = 'write each test as a document of its own, without the leading `- ` (separate documents in one file with `---`)';
      if (!valid) pushAll(diagnostics, withoutEchoesOf(hygiene, schemaDiagnostics(validate.errors, { positions: doc.positions, documentLabel: label, written, tagged: taggedIn(lineOf) })).map((d) => (listed && !d.path && !d.hint ? { ...d, hint } : d)));
      // The checks below run on a document the schema refused too (each reads only values of the
      // right type), so one run reports every problem, not the schema's first and then the rest.
      if (!isPlainObject(value) || (value.kind !== 'PlaybookTest' && value.kind !== 'TemplateTest')) continue;
      const checker = new Checker(root, file, doc.positions, subjects, diagnostics, firstCases, keysOf(env));
      const loaded = await checker.document(value as Record<string, unknown>);
      if (loaded && valid && doc.ok && hygiene.length === 0) out.push(loaded);
    }
  }
  // A mistake an alias or merge key brings again is said once, where it is written (probe OK-1).
  return { files: out, diagnostics: uniqueDiagnostics(diagnostics).sort(compareDiagnostics) };
}

/** What a flag or position expected of a RedlineReview is to become. */
const REDLINE_REVIEW_HINT = 'use `review_type: SummaryReview` (or leave it out: the service chooses)';

/** Where a case name was first seen: the case's line, and its name's place in that document. */
interface FirstCase {
  line: number;
  positions: DocPositions;
  nameAt: SourcePos;
  /** As written. */
  name: string;
  file: string;
}

/** The checks a schema cannot make, for one document of either kind, valid or not: they read only values of the right type. */
class Checker {
  /** The configuration directory with its links resolved, found once per document. */
  private realRoot: Promise<string> | undefined;
  /** The tested playbook's rules by a former name (`renamed_from`): a test naming one is told the new name. */
  private renamedRules = new Map<string, string>();

  constructor(
    private readonly root: string,
    private readonly file: string,
    private readonly positions: DocPositions,
    private readonly subjects: TestSubjects,
    private readonly diagnostics: Diagnostic[],
    /** Where each case name was first seen, by subject and name. */
    private readonly firstCases: Map<string, FirstCase>,
    /** The API keys of the environment, by variable: a contract's path must hold none. */
    private readonly keys: readonly [string, string][],
  ) {}

  private error(code: string, message: string, pointer: string, hint?: string, key = false): void {
    this.say('error', code, message, pointer, hint, key);
  }

  private warning(code: string, message: string, pointer: string, hint?: string, key = false): void {
    this.say('warning', code, message, pointer, hint, key);
  }

  /** At the value `pointer` names, or (`key`) at its key. */
  private say(severity: Diagnostic['severity'], code: string, message: string, pointer: string, hint: string | undefined, key: boolean): void {
    this.diagnostics.push({ severity, code, message, ...(key ? this.positions.at(pointer) : this.positions.valueAt(pointer)), ...pathOf(pointer), ...(hint ? { hint } : {}) });
  }

  private at(pointer: string): SourcePos {
    return this.positions.at(pointer);
  }

  async document(body: Record<string, unknown>): Promise<TestFile | undefined> {
    const before = this.diagnostics.filter((d) => d.severity === 'error').length;
    const defaults = isPlainObject(body.defaults) ? body.defaults : {};
    const severity = severityOf(defaults.severity) ?? 'error';
    const cases = Array.isArray(body.cases) ? (body.cases as unknown[]) : [];
    this.uniqueNames(cases, `${String(body.kind)}\0${normName(String(body.playbook ?? body.template))}`);
    let result: TestFile;
    if (body.kind === 'PlaybookTest') {
      const wanted = String(body.playbook);
      const subject = this.subjects.playbooks.get(normName(wanted));
      if (!subject && !this.subjects.unknown && typeof body.playbook === 'string') {
        this.error('unknown-playbook', `no Playbook named ${quoteValue(wanted)} is declared in this configuration${suggestSubject(wanted, this.subjects.playbooks.values())}`, '/playbook', PLACEHOLDER_HINT(wanted));
      }
      if (subject?.renamedAwayTo) this.renamedAway(subject.name, subject.renamedAwayTo, '/playbook');
      // Indexed once for all its cases: a suite names thousands of rules (second read SR103-7).
      const names = subject?.rules.map((r) => r.name);
      const rules = names ? { names, alike: alikeIn(names) } : undefined;
      this.renamedRules = new Map(subject?.rules.flatMap((r) => (r.formerNames ?? []).map((former) => [nameKey(former), r.name] as const)));
      const base = { repeat: numberOr(defaults.repeat, 1), passRate: numberOr(defaults.pass_rate, 1), severity, reviewType: typeof defaults.review_type === 'string' ? defaults.review_type : null };
      const loaded: PlaybookCase[] = [];
      for (const [i, c] of cases.entries()) if (isPlainObject(c)) loaded.push(await this.playbookCase(c, `/cases/${i}`, base, rules));
      result = { kind: 'PlaybookTest', file: this.file, subject: subject?.name ?? normName(wanted), at: this.at(''), cases: loaded };
    } else {
      const wanted = String(body.template);
      const subject = this.subjects.templates.get(normName(wanted));
      if (!subject && !this.subjects.unknown && typeof body.template === 'string') {
        this.error('unknown-template', `no CustomTemplate or Template named ${quoteValue(wanted)} is declared in this configuration${suggestSubject(wanted, this.subjects.templates.values())}`, '/template', PLACEHOLDER_HINT(wanted));
      }
      if (subject?.sameName) {
        // Which one the cases would run against depends on the order of the files: neither is guessed (probe LR-2).
        const [custom, standard] = subject.custom ? [subject, subject.sameName] : [subject.sameName, subject];
        this.error(
          'ambiguous-template',
          `${quoteValue(wanted)} names both a CustomTemplate (${custom.source.file}:${custom.source.line}) and a Template (${standard.source.file}:${standard.source.line}): the test cannot tell which it is for`,
          '/template',
          'rename one of the two (with renamed_from), then name it here',
        );
      }
      if (subject?.renamedAwayTo) this.renamedAway(subject.name, subject.renamedAwayTo, '/template');
      // A blank one is docket.yaml's own error.
      if (this.subjects.actor === undefined && !this.subjects.unknown) {
        this.error('missing-actor', 'template tests create agreements owned and signed by `agreements.actor`, which docket.yaml does not set', '/template', 'set `agreements.actor` in docket.yaml to a user of the agreements service');
      }
      // Only the one subject there is: with two of the name, which one's fields apply is not known.
      const fieldKeys = subject && !subject.sameName ? subject.fieldKeys : undefined;
      const loaded = cases.flatMap((c, i) => (isPlainObject(c) ? [this.templateCase(c, `/cases/${i}`, severity, fieldKeys)] : []));
      result = { kind: 'TemplateTest', file: this.file, subject: subject?.name ?? normName(wanted), at: this.at(''), cases: loaded };
    }
    return this.diagnostics.filter((d) => d.severity === 'error').length > before ? undefined : result;
  }

  /** The tested name is a new object's, while the one that had it is renamed: the test may mean either. */
  private renamedAway(name: string, renamed: RenamedAway, pointer: string): void {
    this.warning(
      'test-subject-renamed',
      `${renamed.kind} ${quoteValue(renamed.name)} is renamed from ${quoteValue(name)} (renamed_from), and a new ${renamed.kind} takes that name: this test runs against the new one`,
      pointer,
      `if the test was written for the renamed ${renamed.kind}, name ${quoteValue(renamed.name, Infinity)} here`,
    );
  }

  /** `subject`: the kind and tested name, so a file may test two playbooks with cases of the same name. */
  private uniqueNames(cases: unknown[], subject: string): void {
    cases.forEach((c, i) => {
      if (!isPlainObject(c) || typeof c.name !== 'string') return;
      const name = c.name;
      // Reports name cases by it (a JUnit testcase, an annotation): one of blanks names nothing, nor
      // one of characters XML cannot hold, which a JUnit report leaves out (probe AA-2).
      if (xmlChars(name).trim() === '') this.error('blank-name', `case name ${quoteValue(name)} is blank${name.trim() === '' ? '' : ' in a JUnit report, which leaves out the characters XML cannot hold'}`, `/cases/${i}/name`, 'name the case by what it checks');
      const shown = shownCaseName(name);
      const first = this.firstCases.get(`${subject}\0${shown}`);
      const nameAt = this.positions.valueAt(`/cases/${i}/name`);
      if (first === undefined) {
        this.firstCases.set(`${subject}\0${shown}`, { line: this.at(`/cases/${i}`).line, positions: this.positions, nameAt, name, file: this.file });
        return;
      }
      // A copy made by an alias (`- *case`) has its name where the anchor is: it is at the alias (probe QD-2).
      const copied = first.positions === this.positions && first.nameAt.line === nameAt.line && first.nameAt.col === nameAt.col;
      const alike = first.name === name ? '' : `, as ${quoteValue(first.name)}: reports show the two alike, without the blanks at their ends or the runs of them, the characters XML cannot hold, and with letters' accents encoded one way`;
      const where = first.file === this.file ? `in this file (first at line ${first.line}` : `for the same ${subject.slice(0, subject.indexOf('\0')).replace(/Test$/, '').toLowerCase()} (first in ${first.file} at line ${first.line}`;
      this.error('duplicate-case', `case ${quoteValue(name)} is named twice ${where}${alike})`, copied ? `/cases/${i}` : `/cases/${i}/name`, first.file === this.file ? undefined : 'a JUnit report names a case by its playbook or template and its name: rename one of them', copied);
    });
  }

  private async playbookCase(c: Record<string, unknown>, ptr: string, base: { repeat: number; passRate: number; severity: Severity; reviewType: string | null }, rules: SuiteRules | undefined): Promise<PlaybookCase> {
    const severity = severityOf(c.severity) ?? base.severity;
    const reviewType = typeof c.review_type === 'string' ? c.review_type : base.reviewType;
    const expect = isPlainObject(c.expect) ? c.expect : {};
    const specs: { spec: ExpectationSpec; pointer: string; severity: Severity }[] = [];
    const namedExactly = (name: string): boolean => (rules?.alike(name).length ?? 0) > 1;
    const ruleName = (value: unknown, pointer: string): string => {
      const name = normName(value);
      // Rules whose names compare alike (Term, TERM) are named as written: one written otherwise names neither (probe EA-2).
      const alike = rules && typeof value === 'string' ? rules.alike(name) : [];
      if (alike.length > 1 && !alike.some((r) => exactNameKey(r) === exactNameKey(name))) {
        this.error('unknown-rule', `${quoteValue(name)} is not a rule of the playbook, and ${alike.length} are alike: ${alike.map((r) => quoteValue(r)).join(', ')}`, pointer, 'write the name as the rule has it: rules whose names differ only in letter case or in how a character is encoded are different rules');
      }
      // As the matching compares them (README: Matching rules), or a name it would accept is refused here.
      else if (rules && typeof value === 'string' && alike.length === 0) {
        const renamed = this.renamedRules.get(nameKey(name));
        if (renamed) this.error('unknown-rule', `${quoteValue(name)} is not a rule of the playbook: it is renamed to ${quoteValue(renamed)} (renamed_from)`, pointer, `name it ${quoteValue(renamed)}`);
        else this.error('unknown-rule', `${quoteValue(name)} is not a rule of the playbook${didYouMean(name, rules.names)}`, pointer, rules.names.length > 0 ? `its rules: ${rules.names.map(showWholeText).join(', ')}` : undefined);
      }
      return name;
    };
    (Array.isArray(expect.redlines) ? (expect.redlines as unknown[]) : []).forEach((r, i) => {
      if (!isPlainObject(r)) return;
      const pointer = `${ptr}/expect/redlines/${i}`;
      const evaluation = r.evaluation === undefined ? undefined : this.outcomes(r.evaluation, `${pointer}/evaluation`);
      const commentary = r.commentary === undefined ? undefined : this.text(r.commentary, `${pointer}/commentary`);
      const topic = ruleName(r.topic, `${pointer}/topic`);
      const spec: ExpectationSpec = {
        type: 'redline',
        topic,
        ...(namedExactly(topic) ? { exact: true as const } : {}),
        ...(evaluation ? { evaluation } : {}),
        ...(r.count !== undefined ? { count: this.count(r.count, `${pointer}/count`) } : {}),
        ...(commentary ? { commentary } : {}),
      };
      // No evaluation of the topic at all: none can match the commentary, nor have an outcome (probe NL-2).
      if (spec.count?.max === 0 && (commentary || evaluation)) {
        const which = commentary ? 'commentary' : 'evaluation';
        this.error('invalid-value', `\`count\` asks for no evaluation of ${quoteValue(spec.topic)}, so there is none whose ${which} to check: \`${which}\` tests nothing`, `${pointer}/${which}`, `drop \`${which}\`, or ask for an evaluation with \`count\``);
      }
      // With an outcome or commentary asked of each evaluation there is, at least none says something (second read SR79B-2).
      if (spec.count && !evaluation && !commentary) this.vacuousCount(spec.count, `${pointer}/count`);
      // A SummaryReview evaluates no rule: a billed review sure to fail (probe NZ-2).
      if (reviewType === 'SummaryReview' && spec.count?.max !== 0) {
        this.error('invalid-value', `a redline of ${quoteValue(spec.topic)} is expected of a SummaryReview, which evaluates no rule: no review can meet it`, pointer, 'use `review_type: RedlineReview` (or leave it out: the service chooses), or expect `count: 0`');
      }
      specs.push({ spec, pointer, severity: severityOf(r.severity) ?? severity });
    });
    if (isPlainObject(expect.flags)) {
      const flags = expect.flags;
      const flagSeverity = severityOf(flags.severity) ?? severity;
      // Only a severity, or empty lists: the case would pass whatever the billed review says (probe DJ-4).
      const listed = (list: unknown): boolean => Array.isArray(list) && list.length > 0;
      // (`flags: {}` is the schema's `must not be empty`, said once.)
      if (Object.keys(flags).length > 0 && !listed(flags.includes) && !listed(flags.excludes) && flags.count === undefined) {
        this.error('invalid-value', '`flags` checks nothing: it names no flag to include or exclude, and no `count`', `${ptr}/expect/flags`, 'add `includes`, `excludes` or `count`, or remove `flags`');
      }
      const included = new Set<string>();
      for (const [list, type] of [['includes', 'flag-includes'], ['excludes', 'flag-excludes']] as const) {
        (Array.isArray(flags[list]) ? (flags[list] as unknown[]) : []).forEach((name, i) => {
          const pointer = `${ptr}/expect/flags/${list}/${i}`;
          const rule = ruleName(name, pointer);
          const exact = namedExactly(rule);
          const key = exact ? `=${exactNameKey(rule)}` : nameKey(rule);
          if (list === 'includes') {
            included.add(key);
            // A RedlineReview raises no flag (seed 000: its answer holds only redline evaluations), as a SummaryReview evaluates no rule (probe YA-2).
            if (reviewType === 'RedlineReview') this.error('invalid-value', `flag ${quoteValue(rule)} is expected of a RedlineReview, which raises no flag: no review can meet it`, pointer, REDLINE_REVIEW_HINT);
          }
          // No review passes it: every run of the case would be a billed review sure to fail (probe HI).
          else if (included.has(key)) this.error('invalid-value', `flag ${quoteValue(rule)} is in both \`includes\` and \`excludes\`: no review can pass the case`, pointer);
          specs.push({ spec: { type, rule, ...(exact ? { exact: true as const } : {}) }, pointer, severity: flagSeverity });
        });
      }
      if (flags.count !== undefined) {
        const count = this.count(flags.count, `${ptr}/expect/flags/count`);
        // A count the schema refuses (negative, a fraction) is said once, as that (probe HM-3).
        if (count.max !== undefined && Number.isInteger(count.max) && count.max >= 0 && count.max < included.size) this.error('invalid-value', `\`count\` allows at most ${count.max} flag${count.max === 1 ? '' : 's'}, but \`includes\` asks for ${included.size}: no review can pass the case`, `${ptr}/expect/flags/count`);
        this.vacuousCount(count, `${ptr}/expect/flags/count`);
        if (reviewType === 'RedlineReview' && (count.min ?? 0) > 0 && included.size === 0) this.error('invalid-value', `\`count\` asks for at least ${count.min} flag${count.min === 1 ? '' : 's'} of a RedlineReview, which raises no flag: no review can meet it`, `${ptr}/expect/flags/count`, REDLINE_REVIEW_HINT);
        specs.push({ spec: { type: 'flag-count', count }, pointer: `${ptr}/expect/flags/count`, severity: flagSeverity });
      }
    }
    (Array.isArray(expect.positions) ? (expect.positions as unknown[]) : []).forEach((p, i) => {
      if (!isPlainObject(p)) return;
      const pointer = `${ptr}/expect/positions/${i}`;
      const summary = p.summary === undefined ? undefined : this.text(p.summary, `${pointer}/summary`);
      const explanation = p.detailed_explanation === undefined ? undefined : this.text(p.detailed_explanation, `${pointer}/detailed_explanation`);
      const spec: ExpectationSpec = {
        type: 'position',
        ...(summary ? { summary } : {}),
        ...(explanation ? { detailed_explanation: explanation } : {}),
        count: p.count !== undefined ? this.count(p.count, `${pointer}/count`) : { min: 1 },
      };
      // At least none matching: every review has that many.
      if (p.count !== undefined && spec.count) this.vacuousCount(spec.count, `${pointer}/count`);
      if (reviewType === 'RedlineReview' && (spec.count?.min ?? 0) > 0) this.error('invalid-value', 'a position is expected of a RedlineReview, which takes no position on a topic: no review can meet it', pointer, `${REDLINE_REVIEW_HINT}, or expect \`count: 0\``);
      specs.push({ spec, pointer, severity: severityOf(p.severity) ?? severity });
    });
    // Left to the service, the review is one type or the other: a case that needs what only a
    // RedlineReview says and what only a SummaryReview says fails every run (probe FC-5).
    if (reviewType === null) {
      const redline = specs.find((s) => s.spec.type === 'redline' && (s.spec.count === undefined || (s.spec.count.min ?? 0) > 0));
      const summary = specs.find((s) => s.spec.type === 'flag-includes' || ((s.spec.type === 'flag-count' || s.spec.type === 'position') && (s.spec.count?.min ?? 0) > 0));
      if (redline && summary) {
        const what = summary.spec.type === 'position' ? 'a position' : summary.spec.type === 'flag-includes' ? `flag ${quoteValue(summary.spec.rule)}` : 'a flag';
        const topic = redline.spec.type === 'redline' ? redline.spec.topic : '';
        this.error('invalid-value', `a redline of ${quoteValue(topic)} and ${what} are both expected, but a RedlineReview raises no flag nor takes a position, and a SummaryReview evaluates no rule: no review can meet both`, summary.pointer, 'split it into two cases, one with `review_type: RedlineReview` for the redlines, one with `review_type: SummaryReview` for the flags and positions');
      }
    }
    return {
      name: String(c.name),
      at: this.at(ptr),
      contract: await this.contract(isPlainObject(c.contract) ? c.contract : {}, `${ptr}/contract`),
      reviewType,
      repeat: numberOr(c.repeat, base.repeat),
      passRate: numberOr(c.pass_rate, base.passRate),
      expectations: this.labelled(specs),
    };
  }

  /** `fieldKeys`: the custom template's fields, when its definition gives them all; a value or an expected rejection of another is refused (probe RF-2). */
  private templateCase(c: Record<string, unknown>, ptr: string, base: Severity, fieldKeys: readonly string[] | undefined): TemplateCase {
    const severity = severityOf(c.severity) ?? base;
    const expect = c.expect;
    const rejected = isPlainObject(expect) && isPlainObject(expect.rejected) ? expect.rejected : undefined;
    if (fieldKeys) {
      const fields = `its fields: ${shortList(fieldKeys, FIELDS_LISTED)}`;
      for (const key of isPlainObject(c.values) ? Object.keys(c.values) : []) {
        if (fieldKeys.includes(key)) continue;
        // A case expecting a rejection may send one on purpose, to see it refused (second read SR88-5).
        const said = `${quoteValue(key)} is not a field of the custom template${rejected ? " (the case expects a rejection, which may be this key's)" : ''}${didYouMean(key, fieldKeys)}`;
        if (rejected) this.warning('unknown-field', said, joinPointer(`${ptr}/values`, key), fields, true);
        else this.error('unknown-field', said, joinPointer(`${ptr}/values`, key), fields, true);
      }
      // Named as the service paths it (`agreement.hourly_rate`, `values[hourly_rate]`), it is that field (match.ts); or the values as a whole.
      // (An empty one is the schema's `must not be empty`, said once: probe FE-4.)
      if (typeof rejected?.field === 'string' && rejected.field !== '' && ![...fieldKeys, WHOLE_VALUES].some((k) => fieldNames(k, rejected.field as string))) {
        this.error('unknown-field', `${quoteValue(rejected.field)} is not a field of the custom template, so no rejection names it${didYouMean(rejected.field, fieldKeys)}`, `${ptr}/expect/rejected/field`, fields);
      }
    }
    const spec: ExpectationSpec = rejected ? { type: 'rejected', ...(typeof rejected.field === 'string' ? { field: rejected.field } : {}) } : { type: 'accepted' };
    return { name: String(c.name), at: this.at(ptr), values: c.values as Record<string, unknown>, expectations: this.labelled([{ spec, pointer: `${ptr}/expect`, severity }]) };
  }

  /** Labels for reports, unique within the case (a repeated one gets ` (2)`). */
  private labelled(specs: { spec: ExpectationSpec; pointer: string; severity: Severity }[]): Expectation[] {
    const used = new Map<string, number>();
    return specs.map(({ spec, pointer, severity }) => {
      const base = expectationLabel(spec);
      const n = (used.get(base) ?? 0) + 1;
      used.set(base, n);
      return { label: n === 1 ? base : `${base} (${n})`, severity, at: this.at(pointer), spec };
    });
  }

  private async contract(c: Record<string, unknown>, ptr: string): Promise<ContractRef> {
    const at = this.at(ptr);
    if (typeof c.file !== 'string') return { importedFile: String(c.imported_file).toLowerCase(), sha256: String(c.sha256).toLowerCase(), at };
    const rel = resolveDataPath(this.file, c.file);
    const keyInName = keyInPath(rel, this.keys, '`file`');
    // The codes data files get (README, "What validate refuses"). An empty name is the schema's
    // `must not be empty`, said once, not also as the test file's folder (probe FE-4).
    if (c.file === '') {
      // Said by the schema.
    } else if (isAbsoluteName(c.file)) {
      this.error('absolute-path', `contract file ${JSON.stringify(c.file)} is an absolute path`, `${ptr}/file`, 'name the contract relative to the test file, below the directory that holds docket.yaml');
    } else if (rel === '..' || rel.startsWith('../')) {
      this.error('file-outside-config', `contract file ${JSON.stringify(c.file)} is outside the configuration directory`, `${ptr}/file`, 'keep fixture contracts below the directory that holds docket.yaml');
    } else if (keyInName) {
      this.error('api-key-in-file', keyInName.message, `${ptr}/file`, keyInName.hint);
    } else {
      const found = await this.realFile(c.file, rel, `${ptr}/file`);
      // A symbolic link may point anywhere: what is uploaded must be inside the configuration directory.
      if (found && !found.isInside) {
        this.error('file-outside-config', `contract file ${JSON.stringify(c.file)} is a link to ${JSON.stringify(found.real)}, which is outside the configuration directory`, `${ptr}/file`, 'copy the file into the configuration directory instead of linking to it');
      } else if (found) {
        // Uploaded (and billed) before the service could refuse it: said here, before any call.
        const head = fileHeadOrError(found.real, 5);
        if ('code' in head) {
          // Not readable by the user that runs docket (stat needs no permission to read): every case would fail at its upload (probe QY-2).
          const why = deniedOrCode(head.code);
          this.error('unreadable-file', `contract file ${JSON.stringify(c.file)} cannot be read (${why}) (looked for ${rel})`, `${ptr}/file`, 'make it readable by the user that runs docket');
        } else {
          const problem = contractContentProblem(rel, found.real, head, found.size);
          if (problem) this.error(problem.code, `contract file ${JSON.stringify(c.file)} ${problem.says} (looked for ${rel})`, `${ptr}/file`, 'a contract is the PDF or Word (.docx) file of an agreement');
        }
      }
    }
    return { file: rel, at, written: c.file, fileAt: this.positions.valueAt(`${ptr}/file`) };
  }

  /**
   * Where the contract file is (links followed), when it is a file and not one of docket's own;
   * when it is not there (or is a folder, or a link that loops or leads nowhere), says so.
   */
  private async realFile(name: string, rel: string, ptr: string): Promise<{ real: string; isInside: boolean; size: number } | undefined> {
    const file = path.join(this.root, rel);
    const read = await stat(file).then((info) => ({ info }), (error: unknown) => ({ code: (error as NodeJS.ErrnoException).code }));
    const found = 'info' in read ? read.info : undefined;
    if (found?.isFile()) {
      this.realRoot ??= realpath(this.root).catch(() => this.root);
      const [realRoot, real] = await Promise.all([this.realRoot, realpath(file).catch(() => file)]);
      const own = isInside(realRoot, real) ? docketOwnFile(rootRelative(realRoot, real)) : undefined;
      if (!own) return { real, isInside: isInside(realRoot, real), size: found.size };
      // Sent to the review service and quoted in results: the organization's ids, URLs and vars, or the lock.
      this.error('data-file-is-resource', `contract file ${JSON.stringify(name)} is ${own}, not a contract (looked for ${rel})`, ptr, 'name a PDF or Word file of a contract');
      return undefined;
    }
    const link = 'code' in read && (await linkReason(file, read.code));
    if (link) {
      this.error('unreadable-file', `contract file ${JSON.stringify(name)} cannot be read (${link}) (looked for ${rel})`, ptr, LINK_HINT);
      return undefined;
    }
    // There, but a named pipe or a device: docket never reads one (it could wait forever), and says what it is (probe FJ).
    if (found && !found.isDirectory()) {
      this.error('unreadable-file', `contract file ${JSON.stringify(name)} ${NOT_REGULAR_FILE} (looked for ${rel})`, ptr, 'replace it with the PDF or Word file of the contract');
      return undefined;
    }
    this.error('missing-file', `contract file ${JSON.stringify(name)} ${found?.isDirectory() ? 'is a folder, not a file' : 'does not exist'} (looked for ${rel})`, ptr, 'paths are relative to the test file');
    return undefined;
  }

  private count(value: unknown, ptr: string): Count {
    if (typeof value === 'number') return { min: value, max: value };
    if (!isPlainObject(value)) return {};
    const c: Count = { ...(typeof value.min === 'number' ? { min: value.min } : {}), ...(typeof value.max === 'number' ? { max: value.max } : {}) };
    if (c.min !== undefined && c.max !== undefined && c.min > c.max) this.error('invalid-value', `\`count\` has min ${c.min} above max ${c.max}`, ptr);
    return { ...(c.min !== undefined ? { min: c.min } : {}), ...(c.max !== undefined ? { max: c.max } : {}) };
  }

  /** A count alone that every review passes (at least none, no most), billed for nothing (probe NZ-1). */
  private vacuousCount(count: Count, ptr: string): void {
    if (count.max !== undefined || count.min === undefined || count.min > 0) return;
    this.error('invalid-value', `\`count\` asks for at least ${count.min} and no most: every review passes it, so it tests nothing`, ptr, 'ask for at least 1, or for at most some number (`max: 0` for none)');
  }

  private outcomes(value: unknown, ptr: string): OutcomeSet {
    const set: OutcomeSet = typeof value === 'string' ? { in: [value] } : isPlainObject(value) && 'in' in value ? { in: listOf(value.in) } : { not_in: listOf(isPlainObject(value) ? value.not_in : undefined) };
    const values = 'in' in set ? set.in : set.not_in;
    values.forEach((v, i) => {
      // Playbook actions are written in capitals (`REJECT`): a known outcome in any case is that outcome.
      const known = typeof v === 'string' ? KNOWN_OUTCOMES.find((k) => k === v.toLowerCase()) : undefined;
      if (known !== undefined) values[i] = known;
      else if (typeof v === 'string') {
        const pointer = typeof value === 'string' ? ptr : `${ptr}/${'in' in set ? 'in' : 'not_in'}/${i}`;
        this.warning('unknown-outcome', `outcome ${quoteValue(v)} is none of ${KNOWN_OUTCOMES.join(', ')}${didYouMean(v, KNOWN_OUTCOMES)}`, pointer, 'the service may use other values; this one is kept as written');
      }
    });
    return set;
  }

  private text(value: unknown, ptr: string): TextMatch | undefined {
    if (typeof value === 'string') return { equals: value };
    if (!isPlainObject(value)) return undefined;
    const v = value as Record<string, string>;
    if (v.equals !== undefined) return { equals: v.equals };
    if (v.contains !== undefined) return { contains: v.contains };
    if (typeof v.matches !== 'string') return undefined;
    const compiled = compilePattern(v.matches);
    if ('error' in compiled) {
      this.error('invalid-regex', `\`matches\` is not a valid regular expression: ${compiled.error}${gotValue(v.matches)}`, `${ptr}/matches`);
      return undefined;
    }
    return { matches: compiled.source, flags: compiled.flags, ...(compiled.unicode ? { unicode: true as const } : {}) };
  }
}

function severityOf(value: unknown): Severity | undefined {
  return value === 'error' || value === 'warn' ? value : undefined;
}

function numberOr(value: unknown, otherwise: number): number {
  return typeof value === 'number' ? value : otherwise;
}

/** A list as written, of whatever it holds (each item is looked at by type). */
function listOf(value: unknown): string[] {
  return Array.isArray(value) ? [...(value as string[])] : [];
}

/**
 * A pattern as written in a test file: JavaScript syntax, with leading inline flags as other
 * engines write them (`(?i)five years`) turned into flags (`i`, `m`, `s`). Run in Unicode mode
 * where it is valid there, so `\p{L}` is a letter, not the text `p{L}` (probe FC-4); one valid only
 * without it (`\-` outside a class) runs as JavaScript reads it so, and one with a Unicode escape
 * (`\p{…}`, `\u{…}`) that is not valid there is refused, since it would mean other text.
 */
export function compilePattern(pattern: string): { source: string; flags: string; unicode: boolean } | { error: string } {
  // One group or several (`(?is)`, `(?i)(?s)`), as other engines take either.
  const inline = /^(?:\(\?[ims]+\))+/.exec(pattern);
  const source = inline ? pattern.slice(inline[0].length) : pattern;
  const flags = inline ? [...new Set(inline[0].replace(/[^ims]/g, ''))].sort().join('') : '';
  const unicodeError = regexError(source, `${flags}u`);
  if (unicodeError === undefined) return { source, flags, unicode: true };
  if (UNICODE_ESCAPE.test(source)) return { error: `${unicodeError} (its \\p{…} or \\u{…} needs a pattern valid in Unicode mode)` };
  const error = regexError(source, flags);
  return error === undefined ? { source, flags, unicode: false } : { error };
}

/** `\p{…}`, `\P{…}`, `\u{…}` not escaped themselves: only Unicode mode reads them so. */
const UNICODE_ESCAPE = /(?<!\\)(?:\\\\)*\\[pPu]\{/;

function regexError(source: string, flags: string): string | undefined {
  try {
    new RegExp(source, flags);
    return undefined;
  } catch (error) {
    return error instanceof Error ? error.message.replace(/^Invalid regular expression: /, '') : String(error);
  }
}

export function expectationLabel(spec: ExpectationSpec): string {
  switch (spec.type) {
    case 'redline': {
      const parts = [`redline ${JSON.stringify(spec.topic)}`];
      if (spec.evaluation) parts.push(outcomesLabel(spec.evaluation));
      if (spec.count) parts.push(`count ${countLabel(spec.count)}`);
      if (spec.commentary) parts.push(`commentary ${textLabel(spec.commentary)}`);
      return parts.join(' ');
    }
    case 'flag-includes':
      return `flag ${JSON.stringify(spec.rule)}`;
    case 'flag-excludes':
      return `no flag ${JSON.stringify(spec.rule)}`;
    case 'flag-count':
      return `flags ${countLabel(spec.count)}`;
    case 'position': {
      const parts = ['position'];
      if (spec.summary) parts.push(`summary ${textLabel(spec.summary)}`);
      if (spec.detailed_explanation) parts.push(`explanation ${textLabel(spec.detailed_explanation)}`);
      if (!(spec.count.min === 1 && spec.count.max === undefined)) parts.push(`count ${countLabel(spec.count)}`);
      return parts.join(' ');
    }
    case 'accepted':
      return 'accepted';
    case 'rejected':
      return spec.field ? `rejected: ${spec.field}` : 'rejected';
  }
}

/**
 * What of docket's own a contract file is, by its path below the configuration (links followed):
 * docket.yaml, the lock, a file in .docket/, or a YAML file (a resource or a test: no contract is
 * written in YAML). Else undefined.
 */
function docketOwnFile(rel: string): string | undefined {
  if ((PROJECT_FILES as readonly string[]).includes(rel)) return "docket's project file";
  if (rel === LOCK_FILE) return "docket's lock file";
  if (isWorkFile(rel)) return "docket's own (in .docket/)";
  if (/\.ya?ml$/i.test(rel)) return 'a YAML file of the configuration';
  return undefined;
}

/**
 * Why a contract file cannot be what the service reviews: empty, or not the file its name says
 * (a `.docx` is a zip, a `.pdf` starts with `%PDF-`). Other names pass: the emulator reads text.
 */
function contractContentProblem(rel: string, real: string, head: Uint8Array, size: number): { code: string; says: string } | undefined {
  const ext = path.extname(rel).toLowerCase();
  const code = ext === '.docx' ? 'not-a-docx' : ext === '.pdf' ? 'not-a-pdf' : 'empty-file';
  if (size === 0) return { code, says: 'is empty' };
  if (ext === '.docx' && !startsAsZip(head)) return { code, says: 'is not a Word file (a .docx is a zip archive; this one does not start like one)' };
  const notWord = ext === '.docx' ? wordFileProblem(real) : undefined;
  if (notWord) return { code, says: notWord };
  if (ext === '.pdf' && !startsAsPdf(head)) return { code, says: 'is not a PDF (it does not start with %PDF-)' };
  return undefined;
}

/** A diagnostic's `path` (`cases[0].contract.file`), as validate gives one for a key or value of a document. */
function pathOf(pointer: string): { path?: string } {
  const path = pointerToPath(pointer);
  return path ? { path } : {};
}

/** The declared subject a test naming `wanted` means: one whose renamed_from lists it (said as such, as --target says it), else the closest spelling. */
function suggestSubject(wanted: string, subjects: Iterable<{ name: string; formerNames?: readonly string[] }>): string {
  const all = [...subjects];
  const renamed = all.find((s) => s.formerNames?.some((f) => normName(f) === normName(wanted)));
  return renamed ? didYouMeanBecause(renamed.name, `${quoteValue(wanted)} is a former name its renamed_from lists`) : didYouMean(wanted, all.map((s) => s.name));
}

/** The most field names a hint lists: a definition of hundreds would fill the screen. */
const FIELDS_LISTED = 20;
/** The field a refusal of the values as a whole names (not an object, the emulator's 422). */
const WHOLE_VALUES = 'custom_field_values';

/** A tested playbook's rule names, and those of them alike to a name (nameKey). */
interface SuiteRules {
  names: string[];
  alike: (written: string) => readonly string[];
}
