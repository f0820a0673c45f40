/** The nearest path at or above `dir` that exists: where creating `dir` (with its parents) would start. */
import type { Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/** Undefined when nothing above exists (not even the root); `stats` says whether it is a folder. */
export async function nearestExisting(dir: string): Promise<{ path: string; stats: Stats } | undefined> {
  for (let d = dir; ; d = dirname(d)) {
    const stats = await stat(d).catch(() => undefined);
    if (stats) return { path: d, stats };
    if (dirname(d) === d) return undefined;
  }
}
