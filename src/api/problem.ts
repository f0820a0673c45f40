/**
 * Reading RFC 9457 problem bodies and choosing the hint for a failed request. Everything that
 * comes from the service is cleaned here before it can reach a message or a terminal.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { decodeEntities } from '../util/entities.js';
import { isPlainObject } from '../util/plain.js';
import type { ServiceName } from './types.js';
import { DocketError, NO_FIELD } from '../errors.js';
import { stripControl } from '../util/control-text.js';
import { markInvisible } from '../config/quote.js';
import { urlProblem } from '../config/url-policy.js';
import { withoutSecrets } from '../config/url-secrets.js';

export interface Problem {
  title?: string;
  detail?: string;
  fieldErrors?: { field: string; message: string }[];
  requestId?: string;
}

/** Service text as one line of an error message: it must not drive the terminal. */
export function oneLineText(text: string): string {
  // Whole escape sequences go (not just their ESC: `[31m` would stay), and line breaks (the
  // Unicode line and paragraph separators too) become spaces; what prints as nothing or as a
  // space shows as `<U+200B>`, as the reports' unquoted text does.
  return markInvisible(stripControl(text).replace(/\s*[\n\u2028\u2029]\s*|\t/g, ' '));
}

/** Keeps messages to a readable size when a gateway sends a page of text. */
export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const v = headers[name.toLowerCase()];
  if (Array.isArray(v)) return v[0];
  return typeof v === 'string' ? v : undefined;
}

/**
 * Extracts title, detail, field errors and request id from an error response. `clean` removes
 * control characters and secrets; it is applied to every string taken from the response.
 */
/**
 * A Content-Encoding docket never asks for (it sends no Accept-Encoding), when an answer has one:
 * its body is compressed bytes, whose text would print as garbage (probe UB-4).
 */
export function unaskedEncoding(headers: IncomingHttpHeaders): string | undefined {
  const encoding = headerValue(headers, 'content-encoding')?.trim();
  return encoding === undefined || encoding === '' || encoding.toLowerCase() === 'identity' ? undefined : encoding;
}

export function parseProblem(text: string, headers: IncomingHttpHeaders, clean: (s: string) => string): Problem {
  const problem: Problem = {};
  const body = parseJsonObject(text);
  // Compressed bytes (gzip) would print as garbage; a body that reads as JSON is read whatever the
  // header says (a server that sends `Content-Encoding: UTF-8`: second read SR93B-5).
  const encoding = body ? undefined : unaskedEncoding(headers);
  if (encoding !== undefined) problem.detail = `a body encoded as ${truncate(clean(encoding), 40)} (Content-Encoding), which docket did not ask for and does not read`;
  const str = (v: unknown, max: number): string | undefined => {
    if (typeof v !== 'string') return undefined;
    const s = truncate(clean(v).trim(), max);
    return s === '' ? undefined : s;
  };

  if (body) {
    problem.title = str(body.title, 200);
    // NOTE(api): `message` / `error` are fallbacks for a gateway or framework error that is not
    // problem+json; neither service documents them.
    // An OAuth-style `error` code says little beside its `error_description` (probe JW).
    const described = str(body.error_description, 2000);
    problem.detail = str(body.detail, 2000) ?? str(body.message, 2000) ?? (described !== undefined ? `${str(body.error, 200) ?? 'error'}: ${described}` : str(body.error, 2000));
    const fieldErrors = parseFieldErrors(body.errors ?? topLevelFieldErrors(body), str);
    if (fieldErrors.length > 0) problem.fieldErrors = fieldErrors;
    const trace = isPlainObject(body.trace) ? body.trace : undefined;
    // NOTE(api): `trace.requestId` is documented for the agreements service (Zuplo); `request_id`
    // (in `trace` or beside it, as other gateways write it) is a guess.
    problem.requestId = str(trace?.requestId, 200) ?? str(trace?.request_id, 200) ?? str(body.request_id, 200);
  } else if (encoding === undefined) {
    const type = headerValue(headers, 'content-type') ?? '';
    // A short plain-text body (a proxy's "Bad Gateway") says more than the status alone; of an HTML
    // page (a gateway's), its title says what went wrong, named as a page's (probe KM-2).
    if (type.startsWith('text/plain')) problem.detail = str(text, 300);
    else if (/html/i.test(type) || /^\s*<(?:!doctype html|html|head)\b/i.test(text)) {
      const title = pageTitle(text);
      const shown = title ? str(title, 200) : undefined;
      problem.detail = shown ? `an HTML page titled ${JSON.stringify(shown)}` : 'an HTML page';
    }
  }

  problem.requestId ??=
    str(headerValue(headers, 'x-request-id'), 200) ??
    str(headerValue(headers, 'cf-ray'), 200) ??
    str(headerValue(headers, 'zp-rid'), 200) ??
    (body && isPlainObject(body.trace) ? str(body.trace.rayId, 200) : undefined);

  for (const key of Object.keys(problem) as (keyof Problem)[]) if (problem[key] === undefined) delete problem[key];
  return problem;
}

/**
 * What an `errors` member says first, read as an error answer's are (RFC 9457 `[{field, message}]`,
 * JSON:API `[{status, title, detail}]`, plain messages, messages by field); undefined when it
 * holds none, or says nothing readable.
 */
export function firstError(errors: unknown): string | undefined {
  if (Array.isArray(errors) ? errors.length === 0 : !isPlainObject(errors) || Object.keys(errors).length === 0) return undefined;
  const first: unknown = Array.isArray(errors) ? errors[0] : undefined;
  const status = isPlainObject(first) && typeof first.status === 'string' ? `${first.status}: ` : '';
  const str = (v: unknown, max: number): string | undefined => (typeof v === 'string' && v.trim() !== '' ? truncate(v.trim(), max) : undefined);
  const said = parseFieldErrors(errors, str)[0];
  const title = isPlainObject(first) && typeof first.title === 'string' && first.title !== said?.message ? `${first.title}: ` : '';
  return said ? `${status}${title}${said.field === NO_FIELD ? '' : `${said.field}: `}${said.message}` : '';
}

/** Keys of an error answer that are no field's: what RFC 9457, gateways and tracing put beside the messages. */
const NOT_FIELDS = new Set(['type', 'title', 'status', 'detail', 'instance', 'message', 'error', 'error_description', 'trace', 'request_id', 'code']);

/**
 * NOTE(api): Rails' own `render json: record.errors` answers messages by field with no `errors`
 * around them (`{"name": ["can't be blank"]}`): read as such when every other key holds a list of
 * messages, so a refusal says why and a refused page size is recognised (probe JE-2).
 */
function topLevelFieldErrors(body: Record<string, unknown>): Record<string, unknown> | undefined {
  const fields = Object.entries(body).filter(([key]) => !NOT_FIELDS.has(key));
  const messages = (v: unknown): boolean => Array.isArray(v) && v.length > 0 && v.every((m) => typeof m === 'string');
  return fields.length > 0 && fields.every(([, v]) => messages(v)) ? Object.fromEntries(fields) : undefined;
}

function parseFieldErrors(
  errors: unknown,
  str: (v: unknown, max: number) => string | undefined,
): { field: string; message: string }[] {
  const out: { field: string; message: string }[] = [];
  // One message as a string (`{"errors": "actions is too long"}`), as some frameworks answer (probe JW).
  const one = str(errors, 500);
  if (one !== undefined) return [{ field: NO_FIELD, message: one }];
  // NOTE(api): neither service documents `errors` beyond RFC 9457; a gateway's or framework's
  // plain messages (`["page[size] must be …"]`) and messages by field (`{"name": ["can't be blank"]}`)
  // are read too, so what they say reaches the error (and a refused page size is recognised).
  if (isPlainObject(errors)) {
    for (const [field, messages] of Object.entries(errors).slice(0, 50)) {
      for (const m of (Array.isArray(messages) ? messages : [messages]).slice(0, 10)) {
        const message = str(m, 500);
        if (message !== undefined) out.push({ field: str(field, 200) ?? NO_FIELD, message });
      }
    }
    return out;
  }
  if (!Array.isArray(errors)) return [];
  for (const e of errors.slice(0, 50)) {
    const plain = str(e, 500);
    if (plain !== undefined) out.push({ field: NO_FIELD, message: plain });
    if (!isPlainObject(e)) continue;
    // NOTE(api): `[{field, message}]` is our decision (reference/api.md); the JSON:API shape
    // `{source: {pointer}, detail}` is accepted too in case a service uses it.
    const source = isPlainObject(e.source) ? e.source : undefined;
    const pointer = str(source?.pointer, 200);
    const field = str(e.field, 200) ?? (pointer === undefined ? undefined : fieldOfPointer(pointer)) ?? str(source?.parameter, 200);
    // A JSON:API error may carry only its `code` (`too_long`): the one word of why, said (probe NG-1).
    const message = str(e.message, 500) ?? str(e.detail, 500) ?? str(e.title, 500) ?? (str(e.code, 200) === undefined ? undefined : `code ${str(e.code, 200)!}`);
    if (message !== undefined) out.push({ field: field ?? NO_FIELD, message });
  }
  return out;
}

/** A JSON:API pointer as the field it names, as the other shapes name it (`/data/attributes/actions` → `actions`, probe NA-1). */
function fieldOfPointer(pointer: string): string {
  const attribute = /^\/data\/(?:attributes|relationships)\/(.+)$/.exec(pointer)?.[1];
  return attribute === undefined ? pointer : attribute.split('/').map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~')).join('.');
}

function parseJsonObject(text: string): Record<string, unknown> | undefined {
  if (text.trim() === '') return undefined;
  try {
    const v: unknown = JSON.parse(text);
    return isPlainObject(v) ? v : undefined;
  } catch {
    return undefined;
  }
}

/** A redirect's target, read against the URL asked for (`/new/v1/a` and `//host/…` count); its scheme alone when not http(s). */
function redirectTarget(location: string, requestUrl: string): URL | { otherScheme: string } | undefined {
  try {
    const url = new URL(location, requestUrl);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : { otherScheme: url.protocol };
  } catch {
    return undefined;
  }
}

/** What a redirect's hint says: where it leads (no credentials, query or fragment), and the URL to set when it implies one. */
function redirectHint(service: ServiceName, path: string, redirect: { location?: string; baseUrl: string; requestUrl: string }): string {
  const { location, baseUrl, requestUrl } = redirect;
  const read = location ? redirectTarget(location, requestUrl) : undefined;
  const target = read instanceof URL ? read : undefined;
  // As read, so a password the parser finds (`/\\user:pw@host/…`) is never quoted; as written only when it cannot be read.
  const shownTarget = target ? `${target.protocol}//${target.host}${target.pathname}${target.search ? '?…' : ''}` : location && !read ? withoutSecrets(location) : undefined;
  const to = read && 'otherScheme' in read ? ` to a ${JSON.stringify(truncate(stripControl(read.otherScheme), 20))} URL, not http(s)` : shownTarget ? ` to ${JSON.stringify(truncate(stripControl(shownTarget), 120))}` : '';
  // The same path under another base: that base is the service's URL now.
  const base = target?.pathname.endsWith(path) ? stripControl(`${target.protocol}//${target.host}${target.pathname.slice(0, target.pathname.length - path.length)}`) : undefined;
  const loop = target !== undefined && `${target.origin}${target.pathname}${target.search}` === requestUrl;
  const what = loop
    ? 'it redirects to the URL it was asked for (a loop): check the service URL, and report it to the service'
    : base === undefined || base === baseUrl
      ? "set the service's URL to where it answers now"
      : urlProblem(base, 'the URL')
        ? `it redirects to ${JSON.stringify(truncate(base, 120))}, plain http, which docket refuses for a host that is not loopback (the key would travel unencrypted): check the service URL`
        : `if the service moved there, set its URL to ${JSON.stringify(truncate(base, 120))}`;
  return `the ${service} service redirects this request${to}; docket does not follow redirects (the API key would go along): ${what}`;
}

/**
 * The environment variable a service's key was read from (`from`, when the caller knows it: the one
 * a person is to check), else the names the CLI reads it from.
 */
export function apiKeyVariable(service: ServiceName, from?: string): string {
  if (from !== undefined) return from;
  return service === 'review' ? 'DOCKET_REVIEW_API_KEY (or DOCKET_API_KEY)' : 'DOCKET_AGREEMENTS_API_KEY (or DOCKET_API_KEY)';
}

/** Collections of the agreements service that vanish (404) when the feature is off. */
// NOTE(api): public docs say custom terms and templates answer 404 on every path when the
// feature is not enabled. Only a 404 on the collection itself (its list, a create) is read so:
// docket lists a kind before it reads one of its objects, so a 404 on an object's own path comes
// after its list answered, and means that object is gone.
const FEATURE_GATED_COLLECTIONS = ['/v1/custom_terms', '/v1/custom_templates'];

export const FEATURE_OFF_HINT =
  'custom terms and templates are not enabled for this organization (the service answers 404 on every path when the feature is off); ask Common Paper to enable them or remove those kinds from the configuration';

/** Whether a service's answer says the organization has custom terms and templates off. */
export function isFeatureOff(error: unknown): boolean {
  return error instanceof DocketError && error.hint === FEATURE_OFF_HINT;
}

/** The hint for a service's answer, or undefined when the message says it all. */
/** The command whose next run shows what a write left undone: apply's are in the next plan; `docket test`'s in none. */
export type NextRun = 'plan' | 'test';

/**
 * What the next run does about a write of unknown outcome: a plan reads whether it was made; a
 * test run makes again what it has no record of, as an upload whose answer was lost (probe RH-3).
 */
export const NEXT_RUN_SAYS: Record<NextRun, { whether: string; taken: string; failed: string; pending: string; notFound: string }> = {
  plan: {
    whether: 'the next plan shows whether it did',
    taken: 'live already: the next plan shows whether it is',
    failed: 'the next plan shows what is left, and applying it converges',
    pending: 'run `docket plan` again in a few minutes: it shows whether the service carried it out (then there is nothing to do), and `docket apply` sends what is still missing',
    notFound: 'run plan again: if the object was created it shows up there, and apply does not create it twice',
  },
  test: {
    whether: 'the next docket test makes it again if it has no record of it (an upload or a review whose answer was lost)',
    taken: 'made already: the next docket test makes it again if it has no record of it (an upload or a review whose answer was lost)',
    failed: 'running docket test again is safe',
    pending: 'run `docket test` again in a few minutes: it makes again what it has no record of (an upload or a review whose answer was lost)',
    notFound: 'run docket test again: it makes again what it has no record of',
  },
};


export function hintForStatus(service: ServiceName, status: number, path: string, redirect?: { location?: string; baseUrl: string; requestUrl: string }, keyFrom?: string, method = 'GET', nextRun: NextRun = 'plan'): string | undefined {
  if (status >= 300 && status < 400 && status !== 304 && redirect) return redirectHint(service, path, redirect);
  if (status === 401) return `check ${apiKeyVariable(service, keyFrom)}: the ${service} service did not accept the API key`;
  if (status === 403) return `check ${apiKeyVariable(service, keyFrom)}: the API key is not allowed to do this on the ${service} service`;
  // A base URL written with the API's version: docket adds `/v1` to every path, so each is `/v1/v1/…` (probe CI-2).
  if (status === 404 && redirect && /\/v1\/?$/.test(redirect.baseUrl)) return `the ${service} service URL (${redirect.baseUrl}) ends with /v1, which docket adds to every path itself: remove it from \`${service}.url\` in docket.yaml, or from ${service === 'review' ? 'DOCKET_REVIEW_URL' : 'DOCKET_AGREEMENTS_URL'} where that sets it`;
  if (status === 404 && service === 'agreements' && FEATURE_GATED_COLLECTIONS.some((p) => path === p || path === `${p}/`)) return FEATURE_OFF_HINT;
  if (status === 404 && service === 'agreements' && FEATURE_GATED_COLLECTIONS.some((p) => path.startsWith(`${p}/`))) {
    return 'it is not there any more: it may have been deleted or archived in the app since docket read it; run the command again (for a saved plan, make a new one)';
  }
  // --max-rps is what paces a known quota: --concurrency 1 still refused was told to lower it (probe CC-4).
  if (status === 429) return 'the service is still rate limiting after several retries; set --max-rps (or `max_rps:` in docket.yaml) to the quota the service allows, or try again later';
  // NOTE(api): neither service documents a size limit; a 413 is the body's size, which no rerun changes (probe JN-3).
  if (status === 413) return `the ${service} service takes no request this large: make smaller what it sends, the file it uploads (a PDF, a Word file) or the text (a rule's actions, a term's body), or split it`;
  // A read fails drift and pull as much as apply: not a word about apply there (probe HH).
  if (status === 500 || status === 502 || status === 503 || status === 504) return method === 'GET' ? 'the service failed or is unavailable; try again later: running the command again is safe' : nextRun === 'test' ? `the service failed or is unavailable; try again later: ${NEXT_RUN_SAYS.test.failed}` : `the service failed or is unavailable; try again later (${NEXT_RUN_SAYS.plan.failed})`;
  return undefined;
}

/** How much of a page is looked through for its title: answers may be 64 MB. */
const TITLE_WITHIN = 64 * 1024;

/**
 * A page's title, from its head when it has one (not an inline SVG's), found by position rather
 * than a pattern, which took minutes on a page of many `<title` (second read RV9-2).
 */
function pageTitle(text: string): string | undefined {
  const head = text.slice(0, TITLE_WITHIN);
  const lower = head.toLowerCase();
  const from = Math.max(0, lower.indexOf('<head'));
  const open = lower.indexOf('<title', from);
  const start = open < 0 ? -1 : lower.indexOf('>', open);
  const end = start < 0 ? -1 : lower.indexOf('</title', start);
  if (end < 0) return undefined;
  const title = decodeEntities(head.slice(start + 1, end)).replace(/\s+/g, ' ').trim();
  return title === '' ? undefined : title;
}
