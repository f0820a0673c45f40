import { existsSync } from 'node:fs';
/**
 * `docket test` given what a careless user gives it: a broken test file, FILES that name no test
 * file, a contract linked from outside the directory, a JUnit path it cannot write. Each is a
 * clear error (exit 1) before any request, and --target contacts only the service it needs.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { writeZip } from '../../src/emulator/zip.js';
import { access, chmod, copyFile, mkdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { runCli, type CliResult } from '../helpers/cli.js';
import { emulatorForFile } from '../helpers/scenario.js';
import { junitErrors, testReportErrors } from '../helpers/test-reports.js';
import { copyExample, makeDir, removeMadeDirs } from '../helpers/tmpdir.js';

const NDA = 'playbook/Inbound NDA';

afterAll(removeMadeDirs);

const example = copyExample;

const exists = (file: string) => access(file).then(
  () => true,
  () => false,
);

describe('docket test with broken inputs', () => {
  const { emulator: emu } = emulatorForFile({ reviewDelayMs: 20 });
  const requests = () => emu().emulator.stats().requests.total;

  it('a configuration with no test files says it read no service, not that it replayed from the cache', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const before = requests();
    const r = await runCli(['test', '-C', dir], { env: emu().env });
    expect([r.code, r.stdout.split('\n')[0]]).toEqual([0, 'docket test · target: none (no service was read)']);
    expect(requests()).toBe(before);
  });

  it('refuses a template test whose name is both a CustomTemplate and a Template: the cases would run against whichever file came last (probe LR-2)', async () => {
    const dir = await example();
    const standard = await readFile(join(dir, 'templates/mutual-nda.yaml'), 'utf8');
    await writeFile(join(dir, 'templates/mutual-nda.yaml'), standard.replace('name: Mutual NDA', 'name: Consulting Agreement'));
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      'tests/consulting.test.yaml:6:11 error ambiguous-template "Consulting Agreement" names both a CustomTemplate (custom-templates/consulting.yaml:2) and a Template (templates/mutual-nda.yaml:2): the test cannot tell which it is for',
    );
    const run = await runCli(['test', '-C', dir, '--emulator', 'tests/consulting.test.yaml']);
    expect([run.code, run.stderr]).toEqual([1, expect.stringContaining('error ambiguous-template')]);
  });

  it('refuses a test file of more documents than any file holds before parsing it, as a configuration file (second read SR92-5)', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/bomb.test.yaml'), '---\n'.repeat(100_005));
    const r = await runCli(['validate', '-C', dir]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining('tests/bomb.test.yaml:100001:1 error yaml-too-many-documents this file holds more than 100,000 YAML documents')]);
  });

  it('warns when the tested playbook is a new one under the name another playbook is renamed from', async () => {
    const dir = await example();
    const original = await readFile(join(dir, 'playbooks/inbound-nda.yaml'), 'utf8');
    // The playbook the tests were written for is renamed; a new one (here a copy) takes its name.
    await writeFile(join(dir, 'playbooks/renamed.yaml'), original.replace(/^name: Inbound NDA$/m, 'name: Inbound NDAs\nrenamed_from: Inbound NDA'));
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('tests/inbound-nda.test.yaml:5:11 warning test-subject-renamed playbook "Inbound NDAs" is renamed from "Inbound NDA" (renamed_from), and a new playbook takes that name: this test runs against the new one');
    // The run's report carries the warning too: -o json, the annotations, and --fail-on-warn, which fails on it.
    const args = ['test', '-C', dir, '--emulator', 'tests/inbound-nda.test.yaml', '-o', 'json', '--annotations', 'github'];
    const run = await runCli(args);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { ok: boolean; diagnostics?: { code: string; file: string; line: number; path?: string; excerpt?: string }[] };
    expect([json.ok, json.diagnostics?.map((d) => [d.code, d.file, d.line, d.path, d.excerpt])]).toEqual([true, [['test-subject-renamed', 'tests/inbound-nda.test.yaml', 5, 'playbook', 'playbook: Inbound NDA']]]);
    expect(await testReportErrors(json)).toEqual([]);
    expect(run.stderr).toMatch(/::warning file=[^,]*\/tests\/inbound-nda\.test\.yaml,line=5,col=11,title=docket test-subject-renamed::playbook "Inbound NDAs" is renamed from/);
    const strict = await runCli([...args.slice(0, -4), '--fail-on-warn']);
    expect(strict.code).toBe(1);
    expect(strict.stdout).toContain('Failed: --fail-on-warn fails the run on 1 warning of the test files.');
    // With -q the warning that failed the run is still said, as an error is; without --fail-on-warn, -q holds it back (probe ZE-2).
    const quiet = await runCli([...args.slice(0, -4), '--fail-on-warn', '-q']);
    expect([quiet.code, quiet.stderr]).toEqual([1, expect.stringContaining('tests/inbound-nda.test.yaml:5:11 warning test-subject-renamed')]);
    expect((await runCli([...args.slice(0, -4), '-q'])).stderr).not.toContain('test-subject-renamed');
    const strictJson = await runCli([...args.slice(0, -2), '--fail-on-warn']);
    expect(strictJson.code).toBe(1);
    const strictDoc = JSON.parse(strictJson.stdout) as { ok: boolean; diagnostics?: { code: string }[] };
    expect([strictDoc.ok, strictDoc.diagnostics?.map((d) => d.code)]).toEqual([false, ['test-subject-renamed']]);
    expect(await testReportErrors(strictDoc)).toEqual([]);
    // A --target that selects another test file's tests does not fail on this one's warning (probe EJ).
    const other = await runCli(['test', '-C', dir, '--emulator', '--target', 'custom-template/Consulting Agreement', '--fail-on-warn']);
    expect([other.code, other.stdout]).toEqual([0, expect.not.stringContaining('--fail-on-warn fails')]);
    expect((await runCli(['test', '-C', dir, '--emulator', '--target', 'playbook/Inbound NDA', '--fail-on-warn', '--replay-only'])).code).toBe(1);
  });

  it('says the configuration\'s warnings too, in its output, its JSON diagnostics and --fail-on-warn (probe PP-2)', async () => {
    const dir = await example();
    const original = await readFile(join(dir, 'playbooks/inbound-nda.yaml'), 'utf8');
    await writeFile(join(dir, 'playbooks/inbound-nda.yaml'), original.replace(/^name: Inbound NDA$/m, 'name: Inbound NDA\nrenamed_from: [Inbound NDA]'));
    const args = ['test', '-C', dir, '--emulator', 'tests/inbound-nda.test.yaml'];
    const run = await runCli([...args, '-o', 'json']);
    expect(run.code).toBe(0);
    const json = JSON.parse(run.stdout) as { ok: boolean; diagnostics?: { code: string; file: string }[] };
    expect(json.diagnostics?.map((d) => [d.code, d.file])).toEqual([['renamed-from-itself', 'playbooks/inbound-nda.yaml']]);
    expect(await testReportErrors(json)).toEqual([]);
    expect((await runCli(args)).stderr).toContain('playbooks/inbound-nda.yaml:4:16 warning renamed-from-itself');
    const strict = await runCli([...args, '--fail-on-warn']);
    expect([strict.code, strict.stdout]).toEqual([1, expect.stringContaining('Failed: --fail-on-warn fails the run on 1 warning of the configuration.')]);
  });

  it('says how to write tests given as list items, as for resource files', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/listed.test.yaml'), '- kind: PlaybookTest\n  playbook: Inbound NDA\n  cases: []\n');
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/listed.test.yaml:1:1 error invalid-value the document must be a mapping, not a list');
    expect(r.stderr).toContain('hint: write each test as a document of its own, without the leading `- ` (separate documents in one file with `---`)');
  });

  it('tells to remove a tag that made a value a number in a test file, not to quote it (quoted, the tag still makes it one)', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/tagged.test.yaml'), 'kind: PlaybookTest\nplaybook: !!int 2024\ncases: []\n');
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/tagged.test.yaml:2:17 error invalid-value `playbook` must be a string, not an integer (got 2024)\n  hint: remove the tag before the value (such as `!!int`)');
  });

  it('replays from the cache with --emulator while another process holds the emulator\'s state: a replay changes nothing there (probe QY-3)', async () => {
    const dir = await example();
    const args = ['test', '-C', dir, '--emulator', '--target', NDA];
    const state = join(dir, '.docket/emulator.json');
    // Not even the seeded state is saved by a replay (second read SR86-1).
    expect((await runCli([...args, '--replay-only'])).code).toBe(0);
    expect(await exists(state)).toBe(false);
    expect((await runCli(args)).code).toBe(0);
    const standalone = spawn(process.execPath, [BIN, 'emulator', '--port', '0', '--state', join(dir, '.docket/emulator.json')], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      await new Promise<void>((resolve, reject) => {
        standalone.stdout.once('data', () => resolve());
        standalone.once('exit', (code) => reject(new Error(`the emulator exited with ${code}`)));
      });
      // An actor the state does not have yet: added for the run, not saved over the standalone emulator's state.
      const saved = await readFile(state, 'utf8');
      await writeFile(join(dir, 'docket.yaml'), (await readFile(join(dir, 'docket.yaml'), 'utf8')).replace(/actor: .*/, 'actor: legal-ops2@acme.example'));
      const replay = await runCli([...args, '--replay-only']);
      expect([replay.code, replay.stderr]).toEqual([0, '']);
      expect(replay.stdout).toMatch(/PASS {2}a perpetual NDA is flagged for its term \(replayed\)/);
      expect(await readFile(state, 'utf8')).toBe(saved);
      // A run that reviews still waits for it, as before.
      const live = await runCli(args);
      expect([live.code, live.stderr]).toEqual([1, expect.stringContaining('cannot start the emulator: another docket process uses')]);
    } finally {
      standalone.kill();
    }
  });

  it('refuses a contract file the user that runs docket cannot read, at its line, before any call (probe QY-2)', async () => {
    const dir = await example();
    const contract = join(dir, 'tests/fixtures/nda-louisiana.docx');
    await chmod(contract, 0o000);
    // Root reads every file: the built CLI runs as root without the capabilities that override file
    // permissions, so the owner's own (none, here) apply, and the checkout stays readable wherever it is.
    const asRoot = process.getuid?.() === 0;
    const command = asRoot ? ['setpriv', '--bounding-set=-dac_override,-dac_read_search', process.execPath, BIN] : [process.execPath, BIN];
    const run = spawnSync(command[0]!, [...command.slice(1), 'validate', '-C', dir], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
    expect(run.status).toBe(1);
    expect(run.stdout + run.stderr).toMatch(/tests\/inbound-nda\.test\.yaml:\d+:\d+ error unreadable-file contract file "fixtures\/nda-louisiana\.docx" cannot be read \(permission denied\) \(looked for tests\/fixtures\/nda-louisiana\.docx\)\n {2}hint: make it readable by the user that runs docket/);
    await chmod(contract, 0o644);
  });

  it('stops at a broken test file before any request to the services', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/broken.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound NDAA', 'cases:', '  - name: x', '    contract: { file: fixtures/nda-standard.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    const before = requests();
    const junit = join(dir, 'junit.xml');
    const r = await runCli(['test', '-C', dir, '-o', 'json', '--junit', junit], { env: emu().env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/broken.test.yaml:2:11 error unknown-playbook no Playbook named "Inbound NDAA" is declared in this configuration, did you mean `Inbound NDA`?');
    expect(requests()).toBe(before);
    // CI reporters still get their reports, saying why.
    const doc = JSON.parse(r.stdout) as unknown;
    expect(await testReportErrors(doc)).toEqual([]);
    expect(doc).toMatchObject({ ok: false, suites: [], error: { code: 'invalid-config', exit_code: 1 }, diagnostics: [{ code: 'unknown-playbook', file: 'tests/broken.test.yaml', line: 2, col: 11 }] });
    const xml = await readFile(junit, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<testcase name="tests/broken.test.yaml:2:11 unknown-playbook" classname="docket test" time="0.000">');
    // Named through a placeholder, which test files do not take: said (probe JL-4).
    await writeFile(join(dir, 'tests/broken.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound ${var.x}', 'cases:', '  - name: x', '    contract: { file: fixtures/nda-standard.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    const placeholder = await runCli(['test', '-C', dir], { env: emu().env });
    expect(placeholder.stderr).toContain('hint: test files are read as written, without placeholders: name it as the environment the tests run against declares it');
  });

  it('refuses a contract whose path holds an API key (a folder named with it): docket.lock.json records the contracts it uploads by path (probe HB-1)', async () => {
    const dir = await example();
    const key = 'sk_live_4eC39HqLyjWDarjtT1zd';
    await mkdir(join(dir, `tests/${key}`), { recursive: true });
    await copyFile(join(dir, 'tests/fixtures/nda-standard.docx'), join(dir, `tests/${key}/nda.docx`));
    // The test file beside it: its text does not hold the key, its contract's path does.
    await writeFile(join(dir, `tests/${key}/keyed.test.yaml`), ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: x', '    contract: { file: nda.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    for (const args of [['validate', '-C', dir], ['test', '-C', dir, '--emulator']]) {
      const r = await runCli(args, { env: { DOCKET_API_KEY: key } });
      expect([r.code, r.stderr], args[0]).toEqual([1, expect.stringContaining('/keyed.test.yaml:5:23 error api-key-in-file `file` names a file whose path holds the value of DOCKET_API_KEY, an API key: docket.lock.json records the files docket uploads by their path')]);
      expect(r.stdout + r.stderr).not.toContain(key);
    }
    expect(existsSync(join(dir, 'docket.lock.json')) ? await readFile(join(dir, 'docket.lock.json'), 'utf8') : '').not.toContain(key);
  });

  it('redacts a key in its JUnit report as in every other output: the file is a CI artifact', async () => {
    const dir = await example();
    const key = 'sk_live_ABCDEF<123>';
    await writeFile(join(dir, 'tests/broken.test.yaml'), ['kind: PlaybookTest', `playbook: "Inbound ${key}"`, 'cases:', '  - name: x', '    contract: { file: fixtures/nda-standard.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    const junit = join(dir, 'junit.xml');
    const r = await runCli(['test', '-C', dir, '--junit', junit], { env: { ...emu().env, DOCKET_AGREEMENTS_API_KEY: key } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('no Playbook named "Inbound [redacted]" is declared');
    // The key is in the file: refused there too, as in any file of the configuration.
    expect(r.stderr).toContain('tests/broken.test.yaml:2:20 error api-key-in-file this line holds the value of DOCKET_AGREEMENTS_API_KEY');
    const xml = await readFile(join(dir, 'junit.xml'), 'utf8');
    expect(xml).toContain('Inbound [redacted]');
    expect(xml).not.toMatch(/ABCDEF/);
    // In a comment of a test file, for validate too.
    await writeFile(join(dir, 'tests/broken.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound NDA   # ' + key, 'cases: []', ''].join('\n'));
    const validated = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: key } });
    expect([validated.code, validated.stdout + validated.stderr]).toEqual([1, expect.stringContaining('tests/broken.test.yaml:2:27 error api-key-in-file')]);
    // Written with an escape, which the file's text does not show (probe IP).
    await writeFile(join(dir, 'tests/broken.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: "\\x73k_live_ABCDEF<123>"', '    contract: { file: fixtures/nda-standard.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    const escaped = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: key } });
    expect([escaped.code, escaped.stdout + escaped.stderr]).toEqual([1, expect.stringContaining('tests/broken.test.yaml:4:11 error api-key-in-file this value holds the value of DOCKET_API_KEY')]);
    // As the name of a value sent to the service, and in a definition file the service reads (second read SR67-14, SR67-15).
    await writeFile(join(dir, 'tests/broken.test.yaml'), ['kind: TemplateTest', 'template: Consulting Agreement', 'cases:', '  - name: x', '    values: { "\\x73k_live_ABCDEF<123>": 1 }', '    expect: accepted', ''].join('\n'));
    const named = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: key } });
    expect([named.code, named.stdout + named.stderr]).toEqual([1, expect.stringContaining("tests/broken.test.yaml:5:15 error api-key-in-file this key's name holds the value of DOCKET_API_KEY")]);
    await rm(join(dir, 'tests/broken.test.yaml'));
    const cover = join(dir, 'custom-templates/consulting.cover.yaml');
    await writeFile(cover, `${await readFile(cover, 'utf8')}\n# note\nextra: "\\x73k_live_ABCDEF<123>"\n`);
    const defined = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: key } });
    expect([defined.code, defined.stdout + defined.stderr]).toEqual([1, expect.stringContaining('custom-templates/consulting.cover.yaml:1:1 error api-key-in-file custom-templates/consulting.cover.yaml holds the value of DOCKET_API_KEY')]);
    expect(defined.stdout + defined.stderr).not.toContain('ABCDEF');
    // Read as docket reads YAML: past a key js-yaml calls a duplicate (`true` and "true"), and
    // an alias bomb beside it is its own error, not minutes of walking (third read TR67-1, TR67-2).
    const original = await readFile(cover, 'utf8');
    await writeFile(cover, original.replace('    fields:\n', '    fields:\n      "true": {label: a, input: text}\n      true: {label: "\\x73k_live_ABCDEF<123>", input: text}\n'));
    const duplicated = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: key } });
    expect(duplicated.stdout + duplicated.stderr).toContain('custom-templates/consulting.cover.yaml:1:1 error api-key-in-file');
    const bomb = ['a0: &a0 ["lol"]', ...Array.from({ length: 8 }, (_, n) => `a${n + 1}: &a${n + 1} [${Array(10).fill(`*a${n}`).join(', ')}]`)].join('\n');
    await writeFile(cover, `${original}\n# a \\ backslash\n${bomb}\n`);
    const bombed = await runCli(['validate', '-C', dir], { env: { DOCKET_API_KEY: key } });
    expect([bombed.code, bombed.stdout + bombed.stderr]).toEqual([1, expect.stringContaining('error yaml-alias-expansion')]);
  });

  it('annotates a broken test file\'s lines for GitHub, as plan annotates a broken configuration', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/broken.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound NDAA', 'cases:', '  - name: x', '    contract: { file: fixtures/nda-standard.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    // The configuration is its repository's root: annotation paths are relative to that.
    await mkdir(join(dir, '.git'));
    const r = await runCli(['test', '-C', dir, '--annotations', 'github'], { env: emu().env });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('::error file=tests/broken.test.yaml,line=2,col=11,title=docket unknown-playbook::no Playbook named "Inbound NDAA"');
  });

  it('writes its JUnit and JSON reports, saying why, when the run cannot start for want of a key', async () => {
    const dir = await example();
    const junit = join(dir, 'junit.xml');
    const r = await runCli(['test', '-C', dir, '-o', 'json', '--junit', junit], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('Error: no API key for the review service');
    const doc = JSON.parse(r.stdout) as unknown;
    expect(await testReportErrors(doc)).toEqual([]);
    expect(doc).toMatchObject({ ok: false, error: { message: 'no API key for the review service' } });
    const xml = await readFile(junit, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('<error message="no API key for the review service" type="missing-api-key">');
    // `test capture` makes no test report: its error is the common document.
    const capture = await runCli(['test', '-C', dir, '-o', 'json', 'capture', '--review', 'r1', '--out', join(dir, 'tests/c.test.yaml')], { env: { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL! } });
    expect(JSON.parse(capture.stdout)).toEqual({ format_version: 1, error: expect.objectContaining({ message: 'no API key for the review service' }) as unknown, diagnostics: [] });
  });

  it('writes no report, when the configuration cannot be read, over a file it may name: inside the configuration only a new .xml file outside .docket/ (probe HY-7)', async () => {
    const dir = await example();
    await writeFile(join(dir, 'terms-broken.yaml'), 'kind: CustomTerm\nname: Consulting\nbody_file: consulting.md\n');
    for (const out of ['consulting.md', 'docket.lock.json', '.docket/emulator.json', 'tests/fixtures/new-contract.txt']) {
      const r = await runCli(['test', '-C', dir, '--junit', join(dir, out)], { env: emu().env });
      expect(r.code, out).toBe(1);
      expect(existsSync(join(dir, out)), out).toBe(false);
      // Said, or CI finds no report and no word why (probe RR-3).
      expect(r.stderr, out).toContain(`Note: the JUnit report was not written to ${join(dir, out)}: docket could not check it against the files of the configuration and its tests, which could not all be read`);
    }
    const r = await runCli(['test', '-C', dir, '--junit', join(dir, 'reports/junit.xml')], { env: emu().env });
    expect(r.code).toBe(1);
    expect(await junitErrors(await readFile(join(dir, 'reports/junit.xml'), 'utf8'))).toEqual([]);
  });

  it('reports a review service it cannot reach as a run that could not start, not as each case failing', async () => {
    const dir = await example();
    const junit = join(dir, 'junit.xml');
    const down = { DOCKET_REVIEW_URL: 'http://127.0.0.1:1/review', DOCKET_API_KEY: 'k' };
    const r = await runCli(['test', '-C', dir, '--target', NDA, '-o', 'json', '--junit', junit, '--timeout', '1s'], { env: down });
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { suites: unknown[]; target: string };
    expect(await testReportErrors(doc)).toEqual([]);
    expect(doc).toMatchObject({ ok: false, error: { code: 'timeout', exit_code: 1 } });
    expect(doc.suites).toEqual([]);
    // Connected before the reads failed: the report names where it went, as a finished one does (probe IR-1).
    expect(doc.target).toBe('review http://127.0.0.1:1/review');
    // Also when the session's own first read fails: a template test's agreements organization (second read SR68-1).
    const agreements = await runCli(['test', '-C', dir, '--target', 'custom-template/Consulting Agreement', '-o', 'json', '--timeout', '1s'], { env: { ...down, DOCKET_AGREEMENTS_URL: 'http://127.0.0.1:1/agreements' } });
    expect(agreements.code).toBe(1);
    expect(JSON.parse(agreements.stdout)).toMatchObject({ ok: false, target: 'agreements http://127.0.0.1:1/agreements', error: { exit_code: 1 } });
    const xml = await readFile(junit, 'utf8');
    expect(await junitErrors(xml)).toEqual([]);
    expect(xml).toContain('name="docket test could not run"');
  });

  it('a --target no test file tests is an error, as a named test file that declares none and a FILES that names nothing are', async () => {
    const dir = await example();
    const untested = await runCli(['test', '-C', dir, '--target', 'playbook/Vendor MSA'], { env: emu().env });
    expect([untested.code, untested.stderr]).toEqual([
      1,
      'Error: --target playbook/Vendor MSA: the test files hold no test of it\n  hint: tests exist for: custom-template/Consulting Agreement, template/Mutual NDA, playbook/Inbound NDA\n',
    ]);
    // A kind misspelt is suggested, as plan's --target suggests it (probe KH-7).
    const typo = await runCli(['test', '-C', dir, '--target', 'playbok/Inbound NDA'], { env: emu().env });
    expect([typo.code, typo.stderr.split('\n')[0]]).toEqual([1, 'Error: --target playbok/Inbound NDA: docket test selects tests by playbook/NAME, custom-template/NAME, template/NAME, did you mean `playbook`?']);
    await writeFile(join(dir, 'tests/todo.test.yaml'), '# cases to come\n');
    const empty = await runCli(['test', '-C', dir, 'tests/todo.test.yaml'], { env: emu().env });
    expect([empty.code, empty.stderr]).toEqual([1, 'Error: tests/todo.test.yaml declares no test (an empty file, or only comments)\n  hint: add a case, or name test files that hold some (without FILES every test file is read)\n']);
    // Among other FILES too: no case runs, and nothing passes (probe NZ-4).
    const among = await runCli(['test', '-C', dir, 'tests/todo.test.yaml', 'tests/consulting.test.yaml', './tests/todo.test.yaml'], { env: emu().env });
    expect([among.code, among.stderr.split('\n')[0], among.stdout]).toEqual([1, 'Error: tests/todo.test.yaml declares no test (an empty file, or only comments)', '']);
    // Named files that test something else: the target's own test file was not among them.
    const others = await runCli(['test', '-C', dir, 'tests/consulting.test.yaml', '--target', 'playbook/Inbound NDA'], { env: emu().env });
    expect([others.code, others.stderr]).toEqual([
      1,
      'Error: --target playbook/Inbound NDA: tests/consulting.test.yaml holds no test of it\n  hint: tests exist for: custom-template/Consulting Agreement, template/Mutual NDA; without FILES every test file is read\n',
    ]);
  });

  it('contacts only the review service for --target playbook/NAME (no agreements key needed)', async () => {
    const dir = await example();
    const env = { DOCKET_REVIEW_URL: emu().env.DOCKET_REVIEW_URL!, DOCKET_ORGANIZATION_ID: emu().env.DOCKET_ORGANIZATION_ID!, DOCKET_REVIEW_API_KEY: emu().env.DOCKET_API_KEY! };
    const r = await runCli(['test', '-C', dir, '--target', NDA], { env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('3 cases: 3 passed.');
  });

  it('refuses FILES or a --target that name nothing of the configuration, instead of passing with no case', async () => {
    const dir = await example();
    const typo = await runCli(['test', '-C', dir, '--emulator', 'tests/inbound-nda.tset.yaml']);
    expect(typo.code).toBe(1);
    expect(typo.stderr).toContain('Error: "tests/inbound-nda.tset.yaml": not a test file (test files end in .test.yaml), did you mean `tests/inbound-nda.test.yaml`?');
    // A folder mistyped is offered the folder.
    const mistyped = await runCli(['test', '-C', dir, '--emulator', 'tsets']);
    expect([mistyped.code, mistyped.stderr]).toEqual([1, expect.stringContaining('Error: "tsets": no such test file or folder, did you mean `tests`?')]);
    // Two letters swapped in a short name: as near its folder as `tset/` is.
    const swapped = await runCli(['test', '-C', dir, '--emulator', 'tset']);
    expect([swapped.code, swapped.stderr]).toEqual([1, expect.stringContaining('Error: "tset": no such test file or folder, did you mean `tests/`?')]);
    const slashed = await runCli(['test', '-C', dir, '--emulator', 'tsets/']);
    expect([slashed.code, slashed.stderr]).toEqual([1, expect.stringContaining('Error: "tsets/": no such folder, did you mean `tests/`?')]);
    // A test file with a slash after it names a folder, as `ls` reads it: not the file.
    const fileAsFolder = await runCli(['test', '-C', dir, '--emulator', 'tests/inbound-nda.test.yaml/']);
    expect([fileAsFolder.code, fileAsFolder.stderr]).toEqual([1, expect.stringContaining('Error: "tests/inbound-nda.test.yaml/": a test file, not a folder (a name ending in / names a folder)\n  hint: name the file without the trailing /: tests/inbound-nda.test.yaml')]);
    const dotted = await runCli(['test', '-C', dir, '--emulator', 'tests/inbound-nda.test.yaml/.']);
    expect([dotted.code, dotted.stderr]).toEqual([1, expect.stringContaining('hint: name the file without the trailing /: tests/inbound-nda.test.yaml')]);
    const missing = await runCli(['test', '-C', dir, '--emulator', join(dir, 'tests/none.test.yaml')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('none.test.yaml": no such test file');
    // One that exists, in a folder docket never reads, is not called missing.
    await mkdir(join(dir, '.drafts'));
    await copyFile(join(dir, 'tests/inbound-nda.test.yaml'), join(dir, '.drafts/inbound-nda.test.yaml'));
    const hidden = await runCli(['test', '-C', dir, '--emulator', join(dir, '.drafts/inbound-nda.test.yaml')]);
    expect(hidden.code).toBe(1);
    expect(hidden.stderr).toContain('inbound-nda.test.yaml": in .drafts/, a folder docket does not read');
    // Nor a dot-file, which discovery does not read either (second read SR71-5).
    await copyFile(join(dir, 'tests/inbound-nda.test.yaml'), join(dir, 'tests/.draft.test.yaml'));
    const draft = await runCli(['test', '-C', dir, '--emulator', join(dir, 'tests/.draft.test.yaml')]);
    expect([draft.code, draft.stderr]).toEqual([1, expect.stringContaining('.draft.test.yaml": a file whose name starts with ".", which docket does not read')]);
    // So is the folder itself: not "a folder with no test file", which it holds.
    for (const folder of ['.drafts', '.drafts/']) {
      const named = await runCli(['test', '-C', dir, '--emulator', join(dir, folder)]);
      expect([named.code, named.stderr.split('\n')[0]]).toEqual([1, `Error: ${JSON.stringify(join(dir, folder))}: a folder docket does not read (dot-folders and node_modules hold local or other people's files)`]);
    }
    const outside = await runCli(['test', '-C', dir, '--emulator', join(dir, '../elsewhere.test.yaml')]);
    expect(outside.code).toBe(1);
    expect(outside.stderr).toContain('elsewhere.test.yaml" is outside the configuration directory');
    // One that is there, named from the current directory by a path that would be inside -C DIR
    // too: outside, not "no such test file" (probe NL-3).
    const name = `nl3-${process.pid}-outside.test.yaml`;
    const there = join(process.cwd(), name);
    await copyFile(join(dir, 'tests/inbound-nda.test.yaml'), there);
    try {
      const named = await runCli(['test', '-C', dir, '--emulator', name]);
      expect([named.code, named.stderr]).toEqual([1, expect.stringContaining(`${name}" is outside the configuration directory`)]);
    } finally {
      await rm(there, { force: true });
    }
    // A folder too (second read SR78B-5).
    const folderName = `nl3-${process.pid}-outside`;
    await mkdir(join(process.cwd(), folderName));
    try {
      const named = await runCli(['test', '-C', dir, '--emulator', folderName]);
      expect([named.code, named.stderr]).toEqual([1, expect.stringContaining(`${folderName}" is outside the configuration directory`)]);
    } finally {
      await rm(join(process.cwd(), folderName), { recursive: true, force: true });
    }
    const target = await runCli(['test', '-C', dir, '--emulator', '--target', 'template/Consulting Agreement']);
    expect(target.code).toBe(1);
    expect(target.stderr).toContain('Error: --target template/Consulting Agreement names nothing declared in this configuration, did you mean `custom-template/Consulting Agreement`?');
    // A typo of the name is suggested; a name nothing like one is not, whatever the shared `playbook/` (probe ER).
    expect((await runCli(['test', '-C', dir, '--target', 'playbook/Inbond NDA'])).stderr).toContain('did you mean `playbook/Inbound NDA`?');
    expect((await runCli(['test', '-C', dir, '--target', 'playbook/Inside NDA'])).stderr).toMatch(/^Error: --target playbook\/Inside NDA names nothing declared in this configuration\n/);
    // Refused before the emulator started: nothing was written.
    expect(await exists(join(dir, '.docket'))).toBe(false);
    // A path relative to -C DIR names the file too.
    const relative = await runCli(['test', '-C', dir, '--emulator', 'tests/inbound-nda.test.yaml']);
    expect(relative.code).toBe(0);
    expect(relative.stdout).toContain('3 cases: 3 passed.');
    // The kind as the files spell it, as plan's --target takes it.
    const spelled = await runCli(['test', '-C', dir, '--emulator', '--target', 'Playbook/Inbound NDA']);
    expect([spelled.code, spelled.stderr]).toEqual([0, '']);
    expect(spelled.stdout).toContain('3 cases: 3 passed.');
    // A copy of the upload records that cannot be written is said, once, and the run goes on.
    await rm(join(dir, '.docket/test-cache/uploads.json'), { force: true });
    await mkdir(join(dir, '.docket/test-cache/uploads.json'), { recursive: true });
    await rm(join(dir, 'docket.lock.json'), { force: true });
    const unwritten = await runCli(['test', '-C', dir, '--emulator', '--target', 'Playbook/Inbound NDA', '--no-cache']);
    expect(unwritten.code).toBe(0);
    expect(unwritten.stderr.match(/the copy of the upload records could not be written \(EISDIR\): \.docket\/test-cache\/uploads\.json;/g)).toHaveLength(1);
    // Said as that alone: a folder is no damaged copy (probe GW).
    expect(unwritten.stderr).not.toContain('could not be read');
    // A folder names the test files below it, as pytest, conftest and promptfoo take folders.
    const folder = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, 'tests/']);
    expect(folder.code).toBe(0);
    expect(folder.stdout).toContain('3 cases: 3 passed.');
    const empty = await runCli(['test', '-C', dir, '--emulator', 'playbooks']);
    expect(empty.code).toBe(1);
    expect(empty.stderr).toContain('Error: "playbooks": a folder with no test file');
    expect(empty.stderr).toMatch(/hint: the test files here: .*tests\/inbound-nda\.test\.yaml/);
  });

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
    expect(r.stderr).toContain('tests/bell.test.yaml:4:16 error control-character `cases[0].name` holds the control character U+0007: "bell\\u0007"');
    expect(r.stderr).toMatch(/tests\/linked\.test\.yaml:5:23 error file-outside-config contract file "fixtures\/linked\.docx" is a link to ".*secret\.docx", which is outside the configuration directory/);
  });

  it('--junit never replaces a file of the configuration, a test file or a contract: refused before any case runs, the file as it was', async () => {
    const dir = await example();
    await writeFile(join(dir, 'docket.lock.json'), '{"version": 2, "targets": {}}\n');
    for (const [file, says] of [
      ['docket.lock.json', 'is docket.lock.json, a file of the configuration'],
      ['tests/inbound-nda.test.yaml', 'is tests/inbound-nda.test.yaml, a file of the configuration'],
      ['tests/fixtures/nda-standard.docx', 'is a file of the configuration directory that is not a JUnit report'],
      ['tests/report.test.yaml', 'is a YAML file below the configuration: every later run would read it as a test file'],
    ] as const) {
      const path = join(dir, file);
      const before = await readFile(path).catch(() => undefined);
      const r = await runCli(['test', '-C', dir, '--emulator', 'tests/inbound-nda.test.yaml', '--junit', path]);
      expect([r.code, r.stderr.split('\n')[0]]).toEqual([1, `Error: --junit ${path} ${says}${file === 'tests/report.test.yaml' ? '' : ': the saved file would take its place'}`]);
      expect(await readFile(path).catch(() => undefined)).toEqual(before);
    }
    // A link in the directory to a file outside: that file would be replaced (probe EJ).
    const notes = join(await makeDir({ 'notes.md': 'important notes\n' }), 'notes.md');
    await symlink(notes, join(dir, 'report.xml'));
    const linked = await runCli(['test', '-C', dir, '--emulator', 'tests/inbound-nda.test.yaml', '--junit', join(dir, 'report.xml')]);
    expect([linked.code, linked.stderr.split('\n')[0]]).toEqual([1, `Error: --junit ${join(dir, 'report.xml')} is a file of the configuration directory that is not a JUnit report: the saved file would take its place`]);
    expect(await readFile(notes, 'utf8')).toBe('important notes\n');
    // Nor is any XML that is not a report one (a pom.xml outside, through a link), nor text that starts with `<` (probe EL).
    const pom = join(await makeDir({ 'pom.xml': '<?xml version="1.0"?>\n<project><keep/></project>\n' }), 'pom.xml');
    await symlink(pom, join(dir, 'pom-link.xml'));
    await writeFile(join(dir, 'heart.txt'), '<3 love notes, keep\n');
    for (const [file, kept] of [[join(dir, 'pom-link.xml'), pom], [join(dir, 'heart.txt'), join(dir, 'heart.txt')]] as const) {
      const before = await readFile(kept, 'utf8');
      expect((await runCli(['test', '-C', dir, '--emulator', 'tests/inbound-nda.test.yaml', '--junit', file])).code).toBe(1);
      expect(await readFile(kept, 'utf8')).toBe(before);
    }
    // A configuration that cannot be read cannot judge the file: the report of why goes only to a
    // new file no run reads as YAML (or over an earlier report), never over the configuration's.
    const broken = await example();
    await writeFile(join(broken, 'playbooks/vendor-msa.yaml'), (await readFile(join(broken, 'playbooks/vendor-msa.yaml'), 'utf8')).replace(/^ {4}actions:/m, '    actionz:'));
    for (const file of ['docket.yaml', 'playbooks/inbound-nda.yaml', 'tests/inbound-nda.test.yaml']) {
      const before = await readFile(join(broken, file), 'utf8');
      const r = await runCli(['test', '-C', broken, '--replay-only', '--junit', join(broken, file)]);
      expect(r.code).toBe(1);
      expect(await readFile(join(broken, file), 'utf8')).toBe(before);
    }
    const report = await runCli(['test', '-C', broken, '--replay-only', '--junit', join(broken, 'docket-test.xml')]);
    expect(report.code).toBe(1);
    expect(await readFile(join(broken, 'docket-test.xml'), 'utf8')).toContain('unknown-key');
    // A text contract that starts as XML would: named by a test file, still refused.
    await writeFile(join(dir, 'tests/fixtures/nda.txt'), '<testsuites>This Agreement is governed by the laws of Delaware.</testsuites>\n');
    await writeFile(join(dir, 'tests/text.test.yaml'), 'kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - name: text\n    contract: { file: fixtures/nda.txt }\n    expect: { flags: { count: { max: 50 } } }\n');
    const text = await runCli(['test', '-C', dir, '--emulator', 'tests/text.test.yaml', '--junit', join(dir, 'tests/fixtures/nda.txt')]);
    expect([text.code, text.stderr.split('\n')[0]]).toEqual([1, `Error: --junit ${join(dir, 'tests/fixtures/nda.txt')} is tests/fixtures/nda.txt, a contract a test file names: the report would take its place`]);
  });

  it('refuses an empty contract, and one that is not the PDF or Word file its name says, before any upload; text passes (the emulator reads it)', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/fixtures/empty.docx'), '');
    await writeFile(join(dir, 'tests/fixtures/plain.docx'), 'This Agreement is governed by the laws of Louisiana.');
    await writeFile(join(dir, 'tests/fixtures/scan.pdf'), 'not a pdf');
    await writeFile(join(dir, 'tests/fixtures/blank.txt'), '');
    await writeFile(join(dir, 'tests/fixtures/nda.txt'), 'This Agreement is governed by the laws of Louisiana.');
    // A zip that is no Word document (a spreadsheet renamed), and a Word file cut short (probe EZ).
    await writeFile(join(dir, 'tests/fixtures/sheet.docx'), writeZip([{ name: 'xl/workbook.xml', data: Buffer.from('<workbook/>') }]));
    await writeFile(join(dir, 'tests/fixtures/cut.docx'), writeZip([{ name: 'word/document.xml', data: Buffer.from('<w:document/>') }]).subarray(0, 40));
    const cases = ['empty.docx', 'plain.docx', 'scan.pdf', 'blank.txt', 'nda.txt', 'sheet.docx', 'cut.docx'].map((f, i) => [`  - name: case ${i}`, `    contract: { file: fixtures/${f} }`, '    expect: { flags: { count: { max: 50 } } }'].join('\n'));
    await writeFile(join(dir, 'tests/files.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', ...cases, ''].join('\n'));
    for (const command of [['validate'], ['test', '--emulator']]) {
      const r = await runCli([...command, '-C', dir]);
      expect(r.code).toBe(1);
      expect(r.stderr.split('\n').filter((l) => l.startsWith('tests/files.test.yaml:'))).toEqual([
        'tests/files.test.yaml:5:23 error not-a-docx contract file "fixtures/empty.docx" is empty (looked for tests/fixtures/empty.docx)',
        'tests/files.test.yaml:8:23 error not-a-docx contract file "fixtures/plain.docx" is not a Word file (a .docx is a zip archive; this one does not start like one) (looked for tests/fixtures/plain.docx)',
        'tests/files.test.yaml:11:23 error not-a-pdf contract file "fixtures/scan.pdf" is not a PDF (it does not start with %PDF-) (looked for tests/fixtures/scan.pdf)',
        'tests/files.test.yaml:14:23 error empty-file contract file "fixtures/blank.txt" is empty (looked for tests/fixtures/blank.txt)',
        'tests/files.test.yaml:20:23 error not-a-docx contract file "fixtures/sheet.docx" is a zip archive without a Word document part (word/document.xml), not a Word document (a .xlsx or .pptx renamed?) (looked for tests/fixtures/sheet.docx)',
        'tests/files.test.yaml:23:23 error not-a-docx contract file "fixtures/cut.docx" is not a readable zip archive (it has no central directory: cut short?) (looked for tests/fixtures/cut.docx)',
      ]);
      // Nothing was uploaded: the run stopped at the test files.
      expect(r.stdout + r.stderr).not.toContain('imported_files');
    }
  });

  it('refuses a contract that is neither PDF nor Word before any request when the run goes to the review service itself, which would bill it before refusing it; the emulator reads text (probe RR-2)', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/fixtures/nda.txt'), 'This Agreement is governed by the laws of Louisiana.');
    await writeFile(join(dir, 'tests/text.test.yaml'), 'kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - name: text\n    contract: { file: fixtures/nda.txt }\n    expect: { flags: { count: { max: 50 } } }\n');
    // However its URL is written: a slash after it, capitals, its port (second read SR90B-2).
    // At the value, quoted as written, as every other contract-file error is (probe YA-4).
    // A fully qualified host name ends in a dot: the same service (probe SJ-1).
    for (const url of [undefined, 'https://API.gerri.commonpaper.com:443/', 'https://api.gerri.commonpaper.com.']) {
      const real = await runCli(['test', '-C', dir, 'tests/text.test.yaml'], { env: { DOCKET_API_KEY: 'k', DOCKET_ORGANIZATION_ID: '00000000-0000-4000-8000-000000000001', ...(url ? { DOCKET_REVIEW_URL: url } : {}) } });
      expect([url, real.code, real.stderr]).toEqual([url, 1, expect.stringContaining('tests/text.test.yaml:5:23 error unsupported-contract contract file "fixtures/nda.txt" is neither a PDF nor a Word (.docx) file')]);
    }
    const emulated = await runCli(['test', '-C', dir, '--emulator', 'tests/text.test.yaml']);
    expect([emulated.code, emulated.stderr]).toEqual([0, '']);
  });

  it('refuses a contract file that is docket.yaml, the lock, a file in .docket/ or a YAML file, named or through a link: it would be sent for review and quoted', async () => {
    const dir = await example();
    await writeFile(join(dir, 'docket.lock.json'), '{"version": 2, "targets": {}}\n');
    await symlink('../../docket.lock.json', join(dir, 'tests/fixtures/lock.docx'));
    const cases = [['../docket.yaml', "docket's project file"], ['fixtures/lock.docx', "docket's lock file"], ['../playbooks/inbound-nda.yaml', 'a YAML file of the configuration']] as const;
    const docs = cases.map(([file], i) => ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', `  - name: c${i}`, `    contract: { file: ${file} }`, '    expect: { flags: { count: 0 } }'].join('\n'));
    await writeFile(join(dir, 'tests/own.test.yaml'), `${docs.join('\n---\n')}\n`);
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    for (const [file, what] of cases) expect(r.stderr).toContain(`error data-file-is-resource contract file "${file}" is ${what}, not a contract`);
  });

  it('says a contract file that is a symbolic link that loops cannot be read, as it says of a YAML file, not that it does not exist', async () => {
    const dir = await example();
    await symlink('loop.docx', join(dir, 'tests/fixtures/loop.docx'));
    await writeFile(join(dir, 'tests/loop.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: c', '    contract: { file: fixtures/loop.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/loop.test.yaml:5:23 error unreadable-file contract file "fixtures/loop.docx" cannot be read (it is a symbolic link that loops) (looked for tests/fixtures/loop.docx)');
    // And one to nothing says so too.
    await symlink('gone.docx', join(dir, 'tests/fixtures/dangling.docx'));
    await writeFile(join(dir, 'tests/loop.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: c', '    contract: { file: fixtures/dangling.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    expect((await runCli(['validate', '-C', dir])).stderr).toContain('error unreadable-file contract file "fixtures/dangling.docx" cannot be read (it is a symbolic link to something that does not exist)');
    // A named pipe is there: said as what it is, and never read (probe FJ).
    execFileSync('mkfifo', [join(dir, 'tests/fixtures/pipe.docx')]);
    await writeFile(join(dir, 'tests/loop.test.yaml'), ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: c', '    contract: { file: fixtures/pipe.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    const piped = await runCli(['validate', '-C', dir]);
    expect([piped.code, piped.stderr]).toEqual([1, expect.stringContaining('tests/loop.test.yaml:5:23 error unreadable-file contract file "fixtures/pipe.docx" is not a regular file (a named pipe or a device) (looked for tests/fixtures/pipe.docx)')]);
  });

  it('says what is wrong with a contract: a folder named as its file, or both a file and an imported id', async () => {
    const dir = await example();
    const contracts = ['{ file: fixtures }', `{ file: fixtures/nda-standard.docx, imported_file: 4f1c6a5e-0000-4000-8000-000000000000, sha256: ${'a'.repeat(64)} }`];
    // One document each: a document the schema refuses gets no further checks.
    const docs = contracts.map((c) => ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: c', `    contract: ${c}`, '    expect: { flags: { count: 0 } }'].join('\n'));
    docs.push(['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: c', '    contract: { file: fixtures/nda-standard.docx }', '    expect: { redlines: [{ topic: Term, evaluation: { in: [reject], not_in: [accept] } }] }'].join('\n'));
    docs.push(['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: d', '    review_type: ~', '    contract: { file: fixtures/nda-standard.docx }', '    expect: { flags: { count: ~ } }'].join('\n'));
    await writeFile(join(dir, 'tests/contracts.test.yaml'), `${docs.join('\n---\n')}\n`);
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/contracts.test.yaml:5:23 error missing-file contract file "fixtures" is a folder, not a file (looked for tests/fixtures)');
    expect(r.stderr).toContain('tests/contracts.test.yaml:12:15 error invalid-value `contract` has a value that is not allowed here (got {"file":"fixtures/nda-standard.docx","imported_file":"4f1...)');
    expect(r.stderr).toContain('hint: Give `file` (a contract in this directory) or `imported_file` with `sha256` (one already imported), not both.');
    expect(r.stderr).toContain('tests/contracts.test.yaml:20:53 error invalid-value `evaluation` must have at most 1 key (got {"in":["reject"],"not_in":["accept"]})');
    expect(r.stderr).toContain('tests/contracts.test.yaml:26:18 error invalid-value `review_type` must be one of: RedlineReview, SummaryReview (written "~", which YAML reads as no value)');
    expect(r.stderr).toMatch(/tests\/contracts\.test\.yaml:28:\d+ error invalid-value `count` must be [^\n]* \(written "~", which YAML reads as no value\)/);
  });

  it('suggests the word a typo of one form of a value is close to (`expect: acepted`)', async () => {
    const dir = await example();
    const validateTest = async (text: string) => {
      await writeFile(join(dir, 'tests/typo.test.yaml'), text);
      return runCli(['validate', '-C', dir]);
    };
    const expecting = (outcome: string) => ['kind: TemplateTest', 'template: Consulting Agreement', 'cases:', '  - name: c', '    values: { services_summary: x }', `    expect: ${outcome}`, ''].join('\n');
    const r = await validateTest(expecting('acepted'));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/typo.test.yaml:6:13 error invalid-value `expect` must be `accepted` or a mapping (got "acepted")\n  hint: did you mean `accepted`?');
    // The other form written short: a key of the mapping, said so.
    const short = await validateTest(expecting('rejected'));
    expect(short.stderr).toContain('hint: `rejected` is a key of the mapping written here, not a value: write `{ rejected: … }` (accepted, or { rejected: { field } }: the 400 names that field)');
    // A resource in a test file is in the wrong file, not a misspelt test.
    const resource = await validateTest('kind: Playbook\nname: Extra\n');
    expect(resource.stderr).toContain('tests/typo.test.yaml:1:7 error unknown-kind Playbook is a resource, and files named *.test.yaml hold only tests (`kind: PlaybookTest` or `kind: TemplateTest`)\n  hint: move it to a file not named *.test.yaml (rename tests/typo.test.yaml to tests/typo.yaml)');
    expect(resource.stderr).not.toContain('did you mean `PlaybookTest`');
    // Never a rename onto a file that holds something: following the hint would lose it (probe OO-1).
    await writeFile(join(dir, 'tests/typo.yaml'), 'kind: Playbook\nname: Kept\nrules: []\n');
    const taken = await validateTest('kind: Playbook\nname: Extra\n');
    expect(taken.stderr).toContain('hint: move it to a file not named *.test.yaml (tests/typo.yaml exists: add the document to it after a `---` line, or rename tests/typo.test.yaml to another name)');
  });

  it("refuses a template test's value or expected rejection of a field the custom template's definition does not have, before any call (probe RF-2)", async () => {
    const dir = await example();
    const cases = ['kind: TemplateTest', 'template: Consulting Agreement', 'cases:', '  - name: typo', '    values: { services_summary: x, start_date: 2027-01-15, hourly_rat: lots }', '    expect: accepted', '  - name: named as the service paths it', '    values: { services_summary: x, start_date: 2027-01-15, governing_law_region: Berlin }', '    expect: { rejected: { field: agreement.hourly_rate } }', '  - name: typo in the expectation', '    values: { services_summary: x }', '    expect: { rejected: { field: hourly_rat } }', ''];
    await writeFile(join(dir, 'tests/fields.test.yaml'), cases.join('\n'));
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    const errors = r.stderr.split('\n').filter((l) => / error /.test(l));
    expect(errors).toEqual([
      'tests/fields.test.yaml:5:60 error unknown-field "hourly_rat" is not a field of the custom template, did you mean `hourly_rate`?',
      'tests/fields.test.yaml:12:34 error unknown-field "hourly_rat" is not a field of the custom template, so no rejection names it, did you mean `hourly_rate`?',
    ]);
    expect(r.stderr).toContain('hint: its fields: services_summary, start_date, billing_model, hourly_rate, travel_policy, governing_law_region, chosen_courts_region');
    // A case expecting a rejection may send an unknown key on purpose, and the values as a whole may be what is refused (second read SR88-5).
    const refusals = ['kind: TemplateTest', 'template: Consulting Agreement', 'cases:', '  - name: an unknown key is refused', '    values: { services_summary: x, start_date: 2027-01-15, hourly_rat: lots }', '    expect: { rejected: { field: hourly_rat } }', '  - name: the values as a whole', '    values: { services_summary: x }', '    expect: { rejected: { field: custom_field_values } }', ''];
    await writeFile(join(dir, 'tests/fields.test.yaml'), refusals.join('\n'));
    const warned = await runCli(['validate', '-C', dir]);
    expect(warned.stderr.split('\n').filter((l) => / (error|warning) /.test(l))).toEqual([
      'tests/fields.test.yaml:5:60 warning unknown-field "hourly_rat" is not a field of the custom template (the case expects a rejection, which may be this key\'s), did you mean `hourly_rate`?',
      'tests/fields.test.yaml:6:34 error unknown-field "hourly_rat" is not a field of the custom template, so no rejection names it, did you mean `hourly_rate`?',
    ]);
  });

  it('refuses a case name used twice for one playbook, across documents and files (the reports could not tell them apart)', async () => {
    const dir = await example();
    const doc = (playbook: string, names: string[]) => ['kind: PlaybookTest', `playbook: ${playbook}`, 'cases:', ...names.flatMap((n) => [`  - name: ${n}`, '    contract: { file: fixtures/nda-standard.docx }', '    expect: { flags: { count: 0 } }'])].join('\n');
    await writeFile(join(dir, 'tests/twice.test.yaml'), `${[doc('Inbound NDA', ['a', 'b', 'a']), doc('Inbound NDA', ['b']), doc('Vendor MSA', ['a'])].join('\n---\n')}\n`);
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/twice.test.yaml:10:11 error duplicate-case case "a" is named twice in this file (first at line 4)');
    expect(r.stderr).toContain('tests/twice.test.yaml:17:11 error duplicate-case case "b" is named twice in this file (first at line 7)');
    expect(r.stderr).toContain('2 errors, 0 warnings.');
    // Across files too: a JUnit report names a case by its playbook and name alone (probe CA-4).
    await writeFile(join(dir, 'tests/twice.test.yaml'), `${doc('Inbound NDA', ['a standard NDA raises no flag'])}\n`);
    const across = await runCli(['validate', '-C', dir]);
    expect(across.stderr).toMatch(/tests\/twice\.test\.yaml:4:11 error duplicate-case case "a standard NDA raises no flag" is named twice for the same playbook \(first in tests\/inbound-nda\.test\.yaml at line \d+\)\n  hint: a JUnit report names a case by its playbook or template and its name: rename one of them/);
    // A copy made with an alias is said at the alias, not at the case it copies (probe QD-2).
    await writeFile(join(dir, 'tests/twice.test.yaml'), 'kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - &c\n    name: a\n    contract: { file: fixtures/nda-standard.docx }\n    expect: { flags: { count: 0 } }\n  - *c\n');
    expect((await runCli(['validate', '-C', dir])).stderr).toContain('tests/twice.test.yaml:8:5 error duplicate-case case "a" is named twice in this file (first at line 5)');
    // Names the reports show alike are one name: blanks at the ends, a run of them (probe YA-3).
    await writeFile(join(dir, 'tests/twice.test.yaml'), `${doc('Inbound NDA', ['governing law', '"governing law "', '"governing  law"'])}\n`);
    const blanks = await runCli(['validate', '-C', dir]);
    expect(blanks.stderr).toContain('tests/twice.test.yaml:7:11 error duplicate-case case "governing law " is named twice in this file (first at line 4, as "governing law": reports show the two alike');
    expect(blanks.stderr).toContain('tests/twice.test.yaml:10:11 error duplicate-case case "governing  law" is named twice');
    // And a character XML cannot hold, which a JUnit report leaves out; a name of nothing else is blank there (probe AA-2).
    await writeFile(join(dir, 'tests/twice.test.yaml'), `${doc('Inbound NDA', ['same', '"same\\uFFFF"', '"\\uFFFE"'])}\n`);
    const noXml = await runCli(['validate', '-C', dir]);
    expect(noXml.stderr).toContain('tests/twice.test.yaml:7:11 error duplicate-case case "same\\uffff" is named twice in this file (first at line 4, as "same": reports show the two alike');
    expect(noXml.stderr).toContain('tests/twice.test.yaml:10:11 error blank-name case name "\\ufffe" is blank in a JUnit report, which leaves out the characters XML cannot hold');

    // A long name is quoted cut short, as every other diagnostic quotes a value.
    const long = `Inbound NDA ${'x'.repeat(100)}`;
    await writeFile(join(dir, 'tests/twice.test.yaml'), `${doc(long, ['a'])}\n`);
    const cut = await runCli(['validate', '-C', dir]);
    expect(cut.stderr).toContain(`tests/twice.test.yaml:2:11 error unknown-playbook no Playbook named "Inbound NDA ${'x'.repeat(45)}..." is declared`);
  });

  it('reports every problem of a test file at once: a key too many or an empty expect hides none of the others', async () => {
    const dir = await example();
    const doc = [
      'kind: PlaybookTest',
      'playbook: Inbound NDA',
      'cases:',
      '  - name: one',
      '    contract: { file: fixtures/nda-standard.docx }',
      '    expect: { flags: { includes: [Nope] } }',
      '  - name: one',
      '    contract: { file: missing.docx }',
      '    expect: {}',
      '    repaet: 3',
      '',
    ].join('\n');
    await writeFile(join(dir, 'tests/many.test.yaml'), doc);
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    for (const problem of ['tests/many.test.yaml:10:5 error unknown-key', 'tests/many.test.yaml:9:13 error', 'error unknown-rule "Nope"', 'tests/many.test.yaml:7:11 error duplicate-case', 'missing.docx']) expect(r.stderr).toContain(problem);

    // A case name of blanks names nothing in the reports (a JUnit testcase, an annotation).
    await writeFile(join(dir, 'tests/many.test.yaml'), doc.replace('  - name: one\n    contract: { file: missing.docx }', '  - name: "  "\n    contract: { file: missing.docx }'));
    const blank = await runCli(['validate', '-C', dir]);
    expect(blank.stderr).toContain('tests/many.test.yaml:7:11 error blank-name case name "  " is blank');

    // Numbers out of range and words not in their list hide none of the others either.
    await writeFile(join(dir, 'tests/many.test.yaml'), doc.replace('playbook: Inbound NDA', 'playbook: Inbound NDA\ndefaults: { repeat: 0, severity: fatal }').replace('    repaet: 3\n', ''));
    const ranges = await runCli(['validate', '-C', dir]);
    for (const problem of ['`repeat` must be at least 1', '`severity` must be one of', 'error unknown-rule "Nope"', 'error duplicate-case', 'missing.docx']) expect(ranges.stderr).toContain(problem);

    // Nor does a key missing, or a value of the wrong type: the checks read what has the right type.
    await writeFile(
      join(dir, 'tests/many.test.yaml'),
      ['kind: PlaybookTest', 'playbook: Inbound ND', 'cases:', '  - name: one', '    contract: { file: missing.docx }', '  - name: two', '    contract: fixtures/nda-standard.docx', '    expect: { redlines: [{ topic: Term, count: lots }, 7], flags: { includes: [Nope, 3] } }', ''].join('\n'),
    );
    const shapes = await runCli(['validate', '-C', dir]);
    expect(shapes.code).toBe(1);
    for (const problem of ['tests/many.test.yaml:4:5 error missing-field', 'tests/many.test.yaml:2:11 error unknown-playbook', 'did you mean `Inbound NDA`', 'tests/many.test.yaml:5:23 error missing-file', 'tests/many.test.yaml:7:15 error', 'tests/many.test.yaml:8:48 error invalid-value `count`', 'tests/many.test.yaml:8:86 error']) expect(shapes.stderr).toContain(problem);
    expect(shapes.stderr).not.toContain('Internal error');
    // A contract written as a bare path is one mistake, said once: not a mapping (probe QD-3).
    expect(shapes.stderr.split('\n').filter((l) => l.startsWith('tests/many.test.yaml:7:'))).toEqual(['tests/many.test.yaml:7:15 error invalid-value `contract` must be a mapping, not a string (got "fixtures/nda-standard.docx")']);
    // With the playbook known, a rule it lacks is named beside the wrong types.
    await writeFile(join(dir, 'tests/many.test.yaml'), (await readFile(join(dir, 'tests/many.test.yaml'), 'utf8')).replace('Inbound ND\n', 'Inbound NDA\n'));
    expect((await runCli(['validate', '-C', dir])).stderr).toContain('tests/many.test.yaml:8:80 error unknown-rule "Nope"');
  });

  /** validate of the example with a test file `file` of Inbound NDA whose cases each expect only these flags of one contract: refused. */
  async function validateFlagCases(file: string, cases: [name: string, flags: string][]): Promise<CliResult> {
    const dir = await example();
    const doc = ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', ...cases.flatMap(([name, flags]) => [`  - name: ${name}`, '    contract: { file: fixtures/nda-perpetual.docx }', `    expect: { flags: ${flags} }`]), ''].join('\n');
    await writeFile(join(dir, file), doc);
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    return r;
  }

  it('refuses expectations no review can meet, as it refuses a count whose min is above its max: a flag both included and excluded, more flags included than the count allows (probe HI)', async () => {
    const r = await validateFlagCases('tests/never.test.yaml', [
      ['contradictory', '{ includes: [Term], excludes: [term] }'],
      ['too few', '{ includes: [Term, Residuals], count: { max: 1 } }'],
      ['possible', '{ includes: [Term], excludes: [Residuals], count: 1 }'],
    ]);
    expect(r.stderr).toContain('tests/never.test.yaml:6:53 error invalid-value flag "term" is in both `includes` and `excludes`: no review can pass the case');
    expect(r.stderr).toContain('tests/never.test.yaml:9:60 error invalid-value `count` allows at most 1 flag, but `includes` asks for 2: no review can pass the case');
    expect(r.stderr).toContain('2 errors,');
  });

  it('refuses `flags` that names no flag and no count, which any review passes (probe DJ-4)', async () => {
    const r = await validateFlagCases('tests/nothing.test.yaml', [
      ['severity only', '{ severity: warn }'],
      ['empty lists', '{ includes: [], excludes: [] }'],
    ]);
    expect(r.stderr).toContain('tests/nothing.test.yaml:6:22 error invalid-value `flags` checks nothing: it names no flag to include or exclude, and no `count`');
    expect(r.stderr).toContain('tests/nothing.test.yaml:9:22 error invalid-value `flags` checks nothing');
    expect(r.stderr).toContain('2 errors,');
  });

  it('refuses a redline asked for no evaluation of its topic that yet names its commentary or evaluation: it passes without testing anything (probe NL-2)', async () => {
    const dir = await example();
    const redline = (count: string, more: string) => `    expect: { redlines: [{ topic: Term, count: ${count}, ${more} }] }`;
    const doc = ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: commentary', '    contract: { file: fixtures/nda-perpetual.docx }', redline('0', 'commentary: { contains: perpetual }'), '  - name: evaluation', '    contract: { file: fixtures/nda-perpetual.docx }', redline('{ max: 0 }', 'evaluation: reject'), ''].join('\n');
    await writeFile(join(dir, 'tests/none.test.yaml'), doc);
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/none.test.yaml:6:63 error invalid-value `count` asks for no evaluation of "Term", so there is none whose commentary to check: `commentary` tests nothing');
    expect(r.stderr).toContain('tests/none.test.yaml:9:72 error invalid-value `count` asks for no evaluation of "Term", so there is none whose evaluation to check: `evaluation` tests nothing');
  });

  it('refuses expectations every review passes: an empty list of redlines or positions, a count of at least 0 and no most (probe NZ-1)', async () => {
    const dir = await example();
    const at = (name: string, expect: string) => [`  - name: ${name}`, '    contract: { file: fixtures/nda-perpetual.docx }', `    expect: ${expect}`];
    // At least none of Term, each a reject: says something, and is taken (second read SR79B-2).
    const doc = ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', ...at('redlines', '{ redlines: [] }'), ...at('positions', '{ positions: [] }'), ...at('flags', '{ flags: { count: { min: 0 } } }'), ...at('position', '{ positions: [{ count: { min: 0 } }] }'), ...at('none', '{ flags: { count: { max: 0 } } }'), ...at('if any', '{ redlines: [{ topic: Term, count: { min: 0 }, evaluation: reject }] }'), ''].join('\n');
    await writeFile(join(dir, 'tests/vacuous.test.yaml'), doc);
    const r = await runCli(['validate', '-C', dir]);
    const vacuous = ' error invalid-value `count` asks for at least 0 and no most: every review passes it, so it tests nothing';
    expect([r.code, r.stderr.split('\n').filter((l) => l.includes(' error '))]).toEqual([
      1,
      ['tests/vacuous.test.yaml:6:25 error invalid-value `redlines` must not be an empty list', 'tests/vacuous.test.yaml:9:26 error invalid-value `positions` must not be an empty list', `tests/vacuous.test.yaml:12:31${vacuous}`, `tests/vacuous.test.yaml:15:36${vacuous}`],
    ]);
  });

  it('refuses a redline expected of a SummaryReview, which evaluates no rule, unless it expects none (probe NZ-2)', async () => {
    const dir = await example();
    const doc = ['kind: PlaybookTest', 'playbook: Inbound NDA', 'defaults: { review_type: SummaryReview }', 'cases:', '  - name: summary', '    contract: { file: fixtures/nda-perpetual.docx }', '    expect: { redlines: [{ topic: Term, evaluation: needs_review }] }', '  - name: none', '    contract: { file: fixtures/nda-perpetual.docx }', '    expect: { redlines: [{ topic: Term, count: 0 }] }', '  - name: redline', '    contract: { file: fixtures/nda-perpetual.docx }', '    review_type: RedlineReview', '    expect: { redlines: [{ topic: Term }] }', ''].join('\n');
    await writeFile(join(dir, 'tests/summary.test.yaml'), doc);
    const r = await runCli(['validate', '-C', dir]);
    expect([r.code, r.stderr.split('\n').slice(0, 2)]).toEqual([1, ['tests/summary.test.yaml:7:26 error invalid-value a redline of "Term" is expected of a SummaryReview, which evaluates no rule: no review can meet it', '  hint: use `review_type: RedlineReview` (or leave it out: the service chooses), or expect `count: 0`']]);
    expect(r.stderr).toContain('1 error,');
  });

  it('says an empty contract file or rejected field once, as empty, not also as a folder or an unknown field (probe FE-4)', async () => {
    const dir = await example();
    const doc = 'kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - name: e\n    contract: { file: "" }\n    review_type: SummaryReview\n    expect: { flags: { count: { max: 0 } } }\n---\nkind: TemplateTest\ntemplate: Consulting Agreement\ncases:\n  - name: r\n    values: { services_summary: x }\n    expect: { rejected: { field: "" } }\n';
    await writeFile(join(dir, 'tests/empty.test.yaml'), doc);
    const r = await runCli(['validate', '-C', dir]);
    expect([r.code, r.stderr]).toEqual([1, 'tests/empty.test.yaml:5:23 error invalid-value `file` must not be empty (got "")\ntests/empty.test.yaml:14:34 error invalid-value `field` must not be empty (got "")\n2 errors, 0 warnings.\n']);
  });

  it('refuses a case with no review type that needs both a redline and a flag or position: the service picks one type, which says only one of them (probe FC-5)', async () => {
    const dir = await example();
    const doc = ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: both', '    contract: { file: fixtures/nda-perpetual.docx }', '    expect:', '      flags: { includes: [Term] }', '      redlines: [{ topic: Term, evaluation: needs_review }]', '  - name: redline and no flag', '    contract: { file: fixtures/nda-perpetual.docx }', '    expect:', '      flags: { count: { max: 0 } }', '      redlines: [{ topic: Term }]', ''].join('\n');
    await writeFile(join(dir, 'tests/both.test.yaml'), doc);
    const r = await runCli(['validate', '-C', dir]);
    expect([r.code, r.stderr.split('\n').slice(0, 2)]).toEqual([
      1,
      [
        'tests/both.test.yaml:7:27 error invalid-value a redline of "Term" and flag "Term" are both expected, but a RedlineReview raises no flag nor takes a position, and a SummaryReview evaluates no rule: no review can meet both',
        '  hint: split it into two cases, one with `review_type: RedlineReview` for the redlines, one with `review_type: SummaryReview` for the flags and positions',
      ],
    ]);
    expect(r.stderr).toContain('1 error,');
  });

  it('refuses flags and positions expected of a RedlineReview, which raises no flag and takes no position, unless they expect none (probe YA-2)', async () => {
    const dir = await example();
    const doc = [
      'kind: PlaybookTest', 'playbook: Inbound NDA', 'defaults: { review_type: RedlineReview }', 'cases:',
      '  - name: flags', '    contract: { file: fixtures/nda-perpetual.docx }', '    expect: { flags: { includes: [Term] } }',
      '  - name: counted', '    contract: { file: fixtures/nda-perpetual.docx }', '    expect: { flags: { count: { min: 2 } } }',
      '  - name: positions', '    contract: { file: fixtures/nda-perpetual.docx }', '    expect: { positions: [{ summary: { contains: term } }] }',
      '  - name: none', '    contract: { file: fixtures/nda-perpetual.docx }', '    expect: { flags: { count: 0, excludes: [Term] }, positions: [{ summary: { contains: term }, count: 0 }] }',
      '  - name: summary', '    contract: { file: fixtures/nda-perpetual.docx }', '    review_type: SummaryReview', '    expect: { flags: { includes: [Term] }, positions: [{ summary: { contains: term } }] }',
      '',
    ].join('\n');
    await writeFile(join(dir, 'tests/redline.test.yaml'), doc);
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr.split('\n').filter((l) => / error /.test(l))).toEqual([
      'tests/redline.test.yaml:7:35 error invalid-value flag "Term" is expected of a RedlineReview, which raises no flag: no review can meet it',
      'tests/redline.test.yaml:10:31 error invalid-value `count` asks for at least 2 flags of a RedlineReview, which raises no flag: no review can meet it',
      'tests/redline.test.yaml:13:27 error invalid-value a position is expected of a RedlineReview, which takes no position on a topic: no review can meet it',
    ]);
    expect(r.stderr).toContain('  hint: use `review_type: SummaryReview` (or leave it out: the service chooses), or expect `count: 0`');
  });

  it('says a count the schema refuses once, not also that it allows fewer flags than `includes` asks for (probe HM-3)', async () => {
    const r = await validateFlagCases('tests/odd.test.yaml', [
      ['negative', '{ count: -1 }'],
      ['negative max', '{ count: { max: -2 } }'],
      ['fraction', '{ includes: [Term], count: { min: 0, max: 0.5 } }'],
    ]);
    expect(r.stderr).not.toContain('asks for');
    expect(r.stderr.match(/tests\/odd\.test\.yaml:\d+:\d+ error/g)).toHaveLength(3);
  });

  it('reports the other problems of a test file with a duplicate key or a control character, as it does for resource files', async () => {
    const dir = await example();
    const doc = (head: string[], name: string) =>
      [...head, 'cases:', `  - name: ${name}`, '    contract: { file: fixtures/nda-perpetual.docx }', '    repeat: 0', '    expect: { flags: { includes: [Nope] } }', ''].join('\n');
    await writeFile(join(dir, 'tests/dup.test.yaml'), doc(['kind: PlaybookTest', 'playbook: Inbound NDA', 'playbook: Inbound NDA'], 'd1'));
    await writeFile(join(dir, 'tests/ctl.test.yaml'), doc(['kind: PlaybookTest', 'playbook: Inbound NDA'], '"ctl\\u0007x"'));
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    for (const file of ['dup', 'ctl']) {
      expect(r.stderr).toMatch(new RegExp(`tests/${file}\\.test\\.yaml:\\d+:\\d+ error invalid-value .*repeat`));
      expect(r.stderr).toMatch(new RegExp(`tests/${file}\\.test\\.yaml:\\d+:\\d+ error unknown-rule .*Nope`));
    }
    expect(r.stderr).toMatch(/tests\/dup\.test\.yaml:3:1 error duplicate-key duplicate key `playbook`/);
    expect(r.stderr).toMatch(/tests\/ctl\.test\.yaml:\d+:\d+ error control-character/);
    // The name with a control character is said once, not also by the schema.
    expect(r.stderr.match(/tests\/ctl\.test\.yaml:4:/g)).toHaveLength(1);
  });

  /** validate of the example with one of its files edited (a rename with renamed_from): its NDA playbook by default. */
  const validateRenamed = async (from: string, to: string, file = 'playbooks/inbound-nda.yaml') => {
    const dir = await example();
    const path = join(dir, file);
    await writeFile(path, (await readFile(path, 'utf8')).replace(from, to));
    return runCli(['validate', '-C', dir]);
  };

  it('says a test file naming a playbook by a former name (its renamed_from) which name it has now (probe DQ)', async () => {
    const r = await validateRenamed('name: Inbound NDA\n', 'name: Inbound NDAs\nrenamed_from: [Inbound NDA]\n');
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain('tests/inbound-nda.test.yaml:5:11 error unknown-playbook no Playbook named "Inbound NDA" is declared in this configuration, did you mean `Inbound NDAs`? ("Inbound NDA" is a former name its renamed_from lists)');
    // A template too (the second read).
    const t = await validateRenamed('name: Mutual NDA\n', 'name: Mutual NDA 2027\nrenamed_from: [Mutual NDA]\n', 'templates/mutual-nda.yaml');
    expect(t.stdout + t.stderr).toContain('error unknown-template no CustomTemplate or Template named "Mutual NDA" is declared in this configuration, did you mean `Mutual NDA 2027`? ("Mutual NDA" is a former name its renamed_from lists)');
  });

  it('tells a test naming a rule by its former name (renamed_from) the name it has now', async () => {
    const r = await validateRenamed('  - name: Term\n', '  - name: Duration\n    renamed_from: [Term]\n');
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/tests\/inbound-nda\.test\.yaml:\d+:\d+ error unknown-rule "Term" is not a rule of the playbook: it is renamed to "Duration" \(renamed_from\)\n  hint: name it "Duration"/);
  });

  it('checks the test files of a configuration it refuses, so every problem is said at once', async () => {
    const dir = await example();
    await writeFile(join(dir, 'playbooks/broken.yaml'), 'kind: Playbook\nname: Broken\nrules:\n  - name: R\n    actions: x\n    reviewer: not-an-email\n');
    await writeFile(join(dir, 'tests/y.test.yaml'), 'kind: PlaybookTest\nplaybok: Inbound NDA\n');
    await writeFile(join(dir, 'tests/x.test.yaml'), 'kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n  - name: x\n    contract: { file: nope.docx }\n    expect: { flags: { includes: [Term] } }\n');
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('playbooks/broken.yaml:6:15 error');
    expect(r.stderr).toContain('tests/y.test.yaml:2:1 error unknown-key');
    expect(r.stderr).toMatch(/tests\/x\.test\.yaml:5:\d+ error [\w-]+ .*nope\.docx/);
    // What the tests name is checked against what the configuration declares, as every document of it could be read.
    await writeFile(join(dir, 'tests/z.test.yaml'), 'kind: PlaybookTest\nplaybook: Inbound ND\ncases:\n  - name: z\n    contract: { file: fixtures/nda-standard.docx }\n    expect: { flags: { includes: [Term] } }\n');
    const named = await runCli(['validate', '-C', dir]);
    expect(named.stderr).toContain('tests/z.test.yaml:2:11 error unknown-playbook no Playbook named "Inbound ND" is declared in this configuration, did you mean `Inbound NDA`?');
    // A document that cannot be read hides what it declares: no test is refused for naming it.
    await writeFile(join(dir, 'playbooks/unreadable.yaml'), 'kind: Playbook\nname: "Inbound ND\nrules: []\n');
    const unread = await runCli(['validate', '-C', dir]);
    expect(unread.stderr).toContain('playbooks/unreadable.yaml:2:7 error yaml-syntax');
    expect(unread.stderr).not.toContain('unknown-playbook');
    // So does one whose alias names no anchor, or expands past the limit (a bomb).
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 8 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [*${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}, *${String.fromCharCode(97 + i)}]`)].join('\n');
    for (const [text, code] of [
      ['kind: Playbook\nname: Inbound ND\ninternal_notes: *notes\nrules: []\n', 'yaml-undefined-alias'],
      [`kind: Playbook\nname: Inbound ND\nrules: []\n${bomb.replace(/^/gm, 'x_')}\n`, 'yaml-alias-expansion'],
    ] as const) {
      await writeFile(join(dir, 'playbooks/unreadable.yaml'), text);
      const aliased = await runCli(['validate', '-C', dir]);
      expect(aliased.stderr).toContain(`error ${code}`);
      expect(aliased.stderr).not.toContain('unknown-playbook');
    }
    // Above a configuration (no docket.yaml here), other projects' test files are not read.
    const above = await runCli(['validate', '-C', join(dir, '..')]);
    expect(above.code).toBe(1);
    expect(above.stderr).not.toContain('test.yaml');
  });

  it('refuses no test for naming a playbook whose name the configuration leaves unknown', async () => {
    const dir = await example();
    const file = join(dir, 'playbooks/inbound-nda.yaml');
    const original = await readFile(file, 'utf8');
    // A name from a variable set only under an environment not selected, a name left out, a rule's name from one.
    for (const [edit, code] of [
      [original.replace('name: Inbound NDA\n', 'name: ${var.nda_name}\n'), 'undefined-variable'],
      [original.replace('name: Inbound NDA\n', ''), 'missing-field'],
    ] as const) {
      expect(edit).not.toBe(original);
      await writeFile(file, edit);
      const r = await runCli(['validate', '-C', dir]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`playbooks/inbound-nda.yaml`);
      expect(r.stderr).toContain(` error ${code} `);
      expect(r.stderr).not.toContain('unknown-playbook');
    }
    // Every name known: a test naming a playbook no document declares is refused as before.
    await writeFile(file, original.replace('name: Inbound NDA\n', 'name: Inbound NDA 2\n'));
    await writeFile(join(dir, 'playbooks/broken.yaml'), 'kind: Playbook\nname: Broken\nrules:\n  - name: ${var.rule_name}\n    actions: x\n');
    expect((await runCli(['validate', '-C', dir])).stderr).not.toContain('unknown-playbook');
    await writeFile(join(dir, 'playbooks/broken.yaml'), 'kind: Playbook\nname: Broken\nrules:\n  - name: R\n    actions: ${var.actions}\n');
    expect((await runCli(['validate', '-C', dir])).stderr).toContain('tests/inbound-nda.test.yaml:5:11 error unknown-playbook');
  });

  it('says only that `kind` is missing when a test document lacks it (not the keys of both kinds)', async () => {
    const dir = await example();
    await writeFile(join(dir, 'tests/kindless.test.yaml'), ['playbook: Inbound NDA', 'cases:', '  - name: x', '    contract: { file: fixtures/nda-standard.docx }', '    expect: { flags: { count: 0 } }', ''].join('\n'));
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/kindless.test.yaml:1:1 error missing-field missing required field `kind` in test file');
    expect(r.stderr).toContain('1 error, 0 warnings.');
  });

  it('prints one JSON document, the error, when the JUnit report cannot be written, before any case runs', async () => {
    const dir = await example();
    const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '-o', 'json', '--junit', join(dir, 'tests')]);
    expect(r.code).toBe(1);
    const doc = JSON.parse(r.stdout) as { ok?: boolean; summary: { cases: number }; error?: { message: string } };
    expect(await testReportErrors(doc)).toEqual([]);
    expect(doc.ok).toBe(false);
    // Checked first: no review is paid for a report that cannot be written.
    expect(doc.summary.cases).toBe(0);
    expect(doc.error?.message).toContain(`--junit ${join(dir, 'tests')} is a directory`);
  });
});

describe('docket test --emulator while an apply holds the configuration', () => {
  it('waits within its --timeout, and its hint names that flag, not apply\'s --lock-timeout', async () => {
    const dir = await example();
    await mkdir(join(dir, '.docket'), { recursive: true });
    // A holder that runs (the process that started this one) on this machine.
    await writeFile(join(dir, '.docket', 'apply.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), started: new Date().toISOString() }));
    const r = await runCli(['test', '-C', dir, '--emulator', '--timeout', '1s']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('still after waiting 1s');
    expect(r.stderr).toContain('hint: wait for it to finish, or pass a --timeout longer than 1s to wait for it; ');
    // Held by a docket test, it is named as one, not as an apply.
    await writeFile(join(dir, '.docket', 'apply.lock'), JSON.stringify({ pid: process.ppid, host: hostname(), started: new Date().toISOString(), command: 'test' }));
    const applied = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect([applied.code, applied.stderr]).toEqual([1, expect.stringContaining('Error: another docket test holds ')]);
  });
});
