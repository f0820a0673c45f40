/** A request body that is JSON or multipart/form-data (uploads of both services). */
import type { JsonBody } from './fields.js';
import { isMultipart, parseMultipart, type MultipartPart } from './multipart.js';
import type { RequestContext } from './router.js';

export interface Form {
  /** JSON body, or the multipart text parts as strings. */
  body: JsonBody;
  /** Multipart file parts by name (empty for JSON). */
  files: Map<string, MultipartPart>;
  multipart: boolean;
}

/** A JSON or multipart/form-data body (the last of repeated parts wins). */
export function readForm(ctx: RequestContext): Form {
  const contentType = ctx.headers['content-type'];
  if (!isMultipart(contentType)) return { body: ctx.json(), files: new Map(), multipart: false };
  const body: JsonBody = {};
  const files = new Map<string, MultipartPart>();
  for (const part of parseMultipart(ctx.rawBody, contentType ?? '')) {
    if (part.filename === null) body[part.name] = part.data.toString('utf8');
    else files.set(part.name, part);
  }
  return { body, files, multipart: true };
}
