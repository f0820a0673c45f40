/**
 * `docket completion bash|zsh`: a completion script made from the command definitions themselves,
 * so it offers exactly the commands and flags docket has.
 */
import { Command } from 'commander';
import type { Io } from '../io.js';
import { withCommon } from '../options.js';

interface CommandWords {
  name: string;
  flags: string[];
}

function wordsOf(program: Command): CommandWords[] {
  return program.commands.map((c) => ({
    name: c.name(),
    flags: [...c.options.filter((o) => !o.hidden).flatMap((o) => [o.short, o.long].filter((f): f is string => Boolean(f))), '--help'].sort(),
  }));
}

export function bashScript(commands: CommandWords[]): string {
  const cases = commands.map((c) => `    ${c.name}) opts="${c.flags.join(' ')}" ;;`).join('\n');
  return `# docket completion for bash: eval "$(docket completion bash)" (e.g. in ~/.bashrc)
_docket() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" opts
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=( $(compgen -W "${commands.map((c) => c.name).join(' ')} --help --version" -- "$cur") )
    return
  fi
  case "$cmd" in
${cases}
    *) opts="" ;;
  esac
  if [[ "$cur" == -* ]]; then
    COMPREPLY=( $(compgen -W "$opts" -- "$cur") )
  else
    COMPREPLY=( $(compgen -f -- "$cur") )
  fi
}
complete -o filenames -F _docket docket
`;
}

export function zshScript(commands: CommandWords[]): string {
  const cases = commands.map((c) => `    ${c.name}) _arguments '*:file:_files' ${c.flags.map((f) => `'${f}'`).join(' ')} ;;`).join('\n');
  return `#compdef docket
# docket completion for zsh: eval "$(docket completion zsh)" (e.g. in ~/.zshrc, after compinit)
_docket() {
  if (( CURRENT == 2 )); then
    compadd -- ${commands.map((c) => c.name).join(' ')}
    return
  fi
  case "\${words[2]}" in
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
      const words = wordsOf(program()).filter((c) => c.name !== 'help');
      if (shell === 'bash') io.stdout(bashScript(words));
      else if (shell === 'zsh') io.stdout(zshScript(words));
      else {
        io.stderr(`Error: unknown shell "${shell.replace(/[^\w-]/g, '?')}"; docket prints completion for bash and zsh\n`);
        setExit(1);
        return;
      }
      setExit(0);
    });
}
