import jsYaml from 'js-yaml';
import { parse, parseDocument } from 'yaml';
import { plainYamlValue } from '../../../src/config/yaml-read.js';
import { definitionData } from '../../../src/kinds/support/definition-model.js';
import { describe, expect, it } from 'vitest';
import { definitionText, editKeepsFieldOrder, sameDefinition } from '../../../src/kinds/support/definition.js';
import { FULL, lines } from './helpers.js';

const BLOCK = lines(
  'title: Referral Agreement',
  'sections:',
  '  - heading: Program',
  '    required: true',
  '    fields:',
  '      payout_model:',
  '        label: Payout model',
  '        input: select',
  '        options:',
  '          - Flat fee',
  '          - Percentage',
  '      start_date:',
  '        label: Program start',
  '        input: date',
  '        default: 2026-01-01',
);

describe('sameDefinition', () => {
  it('ignores layout, quoting, comments and key order', () => {
    const reformatted = lines(
      '# the cover page',
      'sections:',
      '- fields:',
      '    payout_model: {label: "Payout model", options: ["Flat fee", \'Percentage\'], input: select}',
      '    start_date: {input: date, default: "2026-01-01", label: \'Program start\'}',
      '  required: true',
      '  heading: "Program"',
      'title: "Referral Agreement"',
    );
    expect(sameDefinition(BLOCK, reformatted)).toBe(true);
    expect(sameDefinition(BLOCK.replace(/\n/g, '\r\n'), BLOCK)).toBe(true);
  });

  it('sees a changed option, option order, section order and a changed default', () => {
    expect(sameDefinition(BLOCK, BLOCK.replace('- Percentage', '- Hybrid'))).toBe(false);
    expect(sameDefinition(BLOCK, BLOCK.replace('- Flat fee\n          - Percentage', '- Percentage\n          - Flat fee'))).toBe(false);
    expect(sameDefinition(BLOCK, BLOCK.replace('2026-01-01', '2026-02-01'))).toBe(false);
    const twoSections = (a: string, b: string) => ({ title: 'T', sections: [{ heading: a, fields: {} }, { heading: b, fields: {} }] });
    expect(sameDefinition(twoSections('A', 'B'), twoSections('B', 'A'))).toBe(false);
  });

  it('sees fields written in another order: the order the form shows them in (probe GU)', () => {
    // BLOCK with its two fields' blocks the other way round.
    const [first, second] = [BLOCK.indexOf('      payout_model:'), BLOCK.indexOf('      start_date:')];
    const swapped = `${BLOCK.slice(0, first)}${BLOCK.slice(second).replace(/\n?$/, '\n')}${BLOCK.slice(first, second)}`;
    expect(sameDefinition(BLOCK, swapped)).toBe(false);
    expect(sameDefinition(parse(swapped) as unknown, swapped)).toBe(true);
  });

  it('says whether an edit in place gives the wanted order of fields: removing, appending and inserting do, reordering does not (second read, probe HE)', () => {
    const of = (...keys: string[]) => ({ title: 'T', sections: [{ heading: 'S', fields: Object.fromEntries(keys.map((k) => [k, { label: k, input: 'text' }])) }] });
    expect(editKeepsFieldOrder(of('b', 'a'), of('b', 'a', 'c'))).toBe(true);
    expect(editKeepsFieldOrder(of('b', 'a', 'c'), of('b', 'c'))).toBe(true);
    expect(editKeepsFieldOrder(of('b', 'a'), of('a', 'b'))).toBe(false);
    expect(editKeepsFieldOrder(of('b', 'a'), of('b', 'c', 'a'))).toBe(true);
    expect(editKeepsFieldOrder(of('b', 'a'), of('c', 'b', 'd', 'a'))).toBe(true);
    expect(editKeepsFieldOrder(of('b', 'a', 'x'), of('a', 'c', 'b'))).toBe(false);
  });

  it('compares a string with a mapping by parsing the string', () => {
    const mapping = parse(BLOCK) as unknown;
    expect(sameDefinition(BLOCK, mapping)).toBe(true);
    expect(sameDefinition(mapping, BLOCK)).toBe(true);
    expect(sameDefinition(BLOCK.replace('Payout model', 'Payout'), mapping)).toBe(false);
    expect(sameDefinition(mapping, structuredClone(mapping))).toBe(true);
  });

  it('treats a YAML 1.1 date and its YYYY-MM-DD text as the same', () => {
    expect(sameDefinition(parse(BLOCK, { version: '1.1' }), BLOCK)).toBe(true);
  });

  it('reads a live definition as the file is read: a key YAML reads as null is the same key on both sides (probe GF)', async () => {
    const { parseDefinitionFile } = await import('../../../src/kinds/support/definition.js');
    const text = lines('title: T', 'sections:', '  - heading: H', '    fields:', '      null:', '        label: L', '        input: text');
    const file = parseDefinitionFile(text, 'c.cover.yaml');
    expect(definitionData(text)).toEqual({ ok: true, value: file.value });
    expect(sameDefinition(text, file.value)).toBe(true);
  });

  it('compares unparsable text as text', () => {
    const broken = 'title: "open\nsections: [\n';
    expect(sameDefinition(broken, broken)).toBe(true);
    expect(sameDefinition(broken, `${broken}\n\n`)).toBe(true);
    expect(sameDefinition(broken, broken.replace('open', 'shut'))).toBe(false);
    expect(sameDefinition(broken, parse(BLOCK))).toBe(false);
    expect(sameDefinition(`${BLOCK}---\ntitle: second\n`, BLOCK)).toBe(false);
  });
});

describe('definitionText', () => {
  it('round-trips through a YAML parse to an equal value', () => {
    const value = parse(FULL) as unknown;
    const text = definitionText(value);
    expect(parse(text)).toEqual(value);
    expect(sameDefinition(text, value)).toBe(true);
  });

  it('is stable and keeps the author’s key order', () => {
    const value = parse(BLOCK) as unknown;
    expect(definitionText(value)).toBe(definitionText(structuredClone(value)));
    expect(definitionText(value).split('\n')[0]).toBe('title: Referral Agreement');
    expect(definitionText(value)).toContain('      payout_model:\n        label: Payout model\n');
  });

  it('quotes strings a YAML 1.1 parser would read as something else', () => {
    const value = { title: 'T', sections: [{ heading: 'H', fields: { ok: { label: 'OK?', input: 'radio', options: ['Yes', 'No', 'on'], default: 'Yes' }, d: { label: 'D', input: 'date', default: '2026-01-01' } } }] };
    const text = definitionText(value);
    expect(parse(text)).toEqual(value);
    expect(parse(text, { version: '1.1' })).toEqual(value);
  });

  it('quotes text a YAML 1.2 parser (and docket\'s own reader) would read as an octal number, which 1.1 leaves plain', () => {
    const value = { title: 'T', code: '0o17', signed: '-0o7', '0o5': 'key', plain: '0o8' };
    const text = definitionText(value);
    for (const version of ['1.1', '1.2'] as const) expect(parse(text, { version })).toEqual(value);
    expect(definitionData(text)).toEqual({ ok: true, value });
    // js-yaml, the fast reader of plain definitions, reads it back too.
    const unsigned = { code: '0o17', '0o5': 'key' };
    expect(plainYamlValue(definitionText(unsigned))).toEqual(unsigned);
    // Text that is no number stays plain.
    expect(text).toContain('plain: 0o8\n');
  });

  it("quotes what Ruby's Psych, which the service may read with, takes for a number, a boolean, null or a symbol (second read SR91-2)", () => {
    const value = { title: 'T', a: '1,000', b: 'tRUE', c: 'nULL', d: '-.iNF', e: ':name', f: '1.2_3', g: '1, 2' };
    const text = definitionText(value);
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f'] as const) expect(text).toContain(`${k}: "${value[k]}"\n`);
    expect(text).toContain('g: 1, 2\n');
    for (const version of ['1.1', '1.2'] as const) expect(parse(text, { version })).toEqual(value);
  });

  it('writes a tab and what prints as nothing in double quotes, as escapes, which every reader takes (probe KZ-6)', () => {
    const value = { title: 'T', fields: { f: { label: 'tab\there', heading: 'Heading\u200bzw' } } };
    const text = definitionText(value);
    expect(text).toBe('title: T\nfields:\n  f:\n    label: "tab\\there"\n    heading: "Heading\\u200bzw"\n');
    for (const version of ['1.1', '1.2'] as const) expect(parse(text, { version })).toEqual(value);
  });

  it('quotes `=`, YAML 1.1\'s value key, which PyYAML cannot read plain', () => {
    expect(definitionText({ title: 'T', fields: { op: { label: '=' } } })).toBe('title: T\nfields:\n  op:\n    label: "="\n');
  });

  it('quotes a `<<` key, which 1.1 readers and js-yaml would take for a merge', () => {
    const value = { title: 'T', '<<': 'x', fields: { '<<': { label: '<<' } } };
    const text = definitionText(value);
    for (const version of ['1.1', '1.2'] as const) expect(parse(text, { version })).toEqual(value);
    expect(jsYaml.load(text)).toEqual(value);
    expect(definitionData(text)).toEqual({ ok: true, value });
  });

  it('writes Dates as YYYY-MM-DD and returns text unchanged', () => {
    expect(definitionText({ title: 'T', date: new Date(Date.UTC(2026, 0, 1)) })).toBe('title: T\ndate: "2026-01-01"\n');
    expect(definitionText(BLOCK)).toBe(BLOCK);
  });

  it('writes a shared object out twice rather than as an alias', () => {
    const spec = { label: 'X', input: 'text' };
    const text = definitionText({ title: 'T', sections: [{ heading: 'A', fields: { a: spec, b: spec } }] });
    expect(text).not.toMatch(/[&*]a\d*/);
  });
});

describe('definitionData', () => {
  it('reads text whose lines end in a lone CR as YAML does, where the full parser reads it: each CR a line break (probe EB-3)', () => {
    const text = 'base: &b {label: L, input: text}\rsections:\r  - heading: H\r    fields: {a: *b}\r';
    expect(definitionData(text)).toEqual({ ok: true, value: { base: { label: 'L', input: 'text' }, sections: [{ heading: 'H', fields: { a: { label: 'L', input: 'text' } } }] } });
  });

  it('reads plain definitions with the fast reader exactly as the full parser does, and hands it the rest', () => {
    const texts = [
      BLOCK,
      'title: T\nflags: [yes, no, on, ~, 0x1F, 1e3, .inf, "007"]\n',
      'base: &b {label: L, input: text}\nsections:\n  - fields: {a: *b}\n',
      'defaults: &d {input: text}\nfield:\n  <<: *d\n  label: Merged\n',
      'title: !!str 12\n',
      '__proto__: {polluted: true}\ntitle: T\n',
      'title: first\ntitle: second\n',
      'just text',
      '',
      '- one\n---\n- two\n',
      'limits: [0b101, -0x1F, +0o7, -.5, +.5]\n',
      '%YAML 1.1\n---\nrequired: yes\n',
    ];
    for (const text of texts) {
      const full = parseDocument(text, { uniqueKeys: true, prettyErrors: false });
      const expected = full.errors.length > 0 ? { ok: false, text } : { ok: true, value: JSON.parse(JSON.stringify(full.toJS() ?? null)) };
      const got = definitionData(text);
      expect(got.ok ? { ok: true, value: JSON.parse(JSON.stringify(got.value)) } : got, text).toEqual(expected);
    }
    expect(plainYamlValue('base: &b {a: 1}\nuse: *b\n')).toBeUndefined();
    expect(plainYamlValue('title: T\n')).toEqual({ title: 'T' });
  });
});
