/**
 * Agreements service: users and the organization profile (reference/api.md). The profile is the
 * agreements service's own (`agreements.organization`), apart from the review service's name.
 */
import { ADDRESS_FIELDS } from '../seed-agreements.js';
import { FieldErrors, readString, readText } from '../fields.js';
import { many, listResponse } from '../jsonapi.js';
import { notFound } from '../problem.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord } from '../store.js';
import { BASE, BLANK, callerOrganization, ok, route } from './agreements-common.js';
import { agreementsOrganizationView, agreementsUserView } from './agreements-views.js';

const USERS = `${BASE}/users`;
const ORGS = `${BASE}/organizations`;

export function agreementsOrgRoutes(): Route[] {
  return [
    route('GET', USERS, listUsers),
    route('GET', `${USERS}/:id`, getUser),
    // NOTE(api): unpaged. The skill says a one-element list; the docs say "organizations accessible
    // to the authenticated user", so a key of several organizations lists them all (the key acts
    // for the first).
    route('GET', ORGS, (ctx) => {
      const orgs = (ctx.principal?.organizationIds ?? []).flatMap((id) => ctx.store.organization(id) ?? []);
      return { status: 200, body: many(orgs.map((org) => agreementsOrganizationView(org.id, org.agreements.organization))) };
    }),
    route('GET', `${ORGS}/:id`, (ctx) => {
      const org = addressedOrganization(ctx);
      return ok(agreementsOrganizationView(org.id, org.agreements.organization));
    }),
    route('PATCH', `${ORGS}/:id`, updateOrganization),
  ];
}

function listUsers(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const views = ctx.store.members(org).map(({ user, membership }) => agreementsUserView(user, membership, org.id));
  return { status: 200, body: listResponse(ctx, views) };
}

function getUser(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const id = ctx.params.id ?? '';
  const row = ctx.store.members(org).find((m) => m.user.id === id);
  if (!row) throw notFound(`user ${id} not found`);
  return ok(agreementsUserView(row.user, row.membership, org.id));
}

/** Only the key's own organization; any other id is a 404. */
function addressedOrganization(ctx: RequestContext): OrganizationRecord {
  const org = callerOrganization(ctx);
  if (ctx.params.id !== org.id) throw notFound(`organization ${ctx.params.id ?? ''} not found`);
  return org;
}

/**
 * Only provided fields change [public docs]; unknown keys are ignored. NOTE(api): the editable
 * attributes are name and the address fields; `onboarded` is read-only (always true here).
 */
function updateOrganization(ctx: RequestContext): RouteResult {
  const org = addressedOrganization(ctx);
  const body = ctx.json();
  const errors = new FieldErrors();
  const name = readString(body, 'name', errors);
  if (typeof name === 'string' && name.trim() === '') errors.add('name', BLANK);
  const address: Partial<Record<(typeof ADDRESS_FIELDS)[number], string | null>> = {};
  for (const field of ADDRESS_FIELDS) {
    const value = readText(body, field, errors, true);
    if (value !== undefined) address[field] = value;
  }
  errors.throwIfAny();
  const profile = org.agreements.organization;
  if (name !== undefined) profile.name = name;
  Object.assign(profile, address);
  profile.updated_at = ctx.store.timestamp();
  return ok(agreementsOrganizationView(org.id, profile));
}
