import { describe, expect, it } from 'vitest';
import { showName } from '../../../src/config/quote.js';

describe('showName', () => {
  it('shows a plain name in backticks, and one that would show nothing there (empty, blank, space at an end) quoted', () => {
    expect(showName('playbook')).toBe('`playbook`');
    expect(showName('')).toBe('""');
    expect(showName('  ')).toBe('"  "');
    expect(showName('Term ')).toBe('"Term "');
  });
});
