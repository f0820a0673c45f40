/**
 * Attachments (seed 001 "Attachment upload"): a multipart upload of a PDF with `attachment[...]`
 * parts. Only the digest and size of the file are kept.
 */
import { createHash } from 'node:crypto';
import type { AttachmentRecord } from '../agreements-state.js';
import { FieldErrors } from '../fields.js';
import { badRequest } from '../problem.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import { BASE, BLANK, callerOrganization, lookup, ok, readForm, route } from './agreements-common.js';
import { attachmentView } from './agreements-views.js';

const ATTACHMENTS = `${BASE}/attachments`;

export function attachmentRoutes(): Route[] {
  return [
    route('POST', ATTACHMENTS, uploadAttachment),
    // NOTE(api): an emulator convenience for tests; the real service offers no list, get or delete over REST.
    route('GET', `${ATTACHMENTS}/:id`, (ctx) => ok(attachmentView(lookup(callerOrganization(ctx).agreements.attachments, ctx.params.id, 'attachment')))),
  ];
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

function uploadAttachment(ctx: RequestContext): RouteResult {
  const org = callerOrganization(ctx);
  const form = readForm(ctx);
  // NOTE(api): seed 001 mentions a JSON variant of the upload without its fields; we take multipart only.
  if (!form.multipart) throw badRequest('attachments are uploaded as multipart/form-data with attachment[pdf], attachment[name], …');
  const errors = new FieldErrors();
  const name = text(form.body['attachment[name]'])?.trim();
  if (!name) errors.add('attachment[name]', BLANK);
  // NOTE(api): the file is required and its content is not checked to be a PDF.
  const pdf = form.files.get('attachment[pdf]');
  if (!pdf) errors.add('attachment[pdf]', 'is required (the PDF file part)');
  errors.throwIfAny();
  if (!name || !pdf) throw new Error('unreachable: validated above');
  const description = text(form.body['attachment[description]']);
  const attachment: AttachmentRecord = {
    id: ctx.store.newId(),
    name,
    description: description === undefined || description === '' ? null : description,
    filename: pdf.filename,
    byte_size: pdf.data.length,
    sha256: createHash('sha256').update(pdf.data).digest('hex'),
    // NOTE(api): kept as sent; not checked against the organization's users.
    uploaded_by: text(form.body['attachment[uploaded_by]']) ?? null,
    created_at: ctx.store.timestamp(),
  };
  org.agreements.attachments[attachment.id] = attachment;
  return ok(attachmentView(attachment), 201);
}
