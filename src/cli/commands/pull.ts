/**
 * `docket pull`: the other direction of apply. Reads the files and the live state and writes every
 * live-side change into the files, in place (src/pull), so a team accepts drift as a reviewed pull
 * request. `--dry-run` prints the diff of each file and writes nothing. Each file is written
 * atomically, then the sync records of what was pulled: a run killed half-way leaves whole files,
 * and pulling again converges.
 */
import path from 'node:path';
import { Command, Option } from 'commander';
import { limitToKinds, unmatchedInTargets } from '../../engine/target.js';
import { KINDS } from '../../kinds/index.js';
import { planPull } from '../../pull/plan.js';
import { renderPullJson, renderPullMarkdown, renderPullText } from '../../render/pull.js';
import { asRunBy, shapedCommand } from '../command-line.js';
import { fitPrinted, MARKDOWN_MAX_CHARS } from '../../render/markdown-fit.js';
import { writePulled } from '../pull-write.js';
import { pullInputOf } from '../pull-input.js';
import { interruptsOf, sayDoneUnreported, useColor, type Io } from '../io.js';
import { withCommon, type CommonOptions, repeatable } from '../options.js';
import { readWithDroppedKinds } from '../dropped-kinds.js';
import { droppedFromFiles } from '../../engine/drift.js';
import { refKey, type LiveResource } from '../../engine/types.js';
import { withSession } from '../session.js';
import { kindNames, kindOption, refuseTargetsOutsideKinds, scopeOf, servicesFor } from './drift.js';
import { goneRecords, inSyncRecords } from '../../pull/in-sync.js';
import { READ_TIMEOUT_MS, timeoutOption } from './plan.js';
import { describePullViolation, pullRemovalViolations } from '../../engine/guard.js';
import { DocketError, UnsafePlanError } from '../../errors.js';
import { formatDuration } from '../duration.js';
import { applyLockRoot, holdingApplyLock, lockTimeoutOption, PULL, refuseLockMovedAway } from '../apply-lock.js';

interface PullFlags extends CommonOptions {
  output: 'text' | 'json' | 'markdown';
  target: string[];
  kind: string[];
  dryRun?: boolean;
  force?: boolean;
  emulator?: boolean;
  timeout: number;
  lockTimeout: number;
}

export function pullCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('pull'))
    .description('write live changes (drift) into the files, in place: only the changed lines change')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .addOption(repeatable('--target <KIND/NAME>', 'only this resource (repeatable)', 'every resource'))
    .addOption(kindOption())
    .option('--dry-run', 'print the diff of each file and write nothing')
    .option('--force', 'write even when the objects removed live exceed safety.max_delete_fraction of a kind')
    .addOption(timeoutOption(READ_TIMEOUT_MS))
    .addOption(lockTimeoutOption())
    .option('--emulator', 'run against an in-process emulator (state in DIR/.docket/emulator.json)')
    .action(async (opts: PullFlags) => {
      // Until the files are written (pull holds its signals from then on), a signal ends the run at once, and says so (probe XI-2).
      interruptsOf(io).noteAtOnce?.('no file was written; run the pull again');
      // Set when the lock is held (timed, below): a wait for another run's lock is --lock-timeout's, not the reads'.
      let deadline = Number.POSITIVE_INFINITY;
      const kinds = kindNames(opts.kind);
      const check = refuseTargetsOutsideKinds(opts.target, kinds);
      const dryRun = Boolean(opts.dryRun);
      let told: string | undefined;
      /** Where the session writes sync records, as the report names it. */
      let syncFile: string | undefined;
      const root = path.resolve(io.cwd, opts.dir);
      // Writing, pull takes the apply lock: an apply beside it would write its own view of the sync records last, over pull's.
      const locked = <T>(run: () => Promise<T>): Promise<T> => {
        const timed = (): Promise<T> => {
          deadline = Date.now() + opts.timeout;
          return run();
        };
        return dryRun ? timed() : holdingApplyLock(io, { root: lockRoot, checkout: root, timeoutMs: opts.lockTimeout, takenBy: PULL }, timed);
      };
      const lockRoot = applyLockRoot(root);
      // The commands a report names, as this pull was run: its folder, environment, emulator (probe CJ-4).
      const runShape = { dir: opts.dir, env: opts.env, emulator: opts.emulator, target: [] };
      const { plan, result, refused, refusal } = await locked(() => withSession(io, { ...opts, targets: opts.target, deadline: () => deadline, digests: true, ...servicesFor(kinds), ...(check ? { check } : {}) }, async (s) => {
        if (!dryRun) refuseLockMovedAway(root, lockRoot, PULL);
        // The configuration's warnings (a lock file's merge conflict, say), as plan and validate give them.
        for (const warning of s.workspace.warnings) s.logger.info(`Warning: ${warning}`);
        const { details, dropped } = await readWithDroppedKinds(s, { targets: opts.target, kinds, readAll: true });
        const byKind = kinds.length > 0 ? limitToKinds(details.plan, details.unmatched, new Set(kinds), KINDS) : details;
        // Of a kind the files dropped whole, only the objects they dropped are anyone's (as drift has it): none made in the app is written.
        const inTargets = unmatchedInTargets(byKind.unmatched, opts.target, KINDS, details.live);
        const declaredKeys = dropped.length > 0 ? new Set(s.workspace.desired.map((d) => refKey(d.kind, d.key))) : undefined;
        const ownedOnly = (l: LiveResource): boolean => !dropped.includes(l.kind) || droppedFromFiles(l, s.sync(), byKind.plan.ids, declaredKeys!);
        const unmatched = declaredKeys ? inTargets.filter(ownedOnly) : inTargets;
        const project = s.workspace.config.project;
        const input = await pullInputOf(s, io.env, { plan: byKind.plan, live: details.live, unmatched, targets: opts.target });
        const result = await planPull({
          ...input,
          narrowed: opts.target.length > 0 || kinds.length > 0,
          ...(dryRun ? {} : { inSync: new Map([...goneRecords(details.plan, s.workspace.desired, details.live, KINDS, s.sync(), kinds), ...inSyncRecords(details.plan, s.workspace.desired, KINDS, s.sync(), kinds)]) }),
        });
        // What a reason or note tells the user to run is run as this pull was: against its folder and environment (probe CJ-4, second read SR101B-5).
        const asRun = asRunBy(runShape);
        for (const e of result.notPulled) if (e.reason !== undefined) e.reason = asRun(e.reason);
        result.notes.splice(0, result.notes.length, ...result.notes.map(asRun));
        // Editing thousands of changes into files is work of its own: past the budget, nothing is written.
        if (Date.now() > deadline) throw outOfTime(opts.timeout);
        // Not removed from the organization: a rule last synced as an object still live elsewhere
        // (its playbook renamed in the app, a new one made under the old name) goes into that one's file (probe OP-2).
        const liveIds = new Set(details.live.map((l) => l.id));
        const sync = s.sync();
        const removedLive = result.pulled.filter((e) => e.direction === 'removed-live' && !liveIds.has(sync.idOf(refKey(e.kind, e.key)) ?? ''));
        const violations = pullRemovalViolations(removedLive, s.workspace.desired, project.safety.max_delete_fraction);
        const why = violations.map(describePullViolation).join('; ');
        // Forced past the guard, it says what it goes past, as apply --force does.
        if (violations.length > 0 && opts.force) io.stderr(`Warning: ${why}; --force writes it\n`);
        if (violations.length > 0 && !opts.force) {
          if (!dryRun) throw new UnsafePlanError(`refusing to pull: ${why}`, 'check that the service lists them (a service in trouble may answer an empty list); if they were removed in the app, run pull again with --force (or raise safety.max_delete_fraction); nothing was written');
          // Said even with --quiet: it is what the pull would do.
          io.stderr(`Warning: pull will refuse to write this: ${why}; pass --force to write it anyway\n`);
        }
        syncFile = path.relative(root, s.syncFile).split(path.sep).join('/');
        if (!dryRun) {
          // A first signal from here on stops nothing: the writes take moments, and cut short they
          // would leave some files pulled, the records not, and a new object's data file without
          // its document (probe HL-3, HL-4). Held to the end: the report says what was written.
          interruptsOf(io).hold('the pulled files are being written', 'some files may be written, the sync records not; pull again converges');
          await writePulled(root, result.files, {
            file: s.syncFile,
            write: async () => {
              told = await s.recordSync(result.sync);
            },
          });
        }
        return { plan: byKind.plan, result, refused: opts.force ? [] : violations, refusal: violations.length > 0 && !opts.force ? `pull will refuse to write this: ${why}; pass --force to write it anyway` : undefined };
      }));
      // One document (JSON, markdown): a signal lets it finish, never leaves half of one (probe MT-1).
      if (opts.output !== 'text') interruptsOf(io).hold('the report is being written');
      if (opts.output === 'json') io.stdout(renderPullJson(plan, result, { dryRun, kinds: [...new Set(kindNames(opts.kind))], targets: opts.target, guard: refused }));
      else if (opts.output === 'markdown') io.stdout(fitPrinted((room) => renderPullMarkdown(plan, result, { dryRun, scope: scopeOf(opts), maxChars: room, limitSaid: MARKDOWN_MAX_CHARS, syncFile, ...(refusal ? { refusal } : {}) })));
      // The plan to run next names this pull's environment: another's would show its own organization (probe OD-2).
      else io.stdout(renderPullText(plan, result, { color: useColor(io, opts), patchColor: io.isTTY, dryRun, scope: scopeOf(opts), syncFile, planCommand: shapedCommand('plan', runShape) }));
      if (told && !opts.quiet) io.stderr(`${told}\n`);
      if (!dryRun && result.files.length > 0) await sayDoneUnreported(io, `the pull wrote ${result.files.length === 1 ? '1 file and recorded it' : `${result.files.length} files and recorded them`} in sync`);
      setExit(0);
    });
}

function outOfTime(timeoutMs: number): DocketError {
  return new DocketError('timeout', `pull: its time budget of ${formatDuration(timeoutMs)} ran out while it worked out the files' edits; nothing was written`, 'give the command more time with --timeout, or pull fewer objects at once (--target, --kind)');
}

