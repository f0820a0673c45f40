import { describe, expect, it } from 'vitest';
import type { Change } from '../../../src/engine/types.js';
import { renderPlanMarkdown } from '../../../src/render/markdown.js';
import { fitPrinted } from '../../../src/render/markdown-fit.js';
import { defuseWorkflowCommands } from '../../../src/render/sanitize.js';
import { KIND_ORDER, change, mixedPlan, plan } from './fixtures.js';
import { markdownShape } from './markdown-check.js';
import { describeViolation, guardWarning } from '../../../src/engine/guard.js';

const md = (p: ReturnType<typeof plan>, maxChars?: number): string =>
  renderPlanMarkdown(p, maxChars === undefined ? { kindOrder: KIND_ORDER } : { kindOrder: KIND_ORDER, maxChars });

function expectWellFormed(out: string): void {
  const shape = markdownShape(out);
  expect(shape.fencesClosed).toBe(true);
  expect(shape.detailsBalanced).toBe(true);
  expect(shape.strayHtml).toEqual([]);
}

const NOTE = '_Output truncated to stay under the 60,000-character comment limit; run `docket plan` locally or use `-o json` for the full plan._';

describe('renderPlanMarkdown', () => {
  it('shows what apply sends where the files write it otherwise than it is compared', () => {
    const c = change('update', 'template', 'PSA', { fields: { 'parameters.provider': [3, 0] } });
    c.fields[0]!.sent = '0';
    expect(md(plan([c]))).toContain('  - `parameters.provider`: `3` → `"0"`');
  });

  it('renders a summary table, warnings and one collapsible section per kind', () => {
    const out = md(mixedPlan());
    expect(out).toBe(
      [
        '### docket plan',
        '',
        '**Target:** review `https://api.gerri.example` (organization `org-1`)',
        '',
        '| Action | Count |',
        '| --- | ---: |',
        '| `+` create | 1 |',
        '| `~` update | 1 |',
        '| `~` rename | 1 |',
        '| `↑` publish | 1 |',
        '| `-` delete | 1 |',
        '| `-` archive | 1 |',
        '| `+` invite | 1 |',
        '',
        '> [!WARNING]',
        '> - 1 rule will be permanently deleted (cannot be undone): `Inbound NDA/Term`.',
        '> - 1 publish goes live at once and cannot be undone: custom-term `Consulting Terms`.',
        '',
        '<details><summary>Members (1 change)</summary>',
        '',
        '- `+` **invite** member `bob@acme.example` · `members.yaml:3`',
        '  - `email`: `"bob@acme.example"`',
        '',
        '</details>',
        '',
        '<details><summary>Playbooks (4 changes)</summary>',
        '',
        '- `+` **create** playbook `Inbound NDA` · `playbooks/inbound-nda.yaml:4`',
        '  - `name`: `"Inbound NDA"`',
        '  - `description`: `"NDAs we receive"`',
        '- `~` **rename** playbook `Old` → `New` · `playbooks/new.yaml:2`',
        '- `~` **update** playbook `New` · `playbooks/new.yaml:3`',
        '  - `description`: `"old"` → `"new"`',
        '- `-` **archive** playbook `Legacy`',
        '',
        '</details>',
        '',
        '<details><summary>Rules (1 change)</summary>',
        '',
        '- `-` **delete** rule `Inbound NDA/Term` (permanent)',
        '',
        '</details>',
        '',
        '<details><summary>Custom terms (1 change)</summary>',
        '',
        '- `↑` **publish** custom-term `Consulting Terms` · `custom-terms/consulting.yaml:1`',
        '  - `body`:',
        '    ```diff',
        '    @@ -1,3 +1,3 @@',
        '     Line one',
        '    -Line two',
        '    +Line 2',
        '     Line three',
        '    ```',
        '',
        '</details>',
        '',
      ].join('\n'),
    );
    expectWellFormed(out);
  });

  it('flags the local emulator and says when nothing changes', () => {
    const out = md(plan([], { target: { emulator: true }, environment: 'staging' }));
    expect(out).toBe(
      '### docket plan\n\n**Target:** ⚠️ **local emulator** (not the live services) · **Environment:** `staging`\n\n' +
        '**No changes.** The live services match the configuration.\n',
    );
  });

  it('reports undeclared objects and partial plans', () => {
    const out = md(
      plan([change('create', 'playbook', 'A')], {
        targets: ['playbook/A'],
        undeclared: [{ kind: 'member', count: 2, names: ['a', 'b'], reason: 'docket never removes them' }],
      }),
    );
    expect(out).toContain('> - this plan is partial: only `playbook/A` and what it depends on; other differences are not shown.\n');
    expect(out.endsWith('\n2 live objects are not declared in any file and are left alone (members: 2).\n')).toBe(true);
    // Those --prune would act on are named, as in the text plan (a playbook file deleted without prune).
    const names = Array.from({ length: 12 }, (_, i) => `Playbook ${i} @team`);
    const pruned = md(plan([], { undeclared: [{ kind: 'playbook', count: 12, names, reason: 'archived with --prune', prunable: true }] }));
    expect(pruned).toContain(`\n- 12 playbooks: ${names.slice(0, 10).map((n) => `\`${n}\``).join(', ')} and 2 more (archived with --prune)\n`);
  });

  it('cuts long undeclared names, so the comment stays under the limit and still lists the change (probe JI-1)', () => {
    const names = [1, 2, 3].map((i) => `Old ${i} ${'x'.repeat(25_000)}`);
    const out = md(plan([change('create', 'playbook', 'NDA')], { undeclared: [{ kind: 'playbook', count: 3, names, reason: 'docket leaves them alone', prunable: true }] }));
    expect(out.length).toBeLessThan(60_000);
    expect(out).not.toContain('_Output truncated');
    expect(out).toContain('- `+` **create** playbook `NDA`');
    expect(out).toContain(`\`Old 1 ${'x'.repeat(193)}…\``);
    // Cut between characters, not inside an emoji (second read SR70-6).
    const emoji = md(plan([], { undeclared: [{ kind: 'playbook', count: 1, names: [`${'a'.repeat(198)}\u{1F600}tail`], reason: 'r', prunable: true }] }));
    expect(emoji).toContain(`\`${'a'.repeat(198)}…\``);
    expect(emoji).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])/);
    // Nor inside a family emoji, a flag or a letter and its accent (third read TR70-6).
    for (const [tail, kept] of [['\u{1F468}\u200D\u{1F469}\u200D\u{1F467}x', ''], ['\u{1F1EF}\u{1F1F5}\u{1F1FA}\u{1F1F8}', '\u{1F1EF}\u{1F1F5}'], ['e\u0301e\u0301e\u0301e\u0301', 'e\u0301e\u0301']]) {
      const out = md(plan([], { undeclared: [{ kind: 'playbook', count: 1, names: [`${'a'.repeat(194)}${tail}`], reason: 'r', prunable: true }] }));
      expect(out).toContain(`\`${'a'.repeat(194)}${kept}…\``);
    }
  });

  it('hides a URL\'s password in a long undeclared name before cutting it, which could cut its `@` away (probe EF-1)', () => {
    const token = `eyJhbGciOiJIUzI1NiJ9${'Q'.repeat(250)}`;
    const out = md(plan([], { undeclared: [{ kind: 'playbook', count: 1, names: [`A1 Vendor portal https://svc:${token}@portal.example/`], reason: 'r', prunable: true }] }));
    expect(out).toContain('`A1 Vendor portal https://***@portal.example/`');
    expect(out).not.toContain('eyJhbGci');
    const short = md(plan([], { undeclared: [{ kind: 'playbook', count: 1, names: [`${'n'.repeat(170)} https://bob:hunter2hunter2@portal.example/`], reason: 'r', prunable: true }] }));
    expect(short).not.toMatch(/bob|hunter/);
  });

  it('notes in a diff block a line that prints as the one it replaces, as the text plan does (probe JH-3)', () => {
    const out = md(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: ['ACCEPT a \nCafe\u0301', 'ACCEPT a\nCaf\u00e9'] } })]));
    expect(out).toContain('    +ACCEPT a\n    \\ no visible difference: only the white space ending the line, " " before and none now\n');
    expect(out).toContain('    +Caf\u00e9\n    \\ no visible difference: the same letters, their accents encoded otherwise\n');
  });

  it('escapes user text: mentions, HTML, pipes, backticks and fences', () => {
    const p = plan(
      [
        change('create', 'playbook', '@acme/legal <script>alert(1)</script>', {
          file: 'playbooks/x.yaml',
          line: 1,
          fields: { description: [null, 'a | b with `code` and @team #12'] },
        }),
        change('update', 'rule', 'P/R', {
          parent: 'P',
          fields: { actions: ['Use this:\n```\nACCEPT\n```', 'Use this:\n````\nREJECT\n````\n</details>'] },
        }),
        change('create', 'playbook', 'sneaky\n</details>\n<img src=x onerror=alert(1)>'),
      ],
      { warnings: ['ping @legal-team about <b>#42</b> | now'] },
    );
    const out = md(p);
    // Names and values are code spans: shown literally, never a mention or a tag.
    expect(out).toContain('- `+` **create** playbook `@acme/legal <script>alert(1)</script>` · `playbooks/x.yaml:1`\n');
    expect(out).toContain('  - `description`: ``"a | b with `code` and @team #12"``\n');
    // A name cannot leave its line.
    expect(out).toContain('- `+` **create** playbook `sneaky<U+000A></details><U+000A><img src=x onerror=alert(1)>`\n');
    // Free text is escaped.
    expect(out).toContain('> - ping @&#8203;legal-team about &lt;b&gt;#&#8203;42&lt;/b&gt; \\| now\n');
    // What docket itself writes in backticks in a warning is code; the rest is escaped.
    const coded = md(plan([], { warnings: ['add `renamed_from: [Inbound DPA]` to @team\'s rule, or `</details>`'] }));
    expect(coded).toContain("> - add `renamed_from: [Inbound DPA]` to @&#8203;team's rule, or `</details>`\n");
    expect(markdownShape(coded).detailsCount).toBe(markdownShape(md(plan([]))).detailsCount);
    // A backtick in user text (always quoted in a warning) opens no code span, nor closes one.
    const user = md(plan([], { warnings: ['member bob (the file says "Robert `Bobby` Jones") keeps its name', 'playbook "Vendor MSAs ` @octocat <b>hi</b>" looks like a rename: add `renamed_from: ["Vendor ` MSA"]`'] }));
    expect(user).toContain('> - member bob (the file says "Robert \\`Bobby\\` Jones") keeps its name\n');
    expect(user).toContain('> - playbook "Vendor MSAs \\` @&#8203;octocat &lt;b&gt;hi&lt;/b&gt;" looks like a rename: add ``renamed_from: ["Vendor ` MSA"]``\n');
    // The fence around rule text is longer than any run of backticks inside it.
    expect(out).toContain('    `````diff\n');
    expect(markdownShape(out).detailsCount).toBe(2);
    expectWellFormed(out);
  });

  it('shows a long list changed item by item in a diff block, a short one inline', () => {
    const subs = (renamed: number) => Array.from({ length: 40 }, (_, i) => ({ name: i === renamed ? 'Renamed Ltd' : `Sub ${i + 1}` }));
    const out = md(plan([change('update', 'template', 'DPA', { fields: { subprocessors_attributes: [subs(-1), subs(19)], attachments: [['A'], ['A', 'B']] } })]));
    expect(out).toContain(['  - `subprocessors_attributes`:', '    ```diff', '    @@ -17,7 +17,7 @@'].join('\n'));
    expect(out).toContain(['    -{"name":"Sub 20"}', '    +{"name":"Renamed Ltd"}'].join('\n'));
    expect(out).not.toContain('{"name":"Sub 1"}');
    expect(out).toContain('  - `attachments`: `["A"]` → `["A","B"]`');
    expectWellFormed(out);
  });

  it('shows the organization singleton without a name', () => {
    const org = change('update', 'organization', 'organization', { file: 'organization.yaml', line: 2, fields: { 'review.name': ['Acme', 'Acme Legal'] } });
    expect(md(plan([org]))).toContain('- `~` **update** organization · `organization.yaml:2`\n  - `review.name`: `"Acme"` → `"Acme Legal"`\n');
  });

  it('renders multi-line values as a diff block inside the field item', () => {
    const out = md(plan([change('create', 'rule', 'P/Term', { parent: 'P', fields: { actions: [null, 'ACCEPT 3 years\nCOUNTER 2 years'] } })]));
    expect(out).toContain('  - `actions`:\n    ```diff\n    @@ -0,0 +1,2 @@\n    +ACCEPT 3 years\n    +COUNTER 2 years\n    ```\n');
  });

  it('drops field details from the biggest kind first when over the limit', () => {
    const long = 'x'.repeat(200);
    const rules = Array.from({ length: 20 }, (_, i) => change('update', 'rule', `P/R${i}`, { parent: 'P', fields: { description: [long, `${long}!`] } }));
    const p = plan([change('update', 'playbook', 'P', { fields: { description: ['a', 'b'] } }), ...rules]);
    const full = md(p);
    const out = md(p, full.length - 100);
    expect(out.length).toBeLessThan(full.length - 100);
    // The room left after that is given back to the first rules' details (probe RG-2).
    const omitted = Number(/<summary>Rules \(20 changes, details of (\d+) omitted\)<\/summary>/.exec(out)?.[1]);
    expect(omitted).toBeGreaterThan(0);
    expect(omitted).toBeLessThan(20);
    const shownDetails = (out.match(/^ {2}- `description`: `"x{200}"` → /gm) ?? []).length;
    expect(shownDetails).toBe(20 - omitted);
    expect(out.indexOf('rule `P/R0`')).toBeLessThan(out.indexOf('  - `description`: `"xxx'));
    expect(out.slice(out.indexOf('rule `P/R19`'))).not.toContain('`description`');
    expect(out).toContain('<summary>Playbooks (1 change)</summary>');
    expect(out).toContain('  - `description`: `"a"` → `"b"`');
    expect(out).toContain('- `~` **update** rule `P/R19`');
    expect(out).toContain('_Output truncated to stay under the');
    expectWellFormed(out);
  });

  it("leaves out a huge change's details on their own, keeping its kind's others (probe MC-1)", () => {
    const megabyte = Array.from({ length: 10_000 }, (_, i) => `COUNTERPROPOSE clause ${i} with enough words to be a long line of text`).join('\n');
    const p = plan([
      change('create', 'rule', 'Huge/One MB', { parent: 'Huge', fields: { actions: [null, megabyte] } }),
      change('create', 'rule', 'Huge/Small', { parent: 'Huge', fields: { actions: [null, 'ACCEPT a\nACCEPT b'] } }),
    ]);
    const out = md(p);
    expect(out.length).toBeLessThan(60_000);
    expect(out).toContain('<summary>Rules (2 changes, details of 1 omitted)</summary>');
    expect(out).toContain('- `+` **create** rule `Huge/One MB`\n  - _details omitted to fit the comment_\n');
    expect(out).toContain('    +ACCEPT a\n    +ACCEPT b\n');
    expect(out).toContain('_Output truncated to stay under the');
    expectWellFormed(out);
    // Beside a kind of many middling changes, that kind's details go next, not the huge change's kind's others (second read SR76-2).
    const lines = (n: number, word: string) => Array.from({ length: n }, (_, i) => `${word} clause ${i} with enough words to be a long line of text`).join('\n');
    const mixed = md(plan([...p.changes, ...Array.from({ length: 45 }, (_, i) => change('update', 'template', `T${i}`, { fields: { description: [lines(12, 'old'), lines(12, 'new')] } }))]));
    expect(mixed).toContain('<summary>Rules (2 changes, details of 1 omitted)</summary>');
    expect(mixed).toContain('    +ACCEPT a\n');
    expect(mixed).toMatch(/<summary>Templates \(45 changes, details (omitted|of \d+ omitted)\)<\/summary>/);
  });

  it('says of a long one-line text shown around its change that both sides print alike when they do (second read SR76-1)', () => {
    const words = Array.from({ length: 100 }, (_, i) => `word${String(i).padStart(5, '0')}`).join(' ');
    const nfd = `${words} Re\u0301sume\u0301 ${words}`;
    expect(md(plan([change('update', 'rule', 'NDA/Term', { fields: { actions: [nfd, nfd.normalize('NFC')] } })]))).toContain('(no visible difference: the same letters, their accents encoded otherwise)');
  });

  it('keeps a 3000-change plan under 60,000 characters, well formed, with the note', () => {
    const changes: Change[] = [];
    for (let i = 0; i < 1000; i++) {
      changes.push(change('create', 'playbook', `Playbook ${i}`, { file: `playbooks/p${i}.yaml`, line: 1, fields: { name: [null, `Playbook ${i}`], description: [null, 'd'.repeat(40)] } }));
      changes.push(
        change('update', 'rule', `Playbook ${i}/Term`, {
          parent: `Playbook ${i}`,
          file: `playbooks/p${i}.yaml`,
          line: 5,
          fields: { actions: ['ACCEPT 3 years\nCOUNTER 2 years\n```\nfenced\n```', 'ACCEPT 2 years\nCOUNTER 2 years\n```\nfenced\n```'] },
        }),
      );
      changes.push(change('delete', 'rule', `Playbook ${i}/Old`, { parent: `Playbook ${i}`, irreversible: true }));
    }
    const out = md(plan(changes));
    expect(out.length).toBeLessThan(60_000);
    expect(out).toContain(NOTE);
    expect(out).toContain('| `+` create | 1000 |');
    // Every kind lists some of its changes: the cut is shared, not first come first served.
    expect(out).toMatch(/<summary>Playbooks \(1,000 changes, details omitted, [1-9][\d,]* listed\)<\/summary>/);
    expect(out).toMatch(/<summary>Rules \(2,000 changes, details omitted, [1-9][\d,]* listed\)<\/summary>/);
    expect(out).toContain('- `-` **delete** rule `Playbook 0/Old` (permanent)');
    expect(out).toMatch(/- _… and [\d,]+ more not listed_/);
    expectWellFormed(out);
    expect(markdownShape(out).detailsCount).toBe(2);
  });

  it('lists what apply changes before live changes a drift policy holds, and counts none of those as a permanent delete (probe EF-2)', () => {
    const held = Array.from({ length: 250 }, (_, i) => ({ ...change('delete', 'rule', `P/made in the app ${i} ${'x'.repeat(200)}`, { parent: 'P', irreversible: true }), policy: 'adopt' as const }));
    const out = md(plan([change('update', 'rule', 'Q/B', { parent: 'Q', fields: { actions: ['X', 'Y'] } })], { held }));
    expect(out.length).toBeLessThan(60_000);
    expect(out).toContain('- `~` **update** rule `Q/B`');
    const left = /<summary>Live changes the drift policy leaves alone \(250 changes, [\d,]+ listed\)[^]*- _… and ([\d,]+) more not listed_\n/.exec(out);
    expect(left).not.toBeNull();
    expect(out).not.toContain('permanent deletes');
    expectWellFormed(out);
  });

  it('lists the permanent deletes and archives of a kind first when its list is cut, each by name, then the rest (probe GL)', () => {
    const changes: Change[] = [];
    for (let i = 0; i < 1190; i++) changes.push(change('update', 'rule', `P/rule ${String(i).padStart(4, '0')}`, { parent: 'P', fields: { actions: [`ACCEPT ${i}`, `ACCEPT ${i} v2`] } }));
    for (let i = 1190; i < 1200; i++) changes.push(change('delete', 'rule', `P/rule ${i}`, { parent: 'P', irreversible: true }));
    changes.push(change('archive', 'playbook', 'Old'), ...Array.from({ length: 900 }, (_, i) => change('create', 'playbook', `New ${i}`, { fields: { name: [null, `New ${i}`] } })));
    const out = md(plan(changes));
    expect(out.length).toBeLessThan(60_000);
    expect(out).toContain(NOTE);
    for (let i = 1190; i < 1200; i++) expect(out).toContain(`- \`-\` **delete** rule \`P/rule ${i}\` (permanent)`);
    expect(out).toContain('**archive** playbook `Old`');
    const rules = out.slice(out.indexOf('<summary>Rules'));
    expect(rules.indexOf('P/rule 1199')).toBeLessThan(rules.indexOf('**update**'));
    expect(rules).toContain('- `~` **update** rule `P/rule 0000`');
    expect(rules).toMatch(/- _… and [\d,]+ more not listed_/);
    expectWellFormed(out);
    // More deletes than fit: those left out are counted apart from the updates.
    const many = md(plan(Array.from({ length: 2400 }, (_, i) => change(i % 2 ? 'delete' : 'update', 'rule', `P/Clause ${i} limitation of liability`, { parent: 'P', irreversible: i % 2 === 1, fields: i % 2 ? {} : { actions: ['A', 'B'] } }))));
    expect(many.length).toBeLessThan(60_000);
    const left = /- _… and ([\d,]+) more not listed, ([\d,]+) of them permanent deletes_/.exec(many);
    expect(left).not.toBeNull();
    const listedDeletes = many.split('\n').filter((l) => l.startsWith('- `-` **delete**')).length;
    expect(listedDeletes + Number(left![2]!.replace(/,/g, ''))).toBe(1200);
    expect(Number(left![1]!.replace(/,/g, ''))).toBe(2400 - many.split('\n').filter((l) => /^- `[-~]` \*\*(delete|update)\*\*/.test(l)).length);
    expect(many).not.toContain('**update**');
    expectWellFormed(many);
    // A publish cannot be undone either: listed before the updates (second read).
    const published = md(plan([...Array.from({ length: 2000 }, (_, i) => change('update', 'custom-term', `Term ${i} with a name long enough to fill the comment`, { fields: { description: ['a', 'b'] } })), change('publish', 'custom-term', 'Last term', { irreversible: true })]));
    expect(published).toContain('**publish** custom-term `Last term`');
    // Deletes of one kind before another kind's updates: none is left to a count while an update is listed (probe OV-1).
    const long = 'a playbook name long enough to fill the comment';
    const kinds = md(plan([...Array.from({ length: 400 }, (_, i) => change('update', 'playbook', `PB ${i} ${long}`, { fields: { description: [`d${i}`, `d${i} edited`] } })), ...Array.from({ length: 400 }, (_, i) => change('delete', 'rule', `PB ${i} ${long}/R1`, { parent: `PB ${i} ${long}`, irreversible: true }))]));
    expect(kinds.length).toBeLessThan(60_000);
    expect(kinds).toMatch(/- _… and [\d,]+ more not listed_/);
    expect(kinds).not.toContain('of them permanent deletes');
    expect(kinds.split('\n').filter((l) => l.startsWith('- `-` **delete**'))).toHaveLength(400);
    // Deletes longer than the updates: once one is left to a count, no shorter update takes the room (second read SR81-1).
    const longer = md(plan([...Array.from({ length: 200 }, (_, i) => change('update', 'playbook', `P${i}`, { fields: { description: ['a', 'b'] } })), ...Array.from({ length: 200 }, (_, i) => change('delete', 'rule', `P${i}/${'x'.repeat(300)}`, { parent: `P${i}`, irreversible: true }))]));
    expect(longer).toContain('of them permanent deletes');
    expect(longer).not.toContain('**update**');
    // The kind left no room says so, and its changes are still counted (probe WE-1, README).
    expect(longer).toMatch(/<summary>Playbooks \(200 changes[^)]*, 0 listed\)<\/summary>/);
    expectWellFormed(kinds);
  });

  it('lists a delete whose name runs to tens of thousands of characters with the name cut, not as a bare count (probe SD-1)', () => {
    const huge = `N${'x'.repeat(70_000)} end`;
    const large = `M${'y'.repeat(55_000)} end`;
    const out = md(plan([change('delete', 'rule', `Long/${huge}`, { parent: 'Long', irreversible: true }), change('delete', 'rule', `Long/${large}`, { parent: 'Long', irreversible: true }), change('update', 'playbook', 'Long', { fields: { description: ['a', 'b'] } })]));
    expect(out.length).toBeLessThan(60_000);
    const deletes = out.split('\n').filter((l) => l.startsWith('- `-` **delete** rule `Long/N') || l.startsWith('- `-` **delete** rule `Long/M'));
    expect(deletes).toHaveLength(2);
    for (const line of deletes) expect(line).toMatch(/…` \(permanent\)$/);
    expect(out).not.toContain('more not listed');
    // Names of ordinary length are listed whole.
    expect(out).toContain('**update** playbook `Long`');
    expectWellFormed(out);
  });

  it('cuts names of tens of thousands of characters before any change\'s details go: three of them took the details of a small edit beside them (probe CE-3)', () => {
    const names = [1, 2, 3].map((i) => `R${i} ${'Ab`c|<x>@d '.repeat(3000)}`);
    const out = md(plan([...names.map((n) => change('create', 'rule', `P/${n}`, { parent: 'P', fields: { name: [null, 'short'] } })), change('update', 'rule', 'P/Term', { parent: 'P', fields: { actions: ['ACCEPT 3 years', 'ACCEPT 5 years'] } })]));
    expect(out.length).toBeLessThan(60_000);
    expect(out).toContain('ACCEPT 5 years');
    expect(out).not.toContain('details omitted');
    expectWellFormed(out);
  });

  it('cuts a listed name by what it shows: an invisible character shows as eight (`<U+00AD>`), so 150 of them are cut too (probe YH-5)', () => {
    const hidden = '\u00ad'.repeat(150);
    const rules = Array.from({ length: 300 }, (_, i) => change('create', 'rule', `P/R${i}${hidden}`, { parent: 'P' }));
    const out = md(plan(rules), 60_000);
    const listed = out.split('\n').filter((l) => l.startsWith('- `+` **create** rule'));
    expect(listed.length).toBeGreaterThan(50);
    for (const line of listed) expect(line.length).toBeLessThan(400);
    expectWellFormed(out);
  });

  it('cuts a plan whose details run to 200,000 lines instead of crashing (a 20,000-rule plan did)', () => {
    const changes = [
      change('create', 'custom-term', 'Huge', { fields: { body: [null, 'clause\n'.repeat(200_000)] } }),
      change('update', 'rule', 'P/R', { parent: 'P', fields: { actions: ['ACCEPT 3 years', 'ACCEPT 2 years'] } }),
    ];
    const out = md(plan(changes));
    expect(out.length).toBeLessThan(60_000);
    expect(out).toContain('- `~` **update** rule `P/R`');
    expect(out).toContain(NOTE);
    expectWellFormed(out);
  });

  it('keeps the changes listed when warnings would fill the comment, and counts the warnings left out', () => {
    const warnings = Array.from({ length: 400 }, (_, i) => `playbook "Beta ${i}" looks like a rename of "Alpha ${i}" ${'w'.repeat(150)}`);
    const creates = Array.from({ length: 800 }, (_, i) => change('create', 'playbook', `Beta ${i}`, { fields: { name: [null, `Beta ${i}`] } }));
    const out = md(plan(creates, { warnings }), 60_000);
    expect(out.length).toBeLessThan(60_000);
    expectWellFormed(out);
    const listed = out.split('\n').filter((l) => l.startsWith('> - playbook')).length;
    expect(listed).toBeGreaterThan(50);
    expect(out).toContain(`> - _… and ${400 - listed} more warnings not listed_`);
    // The changes still have their section, with as many listed as fit.
    expect(out).toMatch(/<details><summary>Playbooks \(800 changes[^)]*\)<\/summary>/);
    expect(out.split('\n').filter((l) => l.startsWith('- `+`')).length).toBeGreaterThan(50);
    expect(out).toContain(NOTE);
  });

  it('lists first, and never cuts, that apply will refuse the plan', () => {
    const violation = { kind: 'rule' as const, removals: 520, live: 1000, threshold: 0.3 };
    const warnings = [...Array.from({ length: 400 }, (_, i) => `rule "P/R ${i}" was edited in the app ${'w'.repeat(150)}`), guardWarning(violation)];
    const removes = Array.from({ length: 520 }, (_, i) => change('delete', 'rule', `P/R ${i}`, { parent: 'P' }));
    for (const limit of [60_000, 3000]) {
      const out = md(plan(removes, { warnings, guard: [violation] }), limit);
      expect(out.length).toBeLessThan(limit);
      const first = out.split('\n').find((l) => l.startsWith('> - '));
      expect(first).toBe(`> - apply will refuse this plan: ${describeViolation(violation).replace(/_/g, '\\_')}; pass --force to apply it anyway`);
      expect(out.split('apply will refuse').length).toBe(2);
    }
  });

  it("says the refusals of many parents' children as one, naming the first few, so none is cut (probe LA-1)", () => {
    const parent = (i: number) => `playbook "P${String(i).padStart(3, '0')} ${'L'.repeat(190)}"`;
    const guard = Array.from({ length: 200 }, (_, i) => ({ kind: 'rule' as const, removals: 2, live: 5, threshold: 0.3, parent: parent(i), recreates: true as const }));
    const warnings = guard.map(guardWarning);
    const creates = Array.from({ length: 400 }, (_, i) => change('create', 'rule', `P/R ${i}`, { parent: 'P' }));
    const out = md(plan(creates, { warnings, guard }), 60_000);
    const refusals = out.split('\n').filter((l) => l.includes('apply will refuse'));
    expect(refusals).toHaveLength(1);
    expect(refusals[0]).toContain('in each of 200 playbooks, over the safety threshold of 30% (safety.max\\_delete\\_fraction)');
    expect(refusals[0]).toContain('(2 of 5, 40%)');
    expect(refusals[0]).toMatch(/and 197 more \(`docket plan -o json` lists each under `guard`\); pass --force to apply it anyway$/);
    // Three or fewer are said each.
    const few = md(plan(creates, { warnings: warnings.slice(0, 3), guard: guard.slice(0, 3) }), 60_000);
    expect(few.split('\n').filter((l) => l.includes('apply will refuse'))).toHaveLength(3);
  });

  it('cuts warnings that would take most of the comment, though they fit, so the changes are listed', () => {
    const warnings = Array.from({ length: 205 }, (_, i) => `warning ${i} ${'w'.repeat(270)}`);
    const updates = Array.from({ length: 300 }, (_, i) => change('update', 'playbook', `P ${i}`, { fields: { description: ['a', 'b'] } }));
    const out = md(plan(updates, { warnings }), 60_000);
    expect(out.length).toBeLessThan(60_000);
    expect(out.split('\n').filter((l) => l.startsWith('- `~`')).length).toBeGreaterThan(100);
    expect(out).toMatch(/> - _… and \d+ more warnings not listed_/);
  });

  it('stays under a tiny limit even when the warnings alone are too long', () => {
    const warnings = Array.from({ length: 200 }, (_, i) => `warning ${i} ${'w'.repeat(500)}`);
    const out = md(plan([change('create', 'playbook', 'A', { fields: { name: [null, 'A'] } })], { warnings }), 3000);
    expect(out.length).toBeLessThan(3000);
    expect(out).toContain('_Output truncated to stay under the 3,000-character comment limit');
    expectWellFormed(out);
  });

  it('stays under the limit as printed, where every `##[` of a name becomes `# #[` on its way out (probe JY-1)', () => {
    const name = (i: number): string => `P${i} ${'##['.repeat(64)}`;
    const big = plan(Array.from({ length: 600 }, (_, i) => change('create', 'playbook', name(i), { fields: { name: [null, name(i)], description: [null, '##['.repeat(300)] } })));
    // Rendered to the limit, its printed form goes past it: the report is fitted to that.
    expect(defuseWorkflowCommands(md(big)).length).toBeGreaterThan(60_000);
    const fitted = fitPrinted((room) => renderPlanMarkdown(big, { kindOrder: KIND_ORDER, maxChars: room, limitSaid: 60_000 }));
    expect(defuseWorkflowCommands(fitted).length).toBeLessThan(60_000);
    expect(fitted).toContain(NOTE);
    expectWellFormed(fitted);
  });

  it('never breaks structure, whatever the names and values contain', () => {
    const nasty = ['```', '````', '</details>', '<details>', '> quote', '| a | b |', '\n\n# h', '`', '~~~', '<!--', '-->', '\\', '@x', '[x](y)', '\r\n'];
    let seed = 7;
    const pick = (): string => {
      seed = (seed * 48271) % 2147483647;
      return nasty[seed % nasty.length]!;
    };
    for (let round = 0; round < 50; round++) {
      const text = (): string => Array.from({ length: 4 }, pick).join('');
      const p = plan(
        [
          change('create', 'playbook', text(), { file: text(), fields: { description: [null, text()] } }),
          change('update', 'rule', `${text()}/${text()}`, { fields: { actions: [text(), `${text()}\n${text()}`] } }),
        ],
        { warnings: [text()] },
      );
      for (const maxChars of [60_000, 900]) {
        const out = md(p, maxChars);
        expect(out.length).toBeLessThan(maxChars);
        expectWellFormed(out);
      }
    }
  });
});

describe("a URL's hidden parts in markdown", () => {
  it('keeps each rule its name and says a value differs where only its hidden part changes', () => {
    const linked = 'Links https://ex.example/a?ref=1';
    const md = renderPlanMarkdown(plan([change('update', 'rule', `${linked}/Term`, { parent: linked, fields: { actions: ['see https://bob:pw1@x.example/doc?id=5 now', 'see https://bob:pw2@x.example/doc?id=5 now'] } })]), { kindOrder: KIND_ORDER });
    expect(md).toContain('rule `Links https://ex.example/a?… / Term`');
    expect(md).toContain("`\"see https://***@x.example/doc?… now\"` → `\"see https://***@x.example/doc?… now\"` (no visible difference: they differ only in what output hides as it may hold a secret: a URL's query or fragment, a `user:password@`)");
    expect(md).not.toMatch(/ref=1|pw1|pw2|id=5/);
  });
});
