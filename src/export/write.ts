/**
 * The one staged writer of an exported directory (export now, pull later): every file goes to a
 * staging directory beside the output, renamed into place at the end, never over a file. I/O at the edge
 * of src/export.
 */
import { FLAG_LIKE } from '../util/shell-word.js';
import { showPath } from '../config/quote.js';
import { constants, existsSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { access, chmod, chown, copyFile, lstat, mkdir, mkdtemp, readdir, readFile, realpath, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { DocketError, UsageError } from '../errors.js';
import { processAlive, removeLeftByDeadProcesses } from '../util/process-alive.js';
import { nearestExisting } from '../util/nearest-existing.js';
import { nameInTemp } from '../util/atomic-write.js';
import { folderWriteHint, isFileSystemError, writeFixFor } from '../util/file-write-error.js';
import type { ExportFile } from './types.js';
import { EMULATOR_STATE_FILE, LOCK_FILE, workPath } from '../config/work-dir.js';
import { deniedOrCode } from '../util/permission.js';

/** How the staging directories of exports to `out` start: `.<name>.export-`. */
function stagingPrefix(out: string): string {
  return `.${nameInTemp(path.basename(out))}.export-`;
}

/**
 * The process id in the name of a staging directory of an export to `out` (`suffix`: one moving
 * its files up), else undefined. Exactly `<pid>-<6 random characters>` (mkdtemp's):
 * `.acme.export-2026-11.export-…`, the staging directory of an export to `acme.export-2026-11`, is
 * not this --out's.
 */
function stagingPid(name: string, out: string, suffix = ''): number | undefined {
  const prefix = stagingPrefix(out);
  const pid = name.startsWith(prefix) ? /^(\d+)-[A-Za-z0-9]{6}$/.exec(name.slice(prefix.length, name.length - suffix.length))?.[1] : undefined;
  return pid !== undefined && name.endsWith(suffix) ? Number(pid) : undefined;
}

/** Removes the staging directories of exports to `out` (in `parent`) whose process is gone (killed with SIGKILL, say). */
function removeStaleStaging(parent: string, out: string): Promise<void> {
  return removeLeftByDeadProcesses(parent, (name) => stagingPid(name, out));
}

/** What a staging directory is renamed to once its files are moved up into `out`: a run stopped meanwhile left an export to finish, not scratch. */
const MOVING = '.moving';

/**
 * The staged files moved up into an existing `out`, which must hold nothing else by then (written
 * meanwhile: refused). docket.lock.json last: a run stopped between two moves leaves no records
 * of files it did not write. Synchronous: a signal's cleanup finishes it, as the next run does
 * for one killed (probe RA-3: the rest was deleted, and the folder planned clean without it).
 */
function finishMove(moving: string, out: string): void {
  const names = readdirSync(moving).sort((a, b) => Number(a === LOCK_FILE) - Number(b === LOCK_FILE));
  let whole = true;
  for (const name of names) {
    // A name written there since stays the user's; nor does the lock come up beside what is not the export's (probe SK-2).
    if (existsSync(path.join(out, name)) || (name === LOCK_FILE && !whole)) {
      whole = false;
      continue;
    }
    renameSync(path.join(moving, name), path.join(out, name));
  }
  rmdirSync(moving);
}

/**
 * Finishes the moves of exports into `out` whose process is gone (killed while it moved its files
 * up): the files were whole and checked by then. Says so in the refusal that follows, as `out` is
 * not empty. A name both hold (written there since) is left for the user, with where the rest is.
 */
function finishStaleMoves(out: string, label: string): void {
  for (const name of readdirSync(out)) {
    const pid = stagingPid(name, out, MOVING);
    if (pid === undefined || processAlive(pid)) continue;
    const moving = path.join(out, name);
    try {
      finishMove(moving, out);
    } catch {
      throw new UsageError(`--out ${showPath(label)} holds part of an earlier export, stopped while its files were moved into place; the rest is in ${showPath(moving)}`, `move the files of ${showPath(moving)} up into ${showPath(label)} (the export is whole then), or empty ${showPath(label)} to export again`);
    }
    throw new UsageError(`--out ${showPath(label)} is not empty: it holds an earlier export, stopped while its files were moved into place, which docket has now finished moving`, 'that export is whole now; to export again, choose a directory that does not exist or is empty');
  }
}

/**
 * Whether an empty `out` is written inside rather than replaced by the staging directory (which
 * appears whole or not at all): a mount point cannot be replaced (EBUSY, probe KX-3), and this
 * process's own directory (`--out .`) replaced would leave the shell it runs in a folder that is
 * gone (probe OF-3).
 */
async function writtenInside(dir: string): Promise<boolean> {
  const [own, up, real, here] = await Promise.all([stat(dir).catch(() => undefined), stat(path.dirname(dir)).catch(() => undefined), realpath(dir).catch(() => undefined), realpath(process.cwd()).catch(() => undefined)]);
  if (own === undefined || up === undefined || !own.isDirectory()) return false;
  if (own.dev !== up.dev || (real !== undefined && real === here)) return true;
  const info = await readFile('/proc/self/mountinfo', 'utf8').catch(() => '');
  // The fifth field, with spaces and the like written as octal escapes (`\040`).
  return info.split('\n').some((line) => line.split(' ')[4]?.replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))) === (real ?? dir));
}

/** `--out` must not exist, or be an empty directory: export never overwrites a file. */
export async function checkOut(out: string, label: string): Promise<'missing' | 'empty'> {
  // `--out ""` (an unset variable) is the current directory, which is never empty: say what is wrong.
  if (label.trim() === '') throw new UsageError('--out needs a directory name (got "")', 'name a directory that does not exist or is empty');
  // Another command's flag (`--out --dry-run`) as output files' flags refuse it (probe AC-4).
  if (FLAG_LIKE.test(label)) throw new UsageError(`--out needs a directory name, and got ${JSON.stringify(label)}, which reads as a flag (is the variable that gives it unset?)`, `for a directory whose name starts with --, write --out ./${label}`);
  let entries: string[];
  let inside = false;
  try {
    // Not followed: a link that dangles passed as missing, and the final rename then failed.
    const st = await lstat(out);
    if (st.isSymbolicLink()) throw new UsageError(`--out ${showPath(label)} is a symbolic link`, 'name the directory itself: a path that does not exist or an empty directory');
    if (!st.isDirectory()) throw new UsageError(`--out ${showPath(label)} is ${st.isFile() ? 'a file' : 'not a directory (a named pipe or a device)'}`, 'docket export writes a new directory: choose a path that does not exist or an empty directory');
    // What a killed export into this directory left inside it is not the user's (second read SR73-7).
    inside = await writtenInside(out);
    if (inside) {
      finishStaleMoves(out, label);
      await removeStaleStaging(out, out);
    }
    entries = await readdir(out);
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      // Through a link to nothing the export's folder cannot be made: said now, not after the reads.
      const nearest = await nearestExisting(path.dirname(out));
      if (nearest?.dangling) throw new UsageError(`--out ${showPath(label)} cannot be used: ${showPath(nearest.path)} is a symbolic link to nothing`, 'fix or remove the link, or name a path without it');
      await refuseUnwritable(label, nearest?.path);
      return 'missing';
    }
    const why = code === 'ENOTDIR' ? 'a folder on its path is a file' : code === 'ELOOP' ? 'a symbolic link on its path loops' : deniedOrCode(code);
    throw new UsageError(`--out ${showPath(label)} cannot be used: ${why}`, 'choose a path that does not exist or an empty directory, in a folder you may write');
  }
  if (entries.length > 0) {
    throw new UsageError(`--out ${showPath(label)} is not empty`, 'docket export never overwrites files: choose a directory that does not exist or is empty');
  }
  // The empty folder is replaced by the staging one: one the user may not write is not theirs to have replaced.
  await refuseUnwritable(label, out);
  // One written inside (writeExport) needs no writable parent.
  if (!inside) await refuseUnwritable(label, path.dirname(out));
  return 'empty';
}

/**
 * The export is written beside `--out` (a staging folder, renamed into place): a folder there it
 * may not write is said before the services are read, not after.
 */
async function refuseUnwritable(label: string, folder: string | undefined): Promise<void> {
  if (folder === undefined) return;
  const writable = await access(folder, constants.W_OK).then(
    () => true,
    () => false,
  );
  if (!writable) throw new UsageError(`--out ${showPath(label)} cannot be written: ${showPath(folder)} is not writable`, 'choose a path in a folder you may write');
}

/**
 * Writes every file into a staging directory next to `out`, then renames it into place, so the
 * output appears whole or not at all (into an `out` written inside, staged inside it and the
 * files moved up, docket.lock.json last); `wx` makes any overwrite an error. `emulatorState` is copied
 * along as `.docket/emulator.json` when given. Each file's `content` is emptied once written.
 * `onExit` registers a synchronous cleanup for a signal that ends the process while the files are
 * written (the caller knows the signals), and returns its release.
 */
export async function writeExport(
  out: string,
  label: string,
  files: readonly ExportFile[],
  emulatorState: string | undefined,
  onExit?: (cleanup: () => void) => () => void,
  beforeInPlace?: (staging: string) => Promise<void>,
): Promise<void> {
  // Staged inside an --out written inside (a mount point, the current directory), on its file
  // system, and its files moved up at the end; otherwise beside it, and renamed into place whole.
  const inside = await writtenInside(out);
  const parent = inside ? out : path.dirname(out);
  let release: (() => void) | undefined;
  const prefix = stagingPrefix(out);
  const staging = await mkdir(parent, { recursive: true })
    .then(() => removeStaleStaging(parent, out))
    // Named with the process id, so the next export can tell one a killed run left from one in use.
    .then(() => mkdtemp(path.join(parent, `${prefix}${process.pid}-`)))
    // Removed on a signal from the moment it exists, before anything else is awaited.
    .then((dir) => ((release = onExit?.(() => rmSync(dir, { recursive: true, force: true }))), dir))
    // mkdtemp makes it 0700; the directory it becomes is the user's, as `mkdir` would make it, or
    // as the empty folder it replaces was made: one kept private (internal notes are exported) stays so (probe DA-2).
    .then(async (dir) => (await keepModeOf(inside ? undefined : out, dir), dir))
    .catch((error: NodeJS.ErrnoException) => {
      throw new DocketError('write-failed', `cannot write the export to ${showPath(label)} (${error.code ?? 'unknown error'})`, folderWriteHint(error.code));
    });
  try {
    for (const f of files) {
      const file = path.join(staging, ...f.path.split('/'));
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, f.content, { encoding: 'utf8', flag: 'wx' });
      // Let go once written: the check after loads and plans a configuration as large.
      f.content = '';
    }
    if (emulatorState) {
      // So `docket plan -C OUT --emulator` sees the organization that was exported.
      await mkdir(workPath(staging), { recursive: true });
      await copyFile(emulatorState, workPath(staging, EMULATOR_STATE_FILE)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error; // nothing was ever written to it: the seed is all there is
      });
    }
    // The check and records of what was written (a plan of it) are made here too, so a signal or
    // a failure during them leaves no directory: it appears with its docket.lock.json, or not at all.
    await beforeInPlace?.(staging);
    // The records' write leaves the folder of its temporary file: empty, it is no part of the export.
    await rmdir(workPath(staging)).catch(() => undefined);
    if (inside) {
      const others = (await readdir(out)).filter((name) => name !== path.basename(staging));
      if (others.length > 0) throw new UsageError(`--out ${showPath(label)} is not empty`, 'docket export never overwrites files: choose a directory that does not exist or is empty');
      // From here a stop finishes the move rather than removing the staged files.
      const moving = `${staging}${MOVING}`;
      await rename(staging, moving);
      release?.();
      release = onExit?.(() => finishMove(moving, out));
      finishMove(moving, out);
    } else {
      if ((await checkOut(out, label)) === 'empty') await rmdir(out);
      await rename(staging, out);
    }
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    // A full disk (or a folder made read-only meanwhile) is the user's to fix, not a bug (probe JT-5).
    if (isFileSystemError(error) && !(error instanceof DocketError)) {
      throw new DocketError('write-failed', `cannot write the export to ${showPath(label)} (${error.code}); nothing was written`, `${writeFixFor(error.code)}, then run the command again`);
    }
    throw error;
  } finally {
    release?.();
  }
}

/** `dir` given the mode (and group, where the user may set it) of the empty folder `replaced`, or the default one `mkdir` gives. */
async function keepModeOf(replaced: string | undefined, dir: string): Promise<void> {
  const was = replaced === undefined ? undefined : await stat(replaced).catch(() => undefined);
  if (!was?.isDirectory()) return chmod(dir, 0o777 & ~process.umask());
  // Its owner (run as root) and group first: a setgid folder's files take the folder's group. What
  // the user may not set is left as made.
  const own = process.getuid?.() ?? was.uid;
  await chown(dir, was.uid, was.gid).catch(() => chown(dir, own, was.gid)).catch(() => undefined);
  await chmod(dir, was.mode & 0o7777);
}
