/**
 * Which created objects the API client found by reading rather than by the create's answer: kept
 * beside the object, so what a create returns stays the service's resource.
 */
import { earliestMade } from '../util/earliest.js';
import { isPlainObject } from '../util/plain.js';
import type { ApiResource } from './types.js';

/** Objects a create returned because a read found them by identity: the create's answer did not name them. */
const foundByRead = new WeakSet<object>();

export function markFound<T>(answer: T): T {
  const data = isPlainObject(answer) ? answer.data : undefined;
  if (isPlainObject(data)) foundByRead.add(data);
  return answer;
}

/**
 * Whether a created object was found by reading after the create's answer was lost or named no
 * id: it has the identity asked for, but may be another client's copy made at the same time.
 */
export function foundByReading(resource: object): boolean {
  return foundByRead.has(resource);
}

/**
 * The object a create whose answer did not name it is taken to be, among those with its identity:
 * the earliest made, as the duplicate check after the create picks (another apply's copy may be
 * live too, and the list's order is the service's).
 */
export function firstMade<A>(items: readonly ApiResource<A>[], sameIdentity: (item: ApiResource<A>) => boolean): { data: ApiResource<A> } | undefined {
  const found = earliestMade(items.filter(sameIdentity), createdAtOf);
  return found ? { data: found } : undefined;
}

/** When the service says the object was made (`created_at`, ISO 8601), if it says. */
export function createdAtOf(resource: ApiResource<unknown>): string | undefined {
  const created = (resource.attributes as { created_at?: unknown }).created_at;
  return typeof created === 'string' ? created : undefined;
}
