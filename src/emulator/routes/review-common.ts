/**
 * Helpers shared by the review service's route modules: route builders for a path style, the
 * organization a request acts on, lookups that answer 404 outside it.
 */
import { one, type ResourceObject } from '../jsonapi.js';
import { notFound } from '../problem.js';
import type { ReviewScheduler } from '../review-processing.js';
import type { HttpMethod, RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord } from '../store.js';
import type { EmulatorVariants } from '../variants.js';

export const V1 = '/review/v1';

/** What the review routes need besides the request. */
export interface ReviewDeps {
  reviews: ReviewScheduler;
}

export type When = (v: EmulatorVariants) => boolean;
export type Handler = (ctx: RequestContext) => RouteResult;

export function route(method: HttpMethod, template: string, handle: Handler, when?: When): Route {
  return when ? { method, template, scope: 'review', when, handle } : { method, template, scope: 'review', handle };
}

/** A route of one path style (nested or flat); `extra` narrows it to some variants more. */
export type StyleRoute = (method: HttpMethod, template: string, handle: Handler, extra?: When) => Route;

export function styleRoute(when: When): StyleRoute {
  return (method, template, handle, extra) => route(method, template, handle, extra ? (v) => when(v) && extra(v) : when);
}

export function ok(resource: ResourceObject, status = 200): RouteResult {
  return { status, body: one(resource) };
}

/** The organization in the path (nested routes), else the API key's own (flat routes); 404 outside the key's. */
export function organizationOf(ctx: RequestContext): OrganizationRecord {
  const id = ctx.params.org ?? ctx.principal?.organizationIds[0] ?? '';
  const org = ctx.principal?.organizationIds.includes(id) ? ctx.store.organization(id) : undefined;
  if (!org) throw notFound(`organization ${id} not found`);
  return org;
}

/** The record with that id in one of the organization's collections, else a 404 naming `what`. */
export function lookup<T>(collection: Record<string, T>, id: string | undefined, what: string): T {
  const key = id ?? '';
  const found = Object.hasOwn(collection, key) ? collection[key] : undefined;
  if (found === undefined) throw notFound(`${what} ${key} not found`);
  return found;
}
