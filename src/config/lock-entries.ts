/**
 * The lock's entries as the kinds read them (an attachment's upload, a Word term's file): apart
 * from the file's reader (lock.ts), which checks the keys against the kinds, so a kind module that
 * reads its entries imports no cycle back to the registry.
 */
import type { ConfirmedUpload, LockEntry } from './lock.js';

/** The key of a resource's entry: `kind:key`. */
export function lockKey(kind: string, key: string): string {
  return `${kind}:${key}`;
}

/** One kind's entries, by the resource key they were recorded under. */
export function lockEntries(files: Readonly<Record<string, LockEntry>>, kind: string): Map<string, LockEntry> {
  const prefix = lockKey(kind, '');
  const out = new Map<string, LockEntry>();
  for (const [key, entry] of Object.entries(files)) if (key.startsWith(prefix)) out.set(key.slice(prefix.length), entry);
  return out;
}

/** Moves the entry under `from` (a `kind:key`) to `to`, which the object it records is declared under now. */
export function moveEntry(files: Record<string, LockEntry>, from: string, to: string): void {
  const entry = files[from];
  if (entry === undefined) return;
  files[to] = entry;
  delete files[from];
}

export function confirmedUpload(entry: LockEntry | undefined): ConfirmedUpload | undefined {
  if (!entry?.id || entry.file === undefined || entry.sha256 === undefined) return undefined;
  return {
    id: entry.id,
    file: entry.file,
    sha256: entry.sha256,
    ...(entry.description !== undefined ? { description: entry.description } : {}),
    ...(typeof entry.version === 'number' ? { version: entry.version } : {}),
    ...(typeof entry.pinned === 'string' ? { pinned: entry.pinned } : {}),
    ...(Array.isArray(entry.superseded) && entry.superseded.length > 0 ? { superseded: entry.superseded } : {}),
    ...(entry.abandoned ? { abandoned: entry.abandoned } : {}),
  };
}
