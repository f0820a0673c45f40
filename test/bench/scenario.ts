/**
 * One row of the benchmark: an untimed preparation, the timed docket command, a check of what it
 * did, and an untimed restoration, repeated so each repetition does the same work. Around the timed
 * command only: the emulator's statistics (before and after, so nothing needs resetting) and its
 * CPU time; docket's own CPU time and peak RSS come from the child (child.ts).
 */
import { runDocket, type ChildRun } from './child.js';
import { statsDelta, type EmulatorProcess } from './emulator-process.js';
import { idealOf, minimumLevels, type Work } from './ideal.js';
import type { RowResult, RunResult } from './report.js';
import type { FixtureShape } from './shapes.js';
import { round2, spreadOf } from './summary.js';

export class BenchFailure extends Error {}

export interface RowContext {
  /** Absent for rows that need no service (--version, validate). */
  emulator?: EmulatorProcess;
  /** The configuration directory. */
  dir: string;
  nodeStartMs: number;
  runs: number;
}

export interface Scenario {
  id: string;
  group: 'scale' | 'start-up' | 'scaling' | 'rate-limit';
  label: string;
  shape?: FixtureShape;
  latencyMs: number;
  concurrency: number;
  rateLimit?: number;
  work: Work;
  /** The timed command's arguments (after `docket`). */
  args: string[];
  /** Untimed, before every repetition. */
  before?: () => Promise<void>;
  /** Untimed, after every repetition. */
  after?: () => Promise<void>;
  /** Throws a BenchFailure when the timed run did not do what the row measures. */
  check: (run: ChildRun) => void;
}

/** Environment of a docket child: nothing of the caller's but PATH, so no DOCKET_* leaks in. */
export function childEnv(emulator: EmulatorProcess | undefined): Record<string, string> {
  return { PATH: process.env.PATH ?? '', NO_COLOR: '1', ...(emulator ? emulator.env() : {}) };
}

export function failure(what: string, run: ChildRun): BenchFailure {
  return new BenchFailure(`${what} (exit ${run.code})\n--- stdout (end) ---\n${run.stdout.slice(-2000)}\n--- stderr (end) ---\n${run.stderr.slice(-3000)}`);
}

async function timedRun(ctx: RowContext, s: Scenario): Promise<RunResult> {
  const emulator = ctx.emulator;
  const stats0 = emulator ? await emulator.stats() : undefined;
  const emuCpu0 = emulator?.cpuMs();
  const run = await runDocket(s.args, childEnv(emulator));
  const emuCpu1 = emulator?.cpuMs();
  const stats1 = emulator ? await emulator.stats() : undefined;
  s.check(run);
  const delta = stats0 && stats1 ? statsDelta(stats0, stats1) : undefined;
  return {
    exit_code: run.code,
    wall_ms: round2(run.wallMs),
    cpu_ms: round2(run.cpuMs),
    cpu_user_ms: round2(run.cpuUserMs),
    cpu_system_ms: round2(run.cpuSystemMs),
    peak_rss_mb: round2(run.peakRssMb),
    emulator_cpu_ms: emuCpu0 !== undefined && emuCpu1 !== undefined ? round2(emuCpu1 - emuCpu0) : null,
    requests: delta?.requests.total ?? 0,
    rate_limited: delta?.rate_limited ?? 0,
    by_route: delta?.requests.by_route ?? {},
  };
}

export async function runScenario(ctx: RowContext, s: Scenario): Promise<RowResult> {
  const runs: RunResult[] = [];
  for (let i = 0; i < ctx.runs; i++) {
    await s.before?.();
    if (ctx.emulator) await ctx.emulator.configure({ latency_ms: s.latencyMs });
    runs.push(await timedRun(ctx, s));
    await s.after?.();
  }
  const ideal = idealOf({
    levels: minimumLevels(s.shape, s.work),
    latencyMs: s.latencyMs,
    concurrency: s.concurrency,
    nodeStartMs: ctx.nodeStartMs,
    ...(s.rateLimit ? { rateLimit: s.rateLimit } : {}),
  });
  const wall = spreadOf(runs.map((r) => r.wall_ms));
  const emulatorCpu = runs.every((r) => r.emulator_cpu_ms !== null) && ctx.emulator ? spreadOf(runs.map((r) => r.emulator_cpu_ms ?? 0)) : null;
  const requests = spreadOf(runs.map((r) => r.requests));
  const limited = spreadOf(runs.map((r) => r.rate_limited));
  const result: RowResult = {
    id: s.id,
    group: s.group,
    label: s.label,
    shape: s.shape ?? null,
    latency_ms: s.latencyMs,
    concurrency: s.concurrency,
    rate_limit: s.rateLimit ?? null,
    command: `docket ${s.args.join(' ').split(ctx.dir).join('DIR')}`,
    requests,
    minimum_requests: ideal.requests,
    ideal: { ms: round2(ideal.ms), node_start_ms: round2(ideal.nodeStartMs), latency_ms: round2(ideal.latencyMs), rate_limit_ms: ideal.rateLimitMs === null ? null : round2(ideal.rateLimitMs), levels: ideal.levels },
    wall_ms: wall,
    wall_over_ideal: ideal.ms > 0 ? round2(wall.median / ideal.ms) : null,
    docket_cpu_ms: spreadOf(runs.map((r) => r.cpu_ms)),
    emulator_cpu_ms: emulatorCpu,
    peak_rss_mb: spreadOf(runs.map((r) => r.peak_rss_mb)),
    rate_limited: limited,
    rate: s.rateLimit ? rateFigures(runs, s.rateLimit) : null,
    runs,
  };
  process.stderr.write(
    `  ${s.id}: ${requests.median} requests (min ${ideal.requests}), wall ${Math.round(wall.median)} ms (ideal ${Math.round(ideal.ms)}), CPU ${Math.round(result.docket_cpu_ms.median)} ms, RSS ${Math.round(result.peak_rss_mb.median)} MB\n`,
  );
  return result;
}

/** Requests served (not refused) per second of wall time, and the share refused with 429. */
function rateFigures(runs: RunResult[], limit: number): NonNullable<RowResult['rate']> {
  const rps = spreadOf(runs.map((r) => (r.requests - r.rate_limited) / (r.wall_ms / 1000)));
  const refused = spreadOf(runs.map((r) => (r.requests > 0 ? (100 * r.rate_limited) / r.requests : 0)));
  return { limit_rps: limit, sustained_rps: rps, sustained_pct_of_limit: round2((100 * rps.median) / limit), refused_429_pct: refused };
}
