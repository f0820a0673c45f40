/**
 * Text hygiene of a document's values, checked offline: no string holds NUL or another control
 * character (C0 but tab, line feed and carriage return; DEL; C1), which no contract text needs and
 * which would reach the services and every terminal that shows the value; and a one-line value
 * (a name, an e-mail, a reference, an id) holds no tab or line break either.
 */
import { quoteValue } from './quote.js';
import { joinPointer, pointerToPath } from './yaml-positions.js';

export interface TextProblem {
  pointer: string;
  message: string;
  hint: string;
}

/** Keys whose values are one line of text wherever they appear. */
const ONE_LINE_KEYS = new Set(['kind', 'name', 'email', 'id', 'renamed_from', 'reviewer', 'default_reviewer', 'custom_term', 'attachments', 'actor', 'type', 'standard_version', 'file', 'body_file', 'docx_file', 'definition_file', 'url', 'organization_id']);

const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LINE_BREAK_OR_TAB = /[\t\n\r\u0085\u2028\u2029]/;

function codePoint(c: string): string {
  return `U+${c.charCodeAt(0).toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Every string in `value` with a control character (or, under a one-line key, a tab or line break). */
export function textProblems(value: unknown, pointer = '', oneLine = false, out: TextProblem[] = []): TextProblem[] {
  if (typeof value === 'string') {
    const bad = CONTROL.exec(value) ?? (oneLine ? LINE_BREAK_OR_TAB.exec(value) : null);
    if (bad) {
      const where = pointer === '' ? 'a value' : `\`${pointerToPath(pointer)}\``;
      out.push(
        CONTROL.test(bad[0])
          ? { pointer, message: `${where} holds the control character ${codePoint(bad[0])}: ${quoteValue(value)}`, hint: 'remove it; text may hold tabs and line breaks, but no other control characters' }
          : { pointer, message: `${where} must be one line, without tabs or line breaks: ${quoteValue(value)}`, hint: 'names, e-mails, ids and references are one line of plain text' },
      );
    }
  } else if (Array.isArray(value)) {
    value.forEach((item, i) => textProblems(item, joinPointer(pointer, i), oneLine, out));
  } else if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) textProblems(item, joinPointer(pointer, key), ONE_LINE_KEYS.has(key), out);
  }
  return out;
}
