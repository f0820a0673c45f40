/** How an error's message and hint are printed on stderr. */
import { lineWithoutSecrets } from '../config/url-secrets.js';
import { stripControl } from '../util/control-text.js';
import { defuseWorkflowCommands } from '../render/sanitize.js';

/**
 * Secrets and control characters out. Some messages list their reasons a line each (a stale
 * plan): none of those lines can become a CI workflow command (see workflow-commands.ts).
 */
export function errorText(text: string): string {
  return defuseWorkflowCommands(stripControl(lineWithoutSecrets(text)));
}
