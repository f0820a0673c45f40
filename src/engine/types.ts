/**
 * The engine's data model. Everything here is plain, serialisable data: desired and live state are
 * reduced by each kind to the same comparable shape, diffed into Changes, ordered, and stored in a
 * Plan that render and apply only read.
 */
import type { LockEntry } from '../config/lock.js';
import type { SourcePos } from '../diagnostics.js';
import type { KindName } from '../kinds/index.js';
import type { LandingGivenUp } from './landing.js';

export type { KindName };

export type Fields = Record<string, unknown>;

/** A reference from one resource to another by identity, resolved to an id at apply time. */
export interface Ref {
  kind: KindName;
  key: string;
  /** The field that holds the reference (for dependency and error messages). */
  field: string;
  source?: SourcePos;
  /** Its diagnostic path when more exact than the field's: an item of a list (`attachments[1]`). */
  path?: string;
  /** What the file writes there when it holds a placeholder (`${var.legal_lead}`, `${var.lead}@acme.example`); never saved in a plan. */
  written?: string;
}

/**
 * Which side moved since docket last saw an object in sync (an apply or a pull recorded it in
 * docket.lock.json; engine/sync.ts). Drift is a change on the live side.
 */
export type Direction =
  /** Both sides have it; live changed since the last sync, the files did not: drift. */
  | 'changed-live'
  /** Both sides have it; the files changed, live did not: pending, not drift. */
  | 'changed-in-files'
  /** Both sides have it and both changed since the last sync. */
  | 'changed-both'
  /** Both sides have it and docket has no record of the last sync, so it cannot tell. */
  | 'unknown'
  /** Live only, never synced (created in the app): drift. */
  | 'only-live'
  /** Live only, synced before: the files no longer declare it (pending). */
  | 'removed-in-files'
  /** Files only, never synced: new in the files (pending). */
  | 'only-in-files'
  /** Files only, synced before: removed in the app (drift). */
  | 'removed-live';

/** The direction of one changed field: which side differs from the last sync. */
export type FieldDirection = 'live' | 'files' | 'both' | 'unknown';

/** `drift:` of a playbook or rule: what plan, apply and pull do with live-side changes. */
export type DriftPolicy = 'adopt' | 'revert' | 'ignore';

/** Whether a direction is the files' own change (pending), not the live side's. */
export function isFilesSide(direction: Direction | undefined): boolean {
  return direction === 'changed-in-files' || direction === 'only-in-files' || direction === 'removed-in-files';
}

/** Whether a policy leaves live edits alone (adopt, ignore): apply never reverts them. */
export function leavesLiveEdits(policy: DriftPolicy | undefined): boolean {
  return policy === 'adopt' || policy === 'ignore';
}

/** Whether a policy keeps what the files say from pull (ignore, revert): pull writes no live edit under it. */
export function keepsFilesFromPull(policy: DriftPolicy | undefined): boolean {
  return policy === 'ignore' || policy === 'revert';
}

export interface ResourcePolicy {
  /** As written (own, or inherited from the parent); absent: the default, revert. */
  drift?: DriftPolicy;
  /** Fields never compared, sent (except on create) or pulled. */
  ignoreFields?: readonly string[];
}

export interface DesiredResource {
  kind: KindName;
  /** Identity, unique within the kind (e.g. `Inbound NDA/Term` for a rule). */
  key: string;
  /** Display name; also the name the object must carry live. */
  name: string;
  /** For children (rules): the parent's kind and key. Children are matched inside their parent. */
  parent?: { kind: KindName; key: string };
  /** Comparable desired values, already normalised by the kind. */
  fields: Fields;
  /** Values sent only when creating (a member's display name), shown on create, never compared. */
  createOnly?: Fields;
  /** Values the operations need but the plan never shows or compares (a definition's own text, file paths). */
  payload?: Fields;
  /** Partial resources manage only the fields present; owned resources declare every field. */
  partial: boolean;
  refs: Ref[];
  /** `id:` pin in the file, in lower case (as the services write ids and docket compares them). */
  pinId?: string;
  /** The pin as the file writes it, when its case differs: what errors quote. */
  pinIdWritten?: string;
  /** The name as the file writes it, when it is not the name (an e-mail in capitals): what errors quote. */
  nameWritten?: string;
  /** `renamed_from:` names in the file (names, not keys). */
  renamedFrom: string[];
  source: SourcePos;
  /** Where each field was written, for annotations and errors. */
  fieldSources: Record<string, SourcePos>;
  /** `drift:` and `ignore_fields:` of the resource (playbooks and rules). */
  policy?: ResourcePolicy;
  /** For a resource declared inside its document (a rule): its JSON pointer there (`/rules/3`). */
  pointer?: string;
  /** The document that declares it: file and 0-based index in the file (set when desired state is built). */
  document?: { file: string; index: number };
}

export interface LiveResource {
  kind: KindName;
  id: string;
  key: string;
  name: string;
  /** The live parent's id (rules: their playbook). */
  parentId?: string;
  fields: Fields;
  /** References this live object makes today (for ordering deletes after whatever stops referencing them). */
  refs: { kind: KindName; key: string }[];
  /**
   * For reference fields shown by name: what the live object holds there, as ids (field → an id, a
   * list of ids, or null). A reference to the same object is no change even when that object is
   * being renamed; a reference to an object this plan replaces shows these ids as "before".
   */
  refIds?: Record<string, unknown>;
  /**
   * For reference fields shown as the id the file writes: the same value by name, as a record
   * taken while the file named it holds it (an edit of the file's form is no edit in the app).
   */
  refNames?: Record<string, unknown>;
  /**
   * For a list of references re-pointed: the "before" to show instead of refIds, each entry by its
   * name but those naming an earlier upload, by id, so the one that moves is the one that reads apart.
   */
  refsShown?: Record<string, unknown>;
  /**
   * Reference fields that name, by id, an object docket itself replaced since (an attachment's
   * earlier upload): shown by the name of what replaced it, and re-pointed as the files' change.
   */
  staleRefs?: string[];
  /**
   * Of those, the ones whose earlier upload was, to the files, the object they name: it was
   * renamed away (`Sec Old` from `Sec`, a new `Sec` uploaded), so the name it reads by moved only
   * because docket replaced it. Still the files' re-point.
   */
  repointOwed?: string[];
  /** Fields the service cannot give back and docket has no record of (field → reason); never compared. */
  unknownFields?: Record<string, string>;
  /** What the service says beyond the compared fields (a member's display name), for export. */
  extra?: Record<string, unknown>;
  /**
   * The object exists, but the service does not say the id references must send (a member seen only
   * in an invitation that names no user): a reference to it is a plan error saying this.
   */
  idUnknown?: { message: string; hint: string };
  /**
   * The id is known only while something live names the object (a member a reviewer field shows,
   * where the service has no users list): a reference to it is a warning saying how to keep it.
   */
  idWhileNamed?: { message: string; hint: string };
  /** For versioned objects: the version number read, so a publish needs no read of its own. */
  version?: number;
  /** When the service says the object last changed (`updated_at`), for drift reports. */
  updatedAt?: string;
  /** Other ids a file's `id:` may pin to mean this object (an attachment upload that replaced the pinned one). */
  pinnedAs?: string[];
  /**
   * Fields whose live value is docket's own write that did not take (a Word file it published whose
   * conversion failed): what is owed is the files' change, not an edit made live.
   */
  failedWrites?: string[];
}

export type Action = 'create' | 'update' | 'rename' | 'publish' | 'delete' | 'archive' | 'invite' | 'upload';

/** The actions that bring a new object into being (a member is invited, an attachment uploaded). */
export const CREATE_ACTIONS: readonly Action[] = ['create', 'invite', 'upload'];

export interface FieldChange {
  field: string;
  before: unknown;
  after: unknown;
  /** A readable field-level account of a structured change (a template definition), shown instead of before → after. */
  summary?: string[];
  /**
   * What apply sends, where the files write it otherwise than it is compared (a template parameter
   * written `"0"`, compared by value as 0): shown instead of `after`.
   */
  sent?: unknown;
  /** Which side changed since the last sync (updates of objects both sides have). */
  direction?: FieldDirection;
  /** Read only (drift, pull): a difference apply cannot send (unsupported-change), so it reverts nothing of it. */
  unsendable?: true;
}

export interface Change {
  /** Stable id within a plan: `action:kind:key` (`@liveId` after it for each of two live objects of one name removed). */
  id: string;
  action: Action;
  kind: KindName;
  key: string;
  name: string;
  /** Live id of the object this change acts on (absent for creates). */
  liveId?: string;
  /** For children: the parent's key and, when it exists live, its id. */
  parent?: { kind: KindName; key: string; liveId?: string };
  /** Field-level before/after (for a create: every declared field, before null). */
  fields: FieldChange[];
  /** Full desired fields, for operations that need more than what changed (creates). */
  desired?: Fields;
  /**
   * Live values, as the service gave them when planned, that an update sends again unchanged: the
   * keys a file leaves out of a nested object the service may replace whole on update.
   */
  resend?: Record<string, unknown>;
  refs: Ref[];
  dependsOn: string[];
  source?: SourcePos;
  /** Cannot be undone (permanent delete, version publish). */
  irreversible?: boolean;
  /** A removal of a live object whose name another of its kind holds too (one the files declare, or another removed): shown with its live id. */
  namesake?: true;
  /** Fingerprint of the live object when planned; `null` for creates (the key must still be free). */
  fingerprint: string | null;
  /** For a removal of a parent: the fingerprint of the children the plan read of it, which go with it (fingerprintRemovedChildren). */
  childrenFingerprint?: string;
  /** For a publish: the live version number when planned (the new version is the next one). */
  liveVersion?: number;
  /** For a publish that makes more than one version (a custom template's definition and terms link): how many. */
  versions?: number;
  /** The file of the configuration directory it sends whole (an attachment's PDF, a Word term's document): its fields show only a digest of it. */
  uploads?: string;
  /** Which side moved since docket last saw the object in sync. */
  direction?: Direction;
  /** When the live object last changed, as the service says (`updated_at`). */
  liveUpdatedAt?: string;
  /** For drift a `drift:` policy holds back from the plan (`Plan.held`): that policy. */
  policy?: 'adopt' | 'ignore';
}

export interface UndeclaredSummary {
  kind: KindName;
  count: number;
  names: string[];
  /** Why docket leaves them alone, e.g. `no delete over the API` or `prune is off`. */
  reason: string;
  /** What a person may want to act on: `--prune` would archive them. Listed by name in the plan. */
  prunable?: boolean;
  /** Kinds docket never removes (members): counted only with -v, so seeded users are no surprise. */
  quiet?: boolean;
  /** How many of them a pending document names (an export's, waiting for its file): plan says how to adopt them, as drift does (probe RI-3). */
  pending?: number;
}

/** A file docket cannot compare because it has no lock entry; `apply --adopt-files` records it as live. */
export interface AdoptableFile {
  kind: KindName;
  key: string;
  liveId: string;
  field: string;
  file: string;
  sha256: string;
  /** The version live holds (a Word term's), recorded as the one the file became. */
  version?: number;
  reason: string;
  /**
   * The files' values of the other fields the plan could not compare (an attachment's
   * description), recorded with the file, as the lock entry's fields of those names.
   */
  values?: Record<string, unknown>;
  /** Only `values` are unknown: the file is recorded already, and they are added to its entry. */
  valuesOnly?: boolean;
  /** The digest of the entry the plan read under this key (null: none): another since makes a saved plan stale. */
  lock_was?: string | null;
}

/**
 * A docket.lock.json entry to rewrite because an upload an interrupted apply started was settled
 * by reading the service: found live (recorded), or found not to have happened (dropped).
 */
export interface LockUpdate {
  kind: KindName;
  key: string;
  /** The entry as it should be; null removes it. */
  entry: LockEntry | null;
  /** What was found, for the plan's output. */
  reason: string;
  /** The `since` of the pending mark this update gives up: a saved plan applied later gives up that mark only. */
  pending_since?: string;
  /** The digest of the entry the plan read under this key (null: none): another since makes a saved plan stale. */
  lock_was?: string | null;
  /**
   * A write found to have happened (a Word publish a killed apply made): the compared fields it
   * set, as that apply would have recorded them, so its change reads as docket's, not the app's.
   */
  synced?: Record<string, unknown>;
}

/** An upload an interrupted apply started whose outcome the service cannot tell (attachments). */
export interface UncertainUpload {
  kind: KindName;
  key: string;
  /** The compared field the upload would have set (its value is the file's digest). */
  field: string;
  file: string;
  sha256: string;
  since: string;
  /** The entry once the uncertainty is given up (the confirmed part, or null). */
  settled: LockEntry | null;
  /** Why no read can tell, in the kind's words (`attachments cannot be listed over the API`). */
  unreadable: string;
  /** The service answered the upload without naming what it made: it is live, its id unknown. */
  answered?: true;
  /** The ids of the live object the upload takes the place of (PendingUpload.replaces). */
  replaces?: readonly string[];
  /** A kind that can read it back, but not yet: started moments ago, it may still land (a Word term's create or publish). */
  landing?: true;
  /** Other compared fields the upload set, as sent (an attachment's description): files that say otherwise want another upload. */
  sentWith?: Readonly<Record<string, unknown>>;
}

export interface PlanTarget {
  review?: { url: string; organization_id: string; path_style?: 'nested' | 'flat' };
  /** `organization_id`: the agreements key's organization, once read (plans made before it was recorded lack it). */
  agreements?: { url: string; organization_id?: string };
  emulator: boolean;
}

export interface Plan {
  format_version: 1;
  docket_version: string;
  /** A digest of the plan schema of the docket that made it: only a docket of the same one applies it (cli/plan-format.ts); a build before it wrote none. */
  plan_format?: string;
  created_at: string;
  target: PlanTarget;
  environment?: string;
  config_digest: string;
  /** Changes in execution order (a topological order of `dependsOn`). */
  changes: Change[];
  /** Ids known at plan time, `kind:key` → live id, used to resolve references during apply. */
  ids: Record<string, string>;
  summary: Partial<Record<Action, number>>;
  warnings: string[];
  undeclared: UndeclaredSummary[];
  /** Files the plan cannot compare (see AdoptableFile). */
  adoptable?: AdoptableFile[];
  /** docket.lock.json entries apply rewrites, even when nothing else changes (see LockUpdate). */
  lock_updates?: LockUpdate[];
  /** Landing marks this plan gives up (engine/landing.ts): applied later, it forgets those marks only. */
  landing_given_up?: LandingGivenUp[];
  /** Present when `--target` limited the plan. */
  targets?: string[];
  /** Kinds whose removals (or creates again of objects removed live) exceed `safety.max_delete_fraction`: apply refuses them unless `--force`. */
  guard?: { kind: KindName; removals: number; live: number; threshold: number; parent?: string; recreates?: true }[];
  /** Live-side drift a `drift: adopt` or `drift: ignore` policy keeps out of `changes` (apply never makes these). */
  held?: Change[];
  /** Set by `plan --out`: an HMAC of the rest under the targeted services' API keys (engine/seal.ts). */
  seal?: string;
}

export function refKey(kind: KindName, key: string): string {
  return `${kind}:${key}`;
}

/** After the name of an object removed whose name another of its kind holds too: which one it is, by its live id (probe YE-2). */
export function namesakeNote(c: Pick<Change, 'namesake' | 'liveId'>): string {
  return c.namesake && c.liveId !== undefined ? ` (id ${c.liveId})` : '';
}

/** Each `a/b` a child key (or a child's former name) `a/b/c` could name its parent by: names may hold `/` too. */
export function prefixesOf(key: string): string[] {
  const out: string[] = [];
  for (let i = key.indexOf('/'); i > 0; i = key.indexOf('/', i + 1)) out.push(key.slice(0, i));
  return out;
}

/** A pending document's other key (cli/pending-documents.ts): its kind and the id it pins, found whatever the object is named live now. */
export function pendingIdKey(kind: KindName, id: string): string {
  return `${kind}#${id.toLowerCase()}`;
}

/** The pending document (`*.yaml.pending`) that names a live object, by its name or by the id it pins, if one does. */
export function pendingDocumentOf(pending: ReadonlyMap<string, string> | undefined, l: Pick<LiveResource, 'kind' | 'key' | 'id'>): string | undefined {
  return pending?.get(refKey(l.kind, l.key)) ?? pending?.get(pendingIdKey(l.kind, l.id));
}

/** The `kind:key` identities a declared object had under the names its `renamed_from` gives. */
export function formerKeys(d: Pick<DesiredResource, 'kind' | 'parent' | 'renamedFrom'>): string[] {
  return d.renamedFrom.map((old) => formerKey(d, old));
}

/**
 * The `kind:key` each top-level object a plan renames has live now, by its declared `kind:key`: a
 * write an earlier apply sent under that name is this object's, though the files do not say they
 * renamed it from there (they took back a rename that apply made: probe HE-1). A child's live key
 * depends on its parent's too, and no write of a child is marked.
 */
export function liveKeysOfRenamed(changes: readonly Change[]): Map<string, string> {
  const out = new Map<string, string>();
  for (const c of changes) {
    const before = c.fields[0]?.before;
    if (c.action === 'rename' && !c.parent && typeof before === 'string') out.set(refKey(c.kind, c.key), refKey(c.kind, before));
  }
  return out;
}

/** The `kind:key` identity of an object of `d`'s kind and scope (its parent) named `name`: what a former name of `d` was. */
export function formerKey(d: Pick<DesiredResource, 'kind' | 'parent'>, name: string): string {
  return refKey(d.kind, d.parent ? `${d.parent.key}/${name}` : name);
}

/** `not-started`: the apply was interrupted (or ran out of time) before it could start the change. */
export type ResultStatus = 'done' | 'failed' | 'skipped' | 'not-started';

export interface ChangeResult {
  changeId: string;
  status: ResultStatus;
  /** Failure message, or for skipped: which failed change it depended on (by id; see `blockedBy`). */
  message?: string;
  /** For skipped: the failed change it depended on, and the skipped one it depended on it through (if not directly). */
  blockedBy?: { failed: string; through?: string };
  /** For done: what happened besides the change (another apply created the same object at the same time). */
  note?: string;
  /** For failed: what to do about it, as the error said (a redirect's new URL, the key variable a 403 names). */
  hint?: string;
  /** For failed: the service may have done it and nothing can read it back (an attachment upload), so a plain re-run stops at it. */
  outcomeUnknown?: true;
  /** For failed: no answer came in time and the service may still be carrying it out, so a re-run at once could do it twice. */
  pending?: true;
  /** For failed: the request that failed surely changed nothing (never sent, or refused by every attempt); see DocketError.notCarriedOut. */
  unchanged?: true;
  /** For failed: the fields an earlier request of the change wrote live before a later one failed (a definition published before the term link). */
  written?: string[];
  /** For failed: the object it acts on is no longer live (404), so a saved plan of it is stale. */
  gone?: true;
  /** For a done create: a concurrent apply created the same object, and its copy is the one kept. */
  keptOther?: true;
  ms: number;
}

export interface ApplyReport {
  results: ChangeResult[];
  done: number;
  failed: number;
  skipped: number;
  /** Changes not started because the apply was stopped (a signal, or its time budget). */
  notStarted?: number;
  /** Why the apply stopped before the end, when it did. */
  stopped?: string;
  /** Every change was started (made, unless it failed); only the checks for duplicates at the end were stopped, or could not be made in time. */
  checksCutShort?: boolean;
  /** Wall time of the whole apply in milliseconds. */
  ms: number;
}
