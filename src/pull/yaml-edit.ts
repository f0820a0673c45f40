/**
 * Edits a YAML file so that some of its documents hold new values, touching only what changes:
 * every byte outside a changed node stays as it was (comments, key order, quoting, block styles,
 * anchors, the other documents). The caller says what each document should hold; this finds the
 * smallest set of text splices that gets there, from the positions the parser keeps:
 *
 * - a changed scalar is rewritten in place, in its own style (yaml-render.ts);
 * - a key or list item that appears or goes is a line (or lines) added or removed, indented like
 *   its siblings; in a flow collection, an item with its comma;
 * - an alias (`*name`) whose value must now differ from its anchor's is written out where it is;
 *   a key a merge (`<<: *name`) gives, whose value must differ, is written in the mapping itself;
 * - a `${var.X}` or `${env.X}` value is never overwritten: when its expansion is not the wanted
 *   value, it is a problem for the caller to report.
 *
 * The result is parsed again and must read as wanted, or this throws (a bug, never a bad file).
 */
import { isAlias, isMap, isNode, isPair, isScalar, isSeq, LineCounter, Scalar, parseAllDocuments, parseDocument, visit, type CST, type Document, type Node, type Pair, type YAMLMap, type YAMLSeq } from 'yaml';
import { isMergeKeyScalar, joinPointer, splitPointer } from '../config/yaml-positions.js';
import { anchorIndex, anchoredBefore, type AnchorIndex } from '../config/yaml-anchors.js';
import { holdsPlaceholder, literalText, losslessRetype } from '../config/interpolate.js';
import { plainYamlDocuments } from '../config/yaml-read.js';
import { MODELINE_COMMENT } from '../config/schema-names.js';
import { crAsLf, lineBreakOf } from '../util/line-break.js';
import { isPlainObject } from '../util/plain.js';
import { addTo } from '../util/multi-map.js';
import { holdsInvisible } from '../util/invisible.js';
import { writtenQuoted } from '../util/written-quoted.js';
import { toYaml } from '../export/yaml.js';
import { flowPadded, flowYaml, indentStepOf, indented, plainReadsOtherwise, scalarSplice } from './yaml-render.js';
import { canonicalJson, sameValue } from '../engine/canonical.js';
import { align, movesIn, nearness } from './list-align.js';

export interface YamlEditRequest {
  /** Document index → what the document should hold (plain values; unchanged parts as read). */
  documents: ReadonlyMap<number, unknown>;
  /** Documents to take out of the file. */
  remove?: ReadonlySet<number>;
  /** The value a `${…}` string stands for (variables substituted), to compare with what is wanted. */
  expand?: (text: string) => string;
  /**
   * YAML 1.1 readers read the file too (a custom template definition, published as written): what
   * is written is quoted where either version would read it as something else.
   */
  bothVersions?: boolean;
  /**
   * Where scalars compare by type too (a custom template's definition): a number live holds is
   * written as a number where the file quoted it. By document index and pointer; none by default.
   */
  exactTypes?: (index: number, pointer: string) => boolean;
  /** False for a data file (a definition), published as written: a `${` there is text, written over as any text is. */
  placeholders?: boolean;
  /**
   * Where a key taken out must be absent, not `null` (no null stands for none there: a reference):
   * a merge that gives it is written out rather than the key written `null` (probe IG-2).
   */
  absentAt?: (index: number, pointer: string) => boolean;
}

export interface YamlEditProblem {
  document: number;
  pointer: string;
  line: number;
  /** The text as written (`${var.legal_lead}`). */
  written: string;
  wanted: unknown;
  /** Given by a merge key (`<<`): a change of its variable reaches every mapping that merges it. */
  merged?: true;
}

export interface YamlEditResult {
  /** The new text; null when every document was removed (the file should go). */
  text: string | null;
  /** Values held by a `${…}` placeholder that live no longer matches: left as written. */
  problems: YamlEditProblem[];
}

interface Splice {
  start: number;
  end: number;
  text: string;
  seq: number;
}

type Parent = { kind: 'pair'; map: YAMLMap; pair: Pair } | { kind: 'item'; seq: YAMLSeq; index: number } | { kind: 'root' };

/** The documents of a file as `yaml` reads them for editing (positions and source tokens kept). */
export function parseForEdit(text: string, lineCounter?: LineCounter): Document.Parsed[] {
  return parseAllDocuments(text, { keepSourceTokens: true, merge: true, uniqueKeys: false, ...(lineCounter ? { lineCounter } : {}) }) as Document.Parsed[];
}

/** A document's value with aliases and merge keys resolved, as docket reads it. */
export function documentValue(doc: Document.Parsed): unknown {
  if (!doc.contents) return null;
  const read = holdsNullKey(doc) ? keysAsRead(doc) : doc;
  return read.contents!.toJS(read, { maxAliasCount: -1 });
}

/** Whether a mapping of the document has a key YAML reads as null (`null:`, `~:`, `: x`). */
function holdsNullKey(doc: Document.Parsed): boolean {
  let found = false;
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === null) {
        found = true;
        return visit.BREAK;
      }
      return undefined;
    },
  });
  return found;
}

/**
 * A copy of the document whose keys YAML reads as null are named as docket reads them (`null:` the
 * name `null`, `~:` as `~`), not as the parser's data model makes them (""): a definition's field
 * named `null` is one like any other, and an edit beside it reads back as written (probe ZK-1).
 */
function keysAsRead(doc: Document.Parsed): Document {
  const copy = doc.clone();
  visit(copy, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === null) pair.key = new Scalar(pair.key.source ?? '');
    },
  });
  return copy;
}

/**
 * The value of every document of a file as docket reads them: by the fast readers where they read
 * the text exactly as the full parser does (several times faster; only the edit itself needs the
 * full parser's positions), else by the full parser.
 */
export function documentValues(text: string): unknown[] {
  return plainYamlDocuments(text) ?? parseForEdit(text).map(documentValue);
}

/**
 * Whether text written at a JSON pointer of a document, where it holds `value`, is written with
 * no final line break: a block scalar that strips it (`|-`, `>-`), or a value inside a flow
 * collection (`{ actions: "…" }`), which stays quoted and would show it as `\n`.
 */
export function writesNoFinalBreak(documents: readonly Document.Parsed[], index: number, pointer: string, value: unknown): boolean {
  const { parent, node } = nodeAt(documents, index, pointer);
  // A key not written yet goes inside its mapping's `{…}`, as a one-line string (probe JA-2).
  if (node === undefined) return isMap(parent) && parent.flow === true;
  if (!isScalar(node) || node.value !== value) return false;
  if ((isMap(parent) || isSeq(parent)) && parent.flow === true) return true;
  if (node.type !== 'BLOCK_LITERAL' && node.type !== 'BLOCK_FOLDED') return false;
  const header = (node.srcToken as CST.BlockScalar | undefined)?.props.find((t) => t.type === 'block-scalar-header');
  return header !== undefined && 'source' in header && header.source.includes('-');
}

/**
 * Whether items added to the list at a JSON pointer are written inside `[…]`: a flow list that
 * keeps items (an empty `[]` that gains one becomes a block list).
 */
export function addsToFlowList(documents: readonly Document.Parsed[], index: number, pointer: string): boolean {
  const { parent, node } = nodeAt(documents, index, pointer);
  if (isSeq(node) && node.flow === true && node.items.length > 0) return true;
  // A list not written yet, or empty, in a flow mapping (`{kind: Playbook, name: X}`) is written in
  // flow style too, as the mapping must hold it (probe XC-3).
  return (node === undefined || (isSeq(node) && node.items.length === 0)) && isMap(parent) && parent.flow === true;
}

/**
 * The node at a JSON pointer of a document, and the one holding it, walked node by node: a list
 * takes an index, a mapping a key as written (`"2024"` too).
 */
function nodeAt(documents: readonly Document.Parsed[], index: number, pointer: string): { parent: unknown; node: unknown } {
  let parent: unknown;
  let node: unknown = documents[index]?.contents;
  for (const segment of splitPointer(pointer)) {
    parent = node;
    node = isSeq(node) ? node.get(Number(segment), true) : isMap(node) ? node.get(segment, true) : undefined;
  }
  return { parent, node };
}

/** How many of the documents `removed` come before document `index`: its index once they are gone. */
export function removedBefore(removed: ReadonlySet<number>, index: number): number {
  let n = 0;
  for (const r of removed) if (r < index) n++;
  return n;
}

/** A file with no line break after its last line keeps it so when that line is still last and unchanged. */
function unended(before: string, after: string): string {
  const last = before.slice(before.lastIndexOf('\n') + 1);
  const eol = lineBreakOf(before);
  return `\n${after}`.endsWith(`\n${last}${eol}`) ? after.slice(0, -eol.length) : after;
}

/**
 * The text with each byte-order mark that starts a later document before a comment or a marker
 * parked inside a comment (`#\uFEFF`, `--- #\uFEFF`), where the editing parser reads past it;
 * read so, the file's documents are what editYaml edits.
 */
export function parkedBoms(text: string): string {
  // Parked only where putting back can find exactly what was parked: a text that holds either form
  // already (a comment, a value's line) is left as it is, and an edit of it fails safe if it must.
  if (!text.includes('\uFEFF') || LOOKS_PARKED.test(text)) return text;
  return text.replace(BOM_BEFORE_COMMENT, '#$1').replace(BOM_BEFORE_MARKER, '$2 #$1');
}

/**
 * The text as editYaml parses it: the marks that start the file set aside, later ones parked, and
 * a lone CR a line break, as the loader reads it: the library's parser takes it for text, so the
 * whole file read as one key or none (probe EB-1).
 */
export function asEdited(text: string): string {
  return parkedBoms(crAsLf(text.replace(/^\uFEFF+/, '')));
}

const LONE_CR = /\r(?!\n)/;
const BOM_BEFORE_COMMENT = /^(\uFEFF+)#/gm;
/** Either parked form, anywhere (not global: `test` keeps no position between calls). */
const LOOKS_PARKED = /^(?:#|(?:---|\.\.\.) #)\uFEFF/m;
const PARKED_IN_COMMENT = /^#(\uFEFF+)/gm;
// A marker with nothing after it but a comment: what follows it on its line would be parked too.
const BOM_BEFORE_MARKER = /^(\uFEFF+)(---|\.\.\.)(?=[ \t]*(?:#[^\n]*)?\r?$)/gm;
const PARKED_AFTER_MARKER = /^(---|\.\.\.) #(\uFEFF+)/gm;

export function editYaml(text: string, request: YamlEditRequest): YamlEditResult {
  // A byte-order mark is no part of the first line (its indentation would count it): edited
  // without it, and kept whatever document comes first.
  if (text.startsWith('\uFEFF')) {
    // A run of them too (a file saved with one, then joined behind another).
    const marks = /^\uFEFF+/.exec(text)![0];
    const edited = editYaml(text.slice(marks.length), request);
    // The first document taken out, a later one's mark now starts the text: one run is enough (probe QN-5).
    return edited.text === null ? edited : { ...edited, text: `${marks}${edited.text.replace(/^\uFEFF+/, '')}` };
  }
  // A byte-order mark that starts a later document (files joined by a tool) before a comment or a
  // marker is text to the editing parser, which then loses the document: parked inside a comment
  // while the file is edited, and put back where it was.
  const parked = parkedBoms(text);
  if (parked !== text) {
    const edited = editYaml(parked, request);
    return edited.text === null ? edited : { ...edited, text: edited.text.replace(PARKED_IN_COMMENT, '$1#').replace(PARKED_AFTER_MARKER, '$2$1') };
  }
  // Lines ended by a lone CR (classic Mac OS), which YAML reads as line breaks: edited as LF and
  // written back with CR. The editing parser knows only LF and CRLF: it lost the document, or its
  // quotes (probe JH-4). A file that mixes a lone CR with LF could not be given back as it was.
  if (LONE_CR.test(text)) {
    if (text.includes('\n')) throw new Error('it holds a carriage return not followed by a line feed among lines ended by one, which docket cannot write back as it was: give its lines one line break');
    const edited = editYaml(text.replace(/\r/g, '\n'), request);
    return edited.text === null ? edited : { ...edited, text: edited.text.replace(/\n/g, '\r') };
  }
  // Edited as if it ended its last line: what is added after it must not be glued onto it. The
  // last line, when it is still last, stays without its line break.
  if (text !== '' && !text.endsWith('\n')) {
    const edited = editYaml(`${text}${lineBreakOf(text)}`, request);
    return edited.text === null ? edited : { ...edited, text: unended(text, edited.text) };
  }
  const lines = new LineCounter();
  const docs = parseForEdit(text, lines);
  const splices: Splice[] = [];
  const problems: YamlEditProblem[] = [];
  const nulled = new Set<string>();
  const remove = request.remove ?? new Set<number>();
  if (docs.length > 0 && docs.every((_, i) => remove.has(i))) return { text: null, problems };

  // What is written new (a key, an item, text that becomes a block) is indented as the file is.
  const step = indentStepOf(text);
  docs.forEach((doc, index) => {
    if (remove.has(index)) {
      // The first document goes with the comments right above it (not the file's header); a later one from its `---`.
      // With its directives (`%YAML 1.1` above its `---`), and not the next one's, which that one is read by (probe NQ-1).
      const next = docs[index + 1];
      // The last goes without the file's footer; the blank line before it stays unless the document
      // left last ends in a `|+` block, whose text it would join (second reads SR100-7, SR100B-5).
      const kept = docs.slice(0, index).findLast((_, i) => !remove.has(i));
      const nextStart = next ? directivesStart(text, next.range[0]) : fileFooter(text, contentsEnd(doc), !endsInKeptBlock(text, kept));
      // Directives need the document before them ended with `...`: a later one keeps the marker that ended it.
      // The next one keeps the comments right above its `---` too (probe PU-2).
      const end = next && index > 0 && nextStart < next.range[0] ? endMarkerBefore(text, nextStart) : next ? commentsAbove(text, nextStart, contentsEnd(doc)) : nextStart;
      if (index === 0) {
        const header = fileHeader(text);
        // Its directives above the header's comments go with it: the header stays (probe OH-3).
        for (const [start, lineEnd] of header.directives) splices.push({ start, end: lineEnd, text: '', seq: splices.length });
        splices.push({ start: header.end, end: Math.max(header.end, end), text: '', seq: splices.length });
      } else {
        const start = commentsAbove(text, directivesStart(text, doc.range[0]), contentsEnd(docs[index - 1]!));
        // The document above ends with a `...` of its own: this one's goes too, or two would stand together (probe TG-1).
        const endedAbove = end !== nextStart && endMarkerBefore(text, start) < start;
        splices.push({ start, end: endedAbove ? commentsAbove(text, nextStart, contentsEnd(doc)) : end, text: '', seq: splices.length });
      }
      return;
    }
    if (!request.documents.has(index) || !doc.contents) return;
    const wanted = request.documents.get(index);
    const editor = new DocumentEditor(text, doc, { index, splices, problems, nulled, lines, indent: step, expand: request.expand ?? ((s) => s), holds: request.placeholders === false ? () => false : holdsPlaceholder, exactAt: exactTypesIn(request, index), absentAt: (pointer) => request.absentAt?.(index, pointer) ?? false, quote: request.bothVersions || readAsYaml11(doc) ? (t) => plainReadsOtherwise(t) || writtenQuoted(t) : writtenQuoted });
    editor.patch(doc.contents as Node, wanted, '', { kind: 'root' });
    editor.finish();
  });

  // What is written takes the file's line breaks (a file saved on Windows stays CRLF throughout).
  if (lineBreakOf(text) === '\r\n') for (const s of splices) s.text = s.text.replace(/\r?\n/g, '\r\n');
  const out = applySplices(text, splices);
  verify(out, request, problems, docs.length, nulled);
  if (remove.size > 0) verifyUntouched(out, docs, request);
  return { text: out, problems };
}

/**
 * Where the document starting at `docStart` (its `---`) begins with its directives: the `%` lines
 * right above it, past comments and blank lines between them, up to the previous document's end.
 */
function directivesStart(text: string, docStart: number): number {
  let start = docStart;
  for (let lineEnd = docStart; lineEnd > 0; ) {
    const lineStart = text.lastIndexOf('\n', lineEnd - 2) + 1;
    const line = text.slice(lineStart, lineEnd).trim();
    // A directive starts its line; an indented `%` is a line of the text above (probe TG-1).
    if (text.startsWith('%', lineStart)) start = lineStart;
    else if (line !== '' && !line.startsWith('#')) break;
    lineEnd = lineStart;
  }
  return start;
}

/** Where a document's contents end: no comment of the next one is looked for above that (commentsAbove). */
function contentsEnd(doc: Document.Parsed): number {
  return doc.contents?.range?.[2] ?? doc.range[0];
}

/**
 * Where the comment lines right above `at` (a line start) begin: those with no blank line between
 * are the document's there. Never before `floor`, where the document before it ends its contents:
 * a block scalar's line starting with `#` is text, no comment (second read SR82-1).
 */
function commentsAbove(text: string, at: number, floor: number): number {
  let start = at;
  for (let lineEnd = at; lineEnd > floor; ) {
    const lineStart = text.lastIndexOf('\n', lineEnd - 2) + 1;
    if (lineStart < floor || !text.slice(lineStart, lineEnd).trim().startsWith('#')) break;
    start = lineStart;
    lineEnd = lineStart;
  }
  // Comment lines right under the document above, no blank line or `...` between, are its own (a
  // key commented out at its end), not the next one's (probe QN-3).
  const above = start < at && start > 0 ? text.slice(text.lastIndexOf('\n', start - 2) + 1, start).trim() : '';
  return above !== '' && above !== '...' && !above.startsWith('... ') ? at : start;
}

/** Where the `...` line that ends the document before `at` starts (past comments and blank lines), or `at`. */
function endMarkerBefore(text: string, at: number): number {
  for (let lineEnd = at; lineEnd > 0; ) {
    const lineStart = text.lastIndexOf('\n', lineEnd - 2) + 1;
    const line = text.slice(lineStart, lineEnd).trim();
    // A marker starts its line; an indented `...` is text of a block scalar (second read SR92-2).
    if ((line === '...' || line.startsWith('... ')) && text.startsWith('...', lineStart)) return lineStart;
    if (line !== '' && !line.startsWith('#')) return at;
    lineEnd = lineStart;
  }
  return at;
}

/** After documents are taken out, the others still read as they did: a directive cut with one would change how the next is read. */
function verifyUntouched(text: string, docs: readonly Document.Parsed[], request: YamlEditRequest): void {
  const after = parsedValues(text);
  const remove = request.remove ?? new Set<number>();
  docs.forEach((doc, index) => {
    if (remove.has(index) || request.documents.has(index)) return;
    const at = index - removedBefore(remove, index);
    if (canonicalJson(after[at]) !== canonicalJson(documentValue(doc))) throw new Error(`taking out a document would change how document ${index + 1} reads`);
  });
}

/** A document under `%YAML 1.1`, which reads `yes`, `on` and `2026-01-01` plain as other than text. */
function readAsYaml11(doc: Document.Parsed): boolean {
  return doc.directives?.yaml.version === '1.1';
}

/**
 * Where a file's header ends: its leading comment lines up to the last blank line or editor
 * modeline among them. The comments after that, right above the first document, are its own, and
 * so are the directive lines (`%YAML 1.2`) among the header's, each as [start, end).
 */
function fileHeader(text: string): { end: number; directives: [number, number][] } {
  let end = 0;
  const directives: [number, number][] = [];
  for (let at = 0; at < text.length; ) {
    const next = text.indexOf('\n', at);
    const lineEnd = next === -1 ? text.length : next + 1;
    const line = text.slice(at, lineEnd).trim();
    if (line === '' || MODELINE_COMMENT.test(line)) end = lineEnd;
    else if (line.startsWith('%')) directives.push([at, lineEnd]);
    else if (!line.startsWith('#')) break;
    at = lineEnd;
  }
  return { end, directives: directives.filter(([start]) => start < end) };
}

/**
 * Where the file's footer starts below its last document's contents (`floor`): the comment lines at
 * its end that a blank line, the document's `...` or an editor's modeline set apart. They stay when
 * that document goes, as the header does with the first (probe BA-1), with the blank line before
 * them when `keepBlank`; comment lines right under the contents are the document's.
 */
function fileFooter(text: string, floor: number, keepBlank: boolean): number {
  // The run of blank and comment lines that ends the file, first to last.
  const lines: { start: number; line: string }[] = [];
  for (let lineEnd = text.length; lineEnd > floor; ) {
    const lineStart = text.lastIndexOf('\n', lineEnd - 2) + 1;
    if (lineStart < floor) break;
    const line = text.slice(lineStart, lineEnd).trim();
    const marker = (line === '...' || line.startsWith('... ')) && text.startsWith('...', lineStart);
    if (line !== '' && !line.startsWith('#') && !marker) break;
    lines.unshift({ start: lineStart, line: marker ? '...' : line });
    lineEnd = lineStart;
  }
  let blank: number | undefined;
  let parted = false;
  for (const { start, line } of lines) {
    if (MODELINE_COMMENT.test(line)) return start;
    if (parted && line.startsWith('#')) return keepBlank && blank !== undefined ? blank : start;
    if (line === '') blank ??= start;
    if (line === '' || line === '...') parted = true;
  }
  return text.length;
}

/** Whether a document's last value is a block scalar that keeps its final line breaks (`|+`, `>2+`). */
function endsInKeptBlock(text: string, doc: Document.Parsed | undefined): boolean {
  let node = doc?.contents as Node | null | undefined;
  while (node && (isMap(node) || isSeq(node))) {
    const last = (node.items as unknown[]).at(-1);
    node = isPair(last) ? (last.value as Node | null) : ((last as Node | undefined) ?? null);
  }
  if (!node || !isScalar(node) || (node.type !== 'BLOCK_LITERAL' && node.type !== 'BLOCK_FOLDED') || !node.range) return false;
  const header = text.slice(node.range[0], text.indexOf('\n', node.range[0]));
  return /^[|>](?:\d?\+|\+\d?)/.test(header.trim());
}

function applySplices(text: string, splices: Splice[]): string {
  // From the end, so earlier offsets stay valid; at one offset, a removal before an insertion,
  // and insertions in the order they were made (applied last first).
  const sorted = [...splices].sort((a, b) => b.start - a.start || b.end - a.end || b.seq - a.seq);
  // Pieces gathered from the end and joined once: a slice and a concatenation of the whole text
  // per splice made a thousand edits of one file take seconds.
  const pieces: string[] = [];
  let limit = text.length;
  for (const s of sorted) {
    if (s.end > limit) throw new Error(`overlapping YAML edits at offset ${s.start}`);
    pieces.push(text.slice(s.end, limit), s.text);
    limit = s.start;
  }
  pieces.push(text.slice(0, limit));
  return pieces.reverse().join('');
}

/** The edited text must read as wanted (placeholders left as written excepted). */
function verify(text: string, request: YamlEditRequest, problems: YamlEditProblem[], documentsBefore: number, nulled: ReadonlySet<string>): void {
  const plain = plainYamlDocuments(text);
  const kept = plain?.length === documentsBefore - (request.remove?.size ?? 0) ? plain : parsedValues(text);
  // Where a key was written `null`, as the document stood before the edit: an item removed above it
  // in its list (a rule deleted in the app) moved it since, so its place outside lists counts (probe ZH-1).
  const nulledShapes = new Set([...nulled].map(outsideLists));
  for (const [index, wanted] of request.documents) {
    // A document edited and then taken out (its children's edits came first) is not there to read.
    if (request.remove?.has(index)) continue;
    const at = index - removedBefore(request.remove ?? new Set(), index);
    if (at >= kept.length) throw new Error(`the edited YAML lost document ${index + 1}`);
    const got = kept[at];
    const mismatch = firstMismatch(got, wanted, '', {
      expand: request.expand ?? ((s) => s),
      problems: problems.filter((p) => p.document === index),
      nulledAt: (pointer) => nulled.has(`${index}\u0000${pointer}`) || nulledShapes.has(outsideLists(`${index}\u0000${pointer}`)),
      exactAt: exactTypesIn(request, index),
    });
    const where = kept.length > 1 ? ` of document ${index + 1}` : '';
    if (mismatch !== undefined) throw new Error(`the edited YAML reads differently at ${mismatch || 'the document root'}${where}`);
  }
}

/** Every document's value by the full parser; throws when the text does not parse. */
function parsedValues(text: string): unknown[] {
  const docs = parseForEdit(text);
  const errors = docs.flatMap((d) => d.errors);
  if (errors.length > 0) throw new Error(`the edited YAML does not parse: ${errors[0]!.message}`);
  return docs.map(documentValue);
}

/** Where scalars of document `index` compare by type too (YamlEditRequest.exactTypes). */
function exactTypesIn(request: YamlEditRequest, index: number): (pointer: string) => boolean {
  return (pointer) => request.exactTypes?.(index, pointer) ?? false;
}

interface MismatchContext {
  expand: (s: string) => string;
  problems: YamlEditProblem[];
  /** Keys written `null` so that a merged value does not show through. */
  nulledAt: (pointer: string) => boolean;
  /** Where a number is not the quoted text of it (see YamlEditRequest.exactTypes). */
  exactAt: (pointer: string) => boolean;
}

/** A pointer with each list index as `#`: its place outside lists. */
function outsideLists(pointer: string): string {
  return pointer.replace(/\/\d+(?=\/|$)/g, '/#');
}

/** Two pointers the same but for list indexes (\`/rules/1/reviewer\` and \`/rules/2/reviewer\`). */
function samePlaceOutsideLists(a: string, b: string): boolean {
  return outsideLists(a) === outsideLists(b);
}

function firstMismatch(got: unknown, wanted: unknown, pointer: string, check: MismatchContext): string | undefined {
  const { expand, problems, nulledAt } = check;
  if (typeof got === 'string' && holdsPlaceholder(got) && problems.some((p) => p.pointer === pointer || pointer.startsWith(`${p.pointer}/`) || leftAsWritten(p, got, wanted, pointer))) return undefined;
  if (typeof got === 'string' && holdsPlaceholder(got) && standsFor(got, wanted, expand, true)) return undefined;
  // Items holding a placeholder live has no value for stay, said as problems: not in what is wanted.
  if (Array.isArray(got) && Array.isArray(wanted) && got.length > wanted.length) {
    const left = got.filter((item) => !(typeof item === 'string' && holdsPlaceholder(item) && problems.some((p) => p.written === item && p.wanted === null && p.pointer.startsWith(`${pointer}/`))));
    if (left.length < got.length) return firstMismatch(left, wanted, pointer, check);
  }
  if (Array.isArray(got) && Array.isArray(wanted) && got.length === wanted.length) {
    for (let i = 0; i < got.length; i++) {
      const m = firstMismatch(got[i], wanted[i], joinPointer(pointer, i), check);
      if (m !== undefined) return m;
    }
    return undefined;
  }
  // A placeholder live has no value for stays, said as a problem: its key is not in what is wanted.
  // And a key written `null` over a merged value that live has none for. The problem's pointer is
  // where the key was written before the edit: a list item may have moved since (a rule added or
  // removed above it in the app), so a problem of that key and that text, where it sat then, counts.
  const kept = (k: string): boolean => {
    const value = (got as Record<string, unknown>)[k];
    if (value === null) return nulledAt(joinPointer(pointer, k));
    return typeof value === 'string' && holdsPlaceholder(value) && problems.some((p) => p.pointer === joinPointer(pointer, k) || (p.written === value && samePlaceOutsideLists(p.pointer, joinPointer(pointer, k))));
  };
  if (isPlainObject(got) && isPlainObject(wanted) && sameKeys(Object.fromEntries(Object.entries(got).filter(([k]) => Object.hasOwn(wanted, k) || !kept(k))), wanted)) {
    for (const k of Object.keys(wanted)) {
      const m = firstMismatch(got[k], wanted[k], joinPointer(pointer, k), check);
      if (m !== undefined) return m;
    }
    return undefined;
  }
  // A number written quoted stays quoted (yaml-render.ts), and its kind compares it by value.
  if (typeof wanted === 'number' && got === String(wanted) && !check.exactAt(pointer)) return undefined;
  return sameValue(got, wanted) ? undefined : pointer;
}

/**
 * The problem of this value, found by what it is rather than where it was: a problem's pointer is
 * the document's before the edit, and an item removed before it in its list moved it.
 */
function leftAsWritten(p: YamlEditProblem, got: string, wanted: unknown, pointer: string): boolean {
  return p.written === got && sameValue(p.wanted, wanted) && p.pointer.slice(p.pointer.lastIndexOf('/')) === pointer.slice(pointer.lastIndexOf('/'));
}

function sameKeys(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a).sort();
  const kb = Object.keys(b).sort();
  return ka.length === kb.length && ka.every((k, i) => k === kb[i]);
}


interface EditorContext {
  index: number;
  splices: Splice[];
  problems: YamlEditProblem[];
  lines: LineCounter;
  expand: (text: string) => string;
  /** Whether a string holds a placeholder, which stands for a value (never, in a data file). */
  holds: (text: string) => boolean;
  /** Text to write quoted even where YAML 1.2 would read it plain (see `bothVersions`). */
  quote?: (text: string) => boolean;
  /** Where a number is written as one, not kept in a quoted value's quotes (see `exactTypes`). */
  exactAt: (pointer: string) => boolean;
  /** Where a key taken out must be absent, not `null` (see YamlEditRequest.absentAt). */
  absentAt: (pointer: string) => boolean;
  /** How many spaces the file indents a level by (2 unless it says otherwise). */
  indent: number;
  /** `index\0pointer` of keys written `null` so that a merged value does not show through: absent from what is wanted. */
  nulled: Set<string>;
}

/** The values a mapping or list holds (a mapping's by key order), none for a scalar. */
function childrenOf(node: Node): (Node | null)[] {
  // Keys too: one may hold an anchor (`&k name:`) or be an alias (`*k : R2`).
  return isMap(node) ? node.items.flatMap((pair) => [isNode(pair.key) ? pair.key : null, pair.value as Node | null]) : isSeq(node) ? (node.items as Node[]) : [];
}

/** The nodes a merge key (`<<: *a` or `<<: [*a, *b]`) merges. */
function mergeSources(pair: Pair): Node[] {
  return isSeq(pair.value) ? (pair.value.items as Node[]) : [pair.value as Node];
}

/** What may follow an item or key on a line of its own: its comma, a comment, the line break. */
const REST_OF_OWN_LINE = /^[ \t]*,?[ \t]*(#[^\n]*)?\r?\n?$/;

/** `key: value` as an item of a flow mapping, without its braces. */
function flowPair(key: string, value: unknown, quote: ((text: string) => boolean) | undefined, padded: boolean): string {
  return flowYaml({ [key]: value }, quote, padded).replace(/^\{ ?| ?\}$/g, '');
}

/** An item added to a flow list: its text, and the whole lines it is written on when it moves as written. */
interface FlowInsert {
  before: number;
  text: string;
  line?: string;
}

/** The characters that end or split a plain scalar inside a flow collection. */
const FLOW_INDICATOR = /[[\]{},]/;

/** What an anchor holds once the edit takes it out (its node removed or written anew): an alias of it must be written out. */
const GONE = Symbol('anchor gone');

class DocumentEditor {
  /**
   * Anchor name → what its node will hold, set as the edit reaches it in document order (so an
   * alias, which follows its anchor, finds the definition it refers to, wherever items moved).
   */
  private readonly anchorValues = new Map<string, unknown>();
  /** Nodes with an anchor somewhere inside (themselves included). */
  private readonly anchorHolders = new Set<Node>();
  /** Nodes with an alias (or merge key) somewhere inside: never skipped as unchanged, since their anchor may change. */
  private readonly carriers = new Set<Node>();
  /** Indexes of the items to take out of flow collections, by collection: taken out in finish(). */
  private readonly flowRemovals = new Map<YAMLMap | YAMLSeq, number[]>();
  /** Items to add to flow lists (the index of the item each goes before, as written), in order: added in finish(), knowing what goes. */
  private readonly flowInserts = new Map<YAMLSeq, FlowInsert[]>();
  /** Block mappings whose first key, on its item's `- ` line, is taken out: the next key kept moves up there in finish(), knowing which goes. */
  private readonly dashLineRemovals = new Map<YAMLMap, Pair>();
  /** Keys added to flow mappings, with the splices that add them: a mapping that loses every key it had is written whole with them. */
  private readonly flowMapAdds = new Map<YAMLMap, { splices: Splice[]; item: string }[]>();
  /** Pairs of block mappings taken out, and the splices that take each mapping's out of their own lines. */
  private readonly removedPairs = new Set<Pair>();
  private readonly lineRemovals = new Map<YAMLMap, Splice[]>();
  /** The first key added right after a block mapping's first key on its `- ` line: it takes that line when that key goes. */
  private readonly dashLineInserts = new Map<YAMLMap, Splice>();

  constructor(
    private readonly text: string,
    private readonly doc: Document.Parsed,
    private readonly ctx: EditorContext,
  ) {
    this.walk(doc.contents as Node | null);
  }

  /** Records alias carriers and anchor holders; true when `node` holds an alias. */
  private walk(node: Node | null): boolean {
    if (!node) return false;
    let carries = isAlias(node);
    let anchored = Boolean(node.anchor);
    for (const child of childrenOf(node)) {
      carries = this.walk(child) || carries;
      anchored = (child !== null && this.anchorHolders.has(child)) || anchored;
    }
    if (carries) this.carriers.add(node);
    if (anchored) this.anchorHolders.add(node);
    return carries;
  }

  /** The anchors inside a node the edit leaves as it is hold what they hold now; inside one it takes out or rewrites, nothing. */
  private noteAnchorsIn(node: Node | null, gone = false): void {
    if (!node || !this.anchorHolders.has(node)) return;
    if (node.anchor) this.anchorValues.set(node.anchor, gone ? GONE : this.resolved(node));
    for (const child of childrenOf(node)) this.noteAnchorsIn(child, gone);
  }

  private resolved(node: Node | null): unknown {
    if (!node) return null;
    // An alias by its anchor, found in a list made once: yaml's own resolve walks the whole
    // document for each alias, and a file of 4,000 rules sharing one took a minute (probe QI-2).
    const target = isAlias(node) ? this.anchoredFor(node) : node;
    return (target ?? node).toJS(this.doc, { maxAliasCount: -1 });
  }

  /** The document's anchors, indexed at its first alias (its nodes stay as read: edits are splices of its text). */
  private anchors: AnchorIndex | undefined;

  /** The node an alias names, as yaml resolves it. */
  private anchoredFor(alias: Node & { source: string }): Node | undefined {
    this.anchors ??= anchorIndex(this.doc);
    return anchoredBefore(this.anchors, alias.source, alias.range?.[0] ?? 0);
  }

  private splice(start: number, end: number, text: string): void {
    this.ctx.splices.push({ start, end, text, seq: this.ctx.splices.length });
  }

  /** Takes back splices made earlier, which a later one writing their text too replaces. */
  private withdraw(splices: readonly Splice[]): void {
    for (const s of splices) {
      const at = this.ctx.splices.indexOf(s);
      if (at >= 0) this.ctx.splices.splice(at, 1);
    }
  }

  /**
   * Takes out the items of flow collections once every item of each is decided: an item before one
   * that stays goes with the `, ` after it, one after the last that stays with the `, ` before it,
   * so two items taken out at the end never overlap (each alone would take the comma they share).
   */
  finish(): void {
    for (const [map, first] of this.dashLineRemovals) this.removeFromDashLine(map, first);
    for (const collection of new Set([...this.flowRemovals.keys(), ...this.flowInserts.keys()])) {
      const removed = new Set(this.flowRemovals.get(collection) ?? []);
      const inserts = isSeq(collection) ? (this.flowInserts.get(collection) ?? []) : [];
      if (inserts.length > 0 && this.replacedWhole(collection as YAMLSeq, removed, inserts)) continue;
      this.addFlowItems(collection as YAMLSeq, inserts, removed);
      if (removed.size === 0) continue;
      const items = collection.items as (Pair | Node)[];
      // With its anchor and tag: the next item's would go with this one (probe SR-4).
      const start = (i: number): number => {
        const item = items[i]!;
        return isPair(item) ? propertiesStart(this.text, (item.key as Node).range![0]) : this.itemStart(item);
      };
      const end = (i: number): number => {
        const item = items[i]!;
        return isPair(item) ? this.pairEnd(item) : item.range![1];
      };
      const lastKept = items.findLastIndex((_, i) => !removed.has(i));
      if (lastKept < 0) {
        // The keys added go in whole, their own splices (inside what goes) withdrawn (second read SR85B-3).
        const adds = isMap(collection) ? (this.flowMapAdds.get(collection) ?? []) : [];
        for (const add of adds) this.withdraw(add.splices);
        const inner = adds.map((a) => a.item).join(', ');
        const padded = this.paddedIn(collection);
        this.splice(collection.range![0], collection.range![1], isMap(collection) ? (inner === '' ? '{}' : padded ? `{ ${inner} }` : `{${inner}}`) : '[]');
        continue;
      }
      // Written an item a line: each goes with its line, its comment included, and the comment lines
      // right above it, as a block list's item does (probe IU-2); the comma after the last one kept
      // stays (YAML takes `[a, b,]`), so no comment moves to another item.
      const lines = [...removed].map((i) => ({ i, line: this.ownLine(start(i), end(i)) }));
      if (lines.every(({ line }) => line !== undefined)) {
        for (const { i, line } of lines) this.splice(this.aboveComments(line![0], this.flowItemFloor(collection, i)), line![1], '');
        continue;
      }
      // A run of items ending a line whose next item starts the next line: cut from the kept item
      // before the run, so the line break and the next item's indent stay (probe BA-3).
      const inRun = new Set<number>();
      for (const i of removed) {
        if (i >= lastKept || !this.text.slice(end(i), start(i + 1)).includes('\n')) continue;
        let kept = i - 1;
        while (kept >= 0 && removed.has(kept)) kept--;
        if (kept < 0 || this.text.slice(end(kept), start(i)).includes('\n')) continue;
        this.splice(end(kept), end(i), '');
        for (let j = kept + 1; j <= i; j++) inRun.add(j);
      }
      for (const i of removed) {
        if (inRun.has(i)) continue;
        if (i < lastKept) this.splice(start(i), start(i + 1), '');
        else if (i > lastKept + 1 || !this.keptComment(end(lastKept), start(i), end(i))) this.splice(end(i - 1), end(i), '');
      }
    }
    this.flowRemovals.clear();
    this.flowInserts.clear();
  }

  /**
   * Every item of a flow list taken out and others added: written an item a line, the lines go and
   * the new ones take their place; else the list is written anew on its line (`[]`, then items
   * inside it, would be two edits of one place).
   */
  private replacedWhole(seq: YAMLSeq, removed: ReadonlySet<number>, inserts: readonly FlowInsert[]): boolean {
    const items = seq.items as Node[];
    if (items.some((_, i) => !removed.has(i))) return false;
    const lines = this.itemLines(seq);
    if (lines) {
      const indent = this.text.slice(lines[0]![0], this.itemStart(items[0]!));
      lines.forEach(([from, to], i) => this.splice(this.aboveComments(from, this.flowItemFloor(seq, i)), to, ''));
      const at = this.aboveComments(lines[0]![0], this.flowItemFloor(seq, 0));
      this.splice(at, at, inserts.map((i) => i.line ?? `${indent}${i.text},\n`).join(''));
    } else {
      const pad = /^\[[ \t]/.test(this.text.slice(seq.range![0])) ? ' ' : '';
      this.splice(seq.range![0], seq.range![1], `[${pad}${inserts.map((i) => i.text).join(', ')}${pad}]`);
    }
    return true;
  }

  /**
   * Items added to a flow list. Written an item a line, each gets a line of its own, indented as the
   * one it goes beside, with its comma (after the last item, that one gets its comma if it has none,
   * or, taken out, gives its place); else it goes beside the item, with its comma.
   */
  private addFlowItems(seq: YAMLSeq, inserts: readonly FlowInsert[], removed: ReadonlySet<number>): void {
    if (inserts.length === 0) return;
    const items = seq.items as Node[];
    const lines = this.itemLines(seq);
    const last = items.at(-1)!;
    const lastLine = lines?.at(-1);
    // Indented as the item, not with its anchor or tag (`&a {…}`), which would name a second node.
    const lineOf = (line: [number, number], item: Node, insert: FlowInsert): string => insert.line ?? `${this.text.slice(line[0], this.itemStart(item))}${insert.text},\n`;
    let commaGiven = false;
    for (const insert of inserts) {
      const { before, text } = insert;
      // Above the comment lines over the item it goes before, which are that item's (and go with it).
      if (lines && before < items.length) {
        const line = lines[before]!;
        const at = this.aboveComments(line[0], this.flowItemFloor(seq, before));
        this.splice(at, at, lineOf(line, items[before]!, insert));
      } else if (lastLine && removed.has(items.length - 1)) {
        const at = this.aboveComments(lastLine[0], this.flowItemFloor(seq, items.length - 1));
        this.splice(at, at, lineOf(lastLine, last, insert));
      } else if (lastLine) {
        if (!commaGiven && !/^[ \t]*,/.test(this.text.slice(last.range![1], lastLine[1]))) this.splice(last.range![1], last.range![1], ',');
        commaGiven = true;
        this.splice(lastLine[1], lastLine[1], lineOf(lastLine, last, insert));
      } else if (before < items.length) this.splice(items[before]!.range![0], items[before]!.range![0], `${text}, `);
      else this.splice(last.range![1], last.range![1], `, ${text}`);
    }
  }

  /** Where an item of a collection starts: at its anchor or tag, which go and come with it (probe SR-4). */
  private itemStart(item: Node): number {
    return propertiesStart(this.text, item.range![0]);
  }

  /** The lines of a flow list's items, when each has lines of its own (as ownLine finds them). */
  private itemLines(seq: YAMLSeq): [number, number][] | undefined {
    const lines: [number, number][] = [];
    for (const item of seq.items as Node[]) {
      // From its anchor or tag: `&a {…}` on a line of its own is an item a line too (probe IN-2).
      const line = item.range ? this.ownLine(this.itemStart(item), item.range[1]) : undefined;
      if (!line) return undefined;
      lines.push(line);
    }
    return lines.length > 0 ? lines : undefined;
  }

  /** The line an item of a flow collection has to itself (with its comma and comment), as [start, end). */
  private ownLine(start: number, end: number): [number, number] | undefined {
    const from = this.lineStart(start);
    if (this.text.slice(from, start).trim() !== '') return undefined;
    const to = this.afterLine(end);
    return REST_OF_OWN_LINE.test(this.text.slice(end, to)) ? [from, to] : undefined;
  }

  /**
   * The first item taken out after the last one kept, where a comment follows that one's comma (a
   * flow list over several lines): the comma and the item go, the comment stays. False when there
   * is no such comment (or no plain comma to find), for the usual cut.
   */
  private keptComment(keptEnd: number, itemStart: number, itemEnd: number): boolean {
    const comma = this.text.indexOf(',', keptEnd);
    if (comma < 0 || comma > itemStart || this.text.slice(keptEnd, comma).includes('#')) return false;
    const comment = this.text.indexOf('#', comma);
    if (comment < 0 || comment > itemStart) return false;
    const lineEnd = this.text.indexOf('\n', comment);
    if (lineEnd < 0 || lineEnd > itemStart) return false;
    this.splice(comma, comma + 1, '');
    // What follows the item (the closing bracket, an item added) stays at the item's column: at the
    // line's start it would be less indented than the collection's block (probe PU-1).
    const before = this.text.slice(this.lineStart(itemStart), itemStart);
    this.splice(lineEnd + 1, itemEnd, before.trim() === '' ? before : '');
    return true;
  }

  /** Makes `node` (at `pointer`, reached through `parent`) hold `wanted`. */
  patch(node: Node | null, wanted: unknown, pointer: string, parent: Parent): void {
    // What the anchor will hold, for the aliases after it: its pointer in the file may no longer
    // be its place in what is wanted (an item inserted before it).
    if (node?.anchor) this.anchorValues.set(node.anchor, wanted);
    // A placeholder reached through an alias stands for its variable as one written here does.
    const aliased = isAlias(node) ? this.placeholderIn(node) : undefined;
    if (aliased !== undefined) {
      // Wanted as written (a field pull does not change keeps its placeholder), or as it expands: nothing to say.
      if (aliased !== wanted && !standsFor(aliased, wanted, this.ctx.expand, false)) this.ctx.problems.push({ document: this.ctx.index, pointer, line: this.lineOf(node!.range![0]), written: aliased, wanted });
      // Its anchor taken out, it would not parse: written out as the placeholder it stands for (probe VA-1).
      if (isAlias(node) && this.anchorWanted(node.source, node) === GONE) this.replace(node, aliased, parent);
      return;
    }
    if (isAlias(node)) {
      this.patchAlias(node, wanted, parent);
      return;
    }
    if (!(node && this.carriers.has(node)) && sameValue(this.resolved(node), wanted)) {
      this.noteAnchorsIn(node);
      return;
    }
    // Only a placeholder stands for a value; `$${` is the text `${`, overwritten as any text is.
    if (isScalar(node) && typeof node.value === 'string' && this.ctx.holds(node.value)) {
      // Quoted where numbers compare by value (a fee's `cost: "${var.fee}"`), it stands for the number it spells.
      const spelled = typeof wanted === 'number' && !this.ctx.exactAt(pointer) && this.ctx.expand(node.value) === String(wanted);
      if (!spelled && !standsFor(node.value, wanted, this.ctx.expand, node.type === 'PLAIN')) {
        this.ctx.problems.push({ document: this.ctx.index, pointer, line: this.lineOf(node.range![0]), written: node.value, wanted });
      }
      return;
    }
    // Not `key:` with nothing written (a null); `""` keeps its quotes (probe QN-4).
    if (isScalar(node) && isScalarValue(wanted) && node.srcToken && (node.source !== '' || node.type === Scalar.QUOTE_DOUBLE || node.type === Scalar.QUOTE_SINGLE)) {
      const s = scalarSplice(node, wanted, this.inFlow(parent), this.ctx.quote, this.ctx.indent, this.ctx.exactAt(pointer));
      // A type tag the new value does not have would make it read back as another (`!!null What?` is no text).
      const tag = node.tag !== undefined && !tagFits(node.tag, wanted, s.text) ? tagBefore(this.text, node.range![0]) : undefined;
      if (tag) this.splice(tag.start, tag.end, '');
      this.splice(s.start, s.end, s.text);
      return;
    }
    if (isMap(node) && isPlainObject(wanted)) {
      if (this.emptiesBlockMap(node, wanted, pointer, parent)) this.emptyMap(node, parent);
      else this.patchMap(node, wanted, pointer);
      return;
    }
    if (isSeq(node) && Array.isArray(wanted)) {
      this.patchSeq(node, wanted, pointer, parent);
      return;
    }
    this.replace(node, wanted, parent);
  }

  /** An alias keeps pointing at its anchor while the two must hold the same (and the anchor stays); otherwise it is written out. */
  private patchAlias(node: Node & { source: string }, wanted: unknown, parent: Parent): void {
    const anchor = this.anchorWanted(node.source, node);
    if (anchor !== GONE && sameValue(anchor, wanted)) return;
    this.replace(node, wanted, parent);
  }

  /**
   * What the anchor an alias names will hold once the document is edited: as now if the edit has
   * not reached it, GONE if the edit takes it out.
   */
  private anchorWanted(name: string, alias: Node): unknown {
    return this.anchorValues.has(name) ? this.anchorValues.get(name) : this.resolved(alias);
  }

  private patchMap(map: YAMLMap, wanted: Record<string, unknown>, pointer: string): void {
    const own = new Map<string, Pair>();
    for (const pair of map.items) if (!isMergeKey(pair)) own.set(keyOf(pair, this.doc), pair);
    // A merge key of this mapping may name an anchor in one of its own values: those go first.
    // Only then: otherwise document order, so a key taken out marks its anchor gone before an
    // alias of it in a later value is looked at (and written out, probe OH-1).
    const early = new Set<Pair>();
    if (map.items.some(isMergeKey)) for (const pair of own.values()) {
      const k = keyOf(pair, this.doc);
      if (!this.anchorHolders.has(pair.value as Node) || !Object.hasOwn(wanted, k)) continue;
      this.keepKey(pair, map);
      this.patch(pair.value as Node | null, wanted[k], joinPointer(pointer, k), { kind: 'pair', map, pair });
      early.add(pair);
    }
    let merged: Record<string, unknown> = {};
    for (const pair of map.items) if (isMergeKey(pair)) Object.assign(merged, this.mergedValues(pair));
    // The merges are written out as the keys they gave (YAML has no way to say a merged key is
    // absent, and an alias of an anchor taken out would not parse): when one of their anchors goes,
    // or one gains a key this mapping must not have, where `null` would say something else (a
    // default left out, a `renamed_from` the rule never had).
    const writtenOut = this.mergesWrittenOut(map, merged, wanted, pointer);
    if (writtenOut) {
      // A placeholder the merge gave stays the mapping's own, pointing at its variable: where live
      // differs from what it gives, that is said, as for any placeholder, not written over.
      for (const [k, v] of Object.entries(merged)) {
        if (own.has(k) || typeof v !== 'string' || !this.ctx.holds(v) || !Object.hasOwn(wanted, k)) continue;
        // Wanted as written (a field pull does not change keeps its placeholder), or as it expands: nothing to say.
        if (v !== wanted[k] && !standsFor(v, wanted[k], this.ctx.expand, false)) this.ctx.problems.push({ document: this.ctx.index, pointer: joinPointer(pointer, k), line: this.lineOf(map.range![0]), written: v, wanted: wanted[k] });
        wanted = { ...wanted, [k]: v };
      }
      merged = {};
    }
    /** Own keys the edit takes out whose merged value would show through: written `null` where they are. */
    const nulledInPlace = new Set<Pair>();
    for (const pair of map.items) {
      // A merge of an anchor the edit took out goes too: what it gave is written in the mapping below.
      if (isMergeKey(pair) && (writtenOut || this.mergesOnlyGone(pair))) this.removePair(map, pair);
      if (isMergeKey(pair) || early.has(pair)) continue;
      const k = keyOf(pair, this.doc);
      const at = joinPointer(pointer, k);
      if (!Object.hasOwn(wanted, k) && !Object.hasOwn(merged, k) && !this.keepsPlaceholder(pair.value as Node | null, at)) {
        this.removePair(map, pair);
        continue;
      }
      this.keepKey(pair, map);
      if (Object.hasOwn(wanted, k)) this.patch(pair.value as Node | null, wanted[k], at, { kind: 'pair', map, pair });
      // Without its own key, a merged value would show through: say none instead.
      else if (Object.hasOwn(merged, k)) {
        this.ctx.nulled.add(`${this.ctx.index}\u0000${at}`);
        this.patch(pair.value as Node | null, null, at, { kind: 'pair', map, pair });
        nulledInPlace.add(pair);
      }
    }
    let previous: Pair | undefined;
    for (const k of Object.keys(wanted)) {
      const pair = own.get(k);
      if (pair) {
        previous = pair;
        // A key written `null` in place after it stays next to it: a key added goes after both (probe IQ-3).
        for (let i = map.items.indexOf(pair) + 1; nulledInPlace.has(map.items[i] as Pair); i++) previous = map.items[i] as Pair;
        continue;
      }
      // A key a merge gives is written in the mapping only when it must differ from the merged value.
      if (Object.hasOwn(merged, k) && sameValue(merged[k], wanted[k])) continue;
      if (this.mergedPlaceholder(map, merged[k], wanted[k], joinPointer(pointer, k))) continue;
      this.addPair(map, k, wanted[k], previous);
    }
    for (const k of Object.keys(merged)) {
      if (own.has(k) || Object.hasOwn(wanted, k)) continue;
      if (this.mergedPlaceholder(map, merged[k], null, joinPointer(pointer, k))) continue;
      this.ctx.nulled.add(`${this.ctx.index}\u0000${joinPointer(pointer, k)}`);
      this.addPair(map, k, null, previous);
    }
  }

  /**
   * A placeholder is never taken out either: live having no value for it is said as a problem
   * (change the variable or the environment), and the key stays as written.
   */
  private keepsPlaceholder(node: Node | null, pointer: string): boolean {
    const written = this.placeholderIn(node);
    if (written === undefined) return false;
    this.ctx.problems.push({ document: this.ctx.index, pointer, line: this.lineOf(node!.range![0]), written, wanted: null });
    return true;
  }

  /**
   * A value a merge key gives that holds a placeholder stands for its variable here too: written
   * over in this mapping, the variable would no longer reach it. Said as a problem unless it
   * expands to what is wanted.
   */
  private mergedPlaceholder(map: YAMLMap, merged: unknown, wanted: unknown, pointer: string): boolean {
    if (!this.holds(merged)) return false;
    if (merged !== wanted && !standsFor(merged, wanted, this.ctx.expand, false)) this.ctx.problems.push({ document: this.ctx.index, pointer, line: this.lineOf(map.range![0]), written: merged, wanted, merged: true });
    return true;
  }

  /** A value with every placeholder in it filled in. */
  private expanded(value: unknown): unknown {
    if (typeof value === 'string') return this.ctx.holds(value) ? this.ctx.expand(value) : value;
    if (Array.isArray(value)) return value.map((v) => this.expanded(v));
    if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.expanded(v)]));
    return value;
  }

  /** The text of a scalar, or of the scalar an alias names, when it holds a placeholder. */
  private placeholderIn(node: Node | null): string | undefined {
    const value = isScalar(node) ? node.value : isAlias(node) ? this.resolved(node) : undefined;
    return this.holds(value) ? value : undefined;
  }

  /** The first placeholder written anywhere inside a node, as written. */
  private placeholderWithin(node: Node | null): string | undefined {
    let found: string | undefined;
    if (node) {
      visit(node, (_key, n) => {
        if (isScalar(n) && this.holds(n.value)) {
          found = n.value;
          return visit.BREAK;
        }
        return undefined;
      });
    }
    return found;
  }

  /** Whether a value is text holding a placeholder (as this edit reads them: not in a data file). */
  private holds(value: unknown): value is string {
    return typeof value === 'string' && this.ctx.holds(value);
  }

  /**
   * Whether this mapping's merges are to be written out: a source is an anchor the edit takes out,
   * an anchor gains a key the mapping must not have, or a key it gives must go where `null` would
   * say something else (YamlEditRequest.absentAt).
   */
  private mergesWrittenOut(map: YAMLMap, merged: Record<string, unknown>, wanted: Record<string, unknown>, pointer: string): boolean {
    const merges = map.items.filter(isMergeKey);
    if (merges.length === 0) return false;
    // A key that must go where `null` would say something else (a default reviewer: none cannot be
    // sent). Not one a placeholder gives: that stays, and is said (probe IH-1).
    if (Object.keys(merged).some((k) => !Object.hasOwn(wanted, k) && !this.holds(merged[k]) && this.ctx.absentAt(joinPointer(pointer, k)))) return true;
    const sources = merges.flatMap(mergeSources);
    // An alias of an anchor taken out would not parse: written out whatever it gave. (A
    // placeholder it gave is in `wanted` as written, so the mapping keeps it.) So is a mapping
    // written in the merge (`<<: {notes: *n}`) whose alias's anchor the edit changes or takes out:
    // what it gives would follow the anchor, or not parse (probe KN-1).
    if (sources.some((source) => (isAlias(source) ? this.anchorWanted(source.source, source) === GONE : this.holdsMovingAlias(source)))) return true;
    const before: Record<string, unknown> = {};
    for (const source of [...sources].reverse()) {
      const value = this.resolved(source);
      if (isPlainObject(value)) Object.assign(before, value);
    }
    return Object.keys(merged).some((k) => !Object.hasOwn(wanted, k) && !Object.hasOwn(before, k));
  }

  /** Whether an alias inside `node` names an anchor the edit takes out or gives another value. */
  private holdsMovingAlias(node: Node): boolean {
    let moving = false;
    const visit = (n: unknown): void => {
      if (moving || !isNode(n)) return;
      if (isAlias(n)) {
        const wanted = this.anchorWanted(n.source, n);
        moving = wanted === GONE || !sameValue(wanted, this.resolved(n));
        return;
      }
      if (isMap(n) || isSeq(n)) for (const item of n.items) isPair(item) ? (visit(item.key), visit(item.value)) : visit(item);
    };
    visit(node);
    return moving;
  }

  /** Whether every source of a merge key is an alias of an anchor the edit takes out. */
  private mergesOnlyGone(pair: Pair): boolean {
    return mergeSources(pair).every((source) => isAlias(source) && this.anchorWanted(source.source, source) === GONE);
  }

  /** The values a merge key gives, as they will be (an anchor edited elsewhere in the document counts). */
  private mergedValues(pair: Pair): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    // Earlier sources win (YAML merge keys): applied last.
    for (const source of [...mergeSources(pair)].reverse()) {
      const value = isAlias(source) ? this.anchorWanted(source.source, source) : this.resolved(source);
      if (value !== GONE && isPlainObject(value)) Object.assign(out, value);
    }
    return out;
  }

  private patchSeq(seq: YAMLSeq, wanted: unknown[], pointer: string, parent: Parent): void {
    const items = seq.items as Node[];
    // An item holding a placeholder is never taken out (as a key is not): the list keeps it.
    const kept = items.some((item) => this.placeholderIn(item) !== undefined);
    if (wanted.length === 0 && !kept) {
      if (items.length > 0) this.emptySeq(seq, parent);
      return;
    }
    if (items.length === 0) {
      this.replace(seq, wanted, parent);
      return;
    }
    let nextOld = 0;
    // Lined up by what the items stand for: `${var.sec}` is the live "Sec A" it expands to.
    // Read in one pass: item by item, each alias in them walked the whole document again (probe QI-2).
    const whole = this.resolved(seq);
    const had = (Array.isArray(whole) && whole.length === items.length ? whole : items.map((n) => this.resolved(n))).map((v) => this.expanded(v));
    const want = wanted.map((w) => this.expanded(w));
    const pairs = align(had, want);
    // An item live moved is written anew at its place, the comment lines above it moved along (probe XC-2);
    // as written when it did not change, which only a block list can (its own lines).
    const moves = movesIn(pairs, had, want);
    // A flow list written an item a line moves its lines as a block list does (probe XH-3).
    const flowLines = seq.flow && moves.size > 0 ? this.itemLines(seq) : undefined;
    /** The added items that are an item moved unchanged, which moves as written. */
    const asWritten = new Set([...moves].filter(([w, o]) => (!seq.flow || flowLines !== undefined) && sameValue(had[o], want[w]) && this.movesAsWritten(seq, o)).map(([w]) => w));
    const movedAsWritten = new Set([...asWritten].map((w) => moves.get(w)!));
    // An item holding a placeholder is never written anew, where the placeholder would become its
    // value: the file is not edited (every object written there is told as not pulled, with why).
    // One live moved that cannot move as written (an anchor on it) ...
    for (const [o, w] of pairs) {
      const written = o !== undefined && w === undefined && !movedAsWritten.has(o) ? this.placeholderIn(items[o] ?? null) : undefined;
      if (written !== undefined && pairs.some(([o2, w2]) => o2 === undefined && w2 !== undefined && sameValue(want[w2], had[o!]))) {
        throw new Error(`live moved ${written} elsewhere in the list at ${pointer || '/'}, and docket does not move a placeholder; move it by hand`);
      }
    }
    // ... and a mapping holding one taken out while one at least half like it comes elsewhere: that
    // item moved, maybe edited too (probe XH-1).
    for (const [o, w] of pairs) {
      if (o === undefined || w !== undefined || movedAsWritten.has(o) || !isMap(items[o])) continue;
      const written = this.placeholderWithin(items[o] ?? null);
      if (written !== undefined && pairs.some(([o2, w2]) => o2 === undefined && w2 !== undefined && nearness(had[o], want[w2]) >= 0.5)) {
        throw new Error(`live moved the item holding ${written} elsewhere in the list at ${pointer || '/'}, or changed it with one that came, and docket does not write a placeholder anew; edit the list by hand`);
      }
    }
    for (const [o, w] of pairs) {
      if (o !== undefined && w !== undefined) this.patch(items[o] ?? null, wanted[w], joinPointer(pointer, o), { kind: 'item', seq, index: o });
      else if (o !== undefined && (movedAsWritten.has(o) || !this.keepsPlaceholder(items[o] ?? null, joinPointer(pointer, o)))) this.removeItem(seq, o);
      else if (w !== undefined && asWritten.has(w) && flowLines) this.insertFlowLine(seq, nextOld, wanted[w], this.flowLineText(seq, moves.get(w)!, flowLines[moves.get(w)!]!));
      else if (w !== undefined && asWritten.has(w)) this.insertText(seq, nextOld, this.itemText(seq, moves.get(w)!));
      else if (w !== undefined) this.insertItem(seq, nextOld, wanted[w], moves.has(w) && !seq.flow ? this.commentLinesAbove(seq, moves.get(w)!) : '');
      if (o !== undefined) nextOld = o + 1;
    }
  }

  // ---- text positions ------------------------------------------------------------------------

  private lineOf(offset: number): number {
    return this.ctx.lines.linePos(offset).line;
  }

  private lineStart(offset: number): number {
    return this.text.lastIndexOf('\n', offset - 1) + 1;
  }

  /** The start of the line after the one `offset` is on (or `offset` itself when it starts a line). */
  private afterLine(offset: number): number {
    if (offset > 0 && this.text[offset - 1] === '\n') return offset;
    const nl = this.text.indexOf('\n', offset);
    return nl < 0 ? this.text.length : nl + 1;
  }

  private column(offset: number): number {
    return offset - this.lineStart(offset);
  }

  /** Whether only spaces come before `offset` on its line. */
  private startsLine(offset: number): boolean {
    return /^[ \t]*$/.test(this.text.slice(this.lineStart(offset), offset));
  }

  /**
   * Where the lines an item of a flow collection may own start: past the item before it (whose
   * quoted text may go on on lines that start with `#`, TR68-7), or past the line of the bracket.
   */
  private flowItemFloor(collection: YAMLMap | YAMLSeq, index: number): number {
    const before = (collection.items as (Pair | Node)[])[index - 1];
    if (before === undefined) return this.afterLine(collection.range![0]);
    return this.afterLine(isPair(before) ? this.pairEnd(before) : before.range![1]);
  }

  /** Back over the comment lines right above a line (not above `floor`), which belong to what follows them. */
  private aboveComments(lineStart: number, floor = 0): number {
    // Not those indented further than the line (inside what comes above it, see innerComments):
    // both would claim them (probe IB-1).
    const column = /^[ \t]*/.exec(this.text.slice(lineStart))![0].length;
    let start = lineStart;
    while (start > floor) {
      const prev = this.lineStart(start - 1);
      const line = this.text.slice(prev, start);
      if (!/^\s*#/.test(line) || /^[ \t]*/.exec(line)![0].length > column) break;
      start = prev;
    }
    return start;
  }

  private inFlow(parent: Parent): boolean {
    if (parent.kind === 'pair') return Boolean(parent.map.flow);
    if (parent.kind === 'item') return Boolean(parent.seq.flow);
    return false;
  }

  /** Where a pair's text ends: its value's end, or its key's when it has no value. */
  private pairEnd(pair: Pair): number {
    const value = pair.value as Node | null;
    return value?.range && value.range[1] > value.range[0] ? value.range[1] : (pair.key as Node).range![1];
  }

  /** Where the `-` of a block sequence's item is (an anchor or a line break may come between it and the item). */
  private dashOf(seq: YAMLSeq, index: number): number {
    const token = seq.srcToken as CST.BlockSequence | undefined;
    const dash = token?.type === 'block-seq' ? token.items[index]?.start.find((t) => t.type === 'seq-item-ind') : undefined;
    return dash?.offset ?? (seq.items[index] as Node).range![0];
  }

  // ---- edits ---------------------------------------------------------------------------------

  /** Writes `wanted` instead of a whole node (a type change, an alias written out, a missing value). */
  private replace(node: Node | null, wanted: unknown, parent: Parent): void {
    this.noteAnchorsIn(node, true);
    const inFlow = this.inFlow(parent);
    const multiline = typeof wanted === 'string' && wanted.includes('\n');
    const written = node?.range && node.range[1] > node.range[0];
    // A block collection made one value (`null` over a merged one): written on its key's line, so
    // a key after it cannot join its lines, nor a list at the key's column read as the next key
    // (third read TR67-4); a comment on the key's line stays, a tag or anchor there goes with the value.
    if (written && !inFlow && parent.kind === 'pair' && (isMap(node) || isSeq(node)) && !node.flow && isScalarValue(wanted) && !multiline) {
      this.writeAfterKey(parent, this.blockEnd(node), flowYaml(wanted, this.ctx.quote, false));
      return;
    }
    // In the node's own place, on one line: anything inside a flow collection, a one-line scalar, `[]`, `{}`.
    if (written && (inFlow || (isScalarValue(wanted) && !multiline) || isEmpty(wanted))) {
      this.splice(node.range![0], node.range![1], flowYaml(wanted, this.quoteIn(inFlow), this.paddedIn(inFlow && typeof wanted === 'object' && wanted !== null ? (parent.kind === 'pair' ? parent.map : parent.kind === 'item' ? parent.seq : undefined) : undefined)));
      return;
    }
    if (parent.kind === 'pair' && inFlow) {
      // A key with nothing after it in a flow mapping (`description: ,`, `description}`, `? description`):
      // the pair written whole in its place, as a key added to one is; no block can stand there (probe VF-3).
      const key = parent.pair.key as Node;
      const explicit = /\?[ \t]*$/.exec(this.text.slice(this.lineStart(key.range![0]), key.range![0]));
      const start = explicit ? key.range![0] - explicit[0].length : key.range![0];
      const end = this.pairEnd(parent.pair);
      // A tag or anchor written there with no value (`description: !!str ,`) goes with it (second read SR94C-1).
      const colon = /^[ \t]*:(?:[ \t]+[!&][^ \t,{}[\]#]*)*(?:[ \t]*(?=,))?/.exec(this.text.slice(end))?.[0].length ?? 0;
      this.splice(start, end + colon, flowPair(keyOf(parent.pair, this.doc), wanted, this.quoteIn(true), this.paddedIn(parent.map)));
      return;
    }
    if (parent.kind === 'pair') {
      // After the key, as the export would write the pair (a block on the lines below); a comment
      // that followed the value stays on the key's line.
      const key = parent.pair.key as Node;
      const end = this.pairEnd(parent.pair);
      let lineEnd = this.afterLine(end);
      // A key with no value (`description:   # TODO`) has its comment after the colon, and after a
      // tag or anchor written there without a value (`questions: !!null   # c`, probe VF-4).
      let comment = /^(?:[ \t]*:(?=[ \t]))?(?:[ \t]+[!&][^ \t#]*)*([ \t]*#.*)/.exec(this.text.slice(end, lineEnd))?.[1] ?? '';
      // An explicit key (`? description`, `? !!str description`, its `:` on a later line or none): the
      // pair written as `description: …` where the `?` was, as `description: d` after the `?` would
      // be a mapping as key (probe VF-3); the comments of both lines kept (second read SR95-3).
      const keyStart = key.range![0] - (/(?:[&!][^\s]*[ \t]+)+$/.exec(this.text.slice(this.lineStart(key.range![0]), key.range![0]))?.[0].length ?? 0);
      const explicit = /\?[ \t]+$/.exec(this.text.slice(this.lineStart(keyStart), keyStart));
      const keyAt = explicit ? keyStart - explicit[0].length : keyStart;
      if (explicit) {
        const keyLineEnd = this.afterLine(key.range![1]);
        const keyComment = written && keyLineEnd < end ? (/^[ \t]*(#.*)/.exec(this.text.slice(key.range![1], keyLineEnd))?.[1] ?? '') : '';
        if (keyComment) comment = comment ? `   ${keyComment}${comment}` : `   ${keyComment}`;
        // Blank and comment lines may come before the `:` line (second read SR95B-3): their comments are kept too.
        let at = lineEnd;
        const between: string[] = [];
        for (let line = /^[ \t]*(#.*)?\r?\n/.exec(this.text.slice(at)); !written && line; line = /^[ \t]*(#.*)?\r?\n/.exec(this.text.slice(at))) {
          if (line[1]) between.push(line[1]);
          at += line[0].length;
        }
        const colonLine = written ? null : /^[ \t]*:(?:[ \t]+[!&][^ \t#]*)*[ \t]*(#.*)?(?:\r?\n|$)/.exec(this.text.slice(at));
        if (colonLine) {
          for (const c of [...between, ...(colonLine[1] ? [colonLine[1]] : [])]) comment += `   ${c}`;
          lineEnd = at + colonLine[0].length;
        }
        this.splice(keyAt, keyStart, '');
      }
      const block = toYaml({ [keyOf(parent.pair, this.doc)]: wanted }, this.ctx.quote, this.ctx.indent);
      const text = indented(block.slice(block.indexOf(':')), this.column(keyAt)).replace(/^ +/, '');
      const first = text.indexOf('\n');
      this.splice(key.range![1], lineEnd, comment && first >= 0 ? `${text.slice(0, first)}${comment}${text.slice(first)}` : text);
      return;
    }
    if (parent.kind === 'item' && written) {
      const text = indented(toYaml(wanted, this.ctx.quote, this.ctx.indent), this.column(node.range![0])).replace(/^ +/, '');
      this.splice(node.range![0], this.afterLine(node.range![1]), text);
      return;
    }
    throw new Error('docket pull cannot rewrite a whole document in place');
  }

  private addPair(map: YAMLMap, key: string, value: unknown, after: Pair | undefined): void {
    if (map.flow) {
      const padded = this.paddedIn(map);
      const item = flowPair(key, value, this.ctx.quote, padded);
      const before = this.ctx.splices.length;
      this.addFlowPair(map, item, padded, after);
      addTo(this.flowMapAdds, map, { splices: this.ctx.splices.slice(before), item });
      return;
    }
    this.addBlockPair(map, key, value, after);
  }

  /** A key added to a flow mapping (addPair): in its braces, or a line of its own where the file writes a key a line. */
  private addFlowPair(map: YAMLMap, item: string, padded: boolean, after: Pair | undefined): void {
    const first = map.items[0];
    // Written a key a line: the new one gets a line of its own after `after`'s, as an item of such a list does (probe OH-5).
    const indent = after ? this.keyLineIndent(map) : undefined;
    if (!first) {
      // `{}` written whole, with the keys added before this one.
      const earlier = this.flowMapAdds.get(map) ?? [];
      this.flowMapAdds.delete(map);
      for (const add of earlier) this.withdraw(add.splices);
      const inner = [...earlier.map((a) => a.item), item].join(', ');
      this.splice(map.range![0], map.range![1], padded ? `{ ${inner} }` : `{${inner}}`);
    } else if (after && indent !== undefined) {
      const end = this.pairEnd(after);
      const lineEnd = this.afterLine(end);
      const closing = /^([ \t]*,)?[ \t]*\}/.exec(this.text.slice(end, lineEnd));
      // The last key, its line closed by the `}`: the new key takes that line's end, the `}` after it (probe VF-7).
      if (closing) this.splice(end + (closing[1]?.length ?? 0), end + (closing[1]?.length ?? 0), `${closing[1] ? '' : ','}\n${indent}${item}${closing[1] ? ',' : ''}`);
      else {
        if (!/^[ \t]*,/.test(this.text.slice(end, lineEnd))) this.splice(end, end, ',');
        this.splice(lineEnd, lineEnd, `${indent}${item},\n`);
      }
    } else if (after) this.splice(this.pairEnd(after), this.pairEnd(after), `, ${item}`);
    else this.splice((first.key as Node).range![0], (first.key as Node).range![0], `${item}, `);
  }

  /**
   * The indent of a flow mapping's keys where it is written a key a line, the `{` and `}` allowed
   * on the first's and the last's (`- { name: a,` … `actions: x }`, probe VF-7); else undefined.
   */
  private keyLineIndent(map: YAMLMap): string | undefined {
    // The text does not change until the splices are made: worked out once per mapping, not per key added (second read SR95-2).
    if (this.keyLineIndents.has(map)) return this.keyLineIndents.get(map);
    const indent = this.keyLineIndentOf(map);
    this.keyLineIndents.set(map, indent);
    return indent;
  }
  private readonly keyLineIndents = new Map<YAMLMap, string | undefined>();

  private keyLineIndentOf(map: YAMLMap): string | undefined {
    const pairs = map.items as Pair[];
    const last = pairs.length - 1;
    // The last key taken out with the `}` on its line: its removal takes the line ends a key added
    // would go at, so the key goes in after the one before it, on its line (second read SR95-1).
    const lastGoes = this.flowRemovals.get(map)?.includes(last) === true;
    const ownLines = pairs.every((pair, i) => {
      const start = this.keyStart(pair);
      const end = this.pairEnd(pair);
      const before = this.text.slice(this.lineStart(start), start);
      const opens = i === 0 && last > 0 && map.range![0] >= this.lineStart(start) && /^[^\n]*\{[ \t]*$/.test(before);
      const after = this.text.slice(end, this.afterLine(end));
      const closes = i === last && last > 0 && !lastGoes && /^[ \t]*,?[ \t]*\}/.test(after);
      return (before.trim() === '' || opens) && (REST_OF_OWN_LINE.test(after) || closes);
    });
    if (!ownLines) return undefined;
    const lined = pairs[last > 0 ? 1 : 0]!;
    return this.text.slice(this.lineStart(this.keyStart(lined)), this.keyStart(lined));
  }

  private addBlockPair(map: YAMLMap, key: string, value: unknown, after: Pair | undefined): void {
    const first = map.items[0]!;
    const firstKey = this.keyStart(first);
    const text = indented(toYaml({ [key]: value }, this.ctx.quote, this.ctx.indent), this.column(firstKey));
    // Never above the first key when it shares its line with a `- `.
    const anchor = after ?? (this.startsLine(firstKey) ? undefined : first);
    const at = anchor ? this.afterLine(this.pairEnd(anchor)) : this.aboveComments(this.lineStart(firstKey));
    this.splice(at, at, text);
    if (anchor === first && !after && !this.dashLineInserts.has(map)) this.dashLineInserts.set(map, this.ctx.splices.at(-1)!);
  }

  /**
   * Which text to quote where a value is written alone: flowYaml writes it as at a block's top
   * level, where `[]{},` may stand plain, which inside a flow collection they may not (second
   * reads SR94-4, SR94B-4).
   */
  private quoteIn(inFlow: boolean): ((text: string) => boolean) | undefined {
    const quote = this.ctx.quote;
    return inFlow ? (text) => FLOW_INDICATOR.test(text) || quote?.(text) === true : quote;
  }

  /** A key that stays: one naming an anchor the edit takes out is written out (its alias would not parse). */
  private keepKey(pair: Pair, map: YAMLMap): void {
    const key = pair.key;
    if (!isAlias(key) || this.anchorWanted(key.source, key) !== GONE) return;
    // `*k : R2` needs the space before its colon; `name: R2` does not.
    const end = /^[ \t]*(?=:)/.exec(this.text.slice(key.range![1]))?.[0].length ?? 0;
    this.splice(key.range![0], key.range![1] + end, flowYaml(this.resolved(key), this.quoteIn(map.flow === true), true));
  }

  /** Where a pair's key starts, its anchor or tag included (`- &k name:`): where keys beside it line up. */
  private keyStart(pair: Pair): number {
    const start = (pair.key as Node).range![0];
    // Its properties (`&a`, `!!str`) and an explicit key's `? ` come before it on its line (probe NH-3).
    const props = /(?:[&!][^\s]*[ \t]+|\?[ \t]+)+$/.exec(this.text.slice(this.lineStart(start), start));
    return props ? start - props[0].length : start;
  }

  private removePair(map: YAMLMap, pair: Pair): void {
    this.noteAnchorsIn(isNode(pair.key) ? pair.key : null, true);
    this.noteAnchorsIn(pair.value as Node | null, true);
    const key = this.keyStart(pair);
    const i = map.items.indexOf(pair);
    if (map.flow) {
      addTo(this.flowRemovals, map, i);
      return;
    }
    this.removedPairs.add(pair);
    if (!this.startsLine(key)) {
      // The first key on a `- ` line: a key added or the next key kept takes that line, once known.
      this.dashLineRemovals.set(map, pair);
      return;
    }
    // With the comment lines right above it, as an item's: left, they would read as the next key's
    // (probe NY-2). Not above a mapping's first key: those are the mapping's, or the file's header
    // and modeline (second read SR79-4).
    const previous = map.items[i - 1];
    const floor = previous ? this.afterLine(this.pairEnd(previous)) : this.lineStart(key);
    this.splice(this.aboveComments(this.lineStart(key), floor), this.afterLine(this.pairEnd(pair)), '');
    addTo(this.lineRemovals, map, this.ctx.splices.at(-1)!);
  }

  /**
   * Takes out the first key of an item's mapping, on its `- ` line: the first key kept moves up
   * onto that line, and the lines between that no removal takes (the comments above that key) go
   * above the item, at its dash: deleted with the key, they were lost (probe QN-1). With no key
   * kept or added, the item is `{}`.
   */
  private removeFromDashLine(map: YAMLMap, first: Pair): void {
    const key = this.keyStart(first);
    const firstEnd = this.afterLine(this.pairEnd(first));
    // A key added right after it takes its place on the line; the keys kept stay where they are (second read SR85-5).
    const added = this.dashLineInserts.get(map);
    if (added) {
      added.text = added.text.replace(/^[ \t]+/, '');
      this.splice(key, firstEnd, '');
      return;
    }
    const kept = map.items.slice(map.items.indexOf(first) + 1).find((p) => !this.removedPairs.has(p));
    if (!kept) {
      this.splice(key, firstEnd, '{}\n');
      return;
    }
    const keptKey = this.keyStart(kept);
    const keptLine = this.lineStart(keptKey);
    // The mapping's other removals between take whole lines: what is left between them is moved.
    const taken = (this.lineRemovals.get(map) ?? []).filter((s) => s.start >= firstEnd && s.end <= keptLine).sort((a, b) => a.start - b.start);
    const moved: string[] = [];
    let at = firstEnd;
    for (const s of [...taken, { start: keptLine, end: keptLine }]) {
      if (s.start > at) {
        moved.push(this.text.slice(at, s.start));
        this.splice(at, s.start, '');
      }
      at = Math.max(at, s.end);
    }
    this.splice(key, firstEnd, '');
    this.splice(keptLine, keptKey, '');
    if (moved.length === 0) return;
    const dashLine = this.lineStart(key);
    const dashIndent = /^[ \t]*/.exec(this.text.slice(dashLine))![0];
    this.splice(dashLine, dashLine, moved.join('').replace(/^[ \t]*(?=#)/gm, dashIndent));
  }

  /** Whether what goes into `collection` is written `{ a: 1 }` or `{a: 1}`: as its own text is (padded when there is none). */
  private paddedIn(collection: Node | undefined): boolean {
    return collection?.range ? flowPadded(this.text.slice(collection.range[0], collection.range[1])) : true;
  }

  /**
   * Where a block list's item is written, with the comment lines right above it, which are its own
   * (an item added goes above them, too), and those after its last line indented into it, its own as well.
   */
  private itemSpan(seq: YAMLSeq, index: number): [number, number] {
    const dash = this.dashOf(seq, index);
    return [this.aboveComments(this.lineStart(dash)), this.innerComments(this.afterLine((seq.items as Node[])[index]!.range![1]), this.column(dash))];
  }

  /** Where an item added before item `before` of a block list goes: above its comment lines, or past the last item's own. */
  private insertPoint(seq: YAMLSeq, before: number): number {
    return before < seq.items.length ? this.aboveComments(this.lineStart(this.dashOf(seq, before))) : this.lastItemEnd(seq);
  }

  /** A block list's item as written, with the comment lines that are its own: what removeItem takes out. */
  private itemText(seq: YAMLSeq, index: number): string {
    const text = this.text.slice(...this.itemSpan(seq, index));
    return text.endsWith('\n') ? text : `${text}\n`;
  }

  /** Whether an item live moved unchanged may move as written: no anchor or alias in it, which would read otherwise elsewhere. */
  private movesAsWritten(seq: YAMLSeq, index: number): boolean {
    let free = true;
    visit(seq.items[index] as Node, (_key, node) => {
      if (isAlias(node) || (isNode(node) && node.anchor !== undefined)) free = false;
    });
    return free;
  }

  /** Text of whole lines put before item `before` of a block list (after its last item when there is none), where insertItem puts an item. */
  private insertText(seq: YAMLSeq, before: number, text: string): void {
    const at = this.insertPoint(seq, before);
    this.splice(at, at, text);
  }

  /** The comment lines right above a block list's item, which are its own (removeItem takes them with it). */
  private commentLinesAbove(seq: YAMLSeq, index: number): string {
    const start = this.lineStart(this.dashOf(seq, index));
    return this.text.slice(this.aboveComments(start), start);
  }

  /**
   * An item of a flow list written an item a line, as written: the comment lines above it, its line
   * with its comment, and a comma after it where it had none (the last item).
   */
  private flowLineText(seq: YAMLSeq, index: number, line: readonly [number, number]): string {
    const end = (seq.items[index] as Node).range![1];
    const comma = /^[ \t]*,/.test(this.text.slice(end, line[1])) ? '' : ',';
    const text = `${this.text.slice(this.aboveComments(line[0], this.flowItemFloor(seq, index)), end)}${comma}${this.text.slice(end, line[1])}`;
    return text.endsWith('\n') ? text : `${text}\n`;
  }

  /** An item added to a flow list, with the lines it is written on where the list is written an item a line (an item moved as written). */
  private insertFlowLine(seq: YAMLSeq, before: number, value: unknown, line?: string): void {
    const items = seq.items as Node[];
    const text = quotedLike(value, items[Math.min(before, items.length - 1)]) ?? flowYaml(value, this.quoteIn(true), this.paddedIn(seq));
    addTo(this.flowInserts, seq, line === undefined ? { before, text } : { before, text, line });
  }

  private insertItem(seq: YAMLSeq, before: number, value: unknown, comments = ''): void {
    if (seq.flow) {
      this.insertFlowLine(seq, before, value);
      return;
    }
    const items = seq.items as Node[];
    const like = quotedLike(value, items[Math.min(before, items.length - 1)]);
    const item = like !== undefined ? `- ${like}\n` : toYaml([value], this.ctx.quote, this.ctx.indent);
    const text = comments + indented(this.spacedLikeItems(seq, item), this.column(this.dashOf(seq, 0)));
    this.insertText(seq, before, text);
  }

  /** An item written `- x` spaced as the list's first item is after its dash (`-   name: …`), the lines under it moved along. */
  private spacedLikeItems(seq: YAMLSeq, item: string): string {
    const dash = this.dashOf(seq, 0);
    const lineEnd = this.text.indexOf('\n', dash);
    const pad = /^-( +)\S/.exec(this.text.slice(dash, lineEnd < 0 ? undefined : lineEnd))?.[1]!.length ?? 1;
    if (pad <= 1 || !item.startsWith('- ')) return item;
    const extra = ' '.repeat(pad - 1);
    return item.replace(/^- /, `-${' '.repeat(pad)}`).replace(/\n(?=.)/g, `\n${extra}`);
  }

  private removeItem(seq: YAMLSeq, index: number): void {
    const items = seq.items as Node[];
    const item = items[index]!;
    this.noteAnchorsIn(item, true);
    if (seq.flow) {
      addTo(this.flowRemovals, seq, index);
      return;
    }
    this.splice(...this.itemSpan(seq, index), '');
  }

  /** Past a block list's last item: its lines and the comment lines indented into it (its own). */
  private lastItemEnd(seq: YAMLSeq): number {
    const items = seq.items as Node[];
    return this.innerComments(this.afterLine(items.at(-1)!.range![1]), this.column(this.dashOf(seq, items.length - 1)));
  }

  /** Past the comment lines from `lineStart` on that are indented further than `column` (inside the item above them). */
  private innerComments(lineStart: number, column: number): number {
    let end = lineStart;
    while (end < this.text.length) {
      const nl = this.text.indexOf('\n', end);
      const line = this.text.slice(end, nl < 0 ? this.text.length : nl);
      if (!/^\s*#/.test(line) || /^ */.exec(line)![0].length <= column) break;
      end = nl < 0 ? this.text.length : nl + 1;
    }
    return end;
  }

  /** Whether every key of a block mapping that is a key's value goes, and none comes: it is written `{}` then. */
  private emptiesBlockMap(map: YAMLMap, wanted: Record<string, unknown>, pointer: string, parent: Parent): boolean {
    if (map.flow || parent.kind === 'root' || map.items.length === 0 || Object.keys(wanted).length > 0) return false;
    // An item whose first key is on its `- ` line: its removal writes `{}` (removeFromDashLine).
    if (parent.kind === 'item' && !this.startsLine(this.keyStart(map.items[0]!))) return false;
    // A merge goes too when it is written out and gives no placeholder (which the mapping would keep); else its keys stay, `null`.
    const merged: Record<string, unknown> = {};
    for (const pair of map.items) if (isMergeKey(pair)) Object.assign(merged, this.mergedValues(pair));
    if (Object.keys(merged).length > 0 && (Object.values(merged).some((v) => this.holds(v)) || !this.mergesWrittenOut(map, merged, wanted, pointer))) return false;
    // Asked without saying it: patchMap says each placeholder kept, once (probe IH-5).
    return map.items.every((pair) => isMergeKey(pair) || this.placeholderIn(pair.value as Node | null) === undefined);
  }

  /** A mapping that must hold nothing: `{}`, since a key with no value would read as null (probe IF-3). */
  private emptyMap(map: YAMLMap, parent: Parent): void {
    this.noteAnchorsIn(map, true);
    this.writeAfterKey(parent, this.blockEnd(map), '{}');
  }

  /**
   * Where a block collection's own lines end: a map's at its last key's lines and the comments
   * indented into it, a list's at its last item's (not the comments after it, which belong to what
   * follows: probe IE-1).
   */
  private blockEnd(node: YAMLMap | YAMLSeq): number {
    if (isSeq(node)) return this.lastItemEnd(node);
    return this.innerComments(this.afterLine(this.pairEnd(node.items.at(-1)!)), this.column(this.keyStart(node.items[0]!)));
  }

  /** A list that must hold nothing: `[]`, since an empty block list would read as null. */
  private emptySeq(seq: YAMLSeq, parent: Parent): void {
    this.noteAnchorsIn(seq, true);
    if (seq.flow) {
      this.splice(seq.range![0], seq.range![1], '[]');
      return;
    }
    // Not the blank lines and comments after the last item, which the list's range takes in but
    // belong to what follows (probe IE-1).
    this.writeAfterKey(parent, this.blockEnd(seq), '[]');
  }

  /** A block collection that is a key's value, up to `end`, written as `value` on the key's line; a comment there (`rules:   # one rule`) stays. */
  private writeAfterKey(parent: Parent, end: number, value: string): void {
    if (parent.kind === 'item') {
      // After the item's `-`, keeping a comment written there (`- # lead`: second read SR85B-4).
      const dash = this.dashOf(parent.seq, parent.index);
      const comment = /^-([ \t]*#[^\r\n]*)/.exec(this.text.slice(dash, this.afterLine(dash)))?.[1] ?? '';
      this.splice(dash + 1, end, ` ${value}${comment}\n`);
      return;
    }
    if (parent.kind !== 'pair') throw new Error('docket pull cannot empty a collection that is not a mapping value');
    const key = (parent.pair.key as Node).range![1];
    const comment = /^[ \t]*:([ \t]*#[^\r\n]*)/.exec(this.text.slice(key, this.afterLine(key)))?.[1] ?? '';
    this.splice(key, end, `: ${value}${comment}\n`);
  }
}

/**
 * Whether text written with a placeholder stands for `wanted`: what it expands to, read as the
 * loader reads it. Written plain (unquoted), a placeholder that is the whole value takes the type its
 * text reads as (`${var.flag}` is false); quoted, it stays text unless its field's schema wants
 * another type, which this edit cannot see, so a quoted one stands only for that text (said as
 * differing, never taken for a value it would not be sent as).
 */
function standsFor(written: string, wanted: unknown, expand: (text: string) => string, plain: boolean): boolean {
  const text = expand(written);
  // What is wanted is live text as a file writes it (each `${` as `$${`); the expansion is the text itself (probe MB-1).
  return (typeof wanted === 'string' ? text === literalText(wanted) : text === wanted) || (plain && (typeof wanted === 'boolean' || typeof wanted === 'number') && losslessRetype(text) === wanted);
}

/**
 * Whether `text`, the value written with this core schema tag (docket's files hold no others),
 * reads back as `value`: `!!float 2` does not read at all (a float's text has a point), `!!str`
 * holds any text.
 */
function tagFits(tag: string, value: unknown, text: string): boolean {
  const type = tag.replace(/^tag:yaml\.org,2002:/, '');
  if (value === null || value === undefined) return type === 'null';
  if (typeof value === 'string') return type === 'str';
  if (typeof value === 'boolean') return type === 'bool';
  if (typeof value !== 'number' || (type !== 'int' && type !== 'float') || text.includes('\n')) return false;
  const read = parseDocument(`!!${type} ${text}`);
  return read.errors.length === 0 && read.warnings.length === 0 && read.toJS() === value;
}

/**
 * Where the tag among a node's properties is (`!!str` of `&a !!str x`), with the space after it:
 * taken out with it. A tag alone at the end of its line goes with the blanks before it.
 */
function tagBefore(text: string, valueStart: number): { start: number; end: number } | undefined {
  let end = valueStart;
  // At most two properties: an anchor and a tag, in either order.
  for (let props = 0; props < 2; props++) {
    const token = propertyBefore(text, end);
    if (token === undefined) return undefined;
    if (token.text.startsWith('!')) {
      let [start, after] = [token.start, token.end];
      while (text[after] === ' ' || text[after] === '\t') after++;
      if (text[after] === '\n' || text[after] === '\r') {
        while (start > 0 && (text[start - 1] === ' ' || text[start - 1] === '\t')) start--;
      }
      return { start, end: after };
    }
    end = token.start;
  }
  return undefined;
}

/** Where a node's properties (an anchor, a tag) start, or `valueStart` when it has none: the yaml library's range leaves them out. */
function propertiesStart(text: string, valueStart: number): number {
  let start = valueStart;
  for (let props = 0; props < 2; props++) {
    const token = propertyBefore(text, start);
    if (token === undefined) break;
    start = token.start;
  }
  return start;
}

/**
 * The anchor or tag written just before `end`: on its line or the line before (`a: !!str` then the
 * value indented below), ended inside a flow collection by its brackets and commas (probe SR-4).
 * Not one inside a comment.
 */
function propertyBefore(text: string, end: number): { start: number; end: number; text: string } | undefined {
  let start = end;
  for (;;) {
    const from = start;
    while (start > 0 && /\s/.test(text[start - 1]!)) start--;
    // Past a line break, a comment ending the line before (`a: !!str # note`, the value below) is read past (second read SR-4).
    if (!text.slice(start, from).includes('\n')) break;
    const lineStart = text.lastIndexOf('\n', start - 1) + 1;
    const comment = /(^|\s)#/.exec(text.slice(lineStart, start));
    if (!comment) break;
    start = lineStart + comment.index;
  }
  const tokenEnd = start;
  while (start > 0 && !/[\s,[\]{}]/.test(text[start - 1]!)) start--;
  const token = text.slice(start, tokenEnd);
  if (!token.startsWith('!') && !token.startsWith('&')) return undefined;
  const lineStart = text.lastIndexOf('\n', start - 1) + 1;
  if (/(^|\s)#/.test(text.slice(lineStart, start))) return undefined;
  return { start, end: tokenEnd, text: token };
}

/** A one-line string quoted as its neighbour in the list is (`"Retainer"` beside `"Fixed fee"`). */
function quotedLike(value: unknown, neighbour: Node | undefined): string | undefined {
  if (typeof value !== 'string' || value.includes('\n') || holdsInvisible(value) || !isScalar(neighbour)) return undefined;
  if (neighbour.type === 'QUOTE_DOUBLE') return JSON.stringify(value);
  if (neighbour.type === 'QUOTE_SINGLE') return `'${value.replace(/'/g, "''")}'`;
  return undefined;
}

function isScalarValue(value: unknown): boolean {
  return !(isPlainObject(value) || Array.isArray(value));
}

function isEmpty(value: unknown): boolean {
  return (Array.isArray(value) && value.length === 0) || (isPlainObject(value) && Object.keys(value).length === 0);
}

function isMergeKey(pair: Pair): boolean {
  const key = pair.key;
  return isScalar(key) && isMergeKeyScalar(key);
}

function keyOf(pair: Pair, doc: Document.Parsed): string {
  // An alias as a key (`*k : R2`) is the key its anchor names, as the files were read.
  const key = isAlias(pair.key) ? pair.key.resolve(doc) : pair.key;
  if (key === null || key === undefined) return '';
  return isScalar(key) ? String(key.value) : String(key);
}

