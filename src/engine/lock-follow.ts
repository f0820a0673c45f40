/**
 * docket.lock.json's record of an upload follows its file when the files name the same content
 * under another path (renamed or moved on disk): nothing is uploaded again, as the content is
 * what is compared, and the record then names the file there is (`export` tells which file the
 * source configuration uploaded; probe GU). Pure: the caller writes the lock.
 */
import { lockKey, moveEntry, type LockFile } from '../config/lock.js';
import type { KindMeta } from './diff.js';
import { refKey, type Change, type DesiredResource } from './types.js';

/** Points each confirmed upload of unchanged content at the path the files give it now; true when one moved. */
export function followRenamedFiles(lock: LockFile, desired: readonly DesiredResource[], kinds: readonly Pick<KindMeta, 'name' | 'fileFields'>[]): boolean {
  const fileFieldsOf = new Map(kinds.flatMap((k) => (k.fileFields ? [[k.name, Object.entries(k.fileFields)] as const] : [])));
  let moved = false;
  for (const d of desired) {
    for (const [field, pathKey] of fileFieldsOf.get(d.kind) ?? []) {
      const key = lockKey(d.kind, d.key);
      const entry = lock.files[key];
      const path = d.payload?.[pathKey];
      if (!entry?.id || entry.file === undefined || typeof path !== 'string' || entry.file === path) continue;
      if (entry.sha256 === undefined || entry.sha256 !== d.fields[field]) continue;
      lock.files[key] = { ...entry, file: path };
      moved = true;
    }
  }
  return moved;
}

/**
 * Moves each upload's entry to the name its object is declared under now, when the app renamed the
 * object and pull wrote that (no apply renamed it, so none moved the entry): left under the former
 * name, it is overwritten by the upload of a new object given that name, and the renamed object's
 * later edits of its file are never published (probe NJ-1). `ids`: the plan's live ids by
 * `kind:key`; `changes`: the plan's, whose renames and uploads record their entries themselves (an
 * attachment renamed in the files is uploaded under its new name: moved before that upload, a
 * refused or stopped one left the old upload recorded as the new, and no plan uploaded it again:
 * probe QH-1).
 */
export function followRenamedObjects(lock: LockFile, ids: Readonly<Record<string, string>>, desired: readonly Pick<DesiredResource, 'kind' | 'key'>[], changes: readonly Pick<Change, 'action' | 'kind' | 'key'>[]): boolean {
  // Asked only of an entry whose own name holds another object: not built from 20,000 changes an apply.
  let ownEntries: Set<string> | undefined;
  const recordsOwnEntry = (kindKey: string): boolean => (ownEntries ??= new Set(changes.filter((c) => c.action === 'rename' || c.action === 'upload').map((c) => refKey(c.kind, c.key)))).has(kindKey);
  let declaredById: Map<string, string> | undefined;
  /** The declared `kind:key` live object `id` is matched to: indexed at the first entry whose own name holds another (20,000 ids a plan). */
  const declaredAs = (id: string): string | undefined => {
    if (!declaredById) {
      const kinds = new Set(Object.keys(lock.files).map((k) => k.slice(0, k.indexOf(':'))));
      const declared = new Set(desired.filter((d) => kinds.has(d.kind)).map((d) => `${d.kind}:${d.key}`));
      declaredById = new Map();
      for (const [kindKey, liveId] of Object.entries(ids)) if (declared.has(kindKey)) declaredById.set(liveId.toLowerCase(), kindKey);
    }
    return declaredById.get(id.toLowerCase());
  };
  let moved = false;
  for (const [kindKey, entry] of Object.entries(lock.files)) {
    // Its name still holds its object: the usual case, asked first.
    if (entry.id === undefined || ids[kindKey]?.toLowerCase() === entry.id.toLowerCase()) continue;
    const now = declaredAs(entry.id);
    if (now === undefined || now === kindKey || recordsOwnEntry(now) || lock.files[now] !== undefined) continue;
    if (now.slice(0, now.indexOf(':')) !== kindKey.slice(0, kindKey.indexOf(':'))) continue;
    moveEntry(lock.files, kindKey, now);
    moved = true;
  }
  return moved;
}
