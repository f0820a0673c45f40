import { readFileSync } from 'node:fs';
import { readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Whether a process with this pid runs on this host (one we may not signal still runs). A zombie
 * does not: a docket killed with SIGKILL whose parent has not reaped it yet (a killed `timeout`, a
 * container without an init) still answers signal 0, and its apply lock would be refused.
 */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
  return !endedOnLinux(pid);
}

/** A zombie's state is `Z` (comm, before it, may hold spaces and parentheses: statFields). */
function endedOnLinux(pid: number): boolean {
  if (process.platform !== 'linux') return false; // no /proc: signal 0 is all there is
  let fields: string[];
  try {
    fields = statFields(pid);
  } catch (error) {
    // Gone since the signal; anything else (a /proc not mounted) says nothing.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && readableProc();
  }
  return fields[0] === 'Z';
}

/**
 * When a process started, as /proc says it (`/proc/PID/stat` field 22: clock ticks after boot):
 * with its pid, which a process after it may get again, it names one process. No wall clock is
 * read, so neither a clock set since nor a container's own uptime moves it. Undefined where there
 * is no /proc, or it cannot be read.
 */
export function processStartTicks(pid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const ticks = Number(statFields(pid)[19]);
    return Number.isSafeInteger(ticks) ? ticks : undefined;
  } catch {
    return undefined;
  }
}

/** /proc/PID/stat's fields after `pid (comm)`, from its state (field 3) on; throws as the read does. */
function statFields(pid: number): string[] {
  const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

function readableProc(): boolean {
  try {
    readFileSync('/proc/self/stat', 'latin1');
    return true;
  } catch {
    return false;
  }
}

/**
 * Removes the entries of `dir` a process that is gone left (a temporary file, a staging folder):
 * `ownerOf` reads the process id from an entry's name, undefined for an entry that is not one.
 */
export async function removeLeftByDeadProcesses(dir: string, ownerOf: (name: string) => number | undefined): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  for (const name of names) {
    const pid = ownerOf(name);
    if (pid !== undefined && Number.isInteger(pid) && pid !== process.pid && !processAlive(pid)) await rm(join(dir, name), { recursive: true, force: true });
  }
}
