/**
 * The environment variables that hold API keys, and which of their values count as keys. Keys
 * never come from files: the loader refuses a value holding one, and output replaces them.
 */

import { EMULATOR_API_KEY } from '../emulator/identity.js';
import { DocketError } from '../errors.js';
import { escapeRegExp } from '../util/escape-regexp.js';
import { yaml } from '../util/lazy-yaml.js';
import { crAsLf } from '../util/line-break.js';
import type { Diagnostic } from '../diagnostics.js';

/** Each service's own key variable; DOCKET_API_KEY serves whichever has none. */
export const API_KEY_VARIABLES = { review: 'DOCKET_REVIEW_API_KEY', agreements: 'DOCKET_AGREEMENTS_API_KEY' } as const;
const KEY_VARIABLES: readonly string[] = ['DOCKET_API_KEY', ...Object.values(API_KEY_VARIABLES)];

/** Why no key belongs in the configuration, as the errors that refuse one say it. */
export const KEYS_STAY_OUT = 'docket reads the keys from the environment itself, and keeps them out of every request body, plan and output';

/**
 * A piece of a key at least this long is taken for the key where output cut it (an ellipsis, a
 * file name cut at 100 bytes); five characters say next to nothing of a key, and shorter pieces
 * would match ordinary text (a key that starts `live_` would take the word from "changed live…").
 */
export const KEY_PIECE_MIN = 6;

/** Shorter values are not taken for a key found inside other text: they would match ordinary words. */
const KEY_MIN_LENGTH = 8;

export function isKeyVariable(name: string): boolean {
  return KEY_VARIABLES.includes(name);
}

/** The API keys set in `env` (8 characters or more), by variable. */
export function keysOf(env: Readonly<Record<string, string | undefined>>): [string, string][] {
  return KEY_VARIABLES.flatMap((name): [string, string][] => {
    // A secret pasted into CI often ends with a line break the key itself does not have.
    const key = env[name]?.trim();
    return key !== undefined && isSecretKey(key) ? [[name, key]] : [];
  });
}

/**
 * Which API key variable's value `text` holds as a file must not: whole (holdsKey's forms) or a
 * piece of it that output hides (cli/redact.ts keyFinder); undefined when none.
 */
export type KeyFinder = (text: string) => string | undefined;

/**
 * Whether a setting's value is shaped like an API key (`zpka_…`: 20 or more letters, digits, `_`
 * or `-`, an `_` among them, with both letters and digits): a CI variable holding one (the key and
 * the organization id swapped) is described by its length, not quoted, though no key variable
 * holds it (probe CE-2). Not a mistyped UUID or a host (no `_`, or a `.`), which the user must see
 * to fix (second read SR101-4).
 */
export function keyShaped(value: string): boolean {
  const v = value.trim();
  return v.length >= 20 && /^[A-Za-z0-9_-]+$/.test(v) && v.includes('_') && /[A-Za-z]/.test(v) && /[0-9]/.test(v);
}

/** A value shaped like an API key (keyShaped) as messages describe it, by its length; undefined for any other, which is quoted. */
export function keyShapeDescribed(value: string): string | undefined {
  return keyShaped(value) ? `${value.trim().length} characters shaped like an API key, not shown` : undefined;
}

/** How a message quotes a setting's value that may be an API key: described when it is shaped like one (keyShapeDescribed). */
export function keyShapedShown(value: string, quote: (value: string) => string): string {
  return keyShapeDescribed(value) ?? quote(value);
}

/** Whether a key (trimmed) is one output hides: long enough to be one, and not the emulator's, which the README and its banner print. */
export function isSecretKey(key: string): boolean {
  return key.length >= KEY_MIN_LENGTH && key !== EMULATOR_API_KEY;
}

/**
 * The key a run sends to `service`, trimmed (a CI secret often ends with a line break the key does
 * not have). A variable set to nothing but spaces is unset, as an empty one is (else an empty key would be sent).
 */
export function serviceApiKey(env: Readonly<Record<string, string | undefined>>, service: keyof typeof API_KEY_VARIABLES): string | undefined {
  const from = serviceApiKeyVariable(env, service);
  return from === undefined ? undefined : env[from]!.trim();
}

/** The variable serviceApiKey reads the key from: the service's own when set, else DOCKET_API_KEY. */
export function serviceApiKeyVariable(env: Readonly<Record<string, string | undefined>>, service: keyof typeof API_KEY_VARIABLES): string | undefined {
  return [API_KEY_VARIABLES[service], 'DOCKET_API_KEY'].find((name) => env[name]?.trim());
}

/**
 * What makes a key (trimmed) unfit for an HTTP header, or undefined: a space or control character
 * would make undici refuse the header or split it, and a header holds Latin-1 only (undici refused
 * such a key as a connection failure).
 */
export function apiKeyProblem(key: string): string | undefined {
  if (/[\s\u0000-\u001f\u007f-\u009f]/.test(key)) return 'contains spaces or control characters';
  if (/[^\u0000-\u00ff]/.test(key)) return 'contains characters an HTTP header cannot hold (such as € or a curly quote)';
  return undefined;
}

/** What to say of a key apiKeyProblem refuses: how it was copied, where it came from. */
export function apiKeyProblemHint(variable: string): string {
  return `check how the key in ${variable} was copied into the environment`;
}

/** The error of a run that needs `service` and has no key for it: its own code, not a bad flag's `usage` (probe GP). */
export function missingApiKey(service: keyof typeof API_KEY_VARIABLES): DocketError {
  return new DocketError('missing-api-key', `no API key for the ${service} service`, `set ${API_KEY_VARIABLES[service]} (or DOCKET_API_KEY); keys are never read from files`);
}

/**
 * The variable of a key a file's path (from the configuration's root) holds, a folder named with it
 * say: docket.lock.json records the files docket uploads by their path, and a commit would carry the
 * key into git (probe HB-1). With what to say of it, `what` naming the file.
 */
export function keyInPath(rel: string, keys: readonly [string, string][], what: string): { message: string; hint: string } | undefined {
  const variable = keys.find(([, key]) => holdsKey(rel, key))?.[0];
  if (variable === undefined) return undefined;
  return {
    message: `${what} names a file whose path holds the value of ${variable}, an API key: docket.lock.json records the files docket uploads by their path, and a commit would carry the key into git`,
    hint: `rename the folder or file that holds it: ${KEYS_STAY_OUT}`,
  };
}

/**
 * Whether `text` holds `key` as output would give it away, and so redacts it: in any letter case,
 * and percent-escaped (a key pasted into the app as part of a URL). Escapes are read byte by byte,
 * so a stray `%` elsewhere does not hide one. Checked for every value of a configuration when a
 * key is set: a case-blind pattern per key, not a lower-cased copy of each value.
 */
export function holdsKey(text: string, key: string): boolean {
  const pattern = caseBlind(key);
  if (pattern.test(text) || (text.includes('%') && pattern.test(percentDecoded(text)))) return true;
  // Its accented letters some composed and some not: the key once the service composes the text (second read SR99-4).
  const composed = composedForKeys(text, [key]);
  return composed !== text && caseBlind(key.normalize('NFC')).test(composed);
}

/**
 * The text composed (NFC) where one of `keys` has letters past ASCII and the text combining marks:
 * a key written with some accents decomposed is the key once composed, as a service composes a
 * name (second read SR99-4). Otherwise the text itself.
 */
export function composedForKeys(text: string, keys: readonly string[]): string {
  // The keys first: short, where the text may be a 20,000-rule configuration's every value.
  return keys.some((k) => /[^\u0000-\u007f]/.test(k)) && /\p{M}/u.test(text) ? text.normalize('NFC') : text;
}

/**
 * Where `key` is written in `text` as holdsKey finds it, as [start, end) offsets of `text`: in any
 * letter case, as it is or percent-escaped (an escape stands for one character).
 */
export function keySpans(text: string, key: string): [number, number][] {
  const spans = keyMatches(text, key);
  if (!text.includes('%')) return spans;
  // Decoded once, with where each decoded character starts in the text (and the text's end past the last).
  let decoded = '';
  const starts: number[] = [];
  for (let i = 0; i < text.length; ) {
    starts.push(i);
    const escape = text[i] === '%' && /^[0-9a-f]{2}$/i.test(text.slice(i + 1, i + 3));
    decoded += escape ? String.fromCharCode(parseInt(text.slice(i + 1, i + 3), 16)) : text[i]!;
    i += escape ? 3 : 1;
  }
  starts.push(text.length);
  for (const [a, b] of keyMatches(decoded, key)) spans.push([starts[a]!, starts[b]!]);
  return spans;
}

/** Where `key` is written in `text`, in any letter case, as [start, end) offsets. */
export function keyMatches(text: string, key: string): [number, number][] {
  return [...text.matchAll(caseBlind(key, 'giu'))].map((m) => [m.index, m.index + m[0].length]);
}

const caseBlindPatterns = new Map<string, RegExp>();

/**
 * `key` in any letter case, its accented letters composed or decomposed (a name is sent composed,
 * so a key typed decomposed into one is sent as the key: probe AE-2); `giu` for every place of it
 * (matchAll takes a copy of the pattern, so sharing it is safe).
 */
function caseBlind(key: string, flags: 'iu' | 'giu' = 'iu'): RegExp {
  const id = `${flags}\u0000${key}`;
  let pattern = caseBlindPatterns.get(id);
  if (!pattern) caseBlindPatterns.set(id, (pattern = new RegExp(normalForms(key).map(escapeRegExp).join('|'), flags)));
  return pattern;
}

/** A text as written, composed and decomposed (NFC, NFD), each once. */
export function normalForms(text: string): string[] {
  return [...new Set([text, text.normalize('NFC'), text.normalize('NFD')])];
}

/** `%XX` escapes read as the bytes they stand for, one character each (any other `%` left as it is). */
export function percentDecoded(text: string): string {
  return text.replace(/%[0-9a-f]{2}/gi, (e) => String.fromCharCode(parseInt(e.slice(1), 16)));
}

/** Where `key` is written in `text` as holdsKey finds it (escaped: at its line's start), or -1. */
function keyIndex(text: string, key: string): number {
  const at = text.search(caseBlind(key));
  if (at !== -1 || !holdsKey(text, key)) return at;
  let start = 0;
  for (const line of text.split(/(?<=\r\n|\r(?!\n)|\n)/)) {
    if (holdsKey(line, key)) return start;
    start += line.length;
  }
  return 0;
}

/**
 * The first place a key's value is written in a file's text, as a 1-based line and column (a
 * line ends at CR LF, CR or LF, as editors count them), with the variable it is the value of.
 */
export function keyWrittenIn(text: string, keys: readonly [string, string][]): { variable: string; line: number; col: number } | undefined {
  for (const [variable, key] of keys) {
    const at = keyIndex(text, key);
    if (at === -1) continue;
    const before = text.slice(0, at);
    const lineStart = Math.max(before.lastIndexOf('\n'), before.lastIndexOf('\r')) + 1;
    return { variable, line: (before.match(/\r\n|\r|\n/g)?.length ?? 0) + 1, col: at - lineStart + 1 };
  }
  return undefined;
}

/**
 * A key's value written anywhere in a file of the configuration (a comment, a key name, a test
 * file's case): `api-key-in-file` at the first place, since a commit would carry it into git.
 */
export function keyInFileText(file: string, text: string, env: Readonly<Record<string, string | undefined>>): Diagnostic | undefined {
  const keys = keysOf(env).filter(([, key]) => holdsKey(text, key));
  return keys.length === 0 ? undefined : keyInFile(file, text, keys, (variable) => `this line holds the value of ${variable}, an API key, which docket never puts into the configuration: a commit would carry it into git`);
}

/**
 * keyInFileText in the comments and key names of a YAML file only, for one whose values are each
 * said at themselves: a comment or key name holding the key too would otherwise be said only once
 * they are mended, and removing just the value said would commit it (probe VC-1).
 */
export function keyInComments(file: string, text: string, env: Readonly<Record<string, string | undefined>>): Diagnostic | undefined {
  if (!keysOf(env).some(([, key]) => holdsKey(text, key))) return undefined;
  // Lone CRs as line ends, as the files are parsed (second read SR94B-2): the length, and so every offset, stays.
  const kept = asideSpans(crAsLf(text));
  // A text the lexer does not give back whole (a mark of its own written in the file): all of it is looked at.
  if (!kept) return keyInFileText(file, text, env);
  // Everything else blanked, line ends kept: a place found is the place in the file.
  let masked = '';
  let at = 0;
  for (const [start, end] of kept.sort((a, b) => a[0] - b[0])) {
    if (start < at) continue;
    masked += text.slice(at, start).replace(/[^\r\n]/g, ' ') + text.slice(start, end);
    at = end;
  }
  masked += text.slice(at).replace(/[^\r\n]/g, ' ');
  return keyInFileText(file, masked, env);
}

/** Where the comments and the key names of a YAML text are, as [start, end); undefined when the lexer's tokens do not add up to the text. */
function asideSpans(text: string): [number, number][] | undefined {
  const { CST, Lexer, Parser } = yaml();
  const spans: [number, number][] = [];
  let offset = 0;
  let scalarNext = false;
  for (const token of new Lexer().lex(text)) {
    // The lexer marks a document's start and each scalar with a character of its own: what follows
    // a scalar's mark is its text, whatever it starts with (a block scalar's line `# …`).
    if (scalarNext) scalarNext = false;
    else if (token === CST.SCALAR) {
      scalarNext = true;
      continue;
    } else if (token === CST.DOCUMENT || token === CST.FLOW_END) continue;
    else if (CST.tokenType(token) === 'comment') spans.push([offset, offset + token.length]);
    offset += token.length;
  }
  if (offset !== text.length) return undefined;
  for (const token of new Parser().parse(text)) {
    if (token.type !== 'document') continue;
    CST.visit(token, (item) => {
      const key = item.key;
      if (key && (key.type === 'scalar' || key.type === 'single-quoted-scalar' || key.type === 'double-quoted-scalar')) spans.push([key.offset, key.offset + key.source.length]);
    });
  }
  return spans;
}

/** `api-key-in-file` at the first place `text` holds one of `keys`, saying what `says` of its variable. */
export function keyInFile(file: string, text: string, keys: readonly [string, string][], says: (variable: string) => string): Diagnostic | undefined {
  const found = keyWrittenIn(text, keys);
  if (!found) return undefined;
  return { severity: 'error', code: 'api-key-in-file', message: says(found.variable), file, line: found.line, col: found.col, hint: `remove it: ${KEYS_STAY_OUT}` };
}

