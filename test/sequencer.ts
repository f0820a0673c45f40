/**
 * The order test files start in when vitest has not timed them yet (a fresh clone, as CI runs).
 * vitest then starts the largest files first, which on two cores left files that wait on child
 * processes, signals and time budgets for the end, where nothing overlaps their waits: a cold run
 * took 20–25 % longer than a warm one. Here the files that wait start first (the safety runs, then
 * the other integration tests) and the quick unit tests fill in behind them. Once vitest has timed
 * every file, its own order (the longest first) is kept.
 */
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Lower starts sooner. */
function waitRank(moduleId: string): number {
  const parts = moduleId.split(/[\\/]/);
  if (parts.includes('safety')) return 0;
  if (parts.includes('integration')) return 1;
  return 2;
}

export class WaitsFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const timed = await super.sort(files);
    const cache = this.ctx.cache;
    // As vitest keys its results: the path from the root, with forward slashes.
    const key = (f: TestSpecification): string => `${f.project.name}:${path.relative(this.ctx.config.root, f.moduleId).split(path.sep).join('/')}`;
    if (timed.every((f) => cache.getFileTestResults(key(f)))) return timed;
    // Stable: within a rank, vitest's order is kept (the largest first, or the longest first among files it has timed).
    return [...timed].sort((a, b) => waitRank(a.moduleId) - waitRank(b.moduleId));
  }
}
