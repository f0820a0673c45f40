/**
 * Review service routes (seed 000, reference/api.md "Review service"), mounted under `/review`.
 * Validation is seed 000 "Errors" 1-4 and 6; type errors are 422 too; unknown keys are ignored.
 */
import { FieldErrors, isBlank, readBoolean, readText, type JsonBody } from '../fields.js';
import { many, listResponse } from '../jsonapi.js';
import { notFound } from '../problem.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord, PlaybookRecord, RuleRecord } from '../store.js';
import { compareCreated } from '../store.js';
import { ok, organizationOf, route, styleRoute, V1, type ReviewDeps, type When } from './review-common.js';
import { reviewDownloadRoutes } from './review-downloads.js';
import { redlineEvaluationRoutes, flagViolationRoutes } from './review-evaluations.js';
import { importedFileRoutes } from './review-imported-files.js';
import { reviewUploadRoutes, reviewRoutesOf } from './review-reviews.js';
import { invitationView, organizationView, playbookView, ruleView, userView } from './review-views.js';
import { UUID } from '../../util/uuid.js';

const ORGS = `${V1}/organizations`;

const EMAIL = /^[^\s@]+@[^\s@]+$/;

const NOT_A_REVIEWER = 'is not an available reviewer (a user of the organization)';
const BLANK = "can't be blank";

/**
 * Both editions of the public docs: nested routes under `/v1/organizations/:org` and flat routes
 * under `/v1` (the organization is the key's); the `review_paths` variant picks which exist.
 */
export function reviewRoutes(deps: ReviewDeps): Route[] {
  const nested: When = (v) => v.reviewPaths === 'nested';
  const flat: When = (v) => v.reviewPaths === 'flat';
  return [
    route('GET', ORGS, listOrganizations, nested),
    ...organizationRoutes(`${ORGS}/:org`, `${ORGS}/:org`, nested, deps),
    ...organizationRoutes(V1, `${V1}/organization`, flat, deps),
    ...reviewUploadRoutes(deps),
  ];
}

/** The routes of one organization: `prefix` holds its collections, `self` is the organization itself. */
function organizationRoutes(prefix: string, self: string, when: When, deps: ReviewDeps): Route[] {
  const r = styleRoute(when);
  const PLAYBOOK = `${prefix}/playbooks/:playbook`;
  const RULES = `${PLAYBOOK}/playbook_rules`;
  return [
    r('GET', self, (ctx) => ok(organizationView(ctx.store, organizationOf(ctx)))),
    r('PATCH', self, updateOrganization),
    // NOTE(api): neither edition of the public docs has a users list; the `review_users` variant removes it.
    r('GET', `${prefix}/users`, listUsers, (v) => v.reviewUsers),
    r('GET', `${prefix}/invitations`, listInvitations),
    r('POST', `${prefix}/invitations`, createInvitation),
    r('GET', `${prefix}/invitations/:invitation`, getInvitation),
    r('GET', `${prefix}/playbooks`, listPlaybooks),
    r('POST', `${prefix}/playbooks`, createPlaybook),
    r('GET', PLAYBOOK, (ctx) => {
      const org = organizationOf(ctx);
      return ok(playbookView(org, playbookOf(ctx, org), ctx.variants));
    }),
    r('PATCH', PLAYBOOK, updatePlaybook),
    r('DELETE', PLAYBOOK, archivePlaybook),
    r('GET', RULES, listRules),
    r('POST', RULES, createRule),
    r('GET', `${RULES}/:rule`, (ctx) => {
      const org = organizationOf(ctx);
      return ok(ruleView(ctx.store, org, ruleOf(ctx, org, playbookOf(ctx, org))));
    }),
    r('PATCH', `${RULES}/:rule`, updateRule),
    r('DELETE', `${RULES}/:rule`, deleteRule),
    ...importedFileRoutes(prefix, r),
    ...reviewRoutesOf(prefix, r, deps),
    ...redlineEvaluationRoutes(prefix, r, deps),
    ...flagViolationRoutes(prefix, r),
    ...reviewDownloadRoutes(prefix, r),
  ];
}

// ---- lookups: anything outside the key's organizations is 404, never 403 -------------------

function playbookOf(ctx: RequestContext, org: OrganizationRecord): PlaybookRecord {
  const id = ctx.params.playbook ?? '';
  const pb = Object.hasOwn(org.playbooks, id) ? org.playbooks[id] : undefined;
  if (!pb || pb.archived_at !== null) throw notFound(`playbook ${id} not found`);
  return pb;
}

function ruleOf(ctx: RequestContext, org: OrganizationRecord, pb: PlaybookRecord): RuleRecord {
  const id = ctx.params.rule ?? '';
  const rule = Object.hasOwn(org.rules, id) ? org.rules[id] : undefined;
  if (!rule || rule.playbook_id !== pb.id) throw notFound(`playbook rule ${id} not found`);
  return rule;
}

// ---- organizations and users ---------------------------------------------------------------

function listOrganizations(ctx: RequestContext): RouteResult {
  const orgs = (ctx.principal?.organizationIds ?? []).flatMap((id) => ctx.store.organization(id) ?? []);
  // NOTE(api): unpaged; seed 000 shows neither the path nor paging of "list organizations".
  return { status: 200, body: many(orgs.map((o) => organizationView(ctx.store, o))) };
}

function updateOrganization(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const body = ctx.json();
  const errors = new FieldErrors();
  const name = readText(body, 'name', errors, false);
  // NOTE(api): null clearing the default reviewer is our guess; seed 000 only shows a uuid.
  const reviewerId = readText(body, 'default_reviewer_id', errors, true);
  errors.throwIfAny();
  if (typeof name === 'string' && name.trim() === '') errors.add('name', BLANK);
  if (typeof reviewerId === 'string') {
    if (!UUID.test(reviewerId)) errors.add('default_reviewer_id', 'must be a canonical UUID (8-4-4-4-12 hex digits)');
    else if (!ctx.store.isMember(org, reviewerId.toLowerCase())) errors.add('default_reviewer_id', NOT_A_REVIEWER);
  }
  errors.throwIfAny();
  if (typeof name === 'string') org.name = name;
  if (reviewerId !== undefined) org.default_reviewer_id = reviewerId === null ? null : reviewerId.toLowerCase();
  org.updated_at = ctx.store.timestamp();
  return ok(organizationView(ctx.store, org));
}

function listUsers(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const views = ctx.store.members(org).map(({ user, membership }) => userView(user, membership));
  return { status: 200, body: listResponse(ctx, views) };
}

// ---- invitations ---------------------------------------------------------------------------

function listInvitations(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const sorted = Object.values(org.invitations).sort((a, b) => compareCreated(a.created_at, b.created_at));
  return { status: 200, body: listResponse(ctx, sorted.map((i) => invitationView(i, ctx.variants))) };
}

function getInvitation(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const id = ctx.params.invitation ?? '';
  const inv = Object.hasOwn(org.invitations, id) ? org.invitations[id] : undefined;
  if (!inv) throw notFound(`invitation ${id} not found`);
  return ok(invitationView(inv, ctx.variants));
}

function createInvitation(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const body = ctx.json();
  const errors = new FieldErrors();
  const email = readText(body, 'email', errors, false)?.trim();
  const name = readText(body, 'name', errors, true);
  errors.throwIfAny();
  if (email === undefined || email === '') errors.add('email', BLANK);
  else if (!EMAIL.test(email)) errors.add('email', 'is not a valid e-mail address');
  else if (ctx.store.memberByEmail(org, email)) errors.add('email', 'already belongs to a member of the organization');
  errors.throwIfAny();
  const address = email ?? '';
  // Effect [public docs]: the user exists and is an available reviewer at once.
  const user = ctx.store.addMember(org, address, name ?? null, 'member');
  const inv = { id: ctx.store.newId(), email: address, name: name ?? null, invited_by_email: ctx.store.firstAdminEmail(org), user_id: user.id, created_at: ctx.store.timestamp() };
  org.invitations[inv.id] = inv;
  return ok(invitationView(inv, ctx.variants), 201);
}

// ---- playbooks -----------------------------------------------------------------------------

function listPlaybooks(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  // NOTE(api): unpaged, as seed 000 shows `{ data: [Playbook] }`; archived playbooks are left out
  // unless the `list_archived` variant keeps them (with `archived_at` set).
  const listed = ctx.variants.listArchived ? Object.values(org.playbooks) : ctx.store.activePlaybooks(org);
  return { status: 200, body: many(listed.map((p) => playbookView(org, p, ctx.variants))) };
}

function readPlaybookFields(body: JsonBody, creating: boolean): { name?: string; description?: string | null } {
  const errors = new FieldErrors();
  const name = readText(body, 'name', errors, false);
  const description = readText(body, 'description', errors, true);
  errors.throwIfAny();
  if ((creating || name !== undefined) && isBlank(name)) errors.add('name', BLANK);
  errors.throwIfAny();
  const out: { name?: string; description?: string | null } = {};
  if (typeof name === 'string') out.name = name;
  if (description !== undefined) out.description = description;
  return out;
}

function createPlaybook(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const fields = readPlaybookFields(ctx.json(), true);
  const now = ctx.store.timestamp();
  const pb: PlaybookRecord = {
    id: ctx.store.newId(),
    name: fields.name ?? '',
    // NOTE(api): an omitted description reads back as null; "" is kept as sent.
    description: fields.description ?? null,
    archived_at: null,
    created_at: now,
    updated_at: now,
  };
  org.playbooks[pb.id] = pb;
  return ok(playbookView(org, pb, ctx.variants), 201);
}

function updatePlaybook(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const pb = playbookOf(ctx, org);
  const fields = readPlaybookFields(ctx.json(), false);
  Object.assign(pb, fields, { updated_at: ctx.store.timestamp() });
  return ok(playbookView(org, pb, ctx.variants));
}

function archivePlaybook(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const pb = playbookOf(ctx, org);
  const now = ctx.store.timestamp();
  pb.archived_at = now;
  pb.updated_at = now;
  return { status: 204 };
}

// ---- playbook rules ------------------------------------------------------------------------

type RuleFields = Pick<RuleRecord, 'name' | 'description' | 'actions' | 'internal_notes' | 'questions' | 'generate_summary' | 'reviewer_id'>;
const RULE_TEXT_FIELDS = ['description', 'actions', 'internal_notes', 'questions'] as const;

/**
 * The fields a body sends that the service keeps, after type checks (a 422 naming each mistyped
 * field). The `rule_fields: documented` variant keeps only the fields its public docs name, and
 * drops the others without a word.
 */
function keptRuleFields(ctx: RequestContext): Partial<RuleFields> {
  const sent = readRuleFields(ctx.json());
  if (ctx.variants.ruleFields === 'all') return sent;
  const { name, description, actions } = sent;
  return { ...(name !== undefined ? { name } : {}), ...(description !== undefined ? { description } : {}), ...(actions !== undefined ? { actions } : {}) };
}

function readRuleFields(body: JsonBody): Partial<RuleFields> {
  const errors = new FieldErrors();
  const out: Partial<RuleFields> = {};
  const name = readText(body, 'name', errors, false);
  if (typeof name === 'string') out.name = name;
  for (const field of RULE_TEXT_FIELDS) {
    const value = readText(body, field, errors, true);
    if (value !== undefined) out[field] = value;
  }
  const summary = readBoolean(body, 'generate_summary', errors);
  if (summary !== undefined) out.generate_summary = summary;
  const reviewer = readText(body, 'reviewer_id', errors, true);
  if (reviewer !== undefined) out.reviewer_id = reviewer === null ? null : reviewer.toLowerCase();
  errors.throwIfAny();
  return out;
}

/** Seed 000 "Errors" 1-3 on the rule as it would be after the request (create or merged patch). */
function checkRule(ctx: RequestContext, org: OrganizationRecord, rule: RuleFields, sent: Partial<RuleFields>): void {
  const errors = new FieldErrors();
  if (isBlank(rule.name)) errors.add('name', BLANK);
  // NOTE(api): an empty or blank string counts as absent for `actions` and `questions`.
  if (isBlank(rule.actions) && !(rule.generate_summary && !isBlank(rule.questions))) {
    errors.add('actions', "can't be blank unless generate_summary is true and questions are present");
  }
  if (typeof sent.reviewer_id === 'string' && !ctx.store.isMember(org, sent.reviewer_id)) errors.add('reviewer_id', NOT_A_REVIEWER);
  errors.throwIfAny();
}

function listRules(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const pb = playbookOf(ctx, org);
  // NOTE(api): unpaged, as seed 000 shows `{ data: [PlaybookRule] }`.
  return { status: 200, body: many(ctx.store.rulesOf(org, pb.id).map((rule) => ruleView(ctx.store, org, rule))) };
}

function createRule(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const pb = playbookOf(ctx, org);
  const sent = keptRuleFields(ctx);
  const fields: RuleFields = {
    name: sent.name ?? '',
    description: sent.description ?? null,
    actions: sent.actions ?? null,
    internal_notes: sent.internal_notes ?? null,
    questions: sent.questions ?? null,
    generate_summary: sent.generate_summary ?? true,
    reviewer_id: sent.reviewer_id ?? null,
  };
  checkRule(ctx, org, fields, sent);
  const now = ctx.store.timestamp();
  const rule: RuleRecord = { id: ctx.store.newId(), playbook_id: pb.id, ...fields, created_at: now, updated_at: now };
  ctx.store.addRule(org, rule);
  return ok(ruleView(ctx.store, org, rule), 201);
}

function updateRule(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const rule = ruleOf(ctx, org, playbookOf(ctx, org));
  const sent = keptRuleFields(ctx);
  const merged: RuleFields = { ...rule, ...sent };
  checkRule(ctx, org, merged, sent);
  Object.assign(rule, sent, { updated_at: ctx.store.timestamp() });
  return ok(ruleView(ctx.store, org, rule));
}

function deleteRule(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const rule = ruleOf(ctx, org, playbookOf(ctx, org));
  ctx.store.removeRule(org, rule);
  return { status: 204 };
}
