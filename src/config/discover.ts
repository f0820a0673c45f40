/** Finds the YAML files of a configuration directory and reads them. */
import { DANGLING_LINK, LOOPING_LINK, NOT_REGULAR_FILE, readRegularFileSync } from '../util/special-file.js';
import { readdir, realpath, stat } from 'node:fs/promises';
import { writeDestination } from '../util/atomic-write.js';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { isInside, readInside, rootRelative } from './data-files.js';
import { quoteValue } from './quote.js';
import { lineColumnsOf } from '../util/line-columns.js';
import { rememberBomColumns } from './bom-columns.js';
import { isProjectFile } from './project-files.js';
import { isNotReadName, skippedPartOf } from './not-read.js';
import { deniedOrCode } from '../util/permission.js';

const YAML_FILE = /\.ya?ml$/i;

/** Whether a file name is a YAML file's, as discovery reads them (`.yaml`/`.yml`, any case). */
export function isYamlName(file: string): boolean {
  return YAML_FILE.test(file);
}

/** `*.test.yaml` files anywhere below the directory are `docket test` files, not resources. */
const TEST_FILE = /\.test\.ya?ml$/i;

export function isTestFile(file: string): boolean {
  return TEST_FILE.test(file);
}

/** Whether discovery reads the file at a root-relative path (`/` separators) as part of the configuration. */
export function readAsConfiguration(rel: string): boolean {
  return YAML_FILE.test(rel) && skippedPartOf(rel) === undefined;
}

/** The YAML files below a directory, and the folders and links that could not be read. */
export interface Discovered {
  files: string[];
  problems: Diagnostic[];
  /** Each file of `files` that is a symbolic link, with the root-relative file it leads to. */
  links: Map<string, string>;
}

/**
 * Every `*.yaml`/`*.yml` below `root`, as paths relative to it with `/` separators, sorted so
 * that output is the same on every machine. Sibling directories are listed in parallel. A folder
 * that cannot be listed, or a `*.yaml` link that leads nowhere, is a problem: skipping it would
 * silently drop what it declares. `below: false` looks in `root` alone.
 */
export async function discoverYamlFiles(root: string, match: RegExp = YAML_FILE, below = true): Promise<Discovered> {
  const found: string[] = [];
  const problems: Diagnostic[] = [];
  const links = new Map<string, string>();
  let realRoot: Promise<string> | undefined;
  const rootReal = (): Promise<string> => (realRoot ??= realpath(root).catch(() => root));
  async function walk(relDir: string): Promise<void> {
    const entries = await readdir(path.join(root, relDir), { withFileTypes: true }).catch((error: unknown) => {
      problems.push(unreadableFile(relDir === '' ? '.' : relDir, error));
      return [];
    });
    const subdirs: Promise<void>[] = [];
    for (const entry of entries) {
      // A dot-file as a dot-folder (an editor's `.#x.yaml` lock, macOS's `._x.yaml`), and what a link so named leads to.
      if (isNotReadName(entry.name)) continue;
      const rel = relDir === '' ? entry.name : `${relDir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (below) subdirs.push(walk(rel));
      } else if (match.test(entry.name) && (entry.isFile() || (entry.isSymbolicLink() && (await isLinkedFile(root, rel, rootReal, problems, links))))) {
        // A symlinked file is read like any other; symlinked folders are not followed (they can loop).
        found.push(rel);
      } else if (match.test(entry.name) && !entry.isSymbolicLink()) {
        // A named pipe would be read for ever; skipped, what it declares would silently go.
        problems.push(notRegularFile(rel));
      } else if (below && entry.isSymbolicLink()) {
        subdirs.push(linkedFolderProblem(root, rel, rootReal).then((problem) => void (problem && problems.push(problem))));
      }
    }
    await Promise.all(subdirs);
  }
  await walk('');
  // Plain code-unit order, not locale order: the same on every machine and CI runner.
  // Problems in the order of their files, as the files are: folders are walked at once, and found in any order.
  const byFile = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);
  return { files: found.sort(byFile), problems: problems.sort((a, b) => byFile(a.file ?? '', b.file ?? '')), links };
}

/**
 * A link to a folder holding YAML files: not followed (links to folders can loop), and skipped
 * without a word, what its files declare would be left out and `--prune` would archive it. Not
 * one to a folder of the configuration read where it is (its files are read through their own path).
 */
async function linkedFolderProblem(root: string, rel: string, rootReal: () => Promise<string>): Promise<Diagnostic | undefined> {
  const target = path.join(root, rel);
  const isFolder = await stat(target).then((info) => info.isDirectory(), () => false);
  if (!isFolder) return undefined;
  const real = await realpath(target).catch(() => target);
  const realRoot = await rootReal();
  if (readInside(realRoot, real)) return undefined;
  const holds = await holdsYaml(target);
  if (holds === 'no') return undefined;
  const why = holds === 'yes' ? 'the YAML files in it would be left out' : `it holds more than ${LINKED_FOLDER_LOOK.toLocaleString('en-US')} entries, not all looked through, and YAML files in it would be left out`;
  return {
    severity: 'error',
    code: 'linked-folder',
    message: `${rel} is a symbolic link to the folder ${quoteValue(real)}, which docket does not follow: ${why}, and \`--prune\` would archive what they declare`,
    file: rel,
    line: 1,
    col: 1,
    hint: 'copy the folder into the configuration directory instead of linking to it (or move the link into a folder whose name starts with "." if it holds no configuration)',
  };
}

/** Folders and files looked at, at most, to tell whether a linked folder holds YAML. */
const LINKED_FOLDER_LOOK = 10_000;

/** Whether a folder holds a YAML file below it, as discovery would read it (links in it not followed); `unknown` past the look. */
async function holdsYaml(dir: string): Promise<'yes' | 'no' | 'unknown'> {
  const pending = [dir];
  let looked = 0;
  while (pending.length > 0) {
    const folder = pending.pop()!;
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries) {
      if (isNotReadName(entry.name)) continue;
      if (YAML_FILE.test(entry.name) && !entry.isDirectory()) return 'yes';
      if (++looked > LINKED_FOLDER_LOOK) return 'unknown';
      if (entry.isDirectory()) pending.push(path.join(folder, entry.name));
    }
  }
  return 'no';
}

/**
 * Whether a `*.yaml` link leads to a file inside the configuration directory (recorded in `links`:
 * a data file that is a link to docket.yaml is docket's input as much as docket.yaml). A link that loops or
 * dangles is a problem, and so is one that leads out of the directory: a pull request could
 * otherwise have validate print a CI runner's files (`/proc/self/environ`) in its messages.
 */
async function isLinkedFile(root: string, rel: string, rootReal: () => Promise<string>, problems: Diagnostic[], links: Map<string, string>): Promise<boolean> {
  try {
    const target = path.join(root, rel);
    const info = await stat(target);
    if (!info.isFile()) {
      if (!info.isDirectory()) problems.push(notRegularFile(rel));
      return false;
    }
    const real = await realpath(target);
    const realRoot = await rootReal();
    if (!isInside(realRoot, real)) {
      problems.push(outsideConfig(rel, real));
      return false;
    }
    const linked = rootRelative(realRoot, real);
    // Into what docket does not read (`.env`, `.git/config`): not read, nor a line of it quoted (second read SR71-1).
    if (skippedPartOf(linked) !== undefined) {
      problems.push({ ...outsideConfig(rel, real), message: `${rel} is a link to ${quoteValue(linked)}, which docket does not read as configuration (dot-files, dot-folders and node_modules hold local or other tools' files)`, hint: 'copy the file into a folder of the configuration instead of linking to it' });
      return false;
    }
    links.set(rel, linked);
    return true;
  } catch (error) {
    problems.push(unreadableFile(rel, error));
    return false;
  }
}

/**
 * The error for a file of the configuration whose real path (links followed) is outside it, or
 * would be once written (a link to nothing yet, a folder on the way that is a link): undefined
 * when it is inside. Throws what realpath throws but for a file not there (a loop).
 */
export async function linkOutside(root: string, rel: string, rootReal: () => Promise<string> = () => realpath(root).catch(() => root)): Promise<Diagnostic | undefined> {
  const real = writeDestination(path.join(root, rel));
  return isInside(await rootReal(), real) ? undefined : outsideConfig(rel, real);
}

/** Where a file docket writes (its lock) leads through links, when it is a link: never quoted from when it is not docket's to read. */
export interface WrittenLinkPlace {
  /** It leads out of the configuration directory (or would, once written). */
  outside?: Diagnostic;
  /** It leads where docket reads nothing (a dot-file such as `.env`, a dot-folder, node_modules): no more to be quoted than outside. */
  unread?: string;
  /** It leads to a file docket reads as configuration (`*.yaml`): a write would replace that file. */
  configuration?: string;
}

/** Where `rel` leads through links, or would once written; nothing when it is no link. */
export async function writtenLinkPlace(root: string, rel: string): Promise<WrittenLinkPlace> {
  const realRoot = await realpath(root).catch(() => root);
  // Followed once: linkOutside's question, then where inside it leads.
  const real = writeDestination(path.join(root, rel));
  if (!isInside(realRoot, real)) return { outside: outsideConfig(rel, real) };
  const linked = rootRelative(realRoot, real);
  if (linked === rel) return {};
  if (skippedPartOf(linked) !== undefined) return { unread: linked };
  return readAsConfiguration(linked) ? { configuration: linked } : {};
}

function outsideConfig(rel: string, real: string): Diagnostic {
  return {
    severity: 'error',
    code: 'file-outside-config',
    message: `${rel} is a link to ${quoteValue(real)}, which is outside the configuration directory`,
    file: rel,
    line: 1,
    col: 1,
    hint: 'copy the file into the configuration directory instead of linking to it',
  };
}

const LINK_REASONS: Record<string, string> = {
  ELOOP: LOOPING_LINK,
  ENOENT: DANGLING_LINK,
};

/** The error for a file or folder of the configuration that cannot be read. */
export function unreadableFile(file: string, error: unknown): Diagnostic {
  const code = (error as NodeJS.ErrnoException).code ?? 'unknown error';
  // Made a named pipe or a device after the folder was listed.
  if (code === 'ENOTREGULAR') return notRegularFile(file);
  // A name of bytes that are not UTF-8 is listed with U+FFFD in their place, a name no file has (probe LU-2).
  if (code === 'ENOENT' && file.includes('\ufffd')) {
    return { severity: 'error', code: 'unreadable-file', message: `${file} cannot be read: its name (or a folder's on its path) is not UTF-8, shown here with \ufffd`, file, line: 1, col: 1, hint: 'rename it in UTF-8 (a name saved in another encoding, such as Latin-1), or move it out of the configuration directory' };
  }
  return {
    severity: 'error',
    code: 'unreadable-file',
    message: `${file} cannot be read (${LINK_REASONS[code] ?? deniedOrCode(code)})`,
    file,
    line: 1,
    col: 1,
    // docket.yaml is the configuration's own: moved out, there is no configuration left.
    hint: isProjectFile(file) ? 'make it readable, or fix the link' : 'make it readable, fix or remove the link, or move it out of the configuration directory',
  };
}

function notRegularFile(file: string): Diagnostic {
  return { severity: 'error', code: 'unreadable-file', message: `${file} ${NOT_REGULAR_FILE}`, file, line: 1, col: 1, hint: isProjectFile(file) ? 'replace it with a regular file' : 'replace it with a regular file, or move it out of the configuration directory' };
}

/** A file's text, or where its bytes stop being UTF-8 (`nul`: a stray NUL byte in UTF-8 text, which YAML does not allow). */
export type DecodedText = { text: string } | { invalidAt: { line: number; col: number }; nul?: true; utf16?: true };

/** Decoded text, or why the file could not be read. */
export type ReadText = DecodedText | { unreadable: unknown };

const STRICT = new TextDecoder('utf-8', { fatal: true });
/** For text known to be UTF-8 whose byte-order marks withoutDocumentBoms decides about. */
const KEEPING_BOM = new TextDecoder('utf-8', { ignoreBOM: true });
/** A document marker line (`---` or `...`, then a space, a tab or the line's end). */
const MARKER_LINE = /^(?:---|\.\.\.)(?:[ \t\r]|$)/;
/** A blank or comment line. */
const QUIET_LINE = /^[ \t]*(?:#.*)?\r?$/;

/**
 * Reads files one after another, synchronously: for a checkout on a local disk, a few thousand
 * small files read this way take a fraction of the CPU that as many promise-based reads (open,
 * stat, read, close, each a round trip through the thread pool) do. Decoded strictly: a byte that
 * is not UTF-8 is reported, not turned into U+FFFD.
 */
export function readFiles(root: string, files: string[]): ReadText[] {
  return files.map((file) => {
    try {
      return decodeYaml(readRegularFileSync(path.join(root, file)), file);
    } catch (error) {
      return { unreadable: error };
    }
  });
}

/**
 * `text` without the byte-order marks that start its documents' content, as docket reads a file;
 * with `file`, the lines that lose one are remembered for its columns (bom-columns.ts).
 */
export function withoutDocumentBoms(text: string, file?: string): string {
  if (!text.includes('\ufeff')) {
    if (file !== undefined) rememberBomColumns(file, text, undefined);
    return text;
  }
  const stripped = stripDocumentBoms(text);
  if (file !== undefined) rememberBomColumns(file, stripped.text, stripped.shifts);
  return stripped.text;
}

/**
 * Each byte-order mark (or run of them) that starts a line of a document's prefix, dropped: a line
 * that only a marker line, comments and blank lines come before in its document (or the file's
 * start: a header comment joined before a file an editor saved with one), or that only comments
 * and blank lines come after before a marker (`cat a.yaml b.yaml` of a b.yaml starting so). One
 * pass each way over the lines: a file of many marks costs no more than its length.
 */
function stripDocumentBoms(text: string): { text: string; shifts?: Map<number, number> } {
  const lines = text.split('\n');
  const bare = (line: string): string => line.replace(/^\ufeff+/, '');
  // markerAhead[i]: from line i on, only blank and comment lines come before a marker line.
  const markerAhead: boolean[] = new Array<boolean>(lines.length + 1).fill(false);
  for (let i = lines.length - 1; i >= 0; i--) {
    const line = bare(lines[i]!);
    markerAhead[i] = MARKER_LINE.test(line) || (QUIET_LINE.test(line) && markerAhead[i + 1]!);
  }
  let inPrefix = true;
  let shifts: Map<number, number> | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.charCodeAt(0) === 0xfeff && (inPrefix || markerAhead[i])) {
      const kept = bare(lines[i]!);
      // Past the first line (whose mark the decoder drops, as editors hide it), an editor counts each as a column.
      if (i > 0) (shifts ??= new Map()).set(i + 1, lines[i]!.length - kept.length);
      lines[i] = kept;
    }
    const line = lines[i]!;
    if (MARKER_LINE.test(line)) inPrefix = true;
    else if (!QUIET_LINE.test(line)) inPrefix = false;
  }
  return { text: lines.join('\n'), ...(shifts ? { shifts } : {}) };
}

export function decodeStrict(bytes: Uint8Array, file?: string): DecodedText {
  try {
    const text = STRICT.decode(bytes);
    // The decoder drops a byte-order mark that starts the file; YAML allows one at the start of
    // every document of a stream too (files concatenated by a tool), where the parser would take it
    // for text of the first key.
    return { text: withoutDocumentBoms(text, file) };
  } catch {
    return startsAsUtf16(bytes) ? { invalidAt: { line: 1, col: 1 }, utf16: true } : { invalidAt: firstInvalid(bytes) };
  }
}

/** Windows Notepad's "Unicode" is UTF-16, which starts with FF FE or FE FF: said as such, as of a data file (probe MU-5). */
function startsAsUtf16(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
}

/** The error for a YAML file that is not UTF-8, at its first bad byte, or that holds a stray NUL byte there. */
export function invalidUtf8(file: string, decoded: Extract<DecodedText, { invalidAt: unknown }>): Diagnostic {
  const at = decoded.invalidAt;
  if (decoded.nul) {
    return { severity: 'error', code: 'control-character', message: `${file} holds a NUL byte (U+0000), which a YAML file may not hold`, file, ...at, hint: 'delete it (editors show it as ^@ or \\0)' };
  }
  if (decoded.utf16) return { severity: 'error', code: 'invalid-utf8', message: `${file} is UTF-16 text, not UTF-8`, file, ...at, hint: 'save the file as UTF-8 (in Notepad: Save as, Encoding: UTF-8)' };
  return { severity: 'error', code: 'invalid-utf8', message: `${file} is not valid UTF-8`, file, ...at, hint: 'save the file as UTF-8' };
}

/**
 * A YAML file's text: NUL is UTF-8 but no YAML, and a file full of them is UTF-16 saved without a
 * byte-order mark, which would read as one value of NULs and letters. A few in UTF-8 text are
 * stray bytes, said as such: "not valid UTF-8" sent users to re-save a file that was.
 */
export function decodeYaml(bytes: Uint8Array, file?: string): DecodedText {
  if (!bytes.includes(0)) return decodeStrict(bytes, file);
  if (startsAsUtf16(bytes)) return { invalidAt: { line: 1, col: 1 }, utf16: true };
  const invalidAt = firstInvalid(bytes, true);
  return nulsAreStray(bytes) && 'text' in decodeStrict(bytes) ? { invalidAt, nul: true } : { invalidAt };
}

/** Fewer NULs than one byte in eight: UTF-16 text has one in every other byte of its ASCII. */
function nulsAreStray(bytes: Uint8Array): boolean {
  let nuls = 0;
  for (const b of bytes) if (b === 0) nuls++;
  return nuls * 8 < bytes.length;
}

/**
 * Line and column of the first byte sequence that is not UTF-8 (or the first NUL, when
 * `stopAtNul`), as every other position is said: in UTF-16 units, a lone CR a line break, and the
 * byte-order marks docket does not read (withoutDocumentBoms) no column (probe PY-2).
 */
function firstInvalid(bytes: Uint8Array, stopAtNul = false): { line: number; col: number } {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i]!;
    if (b === 0 && stopAtNul) break;
    const size = b < 0x80 ? 1 : b >= 0xc2 && b < 0xe0 ? 2 : b >= 0xe0 && b < 0xf0 ? 3 : b >= 0xf0 && b < 0xf5 ? 4 : 0;
    if (size === 0 || i + size > bytes.length) break;
    try {
      STRICT.decode(bytes.subarray(i, i + size));
    } catch {
      break;
    }
    i += size;
  }
  // Everything before it is UTF-8.
  const before = withoutDocumentBoms(KEEPING_BOM.decode(bytes.subarray(0, i)));
  return lineColumnsOf(before, true)(before.length);
}
