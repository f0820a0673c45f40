/**
 * The translation of ajv's errors (JSON Schema draft-07, the draft editors' YAML support
 * implements) into diagnostics at the right line and column; validators.ts loads the validators.
 */
import { domainToASCII } from 'node:url';
import type { AnySchemaObject, ErrorObject } from 'ajv';
import type { Diagnostic } from '../diagnostics.js';
import { canonicalJson } from '../engine/canonical.js';
import { isPlainObject } from '../util/plain.js';
import { EMAIL_PATTERN, PLACEHOLDER_MARK } from './schema-names.js';
import { didYouMean, suggest } from './suggest.js';
import { gluedDashHint, joinPointer, pathToPointer, pointerLabel, pointerToPath, type DocPositions } from './yaml-positions.js';
import { quoteValue, showJson, showName } from './quote.js';
import { urlSpellingHint } from './url-policy.js';
import { asLatinLetters, drawnAlikeLetter, otherScriptOf } from '../util/other-script.js';
import { credentialsHidden, shownUrl } from './url-secrets.js';
import { keyShapeDescribed } from './api-keys.js';
import { keyAsWritten, nonFiniteName, TAG_HINT, YAML_11_BOOLEAN } from './written-number.js';
import { placeholderParts, variablesIn } from './interpolate.js';

export { schemasDir } from './schema-names.js';

export interface SchemaDiagnosticOptions {
  positions: DocPositions;
  /** How a message names the document itself, e.g. `Playbook` or `docket.yaml`. */
  documentLabel: string;
  /** Errors about a value at one of these pointers are dropped (its placeholder was not resolved). */
  unresolved?: Set<string>;
  /** A plain scalar as written at a value's position (`0x1F`, read as 31), to quote it as written. */
  written?: (pos: { line: number; col: number }) => string | undefined;
  /** Whether a tag is written just before a value's position (`!!int "2024"`, `!!int 2024`). */
  tagged?: (pos: { line: number; col: number }) => boolean;
  /** The document is JSON (a saved plan), where a null is written `null`, not as nothing. */
  json?: boolean;
  /** Values that held a placeholder, by pointer, as the file writes them: a refusal of one says which variable filled it in. */
  fromVariables?: ReadonlyMap<string, string>;
  /** Where each `var.` name got the value this run uses (ProjectResult.varOrigin). */
  varOrigin?: VariableOrigins;
  /** The text a whole placeholder gave, by pointer, before the field's type made it a number: quoted as given. */
  filledAs?: ReadonlyMap<string, string>;
}

/** Where a variable got its value this run: its definition in docket.yaml, and the environment variable that filled it, when one did. */
/** `run`: the run that takes it from there, when not this one (`--env prod`, `no --env`): another environment's value checked. */
export type VariableOrigins = (name: string) => { at: string; env?: string; run?: string } | undefined;

/** How the schemas mark a value that may be a `${var.NAME}` placeholder: in text, or whole (scripts/gen-schemas.mjs). */
const VARIABLE_REFS: ReadonlySet<unknown> = new Set(['#/$defs/variable', '#/$defs/wholeVariable']);

/** Patterns of the schemas said in words: a regular expression says little to whoever wrote the value. */
const PATTERN_WORDS: Readonly<Record<string, string>> = {
  '^\\d+(\\.\\d+)*$': 'a version number of digits and dots, such as `2.1`',
  '^[0-9a-fA-F]{64}$': 'a SHA-256 digest: 64 hexadecimal digits',
  '^[0-9a-f]{64}$': 'a SHA-256 digest: 64 lower-case hexadecimal digits',
  '^[a-z][a-z0-9_]*$': 'lower-case letters, digits and `_`, starting with a letter',
};

/** How the schemas' date-time pattern ends, after its calendar date (scripts/gen-schemas.mjs): a format editors check otherwise. */
const DATE_TIME_TIME_PART = '[Tt ](?:[01]\\d|2[0-3]):[0-5]\\d:(?:[0-5]\\d|60)(?:\\.\\d+)?(?:[Zz]|[+-](?:[01]\\d|2[0-3])(?::?[0-5]\\d)?)$';

function isDateTimeError(e: ErrorObject): boolean {
  return (e.keyword === 'format' && e.params.format === 'date-time') || (e.keyword === 'pattern' && String(e.params.pattern).endsWith(DATE_TIME_TIME_PART));
}

/** Turns ajv's errors into one diagnostic per real problem, at the key or value it is about. */
export function schemaDiagnostics(errors: readonly ErrorObject[] | null | undefined, options: SchemaDiagnosticOptions): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  for (const error of simplify(errors ?? []).flatMap(everyRepeat)) {
    if (options.unresolved?.has(error.instancePath) && error.keyword !== 'required' && error.keyword !== 'additionalProperties') continue;
    const d = toDiagnostic(error, options);
    // A key written once and merged into several mappings (`<<: *base`) is one mistake, said at its line once.
    const merged = d.code === 'unknown-key' && d.line !== undefined;
    const key = `${d.code}|${d.line}|${d.col}|${merged ? '' : d.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(d);
  }
  return out;
}

/**
 * ajv stops a list's uniqueness check at the first repeat it finds: each repeat is its own
 * problem, said at its own line (every problem at once).
 */
function everyRepeat(e: ErrorObject): ErrorObject[] {
  if (e.keyword !== 'uniqueItems' || !Array.isArray(e.data)) return [e];
  const firstAt = new Map<string, number>();
  const out: ErrorObject[] = [];
  e.data.forEach((item: unknown, j) => {
    const key = typeof item === 'string' ? `s${item}` : `j${canonicalJson(item)}`;
    const i = firstAt.get(key);
    if (i === undefined) firstAt.set(key, j);
    else out.push({ ...e, params: { ...e.params, i, j } });
  });
  return out.length > 0 ? out : [e];
}

/**
 * With `allErrors`, a failed `anyOf`/`oneOf` reports every branch's errors plus its own. Keep the
 * errors of the branch whose type matched the data (the one the user meant); when none matched,
 * keep only the composite error, reworded as "must be a string or a list".
 */
function simplify(errors: readonly ErrorObject[]): ErrorObject[] {
  const dropped = new Set<ErrorObject>();
  // A typed value that may also be written as `${var.NAME}` (the editor's side of the schema):
  // docket checks values once filled in, so only the typed alternative's errors are the user's.
  // With more alternatives than the typed one, the composite is judged below as usual.
  for (const e of errors) {
    const alternatives = Array.isArray(e.schema) ? (e.schema as AnySchemaObject[]) : [];
    if ((e.keyword === 'anyOf' || e.keyword === 'oneOf') && alternatives.length === 2 && alternatives.some((s) => VARIABLE_REFS.has(s.$ref))) dropped.add(e);
    // An error inside the referenced placeholder schema has a path relative to it: known by its pattern.
    else if ((e.parentSchema as AnySchemaObject | undefined)?.$comment === PLACEHOLDER_MARK) dropped.add(e);
  }
  const composites = errors
    .filter((e) => (e.keyword === 'anyOf' || e.keyword === 'oneOf') && !dropped.has(e))
    .sort((a, b) => b.instancePath.length - a.instancePath.length || b.schemaPath.length - a.schemaPath.length);
  for (const c of composites) {
    const within = (e: ErrorObject): boolean =>
      e !== c &&
      !dropped.has(e) &&
      e.schemaPath.startsWith(`${c.schemaPath}/`) &&
      (e.instancePath === c.instancePath || e.instancePath.startsWith(`${c.instancePath}/`));
    const branches = new Map<string, ErrorObject[]>();
    for (const e of errors) {
      if (!within(e)) continue;
      const branch = e.schemaPath.slice(c.schemaPath.length + 1).split('/')[0]!;
      branches.set(branch, [...(branches.get(branch) ?? []), e]);
    }
    if (branches.size === 0) continue; // oneOf matched several branches: keep its own error
    const matched = [...branches.values()].filter(
      (errs) => !errs.some((e) => e.instancePath === c.instancePath && (e.keyword === 'type' || e.keyword === 'const' || e.keyword === 'enum')),
    );
    // A value with a time in it is said against the date-time its field also takes, not against a date alone.
    const timed = typeof c.data === 'string' && /\d[Tt ]\d{1,2}:\d{2}/.test(c.data);
    // A date without one against the date alone: the date-time's one pattern error would outrank the date's two.
    const rank = (errs: ErrorObject[]): number => errs.length + (errs.some(isDateTimeError) ? (timed ? -0.5 : 1.5) : 0);
    const keep = matched.sort((a, b) => rank(a) - rank(b))[0];
    for (const errs of branches.values()) for (const e of errs) if (errs !== keep) dropped.add(e);
    if (keep) dropped.add(c);
  }
  // `if`/`then` and `propertyNames` repeat what their inner errors say, and so does a `pattern`
  // written next to a `format` for editors that do not check formats (`date` plus `^\d{4}-…`).
  const parentOf = (e: ErrorObject): string => e.schemaPath.slice(0, e.schemaPath.lastIndexOf('/'));
  const formatFailed = new Set(errors.filter((e) => e.keyword === 'format').map((e) => `${e.instancePath}|${parentOf(e)}`));
  // A value of the wrong type (`type: ~`) is said to be that; what else its schema says of it ("must
  // be one of", a `oneOf` of mappings with other keys: probe QD-3) is the same mistake again.
  const typeFailed = new Map<string, string[]>();
  for (const e of errors) if (e.keyword === 'type' && !dropped.has(e)) typeFailed.set(e.instancePath, [...(typeFailed.get(e.instancePath) ?? []), `${parentOf(e)}/`]);
  const saidByType = (e: ErrorObject): boolean => e.keyword !== 'type' && (typeFailed.get(e.instancePath)?.some((schema) => e.schemaPath.startsWith(schema)) ?? false);
  return errors.filter(
    (e) =>
      !dropped.has(e) &&
      e.keyword !== 'if' &&
      e.keyword !== 'propertyNames' &&
      !(e.keyword === 'pattern' && formatFailed.has(`${e.instancePath}|${parentOf(e)}`)) &&
      !saidByType(e),
  );
}

/** A key with nothing before its `:` (a line that starts with one, or `{ : x }`), or written `""`: the reader keeps both as "". */
const NAMELESS_KEY = 'a key with no name (nothing, or `""`, before its `:`)';

/** A definition file's name, in any letter case (`*.YAML` is read as a YAML file too). */
const YAML_NAME_PATTERN = '\\.[yY][aA]?[mM][lL]$';

/** The file type a name pattern asks for (`\.[pP][dD][fF]$` → `.pdf`), said instead of the pattern. */
function extensionIn(pattern: string): string | undefined {
  const letters = /^\\\.((?:\[[A-Za-z]{2}\]|[a-z0-9])+)\$$/.exec(pattern)?.[1];
  return letters === undefined ? undefined : `.${letters.replace(/\[(\w)\w\]/g, (_, c: string) => c.toLowerCase())}`;
}

/** A list wanted and a mapping written whose key starts `-name` (`-name: R`, no space after the dash): the hint is the space (probe FQ). */
function dashGluedKey(data: unknown): string | undefined {
  if (!isPlainObject(data)) return undefined;
  const key = Object.keys(data).find((k) => /^-[A-Za-z_"']/.test(k));
  return key === undefined ? undefined : gluedDashHint(`${key.slice(1)}: …`);
}

function toDiagnostic(e: ErrorObject, { positions, documentLabel, written, tagged: taggedAt, json, fromVariables, varOrigin, filledAs }: SchemaDiagnosticOptions): Diagnostic {
  // A key YAML reads as null (`: x`, `~: x`) is named as written, not as the word `null` (the
  // reader keeps `: x` as "" and `~: x` as `~`; `Null: x` is read as `null`).
  const unknownKey = (key: string, at: string): string => {
    if (key === '') return NAMELESS_KEY;
    if (key === '~') return 'unknown key `~` (read as `null`)';
    if (key !== 'null') return `unknown key ${keyName(key, at)}`;
    const raw = written?.(positions.at(at))?.replace(/:$/, '');
    return raw === undefined || raw === key ? `unknown key ${showName(key)}` : `unknown key ${showName(raw)} (read as \`null\`)`;
  };
  // A key YAML reads as a number is named as written, with what it reads as (`1e3` is `1000`).
  const keyName = (key: string, at: string): string => {
    const raw = keyAsWritten(key, written?.(positions.at(at)));
    return raw === undefined ? showName(key) : `${showName(raw)} (read as \`${key}\`)`;
  };
  const pointer = e.instancePath;
  // The whole document is named as such, not as a key (`the document` would read as one).
  const label = pointer === '' ? 'the document' : `\`${pointerLabel(pointer)}\``;
  const where = pointer === '' ? documentLabel : `\`${pointerToPath(pointer)}\``;
  const params = e.params as Record<string, unknown>;
  const parentSchema = (e.parentSchema ?? {}) as AnySchemaObject;
  const make = (code: string, message: string, at: string, hint?: string, valuePosition = true): Diagnostic => {
    const pos = valuePosition ? positions.valueAt(at) : positions.at(at);
    const path = pointerToPath(at);
    // A message about a value quotes it, unless it already says what it got.
    // A `url:` as every message shows one: without its credentials, query and fragment (TR66-1).
    const data = typeof e.data === 'string' && /\/url$/.test(at) ? shownUrl(e.data) : e.data;
    // A URL or organization id shaped like an API key (the two CI secrets swapped) is described, not quoted (probe CE-2).
    const keyLike = typeof e.data === 'string' && /\/(url|organization_id)$/.test(at) ? keyShapeDescribed(e.data) : undefined;
    const quoted = valuePosition && at === pointer && !/, not |\(got |\(written /.test(message) ? (keyLike !== undefined ? ` (got ${keyLike})` : gotValue(data) || structureGot(e)) : '';
    // The value the message quotes is not on the line it points at: the variable that gave it is (probe LN-1).
    const source = valuePosition ? fromVariables?.get(at) : undefined;
    return withVariableHint({ severity: 'error', code, message: `${message}${quoted}`, ...pos, ...(path ? { path } : {}), ...(hint ? { hint } : {}) }, source, varOrigin);
  };

  switch (e.keyword) {
    case 'additionalProperties': {
      const key = String(params.additionalProperty);
      const properties = (parentSchema.properties ?? {}) as Record<string, { doNotSuggest?: unknown } | undefined>;
      // Keys a schema knows only to refuse them (`name` in a template's parameters) are not offered.
      const known = Object.keys(properties).filter((k) => properties[k]?.doNotSuggest !== true);
      // A template type has over a hundred parameters: name the schema instead of listing them.
      const hint =
        known.length > MAX_LISTED_KEYS
          ? `${known.length} keys are allowed here${typeof parentSchema.title === 'string' ? ` (${parentSchema.title})` : ''}; an editor using the schema completes them`
          : known.length > 0
            ? `allowed keys here: ${known.join(', ')}`
            : undefined;
      // `-name` right under a key that takes a list and holds none (`rules:` then `-name: R`) is a
      // list item that lost the space after its dash: not `name` misspelt (which would be there twice).
      const listWanting = isPlainObject(e.data) && Object.entries(e.data).some(([k, v]) => v === null && [(properties[k] as { type?: unknown } | undefined)?.type].flat().includes('array'));
      const glued = listWanting ? dashGluedKey({ [key]: true }) : undefined;
      // Never a key the mapping already has: writing it would be a duplicate key (probe OO-3).
      const spelt = glued ? '' : didYouMean(key, isPlainObject(e.data) ? known.filter((k) => !Object.hasOwn(e.data as object, k)) : known);
      // Not a typo but a level too high (`name:` beside an Organization's `review:`): where it goes (probe JJ-3).
      const under = spelt === '' && !glued ? known.filter((k) => isPlainObject(properties[k]) && isPlainObject((properties[k] as AnySchemaObject).properties) && Object.hasOwn((properties[k] as AnySchemaObject).properties, key)) : [];
      const deeper = under.length > 0 ? `, did you mean ${joinOr(under.map((k) => `\`${k}.${key}\``))}? (\`${key}\` goes under ${joinOr(under.map((k) => `\`${k}:\``))})` : '';
      // A key drawn like one the mapping has (`аctions`, its `а` Cyrillic, beside `actions`): the
      // hint's list names `actions` as allowed, which reads as if it were refused (probe SH-3).
      const twin = spelt === '' && isPlainObject(e.data) ? known.filter((k) => Object.hasOwn(e.data as object, k)).map((k) => [k, drawnAlikeLetter(key, k)] as const).find(([, letter]) => letter) : undefined;
      const drawnAlike = twin ? ` (drawn like \`${twin[0]}\`, which this mapping has too: they differ only in a letter drawn alike: ${twin[1]})` : '';
      return make('unknown-key', `${unknownKey(key, joinPointer(pointer, key))} in ${where}${spelt}${deeper}${drawnAlike}`, joinPointer(pointer, key), glued ?? hint, false);
    }
    case 'required': {
      const field = String(params.missingProperty);
      const property = (parentSchema.properties as Record<string, AnySchemaObject> | undefined)?.[field];
      const hint = typeof property?.description === 'string' ? `\`${field}\`: ${property.description}` : undefined;
      return make('missing-field', `missing required field \`${field}\` in ${where}`, pointer, hint, false);
    }
    case 'pattern': {
      if (e.propertyName !== undefined) {
        // From `propertyNames`: the key itself is wrong.
        return make(
          'invalid-value',
          `${e.propertyName === '' ? NAMELESS_KEY : `invalid name ${keyName(e.propertyName, joinPointer(pointer, e.propertyName))}`} in ${where}: use ASCII letters, digits, \`_\` and \`-\`, starting with a letter or \`_\``,
          joinPointer(pointer, e.propertyName),
          undefined,
          false,
        );
      }
      if (params.pattern === '^https?://(?!/)') {
        const url = String(e.data);
        // The code of every other URL problem (url-policy.ts), as the README groups them (probe IY-3).
        const keyLikeUrl = keyShapeDescribed(url);
        return make('invalid-url', `${label} must be an http(s) URL${keyLikeUrl !== undefined ? ` (got ${keyLikeUrl})` : gotValue(shownUrl(url))}`, pointer, urlSpellingHint(url));
      }
      // A required template parameter (scripts/gen-schemas.mjs): empty compares as no value.
      if (params.pattern === NOT_BLANK_PATTERN) return make('invalid-value', `${label} is required and must not be blank${gotValue(e.data)}`, pointer);
      if (params.pattern === DECIMAL_PATTERN) return make('invalid-value', `${label} must be a number, not ${numberShown(e.data, asWritten)}`, pointer);
      if (params.pattern === INTEGER_PATTERN) return make('invalid-value', `${label} must be an integer, not ${numberShown(e.data, asWritten)}`, pointer);
      if (params.pattern === YAML_NAME_PATTERN) return make('invalid-value', `${label} must name a .yaml or .yml file`, pointer);
      const extension = extensionIn(String(params.pattern));
      if (extension) return make('invalid-value', `${label} must name a ${extension} file`, pointer);
      if (isDateTimeError(e)) return make('invalid-value', `${label} must be a date and time (RFC 3339)${gotValue(e.data)}`, pointer);
      const words = PATTERN_WORDS[String(params.pattern)];
      if (words) return make('invalid-value', `${label} must be ${words}${gotValue(e.data)}`, pointer);
      return make('invalid-value', `${label} must match the pattern \`${String(params.pattern)}\``, pointer);
    }
    case 'anyOf':
    case 'oneOf': {
      const alternatives = Array.isArray(e.schema) ? (e.schema as AnySchemaObject[]) : [];
      const phrases = [...new Set(alternatives.flatMap((s) => describeSchema(s)))];
      const message = phrases.length > 0 ? `${label} must be ${joinOr(phrases)}` : `${label} does not match any allowed form`;
      // A word close to one the alternatives allow (`expect: acepted`) is a typo of it.
      const words = alternatives.flatMap((a) => (typeof a.const === 'string' ? [a.const] : Array.isArray(a.enum) ? a.enum.filter((v): v is string => typeof v === 'string') : []));
      const closest = typeof e.data === 'string' ? suggest(e.data, words) : undefined;
      // A word that is a key of a mapping the alternatives allow (`expect: rejected`) is that mapping written short.
      const key = typeof e.data === 'string' && closest === undefined ? e.data : undefined;
      const asKey = key !== undefined && alternatives.some((a) => isPlainObject(a.properties) && Object.hasOwn(a.properties, key));
      const described = typeof parentSchema.description === 'string' ? ` (${parentSchema.description.replace(/\.$/, '')})` : '';
      const hint = closest !== undefined ? `did you mean \`${closest}\`?` : asKey ? `\`${key}\` is a key of the mapping written here, not a value: write \`{ ${key}: … }\`${described}` : undefined;
      // No value is quoted as written (`evaluation: ~`); anything else as `make` quotes it, so the suggestion is the hint.
      return make('invalid-value', `${message}${e.data === null ? (asWritten() ?? '') : ''}`, pointer, hint);
    }
    case 'uniqueItems':
      // At the repeat, which is what to take out.
      return make('invalid-value', `${label} ${valueMessage(e, params)}`, joinPointer(pointer, String(Math.max(Number(params.i), Number(params.j)))));
    case 'not': {
      // `not: {}` marks a key that is known but never accepted; its description says what to write instead.
      const never = isPlainObject(e.schema) && Object.keys(e.schema).length === 0;
      const hint = typeof parentSchema.description === 'string' ? parentSchema.description : undefined;
      return make('invalid-value', never ? `${label} is not allowed here` : `${label} ${valueMessage(e, params)}`, pointer, hint);
    }
    case 'type': {
      const expected = String(params.type).split(',');
      // In JSON (a saved plan) a null is written `null`: not the empty value YAML's nothing is (probe IP-4).
      if (e.data === null && json) return make('invalid-value', `${label} must be ${joinOr(expected.map(typePhrase))}, not null`, pointer);
      const unquoted =
        expected.includes('string') &&
        ((typeof e.data === 'number' && !expected.includes('number') && !expected.includes('integer')) || (typeof e.data === 'boolean' && !expected.includes('boolean')));
      // Quotes help only where the digits as text are a value the key takes: not an e-mail address, a UUID or one of a list.
      const source = written?.(positions.valueAt(pointer));
      // A tag before it made the number (`!!int 2024`): quotes would not help (`!!int "2024"` is one too).
      const tagged = unquoted && ((source !== undefined && /^["']/.test(source)) || taggedAt?.(positions.valueAt(pointer)) === true);
      const quotable = unquoted && !tagged && quotedPasses(parentSchema, source ?? String(e.data));
      const readAs = typeof e.data === 'boolean' ? 'as true or false' : 'as a number (2.0 becomes 2, .inf infinity)';
      // A tag that made true or false: without it the word is still one, so quotes are the way out (second read SR76-7).
      const tagHint = typeof e.data === 'boolean' ? 'remove the tag before the value (such as `!!bool`) and put the word in quotes: docket reads plain YAML, where true and false unquoted are not text' : TAG_HINT;
      const hint = tagged ? tagHint : quotable ? `put the value in quotes: unquoted, YAML reads it ${readAs}` : (oldBoolean(expected, e.data, source) ?? quotedValueHint(expected, e.data, source));
      // `null` or `~` written out is no value to YAML, not an empty one: said as written.
      const nullWord = nullWritten();
      if (nullWord !== undefined) {
        // Quoting is the way out only where a word would do (text); a mapping or a number wants a value.
        // Leaving the key out is said as fitting only where it may be (a required one may not: probe OR-3).
        // Not where the word itself is no value either (a URL, an e-mail address, one of a list).
        const anyText = expected.includes('string') && !['format', 'pattern', 'enum', 'const'].some((k) => isPlainObject(parentSchema) && k in parentSchema);
        const hint = anyText ? 'YAML reads `null` and `~` as no value: write the value (or, where the key may be left out, leave it out) (quote it, "null", to mean the word)' : 'YAML reads `null` and `~` as no value: write the value (or, where the key may be left out, leave it out)';
        return make('invalid-value', `${label} must be ${joinOr(expected.map(typePhrase))}, not null (written ${quoteValue(nullWord)})`, pointer, hint);
      }
      // Nothing written ("not empty" says so); a list or mapping quoted as JSON, cut short: `(got ["a","b"])`.
      const got = e.data === null ? '' : (asWritten() ?? (structureGot(e) || undefined));
      // What the key takes, when "a string" would send the writer to quotes that do not help.
      const named = parentSchema.const !== undefined || Array.isArray(parentSchema.enum) || typeof parentSchema.format === 'string';
      const takes = unquoted && !quotable && named ? describeSchema(parentSchema) : [];
      if (takes.length > 0) return make('invalid-value', `${label} must be ${joinOr(takes)}, not ${describeValue(e.data)}${got ?? gotValue(e.data)}`, pointer);
      // An integer that may be written as text too (`term: 2.5` is neither): said as its text is.
      if (typeof e.data === 'number' && parentSchema.pattern === INTEGER_PATTERN) return make('invalid-value', `${label} must be an integer, not ${numberShown(e.data, asWritten)}`, pointer);
      return make('invalid-value', `${label} ${valueMessage(e, params, got)}`, pointer, hint ?? (expected.includes('array') ? dashGluedKey(e.data) : undefined));
    }
    default: {
      const asIs = asWritten();
      const message = valueMessage(e, params, asIs ?? gotValue(e.data));
      const hint = e.keyword === 'format' && params.format === 'email' && typeof e.data === 'string' ? asciiAddressHint(e.data) : undefined;
      return make('invalid-value', `${label} ${message}${asIs && !message.includes(asIs) ? asIs : ''}`, pointer, hint);
    }
  }

  /** `null`, `~` (any spelling YAML reads as no value) as written at the value, when that is how it is written. */
  function nullWritten(): string | undefined {
    const word = e.data === null ? written?.(positions.valueAt(pointer)) : undefined;
    return word !== undefined && /^(null|Null|NULL|~)$/.test(word) ? word : undefined;
  }

  /** A number or boolean that prints otherwise than it is written (`1e2`, `0x1F`), or no value (`~`), quoted as written. */
  function asWritten(): string | undefined {
    if (e.data === null) {
      const word = nullWritten();
      // In JSON (a saved plan) a null is written `null` (SR67-19).
      return word !== undefined ? ` (written ${quoteValue(word)}, which YAML reads as no value)` : json ? ' (got null)' : ' (got no value)';
    }
    const source = typeof e.data === 'number' || typeof e.data === 'boolean' ? written?.(positions.valueAt(pointer)) : undefined;
    // `1e999` overflows to infinity, said as YAML writes it (`.inf`) unless that is how it is written.
    const read = typeof e.data === 'number' && !Number.isFinite(e.data) ? gotValue(e.data).slice(' (got '.length, -1) : String(e.data);
    // A placeholder's value (quoted or not) came from its variable, not from how YAML read the text:
    // quoted as the variable gave it (`1e400`), not as the number it made (probes OD-3, OY-3).
    const filled = source?.includes('${') === true && typeof e.data === 'number' && !Number.isFinite(e.data) ? filledAs?.get(pointer) : undefined;
    if (filled !== undefined) return filled !== read ? ` (${quoteValue(fromVariables?.get(pointer) ?? source!)} gave ${quoteValue(filled)}, which reads as ${read})` : undefined;
    return source !== undefined && source !== read && !source.includes('${') ? ` (written ${quoteValue(source)}, which YAML reads as ${read})` : undefined;
  }
}

/**
 * Where a value written with placeholders comes from, and where to change it: the definition this
 * run used of each variable, and the environment variable that set it, when one did (probes OO-2, OY-2).
 */
/** Where a variable's value comes from, as hints say it: `where this run takes it from: …`. */
export function takenFrom(origin: { at: string; run?: string }): string {
  return `where ${origin.run === undefined ? 'this run' : `a run with ${origin.run}`} takes it from: ${origin.at}`;
}

function variableHint(writtenAs: string, origin?: VariableOrigins): string | undefined {
  const names = [...new Set(variablesIn(writtenAs))];
  if (names.length === 0) return undefined;
  const vars = names.filter((n) => n.startsWith('var.'));
  const envs = names.filter((n) => n.startsWith('env.')).map((n) => n.slice('env.'.length));
  const known = vars.map((v) => [v, origin?.(v.slice('var.'.length))] as const);
  const unknown = known.filter(([, o]) => o === undefined).map(([v]) => v);
  const fixes = [
    ...known.flatMap(([v, o]) => (o === undefined ? [] : [o.env !== undefined ? `set the environment variable ${o.env}, which gives ${v} its value at ${o.at}, to what this key takes` : `change ${v} ${takenFrom(o)}`])),
    ...(unknown.length > 0 ? [`change ${unknown.join(', ')} where ${unknown.length === 1 ? 'it is' : 'they are'} defined (docket.yaml's \`vars\`, or the selected environment's)`] : []),
    ...(envs.length > 0 ? [`set the environment variable${envs.length === 1 ? '' : 's'} ${envs.join(', ')} to what this key takes`] : []),
  ];
  return `it is filled in from ${quoteValue(writtenAs)}: ${fixes.join('; ')}`;
}

/** Whether digits YAML read as a number would pass as the text they are written as (quoted). */
function quotedPasses(schema: AnySchemaObject, text: string): boolean {
  if (schema.const !== undefined) return schema.const === text;
  if (Array.isArray(schema.enum)) return schema.enum.includes(text);
  // No digits are an e-mail address, a UUID, a URL or a date.
  if (typeof schema.format === 'string') return false;
  if (typeof schema.pattern === 'string' && !new RegExp(schema.pattern, 'u').test(text)) return false;
  if (typeof schema.minLength === 'number' && text.length < schema.minLength) return false;
  return typeof schema.maxLength !== 'number' || text.length <= schema.maxLength;
}

/** Keywords whose refusal of a list or mapping is about it (its type) or what it holds: it is quoted, as JSON cut short. */
const ABOUT_CONTENTS = new Set(['type', 'maxProperties', 'maxItems', 'not', 'anyOf', 'oneOf', 'const', 'enum']);

function structureGot(e: ErrorObject): string {
  return e.data !== null && typeof e.data === 'object' && ABOUT_CONTENTS.has(e.keyword) ? ` (got ${showJson(e.data)})` : '';
}

/** ` (got "x")` for a single value, shortened and with control characters escaped; '' for a structure. */
export function gotValue(data: unknown): string {
  if (typeof data !== 'string' && typeof data !== 'number' && typeof data !== 'boolean') return '';
  // As YAML writes them: JSON has no NaN or infinity (it prints `null`).
  if (typeof data === 'number' && !Number.isFinite(data)) return ` (got ${Number.isNaN(data) ? '.nan' : data > 0 ? '.inf' : '-.inf'})`;
  // Cut and escaped as every quoted value is (never inside an emoji).
  return ` (got ${typeof data === 'string' ? quoteValue(credentialsHidden(data)) : JSON.stringify(data)})`;
}

/** Above this many properties an unknown-key hint names the schema instead of listing them all. */
const MAX_LISTED_KEYS = 30;

/** How the template schemas write "a required text holds some visible text" (scripts/gen-schemas.mjs). */
const NOT_BLANK_PATTERN = '\\S';
/** How the template schemas write "a number, or a decimal as the service returns it" (`"1.0"`). */
const DECIMAL_PATTERN = '^-?(\\d+(\\.\\d*)?|\\.\\d+)$';
/** Whole numbers written as text (scripts/gen-schemas.mjs INTEGER). */
const INTEGER_PATTERN = '^-?(0|[1-9]\\d*)$';

/** The rest of "`x` must …" for the keywords about one value. */
/** `got`: how the value is quoted, when not as it reads (`(got 31)`). */
function valueMessage(e: ErrorObject, params: Record<string, unknown>, got = gotValue(e.data)): string {
  switch (e.keyword) {
    case 'type': {
      const types = String(params.type).split(',');
      // 8.5 is a number too: what it is not is whole (probe EJ-5).
      const fraction = types.includes('integer') && !types.includes('number') && typeof e.data === 'number' && Number.isFinite(e.data) && !Number.isInteger(e.data);
      return `must be ${joinOr(types.map(typePhrase))}, not ${fraction ? 'a fraction' : describeValue(e.data)}${got}`;
    }
    case 'enum': {
      const allowed = ((params.allowedValues as unknown[]) ?? []).map((v) => String(v));
      return `must be one of: ${allowed.join(', ')}${got}${typeof e.data === 'string' ? didYouMean(e.data, allowed).replace(/^, /, '; ') : ''}`;
    }
    case 'const':
      // `version: "1"`: the right digits as text, said as the type it is not.
      return typeof e.data === 'string' && typeof params.allowedValue === 'number' && e.data.trim() === String(params.allowedValue)
        ? `must be the number ${formatConst(params.allowedValue)}, not text (written ${JSON.stringify(e.data)}: leave out the quotes)`
        : `must be ${formatConst(params.allowedValue)}`;
    case 'format':
      return `must be ${formatPhrase(String(params.format))}`;
    case 'minLength':
      return params.limit === 1 ? 'must not be empty' : `must be at least ${String(params.limit)} characters long`;
    case 'maxLength':
      return `must be at most ${String(params.limit)} characters long`;
    case 'minimum':
      return `must be at least ${String(params.limit)}`;
    case 'maximum':
      return `must be at most ${String(params.limit)}`;
    case 'exclusiveMinimum':
      return `must be greater than ${String(params.limit)}`;
    case 'exclusiveMaximum':
      return `must be less than ${String(params.limit)}`;
    case 'multipleOf':
      return `must be a multiple of ${String(params.multipleOf)}`;
    case 'minItems':
      return params.limit === 1 ? 'must not be an empty list' : `must have at least ${String(params.limit)} items`;
    case 'maxItems':
      return `must have at most ${String(params.limit)} ${params.limit === 1 ? 'item' : 'items'}`;
    case 'uniqueItems':
      {
        const item: unknown = Array.isArray(e.data) ? e.data[Number(params.i)] : undefined;
        const shown = typeof item === 'string' ? `${quoteValue(item)} ` : '';
        const [first, later] = [Number(params.i), Number(params.j)].sort((a, b) => a - b);
        // Indexes as a label writes them (`renamed_from[1]`), counted from 0.
        return `must not list the same value twice (${shown}at [${first}] and [${later}])`;
      }
    case 'minProperties':
      return params.limit === 1 ? 'must not be empty' : `must have at least ${String(params.limit)} keys`;
    case 'maxProperties':
      return `must have at most ${String(params.limit)} ${params.limit === 1 ? 'key' : 'keys'}`;
    case 'dependencies':
    case 'dependentRequired':
      return `needs \`${String(params.missingProperty)}\` when \`${String(params.property)}\` is set`;
    case 'not':
      return 'has a value that is not allowed here';
    default:
      return `does not satisfy the schema's \`${e.keyword}\``;
  }
}

/** `generate_summary: yes`: the word meant as true where YAML 1.1 reads it so; said, since it looks right (probe RF-3). */
function oldBoolean(expected: string[], data: unknown, source: string | undefined): string | undefined {
  if (expected.join() !== 'boolean' || typeof data !== 'string' || !YAML_11_BOOLEAN.test(data) || (source !== undefined && source !== data)) return undefined;
  const meant = /^(?:y|yes|on)$/i.test(data) ? 'true' : 'false';
  return `docket reads YAML 1.2, where \`${data}\` is text (YAML 1.1 read it as ${meant}): write ${meant}`;
}

function typePhrase(type: string): string {
  switch (type) {
    case 'string':
      return 'a string';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'null':
      return 'null';
    case 'array':
      return 'a list';
    case 'object':
      return 'a mapping';
    default:
      return type;
  }
}

/**
 * A number a message refuses, as JSON, but YAML's `.inf` and `.nan` as what they are (JSON prints
 * them `null`; probe FY), with what is written when that is other text (`1e400`, probe IM-2).
 */
function numberShown(data: unknown, asWritten: () => string | undefined): string {
  if (typeof data === 'string') return quoteValue(data);
  return typeof data === 'number' && !Number.isFinite(data) ? `${describeValue(data)}${asWritten() ?? gotValue(data)}` : JSON.stringify(data);
}

function describeValue(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'boolean') return 'a boolean';
  // YAML's .inf and .nan are numbers to JavaScript, not to a schema.
  if (typeof value === 'number' && !Number.isFinite(value)) return nonFiniteName(value);
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  return 'a string';
}

/**
 * NOTE(api): the services take e-mail addresses in ASCII: a domain past ASCII (`bücher.example`) is
 * written as its IDNA form, which the hint gives; a name before the `@` past ASCII cannot be (probe JJ-2).
 */
function asciiAddressHint(address: string): string | undefined {
  const at = address.lastIndexOf('@');
  if (at <= 0 || !/[^\x00-\x7f]/.test(address)) return undefined;
  const [local, domain] = [address.slice(0, at), address.slice(at + 1)];
  if (/[^\x00-\x7f]/.test(local)) return 'the services take an address in ASCII: one with letters past ASCII before the `@` cannot be named';
  const ascii = domainToASCII(domain);
  // Only a form that is an address: one still refused would send the writer round again (third read TR70-4).
  const written = `${local}@${ascii}`;
  if (ascii === '' || !EMAIL.test(written)) return undefined;
  // Mapped to plain letters (a fullwidth `ａ`, a zero-width character dropped): no IDNA form, but look-alikes (probe MW-5).
  if (!/(^|\.)xn--/.test(ascii)) return `the domain holds characters that only look like plain letters or print as nothing: write it in plain letters, ${quoteValue(written)}`;
  // Cyrillic or Greek letters drawn as Latin ones, the rest plain: a look-alike of a plain domain,
  // whose IDNA form is another domain (a homograph, probe NN-3). The plain one is offered first.
  const plain = asLatinLetters(domain);
  // Only where a label mixes them with plain letters (`аcme`): one written wholly in Cyrillic (`сех.рус`) is a domain of its own.
  const mixed = domain.split('.').some((label) => /[a-z]/i.test(label) && asLatinLetters(label) !== label);
  if (mixed && plain !== domain && !/[^\x00-\x7f]/.test(plain)) {
    const letter = [...domain].find((c) => asLatinLetters(c) !== c)!;
    return `the domain holds ${otherScriptOf(letter)} ${quoteValue(letter)}, drawn as the Latin ${quoteValue(asLatinLetters(letter))}: write it in plain letters, ${quoteValue(`${local}@${plain}`)}; only if that other domain is meant, its IDNA form is ${quoteValue(written)}`;
  }
  return `the services take an address in ASCII: write the domain in its IDNA form, ${quoteValue(written)}`;
}

/** The e-mail format as the schemas spell it for editors (ajv-setup.ts compiles it back into the format). */
const EMAIL = new RegExp(EMAIL_PATTERN);

function formatPhrase(format: string): string {
  switch (format) {
    case 'email':
      return 'an e-mail address';
    case 'uuid':
      return 'a UUID (8-4-4-4-12 hex digits)';
    case 'uri':
    case 'url':
      return 'a URL';
    case 'date':
      return 'a date (YYYY-MM-DD)';
    case 'date-time':
      return 'a date and time (RFC 3339)';
    default:
      return `a valid ${format}`;
  }
}

function formatConst(value: unknown): string {
  return typeof value === 'string' ? `\`${value}\`` : JSON.stringify(value);
}

/** What one `anyOf` alternative accepts, for "must be a string or a list". */
function describeSchema(schema: AnySchemaObject): string[] {
  if (schema.const !== undefined) return [formatConst(schema.const)];
  if (Array.isArray(schema.enum)) return schema.enum.map(formatConst);
  if (typeof schema.format === 'string') return [formatPhrase(schema.format)];
  if (schema.type === 'array' && (schema.items as AnySchemaObject | undefined)?.type === 'string') return ['a list of strings'];
  const types: unknown[] = Array.isArray(schema.type) ? schema.type : schema.type !== undefined ? [schema.type] : [];
  return types.map((t) => typePhrase(String(t)));
}

function joinOr(items: string[]): string {
  if (items.length <= 1) return items[0] ?? '';
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}

/**
 * Each of `items` from `from` on that is about a value of `file` written with placeholders (by its
 * `path`, in `written`), hinted with the variable that filled it in and where to change it, as the
 * schema's errors are: its line shows the placeholder, not the value the message quotes (probe NF-3).
 */
export function hintVariables(items: Diagnostic[], from: number, file: string, written: ReadonlyMap<string, string>, origin?: VariableOrigins): void {
  if (written.size === 0) return;
  for (let i = from; i < items.length; i++) {
    const d = items[i]!;
    if (d.file !== file || d.path === undefined || d.hint?.includes('it is filled in from') === true) continue;
    items[i] = withVariableHint(d, written.get(pathToPointer(d.path)), origin);
  }
}

/** `d` with the hint of the placeholders its value was `writtenAs` (when it was) before its own. */
export function withVariableHint<T extends { hint?: string; message?: string }>(d: T, writtenAs: string | undefined, origin?: VariableOrigins): T {
  if (writtenAs !== undefined && wantsNoText(d.message) && holdsTextBeside(writtenAs)) {
    // A number or true/false is one placeholder and nothing else: text beside it makes the value
    // text, which no value of the variable changes (probe UI-1), as plan says of a reference.
    const told = `it is filled in from ${quoteValue(writtenAs)}, which the text beside its placeholder makes text whatever its value: a number or true/false is one placeholder and nothing else, so edit the text around it on this line`;
    return { ...d, hint: d.hint ? `${told}; ${d.hint}` : told };
  }
  const told = writtenAs === undefined ? undefined : variableHint(writtenAs, origin);
  return told === undefined ? d : { ...d, hint: d.hint ? `${told}; ${d.hint}` : told };
}

/**
 * A number or true/false written in quotes (`concurrency: "8"`, `generate_summary: "false"`),
 * which YAML reads as text: said, as `version: "1"` is (probe UI-3).
 */
function quotedValueHint(expected: readonly string[], data: unknown, source: string | undefined): string | undefined {
  // Written as the value itself in quotes: not a placeholder's (withVariableHint says those).
  if (typeof data !== 'string' || source === undefined || (source !== `"${data}"` && source !== `'${data}'`)) return undefined;
  const number = (expected.includes('number') || expected.includes('integer')) && /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/.test(data) && (expected.includes('number') || !data.includes('.'));
  const bool = expected.includes('boolean') && (data === 'true' || data === 'false');
  return number || bool ? `leave out the quotes: quoted, YAML reads ${data} as text` : undefined;
}

/** A type error that wants a number or true/false, and never text (as typePhrase says them). */
function wantsNoText(message: string | undefined): boolean {
  const wants = message === undefined ? undefined : /\bmust be ((?:an integer|a number|true or false)(?:(?:, | or )(?:an integer|a number|true or false|null))*), not a string\b/.exec(message);
  return wants !== undefined && wants !== null;
}

/** Whether a value written with placeholders holds text beside them (`"${var.n}0"`, `"${var.t} # note"`). */
function holdsTextBeside(written: string): boolean {
  const { pieces, names } = placeholderParts(written);
  return names.length > 0 && pieces.some((piece) => piece !== '');
}
