/**
 * Control routes under `/_emulator/` (no API key; they exist only in the emulator): statistics,
 * reset / load a seed, the state snapshot, runtime settings and queued faults.
 */
import type { DocxConversion } from '../agreements-state.js';
import { FieldErrors, isPresent, readNumber, type JsonBody } from '../fields.js';
import { LONGEST_TIMER_MS, MAX_LATENCY_MS, MAX_RATE_LIMIT, MAX_RETRY_AFTER_SECONDS, MIN_RATE_LIMIT } from '../limits.js';
import { parseFaultSpec, type FaultQueue } from '../faults.js';
import { badRequest, validationFailed } from '../problem.js';
import type { HttpMethod, RequestContext, Route, RouteResult } from '../router.js';
import { parseSeed, type EmulatorSeed } from '../seed.js';
import type { EmulatorState } from '../store.js';
import { isSecretKey } from '../../config/api-keys.js';
import { emulatorOrganizationKey } from '../identity.js';
import { withoutSeedKeys } from '../seed-refusal.js';
import type { LoggedRequest } from '../request-log.js';
import type { EmulatorStats } from '../stats.js';
import { inertVariants, readVariants, variantsJson, type EmulatorVariants } from '../variants.js';
import { reportUnknownKeys } from '../unknown-keys.js';

/**
 * The state as the route shows it: a secret API key of a seed (one copied from a real organization)
 * written `[redacted]`, as the banner never prints one; the route asks no key (probe RC-4). The
 * state file keeps them: the emulator needs them to answer after a restart.
 */
function withoutSecretApiKeys(state: EmulatorState): EmulatorState {
  for (const org of Object.values(state.organizations)) org.api_keys = org.api_keys.map((key) => (isSecretKey(key.trim()) && key !== emulatorOrganizationKey(org.id) ? '[redacted]' : key));
  return state;
}

/** Settings that can change while the emulator runs. */
export interface EmulatorConfig {
  latencyMs: number;
  /** 0..1: share of service requests answered with a random fault. */
  faultRate: number;
  /** Requests per second; 0 means unlimited. */
  rateLimit: number;
  retryAfterSeconds: number;
  /** How long a docx conversion stays `processing`. */
  conversionDelayMs: number;
  /** `failed` makes every docx conversion fail; `ready` leaves it to each organization's seed option. */
  docxConversion: DocxConversion;
  /** How long a review (and a counterproposal) stays `processing`. */
  reviewDelayMs: number;
  /** The documented shape the services answer in. */
  variants: EmulatorVariants;
}

/** What the control routes act on; implemented by the server. */
export interface EmulatorControls {
  stats(): EmulatorStats;
  resetStats(): void;
  requests(): LoggedRequest[];
  /** Restores the seed state (a new seed when given); throws when the seed contradicts itself. */
  reset(seed?: EmulatorSeed): void;
  config(): EmulatorConfig;
  configure(patch: Partial<EmulatorConfig>): EmulatorConfig;
  readonly faults: FaultQueue;
  /** The route templates a fault's `path_pattern` may name, with the methods each answers. */
  routeTemplates(): Map<string, string[]>;
}

const BASE = '/_emulator';

export function controlRoutes(controls: EmulatorControls): Route[] {
  const r = (method: HttpMethod, path: string, handle: (ctx: RequestContext) => RouteResult): Route => ({
    method,
    template: `${BASE}${path}`,
    scope: 'control',
    handle,
  });
  return [
    r('GET', '/stats', () => ({ status: 200, body: controls.stats() })),
    r('GET', '/requests', () => ({ status: 200, body: { requests: controls.requests() } })),
    r('POST', '/reset', (ctx) => reset(ctx, controls)),
    r('GET', '/state', (ctx) => ({ status: 200, body: withoutSecretApiKeys(ctx.store.snapshot()) })),
    r('GET', '/config', () => ({ status: 200, body: configBody(controls.config()) })),
    r('PUT', '/config', (ctx) => ({ status: 200, body: configBody(controls.configure(readConfigPatch(ctx))), persist: false })),
    r('GET', '/faults', () => ({ status: 200, body: { faults: controls.faults.list() } })),
    r('POST', '/faults', (ctx) => addFault(ctx, controls)),
    r('DELETE', '/faults', () => {
      controls.faults.clear();
      return { status: 204, persist: false };
    }),
  ];
}

function reset(ctx: RequestContext, controls: EmulatorControls): RouteResult {
  const body = ctx.json();
  let seed: EmulatorSeed | undefined;
  try {
    seed = Object.keys(body).length === 0 ? undefined : parseSeed(body);
    controls.reset(seed);
  } catch (err) {
    // Never a key, the seed's or this emulator's own, as `--seed` refuses a seed (probe GA).
    throw badRequest(withoutSeedKeys(err instanceof Error ? err.message : String(err), body, { organizations: Object.values(ctx.store.state.organizations) }));
  }
  controls.resetStats();
  return { status: 200, body: { reset: true, organizations: Object.keys(ctx.store.state.organizations) } };
}

function configBody(c: EmulatorConfig): Record<string, unknown> {
  const inert = inertVariants(c.variants);
  return {
    variants: variantsJson(c.variants),
    // What another variant turns off, as the banner says it (probe LG-1).
    ...(Object.keys(inert).length > 0 ? { no_effect: inert } : {}),
    latency_ms: c.latencyMs,
    fault_rate: c.faultRate,
    rate_limit: c.rateLimit,
    retry_after_seconds: c.retryAfterSeconds,
    conversion_delay_ms: c.conversionDelayMs,
    docx_conversion: c.docxConversion,
    review_delay_ms: c.reviewDelayMs,
  };
}

/** The settings `PUT /_emulator/config` takes: any other key is a typo that would change nothing. */
const CONFIG_KEYS = ['latency_ms', 'fault_rate', 'rate_limit', 'retry_after_seconds', 'conversion_delay_ms', 'review_delay_ms', 'docx_conversion', 'variants'];

function readConfigPatch(ctx: RequestContext): Partial<EmulatorConfig> {
  const body = ctx.json();
  const errors = new FieldErrors();
  reportUnknownKeys(body, CONFIG_KEYS, 'a setting', (key, message) => errors.add(key, message));
  const patch: Partial<EmulatorConfig> = {};
  const latency = readNumber(body, 'latency_ms', errors, 0, MAX_LATENCY_MS);
  const faultRate = readNumber(body, 'fault_rate', errors, 0, 1);
  const rateLimit = readRateLimit(body, errors);
  const retryAfter = readNumber(body, 'retry_after_seconds', errors, 0, MAX_RETRY_AFTER_SECONDS);
  const conversionDelay = readNumber(body, 'conversion_delay_ms', errors, 0, LONGEST_TIMER_MS);
  const reviewDelay = readNumber(body, 'review_delay_ms', errors, 0, LONGEST_TIMER_MS);
  const docx = body.docx_conversion;
  if (isPresent(body, 'docx_conversion') && docx !== 'ready' && docx !== 'failed') errors.add('docx_conversion', 'must be "ready" or "failed"');
  const variants = readVariants(body.variants, errors);
  errors.throwIfAny();
  if (Object.keys(variants).length > 0) patch.variants = variants as EmulatorVariants;
  if (latency !== undefined) patch.latencyMs = latency;
  if (faultRate !== undefined) patch.faultRate = faultRate;
  if (rateLimit !== undefined) patch.rateLimit = rateLimit;
  if (retryAfter !== undefined) patch.retryAfterSeconds = retryAfter;
  if (conversionDelay !== undefined) patch.conversionDelayMs = conversionDelay;
  if (reviewDelay !== undefined) patch.reviewDelayMs = reviewDelay;
  if (docx === 'ready' || docx === 'failed') patch.docxConversion = docx;
  return patch;
}

/** 0 and null turn the rate limit off; any other value is held to `--rate-limit`'s range. */
function readRateLimit(body: JsonBody, errors: FieldErrors): number | undefined {
  if (body.rate_limit === null || body.rate_limit === 0) return 0;
  if (!isPresent(body, 'rate_limit')) return undefined;
  const rate = readNumber(body, 'rate_limit', new FieldErrors(), MIN_RATE_LIMIT, MAX_RATE_LIMIT);
  if (rate === undefined) errors.add('rate_limit', `must be 0 or null (off), or a number between ${MIN_RATE_LIMIT} and ${MAX_RATE_LIMIT}`);
  return rate;
}

function addFault(ctx: RequestContext, controls: EmulatorControls): RouteResult {
  const spec = parseFaultSpec(ctx.json(), controls.routeTemplates());
  if (spec instanceof FieldErrors) throw validationFailed(spec.list);
  controls.faults.add(spec);
  return { status: 201, body: { faults: controls.faults.list() }, persist: false };
}
