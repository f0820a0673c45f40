/**
 * Positions of a file the fast reader (js-yaml) read, from a second js-yaml pass that reports
 * where each node opens: several times cheaper than the full parser, which a plan that touches
 * many files (200 edited playbooks) would otherwise run over each of them.
 *
 * js-yaml tells where each node opens and closes, not which key or index it is; the values are
 * known, so the events are walked alongside them: a mapping opens, then each key (one scalar),
 * then that key's value, then the mapping closes. Anything this walk cannot be sure of (a key
 * that is not a plain scalar, keys whose order a JavaScript object does not keep, an event out
 * of step) returns undefined, and the full parser answers instead, so a position is never a
 * guess. test/unit/config/yaml-read.test.ts holds both to the same answers.
 */
import jsYaml from 'js-yaml';
import { CORE_SCHEMA } from './yaml-core-schema.js';
import { documentLineColumns } from './bom-columns.js';
import { DocPositions, joinPointer, type Entry, type LineCol } from './yaml-positions.js';

/**
 * Where each node opens and closes, as numbers (`offset * 2 + 1` opens, `offset * 2` closes; a
 * string is under 2^29 characters, so a code fits 31 bits): a plan showing 200 edited playbooks
 * reads some 300,000 of them, and an object each was an eighth of what finding positions allocated.
 */
export class NodeEvents {
  // A typed array, not a list of numbers: the events a whole configuration's files keep (from
  // reading until a plan is shown) take 4 bytes each, not 8.
  private codes: Int32Array;
  private count = 0;

  /** `expected`: about how many events will be noted (the room is grown as needed). */
  constructor(expected = 64) {
    this.codes = new Int32Array(Math.max(16, expected));
  }

  /**
   * A js-yaml `listener` that records the events of nodes at most `maxDepth` deep (a document's
   * root is at depth 1). js-yaml opens a scalar in a list twice at one offset: past the depth, the
   * inner pair is not recorded, and the walk below expects exactly that.
   */
  static recorder(maxDepth = Infinity): { events: NodeEvents; listener: (kind: 'open' | 'close', state: { position: number }) => void } {
    const events = new NodeEvents();
    let depth = 0;
    const listener = (kind: 'open' | 'close', state: { position: number }): void => {
      if (kind === 'open') {
        if (depth < maxDepth) events.push(true, state.position);
        depth++;
      } else {
        depth--;
        if (depth < maxDepth) events.push(false, state.position);
      }
    };
    return { events, listener };
  }

  push(open: boolean, offset: number): void {
    if (this.count === this.codes.length) {
      const grown = new Int32Array(this.codes.length * 2);
      grown.set(this.codes);
      this.codes = grown;
    }
    this.codes[this.count++] = offset * 2 + (open ? 1 : 0);
  }

  /** Gives back the room recorded events did not use. */
  trim(): void {
    if (this.count < this.codes.length) this.codes = this.codes.slice(0, this.count);
  }

  get length(): number {
    return this.count;
  }

  isOpen(i: number): boolean {
    return i < this.count && (this.codes[i]! & 1) === 1;
  }

  isClose(i: number): boolean {
    return i < this.count && (this.codes[i]! & 1) === 0;
  }

  offset(i: number): number {
    return this.codes[i]! >>> 1;
  }
}

/** The positions of each document of `text` (whose values are `values`), or undefined. */
export function fastPositions(text: string, file: string, values: readonly unknown[]): DocPositions[] | undefined {
  const { events, listener } = NodeEvents.recorder();
  try {
    jsYaml.loadAll(text, () => undefined, { schema: CORE_SCHEMA, listener });
  } catch {
    return undefined;
  }
  return walkPositions(text, file, values, events);
}

/**
 * The positions of the nodes the events cover (every node, or those at most `maxDepth` deep, as
 * recorded), walked alongside the values; undefined when the walk is not sure of them. Nodes
 * deeper than `keepDepth` are walked (the walk stays as sure) but not kept: a plan showing a rule
 * needs where the rule is, not its fields, and keeping every field of a file was most of the work.
 */
export function walkPositions(text: string, file: string, values: readonly unknown[], events: NodeEvents, maxDepth = Infinity, keepDepth = maxDepth): DocPositions[] | undefined {
  // The positions keep it, and must not keep the events and the text too (it keeps neither).
  const lc = documentLineColumns(text, file);
  let i = 0;
  const out: DocPositions[] = [];

  /** Walks one node: its open event, what it holds, its close event. False when out of step. */
  const walk = (value: unknown, pointer: string, keyOffset: number, positions: CompactPositions, depth: number): boolean => {
    if (!events.isOpen(i)) return false;
    const openOffset = events.offset(i++);
    const start = skipBlank(text, openOffset);
    const blockMapping = value !== null && typeof value === 'object' && !Array.isArray(value) && text[start] !== '{';
    // js-yaml opens a scalar or a flow collection in a list twice at one offset (and closes it
    // twice), and a value on the line after its key twice, the second time at it (TR68-5); a block
    // mapping's first key opens where the mapping does, and is not a repeat.
    let opens = 1;
    while (!blockMapping && events.isOpen(i) && (events.offset(i) === openOffset || skipBlank(text, events.offset(i)) === start)) {
      i++;
      opens++;
    }
    const kept = depth <= keepDepth;
    if (value !== null && typeof value === 'object') {
      if (kept) positions.add(pointer, keyOffset, start, false);
      // Deeper than the events were recorded, what it holds has none to walk.
      if (depth < maxDepth && !walkInside(value, pointer, positions, depth)) return false;
    } else {
      // `key:` with nothing after it is a null written at the key.
      const empty = value === null && i < events.length && text.slice(start, Math.max(start, events.offset(i))).trim() === '';
      const plain = empty || !'"\'|>'.includes(text[start] ?? '');
      // In step: plain text starts with the value's first character.
      if (plain && !empty && typeof value === 'string' && value !== '' && text[start] !== value[0]) return false;
      if (kept) positions.add(pointer, keyOffset, empty && keyOffset >= 0 ? keyOffset : start, plain);
    }
    // js-yaml tries one more key where a mapping ends at a document marker: an empty open/close.
    while (events.isOpen(i) && events.isClose(i + 1) && events.offset(i + 1) === events.offset(i)) i += 2;
    for (; opens > 0; opens--) if (!events.isClose(i++)) return false;
    return true;
  };

  /** The items of a list, or the keys and values of a mapping. */
  const walkInside = (value: object, pointer: string, positions: CompactPositions, depth: number): boolean => {
    if (Array.isArray(value)) {
      // An empty item (`-` alone) opens no node at all: its place cannot be told.
      if (value.includes(null)) return false;
      const keep = depth < keepDepth;
      for (let n = 0; n < value.length; n++) if (!walk(value[n], keep ? joinPointer(pointer, n) : '', -1, positions, depth + 1)) return false;
      return true;
    }
    for (const key of Object.keys(value)) {
      // Index-like keys come first in a JavaScript object, whatever the file's order.
      if (/^(0|[1-9]\d*)$/.test(key) || key === '__proto__') return false;
      if (!events.isOpen(i) || !events.isClose(i + 1)) return false;
      const keyStart = skipBlank(text, events.offset(i));
      i += 2;
      // In step: the key is written there (or quoted there). `? complex` keys are the full parser's.
      if (!text.startsWith(key, keyStart) && text[keyStart] !== '"' && text[keyStart] !== "'") return false;
      if (!walk((value as Record<string, unknown>)[key], depth < keepDepth ? joinPointer(pointer, key) : '', keyStart, positions, depth + 1)) return false;
    }
    return true;
  };

  for (const value of values) {
    if (!events.isOpen(i)) return undefined;
    const positions = new CompactPositions(file, lc(skipBlank(text, events.offset(i))), lc);
    if (!walk(value, '', -1, positions, 1)) return undefined;
    out.push(positions);
  }
  return i === events.length ? out : undefined;
}

/**
 * Positions kept as offsets in flat arrays, turned into lines and columns only when one is asked
 * for: a configuration of 20,000 rules has some 140,000 of them, and an object or two each would
 * be tens of megabytes held for the few a plan shows.
 */
class CompactPositions extends DocPositions {
  private readonly index = new Map<string, number>();
  private readonly keys: number[] = [];
  private readonly values: number[] = [];
  private readonly plains: boolean[] = [];

  constructor(
    file: string,
    start: LineCol,
    private readonly lc: (offset: number) => LineCol,
  ) {
    super(file, start);
  }

  /** `keyOffset` -1: no key (a list item, the document). */
  add(pointer: string, keyOffset: number, valueOffset: number, plain: boolean): void {
    this.index.set(pointer, this.values.length);
    this.keys.push(keyOffset);
    this.values.push(valueOffset);
    this.plains.push(plain);
  }

  override has(pointer: string): boolean {
    return this.index.has(pointer);
  }

  override isPlain(pointer: string): boolean {
    const i = this.index.get(pointer);
    return i === undefined ? false : this.plains[i]!;
  }

  protected override nearest(pointer: string): Entry | undefined {
    let p = pointer;
    for (;;) {
      const i = this.index.get(p);
      if (i !== undefined) {
        const key = this.keys[i]!;
        return { key: key >= 0 ? this.lc(key) : undefined, value: this.lc(this.values[i]!), plain: this.plains[i]! };
      }
      if (p === '') return undefined;
      p = p.slice(0, p.lastIndexOf('/'));
    }
  }
}

/** The first offset from `at` that is not a space, a line break, a document marker or a comment. */
function skipBlank(text: string, at: number): number {
  let p = at;
  for (;;) {
    const c = text[p];
    if (c === ' ' || c === '\t' || c === '\n' || c === '\r') p++;
    else if (c === '#' && (p === 0 || /\s/.test(text[p - 1]!))) {
      const eol = text.indexOf('\n', p);
      p = eol === -1 ? text.length : eol;
    } else if (c === '-' && text.startsWith('---', p) && (p === 0 || text[p - 1] === '\n') && /[\s]|$/.test(text[p + 3] ?? '')) {
      p += 3;
    } else return p;
  }
}
