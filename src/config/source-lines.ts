/**
 * Lines of the configuration's files, for messages that quote them (a terminal's line under an
 * error, `-o json`'s excerpt, how a number was written); read once each, on demand, as the loader
 * decoded them (past a byte-order mark, so columns on line 1 agree).
 */
import { realPathOrSelf } from '../util/real-path.js';
import { resolve, sep } from 'node:path';
import { readRegularFileSync } from '../util/special-file.js';
import { isInside, rootRelative } from './data-files.js';
import { skippedPartOf } from './not-read.js';

export type SourceLine = (file: string, line: number) => string | undefined;
/** Line `n` (1-based) of one file. */
export type LineOf = (line: number) => string | undefined;

export function sourceLines(root: string): SourceLine {
  const files = new Map<string, string[] | undefined>();
  const base = resolve(root);
  let realBase: string | undefined;
  return (file, line) => {
    if (!files.has(file)) {
      const path = resolve(base, file);
      let lines: string[] | undefined;
      // Only files of the configuration, links followed: a diagnostic may name a link that leads
      // out of it (file-outside-config), whose text (`/proc/self/environ`) must not be quoted, or
      // into what docket does not read (`.env`, `.git/config`: second read SR71-1).
      const real = realPathOrSelf(path);
      realBase ??= realPathOrSelf(base);
      const linked = rootRelative(realBase, real);
      const linkedAway = linked !== file && skippedPartOf(linked) !== undefined;
      if (path.startsWith(base + sep) && isInside(realBase, real) && !linkedAway) {
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

/**
 * The lines a document's own messages quote: its text as it was read or would be written (what pull
 * checks before it writes: probe HV-2), other files' as the configuration's are.
 */
export function documentLines(doc: { file: string; text?: () => string }, root: string): SourceLine {
  const own = doc.text ? lazyLines(doc.text) : undefined;
  const others = sourceLines(root);
  return (file, line) => (own && file === doc.file ? own(line) : others(file, line));
}

/**
 * Line `n` (1-based) of `text`, without its line end; a lone CR ends a line too, as positions
 * count it. Split on the first question, so a file asked nothing costs nothing.
 */
export function linesIn(text: string): LineOf {
  let lines: string[] | undefined;
  return (line) => (lines ??= text.split(/\r\n?|\n/))[line - 1];
}

/** As linesIn, for a text read only when a line is first asked for. */
export function lazyLines(read: () => string): LineOf {
  let lineOf: LineOf | undefined;
  return (line) => (lineOf ??= linesIn(read()))(line);
}
