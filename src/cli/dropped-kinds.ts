/**
 * The kinds the files dropped every object of: a plan no longer reads them, but drift and pull
 * still say the live edits made since the last sync in those objects (and only those: an object
 * of such a kind made in the app is no one's).
 */
import { kindsManaged, kindsToRead } from '../engine/project.js';
import type { KindName } from '../engine/types.js';
import { KINDS } from '../kinds/index.js';
import { isSetAside } from '../kinds/support/race.js';
import { namedByTargets, parseTarget } from '../engine/target.js';
import { planDetailsInSession } from './plan-step.js';
import { isFeatureOff } from '../api/problem.js';
import type { Session } from './session.js';

type Details = Awaited<ReturnType<typeof planDetailsInSession>>;

/**
 * A read-only plan (drift, pull) with the kinds the files dropped whole read too, and those kinds.
 * Their sync records' section needs the review organization: where the configuration does not name
 * it, the service is asked first (the probe the first read would make anyway).
 */
export async function readWithDroppedKinds(s: Session, opts: { targets: string[]; kinds: readonly KindName[]; readAll?: boolean }): Promise<{ details: Details; dropped: KindName[] }> {
  const read = (also: readonly KindName[], droppedOnly: readonly KindName[] = []) =>
    planDetailsInSession(s, { targets: opts.targets, alsoRead: [...also], readOnly: true, droppedOnly, ...(opts.readAll ? { readAll: true } : {}), ...(opts.kinds.length > 0 ? { reportedKinds: opts.kinds } : {}) });
  // `--kind` names what is read: nothing is added to it.
  if (opts.kinds.length > 0) return { details: withinKinds(await read(opts.kinds), s, opts.kinds, opts.targets), dropped: [] };
  const review = s.connection.target.review;
  if (review && review.organization_id === '' && !s.connection.target.emulator) await s.connection.services.review().locate();
  const dropped = droppedKinds(s);
  // A kind a `--target` names is read whole too, though no file declares it (a term made in the app, probe FT).
  const targeted = opts.targets.flatMap((text) => {
    const t = parseTarget(text, KINDS);
    return 'error' in t || dropped.includes(t.kind) || KINDS.find((k) => k.name === t.kind)?.parentKind ? [] : [t.kind];
  });
  try {
    return { details: withinKinds(await read([...dropped, ...targeted], dropped), s, dropped, opts.targets), dropped };
  } catch (error) {
    // Custom terms and templates turned off for the organization after the files dropped them: their
    // records are history nothing in the files can change, and no run would pass them (probe CD-1).
    const isGated = (name: KindName): boolean => KINDS.find((k) => k.name === name)?.featureGated === true;
    const gated = dropped.filter((name) => isGated(name) && !targeted.includes(name));
    // A gated kind the plan reads anyway (the files declare one) meets the same 404: said as it is (second read SR101-6).
    const gatedRead = kindsToRead(s.workspace.desired, s.prune).some((k) => k.featureGated) || targeted.some(isGated);
    if (!isFeatureOff(error) || gated.length === 0 || gatedRead) throw error;
    const kept = dropped.filter((name) => !gated.includes(name));
    s.logger.info(`Warning: custom terms and templates are not enabled for this organization (the agreements service answers 404): the ${gated.map((name) => `${name.replace(/-/g, ' ')}s`).join(' and ')} docket synced before, which no file declares any more, are not read`);
    return { details: withinKinds(await read([...kept, ...targeted], kept), s, kept, opts.targets), dropped: kept };
  }
}

/**
 * The objects no file declares, of the kinds the files manage or `also` names, or synced before (but
 * the copies concurrent applies set aside), and those a `--target` names: of a
 * kind read only for a reference (a custom template's term), one made in the app is not drift, nor
 * written by pull (probe FQ: every export of custom templates alone read as drift from its first day).
 */
function withinKinds(details: Details, s: Session, also: readonly KindName[], targets: readonly string[]): Details {
  const managed = kindsManaged(s.workspace.desired, s.prune, KINDS, also);
  // One the files declared before and dropped is theirs still: its live edits since are said, and
  // pull removes it. One a `--target` names is asked for (second read).
  const sync = s.sync();
  const named = targets.length > 0 ? namedByTargets(targets, KINDS) : () => false;
  // A copy a concurrent apply set aside is no one's edit: not drift, nor for pull to write (probe HN-3).
  const unmatched = details.unmatched.filter((l) => named(l) || ((managed.has(l.kind) || sync.keysWithId(l.id).length > 0) && !isSetAside(l)));
  return unmatched.length === details.unmatched.length ? details : { ...details, unmatched };
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
