/** JSON:API envelopes and page-based pagination, as both services use them (reference/api.md). */
import { HttpProblem, badRequest } from './problem.js';
import type { EmulatorVariants } from './variants.js';

export interface ResourceObject {
  id: string;
  type: string;
  attributes: Record<string, unknown>;
  relationships?: Record<string, unknown>;
  /** Members beside `attributes` (the `generic` template variant's `standard_version`). */
  [member: string]: unknown;
}

export interface PageRequest {
  number: number;
  size: number;
}

export interface PagedCollection {
  data: ResourceObject[];
  meta: { pagination: { current: number; next: number | null; last: number; records: number } };
  links: { self: string; current: string; next: string | null; last: string };
}

export const MAX_PAGE_SIZE = 100;

export function one(resource: ResourceObject): { data: ResourceObject } {
  return { data: resource };
}

export function many(resources: ResourceObject[]): { data: ResourceObject[] } {
  return { data: resources };
}

const PAGE_FORMAT_HINT = 'use page[number]=N and page[size]=N (or a bare page=N)';

/**
 * Reads `page[number]`, `page[size]` and a bare `page` (= page number). Any other form of `page`
 * (`page[]`, `page[foo]`, repeated values) is a 400, as seed 001 "Pagination" says.
 */
export function parsePage(query: URLSearchParams, defaultSize: number, maxSize: number | null = null, ignoreSize = false): PageRequest {
  let number: number | undefined;
  let size: number | undefined;
  for (const key of new Set(query.keys())) {
    if (key !== 'page' && !key.startsWith('page[')) continue;
    const values = query.getAll(key);
    if (values.length !== 1) throw badRequest(`the page parameter "${key}" must be given once; ${PAGE_FORMAT_HINT}`);
    const value = values[0] ?? '';
    if (key === 'page' || key === 'page[number]') {
      if (number !== undefined) throw badRequest(`give the page number once; ${PAGE_FORMAT_HINT}`);
      number = positiveInteger(key, value);
    } else if (key === 'page[size]') {
      if (ignoreSize) continue;
      size = positiveInteger(key, value);
      if (maxSize !== null && size > maxSize) {
        throw new HttpProblem(400, `page[size] must be at most ${maxSize}, got ${size}`, { errors: [{ field: 'page[size]', message: `must be at most ${maxSize}` }] });
      }
      size = Math.min(size, MAX_PAGE_SIZE);
    } else {
      throw badRequest(`unsupported page parameter "${key}"; ${PAGE_FORMAT_HINT}`);
    }
  }
  // Its own default stays within its maximum, or the `next` links it writes would be refused.
  return { number: number ?? 1, size: size ?? (maxSize === null ? defaultSize : Math.min(defaultSize, maxSize)) };
}

function positiveInteger(key: string, value: string): number {
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isSafeInteger(n) || n < 1) throw badRequest(`${key} must be an integer greater than 0, got "${value}"`);
  return n;
}

/** One page of `items`; links are absolute and keep the request's other query parameters. */
export function paged(items: ResourceObject[], page: PageRequest, requestUrl: URL): PagedCollection {
  const records = items.length;
  const last = Math.max(1, Math.ceil(records / page.size));
  const next = page.number < last ? page.number + 1 : null;
  const start = (page.number - 1) * page.size;
  const base = new URL(requestUrl.href);
  for (const key of [...base.searchParams.keys()]) if (key === 'page' || key.startsWith('page[')) base.searchParams.delete(key);
  const pageLink = (n: number): string => {
    const u = new URL(base.href);
    u.searchParams.set('page[number]', String(n));
    u.searchParams.set('page[size]', String(page.size));
    return u.href;
  };
  return {
    data: items.slice(start, start + page.size),
    meta: { pagination: { current: page.number, next, last, records } },
    links: { self: base.href, current: pageLink(page.number), next: next === null ? null : pageLink(next), last: pageLink(last) },
  };
}

/** What a list handler needs to answer in the variant's paging style. */
export interface ListContext {
  query: URLSearchParams;
  url: URL;
  defaultPageSize: number;
  variants: EmulatorVariants;
}

/** A paged list as the current variant shows it: both paging members, one of them, or none (all items). */
export function listResponse(ctx: ListContext, items: ResourceObject[]): unknown {
  // Unpaged lists still check page[size] as given; ignore_page_size, marked of no effect there, changes nothing (probe XA-1).
  const page = parsePage(ctx.query, ctx.defaultPageSize, ctx.variants.maxPageSize, ctx.variants.ignorePageSize && ctx.variants.paging !== 'none');
  if (ctx.variants.paging === 'none') return many(items);
  const body = paged(items, page, ctx.url);
  const links = ctx.variants.linksOrigin === 'same' ? body.links : onOrigin(body.links, ctx.variants.linksOrigin === 'other' ? BACKEND_ORIGIN : '');
  if (ctx.variants.paging === 'hidden') return { data: body.data };
  if (ctx.variants.paging === 'links') return { data: body.data, links };
  if (ctx.variants.paging === 'meta') return { data: body.data, meta: body.meta };
  return { ...body, links };
}

/** The host a gateway's backend might put in its links: not one a client can or should reach. */
export const BACKEND_ORIGIN = 'http://backend.internal:8080';

/** The links on another origin, or on none (`''`: relative to the host, as some services write them). */
function onOrigin(links: PagedCollection['links'], origin: string): PagedCollection['links'] {
  const move = (href: string): string => origin + href.slice(new URL(href).origin.length);
  return { self: move(links.self), current: move(links.current), next: links.next === null ? null : move(links.next), last: move(links.last) };
}
