/**
 * An API key someone pasted into an object in the app (a rule's notes, a term's body) would be
 * written into the exported files, and committed with them: export refuses instead. Pure.
 */
import { holdsKey, KEY_PIECE_MIN, KEYS_STAY_OUT } from '../config/api-keys.js';
import { keysHeld } from '../config/interpolate.js';
import { parseYamlFile } from '../config/yaml-read.js';
import { slug, SLUG_MAX_BYTES } from './layout.js';
import { DocketError } from '../errors.js';
import type { ExportFile } from './yaml.js';

/**
 * The files that hold the value of one of `keys` (`[variable, value]`), with the variables they
 * hold, each named as a message may name it: a file named after an object named with the key
 * holds a piece of it (names are cut at 100 bytes, with no ellipsis that output would redact). A
 * file whose own name is the key (an object named `ABC DEF 1234` under the key `abc-def-1234`)
 * would commit it as much as its text.
 */
export function filesHoldingKeys(
  files: readonly ExportFile[],
  keys: readonly (readonly [string, string])[],
  /** Whether a text holds a piece of `key` that output hides (16 characters of it, say): committed, it gives as much away. */
  holdsPiece: (text: string, key: string) => boolean = () => false,
): { path: string; variables: string[] }[] {
  if (keys.length === 0) return [];
  const found: { path: string; variables: string[] }[] = [];
  for (const file of files) {
    const read = onceRead(file);
    const held = (key: string): boolean => holdsKey(file.content, key) || holdsKey(file.path, key) || (read() !== undefined && keysHeld(read(), [['', key]], file.content).length > 0);
    const variables = keys.filter(([, key]) => held(key) || holdsPiece(file.content, key) || holdsPiece(file.path, key)).map(([name]) => name);
    if (variables.length > 0) found.push({ path: shownPath(file.path, keys, holdsPiece), variables });
  }
  return found;
}

/**
 * A YAML file's values as read, parsed once and only when asked for (`undefined`: not a YAML file
 * with an escape, or none that reads). A key spelt with a double-quoted string's escapes (a custom
 * template's definition as the app holds it) is the key to the service, and to docket's validate,
 * which refused it after the files were written (probe OF-2).
 */
function onceRead(file: ExportFile): () => unknown[] | undefined {
  let values: unknown[] | undefined;
  let read = false;
  return () => {
    if (read) return values;
    read = true;
    if (!/\.ya?ml$/i.test(file.path) || !file.content.includes('\\')) return undefined;
    try {
      values = parseYamlFile(file.content, file.path).documents.map((d) => d.value);
    } catch {
      // Not YAML that reads: nothing it holds is read as a key either.
    }
    return values;
  };
}

/**
 * `path`, or its folder and "…" when its name gives a key away as output would not show it: the key,
 * 16 characters of it, or at the end of a name cut at 100 bytes a start of it of 6 characters or
 * more (before a `-2` that sets two names apart). A name that merely shares a few characters with
 * a key (`risk-live-deals` and `sk_live_…`) is shown: the message names the files to clean (probe XF-2).
 */
function shownPath(path: string, keys: readonly (readonly [string, string])[], holdsPiece: (text: string, key: string) => boolean): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const whole = name.toLowerCase().replace(/\.[^.]*$/, '');
  // Measured before its `-2` is taken off: a cut in the key's digits ends in what reads as one (second read SR96B-3).
  const cut = cutShort(whole);
  const stem = whole.replace(/-\d+$/, '');
  const cutInKey = (written: string): boolean => cut && (endsWithStartOf(stem, written) || endsWithStartOf(whole, written));
  for (const [, key] of keys) {
    if (holdsKey(name, key) || holdsPiece(name, key) || cutInKey(slug(key))) return `${path.slice(0, path.lastIndexOf('/') + 1)}… (a file named after an object whose name, as file names write it, holds the key)`;
  }
  return path;
}

/** Whether a name was cut at SLUG_MAX_BYTES: in a key (ASCII) the cut is at it, or a byte short of it where a `-` was taken off the end (second read SR96-5). */
function cutShort(stem: string): boolean {
  return Buffer.byteLength(stem) >= SLUG_MAX_BYTES - 1;
}

/** Whether `stem` ends with the first KEY_PIECE_MIN characters or more of `written`: where a cut name stops in the key. */
function endsWithStartOf(stem: string, written: string): boolean {
  for (let n = Math.min(stem.length, written.length); n >= KEY_PIECE_MIN; n--) if (stem.endsWith(written.slice(0, n))) return true;
  return false;
}

/** The error for an export that would write keys: nothing is written. */
export function keysInLiveState(found: readonly { path: string; variables: string[] }[]): DocketError {
  const variables = [...new Set(found.flatMap((f) => f.variables))].join(', ');
  const shown = found.slice(0, 5).map((f) => f.path);
  const more = found.length > shown.length ? ` and ${found.length - shown.length} more` : '';
  return new DocketError(
    'api-key-in-live-value',
    `the live state holds the value of an API key (${variables}), or 16 or more characters of it, which export would write into ${shown.join(', ')}${more}; nothing was written: ${KEYS_STAY_OUT}`,
    'remove the key from those objects in the app, then export again',
  );
}
