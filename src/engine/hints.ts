/**
 * Likely mistakes a plan points out, as warnings. Pure.
 * - A declared object with no live match, while a live object of its kind that no file declares
 *   looks like it (a name that shows the same, the same content, the same rules, or a close
 *   name), was probably renamed in the file without `renamed_from`: the plan would create a second
 *   one (and, for a rule, delete the first).
 * - A value docket sends only when it creates an object (a member's display name) that differs
 *   live is not changed; without a word the plan would say "No changes".
 */
import { jsonQuoted, quoteValue } from '../config/quote.js';
import { literalPlaceholders } from '../config/interpolate.js';
import { suggest } from '../config/suggest.js';
import { digest, sameValue } from './canonical.js';
import { fieldHash, type SyncState } from './sync.js';
import type { KindMeta } from './diff.js';
import { refKey } from './types.js';
import { CREATE_ACTIONS } from './types.js';
import { alikeIn, formerSource, lookAlike, readsAsItself } from './desired.js';
import type { AdoptableFile, Change, DesiredResource, LiveResource } from './types.js';
import { addTo } from '../util/multi-map.js';
import { composed } from '../util/nfc.js';
import { isSetAside } from './race.js';

export interface HintInput {
  kinds: KindMeta[];
  desired: DesiredResource[];
  live: LiveResource[];
  changes: Change[];
  /** `kind:key` → live id, for what the diff matched. */
  ids: Record<string, string>;
  /**
   * What docket last saw in sync: a live object not read in detail (a custom term no file declares
   * holds only its name) is compared by the digests its record keeps.
   */
  sync?: Pick<SyncState, 'byId' | 'idOf' | 'byKey' | 'keysWithId'>;
}

/** Above this many live candidates in one scope, close names are not looked for (content still is). */
const MAX_NAME_CANDIDATES = 500;

export function planHints(input: HintInput): string[] {
  return [...renameHints(input), ...createOnlyHints(input), ...closeIdentityHints(input)];
}

/**
 * A new object of a kind whose identity never changes (a member's e-mail) whose identity is close
 * to a live one's no file claims: most likely a typo, and inviting it adds a stranger to the
 * organization at once (probe DB-3). Said, not refused: two people may have close addresses.
 */
function closeIdentityHints({ kinds, desired, live, changes, ids }: HintInput): string[] {
  const out: string[] = [];
  for (const kind of kinds) {
    if (!kind.identityFixed || kind.internal) continue;
    const made = changes.filter((c) => c.kind === kind.name && c.action === (kind.createAction ?? 'create'));
    if (made.length === 0) continue;
    const matched = new Set(desired.filter((d) => d.kind === kind.name).map((d) => ids[refKey(kind.name, d.key)]).filter(Boolean));
    const free = live.filter((l) => l.kind === kind.name && !matched.has(l.id)).map((l) => l.key);
    if (free.length === 0 || free.length > MAX_NAME_CANDIDATES) continue;
    for (const c of made) {
      const close = free.find((key) => oneTypoApart(c.key, key));
      if (close === undefined) continue;
      out.push(`${closeIdentityHintStart(c)}is close to the live ${kind.name} ${quoteValue(close)}, which no file declares: if it is a typo of it, fix the file, or the apply will ${kind.createAction ?? 'create'} ${quoteValue(c.key)}`);
    }
  }
  return out;
}

function closeIdentityHintStart(c: Pick<Change, 'kind' | 'key' | 'source'>): string {
  return `${c.kind} ${quoteValue(c.key)}${c.source ? ` (${c.source.file}:${c.source.line})` : ''} `;
}

/** Whether a warning is the close-identity hint of `c` (a plan cut to `--target`s leaves out those of changes it does not make, second read SR102-3). */
export function isCloseIdentityHintOf(warning: string, c: Pick<Change, 'kind' | 'key' | 'source'>): boolean {
  return warning.startsWith(`${closeIdentityHintStart(c)}is close to the live `);
}

/** Shorter than this, one letter apart is another name as often as a typo (`tom`, `tim`). */
const MIN_TYPO_LENGTH = 5;

/**
 * Two identities one typo apart: of e-mail addresses, one half the same (in any case) and the other
 * one letter added, dropped, changed or two swapped, at least MIN_TYPO_LENGTH long; not a prefix or
 * a word in common, which `suggest` offers for a reference (`legal@` for `legal-ops@`, second read SR102-2).
 */
export function oneTypoApart(a: string, b: string): boolean {
  const [x, y] = [a.toLowerCase(), b.toLowerCase()];
  if (x === y) return false;
  const split = (s: string): [string, string] => {
    const at = s.lastIndexOf('@');
    return at < 0 ? [s, ''] : [s.slice(0, at), s.slice(at)];
  };
  const [[xl, xd], [yl, yd]] = [split(x), split(y)];
  if (xl !== yl && xd !== yd) return false;
  const [p, q] = xl === yl ? [xd, yd] : [xl, yl];
  return Math.min(p.length, q.length) >= MIN_TYPO_LENGTH && oneEditApart(p, q);
}

/** One insertion, deletion, substitution or swap of neighbours (Damerau's one edit). */
function oneEditApart(p: string, q: string): boolean {
  if (Math.abs(p.length - q.length) > 1) return false;
  let i = 0;
  while (i < p.length && i < q.length && p[i] === q[i]) i++;
  if (p.length === q.length) {
    const swapped = p[i] === q[i + 1] && p[i + 1] === q[i] && p.slice(i + 2) === q.slice(i + 2);
    return swapped || p.slice(i + 1) === q.slice(i + 1);
  }
  return p.length > q.length ? p.slice(i + 1) === q.slice(i) : p.slice(i) === q.slice(i + 1);
}

/**
 * An upload a document pins with `id:` that docket.lock.json has no entry of (so docket cannot read
 * it), while a live object the files match names another upload where the files name it: the pin may
 * be of an upload replaced since (the lock that recorded the replacement lost), and adopting the
 * file would record it as the pinned one and point the object back at it (probe LP-1).
 */
export function pinHints(adoptable: readonly AdoptableFile[], desired: readonly DesiredResource[], live: readonly LiveResource[], ids: Record<string, string>): string[] {
  const pinned = new Map(adoptable.filter((a) => !a.valuesOnly).map((a) => [refKey(a.kind, a.key), a]));
  if (pinned.size === 0) return [];
  const liveById = new Map(live.map((l) => [l.id, l]));
  const pinnedLive = (a: AdoptableFile): LiveResource | undefined => liveById.get(a.liveId);
  const out: string[] = [];
  for (const d of desired) {
    const l = liveById.get(ids[refKey(d.kind, d.key)] ?? '');
    if (!l?.refIds) continue;
    // Once per object and upload: a template naming it in two parameters was said twice (probe MN-3).
    const said = new Set<string>();
    for (const ref of d.refs) {
      if (said.has(refKey(ref.kind, ref.key))) continue;
      const a = pinned.get(refKey(ref.kind, ref.key));
      const held = a ? l.refIds[ref.field] : undefined;
      // Of a list (a template's attachments), not the ids of the others it names, as the files do
      // (probe OC-3), nor the uploads docket.lock.json says theirs replaced (probe QC-1).
      const namedBeside = new Set(
        d.refs
          .filter((r) => r !== ref && r.field === ref.field)
          .flatMap((r) => {
            const id = ids[refKey(r.kind, r.key)];
            const earlier = id === undefined ? undefined : liveById.get(id)?.extra?.earlier;
            return [id?.toLowerCase(), ...(Array.isArray(earlier) ? earlier.filter((e): e is string => typeof e === 'string') : [])];
          }),
      );
      const other = (typeof held === 'string' ? [held] : Array.isArray(held) ? held.filter((x): x is string => typeof x === 'string') : []).filter((id) => !namedBeside.has(id.toLowerCase()));
      if (!a || other.length === 0 || other.some((id) => id.toLowerCase() === a.liveId.toLowerCase())) continue;
      // Uploads docket.lock.json says came before the pin: the pin is the later one, which apply points to.
      const earlier = pinnedLive(a)?.extra?.earlier;
      if (Array.isArray(earlier) && other.every((id) => earlier.includes(id.toLowerCase()))) continue;
      const names = other.length === 1 ? `upload ${other[0]!}` : `uploads ${other.join(', ')}`;
      said.add(refKey(ref.kind, ref.key));
      out.push(
        `${d.kind} ${quoteValue(d.key, 200)} names ${names} where the files name ${ref.kind} ${quoteValue(ref.key, 200)}, which pins \`id: ${a.liveId}\` and docket.lock.json records no upload of: if that is a later upload of ${a.file} (the lock that recorded it is lost), pin it instead before \`docket apply --adopt-files\`; as written, apply points ${d.kind} ${quoteValue(d.key, 200)} back at ${a.liveId}`,
      );
    }
  }
  return out;
}

function renameHints({ kinds, desired, live, changes, ids, sync }: HintInput): string[] {
  const out: string[] = [];
  // Not what was removed live since the last sync: docket knows it, so creating it again is no
  // rename. Unless the object its record names is live still, under a name another document
  // declares (a record edited by hand onto another's id, probe KY-1): then a look-alike no file
  // declares may be the object itself, renamed in the app.
  let liveIds: Set<string> | undefined;
  const recordedLive = (c: Change): boolean => {
    const id = sync?.idOf(refKey(c.kind, c.key));
    return id !== undefined && (liveIds ??= new Set(live.map((l) => l.id))).has(id);
  };
  const created = new Set(changes.filter((c) => CREATE_ACTIONS.includes(c.action) && (c.direction !== 'removed-live' || recordedLive(c))).map((c) => refKey(c.kind, c.key)));
  // Nothing created, nothing that could be a rename: the indexes below cover every declared and live object.
  if (created.size === 0) return out;
  const childKindOf = new Map(kinds.filter((k) => k.parentKind).map((k) => [k.parentKind!, k.name]));
  // What `--prune` archives in this plan: the rename's "beside it" is then no longer so.
  const archived = new Set(changes.filter((c) => c.action === 'archive').map((c) => c.liveId));
  const desiredChildren = groupBy(desired.filter((d) => d.parent), (d) => refKey(d.parent!.kind, d.parent!.key));
  const liveChildren = groupBy(live.filter((l) => l.parentId), (l) => `${l.kind}@${l.parentId!}`);
  let childrenByParent: Map<string, string[]> | undefined;

  for (const kind of kinds) {
    if (!kind.nameField || kind.internal || kind.singleton) continue;
    const mine = desired.filter((d) => d.kind === kind.name);
    const fresh = mine.filter((d) => created.has(refKey(kind.name, d.key)));
    if (fresh.length === 0) continue;
    const matched = new Set(mine.map((d) => ids[refKey(kind.name, d.key)]).filter(Boolean));
    // Names another document lists in its renamed_from: that one's to claim, not a look-alike to offer (probe LS-5).
    const claimed = new Set(mine.flatMap((d) => d.renamedFrom.map((old) => `${d.parent ? (ids[refKey(d.parent.kind, d.parent.key)] ?? '?') : ''}\u0000${old}`)));
    const childKind = childKindOf.get(kind.name);
    // Live objects no file claims, by scope (a rule's playbook), with their content and children digests.
    const scopes = new Map<string, Candidates>();
    for (const l of live) {
      // A copy docket renamed aside after a race is no one's to adopt, as drift and pull leave it (probe KY-5).
      if (l.kind !== kind.name || matched.has(l.id) || isSetAside(l) || claimed.has(`${l.parentId ?? ''}\u0000${l.name}`)) continue;
      const scope = l.parentId ?? '';
      let c = scopes.get(scope);
      if (!c) scopes.set(scope, (c = { all: [], byContent: new Map(), byRecorded: new Map(), byChildren: new Map(), byRecordedChildren: new Map(), records: sync?.byId }));
      c.all.push(l);
      if (childKind) {
        const children = (liveChildren.get(`${childKind}@${l.id}`) ?? []).map((x) => x.name);
        if (children.length > 0) addTo(c.byChildren, digest([...children].sort()), l);
        // Children not read (a playbook no file declares, without --prune): those its records name (probe LO-1).
        else if (sync) {
          const recorded = recordedChildren(sync, (childrenByParent ??= recordedChildKeys(sync, childKind, kind.name)), kind.name, l.id);
          if (recorded.length > 0) addTo(c.byRecordedChildren, digest([...recorded].sort()), l);
        }
      }
    }
    const taken = new Set<string>();
    const sorts: ReadonlySet<string> = new Set(kind.sortFields);
    for (const d of fresh) {
      const scope = d.parent ? ids[refKey(d.parent.kind, d.parent.key)] : '';
      // A rule of a playbook that does not exist live yet cannot be a rename.
      if (scope === undefined) continue;
      const candidates = scopes.get(scope);
      if (!candidates) continue;
      const found = lookLike(d, kind, sorts, candidates, taken, childKind ? (desiredChildren.get(refKey(kind.name, d.key)) ?? []).map((x) => x.name) : [], childKind ?? 'child');
      if (!found) continue;
      taken.add(found.live.id);
      const unmatched = d.renamedFrom.filter((old) => !live.some((l) => l.kind === kind.name && (l.parentId ?? '') === scope && l.name === old));
      // The file's name holds the odd characters (a Cyrillic letter typed in): retyping it keeps the
      // live object; renamed_from would rename it to the look-alike (probe KQ-3).
      const retype = found.shown === true && !readsAsItself(d.name);
      out.push(renameSentence(kind, d, found.live, found.why, archived.has(found.live.id), unmatched, retype));
    }
  }
  return out;
}

interface Candidates {
  all: LiveResource[];
  /** Per set of compared fields (what the declared objects hold): content digest → live objects. */
  byContent: Map<string, Map<string, LiveResource[]>>;
  /** The same, by the digests the sync records keep, for live objects read without those fields. */
  byRecorded: Map<string, Map<string, LiveResource[]>>;
  byChildren: Map<string, LiveResource[]>;
  /** The same, of live objects whose children were not read, by the children their records name. */
  byRecordedChildren: Map<string, LiveResource[]>;
  /** Live objects by their names as they show (lookAlike), built when first asked for. */
  byShown?: Map<string, LiveResource[]>;
  /** Live objects by nameSkeleton, built when first asked for (only past MAX_NAME_CANDIDATES). */
  bySkeleton?: SkeletonIndex;
  records: SyncState['byId'] | undefined;
}

/** Live objects by the digest of the fields a declared object holds (built once per set of fields). */
function contentIndex(c: Candidates, fields: readonly string[]): Map<string, LiveResource[]> {
  const signature = fields.join('\n');
  let index = c.byContent.get(signature);
  if (!index) {
    index = new Map();
    for (const l of c.all) addTo(index, contentDigest(l.fields, fields), l);
    c.byContent.set(signature, index);
  }
  return index;
}

/**
 * Live objects read without some of these fields (not declared, so not read in detail), by the
 * digests their sync records keep of them: `fieldHash` of each, as recordOf wrote them.
 */
function recordedIndex(c: Candidates, fields: readonly string[]): Map<string, LiveResource[]> {
  const signature = fields.join('\n');
  let index = c.byRecorded.get(signature);
  if (!index) {
    index = new Map();
    for (const l of c.all) {
      if (fields.every((f) => f in l.fields)) continue;
      const recorded = c.records?.get(l.id)?.fields;
      if (recorded && fields.every((f) => f in recorded)) addTo(index, fields.map((f) => recorded[f]).join(' '), l);
    }
    c.byRecorded.set(signature, index);
  }
  return index;
}

function lookLike(d: DesiredResource, kind: KindMeta, sorts: ReadonlySet<string>, c: Candidates, taken: ReadonlySet<string>, children: string[], childNoun: string): { live: LiveResource; why: string; shown?: true } | undefined {
  const free = (list: LiveResource[] | undefined) => list?.find((l) => !taken.has(l.id));
  // A name that shows as the live one does is said first: else the plan seems to create what exists (probe IY-2).
  const shown = free((c.byShown ??= shownIndex(c.all)).get(lookAlike(d.name)));
  if (shown) return { live: shown, why: `a name that shows the same: they differ only in ${alikeIn(d.name, shown.name)}`, shown: true };
  // References are left out: what they name may be renamed in the same change (a term and its template).
  const refs = new Set(d.refs.map((r) => r.field));
  const fields = contentFields(d.fields, kind).filter((f) => !refs.has(f));
  // Flags and numbers alone (`generate_summary: true`, `term: 2`) say nothing about being another
  // object, nor does what sort it is (a template's type, `sorts`): some text or structure must be alike.
  const telling = fields.some((k) => typeof d.fields[k] !== 'boolean' && typeof d.fields[k] !== 'number' && !sorts.has(k));
  // Of several with the same content, the one of the closest name (probe KD-5).
  const content = telling ? closestNamed(d.name, contentIndex(c, fields).get(contentDigest(d.fields, fields))?.filter((l) => !taken.has(l.id))) : undefined;
  if (content) return { live: content, why: 'the same content' };
  const recorded = telling && c.records ? free(recordedIndex(c, fields).get(fields.map((f) => fieldHash(d.fields[f])).join(' '))) : undefined;
  if (recorded) return { live: recorded, why: 'the same content when docket last synced it' };
  // Of several with the same rules, the one of the closest name, as of the same content: the first
  // free one paired each renamed playbook with another's live one (probe OA-1).
  const freeAmong = (list: LiveResource[] | undefined) => closestNamed(d.name, list?.filter((l) => !taken.has(l.id)));
  const siblings = children.length > 0 ? freeAmong(c.byChildren.get(digest([...children].sort()))) : undefined;
  // Said as the README lists the reasons: "the same rules" (probe KV-3).
  if (siblings) return { live: siblings, why: `the same ${childNoun}${children.length === 1 ? '' : 's'}` };
  const recordedSiblings = children.length > 0 ? freeAmong(c.byRecordedChildren.get(digest([...children].sort()))) : undefined;
  if (recordedSiblings) return { live: recordedSiblings, why: `the same ${childNoun}${children.length === 1 ? '' : 's'} when docket last synced it` };
  // Past that many, by an index: a name alike but for letter case, spaces and punctuation, or one
  // letter more, less or other (a mass rename of a prefix's separator, `CON` to `CONN`); comparing
  // every name with every other took seconds, so none was looked for (probe KG-1).
  if (c.all.length > MAX_NAME_CANDIDATES) {
    const alike = closeBySkeleton((c.bySkeleton ??= skeletonIndex(c.all)), nameSkeleton(d.name), free);
    return alike ? { live: alike, why: 'a close name' } : undefined;
  }
  const names = c.all.filter((l) => !taken.has(l.id)).map((l) => l.name);
  const close = suggest(d.name, names);
  const byName = close === undefined ? undefined : c.all.find((l) => l.name === close && !taken.has(l.id));
  return byName ? { live: byName, why: 'a close name' } : undefined;
}

/** A name in lower case with only its letters and digits: `Multi 0001` and `multi-0001` are one. */
function nameSkeleton(name: string): string {
  return name.normalize('NFC').toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
}

interface SkeletonIndex {
  /** Skeleton → live objects. */
  exact: Map<string, LiveResource[]>;
  /** Each skeleton with one of its letters taken out → live objects: a name one letter shorter finds them. */
  lessOne?: Map<string, LiveResource[]>;
  /** The same, keyed with where the letter was taken out: a name with one letter other finds them. */
  lessOneAt?: Map<string, LiveResource[]>;
}

/** Skeletons longer than this are found only as they are: their one-letter-less forms would cost memory for little. */
const LONGEST_EDITED_SKELETON = 48;

/** Past this many candidates, only skeletons alike are looked for: the one-edit index would cost seconds and hundreds of MB. */
const MAX_EDITED_CANDIDATES = 5000;

function skeletonIndex(all: readonly LiveResource[]): SkeletonIndex {
  const edits = all.length <= MAX_EDITED_CANDIDATES;
  const index: SkeletonIndex = { exact: new Map(), ...(edits ? { lessOne: new Map(), lessOneAt: new Map() } : {}) };
  for (const l of all) {
    const skeleton = nameSkeleton(l.name);
    if (skeleton === '') continue;
    addTo(index.exact, skeleton, l);
    if (!edits || skeleton.length > LONGEST_EDITED_SKELETON) continue;
    lessOneLetter(skeleton, (less, at) => {
      addTo(index.lessOne!, less, l);
      addTo(index.lessOneAt!, `${at}\u0000${less}`, l);
    });
  }
  return index;
}

/** Calls `each` with the text less each one of its letters, and where that letter was (its code unit offset). */
function lessOneLetter(text: string, each: (less: string, at: number) => void): void {
  for (let i = 0; i < text.length; ) {
    const width = (text.codePointAt(i) ?? 0) > 0xffff ? 2 : 1;
    each(text.slice(0, i) + text.slice(i + width), i);
    i += width;
  }
}

/**
 * A live object whose skeleton is `wanted`'s or one edit from it (a letter more, less or other, in
 * the same place), as suggest() takes one edit: not for names of fewer than three letters.
 */
function closeBySkeleton(index: SkeletonIndex, wanted: string, free: (list: LiveResource[] | undefined) => LiveResource | undefined): LiveResource | undefined {
  if (wanted === '') return undefined;
  const same = free(index.exact.get(wanted));
  if (same || !index.lessOne || !index.lessOneAt || wanted.length > LONGEST_EDITED_SKELETON) return same;
  // The live name a letter longer (`CONN` live for `CON` in the files): the wanted name is one of its less-one forms.
  const longer = wanted.length >= 2 ? free(index.lessOne.get(wanted)) : undefined;
  if (longer || wanted.length < 3) return longer;
  let found: LiveResource | undefined;
  lessOneLetter(wanted, (less, at) => {
    // A letter less live, or a letter other at the same place.
    found ??= free(index.exact.get(less)) ?? free(index.lessOneAt!.get(`${at}\u0000${less}`));
  });
  return found;
}

/** How many live objects of one content the rename warning compares names among. */
const CLOSEST_AMONG = 20;

/**
 * The first of `list`, or of several the one whose name is closest to `name`: first one alike but
 * for letter case, spaces and punctuation (`PB 12` for `PB-12`), then, among a few, the nearest.
 */
function closestNamed(name: string, list: readonly LiveResource[] | undefined): LiveResource | undefined {
  if (!list || list.length < 2) return list?.[0];
  const wanted = nameSkeleton(name);
  const alike = list.find((l) => skeletonOf(l) === wanted);
  if (alike) return alike;
  // Among a few only: thousands of objects of one content, each compared with every new one, took seconds (second read RV9-1).
  if (list.length > CLOSEST_AMONG) return list[0];
  const close = suggest(name, list.map((l) => l.name));
  return list.find((l) => l.name === close) ?? list[0];
}

/** Each live object's name skeleton, made once: a rename of hundreds compares each new name with each candidate. */
const skeletons = new WeakMap<LiveResource, string>();
function skeletonOf(l: LiveResource): string {
  let skeleton = skeletons.get(l);
  if (skeleton === undefined) skeletons.set(l, (skeleton = nameSkeleton(l.name)));
  return skeleton;
}

function shownIndex(all: readonly LiveResource[]): Map<string, LiveResource[]> {
  const index = new Map<string, LiveResource[]>();
  for (const l of all) addTo(index, lookAlike(l.name), l);
  return index;
}

/**
 * The names of the records of one child kind, by the key of their parent as the child's key begins
 * (`rule:NDA/Law` under `playbook:NDA`): built once, when a live parent's children were not read.
 */
function recordedChildKeys(sync: Pick<SyncState, 'byKey' | 'idOf'>, childKind: string, parentKind: string): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const prefix = `${childKind}:`;
  for (const key of sync.byKey.keys()) {
    if (!key.startsWith(prefix)) continue;
    // A parent's name may hold a `/` too: the child goes under the longest recorded parent its key
    // begins with (`rule:G/H/R2` under `G/H`, not as `H/R2` under `G`: second read SR75-3).
    let parentEnd = -1;
    for (let at = key.indexOf('/'); at !== -1; at = key.indexOf('/', at + 1)) if (sync.idOf(`${parentKind}:${key.slice(prefix.length, at)}`) !== undefined) parentEnd = at;
    if (parentEnd !== -1) addTo(out, key.slice(prefix.length, parentEnd), key.slice(parentEnd + 1));
  }
  return out;
}

/** The names of the children the sync records hold under the live parent with this id. */
function recordedChildren(sync: Pick<SyncState, 'keysWithId'>, byParent: Map<string, string[]>, parentKind: string, parentId: string): string[] {
  const recordedAs = sync.keysWithId(parentId).find((k) => k.startsWith(`${parentKind}:`));
  return recordedAs === undefined ? [] : (byParent.get(recordedAs.slice(parentKind.length + 1)) ?? []);
}

/** The fields that make two objects "the same" whatever they are called: every one set but the name. */
function contentFields(fields: Record<string, unknown>, kind: KindMeta): string[] {
  return Object.keys(fields)
    .filter((k) => k !== kind.nameField && fields[k] !== null && fields[k] !== undefined && fields[k] !== '' && fields[k] !== false)
    .sort();
}

function contentDigest(values: Record<string, unknown>, fields: readonly string[]): string {
  return digest(fields.map((k) => values[k] ?? null));
}

/**
 * Whether `warning` is the rename hint of the declared `kind` object `name` at `source` (rules of
 * one name in two playbooks are told apart by where they are written): a plan cut to `--target`s
 * drops those of creates it no longer makes.
 */
export function isRenameHintOf(warning: string, c: { kind: string; name: string; source?: { file: string; line: number } }): boolean {
  const where = c.source ? `${c.source.file}:${c.source.line}${RENAME_HINT_MARK}` : RENAME_HINT_MARK;
  return warning.startsWith(`${c.kind} ${quoteValue(c.name, Infinity)} (`) && warning.includes(where);
}

export const RENAME_HINT_MARK = ') looks like a rename of the live ';

/** A rename hint as it reads when the plan (cut to `--target`s) no longer archives or deletes the live `removed`. */
export function withoutRemovalOf(warning: string, removed: { kind: string; name: string; action: string }): string {
  const said = removalSaid(warning, removed);
  if (!said) return warning;
  return `${warning.slice(0, said.at)}but the plan creates ${said.created} beside it${warning.slice(said.end)}`;
}

/**
 * A rename hint as it reads when the plan (cut to `--target`s) no longer makes the create it names
 * but still removes the live `removed` it looks like: that a plan of the targets deletes a rule the
 * files seem to have renamed is what its reader must see (probe BG-2). Undefined when the hint says
 * no such removal: it is no longer this plan's.
 */
export function withoutCreateOf(warning: string, removed: { kind: string; name: string; action: string }): string | undefined {
  const said = removalSaid(warning, removed);
  if (!said) return undefined;
  return `${warning.slice(0, said.at)}but the plan ${removed.action === 'archive' ? 'archives' : 'deletes'} ${quoteValue(removed.name, Infinity)} (creating ${said.created} is outside its targets)${warning.slice(said.end)}`;
}

/** Where a rename hint says `but the plan archives|deletes <was> and creates <now>`, and `<now>`. */
function removalSaid(warning: string, removed: { kind: string; name: string; action: string }): { at: number; end: number; created: string } | undefined {
  const was = quoteValue(removed.name, Infinity);
  if (!warning.includes(`${RENAME_HINT_MARK}${removed.kind} ${was} (`)) return undefined;
  const start = `but the plan ${removed.action === 'archive' ? 'archives' : 'deletes'} ${was} and creates `;
  const at = warning.indexOf(start);
  // Past the name it creates, which may itself hold `: to keep` (second read SR73-9): as the warning starts.
  const created = warning.slice(0, warning.indexOf(' (')).slice(removed.kind.length + 1);
  const from = at < 0 ? -1 : warning.startsWith(`${removed.kind} ${created}`) && warning.startsWith(created, at + start.length) ? at + start.length + created.length : at;
  const end = from < 0 ? -1 : [RENAME_HINT_END, RETYPE_HINT_END].map((e) => warning.indexOf(e, from)).filter((i) => i >= 0).sort((a, b) => a - b)[0] ?? -1;
  if (end < 0) return undefined;
  return { at, end, created: warning.slice(at + start.length, end) };
}

const RENAME_HINT_END = ': if it was renamed, add';
const RETYPE_HINT_END = ': to keep';

/**
 * `unmatched`: the names of the object's own `renamed_from` that no live object bears, said (with
 * where they are written) so a misspelt former name is not read as a missing one (probe IK-3).
 */
function renameSentence(kind: KindMeta, d: DesiredResource, l: LiveResource, why: string, archived: boolean, unmatched: readonly string[], retype: boolean): string {
  const where = `${d.source.file}:${d.source.line}`;
  // Names quoted with what shows as nothing escaped: the difference may be exactly such a character.
  const [was, now] = [quoteValue(l.name, Infinity), quoteValue(d.name, Infinity)];
  const then =
    kind.deletion === 'delete' ? `the plan deletes ${was} and creates ${now}` : archived ? `the plan archives ${was} and creates ${now}` : kind.deletion === 'none' ? `the plan creates ${now} beside it, and a ${kind.name} cannot be deleted over the API` : `the plan creates ${now} beside it`;
  // A former name a file cannot hold (a line end the app gave it): the live object is named by its id instead (second read SR85B-2).
  const pin = LINE_END.test(l.name) ? `\`id: ${l.id}\` (a \`renamed_from\` cannot hold a line end)` : undefined;
  const add = pin ?? (unmatched.length === 0 ? `\`renamed_from: [${yamlName(l.name)}]\`` : `${was} to its \`renamed_from\` (${formerWhere(d)}), whose ${unmatched.map((n) => quoteValue(n, Infinity)).join(', ')} ${unmatched.length === 1 ? 'names' : 'name'} no live ${kind.name}`);
  const advice = retype ? `${RETYPE_HINT_END} ${was} as it is, retype the name in the file; only if it is to be renamed to the look-alike, add ${add}` : `${RENAME_HINT_END} ${add}`;
  return `${kind.name} ${now} (${where}${RENAME_HINT_MARK}${kind.name} ${was} (${why}), but ${then}${advice}`;
}

const LINE_END = /[\r\n]/;

function formerWhere(d: DesiredResource): string {
  const at = formerSource(d, 0) ?? d.source;
  return `${at.file}:${at.line}`;
}

/** A name as it can be written inside `[...]` in YAML: plain when safe, else double-quoted (YAML reads its `\u` escapes). */
function yamlName(name: string): string {
  // The files read `${` as a placeholder: a live name holding it is written `$${` (probe HY-3).
  if (/^[A-Za-z0-9][A-Za-z0-9 ._'()/-]*$/.test(name) && !/\s$/.test(name)) return name;
  // `##[`, which every printed line breaks up (`# #[`, a runner's old command form), as the escape
  // YAML reads back as `#`: pasted, the suggestion still names the live object (probe JC-4).
  return quoteValue(literalPlaceholders(name), Infinity).replace(/##\[/g, '#\\u0023[');
}

function createOnlyHints({ kinds, desired, live, ids }: HintInput): string[] {
  const out: string[] = [];
  // Indexed when a declared object first has such a value (members): not for 20,000 rules.
  let byId: Map<string, LiveResource> | undefined;
  const liveAt = (kind: string, id: string): LiveResource | undefined => (byId ??= new Map(live.map((l) => [`${l.kind}@${l.id}`, l]))).get(`${kind}@${id}`);
  // Matched by name with no id the service gives (a member known only by an invitation naming no user, probe NW-2).
  let idUnknownAt: Map<string, LiveResource> | undefined;
  const unidentified = (kindKey: string): LiveResource | undefined => (idUnknownAt ??= new Map(live.filter((l) => l.idUnknown).map((l) => [refKey(l.kind, l.key), l]))).get(kindKey);
  const verbOf = new Map(kinds.map((k) => [k.name, `${k.createAction ?? 'create'}s`]));
  for (const d of desired) {
    if (!d.createOnly) continue;
    const id = ids[refKey(d.kind, d.key)];
    const l = id === undefined ? unidentified(refKey(d.kind, d.key)) : liveAt(d.kind, id);
    if (!l?.extra) continue;
    for (const [field, wanted] of Object.entries(d.createOnly)) {
      const now = l.extra[field];
      // The files' text is read composed (NFC); the service may hold the same name decomposed (probe BB-1).
      if (now === undefined || wanted === null || wanted === undefined || sameValue(typeof now === 'string' ? composed(now) : now, wanted)) continue;
      out.push(
        `${createOnlyHintStart(d)}\`${field}\`${CREATE_ONLY_MARK}${verbOf.get(d.kind) ?? 'creates'} it, and is not managed for an existing one: ${now === null || now === '' ? 'it has none live' : `it stays ${jsonQuoted(now)} live`} (the file says ${jsonQuoted(wanted)})`,
      );
    }
  }
  return out;
}

const CREATE_ONLY_MARK = ' is set only when docket ';

function createOnlyHintStart(d: Pick<DesiredResource, 'kind' | 'key' | 'source'>): string {
  return `${d.kind} ${quoteValue(d.key, 200)} (${d.source.file}:${d.source.line}): `;
}

/** Whether a warning is the create-only hint of `d` (a plan cut to `--target`s leaves out those of objects it does not name). */
export function isCreateOnlyHintOf(warning: string, d: Pick<DesiredResource, 'kind' | 'key' | 'source'>): boolean {
  return warning.startsWith(createOnlyHintStart(d)) && warning.includes(CREATE_ONLY_MARK);
}

function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const out = new Map<string, T[]>();
  for (const item of items) addTo(out, key(item), item);
  return out;
}
