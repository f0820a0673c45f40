/**
 * docket.lock.json's record of an upload follows its file when the files name the same content
 * under another path (renamed or moved on disk): nothing is uploaded again, as the content is
 * what is compared, and the record then names the file there is (`export` tells which file the
 * source configuration uploaded; probe GU). Pure: the caller writes the lock.
 */
import { lockKey, type LockFile } from '../config/lock.js';
import type { KindMeta } from './diff.js';
import type { DesiredResource } from './types.js';

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
