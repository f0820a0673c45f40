import { afterEach, describe, expect, it } from 'vitest';
import { playbooksAtRef } from '../../../src/testing/git-ref.js';

const path = process.env.PATH;
afterEach(() => {
  process.env.PATH = path;
});

describe('playbooksAtRef without git', () => {
  it('says git was not found, not an empty reason and a hint about the checkout (probe CA-3)', async () => {
    process.env.PATH = '/nonexistent';
    const error = await playbooksAtRef('.', 'HEAD', { processEnv: {} }).then(() => undefined, (e: unknown) => e as { message: string; hint?: string });
    expect(error?.message).toBe('--compare-to: git was not found (ENOENT): it reads the configuration at the ref');
    expect(error?.hint).toContain('install git where docket test runs');
  });
});
