/** Runs the real CLI program in-process with captured output, a fake terminal and a chosen environment. */
import { main } from '../../src/cli/main.js';
import type { Io } from '../../src/cli/io.js';
import type { Interrupts } from '../../src/cli/interrupt.js';

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  env?: Record<string, string | undefined>;
  /** Pretend stdin is a terminal and answer prompts with this text. */
  answer?: string;
  /** Runs while the prompt waits, before the answer (someone editing in the app meanwhile). */
  whileAsked?: () => Promise<void>;
  tty?: boolean;
  /** Whether stderr is a terminal, when it is not what `tty` says (errors redirected to a log). */
  stderrTty?: boolean;
  /** Signals as the run sees them (none by default). */
  interrupts?: Interrupts;
  /** stdout could not be written (`ENOSPC`: a full disk), as processIo says it. */
  outputFailure?: string;
  /** Where the run is started (default: the test's own working directory). */
  cwd?: string;
}

export async function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  let stdout = '';
  let stderr = '';
  const io: Io = {
    stdout: (t) => {
      stdout += t;
    },
    stderr: (t) => {
      stderr += t;
    },
    isTTY: options.tty ?? false,
    stderrTTY: options.stderrTty ?? options.tty ?? false,
    canPrompt: options.answer !== undefined,
    prompt: async (q) => {
      stderr += q;
      await options.whileAsked?.();
      return options.answer ?? '';
    },
    env: { PATH: process.env.PATH, ...options.env },
    cwd: options.cwd ?? process.cwd(),
    ...(options.interrupts ? { interrupts: options.interrupts } : {}),
    ...(options.outputFailure ? { outputFailure: () => options.outputFailure } : {}),
  };
  const code = await main(['node', 'docket', ...args], { io });
  return { code, stdout, stderr };
}
