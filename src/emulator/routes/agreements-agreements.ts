/**
 * Agreements (seed 001): create (from a standard or custom template; owner and signer each by
 * exactly one of id or e-mail; `draft`; `agreement` with `test_agreement` and custom template
 * values; per-type override objects only for a matching template), get, list (paged, filtered,
 * sorted), void, history; agreement types and statuses.
 * Status codes: 422 for the body's validation (as the emulator's other writes), 400 naming the
 * field for custom template values (seed 001), 403 past the monthly limit [public docs: "plan
 * limit"]. Draft updates, send, resend, reassign and the PDF are not emulated.
 */
import { agreementTypeValue, agreementTypeViews, agreementView, historyView } from './agreements-agreement-views.js';
import { checkAgreementFields } from '../agreement-fields.js';
import { checkOverrideObjects } from '../agreement-overrides.js';
import { csaMisspelling } from '../csa-versions.js';
import { applyAgreementQuery, readAgreementQuery } from '../agreement-filters.js';
import { customFieldValues } from '../agreement-values.js';
import { AGREEMENT_STATUSES, latest, type AgreementRecord, type CustomTemplateRecord, type TemplateRecord } from '../agreements-state.js';
import { FieldErrors, readBoolean, readString, type JsonBody } from '../fields.js';
import { listResponse, many } from '../jsonapi.js';
import { HttpProblem } from '../problem.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import { isObject } from '../seed-checks.js';
import type { OrganizationRecord, UserRecord } from '../store.js';
import { BASE, byCreation, callerOrganization, lookup, NOT_A_USER, ok, requiredText, route } from './agreements-common.js';

const AGREEMENTS = `${BASE}/agreements`;
const AGREEMENT = `${AGREEMENTS}/:id`;

export function agreementRoutes(): Route[] {
  return [
    route('GET', AGREEMENTS, listAgreements),
    route('POST', AGREEMENTS, createAgreement),
    route('GET', AGREEMENT, (ctx) => ok(agreementView(agreementOf(ctx, callerOrganization(ctx))))),
    route('PATCH', `${AGREEMENT}/void`, voidAgreement),
    route('GET', `${AGREEMENT}/history`, (ctx) => {
      const a = agreementOf(ctx, callerOrganization(ctx));
      return { status: 200, body: listResponse(ctx, a.history.map((e) => historyView(a.id, e))) };
    }),
    route('GET', `${BASE}/agreement_history`, listHistory),
    // NOTE(api): both unpaged (seed 001: "all agreement types", "all possible agreement statuses").
    route('GET', `${BASE}/agreement_types`, (ctx) => {
      const org = callerOrganization(ctx);
      const custom = org.features.custom_terms ? byCreation(Object.values(org.agreements.custom_templates)) : [];
      return { status: 200, body: many(agreementTypeViews(custom)) };
    }),
    route('GET', `${BASE}/agreement_statuses`, () => ({ status: 200, body: many(AGREEMENT_STATUSES.map((s) => ({ id: s, type: 'agreement_status', attributes: { name: s } }))) })),
  ];
}

function agreementOf(ctx: RequestContext, org: OrganizationRecord): AgreementRecord {
  return lookup(org.agreements.agreements, ctx.params.id, 'agreement');
}

function listAgreements(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const query = readAgreementQuery(ctx.query);
  const items = applyAgreementQuery(byCreation(Object.values(org.agreements.agreements)), query);
  return { status: 200, body: listResponse(ctx, items.map(agreementView)) };
}

function listHistory(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const events = Object.values(org.agreements.agreements).flatMap((a) => a.history.map((e) => ({ ...e, agreementId: a.id })));
  return { status: 200, body: listResponse(ctx, byCreation(events).map((e) => historyView(e.agreementId, e))) };
}

type Template = { standard: TemplateRecord } | { custom: CustomTemplateRecord };

/** A standard template or (when the feature is on) a custom template of the organization. */
function templateOf(org: OrganizationRecord, id: string): Template | undefined {
  if (Object.hasOwn(org.agreements.templates, id)) return { standard: org.agreements.templates[id] as TemplateRecord };
  if (org.features.custom_terms && Object.hasOwn(org.agreements.custom_templates, id)) return { custom: org.agreements.custom_templates[id] as CustomTemplateRecord };
  return undefined;
}

/**
 * Seed 001: exactly one of `<role>_email` or `<role>_id`, naming a user of the organization.
 * NOTE(api): the status of "not exactly one" is not shown; ours is 422 like the other body errors.
 */
function party(ctx: RequestContext, org: OrganizationRecord, body: JsonBody, role: 'owner' | 'signer', errors: FieldErrors): UserRecord | undefined {
  const email = readString(body, `${role}_email`, errors);
  const id = readString(body, `${role}_id`, errors);
  if (errors.has(`${role}_email`) || errors.has(`${role}_id`)) return undefined;
  if (email !== undefined && id !== undefined) {
    errors.add(`${role}_id`, `send exactly one of ${role}_email or ${role}_id, not both`);
    return undefined;
  }
  if (email === undefined && id === undefined) {
    errors.add(`${role}_email`, `${role}_email or ${role}_id is required (exactly one)`);
    return undefined;
  }
  const user = email !== undefined ? ctx.store.memberByEmail(org, email.trim()) : ctx.store.members(org).find((m) => m.user.id === id?.trim().toLowerCase())?.user;
  if (!user) errors.add(email !== undefined ? `${role}_email` : `${role}_id`, NOT_A_USER);
  return user;
}

/** NOTE(api): cc users as e-mail strings or `{email}` objects; the element shape is not shown. */
function readCcUsers(body: JsonBody, errors: FieldErrors): string[] {
  const value = body.cc_users;
  if (value === undefined || value === null) return [];
  const emails = Array.isArray(value) ? value.map((v: unknown) => (typeof v === 'string' ? v : isObject(v) && typeof v.email === 'string' ? v.email : undefined)) : [undefined];
  if (emails.some((e) => e === undefined)) {
    errors.add('cc_users', 'must be a list of e-mail addresses (or objects with an email)');
    return [];
  }
  return emails as string[];
}

function createAgreement(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const body = ctx.json();
  const errors = new FieldErrors();
  const templateId = requiredText(body, 'template_id', errors);
  const template = templateId === undefined ? undefined : templateOf(org, templateId);
  if (templateId !== undefined && !template) errors.add('template_id', 'is not a template or custom template of the organization');
  const owner = party(ctx, org, body, 'owner', errors);
  const signer = party(ctx, org, body, 'signer', errors);
  const draft = readBoolean(body, 'draft', errors) ?? false;
  const cc = readCcUsers(body, errors);
  const agreement = isObject(body.agreement) ? body.agreement : undefined;
  if (!agreement) errors.add('agreement', 'is required (an object with the agreement fields)');
  else {
    checkAgreementFields(agreement, errors);
    if (template) checkOverrideObjects(agreement, 'standard' in template ? template.standard.agreement_type : 'custom', errors);
    if (template && 'standard' in template && agreement.custom_field_values !== undefined) errors.add('agreement.custom_field_values', 'is only for custom templates');
    if (template && 'standard' in template && template.standard.agreement_type === 'CSA') checkCsaNames(agreement, template.standard.standard_version, errors);
    // NOTE(api): sending (not a draft, not sent outside the platform) needs someone to send to.
    if (!draft && agreement.manual_send !== true && agreement.recipient_email === undefined) {
      errors.add('agreement.recipient_email', "can't be blank when the agreement is sent (create it as a draft, or with manual_send)");
    }
  }
  errors.throwIfAny();
  if (!template || !owner || !signer || !agreement) throw new Error('unreachable: validated above');

  let customValues: Record<string, unknown> | null = null;
  if ('custom' in template) {
    const checked = customFieldValues(latest(template.custom.versions).definition, agreement.custom_field_values);
    if (checked.errors.length > 0) {
      const first = checked.errors[0];
      throw new HttpProblem(400, `invalid custom template field value: ${first ? `${first.field} ${first.message}` : ''}`, { errors: checked.errors });
    }
    customValues = checked.values;
  }
  const test = agreement.test_agreement === true;
  checkMonthlyLimit(ctx, org, test);

  const now = ctx.store.timestamp();
  const manual = agreement.manual_send === true;
  const { custom_field_values: _ignored, ...fields } = agreement;
  const record: AgreementRecord = {
    id: ctx.store.newId(),
    agreement_type: 'standard' in template ? agreementTypeValue(template.standard.agreement_type) : 'custom',
    status: draft ? 'draft' : 'sent',
    template_id: 'standard' in template ? template.standard.id : null,
    custom_template_id: 'custom' in template ? template.custom.id : null,
    custom_template_version_number: 'custom' in template ? latest(template.custom.versions).version_number : null,
    owner_id: owner.id,
    owner_email: owner.email,
    signer_id: signer.id,
    signer_email: signer.email,
    cc_users: cc,
    test_agreement: test,
    manual_send: manual,
    fields,
    custom_field_values: customValues,
    history: [],
    sent_at: draft ? null : now,
    voided_at: null,
    created_at: now,
    updated_at: now,
  };
  const description = draft
    ? `Draft created by ${owner.email}`
    : manual
      ? `Marked as sent outside the platform by ${owner.email}`
      : `Sent to ${String(agreement.recipient_email)} by ${owner.email}`;
  record.history.push({ id: ctx.store.newId(), event: draft ? 'created' : 'sent', description, user_email: owner.email, created_at: now });
  org.agreements.agreements[record.id] = record;
  return ok(agreementView(record), 201);
}

/**
 * Seed 001 "Versioning": a CSA agreement spells the renamed attributes as its `standard_version`
 * does (422 for the other spelling). NOTE(api): the per-type override objects' keys are not shown,
 * so the names are checked at the top of `agreement` and one object level down.
 */
function checkCsaNames(agreement: JsonBody, version: string | null, errors: FieldErrors): void {
  const check = (object: JsonBody, at: string): void => {
    for (const key of Object.keys(object)) {
      const why = csaMisspelling(key, version);
      if (why) errors.add(`${at}.${key}`, why);
      else if (isObject(object[key]) && at === 'agreement') check(object[key] as JsonBody, `${at}.${key}`);
    }
  };
  check(agreement, 'agreement');
}

/** Seed 001: test agreements do not count against the monthly limit. NOTE(api): drafts count; the month is UTC. */
function checkMonthlyLimit(ctx: RequestContext, org: OrganizationRecord, test: boolean): void {
  const limit = org.agreements.monthly_agreement_limit;
  if (test || limit === null) return;
  const month = ctx.store.timestamp().slice(0, 7);
  const used = Object.values(org.agreements.agreements).filter((a) => !a.test_agreement && a.created_at.startsWith(month)).length;
  if (used >= limit) throw new HttpProblem(403, `You've reached your plan limit: ${limit} agreements this month (test agreements do not count)`);
}

/** NOTE(api): voiding a voided agreement is a 422 [public docs: an action not allowed in the current status]. */
function voidAgreement(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const a = agreementOf(ctx, org);
  if (a.status === 'voided') throw new HttpProblem(422, `agreement ${a.id} is voided already`, { errors: [{ field: 'status', message: 'is voided already' }] });
  const now = ctx.store.timestamp();
  a.status = 'voided';
  a.voided_at = now;
  a.updated_at = now;
  a.history.push({ id: ctx.store.newId(), event: 'voided', description: 'Voided', user_email: ctx.store.firstAdminEmail(org), created_at: now });
  return ok(agreementView(a));
}
