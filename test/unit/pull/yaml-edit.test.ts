import { describe, expect, it } from 'vitest';
import { documentValue, documentValues, editYaml, parseForEdit, parkedBoms } from '../../../src/pull/yaml-edit.js';
import { align } from '../../../src/pull/list-align.js';
import { insertAt, setAt } from '../../../src/pull/values.js';
import { plainYamlDocuments } from '../../../src/config/yaml-read.js';

/** Edits document `index` of `text` with `change` (applied to its current value). */
function edit(text: string, change: (value: unknown) => unknown, index = 0, expand?: (s: string) => string) {
  const value = documentValue(parseForEdit(text)[index]!);
  return editYaml(text, { documents: new Map([[index, change(value)]]), ...(expand ? { expand } : {}) });
}

const PLAYBOOK = `# yaml-language-server: $schema=../schemas/playbook.schema.json
kind: Playbook
name: Inbound NDA   # the name reviewers see
description: 'NDAs we receive'
rules:
  # Term: agreed with sales
  - name: Term
    actions: |
      ACCEPT a term of up to 3 years
      COUNTERPROPOSE 2 years when longer
    reviewer: alice@acme.example
  - name: Law
    actions: |-
      ACCEPT Delaware
    tags_like: { a: 1, b: "x" }
`;

describe('editYaml', () => {
  it('writes out a merge whose mapping holds an alias of an anchor the edit changes or takes out (probe KN-1)', () => {
    const text = 'kind: Playbook\nname: V2\nrules:\n  - name: base2\n    actions: B\n    internal_notes: &n2 note from base2\n  - name: merged\n    actions: M\n    <<: {internal_notes: *n2}\n';
    type Rules = { rules: Record<string, unknown>[] };
    // The anchor's rule deleted: the other keeps its notes, written out.
    const gone = edit(text, (v) => ({ ...(v as Rules), rules: (v as Rules).rules.slice(1) }));
    expect(documentValues(gone.text!)[0]).toEqual({ kind: 'Playbook', name: 'V2', rules: [{ name: 'merged', actions: 'M', internal_notes: 'note from base2' }] });
    // The anchor's value changed: the other rule's stays as it was.
    const changed = edit(text, (v) => ({ ...(v as Rules), rules: [{ ...(v as Rules).rules[0], internal_notes: 'changed' }, (v as Rules).rules[1]] }));
    expect(documentValues(changed.text!)[0]).toEqual({ kind: 'Playbook', name: 'V2', rules: [{ name: 'base2', actions: 'B', internal_notes: 'changed' }, { name: 'merged', actions: 'M', internal_notes: 'note from base2' }] });
  });

  it('writes one-line text that starts or ends with a no-break or ideographic space quoted, as export does (probe JH-7)', () => {
    expect(edit('kind: P\nname: R\nnote: x\n', (v) => setAt(setAt(v, '/name', 'R\u00a0'), '/note', '\u3000')).text).toBe('kind: P\nname: "R\u00a0"\nnote: "\u3000"\n');
    expect(edit('kind: P\nnote: x\n', (v) => setAt(v, '/note', 'caf\u00e9\u00a0au lait')).text).toBe('kind: P\nnote: caf\u00e9\u00a0au lait\n');
  });

  it('edits a file whose lines end in a lone CR, keeping its line breaks, comments and quotes (probe JH-4)', () => {
    const text = '# header comment\rkind: Playbook\rname: CR Two\rdescription: \'single quoted\'   # c\rrules:\r  - name: R\r    actions: "ACCEPT"\r    questions: "q"\r';
    const wanted = { kind: 'Playbook', name: 'CR Two', description: 'single quoted', rules: [{ name: 'R', actions: 'ACCEPT changed\nand more', questions: 'yes' }] };
    const edited = editYaml(text, { documents: new Map([[0, wanted]]) }).text!;
    expect(edited).not.toContain('\n');
    expect(edited).toContain('\rdescription: \'single quoted\'   # c\r');
    expect(edited).toContain('questions: "yes"\r');
    expect(plainYamlDocuments(edited.replace(/\r/g, '\n'))).toEqual([wanted]);
    // Lines ended both ways could not be written back as they were: refused, so nothing is written.
    expect(() => editYaml(`${text}extra: 1\n`, { documents: new Map([[0, wanted]]) })).toThrow('it holds a carriage return not followed by a line feed among lines ended by one');
  });

  it('takes off a type tag the new value does not have, and keeps one it does: the file reads back as live has it (probe HT-2)', () => {
    // A float's text has a point: `!!float 2` would not read (probe HV-1).
    expect(edit('a: !!float 1.5\nb: !!float 1.5\n', () => ({ a: 2, b: 2.5 })).text).toBe('a: 2\nb: !!float 2.5\n');
    const seq = 'items:\n  - !!null null\n  - !!int 5\n';
    expect(edit(seq, () => ({ items: ['Who?', 6] })).text).toBe('items:\n  - Who?\n  - !!int 6\n');
    const map = 'a: !!null null # to ask\nb: &r !!str alice\nc: !!str &s bob\nd: !!bool true\n';
    expect(edit(map, () => ({ a: 'What is the term?', b: 'carol', c: 7, d: 'yes' })).text).toBe('a: What is the term? # to ask\nb: &r !!str carol\nc: &s 7\nd: "yes"\n');
      // Inside a flow collection, and on the line before the value (probe SR-4).
    expect(edit('a: [!!float 1.5]\nb: { c: !!str x }\n', () => ({ a: [2], b: { c: 4 } })).text).toBe('a: [2]\nb: { c: 4 }\n');
    // An item taken out of a flow list goes with its tag and anchor, and leaves the next one its own.
    expect(edit('a: [!!float 1.5, &n !!int 2, !!int 3]\n', () => ({ a: [2, 3] })).text).toBe('a: [&n !!int 2, !!int 3]\n');
    expect(edit('a: [!!int 1, &n !!int 2, !!int 3]\n', () => ({ a: [1, 3] })).text).toBe('a: [!!int 1, !!int 3]\n');
    expect(edit('a: !!float\n  1.5\nb: &k !!str\n  x\nc: 1\n', () => ({ a: 2, b: 5, c: 1 })).text).toBe('a:\n  2\nb: &k\n  5\nc: 1\n');
    // With a comment after it, and comment lines between (second read SR-4).
    expect(edit('a: !!str # note\n  # more\n  x\nb: 1\n', () => ({ a: 5, b: 1 })).text).toBe('a: # note\n  # more\n  5\nb: 1\n');
    // Text under a `!!str` that stays: plain, as the tag makes it text (probe SI-3); a tab is still quoted.
    expect(edit('a: !!str 123\nb: [!!str 1]\nc: !!str x\nd: !!str y\n', () => ({ a: '456', b: ['yes'], c: 'a\tb', d: '' })).text).toBe('a: !!str 456\nb: [!!str yes]\nc: !!str "a\\tb"\nd: !!str ""\n');
  });

  it('writes over a value holding `${` in a data file, which is published as written: no placeholder there (probe HY-6)', () => {
    const text = 'title: Fee in ${currency}   # shown\nnote: ${x}\n';
    const edited = editYaml(text, { documents: new Map([[0, { title: 'Fee in ${currency} (net)', note: '${x}' }]]), placeholders: false });
    expect(edited).toEqual({ text: 'title: Fee in ${currency} (net)   # shown\nnote: ${x}\n', problems: [] });
  });

  it('keeps a list item holding a placeholder that live no longer has, and says so; the other items go', () => {
    const expand = (t: string) => t.replace('${var.sec}', 'Sec A');
    const text = 'kind: Template\nname: T\nattachments:\n  - ${var.sec}\n  - Sec B\n  - Sec C\n';
    const dropped = edit(text, (v) => ({ ...(v as object), attachments: ['Sec B'] }), 0, expand);
    expect(dropped.text).toBe('kind: Template\nname: T\nattachments:\n  - ${var.sec}\n  - Sec B\n');
    expect(dropped.problems).toEqual([{ document: 0, pointer: '/attachments/0', line: 4, written: '${var.sec}', wanted: null }]);
    const emptied = edit(text, (v) => ({ ...(v as object), attachments: [] }), 0, expand);
    expect(emptied.text).toBe('kind: Template\nname: T\nattachments:\n  - ${var.sec}\n');
    expect(emptied.problems.map((p) => p.pointer)).toEqual(['/attachments/0']);
    const flow = edit('kind: Template\nname: T\nattachments: ["${var.sec}", Sec B]\n', (v) => ({ ...(v as object), attachments: ['Sec B'] }), 0, expand);
    expect(flow.text).toBe('kind: Template\nname: T\nattachments: ["${var.sec}", Sec B]\n');
    expect(flow.problems.map((p) => p.written)).toEqual(['${var.sec}']);
    // Lined up by what it stands for: the placeholder is the item it expands to. Moved live, it
    // moves as written; where it cannot (an anchor on it), it is not written again as text beside
    // it: the edit is refused whole, saying why.
    const added = edit('kind: Template\nname: T\nattachments:\n  - ${var.sec}\n  - Sec B\n', (v) => ({ ...(v as object), attachments: ['Sec A', 'Sec B', 'Sec C'] }), 0, expand);
    expect([added.text, added.problems]).toEqual(['kind: Template\nname: T\nattachments:\n  - ${var.sec}\n  - Sec B\n  - Sec C\n', []]);
    const moved = edit('kind: Template\nname: T\nattachments:\n  - ${var.sec}  # ours\n  - Sec B\n', (v) => ({ ...(v as object), attachments: ['Sec B', 'Sec A'] }), 0, expand);
    expect([moved.text, moved.problems]).toEqual(['kind: Template\nname: T\nattachments:\n  - Sec B\n  - ${var.sec}  # ours\n', []]);
    const flowMoved = edit('kind: Template\nname: T\nattachments: [\n  "${var.sec}",  # ours\n  Sec B\n]\n', (v) => ({ ...(v as object), attachments: ['Sec B', 'Sec A'] }), 0, expand);
    expect([flowMoved.text, flowMoved.problems]).toEqual(['kind: Template\nname: T\nattachments: [\n  Sec B,\n  "${var.sec}",  # ours\n]\n', []]);
    expect(() => edit('kind: Template\nname: T\nattachments:\n  - &s ${var.sec}\n  - Sec B\n', (v) => ({ ...(v as object), attachments: ['Sec B', 'Sec A'] }), 0, expand)).toThrow('live moved ${var.sec} elsewhere in the list at /attachments, and docket does not move a placeholder; move it by hand');
    // An item holding one, moved and changed live, would be written anew with its value: refused whole (probe XH-1).
    const fees = 'fees:\n  # usage fee\n  - description: ${var.sec} usage\n    cost: 5\n  - description: Monthly\n    cost: 50\n';
    expect(() => edit(fees, () => ({ fees: [{ description: 'Monthly', cost: 50 }, { description: 'Sec A usage', cost: 7 }] }), 0, expand)).toThrow('live moved the item holding ${var.sec} usage elsewhere in the list at /fees, or changed it with one that came, and docket does not write a placeholder anew; edit the list by hand');
    // With a third key alike, as the probe's fee items were.
    const typed = fees.replace(/- description/g, '- fee_type: usage\n    description');
    expect(() => edit(typed, () => ({ fees: [{ fee_type: 'usage', description: 'Monthly', cost: 50 }, { fee_type: 'usage', description: 'Sec A usage', cost: 7 }] }), 0, expand)).toThrow('docket does not write a placeholder anew');
    // Taken out with nothing like it come, it goes, as an object live deleted does.
    expect(edit(fees, () => ({ fees: [{ description: 'Monthly', cost: 50 }, { description: 'Training', cost: 900 }] }), 0, expand).text).toBe('fees:\n  - description: Monthly\n    cost: 50\n  - description: Training\n    cost: 900\n');
    // Moved unchanged, it moves as written, its placeholder with it.
    expect(edit(fees, () => ({ fees: [{ description: 'Monthly', cost: 50 }, { description: 'Sec A usage', cost: 5 }] }), 0, expand).text).toBe('fees:\n  - description: Monthly\n    cost: 50\n  # usage fee\n  - description: ${var.sec} usage\n    cost: 5\n');
  });

  it('edits a mapping with a quoted `<<` key as one with a key of that text, not a merge (probe PK-1)', () => {
    const text = 'kind: Template\nname: T\nparameters:\n  underlying_agreement_val:\n    "<<": f\n    k: v\n';
    const changed = edit(text, (v) => setAt(v, '/parameters/underlying_agreement_val/k', 'w'));
    expect(changed).toEqual({ text: text.replace('k: v', 'k: w'), problems: [] });
    const other = edit(text, (v) => setAt(v, '/parameters/underlying_agreement_val/<<', 'g'));
    expect(other.text).toBe(text.replace('"<<": f', '"<<": g'));
  });

  it('writes no value over a placeholder a merge key gives: live differing from it, or having none, is said', () => {
    const expand = (t: string) => t.replace('${var.company}', 'Acme').replace('${var.mail}', 'alice@acme.example');
    const text = 'kind: Playbook\nname: M\nrules:\n  - &base\n    name: A\n    actions: Do ${var.company} things\n    reviewer: ${var.mail}\n  - <<: *base\n    name: B\n';
    const changed = edit(text, (v) => setAt(setAt(v, '/rules/1/actions', 'Do Acme things now'), '/rules/1/reviewer', 'alice@acme.example'), 0, expand);
    expect(changed.text).toBe(text);
    expect(changed.problems).toEqual([{ document: 0, pointer: '/rules/1/actions', line: 8, written: 'Do ${var.company} things', wanted: 'Do Acme things now', merged: true }]);
    const cleared = edit(text, (v) => {
      const rules = (v as { rules: Record<string, unknown>[] }).rules;
      const { reviewer: _, ...b } = rules[1]!;
      return { ...(v as object), rules: [rules[0], b] };
    }, 0, expand);
    expect(cleared.text).toBe(text);
    expect(cleared.problems.map((p) => [p.pointer, p.wanted])).toEqual([['/rules/1/reviewer', null]]);
  });

  it('adds after a last line that has no line break on lines of its own, and leaves that line without one when it stays last', () => {
    const flow = 'kind: PlaybookTest\ncases:\n  - name: one\n    expect: { flags: { count: { max: 0 } } }';
    const added = edit(flow, (v) => ({ ...(v as object), cases: [...(v as { cases: unknown[] }).cases, { name: 'two' }] }));
    expect(added.text).toBe(`${flow}\n  - name: two\n`);
    const crlf = flow.replace(/\n/g, '\r\n');
    expect(edit(crlf, (v) => ({ ...(v as object), cases: [...(v as { cases: unknown[] }).cases, { name: 'two' }] })).text).toBe(`${crlf}\r\n  - name: two\r\n`);
    const block = 'kind: Playbook\nname: NDA\nrules:\n  - name: A\n    actions: x';
    // The last line rewritten is a line of the edit's, ended as the file's lines are.
    expect(edit(block, (v) => setAt(v, '/rules/0/actions', 'y')).text).toBe('kind: Playbook\nname: NDA\nrules:\n  - name: A\n    actions: "y"\n');
    expect(edit(`\uFEFF${block}`, (v) => setAt(v, '/name', 'MSA')).text).toBe(`\uFEFF${block.replace('NDA', 'MSA')}`);
  });

  it('writes text that starts with a line break with no spaces on the block\'s first, empty line, in a new block and in one the file had (probe DG-5)', () => {
    const text = 'kind: Playbook\nname: N\ndescription: one line\nrules:\n  - name: R\n    actions: |  # kept\n        ACCEPT\n';
    const live = { kind: 'Playbook', name: 'N', description: '\nStarts blank\n', rules: [{ name: 'R', actions: '\n\nACCEPT\n  indented\n' }] };
    const result = edit(text, () => live);
    expect(result.text).toBe('kind: Playbook\nname: N\ndescription: |\n\n  Starts blank\nrules:\n  - name: R\n    actions: |  # kept\n\n\n        ACCEPT\n          indented\n');
    expect(documentValues(result.text!)[0]).toEqual(live);
  });

  it('rewrites a scalar in its own style, keeping the comment after it and every other byte', () => {
    const { text } = edit(PLAYBOOK, (v) => setAt(setAt(v, '/name', 'Inbound NDAs'), '/description', "NDAs we're sent"));
    expect(text).toBe(PLAYBOOK.replace('name: Inbound NDA   #', 'name: Inbound NDAs   #').replace("description: 'NDAs we receive'", "description: 'NDAs we''re sent'"));
  });

  it('keeps the comment on the key\'s line where a value comes, goes, or leaves a block', () => {
    expect(edit('kind: P\ndescription:   # TODO write one\nname: x\n', (v) => setAt(v, '/description', 'Now described')).text).toBe('kind: P\ndescription: Now described   # TODO write one\nname: x\n');
    expect(edit('kind: P\nactions: |   # c4\n  old\nname: x\n', (v) => setAt(v, '/actions', 'zero\u200bwidth\n')).text).toBe('kind: P\nactions: "zero\\u200bwidth\\n" # c4\nname: x\n');
    expect(edit('kind: P\nrules:   # one rule\n  - name: a\nname: x\n', (v) => setAt(v, '/rules', [])).text).toBe('kind: P\nrules: []   # one rule\nname: x\n');
  });

  it('empties a list up to its last item\'s own comments, keeping the blank line and comment after it (probe IE-1)', () => {
    const text = 'kind: Playbook\nname: P\nrules:\n  - name: R1\n    actions: ACCEPT\n    # about R1\n\n# about the description\ndescription: x\n';
    expect(edit(text, (v) => setAt(v, '/rules', [])).text).toBe('kind: Playbook\nname: P\nrules: []\n\n# about the description\ndescription: x\n');
    // At the end of the document too.
    expect(edit('kind: Playbook\nname: P\nrules:\n  - name: R1\n    actions: ACCEPT\n\n# the end\n', (v) => setAt(v, '/rules', [])).text).toBe('kind: Playbook\nname: P\nrules: []\n\n# the end\n');
  });

  it('writes a block mapping whose every key goes as `{}`, not a key with no value, which reads as null (probe IF-3)', () => {
    const text = 'kind: Organization\nreview:   # ours\n  # who reviews\n  default_reviewer: alice@acme.example\n    # about alice\n\n# the other service\nagreements:\n  city: Berlin\n';
    expect(edit(text, (v) => setAt(v, '/review/default_reviewer', undefined)).text).toBe('kind: Organization\nreview: {}   # ours\n\n# the other service\nagreements:\n  city: Berlin\n');
    expect(edit('kind: Organization\nreview:\n  default_reviewer: a@b.example\n', (v) => setAt(v, '/review/default_reviewer', undefined)).text).toBe('kind: Organization\nreview: {}\n');
    // A key that stays keeps the mapping in block style.
    expect(edit('kind: Organization\nreview:\n  name: Acme\n  default_reviewer: a@b.example\n', (v) => setAt(v, '/review/default_reviewer', undefined)).text).toBe('kind: Organization\nreview:\n  name: Acme\n');
    // A placeholder stays, said once (probe IH-5).
    const kept = edit('kind: Organization\nreview:\n  default_reviewer: ${var.lead}\n', (v) => setAt(v, '/review/default_reviewer', undefined));
    expect(kept.text).toBe('kind: Organization\nreview:\n  default_reviewer: ${var.lead}\n');
    expect(kept.problems).toHaveLength(1);
  });

  it('writes out a merge that gives a key which must go where null would say something else, not `key: null` (probe IG-2)', () => {
    const take = (text: string, absent: boolean) => {
      const value = documentValue(parseForEdit(text)[0]!);
      return editYaml(text, { documents: new Map([[0, setAt(value, '/review/default_reviewer', undefined)]]), ...(absent ? { absentAt: (_: number, pointer: string) => pointer === '/review/default_reviewer' } : {}) }).text;
    };
    expect(take('kind: Organization\nreview:\n  <<: {default_reviewer: a@b.example}\n', true)).toBe('kind: Organization\nreview: {}\n');
    expect(take('kind: Organization\nreview:\n  <<: {default_reviewer: a@b.example, name: Acme}\n', true)).toBe('kind: Organization\nreview:\n  name: Acme\n');
    expect(take('kind: Organization\nreview: {<<: {default_reviewer: a@b.example}}\n', true)).toBe('kind: Organization\nreview: {}\n');
    // Where null says none as absence does, the merge stays and the key is written null, as before.
    expect(take('kind: Organization\nreview:\n  <<: {default_reviewer: a@b.example}\n', false)).toBe('kind: Organization\nreview:\n  default_reviewer: null\n  <<: {default_reviewer: a@b.example}\n');
    // A placeholder the merge gives is never taken out: it stays, and is said (probe IH-1).
    for (const text of ['kind: Organization\nreview:\n  <<: {default_reviewer: "${var.lead}"}\n', 'kind: Organization\nreview:\n  name: Acme\n  <<:\n    default_reviewer: ${var.lead}\n']) {
      const value = documentValue(parseForEdit(text)[0]!);
      const result = editYaml(text, { documents: new Map([[0, setAt(value, '/review/default_reviewer', undefined)]]), absentAt: () => true });
      expect(result.text).toBe(text);
      expect(result.problems).toEqual([expect.objectContaining({ pointer: '/review/default_reviewer', written: '${var.lead}' })]);
    }
  });

  it('writes invisible and direction characters as escapes in double quotes, wherever the value goes', () => {
    const { text } = edit(PLAYBOOK, (v) => {
      let out = setAt(v, '/name', 'Inbound NDA\u200b');
      out = setAt(out, '/description', 'x\u202ey');
      out = setAt(out, '/rules/0/actions', 'ACCEPT\u2066 all\nNEEDS REVIEW');
      out = setAt(out, '/rules/1/tags_like/b', 'a\u200bb');
      return setAt(out, '/rules/1/owner', 'z\u200fz');
    });
    expect(text).toContain('name: "Inbound NDA\\u200b"   # the name reviewers see\n');
    expect(text).toContain('description: "x\\u202ey"\n');
    // Multi-line: a line of the file per line of text, each ending in `\n` and an escaped line break.
    expect(text).toContain('    actions: "ACCEPT\\u2066 all\\n\\\n      NEEDS REVIEW"\n');
    expect(text).toContain('b: "a\\u200bb"');
    expect(text).toContain('owner: "z\\u200fz"\n');
    expect(text).not.toMatch(/[\u200b\u200f\u202e\u2066]/);
    // Past the Basic Multilingual Plane too (a tag character), and what else prints as nothing (a combining grapheme joiner).
    const astral = edit(PLAYBOOK, (v) => setAt(v, '/description', 'a\u{E0041}b\u034fc')).text!;
    expect(astral).toContain('description: "a\\U000e0041b\\u034fc"');
    expect(documentValues(astral)[0]).toMatchObject({ description: 'a\u{E0041}b\u034fc' });
  });

  it('writes multi-line text that must be quoted a line of the file per line of text, and it reads back exactly', () => {
    for (const value of ['one\u200b\ntwo\nthree', '  lead\u200b\n   indented\n\ttab\n\n"q" \\ end  \nlast\n\n', '\nstarts with a break\u200b']) {
      const { text } = edit(PLAYBOOK, (v) => setAt(v, '/rules/0/actions', value));
      expect(documentValues(text!)[0], JSON.stringify(value)).toMatchObject({ rules: [{ actions: value }, {}] });
      // One line of the file per line of text (final line breaks end the last line).
      const written = /actions: ("[^]*?[^\\]")\n/.exec(text!)![1]!;
      expect(written.split('\n'), JSON.stringify(value)).toHaveLength(value.replace(/\n+$/, '').split('\n').length);
    }
  });

  it('keeps quoted text that held lines quoted, on one line as the file wrote it, and the escapes it wrote (probes KZ-1, KZ-4)', () => {
    const file = 'kind: Playbook\nname: Mini\ndescription: "a\\nb"   # note\nrules:\n  - name: Q\n    actions: "Sender\\u00a0Co\\tX"\n';
    const { text } = edit(file, (v) => setAt(setAt(v, '/description', 'a\nc\nd'), '/rules/0/actions', 'Sender\u00a0Co Ltd\tX\u00a0'));
    expect(text).toBe(file.replace('"a\\nb"', '"a\\nc\\nd"').replace('"Sender\\u00a0Co\\tX"', '"Sender\\u00a0Co Ltd\\tX\\u00a0"'));
    expect(documentValues(text!)[0]).toMatchObject({ description: 'a\nc\nd', rules: [{ actions: 'Sender\u00a0Co Ltd\tX\u00a0' }] });
    // Written over lines, it stays a line of the file per line of text; one-line quoted text that gains lines is a block.
    const spread = 'name: Mini\ndescription: "a\\n\n  b"\nnotes: "one"\n';
    const gained = edit(spread, (v) => setAt(setAt(v, '/description', 'a\nc'), '/notes', 'one\ntwo')).text!;
    expect(gained).toBe('name: Mini\ndescription: "a\\n\\\n  c"\nnotes: |-\n  one\n  two\n');
    // An escape of printable ASCII is kept as text: escaping it everywhere broke the quotes and other escapes (SR74-1).
    for (const [file, value] of [['a: "the \\u0022Term\\u0022 clause"\n', 'the "Term" clause of 2 years'], ['a: "c:\\x5cdir"\n', 'c:\\dir2'], ['a: "trail\\x20"\n', 'two words ']] as const) {
      const { text: written } = edit(file, () => ({ a: value }));
      expect(documentValues(written!)[0], file).toEqual({ a: value });
    }
    expect(edit('a: "trail\\x20"\n', () => ({ a: 'two words ' })).text).toBe('a: "two words "\n');
    // An escaped backslash before `u00a0` is text, not an escape the file wrote.
    expect(edit('a: "x\\\\u00a0"\n', () => ({ a: 'x\u00a0y' })).text).toBe('a: "x\u00a0y"\n');
  });

  it("keeps an emoji's own selector and joiner as written (❤️, 👩‍💻): a block stays a block", () => {
    const { text } = edit(PLAYBOOK, (v) => setAt(v, '/rules/0/actions', 'ACCEPT one\nACCEPT two ❤\ufe0f\nASK 👩\u200d💻 👩🏽\u200d💻 1\ufe0f\u20e3\n'));
    expect(text).toContain('    actions: |\n      ACCEPT one\n      ACCEPT two ❤\ufe0f\n      ASK 👩\u200d💻 👩🏽\u200d💻 1\ufe0f\u20e3\n');
    // Not where they dress nothing, nor a tag character.
    const stray = edit(PLAYBOOK, (v) => setAt(v, '/description', 'a\ufe0f b\u200dc 🏴\u{E0067}')).text!;
    expect(stray).toContain('description: "a\\ufe0f b\\u200dc 🏴\\U000e0067"');
  });

  it('writes a boolean where the file has quoted text as the boolean (validate then says the file cannot hold it), a number quoted as before', () => {
    expect(edit('a: "Recipient"\nb: "01067"\n', (v) => setAt(setAt(v, '/a', true), '/b', 1068)).text).toBe('a: true\nb: "1068"\n');
  });

  it('keeps a number quoted only as digits that read back as it: 5e-7 and a number past 2^53 go plain (probe EH-1)', () => {
    expect(edit('a: "2"\nb: "24"\nc: "1"\n', (v) => setAt(setAt(setAt(v, '/a', 5e-7), '/b', 12345678901234567890), '/c', 0.25)).text).toBe('a: 5e-7\nb: 12345678901234567000\nc: "0.25"\n');
  });

  it('writes text cleared in a block as "", not an empty block (which reads back as a line break)', () => {
    const { text } = edit(PLAYBOOK, (v) => setAt(v, '/rules/0/actions', ''));
    expect(text).toContain('    actions: ""\n    reviewer: alice@acme.example\n');
    expect(documentValues(text!)[0]).toMatchObject({ rules: [{ actions: '' }, {}] });
    // So is text of only spaces, which a block would hold as a blank line.
    for (const header of ['|-', '>-', '|']) {
      const block = `a: ${header}\n  line1\n  line2\nb: 1\n`;
      expect(edit(block, (v) => setAt(v, '/a', '  ')).text).toBe('a: "  "\nb: 1\n');
    }
  });

  it('keeps a block a block, with its chomping, and changes only the lines of text that changed', () => {
    const { text } = edit(PLAYBOOK, (v) =>
      setAt(setAt(v, '/rules/0/actions', 'ACCEPT a term of up to 3 years\nCOUNTERPROPOSE 18 months when longer\n'), '/rules/1/actions', 'ACCEPT Delaware or New York'),
    );
    expect(text).toBe(PLAYBOOK.replace('COUNTERPROPOSE 2 years', 'COUNTERPROPOSE 18 months').replace('ACCEPT Delaware\n', 'ACCEPT Delaware or New York\n'));
  });

  it('adds a key where the key order puts it, and removes one with its line', () => {
    const order = ['name', 'description', 'actions', 'questions', 'generate_summary', 'reviewer', 'internal_notes'];
    const { text } = edit(PLAYBOOK, (v) => setAt(setAt(v, '/rules/0/description', 'How long it lasts', order), '/rules/0/reviewer', undefined));
    expect(text).toBe(PLAYBOOK.replace('  - name: Term\n', '  - name: Term\n    description: How long it lasts\n').replace('    reviewer: alice@acme.example\n', ''));
  });

  it('removes a key with the comment lines right above it, which would read as the next key\'s, and only those (probe NY-2)', () => {
    const text = 'kind: Template\nname: Mutual NDA\nparameters:\n  term: 2\n  # kept secret for this many years\n  # (legal asked for 3)\n  confidentiality_period: 3\n\n  # what it is for\n  purpose: Evaluating\n';
    expect(edit(text, (v) => setAt(v, '/parameters/confidentiality_period', undefined)).text).toBe('kind: Template\nname: Mutual NDA\nparameters:\n  term: 2\n\n  # what it is for\n  purpose: Evaluating\n');
    // A comment indented into the key above is that key's: kept.
    const inner = 'parameters:\n  fees:\n    - cost: 1\n    # the last fee\n  term: 2\n  purpose: x\n';
    expect(edit(inner, (v) => setAt(v, '/parameters/term', undefined)).text).toBe('parameters:\n  fees:\n    - cost: 1\n    # the last fee\n  purpose: x\n');
    // Above a mapping's first key, the file's header and modeline stay (second read SR79-4).
    const header = '# yaml-language-server: $schema=../schemas/playbook.schema.json\n# Owned by legal ops\ndescription: Header test\nkind: Playbook\nname: H\n';
    expect(edit(header, (v) => setAt(v, '/description', undefined)).text).toBe('# yaml-language-server: $schema=../schemas/playbook.schema.json\n# Owned by legal ops\nkind: Playbook\nname: H\n');
    const nested = 'parameters:\n  # the parameters legal set\n  term: 2\n  purpose: x\n';
    expect(edit(nested, (v) => setAt(v, '/parameters/term', undefined)).text).toBe('parameters:\n  # the parameters legal set\n  purpose: x\n');
  });

  it('adds a key beside one written as an explicit key (`? name`), at its siblings\' column (probe NH-3)', () => {
    const explicit = 'kind: Playbook\nname: A\nrules:\n  - ? name\n    : a1\n    actions: ACCEPT a1\n';
    const { text } = edit(explicit, (v) => setAt(v, '/rules/0/questions', 'What?', ['name', 'description', 'actions', 'questions']));
    expect(text).toBe(explicit.replace('    actions: ACCEPT a1\n', '    actions: ACCEPT a1\n    questions: What?\n'));
  });

  it('adds a key after a renamed_from that follows its predecessor, and before other keys live does not have (a playbook\'s rules)', () => {
    const order = ['name', 'description', 'actions', 'reviewer'];
    const text = 'rules:\n  - name: Term\n    renamed_from: [Old]\n    actions: x\n';
    expect(edit(text, (v) => setAt(v, '/rules/0/description', 'd', order)).text).toBe('rules:\n  - name: Term\n    renamed_from: [Old]\n    description: d\n    actions: x\n');
    const playbook = 'kind: Playbook\nname: P\nrules:\n  - name: R\n';
    expect(edit(playbook, (v) => setAt(v, '/description', 'D', ['kind', 'name', 'description'])).text).toBe('kind: Playbook\nname: P\ndescription: D\nrules:\n  - name: R\n');
    // The file writes its name after its rules: the description still goes before the rules, above their comment (probe OH-4).
    const nameLast = 'kind: Playbook\n# the rules\nrules:\n  - name: R\nname: P\n';
    expect(edit(nameLast, (v) => setAt(v, '/description', 'D', ['kind', 'name', 'description', 'rules'])).text).toBe('kind: Playbook\ndescription: D\n# the rules\nrules:\n  - name: R\nname: P\n');
  });

  it('inserts a list item above the comment of the item it goes before, and removes one', () => {
    const rule = { name: 'Residuals', actions: 'REJECT residuals clauses\nFLAG them\n' };
    const inserted = edit(PLAYBOOK, (v) => insertAt(v, '/rules', 0, rule)).text!;
    expect(inserted).toBe(PLAYBOOK.replace('  # Term: agreed with sales\n', '  - name: Residuals\n    actions: |\n      REJECT residuals clauses\n      FLAG them\n  # Term: agreed with sales\n'));
    const appended = edit(PLAYBOOK, (v) => insertAt(v, '/rules', 'end', { name: 'Residuals', actions: 'REJECT' })).text!;
    expect(appended).toBe(`${PLAYBOOK}  - name: Residuals\n    actions: REJECT\n`);
    const removed = edit(PLAYBOOK, (v) => setAt(v, '/rules/1', undefined)).text!;
    expect(removed).toBe(PLAYBOOK.slice(0, PLAYBOOK.indexOf('  - name: Law')));
    // An item goes with the comment lines right above it, as an item added goes above them.
    const first = edit(PLAYBOOK, (v) => setAt(v, '/rules/0', undefined)).text!;
    expect(first).toBe(PLAYBOOK.slice(0, PLAYBOOK.indexOf('  # Term')) + PLAYBOOK.slice(PLAYBOOK.indexOf('  - name: Law')));
    // And with the comment lines after its last line indented into it: they are its own, not the next item's.
    const inner = 'rules:\n  - name: K1\n    actions: ACCEPT k1\n    # note about K1 only\n  # about K2\n  - name: K2\n    actions: ACCEPT k2\n';
    expect(edit(inner, (v) => setAt(v, '/rules/0', undefined)).text).toBe('rules:\n  # about K2\n  - name: K2\n    actions: ACCEPT k2\n');
      // Never also the next item's: the one after it removed keeps them, or both go (probe IB-1, IB-2).
    const trailing = 'rules:\n  - name: R1\n    actions: one\n  - name: R2\n    actions: two\n    # trailing in R2\n  - name: R3\n    actions: three\n';
    expect(edit(trailing, (v) => setAt(v, '/rules/2', undefined)).text).toBe('rules:\n  - name: R1\n    actions: one\n  - name: R2\n    actions: two\n    # trailing in R2\n');
    expect(edit(trailing, (v) => setAt(setAt(v, '/rules/2', undefined), '/rules/1', undefined)).text).toBe('rules:\n  - name: R1\n    actions: one\n');
    // An item added after them or before the next goes below them, not inside the item they belong to.
    const added = { name: 'N', actions: 'new' };
    expect(edit(trailing, (v) => insertAt(v, '/rules', 2, added)).text).toBe(trailing.replace('  - name: R3', '  - name: "N"\n    actions: new\n  - name: R3'));
    const last = 'rules:\n  - name: R1\n    actions: one\n    # trailing in R1\n';
    expect(edit(last, (v) => insertAt(v, '/rules', 'end', added)).text).toBe(`${last}  - name: "N"\n    actions: new\n`);
  });

  it('renames a list item in place, keeping its comments, beside an item that comes', () => {
    const text = 'rules:\n  - name: Term\n    actions: ACCEPT   # agreed\n  - name: Law\n    actions: ACCEPT Delaware\n    generate_summary: false   # short clauses\n';
    const renamed = edit(text, (v) => insertAt(setAt(v, '/rules/1/name', 'Choice of law'), '/rules', 1, { name: 'Residuals', actions: 'REJECT' })).text;
    expect(renamed).toBe(text.replace('  - name: Law\n', '  - name: Residuals\n    actions: REJECT\n  - name: Choice of law\n'));
    // An item that went and one that came with nothing in common are not a rename.
    const replaced = edit(text, (v) => setAt(v, '/rules/1', { name: 'Residuals', actions: 'REJECT' })).text;
    expect(replaced).toBe('rules:\n  - name: Term\n    actions: ACCEPT   # agreed\n  - name: Residuals\n    actions: REJECT\n');
  });

  it('gives a key added to a flow mapping written a key a line a line of its own, its comma after, comments staying with their keys (probe OH-5)', () => {
    const text = 'kind: Playbook\nname: QQ\nrules: [\n  {\n    name: a,        # rule a\n    actions: x\n  },\n]\n';
    const out = edit(text, (v) => setAt(v, '/rules/0/description', 'added', ['name', 'description', 'actions'])).text!;
    expect(out).toBe('kind: Playbook\nname: QQ\nrules: [\n  {\n    name: a,        # rule a\n    description: added,\n    actions: x\n  },\n]\n');
    expect(documentValues(out)[0]).toEqual({ kind: 'Playbook', name: 'QQ', rules: [{ name: 'a', description: 'added', actions: 'x' }] });
    // After the last key, which had no comma: it gets one.
    const last = edit(text, (v) => setAt(v, '/rules/0/reviewer', 'bob@acme.example', ['name', 'actions', 'reviewer'])).text!;
    expect(last).toBe('kind: Playbook\nname: QQ\nrules: [\n  {\n    name: a,        # rule a\n    actions: x,\n    reviewer: bob@acme.example,\n  },\n]\n');
  });

  it('gives a key added to a flow mapping written a key a line, its braces on the first and last keys\' lines, a line of its own (probe VF-7)', () => {
    const text = 'kind: Playbook\nname: QQ\nrules:\n  - { name: a,   # rule a\n      actions: x }\n';
    const order = ['name', 'description', 'actions', 'reviewer', 'internal_notes'];
    const between = edit(text, (v) => setAt(v, '/rules/0/description', 'd', order)).text!;
    expect(between).toBe('kind: Playbook\nname: QQ\nrules:\n  - { name: a,   # rule a\n      description: d,\n      actions: x }\n');
    const two = (v: unknown) => setAt(setAt(v, '/rules/0/reviewer', 'b@x.example', order), '/rules/0/internal_notes', 'n', order);
    expect(edit(text, two).text).toBe('kind: Playbook\nname: QQ\nrules:\n  - { name: a,   # rule a\n      actions: x,\n      reviewer: b@x.example,\n      internal_notes: "n" }\n');
    // A comma before the `}` stays the last key's; CRLF and a comment after the `}` are kept.
    expect(edit(text.replace('x }', 'x, }'), two).text).toBe('kind: Playbook\nname: QQ\nrules:\n  - { name: a,   # rule a\n      actions: x,\n      reviewer: b@x.example,\n      internal_notes: "n", }\n');
    const crlf = text.replace('x }', 'x }   # c').replace(/\n/g, '\r\n');
    expect(edit(crlf, (v) => setAt(v, '/rules/0/reviewer', 'b@x.example', order)).text).toBe(crlf.replace('x }', 'x,\r\n      reviewer: b@x.example }'));
    // The last key taken out as one is added: the new key goes after the one before it, on its line (second read SR95-1).
    const swapped = edit(text.replace('x }', 'x,\n      reviewer: r }'), (v) => setAt(setAt(v, '/rules/0/reviewer', undefined), '/rules/0/internal_notes', 'n', order)).text;
    expect(swapped).toBe('kind: Playbook\nname: QQ\nrules:\n  - { name: a,   # rule a\n      actions: x, internal_notes: "n" }\n');
    // Written on one line, it stays one.
    const inline = 'kind: Playbook\nname: QQ\nrules:\n  - { name: a, actions: x }\n';
    expect(edit(inline, (v) => setAt(v, '/rules/0/reviewer', 'b@x.example', order)).text).toBe('kind: Playbook\nname: QQ\nrules:\n  - { name: a, actions: x, reviewer: b@x.example }\n');
  });

  it('renames the item a `renamed_from` names, though an item deleted before it is as alike to the new one (probe OH-2)', () => {
    const text = 'rules:\n  # rule a: obsolete\n  - name: a\n    actions: base   # a\'s actions\n  # rule b: kept\n  - name: b   # b\'s name\n    actions: base\n';
    const renamed = edit(text, (v) => setAt(v, '/rules', [{ name: 'b2', renamed_from: ['b'], actions: 'base' }])).text;
    expect(renamed).toBe("rules:\n  # rule b: kept\n  - name: b2   # b's name\n    renamed_from:\n      - b\n    actions: base\n");
  });

  it('writes the line breaks the file uses (CRLF) in what it adds or rewrites', () => {
    const text = PLAYBOOK.replace(/\n/g, '\r\n');
    const { text: out } = edit(text, (v) => insertAt(setAt(v, '/rules/0/actions', 'ACCEPT up to 2 years\nFLAG longer\nREJECT forever\n'), '/rules', 'end', { name: 'New', actions: 'A\nB\n' }));
    expect(out).toBe(`${PLAYBOOK.replace('COUNTERPROPOSE 2 years when longer\n', 'FLAG longer\n      REJECT forever\n').replace('ACCEPT a term of up to 3 years', 'ACCEPT up to 2 years')}  - name: New\n    actions: |\n      A\n      B\n`.replace(/\n/g, '\r\n'));
    // One stray CRLF line in an LF file: what is added is LF, as the file mostly is (probe BA-2).
    const mixed = 'kind: Playbook\r\nname: Mixed\nrules:\n  - name: m1\n    actions: a\n';
    expect(edit(mixed, (v) => insertAt(v, '/rules', 'end', { name: 'New', actions: 'A\nB\n' })).text).toBe(`${mixed}  - name: New\n    actions: |\n      A\n      B\n`);
  });

  it('quotes a text that would read as a tag, without a warning on stderr', async () => {
    const warnings: unknown[] = [];
    const listen = (w: unknown): void => void warnings.push(w);
    process.on('warning', listen);
    try {
      const { text: out } = edit(PLAYBOOK, (v) => setAt(v, '/name', '!bang'));
      expect(out).toContain('name: "!bang"   # the name reviewers see');
      // Node emits warnings on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off('warning', listen);
    }
    expect(warnings).toEqual([]);
  });

  it('in a file YAML 1.1 readers read too (a definition), quotes what either version would read as something else', () => {
    const definition = 'title: Consulting\nfields:\n  start:\n    label: Start\n    options: [Fixed]\n';
    const change = (v: unknown) => insertAt(setAt(setAt(v, '/fields/start/label', 'yes'), '/fields/end', { label: 'on', default: '2026-01-01', n: 'y' }), '/fields/start/options', 'end', 'off');
    const both = editYaml(definition, { documents: new Map([[0, change(documentValue(parseForEdit(definition)[0]!))]]), bothVersions: true }).text;
    expect(both).toBe('title: Consulting\nfields:\n  start:\n    label: "yes"\n    options: [Fixed, "off"]\n  end:\n    label: "on"\n    default: "2026-01-01"\n    "n": "y"\n');
    // `=` is YAML 1.1's value key, which PyYAML refuses.
    expect(editYaml('label: x\n', { documents: new Map([[0, { label: '=' }]]), bothVersions: true }).text).toBe('label: "="\n');
    // A document under `%YAML 1.1` is such a file too.
    const y11 = '%YAML 1.1\n---\nkind: Playbook\nrules:\n  - {name: y1, actions: plain}\n';
    for (const word of ['yes', 'on', 'Off', 'y', '2026-01-01', '1_000', '0b101', '1:20']) {
      expect(edit(y11, (v) => setAt(v, '/rules/0/actions', word)).text).toBe(y11.replace('actions: plain', `actions: "${word}"`));
    }
    // Elsewhere (docket reads YAML 1.2 only) too, what YAML 1.1 tools read as a boolean or a date, as export writes it (probes JH-6, KC-4).
    expect(edit(definition, change).text).toBe('title: Consulting\nfields:\n  start:\n    label: "yes"\n    options: [Fixed, "off"]\n  end:\n    label: "on"\n    default: "2026-01-01"\n    "n": "y"\n');
  });

  it('edits inside flow collections with their commas', () => {
    const { text } = edit(PLAYBOOK, (v) => setAt(setAt(v, '/rules/1/tags_like/b', 'y z'), '/rules/1/tags_like/c', 3));
    expect(text).toBe(PLAYBOOK.replace('{ a: 1, b: "x" }', '{ a: 1, b: "y z", c: 3 }'));
    const list = 'kind: X\nitems: [a, b, c]\n';
    expect(edit(list, (v) => setAt(v, '/items', ['a', 'c', 'd'])).text).toBe('kind: X\nitems: [a, c, d]\n');
  });

  it('takes any run of items out of a flow collection, the last two included, leaving its commas right', () => {
    const map = 'kind: X\nm: {x: 1, y: 2, z: 3, w: 4}\n';
    const keep = (...keys: string[]) => (v: unknown) => setAt(v, '/m', Object.fromEntries(keys.map((k) => [k, { x: 1, y: 2, z: 3, w: 4 }[k]])));
    expect(edit(map, keep('x', 'y')).text).toBe('kind: X\nm: {x: 1, y: 2}\n');
    expect(edit(map, keep('x')).text).toBe('kind: X\nm: {x: 1}\n');
    expect(edit(map, keep('z', 'w')).text).toBe('kind: X\nm: {z: 3, w: 4}\n');
    expect(edit(map, keep('x', 'w')).text).toBe('kind: X\nm: {x: 1, w: 4}\n');
    expect(edit(map, keep('y')).text).toBe('kind: X\nm: {y: 2}\n');
    expect(edit(map, keep()).text).toBe('kind: X\nm: {}\n');
    const list = 'kind: X\nitems: [1, 2, 3, 4]\n';
    expect(edit(list, (v) => setAt(v, '/items', [1, 2])).text).toBe('kind: X\nitems: [1, 2]\n');
    expect(edit(list, (v) => setAt(v, '/items', [1])).text).toBe('kind: X\nitems: [1]\n');
    expect(edit(list, (v) => setAt(v, '/items', [2, 4])).text).toBe('kind: X\nitems: [2, 4]\n');
    expect(edit(list, (v) => setAt(v, '/items', [1, 5])).text).toBe('kind: X\nitems: [1, 5]\n');
    // An item a line: each goes with its line and comment, and no comment moves to another item.
    const lines = 'kind: X\nitems: [\n  1,   # one\n  2,   # two\n  3    # three\n]\n';
    expect(edit(lines, (v) => setAt(v, '/items', [1])).text).toBe('kind: X\nitems: [\n  1,   # one\n]\n');
    expect(edit(lines, (v) => setAt(v, '/items', [1, 3])).text).toBe('kind: X\nitems: [\n  1,   # one\n  3    # three\n]\n');
    expect(edit(lines, (v) => setAt(v, '/items', [2])).text).toBe('kind: X\nitems: [\n  2,   # two\n]\n');
    // The comment lines right above an item are its own, as in a block list: they go with it, and
    // an item added before it goes above them (probe IU-2).
    const above = 'kind: X\nitems: [\n  # about one\n  1,\n  # about two\n  2,   # two\n  # about three\n  3,\n]\n';
    expect(edit(above, (v) => setAt(v, '/items', [1])).text).toBe('kind: X\nitems: [\n  # about one\n  1,\n]\n');
    expect(edit(above, (v) => setAt(v, '/items', [2, 3])).text).toBe('kind: X\nitems: [\n  # about two\n  2,   # two\n  # about three\n  3,\n]\n');
    expect(edit(above, (v) => setAt(v, '/items', [1, 5, 2, 3])).text).toBe('kind: X\nitems: [\n  # about one\n  1,\n  5,\n  # about two\n  2,   # two\n  # about three\n  3,\n]\n');
    // (A value in an item's place is that item changed: its comments stay.)
    expect(edit(above, (v) => setAt(v, '/items', [1, 5, 3])).text).toBe('kind: X\nitems: [\n  # about one\n  1,\n  # about two\n  5,   # two\n  # about three\n  3,\n]\n');
    const rules = 'kind: P\nrules: [\n  # about O1\n  { name: O1, actions: o1 },\n  # about O2\n  { name: O2, actions: o2 },   # o2 tail\n  # about O3\n  { name: O3, actions: o3 },\n]\n';
    const rule = (name: string) => ({ name, actions: name.toLowerCase() });
    const set = (...names: string[]) => (v: unknown) => setAt(v, '/rules', names.map(rule));
    expect(edit(rules, set('O1')).text).toBe('kind: P\nrules: [\n  # about O1\n  { name: O1, actions: o1 },\n]\n');
    // Made where one went (before the next one kept, or last), and all made anew.
    expect(edit(rules, set('O1', 'N', 'O3')).text).toBe('kind: P\nrules: [\n  # about O1\n  { name: O1, actions: o1 },\n  { name: "N", actions: "n" },\n  # about O3\n  { name: O3, actions: o3 },\n]\n');
    expect(edit(rules, set('O1', 'O2', 'N')).text).toBe('kind: P\nrules: [\n  # about O1\n  { name: O1, actions: o1 },\n  # about O2\n  { name: O2, actions: o2 },   # o2 tail\n  { name: "N", actions: "n" },\n]\n');
    expect(edit(rules, set('N', 'M')).text).toBe('kind: P\nrules: [\n  { name: "N", actions: "n" },\n  { name: M, actions: m },\n]\n');
    // Not above the item before: its quoted text may go on on a line that starts with `#` (third read TR68-7).
    const quoted = 'kind: X\nitems: [\n  "one\n  # not a comment",\n  # about two\n  2,\n]\n';
    expect(edit(quoted, (v) => setAt(v, '/items', ['one # not a comment'])).text).toBe('kind: X\nitems: [\n  "one\n  # not a comment",\n]\n');
    expect(edit(quoted, (v) => setAt(v, '/items', ['one # not a comment', 5, 2])).text).toBe('kind: X\nitems: [\n  "one\n  # not a comment",\n  5,\n  # about two\n  2,\n]\n');
    // Items sharing a line: the comment after the last one kept stays with it, the bracket at the column the items had (probe PU-1).
    const shared = 'kind: X\nitems: [1, 2, # two\n  3, 4]\n';
    expect(edit(shared, (v) => setAt(v, '/items', [1, 2])).text).toBe('kind: X\nitems: [1, 2 # two\n  ]\n');
  });

  it('takes a pair that ends a line of a flow mapping over several lines out with the comma before it, the next line kept as it was (probe BA-3)', () => {
    const text = 'rule: {name: fm, actions: x, questions: q,\n  description: d}\n';
    const without = (drop: string[]) => edit(text, (v) => ({ rule: Object.fromEntries(Object.entries((v as { rule: Record<string, string> }).rule).filter(([k]) => !drop.includes(k))) })).text;
    expect(without(['questions'])).toBe('rule: {name: fm, actions: x,\n  description: d}\n');
    // Two at a line's end go together; one inside its line is taken as before.
    expect(without(['actions', 'questions'])).toBe('rule: {name: fm,\n  description: d}\n');
    expect(without(['actions'])).toBe('rule: {name: fm, questions: q,\n  description: d}\n');
  });

  it('writes a new flow item spaced as the file spaces its brackets', () => {
    const tight = 'kind: P\nrules: [{name: a, actions: x}]\nfees: {}\n';
    expect(edit(tight, (v) => insertAt(v, '/rules', 'end', { name: 'b', actions: 'y' })).text).toBe('kind: P\nrules: [{name: a, actions: x}, {name: b, actions: "y"}]\nfees: {}\n');
    const padded = 'kind: P\nrules: [ { name: a, actions: x } ]\n';
    expect(edit(padded, (v) => insertAt(v, '/rules', 'end', { name: 'b', actions: 'y' })).text).toBe('kind: P\nrules: [ { name: a, actions: x }, { name: b, actions: "y" } ]\n');
    // Spaced inside its maps, not after its own bracket: the maps it gets are spaced.
    const mixed = 'kind: P\nrules: [{ name: a, actions: x }]\n';
    expect(edit(mixed, (v) => insertAt(v, '/rules', 'end', { name: 'b', actions: 'y' })).text).toBe('kind: P\nrules: [{ name: a, actions: x }, { name: b, actions: "y" }]\n');
    const map = 'kind: P\nlimits: {min: 0}\n';
    expect(edit(map, (v) => setAt(v, '/limits/max', { a: 1 })).text).toBe('kind: P\nlimits: {min: 0, max: {a: 1}}\n');
  });

  it('writes text of several lines inside a flow collection as one "…" line with \\n escapes, whatever its length (probe VA-2)', () => {
    const long = 'ACCEPT a term of up to 3 years\nCOUNTERPROPOSE 2 years';
    const two = { name: 'Two', actions: long };
    const added = (text: string) => edit(text, (v) => insertAt(v, '/rules', 'end', two));
    const written = '{name: Two, actions: "ACCEPT a term of up to 3 years\\nCOUNTERPROPOSE 2 years"}';
    expect(added('kind: P\nrules: [\n  {name: One, actions: A1},\n]\n')).toMatchObject({ text: `kind: P\nrules: [\n  {name: One, actions: A1},\n  ${written},\n]\n`, problems: [] });
    expect(added('kind: P\nrules: [{name: One, actions: A1}]\n')).toMatchObject({ text: `kind: P\nrules: [{name: One, actions: A1}, ${written}]\n`, problems: [] });
    expect(added('kind: P\nrules:\n  [{name: One, actions: A1}]\n')).toMatchObject({ text: `kind: P\nrules:\n  [{name: One, actions: A1}, ${written}]\n`, problems: [] });
    // A key added to a flow mapping in a block list, and a value changed in one.
    const inList = 'kind: P\nrules:\n  - {name: One, actions: A1}\n';
    expect(edit(inList, (v) => setAt(v, '/rules/0/questions', long))).toMatchObject({ text: 'kind: P\nrules:\n  - {name: One, actions: A1, questions: "ACCEPT a term of up to 3 years\\nCOUNTERPROPOSE 2 years"}\n', problems: [] });
    expect(edit(inList, (v) => setAt(v, '/rules/0/actions', long))).toMatchObject({ text: 'kind: P\nrules:\n  - {name: One, actions: "ACCEPT a term of up to 3 years\\nCOUNTERPROPOSE 2 years"}\n', problems: [] });
  });

  it('writes out an alias of a placeholder whose anchor the edit takes out, as that placeholder (probe VA-1)', () => {
    const expand = (s: string) => s.replace('${env.TICKET_ID}', 'T-1').replace('${var.region}', 'eu');
    const rules = (anchored: string) => `kind: Playbook\nname: A\nrules:\n  - name: Src\n    internal_notes: &n ${anchored}\n  - name: User\n    internal_notes: *n\n`;
    const userOnly = (notes: string) => (v: unknown) => ({ ...(v as object), rules: [{ name: 'User', internal_notes: notes }] });
    for (const [anchored, written] of [['"${env.TICKET_ID}"', '${env.TICKET_ID}'], ['${env.TICKET_ID}', '${env.TICKET_ID}'], ['"pre ${var.region} post"', 'pre ${var.region} post']] as const) {
      // Wanted as written, or as it expands: the placeholder stays, nothing to say.
      for (const wanted of [written, expand(written)]) {
        expect(edit(rules(anchored), userOnly(wanted), 0, expand)).toMatchObject({ text: `kind: Playbook\nname: A\nrules:\n  - name: User\n    internal_notes: ${written}\n`, problems: [] });
      }
    }
    // Changed live: the placeholder is still never overwritten, and said so; the file still reads.
    const changed = edit(rules('"${env.TICKET_ID}"'), userOnly('edited in the app'), 0, expand);
    expect(changed.text).toBe('kind: Playbook\nname: A\nrules:\n  - name: User\n    internal_notes: ${env.TICKET_ID}\n');
    expect(changed.problems).toMatchObject([{ written: '${env.TICKET_ID}', wanted: 'edited in the app' }]);
    // Inside a flow collection, quoted: `{` and `}` would end it there (second read SR94-4).
    const inFlow = 'kind: Playbook\nname: A\nrules:\n  - name: Src\n    internal_notes: &n "${env.TICKET_ID}"\n  - {name: User, internal_notes: *n, tags: [*n, b]}\n';
    const flowWanted = (v: unknown) => ({ ...(v as object), rules: [{ name: 'User', internal_notes: '${env.TICKET_ID}', tags: ['${env.TICKET_ID}', 'b'] }] });
    expect(edit(inFlow, flowWanted, 0, expand)).toMatchObject({ text: 'kind: Playbook\nname: A\nrules:\n  - {name: User, internal_notes: "${env.TICKET_ID}", tags: ["${env.TICKET_ID}", b]}\n', problems: [] });
    // An item added to a flow list, quoted as well (second read SR94B-4).
    expect(edit('kind: Template\nname: T\nattachments: [a, b]\n', (v) => insertAt(v, '/attachments', 'end', 'x,y'))).toMatchObject({ text: 'kind: Template\nname: T\nattachments: [a, b, "x,y"]\n', problems: [] });
  });

  it('fills a key written with no value in a flow mapping in its place, whatever the value (probe VF-3)', () => {
    const set = (rule: string, value: string) => edit(`kind: Playbook\nname: P\nrules:\n  - ${rule}\n`, (v) => setAt(v, '/rules/0/description', value));
    const cases: [string, string][] = [
      ['{name: a, actions: x, description: }', '{name: a, actions: x, description: D }'],
      ['{name: a, actions: x, description}', '{name: a, actions: x, description: D}'],
      ['{name: a, actions: x, description:}', '{name: a, actions: x, description: D}'],
      ['{name: a, actions: x, ? description}', '{name: a, actions: x, description: D}'],
      ['{name: a, actions: x, description: , questions: q}', '{name: a, actions: x, description: D, questions: q}'],
      // With a tag or anchor and no value (second read SR94C-1).
      ['{name: a, description: !!str , actions: x}', '{name: a, description: D, actions: x}'],
      ['{name: a, description: &d , actions: x}', '{name: a, description: D, actions: x}'],
      ['{name: a, actions: x, description: !!null}', '{name: a, actions: x, description: D}'],
    ];
    for (const [rule, written] of cases) expect(set(rule, 'D'), rule).toMatchObject({ text: `kind: Playbook\nname: P\nrules:\n  - ${written}\n`, problems: [] });
    expect(set('{name: a, description: , actions: x}', 'two\nlines, here')).toMatchObject({ text: 'kind: Playbook\nname: P\nrules:\n  - {name: a, description: "two\\nlines, here", actions: x}\n', problems: [] });
  });

  it('keeps the comment of a key written with a tag and no value when it gets one (probe VF-4)', () => {
    const text = 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: A\n    questions: !!null   # c2\n    internal_notes: !!str   # c3\n';
    const set = (v: unknown) => setAt(setAt(v, '/rules/0/questions', 'q1'), '/rules/0/internal_notes', 'n');
    expect(edit(text, set)).toMatchObject({ text: 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: A\n    questions: q1   # c2\n    internal_notes: "n"   # c3\n', problems: [] });
  });

  it('fills a block mapping\'s explicit key with no value (`? description`) as `description: …` where the `?` was (probe VF-3)', () => {
    const rule = (lines: string) => `kind: Playbook\nname: QQ\nrules:\n${lines}`;
    const set = (pointer: string, value: unknown) => (v: unknown) => setAt(v, pointer, value);
    expect(edit(rule('  - name: a\n    ? description   # c\n    actions: x\n'), set('/rules/0/description', 'd'))).toMatchObject({ text: rule('  - name: a\n    description: d   # c\n    actions: x\n'), problems: [] });
    // Its `:` on the next line, a tag there and its comment; a block value; the first key of a list item.
    expect(edit(rule('  - ? description\n    : !!str   # k\n    name: a\n    actions: x\n'), set('/rules/0/description', 'two\nlines\n'))).toMatchObject({ text: rule('  - description: |   # k\n      two\n      lines\n    name: a\n    actions: x\n'), problems: [] });
    expect(edit(rule('  - name: a\n    actions: x\n    ? questions\n'), set('/rules/0/questions', ['q1']))).toMatchObject({ text: rule('  - name: a\n    actions: x\n    questions:\n      - q1\n'), problems: [] });
    // With a value written, a collection instead of it.
    expect(edit(rule('  - name: a\n    ? questions\n    : old   # k\n    actions: x\n'), set('/rules/0/questions', ['q1', 'q2']))).toMatchObject({ text: rule('  - name: a\n    questions:   # k\n      - q1\n      - q2\n    actions: x\n'), problems: [] });
    // The comments of both lines kept; a tag or anchor before the key; a blank line before the `:` (second read SR95-3, SR95-4).
    expect(edit(rule('  - name: a\n    ? description   # c1\n    :   # c2\n    actions: x\n'), set('/rules/0/description', 'd')).text).toBe(rule('  - name: a\n    description: d   # c1   # c2\n    actions: x\n'));
    expect(edit(rule('  - name: a\n    ? questions   # c1\n    : old\n    actions: x\n'), set('/rules/0/questions', ['q1'])).text).toBe(rule('  - name: a\n    questions:   # c1\n      - q1\n    actions: x\n'));
    expect(edit(rule('  - name: a\n    ? !!str description\n    actions: x\n'), set('/rules/0/description', 'd')).text).toBe(rule('  - name: a\n    !!str description: d\n    actions: x\n'));
    expect(edit(rule('  - name: a\n    ? &k description\n\n    :\n    actions: x\n'), set('/rules/0/description', 'd')).text).toBe(rule('  - name: a\n    &k description: d\n    actions: x\n'));
    // Blanks after the `:`; a comment line before it, kept (second read SR95B-3).
    expect(edit(rule('  - name: a\n    ? description\n    : \n    actions: x\n'), set('/rules/0/description', 'd')).text).toBe(rule('  - name: a\n    description: d\n    actions: x\n'));
    expect(edit(rule('  - name: a\n    ? description   # c1\n    # c3\n    :   # c2\n    actions: x\n'), set('/rules/0/description', 'd')).text).toBe(rule('  - name: a\n    description: d   # c1   # c3   # c2\n    actions: x\n'));
  });

  it('gives an item added to a flow list written an item a line a line of its own, beside inserts and removals (probe FN)', () => {
    const lines = 'kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Y, actions: y},   # why\n]\n';
    const rule = (name: string) => ({ name, actions: name.toLowerCase() });
    const set = (...names: string[]) => (v: unknown) => setAt(v, '/rules', names.map(rule));
    expect(edit(lines, set('X', 'Y', 'Z')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Y, actions: y},   # why\n  {name: Z, actions: z},\n]\n');
    expect(edit(lines, set('W', 'X', 'Y')).text).toBe('kind: P\nrules: [\n  {name: W, actions: w},\n  {name: X, actions: x},\n  {name: Y, actions: y},   # why\n]\n');
    expect(edit(lines, set('X', 'M', 'Y')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: M, actions: m},\n  {name: Y, actions: y},   # why\n]\n');
    // Two at once, in order; an insert where an item goes; an append after a last item taken out.
    expect(edit(lines, set('X', 'M', 'N', 'Y', 'Z1', 'Z2')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: M, actions: m},\n  {name: "N", actions: "n"},\n  {name: Y, actions: y},   # why\n  {name: Z1, actions: z1},\n  {name: Z2, actions: z2},\n]\n');
    expect(edit(lines, set('M', 'Y')).text).toBe('kind: P\nrules: [\n  {name: M, actions: m},\n  {name: Y, actions: y},   # why\n]\n');
    expect(edit(lines, set('X', 'Z')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Z, actions: z},\n]\n');
    expect(edit(lines, set('Z')).text).toBe('kind: P\nrules: [\n  {name: Z, actions: z},\n]\n');
    // The last item without its comma: it gets one, kept; taken out, the new ones take its line (second read).
    const bare = 'kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Y, actions: y}   # why\n]\n';
    expect(edit(bare, set('X', 'Y', 'Z')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Y, actions: y},   # why\n  {name: Z, actions: z},\n]\n');
    expect(edit(bare, set('X', 'Y', 'Z1', 'Z2')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Y, actions: y},   # why\n  {name: Z1, actions: z1},\n  {name: Z2, actions: z2},\n]\n');
    expect(edit(bare, set('X', 'M', 'Y')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: M, actions: m},\n  {name: Y, actions: y}   # why\n]\n');
    expect(edit(bare, set('X', 'Z')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Z, actions: z},\n]\n');
    const three = 'kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Y, actions: y},\n  {name: W, actions: w}\n]\n';
    expect(edit(three, set('X', 'Y', 'Q')).text).toBe('kind: P\nrules: [\n  {name: X, actions: x},\n  {name: Y, actions: y},\n  {name: Q, actions: q},\n]\n');
    // CRLF files get CRLF.
    const crlf = lines.replace(/\n/g, '\r\n');
    expect(edit(crlf, set('X', 'Y', 'Z')).text).toBe('kind: P\r\nrules: [\r\n  {name: X, actions: x},\r\n  {name: Y, actions: y},   # why\r\n  {name: Z, actions: z},\r\n]\r\n');
  });

  it('counts an item with an anchor on its own line as an item a line: an item added beside it gets its own line, and neither an overlap nor the anchor moved (probes IN-1, IN-2)', () => {
    const anchored = 'kind: P\nrules: [\n    &a {name: A, actions: "ACCEPT a"},\n    {<<: *a, name: B},\n    {name: C, actions: "ACCEPT c"}\n]\n';
    const rule = (name: string) => ({ name, actions: `ACCEPT ${name.toLowerCase()}` });
    const [a, b, c, d] = [rule('A'), { ...rule('A'), name: 'B' }, rule('C'), rule('D')];
    const set = (...rules: object[]) => (v: unknown) => setAt(v, '/rules', rules);
    // C deleted and D made in the app: one edit of the file, not "overlapping YAML edits".
    expect(edit(anchored, set(a, b, d)).text).toBe('kind: P\nrules: [\n    &a {name: A, actions: "ACCEPT a"},\n    {<<: *a, name: B},\n    {name: D, actions: ACCEPT d},\n]\n');
    expect(edit(anchored, set(a, b, c, d)).text).toBe('kind: P\nrules: [\n    &a {name: A, actions: "ACCEPT a"},\n    {<<: *a, name: B},\n    {name: C, actions: "ACCEPT c"},\n    {name: D, actions: ACCEPT d},\n]\n');
    // Added before an anchored item: the anchor stays on its item.
    const later = 'kind: P\nrules: [\n    {name: A, actions: "ACCEPT a"},\n    &c {name: C, actions: "ACCEPT c"}\n]\n';
    expect(edit(later, set(a, d, c)).text).toBe('kind: P\nrules: [\n    {name: A, actions: "ACCEPT a"},\n    {name: D, actions: ACCEPT d},\n    &c {name: C, actions: "ACCEPT c"}\n]\n');
    expect(edit(later, set(d)).text).toBe('kind: P\nrules: [\n    {name: D, actions: ACCEPT d},\n]\n');
  });

  it('an empty list becomes a block when it gets an item, and a list that loses its last item becomes []', () => {
    const empty = 'kind: Playbook\nname: P\nrules: []   # none yet\n';
    expect(edit(empty, (v) => insertAt(v, '/rules', 'end', { name: 'A', actions: 'X' })).text).toBe('kind: Playbook\nname: P\nrules:   # none yet\n  - name: A\n    actions: X\n');
    const one = 'kind: Playbook\nname: P\nrules:\n  - name: A\n    actions: X\nafter: 1\n';
    expect(edit(one, (v) => setAt(v, '/rules', [])).text).toBe('kind: Playbook\nname: P\nrules: []\nafter: 1\n');
  });

  it('writes an alias out where its value must differ from its anchor, and only there', () => {
    const text = 'kind: P\na: &shared ACCEPT\nb: *shared\nc: *shared\n';
    expect(edit(text, (v) => setAt(v, '/b', 'REJECT')).text).toBe('kind: P\na: &shared ACCEPT\nb: REJECT\nc: *shared\n');
    // The anchor's own value changes: the aliases that must keep the old value get it written out.
    expect(edit(text, (v) => setAt(v, '/a', 'FLAG')).text).toBe('kind: P\na: &shared FLAG\nb: ACCEPT\nc: ACCEPT\n');
    expect(edit(text, (v) => setAt(setAt(v, '/a', 'FLAG'), '/c', 'FLAG')).text).toBe('kind: P\na: &shared FLAG\nb: ACCEPT\nc: *shared\n');
  });

  it('reads an alias as the last anchor of its name before it, in a long list that shares one (probe QI-2)', () => {
    const rules = Array.from({ length: 600 }, (_, i) => (i === 0 ? '  - name: R0\n    actions: &a ACCEPT' : i === 200 ? '  - name: R200\n    actions: &a FLAG' : `  - name: R${i}\n    actions: *a`));
    const text = `kind: Playbook\nname: P\nrules:\n${rules.join('\n')}\n`;
    const out = edit(text, (v) => setAt(v, '/rules/400/actions', 'REJECT')).text!;
    const lines = out.split('\n');
    // Only the edited rule is written out; before the second anchor the aliases read ACCEPT, after it FLAG.
    expect(lines.filter((l) => !l.includes('*a') && l.startsWith('    actions:'))).toEqual(['    actions: &a ACCEPT', '    actions: &a FLAG', '    actions: REJECT']);
    expect(documentValue(parseForEdit(out)[0]!)).toEqual(setAt(documentValue(parseForEdit(text)[0]!), '/rules/400/actions', 'REJECT'));
    const value = documentValue(parseForEdit(out)[0]!) as { rules: { actions: string }[] };
    expect([value.rules[199]!.actions, value.rules[201]!.actions]).toEqual(['ACCEPT', 'FLAG']);
  });

  it('an item inserted before an anchor leaves its aliases and merges as they are', () => {
    const rules = 'rules:\n  - name: Term\n    description: &shared Shared text\n  - name: Cap\n    description: *shared\n  - &base\n    name: Law\n    actions: ACCEPT Germany\n  - <<: *base\n    name: Courts\n';
    const { text } = edit(rules, (v) => insertAt(v, '/rules', 0, { name: 'Extra', actions: 'ACCEPT extra' }));
    expect(text).toBe(rules.replace('rules:\n', 'rules:\n  - name: Extra\n    actions: ACCEPT extra\n'));
    const middle = edit(rules, (v) => insertAt(v, '/rules', 2, { name: 'Extra' })).text;
    expect(middle).toBe(rules.replace('  - &base', '  - name: Extra\n  - &base'));
  });

  it('writes an alias out where the edit takes its anchor out: a key or an item removed, or a value cleared', () => {
    expect(edit('a: &x one\nb: *x\n', (v) => setAt(v, '/a', undefined)).text).toBe('b: one\n');
    const rules = 'rules:\n  - name: T\n    notes: &n N\n  - name: U\n    notes: *n\n';
    expect(edit(rules, (v) => setAt(v, '/rules', [(v as { rules: unknown[] }).rules[1]])).text).toBe('rules:\n  - name: U\n    notes: "N"\n');
    expect(edit(rules, (v) => setAt(v, '/rules/0/notes', undefined)).text).toBe('rules:\n  - name: T\n  - name: U\n    notes: "N"\n');
    // A key taken out before a value that holds another anchor and an alias of the key's (probe OH-1).
    const beside = 'kind: Playbook\nname: QQ\ndescription: &d Shared\nrules:\n  - name: a\n    actions: &x x\n  - name: b\n    actions: y\n    internal_notes: *d\n';
    expect(edit(beside, (v) => setAt(v, '/description', undefined)).text).toBe('kind: Playbook\nname: QQ\nrules:\n  - name: a\n    actions: &x x\n  - name: b\n    actions: y\n    internal_notes: Shared\n');
  });

  it('edits a mapping whose key is an alias (`*k : R2`) as the key its anchor names, and writes it out when the anchor goes', () => {
    const rules = 'rules:\n  - &k name: R1\n    notes: A\n  - *k : R2\n    notes: B\n';
    expect(edit(rules, (v) => setAt(v, '/rules/1/name', 'R3')).text).toBe(rules.replace('*k : R2', '*k : R3'));
    expect(edit(rules, (v) => setAt(v, '/rules/1/renamed_from', ['R2'])).text).toBe(`${rules}    renamed_from:\n      - R2\n`);
    // The item holding the anchor taken out: the alias would not parse, so the key is written as it reads.
    expect(edit(rules, (v) => setAt(v, '/rules', [(v as { rules: unknown[] }).rules[1]])).text).toBe('rules:\n  - name: R2\n    notes: B\n');
    expect(edit('a: &k b\nm:\n  *k : 1\n', (v) => ({ m: (v as { m: unknown }).m })).text).toBe('m:\n  b: 1\n');
  });

  it('lines a key added beside an anchored first key up with the item, and takes an anchored key out whole (probe ET, second read)', () => {
    const rules = 'rules:\n  - &k2 name: R4\n    actions: four\n';
    expect(edit(rules, (v) => setAt(v, '/rules/0/description', 'd')).text).toBe(`${rules}    description: d\n`);
    expect(edit(rules, (v) => setAt(v, '/rules/0/renamed_from', ['R3'])).text).toBe(`${rules}    renamed_from:\n      - R3\n`);
    expect(edit('m:\n  &k name: 1\n  other: 2\n', () => ({ m: { other: 2 } })).text).toBe('m:\n  other: 2\n');
    expect(edit('- &a name: 1\n  &b other: 2\n', () => [{ other: 2 }]).text).toBe('- &b other: 2\n');
  });

  it('a key written `null:` is the name null, as docket reads it: an edit beside it reads back as wanted (probe ZK-1)', () => {
    const text = 'definition:\n  title: T\n  fields:\n    null:\n      label: Nil  # keep me\n    zz:\n      label: Z\n';
    expect(documentValue(parseForEdit(text)[0]!)).toEqual({ definition: { title: 'T', fields: { null: { label: 'Nil' }, zz: { label: 'Z' } } } });
    expect(edit(text, (v) => setAt(v, '/definition/title', 'T2')).text).toBe(text.replace('title: T\n', 'title: T2\n'));
    expect(edit(text, (v) => setAt(v, '/definition/fields/zz/label', 'Z2')).text).toBe(text.replace('label: Z\n', 'label: Z2\n'));
    expect(documentValue(parseForEdit('a:\n  ~: 1\n')[0]!)).toEqual({ a: { '~': 1 } });
  });

  it('a merged key cleared on an item that a removal above it moved is written `null`, and the edit reads as wanted (probe ZH-1)', () => {
    const text = 'kind: Playbook\nname: Mn2\nrules:\n  - &m0\n    name: R0\n    actions: a0\n    description: d0\n  - name: R2\n    actions: x\n  - name: R4\n    <<: *m0\n';
    const wanted = (v: unknown) => {
      const rules = (v as { rules: Record<string, unknown>[] }).rules;
      return { ...(v as object), rules: [rules[0], { name: 'R4', actions: 'a0' }] };
    };
    expect(edit(text, wanted).text).toBe('kind: Playbook\nname: Mn2\nrules:\n  - &m0\n    name: R0\n    actions: a0\n    description: d0\n  - name: R4\n    description: null\n    <<: *m0\n');
  });

  it('a key cleared over a merged value is written `null` where it is, and a key added beside it goes after it (probe IQ-3)', () => {
    const text = 'rules:\n  - &base\n    name: r1\n    description: base\n  - <<: *base\n    name: r2\n    description: own\n';
    const cleared = (v: unknown) => setAt(setAt(v, '/rules/1/description', undefined), '/rules/1/internal_notes', 'other');
    expect(edit(text, cleared).text).toBe(text.replace('description: own\n', 'description: null\n    internal_notes: other\n'));
    // A block mapping or list cleared so is `null` on its key's line, with its comment as written
    // (as an emptied one is `{}` or `[]`): the keys after it, or added, stay on lines of their own (SR67-20, TR67-4).
    const block = 'rules:\n  - &base\n    name: r1\n    meta: {a: 1}\n  - <<: *base\n    name: r2\n    meta:\n      a: 2\n      b: 3\n';
    const meta = (v: unknown) => setAt(setAt(v, '/rules/1/meta', undefined), '/rules/1/internal_notes', 'other');
    expect(edit(block, meta).text).toBe(block.replace('    meta:\n      a: 2\n      b: 3\n', '    meta: null\n    internal_notes: other\n'));
    const b = (v: unknown) => ({ ...(v as object), b: { k: 1 } });
    expect(edit('a: &a {m: 1}\nb:\n  <<: *a\n  m:\n    x: 1\n  k: 1\n', b).text).toBe('a: &a {m: 1}\nb:\n  <<: *a\n  m: null\n  k: 1\n');
    expect(edit('a: &a {m: 1}\nb:\n  m: !!map\n    x: 1\n  <<: *a\n  k: 1\n', b).text).toBe('a: &a {m: 1}\nb:\n  m: null\n  <<: *a\n  k: 1\n');
    expect(edit('a: &a {m: 1}\nb:\n  <<: *a\n  m:  # keep\n  - 1\n', (v) => ({ ...(v as object), b: {} })).text).toBe('a: &a {m: 1}\nb:\n  <<: *a\n  m: null  # keep\n');
  });

  it('a merge of an anchor the edit takes out goes, and what it gave is written in the mapping', () => {
    const rules = 'rules:\n  - &base\n    name: Law\n    actions: ACCEPT Germany\n  - <<: *base\n    name: Courts\n    questions: Which?\n';
    expect(edit(rules, (v) => ({ rules: [(v as { rules: unknown[] }).rules[1]] })).text).toBe('rules:\n  - name: Courts\n    actions: ACCEPT Germany\n    questions: Which?\n');
    expect(edit('a: &x { k: 1, j: 2 }\nb:\n  <<: *x\n  j: 3\n', (v) => ({ b: (v as { b: unknown }).b })).text).toBe('b:\n  k: 1\n  j: 3\n');
  });

  it('writes a merge out when its anchor gains a key the mapping must not have, rather than a null docket would refuse', () => {
    const text = 'kind: P\nrules:\n  - &base\n    name: A\n    actions: x\n  - <<: *base\n    name: B\n';
    // A's generate_summary turned off live; B keeps the default, which a key cannot say absent.
    expect(edit(text, (v) => setAt(v, '/rules/0/generate_summary', false)).text).toBe('kind: P\nrules:\n  - &base\n    name: A\n    actions: x\n    generate_summary: false\n  - name: B\n    actions: x\n');
    // The anchor gives a placeholder: the mapping written out keeps it.
    const held = text.replace('actions: x', 'actions: ${var.acts}');
    const expand = (t: string) => t.replace('${var.acts}', 'x');
    const kept = edit(held, (v) => setAt(v, '/rules/0/generate_summary', false), 0, expand);
    expect(kept.text).toBe('kind: P\nrules:\n  - &base\n    name: A\n    actions: ${var.acts}\n    generate_summary: false\n  - name: B\n    actions: ${var.acts}\n');
    // Wanted as written, the placeholder is no problem to report (probe ER).
    expect(kept.problems).toEqual([]);
    // B's inherited placeholder changed live too: kept, and said, not written over with the live text.
    const both = edit(held, (v) => setAt(setAt(v, '/rules/0/generate_summary', false), '/rules/1/actions', 'y'), 0, expand);
    expect(both.text).toBe('kind: P\nrules:\n  - &base\n    name: A\n    actions: ${var.acts}\n    generate_summary: false\n  - name: B\n    actions: ${var.acts}\n');
    expect(both.problems).toMatchObject([{ pointer: '/rules/1/actions', written: '${var.acts}', wanted: 'y' }]);
    // A renamed live: B never had a renamed_from.
    const renamed = edit(text, (v) => setAt(setAt(v, '/rules/0/name', 'A2'), '/rules/0/renamed_from', 'A')).text!;
    expect(renamed).toBe('kind: P\nrules:\n  - &base\n    name: A2\n    actions: x\n    renamed_from: A\n  - name: B\n    actions: x\n');
  });

  it('writes a merge of several anchors out when one of them goes', () => {
    const text = 'rules:\n  - &a {name: A, actions: act A, questions: qa}\n  - &b {name: B, actions: act B}\n  - <<: [*a, *b]\n    name: C\n';
    const rules = (v: unknown) => (v as { rules: unknown[] }).rules;
    expect(edit(text, (v) => ({ rules: [rules(v)[0], rules(v)[2]] })).text).toBe('rules:\n  - &a {name: A, actions: act A, questions: qa}\n  - name: C\n    actions: act A\n    questions: qa\n');
    // So when the anchor that stays gives a placeholder: an alias of nothing would not parse.
    const held = text.replace('questions: qa', 'questions: "${var.q}"');
    const expand = (t: string) => t.replace('${var.q}', 'qa');
    expect(edit(held, (v) => ({ rules: [rules(v)[0], rules(v)[2]] }), 0, expand).text).toBe('rules:\n  - &a {name: A, actions: act A, questions: "${var.q}"}\n  - name: C\n    actions: act A\n    questions: ${var.q}\n');
  });

  it('a merge key follows an anchor in a value of its own mapping as that value is edited', () => {
    expect(edit('x:\n  base: &s { k: 1 }\n  <<: *s\n', (v) => setAt(v, '/x/base/k', 2)).text).toBe('x:\n  base: &s { k: 2 }\n  k: 1\n  <<: *s\n');
  });

  it('gives a mapping its own key where a merged one must differ', () => {
    const text = 'kind: P\nrules:\n  - &base\n    name: A\n    reviewer: x@acme.example\n  - <<: *base\n    name: B\n';
    expect(edit(text, (v) => setAt(v, '/rules/1/reviewer', 'y@acme.example')).text).toBe(
      'kind: P\nrules:\n  - &base\n    name: A\n    reviewer: x@acme.example\n  - <<: *base\n    name: B\n    reviewer: y@acme.example\n',
    );
    expect(edit(text, (v) => setAt(v, '/rules/0/reviewer', 'y@acme.example')).text).toBe(
      'kind: P\nrules:\n  - &base\n    name: A\n    reviewer: y@acme.example\n  - <<: *base\n    name: B\n    reviewer: x@acme.example\n',
    );
  });

  it('never overwrites a ${var} or ${env} value: when its expansion is not what live holds, it is a problem', () => {
    const text = 'kind: P\nreviewer: ${var.legal_lead}\nother: x\n';
    const expand = (s: string) => s.replace('${var.legal_lead}', 'alice@acme.example');
    const same = edit(text, (v) => setAt(v, '/reviewer', 'alice@acme.example'), 0, expand);
    expect(same).toEqual({ text, problems: [] });
    const differs = edit(text, (v) => setAt(setAt(v, '/reviewer', 'bob@acme.example'), '/other', 'y'), 0, expand);
    expect(differs.text).toBe('kind: P\nreviewer: ${var.legal_lead}\nother: "y"\n');
    expect(differs.problems).toEqual([{ document: 0, pointer: '/reviewer', line: 2, written: '${var.legal_lead}', wanted: 'bob@acme.example' }]);
  });

  it('takes a quoted ${var} for the number it spells where numbers compare by value, not where types count', () => {
    const text = 'kind: Template\nfees:\n  - {description: Setup, cost: "${var.fee}"}\n  - {description: Monthly, cost: 20}\n';
    const expand = (t: string) => t.replace('${var.fee}', '100');
    const wanted = (v: unknown) => setAt(setAt(v, '/fees/0/cost', 100), '/fees/1/description', 'Monthly fee');
    expect(edit(text, wanted, 0, expand)).toEqual({ text: text.replace('Monthly,', 'Monthly fee,'), problems: [] });
    const exact = editYaml(text, { documents: new Map([[0, wanted(documentValue(parseForEdit(text)[0]!))]]), expand, exactTypes: () => true });
    expect(exact.problems.map((p) => p.pointer)).toEqual(['/fees/0/cost']);
  });

  it('keeps a ${var} value a later list item holds when an item before it is removed', () => {
    const text = 'kind: P\nrules:\n  - name: Holder\n    actions: hold\n  - name: VarRule\n    actions: "Escalate to ${var.lead} always"\n';
    const expand = (s: string) => s.replace('${var.lead}', 'alice');
    const out = edit(text, () => ({ kind: 'P', rules: [{ name: 'VarRule', actions: 'Escalate to qa always' }] }), 0, expand);
    expect(out.text).toBe('kind: P\nrules:\n  - name: VarRule\n    actions: "Escalate to ${var.lead} always"\n');
    expect(out.problems).toEqual([expect.objectContaining({ written: 'Escalate to ${var.lead} always', wanted: 'Escalate to qa always' })]);
  });

  it('leaves the other documents of the file byte for byte, and removes a whole document', () => {
    const text = `# head\nkind: A\nname: one\n---\n# second\nkind: B\nname: two\n---\nkind: C\nname: three\n`;
    expect(edit(text, (v) => setAt(v, '/name', 'TWO'), 1).text).toBe(text.replace('name: two', 'name: TWO'));
    expect(editYaml(text, { documents: new Map(), remove: new Set([1]) }).text).toBe('# head\nkind: A\nname: one\n---\nkind: C\nname: three\n');
    expect(editYaml(text, { documents: new Map(), remove: new Set([0]) }).text).toBe('---\n# second\nkind: B\nname: two\n---\nkind: C\nname: three\n');
    expect(editYaml('kind: A\n', { documents: new Map(), remove: new Set([0]) }).text).toBeNull();
    // Each document of a joined file starting with a byte-order mark: one mark is left at the start (probe QN-5).
    const marked = '\uFEFFkind: A\r\nname: one\r\n\uFEFF---\r\nkind: B\r\nname: two\r\n';
    expect(editYaml(marked, { documents: new Map(), remove: new Set([0]) }).text).toBe('\uFEFF---\r\nkind: B\r\nname: two\r\n');
  });

  it('takes the last pair or item out of a flow collection over several lines whose kept line ends in a comment, the closing bracket kept at its column (probe PU-1)', () => {
    const map = 'kind: Playbook\nname: FM\nrules:\n  - {name: M,\n     actions: m,   # cm\n     description: d}\n';
    const cleared = edit(map, (v) => {
      const [rule] = (v as { rules: Record<string, unknown>[] }).rules;
      const { description: _gone, ...rest } = rule!;
      return { ...(v as object), rules: [rest] };
    });
    expect(cleared.text).toBe('kind: Playbook\nname: FM\nrules:\n  - {name: M,\n     actions: m   # cm\n     }\n');
    const list = 'kind: Playbook\nname: FL\nrules: [\n  {name: A, actions: a},   # ca\n  {name: B, actions: b}]\n';
    const swapped = edit(list, (v) => ({ ...(v as object), rules: [{ name: 'A', actions: 'a' }, { name: 'C', actions: 'c' }] }));
    expect(swapped.problems).toEqual([]);
    expect(swapped.text).toContain('  {name: A, actions: a}');
    expect(swapped.text).toContain('# ca');
    expect(swapped.text).toContain('{name: C, actions: c}]');
    expect(swapped.text).not.toContain('name: B');
  });

  it('removes a document with the comments right above its `---`, and leaves the next one\'s above its own (probe PU-2)', () => {
    const text = 'kind: P\nname: First\n\n# Second: NDAs we send\n---\nkind: P\nname: Second\n\n# Third: NDAs we receive\n---\nkind: P\nname: Third\n';
    expect(editYaml(text, { documents: new Map(), remove: new Set([1]) }).text).toBe('kind: P\nname: First\n\n# Third: NDAs we receive\n---\nkind: P\nname: Third\n');
    expect(editYaml(text, { documents: new Map(), remove: new Set([0]) }).text).toBe('# Second: NDAs we send\n---\nkind: P\nname: Second\n\n# Third: NDAs we receive\n---\nkind: P\nname: Third\n');
    expect(editYaml(text, { documents: new Map(), remove: new Set([2]) }).text).toBe('kind: P\nname: First\n\n# Second: NDAs we send\n---\nkind: P\nname: Second\n\n');
    // After an explicit end marker too.
    const ended = 'kind: P\nname: First\n...\n# Second\n---\nkind: P\nname: Second\n';
    expect(editYaml(ended, { documents: new Map(), remove: new Set([0]) }).text).toBe('# Second\n---\nkind: P\nname: Second\n');
    // Right under a document's last line, no blank line between: that document's, whichever goes (probe QN-3).
    const trailing = 'kind: P\nname: K1\ndescription: current\n# description: old, kept for reference\n---\nkind: P\nname: K2\n';
    expect(editYaml(trailing, { documents: new Map(), remove: new Set([1]) }).text).toBe('kind: P\nname: K1\ndescription: current\n# description: old, kept for reference\n');
    expect(editYaml(trailing, { documents: new Map(), remove: new Set([0]) }).text).toBe('---\nkind: P\nname: K2\n');
    // A block scalar's last line starting with `#` is its text, not a comment above the next `---` (second read SR82-1).
    const block = 'kind: P\nname: First\nrules:\n  - name: R\n    actions: |\n      ACCEPT x\n      # one\n---\nkind: P\nname: Second\nrules:\n  - name: S\n    actions: |\n      ACCEPT y\n      # two\n---\nkind: P\nname: Third\n';
    expect(editYaml(block, { documents: new Map(), remove: new Set([1]) }).text).toBe('kind: P\nname: First\nrules:\n  - name: R\n    actions: |\n      ACCEPT x\n      # one\n---\nkind: P\nname: Third\n');
    expect(editYaml(block, { documents: new Map(), remove: new Set([0]) }).text).toBe('---\nkind: P\nname: Second\nrules:\n  - name: S\n    actions: |\n      ACCEPT y\n      # two\n---\nkind: P\nname: Third\n');
    expect(editYaml(block, { documents: new Map(), remove: new Set([2]) }).text).toBe(block.replace('---\nkind: P\nname: Third\n', ''));
  });

  it('keeps a block header\'s indicators in the order the file wrote them when they do not change (probe NQ-2)', () => {
    const text = 'kind: Playbook\nname: P\nrules:\n  - name: A8\n    actions: |-2\n        lead two\n      base\n';
    const { text: out } = edit(text, (v) => setAt(v, '/rules/0/actions', '  lead two\nbase\nmore'));
    expect(out).toBe(`${text}      more\n`);
  });

  it('removes a document with its own directives, and never the next one\'s, which that one is read by (probe NQ-1)', () => {
    const text = 'kind: Playbook\nname: First\n...\n%YAML 1.1\n---\nkind: Playbook\nname: Second\ngenerate_summary: no\n';
    expect(editYaml(text, { documents: new Map(), remove: new Set([0]) }).text).toBe('%YAML 1.1\n---\nkind: Playbook\nname: Second\ngenerate_summary: no\n');
    expect(editYaml(text, { documents: new Map(), remove: new Set([1]) }).text).toBe('kind: Playbook\nname: First\n...\n');
    // The marker that ended the removed one now ends the one before, which the directives need.
    const three = 'kind: A\n---\nkind: B\n...\n# the third reads YAML 1.1\n%YAML 1.1\n---\nkind: C\nx: on\n';
    expect(editYaml(three, { documents: new Map(), remove: new Set([1]) }).text).toBe('kind: A\n...\n# the third reads YAML 1.1\n%YAML 1.1\n---\nkind: C\nx: on\n');
    // Each document with a directive of its own: the middle one goes with its own, ended as before (probe TG-1).
    const each = (name: string) => `%YAML 1.2\n---\nkind: Playbook\nname: ${name}\n`;
    expect(editYaml(`${each('A')}...\n${each('B')}...\n${each('C')}`, { documents: new Map(), remove: new Set([1]) }).text).toBe(`${each('A')}...\n${each('C')}`);
    // An indented `...` ending a block scalar is its text, not the marker that ended its document (second read SR92-2).
    const dots = 'description: |\n  wait\n  ...\n---\nname: B\n...\n%YAML 1.2\n---\nname: C\n';
    expect(editYaml(dots, { documents: new Map(), remove: new Set([1]) }).text).toBe('description: |\n  wait\n  ...\n...\n%YAML 1.2\n---\nname: C\n');
    // An indented `%` line ending the document above is its text, not the next one's directive.
    const percent = 'kind: Playbook\nname: First\nrules:\n  - name: R2\n    actions: |\n      %x\n---\nkind: Playbook\nname: Second\n';
    expect(editYaml(percent, { documents: new Map(), remove: new Set([1]) }).text).toBe('kind: Playbook\nname: First\nrules:\n  - name: R2\n    actions: |\n      %x\n');
  });

  it("keeps the file's header (comments up to a blank line, the editor modeline) when its first document goes", () => {
    const members = '# Team members, managed by legal ops.\n# Keep sorted by e-mail.\n\n# Frank: counsel\nkind: Member\nemail: frank@acme.example\n---\nkind: Member\nemail: grace@acme.example\n';
    expect(editYaml(members, { documents: new Map(), remove: new Set([0]) }).text).toBe('# Team members, managed by legal ops.\n# Keep sorted by e-mail.\n\n---\nkind: Member\nemail: grace@acme.example\n');
    const modeline = '# yaml-language-server: $schema=../schemas/docket.schema.json\nkind: Member\nemail: frank@acme.example\n---\nkind: Member\nemail: grace@acme.example\n';
    expect(editYaml(modeline, { documents: new Map(), remove: new Set([0]) }).text).toBe('# yaml-language-server: $schema=../schemas/docket.schema.json\n---\nkind: Member\nemail: grace@acme.example\n');
    // Under the first document's directive: the directive goes with it, the header stays (probe OH-3).
    const directive = '%YAML 1.1\n# Owned by legal ops\n# yaml-language-server: $schema=../schemas/docket.schema.json\n\n---\nkind: Member\nemail: frank@acme.example\n---\nkind: Member\nemail: grace@acme.example\n';
    expect(editYaml(directive, { documents: new Map(), remove: new Set([0]) }).text).toBe('# Owned by legal ops\n# yaml-language-server: $schema=../schemas/docket.schema.json\n\n---\nkind: Member\nemail: grace@acme.example\n');
  });

  it("keeps the file's footer (comments a blank line, `...` or the editor modeline sets apart) when its last document goes (probe BA-1)", () => {
    const two = 'kind: Playbook\nname: P1\nrules: []\n---\nkind: Playbook\nname: P2\nrules: []\n';
    const remove = (text: string): string | null => editYaml(text, { documents: new Map(), remove: new Set([1]) }).text;
    expect(remove(`${two}\n# vim: set ft=yaml sw=2 et:\n`)).toBe('kind: Playbook\nname: P1\nrules: []\n\n# vim: set ft=yaml sw=2 et:\n');
    // Kept with its blank line, it stays the file's footer when the next last document goes too (second read SR100B-5).
    const three = `kind: Playbook\nname: P0\n---\n${two}\n# Owned by legal ops\n`;
    const once = editYaml(three, { documents: new Map(), remove: new Set([2]) }).text!;
    expect(once).toBe('kind: Playbook\nname: P0\n---\nkind: Playbook\nname: P1\nrules: []\n\n# Owned by legal ops\n');
    expect(editYaml(once, { documents: new Map(), remove: new Set([1]) }).text).toBe('kind: Playbook\nname: P0\n\n# Owned by legal ops\n');
    expect(editYaml(three, { documents: new Map(), remove: new Set([1, 2]) }).text).toBe('kind: Playbook\nname: P0\n\n# Owned by legal ops\n');
    // Without it after a `|+` block, whose text the blank line would join (second read SR100-7).
    expect(remove('a: |+\n  x\n---\nb: 2\n\n# footer\n')).toBe('a: |+\n  x\n# footer\n');
    expect(remove(`${two}# yaml-language-server: $schema=../schemas/docket.schema.json\n`)).toBe('kind: Playbook\nname: P1\nrules: []\n# yaml-language-server: $schema=../schemas/docket.schema.json\n');
    expect(remove(`${two}...\n# trailer after end marker\n`)).toBe('kind: Playbook\nname: P1\nrules: []\n# trailer after end marker\n');
    // Right under the contents, no blank line between: the document's own (a key commented out), gone with it.
    expect(remove(`${two}# questions: later\n`)).toBe('kind: Playbook\nname: P1\nrules: []\n');
    // A block scalar's line that starts with `#` is its text, not a footer.
    expect(remove('name: A\n---\nname: B\nactions: |\n  ACCEPT\n\n  # not a comment\n')).toBe('name: A\n');
  });

  it('turns a one-line value into a block when it gains lines, and a key with no value gets one', () => {
    const text = 'kind: P\nactions: ACCEPT\nnotes:\nlast: 1\n';
    expect(edit(text, (v) => setAt(setAt(v, '/actions', 'ACCEPT\nFLAG'), '/notes', 'n')).text).toBe('kind: P\nactions: |-\n  ACCEPT\n  FLAG\nnotes: "n"\nlast: 1\n');
  });

  it('writes what is new as deep as the file indents: text that becomes a block, a new key or item', () => {
    const text = 'kind: Playbook\nname: Four\nrules:\n    - name: Term\n      actions: |\n          ACCEPT a\n    - name: Plain\n      actions: one line\n';
    const out = edit(text, (v) => setAt(setAt(v, '/rules/1/actions', 'now\ntwo lines\n'), '/rules/2', { name: 'New', actions: 'x\ny\n' })).text;
    expect(out).toBe(`${text.replace('      actions: one line\n', '      actions: |\n          now\n          two lines\n')}    - name: New\n      actions: |\n          x\n          y\n`);
    // Items spaced after their dash (`-   name:`): a new one is spaced so too.
    const spaced = 'rules:\n    -   name: Term\n        actions: |\n            ACCEPT a\n';
    expect(edit(spaced, (v) => setAt(v, '/rules/1', { name: 'New', actions: 'x\ny\n', questions: 'q' })).text).toBe(`${spaced}    -   name: New\n        actions: |\n            x\n            y\n        questions: q\n`);
    // A list at column 0 says its step only by the padding after its dashes.
    const column0 = 'rules:\n-   name: R1\n    actions: ACCEPT one\n';
    expect(edit(column0, (v) => setAt(v, '/rules/0/actions', 'ACCEPT one\nCOUNTER two\n')).text).toBe('rules:\n-   name: R1\n    actions: |\n        ACCEPT one\n        COUNTER two\n');
    // A file of two spaces stays so.
    expect(edit('a:\n  b: one\n', (v) => setAt(v, '/a/b', 'one\ntwo\n')).text).toBe('a:\n  b: |\n    one\n    two\n');
  });

  it('keeps a block\'s lines as deep as the file wrote them', () => {
    const text = 'rules:\n    - name: A\n      actions: |\n          ACCEPT a\n\n          FLAG b\n    - name: B\n';
    expect(edit(text, (v) => setAt(v, '/rules/0/actions', 'ACCEPT a\nREJECT z\n')).text).toBe('rules:\n    - name: A\n      actions: |\n          ACCEPT a\n          REJECT z\n    - name: B\n');
    // A blank first line of CRLF text, and an indentation indicator, leave the depth to the library.
    expect(edit('description: |\r\n\r\n    old text\r\n', (v) => setAt(v, '/description', 'new text\n')).text).toBe('description: |\r\n    new text\r\n');
    expect(edit('description: |2\n     indented old\n', (v) => setAt(v, '/description', '  new lead\ntext\n')).text).toBe('description: |2\n    new lead\n  text\n');
  });

  it("takes out an item's first keys, on its `- ` line, keeping the comments above the key that moves up (probe QN-1)", () => {
    const text = 'rules:\n  - internal_notes: first\n    # about questions\n    questions: Q\n    # about name\n    name: CK2\n    actions: E\n';
    const without = (...keys: string[]) => edit(text, (v) => {
      for (const k of keys) delete (v as { rules: Record<string, unknown>[] }).rules[0]![k];
      return v;
    }).text;
    expect(without('internal_notes')).toBe('rules:\n  # about questions\n  - questions: Q\n    # about name\n    name: CK2\n    actions: E\n');
    // Two keys at the top: the second's comments go with it. This was refused as overlapping edits.
    expect(without('internal_notes', 'questions')).toBe('rules:\n  # about name\n  - name: CK2\n    actions: E\n');
    expect(edit('l:\n  - a: 1\n    b: 2\n  - c: 3\n', (v) => ({ l: [{}, (v as { l: unknown[] }).l[1]] })).text).toBe('l:\n  - {}\n  - c: 3\n');
    expect(edit('l:\r\n  - a: 1\r\n    # b\r\n    b: 2\r\n', () => ({ l: [{ b: 2 }] })).text).toBe('l:\r\n  # b\r\n  - b: 2\r\n');
    // A key added where the first goes takes its line; the keys kept stay where they are (second read SR85-5).
    const replaced = (text: string, l: unknown[]) => editYaml(text, { documents: new Map([[0, { l }]]) }).text;
    expect(replaced('l:\n  - a: 1\n', [{ z: 9 }])).toBe('l:\n  - z: 9\n');
    expect(replaced('l:\n  - a: 1\n    b: 2\n', [{ z: 9, b: 2 }])).toBe('l:\n  - z: 9\n    b: 2\n');
    expect(replaced('l:\n  - a: 1\n    b: 2\n', [{ b: 2, z: 9 }])).toBe('l:\n  - b: 2\n    z: 9\n');
    expect(replaced('l:\n  - x: 0\n  - a: 1\n    b: 2\n', [{ b: 2 }])).toBe('l:\n  - b: 2\n');
    // A flow mapping whose every key is replaced is written whole with the new ones, and `{}` that
    // gains two keys takes both: both were refused as overlapping edits (second read SR85B-3).
    const flow = (text: string, x: unknown) => editYaml(text, { documents: new Map([[0, { x }]]) }).text;
    expect(flow('x: {a: 1}\n', { b: 2 })).toBe('x: {b: 2}\n');
    expect(flow('x: { a: 1, c: 3 }\r\n', { b: 2, d: 4 })).toBe('x: { b: 2, d: 4 }\r\n');
    expect(flow('x: {}\n', { b: 2, d: 4 })).toBe('x: { b: 2, d: 4 }\n');
    // An item whose keys start under its `- ` line (a comment there) that loses them all is `{}`, its comment kept (second read SR85B-4).
    expect(replaced('l:\n  - # lead\n    a: 1\n', [{}])).toBe('l:\n  - {} # lead\n');
    expect(replaced('l:\n  -\n    a: 1\n    b: 2\n  - c: 3\n', [{}, { c: 3 }])).toBe('l:\n  - {}\n  - c: 3\n');
  });

  it('keeps the quotes of an empty quoted value the app fills, and its comment (probe QN-4)', () => {
    const text = 'description: ""   # todo: fill in\nquestions: \'\'  # also todo\nnotes:\n';
    const filled = edit(text, () => ({ description: 'filled', questions: 'q', notes: 'some notes' })).text;
    expect(filled).toBe('description: "filled"   # todo: fill in\nquestions: \'q\'  # also todo\nnotes: some notes\n');
  });

  it("keeps a folded block's own line breaks in each paragraph whose text did not change (probe QN-2)", () => {
    const text = 'rules:\n  - name: F\n    actions: >\n      Para one is long and\n      wrapped here by hand.\n\n      Para two also\n      wrapped.\n    reviewer: qa@acme.example\n';
    const edited = edit(text, (v) => setAt(v, '/rules/0/actions', 'Para one is long and wrapped here by hand.\nPara two also wrapped, edited.\n')).text;
    expect(edited).toBe('rules:\n  - name: F\n    actions: >\n      Para one is long and\n      wrapped here by hand.\n\n      Para two also wrapped, edited.\n    reviewer: qa@acme.example\n');
    // CRLF lines and a kept chomping; a paragraph moved after a new one keeps its lines too.
    const crlf = 'a: >-\r\n  one\r\n  two\r\n\r\n  three\r\nb: 1\r\n';
    expect(edit(crlf, (v) => setAt(v, '/a', 'new first\none two\nthree')).text).toBe('a: >-\r\n  new first\r\n\r\n  one\r\n  two\r\n\r\n  three\r\nb: 1\r\n');
    // A paragraph with a deeper line (kept as written, not folded) is the library's to write.
    const deeper = 'a: >\n  one\n    deep\n  two\n\n  end\n';
    const out = edit(deeper, (v) => setAt(v, '/a', 'one\n  deep\ntwo\nchanged\n')).text;
    expect(documentValues(out!)[0]).toEqual({ a: 'one\n  deep\ntwo\nchanged\n' });
  });

  it('writes text that starts with spaces into a block as deep as the file has it, with the indicator a reader counts from the key', () => {
    const spaced = 'rules:\n    -   name: F1\n        actions: >-\n            ACCEPT f1\n    -   name: F2\n        actions: |\n            ACCEPT f2\n';
    const literal = edit(spaced, (v) => setAt(v, '/rules/1/actions', '  lead\nnext\n')).text;
    expect(literal).toBe('rules:\n    -   name: F1\n        actions: >-\n            ACCEPT f1\n    -   name: F2\n        actions: |4\n              lead\n            next\n');
    const folded = edit(spaced, (v) => setAt(v, '/rules/0/actions', '  lead')).text;
    expect(folded).toBe('rules:\n    -   name: F1\n        actions: >4-\n              lead\n    -   name: F2\n        actions: |\n            ACCEPT f2\n');
    // Lines deeper than one digit can say are refused by the read-back check, which names the document.
    expect(() => edit('a: 1\n---\nb: |\n            x\n', (v) => setAt(v, '/b', '  y\n'), 1)).toThrow('the edited YAML reads differently at /b of document 2');
    // A block as deep as the library writes it keeps the library's indicator.
    expect(edit('a:\n  b: |\n    x\n', (v) => setAt(v, '/a/b', '  y\n')).text).toBe('a:\n  b: |2\n      y\n');
  });
});

describe('documentValues', () => {
  // Read fast where the fast readers can, the values must be the full parser's, document for document.
  const texts = {
    'a block file': PLAYBOOK,
    'several documents': 'kind: A\nname: one\n---\n# c\nkind: B\nlist: [1, 2]\n',
    'anchors and a merge key': 'base: &b {x: 1}\nuse:\n  <<: *b\n  y: 2\n',
    'YAML 1.1 numbers': 'octal: 0o17\nbinary: 0b101\nsigned_hex: +0x1F\nhalf: -.5\nsexagesimal: 1:20\n',
    'words YAML 1.1 reads as booleans': 'a: yes\nb: On\nc: ~\nd: True\ne: .inf\n',
    'an empty document between two': 'a: 1\n---\n---\nb: 2\n',
    'only comments': '# nothing here\n',
    'a byte-order mark': '\uFEFFa: 1\n',
    'a tag': 'a: !!str 12\nb: 12\n',
    'a quoted key and a duplicate key': '"a b": 1\nc: 2\nc: 3\n',
  };
  it('reads a plain block file without the full parser', () => {
    expect(plainYamlDocuments(PLAYBOOK)).toEqual(parseForEdit(PLAYBOOK).map(documentValue));
  });

  for (const [what, text] of Object.entries(texts)) {
    it(`reads ${what} as the full parser does`, () => {
      expect(documentValues(text)).toEqual(parseForEdit(text).map(documentValue));
    });
  }
});

describe('byte-order marks of later documents, parked while a file is edited', () => {
  it('parks a mark before a comment or a bare marker, and nothing when the text already holds a parked form (a value could not be told from it)', () => {
    expect(parkedBoms('a: 1\n---\n\uFEFF# c\nb: 2\n')).toBe('a: 1\n---\n#\uFEFF c\nb: 2\n');
    expect(parkedBoms('a: 1\n\uFEFF--- # x\r\nb: 1\r\n')).toBe('a: 1\n--- #\uFEFF # x\r\nb: 1\r\n');
    // A marker with a value on its line: parking would comment the value out.
    expect(parkedBoms('a: 1\n\uFEFF--- {kind: b}\n')).toBe('a: 1\n\uFEFF--- {kind: b}\n');
    const quoted = 'a: "one\n#\uFEFFtwo"\n---\n\uFEFF# c\nb: 2\n';
    expect(parkedBoms(quoted)).toBe(quoted);
  });
});

describe('lists edited throughout (a bulk edit in the app)', () => {
  const rules = (n: number, text: (i: number) => string, name = (i: number) => `Rule ${i}`) =>
    `kind: Playbook\nname: Big\nrules:\n${Array.from({ length: n }, (_, i) => `  # rule ${i}\n  - name: ${name(i)}\n    description: ${text(i)}\n`).join('')}`;

  it('changes every item in its place, comments kept, when every item of a long list changed (items lined up by name, not by equal values)', () => {
    const before = rules(500, (i) => `rule ${i}`);
    const { text } = edit(before, (v) => {
      const doc = v as { rules: { name: string; description: string }[] };
      return { ...doc, rules: doc.rules.map((r) => ({ ...r, description: `${r.description} edited` })) };
    });
    expect(text).toBe(rules(500, (i) => `rule ${i} edited`));
  });

  it('edits a section renamed with one of its fields changed in place: its comments and flow mappings stay (probe XC-1)', () => {
    const text = [
      'title: Consulting',
      'sections:',
      '  - heading: Engagement',
      '    fields:',
      '      # what is delivered',
      '      services: {label: Services, input: textarea}',
      '      rate:',
      '        label: Rate   # hourly, agreed with finance',
      '        input: currency',
      '',
    ].join('\n');
    const { text: after } = edit(text, () => ({ title: 'Consulting', sections: [{ heading: 'Engagement and scope', fields: { services: { label: 'Services delivered', input: 'textarea' }, rate: { label: 'Rate', input: 'currency' } } }] }));
    expect(after).toBe(text.replace('heading: Engagement', 'heading: Engagement and scope').replace('label: Services,', 'label: Services delivered,'));
  });

  it('moves an item of a flow list written an item a line with its line, its comment and the comment lines above it; an item that moved unchanged is not taken for the edit of what stands in its place (probe XH-3)', () => {
    const text = 'kind: Playbook\nname: P\ntags: [\n  # about alpha\n  alpha,  # first\n  {a: 1, b: 2},   # second\n  gamma  # third\n]\n';
    type Tags = { tags: unknown[] };
    const reordered = (order: number[]) => edit(text, (v) => ({ ...(v as Tags), tags: order.map((i) => (v as Tags).tags[i]) })).text;
    // The last item, with no comma, moved first: it gets one; the item now last keeps its own.
    expect(reordered([2, 0, 1])).toBe('kind: Playbook\nname: P\ntags: [\n  gamma,  # third\n  # about alpha\n  alpha,  # first\n  {a: 1, b: 2},   # second\n]\n');
    expect(reordered([1, 2, 0])).toBe('kind: Playbook\nname: P\ntags: [\n  {a: 1, b: 2},   # second\n  gamma,  # third\n  # about alpha\n  alpha,  # first\n]\n');
    // Read by place, `new` would be alpha edited and alpha at the end an item added without its comments.
    expect(edit(text, (v) => ({ ...(v as Tags), tags: ['new', (v as Tags).tags[2], 'alpha'] })).text).toBe('kind: Playbook\nname: P\ntags: [\n  new,\n  gamma,  # third\n  # about alpha\n  alpha,  # first\n]\n');
    // The same in a block list, where beta, gone, is read by its place as the item `new` edits.
    const block = 'tags:\n  - alpha  # first\n  - beta  # second\n  - gamma  # third\n';
    expect(edit(block, () => ({ tags: ['new', 'gamma', 'alpha'] })).text).toBe('tags:\n  - new  # second\n  - gamma  # third\n  - alpha  # first\n');
    // Written on one line, items are written anew in their new order.
    expect(edit('tags: [alpha, beta, gamma]  # kept\n', () => ({ tags: ['gamma', 'alpha', 'beta'] })).text).toBe('tags: [gamma, alpha, beta]  # kept\n');
    // CRLF stays CRLF.
    expect(edit(text.replace(/\n/g, '\r\n'), (v) => ({ ...(v as Tags), tags: [2, 0, 1].map((i) => (v as Tags).tags[i]) })).text).toBe(reordered([2, 0, 1])!.replace(/\n/g, '\r\n'));
  });

  it('moves the comment lines above an item live moved with it; an item edited or replaced at its place keeps or loses them as before (probe XC-2, second read SR96-1)', () => {
    const fees = ['fees_attributes:', '  # one-off setup fee', '  - description: Setup', '    cost: 100', '  # recurring monthly fee', '  - description: Monthly', '    cost: 10', ''].join('\n');
    // Moved unchanged: as written, with its comment lines.
    const moved = edit(fees, () => ({ fees_attributes: [{ description: 'Monthly', cost: 10 }, { description: 'Setup', cost: 100 }] })).text;
    expect(moved).toBe(['fees_attributes:', '  # recurring monthly fee', '  - description: Monthly', '    cost: 10', '  # one-off setup fee', '  - description: Setup', '    cost: 100', ''].join('\n'));
    // Text items too (a definition's options).
    const options = ['options:', '  # the first', '  - Alpha', '  - Beta', '  # the third', '  - Gamma', ''].join('\n');
    expect(edit(options, () => ({ options: ['Gamma', 'Alpha', 'Beta'] })).text).toBe(['options:', '  # the third', '  - Gamma', '  # the first', '  - Alpha', '  - Beta', ''].join('\n'));
    // Sections swapped: each keeps its comment, and one moved unchanged keeps its flow mapping.
    const sections = ['sections:', '  # first', '  - heading: A', '    fields: {fa: {label: FA, input: text}}', '  # second', '  - heading: B', '    fields: {}', ''].join('\n');
    const swapped = edit(sections, () => ({ sections: [{ heading: 'B', fields: {} }, { heading: 'A', fields: { fa: { label: 'FA', input: 'text' } } }] })).text;
    expect(swapped).toBe(['sections:', '  # second', '  - heading: B', '    fields: {}', '  # first', '  - heading: A', '    fields: {fa: {label: FA, input: text}}', ''].join('\n'));
    // With an anchor in it, it is written anew (an alias elsewhere would read otherwise), its comments moved along.
    const anchored = edit(sections.replace('fields: {}', 'fields: &f {}'), () => ({ sections: [{ heading: 'B', fields: {} }, { heading: 'A', fields: { fa: { label: 'FA', input: 'text' } } }] })).text;
    expect(anchored).toContain('  # first\n  - heading: A');
    expect(anchored).toContain('  # second\n  - heading: B');
    // Edited at its place, it keeps them; one taken out takes them, though an item added elsewhere shares a value with it.
    expect(edit(fees, () => ({ fees_attributes: [{ description: 'Setup', cost: 150 }, { description: 'Monthly', cost: 10 }] })).text).toBe(fees.replace('cost: 100', 'cost: 150'));
    expect(edit(fees, () => ({ fees_attributes: [{ description: 'Setup fee', cost: 120 }, { description: 'Monthly', cost: 10 }] })).text).toBe(fees.replace('Setup\n    cost: 100', 'Setup fee\n    cost: 120'));
    const replaced = edit(fees, () => ({ fees_attributes: [{ description: 'Monthly', cost: 10 }, { description: 'Training', cost: 100 }] })).text;
    expect(replaced).toBe(['fees_attributes:', '  # recurring monthly fee', '  - description: Monthly', '    cost: 10', '  - description: Training', '    cost: 100', ''].join('\n'));
  });

  it('renames every item of a long list in place, past what the line-up compares for likeness pair by pair', () => {
    // 600 renames: more pairs than are compared one by one (each gone item is compared with the one come at its place).
    const before = rules(600, (i) => `rule ${i}`);
    const { text } = edit(before, (v) => {
      const doc = v as { rules: { name: string; description: string }[] };
      return { ...doc, rules: doc.rules.map((r) => ({ ...r, name: r.name.replace('Rule', 'Clause') })) };
    });
    // Each keeps its comment above it: renamed, not removed and added.
    expect(text).toBe(rules(600, (i) => `rule ${i}`, (i) => `Clause ${i}`));
  });

  it('lines up lists too different to diff (thousands renamed at once) item by item, renames paired at their places', () => {
    // (A small budget stands for the real one: 2,300 renamed rules exceed it as 200 exceed this.)
    const old = Array.from({ length: 200 }, (_, i) => ({ name: `Rule ${i}`, description: `rule ${i}` }));
    const wanted = old.map((r) => ({ ...r, name: r.name.replace('Rule', 'Clause') }));
    expect(align(old, wanted, 10_000)).toEqual(old.map((_, i) => [i, i]));
    // A rule that went and one that came, unalike, are a removal and an addition, not a rename.
    expect(align([{ name: 'A', description: 'x' }], [{ name: 'B', description: 'y' }])).toEqual([[0, undefined], [undefined, 0]]);
  });
});

describe('setAt', () => {
  it('copies what it changes, leaving the value it was given as it was; copies it made are edited in place', () => {
    const original = { rules: [{ name: 'A' }, { name: 'B' }], name: 'P' };
    const owned = new WeakSet<object>();
    const once = setAt(original, '/rules/0/name', 'A2', [], owned) as typeof original;
    expect(original).toEqual({ rules: [{ name: 'A' }, { name: 'B' }], name: 'P' });
    const twice = setAt(once, '/rules/1/name', 'B2', [], owned) as typeof original;
    expect(twice).toBe(once);
    expect(twice.rules).toBe(once.rules);
    expect(twice).toEqual({ rules: [{ name: 'A2' }, { name: 'B2' }], name: 'P' });
    expect(setAt(twice, '/name', undefined, [], owned)).toEqual({ rules: [{ name: 'A2' }, { name: 'B2' }] });
    // Without a record of its copies, every call copies.
    expect(setAt(once, '/name', 'Q')).not.toBe(once);
  });
});
