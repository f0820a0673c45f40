import { createHash } from 'node:crypto';
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dataFilePath, namedFiles, readDataFiles } from '../../../src/config/data-files.js';
import { resourceDoc } from '../engine/builders.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterEach(removeMadeDirs);

/** What the kinds declare as data fields. */
const FIELDS = { fieldsOf: () => ({ file: 'pdf', body_file: 'text', docx_file: 'docx', definition_file: 'yaml' }) };

const sha = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('data files', () => {
  it('resolves a file field relative to the document’s folder and reads it with its sha256', async () => {
    const body = '# Consulting terms\r\n\r\n1. Scope\n';
    const root = await makeDir({ 'custom-terms/consulting.md': body });
    const doc = resourceDoc('CustomTerm', { name: 'Consulting Terms', body_file: 'consulting.md' }, { '/body_file': 3 }, 'custom-terms/consulting.yaml');
    const { files, diagnostics } = await readDataFiles(root, [doc], FIELDS);
    expect(diagnostics).toEqual([]);
    expect([...files.keys()]).toEqual(['custom-terms/consulting.md']);
    const file = files.get('custom-terms/consulting.md')!;
    expect(file.path).toBe('custom-terms/consulting.md');
    expect(file.sha256).toBe(sha(body));
    // Text as written: line endings are the kinds' business.
    expect(file.text).toBe(body);
  });

  it('reads a text file past the byte-order mark an editor saved it with: the mark is no part of the terms', async () => {
    const root = await makeDir({ 'terms.md': '\uFEFF# Terms\n' });
    const doc = resourceDoc('CustomTerm', { name: 'T', body_file: 'terms.md' }, {}, 'terms.yaml');
    const { files, diagnostics } = await readDataFiles(root, [doc], FIELDS);
    expect(diagnostics).toEqual([]);
    expect(files.get('terms.md')!.text).toBe('# Terms\n');
  });

  it('reads a key spelt with escapes in a definition file as the service will, and sends a text file as written (third read TR67-8)', async () => {
    const key = 'sk_live_ABCDEFGH123';
    const escaped = 'title: "\\x73k_live_ABCDEFGH123"\n';
    const root = await makeDir({ 'def.yml': escaped, 'body.yml': escaped });
    const definition = resourceDoc('CustomTemplate', { name: 'T', definition_file: 'def.yml' }, {}, 't.yaml');
    const body = resourceDoc('CustomTerm', { name: 'B', body_file: 'body.yml' }, {}, 'b.yaml');
    const { diagnostics } = await readDataFiles(root, [definition, body], { ...FIELDS, keys: [['DOCKET_API_KEY', key]] });
    expect(diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code}`)).toEqual(['def.yml:1:1 api-key-in-file']);
  });

  it('refuses a control character in a text file at its line and column in that file, quoting the line', async () => {
    const root = await makeDir({ 'terms.md': '# Terms\n\n1. Scope \u0007bell\n' });
    const doc = resourceDoc('CustomTerm', { name: 'T', body_file: 'terms.md' }, { '/body_file': 3 }, 'terms.yaml');
    const { files, diagnostics } = await readDataFiles(root, [doc], FIELDS);
    expect(files.has('terms.md')).toBe(false);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'control-character', file: 'terms.md', line: 3, col: 10, message: '"terms.md" holds the control character U+0007: "1. Scope \\u0007bell"' }),
    ]);
    // Late in a long line: quoted around it, not from the line's start.
    const late = await makeDir({ 'terms.md': `# Terms\n${'C'.repeat(150)}\u0007tail\n` });
    const read = await readDataFiles(late, [doc], FIELDS);
    expect(read.diagnostics[0]).toMatchObject({ line: 2, col: 151 });
    expect(read.diagnostics[0]!.message).toMatch(/U\+0007: "…C+\\u0007tail"$/);
    // Lines as an editor shows them, a lone CR ending one (old Mac text), and CRLF alike (probe PY-3).
    for (const eol of ['\r', '\r\n']) {
      const mac = await makeDir({ 'terms.md': ['one', 'two', 'thr\u0007ee', ''].join(eol) });
      const said = (await readDataFiles(mac, [doc], FIELDS)).diagnostics[0];
      expect([said?.line, said?.col, said?.message]).toEqual([3, 4, '"terms.md" holds the control character U+0007: "thr\\u0007ee"']);
    }
  });

  it('hashes a binary file byte for byte without holding it: its digest and first bytes, no text', async () => {
    // 200 attachments of 2-5 MB each once took 2 GB: every PDF held, and decoded as UTF-8 too.
    const root = await makeDir({});
    const bytes = new Uint8Array(200_000).map((_, i) => (i * 7919) % 256);
    bytes.set([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0xfe]);
    await writeFile(join(root, 'security.pdf'), bytes);
    const doc = resourceDoc('Attachment', { name: 'Security', file: 'security.pdf' }, {}, 'security.yaml');
    const { files, diagnostics } = await readDataFiles(root, [doc], FIELDS);
    expect(diagnostics).toEqual([]);
    const file = files.get('security.pdf')!;
    expect(file.sha256).toBe(createHash('sha256').update(bytes).digest('hex'));
    expect([...file.head]).toEqual([0x25, 0x50, 0x44, 0x46, 0x2d, 0x00, 0xff, 0xfe]);
    expect(file.text).toBeUndefined();
    expect(Object.keys(file).sort()).toEqual(['head', 'path', 'sha256']);
  });

  it('normalises paths: ./, a sibling folder via .., and backslashes', () => {
    const doc = resourceDoc('CustomTerm', {}, {}, 'custom-terms/consulting.yaml');
    expect(dataFilePath(doc, './consulting.md')).toBe('custom-terms/consulting.md');
    expect(dataFilePath(doc, '../shared/terms.md')).toBe('shared/terms.md');
    expect(dataFilePath(doc, 'docs\\terms.md')).toBe('custom-terms/docs/terms.md');
    expect(dataFilePath(resourceDoc('Attachment', {}, {}, 'security.yaml'), 'security.pdf')).toBe('security.pdf');
  });

  it('a file that does not exist is missing-file at the field’s line', async () => {
    const root = await makeDir({});
    const doc = resourceDoc('CustomTemplate', { name: 'Consulting', definition_file: 'consulting.cover.yaml' }, { '/name': 2, '/definition_file': 4 }, 'custom-templates/consulting.yaml');
    const { files, diagnostics } = await readDataFiles(root, [doc], FIELDS);
    expect(files.size).toBe(0);
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]).toMatchObject({ severity: 'error', code: 'missing-file', file: 'custom-templates/consulting.yaml', line: 4, path: 'definition_file' });
    expect(diagnostics[0]!.message).toContain('custom-templates/consulting.cover.yaml');
  });

  it('a symbolic link that loops is unreadable-file, saying so, not a file that does not exist', async () => {
    const root = await makeDir({});
    await mkdir(join(root, 'terms'));
    await symlink('loop.md', join(root, 'terms/loop.md'));
    const doc = resourceDoc('CustomTerm', { name: 'T', body_file: 'loop.md' }, { '/body_file': 3 }, 'terms/t.yaml');
    const { files, diagnostics } = await readDataFiles(root, [doc], FIELDS);
    expect(files.size).toBe(0);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'unreadable-file', file: 'terms/t.yaml', line: 3, message: '`body_file` names "loop.md", which cannot be read (it is a symbolic link that loops) (looked for "terms/loop.md")' }),
    ]);
  });

  it('a symbolic link to nothing is unreadable-file, saying so, not a file that does not exist', async () => {
    const root = await makeDir({});
    await mkdir(join(root, 'terms'));
    await symlink('gone.md', join(root, 'terms/dangling.md'));
    const doc = resourceDoc('CustomTerm', { name: 'T', body_file: 'dangling.md' }, { '/body_file': 3 }, 'terms/t.yaml');
    const { diagnostics } = await readDataFiles(root, [doc], FIELDS);
    expect(diagnostics).toEqual([
      expect.objectContaining({ code: 'unreadable-file', file: 'terms/t.yaml', line: 3, message: '`body_file` names "dangling.md", which cannot be read (it is a symbolic link to something that does not exist) (looked for "terms/dangling.md")' }),
    ]);
  });

  it('a path that leaves the configuration directory is file-outside-config, and is not read', async () => {
    const root = await makeDir({ 'x.pdf': '%PDF-' });
    const atRoot = resourceDoc('Attachment', { name: 'X', file: '../x.pdf' }, { '/file': 5 }, 'security.yaml');
    const nested = resourceDoc('CustomTerm', { name: 'Y', docx_file: '../../y.docx' }, { '/docx_file': 3 }, 'custom-terms/y.yaml');
    const { files, diagnostics } = await readDataFiles(root, [atRoot, nested], FIELDS);
    expect(files.size).toBe(0);
    expect(diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['file-outside-config', 'security.yaml', 5],
      ['file-outside-config', 'custom-terms/y.yaml', 3],
    ]);
  });

  it('reads a file named by two documents once; ignores fields that are not files and empty values', async () => {
    const root = await makeDir({ 'shared/terms.md': 'Terms' });
    const a = resourceDoc('CustomTerm', { name: 'shared/terms.md', body_file: '../shared/terms.md' }, {}, 'custom-terms/a.yaml');
    const b = resourceDoc('CustomTerm', { name: 'B', body_file: 'shared/terms.md', docx_file: '' }, {}, 'b.yaml');
    const { files, diagnostics } = await readDataFiles(root, [a, b], FIELDS);
    expect(diagnostics).toEqual([]);
    expect([...files.keys()]).toEqual(['shared/terms.md']);
  });

  it('names files only through the fields the kind declares, each resolved or refused once', () => {
    const body = { name: 'X', body_file: '../shared/x.md', docx_file: '/etc/x.docx', file: '../../x.pdf', definition_file: '', notes_file: 'n.md' };
    expect(namedFiles('terms/x.yaml', body, { body_file: 'text', docx_file: 'docx', file: 'pdf', definition_file: 'yaml' })).toEqual([
      { field: 'body_file', value: '../shared/x.md', type: 'text', path: 'shared/x.md' },
      { field: 'docx_file', value: '/etc/x.docx', type: 'docx', problem: 'absolute' },
      { field: 'file', value: '../../x.pdf', type: 'pdf', problem: 'outside' },
    ]);
  });
});
