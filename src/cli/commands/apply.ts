/**
 * `docket apply`: with no plan file it plans, shows the plan and asks for `yes` (or needs
 * --auto-approve without a terminal); with a plan file it applies exactly that plan after checking
 * it is not stale.
 */
import { Command, Option } from 'commander';
import type { Plan } from '../../engine/types.js';
import { describeViolation } from '../../engine/guard.js';
import { hasChanges } from '../../engine/plan.js';
import { ApplyFailedError, NotApprovedError, StalePlanError, UnsafePlanError, UsageError } from '../../errors.js';
import { renderApplyReportJson, renderPlanJson } from '../../render/json.js';
import { painter } from '../../render/paint.js';
import { renderApplyReportText, renderPlanText, targetLine } from '../../render/text.js';
import { annotationsOption, printAnnotations, type AnnotationFormat } from '../annotations.js';
import { useColor, type Io } from '../io.js';
import { collect, withCommon, type CommonOptions } from '../options.js';
import { readPlanFile } from '../plan-file.js';
import { applyPlan, kindsToRead, readLive, staleReasons } from '../pipeline.js';
import { KIND_ORDER, planSession, withSession, type Session } from '../run.js';
import { KINDS } from '../../kinds/index.js';

interface ApplyOptions extends CommonOptions {
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
    .action(async (planFile: string | undefined, opts: ApplyOptions) => {
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
        const plan = saved ? await checkSavedPlan(saved, s) : await planSession(s, { prune: Boolean(opts.prune), targets: opts.target });
        // With -q only the apply report (the result) is printed, unless a person must approve the plan.
        if (!saved && opts.output === 'text' && (!opts.quiet || !opts.autoApprove)) io.stdout(renderPlanText(plan, { color, verbose: Boolean(opts.verbose), kindOrder: KIND_ORDER }));
        // Before applying, so the annotations are there even when an operation fails.
        if (!saved && opts.annotations === 'github') printAnnotations(io, plan, s.project, opts);
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
        const report = await applyPlan(plan, s.project, s.connection, {
          concurrency: s.concurrency,
          adoptFiles: Boolean(opts.adoptFiles),
          onResult: () => s.progress.update(`${++finished}/${plan.changes.length} changes`),
        });
        s.progress.stop();
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

async function checkSavedPlan(plan: Plan, s: Session): Promise<Plan> {
  const planned = new Set(plan.changes.map((c) => c.kind));
  const kinds = [...new Set([...kindsToRead(s.project), ...KINDS.filter((k) => planned.has(k.name))])];
  const live = await readLive(s.project, kinds, s.connection, s.concurrency);
  const stale = staleReasons(plan, s.project, live, s.connection);
  if (stale.length > 0) throw new StalePlanError(stale);
  return plan;
}

async function confirm(io: Io, planJson: string | undefined): Promise<void> {
  if (!io.canPrompt) {
    throw new NotApprovedError('apply needs approval and there is no terminal to ask', 'pass --auto-approve, or apply a saved plan: docket plan --out PLAN.json && docket apply PLAN.json');
  }
  if (planJson) io.stderr(planJson);
  const answer = await io.prompt('\nDo you want to apply these changes? Only `yes` is accepted: ');
  if (answer.trim() !== 'yes') throw new NotApprovedError('apply cancelled; nothing was changed');
}
