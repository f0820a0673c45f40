/**
 * The rules of a custom template definition that JSON Schema cannot express: field keys unique
 * across all sections, and defaults that suit their input type (seed 001 "Rules for custom
 * template values": the service applies the same checks to values, so a bad default would make
 * every agreement that omits the field fail).
 *
 * The rules read the data defensively: whatever the schema already reports (wrong types, unknown
 * inputs, bad options) is skipped here, so one mistake yields one diagnostic.
 */
import type { Diagnostic, Diagnostics, SourcePos } from '../../diagnostics.js';
import { didYouMean } from '../../config/suggest.js';
import { quoteValue } from '../../config/quote.js';
import { EMAIL_MESSAGE, EMAIL_PATTERN } from '../../config/schema-names.js';
import { joinPointer, pointerToPath } from '../../config/yaml-positions.js';
import { ACCENTS_ONLY, differOnlyInAccents } from '../../util/nfc.js';
import {
  GOVERNING_LAW_IMPORT,
  GOVERNING_LAW_KEYS,
  dateText,
  isInput,
  isRecord,
  isStringList,
  type DefinitionInput,
} from './definition-model.js';

/** Where keys (`at`) and values (`valueAt`) were written; DocPositions is one. */
export interface RulePositions {
  at(pointer: string): SourcePos;
  valueAt(pointer: string): SourcePos;
  mergedAt?(pointer: string): SourcePos | undefined;
}

/**
 * A free-text default YAML read as a number written otherwise (`007`, `1.10`), as number-as-text
 * words it; undefined where what is written is sent as written (a definition file's own text).
 */
export type NumberAsWritten = (value: number, pos: SourcePos) => Diagnostic | undefined;

/** What the definition's text says: how free-text defaults go (NumberAsWritten), and a plain value as written (`1.0`, which YAML reads as 1). */
export interface DefinitionText {
  numberAsWritten?: NumberAsWritten;
  written?: (pos: SourcePos) => string | undefined;
}

/**
 * Adds a diagnostic for every rule violation in `definition` (already validated or not). `base` is
 * the JSON pointer of the definition inside the document `positions` describes.
 */
export function checkDefinitionRules(definition: unknown, positions: RulePositions, diag: Diagnostics, base = '', text: DefinitionText = {}): void {
  if (!isRecord(definition) || !Array.isArray(definition.sections)) return;
  const error = (code: string, message: string, pointer: string, pos: SourcePos, hint?: string): void => {
    const path = pointerToPath(pointer);
    diag.error(code, message, { ...pos, ...(path ? { path } : {}), ...(hint ? { hint } : {}) });
  };

  // Field key → where it was first declared (a field, or the governing-law import that answers into it).
  const firstUse = new Map<string, { pointer: string; what: string }>();
  let firstImport: string | undefined;

  definition.sections.forEach((section, i) => {
    if (!isRecord(section)) return;
    const sectionPointer = joinPointer(joinPointer(base, 'sections'), i);

    if ('import' in section) {
      if (section.import !== GOVERNING_LAW_IMPORT) return;
      const importPointer = joinPointer(sectionPointer, 'import');
      if (firstImport !== undefined) {
        // NOTE(api): assumed invalid on the service: two pickers would answer into the same two keys.
        error(
          'duplicate-import',
          `\`import: ${GOVERNING_LAW_IMPORT}\` appears twice; the first is at line ${positions.at(firstImport).line}`,
          importPointer,
          positions.at(importPointer),
        );
        return;
      }
      firstImport = importPointer;
      for (const key of GOVERNING_LAW_KEYS) {
        const clash = firstUse.get(key);
        if (clash) {
          error(
            'duplicate-field-key',
            `\`import: ${GOVERNING_LAW_IMPORT}\` answers into \`${key}\`, which the field at line ${positions.at(clash.pointer).line} already uses; field keys must be unique across the whole definition`,
            importPointer,
            positions.at(importPointer),
          );
        } else {
          firstUse.set(key, { pointer: importPointer, what: `\`import: ${GOVERNING_LAW_IMPORT}\`` });
        }
      }
      return;
    }

    if (!isRecord(section.fields)) return;
    const heading = typeof section.heading === 'string' ? ` "${section.heading}"` : '';
    for (const [key, spec] of Object.entries(section.fields)) {
      const fieldPointer = joinPointer(joinPointer(sectionPointer, 'fields'), key);
      const clash = firstUse.get(key);
      if (clash) {
        error(
          'duplicate-field-key',
          `duplicate field key \`${key}\`: ${clash.what} at line ${positions.at(clash.pointer).line} already uses it; field keys must be unique across the whole definition`,
          fieldPointer,
          // Brought in by a merge key: there, not at the anchor's field (which is the one it repeats).
          positions.mergedAt?.(fieldPointer) ?? apartFrom(positions, fieldPointer, clash.pointer),
          'rename one of them; the key is how agreements name the field’s value',
        );
      } else {
        firstUse.set(key, { pointer: fieldPointer, what: `the field in section${heading}` });
      }
      if (isRecord(spec)) checkDefault(spec, fieldPointer, positions, error, text);
    }
  });
}

/**
 * Where `pointer` is written, as against `other`: an alias repeats the nodes of its anchor, and
 * with them their places (`fields: *f`, `- *s`), so the nearest node of `pointer` that is written
 * apart is the alias (probe QW-4).
 */
function apartFrom(positions: RulePositions, pointer: string, other: string): SourcePos {
  const same = (a: SourcePos, b: SourcePos): boolean => a.line === b.line && a.col === b.col;
  for (let p = pointer, o = other; p !== '' && o !== ''; p = p.slice(0, p.lastIndexOf('/')), o = o.slice(0, o.lastIndexOf('/'))) {
    const here = positions.at(p);
    if (!same(here, positions.at(o))) return here;
  }
  return positions.at(pointer);
}

type Report = (code: string, message: string, pointer: string, pos: SourcePos, hint?: string) => void;

/** `invalid-default` when a field's default is not a value its input accepts. */
function checkDefault(spec: Record<string, unknown>, fieldPointer: string, positions: RulePositions, report: Report, { numberAsWritten, written }: DefinitionText): void {
  if (!('default' in spec) || !isInput(spec.input)) return;
  const value = spec.default;
  // Other types (booleans, mappings, null, and `.inf` or `.nan`, which the schema says are no number) are the schema's to report.
  if (!(typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value)) || Array.isArray(value) || value instanceof Date)) return;
  const pointer = joinPointer(fieldPointer, 'default');
  const fail = (message: string, at = pointer, hint?: string): void =>
    report('invalid-default', message, at, positions.valueAt(at), hint);
  const input = spec.input;
  // An empty list is broken options too: the schema says it must not be empty, and no default can be one of none.
  const options = isStringList(spec.options) && spec.options.length > 0 ? spec.options : undefined;

  if (input === 'multiselect') {
    if (!Array.isArray(value)) {
      const hint = typeof value === 'string' && options?.includes(value) ? `write it as a list: [${JSON.stringify(value)}]` : undefined;
      fail(`the default of a \`multiselect\` field must be a list of its options, not ${describe(value)}`, pointer, hint);
      return;
    }
    if (!options) return; // missing or broken options: reported by the schema
    const seen = new Map<string, number>();
    value.forEach((item, i) => {
      if (typeof item !== 'string') return; // the schema reports items that are not text
      const at = joinPointer(pointer, i);
      const first = seen.get(item);
      if (!options.includes(item)) fail(notAnOption(item, options), at, optionHint(item, options));
      else if (first !== undefined) fail(`the default lists the option ${quoteValue(item)} twice (at [${first}] and [${i}])`, at);
      if (first === undefined) seen.set(item, i);
    });
    return;
  }

  if (Array.isArray(value)) {
    fail(`the default of a \`${input}\` field must be a single value, not a list${input === 'select' ? ' (use `input: multiselect` for several choices)' : ''}`);
    return;
  }
  // A number as it is written, when YAML reads it as other digits (`1.0` as 1): said as the user wrote it.
  const writtenAs = typeof value === 'number' ? written?.(positions.valueAt(pointer)) : undefined;
  const problem = scalarDefaultProblem(input, value, options, writtenAs !== undefined && !writtenAs.includes('${') ? writtenAs : undefined);
  // An inline definition is published as YAML docket writes: `default: 007` would go as `7`, said
  // as that, with what to quote, rather than as a number where text goes.
  const lossy = typeof value === 'number' && FREE_TEXT.has(input) && numberAsWritten ? numberAsWritten(value, positions.valueAt(pointer)) : undefined;
  if (lossy) report(lossy.code, lossy.message, pointer, positions.valueAt(pointer), lossy.hint);
  else if (problem) fail(problem.message, pointer, problem.hint);
}

/** Inputs whose answer is any text (scalarDefaultProblem's last case). */
const FREE_TEXT: ReadonlySet<DefinitionInput> = new Set(['text', 'textarea', 'markdown', 'states', 'address']);

function scalarDefaultProblem(
  input: DefinitionInput,
  value: string | number | Date,
  options: string[] | undefined,
  numberWritten?: string,
): { message: string; hint?: string } | undefined {
  switch (input) {
    case 'select':
    case 'radio': {
      if (!options) return undefined;
      // NOTE(api): "answers must match option text exactly" (public docs). A YAML number is not text
      // to a YAML parser, so `default: 1` does not match the option "1" (the emulator agrees).
      const text = value instanceof Date ? dateText(value) : typeof value === 'number' ? (numberWritten ?? String(value)) : value;
      if ((typeof value === 'string' || value instanceof Date) && options.includes(text)) return undefined;
      if (options.includes(text)) return { message: `default ${text} is a number, but options are text`, hint: `quote it: default: ${JSON.stringify(text)}` };
      const hint = optionHint(text, options);
      return hint === undefined ? { message: notAnOption(text, options) } : { message: notAnOption(text, options), hint };
    }
    case 'number':
    case 'currency':
    case 'rate':
      // NOTE(api): seed 001 says number and currency values are numeric; rate is assumed numeric too
      // (a percentage without `%`). Currency keeps its precision, so any decimal is accepted.
      if (typeof value === 'number' ? Number.isFinite(value) : typeof value === 'string' && NUMERIC.test(value.trim())) return undefined;
      return { message: `the default of a \`${input}\` field must be a number, not ${describe(value)}`, hint: 'write digits with an optional leading `-` and decimal point, e.g. 1500 or 12.5' };
    case 'date':
      if (value instanceof Date ? !Number.isNaN(value.getTime()) : typeof value === 'string' && isCalendarDate(value)) return undefined;
      return { message: `the default of a \`date\` field must be a real date written YYYY-MM-DD, not ${describe(value)}` };
    case 'email':
      if (typeof value === 'string' && EMAIL.test(value)) return undefined;
      return { message: `the default of an \`email\` field must be an e-mail address, not ${describe(value)}`, hint: EMAIL_MESSAGE };
    case 'header':
    case 'fixed':
      // NOTE(api): header and fixed take no answer; a default is taken to be their text, so only a string fits.
      if (typeof value === 'string') return undefined;
      return { message: `the default of a \`${input}\` field must be text, not ${describe(value)}` };
    case 'text':
    case 'textarea':
    case 'markdown':
    case 'states':
      // NOTE(api): free text takes its default as text: a YAML number (`default: 2024`) is sent in the
      // definition as a number, and every agreement that leaves the field out was refused (probe BN-2).
      if (typeof value === 'string') return undefined;
      return { message: `the default of a \`${input}\` field must be text, not the ${value instanceof Date ? 'date' : 'number'} ${describe(value)}`, hint: 'quote it as it is written, so that it is sent as text' };
    default:
      // address: assumed to take its default as plain text.
      return undefined;
  }
}

// The numeric strings the rest of docket compares by value (engine/normalize.ts) and the emulator accepts.
const NUMERIC = /^-?\d+(\.\d+)?$/;

// The rule every e-mail docket checks is held to (a member's, a template's signer): not a looser one (probe WJ-2).
const EMAIL = new RegExp(EMAIL_PATTERN);

/** `YYYY-MM-DD` naming a day that exists (no 2026-02-30). */
export function isCalendarDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function notAnOption(text: string, options: string[]): string {
  // The same on screen as one, in another Unicode form: said, or the message reads as refusing what it lists (probe PV-7).
  const form = options.some((o) => differOnlyInAccents(o, text)) ? ` (one is ${ACCENTS_ONLY}; options compare exactly)` : '';
  return `default ${quoteValue(text)} is not one of the options: ${options.map((o) => quoteValue(o)).join(', ')}${form}`;
}

/** Options compare exactly, so a near miss (case, a typo) gets named. */
function optionHint(text: string, options: string[]): string | undefined {
  const suggestion = didYouMean(text, options);
  return suggestion === '' ? undefined : `options match exactly${suggestion}`;
}

function describe(value: string | number | Date): string {
  if (value instanceof Date) return dateText(value);
  return typeof value === 'string' ? quoteValue(value) : String(value);
}
