import { describe, expect, it } from 'vitest';
import { proxyFor } from '../../../src/api/proxy.js';
import { DocketError } from '../../../src/errors.js';

const SERVICE = 'https://api.commonpaper.com';

describe('proxyFor', () => {
  it('reads https_proxy before HTTPS_PROXY, then ALL_PROXY, a proxy without a scheme as http://', () => {
    expect(proxyFor(SERVICE, {})).toBeUndefined();
    expect(proxyFor(SERVICE, { HTTPS_PROXY: 'http://proxy.corp:3128', https_proxy: 'http://lower.corp:3128' })).toEqual({ url: 'http://lower.corp:3128/', variable: 'https_proxy' });
    expect(proxyFor(SERVICE, { HTTPS_PROXY: '  ', ALL_PROXY: 'proxy.corp:8080' })).toEqual({ url: 'http://proxy.corp:8080/', variable: 'ALL_PROXY' });
    // HTTP_PROXY is for http URLs, which docket sends only to loopback hosts.
    expect(proxyFor(SERVICE, { HTTP_PROXY: 'http://proxy.corp:3128' })).toBeUndefined();
    expect(proxyFor(SERVICE, { HTTPS_PROXY: 'http://bob:p%40ss@proxy.corp:3128' })?.url).toBe('http://bob:p%40ss@proxy.corp:3128/');
  });

  it('connects directly to loopback hosts and to what NO_PROXY lists', () => {
    const env = { HTTPS_PROXY: 'http://proxy.corp:3128' };
    for (const url of ['http://127.0.0.1:4010/review', 'https://localhost:8443/review', 'https://review.localhost/x']) expect(proxyFor(url, env), url).toBeUndefined();
    for (const noProxy of ['*', 'commonpaper.com', '.commonpaper.com', 'other.example, api.commonpaper.com', 'API.CommonPaper.com:443', '*.commonpaper.com']) {
      expect(proxyFor(SERVICE, { ...env, NO_PROXY: noProxy }), noProxy).toBeUndefined();
    }
    for (const noProxy of ['paper.com', 'api.commonpaper.com:8443', 'x.api.commonpaper.com', '']) expect(proxyFor(SERVICE, { ...env, no_proxy: noProxy }), noProxy).toBeDefined();
  });

  it('refuses a proxy that is no http(s) URL, naming the variable, its password hidden', () => {
    const refused = (value: string): DocketError => {
      try {
        proxyFor(SERVICE, { HTTPS_PROXY: value });
      } catch (error) {
        return error as DocketError;
      }
      throw new Error(`${value} was taken`);
    };
    expect(refused('socks5://bob:Secret99@proxy.corp:1080').message).toBe('HTTPS_PROXY "socks5://***@proxy.corp:1080" is a socks5 proxy: docket connects through http(s) proxies only');
    const bad = refused('http://bob:Secret99@proxy corp:3128');
    expect([bad.code, bad.message]).toEqual(['invalid-proxy', 'HTTPS_PROXY "http://***@proxy corp:3128" is not a valid proxy URL']);
    // A password's `#`, `?` or quote is hidden with it (after a `#` or `?`, the host too: the `@` may be a query's, second read SR101-1), and what the URL parser would read as a path, query or fragment is refused (second read SR98B-3).
    for (const [value, message] of [
      ['http://bob:pa#ss99@proxy.corp:3128', 'HTTPS_PROXY "http://***@…" is not a valid proxy URL'],
      ['http://bob:pa?ss99@proxy.corp:3128', 'HTTPS_PROXY "http://***@…" is not a valid proxy URL'],
      ['http://bob:Tok"en/x@proxy corp:3128', 'HTTPS_PROXY "http://***@proxy corp:3128" is not a valid proxy URL'],
      ['http://proxy.corp:3128/proxy', 'HTTPS_PROXY "http://proxy.corp:3128/proxy" has a path, query or fragment, which a proxy URL does not'],
      ['http://bob:pa%zzss@proxy.corp:3128', 'HTTPS_PROXY "http://***@proxy.corp:3128" holds a `%` in its user name or password that starts no escape'],
      // The `@host` left out (a CI variable empty): what follows the `:` is no port but a password (probe HB-4).
      ['http://bob:Sup3rS3cretPW', 'HTTPS_PROXY "http://bob:***" is not a valid proxy URL'],
      ['bob:Sup3rS3cretPW', 'HTTPS_PROXY "bob:***" is not a valid proxy URL'],
      // A numeric password, past what a port can be (second read SR106-3).
      ['http://bob:8675309123', 'HTTPS_PROXY "http://bob:***" is not a valid proxy URL'],
      ['bob:0123456789', 'HTTPS_PROXY "bob:***" is not a valid proxy URL'],
    ]) {
      const error = refused(value);
      expect([error.code, error.message], value).toEqual(['invalid-proxy', message]);
      expect(error.message + (error.hint ?? '')).not.toMatch(/ss99|Tok|en\/x|zzss|S3cret|8675309|0123456789/);
    }
  });

  it('passes over a socks proxy in ALL_PROXY (set for other tools), and reads the first NO_PROXY set and not blank (second read SR98B-7)', () => {
    expect(proxyFor(SERVICE, { ALL_PROXY: 'socks5://127.0.0.1:1080' })).toBeUndefined();
    expect(proxyFor(SERVICE, { ALL_PROXY: 'socks5://127.0.0.1:1080', HTTPS_PROXY: 'http://proxy.corp:3128' })?.variable).toBe('HTTPS_PROXY');
    expect(proxyFor(SERVICE, { HTTPS_PROXY: 'http://proxy.corp:3128', no_proxy: ' ', NO_PROXY: 'api.commonpaper.com' })).toBeUndefined();
  });
});
