/** A plan on stdout, as `plan` and `show` print it: text, one JSON document, or markdown. */
import type { Plan } from '../engine/types.js';
import { planJsonChunks } from '../render/json.js';
import { renderPlanMarkdown } from '../render/markdown.js';
import { fitPrinted, MARKDOWN_MAX_CHARS } from '../render/markdown-fit.js';
import { writePlanText } from '../render/text.js';
import { interruptsOf, type Io } from './io.js';
import { KIND_ORDER } from './session.js';

/** `text.dir`: the `-C` the run was given, for the commands the plan names (none for `show`, which reads a file). */
export async function printPlan(io: Io, plan: Plan, output: string, text: { color: boolean; verbose: boolean; dir?: string }): Promise<void> {
  // One document (JSON, markdown): a signal lets it finish, never leaves half of one (the exit code is the command's).
  if (output !== 'text') interruptsOf(io).hold('the plan is being written');
  if (output === 'json') for (const chunk of planJsonChunks(plan)) io.stdout(chunk);
  else if (output === 'markdown') io.stdout(fitPrinted((room) => renderPlanMarkdown(plan, { kindOrder: KIND_ORDER, maxChars: room, limitSaid: MARKDOWN_MAX_CHARS, verbose: text.verbose, ...(text.dir !== undefined ? { dir: text.dir } : {}) })));
  else await writePlanText(plan, { ...text, kindOrder: KIND_ORDER }, io.stdout, io.stdoutDrained);
}
