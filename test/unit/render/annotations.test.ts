import { describe, expect, it } from 'vitest';
import { escapeData, escapeProperty, formatAnnotation, renderGithubAnnotations } from '../../../src/render/annotations.js';
import { change, plan } from './fixtures.js';

describe('workflow-command escaping', () => {
  it('escapes %, CR and LF in messages, and also : and , in properties', () => {
    expect(escapeData('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext: a,b');
    expect(escapeProperty('100% done\r\nnext: a,b')).toBe('100%25 done%0D%0Anext%3A a%2Cb');
  });

  it('escapes % first, so an existing escape is not decoded by the runner', () => {
    expect(escapeData('%0A')).toBe('%250A');
    expect(escapeProperty('%3A')).toBe('%253A');
  });

  it('formats properties in order and leaves them out when there is no location', () => {
    expect(formatAnnotation({ level: 'notice', title: 'docket create', message: 'x', at: { file: 'a,b:c.yaml', line: 3 } })).toBe(
      '::notice file=a%2Cb%3Ac.yaml,line=3,title=docket create::x',
    );
    expect(formatAnnotation({ level: 'warning', title: 't', message: 'm' })).toBe('::warning title=t::m');
  });

  it('drops escape sequences and control characters from the file, the title and the message', () => {
    const line = formatAnnotation({ level: 'error', title: 'docket \x07x', message: 'bad \x1b[31mred', at: { file: 'playbooks/e\x1b]0;pwned\x07x.yaml', line: 5 } });
    expect(line).toBe('::error file=playbooks/ex.yaml,line=5,title=docket x::bad red');
    // A CR or LF in a file name is escaped, not dropped: the annotation still names that file.
    expect(formatAnnotation({ level: 'notice', title: 't', message: 'm', at: { file: 'c\rd\ne.yaml' } })).toBe('::notice file=c%0Dd%0Ae.yaml,title=t::m');
  });

  it('shows what prints as nothing in the title and the message, as the plan does (probe KP-2)', () => {
    const line = formatAnnotation({ level: 'warning', title: 'docket delete', message: 'delete rule "zw\u200bsp and\u2028line"' });
    expect(line).toBe('::warning title=docket delete::delete rule "zw<U+200B>sp and<U+2028>line"');
  });
});

describe('renderGithubAnnotations', () => {
  it('prints a notice per change at its file and line under the path prefix', () => {
    const p = plan([
      change('create', 'playbook', 'Inbound NDA', { file: 'playbooks/nda.yaml', line: 2 }),
      change('update', 'rule', 'Inbound NDA/Term', { file: 'playbooks/nda.yaml', line: 9, parent: 'Inbound NDA' }),
      change('invite', 'member', 'bob@acme.example', { file: 'members.yaml', line: 4 }),
    ]);
    expect(renderGithubAnnotations(p, { pathPrefix: 'config/legal' })).toBe(
      [
        '::notice file=config/legal/playbooks/nda.yaml,line=2,title=docket create::create playbook "Inbound NDA"',
        '::notice file=config/legal/playbooks/nda.yaml,line=9,title=docket update::update rule "Inbound NDA/Term"',
        '::notice file=config/legal/members.yaml,line=4,title=docket invite::invite member "bob@acme.example"',
        '',
      ].join('\n'),
    );
  });

  it('says both names of a rename, as the plan does', () => {
    const p = plan([change('rename', 'playbook', 'Vendor MSAs', { file: 'playbooks/msa.yaml', line: 2, fields: { name: ['Vendor MSA', 'Vendor MSAs'] } })]);
    expect(renderGithubAnnotations(p, { pathPrefix: '' })).toBe('::notice file=playbooks/msa.yaml,line=2,title=docket rename::rename playbook "Vendor MSA" → "Vendor MSAs"\n');
  });

  it('uses the path as is when the configuration is the repository root', () => {
    const p = plan([change('create', 'playbook', 'P', { file: 'playbooks/p.yaml', line: 1 })]);
    expect(renderGithubAnnotations(p, { pathPrefix: '' })).toBe('::notice file=playbooks/p.yaml,line=1,title=docket create::create playbook "P"\n');
  });

  it('warns for irreversible changes: permanent deletes and publishes', () => {
    const p = plan([
      change('publish', 'custom-term', 'Consulting Terms', { file: 'custom-terms/consulting.yaml', line: 3, irreversible: true }),
      change('delete', 'rule', 'Inbound NDA/Residuals', { irreversible: true, parent: 'Inbound NDA' }),
      change('archive', 'playbook', 'Old'),
    ]);
    expect(renderGithubAnnotations(p, { pathPrefix: 'x' }).split('\n')).toEqual([
      '::warning file=x/custom-terms/consulting.yaml,line=3,title=docket publish::publish custom-term "Consulting Terms" (goes live at once: cannot be undone)',
      // A removed object has no line: without a locator it is annotated without a file.
      '::warning title=docket delete::delete rule "Inbound NDA/Residuals" (permanent: cannot be undone)',
      '::notice title=docket archive::archive playbook "Old"',
      '',
    ]);
  });

  it('asks the locator where a change without a source belongs', () => {
    const p = plan([change('delete', 'rule', 'Inbound NDA/Residuals', { irreversible: true, parent: 'Inbound NDA' })]);
    const out = renderGithubAnnotations(p, {
      pathPrefix: 'cfg',
      locate: (c) => (c.parent?.key === 'Inbound NDA' ? { file: 'playbooks/nda.yaml', line: 1, col: 1 } : undefined),
    });
    expect(out).toBe('::warning file=cfg/playbooks/nda.yaml,line=1,title=docket delete::delete rule "Inbound NDA/Residuals" (permanent: cannot be undone)\n');
  });

  it('names the organization without repeating its kind', () => {
    const p = plan([change('update', 'organization', 'organization', { file: 'organization.yaml', line: 2 })]);
    expect(renderGithubAnnotations(p, { pathPrefix: '' })).toBe('::notice file=organization.yaml,line=2,title=docket update::update organization\n');
  });

  it('keeps every annotation on one line whatever the names contain', () => {
    const p = plan([change('create', 'playbook', 'A%\nB\r::warning x,y\x1b[31m', { file: 'weird, name:.yaml', line: 1 })]);
    const out = renderGithubAnnotations(p, { pathPrefix: '' });
    expect(out.split('\n')).toHaveLength(2);
    // Quoted as the plan quotes it: the line break a `\n`, not a second line of the annotation (probe RG-1).
    expect(out).toBe('::notice file=weird%2C name%3A.yaml,line=1,title=docket create::create playbook "A%25\\nB\\r::warning x,y\\u001b[31m"\n');
  });

  it('annotates plan warnings that carry a file:line, and skips the others', () => {
    const p = plan([], {
      warnings: ['playbooks/nda.yaml:7: Unresolved tag: !note', 'attachment "X": cannot compare security.pdf (no lock entry)'],
    });
    expect(renderGithubAnnotations(p, { pathPrefix: 'cfg' })).toBe(
      '::warning file=cfg/playbooks/nda.yaml,line=7,title=docket warning::Unresolved tag: !note\n',
    );
  });

  it('annotates a warning about an object at the file:line where it is declared', () => {
    const p = plan([], {
      warnings: ['playbook "Vendor MSAs" (playbooks/vendor-msa.yaml:2) looks like a rename of the live playbook "Vendor MSA" (same rules), but it has none: if it was renamed, add `renamed_from: [Vendor MSA]`'],
    });
    expect(renderGithubAnnotations(p, { pathPrefix: 'cfg' })).toBe(
      '::warning file=cfg/playbooks/vendor-msa.yaml,line=2,title=docket warning::playbook "Vendor MSAs" (playbooks/vendor-msa.yaml:2) looks like a rename of the live playbook "Vendor MSA" (same rules), but it has none: if it was renamed, add `renamed_from: [Vendor MSA]`\n',
    );
  });

  it('annotates a warning about an object whose name holds `:2: ` where it is declared, not at a file its name seems to start (probe CI-1)', () => {
    const p = plan([], { warnings: ['playbook "Clause 4:2: Terms" (p.yaml:1) looks like a rename of the live playbook "Clause 4:2: Term"'] });
    expect(renderGithubAnnotations(p, { pathPrefix: 'cfg' })).toBe('::warning file=cfg/p.yaml,line=1,title=docket warning::playbook "Clause 4:2: Terms" (p.yaml:1) looks like a rename of the live playbook "Clause 4:2: Term"\n');
  });

  it('prints nothing for a plan without changes or located warnings', () => {
    expect(renderGithubAnnotations(plan([]), { pathPrefix: '' })).toBe('');
  });
});

describe("a URL's hidden parts in annotations", () => {
  it("hides a parent's query on its own: each rule keeps its name", () => {
    const linked = 'Links https://ex.example/a?ref=1';
    const out = renderGithubAnnotations(plan([change('create', 'rule', `${linked}/Term`, { parent: linked, file: 'playbooks/p.yaml', line: 4 })]), { pathPrefix: '' });
    expect(out).toBe('::notice file=playbooks/p.yaml,line=4,title=docket create::create rule "Links https://ex.example/a?… / Term"\n');
  });
});
