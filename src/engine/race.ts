/**
 * Two applies on one organization at once (a laptop during a CI apply) with no lock on the
 * services: after a create, docket reads the object's scope again; when two live objects share
 * the identity, every run picks the same one to keep (the earliest `created_at`, then the smaller
 * id), and only the run that created the other sets it aside (archive, delete, or a rename out of
 * the way for kinds that cannot be removed). Kinds whose duplicates cannot be removed also look
 * before creating, and use an object another run created meanwhile.
 */
import type { ExecContext, RaceGuard } from '../kinds/kind.js';
import type { Change } from './types.js';
import { earliestMade } from '../util/earliest.js';

export interface Sibling {
  id: string;
  key: string;
  /** ISO 8601, as the service gives it. */
  createdAt?: string;
}

/** The object every run keeps: earliest `created_at` (unknown counts as latest), then the smaller id. */
export function keeperOf(objects: readonly Sibling[]): Sibling | undefined {
  return earliestMade(objects, (o) => o.createdAt);
}

/** A name no configuration declares by accident, that says what the object is and which one it is. */
export function asideName(name: string, id: string): string {
  return `${name}${asideSuffix(id)}`;
}

const asideSuffix = (id: string): string => ` (duplicate ${id.slice(0, 8)}, created by a concurrent docket apply)`;

/** Whether a live object is a copy docket set aside under asideName (its own id in it): no one's to manage. */
export function isSetAside(object: { name: string; id: string }): boolean {
  return object.name.endsWith(asideSuffix(object.id));
}

/**
 * Thrown by a guard whose fresh read finds the scope itself gone (a playbook archived or deleted in
 * the app while its rules were made): what was made in it went with it, so the create is not live.
 */
export class ScopeGone extends Error {
  constructor(readonly scope: string) {
    super(`${scope} is no longer live`);
  }
}

export interface RaceOutcome {
  /** The id dependents should use. */
  id: string;
  /** Said in the report beside the change. */
  note?: string;
  /**
   * The keeper is an object the plan read under another name: renamed to this one meanwhile, by a
   * run whose own check may rename it back on seeing this run's copy (each yields), so this create
   * is not known to hold the name (probe TA-2).
   */
  renamedIn?: true;
}

/** Before a create: an object with the identity that appeared since the plan (kinds that cannot remove duplicates). */
export async function lookBeforeCreate(guard: RaceGuard, change: Change, ctx: ExecContext, known: ReadonlySet<string> = new Set()): Promise<RaceOutcome | undefined> {
  if (!guard.lookFirst) return undefined;
  // An object the plan already knows is not another run's, even under this name (one this apply
  // renames away, read before the rename landed).
  const same = (await guard.siblings(change, ctx)).filter((o) => o.key === change.key && !known.has(o.id));
  const keeper = keeperOf(same);
  if (!keeper) return undefined;
  return { id: keeper.id, note: `another apply (or someone in the app) created it since the plan (id ${keeper.id}); docket uses that one, whose fields may differ from the files: plan again to see` };
}

/**
 * After a create of `mine`: the keeper, with this run's duplicate set aside when it is not.
 * `foundByReading`: the create's answer did not name `mine` (lost, or no id), and a read found it by
 * name, so it may be another run's copy and this run's own may be any other. Every copy the plan
 * did not know (`known`) except the keeper is then set aside: each is a duplicate whoever made it,
 * and every run agrees on the keeper.
 */
export async function settleAfterCreate(guard: RaceGuard, change: Change, mine: string, ctx: ExecContext, foundByReading?: { known: ReadonlySet<string> }, planKnew?: (id: string) => boolean): Promise<RaceOutcome> {
  const same = (await guard.siblings(change, ctx)).filter((o) => o.key === change.key);
  if (foundByReading) return settleFound(guard, change, mine, ctx, same.filter((o) => !foundByReading.known.has(o.id)));
  // A fresh list that leaves out the very object this apply made (its create answered with its id)
  // cannot tell whether another of the name is live: the lists that left it out may have left out
  // the one the plan read as gone too, which it then made again. Said, not taken for none (probe AB-1).
  // NOTE(api): assumes a list shows an object once its create has been answered.
  if (!same.some((o) => o.id === mine)) return { id: mine, note: `the service's list of ${change.kind}s, read again after the apply, did not show the one this apply created (id ${mine}), so docket could not look for another of this name (a list answered empty has the plan make again what is live): plan again, and if it stops at two live objects of this name, remove the one not wanted in the app` };
  if (same.length < 2) return { id: mine };
  const keeper = keeperOf(same)!;
  if (keeper.id === mine) {
    // Another run sets its own copy aside; one made in the app stays, and would stop the next plan (probe KY-2).
    const others = same.filter((o) => o.id !== mine).map((o) => o.id);
    return {
      id: mine,
      note: `another live object of this name appeared at the same time (id ${others.join(', id ')}); docket keeps the one this apply created, which came first: an apply that made the other sets it aside, but one made in the app stays, and the next plan stops at two live objects of one name until it is renamed or removed there`,
    };
  }
  const how = await guard.setAside({ id: mine, key: change.key }, change, ctx);
  if (planKnew?.(keeper.id)) {
    return { id: keeper.id, renamedIn: true, note: `another object (id ${keeper.id}), live under another name when the plan was read, was renamed to this name at the same time (another apply, or someone in the app); docket keeps that one and the one this apply created (id ${mine}) was ${how}, but an apply that renamed it renames it back once it sees this one, so the name may now be held by neither` };
  }
  return { id: keeper.id, note: `another apply (or someone in the app) created it at the same time, or the service left it out of the list the plan read; docket keeps that one (id ${keeper.id}), whose fields may differ from the files (plan again to see), and the one this apply created (id ${mine}) was ${how}` };
}

async function settleFound(guard: RaceGuard, change: Change, mine: string, ctx: ExecContext, same: readonly Sibling[]): Promise<RaceOutcome> {
  const keeper = keeperOf(same);
  if (!keeper || same.length < 2) return { id: keeper?.id ?? mine };
  const setAside: string[] = [];
  // One at a time: a scope's duplicates are few, and a failure then leaves the rest for the next plan to show.
  for (const o of same) {
    if (o.id !== keeper.id) setAside.push(`${o.id} (${await guard.setAside({ id: o.id, key: change.key }, change, ctx)})`);
  }
  return {
    id: keeper.id,
    note: `the service's answer did not name the object this apply created, and ${same.length} were live (another apply created one at the same time); docket keeps the earliest (id ${keeper.id}) and set the others aside: ${setAside.join(', ')}`,
  };
}
