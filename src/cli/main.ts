/**
 * The commander program and the only place that maps errors to exit codes:
 * 0 success, 1 any error, 2 from `plan --detailed-exitcode` when the plan has changes, 130 and
 * 143 when Ctrl-C or SIGTERM stopped an apply (a signal with nothing to stop cleanly ends the
 * process with the same codes in cli/interrupt.ts).
 */
import { errorText } from './error-text.js';
import { Command, CommanderError } from 'commander';
import { statSync } from 'node:fs';
import path from 'node:path';
import { checkFlagValues, SHORT_FLAGS_WITH_VALUE, SHORT_FLAGS_WITHOUT_VALUE } from './flag-values.js';
import { ApiError, ConfigError, DocketError, InterruptedError, UsageError, usageMessage } from '../errors.js';
import { errorJson, jsonText, renderDiagnosticsJson } from '../render/json.js';
import { escapeControl, stripControl } from '../render/sanitize.js';
import { renderTestErrorJson } from '../render/test-json.js';
import { VERSION } from '../version.js';
import { interruptsOf, processIo, useColor, type Io } from './io.js';
import { interruptedAtOnce, type SignalName } from './interrupt.js';
import { redactingIo } from './redact.js';
import { commandSafeIo } from './workflow-commands.js';
import { shellPath } from '../util/shell-word.js';
import { quoteValue } from '../config/quote.js';

export { exitWhenWritten } from './exit.js';

interface CommandContext {
  io: Io;
  setExit: (code: number) => void;
  waitForStop: () => Promise<void>;
  program: () => Command;
}

/**
 * Each command's module, loaded only when that command runs (or for help), so `docket --version`
 * or `validate` do not pay for undici, the engine or the emulator.
 */
const COMMANDS: Record<string, (c: CommandContext) => Promise<Command>> = {
  validate: async (c) => (await import('./commands/validate.js')).validateCommand(c.io, c.setExit),
  plan: async (c) => (await import('./commands/plan.js')).planCommand(c.io, c.setExit),
  apply: async (c) => (await import('./commands/apply.js')).applyCommand(c.io, c.setExit),
  drift: async (c) => (await import('./commands/drift.js')).driftCommand(c.io, c.setExit),
  pull: async (c) => (await import('./commands/pull.js')).pullCommand(c.io, c.setExit),
  show: async (c) => (await import('./commands/show.js')).showCommand(c.io, c.setExit),
  test: async (c) => (await import('./commands/test.js')).testCommand(c.io, c.setExit),
  export: async (c) => (await import('./commands/export.js')).exportCommand(c.io, c.setExit),
  emulator: async (c) => (await import('./commands/emulator.js')).emulatorCommand(c.io, c.waitForStop),
  init: async (c) => (await import('./commands/init.js')).initCommand(c.io, c.setExit),
  completion: async (c) => (await import('./commands/completion.js')).completionCommand(c.io, c.setExit, c.program),
};

/** `docket help nosuch` says there is no such command (commander prints the whole help and exits 1, saying nothing). */
async function checkHelpTopic(args: readonly string[]): Promise<void> {
  const [first, topic] = args;
  // `help` is commander's own command: `docket help help` is its help.
  if (first !== 'help' || topic === undefined || topic.startsWith('-') || topic === 'help' || Object.hasOwn(COMMANDS, topic)) return;
  const { didYouMean } = await import('../config/suggest.js');
  throw new UsageError(`unknown command ${JSON.stringify(topic)}${didYouMean(topic, Object.keys(COMMANDS))}`, 'run `docket --help` for the commands');
}

/**
 * `docket help test capture` is `docket test capture --help`: commander's help command reads only
 * its first word, so it showed the help of `test`.
 */
export function helpAsFlag(argv: string[]): string[] {
  const [node = 'node', bin = 'docket', first, command, ...rest] = argv;
  // `help help` is the help, as `help` is: commander printed it to stderr and exited 1 (probe JK-6).
  if (first === 'help' && command === 'help') return [node, bin, '--help', ...rest];
  // The words that name the subcommand come first; flags after them (`--no-color`) are kept.
  const words = rest.findIndex((a) => a.startsWith('-'));
  const sub = words < 0 ? rest : rest.slice(0, words);
  if (first !== 'help' || command === undefined || command.startsWith('-') || sub.length === 0) return argv;
  return [node, bin, command, ...rest, '--help'];
}

/** `docket --help plan` as `docket help plan`: that command's help, or "unknown command" with a suggestion (probe AC-6). */
export function helpBeforeCommand(argv: string[]): string[] {
  const [node = 'node', bin = 'docket', first, command, ...rest] = argv;
  if ((first !== '--help' && first !== '-h') || command === undefined || command.startsWith('-')) return argv;
  return [node, bin, 'help', command, ...rest];
}

/** The commands argv needs: the one it names, none for `--version`, all for help and mistakes. */
function commandsFor(args: string[]): string[] {
  const [first] = args;
  if (first !== undefined && first !== 'completion' && first in COMMANDS) return [first];
  if (args.length === 1 && first === '--version') return [];
  return Object.keys(COMMANDS);
}

const MAIN_HELP = `
Common flags (every command that reads a configuration):
  -C, --dir <DIR>     configuration directory (default .)
  --env <NAME>        environment from docket.yaml \`environments:\`
  --concurrency <N>   parallel requests and operations (default: docket.yaml or 8)
  --max-rps <N>       at most N (up to 10000) requests per second (default: docket.yaml max_rps; docket also slows down on 429)
  --no-color          never colour the output (also NO_COLOR; FORCE_COLOR forces it)
  -q, --quiet         print only results and errors
  -v, --verbose       log every request; list undeclared objects; show archives' fields

Environment:
  DOCKET_REVIEW_API_KEY, DOCKET_AGREEMENTS_API_KEY (or DOCKET_API_KEY for both): API keys, never read from files
  DOCKET_REVIEW_URL, DOCKET_AGREEMENTS_URL, DOCKET_ORGANIZATION_ID: override docket.yaml's top level (one an --env environment sets otherwise is an error)
  NO_COLOR: no colour; FORCE_COLOR: colour even when not on a terminal (--no-color and NO_COLOR win); TERM=dumb: no colour or progress line
  HTTPS_PROXY (https_proxy, ALL_PROXY), NO_PROXY: reach https services through a proxy; NODE_EXTRA_CA_CERTS: trust another certificate authority

Exit codes:
  0 success; 1 any error; 2 plan --detailed-exitcode found changes, or drift found drift; 130/143/129/131 stopped by Ctrl-C/SIGTERM/SIGHUP/SIGQUIT

Examples:
  docket plan -C config --emulator          what would change, against the local emulator
  docket plan --out plan.json && docket apply plan.json
`;

export interface MainOptions {
  io?: Io;
  /** Resolves when a foreground command (the emulator) should stop. */
  waitForStop?: () => Promise<void>;
  /**
   * The signals the entry script held while docket's modules loaded (its holders removed when
   * called): called once docket's own handlers listen, which then take them as they arrived.
   */
  signalsBeforeStart?: () => readonly SignalName[];
}

export async function main(argv: string[], options: MainOptions = {}): Promise<number> {
  // `docket test --junit F` stopped before its command runs: the report still says why (probe RR-1).
  // Loaded while the entry script still holds the signals: processIo() below listens to them.
  const junit = testRunJunit(argv);
  const earlyJunit = junit ? await import('./early-junit.js') : undefined;
  // Redacted first: `[redacted]` after a `##` written beside a key makes `##[`, which defusing then breaks up.
  const given = redactingIo(commandSafeIo(options.io ?? processIo()));
  // Whether the command printed its result (an apply report): a failure after it adds no second JSON document.
  let printed = false;
  const io: Io = {
    ...given,
    stdout: (text) => {
      printed = true;
      given.stdout(text);
    },
  };
  let exitCode = 0;
  const setExit = (code: number) => {
    exitCode = code;
  };
  const program = new Command('docket')
    .description('Plan and apply contract-review playbooks, terms, templates and members from YAML in git.')
    .exitOverride()
    // commander's errors quote what was typed: a control character in it must not reach the terminal.
    .configureOutput(outputTo(io))
    .showHelpAfterError('(run with --help for usage)')
    .addHelpText('after', MAIN_HELP);
  const context: CommandContext = { io, setExit, waitForStop: options.waitForStop ?? (() => waitForSignal(io)), program: () => program };

  // Listened to from here on (the entry script held signals until now): nothing awaited before it.
  const dropEarlyJunit = junit && earlyJunit ? earlyJunit.earlyJunit(interruptsOf(io), junit, io.cwd, io.env) : undefined;
  // A signal that ends the process before the command printed its result: still one JSON document
  // (its renderers are imported up front because the exit cannot wait for an import). After the
  // command's own exit handlers: one may print the document with what only it knows (docket
  // test's target, probe QD-1).
  const json = jsonOutput(argv);
  const dropJsonOnExit = json
    ? interruptsOf(io).onExit(() => {
        const signal = interruptsOf(io).received();
        if (printed || !signal) return;
        io.stdout(errorDocument(json, interruptedAtOnce(interruptsOf(io), signal)));
      }, true)
    : undefined;
  // Handled now as any first signal is (nothing was started): exit 130 or 143, with the JSON document above.
  for (const signal of options.signalsBeforeStart?.() ?? []) process.emit(signal, signal);
  try {
    const hoisted = helpBeforeCommand(hoistCommonFlags(argv, Object.keys(COMMANDS)));
    await checkHelpTopic(hoisted.slice(2));
    const args = helpAsFlag(hoisted);
    // `docket --version` only: after a command (`plan --detailed-exitcode --version`) it is no flag of
    // that command, and printing the version with exit 0 read as "no changes" in CI (probe HQ-1).
    // Listed by the program's help (`docket --help`, `docket help`), which names no command either.
    const first = args[2];
    // (Flags alone: one not moved behind a command, `--emulator plan --version`, leaves a command named.)
    if (first === 'help' || args.slice(2).every((a) => a.startsWith('-')) || (first === '--help' && !args.slice(3).some((a) => a.startsWith('-')))) {
      // commander prints the version as soon as it meets the flag, before it judges the others: a
      // mistyped one beside it (`--version --bogus`) would pass unsaid (probe XE-3).
      // (`-q`, `-qv`, `--no-color`: the common flags without a value change nothing of it, before it or after; second read SR96-6.)
      const beside = args.slice(2).filter((a) => a !== '--version' && a !== '--help' && a !== '-h' && !COMMON_FLAGS.has(a) && !/^-[qv]+$/.test(a));
      if (args.includes('--version') && beside.length > 0) throw new UsageError(`--version is given alone: nothing may come with it (got ${quoteValue(beside.join(' '))})`, 'run `docket --version` by itself');
      program.version(VERSION, '--version');
    }
    // Before a command or a word (`docket --version plan`): not "unknown option", which it is not there (probe RC-1).
    else if (first === '--version') throw new UsageError(`--version is given alone: nothing may come with it (got ${quoteValue(args.slice(3).join(' '))})`, 'run `docket --version` by itself');
    for (const name of commandsFor(args.slice(2))) {
      const command = await COMMANDS[name]!(context);
      // A command added whole does not take the program's settings: its usage errors say where help is too.
      program.addCommand(withUsageHint(command.exitOverride(), `docket ${name}`, outputTo(io), io.cwd));
    }
    checkFlagValues(program, args);
    await program.parseAsync(args);
    // Output that never arrived (a full disk) is a failed run, whatever the command did.
    return exitCode === 0 && given.outputFailure?.() ? 1 : exitCode;
  } catch (thrown) {
    const error = workingDirectoryGone(thrown) ?? thrown;
    // `-o json` promises a JSON document on stdout whatever happens (as Terraform's -json does).
    if (json && !printed) {
      const { sourceLines } = await import('../config/source-lines.js');
      io.stdout(errorDocument(json, error, error instanceof ConfigError && error.root ? sourceLines(error.root) : undefined));
    }
    return reportError(error, io, !argv.includes('--no-color'));
  } finally {
    dropJsonOnExit?.();
    dropEarlyJunit?.();
  }
}

/** The common flags without a value that may come before the command (completion offers them there). */
export const COMMON_FLAGS: ReadonlySet<string> = new Set(['--no-color', '-q', '--quiet', '-v', '--verbose']);
/** The common flags that take a value and may come before the command (completion skips their values too). */
export const COMMON_WITH_VALUE: ReadonlySet<string> = new Set(['--concurrency', '--max-rps', '-C', '--dir', '--env']);

/**
 * Common flags may also come before the command (`docket --no-color plan`): they are moved after
 * it, where the command's own options read them, also past something else before it; with no
 * command at all they are left out. Anything else is left for commander to judge.
 */
export function hoistCommonFlags(argv: string[], commands: string[]): string[] {
  const [node = 'node', bin = 'docket', ...rest] = argv;
  const leading: string[] = [];
  // A flag whose value, the word after it, names a command (`docket --env drift` with $ENV unset).
  let commandAsValue: [flag: string, value: string] | undefined;
  let i = 0;
  while (i < rest.length) {
    const arg = rest[i]!;
    // How many words the common flag takes: itself, its value after it, or a run of short ones
    // (`-qv`, `-Ccfg`, `-qC cfg`; probe XE-2), as after the command.
    const words = COMMON_FLAGS.has(arg) || /^--(concurrency|max-rps|dir|env)=/.test(arg) ? 1 : COMMON_WITH_VALUE.has(arg) ? 2 : commonShortWords(arg);
    if (words === 0 || i + words > rest.length) break;
    if (words === 2 && commands.includes(rest[i + 1]!)) commandAsValue ??= [arg, rest[i + 1]!];
    leading.push(...rest.slice(i, i + words));
    i += words;
  }
  if (leading.length === 0) return argv;
  if (commands.includes(rest[i] ?? '')) return [node, bin, rest[i]!, ...leading, ...rest.slice(i + 1)];
  // Something else between them and the command (`--no-color --bogus plan`): the common flags still
  // go after the command, so commander names what it does not know, not the first common flag.
  const command = rest.findIndex((arg, at) => at > i && commands.includes(arg));
  // The command taken as a flag's value: said so, as after the command, not as what the rest then seemed (probe FH-1).
  if (command === -1 && commandAsValue) {
    const [flag, value] = commandAsValue;
    throw new UsageError(`${flag} needs a value, and got the command ${JSON.stringify(value)} (is the variable that gives it unset?)`, `give ${flag} its value: \`docket ${flag} VALUE ${value} …\``);
  }
  // No command at all: the common flags are no fault of theirs (`docket --no-color --bogus` names `--bogus`, bare `docket --no-color` the usage).
  if (command === -1) return [node, bin, ...rest.slice(i)];
  return [node, bin, ...rest.slice(i, command), rest[command]!, ...leading, ...rest.slice(command + 1)];
}

/**
 * How many words a run of the common short flags takes (`-qv` one, `-Ccfg` one, `-qC` two: its
 * value is the next word), or 0 when the word is no such run (a lone `-q` is COMMON_FLAGS's).
 */
function commonShortWords(arg: string): number {
  if (!/^-[A-Za-z]{2}/.test(arg)) return 0;
  for (let at = 1; at < arg.length; at++) {
    const letter = arg.charAt(at);
    if (letter === 'C') return at + 1 < arg.length ? 1 : 2;
    if (letter !== 'q' && letter !== 'v') return 0;
  }
  return 1;
}

/** The command, when `plan`/`apply`/`show`/`test`/`drift`/`pull`/`validate` runs with `-o json` (validate prints its own JSON for configuration errors). */
function jsonOutput(argv: string[]): string | undefined {
  const args = argv.slice(2);
  const at = commandAt(args);
  const reports = ['plan', 'apply', 'show', 'test', 'drift', 'pull', 'validate'];
  // None but one taken as a flag's value (`docket --env drift -o json`, $ENV unset): that is the command the error is of (probe FH-1).
  const command = at !== -1 && reports.includes(args[at]!) ? args[at] : args.find((a, i) => reports.includes(a) && takesValue(args[i - 1] ?? ''));
  if (command === undefined) return undefined;
  // `test capture` writes a file, not a test report: its errors get the common document.
  const name = command === 'test' && args.slice(args.indexOf(command) + 1).includes('capture') ? 'test capture' : command;
  return outputFormats(args).includes('json') ? name : undefined;
}

/**
 * Where the command is: the first word that is neither a flag nor the value of a common flag
 * written before it (`docket --env test plan`, `docket -qC test plan`: the command is plan).
 */
function commandAt(args: readonly string[]): number {
  return args.findIndex((a, i) => !a.startsWith('-') && !takesValue(args[i - 1] ?? ''));
}

/** Whether a common flag before the command takes the next word as its value (`--env`, `-qC`). */
function takesValue(word: string): boolean {
  const run = shortFlagRun(word);
  return COMMON_WITH_VALUE.has(word) || (run?.letter === 'C' && run.value === undefined);
}

/** The `--junit` file (and `-C` folder) of a `docket test` run, not `test capture`. */
export function testRunJunit(argv: string[]): { path: string; dir: string } | undefined {
  const args = argv.slice(2);
  const at = commandAt(args);
  if (args[at] !== 'test' || args.slice(at + 1).includes('capture') || !args.some((a) => a === '--junit' || a.startsWith('--junit='))) return undefined;
  return junitArgs(args);
}

/** The `--junit` file and `-C` folder of a `docket test` command line, as commander reads them. */
function junitArgs(args: readonly string[]): { path: string; dir: string } | undefined {
  let path: string | undefined;
  let dir = '.';
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') break;
    if (a === '--junit' && args[i + 1] !== undefined) path = args[++i];
    else if (a.startsWith('--junit=')) path = a.slice('--junit='.length);
    else if ((a === '-C' || a === '--dir') && args[i + 1] !== undefined) dir = args[++i]!;
    else if (a.startsWith('--dir=')) dir = a.slice('--dir='.length);
    else {
      const run = shortFlagRun(a);
      if (run?.letter === 'C' && run.value !== undefined) dir = run.value;
      else if (run?.letter === 'C' && args[i + 1] !== undefined) dir = args[++i]!;
      // `-qo junit`: the format is the next word, no file.
      else if (run?.letter === 'o' && run.value === undefined) i++;
    }
  }
  return path === undefined || path.trim() === '' ? undefined : { path, dir };
}

/**
 * The values of every `-o`/`--output`, in any of their spellings: a run that asks for JSON in any
 * of them gets its error as JSON, also when a second, different `-o` is the error (probe IZ-3).
 */
function outputFormats(args: string[]): string[] {
  const formats: string[] = [];
  args.forEach((a, i) => {
    if ((a === '-o' || a === '--output') && args[i + 1] !== undefined) formats.push(args[i + 1]!);
    else if (a.startsWith('--output=')) formats.push(a.slice('--output='.length));
    else {
      // In a run of short flags too (`-qo json`, `-vojson`), as commander reads it (probe ZE-1).
      const run = shortFlagRun(a);
      const value = run?.letter === 'o' ? (run.value ?? args[i + 1]) : undefined;
      if (value !== undefined) formats.push(value);
    }
  });
  return formats;
}

/**
 * The flag that takes a value in a word of short flags (`-ojson`, `-qo`, `-vCcfg`): its letter, and
 * its value when the word holds it (else it is the next word); undefined for a word that is none
 * (a long flag, a value, a run of flags that take none). `-C` and `-o` are docket's only short flags
 * that take a value; `-q`, `-v` and `-h` take none.
 */
function shortFlagRun(word: string): { letter: 'C' | 'o'; value?: string } | undefined {
  if (!/^-[A-Za-z]/.test(word)) return undefined;
  for (let at = 1; at < word.length; at++) {
    const letter = word.charAt(at);
    if (SHORT_FLAGS_WITH_VALUE.includes(letter)) return { letter: letter as 'C' | 'o', ...(at + 1 < word.length ? { value: word.slice(at + 1) } : {}) };
    if (!SHORT_FLAGS_WITHOUT_VALUE.includes(letter)) return undefined;
  }
  return undefined;
}

/** A relative path read where the directory docket was started in was removed since (probe MU-2): said, not a stack trace. */
function workingDirectoryGone(error: unknown): DocketError | undefined {
  if (!(error instanceof Error) || (error as NodeJS.ErrnoException).syscall !== 'uv_cwd') return undefined;
  return new DocketError('working-directory-gone', 'the current directory no longer exists (removed since the shell entered it)', 'cd to a directory that exists, or pass -C with an absolute path');
}

/** The error as the command's JSON: `docket test`'s is its report (schemas/test-report.schema.json) holding the error. */
function errorDocument(command: string, error: unknown, source?: (file: string, line: number) => string | undefined): string {
  const body = errorJson(error, source);
  if (command === 'validate') {
    // Its report's own shape: the error (a bad flag) is its one problem, with no position.
    const { code, message, hint } = body.error;
    return renderDiagnosticsJson(body.diagnostics.length > 0 ? body.diagnostics : [{ severity: 'error', code, message, ...(hint ? { hint } : {}) }]);
  }
  return command === 'test' ? renderTestErrorJson(body) : jsonText(body);
}

async function reportError(error: unknown, io: Io, colorAllowed: boolean): Promise<number> {
  if (error instanceof CommanderError) {
    // --help and --version end through here with exit code 0.
    return error.exitCode === 0 ? 0 : 1;
  }
  const color = colorAllowed && useColor(io, {}, 'stderr');
  if (error instanceof ConfigError) {
    io.stderr(`Error: ${error.message}\n`);
    const [{ renderDiagnosticsText }, { terminalExcerpts }] = await Promise.all([import('../render/text.js'), import('./excerpts.js')]);
    io.stderr(renderDiagnosticsText(error.diagnostics, { color, ...terminalExcerpts(io, error.root) }));
    return 1;
  }
  if (error instanceof InterruptedError) {
    io.stderr(`${errorText(error.message)}\n`);
    if (error.hint) io.stderr(`  ${errorText(error.hint)}\n`);
    return error.exitCode;
  }
  if (error instanceof DocketError) {
    io.stderr(`Error: ${errorText(error.message)}\n`);
    if (error.hint) io.stderr(`  hint: ${errorText(error.hint)}\n`);
    if (error instanceof ApiError && error.details.status === 0 && !error.hint) io.stderr('  hint: check the service URL and your network\n');
    return 1;
  }
  const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  io.stderr(`Internal error: ${stripControl(message)}\nThis is a bug in docket; please report it with the command you ran.\n`);
  return 1;
}

/** The emulator runs until Ctrl-C or SIGTERM, then closes (its state is already on disk). */
function waitForSignal(io: Io): Promise<void> {
  const interrupts = interruptsOf(io);
  const release = interrupts.hold();
  return new Promise((resolve) => {
    const stop = (): void => {
      release();
      resolve();
    };
    if (interrupts.signal.aborted) stop();
    else interrupts.signal.addEventListener('abort', stop, { once: true });
  });
}

/** commander's output through docket's streams; what it quotes of what was typed never holds a control character raw. */
function outputTo(io: Io): { writeOut: (s: string) => void; writeErr: (s: string) => void; outputError: (s: string, write: (s: string) => void) => void } {
  return { writeOut: (s) => io.stdout(s), writeErr: (s) => io.stderr(escapeControl(s)), outputError: (s, write) => write(`Error: ${innerBreaksEscaped(usageMessage(s))}`) };
}

/**
 * A line break commander's message holds, but its last and the one before its "(Did you mean …)",
 * as its escape: one comes only from what was typed (`'--x⏎::error::…'`), and printed raw it
 * starts a line of its own (probe CI-3, second read SR101B-3).
 */
function innerBreaksEscaped(text: string): string {
  return text.replace(/\r?\n(?!\(Did you mean|$)|\r(?!\n|$)/g, (found) => found.replace(/\r/g, '\\r').replace(/\n/g, '\\n'));
}

/** A command's usage errors say where its help is, and its subcommands' (`docket test capture`) theirs. */
function withUsageHint(command: Command, path: string, output: ReturnType<typeof outputTo>, cwd: string): Command {
  for (const sub of command.commands) withUsageHint(sub, `${path} ${sub.name()}`, output, cwd);
  return command
    .configureOutput({ ...output, outputError: (s, write) => output.outputError(folderNotCommand(flagValueNamed(excessNamed(s, command, path), command), command, cwd), write) })
    .exitOverride((error) => {
      // The error document of -o json says it as stderr does.
      if (error.code === 'commander.excessArguments') error.message = excessNamed(error.message, command, path);
      if (error.code === 'commander.unknownOption') error.message = flagValueNamed(error.message, command);
      if (error.code === 'commander.missingMandatoryOptionValue') error.message = folderNotCommand(error.message, command, cwd);
      throw error;
    })
    .showHelpAfterError(`(run ${path} --help for usage)`);
}

/**
 * A subcommand's missing flag where a folder of the subcommand's name stands (`docket test capture`
 * meant as the tests in capture/): the way to name the folder, which the word alone cannot (probe AA-5).
 */
function folderNotCommand(message: string, command: Command, cwd: string): string {
  // Only a command's own subcommand (`test capture`): a top-level command (`export`, whose parent is the program) takes no folder.
  if (!command.parent?.parent || !/^error: required option/.test(message) || !isFolder(path.resolve(cwd, command.name()))) return message;
  const end = message.endsWith('\n') ? '\n' : '';
  return `${message.replace(/\n$/, '')} (\`docket ${command.parent.name()} ${command.name()}\` is a command of its own: to name the folder ${quoteValue(command.name())}, write ./${command.name()})${end}`;
}

function isFolder(where: string): boolean {
  try {
    return statSync(where).isDirectory();
  } catch {
    return false;
  }
}

/**
 * commander's "unknown option '--prune=true'" for a flag of the command that takes no value: said
 * so, not as an option that does not exist (a CI author goes looking for a renamed flag, probe RO-1).
 */
function flagValueNamed(message: string, command: Command): string {
  // commander may add its own guess (`(Did you mean --prune?)`), of the flag that was written after all.
  const given = /^error: unknown option '(--[^=']+)=([^']*)'[\s\S]*?(\n?)$/.exec(message) ?? shortGiven(message, command);
  const flag = given && command.options.find((o) => o.long === given[1] || o.short === given[1]);
  if (!given || !flag || flag.required || flag.optional) return message;
  return `error: ${given[1]} takes no value (got ${quoteValue(`${given[1]}=${given[2]}`)}): write ${given[1]} alone, or leave it out${given[3]}`;
}

/**
 * A short flag given a value (`-q=false`), which commander says as "unknown option '-=false'", the
 * flag's letter lost: the flag and value as typed, read back from what was typed (probe XE-2).
 */
function shortGiven(message: string, command: Command): [string, string, string, string] | undefined {
  const lost = /^error: unknown option '-=([^']*)'[\s\S]*?(\n?)$/.exec(message);
  if (!lost) return undefined;
  const typed = ((command.parent ?? command) as Command & { rawArgs?: string[] }).rawArgs?.find((a) => /^-[A-Za-z]+=/.test(a) && a.endsWith(`=${lost[1]!}`));
  const letter = typed && /^-[A-Za-z]*([A-Za-z])=/.exec(typed)?.[1];
  return letter ? [lost[0], `-${letter}`, lost[1]!, lost[2]!] : undefined;
}

/**
 * commander's "too many arguments" with the argument it did not expect quoted, and, for a command
 * that takes none, where a directory goes (`docket validate DIR`, as Terraform once read it: -C DIR;
 * probe NF-5).
 */
function excessNamed(message: string, command: Command, path: string): string {
  const excess = /^error: too many arguments for '[^']*'\. Expected (\d+) arguments? but got \d+\.(\n?)$/.exec(message);
  if (!excess) return message;
  const extra = command.args[Number(excess[1])];
  if (extra === undefined) return message;
  const expected = Number(excess[1]);
  // Not when -C names one already: the argument is something else (second read SR78-5).
  // Nor for an empty word, which -C refuses (a variable not set); one starting with `-` as `./-…`, which -C takes (probe XE-4).
  const takesDir = expected === 0 && extra !== '' && command.options.some((o) => o.long === '--dir') && command.getOptionValueSource('dir') !== 'cli';
  const takes = expected === 0 ? 'no argument' : `at most ${expected === 1 ? '1 argument' : `${expected} arguments`}`;
  return `error: unexpected argument ${quoteValue(extra)}: ${path} takes ${takes}${takesDir ? ` (the configuration directory is given with -C: ${path} -C ${shellPath(extra)})` : ''}${excess[2]}`;
}
