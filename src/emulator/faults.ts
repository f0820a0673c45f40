/**
 * Injected faults: a queue of deterministic ones (`POST /_emulator/faults`) and a random share
 * (`fault_rate`). Besides error statuses, transport faults:
 * - `drop` performs the request, then closes the socket without answering (the ambiguous create);
 * - `hang` performs the request and never answers (commit, then silence);
 * - `silent` does not perform it and never answers (a dead server that accepts connections);
 * - `trickle` performs it and sends the answer one byte per `delay_ms` (default 1000);
 * - `malformed` performs it and answers 200 with `body` instead (default `{"data": [null, 42]}`);
 * - `late` holds it `delay_ms` (default 35000, past docket's 30 s per attempt), then performs it and
 *   answers, whether or not the client still listens (a gateway that passes a request on late).
 */
import { FieldErrors, isPresent, readNumber, readText, type JsonBody } from './fields.js';
import { LONGEST_TIMER_MS, MAX_RETRY_AFTER_SECONDS } from './limits.js';
import { suggest } from '../config/suggest.js';
import { reportUnknownKeys } from './unknown-keys.js';

/** Statuses a fault answers with without performing the request: passing ones, and final refusals. */
export const FAULT_STATUSES = [400, 403, 404, 409, 422, 429, 500, 502, 503, 504] as const;
export const TRANSPORT_FAULTS = ['drop', 'hang', 'silent', 'trickle', 'malformed', 'late'] as const;
export type TransportFault = (typeof TRANSPORT_FAULTS)[number];
export type FaultStatus = (typeof FAULT_STATUSES)[number] | TransportFault;

/** Same shape as the body of `POST /_emulator/faults`. */
export interface FaultSpec {
  /** Only requests with this method (any when omitted). */
  method?: string;
  /** A substring of the request path, or a route template exactly (e.g. `/review/v1/organizations/:org/playbooks`). */
  path_pattern?: string;
  status: FaultStatus;
  /** How many matching requests get the fault; default 1. */
  count?: number;
  /** Retry-After seconds: on a 429 (default the emulator's `retryAfterSeconds`), and on another status only when given. */
  retry_after?: number;
  /** For `trickle`: milliseconds between bytes (default 1000); for `late`: how long the request is held (default 35000). */
  delay_ms?: number;
  /** For `malformed`: the JSON answered instead of the real one. */
  body?: unknown;
}

export interface Fault {
  status: FaultStatus;
  retryAfter?: number;
  delayMs?: number;
  body?: unknown;
}

export function isTransportFault(status: FaultStatus): status is TransportFault {
  return (TRANSPORT_FAULTS as readonly unknown[]).includes(status);
}

export class FaultQueue {
  private rules: (FaultSpec & { count: number })[] = [];

  add(spec: FaultSpec): void {
    this.rules.push({ ...spec, method: spec.method?.toUpperCase(), count: spec.count ?? 1 });
  }

  clear(): void {
    this.rules = [];
  }

  list(): FaultSpec[] {
    return this.rules.map((r) => ({ ...r }));
  }

  /** The fault for this request, consuming one count of the first rule that matches. */
  take(method: string, path: string, template: string | undefined): Fault | undefined {
    const rule = this.rules.find(
      (r) =>
        (r.method === undefined || r.method === method) &&
        (r.path_pattern === undefined || path.includes(r.path_pattern) || r.path_pattern === template),
    );
    if (!rule) return undefined;
    rule.count -= 1;
    if (rule.count <= 0) this.rules = this.rules.filter((r) => r !== rule);
    return {
      status: rule.status,
      ...(rule.retry_after === undefined ? {} : { retryAfter: rule.retry_after }),
      ...(rule.delay_ms === undefined ? {} : { delayMs: rule.delay_ms }),
      ...(rule.body === undefined ? {} : { body: rule.body }),
    };
  }
}

const RANDOM_FAULTS: FaultStatus[] = [429, 500, 'drop'];

/** With probability `rate`, one of 429, 500 or drop, chosen evenly. */
export function randomFault(rate: number, random: () => number): Fault | undefined {
  if (rate <= 0 || random() >= rate) return undefined;
  const index = Math.min(RANDOM_FAULTS.length - 1, Math.floor(random() * RANDOM_FAULTS.length));
  return { status: RANDOM_FAULTS[index] ?? 500 };
}

const FAULT_METHODS = ['GET', 'POST', 'PATCH', 'PUT', 'DELETE'];
const FAULT_KEYS = ['method', 'path_pattern', 'status', 'count', 'retry_after', 'delay_ms', 'body'];
/** A `:name` part, as route templates write them (no request path holds one). */
const ROUTE_PART = /(^|\/):[^/]/;

/**
 * Why a pattern naming route parts would never match: no path holds `{id}` (as the docs write
 * routes) nor `:id`, so a pattern with either must be a whole route template, said with the closest.
 */
function routePartsProblem(pattern: string, routes: ReadonlyMap<string, readonly string[]>): string | undefined {
  const templates = [...routes.keys()];
  const braces = /\{[^}]*\}/.test(pattern);
  if (!braces && (!ROUTE_PART.test(pattern) || templates.includes(pattern))) return undefined;
  const written = pattern.replace(/\{([^}]*)\}/g, ':$1');
  // The parts named otherwise (`:playbook_id` for `:playbook`): the template of the same shape.
  const shape = (t: string): string => t.replace(/(^|\/):[^/]+/g, '$1:');
  const closest = templates.includes(written) ? written : (templates.find((t) => shape(t) === shape(written)) ?? templates.find((t) => t.endsWith(written)) ?? suggest(written, templates));
  const what = braces ? 'names a route part in braces, which no path or route template holds' : 'names route parts (`:name`) but is no whole route template, so it would never match';
  return `${what}${closest ? `: write it as a route template does (${closest})` : ''}`;
}

/**
 * Validates a fault body from the control route against the emulator's routes (each template with
 * the methods it answers); returns the spec or the field errors.
 */
export function parseFaultSpec(body: JsonBody, routes: ReadonlyMap<string, readonly string[]>): FaultSpec | FieldErrors {
  const errors = new FieldErrors();
  const method = readText(body, 'method', errors, false);
  // A method no request has would never match: a typo, said so.
  if (typeof method === 'string' && !FAULT_METHODS.includes(method.toUpperCase())) errors.add('method', `must be one of ${FAULT_METHODS.join(', ')}`);
  reportUnknownKeys(body, FAULT_KEYS, 'a field of a fault', (key, message) => errors.add(key, message));
  const pathPattern = readText(body, 'path_pattern', errors, false);
  if (typeof pathPattern === 'string') {
    const wrong = routePartsProblem(pathPattern, routes);
    if (wrong) errors.add('path_pattern', wrong);
    // A template with `:name` parts matches only as that route's template: a method it does not
    // answer never comes to it. (One without, `/custom_terms`, also matches longer paths.)
    const answers = ROUTE_PART.test(pathPattern) ? routes.get(pathPattern) : undefined;
    if (answers && typeof method === 'string' && !answers.includes(method.toUpperCase())) errors.add('method', `${pathPattern} answers ${answers.join(', ')}, never ${method.toUpperCase()}`);
  }
  const count = readNumber(body, 'count', errors, 1);
  if (count !== undefined && !Number.isInteger(count)) errors.add('count', 'must be an integer');
  const retryAfter = readNumber(body, 'retry_after', errors, 0, MAX_RETRY_AFTER_SECONDS);
  const delayMs = readNumber(body, 'delay_ms', errors, 0, LONGEST_TIMER_MS);
  const status = body.status;
  const statusOk = FAULT_STATUSES.some((s) => s === status) || TRANSPORT_FAULTS.some((s) => s === status);
  if (!isPresent(body, 'status') || !statusOk) errors.add('status', `must be one of ${FAULT_STATUSES.join(', ')}, ${TRANSPORT_FAULTS.map((t) => `"${t}"`).join(', ')}`);
  // Only a status or `malformed` answers with a body: accepted on another, it would be ignored.
  if (body.body !== undefined && statusOk && typeof status === 'string' && status !== 'malformed') errors.add('body', `is answered only by a status or "malformed", not by "${status}", which sends no body of its own`);
  // Only a status answers with a Retry-After: on a transport fault it would be ignored (probe CC-7).
  if (body.retry_after !== undefined && statusOk && typeof status === 'string') errors.add('retry_after', `is sent only with a status, not by "${status}", which answers no Retry-After`);
  if (errors.list.length > 0) return errors;
  const spec: FaultSpec = { status: status as FaultStatus, count: count ?? 1 };
  if (method !== undefined && method !== null) spec.method = method;
  if (pathPattern !== undefined && pathPattern !== null) spec.path_pattern = pathPattern;
  if (retryAfter !== undefined) spec.retry_after = retryAfter;
  if (delayMs !== undefined) spec.delay_ms = delayMs;
  if (body.body !== undefined) spec.body = body.body;
  return spec;
}
