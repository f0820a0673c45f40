/**
 * `docket test` given what a careless user gives it: a broken test file, FILES that name no test
 * file, a contract linked from outside the directory, a JUnit path it cannot write. Each is a
 * clear error (exit 1) before any request, and --target contacts only the service it needs.
 */
import { cp, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';

const EXAMPLE = fileURLToPath(new URL('../../examples/acme-legal', import.meta.url));

afterAll(removeMadeDirs);

async function example(): Promise<string> {
  const dir = await makeDir({});
  await cp(EXAMPLE, dir, { recursive: true });
  return dir;
}

describe('docket test with broken inputs', () => {
  it('refuses a test file that is not UTF-8, a control character, and a contract linked from outside the directory', async () => {
    const dir = await example();
    const elsewhere = await makeDir({ 'secret.docx': 'not for upload' });
    await symlink(join(elsewhere, 'secret.docx'), join(dir, 'tests/fixtures/linked.docx'));
    const playbookTest = (name: string, file: string) => ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', `  - name: ${name}`, `    contract: { file: ${file} }`, '    expect: { flags: { count: 0 } }', ''].join('\n');
    await writeFile(join(dir, 'tests/linked.test.yaml'), playbookTest('linked', 'fixtures/linked.docx'));
    await writeFile(join(dir, 'tests/bell.test.yaml'), playbookTest('"bell\\u0007"', 'fixtures/nda-standard.docx'));
    await writeFile(join(dir, 'tests/latin1.test.yaml'), Buffer.from(playbookTest('caf\u00e9', 'fixtures/nda-standard.docx'), 'latin1'));
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/latin1.test.yaml:4:14 error invalid-utf8 tests/latin1.test.yaml is not valid UTF-8');
    expect(r.stderr).toContain('tests/bell.test.yaml:4:11 error control-character `cases[0].name` holds the control character U+0007: "bell\\u0007"');
    expect(r.stderr).toMatch(/tests\/linked\.test\.yaml:5:23 error file-outside-config contract file "fixtures\/linked\.docx" is a link to ".*secret\.docx", which is outside the configuration directory/);
  });
});
