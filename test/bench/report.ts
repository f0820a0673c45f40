/** The results: the JSON document (a file) and the table (stdout) of a benchmark run. */
import type { Level } from './ideal.js';
import type { FixtureShape } from './shapes.js';
import type { Spread } from './summary.js';

/** One repetition of a row. */
export interface RunResult {
  exit_code: number;
  /** Spawn to exit of the docket process, cold start included. */
  wall_ms: number;
  /** docket's own CPU time (user + system) and peak RSS, reported by the child. */
  cpu_ms: number;
  cpu_user_ms: number;
  cpu_system_ms: number;
  peak_rss_mb: number;
  /** The emulator process's CPU time during the run (/proc); null where unavailable. */
  emulator_cpu_ms: number | null;
  /** Requests the emulator received during the run, including refused ones. */
  requests: number;
  /** Of those, refused with 429 by the rate limit. */
  rate_limited: number;
  by_route: Record<string, number>;
}

export interface RowResult {
  id: string;
  group: string;
  label: string;
  shape: FixtureShape | null;
  latency_ms: number;
  concurrency: number;
  rate_limit: number | null;
  command: string;
  requests: Spread;
  /** The minimum the API allows, from the shape (ideal.ts). */
  minimum_requests: number;
  ideal: { ms: number; node_start_ms: number; latency_ms: number; rate_limit_ms: number | null; levels: Level[] };
  wall_ms: Spread;
  /** Median wall / ideal. */
  wall_over_ideal: number | null;
  docket_cpu_ms: Spread;
  emulator_cpu_ms: Spread | null;
  peak_rss_mb: Spread;
  rate_limited: Spread;
  /** Rate-limit rows only. */
  rate: { limit_rps: number; sustained_rps: Spread; sustained_pct_of_limit: number; refused_429_pct: Spread } | null;
  runs: RunResult[];
}

export interface BenchReport {
  format_version: 2;
  generated_at: string;
  node: string;
  platform: string;
  cpus: number;
  cpu_model: string;
  runs_per_row: number;
  /** Wall time of `node -e 0`, the median of several; part of every ideal. */
  node_start_ms: number;
  options: { quick: boolean; scales: string[]; rows: string[] };
  notes: string[];
  rows: RowResult[];
  total_s: number;
}

const int = (n: number): string => String(Math.round(n));
const withSpread = (s: Spread, fmt: (n: number) => string = int): string => (s.min === s.max ? fmt(s.median) : `${fmt(s.median)} (${fmt(s.min)}–${fmt(s.max)})`);

const HEADER = ['row', 'requests', 'min req', 'wall ms', 'ideal ms', 'wall/ideal', 'docket CPU ms', 'emulator CPU ms', 'peak RSS MB', '429s'];
const LEFT = new Set([0]);

function cells(r: RowResult): string[] {
  return [
    r.id,
    withSpread(r.requests),
    r.minimum_requests > 0 || r.requests.median > 0 ? String(r.minimum_requests) : '-',
    withSpread(r.wall_ms),
    int(r.ideal.ms),
    r.wall_over_ideal === null ? '-' : `${r.wall_over_ideal.toFixed(2)}x`,
    withSpread(r.docket_cpu_ms),
    r.emulator_cpu_ms ? int(r.emulator_cpu_ms.median) : '-',
    r.peak_rss_mb.median.toFixed(0),
    r.rate_limit === null && r.rate_limited.max === 0 ? '-' : withSpread(r.rate_limited),
  ];
}

/** A fixed-width table (stdout). */
export function renderTable(report: BenchReport): string {
  const rows = report.rows.map(cells);
  const widths = HEADER.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cs: string[]): string =>
    cs
      .map((c, i) => (LEFT.has(i) ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [
    `docket benchmarks · node ${report.node} · ${report.cpus} CPUs (${report.cpu_model}) · ${report.runs_per_row} run(s) per row, median (min–max) · node start ${int(report.node_start_ms)} ms`,
    '',
    line(HEADER),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    ...rateLines(report),
    '',
    ...report.notes.map((n) => `note: ${n}`),
    `total ${report.total_s.toFixed(0)} s`,
  ];
  return `${out.join('\n')}\n`;
}

/** The same table in markdown, for the README. */
export function renderMarkdown(report: BenchReport): string {
  const out = [`| ${HEADER.join(' | ')} |`, `|${HEADER.map((_, i) => (LEFT.has(i) ? '---' : '---:')).join('|')}|`];
  for (const r of report.rows) out.push(`| ${cells(r).join(' | ')} |`);
  out.push('', ...rateLines(report).filter((l) => l !== '').map((l) => `- ${l}`));
  return `${out.join('\n')}\n`;
}

function rateLines(report: BenchReport): string[] {
  const rated = report.rows.filter((r) => r.rate);
  if (rated.length === 0) return [];
  return [
    '',
    ...rated.map((r) => {
      const rate = r.rate!;
      return `${r.id}: sustained ${withSpread(rate.sustained_rps, (n) => n.toFixed(1))} requests/s = ${rate.sustained_pct_of_limit.toFixed(0)} % of the ${rate.limit_rps}/s limit; ${withSpread(rate.refused_429_pct, (n) => n.toFixed(1))} % of requests refused with 429`;
    }),
  ];
}
