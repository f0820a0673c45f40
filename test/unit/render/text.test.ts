import { describe, expect, it } from 'vitest';
import { renderApplyReportText, renderPlanText, writeApplyReportText, writePlanText } from '../../../src/render/text.js';
import { KIND_ORDER, change, mixedPlan, plan } from './fixtures.js';
import { renderPlanMarkdown } from '../../../src/render/markdown.js';
import { renderGithubAnnotations } from '../../../src/render/annotations.js';

const ANSI = /\x1b\[/;
const text = (p: ReturnType<typeof plan>, verbose = false): string => renderPlanText(p, { color: false, verbose, kindOrder: KIND_ORDER });

describe('renderPlanText', () => {
  it("says when a field's two sides print the same: accents composed on one side and decomposed on the other", () => {
    const nfd = 'Re\u0301sume\u0301';
    const shown = text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [nfd, nfd.normalize('NFC')] } })]));
    expect(shown).toContain(`      actions: "${nfd}" → "${nfd.normalize('NFC')}" (no visible difference: the same letters, their accents encoded otherwise)\n`);
    expect(text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: ['a', 'b'] } })]))).not.toContain('no visible difference');
    // In a multi-line diff, on the added line that prints as the one it replaces.
    const lines = text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [`ACCEPT\n${nfd.normalize('NFC')} clause\nend`, `ACCEPT\n${nfd} clause\nend`] } })])).split('\n');
    expect(lines).toContain(`        -${nfd.normalize('NFC')} clause`);
    // On a line of its own after it, as diff's own `\\ No newline at end of file` (probe JH-3).
    expect(lines.slice(lines.indexOf(`        +${nfd} clause`), lines.indexOf(`        +${nfd} clause`) + 2)).toEqual([
      `        +${nfd} clause`,
      '        \\ no visible difference: the same letters, their accents encoded otherwise',
    ]);
    // A line of the text that starts with dashes is a line of it, not a file header.
    const dashed = text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [`--${nfd.normalize('NFC')}\nend`, `--${nfd}\nend`] } })])).split('\n');
    expect(dashed[dashed.indexOf(`        +--${nfd}`) + 1]).toBe('        \\ no visible difference: the same letters, their accents encoded otherwise');
  });

  it('shows a long one-line text changed in a word around that word, in text and markdown, cutting only at spaces or beside CJK characters (probes LZ-2, OA-2)', () => {
    const words = Array.from({ length: 2500 }, (_, i) => `word${String(i).padStart(5, '0')}`).join(' ');
    const edited = words.replace('word01234', 'WORD01234');
    const p = plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [words, edited] } })]);
    const line = text(p).split('\n').find((l) => l.includes('actions:'))!;
    expect(line.length).toBeLessThan(450);
    expect(line).toMatch(/^ {6}actions: …"word01228 [^"]* word01234 [^"]*word01240"… → …"word01228 [^"]* WORD01234 [^"]*word01240"… \(shown around what changed; both sides share the 12,\d{3} characters before it and the 12,\d{3} characters after it left out\)$/);
    const markdown = renderPlanMarkdown(p, { kindOrder: KIND_ORDER });
    expect(markdown).toContain('WORD01234');
    expect(markdown).not.toContain('word00001 ');
    // A short text, a text without spaces to cut at, and one rewritten throughout are shown whole.
    expect(text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: ['a b c', 'a B c'] } })]))).toContain('actions: "a b c" → "a B c"\n');
    const blob = 'x'.repeat(2000);
    expect(text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [blob, `${blob}y`] } })]))).toContain(`"${blob}" → "${blob}y"`);
    const rewritten = words.toUpperCase();
    expect(text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [words, rewritten] } })]))).toContain(`"${words}" → "${rewritten}"`);
    // Counted in characters: an emoji is one (second read SR76).
    const faces = '\u{1F600} '.repeat(300);
    expect(text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [`${faces}end`, `${faces}END`] } })]))).toContain('(shown around what changed; both sides share the 560 characters before it left out)');
    // Japanese, written without spaces, is cut between its characters (probe OA-2).
    const japanese = `${'本契約の期間は三年間とし、秘密保持義務は契約終了後も存続するものとする。'.repeat(10)}https://x.example/${'k'.repeat(80)}${'本契約の期間は三年間とし、秘密保持義務は契約終了後も存続するものとする。'.repeat(10)}`;
    const edited5 = japanese.replace('三年間', '五年間');
    const jp = text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [japanese, edited5] } })])).split('\n').find((l) => l.includes('actions:'))!;
    expect(jp.length).toBeLessThan(400);
    expect(jp).toContain('五年間');
    expect(jp).toMatch(/shown around what changed; both sides share the [\d,]+ characters after it left out\)$/);
    // Never inside a run of fullwidth letters, which is a word as any other run of letters is (second read SR79B-5).
    const fullwidth = 'ＡＢＣＤＥＦＧＨＩＪＫＬＭＮＯＰＱＲＳＴＵＶＷＸＹＺ'.repeat(20);
    expect(text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [fullwidth, `${fullwidth}Ｚ`] } })]))).toContain(`"${fullwidth}" → "${fullwidth}Ｚ"`);
    // Accents encoded otherwise in a long line still say so.
    const nfd = `${words} Re\u0301sume\u0301 ${words}`;
    expect(text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [nfd, nfd.normalize('NFC')] } })]))).toContain('(no visible difference: the same letters, their accents encoded otherwise)');
  });

  it('says of a diff line that prints as the line it replaces what differs: the white space ending it, or tabs against spaces (probe JH-1)', () => {
    const diff = (before: string, after: string): string[] => text(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [before, after] } })])).split('\n');
    expect(diff('ACCEPT a \nACCEPT b', 'ACCEPT a\nACCEPT b')).toEqual(expect.arrayContaining(['        -ACCEPT a ', '        +ACCEPT a', '        \\ no visible difference: only the white space ending the line, " " before and none now']));
    expect(diff('x\nACCEPT a', 'x\nACCEPT a\t ')).toContain('        \\ no visible difference: only the white space ending the line, none before and "\\t " now');
    expect(diff('x\n\tclause', 'x\n        clause')).toContain('        \\ no visible difference: only the indentation, "\\t" before and "        " now');
    // Said by its white space alone, never the line's text, which may hold what output hides (fourth read RV5-1).
    expect(diff('x\n\tdsn: admin:hunter2@db.internal?token=SECRET1', 'x\n        dsn: admin:hunter2@db.internal?token=SECRET1').join('\n')).not.toMatch(/no visible difference: .*(hunter2|SECRET1)/);
    // A tab between words prints wider: that shows, and is not noted.
    expect(diff('x\na\tb', 'x\na b').join('\n')).not.toContain('no visible difference');
    // A control character is shown where it is, not dropped: the change would show as no difference (probe KD-2).
    expect(diff('A\nB', 'A\nB\u0007')).toEqual(expect.arrayContaining(['        -B', '        +B<U+0007>']));
    expect(diff('bell\u0007 tab\nz', 'bell tab\nz')).toEqual(expect.arrayContaining(['        -bell<U+0007> tab', '        +bell tab']));
    // Unless the spaces reach the tab's stop: the lines then print alike (probe KC-3).
    expect(diff('ab\tc\nz', 'ab     c\nz')).toEqual(expect.arrayContaining(['        -ab\tc', '        +ab     c', '        \\ no visible difference: only tabs against spaces between words']));
    // Counted in columns: a wide letter takes two (second read SR72-5).
    expect(diff('\u65e5\tx\nz', '\u65e5     x\nz')).toContain('        \\ no visible difference: only tabs against spaces between words');
    expect(diff('\u65e5\tx\nz', '\u65e5      x\nz').join('\n')).not.toContain('no visible difference');
    // A change that shows gets no note: indentation of spaces, a word.
    for (const [before, after] of [['x\n  a', 'x\n    a'], ['x\nACCEPT a', 'x\nACCEPT b ']]) expect(diff(before, after).join('\n')).not.toContain('\\ ');
  });

  it('shows a line break or a tab in a file\'s name as what it is, not as a space (probe JC-5)', () => {
    const c = { ...change('update', 'playbook', 'NDA', { fields: { description: ['a', 'b'] } }), source: { file: 'playbooks/n\n::error::x\t.yaml', line: 1, col: 1 } };
    const shown = text(plan([c]));
    expect(shown).toContain('(playbooks/n<U+000A>::error::x<U+0009>.yaml:1)');
    // A CR or a VT too, which stripping would have removed (fourth read RV4-2).
    expect(text(plan([{ ...c, source: { ...c.source, file: 'a\r\nb\u000bc.yaml' } }]))).toContain('(a<U+000D><U+000A>b<U+000B>c.yaml:1)');
  });

  it('names the file an upload sends before its fields, in text and markdown (probe MP-1)', () => {
    // In place of a live one (renamed): only the name changed, and the whole file goes.
    const upload = { ...change('upload', 'attachment', 'Exhibit 2', { fields: { name: ['Exhibit', 'Exhibit 2'] } }), liveId: 'att-1', uploads: 'attachments/sp ace.pdf' };
    expect(text(plan([upload]))).toContain('  + upload attachment "Exhibit 2"\n      uploads: "attachments/sp ace.pdf"\n      name: "Exhibit" → "Exhibit 2"\n');
    expect(renderPlanMarkdown(plan([upload]), { kindOrder: KIND_ORDER })).toContain('\n  - uploads: `attachments/sp ace.pdf`\n  - `name`: `"Exhibit"` → `"Exhibit 2"`\n');
  });

  it('shows what apply sends where the files write it otherwise than it is compared ("0", compared as 0)', () => {
    const c = change('update', 'template', 'PSA', { fields: { 'parameters.provider': [3, 0] } });
    c.fields[0]!.sent = '0';
    expect(text(plan([c]))).toContain('      parameters.provider: 3 → "0"\n');
  });

  it('renders every action, grouped by kind, with fields and a summary', () => {
    expect(text(mixedPlan())).toBe(
      [
        'docket plan · target: https://api.gerri.example (organization org-1)',
        '',
        'Members',
        '  + invite member "bob@acme.example" (members.yaml:3)',
        '      email: "bob@acme.example"',
        '',
        'Playbooks',
        '  + create playbook "Inbound NDA" (playbooks/inbound-nda.yaml:4)',
        '      name: "Inbound NDA"',
        '      description: "NDAs we receive"',
        '  ~ rename playbook "Old" → "New" (playbooks/new.yaml:2)',
        '  ~ update playbook "New" (playbooks/new.yaml:3)',
        '      description: "old" → "new"',
        '  - archive playbook "Legacy"',
        '',
        'Rules',
        '  - delete rule "Inbound NDA/Term" (permanent)',
        '',
        'Custom terms',
        '  ↑ publish custom-term "Consulting Terms" (custom-terms/consulting.yaml:1)',
        '      body:',
        '        @@ -1,3 +1,3 @@',
        '         Line one',
        '        -Line two',
        '        +Line 2',
        '         Line three',
        '',
        'Plan: 1 to create, 1 to update, 1 to rename, 1 to publish, 1 to delete, 1 to archive, 1 to invite.',
        '',
        'Warning: 1 rule will be permanently deleted (cannot be undone): "Inbound NDA/Term".',
        'Warning: 1 publish goes live at once and cannot be undone: custom-term "Consulting Terms".',
        '',
      ].join('\n'),
    );
  });

  it('shows the emulator target and the environment', () => {
    // A URL with a final `/` names the same service: shown one way, as the lock records it (probe ME-2).
    const slashed = text(plan([], { target: { review: { url: 'http://127.0.0.1:4010/review/', organization_id: 'org-1' }, agreements: { url: 'http://127.0.0.1:4010/agreements//' }, emulator: false } }));
    expect(slashed.split('\n')[0]).toBe('docket plan · target: http://127.0.0.1:4010/review (organization org-1) · agreements: http://127.0.0.1:4010/agreements');
    expect(renderPlanMarkdown(plan([], { target: { review: { url: 'http://127.0.0.1:4010/review/', organization_id: 'org-1' }, emulator: false } }), { kindOrder: KIND_ORDER })).toContain('`http://127.0.0.1:4010/review`');
    // A run that made no review call has learnt no organization: it says none, not an empty one (probe FG-2).
    const unlearnt = plan([], { target: { review: { url: 'https://r.example', organization_id: '' }, agreements: { url: 'https://a.example', organization_id: 'ag-1' }, emulator: false } });
    expect(text(unlearnt).split('\n')[0]).toBe('docket plan · target: https://r.example · agreements: https://a.example (organization ag-1)');
    expect(renderPlanMarkdown(unlearnt, { kindOrder: KIND_ORDER })).toContain('**Target:** review `https://r.example` · agreements `https://a.example` (organization `ag-1`)');
    const out = text(plan([], { target: { emulator: true }, environment: 'staging' }));
    expect(out).toBe(
      'docket plan · target: local emulator\nenvironment: staging\n\nNo changes. The live services match the configuration.\n',
    );
  });

  it('says only the targets match when the plan is cut to them: the rest was not looked at (probe KV-5)', () => {
    const out = text(plan([], { target: { emulator: true }, targets: ['template/Mutual NDA', 'organization'] }));
    expect(out).toContain('No changes. The live services match the configuration for the targets.\n');
    expect(out).toContain('partial');
  });

  it('does not say live matches without a word for live changes a drift policy holds back', () => {
    const held = { ...change('update', 'rule', 'NDA/Term', { parent: 'NDA' }), direction: 'changed-live' as const, policy: 'ignore' as const };
    const out = text(plan([], { target: { emulator: true }, held: [held] }));
    expect(out).toContain('No changes. The live services match the configuration, except for the live changes listed below that a drift policy leaves alone.\n');
    // Under adopt it says what apply does, not that pull takes it: pull refuses some (a swap of names, probe NB-5).
    const adopted = text(plan([], { target: { emulator: true }, held: [{ ...held, policy: 'adopt' as const }] }));
    expect(adopted).toContain('· drift: adopt (apply leaves it for `docket pull`)');
  });

  it('adds the agreements service to the target line', () => {
    const out = text(plan([], { target: { review: { url: 'https://r.example', organization_id: 'o' }, agreements: { url: 'https://a.example' }, emulator: false } }));
    expect(out.split('\n')[0]).toBe('docket plan · target: https://r.example (organization o) · agreements: https://a.example');
  });

  it('always names create, update and delete in the summary, plus other non-zero actions', () => {
    const out = text(plan([change('upload', 'attachment', 'Security Exhibit'), change('update', 'template', 'Mutual NDA', { fields: { 'parameters.term': [2, 3] } })]));
    expect(out).toContain('\nPlan: 0 to create, 1 to update, 0 to delete, 1 to upload.\n');
    expect(out).toContain('  + upload attachment "Security Exhibit"\n');
    // Dotted field names print as they are; numbers plain.
    expect(out).toContain('      parameters.term: 2 → 3\n');
  });

  it('shows the organization singleton without a name, and dotted fields as they are', () => {
    const org = change('update', 'organization', 'organization', { file: 'organization.yaml', line: 2, fields: { 'review.name': ['Acme', 'Acme Legal'] } });
    expect(text(plan([org]))).toContain('Organization\n  ~ update organization (organization.yaml:2)\n      review.name: "Acme" → "Acme Legal"\n');
  });

  it('formats values JSON-ish: null, booleans, numbers, objects', () => {
    const out = text(
      plan([
        change('update', 'rule', 'P/R', {
          parent: 'P',
          fields: { reviewer: ['alice@acme.example', null], generate_summary: [true, false], definition: [{ a: [1, 'x'] }, null], notes: [null, 'hi'] },
        }),
      ]),
    );
    expect(out).toContain(
      [
        '  ~ update rule "P/R"',
        '      reviewer: "alice@acme.example" → null',
        '      generate_summary: true → false',
        '      definition: {"a":[1,"x"]} → null',
        '      notes: null → "hi"',
      ].join('\n'),
    );
  });

  it('shows only non-null values for creates', () => {
    const out = text(plan([change('create', 'rule', 'P/Term', { parent: 'P', fields: { name: [null, 'Term'], questions: [null, null] } })]));
    expect(out).toContain('  + create rule "P/Term"\n      name: "Term"\n\n');
  });

  it('renames a rule with its playbook prefix on both sides', () => {
    const out = text(plan([change('rename', 'rule', 'Inbound NDA/Duration', { parent: 'Inbound NDA', fields: { name: ['Term', 'Duration'] } })]));
    expect(out).toContain('  ~ rename rule "Inbound NDA/Term" → "Inbound NDA/Duration"\n');
    expect(out).toContain('Plan: 0 to create, 0 to update, 1 to rename, 0 to delete.');
  });

  it('sets right-to-left names and values apart, so `before → after` reads in its order between two of them (probe EA-3)', () => {
    const p = plan([
      change('rename', 'rule', 'הסכמי סודיות/משך', { parent: 'הסכמי סודיות', fields: { name: ['תקופה', 'משך'] } }),
      change('update', 'playbook', 'הסכמי סודיות', { fields: { description: ['הסכמים שאנו מקבלים', 'הסכמים שאנו שולחים'] } }),
    ]);
    const out = text(p);
    expect(out).toContain('~ rename rule \u2068"הסכמי סודיות/תקופה"\u2069 → \u2068"הסכמי סודיות/משך"\u2069\n');
    expect(out).toContain('description: \u2068"הסכמים שאנו מקבלים"\u2069 → \u2068"הסכמים שאנו שולחים"\u2069');
    const md = renderPlanMarkdown(p, { kindOrder: KIND_ORDER });
    expect(md).toContain('\u2068`הסכמי סודיות/תקופה`\u2069 → \u2068`הסכמי סודיות/משך`\u2069');
    expect(md).toContain('`description`: \u2068`"הסכמים שאנו מקבלים"`\u2069 → \u2068`"הסכמים שאנו שולחים"`\u2069');
    // Left-to-right text is shown as it was.
    expect(text(plan([change('update', 'playbook', 'P', { fields: { description: ['a', 'b'] } })]))).toContain('description: "a" → "b"');
  });

  it('shows multi-line text as a unified diff without file headers', () => {
    const before = 'ACCEPT a term of up to 3 years\nCOUNTERPROPOSE 2 years when longer\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8';
    const after = 'ACCEPT a term of up to 2 years\nCOUNTERPROPOSE 2 years when longer\nline 3\nline 4\nline 5\nline 6\nline 7\nline 8';
    const out = text(plan([change('update', 'rule', 'P/Term', { fields: { actions: [before, after] } })]));
    expect(out).toContain(
      [
        '      actions:',
        '        @@ -1,4 +1,4 @@',
        '        -ACCEPT a term of up to 3 years',
        '        +ACCEPT a term of up to 2 years',
        '         COUNTERPROPOSE 2 years when longer',
        '         line 3',
        '         line 4',
        '',
      ].join('\n'),
    );
    expect(out).not.toMatch(/^\s*(===|---|\+\+\+) /m);
    expect(out).not.toContain('No newline');
  });

  it('shows a long list (or one of mappings) changed item by item, and a short list of names inline', () => {
    const subs = (renamed: number) => Array.from({ length: 40 }, (_, i) => ({ name: i === renamed ? 'Renamed Ltd' : `Sub ${i + 1}`, country: 'DE' }));
    const out = text(plan([change('update', 'template', 'DPA', { fields: { subprocessors_attributes: [subs(-1), subs(19)], attachments: [['A'], ['A', 'B']] } })]));
    expect(out).toContain(
      [
        '      subprocessors_attributes:',
        '        @@ -17,7 +17,7 @@',
        '         {"name":"Sub 17","country":"DE"}',
        '         {"name":"Sub 18","country":"DE"}',
        '         {"name":"Sub 19","country":"DE"}',
        '        -{"name":"Sub 20","country":"DE"}',
        '        +{"name":"Renamed Ltd","country":"DE"}',
        '         {"name":"Sub 21","country":"DE"}',
        '',
      ].join('\n'),
    );
    expect(out).not.toContain('"Sub 1","country"');
    expect(out).toContain('      attachments: ["A"] → ["A","B"]\n');
    // A list created whole stays one value, as any created field does.
    const created = text(plan([change('create', 'template', 'DPA', { fields: { subprocessors_attributes: [null, subs(-1)] } })]));
    expect(created).toContain('      subprocessors_attributes: [{"name":"Sub 1","country":"DE"},');
  });

  it('shows an item of a list of mappings both sides hold as unchanged, whatever order its keys are written in (probe GC-2)', () => {
    const out = text(plan([change('update', 'template', 'DPA', { fields: { subprocessors_attributes: [[{ name: 'AWS', country: 'USA' }], [{ country: 'USA', name: 'AWS' }, { name: 'GCP', country: 'USA' }]] } })]));
    expect(out).toContain(['      subprocessors_attributes:', '        @@ -1,1 +1,2 @@', '         {"name":"AWS","country":"USA"}', '        +{"name":"GCP","country":"USA"}', ''].join('\n'));
  });

  it('diffs a multi-line value against nothing for a create, and a single line becoming multi-line', () => {
    const created = text(plan([change('create', 'rule', 'P/T', { fields: { actions: [null, 'one\ntwo'] } })]));
    expect(created).toContain('      actions:\n        @@ -0,0 +1,2 @@\n        +one\n        +two\n');
    const grown = text(plan([change('update', 'rule', 'P/T', { fields: { actions: ['one', 'one\ntwo'] } })]));
    expect(grown).toContain('        @@ -1,1 +1,2 @@\n         one\n        +two\n');
  });

  it('has no ANSI codes without colour, and colours with it', () => {
    const p = mixedPlan();
    expect(renderPlanText(p, { color: false, kindOrder: KIND_ORDER })).not.toMatch(ANSI);
    const coloured = renderPlanText(p, { color: true, kindOrder: KIND_ORDER });
    expect(coloured).toMatch(ANSI);
    expect(coloured).toContain('\x1b[32m+\x1b[39m create playbook');
    expect(coloured).toContain('\x1b[31m-Line two\x1b[39m');
    expect(coloured).toContain('\x1b[32m+Line 2\x1b[39m');
    // Without the codes it is the plain output.
    expect(coloured.replace(/\x1b\[\d+m/g, '')).toBe(renderPlanText(p, { color: false, kindOrder: KIND_ORDER }));
  });

  it('strips control characters from every user string', () => {
    const evil = '\x1b[2J\x1b]0;title\x07Evil\x07\r';
    const p = plan(
      [
        change('update', 'playbook', `Play${evil}`, {
          file: `play${evil}.yaml`,
          fields: { [`desc${evil}`]: [`a${evil}`, `multi\x1b[31m\nline${evil}`], other: [{ k: `v${evil}\x85` }, 1] },
        }),
      ],
      { warnings: [`warn${evil}`], environment: `prod${evil}`, undeclared: [{ kind: 'playbook', count: 1, names: [`n${evil}`], reason: `r${evil}` }] },
    );
    const out = renderPlanText(p, { color: false, verbose: true, kindOrder: KIND_ORDER });
    expect(out).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    // Names and values in quotes show what they hold, escaped: a character left out would hide a difference.
    // And a file's path its control characters marked, none removed: a path without one is another file (RV4-2).
    expect(out).toContain('~ update playbook "Play\\u001b[2J\\u001b]0;title\\u0007Evil\\u0007\\r" (play<U+001B>[2J<U+001B>]0;title<U+0007>Evil<U+0007><U+000D>.yaml:1)');
    expect(out).toContain('environment: prodEvil');
    expect(out).toContain('Warning: warnEvil');
    expect(out).toContain('other: {"k":"v\\u001b[2J\\u001b]0;title\\u0007Evil\\u0007\\r\\u0085"} → 1');
    // Characters that show as nothing or as a space are escaped too: "A\u200b" and "A" must not look alike.
    const invisible = renderPlanText(plan([change('update', 'rule', 'P/R', { parent: 'P', fields: { actions: ['ACCEPT\u200b y\u00a0z\u00ad', 'ACCEPT y z'] } })]), { color: false, verbose: false, kindOrder: KIND_ORDER });
    expect(invisible).toContain('actions: "ACCEPT\\u200b y\\u00a0z\\u00ad" → "ACCEPT y z"');
    const spaces = renderPlanText(plan([change('update', 'rule', 'P/R', { parent: 'P', fields: { description: ['a\u2002b c\u202fd e\u3164f', 'a b c d e f'] } })]), { color: false, verbose: false, kindOrder: KIND_ORDER });
    expect(spaces).toContain('description: "a\\u2002b c\\u202fd e\\u3164f" → "a b c d e f"');
  });

  it('warns once per group for permanent deletes and publishes', () => {
    const p = plan([
      change('delete', 'rule', 'P/A', { parent: 'P', irreversible: true }),
      change('delete', 'rule', 'P/B', { parent: 'P', irreversible: true }),
      change('publish', 'custom-term', 'Terms', { irreversible: true, fields: { body: ['a', 'b'] } }),
      change('publish', 'custom-template', 'Consulting', { irreversible: true, fields: { definition: [{ a: 1 }, { a: 2 }] } }),
    ]);
    const warnings = text(p).split('\n').filter((l) => l.startsWith('Warning:'));
    expect(warnings).toEqual([
      'Warning: 2 rules will be permanently deleted (cannot be undone): "P/A", "P/B".',
      'Warning: 2 publishes go live at once and cannot be undone: custom-term "Terms", custom-template "Consulting".',
    ]);
  });

  it('lists at most five names in a warning', () => {
    const deletes = Array.from({ length: 8 }, (_, i) => change('delete', 'rule', `P/R${i}`, { parent: 'P', irreversible: true }));
    expect(text(plan(deletes))).toContain('Warning: 8 rules will be permanently deleted (cannot be undone): "P/R0", "P/R1", "P/R2", "P/R3", "P/R4" and 3 more.');
  });

  it('warns that a targeted plan is partial, and prints the plan warnings', () => {
    const out = text(plan([change('create', 'playbook', 'A')], { targets: ['playbook/A', 'rule/B/C'], warnings: ['the lock file has no entry for "Terms"'] }));
    expect(out).toContain(
      'Warning: this plan is partial: only "playbook/A", "rule/B/C" and what they depend on; other differences are not shown.\n' +
        'Warning: the lock file has no entry for "Terms"\n',
    );
  });

  it('counts undeclared objects, and names them when verbose', () => {
    const p = plan([], {
      undeclared: [
        { kind: 'member', count: 2, names: ['a@acme.example', 'b@acme.example'], reason: 'docket never removes them' },
        { kind: 'playbook', count: 1, names: ['Legacy'], reason: 'prune is off: set prune.playbooks or pass --prune to archive them' },
      ],
    });
    expect(text(p)).toBe(
      'docket plan · target: https://api.gerri.example (organization org-1)\n\n' +
        'No changes. The live services match the configuration.\n\n' +
        '3 live objects are not declared in any file and are left alone (members: 2, playbooks: 1).\n',
    );
    expect(text(p, true)).toContain(
      '(members: 2, playbooks: 1).\n' +
        '  2 members: "a@acme.example", "b@acme.example" (docket never removes them)\n' +
        '  1 playbook: "Legacy" (prune is off: set prune.playbooks or pass --prune to archive them)\n',
    );
    const one = plan([], { undeclared: [{ kind: 'template', count: 1, names: ['X'], reason: 'the service has no delete for them' }] });
    expect(text(one)).toContain('1 live object is not declared in any file and is left alone (templates: 1).');
  });

  it("names the apply that adopts what pending documents name with the run's --env and --emulator (probe SK-3)", () => {
    const pending = { undeclared: [{ kind: 'custom-term' as const, count: 1, names: ['W'], reason: 'r', pending: 1 }] };
    expect(text(plan([], pending))).toContain('then `docket apply --adopt-files`.');
    expect(text(plan([], { ...pending, environment: 'eu west', target: { emulator: true } }))).toContain("then `docket apply --env 'eu west' --emulator --adopt-files`.");
    // With the run's -C, in text and markdown: copied, it adopts for the same configuration (probe WB-1).
    const inDir = plan([], { ...pending, environment: 'eu', target: { emulator: true } });
    expect(renderPlanText(inDir, { color: false, kindOrder: KIND_ORDER, dir: 'my config' })).toContain("then `docket apply -C 'my config' --env eu --emulator --adopt-files`.");
    expect(renderPlanText(inDir, { color: false, kindOrder: KIND_ORDER, dir: '.' })).toContain('then `docket apply --env eu --emulator --adopt-files`.');
    expect(renderPlanMarkdown(inDir, { kindOrder: KIND_ORDER, dir: 'cfg' })).toContain('then `docket apply -C cfg --env eu --emulator --adopt-files`.');
    // A backtick in the folder would end the code span inside the command: shown as typed (second read SR97-4).
    expect(renderPlanMarkdown(inDir, { kindOrder: KIND_ORDER, dir: 'my`dir' })).toContain("then \\`docket apply -C 'my\\`dir' --env eu --emulator --adopt-files\\`.");
  });

  it('shows what a permanent delete destroys, and the fields of an archive only when verbose, in text and markdown (probe YE-2)', () => {
    const p = plan([
      change('delete', 'rule', 'P/A', { parent: 'P', irreversible: true, fields: { description: ['gone', null] } }),
      change('archive', 'playbook', 'Old', { fields: { description: ['kept in the archive', null] } }),
    ]);
    for (const verbose of [false, true]) expect(text(p, verbose)).toContain('  - delete rule "P/A" (permanent)\n      description: "gone"\n');
    expect(text(p)).toContain('  - archive playbook "Old"\n\n');
    expect(text(p, true)).toContain('  - archive playbook "Old"\n      description: "kept in the archive"\n');
    const markdown = (verbose: boolean) => renderPlanMarkdown(p, { kindOrder: KIND_ORDER, verbose });
    for (const verbose of [false, true]) expect(markdown(verbose)).toContain('- `-` **delete** rule `P/A` (permanent)\n  - `description`: `"gone"`\n');
    expect(markdown(false)).not.toContain('kept in the archive');
    expect(markdown(true)).toContain('- `-` **archive** playbook `Old`\n  - `description`: `"kept in the archive"`\n');
  });

  it('names a removed object whose name another of its kind holds too by its live id, wherever the change is named (probe YE-2)', () => {
    const twin = { ...change('archive', 'playbook', 'Twin'), liveId: 'id-2', namesake: true as const };
    const p = plan([twin]);
    expect(text(p)).toContain('  - archive playbook "Twin" (id id-2)\n');
    // In the warning of permanent deletes too (second read SR97-3).
    const rules = ['r-1', 'r-2'].map((liveId) => ({ ...change('delete', 'rule', 'P/X', { parent: 'P', irreversible: true }), id: `delete:rule:P/X@${liveId}`, liveId, namesake: true as const }));
    expect(text(plan(rules))).toContain('2 rules will be permanently deleted (cannot be undone): "P/X" (id r-1), "P/X" (id r-2).');
    expect(renderPlanMarkdown(p, { kindOrder: KIND_ORDER })).toContain('- `-` **archive** playbook `Twin` (id id-2)\n');
    expect(renderPlanText(plan([change('archive', 'playbook', 'Other')]), { color: false, kindOrder: KIND_ORDER })).toContain('  - archive playbook "Other"\n');
  });

  it('puts kinds missing from kindOrder last instead of dropping them', () => {
    const out = renderPlanText(plan([change('create', 'template', 'T'), change('create', 'playbook', 'P')]), {
      color: false,
      kindOrder: [{ name: 'playbook', title: 'Playbooks' }],
    });
    expect(out).toContain('Playbooks\n  + create playbook "P"\n\ntemplate\n  + create template "T"\n');
  });

  it('writes a long plan and its apply report in pieces of bounded size that make up the same text', async () => {
    const changes = Array.from({ length: 3000 }, (_, i) => change('create', 'rule', `P/Rule ${i}`, { parent: 'P', fields: { description: [null, `Clause ${i} → checked`] } }));
    const p = plan(changes);
    const opts = { color: false, kindOrder: KIND_ORDER };
    const pieces: string[] = [];
    await writePlanText(p, opts, (t) => pieces.push(t));
    expect(pieces.join('')).toBe(renderPlanText(p, opts));
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) {
      expect(piece.length).toBeLessThan(70 * 1024);
      expect(piece.endsWith('\n')).toBe(true);
    }
    const report = { results: changes.map((c) => ({ changeId: c.id, status: 'done' as const, ms: 5 })), done: changes.length, failed: 0, skipped: 0, ms: 10 };
    const written: string[] = [];
    await writeApplyReportText(p, report, { color: false }, (t) => written.push(t));
    expect(written.join('')).toBe(renderApplyReportText(p, report, { color: false }));
    expect(written.join('')).toMatch(/✓ create rule "P\/Rule 2999" \(5 ms\)\n\nApply complete: 3000 done\.\n$/);

    // Paced by a reader: no piece is written before the one before it was taken.
    const paced: string[] = [];
    let release: (() => void) | undefined;
    const writing = writePlanText(p, opts, (t) => paced.push(t), () => new Promise<void>((resolve) => (release = resolve)));
    await Promise.resolve();
    expect(paced).toHaveLength(1);
    for (let i = 0; i < 100 && release; i++) {
      const r = release;
      release = undefined;
      r();
      await new Promise((resolve) => setImmediate(resolve));
    }
    await writing;
    expect(paced.join('')).toBe(renderPlanText(p, opts));
  });
});

describe("a URL's hidden parts in names and values", () => {
  const linked = 'Links https://ex.example/a?ref=1';
  const rules = plan([
    change('delete', 'rule', `${linked}/Liability`, { parent: linked, irreversible: true }),
    change('update', 'rule', `${linked}/Term`, { parent: linked, fields: { actions: ['see https://x.example/doc?id=5 now', 'see https://x.example/doc?id=6 now'], description: ['https://x.example/?t=1 old', 'https://x.example/?t=1 new'] } }),
  ]);

  it("hides a parent's query on its own, so each rule keeps its name (and a permanent delete says which)", () => {
    const out = text(rules);
    expect(out).toContain('- delete rule "Links https://ex.example/a?… / Liability"');
    expect(out).toContain('~ update rule "Links https://ex.example/a?… / Term"');
    expect(out).toContain('1 rule will be permanently deleted (cannot be undone): "Links https://ex.example/a?… / Liability"');
    expect(out).not.toContain('ref=1');
  });

  it('says a value differs only in a letter of another alphabet, which prints as the Latin one (probe RF-1)', () => {
    const out = text(plan([change('update', 'custom-template', 'Consulting Agreement', { fields: { custom_term: ['Consulting Terms', 'Consulting \u0422erms'] } })]));
    expect(out).toContain('custom_term: "Consulting Terms" → "Consulting \u0422erms" (no visible difference: they differ only in a letter of another alphabet: Cyrillic `\u0422`, Latin `T`)');
  });

  it('says a value differs where hiding shows its two sides the same, still hiding them', () => {
    const out = text(rules);
    expect(out).toContain(`actions: "see https://x.example/doc?… now" → "see https://x.example/doc?… now" (no visible difference: they differ only in what output hides as it may hold a secret: a URL's query or fragment, a \`user:password@\`)`);
    expect(out).toContain('description: "https://x.example/?… old" → "https://x.example/?… new"\n');
    expect(out).not.toMatch(/id=5|id=6|t=1/);
  });

  it('says a rename whose names differ only in a hidden query is one, in text, markdown and annotations (probe EP)', () => {
    const renamed = plan([change('rename', 'rule', 'P/Doc https://ex.example/d?v=2', { parent: 'P', name: 'Doc https://ex.example/d?v=2', fields: { name: ['Doc https://ex.example/d?v=1', 'Doc https://ex.example/d?v=2'] } })]);
    const note = "(no visible difference: the names differ only in what output hides as it may hold a secret: a URL's query or fragment, a `user:password@`)";
    expect(text(renamed)).toContain(`~ rename rule "P/Doc https://ex.example/d?…" → "P/Doc https://ex.example/d?…" ${note}`);
    expect(renderPlanMarkdown(renamed, { kindOrder: KIND_ORDER })).toContain(note);
    expect(renderGithubAnnotations(renamed, { pathPrefix: '' })).toContain('the names differ only in what output hides');
    // A rename that reads as one says nothing more.
    expect(text(plan([change('rename', 'rule', 'P/B', { parent: 'P', fields: { name: ['A', 'B'] } })]))).not.toContain('no visible difference');
  });

  it('says a rename whose names differ only in a letter of another alphabet is one, in text and markdown (probe JQ-5)', () => {
    const renamed = plan([change('rename', 'rule', 'P/T\u0435rm', { parent: 'P', name: 'T\u0435rm', fields: { name: ['Term', 'T\u0435rm'] } })]);
    const note = '(no visible difference: the names differ only in a letter of another alphabet: Cyrillic `\u0435`, Latin `e`)';
    expect(text(renamed)).toContain(`~ rename rule "P/Term" → "P/T\u0435rm" ${note}`);
    expect(renderPlanMarkdown(renamed, { kindOrder: KIND_ORDER })).toContain('the names differ only in a letter of another alphabet');
    // Neither Latin: each letter by its own alphabet (second read SR71-5).
    const greek = plan([change('rename', 'rule', 'P/T\u03bfrm', { parent: 'P', name: 'T\u03bfrm', fields: { name: ['T\u043erm', 'T\u03bfrm'] } })]);
    expect(text(greek)).toContain('(no visible difference: the names differ only in a letter of another alphabet: Cyrillic `\u043e`, Greek `\u03bf`)');
  });
});
