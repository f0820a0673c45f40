/** How an error's message and hint are printed on stderr. */
import { lineWithoutSecrets } from '../config/url-secrets.js';
import { stripControl } from '../util/control-text.js';

/**
 * Secrets and control characters out. Some messages list their reasons a line each (a stale
 * plan); a CI runner reads workflow commands from stderr too, as a line that starts with `::`
 * after any spaces (Unicode's included) and, in the older form, `##[` anywhere. What text from a
 * service or a file brought in is broken up so (`: :`, `# #[`), and cannot become one.
 */
export function errorText(text: string): string {
  return stripControl(lineWithoutSecrets(text))
    .replace(/^([^\S\r\n]*):(?=:)/gmu, '$1: ')
    .replace(/#(?=#\[)/g, '# ');
}
