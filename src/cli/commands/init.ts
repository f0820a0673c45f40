/**
 * `docket init [DIR]`: a starter configuration directory. It never overwrites a file: it refuses a
 * directory that already has a docket.yaml (or docket.yml), skips other files that exist, and only appends
 * `.docket/` to an existing .gitignore.
 */
import { showPath } from '../../config/quote.js';
import { shellWord } from '../../util/shell-word.js';
import { lstatSync, readFileSync, statSync } from 'node:fs';
import { isPlainObject } from '../../util/plain.js';
import { appendFile, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { parseDir, withCommon } from '../options.js';
import { Command, InvalidArgumentError, Option } from 'commander';
import { miscasedProjectFile, PROJECT_FILES } from '../../config/load.js';
import { nestedConfigurationWarning } from '../nested-configuration.js';
import { foreignYamlWarning } from '../foreign-yaml.js';
import { schemaHome } from '../../config/schema-names.js';
import { DocketError, UsageError } from '../../errors.js';
import { docketYaml, examplePlaybook } from '../init-templates.js';
import { GITIGNORE_ENTRY, GITIGNORE_FILE, gitignoreText } from '../../config/work-dir.js';
import { dirFlag, shellPath } from '../../util/shell-word.js';
import { initBlocker, STARTER_FILES } from '../../config/init-blocker.js';
import { makeFolders } from '../../util/make-folders.js';
import { sayDoneUnreported, type Io } from '../io.js';
import { escapeControl } from '../../render/sanitize.js';
import { deniedOrCode } from '../../util/permission.js';

interface InitOptions {
  quiet?: boolean;
}

interface Starter {
  path: string;
  content: (schemaRef: (schema: string) => string) => string;
}

const STARTERS: Starter[] = [
  { path: STARTER_FILES[0], content: (ref) => docketYaml(ref('docket.schema.json')) },
  { path: STARTER_FILES[1], content: (ref) => examplePlaybook(ref('playbook.schema.json')) },
];

export function initCommand(io: Io, setExit: (code: number) => void): Command {
  // The common flags are accepted everywhere (DESIGN: common options); init offers only -q.
  return withCommon(new Command('init'), { dir: false, env: false, services: false, color: false, verbose: false })
    .description('write a starter configuration directory (docket.yaml, an example playbook, .gitignore)')
    .argument('[DIR]', 'directory to write (created if missing)', parseDir, '.')
    // Every other command takes -C DIR: said as what init takes instead, not an unknown option (probe KK-9).
    .addOption(
      new Option('-C, --dir <DIR>').hideHelp().argParser((value: string) => {
        throw new InvalidArgumentError(`init takes the directory as its argument: docket init ${shellWord(value.startsWith('-') ? `./${value}` : value)}`);
      }),
    )
    .action(async (dir: string, opts: InitOptions) => {
      const root = resolve(io.cwd, dir);
      // Checked before anything is written: a half-written directory would refuse the next init.
      const blocked = initBlocker(root);
      if (blocked) {
        const shown = relative(io.cwd, blocked.path);
        throw new UsageError(`${showPath(shown === '' || shown.startsWith('..') ? blocked.path : shown)} ${blocked.why}; nothing was written`, 'move it aside, or pass another DIR');
      }
      // Either name is the project file: a docket.yaml beside a docket.yml would not validate.
      // lstat, not exists: a link to a missing file is there too (existsSync follows it, and said no).
      const existing = PROJECT_FILES.find((name) => isThere(join(root, name)));
      const validate = `run \`docket validate${dir === '.' ? '' : ` -C ${shellWord(dir.startsWith('-') ? `./${dir}` : dir)}`}\``;
      if (existing) {
        // One that is no file to read is said as what it is, as a starter's path is (probe ZB-3).
        const odd = unreadableProjectFile(join(root, existing));
        if (odd) throw new UsageError(`${showPath(join(dir, existing))} ${odd}; nothing was written`, 'remove it, or pass another DIR');
        throw new UsageError(`${showPath(join(dir, existing))} already exists; nothing was written`, `${validate} to check it, or pass another DIR`);
      }
      // One in another case is the project file of a case-blind file system: a second beside it would not validate.
      const miscased = await miscasedProjectFile(root);
      if (miscased) {
        throw new UsageError(`${showPath(join(dir, miscased))} already exists (docket reads docket.yaml, in lower case); nothing was written`, `rename it to docket.yaml, then ${validate.slice(4)} to check it`);
      }
      const done: [string, string][] = [];
      /** The starters this init wrote: one it kept is the user's, and checked as any file there (probe XG-1). */
      const wroteStarters: string[] = [];
      // Relative, into the repository's node_modules/docket: the comment resolves for everyone who installs it.
      const home = schemaHome(root);
      // What was written so far, undone when a later write fails: "nothing was written" holds then too.
      const undo: (() => Promise<unknown>)[] = [];
      try {
        for (const starter of STARTERS) {
          const file = join(root, starter.path);
          const ref = (schema: string) => posixPath(relative(dirname(file), join(home.dir, schema)));
          const written = await writeNew(file, starter.content(ref), undo);
          done.push([written ? 'created' : 'kept (exists)', showPath(join(dir, starter.path))]);
          if (written) wroteStarters.push(starter.path);
        }
        done.push([await ensureGitignore(join(root, GITIGNORE_FILE), undo), showPath(join(dir, GITIGNORE_FILE))]);
      } catch (error) {
        for (const step of undo.reverse()) await step().catch(() => undefined);
        const failed = error as NodeJS.ErrnoException;
        const at = failed.path ? relative(io.cwd, failed.path) || failed.path : dir;
        const why = failed.code === undefined ? failed.message : deniedOrCode(failed.code);
        const fix = failed.code === 'ENOSPC' || failed.code === 'EDQUOT' ? 'free some space' : failed.code === 'ENAMETOOLONG' ? 'give the folder a shorter name' : 'make the folder writable by the user that runs docket';
        throw new DocketError('write-failed', `cannot write ${showPath(at)} (${why}); nothing was written`, `${fix}, or pass another DIR`);
      }
      // The paths are what was typed: a control character in one is shown escaped, not sent to the terminal.
      if (!opts.quiet) io.stdout(escapeControl(`${table(done)}\n${nextSteps(dir)}${home.installed ? '' : editorNote(home.dir, io.cwd)}`));
      await sayDoneUnreported(io, `init wrote ${showPath(join(dir, 'docket.yaml'))} and the starter files`);
      const nested = await nestedConfigurationWarning(dir, root, io.cwd, showPath(join(dir, 'docket.yaml')));
      if (nested) io.stderr(`${nested}\n`);
      // What this init made, which the way out takes away first (probe PE-2): a .gitignore it created too (probe ZB-4).
      const made = done.filter(([what]) => what === 'created').map(([, path]) => path);
      const foreign = await foreignYamlWarning(dir, root, wroteStarters, made);
      if (foreign) io.stderr(`${foreign}\n`);
      setExit(0);
    });
}


/**
 * Where the modelines point, when nothing is installed there yet, and the install that puts docket
 * there: run in the folder whose node_modules they name, which need not be the current one (`init
 * my-config` outside any package: npm would make a package.json here; probe BF-1).
 */
function editorNote(schemas: string, cwd: string): string {
  const project = dirname(dirname(dirname(schemas)));
  const shown = (path: string): string => posixPath(relative(cwd, path)) || '.';
  const cd = shown(project) === '.' ? '' : `cd ${shellPath(shown(project))} && `;
  // `--prefix .`: npm would otherwise install into the nearest folder above with a package.json or node_modules (probe GK-1).
  // A team's repository just cloned pins docket already: it wants installing, not pinning (probe GF-4).
  if (pinsDocket(join(project, 'package.json'))) return `Editor completion: the files' \`$schema\` comments point at ${shown(schemas)}; its package.json pins docket, which is not installed yet (\`${cd}npm ci\`, or \`npm install\`).\n`;
  return `Editor completion: the files' \`$schema\` comments point at ${shown(schemas)}; pin docket there (\`${cd}npm install --save-dev --prefix . <docket: a git URL, or a path to a checkout where npm install has run; it is not on the npm registry>\`) so they resolve for everyone.\n`;
}

/** Whether the package.json at `path` names docket among its dependencies of any sort. */
function pinsDocket(path: string): boolean {
  try {
    const pkg: unknown = JSON.parse(readFileSync(path, 'utf8'));
    return isPlainObject(pkg) && ['dependencies', 'devDependencies', 'optionalDependencies'].some((k) => isPlainObject(pkg[k]) && Object.hasOwn(pkg[k], 'docket'));
  } catch {
    return false;
  }
}

/** Writes only when nothing is there (`wx` also closes the race with another writer); adds to `undo` what it made. */
async function writeNew(file: string, content: string, undo: (() => Promise<unknown>)[]): Promise<boolean> {
  const made = await makeFolders(dirname(file));
  if (made) undo.push(() => rm(made, { recursive: true, force: true }));
  try {
    await writeFile(file, content, { flag: 'wx' });
    undo.push(() => rm(file, { force: true }));
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    // `wx` made it, and the write into it failed (a full disk): an empty file is no "nothing written" (probe JT-6).
    await rm(file, { force: true }).catch(() => undefined);
    throw error;
  }
}

/** Creates .gitignore, or appends `.docket/` to one that lacks it. Returns the verb to print. */
async function ensureGitignore(file: string, undo: (() => Promise<unknown>)[]): Promise<string> {
  if (await writeNew(file, gitignoreText(), undo)) return 'created';
  const text = await readFile(file, 'utf8');
  if (ignoresWorkDir(text)) return 'kept (has .docket/)';
  await appendFile(file, `${text === '' || text.endsWith('\n') ? '' : '\n'}${GITIGNORE_ENTRY}\n`);
  return 'updated';
}

const WORK_DIR_PATTERNS: readonly string[] = ['.docket', '.docket/', '/.docket', '/.docket/'];

/**
 * Whether a .gitignore ignores `.docket/` as git reads it: a line's trailing spaces do not count,
 * its leading ones and other trailing whitespace do, and a later `!.docket/` takes it back (the last
 * line that names it wins, probe OF-5).
 */
function ignoresWorkDir(text: string): boolean {
  let ignored = false;
  for (const raw of text.split(/\r?\n/)) {
    // Trailing spaces only: git keeps a trailing tab as part of the pattern (second read SR80-7).
    const line = raw.replace(/ +$/, '');
    if (WORK_DIR_PATTERNS.includes(line)) ignored = true;
    else if (line.startsWith('!') && WORK_DIR_PATTERNS.includes(line.slice(1))) ignored = false;
  }
  return ignored;
}

function posixPath(p: string): string {
  return p.split(sep).join('/');
}

function table(rows: [string, string][]): string {
  const width = Math.max(...rows.map(([verb]) => verb.length));
  return rows.map(([verb, path]) => `  ${verb.padEnd(width)}  ${path}\n`).join('');
}

function nextSteps(dir: string): string {
  const c = dirFlag(dir);
  const steps: [string, string][] = [
    [`docket validate${c}`, 'check the files offline'],
    [`docket plan${c} --emulator`, 'the plan against a local emulator (no account needed)'],
    [`docket apply${c} --emulator`, 'apply it there; a second plan then shows "No changes."'],
  ];
  const width = Math.max(...steps.map(([cmd]) => cmd.length));
  return [
    'Next steps:',
    ...steps.map(([cmd, why]) => `  ${cmd.padEnd(width)}   ${why}`),
    '',
    `Then set DOCKET_ORGANIZATION_ID and DOCKET_REVIEW_API_KEY and run \`docket plan${c}\` against the real service.`,
    '',
  ].join('\n');
}

/** Why a project file that is there is no file docket can read (a link to nothing, a pipe), or undefined. */
function unreadableProjectFile(path: string): string | undefined {
  let found: ReturnType<typeof statSync>;
  try {
    found = statSync(path);
  } catch (error) {
    // A link that leads back to itself (ELOOP) is said as one (second read SR98-10).
    return (error as NodeJS.ErrnoException).code === 'ELOOP' ? 'is a symbolic link that leads back to itself' : 'is a symbolic link to something that does not exist';
  }
  if (found.isDirectory()) return 'is a folder, not a file';
  return found.isFile() ? undefined : 'is not a regular file (a named pipe or a device)';
}

function isThere(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}
