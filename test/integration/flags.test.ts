/**
 * Flags and environment variables given wrong values: each is a clear error before any request,
 * never an ignored flag, a stack trace or a key sent in vain. The "service" here counts requests.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, existsSync, openSync } from 'node:fs';
import { mkdir, readFile, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN } from '../helpers/bin.js';
import { runCli } from '../helpers/cli.js';
import { makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { DOCKET_YAML, NDA } from './fixtures.js';
import { AGREEMENTS_DOCKET_YAML, CUSTOM_TEMPLATE_YAML, DEFINITION, TERM_MD } from './agreements-fixtures.js';

let server: Server;
let requests = 0;
let lastAuthorization: string | undefined;
let env: Record<string, string>;
let dir: string;

beforeAll(async () => {
  server = createServer((req, res) => {
    requests += 1;
    lastAuthorization = req.headers.authorization;
    res.writeHead(401).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  env = { DOCKET_REVIEW_URL: `${url}/review`, DOCKET_ORGANIZATION_ID: '00000000-0000-4000-8000-000000000001', DOCKET_API_KEY: 'k' };
  dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'a-file': 'x' });
  // Outside the configuration's YAML: a named pipe where a written file goes.
  spawnSync('mkfifo', [join(dir, 'pipe')]);
  spawnSync('ln', ['-s', 'nowhere', join(dir, 'gone-link')]);
});

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
  await removeMadeDirs();
});

/** Runs docket and says how many requests reached the service meanwhile (give it `--timeout 2s`: a bug must not wait out retries). */
async function run(args: string[], extraEnv: Record<string, string> = {}) {
  const before = requests;
  const result = await runCli(args, { env: { ...env, ...extraEnv } });
  return { ...result, requests: requests - before };
}

describe('a mistyped argument', () => {
  it('is quoted with its control characters escaped, never sent to the terminal raw', async () => {
    for (const args of [['plan', '-o', 'te\x07xt'], ['pl\x1b[2Jan'], ['plan', '--timeout', '2\x07m']]) {
      const r = await run(args);
      expect(r.code).toBe(1);
      expect(r.stderr).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
      expect(r.stderr).toMatch(/\\u00(07|1b)/);
    }
    // A line break too: raw, what follows it (`::error::`) starts a line of its own (probe CI-3).
    for (const args of [['plan', '--x\n::error::injected'], ['plan', '--timeout', '1\n'], ['plan', "--x\n'\n::error::inj"]]) {
      const r = await run(args);
      expect(r.code).toBe(1);
      // With a quote between two line breaks too (second read SR101B-3).
      expect(r.stderr.split('\n')[0]).toMatch(/^Error: (unknown option '--x\\n::error::injected'|--timeout: "1\\n" is not a duration \(like 30s, 10m, 1h or 2m30s\)|unknown option '--x\\n'\\n::error::inj')$/);
    }
  });
});

describe('an argument a command does not take', () => {
  it('is quoted, and a directory is shown its place after -C unless -C is given, in text and in -o json (probe NF-5, second read SR78-5)', async () => {
    const text = await run(['validate', 'r5']);
    expect(text.code).toBe(1);
    expect(text.stderr).toContain('Error: unexpected argument "r5": docket validate takes no argument (the configuration directory is given with -C: docket validate -C r5)');
    const json = await run(['plan', 'my dir', '-o', 'json']);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'usage', message: 'unexpected argument "my dir": docket plan takes no argument (the configuration directory is given with -C: docket plan -C \'my dir\')' });
    expect((await run(['show', 'a.json', 'b.json'])).stderr).toContain('Error: unexpected argument "b.json": docket show takes at most 1 argument');
    // With -C given, the argument is something else: no -C offered in its place (second read SR78-5).
    const given = await run(['validate', '-C', 'cfg', 'extra']);
    expect(given.stderr).toContain('Error: unexpected argument "extra": docket validate takes no argument\n');
    // Offered as -C takes it: not empty (a variable not set), and `./` before a word that reads as a flag (probe XE-4).
    expect((await run(['plan', ''])).stderr).toContain('Error: unexpected argument "": docket plan takes no argument\n');
    expect((await run(['plan', '--', '--emulator'])).stderr).toContain('(the configuration directory is given with -C: docket plan -C ./--emulator)');
  });
});

describe('a value given to a flag that takes none', () => {
  it('is said as such, in text and in -o json, not as an option that does not exist (probe RO-1)', async () => {
    const text = await run(['plan', '--detailed-exitcode=true']);
    expect([text.code, text.stderr]).toEqual([1, 'Error: --detailed-exitcode takes no value (got "--detailed-exitcode=true"): write --detailed-exitcode alone, or leave it out\n(run docket plan --help for usage)\n']);
    // A short value, which commander follows with a guess of its own; a negating flag (second read SR89-5).
    for (const [flag, command] of [['--prune=1', 'plan'], ['--force=1', 'apply'], ['--no-color=false', 'plan']] as const) {
      const short = await run([command, flag]);
      expect([short.code, short.stderr]).toEqual([1, `Error: ${flag.slice(0, flag.indexOf('='))} takes no value (got "${flag}"): write ${flag.slice(0, flag.indexOf('='))} alone, or leave it out\n(run docket ${command} --help for usage)\n`]);
    }
    const json = await run(['apply', '--auto-approve=yes', '-o', 'json']);
    expect(JSON.parse(json.stdout).error).toMatchObject({ code: 'usage', message: expect.stringMatching(/^--auto-approve takes no value \(got "--auto-approve=yes"\)/) });
    // A short flag, whose letter commander's own message loses (`unknown option '-=false'`; probe XE-2).
    expect((await run(['plan', '-q=false'])).stderr).toBe('Error: -q takes no value (got "-q=false"): write -q alone, or leave it out\n(run docket plan --help for usage)\n');
    // An option that does not exist is still that.
    expect((await run(['plan', '--bogus=1'])).stderr).toContain("Error: unknown option '--bogus=1'");
  });
});

describe('a file the command writes at its end is checked at its start', () => {
  it('plan --out through a loop of links is refused before any request (the write would find it only after the reads)', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'playbooks/nda.yaml': NDA });
    await symlink('loop', join(dir, 'loop'));
    await symlink('ld', join(dir, 'ld'));
    for (const out of ['loop', 'ld/plan.json']) {
      const r = await run(['plan', '-C', dir, '--out', join(dir, out), '--timeout', '2s']);
      expect([r.code, r.requests]).toEqual([1, 0]);
      expect(r.stderr).toContain(`--out ${join(dir, out)} cannot be written: it is (or is below) a symbolic link that loops`);
    }
  });

  it('plan --out: a directory, a path below a file, or nothing', async () => {
    for (const [out, message] of [
      [dir, `--out ${dir} is a directory`],
      [join(dir, 'a-file', 'plan.json'), 'a-file is a file, not a folder'],
      ['', '--out needs a file name'],
      // A folder not made yet: it was written as a file of the folder's name.
      [`${join(dir, 'plans')}/`, `--out ${join(dir, 'plans')}/ names a folder`],
      // Renamed over, a named pipe (or /dev/null, for root) would be replaced by a regular file.
      [join(dir, 'pipe'), `--out ${join(dir, 'pipe')} is not a regular file (a named pipe or a device)`],
      // Below a link to nothing, the folder cannot be made: said before any read.
      [join(dir, 'gone-link', 'plan.json'), `--out ${join(dir, 'gone-link', 'plan.json')} cannot be written: ${join(dir, 'gone-link')} is a symbolic link to nothing`],
      // Nor through a link to nothing, which would be made wherever it leads (probe RR-4).
      [join(dir, 'gone-link'), `--out ${join(dir, 'gone-link')} cannot be written: it is a symbolic link to nothing`],
    ] as const) {
      const r = await run(['plan', '-C', dir, '--out', out, '-o', 'json', '--timeout', '2s']);
      expect(r.code).toBe(1);
      expect(r.requests).toBe(0);
      expect(JSON.parse(r.stdout).error.message).toContain(message);
    }
    // The file meant, when a slash follows a file's name; a file inside, when a folder's.
    // Not a file that is there (docket.yaml: refused next), nor any YAML name, which a configuration reads (probe PP-3): one beside it.
    for (const [out, hint] of [[`${join(dir, 'plan.json')}/`, `--out ${join(dir, 'plan.json')}`], [`${join(dir, 'plans')}/.`, `--out ${join(dir, 'plans', 'plan.json')}`], [`${join(dir, 'docket.yaml')}/`, `--out ${join(dir, 'plan.json')}`], [`${join(dir, 'playbooks', 'new.yaml')}/`, `--out ${join(dir, 'playbooks', 'plan.json')}`]] as const) {
      const r = await run(['plan', '-C', dir, '--out', out, '-o', 'json', '--timeout', '2s']);
      expect(JSON.parse(r.stdout).error.hint).toBe(`name a file, such as ${hint}`);
    }
  });

  it('plan --out is never a file the configuration is made of: the lock, docket.yaml, a resource, a data file, the emulator\'s state', async () => {
    const config = await makeDir({
      'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n',
      'playbooks/nda.yaml': NDA,
      'terms/t.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n',
      'terms/t.md': 'The terms.\n',
      'docket.lock.json': '{"version":2,"targets":{}}\n',
    });
    /** `plan --out out` on `configDir` is refused before any request, naming the configuration's file `rel` (or saying why a path no file holds is refused). */
    const refused = async (configDir: string, out: string, rel: string, says = `is ${rel}, a file of the configuration: the saved file would take its place`): Promise<void> => {
      const r = await run(['plan', '-C', configDir, '--out', out, '--timeout', '2s']);
      expect([r.code, r.requests]).toEqual([1, 0]);
      expect(r.stderr).toContain(says);
    };
    const kept = ['docket.yaml', 'playbooks/nda.yaml', 'terms/t.md', 'docket.lock.json'];
    const contents = () => Promise.all(kept.map((f) => readFile(join(config, f), 'utf8')));
    const before = await contents();
    for (const [out, rel] of [
      [join(config, 'docket.lock.json'), 'docket.lock.json'],
      [join(config, 'docket.yaml'), 'docket.yaml'],
      [join(config, 'playbooks', 'nda.yaml'), 'playbooks/nda.yaml'],
      [join(config, 'terms', 't.md'), 'terms/t.md'],
      [join(config, '.docket', 'emulator.json'), '.docket/emulator.json'],
    ] as const) {
      await refused(config, out, rel);
    }
    // Any other file of the directory that is no saved plan (a test's contract, a note): not replaced either.
    await mkdir(join(config, 'tests/fixtures'), { recursive: true });
    await writeFile(join(config, 'tests/fixtures/nda.docx'), Buffer.from('PK\u0003\u0004 a contract'));
    await refused(config, join(config, 'tests/fixtures/nda.docx'), '', `--out ${join(config, 'tests/fixtures/nda.docx')} is a file of the configuration directory that is not a saved plan: the saved file would take its place`);
    expect(await readFile(join(config, 'tests/fixtures/nda.docx'), 'utf8')).toBe('PK\u0003\u0004 a contract');
    // Nor one outside it: the package.json beside the configuration, a typo away from plan.json (probe HU-2).
    const drift = '{\n  "format_version": 1,\n  "created_at": "2026-12-03T22:37:19.307Z",\n  "drift": []\n}\n';
    const repository = await makeDir({ 'config/docket.yaml': 'version: 1\n', 'config/playbooks/nda.yaml': NDA, 'package.json': '{"name":"acme-legal-config"}\n', 'empty.json': '', 'drift.json': drift });
    await refused(join(repository, 'config'), join(repository, 'package.json'), '', `--out ${join(repository, 'package.json')} is a file that is not a saved plan: the saved file would take its place`);
    expect(await readFile(join(repository, 'package.json'), 'utf8')).toBe('{"name":"acme-legal-config"}\n');
    // A drift report starts with format_version too (probe HY-10).
    await refused(join(repository, 'config'), join(repository, 'drift.json'), '', `--out ${join(repository, 'drift.json')} is a file that is not a saved plan: the saved file would take its place`);
    expect(await readFile(join(repository, 'drift.json'), 'utf8')).toBe(drift);
    // A plan.json that is no saved plan: the hint suggests another name than the one refused (probe KP-1).
    await writeFile(join(repository, 'plan.json'), '{"name":"x"}\n');
    const same = await run(['plan', '-C', join(repository, 'config'), '--out', join(repository, 'plan.json'), '--timeout', '2s']);
    expect([same.code, same.stderr]).toEqual([1, expect.stringContaining('such as --out plan-2.json, or move that file away first')]);
    await rm(join(repository, 'plan.json'));
    // A new file, an empty one or an earlier saved plan there is written.
    for (const out of ['plan.json', 'empty.json', 'plan.json']) {
      const saved = await run(['plan', '-C', join(repository, 'config'), '--emulator', '--out', join(repository, out)]);
      expect([saved.code, saved.stderr]).toEqual([0, expect.stringContaining(`Saved the plan to ${join(repository, out)};`)]);
    }
    // Not there yet, and still read as a resource by every later run: said so, not as a file it would replace.
    await refused(config, join(config, 'plans', 'saved.yaml'), 'plans/saved.yaml', `--out ${join(config, 'plans', 'saved.yaml')} is a YAML file below the configuration: every later run would read it as a resource`);
    expect(await contents()).toEqual(before);
    // Through links either way: a lock shared by two checkouts (a link out), a data file that is a link to another file.
    const shared = await makeDir({ 'docket.lock.json': '{"version":2,"targets":{}}\n' });
    const linked = await makeDir({
      'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n',
      'terms/t.yaml': 'kind: CustomTerm\nname: T\nbody_file: t.md\n',
      'texts/real.md': 'The terms.\n',
    });
    await symlink(join(shared, 'docket.lock.json'), join(linked, 'docket.lock.json'));
    await symlink(join(linked, 'texts', 'real.md'), join(linked, 'terms', 't.md'));
    for (const [out, rel] of [
      [join(linked, 'docket.lock.json'), 'docket.lock.json'],
      [join(shared, 'docket.lock.json'), 'docket.lock.json'],
      [join(linked, 'terms', 't.md'), 'terms/t.md'],
      [join(linked, 'texts', 'real.md'), 'terms/t.md'],
    ] as const) {
      await refused(linked, out, rel);
    }
    expect(await readFile(join(shared, 'docket.lock.json'), 'utf8')).toBe('{"version":2,"targets":{}}\n');
    expect(await readFile(join(linked, 'texts', 'real.md'), 'utf8')).toBe('The terms.\n');
    // A lock linked (through a chain) to a file not made yet, which the next apply makes; the
    // emulator's state linked out of .docket/: the files where those writes land are refused too.
    const pending = await makeDir({ 'docket.yaml': 'version: 1\nagreements:\n  actor: legal-ops@acme.example\n', 'playbooks/nda.yaml': NDA, '.docket/keep': '' });
    await symlink('l1', join(pending, 'docket.lock.json'));
    await symlink('locks/l2', join(pending, 'l1'));
    await symlink('../emu-state.json', join(pending, '.docket', 'emulator.json'));
    for (const [out, rel] of [
      [join(pending, 'l1'), 'docket.lock.json'],
      [join(pending, 'locks', 'l2'), 'docket.lock.json'],
      [join(pending, 'emu-state.json'), '.docket/emulator.json'],
    ] as const) {
      await refused(pending, out, rel);
    }
    expect(existsSync(join(pending, 'locks', 'l2'))).toBe(false);
    // A plan file beside docket.yaml is not one of them: the run goes on (to say the agreements service is not configured here).
    const beside = await run(['plan', '-C', config, '--out', join(config, 'plan.json'), '--timeout', '2s']);
    expect(beside.stderr).not.toContain('a file of the configuration');
    expect(beside.stderr).toMatch(/agreements/i);
  });

  it('export --out "" says it needs a name (it was "--out  is not empty")', async () => {
    const r = await run(['export', '-C', dir, '--emulator', '--out', '']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--out needs a directory name');
    // Nor another command's flag, which would be written as a folder of that name (probe AC-4).
    const flag = await run(['export', '-C', dir, '--emulator', '--out', '--dry-run']);
    expect([flag.code, flag.stderr]).toEqual([1, expect.stringContaining('Error: --out needs a directory name, and got "--dry-run", which reads as a flag (is the variable that gives it unset?)\n  hint: for a directory whose name starts with --, write --out ./--dry-run')]);
  });

  it('a common flag before the command whose value is missing names the command it took as its value, in -o json too (probe FH-1)', async () => {
    const r = await run(['--concurrency', 'apply', '-C', dir, '--auto-approve']);
    expect([r.code, r.requests, r.stderr]).toEqual([1, 0, expect.stringContaining('Error: --concurrency needs a value, and got the command "apply" (is the variable that gives it unset?)')]);
    const json = await run(['--env', 'drift', '-C', dir, '-o', 'json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toMatchObject({ error: { code: 'usage', message: '--env needs a value, and got the command "drift" (is the variable that gives it unset?)' } });
    // A run of short flags ending in -C takes it alike (second read SR104-4).
    const short = await run(['-qC', 'drift', '-o', 'json']);
    expect([short.code, JSON.parse(short.stdout)]).toEqual([1, expect.objectContaining({ error: expect.objectContaining({ message: '-qC needs a value, and got the command "drift" (is the variable that gives it unset?)' }) })]);
  });

  it('test --compare-to "" and emulator --host/--state/--seed "" are errors, not a run without them (an unset variable in a script)', async () => {
    const compare = await run(['test', '-C', dir, '--compare-to', '']);
    expect([compare.code, compare.requests]).toEqual([1, 0]);
    expect(compare.stderr).toContain('--compare-to needs a git ref (got "")');
    for (const [flag, what] of [['--host', 'an address'], ['--state', 'a file name'], ['--seed', 'a file name']] as const) {
      const r = await run(['emulator', '--port', '0', flag, '']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`${flag} needs ${what} (got "")`);
      expect(r.stdout).not.toContain('listening');
    }
  });

  it('drift and pull with a --target of none of their --kind kinds are an error before any request, not "No drift"', async () => {
    for (const command of ['drift', 'pull']) {
      const r = await run([command, '-C', dir, '--kind', 'custom-term', '--target', 'playbook/Inbound NDA', '--timeout', '2s']);
      expect([r.code, r.requests]).toEqual([1, 0]);
      expect(r.stderr).toContain('--target playbook/Inbound NDA is none of --kind custom-term: together they select nothing to compare');
    }
    // A rule's hint names its playbook's kind: rules are no --kind of their own.
    const rule = await run(['drift', '-C', dir, '--kind', 'custom-term', '--target', 'rule/Inbound NDA/Term', '--timeout', '2s']);
    expect(rule.stderr).toContain('hint: drop the --target, or add --kind playbook\n');
    // A rule of a playbook is within --kind playbook: it goes on to the service (which refuses the key here).
    const within = await run(['drift', '-C', dir, '--kind', 'playbook', '--target', 'rule/Inbound NDA/Term', '--timeout', '2s']);
    expect(within.stderr).not.toContain('select nothing');
    expect(within.requests).toBeGreaterThan(0);
    // So is a custom template's term within --kind custom-term: the target names it.
    const agreements = await makeDir({ 'docket.yaml': AGREEMENTS_DOCKET_YAML, 'templates/consulting.yaml': CUSTOM_TEMPLATE_YAML, 'templates/consulting.cover.yaml': DEFINITION, 'terms/t.yaml': 'kind: CustomTerm\nname: Consulting Terms\nbody_file: t.md\n', 'terms/t.md': TERM_MD });
    const term = await run(['drift', '-C', agreements, '--kind', 'custom-term', '--target', 'custom-template/Consulting Agreement', '--timeout', '2s']);
    expect(term.stderr).not.toContain('select nothing');
    expect(term.stderr).toMatch(/agreements/i);
  });

  it('test --junit "" is an error, not a run without the report (a directory: test-command-inputs)', async () => {
    const r = await run(['test', '-C', dir, '--junit', '']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--junit needs a file name');
    const pipe = await run(['test', '-C', dir, '--junit', join(dir, 'pipe')]);
    expect(pipe.code).toBe(1);
    expect(pipe.stderr).toContain('is not a regular file (a named pipe or a device)');
    // A checkout's report name that is a link to nothing: followed, it made folders wherever it led (probe RR-4).
    const outside = join(dir, '..', `rr4-${process.pid}`);
    spawnSync('ln', ['-s', join(outside, 'sub', 'report.xml'), join(dir, 'linked-report.xml')]);
    const linked = await run(['test', '-C', dir, '--junit', join(dir, 'linked-report.xml')]);
    expect([linked.code, linked.stderr]).toEqual([1, expect.stringContaining(`--junit ${join(dir, 'linked-report.xml')} cannot be written: it is a symbolic link to nothing`)]);
    expect(existsSync(outside)).toBe(false);
  });

  it('test --replay-only with --no-cache or --live says to drop one of them (probe MZ-4)', async () => {
    for (const other of ['--no-cache', '--live']) {
      const r = await run(['test', '-C', dir, '--replay-only', other]);
      expect([other, r.code, r.stderr]).toEqual([other, 1, expect.stringContaining('\n  hint: drop one of them\n')]);
    }
  });

  it('a saved plan or a contract that is a named pipe is refused, never waited on (the read would block every signal)', async () => {
    for (const args of [['show', join(dir, 'pipe')], ['apply', '-C', dir, join(dir, 'pipe')]]) {
      const r = await run(args);
      expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(`cannot read the plan file ${join(dir, 'pipe')} (it is not a regular file (a named pipe or a device))`)]);
    }
    const contract = await run(['test', 'capture', '-C', dir, '--emulator', '--review', 'x', '--out', join(dir, 'tests/c.test.yaml'), '--contract', join(dir, 'pipe')]);
    expect([contract.code, contract.stderr]).toEqual([1, expect.stringContaining('is not a regular file (a named pipe or a device)')]);
  });
});

describe('environment variables', () => {
  it('an API key of only spaces counts as unset: no request goes out with it', async () => {
    const r = await run(['plan', '-C', dir, '--timeout', '2s'], { DOCKET_API_KEY: ' \t ' });
    expect(r.code).toBe(1);
    expect(r.requests).toBe(0);
    expect(r.stderr).toContain('no API key for the review service');
    // In JSON, a code of its own: no bad flag's `usage` (probe GP).
    const json = await run(['plan', '-C', dir, '-o', 'json'], { DOCKET_API_KEY: '' });
    expect((JSON.parse(json.stdout) as { error: { code: string } }).error.code).toBe('missing-api-key');
    // A blank specific key gives way to DOCKET_API_KEY, as an empty one does.
    const specific = await run(['plan', '-C', dir, '--timeout', '2s'], { DOCKET_REVIEW_API_KEY: '  ', DOCKET_API_KEY: 'k' });
    expect(specific.requests).toBeGreaterThan(0);
    expect(lastAuthorization).toBe('Bearer k');
  });
});

describe('flag values', () => {
  it('docket emulator --port takes a whole number, not a fraction (a stack trace) or nothing', async () => {
    for (const port of ['1.5', '']) {
      const r = await run(['emulator', '--port', port]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('Error: --port: ');
      expect(r.stderr).not.toContain('Internal error');
    }
  });

  it('--env "" (an unset CI variable) is an error, not the base configuration', async () => {
    for (const command of ['plan', 'validate']) {
      const r = await run([command, '-C', dir, '--env', '']);
      expect(r.code).toBe(1);
      expect(r.requests).toBe(0);
      expect(r.stderr).toContain('Error: --env: needs the name of an environment');
    }
  });

  it('-C "" and init "" (an unset CI variable) are errors, not the current directory', async () => {
    for (const args of [['plan', '-C', ''], ['validate', '-C', ''], ['init', '']]) {
      const r = await run(args);
      expect(r.code).toBe(1);
      expect(r.requests).toBe(0);
      expect(r.stderr).toContain('needs a directory (`.` for the current one)');
    }
  });

  it('plan --out removes a temporary plan file a killed run left beside it', async () => {
    const plan = join(dir, 'saved', 'plan.json');
    await mkdir(join(dir, 'saved'), { recursive: true });
    // The name writeFileAtomic gives it, with the pid of a process that is gone.
    const stale = join(dir, 'saved', '.plan.json.999999999.0123abcd.tmp');
    await writeFile(stale, '{"half": ');
    expect((await run(['plan', '-C', dir, '--emulator', '--out', plan, '-q'])).code).toBe(0);
    expect(await readdir(join(dir, 'saved'))).toEqual(['plan.json']);
  });

  it('apply PLAN.json --prune is refused: the saved plan decided what it archives', async () => {
    const plan = join(dir, '.docket', 'plan.json');
    expect((await run(['plan', '-C', dir, '--emulator', '--out', plan, '-q'])).code).toBe(0);
    const r = await run(['apply', '-C', dir, plan, '--prune']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--prune cannot be combined with a saved plan');
  });

  it('--version is docket\'s alone: after a command it is a usage error, not the version with exit 0 that read as "no changes" (probe HQ-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const plan = await run(['plan', '-C', dir, '--emulator', '--detailed-exitcode', '--version']);
    expect([plan.code, plan.stdout, plan.stderr]).toEqual([1, '', expect.stringContaining("Error: unknown option '--version'")]);
    const json = await run(['plan', '-C', dir, '--emulator', '-o', 'json', '--version']);
    expect([json.code, JSON.parse(json.stdout)]).toEqual([1, expect.objectContaining({ error: expect.objectContaining({ code: 'usage' }) })]);
    expect((await run(['bogus', '--version'])).stderr).toContain("unknown command 'bogus'");
    // A flag before the command that is not moved behind it leaves the command named all the same.
    expect((await run(['--emulator', 'plan', '-C', dir, '--detailed-exitcode', '--version'])).code).toBe(1);
    expect((await run(['plan', '-C', dir, '--out', '--version'])).stderr).toContain('needs a value, and got the flag "--version"');
    for (const args of [['--version'], ['-q', '--version']]) expect(await run(args)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
    // Before a command or a word it is docket's, and said so, not "unknown option" (probe RC-1).
    for (const args of [['--version', 'plan'], ['--version', '-C', dir]]) {
      expect(await run(args)).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining(`Error: --version is given alone: nothing may come with it (got "${args.slice(1).join(' ')}")`) });
    }
    // Nor a mistyped flag beside it, before or after, which commander would pass over once it printed the version (probe XE-3).
    for (const args of [['--version', '--bogus'], ['--bogus', '--version'], ['--version', '-x']]) {
      expect(await run(args)).toMatchObject({ code: 1, stdout: '', stderr: expect.stringContaining('Error: --version is given alone: nothing may come with it (got "-') });
    }
    for (const args of [['--version', '-q'], ['--version', '-qv'], ['-qv', '--version']]) expect(await run(args)).toMatchObject({ code: 0, stdout: expect.stringMatching(/^\d+\.\d+\.\d+\n$/) });
    // The program's help lists it, however it is asked for.
    // (`docket --help plan` is plan's, as `terraform -help plan` is: probe AC-6.)
    for (const args of [['--help'], ['help'], ['-h']]) expect((await run(args)).stdout, args.join(' ')).toMatch(/^ {2}--version +output the version number$/m);
  });

  it('a flag missing its value does not take the next flag as one (an unset variable): --out --emulator saved no plan to a file "--emulator", and ran against the services', async () => {
    const envs = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const out = await run(['plan', '-C', envs, '--out', '--emulator']);
    expect([out.code, out.stdout]).toEqual([1, '']);
    expect(out.stderr).toContain(`Error: --out: needs a value, and got the flag "--emulator"`);
    for (const [flag, command] of [['--env', 'validate'], ['--target', 'plan'], ['--kind', 'drift']] as const) {
      const help = await run([command, '-C', envs, flag, '--help']);
      expect([help.code, help.stderr]).toEqual([1, expect.stringContaining(`needs a value, and got the flag "--help"`)]);
      const r = await run([command, flag, '-C', envs]);
      expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(`needs a value, and got the flag "-C"`)]);
    }
    await expect(readdir(envs)).resolves.toEqual(['docket.yaml']);
    // Another command's flag as a file name is refused too, with the way to name such a file (probe RC-6).
    for (const [command, flag] of [['plan', '--out'], ['test', '--junit']] as const) {
      const other = await run([command, '-C', envs, '--emulator', flag, '--dry-run']);
      expect([other.code, other.stderr]).toEqual([1, expect.stringContaining(`Error: ${flag} needs a file name, and got "--dry-run", which reads as a flag (is the variable that gives it unset?)`)]);
    }
    await expect(readdir(envs)).resolves.toEqual(['docket.yaml']);
    // Nor a short flag with its value, or short flags run together, given after it (probe XE-1)…
    for (const [flag, value] of [['--out', '-ojson'], ['--out', '-qv'], ['--env', '-Ccfg'], ['--env', '-qv']] as const) {
      const r = await run(['plan', '-C', envs, '--emulator', flag, value]);
      expect([r.code, r.stderr], `${flag} ${value}`).toEqual([1, expect.stringContaining(`Error: ${flag}: needs a value, and got the flag "${value}"`)]);
    }
    await expect(readdir(envs)).resolves.toEqual(['docket.yaml']);
    // …but written in it (`--env=-qv`) it is the value as written, and another word starting with - is a value.
    expect((await run(['validate', '-C', envs, '--env=-qv'])).stderr).toContain('unknown environment `-qv`');
    expect((await run(['validate', '-C', envs, '--env=-prod'])).stderr).toContain('unknown environment `-prod`');
    expect((await run(['validate', '-C', envs, '--env', '-Draft'])).stderr).toContain('unknown environment `-Draft`');
    // By its place, not its spelling, and only letters that are all flags (second read SR96-7).
    expect((await run(['validate', '-C', envs, '-q', '-qv', '--env=-qv'])).stderr).toContain('unknown environment `-qv`');
    // A run of short flags ending in one that takes a value takes the next word as it (second read SR96B-1).
    expect((await run(['plan', '-qC', '-ojson'])).stderr).toContain('Error: --dir: needs a value, and got the flag "-ojson"');
    expect((await run(['validate', '-C', envs, '--env', '-qa'])).stderr).toContain('unknown environment `-qa`');
  });

  it('a flag that takes one value refuses a second, different one, before anything is read (a CI template appending its own --env)', async () => {
    const envs = await makeDir({ 'docket.yaml': 'version: 1\nenvironments:\n  staging: {}\n  production: {}\n' });
    const twice = await run(['plan', '-C', envs, '--env', 'staging', '--env', 'production', '--emulator']);
    expect([twice.code, twice.stdout]).toEqual([1, '']);
    expect(twice.stderr).toContain(`Error: --env: given twice ("staging", then "production"): give it once`);
    await expect(readdir(envs)).resolves.toEqual(['docket.yaml']);
    // Before the command name too, and -C the same way.
    expect((await run(['--env', 'staging', 'validate', '-C', envs, '--env', 'production'])).code).toBe(1);
    expect((await run(['validate', '-C', envs, '-C', dir])).stderr).toContain('given twice');
    // The same value twice, and repeatable flags, are fine.
    expect((await run(['validate', '-C', envs, '--env', 'staging', '--env', 'staging'])).code).toBe(0);
    expect((await run(['plan', '-C', envs, '--emulator', '--target', 'playbook/A', '--target', 'playbook/B'])).stderr).not.toContain('given twice');
    // A run that asks for JSON in any of its -o gets the error as JSON, whichever comes first (probe IZ-3).
    for (const outputs of [['-o', 'json', '-o', 'text'], ['-o', 'text', '--output=json'], ['--output', 'json', '-oyaml']]) {
      expect(JSON.parse((await run(['plan', '-C', envs, ...outputs])).stdout).error.code, outputs.join(' ')).toBe('usage');
    }
    expect((await run(['plan', '-C', envs, '-o', 'markdown', '-o', 'text'])).stdout).toBe('');
    // In a run of short flags too, its value in the word or the next one; the command found after `-qC DIR` (probe ZE-1).
    for (const args of [['plan', '-C', envs, '-qo', 'json', '--bogus'], ['plan', '-C', envs, '-vojson', '--bogus'], ['-qC', envs, 'plan', '-o', 'json', '--bogus'], ['validate', '-qojson', '--bogus']]) {
      const r = await run(args);
      expect(r.code, args.join(' ')).toBe(1);
      expect(JSON.parse(r.stdout), args.join(' ')).toMatchObject(args[0] === 'validate' ? { valid: false, diagnostics: [{ code: 'usage' }] } : { error: { code: 'usage' } });
    }
  });

  it('apply --out says apply saves no plan and where that is done, not "did you mean --output" (a format)', async () => {
    const r = await run(['apply', '--out', 'plan.json']);
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toBe('Error: apply does not save a plan: `docket plan --out FILE` saves one, and `docket apply FILE` applies it\n');
  });

  it('a bad flag with -o json is still one JSON document on stdout, validate\'s report included, with the code `usage`', async () => {
    for (const args of [['--bogus'], ['-C', ''], ['--concurrency', '0'], ['one.json', 'two.json']]) {
      const plan = await run(['plan', ...args, '-o', 'json']);
      expect(plan.code).toBe(1);
      expect(JSON.parse(plan.stdout).error).toMatchObject({ code: 'usage', exit_code: 1 });
      expect(JSON.parse(plan.stdout).error.message).not.toMatch(/^error: /);
      const validate = await run(['validate', ...args, '-o', 'json']);
      expect(validate.code).toBe(1);
      expect(JSON.parse(validate.stdout)).toMatchObject({ valid: false, errors: 1, warnings: 0, diagnostics: [{ severity: 'error', code: 'usage' }] });
    }
    // commander's suggestion is the hint, not a second line of the message (probe KQ-6).
    const typo = JSON.parse((await run(['plan', '--outt', 'x.json', '-o', 'json'])).stdout).error;
    expect([typo.message, typo.hint]).toEqual(["unknown option '--outt'", 'did you mean --out?']);
  });

  it('test capture: a contract that cannot be read and an --out that cannot be written are errors before the review is read', async () => {
    const contract = await run(['test', 'capture', '-C', dir, '--emulator', '--review', 'r1', '--out', join(dir, 'tests', 'c.test.yaml'), '--contract', join(dir, 'missing.pdf')]);
    expect(contract.code).toBe(1);
    expect(contract.stderr).toContain('--contract');
    expect(contract.stderr).not.toContain('Internal error');
    const out = await run(['test', 'capture', '-C', dir, '--emulator', '--review', 'r1', '--out', dir]);
    expect(out.stderr).toContain(`--out ${dir} is a directory`);
  });

  it('test capture refuses docket test\'s run flags before the review is read: taken and ignored, --replay-only read as in force (probe KH-2)', async () => {
    const out = join(dir, 'tests', 'c.test.yaml');
    for (const [args, named] of [[['--replay-only'], '--replay-only'], [['--junit', join(dir, 'j.xml'), '--fail-on-warn'], '--junit, --fail-on-warn']] as const) {
      for (const at of ['after', 'before'] as const) {
        const capture = ['capture', '-C', dir, '--emulator', '--review', 'r1', '--out', out];
        const r = await run(['test', ...(at === 'before' ? [...args, ...capture] : [...capture, ...args])]);
        expect([r.code, r.stderr.split('\n')[0]]).toEqual([1, `Error: ${named}: ${named.includes(',') ? 'flags' : 'a flag'} of \`docket test\`, which \`docket test capture\` does not take`]);
      }
    }
    expect(existsSync(join(dir, 'j.xml'))).toBe(false);
    // Its -o says how its error is printed: markdown is no form of it (second read RV9).
    expect((await run(['test', '-C', dir, '-o', 'markdown', 'capture', '--emulator', '--review', 'r1', '--out', out])).stderr.split('\n')[0]).toBe('Error: -o markdown: `docket test capture` writes a test file and makes no report; -o json gives its error as JSON');
    // The flags every command takes are capture's too (second read SR72-1).
    for (const pace of [['--max-rps', '5'], ['--concurrency', '2']]) {
      const r = await run(['test', '-C', dir, ...pace, 'capture', '--emulator', '--review', 'r1', '--out', out]);
      expect(r.stderr).not.toContain('does not take');
      expect(r.stderr).toContain('review r1');
    }
  });

  it('--emulator lays out its own routes: review.path_style, the real service\'s, does not stop a plan or apply there (probe KJ-1)', async () => {
    const flat = await makeDir({ 'docket.yaml': 'version: 1\nreview:\n  path_style: flat\n', 'playbooks/nda.yaml': NDA });
    const planned = await run(['plan', '-C', flat, '--emulator', '-q']);
    expect([planned.code, planned.stderr, planned.stdout]).toEqual([0, '', expect.stringContaining('+ create playbook "Inbound NDA"')]);
    expect((await run(['apply', '-C', flat, '--emulator', '--auto-approve', '-q'])).code).toBe(0);
    expect((await run(['plan', '-C', flat, '--emulator', '-q'])).stdout).toContain('No changes.');
  });

  it('apply --timeout 600h is a long budget, not one that runs out at once (setTimeout overflows past 24.8 days)', async () => {
    const fresh = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const r = await run(['apply', '-C', fresh, '--emulator', '--auto-approve', '-q', '--timeout', '600h']);
    expect(r.stdout).toContain('Apply complete');
    expect(r.code).toBe(0);
  });

  it('a --timeout of 0 is refused before any request, and --lock-timeout 0 is the default it documents', async () => {
    for (const command of ['plan', 'apply', 'drift', 'pull', 'export', 'test']) {
      const r = await run([command, '-C', dir, '--timeout', '0s', ...(command === 'export' ? ['--out', join(dir, 'out')] : [])]);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain(`Error: --timeout: a time budget must be at least 1ms (got "0s")`);
      expect(r.requests).toBe(0);
    }
    expect((await run(['apply', '-C', dir, '--emulator', '--auto-approve', '-q', '--lock-timeout', '0'])).code).toBe(0);
  });

  it('a current directory removed since the shell entered it: an absolute -C and --version work, a relative -C is said, not a stack trace (probe MU-2)', async () => {
    const gone = await makeDir({});
    const run = (args: string) => spawnSync('sh', ['-c', `cd "${gone}" && rmdir "${gone}" && "${process.execPath}" "${BIN}" ${args}`], { encoding: 'utf8' });
    expect(run('--version')).toMatchObject({ status: 0, stderr: '' });
    await mkdir(gone);
    expect(run(`validate -C "${dir}"`)).toMatchObject({ status: 0, stderr: '' });
    await mkdir(gone);
    expect(run('validate -C x')).toMatchObject({ status: 1, stderr: 'Error: the current directory no longer exists (removed since the shell entered it)\n  hint: cd to a directory that exists, or pass -C with an absolute path\n' });
    // init of a relative folder makes nothing elsewhere (the shell's idea of the folder, or /): second read SR77-3.
    await mkdir(gone);
    expect(run('init x')).toMatchObject({ status: 1, stderr: expect.stringContaining('the current directory no longer exists') });
    expect(existsSync(gone)).toBe(false);
  });

  it('stdout on a full disk fails the run with one line, not a stack trace (--version too, which loads less)', () => {
    const full = openSync('/dev/full', 'w');
    try {
      for (const args of [['validate', '-C', dir], ['--version']]) {
        const r = spawnSync(process.execPath, [BIN, ...args], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
        expect([args[0], r.status, r.stderr]).toEqual([args[0], 1, 'Error: cannot write the output (ENOSPC)\n']);
      }
    } finally {
      closeSync(full);
    }
  });

  it('an apply whose plan cannot be printed (a full disk) sends nothing; one whose report cannot be written says it ran (probe FV)', async () => {
    const fresh = await makeDir({ 'docket.yaml': 'version: 1\n', 'p.yaml': 'kind: Playbook\nname: Full Disk\n' });
    const full = openSync('/dev/full', 'w');
    try {
      const apply = (...flags: string[]) => spawnSync(process.execPath, [BIN, 'apply', '-C', fresh, '--emulator', '--auto-approve', ...flags], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      const unseen = apply();
      expect(unseen.status).toBe(1);
      expect(unseen.stderr).toContain('the plan could not be printed (ENOSPC), so nothing was applied');
      expect((await run(['plan', '-C', fresh, '--emulator', '-o', 'json'])).stdout).toContain('"create": 1');
      const unreported = apply('-o', 'json');
      expect(unreported.status).toBe(1);
      expect(unreported.stderr).toContain('Warning: the apply ran (1 done, 0 failed), but its report could not be written: run docket plan to see what is left');
    } finally {
      closeSync(full);
    }
    expect((await run(['plan', '-C', fresh, '--emulator', '--detailed-exitcode'])).code).toBe(0);
  });

  it('export and init whose report cannot be written say they wrote their files, as apply does (probe KW-2)', async () => {
    const source = await makeDir({ 'docket.yaml': 'version: 1\n', 'p.yaml': 'kind: Playbook\nname: Full Disk Two\n' });
    expect((await run(['apply', '-C', source, '--emulator', '--auto-approve'])).code).toBe(0);
    const out = join(await makeDir({}), 'exported');
    const started = join(await makeDir({}), 'started');
    const full = openSync('/dev/full', 'w');
    try {
      const exported = spawnSync(process.execPath, [BIN, 'export', '-C', source, '--emulator', '--out', out], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect([exported.status, exported.stderr]).toEqual([1, expect.stringContaining(`Warning: the export was written to ${out}, but its report could not be written`)]);
      const init = spawnSync(process.execPath, [BIN, 'init', started], { stdio: ['ignore', full, 'pipe'], encoding: 'utf8' });
      expect([init.status, init.stderr]).toEqual([1, expect.stringContaining('Warning: init wrote')]);
    } finally {
      closeSync(full);
    }
    expect(existsSync(join(out, 'docket.yaml'))).toBe(true);
    expect(existsSync(join(started, 'docket.yaml'))).toBe(true);
  });
});

describe('usage errors', () => {
  it('end by saying where the help of the command (or subcommand) given is', async () => {
    const plan = await runCli(['plan', '--bogus']);
    expect([plan.code, plan.stderr]).toEqual([1, "Error: unknown option '--bogus'\n(run docket plan --help for usage)\n"]);
    const capture = await runCli(['test', 'capture', '--review']);
    expect([capture.code, capture.stderr]).toEqual([1, "Error: option '--review <ID>' argument missing\n(run docket test capture --help for usage)\n"]);
  });
});
