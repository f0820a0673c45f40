/**
 * Validation of a custom template definition (reference/api.md "The custom template definition";
 * seed 001 rules for defaults). Returns every problem with a path into the definition, such as
 * `sections[1].fields.payout_model.options`. NOTE(api): the path form is ours; section indexes
 * count from 0.
 */
import { parseDocument } from 'yaml';
import type { FieldError } from './problem.js';

export const FIELD_INPUTS = [
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

const TOP_LEVEL_KEYS = ['title', 'terms_label', 'parties', 'sections'];
const PARTY_KEYS = ['sender', 'recipient'];
const FIELDS_SECTION_KEYS = ['heading', 'required', 'included', 'fields'];
// NOTE(api): `included` accepted on import sections too (the include checkbox exists for any non-required section).
const IMPORT_SECTION_KEYS = ['import', 'required', 'included', 'defaults'];
const IMPORTS = ['governing_law'];
const IMPORT_DEFAULT_KEYS = ['governing_law_region', 'chosen_courts_region'];
const FIELD_SPEC_KEYS = ['label', 'input', 'required', 'default', 'options'];
const CHOICE_INPUTS = ['select', 'radio', 'multiselect'];

export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
// NOTE(api): a numeric default may also be written as a numeric string ("150.50"); seed 001 only says "numeric".
export const NUMERIC = /^-?\d+(\.\d+)?$/;

type Mapping = Record<string, unknown>;

function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Every problem of the definition text; empty when it is valid. */
export function definitionErrors(text: string): FieldError[] {
  const doc = parseDocument(text);
  if (doc.errors.length > 0) {
    return doc.errors.map((e) => ({ field: 'definition', message: `is not valid YAML: ${e.message.split('\n')[0] ?? e.code}` }));
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: 100 });
  } catch (err) {
    return [{ field: 'definition', message: `is not valid YAML: ${err instanceof Error ? err.message : String(err)}` }];
  }
  const v = new DefinitionValidator();
  v.definition(value);
  return v.errors;
}

class DefinitionValidator {
  readonly errors: FieldError[] = [];
  /** Field key → where it was first defined. */
  private readonly fieldKeys = new Map<string, string>();

  private add(field: string, message: string): void {
    this.errors.push({ field, message });
  }

  definition(value: unknown): void {
    if (!isMapping(value)) return this.add('definition', 'must be a YAML mapping with title, terms_label, parties and sections');
    this.unknownKeys(value, TOP_LEVEL_KEYS, '', 'is not a top-level key of a definition');
    this.optionalString(value, 'title', 'title');
    this.optionalString(value, 'terms_label', 'terms_label');
    if (value.parties !== undefined) this.parties(value.parties);
    // NOTE(api): a definition without sections is refused (the public docs show none without).
    if (value.sections === undefined) return this.add('sections', 'is required (a list of sections)');
    if (!Array.isArray(value.sections)) return this.add('sections', 'must be a list of sections');
    value.sections.forEach((section: unknown, i) => this.section(section, `sections[${i}]`));
  }

  private parties(value: unknown): void {
    if (!isMapping(value)) return this.add('parties', 'must be a mapping with sender and recipient');
    this.unknownKeys(value, PARTY_KEYS, 'parties', 'is not a party role');
    for (const key of PARTY_KEYS) this.optionalString(value, key, `parties.${key}`);
  }

  private section(value: unknown, at: string): void {
    if (!isMapping(value)) return this.add(at, 'must be a mapping (heading and fields, or import)');
    if (value.import !== undefined) return this.importSection(value, at);
    this.unknownKeys(value, FIELDS_SECTION_KEYS, at, 'is not a key of a section');
    if (typeof value.heading !== 'string' || value.heading.trim() === '') this.add(`${at}.heading`, 'is required (a non-empty string)');
    this.optionalBoolean(value, 'required', at);
    this.optionalBoolean(value, 'included', at);
    if (!isMapping(value.fields)) return this.add(`${at}.fields`, 'is required (a mapping of field key to field spec)');
    for (const [key, spec] of Object.entries(value.fields)) this.field(key, spec, `${at}.fields.${key}`);
  }

  private importSection(value: Mapping, at: string): void {
    this.unknownKeys(value, IMPORT_SECTION_KEYS, at, 'is not a key of an import section');
    if (typeof value.import !== 'string' || !IMPORTS.includes(value.import)) this.add(`${at}.import`, `must be one of: ${IMPORTS.join(', ')}`);
    this.optionalBoolean(value, 'required', at);
    this.optionalBoolean(value, 'included', at);
    if (value.defaults === undefined) return;
    if (!isMapping(value.defaults)) return this.add(`${at}.defaults`, `must be a mapping of ${IMPORT_DEFAULT_KEYS.join(', ')}`);
    this.unknownKeys(value.defaults, IMPORT_DEFAULT_KEYS, `${at}.defaults`, 'is not a default of the governing_law import');
    for (const key of IMPORT_DEFAULT_KEYS) this.optionalString(value.defaults, key, `${at}.defaults.${key}`);
  }

  private field(key: string, spec: unknown, at: string): void {
    const first = this.fieldKeys.get(key);
    if (first !== undefined) this.add(at, `duplicate field key "${key}" (also defined at ${first}); field keys are unique across the definition`);
    else this.fieldKeys.set(key, at);
    if (!isMapping(spec)) return this.add(at, 'must be a mapping (label, input, required, default, options)');
    this.unknownKeys(spec, FIELD_SPEC_KEYS, at, 'is not a key of a field spec');
    this.optionalString(spec, 'label', `${at}.label`);
    this.optionalBoolean(spec, 'required', at);
    // NOTE(api): `input` is required; `label` is optional (a header's text may be its only content).
    const input = spec.input;
    if (typeof input !== 'string' || !(FIELD_INPUTS as readonly string[]).includes(input)) {
      this.add(`${at}.input`, `must be one of: ${FIELD_INPUTS.join(', ')}`);
      return;
    }
    const options = this.options(spec, input, at);
    if (spec.default !== undefined && spec.default !== null) this.fieldDefault(spec.default, input, options, `${at}.default`);
  }

  /** The options when valid (undefined when absent or invalid, after recording why). */
  private options(spec: Mapping, input: string, at: string): string[] | undefined {
    if (spec.options === undefined || spec.options === null) {
      if (CHOICE_INPUTS.includes(input)) this.add(`${at}.options`, `is required for a ${input} input (a list of strings)`);
      return undefined;
    }
    const options = spec.options;
    if (!Array.isArray(options) || options.length === 0 || !options.every((o): o is string => typeof o === 'string' && o !== '')) {
      this.add(`${at}.options`, 'must be a non-empty list of strings');
      return undefined;
    }
    return options;
  }

  private fieldDefault(value: unknown, input: string, options: string[] | undefined, at: string): void {
    switch (input) {
      case 'select':
      case 'radio':
        if (options && !(typeof value === 'string' && options.includes(value))) this.add(at, `must be one of the options: ${options.join(', ')}`);
        return;
      case 'multiselect':
        if (options && !(Array.isArray(value) && value.every((v) => typeof v === 'string' && options.includes(v)))) {
          this.add(at, `must be a list of options among: ${options.join(', ')}`);
        }
        return;
      case 'number':
      case 'currency':
        if (!((typeof value === 'number' && Number.isFinite(value)) || (typeof value === 'string' && NUMERIC.test(value.trim())))) this.add(at, 'must be a number');
        return;
      case 'date':
        if (!(typeof value === 'string' && isIsoDate(value))) this.add(at, 'must be a date written YYYY-MM-DD');
        return;
      case 'email':
        if (!(typeof value === 'string' && EMAIL.test(value))) this.add(at, 'must be an e-mail address');
        return;
      default:
        return;
    }
  }

  private unknownKeys(value: Mapping, allowed: string[], at: string, message: string): void {
    for (const key of Object.keys(value)) {
      if (!allowed.includes(key)) this.add(at === '' ? key : `${at}.${key}`, `${message} (allowed: ${allowed.join(', ')})`);
    }
  }

  private optionalString(value: Mapping, key: string, at: string): void {
    if (value[key] !== undefined && typeof value[key] !== 'string') this.add(at, 'must be a string');
  }

  private optionalBoolean(value: Mapping, key: string, at: string): void {
    if (value[key] !== undefined && typeof value[key] !== 'boolean') this.add(`${at}.${key}`, 'must be true or false');
  }
}

export function isIsoDate(value: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}
