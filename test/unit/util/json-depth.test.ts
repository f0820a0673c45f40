import { describe, expect, it } from 'vitest';
import { nestsDeeperThan, offsetPastDepth } from '../../../src/util/json-depth.js';

describe('JSON depth', () => {
  it('counts arrays and objects, not scalars, and finds the bracket that goes one level too deep', () => {
    expect(nestsDeeperThan({ a: [{ b: 1 }] }, 3)).toBe(false);
    expect(nestsDeeperThan({ a: [{ b: [] }] }, 3)).toBe(true);
    expect(nestsDeeperThan('[[[[', 1)).toBe(false);
    expect(offsetPastDepth('{"a": [{"b": []}]}', 3)).toBe(13);
    expect(offsetPastDepth('{"a": [{"b": 1}]}', 3)).toBe(-1);
  });

  it('skips brackets inside strings, escaped quotes included', () => {
    expect(offsetPastDepth('{"[[[\\"[[": [1]}', 1)).toBe(12);
    expect(offsetPastDepth('{"[[[\\"[[": 1}', 1)).toBe(-1);
  });

  it('walks 100,000 levels without overflowing the stack', () => {
    let deep: unknown = [];
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(nestsDeeperThan(deep, 200)).toBe(true);
    expect(offsetPastDepth('['.repeat(100_000), 200)).toBe(200);
  });
});
