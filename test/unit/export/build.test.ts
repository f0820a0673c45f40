/**
 * buildExport with plain live objects (what each kind's fetch returns): the layout the kinds ask
 * for, each kind's documents (toConfig), pending documents for files the services cannot give
 * back, notes, and the summary. Pure: no emulator here (the conformance suite has one).
 */
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import type { ProjectConfig } from '../../../src/config/types.js';
import { normText } from '../../../src/engine/normalize.js';
import type { LiveResource } from '../../../src/engine/types.js';
import { buildExport, projectDocument, type ExportInput } from '../../../src/export/index.js';
import { exportKinds } from '../../../src/export/layout.js';
import { renderExportSummary } from '../../../src/export/summary.js';
import { KINDS, type KindName } from '../../../src/kinds/index.js';

const paths = { outRoot: '/home/ops/acme', schemasDir: '/opt/docket/schemas' };
const ATT = '11111111-1111-4111-8111-111111111111';
const body = (content: string) => content.replace(/^# yaml-language-server: .*\n/gm, '');

const SOURCE = { agreements: { actor: 'legal-ops@acme.example' }, review: {} } as unknown as ProjectConfig;

const rule = (id: string, parentId: string, name: string, fields: Record<string, unknown> = {}): LiveResource => ({
  kind: 'rule',
  id,
  key: `x/${name}`,
  name,
  parentId,
  fields: { name, description: null, actions: 'ACCEPT up to 3 years\nCOUNTERPROPOSE 2 years', internal_notes: null, questions: 'What is the term?', generate_summary: true, reviewer: null, ...fields },
  refs: [],
});
const playbook = (id: string, name: string, description: string | null = null): LiveResource => ({ kind: 'playbook', id, key: name, name, fields: { name, description }, refs: [] });
const member = (email: string, name: string | null = null): LiveResource => ({ kind: 'member', id: email, key: email, name: email, fields: { email }, refs: [], extra: { name } });
const textTerm = (id: string, name: string, text: string): LiveResource => ({ kind: 'custom-term', id, key: name, name, fields: { name, body: text }, refs: [], extra: { termType: 'text' } });
const fileTerm = (id: string, name: string, extra: Record<string, unknown> = {}): LiveResource => ({ kind: 'custom-term', id, key: name, name, fields: { name }, refs: [], extra: { termType: 'file', ...extra } });
const customTemplate = (id: string, name: string, definitionText: string, term: string | null, extra: Record<string, unknown> = {}): LiveResource => ({
  kind: 'custom-template',
  id,
  key: name,
  name,
  fields: { name, definition: {}, custom_term: term },
  refs: [],
  extra: { definitionText, ...extra },
});
const template = (id: string, wireType: string, attributes: Record<string, unknown>): LiveResource => ({
  kind: 'template',
  id,
  key: String(attributes.name),
  name: String(attributes.name),
  fields: { name: attributes.name },
  refs: [],
  extra: { wireType, attributes: { standard_version: null, ...attributes } },
});
const attachment = (name: string, id: string, description: string | null | undefined, sourceFile?: string): LiveResource => ({
  kind: 'attachment',
  id,
  key: name,
  name,
  fields: { name, ...(description !== undefined ? { description } : {}), sha256: 'x' },
  refs: [],
  extra: sourceFile ? { sourceFile } : {},
});
const organization = (fields: Record<string, unknown>): LiveResource => ({ kind: 'organization', id: 'o', key: 'organization', name: 'organization', fields, refs: [] });

const SCHEMAS: Record<string, unknown> = { 'templates/nda.schema.json': { properties: { term: { default: 1 } } } };

function input(objects: LiveResource[], kinds: string[] = [], overrides: Partial<ExportInput> = {}): ExportInput {
  const live = new Map<KindName, LiveResource[]>();
  for (const o of objects) live.set(o.kind, [...(live.get(o.kind) ?? []), o]);
  return {
    kinds: exportKinds(kinds, KINDS),
    registry: KINDS,
    live,
    project: {
      review: { url: 'https://api.gerri.commonpaper.com', organization_id: '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' },
      agreements: { url: 'https://api.commonpaper.com', actor: 'legal-ops@acme.example' },
      concurrency: 8,
    },
    source: SOURCE,
    lock: { files: {} },
    schema: (file) => SCHEMAS[file] ?? { properties: {} },
    paths,
    ...overrides,
  };
}

const EVERYTHING = [
  organization({ 'review.name': 'Acme Legal', 'review.default_reviewer': null }),
  member('b@acme.example'),
  member('a@acme.example'),
  playbook('p', 'Inbound NDA'),
  textTerm('t1', 'Consulting Terms', 'Terms.'),
  fileTerm('t2', 'Data Terms'),
  customTemplate('c', 'Consulting Agreement', 'title: X\n', 'Consulting Terms'),
  template('tp', 'template_nda', { name: 'Mutual NDA', term: 2, attachment_ids: [ATT] }),
  attachment('Security Exhibit', ATT, null),
];

describe('projectDocument', () => {
  it('writes version, the services and a non-default concurrency; never a key', () => {
    expect(projectDocument({ review: { url: 'https://r.example' }, concurrency: 8 })).toEqual({ version: 1, review: { url: 'https://r.example' } });
    expect(projectDocument({ agreements: { url: 'https://a.example', actor: 'x@y.example' }, concurrency: 16 })).toEqual({
      version: 1,
      agreements: { url: 'https://a.example', actor: 'x@y.example' },
      concurrency: 16,
    });
  });
});

describe('buildExport', () => {
  it('lays out every kind where its module says, sorted by path, docket.yaml included', () => {
    const result = buildExport(input(EVERYTHING));
    expect(result.files.map((f) => f.path)).toEqual([
      'attachments/security-exhibit.yaml.pending',
      'custom-templates/consulting-agreement.cover.yaml',
      'custom-templates/consulting-agreement.yaml',
      'custom-terms/consulting-terms.md',
      'custom-terms/consulting-terms.yaml',
      'custom-terms/data-terms.yaml.pending',
      'docket.yaml',
      'members.yaml',
      'organization.yaml',
      'playbooks/inbound-nda.yaml',
      'templates/mutual-nda.yaml',
    ]);
    expect(result.parts.map((p) => p.kind)).toEqual(KINDS.filter((k) => k.layout).map((k) => k.name));
    // Each file the services cannot give back comes with the pending document that names it.
    expect(result.missing.map((m) => [m.path, m.document])).toEqual([
      ['custom-terms/data-terms.docx', 'custom-terms/data-terms.yaml.pending'],
      ['attachments/security-exhibit.pdf', 'attachments/security-exhibit.yaml.pending'],
    ]);
    const attachmentDoc = parse(result.files.find((f) => f.path === 'attachments/security-exhibit.yaml.pending')!.content) as Record<string, unknown>;
    expect(attachmentDoc).toEqual({ kind: 'Attachment', name: 'Security Exhibit', id: ATT, file: 'security-exhibit.pdf' });
    const project = result.files.find((f) => f.path === 'docket.yaml')!.content;
    expect(project.split('\n')[0]).toBe('# yaml-language-server: $schema=../../../opt/docket/schemas/docket.schema.json');
    // The exported attachment is pending, so the template keeps its id and has no `attachments:` list.
    const templateText = result.files.find((f) => f.path === 'templates/mutual-nda.yaml')!.content;
    expect((parse(templateText) as Record<string, unknown>).attachments).toBeUndefined();
    expect(result.notes.filter((n) => n.startsWith('templates name attachments by id'))).toHaveLength(1);
    expect(result.notes).toContain('attachments cannot be listed over the API: only those the source docket.lock.json records are exported');
  });

  it('exports only the selected kinds', () => {
    const result = buildExport(input(EVERYTHING, ['template']));
    expect(result.files.map((f) => f.path)).toEqual(['docket.yaml', 'templates/mutual-nda.yaml']);
    expect(result.missing).toEqual([]);
  });

  it('tells the user to set agreements.actor when terms, custom templates or attachments need it, once', () => {
    const noActor = { agreements: {}, review: {} } as unknown as ProjectConfig;
    const result = buildExport(input(EVERYTHING, [], { source: noActor }));
    expect(result.notes.filter((n) => n.startsWith('set `agreements.actor`'))).toHaveLength(1);
    expect(buildExport(input(EVERYTHING, ['playbook'], { source: noActor })).notes).toEqual([]);
  });

  it('is deterministic: the same live state in any order gives the same bytes', () => {
    const a = buildExport(input(EVERYTHING));
    const b = buildExport(input([...EVERYTHING].reverse()));
    expect(b.files).toEqual(a.files);
  });
});

describe('playbooks and their rules', () => {
  it('writes rules inline the way the Rule kind reads them back: no null text, generate_summary only when false, reviewer only when set', () => {
    const result = buildExport(
      input(
        [
          playbook('p1', 'Inbound NDA', 'Line one\nline two'),
          rule('r1', 'p1', 'Term'),
          rule('r2', 'p1', 'Residuals', { actions: null, description: 'How long', generate_summary: false, reviewer: 'bob@acme.example', internal_notes: 'Agreed' }),
        ],
        ['playbook'],
      ),
    );
    const text = body(result.files.find((f) => f.path === 'playbooks/inbound-nda.yaml')!.content);
    expect(text).toBe(
      'kind: Playbook\nname: Inbound NDA\ndescription: |\n  Line one\n  line two\nrules:\n  - name: Term\n    actions: |\n      ACCEPT up to 3 years\n      COUNTERPROPOSE 2 years\n    questions: What is the term?\n  - name: Residuals\n    description: How long\n    questions: What is the term?\n    generate_summary: false\n    reviewer: bob@acme.example\n    internal_notes: Agreed\n',
    );
    const read = parse(text) as { description: string; rules: { actions: string }[] };
    expect(normText(read.description)).toBe('Line one\nline two');
  });

  it('keeps the rules in the order the service returned them, and an empty rule list', () => {
    const result = buildExport(input([playbook('p', 'P'), rule('z', 'p', 'Z'), rule('a', 'p', 'A'), playbook('q', 'Q', '')], ['playbook']));
    const p = parse(result.files.find((f) => f.path === 'playbooks/p.yaml')!.content) as { rules: { name: string }[] };
    expect(p.rules.map((r) => r.name)).toEqual(['Z', 'A']);
    expect(parse(result.files.find((f) => f.path === 'playbooks/q.yaml')!.content)).toEqual({ kind: 'Playbook', name: 'Q', rules: [] });
  });

  it('names files by slug, counts rules, and notes duplicate names', () => {
    const result = buildExport(input([playbook('b', 'Vendor MSA'), playbook('a', 'Vendor MSA'), rule('r1', 'b', 'Term'), rule('r2', 'a', 'Term'), rule('r3', 'a', 'Term')], ['playbook']));
    const part = result.parts[0]!;
    expect(part.files.map((f) => f.path)).toEqual(['playbooks/vendor-msa.yaml', 'playbooks/vendor-msa-2.yaml']);
    expect(part.count).toBe(2);
    expect(part.children).toEqual([{ kind: 'rule', count: 3 }]);
    expect(part.notes.some((n) => n.includes('several playbooks are named "Vendor MSA"'))).toBe(true);
    expect(part.notes.some((n) => n.includes('has several rules named "Term"'))).toBe(true);
    // The next step says the plan refuses them, not that it shows no changes.
    const text = renderExportSummary(result, { out: 'out', target: 'target: x', flags: [], paint: (_s, t) => t, kinds: KINDS });
    expect(text).toContain('Next steps:\n  rename all but one of the objects that share a name (see the notes), in the app and in its file; then\n  docket plan -C out\n  which shows no changes.\n');
  });

  it('names both places of a duplicate it refuses under the output directory (probe NO-2)', () => {
    const result = buildExport(input([playbook('p1', 'Inbound NDA')], ['playbook']));
    const refused = [{ severity: 'error' as const, code: 'duplicate-name', message: 'playbook "Dup" is declared twice (also at playbooks/dup-2.yaml:3)', file: 'playbooks/dup.yaml', line: 3, col: 7 }];
    const text = renderExportSummary(result, { out: 'out', target: 'target: x', flags: [], paint: (_s, t) => t, kinds: KINDS, refused });
    expect(text).toContain('  out/playbooks/dup.yaml:3:7 playbook "Dup" is declared twice (also at out/playbooks/dup-2.yaml:3)');
    // So is the place a look-alike's message names (probe QA-3).
    const alike = [{ severity: 'error' as const, code: 'look-alike-name', message: 'playbook name "Dup " looks like playbook "Dup" (playbooks/dup-2.yaml:3): rename one', file: 'playbooks/dup-3.yaml', line: 3, col: 7 }];
    expect(renderExportSummary(result, { out: 'out', target: 'target: x', flags: [], paint: (_s, t) => t, kinds: KINDS, refused: alike })).toContain('  out/playbooks/dup-3.yaml:3:7 playbook name "Dup " looks like playbook "Dup" (out/playbooks/dup-2.yaml:3): rename one');
  });

  it('says how many objects it recorded as in sync, or why it recorded none', () => {
    const result = buildExport(input([playbook('p1', 'Inbound NDA')], ['playbook']));
    const summary = (records: Parameters<typeof renderExportSummary>[1]['records']) => renderExportSummary(result, { out: 'out', target: 'target: x', flags: [], paint: (_s, t) => t, kinds: KINDS, ...(records ? { records } : {}) });
    expect(summary({ recorded: 3, file: 'docket.lock.json' })).toContain('\nRecorded 3 objects as in sync in docket.lock.json, so drift and pull see what changes in the app from now on.\n\nNext steps:');
    expect(summary({ skipped: 'a plan of the written directory shows 1 change(s)' })).toContain('No sync records were written (a plan of the written directory shows 1 change(s)): the first apply records what it finds in sync.');
    expect(summary({ recorded: 0, file: 'docket.lock.json' })).not.toContain('Recorded');
    // Its check found changes: the next plan shows them, it is not said to show none.
    const moved = summary({ skipped: 'a plan of the written directory shows 2 changes: the live state moved while export read it', changes: 2 });
    expect(moved).toContain('Next steps:\n  docket plan -C out\n  which shows the 2 differences its check found; to have files that match the organization as it is now, export again into an empty directory.\n');
    expect(moved).not.toContain('shows no changes');
  });

  it('shows a control character in a live name escaped, in the notes and the files to add, and quotes an --out that holds one', () => {
    const result = buildExport(input([playbook('a', 'a\u001b[31mb'), playbook('b', 'a\u001b[31mb'), rule('r1', 'a', 'bell\u0007x'), rule('r2', 'a', 'bell\u0007x')], ['playbook']));
    const text = renderExportSummary(result, { out: 'q\u001b[31mq', target: 'target: x', flags: [], paint: (_s, t) => t, kinds: KINDS });
    expect(text).toContain('several playbooks are named "a\\u001b[31mb"');
    expect(text).toContain('playbook "a\\u001b[31mb" has several rules named "bell\\u0007x"');
    expect(text).toContain('Wrote 3 files to "q\\u001b[31mq":');
    expect(text).not.toMatch(/[\u0000-\u0008\u001b]/);
  });
});

describe('organization and members', () => {
  it('writes only the values the services hold, default reviewer as an e-mail', () => {
    const result = buildExport(
      input([organization({ 'review.name': 'Acme Legal', 'review.default_reviewer': 'alice@acme.example', 'agreements.name': 'Acme, Inc.', 'agreements.city': 'Berlin', 'agreements.state': null, 'agreements.zipcode': '01099', 'agreements.country': '' })], ['organization']),
    );
    expect(body(result.files.find((f) => f.path === 'organization.yaml')!.content)).toBe(
      'kind: Organization\nreview:\n  name: Acme Legal\n  default_reviewer: alice@acme.example\nagreements:\n  name: Acme, Inc.\n  city: Berlin\n  zipcode: "01099"\n',
    );
  });

  it('writes one Member per user, sorted by e-mail, each with its schema comment; none without users', () => {
    const result = buildExport(input([member('carol@acme.example', 'Carol Diaz'), member('bob@acme.example')], ['member']));
    const content = result.files.find((f) => f.path === 'members.yaml')!.content;
    expect(content.match(/^# yaml-language-server: \$schema=\.\.\/\.\.\/\.\.\/opt\/docket\/schemas\/member\.schema\.json$/gm)).toHaveLength(2);
    expect(parseAllDocuments(content).map((d) => d.toJS())).toEqual([
      { kind: 'Member', email: 'bob@acme.example' },
      { kind: 'Member', email: 'carol@acme.example', name: 'Carol Diaz' },
    ]);
    expect(buildExport(input([], ['member'])).files.map((f) => f.path)).toEqual(['docket.yaml']);
  });
});

describe('custom terms and templates', () => {
  it('puts a text term’s markdown next to it, ending with one newline', () => {
    const result = buildExport(input([textTerm('t', 'Consulting Terms', '1. **Services.**\n2. **Fees.**')], ['custom-term']));
    expect(result.files.filter((f) => f.path !== 'docket.yaml').map((f) => [f.path, body(f.content)])).toEqual([
      ['custom-terms/consulting-terms.md', '1. **Services.**\n2. **Fees.**\n'],
      ['custom-terms/consulting-terms.yaml', 'kind: CustomTerm\nname: Consulting Terms\nbody_file: consulting-terms.md\n'],
    ]);
  });

  it('writes a Word term as a pending document naming its file, with the file the source uploaded', () => {
    const result = buildExport(input([fileTerm('t', 'Data Terms', { sourceFile: 'terms/data.docx', conversionFailed: true })], ['custom-term']));
    expect(body(result.files.find((f) => f.path === 'custom-terms/data-terms.yaml.pending')!.content)).toBe('kind: CustomTerm\nname: Data Terms\nid: t\ndocx_file: data-terms.docx\n');
    expect(result.missing).toEqual([
      { kind: 'custom-term', name: 'Data Terms', path: 'custom-terms/data-terms.docx', document: 'custom-terms/data-terms.yaml.pending', what: 'Word file', publishedAgain: true, sourceFile: 'terms/data.docx' },
    ]);
    expect(result.notes.some((n) => n.includes('could not convert') && n.includes('custom-terms/data-terms.docx'))).toBe(true);
    // The next steps do not promise that the adopting apply uploads nothing (probe HH-2).
    const text = renderExportSummary(result, { out: 'out', target: 'target: local emulator', flags: [], paint: (_s, t) => t, kinds: KINDS });
    expect(text).toContain('     records the files in docket.lock.json as live, uploading nothing but the Word file of "Data Terms", which the service could not convert and the apply publishes again (see the notes)');
    expect(text).not.toContain('without uploading anything');
  });

  it('writes the live definition text exactly, the linked term by name, and notes a term it cannot name', () => {
    const definition = '# comments survive\ntitle: Consulting\nsections: []';
    const result = buildExport(input([customTemplate('c', 'Consulting Agreement', definition, 'Consulting Terms'), customTemplate('d', 'X', 'title: X\n', 'term-9', { unknownTermId: 'term-9' })], ['custom-template']));
    expect(body(result.files.find((f) => f.path === 'custom-templates/consulting-agreement.yaml')!.content)).toBe(
      'kind: CustomTemplate\nname: Consulting Agreement\ncustom_term: Consulting Terms\ndefinition_file: consulting-agreement.cover.yaml\n',
    );
    expect(result.files.find((f) => f.path === 'custom-templates/consulting-agreement.cover.yaml')!.content).toBe(definition);
    expect(body(result.files.find((f) => f.path === 'custom-templates/x.yaml')!.content)).not.toContain('custom_term');
    expect(result.notes.some((n) => n.includes('term-9'))).toBe(true);
  });
});

describe('attachments', () => {
  it('writes each as a pending document pinned to its live id, and lists its PDF with the file the source uploaded', () => {
    const result = buildExport(input([attachment('Security Exhibit', 'att-1', 'Our measures', 'attachments/security.pdf'), attachment('Other', 'att-2', undefined)], ['attachment']));
    expect(body(result.files.find((f) => f.path === 'attachments/security-exhibit.yaml.pending')!.content)).toBe(
      'kind: Attachment\nname: Security Exhibit\nid: att-1\ndescription: Our measures\nfile: security-exhibit.pdf\n',
    );
    expect(body(result.files.find((f) => f.path === 'attachments/other.yaml.pending')!.content)).toBe('kind: Attachment\nname: Other\nid: att-2\nfile: other.pdf\n');
    expect(result.missing).toEqual([
      { kind: 'attachment', name: 'Other', path: 'attachments/other.pdf', document: 'attachments/other.yaml.pending', what: 'PDF' },
      { kind: 'attachment', name: 'Security Exhibit', path: 'attachments/security-exhibit.pdf', document: 'attachments/security-exhibit.yaml.pending', what: 'PDF', sourceFile: 'attachments/security.pdf' },
    ]);
  });
});

describe('renderExportSummary', () => {
  it('lists files per kind, the files to add, notes and the next steps', () => {
    const result = buildExport(input(EVERYTHING));
    const text = renderExportSummary(result, { out: 'acme legal', target: 'target: local emulator', flags: ['--emulator'], paint: (_s, t) => t, kinds: KINDS });
    expect(text).toContain('docket export · target: local emulator');
    expect(text).toContain('Wrote 11 files to acme legal:');
    expect(text).toContain('  playbooks          1 file (1 playbook, 0 rules)');
    expect(text).toContain('  custom terms       3 files (2 terms)');
    expect(text).toContain('  custom-terms/data-terms.docx      Word file of custom-term "Data Terms"');
    expect(text).toContain('  attachments/security-exhibit.pdf  PDF of attachment "Security Exhibit"');
    expect(text).toContain(
      [
        'Next steps:',
        "  docket plan -C 'acme legal' --emulator",
        '  which shows no changes.',
        '',
        'To manage the resources whose files the services cannot give back:',
        '  1. add each file listed above',
        '  2. rename its document from .yaml.pending to .yaml',
        '       custom-terms/data-terms.yaml.pending',
        '       attachments/security-exhibit.yaml.pending',
        "  3. docket apply -C 'acme legal' --emulator --adopt-files",
        '     records the files in docket.lock.json as live, without uploading anything',
        '',
        'Commit the directory; API keys stay in the environment.',
        '',
      ].join('\n'),
    );
  });

  it('without missing files, the next step is only the plan', () => {
    const result = buildExport(input(EVERYTHING, ['playbook']));
    const text = renderExportSummary(result, { out: 'out', target: 'target: x', flags: [], paint: (_s, t) => t, kinds: KINDS });
    expect(text).not.toContain('--adopt-files');
    expect(text).toContain('Next steps:\n  docket plan -C out\n  which shows no changes.\n\nCommit the directory');
  });
});
