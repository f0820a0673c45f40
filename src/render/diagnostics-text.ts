/** Diagnostics for the terminal: `file:line:col severity CODE message`, then the totals. */
import { compareDiagnostics, formatDiagnostic, problemCount, type Diagnostic } from '../diagnostics.js';
import { painter } from './paint.js';
import { plural } from './facts.js';
import { displayWidth } from './width.js';
import { lineAround } from './line-window.js';
import { stripControl } from './sanitize.js';
import { oneLine, onePath } from './value.js';
import type { SourceLine } from '../config/source-lines.js';
import { excerptWithoutSecrets, lineWithoutSecrets } from '../config/url-secrets.js';

/** Messages quote user values; none of it may reach the terminal raw. */
function clean(d: Diagnostic): Diagnostic {
  // A name or reference written into a message as it is (`custom-term "https://…"`) hides a URL's secrets as quoted values do.
  const out: Diagnostic = { ...d, code: oneLine(d.code), message: stripControl(lineWithoutSecrets(d.message)) };
  if (d.file !== undefined) out.file = onePath(d.file);
  if (d.path !== undefined) out.path = oneLine(d.path);
  if (d.hint !== undefined) out.hint = stripControl(lineWithoutSecrets(d.hint));
  return out;
}

export function renderDiagnosticsText(diags: Diagnostic[], opts: { color: boolean; source?: SourceLine; hide?: (text: string) => string }): string {
  const paint = painter(opts.color);
  const lines = [...diags].sort(compareDiagnostics).map((raw) => {
    const d = clean(raw);
    const text = formatDiagnostic(d);
    // formatDiagnostic puts `severity CODE` right after the location; colour just that word.
    const head = formatDiagnostic({ severity: d.severity, code: d.code, message: '', file: d.file, line: d.line, col: d.col });
    const at = head.length - `${d.severity} ${d.code} `.length;
    const word = paint(d.severity === 'error' ? 'red' : 'yellow', d.severity);
    const coloured = `${text.slice(0, at)}${word}${text.slice(at + d.severity.length)}`;
    const excerpt = d.file && d.line && opts.source ? sourceExcerpt(opts.source(d.file, d.line), d.line, d.col ?? 1, paint, opts.hide) : undefined;
    if (!excerpt) return coloured;
    // The excerpt goes between the message and the hint, as rustc and Terraform show it.
    const [first, ...rest] = coloured.split('\n');
    return [first, excerpt, ...rest].join('\n');
  });
  const errors = problemCount(diags, 'error');
  const warnings = problemCount(diags, 'warning');
  lines.push(`${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`);
  return `${lines.join('\n')}\n`;
}

/**
 * `   7 |     reviewr: bob` and a caret under the column; tabs shown as spaces so the caret lines
 * up, the line cut around the column when it is long, a URL's secrets hidden as messages hide them,
 * and nothing raw reaches the terminal.
 */
export function sourceExcerpt(text: string | undefined, line: number, col: number, paint: ReturnType<typeof painter>, hide: (text: string) => string = (t) => t): string | undefined {
  if (text === undefined) return undefined;
  // What else output hides (an API key, `[redacted]`) is hidden here, before the caret is placed: hidden after, it moved what is under the caret (probe XF-4).
  const clean = (t: string): string => stripControl(hide(excerptWithoutSecrets(t)).replace(/\t/g, ' '));
  const { text: shown, caret } = lineAround(text, col, clean, 100, 40, true);
  const gutter = String(line).padStart(4);
  return `${paint('dim', `${gutter} |`)} ${shown}\n${paint('dim', `${' '.repeat(gutter.length)} |`)} ${' '.repeat(displayWidth(shown.slice(0, caret)))}${paint('red', '^')}`;
}
