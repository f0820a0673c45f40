/** Invalid definitions, parameters and file references fail `validate` at their file:line, with exit 1. */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { AGREEMENTS_DOCKET_YAML, CUSTOM_TEMPLATE_YAML, DEFINITION, TERM_MD, docx } from './agreements-fixtures.js';

afterAll(removeMadeDirs);

it('reports every agreements-kind problem in one run, each at its file:line:col', async () => {
  const dir = await makeDir({
    'docket.yaml': AGREEMENTS_DOCKET_YAML,
    'terms/consulting.yaml': 'kind: CustomTerm\nname: Consulting Terms\nbody_file: consulting.md\n',
    'terms/consulting.md': TERM_MD,
    'terms/both.yaml': 'kind: CustomTerm\nname: Both\nbody: Some terms.\ndocx_file: both.docx\n',
    'terms/missing.yaml': 'kind: CustomTerm\nname: Missing\nbody_file: nowhere.md\n',
    'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML,
    'templates/consulting.cover.yaml': DEFINITION.replace('        options: ["Fixed fee", "Time and materials"]\n', '').replace('input: date', 'input: datum'),
    'templates/nda.yaml': 'kind: Template\nname: Mutual NDA\ntype: NDA\nparameters:\n  term: 2\n  purpos: Evaluation\n',
    'templates/csa.yaml': 'kind: Template\nname: CSA\ntype: CSA\nstandard_version: "3.0"\nparameters:\n  include_increased_cap_amount: true\n',
    'attachments/a.yaml': 'kind: Attachment\nname: Exhibit\nfile: exhibit.pdf\n',
  });
  await writeFile(join(dir, 'attachments/exhibit.pdf'), 'not a pdf at all');
  const result = await runCli(['validate', '-C', dir]);
  expect(result.code).toBe(1);
  const lines = result.stderr.split('\n').filter((l) => / error /.test(l));
  const at = (prefix: string) => lines.find((l) => l.startsWith(prefix)) ?? `(nothing at ${prefix})`;
  expect(at('terms/both.yaml:4:1 error term-content')).toContain('exactly one of');
  expect(at('terms/missing.yaml:3:12 error missing-file')).toContain('nowhere.md');
  expect(at('templates/consulting.cover.yaml:10:7 error missing-field')).toContain('options');
  expect(at('templates/consulting.cover.yaml:16:16 error invalid-value')).toContain('must be one of');
  expect(at('templates/nda.yaml:6:3 error unknown-key')).toContain('did you mean `purpose`');
  expect(at('templates/csa.yaml:6:3 error csa-version-naming')).toContain('include_supercap');
  expect(at('attachments/a.yaml:3:7 error not-a-pdf')).toContain('exhibit.pdf');
});

it('needs agreements.actor for term and template writes', async () => {
  const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'terms/t.yaml': 'kind: CustomTerm\nname: T\nbody: Terms.\n' });
  const result = await runCli(['validate', '-C', dir]);
  expect(result.code).toBe(1);
  expect(result.stderr).toContain('terms/t.yaml:1:1 error missing-actor');
  // Set by every environment, none selected: says so, and that --env selects one (probe OJ-4).
  const environments = 'version: 1\nenvironments:\n  staging:\n    agreements:\n      actor: legal@acme.example\n  production:\n    agreements:\n      actor: legal@acme.example\n';
  await writeFile(join(dir, 'docket.yaml'), environments);
  const unselected = await runCli(['validate', '-C', dir]);
  expect(unselected.stderr).toContain('terms/t.yaml:1:1 error missing-actor custom term writes need `agreements.actor`, which docket.yaml sets only in environments `staging`, `production`, and no --env selects one\n  hint: select one with --env, or set agreements.actor at the top level too');
  expect((await runCli(['validate', '-C', dir, '--env', 'staging'])).code).toBe(0);
  // One that sets it blank (refused on its own) is none to select (second read SR80B-4).
  await writeFile(join(dir, 'docket.yaml'), environments.replace('  production:\n    agreements:\n      actor: legal@acme.example\n', '  production:\n    agreements:\n      actor: ""\n'));
  expect((await runCli(['validate', '-C', dir])).stderr).toContain('which docket.yaml sets only in environment `staging`, and no --env selects one');
});

it('an agreements section written blank under an environment is one error, not also "actor not set" at every term', async () => {
  const dir = await makeDir({
    'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\nenvironments:\n  staging:\n    agreements:\n',
    'terms/t.yaml': 'kind: CustomTerm\nname: T\nbody: Terms.\n',
  });
  const result = await runCli(['validate', '-C', dir, '--env', 'staging']);
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n').filter((l) => / error /.test(l))).toEqual([expect.stringMatching(/^docket\.yaml:6:\d+ error invalid-value `agreements` /)]);
});

it.each(['""', '', 'null', '[]'])('an actor written blank (%s) is one error, at docket.yaml, not also "not set" at every term, template and test', async (blank) => {
  const dir = await makeDir({
    'docket.yaml': `version: 1\nagreements:\n  actor: ${blank}\n`,
    'terms/t.yaml': 'kind: CustomTerm\nname: T\nbody: Terms.\n',
    'templates/nda.yaml': 'kind: Template\nname: Mutual NDA\ntype: NDA\n',
    'tests/nda.test.yaml': 'kind: TemplateTest\ntemplate: Mutual NDA\ncases:\n  - name: accepted\n    values: { recipient_name: Ann }\n    expect: accepted\n',
  });
  const result = await runCli(['validate', '-C', dir]);
  expect(result.code).toBe(1);
  const errors = result.stderr.split('\n').filter((l) => / error /.test(l));
  expect(errors).toEqual([expect.stringMatching(/^docket\.yaml:3:\d+ error invalid-value `actor` /)]);
});

it('checks a definition file with a key written twice, as a resource file is: its other problems in the same run', async () => {
  const dir = await makeDir({
    'docket.yaml': AGREEMENTS_DOCKET_YAML,
    'terms/consulting.yaml': 'kind: CustomTerm\nname: Consulting Terms\nbody_file: consulting.md\n',
    'terms/consulting.md': TERM_MD,
    'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML,
    'templates/consulting.cover.yaml': DEFINITION.replace('terms_label: Statement of Work\n', 'terms_label: Statement of Work\ntitle: Again\n').replace('input: date', 'input: datum'),
  });
  const result = await runCli(['validate', '-C', dir]);
  expect(result.code).toBe(1);
  const errors = result.stderr.split('\n').filter((l) => / error /.test(l));
  expect(errors).toEqual([
    expect.stringMatching(/^templates\/consulting\.cover\.yaml:3:1 error duplicate-key /),
    expect.stringMatching(/^templates\/consulting\.cover\.yaml:18:16 error invalid-value .*"datum"/),
  ]);
});

it("says a template's name written inside its parameters once, with where the name goes", async () => {
  const dir = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'templates/n.yaml': 'kind: Template\nname: N\ntype: NDA\nparameters:\n  name: Other name\n  term: 2\n' });
  const result = await runCli(['validate', '-C', dir]);
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n').filter((l) => / error /.test(l))).toEqual(['templates/n.yaml:5:9 error invalid-value `name` is not allowed here (got "Other name")']);
  expect(result.stderr).toContain("the template's display name is the document's own `name:`");
});

it('quotes a wrong value of an inline definition as written, as for a definition file: `0x10`, not 16', async () => {
  const dir = await makeDir({
    'docket.yaml': AGREEMENTS_DOCKET_YAML,
    'templates/a.yaml': 'kind: CustomTemplate\nname: CT\ndefinition:\n  title: 0x10\n  sections:\n    - heading: 1e3\n      fields:\n        f1: { label: Fee, input: text }\n',
  });
  const result = await runCli(['validate', '-C', dir]);
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n').filter((l) => / error /.test(l))).toEqual([
    'templates/a.yaml:4:10 error invalid-value `title` must be a string, not an integer (written "0x10", which YAML reads as 16)',
    'templates/a.yaml:6:16 error invalid-value `heading` must be a string, not an integer (written "1e3", which YAML reads as 1000)',
  ]);
});

it('takes a definition file and a Word file named in any letter case, as it reads *.YAML files', async () => {
  const dir = await makeDir({
    'docket.yaml': AGREEMENTS_DOCKET_YAML,
    'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML.replace(/definition_file: \S+/, 'definition_file: CONSULTING.COVER.YAML'),
    'templates/CONSULTING.COVER.YAML': DEFINITION,
    'terms/consulting.yaml': 'kind: CustomTerm\nname: Consulting Terms\ndocx_file: TERMS.DOCX\n',
    'terms/TERMS.DOCX': docx('terms'),
  });
  const result = await runCli(['validate', '-C', dir]);
  expect([result.code, result.stderr]).toEqual([0, '']);
  expect(result.stdout).toContain('The configuration is valid: 2 resources.');
});

it('says a placeholder no variable fills in an inline definition once, as undefined, not also as the wrong type of value (probe RM-1)', async () => {
  const dir = await makeDir({
    'docket.yaml': `${AGREEMENTS_DOCKET_YAML}vars:\n  label: Rate\n`,
    'templates/c.yaml': [
      'kind: CustomTemplate',
      'name: Consulting',
      'definition:',
      '  title: ${var.title}',
      '  sections:',
      '    - heading: Engagement',
      '      fields:',
      '        rate:',
      '          label: ${var.label}',
      '          input: number',
      '          required: ${var.required}',
      '          default: ${var.rate}',
      '        kind:',
      '          label: Kind',
      '          input: "${var.inp}"',
      '        fee:',
      '          label: Fee',
      '          input: number',
      '          default: "ten"',
      '',
    ].join('\n'),
  });
  const result = await runCli(['validate', '-C', dir]);
  expect(result.code).toBe(1);
  expect(result.stderr.split('\n').filter((l) => / error /.test(l))).toEqual([
    'templates/c.yaml:4:10 error undefined-variable undefined variable `var.title`',
    'templates/c.yaml:11:21 error undefined-variable undefined variable `var.required`',
    'templates/c.yaml:12:20 error undefined-variable undefined variable `var.rate`',
    'templates/c.yaml:15:19 error undefined-variable undefined variable `var.inp`',
    // A value written as it is is still judged.
    'templates/c.yaml:19:20 error invalid-default the default of a `number` field must be a number, not "ten"',
  ]);
});
