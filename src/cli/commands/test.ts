/**
 * `docket test`: runs the configuration's `*.test.yaml` files (src/testing) and reports; and
 * `docket test capture`, which writes a case from a real review. A thin shell: flags → session →
 * runTests → renderers → exit code. The first Ctrl-C stops starting reviews and cleans up what the
 * run made (scratch playbooks, test agreements) before exiting 130.
 */
import { declaredDefaultReviewer } from '../../kinds/organization.js';
import { refuseReadOnlyLock } from '../lock-writable.js';
import { plural } from '../../render/facts.js';
import { spelledKind } from '../../kinds/spelled-kind.js';
import { KINDS } from '../../kinds/index.js';
import { setMaxListeners } from 'node:events';
import { realpath, stat } from 'node:fs/promises';
import { readRegularFileSync, unreadableReason } from '../../util/special-file.js';
import { hostname } from 'node:os';
import { isAbsolute, join, relative, resolve, sep } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { Command, Option } from 'commander';
import { agreementsTarget, canonicalUrl, emulatorLockTarget } from '../../config/lock.js';
import { applyPlan } from '../../engine/apply.js';
import { hasChanges } from '../../engine/plan.js';
import { sha256 } from '../../engine/canonical.js';
import { ConfigError, DocketError, InterruptedError, UsageError } from '../../errors.js';
import { normName } from '../../engine/normalize.js';
import { declaredPlaybooks, declaredTemplates, TEST_TARGET_KINDS, type TemplateSubject } from '../../kinds/support/test-subjects.js';
import { keysOf } from '../../config/api-keys.js';
import { renderTestAnnotations } from '../../render/test-annotations.js';
import { errorJson, withExcerpts } from '../../render/json.js';
import { sourceLines } from '../../config/source-lines.js';
import { renderTestErrorJson, renderTestJson } from '../../render/test-json.js';
import { renderErrorJunit, renderTestJunit } from '../../render/test-junit.js';
import { renderTestMarkdown } from '../../render/test-markdown.js';
import { renderTestText } from '../../render/test-text.js';
import { CACHE_DIR, cachePartition, TestCache } from '../../testing/cache.js';
import { captureCase, fileWithCaseNamed, refuseUnreadableCase, writeCapture, type CapturedCase } from '../../testing/capture.js';
import { ContractStore, importedFileSha } from '../../testing/contracts.js';
import { UploadCopy } from '../../testing/upload-copy.js';
import { playbooksAtRef } from '../../testing/git-ref.js';
import { findTestFiles, loadTests, type TestSubjects } from '../../testing/load.js';
import { isTestFile } from '../../config/discover.js';
import { isNotReadName } from '../../config/not-read.js';
import { quoteValue, showText, showPath } from '../../config/quote.js';
import { holdsControl } from '../../util/control-text.js';
import { didYouMean, didYouMeanBecause } from '../../config/suggest.js';
import type { Diagnostic } from '../../diagnostics.js';
import type { Workspace } from '../../engine/workspace.js';
import { failed } from '../../testing/outcome.js';
import { runTests, type CompareTo } from '../../testing/run.js';
import type { TestFile, TestReport } from '../../testing/types.js';
import { writeFileAtomic, writeFileAtomicSync } from '../../util/atomic-write.js';
import { junitKeyValues, keyValues, redact } from '../redact.js';
import { VERSION } from '../../version.js';
import { annotatingProblems, annotationsOption, repoPathPrefix, type AnnotationFormat } from '../annotations.js';
import { writeWorkflowCommands } from '../workflow-commands.js';
import { applyInputOf, lockRecorder, settleApplied } from '../apply-step.js';
import { TEST_RUN, takeApplyLock } from '../apply-lock.js';
import { DEFAULT_REVIEW_URL } from '../connect.js';
import { formatDuration, parseTimeBudget } from '../duration.js';
import { interruptsOf, useColor, type Io } from '../io.js';
import { interruptedAtOnce } from '../interrupt.js';
import { requireValue, withCommon, type CommonOptions, repeatable } from '../options.js';
import { checkOutputFile, ConfigurationFileRefused, JUNIT_REPORT, refuseConfigurationFile, writableUnjudged } from '../output-file.js';
import { junitTakenOver } from '../early-junit.js';
import { planDetailsInSession, planInSession } from '../plan-step.js';
import { writeDestination } from '../../util/atomic-write.js';
import { withWriteMutex } from '../../util/write-mutex.js';
import { workPath } from '../../config/work-dir.js';
import { CREATE_ACTIONS, refKey, type DesiredResource } from '../../engine/types.js';
import { withSession, type Session } from '../session.js';
import type { ServiceName } from '../../api/types.js';
import { PARENT_FLAGS_TAKEN, PARENT_VALUES_REFUSED } from '../subcommand-flags.js';

interface TestFlags extends CommonOptions {
  output: 'text' | 'json' | 'markdown';
  emulator?: boolean;
  live?: boolean;
  replayOnly?: boolean;
  cache: boolean;
  failOnWarn?: boolean;
  junit?: string;
  annotations?: AnnotationFormat;
  compareTo?: string;
  target: string[];
  timeout: number;
}

/** The default time budget: reviews take minutes on the real service. */
export const TEST_TIMEOUT_MS = 30 * 60_000;
/** How long the cleanup of a run may take past its time budget (the grace apply gives what is in flight on Ctrl-C). */
const CLEANUP_BUDGET_MS = 30_000;

export function testCommand(io: Io, setExit: (code: number) => void): Command {
  const command = withCommon(new Command('test'))
    .description('run the *.test.yaml files: review known contracts against the playbooks as the files declare them, try templates with test agreements')
    .argument('[FILES...]', 'test files, or folders of them, to run (default: every *.test.yaml below the directory)')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .option('--emulator', 'run against an in-process emulator (state in DIR/.docket/emulator.json)')
    .option('--live', 'test the live playbooks instead of the files’ versions (a drift check)')
    .option('--replay-only', 'use only results recorded in .docket/test-cache/; contact no service (no keys needed)')
    .option('--no-cache', 'review again even when the cache has results, and record the new ones')
    .option('--compare-to <REF>', 'also run the cases against the playbooks as they are at this git ref, shown before → after')
    .addOption(repeatable('--target <KIND/NAME>', 'only the tests of this playbook or template (playbook/NAME, custom-template/NAME, template/NAME; repeatable)', 'every test'))
    .option('--junit <FILE>', 'also write a JUnit XML report')
    .option('--fail-on-warn', 'exit 1 also for warn-level failures and flaky cases')
    .addOption(new Option('--timeout <DURATION>', 'time budget of the whole run, reviews included').argParser(parseTimeBudget).default(TEST_TIMEOUT_MS, formatDuration(TEST_TIMEOUT_MS)))
    .addOption(annotationsOption('broken expectation'))
    .action(async (files: string[], opts: TestFlags) => {
      setExit(await runTestCommand(io, files, opts));
    });
  command.addCommand(captureCommand(io, setExit).exitOverride().configureOutput({ writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(s) }));
  return command;
}

/** What the run tests, read and checked offline before any connection. */
interface PreparedTests {
  subjects: TestSubjects;
  selected: TestFile[];
  warnings: Diagnostic[];
  compare: CompareTo | undefined;
  /** Why nothing runs, when the selection is empty. */
  none: string | undefined;
  /** The contract files every test file names, relative to the configuration directory. */
  contracts: string[];
}

async function prepareTests(io: Io, workspace: Workspace, files: string[], opts: TestFlags): Promise<PreparedTests> {
  const project = workspace.config.project;
  const subjects: TestSubjects = { playbooks: declaredPlaybooks(workspace.desired), templates: declaredTemplates(workspace.desired), actor: project.agreements.actor };
  // The test files each FILE names (a folder names those below it).
  const named = await namedTestFiles(io.cwd, project.root, files);
  const only = [...new Set(named.flat())];
  const loaded = await loadTests(project.root, subjects, only, io.env);
  if (loaded.diagnostics.some((d) => d.severity === 'error')) throw new ConfigError(loaded.diagnostics, 'the test files are invalid', project.root);
  const selected = selectTargets(loaded.files, opts.target, subjects);
  // The service's own URL however it is written (a slash after it, capitals, its port): one setting (second read SR90B-2).
  const unreviewable = opts.emulator || opts.replayOnly || canonicalUrl(project.review.url ?? DEFAULT_REVIEW_URL) !== canonicalUrl(DEFAULT_REVIEW_URL) ? [] : unreviewableContracts(selected);
  if (unreviewable.length > 0) throw new ConfigError(unreviewable, 'the test files name contracts the review service does not review', project.root);
  // As a FILES argument that names nothing: a CI job's --target that tests nothing must not pass.
  if (opts.target.length > 0 && selected.length === 0) throw untestedTargets(opts.target, loaded.files, subjects, only);
  const compare: CompareTo | undefined = opts.compareTo ? { ref: opts.compareTo, ...(await playbooksAtRef(project.root, opts.compareTo, { processEnv: io.env, ...(opts.env ? { env: opts.env } : {}), ...(opts.emulator ? { emulator: true } : {}) })) } : undefined;
  // Each named FILE that holds no test tests nothing, as a --target that selects none: not a pass,
  // among other FILES too (a half-written file named in a CI job, probe NZ-4).
  const declaring = new Set(loaded.files.map((f) => f.file));
  const empty = named.filter((tests) => !tests.some((t) => declaring.has(t)));
  if (empty.length > 0) {
    const shown = [...new Set(empty.flat())];
    throw new UsageError(`${shown.join(', ')} declare${shown.length === 1 ? 's' : ''} no test (an empty file, or only comments)`, 'add a case, or name test files that hold some (without FILES every test file is read)');
  }
  const none = selected.length > 0 ? undefined : await whyNoTests(project.root);
  const contracts = loaded.files.flatMap((f) => (f.kind === 'PlaybookTest' ? f.cases.flatMap((c) => ('file' in c.contract ? [c.contract.file] : [])) : []));
  // With --target, the warnings of the test files it selects: a CI job split by target does not fail (--fail-on-warn) on another's.
  const selectedFiles = new Set(selected.map((f) => f.file));
  // Without it, the configuration's too, as plan says them: the playbooks tested are those files (probe PP-2).
  const warnings = opts.target.length > 0 ? loaded.diagnostics.filter((d) => d.file !== undefined && selectedFiles.has(d.file)) : [...workspace.diagnostics, ...loaded.diagnostics];
  return { subjects, selected, warnings, compare, none, contracts };
}

/**
 * Contracts the real review service does not review (seed 000: PDF or DOCX), which it would take,
 * and bill, before refusing; the emulator, and a service at another URL, may read plain text (probe RR-2).
 */
function unreviewableContracts(selected: readonly TestFile[]): Diagnostic[] {
  return selected.flatMap((f) =>
    f.kind !== 'PlaybookTest'
      ? []
      : f.cases.flatMap((c): Diagnostic[] =>
          'file' in c.contract && !/\.(pdf|docx)$/i.test(c.contract.file)
            ? [{ severity: 'error', code: 'unsupported-contract', message: `contract file ${quoteValue(c.contract.written ?? c.contract.file)} is neither a PDF nor a Word (.docx) file, which is all the review service reviews: it would take the upload, and bill the review, before refusing it`, ...(c.contract.fileAt ?? c.contract.at), hint: 'convert it to PDF or .docx; docket\'s emulator (--emulator) also reads plain text' }]
            : [],
        ),
  );
}

function untestedTargets(targets: string[], files: TestFile[], subjects: TestSubjects, only: string[]): UsageError {
  const tested = [...new Set(files.map((f) => (f.kind === 'PlaybookTest' ? `${TEST_TARGET_KINDS[0]}/${f.subject}` : (subjects.templates.get(f.subject)?.target ?? f.subject))))];
  const read = only.length > 0 ? only.join(', ') : 'the test files';
  return new UsageError(
    `--target ${targets.map(showText).join(', ')}: ${read} hold${only.length === 1 ? 's' : ''} no test of ${targets.length === 1 ? 'it' : 'them'}`,
    `${tested.length > 0 ? `tests exist for: ${tested.map(showText).join(', ')}` : 'no test file declares a test (*.test.yaml below the directory)'}${only.length > 0 ? '; without FILES every test file is read' : ''}`,
  );
}

/** The JUnit report must not replace a contract a test file names (reached through links too). */
async function refuseContractFile(out: string, file: string, root: string, contracts: readonly string[]): Promise<void> {
  const real = (p: string): Promise<string> => realpath(p).catch(() => p);
  const target = await real(out);
  for (const contract of contracts) {
    if ((await real(join(root, contract))) === target) throw new ConfigurationFileRefused(`--junit ${file} is ${contract}, a contract a test file names: the report would take its place`, 'save it outside the configuration\'s files, such as --junit docket-test.xml beside docket.yaml');
  }
}

/** Says which it is: no test file at all, or test files that declare no test. */
async function whyNoTests(root: string): Promise<string> {
  const found = await findTestFiles(root);
  return found.length === 0 ? 'No test files found (*.test.yaml below the directory).' : `The test files declare no test (${found.join(', ')}: empty, or only comments).`;
}

/**
 * FILES (relative to the current directory, or to the configuration directory) as paths relative to
 * the latter, the test files of each FILE in its place. Each must be one of its test files (or a
 * folder holding some): a typo must not turn into a run of zero cases that passes.
 */
async function namedTestFiles(cwd: string, root: string, files: string[]): Promise<string[][]> {
  if (files.length === 0) return [];
  const found = await findTestFiles(root);
  const shown = found.map((f) => relative(cwd, join(root, f)).split(sep).join('/'));
  const inRoot = (file: string, base: string): string => relative(root, resolve(base, file)).split(sep).join('/');
  const below = (folder: string): string[] => (folder === '' ? found : found.filter((f) => f.startsWith(`${folder}/`)));
  const isFolder = async (rel: string): Promise<boolean> => !isOutside(rel) && (await stat(join(root, rel)).then((s) => s.isDirectory(), () => false));
  const named = await Promise.all(files.map(async (file) => {
    // Relative to the current directory; a path relative to -C DIR is understood too (`-C config tests/x.test.yaml`).
    const fromCwd = inRoot(file, cwd);
    const fromRoot = inRoot(file, root);
    // A folder names the test files below it (`docket test tests/`).
    const folder = (await isFolder(fromCwd)) ? fromCwd : (await isFolder(fromRoot)) ? fromRoot : undefined;
    const listed = shown.length > 0 ? `the test files here: ${shown.slice(0, 10).join(', ')}${shown.length > 10 ? ', …' : ''}` : 'this configuration has no *.test.yaml file';
    if (folder !== undefined) {
      const skipped = below(folder).length === 0 ? skippedFolderOf(`${folder}/x`) : undefined;
      // `.hidden` itself, or a folder inside one: its test files are never read, whatever it holds.
      if (skipped !== undefined) throw new UsageError(`${JSON.stringify(file)}: ${skipped === folder.split('/').at(-1) ? 'a folder' : `in ${skipped}/, a folder`} docket does not read (dot-folders and node_modules hold local or other people's files)`, 'move the test files to a folder of the configuration, such as tests/');
      if (below(folder).length === 0) throw new UsageError(`${JSON.stringify(file)}: a folder with no test file (*.test.yaml) below it${didYouMean(file, [...new Set(shown.map((f) => f.slice(0, f.lastIndexOf('/') + 1)).filter((d) => d !== ''))])}`, `${listed} (paths are relative to the current directory)`);
      return below(folder);
    }
    // A file there from the current directory, outside the configuration, is said to be outside, not missing (probe NL-3).
    const outsideButThere = isOutside(fromCwd) && !found.includes(fromRoot) && (await stat(resolve(cwd, file)).then((s) => s.isFile() || s.isDirectory(), () => false));
    const rel = found.includes(fromCwd) ? fromCwd : (found.includes(fromRoot) || isOutside(fromCwd)) && !outsideButThere ? fromRoot : fromCwd;
    // `x.test.yaml/` names a folder, as a shell's `ls` reads it: not the file (resolve() dropped the slash).
    if (/[\\/]\.?$/.test(file) && found.includes(rel)) throw new UsageError(`${JSON.stringify(file)}: a test file, not a folder (a name ending in / names a folder)`, `name the file without the trailing /: ${file.replace(/[\\/]+\.?$/, '')}`);
    if (isOutside(rel)) {
      throw new UsageError(`test file ${JSON.stringify(file)} is outside the configuration directory (${relative(cwd, root) || '.'})`, 'name test files relative to the current directory, below the directory given with -C');
    }
    if (!found.includes(rel)) {
      const skipped = skippedFolderOf(rel);
      const isThere = isTestFile(rel) && (await stat(join(root, rel)).then((s) => s.isFile(), () => false));
      if (skipped !== undefined && isThere) {
        throw new UsageError(`${JSON.stringify(file)}: in ${skipped}/, a folder docket does not read (dot-folders and node_modules hold local or other people's files)`, 'move the test file to a folder of the configuration, such as tests/');
      }
      // Its own name starts with "." (a draft kept aside): not read, as no dot-file is (second read SR71-5).
      if (isThere && isNotReadName(rel.split('/').at(-1)!)) {
        throw new UsageError(`${JSON.stringify(file)}: a file whose name starts with ".", which docket does not read (dot-files are local or other tools' files)`, 'rename it without the leading "." to run it');
      }
      // `tset/` names a folder, one that is not there; `tset` may name either.
      const asFolder = /[\\/]$/.test(file);
      const exists = await stat(join(root, rel)).then(() => true, () => false);
      const what = asFolder ? 'no such folder' : isTestFile(rel) ? 'no such test file' : exists || /\.[^/\\]*$/.test(file) ? 'not a test file (test files end in .test.yaml)' : 'no such test file or folder';
      // A folder mistyped (`tests/mre` for `tests/more`) is offered its folder, as a file its file.
      const folders = [...shown, ...found].flatMap((f) => (f.includes('/') ? [f.slice(0, f.lastIndexOf('/'))] : []));
      const asFolders = [...new Set(folders.map((f) => `${f}/`))];
      const suggestion = asFolder
        ? didYouMean(file, asFolders)
        : // Judged with its slash too: `tset` is as near `tests/` as `tset/` is, one short word being strict alone.
          didYouMean(file, [...new Set([...shown, ...found, ...folders])]) || (isTestFile(rel) ? '' : didYouMean(`${file}/`, asFolders));
      throw new UsageError(`${JSON.stringify(file)}: ${what}${suggestion}`, `${listed} (paths are relative to the current directory)`);
    }
    return [rel];
  }));
  return named;
}

/**
 * What a relative --out is read from: the current directory, or, when that puts it outside the
 * configuration, `-C DIR` (`-C config --out tests/nda.test.yaml`), as docket test reads FILES.
 */
function captureBase(cwd: string, dir: string | undefined, out: string): string {
  const root = resolve(cwd, dir ?? '.');
  return isAbsolute(out) || !isOutside(relative(root, resolve(cwd, out))) ? cwd : root;
}

/** The folder of a root-relative path that discovery skips (a dot-folder, node_modules), if any: no test file there is read. */
function skippedFolderOf(rel: string): string | undefined {
  return rel.split('/').slice(0, -1).find(isNotReadName);
}

function isOutside(rel: string): boolean {
  return rel === '..' || rel.startsWith('../') || isAbsolute(rel);
}

/** Playbook tests need the review service, template tests the agreements service; a replay needs none. */
function servicesFor(files: TestFile[], replayOnly: boolean): Set<ServiceName> {
  return new Set(replayOnly ? [] : files.map((f): ServiceName => (f.kind === 'PlaybookTest' ? 'review' : 'agreements')));
}

async function runTestCommand(io: Io, files: string[], opts: TestFlags): Promise<number> {
  const started = new Date();
  const interrupts = interruptsOf(io);
  const junit = opts.junit;
  // Before any case runs (reviews cost money): a report that cannot be written is not worth the run.
  if (junit !== undefined) await checkOutputFile(io.cwd, junit, '--junit', 'junit.xml');
  // An unset variable in CI (`--compare-to "$BASE"`) would silently drop the comparison.
  requireValue('--compare-to', opts.compareTo, 'a git ref', 'name the ref to compare with, such as --compare-to origin/main');
  let report: TestReport | undefined;
  // Where the run goes, once connected: an error after that is said with it (-o json), as a report is.
  let target: (() => string) | undefined;
  // Until the configuration is read, the file the report goes to cannot be checked against it: an
  // error report then goes only to a new file no run reads as YAML, or over an earlier report.
  let junitJudged = false;
  const mayWriteJunit = (): boolean => junitJudged || (junit !== undefined && writableUnjudged(resolve(io.cwd, junit), resolve(io.cwd, opts.dir ?? '.'), JUNIT_REPORT));
  // A file is output too (a CI artifact): keys in it are redacted as on stdout.
  const secrets = junitKeyValues(io.env);
  const reportXml = (r: TestReport): string =>
    redact(renderTestJunit(r, { started, hostname: hostname(), failOnWarn: Boolean(opts.failOnWarn) }), secrets);
  const errorXml = (error: unknown): string => redact(renderErrorJunit(errorJson(error), { started, hostname: hostname() }), secrets);
  // CI reporters read the JUnit file whatever happened: one that could not run says why in it,
  // also when a second signal (CI's SIGTERM after its SIGINT) ends the process at once.
  junitTakenOver(interrupts);
  const dropJunitOnExit = junit
    ? interrupts.onExit(() => {
        const signal = interrupts.received();
        if (signal && mayWriteJunit()) writeFileAtomicSync(resolve(io.cwd, junit), report ? reportXml(report) : errorXml(new InterruptedError(signal, `docket test stopped by ${signal} before it could report`)));
      })
    : undefined;
  // A second signal ends the process at once: the error document then still says where the run
  // went (main.ts prints it with no target when this has not).
  const dropJsonOnExit =
    opts.output === 'json'
      ? interrupts.onExit(() => {
          const signal = interrupts.received();
          if (!signal || (report === undefined && target === undefined)) return;
          const stopped = errorJson(interruptedAtOnce(interrupts, signal));
          // The report, once there is one (a second signal while the JUnit file is written: second read SR84-4).
          io.stdout(report ? renderTestJson(report, true, stopped) : renderTestErrorJson(stopped, { target: target!(), suites: [], notes: [] }));
        })
      : undefined;
  try {
    try {
      // Invalid test files or configuration: their lines are annotated as plan annotates a broken configuration's.
      report = await annotatingProblems(io, opts, () => runAndReport(io, files, opts, () => (junitJudged = true), (t) => (target = t)));
    } catch (error) {
      if (junit && !(error instanceof ConfigurationFileRefused) && mayWriteJunit()) await writeJunit(io, junit, errorXml(error)).catch((e: unknown) => io.stderr(`Error: ${(e as Error).message}\n`));
      // Said, or CI finds no report and no word why (probe RR-3).
      else if (junit && !(error instanceof ConfigurationFileRefused)) io.stderr(`Note: the JUnit report was not written to ${junit}: docket could not check it against the files of the configuration and its tests, which could not all be read, so it writes only a new .xml file outside .docket/, or over an earlier report\n`);
      // Before it, the common error document says the error alone (main.ts): nothing was reached.
      if (opts.output === 'json' && target !== undefined) {
        const source = error instanceof ConfigError && error.root ? sourceLines(error.root) : undefined;
        io.stdout(renderTestErrorJson(errorJson(error, source), { target: target(), suites: [], notes: [] }));
      }
      throw error;
    }
    // The JUnit file first: when it cannot be written, stdout holds the error (in the report with -o json), not a report that looks fine.
    if (junit) {
      await writeJunit(io, junit, reportXml(report)).catch((error: unknown) => {
        if (opts.output === 'json') io.stdout(renderTestErrorJson(errorJson(error), report));
        throw error;
      });
    }
  } finally {
    dropJunitOnExit?.();
    dropJsonOnExit?.();
  }
  const isFailed = failed(report, Boolean(opts.failOnWarn));
  const signal = interrupts.received();
  // What the run made and could not remove, each said: a draft left is no run cleaned up (probe ML-2).
  const [left, drafts] = [report.leftBehind?.length ?? 0, report.draftsLeft?.length ?? 0];
  const unremoved = [
    ...(left > 0 ? [`archive ${left} scratch playbook${left === 1 ? '' : 's'}`] : []),
    ...(drafts > 0 ? [`void ${drafts} draft test agreement${drafts === 1 ? '' : 's'}`] : []),
  ];
  const stopped = signal
    ? new InterruptedError(
        signal,
        `docket test interrupted by ${signal}; ${unremoved.length === 0 ? 'what the run made was cleaned up' : `it could not ${unremoved.join(' or ')} (see the notes), which the next docket test ${left > 0 && drafts > 0 ? 'removes' : left > 0 ? 'archives' : 'voids'}`}`,
      )
    : undefined;
  // Stopped, the report says so itself: the one JSON document a CI step reads holds the error.
  if (opts.output === 'json') io.stdout(renderTestJson(report, isFailed, stopped ? errorJson(stopped) : undefined));
  else if (opts.output === 'markdown') io.stdout(renderTestMarkdown(report, { failOnWarn: Boolean(opts.failOnWarn) }));
  else io.stdout(renderTestText(report, { color: useColor(io, opts), failOnWarn: Boolean(opts.failOnWarn) }));
  if (opts.annotations === 'github') {
    const text = renderTestAnnotations(report, { pathPrefix: repoPathPrefix(opts.dir, io.cwd) });
    writeWorkflowCommands(io, opts.output === 'text' ? 'stdout' : 'stderr', text);
  }
  if (stopped) throw stopped;
  return isFailed ? 1 : 0;
}

async function writeJunit(io: Io, file: string, xml: string): Promise<void> {
  await writeFileAtomic(resolve(io.cwd, file), xml).catch((error: unknown) => {
    throw new DocketError('write-failed', `cannot write the JUnit report to ${file} (${(error as NodeJS.ErrnoException).code ?? 'unknown error'})`);
  });
}

/** Checks the flags and the test files, connects, runs the cases and cleans up: the report, or why there is none. */
async function runAndReport(io: Io, files: string[], opts: TestFlags, junitJudged: () => void, connectedTo: (target: () => string) => void): Promise<TestReport> {
  if (opts.replayOnly && opts.live) throw new UsageError('--live reads the live playbooks, which --replay-only never contacts', 'drop one of them');
  if (opts.replayOnly && !opts.cache) throw new UsageError('--replay-only runs from the cache, which --no-cache ignores', 'drop one of them');
  const interrupts = interruptsOf(io);
  // Said at once: the cleanup (archives, voids) may take a while, and a second signal cuts it short.
  const release = interrupts.hold(
    'stopping: no new review is asked for (those under way are left), and what the run made is archived or voided',
    'what the run made (scratch playbooks, draft test agreements) may be left: the next docket test removes it',
  );
  const deadline = Date.now() + opts.timeout;
  // Removing what the run made (scratch playbooks, draft test agreements) gets its own time after
  // the budget: a run whose budget a hung request spent must still clean up, as the README says.
  let cleaning = 0;
  let cleanupUntil = 0;
  // After the first signal the cleanup has its 30 s and no more, as the README says: a Retry-After
  // past them leaves what it would remove to the next run (probe ML-3).
  const requestDeadline = (): number => (cleaning > 0 ? (interrupts.signal.aborted ? cleanupUntil : Math.max(deadline, cleanupUntil)) : deadline);
  const cleanup = async <T>(work: () => Promise<T>): Promise<T> => {
    if (cleaning++ === 0) cleanupUntil = Date.now() + CLEANUP_BUDGET_MS;
    try {
      return await work();
    } finally {
      cleaning--;
    }
  };
  // Aborted only after the run has cleaned up: the cleanup's own requests must not be cut short.
  const hard = new AbortController();
  setMaxListeners(0, hard.signal); // every request listens to it
  // Set by `check`, which the session runs before it connects: broken test files never reach the network.
  let prepared: PreparedTests | undefined;
  let releaseApplyLock: (() => Promise<void>) | undefined;
  try {
    const check = async (workspace: Workspace): Promise<void> => {
      // As plan --out: the report must not replace a file the configuration is made of (the lock, a test file, a contract).
      if (opts.junit !== undefined) await refuseConfigurationFile(resolve(io.cwd, opts.junit), opts.junit, '--junit', workspace, JUNIT_REPORT);
      prepared = await prepareTests(io, workspace, files, opts);
      if (opts.junit !== undefined) await refuseContractFile(resolve(io.cwd, opts.junit), opts.junit, workspace.config.project.root, prepared.contracts);
      junitJudged();
      // On the in-process emulator a run changes its state (a template brought up to date, reviews):
      // one apply or test at a time, as two processes would each save their own copy of it. Taken
      // once the inputs are known good, before the emulator reads its state.
      // Its checkout named as apply's is: an apply of this one is not said to be in another (probe KW-3).
      // A replay changes nothing there (it contacts no service): it runs beside an apply or another emulator (probe QY-3).
      if (opts.emulator && !opts.replayOnly) releaseApplyLock = await takeApplyLock(io, { root: workspace.config.project.root, checkout: workspace.config.project.root, timeoutMs: opts.timeout, takenBy: TEST_RUN });
    };
    const needs = (): Set<ServiceName> => servicesFor(prepared?.selected ?? [], Boolean(opts.replayOnly));
    // After the first Ctrl-C nothing the service refused or lost is sent again (the cleanup's own
    // requests go out once): a review retried after the signal was made, and waited for, in vain.
    // Before the reads the session makes itself (the agreements organization a template test needs).
    const connected = (target: Session['connection']['target'], workspace: Workspace): void => connectedTo(() => targetTextOf(target, workspace, Boolean(opts.emulator)));
    return await withSession(io, { ...opts, emulatorState: opts.replayOnly ? 'untouched' : 'changes', check, needs, connected, signal: hard.signal, stop: interrupts.signal, waitsAfterStop: () => cleaning > 0, nextRun: 'test', deadline: requestDeadline }, async (s) => {
      const { subjects, selected, warnings, compare, none } = prepared!;
      const project = s.workspace.config.project;
      // Under --fail-on-warn a warning fails the run: said with -q too, as an error is (probe ZE-2).
      for (const d of warnings) (opts.failOnWarn ? s.logger.error : s.logger.info).call(s.logger, `${d.file}:${d.line}:${d.col} warning ${d.code} ${d.message}`);
      if (none) s.logger.info(none);
      const emulator = Boolean(opts.emulator);
      const reviewUrl = project.review.url ?? DEFAULT_REVIEW_URL;
      s.progress.start('Testing');
      const uploads = UploadCopy.in(project.root);
      const contracts = contractStoreOf(s, emulator, uploads);
      const secrets = keyValues(io.env);
      const cache = new TestCache(join(project.root, CACHE_DIR, cachePartition(emulator, reviewUrl)), undefined, secrets.length > 0 ? (text) => redact(text, secrets) : undefined);
      const run = await runTests(
        selected,
        {
          root: project.root,
          services: opts.replayOnly ? undefined : s.connection.services,
          subjects,
          cache,
          readCache: opts.cache,
          live: Boolean(opts.live),
          ...declaredDefaultReviewer(s.workspace.desired),
          contracts,
          concurrency: s.concurrency,
          run: { pid: process.pid, host: hostname(), until: new Date(deadline) },
          signal: interrupts.signal,
          deadline: () => deadline,
          cleanup,
          sleep: (ms, signal) => delay(ms, undefined, { signal }).catch(() => undefined),
          now: () => new Date(),
          progress: (text) => s.progress.update(text),
          target: targetText(s, emulator),
          // `--live` tests what is live, on the emulator too: bringing it up to date first would undo the drift it checks (probe GJ-3).
          prepareTemplate: (t: TemplateSubject) => (emulator && !opts.live ? syncEmulatorTemplate(s, t) : compareLiveTemplate(s, t)),
        },
        compare,
      ).catch(async (error: unknown) => {
        // Whatever stopped the run, what it uploaded is recorded; the run's own error is the one said.
        await contracts.flush().catch(() => undefined);
        throw error;
      });
      await contracts.flush();
      const ended: string[] = [];
      if (cache.unreadable.size > 0) {
        const entries = [...cache.unreadable].map((f) => relative(project.root, f)).sort();
        ended.push(`${entries.length === 1 ? 'a test cache entry' : `${entries.length} test cache entries`} could not be read (damaged or cut short): ${entries.join(', ')}; ${opts.replayOnly ? 'their cases were not replayed' : 'their cases were reviewed again, and the entries written anew'}`);
      }
      if (cache.unwritten) ended.push(`a test cache entry could not be written (${cache.unwritten}) in ${relative(project.root, cache.dir)}; the next run reviews its cases again`);
      if (uploads.unreadable) ended.push(`the copy of the upload records could not be read (damaged): ${relative(project.root, uploads.path)}; contracts docket.lock.json does not record are uploaded again, and the copy is written anew`);
      if (uploads.unwritten) ended.push(`the copy of the upload records could not be written (${uploads.unwritten}): ${relative(project.root, uploads.path)}; a CI job that keeps the test cache but not docket.lock.json's changes uploads these contracts again`);
      for (const warning of ended) s.logger.info(`warning: ${warning}`);
      // A report read by a machine or posted as a comment says them too: reviews they cost are billed (probe OK-3).
      const said = opts.output === 'text' || ended.length === 0 ? run : { ...run, notes: [...run.notes, ...ended] };
      // The report carries them (with their source lines, as validate -o json gives them): its JSON, its annotations and --fail-on-warn see them too.
      return warnings.length > 0 ? { ...said, warnings: withExcerpts(warnings, sourceLines(project.root)) } : said;
    });
  } catch (error) {
    // A request the first signal kept from being tried again (the reads before any case runs) ends
    // the run as the signal's, exit 130 or 143, as plan's reads do.
    const signal = interrupts.received();
    if (signal && error instanceof DocketError && !(error instanceof InterruptedError) && error.code === 'interrupted') throw new InterruptedError(signal, `docket test interrupted by ${signal}: ${error.message}`);
    throw error;
  } finally {
    hard.abort();
    release();
    await releaseApplyLock?.();
  }
}

/**
 * The contracts this checkout uploaded, in the lock section of imported files. On the in-process
 * emulator the records are written once, at flush() (see ContractStore).
 */
function contractStoreOf(s: Session, emulator: boolean, uploads = UploadCopy.in(s.workspace.config.project.root)): ContractStore {
  // A lock made read-only would refuse the record of a contract after its upload was paid for, and the
  // run's report with it: asked before the first upload (probe CA-2).
  return new ContractStore(s.workspace.lockLocation, () => reviewLockTarget(s, emulator), () => s.connection.saveEmulator(), uploads, emulator, () => refuseReadOnlyLock(s.workspace.lockLocation, 'docket test'));
}

/** The lock section of imported files: the review service's URL and organization (known once located). */
function reviewLockTarget(s: Session, emulator: boolean): string | undefined {
  if (emulator) return emulatorLockTarget(s.workspace.config.project.review.organization_id);
  const review = s.connection.target.review;
  if (review) return review.organization_id ? agreementsTarget(review.url, review.organization_id) : undefined;
  // Not connected (--replay-only): the section the configuration names, when it names the organization.
  const configured = s.workspace.config.project.review;
  return configured.organization_id ? agreementsTarget(configured.url ?? DEFAULT_REVIEW_URL, configured.organization_id) : undefined;
}

/** Where the tests ran, as plan names a target: URLs, organizations, and the environment. */
function targetText(s: Session, emulator: boolean): string {
  return targetTextOf(s.connection.target, s.workspace, emulator);
}

function targetTextOf(t: Session['connection']['target'], workspace: Workspace, emulator: boolean): string {
  const organization = (id: string | undefined): string => (id ? ` (organization ${id})` : '');
  const parts = [t.review ? `review ${t.review.url}${organization(t.review.organization_id)}` : '', t.agreements ? `agreements ${t.agreements.url}${organization(t.agreements.organization_id)}` : ''].filter((p) => p !== '');
  const where = emulator ? 'local emulator' : parts.length > 0 ? parts.join(', ') : 'none (no service was read)';
  const environment = workspace.config.project.environment;
  return `${where}${environment !== undefined ? ` · environment ${environment}` : ''}`;
}

/** `--target KIND/NAME`: the tests of those playbooks and templates. */
function selectTargets(files: TestFile[], targets: string[], subjects: TestSubjects): TestFile[] {
  if (targets.length === 0) return files;
  const wanted = targets.map((t) => {
    const slash = t.indexOf('/');
    // The kind as a flag or as the files spell it (`Playbook/Inbound NDA`), as plan's --target takes it.
    const kind = slash < 0 ? undefined : spelledKind(t.slice(0, slash), KINDS)?.name;
    const name = t.slice(slash + 1);
    // A kind misspelt gets its suggestion, as plan's --target gives it (probe KH-7).
    const typo = kind === undefined && slash > 0 ? didYouMean(t.slice(0, slash), TEST_TARGET_KINDS) : '';
    if (kind === undefined || !TEST_TARGET_KINDS.includes(kind)) throw new UsageError(`--target ${showText(t)}: docket test selects tests by ${TEST_TARGET_KINDS.map((k) => `${k}/NAME`).join(', ')}${typo}`);
    const known = kind === TEST_TARGET_KINDS[0] ? subjects.playbooks.has(name) : [...subjects.templates.values()].some((x) => x.target === `${kind}/${name}`);
    if (!known) {
      const declared = [...[...subjects.playbooks.values()].map((p) => `${TEST_TARGET_KINDS[0]}/${p.name}`), ...[...subjects.templates.values()].map((x) => x.target)];
      // A name of that kind as close as a typo of the name (the shared `playbook/` is no budget for
      // one), else the name as another kind declares it.
      const sameKind = declared.filter((d) => d.startsWith(`${kind}/`)).map((d) => d.slice(kind.length + 1));
      const otherKind = declared.find((d) => d.slice(d.indexOf('/') + 1) === name);
      const suggestion = didYouMean(name, sameKind, (n) => `${kind}/${n}`) || (otherKind === undefined ? '' : didYouMeanBecause(otherKind));
      throw new UsageError(`--target ${showText(t)} names nothing declared in this configuration${suggestion}`);
    }
    return { playbook: kind === TEST_TARGET_KINDS[0], name };
  });
  return files.filter((f) => wanted.some((w) => w.name === f.subject && w.playbook === (f.kind === 'PlaybookTest')));
}

/**
 * Template tests run against the live template. On the emulator (local scratch) docket first
 * brings the tested template, and what it needs, up to date with the files, so the cases test
 * the file's version; the real services are never changed by `docket test`.
 */
async function syncEmulatorTemplate(s: Session, subject: TemplateSubject): Promise<string | undefined> {
  const plan = await planInSession(s, withReferenced(s.workspace.desired, subject).targets);
  if (!hasChanges(plan)) return undefined;
  // Recorded as an apply records them: the uploads in the lock, what is in sync in the sync records.
  const recorder = lockRecorder(s);
  const result = await applyPlan(plan, { ...applyInputOf(s), persistLock: recorder.persistLock });
  await recorder.flush();
  await settleApplied(s, plan, result, false);
  // The next template's plan knows these uploads (an attachment two templates name is uploaded once).
  s.lock = result.lock;
  if (result.report.failed > 0) throw new DocketError('emulator-sync', `could not bring ${JSON.stringify(subject.name)} up to date in the emulator (${plural(result.report.failed, 'change')} failed)`);
  return `brought ${JSON.stringify(subject.name)} up to date in the emulator first (${plural(plan.changes.length, 'change')})`;
}

/**
 * On the services a template is tested as it is live (docket test never changes one): when the
 * files say otherwise, the suite says so, or a green result would vouch for a version not applied.
 */
async function compareLiveTemplate(s: Session, subject: TemplateSubject): Promise<string | undefined> {
  // The template and what it names (terms, attachments) alone: the agreements service only, as the cases.
  const { only, targets } = withReferenced(s.workspace.desired, subject);
  const plan = await planDetailsInSession(s, { targets, only }).then((details) => details.plan, (error: unknown) => {
    if (error instanceof DocketError) return error;
    throw error;
  });
  if (plan instanceof DocketError) return `could not compare the live ${JSON.stringify(subject.name)} with the files (${plan.message}); its cases test the live one`;
  // Not live at all: the suite says so itself ("not live yet"), and there is no live one to test.
  if (!hasChanges(plan) || plan.changes.some((c) => c.kind === subject.ref.kind && c.key === subject.ref.key && CREATE_ACTIONS.includes(c.action))) return undefined;
  const changes = plan.changes.map((c) => `${c.action} ${c.kind} ${JSON.stringify(c.name)}${c.action !== 'create' && c.fields.length > 0 ? ` (${c.fields.map((f) => f.field).join(', ')})` : ''}`);
  return `the live ${JSON.stringify(subject.name)} differs from the files (${changes.join('; ')}): these cases test the live one; run docket apply first to test the files' version`;
}

/**
 * The declared template a subject names, and every declared resource it references, transitively;
 * and each one's target: a term's new version is no change the template's own target takes along.
 */
function withReferenced(desired: readonly DesiredResource[], subject: TemplateSubject): { only: DesiredResource[]; targets: string[] } {
  const byRef = new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
  const start = byRef.get(refKey(subject.ref.kind, subject.ref.key));
  const out = new Set<DesiredResource>();
  const visit = (d: DesiredResource | undefined): void => {
    if (!d || out.has(d)) return;
    out.add(d);
    for (const r of d.refs) visit(byRef.get(refKey(r.kind, r.key)));
  };
  visit(start);
  const only = [...out];
  return { only, targets: [subject.target, ...only.filter((d) => !d.parent && d !== start).map((d) => `${d.kind}/${d.name}`)] };
}

interface CaptureFlags extends CommonOptions {
  review: string;
  out: string;
  playbook?: string;
  name?: string;
  contract?: string;
  emulator?: boolean;
}

async function readContract(cwd: string, file: string): Promise<Buffer> {
  try {
    // Never waited on: a named pipe would block the read, and the process with it.
    return readRegularFileSync(resolve(cwd, file));
  } catch (error) {
    throw new UsageError(`--contract ${file} cannot be read (${unreadableReason(error)})`, 'name the contract file the review was made of');
  }
}

/** What capture takes of `docket test`'s flags: the place, output and pace flags (`-o json` gives its error as JSON). */
const CAPTURE_TAKES = PARENT_FLAGS_TAKEN['test capture']!;

/**
 * A run flag of `docket test` given to capture (`--replay-only`, `--junit F`) is refused before
 * anything is read: taken and ignored, it read as in force, and capture still asked the service (probe KH-2).
 */
function refuseRunFlags(test: Command | null): void {
  const given = (test?.options ?? []).filter((o) => !CAPTURE_TAKES.has(o.attributeName()) && test!.getOptionValueSource(o.attributeName()) === 'cli');
  // Its -o says how its error is printed: a markdown report it does not make (second read RV9).
  const output: unknown = test?.getOptionValueSource('output') === 'cli' ? test.opts().output : undefined;
  if (typeof output === 'string' && PARENT_VALUES_REFUSED['test capture']?.output?.includes(output)) throw new UsageError('-o markdown: `docket test capture` writes a test file and makes no report; -o json gives its error as JSON', 'leave -o out, or give -o json');
  if (given.length === 0) return;
  const names = given.map((o) => o.long ?? o.short ?? o.flags);
  throw new UsageError(`${names.join(', ')}: ${names.length === 1 ? 'a flag' : 'flags'} of \`docket test\`, which \`docket test capture\` does not take`, 'capture takes its own flags and, of docket test\'s, -C DIR, --env E, --emulator, -o, the pace flags and the common options (docket test capture --help)');
}

function captureCommand(io: Io, setExit: (code: number) => void): Command {
  // -C, --env, --emulator and the output flags are the parent's (`docket test capture -C DIR …`).
  return new Command('capture')
    .description('write a PlaybookTest case from the decisions reviewers recorded on a real review')
    .requiredOption('--review <ID>', 'the review to capture')
    .requiredOption('--out <FILE>', 'the test file to write or append to (tests/….test.yaml)')
    .option('--playbook <NAME>', 'the playbook the case tests (default: the reviewed playbook)')
    .option('--name <CASE>', 'the case name (default: captured from review <ID>)')
    .option('--contract <FILE>', 'a local copy of the contract, when the service does not give its sha256 (only its digest is read)')
    .addHelpText('after', '\nAlso takes docket test\'s -C DIR, --env E and --emulator, -o json (its error as JSON), --concurrency N and --max-rps N (the pace of its reads) and the common options (-q, -v, --no-color):\n  docket test capture -C DIR --emulator --review ID --out tests/nda.test.yaml')
    .action(async (own: Omit<CaptureFlags, keyof CommonOptions>, command: Command) => {
      refuseRunFlags(command.parent);
      const opts = { ...(command.parent?.opts() as CommonOptions & { emulator?: boolean }), ...own } as CaptureFlags;
      // All before the review is read: a case that cannot be written is not worth fetching.
      // Sent as one path segment: `.` and `..` would reach the list of reviews or the organization.
      requireValue('--review', opts.review, 'a review id', 'the id of the review to capture, as the app or `docket test -o json` shows it', true);
      for (const [flag, value] of [['--name', opts.name], ['--playbook', opts.playbook]] as const) requireValue(flag, value, 'a value', `leave ${flag} out for its default`);
      // A case name is one line: validate refuses one holding a line break or another control character (probe FL-4).
      if (opts.name !== undefined && holdsControl(opts.name)) throw new UsageError(`--name ${quoteValue(opts.name)} holds a line break or another control character, which a case name may not`, 'give a name of one line');
      // It has no default: left out, the service gives the contract's digest (probe KH-6).
      requireValue('--contract', opts.contract, 'a file', 'name the local copy of the contract, or leave --contract out when the service gives its sha256');
      const out = await checkOutputFile(captureBase(io.cwd, opts.dir, opts.out), opts.out, '--out', 'tests/captured.test.yaml');
      // Any other name would be read as a resource file, which every later command refuses.
      if (!isTestFile(opts.out)) throw new UsageError(`--out ${quoteValue(opts.out)} is not a test file: docket reads *.test.yaml files as tests`, `name it ${JSON.stringify(opts.out.replace(/(\.ya?ml)?$/i, '.test.yaml'))}`);
      const digest = opts.contract ? sha256(await readContract(io.cwd, opts.contract)) : undefined;
      const { captured, root } = await withSession(io, { ...opts, needs: () => new Set<ServiceName>(['review']) }, async (s) => ({ captured: await captureChecked(s, io, opts, out, digest), root: s.workspace.config.project.root }));
      const shown = showPath(relative(io.cwd, out) || out);
      const how = await writeCaptureGuarded(io, root, out, captured, shown);
      if (!opts.quiet) io.stderr(`${how === 'created' ? 'Wrote' : 'Appended'} case ${JSON.stringify(captured.case.name)} (PlaybookTest "${captured.playbook}") to ${shown}; docket ${VERSION} records the contract by id and sha256, not its text.\n`);
      setExit(0);
    });
}

/** A name another case of the playbook has, as reports show names, in any test file: validate would refuse both (probe FL-4). */
async function refuseTakenCaseName(io: Io, root: string, where: string, made: CapturedCase): Promise<void> {
  const taken = await fileWithCaseNamed(root, made.playbook, String(made.case.name));
  if (taken === undefined) return;
  const alike = taken.name === made.case.name ? '' : `, alike in reports to ${JSON.stringify(made.case.name)}`;
  const here = taken.file === where;
  throw new DocketError(
    'duplicate-case',
    `${showPath(relative(io.cwd, join(root, taken.file)))} already has a case named ${JSON.stringify(taken.name)}${alike}${here ? '' : ` for playbook ${quoteValue(made.playbook, 200)}`}; nothing was written`,
    here ? 'pass another --name for the new case, or --out another file' : 'pass another --name for the new case: a JUnit report names a case by its playbook and its name, in whichever file',
  );
}

/**
 * Writes the case, one capture of the configuration at a time: two at once each read the file and
 * wrote it back with their own case only, and one that read it while the other wrote it found it
 * empty and wrote a file of its case alone (probe HC-1). The file is replaced whole, through a copy
 * in .docket, so a full disk or a kill leaves it as it was (probe HC-2).
 */
async function writeCaptureGuarded(io: Io, root: string, out: string, captured: CapturedCase, shown: string): Promise<'created' | 'appended'> {
  return withWriteMutex(
    workPath(root, CAPTURE_MUTEX),
    async () => {
      // Read again under the mutex: a capture that wrote meanwhile may have taken the name.
      await refuseTakenCaseName(io, root, relative(root, out).split(sep).join('/'), captured);
      return writeCapture(out, captured, { shown, tempDir: workPath(root) });
    },
    { makeFolder: true },
  );
}

/** The mutex of capture's writes, in .docket (util/write-mutex.ts). */
const CAPTURE_MUTEX = 'capture.lock';

/**
 * Reads the review into a case, refusing first what would make a case docket test never reads or
 * every later command refuses: an --out outside the configuration, an undeclared playbook, a
 * --contract the lock records as another contract than the one reviewed.
 */
async function captureChecked(s: Session, io: Io, opts: CaptureFlags, out: string, digest: string | undefined): Promise<CapturedCase> {
  const root = s.workspace.config.project.root;
  const declared = declaredPlaybooks(s.workspace.desired);
  // A case docket test would never read, or one every later command refuses, is not worth writing.
  const where = relative(root, out).split(sep).join('/');
  // The example path is said from where the user is (--out is read from the current directory).
  const example = join(relative(io.cwd, root), 'tests', 'captured.test.yaml').split(sep).join('/');
  if (isOutside(where)) {
    throw new UsageError(`--out ${quoteValue(opts.out)} is not in the configuration directory (${relative(io.cwd, root) || '.'}), where docket test reads test files`, `write it below that directory, such as ${example}`);
  }
  const skipped = skippedFolderOf(where);
  if (skipped !== undefined) {
    throw new UsageError(`--out ${quoteValue(opts.out)} is in ${skipped}/, a folder docket does not read (dot-folders and node_modules hold local or other people's files)`, `write it to a folder of the configuration, such as ${example}`);
  }
  // The case is written where the name leads: through a link, that must be a test file of the configuration too.
  const lands = relative(await realpath(root).catch(() => root), writeDestination(out)).split(sep).join('/');
  if (isOutside(lands) || !isTestFile(lands) || skippedFolderOf(lands) !== undefined) {
    throw new UsageError(`--out ${quoteValue(opts.out)} leads through a link to ${quoteValue(isOutside(lands) ? writeDestination(out) : lands)}, which is not a test file of the configuration: the case would be written into it`, `name the test file itself, such as ${example}`);
  }
  const names = [...declared.values()].map((p) => p.name);
  if (opts.playbook !== undefined && !declared.has(normName(opts.playbook))) {
    throw new UsageError(`--playbook ${quoteValue(opts.playbook)} is not a playbook this configuration declares${didYouMean(opts.playbook, names)}`);
  }
  const made = await captureCase(s.connection.services, { declared, reviewId: opts.review, ...(opts.playbook ? { playbook: opts.playbook } : {}), ...(opts.name ? { name: opts.name } : {}), ...(digest && opts.contract ? { copy: { name: opts.contract, sha256: digest } } : {}) });
  if (!declared.has(normName(made.playbook))) {
    throw new DocketError('unknown-playbook', `review ${opts.review} was made against playbook ${quoteValue(made.playbook)}, which this configuration does not declare`, 'pass --playbook NAME: the declared playbook whose test file the case belongs to');
  }
  refuseUnreadableCase(made, declared.get(normName(made.playbook))!, opts.review, keysOf(io.env));
  await refuseTakenCaseName(io, root, where, made);
  // A local copy of another contract than the one reviewed: the lock, which recorded the upload, says so.
  const contract = made.case.contract as { imported_file?: string; sha256?: string };
  const conflict = digest && contract.imported_file && contract.sha256 ? await contractStoreOf(s, Boolean(opts.emulator)).conflictOf(contract.sha256, contract.imported_file, (id) => importedFileSha(s.connection.services, id)) : undefined;
  if (conflict) throw new DocketError('contract-mismatch', `--contract ${quoteValue(opts.contract ?? '')} is not the contract review ${opts.review} read: ${conflict}`, 'pass the local copy of the contract that was reviewed');
  return made;
}
