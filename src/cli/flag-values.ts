/**
 * Flag values as every command takes them, in a module of its own: main checks them before it
 * loads any command, and must not pull in what the commands share.
 */
import { InvalidArgumentError, type Command, type Option } from 'commander';

/** docket's short flags that take no value (`-q`, `-v`, `-h`), and those that take one (`-C DIR`, `-o FORMAT`): a run of them (`-qC DIR`) is read by both. */
export const SHORT_FLAGS_WITHOUT_VALUE = 'qvh';
export const SHORT_FLAGS_WITH_VALUE = 'Co';

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
  const names = (options: readonly Option[]): string[] => options.flatMap((o) => [o.long, o.short].filter((f): f is string => f !== undefined));
  // commander's own help flag is none of `options`; `--version` is docket's own alone (main.ts).
  const flags = new Set(['-h', '--help', '--version', ...names(command.options)]);
  const takesValue = new Set(names(command.options.filter((o) => o.required || o.optional)));
  /**
   * In a run of the command's short flags (`-qv`, `-ojson`, `-qCcfg`), the place of the first letter
   * that takes a value (the rest of the word, or the next word, is its value), the word's length
   * when none does, or undefined when a letter before it is no flag (`-qa`, `-hello`: values).
   */
  const valueLetterAt = (word: string): number | undefined => {
    for (let at = 1; at < word.length; at++) {
      if (!flags.has(`-${word.charAt(at)}`)) return undefined;
      if (takesValue.has(`-${word.charAt(at)}`)) return at;
    }
    return word.length;
  };
  // The words given as a value after a flag that takes one (`--out -ojson`), or after a run of short
  // flags whose last letter does (`-qC DIR`), not in it (`--out=-ojson`, a value as written; second reads SR96-7, SR96B-1).
  const takesNext = (word: string): boolean => takesValue.has(word) || (/^-[A-Za-z]{2,}$/.test(word) && valueLetterAt(word) === word.length - 1);
  const given = new Set(argv.filter((_word, at) => at > 0 && takesNext(argv[at - 1]!)));
  /** Short flags of the command run together, given as a value (probe XE-1). */
  const shortFlagWord = (value: string): boolean => /^-[A-Za-z]./.test(value) && given.has(value) && valueLetterAt(value) !== undefined;
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
