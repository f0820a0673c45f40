/**
 * Reviews (seed 000 "Reviews"): create from an imported file id (JSON), from an upload (multipart
 * part `file`) or through the MCP mint body (JSON `filename`: a curl command that uploads the
 * local file to a signed URL); list (paged) and get. The stand-in reviewer (reviewer.ts) makes the
 * results; the review is `processing` until the scheduler completes it.
 */
import { FieldErrors, isPresent, readString, readText, type JsonBody } from '../fields.js';
import { readForm } from '../form.js';
import { listResponse } from '../jsonapi.js';
import { badRequest, HttpProblem } from '../problem.js';
import { newImportedFile, newReview, reviewerRules } from '../review-records.js';
import type { ImportedFileRecord, ReviewRecord, ReviewUploadRecord } from '../review-state.js';
import { REVIEW_TYPES, type ReviewType } from '../reviewer.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import type { OrganizationRecord } from '../store.js';
import { compareCreated } from '../store.js';
import { lookup, ok, organizationOf, route, type StyleRoute, type ReviewDeps } from './review-common.js';
import { fileOfForm } from './review-imported-files.js';
import { reviewView } from './review-result-views.js';

/** NOTE(api): the public docs give 30 reviews per page; the other lists default to 15. */
export const REVIEWS_PAGE_SIZE = 30;
/** Where the signed upload URLs of the MCP mint body point (outside `/v1`, so both path styles share it). */
export const UPLOADS = '/review/uploads';

export function reviewRoutesOf(prefix: string, r: StyleRoute, deps: ReviewDeps): Route[] {
  const REVIEWS = `${prefix}/reviews`;
  return [
    r('GET', REVIEWS, listReviews),
    r('POST', REVIEWS, (ctx) => createReview(ctx, deps)),
    r('GET', `${REVIEWS}/:review`, (ctx) => {
      const org = organizationOf(ctx);
      return ok(reviewView(org, lookup(org.reviews, ctx.params.review, 'review'), true));
    }),
  ];
}

/** The signed upload URL: no API key (the token is the signature); in every path style. */
export function reviewUploadRoutes(deps: ReviewDeps): Route[] {
  return [{ ...route('PUT', `${UPLOADS}/:token`, (ctx) => upload(ctx, deps)), anonymous: true }];
}

function listReviews(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const reviews = Object.values(org.reviews).sort((a, b) => compareCreated(a.created_at, b.created_at));
  return { status: 200, body: listResponse({ query: ctx.query, url: ctx.url, variants: ctx.variants, defaultPageSize: REVIEWS_PAGE_SIZE }, reviews.map((rv) => reviewView(org, rv, false))) };
}

interface ReviewOptions {
  playbookId: string | undefined;
  reviewType: ReviewType | null;
}

/** `playbook_id` and `review_type`, common to the three bodies (422 naming each bad one). */
function readOptions(org: OrganizationRecord, body: JsonBody, errors: FieldErrors): ReviewOptions {
  const sentPlaybook = readText(body, 'playbook_id', errors, true);
  let playbookId: string | undefined;
  if (typeof sentPlaybook === 'string') {
    const pb = Object.hasOwn(org.playbooks, sentPlaybook) ? org.playbooks[sentPlaybook] : undefined;
    if (!pb || pb.archived_at !== null) errors.add('playbook_id', 'is not a playbook of the organization');
    else playbookId = pb.id;
  } else if (!errors.has('playbook_id')) {
    // NOTE(api): without playbook_id the service uses the default playbook; ours is the oldest active one.
    playbookId = Object.values(org.playbooks).find((p) => p.archived_at === null)?.id;
    if (playbookId === undefined) errors.add('playbook_id', 'is required: the organization has no playbook to use by default');
  }
  const type = body.review_type;
  let reviewType: ReviewType | null = null;
  if (type !== undefined && type !== null) {
    if (typeof type === 'string' && (REVIEW_TYPES as readonly string[]).includes(type)) reviewType = type as ReviewType;
    else errors.add('review_type', `must be one of: ${REVIEW_TYPES.join(', ')}`);
  }
  return { playbookId, reviewType };
}

function createReview(ctx: RequestContext, deps: ReviewDeps): RouteResult {
  const org = organizationOf(ctx);
  const form = readForm(ctx);
  const errors = new FieldErrors();
  const options = readOptions(org, form.body, errors);
  let file: ImportedFileRecord | undefined;
  if (form.multipart) {
    // [public docs] an upload does not also name an imported file.
    if (isPresent(form.body, 'imported_file_id')) errors.add('imported_file_id', 'is not sent with an upload (send the file part or an imported_file_id)');
    file = fileOfForm(ctx, form, errors);
  } else if (isPresent(form.body, 'filename') && !isPresent(form.body, 'imported_file_id')) {
    return mint(ctx, org, form.body, options, errors);
  } else {
    file = readImportedFile(org, form.body, errors);
    if (isPresent(form.body, 'filename')) errors.add('filename', 'is not sent with imported_file_id (send one of them)');
  }
  errors.throwIfAny();
  if (!file || options.playbookId === undefined) throw new Error('unreachable: validated above');
  // NOTE(api): an uploaded contract becomes an imported file too (listed, reusable by id).
  if (form.multipart) org.imported_files[file.id] = file;
  const review = startReview(ctx, org, deps, file, options.playbookId, options.reviewType);
  return ok(reviewView(org, review, true), 201);
}

function readImportedFile(org: OrganizationRecord, body: JsonBody, errors: FieldErrors): ImportedFileRecord | undefined {
  const id = readString(body, 'imported_file_id', errors);
  if (errors.has('imported_file_id')) return undefined;
  if (id === undefined || id.trim() === '') {
    errors.add('imported_file_id', 'is required (or upload the file as multipart/form-data with a part named "file")');
    return undefined;
  }
  const file = Object.hasOwn(org.imported_files, id) ? org.imported_files[id] : undefined;
  if (!file) errors.add('imported_file_id', 'is not an imported file of the organization');
  return file;
}

function startReview(ctx: RequestContext, org: OrganizationRecord, deps: ReviewDeps, file: ImportedFileRecord, playbookId: string, reviewType: ReviewType | null): ReviewRecord {
  const rules = reviewerRules(ctx.store.state.users, org, playbookId);
  const review = newReview({ id: ctx.store.newId(), playbookId, file, reviewType, rules }, () => ctx.store.newId(), ctx.store.timestamp());
  org.reviews[review.id] = review;
  deps.reviews.schedule(org.id, review.id);
  return review;
}

// ---- the MCP mint body and its signed upload URL --------------------------------------------

/** Seed 000 "Errors" 7: C0 and C1 control characters (newlines, null bytes, DEL, …). */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * `{ curl_command }`: a command that PUTs the local file to a one-use signed URL. NOTE(api): the
 * status (200, nothing is created until the upload) and the command's form are ours; the path is
 * shell-escaped for a POSIX shell (single quotes, `'\''` for an apostrophe).
 */
function mint(ctx: RequestContext, org: OrganizationRecord, body: JsonBody, options: ReviewOptions, errors: FieldErrors): RouteResult {
  const filename = readString(body, 'filename', errors);
  if (typeof filename === 'string') {
    if (filename.trim() === '') errors.add('filename', "can't be blank");
    else if (CONTROL.test(filename)) errors.add('filename', 'must not contain control characters (such as newlines or null bytes)');
  }
  errors.throwIfAny();
  if (filename === undefined || options.playbookId === undefined) throw new Error('unreachable: validated above');
  const slot: ReviewUploadRecord = { token: ctx.store.newId(), filename, playbook_id: options.playbookId, review_type: options.reviewType, created_at: ctx.store.timestamp() };
  org.review_uploads[slot.token] = slot;
  const url = `${ctx.url.origin}${UPLOADS}/${slot.token}`;
  const command = ['curl', '-sS', '-X', 'PUT', '-H', 'Content-Type: application/octet-stream', '--data-binary', `@${filename}`, url].map(shellQuote).join(' ');
  return { status: 200, body: { curl_command: command } };
}

export function shellQuote(word: string): string {
  return /^[\w@%+=:,./-]+$/.test(word) && !word.startsWith('@') ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The upload to a signed URL: the body is the file; the review is made as the mint body asked. */
function upload(ctx: RequestContext, deps: ReviewDeps): RouteResult {
  const token = ctx.params.token ?? '';
  const org = Object.values(ctx.store.state.organizations).find((o) => Object.hasOwn(o.review_uploads, token));
  const slot = org?.review_uploads[token];
  if (!org || !slot) throw new HttpProblem(404, 'this upload URL is unknown or was used already');
  if (ctx.rawBody.length === 0) throw badRequest('the upload is empty: send the file as the request body');
  const pb = Object.hasOwn(org.playbooks, slot.playbook_id) ? org.playbooks[slot.playbook_id] : undefined;
  if (!pb || pb.archived_at !== null) throw new HttpProblem(409, `playbook ${slot.playbook_id} was archived after the upload URL was made`);
  delete org.review_uploads[token];
  const file = newImportedFile(ctx.store.newId(), ctx.rawBody, slot.filename.split(/[\\/]/).pop() ?? slot.filename, null, ctx.store.timestamp());
  org.imported_files[file.id] = file;
  const review = startReview(ctx, org, deps, file, pb.id, slot.review_type);
  return ok(reviewView(org, review, true), 201);
}
