// Types for the undici modules docket loads directly (src/api/undici-parts.ts): undici ships
// types only for its index.
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}

declare module 'undici/lib/core/util.js' {
  import type { IncomingHttpHeaders } from 'node:http';
  const util: { parseHeaders(rawHeaders: Buffer[]): IncomingHttpHeaders };
  export default util;
}
