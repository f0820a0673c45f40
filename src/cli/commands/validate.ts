/** `docket validate`: checks the configuration offline; never touches the network. */
import { Command, Option } from 'commander';
import { ConfigError } from '../../errors.js';
import { renderDiagnosticsJson } from '../../render/json.js';
import { renderDiagnosticsText } from '../../render/text.js';
import { useColor, type Io } from '../io.js';
import { withCommon, type CommonOptions } from '../options.js';
import { loadWorkspace } from '../../engine/workspace.js';
import { sourceLines } from '../../config/source-lines.js';
import { terminalExcerpts } from '../excerpts.js';
import { declaredPlaybooks, declaredTemplates } from '../../kinds/support/test-subjects.js';
import { loadTests } from '../../testing/load.js';
import { PROJECT_FILES } from '../../config/load.js';
import { existsSync } from 'node:fs';
import { apiKeyProblem, apiKeyProblemHint, serviceApiKeyVariable } from '../../config/api-keys.js';
import type { Diagnostic } from '../../diagnostics.js';
import type { ServiceName } from '../../api/types.js';
import type { Workspace } from '../../engine/workspace.js';
import type { DesiredResource } from '../../engine/types.js';
import { join } from 'node:path';
import { pushAll } from '../../util/push-all.js';

interface ValidateOptions extends CommonOptions {
  output: 'text' | 'json';
}

export function validateCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('validate'), { services: false, verbose: false })
    .description('check the configuration offline (schemas, references inside the files, seed rules)')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json']).default('text'))
    .action(async (opts: ValidateOptions) => {
      // Its diagnostics go to stderr.
      const color = useColor(io, opts, 'stderr');
      try {
        const project = await loadWorkspace({ dir: opts.dir, processEnv: io.env, ...(opts.env ? { env: opts.env } : {}) }).catch((error: unknown) => withTestProblems(error, io.env));
        const count = project.desired.length;
        // The `*.test.yaml` files are checked against the configuration they test.
        const actor = project.config.project.agreements.actor;
        const tests = await loadTests(project.config.project.root, { playbooks: declaredPlaybooks(project.desired), templates: declaredTemplates(project.desired), actor }, undefined, io.env);
        if (tests.diagnostics.some((d) => d.severity === 'error')) throw new ConfigError([...project.diagnostics, ...tests.diagnostics], 'the test files are invalid', project.config.project.root);
        const keyProblems = await apiKeyDiagnostics(project.desired, project.config.project.prune, io.env);
        if (keyProblems.length > 0) throw new ConfigError([...project.diagnostics, ...tests.diagnostics, ...keyProblems], 'an API key is unfit to send', project.config.project.root);
        pushAll(project.diagnostics, tests.diagnostics);
        if (opts.output === 'json') {
          io.stdout(renderDiagnosticsJson(project.diagnostics, sourceLines(project.config.project.root)));
        } else {
          if (project.diagnostics.length > 0 && !opts.quiet) io.stderr(renderDiagnosticsText(project.diagnostics, { color }));
          const cases = tests.files.reduce((n, f) => n + f.cases.length, 0);
          const tested = tests.files.length > 0 ? `, ${tests.files.length} test suite${tests.files.length === 1 ? '' : 's'} with ${cases} case${cases === 1 ? '' : 's'}` : '';
          if (!opts.quiet) io.stdout(`The configuration is valid: ${count} resource${count === 1 ? '' : 's'}${tested}.\n`);
        }
        setExit(0);
      } catch (error) {
        if (!(error instanceof ConfigError)) throw error;
        // As JSON the diagnostics are the result (stdout); as text they are errors (stderr).
        if (opts.output === 'json') io.stdout(renderDiagnosticsJson(error.diagnostics, error.root ? sourceLines(error.root) : undefined));
        else io.stderr(renderDiagnosticsText(error.diagnostics, { color, ...terminalExcerpts(io, error.root) }));
        setExit(1);
      }
    });
}

/**
 * A configuration that cannot be read is refused with its test files' own problems too (every
 * problem at once), checked against what the configuration declares where every document of it
 * could be read, and otherwise without what they name, which is unknown.
 */
async function withTestProblems(error: unknown, env: Readonly<Record<string, string | undefined>>): Promise<never> {
  // Only in a configuration directory: above one, the walk would read other projects' tests.
  if (!(error instanceof ConfigError) || !error.root || !PROJECT_FILES.some((f) => existsSync(join(error.root!, f)))) throw error;
  const declared = error.declared;
  const subjects = declared
    ? { playbooks: declaredPlaybooks(declared.desired), templates: declaredTemplates(declared.desired), actor: declared.actor }
    : { playbooks: new Map(), templates: new Map(), actor: undefined, unknown: true };
  const tests = await loadTests(error.root, subjects, undefined, env).catch(() => undefined);
  // The API keys too, when what it declares says which services it needs: every problem at once (probe UC-2).
  const keyProblems = declared ? await apiKeyDiagnostics(declared.desired, declared.prune, env) : [];
  if ((!tests || tests.diagnostics.length === 0) && keyProblems.length === 0) throw error;
  throw new ConfigError([...error.diagnostics, ...(tests?.diagnostics ?? []), ...keyProblems], error.message, error.root);
}

/**
 * The API keys a plan of this configuration would send that it would refuse to (a space, a control
 * character, a letter past Latin-1), said as plan says it, so a CI job that only validates does not
 * pass them (probe TC-7). The services are worked out only when a key is unfit: it loads the engine.
 */
async function apiKeyDiagnostics(desired: readonly DesiredResource[], prune: Workspace['config']['project']['prune'], env: Readonly<Record<string, string | undefined>>): Promise<Diagnostic[]> {
  // Each service's key variable, and what is wrong with its key, when something is.
  const unfit = new Map<ServiceName, { variable: string; problem: string }>();
  for (const service of ['review', 'agreements'] as const) {
    const variable = serviceApiKeyVariable(env, service);
    const problem = variable === undefined ? undefined : apiKeyProblem(env[variable]!.trim());
    if (problem !== undefined) unfit.set(service, { variable: variable!, problem });
  }
  if (unfit.size === 0) return [];
  const { kindsToRead, servicesNeeded } = await import('../../engine/project.js');
  const said = new Map<string, { problem: string; of: ServiceName[] }>();
  for (const service of servicesNeeded(kindsToRead(desired, prune), desired)) {
    const key = unfit.get(service);
    if (key) said.set(key.variable, { problem: key.problem, of: [...(said.get(key.variable)?.of ?? []), service] });
  }
  return [...said].map(([variable, { problem, of }]) => ({
    severity: 'error',
    code: 'invalid-api-key',
    message: `environment variable ${variable}: the ${of.length === 1 ? `${of[0]} service's` : `${of.join(' and ')} services'`} API key ${problem}`,
    hint: apiKeyProblemHint(variable),
  }));
}
