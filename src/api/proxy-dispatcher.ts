/**
 * The dispatcher of a service reached through a proxy: undici's ProxyAgent, which tunnels each
 * connection with CONNECT and sends a `user:password@` of the proxy URL as Proxy-Authorization.
 * Its own module, loaded only when a proxy is set: it needs undici's whole index (the agent calls
 * the `connect` API the index adds to every dispatcher), which costs start-up CPU that a run
 * without a proxy does not pay (see undici-parts.ts).
 */
import { Pool, ProxyAgent, type Dispatcher } from 'undici';
import { PROXY_CLOSED } from './retry.js';

export function proxyDispatcher(proxyUrl: string): Dispatcher & { destroy(): Promise<void> } {
  return new ProxyAgent({
    uri: proxyUrl,
    keepAliveTimeout: 10_000,
    keepAliveMaxTimeout: 60_000,
    factory: (origin: string | URL, options: Pool.Options) => new Pool(origin, { ...options, connect: closedAsRefusal(options.connect) }),
  });
}

type Connector = (options: object, callback: (error: Error | null, socket: unknown) => void) => void;

/**
 * A tunnel the proxy closed (a server that is no proxy, or one that drops CONNECT) is, to undici,
 * a socket error it recovers from by connecting again at once: hundreds of thousands of CONNECTs a
 * minute while the request waits (probe ZJ-2). Said as its own error, the request fails, and the
 * client's backoff decides whether to try again.
 */
function closedAsRefusal(connect: Pool.Options['connect']): Pool.Options['connect'] {
  if (typeof connect !== 'function') return connect;
  const tunnel = connect as unknown as Connector;
  const wrapped: Connector = (options, callback) =>
    tunnel(options, (error, socket) => {
      if (error && (error as { code?: unknown }).code === 'UND_ERR_SOCKET') {
        // No cause kept: its "other side closed" would read as a request cut off, which this never was.
        callback(Object.assign(new Error('the proxy closed the connection instead of opening the tunnel to the service'), { code: PROXY_CLOSED }), null);
        return;
      }
      callback(error, socket);
    });
  return wrapped as unknown as Pool.Options['connect'];
}
