/**
 * Helpers shared by the agreements route modules: the caller's organization, lookups (404 outside
 * it), the feature switch, JSON-or-multipart bodies and the acting user of term/template writes.
 */
import type { ConversionScheduler } from '../conversion.js';
import { FieldErrors, readString, type JsonBody } from '../fields.js';
import { one, type ResourceObject } from '../jsonapi.js';
import { notFound } from '../problem.js';
import type { HttpMethod, RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord, UserRecord } from '../store.js';

export const BASE = '/agreements/v1';

/** What the agreements routes need besides the request. */
export interface AgreementsDeps {
  conversions: ConversionScheduler;
}

export type Handler = (ctx: RequestContext) => RouteResult;

export function route(method: HttpMethod, template: string, handle: Handler): Route {
  return { method, template, scope: 'agreements', handle };
}

export function ok(resource: ResourceObject, status = 200): RouteResult {
  return { status, body: one(resource) };
}

export const BLANK = "can't be blank";
export const NOT_A_USER = 'is not a user of the organization';

/** The organization the API key belongs to (the first one; reference/api.md). */
export function callerOrganization(ctx: RequestContext): OrganizationRecord {
  const id = ctx.principal?.organizationIds[0] ?? '';
  const org = ctx.store.organization(id);
  if (!org) throw notFound(`organization ${id} not found`);
  return org;
}

/**
 * The caller's organization for a custom term or custom template route: [public docs] they answer
 * 404 on every path when the feature is off (seed option `features.custom_terms: false`).
 */
export function customTermsOrganization(ctx: RequestContext): OrganizationRecord {
  const org = callerOrganization(ctx);
  if (!org.features.custom_terms) throw notFound('custom terms and templates are not enabled for this organization');
  return org;
}

/** The record with that id in a collection of the organization, else a 404 naming `what`. */
export function lookup<T>(collection: Record<string, T>, id: string | undefined, what: string): T {
  const key = id ?? '';
  const found = Object.hasOwn(collection, key) ? collection[key] : undefined;
  if (found === undefined) throw notFound(`${what} ${key} not found`);
  return found;
}

/** Oldest first (a stable sort keeps creation order among equal timestamps). */
export function byCreation<T extends { created_at: string }>(items: T[]): T[] {
  return [...items].sort((a, b) => (a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0));
}

export { readForm, type Form } from '../form.js';

/**
 * The user a write is recorded against: `user_email` or `user_id` (seed 001), which must identify a
 * user of the organization (422 naming the field). NOTE(api): when both are sent they must name the
 * same user.
 */
export function actingUser(ctx: RequestContext, org: OrganizationRecord, body: JsonBody, errors: FieldErrors, required: boolean): UserRecord | undefined {
  const email = readString(body, 'user_email', errors);
  const id = readString(body, 'user_id', errors);
  if (errors.has('user_email') || errors.has('user_id')) return undefined;
  if (email === undefined && id === undefined) {
    if (required) errors.add('user_email', 'user_email or user_id is required (the user the change is recorded against)');
    return undefined;
  }
  const byEmail = email === undefined ? undefined : ctx.store.memberByEmail(org, email.trim());
  if (email !== undefined && !byEmail) errors.add('user_email', NOT_A_USER);
  const byId = id === undefined ? undefined : memberById(ctx, org, id.trim());
  if (id !== undefined && !byId) errors.add('user_id', NOT_A_USER);
  if (byEmail && byId && byEmail.id !== byId.id) errors.add('user_id', 'names another user than user_email');
  return byId ?? byEmail;
}

function memberById(ctx: RequestContext, org: OrganizationRecord, id: string): UserRecord | undefined {
  const user = ctx.store.user(id.toLowerCase()) ?? ctx.store.user(id);
  return user && ctx.store.isMember(org, user.id) ? user : undefined;
}

/** A required non-blank string field; records the error and returns undefined otherwise. */
export function requiredText(body: JsonBody, field: string, errors: FieldErrors): string | undefined {
  const value = readString(body, field, errors);
  if (errors.has(field)) return undefined;
  if (value === undefined || value.trim() === '') {
    errors.add(field, BLANK);
    return undefined;
  }
  return value;
}
