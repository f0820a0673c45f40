/**
 * The standalone emulator (`docket emulator --port 0`) as a child process, driven through its
 * control routes. Its CPU time is read from /proc/PID/stat (utime + stime, in clock ticks), so it
 * is the emulator's own, not the benchmark's; Linux only, which the benchmark says when absent.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { DOCKET_BIN } from './child.js';

export const ORGANIZATION_ID = '00000000-0000-4000-8000-000000000001';
export const API_KEY = 'docket-emulator-key';

/** USER_HZ, the unit of utime and stime in /proc/PID/stat (100 on x86 and arm64 Linux). */
function clockTicksPerSecond(): number {
  try {
    const n = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim());
    return Number.isFinite(n) && n > 0 ? n : 100;
  } catch {
    return 100;
  }
}
const CLOCK_TICKS_PER_SECOND = clockTicksPerSecond();

/** GET /_emulator/stats (src/emulator/stats.ts). */
export interface EmulatorStats {
  requests: { total: number; by_route: Record<string, number> };
  faults_injected: number;
  rate_limited: number;
}

export interface EmulatorSettings {
  latencyMs: number;
  /** Requests per second; 0: none. */
  rateLimit?: number;
}

export class EmulatorProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  static async start(settings: EmulatorSettings): Promise<EmulatorProcess> {
    const args = [DOCKET_BIN, 'emulator', '--port', '0', '--latency', String(settings.latencyMs)];
    if (settings.rateLimit) args.push('--rate-limit', String(settings.rateLimit));
    const child = spawn(process.execPath, args, { env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      let err = '';
      const timer = setTimeout(() => reject(new Error(`the emulator printed no URL within 15 s\n${out}\n${err}`)), 15_000);
      child.stderr?.on('data', (c: Buffer) => (err += c.toString()));
      child.stdout?.on('data', (c: Buffer) => {
        out += c.toString();
        const found = /listening on (http:\/\/\S+)/.exec(out)?.[1];
        if (found) {
          clearTimeout(timer);
          resolve(found);
        }
      });
      child.on('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the emulator exited (${code}) before printing its URL\n${out}\n${err}`));
      });
    });
    // Keep draining its output so a full pipe never blocks it.
    child.stdout?.resume();
    child.stderr?.resume();
    return new EmulatorProcess(child, url);
  }

  /** The DOCKET_* variables that point docket at this emulator. */
  env(): Record<string, string> {
    return {
      DOCKET_REVIEW_URL: `${this.url}/review`,
      DOCKET_AGREEMENTS_URL: `${this.url}/agreements`,
      DOCKET_ORGANIZATION_ID: ORGANIZATION_ID,
      DOCKET_API_KEY: API_KEY,
    };
  }

  /** Back to the seed: the organization with the example users (new user ids each time) and nothing else. */
  async reset(): Promise<void> {
    await this.control('POST', '/reset');
  }

  async stats(): Promise<EmulatorStats> {
    return (await this.control('GET', '/stats')) as EmulatorStats;
  }

  async configure(patch: { latency_ms?: number; rate_limit?: number }): Promise<void> {
    await this.control('PUT', '/config', patch);
  }

  /** utime + stime of the emulator process so far, in ms; undefined where /proc is missing. */
  cpuMs(): number | undefined {
    const pid = this.child.pid;
    if (pid === undefined) return undefined;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // Fields after the command name, which is in parentheses and may hold spaces: utime and stime are fields 14 and 15.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      return Number.isFinite(ticks) ? (ticks * 1000) / CLOCK_TICKS_PER_SECOND : undefined;
    } catch {
      return undefined;
    }
  }

  async stop(): Promise<void> {
    if (this.child.exitCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }

  private async control(method: string, path: string, body?: unknown): Promise<unknown> {
    const init: RequestInit = { method };
    if (body !== undefined) {
      init.body = JSON.stringify(body);
      init.headers = { 'content-type': 'application/json' };
    }
    const res = await fetch(`${this.url}/_emulator${path}`, init);
    const text = await res.text();
    if (!res.ok) throw new Error(`emulator ${method} /_emulator${path}: HTTP ${res.status} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  }
}

/** Requests made between two statistics snapshots (the emulator's counters only grow until a reset). */
export function statsDelta(before: EmulatorStats, after: EmulatorStats): EmulatorStats {
  const byRoute: Record<string, number> = {};
  for (const [route, n] of Object.entries(after.requests.by_route)) {
    const d = n - (before.requests.by_route[route] ?? 0);
    if (d > 0) byRoute[route] = d;
  }
  return {
    requests: { total: after.requests.total - before.requests.total, by_route: byRoute },
    faults_injected: after.faults_injected - before.faults_injected,
    rate_limited: after.rate_limited - before.rate_limited,
  };
}
