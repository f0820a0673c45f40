/** Writes a file so readers see the old or the new content, never half: temp file + rename. */
import { randomUUID } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Beside the target, so the rename never crosses a filesystem; the pid lets a later run spot leftovers. */
function tempPath(file: string): string {
  return join(dirname(file), `.${basename(file)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
}

export async function writeFileAtomic(file: string, text: string): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const tmp = tempPath(file);
  try {
    await writeFile(tmp, text, 'utf8');
    await rename(tmp, file);
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  }
}

/** The same, synchronously: for the last write before a forced exit. */
export function writeFileAtomicSync(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  const tmp = tempPath(file);
  try {
    writeFileSync(tmp, text, 'utf8');
    renameSync(tmp, file);
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}
