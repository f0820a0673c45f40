/**
 * `--annotations github` for plan and apply: where the configuration sits in the repository, and
 * which stream the workflow commands go to.
 */
import { existsSync, realpathSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { Option } from 'commander';
import type { SourcePos } from '../diagnostics.js';
import { refKey, type ApplyReport, type Change, type Plan } from '../engine/types.js';
import { renderDiagnosticAnnotations, renderFailureAnnotations, renderGithubAnnotations } from '../render/annotations.js';
import { ConfigError } from '../errors.js';
import type { Io } from './io.js';
import { writeWorkflowCommands } from './workflow-commands.js';
import type { Workspace } from '../engine/workspace.js';

export type AnnotationFormat = 'github';

export function annotationsOption(what = 'change'): Option {
  return new Option('--annotations <FORMAT>', `also print CI annotations pointing at the file and line of each ${what}`).choices(['github']);
}

/** The nearest folder at or above `dir` holding `.git` (a folder, or a file in worktrees and submodules). */
export function findGitRoot(dir: string): string | undefined {
  for (let d = resolve(dir); ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return d;
    if (dirname(d) === d) return undefined;
  }
}

/** Plan paths are relative to the configuration dir; annotations need them relative to the repository root. */
export function repoPathPrefix(configDir: string, cwd: string): string {
  const dir = resolve(cwd, configDir);
  // The repository is the one the folder is in, through a symbolic link too: the link's own
  // parents are no repository's (probe OV-2). Outside one, paths stay as the current directory names them.
  const real = realDir(dir);
  const repo = findGitRoot(real);
  if (repo !== undefined) return relative(repo, real).split(sep).join('/');
  return relative(resolve(cwd), dir).split(sep).join('/');
}

function realDir(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * Prints the annotations after the normal output: on stdout with text output, on stderr when
 * stdout carries a document (JSON, or markdown redirected into a PR comment) that they would
 * corrupt. The Actions runner reads workflow commands from both streams.
 */
export function printAnnotations(io: Io, plan: Plan, workspace: Workspace, opts: { dir: string; output: string }): void {
  const pathPrefix = repoPathPrefix(opts.dir, io.cwd);
  // The configuration's warnings as a run they stop annotates them (title `docket CODE`, with the
  // column), not as the plan's other warnings (probe TD-2); said once.
  const configWarnings = new Set(workspace.warnings);
  const others = { ...plan, warnings: plan.warnings.filter((w) => !configWarnings.has(w)) };
  const text = `${renderGithubAnnotations(others, { pathPrefix, locate: parentLocator(workspace) })}${renderDiagnosticAnnotations(workspace.diagnostics, pathPrefix)}`;
  if (text === '') return;
  writeWorkflowCommands(io, opts.output === 'text' ? 'stdout' : 'stderr', text);
}

/** After an apply's report: an `::error` per change it could not make, where the plan's annotations go. */
export function printFailureAnnotations(io: Io, plan: Plan, report: ApplyReport, workspace: Workspace, opts: { dir: string; output: string }): void {
  const text = renderFailureAnnotations(plan, report, { pathPrefix: repoPathPrefix(opts.dir, io.cwd), locate: parentLocator(workspace) });
  if (text !== '') writeWorkflowCommands(io, opts.output === 'text' ? 'stdout' : 'stderr', text);
}

/** A removed rule has no line of its own; its playbook's declaration is the closest place. */
function parentLocator(workspace: Workspace): (c: Change) => SourcePos | undefined {
  const sources = new Map(workspace.desired.map((d) => [refKey(d.kind, d.key), d.source]));
  return (c) => (c.parent ? sources.get(refKey(c.parent.kind, c.parent.key)) : undefined);
}

/**
 * Runs `work`; when it stops at problems of the configuration (a reference to nothing, a change the
 * service cannot make), annotates their lines before the error goes on to be reported. On stderr:
 * the error output is there too.
 */
export async function annotatingProblems<T>(io: Io, opts: { dir: string; annotations?: AnnotationFormat }, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (opts.annotations === 'github' && error instanceof ConfigError) writeWorkflowCommands(io, 'stderr', renderDiagnosticAnnotations(error.diagnostics, repoPathPrefix(opts.dir, io.cwd)));
    throw error;
  }
}
