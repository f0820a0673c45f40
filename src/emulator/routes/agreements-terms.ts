/**
 * Custom terms (seed 001 "Custom terms"): text terms (markdown, JSON bodies) and file terms (a Word
 * file, multipart/form-data, converted to PDF asynchronously). Versioned; the name alone is editable.
 */
import { createHash } from 'node:crypto';
import { latest, type CustomTermRecord, type CustomTermVersionRecord } from '../agreements-state.js';
import { FieldErrors, readString } from '../fields.js';
import { listResponse } from '../jsonapi.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord, UserRecord } from '../store.js';
import {
  actingUser,
  BASE,
  byCreation,
  customTermsOrganization,
  lookup,
  ok,
  readForm,
  requiredText,
  route,
  type AgreementsDeps,
  type Form,
} from './agreements-common.js';
import { customTermVersionView, customTermView } from './agreements-views.js';

const TERMS = `${BASE}/custom_terms`;
const TERM = `${TERMS}/:id`;

export function customTermRoutes(deps: AgreementsDeps): Route[] {
  return [
    route('GET', TERMS, listTerms),
    route('POST', TERMS, (ctx) => createTerm(ctx, deps)),
    route('GET', TERM, (ctx) => ok(customTermView(termOf(ctx, customTermsOrganization(ctx)), true))),
    route('PATCH', TERM, renameTerm),
    // NOTE(api): listing versions is ours (for tests and `docket` diagnostics); seed 001 shows only the publish.
    route('GET', `${TERM}/versions`, listVersions),
    route('POST', `${TERM}/versions`, (ctx) => publishVersion(ctx, deps)),
  ];
}

function termOf(ctx: RequestContext, org: OrganizationRecord): CustomTermRecord {
  return lookup(org.agreements.custom_terms, ctx.params.id, 'custom term');
}

function listTerms(ctx: RequestContext): RouteResult {
  const org = customTermsOrganization(ctx);
  const views = byCreation(Object.values(org.agreements.custom_terms)).map((t) => customTermView(t, false));
  return { status: 200, body: listResponse(ctx, views) };
}

/** The released content a request carries: markdown for text terms, the docx digest for file terms. */
interface Content {
  body: string | null;
  docxSha256: string | null;
}

function readContent(form: Form, termType: 'text' | 'file', errors: FieldErrors): Content | undefined {
  if (termType === 'text') {
    const body = requiredText(form.body, 'body', errors);
    if (form.files.has('docx')) errors.add('docx', 'text terms take a markdown body, not a docx file');
    return body === undefined ? undefined : { body, docxSha256: null };
  }
  if (!form.multipart) {
    errors.add('docx', 'file terms are uploaded as multipart/form-data with a docx file part');
    return undefined;
  }
  const docx = form.files.get('docx');
  if (!docx) {
    errors.add('docx', Object.hasOwn(form.body, 'docx') ? 'must be a file part (with a filename)' : 'is required (the Word file)');
    return undefined;
  }
  // NOTE(api): the bytes are not checked to be a Word file; only their digest is kept.
  if (docx.data.length === 0) {
    errors.add('docx', 'is an empty file');
    return undefined;
  }
  return { body: null, docxSha256: createHash('sha256').update(docx.data).digest('hex') };
}

function newVersion(ctx: RequestContext, number: number, content: Content, user: UserRecord | undefined): CustomTermVersionRecord {
  return {
    id: ctx.store.newId(),
    version_number: number,
    body: content.body,
    docx_sha256: content.docxSha256,
    created_by_email: user?.email ?? null,
    created_at: ctx.store.timestamp(),
  };
}

function createTerm(ctx: RequestContext, deps: AgreementsDeps): RouteResult {
  const org = customTermsOrganization(ctx);
  const form = readForm(ctx);
  const errors = new FieldErrors();
  const name = requiredText(form.body, 'name', errors);
  // NOTE(api): an omitted term_type means `file` for a multipart request with a docx part, else `text`.
  const sentType = readString(form.body, 'term_type', errors) ?? (form.files.has('docx') ? 'file' : 'text');
  const termType = sentType === 'text' || sentType === 'file' ? sentType : undefined;
  if (!termType && !errors.has('term_type')) errors.add('term_type', 'must be "text" or "file"');
  const user = actingUser(ctx, org, form.body, errors, true);
  const content = termType ? readContent(form, termType, errors) : undefined;
  errors.throwIfAny();
  if (!name || !termType || !content) throw new Error('unreachable: validated above');
  const now = ctx.store.timestamp();
  const term: CustomTermRecord = {
    id: ctx.store.newId(),
    name,
    term_type: termType,
    conversion_status: termType === 'file' ? 'processing' : null,
    versions: [newVersion(ctx, 1, content, user)],
    created_at: now,
    updated_at: now,
  };
  org.agreements.custom_terms[term.id] = term;
  if (termType === 'file') deps.conversions.schedule(org.id, term.id, 1);
  return ok(customTermView(term, true), 201);
}

function renameTerm(ctx: RequestContext): RouteResult {
  const org = customTermsOrganization(ctx);
  const term = termOf(ctx, org);
  const body = ctx.json();
  const errors = new FieldErrors();
  for (const key of Object.keys(body)) if (key !== 'name') errors.add(key, 'only name can be changed; publish a version');
  const name = requiredText(body, 'name', errors);
  errors.throwIfAny();
  if (name === undefined) throw new Error('unreachable: validated above');
  term.name = name;
  term.updated_at = ctx.store.timestamp();
  return ok(customTermView(term, true));
}

function listVersions(ctx: RequestContext): RouteResult {
  const term = termOf(ctx, customTermsOrganization(ctx));
  return { status: 200, body: listResponse(ctx, term.versions.map(customTermVersionView)) };
}

/**
 * Version N+1, released at once (seed 001). NOTE(api): the answer is the custom term (with the new
 * `current_version_number`); seed 001 does not show the response body.
 */
function publishVersion(ctx: RequestContext, deps: AgreementsDeps): RouteResult {
  const org = customTermsOrganization(ctx);
  const term = termOf(ctx, org);
  const form = readForm(ctx);
  const errors = new FieldErrors();
  const user = actingUser(ctx, org, form.body, errors, true);
  const content = readContent(form, term.term_type, errors);
  errors.throwIfAny();
  if (!content) throw new Error('unreachable: validated above');
  const number = latest(term.versions).version_number + 1;
  term.versions.push(newVersion(ctx, number, content, user));
  term.updated_at = ctx.store.timestamp();
  if (term.term_type === 'file') {
    term.conversion_status = 'processing';
    deps.conversions.schedule(org.id, term.id, number);
  }
  return ok(customTermView(term, true), 201);
}
