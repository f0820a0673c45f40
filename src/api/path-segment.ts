/** Ids in request paths: each is one segment, whatever the service (or a file) named. */
import { DocketError } from '../errors.js';

/** The characters (a regular expression's class) that end a URL's path segment or its path: no id holds one. */
export const SEGMENT_BREAKERS = '/\\\\?#%\\u0000-\\u0020\\u007f';
const SEGMENT_BREAKER = new RegExp(`[${SEGMENT_BREAKERS}]`);

/**
 * Why an id from the service cannot be sent back as one segment of a request path (`/` or `..`
 * would reach another object's route, `?` or `#` cut the path), or undefined when it can.
 * NOTE(api): ids are UUIDs in every documented answer; anything a URL cannot carry as one segment
 * is refused rather than guessed at.
 */
export function idProblem(id: string): string | undefined {
  if (id !== '.' && id !== '..' && !SEGMENT_BREAKER.test(id)) return undefined;
  return `has an id that cannot be one segment of a URL (${JSON.stringify(shortId(id))})`;
}

/**
 * An id as a message quotes it: at most 64 characters, and an ellipsis where it was cut, so what
 * output redacts as a key cut short (cli/redact.ts) is seen to be cut.
 */
export function shortId(id: string): string {
  return id.length > 64 ? `${id.slice(0, 64)}…` : id;
}

/**
 * `id` as one segment of a request path. Ids are checked where the services answer them
 * (idProblem); this also covers ids read from docket.lock.json or a saved plan.
 */
export function pathSegment(id: string): string {
  const problem = idProblem(id);
  if (problem) throw new DocketError('bad-response', `an object ${problem}`, 'nothing was sent; report it to the service (or fix the file that names the id)');
  return encodeURIComponent(id);
}
