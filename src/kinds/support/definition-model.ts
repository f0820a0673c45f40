/**
 * The vocabulary of a custom template definition (input types, the governing-law import) and the
 * small value helpers the validator, the comparison and the change summary share.
 */
import { yaml } from '../../util/lazy-yaml.js';
import { plainYamlValue } from '../../config/yaml-read.js';
import { crAsLf } from '../../util/line-break.js';
import { KEEPS_KEY_ORDER } from '../../engine/canonical.js';

/** File name of the definition's JSON Schema in schemas/. */
export const DEFINITION_SCHEMA = 'custom-template-definition.schema.json';

/** Every `input:` type the service documents. */
export const DEFINITION_INPUTS = [
  'text',
  'textarea',
  'markdown',
  'date',
  'number',
  'currency',
  'radio',
  'select',
  'multiselect',
  'email',
  'states',
  'address',
  'rate',
  'fixed',
  'header',
] as const;

export type DefinitionInput = (typeof DEFINITION_INPUTS)[number];

/** Inputs whose answers are picked from `options`. */
export const CHOICE_INPUTS: readonly DefinitionInput[] = ['select', 'radio', 'multiselect'];

/** The one `import:` block the public docs confirm. */
export const GOVERNING_LAW_IMPORT = 'governing_law';

/**
 * The custom field value keys the governing-law block answers into (public docs: "governing-law
 * answers go into custom_field_values as governing_law_region / chosen_courts_region").
 */
export const GOVERNING_LAW_KEYS = ['governing_law_region', 'chosen_courts_region'] as const;

/**
 * The keys a custom template's agreements take values for: each section's fields, and the
 * governing-law import's two. Undefined where the definition does not say them all (not read, or
 * an import docket does not know), so no test value is refused on a guess.
 */
export function definitionFieldKeys(definition: unknown): string[] | undefined {
  if (!isRecord(definition) || !Array.isArray(definition.sections)) return undefined;
  const keys: string[] = [];
  for (const section of definition.sections) {
    if (!isRecord(section)) return undefined;
    if (section.import !== undefined) {
      if (section.import !== GOVERNING_LAW_IMPORT) return undefined;
      keys.push(...GOVERNING_LAW_KEYS);
    }
    if (section.fields !== undefined) {
      if (!isRecord(section.fields)) return undefined;
      keys.push(...Object.keys(section.fields));
    }
  }
  return keys;
}

export function isInput(value: unknown): value is DefinitionInput {
  return typeof value === 'string' && (DEFINITION_INPUTS as readonly string[]).includes(value);
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Date);
}

export function isStringList(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((v) => typeof v === 'string');
}

/**
 * A YAML 1.1 parser (and the `yaml` package with that schema) reads an unquoted `2026-01-01` as a
 * timestamp; docket's own parser (YAML 1.2 core) reads it as a string. Both mean the same date.
 */
export function dateText(date: Date): string {
  return Number.isNaN(date.getTime()) ? String(date) : date.toISOString().slice(0, 10);
}

/** A deep copy with every Date replaced by its `YYYY-MM-DD` text, so both parsers' output compare alike. */
export function withoutDates(value: unknown): unknown {
  if (value instanceof Date) return dateText(value);
  if (Array.isArray(value)) return value.map(withoutDates);
  if (isRecord(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      // defineProperty: a `__proto__` key stays data (as in yaml-positions.ts).
      Object.defineProperty(out, k, { value: withoutDates(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

export type ParsedDefinition = { ok: true; value: unknown } | { ok: false; text: string };

/**
 * A definition as data: a string (the service's `current_definition`, a definition file's text) is
 * parsed as one YAML document; anything else is already data. Unparsable text stays text.
 */
export function definitionData(definition: unknown): ParsedDefinition {
  if (typeof definition !== 'string') return { ok: true, value: withFieldOrder(withoutDates(definition ?? null)) };
  // Most definitions are plain YAML: js-yaml reads them several times faster (and no Date to undo).
  const plain = plainYamlValue(definition);
  if (plain !== undefined) return { ok: true, value: withFieldOrder(plain) };
  // A lone CR is a line break to YAML, not to the library's parser (probe EB-3).
  const doc = yaml().parseDocument(crAsLf(definition), { uniqueKeys: true, prettyErrors: false });
  if (doc.errors.length > 0) return { ok: false, text: definition };
  try {
    return { ok: true, value: withFieldOrder(withoutDates(doc.toJS() ?? null)) };
  } catch {
    // Too many aliases (yaml's guard against alias bombs): not something to compare structurally.
    return { ok: false, text: definition };
  }
}

/** The value, each section's `fields:` marked as a mapping whose order counts (the form's), for digests. */
function withFieldOrder(value: unknown): unknown {
  if (!isRecord(value) || !Array.isArray(value.sections)) return value;
  for (const section of value.sections) {
    if (isRecord(section) && isRecord(section.fields)) Object.defineProperty(section.fields, KEEPS_KEY_ORDER, { value: true });
  }
  return value;
}

/** Structural equality of plain YAML data: mapping key order ignored, list order kept. */
export function deepEqual(a: unknown, b: unknown): boolean {
  if (Object.is(a, b)) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    if (!Array.isArray(a) || !Array.isArray(b) || a.length !== b.length) return false;
    return a.every((item, i) => deepEqual(item, b[i]));
  }
  if (isRecord(a) && isRecord(b)) {
    const ka = Object.keys(a);
    if (ka.length !== Object.keys(b).length) return false;
    return ka.every((k) => Object.prototype.hasOwnProperty.call(b, k) && deepEqual(a[k], b[k]));
  }
  return false;
}
