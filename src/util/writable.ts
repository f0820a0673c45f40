/**
 * Whether a file may be written, as a person means it: one made read-only (no write permission for
 * anyone, `chmod 444`) is not, even for root, whom access(2) lets write anything. docket replaces
 * files by a rename, which the file's own permissions do not stop, so they are asked first.
 */
import { access, constants, stat } from 'node:fs/promises';

/** The error for a file made read-only: EACCES, as a write of it would fail for any other user. */
export function readOnlyError(file: string): NodeJS.ErrnoException {
  // As the system's own error of an open for writing, so every caller says it as a file it cannot write (second read SR79B-1).
  return Object.assign(new Error(`EACCES: permission denied (the file is read-only), open '${file}'`), { code: 'EACCES', syscall: 'open', path: file });
}

/** Whether a file's permission bits give no one write permission. */
export function isReadOnlyMode(mode: number): boolean {
  return (mode & 0o222) === 0;
}

/** Throws what a write of `file` would meet: EACCES for a read-only one, else what access(W_OK) throws (ENOENT for none). */
export async function assertWritable(file: string): Promise<void> {
  if (isReadOnlyMode((await stat(file)).mode)) throw readOnlyError(file);
  await access(file, constants.W_OK);
}
