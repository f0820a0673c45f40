/** The options of `npm run bench -- …`. */
import { parseArgs } from 'node:util';
import { SCALE_ROWS, type ScaleRow } from './group-scale.js';
import { START_UP_ROWS, type StartUpRow } from './group-start-up.js';
import { SCALE_NAMES, type ScaleName } from './shapes.js';

export const GROUPS = ['scales', 'start-up', 'scaling', 'rate-limit'] as const;
export type Group = (typeof GROUPS)[number];

export interface BenchOptions {
  quick: boolean;
  runs: number;
  groups: Group[];
  scales: ScaleName[];
  latencies: number[];
  scalingLatency: number;
  scaleRows: ScaleRow[];
  startUpRows: StartUpRow[];
  json: string;
  markdown: string | undefined;
}

export const USAGE = `npm run bench [-- OPTIONS]

  --quick               the 100 and 2,000 scales and the start-up rows, 1 run each (a few minutes)
  --runs N              repetitions per row (default 3; 1 with --quick)
  --groups LIST         of ${GROUPS.join(',')} (default all; with --quick: scales,start-up)
  --scales LIST         of ${SCALE_NAMES.join(',')} (default all; with --quick: s100,s2000)
  --latencies LIST      emulator latencies in ms for the scale rows (default 0,20)
  --scaling-latency MS  emulator latency of the scaling rows (default 20)
  --rows LIST           scale rows, of ${SCALE_ROWS.join(',')}, and start-up rows, of ${START_UP_ROWS.join(',')} (default all)
  --json FILE           the JSON report (default dist-bench/results.json)
  --markdown FILE       also write the table as markdown (for the README)
  --help`;

function list<T extends string>(value: string | undefined, allowed: readonly T[], fallback: readonly T[], what: string): T[] {
  if (value === undefined) return [...fallback];
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  for (const item of items) if (!(allowed as readonly string[]).includes(item)) throw new Error(`unknown ${what} "${item}" (one of ${allowed.join(', ')})`);
  return items as T[];
}

/** Parses argv (after `node run.js`); returns undefined for --help. */
export function parseOptions(argv: string[]): BenchOptions | undefined {
  const { values } = parseArgs({
    args: argv,
    options: {
      quick: { type: 'boolean', default: false },
      runs: { type: 'string' },
      groups: { type: 'string' },
      scales: { type: 'string' },
      latencies: { type: 'string' },
      'scaling-latency': { type: 'string', default: '20' },
      rows: { type: 'string' },
      json: { type: 'string', default: 'dist-bench/results.json' },
      markdown: { type: 'string' },
      help: { type: 'boolean', default: false },
    },
    allowPositionals: false,
  });
  if (values.help) return undefined;
  const quick = values.quick ?? false;
  const runs = values.runs === undefined ? (quick ? 1 : 3) : Number(values.runs);
  if (!Number.isInteger(runs) || runs < 1) throw new Error(`--runs must be a whole number of at least 1, got ${values.runs}`);
  const latencies = (values.latencies ?? '0,20').split(',').map(Number);
  if (latencies.some((l) => !Number.isFinite(l) || l < 0)) throw new Error(`--latencies must be numbers of ms, got ${values.latencies}`);
  const scalingLatency = Number(values['scaling-latency']);
  if (!Number.isFinite(scalingLatency) || scalingLatency < 0) throw new Error(`--scaling-latency must be a number of ms, got ${values['scaling-latency']}`);
  const allRows: readonly (ScaleRow | StartUpRow)[] = [...SCALE_ROWS, ...START_UP_ROWS];
  const rowNames: readonly string[] = list(values.rows, allRows, allRows, 'row');
  return {
    quick,
    runs,
    groups: list(values.groups, GROUPS, quick ? ['scales', 'start-up'] : GROUPS, 'group'),
    scales: list(values.scales, SCALE_NAMES, quick ? ['s100', 's2000'] : SCALE_NAMES, 'scale'),
    latencies,
    scalingLatency,
    scaleRows: SCALE_ROWS.filter((r) => rowNames.includes(r)),
    startUpRows: START_UP_ROWS.filter((r) => rowNames.includes(r)),
    json: values.json ?? 'dist-bench/results.json',
    markdown: values.markdown,
  };
}
