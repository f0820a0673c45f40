/**
 * The bundled example as an editor sees it: yaml-language-server (the engine of the VS Code YAML
 * extension) over stdio, with nothing but the files of the repository (each file's `$schema`
 * modeline, relative refs between the schema files). Zero problems in every file, and completions
 * where a user types: inside a rule, inside `parameters:` of each standard template type.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { mkdir, symlink } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { schemasDir } from '../../src/config/schema-names.js';
import { TEMPLATE_TYPES } from '../../src/kinds/support/template-params.js';
import { YamlLanguageServer } from '../helpers/lsp.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';

const EXAMPLE = path.join(schemasDir(), '..', 'examples', 'acme-legal');

/** The modeline of a file in `dir` pointing at docket's `schemas/<name>`, by a relative path as `init` writes it. */
function modeline(dir: string, name: string): string {
  return `# yaml-language-server: $schema=${path.relative(dir, path.join(schemasDir(), name)).split(path.sep).join('/')}\n`;
}
let server: YamlLanguageServer;

beforeAll(async () => {
  server = await YamlLanguageServer.start(EXAMPLE);
});
afterAll(async () => {
  await server.stop();
  await removeMadeDirs();
});

describe('the bundled example in yaml-language-server', () => {
  const files = readdirSync(EXAMPLE, { recursive: true, encoding: 'utf8' }).filter((f) => /\.ya?ml$/.test(f) && !f.startsWith('.docket'));

  it('has a schema modeline on every file and no problem in any', async () => {
    expect(files.length).toBeGreaterThan(10);
    const texts = files.map((f) => readFileSync(path.join(EXAMPLE, f), 'utf8'));
    for (const [i, f] of files.entries()) expect(texts[i], f).toMatch(/^# yaml-language-server: \$schema=\S+\n/);
    const problems = await Promise.all(files.map((f, i) => server.open(path.join(EXAMPLE, f), texts[i]!)));
    expect(problems.flatMap((found, i) => found.map((p) => `${files[i]}:${p.range.start.line + 1} ${p.message}`))).toEqual([]);
  });

  it('completes the keys of a rule', async () => {
    const file = path.join(EXAMPLE, 'playbooks', 'inbound-nda.yaml');
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    // A new rule at the end of the list, its second line being typed.
    const item = lines.find((l) => /^\s*- name:/.test(l))!;
    const indent = item.indexOf('-') + 2;
    lines.push(`${' '.repeat(indent - 2)}- name: New rule`, ' '.repeat(indent));
    const edited = path.join(path.dirname(file), 'completion-rule.yaml');
    await server.open(edited, `${lines.join('\n')}\n`);
    const labels = (await server.complete(edited, lines.length - 1, indent)).map((c) => c.label);
    expect(labels).toEqual(expect.arrayContaining(['description', 'actions', 'questions', 'reviewer', 'generate_summary', 'internal_notes']));
  });
});

describe('completions an editor inserts read back as what they show', () => {
  it('completes a template\'s standard_version quoted ("3.0"), which YAML would read unquoted as the number 3 (probe DJ-6)', async () => {
    const dir = await makeDir({});
    const file = path.join(dir, 'version.yaml');
    await server.open(file, `${modeline(dir, 'template.schema.json')}kind: Template\nname: T\ntype: NDA\nstandard_version: \n`);
    const inserted = (await server.complete(file, 4, 'standard_version: '.length)).map((c) => c.textEdit?.newText ?? c.insertText ?? c.label);
    expect(inserted).toEqual(['"1.0"', '"2.1"', '"3.0"']);
  });
});

describe('completions offer only what validate takes', () => {
  it('a rule\'s generate_summary is offered true and false, never null, which validate refuses (probe GK-6)', async () => {
    const dir = await makeDir({});
    const file = path.join(dir, 'summary.yaml');
    await server.open(file, `${modeline(dir, 'playbook.schema.json')}kind: Playbook\nname: P\nrules:\n  - name: R\n    questions: Q\n    generate_summary: \n`);
    const labels = (await server.complete(file, 6, '    generate_summary: '.length)).map((c) => c.label);
    expect([...labels].sort()).toEqual(['false', 'true']);
  });
});

describe('what validate refuses, the editor flags where a schema can say it', () => {
  it('a date that is on no calendar (February 30, February 29 of a common year) is flagged, in date and date-or-time fields, as validate refuses it', async () => {
    const dir = await makeDir({});
    const template = (type: string, date: string) => `${modeline(dir, 'template.schema.json')}kind: Template\nname: T\ntype: ${type}\nparameters:\n  effective_date: "${date}"\n`;
    const flagged = async (type: string, date: string) => (await server.open(path.join(dir, `${type}-${date.replace(/:/g, '')}.yaml`), template(type, date))).length > 0;
    const dates = ['2027-02-30', '2027-02-29', '2028-02-29', '2000-02-29'];
    const cases: [string, string][] = [...['NDA', 'CSA'].flatMap((type) => dates.map((date): [string, string] => [type, date])), ['CSA', '2027-04-31T10:00:00Z'], ['CSA', '2028-02-29T10:00:00Z']];
    const results = await Promise.all(cases.map(([type, date]) => flagged(type, date)));
    expect(cases.map(([type, date], i) => `${type} ${date} ${results[i]}`)).toEqual([
      ...['NDA', 'CSA'].flatMap((type) => [`${type} 2027-02-30 true`, `${type} 2027-02-29 true`, `${type} 2028-02-29 false`, `${type} 2000-02-29 false`]),
      'CSA 2027-04-31T10:00:00Z true',
      'CSA 2028-02-29T10:00:00Z false',
    ]);
  });

  it('a custom term whose body is only blanks is flagged, as validate refuses it', async () => {
    const dir = await makeDir({});
    const term = (body: string) => `${modeline(dir, 'custom-term.schema.json')}kind: CustomTerm\nname: T\nbody: ${JSON.stringify(body)}\n`;
    const [blank, text] = await Promise.all([server.open(path.join(dir, 'blank.yaml'), term('   ')), server.open(path.join(dir, 'text.yaml'), term(' Terms apply. '))]);
    expect(blank).toEqual([expect.objectContaining({ message: 'The terms are not blank.' })]);
    expect(text).toEqual([]);
  });

  it('an id that is no plain UUID (braces, urn:uuid:) is flagged; one in capitals is not, as docket takes it', async () => {
    const dir = await makeDir({});
    const line = (name: string): string => modeline(dir, name);
    const docket = (id: string) => `${line('docket.schema.json')}version: 1\nreview:\n  organization_id: "${id}"\n`;
    // Each text its own file: the server answers a second open of one file with the first one's problems.
    const pinned = `${line('resource.schema.json')}kind: Playbook\nname: P\nid: urn:uuid:6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f\n`;
    const [braces, capitals, urn] = await Promise.all([
      server.open(path.join(dir, 'braces.yaml'), docket('{6f1c2d3e-8a4b-4c5d-9e6f-7a8b9c0d1e2f}')),
      server.open(path.join(dir, 'capitals.yaml'), docket('6F1C2D3E-8A4B-4C5D-9E6F-7A8B9C0D1E2F')),
      server.open(path.join(dir, 'p.yaml'), pinned),
    ]);
    expect(braces).toHaveLength(1);
    expect(capitals).toEqual([]);
    expect(urn.map((p) => p.range.start.line)).toEqual([3]);
  });

  it('an e-mail address is flagged exactly where validate refuses it (the editor\'s own e-mail rule is not used), in every kind that names one', async () => {
    const dir = await makeDir({});
    const line = (name: string): string => modeline(dir, name);
    const member = (email: string) => `${line('member.schema.json')}kind: Member\nemail: ${JSON.stringify(email)}\n`;
    // Taken by docket, refused by the editor's own rule (a one-letter top-level domain, a digit in it).
    const taken = ['a@b.c', 'x@example.co1'];
    // Refused by docket, taken by the editor's own rule.
    const refused = ['ü@example.com', '"qu"@example.com', 'a@[1.2.3.4]'];
    // Every schema with an e-mail field carries the same pattern (gen-schemas.mjs); one of the others suffices here.
    const elsewhere = `${line('playbook.schema.json')}kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT all\n    reviewer: ü@example.com\n`;
    const [takenProblems, refusedProblems, elsewhereProblems] = await Promise.all([
      Promise.all(taken.map((email, i) => server.open(path.join(dir, `ok${i}.yaml`), member(email)))),
      Promise.all(refused.map((email, i) => server.open(path.join(dir, `bad${i}.yaml`), member(email)))),
      server.open(path.join(dir, 'k0.yaml'), elsewhere),
    ]);
    for (const [i, email] of taken.entries()) expect(takenProblems[i], email).toEqual([]);
    const notAnEmail = [expect.objectContaining({ message: expect.stringContaining('Must be an e-mail address') })];
    for (const [i, email] of refused.entries()) expect(refusedProblems[i], email).toEqual(notAnEmail);
    expect(elsewhereProblems).toEqual(notAnEmail);
  });

  it('a number or a boolean may be one placeholder, not text around one (which never becomes either); text with a format may hold one anywhere', async () => {
    const dir = await makeDir({});
    const line = (name: string): string => modeline(dir, name);
    const rule = (summary: string) => `${line('playbook.schema.json')}kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT all\n    generate_summary: ${summary}\n`;
    const docket = `${line('docket.schema.json')}version: 1\nconcurrency: \${var.n}\nagreements:\n  actor: \${var.user}@acme.example\n`;
    const [whole, quoted, around, docketProblems] = await Promise.all([
      server.open(path.join(dir, 'whole.yaml'), rule('${var.b}')),
      server.open(path.join(dir, 'quoted.yaml'), rule('"${var.b}"')),
      server.open(path.join(dir, 'around.yaml'), rule('"yes ${var.b}"')),
      server.open(path.join(dir, 'docket.yaml'), docket),
    ]);
    expect(whole).toEqual([]);
    expect(quoted).toEqual([]);
    expect(around.map((d) => d.range.start.line)).toEqual([6]);
    expect(docketProblems).toEqual([]);
  });

  it('a variable\'s value may use ${env.X} but not another variable, as validate says invalid-placeholder (probe NS-3)', async () => {
    const dir = await makeDir({});
    const text = `${modeline(dir, 'docket.schema.json')}version: 1\nvars:\n  a: "\${var.b}"\n  b: x\n  c: "\${env.HOME}/x"\n  d: "$\${var.literal}"\n  e: 3\nenvironments:\n  prod:\n    vars:\n      f: "id-\${var.b}"\n`;
    const problems = await server.open(path.join(dir, 'docket.yaml'), text);
    expect(problems.map((d) => [d.range.start.line, d.message])).toEqual([
      [3, "A variable's value may use ${env.NAME}, but not another variable (${var.NAME})."],
      [11, "A variable's value may use ${env.NAME}, but not another variable (${var.NAME})."],
    ]);
  });

  it('a date no calendar has (30 February, month 13) is flagged in a template parameter, as validate refuses it', async () => {
    const dir = await makeDir({});
    const nda = (date: string) => `${modeline(dir, 'templates/nda.schema.json')}effective_date_type: date\neffective_date: ${date}\n`;
    const dates = ['2028-02-29', '2027-02-30', '2027-13-01', '2027-04-31'];
    const problems = await Promise.all(dates.map((date, i) => server.open(path.join(dir, `d${i}.yaml`), nda(date))));
    expect(dates.map((date, i) => [date, problems[i]!.length > 0])).toEqual([['2028-02-29', false], ['2027-02-30', true], ['2027-13-01', true], ['2027-04-31', true]]);
  });

  it('a date-time with a space for its `T` is taken, as validate takes it; one off the clock or without an offset is flagged (probe MG-1)', async () => {
    const dir = await makeDir({});
    const csa = (when: string) => `${modeline(dir, 'templates/csa.schema.json')}effective_date: "${when}"\n`;
    const times = ['2027-01-15 10:00:00Z', '2027-01-15t10:00:00.5+01:00', '2027-01-15T10:00:00+01', '2027-01-15', '2027-01-15T25:00:00Z', '2027-01-15T10:00:00', '2027-01-15Tnoon'];
    const problems = await Promise.all(times.map((when, i) => server.open(path.join(dir, `t${i}.yaml`), csa(when))));
    // Only the line of the value: a CSA has other keys its schema asks for.
    const flagged = problems.map((found) => found.some((d) => d.range.start.line === 1));
    expect(times.map((when, i) => [when, flagged[i]])).toEqual([
      ['2027-01-15 10:00:00Z', false],
      ['2027-01-15t10:00:00.5+01:00', false],
      ['2027-01-15T10:00:00+01', false],
      ['2027-01-15', false],
      ['2027-01-15T25:00:00Z', true],
      ['2027-01-15T10:00:00', true],
      ['2027-01-15Tnoon', true],
    ]);
  });

  it('a placeholder in a typed field of an inline definition is taken, as docket fills it in; in a definition file, which docket publishes as written, it is flagged', async () => {
    const dir = await makeDir({});
    const line = (name: string): string => modeline(dir, name);
    const section = (indent: string) => `${indent}- heading: H\n${indent}  required: \${var.optional}\n${indent}  fields:\n${indent}    notes: { label: Notes, input: "\${var.input}", required: false }\n`;
    const inline = `${line('custom-template.schema.json')}kind: CustomTemplate\nname: C\ndefinition:\n  title: T\n  sections:\n${section('    ')}`;
    const file = `${line('custom-template-definition.schema.json')}title: T\nsections:\n${section('  ')}`;
    const [inlineProblems, fileProblems] = await Promise.all([server.open(path.join(dir, 'inline.yaml'), inline), server.open(path.join(dir, 'c.cover.yaml'), file)]);
    expect(inlineProblems).toEqual([]);
    expect(fileProblems.map((d) => d.range.start.line)).toEqual([4, 6]);
  });

  it('a merge key (`<<`) where keys are names (variables, an inline definition\'s fields) is taken, as validate takes it; in a definition file, which validate refuses it in, it is flagged (probe HF)', async () => {
    const dir = await makeDir({});
    const line = (name: string): string => modeline(dir, name);
    const docket = `${line('docket.schema.json')}version: 1\nvars: &shared\n  lead: a@b.example\nenvironments:\n  staging:\n    vars:\n      <<: *shared\n      region: eu\n`;
    const fields = (indent: string) => `${indent}fields:\n${indent}  <<: { start_date: { label: Start, input: date } }\n${indent}  summary: { label: Summary, input: textarea }\n`;
    const inline = `${line('custom-template.schema.json')}kind: CustomTemplate\nname: C\ndefinition:\n  title: T\n  sections:\n    - heading: H\n${fields('      ')}`;
    const file = `${line('custom-template-definition.schema.json')}title: T\nsections:\n  - heading: H\n${fields('    ')}`;
    const [docketProblems, inlineProblems, fileProblems] = await Promise.all([server.open(path.join(dir, 'docket.yaml'), docket), server.open(path.join(dir, 'inline.yaml'), inline), server.open(path.join(dir, 'c.cover.yaml'), file)]);
    expect(docketProblems).toEqual([]);
    expect(inlineProblems).toEqual([]);
    expect(fileProblems.map((d) => d.range.start.line)).toEqual([5]);
  });

  it('hover shows a field\'s own text, also where its value is a placeholder or a URL (not that of the form it takes) (probe HF)', async () => {
    const dir = await makeDir({});
    const line = (name: string): string => modeline(dir, name);
    const docket = path.join(dir, 'docket.yaml');
    await server.open(docket, `${line('docket.schema.json')}version: 1\nreview:\n  url: http://127.0.0.2:8080\nagreements:\n  url: \${env.AGREEMENTS}\n`);
    expect(await server.hover(docket, 3, 4)).toContain('DOCKET\\_REVIEW\\_URL takes precedence');
    expect(await server.hover(docket, 5, 4)).toContain('DOCKET_AGREEMENTS_URL takes precedence');
    const organization = path.join(dir, 'organization.yaml');
    await server.open(organization, `${line('organization.schema.json')}kind: Organization\nreview:\n  default_reviewer: \${var.lead}\n`);
    expect(await server.hover(organization, 3, 4)).toContain('null is refused while one is set');
  });

  it('a service URL docket refuses is flagged: plain http to a remote host, credentials, a query; https and loopback http are not', async () => {
    const dir = await makeDir({});
    const line = modeline(dir, 'docket.schema.json');
    const problemsOf = async (name: string, url: string) => (await server.open(path.join(dir, `${name}.yaml`), `${line}version: 1\nreview:\n  url: ${url}\n`)).length;
    const refused = [['remote-http', 'http://api.example.com'], ['credentials', 'https://me:pw@api.example.com'], ['query', 'https://api.example.com/?key=x'], ['fragment', 'https://api.example.com/#x'],
      // What a URI holds only escaped, and letters past ASCII (probe IT-3).
      ['braces', '"https://api.example.com/{x}"'], ['pipe', '"https://api.example.com/a|b"'], ['accent', 'https://api.example.com/é'], ['idn', 'https://bücher.example'], ['emoji', 'https://api.example.com/😀']];
    const taken = [['https', 'https://api.gerri.commonpaper.com'], ['https-path', 'https://proxy.example.com:8443/review/'], ['loopback', 'http://127.0.0.1:4010/review'], ['localhost', 'http://localhost:4010'], ['capitals', 'http://LOCALHOST:4010'], ['ipv6', 'http://[::1]:4010'], ['escaped', 'https://api.example.com/a%C3%A9']];
    const counts = await Promise.all([...refused, ...taken].map(([name, url]) => problemsOf(name!, url!)));
    expect([...refused, ...taken].map(([, url], i) => [url, counts[i]! > 0])).toEqual([...refused.map(([, url]) => [url, true]), ...taken.map(([, url]) => [url, false])]);
    // Where the URL parser docket uses reads a URL otherwise than it looks, the editor agrees with
    // validate (which refuses the port and the backslash, and takes the others).
    const cases: [string, string, boolean][] = [
      ['port', 'https://api.example.com:70000', false],
      ['backslash', 'https://api.example.com\\evil', false],
      // An empty query or fragment is refused as any is (probes WK, XB-3).
      ['empty-query', 'https://api.example.com/?', false],
      ['empty-fragment', 'https://api.example.com/v1#', false],
      ['ipv6-long', 'http://[0:0:0:0:0:0:0:1]:4010/review', true],
      ['ipv6-short', 'http://[0:1]:4010/review', false],
      ['port-zero', 'https://api.example.com:0', false],
      ['port-zeros', 'http://localhost:00/', false],
      ['port-leading-zero', 'https://api.example.com:08443', true],
      ['octet-over', 'http://127.0.0.999:4010', false],
      ['octet-not-octal', 'http://127.0.0.08:4010', false],
      // The parser reads 010 as octal (8): refused, as docket refuses it (probe GA).
      ['octet-octal', 'http://127.0.0.010:4010', false],
      ['three-slashes', 'https:///api.example.com', false],
      ['https-ipv4', 'https://10.0.0.3:8443/x', true],
      ['https-octet-over', 'https://10.0.0.300/x', false],
      ['https-five-parts', 'https://1.2.3.4.5/', false],
      ['https-numeric-label', 'https://example.123/', false],
    ];
    // One file, an environment per case (one server round trip, not sixteen): each URL on its own line.
    const environments = cases.map(([name, url]) => `  ${name}:\n    review: { url: ${JSON.stringify(url)} }`).join('\n');
    const flaggedLines = new Set((await server.open(path.join(dir, 'cases.yaml'), `${line}version: 1\nenvironments:\n${environments}\n`)).map((p) => p.range.start.line));
    // The modeline, `version`, `environments:`, then two lines per case: its URL on the second.
    expect(cases.map(([, url], i) => [url, !flaggedLines.has(4 + 2 * i)])).toEqual(cases.map(([, url, taken]) => [url, taken]));
  });

  it('a rule without actions is flagged unless it only summarises (questions, generate_summary not false), as docket says missing-actions', async () => {
    const dir = await makeDir({});
    const line = modeline(dir, 'playbook.schema.json');
    // One document, a rule per case (one server round trip, not seven).
    const rules: [string, string, boolean][] = [
      ['nothing', '    description: d', true],
      ['no-summary', '    questions: q\n    generate_summary: false', true],
      ['blank-actions', '    actions: "  "', true],
      ['actions', '    actions: ACCEPT', false],
      ['summary', '    questions: q', false],
      ['summary-placeholder', '    questions: q\n    generate_summary: ${var.g}', false],
      ['actions-placeholder', '    actions: ${var.a}\n    generate_summary: false', false],
    ];
    let text = `${line}kind: Playbook\nname: P\nrules:\n`;
    const lineOf = new Map<number, string>();
    for (const [name, body] of rules) {
      lineOf.set(text.split('\n').length - 1, name);
      text += `  - name: ${name}\n${body}\n`;
    }
    // Each problem is told at the rule it is in (at the rule, or at the value that is wrong).
    const ruleAt = (at: number): string | undefined => [...lineOf].filter(([start]) => start <= at).at(-1)?.[1];
    const problems = await server.open(path.join(dir, 'rules.yaml'), text);
    const flagged = new Set(problems.map((p) => ruleAt(p.range.start.line)));
    expect([...flagged].sort()).toEqual(rules.filter(([, , bad]) => bad).map(([name]) => name).sort());
    // Said in words, not as "Matches a schema that is not allowed" (probe IT-4).
    expect(problems.filter((p) => ruleAt(p.range.start.line) === 'no-summary').map((p) => p.message)).toEqual(['A rule without actions must only summarise: give it actions, or leave generate_summary true (with questions).']);
  });

  it('custom terms with none or two of body, body_file and docx_file are flagged, as are custom templates with none or both definitions', async () => {
    const dir = await makeDir({});
    const line = modeline(dir, 'resource.schema.json');
    const problemsOf = async (name: string, text: string) => (await server.open(path.join(dir, `${name}.yaml`), `${line}${text}`)).length;
    const cases: [string, string, boolean][] = [
      ['none', 'kind: CustomTerm\nname: T\n', true],
      ['two', 'kind: CustomTerm\nname: T\nbody: text\nbody_file: t.md\n', true],
      ['one', 'kind: CustomTerm\nname: T\nbody_file: t.md\n', false],
      ['no-definition', 'kind: CustomTemplate\nname: C\n', true],
      ['both-definitions', 'kind: CustomTemplate\nname: C\ndefinition: {}\ndefinition_file: c.cover.yaml\n', true],
      ['a-definition', 'kind: CustomTemplate\nname: C\ndefinition_file: c.cover.yaml\n', false],
    ];
    const counts = await Promise.all(cases.map(([name, text]) => problemsOf(name, text)));
    expect(cases.map(([name], i) => [name, counts[i]! > 0])).toEqual(cases.map(([name, , flagged]) => [name, flagged]));
    // None is said in docket's words, not as "Missing property "body"", one of three it might mean (probe IT-5).
    const none = await server.open(path.join(dir, 'none-said.yaml'), `${line}kind: CustomTerm\nname: T\n`);
    expect(none.map((d) => d.message)).toEqual(['A custom term needs exactly one of body, body_file or docx_file.']);
    const noDefinition = await server.open(path.join(dir, 'no-definition-said.yaml'), `${line}kind: CustomTemplate\nname: C\n`);
    expect(noDefinition.map((d) => d.message)).toEqual(['A custom template needs exactly one of definition or definition_file.']);
  });

  it('a name longer than 200 characters is flagged, in every kind that has one (docket says name-too-long)', async () => {
    const dir = await makeDir({});
    const line = modeline(dir, 'resource.schema.json');
    const long = 'N'.repeat(201);
    const documents = {
      playbook: `kind: Playbook\nname: ${long}\n`,
      rule: `kind: Playbook\nname: P\nrules:\n  - name: ${long}\n    actions: A\n`,
      term: `kind: CustomTerm\nname: ${long}\nbody: text\n`,
      customTemplate: `kind: CustomTemplate\nname: ${long}\ndefinition: {}\n`,
      template: `kind: Template\nname: ${long}\ntype: nda\n`,
      attachment: `kind: Attachment\nname: ${long}\nfile: a.pdf\n`,
      member: `kind: Member\nemail: a@acme.example\nname: ${long}\n`,
      organization: `kind: Organization\nreview:\n  name: ${long}\nagreements:\n  name: ${long}\n`,
    };
    const messagesOf = async (file: string, text: string) => (await server.open(path.join(dir, `${file}.yaml`), `${line}${text}`)).map((p) => p.message);
    const named = Object.entries(documents);
    const nameRule = 'A name is one line of text without control characters, not blank, and at most 200 characters (an emoji counts as one).';
    const [tooLong, ok, emoji, emojiLong, spaces, zeroWidth, tab, lineBreak, bell, nextLine] = await Promise.all([
      Promise.all(named.map(([name, text]) => messagesOf(name, text))),
      // 200 characters is a name, counted as docket counts them: an emoji is one.
      messagesOf('ok', `kind: Playbook\nname: ${'N'.repeat(200)}\n`),
      messagesOf('emoji', `kind: Member\nemail: a@acme.example\nname: ${'😀'.repeat(200)}\n`),
      messagesOf('emoji-long', `kind: Member\nemail: a@acme.example\nname: ${'😀'.repeat(201)}\n`),
      // Blank, as docket's blank-name says: spaces, or characters that show as nothing.
      messagesOf('spaces', 'kind: Playbook\nname: "   "\n'),
      messagesOf('zero-width', 'kind: Playbook\nname: "\\u200b"\n'),
      // Not one line, or a control character, as docket's control-character says (probe IP).
      messagesOf('tab', 'kind: Playbook\nname: "a\\tb"\n'),
      messagesOf('line-break', 'kind: Playbook\nname: "a\\nb"\n'),
      messagesOf('bell', 'kind: Playbook\nname: "a\\u0007b"\n'),
      messagesOf('next-line', 'kind: Playbook\nname: "a\\u0085b"\n'),
    ]);
    for (const [i, [name]] of named.entries()) expect(tooLong[i]!.filter((m) => /200|long/i.test(m)), name).toHaveLength(name === 'organization' ? 2 : 1);
    expect([ok, emoji, emojiLong, spaces, zeroWidth, tab, lineBreak, bell, nextLine]).toEqual([[], [], [nameRule], [nameRule], [nameRule], [nameRule], [nameRule], [nameRule], [nameRule]]);
  });

  it('former names and references to terms and attachments are one line, as docket\'s control-character has them (second read SR67-17)', async () => {
    const dir = await makeDir({});
    const line = modeline(dir, 'resource.schema.json');
    const messagesOf = async (file: string, text: string) => (await server.open(path.join(dir, `${file}.yaml`), `${line}${text}`)).map((p) => p.message);
    const oneLine = 'One line of text, without tabs, line breaks or control characters.';
    const former = 'A former name is one line of text without control characters, and not blank.';
    const [formerName, formerRule, term, attachment, referenced, formerOfTerm, placeholder, plain, blank] = await Promise.all([
      messagesOf('former', 'kind: Playbook\nname: P\nrenamed_from: "Old\\nName"\n'),
      messagesOf('former-rule', 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: A\n    renamed_from: ["Old\\tRule"]\n'),
      messagesOf('term', 'kind: CustomTemplate\nname: T\ndefinition_file: c.yaml\ncustom_term: "Terms\\u0007"\n'),
      messagesOf('attachment', 'kind: Template\nname: T\ntype: NDA\nattachments: ["Exhibit\\nA"]\n'),
      // And an attachment a parameter names (probe PV-5).
      messagesOf('referenced', 'kind: Template\nname: T\ntype: CSA\nparameters:\n  include_dpa_type: attachment\n  include_dpa_attachment_id: { attachment: "Sec\\tExhibit" }\n'),
      messagesOf('former-term', 'kind: CustomTerm\nname: T\nbody: text\nrenamed_from: "Old\\u2028Terms"\n'),
      // A placeholder is one line, and matches one alternative only (custom templates list them with oneOf).
      messagesOf('placeholder', 'kind: CustomTemplate\nname: T\ndefinition_file: c.yaml\nrenamed_from: "${var.old}"\ncustom_term: "${var.terms}"\n'),
      messagesOf('plain', 'kind: Template\nname: T\ntype: NDA\nrenamed_from: [Old T]\nattachments: [Exhibit A]\n'),
      // A blank former name, as docket's blank-name (probe NS-1).
      messagesOf('blank', 'kind: Playbook\nname: P\nrenamed_from: ["   "]\nrules:\n  - name: R\n    actions: A\n    renamed_from: "\\u200b"\n'),
    ]);
    for (const found of [term, attachment, referenced]) expect(found).toContain(oneLine);
    for (const found of [formerName, formerRule, formerOfTerm]) expect(found).toContain(former);
    expect(blank).toEqual([former, former]);
    expect([placeholder, plain]).toEqual([[], []]);
  });
});

describe('the umbrella schema (one glob for a whole configuration)', () => {
  it('checks each document against its kind, and leaves documents without a kind alone', async () => {
    const dir = await makeDir({});
    const schema = path.relative(dir, path.join(schemasDir(), 'resource.schema.json')).split(path.sep).join('/');
    const line = `# yaml-language-server: $schema=${schema}\n`;
    const playbook = readFileSync(path.join(EXAMPLE, 'playbooks', 'inbound-nda.yaml'), 'utf8').replace(/^# yaml-language-server:[^\n]*\n/, line);
    const broken = `${line}kind: Member\nemail: bob@acme.example\nnmae: Bob\n`;
    const data = `${line}title: a definition file, no kind\n`;
    const [nda, bob, noKind] = await Promise.all([server.open(path.join(dir, 'nda.yaml'), playbook), server.open(path.join(dir, 'bob.yaml'), broken), server.open(path.join(dir, 'data.yaml'), data)]);
    expect(nda.map((p) => p.message)).toEqual([]);
    expect(bob.map((p) => p.message)).toEqual([expect.stringMatching(/nmae/)]);
    expect(noKind.map((p) => p.message)).toEqual([]);
  });

  it('offers a Playbook or a Template only its own keys, not those of the test kinds their names start', async () => {
    const dir = await makeDir({});
    const line = modeline(dir, 'resource.schema.json');
    const labelsOf = async (kind: string): Promise<string[]> => {
      const file = path.join(dir, `${kind}.yaml`);
      await server.open(file, `${line}kind: ${kind}\nname: N\n\n`);
      return (await server.complete(file, 3, 0)).map((c) => c.label);
    };
    const [playbook, template] = await Promise.all([labelsOf('Playbook'), labelsOf('Template')]);
    expect(playbook).toContain('rules');
    expect(playbook).not.toEqual(expect.arrayContaining(['cases']));
    expect(template).toContain('parameters');
    expect(template).not.toEqual(expect.arrayContaining(['cases']));
  });
});

describe('the README\'s yaml.schemas setting for a whole configuration', () => {
  const readme = readFileSync(path.join(schemasDir(), '..', 'README.md'), 'utf8');
  const block = /one setting for the whole configuration[\s\S]*?```json\n([\s\S]*?)```/.exec(readme)?.[1];
  const strip = (text: string) => text.replace(/^# yaml-language-server:[^\n]*\n/, '');

  it('checks each file by the schema docket reads it with: test kinds only in *.test.yaml, docket.yaml and definition files by their own', async () => {
    if (block === undefined) throw new Error('README.md has no yaml.schemas example');
    const schemas = (JSON.parse(block.replace(/^ {2}/gm, '')) as { 'yaml.schemas': Record<string, string[]> })['yaml.schemas'];
    // A repository with docket installed, and its configuration in config/.
    const repo = await makeDir({});
    await mkdir(path.join(repo, 'node_modules'), { recursive: true });
    await symlink(path.join(schemasDir(), '..'), path.join(repo, 'node_modules', 'docket'), 'dir');
    const settingsServer = await YamlLanguageServer.start(repo, schemas);
    try {
      const at = (file: string) => path.join(repo, 'config', file);
      const example = (file: string) => strip(readFileSync(path.join(EXAMPLE, file), 'utf8'));
      const messages = async (file: string, text: string) => (await settingsServer.open(at(file), text)).map((d) => `${d.range.start.line + 1}: ${d.message}`);
      const test = example('tests/inbound-nda.test.yaml');
      const [taken, listed, testOutside, playbookInside] = await Promise.all([
        // What validate takes, the editor takes.
        Promise.all([
          messages('docket.yaml', example('docket.yaml')),
          messages('playbooks/inbound-nda.yaml', example('playbooks/inbound-nda.yaml')),
          messages('tests/inbound-nda.test.yaml', test),
          messages('tests/inbound-nda.test.yml', test),
          messages('custom-templates/consulting.cover.yaml', example('custom-templates/consulting.cover.yaml')),
          // An empty document (a trailing `---`, one of comments only), which docket skips.
          messages('members.yaml', 'kind: Member\nemail: a@b.example\n---\n# more to come\n'),
        ]),
        // A list is one problem, not one per kind.
        messages('listed.yaml', '- kind: Member\n  email: a@b.example\n'),
        // What validate refuses, the editor flags: a test kind outside a test file, a resource kind in one.
        messages('tests/regress.yaml', test),
        messages('tests/playbook.test.yaml', example('playbooks/inbound-nda.yaml')),
        settingsServer.open(at('tests/new.test.yaml'), 'kind: PlaybookTest\nplaybook: Inbound NDA\ndefaults:\n  \ncases: []\n'),
        settingsServer.open(at('docket.yml'), 'version: 1\n\n'),
      ]);
      expect(taken).toEqual([[], [], [], [], [], []]);
      expect(listed).toHaveLength(1);
      expect(testOutside).toEqual([expect.stringMatching(/^\d+: Value is not accepted/)]);
      expect(playbookInside).not.toEqual([]);
      // A blank case name, or one holding a tab, is flagged as validate refuses it (probe JM-2); a name validate takes is not.
      for (const name of ['"  "', '"a\\tb"']) expect(await messages('tests/blank.test.yaml', test.replace(/- name: .*/, `- name: ${name}`))).toEqual([expect.stringContaining('A case name is one line of text without control characters, and not blank')]);
      expect(await messages('tests/fine.test.yaml', test.replace(/- name: .*/, '- name: "Caf\u00e9 \u2014 a case"'))).toEqual([]);
      // Completing a test's defaults offers the defaults docket uses: `repeat: 1` (0 is refused), `pass_rate: 1`.
      const offered = await settingsServer.complete(at('tests/new.test.yaml'), 3, 2);
      const inserted = (label: string) => offered.find((c) => c.label === label)?.insertText;
      expect([inserted('repeat'), inserted('pass_rate')]).toEqual([expect.stringMatching(/^repeat: \$\{1:1\}/), expect.stringMatching(/^pass_rate: \$\{1:1\}/)]);
      // docket.yaml is offered no `kind`: no resource schema applies to it.
      const labels = (await settingsServer.complete(at('docket.yml'), 1, 0)).map((c) => c.label);
      expect(labels).toContain('environments');
      expect(labels).not.toContain('kind');
    } finally {
      await settingsServer.stop();
    }
  });
});

describe('parameters of every standard template type in yaml-language-server', () => {
  let dir: string;
  const fileOf = (type: string) => path.join(dir, 'templates', `${type.replace(/\W/g, '-')}.yaml`);
  /** Each type's file, opened at once (the server answers each open after a pause, whatever else is open). */
  const problemsOf = new Map<string, Promise<string[]>>();
  beforeAll(async () => {
    dir = await makeDir({});
    const schema = path.relative(path.join(dir, 'templates'), path.join(schemasDir(), 'template.schema.json')).split(path.sep).join('/');
    for (const { type } of TEMPLATE_TYPES) {
      // A parameter written, the next one being typed.
      const text = `# yaml-language-server: $schema=${schema}\nkind: Template\nname: Example\ntype: ${type}\nparameters:\n  governing_law_region: California\n  \n`;
      await writeFiles(dir, { [path.relative(dir, fileOf(type))]: text });
      problemsOf.set(type, server.open(fileOf(type), text).then((problems) => problems.map((p) => p.message)));
    }
  });

  it.each(TEMPLATE_TYPES.map((t) => t.type))('%s: completions inside `parameters:`, and no problem', async (type) => {
    const file = fileOf(type);
    expect(await problemsOf.get(type)).toEqual([]);
    const labels = (await server.complete(file, 6, 2)).map((c) => c.label);
    const own = TEMPLATE_TYPES.find((t) => t.type === type)!;
    // Offered: the type's own parameters (its nested objects among them), not the one already written.
    expect(labels.length, type).toBeGreaterThan(5);
    expect(labels).not.toContain('governing_law_region');
    // Nor what docket refuses in `parameters:` (the name is top-level, attachments in `attachments:`).
    expect(labels).not.toContain('name');
    expect(labels).not.toContain('attachment_ids');
    for (const nested of own.nested ?? []) expect(labels, `${type} ${nested}`).toContain(nested);
  });

  it('completes inside a nested object (the CSA order form)', async () => {
    const schema = path.relative(path.join(dir, 'templates'), path.join(schemasDir(), 'template.schema.json')).split(path.sep).join('/');
    const text = `# yaml-language-server: $schema=${schema}\nkind: Template\nname: Order form\ntype: CSA\nparameters:\n  template_csa_order_form_attributes:\n    cloud_service_description: Hosted analytics\n    fees_currency: EUR\n    \n`;
    const file = path.join(dir, 'templates', 'order-form.yaml');
    await writeFiles(dir, { 'templates/order-form.yaml': text });
    expect((await server.open(file, text)).map((p) => p.message)).toEqual([]);
    const labels = (await server.complete(file, 8, 4)).map((c) => c.label);
    expect(labels.length).toBeGreaterThan(5);
    expect(labels).not.toContain('fees_currency');
  });
});
