/** Where a path really leads (links followed), or the path as given when it cannot be resolved. */
import { realpathSync } from 'node:fs';

export function realPathOrSelf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}
