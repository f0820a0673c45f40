/**
 * Flag values as every command takes them, in a module of its own: main checks them before it
 * loads any command, and must not pull in what the commands share.
 */
import { InvalidArgumentError, type Command } from 'commander';

/**
 * Commander accumulator for repeatable options (`--target a --target b`); a value given twice
 * counts once. Added in place, its values kept in a set beside the list: 20,000 targets copied and
 * searched at each took seconds before anything was read (probe QI-5). (Each run builds its
 * commands, and their empty defaults, anew.)
 */
export function collect(value: string, previous: string[]): string[] {
  let given = collected.get(previous);
  if (!given) collected.set(previous, (given = new Set(previous)));
  if (given.has(value)) return previous;
  given.add(value);
  previous.push(value);
  return previous;
}
const collected = new WeakMap<string[], Set<string>>();

/**
 * Checks every value a flag takes, before its own parser: one of the command's flags is no value
 * (`--out --emulator`, `--env $ENV -C config` with ENV unset, took the next flag as the value and
 * ran without it; other words starting with `-` are values, `--playbook=-Draft`), and a flag that
 * takes one value refuses a second, different one (`--env staging --env production`, a CI template
 * appending its own: commander would quietly keep the last). Repeatable flags (`--target`) and the
 * same value twice are left alone. `argv` is what was typed, to tell a value given after its flag
 * from one written in it.
 */
export function checkFlagValues(command: Command, argv: readonly string[]): void {
  // commander's own help flag is none of `options`; `--version` is docket's own alone (main.ts).
  const flags = new Set(['-h', '--help', '--version', ...command.options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined))]);
  // The words given as a value after a flag that takes one (`--out -ojson`), not in it (`--out=-ojson`, a value as written; second read SR96-7).
  const takesValue = new Set(command.options.filter((o) => o.required || o.optional).flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined)));
  const valueFlag = (letter: string): boolean => takesValue.has(`-${letter}`);
  /** A run of short flags whose last letter, and only it, takes the next word as its value (`-qC DIR`; second read SR96B-1). */
  const endsInValueFlag = (word: string): boolean => /^-[A-Za-z]{2,}$/.test(word) && [...word.slice(1)].every((l) => flags.has(`-${l}`)) && [...word.slice(1)].findIndex(valueFlag) === word.length - 2;
  const given = new Set(argv.filter((_word, at) => at > 0 && (takesValue.has(argv[at - 1]!) || endsInValueFlag(argv[at - 1]!))));
  /**
   * Short flags of the command run together, as after it (probe XE-1): each letter a flag of no value
   * (`-qv`), or up to one that takes the rest as its value (`-ojson`, `-qCcfg`). `-qa`, `-hello` are values.
   */
  const shortFlagWord = (value: string): boolean => {
    if (!/^-[A-Za-z]./.test(value) || !given.has(value)) return false;
    for (const letter of value.slice(1)) {
      if (!flags.has(`-${letter}`)) return false;
      if (valueFlag(letter)) return true;
    }
    return true;
  };
  for (const option of command.options) {
    if (!(option.required || option.optional) || option.variadic) continue;
    const parse = option.parseArg;
    const repeatable = parse === collect;
    let first: string | undefined;
    option.argParser((value: string, previous: unknown) => {
      if (flags.has(value.split('=')[0]!) || shortFlagWord(value)) throw new InvalidArgumentError(`needs a value, and got the flag ${JSON.stringify(value)} (is the variable that gives it unset?)`);
      if (!repeatable && first !== undefined && first !== value) throw new InvalidArgumentError(`given twice (${JSON.stringify(first)}, then ${JSON.stringify(value)}): give it once`);
      first = value;
      return parse ? parse(value, previous) : value;
    });
  }
  for (const sub of command.commands) checkFlagValues(sub, argv);
}
