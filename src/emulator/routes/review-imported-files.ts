/**
 * Imported files (seed 000 "Other operations"): contracts uploaded once and reviewed by id.
 * NOTE(api): seed 000 shows only "list imported files"; the upload (multipart POST with part
 * `file`, as the create-review upload) and the single read are ours.
 */
import { FieldErrors } from '../fields.js';
import { readForm, type Form } from '../form.js';
import { listResponse } from '../jsonapi.js';
import { badRequest } from '../problem.js';
import { newImportedFile } from '../review-records.js';
import type { ImportedFileRecord } from '../review-state.js';
import type { RequestContext, Route, RouteResult } from '../router.js';
import { compareCreated } from '../store.js';
import { lookup, ok, organizationOf, type StyleRoute } from './review-common.js';
import { importedFileView } from './review-result-views.js';

export function importedFileRoutes(prefix: string, r: StyleRoute): Route[] {
  const FILES = `${prefix}/imported_files`;
  return [
    r('GET', FILES, listImportedFiles),
    r('POST', FILES, importFile),
    r('GET', `${FILES}/:imported_file`, (ctx) => ok(importedFileView(lookup(organizationOf(ctx).imported_files, ctx.params.imported_file, 'imported file')))),
  ];
}

function listImportedFiles(ctx: RequestContext): RouteResult {
  const files = Object.values(organizationOf(ctx).imported_files).sort((a, b) => compareCreated(a.created_at, b.created_at));
  return { status: 200, body: listResponse(ctx, files.map(importedFileView)) };
}

function importFile(ctx: RequestContext): RouteResult {
  const org = organizationOf(ctx);
  const file = uploadedFile(ctx);
  org.imported_files[file.id] = file;
  return ok(importedFileView(file), 201);
}

/**
 * The `file` part of a multipart upload as a new imported file (not stored yet). 400 for a body
 * that is not multipart; 422 naming `file` when the part is missing, not a file, or empty.
 */
function uploadedFile(ctx: RequestContext): ImportedFileRecord {
  const form = readForm(ctx);
  if (!form.multipart) throw badRequest('a file is uploaded as multipart/form-data with a file part named "file"');
  const errors = new FieldErrors();
  const file = fileOfForm(ctx, form, errors);
  errors.throwIfAny();
  if (!file) throw new Error('unreachable: validated above');
  return file;
}

/** The form's file part `file` as a new imported file, or an error recorded under `file`. */
export function fileOfForm(ctx: RequestContext, form: Form, errors: FieldErrors): ImportedFileRecord | undefined {
  const part = form.files.get('file');
  if (!part) errors.add('file', Object.hasOwn(form.body, 'file') ? 'must be a file part (with a filename)' : 'is required (the contract, a PDF or DOCX file)');
  else if (part.data.length === 0) errors.add('file', 'is an empty file');
  return part && part.data.length > 0 ? newImportedFile(ctx.store.newId(), part.data, part.filename, part.contentType, ctx.store.timestamp()) : undefined;
}
