/**
 * A change named as the plan shows it, with no other rendering code: the apply report in JSON
 * (loaded before any command, for error documents) uses it too.
 */
import { isolated } from './bidi.js';
import { namesakeNote, type Change, type ChangeResult } from '../engine/types.js';

export { namesakeNote };
import { HIDDEN_PARTS, identityWithoutSecrets } from '../config/url-secrets.js';
import { quote } from './value.js';
import { drawnAlikeLetter } from '../util/other-script.js';

/** The identity users wrote (`Inbound NDA/Term`, an e-mail); the name when a kind has no key. */
export function changeLabel(c: Change): string {
  return c.key !== '' ? identityWithoutSecrets(c.key, c.name) : c.name;
}

/** Singletons (the organization) carry their kind as key; a quoted `"organization"` would be noise. */
export function isSingleton(c: { kind: string; key: string }): boolean {
  return c.key === c.kind;
}

/** For a rename: the old label (as shown, and as written) and the name field, so the headline reads `"Old" → "New"`. */
export function renamedFrom(c: Change): { label: string; written: string; field: string } | undefined {
  if (c.action !== 'rename') return undefined;
  const f = c.fields.find((x) => typeof x.before === 'string' && x.after === c.name) ?? c.fields[0];
  if (!f || typeof f.before !== 'string') return undefined;
  const written = c.parent ? `${c.parent.key}/${f.before}` : f.before;
  return { label: identityWithoutSecrets(written, f.before), written, field: f.field };
}

/**
 * What a rename's headline adds when its two names show alike: they differ only in what output
 * hides of a URL (`?ref=1` → `?ref=2`), or in a letter of another alphabet drawn as a Latin one,
 * and without it the rename would read as none.
 */
export function renameNote(c: Change): string {
  const from = renamedFrom(c);
  if (!from) return '';
  if (from.label === changeLabel(c) && from.written !== c.key) return ` (no visible difference: the names differ only in what output hides as it may hold a secret: ${HIDDEN_PARTS})`;
  // A Cyrillic `е` for a Latin `e` prints the same: the rename would read as none (probe JQ-5).
  const letter = drawnAlikeLetter(from.label, changeLabel(c));
  return letter ? ` (no visible difference: the names differ only in a letter of another alphabet: ${letter})` : '';
}

/** A change as the plan showed it: `update playbook "NDA"`, a rename `rename playbook "Old" → "New"`; its id quoted when the plan has no such change. */
export function headlineOf(id: string, byId: ReadonlyMap<string, Change>, forReading = false): string {
  const c = byId.get(id);
  return c ? changeHeadline(c, forReading) : quote(id);
}

/** `forReading`: for a person (the apply report's lines), right-to-left names set apart across `→` (bidi.ts); not in JSON or annotations. */
export function changeHeadline(c: Change, forReading = false): string {
  const from = renamedFrom(c);
  const side = forReading ? isolated : (s: string): string => s;
  if (from) return `${c.action} ${c.kind} ${side(quote(from.label))} → ${side(quote(changeLabel(c)))}${renameNote(c)}`;
  if (isSingleton(c)) return `${c.action} ${c.kind}`;
  return `${c.action} ${c.kind} ${quote(changeLabel(c))}${namesakeNote(c)}`;
}


/** Why a change was skipped, naming the failed change (and the one between) as the plan showed them. */
export function skippedBecause(r: ChangeResult, byId: ReadonlyMap<string, Change>): string {
  if (r.blockedBy) return `depends on ${headlineOf(r.blockedBy.failed, byId)}, which failed${r.blockedBy.through ? ` (through ${headlineOf(r.blockedBy.through, byId)})` : ''}`;
  return r.message ?? 'depends on a change that did not complete';
}
