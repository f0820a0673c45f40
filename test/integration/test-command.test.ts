/**
 * `docket test` through the real CLI against the in-process emulator: the bundled example passes
 * and a broken rule fails the right case; contracts are uploaded once; compare-to; test files in
 * validate. test-command-live.test.ts runs it against a standalone emulator.
 */
import { execFileSync } from 'node:child_process';
import { appendFile, chmod, mkdir, readFile, rename, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { testReportErrors } from '../helpers/test-reports.js';
import { copyExample, makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { breakTermRule, scratch, stateOf } from '../helpers/test-runs.js';

const NDA = 'playbook/Inbound NDA';

afterAll(removeMadeDirs);

const example = copyExample;

describe('docket test on the bundled example (--emulator)', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await example();
  });

  it('passes, leaves no scratch playbook active, voids its test agreements and records each upload', async () => {
    const r = await runCli(['test', '-C', dir, '--emulator', '-o', 'json']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { ok: boolean; summary: { cases: number; pass: number }; suites: { kind: string; cases: { status: string; expectations: { got: string }[] }[] }[] };
    expect(await testReportErrors(report)).toEqual([]);
    expect(report).toMatchObject({ ok: true, summary: { cases: 8, pass: 8 } });
    const rejected = report.suites.find((s) => s.kind === 'TemplateTest')!.cases[1]!.expectations[0]!.got;
    expect(rejected).toMatch(/^rejected \(hourly_rate\)/);

    const org = await stateOf(dir);
    expect(scratch(org).length).toBe(1);
    expect(scratch(org).every((p) => p.archived_at !== null)).toBe(true);
    expect(Object.values(org.agreements.agreements).map((a) => [a.status, a.test_agreement])).toEqual([
      ['voided', true],
      ['voided', true],
    ]);
    const lock = JSON.parse(await readFile(join(dir, 'docket.lock.json'), 'utf8')) as { targets: { emulator: { files: Record<string, { file: string }> } } };
    const uploads = Object.entries(lock.targets.emulator.files).filter(([k]) => k.startsWith('imported-file:'));
    expect(uploads.map(([, e]) => e.file).sort()).toEqual(['tests/fixtures/nda-louisiana.docx', 'tests/fixtures/nda-perpetual.docx', 'tests/fixtures/nda-standard.docx']);
  });

  it('replays an unchanged playbook from the cache, and uploads each contract only once', async () => {
    const before = await stateOf(dir);
    const again = await runCli(['test', '-C', dir, '--emulator', '--target', NDA]);
    expect(again.code).toBe(0);
    expect(again.stdout.split('\n')[0]).toBe('docket test · target: local emulator');
    expect(again.stdout).toContain('PASS  a standard NDA raises no flag (replayed)');
    expect(Object.keys((await stateOf(dir)).reviews).length).toBe(Object.keys(before.reviews).length);

    const fresh = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--no-cache']);
    expect(fresh.code).toBe(0);
    const after = await stateOf(dir);
    expect(Object.keys(after.reviews).length).toBe(Object.keys(before.reviews).length + 3);
    expect(Object.keys(after.imported_files).length).toBe(3);
    // A CI test job keeps .docket/test-cache but not its changes to docket.lock.json: the copy of
    // the upload records kept with the cache spares the uploads of the next run that reviews.
    const lockPath = join(dir, 'docket.lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as { targets: Record<string, { files: Record<string, unknown> }> };
    for (const section of Object.values(lock.targets)) for (const key of Object.keys(section.files)) if (key.startsWith('imported-file:')) delete section.files[key];
    await writeFile(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
    const discarded = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--no-cache']);
    expect(discarded.code).toBe(0);
    expect(Object.keys((await stateOf(dir)).imported_files).length).toBe(3);
    // A committed lock naming files the service has lost: the copy's later uploads are used, not a fourth upload.
    const copied = JSON.parse(await readFile(join(dir, '.docket/test-cache/uploads.json'), 'utf8')) as { uploads: Record<string, Record<string, string>> };
    const stale = JSON.parse(await readFile(lockPath, 'utf8')) as { targets: Record<string, { files: Record<string, unknown> }> };
    for (const sha of Object.keys(copied.uploads.emulator!)) stale.targets.emulator!.files[`imported-file:${sha}`] = { id: '00000000-0000-4000-8000-00000000dead', file: 'tests/fixtures/lost.docx', sha256: sha };
    await writeFile(lockPath, `${JSON.stringify(stale, null, 2)}\n`);
    const lost = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--no-cache']);
    expect(lost.code).toBe(0);
    expect(Object.keys((await stateOf(dir)).imported_files).length).toBe(3);
    // An environment is named, on the emulator too (the example's staging).
    const staging = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--env', 'staging', '--replay-only']);
    expect([staging.code, staging.stdout.split('\n')[0]]).toEqual([0, 'docket test · target: local emulator · environment staging']);
    // Its default reviewer is another (qa@, not alice@), to whom the scratch copy's rules escalate: no review of alice's replays (probe GJ-2).
    expect(staging.stdout).not.toContain('(replayed)');
    const production = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--replay-only']);
    expect(production.stdout).toContain('PASS  a standard NDA raises no flag (replayed)');
  });

  it('fails the right case with a readable message when a rule breaks, at the expectation’s line', async () => {
    await breakTermRule(dir);
    const junit = join(dir, 'report.xml');
    const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--junit', junit, '--annotations', 'github']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('PASS  a standard NDA raises no flag');
    expect(r.stdout).toContain('FAIL  a perpetual NDA is flagged for its term\n      tests/inbound-nda.test.yaml:32:27 expected flag "Term", got no flags');
    expect(r.stdout).toContain('3 cases: 2 passed, 1 failed.');
    expect(r.stdout).toMatch(/::error file=[^,]*tests\/inbound-nda\.test\.yaml,line=32,title=docket test failed::Inbound NDA \/ a perpetual NDA is flagged for its term: expected flag "Term", got no flags/);
    const xml = await readFile(junit, 'utf8');
    expect(xml).toContain('<testcase name="a perpetual NDA is flagged for its term" classname="PlaybookTest.Inbound NDA"');
    expect(xml).toContain('failures="1"');
  });
});

describe('docket test when the recorded uploads are gone', () => {
  it('uploads each contract again once, however many reviews found its id gone (probe FJ)', async () => {
    const dir = await example();
    expect((await runCli(['test', '-C', dir, '--emulator', '--target', NDA])).code).toBe(0);
    expect(Object.keys((await stateOf(dir)).imported_files).length).toBe(3);
    // Three reviews of each contract, and every record of its upload naming a file the service no longer has.
    const tests = join(dir, 'tests/inbound-nda.test.yaml');
    await writeFile(tests, (await readFile(tests, 'utf8')).replace('defaults: { repeat: 1,', 'defaults: { repeat: 3,'));
    const dead = '00000000-0000-4000-8000-00000000dead';
    const lockPath = join(dir, 'docket.lock.json');
    const lock = JSON.parse(await readFile(lockPath, 'utf8')) as { targets: Record<string, { files: Record<string, { id: string }> }> };
    for (const section of Object.values(lock.targets)) for (const [key, entry] of Object.entries(section.files)) if (key.startsWith('imported-file:')) entry.id = dead;
    await writeFile(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
    const copyPath = join(dir, '.docket/test-cache/uploads.json');
    const copy = JSON.parse(await readFile(copyPath, 'utf8')) as { uploads: Record<string, Record<string, string>> };
    for (const target of Object.values(copy.uploads)) for (const sha of Object.keys(target)) target[sha] = dead;
    await writeFile(copyPath, `${JSON.stringify(copy, null, 2)}\n`);
    const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--no-cache']);
    expect([r.code, r.stdout]).toEqual([0, expect.stringContaining('3 cases: 3 passed.')]);
    expect(Object.keys((await stateOf(dir)).imported_files).length).toBe(6);
    // Recorded: the next run that reviews uploads nothing.
    const next = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--no-cache']);
    expect(next.code).toBe(0);
    expect(Object.keys((await stateOf(dir)).imported_files).length).toBe(6);
  });
});

describe('docket test with docket.lock.json made read-only', () => {
  it('uploads no contract it could not record, that case an error saying why; the rest run and are reported (probe CA-2)', async () => {
    const dir = await example();
    expect((await runCli(['test', '-C', dir, '--emulator', '--target', NDA])).code).toBe(0);
    const lockPath = join(dir, 'docket.lock.json');
    await chmod(lockPath, 0o444);
    // One contract changed: its upload could not be recorded.
    await appendFile(join(dir, 'tests/fixtures/nda-standard.docx'), 'changed');
    const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--no-cache']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain(`ERROR a standard NDA raises no flag: cannot write docket.lock.json (EACCES): the contract was not uploaded (hint: make docket.lock.json writable (\`chmod u+w ${lockPath}\`), then docket test again: it records the contracts it uploads there)`);
    expect(r.stdout).toContain('PASS  a perpetual NDA is flagged for its term');
    expect(Object.keys((await stateOf(dir)).imported_files).length).toBe(3);
    await chmod(lockPath, 0o644);
    expect((await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--no-cache'])).code).toBe(0);
    expect(Object.keys((await stateOf(dir)).imported_files).length).toBe(4);
  });
});

describe('docket test --emulator bringing a template up to date first', () => {
  it('records what it uploads and what is then in sync, as apply does: no drift, nothing to pull, nothing planned', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    await writeFile(
      join(dir, 'tests/csa.test.yaml'),
      'kind: TemplateTest\ntemplate: Cloud Service Agreement\ncases:\n  - name: accepted\n    values: { customer_name: Globex }\n    expect: accepted\n',
    );
    // A new PDF: the test uploads it and re-points the template before its case.
    await writeFile(join(dir, 'attachments/security.pdf'), Buffer.concat([await readFile(join(dir, 'attachments/security.pdf')), Buffer.from('\n% revised\n')]));
    const r = await runCli(['test', '-C', dir, '--emulator', 'tests/csa.test.yaml']);
    expect(r.stdout).toContain('brought "Cloud Service Agreement" up to date in the emulator first');
    const drift = await runCli(['drift', '-C', dir, '--emulator']);
    expect(drift.stdout).not.toContain('Cloud Service Agreement');
    expect(drift.code).toBe(0);
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.code).toBe(0);
  });

  it('publishes the custom term a tested custom template links, changed in the files, before its cases (probe EZ)', async () => {
    const dir = await example();
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    const terms = join(dir, 'custom-terms/consulting.md');
    await writeFile(terms, `${await readFile(terms, 'utf8')}\n3. **Notice.** Thirty days.\n`);
    // --live tests what is live, and leaves the drift it checks: it says the live one differs (probe GJ-3).
    const live = await runCli(['test', '-C', dir, '--emulator', '--live', '--target', 'custom-template/Consulting Agreement']);
    expect(live.stdout).not.toContain('up to date in the emulator first');
    expect(live.stdout).toContain('note: the live "Consulting Agreement" differs from the files (publish custom-term "Consulting Terms" (body)): these cases test the live one');
    expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'])).code).toBe(2);
    const r = await runCli(['test', '-C', dir, '--emulator', '--target', 'custom-template/Consulting Agreement']);
    expect(r.stdout).toContain('brought "Consulting Agreement" up to date in the emulator first (1 change)');
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect([plan.code, plan.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
  });
});

/** `repo` made a git repository whose `main` holds it as it is now; its git, to go on with. */
function committedAsMain(repo: string): (...args: string[]) => Buffer {
  const git = (...args: string[]) => execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.com', ...args], { cwd: repo, stdio: 'pipe' });
  git('init', '-q', '-b', 'main');
  git('add', '.');
  git('commit', '-q', '-m', 'base');
  return git;
}

describe('docket test --compare-to', () => {
  it('with --live and no live playbook, still compares with the ref and says every case was asked of the live playbook (probe YA-5)', async () => {
    const dir = await example();
    committedAsMain(dir);
    const r = await runCli(['test', '-C', dir, '--emulator', '--live', '--target', NDA, '--compare-to', 'main']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('PlaybookTest "Inbound NDA" (the live playbook)');
    expect(r.stdout).toMatch(/PASS → ERROR a perpetual NDA is flagged for its term: no live playbook is named "Inbound NDA"/);
    const json = JSON.parse((await runCli(['test', '-C', dir, '--emulator', '--live', '--target', NDA, '--compare-to', 'main', '-o', 'json'])).stdout) as { suites: { live?: boolean; before?: { cases: unknown[] } }[] };
    expect(json.suites.map((s) => [s.live, s.before?.cases.length])).toEqual([[true, 3]]);
  });

  it('runs the same cases against the playbook at a git ref and shows before → after', async () => {
    const dir = await example();
    const git = committedAsMain(dir);
    await breakTermRule(dir);
    const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'main', '-o', 'markdown']);
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('compared to `main` (cells read before → after)');
    expect(r.stdout).toContain('| a perpetual NDA is flagged for its term | ✅ → ❌ |');
    expect(r.stdout).toContain('| a standard NDA raises no flag | ✅ → ✅ |');
    const text = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'main']);
    expect(text.stdout).toContain('PASS → FAIL  a perpetual NDA is flagged for its term');
    const bad = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'no-such-ref']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('Error: --compare-to: "no-such-ref" names no commit of this repository');
    // A rule renamed since: the ref's playbook is reviewed as it was (its rule named Term), and
    // what that review says of Term counts for Duration.
    git('checkout', '-q', '-f', 'main');
    const playbook = join(dir, 'playbooks/inbound-nda.yaml');
    await writeFile(playbook, (await readFile(playbook, 'utf8')).replace('  - name: Term\n', '  - name: Duration\n    renamed_from: Term\n'));
    const tests = join(dir, 'tests/inbound-nda.test.yaml');
    await writeFile(tests, (await readFile(tests, 'utf8')).replaceAll('Term', 'Duration'));
    const renamed = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'main', '-o', 'json']);
    const [suite] = JSON.parse(renamed.stdout).suites;
    expect(suite.before.digest).not.toBe(suite.digest);
    expect(suite.before.cases.find((c: { name: string }) => c.name === 'a perpetual NDA is flagged for its term').status).toBe('pass');
    git('checkout', '-q', '-f', 'main');

    await writeFile(join(dir, 'bogus.yaml'), 'kind: Bogus\n');
    git('add', '.');
    git('commit', '-q', '-m', 'a broken configuration');
    await rm(join(dir, 'bogus.yaml'));
    // A ref whose configuration does not load (a pull request that fixes it): the cases still run, and each suite says why nothing is compared (probe NL-1).
    const broken = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'HEAD']);
    expect(broken.code).toBe(0);
    expect(broken.stdout).toContain('HEAD: The configuration at this ref cannot be loaded (the configuration is invalid: bogus.yaml:1:7 unknown-kind unknown kind `Bogus`): nothing to compare with');
    expect(broken.stdout).toMatch(/PASS {2}a perpetual NDA is flagged for its term/);

    // A ref where the playbook is not declared: said by its name.
    git('checkout', '-q', '-f', '-b', 'without', 'HEAD~1');
    git('rm', '-q', 'playbooks/inbound-nda.yaml');
    git('commit', '-q', '-m', 'no NDA playbook');
    git('checkout', '-q', 'without~1');
    const missing = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'without']);
    expect(missing.stdout).toContain('without: Playbook "Inbound NDA" is not declared at this ref: nothing to compare with');

    // A ref where the configuration directory holds no files (a configuration added since): said so (probe SJ-2).
    git('checkout', '-q', '--orphan', 'bare');
    git('rm', '-q', '-r', '--cached', '.');
    git('commit', '-q', '--allow-empty', '-m', 'nothing yet');
    git('checkout', '-q', '-f', 'without~1');
    const absent = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'bare']);
    expect(absent.stdout).toContain('bare: Playbook "Inbound NDA" is not declared at this ref, where the configuration directory holds no files tracked by git: nothing to compare with');
  });
});

describe('docket test --compare-to through a symbolic link', () => {
  it('finds the configuration at the ref when -C reaches it through a link from outside the repository (probe QY-1)', async () => {
    const dir = await example();
    committedAsMain(dir);
    await breakTermRule(dir);
    const outside = `${dir}-link`;
    await symlink(dir, outside);
    try {
      const r = await runCli(['test', '-C', outside, '--emulator', '--target', NDA, '--compare-to', 'main']);
      expect([r.code, r.stderr]).toEqual([1, '']);
      expect(r.stdout).toContain('PASS → FAIL  a perpetual NDA is flagged for its term');
    } finally {
      await rm(outside);
    }
  });

  it('finds it in a folder whose name starts with a space (second read SR86-6)', async () => {
    const root = await makeDir({});
    const dir = join(root, ' lead');
    await rename(await example(), dir);
    committedAsMain(root);
    await breakTermRule(dir);
    const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'main']);
    expect(r.stdout).toContain('PASS → FAIL  a perpetual NDA is flagged for its term');
  });
});

describe('docket test --compare-to, the ref read as a checkout has it', () => {
  it('follows the configuration folder that was a link at the ref, and a data file that is a link, instead of failing or reading the link as the file (probes FL-1, FL-2)', async () => {
    const root = await makeDir({});
    const real = join(root, 'real');
    await rename(await example(), real);
    await symlink('real', join(root, 'cfg'));
    // A PDF kept in another folder, linked where the attachment names it.
    await mkdir(join(real, 'files'));
    await rename(join(real, 'attachments/security.pdf'), join(real, 'files/security.pdf'));
    await symlink('../files/security.pdf', join(real, 'attachments/security.pdf'));
    const git = committedAsMain(root);
    git('rm', '-q', 'cfg');
    git('mv', 'real', 'cfg');
    git('commit', '-q', '-m', 'the folder itself');
    const dir = join(root, 'cfg');
    await breakTermRule(dir);
    for (const ref of ['main~1', 'main']) {
      const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', ref]);
      expect([r.code, r.stderr], ref).toEqual([1, '']);
      expect(r.stdout, ref).toContain('PASS → FAIL  a perpetual NDA is flagged for its term');
    }
  });

  it('says git\'s own fix for a repository another user owns, not to fetch the base branch (probe FL-6)', async () => {
    const dir = await example();
    committedAsMain(dir);
    // Git's own switch for this check (a container's CI job checks out as another user).
    process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER = '1';
    try {
      const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA, '--compare-to', 'main']);
      expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(`hint: git refuses a repository another user owns: mark it safe, \`git config --global --add safe.directory ${dir}\``)]);
    } finally {
      delete process.env.GIT_TEST_ASSUME_DIFFERENT_OWNER;
    }
  });

  it('reads the ref as --emulator reads today: a service URL an environment sets and the shell contradicts is not the emulator\'s concern (probe FL-3)', async () => {
    const dir = await example();
    const docket = await readFile(join(dir, 'docket.yaml'), 'utf8');
    expect(docket).toContain('\n  staging:\n');
    await writeFile(join(dir, 'docket.yaml'), docket.replace('\n  staging:\n', '\n  staging:\n    review: { url: https://staging.gerri.example }\n'));
    committedAsMain(dir);
    await breakTermRule(dir);
    const r = await runCli(['test', '-C', dir, '--emulator', '--env', 'staging', '--target', NDA, '--compare-to', 'main'], { env: { DOCKET_REVIEW_URL: 'http://127.0.0.1:9/review' } });
    expect(r.stdout).toContain('PASS → FAIL  a perpetual NDA is flagged for its term');
    expect(r.stdout).not.toContain('cannot be loaded');
  });
});

describe('test files in docket validate', () => {
  it('reports every problem at file:line:col, quoting the value, before any network call', async () => {
    const dir = await example();
    await writeFile(
      join(dir, 'tests/broken.test.yaml'),
      ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - name: x', '    contract: { file: fixtures/none.docx }', '    expect:', '      flags: { includes: [Terms] }', '      positions:', '        - summary: { matches: "(?i)five (years" }', ''].join('\n'),
    );
    const r = await runCli(['validate', '-C', dir]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('tests/broken.test.yaml:5:23 error missing-file contract file "fixtures/none.docx" does not exist');
    expect(r.stderr).toContain('tests/broken.test.yaml:7:27 error unknown-rule "Terms" is not a rule of the playbook, did you mean `Term`?');
    expect(r.stderr).toContain('tests/broken.test.yaml:9:31 error invalid-regex `matches` is not a valid regular expression');
    expect(r.stderr).toContain('(got "(?i)five (years")');
    const t = await runCli(['test', '-C', dir, '--emulator']);
    expect(t.code).toBe(1);
    expect(t.stderr).toContain('Error: the test files are invalid');
    // Brought again by an alias or a merge key, a mistake is said once, where it is written (probe OK-1).
    await writeFile(
      join(dir, 'tests/broken.test.yaml'),
      ['kind: PlaybookTest', 'playbook: Inbound NDA', 'cases:', '  - &c1', '    name: c1', '    contract: &k { file: fixtures/none.docx }', '    expect: &e', '      positions:', '        - summary: { matches: "(?i)[bad" }', '  - <<: *c1', '    name: c2', '  - name: c3', '    contract: *k', '    expect: *e', ''].join('\n'),
    );
    const once = (await runCli(['validate', '-C', dir])).stderr;
    expect(once.match(/invalid-regex/g)).toHaveLength(1);
    expect(once.match(/missing-file/g)).toHaveLength(1);
  });

  it('knows a rule by any spelling the matching accepts: case, blanks and Unicode compatibility forms', async () => {
    const dir = await example();
    const file = join(dir, 'tests/inbound-nda.test.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('includes: [Term]', 'includes: ["  TERM ", "ｔｅｒｍ"]').replace('- topic: Governing law', '- topic: "Governing   LAW"'));
    const r = await runCli(['validate', '-C', dir]);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
  });
});

describe('a playbook with rules whose names differ only in letter case (probe EA-2)', () => {
  it('tests each rule by the name as written: a flag of one is not the other\'s, and a name alike to both names neither', async () => {
    const dir = await makeDir({
      'docket.yaml': 'version: 1\n',
      'playbooks/case.yaml': 'kind: Playbook\nname: Case NDA\nrules:\n  - name: Term\n    actions: ACCEPT any term\n  - name: TERM\n    actions: REJECT any term\n',
      'tests/c.txt': 'The term of this agreement is five years.\n',
      'tests/case.test.yaml': 'kind: PlaybookTest\nplaybook: Case NDA\ncases:\n  - name: flags\n    contract: { file: c.txt }\n    review_type: SummaryReview\n    expect:\n      flags: { includes: [TERM], excludes: [Term] }\n',
    });
    expect((await runCli(['validate', '-C', dir])).code).toBe(0);
    const r = await runCli(['test', '-C', dir, '--emulator', '-o', 'json']);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    const report = JSON.parse(r.stdout) as { suites: { cases: { status: string; expectations: { label: string; held: number }[] }[] }[] };
    expect(report.suites[0]!.cases[0]!.status).toBe('pass');
    // Swapped, both fail: TERM is flagged, Term is not.
    await writeFile(join(dir, 'tests/case.test.yaml'), 'kind: PlaybookTest\nplaybook: Case NDA\ncases:\n  - name: flags\n    contract: { file: c.txt }\n    review_type: SummaryReview\n    expect:\n      flags: { includes: [Term], excludes: [TERM] }\n');
    const swapped = await runCli(['test', '-C', dir, '--emulator', '-o', 'json']);
    expect(swapped.code).toBe(1);
    expect((JSON.parse(swapped.stdout) as typeof report).suites[0]!.cases[0]!.expectations.map((e) => e.held)).toEqual([0, 0]);
    await writeFile(join(dir, 'tests/case.test.yaml'), 'kind: PlaybookTest\nplaybook: Case NDA\ncases:\n  - name: flags\n    contract: { file: c.txt }\n    expect:\n      flags: { includes: [term] }\n');
    const v = await runCli(['validate', '-C', dir]);
    expect(v.code).toBe(1);
    expect(v.stderr).toContain('tests/case.test.yaml:7:27 error unknown-rule "term" is not a rule of the playbook, and 2 are alike: "Term", "TERM"');
  });
});

describe('cases of one contract that ask for different numbers of runs', () => {
  it('share the recorded runs: the next run reviews nothing, and --replay-only replays both, whichever comes first', async () => {
    const dir = await example();
    const cases = (first: string, second: string) =>
      `kind: PlaybookTest\nplaybook: Inbound NDA\ncases:\n${[first, second].map((c) => `  - ${c}\n    contract: { file: fixtures/nda-standard.docx }\n    review_type: SummaryReview\n    expect:\n      flags: { count: { max: 0 } }\n`).join('')}`;
    await writeFile(join(dir, 'tests/inbound-nda.test.yaml'), cases('name: once', 'name: thrice\n    repeat: 3'));
    const run = (...flags: string[]) => runCli(['test', '-C', dir, '--emulator', '--target', NDA, ...flags]);
    expect((await run()).code).toBe(0);
    const reviews = async () => Object.keys((await stateOf(dir)).reviews).length;
    const made = await reviews();
    expect(made).toBe(3);
    const again = await run();
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('PASS  thrice (3/3 runs passed, replayed)')]);
    expect(await reviews()).toBe(made);
    // The case needing more runs first, then the other: the same.
    await writeFile(join(dir, 'tests/inbound-nda.test.yaml'), cases('name: thrice\n    repeat: 3', 'name: once'));
    for (const flags of [[], ['--replay-only']]) {
      const replayed = await run(...flags);
      expect([replayed.code, replayed.stdout]).toEqual([0, expect.stringContaining('PASS  once (replayed)')]);
      expect(replayed.stdout).not.toContain('SKIP');
    }
    await writeFile(join(dir, 'tests/inbound-nda.test.yaml'), cases('name: once', 'name: thrice\n    repeat: 3'));
    const replayOnly = await run('--replay-only');
    expect([replayOnly.code, replayOnly.stdout]).toEqual([0, expect.stringContaining('PASS  thrice (3/3 runs passed, replayed)')]);
    expect(replayOnly.stdout).not.toContain('SKIP');
    expect(await reviews()).toBe(made);
    // More runs asked for first than are recorded: that case is skipped, the one needing fewer replays.
    await writeFile(join(dir, 'tests/inbound-nda.test.yaml'), cases('name: five\n    repeat: 5', 'name: once'));
    const fewer = await run('--replay-only');
    expect(fewer.stdout).toContain('SKIP  five: not in the cache (3 of 5 runs recorded');
    expect(fewer.stdout).toContain('PASS  once (replayed)');
  });
});

describe('outcomes written as playbook actions are', () => {
  it('known outcomes in any letter case (REJECT is reject): the case passes with no warning', async () => {
    const dir = await example();
    const file = join(dir, 'tests/inbound-nda.test.yaml');
    await writeFile(file, (await readFile(file, 'utf8')).replace('evaluation: { in: [reject, needs_review] }', 'evaluation: { in: [REJECT, Needs_Review] }').replace('evaluation: reject', 'evaluation: Reject'));
    const r = await runCli(['test', '-C', dir, '--emulator', '--target', NDA]);
    expect([r.code, r.stderr]).toEqual([0, '']);
    expect(r.stdout).toContain('PASS  Louisiana governing law is not accepted');
  });
});
