/**
 * `docket apply`: with no plan file it plans, shows the plan and asks for `yes` (or needs
 * --auto-approve without a terminal); with a plan file it applies exactly that plan after checking
 * it is not stale. One apply per checkout at a time (`.docket/apply.lock`); a first Ctrl-C or
 * SIGTERM stops it cleanly, a second at once, and docket.lock.json is written as uploads happen.
 */
import { quoteValue } from '../../config/quote.js';
import { setMaxListeners } from 'node:events';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Command, Option } from 'commander';
import { applyPlan, forgetSuperseded, type ApplyPlanResult } from '../../engine/apply.js';
import { describeGuard, type GuardViolation } from '../../engine/guard.js';
import { hasChanges } from '../../engine/plan.js';
import { OTHER_TARGET, checkSavedPlan, targetDifference } from '../../engine/stale.js';
import { syncAfterApply, type RecordHeld, type SyncUpdates } from '../../engine/sync.js';
import { KINDS } from '../../kinds/index.js';
import { withCurrentSources } from '../../engine/change-source.js';
import type { AdoptableFile, ApplyReport, Plan } from '../../engine/types.js';
import { lockEntries, type LockFile } from '../../config/lock.js';
import { PROJECT_FILES } from '../../config/load.js';
import { isPlainObject } from '../../util/plain.js';
import { collectGarbage } from '../../util/collect.js';
import { setV8FlagsForRequestLoops } from '../../util/v8-flags.js';
import { followRenamedFiles, followRenamedObjects } from '../../engine/lock-follow.js';
import { kindsToRead, servicesNeeded, type PruneSwitches } from '../../engine/project.js';
import type { Workspace } from '../../engine/workspace.js';
import type { ServiceName } from '../../api/types.js';
import { givenUpForgotten, marksLaterBy, withEndedForgotten, type LandingChange } from '../../engine/landing.js';
import { ApplyFailedError, ConfigError, DocketError, InterruptedError, NotApprovedError, StalePlanError, UnsafePlanError, UsageError } from '../../errors.js';
import { planJsonChunks } from '../../render/json.js';
import { renderApplyReportJson } from '../../render/apply-json.js';
import { painter } from '../../render/paint.js';
import { headerLines, planWarningLines, writeApplyReportText, writePlanText } from '../../render/text.js';
import { noChangesSentence, plural } from '../../render/facts.js';
import { annotatingProblems, annotationsOption, printAnnotations, printFailureAnnotations, type AnnotationFormat } from '../annotations.js';
import { applyLockRoot, holdingApplyLock, lockTimeoutOption, refuseLockMovedAway } from '../apply-lock.js';
import { refuseReadOnlyLock } from '../lock-writable.js';
import { EMULATOR_SYNC_FILE, workLabel } from '../../config/work-dir.js';
import { forcedPastGuard, forcedWarnings } from '../../engine/guard.js';
import { asRunBy, reapplyCommand, replanCommand, savedPlanCommand, shapedCommand, type PlanShape } from '../command-line.js';
import { shellPath } from '../../util/shell-word.js';
import { applyInputOf, lockRecorder, settleApplied } from '../apply-step.js';
import { EMULATOR_STATE_LABEL } from '../connect.js';
import { formatDuration, parseTimeBudget } from '../duration.js';
import { interruptsOf, outputFailed, useColor, type Io } from '../io.js';
import type { SignalName } from '../interrupt.js';
import { VERBOSE_SHOWS_ARCHIVES, withCommon, type CommonOptions, repeatable } from '../options.js';
import { checkPlanSeal, checkPlanVersion, readPlanFile } from '../plan-file.js';
import { planInSession, pruneHelp } from '../plan-step.js';
import { KIND_ORDER, withSession, type Session } from '../session.js';
import { errnoOf, isFileSystemError, unwrittenFile, writeFixFor } from '../../util/file-write-error.js';
import { environmentsIn } from '../../config/project.js';

interface ApplyFlags extends CommonOptions {
  output: 'text' | 'json';
  autoApprove?: boolean;
  emulator?: boolean;
  prune?: boolean;
  adoptFiles?: boolean;
  retryUncertain?: boolean;
  force?: boolean;
  target: string[];
  annotations?: AnnotationFormat;
  timeout: number;
  lockTimeout: number;
}

/** How a failed apply's closing hint starts: each failure above says its own fix (a lock entry or an `id:` line to remove), which re-running alone does not make (probe MJ-1). */
const FIX_FAILURES = 'fix what each failure above names, then';

/** The defaults the README states. */
export const APPLY_TIMEOUT_MS = 10 * 60_000;
/** The longest delay setTimeout keeps. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long operations in flight may take to finish after the first Ctrl-C or SIGTERM. */
export const INTERRUPT_GRACE_MS = 30_000;

export function applyCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('apply'), { verbose: VERBOSE_SHOWS_ARCHIVES })
    .description('make the live services match the configuration (or apply a saved plan)')
    .argument('[PLAN.json]', 'a plan saved with `docket plan --out`')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json']).default('text'))
    .option('--auto-approve', 'apply without asking (needed when there is no terminal)')
    .addOption(repeatable('--target <KIND/NAME>', 'limit the apply to a resource and what it needs (repeatable)', 'every resource'))
    .option('--prune', pruneHelp())
    .option('--force', 'apply even when removals exceed safety.max_delete_fraction')
    .option('--adopt-files', 'record files the plan cannot compare (no docket.lock.json entry) as live, without uploading')
    .option('--retry-uncertain', 'send again what an interrupted apply may or may not have made: uploads, creates, invitations, publishes')
    .addOption(new Option('--timeout <DURATION>', 'time budget for the whole apply, not counting the approval prompt').argParser(parseTimeBudget).default(APPLY_TIMEOUT_MS, '10m'))
    .addOption(lockTimeoutOption())
    .option('--emulator', 'run against an in-process emulator (state in DIR/.docket/emulator.json)')
    .addOption(annotationsOption())
    // Not an option of apply: said so, instead of commander's "did you mean --output" (a format).
    .addOption(
      new Option('--out <FILE>')
        .hideHelp()
        .argParser(() => {
          throw new UsageError('apply does not save a plan: `docket plan --out FILE` saves one, and `docket apply FILE` applies it');
        }),
    )
    .action(async (planFile: string | undefined, opts: ApplyFlags) => {
      const color = useColor(io, opts);
      // An empty argument (`docket apply "$PLAN"` with PLAN unset) is read, and refused: never taken as none.
      const saved = planFile !== undefined ? await readPlanFile(planFile, opts.dir, { env: opts.env, emulator: opts.emulator }) : undefined;
      if (saved && planFile) checkPlanVersion(saved, planFile, replanCommand(saved, opts.dir, planFile));
      // A saved plan knows its environment, as it knows whether it was made for the emulator. Said
      // before the seal: run with another environment's keys, the seal fails for the wrong reason.
      if (saved && opts.env !== undefined && opts.env !== saved.environment) {
        // Made for an environment docket.yaml no longer defines (renamed since, say): stale, whatever
        // --env names; "apply it without --env" would only lead there (probe FU).
        const gone = saved.environment !== undefined ? await undefinedEnvironment(resolve(io.cwd, opts.dir), saved.environment) : undefined;
        if (gone !== undefined) throw environmentGone(saved, opts.dir, gone.file, gone.hint, planFile);
        throw new UsageError(`the plan was made ${saved.environment ? `for --env ${saved.environment}` : 'without --env'}, not --env ${opts.env}`, 'apply it without --env: it applies to the environment it was made for');
      }
      if (saved && planFile) checkPlanSeal(saved, planFile, io.env, replanCommand(saved, opts.dir, planFile));
      if (saved && opts.target.length > 0) throw new UsageError('--target cannot be combined with a saved plan', 'pass --target to `docket plan --out` instead');
      // The saved plan already holds (or leaves out) its archives: a --prune here would be ignored.
      if (saved && opts.prune) throw new UsageError('--prune cannot be combined with a saved plan', 'pass --prune to `docket plan --out` instead');
      if (saved && opts.retryUncertain) throw new UsageError('--retry-uncertain cannot be combined with a saved plan', 'pass --retry-uncertain to `docket plan --out` instead');
      const emulator = Boolean(opts.emulator || saved?.target.emulator);
      const env = opts.env ?? saved?.environment;
      const shape: PlanShape = { dir: opts.dir, env, emulator, prune: opts.prune, retryUncertain: opts.retryUncertain, target: opts.target, force: opts.force, adoptFiles: opts.adoptFiles };
      // A plan made for the services, applied with --emulator: stale before anything is opened or written (the emulator's state, the apply lock).
      if (saved && !saved.target.emulator && opts.emulator) throw new StalePlanError([`${OTHER_TARGET} (${targetDifference(saved.target, { emulator: true })})`], { again: replanCommand(saved, opts.dir, planFile), hint: otherTargetHint(saved, shape, planFile) });
      const interrupts = interruptsOf(io);
      // Until the first change starts (the apply holds its signals from then on), a signal ends the run at once, and says so.
      interrupts.noteAtOnce?.('nothing live was changed; run the apply again');
      const root = resolve(io.cwd, opts.dir);
      const lockRoot = applyLockRoot(root);
      await holdingApplyLock(io, { root: lockRoot, checkout: root, timeoutMs: opts.lockTimeout }, () => staleIfEnvironmentGone(saved, opts.dir, planFile, async () => {
        // The time budget runs from the start, paused while a person reads the plan.
        let deadline = Date.now() + opts.timeout;
        // Aborted once the grace after an interrupt is over: requests still in flight end then.
        const hard = new AbortController();
        // Every request and every wait for a free slot listens to it: thousands at once are expected.
        setMaxListeners(0, hard.signal);
        await annotatingProblems(io, opts, () => withSession(io, { ...opts, targets: opts.target, emulator, emulatorState: 'changes', ...(saved ? { needs: savedPlanServices(saved) } : {}), ...(env ? { env } : {}), ...(saved?.target.review?.organization_id ? { reviewOrganization: saved.target.review.organization_id } : {}), signal: hard.signal, stop: interrupts.signal, deadline: () => deadline }, async (s) => {
          refuseLockMovedAway(root, lockRoot);
          const made = saved ? await checked(saved, s, shape, false, planFile) : await planInSession(s, opts.target, { retryUncertain: Boolean(opts.retryUncertain), adoptFiles: Boolean(opts.adoptFiles) });
          // With --force, the guard's refusals are said as what it goes past, in every output of this run.
          const plan = opts.force ? forcedPastGuard(made) : made;
          // With -q only the apply report (the result) is printed, unless a person must approve the plan.
          const planShown = !saved && opts.output === 'text' && (!opts.quiet || !opts.autoApprove);
          // A plan not printed says its warnings on stderr, a CI log keeps them: with -o json all of
          // them, a permanent delete's too (probe EC-1); a saved one said them when it was made, but
          // for what --force goes past.
          if (!planShown && !opts.quiet) {
            const said = saved ? (opts.force ? forcedWarnings(made.guard ?? []).map((w) => `Warning: ${w}`) : []) : planWarningLines(plan);
            for (const line of said) io.stderr(`${line}\n`);
          }
          if (planShown) {
            // Like the approval question, the plan's printing is not the apply's work: a reader that
            // takes it slowly (a CI log) must not use up the budget of the changes.
            const printing = Date.now();
            await writePlanText(plan, { color, verbose: Boolean(opts.verbose), kindOrder: KIND_ORDER, dir: opts.dir }, io.stdout, io.stdoutDrained);
            deadline += Date.now() - printing;
          }
          // Before applying, so the annotations are there even when an operation fails.
          if (!saved && opts.annotations === 'github') printAnnotations(io, plan, s.workspace, opts);
          const adopting = opts.adoptFiles ? (plan.adoptable ?? []) : [];
          const settling = plan.lock_updates ?? [];
          if (!hasChanges(plan) && adopting.length === 0 && settling.length === 0) {
            // Nothing to change, and so everything in scope is in sync: recorded, for the next plan's directions.
            const lock = { files: { ...s.lock.files } };
            if (!plan.targets?.length) followRenamedFiles(lock, s.workspace.desired, KINDS);
            // An object renamed in the app and pulled: its upload's entry moves to its new name (second read SR78-6).
            followRenamedObjects(lock, plan.ids, s.workspace.desired, plan.changes);
            // Every change naming an earlier upload is made: it is forgotten here too (probe KR-2).
            forgetSuperseded(plan, { results: [] }, lock);
            // The landing marks it settled (what they marked is live now, or wanted no more) are forgotten.
            await settleLockFile(s, lock, io, opts, false, (held) => syncAfterApply({ plan, desired: s.workspace.desired, ids: new Map(Object.entries(plan.ids)), kinds: KINDS, held, state: s.sync() }), givenUpForgotten(plan));
            // From here a signal stops nothing: the report is what happened, and its exit code the apply's.
            interrupts.hold('there was nothing to change; the report is being written');
            if (opts.output === 'json') io.stdout(renderApplyReportJson(plan, { results: [], done: 0, failed: 0, skipped: 0, ms: 0 }));
            // A plan not printed (saved, or -q): the report still names the target, and says there was nothing to do.
            // A saved plan was read when it was made: live may have moved since, so it says only what the plan holds.
            else if (!planShown) io.stdout(`${reportHeader(plan, color)}${nothingSent(plan, saved !== undefined)}\n`);
            setExit(0);
            return;
          }
          // Before a person is asked: a yes would be for nothing. With --emulator the sync records
          // go to a file of their own (second read SR79B-1).
          await refuseReadOnlyLock(s.workspace.lockLocation);
          if (s.syncFile !== s.workspace.lockLocation.path) await refuseReadOnlyLock({ path: s.syncFile, label: workLabel(EMULATOR_SYNC_FILE) });
          if (plan.guard?.length && !opts.force) {
            throw new UnsafePlanError(
              `refusing to apply: ${describeGuard(plan.guard).join('; ')}`,
              // The guard's setting is part of the configuration digest: raised, it makes a saved plan stale.
              saved
                ? `review the plan; if ${guarded(plan.guard)} intended, apply this plan file again with --force (or raise safety.max_delete_fraction and make a new plan)`
                : `review the plan; if ${guarded(plan.guard)} intended, run apply again with --force (or raise safety.max_delete_fraction)`,
            );
          }
          // Only changes to the services need a person's yes; recording what is already live does not.
          if (!saved && !opts.autoApprove && hasChanges(plan)) {
            const asked = Date.now();
            await confirm(io, opts.output === 'json' ? planJsonChunks(plan) : undefined, savedPlanCommand(shape));
            deadline += Date.now() - asked;
            // What was approved is what is applied: an edit made in the app while a person read the
            // plan would otherwise be overwritten (or its object deleted) unseen, as a saved plan's is not.
            await checked(plan, s, shape, true);
          }
          // A plan that could not be printed (a full disk) is one nobody saw: nothing is sent (probe FV).
          if (planShown) await refuseUnprintedPlan(io);
          await execute(plan, s, io, opts, { hard, deadline: () => deadline, color, saved: Boolean(saved), planShown, ...(saved && planFile !== undefined ? { savedFile: planFile } : {}), adopting: adoptedLabels(adopting), ...adoptedSaid(adopting) });
          setExit(0);
        }));
      }));
    });
}

/**
 * The services a saved plan is applied with: what the configuration needs, and every one the plan
 * was made with. One made with `--prune` read a service the files need nothing of (a playbook to
 * archive, no playbook declared): not connected, it was "made for a different target" (probe MQ-1).
 */
function savedPlanServices(saved: Plan): (workspace: Workspace, prune: PruneSwitches) => Set<ServiceName> {
  return (workspace, prune) => {
    const needs = servicesNeeded(kindsToRead(workspace.desired, prune), workspace.desired);
    if (saved.target.review) needs.add('review');
    if (saved.target.agreements) needs.add('agreements');
    return needs;
  };
}

/**
 * A saved plan's environment that docket.yaml no longer defines (renamed or removed since) makes
 * the plan stale, not the configuration invalid: validate passes, and the way on is a new plan.
 */
async function staleIfEnvironmentGone(saved: Plan | undefined, dir: string, planFile: string | undefined, run: () => Promise<void>): Promise<void> {
  const environment = saved?.environment;
  try {
    await run();
  } catch (error) {
    const gone = environment !== undefined && error instanceof ConfigError && error.diagnostics.some((d) => d.code === 'unknown-environment' && d.severity === 'error');
    if (gone) {
      const unknown = error.diagnostics.find((d) => d.code === 'unknown-environment');
      throw environmentGone(saved!, dir, unknown?.file ?? 'docket.yaml', unknown?.hint, planFile);
    }
    throw error;
  }
}

/** The plan was never applied, and applies nowhere now: the hint is what the environment needs. */
function environmentGone(saved: Plan, dir: string, file: string, hint?: string, planFile?: string): StalePlanError {
  // As the plan was made, for the environment as docket.yaml names it now.
  const again = replanCommand({ ...saved, environment: 'NAME' }, dir, planFile);
  return new StalePlanError([`it was made for --env ${saved.environment}, which ${file} no longer defines (or this is not the configuration it was made from: apply it with -C naming that folder)`], {
    again,
    hint: `${hint ? `${hint}; ` : ''}make a new plan for the environment as ${file} names it now: ${again}`,
  });
}

/**
 * The project file, when it plainly defines no environment `name` (read only for that, before the
 * run loads it; anything it cannot tell leaves the question to that load).
 */
async function undefinedEnvironment(root: string, name: string): Promise<{ file: string; hint?: string } | undefined> {
  for (const file of PROJECT_FILES) {
    let text: string;
    try {
      text = await readFile(join(root, file), 'utf8');
    } catch {
      continue;
    }
    try {
      const { parse } = await import('yaml');
      const settings: unknown = parse(text);
      const environments = isPlainObject(settings) ? settings.environments : undefined;
      if (environments !== undefined && !(isPlainObject(environments) && !Object.hasOwn(environments, name))) return undefined;
      // Those it defines, as the load's unknown-environment says them (probe PN-4).
      const names = isPlainObject(environments) ? Object.keys(environments) : [];
      return { file, ...(names.length > 0 ? { hint: environmentsIn(file, names) } : {}) };
    } catch {
      return undefined;
    }
  }
  return undefined;
}

/** What the guard refused, as its hint asks whether it was meant: removals, creates again, or both. */
function guarded(violations: readonly GuardViolation[]): string {
  const again = violations.some((v) => v.recreates);
  const removals = violations.some((v) => !v.recreates);
  return again && removals ? 'the removals and the creates again are' : again ? 'the creates again are' : 'the removals are';
}

/**
 * A saved plan was not printed, so its report names the target itself (`target: local emulator`):
 * as the plan showed them, its target and the environment it was made for.
 */
function reportHeader(plan: Plan, color: boolean): string {
  return `${headerLines('apply', plan, painter(color)).join('\n')}\n\n`;
}

interface ExecuteSettings {
  hard: AbortController;
  deadline: () => number;
  color: boolean;
  saved: boolean;
  /** Whether the plan was printed before the apply: if not, its report names the target itself. */
  planShown: boolean;
  /** The saved plan's file as given, when one is applied. */
  savedFile?: string;
  adopting: string[];
  /** What the text report says --adopt-files recorded, when not only whole files. */
  adoptingSaid?: string;
}

/** Every change made, the checks at the end cut short: nothing is left to apply, only to look at. */
const CHECKS_CUT_SHORT = 'every change was made; docket plan shows any duplicate a concurrent apply made that the checks did not look for';

/** What a report of an apply that sent nothing says (a saved plan was read when it was made: it says only what the plan holds). */
function nothingSent(plan: Plan, saved: boolean): string {
  return saved ? 'No changes in the saved plan: nothing was sent.' : `No changes. ${noChangesSentence(plan, false)}`;
}

async function execute(plan: Plan, s: Session, io: Io, opts: ApplyFlags, settings: ExecuteSettings): Promise<void> {
  const interrupts = interruptsOf(io);
  const w = s.workspace;
  const recorder = lockRecorder(s);
  // From here a first signal stops the apply cleanly instead of ending the process.
  const release = interrupts.hold(
    `stopping: no new change starts, and those under way get up to ${INTERRUPT_GRACE_MS / 1000} s to finish`,
    'changes and uploads under way may have been made: run docket plan, which shows what is live and stops at what may still be landing (a create or publish cut off, an upload whose outcome is unknown)',
  );
  // A second signal ends the process at once: what is recorded so far, and the writes under way as landing.
  let underWay: (() => Map<string, LandingChange>) | undefined;
  const dropExit = interrupts.onExit(() => {
    recorder.writeNow();
    // The first signal's marks of writes that have since ended otherwise (one that waited out a 429
    // pause was never sent) are forgotten: nothing of them lands (probe ML-1).
    if (underWay) s.landingNow(markedEarly ? withEndedForgotten(underWay(), markedEarly) : underWay());
  });
  // A runner that kills soon after its first signal (docker stop, Kubernetes, GitLab: SIGTERM, then
  // SIGKILL) sends no second one: the writes under way are marked landing at the first (probe
  // JY-2), and those marks forgotten at the end where the writes ended otherwise.
  let markedEarly: ReadonlyMap<string, LandingChange> | undefined;
  const markUnderWay = (): void => {
    if (!underWay) return;
    // Stamped with the end of the grace, the latest docket waits for them: a runner's kill before
    // then leaves the mark, whose ten minutes run from when docket stopped waiting (probe OT-4).
    const marks = marksLaterBy(underWay(), INTERRUPT_GRACE_MS);
    markedEarly = marks;
    // Best effort, in a signal's listener: a write that fails (a full disk) must not end the process;
    // the end of the apply writes the lock again, and says so if it cannot.
    const mark = (): void => {
      try {
        s.landingNow(marks);
      } catch {
        // Said by the lock write at the end.
      }
    };
    try {
      recorder.writeNow();
    } catch {
      // Said by the lock write at the end.
    }
    mark();
    // A lock write under way read the file before this one and would drop the marks as it lands:
    // written again once it has, whether it failed or not (second read RV6-2, fifth read RV7-5).
    // The writes after it read the file afresh.
    void recorder.flush().then(mark, mark);
  };
  interrupts.signal.addEventListener('abort', markUnderWay, { once: true });
  const budget = new AbortController();
  const left = Math.max(0, settings.deadline() - Date.now());
  // setTimeout fires at once for more than 2^31-1 ms (24.8 days): a budget that long never runs out.
  // A turn past the budget is no budget run out (probe GK): the stop says when the turn comes, and why.
  const runOut = (turn?: string): void =>
    budget.abort(new Error(turn ? `the next request waits past its time budget of ${formatDuration(opts.timeout)}: its turn comes ${turn}; raise it with --timeout, or try again later` : `its time budget of ${formatDuration(opts.timeout)} ran out; raise it with --timeout`));
  const timer = left > MAX_TIMER_MS ? undefined : setTimeout(() => runOut(), left);
  timer?.unref();
  let finished = 0;
  s.progress.start('Applying');
  s.progress.update(`0/${plan.changes.length} changes`);
  let result;
  collectGarbage(w.desired.length);
  setV8FlagsForRequestLoops();
  try {
    result = await applyPlan(plan, {
      ...applyInputOf(s),
      adoptFiles: Boolean(opts.adoptFiles),
      onResult: () => s.progress.update(`${++finished}/${plan.changes.length} changes`),
      persistLock: recorder.persistLock,
      underWay: (read) => (underWay = read),
      signal: unlimitedListeners(AbortSignal.any([interrupts.signal, budget.signal])),
      // The timer fires late when the event loop is busy: a change started past the deadline would
      // fail at once, unsent, and free its slot for the next one to do the same.
      beforeStart: () => {
        if (!budget.signal.aborted && Date.now() >= settings.deadline()) runOut();
      },
      // A request whose turn the budget does not reach (its turn, at the pace allowed, comes past
      // the deadline): the budget is spent for what follows too, which is not started rather than
      // failed unsent. (Not a Retry-After longer than the time left: that holds its own request.)
      afterFailure: (error) => {
        if (!budget.signal.aborted && error instanceof DocketError && error.outOfTurn) runOut(error.turnPastBudget);
      },
      graceMs: INTERRUPT_GRACE_MS,
    });
  } finally {
    interrupts.signal.removeEventListener('abort', markUnderWay);
    clearTimeout(timer);
    s.progress.stop();
    // Whatever is still in flight after the grace is abandoned now.
    settings.hard.abort();
  }
  if (markedEarly) result = { ...result, landing: withEndedForgotten(result.landing, markedEarly) };
  // A lock file that cannot be written (a full disk) is said after the report: the changes were made.
  let lockFailure: NodeJS.ErrnoException | undefined;
  const unwritten = (error: unknown): void => {
    if (!isFileSystemError(error)) throw error;
    lockFailure ??= error;
  };
  try {
    // Every upload was written as it was confirmed; this waits for the last of those writes.
    await recorder.flush().catch(unwritten);
    collectGarbage(w.desired.length);
    // Stopped early, the lock is there to commit whatever was reached (CI commits it back); with it,
    // what the apply left in sync with the files.
    await settleApplied(s, plan, result, Boolean(result.report.stopped))
      .then((told) => {
        if (told && !opts.quiet) io.stderr(`${told}\n`);
      })
      .catch(unwritten);
  } finally {
    dropExit();
  }
  const report = result.report;
  // A signal after the last change, while the lock was recorded: nothing was left to stop, but the
  // stop was asked for and said: the report and the exit code say interrupted, with 0 not started.
  const signalled = interrupts.received();
  if (signalled && !report.stopped) report.stopped = signalled;
  // From here to the end of the process a signal stops nothing: the report is what happened, and
  // its exit code is the apply's (held, never released: closing the connections still waits on I/O).
  interrupts.hold('every change is done; the report is being written');
  release();
  await reportApply(plan, { report, lock: result.lock, unkeptShownAgain: result.unkeptShownAgain }, signalled, io, opts, settings, lockFailure, w);
}

/** The apply's report, and its exit: `signal` is the one received before the report was decided. */
async function reportApply(
  plan: Plan,
  { report, lock, unkeptShownAgain }: Pick<ApplyPlanResult, 'report' | 'lock' | 'unkeptShownAgain'>,
  signal: SignalName | undefined,
  io: Io,
  opts: ApplyFlags,
  settings: ExecuteSettings,
  lockFailure: NodeJS.ErrnoException | undefined,
  workspace: Workspace,
): Promise<void> {
  // The commands hints give, as this run was given (its folder, environment, emulator, targets):
  // copied as written, they act on the same organization (probe OD-2).
  // Not --retry-uncertain: what may still land is waited for, never sent again by a hint (second read SR80-4).
  const shape: PlanShape = { dir: opts.dir, env: plan.environment, emulator: plan.target.emulator, target: plan.targets ?? [], prune: opts.prune };
  // A result's hint from the service's client names a bare `docket plan`: as this run was given (probe DI-3).
  const asRun = asRunBy(shape);
  for (const r of report.results) if (r.hint !== undefined) r.hint = asRun(r.hint);
  const settled = plan.lock_updates ?? [];
  if (settled.length > 0 && !opts.quiet) io.stderr(`Updated ${settled.length} docket.lock.json entr${settled.length === 1 ? 'y' : 'ies'} an earlier apply left unconfirmed (interrupted, or no answer came back).\n`);
  // Where the plan was not printed (saved, or -q with --auto-approve), the report names the target itself.
  const header = opts.output === 'text' && !settings.planShown ? reportHeader(plan, settings.color) : '';
  // Recorded only once the lock is written (a full disk leaves them unrecorded, said below).
  const adopted = lockFailure ? [] : settings.adopting;
  if (opts.output === 'json') io.stdout(renderApplyReportJson(plan, report, adopted, lockFailure ? { file: unwrittenFile(lockFailure, 'docket.lock.json'), reason: errnoOf(lockFailure) ?? 'unknown error' } : undefined));
  else if (plan.changes.length > 0) {
    if (header) io.stdout(header);
    await writeApplyReportText(plan, report, { color: settings.color }, io.stdout, io.stdoutDrained);
  } else if (header) {
    // Only lock entries were recorded (an interrupted apply's, or --adopt-files): nothing was sent.
    // A saved plan was read when it was made: it says only what the plan holds.
    io.stdout(`${header}${nothingSent(plan, settings.saved)}\n`);
  }
  // A result, -q or not: docket.lock.json changed and is to be committed (probe LH-1).
  if (opts.output !== 'json' && adopted.length > 0) io.stdout(settings.adoptingSaid ? `Recorded in docket.lock.json as live: ${settings.adoptingSaid}\n` : `Recorded ${plural(adopted.length, 'file')} in docket.lock.json as live: ${adopted.join(', ')}\n`);
  await sayWhatRanUnreported(io, report);
  // A change the service refused is an error on its line of the pull request's diff (probe QL-3).
  if (opts.annotations === 'github') printFailureAnnotations(io, plan, report, workspace, opts);
  // An upload that may have arrived (its pending mark is still in the lock) stops the next plan
  // until the person says which it was: a plain re-run does not finish then.
  // Other kinds' marks (a Word term's publish) are settled by the next plan's read, once no request
  // of them may still be running (custom-term.ts mayStillLand): a re-run converges.
  const marks = KINDS.filter((k) => k.uploadsUnreadable).flatMap((k) => [...lockEntries(lock.files, k.name).values()].flatMap((e) => (e.pending ? [e.pending] : [])));
  const uncertain = report.results.some((r) => r.outcomeUnknown) || marks.length > 0;
  // A saved plan is stale once part of it ran (applying the file again is refused), or an upload
  // of it is unconfirmed: a new plan finishes the work. One that changed nothing still holds, and
  // applies again (probe HZ-2). A failure whose answer was lost may have changed something (IE-3).
  const mayHaveChanged = report.results.some((r) => r.status === 'failed' && (!r.unchanged || r.written !== undefined));
  // Or one whose object is gone live (a 404): the saved plan is stale then, though nothing changed (probe AJ-1).
  const planStale = mayHaveChanged || report.results.some((r) => r.status === 'failed' && r.gone);
  const planAgain = shapedCommand('plan', shape);
  const again = settings.savedFile === undefined ? `run ${shapedCommand('apply', { ...shape, force: opts.force, adoptFiles: opts.adoptFiles })} again` : report.done > 0 || uncertain || planStale ? `make a new plan (${replanCommand(plan, opts.dir, settings.savedFile)}) and apply that one` : `apply the saved plan again (${reapplyCommand(opts.dir, settings.savedFile)})`;
  // An earlier run's upload may be outside this run's targets: the commands that settle it are the whole plan's (second read SR102B-1).
  const untargeted: PlanShape = { ...shape, target: [] };
  // Taken by the service, unnamed: it is live, and another upload would be as unnamed (probe FZ).
  const unknownUpload =
    marks.length > 0 && marks.every((m) => m.answered)
      ? `the next plan stops at the upload${marks.length === 1 ? '' : 's'} the service took without naming: find ${marks.length === 1 ? 'its id' : 'their ids'} in the app, add ${marks.length === 1 ? 'it' : 'each'} as \`id:\` to ${marks.length === 1 ? 'its document' : 'their documents'} and run ${shapedCommand('apply', { ...untargeted, adoptFiles: true })}`
      : `the next plan stops at the upload whose outcome is unknown: if it is live, pin its id with \`id:\` and run ${shapedCommand('apply', { ...untargeted, adoptFiles: true })}, otherwise ${shapedCommand('apply', untargeted)} --retry-uncertain`;
  // With another error to end on (a signal, failed changes), the lock's is said before it.
  const ending = Boolean(report.stopped) || report.failed > 0 || report.skipped > 0;
  // With --emulator the sync records and the state have files of their own: the one that failed is named.
  const failedFile = unwrittenFile(lockFailure, 'docket.lock.json');
  // The emulator's state holds the changes themselves; the lock and the sync file, what docket knows of them.
  const unsaved = failedFile === EMULATOR_STATE_LABEL ? 'the emulator state this apply made is not saved (the next run makes it again)' : 'what it records of this apply (uploads, sync records) is not saved';
  if (lockFailure && ending) io.stderr(`Warning: ${failedFile} could not be written (${errnoOf(lockFailure)}): ${unsaved}; ${writeFixFor(errnoOf(lockFailure))}, then run ${planAgain}\n`);
  // A write the service may still be carrying out would be sent twice by a re-run at once.
  const pending = report.results.some((r) => r.pending);
  // With an upload of unknown outcome, that plan stops at it rather than showing what is left (second read SR91B-4).
  const waitFirst = `wait a few minutes for what the service may still be carrying out, then run ${planAgain}${uncertain ? `; ${unknownUpload}` : `: it shows what is left to do (then ${again})`}`;
  if (report.stopped && signal) {
    throw new InterruptedError(
      signal,
      `apply interrupted by ${signal}: ${report.done} done, ${report.failed} failed, ${report.skipped} skipped, ${report.notStarted ?? 0} not started`,
      interruptedHint({ pending, uncertain, mayHaveChanged, waitFirst, unknownUpload, again, report, plan }),
    );
  }
  if (lockFailure && !ending) {
    throw new DocketError(
      'lock-write-failed',
      `the changes reported above were made, but ${failedFile} could not be written (${errnoOf(lockFailure)}): ${unsaved}`,
      `${writeFixFor(errnoOf(lockFailure))}, then run ${planAgain}: the uploads it could not record are found again or reported there, and ${again} to finish`,
    );
  }
  const fix = pending
    ? waitFirst
    : uncertain
      ? uncertainFix(report, unknownUpload, again)
      : report.checksCutShort && report.failed + report.skipped === 0
        ? `${CHECKS_CUT_SHORT} (give the next apply more time with --timeout)`
        : report.stopped && report.failed + report.skipped === 0
          ? // Nothing failed to fix: the budget stopped it (probe PC-1).
            `${again} (with more time, --timeout): it converges`
          : `${FIX_FAILURES} ${again}: it converges${unkeptShownAgain > 0 ? `, but for the fields the service did not keep as sent (noted above), which every plan shows again until \`ignore_fields\` leaves them out` : ''}`;
  if (report.stopped) throw new ApplyFailedError(report.failed, report.skipped, report.notStarted ?? 0, report.stopped, fix);
  if (report.failed > 0 || report.skipped > 0) throw new ApplyFailedError(report.failed, report.skipped, 0, undefined, fix);
}

/**
 * An upload of unknown outcome and what else failed: this run's own upload first, since a plain
 * re-run stops at it (probe DI-2), then the failures that were no such upload; an earlier run's
 * mark after this run's failures, which are the news (second read SR102B-1).
 */
function uncertainFix(report: ApplyReport, unknownUpload: string, again: string): string {
  const own = report.results.some((r) => r.outcomeUnknown);
  const others = report.results.filter((r) => r.status === 'failed' && !r.outcomeUnknown).length;
  if (!own) return `${FIX_FAILURES} ${again}; ${unknownUpload}`;
  return others === 0 ? `${unknownUpload}; it then converges` : `${unknownUpload}; ${FIX_FAILURES.replace('each failure', 'each other failure')} ${again}`;
}

async function refuseUnprintedPlan(io: Io): Promise<void> {
  const failure = await outputFailed(io);
  if (failure === undefined) return;
  throw new DocketError('output-failed', `the plan could not be printed (${failure}), so nothing was applied`, 'make room where the output goes (or send it elsewhere), then run apply again');
}

/** A report that could not be written (a full disk) hides that changes were made: stderr says so. */
async function sayWhatRanUnreported(io: Io, report: ApplyReport): Promise<void> {
  if (report.done + report.failed === 0 || (await outputFailed(io)) === undefined) return;
  io.stderr(`Warning: the apply ran (${report.done} done, ${report.failed} failed), but its report could not be written: run docket plan to see what is left\n`);
}

/** What to do after a signal stopped the apply, from the most to the least pressing. */
function interruptedHint(c: { pending: boolean; uncertain: boolean; mayHaveChanged: boolean; waitFirst: string; unknownUpload: string; again: string; report: ApplyReport; plan: Plan }): string {
  if (c.pending) return c.waitFirst;
  if (c.uncertain) return `docket.lock.json records every upload that was confirmed; ${c.unknownUpload}`;
  if (c.report.checksCutShort && c.report.failed + c.report.skipped === 0) return CHECKS_CUT_SHORT;
  // The signal came once every change and check was done (while the lock was written).
  // (A change noted as not waited for to the end, a Word term's conversion, is not said checked: probe OI-3.)
  if (c.report.done === c.plan.changes.length) return c.report.results.some((r) => r.note) ? 'every change was made; run docket plan for what the notes above leave open' : 'every change was made and checked: nothing is left to apply';
  if (c.plan.changes.some((ch) => ch.action === 'upload')) return `docket.lock.json records every upload that was confirmed; ${c.again} to finish`;
  if (c.report.done > 0) return `what was done is live; ${c.again} to finish`;
  // A change that failed after its request was sent may still have been made: said so, not "nothing".
  if (c.mayHaveChanged) return `a change that failed may have been carried out; ${c.again} to finish`;
  return c.report.failed > 0 ? `no change is known to have been made; ${c.again} to finish` : `nothing was done; ${c.again}`;
}

/**
 * The lock file as this apply leaves it, with the sync records: also rewritten when only its form
 * was out of date (a merge conflict, version 1).
 */
async function settleLockFile(s: Session, lock: LockFile, io: Io, opts: ApplyFlags, create: boolean, updatesOf: (held: RecordHeld) => SyncUpdates, landing?: ReadonlyMap<string, LandingChange>): Promise<void> {
  const told = await s.settle(lock, create, updatesOf, landing);
  if (told && !opts.quiet) io.stderr(`${told}\n`);
}

/** `shape`: this run's; `approved`: the plan is the one this apply showed, not a saved one (`savedFile`). */
async function checked(plan: Plan, s: Session, shape: PlanShape, approved = false, savedFile?: string): Promise<Plan> {
  const w = s.workspace;
  // The files' parse is garbage now: collected before the reads, not grown over (see collectGarbage).
  collectGarbage(w.desired.length);
  const stale = await checkSavedPlan(plan, {
    desired: w.desired,
    services: s.connection.services,
    lock: s.lock,
    prune: s.prune,
    concurrency: s.concurrency,
    configDigest: () => w.digestInSlices(),
    target: () => s.connection.target,
    landing: s.landing(),
  });
  const hint = targetDifference(plan.target, s.connection.target) !== undefined ? otherTargetHint(plan, shape, savedFile) : undefined;
  // A saved plan is made again as it was made; the one a person approved, by this apply again.
  const again = approved ? shapedCommand('apply', shape) : replanCommand(plan, shape.dir, savedFile);
  if (stale.length > 0) throw new StalePlanError(stale, { approved, again, ...(hint ? { hint } : {}) });
  // Not stale, a saved plan's files may still have moved lines (a comment added, a file renamed):
  // each change is named where it is now (probe YC-1). A plan made by this apply is placed already.
  return approved ? plan : { ...plan, changes: withCurrentSources(plan.changes, w.desired, (kind) => KINDS.find((k) => k.name === kind)?.parentField) };
}

/** What to do with a saved plan made for another target than this apply's. */
function otherTargetHint(plan: Plan, shape: PlanShape, savedFile: string | undefined): string {
  // Named as the saved plan is, as every other stale-plan hint names it (probe LA-2).
  return `apply it against the target it was made for (the same --emulator, --env, URLs and keys), or make a new plan for this one with \`${shapedCommand('plan', { ...shape, target: plan.targets ?? [] })} --out ${shellPath(savedFile ?? 'PLAN.json')}\``;
}

async function confirm(io: Io, planJson: Iterable<string> | undefined, savedPlan: string): Promise<void> {
  if (!io.canPrompt) {
    throw new NotApprovedError('apply needs approval and there is no terminal to ask (it asks on stderr and reads the answer from stdin)', `pass --auto-approve, or apply a saved plan: ${savedPlan}`);
  }
  if (planJson) for (const chunk of planJson) io.stderr(chunk);
  const answer = await io.prompt('\nDo you want to apply these changes? Only `yes` is accepted: ');
  if (answer === null) throw new NotApprovedError('cancelled; nothing was changed');
  if (answer.trim() !== 'yes') throw new NotApprovedError('apply cancelled; nothing was changed');
}

/** A signal every change of an apply listens to (thousands): no "possible memory leak" warning on stderr. */
function unlimitedListeners(signal: AbortSignal): AbortSignal {
  setMaxListeners(0, signal);
  return signal;
}

/** The files `--adopt-files` records, each with the object it is recorded for when another records the same file (probe NK-2). */
function adoptedLabels(adopting: readonly AdoptableFile[]): string[] {
  const count = new Map<string, number>();
  for (const a of adopting) count.set(a.file, (count.get(a.file) ?? 0) + 1);
  return adopting.map((a) => (count.get(a.file)! > 1 ? `${a.file} (${a.kind} ${quoteValue(a.key)})` : a.file));
}

/** As the report says what --adopt-files recorded, when not only whole files: of a file recorded already, only what was added to its entry, and whose (probe OX-2). */
function adoptedSaid(adopting: readonly AdoptableFile[]): { adoptingSaid?: string } {
  if (!adopting.some((a) => a.valuesOnly)) return {};
  return { adoptingSaid: adopting.map((a) => (a.valuesOnly ? `the ${Object.keys(a.values ?? {}).join(', ')} of ${a.file} (${a.kind} ${quoteValue(a.key)})` : `${a.file} (${a.kind} ${quoteValue(a.key)})`)).join(', ') };
}
