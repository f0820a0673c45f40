/** The first bytes of a file, for telling what it is without reading it whole. */
import { closeSync, openSync, readSync } from 'node:fs';

/** Up to `bytes` bytes from the start of `file`; undefined when it cannot be opened or read (what reads or writes it next says why). */
export function fileHeadSync(file: string, bytes: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(bytes);
    return buffer.subarray(0, readSync(fd, buffer, 0, bytes, 0));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}
