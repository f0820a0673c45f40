/**
 * The docket command lines hints give to copy: with the folder, environment and flags the run
 * they follow was given, so that copied as written they act on the same organization.
 */
import type { Plan } from '../engine/types.js';
import { bashWord, dirFlag, shellPath } from '../util/shell-word.js';

/** What shapes a plan, as its command line gives it, and what an apply of it takes besides (`--force`, `--adopt-files`). */
export interface PlanShape {
  dir: string;
  env?: string | undefined;
  emulator?: boolean | undefined;
  prune?: boolean | undefined;
  retryUncertain?: boolean | undefined;
  target: readonly string[];
  force?: boolean | undefined;
  adoptFiles?: boolean | undefined;
}

/** `docket plan`, `docket apply` or `docket pull` with the flags that shape the plan (and, for apply, what it takes besides), run from the same folder. */
export function shapedCommand(command: 'plan' | 'apply' | 'pull', shape: PlanShape): string {
  const planning = command !== 'pull';
  const flags = [
    ...(shape.env !== undefined ? ['--env', shape.env] : []),
    ...(shape.emulator ? ['--emulator'] : []),
    ...(planning && shape.prune ? ['--prune'] : []),
    ...(planning && shape.retryUncertain ? ['--retry-uncertain'] : []),
    ...shape.target.flatMap((t) => ['--target', t]),
    ...(command === 'apply' ? applying(shape) : []),
  ];
  return `docket ${command}${dirFlag(shape.dir)}${words(flags)}`;
}

/**
 * Text that names a bare `` `docket plan ``, `` `docket apply `` or `` `docket pull `` (a service
 * client's hint, a pull note, drift's advice) with the commands as this run was given: copied from
 * CI, a bare one reads another folder, environment or the real services (probes CJ-4, DI-3, EC-3).
 */
export function asRunBy(shape: PlanShape): (text: string) => string {
  const shaped = { plan: shapedCommand('plan', shape), apply: shapedCommand('apply', shape), pull: shapedCommand('pull', shape) };
  return (text) =>
    text.replace(COMMAND_SPAN, (span, command: keyof typeof shaped, rest: string) => {
      const words = rest.split(' ');
      // One already given where it runs (`docket apply -C dir --env prod`) is left as it is.
      if (words.some((w) => w === '-C' || w === '--env' || w === '--emulator')) return span;
      // A switch the text names itself (`docket apply --prune`) is not given twice.
      let as = shaped[command];
      for (const word of words) if (SWITCHES.has(word)) as = as.replace(` ${word}`, '');
      return `\`${as}${rest}\``;
    });
}

/** A code span that starts with a docket command: the command, and the rest of the span. */
const COMMAND_SPAN = /`docket (plan|apply|pull)((?: [^`\n]*)?)`/g;
const SWITCHES: ReadonlySet<string> = new Set(['--prune', '--retry-uncertain', '--force', '--adopt-files']);

/** What a saved plan still takes when it is applied. */
function applying(shape: PlanShape): string[] {
  return [...(shape.force ? ['--force'] : []), ...(shape.adoptFiles ? ['--adopt-files'] : [])];
}


/** Each with what prints as nothing written out (`--target $'playbook/NDA\xe2\x80\x8b'`): copied from the screen, it would be lost (probe OM-2). */
function words(list: readonly string[]): string {
  return list.map((w) => ` ${bashWord(w)}`).join('');
}

/** `docket apply` of the saved plan `file` again, from the same folder. */
export function reapplyCommand(dir: string, file: string): string {
  return `docket apply${dirFlag(dir)} ${shellPath(file)}`;
}

/** The commands that save this run's plan and apply it, with the flags that shape the plan. */
export function savedPlanCommand(shape: PlanShape): string {
  return `${shapedCommand('plan', shape)} --out PLAN.json && docket apply${dirFlag(shape.dir)}${words(applying(shape))} PLAN.json`;
}

/**
 * The `docket plan --out` that makes a saved plan again as it was made (its environment, emulator
 * and targets; a --prune it was made with is the user's to add, as the plan does not record it),
 * from the folder `dir`.
 */
/** `out`: the saved plan's file as it was given, which the new plan replaces (the next command names it too). */
export function replanCommand(plan: Plan, dir: string, out = 'PLAN.json'): string {
  return `${shapedCommand('plan', { dir, env: plan.environment, emulator: plan.target.emulator, target: plan.targets ?? [] })} --out ${shellPath(out)}`;
}
