/**
 * The key in output, spelt every way a file or a URL may spell it: each character as it is, in
 * another case, or escaped (YAML's `\x`, `\u`, `\U`, a percent escape), the line cut by an excerpt's
 * window at any place, and escaped again by JSON once or twice. Generated from a fixed seed, so a
 * failure is the same on every run; what it checks is what a reader could recover from the output.
 */
import { describe, expect, it } from 'vitest';
import { keyValues, redact } from '../../../src/cli/redact.js';
import { windowAround } from '../../../src/util/whole-slice.js';

const KEY = 'sk_live_Ab3dE6gH9jK1mN4p';

/** A small seeded generator (mulberry32): the same lines on every run. */
function seeded(seed: number): (n: number) => number {
  let a = seed;
  return (n) => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * n);
  };
}

function spelt(c: string, pick: number): string {
  const hex = (width: number) => c.charCodeAt(0).toString(16).padStart(width, '0');
  return [`\\x${hex(2)}`, `\\u${hex(4)}`, `\\U${hex(8)}`, `%${hex(2).toUpperCase()}`, c.toUpperCase()][pick] ?? c;
}

/** What a reader gets back from output: JSON's and YAML's escapes and percent escapes read, in lower case. */
function readBack(text: string): string {
  let out = text;
  for (let i = 0; i < 3; i++) out = out.replace(/\\\\/g, '\\');
  return out.replace(/\\x([0-9a-f]{2})|\\u([0-9a-f]{4})|\\U([0-9a-f]{8})|%([0-9a-f]{2})/gi, (_match, ...hex: (string | undefined)[]) => String.fromCodePoint(parseInt(hex.slice(0, 4).find((h) => h !== undefined)!, 16))).toLowerCase();
}

describe('a piece of a key standing alone', () => {
  it('is hidden from 16 characters of its secret part on, in any case; shorter ones, and the UUID of an emulator key, stay (probe LL-1)', () => {
    const secrets = keyValues({ DOCKET_API_KEY: 'sk_live_4eC39HqLyjWDarjtT1zdp7dc' });
    expect(redact('words: sk + live + 4ec39hqlyjwdarjtt1zdp7dc.', secrets)).toBe('words: sk + live + [redacted].');
    expect(redact('x 39HQLYJWDARJTT1Z y', secrets)).toBe('x [redacted] y');
    expect(redact('x 4ec39hqlyjwdarjt y', secrets)).toBe('x [redacted] y');
    // Fifteen characters are no key, nor the key's public prefix.
    expect(redact('x 4ec39hqlyjwdarj y sk_live_ z', secrets)).toBe('x 4ec39hqlyjwdarj y sk_live_ z');
    // A diff's `-` or a list's before a piece, at a line's or a word's start, stays: the line still reads as removed (probe QF-1).
    const qf = keyValues({ DOCKET_API_KEY: 'sk_live_QF9x7TopSecretKey42abc' });
    expect(redact('-QF9x7TopSecretKey42 pasted by a reviewer', qf)).toBe('-[redacted] pasted by a reviewer');
    expect(redact('a\n-qf9x7topsecretkey42_ y', qf)).toBe('a\n-[redacted]_ y');
    expect(redact('-QF9x7TopSecretKey…', qf)).toBe('-[redacted]…');
    // Beside other text it goes with the piece, as the rest of the key beside it does (second read SR84-1).
    expect(redact('x--qf9x7topsecretkey42_ y', qf)).toBe('x-[redacted]_ y');
    const chained = keyValues({ DOCKET_API_KEY: 'sk_live_Ab3dE6gH9jK1mN4p' });
    expect(redact(`…${'9jK1mN4psk_live_'.repeat(20)}`, chained)).toMatch(/^…(\[redacted\])+$/);
    const emulator = keyValues({ DOCKET_API_KEY: 'docket-emulator-key-00000000-0000-4000-8000-00000000000a' });
    expect(redact('organization 00000000-0000-4000-8000-00000000000a', emulator)).toBe('organization 00000000-0000-4000-8000-00000000000a');
    expect(redact('the key docket-emulator-key-<id>', emulator)).toBe('the key docket-emulator-key-<id>');
  });
});

describe('a key spelt with escapes, cut and escaped again', () => {
  it('leaves no 8 characters of the key readable, and JSON stays JSON (probes IY-1, SR69, TR69)', () => {
    const random = seeded(69);
    const secrets = keyValues({ DOCKET_API_KEY: KEY });
    const pieces = Array.from({ length: KEY.length - 7 }, (_, i) => KEY.slice(i, i + 8).toLowerCase());
    const leaks: string[] = [];
    for (let n = 0; n < 4000; n++) {
      const written = [...KEY].map((c) => (random(3) === 0 ? spelt(c, random(7)) : c)).join('');
      const quote = ['"', "'", ' ', ''][random(4)]!;
      let line = `${'x'.repeat(random(120))}  internal_notes: ${quote}${written}${quote}${random(4) === 0 ? '\\' : ''} ${'y'.repeat(random(120))}`;
      if (random(2) === 1) line = windowAround(line, random(line.length), 60 + random(60), 20 + random(20)).text;
      let out = line;
      const depth = random(3);
      for (let d = 0; d < depth; d++) out = JSON.stringify({ excerpt: out });
      const shown = redact(out, secrets);
      if (depth > 0) expect(() => JSON.parse(shown), out).not.toThrow();
      const read = readBack(shown);
      if (pieces.some((p) => read.includes(p))) leaks.push(`${out} → ${shown}`);
    }
    expect(leaks).toEqual([]);
  });

  it("hides a key holding `'` as a YAML single-quoted string writes it (`''`), in a source line and in JSON (probe JZ-1)", () => {
    const key = "it's-a-key-99";
    const secrets = keyValues({ DOCKET_API_KEY: key });
    const line = "    internal_notes: 'note it''s-a-key-99 end'";
    expect(redact(line, secrets)).toBe("    internal_notes: 'note [redacted] end'");
    expect(redact(JSON.stringify({ excerpt: line }), secrets)).toBe(JSON.stringify({ excerpt: "    internal_notes: 'note [redacted] end'" }));
    expect(redact(line.toUpperCase(), secrets)).not.toContain("IT''S-A-KEY-99");
  });
});
