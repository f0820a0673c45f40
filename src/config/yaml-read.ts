/**
 * Reading YAML files: js-yaml (core schema, as the full parser in yaml-positions.ts uses) for the
 * values, positions on demand; the full parser for anything js-yaml might read differently.
 */
import { crAsLf } from '../util/line-break.js';
import jsYaml from 'js-yaml';
import { CORE_SCHEMA, MERGE_SCHEMA, MERGE_TAG } from './yaml-core-schema.js';
import type { Diagnostic, SourcePos } from '../diagnostics.js';
import { lineColumnsOf } from '../util/line-columns.js';
import { readBlockYaml } from './yaml-block-reader.js';
import { mayHoldLongKey } from './yaml-key-limit.js';
import { fastPositions, NodeEvents, walkPositions } from './yaml-fast-positions.js';
import { bothListeners, IndentGuard, pastSpaceAndComments } from './yaml-indent-guard.js';
import { aliasExpansionLimit, DocPositions, MAX_ALIASED_TEXT, parseWithPositions, splitPointer, type LineCol, type ParsedDocument, type ParsedFile } from './yaml-positions.js';

/**
 * Numbers js-yaml reads the YAML 1.1 way: binary, signed hex and octal are numbers to it and text
 * in YAML 1.2's core schema; `-.5` is text to it and a number in 1.2. Text that merely contains
 * one only costs the full parser.
 */
const NUMBER_1_1 = /(?<![\w.])(?:[-+]?0b[01_]|[-+]0[xo][0-9a-fA-F_]|[-+]\.[0-9])/;

/**
 * What js-yaml reads otherwise than the full parser, besides such numbers:
 * - a tag (`!foo`, `!!str`) or anchor (`&a`) property: it can only start a node, so it follows a
 *   line start, a space or a flow indicator, and is followed by a non-space;
 * - a directive (`%YAML 1.1`, at a line start), which js-yaml ignores;
 * - an explicit key (`? [a, b]`: a `?` where a node can start, then a space or the line's end),
 *   which js-yaml joins;
 * - a comment right after a quoted scalar or a flow collection (`"X"# note`, `[]# note`), which
 *   js-yaml reads as a comment and YAML refuses (a comment is separated by a space);
 * - a flow collection as a key (`[name]: Dan`, a `]` or `}` then `:` and a space or the line's
 *   end), which js-yaml joins into text (`name`, and `a,b` for `[a, b]`: a key no one wrote); and
 *   one that starts a flow mapping (`{{ name }}`, a template engine's placeholder), which js-yaml
 *   reads as the key `[object Object]` (probe NF-1);
 * Text that merely looks like one ("R &D") only costs the full parser. A match of any of them
 * holds one of these candidates at its start (a signed number: one character after it), and no
 * candidate can start inside another, so one global search finds them all.
 */
const CANDIDATE = /[!&?%#\]}]|\{[ \t]*[[{]|0[bxo]|[-+]\./g;
const COLLECTION_KEY_END = /[ \t]*:(?:[ \t\n\r]|$)/y;
const NUMBER_1_1_AT = new RegExp(NUMBER_1_1.source, 'y');
const OPENS_NODE = /[\s[{,]/;
const CLOSES_NODE = /["'\]}]/;
const SPACE = /\s/;
const LINE_BREAK = /[\n\r\u2028\u2029]/;

/**
 * Whether js-yaml might read `text` differently from the full parser: then the full parser reads
 * it. The answer of the regular expressions above (the tests hold it to them) in one pass that looks
 * closer only at the characters that could start a match: the expressions each tried a match at
 * every character of the text, 13 MB in a large configuration.
 */
export function needsFullParser(text: string, anchors = false): boolean {
  // Merge keys (`<<`) are the full parser's too (js-yaml's core schema reads them as a plain key),
  // unless `anchors`: then parseAnchored merges them as the full parser does.
  if (!anchors && text.includes('<<')) return true;
  if (gluedMarker(text, '---') || gluedMarker(text, '...')) return true;
  CANDIDATE.lastIndex = 0;
  for (let m = CANDIDATE.exec(text); m !== null; m = CANDIDATE.exec(text)) {
    const i = m.index;
    const before = i === 0 ? undefined : text[i - 1]!;
    const after = text[i + 1];
    switch (text[i]) {
      case '!':
      case '&':
        if (startsNode(text, i) && !(anchors && text[i] === '&')) return true;
        break;
      case '?':
        if ((before === undefined || OPENS_NODE.test(before)) && (after === undefined || after === ' ' || after === '\t' || LINE_BREAK.test(after))) return true;
        break;
      case '%':
        if (before === undefined || LINE_BREAK.test(before)) return true;
        break;
      case '#':
        if (before !== undefined && CLOSES_NODE.test(before)) return true;
        break;
      case '{':
        return true;
      case ']':
      case '}':
        COLLECTION_KEY_END.lastIndex = i + 1;
        if (COLLECTION_KEY_END.test(text)) return true;
        break;
      default:
        if (numberAt(text, i - 1) || numberAt(text, i)) return true;
    }
  }
  return false;
}

/**
 * A document marker with text glued to it at a line's start (`---x`): js-yaml takes it for the
 * marker and `x`, the full parser for the text `---x` (second read SR68-3).
 */
function gluedMarker(text: string, marker: '---' | '...'): boolean {
  // Each line start the marker is at: the text's, then after each line break.
  for (let at = text.startsWith(marker) ? 0 : -1; ; ) {
    const after = at < 0 ? undefined : text[at + marker.length];
    if (after !== undefined && !SPACE.test(after)) return true;
    // Or a node after it on its line (`--- version: 1`): js-yaml reads a mapping there, which YAML
    // refuses, as the editor does (probe DJ-5); the full parser says so, or reads the scalar it may be.
    if (after !== undefined && after !== '\n' && after !== '\r' && /^[ \t]+[^\s#]/.test(text.slice(at + marker.length, at + marker.length + 80))) return true;
    const lineBreak = text.indexOf(`\n${marker}`, at + 1);
    if (lineBreak < 0) return false;
    at = lineBreak + 1;
  }
}

function numberAt(text: string, at: number): boolean {
  if (at < 0) return false;
  NUMBER_1_1_AT.lastIndex = at;
  return NUMBER_1_1_AT.test(text);
}

/**
 * Parses every document of one file. Documents holding only comments are left out.
 *
 * A file that js-yaml reads plainly (no error, no tag or anchor, no empty document, no node
 * reached twice) is read by it, several times faster, and its positions are worked out by the
 * full parser only if something asks for one (a diagnostic, a planned change). Anything else
 * takes the full parser at once, so every diagnostic is the one it gives.
 */
export function parseYamlFile(text: string, file: string, reread?: () => string): ParsedFile {
  const read = crAsLf(text);
  const tooMany = tooManyDocuments(read, file);
  if (tooMany) return { file, documents: [], diagnostics: [tooMany] };
  const again = reread && ((): string => crAsLf(reread()));
  return parseFast(read, file, again) ?? parseWithPositions(read, file);
}

/** More documents than any configuration file holds: a file of them is refused before it is parsed. */
export const MAX_DOCUMENTS = 100_000;

/**
 * A file of millions of `---` lines (24 MB) took the full parser minutes and gigabytes, until the
 * process died out of memory (probe TC-2): refused at the marker past MAX_DOCUMENTS. Only a file long
 * enough to hold that many markers (4 bytes each) is counted.
 */
export function tooManyDocuments(text: string, file: string): Diagnostic | undefined {
  if (text.length <= MAX_DOCUMENTS * 4) return undefined;
  // A marker is `---` alone or before a space (`--- # comment`), not the start of `---text`.
  const marks = (after: number): boolean => after >= text.length || /[\s]/.test(text.charAt(after));
  const openedByMarker = text.startsWith('---') && marks(3);
  let count = openedByMarker ? 1 : 0;
  for (let at = text.indexOf('\n---'); at >= 0; at = text.indexOf('\n---', at + 1)) {
    if (!marks(at + 4)) continue;
    // Content before the first marker is a document of its own: counted too (probe YF-2).
    if (count === 0 && !openedByMarker && /^[ \t]*[^\s#%]/m.test(text.slice(0, at))) count = 1;
    if (++count <= MAX_DOCUMENTS) continue;
    // Counted only now, once: the line of the marker past the limit.
    const { line } = lineColumnsOf(text)(at + 1);
    return {
      severity: 'error',
      code: 'yaml-too-many-documents',
      message: `this file holds more than ${MAX_DOCUMENTS.toLocaleString('en-US')} YAML documents (\`---\`)`,
      file,
      line,
      col: 1,
      hint: 'no docket file holds this many; split it into files, or remove the empty documents',
    };
  }
  return undefined;
}


/**
 * `reread` gives the text again when positions are wanted, so what finds them does not hold a text
 * its values do not (a file edited mid-run could only make a message point at the wrong line).
 */
function parseFast(text: string, file: string, reread?: () => string): ParsedFile | undefined {
  if (mayHoldAnchors(text)) return fastReadable(text, true) ? parseAnchored(text, file, reread) : undefined;
  if (!fastReadable(text)) return undefined;
  // Where the shallow nodes are (a document, its keys, a rule of its list) is noted while it is
  // read, at almost no cost: what a plan shows of a changed object needs no second pass.
  // A noted node takes about 8 characters of a rule-shaped file: room for the events at once.
  let events = new NodeEvents(text.length >> 3);
  // Files written in plain block style (most) are read by the block reader, several times faster;
  // it gives what js-yaml gives, and declines everything else.
  // Its strings are slices of the text, which they keep alive: copies would be as large as the
  // texts they spare, and cost a large plan 0.1–0.2 s of CPU.
  let values = readBlockYaml(text, { events, maxDepth: SHALLOW_DEPTH });
  if (values === undefined) {
    if (mayHoldLongKey(text)) return undefined;
    let listener;
    ({ events, listener } = NodeEvents.recorder(SHALLOW_DEPTH));
    const indents = new IndentGuard(text);
    const read: unknown[] = [];
    try {
      jsYaml.loadAll(text, (doc) => read.push(doc), { schema: CORE_SCHEMA, filename: file, listener: bothListeners(listener, indents.listener) });
    } catch {
      return undefined;
    }
    if (indents.declined || !plainDocuments(read)) return undefined;
    values = read;
  }
  events.trim();
  // Positions are worked out once per file, the first time one is asked for: the shallow ones from
  // the noted events, the others from a second js-yaml pass where it can be sure of them, else by
  // the full parser.
  let known: (DocPositions | undefined)[] | undefined;
  // By the depth kept: where a rule is answers most of what a plan shows, and keeping its fields
  // too was most of the walk's work.
  const shallow = new Map<number, (DocPositions | undefined)[]>();
  let walkFailed = false;
  const kept = reread ? undefined : text;
  const load = (): (DocPositions | undefined)[] => {
    if (known) return known;
    const source = kept ?? reread!();
    return (known = fastPositions(source, file, values) ?? parseWithPositions(source, file).documents.map((d) => d.positions));
  };
  let noted: NodeEvents | undefined = events;
  const length = text.length;
  const loadShallow = (keep: number): (DocPositions | undefined)[] | undefined => {
    // Positions kept deeper answer for shallower nodes too.
    const walked = shallow.get(SHALLOW_DEPTH) ?? shallow.get(keep);
    if (walked || walkFailed || !noted) return walked;
    const source = kept ?? reread!();
    // The events hold offsets into the text as first read: in a file since edited to another
    // length they would land beside the nodes, and the walk can still be in step (`1` made `12`
    // puts the next key's value on its colon). The full pass reads the new text afresh.
    const positions = source.length === length ? walkPositions(source, file, values, noted, SHALLOW_DEPTH, keep) : undefined;
    if (!positions) walkFailed = true;
    else shallow.set(keep, positions);
    // Once every depth is kept, the events are not needed again.
    if (!positions || keep === SHALLOW_DEPTH) noted = undefined;
    return positions;
  };
  return lazilyPlaced(file, values, (value, index) => new LazyDocPositions(file, value, () => load()[index], (keep) => loadShallow(keep)?.[index]));
}

/** Documents read fast, each placed by its positions when one is first asked for. */
function lazilyPlaced(file: string, values: readonly unknown[], positionsOf: (value: unknown, index: number) => LazyDocPositions): ParsedFile {
  const documents: ParsedDocument[] = values.map((value, index) => {
    const positions = positionsOf(value, index);
    return {
      file,
      index,
      value,
      get start() {
        return positions.start;
      },
      positions,
      ok: true,
    };
  });
  return { file, documents, diagnostics: [] };
}

/**
 * Whether the text may hold an anchor, an alias or a merge key (the block reader declines them
 * all): a `&` or `*` where a node can start and before a non-space (`**Bold**` in quotes is
 * neither), or a `<<`. Looked for with indexOf: both characters are rare in configuration files.
 */
function mayHoldAnchors(text: string): boolean {
  return text.includes('<<') || !nodeStarts(text, '&').next().done || !nodeStarts(text, '*').next().done;
}

/** Where `c` (`&` or `*`) is where a node can start and before a non-space (startsNode). */
function* nodeStarts(text: string, c: '&' | '*'): Generator<number> {
  for (let i = text.indexOf(c); i !== -1; i = text.indexOf(c, i + 1)) if (startsNode(text, i)) yield i;
}

/** Whether the property at `i` (`&a`, `!t`, `*a`) is where a node can start (after a line start, a space or a flow indicator) and before a non-space. */
function startsNode(text: string, i: number): boolean {
  const after = text[i + 1];
  return (i === 0 || OPENS_NODE.test(text[i - 1]!)) && after !== undefined && !SPACE.test(after);
}

/**
 * An alias as a key (`*k : v`, `{*k :1}`), which the full parser compares with the other keys its
 * own way; a merge key in quotes; or an anchor on a merge key (`&m <<: *a`).
 */
const ALIAS_KEY_OR_QUOTED_MERGE = /(?:^|[\s,[{?])\*[^\s,[\]{}]+(?:[ \t]*:(?:[ \t\r\n]|$)|[ \t]+:)|["']<<["']|&\S+[ \t]+<</m;
/**
 * An anchor in a value followed by a key on its line (`a: &x b: 1`): a mapping nested in a compact
 * one, which the full parser refuses and js-yaml reads (second read SR67-3). Only a plain value
 * is looked at, up to a comment: a quoted or flow value holding `: ` is no key (TR67-5).
 */
const COMPACT_AFTER_ANCHOR = /:[ \t]+&\S+[ \t]+[^\s"'{[#](?:[^\n#]|(?<! )#)*?:(?:[ \t]|$)/m;
/** An anchor alone on its line, then another anchor or an alias: one node with two properties, which the full parser refuses (third read TR67-9). */
const ANCHOR_THEN_PROPERTY = /&[A-Za-z0-9_-]+[ \t]*(?:#[^\n]*)?\n\s*[&*]/;
/** An anchor or alias name as both readers read it alike, followed by what may follow a node. */
const PLAIN_NAME_AT = /[A-Za-z0-9_-]+(?=[\s,\]}]|$)/y;

/**
 * Whether every `&` and `*` where a node can start names an anchor spelled plainly (letters,
 * digits, `_`, `-`), then a space, the line's end or a flow collection's `,`, `]`, `}` (the full
 * parser warns of a name ending in `:` and refuses one glued to a bracket or quote, SR67-5), and
 * no name is anchored twice in one document.
 */
function plainAnchorNames(text: string, starts: readonly number[]): boolean {
  const anchors = new Set<string>();
  for (const c of ['&', '*'] as const) {
    let next = 0;
    for (const i of nodeStarts(text, c)) {
      PLAIN_NAME_AT.lastIndex = i + 1;
      const name = PLAIN_NAME_AT.exec(text)?.[0];
      if (name === undefined) return false;
      // Each document has anchors of its own, in both readers: one `&shared` per playbook of a file is no name anchored twice.
      if (next < starts.length && i > starts[next]!) {
        while (next < starts.length && i > starts[next]!) next++;
        anchors.clear();
      }
      // A name anchored twice in a document: js-yaml points an alias inside the second node at it
      // already, the full parser at the first (third read TR67-3). Rare, and left to the full parser.
      if (c === '&' && anchors.has(name)) return false;
      if (c === '&') anchors.add(name);
    }
  }
  return true;
}

/**
 * Where each document marker (`---` or `...` at a line's start, then a space or the line's end)
 * is: always the end of a document, even in a block scalar or a quoted one. One written otherwise
 * (`---x`, which js-yaml takes for one too) is not counted, so the two documents it parts are
 * looked at as one, which declines more, never less.
 */
function documentStarts(text: string): number[] {
  return Array.from(text.matchAll(/^(?:---|\.\.\.)(?=[ \t\r\n]|$)/gm), (m) => m.index!);
}

/**
 * A file with anchors, aliases or merge keys (`<<: *base`, sharing rule text, as the README shows):
 * js-yaml reads its values, several times faster than the full parser, and the full parser works
 * out its positions when one is first asked for (an alias's value is where its anchor is, and a
 * merged key's change line where the merge is, as the full parser has them). Declined, so the full
 * parser reads it at once and says what it says, wherever js-yaml could read it otherwise (probe
 * IQ-1, second and third reads SR67, TR67): js-yaml refuses it; conflict markers; what
 * ALIAS_KEY_OR_QUOTED_MERGE, COMPACT_AFTER_ANCHOR, ANCHOR_THEN_PROPERTY and plainAnchorNames find; a node reached twice
 * (an alias or a merge of a collection holding one); or what AliasGuard finds as js-yaml reads.
 */
function parseAnchored(text: string, file: string, reread?: () => string): ParsedFile | undefined {
  if (text.includes('<<<<<<<') || mayHoldLongKey(text) || ALIAS_KEY_OR_QUOTED_MERGE.test(text) || COMPACT_AFTER_ANCHOR.test(text) || ANCHOR_THEN_PROPERTY.test(text)) return undefined;
  const documents = documentStarts(text);
  if (!plainAnchorNames(text, documents)) return undefined;
  const guard = new AliasGuard(text, documents);
  const indents = new IndentGuard(text);
  const read: unknown[] = [];
  try {
    jsYaml.loadAll(text, (doc: unknown) => read.push(doc), { schema: MERGE_SCHEMA, filename: file, listener: bothListeners(guard.listener, indents.listener) });
  } catch {
    return undefined;
  }
  if (guard.declined || indents.declined || !plainDocuments(read)) return undefined;
  const kept = reread ? undefined : text;
  const merges = text.includes('<<');
  let known: (DocPositions | undefined)[] | undefined;
  const load = (): (DocPositions | undefined)[] => (known ??= parseWithPositions(kept ?? reread!(), file).documents.map((d) => d.positions));
  return lazilyPlaced(file, read, (value, index) => new LazyDocPositions(file, value, () => load()[index], () => undefined, merges));
}

/**
 * Watches js-yaml read a file (its `listener`) for what parseAnchored declines: a mapping with two
 * merge keys, a merge of what is not a mapping or a list of mappings, and aliases that could
 * expand to more than aliasExpansionLimit allows (counted generously: keys too, a whole file at
 * once). A node's size
 * is 1 and its children's (keys too); an alias's is its anchor's, so aliases inside an anchored
 * node are counted again at each alias of it, as the full parser expands them.
 */
class AliasGuard {
  declined = false;
  private expanded = 0;
  /** Characters of the file's text aliases brought, counted as their anchored nodes are written, and what those hold expanded. */
  private expandedText = 0;
  /** Each anchor closed so far: its size, its length as text, whether it is a mapping (a merge takes only those, or a list of them), its document. */
  private readonly anchors = new Map<string, { size: number; chars: number; mapping: boolean; document: number }>();
  /**
   * Nodes open: where each starts, its size so far, its merge keys, whether its next child is a
   * merge key's value, and whether every child so far is a mapping (a list a merge may take).
   */
  private readonly open: { start: number; size: number; grown: number; merges: number; mergeValueNext: boolean; allMappings: boolean }[] = [];

  /** `documents`: where each document marker of the text is (documentStarts). */
  constructor(
    private readonly text: string,
    private readonly documents: readonly number[],
  ) {}

  // js-yaml's State has the node's tag and anchor at its close; its types leave them out.
  readonly listener = (event: 'open' | 'close', { position, tag, anchor, kind }: jsYaml.State & { tag?: string | null; anchor?: string | null }): void => {
    if (event === 'open') {
      this.open.push({ start: position, size: 0, grown: 0, merges: 0, mergeValueNext: false, allMappings: true });
      return;
    }
    const node = this.open.pop()!;
    const parent = this.open.at(-1);
    const alias = this.aliasAt(node.start);
    let size = 1 + node.size;
    // As text: its length as written, and what aliases inside it add.
    let chars = position - node.start + node.grown;
    let mapping = kind === 'mapping';
    if (alias !== undefined) {
      // The alias node counts too, as the full parser counts it inside an expansion (SR67-8).
      const named = this.anchors.get(alias);
      // An alias of a node still open (inside it: js-yaml takes the node as far as it is read, the
      // full parser refuses it), or of another document's anchor, which neither reader knows here.
      if (named === undefined || named.document !== this.documentOf(node.start)) this.declined = true;
      size = (named?.size ?? 1) + 1;
      this.expanded += size;
      chars = named?.chars ?? 0;
      this.expandedText += chars;
      if (this.expanded > aliasExpansionLimit(this.text.length) || this.expandedText > MAX_ALIASED_TEXT) this.declined = true;
      mapping = named?.mapping ?? false;
    } else if (anchor) {
      this.anchors.set(anchor, { size, chars, mapping, document: this.documentOf(node.start) });
    }
    if (parent) {
      // What a merge key takes: a mapping, or a list of mappings (js-yaml takes a list's items too, SR67-2).
      if (parent.mergeValueNext) {
        parent.mergeValueNext = false;
        if (!mapping && !(kind === 'sequence' && alias === undefined && node.allMappings)) this.declined = true;
      }
      if (tag === MERGE_TAG && ++parent.merges > 1) this.declined = true;
      if (tag === MERGE_TAG) parent.mergeValueNext = true;
      if (!mapping) parent.allMappings = false;
      parent.size += size;
      parent.grown += chars - (position - node.start);
    }
  };

  /** Which document of the file the text at `at` is in: how many document markers come before it. */
  private documentOf(at: number): number {
    let low = 0;
    let high = this.documents.length;
    while (low < high) {
      const mid = (low + high) >> 1;
      if (this.documents[mid]! < at) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  /** The alias a node starting at `at` is (past spaces, line breaks and comments), if it is one. */
  private aliasAt(at: number): string | undefined {
    const t = this.text;
    const i = pastSpaceAndComments(t, at);
    if (t[i] !== '*') return undefined;
    return /^[^\s,[\]{}]+/.exec(t.slice(i + 1, i + 256))?.[0];
  }
}

/**
 * The value of a one-document YAML text when js-yaml reads it plainly (the same test as a file's),
 * else undefined: the caller then takes the full parser, which reads anything else.
 */
export function plainYamlValue(text: string): unknown {
  // A definition the service holds, compared with its file: a key YAML reads as null is js-yaml's
  // `null` here, as the file's `null:` reads (a nameless or `~` key validate refuses in the file).
  // The full parser's data model would make it "" (probe GF).
  const documents = plainYamlDocuments(text, { nullKeys: true });
  return documents?.length === 1 ? documents[0] : undefined;
}

/**
 * Every document of a text the fast readers read exactly as the full parser does (the test of
 * parseYamlFile: no tag, anchor, merge key, YAML 1.1 number or empty document), else undefined.
 * For values only, with no positions: several times faster than the full parser.
 */
export function plainYamlDocuments(text: string, options: { nullKeys?: boolean } = {}): unknown[] | undefined {
  if (!fastReadable(text)) return undefined;
  const block = readBlockYaml(text);
  if (block !== undefined) return block.length > 0 ? block : undefined;
  if (mayHoldLongKey(text)) return undefined;
  const indents = new IndentGuard(text);
  const read: unknown[] = [];
  try {
    jsYaml.loadAll(text, (doc) => read.push(doc), { schema: CORE_SCHEMA, listener: indents.listener });
  } catch {
    return undefined;
  }
  return read.length > 0 && !indents.declined && plainDocuments(read, options.nullKeys) ? read : undefined;
}

/**
 * Whether the fast readers may read `text` at all: no byte-order mark left in it (a file that
 * starts with two: js-yaml drops it and counts its offsets without it, so every position would be
 * one character early), and nothing they might read otherwise than the full parser (with
 * `anchors`, anchors and merge keys are parseAnchored's to check).
 */
function fastReadable(text: string, anchors = false): boolean {
  return !text.startsWith('\uFEFF') && !needsFullParser(text, anchors);
}

/** Whether documents js-yaml read are as the full parser reads them: none empty, no node reached twice, no key `null` unless `nullKeys`, no key `<<`. */
function plainDocuments(read: readonly unknown[], nullKeys = false): boolean {
  return !read.some((v) => v === null || v === undefined || readOtherwise(v, nullKeys));
}

/**
 * Whether a node is reached twice (an alias), or a key reads `null` (js-yaml's name for `: x` and
 * `~: x`, which the full parser keeps as written: a key no one named; probe GA).
 */
function readOtherwise(root: unknown, nullKeys: boolean): boolean {
  const seen = new Set<object>();
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v === null || typeof v !== 'object') continue;
    if (seen.has(v)) return true;
    seen.add(v);
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const x: unknown = v[i];
        // A list item with no value: js-yaml takes the items after it that are indented less, up to
        // its list's parent, into that list (`ignore_fields:\n  -\n- name: B` makes rule B an item
        // of `ignore_fields`; probe QW-1). Every list field refuses such an item: the full parser says so.
        if (x === null) return true;
        stack.push(x);
      }
    } else {
      const o = v as Record<string, unknown>;
      for (const k in o) {
        if (k === 'null' && !nullKeys) return true;
        // A `<<` key js-yaml kept as text (quoted, or spelt `"\x3c\x3c"`): rare, and read by the full parser (SR67-6, probe PK-1).
        if (k === '<<') return true;
        stack.push(o[k]);
      }
    }
  }
  return false;
}

type Resolve = 'key' | 'value' | 'start';

/**
 * A SourcePos whose line and column are worked out when first read: own enumerable accessors (so
 * spreading it or writing it as JSON gives the numbers) shared by every instance, and the state in
 * private fields, so tens of thousands of them stay small.
 */
class LazyPos implements SourcePos {
  declare readonly line: number;
  declare readonly col: number;
  readonly file: string;
  #positions: LazyDocPositions;
  #pointer: string;
  #resolve: Resolve;
  #at: LineCol | undefined;

  constructor(positions: LazyDocPositions, pointer: string, resolve: Resolve) {
    this.file = positions.file;
    this.#positions = positions;
    this.#pointer = pointer;
    this.#resolve = resolve;
    // One call per accessor, with descriptors made once: defineProperties reads a descriptor map
    // each time, and twice as slowly (a plan makes one of these per rule and per reference).
    Object.defineProperty(this, 'line', LINE_ACCESSOR);
    Object.defineProperty(this, 'col', COL_ACCESSOR);
  }

  static resolved(pos: LazyPos): LineCol {
    return (pos.#at ??= pos.#positions.resolve(pos.#pointer, pos.#resolve));
  }
}

const LINE_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  get(this: LazyPos) {
    return LazyPos.resolved(this).line;
  },
};
const COL_ACCESSOR: PropertyDescriptor = {
  enumerable: true,
  get(this: LazyPos) {
    return LazyPos.resolved(this).col;
  },
};

/**
 * How deep the positions noted while a file is read go: the document (1), its keys and values (2),
 * the items of its lists (3) and their keys and values (4): a rule, and each of its fields, which
 * is what a plan shows a change at.
 */
const SHALLOW_DEPTH = 4;

/** Kept by a first walk: down to the items of a document's lists (a rule), not their fields. */
const ITEM_DEPTH = 3;

/** How deep a pointer's node is: the document is 1, `/rules` 2, `/rules/3` 3. */
function depthOf(pointer: string): number {
  let depth = 1;
  for (let at = pointer.indexOf('/'); at !== -1; at = pointer.indexOf('/', at + 1)) depth++;
  return depth;
}

/**
 * Positions answered on first use: a shallow node's from the events noted while the file was read,
 * any other's by a full pass; `has` is answered from the value.
 */
class LazyDocPositions extends DocPositions {
  private real: DocPositions | undefined;

  constructor(
    file: string,
    private readonly value: unknown,
    private readonly loadReal: () => DocPositions | undefined,
    private readonly loadShallow: (keep: number) => DocPositions | undefined,
    /** The text may hold merge keys: where a merged key came from is then the full pass's to say. */
    private readonly mayMerge = false,
  ) {
    super(file, { line: 1, col: 1 });
  }

  private get loaded(): DocPositions {
    return (this.real ??= this.loadReal() ?? new DocPositions(this.file, { line: 1, col: 1 }));
  }

  /** The shallow positions when they hold `pointer` itself (not an ancestor of it), and no full pass was made. */
  private shallowFor(pointer: string): DocPositions | undefined {
    if (this.real) return undefined;
    const depth = depthOf(pointer);
    if (depth > SHALLOW_DEPTH) return undefined;
    const shallow = this.loadShallow(depth <= ITEM_DEPTH ? ITEM_DEPTH : SHALLOW_DEPTH);
    return shallow?.has(pointer) ? shallow : undefined;
  }

  override get start(): LineCol {
    return (this.shallowFor('') ?? this.loaded).start;
  }

  override has(pointer: string): boolean {
    let node: unknown = this.value;
    for (const segment of splitPointer(pointer)) {
      // An item of a list only by its index as written (`0`, `12`), and below its length (third read TR67-9).
      if (Array.isArray(node)) {
        if (!/^(?:0|[1-9][0-9]*)$/.test(segment) || Number(segment) >= node.length) return false;
        node = node[Number(segment)];
      } else if (node !== null && typeof node === 'object' && Object.hasOwn(node, segment)) node = (node as Record<string, unknown>)[segment];
      else return false;
    }
    return true;
  }

  override at(pointer: string): SourcePos {
    return new LazyPos(this, pointer, 'key');
  }

  override valueAt(pointer: string): SourcePos {
    return new LazyPos(this, pointer, 'value');
  }

  override startPos(): SourcePos {
    return new LazyPos(this, '', 'start');
  }

  /** @internal for LazyPos. */
  resolve(pointer: string, how: Resolve): LineCol {
    const real = this.shallowFor(pointer) ?? this.loaded;
    return how === 'start' ? real.start : how === 'value' ? real.valueAt(pointer) : real.at(pointer);
  }

  override isPlain(pointer: string): boolean {
    return this.loaded.isPlain(pointer);
  }

  override mergedAt(pointer: string): SourcePos | undefined {
    return this.mayMerge ? this.loaded.mergedAt(pointer) : undefined;
  }
}

/**
 * The `---` that starts the document at `start` (on its line or above), or `start` when none is
 * written. `lines` is the file's text split into lines, once for all its documents.
 */
export function separatorBefore(lines: readonly string[], start: { line: number; col: number }): { line: number; col: number } {
  for (let line = start.line; line >= 1; line--) {
    if (/^---(\s|$)/.test(lines[line - 1] ?? '')) return { line, col: 1 };
    // Only comments and blank lines lie between a separator and its document's first value.
    if (line < start.line && !/^\s*(#.*)?$/.test(lines[line - 1] ?? '')) break;
  }
  return start;
}
