import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { describeDefinitionChange } from '../../../src/kinds/support/definition.js';
import { lines } from './helpers.js';

const BEFORE = lines(
  'title: Referral Agreement',
  'terms_label: Referral Terms',
  'parties: { sender: Company, recipient: Partner }',
  'sections:',
  '  - heading: Program',
  '    required: true',
  '    fields:',
  '      payout_model: { label: Payout model, input: select, options: ["Flat fee", "Percentage"], default: Flat fee }',
  '      start_date: { label: Program start, input: date, default: 2026-01-01 }',
  '  - heading: Co-marketing',
  '    required: false',
  '    fields:',
  '      comarketing_terms: { label: Co-marketing commitments, input: markdown }',
  '  - heading: Legacy',
  '    fields:',
  '      old_key: { label: Old, input: text }',
  '  - import: governing_law',
  '    defaults: { governing_law_region: Delaware, chosen_courts_region: Delaware }',
);

describe('describeDefinitionChange', () => {
  it('says nothing for the same definition in another layout', () => {
    expect(describeDefinitionChange(BEFORE, parse(BEFORE))).toEqual([]);
  });

  it('adds, removes and changes fields', () => {
    const after = BEFORE.replace('default: 2026-01-01 }', 'default: 2026-02-01 }\n      payout_amount: { label: Payout amount, input: currency }').replace(
      '      old_key: { label: Old, input: text }',
      '      legacy_note: { label: Note, input: fixed }',
    );
    expect(describeDefinitionChange(BEFORE, after)).toEqual([
      '- field sections[2].fields.old_key',
      '~ field start_date.default: "2026-01-01" → "2026-02-01"',
      '+ field sections[0].fields.payout_amount (currency, "Payout amount")',
      '+ field sections[2].fields.legacy_note (fixed, "Note")',
    ]);
  });

  it('says a section that went and one that came printing alike, and a field moved between them, are the heading\'s accents encoded otherwise (probe EA-4)', () => {
    const def = (heading: string, fields: string) => ({ title: 'T', sections: [{ heading, fields: Object.fromEntries(fields.split(' ').map((f) => [f, { label: f, input: 'text' }])) }] });
    const out = describeDefinitionChange(def('Engagement d\u00e9fini', 'resume'), def('Engagement de\u0301fini', 'resume extra'));
    const note = '(no visible difference: the same letters, their accents encoded otherwise)';
    expect(out.filter((l) => /^[-+] section|moved from section/.test(l)).every((l) => l.endsWith(note))).toBe(true);
    expect(out.filter((l) => /^[-+] section|moved from section/.test(l))).toHaveLength(3);
  });

  it('says a title or a label that prints the same is its accents encoded otherwise (probe JH-2)', () => {
    const after = BEFORE.replace('title: Referral Agreement', 'title: "Cafe\u0301 Agreement"').replace('label: Old,', 'label: "Cafe\u0301",');
    const before = BEFORE.replace('title: Referral Agreement', 'title: "Caf\u00e9 Agreement"').replace('label: Old,', 'label: "Caf\u00e9",');
    expect(describeDefinitionChange(before, after)).toEqual([
      '~ title: "Caf\u00e9 Agreement" → "Cafe\u0301 Agreement" (no visible difference: the same letters, their accents encoded otherwise)',
      '~ field old_key.label: "Caf\u00e9" → "Cafe\u0301" (no visible difference: the same letters, their accents encoded otherwise)',
    ]);
  });

  it('says so of a section heading and of options that print the same, their accents encoded otherwise (probe KC-2)', () => {
    const form = (cafe: string) => `title: T\nsections:\n  - heading: "${cafe}"\n    fields:\n      pick: { label: Pick, input: select, options: ["${cafe}", x] }\n`;
    expect(describeDefinitionChange(form('Caf\u00e9'), form('Cafe\u0301'))).toEqual([
      '~ section "Caf\u00e9" heading: "Caf\u00e9" → "Cafe\u0301" (no visible difference: the same letters, their accents encoded otherwise)',
      '~ field pick.options: + "Cafe\u0301", - "Caf\u00e9" (no visible difference: the same letters, their accents encoded otherwise)',
    ]);
    // Beside an option really changed, the pair is named (second read SR72-6).
    expect(describeDefinitionChange(form('Caf\u00e9'), form('Cafe\u0301').replace(', x]', ', y]'))[1]).toBe('~ field pick.options: + "Cafe\u0301", + "y", - "Caf\u00e9", - "x" ("Caf\u00e9" and "Cafe\u0301": no visible difference: the same letters, their accents encoded otherwise)');
    // Reordered too, every option a twin: the note as a whole.
    const two = (a: string, b: string) => `title: T\nsections:\n  - heading: S\n    fields:\n      pick: { label: Pick, input: select, options: ["${a}", "${b}"] }\n`;
    expect(describeDefinitionChange(two('Caf\u00e9', 'Th\u00e9'), two('The\u0301', 'Cafe\u0301'))).toEqual(['~ field pick.options: + "The\u0301", + "Cafe\u0301", - "Caf\u00e9", - "Th\u00e9" (no visible difference: the same letters, their accents encoded otherwise)']);
    // A removed option twins one added option at most: the removal of "x" is not covered (second read RV9-6).
    expect(describeDefinitionChange(two('\u1ec7', 'x'), two('e\u0323\u0302', '\u1eb9\u0302'))[0]).toMatch(/^~ field pick\.options: .* \("\u1ec7" and "e\u0323\u0302": no visible difference/);
    // No twin, no note.
    expect(describeDefinitionChange(form('a'), form('b'))[1]).toBe('~ field pick.options: + "b", - "a"');
  });

  it('shows a character that prints as nothing in a key or a value, so a renamed key does not read as the same one', () => {
    const after = BEFORE.replace('old_key:', '"old\u200bkey":');
    expect(describeDefinitionChange(BEFORE, after)).toEqual(['- field sections[2].fields.old_key', '+ field sections[2].fields.old<U+200B>key (text, "Old")']);
    // In a quoted value, as an escape, as other quoted values of a plan show it (probe EI).
    const label = BEFORE.replace('label: Old', 'label: "\\ufeffOld\\u00a0now"');
    expect(describeDefinitionChange(BEFORE, label)).toEqual(['~ field old_key.label: "Old" → "\\ufeffOld\\u00a0now"']);
  });

  it('summarises an options change by option', () => {
    const after = BEFORE.replace('["Flat fee", "Percentage"]', '["Flat fee", "Hybrid"]');
    expect(describeDefinitionChange(BEFORE, after)).toEqual(['~ field payout_model.options: + "Hybrid", - "Percentage"']);
    const reordered = BEFORE.replace('["Flat fee", "Percentage"]', '["Percentage", "Flat fee"]');
    expect(describeDefinitionChange(BEFORE, reordered)).toEqual(['~ field payout_model.options: reordered "Flat fee", "Percentage" → "Percentage", "Flat fee"']);
  });

  it('shows keys of a field that appear or go', () => {
    const after = BEFORE.replace('{ label: Old, input: text }', '{ label: Old, input: textarea, required: true }').replace(', default: Flat fee }', ' }');
    expect(describeDefinitionChange(BEFORE, after)).toEqual([
      '~ field payout_model.default: "Flat fee" → (none)',
      '~ field old_key.input: "text" → "textarea"',
      '~ field old_key.required: (none) → true',
    ]);
  });

  it('changes the title, terms label and parties', () => {
    const after = BEFORE.replace('title: Referral Agreement', 'title: Partner Referral Agreement')
      .replace('terms_label: Referral Terms\n', '')
      .replace('recipient: Partner', 'recipient: Referrer');
    expect(describeDefinitionChange(BEFORE, after)).toEqual([
      '~ title: "Referral Agreement" → "Partner Referral Agreement"',
      '- terms_label: "Referral Terms"',
      '~ parties.recipient: "Partner" → "Referrer"',
    ]);
  });

  it('adds and removes sections, with their fields', () => {
    const after = BEFORE.replace(
      '  - heading: Legacy\n    fields:\n      old_key: { label: Old, input: text }\n',
      '  - heading: Reporting\n    required: false\n    included: false\n    fields:\n      report_email: { label: Reports to, input: email }\n',
    );
    expect(describeDefinitionChange(BEFORE, after)).toEqual([
      '- section "Legacy"',
      '+ section "Reporting"',
      '- field sections[2].fields.old_key',
      '+ field sections[2].fields.report_email (email, "Reports to")',
    ]);
  });

  it('reports a field that moved sections', () => {
    const after = BEFORE.replace('      start_date: { label: Program start, input: date, default: 2026-01-01 }\n', '').replace(
      '      old_key: { label: Old, input: text }',
      '      old_key: { label: Old, input: text }\n      start_date: { label: Start, input: date, default: 2026-01-01 }',
    );
    expect(describeDefinitionChange(BEFORE, after)).toEqual([
      '~ field start_date moved from section "Program" to "Legacy"',
      '~ field start_date.label: "Program start" → "Start"',
    ]);
  });

  it('says a section whose heading alone changed as its new heading, not as each of its fields moving', () => {
    const after = BEFORE.replace('  - heading: Legacy\n', '  - heading: Legacy terms\n');
    expect(describeDefinitionChange(BEFORE, after)).toEqual(['~ section "Legacy" heading: "Legacy" → "Legacy terms"']);
    // With a field changed too, the field is said as changed in place.
    const edited = after.replace('old_key: { label: Old, input: text }', 'old_key: { label: Older, input: text }');
    expect(describeDefinitionChange(BEFORE, edited)).toEqual(['~ section "Legacy" heading: "Legacy" → "Legacy terms"', '~ field old_key.label: "Old" → "Older"']);
  });

  it('reports section settings, import defaults and section order', () => {
    const after = lines(
      'title: Referral Agreement',
      'terms_label: Referral Terms',
      'parties: { sender: Company, recipient: Partner }',
      'sections:',
      '  - heading: Co-marketing',
      '    required: true',
      '    fields:',
      '      comarketing_terms: { label: Co-marketing commitments, input: markdown }',
      '  - heading: Program',
      '    required: true',
      '    fields:',
      '      payout_model: { label: Payout model, input: select, options: ["Flat fee", "Percentage"], default: Flat fee }',
      '      start_date: { label: Program start, input: date, default: 2026-01-01 }',
      '  - heading: Legacy',
      '    fields:',
      '      old_key: { label: Old, input: text }',
      '  - import: governing_law',
      '    defaults: { governing_law_region: New York, chosen_courts_region: Delaware }',
    );
    expect(describeDefinitionChange(BEFORE, after)).toEqual([
      '~ section "Co-marketing" required: false → true',
      '~ section import governing_law defaults.governing_law_region: "Delaware" → "New York"',
      '~ section order: "Program", "Co-marketing", "Legacy", import governing_law → "Co-marketing", "Program", "Legacy", import governing_law',
    ]);
  });

  it('says the fields a section keeps in another order, in their order before and after (probe GU)', () => {
    const two = (first: string, second: string, extra = '') =>
      lines('title: T', 'sections:', '  - heading: A', '    fields:', `      ${first}: { label: ${first}, input: text }`, `      ${second}: { label: ${second}, input: text }${extra}`);
    expect(describeDefinitionChange(two('a', 'b'), two('b', 'a'))).toEqual(['~ section "A" field order: a, b → b, a']);
    // A field added keeps the others where they were: no order line.
    expect(describeDefinitionChange(two('a', 'b'), two('a', 'b', '\n      c: { label: Z, input: text }'))).toEqual(['+ field sections[0].fields.c (text, "Z")']);
  });

  it('lists everything as added for a new definition', () => {
    const text = lines('title: T', 'sections:', '  - heading: A', '    fields:', '      a: { label: A, input: text }', '  - import: governing_law');
    expect(describeDefinitionChange(undefined, text)).toEqual([
      '+ title: "T"',
      '+ section "A"',
      '+ section import governing_law',
      '+ field sections[0].fields.a (text, "A")',
    ]);
  });

  it('is deterministic whatever the key order', () => {
    const after = BEFORE.replace('Percentage', 'Hybrid').replace('title: Referral Agreement', 'title: X');
    const shuffled = parse(after) as Record<string, unknown>;
    const reversed = Object.fromEntries(Object.entries(shuffled).reverse());
    expect(describeDefinitionChange(BEFORE, reversed)).toEqual(describeDefinitionChange(BEFORE, after));
  });

  it('falls back to one line for text that is not a mapping', () => {
    expect(describeDefinitionChange('title: "open', BEFORE)).toEqual(['~ definition (not a YAML mapping; compared as text)']);
    expect(describeDefinitionChange('title: "open', 'title: "open')).toEqual([]);
  });
});
