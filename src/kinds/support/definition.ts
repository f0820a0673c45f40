/**
 * The custom template definition: the YAML cover page of a CustomTemplate, written inline
 * (`definition:`) or in a data file (`definition_file:`). This module validates it at the exact
 * line and column (schemas/custom-template-definition.schema.json plus the rules in
 * definition-rules.ts), reads definition files, and re-exports the text, comparison and change
 * summary helpers the kind and the plan use.
 */
import type { ErrorObject } from 'ajv';
import { Diagnostics, type Diagnostic, type SourcePos } from '../../diagnostics.js';
import { schemaDiagnostics } from '../../config/schema.js';
import { schemaValidator } from '../../config/validators.js';
import { didYouMean } from '../../config/suggest.js';
import { showName } from '../../config/quote.js';
import { numberAsText, taggedIn, writtenIn } from '../../config/written-number.js';
import { lazyLines, linesIn } from '../../config/source-lines.js';
import { typedByField } from '../../config/interpolate.js';
import { textDiagnostics } from '../../config/text-hygiene.js';
import type { Positions } from '../../config/types.js';
import { DocPositions, isMergeKeyScalar, joinPointer, pointerToPath, splitPointer, type ParsedFile } from '../../config/yaml-positions.js';
import { parseYamlFile, separatorBefore } from '../../config/yaml-read.js';
import { crAsLf } from '../../util/line-break.js';
import { yaml } from '../../util/lazy-yaml.js';
import { pushAll } from '../../util/push-all.js';
import { checkDefinitionRules } from './definition-rules.js';
import { CHOICE_INPUTS, DEFINITION_SCHEMA, isRecord, withoutDates } from './definition-model.js';

export { CHOICE_INPUTS, DEFINITION_INPUTS, DEFINITION_SCHEMA, GOVERNING_LAW_KEYS, type DefinitionInput } from './definition-model.js';
export { checkDefinitionRules, isCalendarDate } from './definition-rules.js';
export { definitionText } from './definition-text.js';
export { describeDefinitionChange, editKeepsFieldOrder, sameDefinition } from './definition-diff.js';

/** Where a definition is, and what the checks of it may quote: see validateDefinition. */
export interface DefinitionSource {
  base?: string;
  text?: string | (() => string);
  wholes?: ReadonlyMap<string, string>;
  /** The document's values a placeholder could not fill (ResourceDoc's): said as such where they are, not judged as the value. */
  unresolved?: ReadonlySet<string>;
}

/** The entries of `byPointer` inside `base`, by their pointer from it. */
function withinBase(byPointer: ReadonlyMap<string, string>, base: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const [pointer, text] of byPointer) if (pointer.startsWith(`${base}/`)) out.set(pointer.slice(base.length), text);
  return out;
}

/** How messages about the definition's root name it. */
const DOCUMENT_LABEL = 'the custom template definition';

/**
 * Checks a definition and adds every problem to `diag`, each at the line and column of the value
 * it is about. `base` is the JSON pointer of the definition inside the document `positions`
 * describes: `/definition` for an inline definition, `''` for a definition file. `text` is that
 * document's file (or reads it again, only if a message needs it), to quote a value as written
 * (`null`, `0x1F`). `wholes`: the document's values that were one placeholder (ResourceDoc's),
 * typed by field here, in `value` itself, as the loader types the rest of the document.
 */
export async function validateDefinition(value: unknown, positions: Positions, said: Diagnostics, options: DefinitionSource = {}): Promise<void> {
  const { base = '', text, wholes } = options;
  const docPositions = asDocPositions(positions);
  // `required: ${var.flag}` with no such variable is one error, the loader's, not also a string where a boolean goes (probe RM-1).
  const unfilled = new Set([...(options.unresolved ?? [])].filter((p) => p.startsWith(`${base}/`)).map((p) => placeOf(docPositions.valueAt(p))));
  const diag = unfilled.size > 0 ? new Diagnostics() : said;
  // Dates (from a YAML 1.1 parse) become their YYYY-MM-DD text, which is what the schema expects.
  let data = withoutDates(value);
  // A definition file is no resource document, so the loader did not check its text: what it holds is published.
  // Where each line starts, found on the first question, for both the checks that look at the text.
  const lineOf = text === undefined ? undefined : typeof text === 'string' ? linesIn(text) : lazyLines(text);
  const written = lineOf && writtenIn(lineOf);
  if (base === '') for (const d of textDiagnostics(data, docPositions, lineOf && written ? { written, lineOf } : {})) diag.add(d);
  const validate = await schemaValidator(DEFINITION_SCHEMA);
  validate(data);
  // `required: "${var.flag}"` (quoted) is the boolean the field wants, as a value unquoted already is.
  const placeholders = wholes && withinBase(wholes, base);
  if (placeholders && placeholders.size > 0 && typedByField(value, validate.errors, placeholders)) {
    data = withoutDates(value);
    validate(data);
  }
  const errors = [...(validate.errors ?? [])];
  const rest = reportOwnSchemaErrors(errors, data, docPositions, diag, base);
  const rebased = rest.map((e) => ({ ...e, instancePath: base + e.instancePath }));
  for (const d of schemaDiagnostics(rebased, { positions: docPositions, documentLabel: DOCUMENT_LABEL, ...(lineOf && written ? { written, tagged: taggedIn(lineOf) } : {}) })) diag.add(d);
  // Inline (`base` set), the definition is published as YAML docket writes from the values read.
  const numberAsWritten = base !== '' && lineOf ? (value: number, pos: SourcePos) => numberAsText(value, (_file, line) => lineOf(line), pos, 'default') : undefined;
  checkDefinitionRules(data, docPositions, diag, base, { ...(numberAsWritten ? { numberAsWritten } : {}), ...(written ? { written } : {}) });
  if (diag !== said) for (const d of diag.items) if (!unfilled.has(placeOf(d))) said.add(d);
}

function placeOf(at: Partial<SourcePos>): string {
  return `${at.line}:${at.col}`;
}

/**
 * Reports the schema errors whose generic wording would mislead (field key pattern, `options` on a
 * non-choice input, `imprt:` in a section) and returns the others for schemaDiagnostics.
 */
function reportOwnSchemaErrors(errors: ErrorObject[], data: unknown, positions: DocPositions, diag: Diagnostics, base: string): ErrorObject[] {
  // A key a merge brings into several mappings is written once: said once, at that place (probe WJ-3).
  const said = new Set<string>();
  const at = (pointer: string, code: string, message: string, hint?: string, value = false): void => {
    const full = base + pointer;
    const pos = value ? positions.valueAt(full) : positions.at(full);
    const place = `${code}\u0000${pos.file}:${pos.line}:${pos.col}`;
    if (said.has(place)) return;
    said.add(place);
    const path = pointerToPath(full);
    diag.error(code, message, { ...pos, ...(path ? { path } : {}), ...(hint ? { hint } : {}) });
  };
  const where = (pointer: string): string => `\`${pointerToPath(base + pointer) || 'definition'}\``;

  // A section whose unknown key is a misspelt `import`: the "missing heading/fields" errors that
  // follow from it would send the reader the wrong way.
  const misspeltImport = new Set<string>();
  for (const e of errors) {
    if (e.keyword === 'additionalProperties' && /^\/sections\/\d+$/.test(e.instancePath)) {
      const key = String((e.params as { additionalProperty?: unknown }).additionalProperty);
      if (didYouMean(key, ['import']) !== '') misspeltImport.add(e.instancePath);
    }
  }

  return errors.filter((e) => {
    const params = e.params as Record<string, unknown>;
    if (e.keyword === 'pattern' && e.propertyName !== undefined) {
      at(
        joinPointer(e.instancePath, e.propertyName),
        'invalid-value',
        `invalid field key ${showName(e.propertyName)} in ${where(e.instancePath)}: use lowercase letters, digits and \`_\`, starting with a letter`,
        'the key is how agreements name the field’s value, e.g. `payout_model`',
      );
      return false;
    }
    if (e.keyword === 'not' && e.instancePath.endsWith('/options')) {
      const field = valueAt(data, e.instancePath.slice(0, -'/options'.length));
      const input = isRecord(field) ? String(field.input) : 'this';
      at(
        e.instancePath,
        'options-not-allowed',
        `\`options\` is only for ${CHOICE_INPUTS.join(', ')} inputs, not \`${input}\``,
        'remove `options`, or change `input` to select, radio or multiselect',
      );
      return false;
    }
    if (misspeltImport.has(e.instancePath)) {
      if (e.keyword === 'required') return false;
      if (e.keyword === 'additionalProperties') {
        const key = String(params.additionalProperty);
        if (didYouMean(key, ['import']) !== '') {
          at(joinPointer(e.instancePath, key), 'unknown-key', `unknown key ${showName(key)} in ${where(e.instancePath)}${didYouMean(key, ['import'])}`, 'a section has `heading` and `fields`, or is `import: governing_law`');
          return false;
        }
      }
    }
    return true;
  });
}

/** The value at a JSON pointer inside plain data, or undefined. */
function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const segment of splitPointer(pointer)) {
    if (Array.isArray(node)) node = node[Number(segment)];
    else if (isRecord(node)) node = node[segment];
    else return undefined;
  }
  return node;
}

/**
 * schemaDiagnostics needs value positions as well as key positions. The loader's positions are
 * DocPositions; anything else (a test double, say) answers both from `at`.
 */
function asDocPositions(positions: Positions): DocPositions {
  if (positions instanceof DocPositions) return positions;
  return new PositionsView(positions);
}

class PositionsView extends DocPositions {
  constructor(private readonly inner: Positions) {
    const start = inner.at('');
    super(start.file, { line: start.line, col: start.col });
  }

  override has(pointer: string): boolean {
    return this.inner.has(pointer);
  }

  override at(pointer: string): SourcePos {
    return this.inner.at(pointer);
  }

  override valueAt(pointer: string): SourcePos {
    return this.inner.at(pointer);
  }

  override mergedAt(pointer: string): SourcePos | undefined {
    return this.inner.mergedAt?.(pointer);
  }
}

export interface ParsedDefinitionFile {
  /** The file's one document (null when it has none). */
  value: unknown;
  positions: DocPositions;
  /** YAML errors and document-count problems. */
  diagnostics: Diagnostic[];
  /** Whether `value` is what the file says, despite any of them (a key written twice: the last stands), so it is validated too. */
  readable: boolean;
}

/**
 * Where a second document starts that holds nothing (a `---` at the end, or one before the first
 * after another): the loader leaves empty documents out, but the service's reader refuses a file
 * of two documents, whatever they hold, so the publish failed at apply (probe HG-1). Read as the
 * `yaml` library reads documents, only where a line starts with a document marker.
 */
function emptyDocumentAfter(text: string): { line: number; col: number } | undefined {
  if (!/^(---|\.\.\.)([ \t]|\r?$)/m.test(text)) return undefined;
  const documents = yaml().parseAllDocuments(text);
  const second = Array.isArray(documents) ? documents[1] : undefined;
  if (second?.range === undefined) return undefined;
  const before = text.slice(0, second.range[0]);
  return { line: (before.match(/\r\n?|\n/g)?.length ?? 0) + 1, col: 1 };
}

/** A definition file's one document, with positions for every value; `parsed` when the loader parsed it already (it is parsed once). */
export function parseDefinitionFile(text: string, file: string, parsed: ParsedFile = parseYamlFile(text, file)): ParsedDefinitionFile {
  const diagnostics = [...parsed.diagnostics];
  const [first, second] = parsed.documents;
  if (!first) {
    if (!diagnostics.some((d) => d.severity === 'error')) {
      diagnostics.push({
        severity: 'error',
        code: 'empty-definition',
        message: 'the definition file is empty',
        file,
        line: 1,
        col: 1,
        hint: 'it holds one YAML mapping with `title` and `sections`',
      });
    }
    return { value: null, positions: new DocPositions(file, { line: 1, col: 1 }), diagnostics, readable: false };
  }
  const secondStart = second?.start ?? emptyDocumentAfter(text);
  if (secondStart) {
    diagnostics.push({
      severity: 'error',
      code: 'multiple-documents',
      message: 'a definition file holds one YAML document; a second one starts here',
      file,
      ...separatorBefore(text.split(/\r\n?|\n/), secondStart),
      hint: 'remove the `---` separator and what follows, or move it to its own file',
    });
  }
  // After a duplicate key the file still reads as written, as the README says of every check.
  if (text.includes('<<') && !diagnostics.some((d) => d.severity === 'error' && d.code !== 'duplicate-key')) pushAll(diagnostics, mergeKeys(text, file));
  // The file as the service's reader parses it (no merge keys), parsed once for the checks that ask.
  let asServed: ServedDocument | undefined;
  const served = (): ServedDocument => (asServed ??= servedDocument(text));
  if (text.includes('*') && !diagnostics.some((d) => d.severity === 'error' && d.code !== 'duplicate-key')) pushAll(diagnostics, tooManyAliases(served(), file));
  if (/(?:^|[\s{,?-])(?:null|Null|NULL)[ \t]*:/m.test(text) && !diagnostics.some((d) => d.severity === 'error' && d.code !== 'duplicate-key')) pushAll(diagnostics, nullWordKeys(served(), file));
  // A merge key is refused, but the file reads (merged); a second document does not change the first.
  return { value: first.value, positions: first.positions, diagnostics, readable: first.ok || first.readable === true };
}

/**
 * NOTE(api): the agreements service refuses a definition whose YAML uses one anchor more than 100
 * times ("Excessive alias count", as the yaml library's default guard counts them; the emulator's
 * reader has it): a questionnaire of 120 fields sharing `options: &yn [...]` passed validate and
 * failed on apply (probe BN-3). Said at the alias past the limit.
 */
export const MAX_DEFINITION_ALIASES = 100;

/** A definition file's first document, parsed as the service's YAML reader parses it, with its line counter. */
interface ServedDocument {
  doc: import('yaml').Document.Parsed | undefined;
  lineCounter: import('yaml').LineCounter;
}

function servedDocument(text: string): ServedDocument {
  const lineCounter = new (yaml().LineCounter)();
  // A lone CR is a line break to YAML, not to the library's parser (probe EB-3); the same length, so positions hold.
  const [doc] = yaml().parseAllDocuments(crAsLf(text), { lineCounter }) as import('yaml').Document.Parsed[];
  return { doc, lineCounter };
}

function tooManyAliases({ doc, lineCounter }: ServedDocument, file: string): Diagnostic[] {
  const lib = yaml();
  if (!doc) return [];
  // The service's reader is the judge: a file it reads is no error, whatever the count by name
  // (an anchor defined again is another anchor, probe DO-1).
  try {
    doc.toJS({ maxAliasCount: MAX_DEFINITION_ALIASES });
    return [];
  } catch (error) {
    if (!(error instanceof ReferenceError) || !/Excessive alias count/.test(error.message)) return [];
  }
  const past = aliasPastLimit(lib, doc);
  const at = lineCounter.linePos(past?.at ?? 0);
  const bringing = past && past.aliasCount > 1 ? `, each bringing ${past.aliasCount} aliased values (${(past.uses + 1) * past.aliasCount} in all, the anchor's own counted)` : '';
  return [
    {
      severity: 'error',
      code: 'definition-alias-count',
      message: past
        ? `this definition file uses the anchor ${showName(`&${past.name}`)} ${past.uses} times here${bringing}: the agreements service reads an anchor's value at most ${MAX_DEFINITION_ALIASES} times in a definition, the anchor itself counted, and refuses more as a resource exhaustion attack`
        : `this definition file uses its anchors more than the agreements service reads (${MAX_DEFINITION_ALIASES} values an anchor brings), which it refuses as a resource exhaustion attack`,
      file,
      line: at.line,
      col: at.col,
      hint: 'write the repeated values out past the first hundred, or use an inline `definition:` in the resource, which docket writes out resolved',
    },
  ];
}

/**
 * The alias at which the yaml library's guard stops reading, counted as it counts (nodes/toJS.js,
 * nodes/Alias.js): per anchored node, its uses, the anchor itself counted as one, times the aliased
 * values inside it, in the order the values are read. Anchors are looked up as the walk meets them,
 * not by resolving each alias against the whole document (second read SR102B-3, SR102B-4).
 */
function aliasPastLimit(lib: ReturnType<typeof yaml>, doc: import('yaml').Document.Parsed): { at: number; name: string; uses: number; aliasCount: number } | undefined {
  const anchored = new Map<string, unknown>();
  const resolved = new Map<unknown, unknown>();
  const anchors = new Map<unknown, { count: number; aliasCount: number }>();
  const aliasCountOf = (node: unknown): number => {
    if (lib.isAlias(node)) {
      const data = anchors.get(resolved.get(node));
      return data ? data.count * data.aliasCount : 0;
    }
    if (lib.isCollection(node)) return (node.items as unknown[]).reduce<number>((most, item) => Math.max(most, aliasCountOf(item)), 0);
    if (lib.isPair(node)) return Math.max(aliasCountOf(node.key), aliasCountOf(node.value));
    return 1;
  };
  let past: { at: number; name: string; data: { count: number; aliasCount: number } } | undefined;
  const seen = (node: { anchor?: string | undefined }): void => {
    if (node.anchor) anchored.set(node.anchor, node);
  };
  lib.visit(doc, {
    Scalar(_, node) {
      seen(node);
    },
    Map(_, node) {
      seen(node);
    },
    Seq(_, node) {
      seen(node);
    },
    Alias(_, alias) {
      const found = anchored.get(alias.source);
      if (!found) return undefined;
      resolved.set(alias, found);
      let data = anchors.get(found);
      if (!data) anchors.set(found, (data = { count: 1, aliasCount: 0 }));
      data.count += 1;
      if (data.aliasCount === 0) data.aliasCount = aliasCountOf(found);
      if (data.count * data.aliasCount <= MAX_DEFINITION_ALIASES) return undefined;
      past = { at: alias.range?.[0] ?? 0, name: alias.source, data };
      return lib.visit.BREAK;
    },
  });
  return past === undefined ? undefined : { at: past.at, name: past.name, uses: past.data.count - 1, aliasCount: past.data.aliasCount };
}

/**
 * Keys written `null` (`Null`, `NULL`) in a definition file, published as written: docket reads the
 * name `null`, but the emulator's reader (the yaml library, as NOTE(api) takes the service's to be)
 * makes the key `""`, so a field docket tests by `null` is no field of the service (probe DO-2).
 */
function nullWordKeys({ doc, lineCounter }: ServedDocument, file: string): Diagnostic[] {
  const lib = yaml();
  const out: Diagnostic[] = [];
  if (!doc) return out;
  lib.visit(doc, {
    Pair(_, pair) {
      const key = pair.key;
      if (!lib.isScalar(key) || key.value !== null || !/^(null|Null|NULL)$/.test(key.source ?? '') || !key.range) return;
      const at = lineCounter.linePos(key.range[0]);
      out.push({
        severity: 'error',
        code: 'definition-null-key',
        message: `a key written \`${key.source}\` in a definition file: the agreements service's YAML reads it as no value, a key with no name, not the name "null"`,
        file,
        line: at.line,
        col: at.col,
        hint: 'quote it ("null") to name a field null, or give the field another name',
      });
    },
  });
  return out;
}

/**
 * Merge keys of a definition file. docket reads them, but publishes the file's text as written,
 * and the agreements service reads it as plain YAML 1.2, where `<<` is an ordinary key: the field
 * would be refused on apply (NOTE(api): the service's YAML reader is not documented; the emulator's
 * has no merge keys). Anchors and aliases alone are plain YAML 1.2 and stay allowed.
 */
function mergeKeys(text: string, file: string): Diagnostic[] {
  const lib = yaml();
  const lineCounter = new lib.LineCounter();
  const out: Diagnostic[] = [];
  const [doc] = lib.parseAllDocuments(crAsLf(text), { lineCounter, merge: true }) as import('yaml').Document.Parsed[];
  if (!doc) return out;
  lib.visit(doc, {
    Pair(_, pair) {
      const key = pair.key;
      if (!lib.isScalar(key) || !isMergeKeyScalar(key) || !key.range) return;
      const at = lineCounter.linePos(key.range[0]);
      const shown = text.slice(key.range[0], (lib.isNode(pair.value) && pair.value.range?.[1]) || key.range[1]).split('\n')[0]!.trim();
      out.push({
        severity: 'error',
        code: 'definition-merge-key',
        message: `a merge key (\`${shown}\`) in a definition file: docket publishes the file's text, and the agreements service reads \`<<\` as an ordinary key`,
        file,
        line: at.line,
        col: at.col,
        hint: 'write the keys out in this mapping (an alias alone, `label: *name`, is fine), or use an inline `definition:` in the resource, which docket writes out resolved',
      });
    },
  });
  return out;
}
