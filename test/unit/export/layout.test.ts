import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { SLUG_MAX_BYTES, assignSlugs, duplicateNames, exportKinds, slug } from '../../../src/export/layout.js';
import { KINDS } from '../../../src/kinds/index.js';

describe('slug', () => {
  it("makes no file name of a URL's password or query in a name", () => {
    expect(slug('Side https://u:hunter9@h.example/?SEKRET9#FRAG9')).toBe('side-https-h-example');
  });

  it('lowercases and turns every run of other characters into one hyphen, trimmed', () => {
    expect(slug('Inbound NDA')).toBe('inbound-nda');
    expect(slug('  --Hello,   World!--  ')).toBe('hello-world');
    expect(slug('v2.1 Terms (EU)')).toBe('v2-1-terms-eu');
    expect(slug('Data_Processing/Agreement')).toBe('data-processing-agreement');
  });

  it('keeps the letters and digits of any script, in NFC, and never returns an empty name', () => {
    expect(slug('Café Crème')).toBe('café-crème');
    expect(slug('Cafe\u0301')).toBe('café'); // decomposed input: the same name as composed
    expect(slug('秘密保持契約 (NDA)')).toBe('秘密保持契約-nda');
    expect(slug('הסכם סודיות')).toBe('הסכם-סודיות');
    expect(slug('اتفاقية عدم الإفصاح')).toBe('اتفاقية-عدم-الإفصاح');
    expect(slug('हिन्दी अनुबंध')).toBe('हिन्दी-अनुबंध'); // combining vowel signs stay with their letters
    expect(slug('ΣΥΜΒΑΣΗ ٣')).toBe('συμβαση-٣');
    // A final sigma is the sigma a case-blind file system takes it for: names that differ only so share a slug (probe OF-4).
    expect([slug('ΟΔΟΣ'), slug('οδος'), slug('οδοσ'), slug('ſtraße')]).toEqual(['οδοσ', 'οδοσ', 'οδοσ', 'straße']);
    expect(slug('***')).toBe('unnamed');
    expect(slug('🙂')).toBe('unnamed');
    // An emoji's invisible selector (U+FE0F) and a keycap's square are no letters: no name ends after its `-`.
    expect(slug('Review ✏️')).toBe('review');
    expect(slug('Shared term ♻️ v2')).toBe('shared-term-v2');
    expect(slug('Step 1️⃣')).toBe('step-1');
  });

  it('is safe on Windows, macOS and Linux: no reserved characters, trailing dots or spaces, device names, or overlong names', () => {
    expect(slug('a<b>c:d"e/f\\g|h?i*j')).toBe('a-b-c-d-e-f-g-h-i-j');
    expect(slug('Terms v2. ')).toBe('terms-v2');
    expect(slug('CON')).toBe('con_');
    // docket's own name: a file named so would be read as the project file from its folder (probe KX-10).
    expect(slug('Docket')).toBe('docket_');
    expect(slug('Docket NDA')).toBe('docket-nda');
    expect(slug('com1')).toBe('com1_');
    expect(slug('Console')).toBe('console');
    const long = slug('契'.repeat(200));
    expect(Buffer.byteLength(long)).toBeLessThanOrEqual(SLUG_MAX_BYTES);
    expect(long).toBe('契'.repeat(Math.floor(SLUG_MAX_BYTES / 3)));
    // Cut at a whole character: a letter never loses its vowel sign.
    expect(slug(`${'a'.repeat(SLUG_MAX_BYTES - 4)}कि`)).toBe('a'.repeat(SLUG_MAX_BYTES - 4));
  });
});

describe('assignSlugs', () => {
  const ids = (items: { item: { name: string; id: string }; slug: string }[]) => items.map((x) => `${x.item.id}:${x.slug}`);

  it('gives collisions -2, -3 in name order, ties broken by the tiebreak (the live id)', () => {
    const items = [
      { name: 'NDA!', id: 'c' },
      { name: 'nda', id: 'b' },
      { name: 'NDA', id: 'z' },
      { name: 'NDA', id: 'a' },
      { name: 'Other', id: 'd' },
    ];
    const result = assignSlugs(items, (x) => x.name, (x) => x.id);
    expect(ids(result)).toEqual(['a:nda', 'z:nda-2', 'c:nda-3', 'd:other', 'b:nda-4']);
  });

  it('is independent of the input order', () => {
    const items = [
      { name: 'B', id: '1' },
      { name: 'A', id: '2' },
      { name: 'a', id: '3' },
    ];
    const forward = assignSlugs(items, (x) => x.name, (x) => x.id);
    const backward = assignSlugs([...items].reverse(), (x) => x.name, (x) => x.id);
    expect(ids(backward)).toEqual(ids(forward));
  });

  it('never hands out a slug twice, even when a name slugs to a collision suffix', () => {
    const items = [{ name: 'a' }, { name: 'a' }, { name: 'a 2' }];
    const slugs = assignSlugs(items, (x) => x.name).map((x) => x.slug);
    expect(slugs).toEqual(['a', 'a-2', 'a-2-2']);
    expect(new Set(slugs).size).toBe(slugs.length);
  });
});

const parseExportKinds = (values: string[]) => exportKinds(values, KINDS).map((k) => k.name);

describe('exportKinds', () => {
  // Written so that registering a kind does not make it fail (issue 8: a new kind touches no other test).
  it('means every kind with a layout when none is given, in registry order, never a child or an internal kind', () => {
    const all = parseExportKinds([]);
    expect(all).toEqual(expect.arrayContaining(['organization', 'member', 'playbook', 'custom-term', 'custom-template', 'attachment', 'template']));
    expect(all.filter((k) => ['rule', 'agreements-user'].includes(k))).toEqual([]);
    const order = KINDS.map((k) => k.name as string);
    expect(all).toEqual([...all].sort((a, b) => order.indexOf(a) - order.indexOf(b)));
  });

  it('accepts repeated kinds, in registry order', () => {
    expect(parseExportKinds(['template', 'playbook', 'playbook'])).toEqual(['playbook', 'template']);
    // As the files write a kind, in any case.
    expect(parseExportKinds(['Template', 'CustomTerm', 'PLAYBOOK'])).toEqual(['playbook', 'custom-term', 'template']);
  });

  it('suggests the closest kind for a typo', () => {
    expect(() => parseExportKinds(['playbok'])).toThrow(/unknown kind `playbok`, did you mean `playbook`\?/);
    expect(() => parseExportKinds(['custom-terms'])).toThrow(/did you mean `custom-term`/);
    expect(() => parseExportKinds(['nothing-like-it'])).toThrow(UsageError);
    expect(() => parseExportKinds([''])).toThrow('--kind needs a kind (got "")');
  });

  it('explains that rules come with their playbook', () => {
    try {
      parseExportKinds(['rule']);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(UsageError);
      expect((error as UsageError).hint).toBe('use --kind playbook');
    }
  });
});

describe('duplicateNames', () => {
  it('lists each name that occurs more than once, sorted', () => {
    expect(duplicateNames(['b', 'a', 'b', 'c', 'a', 'b'])).toEqual(['a', 'b']);
    expect(duplicateNames(['a', 'A'])).toEqual([]);
  });
});
