/** The everyday surface: help, completion, show, colour, and emulator start-up problems as user errors. */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, rm as removeFile, symlink, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { runBin } from '../helpers/bin.js';
import { copyExample, makeDir, removeMadeDirs } from '../helpers/tmpdir.js';
import { DOCKET_YAML, NDA } from './fixtures.js';

afterAll(removeMadeDirs);

describe('help and completion', () => {
  it('docket --help lists the common flags, the environment variables, the exit codes and examples', async () => {
    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    for (const text of ['--concurrency <N>', 'DOCKET_REVIEW_API_KEY', 'FORCE_COLOR', 'HTTPS_PROXY', 'NO_PROXY', 'NODE_EXTRA_CA_CERTS', 'Exit codes:', '130/143', 'Examples:', 'show [options] <PLAN.json>', 'completion']) expect(help.stdout).toContain(text);
    // docket test annotates broken expectations, not changes.
    expect((await runCli(['test', '--help'])).stdout.replace(/\s+/g, ' ')).toContain('CI annotations pointing at the file and line of each broken expectation');
  });

  it('docket help COMMAND shows that command\'s help, and says when there is no such command', async () => {
    const plan = await runCli(['help', 'plan']);
    expect([plan.code, plan.stdout.split('\n')[0]]).toEqual([0, 'Usage: docket plan [options]']);
    expect((await runCli(['help', 'help'])).stderr).not.toContain('unknown command');
    // It is the help, as `help` is: on stdout, exit 0 (probe JK-6).
    const helpHelp = await runCli(['help', 'help']);
    expect([helpHelp.code, helpHelp.stdout.split('\n')[0], helpHelp.stderr]).toEqual([0, 'Usage: docket [options] [command]', '']);
    // Asked before the command, the command's help (probe AC-6).
    for (const args of [['--help', 'plan'], ['-h', 'plan', '--no-color'], ['--help', 'test', 'capture']]) {
      const before = await runCli(args);
      expect([before.code, before.stdout.split('\n')[0]], args.join(' ')).toEqual([0, `Usage: docket ${args.filter((a) => !a.startsWith('-')).join(' ')} [options]`]);
    }
    expect((await runCli(['--help', 'paln'])).stderr).toBe('Error: unknown command "paln", did you mean `plan`?\n  hint: run `docket --help` for the commands\n');
    // A subcommand's help, as `docket test capture --help` shows it.
    const capture = await runCli(['help', 'test', 'capture']);
    expect([capture.code, capture.stdout.split('\n')[0]]).toEqual([0, 'Usage: docket test capture [options]']);
    expect((await runCli(['help', 'test', 'capture', '--no-color'])).stdout.split('\n')[0]).toBe('Usage: docket test capture [options]');
    // A folder named as the subcommand is named with ./ (probe AA-5): said where its flag is missing.
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n', 'capture/c.test.yaml': 'kind: PlaybookTest\nplaybook: P\ncases: []\n' });
    const folder = await runCli(['test', 'capture'], { cwd: dir });
    expect([folder.code, folder.stderr.split('\n')[0]]).toEqual([1, "Error: required option '--review <ID>' not specified (`docket test capture` is a command of its own: to name the folder \"capture\", write ./capture)"]);
    expect((await runCli(['test', 'capture'])).stderr.split('\n')[0]).toBe("Error: required option '--review <ID>' not specified");
    // Not a top-level command's: export takes no folder (second read SR99-1).
    await mkdir(join(dir, 'export'));
    expect((await runCli(['export'], { cwd: dir })).stderr.split('\n')[0]).toBe("Error: required option '--out <DIR>' not specified");
    // A name every object has (not a command) is no command either.
    expect((await runCli(['help', 'toString'])).stderr).toContain('unknown command "toString"');
    const typo = await runCli(['help', 'paln']);
    expect([typo.code, typo.stdout, typo.stderr]).toEqual([1, '', 'Error: unknown command "paln", did you mean `plan`?\n  hint: run `docket --help` for the commands\n']);
  });

  it('completes commands and each command’s own flags in bash', async () => {
    // An unknown shell is quoted as usage errors quote what was typed, its control characters escaped (probe AC-3).
    const fish = await runCli(['completion', 'fi\tsh\u001b']);
    expect([fish.code, fish.stderr]).toEqual([1, 'Error: unknown shell "fi\\tsh\\u001b"; docket prints completion for bash and zsh\n  hint: docket completion bash, or docket completion zsh\n']);
    const script = (await runCli(['completion', 'bash'])).stdout;
    // Every line completed in one bash: a shell per line made this test take seconds.
    const expected: [string[], string[]][] = [
      [['docket', 'pl'], ['plan']],
      // Common flags before the command are offered there too (probe LE-3).
      [['docket', '--no'], ['--no-color']],
      [['docket', '--no-color', '--v'], ['--verbose', '--version']],
      [['docket', '--c'], ['--concurrency']],
      [['docket', 'apply', '--lock'], ['--lock-timeout']],
      [['docket', 'plan', '--detailed'], ['--detailed-exitcode']],
      [['docket', 'validate', '--auto'], []],
      // Flags that do nothing for a command are accepted but not offered.
      [['docket', 'init', '-'], ['--help', '--quiet', '-h', '-q']],
      [['docket', 'validate', '--verb'], []],
      // A common flag before the command, the values a flag takes, a command's words and subcommand flags.
      [['docket', '--no-color', 'plan', '--det'], ['--detailed-exitcode']],
      // A common flag's value that is a command's name is the value (bash splits `--env=init` at `=`).
      [['docket', '-C', 'test', 'plan', '--det'], ['--detailed-exitcode']],
      [['docket', '--env', 'init', 'plan', '--det'], ['--detailed-exitcode']],
      [['docket', '--env', '=', 'init', 'plan', '--det'], ['--detailed-exitcode']],
      // The value of a common flag before the command: folders for -C, no command names (probe HQ-2).
      [['docket', '-C', 'exam'], ['examples']],
      [['docket', '--concurrency', ''], []],
      [['docket', '--env', '=', ''], []],
      // After the command too: folders for -C, no file names for a name, a number or a duration (probe HR-6).
      [['docket', 'plan', '-C', 'exam'], ['examples']],
      [['docket', 'plan', '--env', ''], []],
      [['docket', 'apply', '--concurrency', ''], []],
      [['docket', 'plan', '--timeout', ''], []],
      // `--output=j` after the command, as bash splits it; a flag's value that names a subcommand.
      [['docket', 'plan', '--output', '=', 'j'], ['json']],
      [['docket', 'plan', '-o', '=', ''], ['text', 'json', 'markdown']],
      [['docket', 'plan', '--output', '='], ['text', 'json', 'markdown']],
      [['docket', 'test', '--junit', 'capture', '--rev'], []],
      [['docket', 'plan', '-o', ''], ['text', 'json', 'markdown']],
      [['docket', 'apply', '--annotations', 'g'], ['github']],
      [['docket', 'completion', 'z'], ['zsh']],
      // A shell name only: no file names (this test runs where files are).
      [['docket', 'completion', ''], ['bash', 'zsh']],
      [['docket', 'completion', 'bash', ''], []],
      [['docket', 'drift', '--kind', 'custom-t'], ['custom-term', 'custom-template']],
      [['docket', 'test', 'cap'], ['capture']],
      // Before any file only: after one it is a file name the CLI would refuse (probe WI-1); after flags still.
      [['docket', 'test', 'README.md', 'cap'], []],
      [['docket', 'test', '-C', 'examples', '--emulator', 'cap'], ['capture']],
      [['docket', 'test', 'capture', '--rev'], ['--review']],
      // After a file, `capture` is no subcommand: the flags and files are test's own (probe ZB-1).
      [['docket', 'test', 'README.md', 'capture', '--rev'], []],
      [['docket', 'test', 'README.md', 'capture', 'READ'], ['README.md']],
      // A run of short flags whose last takes the next word: that word is its value, no file (second read SR98-6).
      [['docket', 'test', '-qC', '.', 'capture', '--rev'], ['--review']],
      // Before the command too, and the value such a run asks for (second read SR98B-6).
      [['docket', '-qC', 'test', 'plan', '--det'], ['--detailed-exitcode']],
      [['docket', '-qC', 'exam'], ['examples']],
      [['docket', 'plan', '-qo', ''], ['text', 'json', 'markdown']],
      [['docket', '-h'], ['-h']],
      // Nothing after --version, which is given alone; -h as well as --help (probe ZB-2).
      [['docket', '--version', ''], []],
      [['docket', 'plan', '-h'], ['-h']],
      // The common options capture takes too.
      [['docket', 'test', 'capture', '--qu'], ['--quiet']],
      [['docket', 'test', 'capture', '--no'], ['--no-color']],
      // File names only where a command takes them: none after plan (probe IZ-1), folders after init.
      [['docket', 'plan', 'exam'], []],
      [['docket', 'validate', ''], []],
      [['docket', 'test', 'capture', 'exam'], []],
      [['docket', 'show', 'READ'], ['README.md']],
      // One plan, one folder: nothing offered after it, whatever flags come between (probe RC-3).
      [['docket', 'show', 'README.md', 'READ'], []],
      [['docket', 'apply', '-C', 'examples', 'READ'], ['README.md']],
      [['docket', 'apply', '--lock-timeout', '=', '5s', 'READ'], ['README.md']],
      [['docket', 'apply', 'README.md', '--auto-approve', 'READ'], []],
      [['docket', 'init', 'examples', 'exam'], []],
      [['docket', 'test', 'README.md', 'READ'], ['README.md']],
      [['docket', 'init', 'R'], []],
      [['docket', 'init', 'exam'], ['examples']],
      // Commander's `help [command]`, as `docket --help` lists it (probe MD-1).
      [['docket', 'he'], ['help']],
      [['docket', 'help', 'pu'], ['pull']],
      [['docket', 'help', 'plan', ''], []],
    ];
    const lines = expected.map(([words]) => `COMPREPLY=(); COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _docket; printf '%s\\n' "\${COMPREPLY[@]}"; echo '<end>'`);
    const answers = execFileSync('bash', ['-c', `${script}\n${lines.join('\n')}`], { encoding: 'utf8' }).split('<end>\n').slice(0, -1);
    expect(answers.map((a) => a.split('\n').filter(Boolean))).toEqual(expected.map(([, offered]) => offered));
    expect((await runCli(['validate', '--help'])).stdout).not.toContain('--verbose');
    expect((await runCli(['-v', 'init', '--help'])).code).toBe(0);
  });

  it('offers a file or folder name with a space or a glob character as one word, as it is (probe YH-2)', async () => {
    const script = (await runCli(['completion', 'bash'])).stdout;
    const dir = await makeDir({ 'my plan.json': '{}', '[x].json': '{}', 'x.json': '{}', 'cfg dir/docket.yaml': 'version: 1\n' });
    const offered = (words: string[]): string[] =>
      execFileSync('bash', ['-c', `${script}\nCOMPREPLY=(); COMP_WORDS=(${words.map((w) => `'${w}'`).join(' ')}); COMP_CWORD=${words.length - 1}; _docket; printf '%s\\n' "\${COMPREPLY[@]}"`], { encoding: 'utf8', cwd: dir }).split('\n').filter(Boolean);
    expect(offered(['docket', 'show', 'my'])).toEqual(['my plan.json']);
    expect(offered(['docket', 'show', '['])).toEqual(['[x].json']);
    expect(offered(['docket', 'plan', '-C', 'cfg'])).toEqual(['cfg dir']);
    expect(offered(['docket', '-C', 'cfg'])).toEqual(['cfg dir']);
    expect(offered(['docket', 'plan', '--out', 'my'])).toEqual(['my plan.json']);
  });

  it('prints a zsh script that zsh accepts, and refuses other shells', async () => {
    const zsh = (await runCli(['completion', 'zsh'])).stdout;
    expect(zsh.startsWith('#compdef docket')).toBe(true);
    expect(spawnSync('bash', ['-n'], { input: (await runCli(['completion', 'bash'])).stdout }).status).toBe(0);
    const fish = await runCli(['completion', 'fish']);
    expect(fish.code).toBe(1);
    expect(fish.stderr).toContain('bash and zsh');
    // Each subcommand has its own flags in the script, whether or not this machine has zsh to run it.
    expect(zsh).toMatch(/"test capture"\) _arguments [^\n]*'--out=:value:_files'/);
    // A review's id is no file name (probe HR-6).
    expect(zsh).toMatch(/"test capture"\) _arguments [^\n]*'--review=:value: '/);
    // No file names for a command that takes no arguments (probe IZ-1), a folder for init's.
    expect(zsh).toMatch(/"plan"\) _arguments -s '--/);
    expect(zsh).toContain(`"init") _arguments -s '1:file:_files -/'`);
    // One argument, then nothing more (probe RC-3); test takes any number of files.
    expect(zsh).toContain(`"completion") _arguments -s '1:shell:(bash zsh)'`);
    for (const command of ['apply', 'show']) expect(zsh).toContain(`"${command}") _arguments -s '1:file:_files'`);
    // test takes any number of files, `capture` only first (probe WI-1).
    expect(zsh).toContain(`"test") _arguments -s '1:file:{_files; compadd -- capture}' '*:file:_files'`);
    // And the parent's place flags it reads (-C, --env, --emulator).
    const captureOpts = /"test capture"\) opts="([^"]*)"/.exec((await runCli(['completion', 'bash'])).stdout)?.[1]?.split(' ');
    expect(captureOpts).toEqual(expect.arrayContaining(['--emulator', '--env', '-C', '-o', '--max-rps', '--concurrency']));
    // Never a run flag of docket test, which capture refuses, nor a value it refuses (probe LE-3).
    expect(captureOpts).not.toContain('--junit');
    expect((await runCli(['completion', 'bash'])).stdout).toContain('"test capture -o"|"test capture --output") COMPREPLY=( $(compgen -W "text json" -- "$cur") )');
    expect((await runCli(['test', 'capture', '--help'])).stdout).toContain("Also takes docket test's -C DIR, --env E and --emulator");
    if (spawnSync('zsh', ['-f', '-c', 'true']).status !== 0) return;
    // zsh's completion builtins stood in for by functions that print what they were given.
    const offered = (words: string[]): string => {
      const stubs = `compdef() { :; }; _arguments() { print -r -- "$@"; }; compadd() { print -r -- "$@"; }`;
      const line = `${stubs}\n${zsh}\nwords=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _docket`;
      return execFileSync('zsh', ['-f', '-c', line], { encoding: 'utf8' });
    };
    // _arguments is given the words from the command on, the command first: given `docket` first,
    // it reads the command's name as an argument the command does not take, and offers nothing (probe KH-1).
    const seen = (words: string[]): string => {
      const stubs = `compdef() { :; }; _arguments() { print -r -- "words=\${words[*]} current=$CURRENT"; }; compadd() { :; }`;
      return execFileSync('zsh', ['-f', '-c', `${stubs}\n${zsh}\nwords=(${words.map((w) => `'${w}'`).join(' ')}); CURRENT=${words.length}; _docket`], { encoding: 'utf8' }).trim();
    };
    expect(seen(['docket', 'plan', '--detailed-e'])).toBe('words=plan --detailed-e current=2');
    expect(seen(['docket', '--no-color', '-C', 'x', 'drift', '--kind', 'custom-te'])).toBe('words=drift --kind custom-te current=3');
    expect(seen(['docket', 'test', '-C', 'x', 'capture', '--rev'])).toBe('words=capture --rev current=2');
    // Short flags run together before the command, and their value skipped (probe BF-2); `--output=`
    // and runs after it are _arguments' own (`-s`, `--output=:value:…`).
    expect(seen(['docket', '-qC', 'test', 'plan', '--det'])).toBe('words=plan --det current=2');
    expect(offered(['docket', 'plan', '--out'])).toContain('--output=:value:(text json markdown)');
    expect(offered(['docket', 'plan', '-qo'])).toMatch(/^-s /m);
    // A flag given more than once (--target, --kind) is offered again.
    expect(offered(['docket', 'apply', '--target', 'x', '--tar'])).toContain('*--target=:value: ');
    expect(offered(['docket', 'pl'])).toContain('plan');
    expect(offered(['docket', '--no'])).toContain('--no-color');
    expect(offered(['docket', '--no-color', 'plan', '--det'])).toContain('--detailed-exitcode');
    // Offered as a value to type, not a file name (probe HR-6).
    expect(offered(['docket', 'test', 'capture', '--rev'])).toContain('--review=:value: ');
    expect(offered(['docket', 'test', 'capture', '--rev'])).not.toContain('--review=:value:_files');
    expect(offered(['docket', 'test', 'capture', '--rev'])).not.toContain('--junit');
    expect(offered(['docket', 'test', ''])).toContain('compadd -- capture');
  });
});

describe('a -C that is no configuration', () => {
  it('is said by apply and pull as by plan, before their lock is taken, and nothing is made there (probe LJ-1)', async () => {
    const parent = await makeDir({ 'real/docket.yaml': DOCKET_YAML });
    for (const command of [['apply', '--auto-approve'], ['pull']]) {
      const missing = await runCli([...command, '-C', join(parent, 'confg'), '--emulator'], { env: {} });
      expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining(`configuration directory ${join(parent, 'confg')} does not exist`)]);
      const file = await runCli([...command, '-C', join(parent, 'real/docket.yaml'), '--emulator'], { env: {} });
      expect([file.code, file.stderr], command[0]).toEqual([1, expect.stringContaining(`is a file; -C takes the configuration directory`)]);
    }
    expect((await readdir(parent)).sort()).toEqual(['real']);
    expect(await readdir(join(parent, 'real'))).toEqual(['docket.yaml']);
  });
});

describe('docket show', () => {
  it('renders a saved plan as text, markdown and JSON without reading any service', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const out = join(dir, 'plan.json');
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--out', out]);
    expect(plan.stderr).toContain(`review it with: docket show ${out}; apply it with: docket apply -C ${dir} ${out}`);
    // A path with a line break stays on the line, and the commands it offers are ones a shell runs.
    const odd = join(dir, 'x\n::warning::y', 'plan.json');
    const saved = await runCli(['plan', '-C', dir, '--emulator', '--out', odd]);
    expect(saved.stderr).toContain(`Saved the plan to ${JSON.stringify(odd)}; review it with: docket show $'${odd.replace('\n', '\\x0a')}'`);
    expect(saved.stderr.split('\n').filter((l) => l.startsWith('::'))).toEqual([]);
    const text = await runCli(['show', out, '--no-color']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('+ create playbook "Inbound NDA"');
    expect((await runCli(['show', out, '-o', 'markdown'])).stdout).toContain('### docket plan');
    expect(JSON.parse((await runCli(['show', out, '-o', 'json'])).stdout)).toMatchObject({ format_version: 1 });
    // Another version's plan is shown, and the reviewer is told that this docket will not apply it.
    const older = join(dir, 'older.json');
    await writeFile(older, JSON.stringify({ ...JSON.parse(await readFile(out, 'utf8')), docket_version: '0.0.1' }));
    const shown = await runCli(['show', older, '-o', 'json']);
    expect(shown.code).toBe(0);
    expect(JSON.parse(shown.stdout)).toMatchObject({ docket_version: '0.0.1' });
    expect(shown.stderr).toContain(`Note: ${older} was made by docket 0.0.1; only that version applies it (this is docket `);
    // Written by anyone, the version reaches the terminal with its control characters shown, not sent (probe FG-1).
    await writeFile(older, JSON.stringify({ ...JSON.parse(await readFile(out, 'utf8')), docket_version: '0.1.0\u001b]0;PWNED\u0007\r\n::error::fake' }));
    const hostile = await runCli(['show', older, '--no-color']);
    expect(hostile.code).toBe(0);
    expect(hostile.stderr).toContain('made by docket 0.1.0<U+001B>]0;PWNED<U+0007><U+000D><U+000A>::error::fake; only that version');
    expect(hostile.stderr).not.toMatch(/[\u0007\u001b\r]/);
    expect(hostile.stderr.split('\n')[0]).toContain('only that version applies it');
    const missing = await runCli(['show', join(dir, 'nope.json')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain('cannot read the plan file');
    // A configuration folder given as the plan (`terraform apply DIR`): -C is what names it (probe EC-4).
    const folder = await runCli(['apply', dir]);
    expect([folder.code, folder.stderr]).toEqual([1, expect.stringContaining(`is a configuration folder: name it with -C (\`docket apply -C ${dir}\`)`)]);
    // Whichever project file names it (second read SR103B-5).
    const yml = await makeDir({ 'docket.yml': 'version: 1\n' });
    expect((await runCli(['apply', yml])).stderr).toContain(`is a configuration folder: name it with -C (\`docket apply -C ${yml}\`)`);
    // What `plan -o json` prints when the plan could not be made, saved by a CI step as the plan.
    const failed = join(dir, 'failed.json');
    const broken = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': 'kind: Playbook\nname: A\nreviewr: x\n' });
    await writeFile(failed, (await runCli(['plan', '-C', broken, '--emulator', '-o', 'json'])).stdout);
    const error = await runCli(['show', failed]);
    expect(error.code).toBe(1);
    expect(error.stderr).toContain(`${failed} is the error document of a plan that could not be made, not a plan`);
    // Another command's JSON report, saved where the plan was expected, is named as that, not as an edited plan (probe CH-3).
    for (const [command, args] of [['validate', []], ['drift', ['--emulator']], ['pull', ['--emulator', '--dry-run']], ['apply', ['--emulator', '--auto-approve']]] as const) {
      const report = join(dir, `${command}-report.json`);
      await writeFile(report, (await runCli([command, '-C', dir, ...args, '-o', 'json'])).stdout);
      for (const reader of [['show', report], ['apply', '-C', dir, report]]) {
        const refused = await runCli(reader);
        expect(refused.code, `${reader[0]} of ${command}'s report`).toBe(1);
        expect(refused.stderr).toContain(`${report} is the JSON report of \`docket ${command}\`, not a plan`);
      }
    }
  });
});

describe('colour', () => {
  it('FORCE_COLOR colours output that is not a terminal; NO_COLOR and --no-color win', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const esc = '\u001b[';
    expect((await runCli(['plan', '-C', dir, '--emulator'], { env: { FORCE_COLOR: '1' } })).stdout).toContain(esc);
    expect((await runCli(['plan', '-C', dir, '--emulator'])).stdout).not.toContain(esc);
    for (const off of ['0', 'false', 'FALSE', 'False']) expect((await runCli(['plan', '-C', dir, '--emulator'], { env: { FORCE_COLOR: off } })).stdout, off).not.toContain(esc);
    expect((await runCli(['plan', '-C', dir, '--emulator'], { env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).stdout).not.toContain(esc);
    expect((await runCli(['plan', '-C', dir, '--emulator', '--no-color'], { env: { FORCE_COLOR: '1' } })).stdout).not.toContain(esc);
  });
});

// The emulator command run in this process, as a process runs it: the refusals below end it before it listens.
describe('emulator start-up problems are user errors', () => {
  it('a port in use', async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, '127.0.0.1', r));
    const port = (busy.address() as { port: number }).port;
    try {
      const run = await runBin(['emulator', '--port', String(port)]);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain(`Error: cannot start the emulator: 127.0.0.1:${port} is already in use`);
      expect(run.stderr).toContain('--port');
      expect(run.stderr).not.toMatch(/Internal error|    at /);
    } finally {
      busy.close();
    }
  });

  it('an address that is not this machine’s, and a state file that is a folder', async () => {
    const remote = await runCli(['emulator', '--port', '0', '--host', '192.0.2.1']);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toContain('192.0.2.1:0 is not an address of this machine');
    const dir = await makeDir({});
    const folder = await runCli(['emulator', '--port', '0', '--state', dir]);
    expect(folder.code).toBe(1);
    expect(folder.stderr).toContain(`${dir} is a folder, not a state file`);
    // Under --emulator the path is docket's own: no flag names another, so the hint says to move the folder (probe EB-5).
    const project = await makeDir({ 'docket.yaml': 'version: 1\n' });
    await mkdir(join(project, '.docket', 'emulator.json'), { recursive: true });
    expect((await runCli(['plan', '-C', project, '--emulator'])).stderr).toContain('under --emulator, move the folder away');
    // A named pipe is refused, not read (a read would wait for a writer, signals unheard).
    execFileSync('mkfifo', [join(dir, 'pipe')]);
    const pipe = await runCli(['emulator', '--port', '0', '--state', join(dir, 'pipe')]);
    expect([pipe.code, pipe.stderr]).toEqual([1, expect.stringContaining('is not a regular file (a named pipe or a device), not a state file')]);
    expect(pipe.stderr).toContain('hint: move it away: the state is a regular JSON file the emulator writes there');
    // A link that loops is scratch to delete, not a matter of permissions.
    await symlink('loop', join(dir, 'loop'));
    const loop = await runCli(['emulator', '--port', '0', '--state', join(dir, 'loop')]);
    expect([loop.code, loop.stderr]).toEqual([1, expect.stringContaining(`${join(dir, 'loop')} is a link that loops (it leads back to itself), not a state file\n  hint: delete the link ${join(dir, 'loop')} to start again from the seed`)]);
    const seed = await runCli(['emulator', '--port', '0', '--seed', join(dir, 'pipe')]);
    expect([seed.code, seed.stderr]).toEqual([1, expect.stringContaining('is not a regular file (a named pipe or a device)')]);
    const seedFolder = await runCli(['emulator', '--port', '0', '--seed', dir]);
    expect([seedFolder.code, seedFolder.stderr]).toEqual([1, expect.stringMatching(/cannot read the seed file .*: it is a folder\n.*hint: name a seed file/s)]);
    // A seed whose reviews contradict themselves: found as its state is made, said as the seed's.
    await writeFile(join(dir, 'seed.json'), JSON.stringify({ organizations: [{ id: '00000000-0000-4000-8000-0000000000a1', name: 'X', api_keys: ['docket-emulator-key'], users: [{ email: 'a@x.example' }], reviews: [{ redline_evaluations: [], flag_violations: [] }] }] }));
    const contradicting = await runCli(['emulator', '--port', '0', '--seed', join(dir, 'seed.json')]);
    expect([contradicting.code, contradicting.stderr]).toEqual([1, expect.stringContaining(`Error: ${join(dir, 'seed.json')} is not a valid seed: seed: review of no file has results of both review types`)]);
    // A reviewer who is no user of the organization: said before the start, as the reset route says it.
    await writeFile(join(dir, 'reviewer.json'), JSON.stringify({ organizations: [{ id: '00000000-0000-4000-8000-0000000000a1', name: 'X', api_keys: ['k'], users: [], default_reviewer_email: 'nobody@x.example' }] }));
    const reviewer = await runCli(['emulator', '--port', '0', '--seed', join(dir, 'reviewer.json')]);
    expect([reviewer.code, reviewer.stderr]).toEqual([1, `Error: ${join(dir, 'reviewer.json')} is not a valid seed: invalid seed: organizations[0].default_reviewer_email nobody@x.example is not one of organizations[0].users\n  hint: see "The emulator" in the README for the seed format\n`]);
    for (const run of [remote, folder, pipe, loop, seed, seedFolder, contradicting, reviewer]) expect(run.stderr).not.toMatch(/Internal error|    at /);
  });

  it('a file where .docket goes is named as what is in the way, not as a permission problem', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, '.docket': 'notes\n' });
    const run = await runCli(['plan', '-C', dir, '--emulator']);
    expect([run.code, run.stderr]).toEqual([1, expect.stringContaining(`${join(dir, '.docket')} is not a folder`)]);
    expect(run.stderr).toContain('hint: move the file that is in its way');
  });

  it('a corrupt state file, standalone and in-process', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML });
    await mkdir(join(dir, '.docket'));
    await writeFile(join(dir, '.docket', 'emulator.json'), '{broken');
    const plan = await runCli(['plan', '-C', dir, '--emulator']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('cannot start the emulator:');
    expect(plan.stderr).toContain(`delete ${join(dir, '.docket', 'emulator.json')} to start again from the seed`);
    const standalone = await runCli(['emulator', '--port', '0', '--state', join(dir, '.docket', 'emulator.json')]);
    expect(standalone.code).toBe(1);
    expect(standalone.stderr).not.toMatch(/Internal error|    at /);
    // JSON, but no state: --emulator's own file is still scratch to delete, not a --state to rename (probe IM-1).
    await writeFile(join(dir, '.docket', 'emulator.json'), '{}');
    const notState = await runCli(['plan', '-C', dir, '--emulator']);
    expect(notState.stderr).toContain(`is not a docket emulator state file (expected format "docket-emulator-state/1")\n  hint: the state is scratch data: delete ${join(dir, '.docket', 'emulator.json')} to start again from the seed`);
    expect((await runCli(['emulator', '--port', '0', '--state', join(dir, '.docket', 'emulator.json')])).stderr).toContain('hint: it is no emulator state: name a file of its own for --state');
  });

  it('a state file that is a link: the hint deletes the link, never the file it leads to, and no line of that file is shown', async () => {
    const members = '# yaml-language-server: $schema=x\nkind: Member\nemail: secret-person@acme.example\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'members.yaml': members });
    await mkdir(join(dir, '.docket'));
    const state = join(dir, '.docket', 'emulator.json');
    await symlink('../members.yaml', state);
    const plan = await runCli(['plan', '-C', dir, '--emulator']);
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain(`${state} is not valid JSON (invalid symbol at line 1, column 1)`);
    expect(plan.stderr).toContain(`delete the link ${state} (not the file it leads to) to start again from the seed`);
    expect(plan.stderr).not.toContain(join(dir, 'members.yaml'));
    expect(plan.stderr).not.toContain('yaml-lan');
    const standalone = await runCli(['emulator', '--port', '0', '--state', state]);
    expect(standalone.code).toBe(1);
    expect(standalone.stderr).toContain(`delete the link ${state} (not the file it leads to)`);
    expect(standalone.stderr).not.toContain('yaml-lan');
    // A parse error JSON.parse places is said at its line and column, quoting nothing of the file.
    await removeFile(state);
    await writeFile(state, '{\n  "format": "x",\n  "secret" 1\n}\n');
    const placed = await runCli(['plan', '-C', dir, '--emulator']);
    expect(placed.stderr).toContain(`${state} is not valid JSON (colon expected at line 3, column 12)`);
    expect(placed.stderr).not.toContain('"secret"');
    // A --state that names someone's file (docket.yaml, the lock) is never said to be scratch data to delete.
    await writeFile(join(dir, 'docket.lock.json'), '{"version": 2, "targets": {}}\n');
    for (const file of ['docket.yaml', 'docket.lock.json']) {
      const other = await runCli(['emulator', '--port', '0', '--state', join(dir, file)]);
      expect([other.code, other.stderr]).toEqual([1, expect.stringContaining('hint: it is no emulator state: name a file of its own for --state')]);
      expect(other.stderr).not.toContain('delete');
    }
    // A new state file named as YAML is not made: every later run of the configuration would read it as a resource.
    const yamlState = join(dir, 'playbooks', 'state.yaml');
    const named = await runCli(['emulator', '--port', '0', '--state', yamlState]);
    expect([named.code, named.stderr]).toEqual([1, expect.stringContaining('is named as a YAML file, and the state is JSON')]);
    expect(named.stderr).toContain('hint: name a .json file, such as emulator-state.json');
    expect(await readdir(dir)).not.toContain('playbooks');
    // Nor one a link leads to, nor a path ending in / (a folder: every write's rename onto it failed, and nothing was saved).
    await symlink('em.yaml', join(dir, 'state.json'));
    const linked = await runCli(['emulator', '--port', '0', '--state', join(dir, 'state.json')]);
    expect([linked.code, linked.stderr]).toEqual([1, expect.stringContaining(`is a link to ${join(dir, 'em.yaml')}, a YAML file, and the state is JSON`)]);
    const folder = await runCli(['emulator', '--port', '0', '--state', join(dir, 'st', 'y.json') + '/']);
    expect([folder.code, folder.stderr]).toEqual([1, expect.stringContaining('names a folder (it ends in /), not a state file')]);
    expect(folder.stderr).toContain(`hint: name the file without the trailing /: ${join(dir, 'st', 'y.json')}\n`);
    // A folder that is there with the slash taken off still is one: a file inside it is the way out (probe KH-5).
    const there = await runCli(['emulator', '--port', '0', '--state', `${dir}/`]);
    expect([there.code, there.stderr]).toEqual([1, expect.stringContaining(`hint: name a file inside it, such as ${join(dir, 'emulator.json')}\n`)]);
    // The root too, which without its slash is nothing (second read SR72-8).
    expect((await runCli(['emulator', '--port', '0', '--state', '/'])).stderr).toContain('hint: name a file inside it, such as /emulator.json\n');
    for (const dots of ['.', '..']) {
      const named = `${join(dir, 'st', 'new')}/${dots}`;
      const refused = await runCli(['emulator', '--port', '0', '--state', named]);
      expect([refused.code, refused.stderr]).toEqual([1, expect.stringContaining(`${named} names a folder, not a state file`)]);
    }
    expect((await readdir(dir)).sort()).toEqual(['.docket', 'docket.lock.json', 'docket.yaml', 'members.yaml', 'state.json']);
  });
});

describe('-o json on every outcome', () => {
  it('plan -o json prints a JSON document with the error and the diagnostics, each with its source line', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': 'kind: Playbook\nname: A\nrules:\n  - name: R\n    reviewr: bob\n' });
    const plan = await runCli(['plan', '-C', dir, '--emulator', '-o', 'json']);
    expect(plan.code).toBe(1);
    const doc = JSON.parse(plan.stdout) as { error: { code: string; exit_code: number }; diagnostics: { code: string; line: number; excerpt?: string }[] };
    expect(doc.error).toMatchObject({ code: 'invalid-config', exit_code: 1 });
    expect(doc.diagnostics.find((d) => d.code === 'unknown-key')).toMatchObject({ line: 5, excerpt: '    reviewr: bob' });
  });

  it('apply -o json prints a JSON document when it cannot start (no terminal to ask)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    const apply = await runCli(['apply', '-C', dir, '--emulator', '-o', 'json']);
    expect(apply.code).toBe(1);
    expect(JSON.parse(apply.stdout.slice(apply.stdout.lastIndexOf('{\n  "format_version": 1,\n  "error"')))).toMatchObject({ error: { code: 'not-approved' } });
    // The commands it suggests plan what this run would have: the same folder and flags.
    expect(apply.stderr).toContain(`hint: pass --auto-approve, or apply a saved plan: docket plan -C ${dir} --emulator --out PLAN.json && docket apply -C ${dir} PLAN.json`);
    // A flag that acts when a saved plan is applied goes with the apply.
    const forced = await runCli(['apply', '-C', dir, '--emulator', '--prune', '--force']);
    expect(forced.stderr).toContain(`docket plan -C ${dir} --emulator --prune --out PLAN.json && docket apply -C ${dir} --force PLAN.json`);
  });

  it('the terminal shows the source line with a caret under the column', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': 'kind: Playbook\nname: A\nrules:\n  - name: R\n    reviewr: bob\n' });
    const result = await runCli(['validate', '-C', dir, '--no-color'], { tty: true });
    const text = result.stderr;
    expect(text).toContain('playbooks/nda.yaml:5:5 error unknown-key unknown key `reviewr` in `rules[0]`, did you mean `reviewer`?\n   5 |     reviewr: bob\n     |     ^\n');
  });

  it('colours stderr by whether stderr is a terminal, not stdout: errors redirected to a log get no escape codes (probe KW-1)', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': 'kind: Playbook\nname: A\nrules:\n  - name: R\n    reviewr: bob\n' });
    const ESC = String.fromCharCode(27);
    for (const command of [['validate'], ['plan', '--emulator']]) {
      const logged = await runCli([...command, '-C', dir], { tty: true, stderrTty: false });
      expect([logged.code, logged.stderr.includes(ESC)]).toEqual([1, false]);
      const shown = await runCli([...command, '-C', dir], { tty: false, stderrTty: true });
      expect([shown.code, shown.stderr.includes(`${ESC}[31merror`)]).toEqual([1, true]);
    }
  });
});

describe('API keys that cannot be sent', () => {
  it('are user errors naming what is wrong with them, before any connection', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    // Nothing listens there: a key refused after connecting would be a network error.
    const env = { DOCKET_REVIEW_URL: 'http://127.0.0.1:9/review', DOCKET_ORGANIZATION_ID: '00000000-0000-4000-8000-000000000001' };
    for (const [key, says, keyEnv, variable] of [
      ['Key\u20ac-123456789', 'characters an HTTP header cannot hold', { DOCKET_API_KEY: 'Key\u20ac-123456789' }, 'DOCKET_API_KEY'],
      ['key 123456789', 'spaces or control characters', { DOCKET_API_KEY: 'key 123456789', DOCKET_REVIEW_API_KEY: '  ' }, 'DOCKET_API_KEY'],
      ['key 123456789', 'spaces or control characters', { DOCKET_API_KEY: 'good-key-123456789', DOCKET_REVIEW_API_KEY: 'key 123456789' }, 'DOCKET_REVIEW_API_KEY'],
    ] as const) {
      const plan = await runCli(['plan', '-C', dir, '-o', 'json'], { env: { ...env, ...keyEnv } });
      expect(plan.code).toBe(1);
      const doc = JSON.parse(plan.stdout) as { error: { code: string; message: string; hint: string } };
      expect(doc.error.code).toBe('invalid-api-key');
      expect(doc.error.message).toContain(says);
      // The variable the key was read from: the service's own, or DOCKET_API_KEY when that one is unset or blank (probes DR, EO).
      expect(doc.error.hint).toBe(`check how the key in ${variable} was copied into the environment`);
      expect(plan.stdout + plan.stderr).not.toContain(key);
    }
  });
});

describe('did you mean, everywhere a name is looked up', () => {
  it('for --target kinds and names, and for references', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    // A kind is known offline: the typo is refused before any connection (nothing listens on port
    // 9), also when the agreements service must first say which organization its key acts for.
    await writeFile(join(dir, 'organization.yaml'), 'kind: Organization\nagreements:\n  city: Berlin\n');
    const nowhere = { DOCKET_REVIEW_URL: 'http://127.0.0.1:9/review', DOCKET_AGREEMENTS_URL: 'http://127.0.0.1:9/agreements', DOCKET_API_KEY: 'k' };
    for (const command of ['plan', 'apply', 'drift', 'pull']) {
      const kind = await runCli([command, '-C', dir, '--target', 'playbok/Inbound NDA'], { env: nowhere });
      expect(kind.code).toBe(1);
      expect(kind.stderr).toBe('Error: unknown kind `playbok` in target "playbok/Inbound NDA", did you mean `playbook`? (kinds: organization, member, playbook, rule, custom-term, custom-template, attachment, template)\n');
    }
    const name = await runCli(['plan', '-C', dir, '--emulator', '--target', 'playbook/Inbound NAD']);
    expect(name.stderr).toContain('no playbook "Inbound NAD" is declared or exists live, did you mean `playbook/Inbound NDA`?');
    const ref = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT all\n    reviewer: alcie@acme.example\n' });
    const plan = await runCli(['plan', '-C', ref, '--emulator']);
    // At the value's column: the value is what is wrong.
    expect(plan.stderr).toContain('playbooks/nda.yaml:6:15 error unknown-reference `reviewer` names "alcie@acme.example"');
    expect(plan.stderr).toContain('did you mean `alice@acme.example`?');
    // The likelier fix leads: declaring it would invite the mistyped address.
    expect(plan.stderr).toContain('hint: if you meant "alice@acme.example", write that; else declare it with `kind: Member`');
    // Written through a variable, the value is set where the variable is: said so, and the fix is there (probe IA-2).
    await writeFile(join(ref, 'docket.yaml'), `${DOCKET_YAML}vars:\n  legal_lead: alcie@acme.example\n`);
    await writeFile(join(ref, 'playbooks/nda.yaml'), 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT all\n    reviewer: "${var.legal_lead}"   # the lead\n');
    const viaVariable = await runCli(['plan', '-C', ref, '--emulator']);
    expect(viaVariable.stderr).toContain('playbooks/nda.yaml:6:15 error unknown-reference `reviewer` is `${var.legal_lead}`, which names "alcie@acme.example"');
    // Where this run takes the variable from, at its line (probe PM-1).
    expect(viaVariable.stderr).toContain('hint: if you meant "alice@acme.example", set var.legal_lead to that where this run takes it from: `vars.legal_lead` (docket.yaml:3); else declare it with `kind: Member`');
    // Set by an environment variable: that one is what to set (second read SR82-4).
    await writeFile(join(ref, 'docket.yaml'), `${DOCKET_YAML}vars:\n  legal_lead: \${env.LEAD}\n`);
    const viaEnvironment = await runCli(['plan', '-C', ref, '--emulator'], { env: { ...process.env, LEAD: 'alcie@acme.example' } });
    expect(viaEnvironment.stderr).toContain('hint: if you meant "alice@acme.example", set the environment variable LEAD (which gives var.legal_lead its value at `vars.legal_lead` (docket.yaml:3)) to that; else declare it');
    // Written with other text around the variable, the hint does not say to set it to the whole address (probe IE-5).
    await writeFile(join(ref, 'docket.yaml'), `${DOCKET_YAML}vars:\n  lead: alcie\n`);
    await writeFile(join(ref, 'playbooks/nda.yaml'), 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT all\n    reviewer: ${var.lead}@acme.example   # the lead\n');
    const within = await runCli(['plan', '-C', ref, '--emulator']);
    expect(within.stderr).toContain('playbooks/nda.yaml:6:15 error unknown-reference `reviewer` is `${var.lead}@acme.example`, which names "alcie@acme.example"');
    expect(within.stderr).toContain("hint: if you meant \"alice@acme.example\", change var.lead where this run takes it from: `vars.lead` (docket.yaml:3) so that `${var.lead}@acme.example` reads that; else declare it with `kind: Member`");
    // A name the text around the variable rules out: that text is what to fix (probe IF-2).
    await writeFile(join(ref, 'docket.yaml'), `${DOCKET_YAML}vars:\n  lead: alice\n`);
    await writeFile(join(ref, 'playbooks/nda.yaml'), 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT all\n    reviewer: "${var.lead}@acme.exampl"\n');
    const around = await runCli(['plan', '-C', ref, '--emulator']);
    expect(around.stderr).toContain('error unknown-reference `reviewer` is `${var.lead}@acme.exampl`, which names "alice@acme.exampl"');
    expect(around.stderr).toContain('hint: if you meant "alice@acme.example", edit the text around var.lead on this line, which no value of it changes; else declare it');
    // Another person's address is no near miss (`bob@` is in `nobody@`).
    await writeFile(join(ref, 'playbooks/nda.yaml'), 'kind: Playbook\nname: P\nrules:\n  - name: R\n    actions: ACCEPT all\n    reviewer: nobody@acme.example\n');
    expect((await runCli(['plan', '-C', ref, '--emulator'])).stderr).not.toContain('did you mean');
    // In JSON with the path of the value, as validate gives every diagnostic at a value.
    const json = JSON.parse((await runCli(['plan', '-C', ref, '--emulator', '-o', 'json'])).stdout) as { diagnostics: { code: string; line: number; path?: string }[] };
    expect(json.diagnostics).toEqual([expect.objectContaining({ code: 'unknown-reference', line: 6, path: 'rules[0].reviewer' })]);
    // With the configuration's own warnings, as validate says them (probe UC-6).
    await writeFile(join(ref, 'organization.yaml'), 'kind: Organization\n');
    const warned = await runCli(['plan', '-C', ref, '--emulator']);
    expect(warned.stderr).toContain('warning empty-organization');
    expect(warned.stderr).toContain('1 error, 1 warning');
    const warnedJson = JSON.parse((await runCli(['plan', '-C', ref, '--emulator', '-o', 'json'])).stdout) as { diagnostics: { code: string; message: string }[] };
    expect(warnedJson.diagnostics.map((d) => d.code)).toEqual(['empty-organization', 'unknown-reference']);
    // drift says the configuration's warnings before it reads: once, not again beside the error (second read SR93B-6).
    const drifted = await runCli(['drift', '-C', ref, '--emulator', '--target', 'playbook/nope']);
    expect(drifted.stderr).toContain('error unknown-target');
    expect(drifted.stderr.split(warnedJson.diagnostics[0]!.message).length - 1).toBe(1);
  });
});

describe("the plan's own problems in -o json", () => {
  it('carry the path of the value they are about, as the configuration checks do', async () => {
    const dir = await copyExample();
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    await writeFile(join(dir, 'templates/mutual-nda.yaml'), 'kind: Template\nname: Mutual NDA\ntype: DPA\n');
    await writeFile(join(dir, 'playbooks/vendor-msa.yaml'), 'kind: Playbook\nname: Inbound NDA\nrenamed_from: [Vendor MSA]\n');
    const csa = await readFile(join(dir, 'templates/cloud-services.yaml'), 'utf8');
    await writeFile(join(dir, 'templates/cloud-services.yaml'), csa.replace('attachments: [Security Exhibit]', 'attachments: [Security Exhibit, Other Thing]'));
    const nda = await readFile(join(dir, 'playbooks/inbound-nda.yaml'), 'utf8');
    await writeFile(join(dir, 'playbooks/inbound-nda.yaml'), nda.replace('name: Inbound NDA', 'name: Old Inbound').replace('  - name: Term\n', '  - name: Term\n    id: 11111111-2222-4333-8444-555555555556\n'));
    const plan = await runCli(['plan', '-C', dir, '--emulator', '-o', 'json']);
    const json = JSON.parse(plan.stdout) as { diagnostics: { code: string; file: string; path?: string }[] };
    expect(json.diagnostics.map((d) => [d.code, d.file, d.path])).toEqual(
      expect.arrayContaining([
        ['pinned-id-not-found', 'playbooks/inbound-nda.yaml', 'rules[0].id'],
        // The name in a list of one, as in a longer one (probe MO-2).
        ['rename-target-live', 'playbooks/vendor-msa.yaml', 'renamed_from[0]'],
        ['unsupported-change', 'templates/mutual-nda.yaml', 'type'],
        // An item of a list is named as one.
        ['unknown-reference', 'templates/cloud-services.yaml', 'attachments[1]'],
      ]),
    );
  });

  it('say a template parameter naming an attachment through a placeholder is written so, at its path (probe IG-1)', async () => {
    const dir = await copyExample();
    await writeFile(join(dir, 'docket.yaml'), (await readFile(join(dir, 'docket.yaml'), 'utf8')).replace('vars:\n', 'vars:\n  sec: Security Exhibt\n'));
    const csa = await readFile(join(dir, 'templates/cloud-services.yaml'), 'utf8');
    await writeFile(join(dir, 'templates/cloud-services.yaml'), csa.replace('{ attachment: Security Exhibit }', () => '{ attachment: "${var.sec}" }'));
    const plan = await runCli(['plan', '-C', dir, '--emulator']);
    expect(plan.stderr).toContain('templates/cloud-services.yaml:12:56 error unknown-reference `parameters.include_security_policy_attachment_id` is `${var.sec}`, which names attachment "Security Exhibt"');
    expect(plan.stderr).toContain('hint: if you meant "Security Exhibit", set var.sec to that where this run takes it from: `vars.sec` (docket.yaml:');
    const json = JSON.parse((await runCli(['plan', '-C', dir, '--emulator', '-o', 'json'])).stdout) as { diagnostics: { code: string; path?: string }[] };
    expect(json.diagnostics).toContainEqual(expect.objectContaining({ code: 'unknown-reference', path: 'parameters.include_security_policy_attachment_id.attachment' }));
  });
});

describe('what the plan says about live objects no file declares', () => {
  it('names undeclared playbooks with the --prune hint, without -v', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA, 'playbooks/old.yaml': 'kind: Playbook\nname: Old Playbook\n' });
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    await removeFile(join(dir, 'playbooks/old.yaml'));
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--no-color']);
    expect(plan.stdout).toContain('1 live object is not declared in any file and is left alone (playbooks: 1).');
    expect(plan.stdout).toContain('  1 playbook: "Old Playbook" (prune is off: set prune.playbooks or pass --prune to archive them)');
    expect(plan.stdout).not.toContain('members');
  });
});

describe('plans that point out likely mistakes', () => {
  it('a playbook renamed without renamed_from looks like a rename; with it, the plan renames old → new', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    await writeFile(join(dir, 'playbooks/nda.yaml'), NDA.replace('name: Inbound NDA', 'name: Inbound NDAs'));
    const hinted = await runCli(['plan', '-C', dir, '--emulator', '--no-color']);
    expect(hinted.stdout).toContain(
      'Warning: playbook "Inbound NDAs" (playbooks/nda.yaml:1) looks like a rename of the live playbook "Inbound NDA" (the same content), but the plan creates "Inbound NDAs" beside it: if it was renamed, add `renamed_from: [Inbound NDA]`',
    );
    await writeFile(join(dir, 'playbooks/nda.yaml'), NDA.replace('name: Inbound NDA', 'name: Inbound NDAs\nrenamed_from: [Inbound NDA]'));
    const renamed = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve', '--no-color']);
    expect(renamed.stdout).toContain('~ rename playbook "Inbound NDA" → "Inbound NDAs"');
    expect(renamed.stdout).toContain('✓ rename playbook "Inbound NDA" → "Inbound NDAs"');
    expect(renamed.stdout).not.toContain('looks like a rename');
    expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'])).code).toBe(0);
  });

  it('a member name that differs from the existing user is said not to be managed', async () => {
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'members.yaml': 'kind: Member\nemail: alice@acme.example\nname: Alice\n' });
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--no-color', '--detailed-exitcode']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain('No changes.');
    expect(plan.stdout).toContain('`name` is set only when docket invites it, and is not managed for an existing one: it stays "Alice Moreau" live (the file says "Alice")');
    // A plan cut to other targets says nothing of it; one that names the member still does.
    await writeFile(join(dir, 'org.yaml'), 'kind: Organization\nreview:\n  name: Acme\n');
    const elsewhere = await runCli(['plan', '-C', dir, '--emulator', '--no-color', '--target', 'organization', '-o', 'json']);
    const cut = JSON.parse(elsewhere.stdout) as { warnings: string[]; summary: Record<string, number> };
    expect(cut.summary).toEqual({ update: 1 });
    expect(cut.warnings.filter((w) => w.includes('alice'))).toEqual([]);
    const named = await runCli(['plan', '-C', dir, '--emulator', '--no-color', '--target', 'member/alice@acme.example']);
    expect(named.stdout).toContain('`name` is set only when docket invites it');
  });

  it('merge keys share rule text within a file, in block and flow style', async () => {
    // Flow mappings are read by the bundled js-yaml that scripts/bundle.mjs patches: merged keys in one must still be overridable.
    const shared = 'kind: Playbook\nname: Shared\nrules:\n  - &base\n    name: One\n    actions: ACCEPT the standard wording\n    questions: Is it standard?\n  - <<: *base\n    name: Two\n  - <<: [*base]\n    name: Three\n    questions: Is it the other one?\n  - {<<: *base, name: Four, questions: "Four?"}\n';
    const dir = await makeDir({ 'docket.yaml': DOCKET_YAML, 'playbooks/shared.yaml': shared });
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--no-color', '-o', 'json']);
    const rules = (JSON.parse(plan.stdout) as { changes: { kind: string; name: string; desired: Record<string, unknown> }[] }).changes.filter((c) => c.kind === 'rule');
    expect(rules.map((r) => [r.name, r.desired.actions, r.desired.questions])).toEqual([
      ['Four', 'ACCEPT the standard wording', 'Four?'],
      ['One', 'ACCEPT the standard wording', 'Is it standard?'],
      ['Three', 'ACCEPT the standard wording', 'Is it the other one?'],
      ['Two', 'ACCEPT the standard wording', 'Is it standard?'],
    ]);
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'])).code).toBe(0);
  });
});
