/**
 * `npm run bench`: docket's benchmarks (never timed assertions in tests; DESIGN.md §5). Each
 * scenario runs the real CLI program in-process against an in-process emulator on loopback with
 * 20 ms of latency per request, and reports request counts (the emulator's statistics), wall time
 * against the ideal computed from the plan (ideal.ts), CPU time and peak memory (measure.ts).
 *
 *   npm run bench [-- --json FILE]      table on stdout, JSON to dist-bench/results.json or FILE
 *
 * Before each timed run an untimed `plan -o json` at latency 0 gives the plan the ideal is
 * computed from (and warms up the code paths); statistics are reset after it.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY, defaultSeed, startEmulator, type RunningEmulator } from '../../src/emulator/server.js';
import type { Plan } from '../../src/engine/types.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { TEST_USERS } from '../helpers/emulator.js';
import { makeTempDir, playbookName, writeFixture, type FixtureShape } from './fixture.js';
import { idealOf, readLevels, writeLevels, type Level } from './ideal.js';
import { collectGarbage, gcAvailable, measure } from './measure.js';
import { MB, byMethod, renderTable, type BenchReport, type ScenarioResult } from './report.js';

const LATENCY_MS = 20;
const SHAPE: FixtureShape = { playbooks: 50, rulesPerPlaybook: 20 };
const DEFAULT_JSON = 'dist-bench/results.json';

class BenchFailure extends Error {}

interface Bench {
  emulator: RunningEmulator;
  env: Record<string, string>;
  dir: string;
  declared: Set<string>;
  results: ScenarioResult[];
}

interface ScenarioSpec {
  id: string;
  name: string;
  command: 'plan' | 'apply';
  concurrency: number;
  /** Checks the plan made before the timed run (throw BenchFailure to fail the benchmark). */
  expectPlan: (plan: Plan) => void;
  /** The exit code the timed run must end with. */
  expectExit: number;
}

function cli(b: Bench, args: string[]): Promise<CliResult> {
  return runCli(args, { env: b.env });
}

function failure(what: string, result: CliResult): BenchFailure {
  return new BenchFailure(`${what} (exit ${result.code})\n--- stdout (end) ---\n${result.stdout.slice(-2000)}\n--- stderr ---\n${result.stderr.slice(-4000)}`);
}

/** An untimed plan at latency 0: what the timed command will do. */
async function planNow(b: Bench, concurrency: number): Promise<Plan> {
  const saved = b.emulator.config().latencyMs;
  b.emulator.configure({ latencyMs: 0 });
  try {
    const result = await cli(b, ['plan', '-C', b.dir, '-o', 'json', '--concurrency', String(concurrency)]);
    if (result.code !== 0) throw failure('the untimed `plan -o json` failed', result);
    return JSON.parse(result.stdout) as Plan;
  } finally {
    b.emulator.configure({ latencyMs: saved });
  }
}

async function expectZeroChanges(b: Bench, after: string): Promise<void> {
  const plan = await planNow(b, 8);
  if (plan.changes.length !== 0) {
    const sample = plan.changes.slice(0, 5).map((c) => `${c.action} ${c.kind} "${c.key}"`);
    throw new BenchFailure(`re-plan after ${after} shows ${plan.changes.length} changes, expected 0: ${sample.join('; ')}`);
  }
}

function countChanges(plan: Plan, action: string, kind: string): number {
  return plan.changes.filter((c) => c.action === action && c.kind === kind).length;
}

async function runScenario(b: Bench, spec: ScenarioSpec): Promise<ScenarioResult> {
  collectGarbage();
  const plan = await planNow(b, spec.concurrency);
  spec.expectPlan(plan);
  const levels: Level[] = [...readLevels(plan, b.declared), ...(spec.command === 'apply' ? writeLevels(plan) : [])];
  const ideal = idealOf(levels, LATENCY_MS, spec.concurrency);

  const args =
    spec.command === 'plan'
      ? ['plan', '-C', b.dir, '--detailed-exitcode', '--concurrency', String(spec.concurrency)]
      : ['apply', '-C', b.dir, '--auto-approve', '--concurrency', String(spec.concurrency)];
  b.emulator.resetStats();
  const m = await measure(() => cli(b, args));
  const stats = b.emulator.stats();
  if (m.value.code !== spec.expectExit) throw failure(`scenario ${spec.id} "${spec.name}": expected exit ${spec.expectExit}`, m.value);
  if (spec.command === 'plan' && spec.expectExit === 0 && !m.value.stdout.includes('No changes.')) {
    throw failure(`scenario ${spec.id} "${spec.name}": the plan does not say "No changes."`, m.value);
  }

  const result: ScenarioResult = {
    id: spec.id,
    name: spec.name,
    command: args.join(' ').replace(b.dir, 'DIR'),
    concurrency: spec.concurrency,
    exit_code: m.value.code,
    changes: plan.changes.length,
    requests: { total: stats.requests.total, by_method: byMethod(stats.requests.by_route), by_route: stats.requests.by_route },
    ideal: { requests: ideal.requests, depth: ideal.depth, levels: ideal.levels, ms: ideal.ms },
    wall_ms: round2(m.wallMs),
    wall_over_ideal: ideal.ms > 0 ? round2(m.wallMs / ideal.ms) : null,
    cpu_ms: round2(m.cpuMs),
    cpu_user_ms: round2(m.cpuUserMs),
    cpu_system_ms: round2(m.cpuSystemMs),
    rss_start_mb: round2(m.rssStartBytes / MB),
    peak_rss_mb: round2(m.peakRssBytes / MB),
    heap_start_mb: round2(m.heapStartBytes / MB),
    peak_heap_used_mb: round2(m.peakHeapUsedBytes / MB),
    memory_samples: m.memorySamples,
  };
  b.results.push(result);
  process.stderr.write(
    `  ${spec.id} ${spec.name}: ${result.requests.total} requests, ${Math.round(result.wall_ms)} ms (ideal ${ideal.ms} ms), CPU ${Math.round(result.cpu_ms)} ms\n`,
  );
  return result;
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

function expect(condition: boolean, message: string): void {
  if (!condition) throw new BenchFailure(message);
}

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { json: { type: 'string' } }, allowPositionals: false });
  const jsonPath = resolve(values.json ?? DEFAULT_JSON);
  const started = performance.now();
  const totalRules = SHAPE.playbooks * SHAPE.rulesPerPlaybook;

  const seed = defaultSeed({ users: TEST_USERS });
  const emulator = await startEmulator({ seed, latencyMs: LATENCY_MS });
  const temp = await makeTempDir();
  const b: Bench = {
    emulator,
    env: { DOCKET_REVIEW_URL: emulator.reviewUrl, DOCKET_ORGANIZATION_ID: DEFAULT_ORGANIZATION_ID, DOCKET_API_KEY: EMULATOR_API_KEY },
    dir: temp.dir,
    declared: new Set(Array.from({ length: SHAPE.playbooks }, (_, p) => playbookName(p))),
    results: [],
  };
  const freshCreate = (plan: Plan): void => {
    expect(countChanges(plan, 'create', 'playbook') === SHAPE.playbooks, `expected ${SHAPE.playbooks} playbook creates`);
    expect(countChanges(plan, 'create', 'rule') === totalRules, `expected ${totalRules} rule creates`);
    expect(plan.changes.length === SHAPE.playbooks + totalRules, `expected only creates, got ${plan.changes.length} changes`);
  };

  try {
    process.stderr.write(`docket bench: ${SHAPE.playbooks} playbooks × ${SHAPE.rulesPerPlaybook} rules, latency ${LATENCY_MS} ms, config in ${temp.dir}\n`);
    await writeFixture(b.dir, SHAPE, false);

    await runScenario(b, { id: '1', name: 'plan, fresh org (read cost)', command: 'plan', concurrency: 8, expectPlan: freshCreate, expectExit: 2 });

    await runScenario(b, { id: '2a', name: 'apply, create 50 + 1000', command: 'apply', concurrency: 8, expectPlan: freshCreate, expectExit: 0 });
    await expectZeroChanges(b, 'scenario 2a');
    await emulator.reset();

    await runScenario(b, { id: '2b', name: 'apply, create 50 + 1000', command: 'apply', concurrency: 16, expectPlan: freshCreate, expectExit: 0 });

    const none = (plan: Plan): void => {
      if (plan.changes.length !== 0) throw new BenchFailure(`re-plan after apply shows ${plan.changes.length} changes, expected 0`);
    };
    await runScenario(b, { id: '3a', name: 're-plan, 1000 live rules', command: 'plan', concurrency: 8, expectPlan: none, expectExit: 0 });
    await runScenario(b, { id: '3b', name: 're-plan, 1000 live rules', command: 'plan', concurrency: 16, expectPlan: none, expectExit: 0 });

    await writeFixture(b.dir, SHAPE, true);
    const tenth = Math.ceil(totalRules / 10);
    await runScenario(b, {
      id: '4',
      name: 'apply, edit 10% of rules',
      command: 'apply',
      concurrency: 8,
      expectPlan: (plan) => {
        expect(countChanges(plan, 'update', 'rule') === tenth && plan.changes.length === tenth, `expected ${tenth} rule updates, got ${plan.changes.length} changes`);
      },
      expectExit: 0,
    });
    await expectZeroChanges(b, 'scenario 4');
  } finally {
    await emulator.close();
    await temp.remove();
  }

  const report: BenchReport = {
    format_version: 1,
    generated_at: new Date().toISOString(),
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    latency_ms: LATENCY_MS,
    shape: { playbooks: SHAPE.playbooks, rules_per_playbook: SHAPE.rulesPerPlaybook },
    notes: [
      'docket and the emulator share one process: CPU time and memory include the emulator (and the emulator holds the live objects); memory is process-wide, so it includes what earlier scenarios left behind.',
      gcAvailable ? 'a full GC runs before each scenario (before its untimed plan).' : 'no gc() available: starting memory includes garbage of earlier scenarios.',
      'every scenario runs after an untimed plan (warm JIT); a real CLI run starts cold.',
      '3b is an extra row: the re-plan of 3a at --concurrency 16.',
    ],
    scenarios: b.results,
    total_ms: Math.round(performance.now() - started),
  };
  process.stdout.write(renderTable(report));
  await mkdir(dirname(jsonPath), { recursive: true });
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`JSON: ${jsonPath}\n`);
  return 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    const message = error instanceof BenchFailure ? `benchmark FAILED: ${error.message}` : error instanceof Error ? (error.stack ?? error.message) : String(error);
    process.stderr.write(`\n${message}\n`);
    process.exitCode = 1;
  },
);
