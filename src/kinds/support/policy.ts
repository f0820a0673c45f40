/** `drift:` and `ignore_fields:` of a playbook or rule (a rule inherits its playbook's). */
import type { DriftPolicy, ResourcePolicy } from '../../engine/types.js';

const POLICIES: readonly DriftPolicy[] = ['adopt', 'revert', 'ignore'];

/**
 * The policy a document entry states, over the one it inherits: its own `drift` wins, and its
 * `ignore_fields` add to the inherited ones. Undefined when neither says anything (no cost per rule).
 */
export function policyOf(entry: Record<string, unknown>, inherited?: ResourcePolicy): ResourcePolicy | undefined {
  // Most objects state none and inherit none (20,000 rules a plan): nothing to build.
  if (!inherited && entry.drift === undefined && entry.ignore_fields === undefined) return undefined;
  const own = POLICIES.find((p) => p === entry.drift);
  const drift = own ?? inherited?.drift;
  const listed = Array.isArray(entry.ignore_fields) ? entry.ignore_fields.filter((f): f is string => typeof f === 'string') : [];
  const ignoreFields = [...new Set([...(inherited?.ignoreFields ?? []), ...listed])];
  if (!drift && ignoreFields.length === 0) return undefined;
  return { ...(drift ? { drift } : {}), ...(ignoreFields.length > 0 ? { ignoreFields } : {}) };
}

/** What a document entry keeps of its own that a live object cannot say: see `settingsWritten`. */
export interface WrittenSettings {
  /** Keys to write as the entry does: its `drift`, `ignore_fields`, and its values of the fields it ignores. */
  set: Record<string, unknown>;
  /** Ignored fields the entry leaves unwritten: a live value there is not written either. */
  drop: readonly string[];
}

/**
 * The policy keys `entry` writes, and its own values of every field it or its parent ignores, as
 * written (a placeholder stays one): what a document written anew for the same object keeps (a
 * pull's new file for a playbook renamed in the app, whose former document another one took).
 */
export function settingsWritten(entry: Record<string, unknown>, inheritedIgnored: readonly string[] = []): WrittenSettings | undefined {
  const ignored = [...new Set([...inheritedIgnored, ...ignoredFieldsWritten(entry)])];
  if (entry.drift === undefined && entry.ignore_fields === undefined && ignored.length === 0) return undefined;
  const set: Record<string, unknown> = {};
  for (const field of ignored) if (entry[field] !== undefined) set[field] = entry[field];
  for (const key of ['drift', 'ignore_fields']) if (entry[key] !== undefined) set[key] = entry[key];
  return { set, drop: ignored.filter((field) => entry[field] === undefined) };
}

/** The fields `entry`'s own `ignore_fields` lists. */
export function ignoredFieldsWritten(entry: Record<string, unknown>): string[] {
  return Array.isArray(entry.ignore_fields) ? entry.ignore_fields.filter((f): f is string => typeof f === 'string') : [];
}

/** `document` with `settings`: each set key's value in its place (new ones last), each dropped one gone. */
export function withSettings(document: Record<string, unknown>, settings: WrittenSettings | undefined): Record<string, unknown> {
  if (!settings) return document;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(document)) if (!settings.drop.includes(key)) out[key] = Object.hasOwn(settings.set, key) ? settings.set[key] : value;
  for (const [key, value] of Object.entries(settings.set)) if (!Object.hasOwn(out, key)) out[key] = value;
  return out;
}

/**
 * `entry` for the object that took its name in the app (a new one made there under the former name
 * of an object whose history and settings went to its new item or file): without the `drift` and
 * `ignore_fields` that went, and with the new object's `live` values of the fields they ignored.
 * Kept, they were another object's, and another environment created the new one with them (probe NH-1).
 */
export function withoutOwnSettings(entry: Record<string, unknown>, live: Record<string, unknown> | undefined, inheritedIgnored: readonly string[] = []): Record<string, unknown> {
  const own = ignoredFieldsWritten(entry);
  // The parent's ignored fields, still ignored: the renamed one's values go, and no live value is pulled in their place (probe GB, second read SR78-2).
  const inherited = inheritedIgnored.filter((f) => !own.includes(f));
  if (entry.drift === undefined && entry.ignore_fields === undefined && !inherited.some((f) => entry[f] !== undefined)) return entry;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    if (key === 'drift' || key === 'ignore_fields' || inherited.includes(key)) continue;
    if (!own.includes(key)) out[key] = value;
    else if (live?.[key] !== undefined && live[key] !== null) out[key] = live[key];
  }
  for (const field of own) if (!Object.hasOwn(out, field) && live?.[field] !== undefined && live[field] !== null) out[field] = live[field];
  return out;
}
