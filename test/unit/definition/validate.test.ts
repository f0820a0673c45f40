import { parse } from 'yaml';
import { describe, expect, it } from 'vitest';
import { DocPositions } from '../../../src/config/yaml-positions.js';
import { parseYamlFile } from '../../../src/config/yaml-read.js';
import { Diagnostics } from '../../../src/diagnostics.js';
import { DEFINITION_INPUTS, parseDefinitionFile, validateDefinition } from '../../../src/kinds/support/definition.js';
import { FULL, brief, checkFile, checkInline, lines, pos, withFields, type Checked } from './helpers.js';

const layouts: [string, (text: string) => Promise<Checked>][] = [
  ['a definition file', checkFile],
  ['an inline definition', checkInline],
];

describe.each(layouts)('validateDefinition: %s', (_layout, check) => {
  it('accepts the full example with every input type', async () => {
    for (const input of DEFINITION_INPUTS) expect(FULL).toContain(`input: ${input}`);
    const { diagnostics } = await check(FULL);
    expect(diagnostics).toEqual([]);
  });

  it('reports an unknown top-level key at the key, with did-you-mean', async () => {
    const { text, diagnostics } = await check(lines('title: A', 'terms_lable: Terms', 'sections:', '  - import: governing_law'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'terms_lable')} unknown-key`]);
    expect(diagnostics[0]!.message).toContain('did you mean `terms_label`?');
  });

  it('reports missing title and empty sections', async () => {
    const { text, diagnostics } = await check(lines('terms_label: Terms', 'sections: []'));
    const missing = diagnostics.find((d) => d.code === 'missing-field')!;
    expect(missing.message).toContain('`title`');
    // The root of a file is its first key; inline, the `definition:` key.
    expect(brief(missing)).toBe(text.startsWith('kind') ? `${pos(text, 'definition:')} missing-field` : '1:1 missing-field');
    const empty = diagnostics.find((d) => d.code === 'invalid-value')!;
    expect(`${empty.line}:${empty.col}`).toBe(pos(text, 'sections: []', '[]'));
    expect(empty.message).toContain('must not be an empty list');
  });

  it('reports an unknown input type at the value, suggesting the closest', async () => {
    const { text, diagnostics } = await check(withFields('payout_model: { label: Payout, input: selct, options: [A, B] }'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'payout_model', 'selct')} invalid-value`]);
    expect(diagnostics[0]!.message).toContain('did you mean `select`?');
  });

  it.each(['select', 'radio', 'multiselect'])('requires options for %s', async (input) => {
    const { text, diagnostics } = await check(withFields(`choice: { label: Choice, input: ${input} }`));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'choice:')} missing-field`]);
    expect(diagnostics[0]!.message).toContain('`options`');
    expect(diagnostics[0]!.hint).toContain('select, radio and multiselect');
  });

  it('rejects options on an input that has none', async () => {
    const { text, diagnostics } = await check(withFields('party_name: { label: Name, input: text, options: [A] }'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'party_name:', 'options')} options-not-allowed`]);
    expect(diagnostics[0]!.message).toContain('not `text`');
  });

  it('rejects empty, repeated and non-string options', async () => {
    const { text, diagnostics } = await check(
      withFields('a: { label: A, input: select, options: [] }', 'b: { label: B, input: radio, options: [X, X] }', 'c: { label: C, input: select, options: [X, ""] }'),
    );
    expect(diagnostics.map(brief)).toEqual([
      `${pos(text, 'a:', '[]')} invalid-value`,
      `${pos(text, 'b:', 'X]')} invalid-value`,
      `${pos(text, 'c:', '""')} invalid-value`,
    ]);
  });

  it('reports a field key used in two sections at the second, naming the first line', async () => {
    const { text, diagnostics } = await check(
      lines(
        'title: A',
        'sections:',
        '  - heading: Program',
        '    fields:',
        '      start_date: { label: Start, input: date }',
        '  - heading: Term',
        '    fields:',
        '      start_date: { label: Start again, input: date }',
      ),
    );
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'start_date', 'start_date', 2)} duplicate-field-key`]);
    expect(diagnostics[0]!.message).toContain(`line ${pos(text, 'start_date').split(':')[0]}`);
    expect(diagnostics[0]!.message).toContain('section "Program"');
  });

  it('reports a field an alias repeats at the alias, not at the field it repeats (probe QW-4)', async () => {
    const { text, diagnostics } = await check(lines('title: A', 'sections:', '  - heading: H1', '    fields: &f', '      bb: { label: B, input: text }', '  - heading: H2', '    fields: *f'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'fields: *f', 'fields')} duplicate-field-key`]);
    expect(diagnostics[0]!.message).toContain(`the field in section "H1" at line ${pos(text, 'bb:').split(':')[0]}`);
    const whole = await check(lines('title: A', 'sections:', '  - &s', '    heading: H1', '    fields:', '      cc: { label: C, input: text }', '  - *s'));
    expect(whole.diagnostics.map(brief)).toEqual([`${pos(whole.text, '- *s', '*s')} duplicate-field-key`]);
  });

  it('reports a field answering into a governing-law key the import also uses', async () => {
    const { text, diagnostics } = await check(
      lines('title: A', 'sections:', '  - import: governing_law', '  - heading: Law', '    fields:', '      governing_law_region: { label: Region, input: states }'),
    );
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'governing_law_region')} duplicate-field-key`]);
  });

  it('reports an invalid field key', async () => {
    const { text, diagnostics } = await check(withFields('Payout-Model: { label: Payout, input: text }'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'Payout-Model')} invalid-value`]);
    expect(diagnostics[0]!.message).toContain('lowercase letters, digits and `_`');
  });

  it.each([
    ['select not an option', 'x: { label: X, input: select, options: [Flat fee, Percentage], default: Hybrid }', 'Hybrid'],
    ['select option text differs in case', 'x: { label: X, input: select, options: [Flat fee, Percentage], default: flat fee }', 'flat fee'],
    ['select given a list', 'x: { label: X, input: select, options: [A, B], default: [A] }', '[A]'],
    ['select option written as a YAML number', 'x: { label: X, input: select, options: ["1", "2"], default: 1 }', '1 }'],
    ['radio not an option', 'x: { label: X, input: radio, options: [Monthly, Quarterly], default: Yearly }', 'Yearly'],
    ['multiselect not a list', 'x: { label: X, input: multiselect, options: [A, B], default: A }', 'A }'],
    ['multiselect item not an option', 'x: { label: X, input: multiselect, options: [A, B], default: [A, C] }', 'C]'],
    ['number not numeric', 'x: { label: X, input: number, default: 12a }', '12a'],
    ['currency with a thousands separator', 'x: { label: X, input: currency, default: "1,500" }', '"1,500"'],
    ['currency with a symbol', 'x: { label: X, input: currency, default: "$1500" }', '"$1500"'],
    ['rate in words', 'x: { label: X, input: rate, default: high }', 'high'],
    ['date not a calendar day', 'x: { label: X, input: date, default: 2026-02-30 }', '2026-02-30'],
    ['date in another format', 'x: { label: X, input: date, default: 01/02/2026 }', '01/02/2026'],
    ['date as a number', 'x: { label: X, input: date, default: 20260101 }', '20260101'],
    ['email not an address', 'x: { label: X, input: email, default: legal at acme }', 'legal at acme'],
    // Held to the rule of every e-mail docket checks, not a looser one (probe WJ-2).
    ['email with a letter outside ASCII', "x: { label: X, input: email, default: 'ü@x.com' }", "'ü@x.com'"],
    ['email with two dots in a row', 'x: { label: X, input: email, default: a..b@x.com }', 'a..b@x.com'],
    ['email quoted before the @', 'x: { label: X, input: email, default: \'"q"@x.com\' }', '\'"q"@x.com\''],
    ['email whose domain label ends in a hyphen', 'x: { label: X, input: email, default: a@x-.com }', 'a@x-.com'],
    ['header not text', 'x: { label: X, input: header, default: 5 }', '5 }'],
    ['fixed given a list', 'x: { label: X, input: fixed, default: [A] }', '[A]'],
    ['text given a list', 'x: { label: X, input: text, default: [A] }', '[A]'],
  ])('rejects a default: %s', async (_name, field, token) => {
    const { text, diagnostics } = await check(withFields(field));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'x:', token)} invalid-default`]);
  });

  it('quotes the value a multiselect default that is no list holds (probe FL)', async () => {
    const { diagnostics } = await check(withFields('x: { label: X, input: multiselect, options: [a, b], default: c }'));
    expect(diagnostics.map((d) => d.message)).toEqual(['the default of a `multiselect` field must be a list of its options, not "c"']);
  });

  it('reports a non-text multiselect item once, as the schema does', async () => {
    const { text, diagnostics } = await check(withFields('x: { label: X, input: multiselect, options: [A, B], default: [A, 7] }'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'x:', '7]')} invalid-value`]);
  });

  it('reports empty options once, as the schema does, and no default against none of them', async () => {
    for (const input of ['radio', 'select', 'multiselect']) {
      const { text, diagnostics } = await check(withFields(`x: { label: X, input: ${input}, options: [], default: ${input === 'multiselect' ? '[A]' : 'A'} }`));
      expect(diagnostics.map(brief), input).toEqual([`${pos(text, 'x:', '[],')} invalid-value`]);
    }
  });

  it('says a number default of a select as it is written, with the quotes that make it the option (probe BN-6)', async () => {
    const { text, diagnostics } = await check(withFields('x: { label: X, input: select, options: ["1.0", "2"], default: 1.0 }'));
    expect(diagnostics.map((d) => [brief(d), d.message, d.hint])).toEqual([[`${pos(text, 'x:', '1.0 }')} invalid-default`, 'default 1.0 is a number, but options are text', 'quote it: default: "1.0"']]);
  });

  it('reports an infinite or not-a-number default once, as the schema does (probe BN-5)', async () => {
    for (const word of ['.inf', '-.inf', '.nan']) {
      const { text, diagnostics } = await check(withFields(`x: { label: X, input: currency, default: ${word} }`));
      expect(diagnostics.map(brief), word).toEqual([`${pos(text, 'x:', `${word} }`)} invalid-value`]);
    }
  });

  it('reports an option listed twice in a multiselect default, where', async () => {
    const { text, diagnostics } = await check(withFields('x: { label: X, input: multiselect, options: [A, B], default: [A, A] }'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'x:', 'A]')} invalid-default`]);
    expect(diagnostics[0]!.message).toBe('the default lists the option "A" twice (at [0] and [1])');
  });

  it('says a default that is an option written in another Unicode form is that, not a bare mismatch (probe PV-7)', async () => {
    const { diagnostics } = await check(withFields('x: { label: X, input: select, options: ["Caf\\u00e9"], default: "Cafe\\u0301" }'));
    expect(diagnostics[0]!.message).toContain('(one is no visible difference: the same letters, their accents encoded otherwise; options compare exactly)');
  });

  it('quotes a long default cut at 60 characters, as every message quotes a value (probe YF-1)', async () => {
    const long = 'w'.repeat(100);
    for (const field of [`{ label: X, input: date, default: ${long} }`, `{ label: X, input: select, options: [A], default: ${long} }`, `{ label: X, input: select, options: [${long}], default: B }`]) {
      const { diagnostics } = await check(withFields(`x: ${field}`));
      expect(diagnostics[0]!.message).toContain(`"${'w'.repeat(57)}..."`);
      expect(diagnostics[0]!.message).not.toContain('w'.repeat(58));
    }
  });

  it('names the exact option when only case differs', async () => {
    const { diagnostics } = await check(withFields('x: { label: X, input: select, options: [Flat fee, Percentage], default: flat fee }'));
    expect(diagnostics[0]!.message).toContain('"flat fee" is not one of the options: "Flat fee", "Percentage"');
    expect(diagnostics[0]!.hint).toContain('did you mean `Flat fee`?');
  });

  it('accepts numeric strings, numbers and dates in the forms YAML gives them', async () => {
    const { diagnostics } = await check(
      withFields(
        'a: { label: A, input: number, default: "-3.25" }',
        'b: { label: B, input: currency, default: 0.005 }',
        'c: { label: C, input: date, default: "2024-02-29" }',
        'd: { label: D, input: select, options: ["1", "2"], default: "1" }',
        'e: { label: E, input: text, default: "42" }',
      ),
    );
    expect(diagnostics).toEqual([]);
  });

  it('refuses a number as the default of a free-text field, which the service takes as no text: every agreement leaving it out was refused (probe BN-2)', async () => {
    const { text, diagnostics } = await check(withFields('year: { label: Fiscal year, input: text, default: 2024 }'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'year:', '2024')} invalid-default`]);
    expect(diagnostics[0]!.message).toBe('the default of a `text` field must be text, not the number 2024');
    expect(diagnostics[0]!.hint).toBe('quote it as it is written, so that it is sent as text');
  });

  it('reports an unknown key in import defaults, with did-you-mean', async () => {
    const { text, diagnostics } = await check(
      lines('title: A', 'sections:', '  - import: governing_law', '    defaults:', '      governing_law_regoin: Delaware'),
    );
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'governing_law_regoin')} unknown-key`]);
    expect(diagnostics[0]!.message).toContain('did you mean `governing_law_region`?');
  });

  it('reports an unknown import and a second governing-law import', async () => {
    const { text, diagnostics } = await check(
      lines('title: A', 'sections:', '  - import: governing_law', '  - import: governing_law', '  - import: signatures'),
    );
    expect(diagnostics.map(brief)).toEqual([
      `${pos(text, 'import', 'import', 2)} duplicate-import`,
      `${pos(text, 'signatures')} invalid-value`,
    ]);
  });

  it('reports a misspelt import once, without the fields-section errors it causes', async () => {
    const { text, diagnostics } = await check(lines('title: A', 'sections:', '  - imprt: governing_law'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'imprt')} unknown-key`]);
    expect(diagnostics[0]!.message).toContain('did you mean `import`?');
  });

  it('reports a section with neither heading nor fields', async () => {
    const { text, diagnostics } = await check(lines('title: A', 'sections:', '  - required: true'));
    expect(diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      `${pos(text, 'required')} missing-field missing required field \`heading\` in \`${text.startsWith('kind') ? 'definition.' : ''}sections[0]\``,
      `${pos(text, 'required')} missing-field missing required field \`fields\` in \`${text.startsWith('kind') ? 'definition.' : ''}sections[0]\``,
    ]);
  });

  it('reports every problem in one run, in file order', async () => {
    const { diagnostics } = await check(
      withFields(
        'a: { label: A, input: select, options: [X], default: Y }',
        'b: { label: B, input: texx }',
        'c: { label: C, input: date, default: tomorrow }',
      ),
    );
    expect(diagnostics.map((d) => d.code)).toEqual(['invalid-default', 'invalid-value', 'invalid-default']);
  });
});

describe('validateDefinition: paths and inputs', () => {
  it('names inline paths from the resource document', async () => {
    const { diagnostics } = await checkInline(withFields('x: { label: X, input: date, default: soon }'));
    expect(diagnostics[0]!.path).toBe('definition.sections[0].fields.x.default');
    expect(diagnostics[0]!.file).toBe('custom-templates/referral.yaml');
  });

  it('refuses, inline, a free-text default YAML reads as a number written otherwise, which would be published as the number; in a definition file, a number where text goes (probes QW-3, BN-2)', async () => {
    const fields = withFields('code: { label: Code, input: text, default: 007 }', 'ver: { label: Ver, input: textarea, default: 1.10 }', 'ok: { label: Ok, input: text, default: 12 }', 'n: { label: N, input: number, default: 1.10 }');
    const text = `kind: CustomTemplate\nname: Referral Agreement\ndefinition:\n${fields.split('\n').map((l) => (l === '' ? l : `  ${l}`)).join('\n')}`;
    const doc = parseYamlFile(text, 't.yaml').documents[0]!;
    const diag = new Diagnostics();
    await validateDefinition((doc.value as Record<string, unknown>).definition, doc.positions, diag, { base: '/definition', text });
    expect(diag.sorted().map((d) => [brief(d), d.message, d.hint])).toEqual([
      [`${pos(text, 'code:', '007')} number-as-text`, '`default` is sent as text, but YAML reads "007" as the number 7', 'quote it to keep what is written: "007"'],
      [`${pos(text, 'ver:', '1.10')} number-as-text`, '`default` is sent as text, but YAML reads "1.10" as the number 1.1', 'quote it to keep what is written: "1.10"'],
      // Written as the number it is, it is still a number where text goes (probe BN-2).
      [`${pos(text, 'ok:', '12')} invalid-default`, 'the default of a `text` field must be text, not the number 12', 'quote it as it is written, so that it is sent as text'],
    ]);
    // Through an alias: the value to quote is at its anchor, not the alias (second read SR86-8).
    const aliased = `kind: CustomTemplate\nname: R\nx: &c 007\ndefinition:\n${withFields('code: { label: Code, input: text, default: *c }').split('\n').map((l) => (l === '' ? l : `  ${l}`)).join('\n')}`;
    const aliasDoc = parseYamlFile(aliased, 't.yaml').documents[0]!;
    const viaAlias = new Diagnostics();
    await validateDefinition((aliasDoc.value as Record<string, unknown>).definition, aliasDoc.positions, viaAlias, { base: '/definition', text: aliased });
    const aliasHint = 'quote the value where "&c" is written, with no tag before it (such as `!!int`), to keep what is written there';
    expect(viaAlias.sorted().map((d) => [d.message, d.hint])).toEqual([['`default` is sent as text, but YAML reads the value alias "*c" names as the number 7', aliasHint]]);
    // A tagged anchor: quoting alone keeps the number, so the hint says the tag goes too (SR86B-6).
    const tagged = aliased.replace('&c 007', '&c !!int "007"');
    const taggedDoc = parseYamlFile(tagged, 't.yaml').documents[0]!;
    const viaTagged = new Diagnostics();
    await validateDefinition((taggedDoc.value as Record<string, unknown>).definition, taggedDoc.positions, viaTagged, { base: '/definition', text: tagged });
    expect(viaTagged.sorted().map((d) => [d.message, d.hint])).toEqual([['`default` is sent as text, but YAML reads the value alias "*c" names as the number 7', aliasHint]]);
    const file = parseDefinitionFile(fields, 'c.cover.yaml');
    const fromFile = new Diagnostics();
    await validateDefinition(file.value, file.positions, fromFile, { text: fields });
    // A number where text goes all the same: the service reads the file's `007` as 7 too (probe BN-2).
    expect(fromFile.sorted().map((d) => [d.code, d.message])).toEqual([
      ['invalid-default', 'the default of a `text` field must be text, not the number 7'],
      ['invalid-default', 'the default of a `textarea` field must be text, not the number 1.1'],
      ['invalid-default', 'the default of a `text` field must be text, not the number 12'],
    ]);
  });

  it('accepts Date defaults from a YAML 1.1 parse', async () => {
    const text = withFields('x: { label: X, input: date, default: 2026-03-01 }');
    const value = parse(text, { version: '1.1' }) as { sections: { fields: { x: { default: unknown } } }[] };
    expect(value.sections[0]!.fields.x.default).toBeInstanceOf(Date);
    const diag = new Diagnostics();
    await validateDefinition(value, parseDefinitionFile(text, 'd.yaml').positions, diag);
    expect(diag.items).toEqual([]);
  });

  it('works with any Positions implementation', async () => {
    const text = withFields('x: { label: X, input: number, default: many }');
    const real = parseDefinitionFile(text, 'd.yaml').positions;
    const diag = new Diagnostics();
    await validateDefinition(parseDefinitionFile(text, 'd.yaml').value, { at: (p) => real.at(p), valueAt: (p) => real.at(p), has: (p) => real.has(p) }, diag);
    // Positions that know only keys: the key of the default is the closest place.
    expect(diag.items.map(brief)).toEqual([`${pos(text, 'x:', 'default')} invalid-default`]);
  });

  it('does not touch the value it checks', async () => {
    const value = parse(withFields('x: { label: X, input: date, default: 2026-03-01 }'), { version: '1.1' }) as unknown;
    const before = JSON.stringify(value);
    await validateDefinition(value, new DocPositions('d.yaml', { line: 1, col: 1 }), new Diagnostics());
    expect(JSON.stringify(value)).toBe(before);
  });
});

describe('parseDefinitionFile', () => {
  it('reads one document with positions', () => {
    const parsed = parseDefinitionFile(FULL, 'c.cover.yaml');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.value).toMatchObject({ title: 'Referral Agreement' });
    expect(parsed.positions.at('/sections/0/fields/start_date')).toEqual({ file: 'c.cover.yaml', line: 20, col: 7 });
  });

  it('reports YAML errors at their line', () => {
    const parsed = parseDefinitionFile(lines('title: A', 'sections:', '  - heading: "open', '    fields: {}'), 'c.cover.yaml');
    expect(parsed.diagnostics.some((d) => d.severity === 'error' && d.code === 'yaml-syntax' && d.file === 'c.cover.yaml')).toBe(true);
  });

  it('reports a duplicate key within one mapping', () => {
    const parsed = parseDefinitionFile(lines('title: A', 'title: B', 'sections: []'), 'c.cover.yaml');
    expect(parsed.diagnostics.map(brief)).toEqual(['2:1 duplicate-key']);
  });

  it('requires exactly one document', () => {
    expect(parseDefinitionFile('# nothing here\n', 'c.cover.yaml').diagnostics.map(brief)).toEqual(['1:1 empty-definition']);
    const two = parseDefinitionFile(lines('title: A', 'sections: []', '---', 'title: B'), 'c.cover.yaml');
    expect(two.diagnostics.map(brief)).toEqual(['3:1 multiple-documents']);
    const inline = parseDefinitionFile(lines('title: A', 'sections: []', '--- {title: B}'), 'c.cover.yaml');
    expect(inline.diagnostics.map(brief)).toEqual(['3:1 multiple-documents']);
    expect(two.value).toMatchObject({ title: 'A' });
    // A second document holding nothing counts too: the service's reader refuses a file of two, whatever they hold (probe HG-1).
    for (const [text, at] of [
      [lines('title: A', 'sections: []', '---'), '3:1'],
      [lines('title: A', 'sections: []', '---', '# only a note'), '3:1'],
      [lines('title: A', 'sections: []', '...', '---'), '4:1'],
      [lines('---', '# a note', '---', 'title: A', 'sections: []'), '3:1'],
    ] as const) {
      expect(parseDefinitionFile(text, 'c.cover.yaml').diagnostics.map(brief), text).toEqual([`${at} multiple-documents`]);
    }
    // One document, its markers around it: no error.
    for (const text of [lines('---', 'title: A', 'sections: []'), lines('title: A', 'sections: []', '...'), lines('title: A', 'sections: []', '...', '# after the end')]) {
      expect(parseDefinitionFile(text, 'c.cover.yaml').diagnostics, text).toEqual([]);
    }
  });

  it('refuses a field key written null, which the service\'s YAML reads as a key with no name (probe DO-2)', () => {
    const written = parseDefinitionFile(lines('title: X', 'sections:', '  - heading: A', '    fields:', '      null: {label: N, input: text, required: true}'), 'c.cover.yaml');
    expect(written.diagnostics.map(brief)).toEqual(['5:7 definition-null-key']);
    const quoted = parseDefinitionFile(lines('title: X', 'sections:', '  - heading: A', '    fields:', '      "null": {label: N, input: text}', '      nullable: {label: M, input: text}'), 'c.cover.yaml');
    expect(quoted.diagnostics).toEqual([]);
  });

  it('counts aliases as the service\'s reader does: an anchor defined again is another anchor, so 120 uses of one name across two is no error (probe DO-1)', () => {
    const uses = (n: number) => Array.from({ length: n }, (_, i) => `      g${i}: {label: *lab, input: text}`);
    const twice = parseDefinitionFile(lines('title: X', 'sections:', '  - heading: A', '    fields:', '      f0: {label: &lab One, input: text}', ...uses(60), '      f1: {label: &lab Two, input: text}', ...uses(60).map((l) => l.replace('g', 'h'))), 'c.cover.yaml');
    expect(twice.diagnostics).toEqual([]);
    // The library counts the anchor itself: its 100th alias is one too many, and 99 are not.
    const once = parseDefinitionFile(lines('title: X', 'sections:', '  - heading: A', '    fields:', '      f0: {label: &lab One, input: text}', ...uses(100)), 'c.cover.yaml');
    expect(once.diagnostics.map(brief)).toEqual([`${5 + 100}:20 definition-alias-count`]);
    expect(parseDefinitionFile(lines('title: X', 'sections:', '  - heading: A', '    fields:', '      f0: {label: &lab One, input: text}', ...uses(99)), 'c.cover.yaml').diagnostics).toEqual([]);
  });

  it('checks a file whose lines end in a lone CR as YAML reads it: a merge key and too many aliases are found there too (probe EB-3)', () => {
    const cr = (text: string): string => text.replace(/\n/g, '\r');
    const merged = parseDefinitionFile(cr(lines('title: A', 'sections:', '  - heading: H', '    fields:', '      f1: &f', '        label: F1', '        input: text', '      f2:', '        <<: *f', '        label: F2')), 'c.cover.yaml');
    expect(merged.diagnostics.map(brief)).toEqual(['9:9 definition-merge-key']);
    const uses = Array.from({ length: 100 }, (_, i) => `      g${i}: {label: *lab, input: text}`);
    const aliased = parseDefinitionFile(cr(lines('title: X', 'sections:', '  - heading: A', '    fields:', '      f0: {label: &lab One, input: text}', ...uses)), 'c.cover.yaml');
    expect(aliased.diagnostics.map(brief)).toEqual([`${5 + 100}:20 definition-alias-count`]);
  });

  it('refuses a merge key, which the service reads as a plain `<<` key of the published text; anchors and aliases alone are fine', () => {
    const merged = parseDefinitionFile(lines('title: A', 'sections:', '  - heading: H', '    fields:', '      f1: &f', '        label: F1', '        input: text', '      f2:', '        <<: *f', '        label: F2'), 'c.cover.yaml');
    expect(merged.diagnostics.map(brief)).toEqual(['9:9 definition-merge-key']);
    expect(merged.diagnostics[0]!.message).toContain('`<<: *f`');
    const aliased = parseDefinitionFile(lines('title: A', 'sections:', '  - heading: &h H', '    fields:', '      f1:', '        label: *h', '        input: text'), 'c.cover.yaml');
    expect(aliased.diagnostics).toEqual([]);
    expect(parseDefinitionFile(lines('title: "A <<: b"', 'sections: []'), 'c.cover.yaml').diagnostics).toEqual([]);
    // Quoted, `<<` is a key like any other, to YAML and to the service alike: a field of that name (probe PK-1).
    const quoted = parseDefinitionFile(lines('title: A', 'sections:', '  - heading: H', '    fields:', '      "<<": {label: L, input: text}'), 'c.cover.yaml');
    expect([quoted.diagnostics, quoted.value]).toEqual([[], { title: 'A', sections: [{ heading: 'H', fields: { '<<': { label: 'L', input: 'text' } } }] }]);
  });
});

// A definition file refuses merge keys (definition-merge-key): only an inline definition has them.
describe('validateDefinition: an inline definition with merge keys', () => {
  it('reports a field key a merge key brings in twice at that merge key, not at the field it repeats (probe HF)', async () => {
    const { text, diagnostics } = await checkInline(
      lines('title: A', 'sections:', '  - heading: Program', '    fields: &program', '      start_date: { label: Start, input: date }', '  - heading: Term', '    fields:', '      <<: *program', '      other: { label: Other, input: text }'),
    );
    expect(diagnostics.map(brief)).toEqual([`${pos(text, '<<: *program', '<<')} duplicate-field-key`]);
    expect(diagnostics[0]!.message).toContain(`line ${pos(text, 'start_date').split(':')[0]}`);
  });

  it('says a bad field key a merge key brings into two sections once, where it is written (probe WJ-3)', async () => {
    const { text, diagnostics } = await checkInline(lines('title: A', 'sections:', '  - heading: A', '    fields: &common', '      Rate: { label: Rate, input: number }', '  - heading: B', '    fields:', '      <<: *common'));
    expect(diagnostics.map(brief)).toEqual([`${pos(text, 'Rate:', 'Rate')} invalid-value`, `${pos(text, '<<: *common', '<<')} duplicate-field-key`]);
  });
});
