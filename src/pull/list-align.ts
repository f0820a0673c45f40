/**
 * How pull lines up a list in a file with the list live holds: which items stay (and are edited in
 * place, with their comments), which are renamed, moved, taken out or added. Pure.
 */
import { diffArrays } from 'diff';
import { canonicalJson, sameValue } from '../engine/canonical.js';
import { addTo } from '../util/multi-map.js';
import { isPlainObject } from '../util/plain.js';
import { formerNames } from './values.js';

/** The identity of a list item, for lining up old and new lists: its name, key or heading. */
export function identityOf(item: unknown): string | undefined {
  if (!isPlainObject(item)) return undefined;
  for (const k of ['name', 'key', 'heading', 'label', 'import']) if (typeof item[k] === 'string') return `${k}=${item[k]}`;
  return undefined;
}

/**
 * Lines up two lists: pairs of indexes (old, wanted), `undefined` on one side for an item that goes
 * or comes. Items are matched in order by what they are (longest common subsequence): an item with
 * an identity (name, key, heading) by it, whatever else changed in it; one without, by its value.
 * In the gaps between, renamed items are matched, then the rest by position when neither side has
 * an identity.
 */
export function align(old: readonly unknown[], wanted: readonly unknown[], budget = ALIGN_BUDGET): AlignedPair[] {
  const keyOld = old.map(alignKey);
  const keyNew = wanted.map(alignKey);
  // Myers' diff: matched items stay matched, in O((N+M)·D) for lists that differ in D items. Past
  // ALIGN_BUDGET (thousands of items renamed, added or removed at once) the lists are one gap.
  const parts = diffArrays(keyOld, keyNew, { maxEditLength: Math.max(100, Math.floor(budget / Math.max(1, old.length + wanted.length))) });
  if (parts === undefined) return alignGap(old, wanted, old.map((_, n) => n), wanted.map((_, n) => n), new Set());
  const segments: { gapOld: number[]; gapNew: number[]; then: number }[] = [{ gapOld: [], gapNew: [], then: 0 }];
  let i = 0;
  let j = 0;
  for (const part of parts) {
    const last = segments.at(-1)!;
    if (part.removed) for (let n = 0; n < part.count; n++) last.gapOld.push(i++);
    else if (part.added) for (let n = 0; n < part.count; n++) last.gapNew.push(j++);
    else {
      last.then = part.count;
      segments.push({ gapOld: [], gapNew: [], then: 0 });
      i += part.count;
      j += part.count;
    }
  }
  // An item without identity that went in one place and came, unchanged, in another moved: it is
  // not the edit of what stands at either place (probe XH-3).
  const goneKeys = new Set(segments.flatMap((g) => g.gapOld.filter((o) => identityOf(old[o]) === undefined).map((o) => keyOld[o]!)));
  const moved = new Set(segments.flatMap((g) => g.gapNew.map((w) => keyNew[w]!)).filter((k) => goneKeys.has(k)));
  const out: AlignedPair[] = [];
  i = 0;
  j = 0;
  for (const { gapOld, gapNew, then } of segments) {
    out.push(...alignGap(old, wanted, gapOld, gapNew, moved));
    i += gapOld.length;
    j += gapNew.length;
    for (let n = 0; n < then; n++) out.push([i++, j++]);
  }
  return out;
}

/** A pair of one item taken out (old index) and one added (wanted index), or one kept and edited. */
export type AlignedPair = [number | undefined, number | undefined];

/**
 * The items `pairs` takes out and adds that are one item live moved: the same identity, the same
 * value, or with neither, mappings more than half alike (the first nearest). Wanted index → old
 * index: the added item keeps the comment lines above the one taken out (probe XC-2).
 */
export function movesIn(pairs: readonly AlignedPair[], old: readonly unknown[], wanted: readonly unknown[]): Map<number, number> {
  const gone = pairs.filter(([o, w]) => o !== undefined && w === undefined).map(([o]) => o!);
  const came = pairs.filter(([o, w]) => o === undefined && w !== undefined).map(([, w]) => w!);
  const moves = new Map<number, number>();
  if (gone.length === 0 || came.length === 0) return moves;
  const byKey = new Map<string, number[]>();
  for (const o of gone) addTo(byKey, alignKey(old[o]), o);
  const taken = new Set<number>();
  const unnamed = gone.filter((o) => identityOf(old[o]) === undefined && isPlainObject(old[o]));
  const compareAll = unnamed.length * came.length <= MAX_LIKENESS_PAIRS;
  for (const w of came) {
    let from = byKey.get(alignKey(wanted[w]))?.find((o) => !taken.has(o));
    if (from === undefined && identityOf(wanted[w]) === undefined && isPlainObject(wanted[w]) && compareAll) {
      let best = 0.5;
      for (const o of unnamed) {
        if (taken.has(o)) continue;
        const near = nearness(old[o], wanted[w]);
        if (near > best) [best, from] = [near, o];
      }
    }
    if (from === undefined) continue;
    moves.set(w, from);
    taken.add(from);
  }
  return moves;
}

/** Some 0.2 s of the diff's work: a list of 20,000 rules may differ in 500 items before it gives up. */
const ALIGN_BUDGET = 20_000_000;

/** What an item is matched by: its identity, or its whole value (a mark keeps the two apart). */
function alignKey(item: unknown): string {
  const id = identityOf(item);
  return id !== undefined ? `\u0000${id}` : canonicalJson(item ?? null);
}

/**
 * Between two runs of matched items: same identity (or, without one, same position) is a change, and
 * so is a rename (an item whose identity went paired with one whose identity came, when most of
 * their other keys agree), so the item keeps its place and comments; the rest go or come.
 */
function alignGap(old: readonly unknown[], wanted: readonly unknown[], gapOld: number[], gapNew: number[], moved: ReadonlySet<string>): AlignedPair[] {
  const out: AlignedPair[] = [];
  if (gapOld.length === 0 || gapNew.length === 0) {
    for (const o of gapOld) out.push([o, undefined]);
    for (const w of gapNew) out.push([undefined, w]);
    return out;
  }
  const renames = renamesIn(old, wanted, gapOld, gapNew);
  // Places in gapNew (ascending) by identity, and those without one by whether they are mappings.
  const byIdentity = new Map<string, number[]>();
  const unnamed = { mapping: [] as number[], other: [] as number[] };
  gapNew.forEach((w, at) => {
    const id = identityOf(wanted[w]);
    if (id !== undefined) addTo(byIdentity, id, at);
    else if (!moved.has(alignKey(wanted[w]))) (isPlainObject(wanted[w]) ? unnamed.mapping : unnamed.other).push(at);
  });
  const placeOf = new Map(gapNew.map((w, at) => [w, at]));
  let next = 0;
  for (const o of gapOld) {
    const id = identityOf(old[o]);
    // Pairs keep their order: only items after the last one paired.
    let k: number | undefined;
    if (id !== undefined) {
      k = firstFrom(byIdentity.get(id), next);
      const renamed = renames.has(o) ? placeOf.get(renames.get(o)!) : undefined;
      if (renamed !== undefined && renamed >= next && (k === undefined || renamed < k)) k = renamed;
    } else if (!moved.has(alignKey(old[o]))) {
      k = firstFrom(isPlainObject(old[o]) ? unnamed.mapping : unnamed.other, next);
    }
    if (k === undefined) {
      out.push([o, undefined]);
      continue;
    }
    for (; next < k; next++) out.push([undefined, gapNew[next]]);
    out.push([o, gapNew[k]]);
    next = k + 1;
  }
  for (; next < gapNew.length; next++) out.push([undefined, gapNew[next]]);
  return out;
}

/** The first of ascending `places` at or after `from`. */
function firstFrom(places: readonly number[] | undefined, from: number): number | undefined {
  if (!places) return undefined;
  let lo = 0;
  let hi = places.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (places[mid]! < from) lo = mid + 1;
    else hi = mid;
  }
  return places[lo];
}

/** Above this many comparisons, an item gone is compared for likeness only with the one come at its place. */
const MAX_LIKENESS_PAIRS = 250_000;

/** Old item → the wanted item it was renamed to: identities on neither side's other, most other keys the same. */
function renamesIn(old: readonly unknown[], wanted: readonly unknown[], gapOld: number[], gapNew: number[]): Map<number, number> {
  const oldIds = new Set(gapOld.map((o) => identityOf(old[o])));
  const newIds = new Set(gapNew.map((w) => identityOf(wanted[w])));
  const gone = gapOld.filter((o) => identityOf(old[o]) !== undefined && !newIds.has(identityOf(old[o])));
  const came = gapNew.filter((w) => identityOf(wanted[w]) !== undefined && !oldIds.has(identityOf(wanted[w])));
  const out = new Map<number, number>();
  if (gone.length === 0 || came.length === 0) return out;
  const taken = new Set<number>();
  // One that says it was renamed from this one is it, whatever else changed.
  const sayFormer = new Map<string, number[]>();
  for (const w of came) {
    const id = identityOf(wanted[w])!;
    const idKey = id.slice(0, id.indexOf('='));
    if (isPlainObject(wanted[w])) for (const former of formerNames(wanted[w])) addTo(sayFormer, `${idKey}=${former}`, w);
  }
  // All of those before any pairing by likeness: a gone item alike to one that names another as
  // its former self must not take it first (probe OH-2).
  for (const o of gone) {
    const named = sayFormer.get(identityOf(old[o])!)?.find((w) => !taken.has(w));
    if (named === undefined) continue;
    out.set(o, named);
    taken.add(named);
  }
  const everyPair = gone.length * came.length <= MAX_LIKENESS_PAIRS;
  gone.forEach((o, place) => {
    if (out.has(o)) return;
    const id = identityOf(old[o])!;
    const idKey = id.slice(0, id.indexOf('='));
    let best: { w: number; score: number } | undefined;
    for (const w of everyPair ? came : came.slice(place, place + 1)) {
      if (taken.has(w) || !identityOf(wanted[w])!.startsWith(`${idKey}=`)) continue;
      const score = likeness(old[o] as Record<string, unknown>, wanted[w] as Record<string, unknown>, idKey);
      if (score >= 0.5 && (!best || score > best.score)) best = { w, score };
    }
    if (best) {
      out.set(o, best.w);
      taken.add(best.w);
    }
  });
  return out;
}

/** The share of keys (the identity's and `renamed_from` aside) two mappings hold the same value under, a mapping's own share counted in part. */
function likeness(a: Record<string, unknown>, b: Record<string, unknown>, except: string): number {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)].filter((k) => k !== except && k !== 'renamed_from'));
  if (keys.size === 0) return 0;
  let same = 0;
  for (const k of keys) if (Object.hasOwn(a, k) && Object.hasOwn(b, k)) same += nearness(a[k], b[k]);
  return same / keys.size;
}

/**
 * 1 for the same value, and for two mappings the share of their keys that hold near values, so a
 * section renamed with one of its fields edited is still the same section (probe XC-1).
 */
export function nearness(a: unknown, b: unknown): number {
  if (a === b) return 1;
  // Mappings key by key, each value once: not the whole value compared again at every depth (second read SR96-2).
  if (!isPlainObject(a) || !isPlainObject(b)) return sameValue(a, b) ? 1 : 0;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  let near = 0;
  for (const k of keys) if (Object.hasOwn(a, k) && Object.hasOwn(b, k)) near += nearness(a[k], b[k]);
  return keys.size === 0 ? 1 : near / keys.size;
}
