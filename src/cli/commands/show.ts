/** `docket show PLAN.json`: a saved plan as text, markdown or JSON, for a reviewer before the apply. */
import { Command, Option } from 'commander';
import { planJsonChunks } from '../../render/json.js';
import { renderPlanMarkdown } from '../../render/markdown.js';
import { writePlanText } from '../../render/text.js';
import { interruptsOf, useColor, type Io } from '../io.js';
import { withCommon } from '../options.js';
import { readPlanFile } from '../plan-file.js';
import { KIND_ORDER } from '../session.js';
import { VERSION } from '../../version.js';

interface ShowFlags {
  output: 'text' | 'json' | 'markdown';
  color?: boolean;
  verbose?: boolean;
}

export function showCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('show'), { dir: false, env: false, services: false, quiet: false, verbose: 'list undeclared objects' })
    .description('print a plan saved with `docket plan --out` (reads no service)')
    .argument('<PLAN.json>', 'the saved plan')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .action(async (file: string, opts: ShowFlags) => {
      const plan = await readPlanFile(file);
      // Shown all the same, but the reviewer learns now, not at the apply, that this docket refuses it.
      if (plan.docket_version !== VERSION) io.stderr(`Note: ${file} was made by docket ${plan.docket_version}; only that version applies it (this is docket ${VERSION})\n`);
      // One document (JSON, markdown): a signal lets it finish, never leaves half of one (the exit code is the command's).
      if (opts.output !== 'text') interruptsOf(io).hold('the plan is being written');
      if (opts.output === 'json') for (const chunk of planJsonChunks(plan)) io.stdout(chunk);
      else if (opts.output === 'markdown') io.stdout(renderPlanMarkdown(plan, { kindOrder: KIND_ORDER }));
      else await writePlanText(plan, { color: useColor(io, opts), verbose: Boolean(opts.verbose), kindOrder: KIND_ORDER }, io.stdout, io.stdoutDrained);
      setExit(0);
    });
}
