/**
 * The pure half of reading a collection: checking each page's shape, dropping archived items,
 * and deciding which page comes next from whatever paging members the service sent. Kept apart
 * from the transport (http.ts) so every documented paging style can be tested with plain objects.
 */
import { showJson } from '../config/quote.js';
import { ApiError } from '../errors.js';
import { isPlainObject } from '../util/plain.js';
import type { ApiResource } from './types.js';
import { UUID, UUID_SEGMENTS } from '../util/uuid.js';
import { idProblem, shortId } from './path-segment.js';
import { firstError } from './problem.js';
import { decodedOrAsWritten } from '../util/uri-decode.js';

/** What docket asks for first; smaller sizes are tried when a service refuses it. */
export const PAGE_SIZE = 100;

/**
 * NOTE(api): page sizes tried in turn when a service rejects `page[size]` (no maximum is
 * documented); `null` means "send no page[size] at all".
 */
export function smallerPageSize(size: number | null): number | null | false {
  if (size === null) return false;
  if (size > 50) return 50;
  if (size > 25) return 25;
  return null;
}

/**
 * The page size to ask for after a page of `size` was over the answer limit: 10, then 1, each page
 * then holding less; false when no smaller one is left (one object over the limit, or a size the
 * service chose).
 */
export function pageSizeUnderLimit(size: number | null): number | false {
  if (size === null) return false;
  if (size > 10) return 10;
  if (size > 1) return 1;
  return false;
}

/** A 400 or 422 that names the page parameter: the service refused the page size, not the request. */
export function isPageSizeRejection(error: unknown): boolean {
  if (!(error instanceof ApiError) || (error.status !== 400 && error.status !== 422)) return false;
  const d = error.details;
  const texts = [d.title, d.detail, ...(d.fieldErrors ?? []).flatMap((f) => [f.field, f.message])];
  return texts.some((t) => typeof t === 'string' && /\bpage\b|page\[|page%5b/i.test(t));
}

/** Endpoints remember their page size by path with ids left out, so every rule list shares one. */
export function endpointKey(path: string): string {
  return path.replace(UUID_SEGMENTS, '/:id');
}

/**
 * Why a page is not a list of resources (index and what was wrong), or undefined when it is.
 * `identity`: the attribute docket matches items by (`name`, `email`); an item without it would
 * look absent, and be created again or deleted, so it is malformed too.
 */
export function listProblem(body: unknown, identity?: string): string | undefined {
  const errors = errorsProblem(body);
  if (errors) return errors;
  const data = isPlainObject(body) ? body.data : undefined;
  if (!Array.isArray(data)) return '"data" is not an array';
  /** Where each id was first seen: two items of one id would be matched, deleted or archived as each other. */
  const at = new Map<string, number>();
  for (let i = 0; i < data.length; i++) {
    const item: unknown = data[i];
    if (!isPlainObject(item)) return `item ${i} of "data" is not an object (${describe(item)})`;
    if (typeof item.id !== 'string' || item.id === '') return `item ${i} of "data" has no string "id"`;
    const unsafe = idProblem(item.id);
    if (unsafe) return `item ${i} of "data" ${unsafe}`;
    const first = at.get(item.id);
    if (first !== undefined) return `items ${first} and ${i} of "data" have the same id (${shortId(item.id)})`;
    at.set(item.id, i);
    if (!isPlainObject(item.attributes)) return `item ${i} of "data" (id ${shortId(item.id)}) has no "attributes" object`;
    const key = identity === undefined ? undefined : item.attributes[identity];
    if (identity !== undefined && (typeof key !== 'string' || key.trim() === '')) {
      return `item ${i} of "data" (id ${shortId(item.id)}) has no "${identity}" (${key === undefined ? 'missing' : showJson(key, 64)})`;
    }
  }
  return undefined;
}

/**
 * NOTE(api): `meta.pagination.records` counts the items a list holds (api.md), archived ones
 * included only where they are listed. A list of one page whose items are not that count
 * contradicts itself (an empty `data` that says 7 records): read as it is, nothing would look live,
 * every object would be created again, and pull would take every file out. One page: the first
 * read (`firstPage`), naming no next page (by number or by link) and no last page past the first.
 * So does an empty first page that names pages after it, and a first page that names a last page
 * past it but no next one: read as the whole list, the items of its other pages read as removed
 * live (probe BD-1).
 */
export function countProblem(body: Record<string, unknown>, items: number, firstPage = true): string | undefined {
  if (!firstPage) return undefined;
  const meta = isPlainObject(body.meta) ? body.meta : undefined;
  const p = meta && isPlainObject(meta.pagination) ? meta.pagination : undefined;
  const links = isPlainObject(body.links) ? body.links : undefined;
  const noNext = (p?.next === null || p?.next === undefined) && (links?.next === null || links?.next === undefined || links.next === '');
  const atMostOne = (n: unknown): boolean => n === undefined || n === null || n === 0 || n === 1 || n === '0' || n === '1';
  // A first page with nothing on it that names pages after it: the pages of a list fill from the first.
  if (items === 0 && (!noNext || !atMostOne(p?.last))) return `"data" holds no item, yet the answer names pages after it`;
  if (noNext && atMostOne(p?.current) && !atMostOne(p?.last)) return `the first page says the list has ${showJson(p!.last, 20)} pages ("meta.pagination.last"), but names no next page`;
  // Paging by links alone, its `links.last` naming a later page (second read SR100B-4).
  const lastLinked = noNext && p?.last === undefined ? linkedPageNumber(links?.last) : undefined;
  if (lastLinked !== undefined && lastLinked > 1) return `the first page names page ${lastLinked} as its last ("links.last"), but no next page`;
  if (!p || typeof p.records !== 'number' || !Number.isInteger(p.records)) return undefined;
  const onlyPage = atMostOne(p.current) && atMostOne(p.last) && noNext;
  return onlyPage && p.records !== items ? `"data" holds ${items} item${items === 1 ? '' : 's'}, but "meta.pagination.records" says the list holds ${p.records}` : undefined;
}

/** The `page[number]` a paging link names, when it names one. */
function linkedPageNumber(link: unknown): number | undefined {
  if (typeof link !== 'string' || link === '') return undefined;
  try {
    const n = Number(new URL(link, 'http://docket.invalid/').searchParams.get('page[number]') ?? '');
    return Number.isSafeInteger(n) && n > 0 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** The count of items a page says its list holds (\`meta.pagination.records\`), when it says one. */
export function statedRecords(body: Record<string, unknown>): number | undefined {
  const meta = isPlainObject(body.meta) ? body.meta : undefined;
  const records = meta && isPlainObject(meta.pagination) ? meta.pagination.records : undefined;
  return typeof records === 'number' && Number.isInteger(records) && records >= 0 ? records : undefined;
}

/**
 * NOTE(api): a list read over several pages that all state one count of records, but whose pages
 * held another number of items, lost (or gained) items on the way: a page answered short would
 * read its missing objects as removed live (drift reports them, pull deletes their files, apply
 * makes a second copy of a term no API call can delete). Pages stating different counts say the
 * list changed while it was read: http.ts reads it again when a later page states fewer.
 */
export function pagesCountProblem(stated: ReadonlySet<number>, read: number, pages: number): string | undefined {
  if (pages < 2 || stated.size !== 1) return undefined;
  const [records] = stated;
  return records === read ? undefined : `its ${pages} pages hold ${read} item${read === 1 ? '' : 's'}, but each says in "meta.pagination.records" that the list holds ${records}`;
}

/** The `data.attributes` of an answer of one object, when it has them. */
export function attributesOf(answer: unknown): Record<string, unknown> | undefined {
  return isPlainObject(answer) && isPlainObject(answer.data) && isPlainObject(answer.data.attributes) ? answer.data.attributes : undefined;
}

/**
 * Why an answer that carries `data` is not a resource (or a list of them), or undefined when it is
 * one, or carries no `data` at all (a 204, or an endpoint that is not JSON:API).
 */
export function bodyProblem(body: unknown): string | undefined {
  const errors = errorsProblem(body);
  if (errors) return errors;
  if (!isPlainObject(body) || !('data' in body)) return undefined;
  const data = body.data;
  if (Array.isArray(data)) return listProblem(body);
  if (!isPlainObject(data)) return `"data" is not an object (${describe(data)})`;
  if (typeof data.id !== 'string' || data.id === '') return '"data" has no string "id"';
  const unsafe = idProblem(data.id);
  if (unsafe) return `"data" ${unsafe}`;
  if (!isPlainObject(data.attributes)) return `"data" (id ${shortId(data.id)}) has no "attributes" object`;
  return undefined;
}

/**
 * Why an answer is not one resource (what a read of one object must return), or undefined when
 * it is: an empty body or one without `data` would otherwise reach the kind as `undefined`.
 */
export function resourceProblem(body: unknown, id?: string): string | undefined {
  if (body === undefined) return 'the body is empty';
  if (!isPlainObject(body)) return `the body is not an object (${describe(body)})`;
  if (!('data' in body)) return errorsProblem(body) ?? 'it has no "data"';
  if (Array.isArray(body.data)) return '"data" is a list, not one object';
  const problem = bodyProblem(body);
  if (problem !== undefined || id === undefined) return problem;
  // Another object's answer (a cache or a gateway mixing up responses) would be read, diffed and pulled as this one.
  const got = (body.data as { id: string }).id;
  // A UUID is the same in either case; any other id only as written.
  const same = got === id || (UUID.test(got) && UUID.test(id) && got.toLowerCase() === id.toLowerCase());
  return same ? undefined : `"data" is another object (id ${shortId(got)}), not the one asked for (${shortId(id)})`;
}

/**
 * JSON:API keeps "errors" and "data" apart: an answer with both (or "errors" alone, with a success
 * status) reports a failure, and its "data" (often empty) is not the list or object asked for.
 */
function errorsProblem(body: unknown): string | undefined {
  const said = isPlainObject(body) ? firstError(body.errors) : undefined;
  if (said === undefined) return undefined;
  return `it carries "errors"${said ? ` (${said.slice(0, 200)})` : ''}${isPlainObject(body) && 'data' in body ? ' beside "data"' : ''}: it reports a failure`;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value;
}

/**
 * NOTE(api): archived objects may be listed (the docs do not say they are left out); any of these
 * marks one, and docket never matches an archived object by name.
 */
export function isArchived(item: ApiResource<unknown>): boolean {
  const a = item.attributes as Record<string, unknown>;
  const at = a.archived_at;
  if (at !== undefined && at !== null && at !== '' && at !== false) return true;
  if (a.archived === true) return true;
  return typeof a.status === 'string' && a.status.toLowerCase() === 'archived';
}

/**
 * The next page from `links.next` (preferred) or `meta.pagination.next`. Both may be present;
 * the link is tried first and the number is the fallback (http.ts falls back when the link
 * cannot be followed).
 */
export function nextFromBody(body: Record<string, unknown>): { link?: string; number?: number; pagingInfo: boolean; hasMeta: boolean } {
  const links = isPlainObject(body.links) ? body.links : undefined;
  const meta = isPlainObject(body.meta) ? body.meta : undefined;
  const pagination = meta && isPlainObject(meta.pagination) ? meta.pagination : undefined;
  const out: { link?: string; number?: number; pagingInfo: boolean; hasMeta: boolean } = {
    pagingInfo: (links !== undefined && 'next' in links) || pagination !== undefined,
    hasMeta: pagination !== undefined,
  };
  if (typeof links?.next === 'string' && links.next !== '') out.link = links.next;
  const n = paginationNumber(body, 'next');
  if (n !== undefined && n > 0) out.number = n;
  return out;
}

/**
 * The number of the last page, when `meta.pagination.last` gives it (api.md), so the pages after
 * the first can be asked for at once. Paging by links alone is followed one page at a time.
 */
export function lastPageFromBody(body: Record<string, unknown>): number | undefined {
  const n = paginationNumber(body, 'last');
  return n !== undefined && n > 0 ? n : undefined;
}

/** The page's own number, when `meta.pagination.current` gives it (a service may count from 0). */
export function currentPageFromBody(body: Record<string, unknown>): number | undefined {
  return paginationNumber(body, 'current');
}

function paginationNumber(body: Record<string, unknown>, member: 'last' | 'current' | 'next'): number | undefined {
  const meta = isPlainObject(body.meta) ? body.meta : undefined;
  const value = meta && isPlainObject(meta.pagination) ? meta.pagination[member] : undefined;
  const n = typeof value === 'string' && /^\d+$/.test(value) ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * NOTE(api): page sizes services commonly use by default (15 in the skill, 30 in the official
 * docs). A list that says nothing about paging and holds exactly one of these many items, fewer
 * than docket asked for, may have been cut at the service's default; one that holds exactly as
 * many as docket asked for may be a full page of a list that pages without saying so, and so may
 * any page of fewer than 25 items when the service refused every size docket asked for. Either
 * way docket asks for the next page (a service that does not page answers the same items again,
 * which ends the list).
 */
export const COMMON_DEFAULT_PAGE_SIZES: ReadonlySet<number> = new Set([15, 30]);

export function looksTruncated(count: number, askedSize: number | null): boolean {
  if (askedSize !== null && count === askedSize) return true;
  // Asked with no size only after the service refused 25: its own page may be any size below that.
  if (askedSize === null && count > 0 && count < 25) return true;
  return COMMON_DEFAULT_PAGE_SIZES.has(count) && (askedSize === null || count < askedSize);
}

/**
 * A request's query as `-v` logs it: the parameters docket itself sends and those that page a list
 * (`page[number]`, `page[size]`, `full`, `filter[…]`, a cursor) as written, every other parameter's
 * value as `…`: a service's `links.next` may carry a token (`access_token=`, `X-Amz-Signature=`),
 * and `-v` logs are often public CI logs (probe ZF-2).
 */
export function queryShown(query: string): string {
  return query
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      // A parameter without a value may be a token itself (second read SR98-8).
      if (eq === -1) return pair === '' || LISTING_PARAMS.test(decodedOrAsWritten(pair)) ? pair : '…';
      const name = pair.slice(0, eq);
      return LISTING_PARAMS.test(decodedOrAsWritten(name)) ? pair : `${name}=…`;
    })
    .join('&');
}
const LISTING_PARAMS = /^(?:page(?:\[(?:number|size|cursor|after|before|offset|limit)\])?|per_page|page_size|limit|offset|cursor|after|before|full|sort|include|filter\[[\w.]+\])$/i;
