/**
 * One standalone emulator per `--state` file: each writes its whole state, so two at once would
 * drop each other's writes without a word. `STATE.lock` (beside the file a link there leads to)
 * holds the pid, host and start of the emulator using it, taken before the state is read; one
 * left by a process that no longer runs on this host is taken over, by one emulator at a time
 * (`STATE.lock.takeover`). Making it also finds a folder the state cannot be written in before
 * any request is answered (the emulator would answer writes it had made with a 500, and save none).
 */
import { mkdir, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { DocketError } from '../errors.js';
import { writeDestinationOrAsNamed } from '../util/atomic-write.js';
import { processAlive, processStartTicks } from '../util/process-alive.js';
import { isPlainObject } from '../util/plain.js';
import { readRegularFileSync } from '../util/special-file.js';
import { isWriteRefused } from '../util/permission.js';

interface Holder {
  pid: number;
  host: string;
  started: string;
  start_ticks?: number;
}

/** A lock younger than this that cannot be read is being written by the emulator that made it; a takeover folder older than it was left by a killed one. */
const WRITING_GRACE_MS = 5_000;

/** Takes `STATE.lock`; the returned function (also run at exit) gives it back. */
export async function holdStateFile(state: string): Promise<() => void> {
  const path = `${writeDestinationOrAsNamed(state)}.lock`;
  const ticks = processStartTicks(process.pid);
  const mine: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), ...(ticks !== undefined ? { start_ticks: ticks } : {}) };
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    throw unwritable(state, error as NodeJS.ErrnoException);
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(path, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unwritable(state, error as NodeJS.ErrnoException);
      const holder = await readHolder(path, state);
      if (attempt > 0 || holder !== 'gone') throw busy(state, path, holder === 'gone' ? undefined : holder);
      await takeOver(path, state);
    }
  }
  const release = (): void => {
    process.off('exit', release);
    try {
      const holder = JSON.parse(readFileSync(path, 'utf8')) as Partial<Holder>;
      if (holder.pid === process.pid) rmSync(path, { force: true });
    } catch {
      // Gone already, or taken over: not this process's to remove.
    }
  };
  process.on('exit', release);
  return release;
}

/** The lock's holder; `gone` when its process no longer runs here; undefined while it is being written. */
async function readHolder(path: string, state: string): Promise<Holder | 'gone' | undefined> {
  let text: string;
  try {
    // Not waited on: a named pipe there would block the start.
    text = readRegularFileSync(path).toString('utf8');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return 'gone';
    throw new DocketError('emulator-state', `cannot start the emulator: ${path}, where it records that it uses ${state}, is not a file it can read (${code ?? 'unknown error'})`, `move ${path} away`);
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    value = undefined;
  }
  if (!isPlainObject(value) || typeof value.pid !== 'number' || typeof value.host !== 'string') {
    // Empty a moment while its emulator writes it; left so by one killed then, once it is older.
    const age = await stat(path).then((s) => Date.now() - s.mtimeMs, () => Infinity);
    return age > WRITING_GRACE_MS ? 'gone' : undefined;
  }
  const holder = value as unknown as Holder;
  return gone(holder) ? 'gone' : holder;
}

/** Removes a lock whose emulator is gone, one emulator at a time: two would each remove the other's new lock. */
async function takeOver(path: string, state: string): Promise<void> {
  const guard = `${path}.takeover`;
  try {
    await mkdir(guard);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw unwritable(state, error as NodeJS.ErrnoException);
    const age = await stat(guard).then((s) => Date.now() - s.mtimeMs, () => 0);
    if (age <= WRITING_GRACE_MS) throw busy(state, path, undefined);
    // Left by an emulator killed while it took the lock over.
    await rmdir(guard).catch(() => undefined);
    await mkdir(guard).catch(() => {
      throw busy(state, path, undefined);
    });
  }
  try {
    await rm(path, { force: true });
  } finally {
    await rmdir(guard).catch(() => undefined);
  }
}

/** Its process no longer runs here (or its pid was given to another process since). */
function gone(holder: Holder): boolean {
  if (holder.host !== hostname()) return false;
  if (!processAlive(holder.pid)) return true;
  const ticks = holder.start_ticks === undefined ? undefined : processStartTicks(holder.pid);
  return ticks !== undefined && ticks !== holder.start_ticks;
}

function busy(state: string, path: string, holder: Holder | undefined): DocketError {
  const who = holder ? ` (pid ${holder.pid} on ${holder.host}, started ${holder.started})` : '';
  return new DocketError(
    'emulator-state',
    `cannot start the emulator: another docket process uses ${state}${who} (an emulator, or a command run with --emulator), and each writes the whole state, so one would drop the other's changes`,
    `let that process end or stop it first (or start this one on another --state file); if none runs, delete ${path}`,
  );
}

function unwritable(state: string, error: NodeJS.ErrnoException): DocketError {
  const code = error.code ?? 'unknown error';
  const refused = isWriteRefused(code);
  // A file where a folder of the path goes, a name too long: the path's, as the state's read would say.
  const fix = refused ? 'make the folder writable, or name a --state file in a folder you can write' : code === 'ENOTDIR' ? 'a folder on its path is a file: move it away, or name another --state file' : 'check the path and the folders it names';
  return new DocketError('emulator-state', `cannot start the emulator: the state file ${state} cannot be written in its folder (${code})`, fix);
}
