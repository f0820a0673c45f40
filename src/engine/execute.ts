/**
 * The executor: runs a plan's changes with bounded parallelism. A change starts once everything it
 * depends on is done; when one fails, its dependents are skipped and the rest goes on.
 */
import type { ApplyReport, Change, ChangeResult, Plan } from './types.js';

export interface ExecuteOptions {
  concurrency: number;
  run: (change: Change) => Promise<void>;
  /** Milliseconds, monotonic; injected so tests are deterministic. */
  clock: () => number;
  onResult?: (result: ChangeResult, change: Change) => void;
}

export async function executePlan(plan: Plan, options: ExecuteOptions): Promise<ApplyReport> {
  const started = options.clock();
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const results = new Map<string, ChangeResult>();
  const pending = [...plan.changes];
  const running = new Map<string, Promise<void>>();
  const limit = Math.max(1, options.concurrency);
  /** Skipped change → the failed change that caused the skip. */
  const failedRoot = new Map<string, string>();

  const finish = (change: Change, result: ChangeResult): void => {
    results.set(change.id, result);
    options.onResult?.(result, change);
  };

  const blockedBy = (change: Change): string | undefined =>
    change.dependsOn.find((id) => {
      const r = results.get(id);
      return r !== undefined && r.status !== 'done';
    });
  const isReady = (change: Change): boolean => change.dependsOn.every((id) => results.get(id)?.status === 'done' || !byId.has(id));

  for (;;) {
    // Skip what can no longer run, in plan order so transitive skips resolve in one sweep.
    for (let i = 0; i < pending.length; ) {
      const change = pending[i]!;
      const blocker = blockedBy(change);
      if (blocker) {
        pending.splice(i, 1);
        // Name the change that failed, also when the blocker was itself skipped because of it.
        const failed = failedRoot.get(blocker) ?? blocker;
        failedRoot.set(change.id, failed);
        const via = failed === blocker ? '' : ` (through ${blocker})`;
        finish(change, { changeId: change.id, status: 'skipped', message: `depends on ${failed}, which failed${via}`, ms: 0 });
        i = 0;
        continue;
      }
      i++;
    }
    while (running.size < limit) {
      const index = pending.findIndex(isReady);
      if (index < 0) break;
      const change = pending.splice(index, 1)[0]!;
      const t0 = options.clock();
      const task = options
        .run(change)
        .then(
          () => finish(change, { changeId: change.id, status: 'done', ms: Math.round(options.clock() - t0) }),
          (error: unknown) =>
            finish(change, {
              changeId: change.id,
              status: 'failed',
              message: error instanceof Error ? error.message : String(error),
              ms: Math.round(options.clock() - t0),
            }),
        )
        .finally(() => running.delete(change.id));
      running.set(change.id, task);
    }
    if (running.size === 0) break;
    await Promise.race(running.values());
  }
  // Anything left waits on something that never ran (a dependency outside the plan cannot happen,
  // but stay total rather than hang).
  for (const change of pending) finish(change, { changeId: change.id, status: 'skipped', message: 'its dependencies never completed', ms: 0 });

  const ordered = plan.changes.map((c) => results.get(c.id)!);
  return {
    results: ordered,
    done: ordered.filter((r) => r.status === 'done').length,
    failed: ordered.filter((r) => r.status === 'failed').length,
    skipped: ordered.filter((r) => r.status === 'skipped').length,
    ms: Math.round(options.clock() - started),
  };
}
