/**
 * Live state: asks every kind the configuration uses to read its objects, in parallel, with shared
 * memoised reads and one concurrency bound. A kind that needs another kind's live objects asks for
 * them (`ctx.live`), and each kind is read once whoever asks first.
 */
import type { ServiceName } from '../api/types.js';
import type { LockFile } from '../config/lock.js';
import { DocketError } from '../errors.js';
import type { AnyKind, KindName } from '../kinds/index.js';
import type { FetchContext, Services } from '../kinds/kind.js';
import type { SyncedIds } from '../kinds/support/declared.js';
import { mapLimit } from '../util/map-limit.js';
import type { DesiredResource, LiveResource, LockUpdate, UncertainUpload } from './types.js';

export interface FetchLiveOptions {
  /** Kinds whose live objects the caller wants. */
  kinds: readonly AnyKind[];
  /** Every kind a read may ask for (the registry); defaults to `kinds`. */
  known?: readonly AnyKind[];
  services: Services;
  concurrency: number;
  lock: LockFile;
  /** Desired resources (lets kinds skip reads); undefined reads everything (export). */
  declared?: DesiredResource[];
  /** Read every object in detail though resources are declared (pull). */
  readAll?: boolean;
  /** Kinds read only for the objects the files dropped (FetchContext.droppedOnly). */
  droppedOnly?: ReadonlySet<KindName>;
  /** Read in detail the objects the files dropped since the last sync too (FetchContext.readDropped). */
  readDropped?: ReadonlySet<KindName>;
  /** Export: the services the source configuration names (a kind on both reads only their parts). */
  exportServices?: ReadonlySet<ServiceName>;
  /** The live ids last synced under declared identities: objects renamed in the app are read in detail too. */
  synced?: () => SyncedIds | Promise<SyncedIds>;
  /** With `--target`: the parents whose children are read (FetchContext.targetedParents). */
  targetedParents?: ReadonlyMap<KindName, ReadonlySet<string>>;
  /** `apply --adopt-files` (FetchContext.adoptFiles). */
  adoptFiles?: boolean;
}

export interface LiveState {
  /** The live objects of the kinds asked for, in their order. */
  live: LiveResource[];
  /** Every kind that was read, including those other kinds asked for. */
  byKind: ReadonlyMap<KindName, LiveResource[]>;
  /** Lock entries the reads settled (interrupted uploads found live or found missing). */
  lockUpdates: LockUpdate[];
  /** Interrupted uploads whose outcome cannot be read. */
  uncertain: UncertainUpload[];
  /** Kinds the services showed only in part (FetchContext.seenInPart). */
  seenInPart: ReadonlySet<KindName>;
  /** What the reads found that the plan says, changing nothing (FetchContext.note). */
  notes: string[];
}

export async function fetchLive(options: FetchLiveOptions): Promise<LiveState> {
  const known = new Map((options.known ?? options.kinds).map((k) => [k.name, k]));
  for (const k of options.kinds) known.set(k.name, k);
  const memo = new Map<string, Promise<unknown>>();
  const perKind = new Map<KindName, Promise<LiveResource[]>>();
  const lockUpdates: LockUpdate[] = [];
  const uncertain: UncertainUpload[] = [];
  const seenInPart = new Set<KindName>();
  const notes: string[] = [];
  const read = (name: KindName): Promise<LiveResource[]> => {
    let p = perKind.get(name);
    if (!p) {
      const kind = known.get(name);
      if (!kind) return Promise.reject(new Error(`kind ${name} is not registered`));
      p = kind.fetch(ctx).catch((error: unknown) => {
        throw unexpectedShape(kind, error);
      });
      perKind.set(name, p);
    }
    return p;
  };
  const ctx: FetchContext = {
    services: options.services,
    lock: options.lock,
    ...(options.declared ? { declared: options.declared } : {}),
    ...(options.readAll ? { readAll: true } : {}),
    ...(options.droppedOnly ? { droppedOnly: options.droppedOnly } : {}),
    ...(options.readDropped ? { readDropped: options.readDropped } : {}),
    ...(options.exportServices ? { exportServices: options.exportServices } : {}),
    ...(options.synced ? { synced: options.synced } : {}),
    ...(options.targetedParents ? { targetedParents: options.targetedParents } : {}),
    ...(options.adoptFiles ? { adoptFiles: true } : {}),
    live: read,
    memo<T>(key: string, load: () => Promise<T>): Promise<T> {
      let p = memo.get(key) as Promise<T> | undefined;
      if (!p) {
        p = load();
        memo.set(key, p);
      }
      return p;
    },
    parallel: (items, fn) => mapLimit(items, options.concurrency, fn),
    settle: (update) => lockUpdates.push(update),
    uncertain: (upload) => uncertain.push(upload),
    seenInPart: (kind) => seenInPart.add(kind),
    note: (text) => notes.push(text),
  };
  const asked = await Promise.all(options.kinds.map((k) => read(k.name)));
  const byKind = new Map<KindName, LiveResource[]>();
  for (const [name, p] of perKind) byKind.set(name, await p);
  const byKey = (a: { kind: string; key: string }, b: { kind: string; key: string }): number => `${a.kind}:${a.key}`.localeCompare(`${b.kind}:${b.key}`);
  return { live: asked.flat(), byKind, lockUpdates: lockUpdates.sort(byKey), uncertain: uncertain.sort(byKey), seenInPart, notes: notes.sort() };
}

/**
 * The api layer checks every envelope; a value deeper inside that is not what a kind expects (a
 * name that is a number) surfaces here as a typed error instead of a crash.
 */
function unexpectedShape(kind: AnyKind, error: unknown): unknown {
  return unreadableValue(kind.title.toLowerCase(), kind.service === 'both' ? 'services' : `${kind.service} service`, error);
}

/** A TypeError from reading `what` (`playbooks`) as the `answeredBy` (`review service`) said it: a bad answer, not a crash. */
export function unreadableValue(what: string, answeredBy: string, error: unknown): unknown {
  if (error instanceof DocketError || !(error instanceof TypeError)) return error;
  return new DocketError(
    'bad-response',
    `reading ${what}: the ${answeredBy} answered with a value docket cannot read (${error.message})`,
    'run with -v to see the requests; if the service is the real one, please report this with that output',
  );
}
