/**
 * Where `docket export` puts things: which kinds it exports (their modules say where), and
 * deterministic file names (a slug of the name; collisions get `-2`, `-3`, … in name order).
 */
import { didYouMean } from '../config/suggest.js';
import { UsageError } from '../errors.js';
import type { AnyKind } from '../kinds/index.js';

/** `--kind` values → the kinds to export (none given: every kind with a layout). Unknown names are a usage error with a suggestion. */
export function exportKinds(values: readonly string[], kinds: readonly AnyKind[]): AnyKind[] {
  const exportable = kinds.filter((k) => k.layout && k.toConfig);
  if (values.length === 0) return exportable;
  const names = new Set<string>();
  for (const value of values) {
    const child = kinds.find((k) => k.name === value && k.parentKind);
    if (child) throw new UsageError(`${child.noun[1]} come with their ${child.parentKind}`, `use --kind ${child.parentKind}`);
    if (!exportable.some((k) => k.name === value)) {
      const list = exportable.map((k) => k.name);
      throw new UsageError(`unknown kind \`${value}\`${didYouMean(value, list)}`, `kinds: ${list.join(', ')}`);
    }
    names.add(value);
  }
  return exportable.filter((k) => names.has(k.name));
}

/** What an export of `kinds` reads: the kinds, and the children their documents declare inline (a playbook's rules). */
export function exportReads(kinds: readonly AnyKind[], registry: readonly AnyKind[]): AnyKind[] {
  return [...kinds, ...registry.filter((k) => k.parentKind && kinds.some((p) => p.name === k.parentKind))];
}

/** A file-name-safe form of a name: lowercase, runs of anything but `a-z0-9` → `-`, trimmed. */
export function slug(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '') // é → e, so accented names keep their letters
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s === '' ? 'unnamed' : s;
}

/**
 * Assigns each item a unique slug. Items are taken in name order (ties by `tiebreak`, e.g. the live
 * id), so the same live state always gives the same names; the first keeps the plain slug and later
 * ones get `-2`, `-3`, …. Returns the items in that order with their slug.
 */
export function assignSlugs<T>(items: readonly T[], name: (item: T) => string, tiebreak: (item: T) => string = () => '', taken: (slug: string) => boolean = () => false): { item: T; slug: string }[] {
  const sorted = [...items].sort((a, b) => compareText(name(a), name(b)) || compareText(tiebreak(a), tiebreak(b)));
  const used = new Set<string>();
  return sorted.map((item) => {
    const base = slug(name(item));
    let candidate = base;
    for (let n = 2; used.has(candidate) || taken(candidate); n++) candidate = `${base}-${n}`;
    used.add(candidate);
    return { item, slug: candidate };
  });
}

/** Plain code-unit order: the same on every machine and locale (localeCompare is not). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** Names that occur more than once (docket identifies these kinds by name, so they cannot round-trip). */
export function duplicateNames(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const dup = new Set<string>();
  for (const n of names) (seen.has(n) ? dup : seen).add(n);
  return [...dup].sort(compareText);
}

/** One note per name several live objects of a kind share (`kinds`: plural, e.g. `custom terms`). */
export function duplicateNameNotes(kinds: string, names: readonly string[]): string[] {
  return duplicateNames(names).map(
    (dup) => `several ${kinds} are named "${dup}": docket identifies them by name, so plan will refuse them until all but one are renamed`,
  );
}
