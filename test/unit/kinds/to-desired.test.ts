import { describe, expect, it } from 'vitest';
import { Diagnostics } from '../../../src/diagnostics.js';
import type { DesiredResource } from '../../../src/engine/types.js';
import type { KindModule } from '../../../src/kinds/kind.js';
import { memberKind } from '../../../src/kinds/member.js';
import { organizationKind } from '../../../src/kinds/organization.js';
import { playbookKind } from '../../../src/kinds/playbook.js';
import { ruleKind } from '../../../src/kinds/rule.js';
import { projectConfig, resourceDoc } from '../engine/builders.js';

function toDesired(kind: KindModule, yamlKind: string, body: Record<string, unknown>, lines: Record<string, number> = {}, file?: string) {
  const diagnostics = new Diagnostics();
  const resources = kind.toDesired!(resourceDoc(yamlKind, body, lines, file), diagnostics, { project: projectConfig(), files: new Map() }) as DesiredResource[];
  return { resources, diagnostics };
}

/** A Playbook document as the engine reads it: the playbook, then its rules (the Rule kind's part). */
function playbook(body: Record<string, unknown>, lines: Record<string, number> = {}) {
  const diagnostics = new Diagnostics();
  const doc = resourceDoc('Playbook', { name: 'Inbound NDA', ...body }, lines);
  const ctx = { project: projectConfig(), files: new Map() };
  const own = playbookKind.toDesired!(doc, diagnostics, ctx) as DesiredResource[];
  const rules = ruleKind.toDesired!(doc, diagnostics, { ...ctx, parent: own[0]! }) as DesiredResource[];
  return { resources: [...own, ...rules], diagnostics };
}

function rule(resources: DesiredResource[], name: string): DesiredResource {
  const found = resources.find((r) => r.kind === 'rule' && r.name === name);
  if (!found) throw new Error(`no rule ${name}`);
  return found;
}

describe('Organization toDesired', () => {
  it('manages only the review keys the file declares', () => {
    const { resources } = toDesired(organizationKind, 'Organization', { review: { name: 'Acme Legal' } });
    expect(resources).toHaveLength(1);
    expect(resources[0]).toMatchObject({ kind: 'organization', key: 'organization', partial: true, refs: [] });
    expect(resources[0]!.fields).toEqual({ 'review.name': 'Acme Legal' });
  });

  it('declares only the agreements keys written when there is no review section', () => {
    const { resources } = toDesired(organizationKind, 'Organization', { agreements: { name: 'Acme, Inc.' } });
    expect(resources[0]!.fields).toEqual({ 'agreements.name': 'Acme, Inc.' });
    expect(organizationKind.servicesFor!(resources)).toEqual(['agreements']);
  });

  it('lowercases the default reviewer and references the member at its line', () => {
    const { resources } = toDesired(
      organizationKind,
      'Organization',
      { review: { default_reviewer: 'Alice@ACME.example' } },
      { '/review': 2, '/review/default_reviewer': 4 },
      'organization.yaml',
    );
    const org = resources[0]!;
    expect(org.fields).toEqual({ 'review.default_reviewer': 'alice@acme.example' });
    expect(org.refs).toEqual([
      { kind: 'member', key: 'alice@acme.example', field: 'review.default_reviewer', source: { file: 'organization.yaml', line: 4, col: 3 } },
    ]);
    expect(org.fieldSources['review.default_reviewer']?.line).toBe(4);
  });

  it('an explicit null default reviewer is managed (reset to none) without a reference', () => {
    const { resources } = toDesired(organizationKind, 'Organization', { review: { default_reviewer: null } });
    expect(resources[0]!.fields).toEqual({ 'review.default_reviewer': null });
    expect(resources[0]!.refs).toEqual([]);
  });

  it('keeps an id pin', () => {
    const { resources } = toDesired(organizationKind, 'Organization', { id: 'org-1', review: { name: 'Acme' } });
    expect(resources[0]!.pinId).toBe('org-1');
  });
});

describe('Member toDesired', () => {
  it('is identified by its lowercased e-mail and sends the name only on invite', () => {
    const { resources } = toDesired(memberKind, 'Member', { email: 'Bob@Acme.Example', name: 'Bob Jones' }, { '/email': 3 }, 'members.yaml');
    expect(resources).toHaveLength(1);
    const member = resources[0]!;
    expect(member).toMatchObject({ kind: 'member', key: 'bob@acme.example', name: 'bob@acme.example', partial: true });
    expect(member.fields).toEqual({ email: 'bob@acme.example' });
    expect(member.createOnly).toEqual({ name: 'Bob Jones' });
    expect(member.fieldSources.email).toEqual({ file: 'members.yaml', line: 3, col: 3 });
  });

  it('has no create-only values without a name', () => {
    const { resources } = toDesired(memberKind, 'Member', { email: 'bob@acme.example' });
    expect(resources[0]!.createOnly).toBeUndefined();
  });
});

describe('Playbook toDesired', () => {
  it('an omitted description is null, and text is normalised', () => {
    expect(playbook({}).resources[0]!.fields).toEqual({ name: 'Inbound NDA', description: null });
    expect(playbook({ description: 'NDAs we receive\r\n\r\n' }).resources[0]!.fields.description).toBe('NDAs we receive');
    expect(playbook({ description: '' }).resources[0]!.fields.description).toBeNull();
  });

  it('is owned (declared whole) and keyed by name', () => {
    const p = playbook({}).resources[0]!;
    expect(p).toMatchObject({ kind: 'playbook', key: 'Inbound NDA', name: 'Inbound NDA', partial: false, refs: [], renamedFrom: [] });
  });

  it('accepts renamed_from as one name or a list', () => {
    expect(playbook({ renamed_from: 'NDA' }).resources[0]!.renamedFrom).toEqual(['NDA']);
    expect(playbook({ renamed_from: ['NDA', 'Old NDA'] }).resources[0]!.renamedFrom).toEqual(['NDA', 'Old NDA']);
  });

  it('keeps an id pin', () => {
    expect(playbook({ id: 'pb-1' }).resources[0]!.pinId).toBe('pb-1');
  });
});

describe('Rule toDesired', () => {
  it('fills the owned defaults: generate_summary true, omitted text null, default reviewer null', () => {
    const { resources, diagnostics } = playbook({ rules: [{ name: 'Term', actions: 'ACCEPT 3 years\n' }] });
    expect(diagnostics.items).toEqual([]);
    const term = rule(resources, 'Term');
    expect(term.fields).toEqual({
      name: 'Term',
      description: null,
      actions: 'ACCEPT 3 years',
      internal_notes: null,
      questions: null,
      generate_summary: true,
      reviewer: null,
    });
    expect(term.refs).toEqual([]);
  });

  it('keeps generate_summary false when written', () => {
    const { resources } = playbook({ rules: [{ name: 'Term', actions: 'A', generate_summary: false }] });
    expect(rule(resources, 'Term').fields.generate_summary).toBe(false);
  });

  it('is keyed inside its playbook and points at it as parent', () => {
    const { resources } = playbook({ rules: [{ name: 'Term', actions: 'A' }] }, { '/rules/0': 6 });
    const term = rule(resources, 'Term');
    expect(term).toMatchObject({ kind: 'rule', key: 'Inbound NDA/Term', parent: { kind: 'playbook', key: 'Inbound NDA' }, partial: false });
    expect(term.source.line).toBe(6);
  });

  it('lowercases the reviewer and references the member at the reviewer line', () => {
    const { resources } = playbook(
      { rules: [{ name: 'Term', actions: 'A', reviewer: 'Alice@Acme.example' }] },
      { '/rules/0': 6, '/rules/0/reviewer': 9 },
    );
    const term = rule(resources, 'Term');
    expect(term.fields.reviewer).toBe('alice@acme.example');
    expect(term.refs).toEqual([{ kind: 'member', key: 'alice@acme.example', field: 'reviewer', source: { file: 'playbooks/nda.yaml', line: 9, col: 3 } }]);
  });

  it('accepts renamed_from as one name or a list, and an id pin', () => {
    const { resources } = playbook({
      rules: [
        { name: 'Duration', actions: 'A', renamed_from: 'Term' },
        { name: 'Law', actions: 'A', renamed_from: ['Governing law', 'Jurisdiction'], id: 'r-9' },
      ],
    });
    expect(rule(resources, 'Duration').renamedFrom).toEqual(['Term']);
    expect(rule(resources, 'Law').renamedFrom).toEqual(['Governing law', 'Jurisdiction']);
    expect(rule(resources, 'Law').pinId).toBe('r-9');
  });

  it('warns of a renamed_from that names the name it has now, at that name: nothing is renamed from it', () => {
    const { diagnostics } = playbook(
      { name: 'Inbound NDA', renamed_from: ['Old NDA', 'Inbound NDA'], rules: [{ name: 'Term', actions: 'A', renamed_from: 'Term' }, { name: 'Law', actions: 'A', renamed_from: 'law' }] },
      { '/renamed_from/1': 3, '/rules/0/renamed_from': 8 },
    );
    expect(diagnostics.errors).toEqual([]);
    expect(diagnostics.warnings.map((d) => [d.code, d.line, d.message])).toEqual([
      ['renamed-from-itself', 3, '`renamed_from` names "Inbound NDA", the name this document has now: nothing is renamed from it'],
      // Another case is another name: a rename of the case alone is one.
      ['renamed-from-itself', 8, '`renamed_from` names "Term", the name this rule has now: nothing is renamed from it'],
    ]);
  });

  it('refuses a blank name in renamed_from, as a blank name: it names nothing an object was called (probe MR-4)', () => {
    const { diagnostics } = playbook({ name: 'Inbound NDA', renamed_from: ['Old NDA', ' ', '  '], rules: [{ name: 'Term', actions: 'A', renamed_from: '\u200b' }] }, { '/renamed_from/1': 3, '/renamed_from/2': 4, '/rules/0/renamed_from': 8 });
    // Every blank one at once (probe NF-4).
    expect(diagnostics.errors.map((d) => [d.code, d.line, d.message, d.hint])).toEqual([
      ['blank-name', 3, '`renamed_from` lists " ", which is blank', 'list the names it had before, or take it out'],
      ['blank-name', 4, '`renamed_from` lists "  ", which is blank', 'list the names it had before, or take it out'],
      ['blank-name', 8, '`renamed_from` lists "\\u200b", which is blank', 'list the names it had before, or take it out'],
    ]);
  });

  it('refuses a playbook whose rules docket could not read back: the service answers them in one list, and no answer over 64 MB is read (probe EY)', () => {
    const big = (n: number, size: number) => Array.from({ length: n }, (_, i) => ({ name: `R${i}`, actions: 'x'.repeat(size) }));
    const over = playbook({ rules: big(13, 5_000_000) }, { '/rules': 3 });
    expect(over.diagnostics.errors).toEqual([expect.objectContaining({ code: 'rule-list-too-large', line: 3, path: 'rules' })]);
    expect(over.diagnostics.errors[0]!.message).toBe('playbook "Inbound NDA" declares 13 rules holding about 62 MB: the review service answers a playbook\'s rules in one list, and docket reads no answer over 64 MB, so it could not read them back once applied');
    // Just under (and one whose texts written in JSON would be longer: line breaks are two bytes each).
    expect(playbook({ rules: big(11, 5_000_000) }).diagnostics.errors).toEqual([]);
    expect(playbook({ rules: Array.from({ length: 6 }, (_, i) => ({ name: `R${i}`, actions: 'a\n'.repeat(3_500_000) })) }).diagnostics.errors.map((d) => d.code)).toEqual(['rule-list-too-large']);
    // One rule is "1 rule" (probe JZ-5).
    expect(playbook({ rules: big(1, 66_000_000) }).diagnostics.errors[0]!.message).toMatch(/^playbook "Inbound NDA" declares 1 rule holding about \d+ MB/);
    // Names count too: 30,000 rules of 1,400 characters named with 190 euro signs (probe FA).
    const euros = Array.from({ length: 30_000 }, (_, i) => ({ name: `${'€'.repeat(190)}${String(i).padStart(6, '0')}`, actions: 'a'.repeat(1400) }));
    expect(playbook({ rules: euros }).diagnostics.errors.map((d) => d.code)).toEqual(['rule-list-too-large']);
  });

  describe('missing-actions', () => {
    it('is reported when actions are absent and there are no questions', () => {
      const { diagnostics } = playbook({ rules: [{ name: 'Ok', actions: 'A' }, { name: 'Term' }] }, { '/rules/1': 12 });
      expect(diagnostics.errors).toEqual([expect.objectContaining({ code: 'missing-actions', line: 12, path: 'rules[1]' })]);
      expect(diagnostics.errors[0]!.message).toContain('Term');
    });

    it('names a rule without a name by its place in the list, not as a rule named "" (probe GK-7)', () => {
      const { diagnostics } = playbook({ rules: [{ name: 'Ok', actions: 'A' }, { description: 'd' }] });
      expect(diagnostics.errors.find((d) => d.code === 'missing-actions')!.message).toMatch(/^the rule at rules\[1\] needs `actions`/);
    });

    it('is reported when generate_summary is false even with questions', () => {
      const { diagnostics } = playbook({ rules: [{ name: 'Term', questions: 'What is the term?', generate_summary: false }] });
      expect(diagnostics.errors.map((d) => d.code)).toEqual(['missing-actions']);
    });

    it('is not reported where `generate_summary` is no boolean: the schema refuses it, and what it would allow is not known (probe RF-3)', () => {
      for (const unread of ['yes', 'maybe', 1]) expect(playbook({ rules: [{ name: 'Residuals', generate_summary: unread }] }).diagnostics.items).toEqual([]);
      expect(playbook({ rules: [{ name: 'Residuals', generate_summary: null }] }).diagnostics.errors.map((d) => d.code)).toEqual(['missing-actions']);
    });

    it('is not reported where a key the schema calls a misspelling of `actions` or `questions` holds them: one error, the key\'s (probe CF-3)', () => {
      for (const key of ['action', 'Actions', 'question', 'Questions']) expect(playbook({ rules: [{ name: 'Term', [key]: 'x' }] }).diagnostics.items, key).toEqual([]);
      // A key of another meaning leaves the rule without actions, said so.
      expect(playbook({ rules: [{ name: 'Term', notes: 'x' }] }).diagnostics.errors.map((d) => d.code)).toEqual(['missing-actions']);
    });

    it('is not reported for a summary-only rule (generate_summary true by default, questions present)', () => {
      const { resources, diagnostics } = playbook({ rules: [{ name: 'Term', questions: 'What is the term?' }] });
      expect(diagnostics.items).toEqual([]);
      expect(rule(resources, 'Term').fields.actions).toBeNull();
    });

    it('treats empty actions like absent ones, line breaks alone said as such, block or quoted (probe PM-5)', () => {
      const { diagnostics } = playbook({ rules: [{ name: 'Term', actions: '\n' }] });
      expect(diagnostics.errors.map((d) => d.code)).toEqual(['missing-actions']);
      expect(diagnostics.errors[0]!.message).toBe('rule "Term" needs `actions`: it holds only line breaks ("\\n"), which the service takes as none (only a rule with `generate_summary: true` and `questions` may omit them)');
    });

    it('treats actions or questions of white space only (spaces, tabs, a no-break space) like absent ones, quoting them at their line', () => {
      // Each as quoted: the no-break space escaped, since raw it reads as a plain space.
      for (const [blank, quoted] of [['   ', '"   "'], ['\t\n', '"\\t\\n"'], ['\u00a0', '"\\u00a0"']] as const) {
        const { diagnostics } = playbook({ rules: [{ name: 'Term', actions: blank }] }, { '/rules/0': 5, '/rules/0/actions': 6 });
        expect(diagnostics.errors).toEqual([expect.objectContaining({ code: 'missing-actions', line: 6 })]);
        expect(diagnostics.errors[0]!.message).toBe(`rule "Term" needs \`actions\`: ${quoted} is only white space, which the service takes as none (only a rule with \`generate_summary: true\` and \`questions\` may omit them)`);
        const summary = playbook({ rules: [{ name: 'Term', questions: blank }] }, { '/rules/0': 5, '/rules/0/questions': 7 });
        expect(summary.diagnostics.errors).toEqual([expect.objectContaining({ code: 'missing-actions', line: 7 })]);
        expect(summary.diagnostics.errors[0]!.message).toContain(`\`questions\` ${quoted} are only white space`);
      }
      // Blank actions beside questions that are there: a summary-only rule, as the service takes it.
      expect(playbook({ rules: [{ name: 'Term', actions: '  ', questions: 'What is the term?' }] }).diagnostics.items).toEqual([]);
    });
  });

  it('reports a rule name used twice in one playbook at the second name, citing the first', () => {
    const { diagnostics } = playbook(
      {
        rules: [
          { name: 'Term', actions: 'A' },
          { name: 'Law', actions: 'A' },
          { name: 'Term', actions: 'B' },
        ],
      },
      { '/rules/0': 5, '/rules/2': 13, '/rules/2/name': 14 },
    );
    // At the repeated name, not where its rule starts.
    expect(diagnostics.errors).toEqual([expect.objectContaining({ code: 'duplicate-rule', line: 14 })]);
    expect(diagnostics.errors[0]!.message).toContain('line 5');
  });

  it('says nothing of a repeat among names that are missing, not text or blank: those are reported as such (probe EM)', () => {
    const { diagnostics } = playbook({ rules: [{ actions: 'A' }, { actions: 'B' }, { name: 1, actions: 'C' }, { name: '1', actions: 'D' }, { name: ' ', actions: 'E' }, { name: '  ', actions: 'F' }, { name: '\u200b', actions: 'G' }, { name: '\u200b', actions: 'H' }] }, {});
    expect(diagnostics.errors.filter((d) => d.code === 'duplicate-rule')).toEqual([]);
  });

  it('quotes a repeated rule name as every value is quoted: cut at 60 characters', () => {
    const long = 'L'.repeat(150);
    const { diagnostics } = playbook({ rules: [{ name: long, actions: 'A' }, { name: long, actions: 'B' }] }, { '/rules/0': 5, '/rules/1': 7 });
    expect(diagnostics.errors[0]!.message).toMatch(/declares rule "L{57}\.\.\." twice/);
  });

  it('the same rule name in two playbooks is fine', () => {
    const diagnostics = new Diagnostics();
    const ctx = { project: projectConfig(), files: new Map() };
    const rulesOf = (name: string) => ruleKind.toDesired!(resourceDoc('Playbook', { name, rules: [{ name: 'Term', actions: 'x' }] }), diagnostics, ctx) as DesiredResource[];
    const a = rulesOf('A');
    const b = rulesOf('B');
    expect(diagnostics.items).toEqual([]);
    expect([...a, ...b].filter((r) => r.kind === 'rule').map((r) => r.key)).toEqual(['A/Term', 'B/Term']);
  });
});
