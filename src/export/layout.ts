/**
 * Where `docket export` puts things: which kinds it exports (their modules say where), and
 * deterministic file names (a slug of the name; collisions get `-2`, `-3`, … in name order).
 */
import { spelledKind } from '../kinds/spelled-kind.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';
import { quoteValue } from '../config/quote.js';
import type { ServiceName } from '../api/types.js';
import { didYouMean } from '../config/suggest.js';
import { showName } from '../config/quote.js';
import type { ProjectConfig } from '../config/types.js';
import { escapePointer } from '../config/yaml-positions.js';
import { UsageError } from '../errors.js';
import type { AnyKind } from '../kinds/index.js';

const SERVICES: readonly ServiceName[] = ['review', 'agreements'];

/**
 * The services a configuration names: a `review:` or `agreements:` section (docket.yaml, the
 * selected environment's) or a DOCKET_* variable that sets one. One that names neither means both
 * (the default URLs), so a bare `version: 1` still exports everything.
 */
export function namedServices(project: ProjectConfig): Set<ServiceName> {
  const written = (s: ServiceName): boolean =>
    Object.keys(project[s]).length > 0 ||
    Boolean(project.positions?.has(`/${s}`)) ||
    Boolean(project.environment !== undefined && project.positions?.has(`/environments/${escapePointer(project.environment)}/${s}`));
  const named = SERVICES.filter(written);
  return new Set(named.length > 0 ? named : SERVICES);
}

/**
 * `--kind` values → the kinds to export. None given: every kind with a layout that lives on one of
 * `services` (a kind on both services is exported with the parts those hold). Unknown names are a
 * usage error with a suggestion.
 */
export function exportKinds(values: readonly string[], kinds: readonly AnyKind[], services: ReadonlySet<ServiceName> = new Set(SERVICES)): AnyKind[] {
  const exportable = kinds.filter((k) => k.layout && k.toConfig);
  if (values.length === 0) return exportable.filter((k) => k.service === 'both' || services.has(k.service));
  const names = new Set<string>();
  for (const value of values) {
    if (value.trim() === '') throw new UsageError(`--kind needs a kind (got ${quoteValue(value)})`, `kinds: ${exportable.map((k) => k.name).join(', ')}`);
    const kind = spelledKind(value, kinds);
    if (kind?.parentKind) throw new UsageError(`${kind.noun[1]} come with their ${kind.parentKind}`, `use --kind ${kind.parentKind}`);
    if (!kind || !exportable.includes(kind)) {
      const list = exportable.map((k) => k.name);
      throw new UsageError(`unknown kind ${showName(value)}${didYouMean(value, list)}`, `kinds: ${list.join(', ')}`);
    }
    names.add(kind.name);
  }
  return exportable.filter((k) => names.has(k.name));
}

/** What an export of `kinds` reads: the kinds, and the children their documents declare inline (a playbook's rules). */
export function exportReads(kinds: readonly AnyKind[], registry: readonly AnyKind[]): AnyKind[] {
  return [...kinds, ...registry.filter((k) => k.parentKind && kinds.some((p) => p.name === k.parentKind))];
}

/** Longest slug, in UTF-8 bytes: `<slug>-NN.yaml.pending` stays far below the 255 bytes file systems allow. */
export const SLUG_MAX_BYTES = 100;

/** Names Windows reserves for devices, with any extension (`con.yaml`). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9\u00b9\u00b2\u00b3]|lpt[0-9\u00b9\u00b2\u00b3])$/;

/** docket's own file names (`docket.yaml`): a playbook named "Docket" in them would be read as the project file from its folder (probe KX-10). */
const DOCKET_OWN = /^docket$/;

/**
 * A file-name-safe form of a name, the same on every file system: NFC, lower case, letters and
 * digits of any script kept (with their combining marks: Devanagari, Arabic vowels; not the marks
 * that dress a symbol, such as an emoji's invisible selector), every run of
 * anything else (spaces, punctuation, the characters Windows reserves, symbols) → `-`, trimmed, so
 * no trailing dot or space. Cut at a whole character to SLUG_MAX_BYTES; a Windows device name gets
 * a `_` (`con_`), and so does `docket` (`docket_`). Empty → `unnamed`.
 */
export function slug(name: string): string {
  // A URL in a name gives its host and path, never its password or query (file names are shown and committed).
  let s = caseBlind(lineWithoutSecrets(name))
    // Marks that only dress a symbol or a digit (the invisible emoji selector U+FE0F, a keycap's
    // enclosing square) are no part of a letter: kept, they would end a name after its `-`.
    .replace(/[\uFE00-\uFE0F\u{E0100}-\u{E01EF}\p{Me}]+/gu, '')
    .replace(/(^|[^\p{L}\p{M}\p{N}])\p{M}+/gu, '$1')
    .replace(/[^\p{L}\p{M}\p{N}]+/gu, '-')
    .replace(/^[-\p{M}]+|-+$/gu, '');
  if (Buffer.byteLength(s) > SLUG_MAX_BYTES) s = truncate(s, SLUG_MAX_BYTES).replace(/-+$/, '');
  if (s === '') return 'unnamed';
  return WINDOWS_DEVICE.test(s) || DOCKET_OWN.test(s) ? `${s}_` : s;
}

/** `letter` as the lower case of its upper case, when that is one letter (ς → σ, ſ → s, ı → i). */
/**
 * A file name as a case-blind file system (macOS, Windows) compares it: composed, lower case, and
 * a lower-case letter it takes for another (ς and σ are both Σ there, probe OF-4; ı and i are
 * both I) in the other's form, so two names that differ only so get `-2`, not one file.
 */
export function caseBlind(name: string): string {
  return name
    .normalize('NFC')
    .toLowerCase()
    .replace(/\p{Ll}/gu, foldedLetter)
    .normalize('NFC'); // lower-casing may decompose (İ → i̇)
}

function foldedLetter(letter: string): string {
  const upper = letter.toUpperCase();
  return upper.length === letter.length && upper !== letter ? upper.toLowerCase() : letter;
}

/** The longest prefix of whole characters (a letter with its marks) within `max` UTF-8 bytes. */
function truncate(text: string, max: number): string {
  let out = '';
  for (const { segment } of new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(text)) {
    if (Buffer.byteLength(out + segment) > max) break;
    out += segment;
  }
  return out;
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
    (dup) => `several ${kinds} are named ${quoteValue(dup, 200)}: docket identifies them by name, so plan will refuse them until all but one are renamed`,
  );
}
