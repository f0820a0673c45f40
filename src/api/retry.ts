/**
 * Retry policy, kept pure so it can be tested without a network: which outcomes are retried,
 * which leave a create's outcome unknown, and how long to wait.
 */

/**
 * Statuses that mean "try again later"; every other non-2xx is final. A 500 is a server fault, often
 * passing (the emulator's `--fault-rate` answers one of every three faults with it): a read or a
 * PATCH is repeated, a create is looked up first, and any other POST is not repeated (its outcome
 * is unknown, as after a 502/504).
 */
export const RETRYABLE_STATUS: ReadonlySet<number> = new Set([429, 500, 502, 503, 504]);

/**
 * Statuses after which a POST certainly was not processed: 429 (rate limited before handling) and
 * 503 (not served). A 500 may come after the write, and a 502/504 from a gateway that may have
 * passed the request on.
 */
// NOTE(api): assumes the gateway in front of both services rejects with 429/503 before the
// request reaches the application; neither service documents it.
export const NOT_PROCESSED_STATUS: ReadonlySet<number> = new Set([429, 503]);


/** What a connection a proxy closed instead of opening its tunnel fails with (api/proxy-dispatcher.ts). */
export const PROXY_CLOSED = 'DOCKET_PROXY_CLOSED';

/** Failures before the request left this machine: repeating them cannot duplicate anything. */
const NOT_SENT_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  PROXY_CLOSED,
  'UND_ERR_CONNECT_TIMEOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
]);

/** Transient network failures worth another attempt. */
const RETRYABLE_CODES: ReadonlySet<string> = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  PROXY_CLOSED,
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETUNREACH',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
]);

export interface ConnectionFailure {
  /** The first error code found on the error or its causes, e.g. `ECONNREFUSED`. */
  code: string | undefined;
  /** A one-line description for the user (not yet cleaned of secrets). */
  message: string;
  retryable: boolean;
  /** `not-sent`: the request never reached the server; `unknown`: it may have been processed. */
  phase: 'not-sent' | 'unknown';
  /** No complete answer (headers and body) arrived within the attempt's time. */
  timedOut?: boolean;
  /** That time was what was left of the command's time budget, not the request's own timeout. */
  budgetCut?: boolean;
  /** The service had begun its answer (the headers came) when the time ran out. */
  answering?: boolean;
  /** The TLS handshake refused the service's certificate: not trusted here, naming another host, or out of its dates. */
  certificate?: 'untrusted' | 'other-host' | 'expired';
  /** The proxy answered its CONNECT with this status instead of opening the tunnel: nothing reached the service. */
  proxyStatus?: number;
}

/**
 * Classifies an error thrown by undici. `afterHeaders` is true when the failure happened while
 * reading a response body: the server has answered, so the request certainly was sent.
 */
export function classifyConnectionError(err: unknown, afterHeaders = false): ConnectionFailure {
  const codes: string[] = [];
  const messages: string[] = [];
  collect(err, codes, messages, 0);
  const code = codes[0];
  // undici's ProxyAgent: the proxy would not open the tunnel, so the request never left it.
  const refusedByProxy = afterHeaders ? undefined : messages.map((m) => /^Proxy response \((\d{3})\) !== 200 when HTTP Tunneling$/.exec(m)?.[1]).find(Boolean);
  if (refusedByProxy !== undefined) {
    const status = Number(refusedByProxy);
    return { code, message: `the proxy answered HTTP ${status} instead of connecting to the service`, retryable: status >= 500, phase: 'not-sent', proxyStatus: status };
  }
  const tls = afterHeaders ? undefined : handshakeFailure(codes, messages);
  // A server that does not speak TLS at all: no request was sent, and none will be.
  if (tls) return { code, message: tls, retryable: false, phase: 'not-sent' };
  const message = unreadableAnswer(code, messages) ?? openSslReason(messages.find((m) => m.length > 0)) ?? code ?? 'unknown network error';
  const closed = messages.some((m) => /other side closed|socket hang up/i.test(m));
  const retryable = afterHeaders || closed || codes.some((c) => RETRYABLE_CODES.has(c));
  // undici cannot say how much of a request was written, so anything after connecting counts as
  // "maybe processed"; only failures to connect at all are safe.
  const notSent = !afterHeaders && !closed && codes.length > 0 && codes.every((c) => NOT_SENT_CODES.has(c));
  const certificate = codes.includes('ERR_TLS_CERT_ALTNAME_INVALID') ? 'other-host' : codes.some((c) => OUT_OF_DATE_CERTIFICATE_CODES.has(c)) ? 'expired' : codes.some((c) => UNTRUSTED_CERTIFICATE_CODES.has(c)) ? 'untrusted' : undefined;
  return { code, message, retryable, phase: notSent ? 'not-sent' : 'unknown', ...(certificate ? { certificate } : {}) };
}

/** OpenSSL's verification codes, as Node names them, for a certificate no CA this process trusts signed. */
const UNTRUSTED_CERTIFICATE_CODES: ReadonlySet<string> = new Set([
  'DEPTH_ZERO_SELF_SIGNED_CERT',
  'SELF_SIGNED_CERT_IN_CHAIN',
  'UNABLE_TO_VERIFY_LEAF_SIGNATURE',
  'UNABLE_TO_GET_ISSUER_CERT',
  'UNABLE_TO_GET_ISSUER_CERT_LOCALLY',
  'CERT_UNTRUSTED',
  'CERT_SIGNATURE_FAILURE',
]);
/** A certificate outside its dates (or revoked): trusted or not, the clock or the service is what to check. */
const OUT_OF_DATE_CERTIFICATE_CODES: ReadonlySet<string> = new Set(['CERT_HAS_EXPIRED', 'CERT_NOT_YET_VALID', 'CERT_REVOKED']);

/**
 * undici's `bad response`: an answer it will not read. It never asks for `100 Continue`, so it
 * refuses one sent unasked (RFC 9110 lets a server send it; a proxy in between may), as it does a
 * reply to no request. Said by what it most likely is.
 */
function unreadableAnswer(code: string | undefined, messages: readonly string[]): string | undefined {
  if (code !== 'UND_ERR_SOCKET' || !messages.includes('bad response')) return undefined;
  return 'an answer docket cannot read (a "100 Continue" it did not ask for, or a reply to no request)';
}

/** OpenSSL's own text (`80BC…:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/…`) as its reason alone. */
function openSslReason(message: string | undefined): string | undefined {
  const reason = message === undefined ? undefined : /SSL routines:[^:]*:([^:]+)/.exec(message)?.[1];
  return reason === undefined ? message : `TLS error (${reason})`;
}

/**
 * An https URL on a port that speaks plain http: the handshake's first record is not TLS. Said
 * with its cause; nothing was sent. (Other TLS errors keep their usual classification: one on a
 * reused connection may come after the request was written.)
 */
function handshakeFailure(codes: readonly string[], messages: readonly string[]): string | undefined {
  const said = messages.map((m) => /SSL routines:[^:]*:(wrong version number|packet length too long)/.exec(m)?.[1]).find(Boolean);
  const reason = said ?? (codes.includes('ERR_SSL_WRONG_VERSION_NUMBER') ? 'wrong version number' : codes.includes('ERR_SSL_PACKET_LENGTH_TOO_LONG') ? 'packet length too long' : undefined);
  if (reason === undefined) return undefined;
  return `the TLS handshake failed (${reason}): the server does not speak TLS on this port; if it serves plain http, write the URL with http://`;
}

function collect(err: unknown, codes: string[], messages: string[], depth: number): void {
  if (depth > 5 || typeof err !== 'object' || err === null) {
    if (typeof err === 'string') messages.push(err);
    return;
  }
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown };
  if (typeof e.code === 'string' && !codes.includes(e.code)) codes.push(e.code);
  if (typeof e.message === 'string') messages.push(e.message);
  if (e.cause !== undefined) collect(e.cause, codes, messages, depth + 1);
  // Happy-eyeballs connects fail with an AggregateError (one error per address) and an empty message.
  if (Array.isArray(e.errors)) for (const inner of e.errors.slice(0, 3)) collect(inner, codes, messages, depth + 1);
}

export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** `recover`: a create whose outcome is unknown; read before repeating it. */
export type Decision = 'retry' | 'recover' | 'fail';

/**
 * What to do after a failed attempt. GET, PATCH and DELETE set state or read it, so repeating
 * them is harmless; a POST is repeated only when the server surely did not process it, and a
 * create (mode `create`) whose outcome is unknown is checked first. So is a PATCH sent in that
 * mode: one that publishes a version, which a first attempt landing late would publish again
 * over a later apply's (probe RQ-4).
 */
export function decide(
  method: Method,
  mode: 'request' | 'create',
  outcome: { status: number } | { failure: ConnectionFailure },
): Decision {
  if ('status' in outcome) {
    if (!RETRYABLE_STATUS.has(outcome.status)) return 'fail';
    if ((method !== 'POST' && mode !== 'create') || NOT_PROCESSED_STATUS.has(outcome.status)) return 'retry';
    return mode === 'create' ? 'recover' : 'fail';
  }
  const { failure } = outcome;
  if (!failure.retryable) return 'fail';
  if ((method !== 'POST' && mode !== 'create') || failure.phase === 'not-sent') return 'retry';
  return mode === 'create' ? 'recover' : 'fail';
}

/**
 * Whether the service surely did not carry out an attempt (its status, or how it failed): it refused it (a 4xx, or 429/503 before
 * handling it) or never received it. Anything else, a 2xx included, may have changed something.
 */
export function surelyNotCarriedOut(outcome: number | ConnectionFailure): boolean {
  // A redirect (not 304) points elsewhere: this server did not carry the request out.
  if (typeof outcome === 'number') return (outcome >= 300 && outcome < 400 && outcome !== 304) || (outcome >= 400 && outcome < 500) || NOT_PROCESSED_STATUS.has(outcome);
  return outcome.phase === 'not-sent';
}

/** Exponential backoff with full jitter: uniform in [0, min(max, base * 2^attempt)). */
export function backoffDelay(attempt: number, baseDelayMs: number, maxDelayMs: number, random: () => number): number {
  const ceiling = Math.min(maxDelayMs, baseDelayMs * 2 ** attempt);
  return Math.floor(Math.max(0, Math.min(1, random())) * ceiling);
}

/**
 * `Retry-After` as milliseconds (delta-seconds or an HTTP date); undefined if absent or invalid.
 * Not capped: a wait longer than the command's time budget fails at once instead (http.ts).
 */
/** RFC 9110's asctime-date: `Sun Nov  6 08:49:37 1994`. */
const ASCTIME = /^[A-Za-z]{3} [A-Za-z]{3} [ \d]\d \d{2}:\d{2}:\d{2} \d{4}$/;

export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (v === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(v)) return Math.round(Number(v) * 1000);
  // An HTTP date starts with a day name; Date.parse alone would read "-5" as a year.
  if (!/^[A-Za-z]{3}/.test(v)) return undefined;
  // HTTP dates are GMT; asctime's form (`Sun Nov  6 08:49:37 1994`) says no zone, which Date.parse reads as local time (probe WK-1).
  const at = Date.parse(ASCTIME.test(v) ? `${v} GMT` : v);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}
