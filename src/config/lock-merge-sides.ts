/**
 * How the two sides of a merge conflict in docket.lock.json combine where they record one thing
 * differently: one upload recorded alike but for its path, one upload or one object under two
 * names. lock.ts reads the sides and says what contradicts.
 */
import type { LockDocument, LockEntry, SyncRecords } from './lock.js';
import { fieldHash, parseSyncRecord } from '../engine/sync.js';

/**
 * The entries of one side of a conflict whose `sha256` that side's own sync record of the same
 * upload contradicts: git merged the entry's `id` inside the markers and its `sha256` outside them,
 * from the other side, so the side read back describes an upload that never was (probe DR-1). Read
 * so, a template would be pointed at the old file while every plan said no changes.
 */
export function splicedEntries(doc: LockDocument): string[] {
  const out: string[] = [];
  for (const [target, section] of Object.entries(doc.targets)) {
    const records = doc.synced?.[target] ?? {};
    for (const [key, entry] of Object.entries(section.files ?? {})) {
      const record = typeof records[key] === 'string' ? parseSyncRecord(records[key]) : undefined;
      const recorded = record?.fields.sha256;
      if (record === undefined || recorded === undefined || recorded === 'unkept' || typeof entry?.id !== 'string' || typeof entry.sha256 !== 'string') continue;
      if (record.id.toLowerCase() === entry.id.toLowerCase() && recorded !== fieldHash(entry.sha256)) out.push(key);
    }
  }
  return out;
}

/**
 * One upload both sides recorded alike but for where its file is (moved on one side; the next
 * apply points the entry at the file the configuration names) and which uploads it replaced
 * (both sides' kept): merged, as it contradicts nothing (probe NU-3).
 */
export function sameUploadMerged(mine: LockEntry, theirs: LockEntry): LockEntry | undefined {
  if (mine.id === undefined || mine.id !== theirs.id || mine.sha256 !== theirs.sha256) return undefined;
  const rest = (e: LockEntry): string => JSON.stringify({ ...e, file: undefined, superseded: undefined });
  if (rest(mine) !== rest(theirs) || JSON.stringify(mine) === JSON.stringify(theirs)) return undefined;
  const superseded = [...new Set([...(mine.superseded ?? []), ...(theirs.superseded ?? [])])];
  return { ...mine, ...(superseded.length > 0 ? { superseded } : {}) };
}

/** Pairs of entry keys of one kind that hold one upload id. */
export function namesOfOneUpload(files: Readonly<Record<string, LockEntry>>): [string, string][] {
  const holder = new Map<string, string>();
  const pairs: [string, string][] = [];
  for (const [key, entry] of Object.entries(files)) {
    if (typeof entry?.id !== 'string' || key.startsWith('imported-file:')) continue;
    const id = `${key.slice(0, key.indexOf(':'))}:${entry.id.toLowerCase()}`;
    const first = holder.get(id);
    if (first === undefined) holder.set(id, key);
    else pairs.push([first, key]);
  }
  return pairs;
}

/** The record keys of one kind naming one live id in the merge, where neither side alone names it so. */
export function keysOfOneObject(merged: Readonly<SyncRecords>, ours: Readonly<SyncRecords>, theirs: Readonly<SyncRecords>): string[][] {
  const byId = new Map<string, string[]>();
  for (const [key, record] of Object.entries(merged)) {
    if (record === '') continue;
    const space = record.indexOf(' ');
    const id = `${key.slice(0, key.indexOf(':'))}:${(space < 0 ? record : record.slice(0, space)).toLowerCase()}`;
    byId.set(id, [...(byId.get(id) ?? []), key]);
  }
  const onOneSide = (keys: readonly string[], side: Readonly<SyncRecords>): boolean => keys.every((k) => side[k] === merged[k]);
  return [...byId.values()].filter((keys) => keys.length > 1 && !onOneSide(keys, ours) && !onOneSide(keys, theirs));
}
