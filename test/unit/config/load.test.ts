import { afterEach, describe, expect, it } from 'vitest';
import { compareDiagnostics } from '../../../src/diagnostics.js';
import { rm } from 'node:fs/promises';
import { loadConfig } from '../../../src/config/load.js';
import { brief, cleanup, KINDS, load, lines, PROJECT, tree } from './helpers.js';

afterEach(cleanup);

const PLAYBOOK = lines(
  '# yaml-language-server: $schema=../../schemas/playbook.schema.json',
  'kind: Playbook',
  'name: Inbound NDA',
  'description: NDAs we receive',
  'rules:',
  '  - name: Term',
  '    actions: ACCEPT up to 3 years',
  '    reviewer: alice@acme.example',
);

describe('loadConfig: documents', () => {
  it('loads resources from nested folders and .yml files, in path order', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'playbooks/inbound-nda.yaml': PLAYBOOK,
      'members.yml': lines('kind: Member', 'email: bob@acme.example'),
      '.docket/state.yaml': 'not: a resource\n',
      'node_modules/x/y.yaml': 'not: a resource\n',
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.config!.documents.map((d) => [d.kind, d.file, d.line, d.col])).toEqual([
      ['Member', 'members.yml', 1, 1],
      ['Playbook', 'playbooks/inbound-nda.yaml', 2, 1],
    ]);
    const playbook = r.config!.documents[1]!;
    expect(playbook.body).toEqual({
      kind: 'Playbook',
      name: 'Inbound NDA',
      description: 'NDAs we receive',
      rules: [{ name: 'Term', actions: 'ACCEPT up to 3 years', reviewer: 'alice@acme.example' }],
    });
    expect(playbook.positions.at('/rules/0/reviewer')).toEqual({ file: 'playbooks/inbound-nda.yaml', line: 8, col: 5 });
    expect(playbook.positions.has('/rules/0/generate_summary')).toBe(false);
  });

  it('gives each document of a multi-document file its own lines', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'members.yaml': lines(
        'kind: Member',
        'email: bob@acme.example',
        '---',
        '# Carol runs sales',
        'kind: Member',
        'email: carol@acme.example',
        'name: Carol',
        '---',
        '---',
        'kind: Member',
        'email: not-an-email',
      ),
    });
    expect(r.diagnostics.map(brief)).toEqual(['members.yaml:11:8 invalid-value']);
    expect(r.diagnostics[0]!.message).toMatch(/^`email` must be an e-mail address \(got ".*"\)$/);
    // Documents stay in the result so the kinds' own rules can report in the same run.
    expect(r.config!.documents).toHaveLength(3);
  });

  it('treats files named by the data fields a kind declares as data, relative to the naming document', async () => {
    const r = await load(
      {
        'docket.yaml': PROJECT,
        'custom-templates/consulting.yaml': lines('kind: CustomTemplate', 'name: Consulting', 'definition_file: consulting.cover.yaml'),
        // YAML without `kind`, but named by definition_file: data, not an error.
        'custom-templates/consulting.cover.yaml': lines('sections:', '  - title: Cover'),
        'attachments/security.yaml': lines('kind: Attachment', 'name: Security', 'file: ../shared/exhibit.yml'),
        'shared/exhibit.yml': lines('not: a resource either'),
        // A field the kind does not declare names no data file.
        'attachments/other.yaml': lines('kind: Attachment', 'name: Other', 'file: other.pdf', 'notes_file: ../shared/notes.yaml'),
        'shared/notes.yaml': lines('no: kind'),
      },
      {
        kinds: [
          { yamlKind: 'CustomTemplate', schema: 'custom-template.schema.json', dataFiles: { definition_file: 'yaml' } },
          { yamlKind: 'Attachment', schema: 'attachment.schema.json', dataFiles: { file: 'pdf' } },
        ],
      },
    );
    // (The schema's own complaints about the test files are beside the point.)
    expect(r.diagnostics.map(brief).filter((d) => !d.includes('invalid-value'))).toEqual(['attachments/other.yaml:4:1 unknown-key', 'shared/notes.yaml:1:1 not-a-resource']);
    expect([...r.yamlData.keys()].sort()).toEqual(['custom-templates/consulting.cover.yaml', 'shared/exhibit.yml']);
  });

  it('says an undefined variable where its placeholder is written: in a | block, on its own line; two in one line, each at its own column (probe KF-3)', async () => {
    const r = await load({
      'docket.yaml': lines('version: 1', 'vars:', '  team: Legal'),
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: |', '      first line', '      third line ${var.nope}', '    questions: What is the ${var.tem} term? ${var.prodonly}'),
    });
    expect(r.diagnostics.filter((d) => d.code === 'undefined-variable').map(brief).sort()).toEqual(['p.yaml:7:18 undefined-variable', 'p.yaml:8:28 undefined-variable', 'p.yaml:8:45 undefined-variable']);
    // A `$` a double-quoted value writes as an escape opens the placeholder all the same: said there (probe PY-7).
    const escaped = await load({ 'docket.yaml': lines('version: 1'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: "\\x24{var.u1} \\t \\u0024{var.u2} ${var.u3}"') });
    expect(escaped.diagnostics.filter((d) => d.code === 'undefined-variable').map(brief)).toEqual(['p.yaml:5:15 undefined-variable', 'p.yaml:5:31 undefined-variable', 'p.yaml:5:46 undefined-variable']);
    // A literal `$${` whose first `$` is an escape is no placeholder: the one after it is said (second read SR83-10).
    const literal = await load({ 'docket.yaml': lines('version: 1'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: "\\x24${var.x} and ${var.x}"') });
    expect(literal.diagnostics.filter((d) => d.code === 'undefined-variable').map(brief)).toEqual(['p.yaml:5:32 undefined-variable']);
    // Unquoted, `\x24` is text: the placeholder after it is said where it is (second read SR83B-5).
    const plain = await load({ 'docket.yaml': lines('version: 1'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: \\x24${var.x}') });
    expect(plain.diagnostics.filter((d) => d.code === 'undefined-variable').map(brief)).toEqual(['p.yaml:5:18 undefined-variable']);
    // Thousands in one block, each on its own line, and one of a name another holds whole (probe QI).
    const many = Array.from({ length: 3_000 }, (_, i) => `      line ${i} \${var.u${i}} and \${var.u${i}x}`);
    const block = await load({ 'docket.yaml': lines('version: 1'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: |', ...many) });
    const said = block.diagnostics.filter((d) => d.code === 'undefined-variable').map(brief);
    expect(said).toHaveLength(6_000);
    const last = many.at(-1)!;
    expect(said.slice(0, 2)).toEqual(['p.yaml:6:14 undefined-variable', 'p.yaml:6:28 undefined-variable']);
    expect(said.slice(-2)).toEqual([`p.yaml:3005:${last.indexOf('${') + 1} undefined-variable`, `p.yaml:3005:${last.lastIndexOf('${') + 1} undefined-variable`]);
    expect(new Set(said).size).toBe(6_000);
  });

  it('treats a file named through a variable as data too, and one a missing variable names as what it is', async () => {
    const files = {
      'docket.yaml': lines('version: 1', 'vars:', '  cover: cover.yaml'),
      'a.yaml': lines('kind: CustomTemplate', 'name: A', 'definition_file: ${var.cover}'),
      'b.yaml': lines('kind: CustomTemplate', 'name: B', 'definition_file: ${env.COVER}'),
      'cover.yaml': lines('sections: []'),
      'other.yaml': lines('sections: []'),
    };
    const kinds = [{ yamlKind: 'CustomTemplate', schema: 'custom-template.schema.json', dataFiles: { definition_file: 'yaml' } }];
    const named = await load(files, { kinds, processEnv: { COVER: 'other.yaml' } });
    expect(named.diagnostics.map(brief)).toEqual([]);
    expect([...named.yamlData.keys()].sort()).toEqual(['cover.yaml', 'other.yaml']);
    const unset = await load(files, { kinds });
    expect(unset.diagnostics.map(brief)).toEqual(['b.yaml:3:18 undefined-variable', 'other.yaml:1:1 not-a-resource']);
    // One file per environment: each environment's is data in every run.
    const perEnvironment = { ...files, 'docket.yaml': lines('version: 1', 'vars:', '  cover: cover.yaml', 'environments:', '  staging:', '    vars: { cover: staging.yaml }'), 'staging.yaml': lines('sections: []') };
    for (const env of [undefined, 'staging']) {
      const r = await load(perEnvironment, { kinds, processEnv: { COVER: 'other.yaml' }, ...(env ? { env } : {}) });
      expect(r.diagnostics.map(brief), env).toEqual([]);
    }
    // Another environment's value from ${env.X}, set where that environment runs: any file its name
    // can make may be data, so it is no error; it is said as a warning, as it may be a resource that lost its kind (probe FF, second read).
    const said = (r: Awaited<ReturnType<typeof load>>, severity: 'error' | 'warning') => r.diagnostics.filter((d) => d.severity === severity).map(brief);
    const fromEnv = { 'b.yaml': files['b.yaml'], 'other.yaml': files['other.yaml'], 'a.yaml': lines('kind: CustomTemplate', 'name: A', 'definition_file: covers/${var.cover}.yaml'), 'covers/base.yaml': lines('sections: []'), 'covers/staging.yaml': lines('sections: []'), 'docket.yaml': lines('version: 1', 'vars:', '  cover: base', 'environments:', '  staging:', '    vars: { cover: "${env.STAGE_COVER}" }') };
    const base = await load(fromEnv, { kinds, processEnv: { COVER: 'other.yaml' } });
    expect([said(base, 'error'), said(base, 'warning')]).toEqual([[], ['covers/staging.yaml:1:1 not-a-resource']]);
    expect(base.diagnostics.find((d) => d.severity === 'warning')!.hint).toContain('a resource without it is left out of the plan');
    // Thousands of another environment's definitions are one warning, naming a few.
    const two = await load({ ...fromEnv, 'covers/eu/cover.yaml': lines('sections: []') }, { kinds, processEnv: { COVER: 'other.yaml' } });
    expect(two.diagnostics.filter((d) => d.severity === 'warning').map((d) => d.message.replace(/^.*\(so are/, '(so are'))).toEqual([expect.stringMatching(/^\(so are 1 more: covers\/(eu\/cover|staging)\.yaml\)$/)]);
    // Set where that environment runs, its file is named outright.
    expect((await load(fromEnv, { kinds, env: 'staging', processEnv: { COVER: 'other.yaml', STAGE_COVER: 'staging' } })).diagnostics).toEqual([]);
    // Its value may hold a folder; and with that environment chosen and its variable unset, the variable is the error (probe FG).
    const { 'covers/staging.yaml': _staging, ...rest } = fromEnv;
    const nested = { ...rest, 'covers/eu/cover.yaml': lines('sections: []') };
    const nestedBase = await load(nested, { kinds, processEnv: { COVER: 'other.yaml' } });
    expect([said(nestedBase, 'error'), said(nestedBase, 'warning')]).toEqual([[], ['covers/eu/cover.yaml:1:1 not-a-resource']]);
    expect((await load(nested, { kinds, env: 'staging', processEnv: { COVER: 'other.yaml', STAGE_COVER: 'eu/cover' } })).diagnostics).toEqual([]);
    const unsetStaging = await load(nested, { kinds, env: 'staging', processEnv: { COVER: 'other.yaml' } });
    expect(unsetStaging.diagnostics.filter((d) => d.severity === 'error').map((d) => d.code)).toEqual(['undefined-variable']);
    // A name of another variable beside the unset one is filled in: only files in that folder are taken for its data (second read).
    const mixed = await load(
      { ...nested, 'a.yaml': lines('kind: CustomTemplate', 'name: A', 'definition_file: ${var.dir}/${var.cover}.yaml'), 'docket.yaml': lines('version: 1', 'vars:', '  cover: base', '  dir: covers', 'environments:', '  staging:', '    vars: { cover: "${env.STAGE_COVER}" }'), 'elsewhere/x.yaml': lines('sections: []') },
      { kinds, env: 'staging', processEnv: { COVER: 'other.yaml' } },
    );
    expect(said(mixed, 'error')).toEqual(['docket.yaml:7:21 undefined-variable', 'elsewhere/x.yaml:1:1 not-a-resource']);
    // A resource that lost its kind there (it has a name, which no definition has) is still an error (probe FI).
    const lost = await load({ ...fromEnv, 'covers/vendor.yaml': lines('name: Vendor MSA', 'rules: []') }, { kinds, processEnv: { COVER: 'other.yaml' } });
    expect(said(lost, 'error')).toEqual(['covers/vendor.yaml:1:1 not-a-resource']);
    // A file it could make is still checked for what no data file is (a YAML error, a typo of `kind`, a list of resources).
    const stray = await load(
      { ...fromEnv, 'elsewhere/staging.yaml': lines('sections: []'), 'covers/typo.yaml': lines('knd: CustomTemplate', 'name: T'), 'covers/broken.yaml': lines('title: "unclosed'), 'covers/list.yaml': lines('- kind: CustomTemplate', '  name: L') },
      { kinds, processEnv: { COVER: 'other.yaml' } },
    );
    expect(said(stray, 'error')).toEqual(['covers/broken.yaml:1:8 yaml-syntax', 'covers/list.yaml:1:1 not-a-resource', 'covers/typo.yaml:1:1 not-a-resource', 'elsewhere/staging.yaml:1:1 not-a-resource']);
    // A variable of a name no placeholder can spell breaks nothing (second read: it crashed the pattern).
    const oddName = await load({ ...fromEnv, 'docket.yaml': lines('version: 1', 'vars:', '  cover: "${env.UNSET_COVER}"', '  "a(": "${env.UNSET_OTHER}"') }, { kinds, processEnv: { COVER: 'other.yaml' } });
    expect(oddName.diagnostics.some((d) => d.code === 'internal-error')).toBe(false);
    expect(said(oddName, 'error').length).toBeGreaterThan(0);
  });

  it('says a test document belongs in a file named *.test.yaml, naming the file to rename', async () => {
    const r = await load({ 'docket.yaml': PROJECT, 'tests/nda.tests.yaml': lines('kind: PlaybookTest', 'playbook: NDA', 'cases: []') });
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.message} / ${d.hint}`)).toEqual([
      'tests/nda.tests.yaml:1:7 unknown-kind PlaybookTest is a test, and only files named *.test.yaml hold tests / rename tests/nda.tests.yaml to tests/nda.test.yaml',
    ]);
    // Beside a resource in its file, or with that name taken: not a rename that breaks the one or overwrites the other (probe PM-4).
    const test = lines('---', 'kind: PlaybookTest', 'playbook: P', 'cases: []');
    const mixed = await load({ 'docket.yaml': PROJECT, 'playbooks/a.yaml': `${lines('kind: Playbook', 'name: P', 'rules: []')}${test}` });
    expect(mixed.diagnostics.map((d) => d.hint)).toEqual(['move it to a file of its own named *.test.yaml, such as playbooks/a.test.yaml']);
    const taken = await load({ 'docket.yaml': PROJECT, 'playbooks/b.yaml': test, 'playbooks/b.test.yaml': lines('kind: PlaybookTest', 'playbook: Q', 'cases: []') });
    expect(taken.diagnostics.filter((d) => d.code === 'unknown-kind').map((d) => d.hint)).toEqual(['move it into playbooks/b.test.yaml (after a `---` line) or another file named *.test.yaml']);
    // A file of tests alone, several of them: renamed whole (second read SR82B-5).
    const tests = await load({ 'docket.yaml': PROJECT, 'playbooks/c.yaml': `${lines('kind: PlaybookTest', 'playbook: P', 'cases: []')}${test}` });
    expect(tests.diagnostics.map((d) => d.hint)).toEqual(['rename playbooks/c.yaml to playbooks/c.test.yaml', 'rename playbooks/c.yaml to playbooks/c.test.yaml']);
  });

  it('uses a kind\'s own data-file fields too', async () => {
    const r = await load(
      {
        'docket.yaml': PROJECT,
        'members.yaml': lines('kind: Member', 'email: bob@acme.example'),
        'other.yaml': lines('kind: Thing', 'definition: extra.yaml'),
        'extra.yaml': lines('a: 1'),
      },
      { kinds: [{ yamlKind: 'Member', schema: 'member.schema.json' }, { yamlKind: 'Thing', schema: 'member.schema.json', dataFiles: { definition: 'yaml' } }] },
    );
    expect(r.diagnostics.some((d) => d.file === 'extra.yaml')).toBe(false);
  });

  it('says at the key when the document misspells `kind`', async () => {
    const r = await load({ 'docket.yaml': PROJECT, 'p.yaml': lines('name: X', 'Kind: Playbook'), 'q.yaml': lines('knd: Playbook') });
    expect(r.diagnostics.map((d) => [brief(d), d.message])).toEqual([
      ['p.yaml:2:1 not-a-resource', 'this YAML document has no `kind`: unknown key `Kind`, did you mean `kind`?'],
      ['q.yaml:1:1 not-a-resource', 'this YAML document has no `kind`: unknown key `knd`, did you mean `kind`?'],
    ]);
  });

  it('reports YAML that is not a resource at the document start', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'notes.yaml': lines('# some notes', '', 'title: Hello', 'items: [1, 2]'),
      'list.yaml': lines('- a', '- b'),
      'empty.yaml': lines('# nothing but a comment'),
    });
    expect(r.diagnostics.map(brief)).toEqual(['list.yaml:1:1 not-a-resource', 'notes.yaml:3:1 not-a-resource']);
    expect(r.diagnostics[0]!.message).toBe(
      'this YAML document is a list (got ["a","b"]), not a mapping with `kind`; every YAML file below the configuration directory must be a docket resource or a data file named by one',
    );
    expect(r.diagnostics[1]!.message).toBe(
      'this YAML document has no `kind`; every YAML file below the configuration directory must be a docket resource or a data file named by one',
    );
  });

  it('holds back not-a-resource for a file that a document it cannot read mentions: it may be that document\'s data file (probe EW)', async () => {
    const cover = lines('title: Consulting Agreement', 'sections: []');
    const broken = await load({ 'docket.yaml': PROJECT, 'ct.yaml': lines('kind: CustomTemplate', 'name: "Consulting Agreement', 'definition_file: ct.cover.yaml'), 'ct.cover.yaml': cover, 'notes.yaml': lines('title: Hello') });
    expect(broken.diagnostics.map(brief)).toEqual(['ct.yaml:2:7 yaml-syntax', 'notes.yaml:1:1 not-a-resource']);
    const unknownKind = await load({ 'docket.yaml': PROJECT, 'ct.yaml': lines('kind: CustomTemplat', 'name: Consulting Agreement', 'definition_file: ct.cover.yaml'), 'ct.cover.yaml': cover });
    expect(unknownKind.diagnostics.map(brief)).toEqual(['ct.yaml:1:7 unknown-kind']);
    // A whole file name only: `data.yaml` in a broken file is no mention of `a.yaml`.
    const partOfName = await load({ 'docket.yaml': PROJECT, 'p.yaml': lines('# see data.yaml', 'kind: Playbook', 'name: "P'), 'a.yaml': lines('title: Hello') });
    expect(partOfName.diagnostics.map(brief)).toEqual(['a.yaml:1:1 not-a-resource', 'p.yaml:3:7 yaml-syntax']);
    // A broken data file names no files: a stray file it mentions is still said.
    const fromData = await load({ 'docket.yaml': PROJECT, 'ct.yaml': lines('kind: CustomTemplate', 'name: Consulting Agreement', 'definition_file: ct.cover.yaml'), 'ct.cover.yaml': lines('title: "see notes.yaml'), 'notes.yaml': lines('title: Hello') }, { kinds: [{ yamlKind: 'CustomTemplate', schema: 'custom-template.schema.json', dataFiles: { definition_file: 'yaml' } }] });
    expect(fromData.diagnostics.map(brief)).toContain('notes.yaml:1:1 not-a-resource');
  });

  it('says a list of resources is a list, and how to write them, and quotes a single value', async () => {
    const r = await load({ 'docket.yaml': PROJECT, 'members.yaml': lines('- kind: Member', '  email: dave@acme.example'), 'note.yaml': lines('hello world'), 'tilde.yaml': lines('~  # nothing yet'), 'empty.yaml': lines('---', '# only comments') });
    expect(r.diagnostics.map((d) => [brief(d), d.message, d.hint])).toEqual([
      [
        'members.yaml:1:1 not-a-resource',
        'this YAML document is a list (got [{"kind":"Member","email":"dave@acme.example"}]), not a mapping with `kind`; every YAML file below the configuration directory must be a docket resource or a data file named by one',
        'write each resource as a document of its own, without the leading `- ` (separate documents in one file with `---`)',
      ],
      [
        'note.yaml:1:1 not-a-resource',
        'this YAML document is a single value (got "hello world"), not a mapping with `kind`; every YAML file below the configuration directory must be a docket resource or a data file named by one',
        expect.stringContaining('add `kind:`'),
      ],
      // A null written out is a single value too; a document with nothing in it declares nothing (probe HT-4).
      [
        'tilde.yaml:1:1 not-a-resource',
        'this YAML document is a single value (got null), not a mapping with `kind`; every YAML file below the configuration directory must be a docket resource or a data file named by one',
        expect.stringContaining('add `kind:`'),
      ],
    ]);
  });

  it('reports an unknown kind at its value, with a suggestion', async () => {
    const r = await load({ 'docket.yaml': PROJECT, 'p.yaml': lines('# hello', 'kind: Playbok', 'name: X') });
    expect(r.diagnostics.map(brief)).toEqual(['p.yaml:2:7 unknown-kind']);
    expect(r.diagnostics[0]!.message).toBe('unknown kind `Playbok`, did you mean `Playbook`?');
    expect(r.diagnostics[0]!.hint).toBe('kinds: Organization, Member, Playbook');

    const lower = await load({ 'docket.yaml': PROJECT, 'm.yaml': lines('kind: member', 'email: a@b.example') });
    expect(lower.diagnostics[0]!.message).toBe('unknown kind `member`, did you mean `Member`?');

    // The kind is read before placeholders: one there is said to be the reason.
    const placeholder = await load({ 'docket.yaml': lines('version: 1', 'vars:', '  k: Playbook'), 'p.yaml': lines('kind: ${var.k}', 'name: X') });
    expect(placeholder.diagnostics.map((d) => [d.code, d.message, d.hint])).toEqual([['unknown-kind', 'unknown kind `${var.k}`: `kind` takes no placeholder', 'write the kind itself; kinds: Organization, Member, Playbook']]);
  });

  it('reports YAML syntax errors and duplicate keys, and keeps checking the other documents', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'members.yaml': lines('kind: Member', 'email: a@b.example', 'email: c@d.example', '---', 'kind: Member', 'name: x: y', '---', 'kind: Member'),
    });
    expect(r.diagnostics.map(brief)).toEqual([
      'members.yaml:3:1 duplicate-key',
      'members.yaml:6:7 yaml-syntax',
      'members.yaml:8:1 missing-field',
    ]);
    expect(r.diagnostics[0]!.message).toBe('duplicate key `email`: each key may appear once in a mapping; line 2 writes it already');
  });

  it('checks the rest of a document whose only YAML mistakes leave its values readable (a key twice, a merge key of a scalar)', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'm.yaml': lines('kind: Member', 'email: a@b.example', 'email: c@d.example', 'nmae: X'),
      'p.yaml': lines('kind: Playbook', 'name: P', 'extra: { <<: 5 }', 'rules:', '  - descriptio: x', '    <<: { name: T, actions: A }'),
    });
    const project = await load({ 'docket.yaml': lines('version: 1', 'version: 1', 'concurency: 4') });
    expect(project.diagnostics.map(brief)).toEqual(['docket.yaml:2:1 duplicate-key', 'docket.yaml:3:1 unknown-key']);
    expect(r.diagnostics.map(brief)).toEqual(['m.yaml:3:1 duplicate-key', 'm.yaml:4:1 unknown-key', 'p.yaml:3:1 unknown-key', 'p.yaml:3:14 yaml-merge', 'p.yaml:5:5 unknown-key']);
  });
});

describe('loadConfig: schema errors', () => {
  it('quotes a number as it is written when YAML reads it as another (0x1F is 31), and as it prints otherwise', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines('kind: Playbook', 'name: 0x1F', 'rules:', '  - {name: 1e3, actions: A}', '  - name: 12', '    actions: A'),
    });
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'p.yaml:2:7 invalid-value `name` must be a string, not an integer (written "0x1F", which YAML reads as 31)',
      'p.yaml:4:12 invalid-value `name` must be a string, not an integer (written "1e3", which YAML reads as 1000)',
      'p.yaml:5:11 invalid-value `name` must be a string, not an integer (got 12)',
    ]);
    // A placeholder's number came from its variable: not said to be how YAML read the text.
    const typed = await load({ 'docket.yaml': lines('version: 1', 'vars:', '  n: 1'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: T', '    actions: A', '    generate_summary: ${var.n}') });
    expect(typed.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual(['p.yaml:6:23 invalid-value `generate_summary` must be true or false, not an integer (got 1)']);
  });

  it('says a value of the wrong type once, not also that it is none of the choices', async () => {
    const r = await load({ 'docket.yaml': PROJECT, 't.yaml': lines('kind: Template', 'name: T', 'type: ~') }, { kinds: [{ yamlKind: 'Template', schema: 'template.schema.json' }] });
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual(['t.yaml:3:7 invalid-value `type` must be a string, not null (written "~")']);
  });

  it("judges each template by its type's rules: written, from a placeholder, or a type there is none of", async () => {
    const r = await load(
      {
        'docket.yaml': lines('version: 1', 'vars:', '  kind_of_deal: CSA'),
        'nda.yaml': lines('kind: Template', 'name: N', 'type: NDA', 'parameters:', '  term: forever'),
        'csa.yaml': lines('kind: Template', 'name: C', 'type: CSA', 'parameters:', '  term: forever', '  provider: 7'),
        'by-var.yaml': lines('kind: Template', 'name: V', 'type: ${var.kind_of_deal}', 'parameters:', '  provider: 7'),
        'odd.yaml': lines('kind: Template', 'name: O', 'type: Lease', 'parameters:', '  provider: 7'),
        // Not a file name to look for: a type no file system would take.
        'long.yaml': lines('kind: Template', 'name: L', `type: ${'x'.repeat(300)}`),
        'lone.yaml': lines('kind: Template', 'name: S', 'type: "\uD800"'),
      },
      { kinds: [{ yamlKind: 'Template', schema: 'template.schema.json' }] },
    );
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.path}`)).toEqual([
      'by-var.yaml:5:13 invalid-value parameters.provider',
      'csa.yaml:5:3 unknown-key parameters.term',
      'csa.yaml:6:13 invalid-value parameters.provider',
      'lone.yaml:3:7 invalid-value type',
      'long.yaml:3:7 invalid-value type',
      'nda.yaml:5:9 invalid-value parameters.term',
      'odd.yaml:3:7 invalid-value type',
    ]);
  });

  it('quotes a list or mapping written where one value belongs, as JSON cut short', async () => {
    const long = Array.from({ length: 30 }, (_, i) => `item${i}`).join(', ');
    const r = await load({ 'docket.yaml': PROJECT, 'p.yaml': lines('kind: Playbook', 'name: [a, b]', 'description: {x: 1}', 'rules:', `  - {name: [${long}], actions: A}`) });
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'p.yaml:2:7 invalid-value `name` must be a string, not a list (got ["a","b"])',
      'p.yaml:3:14 invalid-value `description` must be a string or null, not a mapping (got {"x":1})',
      'p.yaml:5:12 invalid-value `name` must be a string, not a list (got ["item0","item1","item2","item3","item4","item5","item6",...)',
    ]);
  });

  it('says a tab in an e-mail, a URL or an id once, as the control character it is, not also as a malformed value', async () => {
    const r = await load({ 'docket.yaml': lines('version: 1', 'review: { url: "https://example.com\\t" }'), 'm.yaml': lines('kind: Member', 'email: "a@b.example\\t"') });
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.path}`)).toEqual(['docket.yaml:2:36 control-character review.url', 'm.yaml:2:20 control-character email']);
  });

  it('refuses a whole number YAML cannot hold exactly, quoting it as written, wherever it is', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: T', '    actions: 99999999999999999999', '    questions: 9007199254740993', '    description: 9007199254740991', '  - name: U', '    actions: 1e20', '    questions: 0x20000000000001'),
    });
    const unsafe = r.diagnostics.filter((d) => d.code === 'unsafe-number').map((d) => `${brief(d)} ${d.message}`);
    expect(unsafe).toEqual([
      'p.yaml:5:14 unsafe-number `rules[0].actions` is "99999999999999999999", a whole number past 9,007,199,254,740,991 and is not held exactly (read as 100000000000000000000)',
      'p.yaml:6:16 unsafe-number `rules[0].questions` is "9007199254740993", a whole number past 9,007,199,254,740,991 and is not held exactly (read as 9007199254740992)',
      // A float (1e20 is held exactly) is not a whole number as written; a hex one is.
      'p.yaml:10:16 unsafe-number `rules[1].questions` is "0x20000000000001", a whole number past 9,007,199,254,740,991 and is not held exactly (read as 9007199254740992)',
    ]);
    // One value, one error: the schema's "must be a string" is not said beside it (probe JH-8), the other values' still are.
    const at = (line: number) => r.diagnostics.filter((d) => d.file === 'p.yaml' && d.line === line).map((d) => d.code);
    expect([at(5), at(6), at(7), at(9), at(10)]).toEqual([['unsafe-number'], ['unsafe-number'], ['invalid-value'], ['invalid-value'], ['unsafe-number']]);
    // Written as a float, the same: only a literal that is exactly the number read passes.
    const floats = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: T', '    actions: 9007199254740993.0', '    questions: 9.007199254740993e15', '    description: 1e20', '  - name: U', '    actions: 9007199254740992.000', '    questions: 90071992547409920e-1'),
    });
    expect(floats.diagnostics.filter((d) => d.code === 'unsafe-number').map((d) => `${brief(d)} ${d.path}`)).toEqual(['p.yaml:5:14 unsafe-number rules[0].actions', 'p.yaml:6:16 unsafe-number rules[0].questions']);
  });

  it('accepts a whole number past 2^53 written as exactly the number it is read as, as pull writes a live one', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: T', '    actions: 9007199254740992', '    questions: -18014398509481984', '    description: 0x20000000000000', '  - name: U', '    actions: 9007199254740994'),
    });
    expect(r.diagnostics.filter((d) => d.code === 'unsafe-number')).toEqual([]);
  });

  it('names a key YAML reads as null as it is written: no name at all, or `~` (probe EW)', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines('kind: Playbook', 'name: P', ': stray', 'rules: []'),
      'q.yaml': lines('kind: Playbook', 'name: Q', '~: stray', 'rules: []'),
      // Nested: at the column its mapping's keys share, not the line's first (probe FY).
      'r.yaml': lines('kind: Playbook', 'name: R', 'rules:', '  - name: T', '    actions: x', '    : stray'),
      // In a flow mapping, which js-yaml reads with the key `null` (probe GA).
      's.yaml': lines('kind: Playbook', 'name: S', 'rules:', '  - { name: T, actions: A, : x }'),
    });
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'p.yaml:3:1 unknown-key a key with no name (nothing, or `""`, before its `:`) in Playbook',
      'q.yaml:3:1 unknown-key unknown key `~` (read as `null`) in Playbook',
      'r.yaml:6:5 unknown-key a key with no name (nothing, or `""`, before its `:`) in `rules[0]`',
      's.yaml:4:28 unknown-key a key with no name (nothing, or `""`, before its `:`) in `rules[0]`',
    ]);
    // Where any name goes, it names no variable or environment `null` (probe GA).
    const project = await load({ 'docket.yaml': lines('version: 1', 'vars:', '  : from-nameless-key', '  ok: 1', 'environments:', '  ~: {}') });
    expect(project.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'docket.yaml:3:3 invalid-value a key with no name (nothing, or `""`, before its `:`) in `vars`: use ASCII letters, digits, `_` and `-`, starting with a letter or `_`',
      'docket.yaml:6:3 invalid-value invalid name `~` in `environments`: use ASCII letters, digits, `_` and `-`, starting with a letter or `_`',
    ]);
  });

  it('reports an unknown key at the key, with "did you mean"', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'playbooks/p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    descripton: typo'),
    });
    expect(r.diagnostics).toEqual([
      expect.objectContaining({
        code: 'unknown-key',
        file: 'playbooks/p.yaml',
        line: 5,
        col: 5,
        path: 'rules[0].descripton',
        message: 'unknown key `descripton` in `rules[0]`, did you mean `description`?',
      }),
    ]);
    expect(r.diagnostics[0]!.hint).toContain('allowed keys here: id, renamed_from, name, description');
  });

  it('never suggests a key the mapping already has: writing it would be a duplicate key (probe OO-3)', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'playbooks/p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: x', '    reviewer: a@acme.example', '    reviewr: b@acme.example'),
    });
    expect(r.diagnostics.map((d) => d.message)).toEqual(['unknown key `reviewr` in `rules[0]`']);
    // One drawn like a key the mapping has says so, as the list of allowed keys names that one (probe SH-3).
    const twin = await load({ 'docket.yaml': PROJECT, 'playbooks/p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: b', '    actions: x', '    \u0430ctions: y') });
    expect(twin.diagnostics.map((d) => d.message)).toEqual(['unknown key `\u0430ctions` in `rules[0]` (drawn like `actions`, which this mapping has too: they differ only in a letter drawn alike: Cyrillic `\u0430`, Latin `a`)']);
  });

  it('says where a key a level too high goes, and no Organization warning beside a key it refuses (probe JJ-3)', async () => {
    const r = await load({ 'docket.yaml': PROJECT, 'o.yaml': lines('kind: Organization', 'name: Acme') });
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual(['o.yaml:2:1 unknown-key unknown key `name` in Organization, did you mean `review.name` or `agreements.name`? (`name` goes under `review:` or `agreements:`)']);
    const typo = await load({ 'docket.yaml': PROJECT, 'o.yaml': lines('kind: Organization', 'reviewr:', '  name: Acme') });
    expect(typo.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual(['o.yaml:2:1 unknown-key unknown key `reviewr` in Organization, did you mean `review`?']);
  });

  it('gives an address whose domain is past ASCII in the form the services take (probe JJ-2)', async () => {
    const r = await load({ 'docket.yaml': PROJECT, 'm.yaml': lines('kind: Member', 'email: bob@b\u00fccher.example', '---', 'kind: Member', 'email: j\u00fcrgen@acme.example') });
    expect(r.diagnostics.map((d) => d.hint)).toEqual([
      'the services take an address in ASCII: write the domain in its IDNA form, "bob@xn--bcher-kva.example"',
      'the services take an address in ASCII: one with letters past ASCII before the `@` cannot be named',
    ]);
    // No form offered that would be refused in turn (third read TR70-4).
    const still = await load({ 'docket.yaml': PROJECT, 'm.yaml': lines('kind: Member', 'email: "bad address@b\u00fccher.example"', '---', 'kind: Member', 'email: bob@b\u00fccher..example') });
    expect(still.diagnostics.map((d) => d.hint)).toEqual([undefined, undefined]);
    // A zero-width character or a fullwidth letter in the domain is no IDNA matter (probe MW-5).
    const alike = await load({ 'docket.yaml': PROJECT, 'm.yaml': lines('kind: Member', 'email: "bob@acme.example\u200b"', '---', 'kind: Member', 'email: bob@\uff41cme.example') });
    expect(alike.diagnostics.map((d) => d.hint)).toEqual([
      'the domain holds characters that only look like plain letters or print as nothing: write it in plain letters, "bob@acme.example"',
      'the domain holds characters that only look like plain letters or print as nothing: write it in plain letters, "bob@acme.example"',
    ]);
    // A Cyrillic or Greek letter drawn as a Latin one: the plain domain first, not only the homograph's IDNA form (probe NN-3).
    const homograph = await load({ 'docket.yaml': PROJECT, 'm.yaml': lines('kind: Member', 'email: bob@\u0430cme.example', '---', 'kind: Member', 'email: eve@g\u03bfogle.com') });
    expect(homograph.diagnostics.map((d) => d.hint)).toEqual([
      'the domain holds Cyrillic "\u0430", drawn as the Latin "a": write it in plain letters, "bob@acme.example"; only if that other domain is meant, its IDNA form is "bob@xn--cme-5cd.example"',
      'the domain holds Greek "\u03bf", drawn as the Latin "o": write it in plain letters, "eve@google.com"; only if that other domain is meant, its IDNA form is "eve@xn--gogle-rce.com"',
    ]);
    // A domain written wholly in Cyrillic is one of its own, not a look-alike (second read SR78B-4).
    const cyrillic = await load({ 'docket.yaml': PROJECT, 'm.yaml': lines('kind: Member', 'email: bob@\u0441\u0435\u0445.\u0440\u0443\u0441') });
    expect(cyrillic.diagnostics.map((d) => d.hint)).toEqual(['the services take an address in ASCII: write the domain in its IDNA form, "bob@xn--e1axn.xn--p1acf"']);
  });

  it('reports a missing required field at the parent mapping', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '  - description: no name', '    actions: x'),
      'm.yaml': lines('# a member', 'kind: Member', 'name: Nobody'),
    });
    expect(r.diagnostics.map((d) => [brief(d), d.message])).toEqual([
      ['m.yaml:2:1 missing-field', 'missing required field `email` in Member'],
      ['p.yaml:5:5 missing-field', 'missing required field `name` in `rules[1]`'],
    ]);
  });

  it('says every repeat in a list, each at its own line, not only the first ajv finds', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines('kind: Playbook', 'name: P', 'ignore_fields:', '  - actions', '  - actions', '  - reviewer', '  - reviewer', '  - reviewer'),
    });
    expect(r.diagnostics.map((d) => [brief(d), d.message])).toEqual([
      ['p.yaml:5:5 invalid-value', '`ignore_fields` must not list the same value twice ("actions" at [0] and [1])'],
      ['p.yaml:7:5 invalid-value', '`ignore_fields` must not list the same value twice ("reviewer" at [2] and [3])'],
      ['p.yaml:8:5 invalid-value', '`ignore_fields` must not list the same value twice ("reviewer" at [2] and [4])'],
    ]);
  });

  it('reports wrong types and formats at the value, in plain words', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines(
        'kind: Playbook',
        'id: 42',
        'name: ""',
        'renamed_from: [Old, 3]',
        'ignore_fields: [actions, reviewer, actions]',
        'rules:',
        '  - name: Term',
        '    reviewer: bob',
        '    generate_summary: "no"',
        '    id: not-a-uuid',
        '    renamed_from: {a: 1}',
        '  - name: .nan',
        '    generate_summary: -.inf',
      ),
    });
    expect(r.diagnostics.map((d) => [brief(d), d.message])).toEqual([
      ['p.yaml:2:5 invalid-value', '`id` must be a UUID (8-4-4-4-12 hex digits), not an integer (got 42)'],
      ['p.yaml:3:7 invalid-value', '`name` must not be empty (got "")'],
      ['p.yaml:4:21 invalid-value', '`renamed_from[1]` must be a string, not an integer (got 3)'],
      ['p.yaml:5:36 invalid-value', '`ignore_fields` must not list the same value twice ("actions" at [0] and [2])'],
      ['p.yaml:8:15 invalid-value', '`reviewer` must be an e-mail address (got "bob")'],
      ['p.yaml:9:23 invalid-value', '`generate_summary` must be true or false, not a string (got "no")'],
      ['p.yaml:10:9 invalid-value', '`id` must be a UUID (8-4-4-4-12 hex digits) (got "not-a-uuid")'],
      ['p.yaml:11:19 invalid-value', '`renamed_from` must be a string or a list of strings (got {"a":1})'],
      // Quoted as YAML wrote them: JSON has no NaN or infinity, and printed `null`.
      ['p.yaml:12:11 invalid-value', '`name` must be a string, not NaN (got .nan)'],
      ['p.yaml:13:23 invalid-value', '`generate_summary` must be true or false, not minus infinity (got -.inf)'],
    ]);
    // Where a number is wanted, .inf is still not one.
    const inf = await load({ 'docket.yaml': 'version: 1\nmax_rps: .inf\n' });
    expect(inf.diagnostics.map((d) => d.message)).toEqual(['`max_rps` must be a number, not infinity (got .inf)']);
    // A number too large for one is quoted as written, not as YAML read it (probe IM-2).
    const huge = await load({ 'docket.yaml': 'version: 1\nmax_rps: 1e400\n' });
    expect(huge.diagnostics.map((d) => d.message)).toEqual(['`max_rps` must be a number, not infinity (written "1e400", which YAML reads as .inf)']);
    // Given by a placeholder: quoted as the variable gave it, not as the number it made (probes OD-3, OY-3).
    const given = await load({ 'docket.yaml': 'version: 1\nmax_rps: ${env.R}\n' }, { processEnv: { R: '1e400' } });
    expect(given.diagnostics.map((d) => d.message)).toEqual(['`max_rps` must be a number, not infinity ("${env.R}" gave "1e400", which reads as .inf)']);
  });

  it('says which variable filled in a value it refuses, and where to change it: the line holds only the placeholder (probe LN-1)', async () => {
    const r = await load(
      {
        'docket.yaml': lines('version: 1', 'vars:', '  lead: alice@acme.example', 'environments:', '  staging:', '    vars:', '      lead: not-an-email'),
        'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: A', '    reviewer: ${var.lead}', '  - name: Law', '    actions: A', '    reviewer: x${env.WHO}'),
      },
      { env: 'staging', processEnv: { WHO: 'y' } },
    );
    expect(r.diagnostics.map((d) => [brief(d), d.message, d.hint])).toEqual([
      // The definition this run took it from, at its line (probes OO-2, OY-2).
      ['p.yaml:6:15 invalid-value', '`reviewer` must be an e-mail address (got "not-an-email")', 'it is filled in from "${var.lead}": change var.lead where this run takes it from: `environments.staging.vars.lead` (docket.yaml:7)'],
      ['p.yaml:9:15 invalid-value', '`reviewer` must be an e-mail address (got "xy")', 'it is filled in from "x${env.WHO}": set the environment variable WHO to what this key takes'],
    ]);
    // A variable an environment variable sets: that one is what to change.
    const fromEnv = await load(
      { 'docket.yaml': lines('version: 1', 'vars:', '  lead: ${env.LEAD}'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: A', '    reviewer: ${var.lead}') },
      { processEnv: { LEAD: 'nobody' } },
    );
    expect(fromEnv.diagnostics.map((d) => d.hint)).toEqual(['it is filled in from "${var.lead}": set the environment variable LEAD, which gives var.lead its value at `vars.lead` (docket.yaml:3), to what this key takes']);
  });

  it('keeps a variable written True as written: text reads "True", a true/false field true (probe PB-1, second read SR81B-1)', async () => {
    const r = await load({
      'docket.yaml': lines('version: 1', 'vars: {flag: True, off: FALSE}'),
      'p.yaml': lines('kind: Playbook', 'name: "Release ${var.flag}"', 'rules:', '  - name: R', '    actions: A', '    generate_summary: ${var.off}'),
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.config!.documents[0]!.body).toMatchObject({ name: 'Release True', rules: [{ generate_summary: false }] });
  });

  it('keeps a variable a %YAML 1.1 docket.yaml reads as true or false from a word (NO, Yes) as written: a country NO was sent as "false" (probe HG-2)', async () => {
    const r = await load({
      'docket.yaml': lines('%YAML 1.1', '---', 'version: 1', 'agreements:', '  actor: legal-ops@acme.example', 'vars: {country: NO, flag: Yes, closed: off}'),
      'org.yaml': lines('kind: Organization', 'agreements:', '  country: ${var.country}', '  state: ${var.flag}', '  city: "${var.closed}"'),
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.config!.documents[0]!.body).toMatchObject({ agreements: { country: 'NO', state: 'Yes', city: 'off' } });
  });

  it('says a number or true/false written with text beside its placeholder is text whatever the variable holds: the text is what to edit, not the variable (probe UI-1)', async () => {
    const r = await load({
      'docket.yaml': lines('version: 1', 'vars: {t: "true", n: "4"}', 'concurrency: "${var.n}0"'),
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: A', '    generate_summary: "${var.t} # default"'),
    });
    const around = 'which the text beside its placeholder makes text whatever its value: a number or true/false is one placeholder and nothing else, so edit the text around it on this line';
    expect(r.diagnostics.map((d) => [brief(d), d.hint])).toEqual([
      ['docket.yaml:3:14 invalid-value', `it is filled in from "\${var.n}0", ${around}`],
      ['p.yaml:6:23 invalid-value', `it is filled in from "\${var.t} # default", ${around}`],
    ]);
    // One placeholder alone is the variable's to change, as before.
    const alone = await load({ 'docket.yaml': lines('version: 1', 'vars: {n: "x"}', 'concurrency: ${var.n}') });
    expect(alone.diagnostics[0]!.hint).toContain('change var.n where this run takes it from');
  });

  it('says a number or true/false written in quotes is text, and to leave out the quotes, as version: "1" is told (probe UI-3)', async () => {
    const r = await load({
      'docket.yaml': lines('version: 1', 'concurrency: "8"', 'safety:', "  max_delete_fraction: '0.3'"),
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: A', '    generate_summary: "false"', '  - name: S', '    actions: A', '    generate_summary: "yes"'),
    });
    expect(r.diagnostics.map((d) => [brief(d), d.hint])).toEqual([
      ['docket.yaml:2:14 invalid-value', 'leave out the quotes: quoted, YAML reads 8 as text'],
      ['docket.yaml:4:24 invalid-value', 'leave out the quotes: quoted, YAML reads 0.3 as text'],
      ['p.yaml:6:23 invalid-value', 'leave out the quotes: quoted, YAML reads false as text'],
      // A word that is no true or false unquoted either: no such hint.
      ['p.yaml:9:23 invalid-value', undefined],
    ]);
  });

  it('says a YAML 1.1 word for true or false written for one is text here, and which to write (probe RF-3)', async () => {
    const r = await load({
      'docket.yaml': 'version: 1\n',
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: A', '    actions: A', '    generate_summary: yes', '  - name: B', '    actions: B', '    generate_summary: Off', '  - name: C', '    actions: C', '    generate_summary: "yes"', '  - name: D', '    actions: D', '    generate_summary: maybe'),
    });
    expect(r.diagnostics.map((d) => [brief(d), d.hint])).toEqual([
      ['p.yaml:6:23 invalid-value', 'docket reads YAML 1.2, where `yes` is text (YAML 1.1 read it as true): write true'],
      ['p.yaml:9:23 invalid-value', 'docket reads YAML 1.2, where `Off` is text (YAML 1.1 read it as false): write false'],
      // Quoted, it was meant as text; any other word is no boolean in either.
      ['p.yaml:12:23 invalid-value', undefined],
      ['p.yaml:15:23 invalid-value', undefined],
    ]);
  });

  it('tells to quote digits YAML read as a number only where the digits as text are a value the key takes', async () => {
    const r = await load({
      'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n',
      'p.yaml': lines('kind: Playbook', 'name: 2024', 'rules:', '  - name: Term', '    actions: A', '    reviewer: 42', '---', 'kind: Playbook', 'name: !!int "2025"', 'rules: []', '---', 'kind: Playbook', 'name: !!int 2026', 'rules: []', '---', 'kind: Playbook', 'name: B', 'rules:', '  - name: Term', '    actions: true', '  - name: !!bool true', '    actions: A'),
      't.yaml': lines('kind: Template', 'name: T', 'type: 1', '---', 'kind: Template', 'name: N', 'type: NDA', 'parameters:', '  term: 2.5', '---', 'kind: Template', 'name: I', 'type: NDA', 'parameters:', '  term: .inf', '---', 'kind: Template', 'name: Z', 'type: NDA', 'parameters:', `  term: ${'z'.repeat(5000)}`),
    }, { kinds: [...KINDS, { yamlKind: 'Template', schema: 'template.schema.json' }] });
    expect(r.diagnostics.map((d) => [brief(d), d.message, d.hint])).toEqual([
      ['p.yaml:2:7 invalid-value', '`name` must be a string, not an integer (got 2024)', 'put the value in quotes: unquoted, YAML reads it as a number (2.0 becomes 2, .inf infinity)'],
      // Quoted, these would be refused again: what the key takes is said instead.
      ['p.yaml:6:15 invalid-value', '`reviewer` must be an e-mail address, not an integer (got 42)', undefined],
      // Quoted already: the tag is what to take out (probe EM).
      ['p.yaml:9:13 invalid-value', '`name` must be a string, not an integer (written "\\"2025\\"", which YAML reads as 2025)', 'remove the tag before the value (such as `!!int`): docket reads plain YAML, and the tag makes the text a number'],
      // Unquoted too: quoting alone would not help (second read).
      ['p.yaml:13:13 invalid-value', '`name` must be a string, not an integer (got 2026)', 'remove the tag before the value (such as `!!int`): docket reads plain YAML, and the tag makes the text a number'],
      // A word YAML reads as true or false, in quotes too (probe LZ).
      ['p.yaml:20:14 invalid-value', '`actions` must be a string or null, not a boolean (got true)', 'put the value in quotes: unquoted, YAML reads it as true or false'],
      // Tagged: the tag goes, and the word needs quotes all the same (second read SR76-7).
      ['p.yaml:21:18 invalid-value', '`name` must be a string, not a boolean (got true)', 'remove the tag before the value (such as `!!bool`) and put the word in quotes: docket reads plain YAML, where true and false unquoted are not text'],
      ['t.yaml:3:7 invalid-value', '`type` must be `NDA`, `CSA`, `DPA`, `PSA`, `Design`, `Software License`, `Pilot`, `Partnership`, `BAA` or `LOI`, not an integer (got 1)', undefined],
      // An integer, written as one or as text: 2.5 is neither (not "an integer or a string").
      ['t.yaml:9:9 invalid-value', '`term` must be an integer, not 2.5', undefined],
      // Not `null`, as JSON prints infinity (probe FY).
      ['t.yaml:15:9 invalid-value', '`term` must be an integer, not infinity (got .inf)', undefined],
      // Text quoted cut at 60 characters, as every message quotes a value (probe YF-1).
      ['t.yaml:21:9 invalid-value', `\`term\` must be an integer, not "${'z'.repeat(57)}..."`, undefined],
    ]);
  });

  it('accepts null for optional text and reviewer, and a single renamed_from', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'p.yaml': lines('kind: Playbook', 'name: P', 'description:', 'renamed_from: Old P', 'rules:', '  - name: T', '    reviewer: null', '    questions: ~', '    id: 6f1c2d3e-1111-4222-8333-444455556666'),
      'o.yaml': lines('kind: Organization', 'review:', '  name: Acme', '  default_reviewer: null', 'agreements:', '  name: Acme, Inc.', '  city: Berlin'),
    });
    expect(r.diagnostics).toEqual([]);
  });
});

describe('loadConfig: a control character in a value', () => {
  const LONG = 'Master services agreements with our suppliers, reviewed by legal and by procurement';
  const at = async (description: string): Promise<string[]> => {
    const r = await load({ 'docket.yaml': PROJECT, 'p.yaml': lines('kind: Playbook', 'name: P', description) });
    return r.diagnostics.map((d) => `${brief(d)} ${d.message}`);
  };

  it('is said at the character in a one-line value, quoted around it: the value\'s start and its first 60 characters did not find it', async () => {
    // Double-quoted: the escape; single-quoted past a doubled quote; plain: the character typed raw.
    expect(await at(`description: "${LONG}\\u0007 each quarter"`)).toEqual(['p.yaml:3:98 control-character `description` holds the control character U+0007: "…pliers, reviewed by legal and by procurement\\u0007 each quarter"']);
    expect(await at(`description: 'Legal''s ${LONG}\u0001 each quarter'`)).toEqual(['p.yaml:3:107 control-character `description` holds the control character U+0001: "…pliers, reviewed by legal and by procurement\\u0001 each quarter"']);
    expect(await at(`description: ${LONG}\u0002 each quarter`)).toEqual(['p.yaml:3:97 control-character `description` holds the control character U+0002: "…pliers, reviewed by legal and by procurement\\u0002 each quarter"']);
    // An escape meaning two UTF-16 units (an emoji) before it: still at its own escape; and past an anchor.
    expect(await at('description: "\\U0001F600 \\t then \\x07"')).toEqual(['p.yaml:3:34 control-character `description` holds the control character U+0007: "😀 \\t then \\u0007"']);
    expect((await at('description: &d "bell\\u0007"')).map((l) => l.split(' ')[0])).toEqual(['p.yaml:3:22']);
    // Written beside a placeholder, it is the file's: at its escape, with no word of the variable (probe XF-3).
    const beside = await load({ 'docket.yaml': 'version: 1\nvars: { other: a }\n', 'p.yaml': lines('kind: Playbook', 'name: P', 'description: "see ${var.other} x\\u0007"') });
    expect(beside.diagnostics.map((d) => [brief(d), d.message, d.hint])).toEqual([['p.yaml:3:33 control-character', '`description` holds the control character U+0007: "see ${var.other} x\\u0007"', 'remove it; text may hold tabs and line breaks, but no other control characters']]);
    // A variable's own is said where the variable is defined.
    const brought = await load({ 'docket.yaml': 'version: 1\nvars: { bell: "x\\u0007" }\n', 'p.yaml': lines('kind: Playbook', 'name: P', 'description: "see ${var.bell}"') });
    expect(brought.diagnostics.map(brief)).toEqual(['docket.yaml:2:17 control-character']);
    // Lines ended by a lone CR (old Mac files), as positions count them.
    const old = await load({ 'docket.yaml': PROJECT, 'p.yaml': 'kind: Playbook\rname: P\rdescription: "ab\\x07c"\r' });
    expect(old.diagnostics.map(brief)).toEqual(['p.yaml:3:17 control-character']);
  });

  it('keeps the value\'s start where the value is not written on one line as it reads', async () => {
    const said = (d: string[]): string[] => d.map((l) => l.split(' ')[0]!);
    // A block scalar, a quoted scalar folded over lines.
    expect(said(await at(`description: |\n  ${LONG}\u0007 each quarter`))).toEqual(['p.yaml:3:14']);
    expect(said(await at(`description: "${LONG}\n  and more\\u0007"`))).toEqual(['p.yaml:3:14']);
  });
});

describe('loadConfig: interpolation', () => {
  const project = lines('version: 1', 'vars:', '  legal_lead: alice@acme.example', '  team: Legal');

  it('substitutes vars and env, mixed with text, and keeps $${ literal', async () => {
    const r = await load(
      {
        'docket.yaml': project,
        'p.yaml': lines(
          'kind: Playbook',
          'name: ${var.team} NDA (${env.REGION})',
          'description: Use $${var.x} in templates',
          'rules:',
          '  - name: Term',
          '    reviewer: ${var.legal_lead}',
          '    generate_summary: ${env.SUMMARIES}',
        ),
      },
      { processEnv: { REGION: 'EU', SUMMARIES: 'false' } },
    );
    expect(r.diagnostics).toEqual([]);
    expect(r.config!.documents[0]!.body).toEqual({
      kind: 'Playbook',
      name: 'Legal NDA (EU)',
      description: 'Use ${var.x} in templates',
      // An unquoted placeholder alone is typed like YAML would type its text.
      rules: [{ name: 'Term', reviewer: 'alice@acme.example', generate_summary: false }],
    });
  });

  it('types an unquoted placeholder an alias brings as its anchor types it, and a quoted one as text (second read SR79-1)', async () => {
    const r = await load(
      {
        'docket.yaml': project,
        // Parameters the schema types as YAML reads them: what the placeholder's anchor reads as is sent.
        't.yaml': lines('kind: Template', 'name: T', 'type: CSA', 'parameters:', '  include_security_policy_iso27001: &soc ${env.SOC}', '  include_security_policy_soc2: *soc', '  sender_role: &q "${env.SOC}"', '  recipient_role: *q'),
      },
      { processEnv: { SOC: 'true' }, kinds: [...KINDS, { yamlKind: 'Template', schema: 'template.schema.json' }] },
    );
    expect(r.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    const parameters = (r.config!.documents[0]!.body as { parameters: Record<string, unknown> }).parameters;
    expect([parameters.include_security_policy_iso27001, parameters.include_security_policy_soc2, parameters.sender_role, parameters.recipient_role]).toEqual([true, true, 'true', 'true']);
  });

  it('reports an undefined variable at its scalar, with a suggestion, and no schema noise', async () => {
    const r = await load({
      'docket.yaml': project,
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    reviewer: ${var.legal_led}', '    questions: ${env.NOPE} and ${foo}'),
    });
    expect(r.diagnostics.map((d) => [brief(d), d.message])).toEqual([
      ['p.yaml:5:15 undefined-variable', 'undefined variable `var.legal_led`, did you mean `var.legal_lead`?'],
      ['p.yaml:6:16 undefined-variable', 'undefined variable `env.NOPE`'],
      ['p.yaml:6:32 invalid-placeholder', 'invalid placeholder `${foo}`: write `${var.NAME}` or `${env.NAME}`'],
    ]);
    expect(r.diagnostics[0]!.path).toBe('rules[0].reviewer');
  });

  it('reports an invalid placeholder where it stands, on one line, and an undefined one in a folded block at its own line (probes LC-2, LC-3)', async () => {
    const r = await load({
      'docket.yaml': project,
      'p.yaml': lines('kind: Playbook', 'name: P', 'description: "${var.legal_lead} and ${ var.b }"', 'rules:', '  - name: Term', '    actions: |', '      one', '      two', '      three ${env.1X}', '    questions: >', '      one', '      two ${var.n1}', '', '      three ${var.n2}', '    internal_notes: "x ${bad', '      y"'),
    });
    expect(r.diagnostics.map((d) => [brief(d), d.message])).toEqual([
      ['p.yaml:3:37 invalid-placeholder', 'invalid placeholder `${ var.b }`: write `${var.NAME}` or `${env.NAME}`'],
      ['p.yaml:9:13 invalid-placeholder', 'invalid placeholder `${env.1X}`: write `${var.NAME}` or `${env.NAME}`'],
      ['p.yaml:12:11 undefined-variable', 'undefined variable `var.n1`'],
      ['p.yaml:14:13 undefined-variable', 'undefined variable `var.n2`'],
      ['p.yaml:15:24 invalid-placeholder', 'unterminated placeholder `${bad y`'],
    ]);
  });

  it('reports a placeholder whose text stands earlier in the value where it stands, not at the earlier one; two alike, each at its own place (probe TC-4)', async () => {
    const r = await load({
      'docket.yaml': project,
      'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: |', '      ACCEPT ${var.legal_lead} reviews', '      REJECT when long', '      NEEDS REVIEW ${var.legal_lead', '  - name: S', '    actions: "a ${var.x-} b ${var.x-"', '  - name: T', '    actions: "${var.} and ${var.}"'),
    });
    expect(r.diagnostics.map((d) => [brief(d), d.message])).toEqual([
      ['p.yaml:8:20 invalid-placeholder', 'unterminated placeholder `${var.legal_lead`'],
      ['p.yaml:10:17 undefined-variable', 'undefined variable `var.x-`'],
      ['p.yaml:10:29 invalid-placeholder', 'unterminated placeholder `${var.x-`'],
      ['p.yaml:12:15 invalid-placeholder', 'invalid placeholder `${var.}`: write `${var.NAME}` or `${env.NAME}`'],
      ['p.yaml:12:27 invalid-placeholder', 'invalid placeholder `${var.}`: write `${var.NAME}` or `${env.NAME}`'],
    ]);
    // A literal `$${…}` of the same text before it is no occurrence (second read SR92-6).
    const escaped = await load({ 'docket.yaml': project, 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: "ACCEPT $${env.NOPE} or ${env.NOPE}"') });
    expect(escaped.diagnostics.map((d) => [brief(d), d.message])).toEqual([['p.yaml:5:38 undefined-variable', 'undefined variable `env.NOPE`']]);
  });

  it('a vars: block that is no mapping is the one error: its uses are not said undefined too (probe MO-3)', async () => {
    const docket = lines('version: 1', 'vars: [lead]', 'environments:', '  staging:', '    vars:', '      lead: qa@acme.example');
    const loaded = await load({ 'docket.yaml': docket, 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: ACCEPT', '    reviewer: ${var.lead}') });
    expect(loaded.diagnostics.map((d) => brief(d))).toEqual(['docket.yaml:2:7 invalid-value']);
  });

  it('refuses an API key variable in an environment not selected, as in the one selected: by its name (probe OD-1)', async () => {
    const docket = lines('version: 1', 'environments:', '  other:', '    vars: { token: "${env.DOCKET_API_KEY}" }', '  third:', '    agreements:', '      actor: "${env.DOCKET_REVIEW_API_KEY}"');
    const files = { 'docket.yaml': docket, 'p.yaml': lines('kind: Playbook', 'name: P') };
    for (const env of [undefined, 'third']) {
      const loaded = await load(files, env === undefined ? {} : { env });
      expect(loaded.diagnostics.filter((d) => d.code === 'invalid-placeholder').map((d) => [brief(d), d.message]), env).toEqual([
        // At the placeholder, inside its quotes (probe SA-1).
        ['docket.yaml:4:21 invalid-placeholder', '`${env.DOCKET_API_KEY}` is an API key, which docket never puts into the configuration'],
        ['docket.yaml:7:15 invalid-placeholder', '`${env.DOCKET_REVIEW_API_KEY}` is an API key, which docket never puts into the configuration'],
      ]);
    }
  });

  it('says an API key placeholder in a resource where it stands, in a block too, not at its value\'s start (probe SA-1)', async () => {
    const playbook = lines('kind: Playbook', 'name: P', 'description: see ${env.DOCKET_API_KEY} and ${env.TOKEN}', 'rules:', '  - name: R', '    actions: |', '      line one', '      uses ${env.DOCKET_API_KEY} here');
    const loaded = await load({ 'docket.yaml': 'version: 1\n', 'p.yaml': playbook }, { processEnv: { TOKEN: 'sk_live_abcdef0123456789', DOCKET_API_KEY: 'sk_live_abcdef0123456789' } });
    expect(loaded.diagnostics.filter((d) => d.code === 'invalid-placeholder').map((d) => brief(d))).toEqual(['p.yaml:3:18 invalid-placeholder', 'p.yaml:3:44 invalid-placeholder', 'p.yaml:8:12 invalid-placeholder']);
  });

  it('with an environment selected, reports a variable the other environments do not define, naming them, once per place', async () => {
    const docket = lines('version: 1', 'vars:', '  lead: alice@acme.example', 'environments:', '  staging:', '    vars:', '      lead: qa@acme.example', '  prod:', '    vars:', '      note: Prod only', '  eu:', '    vars:', '      other: x');
    const files = { 'docket.yaml': docket, 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: ACCEPT', '    reviewer: ${var.lead}', '    internal_notes: ${var.note}') };
    const prod = await load(files, { env: 'prod' });
    expect(prod.diagnostics.map((d) => [brief(d), d.message, d.path])).toEqual([
      ['p.yaml:7:21 undefined-variable', 'variable `var.note` is not defined in environments `staging`, `eu`', 'rules[0].internal_notes'],
    ]);
    // Undefined in the selected one too: said once, as before.
    const staging = await load(files, { env: 'staging' });
    expect(staging.diagnostics.map((d) => [brief(d), d.message])).toEqual([['p.yaml:7:21 undefined-variable', 'undefined variable `var.note`: docket.yaml defines it only in environment `prod`']]);
    // Every environment defines it and none is selected: that is what to do.
    const everywhere = await load({ ...files, 'docket.yaml': docket.replace('      other: x', '      other: x\n      note: EU').replace('      lead: qa@acme.example', '      lead: qa@acme.example\n      note: Staging') });
    expect(everywhere.diagnostics.map((d) => [d.message, d.hint])).toEqual([
      ['undefined variable `var.note`: docket.yaml defines it in every environment (`staging`, `prod`, `eu`), not at the top level, and no --env selects one', 'select one with --env, or define it under `vars:` in docket.yaml too (a value the environments override)'],
    ]);
    // No environment selected: the same, and the hint is not to select one (the files are every environment's).
    const none = await load(files);
    expect(none.diagnostics.map((d) => [brief(d), d.message, d.hint])).toEqual([
      ['p.yaml:7:21 undefined-variable', 'undefined variable `var.note`: docket.yaml defines it only in environment `prod`', "the files are every environment's: define it under `vars:` in docket.yaml (a value each environment may override), or under each environment's `vars`"],
    ]);
    // Defined everywhere: nothing to say (a true/false variable too).
    expect((await load({ ...files, 'p.yaml': files['p.yaml'].replace('${var.note}', '${var.lead}') }, { env: 'prod' })).diagnostics).toEqual([]);
    const flagged = { 'docket.yaml': docket.replace('vars:\n  lead:', 'vars:\n  flag: true\n  lead:'), 'p.yaml': files['p.yaml'].replace('${var.note}', 'x').replace('    actions: ACCEPT', '    actions: ACCEPT\n    generate_summary: ${var.flag}') };
    expect((await load(flagged, { env: 'prod' })).diagnostics).toEqual([]);
    // Two names in one value: each with the environments that lack it.
    const two = await load({ ...files, 'p.yaml': files['p.yaml'].replace('${var.note}', '${var.note} ${var.other}') }, { env: 'prod' });
    // Each at its own placeholder, in the order they are written (probe KF-3).
    expect(two.diagnostics.map((d) => `${brief(d)} ${d.message}`)).toEqual([
      'p.yaml:7:21 undefined-variable variable `var.note` is not defined in environments `staging`, `eu`',
      'p.yaml:7:33 undefined-variable undefined variable `var.other`: docket.yaml defines it only in environment `eu`',
    ]);
    const eu = await load({ ...files, 'p.yaml': files['p.yaml'].replace('${var.note}', '${var.note} ${var.other}') }, { env: 'eu' });
    expect(eu.diagnostics.map((d) => d.message)).toEqual(['undefined variable `var.note`: docket.yaml defines it only in environment `prod`', 'variable `var.other` is not defined in environments `staging`, `prod`']);
    // One name twice in one value: each environment said once.
    const twice = await load({ ...files, 'p.yaml': files['p.yaml'].replace('${var.note}', '${var.note}-${var.note}') }, { env: 'prod' });
    expect(twice.diagnostics.map((d) => d.message)).toEqual(['variable `var.note` is not defined in environments `staging`, `eu`']);
    // Of thousands of environments, ten are named and the rest counted (probe VE-4).
    const envs = Array.from({ length: 2000 }, (_, i) => `  env_${i}: {}`);
    const wide = await load({ 'docket.yaml': lines('version: 1', 'environments:', '  env_x: { vars: { special: s } }', ...envs), 'p.yaml': lines('kind: Playbook', 'name: P', 'description: ${var.special}') }, { env: 'env_x' });
    expect(wide.diagnostics.map((d) => d.message)).toEqual([`variable \`var.special\` is not defined in environments ${Array.from({ length: 10 }, (_, i) => `\`env_${i}\``).join(', ')} and 1990 more`]);
    const nowhere = await load({ 'docket.yaml': lines('version: 1', 'environments:', ...envs.map((e) => e.replace('{}', '{ vars: { special: s } }'))), 'p.yaml': lines('kind: Playbook', 'name: P', 'description: ${var.special}') });
    expect(nowhere.diagnostics.map((d) => d.message)).toEqual([`undefined variable \`var.special\`: docket.yaml defines it in every environment (${Array.from({ length: 10 }, (_, i) => `\`env_${i}\``).join(', ')} and 1990 more), not at the top level, and no --env selects one`]);
  });

  it('reports a variable whose own value is broken once, where it is defined, not again in a file that uses it', async () => {
    const r = await load(
      {
        'docket.yaml': lines('version: 1', 'vars:', '  lead: alice@acme.example', 'environments:', '  staging:', '    vars:', '      lead: ${env.STAGING_LEAD}'),
        'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: ACCEPT', '    reviewer: ${var.lead}'),
      },
      { env: 'staging' },
    );
    expect(r.diagnostics.map(brief)).toEqual(['docket.yaml:7:13 undefined-variable']);
    // The environment's own good value replaces a broken top-level one: its uses are checked again.
    const replaced = await load(
      { 'docket.yaml': lines('version: 1', 'vars:', '  lead: [a]', 'environments:', '  staging:', '    vars: { lead: not-an-email }'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: ACCEPT', '    reviewer: ${var.lead}') },
      { env: 'staging' },
    );
    expect(replaced.diagnostics.map(brief)).toEqual(['docket.yaml:3:9 invalid-value', 'p.yaml:6:15 invalid-value']);
    // A value that is no text (a list, a mapping, none): the schema says so there, once.
    for (const value of ['[alice@acme.example]', '{ a: b }', '~', '1e400', '01067']) {
      const typed = await load({ 'docket.yaml': lines('version: 1', 'vars:', `  lead: ${value}`), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: ACCEPT', '    reviewer: ${var.lead}') });
      expect(typed.diagnostics.map(brief).filter((d) => !d.startsWith('docket.yaml:')), value).toEqual([]);
      expect(typed.diagnostics.length, value).toBeGreaterThan(0);
      // With an environment selected too: not "not defined in" the others, which leave it out of theirs (probe LC-1).
      const selected = await load(
        { 'docket.yaml': lines('version: 1', 'vars:', `  lead: ${value}`, 'environments:', '  dev: {}', '  prod: {}'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: ACCEPT', '    reviewer: ${var.lead}') },
        { env: 'dev' },
      );
      expect(selected.diagnostics.map(brief).filter((d) => !d.startsWith('docket.yaml:')), value).toEqual([]);
    }
    // A control character, written or from the environment: at the variable, not at its uses in
    // a resource or in docket.yaml; at the character where it is written, at the placeholder otherwise.
    for (const [value, processEnv, at] of [['"Legal\\u0007Ops"', {}, '3:15'], ['${env.TEAM}', { TEAM: 'Legal\u001bOps' }, '3:9']] as const) {
      const control = await load(
        { 'docket.yaml': lines('version: 1', 'vars:', `  team: ${value}`, 'agreements:', '  actor: "${var.team}"'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: Term', '    actions: ACCEPT', '    internal_notes: Agreed by ${var.team}') },
        { processEnv },
      );
      expect(control.diagnostics.map(brief), value).toEqual([`docket.yaml:${at} control-character`]);
    }
  });
});

describe('loadConfig: API keys typed into a file', () => {
  it('refuses a value that holds a key, at that value, naming the variable and not the key', async () => {
    const key = 'sk-live-0123456789abcdef';
    const r = await load(
      {
        'docket.yaml': PROJECT,
        'p.yaml': lines('kind: Playbook', `name: Deploy ${key}`, 'rules:', '  - name: Term', `    actions: ACCEPT, token ${key}`),
        'q.yaml': lines('kind: Playbook', 'name: Q', 'rules:', '  - name: Term', '    actions: ACCEPT sk-live'),
      },
      { processEnv: { DOCKET_REVIEW_API_KEY: `${key}\n` } },
    );
    expect(r.diagnostics.map((d) => [brief(d), d.path, d.message])).toEqual([
      ['p.yaml:2:7 api-key-in-file', 'name', 'this value holds the value of DOCKET_REVIEW_API_KEY, an API key, which docket never puts into the configuration'],
      ['p.yaml:5:14 api-key-in-file', 'rules[0].actions', 'this value holds the value of DOCKET_REVIEW_API_KEY, an API key, which docket never puts into the configuration'],
    ]);
    expect(JSON.stringify(r.diagnostics)).not.toContain(key);
    // Through a variable of docket.yaml, into a description.
    const viaVar = await load(
      { 'docket.yaml': lines('version: 1', 'vars:', `  token: ${key}`), 'p.yaml': lines('kind: Playbook', 'name: P', 'description: uses ${var.token}') },
      { processEnv: { DOCKET_API_KEY: key } },
    );
    expect(viaVar.diagnostics.map((d) => `${brief(d)} ${d.path}`)).toEqual(['docket.yaml:3:10 api-key-in-file vars.token', 'p.yaml:3:14 api-key-in-file description']);
    // In docket.yaml itself, used or not: it would be committed all the same.
    const unused = await load({ 'docket.yaml': lines('version: 1', 'environments:', '  ci:', '    vars:', `      spare: ${key}`) }, { processEnv: { DOCKET_API_KEY: key } });
    expect(unused.diagnostics.map((d) => `${brief(d)} ${d.path}`)).toEqual(['docket.yaml:5:14 api-key-in-file environments.ci.vars.spare']);
    expect(JSON.stringify(unused.diagnostics)).not.toContain(key);
    // Said once where the key also breaks what the value must be: not also as no UUID or e-mail (probe LN-4).
    const typed = await load(
      { 'docket.yaml': lines('version: 1', 'review:', `  organization_id: ${key}`), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: A', `    reviewer: ${key}`) },
      { processEnv: { DOCKET_API_KEY: key } },
    );
    expect(typed.diagnostics.map((d) => `${brief(d)} ${d.path}`)).toEqual(['docket.yaml:3:20 api-key-in-file review.organization_id', 'p.yaml:6:15 api-key-in-file rules[0].reviewer']);
  });

  it('refuses a key written with double-quoted escapes, in a value or a key name, which its text does not show (probe IP)', async () => {
    const key = 'sk_live_4eC39HqLyjWDarjtT1zdp7dc';
    const r = await load(
      {
        'docket.yaml': PROJECT,
        'p.yaml': lines('kind: Playbook', 'name: P', 'description: "\\x73k_live_4eC39HqLyjWDarjtT1zdp7dc"', 'rules:', '  - name: Term', '    actions: "sk_live_4eC39HqLy\\', '      jWDarjtT1zdp7dc"'),
        'q.yaml': lines('kind: Playbook', 'name: Q', 'description: "\\u0073k_live_4eC39HqLyjWDarjtT1zdp7dc"'),
      },
      { processEnv: { DOCKET_API_KEY: key } },
    );
    expect(r.diagnostics.map((d) => `${brief(d)} ${d.path}`)).toEqual(['p.yaml:3:14 api-key-in-file description', 'p.yaml:6:14 api-key-in-file rules[0].actions', 'q.yaml:3:14 api-key-in-file description']);
    expect(JSON.stringify(r.diagnostics)).not.toContain(key);
    // As a key's name, at the key (second read SR67-14).
    const named = await load({ 'docket.yaml': PROJECT, 'p.yaml': lines('kind: Playbook', 'name: P', '"\\x73k_live_4eC39HqLyjWDarjtT1zdp7dc": 1') }, { processEnv: { DOCKET_API_KEY: key } });
    expect(named.diagnostics.filter((d) => d.code === 'api-key-in-file').map((d) => [brief(d), d.message])).toEqual([
      ['p.yaml:3:1 api-key-in-file', "this key's name holds the value of DOCKET_API_KEY, an API key, which docket never puts into the configuration"],
    ]);
    expect(JSON.stringify(named.diagnostics.filter((d) => d.code === 'api-key-in-file'))).not.toContain(key);
  });

  it('refuses a key in a comment or a key name, once per file, at where it is written', async () => {
    const key = 'sk-live-0123456789abcdef';
    const r = await load(
      {
        'docket.yaml': lines('version: 1', `# key: ${key}`, `environments: { ${key}: {} }`),
        'p.yaml': lines('kind: Playbook', 'name: P', `description: D   # ${key}`),
        'q.yaml': lines('kind: Playbook', 'name: Q', `${key}: x`),
      },
      { processEnv: { DOCKET_API_KEY: key } },
    );
    const aside = 'this line holds the value of DOCKET_API_KEY, an API key, which docket never puts into the configuration: a commit would carry it into git';
    expect(r.diagnostics.filter((d) => d.code === 'api-key-in-file').map((d) => [brief(d), d.message])).toEqual([
      ['docket.yaml:2:8 api-key-in-file', aside],
      ['p.yaml:3:20 api-key-in-file', aside],
      ['q.yaml:3:1 api-key-in-file', aside],
    ]);
    // (An unknown key's own message quotes it: output replaces a key wherever it is printed.)
    expect(JSON.stringify(r.diagnostics.filter((d) => d.code === 'api-key-in-file'))).not.toContain(key);
  });

  it('says a key in a comment of a file whose value holds it too, in the same run (probe VC-1)', async () => {
    const key = 'sk_live_ABCdef123456';
    const r = await load(
      {
        'docket.yaml': lines('version: 1', `# ${key}`, 'vars:', `  token: ${key}`),
        'm.yaml': lines(`# old token ${key}`, 'kind: Member', 'email: k@acme.example', `name: ${key}`),
        // After the value, and on its line: the comment is still said, the value's own place once.
        'n.yaml': lines('kind: Playbook', `name: P ${key}   # ${key}`, `# again ${key}`),
        // A `#` inside a value is no comment: the value is said, nothing else.
        'q.yaml': lines('kind: Playbook', 'name: Q', 'description: |', `  see # ${key}`),
        // A key name, beside a value (second read SR94-1); a block scalar's line that starts with `#` is its text (SR94-8).
        'r.yaml': lines('kind: Playbook', `name: R ${key}`, `${key}: x`),
        's.yaml': lines('kind: Playbook', 'name: S', `description: "${key}"`, '---', '|', `  # ${key}`),
        // Lone CRs end lines there too (second read SR94B-2).
        't.yaml': `kind: Playbook\rname: T ${key}\r${key}: x\r`,
      },
      { processEnv: { DOCKET_API_KEY: key } },
    );
    expect(r.diagnostics.filter((d) => d.code === 'api-key-in-file').map((d) => `${brief(d)} ${d.path ?? '(aside)'}`)).toEqual([
      'docket.yaml:2:3 api-key-in-file (aside)',
      'docket.yaml:4:10 api-key-in-file vars.token',
      'm.yaml:1:13 api-key-in-file (aside)',
      'm.yaml:4:7 api-key-in-file name',
      'n.yaml:2:7 api-key-in-file name',
      'n.yaml:2:34 api-key-in-file (aside)',
      'q.yaml:3:14 api-key-in-file description',
      'r.yaml:2:7 api-key-in-file name',
      'r.yaml:3:1 api-key-in-file (aside)',
      's.yaml:3:14 api-key-in-file description',
      't.yaml:2:7 api-key-in-file name',
      't.yaml:3:1 api-key-in-file (aside)',
    ]);
  });
});

describe('loadConfig: collecting', () => {
  it('reports every problem of every file in one run, sorted', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'z.yaml': lines('kind: Member', 'email: nope'),
      'a.yaml': lines('kind: Playbook', 'nam: P', 'rules:', '  - name: T', '    reviewer: x'),
    });
    expect(r.diagnostics.map(brief)).toEqual([
      'a.yaml:1:1 missing-field',
      'a.yaml:2:1 unknown-key',
      'a.yaml:5:15 invalid-value',
      'z.yaml:2:8 invalid-value',
    ]);
    expect([...r.diagnostics].sort(compareDiagnostics)).toEqual(r.diagnostics);
    expect(r.diagnostics[1]!.message).toBe('unknown key `nam` in Playbook, did you mean `name`?');
    expect(r.config!.documents.map((d) => d.file).sort()).toEqual(['a.yaml', 'z.yaml']);
  });
});

describe('loadConfig: a byte-order mark', () => {
  it('does not move the columns of line 1', async () => {
    const plain = await load({ 'docket.yaml': PROJECT, 'p.yaml': 'bogus: 1\nkind: Playbook\nname: A\n' });
    const bom = await load({ 'docket.yaml': PROJECT, 'p.yaml': '\uFEFFbogus: 1\nkind: Playbook\nname: A\n' });
    expect(bom.diagnostics.map(brief)).toEqual(plain.diagnostics.map(brief));
    expect(bom.diagnostics.map(brief)).toContain('p.yaml:1:1 unknown-key');
  });

  it('counts one that starts a later document as a column of its line, as editors do (probe VC-3)', async () => {
    const r = await load({
      'docket.yaml': PROJECT,
      'm.yaml': 'kind: Member\nemail: a@acme.example\n---\n\uFEFF{kind: Member, email: bad}\n---\n\uFEFF\uFEFFkind: Member\nemail: worse\n',
      'p.yaml': 'kind: Playbook\nname: A\n---\n\uFEFF[1\n',
    });
    // "bad" is the 24th UTF-16 unit of its line, the mark the first; a line after the mark's is as it was.
    expect(r.diagnostics.map(brief)).toEqual(['m.yaml:4:24 invalid-value', 'm.yaml:7:8 invalid-value', 'p.yaml:4:2 yaml-syntax']);
    // A file of the same text without the mark is counted as it is (second read SR94-2), in the same run and after.
    const member = 'kind: Member\nemail: a@acme.example\n---\n{kind: Member, email: bad}\n';
    const both = await load({ 'docket.yaml': PROJECT, 'm.yaml': member.replace('{', '\uFEFF{'), 'n.yaml': member });
    expect(both.diagnostics.map(brief)).toEqual(['m.yaml:4:24 invalid-value', 'n.yaml:4:23 invalid-value']);
    const again = await load({ 'docket.yaml': PROJECT, 'm.yaml': member });
    expect(again.diagnostics.map(brief)).toEqual(['m.yaml:4:23 invalid-value']);
  });
});

describe('a file of very many problems', () => {
  it('lists them all rather than overflowing the stack (probe DJ-1)', async () => {
    // Some 130,000 errors spread into one call overflowed it.
    const r = await load({ 'docket.yaml': PROJECT, 'p.yaml': `kind: Playbook\nname: H\nignore_fields: [${Array.from({ length: 150_000 }, () => 'actions').join(',')}]\n` });
    expect(r.diagnostics).toHaveLength(149_999);
    expect(r.diagnostics[0]).toMatchObject({ file: 'p.yaml', code: 'invalid-value' });
  });
});

describe('a project file named docket.yml', () => {
  it('is the file variable messages name (probe DE-6)', async () => {
    const r = await load({ 'docket.yml': lines('version: 1', 'vars: { a: x }', 'environments:', '  s:', '    vars: { b: y }'), 'p.yaml': lines('kind: Playbook', 'name: P ${var.b} ${var.c}', 'rules: []') });
    const said = r.diagnostics.filter((d) => d.code === 'undefined-variable');
    expect(said.length).toBeGreaterThan(0);
    for (const d of said) expect(`${d.message} ${d.hint ?? ''}`).not.toContain('docket.yaml');
    expect(said.some((d) => `${d.message} ${d.hint ?? ''}`.includes('docket.yml'))).toBe(true);
  });
});

describe('a file gone while docket runs', () => {
  it('is an error saying so when a position in it is asked for, not a crash', async () => {
    const dir = await tree({ 'docket.yaml': PROJECT, 'playbooks/p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: A') });
    const loaded = await loadConfig({ dir, kinds: KINDS, processEnv: {} });
    const doc = loaded.config!.documents[0]!;
    await rm(`${dir}/playbooks/p.yaml`);
    expect(() => doc.positions.valueAt('/rules/0/actions').line).toThrow(expect.objectContaining({ code: 'files-changed', message: 'playbooks/p.yaml changed while docket ran: it can no longer be read (ENOENT)' }));
  });
});
