import { describe, expect, it } from 'vitest';
import { markInvisible, quoteValue, showName } from '../../../src/config/quote.js';

describe('showName', () => {
  it('shows a plain name in backticks, and one that would show nothing there (empty, blank, space at an end) quoted', () => {
    expect(showName('playbook')).toBe('`playbook`');
    expect(showName('')).toBe('""');
    expect(showName('  ')).toBe('"  "');
    expect(showName('Term ')).toBe('"Term "');
  });
});

describe('quoteValue', () => {
  it('escapes what prints as nothing, past the Basic Multilingual Plane too, so a blank-looking value shows what it holds', () => {
    expect(quoteValue('\u034F')).toBe('"\\u034f"');
    expect(quoteValue('a\u{E0020}b')).toBe('"a\\udb40\\udc20b"');
    expect(quoteValue('x\u200by\u00a0z')).toBe('"x\\u200by\\u00a0z"');
    expect(quoteValue('Café ✓')).toBe('"Café ✓"');
    expect(markInvisible('a\u{E0020}b')).toBe('a<U+E0020>b');
    expect(showName('r\u034F')).toBe('"r\\u034f"');
  });
});
