import { spawnSync } from 'node:child_process';
/** `docket init`: a starter directory that validates, plans and applies cleanly, and never overwrites. */
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Io } from '../../src/cli/io.js';
import { main } from '../../src/cli/main.js';
import { schemasDir } from '../../src/config/schema-names.js';
import { runCli } from '../helpers/cli.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';

afterAll(removeMadeDirs);

const YAML_FILES = ['docket.yaml', 'playbooks/example.yaml'];

/** runCli with another working directory, for the default DIR (`.`). */
async function runIn(cwd: string, args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    isTTY: false,
    canPrompt: false,
    prompt: async () => '',
    env: {},
    cwd,
  };
  const code = await main(['node', 'docket', ...args], { io });
  return { code, stdout, stderr };
}

describe('docket init', () => {
  it('creates DIR with docket.yaml, an example playbook, .gitignore and schema comments, then validates', async () => {
    // A repository that pins docket as a devDependency: the schema comments point into its node_modules.
    const repo = await makeDir({ 'package.json': '{"devDependencies":{"docket":"*"}}\n' });
    await mkdir(join(repo, 'node_modules', 'docket'), { recursive: true });
    await symlink(schemasDir(), join(repo, 'node_modules', 'docket', 'schemas'));
    const dir = join(repo, 'nested', 'config');
    const init = await runCli(['init', dir]);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    for (const f of [...YAML_FILES, '.gitignore']) expect(init.stdout).toContain(`created  ${join(dir, f)}`);
    expect(init.stdout).toContain(`docket validate -C ${dir}`);
    expect(init.stdout).toContain(`docket plan -C ${dir} --emulator`);
    // The last step too names the folder, run from where init was (probe JK-5).
    expect(init.stdout).toContain(`run \`docket plan -C ${dir}\` against the real service`);
    expect(init.stdout).not.toContain('npm install --save-dev --prefix . <docket');

    for (const f of YAML_FILES) {
      const text = await readFile(join(dir, f), 'utf8');
      const m = /^# yaml-language-server: \$schema=(\S+)\n/.exec(text);
      expect(m, f).not.toBeNull();
      expect(m![1]).not.toMatch(/^\//); // relative, so it survives a checkout elsewhere
      expect(m![1]).toMatch(/^(\.\.\/)+node_modules\/docket\/schemas\//); // the same for every teammate after npm ci
      expect(existsSync(resolve(dirname(join(dir, f)), m![1]!)), `${f} → ${m![1]}`).toBe(true);
    }
    expect(await readFile(join(dir, 'playbooks/example.yaml'), 'utf8')).toMatch(/playbook\.schema\.json\n/);
    expect((await readFile(join(dir, '.gitignore'), 'utf8')).split('\n')).toContain('.docket/');

    const validate = await runCli(['validate', '-C', dir]);
    expect(validate.stderr).toBe('');
    expect(validate.stdout).toBe('The configuration is valid: 3 resources.\n');
    expect(validate.code).toBe(0);
  });

  it('points the schema comments at docket installed above, as an npm workspace hoists it', async () => {
    const root = await makeDir({ 'package.json': '{"workspaces":["legal"]}\n', 'legal/package.json': '{"name":"legal"}\n' });
    await mkdir(join(root, 'node_modules', 'docket'), { recursive: true });
    await symlink(schemasDir(), join(root, 'node_modules', 'docket', 'schemas'));
    const dir = join(root, 'legal', 'config');
    const init = await runCli(['init', dir]);
    expect(init.code).toBe(0);
    expect(init.stdout).not.toContain('npm install --save-dev --prefix . <docket');
    expect(await readFile(join(dir, 'docket.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/node_modules\/docket\/schemas\/docket\.schema\.json\n/);
  });

  it('points the schema comments at the workspace root of a package not installed yet, where npm will put docket (probe XB-1)', async () => {
    const root = await makeDir({ '.git/HEAD': '', 'package.json': '{"private":true,"workspaces":{"packages":["./packages/*/"]}}\n', 'packages/legal/package.json': '{"name":"legal"}\n', 'tools/package.json': '{"name":"tools"}\n' });
    const init = await runCli(['init', join(root, 'packages', 'legal', 'config')]);
    expect([init.code, init.stdout]).toEqual([0, expect.stringContaining('npm install --save-dev --prefix . <docket')]);
    expect(await readFile(join(root, 'packages', 'legal', 'config', 'docket.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/\.\.\/\.\.\/node_modules\/docket\/schemas\/docket\.schema\.json\n/);
    // A package the workspaces do not list keeps its own.
    expect((await runCli(['init', join(root, 'tools', 'config')])).code).toBe(0);
    expect(await readFile(join(root, 'tools', 'config', 'docket.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/node_modules\/docket\/schemas\/docket\.schema\.json\n/);
  });

  it('reads workspaces as npm does: ** across no folder, {a,b}, and ! taking a package back out (probe FE-1)', async () => {
    const schemaOf = async (workspaces: string[], pkg: string): Promise<string> => {
      const root = await makeDir({ '.git/HEAD': '', 'package.json': JSON.stringify({ private: true, workspaces }), [`${pkg}/package.json`]: '{"name":"legal"}\n' });
      expect((await runCli(['init', join(root, pkg, 'cfg')])).code).toBe(0);
      return /\$schema=(\S+)/.exec(await readFile(join(root, pkg, 'cfg', 'docket.yaml'), 'utf8'))![1]!;
    };
    const atRoot = '../../../node_modules/docket/schemas/docket.schema.json';
    const own = '../node_modules/docket/schemas/docket.schema.json';
    expect(await schemaOf(['packages/**/legal'], 'packages/legal')).toBe(atRoot);
    expect(await schemaOf(['packages/{legal,other}'], 'packages/legal')).toBe(atRoot);
    expect(await schemaOf(['packages/*', '!packages/legal'], 'packages/legal')).toBe(own);
    expect(await schemaOf(['packages/*', '!packages/other'], 'packages/legal')).toBe(atRoot);
  });

  it('looks for the package.json and an installed docket no higher than the git repository (a stray one above is no teammate\'s)', async () => {
    const outer = await makeDir({ 'package.json': '{"name":"home"}\n' });
    await mkdir(join(outer, 'node_modules', 'docket'), { recursive: true });
    await symlink(schemasDir(), join(outer, 'node_modules', 'docket', 'schemas'));
    await mkdir(join(outer, 'repo', '.git'), { recursive: true });
    const dir = join(outer, 'repo', 'cfg');
    const init = await runCli(['init', dir]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('npm install --save-dev --prefix . <docket');
    expect(await readFile(join(dir, 'docket.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/node_modules\/docket\/schemas\/docket\.schema\.json\n/);
  });

  it('treats a repository of its own nested in docket\'s package as any other: not pointed at that checkout\'s schemas (probe NO-1)', async () => {
    const nested = join(dirname(schemasDir()), `no1-${process.pid}-repo`);
    await mkdir(join(nested, '.git'), { recursive: true });
    await writeFile(join(nested, 'package.json'), '{"name":"x"}\n');
    try {
      const init = await runCli(['init', join(nested, 'cfg')]);
      expect(init.code).toBe(0);
      expect(init.stdout).toContain('npm install --save-dev --prefix . <docket');
      expect(await readFile(join(nested, 'cfg', 'docket.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/node_modules\/docket\/schemas\/docket\.schema\.json\n/);
    } finally {
      await rm(nested, { recursive: true, force: true });
    }
  });

  it('points the schema comments where a devDependency would put docket, and says how to get it there', async () => {
    const dir = await makeDir({});
    const init = await runCli(['init', dir]);
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('npm install --save-dev --prefix . <docket');
    expect(await readFile(join(dir, 'docket.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=node_modules\/docket\/schemas\/docket\.schema\.json\n/);
    // Run from the folder above, the install goes where the comments point: in DIR, named from here (probe BF-1).
    const above = await makeDir({});
    const named = await runCli(['init', 'my config'], { cwd: above });
    expect(named.stdout).toContain("the files' `$schema` comments point at my config/node_modules/docket/schemas; pin docket there (`cd 'my config' && npm install --save-dev --prefix . <docket");
    expect(await readFile(join(dir, 'playbooks/example.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\.\/node_modules\/docket\/schemas\/playbook\.schema\.json\n/);
    // A repository whose package.json pins docket already wants an install, not a pin (probe GF-4).
    const pinned = await makeDir({ 'package.json': '{"devDependencies":{"docket":"git+https://example.invalid/docket.git#abc"}}' });
    const cloned = await runCli(['init', 'config'], { cwd: pinned });
    expect(cloned.stdout).toContain("its package.json pins docket, which is not installed yet (`npm ci`, or `npm install`)");
    expect(cloned.stdout).not.toContain('--save-dev');
  });

  it('plans, applies to the emulator, and re-plans to no changes', async () => {
    const dir = await makeDir({});
    expect((await runCli(['init', dir])).code).toBe(0);
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect(plan.stderr).toBe('');
    expect(plan.stdout).toContain('+ create playbook "Example NDA" (playbooks/example.yaml:');
    expect(plan.stdout).toContain('Plan: 3 to create, 0 to update, 0 to delete.');
    expect(plan.code).toBe(2);

    const apply = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect(apply.stderr).toBe('');
    expect(apply.code).toBe(0);

    const replan = await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode']);
    expect(replan.stdout).toContain('No changes.');
    expect(replan.code).toBe(0);

    // The agreements block init shows, uncommented once the emulator's state exists: its actor is a user there too.
    const project = await readFile(join(dir, 'docket.yaml'), 'utf8');
    await writeFile(join(dir, 'docket.yaml'), project.replace('# agreements:\n#   url: https://api.commonpaper.com       # the default; or DOCKET_AGREEMENTS_URL\n#   actor:', 'agreements:\n  actor:'));
    await writeFile(join(dir, 'terms.yaml'), 'kind: CustomTerm\nname: Data Terms\nbody: Our terms.\n');
    const withActor = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve']);
    expect([withActor.code, withActor.stderr]).toEqual([0, '']);
    expect((await runCli(['plan', '-C', dir, '--emulator', '--detailed-exitcode'])).code).toBe(0);
  });

  it('prints a DIR with a control character in it escaped, never raw to the terminal', async () => {
    const parent = await makeDir({});
    const dir = join(parent, 'x\x1b]0;PWNED\x07z');
    const result = await runCli(['init', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).not.toMatch(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/);
    expect(result.stdout).toContain('x\\u001b]0;PWNED\\u0007z/docket.yaml');
    // A line break in it cannot start a line of its own (a CI runner would obey `::error::…`).
    const broken = join(parent, 'z\n::error::pwned');
    const lines = (await runCli(['init', broken])).stdout.split('\n');
    expect(lines.filter((l) => l.startsWith('::'))).toEqual([]);
    expect(lines).toContain(`  created  ${JSON.stringify(join(broken, 'docket.yaml'))}`);
  });

  it('says -C DIR, which every other command takes, as the argument init takes instead (probe KK-9)', async () => {
    const dir = await makeDir({});
    const r = await runCli(['init', '-C', join(dir, 'x2')]);
    expect([r.code, r.stderr]).toEqual([1, `Error: --dir: init takes the directory as its argument: docket init ${join(dir, 'x2')} (got "${join(dir, 'x2')}")\n(run docket init --help for usage)\n`]);
    expect(existsSync(join(dir, 'x2'))).toBe(false);
  });

  it('writes into the current directory by default', async () => {
    const dir = await makeDir({});
    const result = await runIn(dir, ['init']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('docket validate ');
    expect(result.stdout).not.toContain(' -C ');
    for (const f of [...YAML_FILES, '.gitignore']) expect(existsSync(join(dir, f)), f).toBe(true);
  });

  it('warns of YAML files already there that are no docket documents, which validate would then refuse; docket documents and tests are no worry (probe KK-2)', async () => {
    const dir = await makeDir({ 'docker-compose.yml': 'services:\n  web:\n    image: nginx\n', 'ci/workflow.yaml': 'on: push\n', 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules: []\n', 'tests/nda.test.yaml': 'kind: PlaybookTest\n' });
    const result = await runIn(dir, ['init']);
    expect([result.code, result.stderr]).toEqual([0, 'Warning: . already holds YAML files that are no docket documents (ci/workflow.yaml, docker-compose.yml); docket reads every YAML file below its directory, so `docket validate` fails on them. Keep the configuration in a folder of its own (remove what this init wrote here, docket.yaml, playbooks/example.yaml, .gitignore, then `docket init docket`), or move them out (or into a dot-folder).\n']);
    // The way out names what this init made, which it takes away first: not a second configuration inside the first (probe PE-2).
    // Read as docket reads them (second read RV9-4): a byte-order mark, quotes, a flow mapping are docket documents; a Kubernetes manifest is none.
    const clean = await makeDir({ 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules: []\n', 'bom.yaml': '\ufeffkind: Member\nemail: a@acme.example\n', 'quoted.yaml': '"kind": Member\nemail: b@acme.example\n', 'flow.yaml': '{kind: Member, email: c@acme.example}\n' });
    expect((await runIn(clean, ['init'])).stderr).toBe('');
    const k8s = await makeDir({ 'deploy.yaml': 'apiVersion: apps/v1\nkind: Deployment\n' });
    expect((await runIn(k8s, ['init'])).stderr).toContain('no docket documents (deploy.yaml)');
    // A starter's path init keeps (it was there) is the user's file, checked as any other (probe XG-1).
    const kept = await makeDir({ 'playbooks/example.yaml': 'foo: bar\n' });
    const keptInit = await runIn(kept, ['init']);
    expect(keptInit.stdout).toMatch(/kept \(exists\)\s+playbooks\/example\.yaml/);
    expect(keptInit.stderr).toContain('no docket documents (playbooks/example.yaml)');
    expect(keptInit.stderr).toContain('remove what this init wrote here, docket.yaml, .gitignore, then');
    // Where a folder `docket` is there already (another configuration), one that is not is suggested: that init would be refused (probe RU-2).
    const nested = await makeDir({ 'docket/docket.yaml': 'version: 1\n' });
    const again = await runIn(nested, ['init']);
    expect(again.stderr).toContain('then `docket init docket-2`)');
    const suggested = await runIn(nested, ['init', 'docket-2']);
    expect(suggested.code).toBe(0);
  });

  it('refuses a directory that already has docket.yaml and writes nothing', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const result = await runCli(['init', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('docket.yaml already exists');
    expect(await readFile(join(dir, 'docket.yaml'), 'utf8')).toBe('version: 1\n');
    expect(existsSync(join(dir, 'playbooks'))).toBe(false);
    expect(existsSync(join(dir, '.gitignore'))).toBe(false);
  });

  it('refuses a project file that is a link to a missing file, whichever name it has, and writes nothing', async () => {
    for (const name of ['docket.yaml', 'docket.yml']) {
      const dir = await makeDir({});
      await symlink(join(dir, 'nowhere.yaml'), join(dir, name));
      const result = await runCli(['init', dir]);
      expect(result.code).toBe(1);
      // Said as what it is, as a starter's path is (probe ZB-3).
      expect(result.stderr).toContain(`${name} is a symbolic link to something that does not exist; nothing was written`);
      expect(existsSync(join(dir, 'playbooks'))).toBe(false);
      expect(existsSync(join(dir, '.gitignore'))).toBe(false);
    }
    const folder = await makeDir({ 'docket.yaml/x': 'y\n' });
    expect((await runCli(['init', folder])).stderr).toContain('docket.yaml is a folder, not a file; nothing was written');
  });

  it('refuses a directory whose project file is docket.yml, which a docket.yaml beside it would make invalid', async () => {
    const dir = await makeDir({ 'docket.yml': 'version: 1\n' });
    const result = await runCli(['init', dir]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('docket.yml already exists; nothing was written');
    expect(existsSync(join(dir, 'docket.yaml'))).toBe(false);
    expect(existsSync(join(dir, 'playbooks'))).toBe(false);
  });

  it('validate offers `docket init` only where init would make one: a folder where its example goes is said instead (probe HH-3)', async () => {
    const dir = await makeDir({});
    await mkdir(join(dir, 'playbooks/example.yaml'), { recursive: true });
    const init = await runCli(['init', dir]);
    expect([init.code, init.stderr]).toEqual([1, expect.stringContaining('playbooks/example.yaml is a folder, not a file; nothing was written')]);
    const validated = await runCli(['validate', '-C', dir]);
    expect([validated.code, validated.stderr]).toEqual([1, `error missing-project-file ${dir} has no docket.yaml, so it is not a docket configuration directory\n  hint: point -C at the directory that holds docket.yaml (\`docket init ${dir}\` would refuse here: playbooks/example.yaml is a folder, not a file)\n1 error, 0 warnings.\n`]);
    // Where init can write, it is offered.
    await rm(join(dir, 'playbooks'), { recursive: true });
    expect((await runCli(['validate', '-C', dir])).stderr).toContain(`hint: run \`docket init ${dir}\` to create one`);
  });

  it('names the directory in its hints, and refuses a project file in another case, which validate names too (probe ES)', async () => {
    const dir = await makeDir({ 'Docket.yaml': 'version: 1\n' });
    const validated = await runCli(['validate', '-C', dir]);
    expect([validated.code, validated.stderr]).toEqual([1, `error missing-project-file ${dir} has no docket.yaml but a Docket.yaml: docket reads docket.yaml (or docket.yml), in lower case\n  hint: rename it: mv ${join(dir, 'Docket.yaml')} ${join(dir, 'docket.yaml')}\n1 error, 0 warnings.\n`]);
    const init = await runCli(['init', dir]);
    expect([init.code, init.stderr]).toEqual([1, expect.stringContaining(`Docket.yaml already exists (docket reads docket.yaml, in lower case); nothing was written\n  hint: rename it to docket.yaml, then \`docket validate -C ${dir}\` to check it`)]);
    expect(existsSync(join(dir, 'docket.yaml'))).toBe(false);
    const empty = await makeDir({ 'notes.txt': 'x\n' });
    expect((await runCli(['validate', '-C', empty])).stderr).toContain(`hint: run \`docket init ${empty}\` to create one`);
    await writeFile(join(empty, 'docket.yaml'), 'version: 1\n');
    expect((await runCli(['init', empty])).stderr).toContain(`hint: run \`docket validate -C ${empty}\` to check it`);
  });

  it('warns that a DIR inside another configuration directory breaks that configuration', async () => {
    const dir = await makeDir({ 'docket.yaml': 'version: 1\n' });
    const result = await runCli(['init', join(dir, 'teams/sales')]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Warning: ${join(dir, 'teams/sales')} is inside the configuration directory ${dir}, which reads every YAML file below it`);
    const validated = await runCli(['validate', '-C', dir]);
    expect(validated.code).toBe(1);
    // Said as another configuration's project file, not as a resource that lacks its kind (probe JT-9).
    expect(validated.stdout + validated.stderr).toContain('teams/sales/docket.yaml:4:1 error not-a-resource');
    expect(validated.stdout + validated.stderr).toContain('hint: this is the project file of another configuration (teams/sales/), which this one reads as its own: move that configuration out of this directory, or into a folder whose name starts with "."');
    expect((await runCli(['init', join(dir, '.scratch/new')])).stderr).toBe('');
  });

  it('refuses a DIR that is a file, a named pipe or a link to nothing, saying which', async () => {
    const dir = await makeDir({ taken: 'x' });
    const result = await runCli(['init', join(dir, 'taken')]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('taken is a file, not a folder; nothing was written');
    spawnSync('mkfifo', [join(dir, 'pipe')]);
    await symlink(join(dir, 'nowhere'), join(dir, 'dangling'));
    for (const [target, why] of [
      ['pipe', 'pipe is not a folder (a named pipe or a device); nothing was written'],
      ['dangling', 'dangling is a symbolic link to something that does not exist, not a folder; nothing was written'],
      ['dangling/sub', 'dangling is a symbolic link to something that does not exist, not a folder; nothing was written'],
    ] as const) {
      const r = await runCli(['init', join(dir, target)]);
      expect([r.code, r.stderr]).toEqual([1, expect.stringContaining(why)]);
    }
    expect(existsSync(join(dir, 'nowhere'))).toBe(false);
  });

  it('refuses, before writing anything, a file where a folder must be or a folder where a file must be', async () => {
    for (const [files, target, blocker] of [
      [{ 'new/playbooks': 'a file' }, 'new', 'new/playbooks is a file, not a folder'],
      [{ 'new/.gitignore/x': 'a folder' }, 'new', 'new/.gitignore is a folder, not a file'],
      [{ taken: 'a file' }, 'taken/sub', 'taken is a file, not a folder'],
    ] as const) {
      const dir = await makeDir(files);
      const result = await runCli(['init', join(dir, target)]);
      expect(result.code).toBe(1);
      expect(result.stderr).toContain(`${blocker}; nothing was written`);
      expect(result.stderr).not.toContain('Internal error');
      expect(existsSync(join(dir, target, 'docket.yaml'))).toBe(false);
    }
  });

  it('refuses a starter file or .gitignore that is a link to nothing, not keeping it as a file that exists (probe EU)', async () => {
    for (const file of ['playbooks/example.yaml', '.gitignore']) {
      const dir = await makeDir({});
      await mkdir(join(dir, 'new', dirname(file)), { recursive: true });
      await symlink(join(dir, 'missing.yaml'), join(dir, 'new', file));
      const result = await runCli(['init', join(dir, 'new')]);
      expect([result.code, result.stderr]).toEqual([1, expect.stringContaining(`${file} is a symbolic link to something that does not exist; nothing was written`)]);
      expect(existsSync(join(dir, 'new', 'docket.yaml'))).toBe(false);
    }
    // A named pipe there would be read for ever (.gitignore is appended to): refused at once (probe EX).
    for (const file of ['.gitignore', 'playbooks/example.yaml']) {
      const dir = await makeDir({});
      await mkdir(join(dir, 'new', dirname(file)), { recursive: true });
      spawnSync('mkfifo', [join(dir, 'new', file)]);
      const result = await runCli(['init', join(dir, 'new')]);
      expect([result.code, result.stderr]).toEqual([1, expect.stringContaining(`${file} is not a regular file (a named pipe or a device); nothing was written`)]);
      expect(existsSync(join(dir, 'new', 'docket.yaml'))).toBe(false);
    }
  });

  it('undoes what it wrote when a later file cannot be written, and says which, without a stack trace', async () => {
    // A path docket.yaml fits in and playbooks/example.yaml does not (Linux's 4,096 bytes): a write
    // that fails after one succeeded, whatever the user (tests may run as root, which ignores modes).
    const dir = await makeDir({});
    let target = dir;
    while (target.length < 4075 - 201) target = join(target, 'd'.repeat(200));
    target = join(target, 'n'.repeat(4075 - target.length - 1));
    await mkdir(target, { recursive: true });
    const result = await runCli(['init', target]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: cannot write \S*\/playbooks\/example\.yaml \(ENAMETOOLONG\); nothing was written$/m);
    expect(result.stderr).not.toContain('Internal error');
    expect(existsSync(join(target, 'docket.yaml'))).toBe(false);
    expect(existsSync(join(target, '.gitignore'))).toBe(false);
    expect(result.stderr).toContain('hint: give the folder a shorter name, or pass another DIR');
    // A name too long below folders mkdir made first: those go too (probe BF-3).
    const parent = await makeDir({});
    const deep = await runCli(['init', join(parent, 'a', 'b', 'c'.repeat(256))]);
    expect(deep.code).toBe(1);
    expect(deep.stderr).toContain('(ENAMETOOLONG); nothing was written');
    expect(await readdir(parent)).toEqual([]);
  });

  it('refuses a starter\'s folder or .gitignore that is a link out of DIR or into a dot-folder of it: validate would not read what it wrote there (probe JT-2)', async () => {
    for (const [file, to] of [['playbooks', 'outside'], ['playbooks', 'new/.scratch'], ['.gitignore', 'outside.gitignore']] as const) {
      const dir = await makeDir({ 'outside/keep': '', 'new/.scratch/keep': '', 'outside.gitignore': 'node_modules/\n' });
      await symlink(join(dir, to), join(dir, 'new', file));
      const result = await runCli(['init', join(dir, 'new')]);
      expect([result.code, result.stderr]).toEqual([1, expect.stringContaining(`${file} is a symbolic link to `)]);
      expect(result.stderr).toContain('which docket does not read as part of this directory; nothing was written');
      expect(existsSync(join(dir, 'new', 'docket.yaml'))).toBe(false);
      expect(await readFile(join(dir, 'outside.gitignore'), 'utf8')).toBe('node_modules/\n');
    }
    // A .gitignore linked to a file of DIR in a dot-folder is DIR's own: git's, which docket never reads (second read SR71-5).
    const kept = await makeDir({ 'new/.config/gitignore': 'node_modules/\n' });
    await symlink(join(kept, 'new/.config/gitignore'), join(kept, 'new/.gitignore'));
    expect((await runCli(['init', join(kept, 'new')])).code).toBe(0);
    expect(await readFile(join(kept, 'new/.config/gitignore'), 'utf8')).toBe('node_modules/\n.docket/\n');
    // Not one in node_modules: a package's own (second read RV6-4).
    const pkg = await makeDir({ 'new/node_modules/pkg/.gitignore': 'dist/\n' });
    await symlink(join(pkg, 'new/node_modules/pkg/.gitignore'), join(pkg, 'new/.gitignore'));
    expect((await runCli(['init', join(pkg, 'new')])).code).toBe(1);
    expect(await readFile(join(pkg, 'new/node_modules/pkg/.gitignore'), 'utf8')).toBe('dist/\n');
  });

  it('keeps existing files and appends .docket/ to an existing .gitignore only when missing', async () => {
    const dir = await makeDir({ '.gitignore': 'node_modules/', 'playbooks/example.yaml': 'mine\n' });
    const result = await runCli(['init', dir]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/kept \(exists\)\s+\S*playbooks\/example\.yaml/);
    expect(result.stdout).toMatch(/updated\s+\S*\.gitignore/);
    expect(await readFile(join(dir, 'playbooks/example.yaml'), 'utf8')).toBe('mine\n');
    expect(await readFile(join(dir, '.gitignore'), 'utf8')).toBe('node_modules/\n.docket/\n');

    const again = await makeDir({});
    await writeFiles(again, { '.gitignore': '/.docket\n' });
    expect((await runCli(['init', again])).code).toBe(0);
    expect(await readFile(join(again, '.gitignore'), 'utf8')).toBe('/.docket\n');
    // As git reads it: a trailing space does not count, a leading one or a trailing tab does, and a later `!.docket/` takes it back (probe OF-5, second read SR80-7).
    for (const [written, kept] of [['.docket/  \n', true], ['  .docket/\n', false], ['.docket/\t\n', false], ['.docket/\n!.docket/\n', false], ['!.docket/\n.docket/\n', true]] as const) {
      const each = await makeDir({});
      await writeFiles(each, { '.gitignore': written });
      expect((await runCli(['init', each])).code).toBe(0);
      expect(await readFile(join(each, '.gitignore'), 'utf8'), written).toBe(kept ? written : `${written}.docket/\n`);
    }
  });
});
