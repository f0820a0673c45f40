/** Files a read would wait on for ever (a named pipe, a device, a socket): refused before they are opened. */
import { stat } from 'node:fs/promises';

/** Whether `file` (links followed) exists and is neither a regular file nor a folder. */
export async function isSpecialFile(file: string): Promise<boolean> {
  const info = await stat(file).catch(() => undefined);
  return info !== undefined && !info.isFile() && !info.isDirectory();
}

/** How a message says it, after the file's name. */
export const NOT_REGULAR_FILE = 'is not a regular file (a named pipe or a device)';
