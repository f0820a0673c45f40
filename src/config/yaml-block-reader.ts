/**
 * A reader for the plain block style configuration files are written in: block mappings and
 * sequences, one-line plain and quoted scalars, literal and folded block scalars, comments and
 * `---` between documents. It reads such a file several times faster than js-yaml, and gives
 * exactly what js-yaml (core schema) gives: plain scalars are resolved by js-yaml's own types.
 *
 * Anything else it declines (returns undefined) without guessing, and js-yaml reads the file:
 * flow collections, anchors, aliases and tags, multi-line plain or quoted scalars, escapes, tabs,
 * carriage returns, quoted or typed keys, duplicate keys, empty documents or items, indentation
 * indicators. test/unit/config/yaml-block-reader.test.ts holds it to js-yaml on generated files.
 *
 * While reading it notes where each node opens and closes, as js-yaml's `listener` does (down to
 * `maxDepth`, as NodeEvents.recorder notes them), in the form the position walk
 * (yaml-fast-positions.ts) reads: a node opens at its first character (a block sequence at its
 * first `-`), a key opens and closes around its text, and a value written as nothing (`key:`)
 * opens and closes right after the colon.
 */
import { CORE_SCHEMA } from './yaml-core-schema.js';
import type { NodeEvents } from './yaml-fast-positions.js';
import { IMPLICIT_KEY_LIMIT } from './yaml-key-limit.js';

export interface BlockReadOptions {
  /** Where nodes open and close is noted here, for nodes at most `maxDepth` deep (a document's root is at depth 1). */
  events?: NodeEvents;
  maxDepth?: number;
}

interface ImplicitType {
  resolve(data: string): boolean;
  construct(data: string): unknown;
}

/** js-yaml's plain-scalar types of the core schema (null, bool, int, float), in its order. */
const IMPLICIT = (CORE_SCHEMA as unknown as { compiledImplicit: ImplicitType[] }).compiledImplicit;

/**
 * Characters this reader never reads: tabs and carriage returns (indentation and line ends it
 * does not handle), what js-yaml refuses as non-printable, byte-order marks, the line separators
 * YAML 1.1 and 1.2 treat differently, and surrogates, which are looked at closer (a pair is a
 * character like any other; a lone one is refused by js-yaml).
 */
const DECLINED_OR_SURROGATE = /[\t\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF\uD800-\uDFFF]/;
const DECLINED_CHARACTER =
  /[\t\r\x00-\x08\x0B\x0C\x0E-\x1F\x7F-\x9F\u2028\u2029\uFEFF\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?:[^\uD800-\uDBFF]|^)[\uDC00-\uDFFF]/;

const ONLY_SPACES = /^ *$/;
const SPACE = 0x20;
const HASH = 0x23;
const DASH = 0x2d;
const DOT = 0x2e;
const COLON = 0x3a;
const DOUBLE_QUOTE = 0x22;
const SINGLE_QUOTE = 0x27;
const PIPE = 0x7c;
const GREATER = 0x3e;
const BACKSLASH = 0x5c;
const PLUS = 0x2b;

/** Thrown (one object, never an Error: no stack to capture) when the text is not in the subset. */
const DECLINE: unique symbol = Symbol('decline');

/**
 * Collections nested deeper than this are left to js-yaml and the full parser: far more than any
 * configuration needs, and well within the depth at which the full parser reports `yaml-too-deep`
 * (so that error is never the reader's to give or to miss).
 */
const MAX_DEPTH = 32;

/** Every document of `text`, or undefined when the text is not in the subset. */
export function readBlockYaml(text: string, options: BlockReadOptions = {}): unknown[] | undefined {
  if (DECLINED_OR_SURROGATE.test(text) && DECLINED_CHARACTER.test(text)) return undefined;
  try {
    return new BlockReader(text, options.events, options.maxDepth ?? Infinity).documents();
  } catch (e) {
    if (e === DECLINE) return undefined;
    throw e;
  }
}

/** What the cursor is on: a line with content, a `---` line, or the end of the text. */
const enum At {
  Content,
  Marker,
  End,
}

class BlockReader {
  /** Start of the line the cursor is on. */
  private line = 0;
  /** Its indentation (spaces), and where it ends (its `\n`, or the text's length). */
  private indent = 0;
  private lineEnd = 0;
  private at: At = At.End;
  /** Where the last node read ends: a collection closes there. */
  private lastEnd = 0;
  /** How many collections (mappings and lists) the cursor is in. */
  private depth = 0;
  /** How many nodes are open, for the events (a node deeper than `maxDepth` is not noted). */
  private openNodes = 0;
  private readonly colons: NextOf;
  private readonly hashes: NextOf;
  /**
   * The keys of the last mapping read at each column, in order: the mappings of one column mostly
   * have the same keys (every rule's), and a key found where the last one had it is taken as it is,
   * without cutting it from the text and checking it again. No key is in one twice.
   */
  private readonly keysAt: string[][] = [];

  constructor(
    private readonly text: string,
    private readonly events: NodeEvents | undefined,
    private readonly maxDepth: number,
  ) {
    this.colons = new NextOf(text, ':');
    this.hashes = new NextOf(text, '#');
  }

  documents(): unknown[] {
    const docs: unknown[] = [];
    this.moveTo(0);
    let marked = false;
    for (;;) {
      if (this.at === At.Marker) {
        if (marked) throw DECLINE; // an empty document between two markers
        marked = true;
        this.moveTo(this.lineEnd + 1);
        continue;
      }
      if (this.at === At.End) {
        // A marker with nothing after it is an empty document; a text of only comments holds none.
        if (marked || docs.length === 0) throw DECLINE;
        return docs;
      }
      if (this.indent !== 0) throw DECLINE;
      docs.push(this.node());
      marked = false;
      if (this.at === At.Content) throw DECLINE;
    }
  }

  /** Puts the cursor on the first line from `from` that is not blank or a comment. */
  private moveTo(from: number): void {
    const t = this.text;
    const length = t.length;
    let start = from;
    while (start < length) {
      let i = start;
      while (t.charCodeAt(i) === SPACE) i++;
      let end = t.indexOf('\n', i);
      if (end === -1) end = length;
      const c = t.charCodeAt(i);
      if (i === end || c === HASH) {
        start = end + 1;
        continue;
      }
      this.line = start;
      this.indent = i - start;
      this.lineEnd = end;
      this.at = i === start && (c === DASH || c === DOT) && this.isMarker(start, end) ? At.Marker : At.Content;
      return;
    }
    this.line = length;
    this.lineEnd = length;
    this.indent = -1;
    this.at = At.End;
  }

  /** `---` alone (or with a comment) separates documents; `...`, or `---` with content after it, is declined. */
  private isMarker(start: number, end: number): boolean {
    const t = this.text;
    const c = t.charCodeAt(start);
    if (t.charCodeAt(start + 1) !== c || t.charCodeAt(start + 2) !== c) return false;
    if (start + 3 < end && t.charCodeAt(start + 3) !== SPACE) return false;
    if (c === DOT) throw DECLINE;
    const rest = skipSpaces(t, start + 3, end);
    if (rest < end && t.charCodeAt(rest) !== HASH) throw DECLINE;
    return true;
  }

  private open(position: number): void {
    if (this.openNodes++ < this.maxDepth) this.events?.push(true, position);
  }

  private close(position: number): void {
    if (--this.openNodes < this.maxDepth) this.events?.push(false, position);
  }

  /** A block collection starting on the cursor's line. */
  private node(): unknown {
    const start = this.line + this.indent;
    if (this.isItem(start)) return this.sequence(this.indent);
    const colon = this.keyColon(start, this.lineEnd);
    // A scalar on a line of its own (a multi-line plain scalar, a top-level scalar document).
    if (colon < 0) throw DECLINE;
    return this.mapping(this.indent, start, colon);
  }

  /** Whether a `-` item indicator is at `at` (followed by a space or the line's end). */
  private isItem(at: number): boolean {
    return this.text.charCodeAt(at) === DASH && (at + 1 === this.lineEnd || this.text.charCodeAt(at + 1) === SPACE);
  }

  /**
   * The colon that ends a plain key starting at `from` (followed by a space or the line's end), or
   * -1 when the line holds no key. Declines a key that is quoted, starts with an indicator, holds
   * a comment or a flow indicator, or is too long for an implicit key (yaml-key-limit.ts).
   */
  private keyColon(from: number, end: number): number {
    const t = this.text;
    const first = t.charCodeAt(from);
    if (isIndicator(first)) {
      // A quoted scalar or a block scalar is read as a value; anything else starting so is declined.
      if (first === DOUBLE_QUOTE || first === SINGLE_QUOTE || first === PIPE || first === GREATER) return -1;
      throw DECLINE;
    }
    let colon = this.colons.from(from);
    while (colon + 1 < end && t.charCodeAt(colon + 1) !== SPACE) colon = this.colons.from(colon + 1);
    if (colon >= end) return -1;
    if (colon - from > IMPLICIT_KEY_LIMIT) throw DECLINE;
    // A comment before it: the line holds a scalar.
    for (let h = this.hashes.from(from); h < colon; h = this.hashes.from(h + 1)) if (t.charCodeAt(h - 1) === SPACE) return -1;
    // A key holding `[`, `]`, `{`, `}` or `,` is one of js-yaml's finer points (as a value they are plain text).
    for (let i = from; i < colon; i++) if (isFlowIndicator(t.charCodeAt(i))) throw DECLINE;
    return colon;
  }

  /** The colon after the key the last mapping at `column` had as its key number `n`, when that key is at `at`; else -1. */
  private knownKeyColon(column: number, n: number, at: number): number {
    const key = this.keysAt[column]?.[n];
    if (key === undefined) return -1;
    const t = this.text;
    const colon = at + key.length;
    if (t.charCodeAt(colon) !== COLON || !(colon + 1 === this.lineEnd || t.charCodeAt(colon + 1) === SPACE)) return -1;
    return isAt(t, key, at) ? colon : -1;
  }

  /** A block mapping whose keys are at column `indent`; the first key starts at `first`, its colon at `colon`. */
  private mapping(indent: number, first: number, colon: number): Record<string, unknown> {
    this.enter();
    const t = this.text;
    const out: Record<string, unknown> = {};
    const known = (this.keysAt[indent] ??= []);
    /** Whether every key so far is the one `known` has at its place: then none is repeated. */
    let asKnown = true;
    this.open(first);
    let keyStart = first;
    for (let n = 0; ; n++) {
      let key = known[n];
      if (!(asKnown && key !== undefined && colon === keyStart + key.length && isAt(t, key, keyStart))) {
        let keyEnd = colon;
        while (keyEnd > keyStart && t.charCodeAt(keyEnd - 1) === SPACE) keyEnd--;
        key = t.slice(keyStart, keyEnd);
        // A key js-yaml would type (`1:`, `true:`, `~:`), `__proto__`, or a repeated key.
        if (key === '' || key === '__proto__' || typeof plainScalar(key) !== 'string' || Object.hasOwn(out, key)) throw DECLINE;
        asKnown = false;
        known.length = n;
        known.push(key);
      }
      this.open(keyStart);
      this.close(keyStart + key.length);
      out[key] = this.value(indent, colon);
      if (this.at !== At.Content || this.indent < indent) break;
      if (this.indent > indent) throw DECLINE;
      keyStart = this.line + indent;
      colon = asKnown ? this.knownKeyColon(indent, n + 1, keyStart) : -1;
      if (colon < 0) {
        if (this.isItem(keyStart)) throw DECLINE;
        colon = this.keyColon(keyStart, this.lineEnd);
        if (colon < 0) throw DECLINE;
      }
    }
    this.close(this.lastEnd);
    this.depth--;
    return out;
  }

  /** The value after the colon of a key of a mapping at column `indent`; leaves the cursor after it. */
  private value(indent: number, colon: number): unknown {
    const t = this.text;
    const end = this.lineEnd;
    const at = skipSpaces(t, colon + 1, end);
    if (at === end || t.charCodeAt(at) === HASH) {
      // Nothing on the key's line: a collection on the lines below, or null.
      this.moveTo(end + 1);
      if (this.at === At.Content && this.indent > indent) return this.node();
      if (this.at === At.Content && this.indent === indent && this.isItem(this.line + indent)) return this.sequence(indent);
      this.open(colon + 1);
      this.close(colon + 1);
      this.lastEnd = colon + 1;
      return null;
    }
    return this.inline(at, indent);
  }

  /** A scalar starting at `at` on the cursor's line, in a collection at column `indent`. */
  private inline(at: number, indent: number): unknown {
    const c = this.text.charCodeAt(at);
    if (c === PIPE || c === GREATER) return this.blockScalar(at, indent);
    let value: unknown;
    let end: number;
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      [value, end] = c === DOUBLE_QUOTE ? this.doubleQuoted(at) : this.singleQuoted(at);
      const rest = skipSpaces(this.text, end, this.lineEnd);
      if (rest < this.lineEnd && !(rest > end && this.text.charCodeAt(rest) === HASH)) throw DECLINE;
    } else {
      end = this.plainEnd(at);
      value = plainScalar(this.text.slice(at, end));
    }
    this.open(at);
    this.close(end);
    this.lastEnd = end;
    this.moveTo(this.lineEnd + 1);
    // A line indented under a scalar continues it (or is an error): js-yaml's to read.
    if (this.at === At.Content && this.indent > indent) throw DECLINE;
    return value;
  }

  /** Where a plain scalar starting at `at` ends (before a comment and trailing spaces). */
  private plainEnd(at: number): number {
    const t = this.text;
    const lineEnd = this.lineEnd;
    const first = t.charCodeAt(at);
    if (isIndicator(first) && !(first === DASH && at + 1 < lineEnd && t.charCodeAt(at + 1) !== SPACE)) throw DECLINE;
    let end = lineEnd;
    for (let h = this.hashes.from(at + 1); h < lineEnd; h = this.hashes.from(h + 1)) {
      if (t.charCodeAt(h - 1) === SPACE) {
        end = h;
        break;
      }
    }
    // `a: b: c` is an error, and a colon at the end of the value starts a key.
    for (let c = this.colons.from(at + 1); c < end; c = this.colons.from(c + 1)) {
      if (c + 1 === lineEnd || t.charCodeAt(c + 1) === SPACE) throw DECLINE;
    }
    while (end > at && t.charCodeAt(end - 1) === SPACE) end--;
    return end;
  }

  /** `"text"` on one line without escapes: the text and where the scalar ends. */
  private doubleQuoted(at: number): [string, number] {
    const t = this.text;
    const close = t.indexOf('"', at + 1);
    if (close === -1 || close >= this.lineEnd) throw DECLINE;
    for (let i = at + 1; i < close; i++) if (t.charCodeAt(i) === BACKSLASH) throw DECLINE;
    return [t.slice(at + 1, close), close + 1];
  }

  /** `'text'` on one line, `''` standing for `'`: the text and where the scalar ends. */
  private singleQuoted(at: number): [string, number] {
    const t = this.text;
    let from = at + 1;
    let doubled = false;
    for (;;) {
      const q = t.indexOf("'", from);
      if (q === -1 || q >= this.lineEnd) throw DECLINE;
      if (t.charCodeAt(q + 1) === SINGLE_QUOTE && q + 1 < this.lineEnd) {
        doubled = true;
        from = q + 2;
        continue;
      }
      const inner = t.slice(at + 1, q);
      return [doubled ? inner.replaceAll("''", "'") : inner, q + 1];
    }
  }

  /** A literal (`|`) or folded (`>`) block scalar whose header is at `at`, under a collection at column `indent`. */
  private blockScalar(at: number, indent: number): string {
    const t = this.text;
    const headerEnd = this.lineEnd;
    const folded = t.charCodeAt(at) === GREATER;
    let i = at + 1;
    let chomp: 'clip' | 'strip' | 'keep' = 'clip';
    if (t.charCodeAt(i) === DASH) {
      chomp = 'strip';
      i++;
    } else if (t.charCodeAt(i) === PLUS) {
      chomp = 'keep';
      i++;
    }
    const rest = skipSpaces(t, i, headerEnd);
    // An indentation indicator, or anything but a comment after the header.
    if (rest < headerEnd && !(rest > i && t.charCodeAt(rest) === HASH)) throw DECLINE;

    let contentIndent = -1;
    /** Blank lines not yet followed by content, and the most spaces one of them had. */
    let blank = 0;
    let blankSpaces = 0;
    let leadingBlank = 0;
    /** Whether a blank line between two content lines holds spaces (the body is then made line by line). */
    let spacedBlank = false;
    let firstContent = -1;
    let lastContentEnd = -1;
    let start = headerEnd + 1;
    const length = t.length;
    while (start < length) {
      let s = start;
      while (t.charCodeAt(s) === SPACE) s++;
      let end = t.indexOf('\n', s);
      if (end === -1) end = length;
      const spaces = s - start;
      if (s === end) {
        // A blank line; one without a line break ends the text, which chomping reads its own way.
        if (end === length) throw DECLINE;
        blank++;
        blankSpaces = Math.max(blankSpaces, spaces);
        start = end + 1;
        continue;
      }
      if (contentIndent < 0) {
        if (spaces <= indent) break;
        contentIndent = spaces;
        firstContent = start;
        leadingBlank = blank;
      } else if (spaces < contentIndent) {
        break;
      } else if (blankSpaces > 0) {
        spacedBlank = true;
      }
      // Folding keeps more-indented lines as they are, and a blank line with more spaces than the
      // content's indentation holds spaces: js-yaml's to read.
      if ((folded && spaces > contentIndent) || blankSpaces > contentIndent) throw DECLINE;
      blank = 0;
      blankSpaces = 0;
      lastContentEnd = end;
      start = end + 1;
    }
    // An empty block scalar, one whose last line has no line break after it, or trailing blank
    // lines with more spaces than its indentation.
    if (contentIndent < 0 || lastContentEnd >= length || blankSpaces > contentIndent) throw DECLINE;

    const lines = t.slice(firstContent, lastContentEnd);
    const leading = '\n'.repeat(leadingBlank);
    let body: string;
    if (!folded && !spacedBlank) {
      // The lines as written, less the indentation of each.
      body = leading + lines.slice(contentIndent).replaceAll(`\n${' '.repeat(contentIndent)}`, '\n');
    } else {
      const each = lines.split('\n').map((line) => (ONLY_SPACES.test(line) ? '' : line.slice(contentIndent)));
      body = leading + (folded ? fold(each) : each.join('\n'));
    }
    const result = chomp === 'strip' ? body : chomp === 'clip' ? `${body}\n` : `${body}\n${'\n'.repeat(blank)}`;
    this.open(at);
    this.close(lastContentEnd);
    this.lastEnd = lastContentEnd;
    this.moveTo(start);
    return result;
  }

  /** A block sequence whose `-` indicators are at column `indent`; the cursor is on its first item. */
  private sequence(indent: number): unknown[] {
    this.enter();
    const t = this.text;
    const out: unknown[] = [];
    this.open(this.line + indent);
    for (;;) {
      const dash = this.line + indent;
      const end = this.lineEnd;
      const at = skipSpaces(t, dash + 1, end);
      // An empty item, or one whose content starts on the next line.
      if (at === end || t.charCodeAt(at) === HASH) throw DECLINE;
      // A sequence in a sequence item.
      if (this.isItem(at)) throw DECLINE;
      const known = this.knownKeyColon(at - this.line, 0, at);
      const colon = known >= 0 ? known : this.keyColon(at, end);
      if (colon >= 0) out.push(this.mapping(at - this.line, at, colon));
      else {
        const c = t.charCodeAt(at);
        // A quoted key (`- "a": 1`) is declined: only a quoted scalar item is read here.
        if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) this.quotedItemIsNotKey(at);
        out.push(this.inline(at, indent));
      }
      if (this.at !== At.Content || this.indent < indent) break;
      if (this.indent > indent) throw DECLINE;
      if (!this.isItem(this.line + indent)) break;
    }
    this.close(this.lastEnd);
    this.depth--;
    return out;
  }

  /** One collection deeper; nesting no configuration needs is left to the full parser, which reports it at its line. */
  private enter(): void {
    if (++this.depth > MAX_DEPTH) throw DECLINE;
  }

  private quotedItemIsNotKey(at: number): void {
    const t = this.text;
    const [, end] = t.charCodeAt(at) === DOUBLE_QUOTE ? this.doubleQuoted(at) : this.singleQuoted(at);
    const next = skipSpaces(t, end, this.lineEnd);
    if (t.charCodeAt(next) === COLON && next < this.lineEnd) throw DECLINE;
  }
}

/** Folded lines: a line break between two lines becomes a space; blank lines stay line breaks. */
function fold(lines: readonly string[]): string {
  let out = '';
  let breaks = 0;
  for (const line of lines) {
    if (line === '') {
      breaks++;
      continue;
    }
    if (out !== '') out += breaks > 0 ? '\n'.repeat(breaks) : ' ';
    out += line;
    breaks = 0;
  }
  return out;
}

/** A table of the ASCII characters in `chars`. */
function asciiTable(chars: string): Uint8Array {
  const table = new Uint8Array(128);
  for (const c of chars) table[c.charCodeAt(0)] = 1;
  return table;
}

/** Characters a plain scalar (or key) cannot start with. */
const INDICATORS = asciiTable('-?:,[]{}#&*!|>\'"%@`');
/** Characters a core-schema type (null, bool, int, float) can start with. */
const TYPED_STARTS = asciiTable('~nNtTfF0123456789+-.');
const FLOW_INDICATORS = asciiTable('[]{},');

function isIndicator(c: number): boolean {
  return c < 128 && INDICATORS[c] === 1;
}

function isFlowIndicator(c: number): boolean {
  return c < 128 && FLOW_INDICATORS[c] === 1;
}

/** A plain scalar's value as js-yaml's core schema reads it. */
export function plainScalar(text: string): unknown {
  const c = text.charCodeAt(0);
  if (c >= 128 || TYPED_STARTS[c] !== 1) return text;
  for (const type of IMPLICIT) if (type.resolve(text)) return type.construct(text);
  return text;
}

/** Whether `text` holds `part` at `at` (keys are short: a loop costs less than startsWith's call). */
function isAt(text: string, part: string, at: number): boolean {
  for (let i = 0; i < part.length; i++) if (text.charCodeAt(at + i) !== part.charCodeAt(i)) return false;
  return true;
}

function skipSpaces(t: string, from: number, end: number): number {
  let i = from;
  while (i < end && t.charCodeAt(i) === SPACE) i++;
  return i;
}

/**
 * Where the next `char` is, at or after a position, for positions that mostly move forward: one
 * search answers every position up to what it found (a search per line could run to the end of
 * the text each time).
 */
class NextOf {
  private searchedFrom = Infinity;
  private found = -1;

  constructor(
    private readonly text: string,
    private readonly char: string,
  ) {}

  /** The first `char` at or after `position`, or the text's length. */
  from(position: number): number {
    if (position < this.searchedFrom || position > this.found) {
      this.searchedFrom = position;
      const i = this.text.indexOf(this.char, position);
      this.found = i === -1 ? this.text.length : i;
    }
    return this.found;
  }
}
