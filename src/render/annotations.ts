/**
 * The plan as GitHub Actions workflow commands (`::notice` / `::warning`), so each change shows as
 * an annotation on the YAML line that causes it. Pure: paths come in already made relative to the
 * repository root through `pathPrefix`.
 */
import { posix } from 'node:path';
import type { Diagnostic, SourcePos } from '../diagnostics.js';
import type { ApplyReport, Change, Plan } from '../engine/types.js';
import { changeHeadline } from './facts.js';
import { escapeData, escapeProperty, stripControl } from './sanitize.js';
import { markInvisible } from '../config/quote.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';

export interface AnnotationOptions {
  /** Path from the repository root to the configuration directory, with `/`; `''` when they are the same. */
  pathPrefix: string;
  /** Where to point a change that has no source of its own (a removed rule: its playbook). */
  locate?: (change: Change) => SourcePos | undefined;
}

export { escapeData, escapeProperty } from './sanitize.js';

type Level = 'notice' | 'warning' | 'error';

export interface Annotation {
  level: Level;
  title: string;
  message: string;
  /** `col`: the column a diagnostic names (GitHub marks from there). */
  at?: { file: string; line?: number; col?: number };
}

/** Every part is untrusted text (a file name too): control characters go before the escaping. */
export function formatAnnotation(a: Annotation): string {
  const props: string[] = [];
  if (a.at) {
    // A CR in a file name is kept (escaped), so the annotation still names that file.
    props.push(`file=${escapeProperty(a.at.file.split('\r').map(stripControl).join('\r'))}`);
    if (a.at.line !== undefined) props.push(`line=${a.at.line}`);
    if (a.at.line !== undefined && a.at.col !== undefined) props.push(`col=${a.at.col}`);
  }
  // What prints as nothing is shown (`<U+200B>`), as the text plan and the markdown show it: two names a zero-width space apart read the same otherwise (probe KP-2).
  props.push(`title=${escapeProperty(noOldCommand(markInvisible(stripControl(lineWithoutSecrets(a.title)))))}`);
  // A name holding a URL shows its secrets as every other output does: hidden.
  return `::${a.level} ${props.join(',')}::${escapeData(noOldCommand(markInvisible(stripControl(lineWithoutSecrets(a.message)))))}`;
}

/** `##[` broken up (`# #[`), as in every other line docket prints: the runner's older command form, anywhere in a line. */
function noOldCommand(text: string): string {
  return text.replace(/#(?=#\[)/g, '# ');
}

/** Why an irreversible change deserves a warning rather than a notice. */
const PERMANENCE: Partial<Record<Change['action'], string>> = {
  delete: 'permanent: cannot be undone',
  publish: 'goes live at once: cannot be undone',
};

/**
 * A plan warning that starts with `file:line: ` (configuration warnings do). Not across a quote: a
 * warning about an object starts with its quoted name, which may hold `:2: ` itself (probe CI-1).
 */
const LOCATED_WARNING = /^([^"\n]+?):(\d+): ([\s\S]*)$/;

/** The first `(file.yaml:line)` in a plan warning: where the object it is about is declared. */
const DECLARED_AT = /\(([^()\n]+?\.ya?ml):(\d+)\)/;

/** A path relative to the configuration directory, made relative to the repository root. */
function inRepository(pathPrefix: string, file: string): string {
  return pathPrefix ? posix.join(pathPrefix, file) : file;
}

/** Workflow commands as printed: one per line, nothing at all for none. */
function commandLines(lines: readonly string[]): string {
  return lines.length > 0 ? `${lines.join('\n')}\n` : '';
}

export function renderGithubAnnotations(plan: Plan, options: AnnotationOptions): string {
  const repoPath = (file: string): string => inRepository(options.pathPrefix, file);
  const lines: string[] = [];
  for (const c of plan.changes) {
    const source = c.source ?? options.locate?.(c);
    // As the plan's text says it, names quoted: a line break in a live name is `\n`, not a second line (probe RG-1).
    const what = changeHeadline(c);
    const why = c.irreversible ? (PERMANENCE[c.action] ?? 'cannot be undone') : undefined;
    lines.push(
      formatAnnotation({
        level: c.irreversible ? 'warning' : 'notice',
        title: `docket ${c.action}`,
        message: why ? `${what} (${why})` : what,
        ...(source ? { at: { file: repoPath(source.file), line: source.line } } : {}),
      }),
    );
  }
  for (const w of plan.warnings) {
    // `file:line: message`, or a warning about an object naming where it is declared
    // (`playbook "X" (playbooks/x.yaml:2) …`), said whole.
    const m = LOCATED_WARNING.exec(w);
    const about = m ? undefined : DECLARED_AT.exec(w);
    const at = m ?? about;
    // Unlocated warnings are already in the plan output; an annotation adds nothing.
    if (at) lines.push(formatAnnotation({ level: 'warning', title: 'docket warning', message: m ? m[3]! : w, at: { file: repoPath(at[1]!), line: Number(at[2]) } }));
  }
  return commandLines(lines);
}


/** Each change an apply could not make, as an `::error` at the line that declares it, with the service's answer. */
export function renderFailureAnnotations(plan: Plan, report: ApplyReport, options: AnnotationOptions): string {
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  const lines: string[] = [];
  for (const r of report.results) {
    const c = r.status === 'failed' ? byId.get(r.changeId) : undefined;
    if (!c) continue;
    const source = c.source ?? options.locate?.(c);
    lines.push(formatAnnotation({ level: 'error', title: `docket ${c.action} failed`, message: r.message ?? `${changeHeadline(c)}: failed`, ...(source ? { at: { file: inRepository(options.pathPrefix, source.file), line: source.line } } : {}) }));
  }
  return commandLines(lines);
}

/**
 * The problems that stopped a plan (or an apply's plan) at their files and lines: `::error` for
 * errors, `::warning` for warnings; those with no file are left to the error output.
 */
export function renderDiagnosticAnnotations(diagnostics: readonly Diagnostic[], pathPrefix: string): string {
  const lines: string[] = [];
  for (const d of diagnostics) {
    if (!d.file) continue;
    lines.push(formatAnnotation({ level: d.severity === 'error' ? 'error' : 'warning', title: `docket ${d.code}`, message: d.message, at: { file: inRepository(pathPrefix, d.file), ...(d.line !== undefined ? { line: d.line, ...(d.col !== undefined ? { col: d.col } : {}) } : {}) } }));
  }
  return commandLines(lines);
}
