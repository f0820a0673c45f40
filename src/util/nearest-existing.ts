/** The nearest path at or above `dir` that exists: where creating `dir` (with its parents) would start. */
import type { Stats } from 'node:fs';
import { lstat, stat } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Undefined when nothing above exists (not even the root); `stats` says whether it is a folder.
 * A symbolic link to nothing on the way is where creating stops (`dangling`): mkdir cannot go
 * through it, so a write there fails after the work, not before.
 */
export async function nearestExisting(dir: string): Promise<{ path: string; stats: Stats; dangling?: true } | undefined> {
  for (let d = dir; ; d = dirname(d)) {
    const stats = await stat(d).catch(() => undefined);
    if (stats) return { path: d, stats };
    const link = await lstat(d).catch(() => undefined);
    if (link?.isSymbolicLink()) return { path: d, stats: link, dangling: true };
    if (dirname(d) === d) return undefined;
  }
}
