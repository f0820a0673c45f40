/**
 * `npm run bench`: docket as users run it (DESIGN.md §5; never timed assertions in tests). Every
 * row spawns the real CLI (`node bin/docket.js …`, cold) against the standalone emulator
 * (`docket emulator`, another process), and reports per row: requests and the minimum the API
 * allows, wall time against the ideal, docket's and the emulator's CPU time, docket's peak RSS and
 * 429s, as the median and spread of several runs; a table on stdout and JSON in a file.
 *
 *   npm run bench                 everything, 3 runs a row (10–25 minutes on 2 cores)
 *   npm run bench -- --quick      the 100 and 2,000 scales and the start-up rows, 1 run each
 *   npm run bench -- --help       the options (args.ts)
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus } from 'node:os';
import { dirname, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseOptions, USAGE, type BenchOptions } from './args.js';
import { nodeStartMs } from './child.js';
import { runRateLimit } from './group-rate-limit.js';
import { runScale } from './group-scale.js';
import { SCALING_SHAPES, runScaling } from './group-scaling.js';
import { runStartUp } from './group-start-up.js';
import { renderMarkdown, renderTable, type BenchReport, type RowResult } from './report.js';
import { BenchFailure } from './scenario.js';
import { SCALES, describeShape } from './shapes.js';
import { round2 } from './summary.js';

const NOTES = [
  'each row spawns docket cold (node bin/docket.js) against the standalone emulator in another process; wall is spawn to exit.',
  'docket CPU and peak RSS are the docket process\'s own (process.cpuUsage and resourceUsage().maxRSS at exit); emulator CPU is the emulator process\'s utime + stime from /proc during the run.',
  'requests are what the emulator received (429s included); "min req" is the minimum the API allows, computed from the configuration\'s shape, not from docket\'s plan (test/bench/ideal.ts).',
  'ideal = node start + latency × Σ over dependency levels ceil(min requests in level / concurrency); under a rate limit R, at least node start + (min requests − R) / R s.',
  'taken on a shared machine (2 cores, other work running): CPU times are the reliable figures; wall times are indicative.',
];

async function runAll(options: BenchOptions, nodeStart: number): Promise<RowResult[]> {
  const base = { nodeStartMs: nodeStart, runs: options.runs };
  const rows: RowResult[] = [];
  if (options.groups.includes('start-up') && options.startUpRows.length > 0) {
    process.stderr.write('start-up\n');
    rows.push(...(await runStartUp(options.startUpRows, base)));
  }
  if (options.groups.includes('scales') && options.scaleRows.length > 0) {
    for (const name of options.scales) {
      const shape = SCALES[name];
      process.stderr.write(`scale ${name}: ${describeShape(shape)}\n`);
      rows.push(...(await runScale(shape, { latencies: options.latencies, rows: options.scaleRows }, base)));
    }
  }
  if (options.groups.includes('scaling')) {
    process.stderr.write(`scaling: ${SCALING_SHAPES.map(describeShape).join(' vs ')}\n`);
    rows.push(...(await runScaling(SCALING_SHAPES, [options.scalingLatency], base)));
  }
  if (options.groups.includes('rate-limit')) {
    process.stderr.write('rate limit\n');
    rows.push(...(await runRateLimit(base)));
  }
  return rows;
}

async function main(): Promise<number> {
  const options = parseOptions(process.argv.slice(2));
  if (!options) {
    process.stdout.write(`${USAGE}\n`);
    return 0;
  }
  const started = performance.now();
  const nodeStart = await nodeStartMs();
  process.stderr.write(`docket bench: ${options.runs} run(s) per row; node -e 0 takes ${Math.round(nodeStart)} ms\n`);
  const rows = await runAll(options, nodeStart);
  const report: BenchReport = {
    format_version: 2,
    generated_at: new Date().toISOString(),
    node: process.versions.node,
    platform: `${process.platform}-${process.arch}`,
    cpus: cpus().length,
    cpu_model: cpus()[0]?.model.trim() ?? 'unknown',
    runs_per_row: options.runs,
    node_start_ms: round2(nodeStart),
    options: { quick: options.quick, scales: options.scales, rows: [...options.scaleRows, ...options.startUpRows] },
    notes: NOTES,
    rows,
    total_s: Math.round((performance.now() - started) / 1000),
  };
  process.stdout.write(renderTable(report));
  const jsonPath = resolve(options.json);
  await mkdir(dirname(jsonPath), { recursive: true });
  await writeFile(jsonPath, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`JSON: ${jsonPath}\n`);
  if (options.markdown) {
    const mdPath = resolve(options.markdown);
    await mkdir(dirname(mdPath), { recursive: true });
    await writeFile(mdPath, renderMarkdown(report));
    process.stdout.write(`markdown: ${mdPath}\n`);
  }
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
