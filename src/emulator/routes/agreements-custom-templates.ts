/**
 * Custom templates (seed 001 "Custom templates"): a YAML definition published in versions, with
 * optional linked custom terms. Republishing what is current answers 200 without a new version.
 */
import { latest, type CustomTemplateRecord, type CustomTemplateVersionRecord } from '../agreements-state.js';
import { definitionErrors } from '../definition.js';
import { FieldErrors, isPresent, type JsonBody } from '../fields.js';
import { listResponse } from '../jsonapi.js';
import { HttpProblem } from '../problem.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord, UserRecord } from '../store.js';
import { actingUser, BASE, byCreation, customTermsOrganization, lookup, ok, requiredText, route } from './agreements-common.js';
import { customTemplateVersionView, customTemplateView } from './agreements-views.js';

const TEMPLATES = `${BASE}/custom_templates`;
const TEMPLATE = `${TEMPLATES}/:id`;

export function customTemplateRoutes(): Route[] {
  return [
    route('GET', TEMPLATES, listTemplates),
    route('POST', TEMPLATES, createTemplate),
    route('GET', TEMPLATE, (ctx) => ok(customTemplateView(templateOf(ctx, customTermsOrganization(ctx))))),
    route('PATCH', TEMPLATE, updateTemplate),
    // NOTE(api): listing versions is ours, like the custom term versions list.
    route('GET', `${TEMPLATE}/versions`, listVersions),
    route('POST', `${TEMPLATE}/versions`, publishVersion),
  ];
}

function templateOf(ctx: RequestContext, org: OrganizationRecord): CustomTemplateRecord {
  return lookup(org.agreements.custom_templates, ctx.params.id, 'custom template');
}

function listTemplates(ctx: RequestContext): RouteResult {
  const org = customTermsOrganization(ctx);
  return { status: 200, body: listResponse(ctx, byCreation(Object.values(org.agreements.custom_templates)).map(customTemplateView)) };
}

/** The YAML text of `definition` (422 when absent or not a string); its content is checked apart (400). */
function readDefinition(body: JsonBody, errors: FieldErrors): string | undefined {
  if (isPresent(body, 'definition') && typeof body.definition !== 'string') {
    errors.add('definition', 'must be a string (the YAML text of the definition)');
    return undefined;
  }
  return requiredText(body, 'definition', errors);
}

/** Seed 001: definition errors are 400 and name the field (a path into the definition). */
function checkDefinition(definition: string): void {
  const errors = definitionErrors(definition);
  if (errors.length === 0) return;
  const first = errors[0];
  throw new HttpProblem(400, `invalid custom template definition: ${first ? `${first.field} ${first.message}` : ''}`, { errors });
}

/**
 * `custom_term_id`: undefined when not sent; null for `""` or null (no terms); else the id of a
 * custom term of the organization (422 otherwise).
 */
function readTermLink(org: OrganizationRecord, body: JsonBody, errors: FieldErrors): { id: string | null } | undefined {
  if (!isPresent(body, 'custom_term_id')) return undefined;
  const value = body.custom_term_id;
  if (value === null || value === '') return { id: null };
  if (typeof value !== 'string') {
    errors.add('custom_term_id', 'must be a string (the id of a custom term, or "" to unlink)');
    return undefined;
  }
  if (!Object.hasOwn(org.agreements.custom_terms, value)) {
    errors.add('custom_term_id', 'is not a custom term of the organization');
    return undefined;
  }
  return { id: value };
}

/** The released version number of the linked terms (null without terms). */
function termVersion(org: OrganizationRecord, termId: string | null): number | null {
  const term = termId !== null && Object.hasOwn(org.agreements.custom_terms, termId) ? org.agreements.custom_terms[termId] : undefined;
  return term ? latest(term.versions).version_number : null;
}

function newVersion(ctx: RequestContext, org: OrganizationRecord, number: number, definition: string, termId: string | null, user: UserRecord | undefined): CustomTemplateVersionRecord {
  return {
    id: ctx.store.newId(),
    version_number: number,
    definition,
    custom_term_id: termId,
    custom_term_version_number: termVersion(org, termId),
    // NOTE(api): a relink through PATCH without user_id records no creator.
    created_by_email: user?.email ?? null,
    created_at: ctx.store.timestamp(),
  };
}

function createTemplate(ctx: RequestContext): RouteResult {
  const org = customTermsOrganization(ctx);
  const body = ctx.json();
  const errors = new FieldErrors();
  const name = requiredText(body, 'name', errors);
  const definition = readDefinition(body, errors);
  const link = readTermLink(org, body, errors);
  const user = actingUser(ctx, org, body, errors, true);
  errors.throwIfAny();
  if (name === undefined || definition === undefined) throw new Error('unreachable: validated above');
  checkDefinition(definition);
  const now = ctx.store.timestamp();
  const termId = link?.id ?? null;
  const template: CustomTemplateRecord = {
    id: ctx.store.newId(),
    name,
    custom_term_id: termId,
    versions: [newVersion(ctx, org, 1, definition, termId, user)],
    created_at: now,
    updated_at: now,
  };
  org.agreements.custom_templates[template.id] = template;
  return ok(customTemplateView(template), 201);
}

/** `name`, `custom_term_id` (a change publishes a version with the same definition), `user_id`. */
function updateTemplate(ctx: RequestContext): RouteResult {
  const org = customTermsOrganization(ctx);
  const template = templateOf(ctx, org);
  const body = ctx.json();
  const errors = new FieldErrors();
  // NOTE(api): the definition changes only by publishing a version; a PATCH carrying one is refused.
  if (isPresent(body, 'definition')) errors.add('definition', 'the definition changes by publishing a version (POST …/versions)');
  const name = isPresent(body, 'name') ? requiredText(body, 'name', errors) : undefined;
  const link = readTermLink(org, body, errors);
  const user = actingUser(ctx, org, body, errors, false);
  errors.throwIfAny();
  const now = ctx.store.timestamp();
  if (name !== undefined) template.name = name;
  if (link !== undefined && link.id !== template.custom_term_id) {
    const current = latest(template.versions);
    template.versions.push(newVersion(ctx, org, current.version_number + 1, current.definition, link.id, user));
    template.custom_term_id = link.id;
  }
  template.updated_at = now;
  return ok(customTemplateView(template));
}

function listVersions(ctx: RequestContext): RouteResult {
  const template = templateOf(ctx, customTermsOrganization(ctx));
  return { status: 200, body: listResponse(ctx, template.versions.map(customTemplateVersionView)) };
}

/**
 * A new version (201), or 200 and no new version when the definition text equals the current one
 * and the linked terms are unchanged [public docs]. NOTE(api): "unchanged terms" is read as the same
 * custom term at the same released version as when the current version was published. The answer
 * is the custom template either way.
 */
function publishVersion(ctx: RequestContext): RouteResult {
  const org = customTermsOrganization(ctx);
  const template = templateOf(ctx, org);
  const body = ctx.json();
  const errors = new FieldErrors();
  const definition = readDefinition(body, errors);
  const user = actingUser(ctx, org, body, errors, true);
  errors.throwIfAny();
  if (definition === undefined) throw new Error('unreachable: validated above');
  checkDefinition(definition);
  const current = latest(template.versions);
  const unchanged =
    definition === current.definition &&
    current.custom_term_id === template.custom_term_id &&
    current.custom_term_version_number === termVersion(org, template.custom_term_id);
  if (unchanged) return { ...ok(customTemplateView(template)), persist: false };
  template.versions.push(newVersion(ctx, org, current.version_number + 1, definition, template.custom_term_id, user));
  template.updated_at = ctx.store.timestamp();
  return ok(customTemplateView(template), 201);
}
