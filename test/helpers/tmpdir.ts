/** Inline file trees in temporary directories, removed after each test file. */
import { cp, mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const made: string[] = [];

export async function makeDir(files: Record<string, string | Uint8Array>): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'docket-test-'));
  made.push(dir);
  await writeFiles(dir, files);
  return dir;
}

export async function writeFiles(dir: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(dir, path)), { recursive: true });
    await writeFile(join(dir, path), content);
  }
}

export async function removeMadeDirs(): Promise<void> {
  await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

const EXAMPLE = fileURLToPath(new URL('../../examples/acme-legal', import.meta.url));

/** A made directory holding the bundled example, without what a run in the checkout left there (`npm run demo` writes its .docket). */
export async function copyExample(): Promise<string> {
  const dir = await makeDir({});
  await cp(EXAMPLE, dir, { recursive: true, filter: (src) => !src.includes('.docket') && !src.endsWith('docket.lock.json') });
  return dir;
}
