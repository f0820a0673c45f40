/**
 * Where output goes. Results go to stdout, progress and logs to stderr; colour only on a terminal
 * and never with NO_COLOR or --no-color. Injected so tests can run commands in-process.
 */
import { createInterface } from 'node:readline/promises';
import { stripControl } from '../render/sanitize.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';
import { noInterrupts, processInterrupts, type Interrupts } from './interrupt.js';

export interface Io {
  stdout(text: string): void;
  stderr(text: string): void;
  /** stdout is a terminal. */
  isTTY: boolean;
  /** stderr is a terminal (progress lines go there). */
  stderrTTY?: boolean;
  /** stdin is a terminal (a person can answer a prompt). */
  canPrompt: boolean;
  /** The answer, or null when the person cancelled (Ctrl-C or Ctrl-D). */
  prompt(question: string): Promise<string | null>;
  env: Record<string, string | undefined>;
  cwd: string;
  /** Ctrl-C and SIGTERM (none in-process). */
  interrupts?: Interrupts;
  /** Why stdout could not be written (a full disk), when it could not: the run then fails. */
  outputFailure?: () => string | undefined;
  /**
   * Resolves once stdout's reader has taken most of what was written (a pipe): long outputs wait
   * on it between pieces instead of piling up in memory. Signals and timers still run meanwhile.
   */
  stdoutDrained?: () => Promise<void>;
  /** Writes workflow commands docket means (`--annotations github`) as they are; stdout and stderr break them up. */
  commands?: (stream: 'stdout' | 'stderr', text: string) => void;
}

/** Whether stdout failed: asked after a turn of the event loop, as a write's error comes on a later tick. */
export async function outputFailed(io: Io): Promise<string | undefined> {
  if (!io.outputFailure) return undefined;
  await new Promise<void>((resolve) => setImmediate(resolve));
  return io.outputFailure();
}

/**
 * Work done whose report stdout lost (a full disk): stderr says it was done, or the exit 1 reads as
 * nothing done, and the rerun is refused (`--out` not empty) with no word why (probe KW-2).
 */
export async function sayDoneUnreported(io: Io, done: string): Promise<void> {
  if ((await outputFailed(io)) !== undefined) io.stderr(`Warning: ${done}, but its report could not be written\n`);
}

export function processIo(): Io {
  let failure: string | undefined;
  const stderr = closableOutput(process.stderr, () => undefined).write;
  const out = closableOutput(process.stdout, (code) => {
    failure ??= code;
    stderr(`Error: cannot write the output (${code})\n`);
    // The failure often arrives after main() returned its code (writes are asynchronous).
    process.exitCode = 1;
  });
  return {
    outputFailure: () => failure,
    stdout: out.write,
    stdoutDrained: out.drained,
    stderr,
    isTTY: Boolean(process.stdout.isTTY),
    stderrTTY: Boolean(process.stderr.isTTY),
    // The question goes to stderr: redirected (`2>apply.log`), the person at the terminal would wait on a question never shown (probe BL-3).
    canPrompt: Boolean(process.stdin.isTTY) && Boolean(process.stderr.isTTY),
    async prompt(question) {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      const cancel = new AbortController();
      // Ctrl-C in the prompt (readline takes it from the terminal), or Ctrl-D (end of input).
      rl.on('SIGINT', () => cancel.abort());
      rl.on('close', () => cancel.abort());
      try {
        return await rl.question(question, { signal: cancel.signal });
      } catch {
        stderr('\n');
        return null;
      } finally {
        rl.close();
      }
    },
    env: process.env,
    cwd: workingDirectory(),
    interrupts: processInterrupts(),
  };
}

/**
 * The directory docket was started in. One removed since (a branch switch under a shell) has no
 * path to give: none stands in, so an absolute path works and a relative one, resolved against
 * it, asks again and is said gone (cli/main.ts), never made elsewhere (probe MU-2, second read SR77-3).
 */
export function workingDirectory(): string {
  try {
    return process.cwd();
  } catch {
    return '';
  }
}

export function interruptsOf(io: Io): Interrupts {
  return io.interrupts ?? noInterrupts();
}

export interface OutputFlags {
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/** `--no-color` and NO_COLOR win; FORCE_COLOR (not `0`) colours CI logs that are not terminals. */
export function useColor(io: Io, flags: OutputFlags, stream: 'stdout' | 'stderr' = 'stdout'): boolean {
  if (flags.color === false) return false;
  if (io.env.NO_COLOR !== undefined && io.env.NO_COLOR !== '') return false;
  const force = io.env.FORCE_COLOR;
  if (force !== undefined && force !== '' && force !== '0' && force.toLowerCase() !== 'false') return true;
  if (isDumbTerminal(io)) return false;
  // Each stream by its own terminal: errors redirected to a log while the results show get none (probe KW-1).
  return stream === 'stderr' ? io.stderrTTY === true : io.isTTY;
}

/** A terminal that shows no colour and moves no cursor (`TERM=dumb`: Emacs's shell, CI consoles on a pty; probe TD-1). */
export function isDumbTerminal(io: Pick<Io, 'env'>): boolean {
  return io.env.TERM === 'dumb';
}

/** Logs for stderr: notes suppressed by -q; request lines only with -v, which asks for them by name even with -q. */
export class Logger {
  constructor(
    private readonly io: Io,
    private readonly flags: OutputFlags,
  ) {}

  // A note or a request line may quote a service's words, and a URL in them its password or token (probe XF-1).
  info(text: string): void {
    if (!this.flags.quiet) this.io.stderr(`${stripControl(lineWithoutSecrets(text))}\n`);
  }

  /** A line -q does not hold back either: a warning that fails the run (`test --fail-on-warn`) is one of its errors. */
  error(text: string): void {
    this.io.stderr(`${stripControl(lineWithoutSecrets(text))}\n`);
  }

  debug(text: string): void {
    if (this.flags.verbose) this.io.stderr(`${stripControl(lineWithoutSecrets(text))}\n`);
  }
}

/**
 * A stream whose reader may go away (`docket plan | head`): once a write fails with EPIPE, the rest
 * of the output is dropped and the command carries on to its end, as if it had been written (an
 * apply is never cut short because nobody reads its log). Any other write error (a full disk) is
 * told to `failed` once, which makes the run fail at its end, instead of a crash with a stack trace.
 */
function closableOutput(stream: NodeJS.WriteStream, failed: (code: string) => void): { write: (text: string) => void; drained: () => Promise<void> } {
  let closed = false;
  stream.on('error', (error: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    if (error.code !== 'EPIPE') failed(error.code ?? 'unknown error');
  });
  return {
    write: (text) => {
      if (!closed) stream.write(text);
    },
    drained: () => {
      if (closed || stream.writableLength < PACE_BYTES) return Promise.resolve();
      // A reader that goes away ends the wait too (the rest is dropped, as above).
      return new Promise((resolve) => {
        const done = (): void => {
          stream.off('drain', done);
          stream.off('close', done);
          stream.off('error', done);
          resolve();
        };
        stream.once('drain', done);
        stream.once('close', done);
        stream.once('error', done);
      });
    },
  };
}

/** What stdout may hold unwritten before a long output waits for its reader. */
const PACE_BYTES = 1024 * 1024;
