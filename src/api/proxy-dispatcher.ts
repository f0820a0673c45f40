/**
 * The dispatcher of a service reached through a proxy: undici's ProxyAgent, which tunnels each
 * connection with CONNECT and sends a `user:password@` of the proxy URL as Proxy-Authorization.
 * Its own module, loaded only when a proxy is set: it needs undici's whole index (the agent calls
 * the `connect` API the index adds to every dispatcher), which costs start-up CPU that a run
 * without a proxy does not pay (see undici-parts.ts).
 */
import { ProxyAgent, type Dispatcher } from 'undici';

export function proxyDispatcher(proxyUrl: string): Dispatcher & { destroy(): Promise<void> } {
  return new ProxyAgent({ uri: proxyUrl, keepAliveTimeout: 10_000, keepAliveMaxTimeout: 60_000 });
}
