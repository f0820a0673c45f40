/** Writes a file so readers see the old or the new content, never half: temp file + rename. */
import { createHash, randomUUID } from 'node:crypto';
import { chmodSync, chownSync, copyFileSync, lstatSync, readlinkSync, realpathSync, renameSync, rmSync, statSync, writeFileSync, type Stats } from 'node:fs';
import { chmod, chown, rename, rm, stat, writeFile } from 'node:fs/promises';
import { makeFolders, makeFoldersSync } from './make-folders.js';
import { basename, dirname, isAbsolute, join } from 'node:path';
import { removeLeftByDeadProcesses } from './process-alive.js';
import { isReadOnlyMode, readOnlyError } from './writable.js';

/**
 * Beside the target by default (or in `tempDir`, on the same filesystem), so the rename never
 * crosses one; the pid in the name lets a later run spot what a killed writer left.
 */
export function tempPath(file: string, tempDir = dirname(file)): string {
  return join(tempDir, `.${nameInTemp(basename(file))}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`);
}

/**
 * A file's name as a temporary name beside it holds it: as it is, or past 200 bytes its digest, as
 * the 21 bytes a temporary name adds took one a file system allows past its 255 (probe JN-1).
 */
export function nameInTemp(name: string): string {
  return Buffer.byteLength(name) <= 200 ? name : createHash('sha256').update(name).digest('hex').slice(0, 32);
}

export interface AtomicWriteOptions {
  /** Where the temporary file goes (a folder of the target's filesystem that users do not look at). */
  tempDir?: string;
  /** Permission bits the file gets; by default those of the file it replaces (a new one: what the umask gives). */
  mode?: number;
  /** Told the temporary file while it exists (to remove it if a signal ends the process); returns its release. */
  whileWriting?: (tmp: string) => () => void;
  /** Called once the text is written, just before it replaces the file: throwing leaves the file as it is. */
  beforeReplacing?: () => void;
  /** A file made read-only (`chmod 444`) is not replaced: EACCES, as a write in place would meet (docket.lock.json, probe NU-7). */
  refuseReadOnly?: boolean;
}

/**
 * The file a write of `path` goes to: the one a symbolic link names (a lock file two checkouts
 * share), written in place of it, never the link replaced by a file of its own. A link to a file
 * not made yet names where to make it; a loop of links is an error (ELOOP), as a read would be.
 * Synchronous, for the sync writer too: a few system calls before a write.
 */
export function linkedFile(path: string): string {
  let isLink = false;
  try {
    isLink = lstatSync(path).isSymbolicLink();
  } catch {
    return path;
  }
  return isLink ? writeDestination(path) : path;
}

/** As many links as Linux follows in one path (ELOOP beyond). */
const MAX_LINK_HOPS = 40;

/**
 * Where a file is, links followed; for one not there, where a write to it would make it: along a
 * chain of links to nothing to where the last one leads, each read from its folder's real path
 * (as the system reads `..`), below the nearest folder that is there. The one answer for both
 * "is this write inside the configuration" and "which file does this write replace".
 */
export function writeDestination(file: string): string {
  return destination(file, 0);
}

/** writeDestination, or the path as named when that cannot be told (a loop of links: the write itself then fails, saying so). */
export function writeDestinationOrAsNamed(file: string): string {
  try {
    return writeDestination(file);
  } catch {
    return file;
  }
}

function destination(file: string, hops: number): string {
  try {
    // The system's realpath: Node's own resolves `sub/..` by the text before it follows `sub`.
    return realpathSync.native(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const folder = dirname(file);
  const here = folder === file ? file : join(destination(folder, hops), basename(file));
  if (!lstatSync(here, { throwIfNoEntry: false })?.isSymbolicLink()) return here;
  if (hops >= MAX_LINK_HOPS) throw Object.assign(new Error(`ELOOP: too many symbolic links, '${file}'`), { code: 'ELOOP' });
  const target = readlinkSync(here);
  // Joined, not resolved: `sub/..` where sub is a link is the link's parent, which realpath finds.
  return destination(isAbsolute(target) ? target : `${dirname(here)}/${target}`, hops + 1);
}

/** `content` may come in pieces (text and bytes), written one after another as they are made. */
export async function writeFileAtomic(path: string, content: string | Iterable<string | Uint8Array>, options: AtomicWriteOptions = {}): Promise<void> {
  const file = linkedFile(path);
  // The file it replaces, asked once: whether it may be replaced, and the mode and owner it keeps.
  const was = await stat(file).catch(() => undefined);
  if (options.refuseReadOnly && was && isReadOnlyMode(was.mode)) throw readOnlyError(file);
  await makeFolders(dirname(file));
  // Beside a linked file (perhaps on another filesystem), not in the temporary folder of the link's.
  const tempDir = file === path ? options.tempDir : undefined;
  if (tempDir) await makeFolders(tempDir);
  const tmp = tempPath(file, tempFolder(tempDir, file));
  const release = options.whileWriting?.(tmp);
  try {
    await writeFile(tmp, content, 'utf8');
    // A file someone made private (or read-only) stays so: a rename would otherwise give it the umask's bits.
    const { mode, owner } = keptOf(was, options);
    if (mode !== undefined) await chmod(tmp, mode);
    // Refused (root in a user namespace, NFS's root_squash): the file is written all the same, as before (third read TR71-3).
    if (owner) await chown(tmp, owner.uid, owner.gid).catch(() => undefined);
    options.beforeReplacing?.();
    await rename(tmp, file).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'EXDEV') throw error;
      replaceThroughCopy(tmp, file, tempDir ?? dirname(tmp), mode, owner);
    });
  } catch (err) {
    await rm(tmp, { force: true });
    throw err;
  } finally {
    release?.();
  }
}

/**
 * The owner a rewritten file keeps when docket runs as root (sudo, a container on a mounted
 * workspace): the later steps that run as that user must still write it (probe JT-7). Only root
 * may give a file away; any other user's write keeps the owner by being that owner.
 */
export function ownerToKeep(was: { uid: number; gid: number } | undefined, uid: number | undefined): { uid: number; gid: number } | undefined {
  return was !== undefined && uid === 0 && (was.uid !== 0 || was.gid !== 0) ? { uid: was.uid, gid: was.gid } : undefined;
}

/** The same, synchronously: for the last write before a forced exit. */
export function writeFileAtomicSync(path: string, text: string, options: AtomicWriteOptions = {}): void {
  const file = linkedFile(path);
  const was = statSync(file, { throwIfNoEntry: false });
  if (options.refuseReadOnly && was && isReadOnlyMode(was.mode)) throw readOnlyError(file);
  makeFoldersSync(dirname(file));
  const tempDir = file === path ? options.tempDir : undefined;
  if (tempDir) makeFoldersSync(tempDir);
  const tmp = tempPath(file, tempFolder(tempDir, file));
  try {
    writeFileSync(tmp, text, 'utf8');
    // As writeFileAtomic: the mode and (run as root) the owner of the file it replaces (third read TR71-4).
    const { mode, owner } = keptOf(was, options);
    if (mode !== undefined) chmodSync(tmp, mode);
    if (owner) tryChownSync(tmp, owner.uid, owner.gid);
    try {
      renameSync(tmp, file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
      replaceThroughCopy(tmp, file, tempDir ?? dirname(tmp), mode, owner);
    }
  } catch (err) {
    rmSync(tmp, { force: true });
    throw err;
  }
}

/** Temporary folders found to be on another mount than a target's folder (`tempDir` NUL folder): written beside the target since. */
const crossesMount = new Set<string>();

/** Where a write of `file` puts its temporary file: `tempDir`, unless a rename from there to it was refused as crossing mounts. */
function tempFolder(tempDir: string | undefined, file: string): string | undefined {
  return tempDir !== undefined && !crossesMount.has(`${tempDir}\u0000${dirname(file)}`) ? tempDir : undefined;
}

/**
 * A temporary file on another mount than its target (EXDEV: `.docket` or `playbooks/` another file
 * system, a bind mount or a link to one; probes KX-1, SR73-4) replaces it through a copy beside it,
 * with the mode and owner kept (RV10-2); later writes there put their temporary file beside the
 * target at once. A rare path: synchronous for both writers.
 */
function replaceThroughCopy(tmp: string, file: string, tempDir: string, mode: number | undefined, owner: { uid: number; gid: number } | undefined): void {
  crossesMount.add(`${tempDir}\u0000${dirname(file)}`);
  const beside = tempPath(file);
  try {
    copyFileSync(tmp, beside);
    if (mode !== undefined) chmodSync(beside, mode);
    if (owner) tryChownSync(beside, owner.uid, owner.gid);
    renameSync(beside, file);
  } catch (again) {
    rmSync(beside, { force: true });
    throw again;
  }
  rmSync(tmp, { force: true });
}

/** What a write keeps of the file it replaces (`was`): its permission bits, unless given, and, run as root, its owner. */
function keptOf(was: Stats | undefined, options: AtomicWriteOptions): { mode?: number; owner?: { uid: number; gid: number } } {
  const mode = options.mode ?? (was ? was.mode & 0o7777 : undefined);
  const owner = ownerToKeep(was, process.getuid?.());
  return { ...(mode !== undefined ? { mode } : {}), ...(owner ? { owner } : {}) };
}

function tryChownSync(file: string, uid: number, gid: number): void {
  try {
    chownSync(file, uid, gid);
  } catch {
    // Refused (root in a user namespace): written all the same.
  }
}

/** What killed writers left in a folder of temporary files (`.docket`): every `.NAME.PID.RAND.tmp` of a process that is gone. */
export async function removeStaleTempsIn(dir: string): Promise<void> {
  await removeLeftByDeadProcesses(dir, tempOwner);
}

/** The pid in a temporary file's name as tempPath makes it (`.NAME.PID.RAND.tmp`), or undefined for any other name. */
function tempOwner(name: string): number | undefined {
  if (!name.startsWith('.') || !name.endsWith('.tmp')) return undefined;
  const parts = name.split('.');
  return parts.length >= 5 ? Number(parts[parts.length - 3]) : undefined;
}

/**
 * Removes the temporary files of writes of `file` that never finished (a process killed between
 * writing and renaming), in `dirs` (default: beside it): the pid in their name runs no more.
 */
export async function removeStaleTemps(file: string, dirs: readonly string[] = [dirname(file)]): Promise<void> {
  const prefix = `.${basename(file)}.`;
  const ownerOf = (name: string): number | undefined => (name.startsWith(prefix) ? tempOwner(name) : undefined);
  for (const dir of dirs) await removeLeftByDeadProcesses(dir, ownerOf);
}
