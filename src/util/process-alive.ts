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

/** /proc/PID/stat is `pid (comm) state …`, and comm may hold spaces and parentheses. */
function endedOnLinux(pid: number): boolean {
  if (process.platform !== 'linux') return false; // no /proc: signal 0 is all there is
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
  } catch (error) {
    // Gone since the signal; anything else (a /proc not mounted) says nothing.
    return (error as NodeJS.ErrnoException).code === 'ENOENT' && readableProc();
  }
  return stat.charAt(stat.lastIndexOf(')') + 2) === 'Z';
}

/**
 * When a process started (epoch ms), where /proc says: its age is the time since boot
 * (`/proc/uptime`) less its start in clock ticks after boot (`/proc/PID/stat` field 22, at Linux's
 * fixed 100 a second), both counted by the same clock, so a wall clock set since does not move it.
 * Undefined elsewhere, or when it cannot be read.
 */
export function processStartedAt(pid: number): number | undefined {
  if (process.platform !== 'linux') return undefined;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    const ticks = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]);
    const uptime = Number(readFileSync('/proc/uptime', 'latin1').split(' ')[0]);
    return Number.isFinite(ticks) && Number.isFinite(uptime) && uptime > 0 ? Date.now() - (uptime - ticks / 100) * 1000 : undefined;
  } catch {
    return undefined;
  }
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
