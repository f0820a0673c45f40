/**
 * RFC 9457 problem details. Handlers throw `HttpProblem`; the server turns it into an
 * `application/problem+json` response carrying the request id.
 */
import { STATUS_CODES } from 'node:http';

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface FieldError {
  field: string;
  message: string;
}

export interface ProblemDocument {
  type: string;
  title: string;
  status: number;
  detail: string;
  instance: string;
  trace: { requestId: string };
  errors?: FieldError[];
}

export class HttpProblem extends Error {
  readonly status: number;
  readonly errors: FieldError[] | undefined;
  readonly headers: Record<string, string>;
  /** Answered as it is instead of the problem document: an injected fault's `body`, an error shape another edition of the docs shows. */
  readonly body: unknown;

  constructor(status: number, detail: string, options: { errors?: FieldError[]; headers?: Record<string, string>; body?: unknown } = {}) {
    super(detail);
    this.name = 'HttpProblem';
    this.status = status;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
    this.body = options.body;
  }
}

export function problemDocument(problem: HttpProblem, instance: string, requestId: string): ProblemDocument {
  const doc: ProblemDocument = {
    // NOTE(api): the real services' problem `type` URIs are not documented; this form is ours.
    type: `https://httpproblems.com/http-status/${problem.status}`,
    title: STATUS_CODES[problem.status] ?? 'Error',
    status: problem.status,
    detail: problem.message,
    instance,
    trace: { requestId },
  };
  if (problem.errors?.length) doc.errors = problem.errors;
  return doc;
}

export function badRequest(detail: string): HttpProblem {
  return new HttpProblem(400, detail);
}

export function notFound(detail: string): HttpProblem {
  return new HttpProblem(404, detail);
}

/** 422 with one entry per rejected field; the detail names the fields for clients that show only it. */
export function validationFailed(errors: FieldError[]): HttpProblem {
  const detail = `validation failed for ${[...new Set(errors.map((e) => e.field))].join(', ')}`;
  return new HttpProblem(422, detail, { errors });
}
