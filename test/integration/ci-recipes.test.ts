/**
 * examples/ci/github-actions.yml must not drift from the CLI: its jobs, concurrency group and
 * sticky-comment marker are checked, every `docket` command in it is parsed by the real commander
 * definitions, and the comment script runs against a fake GitHub API.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { appendFile, chmod, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Command } from 'commander';
import { parse } from 'yaml';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { applyCommand } from '../../src/cli/commands/apply.js';
import { driftCommand } from '../../src/cli/commands/drift.js';
import { pullCommand } from '../../src/cli/commands/pull.js';
import { initCommand } from '../../src/cli/commands/init.js';
import { planCommand } from '../../src/cli/commands/plan.js';
import { testCommand } from '../../src/cli/commands/test.js';
import { validateCommand } from '../../src/cli/commands/validate.js';
import type { Io } from '../../src/cli/io.js';
import type { DriftItem } from '../../src/engine/drift.js';
import { renderDriftMarkdown } from '../../src/render/drift.js';
import { renderPullMarkdown } from '../../src/render/pull.js';
import type { PullResult } from '../../src/pull/plan.js';
import { plan as planFixture } from '../unit/render/fixtures.js';
import { runCli } from '../helpers/cli.js';
import { makeDir, removeMadeDirs, writeFiles } from '../helpers/tmpdir.js';
import { startTestEmulator } from '../helpers/emulator.js';
import { applyOk, cliWith, expectNoChanges } from '../helpers/scenario.js';

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  env?: Record<string, string>;
  with?: Record<string, string | number>;
}

interface Job {
  if?: string;
  concurrency?: { group: string; 'cancel-in-progress': boolean };
  permissions?: Record<string, string>;
  steps: Step[];
}

interface Workflow {
  on: { pull_request?: unknown; push?: { branches: string[] }; schedule?: { cron: string }[] };
  env?: Record<string, string>;
  jobs: Record<string, Job>;
}

afterAll(removeMadeDirs);

const RECIPE = join(import.meta.dirname, '../../examples/ci/github-actions.yml');
const workflow = parse(await readFile(RECIPE, 'utf8')) as Workflow;
const MARKER = '<!-- docket-plan -->';

const FACTORIES: Record<string, (io: Io, setExit: (code: number) => void) => Command> = {
  validate: validateCommand,
  plan: planCommand,
  apply: applyCommand,
  drift: driftCommand,
  pull: pullCommand,
  init: initCommand,
  test: testCommand,
};

/** Splits a `run:` script into simple commands (word lists), dropping redirections and comments. */
function shellCommands(script: string): string[][] {
  const commands: string[][] = [];
  for (const line of script.replace(/\\\n/g, ' ').split('\n')) {
    let words: string[] = [];
    let word: string | undefined;
    let skipNext = false;
    const endWord = () => {
      if (word === undefined) return;
      if (skipNext) skipNext = false;
      else words.push(word);
      word = undefined;
    };
    const endCommand = () => {
      endWord();
      if (words[0] === 'exec') words.shift();
      if (words.length > 0) commands.push(words);
      words = [];
    };
    for (let i = 0; i < line.length; i++) {
      const c = line[i]!;
      if (c === "'" || c === '"') {
        const close = line.indexOf(c, i + 1);
        word = (word ?? '') + line.slice(i + 1, close);
        i = close;
      } else if (c === ' ' || c === '\t') endWord();
      else if (c === '#' && word === undefined) break;
      else if (c === '|' || c === '&' || c === ';') {
        endCommand();
        if (line[i + 1] === c) i++;
      } else if (c === '>' || c === '<') {
        if (word !== undefined && /^\d$/.test(word)) word = undefined; // `2>`
        endWord();
        if (line[i + 1] === '>' || line[i + 1] === '&') i++;
        skipNext = true; // the target of the redirection
      } else word = (word ?? '') + c;
    }
    endCommand();
  }
  return commands;
}

function docketCommands(): { job: string; step: string; argv: string[] }[] {
  return Object.entries(workflow.jobs).flatMap(([job, j]) =>
    j.steps.flatMap((s) => (s.run ? shellCommands(s.run).filter((w) => w[0] === 'docket') : []).map((w) => ({ job, step: s.name ?? '', argv: w.slice(1) }))),
  );
}

/** Parses argv with the real option definitions; the action is replaced so nothing runs. */
async function parseWithCli(argv: string[]): Promise<void> {
  const [name, ...args] = argv;
  const factory = FACTORIES[name ?? ''];
  if (!factory) throw new Error(`unknown docket command: ${name}`);
  const io: Io = { stdout: () => {}, stderr: () => {}, isTTY: false, canPrompt: false, prompt: async () => '', env: {}, cwd: process.cwd() };
  const command = factory(io, () => {})
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} })
    .action(() => {});
  await command.parseAsync(args, { from: 'user' });
}

function stepRunning(job: string, pattern: RegExp): Step {
  const step = workflow.jobs[job]!.steps.find((s) => s.run && pattern.test(s.run));
  expect(step, `${job}: a step matching ${pattern}`).toBeDefined();
  return step!;
}

describe('examples/ci/github-actions.yml', () => {
  it('runs plan and test on pull requests, apply on pushes to main, and a daily drift report or pull', () => {
    expect(Object.keys(workflow.jobs).sort()).toEqual(['apply', 'drift', 'plan', 'pull', 'test', 'test-fork', 'validate-fork']);
    expect(workflow.on.pull_request !== undefined).toBe(true);
    expect(workflow.on.push?.branches).toEqual(['main']);
    expect(workflow.on.schedule?.[0]?.cron).toMatch(/^\d+ \d+ \* \* \*$/);
    expect(workflow.jobs.plan!.if).toContain("github.event_name == 'pull_request'");
    expect(workflow.jobs.apply!.if).toContain("github.event_name == 'push'");
    expect(workflow.jobs.apply!.if).toContain('refs/heads/main');
    expect(workflow.jobs.drift!.if).toContain("github.event_name == 'schedule'");
    // One or the other, chosen by a repository variable: report (the default) or pull.
    expect(workflow.jobs.drift!.if).toContain("vars.DOCKET_DRIFT != 'pull'");
    expect(workflow.jobs.pull!.if).toContain("github.event_name == 'schedule'");
    expect(workflow.jobs.pull!.if).toContain("vars.DOCKET_DRIFT == 'pull'");
  });

  it('never runs two applies at once, never cancels one, and never reads drift during one', () => {
    for (const name of ['apply', 'drift', 'pull']) expect(workflow.jobs[name]!.concurrency).toEqual({ group: 'docket-apply', 'cancel-in-progress': false });
    for (const [name, job] of Object.entries(workflow.jobs)) {
      if (!['apply', 'drift', 'pull'].includes(name)) expect(job.concurrency?.group).not.toBe('docket-apply');
    }
    // GitHub cancels a job at its timeout: later than docket's own 10-minute apply budget.
    expect((workflow.jobs.apply as Job & { 'timeout-minutes'?: number })['timeout-minutes']).toBeGreaterThan(10);
  });

  it('checks pull requests from forks offline only: validate, with no secrets', () => {
    const fork = workflow.jobs['validate-fork']!;
    expect(fork.if).toContain('github.event.pull_request.head.repo.full_name != github.repository');
    expect(workflow.jobs.plan!.if).toContain('github.event.pull_request.head.repo.full_name == github.repository');
    expect(JSON.stringify(fork)).not.toContain('secrets.');
    expect(fork.steps.map((s) => s.run ?? '').join('\n')).toMatch(/docket validate/);
  });

  it('commits docket.lock.json back after apply, also when apply failed', () => {
    const steps = workflow.jobs.apply!.steps;
    const apply = steps.findIndex((s) => /docket apply/.test(s.run ?? ''));
    const commit = steps.findIndex((s) => s.name === 'Commit docket.lock.json');
    expect(commit).toBeGreaterThan(apply);
    expect(steps[commit]!.if).toBe("always() && steps.plan.outcome != 'skipped'");
    expect(workflow.jobs.apply!.permissions).toMatchObject({ contents: 'write' });
  });

  it('tests pull requests against the base branch with a sticky matrix comment, and forks from the cache', () => {
    const test = stepRunning('test', /docket test/);
    expect(test.run).toMatch(/docket test -C "\$DOCKET_DIR" -o markdown --compare-to "origin\/\$BASE_REF" --annotations github --junit docket-test\.xml > test\.md/);
    expect(workflow.jobs.test!.steps.find((s) => s.uses?.startsWith('actions/checkout@'))?.with?.['fetch-depth']).toBe(0);
    const comment = workflow.jobs.test!.steps.find((s) => s.uses?.startsWith('actions/github-script@'))!;
    expect(String(comment.with?.script)).toContain('<!-- docket-test -->');
    // Restored and saved apart, saved also when a test failed: actions/cache saves only on success (probe QQ-2).
    expect(workflow.jobs.test!.steps.some((s) => s.uses?.startsWith('actions/cache/restore@'))).toBe(true);
    const save = workflow.jobs.test!.steps.find((s) => s.uses?.startsWith('actions/cache/save@'));
    expect(save?.if).toBe('${{ !cancelled() }}');
    expect(workflow.jobs.test!.steps.indexOf(save!)).toBeGreaterThan(workflow.jobs.test!.steps.indexOf(test));
    const fork = workflow.jobs['test-fork']!;
    expect(JSON.stringify(fork)).not.toContain('secrets.');
    expect(stepRunning('test-fork', /docket test/).run).toContain('--replay-only');
  });

  it('installs with npm ci on Node 20 in every job', () => {
    for (const job of Object.values(workflow.jobs)) {
      expect(job.steps.find((s) => s.uses?.startsWith('actions/setup-node@'))?.with?.['node-version']).toBe(20);
      expect(job.steps.some((s) => s.run?.includes('npm ci'))).toBe(true);
    }
  });

  it('plans as markdown with annotations, treats exit code 2 as success, and uploads plan.json', () => {
    const plan = stepRunning('plan', /docket plan/);
    expect(plan.run).toMatch(/docket plan .*--out plan\.json -o markdown --detailed-exitcode --annotations github > plan\.md/);
    expect(plan.run).toMatch(/"\$code" -eq 2 \]; then .*exit 0/);
    const upload = workflow.jobs.plan!.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'));
    expect(String(upload?.with?.path)).toContain('plan.json');
    // Also after a plan the guard failed the check for (second read SR86-4).
    expect(upload?.if).toBe(`\${{ !cancelled() && contains(fromJSON('["0", "2"]'), steps.plan.outputs.exitcode) }}`);
    // No validate step before it: its failure would skip the plan, whose annotations mark each problem (probe QQ-4).
    expect(workflow.jobs.plan!.steps.some((s) => s.run?.includes('docket validate'))).toBe(false);
  });

  it('applies a plan made in the same job', () => {
    const steps = workflow.jobs.apply!.steps.map((s) => s.run ?? '');
    const plan = steps.findIndex((r) => /docket plan .*--out plan\.json/.test(r));
    const apply = steps.findIndex((r) => /docket apply .*plan\.json/.test(r));
    expect(plan).toBeGreaterThanOrEqual(0);
    expect(apply).toBeGreaterThan(plan);
  });

  it("runs apply, test and pull as the step's own process, so a cancelled job's signals reach docket (probe JC-2)", () => {
    // The runner signals the step's process only; a shell in between would swallow them.
    expect(stepRunning('apply', /docket apply/).run!.trim()).toMatch(/^exec docket apply /);
    expect(stepRunning('test', /docket test/).run!.trim()).toMatch(/^exec docket test /);
    expect(stepRunning('pull', /docket pull/).run!.trim()).toMatch(/^exec docket pull /);
  });

  it('fails the drift report on exit code 2 with a message, the report in the job summary', () => {
    const drift = stepRunning('drift', /docket drift/);
    expect(drift.run).toMatch(/docket drift .*-o markdown > "\$RUNNER_TEMP\/drift\.md"/);
    expect(drift.run).toContain('>> "$GITHUB_STEP_SUMMARY"');
    expect(drift.run).toMatch(/"\$code" -eq 2 \]; then\n\s+echo "::error[^\n]*drift[^\n]*"\n\s+exit 1/);
  });

  it('fails the drift report on changes of main never applied too, found in the report as docket writes it', async () => {
    const drift = stepRunning('drift', /docket drift/);
    const pattern = /grep -q '([^']+)' "\$RUNNER_TEMP\/drift\.md"/.exec(drift.run!)?.[1];
    expect(pattern).toBeDefined();
    expect(drift.run).toMatch(/echo "::error[^\n]*never applied[^\n]*"\n\s+exit 1/);
    const item: DriftItem = { kind: 'playbook', key: 'NDA', name: 'NDA', direction: 'changed-in-files', fields: [{ field: 'description', direction: 'files' }] };
    const dir = await makeDir({});
    const found = (pending: DriftItem[], ignored: DriftItem[] = []): number | null => {
      const file = join(dir, `drift-${pending.length}.md`);
      writeFileSync(file, renderDriftMarkdown(planFixture([]), { drift: [], ignored, pending }));
      return spawnSync('grep', ['-q', pattern!, file]).status;
    };
    expect([found([item]), found([item, { ...item, key: 'MSA', name: 'MSA' }]), found([])]).toEqual([0, 0, 1]);
    // Not an object whose name holds those words (probe AG-4).
    const named = 'pending changes of the files (not drift)';
    expect(found([], [{ kind: 'rule', key: `NDA/${named}`, name: named, direction: 'only-live', fields: [], policy: 'ignore' }])).toBe(1);
    // A template (no removal over the API) or a playbook with prune off, removed from the files:
    // left live, and no apply settles it, so the job must not fail day after day for it.
    const dropped: DriftItem = { kind: 'template', key: 'Mutual NDA', name: 'Mutual NDA', direction: 'removed-in-files', fields: [] };
    expect([found([dropped]), found([dropped, { ...dropped, direction: 'removed-in-files', action: 'archive', kind: 'playbook' }])]).toEqual([1, 0]);
  });

  it('pulls drift into one pull request, with the pull report as its body', () => {
    const steps = workflow.jobs.pull!.steps;
    const pull = steps.findIndex((s) => /docket pull .*-o markdown > "\$RUNNER_TEMP\/pull\.md"/.test(s.run ?? ''));
    const pr = steps.findIndex((s) => s.name === 'Open or update the pull request');
    expect(pull).toBeGreaterThanOrEqual(0);
    expect(pr).toBeGreaterThan(pull);
    expect(workflow.jobs.pull!.permissions).toEqual({ contents: 'write', 'pull-requests': 'write' });
  });

  it('fails the pull job, the report in the job summary, when live changes cannot be written and nothing else changed', async () => {
    const script = workflow.jobs.pull!.steps.find((s) => s.name === 'Open or update the pull request')!.run!;
    const { work } = await pushedRepository({ 'config/docket.yaml': 'version: 1\n' }, true);
    const entry = { kind: 'rule' as const, key: 'NDA/Term', name: 'Term', direction: 'changed-live' as const, fields: ['internal_notes'] };
    const run = async (result: PullResult): Promise<{ code: number; out: string; summary: string }> => {
      const tmp = await makeDir({ 'pull.md': renderPullMarkdown(planFixture([]), result, { dryRun: false }), 'summary.md': '' });
      const done = spawnSync('bash', ['-e', '-c', script], { cwd: work, env: { ...QUIET_GIT, PATH: process.env.PATH ?? '', HOME: work, DOCKET_DIR: 'config', RUNNER_TEMP: tmp, GITHUB_STEP_SUMMARY: join(tmp, 'summary.md') }, encoding: 'utf8' });
      return { code: done.status ?? -1, out: `${done.stdout}${done.stderr}`, summary: await readFile(join(tmp, 'summary.md'), 'utf8') };
    };
    const unwritable = await run({ pulled: [], notPulled: [{ ...entry, reason: 'the value is written as ${var.legal_team}' }], notes: [], files: [], sync: new Map() });
    expect(unwritable.code).toBe(1);
    expect(unwritable.out).toContain('::error title=docket pull::');
    expect(unwritable.summary).toContain('Not pulled');
    // What a drift: ignore policy leaves alone is not drift (docket drift does not count it).
    const ignored = await run({ pulled: [], notPulled: [{ ...entry, reason: 'drift: ignore leaves it as it is on both sides' }], notes: [], files: [], sync: new Map() });
    expect(ignored.code).toBe(0);
    const mixed = await run({ pulled: [], notPulled: [{ ...entry, reason: 'drift: ignore leaves it as it is on both sides' }, { ...entry, key: 'NDA/Law', name: 'Law', reason: 'the value is written as ${var.legal_team}' }], notes: [], files: [], sync: new Map() });
    expect(mixed.code).toBe(1);
    // A name holding those words is no policy's (probe ZL-2).
    const named = await run({ pulled: [], notPulled: [{ ...entry, key: 'NDA/Escalation (drift: ignore)', name: 'Escalation (drift: ignore)', reason: 'the value is written as ${var.legal_team}' }], notes: [], files: [], sync: new Map() });
    expect(named.code).toBe(1);
    const nothing = await run({ pulled: [], notPulled: [], notes: [], files: [], sync: new Map() });
    expect([nothing.code, nothing.out.trim()]).toEqual([0, 'Nothing to pull: main holds every live change']);
  });

  it('gives the API keys only to the steps that call the services', () => {
    expect(JSON.stringify(workflow.env ?? {})).not.toContain('secrets.');
    for (const { job, step } of docketCommands()) {
      const s = workflow.jobs[job]!.steps.find((x) => x.name === step)!;
      if (s.run?.includes('docket validate') || s.run?.includes('--replay-only')) expect(s.env, step).toBeUndefined();
      else {
        expect(s.env?.DOCKET_REVIEW_API_KEY, `${job}/${step}`).toBe('${{ secrets.DOCKET_REVIEW_API_KEY }}');
        // One secret for both, as the header offers: an unset secret maps to "", which gives way to it (probe GP).
        expect(s.env?.DOCKET_API_KEY, `${job}/${step}`).toBe('${{ secrets.DOCKET_API_KEY }}');
      }
    }
    for (const job of Object.values(workflow.jobs)) {
      const install = job.steps.find((s) => s.run?.includes('npm ci'))!;
      expect(install.env).toBeUndefined();
    }
  });

  it('uses only commands and flags the CLI accepts', async () => {
    const commands = docketCommands();
    expect(commands.map((c) => `${c.job}:${c.argv[0]}`)).toEqual(['validate-fork:validate', 'test-fork:test', 'plan:plan', 'test:test', 'apply:plan', 'apply:apply', 'drift:drift', 'pull:pull']);
    for (const { argv } of commands) {
      await expect(parseWithCli(argv), argv.join(' ')).resolves.toBeUndefined();
      // And the program registers that command.
      const help = await runCli([argv[0]!, '--help']);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(new RegExp(`^Usage: docket ${argv[0]} `));
    }
  });

  it('catches a flag the CLI does not have, and a bad choice', async () => {
    await expect(parseWithCli(['plan', '--detailed-exit-code'])).rejects.toThrow(/unknown option/);
    await expect(parseWithCli(['plan', '--annotations', 'gitlab'])).rejects.toThrow(/Allowed choices/);
    await expect(parseWithCli(['validate', 'extra'])).rejects.toThrow(/too many arguments/);
    expect(shellCommands('code=0\ndocket plan -C "$DIR" -o markdown > plan.md || code=$?  # why')).toEqual([
      ['code=0'],
      ['docket', 'plan', '-C', '$DIR', '-o', 'markdown'],
      ['code=$?'],
    ]);
  });
});

describe('the sticky pull-request comment', () => {
  const script = workflow.jobs.plan!.steps.find((s) => s.uses?.startsWith('actions/github-script@'))!.with!.script as string;
  const saved = process.env.PLAN_EXIT;
  afterEach(() => {
    if (saved === undefined) delete process.env.PLAN_EXIT;
    else process.env.PLAN_EXIT = saved;
  });

  interface Comment {
    id: number;
    body: string;
    user: { type: string };
  }

  /** Runs the script as github-script does (an async function body) against an in-memory pull request. */
  /** `planExit`: the plan step's `exitcode` output, empty when the step failed before docket ran. */
  async function runScript(comments: Comment[], planMd: string, planExit: string): Promise<void> {
    process.env.PLAN_EXIT = planExit;
    const issues = {
      listComments: () => comments,
      createComment: ({ body }: { body: string }) => comments.push({ id: comments.length + 1, body, user: { type: 'Bot' } }),
      updateComment: ({ comment_id, body }: { comment_id: number; body: string }) => {
        comments.find((c) => c.id === comment_id)!.body = body;
      },
    };
    const github = { rest: { issues }, paginate: async (fn: () => Comment[]) => fn() };
    const context = {
      repo: { owner: 'acme', repo: 'legal-config' },
      issue: { number: 7 },
      serverUrl: 'https://github.com',
      runId: 42,
      payload: { pull_request: { head: { sha: '0123456789abcdef' } } },
    };
    const fakeRequire = (id: string) => {
      if (id !== 'node:fs' && id !== 'fs') throw new Error(`unexpected require ${id}`);
      return { readFileSync: (file: string) => (file === 'plan.md' ? planMd : '') };
    };
    const AsyncFunction = Object.getPrototypeOf(async () => {}).constructor as new (...args: string[]) => (...a: unknown[]) => Promise<void>;
    await new AsyncFunction('github', 'context', 'require', script)(github, context, fakeRequire);
  }

  it('creates one comment with the hidden marker, then updates it in place', async () => {
    expect(script).toContain(MARKER);
    const comments: Comment[] = [{ id: 1, body: `A reviewer quoting ${MARKER}`, user: { type: 'User' } }];
    await runScript(comments, '### docket plan\n\nfirst\n', '2');
    expect(comments).toHaveLength(2);
    expect(comments[1]!.body).toBe(`${MARKER}\n### docket plan\n\nfirst\n`);

    await runScript(comments, '### docket plan\n\nsecond\n', '0');
    expect(comments).toHaveLength(2);
    expect(comments[1]!.body).toContain('second');
    expect(comments[0]!.body).toBe(`A reviewer quoting ${MARKER}`);

    for (const failed of ['1', '']) {
      await runScript(comments, '', failed);
      expect(comments).toHaveLength(2);
      expect(comments[1]!.body).toContain('**The plan failed** for 0123456');
      expect(comments[1]!.body).toContain('https://github.com/acme/legal-config/actions/runs/42');
    }
  });
});

describe('the plan check', () => {
  it('fails, with the plan still commented, when apply will refuse the plan (the mass-delete guard); passes a plan the guard lets through (probe QQ-5)', async () => {
    const step = stepRunning('plan', /docket plan/);
    const own = await startTestEmulator();
    try {
      const run = cliWith(() => own.env);
      const playbook = (i: number): [string, string] => [`playbooks/p${i}.yaml`, `kind: Playbook\nname: Playbook ${i}\nrules:\n  - name: Rule\n    actions: ACCEPT\n`];
      const dir = await makeDir({ 'docket.yaml': 'version: 1\nprune:\n  playbooks: true\n', ...Object.fromEntries(Array.from({ length: 6 }, (_, i) => playbook(i))) });
      await applyOk(run, dir);
      /** The plan step run as the runner would, with a `docket` that gives what the real plan of `retired` playbooks gave. */
      const planStep = async (retired: number): Promise<{ code: number; out: string; exitcode: string; planMd: string }> => {
        await writeFiles(dir, Object.fromEntries(Array.from({ length: 6 }, (_, i) => (i > 0 && i <= retired ? [`playbooks/p${i}.yaml`, '# retired\n'] : playbook(i)))));
        const made = await makeDir({ 'output.txt': '' });
        const real = await run('plan', '-C', dir, '--out', join(made, 'real-plan.json'), '-o', 'markdown', '--detailed-exitcode');
        await writeFiles(made, { 'real-plan.md': real.stdout, 'bin/docket': `#!/bin/sh\ncp "${made}/real-plan.json" plan.json\ncat "${made}/real-plan.md"\nexit ${real.code}\n` });
        await chmod(join(made, 'bin/docket'), 0o755);
        const done = spawnSync('bash', ['-e', '-c', step.run!], { cwd: made, env: { PATH: `${join(made, 'bin')}:${process.env.PATH ?? ''}`, HOME: made, DOCKET_DIR: dir, GITHUB_OUTPUT: join(made, 'output.txt') }, encoding: 'utf8' });
        return { code: done.status ?? -1, out: `${done.stdout}${done.stderr}`, exitcode: await readFile(join(made, 'output.txt'), 'utf8'), planMd: await readFile(join(made, 'plan.md'), 'utf8') };
      };
      const guarded = await planStep(5);
      expect(guarded.planMd).toContain('5 of 6 live playbook objects (83.3%)');
      expect([guarded.code, guarded.exitcode]).toEqual([1, 'exitcode=2\n']);
      expect(guarded.out).toContain('::error title=docket plan::apply will refuse this plan');
      const allowed = await planStep(1);
      expect(allowed.planMd).toContain('**archive** playbook `Playbook 1`');
      expect([allowed.code, allowed.exitcode, allowed.out]).toEqual([0, 'exitcode=2\n', 'The plan has changes; they are applied when this pull request is merged.\n']);
      // The files as applied again: nothing to change.
      await planStep(0);
      await expectNoChanges(run, dir);
    } finally {
      await own.emulator.close();
    }
  });
});

/**
 * A working copy whose main (`files`, committed as "config", after an empty "init" commit when
 * asked) is pushed to a bare "origin" beside it: what a job sees after actions/checkout.
 */
/** git's own housekeeping after a commit or a push (gc, maintenance) is a process each and checks nothing here. */
const QUIET_GIT = { GIT_CONFIG_COUNT: '2', GIT_CONFIG_KEY_0: 'gc.auto', GIT_CONFIG_VALUE_0: '0', GIT_CONFIG_KEY_1: 'maintenance.auto', GIT_CONFIG_VALUE_1: 'false' };

async function pushedRepository(files: Record<string, string>, initCommit = false): Promise<{ work: string; origin: string }> {
  const root = await makeDir({});
  const origin = join(root, 'origin.git');
  const work = join(root, 'work');
  const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, stdio: 'pipe', env: { ...process.env, ...QUIET_GIT } });
  const commit = (...args: string[]) => git(work, '-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '-q', ...args);
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  // A push runs receive-pack in origin, with origin's own configuration only.
  await appendFile(join(origin, 'config'), '[receive]\n\tautogc = false\n');
  git(root, 'init', '-q', '-b', 'main', work);
  await writeFiles(work, files);
  if (initCommit) commit('--allow-empty', '-m', 'init');
  git(work, 'add', '.');
  commit('-m', 'config');
  git(work, 'remote', 'add', 'origin', origin);
  git(work, 'push', '-q', 'origin', 'main');
  return { work, origin };
}

describe('the commit-back step, run for real against a git remote', () => {
  const script = workflow.jobs.apply!.steps.find((s) => s.name === 'Commit docket.lock.json')!.run!;

  /** A clone of a bare "origin" with main and a config dir; `hook` is origin's pre-receive hook. */
  async function clone(hook?: string): Promise<{ work: string; origin: string }> {
    const { work, origin } = await pushedRepository({ 'config/docket.yaml': 'version: 1\n', 'config/docket.lock.json': '{"version":2,"targets":{}}\n' }, true);
    if (hook) {
      await writeFiles(origin, { 'hooks/pre-receive': hook });
      await chmod(join(origin, 'hooks/pre-receive'), 0o755);
    }
    // What apply did: record an upload.
    await writeFiles(work, { 'config/docket.lock.json': '{"version":2,"targets":{"emulator":{"files":{}}}}\n' });
    return { work, origin };
  }

  function run(work: string, path = process.env.PATH ?? ''): { code: number; out: string } {
    const result = spawnSync('bash', ['-e', '-c', script], {
      cwd: work,
      env: { ...QUIET_GIT, PATH: path, HOME: work, DOCKET_DIR: 'config', GITHUB_REF_NAME: 'main', GITHUB_RUN_ID: '99', GIT_TERMINAL_PROMPT: '0' },
      encoding: 'utf8',
    });
    return { code: result.status ?? -1, out: `${result.stdout}${result.stderr}` };
  }

  it('pushes a commit holding only docket.lock.json to main', async () => {
    const { work, origin } = await clone();
    const { code, out } = run(work);
    expect(out).toContain('Committed docket.lock.json to main');
    expect(code).toBe(0);
    const files = execFileSync('git', ['show', '--name-only', '--pretty=format:%s', 'main'], { cwd: origin, encoding: 'utf8' }).trim().split('\n');
    expect(files).toEqual(['docket: record uploads in docket.lock.json [skip ci]', 'config/docket.lock.json']);
  });

  it('fails loudly, with an ::error:: naming the file, when nothing can be pushed', async () => {
    const { work } = await clone('#!/bin/sh\necho "protected" >&2\nexit 1\n');
    const { code, out } = run(work);
    expect(code).toBe(1);
    expect(out).toContain('::error file=config/docket.lock.json,title=docket.lock.json not saved::');
  });

  it('opens a pull request with it when main refuses the push', async () => {
    const { work, origin } = await clone('#!/bin/sh\nwhile read old new ref; do [ "$ref" = refs/heads/main ] && exit 1; done\nexit 0\n');
    // A stand-in for the GitHub CLI that records what it was asked.
    const bin = await makeDir({ gh: '#!/bin/sh\necho "$@" > "$HOME/gh-args"\n' });
    await chmod(join(bin, 'gh'), 0o755);
    const { code, out } = run(work, `${bin}:${process.env.PATH ?? ''}`);
    expect(out).toContain('::warning file=config/docket.lock.json,title=docket.lock.json in a pull request::');
    expect(code).toBe(0);
    expect(execFileSync('git', ['branch', '--list', 'docket-lock/99'], { cwd: origin, encoding: 'utf8' })).toContain('docket-lock/99');
    expect(readFileSync(join(work, 'gh-args'), 'utf8')).toContain('pr create --head docket-lock/99 --base main');
  });

  it('does nothing when docket.lock.json did not change', async () => {
    const { work } = await clone();
    execFileSync('git', ['checkout', '-q', '--', 'config/docket.lock.json'], { cwd: work });
    expect(run(work)).toEqual({ code: 0, out: 'docket.lock.json unchanged\n' });
  });
});

describe('the pull job\'s pull request step, run for real against a git remote', () => {
  const script = workflow.jobs.pull!.steps.find((s) => s.name === 'Open or update the pull request')!.run!;

  async function setup(): Promise<{ work: string; origin: string; bin: string; temp: string }> {
    const { work, origin } = await pushedRepository({ 'config/docket.yaml': 'version: 1\n', 'config/playbooks/nda.yaml': 'kind: Playbook\nname: NDA\n' });
    // A stand-in for the GitHub CLI: no pull request yet; records what it is asked.
    // `gh pr list … --jq length` answers how many are open ($HOME/open, else none).
    const bin = await makeDir({ gh: '#!/bin/sh\necho "$@" >> "$HOME/gh-args"\n[ "$2" = list ] && { cat "$HOME/open" 2>/dev/null || echo 0; }\nexit 0\n' });
    await chmod(join(bin, 'gh'), 0o755);
    const temp = await makeDir({ 'pull.md': '### docket pull\n' });
    return { work, origin, bin, temp };
  }

  function run(work: string, bin: string, temp: string): { code: number; out: string } {
    const result = spawnSync('bash', ['-e', '-c', script], {
      cwd: work,
      env: { ...QUIET_GIT, PATH: `${bin}:${process.env.PATH ?? ''}`, HOME: work, DOCKET_DIR: 'config', RUNNER_TEMP: temp, GITHUB_STEP_SUMMARY: join(temp, 'summary.md'), GIT_TERMINAL_PROMPT: '0' },
      encoding: 'utf8',
    });
    return { code: result.status ?? -1, out: `${result.stdout}${result.stderr}` };
  }

  it('commits what docket pull wrote to the branch docket-pull and opens a pull request from it', async () => {
    const { work, origin, bin, temp } = await setup();
    await writeFiles(work, { 'config/playbooks/nda.yaml': 'kind: Playbook\nname: NDA\ndescription: made in the app\n' });
    const { code, out } = run(work, bin, temp);
    expect(out).toBe('');
    expect(code).toBe(0);
    const files = execFileSync('git', ['show', '--name-only', '--pretty=format:%s', 'docket-pull'], { cwd: origin, encoding: 'utf8' }).trim().split('\n');
    expect(files).toEqual(['docket: adopt changes made in the app', 'config/playbooks/nda.yaml']);
    expect(readFileSync(join(work, 'gh-args'), 'utf8')).toContain(`pr create --head docket-pull --base main --title docket: adopt changes made in the app --body-file ${temp}/pull.md`);
  });

  it('updates the pull request that is open, and opens a new one once the last was merged or closed (probe QQ-1)', async () => {
    const { work, bin, temp } = await setup();
    await writeFiles(work, { 'config/playbooks/nda.yaml': 'kind: Playbook\nname: NDA\ndescription: made in the app\n', open: '1\n' });
    expect(run(work, bin, temp).code).toBe(0);
    const asked = readFileSync(join(work, 'gh-args'), 'utf8');
    expect(asked).toContain('pr list --head docket-pull --state open --json number --jq length');
    expect(asked).toContain('pr edit docket-pull --title docket: adopt changes made in the app');
    expect(asked).not.toContain('pr create');
  });

  it('does nothing when the files already hold every live change', async () => {
    const { work, bin, temp } = await setup();
    expect(run(work, bin, temp)).toEqual({ code: 0, out: 'Nothing to pull: main holds every live change\n' });
  });
});
