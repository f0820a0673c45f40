/**
 * The end of the process, once its output is written. Left to end by itself, Node closes its
 * signal handlers and then frees the heap, which after a large apply takes tenths of a second: a
 * SIGTERM in that window (a CI runner sends one as the job ends) killed docket silently, with the
 * signal's status, after its report said every change was done.
 */
export async function exitWhenWritten(code: number): Promise<never> {
  process.exitCode = code;
  // A write that failed (a full disk) says so a tick later, and that sets the exit code to 1.
  await new Promise((resolve) => setImmediate(resolve));
  await Promise.all([written(process.stdout), written(process.stderr)]);
  // The code main returned, or 1 when output failed after it (processIo sets it).
  exitNow(typeof process.exitCode === 'number' ? process.exitCode : 0);
}

/** The shell's status of a process SIGHUP ended (128 + 1). */
const HUNG_UP = 129;
let hungUp = false;

/** Says the process got SIGHUP: however it then ends, it ends by that signal (exitNow). */
export function noteHangUp(): void {
  hungUp = true;
}

/**
 * Exits with `code`. Stopped by SIGHUP, the process ends by that signal instead, once the clean stop
 * is done: the terminal it ran in may be gone, and Node's exit, which restores the terminal's
 * settings, then aborts with a native stack trace (second read SR78B-1). The shell says 129 all the same.
 */
export function exitNow(code: number): never {
  if (code === HUNG_UP || hungUp) {
    process.removeAllListeners('SIGHUP');
    process.kill(process.pid, 'SIGHUP');
  }
  process.exit(code);
}

/** Resolves once what was written to `stream` has gone out (at once for a pipe or a file on Linux). */
function written(stream: NodeJS.WriteStream): Promise<void> {
  if (stream.destroyed || stream.writableLength === 0) return Promise.resolve();
  return new Promise((resolve) => {
    stream.write('', () => resolve());
  });
}
