import { describe, expect, it } from 'vitest';
import { pathSegment } from '../../../src/api/path-segment.js';
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
