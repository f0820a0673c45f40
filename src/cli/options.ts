/** Options every command shares, parsed once so commands see typed values. */
import { Command, InvalidArgumentError, Option } from 'commander';

export interface CommonOptions {
  dir: string;
  env?: string;
  concurrency?: number;
  maxRps?: number;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
}

export function parseMaxRps(value: string): number {
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0 || n > 10_000) throw new InvalidArgumentError('must be a number of requests per second above 0 (at most 10000)');
  return n;
}

export function parseConcurrency(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1 || n > 64) throw new InvalidArgumentError('must be an integer from 1 to 64');
  return n;
}

/** Commander accumulator for repeatable options (`--target a --target b`). */
export function collect(value: string, previous: string[]): string[] {
  return [...previous, value];
}

/**
 * Adds -C, --env, the request-pace flags and the output flags to a command; a command only gets
 * the flags that do something for it (validate talks to no service, so it has no pace flags).
 */
export function withCommon(command: Command, opts: { dir?: boolean; env?: boolean; services?: boolean } = {}): Command {
  if (opts.dir !== false) command.option('-C, --dir <DIR>', 'configuration directory', '.');
  if (opts.env !== false) command.option('--env <NAME>', 'environment from docket.yaml `environments:`');
  if (opts.services !== false) {
    command
      .addOption(new Option('--concurrency <N>', 'parallel requests and operations (default: docket.yaml or 8)').argParser(parseConcurrency))
      .addOption(new Option('--max-rps <N>', 'at most N requests per second to the services (default: docket.yaml max_rps, else none)').argParser(parseMaxRps));
  }
  return command
    .option('--no-color', 'never colour the output')
    .option('-q, --quiet', 'print only results and errors')
    .option('-v, --verbose', 'log every request and list undeclared objects');
}
