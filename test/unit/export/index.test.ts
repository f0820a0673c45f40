import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { buildExport, projectDocument, type LiveExport } from '../../../src/export/index.js';
import { EXPORT_KINDS } from '../../../src/export/layout.js';
import { renderExportSummary } from '../../../src/export/summary.js';

const paths = { outRoot: '/home/ops/acme', schemasDir: '/opt/docket/schemas' };
const ATT = '11111111-1111-4111-8111-111111111111';

function live(overrides: Partial<LiveExport> = {}): LiveExport {
  return {
    kinds: new Set(EXPORT_KINDS),
    project: {
      review: { url: 'https://api.gerri.commonpaper.com', organization_id: '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' },
      agreements: { url: 'https://api.commonpaper.com', actor: 'legal-ops@acme.example' },
      concurrency: 8,
    },
    organization: { review: { name: 'Acme Legal', defaultReviewer: null } },
    members: [{ email: 'b@acme.example' }, { email: 'a@acme.example' }],
    playbooks: [{ id: 'p', name: 'Inbound NDA', description: null, rules: [] }],
    terms: [
      { id: 't1', name: 'Consulting Terms', type: 'text', body: 'Terms.' },
      { id: 't2', name: 'Data Terms', type: 'file' },
    ],
    customTemplates: [{ id: 'c', name: 'Consulting Agreement', definition: 'title: X\n', customTerm: 'Consulting Terms' }],
    templates: [{ id: 'tp', wireType: 'template_nda', attributes: { name: 'Mutual NDA', term: 2, attachment_ids: [ATT] } }],
    attachments: [{ name: 'Security Exhibit', id: ATT, description: null }],
    templateSchemas: new Map([['NDA', { properties: { term: { default: 1 } } }]]),
    ...overrides,
  };
}

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
  it('lays out every kind, sorted by path, docket.yaml included', () => {
    const result = buildExport(live(), paths);
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
    expect(result.parts.map((p) => p.kind)).toEqual([...EXPORT_KINDS]);
    // Each file the services cannot give back comes with the pending document that names it.
    expect(result.missing.map((m) => [m.path, m.document])).toEqual([
      ['custom-terms/data-terms.docx', 'custom-terms/data-terms.yaml.pending'],
      ['attachments/security-exhibit.pdf', 'attachments/security-exhibit.yaml.pending'],
    ]);
    for (const m of result.missing) expect(result.files.some((f) => f.path === m.document)).toBe(true);
    const attachment = parse(result.files.find((f) => f.path === 'attachments/security-exhibit.yaml.pending')!.content) as Record<string, unknown>;
    expect(attachment).toEqual({ kind: 'Attachment', name: 'Security Exhibit', id: ATT, file: 'security-exhibit.pdf' });
    const project = result.files.find((f) => f.path === 'docket.yaml')!.content;
    expect(project.split('\n')[0]).toBe('# yaml-language-server: $schema=../../../opt/docket/schemas/docket.schema.json');
    expect(parse(project)).toEqual({
      version: 1,
      review: { url: 'https://api.gerri.commonpaper.com', organization_id: '6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f' },
      agreements: { url: 'https://api.commonpaper.com', actor: 'legal-ops@acme.example' },
    });
    // The exported attachment is pending, so the template does not name it: no `attachments:` list.
    const templateText = result.files.find((f) => f.path === 'templates/mutual-nda.yaml')!.content;
    const template = parse(templateText) as Record<string, unknown>;
    expect(template.attachments).toBeUndefined();
    expect(templateText).not.toContain('Security Exhibit');
    expect(result.notes.filter((n) => n.startsWith('templates name attachments by id'))).toHaveLength(1);
  });

  it('keeps attachment ids as uuids in template parameters even when the attachment is exported', () => {
    const templates = [
      {
        id: 'tp',
        wireType: 'template_csa',
        attributes: {
          name: 'Cloud Service Agreement',
          include_security_policy: true,
          include_security_policy_type: 'attachment',
          include_security_policy_attachment_id: ATT,
          attachment_ids: [ATT],
        },
      },
    ];
    const schema = { properties: { include_security_policy: {}, include_security_policy_type: {}, include_security_policy_attachment_id: {} } };
    const result = buildExport(live({ kinds: new Set(['template', 'attachment']), templates, templateSchemas: new Map([['CSA', schema]]) }), paths);
    expect(result.files.map((f) => f.path)).toEqual(['attachments/security-exhibit.yaml.pending', 'docket.yaml', 'templates/cloud-service-agreement.yaml']);
    const template = parse(result.files[2]!.content) as { parameters: Record<string, unknown>; attachments?: unknown };
    expect(template.parameters.include_security_policy_attachment_id).toBe(ATT);
    expect(template.attachments).toBeUndefined();
    const note = result.notes.find((n) => n.startsWith('templates name attachments by id'));
    expect(note).toContain('`{ attachment: <name> }`');
  });

  it('exports only the selected kinds; attachments stay ids', () => {
    const result = buildExport(live({ kinds: new Set(['template']) }), paths);
    expect(result.files.map((f) => f.path)).toEqual(['docket.yaml', 'templates/mutual-nda.yaml']);
    expect(result.missing).toEqual([]);
    const template = parse(result.files[1]!.content) as Record<string, unknown>;
    expect(template.attachments).toBeUndefined();
    expect(result.notes.some((n) => n.startsWith('templates name attachments by id'))).toBe(true);
  });

  it('has no attachment note when no template uses attachments', () => {
    const templates = [{ id: 'tp', wireType: 'template_nda', attributes: { name: 'Mutual NDA', term: 2, attachment_ids: [] } }];
    const result = buildExport(live({ templates }), paths);
    expect(result.notes.some((n) => n.startsWith('templates name attachments'))).toBe(false);
  });

  it('tells the user to set agreements.actor when terms, templates or attachments need it', () => {
    const result = buildExport(live({ project: { agreements: { url: 'https://a.example' } } }), paths);
    expect(result.notes.some((n) => n.startsWith('set `agreements.actor`'))).toBe(true);
    const playbooksOnly = buildExport(live({ kinds: new Set(['playbook']), project: { review: { url: 'https://r.example' } } }), paths);
    expect(playbooksOnly.notes).toEqual([]);
  });

  it('is deterministic: the same live state in any order gives the same bytes', () => {
    const a = buildExport(live(), paths);
    const shuffled = live();
    shuffled.members!.reverse();
    shuffled.terms!.reverse();
    const b = buildExport(shuffled, paths);
    expect(b.files).toEqual(a.files);
  });
});

describe('renderExportSummary', () => {
  it('lists files per kind, the files to add, notes and the next steps', () => {
    const result = buildExport(live(), paths);
    const text = renderExportSummary(result, { out: 'acme legal', target: 'target: local emulator', flags: ['--emulator'], paint: (_s, t) => t });
    expect(text).toContain('docket export · target: local emulator');
    expect(text).toContain('Wrote 11 files to acme legal:');
    expect(text).toContain('  playbooks          1 file (1 playbook, 0 rules)');
    expect(text).toContain('  custom-terms/data-terms.docx      Word file of custom-term "Data Terms"');
    expect(text).toContain('  attachments/security-exhibit.pdf  PDF of attachment "Security Exhibit"');
    // Plan shows no changes straight away; adopting the files is a separate, later step.
    expect(text).toContain(
      [
        'Next steps:',
        "  docket plan -C 'acme legal' --emulator",
        '  shows no changes.',
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
    expect(text.endsWith('Commit the directory; API keys stay in the environment.\n')).toBe(true);
  });

  it('without missing files, the next step is only the plan', () => {
    const result = buildExport(live({ kinds: new Set(['playbook']) }), paths);
    const text = renderExportSummary(result, { out: 'out', target: 'target: x', flags: [], paint: (_s, t) => t });
    expect(text).not.toContain('--adopt-files');
    expect(text).not.toContain('.yaml.pending');
    expect(text).toContain('Next steps:\n  docket plan -C out\n  shows no changes.\n\nCommit the directory');
  });
});
