/**
 * Rate-limit rows: an apply of 500 creates against `docket emulator --rate-limit 20`, at
 * --concurrency 8 and 16, at latency 0 so the limit is the only thing in the way. Reported on top
 * of the usual columns: requests served per second (as a share of the limit) and the share of
 * requests refused with 429.
 */
import { expectApplied, resourceCount } from './checks.js';
import { EmulatorProcess } from './emulator-process.js';
import type { RowResult } from './report.js';
import { runScenario, type RowContext } from './scenario.js';
import { CREATES_500 } from './shapes.js';
import { Workspace } from './workspace.js';

export const RATE_LIMIT_RPS = 20;
export const RATE_LIMIT_CONCURRENCIES = [8, 16] as const;
/** The bucket holds RATE_LIMIT_RPS tokens and refills in a second; a little more for safety. */
const BUCKET_REFILL_MS = 1200;

export async function runRateLimit(base: Omit<RowContext, 'emulator' | 'dir'>): Promise<RowResult[]> {
  const shape = CREATES_500;
  const emulator = await EmulatorProcess.start({ latencyMs: 0, rateLimit: RATE_LIMIT_RPS });
  const ws = await Workspace.create(shape, emulator);
  const results: RowResult[] = [];
  try {
    for (const concurrency of RATE_LIMIT_CONCURRENCIES) {
      results.push(
        await runScenario(
          { ...base, emulator, dir: ws.dir },
          {
            id: `rate-limit/${shape.id}/conc${concurrency}`,
            group: 'rate-limit',
            label: `apply 500 creates at ${RATE_LIMIT_RPS} requests/s, --concurrency ${concurrency}`,
            shape,
            latencyMs: 0,
            concurrency,
            rateLimit: RATE_LIMIT_RPS,
            work: 'apply-from-empty',
            args: ['apply', '-C', ws.dir, '--auto-approve', '--concurrency', String(concurrency)],
            before: async () => {
              // A fresh organization (the control routes are not rate limited), and a full bucket.
              await ws.startOver();
              await new Promise((resolve) => setTimeout(resolve, BUCKET_REFILL_MS));
            },
            check: expectApplied(resourceCount(shape)),
          },
        ),
      );
    }
  } finally {
    await emulator.stop();
    await ws.remove();
  }
  return results;
}
