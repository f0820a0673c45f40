/**
 * The last guard for keys in output: a key's value in any text docket prints (stdout, stderr) is
 * replaced. Messages quote what they refuse, and a key set by mistake in another variable
 * (`DOCKET_ORGANIZATION_ID`, a URL's path) would be quoted with it.
 */
import type { Io } from './io.js';
import { EMULATOR_API_KEY } from '../emulator/identity.js';
import { composedForKeys, holdsKey, KEY_PIECE_MIN, keyMatches, keySpans, keysOf, normalForms, percentDecoded, type KeyFinder } from '../config/api-keys.js';
import { defuseWorkflowCommands, escapeData, escapeMarkdown, escapeProperty, unescapeData, unescapeProperty } from '../render/sanitize.js';
import { xmlAttr, xmlText } from '../render/test-junit.js';

export const REDACTED = '[redacted]';

/**
 * Each key as output may show it: as is, and as each renderer escapes text (JSON and the plan's
 * quoted values escape `"` and `\`, twice for a quoted value in JSON output, markdown its
 * punctuation, annotations `%`, `:` and `,`).
 */
export function keyValues(env: Readonly<Record<string, string | undefined>>): string[] {
  return keyForms(keysOf(env).map(([, key]) => key));
}

/** Each of `keys` in every form output may show it (keyValues), longest first. */
export function keyForms(keys: readonly string[]): string[] {
  const json = (v: string): string => JSON.stringify(v).slice(1, -1);
  // A message quotes a value JSON-escaped, and `-o json` escapes the message again: json(json(k)).
  // And as a file name made from a name holding it (export's slugs: lower case, `-` between words).
  const slug = (k: string): string => k.toLowerCase().replace(/[^a-z0-9]+/g, '-');
  // Lower-cased too: a key put in a URL's host comes back as the URL parser writes hosts.
  // Each renderer escapes a value as it is or as a message quoted it (`contains "k"` in a test's markdown report).
  const escaped = (v: string): string[] => [v, escapeMarkdown(v), json(escapeMarkdown(v)), escapeMarkdown(v, 'html'), escapeData(v), escapeProperty(v)];
  // Percent-encoded too: a key put where a path segment goes (an id a command takes) is printed in the request's path.
  // In upper- and lower-case hex both, as other clients write escapes.
  const lowerHex = (e: string): string => e.replace(/%[0-9A-F]{2}/g, (x) => x.toLowerCase());
  // Of the key in each letter case output may hold it in (a name upper-cased, a host lower-cased).
  const encoded = (k: string): string[] => [k, k.toLowerCase(), k.toUpperCase()].flatMap((c) => [encodeURIComponent(c), encodeURI(c)]).flatMap((e) => [e, lowerHex(e)]).filter((e) => e !== k);
  // Upper-cased too: not the key, but it gives the key away up to letter case; escaped as any value
  // is (a name upper-cased in the app, quoted in JSON: `ABC\"DEF`; probe FV).
  const cased = (k: string): string[] => [...new Set([k, k.toLowerCase(), k.toUpperCase()])];
  // As a YAML single-quoted string writes it (`it''s`), in the source line a message quotes (probe JZ-1).
  const singleQuoted = (k: string): string[] => (k.includes("'") ? cased(k.replaceAll("'", "''")).flatMap((c) => [...escaped(c), json(c), json(json(c))]) : []);
  // Composed and decomposed alike: a key typed decomposed into a description prints as the key (probe AE-2).
  const values = keys.flatMap(normalForms).flatMap((k) => [...cased(k).flatMap((c) => [...escaped(c), ...escaped(json(c)), json(json(c))]), slug(k), ...encoded(k).flatMap(escaped), ...singleQuoted(k)]);
  // As every line is printed: a key holding `##[`, or starting with `::`, is broken up (workflow-commands.ts) before it may be replaced.
  const printed = values.map(defuseWorkflowCommands);
  // Longest first, so a key that holds another is replaced whole.
  return [...new Set([...values, ...printed])].sort((a, b) => b.length - a.length);
}

/** Each key as a JUnit report may show it: as output shows it, and escaped for XML text and attributes. */
export function junitKeyValues(env: Readonly<Record<string, string | undefined>>): string[] {
  const values = keyValues(env);
  return [...new Set([...values, ...values.map(xmlText), ...values.map(xmlAttr)])].sort((a, b) => b.length - a.length);
}

/**
 * The entries of `map` whose keys hold no key's value: a sync record is kept under the name of the
 * object it records, and docket.lock.json is committed (second read: a record moved to an object
 * renamed in the app onto a name holding a key wrote the key into the file).
 */
export function withoutSecretKeys<V>(map: ReadonlyMap<string, V>, secrets: readonly string[]): Map<string, V> {
  return new Map([...map].filter(([key]) => secrets.length === 0 || redact(key, secrets) === key));
}

export function redact(text: string, secrets: readonly string[]): string {
  // A key with accented letters, written with some of them decomposed (`e` and U+0301) and others
  // not: looked for in the text composed, as the service composes a name (second read SR99-4).
  // So printed composed, which shows the same; only when a key has such letters.
  let out = composedForKeys(text, secrets);
  // A pass that hides part of a key (what one spelling of it holds) leaves the rest beside
  // `[redacted]`, which every pass reads as a cut: so again, until nothing changes, four rounds at
  // most (fuzzed: a key half percent-escaped, half in YAML's escapes, cut by an excerpt's window,
  // kept 12 characters readable after one round; none after two).
  for (let round = 0; round < 4; round++) {
    const next = redactOnce(out, secrets);
    if (next === out) break;
    out = next;
  }
  return out;
}

/**
 * The passes, those that read escapes first: a pass on the text as written could hide a piece of a
 * key that starts inside an escape, and break the escape that spells the rest of it.
 */
function redactOnce(text: string, secrets: readonly string[]): string {
  let out = text.includes('\\') ? redactBackslashed(text, secrets) : text;
  out = out.includes('%') ? redactEscaped(out, secrets) : out;
  out = redactAnyCase(out, secrets);
  out = redactLongPieces(out, secrets);
  return redactCut(out, secrets);
}

/**
 * A piece of a key this long is taken for the key wherever it stands, cut or not: a text that splits
 * a key into words (a review's reasoning about a rule named with one, `sk + live + 4ec39…`) gives
 * away its secret part all the same (probe LL-1). Sixteen characters of a random token are no
 * ordinary text. Neither a UUID inside a key nor the emulator's public key name is a secret part
 * (its `docket-emulator-key-<organization id>`): printed as an organization's id, or in the emulator's
 * banner, they stay.
 */
const KEY_PIECE_ALONE = 16;
/** Every piece of KEY_PIECE_ALONE characters holds one of its key's blocks of half that, taken from its start. */
const ANCHOR = KEY_PIECE_ALONE / 2;
const NOT_SECRET_IN_KEY = new RegExp(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|${EMULATOR_API_KEY}`);

const anchorsOf = new WeakMap<readonly string[], Map<string, string[]>>();
/** Each block that starts a piece search → the parts of the keys (lower case, no UUID) that hold it. */
function pieceAnchors(secrets: readonly string[]): Map<string, string[]> {
  let anchors = anchorsOf.get(secrets);
  if (anchors) return anchors;
  anchors = new Map();
  for (const form of lowerForms(secrets)) {
    for (const part of form.split(NOT_SECRET_IN_KEY)) {
      if (part.length < KEY_PIECE_ALONE) continue;
      for (let at = 0; at + ANCHOR <= part.length; at += ANCHOR) {
        const parts = anchors.get(part.slice(at, at + ANCHOR)) ?? [];
        if (!parts.includes(part)) parts.push(part);
        anchors.set(part.slice(at, at + ANCHOR), parts);
      }
    }
  }
  anchorsOf.set(secrets, anchors);
  return anchors;
}

/** Whether `text` holds a piece of a key's secret part that output hides wherever it stands (KEY_PIECE_ALONE characters or more). */
export function holdsKeyPiece(text: string, secrets: readonly string[]): boolean {
  return redactLongPieces(text, secrets) !== text;
}

/**
 * The KeyFinder of the keys set: a text holding one whole, or 16 characters of one as output hides
 * them (also as a file name writes it), would commit what output never shows (probe RB-1).
 */
export function keyFinder(keys: readonly (readonly [string, string])[]): KeyFinder {
  if (keys.length === 0) return () => undefined;
  const holdsPiece = keyPieceCheck(keys);
  return (text) => keys.find(([, key]) => holdsKey(text, key) || holdsPiece(text, key))?.[0];
}

/** Whether a text holds a piece of one key of `keys` that output hides (16 characters of it), the forms of each made once: export's check of its files and keyFinder's. */
export function keyPieceCheck(keys: readonly (readonly [string, string])[]): (text: string, key: string) => boolean {
  const forms = new Map(keys.map(([, key]) => [key, keyForms([key])]));
  return (text, key) => holdsKeyPiece(text, forms.get(key) ?? keyForms([key]));
}

/** Each piece of a key's secret part of KEY_PIECE_ALONE characters or more, in any letter case. */
function redactLongPieces(text: string, secrets: readonly string[]): string {
  const anchors = pieceAnchors(secrets);
  if (anchors.size === 0 || text.length < KEY_PIECE_ALONE) return text;
  const lower = sameLengthLower(text);
  const spans: [number, number][] = [];
  for (const [anchor, parts] of anchors) {
    for (let at = lower.indexOf(anchor); at !== -1; at = lower.indexOf(anchor, at + 1)) {
      for (const part of parts) {
        let end = at + ANCHOR;
        while (end < lower.length && part.includes(lower.slice(at, end + 1))) end++;
        let start = at;
        while (start > 0 && part.includes(lower.slice(start - 1, end))) start--;
        if (end - start >= KEY_PIECE_ALONE) spans.push([startAfterMarker(lower, start, end), end]);
      }
    }
  }
  return spans.length === 0 ? text : replaceSpans(text, spans);
}

/**
 * Where a piece starts once a `-` or `_` that starts a line or a word is left out: a diff's or a
 * list's marker (`-SECRET…`, a line a plan removes, would read as unchanged: probe QF-1), which
 * gives nothing of a key away (its slug form holds `-` between words). Only there: kept beside
 * more text, it would stand between what a pass hid and the rest of the key the next pass looks
 * for beside that (second read SR84-1).
 */
function startAfterMarker(text: string, start: number, end: number): number {
  if (start > 0 && !/\s/.test(text[start - 1]!)) return start;
  while (end - start > 1 && (text[start] === '-' || text[start] === '_')) start++;
  return start;
}

/**
 * Each form of a key, in any letter case: one in a case of its own (`sK_lIvE_…` pasted into a name
 * in the app) gives the key away up to the case of some letters (probe GY). Looked for in the text
 * lower-cased once; replaced by a pattern that ignores case, which keeps every other character
 * where it was.
 */
function redactAnyCase(text: string, secrets: readonly string[]): string {
  const lower = sameLengthLower(text);
  const spans: [number, number][] = [];
  for (const form of lowerForms(secrets)) {
    if (!lower.includes(form)) continue;
    for (const m of lower.matchAll(caseless(form))) spans.push([m.index, m.index + m[0].length]);
  }
  return spans.length === 0 ? text : replaceSpans(text, spans);
}

/**
 * The text in lower case, of the same length, so a place found in it is the place in the text: as
 * toLowerCase gives it, unless a letter became two there (`İ`), then ASCII letters alone.
 */
function sameLengthLower(text: string): string {
  const lower = text.toLowerCase();
  return lower.length === text.length ? lower : text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

const lowerFormsOf = new WeakMap<readonly string[], string[]>();
/** Each form of the keys in lower case, once, longest first (a key that holds another goes whole). */
function lowerForms(secrets: readonly string[]): string[] {
  let forms = lowerFormsOf.get(secrets);
  if (!forms) lowerFormsOf.set(secrets, (forms = [...new Set(secrets.map(sameLengthLower))].sort((a, b) => b.length - a.length)));
  return forms;
}

/** Bounded, as a long-running emulator's log redacts the keys of every organization it made. */
const caselessPatterns = new Map<string, RegExp>();
function caseless(form: string): RegExp {
  let pattern = caselessPatterns.get(form);
  if (!pattern) {
    if (caselessPatterns.size >= 4096) caselessPatterns.clear();
    caselessPatterns.set(form, (pattern = new RegExp(form.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi')));
  }
  return pattern;
}

/**
 * A percent escape (or one an ellipsis cut, `%3…`: third read TR69-2), and the characters of the
 * run of text around it: a URL, or a value written as one. The run stops at a backslash (in JSON
 * and quoted values an escape starts there, `\"` closing the quote) and at a control character
 * (JSON writes it as an escape, so the text a saved plan's seal covers and the file's text must
 * hide the same characters).
 */
const PERCENT_ESCAPE = /%[0-9a-fA-F]{2}|%[0-9a-fA-F]?(?=…|\.\.\.)/g;
const PERCENT_RUN_CHAR = /[^\s"'<>`\\\u0000-\u001f\u007f-\u009f]/;

/**
 * `text` with each run of characters `inRun` takes that holds a match of `marker` (global) as
 * `replace` gives it. Runs are grown from the markers, each character looked at once at most: a
 * pattern that finds the run itself (`[…]*%XX[…]*`) tries every start of a long run without one,
 * and took seconds for 40,000 characters.
 */
function replaceRuns(text: string, marker: RegExp, inRun: RegExp, replace: (run: string, next: string | undefined) => string): string {
  let out = '';
  let from = 0;
  marker.lastIndex = 0;
  for (let m = marker.exec(text); m; m = marker.exec(text)) {
    let start = m.index;
    while (start > from && inRun.test(text[start - 1]!)) start--;
    let end = m.index + Math.max(1, m[0].length);
    while (end < text.length && inRun.test(text[end]!)) end++;
    out += text.slice(from, start) + replace(text.slice(start, end), text[end]);
    from = marker.lastIndex = end;
  }
  return from === 0 ? text : out + text.slice(from);
}

/**
 * A key written with escapes no encoder makes (`%5F` for `_`): found unescaped, each place of its
 * run that holds it is replaced (holdsKey refuses it in files; here it is only printed). Only those:
 * what the run took beside it (a diff line's `-`, the `n` of a `\n` escape) stays.
 */
function redactEscaped(text: string, secrets: readonly string[]): string {
  const keys = secrets.filter((s) => s.length >= MIN_CUT_KEY);
  return replaceRuns(text, PERCENT_ESCAPE, PERCENT_RUN_CHAR, (run) => {
    if (!keys.some((k) => holdsKey(run, k))) return escapedCut(run, keys) ? REDACTED : run;
    return replaceSpans(run, keys.flatMap((k) => keySpans(run, k)));
  });
}

/**
 * Whether an escaped run holds a piece of a key an ellipsis cut short (`%73%6b%5f…`, the cut
 * perhaps inside an escape: `%5…`): the run goes whole, as where it holds the key.
 */
function escapedCut(run: string, keys: readonly string[]): boolean {
  if (!hasCut(run)) return false;
  const decoded = percentDecoded(run).replace(/%[0-9a-fA-F]?(?=…|\.\.\.)/g, '');
  return keys.some((k) => redactCut(decoded, [k]) !== decoded || redactCut(decoded.toLowerCase(), [k.toLowerCase()]) !== decoded.toLowerCase());
}

/**
 * What marks a run of text that may spell a key with backslashes, as an excerpt shows a file's line
 * as written (probe IY-1): an escape of YAML's double-quoted style that can spell a key's character
 * (`\x73`, `\u0073`, `\U0001F600`, `\/`), perhaps escaped again by JSON (`\\x73`); one an
 * ellipsis cut short (`\x3…`); a backslash that ends a line (a double-quoted value goes on, joined,
 * on the next); and two before a quote (in JSON, a string that ends in one; the run decides).
 */
const BACKSLASH_MARK = /\\(?:x[0-9a-fA-F]{2}|u[0-9a-fA-F]{4}|U[0-9a-fA-F]{8}|\/|(?:x[0-9a-fA-F]?|u[0-9a-fA-F]{0,3}|U[0-9a-fA-F]{0,7})?(?=…|\.\.\.)|(?=\r|\n|$)|\\(?="))/g;
const BACKSLASHED_RUN_CHAR = /[^\s"'<>`]/;
/** One escape where a run's text is read: YAML's (after any backslashes JSON added), a percent escape, or either cut short by an ellipsis (read as nothing). */
const ESCAPE_AT = /^(?:\\+(?:x([0-9a-fA-F]{2})|u([0-9a-fA-F]{4})|U([0-9a-fA-F]{8})|(\/)|(?:x[0-9a-fA-F]?|u[0-9a-fA-F]{0,3}|U[0-9a-fA-F]{0,7})?(?=…|\.\.\.))|%([0-9a-fA-F]{2})|%[0-9a-fA-F]?(?=…|\.\.\.))/;

/**
 * A key written with escapes in a run (YAML's and percent ones mixed), found with them read: each
 * place of the run that holds it, or a piece of it an ellipsis cut, replaced (the escapes that spell
 * it whole); and a piece of a key before the backslash that ends a line of a double-quoted value. The
 * backslashes that end the run stay as they are: in JSON one escapes the quote after it.
 */
function redactBackslashed(text: string, secrets: readonly string[]): string {
  const keys = secrets.filter((s) => s.length >= MIN_CUT_KEY);
  return replaceRuns(text, BACKSLASH_MARK, BACKSLASHED_RUN_CHAR, (run, next) => {
    // Found by a loop: a pattern anchored at the end retried from every backslash of a long run (third read TR69-3).
    let cut = run.length;
    while (cut > 0 && run[cut - 1] === '\\') cut--;
    const body = run.slice(0, cut);
    const tail = run.slice(cut);
    // A line break cuts the text there: as text shows it, or as JSON does, before a closing quote
    // whatever the count (a message quoting the value escaped it once more, and JSON escaped that
    // and the quote: five before it, probe MO-1). A `\"` that is a quote in the text takes at most
    // a piece of a key with it.
    const lineEnd = tail.length > 0 && (next === undefined || next === '\r' || next === '\n' || next === '"');
    const { decoded, starts } = escapesRead(body);
    const at = (i: number): number => starts[i] ?? body.length;
    const spans = [...keys.flatMap((k) => keyMatches(decoded, k)), ...cutSpans(decoded, keys)].map(([a, b]): [number, number] => [at(a), at(b)]);
    if (lineEnd) {
      const lower = sameLengthLower(decoded);
      for (const key of lowerForms(secrets)) {
        const from = key.length > MIN_CUT_KEY ? pieceEndingAt(lower, lower.length, key) : undefined;
        if (from !== undefined) spans.push([at(from), body.length]);
      }
    }
    return spans.length === 0 ? run : `${replaceSpans(body, spans)}${tail}`;
  });
}

/** `run` with its escapes read, and where each UTF-16 unit of that comes from in `run` (and its end past the last). */
function escapesRead(run: string): { decoded: string; starts: number[] } {
  let decoded = '';
  const starts: number[] = [];
  for (let i = 0; i < run.length; ) {
    const escape = run[i] === '\\' || run[i] === '%' ? ESCAPE_AT.exec(run.slice(i, i + 16)) : null;
    const hex = escape ? (escape[1] ?? escape[2] ?? escape[3] ?? escape[5]) : undefined;
    const code = hex !== undefined ? parseInt(hex, 16) : escape?.[4] !== undefined ? 0x2f : undefined;
    // A character, one escape stands for (two units past the BMP), or nothing for one an ellipsis cut.
    const piece = !escape ? run[i]! : code === undefined ? '' : code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd';
    for (let unit = 0; unit < piece.length; unit++) starts.push(i);
    decoded += piece;
    i += escape ? escape[0].length : 1;
  }
  starts.push(run.length);
  return { decoded, starts };
}

/**
 * A span that starts at the letter of an escape (`\\bcdef…` for a key `bcdef…`: JSON's, or a quoted
 * value's) takes the escape's backslash too: left, it would escape the `[` of REDACTED, which no
 * JSON reads (third read TR69-4). Not another backslash before it (a path's `C:\\dir\\sk_…`: RV4-4).
 */
function withEscapeOf(text: string): (span: [number, number]) => [number, number] {
  return ([start, end]) => {
    if (start === 0 || text[start - 1] !== '\\' || !ESCAPE_LETTER.test(text[start]!)) return [start, end];
    let backslashes = 1;
    while (start - backslashes - 1 >= 0 && text[start - backslashes - 1] === '\\') backslashes++;
    return backslashes % 2 === 1 ? [start - 1, end] : [start, end];
  };
}

const ESCAPE_LETTER = /[bfnrtu"\\/]/;

/** `text` with each of `spans` ([start, end) offsets, in any order) as REDACTED: spans that overlap or touch as one. */
function replaceSpans(text: string, spans: [number, number][]): string {
  let out = '';
  let from = 0;
  let replaced = false;
  for (const [start, end] of spans.map(withEscapeOf(text)).sort((a, b) => a[0] - b[0])) {
    if (end <= from) continue;
    if (!replaced || start > from) out += `${text.slice(from, start)}${REDACTED}`;
    replaced = true;
    from = end;
  }
  return out + text.slice(from);
}

/** A piece of a key beside an ellipsis is a key a message (quoteValue cuts at 60) or an excerpt's window cut short. */
const MIN_CUT_KEY = KEY_PIECE_MIN;
/** Where output cut a key short: an ellipsis, or what a pass already hid of it (the rest of a key is beside that). */
const CUT = /\.\.\.|…|\[redacted\]/g;

/** Pieces of a key hidden in a row beside one cut, at most: the rounds of redact() take what is left. */
const CHAIN = 16;

function hasCut(text: string): boolean {
  return text.includes('…') || text.includes('...') || text.includes(REDACTED);
}

/**
 * Replaces each piece of `secret` (MIN_CUT_KEY characters or more) beside an ellipsis (or beside
 * what a pass already hid of it): a quote or
 * an excerpt's window cut the key short there, at its start, its end, or anywhere inside it
 * (`…SECRETabc12`, `live_SECRET…`; probe FV).
 */
function redactCut(text: string, secrets: readonly string[]): string {
  const cuts = cutSpans(text, secrets);
  return cuts.length === 0 ? text : replaceSpans(text, cuts);
}

/** The places of `text` redactCut replaces. */
function cutSpans(text: string, secrets: readonly string[]): [number, number][] {
  const cuts: [number, number][] = [];
  if (!hasCut(text)) return cuts;
  // Each form of a key on the same text: one (escaped, say) may hold only part of the piece another
  // holds whole. In any letter case, as whole keys are (second read): found in the text lower-cased.
  const keys = lowerForms(secrets).filter((s) => s.length > MIN_CUT_KEY);
  const lower = sameLengthLower(text);
  for (const m of lower.matchAll(CUT)) {
    const after = m.index + m[0].length;
    for (const secret of keys) {
      // A piece, and the pieces beside it in turn: one pass hides a chain of them (fourth read RV4-3),
      // up to CHAIN of them (a key of one repeated character beside a megabyte of it stays linear).
      for (let at = m.index, start = pieceEndingAt(lower, at, secret), n = 0; start !== undefined && n < CHAIN; at = start, start = pieceEndingAt(lower, at, secret), n++) cuts.push([startAfterMarker(lower, start, at), at]);
      for (let at = after, end = pieceStartingAt(lower, at, secret), n = 0; end !== undefined && n < CHAIN; at = end, end = pieceStartingAt(lower, at, secret), n++) cuts.push([at, end]);
    }
  }
  return cuts;
}

/**
 * Where the longest piece of `secret` that ends at `at` begins, if its last MIN_CUT_KEY characters
 * are one: grown a character at a time, so an ellipsis of a long output costs a few short searches,
 * never a scan of the rest of it.
 */
function pieceEndingAt(text: string, at: number, secret: string): number | undefined {
  if (at < MIN_CUT_KEY || !secret.includes(text.slice(at - MIN_CUT_KEY, at))) return undefined;
  let start = at - MIN_CUT_KEY;
  while (start > 0 && at - start < secret.length && secret.includes(text.slice(start - 1, at))) start--;
  return start;
}

/** Where the longest piece of `secret` that starts at `at` ends (pieceEndingAt, the other way). */
function pieceStartingAt(text: string, at: number, secret: string): number | undefined {
  if (at + MIN_CUT_KEY > text.length || !secret.includes(text.slice(at, at + MIN_CUT_KEY))) return undefined;
  let end = at + MIN_CUT_KEY;
  while (end < text.length && end - at < secret.length && secret.includes(text.slice(at, end + 1))) end++;
  return end;
}

/**
 * Pieces of a long output redacted one by one. Sound only when no piece ends inside a key: the
 * plan's JSON and text are cut between lines, and a key holds no line break.
 */
export function* redactEach(pieces: Iterable<string>, secrets: readonly string[]): Generator<string> {
  for (const piece of pieces) yield redact(piece, secrets);
}

export function redactingIo(io: Io): Io {
  const secrets = keyValues(io.env);
  if (secrets.length === 0) return io;
  const commands = io.commands;
  return {
    ...io,
    stdout: (text) => io.stdout(redact(text, secrets)),
    stderr: (text) => io.stderr(redact(text, secrets)),
    ...(commands ? { commands: (stream: 'stdout' | 'stderr', text: string) => commands(stream, redactCommands(text, secrets)) } : {}),
  };
}

/** A workflow command: `::error file=…,line=…::message`, its properties and message escaped. */
const COMMAND = /^(\s*::[A-Za-z-]+)(?: ([^:]*))?::([^\n]*)$/;

/**
 * Workflow commands redacted as the runner shows them: escaped, a percent-encoded key's `%` is
 * `%25` and no longer reads as one (`sk%255Flive…` is `sk%5Flive…` on the page).
 */
export function redactCommands(text: string, secrets: readonly string[]): string {
  return text
    .split('\n')
    .map((line) => {
      const command = COMMAND.exec(line);
      if (!command) return redact(line, secrets);
      const [, head, props, message] = command;
      const properties = props === undefined ? '' : ` ${props.split(',').map((p) => {
        const eq = p.indexOf('=');
        return eq < 0 ? p : `${p.slice(0, eq + 1)}${escapeProperty(redact(unescapeProperty(p.slice(eq + 1)), secrets))}`;
      }).join(',')}`;
      return `${head}${properties}::${escapeData(redact(unescapeData(message!), secrets))}`;
    })
    .join('\n');
}
