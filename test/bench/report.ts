/** The results table (stdout) and the JSON document (a file) of a benchmark run. */
import type { Level } from './ideal.js';

export interface ScenarioResult {
  id: string;
  name: string;
  command: string;
  concurrency: number;
  exit_code: number;
  /** Changes in the plan the command made (or would make). */
  changes: number;
  requests: { total: number; by_method: Record<string, number>; by_route: Record<string, number> };
  ideal: { requests: number; depth: number; levels: Level[]; ms: number };
  wall_ms: number;
  /** wall_ms / ideal.ms; null when the ideal is 0. */
  wall_over_ideal: number | null;
  cpu_ms: number;
  cpu_user_ms: number;
  cpu_system_ms: number;
  rss_start_mb: number;
  peak_rss_mb: number;
  heap_start_mb: number;
  peak_heap_used_mb: number;
  memory_samples: number;
}

export interface BenchReport {
  format_version: 1;
  generated_at: string;
  node: string;
  platform: string;
  cpus: number;
  latency_ms: number;
  shape: { playbooks: number; rules_per_playbook: number };
  notes: string[];
  scenarios: ScenarioResult[];
  total_ms: number;
}

export const MB = 1024 * 1024;

export function byMethod(byRoute: Record<string, number>): Record<string, number> {
  const out: Record<string, number> = {};
  for (const [route, n] of Object.entries(byRoute)) {
    const method = route.split(' ')[0] ?? route;
    out[method] = (out[method] ?? 0) + n;
  }
  return out;
}

const round = (n: number, digits = 0): string => n.toFixed(digits);

export function renderTable(report: BenchReport): string {
  const header = ['#', 'scenario', 'conc', 'requests by method', 'req', 'ideal req', 'levels', 'wall ms', 'ideal ms', 'wall/ideal', 'CPU ms', 'peak RSS MB', 'peak heap MB'];
  const rows = report.scenarios.map((s) => [
    s.id,
    s.name,
    String(s.concurrency),
    Object.entries(s.requests.by_method)
      .map(([m, n]) => `${m} ${n}`)
      .join(', ') || '-',
    String(s.requests.total),
    `${s.ideal.requests}${s.ideal.requests === s.requests.total ? '' : ' (!)'}`,
    s.ideal.levels.map((l) => l.requests).join('/') || '-',
    round(s.wall_ms),
    round(s.ideal.ms),
    s.wall_over_ideal === null ? '-' : `${round(s.wall_over_ideal, 2)}x`,
    round(s.cpu_ms),
    round(s.peak_rss_mb, 1),
    round(s.peak_heap_used_mb, 1),
  ]);
  const numeric = new Set([2, 4, 5, 7, 8, 9, 10, 11, 12]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]): string =>
    cells
      .map((c, i) => (numeric.has(i) ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd();
  const out = [
    `docket benchmarks · emulator latency ${report.latency_ms} ms · ${report.shape.playbooks} playbooks × ${report.shape.rules_per_playbook} rules · node ${report.node} · ${report.cpus} CPUs`,
    '',
    line(header),
    line(widths.map((w) => '-'.repeat(w))),
    ...rows.map(line),
    '',
    'levels: requests per dependency level (read: lists, then rules per playbook; write: by dependsOn depth).',
    'ideal ms = Σ levels ceil(requests / concurrency) × latency. (!) = request count differs from the ideal.',
    ...report.notes.map((n) => `note: ${n}`),
    `total ${round(report.total_ms / 1000, 1)} s`,
  ];
  return `${out.join('\n')}\n`;
}
