/**
 * Upload once: each contract file's sha256 → the id of the imported file it became, recorded in
 * docket.lock.json in the review service's section (its URL and organization; `emulator` for the
 * in-process emulator), as `imported-file:<sha256>`. Later runs create reviews by that id.
 */
import type { Services } from '../kinds/kind.js';
import type { UploadCopy } from './upload-copy.js';
import { lockKey, lockSection, readLockDocument, updateLockSection, type LockEntry, type LockFile, type LockLocation } from '../config/lock.js';

const ENTRY_KIND = 'imported-file';

export class ContractStore {
  private chain: Promise<void> = Promise.resolve();
  /**
   * The section as this run last read or wrote it, for the checks of every imported case: the
   * lock also holds the sync records of the whole configuration, too much to parse once per case.
   */
  private known: Promise<LockFile['files']> | undefined;
  /** The uploads every section records, for a run that never located the service (see conflictOf). */
  private everyUpload: Promise<[string, LockEntry][]> | undefined;
  /** Uploads recorded and not in the lock yet, by sha256 (undefined id: forgotten), until their write ends. */
  private readonly pending = new Map<string, { id: string | undefined; file: string }>();

  constructor(
    private readonly location: LockLocation,
    /** The lock section; known once the review service has been located. */
    private readonly target: () => string | undefined,
    /** Before each write: what must be on disk before the lock names an upload (the in-process emulator's state). */
    private readonly beforeWrite: () => Promise<void> = () => Promise.resolve(),
    /** The copy kept with the test cache, for a run whose lock changes are not kept (CI). */
    private readonly copy?: UploadCopy,
    /**
     * Records kept until flush(), not written per upload: for the in-process emulator, where each
     * write is of its whole state, contracts included (400 contracts took 52 s), and a run killed
     * before the flush uploads them again next time, to the emulator, where nothing is paid for.
     */
    private readonly deferred = false,
    /** Throws when the lock could not record an upload: asked once, before the run's first upload. */
    private readonly recordable: () => Promise<void> = () => Promise.resolve(),
  ) {}

  private asked: Promise<void> | undefined;

  /** Before an upload: whether its record can be written (recordable), asked once a run. */
  beforeUpload(): Promise<void> {
    return (this.asked ??= this.recordable());
  }

  /** The copy's record of an upload, for when the lock's names a file the service no longer has. */
  async copiedIdFor(sha: string): Promise<string | undefined> {
    const target = this.target();
    return target ? this.copy?.idFor(target, sha) : undefined;
  }

  /** Read afresh: another run may have uploaded the contract since. */
  async idFor(sha: string): Promise<string | undefined> {
    const target = this.target();
    if (!target) return undefined;
    // Recorded by this run and not written yet (deferred, or waiting for the write under way).
    const pending = this.pending.get(sha);
    if (pending) return pending.id;
    const recorded = (await this.read(target))[lockKey(ENTRY_KIND, sha)]?.id;
    return recorded ?? this.copy?.idFor(target, sha);
  }

  private async read(target: string): Promise<LockFile['files']> {
    const { doc } = await readLockDocument(this.location);
    return lockSection(doc, target, this.location).files;
  }

  /**
   * Why an `imported_file` id with a stated sha256 contradicts what this lock recorded of uploads
   * (that digest uploaded as another id, or that id uploaded with another digest), if it does:
   * its reviews would be cached under another file's digest, and replayed for that file.
   */
  async conflictOf(sha: string, id: string, shaOfId?: (id: string) => Promise<string | undefined>): Promise<string | undefined> {
    const target = this.target();
    // Not located (`--replay-only` against a URL, which reads no service): an id names one upload in
    // whatever organization, so every section's uploads tell whether it is another file's.
    if (!target) return idConflict(await (this.everyUpload ??= this.readEveryUpload()), sha, id);
    const files = await (this.known ??= this.read(target));
    const bySha = files[lockKey(ENTRY_KIND, sha)];
    // The same bytes uploaded twice (in the app and by docket) are two ids of one digest: the
    // service, when it says the id's digest, tells that from a slip.
    if (bySha && bySha.id !== id && (await shaOfId?.(id))?.toLowerCase() !== sha.toLowerCase()) {
      return `sha256 ${sha} is the digest of ${bySha.file ?? 'a file'}, uploaded as imported file ${bySha.id}, not ${id}`;
    }
    return idConflict(Object.entries(files), sha, id);
  }

  private async readEveryUpload(): Promise<[string, LockEntry][]> {
    const { doc } = await readLockDocument(this.location);
    return Object.values(doc.targets).flatMap((section) => Object.entries(section.files).filter(([key]) => key.startsWith(`${ENTRY_KIND}:`)));
  }

  /**
   * Records (or, with `id` undefined, forgets) an upload; resolves once it is in the lock (kept
   * until flush() when deferred). Writes are serialised and atomic, and take every record waiting
   * by then: uploads that end while one is written share the next write of the whole lock.
   */
  record(sha: string, id: string | undefined, file: string): Promise<void> {
    const target = this.target();
    if (!target) return Promise.resolve();
    this.pending.set(sha, { id, file });
    if (this.deferred) return Promise.resolve();
    return this.flush();
  }

  /** Writes what is recorded and not written yet; resolves once it is in the lock. */
  flush(): Promise<void> {
    const target = this.target();
    if (!target) return Promise.resolve();
    this.chain = this.chain.then(() => this.writePending(target));
    return this.chain;
  }

  private async writePending(target: string): Promise<void> {
    // An earlier write of the chain took them.
    if (this.pending.size === 0) return;
    const batch = [...this.pending];
    await this.beforeWrite();
    // Into the entries as the file holds them when written: another run's uploads recorded since
    // this one read them stay (probe UA-1).
    const files = await updateLockSection(this.location, target, (entries) => {
      for (const [sha, { id, file }] of batch) {
        if (id === undefined) delete entries[lockKey(ENTRY_KIND, sha)];
        else entries[lockKey(ENTRY_KIND, sha)] = { id, file, sha256: sha };
      }
    });
    this.known = Promise.resolve(files);
    // Known from the lock now, unless recorded again meanwhile (that record's write is next).
    for (const [sha, entry] of batch) if (this.pending.get(sha) === entry) this.pending.delete(sha);
    await this.copy?.record(target, batch.map(([sha, { id }]) => [sha, id]));
  }
}

/** Why imported file `id` is not the upload of digest `sha`, when the lock recorded it from another file. */
function idConflict(files: readonly [string, LockEntry][], sha: string, id: string): string | undefined {
  const byId = files.find(([key, entry]) => key.startsWith(`${ENTRY_KIND}:`) && entry.id === id);
  if (byId && byId[1].sha256 !== sha) return `imported file ${id} was uploaded from ${byId[1].file ?? 'a file'}, whose sha256 is ${byId[1].sha256}, not ${sha}`;
  return undefined;
}

/** The digest the review service gives an imported file, if it gives one (a check only: a failed read says nothing). */
export function importedFileSha(services: Services, id: string): Promise<string | undefined> {
  return services
    .review()
    .getImportedFile(id)
    .then(
      (file) => (typeof file.attributes.sha256 === 'string' ? file.attributes.sha256 : undefined),
      () => undefined,
    );
}
