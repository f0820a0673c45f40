/**
 * Lines of the configuration's files, for messages that quote them (a terminal's line under an
 * error, `-o json`'s excerpt, how a number was written); read once each, on demand, as the loader
 * decoded them (past a byte-order mark, so columns on line 1 agree).
 */
import { resolve, sep } from 'node:path';
import { readRegularFileSync } from '../util/special-file.js';

export type SourceLine = (file: string, line: number) => string | undefined;

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
          lines = readRegularFileSync(path).toString('utf8').replace(/^\uFEFF/, '').split(/\r\n?|\n/);
        } catch {
          lines = undefined;
        }
      }
      files.set(file, lines);
    }
    return files.get(file)?.[line - 1];
  };
}
