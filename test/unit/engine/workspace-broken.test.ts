/**
 * Broken configurations found by a black-box pass (issue 11's corpus, second round), loaded the way
 * every command loads them: each must be refused offline at its file:line, quoting the value.
 */
import { symlink, truncate, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { loadWorkspace } from '../../../src/engine/workspace.js';
import { cleanup, lines, tree } from '../config/helpers.js';

afterEach(cleanup);

const PROJECT = lines('version: 1', 'agreements:', '  actor: legal-ops@acme.example');

/** The diagnostics loadWorkspace refuses `files` with, as `file:line:col code message`. */
async function refused(files: Record<string, string>, processEnv: Record<string, string> = {}): Promise<string[]> {
  const dir = await tree({ 'docket.yaml': PROJECT, ...files });
  const error = await loadWorkspace({ dir, processEnv }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ConfigError);
  return (error as ConfigError).diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code} ${d.message}`);
}

/** The `path` of each diagnostic loadWorkspace refuses `files` with, as `file:line code path`. */
async function pathsOf(files: Record<string, string>): Promise<string[]> {
  const dir = await tree({ 'docket.yaml': PROJECT, ...files });
  const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
  return error.diagnostics.map((d) => `${d.file}:${d.line} ${d.code} ${d.path ?? '(none)'}`);
}

describe('loadWorkspace, a data file named by a placeholder that cannot be filled in', () => {
  it('says the variable is undefined, not also that a file named "${var.x}" is missing', async () => {
    const found = await refused({ 'terms/t.yaml': lines('kind: CustomTerm', 'name: T', 'body_file: ${var.pdf}'), 'terms/u.yaml': lines('kind: CustomTerm', 'name: U', 'body_file: "u-${var.pdf}.md"') });
    expect(found).toEqual([
      'terms/t.yaml:3:12 undefined-variable undefined variable `var.pdf`',
      // At the placeholder, inside the quoted name (probe KF-3).
      'terms/u.yaml:3:15 undefined-variable undefined variable `var.pdf`',
    ]);
  });
});

describe('loadWorkspace: the path of each problem at a value', () => {
  it('names the value a kind or the identity checks refuse, as the schema\'s problems do (validate -o json)', async () => {
    const found = await pathsOf({
      'playbooks/a.yaml': lines('kind: Playbook', 'name: A', 'rules:', '  - name: R', '    actions: x', '  - name: R', '    actions: y', '  - name: B/C', '    actions: z', '  - name: "Dup "', '    actions: w', '  - name: Dup', '    actions: v'),
      'playbooks/ab.yaml': lines('kind: Playbook', 'name: A/B', 'rules:', '  - name: C', '    actions: second'),
      'terms/t.yaml': lines('kind: CustomTerm', 'name: T', 'body: "  "'),
      'members.yaml': lines('kind: Member', 'email: bob@acme.example', 'name: "   "'),
    });
    expect(found).toEqual([
      'members.yaml:3 blank-name name',
      'playbooks/a.yaml:6 duplicate-rule rules[1].name',
      'playbooks/a.yaml:10 confusable-name rules[3].name',
      'playbooks/ab.yaml:4 duplicate-resource rules[0].name',
      'terms/t.yaml:3 term-content body',
    ]);
    // A rule repeated by an alias is at the alias: its name is written only where the anchor is.
    const aliased = await pathsOf({ 'playbooks/v.yaml': lines('kind: Playbook', 'name: V', 'rules:', '  - &r', '    name: Dup', '    actions: do x', '  - *r') });
    expect(aliased).toEqual(['playbooks/v.yaml:7 duplicate-rule rules[1]']);
  });
});

describe('loadWorkspace refuses', () => {
  it('a data field that names the very file that declares it, instead of swallowing the resource', async () => {
    // `body_file: consulting.yaml` in consulting.yaml made the term vanish: validate said valid,
    // and plan then failed on the template's reference to a term "neither declared nor live".
    const found = await refused({ 'terms/consulting.yaml': lines('kind: CustomTerm', 'name: Consulting Terms', 'body_file: consulting.yaml') });
    expect(found).toEqual(['terms/consulting.yaml:3:12 data-file-is-resource `body_file` names "consulting.yaml", which holds a docket resource (a `kind:` document), not data']);
  });
});

describe('loadWorkspace refuses a data file docket does not read as configuration', () => {
  it('in a dot-folder, node_modules or a dot-file, named or through a link: `.git/config` holds a CI checkout\'s token, which a plan would print and pull overwrite (probe JT-1)', async () => {
    const dir = await tree({
      'docket.yaml': PROJECT,
      '.git/config': '[http]\n\textraheader = AUTHORIZATION: basic secret\n',
      'node_modules/pkg/README.md': 'text',
      'terms/a.yaml': lines('kind: CustomTerm', 'name: A', 'body_file: ../.git/config'),
      'terms/b.yaml': lines('kind: CustomTerm', 'name: B', 'body_file: ../node_modules/pkg/README.md'),
      'terms/c.yaml': lines('kind: CustomTerm', 'name: C', 'body_file: .notes.md'),
      'terms/.notes.md': 'text',
      'terms/d.yaml': lines('kind: CustomTerm', 'name: D', 'body_file: d.md'),
    });
    await symlink('../.git/config', join(dir, 'terms/d.md'));
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    const found = error.diagnostics.map((d) => `${d.file}:${d.line}:${d.col} ${d.code} ${d.message.split(', which')[0]}`);
    expect(found).toEqual([
      'terms/a.yaml:3:12 file-outside-config `body_file` names "../.git/config" (that is ".git/config"), in .git/',
      'terms/b.yaml:3:12 file-outside-config `body_file` names "../node_modules/pkg/README.md" (that is "node_modules/pkg/README.md"), in node_modules/',
      'terms/c.yaml:3:12 file-outside-config `body_file` names ".notes.md", a file whose name starts with "."',
      'terms/d.yaml:3:12 file-outside-config `body_file` names "d.md", a link to ".git/config", in .git/',
    ]);
    expect(JSON.stringify(error.diagnostics)).not.toContain('secret');
  });
});

describe('loadWorkspace says of a missing data file', () => {
  it('the file beside it whose name differs only in letter case or Unicode form: macOS found it, Linux CI does not (probes JO-3, JT-8)', async () => {
    const dir = await tree({
      'docket.yaml': PROJECT,
      'terms/a.yaml': lines('kind: CustomTerm', 'name: A', 'body_file: Consulting.md'),
      'terms/consulting.md': 'text',
      'terms/b.yaml': lines('kind: CustomTerm', 'name: B', 'body_file: caf\u00e9.md'),
      'terms/cafe\u0301.md': 'text',
      'terms/c.yaml': lines('kind: CustomTerm', 'name: C', 'body_file: gone.md'),
    });
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    const found = error.diagnostics.map((d) => `${d.file} ${d.code} ${d.message.split('; ')[1] ?? ''}`);
    expect(found).toEqual([
      'terms/a.yaml missing-file "consulting.md" is there, whose name differs in letter case',
      'terms/b.yaml missing-file "cafe\u0301.md" is there, whose name differs only in how Unicode encodes its letters (no visible difference: an accent as one character or two)',
      'terms/c.yaml missing-file ',
    ]);
  });

  it('the file whose folder differs only in letter case (probe PB-5)', async () => {
    const dir = await tree({
      'docket.yaml': PROJECT,
      'terms/body.md': 'text',
      'a.yaml': lines('kind: CustomTerm', 'name: A', 'body_file: Terms/body.md'),
      'b.yaml': lines('kind: CustomTerm', 'name: B', 'body_file: Terms/Body.md'),
      'c.yaml': lines('kind: CustomTerm', 'name: C', 'body_file: Gone/body.md'),
    });
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error.diagnostics.map((d) => `${d.file} ${d.message.split('; ')[1] ?? ''}`)).toEqual([
      'a.yaml "terms/body.md" is there, whose name differs in letter case',
      'b.yaml "terms/body.md" is there, whose name differs in letter case',
      'c.yaml ',
    ]);
  });

  it('a YAML definition file named in another letter case is that data file, not also a stray resource (probe OO-5)', async () => {
    const dir = await tree({
      'docket.yaml': lines('version: 1', 'agreements: {actor: a@acme.example}'),
      'x.cover.yaml': lines('title: T', 'sections:', '  - heading: H', '    fields:', '      a: {label: A, input: text}'),
      't.yaml': lines('kind: CustomTemplate', 'name: CT', 'definition_file: X.cover.yaml'),
    });
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error.diagnostics.map((d) => `${d.file} ${d.code}`)).toEqual(['t.yaml missing-file']);
  });

  it('that ` #` cut an unquoted name short, YAML reading the rest as a comment (probe JO-5)', async () => {
    const dir = await tree({ 'docket.yaml': PROJECT, 'terms/a.yaml': lines('kind: CustomTerm', 'name: A', 'body_file: terms #2.md   '), 'terms/terms #2.md': 'text', 'terms/b.yaml': lines('kind: CustomTerm', 'name: B', 'body_file: gone.md # the old one') });
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error.diagnostics.map((d) => `${d.file} ${d.hint}`)).toEqual([
      'terms/a.yaml in YAML ` #` starts a comment, so the name ends before it: quote the whole name ("terms #2.md")',
      // A comment after a space is one: no hint about it.
      'terms/b.yaml file names are relative to the YAML file that holds them',
    ]);
  });

  it('that a backslash is read as a folder separator, where the name holds one (probes MP-4, MU-6)', async () => {
    const dir = await tree({ 'docket.yaml': PROJECT, 'terms/a.yaml': lines('kind: CustomTerm', 'name: A', 'body_file: "back\\\\slash.md"'), 'terms/back\\slash.md': 'text' });
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error.diagnostics.map((d) => [d.message, d.hint])).toEqual([
      ['`body_file` names "back\\\\slash.md", which does not exist (looked for "terms/back/slash.md")', 'file names are relative to the YAML file that holds them, and a `\\` in one is read as `/` (a folder), as Windows writes paths'],
    ]);
  });
});

describe('loadWorkspace refuses docket.yaml and test files as data', () => {
  it('in every kind\'s data fields, named directly or through a link: validate passed them and apply published them', async () => {
    const dir = await tree({
      'docket.yaml': PROJECT,
      'tests/nda.test.yaml': lines('kind: PlaybookTest', 'playbook: P'),
      'terms/a.yaml': lines('kind: CustomTerm', 'name: A', 'body_file: ../docket.yaml'),
      'terms/b.yaml': lines('kind: CustomTerm', 'name: B', 'body_file: ../tests/nda.test.yaml'),
      'terms/c.yaml': lines('kind: CustomTerm', 'name: C', 'body_file: settings.md'),
      'terms/d.yaml': lines('kind: CustomTerm', 'name: D', 'docx_file: test.docx'),
      'templates/t.yaml': lines('kind: CustomTemplate', 'name: T', 'definition_file: cover.yaml'),
      'attachments/s.yaml': lines('kind: Attachment', 'name: S', 'file: s.pdf'),
    });
    await symlink('../docket.yaml', join(dir, 'terms/settings.md'));
    await symlink('../tests/nda.test.yaml', join(dir, 'terms/test.docx'));
    // A `*.yaml` link is read as a YAML file of the configuration, not followed when named.
    await symlink('../docket.yaml', join(dir, 'templates/cover.yaml'));
    await symlink('../tests/nda.test.yaml', join(dir, 'attachments/s.pdf'));
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    const found = error.diagnostics.filter((d) => d.code === 'data-file-is-resource').map((d) => `${d.file}:${d.line}:${d.col} ${d.message}`);
    const project = "docket's project file (the organization ids, service URLs and vars), not data";
    expect(found).toEqual([
      `attachments/s.yaml:3:7 \`file\` names "s.pdf", a link to "tests/nda.test.yaml", which is a \`docket test\` file, not data`,
      `templates/t.yaml:3:18 \`definition_file\` names "cover.yaml", a link to "docket.yaml", which is ${project}`,
      `terms/a.yaml:3:12 \`body_file\` names "../docket.yaml" (that is "docket.yaml"), which is ${project}`,
      `terms/b.yaml:3:12 \`body_file\` names "../tests/nda.test.yaml" (that is "tests/nda.test.yaml"), which is a \`docket test\` file, not data`,
      `terms/c.yaml:3:12 \`body_file\` names "settings.md", a link to "docket.yaml", which is ${project}`,
      `terms/d.yaml:3:12 \`docx_file\` names "test.docx", a link to "tests/nda.test.yaml", which is a \`docket test\` file, not data`,
    ]);
  });
});

describe('loadWorkspace, a key written into a data file', () => {
  it('refuses a term body and a template definition holding an API key, at where the key is', async () => {
    // Sent live as the text, and written into a saved plan, which `docket show` prints without a key.
    const found = await refused(
      {
        'terms/a.yaml': lines('kind: CustomTerm', 'name: A', 'body_file: a.md'),
        'terms/a.md': lines('# Terms', '', 'Use token sk-live-0123456789 here.'),
        'templates/t.yaml': lines('kind: CustomTemplate', 'name: T', 'custom_term: A', 'definition_file: t.cover.yaml'),
        'templates/t.cover.yaml': lines('title: T', 'terms_label: sk-live-0123456789'),
      },
      { DOCKET_AGREEMENTS_API_KEY: 'sk-live-0123456789\n' },
    );
    expect(found).toEqual(expect.arrayContaining([
      'templates/t.cover.yaml:2:14 api-key-in-file templates/t.cover.yaml holds the value of DOCKET_AGREEMENTS_API_KEY, an API key, which docket never puts into the configuration',
      'terms/a.md:3:11 api-key-in-file terms/a.md holds the value of DOCKET_AGREEMENTS_API_KEY, an API key, which docket never puts into the configuration',
    ]));
  });

  it('refuses a data file whose path holds an API key (a folder named with it): docket.lock.json records the path, and would carry the key into git (probe HB-1)', async () => {
    const key = 'sk_live_4eC39HqLyjWDarjtT1zd';
    const found = await refused(
      {
        [`${key}/a.yaml`]: lines('kind: CustomTerm', 'name: A', 'body_file: a.md'),
        [`${key}/a.md`]: lines('# Terms'),
        'terms/b.yaml': lines('kind: CustomTerm', 'name: B', `body_file: ../${key.toUpperCase()}/a.md`),
      },
      { DOCKET_API_KEY: key },
    );
    const said = 'api-key-in-file `body_file` names a file whose path holds the value of DOCKET_API_KEY, an API key: docket.lock.json records the files docket uploads by their path, and a commit would carry the key into git';
    expect(found).toEqual(expect.arrayContaining([`${key}/a.yaml:3:12 ${said}`, `terms/b.yaml:3:12 ${said}`]));
  });
});

describe('loadWorkspace, a data file too large to send', () => {
  it('refuses a file of more than 2 GiB at the value that names it, without reading it (probe HE-3)', async () => {
    const dir = await tree({ 'docket.yaml': PROJECT, 'attachments/big.yaml': lines('kind: Attachment', 'name: Big', 'file: big.pdf'), 'attachments/big.pdf': '%PDF-1.4\n' });
    // Sparse: no disk is used for it.
    await truncate(join(dir, 'attachments/big.pdf'), 2_500 * 1024 * 1024);
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error.diagnostics.map((d) => [`${d.file}:${d.line}:${d.col} ${d.code} ${d.message}`, d.hint])).toEqual([
      ['attachments/big.yaml:3:7 file-too-large "attachments/big.pdf" holds 2621440000 bytes, more than docket can send (2 GiB)', 'make attachments/big.pdf smaller (or split it): the services take no request near this large'],
    ]);
  });
});

describe('loadWorkspace, a definition file not in UTF-8', () => {
  it('says it once, as the loader reads it, not also as what its bytes read as UTF-8 make of it (probe HG-4)', async () => {
    const definition = 'title: SOW\nsections:\n  - heading: Scope\n    fields:\n      scope: {label: Scope, input: textarea}\n';
    const dir = await tree({ 'docket.yaml': PROJECT, 'ct/sow.yaml': lines('kind: CustomTemplate', 'name: SOW', 'definition_file: sow.cover.yaml') });
    for (const bytes of [Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(definition, 'utf16le')]), Buffer.from(definition, 'utf16le')]) {
      await writeFile(join(dir, 'ct/sow.cover.yaml'), bytes);
      const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
      expect(error.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(['ct/sow.cover.yaml:1 invalid-utf8']);
    }
  });
});

describe('loadWorkspace, objects declared twice', () => {
  it('points at the value that names the second, and the first by the line of its own', async () => {
    const found = await refused({
      'members.yaml': lines('kind: Member', 'email: bob@acme.example', '---', '# Bob again, in capitals', 'kind: Member', 'name: Bob', 'email: BOB@acme.example'),
      'playbooks/nda.yaml': lines('# the NDA playbook', 'kind: Playbook', 'name: NDA'),
      'playbooks/nda-2.yaml': lines('kind: Playbook', 'description: the same', 'name: NDA'),
    });
    expect(found).toEqual([
      'members.yaml:7:8 duplicate-resource member "BOB@acme.example" is declared twice (also at members.yaml:2)',
      'playbooks/nda.yaml:3:7 duplicate-resource playbook "NDA" is declared twice (also at playbooks/nda-2.yaml:3)',
    ]);
  });
});

describe('loadWorkspace, rules', () => {
  it('two rules whose playbook/rule names read the same are refused: the second one silently vanished', async () => {
    const found = await refused({
      'playbooks/a.yaml': lines('kind: Playbook', 'name: A', 'rules:', '  - name: B/C', '    actions: first'),
      'playbooks/ab.yaml': lines('kind: Playbook', 'name: A/B', 'rules:', '  - name: C', '    actions: second'),
    });
    expect(found).toEqual([
      'playbooks/ab.yaml:4:11 duplicate-resource rule "C" of playbook "A/B" and rule "B/C" of playbook "A" (playbooks/a.yaml:4) are both rule "A/B/C": a `/` in their names makes them one',
    ]);
  });
});

describe('loadWorkspace, names that show as nothing', () => {
  it('a name of zero-width characters or fillers is blank, like one of spaces; one with visible text is not', async () => {
    const found = await refused({
      'playbooks/a.yaml': lines('kind: Playbook', 'name: "\\u200b"', 'rules:', '  - name: "\\u3164 \\u2060"', '    actions: A', '  - name: "Term\\u200b"', '    actions: B', '  - name: "\\u2800"', '    actions: C'),
    });
    expect(found).toEqual(['playbooks/a.yaml:2:7 blank-name playbook name "\\u200b" is blank', 'playbooks/a.yaml:4:11 blank-name rule name "\\u3164 \\u2060" is blank', 'playbooks/a.yaml:8:11 blank-name rule name "\\u2800" is blank']);
    // Two names that look alike are told apart in messages: what shows as nothing is escaped.
    const id = '11111111-1111-4111-8111-111111111111';
    const pins = await refused({
      'playbooks/a.yaml': lines('kind: Playbook', 'name: Same', `id: ${id}`, 'rules: []'),
      'playbooks/b.yaml': lines('kind: Playbook', 'name: "Same\\u3000"', `id: ${id}`, 'rules: []'),
    });
    expect(pins.find((p) => p.includes('duplicate-pin'))).toContain(`playbook "Same\\u3000" pins id "${id}", which playbook "Same" pins too`);
  });
});

describe('loadWorkspace, names that are not the identity', () => {
  it('a member\'s or the organization\'s name is not blank and at most 200 characters either', async () => {
    const found = await refused({
      'members.yaml': lines('kind: Member', 'email: bob@acme.example', 'name: "   "'),
      'organization.yaml': lines('kind: Organization', 'review:', `  name: ${'N'.repeat(201)}`, 'agreements:', '  name: " "'),
    });
    expect(found).toEqual([
      'members.yaml:3:7 blank-name member name "   " is blank',
      'organization.yaml:3:9 name-too-long organization name "NNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNNN..." is 201 characters long; docket allows 200',
      'organization.yaml:5:9 blank-name organization name " " is blank',
    ]);
    // An empty one is said once, by the schema.
    const empty = await refused({ 'organization.yaml': lines('kind: Organization', 'review:', '  name: ""') });
    expect(empty).toEqual(['organization.yaml:3:9 invalid-value `name` must not be empty (got "")']);
    // The agreements service needs its name too: neither empty nor cleared (it answered 422 on apply).
    const agreements = await refused({ 'organization.yaml': lines('kind: Organization', 'agreements:', '  name: ""', '  city: null') });
    expect(agreements).toEqual(['organization.yaml:3:9 invalid-value `name` must not be empty (got "")']);
    const cleared = await refused({ 'organization.yaml': lines('kind: Organization', 'agreements:', '  name: null') });
    expect(cleared).toEqual(['organization.yaml:3:9 invalid-value `name` must be a string or a number, not null (written "null")']);
  });
});

describe('loadWorkspace, custom terms', () => {
  it('a body of nothing but blanks is as empty as an empty one, at the value', async () => {
    // An empty body_file was refused, one holding "  \n\n" published a blank term.
    const found = await refused({
      'terms/a.yaml': lines('kind: CustomTerm', 'name: A', 'body_file: a.md'),
      'terms/a.md': '  \n\n',
      'terms/b.yaml': lines('kind: CustomTerm', 'name: B', 'body: "   "'),
      // Empty outright: the same one error, not a schema error beside it.
      'terms/c.yaml': lines('kind: CustomTerm', 'name: C', 'body: ""'),
    });
    expect(found).toEqual([
      'terms/a.yaml:3:12 term-content custom term "A" has an empty body: "a.md" holds no text',
      'terms/b.yaml:3:7 term-content custom term "B" has an empty body (got "   ")',
      'terms/c.yaml:3:7 term-content custom term "C" has an empty body (got "")',
    ]);
  });
});

describe('loadWorkspace, references', () => {
  it('the organization\'s default_reviewer is referenced at its value, as a rule\'s reviewer is: plan reports an unknown one there', async () => {
    const dir = await tree({ 'docket.yaml': PROJECT, 'organization.yaml': lines('kind: Organization', 'review:', '  default_reviewer: zed@acme.example') });
    const { desired } = await loadWorkspace({ dir, processEnv: {} });
    expect(desired.find((d) => d.kind === 'organization')!.refs).toEqual([{ kind: 'member', key: 'zed@acme.example', field: 'review.default_reviewer', source: { file: 'organization.yaml', line: 3, col: 21 } }]);
  });
});

describe('loadWorkspace, a rule text filled by a variable whose value is no text', () => {
  it('says so once, at the variable, not again as a rule without actions', async () => {
    const dir = await tree({ 'docket.yaml': lines('version: 1', 'vars:', '  d: [1, 2]'), 'p.yaml': lines('kind: Playbook', 'name: P', 'rules:', '  - name: R', '    actions: "${var.d}"', '  - name: S', '    questions: "${var.d}"') });
    const error = (await loadWorkspace({ dir, processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error.diagnostics.map((d) => `${d.file}:${d.line} ${d.code}`)).toEqual(['docket.yaml:3 invalid-value']);
  });
});

describe('a value a variable filled in, refused past the schema', () => {
  it('names the definition this run took it from: a blank name, a missing data file, a URL of another environment (probes PM-1, PV-4, PN-3)', async () => {
    const dir = await tree({
      'docket.yaml': lines('version: 1', 'agreements:', '  actor: legal-ops@acme.example', 'vars:', '  pb: Inbound', '  doc: terms.md', 'environments:', '  staging:', '    vars:', '      pb: "   "', '      doc: gone.md'),
      'p.yaml': lines('kind: Playbook', 'name: ${var.pb}', 'rules: []'),
      't.yaml': lines('kind: CustomTerm', 'name: T', 'body_file: ${var.doc}'),
      'terms.md': 'Terms.\n',
    });
    const error = (await loadWorkspace({ dir, env: 'staging', processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(error.diagnostics.map((d) => [d.code, d.hint])).toEqual([
      ['blank-name', expect.stringContaining('it is filled in from "${var.pb}": change var.pb where this run takes it from: `environments.staging.vars.pb` (docket.yaml:10)')],
      ['missing-file', expect.stringContaining('it is filled in from "${var.doc}": change var.doc where this run takes it from: `environments.staging.vars.doc` (docket.yaml:11)')],
    ]);
    const urls = await tree({ 'docket.yaml': lines('version: 1', 'review:', '  url: ${var.u}', 'vars:', '  u: http://127.0.0.1:9/review', 'environments:', '  staging: {}', '  prod:', '    vars:', '      u: http://review.example.com/') });
    const refusedUrl = (await loadWorkspace({ dir: urls, env: 'staging', processEnv: {} }).catch((e: unknown) => e)) as ConfigError;
    expect(refusedUrl.diagnostics.map((d) => [d.code, d.hint])).toEqual([['insecure-url', expect.stringContaining('it is filled in from "${var.u}": change var.u where a run with --env `prod` takes it from: `environments.prod.vars.u` (docket.yaml:10)')]]);
  });
});
