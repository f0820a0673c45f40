/**
 * The parts of undici docket uses: a keep-alive Pool, dispatched to with a handler of docket's own
 * (answer.ts), and the parser of an answer's raw headers undici's `request()` uses. undici's index
 * also loads fetch, WebSocket, caches, proxies and mocks: about 40 ms of CPU on every command that
 * talks to a service, in paired runs of a plan (README "Benchmarks", round twenty). Pinned by the
 * lock file, tested by every HTTP test (which run the same files through undici's MockAgent).
 */
import PoolClass from 'undici/lib/dispatcher/pool.js';
import undiciUtil from 'undici/lib/core/util.js';

export const Pool = PoolClass;
export type Pool = InstanceType<typeof PoolClass>;

/** An answer's raw headers (name, value, …) as undici's `request()` gives them: names in lower case, a repeated one as a list. */
export const parseHeaders = undiciUtil.parseHeaders;
