import { describe, expect, it } from 'vitest';
import { quoteValue } from '../../../src/config/quote.js';
import { textProblems } from '../../../src/config/text-hygiene.js';

describe('text hygiene', () => {
  it('allows tabs and line breaks in text, never in names, e-mails or references', () => {
    const doc = { kind: 'Playbook', name: 'P', description: 'one\ttwo\nthree', rules: [{ name: 'R\tS', actions: 'A\nB', reviewer: 'a@b.c' }], renamed_from: ['Old', 'Older\n'] };
    expect(textProblems(doc).map((p) => p.pointer)).toEqual(['/rules/0/name', '/renamed_from/1']);
  });

  it('refuses NUL, escape and C1 characters anywhere, naming the code point', () => {
    const problems = textProblems({ description: 'a\u0000b', rules: [{ actions: 'x\u001b[2Jy' }], parameters: { provider: 'Acme\u0085' } });
    expect(problems.map((p) => [p.pointer, p.message.match(/U\+[0-9A-F]{4}/)?.[0]])).toEqual([
      ['/description', 'U+0000'],
      ['/rules/0/actions', 'U+001B'],
      ['/parameters/provider', 'U+0085'],
    ]);
  });

  it('quotes values on one line, escaped and cut short', () => {
    expect(quoteValue('a\u0000b\u009bc')).toBe('"a\\u0000b\\u009bc"');
    expect(quoteValue('x'.repeat(100))).toBe(`"${'x'.repeat(57)}..."`);
    // What prints as nothing or as a space is escaped too: raw, the value would look valid.
    expect(quoteValue('alice@acme.example\u200b')).toBe('"alice@acme.example\\u200b"');
    expect(quoteValue('\u00a0')).toBe('"\\u00a0"');
    expect(quoteValue('Te\u200dr\u202em\ufeff')).toBe('"Te\\u200dr\\u202em\\ufeff"');
    expect(quoteValue('Café — naïve')).toBe('"Café — naïve"');
  });

  it('cuts a long value between characters, never inside an emoji, counting an emoji as one', () => {
    expect(quoteValue(`${'x'.repeat(56)}${'\u{1F600}'.repeat(10)}`)).toBe(`"${'x'.repeat(56)}\u{1F600}..."`);
    expect(quoteValue(`${'x'.repeat(55)}${'\u{1F600}'.repeat(10)}`)).toBe(`"${'x'.repeat(55)}\u{1F600}\u{1F600}..."`);
    // 60 emoji are 120 UTF-16 units, and shown whole; 201 are cut after 57.
    expect(quoteValue('\u{1F600}'.repeat(60))).toBe(`"${'\u{1F600}'.repeat(60)}"`);
    expect(quoteValue('\u{1F600}'.repeat(201))).toBe(`"${'\u{1F600}'.repeat(57)}..."`);
  });
});
