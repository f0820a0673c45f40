/** `docket plan`: what apply would change, as text, JSON (the plan file) or a PR comment. */
import { shellPath } from '../../util/shell-word.js';
import { showPath } from '../../config/quote.js';
import { removeStaleTemps, writeFileAtomic } from '../../util/atomic-write.js';
import { rmSync } from 'node:fs';
import { folderWriteHint } from '../../util/file-write-error.js';
import { DocketError } from '../../errors.js';
import { checkSavable } from '../saved-plan-keys.js';
import { shapedCommand, type PlanShape } from '../command-line.js';
import { dirFlag } from '../../util/shell-word.js';
import { Command, Option } from 'commander';
import { hasChanges } from '../../engine/plan.js';
import { planJsonChunks } from '../../render/json.js';
import { annotatingProblems, annotationsOption, printAnnotations, type AnnotationFormat } from '../annotations.js';
import { formatDuration, parseTimeBudget } from '../duration.js';
import { interruptsOf, useColor, type Io } from '../io.js';
import type { Interrupts } from '../interrupt.js';
import { VERBOSE_SHOWS_ARCHIVES, withCommon, type CommonOptions, repeatable } from '../options.js';
import { checkOutputFile, refuseConfigurationFile, SAVED_PLAN } from '../output-file.js';
import { keyValues, redact, redactEach } from '../redact.js';
import { sealPlan } from '../plan-file.js';
import { planInSession, pruneHelp } from '../plan-step.js';
import { withSession } from '../session.js';
import { printPlan } from '../plan-output.js';

interface PlanFlags extends CommonOptions {
  output: 'text' | 'json' | 'markdown';
  out?: string;
  detailedExitcode?: boolean;
  emulator?: boolean;
  prune?: boolean;
  target: string[];
  annotations?: AnnotationFormat;
  retryUncertain?: boolean;
  timeout: number;
}

/** The default time budget of plan and export (the README states it). */
export const READ_TIMEOUT_MS = 2 * 60_000;

export function planCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('plan'), { verbose: VERBOSE_SHOWS_ARCHIVES })
    .description('show what apply would change')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .option('--out <PLAN.json>', 'save the plan for `docket apply PLAN.json`')
    .addOption(repeatable('--target <KIND/NAME>', 'limit the plan to a resource and what it needs (repeatable)', 'every resource'))
    .option('--prune', pruneHelp())
    .option('--detailed-exitcode', 'exit 2 when the plan has changes (0: none, 1: error)')
    .option('--retry-uncertain', 'plan to send again what an interrupted apply may or may not have made: uploads, creates, invitations, publishes')
    .addOption(timeoutOption(READ_TIMEOUT_MS))
    .option('--emulator', 'run against an in-process emulator (state in DIR/.docket/emulator.json)')
    .addOption(annotationsOption())
    .action(async (opts: PlanFlags) => {
      // Before the services are read: a plan that cannot be saved is not worth making.
      const out = opts.out === undefined ? undefined : await checkOutputFile(io.cwd, opts.out, '--out', 'plan.json');
      const deadline = Date.now() + opts.timeout;
      const { plan, workspace } = await annotatingProblems(io, opts, () =>
        withSession(io, { ...opts, targets: opts.target, deadline: () => deadline, ...(out ? { check: (w) => refuseConfigurationFile(out, opts.out!, '--out', w, SAVED_PLAN) } : {}) }, async (s) => ({
          plan: await planInSession(s, opts.target, { retryUncertain: Boolean(opts.retryUncertain) }),
          workspace: s.workspace,
        })),
      );
      // A saved plan is output too: a key someone pasted into an object in the app is read with
      // it, and `docket show` prints the file to whoever has it, key or not.
      if (out) {
        const secrets = keyValues(io.env);
        if (secrets.length > 0) checkSavable(plan, workspace.desired, (text) => redact(text, secrets), shapedCommand('apply', shapeOf(opts)));
        // Texts and names as the file is written: only when there is a key to keep out.
        sealPlan(plan, io.env, secrets.length > 0 ? (text) => redact(text, secrets) : undefined);
        await savePlan(out, opts.out!, redactEach(planJsonChunks(plan), secrets), interruptsOf(io));
      }
      await printPlan(io, plan, opts.output, { color: useColor(io, opts), verbose: Boolean(opts.verbose), dir: opts.dir ?? '.' });
      if (opts.annotations === 'github') printAnnotations(io, plan, workspace, opts);
      // Over the delete guard, the apply of it is refused without --force: said, not offered.
      const guarded = plan.guard?.length ? ' (it is refused without --force: see the warning)' : '';
      if (opts.out && !opts.quiet) io.stderr(`Saved the plan to ${showPath(opts.out)}; review it with: docket show ${shellPath(opts.out)}; apply it with: docket apply${dirFlag(opts.dir ?? '.')} ${shellPath(opts.out)}${guarded}\n`);
      setExit(opts.detailedExitcode && hasChanges(plan) ? 2 : 0);
    });
}

/**
 * Saves the plan (creating its folder), or explains why it cannot. A signal while it is written
 * leaves no temporary file beside it, and one a killed run left is removed.
 */
async function savePlan(path: string, label: string, json: Iterable<string>, interrupts: Interrupts): Promise<void> {
  try {
    await removeStaleTemps(path);
    await writeFileAtomic(path, json, { whileWriting: (tmp) => interrupts.onExit(() => rmSync(tmp, { force: true })) });
  } catch (error) {
    const reason = error instanceof Error && 'code' in error ? String(error.code) : 'unknown error';
    // A full disk is said as apply and pull say it (probe HC-4).
    throw new DocketError('write-failed', `cannot write the plan to ${label} (${reason})`, folderWriteHint(reason));
  }
}

/** `--timeout`: the whole command's budget for talking to the services. */
export function timeoutOption(defaultMs: number): Option {
  return new Option('--timeout <DURATION>', 'time budget of the command, reading the files included (like 90s, 10m)').argParser(parseTimeBudget).default(defaultMs, formatDuration(defaultMs));
}

/** What shapes this run's plan, for the command lines its hints give. */
function shapeOf(opts: PlanFlags): PlanShape {
  return { dir: opts.dir ?? '.', env: opts.env, emulator: opts.emulator, prune: opts.prune, retryUncertain: opts.retryUncertain, target: opts.target };
}
