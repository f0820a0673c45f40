/**
 * The parts of undici docket uses: a keep-alive Pool and `request`. undici's index also loads
 * fetch, WebSocket, caches, proxies and mocks: about 40 ms of CPU on every command that talks to a
 * service, in paired runs of a plan (README "Benchmarks", round twenty). Pinned by the lock file, tested by every
 * HTTP test (which run the same files through undici's MockAgent).
 */
import type { Dispatcher } from 'undici';
import PoolClass from 'undici/lib/dispatcher/pool.js';
import requestWith from 'undici/lib/api/api-request.js';

export const Pool = PoolClass;
export type Pool = InstanceType<typeof PoolClass>;

export type RequestOptions = Omit<Dispatcher.RequestOptions, 'origin' | 'path'> & { dispatcher: Dispatcher };

/** undici's `request(url, options)`, without the index: the URL split into origin and path as it does. */
export function request(url: string, { dispatcher, ...options }: RequestOptions): Promise<Dispatcher.ResponseData> {
  const parsed = new URL(url);
  return requestWith.call(dispatcher, { ...options, origin: parsed.origin, path: `${parsed.pathname}${parsed.search}` });
}
