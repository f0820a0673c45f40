/**
 * What names docket's schema files and their precompiled validators, without loading ajv: the
 * address each schema is known by, the sub-schemas validated on their own, and where the files are.
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DocketError } from '../errors.js';
import picomatch from 'picomatch';

/**
 * The address a schema file is known by inside ajv. The files themselves carry no `$id`, so an
 * editor resolves their relative `$ref`s (`templates/nda.schema.json`) next to the file it read.
 */
export const SCHEMA_BASE = 'https://docket.dev/schemas/';

/**
 * Marks a rule of a schema file that is there for editors, such as "exactly one of" the ways a
 * document gives its content: docket's kind says it itself, in its own words, so docket's
 * validators take the part as always true (ajv-setup.ts).
 */
export const EDITORS_ONLY_MARK = 'docket: for editors; docket checks this itself and says it in its own words';

/** Marks the placeholder alternative as docket compiles it (ajv-setup.ts), so schema.ts drops its errors. */
export const PLACEHOLDER_MARK = 'docket: a value is checked once its placeholders are filled in';

/**
 * The `$comment` of a name's schema: its length pattern is for editors; docket says name-too-long
 * itself (engine/desired.ts), counting characters as a person reads them.
 */
export const NAME_LENGTH_MARK = 'docket: longer than 200 characters is name-too-long, which docket says counting characters as a person reads them';
/** Not blank: some character other than spaces and those that show as nothing (as docket's blank-name). */
const NOT_BLANK = '(?=[\\s\\S]*[^\\s\\p{Default_Ignorable_Code_Point}\\u2800])';
/** A character of one line without control characters (as docket's control-character). */
const ONE_LINE_CHARACTER = '[^\\u0000-\\u001f\\u007f-\\u009f\\u2028\\u2029]';

/**
 * The editors' check of a name, as a pattern: one line without control characters (as docket's
 * control-character), not blank (spaces and characters that show as nothing, as docket's
 * blank-name), and its length, which yaml-language-server counts in UTF-16 units
 * for `maxLength` (an emoji is two) but by character in a pattern (read with the `u` flag).
 */
export const NAME_LENGTH_PATTERN = `^${NOT_BLANK}${ONE_LINE_CHARACTER}{0,200}$`;
export const NAME_LENGTH_MESSAGE = 'A name is one line of text without control characters, not blank, and at most 200 characters (an emoji counts as one).';

/**
 * The editors' check of another one-line value (a reference to a custom term or an attachment), as
 * docket's control-character has it. docket's validators drop it (ajv-setup.ts): docket says it
 * itself, at the character.
 */
export const ONE_LINE_PATTERN = `^${ONE_LINE_CHARACTER}*$`;
export const ONE_LINE_MESSAGE = 'One line of text, without tabs, line breaks or control characters.';

/** The editors' check of a former name (`renamed_from`): one line, and not blank, as docket's blank-name (probe NS-1). Dropped as ONE_LINE_PATTERN is. */
export const FORMER_NAME_PATTERN = `^${NOT_BLANK}${ONE_LINE_CHARACTER}*$`;
export const FORMER_NAME_MESSAGE = 'A former name is one line of text without control characters, and not blank.';

/** The editors' check of a variable's value in docket.yaml: `${env.NAME}` in it is filled in, `${var.NAME}` refused, as docket's invalid-placeholder (probe NS-3). */
export const VARIABLE_VALUE_PATTERN = '^(?![\\s\\S]*(?:^|[^$])\\$\\{var\\.)';

/**
 * An e-mail address as docket checks it (ajv-formats' `email` format, written for editors, which
 * check `format: email` by a rule of their own: `a@b.c` refused, `"q"@x.com` or `ü@x.com` taken).
 * The schema files carry this pattern; docket compiles it back into the format (ajv-setup.ts), whose
 * refusal it words itself.
 */
export const EMAIL_PATTERN = "^[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+(?:\\.[a-zA-Z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?\\.)+[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?$";
export const EMAIL_MESSAGE = 'Must be an e-mail address: letters, digits and !#$%&\'*+/=?^_`{|}~- before the @ (dots between them), a domain of letters, digits and hyphens after it.';

/**
 * Marks a part of a schema file that is there for editors: docket's kind checks that value itself
 * (an inline custom template definition, with the definition's own rules and wording), so docket's
 * validators take it as a plain object and do not say each problem twice.
 */
export const KIND_CHECKED_MARK = "docket: checked by its kind, at the exact line, with the definition's own rules";

/** Every mark above: a `docket:` comment that is none of them is a mistake in a schema file (ajv-setup.ts). */
export const SCHEMA_MARKS: ReadonlySet<string> = new Set([EDITORS_ONLY_MARK, PLACEHOLDER_MARK, NAME_LENGTH_MARK, KIND_CHECKED_MARK]);

/** Sub-schemas validated on their own (a `DOCKET_*` variable is checked like the key it replaces). */
export const SUBSCHEMAS: Readonly<Record<string, readonly string[]>> = {
  'docket.schema.json': ['#/$defs/httpUrl', '#/$defs/review/properties/organization_id'],
};

/** The export name of a sub-schema's validator in a precompiled module. */
export function subschemaExport(fragment: string): string {
  return `at_${fragment.replace(/[^A-Za-z0-9]+/g, '_')}`;
}

/** The precompiled module of a schema file, relative to dist/validators/ (CommonJS: see the build script). */
export function validatorModule(name: string): string {
  return `${name.replace(/\//g, '__')}.cjs`;
}

/**
 * Schema files with a validator per value of a key besides the whole (ajv-setup.ts
 * `schemaVariants`): a template is judged by its type's alone, so a run loads the code of the types
 * its files use, not of all ten (1.5 MB).
 */
export const VARIANT_KEYS: Readonly<Record<string, string>> = {
  'template.schema.json': 'type',
};

/** The validator of schema file `name` for the documents whose variant key is `value`: `template.schema.json@CSA`. */
export function variantName(name: string, value: string): string {
  return `${name}@${encodeURIComponent(value)}`;
}

/** The build's list of the values each schema file has a variant validator for, in dist/validators/. */
export const VARIANT_INDEX = 'variants.json';

/** The schema file a validator name is made from (itself, or a variant's file). */
export function schemaFileOf(validatorName: string): string {
  return validatorName.split('@')[0]!;
}

let schemasDirCache: string | undefined;

/**
 * Absolute path of the repository's `schemas/` folder. Found by walking up from this module, so it
 * works from `src/` under vitest and from `dist/` after tsc (and from an installed package).
 */
export function schemasDir(): string {
  if (schemasDirCache) return schemasDirCache;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(dir, 'schemas');
    if (existsSync(path.join(dir, 'package.json')) && existsSync(candidate) && statSync(candidate).isDirectory()) {
      schemasDirCache = candidate;
      return candidate;
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new DocketError('schemas-not-found', 'cannot find the schemas/ folder of the docket installation');
    dir = parent;
  }
}

/**
 * A comment yaml-language-server takes for a modeline (as its `isModeline`: `# $schema:` too), and
 * `#yaml-language-server:`, which it ignores and docket takes out of what it publishes all the same.
 */
export const MODELINE_COMMENT = /^#[ \t]*(?:yaml-language-server[ \t]*:|\$schema:)/;

/** The folder a `$schema` modeline should point into, and whether docket is found there now. */
export interface SchemaHome {
  dir: string;
  /** False: the path is right for a repository that pins docket, but nothing is installed there yet. */
  installed: boolean;
}

/**
 * Where the `# yaml-language-server: $schema=…` lines that `init`, `export` and `pull` write
 * point, so they resolve for every teammate and in CI, not only on the machine that wrote them:
 * - inside docket's own package (its bundled examples), in its repository: its `schemas/`;
 * - anywhere else: `node_modules/docket/schemas/` of the repository that pins docket as a
 *   devDependency, the nearest folder at or above the configuration holding a `package.json`, no
 *   higher than its repository's root (else that root, the folder holding `.git`, else the
 *   configuration folder itself). `npm ci` puts the schemas there.
 */
export function schemaHome(configRoot: string): SchemaHome {
  const own = schemasDir();
  const root = path.resolve(configRoot);
  const pkg = path.dirname(own);
  // Not above the repository: a package.json or node_modules there (in the home folder, say) is no teammate's.
  const repository = nearestAbove(root, '.git');
  // Inside docket's package, in its own repository (a repository of its own nested in a docket checkout is not: probe NO-1).
  const inPackage = root === pkg || root.startsWith(`${pkg}${path.sep}`);
  if (inPackage && (repository === undefined || pkg === repository || pkg.startsWith(`${repository}${path.sep}`))) return { dir: own, installed: true };
  // Installed somewhere above (an npm workspace hoists it to the root): point there.
  const installed = nearestAbove(root, path.join('node_modules', 'docket', 'schemas'), repository);
  if (installed) return { dir: path.join(installed, 'node_modules', 'docket', 'schemas'), installed: true };
  const nearest = nearestAbove(root, 'package.json', repository);
  // A package of an npm or yarn workspace gets docket installed at the workspace's root (probe XB-1).
  const project = (nearest !== undefined ? workspaceRootOf(nearest, repository) : undefined) ?? nearest ?? repository ?? root;
  const dir = path.join(project, 'node_modules', 'docket', 'schemas');
  return { dir, installed: existsSync(dir) };
}

/** The folder above `pkg`, no higher than `top`, whose package.json lists `pkg` among its `workspaces`. */
function workspaceRootOf(pkg: string, top: string | undefined): string | undefined {
  if (pkg === top) return undefined;
  for (let dir = path.dirname(pkg); ; dir = path.dirname(dir)) {
    const member = path.relative(dir, pkg).split(path.sep).join('/');
    if (isWorkspace(workspacePatterns(path.join(dir, 'package.json')), member)) return dir;
    if (dir === top || path.dirname(dir) === dir) return undefined;
  }
}

/** A package.json's `workspaces` (a list, or yarn's `{ packages: [...] }`), or none when it has none or does not read. */
function workspacePatterns(file: string): string[] {
  if (!existsSync(file)) return [];
  try {
    const json: unknown = JSON.parse(readFileSync(file, 'utf8'));
    const field = json !== null && typeof json === 'object' ? (json as { workspaces?: unknown }).workspaces : undefined;
    const list = Array.isArray(field) ? field : field !== null && typeof field === 'object' ? (field as { packages?: unknown }).packages : undefined;
    return Array.isArray(list) ? list.filter((p): p is string => typeof p === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * Whether `workspaces` list the folder `member` as npm reads them: globs (`**` across no folder or
 * several, `{a,b}`), no `./` or final `/`, and a `!` pattern taking its matches back out (probe FE-1).
 */
function isWorkspace(patterns: readonly string[], member: string): boolean {
  const plain = (p: string): string => p.replace(/^\.\//, '').replace(/\/+$/, '');
  const included = patterns.filter((p) => !p.startsWith('!')).map(plain);
  const excluded = patterns.filter((p) => p.startsWith('!')).map((p) => plain(p.slice(1)));
  return included.length > 0 && picomatch(included)(member) && !(excluded.length > 0 && picomatch(excluded)(member));
}

/** The nearest folder at or above `start` holding `name`, looking no higher than `top` when given. */
function nearestAbove(start: string, name: string, top?: string): string | undefined {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, name))) return dir;
    if (dir === top || path.dirname(dir) === dir) return undefined;
  }
}
