/**
 * Record and replay: each review's attributed results, kept in `.docket/test-cache/<service>/` by
 * (contract sha256, effective playbook digest, review type). A file per key, written atomically;
 * a later run (or `--replay-only`, with no keys) takes its runs from there instead of reviewing.
 */
import { rm } from 'node:fs/promises';
import { makeFolders } from '../util/make-folders.js';
import { asOwnFile, readRegularFileSync } from '../util/special-file.js';
import { join } from 'node:path';
import { canonicalJson, sha256 } from '../engine/canonical.js';
import { writeFileAtomic } from '../util/atomic-write.js';
import { isPlainObject } from '../util/plain.js';
import type { ReviewFacts } from './types.js';
import { WORK_DIR } from '../config/work-dir.js';

export interface CacheKey {
  contract_sha256: string;
  playbook_digest: string;
  /** `auto` when the case lets the service choose. */
  review_type: string;
  /**
   * With `--live`, of a live playbook whose rules escalate to reviewers (which a scratch copy
   * leaves out): a digest of whom each escalates to. Its reviews are not the files' version's, nor
   * theirs its (probe FC-3); absent otherwise, so both share the reviews of a playbook without any.
   */
  reviewers?: string;
  /**
   * The organization's default reviewer as the files declare it (an e-mail, in lower case): a rule
   * without a reviewer, every rule of a scratch copy, escalates to it, and commentary may name
   * it (probe GJ-2). Absent where the files declare none.
   */
  default_reviewer?: string;
}

interface CacheFile {
  version: 1;
  key: CacheKey;
  runs: { recorded_at: string; facts: ReviewFacts }[];
}

export const CACHE_DIR = join(WORK_DIR, 'test-cache');

/** Results of one service are never replayed for another: the emulator's stand-in is not the real reviewer. */
export function cachePartition(emulator: boolean, reviewUrl: string): string {
  if (emulator) return 'emulator';
  return reviewUrl.replace(/^https?:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '_').replace(/^_+|_+$/g, '') || 'default';
}

export class TestCache {
  /** Entries that are there but could not be read (damaged, cut short): said once the run ends, as they cost reviews (probe GC). */
  readonly unreadable = new Set<string>();
  /** Why an entry could not be written, when one could not: said once the run ends. */
  unwritten: string | undefined;

  /**
   * `hide`: what replaces a key's value in a review's text before it is written (a key someone
   * pasted into a rule comes back in the reviewer's words): the recipe shares the cache with pull
   * requests from forks, where the key must not go (probe JC-1).
   */
  constructor(
    readonly dir: string,
    private readonly now: () => Date = () => new Date(),
    private readonly hide: (text: string) => string = (text) => text,
  ) {}

  private file(key: CacheKey): string {
    return join(this.dir, `${sha256(canonicalJson(key)).slice(0, 32)}.json`);
  }

  /** The runs recorded for the key, oldest first; none when the file is missing or unreadable (noted in `unreadable`). */
  async get(key: CacheKey): Promise<ReviewFacts[]> {
    const file = this.file(key);
    let parsed: unknown;
    try {
      // Never waited on: a named pipe there would hold the run, signals included (probe GF).
      parsed = JSON.parse(readRegularFileSync(file).toString('utf8'));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') this.unreadable.add(file);
      return [];
    }
    // Every run as a review's facts, or the entry is damaged: a value of another shape would reach the matchers (probe GF).
    if (!isPlainObject(parsed) || parsed.version !== 1 || !Array.isArray(parsed.runs) || canonicalJson(parsed.key) !== canonicalJson(key) || !parsed.runs.every((r) => isPlainObject(r) && isFacts(r.facts))) {
      this.unreadable.add(file);
      return [];
    }
    return (parsed.runs as CacheFile['runs']).map((r) => r.facts);
  }

  /**
   * The notes of the playbook variant of `digest` (fields the service did not keep as sent, so its
   * reviews were of the playbook as the service holds it): recorded with its reviews, so a replay
   * says them as the run that recorded them did (probe NL-4).
   */
  async putNotes(digest: string, notes: readonly string[]): Promise<void> {
    const file = this.notesFile(digest);
    try {
      // None now (reviewed again where the service keeps every field): an older note would be false (second read SR78B-2).
      if (notes.length === 0) return await rm(file, { force: true });
      await makeFolders(this.dir);
      await asOwnFile(file);
      await writeFileAtomic(file, `${JSON.stringify({ version: 1, digest, notes: notes.map(this.hide) }, null, 2)}\n`);
    } catch (error) {
      this.unwritten ??= (error as NodeJS.ErrnoException).code ?? String(error);
    }
  }

  /** The notes recorded for the variant of `digest`; none when there are none or they cannot be read. */
  notesFor(digest: string): string[] {
    try {
      const parsed: unknown = JSON.parse(readRegularFileSync(this.notesFile(digest)).toString('utf8'));
      return isPlainObject(parsed) && parsed.digest === digest && Array.isArray(parsed.notes) ? parsed.notes.filter((n): n is string => typeof n === 'string') : [];
    } catch {
      return [];
    }
  }

  private notesFile(digest: string): string {
    return join(this.dir, `notes-${sha256(digest).slice(0, 32)}.json`);
  }

  /**
   * An imported file's digest as the service said it: a replay, which asks no service, then knows
   * a case naming it beside the digest of a file docket uploaded as another id is those bytes
   * uploaded twice, not a slip (probe YA-1).
   */
  async putImportedSha(id: string, sha: string): Promise<void> {
    const file = this.importedFile(id);
    try {
      await makeFolders(this.dir);
      await asOwnFile(file);
      await writeFileAtomic(file, `${JSON.stringify({ version: 1, imported_file: id.toLowerCase(), sha256: sha.toLowerCase() }, null, 2)}\n`);
    } catch (error) {
      this.unwritten ??= (error as NodeJS.ErrnoException).code ?? String(error);
    }
  }

  /** The digest the service said of an imported file, as putImportedSha recorded it; none when unknown or unreadable. */
  importedSha(id: string): string | undefined {
    try {
      const parsed: unknown = JSON.parse(readRegularFileSync(this.importedFile(id)).toString('utf8'));
      return isPlainObject(parsed) && parsed.imported_file === id.toLowerCase() && typeof parsed.sha256 === 'string' ? parsed.sha256 : undefined;
    } catch {
      return undefined;
    }
  }

  private importedFile(id: string): string {
    return join(this.dir, `imported-${sha256(id.toLowerCase()).slice(0, 32)}.json`);
  }

  /** Whether the key's entry is there but could not be read (after `get`). */
  unreadableFor(key: CacheKey): boolean {
    return this.unreadable.has(this.file(key));
  }

  /**
   * Replaces the key's runs; gives them back as recorded (a key's value hidden), which is what the
   * run matches too: a replay of them then reads as the run that recorded them did (probe MZ-1).
   */
  async put(key: CacheKey, runs: ReviewFacts[]): Promise<ReviewFacts[]> {
    const recorded = runs.map((facts) => withTextHidden(facts, this.hide));
    const at = this.now().toISOString();
    const body: CacheFile = { version: 1, key, runs: recorded.map((facts) => ({ recorded_at: at, facts })) };
    const file = this.file(key);
    try {
      // In the try: a folder that cannot be made (a file in its place, another user's `.docket/`) loses the entry, not the paid run's report (probe CA-1).
      await makeFolders(this.dir);
      await asOwnFile(file);
      await writeFileAtomic(file, `${JSON.stringify(body, null, 2)}\n`);
    } catch (error) {
      // An entry that cannot be written (a folder in its place) costs a review next time, never this run (probe GH).
      this.unwritten ??= (error as NodeJS.ErrnoException).code ?? String(error);
    }
    return recorded;
  }
}

/** A value with every text in it as `hide` gives it back. */
function withTextHidden<T>(value: T, hide: (text: string) => string): T {
  if (typeof value === 'string') return hide(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => withTextHidden(v, hide)) as T;
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withTextHidden(v, hide)])) as T;
  return value;
}

const text = (v: unknown): boolean => v === null || typeof v === 'string';
const listOf = (v: unknown, item: (x: Record<string, unknown>) => boolean): boolean => Array.isArray(v) && v.every((x) => isPlainObject(x) && item(x));

/** Whether a recorded value has the shape of a review's facts (types.ts ReviewFacts). */
function isFacts(v: unknown): v is ReviewFacts {
  return (
    isPlainObject(v) &&
    typeof v.review_id === 'string' &&
    typeof v.review_type === 'string' &&
    listOf(v.redlines, (r) => typeof r.topic === 'string' && text(r.rule) && text(r.evaluation) && text(r.commentary)) &&
    listOf(v.flags, (f) => text(f.rule) && text(f.text) && text(f.decision)) &&
    listOf(v.positions, (p) => text(p.summary) && text(p.detailed_explanation))
  );
}
