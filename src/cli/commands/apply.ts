/**
 * `docket apply`: with no plan file it plans, shows the plan and asks for `yes` (or needs
 * --auto-approve without a terminal); with a plan file it applies exactly that plan after checking
 * it is not stale.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Command, Option } from 'commander';
import { sha256 } from '../../engine/canonical.js';
import { applyPlan, type FileReader } from '../../engine/apply.js';
import { describeViolation } from '../../engine/guard.js';
import { hasChanges } from '../../engine/plan.js';
import { checkSavedPlan } from '../../engine/stale.js';
import type { Plan } from '../../engine/types.js';
import { writeLock } from '../../config/lock.js';
import { ApplyFailedError, NotApprovedError, StalePlanError, UnsafePlanError, UsageError } from '../../errors.js';
import { renderApplyReportJson, renderPlanJson } from '../../render/json.js';
import { painter } from '../../render/paint.js';
import { renderApplyReportText, renderPlanText, targetLine } from '../../render/text.js';
import { annotationsOption, printAnnotations, type AnnotationFormat } from '../annotations.js';
import { useColor, type Io } from '../io.js';
import { collect, withCommon, type CommonOptions } from '../options.js';
import { readPlanFile } from '../plan-file.js';
import { planInSession } from '../plan-step.js';
import { KIND_ORDER, withSession, type Session } from '../session.js';

interface ApplyFlags extends CommonOptions {
  output: 'text' | 'json';
  autoApprove?: boolean;
  emulator?: boolean;
  prune?: boolean;
  adoptFiles?: boolean;
  force?: boolean;
  target: string[];
  annotations?: AnnotationFormat;
}

export function applyCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('apply'))
    .description('make the live services match the configuration (or apply a saved plan)')
    .argument('[PLAN.json]', 'a plan saved with `docket plan --out`')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json']).default('text'))
    .option('--auto-approve', 'apply without asking (needed when there is no terminal)')
    .option('--target <KIND/NAME>', 'limit the apply to a resource and what it needs (repeatable)', collect, [])
    .option('--prune', 'archive live playbooks that no file declares')
    .option('--force', 'apply even when removals exceed safety.max_delete_fraction')
    .option('--adopt-files', 'record files the plan cannot compare (no docket.lock.json entry) as live, without uploading')
    .option('--emulator', 'run against an in-process emulator (state in DIR/.docket/emulator.json)')
    .addOption(annotationsOption())
    .action(async (planFile: string | undefined, opts: ApplyFlags) => {
      const color = useColor(io, opts);
      const saved = planFile ? await readPlanFile(planFile) : undefined;
      if (saved && opts.target.length > 0) throw new UsageError('--target cannot be combined with a saved plan', 'pass --target to `docket plan --out` instead');
      const emulator = Boolean(opts.emulator || saved?.target.emulator);
      // A saved plan knows its environment, as it knows whether it was made for the emulator.
      if (saved?.environment && opts.env && opts.env !== saved.environment) {
        throw new UsageError(`the plan was made for --env ${saved.environment}, not --env ${opts.env}`);
      }
      const env = opts.env ?? saved?.environment;
      await withSession(io, { ...opts, emulator, ...(env ? { env } : {}) }, async (s) => {
        const plan = saved ? await checked(saved, s) : await planInSession(s, opts.target);
        // With -q only the apply report (the result) is printed, unless a person must approve the plan.
        if (!saved && opts.output === 'text' && (!opts.quiet || !opts.autoApprove)) io.stdout(renderPlanText(plan, { color, verbose: Boolean(opts.verbose), kindOrder: KIND_ORDER }));
        // Before applying, so the annotations are there even when an operation fails.
        if (!saved && opts.annotations === 'github') printAnnotations(io, plan, s.workspace, opts);
        const adopting = opts.adoptFiles ? (plan.adoptable ?? []) : [];
        if (!hasChanges(plan) && adopting.length === 0) {
          if (opts.output === 'json') io.stdout(renderApplyReportJson(plan, { results: [], done: 0, failed: 0, skipped: 0, ms: 0 }));
          setExit(0);
          return;
        }
        if (plan.guard?.length && !opts.force) {
          throw new UnsafePlanError(
            `refusing to apply: ${plan.guard.map(describeViolation).join('; ')}`,
            'review the plan; if the removals are intended, run apply again with --force (or raise safety.max_delete_fraction)',
          );
        }
        if (!saved && !opts.autoApprove) await confirm(io, opts.output === 'json' ? renderPlanJson(plan) : undefined);
        let finished = 0;
        s.progress.start('Applying');
        s.progress.update(`0/${plan.changes.length} changes`);
        const w = s.workspace;
        let result;
        try {
          result = await applyPlan(plan, {
            services: s.connection.services,
            project: w.config.project,
            desired: w.desired,
            files: dataFileReader(w.config.project.root),
            lock: w.lock,
            clock: () => performance.now(),
            concurrency: s.concurrency,
            adoptFiles: Boolean(opts.adoptFiles),
            onResult: () => s.progress.update(`${++finished}/${plan.changes.length} changes`),
          });
        } finally {
          s.progress.stop();
        }
        // Whatever was uploaded is recorded, even when other operations failed.
        if (result.lockChanged) await writeLock(w.lockLocation, result.lock);
        const report = result.report;
        if (adopting.length > 0 && !opts.quiet) {
          io.stderr(`Recorded ${adopting.length} file(s) in docket.lock.json as live: ${adopting.map((a) => a.file).join(', ')}\n`);
        }
        // A saved plan was not printed, so its report names the target itself (`target: local emulator`).
        const header = opts.output === 'text' && (saved || opts.quiet) ? `docket apply · ${targetLine(plan, painter(color))}\n\n` : '';
        io.stdout(opts.output === 'json' ? renderApplyReportJson(plan, report) : header + renderApplyReportText(plan, report, { color }));
        if (report.failed > 0 || report.skipped > 0) throw new ApplyFailedError(report.failed, report.skipped);
        setExit(0);
      });
    });
}

async function checked(plan: Plan, s: Session): Promise<Plan> {
  const w = s.workspace;
  const stale = await checkSavedPlan(plan, {
    desired: w.desired,
    services: s.connection.services,
    lock: w.lock,
    prune: s.prune,
    concurrency: s.concurrency,
    configDigest: w.digest,
    target: () => s.connection.target,
  });
  if (stale.length > 0) throw new StalePlanError(stale);
  return plan;
}

/** Data files are read for upload from the configuration directory, and must be as planned. */
function dataFileReader(root: string): FileReader {
  return async (path, expected) => {
    const bytes = await readFile(join(root, path));
    if (sha256(bytes) !== expected) throw new Error(`${path} changed since the plan was made; plan again`);
    return bytes;
  };
}

async function confirm(io: Io, planJson: string | undefined): Promise<void> {
  if (!io.canPrompt) {
    throw new NotApprovedError('apply needs approval and there is no terminal to ask', 'pass --auto-approve, or apply a saved plan: docket plan --out PLAN.json && docket apply PLAN.json');
  }
  if (planJson) io.stderr(planJson);
  const answer = await io.prompt('\nDo you want to apply these changes? Only `yes` is accepted: ');
  if (answer.trim() !== 'yes') throw new NotApprovedError('apply cancelled; nothing was changed');
}
