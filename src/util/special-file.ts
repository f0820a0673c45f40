/**
 * Files a read would wait on for ever (a named pipe, a device, a socket): refused, never waited on
 * (checked before they are opened, or opened without waiting and checked).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from 'node:fs';
import { lstat, rm, stat } from 'node:fs/promises';

/** Whether `file` (links followed) exists and is neither a regular file nor a folder. */
export async function isSpecialFile(file: string): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && !info.isFile() && !info.isDirectory();
}

/** How a message says it, after the file's name. */
export const NOT_REGULAR_FILE = 'is not a regular file (a named pipe or a device)';

/** Why a link that loops cannot be read (ELOOP), in one wording for YAML, data and contract files: it exists, so "missing" would mislead. */
export const LOOPING_LINK = 'it is a symbolic link that loops';
/** Why a link to nothing cannot be read (ENOENT on a link), in the same wording everywhere: the name is there, as a link. */
export const DANGLING_LINK = 'it is a symbolic link to something that does not exist';
/** What to do about either. */
export const LINK_HINT = 'fix or remove the link, or name the file itself';

/** Whether `file` is a symbolic link (one that dangles or loops has a name, but no file behind it). */
export async function isLink(file: string): Promise<boolean> {
  return lstat(file).then((info) => info.isSymbolicLink(), () => false);
}

/** Why `file` could not be read (`code`) when a link is the cause (one that loops, or leads to nothing); undefined otherwise. */
export async function linkReason(file: string, code: string | undefined): Promise<string | undefined> {
  if (code === 'ELOOP') return LOOPING_LINK;
  return code === 'ENOENT' && (await isLink(file)) ? DANGLING_LINK : undefined;
}

/**
 * The bytes of a regular file, read synchronously; a file that became a named pipe or a device
 * since it was checked is refused, not waited on (a synchronous read of one would block the
 * process for ever, signals included). Opened without waiting for a writer, then checked.
 */
export function readRegularFileSync(file: string): Buffer {
  const fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  try {
    const info = fstatSync(fd);
    // A folder is the error reading one gives.
    if (info.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, read '${file}'`), { code: 'EISDIR' });
    if (!info.isFile()) throw Object.assign(new Error(`${file} ${NOT_REGULAR_FILE}`), { code: 'ENOTREGULAR' });
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Why a read of a file failed, for a message: `it is not a regular file (…)`, `it is a folder`, `no such file`, or the error code. */
export function unreadableReason(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  if (code === 'ENOTREGULAR') return `it ${NOT_REGULAR_FILE}`;
  if (code === 'EISDIR') return 'it is a folder';
  if (code === 'ENOENT') return 'no such file';
  return code ?? String(error);
}

/**
 * Makes a scratch file of docket's (a cache entry, the upload copy) a file of its own before it is
 * written: a link there (a restored or poisoned CI cache) is taken out, never written through to
 * where it leads (a file outside, a device), and so is a pipe or device in its place (probe GH). A
 * folder is left: the write then fails, and is said.
 */
export async function asOwnFile(file: string): Promise<void> {
  const info = await lstat(file).catch(() => undefined);
  if (info && !info.isFile() && !info.isDirectory()) await rm(file, { force: true });
}
