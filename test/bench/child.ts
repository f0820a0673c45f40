/**
 * Runs docket as users run it: `node bin/docket.js ARGS` in a process of its own, cold, with the
 * preload (preload.ts) reporting the child's CPU time and peak RSS. Wall time runs from just before
 * the spawn to the child's exit, so Node's start-up and module loading are included.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';

/** The repository root: this file is dist-bench/test/bench/child.js once compiled. */
export const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
export const DOCKET_BIN = join(REPO_ROOT, 'bin', 'docket.js');
const PRELOAD_URL = pathToFileURL(fileURLToPath(new URL('./preload.js', import.meta.url))).href;

/** Output kept from each stream: enough for the summary line and an error, bounded for 20,000-change plans. */
const KEEP_CHARS = 64 * 1024;

export interface ChildRun {
  code: number;
  wallMs: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  cpuMs: number;
  peakRssMb: number;
  /** The end of stdout and stderr. */
  stdout: string;
  stderr: string;
}

class Tail {
  private text = '';
  add(chunk: Buffer): void {
    this.text += chunk.toString('utf8');
    if (this.text.length > 2 * KEEP_CHARS) this.text = this.text.slice(-KEEP_CHARS);
  }
  value(): string {
    return this.text.slice(-KEEP_CHARS);
  }
}

const usageDir = mkdtempSync(join(tmpdir(), 'docket-bench-usage-'));
process.on('exit', () => rmSync(usageDir, { recursive: true, force: true }));
let runs = 0;

interface Usage {
  cpu_user_us: number;
  cpu_system_us: number;
  max_rss_kb: number;
}

/** Spawns `node [nodeArgs] bin/docket.js args`; env is the child's whole environment. */
export function runDocket(args: string[], env: Record<string, string>): Promise<ChildRun> {
  const usageFile = join(usageDir, `usage-${++runs}.json`);
  return runNode(['--import', PRELOAD_URL, DOCKET_BIN, ...args], { ...env, DOCKET_BENCH_USAGE_FILE: usageFile }).then(({ code, wallMs, stdout, stderr }) => {
    let usage: Usage;
    try {
      usage = JSON.parse(readFileSync(usageFile, 'utf8')) as Usage;
    } catch {
      throw new Error(`docket ${args.join(' ')} exited ${code} without reporting its resource usage\n${stderr.slice(-2000)}`);
    }
    rmSync(usageFile, { force: true });
    const cpuUserMs = usage.cpu_user_us / 1000;
    const cpuSystemMs = usage.cpu_system_us / 1000;
    return { code, wallMs, cpuUserMs, cpuSystemMs, cpuMs: cpuUserMs + cpuSystemMs, peakRssMb: usage.max_rss_kb / 1024, stdout, stderr };
  });
}

/** Spawns node with these arguments and waits for it to exit; wall time from spawn to exit. */
export function runNode(nodeArgs: string[], env: Record<string, string>): Promise<{ code: number; wallMs: number; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const out = new Tail();
    const err = new Tail();
    const t0 = performance.now();
    const child = spawn(process.execPath, nodeArgs, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let wallMs = 0;
    let code = -1;
    let exited = false;
    let closed = 0;
    const finish = (): void => {
      if (exited && closed === 2) resolve({ code, wallMs, stdout: out.value(), stderr: err.value() });
    };
    child.stdout.on('data', (c: Buffer) => out.add(c));
    child.stderr.on('data', (c: Buffer) => err.add(c));
    const onClose = (): void => {
      closed++;
      finish();
    };
    child.stdout.on('close', onClose);
    child.stderr.on('close', onClose);
    child.on('error', reject);
    child.on('exit', (c, signal) => {
      // Timed at exit: the parent draining the last of the pipes is not docket's time.
      wallMs = performance.now() - t0;
      code = c ?? (signal ? 128 : -1);
      exited = true;
      finish();
    });
  });
}

/** Wall time of starting an empty Node (`node -e 0`), the median of `times` runs. */
export async function nodeStartMs(times = 7): Promise<number> {
  const walls: number[] = [];
  for (let i = 0; i < times; i++) walls.push((await runNode(['-e', '0'], { PATH: process.env.PATH ?? '' })).wallMs);
  walls.sort((a, b) => a - b);
  return walls[Math.floor(walls.length / 2)] ?? 0;
}
