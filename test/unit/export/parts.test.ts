import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { exportAttachments } from '../../../src/export/attachments.js';
import { exportCustomTemplates } from '../../../src/export/custom-templates.js';
import { exportMembers } from '../../../src/export/members.js';
import { exportOrganization } from '../../../src/export/organization.js';
import { exportPlaybooks, playbookDocument, ruleDocument, type RuleData } from '../../../src/export/playbooks.js';
import { exportTerms } from '../../../src/export/terms.js';
import { normText } from '../../../src/engine/normalize.js';

const paths = { outRoot: '/out', schemasDir: '/docket/schemas' };
const body = (content: string) => content.replace(/^# yaml-language-server: .*\n/gm, '');

const RULE: RuleData = {
  name: 'Term',
  description: null,
  actions: 'ACCEPT up to 3 years\nCOUNTERPROPOSE 2 years',
  questions: 'What is the term?',
  generate_summary: true,
  reviewer: null,
  internal_notes: null,
};

describe('playbooks', () => {
  it('writes a rule the way the owned kind reads it back: no null text, generate_summary only when false, reviewer only when set', () => {
    expect(ruleDocument(RULE)).toEqual({ name: 'Term', actions: 'ACCEPT up to 3 years\nCOUNTERPROPOSE 2 years\n', questions: 'What is the term?' });
    const full = ruleDocument({ ...RULE, description: 'How long', generate_summary: false, reviewer: 'bob@acme.example', internal_notes: 'Agreed' });
    expect(Object.keys(full)).toEqual(['name', 'description', 'actions', 'questions', 'generate_summary', 'reviewer', 'internal_notes']);
    expect(full.generate_summary).toBe(false);
  });

  it('writes multi-line text as `|` blocks whose value normalises to the live text', () => {
    const part = exportPlaybooks([{ id: 'p1', name: 'Inbound NDA', description: 'Line one\nline two', rules: [RULE, { ...RULE, name: 'Residuals', actions: null }] }], paths);
    const text = body(part.files[0]!.content);
    expect(text).toBe(
      'kind: Playbook\nname: Inbound NDA\ndescription: |\n  Line one\n  line two\nrules:\n  - name: Term\n    actions: |\n      ACCEPT up to 3 years\n      COUNTERPROPOSE 2 years\n    questions: What is the term?\n  - name: Residuals\n    questions: What is the term?\n',
    );
    const read = parse(text) as { description: string; rules: { actions: string }[] };
    expect(normText(read.description)).toBe('Line one\nline two');
    expect(normText(read.rules[0]!.actions)).toBe(RULE.actions);
  });

  it('keeps the rules in the order given and an empty rule list', () => {
    const doc = playbookDocument({ id: 'p', name: 'P', description: null, rules: [{ ...RULE, name: 'Z' }, { ...RULE, name: 'A' }] });
    expect((doc.rules as { name: string }[]).map((r) => r.name)).toEqual(['Z', 'A']);
    expect(playbookDocument({ id: 'p', name: 'P', description: '', rules: [] })).toEqual({ kind: 'Playbook', name: 'P', rules: [] });
  });

  it('names files by slug, counts rules, and notes duplicate names', () => {
    const part = exportPlaybooks(
      [
        { id: 'b', name: 'Vendor MSA', description: null, rules: [RULE] },
        { id: 'a', name: 'Vendor MSA', description: null, rules: [RULE, RULE] },
      ],
      paths,
    );
    expect(part.files.map((f) => f.path)).toEqual(['playbooks/vendor-msa.yaml', 'playbooks/vendor-msa-2.yaml']);
    expect(part.count).toBe(2);
    expect(part.rules).toBe(3);
    expect(part.notes).toHaveLength(2);
    expect(part.notes[0]).toContain('several playbooks are named "Vendor MSA"');
    expect(part.notes[1]).toContain('has several rules named "Term"');
  });
});

describe('organization', () => {
  it('writes only the values the services hold, default reviewer as an e-mail', () => {
    const part = exportOrganization(
      { review: { name: 'Acme Legal', defaultReviewer: 'alice@acme.example' }, agreements: { name: 'Acme, Inc.', city: 'Berlin', state: null, zipcode: '01099', country: '' } },
      paths,
    );
    expect(part.files.map((f) => f.path)).toEqual(['organization.yaml']);
    expect(body(part.files[0]!.content)).toBe(
      'kind: Organization\nreview:\n  name: Acme Legal\n  default_reviewer: alice@acme.example\nagreements:\n  name: Acme, Inc.\n  city: Berlin\n  zipcode: "01099"\n',
    );
  });

  it('omits the default reviewer when there is none, and a part that was not read', () => {
    const part = exportOrganization({ review: { name: 'Acme Legal', defaultReviewer: null } }, paths);
    expect(body(part.files[0]!.content)).toBe('kind: Organization\nreview:\n  name: Acme Legal\n');
  });
});

describe('members', () => {
  it('writes one document per user, sorted by e-mail, lowercase, each with its schema comment', () => {
    const part = exportMembers(
      [
        { email: 'Carol@Acme.example', name: 'Carol Diaz' },
        { email: 'bob@acme.example', name: null },
        { email: 'carol@acme.example', name: 'Duplicate' },
      ],
      paths,
    );
    expect(part.count).toBe(2);
    const content = part.files[0]!.content;
    expect(content.match(/^# yaml-language-server: \$schema=\.\.\/docket\/schemas\/member\.schema\.json$/gm)).toHaveLength(2);
    expect(parseAllDocuments(content).map((d) => d.toJS())).toEqual([
      { kind: 'Member', email: 'bob@acme.example' },
      { kind: 'Member', email: 'carol@acme.example', name: 'Carol Diaz' },
    ]);
  });

  it('writes no file when there are no members', () => {
    expect(exportMembers([], paths).files).toEqual([]);
  });
});

describe('custom terms', () => {
  it('puts a text term’s markdown next to it, ending with one newline', () => {
    const part = exportTerms([{ id: 't', name: 'Consulting Terms', type: 'text', body: '1. **Services.**\n2. **Fees.**' }], paths);
    expect(part.files.map((f) => [f.path, body(f.content)])).toEqual([
      ['custom-terms/consulting-terms.yaml', 'kind: CustomTerm\nname: Consulting Terms\nbody_file: consulting-terms.md\n'],
      ['custom-terms/consulting-terms.md', '1. **Services.**\n2. **Fees.**\n'],
    ]);
    expect(part.missing).toEqual([]);
  });

  it('writes a file term as a pending document naming its Word file, and lists the file as missing with the file the source uploaded', () => {
    const part = exportTerms([{ id: 't', name: 'Data Terms', type: 'file', sourceFile: 'terms/data.docx', conversionFailed: true }], paths);
    // `.yaml.pending`: docket reads only *.yaml, so plan ignores the term until the file is added and the document renamed.
    expect(part.files.map((f) => f.path)).toEqual(['custom-terms/data-terms.yaml.pending']);
    expect(part.files[0]!.content).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/docket\/schemas\/custom-term\.schema\.json\n/);
    expect(body(part.files[0]!.content)).toBe('kind: CustomTerm\nname: Data Terms\ndocx_file: data-terms.docx\n');
    expect(part.count).toBe(1);
    expect(part.missing).toEqual([
      {
        kind: 'custom-term',
        name: 'Data Terms',
        path: 'custom-terms/data-terms.docx',
        document: 'custom-terms/data-terms.yaml.pending',
        what: 'Word file',
        sourceFile: 'terms/data.docx',
      },
    ]);
    expect(part.notes[0]).toContain('could not convert');
  });
});

describe('custom templates', () => {
  it('writes the live definition text exactly, and the linked term by name', () => {
    const definition = '# comments survive\ntitle: Consulting\nsections: []';
    const part = exportCustomTemplates([{ id: 'c', name: 'Consulting Agreement', definition, customTerm: 'Consulting Terms' }], paths);
    expect(part.files.map((f) => f.path)).toEqual(['custom-templates/consulting-agreement.yaml', 'custom-templates/consulting-agreement.cover.yaml']);
    expect(body(part.files[0]!.content)).toBe('kind: CustomTemplate\nname: Consulting Agreement\ncustom_term: Consulting Terms\ndefinition_file: consulting-agreement.cover.yaml\n');
    expect(part.files[1]!.content).toBe(definition);
  });

  it('notes a linked term it cannot name', () => {
    const part = exportCustomTemplates([{ id: 'c', name: 'X', definition: 'title: X\n', customTerm: null, unknownTermId: 'term-9' }], paths);
    expect(body(part.files[0]!.content)).not.toContain('custom_term');
    expect(part.notes[0]).toContain('term-9');
  });
});

describe('attachments', () => {
  it('writes each attachment as a pending document pinned to its live id, and lists its PDF as missing', () => {
    const part = exportAttachments([{ name: 'Security Exhibit', id: 'att-1', description: 'Our measures', sourceFile: 'attachments/security.pdf' }], paths);
    expect(part.files.map((f) => f.path)).toEqual(['attachments/security-exhibit.yaml.pending']);
    expect(part.files[0]!.content).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/docket\/schemas\/attachment\.schema\.json\n/);
    expect(body(part.files[0]!.content)).toBe('kind: Attachment\nname: Security Exhibit\nid: att-1\ndescription: Our measures\nfile: security-exhibit.pdf\n');
    expect(part.missing).toEqual([
      {
        kind: 'attachment',
        name: 'Security Exhibit',
        path: 'attachments/security-exhibit.pdf',
        document: 'attachments/security-exhibit.yaml.pending',
        what: 'PDF',
        sourceFile: 'attachments/security.pdf',
      },
    ]);
  });

  it('leaves sourceFile out when the source lock file does not know the upload', () => {
    const part = exportAttachments([{ name: 'Security Exhibit', id: 'att-1', description: null }], paths);
    expect(body(part.files[0]!.content)).toBe('kind: Attachment\nname: Security Exhibit\nid: att-1\nfile: security-exhibit.pdf\n');
    expect(part.missing).toEqual([
      { kind: 'attachment', name: 'Security Exhibit', path: 'attachments/security-exhibit.pdf', document: 'attachments/security-exhibit.yaml.pending', what: 'PDF' },
    ]);
  });
});
