/**
 * The local advisory lock of an apply: `.docket/apply.lock` beside the configuration, holding the
 * pid, host and start time of the apply that holds it. A second apply on the same checkout waits
 * (`--lock-timeout`) or refuses. A lock left by a process that no longer runs on this host is taken
 * over, and so is one left unreadable (an empty file of a crash, or of a docket that wrote the
 * lock in place); one from another host cannot be checked and is only ever removed by hand.
 *
 * The lock is written whole to a file of this process's own, then linked into place, which fails
 * if a lock is there: it is never seen empty, and a signal at any point of taking it leaves either
 * nothing or a lock this process's exit removes (`releaseApplyLockSync`).
 */
import { realPathOrSelf } from '../util/real-path.js';
import { link, lstat, mkdir, open, readdir, readFile, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { readFileSync, rmdirSync, rmSync, statSync } from 'node:fs';
import { hostname } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { DocketError } from '../errors.js';
import { Option } from 'commander';
import { formatDuration, parseDuration } from './duration.js';
import { processAlive, processStartTicks } from '../util/process-alive.js';
import { interruptsOf, type Io } from './io.js';
import { APPLY_LOCK_FILE, LOCK_FILE, WORK_DIR, workPath } from '../config/work-dir.js';
import { linkOutside } from '../config/discover.js';
import { linkedFile } from '../util/atomic-write.js';
import { isLink } from '../util/special-file.js';
import { refuseNoConfiguration } from '../config/load.js';
import { isWriteRefused } from '../util/permission.js';

export interface ApplyLockHolder {
  pid: number;
  host: string;
  started: string;
  /** The checkout the apply runs in (its real path): a wait of another checkout sharing the lock names it. */
  checkout?: string;
  /** The command that holds it, when not apply (`test`: docket test --emulator). */
  command?: string;
  /** When its process started (processStartTicks), where the system says: a pid given again to a later process is not it. */
  start_ticks?: number;
}

export interface HeldApplyLock {
  /** Removes the lock (only if it is still this process's), and its folder when that is left empty. */
  release(): Promise<void>;
}

export interface ApplyLockOptions {
  root: string;
  timeoutMs: number;
  /** This apply's checkout (its real path), written into the lock: a wait names whose apply it waits for. */
  checkout?: string;
  /** Told once when the lock is busy and the apply waits for it. */
  onWait?: (holder: ApplyLockHolder) => void;
  /** The command taking it and its flag that sets the wait, for the hints (`apply`, `--lock-timeout` by default). */
  takenBy?: LockTaker;
  sleep?: (ms: number) => Promise<void>;
  signal?: AbortSignal;
}

/** Who takes the lock, and how to wait longer: `docket test --emulator` waits within its whole run's `--timeout`. */
export interface LockTaker {
  command: string;
  /** `pass … to wait`, given how long this run waited. */
  waitLonger: (waitedMs: number, suggested: string) => string;
}

/** apply and pull wait for nothing by default (`--lock-timeout 0s`): a suggested wait is a start, a wait given is to be longer (probe RT-1). */
const byLockTimeout = (command: string): LockTaker => ({ command, waitLonger: (waited, suggested) => (waited > 0 ? `a --lock-timeout longer than ${formatDuration(waited)}` : `--lock-timeout ${suggested}`) });
const APPLY = byLockTimeout('apply');
/** pull writes the files and their sync records: an apply's last write of the records beside it would undo its own. */
export const PULL = byLockTimeout('pull');

/** The flag of the commands that take the lock and wait as `--lock-timeout` says. */
export function lockTimeoutOption(): Option {
  return new Option('--lock-timeout <DURATION>', 'wait this long for another apply or pull of this checkout to finish').argParser(parseDuration).default(0, '0s: refuse at once');
}

/** docket test's wait shares its run's time budget (30 minutes by default): only a longer one waits longer. */
export const TEST_RUN: LockTaker = { command: 'test', waitLonger: (waited) => `a --timeout longer than ${formatDuration(waited)}` };

export function applyLockPath(root: string): string {
  return workPath(root, APPLY_LOCK_FILE);
}

/**
 * Where an apply's lock goes: beside the configuration, or, when its docket.lock.json is a link
 * (one lock file shared by several checkouts), beside the file the link leads to, so that their
 * applies take turns: each writes the whole of its section, and two at once would lose each
 * other's upload records.
 */
export function applyLockRoot(root: string): string {
  const lockPath = join(root, LOCK_FILE);
  let real: string;
  try {
    real = linkedFile(lockPath);
  } catch {
    // A link that loops: refused once the configuration is read (invalid-lock-file).
    return root;
  }
  // Only a link to a file that is there: one to nothing is refused once the configuration is read,
  // and nothing may be made where it leads first.
  return real !== lockPath && isRegularFile(real) ? dirname(real) : root;
}

/**
 * Refuses a run that took its lock beside the configuration while its docket.lock.json linked to
 * nothing yet, where another checkout's apply has made that file since: their runs take turns
 * through the lock beside it, which this one does not hold, and going on would upload and record
 * what the other is uploading (probe WC-1). Called once the configuration is read, which refuses a
 * link that still leads to nothing: from then on where the lock goes stays put.
 */
export function refuseLockMovedAway(root: string, heldAt: string, by: LockTaker = APPLY): void {
  const now = applyLockRoot(root);
  if (now === heldAt) return;
  throw new DocketError(
    'apply-locked',
    `${join(root, LOCK_FILE)} links to a file that another checkout's run made after this ${by.command} started: runs sharing it take turns through ${applyLockPath(now)}, which this one does not hold`,
    `run ${by.command} again (with ${by.waitLonger(0, '5m')} to wait for the other run); nothing was changed`,
  );
}

function isRegularFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

export async function acquireApplyLock(options: ApplyLockOptions): Promise<HeldApplyLock> {
  const path = applyLockPath(options.root);
  const taker = options.takenBy ?? APPLY;
  const ticks = processStartTicks(process.pid);
  const mine: ApplyLockHolder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), ...(options.checkout ? { checkout: options.checkout } : {}), ...(taker.command !== 'apply' ? { command: taker.command } : {}), ...(ticks !== undefined ? { start_ticks: ticks } : {}) };
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const giveUpAt = Date.now() + options.timeoutMs;
  const givingUp = (): boolean => Date.now() >= giveUpAt || options.signal?.aborted === true;
  let told = false;
  let lookedAgain = false;
  for (;;) {
    if (await tryCreate(path, mine)) {
      await removeDeadCopies(path);
      return held(path);
    }
    const holder = await readHolder(path);
    const unreadable = holder ? undefined : await unreadableAge(path);
    // Released in between: try to create it again.
    if (unreadable === 'gone') continue;
    if (holder ? isStale(holder) : unreadable === 'old') {
      if (await takeOverStale(path, holder)) continue;
      // Busy: another apply is taking it over this instant (then it holds it), or one killed while
      // it did left its folder, which ages out: waited for as for a holder, within --lock-timeout.
      if (givingUp()) throw busyTakingOver(path, options.timeoutMs, taker);
      await sleep(20);
      continue;
    }
    if (!holder && !lookedAgain) {
      // Most likely being written by its holder this instant: look again once, to name it.
      lookedAgain = true;
      await sleep(100);
      continue;
    }
    if (givingUp()) throw busy(path, holder, options.timeoutMs, options.checkout, taker);
    if (!told && holder) options.onWait?.(holder);
    told = true;
    await sleep(Math.min(500, Math.max(10, giveUpAt - Date.now())));
  }
}

/** A takeover's own mutex left by a process killed while it held it (a few milliseconds) is this old at most. */
const TAKEOVER_GRACE_MS = 5000;
let holdingTakeover: string | undefined;

/**
 * Removes a lock found stale, if it still is. Two applies that found it stale would otherwise both
 * remove "it", the later one the lock the earlier had just taken, and both would go on. Only the
 * process that makes the takeover folder may remove it, and only after reading it again. False
 * when another process is taking it over; true when the lock is to be looked at again.
 */
export async function takeOverStale(path: string, found: ApplyLockHolder | undefined): Promise<boolean> {
  const mutex = `${path}.takeover`;
  try {
    await mkdir(mutex);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // The folder went: another run took the lock over, released it and removed `.docket/` as the
    // last one out. The lock is free; looked at again, not called unusable (probe TA-1).
    if (code === 'ENOENT') return true;
    if (code !== 'EEXIST') throw unusable(path, error);
    const age = await stat(mutex).then((info) => ageOf(info.mtimeMs), () => 0);
    if (age <= TAKEOVER_GRACE_MS) return false;
    // Left by a process killed while it took the lock over: removed, and the lock looked at again.
    await rm(mutex, { recursive: true, force: true });
    return true;
  }
  holdingTakeover = mutex;
  try {
    // Nobody else removes it meanwhile, and nobody can create one while it is there.
    const now = await readHolder(path);
    const still = now ? found !== undefined && sameHolder(now, found) && isStale(now) : found === undefined && (await unreadableAge(path)) === 'old';
    if (still) await rm(path, { force: true });
    return true;
  } finally {
    holdingTakeover = undefined;
    await rm(mutex, { recursive: true, force: true });
  }
}

function sameHolder(a: ApplyLockHolder, b: ApplyLockHolder): boolean {
  return a.pid === b.pid && a.host === b.host && a.started === b.started;
}

/** The own copies (`apply.lock.PID`) of processes on this host that no longer run: a `kill -9` while one took the lock. */
async function removeDeadCopies(path: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    const pid = name.startsWith(prefix) ? Number(name.slice(prefix.length)) : NaN;
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) await rm(join(dirname(path), name), { force: true });
  }
}

/** This process's own file the lock is written to before it is linked into place. */
function ownCopyOf(path: string): string {
  return `${path}.${process.pid}`;
}

/**
 * Removes what taking or holding the lock left of this process: its own copy, and the lock if it is
 * this process's. Registered before the lock is taken, so an exit at any point of taking it cleans up.
 */
export function releaseApplyLockSync(root: string): void {
  const path = applyLockPath(root);
  rmSync(ownCopyOf(path), { force: true });
  if (holdingTakeover) rmSync(holdingTakeover, { recursive: true, force: true });
  let text = '';
  try {
    text = readFileSync(path, 'utf8');
  } catch {
    // Not taken yet (stopped between the folder's mkdir and the lock's link, probe IL-2): the folder may be left empty all the same.
  }
  if (isOurs(text)) rmSync(path, { force: true });
  // As release() does: the folder goes too when nothing else is left in it.
  try {
    rmdirSync(dirname(path));
  } catch {
    // Not empty (records, another run's copy), or gone: it stays for the last one out.
  }
}

async function tryCreate(path: string, holder: ApplyLockHolder): Promise<boolean> {
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // Node's recursive mkdir says ENOENT on a read-only file system too: with nothing there, the
    // plain mkdir names the cause (probe LU-1). Something there (a link to nothing) is in the way.
    const there = await lstat(dirname(path)).then(() => true, () => false);
    if (code === 'ENOENT' && !there) {
      const plain = await mkdir(dirname(path)).then(() => undefined, (e: unknown) => e);
      if (plain !== undefined) throw unusable(path, plain, (plain as NodeJS.ErrnoException).code === 'ENOENT' ? `${dirname(path)} cannot be made (its parent folder is gone)` : undefined);
    } else {
      const inTheWay = code === 'EEXIST' || code === 'ENOTDIR' || code === 'ENOENT';
      throw unusable(path, error, inTheWay ? `${dirname(path)} ${(await isLink(dirname(path))) ? 'is a symbolic link to nothing' : 'is not a folder'}` : undefined);
    }
  }
  const copy = ownCopyOf(path);
  const text = `${JSON.stringify(holder)}\n`;
  try {
    await writeFile(copy, text, 'utf8');
    await link(copy, path);
    return true;
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // EEXIST: held. ENOENT: the folder went between its mkdir and this write (a run that made it
    // removed it, empty, as it released its lock): looked at again.
    if (code === 'EEXIST' || code === 'ENOENT') return false;
    // A file system without hard links: the lock is created in place (and is empty for an instant).
    if (code !== 'EPERM' && code !== 'ENOTSUP' && code !== 'ENOSYS') {
      // Gone before the folder is looked at (the `finally` below runs only after this throw).
      await rm(copy, { force: true });
      throw await withFolderLeft(path, unusable(path, error));
    }
  } finally {
    await rm(copy, { force: true });
  }
  try {
    const file = await open(path, 'wx');
    try {
      await file.writeFile(text, 'utf8');
    } catch (error) {
      // Made and not written (a full disk): no lock of nobody's is left behind.
      await file.close();
      await rm(path, { force: true });
      throw error;
    }
    await file.close();
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw await withFolderLeft(path, unusable(path, error));
  }
}

/** `error`, once the lock's folder is removed if nothing is in it: a full disk left an empty `.docket/` behind (probe MU-3). */
async function withFolderLeft(path: string, error: DocketError): Promise<DocketError> {
  await rmdir(dirname(path)).catch(() => undefined);
  return error;
}

/** The lock cannot be made at all (a file where its folder goes, no permission): not a bug of docket, and nothing to wait for. */
function unusable(path: string, error: unknown, why?: string): DocketError {
  return new DocketError('apply-lock-unusable', `cannot create the apply lock ${path}: ${why ?? (error as Error).message}`, unusableHint(dirname(path), why ? 'in-the-way' : (error as NodeJS.ErrnoException).code));
}

/** What to do, by what stopped the lock: a file in the way, permissions, or a full disk. */
export function unusableHint(folder: string, cause: string | undefined): string {
  const keeps = `docket keeps its apply lock in ${folder}`;
  if (cause === 'in-the-way') return `${keeps}: make it a folder docket can write to (move the file that is in its way)`;
  if (isWriteRefused(cause)) return `${keeps}: let the user that runs docket write there (its permissions, or a read-only file system)`;
  if (cause === 'ENOSPC' || cause === 'EDQUOT') return `${keeps}: free some space on its disk (or quota), then run the command again`;
  return `${keeps}: make it a folder docket can write to (move anything in its way)`;
}

async function readHolder(path: string): Promise<ApplyLockHolder | undefined> {
  // Not read unless it is a file: reading a named pipe would wait for a writer for ever.
  if (!(await stat(path).then((s) => s.isFile(), () => true))) throw notAFile(path);
  try {
    const value = JSON.parse(await readFile(path, 'utf8')) as Partial<ApplyLockHolder>;
    if (typeof value.pid === 'number' && typeof value.host === 'string' && typeof value.started === 'string') {
      return {
        pid: value.pid,
        host: value.host,
        started: value.started,
        ...(typeof value.checkout === 'string' ? { checkout: value.checkout } : {}),
        ...(typeof value.command === 'string' && /^[a-z]+$/.test(value.command) ? { command: value.command } : {}),
        ...(Number.isSafeInteger(value.start_ticks) ? { start_ticks: value.start_ticks } : {}),
      };
    }
  } catch {
    // Missing, half-written or not ours: the caller looks again.
  }
  return undefined;
}

/**
 * A holder writes its pid the moment it creates the file, so one still unreadable after that long
 * was left half-written (killed in between, or a crash that left it empty): nobody holds it.
 */
const UNREADABLE_GRACE_MS = 2000;

async function unreadableAge(path: string): Promise<'fresh' | 'old' | 'gone'> {
  let info;
  try {
    info = await stat(path);
  } catch {
    // A link to nothing is there, yet reads as gone: never docket's (it makes plain files), and
    // taken for released it would be tried again for ever.
    if (await isLink(path)) throw notAFile(path, 'is a symbolic link to nothing');
    return 'gone';
  }
  // Never made by docket, and never removed by it: someone's folder is in the lock's place.
  if (!info.isFile()) throw notAFile(path);
  return ageOf(info.mtimeMs) > UNREADABLE_GRACE_MS ? 'old' : 'fresh';
}

/** Further in the future than this, a file's time is a clock that stepped back (or a share's server ahead), not "just now". */
const FUTURE_TOLERANCE_MS = 60_000;

/** How long ago a file was changed; one dated well in the future counts as long ago, or it would never age. */
function ageOf(mtimeMs: number): number {
  const age = Date.now() - mtimeMs;
  return age < -FUTURE_TOLERANCE_MS ? Number.POSITIVE_INFINITY : age;
}

function notAFile(path: string, what = 'is not a file'): DocketError {
  return new DocketError('apply-lock-unusable', `the apply lock ${path} ${what}`, `docket keeps its apply lock there: move or delete what is in its place`);
}

/** The apply (or `docket test`) of this checkout that another process is running now, if any. */
export async function runningApply(root: string): Promise<ApplyLockHolder | undefined> {
  const holder = await readHolder(applyLockPath(root)).catch(() => undefined);
  return holder && holder.pid !== process.pid && !isStale(holder) ? holder : undefined;
}

function isStale(holder: ApplyLockHolder): boolean {
  if (holder.host !== hostname()) return false;
  // Its pid given again since (a reboot, a restarted container that kept the workspace), to this
  // process or another: the start the lock records is not that process's.
  const reused = (pid: number): boolean => {
    if (holder.start_ticks === undefined) return false;
    const ticks = processStartTicks(pid);
    return ticks !== undefined && ticks !== holder.start_ticks;
  };
  // This process's own pid with no start recorded (an older docket, a system without /proc): not
  // held by this process when it holds no apply lock, so another process had the pid before (probe YD-3).
  if (holder.pid === process.pid) return holder.start_ticks === undefined ? locksHeldHere === 0 : reused(process.pid);
  return !processAlive(holder.pid) || reused(holder.pid);
}

/** How many apply locks this process holds now (one, in a CLI run; more where runs share a process, as tests do). */
let locksHeldHere = 0;

/** The lock's holder is gone, and another apply is taking it over (or one killed while it did left its folder). */
function busyTakingOver(path: string, timeoutMs: number, by: LockTaker): DocketError {
  return new DocketError(
    'apply-locked',
    `another docket run is taking over ${path}, left by a process that no longer runs (${path}.takeover is there)${waited(timeoutMs)}`,
    `run ${by.command} again in a few seconds (a takeover folder older than ${TAKEOVER_GRACE_MS / 1000} s is removed), or pass ${by.waitLonger(timeoutMs, '1m')} to wait`,
  );
}

function busy(path: string, holder: ApplyLockHolder | undefined, timeoutMs: number, checkout: string | undefined, by: LockTaker): DocketError {
  const elsewhere = holder?.checkout !== undefined && holder.checkout !== checkout ? `, in the checkout ${holder.checkout}` : '';
  const who = holder ? `pid ${holder.pid} on ${holder.host}, started ${holder.started}${elsewhere}` : 'a process docket cannot identify: the file is being written, or was left half-written';
  return new DocketError(
    'apply-locked',
    `another docket ${holder?.command ?? 'apply'} holds ${path} (${who})${waited(timeoutMs)}`,
    !holder
      ? `run ${by.command} again in a few seconds (a lock left half-written is taken over), or pass ${by.waitLonger(timeoutMs, '5m')} to wait`
      : holder.host !== hostname()
        ? `wait for it, or pass ${by.waitLonger(timeoutMs, '5m')} to wait longer; if no docket ${holder.command ?? 'apply'} is running on ${holder.host}, delete ${path}`
        : `wait for it to finish, or pass ${by.waitLonger(timeoutMs, '5m')} to wait for it; if pid ${holder.pid} is no docket ${holder.command ?? 'apply'}, delete ${path}`,
  );
}

/** `, still after waiting 1m` when the apply waited, for the busy messages. */
function waited(timeoutMs: number): string {
  return timeoutMs > 0 ? `, still after waiting ${formatDuration(timeoutMs)}` : '';
}

/** Whether a lock's text is this process's. */
function isOurs(text: string): boolean {
  try {
    return (JSON.parse(text) as ApplyLockHolder).pid === process.pid;
  } catch {
    return false;
  }
}

/** Released, the lock takes its folder with it when nothing else is left there (a pull that wrote nothing made it only for the lock). */
function held(path: string): HeldApplyLock {
  locksHeldHere++;
  let released = false;
  return {
    async release() {
      if (!released) locksHeldHere--;
      released = true;
      const text = await readFile(path, 'utf8').catch(() => '');
      if (!isOurs(text)) return;
      await rm(path, { force: true });
      // Not empty (the run wrote its records there, or another run waits with its own copy): it stays, for the last one out.
      await rmdir(dirname(path)).catch(() => undefined);
    },
  };
}

/**
 * Runs `fn` holding the apply lock of the configuration at `root` (waiting up to `timeoutMs`), and
 * releases it after, or at a signal's exit. `docket test --emulator` takes it too: it applies to the
 * in-process emulator, whose state an apply beside it would otherwise overwrite, or be overwritten by.
 */
export async function holdingApplyLock<T>(io: Io, options: { root: string; timeoutMs: number; checkout?: string; takenBy?: LockTaker }, fn: () => Promise<T>): Promise<T> {
  // The lock's folder is made in the checkout: one that is no configuration is said as such first.
  if (options.checkout !== undefined) await refuseNoConfiguration(options.checkout);
  const release = await takeApplyLock(io, options);
  try {
    return await fn();
  } finally {
    await release();
  }
}

/** Whose apply a wait is for: this checkout's, or another's that shares its docket.lock.json (a lock beside the shared file). */
function waitedFor(holder: ApplyLockHolder, checkout: string | undefined, root: string): string {
  const command = holder.command ?? 'apply';
  if (holder.checkout !== undefined && checkout !== undefined && holder.checkout !== checkout) return `a docket ${command} of another checkout sharing this docket.lock.json (${holder.checkout})`;
  if (holder.checkout === undefined && checkout !== undefined && root !== checkout) return `another docket ${command} of this checkout (or of another sharing its docket.lock.json)`;
  return `another docket ${command} of this checkout`;
}

/** The apply lock, taken as holdingApplyLock takes it, for a caller that releases it itself (returned). */
export async function takeApplyLock(io: Io, options: { root: string; timeoutMs: number; checkout?: string; takenBy?: LockTaker }): Promise<() => Promise<void>> {
  // The lock and the temporary copies of the files a run writes go in .docket: one linked out of
  // the configuration would have them written elsewhere, as the emulator's state is refused (probe LU-3).
  for (const root of new Set([options.root, ...(options.checkout !== undefined ? [options.checkout] : [])])) {
    const outside = await linkOutside(root, WORK_DIR).catch(() => undefined);
    if (outside) throw new DocketError('apply-lock-unusable', `${root}: ${outside.message}; docket keeps its apply lock and the temporary copies of the files it writes there`, `make ${WORK_DIR} a folder of the configuration: remove the link (docket makes the folder)`);
  }
  const interrupts = interruptsOf(io);
  // One checkout however its path is spelled (a linked home folder, /tmp and /private/tmp), as `root` is.
  const checkout = options.checkout === undefined ? undefined : realPathOrSelf(options.checkout);
  // Before the lock is taken: a signal while it is being taken must not leave it behind.
  const releaseOnExit = interrupts.onExit(() => releaseApplyLockSync(options.root), true);
  const applyLock = await acquireApplyLock({
    root: options.root,
    timeoutMs: options.timeoutMs,
    signal: interrupts.signal,
    ...(options.takenBy ? { takenBy: options.takenBy } : {}),
    ...(checkout ? { checkout } : {}),
    onWait: (h) => io.stderr(`Waiting for ${waitedFor(h, checkout, realPathOrSelf(options.root))} to finish (pid ${h.pid}, started ${h.started})…\n`),
  }).catch((error: unknown) => {
    releaseOnExit();
    throw error;
  });
  return async () => {
    // The exit's cleanup stays until the lock is gone: a signal while it is being removed must not leave it behind.
    try {
      await applyLock.release();
    } finally {
      releaseOnExit();
    }
  };
}
