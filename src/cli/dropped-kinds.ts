/**
 * The kinds the files dropped every object of: a plan no longer reads them, but drift and pull
 * still say the live edits made since the last sync in those objects (and only those: an object
 * of such a kind made in the app is no one's).
 */
import { kindsToRead } from '../engine/project.js';
import type { KindName } from '../engine/types.js';
import { KINDS } from '../kinds/index.js';
import { planDetailsInSession } from './plan-step.js';
import type { Session } from './session.js';

type Details = Awaited<ReturnType<typeof planDetailsInSession>>;

/**
 * A read-only plan (drift, pull) with the kinds the files dropped whole read too, and those kinds.
 * Their sync records' section needs the review organization: where the configuration does not name
 * it, the service is asked first (the probe the first read would make anyway).
 */
export async function readWithDroppedKinds(s: Session, opts: { targets: string[]; kinds: readonly KindName[]; readAll?: boolean }): Promise<{ details: Details; dropped: KindName[] }> {
  const read = (also: readonly KindName[], droppedOnly: readonly KindName[] = []) => planDetailsInSession(s, { targets: opts.targets, alsoRead: [...also], readOnly: true, droppedOnly, ...(opts.readAll ? { readAll: true } : {}) });
  // `--kind` names what is read: nothing is added to it.
  if (opts.kinds.length > 0) return { details: await read(opts.kinds), dropped: [] };
  const review = s.connection.target.review;
  if (review && review.organization_id === '' && !s.connection.target.emulator) await s.connection.services.review().locate();
  const dropped = droppedKinds(s);
  return { details: await read(dropped, dropped), dropped };
}

/**
 * The kinds (of a service this run talks to) a plan does not read, no file declaring any, but docket
 * last saw objects of in sync: the files dropped them all.
 */
function droppedKinds(s: Session): KindName[] {
  // A kind a plan reads anyway (named by a reference, pruned) is read whole, as it always was.
  const read = new Set<string>(kindsToRead(s.workspace.desired, s.prune).map((k) => k.name));
  const recorded = new Set<string>();
  for (const key of s.sync().byKey.keys()) recorded.add(key.slice(0, key.indexOf(':')));
  const target = s.connection.target;
  const talksTo = (service: string): boolean => (service === 'both' ? Boolean(target.review && target.agreements) : Boolean(target[service as 'review' | 'agreements']));
  return KINDS.filter((k) => !k.parentKind && !k.singleton && !k.internal && recorded.has(k.name) && !read.has(k.name) && talksTo(k.service)).map((k) => k.name);
}
