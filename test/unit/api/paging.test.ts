/** When a list without paging members may have been cut, so docket asks for its next page. */
import { describe, expect, it } from 'vitest';
import { looksTruncated } from '../../../src/api/paging.js';

describe('looksTruncated', () => {
  it('a page of a common default size, fewer than asked for, or exactly as many as asked for', () => {
    expect(looksTruncated(15, 100)).toBe(true);
    expect(looksTruncated(30, null)).toBe(true);
    expect(looksTruncated(100, 100)).toBe(true);
    expect(looksTruncated(42, 100)).toBe(false);
  });

  it('any page under 25 items when the service refused every size asked for (its own may be 10)', () => {
    expect(looksTruncated(10, null)).toBe(true);
    expect(looksTruncated(24, null)).toBe(true);
    expect(looksTruncated(0, null)).toBe(false);
    expect(looksTruncated(27, null)).toBe(false);
    expect(looksTruncated(10, 100)).toBe(false);
  });
});
