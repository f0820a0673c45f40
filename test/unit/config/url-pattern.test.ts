import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { schemasDir } from '../../../src/config/schema-names.js';
import { urlProblem } from '../../../src/config/url-policy.js';
import { subschemaValidator } from '../../../src/config/validators.js';

/** The service-URL rule docket.yaml's schema gives editors (`$defs.httpUrl`). */
function editorPattern(): RegExp {
  const schema = JSON.parse(readFileSync(path.join(schemasDir(), 'docket.schema.json'), 'utf8')) as { $defs: { httpUrl: { anyOf: { pattern: string; allOf: { pattern: string }[] }[] } } };
  const url = schema.$defs.httpUrl.anyOf[0]!;
  return new RegExp(`(?=${url.pattern})${url.allOf[0]!.pattern}`, 'u');
}

describe('service URLs: the editor schema and validate', () => {
  it('take and refuse the same URLs (probe FY)', async () => {
    const pattern = editorPattern();
    // docket's whole check: the schema (its `format: uri` refuses `{`, `|`, `^`, quotes, `<>`, a
    // backquote and letters past ASCII), then the URL policy.
    const schema = await subschemaValidator('docket.schema.json', '#/$defs/httpUrl');
    const docketTakes = (url: string): boolean => schema(url) === true && urlProblem(url, '`review.url`') === undefined;
    const samples = [
      // Taken by both.
      'https://api.example.com', 'https://api.example.com/v1/', 'https://1.2.3.4:8443/review', 'https://[2001:db8::1]/x', 'http://localhost:4010/review', 'http://LOCALHOST', 'http://a.localhost', 'http://127.0.0.1:8580/review', 'http://[::1]:4010', 'http://[0:0:0:0:0:0:0:1]/', 'https://0xfeed.example.com', 'https://api.0x1example.com',
      // Refused by both: what the URL parser reads as loopback or an address in another spelling.
      'http://127.1:8580/review', 'http://2130706433', 'http://0177.0.0.1', 'http://0x7f.0.0.1', 'http://127.0.0.1.', 'http://[::0:1]', 'https://1.2.3', 'https://0', 'https://1.2.3.4.', 'https://api.example.com.1',
      // Hex or octal parts the parser reads as other numbers (probe GA): 1.2.3.4, 8.2.3.4, 127.0.0.1, 127.0.0.8.
      'https://1.2.3.0x4', 'https://010.2.3.4', 'https://127.0.0.0x1', 'http://127.0.0.010', 'https://api.example.0x1', 'https://a.0X',
      // A backslash, in the host part or the path (second read).
      'https://api.example.com\\v1', 'https://api.example.com/v1\\x',
      // Credentials, even empty ones; escapes in the host; plain http elsewhere; a query.
      'https://@api.example.com', 'https://:@api.example.com', 'https://u:p@api.example.com', 'https://ex%20ample.com', 'https://ex%41mple.com', 'http://api.example.com', 'https://api.example.com/?x=1', 'https://api.example.com:99999',
      // A `%` in the path that starts no escape is refused by both; one that does is taken by both (probe IP).
      'https://api.example.com/%', 'https://api.example.com/a%2', 'https://api.example.com/%zz', 'https://api.example.com/a%41b',
      // Characters a URI does not hold unescaped, and letters past ASCII, in the path or the host (probe IT-3); those it holds.
      'https://h.example/{x}', 'https://h.example/a|b', 'https://h.example/a^b', 'https://h.example/a"b', 'https://h.example/<x>', 'https://h.example/a`b', 'https://h.example/é', 'https://bücher.example', 'https://h{x}.example', 'https://h|x.example', 'https://h.example/😀', 'https://h.example/a\u007fb', 'https://h\u0000x.example', 'https://h.example/\u001f',
      // A space in the path, which the parser escapes unsaid (probe NS-5).
      'https://h.example/a b', 'https://h.example/a%20b',
      // An empty query or fragment, refused as any query or fragment is (probe XB-3).
      'https://api.example.com?', 'https://api.example.com/v1#', 'https://api.example.com/?#',
      "https://h.example/a!$&()*+,;=:@b", "https://h.example/a'b", 'https://h!x.example', 'https://h.example/a[b]', 'https://h.example/~x', 'https://h.example/a%C3%A9',
      // IPv6 addresses the URL parser takes (compressed anywhere, an IPv4 tail) and those it refuses (third read TR68).
      'https://[1:2:3:4:5:6:7:8]', 'https://[::]', 'https://[1:2:3:4:5:6:7::]', 'https://[::2:3:4:5:6:7:8]', 'https://[::ffff:1.2.3.4]:8443/x', 'https://[1:2:3:4:5::1.2.3.4]', 'https://[FFFF::A]',
      'https://[1::2::3]/', 'https://[1:2:3:4:5:6:7:8:9]', 'https://[12345::1]', 'https://[1::1.2.3.04]', 'https://[::ffff:1.2.3]', 'https://[1:2:3:4:5:6::1.2.3.4]', 'https://[::256.1.1.1]', 'https://[:1]', 'https://[1.2.3.4]', 'https://[1:::2]', 'https://[]',
    ];
    for (const url of samples) expect([url, pattern.test(url)]).toEqual([url, docketTakes(url)]);
  });

  it('says a space or `{` in the path as such, and a tab in the host as no letter of another script (probe NS-5)', () => {
    expect(urlProblem('https://example.com/a b', '`review.url`')).toEqual({ code: 'invalid-url', message: '`review.url` "https://example.com/a b" holds a space in its path, which a URL writes escaped (`%20`)', hint: 'write it as `%20`, or remove it' });
    expect(urlProblem('https://example.com/{x}', '`review.url`')?.message).toBe('`review.url` "https://example.com/{x}" holds `{` in its path, which a URL writes escaped (`%7B`)');
    // Past ASCII, as its UTF-8 bytes (probe PV-6).
    expect(urlProblem('https://api.example.com/ü', '`review.url`')).toEqual({ code: 'invalid-url', message: '`review.url` "https://api.example.com/ü" holds `ü` in its path, which a URL writes escaped (`%C3%BC`)', hint: 'write it as `%C3%BC`, or remove it' });
    // A control character is said as itself (control-character); the URL parser drops a tab.
    expect(urlProblem('https://exa\tmple.com', '`review.url`')).toBeUndefined();
  });

  it('says what the parser would have read a numeric or loopback host as', () => {
    expect(urlProblem('http://127.1:8580/review', '`review.url`')).toEqual({ code: 'invalid-url', message: '`review.url` "http://127.1:8580/review" names a loopback host in a form docket does not take', hint: 'write it as localhost, 127.0.0.1 or [::1] (the URL parser reads it as http://127.0.0.1:8580)' });
    // A final dot names the same loopback host: said as a form docket does not take, not as plain http to another host (probe ZC-3).
    expect(urlProblem('http://LOCALHOST.:49201/agreements', '`agreements.url`')).toEqual({ code: 'invalid-url', message: '`agreements.url` "http://LOCALHOST.:49201/agreements" names a loopback host in a form docket does not take', hint: 'write it as localhost, 127.0.0.1 or [::1] (the URL parser reads it as http://localhost.:49201)' });
    expect(urlProblem('https://1.2.3', '`review.url`')?.hint).toBe('write the address as a.b.c.d (the URL parser reads it as https://1.2.0.3)');
  });

  it('says every problem of a URL at once, each hidden part hidden: fixed one a run, it took three (probe IA-3)', () => {
    expect(urlProblem('http://u:p@example.com/x?q=1#f', '`review.url`')).toEqual({
      code: 'invalid-url',
      message: '`review.url` "http://***@example.com/x?…#…" must not contain a user name or password, must not have a query or fragment and must not use plain http (the API key would travel unencrypted)',
      hint: 'pass the API key in the environment instead; remove what follows `?` or `#` (docket adds the paths and queries it needs); use https (plain http is allowed only for loopback hosts, such as the emulator: localhost, 127.0.0.1, ::1)',
    });
    expect(urlProblem('http://example.com/review?token=zz', 'environment variable DOCKET_REVIEW_URL')?.message).toBe('environment variable DOCKET_REVIEW_URL "http://example.com/review?…" must not have a query or fragment and must not use plain http (the API key would travel unencrypted)');
    // An empty query or fragment too: the URL is printed as written (probe WK).
    for (const raw of ['http://127.0.0.1:4010/review?', 'http://127.0.0.1:4010/review#']) expect(urlProblem(raw, '`review.url`')?.message, raw).toContain('must not have a query or fragment');
    // A stray `%` among them, named by where it is when that part is hidden (second read SR67-16).
    expect(urlProblem('http://example.com/%', '`review.url`')?.message).toBe('`review.url` "http://example.com/%" holds a `%` that starts no escape (`%` and two hex digits) and must not use plain http (the API key would travel unencrypted)');
    expect(urlProblem('https://u:p%@api.example.com', '`review.url`')?.message).toBe('`review.url` "https://***@api.example.com" must not contain a user name or password and holds a `%` in its user name or password that starts no escape (`%` and two hex digits)');
    // One alone is worded as before.
    expect(urlProblem('http://example.com/review', '`review.url`')).toMatchObject({ code: 'insecure-url', message: 'refusing plain http for `review.url` "http://example.com/review": the API key would travel unencrypted' });
  });
});
