/**
 * A file a command writes at its end (`plan --out`, `test --junit`), checked at its start: a path
 * that cannot be written fails before the services are read (or reviews paid for), not after.
 */
import { assertWritable } from '../util/writable.js';
import { constants, existsSync, lstatSync, realpathSync, statSync } from 'node:fs';
import { access, lstat, realpath, stat } from 'node:fs/promises';
import path, { basename, dirname, join, parse, resolve } from 'node:path';
import { isInside, rootRelative } from '../config/data-files.js';
import { isTestFile, isYamlName, readAsConfiguration } from '../config/discover.js';
import { writeDestinationOrAsNamed } from '../util/atomic-write.js';
import { PROJECT_FILES } from '../config/load.js';
import { APPLY_LOCK_FILE, DOCKET_RECORDS, isDocketRecord, LOCK_FILE, WORK_DIR } from '../config/work-dir.js';
import type { Workspace } from '../engine/workspace.js';
import { UsageError } from '../errors.js';
import { nearestExisting } from '../util/nearest-existing.js';
import { namesFolder } from '../util/folder-name.js';
import { fileHeadSync } from '../util/file-head.js';
import { NOT_REGULAR_FILE } from '../util/special-file.js';
import { FLAG_LIKE } from '../util/shell-word.js';

const APPLY_LOCK_RECORD = `${WORK_DIR}/${APPLY_LOCK_FILE}`;


/**
 * What checkOutputFile would let a command write, told synchronously for an exit handler (the
 * early JUnit report): a name that is no flag nor a folder's, of a regular file or none. Never
 * opened otherwise: a named pipe would hang the exit (second read SR90-3).
 */
export function passesOutputCheckSync(file: string, out: string): boolean {
  if (file.trim() === '' || FLAG_LIKE.test(file) || namesFolder(file)) return false;
  try {
    return statSync(out).isFile();
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT';
  }
}

/** The absolute path of `file` (relative to `cwd`), or a usage error naming `flag` when it cannot be written; `example` is a file name for the hint. */
export async function checkOutputFile(cwd: string, file: string, flag: string, example: string): Promise<string> {
  if (file.trim() === '') throw new UsageError(`${flag} needs a file name (got "")`, `name a file, such as ${flag} ${example}`);
  // Another command's flag (`--out --dry-run`, `--out $PLAN --force` with PLAN unset) would be
  // written as a file of that name (probe RC-6): a name that starts so is written `./--name`.
  if (FLAG_LIKE.test(file)) throw new UsageError(`${flag} needs a file name, and got ${JSON.stringify(file)}, which reads as a flag (is the variable that gives it unset?)`, `for a file whose name starts with --, write ${flag} ./${file}`);
  const path = resolve(cwd, file);
  const target = await stat(path).catch((error: unknown) => {
    // A loop of links would be found only by the write, after the services were read.
    if ((error as NodeJS.ErrnoException).code === 'ELOOP') throw new UsageError(`${flag} ${file} cannot be written: it is (or is below) a symbolic link that loops`, `name a file, such as ${flag} ${example}`);
    return undefined;
  });
  if (target?.isDirectory()) throw new UsageError(`${flag} ${file} is a directory`, `name a file, such as ${flag} ${join(file, basename(example))}`);
  // The file is written whole beside it and renamed into place: a pipe or a device there (/dev/null,
  // a shell's `>(…)`) would be replaced by a regular file, and as root a system one lost.
  if (target && !target.isFile()) throw new UsageError(`${flag} ${file} ${NOT_REGULAR_FILE}`, `docket writes a regular file there and would replace it: name a file, such as ${flag} ${example}`);
  // `out/` (or `out/.`) names a folder even while none exists: resolved, it would be written as a file `out`.
  if (namesFolder(file)) {
    // `tests/x.test.yaml/` is a file's name with a slash after it; `out/` a folder's.
    const stem = file.replace(/[\\/]+\.?$/, '');
    const fileName = /\.[^\\/.]+$/.test(stem) && !/(^|[\\/])\.\.?$/.test(stem);
    // A file docket never writes there (docket.yaml, a resource, the lock; a YAML name below a
    // configuration would be read as one, existing or not: probe PP-3) is no name to suggest: one beside it is.
    const taken = fileName && (isYamlName(stem) || basename(stem) === LOCK_FILE);
    const suggested = !fileName ? join(file, basename(example)) : taken ? join(dirname(stem), basename(example)) : stem;
    throw new UsageError(`${flag} ${file} names a folder`, `name a file, such as ${flag} ${suggested}`);
  }
  // The nearest folder that exists: the write creates the missing ones below it.
  const nearest = await nearestExisting(dirname(path));
  if (nearest?.dangling) throw new UsageError(`${flag} ${file} cannot be written: ${nearest.path} is a symbolic link to nothing`, 'fix or remove the link, or name a path without it');
  if (nearest && !nearest.stats.isDirectory()) throw new UsageError(`${flag} ${file} cannot be written: ${nearest.path} is a file, not a folder`);
  const folder = nearest?.path ?? parse(path).root;
  // A file made read-only (`chmod 444` on a reviewed plan) binds root too, whom access(2) lets write anything (probe BL-2).
  const writable = await (target ? assertWritable(path) : access(folder, constants.W_OK)).then(
    () => true,
    () => false,
  );
  if (!writable) throw new UsageError(`${flag} ${file} cannot be written: ${target ? 'the file' : folder} is not writable`);
  return path;
}

/** What a flag writes: said in messages, and how a file it wrote before starts (it may replace that one). */
export interface OwnOutput {
  what: string;
  example: string;
  looksLike(head: string): boolean;
}

/** Enough of a file to tell a flag's own output from anything else. */
const HEAD_BYTES = 1024;

// By how docket writes each: a plan's first two keys, a report's root element (past a declaration
// and comments). Any JSON or XML file would pass a first character: a package.json, a pom.xml
// (probe EL); a drift report starts with `format_version` too, without `docket_version` (HY-10).
export const SAVED_PLAN: OwnOutput = { what: 'a saved plan', example: 'plan.json', looksLike: (head) => /^\s*\{\s*"format_version"\s*:\s*\d+\s*,\s*"docket_version"/.test(head) };
// A JUnit report's prolog may hold a DOCTYPE and processing instructions (a stylesheet) too (probe NZ-3).
const XML_PROLOG = /^(?:\s*(?:<\?[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>[]*(?:\[[\s\S]*?\])?\s*>))+/i;
export const JUNIT_REPORT: OwnOutput = { what: 'a JUnit report', example: 'docket-test.xml', looksLike: (head) => /^\s*<testsuites?[\s>/]/.test(head.replace(XML_PROLOG, '')) };

/**
 * Whether `out` may take a report though the configuration could not be read, so
 * refuseConfigurationFile could not judge it: a new file that no later run reads as YAML, or the
 * flag's own earlier output. Synchronous: a signal's exit handler asks too.
 */
export function writableUnjudged(out: string, root: string, written: OwnOutput): boolean {
  if (linkToNothing(out)) return false;
  const real = writeDestinationOrAsNamed(out);
  const head = fileHeadSync(real, HEAD_BYTES)?.toString('utf8');
  if (head !== undefined) return head.trim() !== '' && written.looksLike(head);
  let realRoot = root;
  try {
    realRoot = realpathSync(root);
  } catch {
    // A folder that is not there holds no configuration file to keep.
  }
  if (!isInside(realRoot, real)) return true;
  // Inside the configuration, what it names cannot be told (a missing data file, the lock, a
  // contract): only a new report file is made there, `.xml` and outside .docket/ (probe HY-7).
  const rel = rootRelative(realRoot, real);
  return /\.xml$/i.test(rel) && !rel.startsWith(`${WORK_DIR}/`) && !readAsConfiguration(rel);
}

/**
 * Whether `out` is a symbolic link to nothing: written through, it would make the folders it names
 * wherever they are, and a checkout's own `docket-test.xml` could be such a link (probe RR-4).
 */
function linkToNothing(out: string): boolean {
  try {
    return lstatSync(out).isSymbolicLink() && !existsSync(out);
  } catch {
    return false;
  }
}

/** refuseConfigurationFile's error: the file named must not be written, not even with why the run failed. */
export class ConfigurationFileRefused extends UsageError {}

/**
 * A usage error when `out` (checkOutputFile's path) is a file the configuration is made of:
 * docket.yaml, docket.lock.json or docket's records in .docket/ (which no read can rebuild), a YAML
 * file (every later run reads it as a resource), or a data file a resource names (a plan's JSON
 * would be published as a term's text). Written over, the next run fails or publishes it. Named
 * as the configuration names them, or reached through a link either way (a lock shared by two
 * checkouts is a link out of the configuration; a data file may be a link to another file). Any
 * other file already there, in the directory or not, that is not what `written` says the flag
 * writes (a test's contract, a note, a package.json) is refused too: only a new or empty file, or
 * the flag's own earlier output, is replaced.
 */
export async function refuseConfigurationFile(out: string, file: string, flag: string, workspace: Workspace, written: OwnOutput): Promise<void> {
  const root = workspace.config.project.root;
  const realRoot = await realpath(root).catch(() => root);
  const real = writeDestinationOrAsNamed(out);
  const named = [rootRelative(root, out), isInside(realRoot, real) ? rootRelative(realRoot, real) : undefined].find(
    (rel) => rel !== undefined && rel !== '' && !rel.startsWith('..') && readByDocket(rel, workspace),
  );
  // Compared by where a write to each would land: a lock linked to a file not made yet is made there by the next apply.
  // The apply lock is made with link(), never written through one: a link there is only refused.
  const own = [...(PROJECT_FILES as readonly string[]), ...DOCKET_RECORDS.filter((rel) => rel !== APPLY_LOCK_RECORD), ...workspace.files.keys()];
  const linked = named ?? own.find((rel) => writeDestinationOrAsNamed(path.join(root, rel)) === real);
  // Never the very name refused (probe KP-1): `plan.json` refused suggests `plan-2.json`.
  const example = path.basename(file) === written.example ? written.example.replace(/(\.[^.]+)?$/, '-2$1') : written.example;
  const hint = `save it outside the configuration's files, such as ${flag} ${example} beside docket.yaml`;
  if (linked === undefined) {
    if (linkToNothing(out)) throw new ConfigurationFileRefused(`${flag} ${file} cannot be written: it is a symbolic link to nothing`, `remove the link, or name another file, such as ${flag} ${example}`);
    // Any other file that is not one this flag writes (a test's contract, a note, the package.json
    // beside the configuration: probe HU-2) is not replaced either, wherever it is; docket's own
    // scratch files in .docket/ are. Named there, or landing there: a link to a file elsewhere replaces that file (probe EJ).
    const inWorkDir = (isInside(realRoot, real) && rootRelative(realRoot, real).startsWith(`${WORK_DIR}/`)) || (isInside(root, out) && rootRelative(root, out).startsWith(`${WORK_DIR}/`));
    const head = inWorkDir ? undefined : fileHeadSync(real, HEAD_BYTES)?.toString('utf8');
    if (head !== undefined && head.trim() !== '' && !written.looksLike(head)) {
      const inside = isInside(realRoot, real) || isInside(root, out);
      throw new ConfigurationFileRefused(
        `${flag} ${file} is a file ${inside ? 'of the configuration directory ' : ''}that is not ${written.what}: the saved file would take its place`,
        inside ? hint : `name a new file (or ${written.what} docket wrote before), such as ${flag} ${example}, or move that file away first`,
      );
    }
    return;
  }
  // A YAML path no file holds yet is refused for what the next run would make of it, not for a file it would replace.
  const isFile = (PROJECT_FILES as readonly string[]).includes(linked) || isDocketRecord(linked) || workspace.files.has(linked) || (await lstat(out).then(() => true, () => false));
  if (!isFile) throw new ConfigurationFileRefused(`${flag} ${file} is a YAML file below the configuration: every later run would read it as ${isTestFile(linked) ? 'a test file' : 'a resource'}`, hint);
  throw new ConfigurationFileRefused(`${flag} ${file} is ${linked}, a file of the configuration: the saved file would take its place`, hint);
}

/** Whether a root-relative path is a file the configuration is read from, or one of docket's records. */
function readByDocket(rel: string, workspace: Workspace): boolean {
  return (PROJECT_FILES as readonly string[]).includes(rel) || isDocketRecord(rel) || workspace.files.has(rel) || readAsConfiguration(rel);
}

