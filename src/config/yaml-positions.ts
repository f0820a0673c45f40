/**
 * YAML → plain values plus the line and column of every key and value, so that every later check
 * (schema, interpolation, references at plan time) can point at the exact place in the file.
 */
import { crAsLf } from '../util/line-break.js';
import { conflictMarkers, mergeConflictDiagnostic } from './merge-conflict.js';
import type { Document, Node } from 'yaml';
import { yaml } from '../util/lazy-yaml.js';
import type { Diagnostic, SourcePos } from '../diagnostics.js';
import type { Positions } from './types.js';
import { codePointOf, quoteValue, showName } from './quote.js';
import { excerptWithoutSecrets } from './url-secrets.js';
import { lineColumnsOf } from '../util/line-columns.js';
import { documentLineColumns } from './bom-columns.js';
import { anchorIndex, anchoredBefore as anchoredIn, type AnchorIndex } from './yaml-anchors.js';


export interface LineCol {
  line: number;
  col: number;
}

export interface Entry {
  /** Where the key was written (absent for sequence items). */
  key?: LineCol;
  /** Where the value starts; the key's position for an empty value (`description:`). */
  value: LineCol;
  /** A plain (unquoted, non-block) scalar: `${...}` alone in one is typed like YAML would type it. */
  plain: boolean;
}

/** `~` and `/` are escaped in JSON pointers (RFC 6901). */
export function escapePointer(segment: string): string {
  // Most segments (keys, list indexes) hold neither: no new string for them.
  if (!segment.includes('~') && !segment.includes('/')) return segment;
  return segment.replace(/~/g, '~0').replace(/\//g, '~1');
}

export function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

export function joinPointer(pointer: string, segment: string | number): string {
  return `${pointer}/${escapePointer(String(segment))}`;
}

export function splitPointer(pointer: string): string[] {
  return pointer === '' ? [] : pointer.slice(1).split('/').map(unescapePointer);
}

/** `/rules/2/actions` → `rules[2].actions`, the form diagnostics show. */
export function pointerToPath(pointer: string): string {
  let out = '';
  for (const segment of splitPointer(pointer)) {
    if (/^\d+$/.test(segment)) out += `[${segment}]`;
    else out += out === '' ? segment : `.${segment}`;
  }
  return out;
}

/** The pointer a diagnostic path names (`attachments[1]` → `/attachments/1`): pointerToPath the other way, for docket's own keys. */
export function pathToPointer(path: string): string {
  return `/${path.replace(/\[(\d+)\]/g, '.$1').split('.').join('/')}`;
}

/** The name a message uses for a value: its key, with indexes of a list it sits in (`renamed_from[1]`). */
/**
 * Whether a scalar key is YAML's merge key: marked so by the parser, or a plain, untagged `<<`. Quoted
 * or tagged (`"<<"`, `!!str <<`) it is text (probes PK-1, PM-3).
 */
export function isMergeKeyScalar(key: { value: unknown; type?: string | undefined; tag?: string | undefined; source?: string | undefined }): boolean {
  return typeof key.value === 'symbol' || (key.type === 'PLAIN' && !key.tag && key.source === '<<');
}

export function pointerLabel(pointer: string): string {
  const segments = splitPointer(pointer);
  let i = segments.length - 1;
  while (i > 0 && /^\d+$/.test(segments[i]!)) i--;
  const label = pointerToPath(`/${segments.slice(i).map(escapePointer).join('/')}`);
  return label === '' ? 'the document' : label;
}

/**
 * Positions of one document. `at()` answers with the key's position when the pointer names a
 * mapping entry (that is the line a reader looks for) and falls back to the nearest written
 * ancestor, ending at the document start.
 */
export class DocPositions implements Positions {
  private readonly entries = new Map<string, Entry>();
  /** Keys a merge key brought in → where that `<<` was written (made on the first merge). */
  private merges: Map<string, LineCol> | undefined;

  constructor(
    readonly file: string,
    private readonly startsAt: LineCol,
  ) {}

  /** Where the document's content starts. */
  get start(): LineCol {
    return this.startsAt;
  }

  /** @internal used while walking the YAML tree. */
  set(pointer: string, entry: Entry): void {
    this.entries.set(pointer, entry);
  }

  /** @internal The positions `from` holds at `pointer` and below it (the keys a merge key brought in). */
  adopt(from: DocPositions, pointer: string): void {
    const below = `${pointer}/`;
    for (const [p, entry] of from.entries) if (p === pointer || p.startsWith(below)) this.entries.set(p, entry);
  }

  has(pointer: string): boolean {
    return this.entries.has(pointer);
  }

  /** @internal A key `<<` at `by` brought in. */
  markMerged(pointer: string, by: LineCol): void {
    (this.merges ??= new Map()).set(pointer, by);
  }

  mergedAt(pointer: string): SourcePos | undefined {
    const by = this.merges?.get(pointer);
    return by ? this.pos(by) : undefined;
  }

  at(pointer: string): SourcePos {
    const entry = this.nearest(pointer);
    return this.pos(entry ? (entry.key ?? entry.value) : this.start);
  }

  /** Where the document starts, as a SourcePos. */
  startPos(): SourcePos {
    return this.pos(this.start);
  }

  /** Where the value itself starts (for "this value is wrong"), with the same fallback. */
  valueAt(pointer: string): SourcePos {
    const entry = this.nearest(pointer);
    return this.pos(entry ? entry.value : this.start);
  }

  isPlain(pointer: string): boolean {
    return this.entries.get(pointer)?.plain ?? false;
  }

  protected nearest(pointer: string): Entry | undefined {
    let p = pointer;
    for (;;) {
      const entry = this.entries.get(p);
      if (entry) return entry;
      if (p === '') return undefined;
      p = p.slice(0, p.lastIndexOf('/'));
    }
  }

  protected pos(lc: LineCol): SourcePos {
    return { file: this.file, line: lc.line, col: lc.col };
  }
}

export interface ParsedDocument {
  file: string;
  /** 0-based index of the document in its file, counting empty ones. */
  index: number;
  /** The document as plain JSON-like data (mappings are plain objects). */
  value: unknown;
  /** Where the document's content starts (after leading comments and `---`). */
  start: LineCol;
  positions: DocPositions;
  /** False when the YAML had errors: the value may be partial and must not be validated. */
  ok: boolean;
  /**
   * Not ok, but only for mistakes that leave every value readable (a key written twice: the last
   * stands; a merge key of something not a mapping: skipped): checked all the same, so the rest of
   * the document's problems are reported in the same run.
   */
  readable?: boolean;
}

export interface ParsedFile {
  file: string;
  documents: ParsedDocument[];
  diagnostics: Diagnostic[];
}

/** Deeper than any configuration needs, well short of the stack. */
export const MAX_DEPTH = 100;

/**
 * What aliases may expand a file to, beyond the values written in it, all its documents together:
 * enough for any real reuse, and a billion-laughs file fails at once instead of expanding (each
 * alias re-walks its anchored node). A large file may expand by one value per
 * BYTES_PER_ALIASED_VALUE of its text: 20,000 rules each writing `reviewer: *lead` are plain reuse,
 * and expansion that grows only with the file's length is no bomb. One budget for the file: a
 * budget per document would let a file of many documents grow with the square of its length
 * (second read SR85-1).
 */
export const MAX_ALIAS_EXPANSION = 10_000;
const BYTES_PER_ALIASED_VALUE = 2;
/** Past a 2 MB file, its length adds no more: a 40 MB file expanded by 18 million values took 3 GB (probe BC-1). */
const MOST_ALIASED_VALUES = 1_000_000;
/**
 * The most characters of text aliases may add to a file, whatever its length: each alias counts
 * as one value, and 600 aliases of a 1 MB text made a definition docket could not write out
 * (probe BC-1). The room placeholders have in a document (interpolate.ts).
 */
export const MAX_ALIASED_TEXT = 16_000_000;

/** The most values aliases may add to a file of `textLength` characters. */
export function aliasExpansionLimit(textLength: number): number {
  return Math.min(MOST_ALIASED_VALUES, Math.max(MAX_ALIAS_EXPANSION, Math.floor(textLength / BYTES_PER_ALIASED_VALUE)));
}

/** A problem that stops reading a document (a value too deep, an alias bomb). */
class StopReading extends Error {
  constructor(
    readonly code: string,
    message: string,
    readonly at: LineCol,
    readonly hint: string,
  ) {
    super(message);
  }
}

interface WalkState {
  doc: Document.Parsed;
  positions: DocPositions;
  lc: (offset: number) => LineCol;
  /** Values produced so far through aliases in the file, and the most allowed (aliasExpansionLimit); the characters of text they brought. */
  aliases: { expanded: number; limit: number; text: number };
  /** Set while walking inside an alias: where it was written, and its name. */
  alias?: LineCol;
  aliasName?: string;
  diagnostics: Diagnostic[];
  file: string;
  /** The file's text, to quote what a node was written as. */
  text: string;
  /** The file's documents and this one's index: an earlier one may hold an alias's anchor (out of its reach). */
  docs: readonly Document.Parsed[];
  index: number;
  /** Anchored nodes by name, in document order: made at the first alias (Alias.resolve walks the whole document for each). */
  anchors?: AnchorIndex;
}

/** Where to define an alias's anchor; told apart when one is in an earlier document, which anchors never reach. */
function undefinedAliasHint(name: string, state: WalkState): string {
  let anchored = false;
  for (const doc of state.docs.slice(0, state.index)) {
    yaml().visit(doc, (_key, n) => {
      if ((yaml().isScalar(n) || yaml().isCollection(n)) && n.anchor === name) {
        anchored = true;
        return yaml().visit.BREAK;
      }
      return undefined;
    });
  }
  if (anchored) return `${showName(`&${name}`)} is in an earlier document of this file, and an anchor holds only within its document (up to the next \`---\`): define it in this one too, or write the value out`;
  // `*Never* accept`: markdown emphasis, which YAML reads as an alias at the start of a value.
  if (name === '' || name.endsWith('*')) return ALIAS_AS_TEXT;
  return `define ${showName(`&${name}`)} on a value above this line, or quote the value if it is text starting with \`*\``;
}

const ALIAS_AS_TEXT = 'YAML reads a value starting with `*` as an alias: quote the value if it is text';

/** What the parser says of everything after a point where it lost the document's structure. */
const PARSER_GAVE_UP: ReadonlySet<string> = new Set(['UNEXPECTED_TOKEN', 'BAD_INDENT', 'MISSING_CHAR']);

/** Errors after which every value of the document is still what it says (see `ParsedDocument.readable`). */
const READABLE_DESPITE: ReadonlySet<string> = new Set(['duplicate-key', 'yaml-merge']);

/** Collection tags of YAML 1.1 the parser builds kinds of their own for (ordered maps, sets, pairs). */
const ODD_COLLECTIONS: ReadonlySet<string> = new Set(['tag:yaml.org,2002:omap', 'tag:yaml.org,2002:set', 'tag:yaml.org,2002:pairs']);

/** The full parser: values and every position at once, and the YAML diagnostics. */
export function parseWithPositions(written: string, file: string): ParsedFile {
  // A lone CR a line break, as YAML reads it; the library's parser takes it for text (probe EB-1).
  const text = crAsLf(written);
  // Told as what it is, not as the key errors the parser finds in the marker lines.
  const conflict = conflictMarkers(text);
  if (conflict) return { file, documents: [], diagnostics: [mergeConflictDiagnostic(file, conflict)] };
  const { parsed, unclosedQuotes } = parseAll(text, file);
  // With no closing quote anywhere after it, the parser reads a quote never closed to the end of
  // the file, past a `---`: the documents after that line are then read on their own (the text
  // before it blanked, so lines and columns hold), as they are after a bracket never closed, so
  // their own problems are said in the same run. (One that stopped at the line left them read.)
  const runsPast = (q: UnclosedQuote): number => {
    const at = nextDocumentStart(text, q.start);
    return at >= 0 && at < q.end ? at : -1;
  };
  const unclosedQuote = unclosedQuotes.find((q) => runsPast(q) >= 0);
  if (unclosedQuote === undefined) return parsed;
  const resume = runsPast(unclosedQuote);
  const resumeLine = lineOfOffset(text, resume);
  const rest = parseWithPositions(text.slice(0, resume).replace(/[^\n]/g, ' ') + text.slice(resume), file);
  return {
    file,
    documents: [...parsed.documents.filter((d) => d.index <= unclosedQuote.index), ...rest.documents.map((d) => ({ ...d, index: d.index + unclosedQuote.index + 1 }))],
    diagnostics: [...parsed.diagnostics.filter((d) => (d.line ?? 1) < resumeLine), ...rest.diagnostics],
  };
}

function lineOfOffset(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/** The offset of the first `---` line after `from`, or -1. */
function nextDocumentStart(text: string, from: number): number {
  const marker = /^---(?=[ \t\n]|$)/gm;
  marker.lastIndex = from;
  return marker.exec(text)?.index ?? -1;
}

/** A quote never closed: where it opens, where the parser ended it, and in which document. */
interface UnclosedQuote {
  start: number;
  end: number;
  index: number;
}

/** The documents of a file, and its quotes never closed. */
function parseAll(text: string, file: string): { parsed: ParsedFile; unclosedQuotes: UnclosedQuote[] } {
  const unclosedQuotes: UnclosedQuote[] = [];
  const diagnostics: Diagnostic[] = [];
  let docs: Document.Parsed[];
  try {
    // `merge`: `<<: *shared` copies a mapping's keys, so rule text can be shared within a file.
    docs = yaml().parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true, merge: true }) as Document.Parsed[];
  } catch (error) {
    // The parser recurses per nesting level: a file nested thousands deep overflows it.
    if (!(error instanceof RangeError)) throw error;
    return { parsed: { file, documents: [], diagnostics: [tooDeep(file, deepestLine(text))] }, unclosedQuotes };
  }
  const documents: ParsedDocument[] = [];
  // Counted from the text, not by the parser's LineCounter: lines the parser skips as stray
  // tokens after a syntax error are not counted there, which put every later document's
  // problems lines too high (probe QE-1).
  const lc: (offset: number) => LineCol = documentLineColumns(text, file);

  const aliases = { expanded: 0, limit: aliasExpansionLimit(text.length), text: 0 };
  docs.forEach((doc, index) => {
    // One mistake often trips several parser rules at the same spot; the first says it best.
    const reported = new Set<number>();
    let overflowed = false;
    const firstOfDocument = diagnostics.length;
    // Where an unquoted placeholder in a flow collection opened a mapping: what the parser says after it follows from it.
    let explainedFrom: number | undefined;
    // Once the parser has lost the structure, what it says of the rest of the document follows from
    // the first mistake (a line per key after a tab or a slip, "unexpected in YAML stream", placed
    // by a count that skips block text): the first is said, and the document is read again once fixed.
    let broken = false;
    for (const error of doc.errors) {
      if (reported.has(error.pos[0])) continue;
      reported.add(error.pos[0]);
      if (explainedFrom !== undefined && error.pos[0] >= explainedFrom && PARSER_GAVE_UP.has(error.code)) continue;
      // A key the parser calls repeated after that is one of the lines it lost the structure of.
      if (broken) continue;
      if (error.code !== 'DUPLICATE_KEY') broken = true;
      const placeholder = placeholderInFlow(text, error.pos[0]);
      if (placeholder) {
        explainedFrom = placeholder.offset;
        diagnostics.push({
          severity: 'error',
          code: 'yaml-syntax',
          file,
          ...lc(placeholder.offset),
          message: `${quoteValue(placeholder.text)} is inside \`[…]\` or \`{…}\`, where YAML reads its \`{\` and \`}\` as brackets`,
          hint: `quote it: ${JSON.stringify(placeholder.text)}`,
        });
        continue;
      }
      // The parser recurses per nesting level and reports its own stack overflow as an error.
      if (/Maximum call stack size exceeded/.test(error.message)) {
        if (!overflowed) diagnostics.push(tooDeep(file, deepestLine(text)));
        overflowed = true;
        continue;
      }
      // An unclosed quote or bracket is noticed where the parser gives up: point at where it opens.
      const opened = unclosedAt(doc, text, error.pos[0], error.code, error.message);
      if (opened) {
        diagnostics.push({ severity: 'error', code: 'yaml-syntax', file, ...lc(opened.offset), message: opened.message, hint: opened.hint });
        if (opened.quote) unclosedQuotes.push({ start: opened.offset, end: error.pos[0], index });
        continue;
      }
      const duplicate = error.code === 'DUPLICATE_KEY';
      // The parser places a key that follows an empty value at the end of the line before it.
      // A slip the parser notices at a comment or blank line is the next line's.
      const offset = duplicate ? keyStartFrom(text, error.pos[0]) : pastCommentLines(text, error.pos[0], BLOCK_SCALAR_INDENT.test(error.message));
      // A line the parser stops at its start is wrong where its text starts (the column its hint names).
      // (A tab the parser refuses as indentation is itself the place.)
      // A key with a value, then a line indented further: the mistake is that line's, and it is told there.
      const slip = overIndentedNext(error.code, text, offset);
      if (slip) {
        diagnostics.push({ severity: 'error', code: 'yaml-syntax', file, ...lc(slip.offset), message: slip.message, hint: slip.hint });
        continue;
      }
      const start = duplicate || error.code === 'TAB_AS_INDENT' ? offset : pastIndentation(text, offset);
      const at = lc(start);
      const hint = syntaxHint(error.code, error.message, text, offset, doc);
      // What the parser stopped at is quoted: its words name no value.
      const quoted = /\S/.test(text.slice(start, text.indexOf('\n', start) === -1 ? undefined : text.indexOf('\n', start))) ? `: ${quoteStart(text, start)}` : '';
      diagnostics.push({
        severity: 'error',
        code: duplicate ? 'duplicate-key' : 'yaml-syntax',
        message: duplicate ? `duplicate key${quoteKeyAt(text, offset)}: each key may appear once in a mapping${writtenAlready(firstWrittenAt(doc, offset, lc))}` : `${parserWords(error.message, text, start)}${quoted}`,
        file,
        ...at,
        ...(hint ? { hint } : {}),
      });
    }
    for (const warning of doc.warnings) {
      // An unknown tag (`!include`) would be read as plain text: docket has no tags, so it is an error.
      const tag = warning.code === 'TAG_RESOLVE_FAILED';
      // A core tag docket reads (`!!float`) on a value it does not fit: the value is what to change (probe HV-7).
      const unfit = tag ? unfitCoreTag(text, warning.pos[0], warning.message) : undefined;
      diagnostics.push({
        severity: tag ? 'error' : 'warning',
        code: tag ? 'unknown-tag' : 'yaml-warning',
        message: unfit ? unfit.message : tag ? `the tag ${tagAsWritten(text, warning.pos[0], warning.message)} is not read: docket reads plain YAML without tags` : firstLine(warning.message),
        file,
        ...lc(warning.pos[0]),
        ...(unfit ? { hint: unfit.hint } : tag ? { hint: 'remove the tag; to share text within a file, use an anchor and an alias (`&name` / `*name`), or in a resource file a merge key (`<<: *name`), which a definition file refuses' } : {}),
      });
    }
    const contents = doc.contents;
    if (overflowed || contents === null || isEmptyScalar(contents)) return;
    const start = lc(contents.range?.[0] ?? 0);
    const positions = new DocPositions(file, start);
    const state: WalkState = { doc, positions, lc, aliases, diagnostics, file, text, docs, index };
    const before = diagnostics.length;
    let value: unknown;
    try {
      value = toPlain(contents, '', undefined, 0, state);
    } catch (error) {
      if (!(error instanceof StopReading)) throw error;
      diagnostics.push({ severity: 'error', code: error.code, message: error.message, file, ...error.at, hint: error.hint });
      documents.push({ file, index, value: null, start, positions, ok: false });
      return;
    }
    const walkErrors = diagnostics.slice(before).some((d) => d.severity === 'error');
    const ok = doc.errors.length === 0 && !walkErrors && !doc.warnings.some((w) => w.code === 'TAG_RESOLVE_FAILED');
    const readable = !ok && diagnostics.slice(firstOfDocument).every((d) => d.severity !== 'error' || READABLE_DESPITE.has(d.code));
    documents.push({ file, index, value, start, positions, ok, ...(readable ? { readable } : {}) });
  });
  return { parsed: { file, documents, diagnostics }, unclosedQuotes };
}

/** The quoted string or flow collection that runs up to `offset`, where the parser stopped. */
function unclosedAt(doc: Document.Parsed, text: string, offset: number, code: string, message: string): { offset: number; message: string; hint: string; quote?: true } | undefined {
  if (code !== 'MISSING_CHAR' && !(code === 'BAD_INDENT' && /end with a [\]}]/.test(message))) return undefined;
  // `"X"# note`: closed, but a comment must be set off by a space (the parser's own words say so).
  if (/^Comments must be separated/.test(message)) return undefined;
  let found: { offset: number; message: string; hint: string; quote?: true } | undefined;
  yaml().visit(doc, (_key, node) => {
    if (!yaml().isNode(node) || !node.range || node.range[0] >= offset || node.range[1] !== offset) return;
    // Closed further down, on a line YAML does not take into it: indented no deeper than the line it starts on.
    const shallow = shallowNextLine(text, node.range[0]);
    const goesOn = shallow === undefined ? '' : `line ${shallow} is not indented past this one, so YAML ends it here: indent the lines it goes on to further, or `;
    // At the end of a file with no final line break, what is closed inside the unclosed one ends there too (probe KQ-1).
    if (closedAtEnd(text.slice(node.range[0], node.range[1]))) return;
    if (yaml().isScalar(node) && (node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE')) {
      const q = node.type === 'QUOTE_DOUBLE' ? '"' : "'";
      found = { offset: node.range[0], message: `this ${q}quoted${q} value is never closed: ${quoteStart(text, node.range[0])}`, hint: `${goesOn}close it with ${q} on this value, or write text over several lines as a block (\`|\` then indented lines)`, quote: true };
    } else if ((yaml().isSeq(node) || yaml().isMap(node)) && node.flow) {
      const [open, close] = yaml().isSeq(node) ? ['[', ']'] : ['{', '}'];
      found = { offset: node.range[0], message: `this \`${open}\` is never closed with \`${close}\`: ${quoteStart(text, node.range[0])}`, hint: `${goesOn}close it with \`${close}\`, or write it as indented ${yaml().isSeq(node) ? '`- item` lines' : '`key: value` lines'}` };
    }
  });
  return found;
}

/** Whether a quoted value or flow collection's own text ends with its closing character (a `"` not escaped). */
function closedAtEnd(source: string): boolean {
  const src = source.trimEnd();
  if (src.length < 2) return false;
  const [first, last] = [src[0], src[src.length - 1]];
  if (first === '"') return last === '"' && /(^|[^\\])(\\\\)*"$/.test(src.slice(1));
  // `''` is a quote inside: closed by an odd run of them at the end.
  if (first === "'") return /(^|[^'])('')*'$/.test(src.slice(1));
  return (first === '[' || first === '{') && flowClosedAtEnd(src);
}

/** Whether a flow collection's brackets (outside quotes) close exactly at its end: `[[a]` does not (second read SR73-2). */
function flowClosedAtEnd(src: string): boolean {
  let depth = 0;
  // The last character that is no white space: a quote starts a quoted value only where a value
  // starts (`don't` and `5"` are plain text: second read RV10-3).
  let before = '';
  for (let i = 0; i < src.length; i++) {
    const c = src[i]!;
    const opensQuote = (c === '"' || c === "'") && (before === '' || '[{,:'.includes(before) || before === '?' || before === '-');
    if (!/\s/.test(c)) before = c;
    if (opensQuote) {
      // Past the quoted value: `\"` inside double quotes, `''` inside single ones.
      for (i++; i < src.length; i++) {
        if (c === '"' && src[i] === '\\') i++;
        else if (src[i] === c && !(c === "'" && src[i + 1] === "'")) break;
        else if (c === "'" && src[i] === "'") i++;
      }
    } else if (c === '#' && /\s/.test(src[i - 1] ?? '')) {
      const nl = src.indexOf('\n', i);
      if (nl < 0) break;
      i = nl;
    } else if (c === '[' || c === '{') depth++;
    else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) return src.slice(i + 1).trim() === '';
    }
  }
  return false;
}

/** The number of the first line with text after the one `offset` is on, when it is indented no deeper than that one. */
function shallowNextLine(text: string, offset: number): number | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const indent = (at: number): number => /^ */.exec(text.slice(at, at + 200))![0].length;
  for (let nl = text.indexOf('\n', offset); nl !== -1; nl = text.indexOf('\n', nl + 1)) {
    const end = text.indexOf('\n', nl + 1);
    const line = text.slice(nl + 1, end < 0 ? undefined : end);
    if (/^[ \t]*\r?$/.test(line)) continue;
    if (indent(nl + 1) > indent(lineStart)) return undefined;
    return text.slice(0, nl + 1).split('\n').length;
  }
  return undefined;
}

/** `offset` in the indentation of a line with text: where the text starts; else `offset`. */
function pastIndentation(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  if (text.slice(lineStart, offset).trim() !== '') return offset;
  let i = offset;
  while (text[i] === ' ' || text[i] === '\t') i++;
  return i < text.length && text[i] !== '\n' && text[i] !== '\r' ? i : offset;
}

/**
 * The line after the key at `offset` when the parser refused it for being indented further than
 * that key, which has a value of its own (`name: NDA` then `    description: x`): where its text
 * starts, and what to say there.
 */
function overIndentedNext(code: string, text: string, offset: number): { offset: number; message: string; hint: string } | undefined {
  if (code !== 'BLOCK_AS_IMPLICIT_KEY' && code !== 'MULTILINE_IMPLICIT_KEY') return undefined;
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) return undefined;
  // (As syntaxHint tells them apart from `key: a: b`, and from a key without `:`.)
  const rest = text.slice(offset, lineEnd);
  if (code === 'BLOCK_AS_IMPLICIT_KEY' ? /:\s/.test(rest) : !/:(\s|$)/.test(rest)) return undefined;
  // Past the indentation and any list markers (`  - - key:`), not a `-` the key starts with.
  const keyColumn = /^(?: *- +)* */.exec(text.slice(lineStart))![0].length + 1;
  // The next line with text, past blank and comment lines.
  const next = /^(?:[ \t]*(?:#[^\n]*)?\r?\n)*([ \t]*)(\S[^\n]*)/.exec(text.slice(lineEnd + 1));
  if (!next || next[1]!.length + 1 <= keyColumn) return undefined;
  const start = lineEnd + 1 + next.index + next[0].length - next[2]!.length;
  const line = (text.slice(0, lineStart).match(/\n/g)?.length ?? 0) + 1;
  return {
    offset: start,
    message: `${quoteStart(text, start)} is indented further than the key on line ${line}, which has a value of its own`,
    hint: next[1]!.includes('\t')
      ? "indent with spaces: this line's indentation holds a tab"
      : withLine(line, dashGlued(text, lineStart)) ?? `line ${line} has its key at column ${keyColumn} and this one at column ${next[1]!.length + 1}: line them up (keys of one mapping start at the same column)`,
  };
}

/** The first line of what starts at `offset`, shortened, as a message quotes it. */
function quoteStart(text: string, offset: number): string {
  const line = text.slice(offset, text.indexOf('\n', offset) === -1 ? undefined : text.indexOf('\n', offset)).trimEnd();
  // A line of a file: hidden as an excerpt is (a `url:`'s credentials; TR66-2).
  return quoteValue(excerptWithoutSecrets(line));
}

/** `name A` as the key and value it most likely meant (`name: A`); else the text with `:` after it. */
function keyed(line: string): string {
  const words = /^(- )?([A-Za-z_][\w-]*)\s+(\S.*)$/.exec(line);
  return words ? `${words[1] ?? ''}${words[2]}: ${words[3]!.slice(0, 40)}` : `${line.slice(0, 40)}:`;
}

/**
 * An unquoted `${…}` on the line of `offset` after a `[` or `{` that is still open there: in a flow
 * collection YAML reads its braces as a mapping, and the parser's own errors say nothing of it.
 */
function placeholderInFlow(text: string, offset: number): { offset: number; text: string } | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  if (!line.includes('${')) return undefined;
  let open = 0;
  let quote: string | undefined;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote) {
      if (quote === '"' && c === '\\') i++; // an escape: `\"` does not end the value
      else if (quote === "'" && c === "'" && line[i + 1] === "'") i++; // `''` is a quote inside it
      else if (c === quote) quote = undefined;
      continue;
    }
    if (c === '#' && (i === 0 || /\s/.test(line[i - 1]!))) return undefined;
    // A quote opens a quoted scalar only where one may start (`it's` is plain text).
    if ((c === '"' || c === "'") && (i === 0 || /[\s[{,:]/.test(line[i - 1]!))) quote = c;
    else if (c === '$' && line[i + 1] === '{' && open > 0) {
      // From the first `$` of a `$${` escape: quoted, it stays the escape it was.
      let start = i;
      while (start > 0 && line[start - 1] === '$') start--;
      const end = line.indexOf('}', i);
      return { offset: lineStart + start, text: line.slice(start, end < 0 ? undefined : end + 1) };
    } else if (c === '[' || c === '{') open++;
    else if ((c === ']' || c === '}') && open > 0) open--;
  }
  return undefined;
}

/** A hint that fits the mistake behind a parser error (most are indentation, or an unquoted `: `). */
function syntaxHint(code: string, message: string, text: string, offset: number, doc: Document.Parsed): string | undefined {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  const lineEnd = text.indexOf('\n', offset);
  const rest = text.slice(offset, lineEnd < 0 ? undefined : lineEnd);
  if (code === 'TAB_AS_INDENT') return 'indent with spaces';
  // A tab among the spaces of the indentation: the parser counts it other than the eye does.
  if (/^ *\t[ \t]*\S/.test(text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd)) && text.slice(lineStart, offset).trim() === '') return 'indent with spaces: this line\'s indentation holds a tab';
  // A line that stops the parser where its text starts, right under a `key: |`: that value's text,
  // indented too little. Not a line that reads as a key (`questions: Q`), a slip of the mapping's.
  if (text.slice(lineStart, offset).trim() === '') {
    const blockText = underBlockScalar(text, lineStart);
    // A line that reads as `key: …` may be a key one column off, or text with a colon in it
    // (`ACCEPT: up to 3 years`): both readings are said. Lined up with the keys, it may be one
    // that lost its `:`.
    if (blockText && /^[^\s#][^#]*?:(\s|$)/.test(rest.trimStart())) return `${lineThemUp(text, lineStart, doc)}; or, if it is text of the value above, ${blockText.replace(/^the text/, 'that text')}`;
    if (blockText) return /Implicit map keys need to be followed by map values/.test(message) ? `${blockText}; or, if it is a key, it needs \`:\` after it` : blockText;
  }
  if (code === 'BLOCK_AS_IMPLICIT_KEY') {
    // A list item indented under a value (`actions: x` then `  - name: y`).
    if (text.slice(lineStart, offset).trim() === '' && /^-(\s|$)/.test(text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd).trimStart())) {
      // Further left than the items above it is a slip from them, not an item under a value.
      const item = lineAbove(text, lineStart, doc, true);
      if (item && item.column > text.slice(lineStart).search(/\S/) + 1) return lineThemUp(text, lineStart, doc);
      return 'this list item is indented under the value above it: line it up with the other items of its list';
    }
    // `key: a: b` or `name: Step 1:` on one line, or a key indented under a plain value on the next.
    if (/:\s/.test(rest)) return 'a value containing `: ` must be quoted';
    if (/:$/.test(rest.trimEnd())) return `a value ending in \`:\` must be quoted (\`"${rest.trim().replace(/["\\]/g, '\\$&')}"\`)`;
    return 'the next line is indented further than this key: keys of one mapping start at the same column';
  }
  const glued = dashGlued(text, lineStart);
  if (glued && (code === 'BAD_INDENT' || /without - indicator|same column/.test(message))) return glued;
  // A blank line of a `|` block an editor filled with a tab: lining up is not it (probe DJ-3).
  if (BLOCK_SCALAR_INDENT.test(message) && isTabOnlyLine(text.slice(lineStart, lineEndAt(text, lineStart)))) return 'this line holds a tab and nothing else: YAML indents with spaces only, so empty the line (or indent it with spaces)';
  if (code === 'BAD_INDENT' || /without - indicator/.test(message)) return lineThemUp(text, lineStart, doc);
  if (/^Unexpected scalar at node end/.test(message)) {
    // `actions: *ACCEPT 3 years`: the alias's name ends at the space, and the rest is left over.
    if (/(?:^|[:\-]\s+)\*\S+\s+$/.test(text.slice(lineStart, offset))) return ALIAS_AS_TEXT;
    // At the start of a line, the line itself is where the lines above left it: an indentation slip.
    const before = text.slice(lineStart, offset).trimEnd();
    // `name: 'it's Dan'`: the value's own quote ended it early, its closing one still to come (probe GK-4).
    const quote = before.at(-1);
    if ((quote === "'" || quote === '"') && text.slice(offset, lineEndAt(text, offset)).includes(quote)) {
      return quote === "'" ? "a `'` inside single quotes is written twice (`'it''s'`), or quote the value with double quotes" : 'a `"` inside double quotes is written `\\"`, or quote the value with single quotes';
    }
    if (before.trim() !== '') return 'text follows a closing quote or bracket: quote the whole value, or remove what follows';
    return lineThemUp(text, lineStart, doc);
  }
  // `questions:\u00a0What?` (pasted from a web page or Word): YAML reads a no-break space as text,
  // so the key's `:` has no space after it (probe FN-2); JavaScript's \s would take it for one.
  const oddSpace = /^[ \t]*([^\s:#][^:]*):([\u00a0\u2000-\u200a\u202f\u205f\u3000])/.exec(rest);
  if (oddSpace && /Implicit (map )?keys/.test(message)) return `the space after \`${oddSpace[1]!.trim()}:\` is ${showCodePoint(oddSpace[2]!)}, which YAML reads as text, not as a space: type a plain space there`;
  // `description:hello` is one plain text to YAML: a key's `:` needs a space after it.
  const colonGlued = /^\s*([A-Za-z_][\w.-]*):(?=[^\s:/])(.*)$/.exec(rest);
  const spaced = colonGlued ? `put a space after the key's \`:\` (\`${colonGlued[1]}: ${colonGlued[2]!.trim()}\`)` : undefined;
  // Indented or not, a key glued to its value is that (probe FE-2).
  if (/Implicit map keys need to be followed by map values/.test(message)) return spaced ?? (offset === lineStart ? 'a line here is neither `key: value` nor `- item`; check its indentation' : 'a key needs `:` after it');
  if (code === 'MULTILINE_IMPLICIT_KEY' && /^---\ufeff/.test(text.slice(lineStart))) return 'a byte-order mark right after `---` (files joined by a tool) makes it no document marker: delete the mark';
  if (code === 'MULTILINE_IMPLICIT_KEY') return /:(\s|$)/.test(rest) ? 'the next line is indented further than this key: keys of one mapping start at the same column' : (spaced ?? `a key needs \`:\` after it (\`${keyed(rest.trim())}\`)`);
  if (/^Missing directives-end/.test(message)) return 'a line starting with `%` is a YAML directive, which `---` must follow before the document; remove it, or add `---` under it (a file that is not YAML, such as a PDF, starts so too)';
  // `[name]: Dan` under another key of a block mapping: a list or mapping written as a key, which no docket file has.
  if (bracketedKey(message, rest)) return `a key is plain text: write it without brackets (\`${rest.trim().replace(/^[[{]\s*|\s*[\]}](?=[ \t]*:)/g, '')}\`)`;
  if (/^Comments must be separated/.test(message)) return 'put a space before `#`, or quote the value if `#` belongs to it';
  // `--- kind: Member` (or `--- ` and a byte-order mark, files joined by a tool): a document's keys start on the next line.
  if (/^Block collection cannot start on same line with directives-end marker/.test(message)) {
    // `--- ` then only a byte-order mark: the line ends already, the mark is what YAML reads as content (probe SH-4).
    if (/^---[ \t]*\ufeff[ \t]*$/.test(text.slice(lineStart).split(/\r?\n|\r/, 1)[0]!)) return 'a byte-order mark after `---` on its line (files joined by a tool) is read as the document\'s first key: delete the mark';
    return 'a document\'s keys start on the line after `---`: put a line break after `---`';
  }
  if (code === 'MISSING_CHAR') return 'a quote, bracket or brace was opened and not closed';
  // A key YAML allows at most 1,024 characters up to its `:` (probe QW-6).
  if (code === 'KEY_OVER_1024_CHARS') return 'a key is at most 1,024 characters up to its `:`: shorten it (a long text belongs in a value)';
  // `* ACCEPT` (a markdown bullet) and `& ACCEPT`: an alias or an anchor with no name.
  if (/^(?:Alias|Anchor) cannot be an empty string/.test(message)) return `YAML reads a value starting with \`${message.startsWith('Alias') ? '*' : '&'}\` as ${message.startsWith('Alias') ? 'an alias' : 'an anchor'}: quote the value if it is text${quotedExample(rest)}`;
  // `| ACCEPT` and `> ACCEPT`: a block scalar's text starts on the next line.
  if (/^Not a YAML token/.test(message) && /[|>][+-]?\d?\s+$/.test(text.slice(lineStart, offset))) return 'a value after `|` or `>` starts on the next line, indented; or quote the value if `|` or `>` begins its text';
  // Text written as markdown (`@bob`, `` `code` ``, `%PDF`, `- accept` after a key): YAML reserves its first character.
  const reserved = /^Plain value cannot start with (?:reserved|directive indicator) character (\S)/.exec(message);
  if (reserved) return `YAML reserves ${reserved[1] === '`' ? 'the backtick' : `\`${reserved[1]}\``} at the start of a plain value: quote the value${quotedExample(rest)}`;
  if (/^Unexpected block-seq-ind on same line with key/.test(message)) return `\`- \` after a key starts a list only on the next line: quote the value if it is text${quotedExample(rest)}`;
  return undefined;
}

/** ` (\`"…"\`)`: the rest of the line quoted, when it is short enough to show. */
function quotedExample(rest: string): string {
  // A comment after the value is not part of it.
  const value = rest.replace(/\s+#.*$/, '').trim();
  if (value === '' || value.length > 60) return '';
  return value.includes('`') ? ` (${JSON.stringify(value)})` : ` (\`${JSON.stringify(value)}\`)`;
}

/** The parser's message, or plainer words where its own name another mistake (a bracketed key is no comment). */
function parserWords(message: string, text: string, start: number): string {
  const lineEnd = text.indexOf('\n', start);
  return bracketedKey(message, text.slice(start, lineEnd < 0 ? undefined : lineEnd)) ? 'a key written as a list or mapping' : firstLine(message);
}

/** Whether the parser stopped at a list or mapping written as a key (`[name]: Dan`), which it calls a comment. */
function bracketedKey(message: string, line: string): boolean {
  return /^Map comment with trailing content/.test(message) && /^[[{].*[\]}][ \t]*:(\s|$)/.test(line.trimStart());
}

/**
 * `-name: R` where a list item belongs (under a key that opens a block, or beside items), a `-`
 * with no space after it, which YAML reads as a key `-name`: said so (lining it up would not help).
 */
function dashGlued(text: string, lineStart: number): string | undefined {
  const lineEnd = text.indexOf('\n', lineStart);
  const glued = /^([ \t]*)-([A-Za-z_"'][^\n]*?)\r?$/.exec(text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd));
  if (!glued || !listBelongsAt(text, lineStart, glued[1]!.length)) return undefined;
  return gluedDashHint(glued[2]!);
}

/** The hint for a list item written with no space after its dash: `item` is what follows the dash (`name: R`). */
export function gluedDashHint(item: string): string {
  const key = /^([^:]*):(\s|$)/.exec(item)?.[1];
  return `put a space after \`-\` (\`- ${item.trim()}\`): without it, \`-${(key ?? item).trim()}\` is ${key === undefined ? 'text' : 'a key'}, not a list item`;
}

/** Whether a list item fits at `indent` on the line at `lineStart`: items above it there, or a key just above that opens a block. */
function listBelongsAt(text: string, lineStart: number, indent: number): boolean {
  for (let end = lineStart - 1; end > 0; ) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end).replace(/\r$/, '');
    end = start - 1;
    if (/^[ \t]*(#.*)?$/.test(line)) continue;
    const own = /^ */.exec(line)![0].length;
    if (own < indent) return /:[ \t]*(#.*)?$/.test(line);
    // At the key's own indentation too: YAML takes a key's list items there (`rules:` then `- name: R`).
    if (own === indent) return /^ *- /.test(line) || /:[ \t]*(#.*)?$/.test(line);
  }
  return false;
}

const withLine = (line: number, hint: string | undefined): string | undefined => (hint === undefined ? undefined : `on line ${line}, ${hint}`);

/** The hint of an indentation slip, naming the line above that this one slipped from. */
function lineThemUp(text: string, lineStart: number, doc: Document.Parsed): string {
  const own = text.slice(lineStart).search(/\S/);
  const item = text[lineStart + own] === '-';
  const above = lineAbove(text, lineStart, doc, item);
  const column = own + 1;
  const which = above && own >= 0 && above.column !== column ? `line ${above.line} ${above.firstKeyOfItem ? 'has its first key' : 'starts'} at column ${above.column} and this one at column ${column}: ` : '';
  return `${which}line them up (keys of one mapping start at the same column, list items at the same \`-\`)`;
}

/**
 * Text under a `key: |` (or `>`) that starts no further right than the key: YAML ends the text
 * there, and lined up with the key it would be read as one (probe PY-4).
 */
function underBlockScalar(text: string, lineStart: number): string | undefined {
  const own = text.slice(lineStart).search(/\S/) + 1;
  let end = lineStart - 1;
  let start = end;
  /** The column the block's text starts at: that of its nearest line seen walking up to the header. */
  let textColumn: number | undefined;
  // Up to the `key: |` line: past blank lines and the block's text, indented further than this line (probe GK-2).
  for (;;) {
    if (end < 0) return undefined;
    start = text.lastIndexOf('\n', end - 1) + 1;
    const above = text.slice(start, end);
    if (above.trim() === '') {
      end = start - 1;
      continue;
    }
    if (BLOCK_HEADER.test(above)) break;
    const column = above.search(/\S/) + 1;
    if (column <= own) return undefined;
    textColumn = column;
    end = start - 1;
  }
  const header = BLOCK_HEADER.exec(text.slice(start, end))!;
  const keyColumn = header[1]!.length + 1;
  const line = text.slice(0, start).split('\n').length;
  const block = `\`${header[2]!.trim()}: ${header[3]}\` (line ${line})`;
  if (own > keyColumn) return textColumn === undefined ? undefined : `this line is part of the text of ${block}, whose lines start at column ${textColumn}: start it at column ${textColumn} too`;
  // At or left of the key, after the text: the key slipped rather, which the caller's hint says.
  if (textColumn !== undefined) return undefined;
  return `the text of ${block} must be indented further than its key, which starts at column ${keyColumn}: start this line past column ${keyColumn}`;
}

/** A `key: |` or `key: >` line (with its indicators), which a block of text follows. */
const BLOCK_HEADER = /^(\s*(?:-\s+)*)([^\s#][^#]*?):\s+([|>][+-]?\d?[+-]?)\s*(?:#.*)?\r?$/;

/**
 * The nearest key of a block mapping above `lineStart` (or, for a list item, the nearest item's
 * `-`), as the parser read the document up to the slip: not a line of a block scalar's text or
 * of a flow collection, which say nothing about where keys go.
 */
function lineAbove(text: string, lineStart: number, doc: Document.Parsed, item: boolean): { line: number; column: number; firstKeyOfItem: boolean } | undefined {
  let nearest = -1;
  yaml().visit(doc, (_key, node) => {
    if (item && yaml().isSeq(node) && !node.flow) {
      for (const entry of node.items) {
        const start = yaml().isNode(entry) ? entry.range?.[0] : undefined;
        if (start === undefined || start >= lineStart) continue;
        const dash = text.lastIndexOf('-', start - 1);
        if (dash > nearest) nearest = dash;
      }
    } else if (!item && yaml().isMap(node) && !node.flow) {
      for (const pair of node.items) {
        const start = yaml().isNode(pair.key) ? pair.key.range?.[0] : undefined;
        if (start !== undefined && start < lineStart && start > nearest) nearest = start;
      }
    }
  });
  if (nearest < 0) return undefined;
  const start = text.lastIndexOf('\n', nearest - 1) + 1;
  // An item of a list nested in an item (`- - a`) lines up by the line's first dash.
  const column = item ? text.slice(start).search(/\S/) + 1 : nearest - start + 1;
  return { line: lineColumnsOf(text)(start).line, column, firstKeyOfItem: !item && /^\s*-\s/.test(text.slice(start, nearest)) };
}

/** A document with only comments (or only `---`) parses to an empty plain scalar. */
function isEmptyScalar(node: Node): boolean {
  return yaml().isScalar(node) && node.value === null && node.source === '' && !node.tag;
}

function firstLine(message: string): string {
  return message.split('\n')[0]!.trim();
}

/** ` `key`` for the key written at the error (which covers only its first character), or ''. */

/**
 * The line of the first writing, in the same mapping, of a key the parser found written twice: said
 * as docket's own check of keys says it (second read SR90C-5).
 */
function firstWrittenAt(doc: Document.Parsed, offset: number, lc: (offset: number) => LineCol): number | undefined {
  let found: number | undefined;
  yaml().visit(doc, {
    Map(_key, map) {
      const at = map.items.findIndex((pair) => (pair.key as Node | null)?.range?.[0] === offset);
      if (at <= 0) return undefined;
      const value = (node: unknown): unknown => (yaml().isScalar(node) ? node.value : node);
      const mine = value(map.items[at]!.key);
      const first = map.items.slice(0, at).find((pair) => value(pair.key) === mine);
      if (first && (first.key as Node | null)?.range) found = (first.key as Node).range![0];
      return yaml().visit.BREAK;
    },
  });
  return found === undefined ? undefined : lc(found).line;
}

/** What a duplicate key's message adds of the first writing: its line, and how it was written there when otherwise. */
function writtenAlready(line: number | undefined, as?: string): string {
  return line === undefined ? '' : `; line ${line} writes it already${as === undefined ? '' : ` (as ${showName(as)})`}`;
}

function quoteKeyAt(text: string, offset: number): string {
  const eol = text.indexOf('\n', offset);
  const rest = text.slice(offset, eol < 0 ? undefined : eol);
  // An explicit key (`? name`) has its value on a later line: the rest of this one is the key (probe TC-5).
  const explicit = /(?:^|[ \t])\?[ \t]+$/.test(text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset));
  const m = explicit ? /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^#]*?)[ \t]*(?:#.*)?$/.exec(rest) : /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^:#]+?)\s*:/.exec(rest);
  const key = m?.[1]?.trim();
  return key && key.length <= 80 ? ` \`${key}\`` : '';
}

/** `offset`, or where the next line with content starts when `offset`'s line is blank or a comment. */
function pastCommentLines(text: string, offset: number, inBlockScalar = false): number {
  const own = text.lastIndexOf('\n', offset - 1) + 1;
  for (let lineStart = own; ; ) {
    const end = text.indexOf('\n', lineStart);
    const raw = text.slice(lineStart, end < 0 ? undefined : end);
    // In a `|` block a line of white space holding a tab is no blank line to the parser: the slip is
    // its (probe DJ-3). Elsewhere such a line is blank, as YAML reads it (second read SR102B-2).
    if (inBlockScalar && lineStart === own && isTabOnlyLine(raw)) return offset;
    const line = raw.trim();
    if (line !== '' && !line.startsWith('#')) return lineStart === own ? offset : lineStart + text.slice(lineStart).search(/\S/);
    if (end < 0) return offset;
    lineStart = end + 1;
  }
}

/** The parser's words for a line of a `|` or `>` block indented less than its first. */
const BLOCK_SCALAR_INDENT = /^Block scalar lines must not be less indented/;

/** A line of white space only, a tab among it. */
function isTabOnlyLine(line: string): boolean {
  return line.includes('\t') && line.trim() === '';
}

function lineEndAt(text: string, lineStart: number): number {
  const end = text.indexOf('\n', lineStart);
  return end < 0 ? text.length : end;
}

/** The first character from `offset` that is not a space or a line break: where a key starts. */
function keyStartFrom(text: string, offset: number): number {
  let at = offset;
  while (at < text.length && /\s/.test(text[at]!)) at++;
  return at < text.length ? at : offset;
}

/** What an alias names, as Alias.resolve finds it: the last node anchored with that name before the alias. */
function anchoredBefore(name: string, offset: number, state: WalkState): Node | undefined {
  state.anchors ??= anchorIndex(state.doc);
  return anchoredIn(state.anchors, name, offset);
}

/** A mapping key as text: an alias (`*k : v`) is the scalar its anchor names, as other YAML readers read it. */
function keyOf(keyNode: Node | null, state: WalkState): string {
  if (keyNode === null) return '';
  if (yaml().isAlias(keyNode)) {
    const target = anchoredBefore(keyNode.source, keyNode.range?.[0] ?? 0, state);
    if (yaml().isScalar(target)) return String(target.value);
    if (!target) {
      const at = state.lc(keyNode.range?.[0] ?? 0);
      state.diagnostics.push({ severity: 'error', code: 'yaml-undefined-alias', message: `alias ${showName(`*${keyNode.source}`)} names no anchor defined before it`, file: state.file, ...at, hint: undefinedAliasHint(keyNode.source, state) });
    }
  }
  // A key YAML reads as null is kept as written (`: x` has none, `~: x`), never the word `null`: in
  // a mapping of free names (`vars:`, `environments:`) it would name a variable no one wrote (probe GA).
  if (yaml().isScalar(keyNode) && keyNode.value === null && (keyNode.source === '' || keyNode.source === '~')) return keyNode.source;
  // (Not where the parser lost the structure: what it made of the lines after a slip is said already.)
  if (yaml().isCollection(keyNode) && state.doc.errors.length === 0) {
    // `{{ name }}` (a template engine's placeholder) is a mapping whose key is a mapping: no docket file has such a key (probe NF-1).
    const [start, end] = keyNode.range ?? [0, 0];
    const written = state.text.slice(start, end);
    state.diagnostics.push({
      severity: 'error',
      code: 'yaml-syntax',
      message: `a key written as a list or mapping: ${quoteValue(written)}`,
      file: state.file,
      ...state.lc(start),
      hint: "a key is plain text; `{{ … }}` is no placeholder in docket: write `${var.NAME}` (quoted inside `{…}`), or quote the whole value if the braces are text",
    });
  }
  // A tag that makes the key no text (`!!binary bmFtZQ==`): read as the text its bytes spell, it
  // would set `name` unseen by a reviewer of the file (probe DJ-2). Refused as such a value is.
  if (yaml().isScalar(keyNode) && keyNode.value !== null && typeof keyNode.value === 'object') {
    const tag = keyNode.tag?.replace('tag:yaml.org,2002:', '!!');
    state.diagnostics.push({
      severity: 'error',
      code: 'unknown-tag',
      message: tag ? `the tag \`${tag}\` makes a key docket cannot use; docket reads plain YAML without tags` : `the key ${quoteValue(keyNode.source ?? '')} is read as a value that is not text, which docket cannot use`,
      file: state.file,
      ...state.lc(keyNode.range?.[0] ?? 0),
      hint: tag ? 'remove the tag and write the key as text' : 'quote it to keep it as text',
    });
    return keyNode.source ?? '';
  }
  return yaml().isScalar(keyNode) ? String(keyNode.value) : String(keyNode);
}

/** Text an alias brings (the one being walked, or `alias`: a key written as one), against the file's room (MAX_ALIASED_TEXT): past it, the read stops at the alias. */
function countAliasedText(length: number, state: WalkState, alias?: { at: LineCol; name: string }): void {
  if ((state.aliases.text += length) <= MAX_ALIASED_TEXT) return;
  throw new StopReading(
    'yaml-alias-expansion',
    `aliases expand this file by more than ${MAX_ALIASED_TEXT.toLocaleString('en-US')} characters of text (an alias bomb?), from ${showName(`*${alias?.name ?? state.aliasName ?? ''}`)}`,
    alias?.at ?? state.alias!,
    'write the text once, or alias shorter text',
  );
}

function toPlain(node: Node | null, pointer: string, keyPos: LineCol | undefined, depth: number, state: WalkState): unknown {
  const { positions, lc } = state;
  if (node === null) {
    // `key:` with nothing after it: a null written at the key.
    if (keyPos) positions.set(pointer, { key: keyPos, value: keyPos, plain: false });
    return null;
  }
  const here = lc(node.range?.[0] ?? 0);
  if (depth > MAX_DEPTH) {
    throw new StopReading('yaml-too-deep', `this value is nested more than ${MAX_DEPTH} levels deep`, here, 'no docket file nests this deep; check the indentation or the brackets');
  }
  if (state.alias && ++state.aliases.expanded > state.aliases.limit) {
    throw new StopReading(
      'yaml-alias-expansion',
      `aliases expand this file to more than ${state.aliases.limit} values (an alias bomb?), from ${showName(`*${state.aliasName ?? ''}`)}`,
      state.alias,
      'write the values out, or alias smaller nodes',
    );
  }
  if (yaml().isAlias(node)) {
    const target = anchoredBefore(node.source, node.range?.[0] ?? 0, state);
    if (!target) {
      state.diagnostics.push({ severity: 'error', code: 'yaml-undefined-alias', message: `alias ${showName(`*${node.source}`)} names no anchor defined before it`, file: state.file, ...here, hint: undefinedAliasHint(node.source, state) });
      return null;
    }
    // Inside the node its anchor names (`&r [*r]`): it would repeat without end. An alias always
    // follows its anchor, so a cycle through other aliases has one of them inside its own node too.
    const at = node.range?.[0] ?? 0;
    if (target.range && target.range[0] <= at && at < target.range[2]) {
      state.diagnostics.push({ severity: 'error', code: 'yaml-recursive-alias', message: `alias ${showName(`*${node.source}`)} is inside the node its anchor ${showName(`&${node.source}`)} names, so it would repeat without end`, file: state.file, ...here, hint: 'alias a node that does not hold the alias, or write the value out' });
      return null;
    }
    const outer = state.alias;
    const outerName = state.aliasName;
    if (!state.alias) {
      state.alias = here;
      state.aliasName = node.source;
    }
    try {
      const value = toPlain(target, pointer, keyPos ?? here, depth + 1, state);
      // A scalar's mistake is where it is used (`reviewer: *r`), each use its own: at its anchor, the
      // line would show another field, and two uses would be one error (probe NS-4). A list or a
      // mapping aliased keeps its own lines: one mistake in it is said once, where it is written.
      // Only where: a plain `${var.X}` it brings is still typed as YAML types it (second read SR79-1).
      if (yaml().isScalar(target) && positions.has(pointer)) positions.set(pointer, { key: keyPos ?? here, value: here, plain: target.type === 'PLAIN' });
      return value;
    } finally {
      state.alias = outer;
      state.aliasName = outerName;
    }
  }
  if (yaml().isScalar(node)) {
    if (state.alias && typeof node.value === 'string') countAliasedText(node.value.length, state);
    const empty = node.value === null && node.source === '';
    positions.set(pointer, { key: keyPos, value: empty && keyPos ? keyPos : here, plain: node.type === 'PLAIN' });
    if (node.value !== null && typeof node.value === 'object') {
      // A tag the parser knows but JSON has no value for (`!!binary` gives bytes); without a tag,
      // a `%YAML 1.1` document's plain date or binary.
      const message = node.tag
        ? `the tag \`${node.tag.replace('tag:yaml.org,2002:', '!!')}\` makes a value docket cannot use; docket reads plain YAML without tags`
        : `${quoteValue(node.source ?? '')} is read as ${node.value instanceof Date ? 'a date' : 'a value that is not text'} in this \`%YAML 1.1\` document, which docket cannot use`;
      state.diagnostics.push({ severity: 'error', code: 'unknown-tag', message, file: state.file, ...here, hint: node.tag ? 'remove the tag and write the value as text' : 'quote it to keep it as text' });
      return null;
    }
    return normaliseScalar(node.value);
  }
  // `!!omap`, `!!set` and `!!pairs` make collections of their own kinds, which docket has no use for.
  const tag = (node as { tag?: string }).tag;
  if (tag !== undefined && ODD_COLLECTIONS.has(tag)) {
    state.diagnostics.push({ severity: 'error', code: 'unknown-tag', message: `the tag \`${tag.replace('tag:yaml.org,2002:', '!!')}\` makes a value docket cannot use; docket reads plain YAML without tags`, file: state.file, ...here, hint: 'remove the tag: write a plain list or mapping' });
    return null;
  }
  positions.set(pointer, { key: keyPos, value: here, plain: false });
  if (yaml().isMap(node)) {
    const out: Record<string, unknown> = {};
    let merged = false;
    // Keys written in this mapping, and what the parser compared them by: it reports two keys only
    // when both are written as text of one value, so it takes `null:` and `"null":` (the name `null`
    // to docket both) as two, and an alias as another key.
    const written = new Map<string, unknown[]>();
    /** Where each key was first written, and as what: a duplicate says which it repeats (probe SA-2). */
    const firstWritten = new Map<string, { line: number; as: string }>();
    for (const pair of node.items) {
      const keyNode = pair.key as Node | null;
      // With `merge` on, the parser marks the merge key with a symbol.
      if (yaml().isScalar(keyNode) && isMergeKeyScalar(keyNode)) {
        // The parser takes a second `<<` silently (the first wins; other readers let the last win).
        if (merged) {
          const at = keyNode.range ? lc(keyNode.range[0]) : here;
          state.diagnostics.push({ severity: 'error', code: 'duplicate-key', message: 'duplicate key `<<`: each key may appear once in a mapping', file: state.file, ...at, hint: 'merge several mappings with one key and a list: `<<: [*first, *second]` (the first one listed wins)' });
          continue;
        }
        merged = true;
        mergeInto(out, pair.value as Node | null, pointer, depth, state, keyNode.range ? lc(keyNode.range[0]) : here);
        continue;
      }
      const key = keyOf(keyNode, state);
      // A key an alias brings is text it brings too, and so is a key written as an alias: an explicit
      // key has no length limit (second reads SR100-6, SR100B-3).
      if (state.alias) countAliasedText(key.length, state);
      else if (keyNode && yaml().isAlias(keyNode)) countAliasedText(key.length, state, { at: keyNode.range ? lc(keyNode.range[0]) : here, name: keyNode.source });
      // A key with no text (nothing before its `:`) starts where its line does: in a block
      // mapping, it is at the column the mapping's keys share.
      const kp = keyNode?.range ? (isEmptyScalar(keyNode) && !node.flow ? { line: lc(keyNode.range[0]).line, col: here.col } : lc(keyNode.range[0])) : here;
      const isAlias = yaml().isAlias(keyNode);
      const before = written.get(key);
      // As the parser compares (mapIncludes): scalars by value with ===, anything else by identity.
      const compared: unknown = yaml().isScalar(keyNode) && !isAlias ? keyNode.value : keyNode;
      const as = keyNode?.range ? state.text.slice(keyNode.range[0], keyNode.range[1]) : key;
      if (before !== undefined && !before.some((b) => b === compared)) {
        const first = firstWritten.get(key);
        const repeats = writtenAlready(first?.line, first && first.as !== as ? first.as : undefined);
        state.diagnostics.push({ severity: 'error', code: 'duplicate-key', message: `duplicate key ${quoteValue(key)}${isAlias ? ` (${showName(`*${(keyNode as { source: string }).source}`)} names it)` : ''}: each key may appear once in a mapping${repeats}`, file: state.file, ...kp, hint: 'keep one of them: docket reads both as that one name, and would take one or the other' });
      }
      if (before === undefined) {
        written.set(key, [compared]);
        firstWritten.set(key, { line: kp.line, as });
      } else before.push(compared);
      const value = toPlain(pair.value as Node | null, joinPointer(pointer, key), kp, depth + 1, state);
      // defineProperty: a `__proto__:` key must become data, not change the object's prototype.
      Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (yaml().isSeq(node)) {
    return node.items.map((item, i) => toPlain(item as Node | null, joinPointer(pointer, i), undefined, depth + 1, state));
  }
  return null;
}

/**
 * `<<: *base` (or a list of them): the keys of the merged mappings that the mapping does not set
 * itself, as YAML merge keys define (keys written in the mapping win, wherever they appear).
 */
function mergeInto(out: Record<string, unknown>, source: Node | null, pointer: string, depth: number, state: WalkState, mergeKey: LineCol): void {
  const sources = source && yaml().isSeq(source) ? (source.items as (Node | null)[]) : [source];
  const own = new Set(Object.keys(out));
  for (const item of sources) {
    // Walked apart: the mapping's own position, and those of keys it writes itself, stay theirs.
    const into = state.positions;
    const merged = new DocPositions(state.file, into.start);
    state.positions = merged;
    let value: unknown;
    const said = state.diagnostics.length;
    try {
      value = toPlain(item, pointer, undefined, depth + 1, state);
    } finally {
      state.positions = into;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      // An alias to nothing, or inside its own anchor, is said already: not also as a merge of nothing.
      if (state.diagnostics.length > said) continue;
      const at = state.lc(item?.range?.[0] ?? 0);
      // The value is quoted, as every message quotes what it refuses (probe OO-4).
      // A number or a word as written (`0x1F`, not 31: second read SR81-2).
      const range = item?.range;
      const written = range && typeof value === 'number' ? state.text.slice(range[0], range[1]).trim() : undefined;
      const got = value === null ? 'no value' : typeof value === 'string' ? quoteValue(value) : Array.isArray(value) ? 'a list' : written !== undefined && written !== '' ? quoteValue(written) : String(value);
      state.diagnostics.push({ severity: 'error', code: 'yaml-merge', message: `a merge key (\`<<\`) takes a mapping or a list of mappings (got ${got})`, file: state.file, ...at });
      continue;
    }
    for (const [k, v] of Object.entries(value)) {
      if (own.has(k) || Object.hasOwn(out, k)) continue;
      Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      into.adopt(merged, joinPointer(pointer, k));
      into.markMerged(joinPointer(pointer, k), mergeKey);
    }
  }
}

function tooDeep(file: string, line: number): Diagnostic {
  return { severity: 'error', code: 'yaml-too-deep', message: `the YAML nests more than ${MAX_DEPTH} levels deep`, file, line, col: 1, hint: 'no docket file nests this deep; check the indentation or the brackets' };
}

/**
 * The first line where flow brackets nest deeper than MAX_DEPTH, else where indentation does (each
 * line indented past the ones it is under is a level deeper: probe MU-4), else 1.
 */
function deepestLine(text: string): number {
  let depth = 0;
  let line = 1;
  for (const ch of text) {
    if (ch === '\n') line++;
    else if (ch === '[' || ch === '{') {
      if (++depth > MAX_DEPTH) return line;
    } else if (ch === ']' || ch === '}') depth--;
  }
  const indents: number[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const content = lines[i]!.replace(/^[ -]*/, '');
    if (content === '' || content.startsWith('#')) continue;
    const indent = lines[i]!.length - lines[i]!.trimStart().length;
    while (indents.length > 0 && indents[indents.length - 1]! >= indent) indents.pop();
    indents.push(indent);
    // The document's own mapping is a level too, as the parser counts them.
    if (indents.length > MAX_DEPTH + 1) return i + 1;
  }
  return 1;
}

/** The core schema yields only JSON-like scalars; bigint cannot occur without `intAsBigInt`. */
function normaliseScalar(value: unknown): unknown {
  return value === undefined ? null : value;
}

/** What each core tag docket reads takes, and how such a value is written. */
const CORE_TAG_VALUES: Record<string, { takes: string; example: string }> = {
  int: { takes: 'a whole number written in digits', example: '!!int 12' },
  float: { takes: 'a number written with a point or an exponent', example: '!!float 2.0' },
  bool: { takes: 'only `true` or `false`', example: '!!bool true' },
  null: { takes: 'only `null`, `~` or nothing', example: '!!null null' },
};

/** A core tag (`!!float`, `!!bool`) whose value does not read as that type: said of the value, quoted. */
function unfitCoreTag(text: string, offset: number, message: string): { message: string; hint: string } | undefined {
  const type = /^Unresolved tag: tag:yaml\.org,2002:(\w+)/.exec(message)?.[1];
  const values = type === undefined ? undefined : CORE_TAG_VALUES[type];
  if (!values) return undefined;
  // The value on the tag's line, up to a comment or, in a flow collection, its next item (probe HY-2);
  // a block scalar's text is on the lines after: named, not quoted.
  const line = text.slice(offset, text.indexOf('\n', offset) === -1 ? undefined : text.indexOf('\n', offset));
  const after = valueAfterTag(line, text.slice(text.lastIndexOf('\n', offset - 1) + 1, offset));
  const value = after === undefined || after === '' || /^[|>]/.test(after) ? 'the value' : quoteValue(excerptWithoutSecrets(after));
  return {
    message: `${value} does not read as the tag \`!!${type}\` says: it takes ${values.takes}`,
    hint: `write the value so (\`${values.example}\`), or remove the tag to take the value as YAML reads it`,
  };
}

/**
 * The value written after a tag on its line: quoted, whole; else up to a comment (a `#` after a
 * space) and, in a flow collection opened on that line, its next item (probe PV-2: `1,000` in a
 * block is one value).
 */
function valueAfterTag(line: string, before: string): string | undefined {
  const rest = /^!\S*[ \t]+(.*)$/.exec(line)?.[1];
  if (rest === undefined) return undefined;
  const quoted = /^(?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*')/.exec(rest)?.[0];
  if (quoted !== undefined) return quoted;
  const opened = (open: string, close: string): number => before.split(open).length - before.split(close).length;
  const plain = rest.split(/[ \t]+#/)[0]!;
  return (opened('[', ']') + opened('{', '}') > 0 ? plain.split(/[,\]}]/)[0]! : plain).trimEnd();
}

/** A tag as the file writes it (`!!float`, `!include`), not as the parser resolves it (`tag:yaml.org,2002:float`). */
function tagAsWritten(text: string, offset: number, message: string): string {
  const written = /^![^\s,[\]{}]*/.exec(text.slice(offset, offset + 200))?.[0];
  const tag = written ?? firstLine(message).replace(/^Unresolved tag: /, '').replace('tag:yaml.org,2002:', '!!');
  return `\`${tag}\``;
}

/** `a no-break space (U+00A0)`: a space character YAML does not take for one, named so it can be found. */
function showCodePoint(c: string): string {
  return `${c === '\u00a0' || c === '\u202f' ? 'a no-break space' : 'a Unicode space'} (${codePointOf(c)})`;
}
