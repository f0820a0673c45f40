/**
 * `--annotations github` against the in-process emulator: every change becomes a workflow command
 * that points at its file and line relative to the repository root, not the configuration dir.
 */
import { mkdir, rm, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findGitRoot, repoPathPrefix } from '../../src/cli/annotations.js';
import { runCli } from '../helpers/cli.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';
import { DOCKET_YAML, NDA } from './fixtures.js';

afterAll(removeMadeDirs);

let repo: string;
let dir: string;

beforeAll(async () => {
  // A repository whose configuration lives in a subfolder, as in a monorepo.
  repo = await makeDir({});
  await mkdir(join(repo, '.git'));
  dir = join(repo, 'infra', 'docket');
  await writeFiles(dir, { 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': NDA });
});

const annotationLines = (text: string): string[] => text.split('\n').filter((l) => l.startsWith('::'));

describe('plan --annotations github', () => {
  it('annotates each change at its file:line relative to the repository root', async () => {
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--annotations', 'github']);
    expect(plan.code).toBe(0);
    expect(plan.stderr).toBe('');
    // After the normal output, on stdout.
    expect(plan.stdout.indexOf('Plan: 3 to create')).toBeLessThan(plan.stdout.indexOf('::notice'));
    expect(annotationLines(plan.stdout)).toEqual([
      '::notice file=infra/docket/playbooks/nda.yaml,line=1,title=docket create::create playbook "Inbound NDA"',
      '::notice file=infra/docket/playbooks/nda.yaml,line=11,title=docket create::create rule "Inbound NDA/Residuals"',
      '::notice file=infra/docket/playbooks/nda.yaml,line=5,title=docket create::create rule "Inbound NDA/Term"',
    ]);
  });

  it('warns at the `rules:` of its playbook for a permanently deleted rule, and at a located configuration warning', async () => {
    expect((await runCli(['apply', '-C', dir, '--emulator', '--auto-approve'])).code).toBe(0);
    // Drop Residuals (a permanent delete), change Term's description, and leave a lock file with a
    // merge conflict whose sides agree (a located warning).
    const edited = NDA.replace(/ {2}- name: Residuals\n.*\n/, '').replace('How long the agreement lasts', 'How long it lasts');
    const side = (key: string) => `        "${key}": { "id": "${key === 'attachment:A' ? 'a' : 'b'}${'0'.repeat(7)}-0000-4000-8000-${'0'.repeat(12)}", "file": "${key}.pdf", "sha256": "${'a'.repeat(64)}" }`;
    const lock = ['{', '  "version": 2,', '  "targets": {', '    "other": {', '      "files": {', '<<<<<<< ours', side('attachment:A'), '=======', side('attachment:B'), '>>>>>>> theirs', '      }', '    }', '  }', '}', ''].join('\n');
    await writeFiles(dir, { 'playbooks/nda.yaml': edited, 'docket.lock.json': lock });

    const plan = await runCli(['plan', '-C', dir, '--emulator', '--annotations', 'github', '--detailed-exitcode']);
    expect(plan.code).toBe(2);
    expect(annotationLines(plan.stdout)).toEqual([
      '::notice file=infra/docket/playbooks/nda.yaml,line=6,title=docket update::update rule "Inbound NDA/Term"',
      '::warning file=infra/docket/playbooks/nda.yaml,line=4,title=docket delete::delete rule "Inbound NDA/Residuals" (permanent: cannot be undone)',
      '::warning file=infra/docket/docket.lock.json,line=6,col=1,title=docket lock-merge-conflict::docket.lock.json has a merge conflict; docket reads both sides, which do not contradict, and writes the file whole on the next apply',
    ]);
    // The same warning in a run an error stops is annotated the same way (probe TD-2).
    await writeFiles(dir, { 'playbooks/nda.yaml': edited.replace('How long it lasts', '${var.missing}') });
    const stopped = await runCli(['plan', '-C', dir, '--emulator', '--annotations', 'github']);
    expect(stopped.code).toBe(1);
    expect(annotationLines(stopped.stderr)).toContain('::warning file=infra/docket/docket.lock.json,line=6,col=1,title=docket lock-merge-conflict::docket.lock.json has a merge conflict; docket reads both sides, which do not contradict, and writes the file whole on the next apply');
    await writeFiles(dir, { 'playbooks/nda.yaml': edited });
  });

  it('annotates the problems that stop a plan or an apply (errors found only against the services too), on stderr', async () => {
    const broken = await makeDir({});
    await mkdir(join(broken, '.git'));
    const at = join(broken, 'config');
    await writeFiles(at, { 'docket.yaml': DOCKET_YAML, 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    actions: ACCEPT\n    reviewer: bobb@acme.example\n' });
    for (const command of ['plan', 'apply']) {
      const run = await runCli([command, '-C', at, '--emulator', '--auto-approve', '--annotations', 'github'].filter((a) => command === 'apply' || a !== '--auto-approve'));
      expect(run.code).toBe(1);
      expect(annotationLines(run.stderr)).toEqual([expect.stringMatching(/^::error file=config\/playbooks\/nda\.yaml,line=6,col=15,title=docket unknown-reference::`reviewer` names "bobb@acme\.example"/)]);
    }
    await writeFiles(at, { 'playbooks/nda.yaml': 'kind: Playbook\nname: NDA\nrules:\n  - name: Term\n    reviewr: x\n' });
    const invalid = await runCli(['plan', '-C', at, '--emulator', '--annotations', 'github']);
    expect(annotationLines(invalid.stderr)).toEqual(expect.arrayContaining([expect.stringMatching(/^::error file=config\/playbooks\/nda\.yaml,line=5,col=\d+,title=docket unknown-key::/)]));
  });

  it('keeps stdout a document with -o json and -o markdown: annotations go to stderr', async () => {
    const json = await runCli(['plan', '-C', dir, '--emulator', '-o', 'json', '--annotations', 'github']);
    expect(json.code).toBe(0);
    expect(() => JSON.parse(json.stdout) as unknown).not.toThrow();
    expect(json.stdout).not.toContain('::');
    expect(annotationLines(json.stderr)).toHaveLength(3);

    const markdown = await runCli(['plan', '-C', dir, '--emulator', '-o', 'markdown', '--annotations', 'github']);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain('### docket plan');
    expect(annotationLines(markdown.stdout)).toEqual([]);
    expect(annotationLines(markdown.stderr)).toHaveLength(3);
  });

  it('is accepted by apply, which annotates the plan it makes before applying it', async () => {
    const apply = await runCli(['apply', '-C', dir, '--emulator', '--auto-approve', '--annotations', 'github']);
    expect(apply.code).toBe(0);
    const lines = annotationLines(apply.stdout);
    expect(lines[0]).toBe('::notice file=infra/docket/playbooks/nda.yaml,line=6,title=docket update::update rule "Inbound NDA/Term"');
    expect(apply.stdout.indexOf('::notice')).toBeLessThan(apply.stdout.indexOf('Apply complete:'));
  });

  it('annotates each change the service refused as an error at its line, after the apply report (probe QL-3)', async () => {
    const t = await startTestEmulator();
    try {
      expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env })).code).toBe(0);
      await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('How long the agreement lasts', 'How long it runs') });
      t.emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 422, count: 1, body: { errors: [{ field: 'description', message: 'is too long' }] } });
      const apply = await runCli(['apply', '-C', dir, '--auto-approve', '--annotations', 'github'], { env: t.env });
      expect(apply.code).toBe(1);
      const failed = annotationLines(apply.stdout).filter((l) => l.startsWith('::error'));
      expect(failed).toEqual([expect.stringMatching(/^::error file=infra\/docket\/playbooks\/nda\.yaml,line=6,title=docket update failed::update rule "Inbound NDA\/Term": .*HTTP 422.*is too long/)]);
      expect(apply.stdout.indexOf('::error')).toBeGreaterThan(apply.stdout.indexOf('✗ update rule'));
      // Applied again without the fault, it converges.
      expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env })).code).toBe(0);
      expect((await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env: t.env })).code).toBe(0);
    } finally {
      await writeFiles(dir, { 'playbooks/nda.yaml': NDA });
      await t.emulator.close();
    }
  });

  it('annotates a saved plan\'s failed change where the files declare it now, after lines moved or the file was renamed (probe YC-1)', async () => {
    const t = await startTestEmulator();
    try {
      expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env })).code).toBe(0);
      await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('How long the agreement lasts', 'How long it runs') });
      const saved = join(dir, 'plan.json');
      expect((await runCli(['plan', '-C', dir, '--out', saved], { env: t.env })).code).toBe(0);
      // Three comment lines on top, and the file renamed: the plan stays good.
      await rm(join(dir, 'playbooks/nda.yaml'));
      await writeFiles(dir, { 'playbooks/inbound.yaml': `# a\n# b\n# c\n${NDA.replace('How long the agreement lasts', 'How long it runs')}` });
      t.emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 422, count: 1 });
      const apply = await runCli(['apply', '-C', dir, saved, '--annotations', 'github'], { env: t.env });
      expect(apply.code).toBe(1);
      expect(annotationLines(apply.stdout).filter((l) => l.startsWith('::error'))).toEqual([expect.stringMatching(/^::error file=infra\/docket\/playbooks\/inbound\.yaml,line=9,title=docket update failed::update rule "Inbound NDA\/Term"/)]);
      expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env })).code).toBe(0);
      expect((await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env: t.env })).code).toBe(0);
    } finally {
      await rm(join(dir, 'playbooks/inbound.yaml'), { force: true });
      await rm(join(dir, 'plan.json'), { force: true });
      await writeFiles(dir, { 'playbooks/nda.yaml': NDA });
      await t.emulator.close();
    }
  });

  it('hides a URL\'s password and query a service\'s refusal quotes, in the apply report as in its annotation (probe XF-1)', async () => {
    const t = await startTestEmulator();
    try {
      expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env })).code).toBe(0);
      await writeFiles(dir, { 'playbooks/nda.yaml': NDA.replace('How long the agreement lasts', 'How long it runs') });
      const refusal = { errors: [{ field: 'description', message: 'bad https://u:PW1@x.example/cb?sig=TOKEN1' }] };
      for (const output of ['text', 'json']) {
        t.emulator.faults.add({ method: 'PATCH', path_pattern: '/playbook_rules/', status: 422, count: 1, body: refusal });
        const apply = await runCli(['apply', '-C', dir, '--auto-approve', '-o', output, '--annotations', 'github'], { env: t.env });
        expect(apply.code).toBe(1);
        const said = apply.stdout + apply.stderr;
        expect(said).toContain('bad https://***@x.example/cb?…)');
        expect(said).not.toMatch(/PW1|TOKEN1/);
      }
      expect((await runCli(['apply', '-C', dir, '--auto-approve'], { env: t.env })).code).toBe(0);
      expect((await runCli(['plan', '-C', dir, '--detailed-exitcode'], { env: t.env })).code).toBe(0);
    } finally {
      await writeFiles(dir, { 'playbooks/nda.yaml': NDA });
      await t.emulator.close();
    }
  });

  it('never lets a service’s text start a workflow command: an organization name with line breaks stays on the error’s line, escaped', async () => {
    const injected = 'Beta\n::error file=x.yaml::injected\n::stop-commands::tok';
    const t = await startTestEmulator({ seed: (s) => void s.organizations.push({ ...s.organizations[0]!, id: '22222222-2222-4222-8222-222222222222', name: injected, users: [], playbooks: [] }) });
    try {
      const { DOCKET_ORGANIZATION_ID: _chosen, ...env } = t.env;
      const plan = await runCli(['plan', '-C', dir, '--annotations', 'github'], { env });
      expect(plan.code).toBe(1);
      expect(plan.stderr).toContain('the review API key sees 2 organizations');
      expect(plan.stderr).toContain('("Beta\\n::error file=x.yaml::injected\\n::stop-commands::tok")');
      expect(annotationLines(plan.stderr)).toEqual([]);
    } finally {
      await t.emulator.close();
    }
  });

  it('rejects an unknown annotation format', async () => {
    const result = await runCli(['plan', '-C', dir, '--emulator', '--annotations', 'gitlab']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('github');
  });
});

describe('text from files or the app in output', () => {
  it('never becomes a workflow command: only the annotations docket means are', async () => {
    const hostile = await makeDir({
      'docket.yaml': DOCKET_YAML,
      'playbooks/p.yaml': 'kind: Playbook\nname: P\ndescription: "##[error]from a description"\nrules:\n  - name: R\n    actions: |\n      one\n      ::error::from an action\n      two\n',
    });
    expect((await runCli(['apply', '-C', hostile, '--emulator', '--auto-approve'])).code).toBe(0);
    // An unchanged line of the actions is shown as context; the description as a field's value.
    await writeFiles(hostile, { 'playbooks/p.yaml': 'kind: Playbook\nname: P\ndescription: "##[warning]changed"\nrules:\n  - name: R\n    actions: |\n      one\n      ::error::from an action\n      three\n' });
    const commands = (text: string): string[] => text.split('\n').filter((l) => /^\s*::/u.test(l) || l.includes('##['));
    const plan = await runCli(['plan', '-C', hostile, '--emulator', '--annotations', 'github']);
    expect(plan.code).toBe(0);
    expect(plan.stdout).toContain(': :error::from an action');
    expect(plan.stdout).toContain('"# #[warning]changed"');
    expect(commands(plan.stdout + plan.stderr)).toEqual([
      expect.stringMatching(/^::notice file=\S*playbooks\/p\.yaml,line=3,title=docket update::update playbook "P"$/),
      expect.stringMatching(/^::notice file=\S*playbooks\/p\.yaml,line=6,title=docket update::update rule "P\/R"$/),
    ]);
    // In JSON on stdout too, with the annotations on stderr as they are; its values as they are
    // (`#\u0023[` reads as `##[`), so the copy printed beside a saved plan applies as it (probe HJ).
    const saved = join(await makeDir({}), 'plan.json');
    const json = await runCli(['plan', '-C', hostile, '--emulator', '--annotations', 'github', '-o', 'json', '--out', saved]);
    expect(json.code).toBe(0);
    expect(commands(json.stdout)).toEqual([]);
    expect(JSON.stringify(JSON.parse(json.stdout))).toContain('"##[warning]changed"');
    expect(commands(json.stderr)).toHaveLength(2);
    const copy = `${saved}.copy.json`;
    await writeFile(copy, json.stdout);
    const shown = await runCli(['show', saved, '-o', 'json']);
    expect(JSON.parse(shown.stdout)).toEqual(JSON.parse(json.stdout));
    expect((await runCli(['apply', '-C', hostile, '--emulator', copy])).code).toBe(0);
    const again = await runCli(['plan', '-C', hostile, '--emulator', '--detailed-exitcode']);
    expect([again.code, again.stdout]).toEqual([0, expect.stringContaining('No changes.')]);
  });

  it('nor does a key hidden beside `##` (probe EP): redacted first, then broken up', async () => {
    const key = 'sk_live_S3cretKeyValue12345';
    const plan = await runCli(['plan', '-C', dir, '--emulator', '--target', `playbook/x ##${key}`], { env: { DOCKET_API_KEY: key } });
    expect(plan.code).toBe(1);
    expect(plan.stderr).toContain('x # #[redacted]');
    expect(plan.stdout + plan.stderr).not.toMatch(/##\[|S3cret/);
  });
});

describe('repoPathPrefix', () => {
  it('is the path from the nearest .git (folder or file) to the configuration dir', async () => {
    expect(findGitRoot(join(dir, 'playbooks'))).toBe(repo);
    expect(repoPathPrefix(dir, '/somewhere/else')).toBe('infra/docket');
    expect(repoPathPrefix('infra/docket', repo)).toBe('infra/docket');
    expect(repoPathPrefix('.', dir)).toBe('infra/docket');
    // A worktree or submodule has a .git file; the nearest one wins.
    await writeFile(join(repo, 'infra', '.git'), 'gitdir: ../.git/worktrees/infra\n');
    expect(repoPathPrefix(dir, repo)).toBe('docket');
    await rm(join(repo, 'infra', '.git'));
  });

  it('follows a symbolic link to the configuration into its repository (probe OV-2)', async () => {
    const outside = await makeDir({});
    await symlink(dir, join(outside, 'cfglink'));
    expect(repoPathPrefix('cfglink', outside)).toBe('infra/docket');
  });

  it('falls back to the current directory outside a repository', async () => {
    const outside = await makeDir({ 'cfg/docket.yaml': DOCKET_YAML });
    if (findGitRoot(outside) !== undefined) return; // the temp dir sits inside a repository on this machine
    expect(repoPathPrefix(join(outside, 'cfg'), outside)).toBe('cfg');
    expect(repoPathPrefix('.', join(outside, 'cfg'))).toBe('');
  });
});
