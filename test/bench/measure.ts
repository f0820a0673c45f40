/**
 * Wall time, CPU time and peak memory of one async task. CPU time is process.cpuUsage (user +
 * system) and memory is process-wide: with the emulator in-process both include its share.
 * Memory is sampled every 10 ms, plus once before and once after; a sample is late while the
 * event loop is blocked, so a short peak inside long synchronous work can be missed.
 */
import { performance } from 'node:perf_hooks';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/**
 * A full garbage collection before each scenario, so the starting heap and RSS are what is
 * retained rather than garbage of the previous scenario. (Not right before the timed run: the
 * collection shrinks the young generation, and the run would then pay for regrowing it.) `npm run bench` runs node without
 * --expose-gc; the flag set at run time exposes gc() to new contexts.
 */
function findGc(): (() => void) | undefined {
  const exposed: unknown = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return () => void (exposed as () => unknown)();
  try {
    setFlagsFromString('--expose-gc');
    const fn: unknown = runInNewContext('gc');
    if (typeof fn === 'function') return () => void (fn as () => unknown)();
  } catch {
    // No gc: measurements start from whatever the heap holds.
  }
  return undefined;
}

const gc = findGc();
export const gcAvailable = gc !== undefined;

/** A full collection, when gc() could be found. */
export function collectGarbage(): void {
  gc?.();
}

export interface Measurement<T> {
  value: T;
  wallMs: number;
  cpuMs: number;
  cpuUserMs: number;
  cpuSystemMs: number;
  rssStartBytes: number;
  peakRssBytes: number;
  heapStartBytes: number;
  peakHeapUsedBytes: number;
  memorySamples: number;
}

const SAMPLE_EVERY_MS = 10;

export async function measure<T>(task: () => Promise<T>): Promise<Measurement<T>> {
  const start = process.memoryUsage();
  let peakRss = start.rss;
  let peakHeap = start.heapUsed;
  let samples = 1;
  const sample = (): void => {
    const m = process.memoryUsage();
    samples++;
    if (m.rss > peakRss) peakRss = m.rss;
    if (m.heapUsed > peakHeap) peakHeap = m.heapUsed;
  };
  const timer = setInterval(sample, SAMPLE_EVERY_MS);
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let value: T;
  try {
    value = await task();
  } finally {
    clearInterval(timer);
  }
  const wallMs = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  sample();
  return {
    value,
    wallMs,
    cpuMs: (cpu.user + cpu.system) / 1000,
    cpuUserMs: cpu.user / 1000,
    cpuSystemMs: cpu.system / 1000,
    rssStartBytes: start.rss,
    peakRssBytes: peakRss,
    heapStartBytes: start.heapUsed,
    peakHeapUsedBytes: peakHeap,
    memorySamples: samples,
  };
}
