/** Diagnostics for the terminal: `file:line:col severity CODE message`, then the totals. */
import { compareDiagnostics, formatDiagnostic, type Diagnostic } from '../diagnostics.js';
import { painter } from './paint.js';
import { plural } from './facts.js';
import { stripControl } from './sanitize.js';
import { oneLine } from './value.js';

/** Messages quote user values; none of it may reach the terminal raw. */
function clean(d: Diagnostic): Diagnostic {
  const out: Diagnostic = { ...d, code: oneLine(d.code), message: stripControl(d.message) };
  if (d.file !== undefined) out.file = oneLine(d.file);
  if (d.path !== undefined) out.path = oneLine(d.path);
  if (d.hint !== undefined) out.hint = stripControl(d.hint);
  return out;
}

export function renderDiagnosticsText(diags: Diagnostic[], opts: { color: boolean }): string {
  const paint = painter(opts.color);
  const lines = [...diags].sort(compareDiagnostics).map((raw) => {
    const d = clean(raw);
    const text = formatDiagnostic(d);
    // formatDiagnostic puts `severity CODE` right after the location; colour just that word.
    const head = formatDiagnostic({ severity: d.severity, code: d.code, message: '', file: d.file, line: d.line, col: d.col });
    const at = head.length - `${d.severity} ${d.code} `.length;
    const word = paint(d.severity === 'error' ? 'red' : 'yellow', d.severity);
    return `${text.slice(0, at)}${word}${text.slice(at + d.severity.length)}`;
  });
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.length - errors;
  lines.push(`${plural(errors, 'error')}, ${plural(warnings, 'warning')}.`);
  return `${lines.join('\n')}\n`;
}
