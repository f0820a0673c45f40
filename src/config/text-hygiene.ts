/**
 * Text hygiene of a document's values, checked offline: no string holds NUL or another control
 * character (C0 but tab, line feed and carriage return; DEL; C1), which no contract text needs and
 * which would reach the services and every terminal that shows the value; and a one-line value
 * (a name, an e-mail, a reference, an id) holds no tab or line break either. And no whole number
 * is past what JavaScript, and JSON readers like it, hold exactly: 2^53 + 1 is read as 2^53 and
 * would be sent as a value nobody wrote.
 */
import { codePointOf, quoteAround, quoteValue } from './quote.js';
import { columnInLine } from './scalar-columns.js';
import { withoutInvalidValueAt, type Diagnostic, type SourcePos } from '../diagnostics.js';
import { joinPointer, pointerToPath, splitPointer, type DocPositions } from './yaml-positions.js';
import { ATTACHMENT_REF_KEY } from '../kinds/support/template-params.js';

export interface TextProblem {
  pointer: string;
  /** Default `control-character`. */
  code?: 'unsafe-number' | 'invalid-utf8';
  /** The number an `unsafe-number` is read as. */
  read?: number;
  message: string;
  hint: string;
  /** The value a character is refused in, and the character's index in it. */
  character?: { value: string; at: number };
}

/** Keys whose values are one line of text wherever they appear. */
const ONE_LINE_KEYS = new Set(['kind', 'name', 'email', 'id', 'renamed_from', 'reviewer', 'default_reviewer', 'custom_term', 'attachments', ATTACHMENT_REF_KEY, 'actor', 'type', 'standard_version', 'file', 'body_file', 'docx_file', 'definition_file', 'url', 'organization_id']);

/** A control character no text needs: C0 but tab, line feed and carriage return; DEL; C1. */
export const CONTROL_CHARACTER = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const LINE_BREAK_OR_TAB = /[\t\n\r\u0085\u2028\u2029]/;
/**
 * What no text may hold: a control character, or half of a character written in UTF-16 alone (a
 * `"\ud800"` escape: ill-formed text, which the same code point as bytes is refused as, probe NF-2).
 */
const NO_TEXT = new RegExp(`${CONTROL_CHARACTER.source}|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]`);
const SURROGATE = /[\ud800-\udfff]/;


/**
 * Every string in `value` with a control character (or, under a one-line key, a tab or line break);
 * with `numbers`, every whole number past 2^53 − 1 too (textDiagnostics keeps those written as one).
 */
export function textProblems(value: unknown, numbers = false): TextProblem[] {
  const out: TextProblem[] = [];
  // The path is kept as segments and joined into a pointer only for a problem: most files have none.
  const path: (string | number)[] = [];
  const visit = (node: unknown, oneLine: boolean): void => {
    if (typeof node === 'string') {
      const bad = NO_TEXT.exec(node) ?? (oneLine ? LINE_BREAK_OR_TAB.exec(node) : null);
      if (bad) out.push(problemAt(path.reduce<string>(joinPointer, ''), node, bad[0], bad.index));
    } else if (typeof node === 'number') {
      if (numbers && Number.isInteger(node) && !Number.isSafeInteger(node)) out.push(unsafeNumberAt(path.reduce<string>(joinPointer, ''), node));
    } else if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        path.push(i);
        visit(node[i], oneLine);
        path.pop();
      }
    } else if (node !== null && typeof node === 'object') {
      for (const key in node) {
        if (!Object.prototype.hasOwnProperty.call(node, key)) continue;
        path.push(key);
        visit((node as Record<string, unknown>)[key], ONE_LINE_KEYS.has(key));
        path.pop();
      }
    }
  };
  visit(value, false);
  return out;
}

/**
 * The problems of the text values were written as around their placeholders (by pointer:
 * `"see ${var.other} x\u0007"`): the file's own characters, said where they are written and of
 * the file, not of the variable that fills the rest in (probe XF-3).
 */
export function writtenTextProblems(written: ReadonlyMap<string, string>): TextProblem[] {
  const out: TextProblem[] = [];
  for (const [pointer, text] of written) {
    // Under a one-line key, as textProblems reads the value: an item of a list takes its list's key.
    const key = splitPointer(pointer).reverse().find((segment) => !/^\d+$/.test(segment));
    const bad = NO_TEXT.exec(text) ?? (key !== undefined && ONE_LINE_KEYS.has(key) ? LINE_BREAK_OR_TAB.exec(text) : null);
    if (bad) out.push(problemAt(pointer, text, bad[0], bad.index));
  }
  return out;
}

function problemAt(pointer: string, value: string, bad: string, at: number): TextProblem {
  const where = pointer === '' ? 'a value' : `\`${pointerToPath(pointer)}\``;
  // Quoted around the character: a long value's first characters may not reach it.
  const shown = quoteAround(value, at);
  const character = { value, at };
  if (SURROGATE.test(bad)) {
    return { pointer, code: 'invalid-utf8', message: `${where} holds ${codePointOf(bad)} alone, half of a character written in UTF-16, which is no text: ${shown}`, hint: 'write the character itself, or both halves of its pair (`\\ud83d\\ude00`), or its escape as one code point (`\\U0001F600`); remove it if it is a leftover', character };
  }
  // A file name written as Windows writes paths, in double quotes: `"docs\terms.md"` holds a tab (probe FN-1).
  const hint = /(^|\/)[^/]*file$/.test(pointer) && /[\t\n\r\b\f\v\0]/.test(bad)
    ? 'in double quotes, `\\t`, `\\n`, `\\b` and the like are escapes (a tab, a line break): write the path with `/` (`docs/terms.md`), or in single quotes, or unquoted'
    : undefined;
  return CONTROL_CHARACTER.test(bad)
    ? { pointer, message: `${where} holds the control character ${codePointOf(bad)}: ${shown}`, hint: hint ?? 'remove it; text may hold tabs and line breaks, but no other control characters', character }
    : { pointer, message: `${where} must be one line, without tabs or line breaks: ${shown}`, hint: hint ?? 'names, e-mails, ids and references are one line of plain text', character };
}

/**
 * Where a problem's character is written: at it, when its value is written on one line (`lineOf`
 * gives the file's lines) and reads there as the value; else at the value's start, `pos`.
 */
export function characterAt(problem: TextProblem, pos: SourcePos, lineOf?: (line: number) => string | undefined): SourcePos {
  const line = problem.character && lineOf?.(pos.line);
  const col = line === undefined || !problem.character ? undefined : columnInLine(line, pos.col, problem.character.value, problem.character.at);
  return col === undefined ? pos : { ...pos, col };
}

function unsafeNumberAt(pointer: string, value: number): TextProblem {
  const where = pointer === '' ? 'a value' : `\`${pointerToPath(pointer)}\``;
  return {
    pointer,
    code: 'unsafe-number',
    read: value,
    message: `${where} is a whole number past ${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')} and is not held exactly (read as ${String(value)})`,
    hint: 'write a smaller number, or quote it where text is allowed',
  };
}

/** A number as YAML's core schema writes one: `123`, `-7`, `0x1F`, `0o17`, `1.5`, `1e20`. */
const NUMBER_LITERAL = /^(?:[-+]?[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/;

export interface TextDiagnosticOptions {
  /** The value as the file has it at a position: whole numbers are checked too. */
  written?: (pos: { line: number; col: number }) => string | undefined;
  /** Values made from a broken variable, told where the variable is defined. */
  unresolved?: ReadonlySet<string>;
  /** The file's lines: a character is then said where it is written, not at its value's start. */
  lineOf?: (line: number) => string | undefined;
}

/**
 * The problems of `value` as errors at their values' positions (a character's own, with `lineOf`).
 * With `written`, whole numbers past 2^53 − 1 not written as exactly the number read (`1e20` is
 * held exactly; `9007199254740993.0` is read as 9007199254740992).
 */
export function textDiagnostics(value: unknown, positions: DocPositions, options: TextDiagnosticOptions = {}): Diagnostic[] {
  const { written, unresolved, lineOf } = options;
  const out: Diagnostic[] = [];
  for (const problem of textProblems(value, written !== undefined)) {
    if (unresolved?.has(problem.pointer)) continue;
    const at = characterAt(problem, positions.valueAt(problem.pointer), lineOf);
    let message = problem.message;
    if (problem.code === 'unsafe-number') {
      const source = written?.(at);
      if (source === undefined || !NUMBER_LITERAL.test(source) || (problem.read !== undefined && heldExactly(source, problem.read))) continue;
      message = message.replace(' is a whole number', ` is ${quoteValue(source)}, a whole number`);
    }
    out.push(textDiagnostic(problem, at, message));
  }
  return out;
}

/** A text problem as an error at `at` (its character's place: characterAt). */
export function textDiagnostic(problem: TextProblem, at: SourcePos, message = problem.message): Diagnostic {
  return { severity: 'error', code: problem.code ?? 'control-character', message, ...at, path: pointerToPath(problem.pointer), hint: problem.hint };
}

/**
 * A whole number written as exactly the value it is read as (2^53, or a number pull wrote from a
 * live value) loses nothing: only a literal that reads as another number is refused.
 */
function heldExactly(source: string, read: number): boolean {
  const written = exactInteger(source.replace(/^[-+]/, ''));
  // A literal that is no whole number (`9007199254740993.5`) was rounded to one.
  return written !== undefined && (source.startsWith('-') ? -written : written) === BigInt(read);
}

/** The whole number an unsigned literal writes exactly (`1e20`, `2.5e1`, `0x1F`), or undefined for a fraction. */
function exactInteger(literal: string): bigint | undefined {
  // BigInt reads `0x1F` and `0o17`, and plain digits.
  if (/^(?:[0-9]+|0x[0-9a-fA-F]+|0o[0-7]+)$/.test(literal)) return BigInt(literal);
  const [, whole = '', fraction = '', exponent = '0'] = /^([0-9]*)(?:\.([0-9]*))?(?:[eE]([-+]?[0-9]+))?$/.exec(literal) ?? [];
  const digits = `${whole}${fraction}`.replace(/^0+(?=\d)/, '') || '0';
  const shift = Number(exponent) - fraction.length;
  if (shift >= 0) return BigInt(digits + '0'.repeat(shift));
  // Digits past the point must all be zeros.
  return /^0*$/.test(digits.slice(shift)) ? BigInt(digits.slice(0, shift) || '0') : undefined;
}

/**
 * Drops from `diagnostics` every schema complaint (`invalid-value`) about a value a
 * control-character, unsafe-number or api-key-in-file diagnostic is already about (`"a@b.example\t"`
 * is then not also "not an e-mail address"; `questions: 12345678901234567890` not also "not an
 * integer", probe JH-8; a key pasted as an id not also "not a UUID", probe LN-4): one value, one
 * error, the one that says what to mend first.
 */
const ECHOED: ReadonlySet<string> = new Set(['control-character', 'unsafe-number', 'api-key-in-file']);

export function withoutEchoesOf(told: readonly Diagnostic[], diagnostics: Diagnostic[]): Diagnostic[] {
  const echoed = (d: Diagnostic): boolean => ECHOED.has(d.code) && d.path !== undefined;
  return withoutInvalidValueAt(new Set(told.flatMap((d) => (echoed(d) ? [d.path!] : []))), diagnostics);
}

/**
 * Drops an `unsafe-number` at the place a `number-as-text` is about (a value sent as text, written
 * as a number too large to hold): that one says it, with the fix (quote it); the value is one
 * mistake, as it is in docket.yaml's `vars` (probe OO-8).
 */
export function withoutUnsafeNumberEchoes(diagnostics: Diagnostic[]): Diagnostic[] {
  const at = (d: Diagnostic): string => `${d.file ?? ''}:${d.line ?? 0}:${d.col ?? 0}`;
  const asText = new Set(diagnostics.filter((d) => d.code === 'number-as-text').map(at));
  return asText.size === 0 ? diagnostics : diagnostics.filter((d) => d.code !== 'unsafe-number' || !asText.has(at(d)));
}
