/**
 * docket.lock.json: the ids and sha256 digests of the files docket uploaded (docx terms, attachment
 * PDFs), which the services cannot give back. Read by plan, written atomically after apply.
 *
 * Ids belong to one organization, so each `--env` environment has its own section, and runs against
 * the emulator keep theirs under `emulator`, so emulator ids never mix with production's.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Diagnostic } from '../diagnostics.js';
import { writeFileAtomic } from '../util/atomic-write.js';

export const LOCK_FILE = 'docket.lock.json';

export interface LockEntry {
  /** Live id of the object the file was uploaded to. */
  id: string;
  /** The file, relative to the configuration root. */
  file: string;
  sha256: string;
  /** For attachments: the description uploaded with the file. */
  description?: string | null;
}

/** One target's entries: `kind:key` → entry. */
export interface LockFile {
  version: 1;
  files: Record<string, LockEntry>;
}

type Files = Record<string, LockEntry>;

interface LockSection {
  files: Files;
  environments?: Record<string, { files: Files }>;
}

interface LockDocument extends LockSection {
  version: 1;
  emulator?: LockSection;
}

export interface LockLocation {
  /** Absolute path of the lock file. */
  path: string;
  /** Shown in diagnostics. */
  label: string;
  emulator: boolean;
  environment?: string;
}

export function lockLocation(root: string, options: { emulator: boolean; environment?: string }): LockLocation {
  return {
    path: join(root, LOCK_FILE),
    label: LOCK_FILE,
    emulator: options.emulator,
    ...(options.environment ? { environment: options.environment } : {}),
  };
}

/** The key of a resource's entry: `kind:key`. */
export function lockKey(kind: string, key: string): string {
  return `${kind}:${key}`;
}

/** One kind's entries, by the resource key they were recorded under. */
export function lockEntries(files: Files, kind: string): Map<string, LockEntry> {
  const prefix = lockKey(kind, '');
  const out = new Map<string, LockEntry>();
  for (const [key, entry] of Object.entries(files)) if (key.startsWith(prefix)) out.set(key.slice(prefix.length), entry);
  return out;
}

export function emptyLock(): LockFile {
  return { version: 1, files: {} };
}

async function readDocument(location: LockLocation): Promise<{ doc: LockDocument; diagnostics: Diagnostic[] }> {
  let text: string;
  try {
    text = await readFile(location.path, 'utf8');
  } catch {
    return { doc: { version: 1, files: {} }, diagnostics: [] };
  }
  const bad = (message: string) => ({
    doc: { version: 1 as const, files: {} },
    diagnostics: [{ severity: 'error' as const, code: 'invalid-lock-file', message, file: location.label, line: 1, col: 1, hint: 'restore it from git; docket writes it after apply' }],
  });
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return bad(`${location.label} is not valid JSON`);
  }
  const v = value as Partial<LockDocument>;
  if (!v || v.version !== 1 || typeof v.files !== 'object' || v.files === null) return bad(`${location.label} is not a docket lock file of version 1`);
  const all = [v, ...(v.emulator ? [v.emulator] : [])];
  const sections = all.flatMap((s) => [s.files ?? {}, ...Object.values(s.environments ?? {}).map((e) => e?.files ?? {})]);
  for (const files of sections) {
    for (const [key, entry] of Object.entries(files)) {
      const e = entry as Partial<LockEntry>;
      if (typeof e?.id !== 'string' || typeof e.file !== 'string' || typeof e.sha256 !== 'string') return bad(`${location.label}: entry "${key}" needs id, file and sha256`);
    }
  }
  return { doc: v as LockDocument, diagnostics: [] };
}

function sectionOf(doc: LockDocument, location: LockLocation): LockSection | undefined {
  return location.emulator ? doc.emulator : doc;
}

/** The entries of the location's target (its environment's section, or the top level). */
export async function readLock(location: LockLocation): Promise<{ lock: LockFile; diagnostics: Diagnostic[] }> {
  const { doc, diagnostics } = await readDocument(location);
  const section = sectionOf(doc, location);
  const files = location.environment ? section?.environments?.[location.environment]?.files : section?.files;
  return { lock: { version: 1, files: { ...files } }, diagnostics };
}

const sorted = (files: Files): Files => Object.fromEntries(Object.entries(files).sort(([a], [b]) => a.localeCompare(b)));

function withFiles(section: LockSection | undefined, environment: string | undefined, files: Files): LockSection {
  const out: LockSection = { files: sorted(environment ? (section?.files ?? {}) : files) };
  const environments = { ...section?.environments };
  if (environment) environments[environment] = { files: sorted(files) };
  const names = Object.keys(environments).sort();
  if (names.length > 0) out.environments = Object.fromEntries(names.map((n) => [n, environments[n]!]));
  return out;
}

/** Replaces the target's section, keeping the others; sorted keys so the file diffs cleanly in git. */
export async function writeLock(location: LockLocation, lock: LockFile): Promise<void> {
  const { doc } = await readDocument(location);
  const out: LockDocument = location.emulator
    ? { version: 1, ...withFiles(doc, undefined, doc.files), emulator: withFiles(doc.emulator, location.environment, lock.files) }
    : { version: 1, ...withFiles(doc, location.environment, lock.files), ...(doc.emulator ? { emulator: doc.emulator } : {}) };
  await writeFileAtomic(location.path, `${JSON.stringify(out, null, 2)}\n`);
}
