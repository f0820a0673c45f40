/** "Did you mean" suggestions for misspelt keys, kinds, variables and environments. */
import { showWholeName } from './quote.js';
import { drawnAlikeLetter } from '../util/other-script.js';

/**
 * Edit distance (insertions, deletions, substitutions, and swapping two neighbours: `nmae` is one
 * typo from `name`, not two), three rows of memory. With `max`, any distance past it is given as
 * `max + 1`, found as soon as a row is past it: a suggestion among thousands of names asks only
 * whether one is within a typo or two. Only the cells within `max` of the diagonal are worked out
 * (any path through another is longer): two names of 250 characters cost 250 × 21 cells, not
 * 250 × 250 (second read SR100-5).
 */
export function levenshtein(a: string, b: string, max = Infinity): number {
  if (a === b) return 0;
  if (Math.abs(a.length - b.length) > max) return max + 1;
  if (a.length === 0 || b.length === 0) return Math.min(a.length + b.length, max + 1);
  // Three rows, kept between calls: thousands of suggestions allocate nothing.
  if (rows[0].length <= b.length + 1) rows = [new Int32Array(b.length * 2 + 2), new Int32Array(b.length * 2 + 2), new Int32Array(b.length * 2 + 2)];
  let [before, prev, cur] = rows;
  const band = Number.isFinite(max) ? max : Math.max(a.length, b.length);
  for (let j = 0; j <= b.length; j++) prev[j] = j <= band ? j : FAR;
  before.fill(FAR, 0, b.length + 1);
  let prevMin = 0;
  for (let i = 1; i <= a.length; i++) {
    const lo = Math.max(1, i - band);
    const hi = Math.min(b.length, i + band);
    // Left of the band, and right of it (read by the next row): past any distance worth telling.
    cur[lo - 1] = lo === 1 ? i : FAR;
    if (hi < b.length) cur[hi + 1] = FAR;
    let rowMin = lo === 1 ? i : FAR;
    for (let j = lo; j <= hi; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let d = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1);
      cur[j] = d;
      if (d < rowMin) rowMin = d;
    }
    // A swap reaches back two rows: past `max` in this row and the one before, no cell comes back.
    if (rowMin > max && (i === 1 || prevMin > max)) return max + 1;
    prevMin = rowMin;
    [before, prev, cur] = [prev, cur, before];
  }
  return Math.min(prev[b.length]!, max + 1);
}

let rows: [Int32Array, Int32Array, Int32Array] = [new Int32Array(64), new Int32Array(64), new Int32Array(64)];
/** A cell outside the band: farther than any name's length. */
const FAR = 1 << 29;

/** `of` remembered per name: the same thousands of names are asked about once per misspelt one. */
function remembered<T>(of: (s: string) => T): (s: string) => T {
  const known = new Map<string, T>();
  return (s) => {
    let value = known.get(s);
    if (value === undefined) {
      if (known.size >= 50_000) known.clear();
      known.set(s, (value = of(s)));
    }
    return value;
  };
}

/** Case, `-` and `_` are not worth a typo: `Default-Reviewer` is `default_reviewer`. */
const normalise = remembered((s) => s.toLowerCase().replace(/[-_\s]/g, ''));

/**
 * The candidate closest to `input`, or undefined when none is close enough to be a plausible typo
 * (roughly one edit per three characters), so unrelated words never get a silly suggestion.
 */
export function suggest(input: string, candidates: Iterable<string>): string | undefined {
  if (input.length > LONGEST_SUGGESTED) return undefined;
  const wanted = normalise(input);
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    if (candidate === input || candidate.length > LONGEST_SUGGESTED) continue;
    // One edit is a typo of a word, not of a name of one or two letters (`X` is not `_`, nor any other letter).
    const longest = Math.max(wanted.length, candidate.length);
    const limit = Math.min(MOST_EDITS, Math.max(longest >= 3 ? 1 : 0, Math.floor(longest / 3)));
    const theirs = normalise(candidate);
    const distance = theirs === wanted ? 0 : levenshtein(wanted, theirs, Math.min(limit, bestDistance - 1));
    if (distance <= limit && distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  // More than a one-letter slip: a key written without one of its words (`data_exporter_zipcode`
  // for `data_exporter_address_zipcode`) is likelier than another word in its place.
  if (bestDistance > 1) best = withAllWords(input, candidates) ?? best;
  return best ?? prefixOf(wanted, candidates, input);
}

/**
 * No name is longer (docket's are at most 200 characters), and no typo takes more edits: each
 * comparison of two names of a thousand characters took as long as a thousand of short ones, and
 * validate of 60 such misspelt variables 26 seconds (probe BC-3).
 */
const LONGEST_SUGGESTED = 256;
const MOST_EDITS = 10;

/** The words of a name, split where `normalise` drops characters. */
const wordsOf = remembered((s) => s.toLowerCase().split(/[-_\s]+/).filter(Boolean));

/**
 * The shortest candidate holding every word of `input` (of two or more), in order, and more; for
 * one word (`notes`), the one candidate of several words that has it (`internal_notes`), when only
 * one has.
 */
function withAllWords(input: string, candidates: Iterable<string>): string | undefined {
  const words = wordsOf(input);
  if (words.length === 1) return onlyWithWord(words[0]!, candidates);
  if (words.length < 2) return undefined;
  let found: string | undefined;
  for (const candidate of candidates) {
    const theirs = wordsOf(candidate);
    if (theirs.length <= words.length || (found !== undefined && candidate.length >= found.length)) continue;
    let at = 0;
    for (const word of theirs) if (word === words[at]) at++;
    if (at === words.length) found = candidate;
  }
  return found;
}

function onlyWithWord(word: string, candidates: Iterable<string>): string | undefined {
  if (word.length < 3) return undefined;
  let found: string | undefined;
  for (const candidate of candidates) {
    const theirs = wordsOf(candidate);
    if (theirs.length < 2 || !theirs.includes(word)) continue;
    if (found !== undefined) return undefined;
    found = candidate;
  }
  return found;
}

/**
 * Failing a typo, a word that begins the other (`warning` for `warn`, `Playbook` for `PlaybookTest`):
 * the shorter of at least four letters, the longer at most twice as long.
 */
function prefixOf(wanted: string, candidates: Iterable<string>, input: string): string | undefined {
  for (const candidate of candidates) {
    if (candidate === input) continue;
    const other = normalise(candidate);
    const [shorter, longer] = other.length < wanted.length ? [other, wanted] : [wanted, other];
    if (shorter.length >= 4 && longer.length <= 2 * shorter.length && longer.startsWith(shorter)) return candidate;
  }
  return undefined;
}

/** `, did you mean \`x\`?` or an empty string; meant to be appended to a message. `pick`: suggestAddress for an e-mail address. */
export function didYouMean(input: string, candidates: Iterable<string>, format: (s: string) => string = (s) => s, pick: typeof suggest = suggest): string {
  const match = pick(input, candidates);
  if (match === undefined) return '';
  return didYouMeanBecause(format(match), drawnAlike(input, match));
}

/** Why a suggestion that shows as the input is another text: the letter drawn alike that differs (probe RM-2), if that is all. */
export function drawnAlike(input: string, match: string): string | undefined {
  const alike = drawnAlikeLetter(input, match);
  return alike && `they differ only in a letter drawn alike: ${alike}`;
}

/** The suggestion as didYouMean words it, with why it is the one meant when not by spelling (a former name). */
export function didYouMeanBecause(suggestion: string, why?: string): string {
  // Escaped when it holds what prints as nothing or a space: it would look like the name refused (probe IA-1).
  return `, did you mean ${showWholeName(suggestion)}?${why ? ` (${why})` : ''}`;
}

/**
 * An e-mail address is close to another when one half is the same and the other a typo of it
 * (`alcie@acme.example`, `alice@acme.exmaple`): a whole address compared at once finds
 * `bob@acme.example` for `nobody@acme.example`, which is another person.
 */
export function suggestAddress(input: string, candidates: Iterable<string>): string | undefined {
  const split = (a: string): [string, string] => {
    const at = a.lastIndexOf('@');
    return at < 0 ? [a, ''] : [a.slice(0, at).toLowerCase(), a.slice(at + 1).toLowerCase()];
  };
  const [local, domain] = split(input);
  const all = [...candidates];
  const sameDomain = all.filter((c) => split(c)[1] === domain);
  const byLocal = suggest(local, sameDomain.map((c) => split(c)[0]));
  if (byLocal !== undefined) return sameDomain.find((c) => split(c)[0] === byLocal);
  const sameLocal = all.filter((c) => split(c)[0] === local);
  const byDomain = suggest(domain, sameLocal.map((c) => split(c)[1]));
  return byDomain === undefined ? undefined : sameLocal.find((c) => split(c)[1] === byDomain);
}
