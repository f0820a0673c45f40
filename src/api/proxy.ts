/**
 * Which proxy, if any, a service URL is reached through, read from the environment variables other
 * tools read (curl, Go's net/http, which Terraform uses). Pure: the caller passes the environment.
 *
 * - An https URL goes through `https_proxy`, else `HTTPS_PROXY`, else `all_proxy`/`ALL_PROXY`, as
 *   curl reads them (docket takes plain http only to loopback hosts, always reached directly, as Go
 *   programs do). A socks proxy in `ALL_PROXY` (set for other tools) is no http(s) proxy: passed over.
 * - `no_proxy`/`NO_PROXY` lists hosts reached directly: `*` for all, a name for itself and every
 *   name below it (`example.com`, `.example.com`), `host:port` for that port only.
 * - A proxy written without a scheme (`proxy.corp:3128`) is http://, as curl reads it.
 */
import { DocketError } from '../errors.js';
import { isLoopback } from '../config/url-policy.js';
import { shownUrl } from '../config/url-secrets.js';

export interface ProxyChoice {
  /** The proxy's URL, with any `user:password@` it carries (sent as Proxy-Authorization). */
  url: string;
  /** The variable it was read from, as messages name it. */
  variable: string;
}

const HTTPS_PROXY_VARIABLES = ['https_proxy', 'HTTPS_PROXY', 'all_proxy', 'ALL_PROXY'] as const;

/** The proxy for `target` (a service's base URL), or undefined to connect directly. */
export function proxyFor(target: string, env: Readonly<Record<string, string | undefined>>): ProxyChoice | undefined {
  const url = new URL(target);
  if (url.protocol !== 'https:' || isLoopback(url.hostname)) return undefined;
  const given = (name: string): string | undefined => (env[name] ?? '').trim() || undefined;
  const variable = HTTPS_PROXY_VARIABLES.find((name) => given(name) !== undefined && !(name.toLowerCase() === 'all_proxy' && /^socks/i.test(given(name)!)));
  if (variable === undefined) return undefined;
  // The first of them set and not blank, as the proxy variables are read (second read SR98B-7).
  if (bypassed(url, given('no_proxy') ?? given('NO_PROXY') ?? '')) return undefined;
  return { url: proxyUrl(given(variable)!, variable), variable };
}

/** Whether NO_PROXY names the URL's host (and port, where the entry gives one). */
function bypassed(url: URL, noProxy: string): boolean {
  const host = url.hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  const port = url.port || '443';
  return noProxy
    .split(/[\s,]+/)
    .filter(Boolean)
    .some((entry) => {
      if (entry === '*') return true;
      const [, name = '', entryPort] = /^\[?([^\]]*?)\]?(?::(\d+))?$/.exec(entry.toLowerCase()) ?? [];
      if (entryPort !== undefined && entryPort !== port) return false;
      const suffix = name.replace(/^\*?\./, '').replace(/\.$/, '');
      return suffix !== '' && (host === suffix || host.endsWith(`.${suffix}`));
    });
}

/**
 * A proxy URL that is no URL, as an error quotes it: one without an `@` whose "port" is no number
 * is most likely `user:password` with the `@host` left out (a CI variable empty), so what follows
 * the `:` is hidden (probe HB-4).
 */
function unparsedShown(raw: string, shown: string): string {
  if (raw.includes('@')) return shown;
  const parts = /^(\s*(?:[A-Za-z][A-Za-z0-9+.-]*:\/\/)?[^:/?#]*):([^/?#]*)/.exec(raw);
  if (!parts) return shown;
  // Digits a port could be (a numeric password, or one past 65535, is hidden too: second read SR106-3).
  const port = parts[2]!;
  return /^\d{1,5}$/.test(port) && Number(port) <= 65535 ? shown : JSON.stringify(`${parts[1]}:***`);
}

/** The proxy URL as undici takes it, or a clear error naming the variable (its password hidden). */
function proxyUrl(raw: string, variable: string): string {
  const written = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//.test(raw) ? raw : `http://${raw}`;
  const shown = JSON.stringify(shownUrl(raw));
  const how = `write it as http://host:port, with user:password@ before the host if the proxy asks for them (a \`/\`, \`@\`, \`:\`, \`#\`, \`?\` or \`%\` in them percent-encoded), or unset ${variable}`;
  let url: URL;
  try {
    url = new URL(written);
  } catch {
    throw new DocketError('invalid-proxy', `${variable} ${unparsedShown(raw, shown)} is not a valid proxy URL`, how);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new DocketError('invalid-proxy', `${variable} ${shown} is a ${url.protocol.slice(0, -1)} proxy: docket connects through http(s) proxies only`, `give an http(s) proxy in ${variable}, or unset it to connect directly`);
  }
  // A path, query or fragment is no part of a proxy's address: most often a password's `/`, `?` or `#` not encoded.
  if (url.pathname !== '/' || /[?#]/.test(written)) {
    throw new DocketError('invalid-proxy', `${variable} ${shown} has a path, query or fragment, which a proxy URL does not`, how);
  }
  try {
    decodeURIComponent(url.username);
    decodeURIComponent(url.password);
  } catch {
    throw new DocketError('invalid-proxy', `${variable} ${shown} holds a \`%\` in its user name or password that starts no escape`, how);
  }
  return url.href;
}

