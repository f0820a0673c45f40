import { describe, expect, it } from 'vitest';
import { idProblem, pathSegment, shortId } from '../../../src/api/path-segment.js';
import { keyValues, redact } from '../../../src/cli/redact.js';
import { defuseWorkflowCommands } from '../../../src/render/sanitize.js';
import { DocketError } from '../../../src/errors.js';

describe('pathSegment', () => {
  it('sends an id as one segment: a UUID as it is, other characters encoded', () => {
    expect(pathSegment('0b2c4e7c-1111-4222-8333-444455556666')).toBe('0b2c4e7c-1111-4222-8333-444455556666');
    expect(pathSegment('pb:12@x')).toBe('pb%3A12%40x');
  });

  it('refuses an id a URL would read as a route of its own (an id from a lock file or a saved plan, not checked by a list)', () => {
    for (const id of ['..', '.', '../../x', 'x?y', 'x#y', 'a%2F', ' ']) {
      expect(() => pathSegment(id)).toThrow(DocketError);
      expect(() => pathSegment(id)).toThrow(`has an id that cannot be one segment of a URL (${JSON.stringify(id)})`);
    }
  });
});

describe('shortId', () => {
  it('cuts an id over 64 characters with an ellipsis, so a key at the cut is seen to be cut and redacted', () => {
    const key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
    const problem = idProblem(`${'x'.repeat(40)}${key}/x`)!;
    expect(problem).toBe(`has an id that cannot be one segment of a URL ("${'x'.repeat(40)}${key.slice(0, 24)}…")`);
    expect(redact(problem, keyValues({ DOCKET_API_KEY: key }))).toBe(`has an id that cannot be one segment of a URL ("${'x'.repeat(40)}[redacted]…")`);
    expect(shortId('a/b')).toBe('a/b');
  });

  it('a key sent where an id goes is redacted as the request path shows it, percent-encoded (probe DR)', () => {
    const key = 'pk+live:PROBE,KEY|12_<b>&amp;*x*`@alice=';
    const path = `GET /v1/reviews/${pathSegment(key)} failed with HTTP 404`;
    expect(path).toContain('pk%2Blive%3APROBE');
    expect(redact(path, keyValues({ DOCKET_API_KEY: key }))).toBe('GET /v1/reviews/[redacted] failed with HTTP 404');
    // Upper-cased, which gives the key away up to letter case (probe DS).
    expect(redact(`GET /v1/reviews/${key.toUpperCase()}`, keyValues({ DOCKET_API_KEY: key }))).toBe('GET /v1/reviews/[redacted]');
    // Upper- or lower-cased, then escaped (probe DT).
    for (const cased of [key.toUpperCase(), key.toLowerCase()]) {
      for (const escaped of [encodeURIComponent(cased), encodeURIComponent(cased).replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase())]) {
        expect(redact(`A ${escaped} B`, keyValues({ DOCKET_API_KEY: key }))).toBe('A [redacted] B');
      }
    }
    // Written with escapes no encoder makes (`%5F` for `_`): the run that holds it goes (probe DS).
    expect(redact('see https://x.example/sk%5Flive%5FAbcdefgh12345678 now', keyValues({ DOCKET_API_KEY: 'sk_live_Abcdefgh12345678' }))).toBe('see https://x.example/[redacted] now');
    expect(redact('100% of https://x.example/a%20b', keyValues({ DOCKET_API_KEY: 'sk_live_Abcdefgh12345678' }))).toBe('100% of https://x.example/a%20b');
    // Inside a JSON string the run leaves the escape that closes the quote (probe EO): the document stays JSON.
    const json = JSON.stringify({ notes: 'token "sk_live_Abcdefgh1234567%38"', next: 'a\\b%20' });
    const hidden = redact(json, keyValues({ DOCKET_API_KEY: 'sk_live_Abcdefgh12345678' }));
    expect(JSON.parse(hidden)).toEqual({ notes: 'token "[redacted]"', next: 'a\\b%20' });
    // Only the part of its run that holds the key (probe EP): not the escape before it, a control after it, or a diff line's `-`.
    const keys = keyValues({ DOCKET_API_KEY: 'sk_live_Abcdefgh12345678' });
    for (const around of ['see\nsk_live_Abcdefgh1234567%38', 'x\tsk_live_Abcdefgh1234567%38\u0007', 'sk_live_Abcdefgh1234567%38\u0085', '\u0085sk_live_Abcdefgh1234567%38 ok']) {
      const doc = redact(JSON.stringify({ v: around }), keys);
      expect(JSON.parse(doc)).toEqual({ v: around.replace('sk_live_Abcdefgh1234567%38', '[redacted]') });
      // Hidden in the text and in its JSON alike: what a saved plan's seal covers is what the file holds.
      expect(JSON.stringify({ v: redact(around, keys) })).toBe(doc);
    }
    expect(redact('@@ -1 +0,0 @@\n-sk_live_Abcdefgh1234567%38', keys)).toBe('@@ -1 +0,0 @@\n-[redacted]');
    // Every place of a run that holds it, in any case; a long run as a short one (second read).
    expect(redact('see https://x.example/sk%5Flive%5FAbcdefgh12345678/SK%5FLIVE%5FABCDEFGH12345678 now', keys)).toBe('see https://x.example/[redacted]/[redacted] now');
    const long = `x\nsk_live_Abcdefgh1234567%38${'a'.repeat(2000)}`;
    expect(JSON.parse(redact(JSON.stringify({ v: long }), keys))).toEqual({ v: `x\n[redacted]${'a'.repeat(2000)}` });
    // A key as a line is printed, broken up where a CI runner would read a workflow command (second read).
    for (const odd of ['sk_live##[Abcdefgh12345678', '::sk_live_Abcdefgh12345678']) {
      expect(redact(defuseWorkflowCommands(`token ${odd}\n${odd} x`), keyValues({ DOCKET_API_KEY: odd }))).toBe('token [redacted]\n[redacted] x');
    }
    // Escaped in lower-case hex, as other clients write them (probe DS).
    expect(redact(path.replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase()), keyValues({ DOCKET_API_KEY: key }))).toBe('GET /v1/reviews/[redacted] failed with HTTP 404');
  });
});

