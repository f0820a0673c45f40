/**
 * A lock someone made read-only (to freeze it) stops an apply that has changes to make before any
 * is sent, as it stops a pull: its writes replace the file by a rename, which the file's own
 * permissions do not stop (probe NU-7). An apply with nothing to change writes it only when its
 * records changed, and that write refuses it then (lock.ts).
 */
import path from 'node:path';
import type { LockLocation } from '../config/lock.js';
import { shellPath } from '../util/shell-word.js';
import { workingDirectory } from './io.js';
import { DocketError } from '../errors.js';
import { linkedFile } from '../util/atomic-write.js';
import { errnoOf, writeFixFor } from '../util/file-write-error.js';
import { assertWritable } from '../util/writable.js';
import { isPermissionDenied } from '../util/permission.js';

export async function refuseReadOnlyLock(location: Pick<LockLocation, 'path' | 'label'>, command = 'apply'): Promise<void> {
  const code = await assertWritable(linkedFile(location.path)).then(() => undefined, errnoOf);
  // Not there yet (the first apply makes it), or a problem the lock's read already said.
  if (code === undefined || code === 'ENOENT' || code === 'ELOOP' || code === 'ENOTDIR') return;
  throw new DocketError('lock-write-failed', `cannot write ${location.label} (${code}): ${command === 'apply' ? 'nothing was changed' : 'the contract was not uploaded'}`, `${isPermissionDenied(code) ? `make ${location.label} writable (\`chmod u+w ${shellPath(asGivenFromHere(location.path))}\`)` : writeFixFor(code)}, then ${command} again: ${command === 'apply' ? 'the apply records what it uploads and syncs there' : 'it records the contracts it uploads there'}`);
}

/** The file as a path from where docket runs, to paste there (probe FG-4): relative below it, else whole. */
function asGivenFromHere(file: string): string {
  const relative = path.relative(workingDirectory(), file);
  return relative === '' || relative.startsWith('..') || path.isAbsolute(relative) ? file : relative;
}
