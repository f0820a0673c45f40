/**
 * One standalone emulator per `--state` file: each writes its whole state, so two at once would
 * drop each other's writes without a word. `STATE.lock` holds the pid, host and start of the
 * emulator using it; one left by a process that no longer runs on this host is taken over.
 * Making it also finds a folder the state cannot be written in before any request is answered
 * (the emulator would answer writes it had made with a 500, and save none).
 */
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { readFileSync, rmSync } from 'node:fs';
import { hostname } from 'node:os';
import { dirname } from 'node:path';
import { DocketError } from '../errors.js';
import { processAlive, processStartTicks } from '../util/process-alive.js';
import { isPlainObject } from '../util/plain.js';

interface Holder {
  pid: number;
  host: string;
  started: string;
  start_ticks?: number;
}

/** Takes `STATE.lock`; the returned function (also run at exit) gives it back. */
export async function holdStateFile(state: string): Promise<() => void> {
  const path = `${state}.lock`;
  const ticks = processStartTicks(process.pid);
  const mine: Holder = { pid: process.pid, host: hostname(), started: new Date().toISOString(), ...(ticks !== undefined ? { start_ticks: ticks } : {}) };
  // A path that is wrong otherwise (a file where a folder goes) is said by the state's read, in its own words.
  const nothingHeld = (): void => undefined;
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    if (isRefusal(error)) throw unwritable(state, error as NodeJS.ErrnoException);
    return nothingHeld;
  }
  for (let attempt = 0; ; attempt++) {
    try {
      await writeFile(path, `${JSON.stringify(mine)}\n`, { flag: 'wx' });
      break;
    } catch (error) {
      if (isRefusal(error)) throw unwritable(state, error as NodeJS.ErrnoException);
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') return nothingHeld;
      const holder = await readHolder(path);
      if (attempt > 0) throw busy(state, path, holder);
      if (holder && !gone(holder)) throw busy(state, path, holder);
      // Left by an emulator that no longer runs (killed with SIGKILL, or the machine restarted).
      await rm(path, { force: true });
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

async function readHolder(path: string): Promise<Holder | undefined> {
  try {
    const value: unknown = JSON.parse(await readFile(path, 'utf8'));
    return isPlainObject(value) && typeof value.pid === 'number' && typeof value.host === 'string' ? (value as unknown as Holder) : undefined;
  } catch {
    return undefined;
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
    `cannot start the emulator: another emulator uses ${state}${who}, and each writes the whole state, so one would drop the other's changes`,
    `stop that emulator first, or name another --state file; if no emulator runs, delete ${path}`,
  );
}

function isRefusal(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'EACCES' || code === 'EPERM' || code === 'EROFS';
}

function unwritable(state: string, error: NodeJS.ErrnoException): DocketError {
  return new DocketError('emulator-state', `cannot start the emulator: the state file ${state} cannot be written in its folder (${error.code ?? 'unknown error'})`, 'make the folder writable, or name a --state file in a folder you can write');
}
