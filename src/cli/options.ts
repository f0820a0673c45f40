/** Options every command shares, parsed once so commands see typed values. */
import { Command, InvalidArgumentError, Option } from 'commander';
import { UsageError } from '../errors.js';
import { collect } from './flag-values.js';

export interface CommonOptions {
  dir: string;
  env?: string;
  concurrency?: number;
  maxRps?: number;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

/**
 * A number as a person writes one in decimal, or NaN: `Number()` also takes `0x10`, `1e1`, `+8`
 * and spaces around it, which on a command line are a slip more often than meant (and the help
 * says "an integer from 1 to 64"). Not the schema's pattern: that module is not loaded to parse flags.
 */
export function decimal(value: string): number {
  return /^(?:\d+(?:\.\d*)?|\.\d+)$/.test(value) ? Number(value) : NaN;
}

export function parseMaxRps(value: string): number {
  const n = decimal(value);
  if (!Number.isFinite(n) || n <= 0 || n > 10_000) throw new InvalidArgumentError('must be a number of requests per second above 0 (at most 10000)');
  return n;
}

export function parseConcurrency(value: string): number {
  // Digits only, as the README says: `8.0` and `1.` are no count of requests (probe AC-1).
  const n = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError('must be an integer from 1 to 64');
  return n;
}

/** `--env ""` (an unset CI variable) must not quietly mean the base configuration. */
export function parseEnvName(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('needs the name of an environment from docket.yaml `environments:`');
  return value;
}

/**
 * A flag given an empty value (an unset variable in a script, `--state "$STATE"`) is a usage error,
 * not a run without it: `${flag} needs ${what} (got "")`. Also `.` and `..` when `segment` (a value
 * sent as one URL path segment, which a URL would read as steps along the path).
 */
export function requireValue(flag: string, value: string | undefined, what: string, hint?: string, segment = false): void {
  const given = value?.trim();
  if (given === '' || (segment && (given === '.' || given === '..'))) throw new UsageError(`${flag} needs ${what} (got ${JSON.stringify(value)})`, hint);
}

/** `-C ""` (an unset CI variable) must not quietly mean the current directory. */
export function parseDir(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('needs a directory (`.` for the current one)');
  return value;
}

// Kept with the check of flag values, which main loads before any command (this module pulls more).
export { collect } from './flag-values.js';

/** A flag given once per value, none meaning `all` (said so in its help, not as `(default: [])`: probe BB). */
export function repeatable(flags: string, description: string, all: string): Option {
  return new Option(flags, description).argParser(collect).default([], all);
}

/** What a command does with the output flags: `false` keeps a flag accepted but out of help and completion. */
export interface OutputFlags {
  color?: boolean;
  quiet?: boolean;
  /** What -v does for this command, or false when it does nothing. */
  verbose?: string | false;
}

/** `-v` of the commands that show a plan, whose archives' fields it shows too (probe BF-4: apply's help said less). */
export const VERBOSE_SHOWS_ARCHIVES = 'log every request, list undeclared objects and show the fields of archives';

/**
 * Adds -C, --env, the request-pace flags and the output flags to a command; a command only offers
 * the flags that do something for it (validate talks to no service, so it has no pace flags). The
 * pace and output flags are accepted by every command (`docket -q init`, `docket --concurrency 4
 * validate` work), but one that does nothing for a command is hidden from its help and from shell
 * completion.
 */
export function withCommon(command: Command, opts: { dir?: boolean; env?: boolean; services?: boolean } & OutputFlags = {}): Command {
  if (opts.dir !== false) command.option('-C, --dir <DIR>', 'configuration directory', parseDir, '.');
  if (opts.env !== false) command.option('--env <NAME>', 'environment from docket.yaml `environments:`', parseEnvName);
  const flag = (option: Option, offered: boolean): Option => (offered ? option : option.hideHelp());
  const services = opts.services !== false;
  command
    .addOption(flag(new Option('--concurrency <N>', 'parallel requests and operations (default: docket.yaml or 8)').argParser(parseConcurrency), services))
    .addOption(flag(new Option('--max-rps <N>', 'at most N requests per second to the services, above 0 and up to 10000 (default: docket.yaml max_rps, else none)').argParser(parseMaxRps), services));
  return command
    .addOption(flag(new Option('--no-color', 'never colour the output'), opts.color !== false))
    .addOption(flag(new Option('-q, --quiet', 'print only results and errors'), opts.quiet !== false))
    .addOption(flag(new Option('-v, --verbose', opts.verbose || 'log every request and list undeclared objects'), opts.verbose !== false));
}
