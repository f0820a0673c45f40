import { describe, expect, it } from 'vitest';
import { sortNamesInPlace } from '../../../src/util/sort-names.js';

describe('sortNamesInPlace', () => {
  it('orders names as Array#sort does (by code unit), short lists and long, in place', () => {
    const names = ['zeta', 'Beta', 'a b', 'alpha', 'é', 'a', '_x', '10', '9', 'Z', 'alpha', ''];
    for (let n = 0; n <= 40; n++) {
      const list = Array.from({ length: n }, (_, i) => `${names[(i * 7) % names.length]}${i >= names.length ? i : ''}`);
      const copy = [...list];
      expect(sortNamesInPlace(list)).toBe(list);
      expect(list).toEqual(copy.sort());
    }
  });
});
