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
import { DocPositions, joinPointer, type LineCol } from './yaml-positions.js';

interface Event {
  open: boolean;
  offset: number;
}

/** The positions of each document of `text` (whose values are `values`), or undefined. */
export function fastPositions(text: string, file: string, values: readonly unknown[]): DocPositions[] | undefined {
  const events: Event[] = [];
  try {
    jsYaml.loadAll(text, () => undefined, {
      schema: jsYaml.CORE_SCHEMA,
      listener(kind, state) {
        events.push({ open: kind === 'open', offset: state.position });
      },
    });
  } catch {
    return undefined;
  }
  const lines = lineStarts(text);
  const lc = (offset: number): LineCol => {
    let lo = 0;
    let hi = lines.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lines[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, col: offset - lines[lo]! + 1 };
  };
  let i = 0;
  const out: DocPositions[] = [];

  /** Walks one node: its open event, what it holds, its close event. False when out of step. */
  const walk = (value: unknown, pointer: string, keyPos: LineCol | undefined, positions: DocPositions): boolean => {
    const open = events[i++];
    if (!open?.open) return false;
    const start = skipBlank(text, open.offset);
    const blockMapping = value !== null && typeof value === 'object' && !Array.isArray(value) && text[start] !== '{';
    // js-yaml opens a scalar or a flow collection in a list twice at one offset (and closes it
    // twice); a block mapping's first key opens where the mapping does, and is not a repeat.
    let opens = 1;
    while (!blockMapping && events[i]?.open && events[i]!.offset === open.offset) {
      i++;
      opens++;
    }
    if (value !== null && typeof value === 'object') {
      positions.set(pointer, entry(keyPos, lc(start), false));
      if (Array.isArray(value)) {
        // An empty item (`-` alone) opens no node at all: its place cannot be told.
        if (value.includes(null)) return false;
        for (let n = 0; n < value.length; n++) if (!walk(value[n], joinPointer(pointer, n), undefined, positions)) return false;
      } else {
        for (const key of Object.keys(value)) {
          // Index-like keys come first in a JavaScript object, whatever the file's order.
          if (/^(0|[1-9]\d*)$/.test(key) || key === '__proto__') return false;
          const keyOpen = events[i++];
          const keyClose = events[i++];
          if (!keyOpen?.open || !keyClose || keyClose.open) return false;
          const keyStart = skipBlank(text, keyOpen.offset);
          // In step: the key is written there (or quoted there). `? complex` keys are the full parser's.
          if (!text.startsWith(key, keyStart) && text[keyStart] !== '"' && text[keyStart] !== "'") return false;
          if (!walk((value as Record<string, unknown>)[key], joinPointer(pointer, key), lc(keyStart), positions)) return false;
        }
      }
    } else {
      const close = events[i];
      // `key:` with nothing after it is a null written at the key.
      const empty = value === null && close !== undefined && text.slice(start, Math.max(start, close.offset)).trim() === '';
      const plain = empty || !'"\'|>'.includes(text[start] ?? '');
      // In step: plain text starts with the value's first character.
      if (plain && !empty && typeof value === 'string' && value !== '' && text[start] !== value[0]) return false;
      positions.set(pointer, entry(keyPos, empty && keyPos ? keyPos : lc(start), plain));
    }
    // js-yaml tries one more key where a mapping ends at a document marker: an empty open/close.
    while (events[i]?.open && events[i + 1] && !events[i + 1]!.open && events[i + 1]!.offset === events[i]!.offset) i += 2;
    for (; opens > 0; opens--) {
      const close = events[i++];
      if (close === undefined || close.open) return false;
    }
    return true;
  };

  for (const value of values) {
    const open = events[i];
    if (!open?.open) return undefined;
    const positions = new DocPositions(file, lc(skipBlank(text, open.offset)));
    if (!walk(value, '', undefined, positions)) return undefined;
    out.push(positions);
  }
  return i === events.length ? out : undefined;
}

/**
 * One position entry, always with the same three properties: built with a conditional spread,
 * each of a file's thousands of entries got a hidden class of its own (22 MB for 20,000 rules).
 */
function entry(key: LineCol | undefined, value: LineCol, plain: boolean): { key: LineCol | undefined; value: LineCol; plain: boolean } {
  return { key, value, plain };
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) starts.push(at + 1);
  return starts;
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
