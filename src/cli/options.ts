/** Options every command shares, parsed once so commands see typed values. */
import { Command, InvalidArgumentError, Option } from 'commander';

export interface CommonOptions {
  dir: string;
  env?: string;
  concurrency?: number;
  color?: boolean;
  quiet?: boolean;
  verbose?: boolean;
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

/** Adds -C, --env and the common output flags to a command. */
export function withCommon(command: Command, opts: { dir?: boolean; env?: boolean } = { dir: true, env: true }): Command {
  if (opts.dir !== false) command.option('-C, --dir <DIR>', 'configuration directory', '.');
  if (opts.env !== false) command.option('--env <NAME>', 'environment from docket.yaml `environments:`');
  return command
    .addOption(new Option('--concurrency <N>', 'parallel requests and operations (default: docket.yaml or 8)').argParser(parseConcurrency))
    .option('--no-color', 'never colour the output')
    .option('-q, --quiet', 'print only results and errors')
    .option('-v, --verbose', 'log every request and list undeclared objects');
}
