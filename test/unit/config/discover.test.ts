import { mkdir, symlink } from 'node:fs/promises';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { decodeStrict, decodeYaml, discoverYamlFiles, readFiles, unreadableFile } from '../../../src/config/discover.js';
import { cleanup, tree } from './helpers.js';
import { sourceLines } from '../../../src/config/source-lines.js';

afterEach(cleanup);

describe('discoverYamlFiles', () => {
  it('finds .yaml and .yml files in nested folders, sorted, with / separators', async () => {
    const dir = await tree({
      'docket.yaml': '',
      'playbooks/b.yml': '',
      'playbooks/a.yaml': '',
      'playbooks/deep/er/c.YAML': '',
      'members.yaml': '',
      'attachments/security.pdf': '',
      'README.md': '',
    });
    expect((await discoverYamlFiles(dir)).files).toEqual([
      'docket.yaml',
      'members.yaml',
      'playbooks/a.yaml',
      'playbooks/b.yml',
      'playbooks/deep/er/c.YAML',
    ]);
  });

  it('skips dot-folders, dot-files and node_modules at any depth', async () => {
    const dir = await tree({
      'docket.yaml': '',
      '.docket/emulator.yaml': '',
      '.git/config.yaml': '',
      'node_modules/pkg/x.yaml': '',
      'playbooks/.hidden/x.yaml': '',
      'playbooks/node_modules/x.yaml': '',
      'playbooks/.dotfile.yaml': '',
      // macOS's AppleDouble copy of a.yaml on a shared drive: not UTF-8.
      'playbooks/._a.yaml': '\u0000\u0005\u0016\u0007',
      'playbooks/a.yaml': '',
    });
    // The lock Emacs keeps while a buffer has unsaved edits: a link to nothing (probe JT-3).
    await symlink('user@host.1234:1700000000', path.join(dir, 'playbooks/.#a.yaml'));
    const found = await discoverYamlFiles(dir);
    expect(found.files).toEqual(['docket.yaml', 'playbooks/a.yaml']);
    expect(found.problems).toEqual([]);
  });

  it('refuses a *.yaml link into what it does not read (a dot-file, a dot-folder, node_modules), and quotes none of it (second read SR71-1)', async () => {
    const dir = await tree({ 'docket.yaml': '', '.env': 'TOKEN: ghp_abcdefSECRET\n', '.shared/p.yaml': 'kind: Playbook\nname: P\n', 'node_modules/x/a.yaml': 'a: 1\n' });
    await symlink('.env', path.join(dir, 'playbooks-evil.yaml'));
    await mkdir(path.join(dir, 'playbooks'));
    await symlink('../.shared/p.yaml', path.join(dir, 'playbooks/p.yaml'));
    await symlink('../node_modules/x/a.yaml', path.join(dir, 'playbooks/a.yaml'));
    const found = await discoverYamlFiles(dir);
    expect(found.files).toEqual(['docket.yaml']);
    expect(found.problems.map((p) => `${p.file} ${p.code} ${p.message}`)).toEqual([
      `playbooks-evil.yaml file-outside-config playbooks-evil.yaml is a link to ".env", which docket does not read as configuration (dot-files, dot-folders and node_modules hold local or other tools' files)`,
      `playbooks/a.yaml file-outside-config playbooks/a.yaml is a link to "node_modules/x/a.yaml", which docket does not read as configuration (dot-files, dot-folders and node_modules hold local or other tools' files)`,
      `playbooks/p.yaml file-outside-config playbooks/p.yaml is a link to ".shared/p.yaml", which docket does not read as configuration (dot-files, dot-folders and node_modules hold local or other tools' files)`,
    ]);
    // The line a message would quote under the error is not read either.
    const lines = sourceLines(dir);
    expect([lines('playbooks-evil.yaml', 1), lines('.env', 1)]).toEqual([undefined, 'TOKEN: ghp_abcdefSECRET']);
  });

  it('a link to a folder of the configuration read where it is is no problem; one into a dot-folder of it is', async () => {
    const dir = await tree({ 'docket.yaml': '', 'playbooks/a.yaml': '', '.shared/b.yaml': '' });
    await symlink(path.join(dir, 'playbooks'), path.join(dir, 'current'));
    await symlink(path.join(dir, '.shared'), path.join(dir, 'shared'));
    const found = await discoverYamlFiles(dir);
    expect(found.files).toEqual(['docket.yaml', 'playbooks/a.yaml']);
    expect(found.problems.map((p) => `${p.file} ${p.code}`)).toEqual(['shared linked-folder']);
  });

  it('reads symlinked files but does not follow symlinked folders, and refuses one holding YAML files (what they declare would be left out, and pruned)', async () => {
    const dir = await tree({ 'docket.yaml': '', 'real/a.yaml': '', 'real/exhibit.pdf': '' });
    const shared = await tree({ 'nda.yaml': 'kind: Playbook\nname: Shared\n', 'docs/readme.md': '' });
    const pdfs = await tree({ 'exhibit.pdf': '', '.cache/x.yaml': '' });
    await symlink(path.join(dir, 'real/a.yaml'), path.join(dir, 'linked.yaml'));
    await mkdir(path.join(dir, 'loop'));
    await symlink(dir, path.join(dir, 'loop/back'));
    await symlink(shared, path.join(dir, 'playbooks'));
    // No YAML in it (but in a dot-folder, which discovery skips): nothing to leave out.
    await symlink(pdfs, path.join(dir, 'attachments'));
    // A dot-named link is scratch space, as a dot-folder is.
    await symlink(shared, path.join(dir, '.shared'));
    const found = await discoverYamlFiles(dir);
    expect([found.files, found.links]).toEqual([['docket.yaml', 'linked.yaml', 'real/a.yaml'], new Map([['linked.yaml', 'real/a.yaml']])]);
    // loop/back leads to the configuration itself, whose files are read where they are: no problem.
    expect(found.problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.code} ${p.message}`).sort()).toEqual([
      `playbooks:1:1 linked-folder playbooks is a symbolic link to the folder "${shared}", which docket does not follow: the YAML files in it would be left out, and \`--prune\` would archive what they declare`,
    ]);
  });

  it('refuses a *.yaml link that leads out of the directory: its text would be printed in messages', async () => {
    const outside = await tree({ 'secret.env': 'TOKEN=abc123\n', 'pb.yaml': 'kind: Playbook\nname: Outside\n' });
    const dir = await tree({ 'docket.yaml': '' });
    await symlink(path.join(outside, 'secret.env'), path.join(dir, 'env.yaml'));
    await symlink(path.join(outside, 'pb.yaml'), path.join(dir, 'pb.yaml'));
    const { files, problems } = await discoverYamlFiles(dir);
    expect(files).toEqual(['docket.yaml']);
    expect(problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.code} ${p.message}`).sort()).toEqual([
      `env.yaml:1:1 file-outside-config env.yaml is a link to "${path.join(outside, 'secret.env')}", which is outside the configuration directory`,
      `pb.yaml:1:1 file-outside-config pb.yaml is a link to "${path.join(outside, 'pb.yaml')}", which is outside the configuration directory`,
    ]);
  });

  it('reads many files and keeps their order', async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++) files[`f/${String(i).padStart(3, '0')}.yaml`] = `n: ${i}\n`;
    const dir = await tree(files);
    const { files: found } = await discoverYamlFiles(dir);
    const texts = readFiles(dir, found);
    expect(texts).toHaveLength(150);
    expect(texts[0]).toEqual({ text: 'n: 0\n' });
    expect(texts[149]).toEqual({ text: 'n: 149\n' });
  });

  it('reports a *.yaml link that dangles or loops, instead of silently dropping what it declared', async () => {
    const dir = await tree({ 'docket.yaml': '' });
    await symlink('gone.yaml', path.join(dir, 'dangling.yaml'));
    await symlink('b.yaml', path.join(dir, 'a.yaml'));
    await symlink('a.yaml', path.join(dir, 'b.yaml'));
    const { files, problems } = await discoverYamlFiles(dir);
    expect(files).toEqual(['docket.yaml']);
    expect(problems.map((p) => `${p.file}:${p.line}:${p.col} ${p.code} ${p.message}`).sort()).toEqual([
      'a.yaml:1:1 unreadable-file a.yaml cannot be read (it is a symbolic link that loops)',
      'b.yaml:1:1 unreadable-file b.yaml cannot be read (it is a symbolic link that loops)',
      'dangling.yaml:1:1 unreadable-file dangling.yaml cannot be read (it is a symbolic link to something that does not exist)',
    ]);
  });

  it('says a name that is not UTF-8 is that, not a link to nothing (probe LU-2)', async () => {
    const dir = await tree({ 'docket.yaml': '' });
    // Latin-1 bytes for "café.yaml" and "dossiersé": listed with U+FFFD, which names no file.
    writeFileSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from('caf\xe9.yaml', 'latin1')]), 'kind: Playbook\n');
    mkdirSync(Buffer.concat([Buffer.from(`${dir}/`), Buffer.from('dossiers\xe9', 'latin1')]));
    const { files, problems } = await discoverYamlFiles(dir);
    // The folder when it is listed; the file when it is read.
    const [read] = readFiles(dir, files.filter((f) => f !== 'docket.yaml'));
    const fileProblem = read && 'unreadable' in read ? unreadableFile('caf\ufffd.yaml', read.unreadable) : undefined;
    expect([...problems, ...(fileProblem ? [fileProblem] : [])].map((p) => `${p.file} ${p.code} ${p.message}`).sort()).toEqual([
      'caf\ufffd.yaml unreadable-file caf\ufffd.yaml cannot be read: its name (or a folder\'s on its path) is not UTF-8, shown here with \ufffd',
      'dossiers\ufffd unreadable-file dossiers\ufffd cannot be read: its name (or a folder\'s on its path) is not UTF-8, shown here with \ufffd',
    ]);
  });

  it('drops a byte-order mark that starts any document of the stream, as YAML allows, and keeps one inside text', () => {
    const bytes = new TextEncoder().encode('\ufeffkind: A\n---\n\ufeffkind: B\n--- # c\r\n\ufeffkind: C\ntext: "a\ufeffb"\n');
    expect(decodeStrict(bytes)).toEqual({ text: 'kind: A\n---\nkind: B\n--- # c\r\nkind: C\ntext: "a\ufeffb"\n' });
    // After the comments and blank lines a document may open with (a header joined before a file an editor saved with a mark).
    const joined = new TextEncoder().encode('# header\n\ufeffkind: A\n---\n# c\n\n\ufeffkind: B\nx: 1\n# d\n\ufeffy: 2\n');
    expect(decodeStrict(joined)).toEqual({ text: '# header\nkind: A\n---\n# c\n\nkind: B\nx: 1\n# d\n\ufeffy: 2\n' });
    // Before a marker, or before the comments ahead of one (`cat a.yaml b.yaml` of a b.yaml saved with a
    // mark and starting so), and two at once (a mark dropped before `---` leaves the next in a prefix).
    const marked = new TextEncoder().encode('kind: A\n\ufeff---\nkind: B\n\ufeff# c\r\n---\r\nkind: C\n\ufeff---\n\ufeffkind: D\nz: "\ufeff---"\n');
    expect(decodeStrict(marked)).toEqual({ text: 'kind: A\n---\nkind: B\n# c\r\n---\r\nkind: C\n---\nkind: D\nz: "\ufeff---"\n' });
    // A chain of marked comment lines in one prefix, and a run of marks on one line.
    expect(decodeStrict(new TextEncoder().encode(`---\n${'\ufeff# c\n'.repeat(3)}\ufeff\ufeffkind: E\n`))).toEqual({ text: '---\n# c\n# c\n# c\nkind: E\n' });
  });

  it('says where a byte that is not UTF-8, or a NUL, is as every other position is said: past the marks it drops, in UTF-16 units, a lone CR a line break (probe PY-2)', () => {
    const at = (...parts: (string | number[])[]) => {
      const decoded = decodeYaml(Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p) : Buffer.from(p)))));
      return 'invalidAt' in decoded ? decoded.invalidAt : decoded;
    };
    expect(at('kind: Playbook', [0xff], '\n')).toEqual({ line: 1, col: 15 });
    expect(at('\ufeffkind: Playbook', [0xff], '\n')).toEqual({ line: 1, col: 15 });
    expect(at('\ufeffname: "a', [0], 'b"\nkind: Playbook\n')).toEqual({ line: 1, col: 9 });
    expect(at('kind: A\n---\n\ufeffname: "a', [0], 'b"\n')).toEqual({ line: 3, col: 9 });
    // One kept in text is a character, as the parser counts it.
    expect(at('kind: A\nname: "\ufeff', [0xff], '"\n')).toEqual({ line: 2, col: 9 });
    expect(at('name: "\u{1F600}', [0xff], '"\n')).toEqual({ line: 1, col: 10 });
    expect(at('kind: A\rname: ', [0xc3], '\r\n')).toEqual({ line: 2, col: 7 });
  });

  it('reads a file it cannot open as a problem of that file, not a crash', () => {
    // A folder stands in for a file that cannot be opened (root reads any file, whatever its mode).
    expect(readFiles(path.dirname(import.meta.dirname), ['config'])).toEqual([{ unreadable: expect.objectContaining({ code: 'EISDIR' }) }]);
  });
});
