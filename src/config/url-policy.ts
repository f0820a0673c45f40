/**
 * What a service URL may be, checked offline by validate (at the docket.yaml line, or naming the
 * DOCKET_*_URL variable) and again by the HTTP client: http(s), no credentials, no query or
 * fragment, and https except on loopback hosts, because the API key travels with every request.
 */
import { quoteValue } from './quote.js';
import { shownUrl } from './url-secrets.js';

export interface UrlProblem {
  code: 'invalid-url' | 'insecure-url';
  message: string;
  hint?: string;
}

export function isLoopback(hostname: string): boolean {
  // A fully qualified name's final dot (`localhost.`) names the same host (probe ZC-3).
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '').replace(/\.$/, '');
  if (h === 'localhost' || h.endsWith('.localhost') || h === '::1') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/** Why `raw` cannot be a service URL (`what` names it in the message), or undefined. */
export function urlProblem(raw: string, what: string): UrlProblem | undefined {
  let u: URL;
  try {
    u = new URL(raw.trim());
  } catch {
    // A password holding a `/` (a token may) ends the host part there: say what was meant (probe ZF-1).
    // Said as what it may be: a port mistyped before a path's `@` (`host:44a/@me`) reads the same (second read SR98-4).
    if (raw.includes('@')) {
      return { code: 'invalid-url', message: `${what} ${shown(raw)} is not a valid URL (shown with what may be a user name and password hidden)`, hint: 'a URL holds no user name or password: pass the API key in the environment instead; otherwise check its host and port (a URL such as https://api.commonpaper.com)' };
    }
    return { code: 'invalid-url', message: `${what} ${shown(raw)} is not a valid URL`, hint: 'use a URL such as https://api.commonpaper.com' };
  }
  // A backslash the parser reads as `/` (in the host part) or keeps: the editor's schema refuses it, so does docket (second read).
  if (raw.includes('\\')) return { code: 'invalid-url', message: `${what} ${shown(raw.trim())} holds a backslash`, hint: 'write `/` between the parts of a URL' };
  // `https:///host` parses as https://host/: a slip that docket.yaml's schema refuses, refused here too (a DOCKET_*_URL variable).
  if (/^[A-Za-z][A-Za-z0-9+.-]*:\/\/\//.test(raw.trim())) return { code: 'invalid-url', message: `${what} ${shown(raw.trim())} has a third / after the scheme`, hint: 'write it as https://host, with two slashes' };
  // A host of other letters (`bücher.example`) is a URL only once spelt in ASCII, as the editor's schema and a request spell it.
  const authority = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/([^/?#]*)/.exec(raw.trim())?.[1] ?? '';
  const host = authority.slice(authority.lastIndexOf('@') + 1);
  // (A tab or another control character is said as itself, and the parser drops it: probe NS-5.)
  if (/[^\x00-\x7e]/.test(host)) {
    return { code: 'invalid-url', message: `${what} ${shown(raw.trim())} has a host written in other letters than ASCII`, hint: `write the host as a URL spells it: ${u.protocol}//${u.host}${u.pathname === '/' && !raw.trim().endsWith('/') ? '' : u.pathname}` };
  }
  // Every problem of what is left at once: fixed one at a time, each would take another run (probe IA-3).
  const shownRaw = shown(raw.trim());
  const found: { code: UrlProblem['code']; alone: string; clause: string; hint?: string }[] = [];
  // Credentials in a URL would end up in plan headers and messages; an empty `@` is refused as the editor's schema refuses it.
  if (u.username || u.password || authority.includes('@')) found.push({ code: 'invalid-url', alone: `${what} ${shownRaw} must not contain a user name or password`, clause: 'must not contain a user name or password', hint: 'pass the API key in the environment instead' });
  const spelling = hostSpellingProblem(host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.replace(/:[^:]*$/, ''), u);
  if (spelling) found.push({ code: 'invalid-url', alone: `${what} ${shownRaw} ${spelling.message}`, clause: spelling.message, hint: spelling.hint });
  // A `%` that starts no escape: the editor's schema (`format: uri`) refuses it, and the parser sends it as written (probe IP).
  // Said among the others (SR67-16); where it is hidden (credentials, a query), the part it is in is named.
  const stray = /%(?![0-9A-Fa-f]{2})/.exec(raw.trim())?.index;
  if (stray !== undefined) {
    const authorityStart = raw.trim().indexOf('//') + 2;
    const inCredentials = authority.includes('@') && stray >= authorityStart && stray < authorityStart + authority.lastIndexOf('@');
    const part = /[?#]/.test(raw.trim().slice(0, stray)) ? ' in its query or fragment' : inCredentials ? ' in its user name or password' : '';
    const clause = `holds a \`%\`${part} that starts no escape (\`%\` and two hex digits)`;
    found.push({ code: 'invalid-url', alone: `${what} ${shownRaw} ${clause}`, clause, hint: 'write a percent sign as `%25`, or remove it' });
  }
  // A space or a character a URL writes escaped, in its path: the parser escapes it silently, and the
  // request goes to another path than the one written; the editor's schema refuses it (probe NS-5).
  const afterAuthority = raw.trim().slice(raw.trim().indexOf('//') + 2 + authority.length);
  const path = afterAuthority.replace(/[?#][\s\S]*$/, '');
  // Past ASCII too (`/ü`): the parser writes it as its UTF-8 bytes escaped (probe PV-6).
  const unescaped = /[ "<>`{|}^]|[^\x00-\x9f]/u.exec(path)?.[0];
  if (unescaped !== undefined) {
    const clause = `holds ${unescaped === ' ' ? 'a space' : `\`${unescaped}\``} in its path, which a URL writes escaped (\`${encodeURIComponent(unescaped)}\`)`;
    found.push({ code: 'invalid-url', alone: `${what} ${shownRaw} ${clause}`, clause, hint: `write it as \`${encodeURIComponent(unescaped)}\`, or remove it` });
  }
  // `--port 0` asks the system for a free port; no service listens on port 0 (connecting would retry for seconds).
  if (u.port === '0') found.push({ code: 'invalid-url', alone: `${what} ${shownRaw} names port 0, where no service listens`, clause: 'names port 0, where no service listens', hint: 'use the port the service (or `docket emulator`) printed' });
  // An empty one too (`…/review?`): the parser drops it, but the URL is printed as written (probe WK).
  if (u.search || u.hash || /[?#]/.test(afterAuthority)) found.push({ code: 'invalid-url', alone: `${what} ${shownRaw} must not have a query or fragment`, clause: 'must not have a query or fragment', hint: 'remove what follows `?` or `#` (docket adds the paths and queries it needs)' });
  if (u.protocol !== 'https:' && u.protocol !== 'http:') found.push({ code: 'invalid-url', alone: `${what} must use https (got ${shown(u.protocol)})`, clause: `must use https (got ${shown(u.protocol)})` });
  if (u.protocol === 'http:' && !isLoopback(u.hostname)) {
    found.push({
      code: 'insecure-url',
      alone: `refusing plain http for ${what} ${shownRaw}: the API key would travel unencrypted`,
      clause: 'must not use plain http (the API key would travel unencrypted)',
      hint: 'use https (plain http is allowed only for loopback hosts, such as the emulator: localhost, 127.0.0.1, ::1)',
    });
  }
  if (found.length === 0) return undefined;
  const hints = found.flatMap((f) => (f.hint === undefined ? [] : [f.hint]));
  if (found.length === 1) return { code: found[0]!.code, message: found[0]!.alone, ...(hints.length > 0 ? { hint: hints[0] } : {}) };
  const clauses = found.map((f) => f.clause);
  return {
    code: found.some((f) => f.code === 'invalid-url') ? 'invalid-url' : 'insecure-url',
    message: `${what} ${shownRaw} ${clauses.slice(0, -1).join(', ')} and ${clauses.at(-1)!}`,
    ...(hints.length > 0 ? { hint: hints.join('; ') } : {}),
  };
}

/** An IPv4 number as the editor's schema takes one: decimal up to 255, no leading 0 (the parser reads `010` as octal, 8). */
const OCTET = '(25[0-5]|2[0-4][0-9]|1[0-9]{2}|[1-9]?[0-9])';
const DOTTED_QUAD = new RegExp(`^(${OCTET}\\.){3}${OCTET}$`);
const LOOPBACK_WRITTEN = new RegExp(`^(localhost|.+\\.localhost|127(\\.${OCTET}){3}|\\[(::|(0{1,4}:){7})0{0,3}1\\])$`, 'i');

/**
 * A host the URL parser takes in a spelling the editor's schema refuses (schemas/docket.schema.json,
 * `httpUrl`): so validate and the editor agree on every URL (probe FY). The parser reads `127.1`,
 * `2130706433` and `0x7f.0.0.1` as 127.0.0.1, and `1.2.3` as an address: written so, a host is
 * easily not what its writer meant.
 */
function hostSpellingProblem(host: string, u: URL): { message: string; hint: string } | undefined {
  if (host.includes('%')) return { message: 'has a percent escape in its host', hint: 'write the host as it is spelt, without escapes' };
  const address = `${u.protocol}//${u.host}`;
  if (u.protocol === 'http:' && isLoopback(u.hostname) && !LOOPBACK_WRITTEN.test(host)) {
    return { message: 'names a loopback host in a form docket does not take', hint: `write it as localhost, 127.0.0.1 or [::1] (the URL parser reads it as ${address})` };
  }
  // A host whose last part is a number (decimal, or hex `0x…`) is read as an IPv4 address, each part perhaps hex or octal.
  const last = host.replace(/\.$/, '').split('.').at(-1) ?? '';
  if (!host.startsWith('[') && /^([0-9]+|0x[0-9a-f]*)$/i.test(last) && !(DOTTED_QUAD.test(host) && !host.endsWith('.'))) {
    return { message: 'names a numeric host that is not an IPv4 address written as four numbers', hint: `write the address as a.b.c.d (the URL parser reads it as ${address})` };
  }
  return undefined;
}

/**
 * A URL-like value as a message quotes any value (one line, control characters escaped, cut at
 * 60), with its `user:password@` as `***@` and what follows `?` or `#` as `…`: a password or a
 * token there must never reach the output, and the message still shows that one is there.
 */
export function shown(text: string): string {
  return quoteValue(shownUrl(text));
}

/** What is wrong with the spelling of a URL that is not `http(s)://…`, when it is only its spelling. */
export function urlSpellingHint(url: string): string | undefined {
  if (url !== url.trim()) return 'remove the spaces around it';
  if (/^https?:\/\//i.test(url) && !/^https?:\/\//.test(url)) return 'write the scheme in lower case: http:// or https://';
  return undefined;
}
