/** Writes a file so readers see the old or the new content, never half: temp file + rename. */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(file: string, text: string): Promise<void> {
  const dir = dirname(file);
  await mkdir(dir, { recursive: true });
  // Same directory, so the rename never crosses a filesystem.
  const tmp = join(dir, `.${basename(file)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}
