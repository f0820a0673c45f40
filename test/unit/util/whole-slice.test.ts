import { describe, expect, it } from 'vitest';
import { excerptAround } from '../../../src/render/json.js';
import { wholeSlice } from '../../../src/util/whole-slice.js';

describe('wholeSlice', () => {
  it('never splits an emoji at either end, and slices plain text as slice does', () => {
    const text = '😀a😀';
    expect(wholeSlice(text, 1, 4)).toBe('a');
    expect(wholeSlice(text, 1, 5)).toBe('a😀');
    expect(wholeSlice(text, 0, 4)).toBe('😀a');
    expect(wholeSlice('abcdef', 1, 4)).toBe('bcd');
  });

  it('keeps a long line excerpt of emoji free of lone surrogates', () => {
    const line = `x: "${'😀'.repeat(600)}"`;
    const excerpt = excerptAround(line, 300);
    expect(excerpt.startsWith('…')).toBe(true);
    expect(excerpt).not.toMatch(/(^|[^\ud800-\udbff])[\udc00-\udfff]|[\ud800-\udbff]($|[^\udc00-\udfff])/);
  });
});
