import { structuredPatch } from 'diff';
import { describe, expect, it } from 'vitest';
import { diffLines, newDiffBudget, replacedBlock } from '../../../src/render/textdiff.js';
import { renderPlanText } from '../../../src/render/text.js';
import { KIND_ORDER, change, plan } from './fixtures.js';

/** What jsdiff's own patch says for two texts, as diffLines shows it. */
function patchLines(before: string, after: string): string[] {
  const patch = structuredPatch('before', 'after', before, after, undefined, undefined, { context: 3 });
  return patch.hunks.flatMap((h) => [`@@ -${h.oldLines === 0 ? h.oldStart - 1 : h.oldStart},${h.oldLines} +${h.newLines === 0 ? h.newStart - 1 : h.newStart},${h.newLines} @@`, ...h.lines]);
}

describe('diffLines', () => {
  const texts = ['one line', 'ACCEPT 3 years\nCOUNTER 2 years', 'a\n\nb', '\n', ' lead\ntrail ', Array.from({ length: 12 }, (_, i) => `line ${i}`).join('\n'), '@@ -1 +1 @@\n+plus\n-minus', 'é\n😀'];

  it('a value created or removed is one hunk of its lines, as the diff itself would say', () => {
    for (const text of texts) {
      expect(diffLines(null, text)).toEqual(patchLines('', `${text}\n`));
      expect(diffLines(text, null)).toEqual(patchLines(`${text}\n`, ''));
    }
    expect(diffLines(null, '')).toEqual([]);
    expect(diffLines(null, null)).toEqual([]);
  });

  it('hides a URL\'s password, query and fragment in every line, added, removed or kept, as a value on one line shows it (probe AH-1)', () => {
    const before = 'ACCEPT per https://carol:pa55@example.com/policy?sig=abc#frag\nline two';
    const after = 'ACCEPT per https://carol:pa55@example.com/policy?sig=abc#frag\nline three\nsee http://x.example/a';
    const shown = [...diffLines(null, before), ...diffLines(before, after)].join('\n');
    expect(shown).not.toMatch(/pa55|sig=abc|frag/);
    expect(shown).toContain(' ACCEPT per https://***@example.com/policy?…#…');
    expect(shown).toContain('+see http://x.example/a');
    // Two texts that differ only there show as one: the plan says why (second read SR99B-3).
    expect(diffLines('FLAG https://x.example/p?sig=abc\nline two', 'FLAG https://x.example/p?sig=def\nline two')).toEqual([]);
    const rule = change('update', 'rule', 'NDA/Term', { fields: { actions: ['FLAG https://x.example/p?sig=abc\nline two', 'FLAG https://x.example/p?sig=def\nline two'] } });
    const text = renderPlanText(plan([rule]), { color: false, kindOrder: KIND_ORDER });
    expect(text).toContain('actions: (no visible difference: they differ only in what output hides as it may hold a secret');
    expect(text).not.toContain('sig=');
  });

  it('spends at most one budget of diff work on a whole rendering: past it, a value is one replaced block; each rendering starts anew (probe YH-1)', () => {
    const before = Array.from({ length: 1000 }, (_, i) => `line ${i}`).join('\n');
    const after = before.replace(/line (\d*[02468])\b/g, 'line $1 edited');
    // Diffed line by line, the unchanged odd lines stand between the edited ones.
    newDiffBudget();
    expect(diffLines(before, after)).toContain(' line 1');
    newDiffBudget(50_000);
    expect(diffLines(before, after)).toEqual(replacedBlock(before.split('\n'), after.split('\n')));
    // A rendering gives itself the whole budget again.
    const rule = change('update', 'rule', 'P/A', { parent: 'P', fields: { actions: [before, after] } });
    expect(renderPlanText(plan([rule]), { color: false, kindOrder: KIND_ORDER })).toMatch(/\n +-line 0\n +\+line 0 edited\n + line 1\n/);
  });

  it('a value changed on both sides shows its changed lines with context', () => {
    expect(diffLines('a\nb\nc', 'a\nB\nc')).toEqual(['@@ -1,3 +1,3 @@', ' a', '-b', '+B', ' c']);
  });

  it('marks a no-break or zero-width space, so a line changed only by one does not show as itself twice', () => {
    expect(diffLines('ACCEPT one year\nREJECT perpetual', 'ACCEPT\u00a0one year\nREJECT perp\u200betual')).toEqual([
      '@@ -1,2 +1,2 @@',
      '-ACCEPT one year',
      '-REJECT perpetual',
      '+ACCEPT<U+00A0>one year',
      '+REJECT perp<U+200B>etual',
    ]);
  });
});

describe('a change too long to diff line by line', () => {
  it('shows two long texts changed throughout as one replaced block, instead of working out the shortest edit (seconds for each)', () => {
    const before = Array.from({ length: 4000 }, (_, i) => `line ${i}`);
    const after = before.map((line, i) => (i % 2 === 0 ? `${line} changed` : line));
    const shown = diffLines(before.join('\n'), after.join('\n'));
    expect(shown[0]).toBe('@@ -1,4000 +1,4000 @@');
    // Kept lines at the end are context; the rest removed, then added.
    expect(shown.slice(1, 4000).every((l) => l.startsWith('-'))).toBe(true);
    expect(shown.slice(4000, 7999).every((l) => l.startsWith('+'))).toBe(true);
    expect(shown.slice(7999)).toEqual([' line 3999']);
  });

  it('shows a few dozen lines edited across a long text as their own hunks, not the whole text replaced', () => {
    const before = Array.from({ length: 25_000 }, (_, i) => `line ${i} of the contract`);
    const after = before.map((line, i) => (i % 400 === 0 ? `${line} X` : line));
    const shown = diffLines(before.join('\n'), after.join('\n'));
    expect(shown.filter((l) => l.startsWith('@@'))).toHaveLength(63);
    expect(shown.filter((l) => l.startsWith('+'))).toHaveLength(63);
  });

  it('a replaced block keeps what both sides share at their start and end as three lines of context, as jsdiff shows one changed block', () => {
    const cases: [string[], string[]][] = [
      [['a', 'b', 'c', 'd', 'e', 'x', 'y', 'f', 'g', 'h', 'i'], ['a', 'b', 'c', 'd', 'e', 'X', 'f', 'g', 'h', 'i']],
      [['x'], ['y', 'z']],
      [['a', 'b'], ['a', 'b', 'c']],
      [['a', 'b', 'c'], ['c']],
      [[], ['a']],
    ];
    for (const [before, after] of cases) {
      const text = (lines: string[]) => lines.map((l) => `${l}\n`).join('');
      expect(replacedBlock(before, after)).toEqual(patchLines(text(before), text(after)));
    }
    expect(replacedBlock(['a'], ['a'])).toEqual([]);
  });
});
