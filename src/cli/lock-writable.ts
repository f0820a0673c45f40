/**
 * A lock someone made read-only (to freeze it) stops an apply before anything is sent, as it stops
 * a pull: its writes replace the file by a rename, which a file's own permissions do not stop, so
 * it would otherwise be rewritten regardless (probe NU-7). Said by its mode too, which binds root.
 */
import { access, constants, stat } from 'node:fs/promises';
import type { LockLocation } from '../config/lock.js';
import { DocketError } from '../errors.js';
import { linkedFile } from '../util/atomic-write.js';
import { errnoOf, writeFixFor } from '../util/file-write-error.js';

export async function refuseReadOnlyLock(location: Pick<LockLocation, 'path' | 'label'>): Promise<void> {
  const file = linkedFile(location.path);
  const mode = await stat(file).then(
    (s) => s.mode,
    () => undefined,
  );
  // Not there yet (the first apply makes it), or a problem the lock's read already said.
  if (mode === undefined) return;
  const code = (mode & 0o222) === 0 ? 'EACCES' : await access(file, constants.W_OK).then(() => undefined, errnoOf);
  if (code === undefined) return;
  const readOnly = (mode & 0o222) === 0 ? `, its permissions ${(mode & 0o777).toString(8)}` : '';
  throw new DocketError('lock-write-failed', `cannot write ${location.label} (${code}${readOnly}): nothing was changed`, `${writeFixFor(code)} (\`chmod u+w ${location.label}\`), then apply again: the apply records what it uploads and syncs there`);
}
