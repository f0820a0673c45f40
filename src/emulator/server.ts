/**
 * The local emulator: one node:http server for both services (review under `/review`, agreements
 * under `/agreements`) plus control routes under `/_emulator/`. Per request: latency, then (service
 * routes only) statistics, rate limit and injected faults, then authentication, routing, the
 * handler, persistence, and the answer (or a dropped connection).
 */
import { randomUUID } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { DocxConversion } from './agreements-state.js';
import { ConversionScheduler } from './conversion.js';
import { FaultQueue, isTransportFault, randomFault, type Fault } from './faults.js';
import type { JsonBody } from './fields.js';
import { parseJsonObject, readBody, sendBytes, sendJson, sendProblem } from './http.js';
import { MAX_PAGE_SIZE } from './jsonapi.js';
import { HttpProblem, notFound } from './problem.js';
import { TokenBucket } from './ratelimit.js';
import { Router, type Principal, type RequestContext, type RouteMatch, type RouteResult, type RouteScope } from './router.js';
import { agreementsRoutes } from './routes/agreements.js';
import { controlRoutes, type EmulatorConfig, type EmulatorControls } from './routes/control.js';
import { ReviewScheduler } from './review-processing.js';
import { reviewRoutes } from './routes/review.js';
import { defaultSeed, type EmulatorSeed, type SeedOrganization } from './seed.js';
import { emulatorOrganizationKey } from './identity.js';
import { isMultipart, parseMultipart } from './multipart.js';
import { RequestLog, type LoggedRequest } from './request-log.js';
import { StatsCounter, type EmulatorStats } from './stats.js';
import { EmulatorStore } from './store.js';
import { DEFAULT_VARIANTS, type EmulatorVariants } from './variants.js';

export { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY, defaultSeed } from './seed.js';
export type {
  EmulatorSeed,
  SeedFlagViolation,
  SeedImportedFile,
  SeedRedlineEvaluation,
  SeedReview,
  SeedSummaryPosition,
  SeedAgreements,
  SeedAgreementsOrganization,
  SeedAttachment,
  SeedCustomTemplate,
  SeedCustomTerm,
  SeedOrganization,
  SeedPlaybook,
  SeedRule,
  SeedTemplate,
  SeedUser,
} from './seed.js';
export type { DocxConversion } from './agreements-state.js';
export type { EmulatorConfig } from './routes/control.js';
export type { FaultSpec, FaultStatus } from './faults.js';
export type { EmulatorStats } from './stats.js';
export type { LoggedRequest } from './request-log.js';
export { DEFAULT_VARIANTS, type EmulatorVariants } from './variants.js';

/** The API key a request's `Authorization: Bearer` header sends, if it sends one. */
function bearerKey(ctx: Pick<RequestContext, 'headers'>): string | undefined {
  return /^Bearer\s+(\S+)\s*$/i.exec(ctx.headers.authorization ?? '')?.[1];
}

/** A review path in an organization, under nested routes: the organization's id. */
const NESTED_ORGANIZATION = /^\/review\/v1\/organizations\/([0-9a-fA-F-]{36})(?:\/|$)/;

export interface EmulatorOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0 (ephemeral). */
  port?: number;
  /** Load state from it when it exists (else from the seed) and write it atomically after every successful write (see stateWrites). */
  stateFile?: string;
  /** `on-save`: write the state file only when the store is flushed (the in-process emulator; see StoreOptions). */
  stateWrites?: 'each' | 'on-save' | 'none';
  /** Run once the state file's name is found good, before it is read (see StoreOptions.beforeRead). */
  beforeStateRead?: () => Promise<void>;
  /** Used when no state file exists yet; default `defaultSeed()`. */
  seed?: EmulatorSeed;
  /** Added to every request. */
  latencyMs?: number;
  /** 0..1: share of service requests answered with a random fault (429, 500, or drop after the write). */
  faultRate?: number;
  /** Requests per second (token bucket, burst max(1, rps)); 0 or omitted: unlimited. */
  rateLimit?: number;
  /** Retry-After sent on 429s; default 1. */
  retryAfterSeconds?: number;
  /** Page size of paged lists when the client sends none; default 15 (api.md). */
  pageSize?: number;
  /** How long a docx conversion of a file custom term stays `processing`; default 300 ms. */
  conversionDelayMs?: number;
  /** `failed` makes every docx conversion fail (else each organization's seed option decides); default `ready`. */
  docxConversion?: DocxConversion;
  /** How long a review (and a counterproposal) stays `processing`; default 300 ms. */
  reviewDelayMs?: number;
  /** Which documented shape to answer in (over the seed's `variants`); default reference/api.md's. */
  variants?: Partial<EmulatorVariants>;
  /** How the added latency waits; injected so tests can see it without a clock. */
  sleep?: (ms: number) => Promise<void>;
  /**
   * A review-service request naming an organization id the store lacks creates it, as a copy of the
   * seed's first organization, when the key is one of that organization's keys. For the standalone
   * `docket emulator`: any organization_id a configuration names then exists, with the seed users.
   */
  openOrganizations?: boolean;
  random?: () => number;
  /** Told of every request once it is answered (or dropped): `docket emulator -v` prints these. */
  onRequest?: (request: AnsweredRequest) => void;
}

/** One request as `docket emulator -v` shows it: never a header, so never a key. */
export interface AnsweredRequest {
  method: string;
  /** Path and query as the client sent them. */
  path: string;
  /** The status sent, or undefined when no answer was sent (a dropped or hung request). */
  status?: number;
  ms: number;
  requestId: string;
}

export interface RunningEmulator {
  /** `http://127.0.0.1:PORT` */
  url: string;
  reviewUrl: string;
  agreementsUrl: string;
  store: EmulatorStore;
  /** Deterministic faults for the next matching requests (like `POST /_emulator/faults`). */
  faults: FaultQueue;
  stats(): EmulatorStats;
  resetStats(): void;
  /** The last service requests answered (method, path, status, body), oldest first; reset with the statistics. */
  requests(): LoggedRequest[];
  /** Carries out now every request a `late` fault holds; returns how many. */
  releaseHeld(): number;
  /** Restores the seed state (a new seed when given), clears statistics, writes the state file. */
  reset(seed?: EmulatorSeed): Promise<void>;
  config(): EmulatorConfig;
  configure(patch: Partial<EmulatorConfig>): EmulatorConfig;
  close(): Promise<void>;
}

const DEFAULT_PAGE_SIZE = 15;
const DEFAULT_CONVERSION_DELAY_MS = 300;
const DEFAULT_REVIEW_DELAY_MS = 300;
/** How long a `late` fault holds its request by default: past docket's 30 s per attempt. */
const LATE_FAULT_MS = 35_000;

export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const store = await EmulatorStore.open({
    seed: options.seed ?? defaultSeed(),
    ...(options.stateFile === undefined ? {} : { stateFile: options.stateFile }),
    ...(options.stateWrites ? { writes: options.stateWrites } : {}),
    ...(options.beforeStateRead ? { beforeRead: options.beforeStateRead } : {}),
  });
  const emulator = new EmulatorServer(store, options);
  const host = options.host ?? '127.0.0.1';
  const port = await emulator.listen(host, options.port ?? 0);
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const url = `http://${shownHost}:${port}`;
  return {
    url,
    reviewUrl: `${url}/review`,
    agreementsUrl: `${url}/agreements`,
    store,
    faults: emulator.faults,
    stats: () => emulator.stats(),
    resetStats: () => emulator.resetStats(),
    requests: () => emulator.requests(),
    releaseHeld: () => emulator.releaseHeld(),
    reset: async (seed) => {
      emulator.reset(seed);
      emulator.resetStats();
      await store.persist();
    },
    config: () => emulator.config(),
    configure: (patch) => emulator.configure(patch),
    close: () => emulator.close(),
  };
}

class EmulatorServer implements EmulatorControls {
  readonly faults = new FaultQueue();
  private readonly counter = new StatsCounter();
  readonly log = new RequestLog();
  private readonly router: Router;
  private readonly conversions: ConversionScheduler;
  private readonly reviews: ReviewScheduler;
  private readonly server = createServer((req, res) => {
    if (this.onRequest) this.report(req, res, this.onRequest);
    void this.handle(req, res);
  });
  private readonly onRequest: ((request: AnsweredRequest) => void) | undefined;
  /** Exchanges not yet reported (their connection still open): close() waits for them. */
  private readonly reporting = new Set<Promise<void>>();
  private readonly random: () => number;
  private readonly sleep: (ms: number) => Promise<void>;
  private readonly pageSize: number;
  private settings: EmulatorConfig;
  private limiter: TokenBucket | undefined;
  /** Whether an organization a review path names is made on first use, after the seed's first (see template). */
  private readonly openOrganizations: boolean;
  /** Ends each latency wait under way: a stopped emulator neither lingers for them nor runs their requests. */
  private readonly waits = new Set<() => void>();
  /** Ends each `late` fault's hold under way (see releaseHeld). */
  private readonly holds = new Set<() => void>();
  private closed = false;
  /** Counts resets: a request that waited across one is dropped. */
  private generation = 0;

  constructor(
    private readonly store: EmulatorStore,
    options: EmulatorOptions,
  ) {
    this.onRequest = options.onRequest;
    this.openOrganizations = options.openOrganizations === true;
    this.random = options.random ?? Math.random;
    this.sleep = options.sleep ?? ((ms) => this.wait(ms));
    this.pageSize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(options.pageSize ?? DEFAULT_PAGE_SIZE)));
    this.settings = {
      latencyMs: 0,
      faultRate: 0,
      rateLimit: 0,
      retryAfterSeconds: 1,
      conversionDelayMs: DEFAULT_CONVERSION_DELAY_MS,
      docxConversion: 'ready',
      reviewDelayMs: DEFAULT_REVIEW_DELAY_MS,
      variants: { ...DEFAULT_VARIANTS, ...(options.seed ?? defaultSeed()).variants, ...options.variants },
    };
    this.configure({
      latencyMs: options.latencyMs ?? 0,
      faultRate: options.faultRate ?? 0,
      rateLimit: options.rateLimit ?? 0,
      retryAfterSeconds: options.retryAfterSeconds ?? 1,
      conversionDelayMs: options.conversionDelayMs ?? DEFAULT_CONVERSION_DELAY_MS,
      docxConversion: options.docxConversion ?? 'ready',
      reviewDelayMs: options.reviewDelayMs ?? DEFAULT_REVIEW_DELAY_MS,
    });
    this.conversions = new ConversionScheduler(store, () => ({ delayMs: this.settings.conversionDelayMs, docxConversion: this.settings.docxConversion }));
    this.conversions.resumePending();
    this.reviews = new ReviewScheduler(store, () => this.settings.reviewDelayMs);
    this.reviews.resumePending();
    this.router = new Router([...reviewRoutes({ reviews: this.reviews }), ...agreementsRoutes({ conversions: this.conversions }), ...controlRoutes(this)]);
  }

  listen(host: string, port: number): Promise<number> {
    return new Promise((resolve, reject) => {
      this.server.once('error', reject);
      this.server.listen(port, host, () => {
        this.server.off('error', reject);
        resolve((this.server.address() as AddressInfo).port);
      });
    });
  }

  routeTemplates(): Map<string, string[]> {
    return this.router.templates();
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const end of this.waits) end();
    this.conversions.cancelAll();
    this.reviews.cancelAll();
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      this.server.closeAllConnections();
    });
    // The exchanges the close ended are reported (`-v`: a request dropped while it waited out the
    // latency) before the process may exit: their 'close' events come on a later turn (probe GE).
    // (Bounded: a stop must never hang on a report.)
    let bound: NodeJS.Timeout | undefined;
    await Promise.race([Promise.all(this.reporting), new Promise<void>((resolve) => (bound = setTimeout(resolve, 1_000).unref()))]);
    clearTimeout(bound);
    await this.store.flush();
  }

  /** As if each `late` hold's delay had passed: a test holds a create past any client's patience and lets it land when it wants. */
  releaseHeld(): number {
    const held = [...this.holds];
    for (const end of held) end();
    return held.length;
  }

  private hold(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = (): void => {
        if (!this.holds.delete(end)) return;
        resolve();
      };
      this.holds.add(end);
      void this.sleep(ms).then(end);
    });
  }

  /** The added latency, on a timer close() clears (one left running kept the process up to a minute past SIGTERM). */
  private wait(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const end = (): void => {
        clearTimeout(timer);
        this.waits.delete(end);
        resolve();
      };
      const timer = setTimeout(end, ms);
      this.waits.add(end);
    });
  }

  stats(): EmulatorStats {
    return this.counter.snapshot();
  }

  resetStats(): void {
    this.counter.reset();
    this.log.clear();
  }

  requests(): LoggedRequest[] {
    return this.log.list();
  }

  reset(seed?: EmulatorSeed): void {
    this.generation++;
    this.store.reset(seed);
    // A fault queued before is the last case's: it must not fire in the next one (probe GE).
    this.faults.clear();
    this.conversions.cancelAll();
    this.reviews.cancelAll();
    // A seed may hold reviews that are still processing.
    this.reviews.resumePending();
    // A seed's variants change the ones in force (the command line's, a PUT's) key by key; the others stay.
    if (seed?.variants) this.settings = { ...this.settings, variants: { ...this.settings.variants, ...seed.variants } };
  }

  config(): EmulatorConfig {
    return { ...this.settings, variants: { ...this.settings.variants } };
  }

  configure(patch: Partial<EmulatorConfig>): EmulatorConfig {
    const next = { ...this.settings, ...patch, variants: { ...this.settings.variants, ...patch.variants } };
    if (!(next.faultRate >= 0 && next.faultRate <= 1)) throw new RangeError(`faultRate must be between 0 and 1, got ${next.faultRate}`);
    if (!(next.latencyMs >= 0 && next.rateLimit >= 0 && next.retryAfterSeconds >= 0 && next.conversionDelayMs >= 0 && next.reviewDelayMs >= 0)) {
      throw new RangeError('latencyMs, rateLimit, retryAfterSeconds, conversionDelayMs and reviewDelayMs must be >= 0');
    }
    if (next.docxConversion !== 'ready' && next.docxConversion !== 'failed') throw new RangeError(`docxConversion must be "ready" or "failed", got ${String(next.docxConversion)}`);
    if (next.rateLimit !== this.settings.rateLimit || (next.rateLimit > 0 && !this.limiter)) {
      this.limiter = next.rateLimit > 0 ? new TokenBucket(next.rateLimit) : undefined;
    }
    this.settings = next;
    return this.config();
  }

  /** Reports the request when its exchange ends, answered or not. */
  private report(req: IncomingMessage, res: ServerResponse, onRequest: (request: AnsweredRequest) => void): void {
    const started = performance.now();
    const reported = new Promise<void>((resolve) => {
      res.once('close', () => {
        onRequest({
          method: (req.method ?? 'GET').toUpperCase(),
          path: req.url ?? '/',
          ...(res.headersSent ? { status: res.statusCode } : {}),
          ms: Math.round(performance.now() - started),
          requestId: String(res.getHeader('x-request-id') ?? ''),
        });
        this.reporting.delete(reported);
        resolve();
      });
    });
    this.reporting.add(reported);
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const requestId = randomUUID();
    res.setHeader('x-request-id', requestId);
    const method = (req.method ?? 'GET').toUpperCase();
    const target = requestTarget(req);
    const path = target.path;
    // A reset while the request waits (its latency, a `late` fault) makes it the last case's: dropped, never run in the fresh state (probe GF).
    const generation = this.generation;
    const stale = (): boolean => {
      if (this.generation === generation) return false;
      res.destroy();
      return true;
    };
    try {
      const rawBody = hasNoBody(req) ? EMPTY_BODY : await readBody(req);
      if (this.settings.latencyMs > 0) await this.sleep(this.settings.latencyMs);
      // Closed meanwhile: its connection is gone, and a stopped server changes nothing.
      if (this.closed || stale()) return;
      const match = this.router.match(method, path, this.settings.variants);
      const scope = match.kind === 'found' ? match.route.scope : scopeOfPath(path);
      const transport = scope === 'control' ? undefined : this.admit(method, path, match);
      // A dead server accepts the connection and neither runs the request nor answers.
      if (transport?.status === 'silent') return;
      if (transport && !isTransportFault(transport.status)) {
        await this.hold(transport.delayMs ?? 0);
        if (this.closed || stale()) return;
        throw faultProblem(transport, this.settings.retryAfterSeconds);
      }
      // Passed on late: performed after the client may have given up on it (the create docket must not send twice).
      if (transport?.status === 'late') {
        await this.hold(transport.delayMs ?? LATE_FAULT_MS);
        if (this.closed || stale()) return;
      }
      let result: RouteResult | HttpProblem;
      try {
        result = await this.dispatch(match, scope, this.context(req, method, target, rawBody, requestId));
        if (shouldPersist(method, result)) await this.store.persist();
        // The variants where a create answers 200, or 204 with no body, instead of 201.
        const createStatus = this.settings.variants.createStatus;
        if (result.status === 201 && scope !== 'control' && createStatus !== 201) result = createStatus === 204 ? { status: 204 } : { ...result, status: createStatus };
      } catch (err) {
        result = toProblem(err);
      }
      if (transport?.status === 'drop') {
        // The write happened; the client never learns it (the ambiguous create).
        req.socket.destroy();
        return;
      }
      // The write happened, and the answer never comes.
      if (transport?.status === 'hang') return;
      if (scope === 'review' || scope === 'agreements') {
        const route = match.kind === 'found' ? match.route.template : undefined;
        // Made now, not when read: an entry must not hold the request and its body (an upload) alive.
        this.log.add({ method, path, query: target.query, ...(route ? { route } : {}), status: result.status, ...loggedBody(req, rawBody) });
      }
      if (transport?.status === 'malformed') sendJson(res, 200, (transport.body ?? { data: [null, 42] }) as JsonBody);
      else if (transport?.status === 'trickle') trickle(res, result, path, requestId, transport.delayMs ?? 1000);
      else if (result instanceof HttpProblem) sendProblem(res, result, path, requestId);
      else if (Buffer.isBuffer(result.body)) sendBytes(res, result.status, result.body, result.headers);
      else sendJson(res, result.status, result.body, result.headers);
    } catch (err) {
      if (!res.headersSent && !res.destroyed) sendProblem(res, toProblem(err), path, requestId);
    }
  }

  /**
   * Statistics, rate limit and faults for a service request. Throws the 429/5xx to answer with;
   * returns a transport fault (drop, hang, silent, trickle) to play around the request.
   */
  private admit(method: string, path: string, match: RouteMatch): Fault | undefined {
    const template = match.kind === 'found' ? match.route.template : match.kind === 'wrong-method' ? match.template : undefined;
    this.counter.request(method, template);
    if (this.limiter && !this.limiter.take()) {
      this.counter.rateLimited();
      // At least until the next token: below one request a second, a fixed 1 s was refused again and again (probe CC-5).
      throw tooMany('rate limit exceeded', Math.max(this.settings.retryAfterSeconds, Math.ceil(this.limiter.msToNext() / 1000)));
    }
    const fault = this.faults.take(method, path, template) ?? randomFault(this.settings.faultRate, this.random);
    if (!fault) return undefined;
    this.counter.fault();
    // A refusal with a delay is answered once it has passed (handle): a slow 500, or a 429 after a while.
    if (isTransportFault(fault.status) || fault.delayMs !== undefined) return fault;
    throw faultProblem(fault, this.settings.retryAfterSeconds);
  }

  private async dispatch(match: RouteMatch, scope: RouteScope | 'other', ctx: RequestContext): Promise<RouteResult> {
    const anonymous = match.kind === 'found' && match.route.anonymous === true;
    // A path that is no route is 404 for a key that is one, whether or not its organization is open
    // yet: the first request of a run may be one (`/users` with no users list, probe PD-3). A key
    // that is none is still 401 (second read SR81B-2).
    // Under nested routes, a path in an organization names one that exists on the real service, though
    // this variant serves no route there (`/users` with no users list): it opens it, or the run's
    // next read, the organizations list, would not show it (probe DE-2). Under flat routes it does not (OL-1).
    if (match.kind === 'none' && scope === 'review' && this.settings.variants.reviewPaths === 'nested' && NESTED_ORGANIZATION.test(ctx.path)) {
      const key = bearerKey(ctx);
      if (key) this.openOrganization(ctx.path, key);
    }
    if (match.kind === 'none' && this.keyThatOpens(ctx)) throw notFound(`no route for ${ctx.method} ${ctx.path}`);
    if ((scope === 'review' || scope === 'agreements') && !anonymous) ctx.principal = this.authenticate(ctx, match.kind === 'found');
    if (match.kind === 'none') throw notFound(`no route for ${ctx.method} ${ctx.path}`);
    if (match.kind === 'wrong-method') {
      throw new HttpProblem(405, `${ctx.method} is not allowed on ${match.template}`, { headers: { allow: match.allowed.join(', ') } });
    }
    ctx.params = match.params;
    return match.route.handle(ctx);
  }

  /** Whether the request's key is one an organization has, or an organization's own key (`docket-emulator-key-<id>`), which opens one. */
  private keyThatOpens(ctx: RequestContext): boolean {
    const key = bearerKey(ctx);
    return key !== undefined && (this.store.organizationsForKey(key).length > 0 || (this.openOrganizations && OWN_KEY.test(key)));
  }

  /** `routed`: the path is a route; one answered 404 opens no organization (probe OL-1: flat routes, a nested probe). */
  private authenticate(ctx: RequestContext, routed: boolean): Principal {
    const key = bearerKey(ctx);
    if (key && routed) this.openOrganization(ctx.path, key);
    const orgs = key ? this.store.organizationsForKey(key) : [];
    if (!key || orgs.length === 0) {
      const detail = key ? 'the API key is not valid' : 'missing Authorization: Bearer <API key> header';
      throw new HttpProblem(401, detail, { headers: { 'www-authenticate': 'Bearer' } });
    }
    return { apiKey: key, organizationIds: orgs.map((o) => o.id) };
  }

  /**
   * With `openOrganizations`: creates the organization a review path names, for a key of the
   * template's (with those keys, and one of its own); or the one an organization's own key names
   * (`docket-emulator-key-<id>`), on any path, with that key alone: a team using its own key
   * changes nothing the shared key sees.
   */
  private openOrganization(path: string, key: string): void {
    if (!this.openOrganizations) return;
    const named = NESTED_ORGANIZATION.exec(path)?.[1]?.toLowerCase();
    const ownId = OWN_KEY.exec(key)?.[1]?.toLowerCase();
    const id = ownId ?? named;
    if (!id || this.store.organization(id)) return;
    // The seed loaded now (a reset may have loaded another since the start): its keys open organizations, a removed seed's do not.
    const template = peopleAndSettingsOf(this.store.currentSeed().organizations[0]);
    if (!template || (ownId === undefined && !template.api_keys.includes(key))) return;
    // An agreements key acts for the first organization it names (no organization in its paths): each gets a key of its own.
    const own = emulatorOrganizationKey(template.id);
    const apiKeys = ownId !== undefined ? [key] : [...new Set([...template.api_keys.filter((k) => k !== own), emulatorOrganizationKey(id)])];
    this.store.addMissingOrganizations({ organizations: [{ ...template, id, api_keys: apiKeys }] });
    void this.store.persist();
  }

  private context(req: IncomingMessage, method: string, target: RequestTarget, rawBody: Buffer, requestId: string): RequestContext {
    return new Context(method, target, req.headers, requestId, rawBody, this.store, this.pageSize, this.settings.variants);
  }
}

/** An organization's own emulator key (emulatorOrganizationKey), naming its id. */
const OWN_KEY = new RegExp(`^${emulatorOrganizationKey('')}([0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$`);

/**
 * What an organization opened on first use takes from the seed's first one: its people and
 * settings, none of its objects (a seed's playbooks, terms or reviews would make "a new, empty
 * organization" hold another's work, and a bootstrap into it plan nothing).
 */
function peopleAndSettingsOf(seed: SeedOrganization | undefined): SeedOrganization | undefined {
  if (!seed) return undefined;
  const { playbooks: _playbooks, imported_files: _files, reviews: _reviews, agreements, ...rest } = seed;
  if (!agreements) return rest;
  const { custom_terms: _terms, custom_templates: _customTemplates, templates: _templates, attachments: _attachments, ...settings } = agreements;
  return { ...rest, agreements: settings };
}

/** A class, not an object literal: its getters live on the prototype instead of in every request. */
class Context implements RequestContext {
  params: Record<string, string> = {};
  principal: Principal | undefined = undefined;
  private parsed: JsonBody | undefined;

  constructor(
    readonly method: string,
    private readonly target: RequestTarget,
    readonly headers: IncomingHttpHeaders,
    readonly requestId: string,
    readonly rawBody: Buffer,
    readonly store: EmulatorStore,
    readonly defaultPageSize: number,
    readonly variants: EmulatorVariants,
  ) {}

  get path(): string {
    return this.target.path;
  }

  // Most requests never look at the URL object or the query; they are made on first use.
  get url(): URL {
    return this.target.url();
  }

  get query(): URLSearchParams {
    return this.target.url().searchParams;
  }

  json(): JsonBody {
    return (this.parsed ??= parseJsonObject(this.rawBody));
  }
}

/** The path of a request, its raw query, and its URL made only when something needs it. */
interface RequestTarget {
  /** `url().pathname`. */
  path: string;
  /** The query string as sent, without `?` (what the request log keeps). */
  query: string;
  url(): URL;
}

const EMPTY_BODY = Buffer.alloc(0);

/** HTTP/1.1: a request without Content-Length or Transfer-Encoding, or with a zero length, has no body. */
function hasNoBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] === undefined && (length === undefined || length === '0');
}

/**
 * A path the URL parser keeps as it is: no dot segments, escapes, or characters it would encode.
 * Each segment ends at a `/` or at the end, so a path that is not plain fails in one pass. With the
 * slash optional (`(?:[…]+\/?)*`) the engine tried every split of the letters before failing, twice
 * the time per letter: one `%` or `"` after an id hung the emulator, deaf to SIGTERM.
 */
const PLAIN_PATH = /^\/(?:[A-Za-z0-9_~-]+\/)*[A-Za-z0-9_~-]*$/;
/** Host headers seen, and whether `http://HOST` parses (a bad one makes the URL `/`). */
const hostParses = new Map<string, boolean>();

function requestTarget(req: IncomingMessage): RequestTarget {
  let url: URL | undefined;
  const make = (): URL => (url ??= requestUrl(req));
  const raw = req.url ?? '/';
  const at = raw.indexOf('?');
  const path = at === -1 ? raw : raw.slice(0, at);
  const query = at === -1 ? '' : raw.slice(at + 1);
  // Parsing every URL costs more than the rest of routing; a plain path is its own pathname.
  return { path: PLAIN_PATH.test(path) && baseParses(req.headers.host) ? path : make().pathname, query, url: make };
}

function baseParses(host: string | undefined): boolean {
  if (host === undefined) return false;
  let ok = hostParses.get(host);
  if (ok === undefined) {
    ok = URL.canParse(`http://${host}`);
    if (hostParses.size >= 64) hostParses.clear();
    hostParses.set(host, ok);
  }
  return ok;
}

/** The URL as the client addressed it, so pagination links work with localhost or 127.0.0.1. */
function requestUrl(req: IncomingMessage): URL {
  const local = `http://${req.socket.localAddress ?? '127.0.0.1'}:${req.socket.localPort ?? 80}`;
  try {
    return new URL(req.url ?? '/', req.headers.host ? `http://${req.headers.host}` : local);
  } catch {
    return new URL('/', local);
  }
}

function scopeOfPath(path: string): RouteScope | 'other' {
  const first = path.split('/')[1] ?? '';
  if (first === 'review') return 'review';
  if (first === 'agreements') return 'agreements';
  if (first === '_emulator') return 'control';
  return 'other';
}

function shouldPersist(method: string, result: RouteResult): boolean {
  return result.persist ?? (method !== 'GET' && method !== 'HEAD' && result.status < 400);
}

function toProblem(err: unknown): HttpProblem {
  if (err instanceof HttpProblem) return err;
  return new HttpProblem(500, `internal emulator error: ${err instanceof Error ? err.message : String(err)}`);
}

function tooMany(detail: string, retryAfterSeconds: number, body: { body?: unknown } = {}): HttpProblem {
  return new HttpProblem(429, detail, { ...retryAfter(retryAfterSeconds), ...body });
}

function retryAfter(seconds: number): { headers: Record<string, string> } {
  return { headers: { 'retry-after': String(Math.ceil(seconds)) } };
}

function faultProblem(fault: Fault, defaultRetryAfter: number): HttpProblem {
  // The fault's `body`, when given, is answered instead of the problem document (the error shapes the docs show).
  const body = fault.body === undefined ? {} : { body: fault.body };
  if (fault.status === 429) return tooMany('injected fault: too many requests', fault.retryAfter ?? defaultRetryAfter, body);
  const status = typeof fault.status === 'number' ? fault.status : 500;
  // A 503 may say when to come back as a 429 does (RFC 9110 §10.2.3); only when the fault asks.
  return new HttpProblem(status, `injected fault: HTTP ${status}`, { ...(fault.retryAfter === undefined ? {} : retryAfter(fault.retryAfter)), ...body });
}

/** The answer one byte at a time: a server that keeps a client waiting without ever going quiet. */
function trickle(res: ServerResponse, result: RouteResult | HttpProblem, path: string, requestId: string, delayMs: number): void {
  const body = Buffer.from(result instanceof HttpProblem ? JSON.stringify({ status: result.status, detail: result.message, instance: path, trace: { requestId } }) : JSON.stringify(result.body ?? {}));
  res.writeHead(result.status, { 'content-type': 'application/json', 'content-length': String(body.length) });
  let i = 0;
  const next = (): void => {
    if (res.destroyed || i >= body.length) {
      if (!res.destroyed) res.end();
      return;
    }
    res.write(body.subarray(i, i + 1));
    i += 1;
    setTimeout(next, delayMs).unref();
  };
  next();
}

/** What the request log keeps of a body: the JSON, or a multipart body's text parts and file names. */
function loggedBody(req: IncomingMessage, raw: Buffer): { body?: unknown } {
  if (raw.length === 0) return {};
  const type = req.headers['content-type'];
  try {
    if (isMultipart(type)) {
      const parts = parseMultipart(raw, type ?? '');
      return { body: Object.fromEntries(parts.map((p) => [p.name, p.filename === null ? p.data.toString('utf8') : { filename: p.filename, bytes: p.data.length }])) };
    }
    return { body: JSON.parse(raw.toString('utf8')) as unknown };
  } catch {
    return { body: raw.toString('utf8').slice(0, 1000) };
  }
}
