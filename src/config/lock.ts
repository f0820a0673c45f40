/**
 * docket.lock.json: the ids and sha256 digests of the files docket uploaded (Word terms,
 * attachment PDFs), which the services cannot give back. Read by plan, written by apply as soon
 * as each upload is confirmed (atomically: readers see the old file or the new one, never half).
 *
 * Ids belong to one organization, so entries are kept per target: the agreements service's URL
 * and the organization the key acts for (two environments that point at one organization share
 * them). Runs against the in-process emulator keep theirs under `emulator`. Lock files of
 * version 1 (sections per `--env` name) are read and moved to their target on the next write.
 *
 * Beside `targets`, `synced` holds per target what docket last saw in sync for each object
 * (engine/sync.ts): written by apply and pull, read by plan to tell which side changed since.
 * `landing` holds per target the creates, invitations and publishes an apply stopped waiting for,
 * which may still land (engine/landing.ts): the next plan does not send them again at once.
 *
 * A git merge conflict in the file is resolved here when the two sides do not contradict (each
 * side's entries are kept); when they do, it is an error at the conflict marker's line. Sync
 * records the two sides disagree on are dropped (those objects' direction becomes unknown).
 */
import { readFile, rm, stat } from 'node:fs/promises';
import { isSpecialFile, LOOPING_LINK, NOT_REGULAR_FILE, readRegularFileSync } from '../util/special-file.js';
import { firstJsonSyntaxError, jsonParsePosition } from '../util/json-error.js';
import { jsonKeyOffset, jsonValueOffset } from '../util/json-offset.js';
import { duplicateKeys } from '../util/json-duplicates.js';
import { MAX_JSON_DEPTH, nestsDeeperThan, offsetPastDepth } from '../util/json-depth.js';
import { basename, dirname, join } from 'node:path';
import { compareDiagnostics, type Diagnostic } from '../diagnostics.js';
import { linkedFile, removeStaleTemps, writeFileAtomic, writeFileAtomicSync } from '../util/atomic-write.js';
import { writtenAs, writtenAsSync } from '../util/file-write-error.js';
import { composed } from '../util/nfc.js';
import { isPlainObject } from '../util/plain.js';
import { lineColumnsOf } from '../util/line-columns.js';
import { canonicalJson } from '../engine/canonical.js';
import { quoteValue, showJson } from './quote.js';
import { didYouMean } from './suggest.js';
import { keysOfOneObject, namesOfOneUpload, sameUploadMerged, splicedEntries } from './lock-merge-sides.js';
import { decodeStrict, writtenLinkPlace, type WrittenLinkPlace } from './discover.js';
import { CONTROL_CHARACTER } from './text-hygiene.js';
import { LOCK_FILE, WORK_DIR } from './work-dir.js';
import { UUID } from '../util/uuid.js';
import { idProblem, SEGMENT_BREAKERS } from '../api/path-segment.js';
import { DEFAULT_ORGANIZATION_ID } from '../emulator/identity.js';
import { isKindName, kindNamed } from '../kinds/index.js';
import { parseLandingMark, type LandingChange } from '../engine/landing.js';
import { fieldHash, parseSyncRecord, recordId } from '../engine/sync.js';
import { normName } from '../engine/normalize.js';
import { isPermissionDenied } from '../util/permission.js';
import { withWriteMutex, withWriteMutexSync, type MutexOptions } from '../util/write-mutex.js';

export { confirmedUpload, lockEntries, lockKey, moveEntry } from './lock-entries.js';

export { LOCK_FILE };

/** An upload or publish docket started and has not seen confirmed yet (it was interrupted). */
export interface PendingUpload {
  sha256: string;
  file: string;
  /** For a new version: the version number it becomes. */
  version?: number;
  /** For an attachment: the description sent with it. */
  description?: string | null;
  /** When it was started (ISO 8601). */
  since: string;
  /** The service answered it without naming what it made: it surely happened. */
  answered?: true;
  /**
   * The service answered its last attempt with an error (a 500, not a gateway's 504): nothing of it
   * still runs there, so a read that can tell (a Word term's version) settles it at once (probe FK-2).
   */
  ended?: true;
  /**
   * The live object it takes the place of (a renamed or changed attachment, by its id and the id
   * its document pins): a pin of one of them says nothing of what this upload made.
   */
  replaces?: string[];
}

/**
 * What docket knows was uploaded for one resource. `id`, `file` and `sha256` are the last upload
 * the service confirmed; an entry holding only `pending` is a create that was never confirmed.
 */
export interface LockEntry {
  /** Live id of the object the file was uploaded to. */
  id?: string;
  /** The file, relative to the configuration root. */
  file?: string;
  sha256?: string;
  /** For attachments: the description uploaded with the file. */
  description?: string | null;
  /** For a Word term: the version the upload became (a later one live was published by someone else). */
  version?: number;
  /**
   * For an attachment whose document pins `id:` (as export writes it): that id, which this upload
   * replaced, so the document still means this upload until its `id:` is edited.
   */
  pinned?: string;
  /**
   * For an attachment: the ids of earlier uploads this one replaced, newest first, so a template
   * still naming one reads as a re-point left undone, not as a change made live.
   */
  superseded?: string[];
  /** An upload that was started and not confirmed (a killed or interrupted apply). */
  pending?: PendingUpload;
  /**
   * For a Word term: a publish of this entry's file that an apply stopped waiting for and
   * `--retry-uncertain` sent again. The one version it may still make, landing within ten minutes
   * of `since`, is that request, not a publish made elsewhere (probe PI-1).
   */
  abandoned?: AbandonedRequest;
}

/** A request docket stopped waiting for, and sent again. */
export interface AbandonedRequest {
  sha256: string;
  since: string;
}

/** An entry's confirmed upload. */
export interface ConfirmedUpload {
  id: string;
  file: string;
  sha256: string;
  description?: string | null;
  version?: number;
  pinned?: string;
  superseded?: string[];
  abandoned?: AbandonedRequest;
}

/** Earlier uploads an entry remembers: a template left pointing further back reads as changed live. */
const MAX_SUPERSEDED = 10;

/**
 * What the entry of upload `id` remembers as superseded when it takes the place of `replaced` (the
 * entry recorded before, or just the id of what it replaced): that one too, unless it is the same.
 */
export function supersededBy(id: string, replaced: Pick<LockEntry, 'id' | 'superseded'> | undefined): string[] | undefined {
  if (!replaced?.id || replaced.id === id) return replaced?.superseded;
  return [...new Set([replaced.id, ...(replaced.superseded ?? [])])].slice(0, MAX_SUPERSEDED);
}

/** One target's entries: `kind:key` → entry. */
export interface LockFile {
  files: Record<string, LockEntry>;
  /**
   * The live ids the other targets' sections record (and the pins they replaced): ids belong to
   * one organization, so an id recorded only there is not one of this target's.
   */
  elsewhere?: ReadonlySet<string>;
  /**
   * The `kind:key`s only other targets' sections record a file for (an exported repository applied
   * to another organization): what is live here was never seen by docket, whatever the file.
   */
  elsewhereKeys?: ReadonlySet<string>;
}

type Files = Record<string, LockEntry>;

/** Sync records of one target: `kind:key` → the record's text (engine/sync.ts reads and writes it). */
export type SyncRecords = Record<string, string>;

/** Landing marks of one target: `kind:key` → `<action> <time>` (engine/landing.ts reads and writes them). */
export type LandingSection = Record<string, string>;

interface LegacySection {
  files?: Files;
  environments?: Record<string, { files?: Files }>;
}

/** The whole file. */
export interface LockDocument {
  version: 2;
  targets: Record<string, { files: Files }>;
  /** Sections of a version 1 file not moved to their target yet. */
  legacy?: LegacySection & { emulator?: LegacySection };
  /** What docket last saw in sync, per target (the service a record's fields live on). */
  synced?: Record<string, SyncRecords>;
  /** Creates, invitations and publishes that may still land, per target (as `synced`). */
  landing?: Record<string, LandingSection>;
}

/** Where a configuration's lock file is, and which legacy section a run would have used. */
export interface LockLocation {
  /** Absolute path of the lock file. */
  path: string;
  /** The configuration directory: none of the text of a file linked from outside it is quoted. */
  root: string;
  /** Shown in diagnostics (and the file, relative to `root`). */
  label: string;
  emulator: boolean;
  environment?: string;
}

/** The target key of runs against the in-process emulator. */
export const EMULATOR_TARGET = 'emulator';

/**
 * The in-process emulator's section for one organization: `emulator` for the one it seeds when
 * docket.yaml names none, `emulator <id>` for another (each `--env` organization uploads its own
 * attachments and Word terms, whose ids the others do not hold).
 */
export function emulatorLockTarget(organizationId: string | undefined): string {
  return organizationId === undefined || organizationId.toLowerCase() === DEFAULT_ORGANIZATION_ID ? EMULATOR_TARGET : `${EMULATOR_TARGET} ${organizationId}`;
}

/** Whether a section is one of the in-process emulator's. */
function isEmulatorTarget(target: string): boolean {
  return target === EMULATOR_TARGET || target.startsWith(`${EMULATOR_TARGET} `);
}

export function lockLocation(root: string, options: { emulator: boolean; environment?: string }): LockLocation {
  return { path: join(root, LOCK_FILE), root, label: LOCK_FILE, emulator: options.emulator, ...(options.environment ? { environment: options.environment } : {}) };
}

/**
 * The target key of a real service: its URL and the organization the key acts for. The URL as the
 * service sees it (host in lower case, no default port, no trailing slash): `LOCALHOST` and
 * `localhost:80` name one service, and its uploads must not be made again in a second section.
 */
export function serviceTarget(url: string, organizationId: string): string {
  return `${canonicalUrl(url)} ${organizationId}`;
}

/** A service URL as the service sees it (host in lower case without a final dot, no default port, no trailing slash). */
export function canonicalUrl(url: string): string {
  try {
    const u = new URL(url.trim());
    // Only http(s) has an origin to compare (`emulator`, anything else, is kept as written).
    if (u.protocol !== 'http:' && u.protocol !== 'https:') return url.replace(/\/+$/, '');
    // `api.example.com.` is the fully qualified spelling of `api.example.com`: one service (probe SJ-1).
    if (u.hostname.endsWith('.')) u.hostname = u.hostname.replace(/\.+$/, '');
    return `${u.origin}${u.pathname.replace(/\/+$/, '')}`;
  } catch {
    return url.replace(/\/+$/, '');
  }
}

/** A section key as an older docket wrote it (the URL as typed), as serviceTarget writes it now. */
function canonicalTarget(key: string): string {
  const space = key.lastIndexOf(' ');
  return space < 0 ? key : serviceTarget(key.slice(0, space), key.slice(space + 1));
}

/** Sections by canonical key; two spellings of one target merged, the canonical one's entries first. */
function canonicalSections<T extends object>(sections: Record<string, T>, merge: (into: T, from: T) => T): Record<string, T> {
  const keys = Object.keys(sections).map((k) => [k, canonicalTarget(k)] as const);
  if (keys.every(([k, c]) => c === k)) return sections;
  const out: Record<string, T> = {};
  // Canonical keys first: theirs are the entries kept when both spellings record one.
  for (const [k, c] of [...keys.filter(([k, c]) => c === k), ...keys.filter(([k, c]) => c !== k)]) {
    out[c] = out[c] === undefined ? sections[k]! : merge(out[c], sections[k]!);
  }
  return out;
}

/** The target key of a real agreements service (its uploaded files are kept there). */
export const agreementsTarget = serviceTarget;

export function emptyLock(): LockFile {
  return { files: {} };
}

function emptyDocument(): LockDocument {
  return { version: 2, targets: {} };
}

export interface ReadLockResult {
  doc: LockDocument;
  diagnostics: Diagnostic[];
  /** A merge conflict read as one document: how many sync records its two sides disagreed on (dropped). */
  droppedRecords?: number;
}

/** Reads the whole file; a missing file is an empty document, a broken one a diagnostic. */
export async function readLockDocument(location: LockLocation): Promise<ReadLockResult> {
  // Told before the read: a file replaced in between then looks changed next time, never the reverse.
  const stamp = await stampOf(location.path);
  const hit = known.get(location.path);
  if (stamp !== undefined && hit?.stamp === stamp) return hit.read;
  // A lock linked from outside (one shared by two checkouts), or to a file docket does not read
  // (`.env`), is read and written, but none of its text is quoted: a link to /proc/self/environ
  // would print a CI runner's secrets (probe NU-1).
  const place = await writtenLinkPlace(location.root, location.label).catch((): WrittenLinkPlace => ({}));
  const { outside } = place;
  // A lock shared by two checkouts is there: one to nothing would have apply make a file anywhere it may write.
  if (outside && stamp === undefined) return { doc: emptyDocument(), diagnostics: [{ ...outside, message: `${outside.message}, and no file is there`, hint: SHARED_LOCK_HINT }] };
  // Its write would replace a file of the configuration with JSON, which no later run reads (probe NU-2).
  if (place.configuration !== undefined) {
    const message = `${location.label} is a link to ${quoteValue(place.configuration)}, a file docket reads as configuration: writing the lock there would replace it`;
    return { doc: emptyDocument(), diagnostics: [{ ...problem(location.label, 1, message, SHARED_LOCK_HINT), code: 'file-outside-config' }] };
  }
  // A named pipe or a device would be read until someone writes to it: never.
  if (await isSpecialFile(location.path)) {
    return { doc: emptyDocument(), diagnostics: [problem(location.label, 1, `${location.label} ${NOT_REGULAR_FILE}`, writtenByDocket(location.label))] };
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(location.path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { doc: emptyDocument(), diagnostics: [] };
    // Read as empty, an apply would upload and then fail to record what it uploaded.
    const what = code === 'EISDIR' ? 'is a folder, not a file' : `cannot be read (${code === 'ELOOP' ? LOOPING_LINK : (code ?? String(error))})`;
    // Its permissions: removing it would lose its records (probe LU-4).
    const hint = isPermissionDenied(code) ? `let the user that runs docket read and write ${location.label} (its permissions): it holds the records of what docket uploaded and synced` : writtenByDocket(location.label);
    return { doc: emptyDocument(), diagnostics: [problem(location.label, 1, `${location.label} ${what}`, hint)] };
  }
  const hiddenAs = outside ? 'a file outside the configuration directory' : place.unread !== undefined ? `${quoteValue(place.unread)}, a file docket does not read as configuration,` : undefined;
  const read = hiddenAs ? unquoted(lockTextOf(bytes, location.label), location.label, hiddenAs) : lockTextOf(bytes, location.label);
  if (stamp !== undefined) known.set(location.path, { stamp, read });
  return read;
}

/** The hint for a lock (or sync records file) that is not a file docket can read. */
function writtenByDocket(label: string): string {
  return inScratch(label) ? `${label} is a file docket writes: remove what is there` : `${label} is a file docket writes: remove what is there, or restore the file from git`;
}

/** `--emulator`'s sync records live in .docket/, local scratch no commit holds: there is nothing to restore. */
function inScratch(label: string): boolean {
  return label.startsWith(`${WORK_DIR}/`);
}

/** How to mend a lock (or sync records file) docket cannot read. */
function restoreHint(label: string): string {
  return inScratch(label) ? 'delete it (local scratch, never in git): the next --emulator apply writes it again' : 'restore it from git; docket writes it after apply';
}

const SHARED_LOCK_HINT = 'a lock shared by two checkouts is the file one of them has: link to it, or remove the link';

/** The problems of a lock linked to a file docket does not read (`linkedTo`), with where they are but nothing of its text. */
function unquoted(read: ReadLockResult, label: string, linkedTo: string): ReadLockResult {
  if (read.diagnostics.length === 0) return read;
  return {
    doc: read.doc,
    // Warnings (a merge conflict read as both sides) quote none of it.
    diagnostics: read.diagnostics.map((d) => d.severity !== 'error' ? d : ({
      ...d,
      message: `${label} is a link to ${linkedTo} that docket cannot read as a lock (${d.line}:${d.col}); its text is not quoted`,
      hint: 'restore the file it links to (docket.lock.json of the checkout that shares it), or remove the link',
    })),
  };
}

/**
 * The file's document, decoded strictly: a byte that is not UTF-8 would be read as U+FFFD, and an
 * attachment's description holding one would differ from the files' and upload it again.
 */
function lockTextOf(bytes: Uint8Array, label: string): ReadLockResult {
  const decoded = decodeStrict(bytes);
  if ('invalidAt' in decoded) {
    const { line, col } = decoded.invalidAt;
    return { doc: emptyDocument(), diagnostics: [problem(label, line, `${label} is not valid UTF-8`, undefined, col)] };
  }
  return parseLockText(decoded.text, label);
}

/**
 * The lock as this command last read or wrote it, by path, with the file's identity then. A lock
 * of 20,000 objects is 9.5 MB: an apply that uploads files writes it after each upload, and would
 * otherwise read and parse it again every time. Anyone else's write (an atomic rename makes a new
 * inode; an edit in place a new size or time) changes the identity, and the file is read again.
 * The documents kept here are shared: every function of this module makes new ones, never edits
 * one once it is kept (a read settles its keys and letter case before).
 */
const known = new Map<string, { stamp: string; read: ReadLockResult }>();

async function stampOf(path: string): Promise<string | undefined> {
  try {
    const s = await stat(path, { bigint: true });
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return undefined;
  }
}

/**
 * Forgets every lock file known: a command starts from the files as they are. Within a command only
 * docket writes them, but a file's times may be as coarse as a clock tick, so an edit in place
 * between two commands of one process (the tests) could keep inode, size and times.
 */
export function forgetKnownLocks(): void {
  known.clear();
}

/** What this process just wrote: the next read or write of the file needs no parse. */
async function remember(path: string, doc: LockDocument): Promise<void> {
  const stamp = await stampOf(path);
  if (stamp === undefined) known.delete(path);
  else known.set(path, { stamp, read: { doc, diagnostics: [] } });
}

/**
 * The file's text (undefined: no file) and its document, for a write that compares what it would
 * write with what is there: the text is read every time, the parse only when the file is not the
 * one known.
 */
async function readForWrite(location: LockLocation): Promise<{ text: string | undefined; read: ReadLockResult }> {
  const stamp = await stampOf(location.path);
  const bytes = await readFile(location.path).catch(() => undefined);
  if (bytes === undefined) return { text: undefined, read: { doc: emptyDocument(), diagnostics: [] } };
  const text = bytes.toString('utf8');
  const hit = known.get(location.path);
  return { text, read: stamp !== undefined && hit?.stamp === stamp ? hit.read : lockTextOf(bytes, location.label) };
}

export function parseLockText(raw: string, label: string): ReadLockResult {
  // An editor's byte-order mark is not part of the JSON (docket writes none).
  const text = raw.charCodeAt(0) === 0xfeff ? raw.slice(1) : raw;
  const conflict = splitConflict(text);
  if (conflict) return mergeSides(conflict, label);
  const parsed = parseDocument(text, label, 1);
  return 'errors' in parsed ? { doc: emptyDocument(), diagnostics: parsed.errors } : { doc: parsed.doc, diagnostics: [] };
}

function problem(label: string, line: number, message: string, hint = restoreHint(label), col = 1): Diagnostic {
  return { severity: 'error', code: 'invalid-lock-file', message, file: label, line, col, hint };
}

/**
 * Where JSON.parse stopped (`… at position 16`), as a line and column counted from `line`. Some of
 * its messages name no position (`Unexpected token '}', ..."a": tru}" is not valid JSON`, quoting
 * lines of the file): those are placed, and said, by jsonc-parser's scanner instead.
 */
function jsonErrorAt(error: unknown, text: string, line: number): { line: number; col: number; what: string } {
  const message = error instanceof Error ? error.message : '';
  const position = jsonParsePosition(error);
  const at = (offset: number) => lineColumnsOf(text)(offset);
  if (position !== undefined) {
    const what = message.replace(/\s*(in JSON )?at position \d+.*$/s, '').replace(/\s*\(line \d+ column \d+\)$/, '').slice(0, 120);
    const pos = at(position);
    return { line: line + pos.line - 1, col: pos.col, what };
  }
  const found = firstJsonError(text);
  if (!found) return { line, col: 1, what: message.split('\n')[0]!.replace(/, ".*$/, '').slice(0, 120) };
  const pos = at(found.offset);
  return { line: line + pos.line - 1, col: pos.col, what: found.what };
}

/** The first syntax error of the text in words, quoting what stands there. */
function firstJsonError(text: string): { offset: number; what: string } | undefined {
  const first = firstJsonSyntaxError(text);
  if (!first) return undefined;
  const written = text.slice(first.offset, first.offset + Math.max(first.length, 1));
  return { offset: first.offset, what: written.trim() === '' ? first.words : `${first.words}: ${quoteValue(written)}` };
}

function parseDocument(text: string, label: string, line: number): { doc: LockDocument } | { errors: Diagnostic[] } {
  /** Nested past MAX_JSON_DEPTH at `offset`: no lock, and walked by recursion it would overflow the stack (probe TC-1). */
  const tooDeep = (offset: number): { errors: Diagnostic[] } => {
    const at = line === 1 ? lineColumnsOf(text)(offset) : { line, col: 1 };
    return { errors: [problem(label, at.line, `${label} nests more than ${MAX_JSON_DEPTH} levels deep: it is not a docket lock file`, restoreHint(label), at.col)] };
  };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    // Nested thousands deep, the syntax error's place is found by a recursive reader: said by its depth first (second read SR92-4).
    const deep = offsetPastDepth(text);
    if (deep >= 0) return tooDeep(deep);
    const at = jsonErrorAt(error, text, line);
    return { errors: [problem(label, at.line, `${label} is not valid JSON${at.what ? ` (${at.what})` : ''}`, restoreHint(label), at.col)] };
  }
  if (!isPlainObject(value)) return { errors: [problem(label, line, `${label} is not a docket lock file`)] };
  if (nestsDeeperThan(value)) return tooDeep(Math.max(offsetPastDepth(text), 0));
  // Problems are found by path, and placed in the text only when there are any.
  const found = (problems: LockProblem[]): Diagnostic[] => {
    const lc = lineColumnsOf(text);
    const told = problems.slice(0, MAX_LOCK_PROBLEMS).map((p) => {
      // A side of a merge conflict is not the file's text: its problems are at the conflict.
      const at = line === 1 ? lc(p.offset ?? (p.atKey ? jsonKeyOffset(text, p.path) : inString(text, jsonValueOffset(text, p.path), p.within))) : { line, col: 1 };
      return problem(label, at.line, `${label}: ${p.message}`, p.hint, at.col);
    });
    const more = problems.length - told.length;
    // After the last one told, where a reader sorting by line and column finds it: not first, at
    // line 1, nor before the last one told on its own line (probe OJ-5).
    if (more === 0) return told;
    const last = told.reduce((latest, d) => (compareDiagnostics(d, latest) > 0 ? d : latest));
    // It stands for them all in the count of errors (probe OO-6).
    return [...told, { ...problem(label, last.line ?? line, `${label}: ${more} more problem${more === 1 ? '' : 's'} like these`, undefined, last.col), ...(more > 1 ? { count: more } : {}) }];
  };
  // A key written twice (both sides of a merge conflict kept): docket would take the last unsaid (probe GM).
  const twice: LockProblem[] = duplicateKeys(text, value).map((d) => ({
    path: d.path,
    offset: d.offset,
    message: `${d.path.length > 0 ? `${quoteValue(d.path[d.path.length - 1]!)} has ` : ''}key ${quoteValue(d.key)} written twice: JSON readers take one or the other; keep the one that is right`,
  }));
  const withTwice = (checkedDoc: { doc: LockDocument } | { errors: Diagnostic[] }): { doc: LockDocument } | { errors: Diagnostic[] } => ('doc' in checkedDoc && twice.length > 0 ? { errors: found(twice) } : checkedDoc);
  const foundToo = (problems: LockProblem[]): Diagnostic[] => found([...twice, ...problems]);
  const versionOne = value.version === 1 && isPlainObject(value.files);
  const versionTwo = value.version === 2 && isPlainObject(value.targets);
  // Of a document that is not a lock as read, the key written twice is what to mend (`"version": 2, "version": 1`).
  if (twice.length > 0 && !versionOne && !versionTwo) return { errors: found(twice) };
  if (versionOne) return withTwice(checked(fromVersion1(value as LegacySection & { emulator?: LegacySection }), [], foundToo));
  if (versionTwo) {
    const unknown = unknownKeyProblems(value);
    const read = checked(value as unknown as LockDocument, ['legacy'], (problems) => foundToo([...unknown, ...problems]));
    return withTwice('doc' in read && unknown.length > 0 ? { errors: foundToo(unknown) } : read);
  }
  // A version 2 lock whose sections are not a mapping: said at that value, quoting it, with every other problem.
  if (value.version === 2 && 'targets' in value) {
    const targets: LockProblem = { path: ['targets'], message: `\`targets\` must map each target to its \`files\` (got ${showJson(value.targets)})` };
    const rest = checked({ ...(value as unknown as LockDocument), targets: {} }, ['legacy'], (problems) => found([targets, ...problems]));
    return 'errors' in rest ? rest : { errors: found([targets]) };
  }
  // At the version it names, quoted, when that is what is wrong.
  const version = 'version' in value ? value.version : undefined;
  if (version !== 1 && version !== 2) {
    const at = line === 1 && version !== undefined ? lineColumnsOf(text)(jsonValueOffset(text, ['version'])) : { line, col: 1 };
    const got = version === undefined ? 'it has no `version`' : `its \`version\` is ${showJson(version)}`;
    return { errors: [problem(label, at.line, `${label} is not a docket lock file of version 1 or 2: ${got}`, undefined, at.col)] };
  }
  // A version without the mapping it holds (version 1's `files`, version 2's `targets`): said at the version.
  const section = version === 1 ? 'files' : 'targets';
  const at = line === 1 ? lineColumnsOf(text)(jsonValueOffset(text, ['version'])) : { line, col: 1 };
  const got = section in value ? `its \`${section}\` is ${showJson(value[section])}, not a mapping` : `it has no \`${section}\``;
  return { errors: [problem(label, at.line, `${label} is not a docket lock file: it says \`version\` ${version}, and ${got}`, undefined, at.col)] };
}

/** The keys of LockDocument, each once: the compiler says when one is added there and not here. */
const DOCUMENT_KEYS = Object.keys({ version: true, targets: true, synced: true, landing: true, legacy: true } satisfies Record<keyof LockDocument, true>);
const ENTRY_KEYS = Object.keys({ id: true, file: true, sha256: true, description: true, version: true, pinned: true, superseded: true, pending: true, abandoned: true } satisfies Record<keyof LockEntry, true>);
const ABANDONED_KEYS = Object.keys({ sha256: true, since: true } satisfies Record<keyof AbandonedRequest, true>);
const PENDING_KEYS = Object.keys({ sha256: true, file: true, version: true, description: true, since: true, answered: true, ended: true, replaces: true } satisfies Record<keyof PendingUpload, true>);

/** The keys of `held` (at `at`) that are none of `known`, each a problem at the key, with the one meant. */
function unknownKeys(held: readonly string[], known: readonly string[], where: string, at: readonly string[]): LockProblem[] {
  return held.filter((k) => !known.includes(k)).map((k) => ({ path: [...at, k], atKey: true, message: `${where} has the key ${showJson(k)}, which docket does not read${didYouMean(k, known)}` }));
}

/** As unknownKeyProblems, for an entry's keys and its pending upload's, in every section (probe OS-3). */
function entryKeyProblems(entry: unknown, path: string[], name: string): LockProblem[] {
  if (!isPlainObject(entry)) return [];
  const pending = entry.pending;
  return [...unknownKeys(Object.keys(entry), ENTRY_KEYS, `entry ${showJson(name)}`, path), ...(isPlainObject(pending) ? unknownKeys(Object.keys(pending), PENDING_KEYS, `the pending upload of ${showJson(name)}`, [...path, 'pending']) : [])];
}

/**
 * Keys a version 2 lock has not (`"file"` for `"files"`, hand-edited or merged wrong): read as
 * nothing, what they hold would be uploaded again without a word (probe NU-6).
 */
function unknownKeyProblems(doc: Record<string, unknown>): LockProblem[] {
  const out: LockProblem[] = [];
  const unknown = (path: string[], known: readonly string[], where: string): void => {
    out.push(...unknownKeys([path[path.length - 1]!], known, where, path.slice(0, -1)));
  };
  for (const key of Object.keys(doc)) unknown([key], DOCUMENT_KEYS, 'the file');
  for (const [target, section] of isPlainObject(doc.targets) ? Object.entries(doc.targets) : []) {
    for (const key of isPlainObject(section) ? Object.keys(section) : []) unknown(['targets', target, key], ['files'], `target ${showJson(target)}`);
  }
  return out;
}

function fromVersion1(v1: LegacySection & { emulator?: LegacySection }): LockDocument {
  const legacy: LockDocument['legacy'] = {};
  if (v1.files && Object.keys(v1.files).length > 0) legacy.files = v1.files;
  if (v1.environments) legacy.environments = v1.environments;
  if (v1.emulator) legacy.emulator = v1.emulator;
  return Object.keys(legacy).length > 0 ? { version: 2, targets: {}, legacy } : emptyDocument();
}

/** Each section's files, with the path of its `files` in the file (`legacyAt`: where the version 1 sections are). */
function allSections(doc: LockDocument, legacyAt: readonly string[]): [string[], Files][] {
  // A section with no `files` has none; `files: null` is a value the checks refuse, not none.
  const out: [string[], Files][] = Object.entries(doc.targets).flatMap(([k, s]): [string[], Files][] => (isPlainObject(s) ? [[['targets', k, 'files'], s.files === undefined ? {} : s.files]] : []));
  const legacy = doc.legacy;
  for (const [at, section] of [[legacyAt, legacy], [[...legacyAt, 'emulator'], legacy?.emulator]] as const) {
    if (!section) continue;
    out.push([[...at, 'files'], section.files === undefined ? {} : section.files]);
    for (const [env, s] of Object.entries(section.environments ?? {})) out.push([[...at, 'environments', env, 'files'], s?.files === undefined ? {} : s.files]);
  }
  return out;
}

/**
 * Keys as names are now compared, canonically composed (NFC): one an earlier docket recorded as a
 * file wrote it, an accent decomposed, still finds its object (an attachment's upload, above all,
 * which the services cannot list). A key already there in NFC keeps its own entry.
 */
function composeKeys(entries: Record<string, unknown>): void {
  for (const key of Object.keys(entries)) {
    const nfc = composed(key);
    if (nfc === key) continue;
    if (!Object.hasOwn(entries, nfc)) entries[nfc] = entries[key];
    delete entries[key];
  }
}

/** What is wrong with `landing`: each mark is `<action> <time>` under a `kind:key` of a kind docket has. */
function landingProblems(landing: unknown): LockProblem[] {
  if (landing === undefined) return [];
  if (!isPlainObject(landing)) return [{ path: ['landing'], message: '`landing` must map each target to `kind:key` → `<action> <time>`' }];
  const problems: LockProblem[] = [];
  for (const [target, marks] of Object.entries(landing)) {
    if (!isPlainObject(marks)) {
      problems.push({ path: ['landing', target], message: `\`landing\` target "${target}" must map \`kind:key\` → \`<action> <time>\` (got ${showJson(marks)})` });
      continue;
    }
    for (const [key, mark] of Object.entries(marks)) {
      const at = ['landing', target, key];
      const colon = key.indexOf(':');
      if (colon <= 0 || colon === key.length - 1) problems.push({ path: at, message: `landing mark key ${showJson(key)} is not \`kind:key\``, atKey: true });
      else if (!namesKind(key)) problems.push({ path: at, message: unknownKindOf('landing mark key', key), atKey: true });
      const parsed = typeof mark === 'string' ? parseLandingMark(mark) : undefined;
      // Read as no mark, the plan would send at once what may still land: made twice.
      if (!parsed) problems.push({ path: at, message: `landing mark "${key}" must be its action (\`create\`, \`invite\` or \`publish\`), a space and a time, then for a publish \`<field>=<digest>\` pairs (got ${showJson(mark)})` });
      // A mark of an action its kind never has would match no change: dropped unsaid, the write sent again.
      else if (colon > 0 && namesKind(key) && !kindNamed(key.slice(0, colon))?.actions.includes(parsed.action)) problems.push({ path: at, message: `landing mark "${key}" is of \`${parsed.action}\`, which docket never does to a ${key.slice(0, colon)}` });
      else if (!isIsoTime(parsed.since)) problems.push({ path: at, within: parsed.action.length + 1, message: `landing mark "${key}" has ${quoteValue(parsed.since)}, which is not a time (ISO 8601, as docket writes it)` });
    }
  }
  return problems;
}

/** What is wrong with a lock file, and the path of the value in it. */
interface LockProblem {
  path: string[];
  message: string;
  /** The character of the value's text (0: its first, escapes read) where the problem is, when not at the value itself. */
  within?: number;
  /** Where in the text the problem is, when not at a value (a key written twice). */
  offset?: number;
  /** The key itself is wrong (a kind docket has not): told at the key, not its value. */
  atKey?: true;
  /** What to do, when not the lock's usual (restore the file from git). */
  hint?: string;
}

/**
 * A sync record as formatSyncRecord writes it: an id that can be one segment of a URL (as
 * api/path-segment.ts takes ids), then `field=digest` pairs, each digest 10 hex digits or `unkept`.
 * A digest of another form would read as a field changed live (probe GJ). Anchored, the match costs
 * less than looking for the broken forms did (3 against 6 ms for 21,000 records).
 */
const SYNC_RECORD = new RegExp(`^(?!\\.\\.?(?: |$))[^ ${SEGMENT_BREAKERS}]+(?: [^= ]+=(?:[0-9a-fA-F]{10}|unkept))*$`);

/**
 * Where the character `within` of a JSON string starts in the text (`quote`: where the string
 * does): past each escape as written (`\u0062` is one character of six), probe GO.
 */
function inString(text: string, quote: number, within: number | undefined): number {
  if (within === undefined) return quote;
  let raw = quote + 1;
  for (let i = 0; i < within && raw < text.length; i++) raw += text[raw] !== '\\' ? 1 : text[raw + 1] === 'u' ? 6 : 2;
  return raw;
}

/** What is wrong with a sync record SYNC_RECORD refuses: its first bad part, named, at its place in the text. */
function syncRecordProblem(path: string[], key: string, record: string): LockProblem {
  const parts = record.split(' ');
  const bad = (within: number, what: string): LockProblem => ({ path, within, message: `sync record "${key}" ${what}` });
  const id = parts[0]!;
  if (id === '' || idProblem(id) !== undefined) return bad(0, `has id ${quoteValue(id)}, which cannot be one segment of a URL (\`<id> <field>=<digest> …\`)`);
  let at = id.length + 1;
  for (const part of parts.slice(1)) {
    // Field names are written URI-encoded: the first `=` ends one (`actions==…` is a digest `=…`).
    const eq = part.indexOf('=');
    if (part === '' || eq <= 0) return bad(at, `has ${quoteValue(part)} where \`<field>=<digest>\` goes`);
    const digest = part.slice(eq + 1);
    if (digest !== 'unkept' && !/^[0-9a-fA-F]{10}$/.test(digest)) return bad(at + eq + 1, `has ${quoteValue(digest)} as the digest of field ${quoteValue(part.slice(0, eq))}, which is not 10 hex digits`);
    at += part.length + 1;
  }
  return bad(0, `must be \`<id> <field>=<digest> …\`, each digest 10 hex digits (got ${showJson(record)})`);
}

/** The first field a record names a second time, and where that part starts in it. */
function repeatedField(record: string): { name: string; at: number } | undefined {
  // docket writes the fields in order: a name after a greater one, or the same, is the rare case
  // looked at with a set (20,000 records are read by every command).
  let previous = '';
  let seen: Set<string> | undefined;
  for (let at = record.indexOf(' '); at !== -1; ) {
    const next = record.indexOf(' ', at + 1);
    const name = record.slice(at + 1, record.indexOf('=', at));
    if (seen === undefined && name > previous) previous = name;
    else {
      seen ??= new Set(fieldNamesBefore(record, at));
      if (seen.has(name)) return { name, at: at + 1 };
      seen.add(name);
    }
    at = next;
  }
  return undefined;
}

/** The field names a record gives before position `end`. */
function fieldNamesBefore(record: string, end: number): string[] {
  const names: string[] = [];
  for (let at = record.indexOf(' '); at !== -1 && at < end; at = record.indexOf(' ', at + 1)) names.push(record.slice(at + 1, record.indexOf('=', at)));
  return names;
}

/** A record's id (a UUID) and digests in lower case; field names as they are (a template's own may hold capitals). */
function lowerCaseRecord(record: string): string {
  return record
    .split(' ')
    .map((part, i) => {
      if (i === 0) return UUID.test(part) ? part.toLowerCase() : part;
      const eq = part.indexOf('=');
      return `${part.slice(0, eq + 1)}${part.slice(eq + 1).toLowerCase()}`;
    })
    .join(' ');
}

/** Whether a `kind:key` names a kind of docket, as docket writes it. */
function namesKind(key: string): boolean {
  return isKindName(key.slice(0, Math.max(0, key.indexOf(':'))));
}

/** A key naming no kind of docket (`Attachment:A`, `widget:A`): hand-edited or merged wrong. */
function unknownKindOf(what: string, key: string): string {
  const colon = key.indexOf(':');
  const kind = colon < 0 ? key : key.slice(0, colon);
  // Written in another letter case (`Playbook:P`): said so, with the kind as docket writes it.
  const lower = kind.toLowerCase();
  const cased = lower !== kind && isKindName(lower) ? `, which docket writes \`${lower}\`` : '';
  return `${what} ${showJson(key)} names ${colon < 0 ? 'no kind (it is not `kind:key`)' : `no kind of docket (${showJson(kind)}${cased})`}: docket would read what it records as never recorded`;
}

/** Every problem of the document at once, each at its value (see `found`). */
/**
 * An attachment's entry whose sync record, of the same upload, says it was made under another name:
 * the key was renamed by hand (a search and replace over the repository). Attachments cannot be
 * read back, so the entry's key is their live name to docket: read so, the rename would never be
 * uploaded, and every plan would say the new name is live (probe OS-2).
 */
function renamedByHand(key: string, id: string, record: unknown): string | undefined {
  if (!key.startsWith('attachment:') || typeof record !== 'string') return undefined;
  const parsed = parseSyncRecord(record);
  const name = parsed?.fields.name;
  if (parsed?.id.toLowerCase() !== id.toLowerCase() || name === undefined || name === 'unkept' || name.toLowerCase() === fieldHash(normName(key.slice('attachment:'.length)))) return undefined;
  return `entry ${showJson(key)} records an upload made under another name (its sync record's \`name\` is not that of ${quoteValue(key.slice('attachment:'.length))}): an attachment renamed is a new upload, so its key cannot be renamed by hand`;
}

/**
 * Attachment sync records, by the upload id they record, whose key no entry of the section has:
 * an entry's key renamed by hand while its record kept the former one (probe YD-1).
 */
function attachmentRecordsWithoutEntry(records: Record<string, unknown> | undefined, files: Record<string, unknown>): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, record] of Object.entries(records ?? {})) {
    if (!key.startsWith('attachment:') || key in files || typeof record !== 'string') continue;
    const id = parseSyncRecord(record)?.id.toLowerCase();
    if (id !== undefined) out.set(id, record);
  }
  return out;
}

const RENAMED_BY_HAND_HINT = 'restore the entry\u2019s key and its sync record\u2019s from git, or remove both, so the next apply uploads the file under the new name';

function checked(doc: LockDocument, legacyAt: readonly string[], found: (problems: LockProblem[]) => Diagnostic[]): { doc: LockDocument } | { errors: Diagnostic[] } {
  const problems: LockProblem[] = [];
  const synced: unknown = doc.synced;
  if (synced !== undefined && !isPlainObject(synced)) problems.push({ path: ['synced'], message: '`synced` must map each target to `kind:key` → text' });
  else if (synced !== undefined) {
    for (const [target, records] of Object.entries(synced)) {
      if (!isPlainObject(records)) {
        problems.push({ path: ['synced', target], message: `\`synced\` target "${target}" must map \`kind:key\` → text (got ${showJson(records)})` });
        continue;
      }
      for (const [key, record] of Object.entries(records)) {
        const colon = key.indexOf(':');
        if (colon <= 0 || colon === key.length - 1) problems.push({ path: ['synced', target, key], message: `sync record key ${showJson(key)} is not \`kind:key\`` });
        else if (!namesKind(key)) problems.push({ path: ['synced', target, key], message: unknownKindOf('sync record key', key), atKey: true });
        if (typeof record !== 'string') problems.push({ path: ['synced', target, key], message: `sync record "${key}" must be text (got ${showJson(record)})` });
        // Read as no record, it would give the object an unknown direction without a word.
        else if (!SYNC_RECORD.test(record)) problems.push(syncRecordProblem(['synced', target, key], key, record));
        else {
          // A field written twice: either digest could be the one compared, and decide a change's direction (probe PM-7).
          const twice = repeatedField(record);
          if (twice) problems.push({ path: ['synced', target, key], within: twice.at, message: `sync record "${key}" names field ${quoteValue(decodeURIComponent(twice.name))} twice: either digest could be read; keep the one that is right` });
          // Read in lower case, as docket writes them: compared as written, a digest would look changed live.
          else if (/[A-F]/.test(record)) records[key] = lowerCaseRecord(record);
        }
      }
    }
  }
  problems.push(...landingProblems(doc.landing));
  for (const [target, section] of Object.entries(doc.targets)) {
    if (!isPlainObject(section)) problems.push({ path: ['targets', target], message: `target "${target}" must be an object holding its \`files\` (got ${showJson(section)})` });
  }
  for (const [at, files] of allSections(doc, legacyAt)) {
    if (!isPlainObject(files)) {
      problems.push({ path: at, message: `a section's files must be an object (got ${showJson(files)})` });
      continue;
    }
    // One upload is one resource's: read with two, one entry would be dropped unsaid and its file
    // uploaded again (probe GJ). Not so `docket test`'s contracts (`imported-file:<sha256>`): an
    // entry per file's bytes, each only ever asked for by them.
    const holderOfId = new Map<string, string>();
    /** The section's attachment sync records whose key has no entry, by upload id: read when an entry has no record under its own key. */
    let strayRecords: Map<string, string> | undefined;
    for (const [key, entry] of Object.entries(files)) {
      // An entry's keys, in every section: `Pending` read as nothing lets a second upload go where one may have landed (probe OS-3, second read SR81-4).
      problems.push(...entryKeyProblems(entry, [...at, key], key));
      // Read under no kind, an upload's entry is none, and the next apply uploads it again (probe HI).
      if (!key.startsWith('imported-file:') && !namesKind(key)) {
        problems.push({ path: [...at, key], message: unknownKindOf('entry key', key), atKey: true });
        continue;
      }
      const e = entry as LockEntry | null;
      const confirmed = isPlainObject(e) && typeof e.id === 'string' && typeof e.file === 'string' && typeof e.sha256 === 'string';
      if (confirmed && !key.startsWith('imported-file:')) {
        const written = e.id as string;
        const id = `${key.slice(0, key.indexOf(':'))}:${written.toLowerCase()}`;
        const holder = holderOfId.get(id);
        if (holder === undefined) holderOfId.set(id, key);
        else problems.push({ path: [...at, key, 'id'], message: `entry "${key}" has id ${quoteValue(written)}, which entry "${holder}" has too: one upload is one resource's (keep the entry of the resource it is, and remove the other's, which its next apply uploads again)` });
      }
      const renamed = confirmed && at[0] === 'targets' ? renamedByHand(key, e.id as string, doc.synced?.[at[1]!]?.[key] ?? (strayRecords ??= attachmentRecordsWithoutEntry(doc.synced?.[at[1]!], files)).get((e.id as string).toLowerCase())) : undefined;
      if (renamed) problems.push({ path: [...at, key], atKey: true, message: renamed, hint: RENAMED_BY_HAND_HINT });
      const pending = isPlainObject(e) && isPlainObject(e.pending) && typeof e.pending.file === 'string' && typeof e.pending.sha256 === 'string' && typeof e.pending.since === 'string';
      if (!(confirmed || (pending && e?.id === undefined))) {
        // Each field that is missing or not text, at its own value: "needs id, file and sha256" said neither which nor why.
        // An entry of only a pending mark (a create never confirmed) is told by that mark's problem.
        if (isPlainObject(e) && e.pending !== undefined && e.id === undefined) {
          problems.push(pendingProblem(e.pending, [...at, key], key));
          continue;
        }
        const fields = isPlainObject(e) ? (['id', 'file', 'sha256'] as const).filter((f) => typeof e[f] !== 'string') : [];
        if (fields.length === 0) problems.push({ path: [...at, key], message: `entry "${key}" needs id, file and sha256${isPlainObject(e) ? '' : ` (got ${showJson(e)})`}` });
        for (const f of fields) {
          const value = (e as unknown as Record<string, unknown>)[f];
          problems.push(value === undefined ? { path: [...at, key], message: `entry "${key}" has no \`${f}\`` } : { path: [...at, key, f], message: `entry "${key}" has ${f} ${showJson(value)}, which is not text` });
        }
        if (isPlainObject(e) && typeof e.sha256 === 'string' && !SHA256.test(e.sha256)) problems.push({ path: [...at, key, 'sha256'], message: `entry "${key}" has sha256 ${quoteValue(e.sha256)}, which is not 64 hex digits` });
        continue;
      }
      if (e?.superseded !== undefined && !(Array.isArray(e.superseded) && e.superseded.every((id) => typeof id === 'string'))) {
        problems.push({ path: [...at, key, 'superseded'], message: `entry "${key}" has superseded ${showJson(e.superseded)}, which is not a list of ids` });
      }
      if (e?.pending !== undefined && !pending) problems.push(pendingProblem(e.pending, [...at, key], key));
      if (e?.abandoned !== undefined) problems.push(...abandonedProblems(e.abandoned, [...at, key, 'abandoned'], key));
      problems.push(...entryValueProblems(e as unknown as Record<string, unknown>, [...at, key], key, confirmed, pending));
      // A hand-edited digest would only ever look like a changed file, and upload it again.
      for (const [digest, where] of [
        [confirmed ? entry.sha256 : undefined, ['sha256']],
        [pending ? entry.pending?.sha256 : undefined, ['pending', 'sha256']],
      ] as const) {
        if (typeof digest === 'string' && !SHA256.test(digest)) problems.push({ path: [...at, key, ...where], message: `entry "${key}" has ${where.join('.')} ${quoteValue(digest)}, which is not 64 hex digits` });
      }
    }
  }
  if (problems.length > 0) return { errors: found(problems) };
  doc.targets = canonicalSections(doc.targets, (into, from) => ({ ...into, files: { ...from.files, ...into.files } }));
  if (doc.synced) doc.synced = canonicalSections(doc.synced, (into, from) => ({ ...from, ...into }));
  if (doc.landing) doc.landing = canonicalSections(doc.landing, laterMarks);
  for (const [, files] of allSections(doc, legacyAt)) {
    composeKeys(files);
    for (const entry of Object.values(files)) lowerCaseHex(entry);
  }
  for (const records of [...Object.values(doc.synced ?? {}), ...Object.values(doc.landing ?? {})]) composeKeys(records);
  return { doc };
}

/** What is wrong with an entry's `abandoned`: it must be `{ sha256, since }`, a digest and a time. */
function abandonedProblems(value: unknown, path: string[], key: string): LockProblem[] {
  if (!isPlainObject(value)) return [{ path, message: `entry "${key}" has abandoned ${showJson(value)}, which is not \`{ sha256, since }\`` }];
  const unknown = unknownKeys(Object.keys(value), ABANDONED_KEYS, `the abandoned request of ${showJson(key)}`, path);
  if (unknown.length > 0) return unknown;
  // A key left out is said so, not as JavaScript's `undefined` (probe SC-3).
  if (value.sha256 === undefined) return [{ path, message: `entry "${key}" has an abandoned request with no \`sha256\`` }];
  if (typeof value.sha256 !== 'string' || !SHA256.test(value.sha256)) return [{ path: [...path, 'sha256'], message: `entry "${key}" has abandoned.sha256 ${showJson(value.sha256)}, which is not 64 hex digits` }];
  if (value.since === undefined) return [{ path, message: `entry "${key}" has an abandoned request with no \`since\` (the time docket gave it up)` }];
  if (typeof value.since !== 'string' || !Number.isFinite(Date.parse(value.since))) return [{ path: [...path, 'since'], message: `entry "${key}" has abandoned.since ${showJson(value.since)}, which is not a time (ISO 8601)` }];
  return [];
}

/**
 * Ids and digests in lower case, as the services and docket write them: one written in upper case
 * names the same upload, and compared as written it would look changed live and be uploaded again.
 */
function lowerCaseHex(entry: LockEntry): void {
  if (entry.id !== undefined) entry.id = entry.id.toLowerCase();
  if (entry.sha256 !== undefined) entry.sha256 = entry.sha256.toLowerCase();
  if (entry.pinned !== undefined) entry.pinned = entry.pinned.toLowerCase();
  if (entry.superseded) entry.superseded = entry.superseded.map((id) => id.toLowerCase());
  if (entry.pending) entry.pending.sha256 = entry.pending.sha256.toLowerCase();
  if (entry.abandoned) entry.abandoned.sha256 = entry.abandoned.sha256.toLowerCase();
  if (entry.pending?.replaces) entry.pending.replaces = entry.pending.replaces.map((id) => id.toLowerCase());
}

/**
 * The values of an entry whose shape is right (its text fields are text) that docket cannot take
 * all the same: each would be sent or compared as it is, so a hand edit or a bad merge would show
 * as a change made live, or as a file to upload again, and apply would act on it.
 */
function entryValueProblems(entry: Record<string, unknown>, at: readonly string[], key: string, confirmed: boolean, pending: boolean): LockProblem[] {
  const out: LockProblem[] = [];
  const bad = (path: readonly string[], value: unknown, why: string): void => {
    out.push({ path: [...at, ...path], message: `entry "${key}" has ${path.join('.')} ${showJson(value)}, which ${why}` });
  };
  // An id that is not one would be sent to the service (`""` reads as no upload at all, and plans one).
  if (confirmed && !UUID.test(entry.id as string)) bad(['id'], entry.id, NOT_UUID);
  if (entry.pinned !== undefined && !(typeof entry.pinned === 'string' && UUID.test(entry.pinned))) bad(['pinned'], entry.pinned, NOT_UUID);
  if (Array.isArray(entry.superseded)) {
    entry.superseded.forEach((id: unknown, i) => {
      if (typeof id === 'string' && !UUID.test(id)) bad(['superseded', String(i)], id, NOT_UUID);
    });
  }
  const parts: [readonly string[], Record<string, unknown>][] = [];
  if (confirmed) parts.push([[], entry]);
  if (pending) parts.push([['pending'], entry.pending as Record<string, unknown>]);
  for (const [where, part] of parts) {
    if (typeof part.file === 'string' && !isFileName(part.file)) bad([...where, 'file'], part.file, 'is not a file name within the configuration directory');
    const description = part.description;
    if (description !== undefined && description !== null && typeof description !== 'string') bad([...where, 'description'], description, 'is not text');
    // None the files give can hold one: compared, it would always differ, and upload the file again.
    else if (typeof description === 'string' && CONTROL_CHARACTER.test(description)) bad([...where, 'description'], description, 'holds a control character');
    const version = part.version;
    if (version !== undefined && !(typeof version === 'number' && Number.isSafeInteger(version) && version >= 1)) bad([...where, 'version'], version, 'is not a version number (a whole number from 1)');
  }
  if (pending) {
    const mark = entry.pending as Record<string, unknown>;
    const since = mark.since as string;
    if (!isIsoTime(since)) bad(['pending', 'since'], since, 'is not a time (ISO 8601, as docket writes it)');
    for (const flag of ['answered', 'ended'] as const) {
      if (mark[flag] !== undefined && mark[flag] !== true) bad(['pending', flag], mark[flag], 'is not `true`');
    }
    if (mark.replaces !== undefined && !(Array.isArray(mark.replaces) && mark.replaces.every((id) => typeof id === 'string' && UUID.test(id)))) bad(['pending', 'replaces'], mark.replaces, 'is not a list of UUIDs');
  }
  return out;
}

const NOT_UUID = 'is not a UUID (8-4-4-4-12 hex digits)';

/** A `pending` mark that is not one: at the first of its file, sha256 and since that is missing or not text, quoting it. */
function pendingProblem(mark: unknown, at: readonly string[], key: string): LockProblem {
  if (!isPlainObject(mark)) return { path: [...at, 'pending'], message: `entry "${key}" has a \`pending\` mark ${showJson(mark)}, which is not one (its file, sha256 and since)` };
  const field = (['file', 'sha256', 'since'] as const).find((f) => typeof mark[f] !== 'string')!;
  return mark[field] === undefined
    ? { path: [...at, 'pending'], message: `entry "${key}" has a \`pending\` mark without its ${field}` }
    : { path: [...at, 'pending', field], message: `entry "${key}" has pending.${field} ${showJson(mark[field])}, which is not text` };
}

/** A file as an entry records it: one line, no control character. */
/** A path relative to the configuration directory and inside it, as docket records the files it uploaded. */
function isFileName(file: string): boolean {
  const outside = /^([\\/]|[A-Za-z]:)/.test(file) || file.split(/[\\/]/).includes('..');
  return file.trim() !== '' && !outside && !CONTROL_CHARACTER.test(file) && !/[\n\r\t]/.test(file);
}

/** `2026-11-28T10:00:00.000Z`, as toISOString writes it (an offset is read too). */
const ISO_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})$/;

/** A time as ISO_TIME writes it, on a day the calendar has: Date.parse takes 30 February and 24:00 (as 2 March, the next day). */
function isIsoTime(text: string): boolean {
  const m = ISO_TIME.exec(text);
  if (!m || Number.isNaN(Date.parse(text))) return false;
  const [year, month, day, hour, minute, second] = m.slice(1).map((n) => Number(n ?? 0)) as [number, number, number, number, number, number];
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 && second <= 59;
}

/** A lock written wrong throughout is told by its first problems, not by one per record. */
const MAX_LOCK_PROBLEMS = 20;

const SHA256 = /^[0-9a-f]{64}$/i;

interface ConflictSides {
  ours: string;
  theirs: string;
  /** 1-based line of the first `<<<<<<<`. */
  line: number;
  /** The file's line (1-based) of each line of a side, so a problem in it is said where it is. */
  oursLines: number[];
  theirsLines: number[];
  /** A conflict whose markers do not close (a `<<<<<<<` without its `=======` or `>>>>>>>`): what is missing, and where. */
  unclosed?: { line: number; missing: string; where: 'after' | 'before' };
}

/** A file with git conflict markers, as the two whole files either side would have written. */
function splitConflict(text: string): ConflictSides | undefined {
  // The common case, told without splitting a lock of 300,000 lines (a search for the marker
  // alone is ten times faster than one starting with a line break).
  if (!text.includes('<<<<<<<')) return undefined;
  const lines = text.split('\n');
  const first = lines.findIndex((l) => l.startsWith('<<<<<<<'));
  if (first < 0) return undefined;
  const ours: string[] = [];
  const theirs: string[] = [];
  const oursLines: number[] = [];
  const theirsLines: number[] = [];
  let state: 'both' | 'ours' | 'base' | 'theirs' = 'both';
  let opened = 0;
  let unclosed: ConflictSides['unclosed'];
  /** The conflict opened last does not close: what its side still lacks. */
  const openedUnclosed = (): NonNullable<ConflictSides['unclosed']> => ({ line: opened, missing: state === 'theirs' ? '>>>>>>>' : '======= and >>>>>>>', where: 'after' });
  lines.forEach((l, i) => {
    // A marker where the one before it is not closed: the hand edit left a marker out (probe GS).
    if (l.startsWith('<<<<<<<') && state !== 'both') unclosed ??= openedUnclosed();
    if (l.startsWith('>>>>>>>') && state !== 'theirs') unclosed ??= { line: i + 1, missing: state === 'both' ? '<<<<<<<' : '=======', where: 'before' };
    if (l.startsWith('<<<<<<<')) (state = 'ours'), (opened = i + 1);
    else if (l.startsWith('|||||||')) state = 'base';
    else if (l.startsWith('=======') && state !== 'both') state = 'theirs';
    else if (l.startsWith('>>>>>>>')) state = 'both';
    else {
      if (state === 'both' || state === 'ours') (ours.push(l), oursLines.push(i + 1));
      if (state === 'both' || state === 'theirs') (theirs.push(l), theirsLines.push(i + 1));
    }
  });
  if (state !== 'both') unclosed ??= openedUnclosed();
  return { ours: ours.join('\n'), theirs: theirs.join('\n'), line: first + 1, oursLines, theirsLines, ...(unclosed ? { unclosed } : {}) };
}

const CONFLICT_HINT =
  'keep every entry only one side has; of an entry the two sides record differently, keep the side whose `sha256` is that of the file in the repository (`sha256sum FILE`), then remove the markers';

/**
 * Of two uploads the sides record for one resource, the later one, when the lock says which (probe
 * OS-1): the one whose entry lists the other's id as `superseded`, or whose id the resource's sync
 * record names on both sides (that record line merged cleanly from the side that uploaded last).
 */
function laterUpload(mine: LockEntry, theirs: LockEntry, records: readonly (string | undefined)[]): { id: string; replaced: string; by: 'superseded' | 'records' } | undefined {
  const [a, b] = [mine.id, theirs.id];
  if (a === undefined || b === undefined || a === b) return undefined;
  const replaces = (id: string) => mine.superseded?.includes(id) === true || theirs.superseded?.includes(id) === true;
  if (replaces(a) !== replaces(b)) return replaces(a) ? { id: b, replaced: a, by: 'superseded' } : { id: a, replaced: b, by: 'superseded' };
  const recorded = records.map((r) => (r === undefined ? undefined : recordId(r)));
  for (const [id, other] of [[a, b], [b, a]] as const) {
    if (recorded.every((r) => r === id)) return { id, replaced: other, by: 'records' };
  }
  return undefined;
}

/** One side renamed a resource whose upload the other side recorded under its former name. */
const RENAMED_HINT =
  'one side renamed the resource the upload is of: keep its entry under the name the files give it now, and both sides\u2019 other entries, then remove the markers';

/** Both sides uploaded the same file (two checkouts applied at once, probe JF-4): either upload holds it. */
const SAME_FILE_HINT =
  'both sides uploaded the same file, as two uploads: keep either entry (the one whose id the live templates name saves a re-point; the other upload is left unnamed), then remove the markers';

/** A conflict docket will not read: no entries, and the one problem that says what to do. */
function unreadConflict(said: Diagnostic): ReadLockResult {
  return { doc: emptyDocument(), diagnostics: [said] };
}

/** Both sides of a conflict as one document when no entry has two different values. */
function mergeSides(sides: ConflictSides, label: string): ReadLockResult {
  // Each side read as a whole file, its problems placed in it, then on the file's own lines.
  if (sides.unclosed) {
    const { line, missing, where } = sides.unclosed;
    return { doc: emptyDocument(), diagnostics: [problem(label, line, `${label} has a merge conflict whose markers do not close: no ${missing} ${where} line ${line}`, 'put the missing marker line back, or resolve the conflict by hand and remove every marker')] };
  }
  const a = parseDocument(sides.ours, label, 1);
  const b = parseDocument(sides.theirs, label, 1);
  if ('errors' in a || 'errors' in b) {
    // What is wrong with each side, said where it is: a key written twice in it is no matter of uploads (probe GO, GQ, GS).
    const told: Diagnostic[] = [];
    for (const [side, read, fileLines] of [['the side before =======', a, sides.oursLines], ['the side after =======', b, sides.theirsLines]] as const) {
      if (!('errors' in read)) continue;
      for (const e of read.errors) {
        // `docket.lock.json: key … written twice`, `docket.lock.json is not valid JSON (…)`: said without the file's name.
        const why = e.message.startsWith(label) ? e.message.slice(label.length).replace(/^:? /, '') : 'it is not a lock file';
        told.push(problem(label, fileLines[(e.line ?? 1) - 1] ?? sides.line, `${label} has a merge conflict that docket cannot read (${side}: ${why})`, `mend ${side}, then remove the markers (keeping the other side whole drops this side's entries: the next apply would upload their files again)`, e.col ?? 1));
      }
    }
    return { doc: emptyDocument(), diagnostics: told };
  }
  // An entry whose lines git took from both sides: neither side's upload (probe DR-1).
  for (const [side, read] of [['the side before =======', a], ['the side after =======', b]] as const) {
    const spliced = splicedEntries(read.doc);
    if (spliced.length === 0) continue;
    return unreadConflict(
      problem(
        label,
        sides.line,
        `${label} has a merge conflict in which git took part of ${spliced.map((k) => JSON.stringify(k)).join(', ')} from each side: read with ${side}, ${spliced.length === 1 ? 'its entry records' : 'their entries record'} a \`sha256\` that ${spliced.length === 1 ? 'its' : 'their'} own sync record says the upload does not hold`,
        "resolve the conflict by hand: keep each such entry's lines all from one side (its `id` with that side's `sha256`, `file` and `description`) and every entry only one side has, then remove the markers; the next apply uploads the file again where it differs",
      ),
    );
  }
  // A version 1 side against a version 2 one (a branch moved to a newer docket): read as moved too.
  const ambiguous = [...relocateLegacy(a.doc, b.doc), ...relocateLegacy(b.doc, a.doc)];
  if (ambiguous.length > 0) {
    return {
      doc: emptyDocument(),
      diagnostics: [problem(label, sides.line, `${label} has a merge conflict between a version 1 side and a version 2 side, and the entries of ${ambiguous.join(', ')} may belong to more than one target section of the other side`, CONFLICT_HINT)],
    };
  }
  const merged = structuredClone(a.doc);
  const clashes: string[] = [];
  /** Of each clash of two uploads, which to keep, when the lock says which is later. */
  const keeps: string[] = [];
  /** Whether every clash is one file uploaded on both sides: the same bytes, two upload ids. */
  let onlyIds = true;
  let renamedOnOneSide = false;
  for (const [target, section] of Object.entries(b.doc.targets)) {
    const into = (merged.targets[target] ??= { files: {} });
    // A side's section may hold no files (only sync records were ever written for it).
    const files = (into.files ??= {});
    for (const [key, entry] of Object.entries(section.files ?? {})) {
      const mine = files[key];
      const together = mine ? sameUploadMerged(mine, entry) : undefined;
      if (together) files[key] = together;
      else if (mine && JSON.stringify(mine) !== JSON.stringify(entry)) {
        // Said by target and by what differs: both sides may name the same file with another upload id.
        const differ = [...new Set([...Object.keys(mine), ...Object.keys(entry)])].filter((f) => JSON.stringify((mine as unknown as Record<string, unknown>)[f]) !== JSON.stringify((entry as unknown as Record<string, unknown>)[f]));
        clashes.push(`${JSON.stringify(key)} of ${target} (${differ.map((f) => `\`${f}\``).join(', ')})`);
        if (differ.some((f) => f !== 'id')) onlyIds = false;
        const later = laterUpload(mine, entry, [a.doc.synced?.[target]?.[key], b.doc.synced?.[target]?.[key]]);
        if (later) {
          const rest = differ.filter((f) => f !== 'id' && f !== 'file' && f !== 'superseded');
          keeps.push(
            `of ${JSON.stringify(key)}, keep \`id\` ${JSON.stringify(later.id)}, the later upload (${later.by === 'superseded' ? `it replaced ${JSON.stringify(later.replaced)}` : 'whose id both sides\u2019 sync records name'})${rest.length > 0 ? ` with its side\u2019s ${rest.map((f) => `\`${f}\``).join(', ')}` : ''}${differ.includes('file') ? ', and the `file` the repository holds' : ''}`,
          );
        } else keeps.push('');
      } else files[key] = entry;
    }
  }
  // One upload under two names: a side renamed the resource. Read so, the next write is refused (probe NU-4).
  for (const [target, section] of Object.entries(merged.targets)) {
    for (const [first, second] of namesOfOneUpload(section.files ?? {})) {
      clashes.push(`${JSON.stringify(first)} and ${JSON.stringify(second)} of ${target} (the same upload \`id\` under two names)`);
      onlyIds = false;
      renamedOnOneSide = true;
    }
  }
  // A sync record the two sides changed differently tells nothing: without it the direction is unknown.
  let dropped = 0;
  for (const [target, records] of Object.entries(b.doc.synced ?? {})) {
    const into = ((merged.synced ??= {})[target] ??= {});
    for (const [key, record] of Object.entries(records)) {
      if (into[key] === undefined) into[key] = record;
      else if (into[key] !== record) {
        into[key] = '';
        dropped++;
      }
    }
    // One object under two names, one on each side (a rename on one branch): neither is known to hold (probe NU-5).
    for (const keys of keysOfOneObject(into, a.doc.synced?.[target] ?? {}, records)) {
      for (const key of keys) into[key] = '';
      dropped += keys.length;
    }
    merged.synced[target] = Object.fromEntries(Object.entries(into).filter(([, v]) => v !== ''));
  }
  for (const [target, marks] of Object.entries(b.doc.landing ?? {})) (merged.landing ??= {})[target] = laterMarks(merged.landing[target] ?? {}, marks);
  if (merged.landing) merged.landing = inOrder(Object.fromEntries(Object.entries(merged.landing).map(([target, marks]) => [target, inOrder(marks)])));
  // Theirs came after ours: in key order, as every write keeps them, or the next write churns the file.
  if (merged.synced) merged.synced = inOrder(Object.fromEntries(Object.entries(merged.synced).map(([target, records]) => [target, inOrder(records)])));
  if (b.doc.legacy && JSON.stringify(b.doc.legacy) !== JSON.stringify(a.doc.legacy ?? b.doc.legacy)) (clashes.push('the version 1 sections'), (onlyIds = false));
  merged.legacy ??= b.doc.legacy;
  if (merged.legacy === undefined) delete merged.legacy;
  if (clashes.length > 0) {
    return unreadConflict(
      problem(
        label,
        sides.line,
        `${label} has a merge conflict whose two sides record ${clashes.join(', ')} differently`,
        // Each clash of two uploads whose later one the lock names: what to keep, said outright.
        !renamedOnOneSide && keeps.length === clashes.length && keeps.every((k) => k !== '') ? `${keeps.join('; ')}; keep every entry only one side has, then remove the markers` : onlyIds ? SAME_FILE_HINT : renamedOnOneSide ? RENAMED_HINT : CONFLICT_HINT,
      ),
    );
  }
  const records = dropped === 1 ? '1 sync record' : `${dropped} sync records`;
  return {
    doc: merged,
    diagnostics: [
      {
        severity: 'warning',
        code: 'lock-merge-conflict',
        message:
          dropped === 0
            ? `${label} has a merge conflict; docket reads both sides, which do not contradict, and writes the file whole on the next apply`
            : `${label} has a merge conflict; docket reads both sides' file entries, which do not contradict, drops the ${records} the two sides disagree on (those objects' direction is unknown until an apply or a pull records them again), and writes the file whole on the next apply`,
        file: label,
        line: sides.line,
        col: 1,
        hint: dropped === 0 ? 'or remove the markers by hand, keeping both sides’ entries' : 'or resolve it by hand: keep both sides’ file entries, and of a sync record the two sides disagree on, neither',
      },
    ],
    ...(dropped > 0 ? { droppedRecords: dropped } : {}),
  };
}

/**
 * Moves each version 1 section of `doc` into the target section `other` moved it to, as the next
 * apply would have: the section of `other` that records an upload of the same resource under the
 * same id. Without it the two sides' entries would never meet, a section of its own hiding the
 * version 1 one, and the version 1 side's uploads would be made again (probe PJ-1). Returns the
 * sections that match more than one target (none: left as they are).
 */
function relocateLegacy(doc: LockDocument, other: LockDocument): string[] {
  const legacy = doc.legacy;
  if (!legacy || Object.keys(other.targets).length === 0) return [];
  const ambiguous: string[] = [];
  const sections: [string, { files?: Files } | undefined][] = [
    ['the version 1 `files`', legacy],
    ...Object.entries(legacy.environments ?? {}).map(([e, section]): [string, { files?: Files }] => [`version 1 environment ${JSON.stringify(e)}`, section]),
    ['the version 1 emulator `files`', legacy.emulator],
    ...Object.entries(legacy.emulator?.environments ?? {}).map(([e, section]): [string, { files?: Files }] => [`version 1 emulator environment ${JSON.stringify(e)}`, section]),
  ];
  for (const [name, section] of sections) {
    const files = section?.files;
    if (!files || Object.keys(files).length === 0) continue;
    const into = Object.entries(other.targets).filter(([, t]) => Object.entries(files).some(([key, entry]) => t.files?.[key]?.id === entry.id));
    if (into.length > 1) ambiguous.push(name);
    if (into.length !== 1) continue;
    const [target] = into[0]!;
    const own = (doc.targets[target] ??= { files: {} });
    for (const [key, entry] of Object.entries(files)) own.files[key] ??= entry;
    delete section!.files;
  }
  for (const section of [legacy, legacy.emulator]) {
    if (!section?.environments) continue;
    for (const [e, s] of Object.entries(section.environments)) if (Object.keys(s).length === 0) delete section.environments[e];
    if (Object.keys(section.environments).length === 0) delete section.environments;
  }
  if (legacy.emulator && Object.keys(legacy.emulator).length === 0) delete legacy.emulator;
  if (Object.keys(legacy).length === 0) delete doc.legacy;
  return ambiguous;
}

/** The entries of one target, falling back to the version 1 section this run would have used. */
export function lockSection(doc: LockDocument, target: string, location: LockLocation): LockFile {
  const own = doc.targets[target];
  // Only when the target is known: without it, every section could be this one.
  const elsewhere = target === '' ? undefined : otherIds(doc, target);
  // The version 1 section too, where a target section is there already (written by another
  // environment of the same organization, or a merge conflict's version 2 side): its entries the
  // section does not hold are this run's still (probe PJ-1).
  const legacy = legacyFiles(doc, location);
  const read = own && legacy ? { ...legacy, ...own.files } : own ? own.files : legacy;
  // Another environment's version 1 section that records an upload this one does is of the same
  // organization, whose environments share one section now: its other entries are this run's too (probe PN-1).
  const files = read ? { ...sameOrganizationLegacy(doc, location, read), ...read } : read;
  const elsewhereKeys = target === '' ? undefined : otherKeys(doc, target, files ?? {});
  return { files: { ...files }, ...(elsewhere && elsewhere.size > 0 ? { elsewhere } : {}), ...(elsewhereKeys && elsewhereKeys.size > 0 ? { elsewhereKeys } : {}) };
}

function otherKeys(doc: LockDocument, target: string, own: Files): Set<string> {
  const keys = new Set<string>();
  for (const [key, section] of Object.entries(doc.targets)) if (key !== target) for (const k of Object.keys(section.files)) if (!(k in own)) keys.add(k);
  return keys;
}

function otherIds(doc: LockDocument, target: string): Set<string> {
  const ids = new Set<string>();
  for (const [key, section] of Object.entries(doc.targets)) {
    if (key === target) continue;
    for (const entry of Object.values(section.files)) for (const id of [entry.id, entry.pinned]) if (id) ids.add(id);
  }
  // An id this target records too (two URLs of one organization) is its own.
  for (const entry of Object.values(doc.targets[target]?.files ?? {})) for (const id of [entry.id, entry.pinned]) if (id) ids.delete(id);
  return ids;
}

/**
 * The environments whose version 1 sections (of this run's kind, emulator or not) still hold entries
 * and that `isDefined` says docket.yaml no longer defines: after a rename, the entries wait under
 * the former name, which no run reads any more (probe HP-1).
 */
export function strandedLegacyEnvironments(doc: LockDocument, location: LockLocation, isDefined: (environment: string) => boolean): string[] {
  const legacy = location.emulator ? doc.legacy?.emulator : doc.legacy;
  return Object.entries(legacy?.environments ?? {})
    .filter(([name, section]) => name !== location.environment && Object.keys(section.files ?? {}).length > 0 && !isDefined(name))
    .map(([name]) => name);
}

/** The entries of the other version 1 sections (of this run's kind, emulator or not) that record an upload `files` records too. */
function sameOrganizationLegacy(doc: LockDocument, location: LockLocation, files: Files): Files {
  const legacy = location.emulator ? doc.legacy?.emulator : doc.legacy;
  if (!legacy) return {};
  const ids = new Set(Object.values(files).map((e) => e.id?.toLowerCase()));
  const sections = [...(location.environment !== undefined ? [legacy.files] : []), ...Object.entries(legacy.environments ?? {}).filter(([e]) => e !== location.environment).map(([, section]) => section.files)];
  const out: Files = {};
  for (const section of sections) {
    if (section && Object.values(section).some((e) => e.id !== undefined && ids.has(e.id.toLowerCase()))) Object.assign(out, section);
  }
  return out;
}

/** The version 1 section a run at `location` used (its `--env`, emulator or not). */
function legacyFiles(doc: LockDocument, location: LockLocation): Files | undefined {
  const legacy = location.emulator ? doc.legacy?.emulator : doc.legacy;
  return location.environment ? legacy?.environments?.[location.environment]?.files : legacy?.files;
}

/** Whether the lock has a section of the agreements service at `url`: a run then needs to know whose it is. */
export function hasAgreementsSection(doc: LockDocument, url: string): boolean {
  return agreementsSections(doc, url).length > 0;
}

/**
 * Which target a run's entries belong to. With the organization the agreements key acts for
 * asked, it is the service's URL and that organization; without (an export of attachments alone
 * with no key reads only the lock), the one section recorded for that URL, if there is exactly one.
 */
export async function resolveLockTarget(
  doc: LockDocument,
  options: { emulator: boolean; emulatorOrganization?: string; agreementsUrl?: string; organizationId?: () => Promise<string>; configuredOrganization?: string },
): Promise<string | undefined> {
  if (options.emulator) return emulatorLockTarget(options.emulatorOrganization);
  if (!options.agreementsUrl) return undefined;
  if (options.organizationId) return agreementsTarget(options.agreementsUrl, await options.organizationId());
  // Not asked (no key), the organization docket.yaml (or the --env) names for the agreements service is the section (probe OY-1).
  if (options.configuredOrganization !== undefined) return agreementsTarget(options.agreementsUrl, options.configuredOrganization);
  const known = agreementsSections(doc, options.agreementsUrl);
  return known.length === 1 ? known[0] : undefined;
}

/** The lock's sections of the agreements service at `url`, one per organization. */
export function agreementsSections(doc: LockDocument, url: string): string[] {
  const prefix = agreementsTarget(url, '');
  return Object.keys(doc.targets).filter((k) => k.startsWith(prefix));
}

/** Both sections' marks (two sides of a merge conflict, two spellings of a target): of one object, the later, whose window ends last. */
function laterMarks(a: LandingSection, b: LandingSection): LandingSection {
  const time = (mark: string | undefined): number => (mark === undefined ? -Infinity : Date.parse(parseLandingMark(mark)?.since ?? ''));
  const out = { ...a };
  for (const [key, mark] of Object.entries(b)) if (!(time(out[key]) >= time(mark))) out[key] = mark;
  return out;
}

/** The landing marks of one target (none: empty). */
export function landingMarks(doc: LockDocument, target: string): Readonly<LandingSection> {
  return doc.landing?.[target] ?? {};
}

/** The sync records of one target (none recorded: empty), as read: not copied, for they are 20,000 and only read. */
export function syncRecords(doc: LockDocument, target: string): Readonly<SyncRecords> {
  return doc.synced?.[target] ?? {};
}

const sorted = <T>(files: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(files).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

/** The order docket writes an entry's fields in, whatever order a file read had them in (a formatter's). */
const ENTRY_FIELDS: readonly (keyof LockEntry)[] = ['id', 'file', 'sha256', 'description', 'version', 'pinned', 'superseded', 'pending'];

function inEntryOrder(entry: LockEntry): LockEntry {
  const out: Record<string, unknown> = {};
  for (const field of ENTRY_FIELDS) if (entry[field] !== undefined) out[field] = entry[field];
  for (const [field, value] of Object.entries(entry)) if (!(field in out)) out[field] = value;
  return out as LockEntry;
}

/** Targets sorted, each section's entries sorted by key with their fields in docket's order. */
function inDocketOrder(targets: LockDocument['targets']): LockDocument['targets'] {
  const out: LockDocument['targets'] = {};
  for (const [name, section] of Object.entries(sorted(targets))) out[name] = isPlainObject(section) && isPlainObject(section.files) ? { ...section, files: written(section.files) } : section;
  return out;
}

/** A section's entries sorted by key, each with its fields in docket's order. */
function written(files: Record<string, LockEntry>): Record<string, LockEntry> {
  return Object.fromEntries(Object.entries(sorted(files)).map(([key, entry]) => [key, isPlainObject(entry) ? inEntryOrder(entry) : entry]));
}

/** The document with `target`'s entries replaced, and the version 1 section it came from dropped. */
export function withSection(doc: LockDocument, target: string, lock: LockFile, location: LockLocation): LockDocument {
  // A section with no entries is not written: an apply that uploads nothing leaves a committed lock file as it was.
  const targets = { ...doc.targets };
  if (Object.keys(lock.files).length > 0) targets[target] = { files: lock.files };
  else delete targets[target];
  const out: LockDocument = { version: 2, targets };
  const legacy = doc.legacy ? structuredClone(doc.legacy) : undefined;
  if (legacy) {
    const section = location.emulator ? legacy.emulator : legacy;
    if (section) {
      if (location.environment) delete section.environments?.[location.environment];
      else delete section.files;
      if (section.environments && Object.keys(section.environments).length === 0) delete section.environments;
    }
    if (legacy.emulator && Object.keys(legacy.emulator).length === 0) delete legacy.emulator;
    if (Object.keys(legacy).length > 0) out.legacy = legacy;
  }
  if (doc.landing) out.landing = doc.landing;
  if (doc.synced) out.synced = doc.synced;
  return out;
}

/**
 * The file's text: JSON with two-space indentation, `synced` last. The records are most of a large
 * lock and the same object from write to write of an apply, so their text is made once per object.
 */
export function render(doc: LockDocument): string {
  return renderPieces(doc).join('');
}

/**
 * The same text in its pieces, compared (sameText) and written without being joined: joined, a
 * lock of 20,000 records is one more copy of several megabytes at the end of an apply.
 */
function renderPieces(doc: LockDocument): string[] {
  const [head, records, tail] = renderParts(doc);
  return records === undefined ? [head] : [head, recordsText(records), tail];
}

/** Whether `text` is the pieces joined. */
function sameText(pieces: readonly string[], text: string | undefined): boolean {
  if (text === undefined) return false;
  let at = 0;
  for (const piece of pieces) {
    if (!text.startsWith(piece, at)) return false;
    at += piece.length;
  }
  return at === text.length;
}

/**
 * The same text as render() in pieces, the records as bytes: the writes of an apply then neither
 * join nor encode 9.5 MB each time.
 */
function renderBytes(doc: LockDocument): (string | Uint8Array)[] {
  const [head, records, tail] = renderParts(doc);
  if (records === undefined) return [head];
  let bytes = recordBytes.get(records);
  if (bytes === undefined) {
    bytes = Buffer.from(recordsText(records), 'utf8');
    recordBytes.set(records, bytes);
    // Not needed beside the bytes: a settled apply renders new records.
    recordTexts.delete(records);
  }
  return [head, bytes, tail];
}

/** Before the records, the records, and after them; the records last, as the file always has them. */
function renderParts(doc: LockDocument): [string, LockDocument['synced'], string] {
  const { synced } = doc;
  // Written whole in docket's order, whatever order a formatter left the file read in.
  const head = JSON.stringify({ version: doc.version, targets: inDocketOrder(doc.targets), ...(doc.legacy ? { legacy: doc.legacy } : {}), ...(doc.landing ? { landing: doc.landing } : {}) }, null, 2);
  if (synced === undefined) return [`${head}\n`, undefined, ''];
  // `head` ends with the closing brace of an object that has keys (version and targets, at least).
  return [`${head.slice(0, -2)},\n  "synced": `, synced, '\n}\n'];
}

function recordsText(records: object): string {
  let text = recordTexts.get(records);
  if (text === undefined) {
    // Indented one level deeper as a member of an object, with no second copy to indent it:
    // `{\n  "synced": ` and `\n}` cut off.
    const wrapped = JSON.stringify({ synced: records }, null, 2);
    text = wrapped.slice(WRAPPED_HEAD.length, -2);
    recordTexts.set(records, text);
  }
  return text;
}

const WRAPPED_HEAD = '{\n  "synced": ';

const recordTexts = new WeakMap<object, string>();
const recordBytes = new WeakMap<object, Buffer>();

/** Writes `target`'s entries, keeping the other targets; sorted keys so the file diffs cleanly in git. */
export function writeLock(location: LockLocation, target: string, lock: LockFile): Promise<void> {
  return exclusively(location, () => rewriteSection(location, target, () => lock).then(() => undefined));
}

/** Writes `target`'s section as `next` makes it of the one the file holds now; the caller holds the mutex. */
async function rewriteSection(location: LockLocation, target: string, next: (current: LockFile) => LockFile): Promise<LockFile> {
  await removeStaleTempsOf(location.path);
  const { doc } = await readLockDocument(location);
  const section = next(lockSection(doc, target, location));
  await writeDocument(location, withSection(doc, target, section, location));
  return section;
}

/** The whole document, atomically, and remembered as this command's last read of it. */
async function writeDocument(location: LockLocation, next: LockDocument): Promise<void> {
  await writtenAs(location.label, writeFileAtomic(location.path, renderBytes(next), { tempDir: tempDirOf(location.path), refuseReadOnly: true }));
  await remember(location.path, next);
}

/**
 * Empties every section of the in-process emulator, in one write: a new emulator holds none of
 * the files an earlier one was given, in any organization. Nothing is written when none records any.
 */
export function forgetEmulatorUploads(location: LockLocation): Promise<void> {
  return exclusively(location, () => forgetEmulatorUploadsHeld(location));
}

async function forgetEmulatorUploadsHeld(location: LockLocation): Promise<void> {
  const { doc } = await readLockDocument(location);
  const held = Object.keys(doc.targets).filter((t) => isEmulatorTarget(t) && Object.keys(doc.targets[t]!.files).length > 0);
  if (held.length === 0) return;
  await removeStaleTempsOf(location.path);
  await writeDocument(location, held.reduce((d, target) => withSection(d, target, emptyLock(), location), doc));
}

/**
 * Sync record changes per target: `null` forgets a record; `reset` empties a target's records (and
 * landing marks) first. `landing`: landing marks to set or forget (LandingChange).
 */
export type SyncChanges = Record<string, { records: Record<string, string | null>; reset?: boolean; landing?: Record<string, LandingChange> }>;

function hasSyncChanges(changes: SyncChanges | undefined): changes is SyncChanges {
  return changes !== undefined && Object.values(changes).some((c) => Object.keys(c.records).length > 0 || c.reset || Object.keys(c.landing ?? {}).length > 0);
}

/** The document with the landing marks changed (a reset target's emptied first). */
function withLanding(doc: LockDocument, changes: SyncChanges): LockDocument {
  let landing: Record<string, LandingSection> | undefined;
  for (const [target, change] of Object.entries(changes)) {
    const before = (landing ?? doc.landing)?.[target];
    const marks: LandingSection = change.reset ? {} : { ...before };
    for (const [key, mark] of Object.entries(change.landing ?? {})) {
      if (typeof mark === 'string') marks[key] = mark;
      // Only the mark the plan gave up: one another apply left since stays.
      else if (marks[key] !== undefined && parseLandingMark(marks[key])?.since === mark.forget) delete marks[key];
    }
    if (canonicalJson(marks) === canonicalJson(before ?? {})) continue;
    landing ??= { ...doc.landing };
    if (Object.keys(marks).length > 0) landing[target] = inOrder(marks);
    else delete landing[target];
  }
  if (landing === undefined) return doc;
  const out: LockDocument = { ...doc };
  if (Object.keys(landing).length > 0) out.landing = inOrder(landing);
  else delete out.landing;
  return out;
}

/**
 * The document with the sync records changed, everything else kept. An apply restates every
 * record it leaves in sync, most of them as they were: a target none of whose records change is
 * kept as it is (and so is the document when none does), and records are sorted only when a key
 * is out of order.
 */
function withSync(read: LockDocument, changes: SyncChanges): LockDocument {
  const doc = withLanding(read, changes);
  const synced = { ...doc.synced };
  let changed = false;
  for (const [target, change] of Object.entries(changes)) {
    const before = synced[target];
    const differing: [string, string | null][] = [];
    for (const key in change.records) {
      const record = change.records[key]!;
      if (record === null ? before !== undefined && Object.hasOwn(before, key) : before?.[key] !== record) differing.push([key, record]);
    }
    if (!change.reset && differing.length === 0) {
      // A section written out of order by hand is put in order all the same.
      const ordered = before === undefined ? before : inOrder(before);
      if (ordered !== before) {
        synced[target] = ordered!;
        changed = true;
      }
      continue;
    }
    changed = true;
    const records: SyncRecords = change.reset ? {} : { ...before };
    for (const [key, record] of change.reset ? Object.entries(change.records) : differing) {
      if (record === null) delete records[key];
      else records[key] = record;
    }
    if (Object.keys(records).length > 0) synced[target] = inOrder(records);
    else delete synced[target];
  }
  if (!changed) return doc;
  const out: LockDocument = { ...doc };
  if (Object.keys(synced).length > 0) out.synced = inOrder(synced);
  else delete out.synced;
  return out;
}

/** `sorted`, without the new object and the sort when the keys are in order already. */
function inOrder<T>(records: Record<string, T>): Record<string, T> {
  const keys = Object.keys(records);
  for (let i = 1; i < keys.length; i++) if (!(keys[i - 1]! < keys[i]!)) return sorted(records);
  return records;
}

/** Sync changes, or how to make them from the document as read for the write. */
export type SyncChangesOf = SyncChanges | ((doc: LockDocument) => SyncChanges | undefined);

/**
 * Changes sync records, per target (`null` forgets a record; `reset` empties a target's records
 * first), keeping everything else of the file. One atomic write, and none when nothing changes.
 */
/** Writes sync record changes; returns what is worth telling (a merge conflict it resolved), as settleLock does. */
export function writeSync(location: LockLocation, changesOf: SyncChangesOf): Promise<string | undefined> {
  return exclusively(location, () => writeSyncHeld(location, changesOf));
}

async function writeSyncHeld(location: LockLocation, changesOf: SyncChangesOf): Promise<string | undefined> {
  if (typeof changesOf !== 'function' && !hasSyncChanges(changesOf)) return undefined;
  const { text: before, read } = await readForWrite(location);
  const changes = typeof changesOf === 'function' ? changesOf(read.doc) : changesOf;
  if (changes === undefined) return undefined;
  await removeStaleTempsOf(location.path);
  const out = withSync(read.doc, changes);
  const pieces = renderPieces(out);
  // Nothing new to record leaves the file as it was (no churn in git), or absent.
  if (sameText(pieces, before) || (before === undefined && !out.synced && !out.landing) || holdsAlready(before, read.doc, out)) return undefined;
  await writtenAs(location.label, writeFileAtomic(location.path, pieces, { tempDir: tempDirOf(location.path), refuseReadOnly: true }));
  await remember(location.path, out);
  return before !== undefined && splitConflict(before) ? conflictResolved(location.label, read) : undefined;
}

/** What a write that resolved a merge conflict says: what it kept, and how many sync records it dropped. */
function conflictResolved(label: string, read: ReadLockResult): string {
  const dropped = read.droppedRecords ?? 0;
  const kept = dropped === 0 ? "both sides' entries kept" : `both sides' file entries kept, ${dropped === 1 ? 'the sync record' : `the ${dropped} sync records`} they disagreed on dropped`;
  return `${label}: its merge conflict is resolved (${kept}) and the file written whole`;
}

/**
 * Whether the file already says exactly `out`, only formatted otherwise (spaced, or its keys in
 * another order, as an editor or `jq -S` leaves them): rewriting it would change nothing but
 * formatting in git. Compared with the file as written, not as read, so what reading mends (an
 * older spelling of a target, a name in decomposed Unicode) is still written. A merge conflict is
 * never kept, though its sides may say the same.
 */
function holdsAlready(text: string | undefined, read: LockDocument, out: LockDocument): boolean {
  if (text === undefined || out.synced !== read.synced || splitConflict(text)) return false;
  let raw: unknown;
  try {
    raw = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return false;
  }
  return isPlainObject(raw) && canonicalJson(raw) === canonicalJson(out);
}

/**
 * Runs a read, change and write of the lock holding its mutex (util/write-mutex.ts), beside its
 * temporaries: another docket run's write between this one's read and write would be lost to it
 * (probe UA-1). The synchronous writes of a forced exit take none: they cannot wait.
 */
function exclusively<T>(location: LockLocation, work: () => Promise<T>, options: MutexOptions = {}): Promise<T> {
  return withWriteMutex(mutexOf(location.path), work, options);
}

/**
 * Beside the file a link leads to, as the apply lock is: checkouts that share one lock through a
 * link take turns too (second read SR93B-3).
 */
function mutexOf(path: string): string {
  let file = path;
  try {
    file = linkedFile(path);
  } catch {
    // A link that loops: its read says so; the mutex stays beside the name (third read SR93C-3).
  }
  return join(tempDirOf(file), `${basename(file)}.writing`);
}

/**
 * Changes `target`'s entries as the file holds them now, in one read and write under the lock's
 * mutex; returns them as written. For records other runs may add meanwhile (`docket test`'s uploads).
 */
export async function updateLockSection(location: LockLocation, target: string, change: (files: LockFile['files']) => void): Promise<LockFile['files']> {
  const section = await exclusively(
    location,
    () =>
      rewriteSection(location, target, (current) => {
        change(current.files);
        return current;
      }),
    // It writes, so the folder of its temporaries, and of the mutex, may be made first: two first writes hold it too.
    { makeFolder: true },
  );
  return section.files;
}

/** Temporary files go to .docket/ (ignored by git), so a write killed half-way leaves nothing beside the lock. */
function tempDirOf(path: string): string {
  const dir = dirname(path);
  return basename(dir) === WORK_DIR ? dir : join(dir, WORK_DIR);
}

/** Beside the lock too: versions before the temporary files moved to .docket/ wrote them there. */
async function removeStaleTempsOf(path: string): Promise<void> {
  // A lock that is a link is written beside the file it names: a killed write left its temp there.
  let linked = path;
  try {
    linked = linkedFile(path);
  } catch {
    // A loop of links: the write that follows says so.
  }
  await removeStaleTemps(path, [tempDirOf(path), dirname(path)]);
  if (linked !== path) await removeStaleTemps(linked);
}

/**
 * At the end of an apply: writes `target`'s entries unless the file already says exactly that, so
 * a merge conflict docket could read, or a version 1 section, is rewritten even when nothing was
 * uploaded. Returns what it did worth telling (undefined: nothing, or a plain write). No file is
 * created for a target with nothing to record, unless `create` (an interrupted apply leaves one).
 * `sync`: the apply's sync record changes, when they live in this file, written in the same
 * write (one read, one render and one atomic write of a lock that may hold 20,000 records).
 */
export function settleLock(location: LockLocation, target: string, lock: LockFile, create = false, sync?: SyncChangesOf, existedBefore = true): Promise<string | undefined> {
  return exclusively(location, () => settleLockHeld(location, target, lock, create, sync, existedBefore));
}

async function settleLockHeld(location: LockLocation, target: string, lock: LockFile, create: boolean, sync: SyncChangesOf | undefined, existedBefore: boolean): Promise<string | undefined> {
  const { text, read } = await readForWrite(location);
  const section = text !== undefined || Object.keys(lock.files).length > 0 || create;
  // A file docket cannot read is left for the person (the plan already said so).
  if (read.diagnostics.some((d) => d.severity === 'error')) return undefined;
  // Changes with no records still put a section written out of order by hand in order (withSync).
  const changes = typeof sync === 'function' ? sync(read.doc) : sync;
  const settled = section ? withSection(read.doc, target, lock, location) : read.doc;
  const out = changes ? withSync(settled, changes) : settled;
  // No file, and nothing to record in it (no entries, no records to keep): none is made.
  if (!section && !out.synced && !out.landing) return undefined;
  // One this run made only for a mark it has taken back since (an upload refused outright, probe
  // OC-4): it records nothing, and is no file to commit.
  if (!existedBefore && !create && text !== undefined && recordsNothing(out)) {
    await rm(location.path, { force: true });
    known.delete(location.path);
    return undefined;
  }
  const next = renderPieces(out);
  if (sameText(next, text) || holdsAlready(text, read.doc, out)) return undefined;
  await removeStaleTempsOf(location.path);
  await writtenAs(location.label, writeFileAtomic(location.path, next, { tempDir: tempDirOf(location.path), refuseReadOnly: true }));
  await remember(location.path, out);
  if (text !== undefined && splitConflict(text)) return conflictResolved(location.label, read);
  if (movesFromVersion1(read.doc, target, location)) return movedFromVersion1(location, target);
  return undefined;
}

/** Whether a run at `location` reads its entries from a version 1 section, which its next write moves to `target`'s. */
export function movesFromVersion1(doc: LockDocument, target: string, location: LockLocation): boolean {
  return !doc.targets[target] && legacyFiles(doc, location) !== undefined;
}

/** What a run says once it moved its entries from a version 1 section. */
export function movedFromVersion1(location: LockLocation, target: string): string {
  return `${location.label}: this run's entries moved from the version 1 section to "${target}"`;
}

/** Whether a lock document holds no entry, record or mark of any target. */
function recordsNothing(doc: LockDocument): boolean {
  const empty = (sections: Record<string, object> | undefined): boolean => Object.values(sections ?? {}).every((section) => Object.keys(section).length === 0);
  return Object.keys(doc.targets).length === 0 && doc.legacy === undefined && empty(doc.synced) && empty(doc.landing);
}

/** The same, synchronously: for the moment a second Ctrl-C ends the process. */
export function writeLockSync(location: LockLocation, target: string, lock: LockFile): void {
  exclusivelySync(location, () => writeLockSyncHeld(location, target, lock));
}

function writeLockSyncHeld(location: LockLocation, target: string, lock: LockFile): void {
  let text: string | undefined;
  try {
    text = readRegularFileSync(location.path).toString('utf8');
  } catch {
    text = undefined;
  }
  const doc = text === undefined ? emptyDocument() : parseLockText(text, location.label).doc;
  writtenAsSync(location.label, () => writeFileAtomicSync(location.path, render(withSection(doc, target, lock, location)), { tempDir: tempDirOf(location.path), refuseReadOnly: true }));
  known.delete(location.path);
}

/** A synchronous read, change and write under the lock's mutex, waited for briefly (util/write-mutex.ts): a signal's listener cannot wait long. */
function exclusivelySync(location: LockLocation, work: () => void): void {
  withWriteMutexSync(mutexOf(location.path), work);
}

/** Landing mark changes, synchronously: for the moment a second signal ends the process. A file docket cannot read is left as it is. */
export function writeLandingSync(location: LockLocation, changes: SyncChanges): void {
  exclusivelySync(location, () => writeLandingSyncHeld(location, changes));
}

function writeLandingSyncHeld(location: LockLocation, changes: SyncChanges): void {
  let text: string | undefined;
  try {
    text = readRegularFileSync(location.path).toString('utf8');
  } catch {
    text = undefined;
  }
  const read = text === undefined ? { doc: emptyDocument(), diagnostics: [] } : parseLockText(text, location.label);
  if (read.diagnostics.some((d) => d.severity === 'error')) return;
  const out = withLanding(read.doc, changes);
  if (out === read.doc) return;
  writtenAsSync(location.label, () => writeFileAtomicSync(location.path, render(out), { tempDir: tempDirOf(location.path), refuseReadOnly: true }));
  known.delete(location.path);
}

/**
 * Writes of one target's entries as they change during an apply: one at a time, the latest
 * state each time, and a synchronous last write for a forced exit.
 */
export class LockWriter {
  private chain: Promise<void> = Promise.resolve();
  private latest: LockFile | undefined;
  private written: LockFile | undefined;

  constructor(
    private readonly location: LockLocation,
    private readonly target: string,
  ) {}

  write(lock: LockFile): Promise<void> {
    this.latest = { files: { ...lock.files } };
    this.chain = this.chain
      .catch(() => undefined)
      .then(async () => {
        const next = this.latest;
        if (!next || next === this.written) return;
        await writeLock(this.location, this.target, next);
        this.written = next;
      });
    return this.chain;
  }

  /** Resolves once every write asked for has finished (rejects with the last failure). */
  flush(): Promise<void> {
    return this.chain;
  }

  /** The latest state, written now, synchronously. */
  writeNow(): void {
    if (this.latest && this.latest !== this.written) writeLockSync(this.location, this.target, this.latest);
  }
}
