/**
 * Runs test files against the services: playbook cases through reviews of their contracts against
 * a scratch playbook (or the live one), from the cache when it has the runs; template cases through
 * draft test agreements, voided afterwards. Everything the run makes is removed in a `finally`,
 * and an interruption (the signal) stops it starting anything new; what crashed runs left
 * (scratch playbooks, test agreements) is swept once by the first run that needs that service.
 */
import { readRegularFileSync, unreadableReason } from '../util/special-file.js';
import { join } from 'node:path';
import { ApiError, DocketError } from '../errors.js';
import { canonicalJson, sha256 } from '../engine/canonical.js';
import { normName } from '../engine/normalize.js';
import { livePlaybookSubject, liveTemplateId, type PlaybookSubject, type TemplateSubject } from '../kinds/support/test-subjects.js';
import type { Services } from '../kinds/kind.js';
import type { ReviewAttrs } from '../api/review.js';
import { mapLimit } from '../util/map-limit.js';
import { Turns } from '../util/turns.js';
import type { CacheKey, TestCache } from './cache.js';
import { importedFileSha, type ContractStore } from './contracts.js';
import { playbookDigest } from './digest.js';
import type { TestSubjects } from './load.js';
import { attributeReview, checkAgreement, type AgreementFacts } from './match.js';
import { caseOutcome, caseWithout } from './outcome.js';
import { playbookCaseResult, timed, type Runs } from './case-result.js';
import { awaitReview, LAST_READ_ROOM_MS } from './poll.js';
import { Slots } from '../util/slots.js';
import type { RunIdentity } from './run-owner.js';
import { ScratchPlaybooks } from './scratch.js';
import { testAgreementMessage, TestAgreements, testAgreementObject } from './test-agreements.js';
import type { CaseOutcome, PlaybookCase, PlaybookTestFile, ReviewFacts, SuiteOutcome, TemplateTestFile, TestFile, TestReport } from './types.js';
import { playbookAtRef } from './at-ref.js';
import { escapeRegExp } from '../util/escape-regexp.js';
import { NEXT_RUN_SAYS } from '../api/problem.js';

export interface RunContext {
  root: string;
  /** Undefined with --replay-only: nothing is contacted. */
  services: Services | undefined;
  subjects: TestSubjects;
  cache: TestCache;
  /** False with --no-cache: review again and record anew. */
  readCache: boolean;
  live: boolean;
  contracts: ContractStore;
  concurrency: number;
  run: RunIdentity;
  signal: AbortSignal;
  deadline: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  now: () => Date;
  /** Told how far the reviews are (`3/5 reviews`). */
  progress?: (text: string) => void;
  /** The target's description for the report header. */
  target: string;
  /** Checks (or, on the emulator, brings up to date) a template before its cases run; returns a note for the report. */
  prepareTemplate?: (subject: TemplateSubject) => Promise<string | undefined>;
  /** The organization's default reviewer as the files declare it (CacheKey.default_reviewer). */
  defaultReviewer?: string;
  /** First poll delay (tests shorten it). */
  pollFirstDelayMs?: number;
  /** Runs the removal of what the run made; its requests may outlast the time budget (default: just runs it). */
  cleanup?: <T>(work: () => Promise<T>) => Promise<T>;
}

export interface CompareTo {
  ref: string;
  /** The playbooks as declared at the ref, by name. */
  playbooks: Map<string, PlaybookSubject>;
  /** Why the configuration at the ref does not load, when it does not: nothing is compared. */
  unloadable?: string;
  /** The configuration directory holds no file at the ref: nothing is declared there. */
  absent?: true;
}

/** Where a variant of a playbook lives for this run: a digest, and how to review against it. */
interface Variant {
  digest: string;
  subject: PlaybookSubject;
  /** The live playbook (`--live`), else a scratch playbook is made. */
  liveId?: string;
  /** The live playbook's reviewers, digested (CacheKey.reviewers), when any rule has one. */
  reviewers?: string;
  /** When the live playbook or a rule of it last changed, as read (LivePlaybook.edited). */
  edited?: string;
}

export async function runTests(files: readonly TestFile[], ctx: RunContext, compare?: CompareTo): Promise<TestReport> {
  const services = ctx.services;
  // Only the services the tests need are contacted: the review service for playbook tests.
  const scratch = services && files.some((f) => f.kind === 'PlaybookTest') ? new ScratchPlaybooks(services.review(), ctx.run, { concurrency: ctx.concurrency, now: ctx.now }) : undefined;
  // The contract files this run names, so a stated digest is checked against what it uploads too (probe RH-2).
  const runFiles = [...new Set(files.flatMap((f) => (f.kind === 'PlaybookTest' ? f.cases.flatMap((c) => ('file' in c.contract ? [c.contract.file] : [])) : [])))];
  const reviews = new Reviews(ctx, scratch, runFiles);
  const notes: string[] = [];
  const suites: SuiteOutcome[] = [];
  const agreements = { made: undefined as TestAgreements | undefined, left: [] as string[] };
  const leftBehind: string[] = [];
  try {
    // First, as it lists the playbooks: a review service that cannot be reached stops the run
    // before any case (the run could not start), instead of failing every case with the same error.
    await scratch?.sweep();
    // Playbook test files run side by side, as the cases of one do: one after another, each file
    // took a review's time of its own and spent the --timeout budget of the next (probe PA-1).
    // (Settled, not rejected, so that none is left running unwatched.)
    // Cases of every file share --concurrency: side by side, files do not multiply the reviews under way (second read SR81B-3).
    const slots = new Slots(ctx.concurrency);
    const playbooks = files.map((file) => (file.kind === 'PlaybookTest' ? settled(playbookSuite(file, ctx, reviews, compare, slots)) : undefined));
    let failure: { error: unknown } | undefined;
    for (const [i, file] of files.entries()) {
      if (failure) break;
      try {
        // Template tests one at a time: they share the run's test agreements, made once.
        suites.push(file.kind === 'PlaybookTest' ? outcomeOf(await playbooks[i]!) : await templateSuite(file, ctx, agreements));
      } catch (error) {
        failure = { error };
      }
    }
    // What still runs is waited for before the cleanup archives its scratch playbooks.
    await Promise.all(playbooks);
    if (failure) throw failure.error;
  } finally {
    await cleanupOf(ctx)(async () => {
      // What the service did not keep of a playbook, from its scratch copy this run or from the cache of a replay.
      notes.push(...new Set([...(scratch?.unkept ?? []), ...reviews.replayedNotes]));
      if (scratch) {
        const left = await scratch.archiveAll();
        if (left.length > 0) notes.push(`could not archive ${left.map((n) => JSON.stringify(n)).join(', ')}; the next docket test archives it`);
        leftBehind.push(...left);
        const swept = await scratch.sweep().catch(() => []);
        if (swept.length > 0) notes.push(`archived ${swept.length} scratch playbook(s) an earlier run left behind: ${swept.map((n) => JSON.stringify(n)).join(', ')}`);
      }
      if (agreements.made?.started) {
        const swept = await agreements.made.sweep().catch((error: unknown) => {
          notes.push(`could not look for draft test agreements an earlier run left behind: ${error instanceof Error ? error.message : String(error)}`);
          return undefined;
        });
        if (swept?.voided.length) notes.push(`voided ${swept.voided.length} draft test agreement(s) an earlier run left behind: ${swept.voided.join(', ')}`);
        if (swept?.failed.length) {
          // Each reason once (a refused key is not a passing conflict): the next run only tries again.
          const reasons = [...new Set(swept.failed.map((f) => f.error))];
          notes.push(`could not void ${swept.failed.length} draft test agreement(s) an earlier run left behind (${swept.failed.map((f) => f.id).join(', ')}): ${reasons.join('; ')}; the next docket test tries them again`);
        }
      }
    });
  }
  return { target: ctx.target, suites, notes, ...(compare ? { compareTo: compare.ref } : {}), ...(leftBehind.length > 0 ? { leftBehind } : {}), ...(agreements.left.length > 0 ? { draftsLeft: agreements.left } : {}) };
}

type Settled<T> = { value: T } | { error: unknown };

function settled<T>(work: Promise<T>): Promise<Settled<T>> {
  return work.then(
    (value) => ({ value }),
    (error: unknown) => ({ error }),
  );
}

function outcomeOf<T>(result: Settled<T>): T {
  if ('error' in result) throw result.error;
  return result.value;
}

function cleanupOf(ctx: RunContext): <T>(work: () => Promise<T>) => Promise<T> {
  return ctx.cleanup ?? ((work) => work());
}

async function variantOf(subject: PlaybookSubject | undefined, ctx: RunContext, live: boolean, name: string): Promise<Variant | string> {
  if (live) {
    if (!ctx.services) return '--live reads the live playbook, which --replay-only cannot';
    const found = await livePlaybookSubject(ctx.services, { name, ...(subject?.pinId ? { pinId: subject.pinId } : {}), ...(subject?.formerNames ? { formerNames: subject.formerNames } : {}) });
    if (typeof found === 'string') return found;
    if (!found) return `no live playbook is named ${JSON.stringify(name)}${subject?.pinId ? ` with the id its document pins (${subject.pinId})` : ''}: --live tests the playbook as it is live, so apply it first (docket apply, with --emulator for the emulator's)`;
    return { digest: playbookDigest(found.subject.rules), subject: found.subject, liveId: found.id, ...reviewersOf(found.reviewers), ...(found.edited ? { edited: found.edited } : {}) };
  }
  if (!subject) return `${JSON.stringify(name)} is not declared`;
  return { digest: playbookDigest(subject.rules), subject };
}

function reviewersOf(reviewers: readonly string[]): Pick<Variant, 'reviewers'> {
  return reviewers.length > 0 ? { reviewers: sha256(canonicalJson(reviewers)) } : {};
}

/** How the live playbook a `--live` variant was read from is not that variant any more, or undefined while it is. */
async function changedSince(services: Services, variant: Variant): Promise<string | undefined> {
  const now = variant.liveId ? await livePlaybookSubject(services, { id: variant.liveId }) : undefined;
  if (!now || typeof now === 'string' || normName(now.subject.name) !== normName(variant.subject.name)) return `the live playbook ${JSON.stringify(variant.subject.name)} was renamed or archived while its reviews ran`;
  const digest = playbookDigest(now.subject.rules);
  if (digest !== variant.digest) return `the live playbook ${JSON.stringify(variant.subject.name)} changed while its reviews ran (digest ${variant.digest.slice(0, 12)} when read, ${digest.slice(0, 12)} after)`;
  // Edited and put back meanwhile (a drift-fixing apply): a review made in between tested the edit (probe UD-1).
  if (variant.edited !== undefined && now.edited !== variant.edited) return `the live playbook ${JSON.stringify(variant.subject.name)} was edited while its reviews ran (last changed ${variant.edited} when read, ${now.edited ?? 'unknown'} after), though its rules read the same again`;
  if (reviewersOf(now.reviewers).reviewers !== variant.reviewers) return `the reviewers of the live playbook ${JSON.stringify(variant.subject.name)} changed while its reviews ran`;
  return undefined;
}

async function playbookSuite(file: PlaybookTestFile, ctx: RunContext, reviews: Reviews, compare: CompareTo | undefined, slots: Slots): Promise<SuiteOutcome> {
  const after = await variantOf(ctx.subjects.playbooks.get(file.subject), ctx, ctx.live, file.subject);
  const suite: SuiteOutcome = { kind: file.kind, file: file.file, subject: file.subject, cases: [], notes: [] };
  // Asked of the live playbook, found or not: every report says so, and compares with the ref all the same (probe YA-5).
  if (ctx.live) suite.live = true;
  if (typeof after === 'string') {
    suite.cases = file.cases.map((c) => caseWithout(c, 'error', after));
    if (compare) suite.before = await beforeOf(file, ctx, reviews, compare, slots);
    return suite;
  }
  suite.digest = after.digest;
  // The ref's reviews run beside today's, not after them (probe PA-1).
  const [cases, before] = await Promise.all([casesAgainst(file, after, reviews, slots), compare ? beforeOf(file, ctx, reviews, compare, slots) : undefined]);
  suite.cases = cases;
  if (before) suite.before = before;
  return suite;
}

/** The cases of `file` against its playbook at the ref `--compare-to` names. */
async function beforeOf(file: PlaybookTestFile, ctx: RunContext, reviews: Reviews, compare: CompareTo, slots: Slots): Promise<NonNullable<SuiteOutcome['before']>> {
  const old = playbookAtRef(file.subject, ctx.subjects.playbooks.get(file.subject), compare.playbooks);
  if (compare.unloadable !== undefined) return { ref: compare.ref, note: `The configuration at this ref cannot be loaded (${compare.unloadable}): nothing to compare with`, cases: [] };
  if (!old) return { ref: compare.ref, note: `Playbook ${JSON.stringify(file.subject)} is not declared at this ref${compare.absent ? ', where the configuration directory holds no files tracked by git' : ''}: nothing to compare with`, cases: [] };
  const before = (await variantOf(old.subject, ctx, false, file.subject)) as Variant;
  return { ref: compare.ref, digest: before.digest, cases: await casesAgainst(file, before, reviews, slots, old.renamed) };
}

/** `renamed`: the variant is the playbook at a ref, and these of its rules have other names today. */
async function casesAgainst(file: PlaybookTestFile, variant: Variant, reviews: Reviews, slots: Slots, renamed: ReadonlyMap<string, string> = new Map()): Promise<CaseOutcome[]> {
  return Promise.all(
    file.cases.map((c) =>
      slots.run(async () => {
        const started = performance.now();
        return playbookCaseResult(c, await reviews.runsFor(c, variant, c.repeat), started, renamed);
      }),
    ),
  );
}

/** A review not asked for once the time budget has no room for its wait: nothing is uploaded or asked for in vain. */
function notAskedInTime(): DocketError {
  return new DocketError('timeout', 'not asked for: the time budget ran out before its review could be waited for', 'give the run more time with --timeout');
}

/** A review not asked for once the run is stopping: a stopped run starts no work it would not wait for. */
function notAskedFor(): DocketError {
  return new DocketError('interrupted', 'interrupted before all of its reviews were asked for (none is asked for once the run is stopping)');
}


/** The reviews of the run: shared by every case with the same key, from the cache or made once. */
class Reviews {
  /** The notes the cache recorded with the playbook variants this run replayed (TestCache.notesFor). */
  readonly replayedNotes = new Set<string>();
  /** Each playbook digest's notes of unkept fields, as the cache holds them: read once a run, and as this run writes them. */
  private readonly notes = new Map<string, string[]>();
  /** The write of a digest's notes, once a run: every case of one playbook writes the same. */
  private readonly notesWritten = new Map<string, Promise<void>>();
  private readonly byKey = new Map<string, { needed: number; result: Promise<Runs> }>();
  private readonly uploads = new Map<string, Promise<string>>();
  /** Uploads made again, by contract and the id found gone (`<sha> <id>`). */
  private readonly reuploads = new Map<string, Promise<string>>();
  /** Reviews this run made. */
  private readonly reviews = new Set<string>();
  /**
   * Creates of one playbook and file (`<playbook> <file>`) are sent one at a time: a create whose
   * answer does not name its review (lost, or a 204) is then the only one of its pair on its way,
   * and found among the organization's reviews. Their reviews still run alongside.
   */
  private readonly pairTurns = new Turns();
  /** The digest the service (or, replaying, the cache) gives of each imported file id, asked once a run. */
  private readonly importedShas = new Map<string, Promise<string | undefined>>();
  private started = 0;
  private done = 0;

  constructor(
    private readonly ctx: RunContext,
    private readonly scratch: ScratchPlaybooks | undefined,
    /** The contract files the run's cases name. */
    private readonly runFiles: readonly string[] = [],
  ) {}

  async runsFor(c: PlaybookCase, variant: Variant, needed: number): Promise<Runs> {
    const contract = await this.contractOf(c);
    if ('error' in contract) return { ...contract, notRun: true };
    const key: CacheKey = {
      contract_sha256: contract.sha,
      playbook_digest: variant.digest,
      review_type: c.reviewType ?? 'auto',
      ...(variant.reviewers !== undefined ? { reviewers: variant.reviewers } : {}),
      ...(this.ctx.defaultReviewer !== undefined ? { default_reviewer: this.ctx.defaultReviewer } : {}),
    };
    const id = JSON.stringify(key);
    const known = this.byKey.get(id);
    // A case needing more runs than an earlier one with the same key waits for it, then adds its own.
    // One needing fewer takes the earlier one's runs; where it had too few recorded to replay, this
    // case's own need is checked against the record.
    if (known && known.needed >= needed) return known.result.then((r) => ('skipped' in r ? this.collect(key, c, variant, contract, needed) : r));
    const previous = known?.result;
    const result = (async (): Promise<Runs> => {
      const have = previous ? await previous : undefined;
      return this.collect(key, c, variant, contract, needed, have && 'facts' in have ? have : undefined);
    })();
    this.byKey.set(id, { needed, result });
    return result;
  }

  private async contractOf(c: PlaybookCase): Promise<{ sha: string; bytes?: Uint8Array; file?: string; importedId?: string } | { error: string }> {
    if ('importedFile' in c.contract) {
      // A service that does not say an imported file's digest leaves only this checkout's uploads to contradict it.
      const { services, cache } = this.ctx;
      // Asked of the service, and recorded for a replay, which asks none (probe YA-1).
      const shaOfId = (id: string): Promise<string | undefined> => {
        let said = this.importedShas.get(id);
        if (!said) {
          said = services
            ? importedFileSha(services, id).then(async (sha) => {
                if (sha !== undefined) await cache.putImportedSha(id, sha);
                return sha;
              })
            : Promise.resolve(cache.importedSha(id));
          this.importedShas.set(id, said);
        }
        return said;
      };
      // The service's own digest of the id, where it gives one, is what the reviews are of: a case
      // stating another would cache them under that other file's digest, and replay them for it (probe GJ-1).
      const said = await shaOfId(c.contract.importedFile);
      if (said !== undefined && said.toLowerCase() !== c.contract.sha256.toLowerCase()) {
        return { error: `imported file ${c.contract.importedFile} has sha256 ${said.toLowerCase()} as the service gives it, not the case's ${c.contract.sha256}: correct the case's \`imported_file\` or its \`sha256\`, whichever is wrong (docket test capture writes both)` };
      }
      const conflict = (await this.ctx.contracts.conflictOf(c.contract.sha256, c.contract.importedFile, shaOfId)) ?? (await this.uploadedByThisRun(c.contract.sha256, c.contract.importedFile, shaOfId));
      // Either may be the slip: an id copied from another organization, or a digest from another file.
      if (conflict) return { error: `${conflict}: correct the case's \`imported_file\` or its \`sha256\`, whichever is wrong (docket test capture writes both)` };
      return { sha: c.contract.sha256, importedId: c.contract.importedFile };
    }
    return this.readContract(c.contract.file);
  }

  private readContract(file: string): { sha: string; bytes: Uint8Array; file: string } | { error: string } {
    let read = this.contractFiles.get(file);
    if (!read) {
      try {
        // Never waited on: a named pipe would block the read, and the process with it.
        const bytes = readRegularFileSync(join(this.ctx.root, file));
        read = { sha: sha256(bytes), bytes, file };
      } catch (error) {
        read = { error: `cannot read ${file}: ${unreadableReason(error)}` };
      }
      this.contractFiles.set(file, read);
    }
    return read;
  }
  /**
   * Why a stated `imported_file` and `sha256` contradict a contract file this run names, whose
   * digest that is: its upload's id is another, so the case would take that file's reviews in a run
   * before it is recorded, and be refused in every run after (probe RH-2).
   */
  private async uploadedByThisRun(sha: string, id: string, shaOfId: ((id: string) => Promise<string | undefined>) | undefined): Promise<string | undefined> {
    const wanted = sha.toLowerCase();
    for (const file of this.runFiles) {
      const read = this.readContract(file);
      if ('error' in read || read.sha !== wanted) continue;
      const recorded = await this.ctx.contracts.idFor(wanted);
      if (recorded !== undefined && recorded.toLowerCase() === id.toLowerCase()) return undefined;
      if ((await shaOfId?.(id))?.toLowerCase() === wanted) return undefined;
      return `sha256 ${sha} is the digest of ${file}, which this run uploads${recorded === undefined ? '' : ` (recorded as imported file ${recorded})`}, not imported file ${id}`;
    }
    return undefined;
  }

  /** Each contract file read once a run, however many cases and variants name it. */
  private readonly contractFiles = new Map<string, { sha: string; bytes: Uint8Array; file: string } | { error: string }>();

  /** `earlier`: what an earlier case of the same key got this run (it may have needed fewer runs than the cache holds). */
  private notesOf(digest: string): string[] {
    let notes = this.notes.get(digest);
    if (!notes) this.notes.set(digest, (notes = this.ctx.cache.notesFor(digest)));
    return notes;
  }

  private async collect(key: CacheKey, c: PlaybookCase, variant: Variant, contract: { sha: string; bytes?: Uint8Array; file?: string; importedId?: string }, needed: number, earlier?: { facts: ReviewFacts[]; replayed: number }): Promise<Runs> {
    const ctx = this.ctx;
    const recorded = ctx.readCache ? await ctx.cache.get(key) : [];
    // Whichever holds more: an earlier case's runs are the cache's first ones, or ones this run made and recorded.
    const cached = earlier && earlier.facts.length >= recorded.length ? earlier.facts : recorded;
    // How many of the first runs are the cache's: an earlier case's may have been made this run.
    const replayed = cached === earlier?.facts ? earlier.replayed : cached.length;
    if (cached.length >= needed) {
      for (const note of this.notesOf(key.playbook_digest)) this.replayedNotes.add(note);
      return { facts: cached.slice(0, needed), replayed: Math.min(replayed, needed) };
    }
    if (!ctx.services) {
      // A damaged entry is not an unrecorded one: said as such (probe GC), not as "0 recorded" beside it (probe JB-3).
      const what = `for this contract, playbook digest ${key.playbook_digest.slice(0, 12)} and review type ${key.review_type}`;
      if (ctx.cache.unreadableFor(key)) return { skipped: `its cache entry ${what} is there but could not be read (damaged or cut short); run without --replay-only to review it again` };
      return { skipped: `not in the cache (${cached.length} of ${needed} run${needed === 1 ? '' : 's'} recorded ${what})` };
    }
    if (ctx.signal.aborted) return { error: 'interrupted before its reviews started', notRun: true };
    const asked: string[] = [];
    try {
      const api = ctx.services.review();
      const scratch = variant.liveId ? undefined : await this.scratch!.ensure(variant.subject, variant.digest);
      if (scratch) {
        // A top-up keeps the notes of the reviews it still replays, said again; only a run that reads
        // no cache (`--no-cache`) forgets them (probe PP-1).
        const kept = ctx.readCache ? this.notesOf(variant.digest) : [];
        if (cached.length > 0) for (const note of kept) this.replayedNotes.add(note);
        let written = this.notesWritten.get(variant.digest);
        if (!written) {
          const notes = [...new Set([...kept, ...(this.scratch!.unkeptOf.get(variant.digest) ?? [])])];
          this.notes.set(variant.digest, notes);
          this.notesWritten.set(variant.digest, (written = ctx.cache.putNotes(variant.digest, notes)));
        }
        await written;
      }
      const playbookId = variant.liveId ?? scratch!.id;
      const rules = scratch ? scratch.rules : variant.subject.rules;
      const missing = needed - cached.length;
      this.started += missing;
      this.report();
      // Once one review fails, no other is asked for; those under way are waited for and kept, so
      // the next run asks only for what is still missing (probes FC-1, FC-2).
      let failure: { error: unknown } | undefined;
      const made = await mapLimit(Array.from({ length: missing }, (_, i) => i), ctx.concurrency, async (): Promise<ReviewFacts | undefined> => {
        if (failure) return undefined;
        try {
          if (ctx.signal.aborted) throw notAskedFor();
          // Nothing is uploaded (billed) or asked for that the run would not wait for (probe PA-2).
          if (ctx.deadline() - Date.now() <= LAST_READ_ROOM_MS) throw notAskedInTime();
          const review = await this.createReview(contract, playbookId, c.reviewType, scratch !== undefined);
          asked.push(review.id);
          const finished = await awaitReview(api, review.id, { signal: ctx.signal, deadline: ctx.deadline, sleep: ctx.sleep, ...(ctx.pollFirstDelayMs !== undefined ? { firstDelayMs: ctx.pollFirstDelayMs } : {}) });
          this.done++;
          this.report();
          return attributeReview(review.id, finished.attributes, rules);
        } catch (error) {
          failure ??= { error };
          return undefined;
        }
      });
      const finished = made.filter((f): f is ReviewFacts => f !== undefined);
      // The live playbook (--live) may have been edited in the app while the reviews ran: their
      // results are then for neither version of its rules, and must not be kept under the first.
      if (variant.liveId && finished.length > 0) {
        const changed = await changedSince(ctx.services, variant);
        if (changed) return { error: `${changed}: the results are for neither version, so none was kept; run docket test --live again`, evidence: asked };
      }
      const all = finished.length > 0 ? await ctx.cache.put(key, [...cached, ...finished]) : cached;
      if (failure) throw failure.error;
      return { facts: all, replayed };
    } catch (error) {
      if (error instanceof DocketError) return { error: withHint(error), evidence: asked };
      throw error;
    }
  }

  private report(): void {
    this.ctx.progress?.(`${this.done}/${this.started} review${this.started === 1 ? '' : 's'} done`);
  }

  /** Creates a review by imported file id, uploading the contract first when no id is known (or the known one is gone). */
  private async createReview(contract: { sha: string; bytes?: Uint8Array; file?: string; importedId?: string }, playbookId: string, reviewType: string | null, scratch: boolean) {
    const api = this.ctx.services!.review();
    const create = async (id: string) => {
      const body = { imported_file_id: id, playbook_id: playbookId, ...(reviewType ? { review_type: reviewType } : {}) };
      return this.pairTurns.run(`${playbookId} ${id}`, async () => {
        // Its turn may come after Ctrl-C: none is asked for once the run is stopping (it would not be waited for).
        if (this.ctx.signal.aborted) throw notAskedFor();
        // Only this run reviews with its scratch playbook, one create of a pair at a time: a review
        // of it and this file that the run did not get back is the one whose answer was lost.
        const recognise = scratch ? (r: { id: string; attributes: ReviewAttrs }) => r.attributes.playbook_id === playbookId && r.attributes.imported_file_id === id && !this.reviews.has(r.id) : undefined;
        const review = await api.createReview(body, recognise);
        this.reviews.add(review.id);
        return review;
      });
    };
    if (contract.importedId) return create(contract.importedId);
    const gone = (error: unknown): boolean => error instanceof ApiError && (error.status === 404 || (error.status === 422 && /imported_file/.test(error.message)));
    const id = await this.upload(contract, false);
    try {
      return await create(id);
    } catch (error) {
      // The recorded file is gone (another organization's id, a reset emulator): upload again, once.
      if (!gone(error)) throw error;
      // Unless the copy kept with the cache names a later upload (CI keeps it, not the lock's changes).
      const copied = await this.ctx.contracts.copiedIdFor(contract.sha);
      if (copied !== undefined && copied !== id) {
        try {
          return await create(copied);
        } catch (again) {
          if (!gone(again)) throw again;
        }
      }
      return create(await this.uploadAgain(contract, id));
    }
  }

  /**
   * The contract uploaded again in place of `gone`, once however many reviews found that id gone
   * (each is billed as a review: probe FJ); later reviews of the contract take the new id.
   */
  private uploadAgain(contract: { sha: string; bytes?: Uint8Array; file?: string }, gone: string): Promise<string> {
    const key = `${contract.sha} ${gone}`;
    let p = this.reuploads.get(key);
    if (!p) {
      p = this.upload(contract, true);
      this.reuploads.set(key, p);
    }
    return p;
  }

  private upload(contract: { sha: string; bytes?: Uint8Array; file?: string }, again: boolean): Promise<string> {
    let p = again ? undefined : this.uploads.get(contract.sha);
    if (!p) {
      p = (async () => {
        const known = again ? undefined : await this.ctx.contracts.idFor(contract.sha);
        if (known) return known;
        await this.ctx.contracts.beforeUpload();
        const name = contract.file!.split('/').pop()!;
        const created = await this.ctx.services!.review().uploadImportedFile({ data: contract.bytes!, filename: name, sha256: contract.sha });
        await this.ctx.contracts.record(contract.sha, created.id, contract.file!);
        return created.id;
      })();
      this.uploads.set(contract.sha, p);
    }
    return p;
  }
}

async function templateSuite(file: TemplateTestFile, ctx: RunContext, agreements: { made: TestAgreements | undefined; left: string[] }): Promise<SuiteOutcome> {
  const suite: SuiteOutcome = { kind: file.kind, file: file.file, subject: file.subject, cases: [], notes: [] };
  const subject = ctx.subjects.templates.get(file.subject);
  if (!ctx.services || !subject) {
    suite.cases = file.cases.map((c) => caseWithout(c, 'skipped', 'template tests create agreements on the service; --replay-only cannot run them'));
    return suite;
  }
  const services = ctx.services;
  let id: string | undefined;
  // A read that fails (the time budget spent, the service down) is this suite's cases' error: the
  // run still reports every case that ran before it, and the next suite (probe AA-1).
  try {
    const note = await ctx.prepareTemplate?.(subject);
    if (note) suite.notes.push(note);
    id = await liveTemplateId(services, subject);
  } catch (error) {
    if (!(error instanceof DocketError)) throw error;
    suite.cases = file.cases.map((c) => caseWithout(c, 'error', withHint(error)));
    return suite;
  }
  if (!id) {
    suite.cases = file.cases.map((c) => caseWithout(c, 'error', `${JSON.stringify(subject.name)} is not live yet; run docket apply first`));
    return suite;
  }
  const api = services.agreements().agreements;
  agreements.made ??= new TestAgreements(api, ctx.run, { concurrency: ctx.concurrency, now: ctx.now });
  // Before this run makes any; a failure to look is reported when the run ends.
  await agreements.made.sweep().catch(() => undefined);
  const made: string[] = [];
  // A create that got no answer may have made its agreement: the end of the suite looks for it.
  let unanswered = false;
  try {
    for (const c of file.cases) {
      if (ctx.signal.aborted) {
        suite.cases.push(caseWithout(c, 'error', 'interrupted before it ran'));
        continue;
      }
      const started = performance.now();
      const agreement = testAgreementObject(c.values, subject.custom, ctx.run);
      const body = { template_id: id, owner_email: ctx.subjects.actor, signer_email: ctx.subjects.actor, draft: true, agreement };
      let facts: AgreementFacts;
      // Only this run's own mark tells its draft from another's: a case's own message may be any run's.
      const ours = agreement.message === testAgreementMessage(ctx.run);
      try {
        const created = await api.create(body, `${file.subject} / ${c.name}`, ours ? () => agreements.made!.findUnanswered(agreement.message) : undefined);
        made.push(created.id);
        agreements.made.saw(created.id);
        facts = { accepted: true, agreement_id: created.id };
      } catch (error) {
        if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 422)) {
          if (error instanceof DocketError) {
            if (!error.notCarriedOut && ours) unanswered = true;
            suite.cases.push(timed(caseWithout(c, 'error', error.notCarriedOut ? withHint(error) : draftMayBeMade(error, ours)), started));
            continue;
          }
          throw error;
        }
        facts = { accepted: false, fields: (error.details.fieldErrors ?? []).map((f) => f.field), detail: error.details.detail ?? error.details.title ?? error.details.fieldErrors?.[0]?.message ?? `HTTP ${error.status}` };
      }
      suite.cases.push(timed(caseOutcome(c, [c.expectations.map((e) => checkAgreement(e.spec, facts))], { evidence: facts.accepted ? [facts.agreement_id] : [], source: 'live' }), started));
    }
  } finally {
    await cleanupOf(ctx)(async () => {
      for (const agreement of made) {
        try {
          await api.void(agreement);
        } catch {
          suite.notes.push(`could not void draft test agreement ${agreement}; the next docket test voids it (or void it in the app: it does not count against the monthly limit)`);
          agreements.left.push(agreement);
        }
      }
      if (unanswered) {
        await agreements.made!.voidUnanswered(made).then(
          (voided) => voided.length > 0 && suite.notes.push(`voided ${voided.length} draft test agreement(s) this run made without hearing back: ${voided.join(', ')}`),
          () => suite.notes.push('could not look for the draft test agreements whose create got no answer; the next docket test voids them'),
        );
      }
    });
  }
  return suite;
}

/**
 * A draft's create whose outcome is unknown, said for docket test: the client's words send the
 * user to `plan` and `apply`, which never show a draft test agreement (probe JB-2); this run voids
 * the drafts it made without hearing back, and a later run those it could not.
 */
/** The tail the service client puts on a write of unknown outcome (NEXT_RUN_SAYS), either run's. */
const NEXT_RUN_TAIL = new RegExp(`(?:,? and|;) (?:${Object.values(NEXT_RUN_SAYS).map((says) => escapeRegExp(says.whether)).join('|')})$`);

function draftMayBeMade(error: DocketError, ours: boolean): string {
  // The client's word on the next run: this says what to do about the draft instead.
  const message = error.message.replace(NEXT_RUN_TAIL, '');
  // With the case's own message, no mark tells the draft from another's: it is for a person to void (probe MH-3).
  if (!ours) return `${message} (hint: the draft may have been made; with the case's own \`message\` docket cannot tell it from another's draft, so it voids none: look for it in the app and void it, then run the case again)`;
  return `${message} (hint: the draft may have been made: this run voids the drafts whose create got no answer, as its notes say, and a later docket test voids any it could not; run the case again)`;
}

/** Why a case could not run, with what to do about it when the error says (a redirect's new URL, the key a 403 names). */
function withHint(error: DocketError): string {
  return error.hint ? `${error.message} (hint: ${error.hint})` : error.message;
}
