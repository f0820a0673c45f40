import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { resourceFile, schemaComment, schemaRef, toYaml } from '../../../src/export/yaml.js';
import { blockText } from '../../../src/kinds/support/yaml-out.js';

const paths = { outRoot: '/home/ops/acme-legal', schemasDir: '/opt/docket/schemas' };

describe('schema comment', () => {
  it('points from the file to docket’s schemas/ folder with a relative path', () => {
    expect(schemaRef('docket.yaml', 'docket.schema.json', paths)).toBe('../../../opt/docket/schemas/docket.schema.json');
    expect(schemaRef('playbooks/inbound-nda.yaml', 'playbook.schema.json', paths)).toBe('../../../../opt/docket/schemas/playbook.schema.json');
    expect(schemaRef('playbooks/a.yaml', 'playbook.schema.json', { outRoot: '/work/main/examples/x', schemasDir: '/work/main/schemas' })).toBe(
      '../../../schemas/playbook.schema.json',
    );
  });

  it('is the yaml-language-server modeline', () => {
    expect(schemaComment('members.yaml', 'member.schema.json', paths)).toBe('# yaml-language-server: $schema=../../../opt/docket/schemas/member.schema.json');
  });
});

describe('toYaml', () => {
  it('writes invisible and direction characters as escapes in double quotes, in keys and values, and reads back the same', () => {
    const value = { name: 'Rule\u200b', text: 'a\u202eb\nsecond line', list: ['x\u2066y'], ['k\u200b']: 1 };
    const text = toYaml(value);
    expect(text).toBe('name: "Rule\\u200b"\ntext: "a\\u202eb\\nsecond line"\nlist:\n  - "x\\u2066y"\n"k\\u200b": 1\n');
    expect(parse(text)).toEqual(value);
  });

  it('writes text that starts with spaces in a block whose indicator is the step, at 4 spaces too (the library wrote 2)', () => {
    expect(toYaml([{ name: 'Gamma', actions: '  lead\nACCEPT g' }], undefined, 4)).toBe('- name: Gamma\n  actions: |4-\n        lead\n      ACCEPT g\n');
    expect(toYaml({ questions: '  q\nq2\n' }, undefined, 4)).toBe('questions: |4\n      q\n    q2\n');
    // A list item's block is 2 past its dash at any step.
    expect(toYaml({ list: ['  a\nb'] }, undefined, 4)).toBe('list:\n    - |2-\n        a\n      b\n');
  });

  it('writes text that starts with a line break with no spaces on the block\'s first, empty line, and reads it back exactly (probe DG-5)', () => {
    for (const indent of [2, 4]) {
      const value = { rules: [{ actions: '\nACCEPT\n\n  indented\n' }], description: '\n\nTwo blank lines first\n', spaced: '  \nstarts with spaces\n' };
      const text = toYaml(value, undefined, indent);
      expect(text).not.toMatch(/(actions|description): [|>][^\n]*\n +\n/);
      expect(parse(text)).toEqual(value);
      // Spaces that are text stay: the third value's first line is its own two spaces.
      expect(text).toMatch(/spaced: \|\d\n {4,6}\n/);
    }
  });

  it('keeps the key order it is given', () => {
    expect(toYaml({ kind: 'Playbook', name: 'B', description: 'x', rules: [] })).toBe('kind: Playbook\nname: B\ndescription: x\nrules: []\n');
    expect(toYaml({ z: 1, a: 2 })).toBe('z: 1\na: 2\n');
  });

  it('writes multi-line text as literal block scalars, `|` when it ends with a newline', () => {
    expect(toYaml({ actions: 'ACCEPT 3 years\nCOUNTERPROPOSE 2' })).toBe('actions: |-\n  ACCEPT 3 years\n  COUNTERPROPOSE 2\n');
    expect(toYaml({ actions: blockText('ACCEPT 3 years\nCOUNTERPROPOSE 2') })).toBe('actions: |\n  ACCEPT 3 years\n  COUNTERPROPOSE 2\n');
    expect(toYaml({ rules: [{ notes: blockText('one\n\ntwo') }] })).toBe('rules:\n  - notes: |\n      one\n\n      two\n');
  });

  it('never folds long lines', () => {
    const long = 'word '.repeat(60).trim();
    expect(toYaml({ description: long })).toBe(`description: ${long}\n`);
  });

  it('quotes what YAML would read as another type or as structure', () => {
    expect(toYaml({ standard_version: '2.1', flag: 'true', zip: '01099', colon: 'a: b', hash: 'x #y' })).toBe(
      'standard_version: "2.1"\nflag: "true"\nzip: "01099"\ncolon: "a: b"\nhash: "x #y"\n',
    );
  });

  it('in a resource file, quotes what a YAML 1.1 reader takes for a boolean (yamllint, PyYAML), which YAML 1.2 reads as text (probe IW-3)', () => {
    const file = resourceFile('playbooks/p.yaml', 'playbook.schema.json', [{ questions: 'no', internal_notes: 'yes', a: 'On', b: 'OFF', c: 'y', d: 'Nope', e: 'yes please', f: 'yEs', g: '1:30' }], { outRoot: '/o', schemasDir: '/o/schemas' });
    expect(file.content.split('\n').slice(1).join('\n')).toBe('questions: "no"\ninternal_notes: "yes"\na: "On"\nb: "OFF"\nc: "y"\nd: Nope\ne: yes please\nf: "yEs"\ng: "1:30"\n');
    // And what it reads as a date, a number or a key PyYAML refuses as text (probe KC-4); text around them stays plain.
    const other = resourceFile('playbooks/p.yaml', 'playbook.schema.json', [{ a: '2024-01-01', b: '2024-01-01T10:00:00Z', c: '1_000', d: '0b101', e: '=', f: '<<', g: '10:30 meeting', h: 'x_1' }], { outRoot: '/o', schemasDir: '/o/schemas' });
    expect(other.content.split('\n').slice(1).join('\n')).toBe('a: "2024-01-01"\nb: "2024-01-01T10:00:00Z"\nc: "1_000"\nd: "0b101"\ne: "="\nf: "<<"\ng: 10:30 meeting\nh: x_1\n');
    // Signed hex (a number to YAML 1.1, text to 1.2), a tab inside the text (PyYAML refuses the file at
    // it) and U+FFFF (allowed unescaped by no YAML): quoted, and the last escaped (probe PE-1).
    const more = resourceFile('playbooks/p.yaml', 'playbook.schema.json', [{ a: '+0x1F', b: '-0x1', c: 'Accept\tup to 3 years', d: 'Accept\uffff', e: '0x' }], { outRoot: '/o', schemasDir: '/o/schemas' });
    expect(more.content.split('\n').slice(1).join('\n')).toBe('a: "+0x1F"\nb: "-0x1"\nc: "Accept\\tup to 3 years"\nd: "Accept\\uffff"\ne: 0x\n');
    expect(parse(more.content)).toEqual({ a: '+0x1F', b: '-0x1', c: 'Accept\tup to 3 years', d: 'Accept\uffff', e: '0x' });
    // Numbers to PyYAML with `_` after the point, and to Psych with `,` between digits; booleans and
    // null Psych reads in any letter case; a Ruby symbol, which Psych's safe load refuses (probe SK-1).
    const eleven = { a: '1,000', b: '1.2_3', c: '1._', d: '685.230_15e+03', e: '-1,234,567', f: '1,000.5', g: 'tRUE', h: 'nULL', i: ':name', j: '.NaN', k: '-.iNF' };
    const written = resourceFile('playbooks/p.yaml', 'playbook.schema.json', [eleven], { outRoot: '/o', schemasDir: '/o/schemas' });
    expect(written.content.split('\n').slice(1).join('\n')).toBe(`${Object.entries(eleven).map(([k, v]) => `${k}: ${JSON.stringify(v)}`).join('\n')}\n`);
    expect(parse(written.content)).toEqual(eleven);
    // Text beside them stays plain: a comma with a space, a point with no digit before it, a word.
    const plain = resourceFile('playbooks/p.yaml', 'playbook.schema.json', [{ a: '1, 000', b: 'v1.2_3', c: 'nullable', d: '1,00a', e: 'x: y' }], { outRoot: '/o', schemasDir: '/o/schemas' });
    expect(plain.content.split('\n').slice(1).join('\n')).toBe('a: 1, 000\nb: v1.2_3\nc: nullable\nd: 1,00a\ne: "x: y"\n');
  });

  it('quotes one-line text that starts or ends with a space other than a plain one, which plain would read as nothing in the file (probe JH-7)', () => {
    const file = resourceFile('playbooks/p.yaml', 'playbook.schema.json', [{ a: 'nbsp\u00a0', b: '\u00a0', c: '\u3000x', d: 'caf\u00e9\u00a0au lait' }], { outRoot: '/o', schemasDir: '/o/schemas' });
    // Inside, as French typography writes it, it stays plain.
    expect(file.content.split('\n').slice(1).join('\n')).toBe('a: "nbsp\u00a0"\nb: "\u00a0"\nc: "\u3000x"\nd: caf\u00e9\u00a0au lait\n');
    expect(parse(file.content)).toEqual({ a: 'nbsp\u00a0', b: '\u00a0', c: '\u3000x', d: 'caf\u00e9\u00a0au lait' });
  });

  it('reads back exactly what it wrote, tricky text included', () => {
    const value = {
      leading: '  indented first line\nsecond',
      trailing: 'trailing spaces  \nnext',
      hash: '# not a comment\n- not a list',
      crlf: 'windows\r\nline',
      tab: 'a\tb\nc',
      blank: 'a\n\n\nb',
      unicode: 'Müller · “quotes”\n→ next',
      single: "it's",
    };
    expect(parse(toYaml(value))).toEqual(value);
  });
});

describe('blockText', () => {
  it('ends multi-line text with exactly one newline and leaves one-line text alone', () => {
    expect(blockText('a\nb')).toBe('a\nb\n');
    expect(blockText('a\nb\n\n')).toBe('a\nb\n');
    expect(blockText('one line')).toBe('one line');
  });
});

describe('resourceFile', () => {
  it('starts every document with the schema comment and separates them with ---', () => {
    const file = resourceFile('members.yaml', 'member.schema.json', [{ kind: 'Member', email: 'a@x.example' }, { kind: 'Member', email: 'b@x.example' }], paths);
    const comment = '# yaml-language-server: $schema=../../../opt/docket/schemas/member.schema.json';
    expect(file.content).toBe(`${comment}\nkind: Member\nemail: a@x.example\n---\n${comment}\nkind: Member\nemail: b@x.example\n`);
    expect(parseAllDocuments(file.content).map((d) => d.toJS())).toEqual([
      { kind: 'Member', email: 'a@x.example' },
      { kind: 'Member', email: 'b@x.example' },
    ]);
  });
});
