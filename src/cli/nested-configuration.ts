/**
 * A configuration written inside another (by `init` or `export`): that one reads every YAML file
 * below it as its own, so its `validate` then fails. Said as a warning; the files are written all
 * the same (a user may move them).
 */
import { isAbsolute, relative } from 'node:path';
import { enclosingConfiguration } from '../config/load.js';
import { showPath } from '../config/quote.js';
import { escapeControl } from '../render/sanitize.js';
import { shellWord } from '../util/shell-word.js';

/**
 * The warning for `dir` (as typed; `root` resolved) inside another configuration, or undefined.
 * `fails`: what that configuration's validate now fails on.
 */
export async function nestedConfigurationWarning(dir: string, root: string, cwd: string, fails: string): Promise<string | undefined> {
  const outer = (await enclosingConfiguration(root, true))?.dir;
  if (!outer) return undefined;
  const where = isAbsolute(dir) ? outer : relative(cwd, outer) || '.';
  // The paths are what was typed: a control character in one is shown escaped, not sent to the terminal.
  return escapeControl(`Warning: ${showPath(dir)} is inside the configuration directory ${showPath(where)}, which reads every YAML file below it: \`docket validate -C ${shellWord(where)}\` now fails on ${fails}. Move ${showPath(dir)} out of it (or into a dot-folder).`);
}
