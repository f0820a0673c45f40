/** Low-level request and response helpers for node:http. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JsonBody } from './fields.js';
import { badRequest, HttpProblem, PROBLEM_CONTENT_TYPE, problemDocument } from './problem.js';
import { whereJsonStops } from '../util/json-error.js';

/** Large enough for docx and PDF uploads of the agreements service. */
export const MAX_BODY_BYTES = 20 * 1024 * 1024;

/** The whole body; by events rather than an async iterator, which costs more than a small body does. */
export function readBody(req: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    let chunks: Buffer[] | undefined = [];
    let size = 0;
    const done = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (chunk: unknown): void => {
      const buf = Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk));
      size += buf.length;
      // Past the limit the rest is read and thrown away, and the 413 sent only at its end: a
      // client still sending when it came could see a reset connection instead of the answer.
      if (size > MAX_BODY_BYTES) chunks = undefined;
      else chunks?.push(buf);
    };
    const onEnd = (): void => {
      done();
      if (chunks) resolve(Buffer.concat(chunks, size));
      else reject(new HttpProblem(413, `request body larger than ${MAX_BODY_BYTES} bytes`));
    };
    const onError = (err: Error): void => {
      done();
      reject(err);
    };
    // A client that goes away before the end.
    const onClose = (): void => {
      done();
      reject(Object.assign(new Error('Premature close'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** Request bodies are flat JSON objects (reference/api.md); an empty body reads as `{}`. */
export function parseJsonObject(raw: Buffer): JsonBody {
  const text = raw.toString('utf8');
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    // Where it stops, quoting nothing (a seed POSTed to reset may hold keys), as --seed says it.
    throw badRequest(`the request body is not valid JSON (${whereJsonStops(err, text)})`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw badRequest('the request body must be a JSON object');
  return value as JsonBody;
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (body === undefined || status === 204) {
    res.writeHead(status, headers);
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
    ...headers,
  });
  res.end(text);
}

/** A download: the bytes as they are, with the route's headers (content type, disposition). */
export function sendBytes(res: ServerResponse, status: number, body: Buffer, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/octet-stream', 'content-length': String(body.length), ...headers });
  res.end(body);
}

export function sendProblem(res: ServerResponse, problem: HttpProblem, instance: string, requestId: string): void {
  if (problem.body !== undefined) {
    sendOwnBody(res, problem);
    return;
  }
  const text = JSON.stringify(problemDocument(problem, instance, requestId));
  res.writeHead(problem.status, {
    'content-type': PROBLEM_CONTENT_TYPE,
    'content-length': String(Buffer.byteLength(text)),
    ...problem.headers,
  });
  res.end(text);
}

/** A problem with a body of its own: a string as text (HTML when it looks like it, as a gateway's page), anything else as JSON. */
function sendOwnBody(res: ServerResponse, problem: HttpProblem): void {
  const body = problem.body;
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const type = typeof body !== 'string' ? 'application/json; charset=utf-8' : body.trimStart().startsWith('<') ? 'text/html; charset=utf-8' : 'text/plain; charset=utf-8';
  res.writeHead(problem.status, { 'content-type': type, 'content-length': String(Buffer.byteLength(text)), ...problem.headers });
  res.end(text);
}
