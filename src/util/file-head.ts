/** The first bytes of a file, for telling what it is without reading it whole. */
import { closeSync, openSync, readSync } from 'node:fs';

/** Up to `bytes` bytes from the start of `file`; undefined when it cannot be opened or read (what reads or writes it next says why). */
export function fileHeadSync(file: string, bytes: number): Buffer | undefined {
  const head = fileHeadOrError(file, bytes);
  return head instanceof Buffer ? head : undefined;
}

/** As fileHeadSync, with why the file could not be opened or read: `EACCES`, `EIO`… */
export function fileHeadOrError(file: string, bytes: number): Buffer | { code: string } {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    return { code: errorCode(error) };
  }
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } catch (error) {
    return { code: errorCode(error) };
  } finally {
    closeSync(fd);
  }
}

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? 'unknown error';
}
