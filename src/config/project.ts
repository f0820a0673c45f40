/**
 * docket.yaml → ProjectConfig: environment selection, `vars`, interpolation, schema validation and
 * the DOCKET_* environment variables that fill or override the service settings.
 */
import { withoutInvalidValueAt, type Diagnostic } from '../diagnostics.js';
import { isPlainObject, withoutKey } from '../util/plain.js';
import { holdsPlaceholder, interpolateString, interpolateTree, keysHeld, placeholderPlace, placeOf, typedByField, variablesIn, type InterpolationContext, type TreeProblem } from './interpolate.js';
import { holdsKey, keyShapedShown, KEYS_STAY_OUT, keysOf } from './api-keys.js';
import { schemaDiagnostics, withVariableHint, type VariableOrigins } from './schema.js';
import { schemaValidator, subschemaValidator } from './validators.js';
import { didYouMean } from './suggest.js';
import { quoteValue, showName, showWholeText } from './quote.js';
import type { ProjectConfig } from './types.js';
import { shown, urlProblem, urlSpellingHint, type UrlProblem } from './url-policy.js';
import { characterAt, CONTROL_CHARACTER, textProblems, withoutEchoesOf } from './text-hygiene.js';
import { booleanAsWritten, keyAsWritten, numberAsText, taggedIn, writtenIn } from './written-number.js';
import { linesIn, sourceLines } from './source-lines.js';
import { DocPositions, escapePointer, pointerToPath, splitPointer, type ParsedDocument } from './yaml-positions.js';
import { separatorBefore } from './yaml-read.js';
import { canonicalUrl } from './lock.js';
import { valueAt } from './value-at.js';
import { pushAll } from '../util/push-all.js';

export const PROJECT_SCHEMA = 'docket.schema.json';

export interface ProjectInput {
  root: string;
  /** docket.yaml or docket.yml, relative to root. */
  file: string;
  /** The file's non-empty documents. */
  documents: ParsedDocument[];
  /** The file's text, to point at a second document's `---`. */
  text?: string;
  /** The file has errors of its own (git's conflict markers, a YAML error): with no document read from it, its settings are unknown, not missing. */
  unreadable?: boolean;
  /** A run against the in-process emulator: the service URLs are not used, so neither conflicts. */
  emulator?: boolean;
  env?: string;
  processEnv: Record<string, string | undefined>;
}

export interface ProjectResult {
  /** Undefined when docket.yaml has errors. */
  project?: ProjectConfig;
  /** Variables for interpolating the other files; undefined when they cannot be known (so `var.` names are not checked). */
  vars?: Record<string, string>;
  /** Variables whose own value is broken (reported in docket.yaml): a use of one in a file is not checked again. */
  brokenVars?: ReadonlySet<string>;
  /**
   * The plain variables each other environment would have (text written as is): a data file named
   * through one (`definition_file: ${var.cover}`) is another environment's data, not a stray resource.
   */
  otherVars?: Record<string, string>[];
  /** With an environment selected: each other environment by name, with the plain variables it would have. */
  otherEnvironments?: { name: string; vars: Record<string, string> }[];
  /**
   * The environments but the selected one that define a variable in their own `vars` (a run's
   * undefined one may be theirs); `every`: all of them do, and none is selected.
   */
  definedIn?: (name: string) => { names: string[]; every: boolean };
  /** Where each variable got the value this run uses: its definition, and the `${env.X}` that filled it. */
  varOrigin?: VariableOrigins;
  diagnostics: Diagnostic[];
}

/**
 * Environment variables that fill or override docket.yaml. The environment wins over the file, so
 * CI can point one repository at another organization or a staging URL without editing it.
 */
export const ENV_OVERRIDES = [
  { variable: 'DOCKET_REVIEW_URL', section: 'review', key: 'url', fragment: '#/$defs/httpUrl', what: 'an http(s) URL' },
  { variable: 'DOCKET_ORGANIZATION_ID', section: 'review', key: 'organization_id', fragment: '#/$defs/review/properties/organization_id', what: 'a UUID' },
  { variable: 'DOCKET_AGREEMENTS_URL', section: 'agreements', key: 'url', fragment: '#/$defs/httpUrl', what: 'an http(s) URL' },
] as const;

type Plain = Record<string, unknown>;

function get(obj: unknown, key: string): unknown {
  return isPlainObject(obj) && Object.hasOwn(obj, key) ? obj[key] : undefined;
}

/** The environments a project file defines, as the hints of an unknown `--env` list them. */
export function environmentsIn(file: string, names: readonly string[]): string {
  return `environments in ${file}: ${cutList(names)}`;
}

/** The most environments a message names: with thousands, one message was tens of kilobytes (probe VE-4, second read SR94C-2). */
const ENVIRONMENTS_NAMED = 10;

/** Names as a message lists them (already shown as they print): the first ENVIRONMENTS_NAMED, then how many more. */
export function cutList(names: readonly string[]): string {
  const shown = names.slice(0, ENVIRONMENTS_NAMED).join(', ');
  return names.length > ENVIRONMENTS_NAMED ? `${shown} and ${names.length - ENVIRONMENTS_NAMED} more` : shown;
}

export async function loadProjectSettings(input: ProjectInput): Promise<ProjectResult> {
  const { file, documents } = input;
  const diagnostics: Diagnostic[] = [];
  const error = (code: string, message: string, pos: { line: number; col: number }, hint?: string, pointer = ''): void => {
    const path = pointerToPath(pointer);
    diagnostics.push({ severity: 'error', code, message, file, line: pos.line, col: pos.col, ...(path ? { path } : {}), ...(hint ? { hint } : {}) });
  };

  const lines = documents.length > 1 ? input.text?.split(/\r\n?|\n/) : undefined;
  for (const extra of documents.slice(1)) {
    error('multiple-documents', `${file} must hold exactly one document`, lines === undefined ? extra.start : separatorBefore(lines, extra.start), 'put resources in their own files');
  }
  const doc = documents[0];
  if (input.unreadable && !doc) return { diagnostics };
  // Its YAML errors are reported with the file's other diagnostics; a readable document (a key
  // twice) is checked all the same, so the rest of its problems come in the same run.
  if (doc && !doc.ok && !doc.readable) return { diagnostics };
  const raw: unknown = doc ? doc.value : {};
  // An empty docket.yaml still gets "missing required field `version`", at 1:1.
  const positions = doc?.positions ?? new DocPositions(file, { line: 1, col: 1 });
  if (!isPlainObject(raw)) {
    const got = Array.isArray(raw) ? 'a list' : typeof raw === 'string' ? quoteValue(raw) : String(raw);
    error('invalid-value', `${file} must be a mapping of settings (got ${got})`, doc?.start ?? { line: 1, col: 1 }, 'see `docket init` for an example');
    return { diagnostics };
  }

  // A key written anywhere in the file, a variable no resource uses included, is committed with it.
  const keys = keysOf(input.processEnv);
  // (And a key's name spelt with escapes, which the check of the text cannot see: SR67-14.)
  for (const p of keys.length > 0 ? keysHeld(raw, keys, input.text ?? '') : []) error(p.code, p.message, placeOf(p, positions), p.hint, p.inKeyName ? undefined : p.pointer);

  const lineOf = input.text === undefined ? undefined : linesIn(input.text);
  // The selected environment, if any.
  const environments = get(raw, 'environments');
  let envBlock: unknown;
  let varsKnown = true;
  if (input.env !== undefined) {
    // A name written as a placeholder is no environment (refused on its own): not offered (probe KF-4).
    const names = isPlainObject(environments) ? Object.keys(environments).filter((name) => !holdsPlaceholder(name)) : [];
    if (names.includes(input.env)) {
      envBlock = get(environments, input.env);
    } else {
      const at = positions.at('/environments');
      // A key YAML read as a number, a true or false or a null (`1e3:`, `True:`) is listed as written: `--env 1e3` is no such name.
      const writtenAt = lineOf && writtenIn(lineOf);
      const writtenAs = (name: string): string | undefined => keyAsWritten(name, writtenAt?.(positions.at(`/environments/${escapePointer(name)}`)));
      const listedName = (name: string): string => {
        const raw = writtenAs(name);
        // Quoted when not plain (blank, a tab), as a message shows any name, and whole: a name to copy (second reads SR86-7, SR86B-5).
        return raw === undefined ? showWholeText(name) : `${showWholeText(name)} (written ${raw})`;
      };
      // Not a name validate refuses as written otherwise (`1.10:` is `1.1`) or blank (probe QW-5).
      // A true, false, null or infinity is taken by the name it is read as (`True:` by --env true).
      const suggestable = names.filter((name) => name.trim() !== '' && (writtenAs(name) === undefined || /^(?:true|false|null|Infinity|NaN)$/.test(name)));
      // Typed as the file writes a key YAML reads otherwise (`--env True` for `True:`, read as true):
      // the name it is read as, which --env takes (probe AE-3).
      const typed = input.env.toLowerCase();
      const readAs = suggestable.find((name) => name !== input.env && [writtenAs(name), name].some((w) => w !== undefined && w.toLowerCase() === typed));
      const suggestion = readAs !== undefined ? `, did you mean ${showName(readAs)}?${writtenAs(readAs) === undefined ? '' : ` (written ${JSON.stringify(writtenAs(readAs))}, which YAML reads as ${readAs})`}` : didYouMean(input.env, suggestable);
      error(
        'unknown-environment',
        `unknown environment ${showName(input.env)}${suggestion}`,
        at,
        names.length > 0 ? environmentsIn(file, names.map(listedName)) : `define it under \`environments:\` in ${file}`,
      );
      varsKnown = false; // its values are unknown: only what no environment defines is undefined (namesDefinedAnywhere)
    }
  }
  const selected = input.env !== undefined && envBlock !== undefined ? `/environments/${escapePointer(input.env)}` : undefined;
  // `version` says how the rest is read, so it is read before any variable is filled in (as a document's `kind` is).
  const version = get(raw, 'version');
  if (typeof version === 'string' && holdsPlaceholder(version)) {
    error('invalid-value', `\`version\` takes no placeholder (got ${quoteValue(version)})`, positions.valueAt('/version'), 'write `version: 1`', '/version');
  }

  // Only the selected environment is resolved: another one may use variables that exist only where it runs.
  const skip = (pointer: string): boolean =>
    // Said above, once: filled in, its value would be checked as if it were the version.
    (pointer === '/version' && typeof version === 'string' && holdsPlaceholder(version)) ||
    (pointer.startsWith('/environments/') && splitPointer(pointer).length === 2 && pointer !== selected) || overriddenByEnv(raw, envBlock, pointer);
  const inVars = (pointer: string): boolean => pointer.startsWith('/vars/') || /^\/environments\/[^/]+\/vars\//.test(pointer);

  // Pass 1: the variables, top level then the environment's (they may use env, not other vars).
  // Its problems are dropped: pass 2 reports them at their positions.
  const envOnly: InterpolationContext = { vars: undefined, env: input.processEnv, allowVars: false };
  // No prototype: a variable named `__proto__` is a variable like any other, not the object's prototype.
  const vars: Record<string, string> = Object.create(null) as Record<string, string>;
  // Broken values (an unset env.NAME): reported where they are defined, and their uses left unchecked.
  const brokenVars = new Set<string>();
  let varsUnreadable = false;
  const lineAt = sourceLines(input.root);
  // A number written otherwise than it prints (`01067`) is number-as-text at its definition (below).
  const lossy = (v: unknown, pointer: string): boolean => typeof v === 'number' && numberAsText(v, lineAt, positions.valueAt(pointer), '') !== undefined;
  /**
   * A variable's value no use of it is checked with (said where it is defined): not text, a number
   * or a boolean (a list, a mapping, no value), not finite, holding a control character, or a
   * number written otherwise than it prints.
   */
  const unfitValue = (v: unknown, pointer: string): boolean => v === null || typeof v === 'object' || (typeof v === 'number' && !Number.isFinite(v)) || (typeof v === 'string' && CONTROL_CHARACTER.test(v)) || lossy(v, pointer);
  const varSources: [unknown, string][] = [[get(raw, 'vars'), '/vars']];
  const origins = new Map<string, { at: string; env?: string }>();
  /** A variable's definition as a hint names it: its path and line. */
  const definitionAt = (pointer: string): string => `\`${pointerToPath(pointer)}\` (${file}:${positions.valueAt(pointer).line})`;
  if (selected) varSources.push([get(envBlock, 'vars'), `${selected}/vars`]);
  for (const [source, pointer] of varSources) {
    const resolved = interpolateTree(source, pointer, { ctx: envOnly });
    const broken = new Set(resolved.problems.map((problem) => splitPointer(problem.pointer.slice(pointer.length))[0] ?? ''));
    if (!isPlainObject(resolved.value)) {
      for (const k of broken) brokenVars.add(k);
      // A block written as no mapping (`vars: [x]`) is refused where it is; what it meant to define is unknown.
      if (source !== undefined && source !== null) varsUnreadable = true;
      continue;
    }
    // A broken value still defines its name, so its uses are not reported as undefined too.
    for (const [k, v] of Object.entries(resolved.value)) {
      vars[k] = v === null || typeof v === 'object' ? '' : (booleanAsWritten(v, lineAt, positions.valueAt(`${pointer}/${escapePointer(k)}`)) ?? String(v));
      // The environment's definition, read after the top level's, replaces it here as in `vars`.
      const at = `${pointer}/${escapePointer(k)}`;
      const writtenValue = get(source, k);
      const fromEnv = typeof writtenValue === 'string' ? /^\$\{env\.([A-Za-z_][A-Za-z0-9_]*)\}$/.exec(writtenValue)?.[1] : undefined;
      origins.set(k, { at: definitionAt(at), ...(fromEnv !== undefined ? { env: fromEnv } : {}) });
      // Not text, a number or a boolean (a list, a mapping, no value), or a placeholder that fails:
      // said where it is defined; a use of it is not checked again (it would read as ""). The
      // environment's own value, when good, replaces a broken top-level one.
      // A control character in it is one too (control-character, at the definition).
      if (broken.has(k) || unfitValue(v, at)) brokenVars.add(k);
      else brokenVars.delete(k);
    }
  }

  // An unknown environment's values are unknown: a variable is still undefined when neither the top
  // level nor any environment defines it; the uses of the others are left unchecked (as broken ones).
  const anywhere = varsKnown ? undefined : namesDefinedAnywhere(raw);
  // Pass 2: everything, vars included, so each problem is reported once at its own position.
  const full: InterpolationContext = { vars: anywhere?.vars ?? vars, env: input.processEnv, allowVars: true, brokenVars: anywhere?.names ?? brokenVars };
  // Another environment is not resolved, but the names of its `var.` placeholders are known offline:
  // the run that selects it would refuse one it does not define.
  const unselectedVars = new Map<string, InterpolationContext>();
  const contextAt = (p: string): InterpolationContext => {
    if (inVars(p)) return envOnly;
    if (!varsKnown || !p.startsWith('/environments/')) return full;
    const name = splitPointer(p)[1];
    if (name === undefined || `/environments/${escapePointer(name)}` === selected) return full;
    let ctx = unselectedVars.get(name);
    if (!ctx) {
      const defined: Record<string, string> = Object.create(null) as Record<string, string>;
      for (const block of [get(raw, 'vars'), get(get(environments, name), 'vars')]) if (isPlainObject(block)) for (const k of Object.keys(block)) defined[k] = '';
      unselectedVars.set(name, (ctx = { ...full, vars: defined }));
    }
    return ctx;
  };
  const pass = interpolateTree(raw, '', {
    ctx: contextAt,
    skip,
    isPlain: (p) => positions.isPlain(p),
  });
  /** At the placeholder itself, as in a resource file (probe MB-3). */
  const placeholderAt = (problem: { pointer: string; placeholder?: string; occurrence?: number }, variable: string | undefined): { line: number; col: number } => {
    const value = positions.valueAt(problem.pointer);
    const written = valueAt(raw, problem.pointer);
    return lineOf && typeof written === 'string' ? placeholderPlace(value, written, variable, lineOf, problem.placeholder, problem.occurrence) : value;
  };
  // A top-level setting the selected environment replaces is not read in its run: whether the
  // others define its `${var.X}` is asked below, of them alone (second read SR95-6).
  const readElsewhereOnly = (problem: TreeProblem): boolean => problem.code === 'undefined-variable' && problem.variable !== undefined && input.env !== undefined && overriddenByEnv(raw, envBlock, problem.pointer);
  const ownProblems = pass.problems.filter((problem) => !readElsewhereOnly(problem));
  for (const problem of ownProblems) {
    // An unknown --env: docket.yaml's own `${env.X}` is not said missing, a mistyped --env being what
    // to fix (probe PN-2); a `${var.X}` defined nowhere is wrong in every environment, and said (SR82B-6).
    if (!varsKnown && problem.code === 'undefined-variable' && problem.variable === undefined) continue;
    // `version` is never filled in: its placeholder is said above, not also its variable (probe FE-5).
    if (problem.code === 'undefined-variable' && problem.pointer === '/version') continue;
    error(problem.code, problem.message, placeholderAt(problem, problem.code === 'undefined-variable' ? problem.variable : undefined), problem.hint, problem.pointer);
  }

  // A top-level setting's `${var.X}` another environment does not define: that environment's run
  // reads the setting too, so it is refused in this one, as a resource file's is (probe VE-2).
  if (varsKnown && input.env !== undefined) {
    const useKey = (p: { pointer: string; variable?: string }): string => `${p.pointer}\u0000${p.variable ?? ''}`;
    const said = new Set(ownProblems.filter((p) => p.code === 'undefined-variable').map(useKey));
    const { environments: _environments, vars: _vars, ...top } = raw;
    const uses = interpolateTree(top, '', { ctx: { vars: NO_VARS, env: input.processEnv, allowVars: true }, skip: (p) => p === '/version', isPlain: (p) => positions.isPlain(p) }).problems;
    // Defined with a value that is broken is not undefined: said once, where it is defined; an
    // environment whose block, `vars` or name is refused on its own is not named here (second reads SR95-5, SR95B-4).
    const definedIn = (block: unknown, name: string): boolean => isPlainObject(block) && Object.hasOwn(block, name);
    const refused = (block: unknown): boolean => !isPlainObject(block) || (get(block, 'vars') !== undefined && !isPlainObject(get(block, 'vars')));
    const others = Object.keys(isPlainObject(environments) ? environments : {}).filter((name) => name !== input.env && !holdsPlaceholder(name) && !refused(get(environments, name)));
    for (const use of uses) {
      if (use.code !== 'undefined-variable' || use.variable === undefined || said.has(useKey(use)) || definedIn(get(raw, 'vars'), use.variable)) continue;
      said.add(useKey(use));
      const lacking = others.filter((name) => !definedIn(get(get(environments, name), 'vars'), use.variable!) && !overriddenByEnv(raw, get(environments, name), use.pointer)).map(showName);
      if (lacking.length === 0) continue;
      error('undefined-variable', `variable \`var.${use.variable}\` is not defined in environment${lacking.length === 1 ? '' : 's'} ${cutList(lacking)}`, placeholderAt(use, use.variable), "a top-level setting is every environment's: define it under `vars:` in docket.yaml, or under each environment's `vars`", use.pointer);
    }
  }

  const textStart = diagnostics.length;
  for (const problem of textProblems(pass.value)) {
    // A value made from a broken variable: told where the variable is defined.
    if (!pass.unresolved.has(problem.pointer)) error(problem.code ?? 'control-character', problem.message, characterAt(problem, positions.valueAt(problem.pointer), lineOf), problem.hint, problem.pointer);
  }
  const controlCharacters = diagnostics.slice(textStart);
  // Every environment's, selected or not: a variable's value is text wherever it is used.
  const varBlocks: [unknown, string][] = [[get(raw, 'vars'), '/vars']];
  for (const [name, block] of Object.entries(isPlainObject(get(raw, 'environments')) ? (get(raw, 'environments') as Plain) : {})) varBlocks.push([get(block, 'vars'), `/environments/${escapePointer(name)}/vars`]);
  /** Variables said as number-as-text, whose hint (quote it) is the one: the schema's "not infinity" goes (probe NS-2). */
  const saidAsText = new Set<string>();
  for (const [block, pointer] of varBlocks) {
    if (!isPlainObject(block)) continue;
    for (const [k, v] of Object.entries(block)) {
      const problem = numberAsText(v, lineAt, positions.valueAt(`${pointer}/${escapePointer(k)}`), k);
      if (!problem) continue;
      const path = pointerToPath(`${pointer}/${escapePointer(k)}`);
      diagnostics.push({ ...problem, path });
      saidAsText.add(path);
    }
  }

  const validate = await schemaValidator(PROJECT_SCHEMA);
  // A placeholder's value takes the type its field wants, then the file is checked again.
  if (!validate(pass.value) && (!typedByField(pass.value, validate.errors, pass.wholes) || !validate(pass.value))) {
    // A placeholder is never a mapping or a list, whatever it would resolve to: an environment, or its
    // `review:`, written as one is refused in every run, with --env or without (probe VC-2).
    const neverText = new Set((validate.errors ?? []).filter((e) => e.keyword === 'type' && wantsOnlyCollections(e.params)).map((e) => e.instancePath));
    // There, what its variable is does not matter: said once, as the value refused (`vars: ${var.x}`, probe VE-5).
    const neverTextPaths = new Set([...neverText].map(pointerToPath));
    for (let i = diagnostics.length - 1; i >= 0; i--) if (diagnostics[i]!.code === 'undefined-variable' && neverTextPaths.has(diagnostics[i]!.path ?? '')) diagnostics.splice(i, 1);
    const unresolved = new Set([...pass.unresolved].filter((p) => !(p.startsWith('/environments/') && splitPointer(p).length === 2) && !neverText.has(p)));
    // (What was said of a value already, a key pasted as one among it, is not said again: probe LN-4.)
    pushAll(diagnostics, withoutInvalidValueAt(saidAsText, withoutEchoesOf([...controlCharacters, ...diagnostics], schemaDiagnostics(validate.errors, { positions, documentLabel: file, unresolved, fromVariables: pass.written, filledAs: pass.wholes, varOrigin: (name) => origins.get(name), ...(lineOf ? { written: writtenIn(lineOf), tagged: taggedIn(lineOf) } : {}) }))));
  }

  const overrides = await envOverrides(input.processEnv);
  pushAll(diagnostics, overrides.diagnostics);
  /** A URL problem's hint, after the one naming the variable that filled the URL in, as other values' have (probe OJ-2). */
  const urlHint = (hint: string | undefined, pointer: string, environment?: string | null): string | undefined => {
    const written = valueAt(raw, pointer);
    return withVariableHint(hint === undefined ? {} : { hint }, typeof written === 'string' && holdsPlaceholder(written) ? written : undefined, environment === undefined ? (name) => origins.get(name) : originsOf(environment)).hint;
  };
  /** Where a run of `environment` (null: none) takes each variable from: another environment's URL names its own definition (probe PN-3). */
  const originsOf = (environment: string | null): VariableOrigins => (name) => {
    const at = [...(environment !== null ? [`/environments/${escapePointer(environment)}/vars/${escapePointer(name)}`] : []), `/vars/${escapePointer(name)}`].find((p) => positions.has(p));
    return at === undefined ? undefined : { at: definitionAt(at), run: environment === null ? 'no --env' : `--env ${showName(environment)}` };
  };
  // URLs are checked here, offline, so a bad one stops the run before any service is contacted;
  // every environment's, selected or not, as the run that selects it would refuse it.
  const resolvedEnvironments = get(pass.value, 'environments');
  const blocks: [unknown, string][] = [[pass.value, ''], ...Object.entries(isPlainObject(resolvedEnvironments) ? resolvedEnvironments : {}).map(([name, block]): [unknown, string] => [block, `/environments/${escapePointer(name)}`])];
  for (const section of ['review', 'agreements'] as const) {
    for (const [block, at] of blocks) {
      const pointer = `${at}/${section}/url`;
      const value = get(get(block, section), 'url');
      // Not what the schema already refused, a placeholder left for later (or in an environment not
      // resolved), or a value the environment replaces. A DOCKET_*_URL set in CI does not excuse
      // the file's: a URL with a password in it is committed all the same.
      if (typeof value !== 'string' || value.includes('${') || pass.unresolved.has(pointer) || overriddenByEnv(raw, envBlock, pointer)) continue;
      const problem = urlValueProblem(value, `\`${section}.url\``);
      if (!problem) continue;
      // Said once: the schema's "must be a URL" (its `format` or its pattern) about the same value goes, the reason and hint stay.
      diagnostics.splice(0, diagnostics.length, ...withoutInvalidValueAt(new Set([pointerToPath(pointer)]), diagnostics));
      error(problem.code, problem.message, positions.valueAt(pointer), urlHint(problem.hint, pointer), pointer);
    }
  }
  /**
   * The variables a run of `environment` (undefined: none) would find broken (said where they are
   * defined): their uses are left unchecked there, as in that run's own pass.
   */
  const brokenIn = (source: unknown, pointer: string, broken: Set<string>): Set<string> => {
    if (!isPlainObject(source)) return broken;
    for (const [k, v] of Object.entries(source)) {
      // Not resolved here: one holding a placeholder is known only where its run runs.
      if (unfitValue(v, `${pointer}/${escapePointer(k)}`) || (typeof v === 'string' && holdsPlaceholder(v))) broken.add(k);
      else broken.delete(k);
    }
    return broken;
  };
  /**
   * Each other run's settings as it reads them (an environment's block, and the top level's it does
   * not set; with --env, also the run without one), resolved with its variables and checked: the
   * problems of those a `${var.…}` fills otherwise than this run does.
   */
  const otherEnvironmentSettings = (): Diagnostic[] => {
    const found: Diagnostic[] = [];
    // Its URLs are checked apart, with their own words; `vars` are text wherever they are used.
    const url = /^(?:\/environments\/[^/]+)?\/(?:review|agreements)\/url$/;
    // Each run walks the top level and its own block only: a walk of every environment per
    // environment grew with the square of their number (second read SR94B-1).
    const { environments: _every, ...top } = raw;
    const topFilled = JSON.stringify(top).includes('${var.');
    const topBroken = brokenIn(get(raw, 'vars'), '/vars', new Set());
    const runs: { name: string | undefined; vars: Record<string, string>; block: unknown }[] = namedOtherEnvironments(raw, input.env).map((e) => ({ name: e.name, vars: e.vars, block: get(environments, e.name) }));
    // The run without --env too, when one is selected, as for its URLs (SR94B-5).
    if (input.env !== undefined) runs.push({ name: undefined, vars: plainVars(get(raw, 'vars')), block: {} });
    for (const other of runs) {
      if (!isPlainObject(other.block)) continue;
      const at = other.name === undefined ? undefined : `/environments/${escapePointer(other.name)}`;
      if (!topFilled && !(at !== undefined && JSON.stringify(other.block).includes('${var.'))) continue;
      const tree = at === undefined ? top : { ...top, environments: { [other.name!]: other.block } };
      const brokenVars = at === undefined ? topBroken : brokenIn(get(other.block, 'vars'), `${at}/vars`, new Set(topBroken));
      const ctx: InterpolationContext = { vars: other.vars, env: input.processEnv, allowVars: true, brokenVars };
      const run = interpolateTree(tree, '', { ctx, skip: (p) => p === '/version' || inVars(p) || url.test(p) || overriddenByEnv(raw, other.block, p), isPlain: (p) => positions.isPlain(p) });
      const asRun = run.value as Plain;
      const own = plainVars(get(other.block, 'vars'));
      // Written with a `${var.…}` (an `${env.…}` alone reads the same in every run: second read SR94-5), not
      // one its variables leave a placeholder in, and at the top level only where it reads otherwise than here (SR94-7).
      const filled = [...run.written]
        .filter(([p, written]) => variablesIn(written).some((name) => name.startsWith('var.')) && !run.unresolved.has(p) && !heldPlaceholder(valueAt(asRun, p)))
        // (Or that its own `vars:` fill, the same value as here too: said once, with each run's hint, probe VE-1.)
        .filter(([p, written]) => (at !== undefined && (p.startsWith(`${at}/`) || variableSetBy(written, own) !== undefined)) || JSON.stringify(valueAt(asRun, p)) !== JSON.stringify(valueAt(pass.value, p)))
        .map(([p]) => p);
      if (filled.length === 0) continue;
      // A control character the value gets is said as itself, as in the run's own pass, not as what it breaks.
      const characters = textProblems(asRun).filter((problem) => filled.includes(problem.pointer));
      for (const problem of characters) found.push({ severity: 'error', code: problem.code ?? 'control-character', message: problem.message, ...characterAt(problem, positions.valueAt(problem.pointer), lineOf), ...(problem.hint ? { hint: problem.hint } : {}), path: pointerToPath(problem.pointer) });
      const checked = filled.filter((p) => !characters.some((problem) => problem.pointer === p));
      if (validate(asRun) || (typedByField(asRun, validate.errors, run.wholes) && validate(asRun))) continue;
      // (A placeholder where a mapping goes is said above, in every run.)
      const errors = (validate.errors ?? []).filter((e) => !(e.keyword === 'type' && wantsOnlyCollections(e.params)) && checked.some((p) => e.instancePath === p || e.instancePath.startsWith(`${p}/`)));
      pushAll(found, schemaDiagnostics(errors, { positions, documentLabel: file, fromVariables: run.written, filledAs: run.wholes, varOrigin: originsOf(other.name ?? null) }));
    }
    return found;
  };
  // A URL another environment makes through its own variables (probe KF-1), and without `--env` the
  // top level's through the top-level ones: refused here as the run that selects it would refuse it.
  const checkedUrls = new Set(['review', 'agreements'].map((section) => `/${section}/url\n${String(get(get(pass.value, section), 'url'))}`));
  for (const found of urlsThroughOtherVariables(raw, input.env, input.processEnv)) {
    if (checkedUrls.has(`${found.pointer}\n${found.value}`)) continue;
    checkedUrls.add(`${found.pointer}\n${found.value}`);
    error(found.problem.code, found.problem.message, positions.valueAt(found.pointer), urlHint(found.problem.hint, found.pointer, found.environment), found.pointer);
  }
  // Another environment's other settings made through variables (`concurrency: ${var.n}`, an actor
  // from the top level's): refused here as the run that selects it would refuse them (probe VC-2).
  // One value wrong in several runs is one problem at one place: each run's hint is kept, a few named (probe VE-1).
  if (varsKnown) {
    const merged: OtherRuns = new Map();
    for (const d of otherEnvironmentSettings()) sayWithOtherRuns(diagnostics, d, merged);
  }
  for (const o of overrides.values) {
    if (o.key !== 'url') continue;
    const problem = urlProblem(o.value, `environment variable ${o.variable}`);
    if (problem) diagnostics.push({ severity: 'error', code: problem.code, message: problem.message, ...(problem.hint ? { hint: problem.hint } : {}) });
  }

  // With errors the settings are still built, from the values that have the right type, so the
  // kinds' own rules check the resource files in the same run (every problem at once); the errors
  // are thrown before anything could use them to reach a service.
  // The other environments (and, with one selected, the top level): data files named through their variables are theirs.
  const others = namedOtherEnvironments(raw, input.env);
  const otherVars = [...others.map((e) => e.vars), ...(input.env !== undefined ? [plainVars(get(raw, 'vars'))] : [])];
  // Each environment's own variables read once: asked for every undefined name (thousands, with typos).
  let ownVars: { name: string; vars: Record<string, string> }[] | undefined;
  const definedIn = (name: string): { names: string[]; every: boolean } => {
    ownVars ??= others.map((e) => ({ name: e.name, vars: plainVars(get(get(get(raw, 'environments'), e.name), 'vars')) }));
    const names = ownVars.filter((e) => Object.hasOwn(e.vars, name)).map((e) => e.name);
    return { names, every: input.env === undefined && names.length > 0 && names.length === others.length };
  };
  // A `vars:` block that is no mapping: its names are unknown, so a use of one is not said undefined (probe MO-3).
  const known = varsUnreadable ? {} : anywhere ? { vars: anywhere.vars, brokenVars: anywhere.names } : { vars, brokenVars };
  const result: ProjectResult = { diagnostics, ...known, otherVars, ...(input.env !== undefined ? { otherEnvironments: others } : {}), definedIn, ...(origins.size > 0 ? { varOrigin: (name: string) => origins.get(name) } : {}) };

  const value = pass.value as Plain;
  const envResolved = selected ? get(get(value, 'environments'), input.env!) : undefined;
  const merged = deepMerge(withoutKey(value, 'environments'), isPlainObject(envResolved) ? envResolved : {});
  // A number or boolean where text belongs (already an error) stays as text, so it is not also reported missing.
  const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : typeof v === 'number' || typeof v === 'boolean' ? String(v) : undefined);
  const section = (name: string): Plain =>
    isPlainObject(merged[name]) ? Object.fromEntries(Object.entries(merged[name] as Plain).flatMap(([k, v]) => (text(v) === undefined ? [] : [[k, text(v)]]))) : {};
  const review = section('review') as ProjectConfig['review'];
  const agreements = section('agreements') as ProjectConfig['agreements'];
  for (const o of overrides.values) {
    // An environment chosen by name that says otherwise: two explicit choices, neither silently
    // taken (a CI recipe sets DOCKET_ORGANIZATION_ID on every step, and `--env staging` would plan production).
    // So does a top-level value written through a variable the environment sets (\`organization_id: ${var.org}\`).
    const own = text(get(get(envResolved, o.section), o.key));
    const through = own === undefined && selected ? variableSetBy(get(get(raw, o.section), o.key), plainVars(get(get(get(raw, 'environments'), input.env!), 'vars'))) : undefined;
    const chosen = own ?? (through !== undefined ? text(get(get(value, o.section), o.key)) : undefined);
    const pointer = own !== undefined ? `${selected!}/${o.section}/${o.key}` : `/${o.section}/${o.key}`;
    // A value a broken placeholder left (its text, or nothing) is that placeholder's error, not a
    // second choice: unsetting the variable would be the wrong fix (probe UC-1).
    const broken = pass.unresolved.has(pointer) || chosen?.trim() === '';
    if (chosen !== undefined && !broken && !(input.emulator && o.key === 'url') && !sameSetting(o.key, chosen, o.value)) {
      error(
        'conflicting-setting',
        `environment ${showName(input.env!)} sets \`${o.section}.${o.key}\` to ${settingShown(o.key, chosen)}${through !== undefined ? ` (through var.${through})` : ''}, but ${o.variable} names ${settingShown(o.key, o.value)}`,
        positions.valueAt(pointer),
        `unset ${o.variable} for runs with --env ${input.env!} (the environment names its own), or make the two agree`,
        pointer,
      );
    }
    (o.section === 'review' ? review : agreements)[o.key as 'url'] = o.value;
  }
  // An actor written with no text (`actor:`, a list), or an `agreements:` that is no mapping: the
  // schema's error. Blank, not missing, so not also reported unset at every term.
  const writtenAgreements = merged.agreements;
  if (agreements.actor === undefined && writtenAgreements !== undefined && !(isPlainObject(writtenAgreements) && writtenAgreements.actor === undefined)) agreements.actor = '';
  // A UUID is one id whatever its letters' case; the services write them in lower case, as compared.
  for (const part of [review, agreements]) if (typeof part.organization_id === 'string') part.organization_id = part.organization_id.toLowerCase();

  // No actor, and none selected among environments that set one: said where it is missing (probe OJ-4).
  const actorInEnvironments = agreements.actor === undefined && input.env === undefined && isPlainObject(resolvedEnvironments) ? Object.keys(resolvedEnvironments).filter((name) => { const actor = get(get(resolvedEnvironments[name], 'agreements'), 'actor'); return typeof actor === 'string' && actor.trim() !== ''; }) : [];
  result.project = {
    root: input.root,
    file,
    version: 1,
    ...(input.env !== undefined ? { environment: input.env } : {}),
    review,
    agreements,
    ...(actorInEnvironments.length > 0 ? { actorInEnvironments } : {}),
    concurrency: typeof merged.concurrency === 'number' ? merged.concurrency : 8,
    ...(typeof merged.max_rps === 'number' ? { maxRps: merged.max_rps } : {}),
    // The keys are the kinds' prune keys; the schema (made from the registry) lists them.
    prune: isPlainObject(merged.prune) ? Object.fromEntries(Object.entries(merged.prune).map(([k, v]) => [k, v === true])) : {},
    safety: { max_delete_fraction: typeof get(merged.safety, 'max_delete_fraction') === 'number' ? (get(merged.safety, 'max_delete_fraction') as number) : 0.3 },
    vars,
    positions,
  };
  const filled = filledSettings(raw, selected, (name) => origins.get(name));
  if (Object.keys(filled).length > 0) result.project.filledFrom = filled;
  return result;
}

/** The settings a service can show wrong (ENV_OVERRIDES', the path style, the agreements organization) that placeholders fill this run, each with where to change it. */
function filledSettings(raw: unknown, selected: string | undefined, origin: VariableOrigins): Record<string, string> {
  const filled: Record<string, string> = {};
  for (const pointer of [...ENV_OVERRIDES.map((o) => `/${o.section}/${o.key}`), '/review/path_style', '/agreements/organization_id']) {
    const own = selected === undefined ? undefined : valueAt(raw, `${selected}${pointer}`);
    const written = own ?? valueAt(raw, pointer);
    const hint = typeof written === 'string' && holdsPlaceholder(written) ? withVariableHint<{ hint?: string }>({}, written, origin).hint : undefined;
    if (hint !== undefined) filled[pointer] = hint;
  }
  return filled;
}

/** An organization id in any letter case, a URL with or without its final `/` (its host in any case): one setting. */
function sameSetting(key: string, a: string, b: string): boolean {
  if (key !== 'url') return a.trim().toLowerCase() === b.trim().toLowerCase();
  // As the service sees it: the host in any case, a default port written or not.
  return canonicalUrl(a.trim()) === canonicalUrl(b.trim());
}

/** The DOCKET_* variables that are set (empty or only spaces counts as unset, as for the keys), checked like the keys they replace. */
async function envOverrides(processEnv: Record<string, string | undefined>): Promise<{
  values: { variable: string; section: 'review' | 'agreements'; key: string; value: string }[];
  diagnostics: Diagnostic[];
}> {
  const values: { variable: string; section: 'review' | 'agreements'; key: string; value: string }[] = [];
  const diagnostics: Diagnostic[] = [];
  const keys = keysOf(processEnv);
  for (const o of ENV_OVERRIDES) {
    const value = processEnv[o.variable];
    if (value === undefined || value.trim() === '') continue;
    // A URL or organization id is written into docket.lock.json, plans and the test cache's folder
    // names: a key inside one would be committed, or shared as a CI artifact (never quoted here).
    // Escaped too: a key in a URL's path may be written with escapes (`%2B`, `%2f`, `%5F`).
    const key = keys.find(([, k]) => holdsKey(value, k));
    if (key) {
      // The same value in both: which one was set to the other's cannot be told (an organization id pasted as the key, or the reverse).
      const same = value.trim() === key[1];
      diagnostics.push({
        severity: 'error',
        code: 'api-key-in-setting',
        message: same
          ? `environment variables ${o.variable} and ${key[0]} hold the same value: one of them is set to the other's (docket writes \`${o.section}.${o.key}\` into docket.lock.json and saved plans, and never an API key)`
          : `environment variable ${o.variable} holds the value of ${key[0]}, an API key: docket writes \`${o.section}.${o.key}\` into docket.lock.json and saved plans, where a commit would carry it`,
        hint: same
          ? `set ${key[0]} to the API key and ${o.variable} to ${o.key === 'url' ? "the service's URL" : "the organization's id (a UUID)"}`
          : `set ${o.variable} to ${o.key === 'url' ? "the service's URL, without the key" : "the organization's id (a UUID), not the key"}; ${KEYS_STAY_OUT}`,
      });
      continue;
    }
    const check = await subschemaValidator(PROJECT_SCHEMA, o.fragment);
    // As typed: the check narrows what it refuses to `never`.
    const typed: string = value;
    if (check(value)) {
      values.push({ variable: o.variable, section: o.section, key: o.key, value });
      continue;
    }
    // What docket's own URL rules say of it is more exact than the schema's "must be a URL" (a host not in ASCII).
    const problem = o.key === 'url' && /^https?:\/\/[^/]/i.test(typed.trim()) ? urlProblem(typed, `environment variable ${o.variable}`) : undefined;
    if (problem) diagnostics.push({ severity: 'error', code: problem.code, message: problem.message, ...(problem.hint ? { hint: problem.hint } : {}) });
    else
      diagnostics.push({
        severity: 'error',
        code: o.key === 'url' ? 'invalid-url' : 'invalid-value',
        // A URL's password or token is never quoted; an organization id is a value like any other (`abc#def` whole).
        message: `environment variable ${o.variable} must be ${o.what} (got ${settingShown(o.key, value)})`,
        // A line break pasted with the id into a CI variable is the likely slip: said as the URL's is (probe RG-4).
        hint: `it sets \`${o.section}.${o.key}\`; ${(o.key === 'url' && urlSpellingHint(value)) || (typed !== typed.trim() && check(typed.trim()) ? `remove the white space around it${/[\r\n]/.test(typed) ? ' (a line break pasted with it)' : ''}` : 'fix or unset it')}`,
      });
  }
  return { values, diagnostics };
}

/**
 * True when the selected environment replaces the top-level value at `pointer`: a leaf it sets, or
 * a subtree under a key it sets to something that is not a mapping. Such values are not resolved,
 * so a production-only `${env.X}` does not fail a staging run.
 */
function overriddenByEnv(raw: Plain, envBlock: unknown, pointer: string): boolean {
  if (!isPlainObject(envBlock) || pointer === '' || pointer.startsWith('/environments')) return false;
  let top: unknown = raw;
  let env: unknown = envBlock;
  for (const segment of splitPointer(pointer)) {
    if (!isPlainObject(env) || !Object.hasOwn(env, segment)) return false;
    top = get(top, segment);
    env = env[segment];
    if (!(isPlainObject(env) && isPlainObject(top))) return true;
  }
  return false;
}

/** Mappings merge key by key; anything else in `over` replaces. */
function deepMerge(base: Plain, over: Plain): Plain {
  const out: Plain = { ...base };
  for (const [k, v] of Object.entries(over)) {
    out[k] = isPlainObject(v) && isPlainObject(out[k]) ? deepMerge(out[k] as Plain, v) : v;
  }
  return out;
}

/** The environments but the selected one, each with its plain variables (the top level's under its own). */
function namedOtherEnvironments(raw: Plain, selected: string | undefined): { name: string; vars: Record<string, string> }[] {
  const top = plainVars(get(raw, 'vars'));
  const environments = get(raw, 'environments');
  return Object.entries(isPlainObject(environments) ? environments : {})
    .filter(([name]) => name !== selected)
    .map(([name, block]) => ({ name, vars: layeredVars(top, plainVars(get(block, 'vars'))) }));
}

/**
 * An environment's variables over the top level's, without a copy of the top level's for each:
 * thousands of variables times hundreds of environments took a minute and gigabytes (probe VE-3).
 * Read as a plain record is (a lookup, `in`, Object.hasOwn, Object.keys); never written.
 */
function layeredVars(top: Record<string, string>, own: Record<string, string>): Record<string, string> {
  if (Object.keys(own).length === 0) return top;
  const holds = (name: string | symbol): name is string => typeof name === 'string' && (Object.hasOwn(own, name) || Object.hasOwn(top, name));
  const valueOf = (name: string): string => (Object.hasOwn(own, name) ? own[name]! : top[name]!);
  return new Proxy(own, {
    get: (_target, name) => (holds(name) ? valueOf(name) : undefined),
    has: (_target, name) => holds(name),
    getOwnPropertyDescriptor: (_target, name) => (holds(name) ? { value: valueOf(name), writable: true, enumerable: true, configurable: true } : undefined),
    ownKeys: () => [...new Set([...Object.keys(top), ...Object.keys(own)])],
  });
}

/**
 * What is wrong with a service URL as written or resolved (`what` names it). No http(s) scheme
 * (`api commonpaper com`, `ftp://…`) is named as the other URL problems are, not as the schema's
 * `url` (probe LN-3); a scheme in capitals or spaces around it, with how to fix it (second read
 * SR75-6); not a tab or another control character around it: that is said as itself, once.
 */
function urlValueProblem(value: string, what: string): UrlProblem | undefined {
  const spelling = /[\u0000-\u001f\u007f-\u009f]/.test(value) ? undefined : urlSpellingHint(value);
  return /^https?:\/\//.test(value) && !spelling ? urlProblem(value, what) : { code: 'invalid-url', message: `${what} must be an http(s) URL (got ${settingShown('url', value)})`, ...(spelling ? { hint: spelling } : {}) };
}

/** Whether a resolved value still holds a placeholder (one its variable's value was written with). */
function heldPlaceholder(value: unknown): boolean {
  return typeof value === 'string' && holdsPlaceholder(value);
}

/** The most other runs' hints added to one problem's: the rest are counted. */
const MORE_RUNS_NAMED = 3;

/** Per problem said by several runs: its first hint, the other runs' hints added, how many more. */
type OtherRuns = Map<Diagnostic, { first: string; added: string[]; more: number }>;

/**
 * `d` among `diagnostics`, or, where the same problem is said at the same place already (another
 * run's variable gives the same value), its hint added to that one's (`merged` keeps what was
 * added), up to MORE_RUNS_NAMED, the rest counted.
 */
function sayWithOtherRuns(diagnostics: Diagnostic[], d: Diagnostic, merged: OtherRuns): void {
  const same = diagnostics.find((e) => e.file === d.file && e.line === d.line && e.col === d.col && e.code === d.code && e.message === d.message);
  if (!same) {
    diagnostics.push(d);
    return;
  }
  if (d.hint === undefined) return;
  if (same.hint === undefined) {
    same.hint = d.hint;
    return;
  }
  let runs = merged.get(same);
  if (!runs) merged.set(same, (runs = { first: same.hint, added: [], more: 0 }));
  // "it is filled in from …" said once, when it is the same.
  const filledFrom = /^it is filled in from "[^"]*": /.exec(d.hint)?.[0];
  const hint = filledFrom !== undefined && runs.first.startsWith(filledFrom) ? d.hint.slice(filledFrom.length) : d.hint;
  if (runs.first === d.hint || runs.added.includes(hint)) return;
  if (runs.added.length < MORE_RUNS_NAMED) runs.added.push(hint);
  else runs.more++;
  same.hint = [runs.first, ...runs.added.map((h) => `also ${h}`), ...(runs.more > 0 ? [`and in ${runs.more} more run${runs.more === 1 ? '' : 's'}`] : [])].join('; ');
}

/** A schema's `type` error asking for an object or an array only: what no placeholder's text can become. */
function wantsOnlyCollections(params: Record<string, unknown>): boolean {
  const types = ([] as unknown[]).concat(params.type);
  return types.length > 0 && types.every((t) => t === 'object' || t === 'array');
}

/**
 * The service URLs the runs this one does not make would use, where a `${var.…}` makes them: each
 * other environment's (its own `url` or the top level's, with its variables), and with an
 * environment selected the top level's with the top-level variables. One that cannot be resolved
 * offline (an unset `${env.…}`) is left to the run that selects it.
 */
function urlsThroughOtherVariables(raw: Plain, selected: string | undefined, processEnv: Record<string, string | undefined>): { pointer: string; value: string; problem: UrlProblem; environment: string | null }[] {
  const runs: { name: string | undefined; block: unknown; vars: Record<string, string> }[] = namedOtherEnvironments(raw, selected).map((e) => ({ name: e.name, block: get(get(raw, 'environments'), e.name), vars: e.vars }));
  if (selected !== undefined) runs.push({ name: undefined, block: undefined, vars: plainVars(get(raw, 'vars')) });
  const out: { pointer: string; value: string; problem: UrlProblem; environment: string | null }[] = [];
  for (const run of runs) {
    for (const section of ['review', 'agreements'] as const) {
      const own = get(get(run.block, section), 'url');
      if (run.name !== undefined && own === undefined && overriddenByEnv(raw, run.block, `/${section}/url`)) continue;
      const pointer = run.name !== undefined && own !== undefined ? `/environments/${escapePointer(run.name)}/${section}/url` : `/${section}/url`;
      const written = own ?? get(get(raw, section), 'url');
      if (typeof written !== 'string' || !variablesIn(written).some((name) => name.startsWith('var.'))) continue;
      const resolved = interpolateString(written, { vars: run.vars, env: processEnv, allowVars: true });
      if (resolved.problems.length > 0 || resolved.unresolved || holdsPlaceholder(resolved.value)) continue;
      // Not an http(s) URL at all (`ftp://…`, plain text) is refused as the run that selects it would (probe VC-2).
      const problem = urlValueProblem(resolved.value, `\`${section}.url\` ${run.name === undefined ? 'without `--env`' : `in environment ${showName(run.name)}`}`);
      if (problem) out.push({ pointer, value: resolved.value, problem, environment: run.name ?? null });
    }
  }
  return out;
}

/** The first variable a setting is written through (\`${var.NAME}\`) that `own`, an environment's own \`vars:\`, sets, if any. */
function variableSetBy(written: unknown, own: Record<string, string>): string | undefined {
  if (typeof written !== 'string') return undefined;
  return variablesIn(written).find((name) => name.startsWith('var.') && Object.hasOwn(own, name.slice('var.'.length)))?.slice('var.'.length);
}

/** No variable at all: every `${var.X}` of a value is found, with its place and name (here and in a resource file). */
export const NO_VARS: Record<string, string> = Object.create(null) as Record<string, string>;

function plainVars(block: unknown): Record<string, string> {
  return Object.fromEntries(Object.entries(isPlainObject(block) ? block : {}).filter(([, v]) => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean').map(([k, v]) => [k, String(v)]));
}

/** Every variable name the top level or any environment defines, each with no value, for an unknown `--env`. */
function namesDefinedAnywhere(raw: unknown): { vars: Record<string, string>; names: Set<string> } {
  const vars: Record<string, string> = Object.create(null) as Record<string, string>;
  const environments = get(raw, 'environments');
  const blocks = [get(raw, 'vars'), ...(isPlainObject(environments) ? Object.values(environments).map((e) => get(e, 'vars')) : [])];
  for (const block of blocks) if (isPlainObject(block)) for (const name of Object.keys(block)) vars[name] = '';
  return { vars, names: new Set(Object.keys(vars)) };
}

/** A URL or organization id as messages quote it: a URL's secrets hidden, and a value shaped like an API key described, not quoted (keyShaped). */
function settingShown(key: string, value: string): string {
  return keyShapedShown(value, key === 'url' ? shown : quoteValue);
}
