/**
 * Standard templates (seed 002): `type` picks the agreement type on create; omitted parameters get
 * the documented defaults; updates merge nested `template_*_attributes` objects key by key.
 */
import type { TemplateRecord } from '../agreements-state.js';
import { listResponse } from '../jsonapi.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord } from '../store.js';
import { defaultStandardVersion, withDefaults } from '../template-defaults.js';
import { mergeParameters, readTemplateWrite, type TemplateRefs } from '../template-params.js';
import { BASE, byCreation, callerOrganization, lookup, ok, route } from './agreements-common.js';
import { templateView } from './agreements-views.js';

const TEMPLATES = `${BASE}/templates`;
const TEMPLATE = `${TEMPLATES}/:id`;

export function templateRoutes(): Route[] {
  return [
    route('GET', TEMPLATES, listTemplates),
    route('POST', TEMPLATES, createTemplate),
    route('GET', TEMPLATE, (ctx) => {
      const org = callerOrganization(ctx);
      return ok(templateView(lookup(org.agreements.templates, ctx.params.id, 'template'), true, org.id, ctx.variants));
    }),
    route('PATCH', TEMPLATE, updateTemplate),
  ];
}

function refsOf(ctx: RequestContext, org: OrganizationRecord): TemplateRefs {
  return {
    isUserEmail: (email) => ctx.store.memberByEmail(org, email) !== undefined,
    hasAttachment: (id) => Object.hasOwn(org.agreements.attachments, id),
  };
}

/** [public docs] `full=true` adds every parameter of the type; otherwise the compact attributes. */
function listTemplates(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const full = ctx.query.get('full') === 'true';
  const views = byCreation(Object.values(org.agreements.templates)).map((t) => templateView(t, full, org.id, ctx.variants));
  return { status: 200, body: listResponse(ctx, views) };
}

function createTemplate(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const write = readTemplateWrite(ctx.json(), refsOf(ctx, org));
  const now = ctx.store.timestamp();
  const standardVersion = write.standardVersion ?? defaultStandardVersion(write.type);
  const template: TemplateRecord = {
    id: ctx.store.newId(),
    agreement_type: write.type,
    name: write.name ?? '',
    standard_version: standardVersion,
    parameters: withDefaults(write.type, standardVersion, write.parameters),
    created_at: now,
    updated_at: now,
  };
  org.agreements.templates[template.id] = template;
  return ok(templateView(template, true, org.id, ctx.variants), 201);
}

function updateTemplate(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const template = lookup(org.agreements.templates, ctx.params.id, 'template');
  const write = readTemplateWrite(ctx.json(), refsOf(ctx, org), { type: template.agreement_type, standardVersion: template.standard_version });
  if (write.name !== undefined) template.name = write.name;
  if (write.standardVersion !== undefined) template.standard_version = write.standardVersion;
  template.parameters = mergeParameters(template.parameters, write.parameters, ctx.variants.nestedUpdate);
  template.updated_at = ctx.store.timestamp();
  return ok(templateView(template, true, org.id, ctx.variants));
}
