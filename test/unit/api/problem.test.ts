import { describe, expect, it } from 'vitest';
import { hintForStatus } from '../../../src/api/problem.js';

describe('hintForStatus', () => {
  it('sends a run still refused for pace to --max-rps, which paces a quota, not to --concurrency, which may be 1 already (probe CC-4)', () => {
    const hint = hintForStatus('review', 429, '/v1/organizations/x');
    expect(hint).toBe('the service is still rate limiting after several retries; set --max-rps (or `max_rps:` in docket.yaml) to the quota the service allows, or try again later');
  });

  it('says a 404 under a service URL that ends with /v1 is the /v1 docket adds itself (probe CI-2)', () => {
    const base = 'http://127.0.0.1:4010/agreements/v1';
    expect(hintForStatus('agreements', 404, '/v1/organization', { baseUrl: base, requestUrl: `${base}/v1/organization` })).toBe(
      'the agreements service URL (http://127.0.0.1:4010/agreements/v1) ends with /v1, which docket adds to every path itself: remove it from `agreements.url` in docket.yaml, or from DOCKET_AGREEMENTS_URL where that sets it',
    );
    expect(hintForStatus('agreements', 404, '/v1/organization', { baseUrl: 'http://127.0.0.1:4010/agreements', requestUrl: 'x' })).toBeUndefined();
    // Before the feature being off, which a 404 on the terms' list would otherwise be taken for.
    expect(hintForStatus('agreements', 404, '/v1/custom_terms', { baseUrl: base, requestUrl: 'x' })).toContain('ends with /v1');
  });
});
