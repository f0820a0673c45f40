/**
 * The HTTP client both services share: undici with a keep-alive pool, bounded concurrency,
 * retries with backoff and full jitter, JSON:API paging and typed errors. Endpoint functions
 * (review.ts, agreements.ts) only know paths and bodies.
 */
import { lookup, type LookupOptions } from 'node:dns';
import { EventEmitter } from 'node:events';
import { isDeepStrictEqual } from 'node:util';
import type { IncomingHttpHeaders } from 'node:http';
import { performance } from 'node:perf_hooks';
import { setTimeout as delay } from 'node:timers/promises';
import type { Dispatcher } from 'undici';
import { Pool } from './undici-parts.js';
import { readAnswer, type Unsent } from './answer.js';
import { ApiError, DocketError } from '../errors.js';
import { createLimiter, MAX_TIMER_MS, requestsOf, type Limiter } from './limiter.js';
import { markFound } from './found.js';
import { MAX_BODY_BYTES } from './answer-limit.js';
import { encodeMultipart } from './multipart.js';
import { isPlainObject } from '../util/plain.js';
import { shortId } from './path-segment.js';
import { pathQueriesHidden } from '../config/url-secrets.js';
import { urlProblem } from '../config/url-policy.js';
import { pageSizeUnderLimit, queryShown, attributesOf, bodyProblem, countProblem, endpointKey, resourceProblem, isArchived, isPageSizeRejection, lastPageFromBody, currentPageFromBody, listProblem, looksTruncated, nextFromBody, pagesCountProblem, PAGE_SIZE, smallerPageSize, statedRecords } from './paging.js';
import { apiKeyProblem, apiKeyProblemHint } from '../config/api-keys.js';
import { refusedUnperformed, waitingForTurn, writeSent } from './write-attempts.js';
import { apiKeyVariable, headerValue, hintForStatus, NEXT_RUN_SAYS, parseProblem, oneLineText, truncate, unaskedEncoding, type NextRun } from './problem.js';
import { seconds } from '../util/seconds.js';
import { backoffDelay, classifyConnectionError, PROXY_CLOSED, decide, parseRetryAfter, surelyNotCarriedOut, type ConnectionFailure, type Method } from './retry.js';
import { normEmail } from '../engine/normalize.js';
import type {
  ApiResource,
  CreateOptions,
  FormPart,
  ListOptions,
  Query,
  RequestLogEntry,
  RequestOptions,
  ServiceClient,
  ServiceName,
} from './types.js';

export { createLimiter, type Limiter } from './limiter.js';

export interface ServiceClientOptions {
  service: ServiceName;
  /** e.g. `https://api.gerri.commonpaper.com` or `http://127.0.0.1:4010/review`; the path prefix is kept. */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>`; never appears in an error, a log line or a message. */
  apiKey: string;
  /** The environment variable the key was read from: the one a 401's hint names. */
  apiKeyFrom?: string;
  /** The variable naming the proxy `dispatcher` connects through (`HTTPS_PROXY`…): named where a connection fails. */
  proxyVariable?: string;
  /** The proxy's URL holds a user name or password (a 407 is then their refusal, not a request for them). */
  proxyCredentials?: true;
  /** The proxy is reached over plain http: a TLS failure is then the service's end of the tunnel, not the proxy's. */
  proxyPlain?: true;
  /** Default: a keep-alive undici Pool for the base URL's origin, created on first use. */
  dispatcher?: Dispatcher;
  /** Shared by both services' clients so `--concurrency` bounds the total. Default: 8 for this client. */
  limiter?: Limiter;
  /** Retries after the first attempt. Default 6. */
  retries?: number;
  /** Default 250. */
  baseDelayMs?: number;
  /** Default 8000. */
  maxDelayMs?: number;
  /** How long one attempt may take for the whole answer, headers and body. Default 30000. */
  timeoutMs?: number;
  /** How often an attempt that timed out is repeated. Default 1. */
  timeoutRetries?: number;
  /**
   * The command's time budget, as a time (epoch ms): no attempt and no wait goes past it. A
   * function is asked each time (apply starts its budget once the plan is approved).
   */
  deadline?: number | (() => number | undefined);
  /** Aborts whatever is in flight (an interrupted plan). */
  signal?: AbortSignal;
  /**
   * Once aborted (the first Ctrl-C of an apply), a request the service refused or lost is not
   * tried again: nothing new is sent. What is already on its way, and the read that learns the
   * outcome of a create, still finish (until `signal`).
   */
  stop?: AbortSignal;
  /** Whether a request asked for after `stop` is part of stopping (a test run's cleanup), which a 429 pause does not drop. */
  waitsAfterStop?: () => boolean;
  /** The command whose next run shows what a write left undone: `docket test`'s writes are in no plan (probe RH-3). Default: plan. */
  nextRun?: NextRun;
  now?: () => number;
  /** Called once per logical request when it has finished, successfully or not. */
  onRequest?: (entry: RequestLogEntry) => void;
  /** Told what the client learnt about the service (a refused page size), for `-v`. */
  onDebug?: (message: string) => void;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Whether an id is of an object that was live before (Services.knowExistingIds): no create makes it. */
  isExistingId?: (id: string) => boolean;
}

export interface ClosableServiceClient extends ServiceClient {
  /** Ends the keep-alive pool if this client created it (an injected dispatcher is the caller's). */
  close(): Promise<void>;
}

// Six retries: a service failing two requests in five (the emulator's --fault-rate 0.4) still
// fails one request in 600, where four left one in 100 and a plan of 60 reads failed half the time.
const DEFAULTS = { retries: 6, baseDelayMs: 250, maxDelayMs: 8000, timeoutMs: 30_000, timeoutRetries: 1, concurrency: 8 };
/**
 * Requests in a row that failed every attempt on a server fault or a broken connection, after which
 * the service counts as down for the rest of the command: each further request would spend its whole
 * backoff (about 8 s) failing again, so an apply of a thousand creates against a dead service would
 * run to its time budget. Random faults reset the count with every answer in between.
 */
export const DOWN_AFTER_FAILURES = 3;
/**
 * ...and only once every attempt has failed so for this long: a restart of a few seconds fails
 * the requests under way (full jitter lets seven attempts fit in two seconds), and must not drop
 * every change after them. Longer than one request's own retries wait (16 s at most).
 */
export const DOWN_AFTER_SILENCE_MS = 30_000;
/**
 * The waits before reading again for a create that may still be landing (after a timed-out attempt
 * or a 504): it was looked for at once; a gateway that held it may pass it on seconds later.
 */
const LANDING_READ_WAITS_MS = [2_000, 5_000];
/**
 * How the pool for `origin` connects: a `*.localhost` host is loopback (RFC 6761), and plain http
 * is allowed to it for that, so it is looked up as `localhost` is, never asked of a DNS server,
 * which could send the key elsewhere (probe QG-3).
 */
export function connectOptionsFor(origin: string): { connect?: { lookup: typeof lookup } } {
  return new URL(origin).hostname.toLowerCase().endsWith('.localhost') ? { connect: { lookup: lookUpAsLocalhost } } : {};
}

/** Looks a `*.localhost` name up as `localhost` (net.connect's `lookup`, its options and callback passed through). */
const lookUpAsLocalhost = ((_hostname: string, options: LookupOptions, callback: (...args: unknown[]) => void): void => {
  lookup('localhost', options, callback as never);
}) as unknown as typeof lookup;

/** How much later than docket's own timer undici's may fire: its timers tick about once a second. */
const UNDICI_TIMER_SLACK_MS = 1_000;

/**
 * A request body past 1 MiB (an upload) earns its attempt the time to send it at 64 KiB/s, the
 * slowest uplink docket waits for: the attempt's time counts the sending too, and 30 s alone sent
 * no file over 7 MB on a 1.6 Mbit/s link, ever (probe CC-1).
 */
const LARGE_BODY_BYTES = 1024 * 1024;
const SLOWEST_UPLINK_BYTES_PER_MS = 64 * 1024 / 1000;

/** The time of one attempt of a request with `bodyBytes` of body. */
export function attemptTimeMs(timeoutMs: number, bodyBytes: number): number {
  return bodyBytes > LARGE_BODY_BYTES ? timeoutMs + Math.ceil(bodyBytes / SLOWEST_UPLINK_BYTES_PER_MS) : timeoutMs;
}

/** undici's own headers or body timeout: docket stopped waiting, as when its own timer fires (probe QG-1). */
function undiciTimedOut(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_HEADERS_TIMEOUT' || code === 'UND_ERR_BODY_TIMEOUT';
}
/** A list longer than this is a paging bug, not data: 10 000 pages of 100 is a million objects. */
const MAX_PAGES = 10_000;
/** Pages asked for at once when the first page states the last: each batch is checked before the next. */
const PARALLEL_PAGES = 32;
export { MAX_BODY_BYTES };

/** What one attempt produced: an answer (any status) or a network failure. */
type Attempt =
  /** `tooLarge`: a body over MAX_BODY_BYTES, not read (its text is empty). `notUtf8`: its bytes are not UTF-8 (answer.ts). */
  | { kind: 'response'; status: number; headers: IncomingHttpHeaders; text: string; tooLarge?: true; notUtf8?: true }
  | { kind: 'failure'; failure: ConnectionFailure };

interface RequestTarget {
  method: Method;
  /** Below the base URL, starting with `/`, without query: what errors show. */
  path: string;
  /** Encoded query string without `?`, possibly empty. */
  query: string;
  body?: Record<string, unknown> | FormPart[];
  operation: string;
}

export function createServiceClient(options: ServiceClientOptions): ClosableServiceClient {
  const { service, onRequest } = options;
  const logDebug = options.onDebug;
  const base = parseBaseUrl(options.baseUrl, service);
  const apiKey = checkApiKey(options.apiKey, service, options.apiKeyFrom);
  const retries = Math.max(0, Math.floor(options.retries ?? DEFAULTS.retries));
  const baseDelayMs = options.baseDelayMs ?? DEFAULTS.baseDelayMs;
  const maxDelayMs = options.maxDelayMs ?? DEFAULTS.maxDelayMs;
  const timeoutMs = options.timeoutMs ?? DEFAULTS.timeoutMs;
  const limiter = options.limiter ?? createLimiter(DEFAULTS.concurrency);
  const timeoutRetries = options.timeoutRetries ?? DEFAULTS.timeoutRetries;
  const sleep = async (ms: number, signal: AbortSignal | undefined): Promise<void> => {
    if (options.sleep) return options.sleep(ms);
    // In steps Node's timers hold: a Retry-After of weeks, within a --timeout of a year, was
    // waited 1 ms, with Node's TimeoutOverflowWarning each time (probe UG-1).
    for (let left = ms; left > 0; left -= MAX_TIMER_MS) await delay(Math.min(left, MAX_TIMER_MS), undefined, signal ? { signal } : undefined);
  };
  const random = options.random ?? Math.random;
  const now = options.now ?? Date.now;
  const deadlineAt = (): number | undefined => (typeof options.deadline === 'function' ? options.deadline() : options.deadline);

  // Requests in a row that gave up on a server fault or a broken connection; since when every
  // attempt has failed so (not since the last answer: a quiet spell, such as the wait for a person
  // to approve the plan, is not silence); the reason the service is down.
  let failedInARow = 0;
  let silentSince: number | undefined;
  let down: string | undefined;
  // Whether the service answered anything this run: a connection lost after that is no wrong URL.
  let everAnswered = false;
  const heard = (a: Attempt): void => {
    if (a.kind === 'response') everAnswered = true;
    if (a.kind === 'failure' || a.status >= 500) {
      silentSince ??= now();
      return;
    }
    // A 429 is an answer too: the service is up.
    silentSince = undefined;
    if (a.status !== 429) failedInARow = 0;
  };
  /** The error of a request that failed every attempt, counted towards the service being down. */
  const gaveUp = (t: RequestTarget, a: Attempt, attempts: number, earlierStatuses: number[], landed: boolean): ApiError => {
    // A 429 is refused for pace, not broken: the limiter deals with it.
    const broken = a.kind === 'failure' || a.status !== 429;
    if (broken && ++failedInARow >= DOWN_AFTER_FAILURES && silentSince !== undefined && now() - silentSince >= DOWN_AFTER_SILENCE_MS) down ??= failedAttempt(a);
    return apiError(t, a, attempts, earlierStatuses, landed);
  };

  let ownPool: Pool | undefined;
  /** Attempts ended while they waited for a connection: their requests stay queued in the pool until it connects. */
  const unsent: Unsent = { count: 0 };
  const dispatcher = (): Dispatcher => {
    if (options.dispatcher) return options.dispatcher;
    if (ownPool) return ownPool;
    ownPool = new Pool(base.origin, { keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000, ...connectOptionsFor(base.origin) });
    return ownPool;
  };

  /** What this command's next run does about a write of unknown outcome (`docket test`'s writes are in no plan). */
  const nextRun = NEXT_RUN_SAYS[options.nextRun ?? 'plan'];

  /** Every string bound for a message passes here: no control characters, never the key. */
  const clean = (text: string): string => {
    let s = oneLineText(text);
    if (apiKey.length >= 4) s = s.split(apiKey).join('[redacted]');
    return s;
  };

  async function attempt(t: RequestTarget): Promise<Attempt> {
    const url = `${base.url}${t.path}${t.query ? `?${t.query}` : ''}`;
    const headers: Record<string, string> = {
      authorization: `Bearer ${apiKey}`,
      accept: 'application/json',
      'user-agent': 'docket',
    };
    let body: string | Buffer | undefined;
    if (Array.isArray(t.body)) {
      const encoded = encodeMultipart(t.body);
      body = encoded.body;
      headers['content-type'] = encoded.contentType;
    } else if (t.body !== undefined) {
      body = JSON.stringify(t.body);
      headers['content-type'] = 'application/json';
    }

    // One deadline for the whole answer: a server that trickles its body cannot keep docket waiting.
    const deadline = deadlineAt();
    const budgetLeft = deadline === undefined ? Infinity : deadline - now();
    const attemptMs = attemptTimeMs(timeoutMs, body === undefined ? 0 : typeof body === 'string' ? Buffer.byteLength(body) : body.length);
    const allowed = Math.max(1, Math.min(attemptMs, budgetLeft));
    // One link per attempt, its timer and its place removed when the attempt ends: thousands of
    // requests must not leave a listener or a timer each behind.
    const link = attemptLink(allowed);
    const expired = (): boolean => link.why() === 'timeout';
    const timedOut = (afterHeaders: boolean): Attempt => ({
      kind: 'failure',
      failure: { code: 'TIMEOUT', message: `no complete answer within ${seconds(allowed)}${afterHeaders ? ' (the body was still arriving)' : ''}`, retryable: true, phase: 'unknown', timedOut: true, ...(budgetLeft < attemptMs ? { budgetCut: true } : {}), ...(afterHeaders ? { answering: true } : {}) },
    });
    // Its time ran out before a connection was made: never sent, so nothing of it may still land.
    const notConnected = (): Attempt => ({
      kind: 'failure',
      failure: { code: 'TIMEOUT', message: `no connection within ${seconds(allowed)}`, retryable: true, phase: 'not-sent', ...(budgetLeft < attemptMs ? { budgetCut: true } : {}) },
    });
    // A write out, until its answer says the service did not carry it out (api/write-attempts.ts).
    const ended = isRead(t) ? undefined : writeSent();
    let mayHaveLanded = true;
    try {
      // undici's own timers, a second later than docket's (theirs tick about once a second): they
      // free the socket should docket's timer not, and end the attempt as a timeout either way.
      const answer = await readAnswer(dispatcher(), url, { method: t.method, headers, body, headersTimeout: attemptMs + UNDICI_TIMER_SLACK_MS, bodyTimeout: timeoutMs + UNDICI_TIMER_SLACK_MS }, link.signal, MAX_BODY_BYTES, unsent);
      // A refusal's status says the write was not carried out, once the answer's head came, even
      // if its body was then cut off.
      if (answer.status !== 0 && refusedUnperformed(answer.status)) mayHaveLanded = false;
      if (answer.ok) return { kind: 'response', status: answer.status, headers: answer.headers, ...(answer.text === undefined ? { text: '', tooLarge: true } : { text: answer.text }), ...(answer.notUtf8 ? { notUtf8: true } : {}) };
      if (answer.unsent) mayHaveLanded = false;
      if (options.signal?.aborted) throw interrupted(t);
      if (answer.unsent) return notConnected();
      // Cut off once the answer began: the request was processed, whatever its status said.
      const afterHeaders = answer.status !== 0;
      if (expired() || undiciTimedOut(answer.error)) return timedOut(afterHeaders);
      const failure = classifyConnectionError(answer.error, afterHeaders);
      if (failure.phase === 'not-sent') mayHaveLanded = false;
      return { kind: 'failure', failure };
    } finally {
      link.release();
      ended?.(mayHaveLanded);
    }
  }

  /** An answer whose body is not what was asked for (`problem` says why); `hint` says what its outcome may be. */
  function malformedBody(t: RequestTarget, problem: string, hint: string): DocketError {
    return new DocketError('bad-response', `${t.operation}: ${service} service ${t.method} ${clean(t.path)} answered with a malformed body: ${clean(problem)}`, hint);
  }

  /** An answer too large to read: refused once (the same answer would come again), after what its status says of the request. */
  function tooLargeError(t: RequestTarget, status: number): DocketError {
    const error = new DocketError('bad-response', `${t.operation}: ${service} service ${t.method} ${clean(t.path)} answered ${status} with a body over ${MAX_BODY_BYTES / 1024 / 1024} MB, which docket does not read`, badAnswerHint());
    error.answerTooLarge = true;
    return error;
  }

  function interrupted(t: RequestTarget): DocketError {
    return new DocketError('interrupted', `${t.operation}: interrupted`);
  }

  function notSentStopping(t: RequestTarget): DocketError {
    const error = new DocketError('interrupted', `${t.operation}: not sent: docket was stopping when its turn came`);
    error.neverSent = true;
    return error;
  }

  /** `answered`: the service answered the last attempt, and no attempt may still run there (a timeout, a gateway's 504). */
  function notTriedAgain(t: RequestTarget, a: Attempt, landed: boolean, answered: boolean): DocketError {
    const error = new DocketError('interrupted', `${t.operation}: interrupted, so not tried again after ${failedAttempt(a)}${maybeDone(t, landed)}`);
    error.answeredThere = answered || isRead(t);
    return error;
  }

  /**
   * The error of a request given up on: whether the service answered its last attempt, none of it
   * still running there (an upload's mark can be settled by a read at once, probe FK-2), or a write
   * of it may still be running there (an attempt timed out, or got a gateway's 504: the report says
   * to wait before running again, probe GD-1).
   */
  function endedThere<E extends DocketError>(error: E, answered: boolean, t: RequestTarget, mayStillRunThere: boolean): E {
    error.answeredThere = answered;
    if (mayStillRunThere && !isRead(t)) error.cutWhileUnderWay = true;
    return error;
  }

  /**
   * A read changes nothing: whatever of it the service still runs, no write of it may land later
   * (a create's read for itself says of the create what its recover finds, second read SR91B-1).
   */
  function isRead(t: RequestTarget): boolean {
    return t.method === 'GET';
  }

  /**
   * An attempt docket stopped waiting for (its time ran out) or a gateway stopped waiting for
   * (504): the service may still be carrying the write out, so a read at once that finds nothing
   * does not settle it, and a repeat could make it twice (a custom term cannot be deleted).
   */
  // NOTE(api): neither service documents whether a request its gateway timed out still runs; the
  // emulator's `late` fault plays one that does.
  function mayStillLand(a: Attempt): boolean {
    return a.kind === 'failure' ? a.failure.timedOut === true : a.status === 504;
  }

  /**
   * Reads again, a few seconds apart, for a write that may still be landing: found, it is done.
   * Not past the command's budget, and not once it is stopping (what is already known is reported).
   */
  async function readWhileLanding<T>(t: RequestTarget, read: () => Promise<T | undefined>): Promise<{ found?: T; readFor: number; cut?: 'budget' | 'stopping' }> {
    let readFor = 0;
    for (const wait of LANDING_READ_WAITS_MS) {
      if (options.stop?.aborted) return { readFor, cut: 'stopping' };
      if (!withinBudget(wait)) return { readFor, cut: 'budget' };
      const cut = waitLink(() => true);
      try {
        await sleep(wait, cut.signal);
      } catch (err) {
        if (options.signal?.aborted) throw interrupted(t);
        if (options.stop?.aborted) return { readFor, cut: 'stopping' };
        throw err;
      } finally {
        cut.release();
      }
      readFor += wait;
      const found = await read();
      if (found !== undefined) return { found, readFor };
    }
    return { readFor };
  }

  /** `reads`: how long after the first look-up docket read again, and what cut that short (as readWhileLanding says). */
  function stillRunning(t: RequestTarget, a: Attempt, requestId: string | undefined, reads: { readFor: number; cut?: 'budget' | 'stopping' }): DocketError {
    const looked = reads.readFor > 0 ? `reads over the next ${seconds(reads.readFor)}` : 'a read at once';
    const why = reads.cut === 'budget' ? `; this command's time budget ran out before it could read again` : reads.cut === 'stopping' ? '; docket was stopping, so it did not read again' : '';
    return new DocketError(
      'outcome-pending',
      `${t.operation}: ${failedAttempt(a)}${requestId ? ` [request ${requestId}]` : ''}, and ${looked} did not find it carried out${why}; the service may still be carrying it out, so docket did not send it again`,
      nextRun.pending,
    );
  }

  /** What went wrong with an attempt, as the start of a sentence. */
  function failedAttempt(a: Attempt): string {
    if (a.kind === 'response') return `the ${service} service answered HTTP ${a.status}`;
    const { message } = a.failure;
    // Ended by this command's --timeout, not by the service (probe RK-2: "failed (no complete answer within 1 ms)").
    return cutByBudget(a) ? budgetCutAttempt(a) : `the request to the ${service} service failed (${clean(message)})`;
  }

  /**
   * A create's read after an answer that did not settle it: its failure says what the create's
   * outcome is, not only that a list could not be read (which read as if nothing was created).
   */
  async function readingFailed<T>(read: () => Promise<T>, context: string, outcome: string, mayStillRun = false, answered = false): Promise<T> {
    try {
      return await read();
    } catch (error) {
      // A read that could not be made, not what a kind's recovery says of the outcome itself.
      const readFailed = error instanceof ApiError || (error instanceof DocketError && READ_FAILURES.has(error.code));
      if (!readFailed) throw error;
      // A create whose outcome nobody knows (not stopped by a signal, which says so itself): sent
      // again at once, one still running there would be made twice, so it is pending, as stillRunning says.
      // Not one whose last attempt the service answered (a 500) with none that may still run there
      // (answeredThere): the next plan's read says whether it was made, as after a stop (probe PW-1).
      if (mayStillRun && !answered && error.code !== 'interrupted') {
        const pending = new DocketError('outcome-pending', `${context}: ${error.message}${outcome}`, nextRun.pending);
        pending.notCarriedOut = false;
        throw pending;
      }
      // The read's own request may have changed nothing; the create it reads for may have, and may
      // still be running there unless every attempt of it was answered (third read TR70-1).
      error.notCarriedOut = false;
      error.answeredThere = answered;
      error.message = `${context}: ${error.message}${outcome}`;
      throw error;
    }
  }

  /** One bad answer may be a passing fault of the service or a proxy; every answer bad is a wrong URL. */
  function badAnswerHint(): string {
    return `run the command again; if the answer is bad again, check that ${base.url} is the ${service} service's API base URL`;
  }

  /**
   * Said of a write whose outcome nobody knows (`landed`: an attempt, any of them, may have been
   * carried out): the next plan shows whether it was.
   */
  function maybeDone(t: RequestTarget, landed: boolean): string {
    return t.method !== 'GET' && landed ? `; the service may have carried it out, and ${nextRun.whether}` : '';
  }

  /** Whether waiting `ms` stays within the command's time budget. */
  function withinBudget(ms: number): boolean {
    const deadline = deadlineAt();
    return deadline === undefined || now() + ms <= deadline;
  }

  /** Whether the attempt timed out because the command's time budget ended it, not its own time. */
  function cutByBudget(a: Attempt): a is Attempt & { kind: 'failure' } {
    return a.kind === 'failure' && a.failure.timedOut === true && a.failure.budgetCut === true;
  }

  function budgetRanOut(t: RequestTarget, a: Attempt & { kind: 'failure' }, landed: boolean): DocketError {
    const error = new DocketError('timeout', `${t.operation}: ${budgetCutAttempt(a)}${maybeDone(t, landed)}`, 'give the command more time with --timeout');
    // Sent and not answered: it may still be running there.
    if (landed && a.failure.phase !== 'not-sent') error.cutWhileUnderWay = true;
    return error;
  }

  function budgetCutAttempt(a: Attempt & { kind: 'failure' }): string {
    return `this command's time budget ran out while the request to the ${service} service was under way (${clean(a.failure.message)})`;
  }

  /**
   * A short --timeout cut off the first connection, or the retries after it was refused: what to
   * check comes before more time, as it would after undici's own connect timeout or the last
   * retry (probes CI-4, FB-2).
   */
  function neverConnectedHint(a: Attempt): string {
    // Not one the proxy took and then closed: a connection was made (second read SR104-5).
    if (a.kind !== 'failure' || a.failure.phase !== 'not-sent' || everAnswered || a.failure.certificate || a.failure.proxyStatus !== undefined || a.failure.code === PROXY_CLOSED) return '';
    return options.proxyVariable
      ? `no connection to the proxy ${options.proxyVariable} names was made: check its host and port; or `
      : `no connection to the ${service} service (${base.url}) was made: check the URL and that the service is reachable from here; or `;
  }

  /** Fails at once when waiting `ms` would go past the command's budget, naming the wait. */
  function checkBudget(t: RequestTarget, a: Attempt, ms: number, retryAfter: number | undefined, landed: boolean): void {
    if (withinBudget(ms)) return;
    const left = deadlineAt()! - now();
    // Cut off by the budget itself (the attempt's time was what was left of it): said as that, not
    // as a failure of the service with a retry's wait beside it (probe HQ-3). Asked of the attempt,
    // not of the clock after it: its timer may fire a millisecond before the clock reads the deadline.
    if (cutByBudget(a)) throw budgetRanOut(t, a, landed);
    const asked = retryAfter !== undefined && retryAfter >= ms;
    const wait = asked ? `asked to wait ${seconds(retryAfter)} (Retry-After)` : `trying again would mean waiting ${seconds(ms)}`;
    const late = new DocketError(
      'timeout',
      `${t.operation}: ${failedAttempt(a)} and ${wait}, ${left >= 1 ? `longer than the ${/* rounded down: a wait as long as the budget never reads as no longer (probe PF-2) */ seconds(left >= 10_000 ? Math.floor(left / 1000) * 1000 : left)} left of this command's time budget` : "with none of this command's time budget left"}${maybeDone(t, landed)}`,
      `${neverConnectedHint(a)}try again later, or give the command more time with --timeout`,
    );
    // With time left, the wait is what ends it: an apply's stop says when the turn comes, not that the budget ran out (probe OG-2).
    if (left >= 1) late.turnPastBudget = `in ${seconds(asked ? retryAfter : ms)} (${asked ? 'the service asked to wait that long, Retry-After' : "a retry's wait"})`;
    throw late;
  }

  /**
   * Attempts and waits (for a permit, between attempts) end early: when the command is
   * interrupted, when their time runs out (`timeoutMs`), and after the first signal of an apply
   * when `onStop` says so.
   * The command's signals reach them through one listener each for the whole client, not one per
   * request: thousands of queued requests must not pile listeners on a signal.
   */
  const waits = new Set<{ abort: (why: WaitEnd) => void; onStop: (() => boolean) | undefined }>();
  options.signal?.addEventListener('abort', () => waits.forEach((w) => w.abort('interrupted')), { once: true });
  options.stop?.addEventListener('abort', () => waits.forEach((w) => w.onStop?.() && w.abort('stopped')), { once: true });

  /** A wait whose end is told through `on` (an AbortController's, or an attempt's cheaper StopSignal). */
  function linked<S>(on: S, abort: (why: WaitEnd) => void, ended: () => WaitEnd | undefined, timeoutMs: number | undefined, onStop?: () => boolean): Wait<S> {
    const entry = { abort, onStop };
    if (options.signal?.aborted) abort('interrupted');
    else if (options.stop?.aborted && onStop?.()) abort('stopped');
    waits.add(entry);
    // Beyond what a timer can hold (about 24 days) there is no budget worth keeping.
    const timer = timeoutMs === undefined || timeoutMs > MAX_TIMER_MS ? undefined : setTimeout(() => abort('timeout'), timeoutMs);
    return {
      signal: on,
      why: ended,
      release() {
        clearTimeout(timer);
        waits.delete(entry);
      },
    };
  }

  /** A wait on an AbortController; one bounded by `deadline` ends there through the timer it shares. */
  function waitLink(onStop?: () => boolean, deadline?: number): Wait<AbortSignal> {
    const controller = new AbortController();
    const abort = (why: WaitEnd): void => controller.abort(why);
    const ended = (): WaitEnd | undefined => (controller.signal.aborted ? (controller.signal.reason as WaitEnd) : undefined);
    const wait = linked(controller.signal, abort, ended, undefined, onStop);
    // Beyond what a timer can hold (about 24 days) there is no budget worth keeping.
    if (deadline === undefined || deadline - now() > MAX_TIMER_MS) return wait;
    const leave = untilDeadline(deadline, abort);
    return {
      ...wait,
      release() {
        leave();
        wait.release();
      },
    };
  }

  /** An attempt's link: undici takes an emitter, which costs a fraction of an AbortController (one per request). */
  function attemptLink(timeoutMs: number): Wait<StopSignal> {
    const stop = new StopSignal();
    return linked(stop, (why) => stop.abort(why), () => stop.reason, timeoutMs);
  }

  /**
   * One timer per deadline for the waits it bounds, not one each: queued requests wait for a
   * permit until the command's deadline, their times left all differ, and a thousand distinct
   * timers cost more than the waits.
   */
  const atDeadline = new Map<number, { waits: Set<(why: WaitEnd) => void>; timer: ReturnType<typeof setTimeout> }>();
  function untilDeadline(deadline: number, abort: (why: WaitEnd) => void): () => void {
    let shared = atDeadline.get(deadline);
    if (!shared) {
      const waits = new Set<(why: WaitEnd) => void>();
      const timer = setTimeout(() => {
        atDeadline.delete(deadline);
        waits.forEach((w) => w('timeout'));
      }, Math.max(0, deadline - now()));
      shared = { waits, timer };
      atDeadline.set(deadline, shared);
    }
    const own = shared;
    own.waits.add(abort);
    return () => {
      own.waits.delete(abort);
      if (own.waits.size === 0 && atDeadline.get(deadline) === own) {
        clearTimeout(own.timer);
        atDeadline.delete(deadline);
      }
    };
  }

  // A 429's pause that ends past the budget: the requests queued for a permit meanwhile fail at
  // once, as one that asks for a turn then does, rather than wait the budget out (probe GO).
  // And one that starts after the first signal of an apply: the waits queued before it end as they
  // would have, had it come first, rather than wait out its Retry-After and then send (probe IX-2).
  const stopListening = limiter.onPause((pauseMs) => {
    const until = now() + pauseMs;
    for (const [deadline, shared] of atDeadline) if (deadline < until) for (const end of [...shared.waits]) end('past-turn');
    if (options.stop?.aborted) for (const w of [...waits]) if (w.onStop?.()) w.abort('stopped');
  });

  /** A request whose turn (`in 3600 s (why)`) comes past the budget: failed now, the turn said for the apply's stop. */
  function turnPastBudget(t: RequestTarget, sent: boolean, turn: string, reasons: readonly string[], hint: string): DocketError {
    const deadline = deadlineAt() ?? now();
    const late = outOfTurn(new DocketError('timeout', `${t.operation}: ${sent ? '' : 'not sent: '}its turn comes ${turn}, past the ${seconds(Math.max(0, deadline - now()), Math.floor)} left of this command's time budget${reasons.length ? `; earlier attempts: ${reasons.join('; ')}` : ''}`, hint));
    late.turnPastBudget = turn;
    return late;
  }

  /**
   * The wait for a permit: not past the budget, and not past the first signal for a request asked
   * for before it, whether it waits for a free permit, the pace (`--max-rps`, the slowdown after a
   * 429) or a 429's pause: not sent then, it is not sent, as nothing new starts (probe MN-1: they
   * went out one a second after the signal, and those the grace cut off read as maybe landed). One
   * asked for after the signal is a follow-up of an operation under way (a create's read of
   * whether it landed, second read SR77-1): it waits its turn, though not through a 429's pause;
   * the cleanup's own (a test run's archive of its scratch playbook; `waitsAfterStop`) waits within
   * its deadline even so (probe MH-2).
   */
  function queueWait(askedAfterStop: boolean, cleanup: boolean): Wait {
    return waitLink(() => (askedAfterStop ? !cleanup && limiter.paused : true), deadlineAt());
  }

  /** The proxy would not connect to the service: its refusal said as what to check (a 407: its user and password). */
  function proxyRefusedHint(status: number): string {
    const proxy = options.proxyVariable ?? 'the proxy variable';
    // Worded so that output's hiding of URL passwords leaves it whole (second read SR98B-2).
    if (status === 407 && options.proxyCredentials) return `the proxy ${proxy} names refused the user name and password written in it: check them (a character such as @, : or % in either written percent-escaped, %40, %3A, %25; docket never prints them)`;
    if (status === 407) return `the proxy ${proxy} names asks for a user name and password: write them in it as user:password@ before the proxy's host (docket never prints them)`;
    return status >= 500 ? `the proxy ${proxy} names could not reach the ${service} service (${base.url}): check that the proxy lets docket through to it, or try again later` : `the proxy ${proxy} names refused to connect docket to the ${service} service (${base.url}): check that the proxy allows it, or list the host in NO_PROXY to connect directly`;
  }

  /** A certificate refused: what to check, never to turn the check off (the API key travels on this connection). */
  function certificateHint(problem: 'untrusted' | 'other-host' | 'expired'): string {
    // Through an https:// proxy, the certificate refused may be the proxy's own (probe ZJ-5).
    const viaProxy = options.proxyVariable ? ` (or, if ${options.proxyVariable} is an https:// URL, the proxy's own certificate is the one refused)` : '';
    return `${serviceCertificateHint(problem)}${viaProxy}`;
  }

  function serviceCertificateHint(problem: 'untrusted' | 'other-host' | 'expired'): string {
    if (problem === 'other-host') return `the ${service} service's certificate names another host than ${base.url}: check the URL's host`;
    if (problem === 'expired') return `the ${service} service's certificate is out of its dates (or revoked): check this machine's clock, and tell the service's operators if the clock is right`;
    return `the ${service} service's certificate is not signed by a CA Node trusts here: if your network or a proxy signs it with its own CA, give Node that CA's certificate with NODE_EXTRA_CA_CERTS=/path/to/ca.pem; docket has no switch to skip the check`;
  }

  function apiError(t: RequestTarget, a: Attempt, attempts: number, earlierStatuses: number[], landed: boolean): ApiError {
    if (a.kind === 'failure') {
      const detail = `${truncate(clean(a.failure.message), 300)}${attempts > 1 ? ` (${attempts} attempts)` : ''}${maybeDone(t, landed)}`;
      return new ApiError(
        { service, status: 0, method: t.method, path: t.path, operation: t.operation, detail },
        // It answered, too slowly: the URL and the network are not what to check.
        a.failure.answering
          ? `the ${service} service answered, but too slowly: it may be overloaded; try again later`
          : a.failure.certificate
            ? certificateHint(a.failure.certificate)
            : a.failure.proxyStatus !== undefined
              ? proxyRefusedHint(a.failure.proxyStatus)
              : options.proxyVariable && a.failure.code === PROXY_CLOSED
                ? // It connected; the proxy ended the tunnel it was asked for (probe BD-3).
                  `the proxy ${options.proxyVariable} names took the connection and closed it instead of opening the tunnel to the ${service} service (${base.url}): check that the proxy lets docket through to it, or try again later`
              : options.proxyVariable && options.proxyPlain && !everAnswered && a.failure.phase === 'not-sent' && /TLS/.test(a.failure.message)
                ? // A plain-http proxy speaks no TLS: the tunnel opened, and the service's end of it did not (probe CE-4).
                  `the proxy ${options.proxyVariable} names opened the tunnel, but the ${service} service (${base.url}) does not speak TLS at its end: if the service serves plain http, write its URL with http://`
              : options.proxyVariable && !everAnswered && a.failure.phase === 'not-sent'
                ? // Through a proxy every connection is the proxy's: the service's name is not even looked up here (second read SR98B-9).
                  `docket could not connect to the proxy ${options.proxyVariable} names: check its host and port${/TLS/.test(a.failure.message) ? ', and write it with http:// if the proxy speaks plain http' : ''}`
                : everAnswered && a.failure.timedOut
                ? // No answer in time is no broken connection: the service is slow, and a write may still be under way there (probe GD-1).
                  `the ${service} service answered earlier requests of this run, so the URL is right, but not this one in time: it may be overloaded${t.method === 'GET' ? '' : ', or still carrying the request out'}; wait, then try again`
                : everAnswered
                ? `the ${service} service answered earlier requests of this run, so the URL is right: the connection broke; try again later`
                : `check the ${service} service URL (${base.url}) and that the service is reachable from here${options.proxyVariable ? `, through the proxy ${options.proxyVariable} names` : ''}`,
      );
    }
    const problem = parseProblem(a.text, a.headers, (text) => pathQueriesHidden(clean(text)));
    const outcome = maybeDone(t, landed);
    // A service that failed before it refused for pace is in trouble, not only busy: the hint says the first.
    const hintStatus = a.status === 429 ? (earlierStatuses.find((s) => s >= 500) ?? a.status) : a.status;
    return new ApiError(
      { service, status: a.status, method: t.method, path: t.path, operation: t.operation, ...problem, ...(earlierStatuses.length ? { earlierStatuses } : {}), ...(outcome ? { outcome } : {}) },
      hintForStatus(service, hintStatus, t.path, { location: clean(headerValue(a.headers, 'location') ?? '') || undefined, baseUrl: base.url, requestUrl: `${base.url}${t.path}${t.query ? `?${t.query}` : ''}` }, options.apiKeyFrom, t.method, options.nextRun),
    );
  }

  /** A successful answer's body as parseBody reads it, or UNREADABLE where it cannot (over the limit, not UTF-8, not JSON). */
  function readBody(t: RequestTarget, a: Extract<Attempt, { kind: 'response' }>): unknown {
    if (a.tooLarge) return UNREADABLE;
    try {
      return parseBody(t, a);
    } catch {
      return UNREADABLE;
    }
  }

  function parseBody(t: RequestTarget, a: Extract<Attempt, { kind: 'response' }>): unknown {
    if (a.status === 204 || a.text.trim() === '') return undefined;
    // Read on, its names and texts would carry U+FFFD into plans, drift and pulled files (probe UB-5).
    if (a.notUtf8) throw new DocketError('bad-response', `${t.operation}: ${service} service ${t.method} ${t.path} answered ${a.status} with a body that is not valid UTF-8${encodedAs(a, ' (', ')')}`, badAnswerHint());
    try {
      return JSON.parse(a.text) as unknown;
    } catch {
      const type = clean(headerValue(a.headers, 'content-type') ?? 'no content type');
      throw new DocketError('bad-response', `${t.operation}: ${service} service ${t.method} ${t.path} answered ${a.status} with a body that is not JSON (${truncate(type, 100)}${encodedAs(a, ', ', '')})`, badAnswerHint());
    }
  }

  /** An unreadable answer's Content-Encoding docket did not ask for (`before`…`after` around it), or nothing: worked out only once it failed. */
  function encodedAs(a: Extract<Attempt, { kind: 'response' }>, before: string, after: string): string {
    const encoding = unaskedEncoding(a.headers);
    return encoding === undefined ? '' : `${before}encoded as ${truncate(clean(encoding), 40)}, which docket did not ask for${after}`;
  }

  /**
   * One logical request: attempts (each holding a limiter permit), sleeps between them (holding
   * none), and for a create with unknown outcome the `recover` read before any repeat.
   */
  async function send(t: RequestTarget, recover?: (what: string) => Promise<unknown>, beforeSend?: () => Promise<void>): Promise<unknown> {
    const started = performance.now();
    /** When its first attempt left: the time before is its wait for a turn, not the service's (probe OG-4). */
    let firstSentAt: number | undefined;
    // Asked for after the first signal: a follow-up of an operation under way (a create's read of
    // whether it landed), or the cleanup's own (`waitsAfterStop`), not a change that starts anew.
    const askedAfterStop = options.stop?.aborted === true;
    const cleanupAfterStop = askedAfterStop && options.waitsAfterStop?.() === true;
    let status = 0;
    let retried = 0;
    let timeouts = 0;
    /** Attempts refused for pace (429): not carried out, so not counted against `retries` (probe RJ-4). */
    let paceRefusals = 0;
    let throttled = false;
    /** When this request's own last 429 pause ends, by the limiter's clock. */
    let ownPauseEnd: number | undefined;
    const reasons: string[] = [];
    const earlierStatuses: number[] = [];
    let mayHaveLanded = false;
    /** An attempt of this request may still be running there (it timed out, or a gateway's 504): never said answered (third read TR70-1). */
    let mayStillRunThere = false;
    /** The last attempt sent was answered, and none may still run there (see answeredThere below). */
    let lastAnsweredThere = false;
    let attempts = 0;
    try {
      if (down !== undefined) {
        throw new DocketError(
          'service-down',
          `${t.operation}: not sent: ${DOWN_AFTER_FAILURES} requests in a row failed every attempt (the last: ${down}), so this command sends the ${service} service nothing more`,
          // "Try again", not "run the command again": a saved plan, part of it applied, is applied again by a new plan (as JI-3).
          `check that the ${service} service is up (${base.url}), then try again${t.method === 'GET' ? '' : ': what was not sent is planned again'}`,
        );
      }
      for (let n = 0; ; n++) {
        if (options.signal?.aborted) throw interrupted(t);
        const deadline = deadlineAt();
        if (deadline !== undefined && now() >= deadline) {
          // Before a first attempt nothing was sent: said so, not taken for an unanswered request.
          if (n === 0) throw outOfTurn(new DocketError('timeout', `${t.operation}: not sent: this command's time budget ran out before its turn came`, `give the command more time with --timeout${t.method === 'GET' ? '' : '; what was not sent is planned again'}`));
          // Sent and unanswered, it may have been carried out: said, as every other end of a lost answer says it.
          throw new DocketError('timeout', `${t.operation}: this command's time budget ran out before the ${service} service answered${reasons.length ? ` (${reasons.join('; ')})` : ''}${maybeDone(t, mayHaveLanded)}`, 'try again later, or give the command more time with --timeout');
        }
        // A turn the pace puts past the budget (`--max-rps 0.001`) is known now: not waited for.
        const turnIn = limiter.startsIn(throttled);
        if (deadline !== undefined && now() + turnIn > deadline) {
          // The 429s named only once one came (probe PF-3).
          const slowed = limiter.slowdowns > 0 ? '; fewer for a while after a service answers 429' : '';
          // Rounded up, and what is left down: "in 20 s, past the 20 s left" said nothing (probe CC-3).
          const turn = `in ${seconds(turnIn, Math.ceil)} (${limiter.paused && !throttled ? "every request waits out a service's 429 pause" : limiter.capped ? `at most ${requestsOf(limiter.cap)} a second, as --max-rps or docket.yaml's max_rps sets${slowed}` : 'fewer requests a second for a while after a service answers 429'})`;
          throw turnPastBudget(t, n > 0, turn, reasons, limiter.capped ? 'give the command more time with --timeout, or allow more requests a second with --max-rps (it overrides docket.yaml\'s max_rps)' : PACE_HINT);
        }
        // Made only if the request has to wait for a permit.
        let queue: Wait | undefined;
        /** Ends this request's count as a wait for its turn (write-attempts.ts); made only with the wait. */
        let turnCame: (() => void) | undefined;
        /** Whether every request was waiting out a 429 pause when this one's wait was ended: said as it was then, not as it is once said (second read SR93-1). */
        let pausedAtEnd: boolean | undefined;
        let a: Attempt;
        let sentAfter = limiter.slowdowns;
        const backoff = backoffDelay(n, baseDelayMs, maxDelayMs, random);
        /** A 429's pause, told to the limiter while this request still holds its permit (below). */
        let paused: number | undefined;
        /** Its Retry-After as read then: read again later, a date gives a wait a millisecond shorter than the pause. */
        let askedByRefusal: number | undefined;
        const attemptsBefore = attempts;
        try {
          const first = n === 0 ? beforeSend : undefined;
          // Counted as it starts: one stopped on its way is no request that was never sent.
          const send = (): Promise<Attempt> => {
            attempts++;
            firstSentAt ??= performance.now();
            sentAfter = limiter.slowdowns;
            return attempt(t).then((answer) => {
              // Too many requests: every request of both services pauses for what the service asked
              // and the pace slows (limiter.ts). Told before the permit is given back, so no request
              // queued behind this one starts in the pause. No wait asked (\`Retry-After: 0\`, or a
              // date already past by this clock): this request's own backoff, as when none is given,
              // and never less than the first one's most (a backoff is jittered from 0).
              if (answer.kind === 'response' && answer.status === 429) {
                const asked = parseRetryAfter(headerValue(answer.headers, 'retry-after'), now());
                askedByRefusal = asked;
                paused = asked !== undefined && asked > 0 ? asked : Math.max(backoff, baseDelayMs);
                ownPauseEnd = limiter.throttled(paused, sentAfter, asked !== undefined && asked > 0, service);
              }
              return answer;
            });
          };
          // A request marked before it is sent (an upload's pending mark) whose mark was being
          // written as the run was told to stop is not sent: nothing new starts (probe HH).
          const sendNow = first ? () => first().then(() => (options.stop?.aborted ? Promise.reject(notSentStopping(t)) : send())) : send;
          // A wait the first signal ends is counted for the change under way: it cannot land (write-attempts.ts).
          const go = (): Promise<Attempt> => {
            turnCame?.();
            return sendNow();
          };
          a = await limiter.run(go, throttled ? (ownPauseEnd ?? true) : false, () => {
            if (!askedAfterStop) turnCame = waitingForTurn();
            queue = queueWait(askedAfterStop, cleanupAfterStop);
            queue.signal.addEventListener('abort', () => (pausedAtEnd = limiter.paused), { once: true });
            return queue.signal;
          });
        } catch (err) {
          // Stopped on its way, once sent: the service may have it (an upload's mark must stay, probe HH).
          if (attempts > attemptsBefore) mayHaveLanded = true;
          if (err instanceof DocketError) throw err;
          if (options.signal?.aborted) throw interrupted(t);
          if (queue?.why() === 'stopped') {
            // A retry not sent after an attempt whose answer was lost is no write not sent (probe IX-1).
            const again = n > 0 ? ' again' : '';
            const waiting = (pausedAtEnd ?? limiter.paused) ? 'requests were waiting out a 429 pause' : 'it was waiting its turn';
            const error = new DocketError('interrupted', `${t.operation}: interrupted before it was sent${again} (${waiting})${reasons.length ? `; earlier attempts: ${reasons.join('; ')}` : ''}${maybeDone(t, mayHaveLanded)}`);
            // The retry never left, and the service answered the attempt before it (a 500): nothing
            // of it still runs there, as when a stop ends the retries anywhere else (probe JV-1).
            error.answeredThere = (attempts === attemptsBefore && lastAnsweredThere) || isRead(t);
            throw error;
          }
          if (queue?.why() === 'past-turn') throw turnPastBudget(t, n > 0, `in ${seconds(limiter.startsIn(), Math.ceil)} (every request waits out a service's 429 pause)`, reasons, PACE_HINT);
          if (queue?.why() === 'timeout') {
            throw outOfTurn(
              new DocketError(
                'timeout',
                `${t.operation}: ${n === 0 ? 'not sent: ' : ''}this command's time budget ran out while the request waited for its turn (at most --concurrency requests at a time and, when set, --max-rps or docket.yaml's max_rps a second; fewer for a while after a service answers 429)${reasons.length ? `; earlier attempts: ${reasons.join('; ')}` : ''}`,
                'try again later, or give the command more time with --timeout',
              ),
            );
          }
          throw err;
        } finally {
          turnCame?.();
          queue?.release();
        }
        throttled = false;
        status = a.kind === 'response' ? a.status : 0;
        heard(a);
        // A DELETE tried again after an attempt that may have landed (its answer lost, a 5xx): "not
        // found" now means that attempt removed it, which is what was asked.
        if (t.method === 'DELETE' && a.kind === 'response' && a.status === 404 && mayHaveLanded) {
          limiter.succeeded();
          return undefined;
        }
        if (!surelyNotCarriedOut(a.kind === 'response' ? a.status : a.failure)) mayHaveLanded = true;
        if (mayStillLand(a)) mayStillRunThere = true;
        // Nothing of it still runs there: said by a stop's error, so that no landing mark holds it back (probe JG-1).
        const answeredThere = a.kind === 'response' && !mayStillRunThere;
        lastAnsweredThere = answeredThere;
        // A create carried out whose answer cannot be read (over the limit, not UTF-8, not JSON) is
        // looked for by name, as one whose answer names no id (probe UB-3): its object is live.
        if (recover && a.kind === 'response' && a.status >= 200 && a.status < 300) {
          limiter.succeeded();
          const body = readBody(t, a);
          return body === UNREADABLE ? undefined : body;
        }
        // Its status may say the request was carried out (an upload answered 200): a re-run must not take it for one never sent.
        if (a.kind === 'response' && a.tooLarge) throw tooLargeError(t, a.status);
        if (a.kind === 'response' && a.status >= 200 && a.status < 300) {
          limiter.succeeded();
          return parseBody(t, a);
        }
        if (a.kind === 'response' && a.status !== 429) limiter.answered();

        const decision = decide(t.method, recover ? 'create' : 'request', a.kind === 'response' ? { status: a.status } : { failure: a.failure });
        if (a.kind === 'failure' && a.failure.timedOut) timeouts++;
        if (a.kind === 'response' && a.status === 429) paceRefusals++;
        // A 429 says the request was not handled: retried at the pace while the time budget lasts, up to a bound.
        const canRetry = n - paceRefusals < retries && paceRefusals <= MAX_PACE_REFUSALS && timeouts <= timeoutRetries;
        if (decision === 'fail') throw endedThere(apiError(t, a, n + 1, earlierStatuses, mayHaveLanded), answeredThere, t, mayStillRunThere);
        // A last try the budget cut off: the budget's error, not the service's (probe OG-1).
        if (decision === 'retry' && !canRetry && cutByBudget(a)) throw budgetRanOut(t, a, mayHaveLanded);
        if (decision === 'retry' && !canRetry) throw endedThere(gaveUp(t, a, n + 1, earlierStatuses, mayHaveLanded), answeredThere, t, mayStillRunThere);
        // Stopped: what the service refused or lost is not sent again (a create's outcome is still read).
        if (decision === 'retry' && options.stop?.aborted) throw notTriedAgain(t, a, mayHaveLanded, answeredThere);

        const retryAfter = askedByRefusal ?? (a.kind === 'response' ? parseRetryAfter(headerValue(a.headers, 'retry-after'), now()) : undefined);
        // A refused request waits out the pause it set, as every other does.
        const wanted = Math.max(backoff, retryAfter ?? 0, paused ?? 0);
        // Past the budget, a create's outcome is still read (at once): an upload that cannot be read says so, not "trying again".
        const readNow = decision === 'recover' && recover !== undefined && !withinBudget(wanted);
        if (!readNow) checkBudget(t, a, wanted, retryAfter, mayHaveLanded);
        const wait = readNow ? 0 : wanted;
        // Its pause was told to the limiter as it was answered; this one's own backoff, longer after several failures, is its alone.
        if (paused !== undefined) throttled = true;
        const requestId = a.kind === 'response' && a.headers['x-request-id'] ? clean(String(a.headers['x-request-id'])) : undefined;
        earlierStatuses.push(status);
        reasons.push(a.kind === 'response' ? `HTTP ${a.status}${requestId ? ` (request ${requestId})` : ''}` : clean(a.failure.message));
        // Waiting before a recover read also gives a create still running on the server time to land.
        const cut = waitLink(decision === 'retry' ? () => true : undefined);
        try {
          await sleep(wait, cut.signal);
        } catch (err) {
          if (options.signal?.aborted) throw interrupted(t);
          if (options.stop?.aborted) throw notTriedAgain(t, a, mayHaveLanded, answeredThere);
          throw err;
        } finally {
          cut.release();
        }
        if (decision === 'retry' && options.stop?.aborted) throw notTriedAgain(t, a, mayHaveLanded, answeredThere);

        if (decision === 'recover' && recover) {
          // What came back, with the service's request id: the words a recovery that cannot read (an upload) reports.
          const what = `${failedAttempt(a)}${requestId ? ` [request ${requestId}]` : ''}`;
          const lookUp = () => readingFailed(() => recover(what), `${t.operation}: ${failedAttempt(a)}, and the read to find whether it was carried out failed`, `; the service may have carried it out${answeredThere ? '' : ', or still be carrying it out'}, and ${nextRun.whether}`, true, answeredThere);
          const found = await lookUp();
          if (found !== undefined) return found;
          if (mayStillLand(a)) {
            const landing = await readWhileLanding(t, lookUp);
            if (landing.found !== undefined) return landing.found;
            // Docket's own attempt ran out, or a gateway's (504): the request may still be running
            // there, so it is not sent again. A 504 repeated after the reads made a second object
            // when the first landed seconds later, as a gateway's backend often does (probe CC-2).
            throw stillRunning(t, a, requestId, landing);
          }
          if (readNow) checkBudget(t, a, wanted, retryAfter, mayHaveLanded);
          if (!canRetry) throw endedThere(gaveUp(t, a, n + 1, earlierStatuses.slice(0, -1), mayHaveLanded), answeredThere, t, mayStillRunThere);
          if (options.stop?.aborted) throw notTriedAgain(t, a, mayHaveLanded, answeredThere);
        }
        retried++;
      }
    } catch (err) {
      if (err instanceof DocketError && !mayHaveLanded) err.notCarriedOut = true;
      throw err;
    } finally {
      if (onRequest) {
        const entry: RequestLogEntry = {
          service,
          method: t.method,
          path: clean(`${t.path}${t.query ? `?${queryShown(t.query)}` : ''}`),
          status,
          ms: Math.round(performance.now() - (firstSentAt ?? started)),
          ...(firstSentAt !== undefined && firstSentAt - started >= WAIT_SAID_MS ? { waitedMs: Math.round(firstSentAt - started) } : {}),
          retries: retried,
          ...(reasons.length > 0 ? { retryReasons: reasons } : {}),
          ...(attempts === 0 ? { notSent: true } : {}),
        };
        try {
          onRequest(entry);
        } catch {
          // A logging failure must not change the outcome of a request.
        }
      }
    }
  }

  function target(o: RequestOptions, extraQuery?: Query): RequestTarget {
    const [path, inline] = splitPath(o.path);
    const query = joinQuery(inline, encodeQuery({ ...o.query, ...extraQuery }));
    return { method: o.method, path, query, body: o.body, operation: o.operation };
  }

  /** Page size per endpoint once a service refused a larger one (null: send none). */
  const pageSizes = new Map<string, number | null>();

  async function list<A>(path: string, operation: string, options: ListOptions = {}): Promise<ApiResource<A>[]> {
    const firstPage = options.firstPage === true;
    if (options.paged === false) return readPages<A>(path, operation, options.query, undefined, options.identity, firstPage, options.expected);
    const endpoint = endpointKey(path);
    for (;;) {
      const size = pageSizes.has(endpoint) ? pageSizes.get(endpoint)! : PAGE_SIZE;
      try {
        return await readPages<A>(path, operation, options.query, size, options.identity, firstPage, options.expected);
      } catch (error) {
        // A page over the answer limit (custom templates of long definitions, probe ZK-2): fewer per page.
        const tooLarge = error instanceof DocketError && error.answerTooLarge === true;
        const smaller = tooLarge ? pageSizeUnderLimit(size) : isPageSizeRejection(error) ? smallerPageSize(size) : false;
        if (smaller === false) throw error;
        pageSizes.set(endpoint, smaller);
        logDebug?.(`${service} ${endpoint}: ${tooLarge ? `a page of ${size} was over ${MAX_BODY_BYTES / 1024 / 1024} MB` : `the service refused page[size]=${size}`}; asking for ${smaller ?? 'its default page size'} from now on`);
      }
    }
  }

  /**
   * Reads every page: `size` undefined sends no paging parameters (a list documented as unpaged),
   * null lets the service choose the page size, a number asks for it on every page.
   */
  async function readPages<A>(path: string, operation: string, query: Query | undefined, size: number | null | undefined, identity: string | undefined, firstPage = false, expected?: ListOptions['expected']): Promise<ApiResource<A>[]> {
    const read = await readPagesOnce<A>(path, operation, query, size, identity, firstPage, expected);
    if (!read.shrank) return read.items;
    // NOTE(api): a later page stating fewer records than an earlier one: an object was deleted
    // while the list was read, which shifts the later pages up, so one may be on no page read and
    // be taken as removed live (made again by apply, taken out of the files by pull). Read again
    // once; shrinking again (a list being emptied), what either read found is taken: an object
    // deleted meanwhile reads as live for one run, which nothing duplicates or deletes.
    logDebug?.(`${service} GET ${clean(path)}: a page stated fewer records than the one before it (an object was deleted while the list was read); reading it again`);
    const again = await readPagesOnce<A>(path, operation, query, size, identity, firstPage, expected);
    if (!again.shrank) return again.items;
    const seen = new Set(again.items.map((item) => item.id));
    return [...again.items, ...read.items.filter((item) => !seen.has(item.id))];
  }

  async function readPagesOnce<A>(path: string, operation: string, query: Query | undefined, size: number | null | undefined, identity: string | undefined, firstPage: boolean, expected?: ListOptions['expected']): Promise<{ items: ApiResource<A>[]; shrank: boolean }> {
    const sizeQuery: Query = typeof size === 'number' ? { 'page[size]': size } : {};
    const first = target({ method: 'GET', path, query, operation }, sizeQuery);
    const out: ApiResource<A>[] = [];
    /** Every item read so far, by id (a page that shifted repeats some). */
    const ids = new Map<string, ApiResource<A>>();
    const seen = new Set<string>();
    let current: RequestTarget | undefined = first;
    /** The page asked for only because the last one was full and said nothing about paging. */
    let probing = false;
    /** A page that said it was the last (`meta.pagination.last`, or `links.last` naming it) yet named a next one. */
    let pastLast: { page: number; last: LastPage } | undefined;
    /** The counts of records the pages stated, and how many pages were read. */
    const stated = new Set<number>();
    let pagesRead = 0;
    /** The fewest records a page read so far stated, and whether a later one stated fewer still (pages are taken in page order). */
    let lowest: number | undefined;
    let shrank = false;
    const notAdvancing = (n: number): DocketError =>
      new DocketError('bad-response', `${operation}: ${service} service paging did not end (page ${n} repeated only items of earlier pages, and named a next page)`);
    const pageTarget = (n: number): RequestTarget => ({ ...first, query: joinQuery(first.query, encodeQuery({ 'page[number]': n })) });
    /** Adds a page's items; returns its paging members. */
    const take = (res: unknown, at: RequestTarget, probed = false) => {
      const problem = listProblem(res, identity);
      if (problem) {
        throw new DocketError('bad-response', `${operation}: ${service} service GET ${clean(at.path)} answered with a malformed list: ${clean(problem)}`, badAnswerHint());
      }
      const body = res as { data: ApiResource<A>[] } & Record<string, unknown>;
      pagesRead++;
      const records = statedRecords(body);
      if (records !== undefined) {
        if (lowest !== undefined && records < lowest) shrank = true;
        lowest = Math.min(lowest ?? records, records);
        stated.add(records);
      }
      const miscounted = countProblem(body, body.data.length, at === first);
      if (miscounted) throw new DocketError('bad-response', `${operation}: ${service} service GET ${clean(at.path)} answered with a list that contradicts itself: ${clean(miscounted)}`, 'nothing was changed; run the command again, and report it to the service if it persists');
      let fresh = 0;
      // A page asked for on a guess that holds only items read already, or every one of them: a service
      // that does not page answered its list again, and an object edited between the two reads
      // contradicts nothing (second reads SR91-6, SR91B-5); one added since is taken (SR92-3: a
      // create's recover read would miss the create that landed).
      const listAgain = probed && repeatsTheList(body.data, ids);
      for (const item of body.data) {
        const earlier = ids.get(item.id);
        if (earlier !== undefined) {
          // A page that shifted while the list was read repeats an item; one id for two objects is no repeat.
          if (!listAgain && !isDeepStrictEqual(earlier, item)) throw new DocketError('bad-response', `${operation}: ${service} service GET ${clean(at.path)} named id ${clean(shortId(item.id))} for two different objects on different pages`, 'nothing was changed; run the command again (an object changed while the list was read), and report it to the service if it persists');
          continue;
        }
        ids.set(item.id, item);
        fresh++;
        if (!isArchived(item)) out.push(item);
      }
      return { body, fresh, next: nextFromBody(body) };
    };
    for (let page = 1; current; page++) {
      const key = targetKey(current);
      if (seen.has(key) || page > MAX_PAGES) {
        throw new DocketError(
          'bad-response',
          `${operation}: ${service} service paging did not end (${seen.has(key) ? `the next page named ${clean(key)}, which was read already` : `more than ${MAX_PAGES} pages`})`,
        );
      }
      seen.add(key);
      let answer: unknown;
      try {
        answer = await send(current);
      } catch (error) {
        // A service that does not page, or has no such page, may refuse the page asked for on a guess: the list has ended.
        if (probing && error instanceof ApiError && [400, 404, 422].includes(error.status ?? 0)) break;
        throw error;
      }
      const probed = probing;
      probing = false;
      let { body, fresh, next } = take(answer, current, probed);
      if (firstPage) return { items: out, shrank: false };
      // The first page says how many there are: ask for the others at once, in page order.
      const last = page === 1 && next.number === 2 ? lastPageFromBody(body) : undefined;
      if (last !== undefined && last > 2 && last <= MAX_PAGES) {
        const targets = Array.from({ length: last - 1 }, (_, i) => pageTarget(i + 2));
        for (const t of targets) seen.add(targetKey(t));
        // In batches: a page that only repeats earlier ones (paging that does not advance) stops the
        // read within one batch, not after the thousands of pages the first one stated.
        for (let from = 0; from < targets.length; from += PARALLEL_PAGES) {
          const batch = targets.slice(from, from + PARALLEL_PAGES);
          const answers = await Promise.all(batch.map((t) => send(t)));
          answers.forEach((res, i) => {
            ({ body, fresh, next } = take(res, batch[i]!));
            if (fresh === 0 && body.data.length > 0 && (next.link !== undefined || next.number !== undefined)) throw notAdvancing(from + i + 2);
          });
        }
        page = last;
      }
      // The page after one that said it was the last yet named it: empty, the list has ended (below);
      // stating a later last page, the list grew while it was read; new items under the same last
      // page contradict it, and following on could read MAX_PAGES pages (minutes against a real
      // service), while stopping could miss objects a plan would then create again.
      const statedLast = lastPageOf(body, current, first, size);
      if (pastLast !== undefined && fresh > 0 && !grewPast(statedLast, pastLast.last)) {
        const said = typeof pastLast.last === 'number' ? `the last page is ${pastLast.last} in "meta.pagination.last"` : `it was the last page in "links.last"`;
        throw new DocketError(
          'bad-response',
          `${operation}: ${service} service paging contradicts itself (page ${pastLast.page} said ${said} and named a next page, which holds more items)`,
          'nothing was changed; run the command again (the list may have changed while it was read), and report it to the service if it persists',
        );
      }
      const at = currentPageFromBody(body) ?? page;
      const namesNext = next.link !== undefined || next.number !== undefined;
      const isLast = typeof statedLast === 'number' ? at >= statedLast : statedLast === targetKey(current);
      pastLast = statedLast !== undefined && namesNext && isLast ? { page: at, last: statedLast } : undefined;
      // A later page with nothing new that still names a next one: an empty page ends the list; one
      // that only repeats earlier items means the service's paging does not advance, and following it
      // would read MAX_PAGES pages (minutes against a real service) to end in the same error.
      if (page > 1 && fresh === 0 && (next.link !== undefined || next.number !== undefined)) {
        if (body.data.length > 0) throw notAdvancing(page);
        break;
      }
      if (next.link !== undefined) {
        // A link to another host is rebuilt on the base only when there is no page number to use instead.
        const followed = followLink(first, current, next.link, size, next.number === undefined);
        if (followed) {
          current = followed;
          continue;
        }
      }
      if (next.number !== undefined) {
        current = pageTarget(next.number);
      } else if (next.link !== undefined && !next.hasMeta) {
        throw new DocketError('bad-response', `${operation}: the ${service} service's next-page link points to another origin or another list, or cannot be read, and it gave no page number to use instead; not following it`);
      } else if (size !== undefined && !next.pagingInfo && fresh > 0 && (looksTruncated(body.data.length, size) || (await lacksExpected(ids, identity, expected)))) {
        // No paging members, and a page that may have been cut (see looksTruncated), or that lacks
        // an object docket synced (a page size the service keeps to itself; probe RE-1): ask whether there is more.
        current = pageTarget(page + 1);
        probing = true;
      } else {
        current = undefined;
      }
    }
    const short = pagesCountProblem(stated, ids.size, pagesRead);
    if (short) throw new DocketError('bad-response', `${operation}: ${service} service GET ${clean(first.path)} answered with a list that contradicts itself: ${clean(short)}`, 'nothing was changed; run the command again, and report it to the service if it persists');
    return { items: out, shrank };
  }

  /** Whether a page holds nothing but items read already, or all of them (a list answered again, not a next page). */
  function repeatsTheList(page: readonly ApiResource<unknown>[], read: ReadonlyMap<string, ApiResource<unknown>>): boolean {
    if (page.every((item) => read.has(item.id))) return true;
    const onPage = new Set(page.map((item) => item.id));
    for (const id of read.keys()) if (!onPage.has(id)) return false;
    return true;
  }

  /** Whether the items read so far lack an object the list should hold (ListOptions.expected). */
  async function lacksExpected(read: ReadonlyMap<string, ApiResource<unknown>>, identity: string | undefined, expected: ListOptions['expected']): Promise<boolean> {
    if (!expected) return false;
    const wanted = await expected();
    if (wanted.length === 0) return false;
    const ids = new Set<string>();
    const names = new Set<string>();
    // An e-mail in any letter case is one mailbox (a member's, probe RP-3).
    const named = identity === 'email' ? (n: string) => normEmail(n) ?? n : (n: string) => n;
    for (const item of read.values()) {
      ids.add(item.id.toLowerCase());
      const name = identity === undefined ? undefined : (item.attributes as Record<string, unknown> | undefined)?.[identity];
      if (typeof name === 'string') names.add(named(name));
    }
    return wanted.some((w) => !w.ids.some((id) => ids.has(id.toLowerCase())) && !w.names.some((n) => names.has(named(n))));
  }

  /** The last page a page states: its number (`meta.pagination.last`), else the request `links.last` names. */
  function lastPageOf(body: Record<string, unknown>, current: RequestTarget, first: RequestTarget, size: number | null | undefined): LastPage | undefined {
    const n = lastPageFromBody(body);
    if (n !== undefined) return n;
    const link = isPlainObject(body.links) && typeof body.links.last === 'string' ? body.links.last : undefined;
    const lastTarget = link === undefined ? undefined : followLink(first, current, link, size, false);
    return lastTarget === undefined ? undefined : targetKey(lastTarget);
  }

  /**
   * The request for `links.next`, or undefined when it cannot be followed safely: a link to another
   * origin would carry the API key there, unless it names the same endpoint (a gateway's backend
   * host) and `rebuildForeign`, in which case its query is replayed on the configured base.
   * NOTE(api): whether links are absolute, and on which host, is not documented.
   */
  function followLink(first: RequestTarget, current: RequestTarget, link: string, size: number | null | undefined, rebuildForeign: boolean): RequestTarget | undefined {
    const resolved = resolveNextLink(link, base, first.path, rebuildForeign);
    if (!resolved) return undefined;
    const [path, rawQuery] = resolved;
    // Keep asking for the chosen page size if the service's link forgot it.
    const query = typeof size !== 'number' || /(^|&)page(%5B|\[)size(%5D|\])=/i.test(rawQuery) ? rawQuery : joinQuery(rawQuery, encodeQuery({ 'page[size]': size }));
    return { ...current, path, query };
  }

  return {
    service,
    baseUrl: base.url,
    ...(options.apiKeyFrom ? { apiKeyFrom: options.apiKeyFrom } : {}),
    async request<T>(o: RequestOptions): Promise<T> {
      const t = target(o);
      const answer = await send(t);
      // JSON:API's answer to a delete may be `{"data": null}`: nothing is left to show.
      const deleted = o.method === 'DELETE' && isPlainObject(answer) && answer.data === null && answer.errors === undefined;
      const problem = o.resource ? resourceProblem(answer, o.id) : deleted ? undefined : bodyProblem(answer);
      if (problem) {
        // A write answered 2xx was taken: its bad answer does not undo it.
        const taken = `the service took it (a 2xx answer), so it may be ${nextRun.taken}; report the answer to the service if it persists`;
        throw malformedBody(t, problem, o.method === 'GET' ? badAnswerHint() : taken);
      }
      return answer as T;
    },
    async create<T>(o: CreateOptions<T>): Promise<T> {
      const t = target(o);
      let read = false;
      const recover = async (what: string): Promise<T | undefined> => {
        const found = await o.recover('no-answer', what);
        if (found !== undefined) read = true;
        return found;
      };
      const answer = await send(t, recover, o.beforeSend);
      let other: string | undefined;
      if (hasDataId(answer)) {
        // Carried out (it names an id), but an id no path can hold, or "errors" beside it, is not an object docket can record.
        const problem = read ? undefined : bodyProblem(answer);
        if (problem) {
          throw malformedBody(t, problem, `the service may have made it: ${nextRun.whether}; report it to the service if it persists`);
        }
        // An answer naming another object than the one sent (a gateway's mix-up) is no id for it: the object is looked for by name.
        other = read ? undefined : (anotherObject(o.body, answer) ?? existingObjectOf(options.isExistingId, answer, o.answersId));
        if (other === undefined) return (read ? markFound(answer) : answer) as T;
      }
      // NOTE(api): a create that succeeded without saying the new id is recovered by reading, as
      // for an unknown outcome (create statuses and bodies are not documented everywhere).
      const naming = other === undefined ? undefined : `naming another object (${clean(other)})`;
      const found = await readingFailed(() => (other === undefined ? o.recover('no-id') : o.recover('no-id', clean(other))), `${t.operation}: the service took it ${naming ?? "without saying the new object's id"}, and the read to find it failed`, `; ${nextRun.whether}`);
      if (found !== undefined) return markFound(found);
      throw new DocketError(
        'bad-response',
        `${t.operation}: ${service} service ${t.method} ${clean(t.path)} succeeded ${naming ?? "without the new object's id"}, and reading the collection did not find it`,
        nextRun.notFound,
      );
    },
    list,
    async close(): Promise<void> {
      stopListening();
      const pool = ownPool;
      ownPool = undefined;
      // A close waits for the requests queued in it, and those given up on while connecting stay
      // queued until undici's connect timeout: ended at once instead (probe UB-1).
      if (pool) await (unsent.count > 0 ? pool.destroy() : pool.close());
    },
  };
}

/** A body a create's answer carried that cannot be read (http.ts readBody). */
const UNREADABLE = Symbol('unreadable');

/**
 * Codes of a read that could not be made (besides ApiError's): it says nothing of what it read for.
 * `interrupted`: a stop (or Ctrl-C) during the read, whose own request was not sent again.
 */
const READ_FAILURES: ReadonlySet<string> = new Set(['timeout', 'bad-response', 'interrupted']);


/** A wait for a turn (the pace, a 429 pause, --concurrency) under this is not said in -v's request lines. */
const WAIT_SAID_MS = 100;

/**
 * The most 429s one request is retried after: each waits its Retry-After and the shared pace, so a
 * service that refuses for pace a while is waited out (a burst of them failed changes of a large
 * apply after 7 attempts while the rest went on, probe RJ-4); one that never lets it through ends.
 */
const MAX_PACE_REFUSALS = 30;

const PACE_HINT = 'give the command more time with --timeout, or try again later: the service is refusing requests for pace';

/** Why a wait ended early. */
type WaitEnd = 'interrupted' | 'stopped' | 'timeout' | 'past-turn';

interface Wait<S = AbortSignal> {
  signal: S;
  why(): WaitEnd | undefined;
  /** Removes its timer and its place: a request must leave nothing behind. */
  release(): void;
}

/**
 * What an attempt's request listens to, as undici reads a signal (`aborted`, `reason`, an `abort`
 * event). Node's AbortController costs some 15 µs and outlives young-generation collections:
 * 21,000 creates left about 12 MB of them for a full collection.
 */
class StopSignal extends EventEmitter {
  aborted = false;
  reason: WaitEnd | undefined = undefined;

  abort(why: WaitEnd): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = why;
    this.emit('abort');
  }
}

/** The last page a list states: a page number, or (links-only paging) the request of the page that `links.last` named. */
type LastPage = number | string;

/**
 * Whether the last page a later page states is past the one stated before: the list grew while
 * it was read. A link has no order: another link than before is a list that grew.
 */
function grewPast(stated: LastPage | undefined, before: LastPage): boolean {
  if (stated === undefined) return false;
  if (typeof stated === 'number' && typeof before === 'number') return stated > before;
  // A number beside a link says nothing of which is later: not taken for growth.
  if (typeof stated !== typeof before) return false;
  return stated !== before;
}

function targetKey(t: RequestTarget): string {
  return `${t.path}?${t.query}`;
}


/**
 * What a create's answer names when it is another object than the one sent: its name or e-mail,
 * compared as docket compares names (spaces at the ends and letter case aside), else undefined.
 */
// NOTE(api): a create answers the object it made (seed 000); one naming another (another
// playbook's body, another invitation) is a gateway's or a cache's mix-up, and its id is not this object's.
function anotherObject(body: RequestOptions['body'], answer: unknown): string | undefined {
  const attributes = attributesOf(answer);
  if (!attributes) return undefined;
  // A form names its fields as Rails does (`attachment[name]`).
  const sent = (key: string): unknown => (Array.isArray(body) ? body.find((part) => part.name === key || part.name.endsWith(`[${key}]`))?.value : body?.[key]);
  // An invitation is its e-mail (the name beside it is the person's, which the service may hold otherwise); anything else its name.
  const key = typeof sent('email') === 'string' && typeof attributes.email === 'string' ? 'email' : 'name';
  const mine = sent(key);
  const theirs = attributes[key];
  if (typeof mine !== 'string' || typeof theirs !== 'string') return undefined;
  const same = (v: string): string => v.normalize('NFC').trim().toLowerCase();
  return same(mine) === same(theirs) ? undefined : `${key} ${JSON.stringify(theirs.slice(0, 80))}`;
}

/**
 * An answer naming, by its id, an object that was live before: not the one a create made, unless
 * it is the object the request answers with (`answersId`: a publish answers the term it versions).
 */
function existingObjectOf(isExistingId: ((id: string) => boolean) | undefined, answer: unknown, answersId: string | undefined): string | undefined {
  if (!isExistingId || !hasDataId(answer)) return undefined;
  const id = (answer as { data: { id: string } }).data.id;
  if (!isExistingId(id) || (answersId !== undefined && answersId.toLowerCase() === id.toLowerCase())) return undefined;
  return `id ${JSON.stringify(shortId(id))}, of an object live before this apply`;
}

function hasDataId(answer: unknown): boolean {
  return isPlainObject(answer) && isPlainObject(answer.data) && typeof answer.data.id === 'string' && answer.data.id !== '';
}

interface BaseUrl {
  /** Origin plus path prefix, no trailing slash. */
  url: string;
  origin: string;
  /** Path prefix such as `/review`, or ``. */
  prefix: string;
}

function parseBaseUrl(raw: string, service: ServiceName): BaseUrl {
  const problem = urlProblem(raw, `the ${service} service URL`);
  if (problem) throw new DocketError(problem.code, problem.message, problem.hint);
  const u = new URL(raw.trim());
  const prefix = u.pathname.replace(/\/+$/, '');
  return { url: `${u.origin}${prefix}`, origin: u.origin, prefix };
}

/** `error`, marked as the end of the command's time budget for every request after it. */
function outOfTurn(error: DocketError): DocketError {
  error.outOfTurn = true;
  return error;
}

function checkApiKey(key: string, service: ServiceName, from: string | undefined): string {
  const k = key.trim();
  const problem = apiKeyProblem(k);
  if (problem) throw new DocketError('invalid-api-key', `the ${service} service API key ${problem}`, apiKeyProblemHint(apiKeyVariable(service, from)));
  return k;
}

/**
 * Resolves `links.next` to a path below the base URL and its raw query; undefined when it cannot
 * be read, or points to another origin and is not the same endpoint (`endpoint`, below the base)
 * or may not be rebuilt.
 */
function resolveNextLink(next: string, base: BaseUrl, endpoint: string, rebuildForeign: boolean): [string, string] | undefined {
  let u: URL;
  try {
    // A link relative to the page (`?page[number]=2`, `custom_terms?…`) is read against the page
    // asked for, as a URI reference is (RFC 3986); one from the root (`/v1/…`) as NOTE(api) below says.
    u = new URL(next, /^(?:[a-z][a-z0-9+.-]*:|[/\\])/i.test(next) ? `${base.origin}/` : `${base.url}${endpoint}`);
  } catch {
    return undefined;
  }
  let path = u.pathname;
  if (u.origin !== base.origin) {
    if (!rebuildForeign) return undefined;
    // A gateway's backend host: the same endpoint, rebuilt on the configured base.
    return sameEndpoint(path, endpoint) || endpointKeyOf(path).endsWith(endpointKeyOf(endpoint)) ? [endpoint, u.search.replace(/^\?/, '')] : undefined;
  }
  // NOTE(api): a link that already carries the base prefix (`/review/v1/...`) is taken as is; a
  // bare `/v1/...` is taken relative to the base URL, whichever way the service writes it.
  if (base.prefix && (path === base.prefix || path.startsWith(`${base.prefix}/`))) path = path.slice(base.prefix.length);
  // The next page of this list: another endpoint's items (templates in the custom term list) would be read as this list's.
  if (!sameEndpoint(path, endpoint)) return undefined;
  return [path, u.search.replace(/^\?/, '')];
}

/** A path as endpoints compare: without a trailing `/`, and in lower case (an organization id in it may be written in either). */
function endpointKeyOf(path: string): string {
  return path.replace(/\/+$/, '').toLowerCase();
}

function sameEndpoint(a: string, b: string): boolean {
  return endpointKeyOf(a) === endpointKeyOf(b);
}

function splitPath(path: string): [string, string] {
  const i = path.indexOf('?');
  const p = i < 0 ? path : path.slice(0, i);
  return [p.startsWith('/') ? p : `/${p}`, i < 0 ? '' : path.slice(i + 1)];
}

/** `page[size]` → `page%5Bsize%5D`: brackets are sent percent-encoded (reference/api.md). */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  return Object.entries(query)
    .filter((e): e is [string, string | number | boolean] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
    .join('&');
}

function joinQuery(a: string, b: string): string {
  return a && b ? `${a}&${b}` : a || b;
}
