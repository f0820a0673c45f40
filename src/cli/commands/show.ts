/** `docket show PLAN.json`: a saved plan as text, markdown or JSON, for a reviewer before the apply. */
import { Command, Option } from 'commander';
import { useColor, type Io } from '../io.js';
import { printPlan } from '../plan-output.js';
import { withCommon } from '../options.js';
import { readPlanFile } from '../plan-file.js';
import { planFormat } from '../plan-format.js';
import { VERSION } from '../../version.js';
import { escapeControl } from '../../render/sanitize.js';
import { markedControl } from '../../util/control-text.js';

interface ShowFlags {
  output: 'text' | 'json' | 'markdown';
  color?: boolean;
  verbose?: boolean;
}

export function showCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('show'), { dir: false, env: false, services: false, quiet: false, verbose: 'list undeclared objects and the fields of archives' })
    .description('print a plan saved with `docket plan --out` (reads no service)')
    .argument('<PLAN.json>', 'the saved plan')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .action(async (file: string, opts: ShowFlags) => {
      const plan = await readPlanFile(file);
      // Shown all the same, but the reviewer learns now, not at the apply, that this docket refuses it.
      // The version is the file's text, which anyone may have written: its control characters and line breaks are shown, never sent to the terminal (probe FG-1).
      if (plan.docket_version !== VERSION) io.stderr(`Note: ${file} was made by docket ${escapeControl(markedControl(plan.docket_version))}; only that version applies it (this is docket ${VERSION})\n`);
      else if (plan.plan_format !== planFormat()) io.stderr(`Note: ${file} was made by another build of docket ${VERSION}, whose saved plans record other things than this build's; only a build of its plan format applies it\n`);
      await printPlan(io, plan, opts.output, { color: useColor(io, opts), verbose: Boolean(opts.verbose) });
      setExit(0);
    });
}
