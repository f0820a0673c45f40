import { describe, expect, it } from 'vitest';
import { hintForStatus } from '../../../src/api/problem.js';

describe('hintForStatus', () => {
  it('sends a run still refused for pace to --max-rps, which paces a quota, not to --concurrency, which may be 1 already (probe CC-4)', () => {
    const hint = hintForStatus('review', 429, '/v1/organizations/x');
    expect(hint).toBe('the service is still rate limiting after several retries; set --max-rps (or `max_rps:` in docket.yaml) to the quota the service allows, or try again later');
  });
});
