/**
 * Start-up rows: what a cold docket costs before it does any real work. `--version` (no
 * configuration), `validate` of the 100-rule configuration (offline), and a no-change plan of
 * 1,000 rules at latency 0, where nothing but docket's own CPU time separates it from the ideal.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from './child.js';
import { expectExit, expectNoChanges } from './checks.js';
import { EmulatorProcess } from './emulator-process.js';
import type { RowResult } from './report.js';
import { failure, runScenario, type RowContext } from './scenario.js';
import { PLAN_1000, SCALES } from './shapes.js';
import { Workspace } from './workspace.js';

export const START_UP_ROWS = ['version', 'validate-100', 'plan-1000'] as const;
export type StartUpRow = (typeof START_UP_ROWS)[number];

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;

export async function runStartUp(rows: readonly StartUpRow[], base: Omit<RowContext, 'emulator' | 'dir'>): Promise<RowResult[]> {
  const results: RowResult[] = [];
  const common = { group: 'start-up' as const, latencyMs: 0, concurrency: 8 };
  if (rows.includes('version')) {
    results.push(
      await runScenario({ ...base, dir: REPO_ROOT }, {
        ...common,
        id: 'start-up/version',
        label: 'docket --version',
        work: 'none',
        args: ['--version'],
        check: (run) => {
          expectExit(0)(run);
          if (!run.stdout.includes(VERSION)) throw failure(`expected the version ${VERSION}`, run);
        },
      }),
    );
  }
  if (rows.includes('validate-100')) {
    const shape = SCALES.s100;
    const ws = await Workspace.create(shape, undefined);
    try {
      results.push(
        await runScenario({ ...base, dir: ws.dir }, { ...common, id: 'start-up/validate-100', label: 'validate, 100 rules', shape, work: 'none', args: ['validate', '-C', ws.dir], check: expectExit(0) }),
      );
    } finally {
      await ws.remove();
    }
  }
  if (rows.includes('plan-1000')) {
    const emulator = await EmulatorProcess.start({ latencyMs: 0 });
    const ws = await Workspace.create(PLAN_1000, emulator);
    try {
      await ws.ensureSynced();
      results.push(
        await runScenario(
          { ...base, emulator, dir: ws.dir },
          { ...common, id: 'start-up/plan-1000', label: 'no-change plan, 1,000 rules', shape: PLAN_1000, work: 'plan-live', args: ['plan', '-C', ws.dir, '--detailed-exitcode'], check: expectNoChanges },
        ),
      );
    } finally {
      await emulator.stop();
      await ws.remove();
    }
  }
  return results;
}
