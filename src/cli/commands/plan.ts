/** `docket plan`: what apply would change, as text, JSON (the plan file) or a PR comment. */
import { shellPath } from '../../util/shell-word.js';
import { showPath } from '../../config/quote.js';
import { removeStaleTemps, writeFileAtomic } from '../../util/atomic-write.js';
import { rmSync } from 'node:fs';
import { DocketError } from '../../errors.js';
import { refKey, type DesiredResource, type Plan } from '../../engine/types.js';
import { dirFlag, shapedCommand, type PlanShape } from '../command-line.js';
import { Command, Option } from 'commander';
import { hasChanges } from '../../engine/plan.js';
import { planJsonChunks } from '../../render/json.js';
import { annotatingProblems, annotationsOption, printAnnotations, type AnnotationFormat } from '../annotations.js';
import { formatDuration, parseTimeBudget } from '../duration.js';
import { interruptsOf, useColor, type Io } from '../io.js';
import type { Interrupts } from '../interrupt.js';
import { collect, withCommon, type CommonOptions } from '../options.js';
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
  return withCommon(new Command('plan'))
    .description('show what apply would change')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .option('--out <PLAN.json>', 'save the plan for `docket apply PLAN.json`')
    .option('--target <KIND/NAME>', 'limit the plan to a resource and what it needs (repeatable)', collect, [])
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
        if (secrets.length > 0) keepRedactedTwinsApart(plan, workspace.desired, (text) => redact(text, secrets), shapedCommand('apply', shapeOf(opts)));
        // Texts and names as the file is written: only when there is a key to keep out.
        sealPlan(plan, io.env, secrets.length > 0 ? (text) => redact(text, secrets) : undefined);
        await savePlan(out, opts.out!, redactEach(planJsonChunks(plan), secrets), interruptsOf(io));
      }
      await printPlan(io, plan, opts.output, { color: useColor(io, opts), verbose: Boolean(opts.verbose) });
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
    throw new DocketError('write-failed', `cannot write the plan to ${label} (${reason})`, 'check that the folder can be created and written');
  }
}

/** `--timeout`: the whole command's budget for talking to the services. */
export function timeoutOption(defaultMs: number): Option {
  return new Option('--timeout <DURATION>', 'time budget of the command, reading the files included (like 90s, 10m)').argParser(parseTimeBudget).default(defaultMs, formatDuration(defaultMs));
}

/**
 * Two changes, or two known ids, whose names differ only where a key's value is written: the saved
 * file never holds a key, so it could not tell them apart (show and apply would refuse it as a
 * plan that lists a change twice). Ids of objects the plan neither changes, names nor declares
 * (two undeclared playbooks, left alone) are not needed by their keys to apply it or to check it:
 * those are kept under keys of their own instead (probe GT).
 */
function keepRedactedTwinsApart(plan: Plan, desired: readonly DesiredResource[], redacted: (text: string) => string, applyCommand: string): void {
  const refuse = (shown: string): never => {
    throw new DocketError(
      'plan-not-saved',
      `the plan cannot be saved: the names of two objects differ only where the value of an API key is written (${shown}), and a saved plan, which never holds a key, could not tell them apart; nothing was saved`,
      `rename one of them in the app so that no name holds a key, then plan again; or apply without a saved plan (${applyCommand})`,
    );
  };
  const seen = new Set<string>();
  for (const c of plan.changes) {
    const shown = redacted(c.id);
    if (seen.has(shown)) refuse(shown);
    seen.add(shown);
  }
  const twins = new Map<string, string[]>();
  for (const kindKey of Object.keys(plan.ids)) {
    const shown = redacted(kindKey);
    twins.set(shown, [...(twins.get(shown) ?? []), kindKey]);
  }
  let needed: Set<string> | undefined;
  for (const [shown, kindKeys] of twins) {
    if (kindKeys.length < 2) continue;
    needed ??= new Set([
      ...desired.map((d) => refKey(d.kind, d.key)),
      ...plan.changes.flatMap((c) => [refKey(c.kind, c.key), ...c.refs.map((r) => refKey(r.kind, r.key)), ...(c.parent ? [refKey(c.parent.kind, c.parent.key)] : [])]),
    ]);
    if (kindKeys.some((k) => needed!.has(k))) refuse(`the id of ${shown.replace(':', ' ')}`);
    // Kept under keys of their own, as what the read found: the apply's sync records and
    // duplicate checks go by every id read (second read). NUL is in no name.
    kindKeys.forEach((k, i) => {
      plan.ids[`${shown}\u0000${i + 1}`] = plan.ids[k]!;
      delete plan.ids[k];
    });
  }
}

/** What shapes this run's plan, for the command lines its hints give. */
function shapeOf(opts: PlanFlags): PlanShape {
  return { dir: opts.dir ?? '.', env: opts.env, emulator: opts.emulator, prune: opts.prune, retryUncertain: opts.retryUncertain, target: opts.target };
}
