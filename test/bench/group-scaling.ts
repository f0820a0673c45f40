/**
 * Scaling rows: the same 20,000 rules as one playbook and as 500 playbooks of 40, playbooks only,
 * so the only difference is how the rules are split. A no-change plan of each (at one latency by
 * default: the single playbook needs three requests, so latency hardly matters to it): the big
 * rule list is a single request, so any extra time is docket's handling of it.
 */
import { expectNoChanges } from './checks.js';
import { EmulatorProcess } from './emulator-process.js';
import type { RowResult } from './report.js';
import { runScenario, type RowContext } from './scenario.js';
import { SINGLE_20000, SPLIT_20000, type FixtureShape } from './shapes.js';
import { Workspace } from './workspace.js';

export const SCALING_SHAPES: readonly FixtureShape[] = [SINGLE_20000, SPLIT_20000];

export async function runScaling(shapes: readonly FixtureShape[], latencies: number[], base: Omit<RowContext, 'emulator' | 'dir'>): Promise<RowResult[]> {
  const results: RowResult[] = [];
  for (const shape of shapes) {
    const emulator = await EmulatorProcess.start({ latencyMs: 0 });
    const ws = await Workspace.create(shape, emulator);
    try {
      await ws.ensureSynced();
      for (const latencyMs of latencies) {
        results.push(
          await runScenario(
            { ...base, emulator, dir: ws.dir },
            {
              id: `scaling/${shape.id}/${latencyMs}ms/noop-plan`,
              group: 'scaling',
              label: `no-change plan, ${shape.label}`,
              shape,
              latencyMs,
              concurrency: 8,
              work: 'plan-live',
              args: ['plan', '-C', ws.dir, '--detailed-exitcode'],
              check: expectNoChanges,
            },
          ),
        );
      }
    } finally {
      await emulator.stop();
      await ws.remove();
    }
  }
  return results;
}
