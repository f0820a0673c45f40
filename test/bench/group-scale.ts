/**
 * The rows of one scale: at each latency, apply from empty, a no-change plan, a plan of the 1 %
 * edit, its apply, and `apply PLAN.json` of it. One emulator serves the scale; the latency is set
 * through its control route before each timed run. Each repetition starts from the same state:
 * apply from empty starts over from the seed; edit rows put the original back after each run.
 */
import { expectApplied, expectNoChanges, expectPlanned, editChangeCount, resourceCount } from './checks.js';
import { EmulatorProcess } from './emulator-process.js';
import type { RowResult } from './report.js';
import { runScenario, type RowContext, type Scenario } from './scenario.js';
import type { FixtureShape } from './shapes.js';
import { Workspace } from './workspace.js';

export const SCALE_ROWS = ['apply-empty', 'noop-plan', 'edit-plan', 'edit-apply', 'apply-plan-file'] as const;
export type ScaleRow = (typeof SCALE_ROWS)[number];

const CONCURRENCY = 8;

function scenarios(ws: Workspace, latencyMs: number): Record<ScaleRow, Scenario> {
  const shape = ws.shape;
  const dir = ws.dir;
  const edit = editChangeCount(shape);
  const edited = edit.update + edit.publish;
  const base = { group: 'scale' as const, shape, latencyMs, concurrency: CONCURRENCY };
  const id = (row: ScaleRow): string => `${shape.id}/${latencyMs}ms/${row}`;
  return {
    'apply-empty': {
      ...base,
      id: id('apply-empty'),
      label: 'apply from empty',
      work: 'apply-from-empty',
      args: ['apply', '-C', dir, '--auto-approve'],
      before: async () => {
        await ws.writeFiles(false);
        await ws.startOver();
      },
      after: async () => {
        ws.synced = true;
      },
      check: expectApplied(resourceCount(shape)),
    },
    'noop-plan': {
      ...base,
      id: id('noop-plan'),
      label: 'no-change plan',
      work: 'plan-live',
      args: ['plan', '-C', dir, '--detailed-exitcode'],
      before: () => ws.ensureSynced(),
      check: expectNoChanges,
    },
    'edit-plan': {
      ...base,
      id: id('edit-plan'),
      label: '1 % edit plan',
      work: 'plan-live',
      args: ['plan', '-C', dir, '--detailed-exitcode'],
      before: async () => {
        await ws.ensureSynced();
        await ws.writeFiles(true);
      },
      check: expectPlanned(edit),
    },
    'edit-apply': {
      ...base,
      id: id('edit-apply'),
      label: 'edit apply',
      work: 'apply-edit',
      args: ['apply', '-C', dir, '--auto-approve'],
      before: async () => {
        await ws.ensureSynced();
        await ws.writeFiles(true);
      },
      after: () => ws.revertEdit(),
      check: expectApplied(edited),
    },
    'apply-plan-file': {
      ...base,
      id: id('apply-plan-file'),
      label: 'apply PLAN.json',
      work: 'apply-plan-file',
      args: ['apply', ws.planFile, '-C', dir],
      before: async () => {
        await ws.ensureSynced();
        await ws.writeFiles(true);
        await ws.savePlan();
      },
      after: () => ws.revertEdit(),
      check: expectApplied(edited),
    },
  };
}

export interface ScaleOptions {
  latencies: number[];
  rows: readonly ScaleRow[];
}

export async function runScale(shape: FixtureShape, options: ScaleOptions, base: Omit<RowContext, 'emulator' | 'dir'>): Promise<RowResult[]> {
  const emulator = await EmulatorProcess.start({ latencyMs: 0 });
  const ws = await Workspace.create(shape, emulator);
  const results: RowResult[] = [];
  try {
    for (const latencyMs of options.latencies) {
      const all = scenarios(ws, latencyMs);
      for (const row of SCALE_ROWS) {
        if (options.rows.includes(row)) results.push(await runScenario({ ...base, emulator, dir: ws.dir }, all[row]));
      }
      // The next latency's rows start from the original files.
      await ws.writeFiles(false);
    }
  } finally {
    await emulator.stop();
    await ws.remove();
  }
  return results;
}
