/**
 * Writing what `pull` changed. Every file is checked before the first is written, so one that
 * cannot be written (read-only, in a folder docket may not write to) changes nothing. A file keeps
 * its permission bits, and a file that is a link (validate reads only links that stay inside the
 * configuration) is changed where the link leads: the link stays a link.
 */
import { constants } from 'node:fs';
import { access, lstat, mkdir, realpath, rm } from 'node:fs/promises';
import { readRegularFileSync } from '../util/special-file.js';
import path from 'node:path';
import { DocketError } from '../errors.js';
import { showPath } from '../config/quote.js';
import type { FileChange } from '../pull/plan.js';
import { linkedFile, removeStaleTempsIn, writeFileAtomic } from '../util/atomic-write.js';
import { isTestFile } from '../config/discover.js';
import { nearestExisting } from '../util/nearest-existing.js';
import { assertWritable } from '../util/writable.js';
import { errnoOf, writeFixFor } from '../util/file-write-error.js';
import { workPath } from '../config/work-dir.js';
import { readInside } from '../config/data-files.js';

interface Target {
  change: FileChange;
  /** Where the text goes: the file, or what its link leads to. */
  real: string;
}

/** What the pull records once its files are written: `file`, written by `write`. */
export interface SyncWrite {
  file: string;
  write(): Promise<unknown>;
}

/**
 * The pulled files, then the sync records (a run killed between the two has pulled; only the
 * directions wait for the next apply or pull). The records' file is checked with the others.
 */
export async function writePulled(root: string, files: readonly FileChange[], sync: SyncWrite, afterEachFile?: (path: string) => void): Promise<void> {
  await writePulledFiles(root, files, sync.file, afterEachFile);
  try {
    await sync.write();
  } catch (error) {
    // Checked with the files when there were any (a full disk is not checked); with none, this is the first write.
    if (error instanceof DocketError && files.length === 0) throw error;
    // The files are pulled, and the job that commits them must know which (probe JT-4).
    const written = files.length > 0 ? `the pulled files were written (${firstTen(inWriteOrder(files).map((f) => f.path))}), but ` : '';
    const said = error instanceof DocketError ? error.message : `cannot write the sync records to ${sync.file} (${codeOf(error)})`;
    const hint = error instanceof DocketError && error.hint !== undefined ? error.hint : 'make it writable and run pull again: it converges';
    throw new DocketError('pull-cannot-write', `${written}${said}`, hint);
  }
}

/** `afterEachFile`: told each file once it is written (what happens between two writes, in tests). */
async function writePulledFiles(root: string, files: readonly FileChange[], syncFile: string, afterEachFile?: (path: string) => void): Promise<void> {
  const tempDir = workPath(root);
  // What a pull stopped mid-write left there (a signal ends it between a temporary file and its rename).
  await removeStaleTempsIn(tempDir);
  if (files.length === 0) return;
  try {
    await mkdir(tempDir, { recursive: true });
  } catch (error) {
    throw cannotWrite([`${tempDir} (${codeOf(error) === 'EEXIST' || codeOf(error) === 'ENOTDIR' ? 'not a folder' : codeOf(error)})`], `docket writes through ${tempDir}: make it a folder docket can write to`);
  }
  const targets: Target[] = [];
  const problems: string[] = [];
  const realRoot = await realpath(root).catch(() => root);
  for (const change of inWriteOrder(files)) {
    const file = path.join(root, ...change.path.split('/'));
    try {
      targets.push(await targetOf(change, file, realRoot));
    } catch (error) {
      problems.push(`${change.path} (${codeOf(error)})`);
    }
  }
  try {
    await targetOf({ path: syncFile, before: null, after: '' }, syncFile);
  } catch (error) {
    problems.push(`${path.relative(root, syncFile).split(path.sep).join('/')} (${codeOf(error)})`);
  }
  // A folder on the way that is none (a file, a link to nothing) is no matter of permissions (probe MU-7).
  const notFolder = problems.some((p) => /\((ENOTDIR|ENOENT|ELOOP)\)$/.test(p));
  if (problems.length > 0) throw cannotWrite(problems, notFolder ? 'a folder on their paths is no folder docket can write into (a file, or a link to nothing): make it one, or see the changes with --dry-run and make them by hand' : 'make them writable, or see the changes with --dry-run and make them by hand');
  // Each file still as pull read it: an edit saved since would be written over.
  const stillAsRead = (t: Target): boolean => {
    let now: string | null;
    try {
      now = readRegularFileSync(path.join(root, ...t.change.path.split('/'))).toString('utf8');
    } catch {
      now = null;
    }
    return now === t.change.before;
  };
  const changed = targets.filter((t) => !stillAsRead(t)).map((t) => t.change.path);
  if (changed.length > 0) throw changedWhilePulling(...changed);
  for (const [i, t] of targets.entries()) {
    const written = (): string[] => targets.slice(0, i).map((w) => w.change.path);
    // Looked at again the moment before it is replaced: an editor's save while the files before it
    // were written is kept, and the pull stops there (probe HL-1).
    const unchanged = (): void => {
      if (!stillAsRead(t)) throw new ChangedWhileWriting(t.change.path, written());
    };
    try {
      const file = path.join(root, ...t.change.path.split('/'));
      // A document removed with its file: a link goes, not what it leads to.
      if (t.change.after === null) {
        unchanged();
        await rm(file, { force: true });
      }
      // writeFileAtomic keeps the permission bits of the file it replaces.
      else await writeFileAtomic(t.real, t.change.after, { tempDir, beforeReplacing: unchanged });
      afterEachFile?.(t.change.path);
    } catch (error) {
      // The files it made go again: left, a new object's data file would hold the name the next
      // pull gives its document (it wrote `live-term-2.yaml` beside `live-term.md`, probe MU-1).
      const made = await removeMade(root, targets.slice(0, i));
      if (error instanceof ChangedWhileWriting) throw error.said(made);
      const before = written().filter((f) => !made.includes(f));
      throw new DocketError('pull-cannot-write', `cannot write ${t.change.path} (${codeOf(error)})${before.length > 0 ? `; written before it: ${firstTen(before)}` : ''}${madeNote(made)}`, `${writeFixFor(errnoOf(error))}, then run pull again: it converges`);
    }
  }
}

/** The new files among `written` removed again (best effort: one that cannot be is still said written). */
async function removeMade(root: string, written: readonly Target[]): Promise<string[]> {
  const removed: string[] = [];
  for (const t of written) {
    if (t.change.before !== null || t.change.after === null) continue;
    const gone = await rm(path.join(root, ...t.change.path.split('/')), { force: true }).then(() => true, () => false);
    if (gone) removed.push(t.change.path);
  }
  return removed;
}

function madeNote(made: readonly string[]): string {
  return made.length > 0 ? `; the new ${made.length === 1 ? 'file it had made was' : 'files it had made were'} removed again: ${firstTen(made)}` : '';
}

/** Files named as the report names them: the first ten, then how many more (5,000 made a 170,000-character message: second reads SR71-6, RV6-6). */
function firstTen(paths: readonly string[]): string {
  return paths.length > 10 ? `${paths.slice(0, 10).join(', ')} and ${paths.length - 10} more: git status lists them` : paths.join(', ');
}

/** A file saved again while pull wrote the ones before it. */
class ChangedWhileWriting extends Error {
  constructor(
    readonly file: string,
    readonly written: readonly string[],
  ) {
    super(file);
  }

  said(made: readonly string[]): DocketError {
    const kept = this.written.filter((f) => !made.includes(f));
    const before = kept.length > 0 ? `; written before it: ${firstTen(kept)}` : '';
    return new DocketError('pull-files-changed', `${showPath(this.file)} changed while pull wrote the files: it was not written, nor the files after it${before}${madeNote(made)}`, 'run pull again; it reads the files as they are now, and converges');
  }
}

/**
 * Test files first: a run stopped after a playbook's rename is written but before the tests that
 * name it would leave them naming the old one, and pulling again finds no rename to follow.
 */
export function inWriteOrder<T extends { path: string }>(files: readonly T[]): T[] {
  return [...files.filter((f) => isTestFile(f.path)), ...files.filter((f) => !isTestFile(f.path))];
}

/** Files edited while pull ran: nothing is written, and pulling again takes the edits into account. */
export function changedWhilePulling(...files: string[]): DocketError {
  return new DocketError('pull-files-changed', `${files.map(showPath).join(', ')} changed while pull ran: nothing was written`, 'run pull again; it reads the files as they are now');
}

/**
 * Where a change goes; throws when it cannot be written there. A new file of the configuration
 * (`realRoot` given) must land where discovery reads it: not through a folder link out of the
 * directory or into a dot-folder, which validate finds no YAML in while it is empty (probe JT-2).
 */
async function targetOf(change: FileChange, file: string, realRoot?: string): Promise<Target> {
  const link = await lstat(file).catch(() => undefined);
  if (!link) {
    // A new file: its nearest folder that exists must take it.
    const nearest = await nearestExisting(path.dirname(file));
    if (nearest && !nearest.stats.isDirectory()) throw Object.assign(new Error(`${nearest.path} is not a folder`), { code: 'ENOTDIR' });
    if (nearest && realRoot !== undefined) {
      const real = await realpath(nearest.path).catch(() => nearest.path);
      if (!readInside(realRoot, real)) {
        throw new Error(`a folder on its path is a link to ${showPath(real)}, which docket does not read as configuration`);
      }
    }
    await access(nearest?.path ?? path.parse(file).root, constants.W_OK);
    return { change, real: file };
  }
  const real = linkedFile(file);
  if (change.after === null) {
    await access(path.dirname(file), constants.W_OK);
    return { change, real };
  }
  // Made read-only (`chmod 444`): not replaced, for root either (probe NU-7, second read SR79-5).
  await assertWritable(real);
  await access(path.dirname(real), constants.W_OK);
  return { change, real };
}

function codeOf(error: unknown): string {
  return errnoOf(error) ?? (error as Error).message;
}

function cannotWrite(problems: string[], hint: string): DocketError {
  return new DocketError('pull-cannot-write', `cannot write ${problems.join(', ')}: nothing was written`, hint);
}
