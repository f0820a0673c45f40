/** Canonical JSON (sorted keys) for digests and equality, so key order never causes a diff. */
import * as crypto from 'node:crypto';
import { createHash, type Hash } from 'node:crypto';
import { sortNamesInPlace } from '../util/sort-names.js';

/** One-shot hashing (Node 20.12 and later): a third of the cost of a Hash object for short texts. */
const oneShot = (crypto as { hash?: typeof crypto.hash }).hash;

/**
 * JSON.stringify of the value with every object's keys sorted (and `undefined` members left out),
 * but for mappings marked KEEPS_KEY_ORDER, whose keys stay in their order.
 */
export function canonicalJson(value: unknown): string {
  return write(value, true) ?? 'null';
}

/**
 * canonicalJson with every object's keys sorted, marked or not: for a value compared with itself
 * read back from JSON, which keeps no mark (a saved plan's seal).
 */
export function sortedJson(value: unknown): string {
  return write(value, false) ?? 'null';
}

// Written directly (no sorted copy of the tree): digests run over every declared resource.
function write(value: unknown, marksKept: boolean): string | undefined {
  if (value === null) return 'null';
  switch (typeof value) {
    case 'string':
      return JSON.stringify(value);
    case 'number':
    case 'boolean':
      return JSON.stringify(value);
    case 'object':
      break;
    default:
      // undefined, functions and symbols are left out of objects and are null in arrays, as JSON.stringify does.
      return typeof value === 'bigint' ? JSON.stringify(value) : undefined;
  }
  if (Array.isArray(value)) {
    let out = '[';
    for (let i = 0; i < value.length; i++) out += (i ? ',' : '') + (write(value[i], marksKept) ?? 'null');
    return `${out}]`;
  }
  const record = value as Record<string, unknown>;
  const json = (record as { toJSON?: () => unknown }).toJSON;
  if (typeof json === 'function') return write(json.call(record), marksKept);
  let out = '{';
  let first = true;
  for (const key of marksKept && KEEPS_KEY_ORDER in record ? Object.keys(record) : sortNamesInPlace(Object.keys(record))) {
    const v = write(record[key], marksKept);
    if (v === undefined) continue;
    out += `${first ? '' : ','}${quotedKey(key)}:${v}`;
    first = false;
  }
  return `${out}}`;
}

/**
 * Marks a mapping whose key order is part of its value (the fields of a custom template section,
 * the order a form shows them in): its digest follows that order, so a sync record tells a
 * reordering from no change (probe GY). Not enumerable, and never written by JSON.stringify.
 */
export const KEEPS_KEY_ORDER: unique symbol = Symbol('keeps key order');

/** Keys repeat in every object of a kind (`description`, `reviewer`): each is quoted once. */
const quotedKeys = new Map<string, string>();
function quotedKey(key: string): string {
  let quoted = quotedKeys.get(key);
  if (quoted === undefined) {
    quoted = JSON.stringify(key);
    // Keys of user data (template parameters) are many more: only a bounded number is kept.
    if (quotedKeys.size < 4096) quotedKeys.set(key, quoted);
  }
  return quoted;
}

export function sha256(text: string | Uint8Array): string {
  return oneShot ? oneShot('sha256', text, 'hex') : createHash('sha256').update(text).digest('hex');
}

export function digest(value: unknown): string {
  return sha256(canonicalJson(value));
}

/**
 * `digest({ [listKey]: list, ...rest })`, built piece by piece so the canonical text of a long list
 * (every declared resource) is never held whole. `listKey` must sort before every key of `rest`.
 */
export function digestWithList(listKey: string, list: Iterable<unknown>, rest: Record<string, unknown>): string {
  const hash: Hash = createHash('sha256');
  for (const piece of listPieces(listKey, list, rest)) hash.update(piece);
  return hash.digest('hex');
}

/**
 * The same digest, handing the event loop back every few milliseconds: worked out while requests
 * are in flight, its 100-odd milliseconds over 20,000 resources cost no wall time (their answers
 * are read between slices).
 */
export async function digestWithListInSlices(listKey: string, list: Iterable<unknown>, rest: Record<string, unknown>, sliceMs = 4): Promise<string> {
  const hash: Hash = createHash('sha256');
  let sliceStart = performance.now();
  for (const piece of listPieces(listKey, list, rest)) {
    hash.update(piece);
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
  return hash.digest('hex');
}

/** The canonical text of `{ [listKey]: list, ...rest }`, an item at a time. */
function* listPieces(listKey: string, list: Iterable<unknown>, rest: Record<string, unknown>): Generator<string> {
  yield `{${JSON.stringify(listKey)}:[`;
  let first = true;
  for (const item of list) {
    yield `${first ? '' : ','}${write(item, true) ?? 'null'}`;
    first = false;
  }
  const tail = canonicalJson(rest).slice(1);
  yield tail === '}' ? ']}' : `],${tail}`;
}

/** Structural equality of normalised values (`undefined` and missing keys are the same). */
export function sameValue(a: unknown, b: unknown): boolean {
  const x = a ?? null;
  const y = b ?? null;
  if (x === y) return true;
  // Most compared values are strings or null: only structures (and NaN, -0) need the canonical form.
  if (typeof x !== 'object' && typeof y !== 'object' && (typeof x !== 'number' || typeof y !== 'number')) return false;
  return canonicalJson(x) === canonicalJson(y);
}
