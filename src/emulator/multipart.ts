/**
 * A small multipart/form-data parser (RFC 7578) for the agreements uploads: docx terms and PDF
 * attachments. The whole body is in memory already (http.ts caps it), so this only splits it.
 */
import { badRequest } from './problem.js';

export interface MultipartPart {
  name: string;
  /** Set for file parts (`filename="…"` in Content-Disposition), null for plain fields. */
  filename: string | null;
  contentType: string | null;
  data: Buffer;
}

export function isMultipart(contentType: string | undefined): boolean {
  return /^multipart\/form-data\s*(;|$)/i.test(contentType ?? '');
}

/** The `boundary` parameter of a multipart content type; a 400 when there is none. */
export function boundaryOf(contentType: string): string {
  const match = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const boundary = match?.[1] ?? match?.[2];
  if (!boundary) throw badRequest('multipart/form-data request without a boundary parameter');
  return boundary;
}

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** Splits a multipart/form-data body into its parts; a 400 problem when the body is malformed. */
export function parseMultipart(body: Buffer, contentType: string): MultipartPart[] {
  const delimiter = Buffer.from(`--${boundaryOf(contentType)}`);
  const closeDelimiter = Buffer.concat([CRLF, delimiter]);
  const parts: MultipartPart[] = [];
  let at = body.indexOf(delimiter);
  if (at !== 0 && (at < 0 || !body.subarray(at - 2, at).equals(CRLF))) throw malformed('no opening boundary');
  at += delimiter.length;
  for (;;) {
    // After a delimiter: `--` ends the body, otherwise CRLF starts the next part.
    if (body.subarray(at, at + 2).toString('latin1') === '--') return parts;
    if (!body.subarray(at, at + 2).equals(CRLF)) throw malformed('boundary not followed by CRLF');
    const headersStart = at + 2;
    const headersEnd = body.indexOf(HEADER_END, headersStart);
    // A part with no headers at all has its blank line right after the delimiter's CRLF.
    const noHeaders = body.subarray(headersStart, headersStart + 2).equals(CRLF);
    const dataStart = noHeaders ? headersStart + 2 : headersEnd + HEADER_END.length;
    if (!noHeaders && headersEnd < 0) throw malformed('part headers not terminated');
    const dataEnd = body.indexOf(closeDelimiter, dataStart);
    if (dataEnd < 0) throw malformed('part not terminated by a boundary');
    const headers = noHeaders ? new Map<string, string>() : parseHeaders(body.subarray(headersStart, headersEnd).toString('utf8'));
    parts.push(partOf(headers, body.subarray(dataStart, dataEnd)));
    at = dataEnd + closeDelimiter.length;
  }
}

function partOf(headers: Map<string, string>, data: Buffer): MultipartPart {
  const disposition = headers.get('content-disposition');
  if (!disposition) throw malformed('a part has no Content-Disposition header');
  const params = dispositionParams(disposition);
  const name = params.get('name');
  if (name === undefined) throw malformed('a part has no name');
  const filename = params.get('filename*') ?? params.get('filename') ?? null;
  return { name, filename, contentType: headers.get('content-type') ?? null, data: Buffer.from(data) };
}

function parseHeaders(text: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of text.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw malformed(`bad part header line "${line}"`);
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

/** `form-data; name="a"; filename="b.docx"` → name, filename (quoted or token; RFC 5987 `filename*`). */
function dispositionParams(value: string): Map<string, string> {
  const params = new Map<string, string>();
  const re = /;\s*([^=;\s]+)\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*))/g;
  for (let m = re.exec(value); m !== null; m = re.exec(value)) {
    const key = (m[1] ?? '').toLowerCase();
    let v = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : (m[3] ?? '').trim();
    if (key.endsWith('*')) v = decodeExtended(v);
    params.set(key, v);
  }
  return params;
}

function decodeExtended(value: string): string {
  const match = /^[^']*'[^']*'(.*)$/.exec(value);
  try {
    return decodeURIComponent(match?.[1] ?? value);
  } catch {
    return value;
  }
}

function malformed(why: string): ReturnType<typeof badRequest> {
  return badRequest(`malformed multipart/form-data body: ${why}`);
}
