import { describe, expect, it } from 'vitest';
import { excerptAround } from '../../../src/render/json.js';
import { wholeSlice, windowAround } from '../../../src/util/whole-slice.js';

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

  it('never cuts a window inside an escape, at its start or its end: the remnant would hide a key written with it from redaction (third read TR69-1)', () => {
    const line = `${'x'.repeat(100)}a: "\\x73k_live_abcdef123456" b: "%73k%5Flive"${'y'.repeat(300)}`;
    const escapes = /\\x[0-9a-f]{2}|%[0-9a-f]{2}/gi;
    for (let at = 100; at < 160; at++) {
      for (const width of [30, 31, 32, 33]) {
        const { text, start } = windowAround(line, at, width, 10);
        const inner = text.replace(/^…/, '').replace(/…$/, '');
        // What is shown is the line from `start`, and holds no piece of an escape but whole ones.
        expect(line.startsWith(inner, start), `${at}/${width}`).toBe(true);
        expect(inner.replace(escapes, ''), `${at}/${width}`).not.toMatch(/\\|%/);
      }
      // Never past `at`, where a caret goes, with few characters before it (fourth read RV4-6).
      expect(windowAround(`${line.slice(0, 110)}\\U00000073${line.slice(110)}`, at, 30, 3).start).toBeLessThanOrEqual(at);
    }
  });
});
