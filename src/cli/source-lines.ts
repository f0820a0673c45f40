/** Lines of the configuration's files for diagnostics on a terminal; read once each, on demand. */
import { readRegularFileSync } from '../util/special-file.js';
import { resolve, sep } from 'node:path';
import type { SourceLine } from '../render/diagnostics-text.js';

export function sourceLines(root: string): SourceLine {
  const files = new Map<string, string[] | undefined>();
  const base = resolve(root);
  return (file, line) => {
    if (!files.has(file)) {
      const path = resolve(base, file);
      let lines: string[] | undefined;
      // Only files of the configuration: a diagnostic names nothing else, but never read outside it.
      if (path.startsWith(base + sep)) {
        try {
          lines = readRegularFileSync(path).toString('utf8').split(/\r\n?|\n/);
        } catch {
          lines = undefined;
        }
      }
      files.set(file, lines);
    }
    return files.get(file)?.[line - 1];
  };
}
