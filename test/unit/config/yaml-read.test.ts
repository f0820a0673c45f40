/**
 * The fast reader (js-yaml, positions on demand) must give exactly what the full parser gives:
 * the same values, the same positions for every pointer, the same diagnostics (by declining).
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import jsYaml from 'js-yaml';
import { schemasDir } from '../../../src/config/schema-names.js';
import { MAX_DOCUMENTS, needsFullParser, parseYamlFile, plainYamlDocuments, tooManyDocuments } from '../../../src/config/yaml-read.js';
import { fastPositions } from '../../../src/config/yaml-fast-positions.js';
import { aliasExpansionLimit, parseWithPositions, type ParsedFile } from '../../../src/config/yaml-positions.js';

const CORPUS: Record<string, string> = {
  playbook: 'kind: Playbook\nname: "Inbound NDA"\ndescription:\nrules:\n  - name: Term\n    actions: |\n      ACCEPT up to 3 years\n      REJECT longer\n    generate_summary: false\n    reviewer: alice@acme.example\n',
  scalars: 'a: 1\nb: 1.5\nc: true\nd: ~\ne: null\nf: "quoted"\ng: \'single\'\nh: 0x1F\ni: 0o17\nj: 1e3\nk: .inf\nl: -.inf\nm: 012\nn: yes\no: 2024-01-01\np: +1\nq: "${var.x}"\nr: ${var.y}\n',
  flow: 'list: [1, "two", {three: 3}]\nmap: {a: [], b: {}}\n',
  multi: '---\nkind: A\n---\nkind: B\nname: second\n',
  comments: '# leading\nkind: Member # trailing\nemail: x@y.example\n\n# end\n',
  folded: 'text: >\n  folded\n  lines\nkeep: |+\n  kept\n\n',
  keys: '"quoted key": 1\n? complex\n: value\n1: one\n',
  proto: '__proto__: {polluted: true}\nname: x\n',
  unicode: 'name: "Zürich – ✓"\nemoji: 🎉\n',
  emptyDocs: '---\n# only a comment\n---\nkind: X\n',
  // Shapes the positions pass walks: nested lists, comments between key and value, empty values
  // in lists and at the end, indentation styles, quoted multi-line text, CRLF line ends.
  nested: 'a:\n- - 1\n  - 2\n- [x, {y: z}]\nb: # note\n  # more\n  c: d\n',
  emptyValues: 'list:\n  - a:\n    b: 1\n  -\n  - c\nlast:',
  emptyKeys: 'a:\n  b:\n  c: ~\nd: ""\ne:\n',
  indented: 'kind: Playbook\nrules:\n    -   name: A\n        actions: >-\n            one\n            two\n    -\n        name: B\n',
  multiline: 'a: "one\n  two"\nb: plain\n  continued\nc: \'it\'\'s\'\n',
  crlf: 'kind: Member\r\nemail: x@y.example\r\nrules:\r\n  - name: A\r\n',
  explicitEnd: 'kind: A\n...\n---\nkind: B\n',
  indexKeys: 'b: 1\n2: two\na: 3\n',
  // js-yaml reads these as numbers (YAML 1.1 habits); YAML 1.2's core schema, as text or as -0.5.
  complexKey: '? [a, b]\n: c\nd: 1\n',
  directive: '%YAML 1.1\n---\nn: yes\n',
  numbers11: 'a: 0b101\nb: -0b1\nc: -0x1F\nd: +0x1F\ne: +0o7\nf: -0o7\ng: -.5\nh: +.5\ni: [0b1, -.5]\n',
  // A byte-order mark the decoder left (the file starts with two): js-yaml's offsets leave it out.
  bom: '\uFEFF# c\nversion: 2\nrules:\n  b: 1\n',
  // An anchor right after a JSON-style key's colon, which the property search does not see: the
  // alias is what hands it over.
  anchorAfterColon: '{"a":&x [1], "b": *x}\n',
  stars: 'name: "**Bold** term"\nrules:\n  - name: "*emphasis*"\n',
  // A flow collection over lines: its items indented past its block (js-yaml and the full parser
  // agree), or not (the full parser refuses it, as editors and pull do; second read SR68-2).
  flowLines: 'rules: [\n  {name: a, actions: x},\n]\nm: {\n  b: 1,\n  c: [\n    2,\n  ]\n}\nl:\n  - [a,\n    b]\n',
  flowUnderIndented: 'a: [x,\ny]\n',
  flowUnderIndentedNested: 'a:\n  b: [\n  x]\n',
  // A marker glued to text is text to the full parser (SR68-3).
  gluedMarker: 'a: 1\n---x\n...\n',
  // A mapping on a marker's line, which YAML refuses and js-yaml reads (probe DJ-5); a scalar there is YAML's.
  markerThenMapping: '--- version: 1\n',
  endMarkerThenMapping: 'a: 1\n... b: 2\n',
  markerThenScalar: '--- text\n',
};

/** Every pointer a document's value has, plus a few it does not. */
function pointers(value: unknown, base = ''): string[] {
  const out = [base];
  if (Array.isArray(value)) value.forEach((v, i) => out.push(...pointers(v, `${base}/${i}`)));
  else if (value !== null && typeof value === 'object') for (const [k, v] of Object.entries(value)) out.push(...pointers(v, `${base}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`));
  return out;
}

function snapshot(parsed: ParsedFile) {
  return {
    diagnostics: parsed.diagnostics,
    documents: parsed.documents.map((d) => {
      const all = [...pointers(d.value), '/missing', '/rules/9/name', '/rules/5', '/0/5', '/00'];
      return {
        index: d.index,
        value: d.value,
        ok: d.ok,
        start: { ...d.start },
        at: all.map((p) => ({ ...d.positions.at(p) })),
        valueAt: all.map((p) => ({ ...d.positions.valueAt(p) })),
        plain: all.map((p) => d.positions.isPlain(p)),
        has: all.map((p) => d.positions.has(p)),
      };
    }),
  };
}

describe('parseYamlFile (fast) against the full parser', () => {
  for (const [name, text] of Object.entries(CORPUS)) {
    it(`${name}: same values, positions and diagnostics`, () => {
      expect(snapshot(parseYamlFile(text, 'f.yaml'))).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
    });
  }

  it('gives the same values and positions when the text is read again for positions (its strings copied off it)', () => {
    const long = 'text: "a value long enough to be a slice"\nlist:\n  - another value long enough\n  - {inner: "nested value long enough"}\n';
    for (const [name, text] of Object.entries({ ...CORPUS, long })) {
      let rereads = 0;
      const parsed = parseYamlFile(text, 'f.yaml', () => (rereads++, text));
      expect(snapshot(parsed), name).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
      // Once for each depth of the positions noted while reading (a rule, then its fields), once for a full pass.
      expect(rereads, name).toBeLessThanOrEqual(3);
    }
  });

  it('reads files with scalar anchors, aliases and merge keys fast, with the full parser\'s values, positions and merge lines (probe IQ-1)', () => {
    const anchored: Record<string, string> = {
      scalars: 'kind: Playbook\nname: P\ndescription: &d Shared text\nrules:\n  - name: R0\n    actions: &a ACCEPT x\n  - name: R1\n    actions: *a\n    description: *d\n',
      merge: 'rules:\n  - &base\n    name: Law\n    actions: ACCEPT Germany\n    questions: Which?\n  - <<: *base\n    name: Courts\n  - name: Venue\n    <<: *base\n    actions: REJECT\n',
      mergeList: 'a: &a {x: 1, y: 2}\nb: &b {y: 3, z: 4}\nc:\n  <<: [*a, *b]\n  z: 5\n',
      chain: 'a: &a {x: 1}\nb: &b\n  <<: *a\n  y: 2\nc:\n  <<: *b\n  x: 3\n',
      anchoredKey: 'rules:\n  - &k name: R1\n    notes: A\n',
      documents: 'kind: Playbook\nname: A\ndescription: &d D\nrules:\n  - name: r\n    actions: *d\n---\nkind: Playbook\nname: B\ndescription: &e E\n',
      // Each document anchors the same names again: anchors are the document's.
      sameNames: 'kind: Playbook\nname: A\nrules:\n  - &r\n    name: r\n    actions: &a ACCEPT a\n  - <<: *r\n    name: s\n---\nkind: Playbook\nname: B\nrules:\n  - &r\n    name: r\n    actions: &a ACCEPT b\n  - <<: *r\n    name: s\n    questions: *a\n...\n---\nkind: Playbook\nname: C\ndescription: &a C\nrules:\n  - name: t\n    actions: *a\n',
      quotedStars: 'name: "**Bold** term"\nrules:\n  - name: a *b\n    actions: &x "*y"\n    notes: *x\n',
      // A `: ` in a quoted or flow value after an anchor, or in a comment, is no key (TR67-5).
      colonsAfterAnchors: 'description: &d "Note: shared"\nshared: &s {reviewer: a@x.example}\nactions: &a ACCEPT x # note: y\nrules:\n  - name: r\n    description: *d\n    actions: *a\n',
    };
    for (const [name, text] of Object.entries(anchored)) {
      const fast = parseYamlFile(text, 'f.yaml');
      const full = parseWithPositions(text, 'f.yaml');
      expect(snapshot(fast), name).toEqual(snapshot(full));
      // Keys in the same order too (toEqual does not look at it).
      expect(JSON.stringify(fast.documents.map((d) => d.value)), name).toBe(JSON.stringify(full.documents.map((d) => d.value)));
      fast.documents.forEach((d, i) => {
        const all = pointers(d.value);
        expect(all.map((p) => d.positions.mergedAt?.(p)), `${name} document ${i}`).toEqual(all.map((p) => full.documents[i]!.positions.mergedAt?.(p)));
      });
      // Read fast: the text is read again for its first position (the full parser never is).
      let rereads = 0;
      const again = parseYamlFile(text, 'f.yaml', () => (rereads++, text));
      void again.documents[0]!.positions.at('').line;
      expect([name, rereads]).toEqual([name, 1]);
    }
    // Read by js-yaml: the text is read again for positions only when one is asked for.
    let rereads = 0;
    const parsed = parseYamlFile(anchored.merge!, 'f.yaml', () => (rereads++, anchored.merge!));
    expect([(parsed.documents[0]!.value as { rules: { actions: string }[] }).rules[1]!.actions, rereads]).toEqual(['ACCEPT Germany', 0]);
    expect({ ...parsed.documents[0]!.positions.valueAt('/rules/1/actions') }).toEqual({ ...parseWithPositions(anchored.merge!, 'f.yaml').documents[0]!.positions.valueAt('/rules/1/actions') });
    expect(rereads).toBe(1);
  });

  it('reads generated anchored playbooks as the full parser does: anchors on values and rules, aliases, merges before and after keys', () => {
    let seed = 7;
    const next = (n: number): number => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
    for (let file = 0; file < 60; file++) {
      const scalars: string[] = [];
      const rules: string[] = [];
      const lines = ['kind: Playbook', `name: P${file}`, 'rules:'];
      for (let r = 0; r < 2 + next(8); r++) {
        const anchor = next(3) === 0 ? ` &r${r}` : '';
        const fields = [`name: R${r}`];
        for (const field of ['actions', 'description', 'questions']) {
          const pick = next(4);
          if (pick === 0 && scalars.length > 0) fields.push(`${field}: *${scalars[next(scalars.length)]}`);
          else if (pick === 1) {
            scalars.push(`s${r}${field}`);
            fields.push(`${field}: &s${r}${field} ${field} ${r}`);
          } else if (pick === 2) fields.push(`${field}: ${field} ${r}`);
        }
        if (rules.length > 0 && next(2) === 0) fields.splice(next(fields.length + 1), 0, `<<: ${next(2) === 0 ? `*${rules[next(rules.length)]}` : `[${rules.map((x) => `*${x}`).join(', ')}]`}`);
        lines.push(`  -${anchor}`, ...fields.map((f) => `    ${f}`));
        if (anchor) rules.push(`r${r}`);
      }
      const text = `${lines.join('\n')}\n`;
      const fast = parseYamlFile(text, 'f.yaml');
      const full = parseWithPositions(text, 'f.yaml');
      expect(snapshot(fast), text).toEqual(snapshot(full));
      expect(JSON.stringify(fast.documents.map((d) => d.value)), text).toBe(JSON.stringify(full.documents.map((d) => d.value)));
    }
  });

  it('hands anchored files js-yaml could read otherwise to the full parser, so their diagnostics are the same', () => {
    const cases = [
      // Two merge keys in one mapping; an alias as a key; a merge key in quotes.
      'a: &a {x: 1}\nb: &b {y: 2}\nc:\n  <<: *a\n  <<: *b\n',
      'a: &k name\nm:\n  *k : 1\n  name: 2\n',
      'a: &a {x: 1}\nc:\n  "<<": *a\n',
      // Aliases js-yaml's watcher counts past the limit, which the full parser reads (reuse, probe
      // QI-6); an alias to nothing or inside its anchor; a merge of a scalar.
      `a: &a x\nl:\n${'  - *a\n'.repeat(10_001)}`,
      `b: &b {k1: 1, k2: 2, k3: 3, k4: 4}\nl:\n${'  - <<: *b\n    n: 1\n'.repeat(2_001)}`,
      'a: *nothing\n',
      'a: &r [*r]\n',
      'a: &s x\nb:\n  <<: *s\n',
      // Second read SR67: conflict markers; a merge of a list, or of a list of lists; an anchor
      // before a key in a value; an alias key glued to its value in a flow mapping; anchors the
      // full parser warns of or refuses; a merge key spelt with escapes or anchored; aliases in
      // a merge list counted as nodes of their own.
      'a: &a 1\nm:\n  <<: {x: 1}\nd: "NDAs\n<<<<<<< HEAD\nours\n=======\ntheirs\n>>>>>>> b\n"\n',
      'l: &l [{a: 1}, {b: 2}]\nm:\n  <<: *l\n',
      'm:\n  <<: [[x, y]]\n',
      'a: &x\n - b: 1\nc:\n  <<: *x\n',
      'a: &x b: 1\n',
      'description: &d Note: see section 3\n',
      'a: &x k\nb: {*x :1}\n',
      'a: &b: 1\n',
      'a: &a{"": 1}\n',
      'a: &a 1\nm:\n  "\\x3c\\x3c": {x: 1}\n',
      // An anchor name used again, for a list or around an alias to the one before (third read TR67-3).
      'a: &l\n  z: 0\nb: &l\n  - a: 1\nm:\n  <<: *l\n',
      'a: &a\n  y: 0\nb: &a\n  x: 1\n  <<: *a\n',
      'a: &a\n  y: {}\n---\na: &a\n  <<: *a\n',
      // A name anchored again in a later document (compared whichever reader takes them): a mapping
      // there and a scalar merged here, or the other way round; an alias to the earlier document's;
      // a marker after a block scalar; `---x`, no marker to the full parser.
      'a: &a {x: 1}\nb:\n  <<: *a\n---\na: &a x\nb:\n  <<: *a\n',
      'a: &a x\n---\na: &a {x: 1}\nb:\n  <<: *a\n',
      'a: &a x\n---\nb: *a\n',
      'a: &a |\n  text\n---\nb: &a y\nc: *a\n',
      'a: &a x\n---x\nb: &a y\nc: *a\n',
      // A flow collection whose next line is indented no deeper than its block; a marker glued to text (second read SR68-2, SR68-3).
      'a: &a [\nx]\n',
      'a: &a x\nb: [\n---, *a]\n',
      'r:\n- &a s\n- *a\n...\n---x\n',
      // Two properties on one node, across a line break (TR67-9).
      'a: &x\n  &y 1\n',
      'a: &a 1\nb: &b\n  *a\n',
      `e: &e {}\nm: &m {<<: [${Array(100).fill('*e').join(', ')}]}\n${Array.from({ length: 60 }, (_, i) => `x${i}: {<<: *m}\n`).join('')}`,
    ];
    for (const text of cases) {
      const fast = snapshot(parseYamlFile(text, 'f.yaml'));
      expect(fast, text.slice(0, 60)).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
    }
    expect(parseYamlFile(cases[0]!, 'f.yaml').diagnostics.map((d) => d.code)).toContain('duplicate-key');
    // An anchor on a merge key: the full parser's reading (an alias to it reads as its symbol), not js-yaml's `"<<"`.
    expect(typeof (parseYamlFile('a: &a {k: 1}\nb:\n  &m <<: *a\nc: *m\n', 'f.yaml').documents[0]!.value as { c: unknown }).c).toBe('symbol');
    expect(parseYamlFile(cases[3]!, 'f.yaml').diagnostics).toEqual([]);
    expect(parseYamlFile(cases[4]!, 'f.yaml').diagnostics).toEqual([]);
  });

  it('reads a large file whose every rule aliases one anchor, and still refuses a bomb inside a large file (probe QI-6)', () => {
    // 2,100 rules sharing a reviewer and a list of actions expand by 10,500 values: plain reuse.
    const rules = Array.from({ length: 2_100 }, (_, i) => `  - name: r${i}\n    reviewer: *lead\n    actions: *acts\n`).join('');
    const reuse = `lead: &lead qa@acme.example\nacts: &acts [flag, comment, redline]\nrules:\n${rules}`;
    for (const read of [parseYamlFile(reuse, 'p.yaml'), parseWithPositions(reuse, 'p.yaml')]) {
      expect(read.diagnostics).toEqual([]);
      const last = (read.documents[0]!.value as { rules: { reviewer: string; actions: string[] }[] }).rules[2_099]!;
      expect(last).toEqual({ name: 'r2099', reviewer: 'qa@acme.example', actions: ['flag', 'comment', 'redline'] });
    }
    // Nine levels of ten aliases each, beside the same text: a billion values, refused on the line
    // whose aliases pass this file's limit (a value per 2 of its bytes): l5's, at 10^5 values each.
    const laughs = Array.from({ length: 9 }, (_, i) => `l${i + 1}: &l${i + 1} [${Array(10).fill(`*l${i}`).join(', ')}]`).join('\n');
    const bomb = `${reuse}l0: &l0 lol\n${laughs}\n`;
    for (const read of [parseYamlFile(bomb, 'p.yaml'), parseWithPositions(bomb, 'p.yaml')]) {
      expect(read.diagnostics.map((d) => [d.code, d.line])).toEqual([['yaml-alias-expansion', 3 + 3 * 2_100 + 6]]);
    }
    // Many documents, each under the file's limit: one budget for the file, spent within the first
    // documents; each one after it is refused at its alias (second read SR85-1).
    const part = `l1: &l1 [${Array(10).fill('x').join(', ')}]\nl2: &l2 [${Array(10).fill('*l1').join(', ')}]\nl3: &l3 [${Array(10).fill('*l2').join(', ')}]\n`;
    const many = Array.from({ length: 300 }, () => part).join('---\n');
    for (const read of [parseYamlFile(many, 'p.yaml'), parseWithPositions(many, 'p.yaml')]) {
      expect(read.documents.slice(0, 3).map((d) => d.ok)).toEqual([true, true, true]);
      expect(read.documents.filter((d) => d.ok).length).toBeLessThan(50);
      expect(new Set(read.diagnostics.map((d) => d.code))).toEqual(new Set(['yaml-alias-expansion']));
      expect(read.diagnostics[0]!.message).toContain(`aliases expand this file to more than ${Math.floor(many.length / 2)} values (an alias bomb?)`);
    }
  });

  it('refuses aliases that bring millions of characters of text, each one value: at the alias past the room (probe BC-1)', () => {
    // 600 aliases of a 100 KB text, nested in a list an alias brings too: 60 million characters.
    const fields = Array.from({ length: 300 }, (_, i) => `  f${i}: {label: *big, input: text}\n`).join('');
    const text = `title: &big "${'A'.repeat(100_000)}"\nsection: &s\n${fields}again: *s\n`;
    for (const read of [parseYamlFile(text, 'c.cover.yaml'), parseWithPositions(text, 'c.cover.yaml')]) {
      expect(read.diagnostics.map((d) => [d.code, d.line, d.message])).toEqual([['yaml-alias-expansion', 3 + 160, 'aliases expand this file by more than 16,000,000 characters of text (an alias bomb?), from `*big`']]);
    }
    // Keys count too: an explicit key (`? …`) has no length limit (second read SR100-6).
    const keys = `m: &m\n${Array.from({ length: 4 }, (_, i) => `  ? ${'abcd'[i]!.repeat(50_000)}\n  : 1\n`).join('')}uses: [${Array(100).fill('*m').join(', ')}]\n`;
    for (const read of [parseYamlFile(keys, 'p.yaml'), parseWithPositions(keys, 'p.yaml')]) expect(read.diagnostics.map((d) => d.code)).toEqual(['yaml-alias-expansion']);
    // A key written as an alias of a long text (`*k : v`), too (second read SR100B-3).
    const aliasKeys = `x: &k ${'a'.repeat(1_000_000)}\nrules:\n${Array.from({ length: 20 }, (_, i) => `  - {*k : ${i}}\n`).join('')}`;
    for (const read of [parseYamlFile(aliasKeys, 'p.yaml'), parseWithPositions(aliasKeys, 'p.yaml')]) expect(read.diagnostics.map((d) => [d.code, d.line])).toEqual([['yaml-alias-expansion', 3 + 16]]);
    // A file past 2 MB still adds at most a million values.
    expect(aliasExpansionLimit(40_000_000)).toBe(1_000_000);
    expect(aliasExpansionLimit(100_000)).toBe(50_000);
  });

  it('reads a quoted or tagged `<<` key as the text it is, not a merge key, as YAML does (probes PK-1, PM-3)', () => {
    for (const text of ['m:\n  "<<": {x: 1}\n', "m:\n  '<<': {x: 1}\n", 'm:\n  "\\x3c\\x3c": {x: 1}\n', 'm:\n  !!str <<: {x: 1}\n', 'm:\n  ! <<: {x: 1}\n']) {
      const read = parseYamlFile(text, 'f.yaml');
      expect([read.diagnostics, read.documents[0]!.value], text).toEqual([[], { m: { '<<': { x: 1 } } }]);
      expect(snapshot(read), text).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
    }
    // Plain and untagged, or tagged `!!merge`, it is the merge key.
    for (const text of ['m:\n  <<: {x: 1}\n', 'm:\n  !!merge <<: {x: 1}\n']) expect(parseYamlFile(text, 'f.yaml').documents[0]!.value, text).toEqual({ m: { x: 1 } });
  });

  it('holds each line of a flow collection or a quoted scalar to the column of the block collection it is in, and reads the rest fast (second and third reads SR68-2, TR68-1..5)', () => {
    const refused = [
      'rules:\n  - questions: [\n    a,\n    ]\n', '- name: [a,\n  b]\n', '- - [a,\n  b]\n', 'x: &s v\nl:\n- name: [a,\n  b]\n- q: *s\n',
      'a:\n  b: [\n    x,\n]\n', 'a:\n  b: {\n    x: 1,\n}\n', 'k:\n  [ [\n    a, b\n]]\n', 'a: [x, "p\nq"]\n', 'a:\n  b: "x\n  y"\n',
      'description: "line one\nline two"\n', "rules:\n  - name: a\n    description: 'one\n    two'\n", 'a: "one\n\t\n two"\n',
    ];
    for (const text of refused) {
      const full = parseWithPositions(text, 'f.yaml');
      expect(full.diagnostics.map((d) => d.code), text).toContain('yaml-syntax');
      expect(snapshot(parseYamlFile(text, 'f.yaml')), text).toEqual(snapshot(full));
    }
    const taken = ['[\na,\nb\n]\n', '{\n"kind": "Playbook",\n"name": "x"\n}\n', 'key:\n  [a,\n  b]\n', 'rules: [\n  {name: a, actions: x},\n]\n', 'key:\n  [\n    a,\n  ]\n', 'a:\n  b: [\n   x]\n', 'a: "x\n y"\n', 'a: "one\n \t\n two"\n', 'k:\n  [ [\n     {k1: v8}]]\n'];
    for (const text of taken) {
      let rereads = 0;
      const fast = parseYamlFile(text, 'f.yaml', () => (rereads++, text));
      expect(snapshot(fast), text).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
      expect([text, rereads > 0]).toEqual([text, true]);
    }
  });

  it('reads a list item with no value as the full parser does: the items after it at a shallower indent are not its list\'s (probe QW-1)', () => {
    const texts = [
      'rules:\n  - name: Term\n    ignore_fields:\n      -\n  - name: Residuals\n',
      'rules:\n  - name: Term\n    ignore_fields:\n      - \n  - name: Residuals\n',
      'rules:\n  - name: Term\n    ignore_fields:\n      -   # todo\n  - name: Residuals\n',
      'a:\n  - - x\n    -\n  - y\n',
      'x: &s v\nrules:\n  - name: Term\n    ignore_fields:\n      -\n  - name: Residuals\n    description: *s\n',
    ];
    for (const text of texts) {
      const full = parseWithPositions(text, 'f.yaml');
      expect(full.diagnostics, text).toEqual([]);
      expect(snapshot(parseYamlFile(text, 'f.yaml')), text).toEqual(snapshot(full));
    }
    expect(parseYamlFile(texts[0]!, 'f.yaml').documents[0]!.value).toEqual({ rules: [{ name: 'Term', ignore_fields: [null] }, { name: 'Residuals' }] });
    expect(plainYamlDocuments(texts[3]!) ?? parseWithPositions(texts[3]!, 'f.yaml').documents.map((d) => d.value)).toEqual([{ a: [['x', null], 'y'] }]);
    // A dash alone on a line of a block scalar's text is text: such a file is still read fast (second read SR86-3).
    for (const text of ['rules:\n  - name: A\n    questions: |\n      Which?\n      -\n  - name: B\n', 'x: &s v\nrules:\n  - name: A\n    questions: |\n      -\n    description: *s\n']) {
      let rereads = 0;
      const fast = parseYamlFile(text, 'f.yaml', () => (rereads++, text));
      expect(snapshot(fast), text).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
      expect([text, rereads > 0]).toEqual([text, true]);
    }
  });

  it('refuses a key whose `:` is more than 1,024 characters after its start as the full parser does, however the file is read (probe QW-6)', () => {
    const key = (n: number): string => 'v'.repeat(n);
    const shapes = [
      (k: string) => `vars:\n  ${k}: hello\n  lead: Ann\n`, // the block reader's
      (k: string) => `vars:\n  ${k}: hello\n  lead: [Ann]\n`, // js-yaml's: the block reader declines a flow list
      (k: string) => `vars:\n  ${k}: &a hello\n  lead: *a\n`, // anchored
      (k: string) => `rules:\n  - ${k}: x\n    name: A\n`, // a key opening a list item
      (k: string) => `rules:\n  - name: A\n    ${k}  : x\n`, // spaces before its colon count
    ];
    for (const shape of shapes) {
      for (const length of [1020, 1024, 1025]) {
        const text = shape(key(length));
        const full = parseWithPositions(text, 'f.yaml');
        const fast = parseYamlFile(text, 'f.yaml');
        expect(snapshot(fast), `${shape(key(3))} at ${length}`).toEqual(snapshot(full));
        expect([shape(key(3)), length, full.diagnostics.length > 0]).toEqual([shape(key(3)), length, length + (text.includes('  :') ? 2 : 0) > 1024]);
      }
    }
    expect(parseWithPositions(shapes[0]!(key(1025)), 'f.yaml').diagnostics[0]!.hint).toBe('a key is at most 1,024 characters up to its `:`: shorten it (a long text belongs in a value)');
    // A long line with a colon far into its value is still a value: the block reader reads it.
    const long = `rules:\n  - name: A\n    description: ${'word '.repeat(300)}note: kept\n`;
    expect(snapshot(parseYamlFile(long, 'f.yaml'))).toEqual(snapshot(parseWithPositions(long, 'f.yaml')));
    // And a file the block reader declines (a flow list) whose long value holds a colon no key ends
    // with (`https:`) stays with the fast readers (second read SR87-4).
    const linked = `rules:\n  - name: A\n    ignore_fields: [questions]\n    description: ${'word '.repeat(300)}see https://example.com/x\n`;
    let rereads = 0;
    const fast = parseYamlFile(linked, 'f.yaml', () => (rereads++, linked));
    expect(snapshot(fast)).toEqual(snapshot(parseWithPositions(linked, 'f.yaml')));
    expect(rereads).toBeGreaterThan(0);
  });

  it('hands files with anchors, tags, errors or duplicate keys to the full parser, so their diagnostics are the same', () => {
    for (const text of ['a: &x {b: 1}\nc: *x\n', 'a: !!str 1\n', 'a: !include x.yaml\n', 'a: [1, 2\n', 'a: 1\na: 2\n', 'a:\n\tb: 1\n']) {
      expect(snapshot(parseYamlFile(text, 'f.yaml'))).toEqual(snapshot(parseWithPositions(text, 'f.yaml')));
    }
  });

  it('refuses a mapping on a document marker\'s line, as YAML and the editor do, where js-yaml read it (probe DJ-5)', () => {
    expect(parseYamlFile('--- version: 1\n', 'docket.yaml').diagnostics.map((d) => `${d.line}:${d.col} ${d.code}`)).toEqual(['1:5 yaml-syntax']);
    expect(parseYamlFile('a: 1\n... b: 2\n', 'p.yaml').diagnostics.map((d) => d.code)).toContain('yaml-syntax');
    expect(parseYamlFile('--- # a comment\na: 1\n', 'p.yaml').diagnostics).toEqual([]);
  });

  it('works out positions with js-yaml wherever it can be sure, and declines the rest', () => {
    // Declined: a `? complex` key, index-like keys (an object reorders them), `__proto__`, an
    // empty list item (js-yaml reports no node for it).
    const declined = new Set(['keys', 'complexKey', 'proto', 'indexKeys', 'emptyValues']);
    // Read by the full parser from the start (js-yaml reads their values differently).
    const handedOver = new Set(['directive', 'numbers11', 'bom', 'anchorAfterColon', 'flowUnderIndented', 'flowUnderIndentedNested', 'gluedMarker', 'markerThenMapping', 'endMarkerThenMapping', 'markerThenScalar']);
    for (const [name, text] of Object.entries(CORPUS)) {
      if (handedOver.has(name)) continue;
      const values: unknown[] = [];
      jsYaml.loadAll(text, (v) => values.push(v), { schema: jsYaml.CORE_SCHEMA });
      // The fast reader hands files with empty documents to the full parser before asking.
      if (values.includes(null)) continue;
      const fast = fastPositions(text, 'f.yaml', values);
      if (declined.has(name)) {
        expect(fast, name).toBeUndefined();
        continue;
      }
      expect(fast, name).toBeDefined();
      const full = parseWithPositions(text, 'f.yaml').documents;
      fast!.forEach((positions, i) => {
        const all = pointers(values[i]);
        expect(all.map((p) => [positions.at(p), positions.valueAt(p), positions.isPlain(p)]), `${name} document ${i}`).toEqual(
          all.map((p) => [full[i]!.positions.at(p), full[i]!.positions.valueAt(p), full[i]!.positions.isPlain(p)]),
        );
        expect(positions.start).toEqual(full[i]!.start);
      });
    }
  });

  it('gives the full parser\'s positions for every file of the bundled example', () => {
    const root = path.join(schemasDir(), '..', 'examples');
    const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f));
    expect(files.length).toBeGreaterThan(10);
    let checked = 0;
    for (const f of files) {
      const text = readFileSync(path.join(root, f), 'utf8');
      expect(snapshot(parseYamlFile(text, f)), f).toEqual(snapshot(parseWithPositions(text, f)));
      checked++;
    }
    expect(checked).toBe(files.length);
  });

  it('answers where a document, its keys, the items of its lists and their keys are from what was noted while reading, with no full pass', () => {
    // Four levels: the document, `rules`, a rule, a rule's field.
    const shallowOnly = (value: unknown): string[] => pointers(value).filter((p) => p.split('/').length <= 4);
    const answered: string[] = [];
    for (const [name, text] of Object.entries(CORPUS)) {
      let rereads = 0;
      const parsed = parseYamlFile(text, 'f.yaml', () => (rereads++, text));
      const full = parseWithPositions(text, 'f.yaml');
      // Where the rules are first (what a plan shows), then their fields.
      const rulesAndFields = [(p: string) => p.split('/').length <= 3, (p: string) => p.split('/').length === 4];
      const readsFor = rulesAndFields.map((depth) => {
        const before = rereads;
        parsed.documents.forEach((d, i) => {
          const want = full.documents[i]!;
          const all = shallowOnly(d.value).filter(depth);
          expect({ start: { ...d.start }, at: all.map((p) => ({ ...d.positions.at(p) })), valueAt: all.map((p) => ({ ...d.positions.valueAt(p) })) }, `${name} document ${i}`).toEqual({
            start: { ...want.start },
            at: all.map((p) => ({ ...want.positions.at(p) })),
            valueAt: all.map((p) => ({ ...want.positions.valueAt(p) })),
          });
        });
        return rereads - before;
      });
      // Read once for the noted positions down to a rule, once more for a rule's fields when any
      // are asked for; one more time would be the full pass.
      const fieldsAsked = parsed.documents.some((d) => shallowOnly(d.value).some(rulesAndFields[1]!));
      if (readsFor[0] === 1 && readsFor[1] === (fieldsAsked ? 1 : 0)) answered.push(name);
    }
    // All but the files the full parser reads from the start and the shapes the walk declines:
    // those it declines anyway, and a list in a list (js-yaml opens the inner one twice, so what it
    // holds sits a level deeper than was noted), which the full pass places instead.
    const fullParser = ['keys', 'emptyDocs', 'complexKey', 'directive', 'numbers11', 'bom', 'anchorAfterColon', 'flowUnderIndented', 'flowUnderIndentedNested', 'gluedMarker', 'markerThenMapping', 'endMarkerThenMapping', 'markerThenScalar'];
    const declined = ['proto', 'emptyValues', 'indexKeys', 'nested', 'flowLines'];
    expect(answered).toEqual(Object.keys(CORPUS).filter((n) => !fullParser.includes(n) && !declined.includes(n)));
  });

  it('places a file edited between the read and the question as the full parser places the text read again', () => {
    // One character longer on line 1: the offsets noted while reading would put `rules` on its own colon.
    const text = 'version: 1\nrules:\n  - b: 2\n';
    const edited = text.replace('1', '12');
    const parsed = parseYamlFile(text, 'f.yaml', () => edited).documents[0]!;
    const full = parseWithPositions(edited, 'f.yaml').documents[0]!;
    for (const p of ['/version', '/rules', '/rules/0', '/rules/0/b']) {
      expect({ ...parsed.positions.valueAt(p) }, p).toEqual(full.positions.valueAt(p));
    }
  });

  it('where a rule is takes one read of the text again, its fields one more, each answered as the full parser does', () => {
    const text = 'name: P\nrules:\n  - name: A\n    actions: [flag]\n  - name: B\n    reviewer: qa@acme.example\n';
    const full = parseWithPositions(text, 'f.yaml').documents[0]!;
    let rereads = 0;
    const parsed = parseYamlFile(text, 'f.yaml', () => (rereads++, text)).documents[0]!;
    for (const p of ['/rules/1', '/rules/0', '/name', '/rules']) expect({ ...parsed.positions.at(p) }, p).toEqual(full.positions.at(p));
    expect({ ...parsed.start }).toEqual({ ...full.start });
    expect(rereads).toBe(1);
    for (const p of ['/rules/1/reviewer', '/rules/0/actions']) expect({ ...parsed.positions.valueAt(p) }, p).toEqual(full.positions.valueAt(p));
    expect(rereads).toBe(2);
    // Kept once for every depth, the positions answer without reading it again.
    expect({ ...parsed.positions.at('/rules/0/name') }).toEqual(full.positions.at('/rules/0/name'));
    expect({ ...parsed.positions.at('/rules/1') }).toEqual(full.positions.at('/rules/1'));
    expect(rereads).toBe(2);
  });

  it('positions are not worked out until asked for', () => {
    const parsed = parseYamlFile(CORPUS.playbook!, 'f.yaml');
    const pos = parsed.documents[0]!.positions.at('/rules/0/actions');
    expect(pos.file).toBe('f.yaml');
    expect(pos.line).toBe(6);
    expect(JSON.parse(JSON.stringify(pos))).toEqual({ file: 'f.yaml', line: 6, col: 5 });
  });
});

describe('a flow collection as a key (probe FL)', () => {
  it('is read by the full parser, so it is never taken for the key its items spell', () => {
    const member = parseYamlFile('kind: Member\nemail: dan@acme.example\n[name]: Dan\n', 'm.yaml').documents[0]!;
    expect(member.value).toEqual({ kind: 'Member', email: 'dan@acme.example', '["name"]': 'Dan' });
    expect(member.positions.at('/["name"]')).toMatchObject({ line: 3, col: 1 });
    const playbook = parseYamlFile('kind: Playbook\nname: T\n[a, b]: c\n', 'p.yaml').documents[0]!;
    expect(Object.keys(playbook.value as object)).toEqual(['kind', 'name', '["a","b"]']);
  });
});

describe('needsFullParser', () => {
  // The expressions it stands for: a tag or anchor property, a merge key, a YAML 1.1 number, a
  // directive or explicit key, a comment glued to a quote or bracket, a flow collection as a key
  // or opening a flow mapping (yaml-read.ts says why each goes to the full parser).
  const oracle = (text: string): boolean =>
    /(?:^|[\s[{,])[!&][^\s]/m.test(text) ||
    text.includes('<<') ||
    /(?<![\w.])(?:[-+]?0b[01_]|[-+]0[xo][0-9a-fA-F_]|[-+]\.[0-9])/.test(text) ||
    /^%|(?:^|[\s[{,])\?(?:[ \t]|$)/m.test(text) ||
    /["'\]}]#/.test(text) ||
    /[\]}][ \t]*:(?:[ \t\n\r]|$)/.test(text) ||
    /\{[ \t]*[[{]/.test(text);

  it('answers as the expressions do, on texts made of the characters they look at', () => {
    const alphabet = ['!', '&', '?', '%', '<', '0', '1', '5', 'b', 'x', 'o', 'F', '_', '-', '+', '.', 'a', ' ', '\t', '\n', '\r', '[', '{', ',', '#', '"', "'", ']', '}', ':', '\u00a0', '\u2028'];
    // A fixed linear congruential sequence: the same texts on every run.
    let seed = 12345;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    let needing = 0;
    // Collected, then compared once: an expect per text was most of the test's time.
    const disagreeing: string[] = [];
    for (let n = 0; n < 30_000; n++) {
      let text = '';
      for (let len = next(10); len > 0; len--) text += alphabet[next(alphabet.length)];
      const expected = oracle(text);
      if (needsFullParser(text) !== expected) disagreeing.push(JSON.stringify(text));
      if (expected) needing++;
    }
    expect(disagreeing).toEqual([]);
    // Both answers occur often enough for the comparison to mean something.
    expect(needing).toBeGreaterThan(3_000);
    expect(needing).toBeLessThan(27_000);
  });

  it('reads prose that merely looks like a property, number or key as plain', () => {
    for (const text of ['name: R&D review\n', 'x: Terms & Conditions\n', 'q: Is it capped?\n', 'fee: 5% of 0x\n', 'v: 1.5 and -1\n', 'n: a-.5\n']) {
      expect(needsFullParser(text), text).toBe(false);
    }
    for (const text of ['a: "X"# note\n', "a: 'X'# note\n", 'a: []# note\n', '{"a": {}}# note\n', 'a: &x 1\n', 'a: !!str 1\n', '%YAML 1.2\n---\na: 1\n', '? [a, b]\n: 1\n', 'n: 0b101\n', 'n: -0x1F\n', 'n: -.5\n', 'a:\n  <<: *b\n', '[name]: Dan\n', 'a: 1\n{b: 2}:\n  c\n', 'x: [1]:\n', 'a: {{ name }}\n', 'a: { [b] }\n']) {
      expect(needsFullParser(text), text).toBe(true);
    }
  });
});

describe('a file of more documents than any configuration holds', () => {
  it('is refused at the marker past 100,000, before it is parsed (probe TC-2: millions of `---` ran out of memory)', () => {
    const many = `kind: Playbook\nname: P\nrules: []\n${'---\n'.repeat(MAX_DOCUMENTS + 5)}`;
    const parsed = parseYamlFile(many, 'e.yaml');
    expect(parsed.documents).toEqual([]);
    // The first document, before any marker, counts too: the marker past the limit is the 100,000th (probe YF-2).
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col, d.message])).toEqual([['yaml-too-many-documents', MAX_DOCUMENTS + 3, 1, 'this file holds more than 100,000 YAML documents (`---`)']]);
    const doc = 'kind: Playbook\nname: P\nrules: []\n';
    const unmarkedFirst = (n: number) => `${doc}${`---\n${doc}`.repeat(n - 1)}`;
    expect(parseYamlFile(unmarkedFirst(MAX_DOCUMENTS + 1), 'g.yaml').diagnostics.map((d) => d.code)).toEqual(['yaml-too-many-documents']);
    expect(tooManyDocuments(unmarkedFirst(MAX_DOCUMENTS), 'g.yaml')).toBeUndefined();
    // Comments before the first marker are no document.
    expect(tooManyDocuments(`# many\n${`---\n${doc}`.repeat(MAX_DOCUMENTS)}`, 'h.yaml')).toBeUndefined();
    // `---text` starts no document: one plain scalar of as many lines is no document bomb.
    const lines = `a\n${'---text\n'.repeat(MAX_DOCUMENTS + 5)}`;
    expect(parseYamlFile(lines, 'f.yaml').diagnostics.map((d) => d.code)).not.toContain('yaml-too-many-documents');
  });
});
