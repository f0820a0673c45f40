/**
 * Live state: asks every kind that the configuration uses to read its objects, in parallel, with
 * shared memoised reads and one concurrency bound.
 */
import type { LockFile } from '../config/lock.js';
import type { FetchContext, KindModule, Services } from '../kinds/kind.js';
import { mapLimit } from '../util/map-limit.js';
import type { DesiredResource, LiveResource } from './types.js';

export interface FetchLiveOptions {
  kinds: KindModule[];
  services: Services;
  concurrency: number;
  lock: LockFile;
  /** Desired resources (lets kinds skip reads); undefined reads everything (export). */
  declared?: DesiredResource[];
}

export async function fetchLive(options: FetchLiveOptions): Promise<LiveResource[]> {
  const memo = new Map<string, Promise<unknown>>();
  const ctx: FetchContext = {
    services: options.services,
    lock: options.lock,
    ...(options.declared ? { declared: options.declared } : {}),
    memo<T>(key: string, load: () => Promise<T>): Promise<T> {
      let p = memo.get(key) as Promise<T> | undefined;
      if (!p) {
        p = load();
        memo.set(key, p);
      }
      return p;
    },
    parallel: (items, fn) => mapLimit(items, options.concurrency, fn),
  };
  const perKind = await Promise.all(options.kinds.map((k) => k.fetch(ctx)));
  return perKind.flat();
}
