/**
 * Data files named by resources (the fields each kind declares: `file`, `body_file`, `docx_file`,
 * `definition_file`), read once with their digests, YAML ones parsed once, so kinds can compare
 * them without doing I/O themselves.
 */
import { conflictMarkers, mergeConflictDiagnostic } from './merge-conflict.js';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { decodeYaml } from './discover.js';
import { readFile, realpath, stat } from 'node:fs/promises';
import { isSpecialFile, LINK_HINT, linkReason, NOT_REGULAR_FILE } from '../util/special-file.js';
import path from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { keyInFile, keyInPath, KEYS_STAY_OUT } from './api-keys.js';
import { keysHeld } from './interpolate.js';
import { sha256 } from '../engine/canonical.js';
import { lineColumnsOf } from '../util/line-columns.js';
import { linesIn } from './source-lines.js';
import { codePointOf, quoteAround, quoteValue } from './quote.js';
import { CONTROL_CHARACTER } from './text-hygiene.js';
import { withVariableHint, type VariableOrigins } from './schema.js';
import type { ResourceDoc } from './types.js';
import type { ParsedFile } from './yaml-positions.js';
import { parseYamlFile } from './yaml-read.js';
import { isWorkFile, LOCK_FILE } from './work-dir.js';
import { skippedPartOf } from './not-read.js';
import { wordFileProblem } from '../util/word-file.js';
import { realPathOrSelf } from '../util/real-path.js';
import { nearName, type FolderNames } from '../util/near-name.js';
import { isPermissionDenied } from '../util/permission.js';

export interface DataFile {
  /** Relative to the configuration root, `/` separators. */
  path: string;
  /** The first bytes (up to HEAD_BYTES): enough to check what format the file is. */
  head: Uint8Array;
  sha256: string;
  /**
   * UTF-8 text with line endings as written. Binary files (a PDF, a Word file) have none and are
   * not held: apply reads them again, checking the digest, when it uploads them.
   */
  text?: string;
  /** For a YAML data file: its documents, as the loader parsed them. */
  parsed?: ParsedFile;
}

export type DataFiles = Map<string, DataFile>;

export interface DataFileOptions {
  /** The data fields of a document's kind (field → what the file holds: `text`, `docx`, `pdf`, `yaml`). */
  fieldsOf(doc: ResourceDoc): Readonly<Record<string, unknown>>;
  /** YAML data files the loader already read and parsed. */
  yaml?: ReadonlyMap<string, { text: string; parsed: ParsedFile }>;
  /** The API keys set (`keysOf`): no text file may hold one. */
  keys?: readonly [string, string][];
  /** Where each variable got its value this run: a file name one filled in is told where to change it. */
  varOrigin?: VariableOrigins;
  /** The files that declare a resource (root-relative): a link to one holds a resource too. */
  resourceFiles?: ReadonlySet<string>;
  /** docket.yaml and the test files as discovery found them (root-relative), and `*.yaml` links to them, with the file each is. */
  docketInputs?: ReadonlyMap<string, { is: DocketInput; file: string }>;
  /** Every data file any environment names (root-relative): those this run does not read are checked for keys too. */
  otherEnvironments?: ReadonlySet<string>;
}

/** A file docket reads as its own input, never as data: the project file (docket.yaml) or a test file. */
export type DocketInput = 'project' | 'test';

const DOCKET_INPUT: Record<DocketInput, string> = {
  project: "docket's project file (the organization ids, service URLs and vars)",
  test: 'a `docket test` file',
};

/** The root-relative path a file field names, relative to the folder of the YAML file `from`. */
export function resolveDataPath(from: string, value: string): string {
  return dataPathIn(path.posix.dirname(from), value);
}

/** The root-relative path a file field names in a document of the folder `dir` (root-relative; '' or '.' for the root). */
export function dataPathIn(dir: string, value: string): string {
  return path.posix.normalize(path.posix.join(dir, value.replace(/\\/g, '/')));
}

/** The root-relative path a document's file field names (relative to the document's folder). */
export function dataFilePath(doc: ResourceDoc, value: string): string {
  return resolveDataPath(doc.file, value);
}

/** `/etc/x`, `C:\\x`, `\\\\server\\x`: a data field names a file relative to its YAML file, never an absolute one. */
export function isAbsoluteName(value: string): boolean {
  return value.startsWith('/') || value.startsWith('\\') || /^[A-Za-z]:[\\/]/.test(value);
}

/** A data file a document names: the field, its value, and the root-relative path or why it has none. */
export type NamedFile =
  | { field: string; value: string; type: unknown; path: string; problem?: undefined }
  | { field: string; value: string; type: unknown; problem: 'absolute' | 'outside' };

/**
 * The one walker of data fields: the files a document names through the fields its kind declares
 * (`file`, `*_file`; field → what the file holds), each resolved against the document's folder.
 * Fields that are not a non-empty string name no file. The loader uses it to tell data files from
 * resources, readDataFiles to read them.
 */
export function namedFiles(from: string, body: Readonly<Record<string, unknown>>, fields: Readonly<Record<string, unknown>>): NamedFile[] {
  const out: NamedFile[] = [];
  for (const [field, type] of Object.entries(fields)) {
    const value = body[field];
    if (typeof value !== 'string' || value === '') continue;
    if (isAbsoluteName(value)) {
      out.push({ field, value, type, problem: 'absolute' });
      continue;
    }
    const rel = resolveDataPath(from, value);
    out.push(rel.startsWith('../') || rel === '..' || path.posix.isAbsolute(rel) ? { field, value, type, problem: 'outside' } : { field, value, type, path: rel });
  }
  return out;
}

export async function readDataFiles(root: string, documents: ResourceDoc[], options: DataFileOptions): Promise<{ files: DataFiles; diagnostics: Diagnostic[] }> {
  // By what the file is read as and its path: one file named as a PDF and as a term's text is checked as each.
  const wanted = new Map<string, { rel: string; doc: ResourceDoc; key: string; type: unknown }>();
  const diagnostics: Diagnostic[] = [];
  // A file field's value as written (`../docket.yaml`), and the file it names when that reads otherwise (probe HT-4).
  const named = (doc: ResourceDoc, key: string, rel: string): string => {
    const value = doc.body[key];
    if (typeof value !== 'string') return quoted(rel);
    // Beside its document (`s.pdf`), the name says the file; past `..` or `.`, the file is said too.
    return value === rel || rel.endsWith(`/${value}`) ? quoted(value) : `${quoted(value)} (that is ${quoted(rel)})`;
  };
  const problem = (doc: ResourceDoc, key: string, code: string, message: string, hint?: string): void => {
    // The value is what is wrong, so the column is the value's; one a variable filled in is told where to change (probe NF-3).
    diagnostics.push(withVariableHint({ severity: 'error', code, message, ...doc.positions.valueAt(`/${key}`), path: key, ...(hint ? { hint } : {}) }, doc.written?.get(`/${key}`), options.varOrigin));
  };
  for (const doc of documents) {
    for (const named of namedFiles(doc.file, doc.body, options.fieldsOf(doc))) {
      const { field: key, value } = named;
      // A name whose placeholder could not be filled in: "missing file" beside its error would say nothing new.
      if (doc.unresolved?.has(`/${key}`)) continue;
      // Nor one holding a tab or another control character (`"docs\terms.md"`): its own error says what it holds (probe FN-1).
      if (/[\u0000-\u001f\u007f]/.test(value)) continue;
      if (named.problem === undefined) {
        const as = `${String(named.type)}:${named.path}`;
        if (!wanted.has(as)) wanted.set(as, { rel: named.path, doc, key, type: named.type });
      } else if (named.problem === 'absolute') {
        problem(doc, key, 'absolute-path', `\`${key}\` names ${quoted(value)}, an absolute path`, `name the file relative to ${doc.file}, inside the configuration directory`);
      } else {
        problem(doc, key, 'file-outside-config', `\`${key}\` names ${quoted(value)}, which is outside the configuration directory`);
      }
    }
  }
  const realRoot = await realpath(root).catch(() => root);
  /** Folders listed to name a missing file's near namesake (nearName). */
  const listings = new Map<string, Promise<FolderNames>>();
  // The lock may be a link (one lock shared by two checkouts): the file it names is docket's too.
  const realLock = await realpath(path.join(root, LOCK_FILE)).catch(() => undefined);
  const files: DataFiles = new Map();
  // The same bytes read as another type add what that read learnt (a text, its parse).
  const found = (file: DataFile): void => {
    files.set(file.path, { ...files.get(file.path), ...file });
  };
  // A file read as text twice (a term's body, a definition) holds a key once; read as YAML by any
  // document (a definition), its escapes are read too, as the service will.
  const keysChecked = new Set<string>();
  const readAsYaml = new Set([...wanted.values()].filter((w) => w.type === 'yaml').map((w) => w.rel));
  const checkKeys = (rel: string, text: string, yaml = readAsYaml.has(rel)): void => {
    if (keysChecked.has(rel)) return;
    keysChecked.add(rel);
    const holdsKey = keyIn(rel, text, options.keys, yaml);
    if (holdsKey) diagnostics.push(holdsKey);
  };
  // docket.yaml and test files are read by docket itself: published as terms, a definition or an
  // attachment, they would send the organization's ids, URLs and vars, or a test, to the services.
  const isDocketInput = (doc: ResourceDoc, key: string, rel: string, linked = rel): boolean => {
    const input = options.docketInputs?.get(rel) ?? options.docketInputs?.get(linked);
    if (!input) return false;
    const target = linked === rel ? input.file : linked;
    const link = target === rel ? '' : `a link to ${quoted(target)}, `;
    problem(doc, key, 'data-file-is-resource', `\`${key}\` names ${named(doc, key, rel)}, ${link}which is ${DOCKET_INPUT[input.is]}, not data`, 'name a data file of your own');
    return true;
  };
  // docket's own files change with every apply: sent as data, they would never be in sync.
  const isDocketOwn = (doc: ResourceDoc, key: string, rel: string, real: string, linked = rootRelative(realRoot, real)): boolean => {
    if (real !== realLock && !isWorkFile(rel) && !isWorkFile(linked)) return false;
    problem(doc, key, 'data-file-is-resource', `\`${key}\` names ${named(doc, key, rel)}, which is docket's own (${linked === rel ? 'it' : quoted(linked)} changes with every apply), not data`, 'name a data file of your own');
    return true;
  };
  // What docket does not read (`.git/config`, with a CI checkout's token; node_modules): published
  // as a term, printed in plans, and written by pull (probe JT-1).
  const isNotRead = (doc: ResourceDoc, key: string, rel: string, linked = rel): boolean => {
    const part = skippedPartOf(rel) ?? skippedPartOf(linked);
    if (part === undefined) return false;
    const link = linked === rel ? '' : `, a link to ${quoted(linked)}`;
    const where = part === rel.split('/').at(-1) || part === linked.split('/').at(-1) ? `a file whose name starts with "."` : `in ${part}/`;
    problem(doc, key, 'file-outside-config', `\`${key}\` names ${named(doc, key, rel)}${link}, ${where}, which docket does not read as configuration (dot-files, dot-folders and node_modules hold local or other tools' files)`, 'keep data files in the folders of the configuration, with names that do not start with "."');
    return true;
  };
  await Promise.all(
    [...wanted.values()].map(async ({ rel, doc, key, type }) => {
      const keyInName = keyInPath(rel, options.keys ?? [], `\`${key}\``);
      if (keyInName) {
        problem(doc, key, 'api-key-in-file', keyInName.message, keyInName.hint);
        return;
      }
      if (isDocketInput(doc, key, rel)) return;
      const known = options.yaml?.get(rel);
      // A `*.yaml` link to the lock or a file in .docket/ is read as YAML like any other: where it leads says what it is.
      if (known && isDocketOwn(doc, key, rel, await realpath(path.join(root, rel)).catch(() => path.join(root, rel)))) return;
      if (!isWorkFile(rel) && isNotRead(doc, key, rel)) return;
      if (known) {
        if (holdsResource(known.parsed)) {
          problem(doc, key, 'data-file-is-resource', `\`${key}\` names ${named(doc, key, rel)}, which holds a docket resource (a \`kind:\` document), not data`, 'name the data file itself; every YAML file with a `kind:` is read as a resource');
          return;
        }
        const bytes = Buffer.from(known.text, 'utf8');
        checkKeys(rel, known.text);
        found({ path: rel, head: headOf(bytes), sha256: sha256(bytes), text: known.text, parsed: known.parsed });
        return;
      }
      try {
        // A symlink may point anywhere: what is read must be inside the configuration directory.
        const real = await realpath(path.join(root, rel));
        if (!isInside(realRoot, real)) {
          problem(doc, key, 'file-outside-config', `\`${key}\` names ${named(doc, key, rel)}, a link to ${quoted(real)}, which is outside the configuration directory`, 'copy the file into the configuration directory instead of linking to it');
          return;
        }
        const linked = rootRelative(realRoot, real);
        if (isDocketOwn(doc, key, rel, real, linked)) return;
        if (isNotRead(doc, key, rel, linked)) return;
        // A link to a resource file holds a resource as much as the file itself.
        if (isDocketInput(doc, key, rel, linked)) return;
        if (linked !== rel && options.resourceFiles?.has(linked)) {
          problem(doc, key, 'data-file-is-resource', `\`${key}\` names ${named(doc, key, rel)}, a link to ${quoted(linked)}, which holds a docket resource (a \`kind:\` document), not data`, 'name the data file itself; every YAML file with a `kind:` is read as a resource');
          return;
        }
        if (await isSpecialFile(real)) {
          problem(doc, key, 'unreadable-file', `\`${key}\` names ${quoted(String(doc.body[key]))}, which ${NOT_REGULAR_FILE}`, 'name a regular file');
          return;
        }
        if (BINARY.has(type)) {
          // Not read at all past what docket can send: hashing gigabytes says nothing more.
          const tooLarge = sizeProblem((await stat(real)).size, rel);
          if (tooLarge) {
            problem(doc, key, tooLarge.code, tooLarge.message, tooLarge.hint);
            return;
          }
          // Hundreds of multi-megabyte PDFs: hash them as they stream by rather than hold them.
          const { head, size, sha256: digest } = await hashFile(real);
          const wrong = binaryProblem(type, head, size, rel) ?? wordProblem(type, real, rel);
          if (wrong) problem(doc, key, wrong.code, wrong.message, wrong.hint);
          else found({ path: rel, head, sha256: digest });
          return;
        }
        const bytes = await readFile(real);
        const wrong = textProblem(type, bytes, rel);
        if (wrong?.at) {
          diagnostics.push({ severity: 'error', code: wrong.code, message: wrong.message, file: rel, ...wrong.at, ...(wrong.hint ? { hint: wrong.hint } : {}) });
          return;
        }
        if (wrong) {
          problem(doc, key, wrong.code, wrong.message, wrong.hint);
          return;
        }
        // A YAML file the loader could not read as UTF-8 it has said so of, once: read lossily here,
        // its mojibake gave errors of its own (probe HG-4).
        if (type === 'yaml' && !('text' in decodeYaml(bytes))) return;
        const text = withoutByteOrderMark(bytes.toString('utf8'));
        checkKeys(rel, text);
        found({ path: rel, head: headOf(bytes), sha256: sha256(bytes), text });
      } catch (error) {
        const value = String(doc.body[key]);
        const where = value === rel ? '' : ` (looked for ${quoted(rel)})`;
        const code = (error as NodeJS.ErrnoException).code;
        const link = isPermissionDenied(code) ? undefined : await linkReason(path.join(root, rel), code);
        if (isPermissionDenied(code)) problem(doc, key, 'unreadable-file', `\`${key}\` names ${quoted(value)}, which cannot be read (permission denied)${where}`, 'make it readable by the user that runs docket');
        else if (link) problem(doc, key, 'unreadable-file', `\`${key}\` names ${quoted(value)}, which cannot be read (${link})${where}`, LINK_HINT);
        else if (code === 'EISDIR') problem(doc, key, 'missing-file', `\`${key}\` names ${quoted(value)}, which is a folder, not a file${where}`);
        else {
          const near = code === 'ENOENT' ? await nearName(path.join(root, rel), listings) : undefined;
          const there = near ? `; ${quoted(near.name)} is there, whose name differs ${near.differs}` : '';
          const comment = near ? undefined : cutByComment(doc, key, value);
          const hint = near
            ? 'make the name and the file the same exactly: a file system that tells them apart (Linux, as CI runs) finds no file'
            : comment !== undefined
              ? `in YAML \` #\` starts a comment, so the name ends before it: quote the whole name (${quoted(comment)})`
              : value.includes('\\')
                ? 'file names are relative to the YAML file that holds them, and a `\\` in one is read as `/` (a folder), as Windows writes paths'
                : 'file names are relative to the YAML file that holds them';
          problem(doc, key, 'missing-file', `\`${key}\` names ${quoted(value)}, which does not exist${where}${there}`, hint);
        }
      }
    }),
  );
  // Another environment's text files are committed all the same: a key in one is said in every run,
  // not only the one that selects it (probe JL-6). Missing or unreadable, they are that run's error.
  const wantedPaths = new Set([...wanted.values()].map((w) => w.rel));
  for (const rel of options.otherEnvironments ?? []) {
    if (wantedPaths.has(rel) || keysChecked.has(rel) || BINARY_NAME.test(rel)) continue;
    const yaml = options.yaml?.get(rel);
    // A YAML file there is that environment's definition, read by the service escapes and all (probe AE-1).
    if (yaml) checkKeys(rel, yaml.text, true);
    else {
      const text = await textInside(root, realRoot, rel);
      if (text !== undefined) checkKeys(rel, text);
    }
  }
  return { files, diagnostics };
}

const BINARY_NAME = /\.(?:pdf|docx)$/i;

/**
 * The name as written when an unquoted one was cut by ` #`, which YAML reads as a comment
 * (`file: hash #2.pdf` is "hash": probe JO-5): the value and the comment, joined.
 */
function cutByComment(doc: ResourceDoc, key: string, value: string): string | undefined {
  const at = doc.positions.valueAt(`/${key}`);
  const line = doc.text?.().split(/\r\n?|\n/)[at.line - 1];
  if (line === undefined || line.slice(at.col - 1, at.col - 1 + value.length) !== value) return undefined;
  const rest = /^(\s+#\S.*?)\s*$/.exec(line.slice(at.col - 1 + value.length));
  return rest ? `${value}${rest[1]}` : undefined;
}

/** A regular file's text inside the configuration directory, or undefined (outside, missing, not UTF-8). */
async function textInside(root: string, realRoot: string, rel: string): Promise<string | undefined> {
  try {
    const real = await realpath(path.join(root, rel));
    if (!isInside(realRoot, real) || (await isSpecialFile(real))) return undefined;
    const text = new TextDecoder('utf-8', { fatal: true }).decode(await readFile(real));
    return withoutByteOrderMark(text);
  } catch {
    return undefined;
  }
}

/**
 * A key typed into a text file (a token pasted into a term's body) would be sent as the text and
 * shown in plans, as a key typed into a resource file would: refused at where it is.
 */
function keyIn(file: string, text: string, keys: readonly [string, string][] | undefined, yaml: boolean): Diagnostic | undefined {
  const says = (variable: string): string => `${file} holds the value of ${variable}, an API key, which docket never puts into the configuration`;
  const found = keyInFile(file, text, keys ?? [], says);
  // A YAML file (a definition) is read by the service: a key spelt with a double-quoted string's
  // escapes is the key once read (second read SR67-15), said at the file's first line, where the
  // text does not show it. A text file is sent as written, escapes and all (TR67-8). Read as docket
  // reads its own YAML: the full parser where js-yaml could differ (a duplicate js-yaml refuses,
  // TR67-2), and aliases expanded only up to the full parser's limit (an alias bomb, TR67-1).
  if (found || !keys?.length || !text.includes('\\') || !yaml) return found;
  const values = parseYamlFile(text, file).documents.map((d) => d.value);
  const held = keys.find((k) => keysHeld(values, [k], text).length > 0);
  return held ? { severity: 'error', code: 'api-key-in-file', message: says(held[0]), file, line: 1, col: 1, hint: `remove it: ${KEYS_STAY_OUT}` } : undefined;
}

/** Whether a real path (symbolic links resolved) lies in the real configuration directory. */
export function isInside(realRoot: string, real: string): boolean {
  return real === realRoot || real.startsWith(realRoot + path.sep);
}

/** Whether a real path is inside the real root and not where docket reads nothing (a dot-folder, node_modules, a dot-file). */
export function readInside(realRoot: string, real: string): boolean {
  return isInside(realRoot, real) && skippedPartOf(rootRelative(realRoot, real)) === undefined;
}

/** A real path inside the real root as the configuration names its files: relative, `/` separators. */
export function rootRelative(realRoot: string, real: string): string {
  return path.relative(realRoot, real).split(path.sep).join('/');
}

/**
 * The configuration's file a root-relative path reaches through links, root-relative (`current/d.yaml`
 * → `defs/d.yaml`); the path itself when it leads outside or nowhere. Each path resolved once.
 */
export function reachedThroughLinks(root: string): (file: string) => string {
  let realRoot: string | undefined;
  const cache = new Map<string, string>();
  return (file) => {
    let reached = cache.get(file);
    if (reached === undefined) {
      realRoot ??= realPathOrSelf(root);
      const real = realPathOrSelf(path.join(root, file));
      reached = isInside(realRoot, real) ? rootRelative(realRoot, real) : file;
      cache.set(file, reached);
    }
    return reached;
  };
}

/** File names are quoted like any value, with room for a long path. */
const quoted = (value: string): string => quoteValue(value, 80);

/** True when a YAML file holds a `kind:` document: a resource, never data. */
export function holdsResource(parsed: ParsedFile): boolean {
  return parsed.documents.some((d) => d.value !== null && typeof d.value === 'object' && !Array.isArray(d.value) && 'kind' in d.value);
}

const ZIP_SIGNATURE: readonly number[] = [0x50, 0x4b, 0x03, 0x04];
const PDF_SIGNATURE: readonly number[] = [...Buffer.from('%PDF-', 'latin1')];

/** Whether a file's first bytes are a zip archive's, as every .docx is. */
export function startsAsZip(head: Uint8Array): boolean {
  return ZIP_SIGNATURE.every((b, i) => head[i] === b);
}

/** Whether a file's first bytes are a PDF's (`%PDF-`). */
export function startsAsPdf(head: Uint8Array): boolean {
  return PDF_SIGNATURE.every((b, i) => head[i] === b);
}
const HEAD_BYTES = 8;
/** Data file types that are uploaded as bytes, never read as text. */
const BINARY = new Set<unknown>(['pdf', 'docx']);

/** A copy, so the file's bytes are not kept alive by a view of them (the text is what is kept). */
const headOf = (bytes: Uint8Array): Uint8Array => Uint8Array.from(bytes.subarray(0, HEAD_BYTES));

/** A text data file as the loader reads one whose bytes are `written` (past a byte-order mark; a YAML one parsed): what pull would write, checked before it is. */
export function textDataFile(path: string, written: string, yaml: boolean): DataFile {
  const bytes = Buffer.from(written, 'utf8');
  const text = written.replace(/^\uFEFF/, '');
  return { path, head: headOf(bytes), sha256: sha256(bytes), text, ...(yaml ? { parsed: parseYamlFile(text, path) } : {}) };
}

/** What is wrong with a file's content; `at`: where in the file itself (a character in a text file). */
type ContentProblem = { code: string; message: string; hint?: string; at?: { line: number; col: number } } | undefined;

/** An editor's byte-order mark (Windows Notepad) says how the file is encoded; it is no part of the text. */
function withoutByteOrderMark(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

async function hashFile(real: string): Promise<{ head: Uint8Array; size: number; sha256: string }> {
  const hash = createHash('sha256');
  let head = new Uint8Array(0);
  let size = 0;
  for await (const chunk of createReadStream(real) as AsyncIterable<Buffer>) {
    if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
    size += chunk.length;
    hash.update(chunk);
  }
  return { head, size, sha256: hash.digest('hex') };
}

/** The largest file docket can send: Node reads none of 2 GiB or more whole, and an upload is sent whole. */
const MAX_SENT_BYTES = 2 ** 31 - 1;

/** A file docket cannot read whole to send: said at validate, not as an internal error at apply whose hint promised a re-run converges (probe HE-3). */
function sizeProblem(size: number, rel: string): ContentProblem {
  return size > MAX_SENT_BYTES ? { code: 'file-too-large', message: `${quoted(rel)} holds ${size} bytes, more than docket can send (2 GiB)`, hint: `make ${rel} smaller (or split it): the services take no request near this large` } : undefined;
}

/** What a Word file must look like: a zip. */
function binaryProblem(type: unknown, head: Uint8Array, size: number, rel: string): ContentProblem {
  if (type === 'docx') {
    if (size === 0) return { code: 'not-a-docx', message: `${quoted(rel)} is empty`, hint: 'docx_file names a Word (.docx) file' };
    if (!startsAsZip(head)) return { code: 'not-a-docx', message: `${quoted(rel)} is not a Word file (a .docx is a zip archive; this one does not start like one)`, hint: 'save the document as .docx (Word 2007 or later)' };
  }
  return undefined;
}

/** A Word file's zip must hold a Word document: one that does not is refused by the service after its upload. */
function wordProblem(type: unknown, real: string, rel: string): ContentProblem {
  const wrong = type === 'docx' ? wordFileProblem(real) : undefined;
  return wrong ? { code: 'not-a-docx', message: `${quoted(rel)} ${wrong}`, hint: 'save the document as .docx (Word 2007 or later)' } : undefined;
}

/** What a text file must look like: UTF-8 without NUL. */
function textProblem(type: unknown, bytes: Uint8Array, rel: string): ContentProblem {
  if (type === 'text') {
    // A PDF may be all ASCII: as a term's text it would publish its own source.
    if (startsAsPdf(bytes)) return { code: 'binary-file', message: `${quoted(rel)} is a PDF, not a text file`, hint: 'body_file names a Markdown or text file; a PDF is uploaded as an Attachment' };
    if (bytes.includes(0)) {
      // Windows Notepad's "Unicode" is UTF-16, which starts with FF FE or FE FF.
      const utf16 = bytes.length >= 2 && ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff));
      if (utf16) return { code: 'invalid-utf8', message: `${quoted(rel)} is UTF-16 text, not UTF-8`, hint: 'save it as UTF-8 (in Notepad: Save as, Encoding: UTF-8)' };
      return { code: 'binary-file', message: `${quoted(rel)} is not a text file (it holds NUL bytes)`, hint: 'body_file names a Markdown or text file; a Word file goes in docx_file' };
    }
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      return { code: 'invalid-utf8', message: `${quoted(rel)} is not valid UTF-8`, hint: 'save it as UTF-8' };
    }
    const control = CONTROL_CHARACTER.exec(text);
    if (control) {
      // Lines as an editor shows them: a lone CR ends one too (probe PY-3).
      const at = lineColumnsOf(text, true)(control.index);
      return {
        code: 'control-character',
        // Quoted around the character: a long line's first characters may not reach it.
        message: `${quoted(rel)} holds the control character ${codePointOf(control[0])}: ${quoteAround(linesIn(text)(at.line) ?? '', at.col - 1)}`,
        hint: 'remove it; text may hold tabs and line breaks, but no other control characters',
        at,
      };
    }
    const conflict = conflictMarkers(text);
    if (conflict) {
      const { message, hint } = mergeConflictDiagnostic(rel, conflict, quoted(rel));
      return { code: 'merge-conflict', message, ...(hint ? { hint } : {}), at: { line: conflict.lines[0], col: 1 } };
    }
  }
  return undefined;
}
