import { describe, expect, it } from 'vitest';
import { didYouMean, levenshtein, suggest, suggestAddress } from '../../../src/config/suggest.js';

describe('suggest', () => {
  it('suggests for no name longer than any docket name, and within ten edits: long names cost no seconds (probe BC-3)', () => {
    const long = (c: string) => `${c}${'x'.repeat(999)}`;
    const names = Array.from({ length: 60 }, (_, i) => long(String.fromCharCode(65 + i)));
    // A thousand characters one letter apart: no name of docket's, so no suggestion (and no quadratic work).
    expect(suggest(long('z'), names)).toBeUndefined();
    expect(suggest('a', names)).toBeUndefined();
    // Within the cap, still found.
    expect(suggest(`${'word_'.repeat(40)}x`, [`${'word_'.repeat(40)}y`])).toBe(`${'word_'.repeat(40)}y`);
    expect(suggest('abcdefghijklmnopqrstuvwxyz0123456789', ['zyxwvutsrqponmlkjihgfedcba9876543210'])).toBeUndefined();
  });

  it('computes edit distances', () => {
    expect(levenshtein('kitten', 'sitting')).toBe(3);
    expect(levenshtein('', 'abc')).toBe(3);
    expect(levenshtein('same', 'same')).toBe(0);
  });

  it('with a bound, gives the distance up to it and bound + 1 past it, a swap counting as one edit', () => {
    const words = ['kitten', 'sitting', 'nmae', 'name', 'ab', 'ba', 'abcdef', 'badcfe', 'x', '', 'legal_lead', 'legal_leda', 'v1234', 'w9876'];
    for (const a of words) {
      for (const b of words) {
        const exact = levenshtein(a, b);
        for (const max of [0, 1, 2, 3]) expect([a, b, max, levenshtein(a, b, max)]).toEqual([a, b, max, Math.min(exact, max + 1)]);
      }
    }
  });

  it('suggests a close candidate and ignores case, - and _', () => {
    expect(suggest('descripton', ['name', 'description', 'rules'])).toBe('description');
    expect(suggest('playbook', ['Member', 'Playbook'])).toBe('Playbook');
    expect(suggest('default-reviewer', ['name', 'default_reviewer'])).toBe('default_reviewer');
  });

  it('failing a typo, suggests a word that begins the other, of four letters or more and at most twice as long', () => {
    expect(suggest('warning', ['error', 'warn'])).toBe('warn');
    expect(suggest('Playbook', ['PlaybookTest', 'TemplateTest'])).toBe('PlaybookTest');
    expect(suggest('desc', ['name', 'description'])).toBeUndefined();
    expect(suggest('env', ['environments'])).toBeUndefined();
    // A typo still wins over a longer word it begins.
    expect(suggest('rule', ['rules', 'ruleset'])).toBe('rules');
  });

  it('takes a key written without one of its words for that key, over another word in its place', () => {
    const keys = ['data_exporter_role', 'data_exporter_name', 'data_exporter_address_zipcode', 'data_exporter_address_city'];
    expect(suggest('data_exporter_zipcode', keys)).toBe('data_exporter_address_zipcode');
    // A one-letter slip is still that slip.
    expect(suggest('data_exporter_rol', keys)).toBe('data_exporter_role');
    // One word of a key of several, when only that key has it: the words kept may be the last ones.
    expect(suggest('notes', ['name', 'internal_notes', 'generate_summary', 'renamed_from'])).toBe('internal_notes');
    expect(suggest('from', ['name', 'internal_notes', 'generate_summary', 'renamed_from'])).toBe('renamed_from');
    expect(suggest('rps', ['version', 'max_rps', 'concurrency'])).toBe('max_rps');
    expect(suggest('address', keys)).toBeUndefined();
  });

  it('suggests nothing for unrelated words', () => {
    expect(suggest('zebra', ['name', 'description', 'rules'])).toBeUndefined();
    expect(suggest('x', ['id'])).toBeUndefined();
    // A name of one or two letters is not a typo of another one (`env.X` is not the shell's `_`); its case is.
    expect(suggest('X', ['_', 'Y'])).toBeUndefined();
    expect(suggest('X', ['_', 'x'])).toBe('x');
    expect(suggest('AB', ['BA', 'AC'])).toBeUndefined();
  });

  it('formats the suffix used in messages', () => {
    expect(didYouMean('legal_led', ['legal_lead'], (n) => `var.${n}`)).toBe(', did you mean `var.legal_lead`?');
    expect(didYouMean('zzz', ['legal_lead'])).toBe('');
    // What prints as nothing or as a space is escaped: the suggestion would look like the name refused (probe IA-1).
    expect(didYouMean('Term', ['Te\u200brm'])).toBe(', did you mean "Te\\u200brm"?');
    expect(didYouMean('Inbound NDA', ['Inbound\u00a0NDA'])).toBe(', did you mean "Inbound\\u00a0NDA"?');
    // And a long one is never cut: it is the text to write.
    const long = `${'Governing law and jurisdiction '.repeat(3)}clause`;
    expect(didYouMean(`${long}s`, [long])).toBe(`, did you mean \`${long}\`?`);
  });

  it('suggests an address with one half the same and the other a typo of it, never another person', () => {
    const users = ['bob@acme.example', 'alice@acme.example', 'legal-ops@acme.example'];
    expect(suggestAddress('nobody@acme.example', users)).toBeUndefined();
    expect(suggestAddress('alcie@acme.example', users)).toBe('alice@acme.example');
    expect(suggestAddress('alice@acme.exmaple', users)).toBe('alice@acme.example');
    expect(suggestAddress('alcie@acme.exmaple', users)).toBeUndefined();
  });
});

describe('didYouMean', () => {
  it('names the letter that differs when the suggestion shows as the text written (probe RM-2)', () => {
    expect(didYouMean('Plаybook', ['Playbook', 'Member'])).toBe(', did you mean `Playbook`? (they differ only in a letter drawn alike: Cyrillic `а`, Latin `a`)');
    expect(didYouMean('prοd', ['prod'])).toBe(', did you mean `prod`? (they differ only in a letter drawn alike: Greek `ο`, Latin `o`)');
    // A typo is said as it always was.
    expect(didYouMean('Playbok', ['Playbook'])).toBe(', did you mean `Playbook`?');
  });
});
