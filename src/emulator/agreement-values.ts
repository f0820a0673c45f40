/**
 * Custom template field values of an agreement (seed 001 "Rules for custom template values"),
 * checked against the template's definition (YAML, valid already: definition.ts). Pure.
 *
 * - Defaults fill omitted values (null counts as omitted; "" too for the required check).
 * - A required field with no default and no value is an error naming the field. NOTE(api): a
 *   field of an optional section that is not included by default (`required: false`,
 *   `included: false`) is not required.
 * - select/radio: one of the options; multiselect: a list of options; number/currency: a number
 *   or numeric string; date: YYYY-MM-DD; email: an address; text-like inputs: a string.
 * - NOTE(api): a key that is not a field of the definition is an error too (a typo would otherwise
 *   pass silently); `header` fields take no value. With `import: governing_law`,
 *   `governing_law_region` and `chosen_courts_region` are strings, filled from the import's defaults.
 */
import { parse } from 'yaml';
import { EMAIL, isIsoDate, NUMERIC } from './definition.js';
import type { FieldError } from './problem.js';
import { isObject } from './seed-checks.js';

interface FieldSpec {
  key: string;
  input: string;
  required: boolean;
  options: string[];
  default: unknown;
}

const GOVERNING_LAW_KEYS = ['governing_law_region', 'chosen_courts_region'] as const;
const TEXT_INPUTS = new Set(['text', 'textarea', 'markdown', 'states']);

export interface CheckedValues {
  /** The values to store: what was sent plus defaults. */
  values: Record<string, unknown>;
  /** Each rejected field, by its key. */
  errors: FieldError[];
}

export function customFieldValues(definition: string, sent: unknown): CheckedValues {
  const { fields, governingLaw } = readDefinition(definition);
  const errors: FieldError[] = [];
  const values: Record<string, unknown> = {};
  if (sent !== undefined && sent !== null && !isObject(sent)) {
    return { values, errors: [{ field: 'custom_field_values', message: 'must be an object keyed by the template field keys' }] };
  }
  const given: Record<string, unknown> = isObject(sent) ? sent : {};
  const known = new Set([...fields.map((f) => f.key), ...(governingLaw ? GOVERNING_LAW_KEYS : [])]);
  for (const key of Object.keys(given)) if (!known.has(key)) errors.push({ field: key, message: 'is not a field of the custom template' });
  for (const field of fields) {
    if (field.input === 'header') {
      if (given[field.key] !== undefined && given[field.key] !== null) errors.push({ field: field.key, message: 'is a header and takes no value' });
      continue;
    }
    const value = given[field.key] ?? field.default;
    if (value === undefined || value === null || value === '') {
      if (field.required) errors.push({ field: field.key, message: 'is required (the template gives no default)' });
      continue;
    }
    const problem = valueProblem(field, value);
    if (problem) errors.push({ field: field.key, message: problem });
    else values[field.key] = value;
  }
  if (governingLaw) {
    for (const key of GOVERNING_LAW_KEYS) {
      const value = given[key] ?? governingLaw[key];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'string') errors.push({ field: key, message: 'must be a string' });
      else values[key] = value;
    }
  }
  return { values, errors };
}

function valueProblem(field: FieldSpec, value: unknown): string | undefined {
  switch (field.input) {
    case 'select':
    case 'radio':
      return typeof value === 'string' && field.options.includes(value) ? undefined : `must be one of the options: ${field.options.join(', ')}`;
    case 'multiselect':
      return Array.isArray(value) && value.every((v) => typeof v === 'string' && field.options.includes(v)) ? undefined : `must be a list of options among: ${field.options.join(', ')}`;
    case 'number':
    case 'currency':
      return (typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && NUMERIC.test(value.trim())) ? undefined : 'must be a number';
    case 'date':
      return typeof value === 'string' && isIsoDate(value) ? undefined : 'must be a date written YYYY-MM-DD';
    case 'email':
      return typeof value === 'string' && EMAIL.test(value) ? undefined : 'must be an e-mail address';
    default:
      // NOTE(api): address, rate and fixed values are not described; any string, number or object passes.
      if (TEXT_INPUTS.has(field.input)) return typeof value === 'string' ? undefined : 'must be text';
      return typeof value === 'string' || typeof value === 'number' || isObject(value) ? undefined : 'must be a string, number or object';
  }
}

function readDefinition(text: string): { fields: FieldSpec[]; governingLaw: Partial<Record<(typeof GOVERNING_LAW_KEYS)[number], unknown>> | undefined } {
  const doc: unknown = parse(text);
  const fields: FieldSpec[] = [];
  let governingLaw: Partial<Record<(typeof GOVERNING_LAW_KEYS)[number], unknown>> | undefined;
  const sections = isObject(doc) && Array.isArray(doc.sections) ? (doc.sections as unknown[]) : [];
  for (const section of sections) {
    if (!isObject(section)) continue;
    if (section.import === 'governing_law') {
      governingLaw = isObject(section.defaults) ? section.defaults : {};
      continue;
    }
    const optionalOff = section.required === false && section.included === false;
    if (!isObject(section.fields)) continue;
    for (const [key, spec] of Object.entries(section.fields)) {
      if (!isObject(spec)) continue;
      fields.push({
        key,
        input: typeof spec.input === 'string' ? spec.input : 'text',
        required: spec.required === true && !optionalOff,
        options: Array.isArray(spec.options) ? spec.options.filter((o): o is string => typeof o === 'string') : [],
        default: spec.default,
      });
    }
  }
  return { fields, governingLaw };
}
