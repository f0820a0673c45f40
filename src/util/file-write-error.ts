/**
 * A file system error of a write, named by the file as users know it (`docket.lock.json`,
 * `.docket/emulator.json`), so whoever reports it says which file without reading paths back.
 * A DocketError (the CLI says it, with no stack trace) that keeps the system call and its error
 * code (`errno`), as callers that handle a full disk look for them.
 */
import { DocketError } from '../errors.js';
import { isWriteRefused } from './permission.js';

export class FileWriteError extends DocketError {
  readonly errno: string | undefined;
  readonly syscall: string | undefined;

  constructor(
    readonly label: string,
    override readonly cause: NodeJS.ErrnoException,
  ) {
    // A folder on the way that is a file (`.docket`, where docket writes its temporary files) is said:
    // the code alone sent users to the file itself. A folder made that is there as a file (EEXIST) is
    // named; for ENOTDIR Node names the path asked for, not the file in its way.
    const inTheWay = cause.code === 'EEXIST' && typeof cause.path === 'string' ? cause.path : undefined;
    const onItsPath = inTheWay ? `: ${inTheWay} is in the way` : cause.code === 'ENOTDIR' ? ': a folder on its path is a file' : '';
    super(
      'file-write-failed',
      `${label} could not be written (${cause.code ?? cause.message}${onItsPath})`,
      `${inTheWay ? `move ${inTheWay} aside (docket needs a folder there)` : cause.code === 'ENOTDIR' ? 'make each folder on its path a folder' : writeFixFor(cause.code)}, then run the command again`,
    );
    this.errno = cause.code;
    this.syscall = cause.syscall;
  }
}

/** `write`, with a file system error of it named as `label`; any other error passes unchanged. */
export async function writtenAs<T>(label: string, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw namedAs(label, error);
  }
}

/** The same for a synchronous write. */
export function writtenAsSync<T>(label: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw namedAs(label, error);
  }
}

/** A bare file system error named as `label`; one named already, or any other error, as it is. */
function namedAs(label: string, error: unknown): unknown {
  return isFileSystemError(error) && !(error instanceof FileWriteError) ? new FileWriteError(label, error) : error;
}

/** An error of the file system (ENOSPC, EACCES, EISDIR, …), bare or named by the file that failed. */
export function isFileSystemError(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/** The file an error of a write names: its label, or `fallback` for a bare file system error. */
export function unwrittenFile(error: unknown, fallback: string): string {
  return error instanceof FileWriteError ? error.label : fallback;
}

/** The file system's code of a failed write (`ENOSPC`), bare or named. */
export function errnoOf(error: unknown): string | undefined {
  if (error instanceof FileWriteError) return error.errno;
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** What to do when a file and the folders to it could not be made: a full disk said as such (probe HC-4), anything else as the path's. */
export function folderWriteHint(code: string | undefined): string {
  return code === 'ENOSPC' || code === 'EDQUOT' ? `${writeFixFor(code)}, then run the command again` : 'check that the folder can be created and written';
}

/** What to do about a write's error: room for a full disk, permissions for a refusal, either when unknown. */
export function writeFixFor(code: string | undefined): string {
  if (code === 'ENOSPC' || code === 'EDQUOT') return 'free some space';
  if (isWriteRefused(code)) return 'make the file and its folder writable';
  return 'free the space or make the file and its folder writable';
}
