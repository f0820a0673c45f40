/**
 * `docket completion bash|zsh`: a completion script made from the command definitions themselves,
 * so it offers exactly the commands and flags docket has.
 */
import { Command } from 'commander';
import { UsageError } from '../../errors.js';
import { quoteValue } from '../../config/quote.js';
import type { Io } from '../io.js';
import { withCommon } from '../options.js';
import { KINDS } from '../../kinds/index.js';
import { COMMON_FLAGS, COMMON_WITH_VALUE } from '../main.js';
import { PARENT_FLAGS_TAKEN, PARENT_VALUES_REFUSED } from '../subcommand-flags.js';
import { SHORT_FLAGS_WITH_VALUE, SHORT_FLAGS_WITHOUT_VALUE } from '../flag-values.js';

interface FlagWords {
  /** `-o` and `--output`. */
  names: string[];
  /** The values it takes, when they are a fixed list (`text json markdown`). */
  values?: string[];
  /** What its value names on disk, by its placeholder (`<DIR>`, `<FILE>`, `<PLAN.json>`); none: no file names are offered (probe HR-6). */
  path?: 'dir' | 'file';
}

/** What a flag's value names on disk, told by the placeholder its help gives it. */
function pathOf(flags: string): FlagWords['path'] {
  const placeholder = /<([^>]+)>/.exec(flags)?.[1];
  return placeholder === 'DIR' ? 'dir' : placeholder === 'FILE' || placeholder?.endsWith('.json') ? 'file' : undefined;
}

interface CommandWords {
  name: string;
  flags: string[];
  /** Flags that take a value, with the values when they are a fixed list. */
  valued: FlagWords[];
  /** Flags that may be given more than once (`--target`, `--kind`): zsh offers them again. */
  repeatable: string[];
  /** Words that may follow the command: its subcommands, or the values of its argument. */
  words: string[];
  /** What its arguments name on disk (`init [DIR]`: folders; `show <PLAN.json>`: files); none: it takes no file names (probe IZ-1). */
  operand?: 'dir' | 'file';
  /** Whether it takes any number of them (`test [FILES...]`); else one at most, and nothing is offered after it. */
  many?: true;
}

/** What `--kind` takes (drift, pull, export): the kinds that have files of their own. */
const LISTED_KINDS = KINDS.filter((k) => k.layout && k.toConfig).map((k) => k.name);

/** What a command's arguments name on disk, told by the first one's name (`[DIR]`, `<PLAN.json>`, `[FILES...]`); `completion` takes a shell. */
function operandOf(c: Command): Pick<CommandWords, 'operand' | 'many'> {
  const first = c.registeredArguments[0];
  if (!first || c.name() === 'completion') return {};
  return { operand: first.name() === 'DIR' ? 'dir' : 'file', ...(first.variadic ? { many: true as const } : {}) };
}

/** The shells `docket completion` writes for (its argument's values). */
export const SHELLS = ['bash', 'zsh'] as const;

/** Every command, and each subcommand as `command sub` (`test capture`). */
function wordsOf(program: Command): CommandWords[] {
  const of = (c: Command, name: string, parent?: Command): CommandWords => {
    // A subcommand (`test capture`) also takes its parent's place flags (-C, --env, --emulator) and the common options.
    const taken = PARENT_FLAGS_TAKEN[name];
    const inherited = parent && taken ? parent.options.filter((o) => !o.hidden && taken.has(o.attributeName())) : [];
    const options = [...c.options.filter((o) => !o.hidden), ...inherited];
    return {
      name,
      // Commander's own help flag, in both spellings every command's --help lists (probe ZB-2).
      flags: [...options.flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f))), '-h', '--help'].sort(),
      valued: options
        .filter((o) => o.required || o.optional)
        .map((o) => {
          // `--kind` checks its value itself (with a suggestion), so its list is not commander's choices.
          const refused = PARENT_VALUES_REFUSED[name]?.[o.attributeName()] ?? [];
          const values = o.argChoices ? o.argChoices.filter((v) => !refused.includes(v)) : o.long === '--kind' ? LISTED_KINDS : undefined;
          const path = values ? undefined : pathOf(o.flags);
          return { names: [o.short, o.long].filter((f): f is string => Boolean(f)), ...(values ? { values } : {}), ...(path ? { path } : {}) };
        }),
      // Told by the list they start as (their parser is wrapped by the check of flag values by now).
      repeatable: options.filter((o) => Array.isArray(o.defaultValue)).flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f))),
      words: c.name() === 'completion' ? [...SHELLS] : c.commands.map((sub) => sub.name()),
      ...operandOf(c),
    };
  };
  const own = program.commands.filter((c) => c.name() !== 'help');
  const commands = own.flatMap((c) => [of(c, c.name()), ...c.commands.map((sub) => of(sub, `${c.name()} ${sub.name()}`, c))]);
  // Commander's own `help [command]`, which `docket --help` lists: the commands after it, no flags (probe MD-1).
  const help: CommandWords = { name: 'help', flags: [], valued: [], repeatable: [], words: own.map((c) => c.name()) };
  return [...commands, help];
}

/**
 * The common flags that take a value before the command, as a shell pattern: the word after one is
 * its value, never the command (`docket -C test plan`, `--env init`).
 */
const VALUED_BEFORE_COMMAND = [...COMMON_WITH_VALUE].sort().join('|');
/** What may start the line besides a command: the common flags (`docket --no<TAB>`), then help and version. */
const BEFORE_COMMAND_WORDS = [...COMMON_FLAGS, ...COMMON_WITH_VALUE, '-h', '--help', '--version'].join(' ');

/**
 * A `case` pattern over "$cmd WORD" for a run of short flags whose last letter takes the next word
 * as its value (`-qC DIR`, `-vo json`): `-q`, `-v` and `-h` take none, `-C` and `-o` one.
 */
const NONE = `[${SHORT_FLAGS_WITHOUT_VALUE}]`;
const SHORT_RUN_BEFORE_VALUE = [...SHORT_FLAGS_WITH_VALUE].flatMap((v) => [`*" -"${NONE}${v}`, `*" -"${NONE}${NONE}${v}`]).join('|');
/** The same run as a whole word (before the command), and as a bash regular expression (`=~`). */
const SHORT_RUN_OF_DIR = `-${NONE}C|-${NONE}${NONE}C`;
const SHORT_RUN_REGEX = `^-${NONE}{1,2}([${SHORT_FLAGS_WITH_VALUE}])$`;

/** `"test --junit"` and the like: each flag that takes a value, of each command that has subcommands. */
function valuedOfParents(commands: CommandWords[]): string[] {
  const parents = new Set(commands.filter((c) => c.name.includes(' ')).map((c) => c.name.split(' ')[0]!));
  return commands.filter((c) => parents.has(c.name)).flatMap((c) => c.valued.flatMap((f) => f.names.map((n) => `"${c.name} ${n}"`)));
}

/** Bash, in a `case` over COMP_WORDS[i]: step past the flag's value (bash splits `--env=init` at the `=`). */
const SKIP_VALUE = 'if [ "${COMP_WORDS[i+1]}" = "=" ]; then ((i += 2)); else ((i++)); fi ;;';

export function bashScript(commands: CommandWords[]): string {
  const top = commands.filter((c) => !c.name.includes(' '));
  const names = top.map((c) => c.name).join('|');
  const subs = commands.filter((c) => c.name.includes(' ')).map((c) => `"${c.name}"`);
  // \`single\`: one file or folder at most; \`takes\`: the flags whose next word is their value, not it.
  const cases = commands
    .map((c) => `    "${c.name}") opts="${c.flags.join(' ')}"; words="${c.words.join(' ')}"; operand="${c.operand ?? ''}"; single="${c.operand && !c.many ? 1 : ''}"; takes="${c.valued.flatMap((f) => f.names).join(' ')}" ;;`)
    .join('\n');
  // What follows a flag of a command with subcommands is its value, not a subcommand (`test --junit capture`).
  const skipped = valuedOfParents(commands);
  // The value a flag takes: its fixed list, folders, files, or nothing offered (a name, a number, a duration).
  // File and folder names one a line, each one word as it is (spaces, `[x]`): not split or globbed (probe YH-2).
  const valueWords = (f: FlagWords): string => (f.values ? `COMPREPLY=( $(compgen -W "${f.values.join(' ')}" -- "$cur") )` : f.path === 'dir' ? 'COMPREPLY=(); _docket_names -d' : f.path === 'file' ? 'COMPREPLY=(); _docket_names -f' : 'COMPREPLY=()');
  const values = commands
    .flatMap((c) => c.valued.map((f) => `    ${f.names.map((n) => `"${c.name} ${n}"`).join('|')}) ${valueWords(f)}; return ;;`))
    .join('\n');
  return `# docket completion for bash: eval "$(docket completion bash)" (e.g. in ~/.bashrc)
# Adds the file (-f) or folder (-d) names that start with $cur, each whole: a name with a space or
# a glob character is one word as it is.
_docket_names() {
  local name
  while IFS= read -r name; do COMPREPLY+=("$name"); done < <(compgen "$1" -- "$cur")
}
_docket() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" prev="\${COMP_WORDS[COMP_CWORD-1]}" cmd="" opts words operand single takes i at j
  # \`--output=j\` reaches here split at the \`=\`: the flag is the word before it.
  if [ "$cur" = "=" ]; then cur=""; elif [ "$prev" = "=" ] && [ "$COMP_CWORD" -ge 2 ]; then prev="\${COMP_WORDS[COMP_CWORD-2]}"; fi
  # A run of short flags whose last takes a value (\`-qC\`, \`-vo\`) asks for what that flag takes (second read SR98B-6).
  [[ "$prev" =~ ${SHORT_RUN_REGEX} ]] && prev="-\${BASH_REMATCH[1]}"
  # The command is the first of its names on the line: common flags may come before it, and the
  # value of one is skipped (bash splits \`--env=init\` at the \`=\`).
  for ((i = 1; i < COMP_CWORD; i++)); do
    case "\${COMP_WORDS[i]}" in
      ${VALUED_BEFORE_COMMAND}) ${SKIP_VALUE}
      ${SHORT_RUN_OF_DIR}) ${SKIP_VALUE}
      # --version is given alone: nothing may follow it (probe ZB-2).
      --version) COMPREPLY=(); return ;;
      ${names}) cmd="\${COMP_WORDS[i]}"; break ;;
    esac
  done
  if [ -z "$cmd" ]; then
    # The value of a common flag before the command (\`docket -C <TAB>\`): a folder for -C, nothing offered for the rest.
    case "$prev" in
      -C|--dir) COMPREPLY=(); _docket_names -d; return ;;
      ${VALUED_BEFORE_COMMAND}) COMPREPLY=(); return ;;
    esac
    COMPREPLY=( $(compgen -W "${top.map((c) => c.name).join(' ')} ${BEFORE_COMMAND_WORDS}" -- "$cur") )
    return
  fi
  at=$i
  for ((i = i + 1; i < COMP_CWORD; i++)); do
    case "$cmd \${COMP_WORDS[i]}" in
      ${skipped.length > 0 ? skipped.join('|') : '"-"'}) ${SKIP_VALUE}
      ${subs.length > 0 ? subs.join('|') : '"-"'}) cmd="$cmd \${COMP_WORDS[i]}"; at=$i; break ;;
      # A run of short flags whose last takes the next word (\`-qC DIR\`): that word is its value (second read SR98-6).
      ${SHORT_RUN_BEFORE_VALUE}) ${SKIP_VALUE}
      # A file given first: what follows is no subcommand (\`test a.test.yaml capture\`, probe ZB-1).
      *) [[ "\${COMP_WORDS[i]}" != -* && "\${COMP_WORDS[i]}" != "=" ]] && break ;;
    esac
  done
  case "$cmd $prev" in
${values}
  esac
  case "$cmd" in
${cases}
    *) opts=""; words=""; operand=""; single=""; takes="" ;;
  esac
  # A command that takes one file or folder (apply's and show's plan, init's folder) offers none once
  # it is given (probe RC-3); a subcommand (\`test capture\`) comes before any file, or not at all (probe WI-1).
  for ((j = at + 1; j < COMP_CWORD; j++)); do
    if [[ " $takes " == *" \${COMP_WORDS[j]} "* || "\${COMP_WORDS[j]}" =~ ${SHORT_RUN_REGEX} ]]; then
      ((j++))
      [ "\${COMP_WORDS[j]}" = "=" ] && ((j++))
    elif [[ "\${COMP_WORDS[j]}" != -* && "\${COMP_WORDS[j]}" != "=" ]]; then
      [ -n "$single" ] && operand=""
      [ "$cmd" != completion ] && [ "$cmd" != help ] && words=""
    fi
  done
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  elif [ "$cmd" = completion ] || [ "$cmd" = help ]; then
    # One shell name (one command's name after help), then nothing.
    [ "$prev" = "$cmd" ] && COMPREPLY=( $(compgen -W "$words" -- "$cur") )
  else
    # File names only where the command takes them: \`docket plan <TAB>\` offers nothing.
    COMPREPLY=( $(compgen -W "$words" -- "$cur") )
    if [ "$operand" = dir ]; then _docket_names -d; elif [ "$operand" = file ]; then _docket_names -f; fi
  fi
}
complete -o filenames -F _docket docket
`;
}

export function zshScript(commands: CommandWords[]): string {
  const spec = (c: CommandWords, flag: string): string => {
    const valued = c.valued.find((f) => f.names.includes(flag));
    if (!valued) return `'${flag}'`;
    const again = c.repeatable.includes(flag) ? '*' : '';
    // `--output=json` as well as `--output json`, as bash's script and docket take it (probe BF-2).
    const joined = flag.startsWith('--') ? '=' : '';
    return `'${again}${flag}${joined}:value:${valued.values ? `(${valued.values.join(' ')})` : valued.path === 'dir' ? '_files -/' : valued.path === 'file' ? '_files' : ' '}'`;
  };
  // `completion` takes a shell; `test` test files or `capture`; `init` a folder; a command with no arguments none (no spec).
  const operand = (c: CommandWords): string => {
    if (c.name === 'completion') return `shell:(${c.words.join(' ')})`;
    const files = c.operand === 'dir' ? '_files -/' : c.operand === 'file' ? '_files' : '';
    if (c.words.length > 0) return `file:{${files ? `${files}; ` : ''}compadd -- ${c.words.join(' ')}}`;
    return files ? `file:${files}` : '';
  };
  // Files after files, and a subcommand (`test capture`) only first, before any file (probe WI-1).
  const positionals = (c: CommandWords): string[] => {
    if (!operand(c)) return [];
    if (!c.many) return [`'1:${operand(c)}'`];
    const files = c.operand === 'dir' ? '_files -/' : '_files';
    return c.words.length > 0 ? [`'1:${operand(c)}'`, `'*:file:${files}'`] : [`'*:${operand(c)}'`];
  };
  const top = commands.filter((c) => !c.name.includes(' ')).map((c) => c.name);
  const subs = commands.filter((c) => c.name.includes(' ')).map((c) => `"${c.name}"`);
  const skipped = valuedOfParents(commands);
  // `help` takes one command's name, then nothing (second read SR76-8).
  const cases = commands
    // -s: short flags run together (`-qo json`, `-qC DIR`), as bash's script takes them (probe BF-2).
    .map((c) => `    "${c.name}") _arguments -s ${c.name === 'help' ? `'1:command:(${c.words.join(' ')})'` : [...positionals(c), ...c.flags.map((f) => spec(c, f))].filter(Boolean).join(' ')} ;;`)
    .join('\n');
  return `#compdef docket
# docket completion for zsh: eval "$(docket completion zsh)" (e.g. in ~/.zshrc, after compinit)
_docket() {
  local cmd="" i
  # The command is the first of its names on the line: common flags may come before it, and the
  # value of one is skipped.
  local at
  for ((i = 2; i < CURRENT; i++)); do
    case "\${words[i]}" in
      ${VALUED_BEFORE_COMMAND}|${SHORT_RUN_OF_DIR}) ((i++)) ;;
      --version) return ;;
      ${top.join('|')}) cmd="\${words[i]}"; at=$i; break ;;
    esac
  done
  if [[ -z "$cmd" ]]; then
    # The value of a common flag before the command: a folder for -C, nothing offered for the rest.
    case "\${words[CURRENT-1]}" in
      -C|--dir|${SHORT_RUN_OF_DIR}) _files -/; return ;;
      ${VALUED_BEFORE_COMMAND}) return ;;
    esac
    compadd -- ${top.join(' ')} ${BEFORE_COMMAND_WORDS}
    return
  fi
  for ((i = i + 1; i < CURRENT; i++)); do
    case "$cmd \${words[i]}" in
      ${skipped.length > 0 ? skipped.join('|') : '"-"'}) ((i++)) ;;
      ${subs.length > 0 ? subs.join('|') : '"-"'}) cmd="$cmd \${words[i]}"; at=$i; break ;;
      ${SHORT_RUN_BEFORE_VALUE}) ((i++)) ;;
      *) [[ "\${words[i]}" != -* ]] && break ;;
    esac
  done
  # _arguments reads words[1] as the command and the rest as its flags: from the command on only,
  # or the command's own name is an argument it does not take, and nothing is offered (probe KH-1).
  words=("\${(@)words[at,-1]}")
  (( CURRENT -= at - 1 ))
  case "$cmd" in
${cases}
  esac
}
compdef _docket docket
`;
}

export function completionCommand(io: Io, setExit: (code: number) => void, program: () => Command): Command {
  return withCommon(new Command('completion'), { dir: false, env: false, services: false, color: false, quiet: false, verbose: false })
    .description('print a shell completion script (bash or zsh)')
    .argument('<SHELL>', 'bash or zsh')
    .action((shell: string) => {
      const words = wordsOf(program());
      if (shell === 'bash') io.stdout(bashScript(words));
      else if (shell === 'zsh') io.stdout(zshScript(words));
      // Quoted as every usage error quotes what was typed: its control characters escaped, not each made `?` (probe AC-3).
      else throw new UsageError(`unknown shell ${quoteValue(shell)}; docket prints completion for bash and zsh`, 'docket completion bash, or docket completion zsh');
      setExit(0);
    });
}
