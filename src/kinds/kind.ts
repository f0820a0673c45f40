/**
 * The one interface a resource kind implements, and the contexts the engine gives it. Everything
 * docket knows about a kind lives in its module: identity, files, services, reads, writes, export.
 * Adding a kind means one module implementing this, its schema, and one line in ./index.ts.
 */
import type { Diagnostics } from '../diagnostics.js';
import type { ProjectConfig, ResourceDoc } from '../config/types.js';
import type { DataFiles } from '../config/data-files.js';
import type { ConfirmedUpload, LockFile, PendingUpload } from '../config/lock.js';
import type { KindMeta } from '../engine/diff.js';
import type { Action, Change, DesiredResource, LiveResource, LockUpdate, UncertainUpload } from '../engine/types.js';
import type { ServiceName } from '../api/types.js';
import type { ReviewApi } from '../api/review.js';
import type { AgreementsApi } from '../api/agreements.js';
import type { KindName } from './index.js';
import type { SyncedIds } from './support/declared.js';

/** The service clients a command has; a kind asks only for the service it lives on. */
export interface Services {
  review(): ReviewApi;
  agreements(): AgreementsApi;
  /**
   * Tells the clients which ids objects had before the apply (the plan's): a create answered with
   * one of them named another object (a gateway's mix-up), so the object made is looked for by name.
   */
  knowExistingIds?(isExisting: (id: string) => boolean): void;
}

/** What a kind may read while turning documents into desired resources (no I/O). */
export interface DesiredContext {
  project: ProjectConfig;
  /** Data files named by documents, already read (and YAML ones parsed), by root-relative path. */
  files: DataFiles;
  /** For a kind declared inside another's document (rules): the resource that document declares. */
  parent?: DesiredResource;
}

export interface FetchContext {
  services: Services;
  /** The desired resources, so a kind can skip reads nobody needs; undefined means read everything (export). */
  declared?: DesiredResource[];
  /** Read every object in detail even so (pull writes the undeclared ones into files). */
  readAll?: boolean;
  /** Kinds the files dropped every object of, read only for those objects (drift, pull): not whole, even with readAll. */
  droppedOnly?: ReadonlySet<KindName>;
  /**
   * The kinds whose objects the files dropped since the last sync are read in detail too (a
   * playbook: its rules): every kind for drift, the pruned ones for a plan that prunes, so the
   * live edits a removal would take are said.
   */
  readDropped?: ReadonlySet<KindName>;
  /** Export: the services the source configuration names; a kind on both reads only their parts. */
  exportServices?: ReadonlySet<ServiceName>;
  /** The live ids docket last synced declared objects under (docket.lock.json), asked once the target is known. */
  synced?: () => SyncedIds | Promise<SyncedIds>;
  /**
   * With `--target`: per parent kind, the keys of the declared parents whose children alone are
   * read (engine/target-scope.ts TargetScope). A parent kind absent: every declared one's are.
   */
  targetedParents?: ReadonlyMap<KindName, ReadonlySet<string>>;
  /** docket.lock.json: what docket uploaded before (files the services cannot give back). */
  lock: LockFile;
  /** `apply --adopt-files`: a file whose live version someone else published may be recorded as it, not published again. */
  adoptFiles?: boolean;
  /** Another kind's live objects, read once per command; a kind lists the kinds it asks for in `reads`. */
  live(kind: KindName): Promise<LiveResource[]>;
  /** Memoised shared reads (e.g. one playbook list), so kinds that need the same collection read it once. */
  memo<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Runs independent reads with the shared concurrency bound. */
  parallel<T, R>(items: T[], fn: (item: T) => Promise<R>): Promise<R[]>;
  /** A lock entry the read settled (an interrupted upload found live, or found not to have happened). */
  settle(update: LockUpdate): void;
  /** An interrupted upload the service cannot tell the outcome of. */
  uncertain(upload: UncertainUpload): void;
  /**
   * Says the read saw only the objects the service lets docket find (members without a users list):
   * one the files declare that it did not find may still be live, so it is not "removed live".
   */
  seenInPart(kind: KindName): void;
  /** Something the read found that the plan says as a warning, changing nothing (a conversion under way). */
  note?(text: string): void;
}

/**
 * How creates of a kind stay one object per identity when another apply creates at the same time
 * (engine/race.ts). `siblings` reads the change's scope fresh (through `readAfterWrites`).
 */
export interface RaceGuard {
  /** The live objects with the change's identity, from a fresh read of its scope. */
  siblings(change: Change, ctx: ExecContext): Promise<{ id: string; key: string; createdAt?: string }[]>;
  /** Takes this run's duplicate out of the identity; says what it did (`archived`, `deleted`, `renamed aside`). */
  setAside(duplicate: { id: string; key: string }, change: Change, ctx: ExecContext): Promise<string>;
  /** Read before creating too: the kind cannot remove a duplicate, only rename it aside. */
  lookFirst?: boolean;
  /**
   * Nothing refers to the kind's ids within an apply, so its checks wait for the end (one read per
   * scope). Other kinds' creates that no change of the apply refers to wait too.
   */
  checkAtEnd?: boolean;
}

export interface ExecContext {
  services: Services;
  /** Project settings (`agreements.actor` and the like). */
  project: ProjectConfig;
  /** The live id of a referenced object: known at plan time or created earlier in this apply. */
  resolveId(kind: KindName, key: string): string;
  /** Record the id of an object this change created, for the operations that depend on it. */
  registerId(kind: KindName, key: string, id: string): void;
  /**
   * Record the object a create returned. One the API client found by reading (the create's answer
   * was lost or named no id) may be another apply's copy: its race check then sets aside every
   * newer copy, not only its own.
   */
  registerCreated(kind: KindName, key: string, created: { id: string }): void;
  /** Record that the object was created but the service did not say its id: dependents fail with `why`. */
  registerUnknownId(kind: KindName, key: string, why: { message: string; hint: string }): void;
  /**
   * Record that the id docket has for an object is another's, as a write's answer showed: no
   * record is written for it, and later changes naming it fail with `why`.
   */
  distrustId?(kind: KindName, key: string, why: { message: string; hint: string }): void;
  /**
   * Record fields a write's answer holds otherwise than sent, each with the value the service
   * holds as the kind reads it (undefined when the kind cannot say: a reviewer answered by an id).
   * They are not in sync: the sync record holds the service's value, so the next plan reads the
   * files' value as still owed, and a later edit in the app as made on both sides.
   */
  registerUnkept?(kind: KindName, key: string, held: Readonly<Record<string, unknown>>): void;
  /** The fields the object's `ignore_fields:` leaves out of every plan. */
  ignoredFields?(kind: KindName, key: string): readonly string[];
  /** The id the object's document pins with `id:` (lower case), if any. */
  pinnedId?(kind: KindName, key: string): string | undefined;
  /** The key of the object of `kind` this run knows by `id` (a member's e-mail), if any. */
  keyOfId?(kind: KindName, id: string): string | undefined;
  /**
   * Record fields a change made of several requests has written, as each request succeeds: when a
   * later one fails, the sync record still learns them (else the next plan reads a later edit in
   * the app to them as made on both sides, and pull will not take it).
   */
  registerWritten?(kind: KindName, key: string, fields: readonly string[]): void;
  /** Whether an id is of an object live before this apply, or one its creates made (any letter case). */
  isKnownId?(id: string): boolean;
  /** Reads a data file for upload, refusing it when it changed since the plan. */
  readFile(path: string, sha256: string): Promise<Uint8Array>;
  /**
   * Records in docket.lock.json, before the request, an upload about to be sent: a run killed
   * before the answer then knows to look for it instead of sending it again. Resolves once written.
   */
  recordPending(kind: KindName, key: string, pending: Omit<PendingUpload, 'since'>): Promise<void>;
  /**
   * Drops the pending mark of an upload the service surely did not carry out (the error's
   * `notCarriedOut`), so the next plan sees a plain upload, not one that may exist. Resolves once written.
   */
  forgetPending(kind: KindName, key: string): Promise<void>;
  /**
   * Records an upload the service confirmed (clearing its pending mark), dropping the entry of the
   * upload it replaces. Resolves once written.
   */
  recordFile(kind: KindName, key: string, entry: ConfirmedUpload, replacesId?: string): Promise<void>;
  /** The value of a sensitive field, which plans never hold (read from the configuration at apply time). */
  sensitive(kind: KindName, key: string, field: string): unknown;
  /**
   * Reads a collection this apply's own writes change (the review users after an invite): the read
   * sees every write the caller finished before asking, and callers asking at the same time share it.
   */
  readAfterWrites<T>(key: string, load: () => Promise<T>): Promise<T>;
  /** Waits (polling for docx conversion); injected so tests need not wait. Ends early once the apply is stopping. */
  sleep(ms: number): Promise<void>;
  /** The apply was asked to stop (Ctrl-C, SIGTERM, its budget): waits that only confirm what is done end now. */
  stopping(): boolean;
}

/** What a kind's `toConfig` gives export (and `pull`) for one live object. */
export interface ConfigDocument {
  /** The YAML document, keys in the order to write them. */
  document: Record<string, unknown>;
  /** Data files beside it (names relative to the document's folder, as the document names them). */
  dataFiles?: { name: string; content: string }[];
  /** A file the services cannot give back: the document is written `.pending` until the user adds it. */
  missing?: { name: string; what: string; sourceFile?: string; sourceSha256?: string; publishedAgain?: true };
  notes?: string[];
  /** Nothing worth writing (only the notes are reported). */
  empty?: boolean;
}

export interface ConfigContext {
  /** The file-name-safe name export gave this object (`<slug>.yaml`), for naming its data files. */
  slug: string;
  /** The folder its document goes to, relative to the configuration root (`custom-terms`), for messages. */
  dir: string;
  /** The source configuration's settings (`agreements.actor`, say). */
  project: ProjectConfig;
  /** The live objects of a kind (template parameters naming attachments, say). */
  live(kind: KindName): LiveResource[];
  /** Whether the kind was read (an empty `live` then means none live); absent: not known. */
  read?(kind: KindName): boolean;
  /** docket.lock.json's entries: where uploaded files came from. */
  lock: LockFile;
  /** A JSON Schema of docket's schemas/ folder, by file name (template parameter defaults). */
  schema(file: string): unknown;
  /** Export: whether this run writes the documents of a kind (the attachments a template names, say). */
  writes?(kind: KindName): boolean;
  /** `docket pull`: notes speak of the files and docket.lock.json here, not of a source configuration or documents it writes. */
  pulling?: boolean;
  /** Pull: the name of an object the files declare, by live id (an attachment a new template names); export has none. */
  declaredName?(kind: KindName, id: string): string | undefined;
}

/**
 * Where `docket pull` writes one changed field of a live object: a value at a pointer of the
 * object's own document (`/rules/3` for a rule is the base; `exact`: the field compares scalars by
 * type too, and text with its final line breaks, so a number live holds is written as a number
 * where the file quoted it, and text as live has it, whatever the file's convention), a data file's
 * new text (named by the document, relative to its folder; `yaml`: a definition, compared so
 * throughout), or why it cannot. `value: undefined` takes the key out of the file; `noneByHand`:
 * no value of a `${…}` holding that key stands for none there (a reference, a number), so a person
 * deletes it.
 */
export type PullField =
  | { pointer: string; value: unknown; exact?: boolean }
  | { pointer: string; value: undefined; noneByHand: true }
  | { file: string; text: string; yaml?: boolean }
  /** `fromApp`: the advice is to save the app's version over the file (pull checks no other object names that file). */
  | { cannot: string; fromApp?: true };

/** Fields of a document that name a data file, and what the file must hold. */
export type DataFileContent = 'text' | 'yaml' | 'docx' | 'pdf';

/** Where export writes a kind: a file per object in a folder, or every object in one file. */
export type KindLayout = { folder: string } | { file: string };

export type Deletion =
  /** Never deleted by docket (organization, member). */
  | 'never'
  /** The service has no delete: undeclared objects are reported. */
  | 'none'
  /** Archived (soft delete) only with prune. */
  | 'archive'
  /** Permanently deleted when removed from a declared parent. */
  | 'delete';

export interface KindModule<N extends string = string> extends Omit<KindMeta, 'name'> {
  readonly name: N;
  /** The `kind:` value in YAML; absent for kinds declared inside another (rules) or never declared. */
  yamlKind?: string;
  /** Title for plan output, plural: `Playbooks`. */
  title: string;
  /** For counts: `1 playbook`, `2 playbooks`. */
  noun: readonly [one: string, many: string];
  service: ServiceName | 'both';
  /** NOTE(api): a feature the service may have off for an organization (404 on every path): export leaves the kind out then. */
  featureGated?: true;
  /** For a kind on both services: the service a field lives on (its sync record is kept there). */
  fieldService?(field: string): ServiceName;
  /** File name in schemas/ validating this kind's documents. */
  schema?: string;
  deletion: Deletion;
  /** The actions this kind can execute; a plan never holds another one. */
  actions: readonly Action[];
  /** Other kinds whose live objects this kind's fetch asks for (`ctx.live`). */
  reads?: readonly KindName[];
  /**
   * Fields whose value names an object of another kind by its name (a custom template's
   * \`custom_term\`), alone or as a list (a template's \`attachments\`): the sync records of an object
   * the files dropped follow a rename of what they name (sync.ts followRenamesInDropped).
   */
  namesByName?: Readonly<Record<string, KindName>>;
  /** Document fields that name data files (relative to the document), and what each must hold. */
  dataFiles?: Readonly<Record<string, DataFileContent>>;
  /** `kind:` values people write for this kind (the app's or the API's words; lower case letters only, singular), with what to write instead. */
  otherNames?: Readonly<Record<string, string>>;
  /**
   * An upload whose answer was lost cannot be read back (attachments cannot be listed): the next
   * plan stops at its pending mark until the person says whether it is live. Other kinds' marks
   * are settled by the next plan's read.
   */
  uploadsUnreadable?: true;
  /**
   * The code of the warning toDesired gives a document of the kind that declares nothing (an
   * Organization writing no key): such a document is still there, so the kind is not one the
   * files stopped declaring.
   */
  declaresNothingCode?: string;
  /** Fields never rendered or saved in a plan; compared by digest, read from the files at apply time. */
  sensitiveFields?: readonly string[];
  /** An identity as written on the command line or in a reference → the key it matches (e-mails: lower case). */
  keyOf?(text: string): string;
  /** For a kind declared inside its parent's documents: the parent's field that lists it (`rules`). */
  parentField?: string;
  /** Where export writes this kind; kinds without one are exported with their parent, or not at all. */
  layout?: KindLayout;
  /** What export always says about this kind (what it cannot export, and why). */
  exportNotes?: readonly string[];
  /**
   * What an export that writes no documents of this kind (`--kind`) says of its live objects that
   * the documents it writes name (`named`: their keys), where those documents need more than the name.
   */
  unwrittenNotes?(live: readonly LiveResource[], named: ReadonlySet<string>): string[];
  /** For a kind drift and pull compare only where the files declare it: what `--kind` of it compares. */
  comparedOnlyDeclared?: string;
  /** The field the `name-too-long` hint points to: it can hold what a name too long cannot. */
  overflowField?: string;
  /** A name that is something else, what it is called and how long it may be (a member's is an e-mail); its schema checks its form. */
  nameAs?: { word: string; maxLength: number };
  /** Turns one validated document into desired resources, adding rule violations to `diag`. */
  toDesired?(doc: ResourceDoc, diag: Diagnostics, ctx: DesiredContext): DesiredResource[] | Promise<DesiredResource[]>;
  /** The services this kind's declared resources need (default: its `service`; `both` kinds decide by fields). Undefined `declared`: export. */
  servicesFor?(declared: DesiredResource[] | undefined): ServiceName[];
  /** Reads every live object of the kind. */
  fetch(ctx: FetchContext): Promise<LiveResource[]>;
  /** One live object as the document (and data files) that declare it, so that plan on it shows no change. */
  toConfig?(live: LiveResource, ctx: ConfigContext): ConfigDocument;
  /**
   * Where `docket pull` writes a changed field, given the document as written (default: toConfig's
   * value at the field's path, `a.b` as `/a/b`; absent there, none for an owned kind and the live
   * value for a partial one).
   */
  pullField?(field: string, live: LiveResource, written: Record<string, unknown>, ctx: ConfigContext): PullField | undefined;
  /** Its writes are recorded against `agreements.actor`, which must be a user of the agreements service. */
  recordsActor?: true;
  /** Fields whose value is a file only the user has (the services cannot give it back): pull says how to put it in place, and drift does not offer pull for them. */
  userFiles?: readonly string[];
  /**
   * Whether pull leaves this field's live value (its pullField says `cannot`) for a reason the
   * declared resource and the live objects tell (no file text): drift then does not offer pull.
   */
  pullLeaves?(field: string, live: LiveResource, declared: DesiredResource, liveOf: (kind: KindName) => readonly LiveResource[]): boolean;
  /**
   * A pulled list or mapping as `docket pull` writes it over `current` (the field's value as written
   * in the document `written`): the values in it the kind compares equal keep their spelling (a
   * fee's `".5"` beside an edited description). Default: as pulled.
   */
  keepWritten?(field: string, current: unknown, pulled: unknown, written: Record<string, unknown>, expand?: (text: string) => string): unknown;
  /** A reference to a key of this kind that exists neither in the files nor live; `declared` asks the files for a `kind:key`. */
  describeMissing?(key: string, declared: (kindKey: string) => boolean): { message: string; hint: string };
  /** For a kind never declared: the declared object (`kind:key`) that makes the one of `key` (an agreements user's Member, whose invitation makes it). */
  declaredAs?(key: string): string;
  /** Runs one planned change against the service; a string it resolves to is a note for the report. */
  execute(change: Change, ctx: ExecContext): Promise<string | void>;
  /** Creates that stay one per identity under concurrent applies; absent for kinds the services dedupe or cannot list. */
  race?: RaceGuard;
}
