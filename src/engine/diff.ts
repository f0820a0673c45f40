/**
 * Diff: matches desired resources to live objects (by pinned id, then identity, then
 * `renamed_from`), compares their normalised fields, and emits one Change per action. Pure.
 */
import { quoteValue } from '../config/quote.js';
import { Diagnostics } from '../diagnostics.js';
import { sayUnlessUnsent, type UnsentHold } from './unsent.js';
import { problemSourceOf } from '../kinds/support/positions.js';
import { alikeIn, formerSource, lookAlike } from './desired.js';
import { digest, sameValue } from './canonical.js';
import { isPlainObject } from '../util/plain.js';
import { formerKey, formerKeys, leavesLiveEdits, refKey } from './types.js';
import { declaredAt, removalDeclaredAt } from './change-source.js';
import type { Action, AdoptableFile, Change, DesiredResource, FieldChange, Fields, KindName, LiveResource, UndeclaredSummary } from './types.js';

/** What diff needs to know about a kind; KindModule satisfies it. */
export interface KindMeta {
  name: KindName;
  /** The `kind:` its documents write, where it has documents of its own (a rule has none). */
  yamlKind?: string;
  deletion: 'never' | 'none' | 'archive' | 'delete';
  /** The actions the kind can execute (checked when the plan is built). */
  actions?: readonly Action[];
  /** Its objects cannot be listed (attachments): docket knows them only from docket.lock.json. */
  uploadsUnreadable?: true;
  /** Fields compared by digest and never shown or saved in a plan. */
  sensitiveFields?: readonly string[];
  singleton?: boolean;
  pruneKey?: string;
  parentKind?: KindName;
  /** The parent's field that lists its children (`rules`). */
  parentField?: string;
  versionedFields?: string[];
  /** How many versions a publish of these fields makes, where the service takes them in several calls (a definition and its terms link). */
  versionsOf?(fields: readonly string[]): number;
  nameField?: string;
  createAction?: 'create' | 'invite' | 'upload';
  /** The action for changed non-versioned fields: `update`, or `upload` for kinds replaced whole. */
  changeAction?: Action;
  /** Read-only kinds docket never declares (agreements users): no changes, never counted as undeclared. */
  internal?: boolean;
  /**
   * Fields that say what sort of object it is, not which one (a template's type): two objects
   * alike in these alone are not "the same content" when the plan looks for a rename (hints.ts).
   */
  sortFields?: readonly string[];
  /**
   * Whether a field's live and desired values are the same, for fields compared in a way of their
   * own (custom template definitions: as parsed YAML); undefined leaves it to the normalised equality.
   */
  sameField?(field: string, live: unknown, desired: unknown): boolean | undefined;
  /**
   * Live values an update of `updated` must send again unchanged (the undeclared keys of a nested
   * object the service may replace whole), as the change's `resend`; undefined when none.
   */
  resend?(updated: readonly string[], d: DesiredResource, l: LiveResource): Record<string, unknown> | undefined;
  /** A readable account of a structured field's change (template definitions). */
  describeField?(field: string, before: unknown, after: unknown): string[] | undefined;
  /** Its identity never changes once it exists (a member's e-mail): a plan never renames one, and nothing should follow such a rename. */
  identityFixed?: true;
  /** The value as the files write it and apply sends it, where that may differ from the compared one (template parameters). */
  sentValue?(field: string, d: DesiredResource): unknown;
  /** Whether a create sends the field: one compared with the service's default but not written (a rule's `generate_summary`) is not shown on it. */
  sentOnCreate?(field: string, d: DesiredResource): boolean;
  /** Fields holding a file digest → the payload key holding that file's path (for `--adopt-files`). */
  fileFields?: Record<string, string>;
  /**
   * A change the service cannot make (a template's type, clearing a setting it only accepts set):
   * its message becomes a plan error at the field's line, so apply never tries it.
   */
  /** `at`: the field the problem is at, where it is not the one refused (a member's `id:`, for its e-mail). */
  refuseChange?(field: string, before: unknown, after: unknown, name: string): { message: string; hint?: string; at?: string } | undefined;
  /**
   * A value a create or update would send that the target cannot take (a template naming an
   * attachment id this organization does not know): a plan error at the field's line, before any
   * write, instead of an apply that fails the same way every time. `live`: every object read;
   * `adopting`: the live ids (lower case) `apply --adopt-files` records in this run.
   */
  refuseSend?(field: string, value: unknown, name: string, live: readonly LiveResource[], adopting: ReadonlySet<string>, d: DesiredResource): { message: string; hint?: string } | undefined;
  /** A reference to a key of this kind that exists neither in the files nor live. */
  describeMissing?(key: string, declared: (kindKey: string) => boolean): { message: string; hint: string };
  /**
   * Why nothing can name an object of this kind the plan creates, judging by the objects read (a
   * member invited where invitations name no user: its id will not be known), if so: a reference
   * to one is then a plan error, not an apply that stops half-way.
   */
  createdIdUnknown?(live: readonly LiveResource[]): { message: string; hint: string } | undefined;
}

export interface DiffInput {
  /** In dependency-friendly order: parents before children. */
  kinds: KindMeta[];
  desired: DesiredResource[];
  /** Live objects of every kind that was read. */
  live: LiveResource[];
  /** `prune:` switches by key (e.g. `playbooks`). */
  prune: Record<string, boolean>;
  /** What docket last synced: an object renamed in the app is matched by its id, so the plan shows a rename rather than a create and a delete. */
  records?: RecordedIds;
  /** The plan is only read (drift, pull): a change the service cannot make is a warning, as nothing is sent. */
  readOnly?: boolean;
  /** Cut to `--target`s: a change the service cannot make, of a resource the plan does not send, is held (unsent.ts). */
  hold?: UnsentHold;
}

/** The sync records as diff asks them (docket.lock.json's, read by sync.ts). */
export interface RecordedIds {
  /** The live id docket last synced an object under this identity (`kind:key`), if any. */
  idOf(kindKey: string): string | undefined;
  /** The `kind:key`s of the sync records of a live id (an ambiguous name's hint says what the other one was). */
  keysWithId(id: string): readonly string[];
}

export interface DiffResult {
  changes: Change[];
  ids: Record<string, string>;
  /** Objects that exist but whose ids the service does not say (refKey → why), for reference checks. */
  unknownIds: Record<string, { message: string; hint: string }>;
  /** Ids known only while something live names the object (LiveResource.idWhileNamed), by `kind:key`. */
  idsWhileNamed: Record<string, { message: string; hint: string }>;
  /** Identities several live objects hold that no file declares (refKey → why a reference to one is refused). */
  ambiguous: Record<string, { message: string; hint: string }>;
  /** Former names this plan renames objects away from (refKey → the refKey they get), for reference checks. */
  renamedAway: Record<string, string>;
  undeclared: UndeclaredSummary[];
  adoptable: AdoptableFile[];
  diagnostics: Diagnostics;
  /** Top-level live objects no file declares (not internal kinds, not singletons). */
  unmatched: LiveResource[];
}

/**
 * What a saved plan checks of a live object it changes. For a partial kind, `managed` (the fields its
 * file writes) limits it to those: a parameter edited in the app that no file manages is no reason
 * to call the plan stale, as applying it leaves that parameter alone. An entry ending in `.` stands
 * for every field under it (managedFields).
 */
export function fingerprint(live: LiveResource, managed?: readonly string[]): string {
  let fields = live.fields;
  if (managed) {
    const prefixes = managed.filter((f) => f.endsWith('.'));
    const counts = (f: string): boolean => managed.includes(f) || prefixes.some((p) => f.startsWith(p));
    fields = Object.fromEntries(Object.entries(live.fields).filter(([f]) => counts(f)));
  }
  // A versioned object's number too: a version published in the app with the same content moves it,
  // and a saved plan's publish would take the next number for its own (probe KT-2).
  return digest({ id: live.id, name: live.name, parentId: live.parentId ?? null, fields, ...(live.version !== undefined ? { version: live.version } : {}) }).slice(0, 16);
}

/**
 * The fields a saved plan checks of a desired object: of a partial kind those its file writes, of
 * any kind without those a policy ignores (undefined: every field). A nested object
 * written in part (`parameters.template_csa_order_form_attributes.fee_amount`) counts whole
 * (`parameters.template_csa_order_form_attributes.`): an update sends its other keys again as they
 * were read, so an app edit to any of them must make a saved plan stale.
 */
export function managedFields(d: DesiredResource): readonly string[] | undefined {
  // Fields a policy leaves to the app (`ignore_fields`) are never written: an edit to them is no reason either.
  const ignored = d.policy?.ignoreFields ?? [];
  if (!d.partial) return ignored.length > 0 ? Object.keys(d.fields).filter((f) => !ignored.includes(f)) : undefined;
  const fields = Object.keys(d.fields).filter((f) => !ignored.includes(f));
  const nested = fields.flatMap((f) => {
    const parts = f.split('.');
    return parts.length > 2 ? [`${parts.slice(0, -1).join('.')}.`] : [];
  });
  return nested.length > 0 ? [...fields, ...new Set(nested)] : fields;
}

/**
 * The fields a saved plan checks of one change: managedFields, but of an object whose `drift:`
 * policy leaves live edits alone (adopt, ignore), only those its update or rename writes (a
 * playbook's or rule's update sends no others): an edit in the app that the apply leaves alone is
 * no reason to call the plan stale.
 */
export function checkedFields(d: DesiredResource, c: Pick<Change, 'action' | 'fields'>): readonly string[] | undefined {
  // A removal is fingerprinted whole, as removeChange does: the app's edits are what it would lose.
  if (c.action === 'delete' || c.action === 'archive') return undefined;
  if (!d.partial && leavesLiveEdits(d.policy?.drift) && (c.action === 'update' || c.action === 'rename')) return c.fields.map((f) => f.field);
  return managedFields(d);
}

const NONE: LiveResource[] = [];
const NO_CHANGES: readonly Change[] = [];

/** Children are matched by their own name inside the parent; top-level objects by key. */
function localName(x: { name: string; key: string }, isChild: boolean): string {
  return isChild ? x.name : x.key;
}

/** A name within its scope (a parent's key, or its live id): one key for the sets and maps that match by both. */
function nameKey(scope: string | undefined, name: string): string {
  return `${scope ?? ''}\u0000${name}`;
}

export function diff(input: DiffInput): DiffResult {
  const diagnostics = new Diagnostics();
  const changes: Change[] = [];
  const ids: Record<string, string> = {};
  /** The objects the files pin by `id:`, by refKey. */
  const pinned = new Map<string, string>();
  for (const d of input.desired) if (d.pinId !== undefined) pinned.set(refKey(d.kind, d.key), d.pinId);
  const unknownIds: DiffResult['unknownIds'] = {};
  const idsWhileNamed: DiffResult['idsWhileNamed'] = {};
  const ambiguous: DiffResult['ambiguous'] = {};
  const renamedAway: DiffResult['renamedAway'] = {};
  const undeclared: UndeclaredSummary[] = [];
  const adoptable: AdoptableFile[] = [];
  const unmatchedTop: LiveResource[] = [];
  /** desired key → matched live object, per kind (parents are looked up here by children). */
  const matchedByKind = new Map<KindName, Map<string, LiveResource>>();
  /** Objects this plan replaces with new ones (a re-uploaded attachment): whatever names them is re-pointed. */
  const replaced = new Set<string>();
  /** live id → the refKey of the resource it was matched to under another name (a rename). */
  const claimedAs = new Map<string, string>();
  /** live id → the name a renamed object holds live until this plan renames it. */
  const formerNames = new Map<string, string>();
  /** The refKeys renamed objects hold live until this plan renames them: a removal of another object of that name is named by its id. */
  const renamedFromKeys = new Set<string>();
  const sharedIdentities: { kind: KindMeta; keys: Set<string>; live: readonly LiveResource[] }[] = [];

  // Grouped once, and looked up by identity below: no scan per resource (one playbook may hold 20,000 rules).
  const desiredByKind = groupBy(input.desired, (d) => d.kind);
  const liveByKind = groupBy(input.live, (l) => l.kind);
  for (const kind of input.kinds) {
    const isChild = Boolean(kind.parentKind);
    const desired = desiredByKind.get(kind.name) ?? [];
    const live = liveByKind.get(kind.name) ?? [];
    /** Identities two live objects hold (two users under one e-mail): a reference cannot say which one it means. */
    let shared: Set<string> | undefined;
    for (const l of live) {
      const key = refKey(kind.name, l.key);
      if (l.idUnknown) unknownIds[key] ??= l.idUnknown;
      else if (ids[key] === undefined) ids[key] = l.id;
      else if (ids[key] !== l.id) (shared ??= new Set()).add(key);
      if (l.idWhileNamed) idsWhileNamed[key] ??= l.idWhileNamed;
    }
    if (shared) sharedIdentities.push({ kind, keys: shared, live });
    if (kind.internal) continue;

    const parentMatches = kind.parentKind ? matchedByKind.get(kind.parentKind) : undefined;
    const scopeOfDesired = (d: DesiredResource): string | undefined =>
      d.parent ? parentMatches?.get(d.parent.key)?.id : '';
    const scopeOfLive = (l: LiveResource): string => l.parentId ?? '';

    // scope → local name → live objects, in live order.
    const liveByName = new Map<string, Map<string, LiveResource[]>>();
    const liveById = new Map<string, LiveResource>();
    for (const l of live) {
      liveById.set(l.id, l);
      for (const alias of l.pinnedAs ?? []) if (!liveById.has(alias)) liveById.set(alias, l);
      let names = liveByName.get(scopeOfLive(l));
      if (!names) liveByName.set(scopeOfLive(l), (names = new Map()));
      const name = localName(l, isChild);
      const list = names.get(name);
      if (list) list.push(l);
      else names.set(name, [l]);
    }

    const used = new Set<string>();
    const matched = new Map<string, LiveResource>();

    const candidates = (scope: string | undefined, name: string): LiveResource[] => {
      if (scope === undefined) return [];
      const list = liveByName.get(scope)?.get(name);
      if (!list) return NONE;
      // Most names are held by one live object: no new list for it (20,000 rules, two passes).
      if (list.length === 1) return used.has(list[0]!.id) ? NONE : list;
      return list.filter((l) => !used.has(l.id));
    };

    const claim = (d: DesiredResource, l: LiveResource): void => {
      used.add(l.id);
      matched.set(d.key, l);
      if (l.idUnknown) return;
      ids[refKey(kind.name, d.key)] = l.id;
      if (l.key === d.key) return;
      // Renamed: its former name no longer names it (a new object may take that name).
      claimedAs.set(l.id, refKey(kind.name, d.key));
      formerNames.set(l.id, l.name);
      const former = refKey(kind.name, l.key);
      renamedFromKeys.add(former);
      if (ids[former] === l.id) {
        delete ids[former];
        renamedAway[former] = refKey(kind.name, d.key);
      }
    };

    // Pass 1: pinned ids win over names.
    const pinnedBy = new Map<string, DesiredResource>();
    for (const d of desired) {
      if (!d.pinId) continue;
      const scope = scopeOfDesired(d);
      const pinned = liveById.get(d.pinId);
      // A child's pin holds only in its parent's live object (a parent not live yet has none of them).
      const l = pinned && (!isChild || (scope !== undefined && scopeOfLive(pinned) === scope)) ? pinned : undefined;
      const pinAt = problemSourceOf(d.fieldSources, 'id') ?? d.source;
      if (!l && pinned) {
        // A rule cannot move between playbooks: its id names a rule of another one.
        sayUnlessUnsent(d, {
          severity: 'error',
          code: 'pinned-id-not-found',
          message: `${kind.name} ${quoteValue(d.name)} is pinned to id ${quoteValue(d.pinIdWritten ?? d.pinId)}, which is ${kind.name} ${quoteValue(pinned.key)} live, of another ${kind.parentKind ?? 'parent'}`,
          ...pinAt,
          hint: `a ${kind.name} cannot move to another ${kind.parentKind ?? 'parent'}: remove the \`id:\` line to create it here, or declare it in the ${kind.parentKind ?? 'parent'} that holds it`,
        }, input.hold ?? {}, diagnostics);
      } else if (!l) {
        // The object docket last synced under this name, removed in the app since: drift and pull
        // say that, as of one not pinned (probe NY-1); a plan cannot make it again under that id.
        const synced = input.records?.idOf(refKey(kind.name, d.key));
        // (Not a kind no service lists: an upload's absence tells nothing.)
        const removedLive = synced !== undefined && synced.toLowerCase() === d.pinId.toLowerCase() && !kind.uploadsUnreadable;
        if (removedLive && input.readOnly) continue;
        // Archived objects are not listed as live (api/paging.ts), so one pinned reads as missing.
        // A kind never removed (members, the organization) has no archived ones: an id of another organization, or a typo.
        const never = kind.deletion === 'never';
        // Objects no service lists are known from docket.lock.json alone: said so, not "no live one has it" (probe JD-4).
        const why = kind.uploadsUnreadable
          ? `which docket.lock.json records for another organization or environment, not for this target (the service cannot list them)`
          : removedLive
            ? `which no live ${kind.name} has: docket last synced it under this name, and it was ${kind.deletion === 'archive' ? 'archived or deleted' : 'removed'} in the app since`
            : `which no live ${kind.name} has (${never ? 'an id of another organization or environment, or a mistyped one' : kind.deletion === 'archive' ? 'it does not exist, or was archived' : 'an id of another organization or environment, a mistyped one, or one removed in the app'}${
                // Only the children of declared parents are read: one of another is not known live or not (probe UC-5).
                kind.parentKind ? `, unless it is a ${kind.name} of a ${kind.parentKind} no file declares, which docket does not read` : ''
              })`;
        // The organization is one, named by no name of its own (probe JJ-5: `organization "organization"`).
        const subject = kind.singleton ? `the ${kind.name} document` : `${kind.name} ${quoteValue(d.name)}`;
        sayUnlessUnsent(d, {
          severity: 'error',
          code: 'pinned-id-not-found',
          message: `${subject} is pinned to id ${quoteValue(d.pinIdWritten ?? d.pinId)}, ${why}`,
          ...pinAt,
          hint: removedLive
            ? 'remove the `id:` line to create it anew as the files say, or let `docket pull` take its document out of the files (it leaves one the files changed since, or one another document still names)'
            : never || kind.uploadsUnreadable
              ? 'remove the `id:` line (an id exported from another organization names nothing here), or correct the id'
              : 'remove the `id:` line to match by name (or create it anew), or correct the id',
        }, input.hold ?? {}, diagnostics);
      } else if (kind.identityFixed && l.key !== d.key && input.records?.idOf(refKey(kind.name, d.key))?.toLowerCase() === d.pinId.toLowerCase()) {
        // Last synced pinned under this name, its identity (a member's e-mail) changed in the app
        // since: another object, as one not pinned reads (OE-1). Drift and pull say it removed
        // live; a plan cannot make it again under that id (probe PD-1).
        if (input.readOnly) continue;
        sayUnlessUnsent(d, {
          severity: 'error',
          code: 'pinned-id-not-found',
          message: `${kind.name} ${quoteValue(d.name)} is pinned to id ${quoteValue(d.pinIdWritten ?? d.pinId)}, which docket last synced under this name; that live ${kind.name} is ${quoteValue(l.key)} now (changed in the app), and a ${kind.name}'s name is its identity`,
          ...pinAt,
          hint: 'remove the `id:` line to create it anew as the files say, or let `docket pull` take its document out of the files',
        }, input.hold ?? {}, diagnostics);
      } else if (used.has(l.id)) {
        // Which document, and the id both name: one written may stand for the upload that replaced it (probe KS-2).
        const other = pinnedBy.get(l.id);
        const written = d.pinIdWritten ?? d.pinId;
        const now = l.id !== written ? `, which is ${quoteValue(l.id)} now (docket.lock.json records the upload that replaced it),` : '';
        const by = other ? `${kind.name} ${quoteValue(other.name)} (${other.source.file}:${other.source.line}) pins ${l.id !== written ? 'that id' : 'it'} too` : 'another resource already pins it';
        diagnostics.error('duplicate-pin', `${kind.name} ${quoteValue(d.name)} pins id ${quoteValue(written)}${now} and ${by}`, { ...pinAt, hint: 'one live object can be only one of them: keep the `id:` on one' });
      } else {
        pinnedBy.set(l.id, d);
        claim(d, l);
      }
    }
    // Asked only of renames in doubt (both names live, a record naming another object): not built for 20,000 rules per plan.
    let declaredNames: Set<string> | undefined;
    const declaresName = (parent: string, name: string): boolean =>
      (declaredNames ??= new Set(desired.map((d) => nameKey(d.parent?.key, localName(d, isChild))))).has(nameKey(parent, name));
    /** A `renamed_from` whose former name is live beside the file's own: said once matching is done. */
    const bothLive: { d: DesiredResource; former: string }[] = [];
    /** Renames whose own and former names are live, each former one declared too: a chain, said at its head once matching is done. */
    const shiftHeads: { d: DesiredResource; own: LiveResource; former: string }[] = [];
    // Asked only of a record whose object holds another name live: not built for 20,000 rules per plan.
    let declaredAt: Map<string, DesiredResource> | undefined;
    /**
     * The id last synced under the file's own name, unless the document that declares the name
     * its object holds now says it was renamed from this one: an apply cut short along a chain (D
     * from C, C from B) renamed C's object to D before it could record that, and C's record would
     * take D's object back.
     */
    const ownRecord = (d: DesiredResource): string | undefined => {
      const id = input.records?.idOf(refKey(kind.name, d.key));
      const l = id !== undefined ? liveById.get(id) : undefined;
      if (l === undefined || scopeOfLive(l) !== scopeOfDesired(d)) return id;
      const liveName = localName(l, isChild);
      if (liveName === localName(d, isChild)) return id;
      declaredAt ??= new Map(desired.map((x) => [nameKey(x.parent?.key, localName(x, isChild)), x]));
      const holder = declaredAt.get(nameKey(d.parent?.key, liveName));
      return holder !== undefined && holder !== d && holder.renamedFrom.includes(localName(d, isChild)) ? undefined : id;
    };
    const ownRecordLive = (d: DesiredResource): boolean => {
      const id = ownRecord(d);
      const l = id !== undefined ? liveById.get(id) : undefined;
      return l !== undefined && !used.has(l.id) && scopeOfLive(l) === scopeOfDesired(d);
    };
    /**
     * The live object, not yet taken, last synced under one of these former names of `d`, in its
     * scope, and named now as no document names or renames from (second read: one holding a name
     * another document declares, or says it was renamed from, is that document's).
     */
    const recordedFormer = (d: DesiredResource, names: readonly string[]): LiveResource | undefined => {
      const parentKey = d.parent?.key ?? '';
      // Rare (several former names, one declared by another document): a scan of the documents is cheap.
      const namedByAnother = (name: string): boolean => declaresName(parentKey, name) || desired.some((x) => x !== d && (x.parent?.key ?? '') === parentKey && x.renamedFrom.includes(name));
      for (const old of names) {
        const id = input.records?.idOf(formerKey(d, old));
        const l = id !== undefined ? liveById.get(id) : undefined;
        if (l && !used.has(l.id) && scopeOfLive(l) === scopeOfDesired(d) && !namedByAnother(localName(l, isChild))) return l;
      }
      return undefined;
    };
    // What this plan does with a live object no file declares: a declared playbook's rules are
    // deleted, playbooks archived under prune, the rest left as they are.
    const removal = isChild && kind.deletion === 'delete' ? 'deletes' : kind.deletion === 'archive' && kind.pruneKey !== undefined && input.prune[kind.pruneKey] === true ? 'archives' : undefined;
    /**
     * The removal of such an object (`other`) in the scope of `d`, as the plan makes it: a plan cut
     * to --target removes no object outside its targets (limitToTargets): only one a target names,
     * or a rule of a playbook a target names (second read SR99-2, probe BG-1).
     */
    const removalBeside = (d: DesiredResource, other: LiveResource): string | undefined => {
      const sends = input.hold?.sends;
      if (sends === undefined) return removal;
      // A rule is removed as the declared playbook's, under its key there (a playbook renamed in the files: second read SR100-1).
      const removed = d.parent ? { kind: kind.name, key: `${d.parent.key}/${localName(other, isChild)}`, parent: d.parent } : { kind: kind.name, key: other.key };
      return sends(removed) ? removal : undefined;
    };
    /** "as it is", and why when the plan is cut to targets that leave `other` out (not when a drift policy holds its removal: second read SR100-2). */
    const leftWord = (d: DesiredResource, other: LiveResource | undefined, one: boolean): string =>
      `as ${one ? 'it is' : 'they are'}${removal && other !== undefined && !removalHeld(d, other) && !removalBeside(d, other) ? ` in this plan, cut to its targets (one without --target ${removal} ${one ? 'it' : 'them'})` : ''}`;
    /** Warnings of other objects under a renamed one's former names, said once every pass has matched what it takes (a record may take one for another document: SR99-2). */
    const formerWarnings: (() => void)[] = [];
    /**
     * A child's removal a `drift: adopt` or `ignore` of its parent holds back (direction.ts): of one
     * made in the app. One last synced under the name `held` (its removal the files') is removed
     * whatever the policy (probe PH-2).
     */
    let parentPolicies: Map<string, DesiredResource['policy']> | undefined;
    const removalHeld = (d: DesiredResource, held: LiveResource): boolean => {
      if (!d.parent) return false;
      parentPolicies ??= new Map((desiredByKind.get(d.parent.kind) ?? []).map((p) => [p.key, p.policy]));
      return leavesLiveEdits(parentPolicies.get(d.parent.key)?.drift) && input.records?.idOf(formerKey(d, localName(held, isChild))) !== held.id;
    };
    /** Another former name held live by another object no file declares: removed or left as it is, and said (probes LR-4, AD-1). */
    const otherFormersLive = (d: DesiredResource, formers: readonly string[], took: LiveResource): void => void formerWarnings.push(() => sayOtherFormersLive(d, formers, took));
    const sayOtherFormersLive = (d: DesiredResource, formers: readonly string[], took: LiveResource): void => {
      const parentKey = d.parent?.key ?? '';
      const tookName = localName(took, isChild);
      const alsoLive = formers.filter((f) => !declaresName(parentKey, f) && candidates(scopeOfDesired(d), f).some((l) => !used.has(l.id)));
      // The name of the one it renames (as it is called now, or as docket last synced it, when the
      // app renamed it since), held by another too: made in the app since, which the records tell
      // from it. Its own name, not one to take out of `renamed_from` (probes MR-2, OB-1).
      const own = alsoLive.find((f) => f === tookName || input.records?.idOf(formerKey(d, f)) === took.id);
      // What this plan does with them, as with any live object no file declares (a declared
      // playbook's rules deleted, playbooks archived under prune): said as it will happen.
      const removes = (name: string): string | undefined => {
        const holder = candidates(scopeOfDesired(d), name).find((l) => l.id !== took.id);
        return holder && !removalHeld(d, holder) ? removalBeside(d, holder) : undefined;
      };
      if (own !== undefined) {
        const now = own === tookName ? '' : ` (live as ${quoteValue(tookName, 200)} now)`;
        const removed = removes(own);
        diagnostics.warning('renamed-from-several-live', `${kind.name} ${quoteValue(d.name, 200)} renames the ${quoteValue(own, 200)} docket last synced${now}; another live ${kind.name} named ${quoteValue(own, 200)} (made in the app since) ${removed ? `is declared by no file: this plan ${removed} it` : `is left ${leftWord(d, candidates(scopeOfDesired(d), own).find((l) => l.id !== took.id), true)}`}`, {
          ...(formerSource(d, d.renamedFrom.indexOf(own)) ?? d.source),
          hint: removed
            ? `to keep that one, declare it in a file (rename it in the app first, or declare it under ${quoteValue(own, 200)} once this rename is applied); \`renamed_from\` is right as it is`
            : `if that one is not wanted, archive or rename it in the app; \`renamed_from\` is right as it is`,
        });
      }
      const others = alsoLive.filter((f) => f !== own);
      if (others.length === 0) return;
      const names = others.map((f) => quoteValue(f, 200)).join(', ');
      const one = others.length === 1;
      // One warning says one fate: the names this plan removes apart from those it leaves.
      const removedNames = others.filter((f) => removes(f) !== undefined);
      const leftNames = others.filter((f) => !removedNames.includes(f));
      const fate =
        leftNames.length === 0
          ? `this plan ${removal} ${one ? 'it, as no file declares it' : 'them, as no file declares them'}`
          : removedNames.length === 0
            ? `docket leaves ${one ? 'it' : 'them'} ${leftWord(d, candidates(scopeOfDesired(d), leftNames[0]!).find((l) => l.id !== took.id), one)}`
            : `this plan ${removal} ${removedNames.map((f) => quoteValue(f, 200)).join(', ')}, as no file declares ${removedNames.length === 1 ? 'it' : 'them'}, and leaves ${leftNames.map((f) => quoteValue(f, 200)).join(', ')} as ${leftNames.length === 1 ? 'it is' : 'they are'}`;
      diagnostics.warning('renamed-from-several-live', `${kind.name} ${quoteValue(d.name, 200)} lists ${names} in renamed_from, live as ${one ? 'another object' : 'other objects'} than the one it renames (${quoteValue(tookName, 200)}): ${fate}`, {
        ...(formerSource(d, d.renamedFrom.indexOf(others[0]!)) ?? d.source),
        hint: `one object is renamed into ${quoteValue(d.name, 200)}: keep in \`renamed_from\` only the names it had${removedNames.length > 0 ? `; to keep ${removedNames.map((f) => quoteValue(f, 200)).join(', ')}, declare ${removedNames.length === 1 ? 'it' : 'them'} in a file` : ''}`,
      });
    };
    /** The live object a `renamed_from` name holds; two holding one is for the person to settle (as for a name). */
    const claimFormer = (d: DesiredResource): void => {
      const recorded = ownRecord(d);
      // Unless another rename of this plan took the object it was synced as (D from C): then its
      // own rename (C from B) is new too, along the chain.
      const takenAs = recorded === undefined ? undefined : claimedAs.get(recorded);
      const renamedBefore = recorded !== undefined && (takenAs === undefined || takenAs === refKey(kind.name, d.key));
      // A former name another document declares as its own comes last: the object of that name is
      // most likely that document's (two objects that traded names over renames in another
      // environment), and is this one's only when no other former name is live (rename A→B, new A).
      const parentKey = d.parent?.key ?? '';
      const formers = d.renamedFrom.length > 1 ? declaredLast(d.renamedFrom, (old) => declaresName(parentKey, old)) : d.renamedFrom;
      // The object synced under a former name (its record says which) is this one, whatever holds
      // that name now: one made in the app since under it, the synced one renamed there otherwise
      // (probes JQ-1, KU-2), or one of a name another document declares (probe FS).
      if (!renamedBefore) {
        const synced = recordedFormer(d, formers.filter((f) => !declaresName(parentKey, f)));
        if (synced) {
          claim(d, synced);
          otherFormersLive(d, formers, synced);
          return;
        }
      }
      for (const old of formers) {
        // Synced under its own name already, its rename from this one is done: the holder of the
        // former name is another object (made in the app since, or the one the files declare under
        // that name), unless it is the one synced under that name and no file declares it.
        const stillFormer = (l: LiveResource): boolean => !renamedBefore || (input.records?.idOf(formerKey(d, old)) === l.id && !declaresName(parentKey, old));
        const found = candidates(scopeOfDesired(d), old).filter(stillFormer);
        if (found.length > 1) {
          // Of a resource a cut plan (or a report of other kinds) leaves out, its own problem: held (probe RL-1).
          sayUnlessUnsent(d, {
            severity: 'error',
            code: 'ambiguous-match',
            message: `${found.length} live ${kind.name} objects are named ${quoteValue(old, 200)}, which ${kind.name} ${quoteValue(d.name, 200)} says it was renamed from; docket cannot tell which one the file means`,
            ...(formerSource(d, d.renamedFrom.indexOf(old)) ?? d.source),
            hint: ambiguousHint(kind, found, formerKey(d, old), input.records),
          }, input.hold ?? {}, diagnostics);
          for (const f of found) used.add(f.id);
          return;
        }
        if (found[0]) {
          claim(d, found[0]);
          otherFormersLive(d, formers, found[0]);
          return;
        }
      }
    };
    // Pass 2: renames, for resources whose own name is not live yet. Before identity, so a new
    // resource that takes the old name (rename A→B, create A) does not claim the renamed object.
    /** Renames whose own name is live: theirs unless another rename takes that object (a chain). */
    const ownNameLive: DesiredResource[] = [];
    for (const d of desired) {
      if (d.renamedFrom.length === 0 || matched.has(d.key) || d.pinId) continue;
      const ownLive = candidates(scopeOfDesired(d), localName(d, isChild));
      if (ownLive.length > 0) {
        // Both names live: the file's name is matched, and the former one is left as it is (said
        // unless a file declares the former name too: a rename A→B, then a new A).
        const former = d.renamedFrom.find((old) => candidates(scopeOfDesired(d), old).length > 0 && !declaresName(d.parent?.key ?? '', old));
        if (former !== undefined) bothLive.push({ d, former });
        // The head of a chain whose every name is live (steps renumbered after the first was taken
        // out): matched by their names, the objects keep their names and swap their fields.
        else {
          const shifted = d.renamedFrom.find((old) => candidates(scopeOfDesired(d), old).length > 0);
          if (shifted !== undefined) shiftHeads.push({ d, own: ownLive[0]!, former: shifted });
        }
        ownNameLive.push(d);
        continue;
      }
      // Last synced under its own name, and that object still live (renamed in the app since):
      // the rename in the files was made then, and pass 4 matches its record; the former name now
      // belongs to whatever holds it (a new object the files declare under it).
      if (ownRecordLive(d)) continue;
      claimFormer(d);
    }
    // Pass 2b: along a chain (B from A, C from B, D from C), each rename that took an object frees
    // the rename whose own name that was to take its former one, however long the chain and in
    // whatever order the files declare it. Before identity, which would match B to the live B.
    // A worklist keyed by the name each waits to see taken: every one is looked at once, then again
    // only when the object of its name is taken (a renumbering of 10,000 rules stays linear).
    const waitingOn = new Map<string, DesiredResource>(ownNameLive.map((d) => [nameKey(scopeOfDesired(d), localName(d, isChild)), d]));
    const chained = [...ownNameLive];
    for (let d = chained.pop(); d !== undefined; d = chained.pop()) {
      if (matched.has(d.key) || candidates(scopeOfDesired(d), localName(d, isChild)).length > 0 || ownRecordLive(d)) continue;
      claimFormer(d);
      const took = matched.get(d.key);
      const freed = took ? waitingOn.get(nameKey(scopeOfLive(took), localName(took, isChild))) : undefined;
      if (freed) chained.push(freed);
    }
    // Pass 3: identity.
    for (const d of desired) {
      if (matched.has(d.key) || d.pinId) continue;
      const found = candidates(scopeOfDesired(d), localName(d, isChild));
      if (found.length > 1) {
        sayUnlessUnsent(d, {
          severity: 'error',
          code: 'ambiguous-match',
          message: `${found.length} live ${kind.name} objects are named ${quoteValue(d.name, 200)}; docket cannot tell which one the file means`,
          // At the name (a member's at its e-mail), as the other problems of a name are.
          ...(problemSourceOf(d.fieldSources, 'name') ?? problemSourceOf(d.fieldSources, 'email') ?? d.source),
          hint: ambiguousHint(kind, found, refKey(kind.name, d.key), input.records),
        }, input.hold ?? {}, diagnostics);
        for (const f of found) used.add(f.id);
        continue;
      }
      if (found[0]) claim(d, found[0]);
    }
    // Pass 3b: a rename whose own name was live but matched nothing here (two objects held it, so it
    // is ambiguous): from its former name after all, unless its own record is live (pass 4 takes it).
    for (const { d } of bothLive) if (!matched.has(d.key) && !ownRecordLive(d)) claimFormer(d);
    // Pass 4: the object last synced under a name the file says it was renamed from, then under
    // its own identity, renamed in the app since (after identity, so a live object that has the name
    // wins; renames first, as in pass 2, so a new object that takes the old name does not claim it).
    if (input.records) {
      const records = input.records;
      const claimRecorded = (d: DesiredResource, kindKeys: readonly string[]): void => {
        const scope = scopeOfDesired(d);
        if (scope === undefined) return;
        for (const kindKey of kindKeys) {
          const id = records.idOf(kindKey);
          const l = id ? liveById.get(id) : undefined;
          if (!l || used.has(l.id) || scopeOfLive(l) !== scope) continue;
          claim(d, l);
          return;
        }
      };
      for (const d of desired) {
        if (d.renamedFrom.length > 0 && !matched.has(d.key) && !d.pinId) claimRecorded(d, formerKeys(d));
      }
      // Not of a kind whose identity never changes (a member's e-mail): the object last synced as
      // this one is live under another identity now, so this one is gone (probe OE-1).
      if (!kind.identityFixed) for (const d of desired) if (!matched.has(d.key) && !d.pinId) claimRecorded(d, [refKey(kind.name, d.key)]);
    }
    for (const say of formerWarnings) say();
    // Unless a later rename in the files took the former object (B from A while C from B).
    for (const { d, former } of bothLive) {
      const formerLive = matched.get(d.key) === undefined ? undefined : candidates(scopeOfDesired(d), former)[0];
      if (!formerLive) continue;
      const removes = removalHeld(d, formerLive) ? undefined : removalBeside(d, formerLive);
      diagnostics.warning(
        'rename-target-live',
        `${kind.name} "${d.name}" says it was renamed from "${former}", but both are live: docket matches the live "${d.name}" and ${removes ? `${removes} "${former}", which no file declares` : `leaves "${former}" ${leftWord(d, formerLive, true)}`}`,
        {
          ...(formerSource(d, d.renamedFrom.indexOf(former)) ?? d.source),
          hint: removes
            ? `remove "${former}" from \`renamed_from\`, or declare it to keep it`
            : // Which live one goes decides what is kept: the former, or the one holding the new name (probe GB-4).
              kind.deletion === 'none'
              ? // A kind the services cannot remove: the live one holding the name is renamed away instead (second read SR105-5).
                `remove "${former}" from \`renamed_from\` to keep both; to rename "${former}" onto "${d.name}" after all, rename the live "${d.name}" to another name in the app first`
              : `remove "${former}" from \`renamed_from\` to keep both; to let the live "${former}" go, remove it (in the app, ${removal ? `or by a plan without --target, which ${removal} it` : 'or with --prune where docket can'}); to rename it onto "${d.name}" after all, remove the live "${d.name}" in the app first`,
        },
      );
    }
    // Only at the head (no other document says it was renamed from its name), and only where the
    // chain ends at a live object no file declares, which the shift takes out: one applied already
    // (its `renamed_from` lines kept) ends at a name no longer live (probe RZ-1, second read SR90B-1).
    if (shiftHeads.length > 0) {
      const at = (d: DesiredResource, name: string): string => nameKey(d.parent?.key, name);
      const renamedAway = new Set(desired.flatMap((d) => d.renamedFrom.map((old) => at(d, old))));
      const links = new Map(shiftHeads.map((s) => [at(s.d, localName(s.d, isChild)), s.former]));
      const endsTakingOut = new Set(bothLive.map(({ d }) => at(d, localName(d, isChild))));
      for (const { d, own, former } of shiftHeads) {
        if (renamedAway.has(at(d, localName(d, isChild))) || matched.get(d.key)?.id !== own.id) continue;
        // Along the chain to its last link, whose former name no file declares.
        const seen = new Set<string>();
        let name = former;
        while (links.has(at(d, name)) && !seen.has(name)) {
          seen.add(name);
          name = links.get(at(d, name))!;
        }
        if (!endsTakingOut.has(at(d, name))) continue;
        diagnostics.warning(
          'rename-target-live',
          `${kind.name} "${d.name}" says it was renamed from "${former}", but both are live, and so is each name along the chain of renames after it: docket matches every document to the live ${kind.name} of its own name, so the ${kind.name}s keep their names and their fields move from one to the next (their ids, and what the service keeps of each, change hands)`,
          {
            ...(formerSource(d, d.renamedFrom.indexOf(former)) ?? d.source),
            // Taken out of the files, a live one docket cannot remove (a custom term, a playbook with prune
            // off, a rule its playbook's drift policy keeps) would stay: renamed aside instead (probe WH-1, second read SR95B-1).
            hint: `to rename them instead, keeping each one's id, apply in two steps: first the files with the live "${d.name}" ${removalBeside(d, own) && !removalHeld(d, own) ? 'taken out' : `renamed aside (declared under a name of its own, with \`renamed_from: [${JSON.stringify(d.name)}]\`)`} and the others under their live names, then the renames`,
          },
        );
      }
    }
    // A pin decides which object a document is: a `renamed_from` naming another live object is not
    // followed, and that object is left or removed as any no file declares, said so (probe PH-3).
    for (const d of desired) {
      const pinned = d.pinId && d.renamedFrom.length > 0 ? matched.get(d.key) : undefined;
      if (!pinned) continue;
      for (const [i, former] of d.renamedFrom.entries()) {
        const other = candidates(scopeOfDesired(d), former).find((l) => l.id !== pinned.id && !used.has(l.id));
        if (!other || declaresName(d.parent?.key ?? '', former)) continue;
        const removes = removalHeld(d, other) ? undefined : removalBeside(d, other);
        diagnostics.warning('rename-target-live', `${kind.name} ${quoteValue(d.name)} is pinned by \`id:\` to live ${quoteValue(localName(pinned, isChild))} and says it was renamed from ${quoteValue(former)}, live as another object: the pin decides, and docket ${removes ? `${removes} ${quoteValue(former)}, which no file declares` : `leaves ${quoteValue(former)} ${leftWord(d, other, true)}`}`, {
          ...(formerSource(d, i) ?? d.source),
          hint: removes ? `remove ${quoteValue(former)} from \`renamed_from\`, or declare it to keep it` : `remove ${quoteValue(former)} from \`renamed_from\``,
        });
      }
    }
    matchedByKind.set(kind.name, matched);
    // A pin renames its object to the file's name: another live object no file claims holding that
    // name would then share it (terms cannot even be removed). renamed_from never does: it matches the holder.
    // A kind that cannot be renamed (a member's e-mail) refuses the pin itself (unsupported-change).
    const renames = kind.actions?.includes('rename') ?? true;
    for (const d of desired) {
      const l = d.pinId && renames ? matched.get(d.key) : undefined;
      if (!l || localName(l, isChild) === localName(d, isChild)) continue;
      const holder = candidates(scopeOfDesired(d), localName(d, isChild))[0];
      // One the plan removes is gone before the rename (order.ts): no two share the name. Not a
      // rule whose playbook adopts or ignores drift: its delete is held, and the rule stays.
      if (!holder || (removalBeside(d, holder) && !removalHeld(d, holder))) continue;
      // Names that show alike (a Cyrillic letter for a Latin one) would make the message read as nonsense (probe RF-1).
      const alike = lookAlike(l.name) === lookAlike(d.name) ? ` (the two names show alike: they differ only in ${alikeIn(l.name, d.name)})` : '';
      diagnostics.error('rename-target-live', `${kind.name} ${quoteValue(d.name)} is pinned to id ${quoteValue(d.pinIdWritten ?? d.pinId!)}, live ${quoteValue(l.name)}${alike}: renaming it would make two live ${kind.name} objects named "${d.name}" (another, id ${holder.id}, no file declares, has that name)`, {
        ...(problemSourceOf(d.fieldSources, 'id') ?? d.source),
        hint: `rename or remove the live "${d.name}" (id ${holder.id}) first, or declare it in a file under another name`,
      });
    }
    /** Why an object of this kind the plan creates cannot be named (asked once, at the first create). */
    let createdUnknown: { message: string; hint: string } | null | undefined;

    for (const d of desired) {
      const l = matched.get(d.key);
      // Made only for what changes: most of 20,000 matched rules do not.
      const parentOf = (): Change['parent'] => (d.parent ? { kind: d.parent.kind, key: d.parent.key, liveId: parentMatches?.get(d.parent.key)?.id } : undefined);
      if (!l) {
        if (kind.singleton) {
          // A pin no live object has is reported as that already.
          if (!d.pinId) diagnostics.error('missing-singleton', `the live ${kind.name} could not be read`, d.source);
          continue;
        }
        changes.push(createChange(kind, d, parentOf()));
        createdUnknown ??= kind.createdIdUnknown?.(live) ?? null;
        if (createdUnknown) unknownIds[refKey(kind.name, d.key)] ??= createdUnknown;
        continue;
      }
      const compared = compare(kind, d, l, parentOf, { ids, pinned, claimedAs, formerNames, replaced, diagnostics, readOnly: input.readOnly === true, hold: input.hold ?? {} });
      if (compared.some((c) => c.action === 'upload')) replaced.add(refKey(kind.name, d.key));
      for (const c of compared) changes.push(c);
      if (l.unknownFields) adoptable.push(...unknownFiles(kind, d, l, compared.some((c) => c.action === 'upload')));
    }

    // Live objects no file declares.
    const unmatched = live.filter((l) => !used.has(l.id));
    if (isChild) {
      const declaredParents = new Set([...(parentMatches?.values() ?? [])].map((p) => p.id));
      const parentsDeclared = new Map((desiredByKind.get(kind.parentKind!) ?? []).map((d) => [d.key, d]));
      const parentById = new Map([...(parentMatches ?? [])].map(([key, l]) => [l.id, { kind: l.kind, key, liveId: l.id }]));
      for (const l of unmatched) {
        if (!l.parentId || !declaredParents.has(l.parentId)) continue;
        if (kind.deletion !== 'delete') continue;
        const parent = parentById.get(l.parentId);
        // A removed child has no line of its own: it points at the list of the parent that no longer
        // holds it (`rules:`, where pull writes it), or at the parent when it has no such list.
        const holder = parent ? parentsDeclared.get(parent.key) : undefined;
        const declaredBy = holder ? removalDeclaredAt(holder, kind.parentField) : undefined;
        changes.push({ ...removeChange(kind, l, 'delete', parent), ...(declaredBy ? { source: declaredBy } : {}) });
      }
    } else if (!kind.singleton) {
      unmatchedTop.push(...unmatched);
      const prunable = kind.deletion === 'archive' && kind.pruneKey !== undefined && input.prune[kind.pruneKey] === true;
      if (prunable) {
        for (const l of unmatched) changes.push(removeChange(kind, l, 'archive'));
      } else if (unmatched.length > 0) {
        const reason =
          kind.deletion === 'archive'
            ? `prune is off: set prune.${kind.pruneKey} or pass --prune to archive them`
            : kind.deletion === 'none'
              ? 'the service has no delete for them'
              : 'docket never removes them';
        undeclared.push({
          kind: kind.name,
          count: unmatched.length,
          names: unmatched.map((l) => l.name).sort(),
          ...(kind.deletion === 'archive' && kind.pruneKey !== undefined ? { prunable: true } : {}),
          ...(kind.deletion === 'never' ? { quiet: true } : {}),
          reason: `${reason}${namesakesNote(kind.name, unmatched, new Map(desired.map((d) => [d.key, d])), matched)}`,
        });
      }
    }
  }

  // One the files declare is matched (or refused as ambiguous) above; one they only name is refused
  // where it is named, rather than taken as whichever the service listed first (probe PT-1).
  for (const { kind, keys, live } of sharedIdentities) {
    const declared = new Set((desiredByKind.get(kind.name) ?? []).map((d) => refKey(kind.name, d.key)));
    for (const key of keys) {
      if (declared.has(key)) continue;
      const found = live.filter((l) => !l.idUnknown && refKey(kind.name, l.key) === key);
      // (Its id stays in `ids`: sync records and duplicate checks go by every id read.)
      ambiguous[key] = {
        message: `which ${found.length} live ${kind.name} objects hold; docket cannot tell which one is meant`,
        hint: ambiguousHint(kind, found, key, input.records, 'undeclared'),
      };
    }
  }
  // A former name a later claim gave to another object names that one.
  for (const key of Object.keys(renamedAway)) if (ids[key] !== undefined) delete renamedAway[key];
  return { changes: withNamesakes(changes, input.desired, renamedFromKeys), ids, unknownIds, idsWhileNamed, ambiguous, renamedAway, undeclared, adoptable, diagnostics, unmatched: unmatchedTop };
}

/** `names` in order, but those `declared` says another document declares after the rest. */
function declaredLast(names: readonly string[], declared: (name: string) => boolean): string[] {
  const free: string[] = [];
  const taken: string[] = [];
  for (const name of names) (declared(name) ? taken : free).push(name);
  return [...free, ...taken];
}

/**
 * What `apply --adopt-files` would record of an object the plan could not compare: its files, and
 * the files' values of its other unknown fields. An upload planned records all of them itself.
 */
function unknownFiles(kind: KindMeta, d: DesiredResource, l: LiveResource, uploading: boolean): AdoptableFile[] {
  const unknown = Object.entries(l.unknownFields ?? {});
  const others = unknown.filter(([field]) => !kind.fileFields?.[field]);
  const values = others.length > 0 ? Object.fromEntries(others.map(([field]) => [field, d.fields[field] ?? null])) : undefined;
  const out: AdoptableFile[] = [];
  for (const [field, reason] of unknown) {
    const pathKey = kind.fileFields?.[field];
    const file = pathKey ? d.payload?.[pathKey] : undefined;
    const sha256 = d.fields[field];
    if (typeof file !== 'string' || typeof sha256 !== 'string') continue;
    out.push({ kind: kind.name, key: d.key, liveId: l.id, field, file, sha256, ...(l.version !== undefined ? { version: l.version } : {}), reason, ...(values ? { values } : {}) });
  }
  // The file is known (recorded by an adoption that did not record these): only the values are owed.
  if (out.length === 0 && values && !uploading) {
    const [[field, reason]] = others as [[string, string]];
    const fileField = Object.keys(kind.fileFields ?? {})[0];
    const pathKey = fileField ? kind.fileFields?.[fileField] : undefined;
    const file = pathKey ? d.payload?.[pathKey] : undefined;
    const sha256 = fileField ? l.fields[fileField] : undefined;
    if (typeof file === 'string' && typeof sha256 === 'string') out.push({ kind: kind.name, key: d.key, liveId: l.id, field, file, sha256, reason, values, valuesOnly: true });
  }
  return out;
}

function changeId(action: string, kind: KindName, key: string): string {
  return `${action}:${kind}:${key}`;
}

/**
 * A live object removed whose name another of its kind holds too is named by its live id: next to
 * a file declaring that name (the one it pins is another), "archive playbook X" would read as the
 * declared one's (probe YE-2), as beside the rename of another object away from that name (probe
 * AD-1). Two removed of one name (made twice in the app, or by two applies at
 * once) each get their own change id, so a saved plan holds every change once (probe YE-1).
 */
function withNamesakes(changes: Change[], desired: readonly DesiredResource[], renamedFromKeys: ReadonlySet<string>): Change[] {
  const removals = new Set(changes.filter((c) => (c.action === 'archive' || c.action === 'delete') && c.liveId !== undefined));
  if (removals.size === 0) return changes;
  const count = new Map<string, number>();
  for (const c of removals) count.set(c.id, (count.get(c.id) ?? 0) + 1);
  const declared = new Set(desired.map((d) => refKey(d.kind, d.key)));
  return changes.map((c) => {
    if (!removals.has(c)) return c;
    const twins = count.get(c.id)! > 1;
    // Or one the plan renames another object away from: beside "rename P/Term → P/Duration", a bare
    // "delete P/Term" reads as the renamed one's (probe AD-1).
    if (!twins && !declared.has(refKey(c.kind, c.key)) && !renamedFromKeys.has(refKey(c.kind, c.key))) return c;
    return { ...c, ...(twins ? { id: `${c.id}@${c.liveId}` } : {}), namesake: true };
  });
}

/** What a plan says of a sensitive value: that it is set, never what it is. */
export const SENSITIVE = '(sensitive value)';

function shown(kind: KindMeta, field: string, value: unknown): unknown {
  return kind.sensitiveFields?.includes(field) && value !== null && value !== undefined ? SENSITIVE : value;
}

/** The desired values a plan may hold: everything but the sensitive fields (apply reads those from the files). */
export function storable(kind: KindMeta, values: Fields): Fields {
  if (!kind.sensitiveFields?.length) return values;
  return Object.fromEntries(Object.entries(values).filter(([k]) => !kind.sensitiveFields!.includes(k)));
}

function createChange(kind: KindMeta, d: DesiredResource, parent: Change['parent']): Change {
  const action = kind.createAction ?? 'create';
  const all = Object.assign({}, d.fields, d.createOnly);
  const fields: FieldChange[] = Object.entries(all)
    // Text written empty compares as none but is sent as written: shown, as `""`.
    .filter(([field, v]) => ((v !== null && v !== undefined) || (v === null && kind.sentValue?.(field, d) === '')) && kind.sentOnCreate?.(field, d) !== false)
    .map(([field, after]) => withSummary(kind, withSent(kind, d, { field, before: null, after: shown(kind, field, after) })));
  const uploads = uploadedFile(kind, d, fields, true);
  return {
    id: changeId(action, kind.name, d.key),
    action,
    kind: kind.name,
    key: d.key,
    name: d.name,
    ...(parent ? { parent } : {}),
    fields,
    ...(uploads ? { uploads } : {}),
    desired: storable(kind, Object.assign({}, all, d.payload)),
    refs: d.refs,
    dependsOn: [],
    source: d.source,
    fingerprint: null,
  };
}

interface CompareState {
  ids: Record<string, string>;
  pinned: ReadonlyMap<string, string>;
  claimedAs: ReadonlyMap<string, string>;
  formerNames: ReadonlyMap<string, string>;
  replaced: ReadonlySet<string>;
  diagnostics: Diagnostics;
  readOnly: boolean;
  hold: UnsentHold;
}

function compare(kind: KindMeta, d: DesiredResource, l: LiveResource, parentOf: () => Change['parent'], state: CompareState): readonly Change[] {
  const { replaced, diagnostics } = state;
  // Most matched objects are unchanged: find out before building anything (20,000 rules per plan).
  let changed = false;
  for (const field in d.fields) {
    if (l.unknownFields?.[field] !== undefined) continue;
    if (!sameField(kind, d, l, field, state) || repointed(d, l, field, replaced, state)) {
      changed = true;
      break;
    }
  }
  if (!changed) return NO_CHANGES;
  const out: Change[] = [];
  const parent = parentOf();
  const base = {
    kind: kind.name,
    key: d.key,
    name: d.name,
    liveId: l.id,
    ...(parent ? { parent } : {}),
    ...(l.version !== undefined ? { liveVersion: l.version } : {}),
    // Both only matter when there is a change: worked out when a change is built from this base.
    get desired() {
      return storable(kind, Object.assign({}, d.fields, d.payload));
    },
    get fingerprint() {
      return fingerprint(l, managedFields(d));
    },
  };
  const sourceOf = (field: string) => declaredAt(d, field);
  const updates: FieldChange[] = [];
  const publishes: FieldChange[] = [];
  let renamed = false;

  const ignored = d.policy?.ignoreFields;
  for (const [field, desiredValue] of Object.entries(d.fields)) {
    if (l.unknownFields?.[field] !== undefined) continue;
    if (ignored?.includes(field)) continue;
    const liveValue = l.fields[field] ?? null;
    const same = sameField(kind, d, l, field, state);
    const repoint = same && repointed(d, l, field, replaced, state);
    if (same && !repoint) continue;
    // A link to an object this plan renames away: shown by the name that object gets, not the same name twice.
    const away = renamedAwayNames(d, l, field, state);
    // Re-pointed to a new object of the same name: the ids tell the two apart; of another name (an
    // attachment renamed, so uploaded again), the names do, as for any other field (probe JQ-4).
    const idsShown = repoint && sameValue(liveValue, desiredValue);
    const before = shown(kind, field, idsShown ? (l.refsShown?.[field] ?? l.refIds?.[field] ?? liveValue) : away ? renamedIn(liveValue, away) : liveValue);
    const after = shown(kind, field, desiredValue);
    const refused = kind.refuseChange?.(field, liveValue, desiredValue, d.name);
    // Read only, a change apply cannot send is reported all the same: marked, so drift does not send users to apply for it (probe AG-1).
    const unsendable = refused !== undefined && state.readOnly && changesExisting(kind) ? { unsendable: true as const } : {};
    if (refused) {
      const at = (refused.at !== undefined ? problemSourceOf(d.fieldSources, refused.at) : undefined) ?? problemSourceOf(d.fieldSources, field) ?? d.source;
      const hint = refused.hint ? { hint: refused.hint } : {};
      // Nor when the kind changes no existing object (a member, only invited): its change would be
      // refused as one the kind cannot make, which says less than this (probe LB-1).
      if (!state.readOnly || !changesExisting(kind)) {
        // Outside the targets: an error only if the cut plan keeps a change of `d` (probe QL-4).
        sayUnlessUnsent(d, { severity: 'error', code: 'unsupported-change', message: refused.message, ...at, ...hint }, state.hold, diagnostics);
        continue;
      }
      // Read only (drift, pull): the difference is reported like any other (pull writes the live
      // value, or says why it cannot), and said, as plan and apply refuse to send it.
      diagnostics.warning('unsupported-change', refused.message, { ...at, ...hint });
    }
    if (field === kind.nameField) {
      renamed = true;
      out.push({
        ...base,
        id: changeId('rename', kind.name, d.key),
        action: 'rename',
        fields: [{ field, before, after, ...unsendable }],
        refs: [],
        dependsOn: [],
        source: sourceOf(field),
      });
    } else if (kind.versionedFields?.includes(field)) {
      publishes.push(withSummary(kind, withSent(kind, d, { field, before, after, ...unsendable })));
    } else {
      updates.push(withSummary(kind, withSent(kind, d, { field, before, after, ...unsendable })));
    }
  }
  const after = renamed ? [changeId('rename', kind.name, d.key)] : [];
  const changeAction = kind.changeAction ?? 'update';
  if (updates.length > 0) {
    const resend = kind.resend?.(updates.map((u) => u.field), d, l);
    // An upload in place of a live object sends its whole file, whatever field changed.
    const uploads = uploadedFile(kind, d, updates, changeAction === 'upload');
    out.push({
      ...base,
      id: changeId(changeAction, kind.name, d.key),
      action: changeAction,
      fields: updates,
      ...(uploads ? { uploads } : {}),
      ...(resend ? { resend } : {}),
      refs: d.refs.filter((r) => updates.some((u) => u.field === r.field)),
      dependsOn: [...after],
      source: sourceOf(updates[0]!.field),
    });
  }
  if (publishes.length > 0) {
    const uploads = uploadedFile(kind, d, publishes, false);
    out.push({
      ...base,
      id: changeId('publish', kind.name, d.key),
      action: 'publish',
      fields: publishes,
      ...(uploads ? { uploads } : {}),
      // Every reference a version holds, changed or not: a new version links to what it names as
      // that object is when it is published (a custom template to its term's current version).
      refs: d.refs.filter((r) => publishes.some((u) => u.field === r.field) || kind.versionedFields?.includes(r.field)),
      dependsOn: [...after, ...(updates.length > 0 ? [changeId(changeAction, kind.name, d.key)] : [])],
      source: sourceOf(publishes[0]!.field),
      irreversible: true,
      ...versionCount(kind, publishes),
    });
  }
  return out;
}

/**
 * The file a change sends whole: the path of the kind's file field (`fileFields`) when the change
 * sends that field (`whole`: it sends every field), said by the plan, whose fields show only a
 * digest of the file (probe MP-1).
 */
function uploadedFile(kind: KindMeta, d: DesiredResource, fields: readonly FieldChange[], whole: boolean): string | undefined {
  if (!kind.fileFields) return undefined;
  for (const [field, pathKey] of Object.entries(kind.fileFields)) {
    const path = d.payload?.[pathKey];
    if (typeof path === 'string' && path !== '' && (whole || fields.some((f) => f.field === field))) return path;
  }
  return undefined;
}

/** A publish that makes more than one version says how many: a reviewer approves each (probe LQ-1). */
function versionCount(kind: KindMeta, publishes: readonly FieldChange[]): { versions?: number } {
  const versions = kind.versionsOf?.(publishes.map((f) => f.field)) ?? 1;
  return versions > 1 ? { versions } : {};
}

function sameField(kind: KindMeta, d: DesiredResource, l: LiveResource, field: string, state: CompareState): boolean {
  const liveValue = l.fields[field] ?? null;
  const desiredValue = d.fields[field];
  if (kind.sensitiveFields?.includes(field) === true) return digest(liveValue) === digest(desiredValue ?? null);
  if (pointsAway(d, l, field, state)) return false;
  return (kind.sameField?.(field, liveValue, desiredValue) ?? sameValue(liveValue, desiredValue)) || sameReference(d, l, field, state.ids);
}

/**
 * A reference whose live target this plan renames away from the name the file gives: the same
 * name, another object (rename term A to B and create a new A: a template naming A is re-pointed).
 */
function pointsAway(d: DesiredResource, l: LiveResource, field: string, state: CompareState): boolean {
  return renamedAwayNames(d, l, field, state) !== undefined;
}

/**
 * The objects a reference (or a list of them) points at live that this plan renames to names the
 * file does not give it: each one's live name → the name it gets.
 */
function renamedAwayNames(d: DesiredResource, l: LiveResource, field: string, state: CompareState): Map<string, string> | undefined {
  // Asked of every field of every matched object: most plans rename nothing.
  if (state.claimedAs.size === 0) return undefined;
  const live = l.refIds?.[field];
  if (live === undefined || live === null) return undefined;
  const refs = d.refs.filter((r) => r.field === field);
  if (refs.length === 0) return undefined;
  const liveIds = typeof live === 'string' ? [live] : Array.isArray(live) ? live : [];
  let away: Map<string, string> | undefined;
  for (const liveId of liveIds) {
    const claimed = typeof liveId === 'string' ? state.claimedAs.get(liveId) : undefined;
    const former = claimed === undefined ? undefined : state.formerNames.get(liveId as string);
    if (claimed === undefined || former === undefined || refs.some((r) => refKey(r.kind, r.key) === claimed)) continue;
    (away ??= new Map()).set(former, claimed.slice(claimed.indexOf(':') + 1));
  }
  return away;
}

/** A live value with the names of the objects this plan renames away given as they will be. */
function renamedIn(value: unknown, away: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return away.get(value) ?? value;
  if (Array.isArray(value)) return value.map((v) => renamedIn(v, away));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, renamedIn(v, away)]));
  return value;
}

/**
 * A reference to an object this plan replaces, or to one an earlier apply replaced (a re-point it
 * left undone), must be sent again, even though its name is the same.
 */
function repointed(d: DesiredResource, l: LiveResource, field: string, replaced: ReadonlySet<string>, { ids, pinned }: Pick<CompareState, 'ids' | 'pinned'>): boolean {
  if (l.staleRefs?.includes(field) === true) return true;
  // The same name, another object: two users of one e-mail, the files pinning one, the other set in the app (probe BE-1).
  const liveId = l.refIds?.[field];
  if (typeof liveId === 'string') {
    const ref = d.refs.find((r) => r.field === field);
    // A kind diffed before the one it names (the organization, its members) knows that one by its pin.
    const meant = ref === undefined ? undefined : (ids[refKey(ref.kind, ref.key)] ?? pinned.get(refKey(ref.kind, ref.key)));
    if (meant !== undefined && meant !== liveId) return true;
  }
  return replaced.size > 0 && d.refs.some((r) => r.field === field && replaced.has(refKey(r.kind, r.key)));
}

/** A reference field naming the object the live one already points at (renamed or not). */
function sameReference(d: DesiredResource, l: LiveResource, field: string, ids: Record<string, string>): boolean {
  const liveId = l.refIds?.[field];
  if (liveId === undefined || liveId === null) return false;
  const ref = d.refs.find((r) => r.field === field);
  return ref !== undefined && ids[refKey(ref.kind, ref.key)] === liveId;
}

/** What to do about two live objects of one identity: which one docket last synced, when it knows. */
function ambiguousHint(kind: KindMeta, found: readonly LiveResource[], key: string, records?: RecordedIds, named: 'declared' | 'undeclared' = 'declared'): string {
  // Named only by a reference, there is no document to pin yet.
  // A kind no file declares (the agreements service's users) cannot be pinned: only the app can tell them apart (second read SR83-4).
  const pin = named === 'declared' ? ', or pin one with `id:`' : kind.yamlKind ? `, or declare the one meant (\`kind: ${kind.yamlKind}\`) pinned with \`id:\`` : '; the files cannot name one of them by id';
  const syncedId = records?.idOf(key);
  const synced = found.find((f) => f.id === syncedId);
  // One last synced under another name: renamed in the app onto this one, which is not "two applies at once" (probes MM-7, NB-10).
  const moved = found.flatMap((f) => {
    const was = f.id === syncedId ? undefined : records?.keysWithId(f.id).find((k) => k !== key && k.startsWith(`${kind.name}:`));
    return was ? [`${f.id} was last synced as ${kind.name} ${quoteValue(was.slice(was.indexOf(':') + 1), 200)}, renamed in the app onto this name: rename it back there`] : [];
  });
  if (moved.length > 0) return `${moved.join('; ')}${synced ? `; docket last synced ${synced.id} under this name` : ''}${pin.replace(/^,/, ';')} (${found.map((f) => f.id).join(', ')})`;
  const which = synced ? `; docket last synced ${synced.id}` : '';
  // What the service lets a person do with the other one: a rule is deleted, a term or template only renamed (probe LY-3).
  const ids = found.map((f) => f.id).join(', ');
  // Two users under one e-mail are two people the service keeps apart, not two applies' creates (probe PT-1).
  if (kind.deletion === 'never') return `remove the one not wanted from the organization in the app${which}${pin} (${ids})`;
  const removal = kind.deletion === 'archive' ? 'archive (or rename)' : kind.deletion === 'delete' ? 'delete (or rename)' : kind.deletion === 'none' ? 'rename' : 'remove (or rename)';
  return `${removal} the one not wanted in the app (made twice by two applies at once, or by one killed and run again at once: the later one)${which}${pin} (${ids})`;
}

/**
 * The change with what apply sends, where it differs in type or spelling from the compared value
 * ("0" for 0; a mapping holding "3" for 3). Not a list: its items are shown one by one as compared.
 */
function withSent(kind: KindMeta, d: DesiredResource, f: FieldChange): FieldChange {
  // Asked for every field of every create: most kinds send what they compare.
  if (!kind.sentValue || f.after === SENSITIVE || Array.isArray(f.after)) return f;
  const sent = kind.sentValue(f.field, d);
  // Text written empty (`""`) compares as none, so the plan's after side is null where apply sends `""`.
  if (f.after === null) return sent === '' ? { ...f, sent } : f;
  if (sent === undefined || sent === null || Array.isArray(sent)) return f;
  if (typeof sent === 'object' ? typeof f.after !== 'object' || sameValue(sent, f.after) : JSON.stringify(sent) === JSON.stringify(f.after)) return f;
  return { ...f, sent };
}

function withSummary(kind: KindMeta, f: FieldChange): FieldChange {
  const summary = kind.describeField?.(f.field, f.before, f.after);
  return summary && summary.length > 0 ? { ...f, summary } : f;
}

function removeChange(kind: KindMeta, l: LiveResource, action: 'delete' | 'archive', parent?: Change['parent']): Change {
  const key = parent ? `${parent.key}/${l.name}` : l.key;
  return {
    id: changeId(action, kind.name, key),
    action,
    kind: kind.name,
    key,
    name: l.name,
    liveId: l.id,
    ...(parent ? { parent } : {}),
    fields: Object.entries(l.fields)
      .filter(([, v]) => v !== null && v !== undefined)
      .map(([field, before]) => ({ field, before, after: null })),
    refs: [],
    dependsOn: [],
    fingerprint: fingerprint(l),
    ...(action === 'delete' ? { irreversible: true } : {}),
  };
}

function groupBy<T, K>(items: readonly T[], keyOf: (item: T) => K): Map<K, T[]> {
  const out = new Map<K, T[]>();
  for (const item of items) {
    const key = keyOf(item);
    const list = out.get(key);
    if (list) list.push(item);
    else out.set(key, [item]);
  }
  return out;
}

/**
 * Undeclared objects holding a name a file declares, the file meaning another object by it (its
 * `id:` pin; an earlier upload of an attachment it pins): said as such, or the list would read as
 * the declared one being undeclared (probe GU).
 */
function namesakesNote(kind: KindName, unmatched: readonly LiveResource[], declared: ReadonlyMap<string, DesiredResource>, matched: ReadonlyMap<string, LiveResource>): string {
  const namesakes = unmatched.filter((l) => declared.has(l.key) && matched.get(l.key)?.id !== l.id);
  if (namesakes.length === 0) return '';
  const pinned = namesakes.every((l) => declared.get(l.key)?.pinId !== undefined);
  const which = namesakes.length === 1 ? `${quoteValue(namesakes[0]!.name)} is another ${kind} than the one` : `${namesakes.map((l) => quoteValue(l.name)).join(', ')} are other ${kind}s than those`;
  return `; ${which} the files declare by that name${pinned ? `, which ${namesakes.length === 1 ? 'its file pins' : 'their files pin'} by \`id:\`` : ''}`;
}

/** Whether a kind can change an object that exists (update, rename, publish), not only make one. */
function changesExisting(kind: KindMeta): boolean {
  return kind.actions === undefined || kind.actions.some((a) => a !== 'create' && a !== 'invite');
}
