import { describe, expect, it } from 'vitest';
import { alikeIn, buildDesired, declaredBy } from '../../../src/engine/desired.js';
import { Diagnostics } from '../../../src/diagnostics.js';
import type { DesiredContext } from '../../../src/kinds/kind.js';
import type { AnyKind } from '../../../src/kinds/index.js';
import type { ResourceDoc } from '../../../src/config/types.js';
import { KINDS } from '../../../src/kinds/index.js';
import { projectConfig, resourceDoc } from './builders.js';

function build(documents: ResourceDoc[]) {
  return buildDesired({ project: projectConfig(), documents }, KINDS, new Map());
}

describe('buildDesired', () => {
  it('turns every document into resources of its kind, rules included', async () => {
    const { desired, diagnostics } = await build([
      resourceDoc('Member', { email: 'bob@acme.example' }, {}, 'members.yaml'),
      resourceDoc('Playbook', { name: 'NDA', rules: [{ name: 'Term', actions: 'A' }] }),
    ]);
    expect(diagnostics.items).toEqual([]);
    expect(desired.map((d) => `${d.kind}:${d.key}`)).toEqual(['member:bob@acme.example', 'playbook:NDA', 'rule:NDA/Term']);
  });

  it('says two rules renamed from one name once, also when one lists that name twice (probe AD-4)', async () => {
    const rules = [
      { name: 'B', renamed_from: ['Old'], actions: 'b' },
      { name: 'A', renamed_from: ['Old', 'Old'], actions: 'a' },
    ];
    const { diagnostics } = await build([resourceDoc('Playbook', { name: 'P', rules })]);
    expect(diagnostics.items.filter((d) => d.code === 'duplicate-renamed-from').map((d) => d.message)).toEqual(['rule "A" and rule "B" (playbooks/nda.yaml:1) both say they were renamed from "Old"']);
  });

  it('takes a document declaring more children than a call takes arguments, not a crash (probe QI-3: a playbook of 124,000 rules)', async () => {
    const parent = { name: 'parent', toDesired: () => [{ kind: 'parent' }] } as unknown as AnyKind;
    const children = Array.from({ length: 200_000 }, () => ({ kind: 'child' }));
    const child = { name: 'child', parentKind: 'parent', toDesired: () => children } as unknown as AnyKind;
    const declared = await declaredBy(resourceDoc('Playbook', { name: 'Big' }), parent, [parent, child], new Diagnostics(), { project: projectConfig(), files: new Map() } as unknown as DesiredContext);
    expect(declared).toHaveLength(200_001);
  });

  it('reports a resource declared twice at the second place, naming the first', async () => {
    const first = resourceDoc('Member', { email: 'bob@acme.example' }, {}, 'members.yaml');
    const second = resourceDoc('Member', { email: 'BOB@acme.example' }, { '/email': 9 }, 'more-members.yaml');
    const { desired, diagnostics } = await build([first, second]);
    expect(desired).toHaveLength(1);
    // At the e-mail, which is what repeats.
    expect(diagnostics.errors).toEqual([expect.objectContaining({ code: 'duplicate-resource', file: 'more-members.yaml', line: 9 })]);
    // Quoted as written there, not as compared (probe IA-4).
    expect(diagnostics.errors[0]!.message).toBe('member "BOB@acme.example" is declared twice (also at members.yaml:1)');
  });

  it('warns of a renamed_from swap, once a pair, and of a rule renamed from a rule of another declared playbook: the plan would do something else without a word (probes JQ-2, JQ-3)', async () => {
    const { diagnostics } = await build([
      resourceDoc('Playbook', { name: 'Vendor MSA', renamed_from: ['Inbound NDA'], rules: [{ name: 'Cap', actions: 'A' }] }, {}, 'a.yaml'),
      resourceDoc('Playbook', { name: 'Inbound NDA', renamed_from: 'Vendor MSA', rules: [{ name: 'Residuals', actions: 'A', renamed_from: ['Vendor MSA/Cap', 'Old/Cap', 'Inbound NDA/Own'] }, { name: 'Vendor MSA/Late fees', actions: 'A', renamed_from: ['Vendor MSA/Fees'] }, { name: 'A', actions: 'A', renamed_from: ['B'] }, { name: 'B', actions: 'B', renamed_from: ['A'] }] }, {}, 'b.yaml'),
    ]);
    expect(diagnostics.errors).toEqual([]);
    expect(diagnostics.warnings.map((w) => `${w.file} ${w.code}: ${w.message}`)).toEqual([
      'a.yaml renamed-from-swap: playbook "Vendor MSA" says it was renamed from "Inbound NDA", and playbook "Inbound NDA" (b.yaml:1) that it was renamed from "Vendor MSA": `renamed_from` cannot swap two names; where both are live, each is matched by the name it has, so their contents trade places (their children deleted and made again)',
      'b.yaml renamed-from-swap: rule "A" says it was renamed from "B", and rule "B" (b.yaml:1) that it was renamed from "A": `renamed_from` cannot swap two names; where both are live, each is matched by the name it has, so their contents trade places',
      // Not "Old/Cap" (no playbook Old is declared: a rule may hold "/" in its name), nor its own playbook's name,
      // nor a former name of a rule whose own name starts as it does (second read SR71-2).
      'b.yaml renamed-from-other-parent: rule "Residuals" of playbook "Inbound NDA" says it was renamed from "Vendor MSA/Cap", which reads as rule "Cap" of playbook "Vendor MSA": `renamed_from` names a rule of the same playbook, and a rule cannot move to another playbook',
    ]);
  });

  it('says no swap of two documents both pinned by id: each is matched by its id, as a swap pulled from the app writes them (probe AD-3)', async () => {
    const pinned = (name: string, from: string, id: string) => resourceDoc('Playbook', { name, id, renamed_from: [from], rules: [{ name: 'R', actions: 'A' }] }, {}, `${name}.yaml`);
    const both = await build([pinned('A', 'B', '11111111-1111-4111-8111-111111111111'), pinned('B', 'A', '22222222-2222-4222-8222-222222222222')]);
    expect(both.diagnostics.warnings.filter((w) => w.code === 'renamed-from-swap')).toEqual([]);
    // Nor a cycle of three, all pinned (second read SR99-3).
    const three = await build([pinned('A', 'B', '11111111-1111-4111-8111-111111111111'), pinned('B', 'C', '22222222-2222-4222-8222-222222222222'), pinned('C', 'A', '33333333-3333-4333-8333-333333333333')]);
    expect(three.diagnostics.warnings.filter((w) => w.code === 'renamed-from-swap')).toEqual([]);
    // One of them pinned: the other is matched by its name, and the warning stays.
    const one = await build([pinned('A', 'B', '11111111-1111-4111-8111-111111111111'), resourceDoc('Playbook', { name: 'B', renamed_from: ['A'], rules: [{ name: 'R', actions: 'A' }] }, {}, 'B.yaml')]);
    expect(one.diagnostics.warnings.map((w) => w.code)).toEqual(['renamed-from-swap']);
  });

  it('warns of a rule renamed from a rule of a playbook that is itself renamed: its former name names it too (probe QH-2)', async () => {
    const { diagnostics } = await build([
      resourceDoc('Playbook', { name: 'A2', renamed_from: ['A'], rules: [{ name: 'r1', actions: 'A', renamed_from: ['A/r0'] }] }, {}, 'a.yaml'),
      resourceDoc('Playbook', { name: 'B', rules: [{ name: 'r2', actions: 'A', renamed_from: ['A/r2'] }] }, {}, 'b.yaml'),
    ]);
    // Not of A2's own rule named from its own former name.
    expect(diagnostics.warnings.map((w) => `${w.file} ${w.code}: ${w.message}`)).toEqual([
      'b.yaml renamed-from-other-parent: rule "r2" of playbook "B" says it was renamed from "A/r2", which reads as rule "r2" of playbook "A": `renamed_from` names a rule of the same playbook, and a rule cannot move to another playbook',
    ]);
  });

  it('warns of a cycle of three or more renames as of a swap, once, and not of a chain (probe KU-3)', async () => {
    const { diagnostics } = await build([
      resourceDoc('Playbook', { name: 'Vendor MSA', renamed_from: ['Inbound NDA'] }, {}, 'a.yaml'),
      resourceDoc('Playbook', { name: 'Third', renamed_from: ['Vendor MSA'] }, {}, 'b.yaml'),
      resourceDoc('Playbook', { name: 'Inbound NDA', renamed_from: ['Third'] }, {}, 'c.yaml'),
      // A renumbering: S3 from S2, S2 from S1, a new S1. No cycle.
      resourceDoc('Playbook', { name: 'Steps', rules: [{ name: 'S1', actions: 'A' }, { name: 'S2', actions: 'A', renamed_from: ['S1'] }, { name: 'S3', actions: 'A', renamed_from: ['S2'] }] }, {}, 'd.yaml'),
    ]);
    expect(diagnostics.warnings.map((w) => `${w.file}:${w.line} ${w.code}: ${w.message}`)).toEqual([
      'b.yaml:1 renamed-from-swap: playbooks "Vendor MSA" ← "Inbound NDA" ← "Third" ← "Vendor MSA" are each renamed from the next one\'s name: `renamed_from` cannot move names round in a cycle; where all are live, each is matched by the name it has, so their contents trade places',
    ]);
  });

  it('names the first few of a long rename cycle, not all (second read SR73-10)', async () => {
    const n = 8;
    const { diagnostics } = await build(Array.from({ length: n }, (_, i) => resourceDoc('Playbook', { name: `P${i}`, renamed_from: [`P${(i + 1) % n}`] }, {}, `p${i}.yaml`)));
    expect(diagnostics.warnings.map((w) => w.message.split(' are each')[0])).toEqual(['playbooks "P0" ← "P1" ← "P2" ← "P3" ← "P4" ← … 3 more ← "P0"']);
  });

  it('allows only one Organization, and reports every extra one at its own file', async () => {
    const { diagnostics } = await build([
      resourceDoc('Organization', { review: { name: 'A' } }, {}, 'organization.yaml'),
      resourceDoc('Organization', { review: { name: 'B' } }, {}, 'org2.yaml'),
      resourceDoc('Organization', { review: { name: 'C' } }, {}, 'org3.yaml'),
    ]);
    expect(diagnostics.errors.map((d) => [d.code, d.file])).toEqual([
      ['duplicate-resource', 'org2.yaml'],
      ['duplicate-resource', 'org3.yaml'],
    ]);
    expect(diagnostics.errors[1]!.message).toMatch(/^only one organization may be declared \(the first is at organization\.yaml:\d+\)$/);
  });

  it('refuses a second Organization document that writes no key (its `id:` would go unread), or beside a first one with errors (probe PY-5)', async () => {
    const empty = await build([
      resourceDoc('Organization', { review: { name: 'A' } }, {}, 'org.yaml'),
      resourceDoc('Organization', { id: '00000000-0000-4000-8000-000000000009' }, {}, 'org2.yaml'),
    ]);
    expect(empty.diagnostics.errors.map((d) => [d.code, d.file, d.message, d.hint])).toEqual([
      ['duplicate-resource', 'org2.yaml', 'only one organization may be declared (the first is at org.yaml:1)', 'merge the two Organization documents into one'],
    ]);
    // The first one declaring nothing (a part that is no mapping, the schema's error) is still the first.
    const broken = await build([resourceDoc('Organization', { agreements: 'Acme' }, {}, 'org.yaml'), resourceDoc('Organization', { review: { name: 'B' } }, {}, 'org3.yaml')]);
    expect(broken.diagnostics.errors.map((d) => [d.code, d.file])).toEqual([['duplicate-resource', 'org3.yaml']]);
    expect(broken.desired).toEqual([]);
  });

  it('refuses two names of one kind that differ only in white space or Unicode normalisation: every plan would show them alike', async () => {
    const { desired, diagnostics } = await build([
      resourceDoc('Playbook', { name: 'Caf\u00e9' }, {}, 'a.yaml'),
      resourceDoc('Playbook', { name: 'Cafe\u0301' }, {}, 'b.yaml'),
      resourceDoc('Playbook', { name: 'Inbound NDA', rules: [{ name: 'Term', actions: 'A' }, { name: 'Term ', actions: 'B' }] }, {}, 'c.yaml'),
      resourceDoc('Playbook', { name: 'Inbound\u00a0NDA' }, {}, 'd.yaml'),
      // Case is part of a name: these two are different playbooks, and look it.
      resourceDoc('Playbook', { name: 'cafe' }, {}, 'e.yaml'),
      // So are a superscript and full-width letters: they read differently.
      resourceDoc('Playbook', { name: 'Schedule 2' }, {}, 'f.yaml'),
      resourceDoc('Playbook', { name: 'Schedule \u00b2' }, {}, 'g.yaml'),
      resourceDoc('Playbook', { name: 'Notes' }, {}, 'h.yaml'),
      resourceDoc('Playbook', { name: '\uff2e\uff4f\uff54\uff45\uff53' }, {}, 'i.yaml'),
      // Characters that show as nothing, as blank-name counts them (a Hangul filler, a combining grapheme joiner; probe FY).
      resourceDoc('Playbook', { name: 'Term\u3164' }, {}, 'j.yaml'),
      resourceDoc('Playbook', { name: 'Term' }, {}, 'k.yaml'),
      resourceDoc('Playbook', { name: 'Ter\u034fm' }, {}, 'l.yaml'),
      // A braille blank shows as a space (probe GA).
      resourceDoc('Playbook', { name: 'Term\u2800' }, {}, 'm.yaml'),
      // A Cyrillic А drawn as the Latin A is (probe IM-3); so is a whole name whose every letter is
      // drawn as a Latin one (ТОР, TOP); letters that only resemble one another are names apart.
      resourceDoc('Playbook', { name: 'Vendor MSA' }, {}, 'n.yaml'),
      resourceDoc('Playbook', { name: 'Vendor MS\u0410' }, {}, 'o.yaml'),
      resourceDoc('Playbook', { name: 'TOP' }, {}, 'p.yaml'),
      resourceDoc('Playbook', { name: '\u0422\u041e\u0420' }, {}, 'q.yaml'),
      resourceDoc('Playbook', { name: 'Bravo' }, {}, 'r.yaml'),
      resourceDoc('Playbook', { name: '\u0432ravo' }, {}, 's.yaml'),
      resourceDoc('Playbook', { name: 'Caf\u00e9 terms' }, {}, 't.yaml'),
      resourceDoc('Playbook', { name: 'Caf\u0435\u0301 terms' }, {}, 'u.yaml'),
      resourceDoc('Playbook', { name: 'Zo\u00eb' }, {}, 'v.yaml'),
      resourceDoc('Playbook', { name: 'Zo\u0451' }, {}, 'w.yaml'),
    ]);
    // An accent encoded either way is one name (NFC): declared twice, not merely alike.
    expect(diagnostics.errors.map((d) => [d.code, d.file])).toEqual([
      ['duplicate-resource', 'b.yaml'],
      ['confusable-name', 'c.yaml'],
      ['confusable-name', 'd.yaml'],
      // At the name holding the odd character, read first here, not at the plain one (probe KQ-2).
      ['confusable-name', 'j.yaml'],
      ['confusable-name', 'l.yaml'],
      ['confusable-name', 'm.yaml'],
      ['confusable-name', 'o.yaml'],
      ['confusable-name', 'q.yaml'],
      ['confusable-name', 'u.yaml'],
      ['confusable-name', 'w.yaml'],
    ]);
    expect(diagnostics.errors.at(-4)!.message).toBe('playbook name "Vendor MSА" looks like playbook "Vendor MSA" (n.yaml:1): they differ only in letters of another alphabet drawn alike (Cyrillic `А`, Latin `A`)');
    expect(diagnostics.errors.find((d) => d.file === 'j.yaml')!.message).toBe('playbook name "Term\\u3164" looks like playbook "Term" (k.yaml:1): they differ only in characters that show as nothing');
    // Each message names only what the two names differ in (probe IP-3).
    expect(Object.fromEntries(diagnostics.errors.filter((d) => d.code === 'confusable-name').map((d) => [d.file, d.message.replace(/^.*they differ only in /, '')]))).toEqual({
      'c.yaml': 'white space',
      'd.yaml': 'white space',
      'j.yaml': 'characters that show as nothing',
      'l.yaml': 'characters that show as nothing',
      // Alike j.yaml's, the first of them: a Hangul filler there, a braille blank here.
      'm.yaml': 'characters that show as nothing and white space',
      'o.yaml': 'letters of another alphabet drawn alike (Cyrillic `А`, Latin `A`)',
      'q.yaml': 'letters of another alphabet drawn alike (Cyrillic `Т`, Latin `T`)',
      'u.yaml': 'letters of another alphabet drawn alike (Cyrillic `е`, Latin `e`)',
      'w.yaml': 'letters of another alphabet drawn alike (Cyrillic `е`, Latin `e`)',
    });
    expect(diagnostics.errors[0]!.message).toContain('a.yaml:1');
    expect(desired.map((d) => d.key)).toContain('cafe');
  });

  it('say every way two names alike differ, and only those (probe IP-3)', () => {
    expect(alikeIn('Cafe\u0301 terms ', 'Caf\u00e9 terms')).toBe('white space and how Unicode encodes a character');
    expect(alikeIn('Inbound\u200b NDA', 'Inbound NDA')).toBe('characters that show as nothing');
    expect(alikeIn('\u03a4\u039f\u03a1', 'TOP')).toBe('letters of another alphabet drawn alike (Greek `Τ`, Latin `T`)');
    // Not what both names have alike (second read SR67-18).
    expect(alikeIn('Договор поставки ', 'Договор поставки')).toBe('white space');
    expect(alikeIn('A\u200bB  C', 'A\u200bB C')).toBe('white space');
    expect(alikeIn('Cafe\u0301  x', 'Cafe\u0301 x')).toBe('white space');
    // The letter named is the one that differs, past a leading space (TR67-6).
    expect(alikeIn(' Договор \u0391', 'Договор A')).toBe('white space and letters of another alphabet drawn alike (Greek `Α`, Latin `A`)');
    // Marks in another order, both decomposed, are an encoding too (TR67-7); a letter of another
    // alphabet encoded as its Latin twin is not, composed or not.
    expect(alikeIn('Bre\u0323\u0301', 'Bre\u0301\u0323')).toBe('how Unicode encodes a character');
    expect(alikeIn('\u0451', '\u00eb')).toBe('letters of another alphabet drawn alike (Cyrillic `е`, Latin `e`)');
    expect(alikeIn('\u0435\u0308', 'e\u0308')).toBe('letters of another alphabet drawn alike (Cyrillic `е`, Latin `e`)');
    expect(alikeIn('\u0451', 'e\u0308')).toBe('how Unicode encodes a character and letters of another alphabet drawn alike (Cyrillic `е`, Latin `e`)');
  });

  it('refuses two names that differ only in what output hides of a URL: every plan would show them alike too (probe EP)', async () => {
    const { diagnostics } = await build([
      resourceDoc('Playbook', { name: 'Links https://ex.example/a?ref=1' }, {}, 'a.yaml'),
      resourceDoc('Playbook', { name: 'Links https://ex.example/a?ref=2' }, {}, 'b.yaml'),
      resourceDoc('Playbook', { name: 'Links https://ex.example/b?ref=2' }, {}, 'c.yaml'),
      // E-mail addresses are shown as written: two are two names that read differently.
      resourceDoc('Playbook', { name: 'Mail bob@acme.example' }, {}, 'd.yaml'),
      resourceDoc('Playbook', { name: 'Mail carol@acme.example' }, {}, 'e.yaml'),
      // So is `word:local@domain`, which is no URL without a scheme (probe IK).
      resourceDoc('Playbook', { name: 'Sales:anna@acme.example' }, {}, 'f.yaml'),
      resourceDoc('Playbook', { name: 'Sales:bob@acme.example' }, {}, 'g.yaml'),
      resourceDoc('Playbook', { name: 'mailto:legal@acme.example' }, {}, 'h.yaml'),
    ]);
    expect(diagnostics.errors.map((d) => [d.code, d.file])).toEqual([['confusable-name', 'b.yaml']]);
    expect(diagnostics.errors[0]!.message).toBe(
      `playbook name "Links https://ex.example/a?…" looks like playbook "Links https://ex.example/a?…" (a.yaml:1): they differ only in what output hides as it may hold a secret (a URL's query or fragment, a \`user:password@\`), so plans and reports would show them alike`,
    );
  });

  it('an Organization that writes no key manages nothing, and says so (the plan said the live organization could not be read)', async () => {
    const { desired, diagnostics } = await build([resourceDoc('Organization', { review: {} }, {}, 'organization.yaml')]);
    expect(desired).toEqual([]);
    expect(diagnostics.items.map((d) => [d.severity, d.code, d.file])).toEqual([['warning', 'empty-organization', 'organization.yaml']]);
    // One whose `review:` is no mapping writes a key, wrongly: the schema's error is all there is to say.
    for (const review of [['a'], null, 'x']) expect((await build([resourceDoc('Organization', { review }, {}, 'organization.yaml')])).diagnostics.items).toEqual([]);
    // Nor one whose keys are misspelt: each is the schema's error, and they are keys all the same.
    expect((await build([resourceDoc('Organization', { review: { default_reviwer: 'a@b.example' }, agreements: { zip: '01067' } }, {}, 'organization.yaml')])).diagnostics.items).toEqual([]);
    // Nor one with a key beside them, misspelt or a level too high (probe JJ-3).
    for (const body of [{ reviewr: { name: 'A' } }, { name: 'A' }]) expect((await build([resourceDoc('Organization', body, {}, 'organization.yaml')])).diagnostics.items).toEqual([]);
  });

  it('counts a name\'s characters as a person does: 200 emoji are 200 characters, not 400', async () => {
    const at200 = await build([resourceDoc('Playbook', { name: '\u{1F600}'.repeat(200) })]);
    expect(at200.diagnostics.items).toEqual([]);
    const at201 = await build([resourceDoc('Playbook', { name: `\u{1F600}${'\u00e9'.repeat(200)}` })]);
    expect(at201.diagnostics.errors.map((d) => d.code)).toEqual(['name-too-long']);
    expect(at201.diagnostics.errors[0]!.message).toContain('is 201 characters long');
  });

  it('points a name too long at the field that can hold the rest only where the kind has one, and takes a member\'s e-mail for what it is', async () => {
    const long = 'N'.repeat(201);
    const hints = async (doc: ResourceDoc) => (await build([doc])).diagnostics.errors.filter((d) => d.code === 'name-too-long').map((d) => [d.code, d.hint]);
    expect(await hints(resourceDoc('Playbook', { name: long }))).toEqual([['name-too-long', 'shorten it; its `description` can hold the rest']]);
    expect(await hints(resourceDoc('CustomTerm', { name: long, body: 'text' }))).toEqual([['name-too-long', 'shorten it']]);
    // An e-mail address may have 254 characters: one of 251 is no name too long.
    const email = (length: number) => `${'x'.repeat(length - '@acme.example'.length)}@acme.example`;
    expect((await build([resourceDoc('Member', { email: email(251) })])).diagnostics.items).toEqual([]);
    const over = (await build([resourceDoc('Member', { email: email(255) })])).diagnostics.errors;
    expect(over.map((d) => [d.code, d.message.replace(/".*"/, 'E')])).toEqual([['name-too-long', 'member e-mail E is 255 characters long; docket allows 254']]);
  });

  it('ignores documents of kinds it does not know (the loader reported them)', async () => {
    const { desired, diagnostics } = await build([resourceDoc('Gizmo', { name: 'x' })]);
    expect(desired).toEqual([]);
    expect(diagnostics.items).toEqual([]);
  });
});
