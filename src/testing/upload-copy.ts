/**
 * A copy of the upload records (contract sha256 → imported file id, per lock section) kept with the
 * test cache in `.docket/test-cache/uploads.json`. docket.lock.json is the record; this copy is for
 * a CI job that keeps the test cache between runs but not its changes to the lock (a test job does
 * not commit), which would otherwise upload every contract again on each run that reviews.
 */
import { asOwnFile, readRegularFileSync } from '../util/special-file.js';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { withWriteMutex } from '../util/write-mutex.js';
import { isPlainObject } from '../util/plain.js';
import { CACHE_DIR } from './cache.js';

type Uploads = Record<string, Record<string, string>>;

export class UploadCopy {
  private chain: Promise<void> = Promise.resolve();
  /** Why a record could not be written (`EISDIR`), when one could not: said once the run ends. */
  unwritten: string | undefined;

  constructor(readonly path: string) {}

  static in(root: string): UploadCopy {
    return new UploadCopy(join(root, CACHE_DIR, 'uploads.json'));
  }

  /** Read afresh: another run may have recorded it since. A missing or unreadable copy holds nothing. */
  async idFor(target: string, sha: string): Promise<string | undefined> {
    return (await this.read())[target]?.[sha.toLowerCase()];
  }

  /** Records (or, with an undefined id, forgets) uploads, `[sha256, id]`; writes are serialised and atomic. */
  record(target: string, uploadsMade: readonly (readonly [string, string | undefined])[]): Promise<void> {
    this.chain = this.chain
      // Read and written holding its mutex: another run's records made meanwhile stay (probe UA-1).
      .then(() =>
        withWriteMutex(
          `${this.path}.writing`,
          async () => {
            const uploads = await this.read();
            const section = (uploads[target] ??= {});
            for (const [sha, id] of uploadsMade) {
              if (id === undefined) delete section[sha.toLowerCase()];
              else section[sha.toLowerCase()] = id;
            }
            await asOwnFile(this.path);
            await writeFileAtomic(this.path, `${JSON.stringify({ version: 1, uploads }, null, 2)}\n`);
          },
          // It writes there: the cache's folder is made first, so a first write holds the mutex too.
          { makeFolder: true },
        ),
      )
      // A copy that cannot be written costs an upload next time, never this run, nor the next record.
      .catch((error: unknown) => {
        this.unwritten ??= (error as NodeJS.ErrnoException).code ?? String(error);
      });
    return this.chain;
  }

  /** The copy was there but could not be read (damaged): said once the run ends, as it may cost uploads (probe GH). */
  unreadable = false;

  private async read(): Promise<Uploads> {
    try {
      // Never waited on: a named pipe there would hold the run, signals included (probe GF).
      const parsed: unknown = JSON.parse(readRegularFileSync(this.path).toString('utf8'));
      if (!isPlainObject(parsed) || parsed.version !== 1 || !isPlainObject(parsed.uploads)) {
        this.unreadable = true;
        return {};
      }
      const out: Uploads = {};
      for (const [target, section] of Object.entries(parsed.uploads)) {
        if (isPlainObject(section)) out[target] = Object.fromEntries(Object.entries(section).filter((e): e is [string, string] => typeof e[1] === 'string'));
      }
      return out;
    } catch (error) {
      // A folder in its place is no damaged copy: it cannot be written either, which is said (probe GW).
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' && code !== 'EISDIR') this.unreadable = true;
      return {};
    }
  }
}
