import { describe, expect, it } from 'vitest';
import { parseWithPositions, pointerLabel, pointerToPath } from '../../../src/config/yaml-positions.js';
import { parseYamlFile } from '../../../src/config/yaml-read.js';
import { lines } from './helpers.js';

describe('parseYamlFile', () => {
  it('gives each document of a multi-document file its own start line', () => {
    const text = lines(
      '# yaml-language-server: $schema=../schemas/member.schema.json',
      'kind: Member',
      'email: bob@acme.example',
      '---',
      '# only a comment: skipped',
      '---',
      '',
      'kind: Member',
      'email: carol@acme.example',
    );
    const parsed = parseYamlFile(text, 'members.yaml');
    expect(parsed.diagnostics).toEqual([]);
    expect(parsed.documents.map((d) => [d.index, d.start.line, d.start.col])).toEqual([
      [0, 2, 1],
      [2, 8, 1],
    ]);
    expect(parsed.documents[1]!.positions.at('/email')).toEqual({ file: 'members.yaml', line: 9, col: 1 });
  });

  it('places the documents after a syntax error at their own lines, also when the parser skipped stray lines of it (probe QE-1)', () => {
    const text = lines('  kind: Playbook', 'name: Pasted', '  description: text', '  drift: adopt', '---', 'kind: Member', 'email: carol-at-acme.example');
    const parsed = parseYamlFile(text, 'p.yaml');
    expect(parsed.diagnostics.map((d) => [d.code, d.line])).toEqual([['yaml-syntax', 2]]);
    expect(parsed.documents.at(-1)!.positions.valueAt('/email')).toEqual({ file: 'p.yaml', line: 7, col: 8 });
  });

  it('records keys, values and list items; at() falls back to the nearest written ancestor', () => {
    const text = lines(
      'kind: Playbook',
      'name: Inbound NDA',
      'description:',
      'rules:',
      '  - name: Term',
      '    reviewer: alice@acme.example',
      '  - name: Governing law',
    );
    const [doc] = parseYamlFile(text, 'p.yaml').documents;
    const pos = doc!.positions;
    expect(pos.at('/rules/0/reviewer')).toEqual({ file: 'p.yaml', line: 6, col: 5 });
    expect(pos.valueAt('/rules/0/reviewer')).toEqual({ file: 'p.yaml', line: 6, col: 15 });
    expect(pos.at('/rules/1')).toEqual({ file: 'p.yaml', line: 7, col: 5 });
    expect(pos.at('/rules/1/actions')).toEqual({ file: 'p.yaml', line: 7, col: 5 });
    expect(pos.at('/nothing/here')).toEqual({ file: 'p.yaml', line: 1, col: 1 });
    // An empty value is "written" at its key.
    expect(pos.valueAt('/description')).toEqual({ file: 'p.yaml', line: 3, col: 1 });
    expect(pos.has('/description')).toBe(true);
    expect(pos.has('/rules/1/actions')).toBe(false);
    expect(doc!.value).toEqual({
      kind: 'Playbook',
      name: 'Inbound NDA',
      description: null,
      rules: [{ name: 'Term', reviewer: 'alice@acme.example' }, { name: 'Governing law' }],
    });
  });

  it('reads the documents after a quote never closed on their own, as after a bracket, so their problems are said in the same run (probe EW)', () => {
    const text = lines('kind: Member', 'email: "dan@example.com', '---', 'kind: Member', 'email: erin', '---', "name: 'x", '---', 'kind: Member');
    const parsed = parseYamlFile(text, 'm.yaml');
    expect(parsed.diagnostics.map((d) => [d.line, d.col, d.message])).toEqual([
      [2, 8, 'this "quoted" value is never closed: "\\"dan@example.com"'],
      [7, 7, 'this \'quoted\' value is never closed: "\'x"'],
    ]);
    expect(parsed.documents.map((d) => [d.index, d.start.line, d.ok, d.ok ? d.value : null])).toEqual([
      [0, 1, false, null],
      [1, 4, true, { kind: 'Member', email: 'erin' }],
      [2, 7, false, null],
      [3, 9, true, { kind: 'Member' }],
    ]);
    // A quote later in the file stops the parser at the `---`: what follows is read once, not twice.
    const closedLater = parseYamlFile(lines('kind: Playbook', 'name: "Alpha', 'rules: []', '---', 'kind: Playbook', 'name: "Beta"', '---', 'kind: Playbook', 'name: "Gamma', '---', 'kind: Playbook'), 'p.yaml');
    expect(closedLater.documents.map((d) => [d.index, d.start.line])).toEqual([[0, 1], [1, 5], [2, 8], [3, 11]]);
    expect(closedLater.diagnostics.map((d) => d.line)).toEqual([2, 9]);
  });

  it('reports syntax errors and duplicate keys at their line and column', () => {
    const syntax = parseYamlFile(lines('kind: Member', 'name: x: y'), 's.yaml');
    expect(syntax.diagnostics).toEqual([
      expect.objectContaining({ code: 'yaml-syntax', file: 's.yaml', line: 2, col: 7, message: 'Nested mappings are not allowed in compact mappings: "x: y"', hint: 'a value containing `: ` must be quoted' }),
    ]);
    expect(syntax.documents[0]!.ok).toBe(false);
    // What the parser stopped at is quoted, and so is a bracket never closed, from the bracket.
    expect(parseYamlFile(lines('kind: Member', 'tags: [a, b'), 'b.yaml').diagnostics.map((d) => d.message)).toEqual(['this `[` is never closed with `]`: "[a, b"']);
    // At the end of a file without a final line break, the bracket, not the closed value inside it that ends there too (probe KQ-1).
    const atEnd = (text: string) => parseYamlFile(text, 'f.yaml').diagnostics.map((d) => `${d.line}:${d.col} ${d.message}`);
    expect(atEnd('kind: Playbook\nname: F\nrules: ["a"')).toEqual(['3:8 this `[` is never closed with `]`: "[\\"a\\""']);
    expect(atEnd("kind: Playbook\nname: F\nrules: ['it''s'")).toEqual(['3:8 this `[` is never closed with `]`: "[\'it\'\'s\'"']);
    expect(atEnd('kind: Playbook\nname: F\nrules: [{name: a, actions: x}')).toEqual(['3:8 this `[` is never closed with `]`: "[{name: a, actions: x}"']);
    // A last item of the same kind of bracket, closed: the outer one is still the one never closed (second read SR73-2).
    expect(atEnd('kind: Playbook\nname: F\nrules: [[a]')).toEqual(['3:8 this `[` is never closed with `]`: "[[a]"']);
    expect(atEnd('kind: Playbook\nname: F\nrules: [[a]\n')).toEqual(['3:8 this `[` is never closed with `]`: "[[a]"']);
    expect(atEnd('kind: Playbook\nname: F\nrules: {a: {b: 1}')).toEqual(['3:8 this `{` is never closed with `}`: "{a: {b: 1}"']);
    // An apostrophe or a `"` inside plain text starts no quoted value (second read RV10-3).
    expect(atEnd("kind: Playbook\nname: F\nrules: [a, {note: don't}")).toEqual(['3:8 this `[` is never closed with `]`: "[a, {note: don\'t}"']);
    // A quoted value whose last quote is escaped is the one never closed.
    expect(atEnd('kind: Playbook\nname: F\nrules: ["a\\"')).toEqual(['3:9 this "quoted" value is never closed: "\\"a\\\\\\""']);
    // Closed on a line indented no deeper than its key's, which YAML does not take into it: the hint says so (third read TR68).
    const shallow = parseYamlFile(lines('rules:', '  - name: A', '    description: "line one', '    line two"'), 'q.yaml').diagnostics;
    expect(shallow.map((d) => [d.line, d.col, d.hint])).toEqual([[3, 18, 'line 4 is not indented past this one, so YAML ends it here: indent the lines it goes on to further, or close it with " on this value, or write text over several lines as a block (`|` then indented lines)']]);
    const deeper = parseYamlFile(lines('kind: Member', 'tags: [a, b', '  c'), 'b.yaml').diagnostics;
    expect(deeper.map((d) => d.hint)).toEqual(['close it with `]`, or write it as indented `- item` lines']);
    // Old Mac line ends (a lone CR) are line breaks to YAML, and to the count of lines.
    const cr = parseYamlFile('kind: Member\rname: x: y\r', 'cr.yaml');
    expect(cr.diagnostics.map((d) => [d.line, d.col])).toEqual([[2, 7]]);

    const dup = parseYamlFile(lines('kind: Member', 'email: a@b.example', 'email: c@d.example'), 'd.yaml');
    expect(dup.diagnostics).toEqual([
      expect.objectContaining({ code: 'duplicate-key', file: 'd.yaml', line: 3, col: 1, message: expect.stringContaining('`email`') }),
    ]);
    // A repeated key after an empty value is at the repeat and named, as any other.
    const afterEmpty = parseYamlFile(lines('kind: Organization', 'review:', 'review:', '  name: X'), 'o.yaml');
    expect(afterEmpty.diagnostics.map((d) => [d.code, d.line, d.col, d.message])).toEqual([['duplicate-key', 3, 1, 'duplicate key `review`: each key may appear once in a mapping; line 2 writes it already']]);
    // Written as an explicit key (`? name`), its value on the next line: named too (probe TC-5).
    const explicit = parseYamlFile(lines('kind: Playbook', 'name: D1', '? name', ': D3', '? "name" # again', ': D4'), 'e.yaml');
    expect(explicit.diagnostics.map((d) => [d.code, d.line, d.col, d.message])).toEqual([
      ['duplicate-key', 3, 3, 'duplicate key `name`: each key may appear once in a mapping; line 2 writes it already'],
      ['duplicate-key', 5, 3, 'duplicate key `"name"`: each key may appear once in a mapping; line 2 writes it already'],
    ]);
    // Two merge keys: the parser kept the first silently, where other readers (and editors) differ.
    const merges = parseYamlFile(lines('kind: Playbook', 'name: P', 'rules:', '  - &a {name: a, actions: A}', '  - &b {name: b, actions: B}', '  - <<: *a', '    <<: *b', '    name: d'), 'm.yaml');
    expect(merges.diagnostics).toEqual([expect.objectContaining({ code: 'duplicate-key', file: 'm.yaml', line: 7, col: 5, message: expect.stringContaining('`<<`') })]);
  });

  it('hints at what fits: text under `key: |` indented too little, and a document started on the `---` line (probe PY-4)', () => {
    const hintOf = (...text: string[]) => parseYamlFile(lines(...text), 'h.yaml').diagnostics.map((d) => [d.line, d.col, d.hint]);
    const past = 'the text of `actions: |` (line 5) must be indented further than its key, which starts at column 5: start this line past column 5';
    expect(hintOf('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: |', '   bad indent')).toEqual([[6, 4, past]]);
    // Lined up with the key, after a blank line: read as a key with no `:`, still the text meant.
    expect(hintOf('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: |', '', '    bad indent')).toEqual([[7, 5, `${past}; or, if it is a key, it needs \`:\` after it`]]);
    // A key one column short under an empty `|`, and a tab in the indentation, keep their own hints (second read SR83-2).
    expect(hintOf('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: |', '   questions: Q')).toEqual([[6, 4, `line 5 starts at column 5 and this one at column 4: line them up (keys of one mapping start at the same column, list items at the same \`-\`); or, if it is text of the value above, ${past.replace(/^the text/, 'that text')}`]]);
    expect(hintOf('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: |', '\tbad')[0]?.[2]).toMatch(/^indent with spaces/);
    // Past the key but short of the text above it, in `|` and `>` alike: lined up with that text, not with the key (probe GK-2).
    for (const indicator of ['|', '>']) {
      const short = hintOf('kind: Playbook', 'name: P', 'rules:', '  - name: R', `    actions: ${indicator}`, '      ACCEPT 3 years', '', '     COUNTERPROPOSE 2 years');
      expect(short).toEqual([[8, 6, `this line is part of the text of \`actions: ${indicator}\` (line 5), whose lines start at column 7: start it at column 7 too`]]);
    }
    const marker = "a document's keys start on the line after `---`: put a line break after `---`";
    expect(hintOf('kind: Member', 'email: a@b.example', '--- kind: Member', 'email: x@y.example')).toEqual([[3, 5, marker]]);
    expect(hintOf('kind: Member', 'email: a@b.example', '--- \ufeffkind: Member', 'email: x@y.example')).toEqual([[3, 5, marker]]);
    expect(hintOf('kind: Member', 'email: a@b.example', '---\ufeff', 'kind: Member', 'email: x@y.example')).toEqual([[3, 1, 'a byte-order mark right after `---` (files joined by a tool) makes it no document marker: delete the mark']]);
    // `--- ` and only a mark: the line ends already; the mark is the trouble (probe SH-4).
    expect(hintOf('kind: Member', 'email: a@b.example', '--- \ufeff', 'kind: Member', 'email: x@y.example').map((h) => h[2])).toEqual(["a byte-order mark after `---` on its line (files joined by a tool) is read as the document's first key: delete the mark"]);
  });

  it('reports an indentation slip once, with the line it slipped from, not every token after it', () => {
    const slipped = parseYamlFile(lines('# a comment', ' kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: |', '      ACCEPT', '      FLAG', '    questions: Q'), 's.yaml');
    expect(slipped.diagnostics).toEqual([
      expect.objectContaining({
        code: 'yaml-syntax',
        line: 3,
        col: 1,
        hint: 'line 2 starts at column 2 and this one at column 1: line them up (keys of one mapping start at the same column, list items at the same `-`)',
      }),
    ]);
    // A tab, or a list item indented under a value: one error each, not one per line after it.
    const tab = parseYamlFile(lines('kind: Playbook', 'name: A', 'rules:', '  - name: R1', '    actions: ok', '  - name: R2', '\tactions: ok', '  - name: R3', '    actions: ok'), 't.yaml');
    expect(tab.diagnostics.map((d) => [d.line, d.col, d.hint])).toEqual([[7, 1, 'indent with spaces']]);
    const under = parseYamlFile(lines('kind: Playbook', 'name: B', 'rules:', '  - name: R1', '    actions: ACCEPT', '    - name: R2', '      actions: x'), 'u.yaml');
    expect(under.diagnostics.map((d) => [d.line, d.hint])).toEqual([[6, 'this list item is indented under the value above it: line it up with the other items of its list']]);
    // A key one column too far under a list item is said to be that, not a list item out of place.
    const key = parseYamlFile(lines('kind: Playbook', 'name: K', 'rules:', '  - name: R1', '     actions: x'), 'k.yaml');
    expect(key.diagnostics.map((d) => [d.line, d.col, d.message, d.hint])).toEqual([
      [5, 6, '"actions: x" is indented further than the key on line 4, which has a value of its own', 'line 4 has its key at column 5 and this one at column 6: line them up (keys of one mapping start at the same column)'],
    ]);
    // The line is quoted as every message quotes a value: cut at 60 characters, not before.
    const long = parseYamlFile(lines('kind: Playbook', 'name: K', 'rules:', '  - name: R1', "     description: Caps on each party's liability, with the usual carve-outs"), 'l.yaml');
    expect(long.diagnostics.map((d) => d.message)).toEqual([`"description: Caps on each party's liability, with the usu..." is indented further than the key on line 4, which has a value of its own`]);
    const compact = parseYamlFile(lines('kind: Playbook', 'name: K', 'description: Note: this description has a colon and is quite long'), 'c.yaml');
    expect(compact.diagnostics.map((d) => d.message)).toEqual(['Nested mappings are not allowed in compact mappings: "Note: this description has a colon and is quite long"']);
    // A tab in the further indentation is said as the tab it is; a key out of line after a comment is quoted.
    const tabbed = parseYamlFile(lines('kind: Playbook', 'name: K', '  \tdescription: x'), 't.yaml');
    expect(tabbed.diagnostics.map((d) => [d.line, d.col, d.message, d.hint])).toEqual([[3, 4, '"description: x" is indented further than the key on line 2, which has a value of its own', "indent with spaces: this line's indentation holds a tab"]]);
    const commented = parseYamlFile(lines('kind: Playbook', 'name: K # note', '  description: x'), 'c.yaml');
    expect(commented.diagnostics.map((d) => [d.line, d.col, d.message])).toEqual([[3, 3, 'All mapping items must start at the same column: "description: x"']]);
    const dashed = parseYamlFile(lines('kind: Playbook', '-x: K', '  description: x'), 'x.yaml');
    expect(dashed.diagnostics.map((d) => d.hint)).toEqual(['line 2 has its key at column 1 and this one at column 3: line them up (keys of one mapping start at the same column)']);
    // `key: a: b` is still the unquoted `: ` it is.
    const colon = parseYamlFile(lines('kind: Playbook', 'name: a: b', 'rules: []'), 'c.yaml');
    expect(colon.diagnostics.map((d) => [d.line, d.hint])).toEqual([[2, 'a value containing `: ` must be quoted']]);
    // So is a value ending in `:` (`Step 1:`), whatever the next line: not an indentation slip (probe RM-3).
    const ending = parseYamlFile(lines('kind: Playbook', 'name: Inbound "NDA":', 'rules:', '  - name: Term:', '    actions: a'), 'e.yaml');
    expect(ending.diagnostics.map((d) => [d.line, d.hint])).toEqual([[2, 'a value ending in `:` must be quoted (`"Inbound \\"NDA\\":"`)']]);
    const inRule = parseYamlFile(lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term:', '    actions: a'), 'r.yaml');
    expect(inRule.diagnostics.map((d) => [d.line, d.col, d.hint])).toEqual([[4, 11, 'a value ending in `:` must be quoted (`"Term:"`)']]);
    // A list item slipped further than its siblings names the item it slipped from, and the keys
    // the parser then reads twice are not reported as repeated.
    const deeper = parseYamlFile(lines('kind: Playbook', 'name: Q', 'rules:', '        - name: R', '    description: d', 'description: e'), 'd.yaml');
    expect(deeper.diagnostics.map((d) => [d.code, d.line, d.hint])).toEqual([
      ['yaml-syntax', 5, 'line 4 has its first key at column 11 and this one at column 5: line them up (keys of one mapping start at the same column, list items at the same `-`)'],
    ]);
    const tabs = parseYamlFile(lines('version: 1', 'vars:', '\ta: b', 'environments:', '\tstaging:', '\t  vars:', '\t    a: c'), 'docket.yaml');
    expect(tabs.diagnostics.map((d) => [d.code, d.line])).toEqual([['yaml-syntax', 3]]);
    // A tab after a space: said to be a tab, at the text after it.
    const spaceTab = parseYamlFile(lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: A', ' \tdescription: x'), 'p.yaml');
    expect(spaceTab.diagnostics.map((d) => [d.line, d.col, d.hint])).toEqual([[6, 3, "indent with spaces: this line's indentation holds a tab"]]);
    // The line slipped from is the nearest key (or, for an item, the nearest `-`) as the parser
    // read it: not a line of a block's text or of a flow collection. A slip noticed at a comment
    // is the next line's.
    const rule = ['kind: Playbook', 'name: A', 'rules:', '  - name: r'];
    const slips: [string[], number, string][] = [
      [[...rule, '    actions: |', '      text one', '      text two', '   description: x'], 8, 'line 5 starts at column 5 and this one at column 4'],
      [[...rule, '    actions: {a: 1,', '      b: 2}', '   description: x'], 7, 'line 5 starts at column 5 and this one at column 4'],
      [[...rule, '    actions: x', '    questions:', '      - q1', '   description: x'], 8, 'line 6 starts at column 5 and this one at column 4'],
      [[...rule, '    actions: x', '    questions:', '      - q1', '    # c', '     description: x'], 9, 'line 6 starts at column 5 and this one at column 6'],
      [[...rule, '    actions: x', ' - name: s', '   actions: y'], 6, 'line 4 starts at column 3 and this one at column 2'],
      [[...rule, '    actions: x', '    questions:', '      - q1', '     - q2'], 8, 'line 7 starts at column 7 and this one at column 6'],
    ];
    // A value that starts with a dash, or a list in an item, is not the item's dash.
    slips.push([['list:', '  - -1', '  - -2', ' - 3'], 4, 'line 3 starts at column 3 and this one at column 2']);
    slips.push([['list:', '  - - a', ' - b'], 3, 'line 2 starts at column 3 and this one at column 2']);
    // Each at the column its hint names for it, where its text starts.
    slips.push([[...rule, '    actions: x', '  name: bad'], 6, 'line 5 starts at column 5 and this one at column 3']);
    for (const [text, line, hint] of slips) {
      const col = Number(/this one at column (\d+)/.exec(hint)![1]);
      expect(parseYamlFile(lines(...text), 'p.yaml').diagnostics.map((d) => [d.line, d.col, d.hint]), text.at(-1)).toEqual([[line, col, `${hint}: line them up (keys of one mapping start at the same column, list items at the same \`-\`)`]]);
    }
    // Text after a closing quote is still said to be that.
    expect(parseYamlFile(lines('kind: Playbook', 'name: "A" x'), 'q.yaml').diagnostics.map((d) => [d.line, d.col, d.hint])).toEqual([
      [2, 11, 'text follows a closing quote or bracket: quote the whole value, or remove what follows'],
    ]);
    // Unless the value's own quote ended it early, its closing one still on the line (probe GK-4).
    expect(parseYamlFile(lines('kind: Member', "name: 'it's Dan'"), 'q.yaml').diagnostics.map((d) => d.hint)).toEqual(["a `'` inside single quotes is written twice (`'it''s'`), or quote the value with double quotes"]);
    expect(parseYamlFile(lines('kind: Member', 'name: "say "hi" Dan"'), 'q.yaml').diagnostics.map((d) => d.hint)).toEqual(['a `"` inside double quotes is written `\\"`, or quote the value with single quotes']);
  });

  it('says an unquoted placeholder in a flow collection must be quoted, once, instead of the parser\'s errors about its braces', () => {
    const flow = parseYamlFile(lines('kind: Playbook', 'name: P', "rules: [{name: it's ${var.y}, actions: A}]", 'description: ${var.x}'), 'f.yaml');
    expect(flow.diagnostics).toEqual([
      { severity: 'error', code: 'yaml-syntax', file: 'f.yaml', line: 3, col: 21, message: '"${var.y}" is inside `[…]` or `{…}`, where YAML reads its `{` and `}` as brackets', hint: 'quote it: "${var.y}"' },
    ]);
    // An escape is quoted as written, and a quote inside a quoted value does not end it.
    expect(parseYamlFile(lines('a: [$${literal}]'), 'e.yaml').diagnostics.map((d) => d.hint)).toEqual(['quote it: "$${literal}"']);
    expect(parseYamlFile(lines('a: ["x\\" ${y}", \'it\'\'s ${z}\', ${w}]'), 'x.yaml').diagnostics.map((d) => d.message)).toEqual([
      '"${w}" is inside `[…]` or `{…}`, where YAML reads its `{` and `}` as brackets',
    ]);
    // Quoted, or in block style, a placeholder is plain text.
    expect(parseYamlFile(lines('kind: Playbook', 'name: P', 'rules: [{name: "${var.y}", actions: A}]', 'description: ${var.x}'), 'q.yaml').diagnostics).toEqual([]);
  });

  it('keeps a __proto__ key as data', () => {
    const [doc] = parseYamlFile('__proto__: {polluted: true}\n', 'x.yaml').documents;
    const value = doc!.value as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(Object.getPrototypeOf(value)).toBe(Object.prototype);
  });

  it('names pointers the way messages show them', () => {
    expect(pointerToPath('/rules/2/actions')).toBe('rules[2].actions');
    expect(pointerToPath('/a~1b')).toBe('a/b');
    expect(pointerLabel('/rules/2/renamed_from/1')).toBe('renamed_from[1]');
    expect(pointerLabel('')).toBe('the document');
  });
});

describe('aliases', () => {
  it('name the last node anchored with their name before them; one defined only after is an error', () => {
    const text = lines('a: &x first', 'b: *x', 'c: &x second', 'd: *x', 'e: *y', 'f: &y late');
    const parsed = parseWithPositions(text, 'f.yaml');
    expect(parsed.documents[0]!.value).toEqual({ a: 'first', b: 'first', c: 'second', d: 'second', e: null, f: 'late' });
    expect(parsed.diagnostics.map((d) => [d.code, d.line])).toEqual([['yaml-undefined-alias', 5]]);
  });

  it('name an undefined one as a value is quoted when its name is long: cut at 60 characters (probe QW-2)', () => {
    const name = 'y'.repeat(5000);
    const [diagnostic] = parseWithPositions(lines('a: 1', `b: *${name}`), 'f.yaml').diagnostics;
    expect(diagnostic!.message).toBe(`alias "*${'y'.repeat(56)}..." names no anchor defined before it`);
    expect(diagnostic!.hint).toBe(`define "&${'y'.repeat(56)}..." on a value above this line, or quote the value if it is text starting with \`*\``);
    expect(parseWithPositions(lines('a: 1', 'b: *short'), 'f.yaml').diagnostics[0]!.message).toBe('alias `*short` names no anchor defined before it');
    // And where an alias repeats without end, or names a key twice (second read SR86-5).
    const cut = `${'y'.repeat(56)}...`;
    expect(parseWithPositions(lines(`a: &${name} [*${name}]`), 'f.yaml').diagnostics[0]!.message).toBe(`alias "*${cut}" is inside the node its anchor "&${cut}" names, so it would repeat without end`);
    expect(parseWithPositions(lines(`k: &${name} x`, 'm:', '  x: 1', `  *${name} : 2`), 'f.yaml').diagnostics.map((d) => d.message)).toContain(`duplicate key "x" ("*${cut}" names it): each key may appear once in a mapping; line 3 writes it already (as \`x\`)`);
  });

  it('used as keys read as the text their anchor names, as other YAML readers read them (probe EM)', () => {
    const text = lines('rules:', '  - &k name: R1', '    actions: x', '  - *k : R2', '    actions: y', '  - *nowhere : R3');
    const parsed = parseWithPositions(text, 'k.yaml');
    expect(parsed.documents[0]!.value).toEqual({ rules: [{ name: 'R1', actions: 'x' }, { name: 'R2', actions: 'y' }, { '*nowhere': 'R3' }] });
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([['yaml-undefined-alias', 6, 5]]);
  });

  it('used as a key that the mapping has already (or has after) are a duplicate key (probe EP)', () => {
    const text = lines('rules:', '  - &k name: S1', '    actions: A', '  - name: S2', '    *k : S3', '    actions: B', '  - *k : S4', '    name: S5');
    const parsed = parseWithPositions(text, 'd.yaml');
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col, d.message])).toEqual([
      ['duplicate-key', 5, 5, 'duplicate key "name" (`*k` names it): each key may appear once in a mapping; line 4 writes it already (as `name`)'],
      ['duplicate-key', 8, 5, 'duplicate key "name": each key may appear once in a mapping; line 7 writes it already (as `*k`)'],
    ]);
  });

  it('written once plain and once quoted as one name (`null:` and `"null":`) are a duplicate key, said once however many more follow (probe PY-1)', () => {
    const text = lines('vars:', '  null: alice', '  "null": qa', '  ~: c', '  true: t', "  'true': u", '  .nan: 1', '  .nan: 2', '  7: x', '  "7": y');
    const parsed = parseWithPositions(text, 'docket.yaml');
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col, d.message])).toEqual([
      // The parser's own first, as `~` and `null` are one value to it.
      ['duplicate-key', 4, 3, 'duplicate key `~`: each key may appear once in a mapping; line 2 writes it already'],
      // Which key it repeats, and where, as written (probe SA-2).
      ['duplicate-key', 3, 3, 'duplicate key "null": each key may appear once in a mapping; line 2 writes it already (as `null`)'],
      ['duplicate-key', 6, 3, 'duplicate key "true": each key may appear once in a mapping; line 5 writes it already (as `true`)'],
      ['duplicate-key', 8, 3, 'duplicate key "NaN": each key may appear once in a mapping; line 7 writes it already'],
      ['duplicate-key', 10, 3, 'duplicate key "7": each key may appear once in a mapping; line 9 writes it already (as `7`)'],
    ]);
  });

  it('merged with `<<` are said once when they name nothing or their own mapping, not also as a merge of nothing', () => {
    const text = lines('a: &r', '  x: 1', '  <<: *r', 'b:', '  <<: *nowhere', 'c:', '  <<: [*nowhere, 3]');
    const parsed = parseWithPositions(text, 'm.yaml');
    expect(parsed.diagnostics.map((d) => [d.code, d.line, d.col])).toEqual([
      ['yaml-recursive-alias', 3, 7],
      ['yaml-undefined-alias', 5, 7],
      ['yaml-undefined-alias', 7, 8],
      ['yaml-merge', 7, 18],
    ]);
  });

  it('merged with `<<` but no mapping quote the value written (probe OO-4)', () => {
    const text = lines('a:', '  <<: hello', 'b:', '  <<: 0x1F', 'c:', '  <<: ~', 'd:', '  <<: [{x: 1}, [1]]');
    const parsed = parseWithPositions(text, 'm.yaml');
    expect(parsed.diagnostics.map((d) => d.message.replace(/.* \(got /, '('))).toEqual(['("hello")', '("0x1F")', '(no value)', '(a list)']);
  });
});

