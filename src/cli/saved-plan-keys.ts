/**
 * What a plan saved with `--out` cannot hold: the file never holds an API key's value (redacted
 * wherever it stands), so a plan whose apply needs one is refused before anything is saved.
 */
import { quoteValue } from '../config/quote.js';
import { DocketError } from '../errors.js';
import { refKey, type DesiredResource, type Plan } from '../engine/types.js';

/** Refuses (`plan-not-saved`) a plan the saved file could not carry whole once redacted. */
export function checkSavable(plan: Plan, desired: readonly DesiredResource[], redacted: (text: string) => string, applyCommand: string): void {
  refuseSentKeys(plan, redacted, applyCommand);
  keepRedactedTwinsApart(plan, desired, redacted, applyCommand);
}

/**
 * A value apply sends that holds a key (or 16 characters of one): the files' own, or one live held
 * that an update sends again unchanged (`resend`, the keys a file leaves out of a nested object).
 * Saved, apply would send `[redacted]` in its place, over a field the plan never showed as
 * changing (probe NI-1), or refuse the plan as edited, every time it is made again (probe NI-2).
 */
function refuseSentKeys(plan: Plan, redacted: (text: string) => string, applyCommand: string): void {
  for (const c of plan.changes) {
    const live = keyAt(c.resend, redacted);
    const files = live === undefined ? (keyAt(c.desired, redacted) ?? keyAt(Object.fromEntries(c.fields.map((f) => [f.field, f.sent ?? f.after])), redacted)) : undefined;
    const path = live ?? files;
    if (path === undefined) continue;
    const what = live !== undefined ? `a value live holds there, which apply sends again unchanged,` : 'the value the files give it';
    throw new DocketError(
      'plan-not-saved',
      `the plan cannot be saved: ${c.kind} ${quoteValue(redacted(c.key))} sends ${redacted(path)}, and ${what} holds the value of an API key (or 16 or more characters of it); a saved plan never holds a key, so its apply could not send it; nothing was saved`,
      live !== undefined
        ? `take the key out of that value in the app, then plan again; or apply without a saved plan (${applyCommand})`
        : `take it out of the files (a key belongs in an environment variable, never in a file), then plan again; or apply without a saved plan (${applyCommand})`,
    );
  }
}

/** The path of the first text (a value or a mapping's key) under `value` that redaction changes. */
function keyAt(value: unknown, redacted: (text: string) => string, path = ''): string | undefined {
  if (typeof value === 'string') return redacted(value) === value ? undefined : path;
  if (value === null || typeof value !== 'object') return undefined;
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) {
      const found = keyAt(item, redacted, `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path === '' ? key : `${path}.${key}`;
    if (redacted(key) !== key) return at;
    const found = keyAt(item, redacted, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

/**
 * Two changes, or two known ids, whose names differ only where a key's value is written: the saved
 * file never holds a key, so it could not tell them apart (show and apply would refuse it as a
 * plan that lists a change twice). Ids of objects the plan neither changes, names nor declares
 * (two undeclared playbooks, left alone) are not needed by their keys to apply it or to check it:
 * those are kept under keys of their own instead (probe GT).
 */
function keepRedactedTwinsApart(plan: Plan, desired: readonly DesiredResource[], redacted: (text: string) => string, applyCommand: string): void {
  const refuse = (shown: string): never => {
    throw new DocketError(
      'plan-not-saved',
      `the plan cannot be saved: the names of two objects differ only where the value of an API key is written (${shown}), and a saved plan, which never holds a key, could not tell them apart; nothing was saved`,
      `rename one of them in the app so that no name holds a key, then plan again; or apply without a saved plan (${applyCommand})`,
    );
  };
  const seen = new Set<string>();
  for (const c of plan.changes) {
    const shown = redacted(c.id);
    if (seen.has(shown)) refuse(shown);
    seen.add(shown);
  }
  const twins = new Map<string, string[]>();
  for (const kindKey of Object.keys(plan.ids)) {
    const shown = redacted(kindKey);
    twins.set(shown, [...(twins.get(shown) ?? []), kindKey]);
  }
  let needed: Set<string> | undefined;
  for (const [shown, kindKeys] of twins) {
    if (kindKeys.length < 2) continue;
    needed ??= new Set([
      ...desired.map((d) => refKey(d.kind, d.key)),
      ...plan.changes.flatMap((c) => [refKey(c.kind, c.key), ...c.refs.map((r) => refKey(r.kind, r.key)), ...(c.parent ? [refKey(c.parent.kind, c.parent.key)] : [])]),
    ]);
    if (kindKeys.some((k) => needed!.has(k))) refuse(`the id of ${shown.replace(':', ' ')}`);
    // Kept under keys of their own, as what the read found: the apply's sync records and
    // duplicate checks go by every id read (second read). NUL is in no name.
    kindKeys.forEach((k, i) => {
      plan.ids[`${shown}\u0000${i + 1}`] = plan.ids[k]!;
      delete plan.ids[k];
    });
  }
}

