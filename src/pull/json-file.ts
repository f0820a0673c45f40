/**
 * A data file written in JSON (a custom template definition kept as JSON, which YAML also reads),
 * pulled as JSON: YAML edits would add unquoted keys and trailing commas, which the file's own
 * tools (a JSON linter, `jq`) refuse (probe BN-4). JSON holds no comments, so writing it whole
 * loses nothing; keys keep the file's order where the kind allows it, and its indentation.
 */
import { isRecord } from '../kinds/support/definition-model.js';
import { escapeInvisibleJson } from '../util/invisible.js';

/** The value of `text` when the whole file is one JSON object, else undefined. */
export function jsonObjectOf(text: string): Record<string, unknown> | undefined {
  const body = text.trimStart();
  if (!body.startsWith('{')) return undefined;
  try {
    const value: unknown = JSON.parse(body);
    return isRecord(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * `value` written as `before`, a JSON file, writes: with its indentation (one line when it is on one
 * line), and, when `keepOrder`, with each object's keys in the order the file has them (those it
 * lacks after them, in `value`'s order).
 */
export function jsonLike(before: string, previous: unknown, value: unknown, keepOrder: boolean): string {
  const ordered = keepOrder ? orderedLike(value, previous) : value;
  // A character that shows as nothing, or turns the text around it, as its escape: as pull writes it in YAML, a change to one shows in a diff (second read SR101-5).
  return `${escapeInvisibleJson(JSON.stringify(ordered, null, indentOf(before)))}\n`;
}

/** Whether JSON writes `value` as it is: no infinity, no date, nothing JSON.stringify would turn into other text. */
export function fitsJson(value: unknown): boolean {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return true;
  if (typeof value === 'number') return Number.isFinite(value);
  if (Array.isArray(value)) return value.every(fitsJson);
  return isRecord(value) && Object.getPrototypeOf(value) === Object.prototype && Object.values(value).every(fitsJson);
}

/** The indentation of a JSON file: the first indented line's, none when it is on one line. */
function indentOf(text: string): string | number {
  const first = /\n([ \t]+)\S/.exec(text);
  return first ? first[1]! : 0;
}

/** `value` with each object's keys in the order the same object of `like` has them. */
function orderedLike(value: unknown, like: unknown): unknown {
  if (Array.isArray(value)) return value.map((item, i) => orderedLike(item, Array.isArray(like) ? like[i] : undefined));
  if (!isRecord(value)) return value;
  // No prototype: a key named `__proto__` is a key like any other.
  const out = Object.create(null) as Record<string, unknown>;
  const previous = isRecord(like) ? like : {};
  for (const key of Object.keys(previous)) if (Object.hasOwn(value, key)) out[key] = orderedLike(value[key], previous[key]);
  for (const [key, item] of Object.entries(value)) if (!Object.hasOwn(out, key)) out[key] = orderedLike(item, undefined);
  return out;
}
