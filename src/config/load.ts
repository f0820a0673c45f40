/**
 * Loads a configuration directory: finds and parses every YAML file, reads docket.yaml, tells
 * resources from data files, substitutes variables and validates each resource against its kind's
 * schema. Every problem is collected as a diagnostic; nothing stops at the first one.
 */
import { access, lstat, readdir, stat } from 'node:fs/promises';
import { initBlocker } from './init-blocker.js';
import { shellPath } from '../util/shell-word.js';
import { constants, existsSync } from 'node:fs';
import { readRegularFileSync } from '../util/special-file.js';
import path from 'node:path';
import { compareDiagnostics, type Diagnostic } from '../diagnostics.js';
import { isPlainObject } from '../util/plain.js';
import { holdsResource, namedFiles, reachedThroughLinks, resolveDataPath, type DocketInput } from './data-files.js';
import { discoverYamlFiles, invalidUtf8, type Discovered, isTestFile, isYamlName, readFiles, unreadableFile, withoutDocumentBoms } from './discover.js';
import { isNotReadName } from './not-read.js';
import { holdsKey, keyInComments, keyInFileText, keysOf } from './api-keys.js';
import { VARIABLE_NAME, interpolateString, interpolateTree, keysHeld, placeOf, placeholderPlace, typedByField, type InterpolationContext } from './interpolate.js';
import { cutList, loadProjectSettings, NO_VARS } from './project.js';
import { hintVariables, schemaDiagnostics, type VariableOrigins } from './schema.js';
import { documentValidators, type DocumentValidator } from './document-validators.js';
import { didYouMean, suggest } from './suggest.js';
import { quoteValue, showJson, showName, showPath } from './quote.js';
import { isProjectFile, PROJECT_FILES } from './project-files.js';
import { characterAt, textDiagnostic, textDiagnostics, withoutEchoesOf, writtenTextProblems } from './text-hygiene.js';
import { taggedIn, writtenIn } from './written-number.js';
import { linesIn } from './source-lines.js';
import { valueAt } from './value-at.js';
import type { LoadedConfig, ResourceDoc } from './types.js';
import { escapePointer, pointerToPath, type ParsedDocument, type ParsedFile } from './yaml-positions.js';
import { parseYamlFile } from './yaml-read.js';
import { sha256 } from '../engine/canonical.js';
import { ConfigError, DocketError } from '../errors.js';
import { isPermissionDenied } from '../util/permission.js';
import { pushAll } from '../util/push-all.js';

export { schemasDir } from './schema.js';

export interface KindSchemaInfo {
  /** The `kind:` value, e.g. `Playbook`. */
  yamlKind: string;
  /** File name in schemas/. */
  schema: string;
  /** Fields of this kind's documents that name data files (relative to the document). */
  dataFiles?: Readonly<Record<string, unknown>>;
  /** `kind:` values people write for this kind (lower case letters only, singular), with what to write instead. */
  otherNames?: Readonly<Record<string, string>>;
}

export interface LoadOptions {
  dir: string;
  /** The environment selected with --env. */
  env?: string;
  kinds: KindSchemaInfo[];
  /** Defaults to process.env. */
  processEnv?: Record<string, string | undefined>;
  /** Keep the digest of each YAML file's text as read (`textDigests`): pull tells a file edited while it ran. */
  digests?: boolean;
  /** A run against the in-process emulator, which uses no service URL. */
  emulator?: boolean;
  /** Read docket.yaml alone (export: the source's other files say nothing of what it writes). */
  projectOnly?: boolean;
}

export interface LoadResult {
  /** Undefined when docket.yaml itself could not be loaded; check `diagnostics` for errors before using it. */
  config?: LoadedConfig;
  /** Errors and warnings, sorted by file, line and column. */
  diagnostics: Diagnostic[];
  /** YAML data files (named by a resource's data field), already read and parsed, by root-relative path. */
  yamlData: Map<string, YamlData>;
  /** The files (root-relative) that declare a resource: no data file may be one, not even through a link. */
  resourceFiles?: Set<string>;
  /** docket.yaml and the test files (and `*.yaml` links to them), root-relative: no data file may be one either. */
  docketInputs?: Map<string, { is: DocketInput; file: string }>;
  /** With `digests`: each YAML file's text as read, as `textDigest` gives it. */
  textDigests?: Map<string, string>;
  /** Every data file a resource names in any environment (through its variables), root-relative. */
  anyEnvironmentFiles?: Set<string>;
}

export interface YamlData {
  text: string;
  parsed: ParsedFile;
}

export { PROJECT_FILES } from './project-files.js';
const PROJECT_FILE_NAME = /^docket\.ya?ml$/;

/**
 * Reads a file again when a position is asked for. Made here, not inline in loadConfig: a closure
 * there would share loadConfig's scope and keep every file's text alive for the whole run.
 */
function rereader(root: string, file: string): () => string {
  // Without its byte-order marks, as the first read decoded it (the file's, and those that start its
  // documents): positions found in the text read again are those of the text first read.
  return () => {
    try {
      return withoutDocumentBoms(readRegularFileSync(path.join(root, file)).toString('utf8'), file);
    } catch (error) {
      // Gone since it was read (a branch switched while a plan read the services): no position to give.
      throw new DocketError('files-changed', `${showPath(file)} changed while docket ran: it can no longer be read (${(error as NodeJS.ErrnoException).code ?? 'unreadable'})`, 'run the command again');
    }
  };
}

export async function loadConfig(options: LoadOptions): Promise<LoadResult> {
  const root = path.resolve(options.dir);
  const processEnv = options.processEnv ?? process.env;

  const missing = await checkRoot(root, options.dir);
  if (missing) return { diagnostics: [missing], yamlData: new Map() };

  // Test files are read and checked by src/testing (and by `validate` through it).
  const found = options.projectOnly ? await discoverYamlFiles(root, PROJECT_FILE_NAME, false) : await discoverYamlFiles(root);
  const discovered = found.files.filter((f) => !isTestFile(f));
  const read = readFiles(root, discovered);
  const encodingProblems: Diagnostic[] = [...found.problems];
  const files: string[] = [];
  const texts: string[] = [];
  discovered.forEach((file, i) => {
    const r = read[i]!;
    if ('text' in r) {
      files.push(file);
      texts.push(r.text);
    } else {
      encodingProblems.push('invalidAt' in r ? invalidUtf8(file, r) : unreadableFile(file, r.unreadable));
    }
  });
  // One reader per file: the positions and a kind's message (ResourceDoc.text) read it again alike.
  const rereaders = files.map((file) => rereader(root, file));
  const parsed = files.map((file, i) => parseYamlFile(texts[i]!, file, rereaders[i]));

  const diagnostics: Diagnostic[] = [...encodingProblems];
  const projectFile = PROJECT_FILES.find((f) => files.includes(f) || discovered.includes(f));
  if (!projectFile) {
    // checkRoot saw one: it is a link out of the directory, unreadable, or it vanished.
    const aboutIt = diagnostics.filter((d) => (PROJECT_FILES as readonly string[]).includes(d.file ?? ''));
    return { diagnostics: aboutIt.length > 0 ? aboutIt : [noProjectFile(options.dir, root)], yamlData: new Map() };
  }
  for (const other of PROJECT_FILES) {
    if (other !== projectFile && files.includes(other)) {
      diagnostics.push({
        severity: 'error',
        code: 'duplicate-project-file',
        message: `both ${projectFile} and ${other} exist; docket reads ${projectFile}`,
        file: other,
        line: 1,
        col: 1,
        hint: `merge them into ${projectFile} and delete ${other}`,
      });
    }
  }

  const projectParsed = parsed.find((p) => p.file === projectFile);
  if (!projectParsed) return { diagnostics: diagnostics.sort(compareDiagnostics), yamlData: new Map() }; // not UTF-8: reported above
  const projectResult = await loadProjectSettings({
    root,
    file: projectFile,
    documents: projectParsed.documents,
    text: texts[files.indexOf(projectFile)],
    unreadable: projectParsed.diagnostics.some((d) => d.severity === 'error'),
    processEnv,
    ...(options.env !== undefined ? { env: options.env } : {}),
    ...(options.emulator ? { emulator: true } : {}),
  });
  pushAll(diagnostics, projectParsed.diagnostics);
  pushAll(diagnostics, projectResult.diagnostics);
  keyAsideIn(projectFile, texts[files.indexOf(projectFile)], processEnv, diagnostics);
  // An environment docket.yaml does not define has no values: the files read with none would be
  // refused for what that environment would fill in (`title` must not be empty). Said alone (probe JL-3).
  if (projectResult.diagnostics.some((d) => d.code === 'unknown-environment')) return { diagnostics: diagnostics.sort(compareDiagnostics), yamlData: new Map() };

  const kindsByName = new Map(options.kinds.map((k) => [k.yamlKind, k]));
  const { named: dataFiles, maybeNamed } = namedDataFiles(parsed, kindsByName, { vars: projectResult.vars, env: processEnv, allowVars: true, ...(projectResult.brokenVars ? { brokenVars: projectResult.brokenVars } : {}) }, projectResult.otherVars);
  // A YAML data file named through a link (a folder `current` leading to `defs`) is the file found there too (probe HV-8).
  const reach = reachedThroughLinks(root);
  for (const named of [...dataFiles]) if (isYamlName(named)) dataFiles.add(reach(named));
  // One named in another letter case (its missing-file error says which) is that data file, not a
  // stray resource: one mistake, said once (probe OO-5).
  const byLetterCase = new Map(parsed.map((f) => [f.file.toLowerCase(), f.file]));
  for (const named of [...dataFiles]) {
    const other = isYamlName(named) ? byLetterCase.get(named.toLowerCase()) : undefined;
    if (other !== undefined) dataFiles.add(other);
  }
  // A `*.yaml` link to a file read already is refused, but one a resource names as its data file
  // (a definition named through it, probe HV-8): that is the file, read as its kind reads it.
  const twice = linkedTwice(found);
  for (const [file, problem] of twice) {
    if (dataFiles.has(file) || maybeNamed(file)) twice.delete(file);
    else diagnostics.push(problem);
  }
  // Only the schemas of the kinds the files use are loaded (and of a template, its types').
  const documentValues = parsed.flatMap((file) => file.documents.filter((doc) => doc.ok || doc.readable).map((doc) => doc.value));
  const used = new Set(documentValues.map((value) => (isPlainObject(value) ? value.kind : undefined)));
  const validators = await documentValidators(options.kinds.filter((k) => used.has(k.yamlKind)), documentValues);

  const documents: ResourceDoc[] = [];
  const yamlData = new Map<string, YamlData>();
  parsed.forEach((file, i) => {
    if (dataFiles.has(file.file)) yamlData.set(file.file, { text: texts[i]!, parsed: file });
  });
  // A document docket cannot read as a resource (a syntax error, an unknown kind) may name data files:
  // one its text mentions is not also said to be no resource, a knock-on of that error.
  // (A data file's problems are its kind's: it names no files.)
  const unreadTexts = texts.filter((_, i) => !isProjectFile(parsed[i]!.file) && !dataFiles.has(parsed[i]!.file) && !readAsResources(parsed[i]!, kindsByName));
  const perhapsNamed = (file: string): boolean => unreadTexts.some((text) => mentionsFile(text, path.posix.basename(file)));
  const takenForData: ParsedDocument[] = [];
  parsed.forEach((file, i) => {
    // Data files (a custom template's definition, say) belong to the kind that names them, which reads and checks them.
    // A file holding a resource stays one (readDataFiles refuses naming it), even one that names itself.
    if (isProjectFile(file.file) || (dataFiles.has(file.file) && !holdsResource(file)) || twice.has(file.file)) return;
    pushAll(diagnostics, file.diagnostics);
    // Every placeholder (and every `$$` escape) has a `$`: a file without one has nothing to substitute.
    const placeholders = texts[i]!.includes('$');
    const text = rereaders[i]!;
    // Asked only of a document with no kind: a file of resources never is.
    let perhaps: boolean | undefined;
    const named = (): boolean => (perhaps ??= perhapsNamed(file.file));
    // A file a variable whose \`${env.X}\` this run lacks may name (another environment's, or this
    // run's own left unset): its own YAML errors, a typo of \`kind\`, a list, are still said.
    const takeForData = (doc: ParsedDocument): boolean => maybeNamed(file.file) && takenForData.push(doc) > 0;
    let onlyTests: boolean | undefined;
    const testsOnly = (): boolean => (onlyTests ??= file.documents.every((d) => isPlainObject(d.value) && isTestKind(d.value.kind)));
    for (const doc of file.documents) {
      const resource = checkDocument(doc, { kindsByName, root, testsOnly, validators, vars: projectResult.vars, ...(projectResult.brokenVars ? { brokenVars: projectResult.brokenVars } : {}), ...(projectResult.otherEnvironments ? { otherEnvironments: projectResult.otherEnvironments } : {}), ...(projectResult.definedIn ? { definedIn: projectResult.definedIn } : {}), ...(projectResult.varOrigin ? { varOrigin: projectResult.varOrigin } : {}), processEnv, diagnostics, placeholders, text: texts[i]!, perhapsNamed: named, takeForData });
      if (!resource) continue;
      // Set, not spread: the position getters stay lazy.
      resource.text = text;
      documents.push(resource);
    }
    keyAsideIn(file.file, texts[i], processEnv, diagnostics);
  });

  if (takenForData.length > 0) diagnostics.push(takenForDataWarning(takenForData, [...kindsByName.keys()]));
  if (projectFile !== PROJECT_FILES[0]) namedProjectFile(diagnostics, projectFile);
  diagnostics.sort(compareDiagnostics);
  // With errors the config still carries every resource document, so the kinds' own rules can
  // report their problems in the same run; callers must not use it to talk to a service.
  const resourceFiles = new Set(parsed.filter((file) => !isProjectFile(file.file) && holdsResource(file)).map((file) => file.file));
  const docketInputs = docketInputsOf(found);
  const textDigests = options.digests ? new Map(files.map((file, i) => [file, sha256(texts[i]!)])) : undefined;
  if (!projectResult.project) return { diagnostics, yamlData, resourceFiles, docketInputs, ...(textDigests ? { textDigests } : {}) };
  return { config: { project: projectResult.project, documents, ...(projectResult.varOrigin ? { varOrigin: projectResult.varOrigin } : {}) }, diagnostics, yamlData, resourceFiles, docketInputs, anyEnvironmentFiles: dataFiles, ...(textDigests ? { textDigests } : {}) };
}

/**
 * Throws what loadConfig says of a directory that is no docket configuration: asked before a
 * command writes into it (the apply lock), which made a mistyped `-C` folder (probe LJ-1).
 */
export async function refuseNoConfiguration(dir: string): Promise<void> {
  const root = path.resolve(dir);
  const problem = await checkRoot(root, dir);
  if (problem) throw new ConfigError([problem], undefined, root);
}

/** The one diagnostic for a directory that is not a docket configuration, or undefined. */
async function checkRoot(root: string, shown: string): Promise<Diagnostic | undefined> {
  const failed = (message: string, hint: string): Diagnostic => ({ severity: 'error', code: 'missing-project-file', message, hint });
  // A control character in what was typed is shown escaped: left out, the message names another path.
  const said = showPath(shown);
  let reason: string | undefined;
  const info = await stat(root).catch((error: NodeJS.ErrnoException) => void (reason = error.code));
  if (!info) {
    if (isPermissionDenied(reason)) return failed(`configuration directory ${said} cannot be reached (permission denied on a folder of its path)`, 'check the permissions of its folders for the user that runs docket');
    // A link to nothing: `docket init` there would refuse it too.
    if (reason === 'ENOENT' && (await lstat(root).then((l) => l.isSymbolicLink(), () => false))) return failed(`configuration directory ${said} is a symbolic link to something that does not exist`, 'point the link at the configuration directory, or -C at the directory itself');
    if (reason === 'ELOOP') return failed(`configuration directory ${said} is (or is below) a symbolic link that loops`, 'point -C at the directory itself, or fix the link');
    if (reason === 'ENOTDIR') return failed(`configuration directory ${said} cannot be reached: a folder on its path is a file`, 'point -C at the directory that holds docket.yaml');
    return failed(`configuration directory ${said} does not exist`, `create one with \`docket init ${shellPath(shown)}\`, or point -C at an existing one`);
  }
  if (!info.isDirectory()) {
    if (!info.isFile()) return failed(`${said} is not a folder (a named pipe or a device); -C takes the configuration directory`, 'point -C at the directory that holds docket.yaml');
    // docket.yaml itself: its folder is meant; another file says nothing of where the configuration is.
    const folderHint = isProjectFile(path.basename(shown)) ? `use -C ${showPath(path.dirname(shown) || '.')}` : 'point -C at the directory that holds docket.yaml';
    return failed(`${said} is a file; -C takes the configuration directory`, folderHint);
  }
  // Not listable: every file below it is read, and its docket.yaml could not be told from none.
  const refused = await access(root, constants.R_OK | constants.X_OK).then(
    () => undefined,
    (error: NodeJS.ErrnoException) => error.code,
  );
  if (isPermissionDenied(refused)) return failed(`configuration directory ${said} cannot be read (permission denied)`, 'make it readable (and searchable) by the user that runs docket: it reads every file below it');
  if (await projectFileIn(root)) return undefined;
  const unreadable = await unreadableProjectFile(root);
  if (unreadable) return unreadable;
  const folder = (await Promise.all(PROJECT_FILES.map((name) => stat(path.join(root, name)).then((f) => (f.isDirectory() ? name : undefined), () => undefined)))).find(Boolean);
  if (folder) {
    return { severity: 'error', code: 'missing-project-file', message: `${path.join(shown, folder)} is a folder, not a file`, hint: `move the folder aside and write ${folder} as a file (\`docket init ${shellPath(shown)}\` writes a starter)` };
  }
  // Written in another case (a repository made on macOS, whose file system took it): said, not "none".
  const miscased = await miscasedProjectFile(root);
  if (miscased) return failed(`${said} has no docket.yaml but a ${miscased}: docket reads docket.yaml (or docket.yml), in lower case`, `rename it: mv ${shellPath(path.join(shown, miscased))} ${shellPath(path.join(shown, 'docket.yaml'))}`);
  return noProjectFile(shown, root, await enclosingProject(root, shown));
}

/** A docket.yaml that is there but is no file to read (a link that dangles or loops, a named pipe): said so, not "no docket.yaml". */
async function unreadableProjectFile(root: string): Promise<Diagnostic | undefined> {
  for (const name of PROJECT_FILES) {
    const file = path.join(root, name);
    if (!(await lstat(file).then(() => true, () => false))) continue;
    const error = await stat(file).then(
      (info) => (info.isFile() || info.isDirectory() ? undefined : Object.assign(new Error(name), { code: 'ENOTREGULAR' })),
      (failed: unknown) => failed,
    );
    if (error) return unreadableFile(name, error);
  }
  return undefined;
}

async function projectFileIn(dir: string): Promise<string | undefined> {
  for (const name of PROJECT_FILES) {
    const f = await stat(path.join(dir, name)).catch(() => undefined);
    if (f?.isFile()) return name;
  }
  return undefined;
}

/** The project file of a configuration `root` lies inside (as the user would write its path), if any. */
async function enclosingProject(root: string, shown: string): Promise<string | undefined> {
  // Not across a dot-folder or node_modules, which that configuration never reads: init is the hint there (probe KX-5).
  const found = await enclosingConfiguration(root, true);
  return found && path.join(shown, path.relative(root, found.dir), found.name);
}

/**
 * The nearest folder above `root` holding a project file, and that file's name. With `readsIt`,
 * only a configuration that reads `root`'s files counts: none does across a dot-folder or
 * node_modules, which discovery skips.
 */
export async function enclosingConfiguration(root: string, readsIt = false): Promise<{ dir: string; name: string } | undefined> {
  for (let below = root, dir = path.dirname(root); dir !== below; below = dir, dir = path.dirname(dir)) {
    if (readsIt && isNotReadName(path.basename(below))) return undefined;
    const name = await projectFileIn(dir);
    if (name) return { dir, name };
  }
  return undefined;
}

/** The project file written in another case (`Docket.yaml`), which a case-blind file system reads and Linux does not. */
export async function miscasedProjectFile(root: string): Promise<string | undefined> {
  return (await readdir(root).catch(() => [] as string[])).find((name) => /^docket\.ya?ml$/i.test(name) && !isProjectFile(name));
}

function noProjectFile(shown: string, root: string, enclosing?: string): Diagnostic {
  // init offered only where it would make one (probe HH-3): one in its way is said instead.
  const blocked = enclosing ? undefined : initBlocker(root);
  const init = `docket init${shown === '.' || shown === '' ? '' : ` ${shellPath(shown)}`}`;
  return {
    severity: 'error',
    code: 'missing-project-file',
    message: `${shown} has no docket.yaml, so it is not a docket configuration directory`,
    // Run from a folder of a configuration (playbooks/): init there would start a second one inside it.
    hint: enclosing
      ? `it is a folder of the configuration of ${enclosing}: pass -C ${path.dirname(enclosing)}`
      : blocked
        ? `point -C at the directory that holds docket.yaml (\`${init}\` would refuse here: ${showPath(path.relative(root, blocked.path) || blocked.path)} ${blocked.why})`
        : `run \`${init}\` to create one, or point -C at the directory that holds docket.yaml`,
  };
}

/**
 * `*.yaml` links to a resource file the configuration reads already, under its own name or through
 * another link: read again, every document in it would be declared twice, and duplicate-resource
 * would name the link without saying what it is (probe PM-6). A link to docket.yaml or a test file
 * is docketInputsOf's.
 */
function linkedTwice(found: Discovered): Map<string, Diagnostic> {
  const problems = new Map<string, Diagnostic>();
  if (found.links.size === 0) return problems;
  const readAs = new Map<string, string>();
  // The file under its own name first: it is the one read, whichever link sorts before it.
  const order = [...found.files.filter((f) => !found.links.has(f)), ...found.files.filter((f) => found.links.has(f))];
  for (const file of order) {
    const target = found.links.get(file) ?? file;
    if (isProjectFile(target) || isTestFile(target) || isProjectFile(file) || isTestFile(file)) continue;
    const first = readAs.get(target);
    if (first === undefined) {
      readAs.set(target, file);
      continue;
    }
    problems.set(file, {
      severity: 'error',
      code: 'linked-twice',
      message: `${file} is a symbolic link to ${quoteValue(target)}, which the configuration reads already${first === target ? '' : ` (through ${quoteValue(first)})`}: every document in it would be declared twice`,
      file,
      line: 1,
      col: 1,
      hint: 'remove the link, or give it a name that does not end in .yaml or .yml',
    });
  }
  return problems;
}

/** The discovered files that are docket's input but no resource (docket.yaml, test files), and links to them. */
function docketInputsOf(found: Discovered): Map<string, { is: DocketInput; file: string }> {
  const inputOf = (file: string): DocketInput | undefined => (isProjectFile(file) ? 'project' : isTestFile(file) ? 'test' : undefined);
  const inputs = new Map<string, { is: DocketInput; file: string }>();
  for (const file of found.files) {
    const target = found.links.get(file) ?? file;
    const is = inputOf(file) ?? inputOf(target);
    if (is) inputs.set(file, { is, file: inputOf(file) ? file : target });
  }
  return inputs;
}

/**
 * Files named by a resource's data fields (what its kind declares), as paths relative to the root.
 * Before interpolation: a name with a placeholder is left to readDataFiles, after it.
 */
function namedDataFiles(parsed: ParsedFile[], kinds: Map<string, KindSchemaInfo>, ctx: InterpolationContext, otherEnvironmentsVars: readonly Record<string, string>[] = []): { named: Set<string>; maybeNamed: (path: string) => boolean } {
  const named = new Set<string>();
  /** Paths another environment names through a variable it takes from \`${env.X}\` (set where that environment runs): any text there. */
  const patterns = new WildPaths();
  // A variable broken in this run (its \`${env.X}\` unset) is not broken in another environment.
  const others = otherEnvironmentsVars.map((vars): InterpolationContext => ({ vars, env: ctx.env, allowVars: true }));
  // This run's names with its healthy variables filled in and its broken ones left as written.
  const healthy: InterpolationContext | undefined = ctx.brokenVars?.size ? { vars: { ...ctx.vars, ...Object.fromEntries([...ctx.brokenVars].map((n) => [n, `\${var.${n}}`])) }, env: ctx.env, allowVars: true } : undefined;
  for (const file of parsed) {
    for (const doc of file.documents) {
      if (!isPlainObject(doc.value) || typeof doc.value.kind !== 'string') continue;
      const fields = kinds.get(doc.value.kind)?.dataFiles ?? {};
      // A file named through a variable (`definition_file: ${var.cover}`) is as much data as one
      // named outright, whichever environment's value names it.
      const bodies = holdsPlaceholderIn(doc.value, fields) ? [ctx, ...others].map((c) => withNamesResolved(doc.value as Record<string, unknown>, fields, c)) : [doc.value];
      for (const [i, body] of bodies.entries()) {
        for (const f of namedFiles(file.file, body, fields)) {
          if (f.problem !== undefined) continue;
          if (!f.value.includes('${')) named.add(f.path);
          // Where a variable, not the document, holds an \`${env.X}\` unset in this run (the
          // document's own is an error of its own): another environment's (set where it runs), or
          // this run's own (said once, where the variable is defined), either may name any file.
          else if (!String(doc.value[f.field]).includes('${env.')) {
            const wild = i > 0 ? f.path : healthy ? resolveDataPath(file.file, interpolateString(String(doc.value[f.field]), healthy).value) : undefined;
            const pattern = wild === undefined ? undefined : wildPattern(wild, i > 0 ? ENV_PLACEHOLDER : varPlaceholder(ctx.brokenVars!));
            if (pattern) patterns.add(pattern, wild!);
          }
        }
      }
    }
  }
  return { named, maybeNamed: (path) => patterns.test(path) };
}

/**
 * Wildcard paths, indexed by their file name where it is written out (\`covers/${var.region}/c12.yaml\`
 * under \`c12.yaml\`): ten thousand templates may each name one, and each document with no kind asks.
 */
class WildPaths {
  private readonly byName = new Map<string, Set<string>>();
  private readonly rest = new Set<string>();
  private compiled = new Map<string, RegExp>();

  add(pattern: string, path: string): void {
    const name = path.slice(path.lastIndexOf('/') + 1);
    const bucket = name.includes('${') ? this.rest : (this.byName.get(name) ?? this.byName.set(name, new Set()).get(name)!);
    bucket.add(pattern);
    this.compiled.clear();
  }

  test(path: string): boolean {
    const name = path.slice(path.lastIndexOf('/') + 1);
    return this.matches(`name:${name}`, this.byName.get(name), path) || this.matches('rest', this.rest, path);
  }

  private matches(key: string, patterns: ReadonlySet<string> | undefined, path: string): boolean {
    if (!patterns || patterns.size === 0) return false;
    let re = this.compiled.get(key);
    if (!re) this.compiled.set(key, (re = new RegExp(`^(?:${[...patterns].join('|')})$`)));
    return re.test(path);
  }
}

const ENV_PLACEHOLDER = new RegExp(`\\$\\{env\\.${VARIABLE_NAME}\\}`);
const WHOLE_VARIABLE_NAME = new RegExp(`^${VARIABLE_NAME}$`);

/** The placeholders of these variables. */
function varPlaceholder(names: ReadonlySet<string>): RegExp {
  // A name no placeholder can spell (a key docket.yaml's schema refuses) is left out: it names no file.
  const valid = [...names].filter((n) => WHOLE_VARIABLE_NAME.test(n));
  return new RegExp(`\\$\\{var\\.(?:${valid.length > 0 ? valid.join('|') : '(?!)'})\\}`);
}

/** A path holding only \`wild\` placeholders, as a pattern where each stands for any text (a folder too: a value may hold a \`/\`). */
function wildPattern(path: string, wild: RegExp): string | undefined {
  const parts = path.split(new RegExp(wild.source, 'g'));
  if (parts.length < 2 || parts.some((p) => p.includes('${'))) return undefined;
  return parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('.*');
}

function holdsPlaceholderIn(body: Record<string, unknown>, fields: Readonly<Record<string, unknown>>): boolean {
  return Object.keys(fields).some((field) => typeof body[field] === 'string' && (body[field] as string).includes('${'));
}

/** The document with its data fields' placeholders filled in (one left as written when it cannot be: its error is said later). */
function withNamesResolved(body: Record<string, unknown>, fields: Readonly<Record<string, unknown>>, ctx: InterpolationContext): Record<string, unknown> {
  const out = { ...body };
  for (const field of Object.keys(fields)) {
    const value = body[field];
    if (typeof value !== 'string') continue;
    const resolved = interpolateString(value, ctx);
    if (resolved.problems.length === 0 && !resolved.unresolved) out[field] = resolved.value;
  }
  return out;
}

interface CheckContext {
  kindsByName: Map<string, KindSchemaInfo>;
  /** The configuration directory, and whether the file holds tests alone (a test's hint: testFileHint). */
  root?: string;
  testsOnly?: () => boolean;
  validators: Map<string, DocumentValidator>;
  vars: Record<string, string> | undefined;
  brokenVars?: ReadonlySet<string>;
  /** With an environment selected, the others: a `${var.X}` must be defined in each of them too. */
  otherEnvironments?: readonly { name: string; vars: Record<string, string> }[];
  /** The environments but the selected one that define a variable in their own `vars` (ProjectResult.definedIn). */
  definedIn?: (name: string) => { names: string[]; every: boolean };
  /** Where each variable got its value this run (ProjectResult.varOrigin). */
  varOrigin?: VariableOrigins;
  processEnv: Record<string, string | undefined>;
  diagnostics: Diagnostic[];
  /** False when the file has no `$`, so no substitution to make. */
  placeholders: boolean;
  /** The file's text, to quote a value as written. */
  text: string;
  /** A document docket could not read mentions the file: it may be a data file that one names. */
  perhapsNamed?: () => boolean;
  /** Takes a document with no kind for a data file, when a name this run cannot spell out (a variable's \`${env.X}\` unset here) can make the file's path. */
  takeForData?: (doc: ParsedDocument) => boolean;
}

/**
 * A key written in a comment or a key name of `file`, aside from the values that hold one (each
 * refused at itself): said once per file, at the first.
 */
function keyAsideIn(file: string, text: string | undefined, env: Record<string, string | undefined>, diagnostics: Diagnostic[]): void {
  if (text === undefined) return;
  const found = diagnostics.some((d) => d.file === file && d.code === 'api-key-in-file') ? keyInComments(file, text, env) : keyInFileText(file, text, env);
  if (found) diagnostics.push(found);
}

/**
 * The API keys `text` may hold once substituted. Made here, not as a closure in `checkDocument`: that would share its
 * scope with the returned document's getters and keep every file's text alive.
 */
function keysWritten(env: Record<string, string | undefined>, text: string, placeholders: boolean): [string, string][] {
  // A backslash may be a double-quoted escape (`\x73`, `\u0073`, a line joined by `\`): the value
  // holds a key its text does not show (probe IP).
  return keysOf(env).filter(([, key]) => placeholders || text.includes('\\') || holdsKey(text, key));
}

/** Whether `text` holds `name` as a whole file name (`definition_file: a.cover.yaml`, not `data.yaml` for `a.yaml`). */
function mentionsFile(text: string, name: string): boolean {
  for (let at = text.indexOf(name); at !== -1; at = text.indexOf(name, at + 1)) {
    const before = text[at - 1];
    const after = text[at + name.length];
    if ((before === undefined || /[\s'"/:=,[{]/.test(before)) && (after === undefined || /[\s'"#,\]}]/.test(after))) return true;
  }
  return false;
}

/** Whether every document of a file was read, each with a kind docket knows. */
function readAsResources(file: ParsedFile, kindsByName: ReadonlyMap<string, unknown>): boolean {
  if (file.diagnostics.some((d) => d.severity === 'error')) return false;
  return file.documents.every((doc) => (doc.ok || doc.readable) && (!isPlainObject(doc.value) || typeof doc.value.kind !== 'string' || kindsByName.has(doc.value.kind)));
}

/**
 * Documents with no kind in files a variable whose \`${env.X}\` this run lacks may name: one warning
 * for all of them (another environment's definitions may be thousands), at the first.
 */
function takenForDataWarning(docs: readonly ParsedDocument[], kinds: readonly string[]): Diagnostic {
  const files = [...new Set(docs.map((d) => d.file))];
  const more = files.length > 1 ? ` (so are ${files.length - 1} more: ${files.slice(1, 4).join(', ')}${files.length > 4 ? ', …' : ''})` : '';
  return {
    severity: 'warning',
    code: 'not-a-resource',
    message: `this YAML document has no \`kind\`: docket takes it for a data file a variable names in another environment, or while its \`\${env.X}\` is unset${more}`,
    file: docs[0]!.file,
    ...docs[0]!.start,
    hint: `if one is a resource, add \`kind:\` (one of ${kinds.join(', ')}); a resource without it is left out of the plan`,
  };
}

/** The kinds of `docket test`'s documents, which only *.test.yaml files hold. */
function isTestKind(kind: unknown): boolean {
  return kind === 'PlaybookTest' || kind === 'TemplateTest';
}

/**
 * Where a test written in a resource file goes: the file renamed, when tests are all it holds and
 * no file has the name; else a file of its own (probe PM-4: renamed, the file's resources were refused
 * as tests, or an existing test file overwritten).
 */
function testFileHint(file: string, ctx: CheckContext): string {
  const renamed = file.replace(/(\.test|\.tests)?\.ya?ml$/i, '.test.yaml');
  if (ctx.root === undefined) return 'move it to a file named *.test.yaml';
  const taken = existsSync(path.join(ctx.root, renamed));
  // A file of tests alone is renamed whole (second read SR82B-5).
  if (ctx.testsOnly?.() === true && !taken) return `rename ${file} to ${renamed}`;
  return taken ? `move it into ${renamed} (after a \`---\` line) or another file named *.test.yaml` : `move it to a file of its own named *.test.yaml, such as ${renamed}`;
}

/** One document of a resource file: its kind, its variables, its schema. */
function checkDocument(doc: ParsedDocument, ctx: CheckContext): ResourceDoc | undefined {
  const { diagnostics } = ctx;
  if (!doc.ok && !doc.readable) return undefined; // the YAML errors are reported; a partial document would only add noise
  const kinds = [...ctx.kindsByName.keys()];
  const value = doc.value;
  if (!isPlainObject(value) || value.kind === undefined || value.kind === null) {
    // `Kind:` or `knd:` is a typo of the key, said at it.
    const typo = isPlainObject(value) && value.kind === undefined ? Object.keys(value).find((k) => suggest(k, ['kind']) !== undefined) : undefined;
    if (typo !== undefined) {
      diagnostics.push({
        severity: 'error',
        code: 'not-a-resource',
        message: `this YAML document has no \`kind\`: unknown key ${showName(typo)}${didYouMean(typo, ['kind'])}`,
        ...doc.positions.at(`/${escapePointer(typo)}`),
        hint: `every YAML file below the configuration directory must be a docket resource (\`kind:\` one of ${kinds.join(', ')}) or a data file named by one`,
      });
      return undefined;
    }
    // `kind:` written with nothing after it: the key is there, its value is not.
    if (isPlainObject(value) && value.kind === null) {
      diagnostics.push({
        severity: 'error',
        code: 'not-a-resource',
        message: '`kind` has no value',
        // At the value (`~`, `null`), which is what is wrong; one not written is at its key (probe NF-6).
        ...doc.positions.valueAt('/kind'),
        hint: `write the kind after \`kind:\` (one of ${kinds.join(', ')})`,
      });
      return undefined;
    }
    if ((isPlainObject(value) || value === null || value === undefined) && ctx.perhapsNamed?.() === true) return undefined;
    // Said, not refused (once for all such files: loadConfig): a data file in the environment that
    // sets the variable, or a resource that lost its \`kind\`.
    // A YAML data file is a custom template's definition, which has no \`name\`: a document with one
    // is a resource that lost its kind, said as any other.
    if ((isPlainObject(value) ? !('name' in value) : value === null || value === undefined) && ctx.takeForData?.(doc) === true) return undefined;
    // A list of resources (`- kind: Member`) reads as a list, not as the resources it holds: say so, not "no `kind`".
    const listed = Array.isArray(value) && value.some((item) => isPlainObject(item) && item.kind !== undefined);
    // A document of only `~` or `null` is one as much as `hello` is (empty documents never get here: probe HT-4).
    const what = Array.isArray(value) ? `a list (got ${showJson(value)})` : isPlainObject(value) || value === undefined ? undefined : `a single value (got ${typeof value === 'string' ? quoteValue(value) : showJson(value)})`;
    diagnostics.push({
      severity: 'error',
      code: 'not-a-resource',
      message: `this YAML document ${what ? `is ${what}, not a mapping with \`kind\`` : 'has no `kind`'}; every YAML file below the configuration directory must be a docket resource or a data file named by one`,
      file: doc.file,
      ...doc.start,
      hint: listed
        ? 'write each resource as a document of its own, without the leading `- ` (separate documents in one file with `---`)'
        : (PROJECT_FILES as readonly string[]).includes(doc.file.split('/').at(-1)!)
          ? `this is the project file of another configuration (${doc.file.split('/').slice(0, -1).join('/')}/), which this one reads as its own: move that configuration out of this directory, or into a folder whose name starts with "."`
          : `add \`kind:\` (one of ${kinds.join(', ')}), name the file from a resource's \`file\`/\`*_file\` field, or move it out of the directory (dot-folders are skipped)`,
    });
    return undefined;
  }
  const kind = value.kind;
  const info = typeof kind === 'string' ? ctx.kindsByName.get(kind) : undefined;
  if (!info) {
    // A test document in a file not named as a test file is read as a resource.
    const test = isTestKind(kind);
    // The kind says how the rest is read, placeholders included: it is read first, as written.
    const placeholder = typeof kind === 'string' && kind.includes('${');
    // `Rules`, `standard_template` and `Standard Template` are the same other name.
    const spelled = typeof kind === 'string' ? kind.toLowerCase().replace(/[^a-z]/g, '').replace(/s$/, '') : undefined;
    const otherName = spelled === undefined ? undefined : [...ctx.kindsByName.values()].map((k) => k.otherNames?.[spelled]).find((n) => n !== undefined);
    diagnostics.push({
      severity: 'error',
      code: 'unknown-kind',
      message: test
        ? `${kind} is a test, and only files named *.test.yaml hold tests`
        : `unknown kind ${typeof kind === 'string' ? showName(kind) : `${showJson(kind)} (\`kind\` is the name of one, such as \`Playbook\`)`}${placeholder ? ': `kind` takes no placeholder' : otherName ? `: ${otherName}` : typeof kind === 'string' ? didYouMean(kind, kinds) : ''}`,
      ...doc.positions.valueAt('/kind'),
      path: 'kind',
      hint: test ? testFileHint(doc.file, ctx) : `${placeholder ? 'write the kind itself; ' : ''}kinds: ${kinds.join(', ')}`,
    });
    return undefined;
  }

  const interpolated = ctx.placeholders
    ? interpolateTree(value, '', {
        ctx: { vars: ctx.vars, env: ctx.processEnv, allowVars: true, ...(ctx.brokenVars ? { brokenVars: ctx.brokenVars } : {}) },
        isPlain: (p) => doc.positions.isPlain(p),
      })
    : { value, problems: [], unresolved: new Set<string>(), wholes: new Map<string, string>(), written: new Map<string, string>() };
  // Only a file whose text holds a key, an escape or a placeholder (a `var` may hold one), is walked; a
  // `${env.X}` holding one is refused above and kept as written.
  const keys = keysWritten(ctx.processEnv, ctx.text, ctx.placeholders);
  const lineOf = linesIn(ctx.text);
  const valueProblems: Diagnostic[] = [];
  for (const problem of [...interpolated.problems, ...(keys.length > 0 ? keysHeld(interpolated.value, keys, ctx.text) : [])]) {
    const { message, hint } = undefinedElsewhereWords(problem, ctx.definedIn);
    const at =
      problem.code === 'undefined-variable' || problem.placeholder !== undefined
        ? placeholderPlace(placeOf(problem, doc.positions), stringAt(value, problem.pointer), problem.code === 'undefined-variable' ? problem.variable : undefined, lineOf, problem.placeholder, problem.occurrence)
        : placeOf(problem, doc.positions);
    valueProblems.push({ severity: 'error', code: problem.code, message, ...at, ...(hint ? { hint } : {}) });
  }
  pushAll(diagnostics, valueProblems);

  if (ctx.placeholders && ctx.otherEnvironments && ctx.vars !== undefined) pushAll(diagnostics, undefinedElsewhere(value, doc, ctx, interpolated.problems, lineOf));

  const body = interpolated.value as Record<string, unknown>;
  const validate = ctx.validators.get(info.yamlKind)!(value);
  const written = writtenIn(lineOf);
  // A character the file writes around a placeholder is the file's, said where it is written; one a
  // variable brings in, of the variable (probe XF-3).
  const ownCharacters = interpolated.written.size > 0 ? writtenTextProblems(interpolated.written) : [];
  const ownPaths = new Set(ownCharacters.map((problem) => pointerToPath(problem.pointer)));
  const controlCharacters = textDiagnostics(body, doc.positions, { written, unresolved: interpolated.unresolved, lineOf }).filter((d) => d.code === 'unsafe-number' || d.path === undefined || !ownPaths.has(d.path));
  const before = diagnostics.length;
  pushAll(diagnostics, controlCharacters);
  hintVariables(diagnostics, before, doc.file, interpolated.written, ctx.varOrigin);
  for (const problem of ownCharacters) {
    diagnostics.push(textDiagnostic(problem, characterAt(problem, doc.positions.valueAt(problem.pointer), lineOf)));
  }
  // A placeholder's value takes the type its field wants, then the document is checked again.
  if (!validate(body) && (!typedByField(body, validate.errors, interpolated.wholes) || !validate(body))) {
    pushAll(diagnostics, withoutEchoesOf([...controlCharacters, ...valueProblems], schemaDiagnostics(validate.errors, { positions: doc.positions, documentLabel: info.yamlKind, unresolved: interpolated.unresolved, written, tagged: taggedIn(lineOf), fromVariables: interpolated.written, filledAs: interpolated.wholes, ...(ctx.varOrigin ? { varOrigin: ctx.varOrigin } : {}) })));
  }
  // The start is worked out only if asked for (it may need the full parser: yaml-read.ts).
  return {
    kind: info.yamlKind,
    file: doc.file,
    index: doc.index,
    get line() {
      return doc.start.line;
    },
    get col() {
      return doc.start.col;
    },
    body,
    positions: doc.positions,
    ...(interpolated.unresolved.size > 0 ? { unresolved: interpolated.unresolved } : {}),
    ...(interpolated.wholes.size > 0 ? { wholes: interpolated.wholes } : {}),
    ...(interpolated.written.size > 0 ? { written: interpolated.written } : {}),
  };
}

/** Environment names as a message lists them (cutList). */
function environmentList(names: readonly string[]): string {
  return cutList(names.map((e) => showName(e)));
}

/**
 * A variable's words name the project file as docket.yaml, where `vars:` is: said as the file this
 * configuration has (`docket.yml`, probe DE-6). Only theirs: other messages quote what files hold.
 */
function namedProjectFile(diagnostics: Diagnostic[], projectFile: string): void {
  const named = (text: string): string => text.replaceAll(PROJECT_FILES[0]!, projectFile);
  for (const d of diagnostics) {
    if (d.code !== 'undefined-variable') continue;
    d.message = named(d.message);
    if (d.hint !== undefined) d.hint = named(d.hint);
  }
}

/**
 * A problem's words, or, for a `${var.X}` only other environments define, words that say which:
 * `--env` is not the fix for a file every environment reads, unless all of them define it.
 */
function undefinedElsewhereWords(problem: { code: string; message: string; hint?: string; variable?: string }, definedIn: CheckContext['definedIn']): { message: string; hint: string | undefined } {
  const found = problem.code === 'undefined-variable' && problem.variable !== undefined ? definedIn?.(problem.variable) : undefined;
  if (!found || found.names.length === 0) return { message: problem.message, hint: problem.hint };
  const where = environmentList(found.names);
  return found.every
    ? {
        message: `undefined variable \`var.${problem.variable!}\`: docket.yaml defines it in every environment (${where}), not at the top level, and no --env selects one`,
        hint: 'select one with --env, or define it under `vars:` in docket.yaml too (a value the environments override)',
      }
    : {
        message: `undefined variable \`var.${problem.variable!}\`: docket.yaml defines it only in environment${found.names.length === 1 ? '' : 's'} ${where}`,
        hint: "the files are every environment's: define it under `vars:` in docket.yaml (a value each environment may override), or under each environment's `vars`",
      };
}

/** The text at a pointer of a document's value, if text is there. */
function stringAt(value: unknown, pointer: string): string | undefined {
  const at = valueAt(value, pointer);
  return typeof at === 'string' ? at : undefined;
}

/** The names the selected environment has that some other environment lacks, worked out once per run. */
const lackingByRun = new WeakMap<object, Set<string>>();
function lackingElsewhere(ctx: CheckContext): Set<string> {
  const others = ctx.otherEnvironments ?? [];
  let lacking = lackingByRun.get(others);
  if (!lacking) {
    lacking = new Set<string>();
    // A variable whose value is broken is said where it is defined, once: the other environments
    // leave it out of theirs, and its every use read as undefined there (probe LC-1).
    for (const name of Object.keys(ctx.vars ?? {})) if (!ctx.brokenVars?.has(name) && others.some((o) => !Object.hasOwn(o.vars, name))) lacking.add(name);
    lackingByRun.set(others, lacking);
  }
  return lacking;
}

/**
 * A `${var.X}` the selected environment defines and another does not: the files are every
 * environment's, so each must be able to fill them in. Said once per place, naming the environments.
 */
function undefinedElsewhere(value: unknown, doc: ParsedDocument, ctx: CheckContext, reported: readonly { pointer: string; variable?: string }[], lineOf: (line: number) => string | undefined): Diagnostic[] {
  const keyOf = (p: { pointer: string; variable?: string }): string => `${p.pointer}\u0000${p.variable ?? ''}`;
  // Each place and name once: a name the selected environment lacks too is reported already.
  const here = new Set(reported.filter((p) => p.variable !== undefined).map(keyOf));
  // Usually every environment has every name the selected one has (they override the top level's):
  // then no document can use one another lacks, and none is read again.
  const lacking = lackingElsewhere(ctx);
  if (lacking.size === 0) return [];
  const missing = new Map<string, { pointer: string; name: string; environments: string[] }>();
  // Every `${var.X}` of the document by place, found once (none is defined here), then looked up in
  // each environment: not the document filled in again per environment (200 of them took 17 s).
  const seen = new Set<string>();
  const uses = interpolateTree(value, '', { ctx: { vars: NO_VARS, env: ctx.processEnv, allowVars: true }, isPlain: (p) => doc.positions.isPlain(p) }).problems.filter(
    (p): p is typeof p & { variable: string } => {
      // A name used twice in one value is one place (its environments said once).
      if (p.code !== 'undefined-variable' || p.variable === undefined || !lacking.has(p.variable) || here.has(keyOf(p)) || seen.has(keyOf(p))) return false;
      seen.add(keyOf(p));
      return true;
    },
  );
  if (uses.length === 0) return [];
  for (const other of ctx.otherEnvironments ?? []) {
    for (const p of uses) {
      if (Object.hasOwn(other.vars, p.variable)) continue;
      const key = keyOf(p);
      const entry = missing.get(key) ?? { pointer: p.pointer, name: p.variable, environments: [] };
      entry.environments.push(other.name);
      missing.set(key, entry);
    }
  }
  return [...missing.values()].map(({ pointer, ...m }) => ({
    severity: 'error' as const,
    code: 'undefined-variable',
    message: `variable \`var.${m.name}\` is not defined in environment${m.environments.length === 1 ? '' : 's'} ${environmentList(m.environments)}`,
    // At its placeholder, as an undefined one here is (probe KF-3).
    ...placeholderPlace(doc.positions.valueAt(pointer), stringAt(value, pointer), m.name, lineOf),
    ...(pointer ? { path: pointerToPath(pointer) } : {}),
    hint: `the files are every environment's: define it under \`vars:\` in docket.yaml, or under each environment's \`vars\``,
  }));
}

/** A problem `resourceTextChecker`'s check found, with the index of the document it is in. */
export type DocumentProblem = Diagnostic & { index: number };

/**
 * Checks a resource file's text as loadConfig checks each of its documents (YAML, kind, variables,
 * schema, text), then, for a document that passes, as its kind checks it (`kindCheck`), without the
 * cross-file checks: pull checks what it would write before writing it.
 */
export async function resourceTextChecker(options: {
  kinds: readonly KindSchemaInfo[];
  vars: Record<string, string> | undefined;
  processEnv: Record<string, string | undefined>;
  /** The kind's checks of one document, with the data files' texts as they would be written. */
  kindCheck?: (doc: ResourceDoc, dataTexts: ReadonlyMap<string, string>) => Promise<readonly Diagnostic[]>;
}): Promise<(file: string, text: string, dataTexts?: ReadonlyMap<string, string>) => Promise<DocumentProblem[]>> {
  const kindsByName = new Map(options.kinds.map((k) => [k.yamlKind, k]));
  // Whatever a written file will hold: every kind's whole schema.
  const validators = await documentValidators(options.kinds);
  return async (file, written, dataTexts = new Map()) => {
    // Read as a file is read (decodeStrict): a byte-order mark may start any document of it.
    const text = withoutDocumentBoms(written, file);
    const parsed = parseYamlFile(text, file);
    // A YAML problem is its document's, by where it is (a tag in one document blocks no other: probe HV-3).
    const documentAt = (line: number | undefined): number => (line === undefined ? -1 : (parsed.documents.findLast((d) => d.start.line <= line)?.index ?? -1));
    const problems: DocumentProblem[] = parsed.diagnostics.map((d) => ({ ...d, index: documentAt(d.line) }));
    for (const doc of parsed.documents) {
      const diagnostics: Diagnostic[] = [];
      const checked = checkDocument(doc, { kindsByName, validators, vars: options.vars, processEnv: options.processEnv, diagnostics, placeholders: text.includes('$'), text });
      // The text as it would be written: a kind's message quoting a value as written reads it there, not in the file as it is.
      if (checked) checked.text = () => text;
      // A document its schema refuses is refused already: the kind's checks would only add noise.
      if (checked && options.kindCheck && !diagnostics.some((d) => d.severity === 'error')) pushAll(diagnostics, await options.kindCheck(checked, dataTexts));
      pushAll(problems, diagnostics.map((d) => ({ ...d, index: doc.index })));
    }
    return problems.filter((p) => p.severity === 'error');
  };
}
