/**
 * A file system error of a write, named by the file as users know it (`docket.lock.json`,
 * `.docket/emulator.json`), so whoever reports it says which file without reading paths back.
 * It keeps the error's `code` and `syscall`: to a caller it is still the file system's error.
 */
export class FileWriteError extends Error {
  readonly code: string | undefined;
  readonly syscall: string | undefined;

  constructor(
    readonly label: string,
    override readonly cause: NodeJS.ErrnoException,
  ) {
    super(`${label} could not be written (${cause.code ?? cause.message})`);
    this.code = cause.code;
    this.syscall = cause.syscall;
  }
}

/** `write`, with a file system error of it named as `label`; any other error passes unchanged. */
export async function writtenAs<T>(label: string, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    throw isErrno(error) && !(error instanceof FileWriteError) ? new FileWriteError(label, error) : error;
  }
}

/** The same for a synchronous write. */
export function writtenAsSync<T>(label: string, write: () => T): T {
  try {
    return write();
  } catch (error) {
    throw isErrno(error) && !(error instanceof FileWriteError) ? new FileWriteError(label, error) : error;
  }
}

function isErrno(error: unknown): error is NodeJS.ErrnoException {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string' && typeof (error as NodeJS.ErrnoException).syscall === 'string';
}

/** The file an error of a write names: its label, or `fallback` for a bare file system error. */
export function unwrittenFile(error: unknown, fallback: string): string {
  return error instanceof FileWriteError ? error.label : fallback;
}
