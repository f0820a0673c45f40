import { errors as undiciErrors } from 'undici';
import { describe, expect, it } from 'vitest';
import { backoffDelay, classifyConnectionError, decide, parseRetryAfter } from '../../../src/api/retry.js';

const coded = (code: string, message = `${code} happened`) => Object.assign(new Error(message), { code });

describe('classifyConnectionError', () => {
  it('treats connect failures as not sent and retryable', () => {
    for (const code of ['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT']) {
      expect(classifyConnectionError(coded(code))).toMatchObject({ code, retryable: true, phase: 'not-sent' });
    }
  });

  it('treats failures after connecting as unknown outcome and retryable', () => {
    expect(classifyConnectionError(new undiciErrors.SocketError('other side closed'))).toMatchObject({ retryable: true, phase: 'unknown' });
    expect(classifyConnectionError(new Error('other side closed'))).toMatchObject({ retryable: true, phase: 'unknown' });
    expect(classifyConnectionError(new undiciErrors.HeadersTimeoutError())).toMatchObject({ retryable: true, phase: 'unknown' });
    expect(classifyConnectionError(new undiciErrors.BodyTimeoutError())).toMatchObject({ retryable: true, phase: 'unknown' });
    expect(classifyConnectionError(coded('ECONNRESET'))).toMatchObject({ retryable: true, phase: 'unknown' });
  });

  it('treats any failure while reading the body as sent', () => {
    expect(classifyConnectionError(coded('ECONNREFUSED'), true)).toMatchObject({ retryable: true, phase: 'unknown' });
  });

  it('finds codes in causes and in an AggregateError with an empty message', () => {
    const agg = Object.assign(new AggregateError([coded('ECONNREFUSED', 'connect ECONNREFUSED ::1:4010'), coded('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:4010')], ''), {
      code: 'ECONNREFUSED',
    });
    const c = classifyConnectionError(agg);
    expect(c).toMatchObject({ code: 'ECONNREFUSED', phase: 'not-sent', retryable: true });
    expect(c.message).toBe('connect ECONNREFUSED ::1:4010');
    expect(classifyConnectionError(new Error('fetch failed', { cause: coded('ECONNRESET') })).code).toBe('ECONNRESET');
  });

  it('says an https URL on a plain-http port by its cause, as not sent and not worth repeating, and any TLS error by its reason, not OpenSSL\'s text', () => {
    const err = Object.assign(new Error('80BCE8580B7F0000:error:0A00010B:SSL routines:ssl3_get_record:wrong version number:../deps/openssl/openssl/ssl/record/ssl3_record.c:350:\n'), { code: 'ERR_SSL_WRONG_VERSION_NUMBER' });
    expect(classifyConnectionError(err)).toEqual({
      code: 'ERR_SSL_WRONG_VERSION_NUMBER',
      message: 'the TLS handshake failed (wrong version number): the server does not speak TLS on this port; if it serves plain http, write the URL with http://',
      retryable: false,
      phase: 'not-sent',
    });
    // Any other TLS error keeps its usual classification (on a reused connection it may come after
    // the request was written), said by its reason; so does one while the body was read.
    const other = Object.assign(new Error('0A000410:SSL routines:ssl3_read_bytes:bad record mac'), { code: 'ERR_SSL_BAD_RECORD_MAC' });
    expect(classifyConnectionError(other)).toEqual({ code: 'ERR_SSL_BAD_RECORD_MAC', message: 'TLS error (bad record mac)', retryable: false, phase: 'unknown' });
    expect(classifyConnectionError(other, true)).toMatchObject({ retryable: true, phase: 'unknown' });
    expect(classifyConnectionError(err, true)).toMatchObject({ retryable: true, phase: 'unknown', message: 'TLS error (wrong version number)' });
  });

  it("says undici's `bad response` (an unasked 100 Continue, a reply to no request) by what it is, as a failure after sending", () => {
    expect(classifyConnectionError(new undiciErrors.SocketError('bad response'))).toEqual({
      code: 'UND_ERR_SOCKET',
      message: 'an answer docket cannot read (a "100 Continue" it did not ask for, or a reply to no request)',
      retryable: true,
      phase: 'unknown',
    });
  });

  it('does not retry unknown errors or a host that does not resolve', () => {
    expect(classifyConnectionError(new Error('something odd')).retryable).toBe(false);
    expect(classifyConnectionError(coded('ENOTFOUND'))).toMatchObject({ retryable: false, phase: 'not-sent' });
  });
});

describe('decide', () => {
  const unknown = { code: 'UND_ERR_SOCKET', message: 'other side closed', retryable: true, phase: 'unknown' as const };
  const notSent = { code: 'ECONNREFUSED', message: 'refused', retryable: true, phase: 'not-sent' as const };

  it('retries idempotent methods on retryable statuses and failures', () => {
    for (const method of ['GET', 'PATCH', 'DELETE'] as const) {
      for (const status of [429, 500, 502, 503, 504]) expect(decide(method, 'request', { status })).toBe('retry');
      expect(decide(method, 'request', { failure: unknown })).toBe('retry');
      expect(decide(method, 'request', { status: 501 })).toBe('fail');
      expect(decide(method, 'request', { status: 422 })).toBe('fail');
    }
  });

  it('retries POST only when it surely was not processed', () => {
    expect(decide('POST', 'request', { status: 429 })).toBe('retry');
    expect(decide('POST', 'request', { status: 503 })).toBe('retry');
    expect(decide('POST', 'request', { failure: notSent })).toBe('retry');
    expect(decide('POST', 'request', { status: 500 })).toBe('fail');
    expect(decide('POST', 'request', { status: 502 })).toBe('fail');
    expect(decide('POST', 'request', { status: 504 })).toBe('fail');
    expect(decide('POST', 'request', { failure: unknown })).toBe('fail');
  });

  it('recovers a create whose outcome is unknown', () => {
    expect(decide('POST', 'create', { status: 500 })).toBe('recover');
    expect(decide('POST', 'create', { status: 502 })).toBe('recover');
    expect(decide('POST', 'create', { status: 504 })).toBe('recover');
    expect(decide('POST', 'create', { failure: unknown })).toBe('recover');
    expect(decide('POST', 'create', { status: 429 })).toBe('retry');
    expect(decide('POST', 'create', { failure: notSent })).toBe('retry');
    expect(decide('POST', 'create', { status: 400 })).toBe('fail');
  });

  it('recovers a PATCH that publishes (sent as a create) as a create, never repeating it blindly (probe RQ-4)', () => {
    expect(decide('PATCH', 'create', { status: 500 })).toBe('recover');
    expect(decide('PATCH', 'create', { failure: unknown })).toBe('recover');
    expect(decide('PATCH', 'create', { status: 503 })).toBe('retry');
    expect(decide('PATCH', 'create', { failure: notSent })).toBe('retry');
  });
});

describe('backoffDelay', () => {
  it('uses full jitter under an exponential, capped ceiling', () => {
    expect(backoffDelay(0, 250, 8000, () => 0)).toBe(0);
    expect(backoffDelay(0, 250, 8000, () => 0.5)).toBe(125);
    expect(backoffDelay(3, 250, 8000, () => 1)).toBe(2000);
    expect(backoffDelay(10, 250, 8000, () => 1)).toBe(8000);
  });
});

describe('parseRetryAfter', () => {
  const now = Date.parse('2026-01-01T00:00:00Z');
  it('reads seconds and HTTP dates as they are (the command budget decides whether to wait)', () => {
    expect(parseRetryAfter('2', now)).toBe(2000);
    expect(parseRetryAfter('0.5', now)).toBe(500);
    expect(parseRetryAfter('3600', now)).toBe(3_600_000);
    expect(parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)).toBe(10_000);
    expect(parseRetryAfter('Wed, 31 Dec 2025 23:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });

  it('reads each of HTTP\'s three date forms as GMT, whatever the machine\'s time zone (probe WK-1)', () => {
    const zone = process.env.TZ;
    try {
      for (const tz of ['America/New_York', 'Asia/Tokyo', 'UTC']) {
        process.env.TZ = tz;
        expect([parseRetryAfter('Thu Jan  1 00:00:10 2026', now), parseRetryAfter('Thursday, 01-Jan-26 00:00:10 GMT', now), parseRetryAfter('Thu, 01 Jan 2026 00:00:10 GMT', now)], tz).toEqual([10_000, 10_000, 10_000]);
      }
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
  });
});
