/**
 * `docket pull`, the pure part: which live-side differences to adopt, and the files that adopt
 * them. Every field that moved live is written where the files declare it (the kind says where:
 * `pullField`, else its export document's value at the field's path); a rule created live goes
 * into its playbook's `rules:` where its live order puts it; one removed live leaves its file; an
 * object no file declares gets a file of its own, named as `docket export` would. What cannot be
 * pulled is said, never guessed: a `${var}` value, a Word file or PDF, a field both sides changed,
 * an object whose `drift:` policy is revert or ignore. No I/O: files come in as text.
 */
import type { SourcePos } from '../diagnostics.js';
import { conflictMarkers, markersNamed } from '../config/merge-conflict.js';
import { resolveDataPath } from '../config/data-files.js';
import type { LockFile } from '../config/lock.js';
import type { ProjectConfig } from '../config/types.js';
import { canonicalJson } from '../engine/canonical.js';
import { changedSinceRecord, recordOfDeclared, childrenEditedInFiles, childrenKeptByPolicy, childrenEditedLive, droppedEditedLive, editedLiveChildren, editedLiveSince, governingPolicy, heirsOf, isDrift, liveRenames, liveSide, movedFromOf, renamedOnto, syncedRecordOf, type ChildWork, type LiveRenames } from '../engine/direction.js';
import { childrenLookup } from '../engine/children.js';
import { droppedFromFiles } from '../engine/drift.js';
import { matchedToDeclared } from '../engine/matched.js';
import { fieldHash, parentPrefixOf, type SyncRecord, type SyncState, type SyncUpdates } from '../engine/sync.js';
import { CREATE_ACTIONS, formerKey, keepsFilesFromPull, pendingDocumentOf, refKey, type Change, type DesiredResource, type Direction, type KindName, type LiveResource, type Plan, type Ref } from '../engine/types.js';
import { buildExport, type SchemaPaths } from '../export/index.js';
import type { AnyKind } from '../kinds/index.js';
import type { ConfigContext, PullField } from '../kinds/kind.js';
import { isPlainObject, withoutKey } from '../util/plain.js';
import { ignoredFieldsWritten, settingsWritten, withoutOwnSettings, withSettings, type WrittenSettings } from '../kinds/support/policy.js';
import type { Document } from 'yaml';
import { quoteValue } from '../config/quote.js';
import { literalPlaceholders, literalText, placeholderFit, placeholderParts, variablesCouldGive, variablesIn } from '../config/interpolate.js';
import { followsSwappedName, movedFromDeclared, movedLiveOntoDeclared, syncedAsAnotherDeclared } from './moved-live.js';
import { keyInFileName, refusedLiveValue } from './live-value-refusals.js';
import { lookAlikeDeclared, sharedLiveNames } from './name-refusals.js';
import { joinPointer, parseWithPositions, pointerToPath } from '../config/yaml-positions.js';
import { valueSourceOf } from '../kinds/support/positions.js';
import type { DocumentProblem } from '../config/load.js';
import { isTestFile } from '../config/discover.js';
import { normName } from '../engine/normalize.js';
import { testNamesOf } from '../kinds/support/test-subjects.js';
import { RENAME_IN_FILE_CODES, SETTING_CODES } from '../kinds/support/fixed-in-files.js';
import { nameKey, ruleResolver } from '../testing/match.js';
import { testNames } from '../testing/names.js';
import { formerNames, setAt } from './values.js';
import { headerModeline } from '../kinds/support/definition-text.js';
import { fitsJson, jsonLike, jsonObjectOf } from './json-file.js';
import { isRecord } from '../kinds/support/definition-model.js';
import { activeFileOf } from '../config/pending.js';
import { valueAt } from '../config/value-at.js';
import { addsToFlowList, asEdited, documentValues, editYaml, parseForEdit, removedBefore, writesNoFinalBreak, type YamlEditProblem } from './yaml-edit.js';
import { addTo } from '../util/multi-map.js';
import { bashWord } from '../util/shell-word.js';
import { declaredByKey, historyKeys } from './history-keys.js';
import type { KeyFinder } from '../config/api-keys.js';
import { endsLinesInLoneCr, lineBreakOf } from '../util/line-break.js';

export interface PullInput {
  plan: Plan;
  desired: readonly DesiredResource[];
  /** Every live object read, rules of undeclared playbooks included, in the services' order. */
  live: readonly LiveResource[];
  /** The children `--target` names, or whose parent it names (none given: every child). */
  childInScope?: (child: LiveResource & { parent: { kind: KindName; key: string } }) => boolean;
  /** Whether `--target`s name an undeclared object itself (none given: all), not only a child of it. */
  named?: (o: { kind: KindName; key: string }) => boolean;
  /** Whether --target or --kind narrowed the pull (what it leaves may then be pulled with the rest). */
  narrowed?: boolean;
  /** Top-level live objects no file declares. */
  unmatched: readonly LiveResource[];
  /** The pending document naming each live object being adopted, by `kind:key`: not written again. */
  pendingDocuments?: ReadonlyMap<string, string>;
  sync: SyncState;
  kinds: readonly AnyKind[];
  /** A file of the configuration as text (root-relative path), undefined when there is none. */
  read(path: string): string | undefined;
  /** Whether a folder already has files for this slug (a new object's file takes the next free name). */
  taken(folder: string, slug: string): boolean;
  /** A kind's folder as the configuration spells it, when it does otherwise (`Playbooks/`). */
  folderOnDisk?(folder: string): string;
  /** What a `${var.X}`/`${env.X}` string stands for. */
  expand(text: string): string;
  /** The file a root-relative path is once links are followed (root-relative); itself when none. */
  realPath?(path: string): string;
  project: ProjectConfig;
  lock: LockFile;
  schema(file: string): unknown;
  paths: SchemaPaths;
  /** The test files (`*.test.yaml`, root-relative): the names they test follow renames made in the app. */
  tests?: readonly string[];
  /** Finds the API keys set (cli/redact.ts keyFinder): a live value holding one, or a piece of one, is not written into a file. */
  findKey?: KeyFinder;
  /** Records of declared objects already in sync (inSyncRecords), written unless the pull records them otherwise. */
  inSync?: SyncUpdates;
  /** The problems validate would find in a resource file's text (resourceTextChecker): what pull writes is checked with it. */
  check?(file: string, text: string, dataTexts: ReadonlyMap<string, string>): Promise<readonly DocumentProblem[]>;
}

/** One file pull writes: `before` null for a new file, `after` null for one it removes. */
export interface FileChange {
  path: string;
  before: string | null;
  after: string | null;
}

/** Why a live change under `drift: ignore` is not pulled; the end of its line, which CI recipes look for. */
export const IGNORED_REASON = 'drift: ignore leaves it as it is on both sides';

export interface PullEntry {
  kind: KindName;
  key: string;
  name: string;
  direction: Direction;
  /** The fields pulled (or not) for an object both sides have. */
  fields: string[];
  /** Where it is now declared (or was, for one removed). */
  file?: string;
  line?: number;
  /** A new file was written for it. */
  newFile?: boolean;
  /** Why it was not pulled. */
  reason?: string;
}

export interface PullResult {
  files: FileChange[];
  pulled: PullEntry[];
  notPulled: PullEntry[];
  /** What the files of new objects could not express (as `docket export` says it). */
  notes: string[];
  /** How many of the notes ask something of the user (the rest say what pull did: a test file following a rename); all when absent. */
  notesOwed?: number;
  /** Sync records of what was pulled: files and live now match. */
  sync: SyncUpdates;
}

/** `exact`: `index\0pointer` of fields whose scalars compare by type too (PullField's `exact`). */
type FileEdit = { documents: Map<number, unknown>; remove: Set<number>; exact: Set<string>; absent: Set<string> };

/** Where an object's change is written: a document of a file, at a pointer (as the file had it, unless `placed`). */
interface Writing {
  file: string;
  index: number;
  pointer: string;
  entry: Pulling;
  /** The pointer is where the item is written, not where the file had it (a child inserted by pull). */
  placed?: boolean;
}

/** What one object contributes: its fields to write, or its whole self to add or remove. */
interface Pulling {
  change: Change;
  d?: DesiredResource;
  l?: LiveResource;
  fields: string[];
  /** Fields that could not be written (`*`: the object itself). */
  failed: Set<string>;
  /** Where in its document each field is written (a rename's `renamed_from` with its `name`): undone when the field cannot be. */
  pointers?: Map<string, string[]>;
  /** Fields that leave the file where no value of a variable stands for none (see PullField). */
  noneByHand?: Set<string>;
}

export async function planPull(input: PullInput): Promise<PullResult> {
  // What the app holds and the files cannot (a type or shape the schema refuses) is found in the
  // resource files that would be written, checked as validate checks each document, and the objects
  // that wrote it are planned again as not pulled. Each round refuses at least one more object, or
  // is the last. Before that, a rename that could not be written (its file could not be edited, a
  // variable holds the name) is planned again without what it wrote elsewhere: the tests and
  // references naming the object would otherwise name what the files do not declare; and so is a
  // removal of an object that lives on in a new object this pull does not write.
  const refused = new Map<string, string>();
  const renamesHeld = new Set<string>();
  const keptForUnwritten = new Set<string>();
  const heldHeirs = new Map<string, string>();
  for (;;) {
    const planner = new PullPlanner(input, refused, renamesHeld, keptForUnwritten, heldHeirs);
    const result = planner.run();
    const unwritten = planner.renamesUnwritten();
    if (unwritten.size > 0) {
      for (const key of unwritten) renamesHeld.add(key);
      continue;
    }
    const unhanded = planner.historiesUnhanded();
    if (unhanded.size > 0) {
      for (const [key, name] of unhanded) heldHeirs.set(key, name);
      continue;
    }
    const kept = planner.removalsIntoUnwritten();
    if (kept.size > 0) {
      for (const [key, reason] of kept) {
        refused.set(key, reason);
        keptForUnwritten.add(key);
      }
      continue;
    }
    const more = input.check ? await planner.refusedByCheck(result.files, input.check) : new Map<string, string>();
    if (more.size === 0) return result;
    for (const [key, reason] of more) refused.set(key, reason);
  }
}

class PullPlanner {
  private readonly desired: Map<string, DesiredResource>;
  private readonly declaredKeys: ReadonlySet<string>;
  private readonly liveById: Map<string, LiveResource>;
  private readonly liveByKind = new Map<KindName, LiveResource[]>();
  /** Live ids a change of the plan archives or deletes (built when first asked). */
  private removedByPlan: Set<string> | undefined;
  private readonly kinds: Map<KindName, AnyKind>;
  private readonly edits = new Map<string, FileEdit>();
  /** The copies of documents' values this pull made, edited in place from then on (see setAt). */
  private readonly owned = new WeakSet<object>();
  private readonly dataFiles = new Map<string, string>();
  /** Which objects' changes each data file holds: not written when one of them cannot be pulled. */
  private readonly dataFileOwners = new Map<string, Pulling[]>();
  private readonly newFiles: { path: string; content: string }[] = [];
  private readonly pulled: PullEntry[] = [];
  /** The entries of `report`, by object and direction (a rename and an update of one object are one entry). */
  private readonly reported = new Map<string, PullEntry>();
  private readonly notPulled: PullEntry[] = [];
  private readonly notes: string[] = [];
  /** Notes that say what pull did and ask nothing. */
  private done = 0;
  private readonly sync: SyncUpdates = new Map();
  /** The declared object a `renamed_from` names each former identity for (engine/direction.ts nameHistory). */
  private heirOf: ((kindKey: string) => string | undefined) | undefined;
  private readonly parsed = new Map<string, unknown[]>();
  /** Objects being written, by where they are declared, so problems found in a file find their object. */
  private readonly writing: Writing[] = [];
  /** Top-level objects whose rename made in the app was pulled, by kind: [old key, new key]. */
  private readonly renamed = new Map<KindName, [string, string][]>();
  /** Declared objects whose document a new object took, its own `drift` and `ignore_fields` gone with the renamed one (handOverHistory). */
  private readonly settingsHandedOver = new Set<string>();
  /** Their children the new object keeps, whose fields the parent ignored are written with its children's live values (childrenHandedOver). */
  private readonly childSettingsHandedOver = new Set<string>();
  /**
   * Fields of a live object (by id) that are not pulled. An object renamed and edited in the app
   * is two changes: what one of them pulls must not record the other's unpulled fields as in sync.
   */
  private readonly unpulled = new Map<string, Set<string>>();
  /** Objects removed live that stay in the files: edited there since the last sync. */
  private readonly editedRemovals = new Set<string>();
  /** Parents removed live that their own `drift: revert` or `ignore` keeps in the files (`kind:key`). */
  private readonly policyHeldParents = new Set<string>();
  /** What this pull takes out of the files (`kind:key`). */
  private readonly removing = new Set<string>();
  /** What this pull takes out of the files (removed live), once kept ones are taken out. */
  private removals: readonly Pulling[] = [];
  /** Documents left as they are for a renamed object a --target leaves out (heirLeft): what they hold is left too. */
  private readonly heirsLeft = new Set<string>();
  /** Documents whose history a live object this pull does not write would have taken (historyOf), with its live name. */
  private readonly unhandedHistories = new Map<string, string>();
  /** The live objects no file declares that this pull does not write (refused), by live id. */
  private readonly unwrittenNew = new Map<string, LiveResource>();
  /** Of those, the children, by their parent's key (a parent removed too stays, whole, for them). */
  private readonly editedChildren = new Map<string, string[]>();
  /** Children removed live that their `drift: revert` or `ignore` keeps in the files, by their parent's key: the parent stays for them. */
  private readonly policyKeptChildren = new Map<string, string[]>();

  /** The list positions rebuildChildren moved items to: item index in the file → index written. */
  private readonly listMoves: { file: string; index: number; field: string; moves: Map<number, number> }[] = [];
  /** Renames whose new name this pull wrote into tests or references. */
  private readonly followedRenames = new Set<Pulling>();
  /** The objects each new file was written for, by path. */
  private readonly newFileObjects = new Map<string, string[]>();

  constructor(
    private readonly input: PullInput,
    private readonly refusedWhenChecked: ReadonlyMap<string, string> = new Map(),
    /** Objects (`kind:key`) whose rename is not written in their own file: nor in the tests and references. */
    private readonly renamesHeld: ReadonlySet<string> = new Set(),
    /** Removals kept in the files for the new object they moved into, which this pull does not write: not another reason not to write it. */
    private readonly keptForUnwritten: ReadonlySet<string> = new Set(),
    /** Documents whose renamed object (a heir, historyOf) this pull does not write, with that object's live name: left as they are. */
    private readonly heldHeirs: ReadonlyMap<string, string> = new Map(),
  ) {
    this.desired = new Map(input.desired.map((d) => [refKey(d.kind, d.key), d]));
    this.declaredKeys = new Set(this.desired.keys());
    this.liveById = new Map(input.live.map((l) => [l.id, l]));
    for (const l of input.live) {
      if (!this.liveByKind.has(l.kind)) this.liveByKind.set(l.kind, []);
      this.liveByKind.get(l.kind)!.push(l);
    }
    this.kinds = new Map(input.kinds.map((k) => [k.name, k]));
  }

  run(): PullResult {
    // Objects both sides have (fields to write), children made live (a delete the plan would make),
    // objects removed live (a create the plan would make).
    const objects: Pulling[] = [];
    const childrenToInsert: Pulling[] = [];
    const toRemove: Pulling[] = [];
    for (const c of [...this.input.plan.changes, ...(this.input.plan.held ?? [])]) {
      const entry = this.consider(c);
      if (!entry) continue;
      if (removes(c)) toRemove.push(entry);
      else if (c.action === 'delete') childrenToInsert.push(entry);
      else objects.push(entry);
    }
    this.leaveUnchangedHeirs([objects, childrenToInsert, toRemove]);
    for (const list of [objects, childrenToInsert, toRemove]) this.keepUnderHeirsLeft(list);
    this.keepEditedRemovals(toRemove);
    this.keepParentsNotTargeted(toRemove);
    this.keepStillNamed(toRemove, objects);
    for (const r of toRemove) this.removing.add(refKey(r.change.kind, r.change.key));
    this.removals = toRemove;
    for (const o of objects) this.writeFields(o);
    for (const o of objects) this.repointReferences(o);
    for (const o of objects) this.renameInTests(o);
    this.rebuildChildren(childrenToInsert, toRemove);
    for (const r of toRemove.filter((r) => !r.change.parent)) this.removeDocument(r);
    this.writeNewObjects();
    const files = this.render();
    // A rule of a playbook removed too is said once, by its playbook's note.
    const removed = new Set(toRemove.map((r) => refKey(r.change.kind, r.change.key)));
    for (const r of toRemove) if (!r.change.parent || !removed.has(refKey(r.change.parent.kind, r.change.parent.key))) this.removedFromTests(r);
    // Every failure is known before any record is made (a rename may be reported before its object's update).
    for (const o of objects) if (o.failed.size > 0) this.noteUnpulled(o.change, o.failed.has('*') ? o.fields : [...o.failed]);
    for (const o of [...objects, ...childrenToInsert, ...toRemove]) this.report(o);
    this.recordHandedOver();
    this.moveChildRecords();
    for (const [key, record] of this.input.inSync ?? []) if (!this.sync.has(key)) this.sync.set(key, record);
    // In registry order (parents before children), then by identity.
    const rank = new Map(this.input.kinds.map((k, i) => [k.name, i]));
    const order = (a: PullEntry, b: PullEntry): number => (rank.get(a.kind) ?? 0) - (rank.get(b.kind) ?? 0) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0);
    return { files, pulled: this.pulled.sort(order), notPulled: this.notPulled.sort(order), notes: this.notes, notesOwed: this.notes.length - this.done, sync: this.sync };
  }

  // ---- what to pull ---------------------------------------------------------------------------

  /**
   * The declared object a live one the files do not declare was last in sync as, when another live
   * object holds that name now (made in the app under it after this one was renamed there): its
   * name and `renamed_from` are this one's history, which another environment renames by, not the
   * newcomer's (probe KN-2). A rule's only in the same playbook (probe LR-1): one moved to another is no rename.
   */
  private historyOf(l: LiveResource): DesiredResource | undefined {
    const was = this.input.sync.keysWithId(l.id).find((key) => key !== refKey(l.kind, l.key) && this.desired.has(key) && this.heldByAnother(key, l.id));
    const d = was === undefined ? undefined : this.desired.get(was);
    if (d === undefined || d.kind !== l.kind) return undefined;
    return d.parent === undefined || this.input.plan.ids[refKey(d.parent.kind, d.parent.key)] === l.parentId ? d : undefined;
  }

  /**
   * Why `l`, renamed in the app while a new object took its name, is not written: the document it
   * was last in sync as has a policy that leaves live changes where they are, and a rename is one.
   * Written, it would take the history and the policy from that document, which the new object
   * then keeps without its policy (probe PG-1).
   */
  private renameHeldByPolicy(l: LiveResource): string | undefined {
    const d = this.historyOf(l);
    const policy = d?.policy?.drift;
    if (!d || (policy !== 'revert' && policy !== 'ignore')) return undefined;
    return `renamed in the app from ${d.kind} ${quoteValue(d.name)}, whose \`drift: ${policy}\` leaves the rename as it is${policy === 'revert' ? ' (`docket apply` puts the files\u2019 name back)' : ''}`;
  }

  /**
   * The declared object whose history `l` would take (historyOf), when `--target`s leave out the
   * object made in the app under its name: the history cannot be handed over, as the document keeps
   * its values (second read SR75-4).
   */
  private heirCutOff(l: LiveResource): DesiredResource | undefined {
    if (!this.input.plan.targets?.length) return undefined;
    const d = this.historyOf(l);
    const newcomer = d ? this.liveById.get(this.input.plan.ids[refKey(d.kind, d.key)] ?? '') : undefined;
    if (!d || !newcomer) return undefined;
    // A rule is in scope by its own target or its playbook's.
    const inScope = d.parent ? (this.input.childInScope?.({ ...newcomer, parent: d.parent }) ?? true) : this.input.named?.(newcomer) === true;
    return inScope ? undefined : d;
  }

  /**
   * Whether the plan matched the declared `kind:key` to another live object than `id`, one made in
   * the app under that name: not one last in sync as another object the files declare, which moved
   * onto the name (a1 renamed to a2 after a2 to "a2 old" is no newcomer: probes NB-2, NB-4).
   */
  private heldByAnother(key: string, id: string): boolean {
    const matched = this.input.plan.ids[key];
    if (matched === undefined || matched === id) return false;
    return !syncedAsAnotherDeclared(this.input.sync, matched, key, (other) => this.desired.has(other));
  }

  /**
   * Why declared `d`, whose name a new object took in the app, is left as it is for the object it
   * was last synced as (what follows "was last in sync as the live … now named"), if it is: that
   * one is left out by --target, moved onto another declared name (B aside, A to B, a new A: the
   * shift is for a person), or not written by this pull (a policy, a name the files still declare).
   */
  private heirLeftReason(c: Change, d: DesiredResource): string | undefined {
    const targeted = this.input.plan.targets?.length ? this.renamedAwayUnpulled(c) : undefined;
    if (targeted) return renamedAwayOutOfTarget(targeted);
    const shifted = c.liveId ? this.syncedNowDeclaredAs(c) : undefined;
    if (shifted) return `${quoteValue(shifted.name)}, which the files declare as another (renamed in the app), and a new one was made under its name: left as it is; settle the renames in the files by hand`;
    const unwritten = this.heldHeirs.get(refKey(d.kind, d.key));
    if (unwritten !== undefined) return `${quoteValue(unwritten)} (renamed in the app), which this pull does not write (said above), and a new one was made under its name: left as it is, so the renamed one keeps this name in its \`renamed_from\` once it is pulled`;
    return undefined;
  }

  /** The live object last synced under `c`'s name, when `c` is about another (the name taken since). */
  private syncedElsewhere(c: ChangeSubject): LiveResource | undefined {
    const recorded = this.input.sync.idOf(refKey(c.kind, c.key));
    return recorded !== undefined && recorded !== c.liveId ? this.liveById.get(recorded) : undefined;
  }

  /** The live object last synced under `c`'s name, when another holds the name now and the files declare that one under another name. */
  private syncedNowDeclaredAs(c: Change): LiveResource | undefined {
    const other = this.syncedElsewhere(c);
    if (other === undefined) return undefined;
    const declaredAs = this.matchedIds().get(`${other.kind}:${other.id}`);
    if (declaredAs === undefined || declaredAs === c.key) return undefined;
    // Only when the one under this name now is new: one synced as another declared object is a swap (renamedOnto says it).
    return this.heldByAnother(refKey(c.kind, c.key), other.id) ? other : undefined;
  }

  /** The live object last synced under `c`'s name, renamed in the app and declared by no file, when another holds the name now. */
  private renamedAwayUnpulled(c: ChangeSubject): LiveResource | undefined {
    const other = this.syncedElsewhere(c);
    if (other === undefined || this.matchedIds().has(`${other.kind}:${other.id}`)) return undefined;
    // A rule moved to another playbook is no rename (historyOf).
    if (c.parent && other.parentId !== this.input.plan.ids[refKey(c.parent.kind, c.parent.key)]) return undefined;
    // Targeted too, it is pulled with this one, and takes the history here (second read RV10-1).
    const inScope = c.parent ? (this.input.childInScope?.({ ...other, parent: c.parent }) ?? true) : this.input.named?.(other) === true;
    return inScope ? undefined : other;
  }

  /** `d`'s name as its file writes it: through a variable (`${var.region} Mid`), another environment's name is another (second read SR73-1). */
  private writtenName(d: DesiredResource): string {
    const written = d.document ? valueAt(this.current(d.document.file, d.document.index), `${d.pointer ?? ''}/name`) : undefined;
    return typeof written === 'string' ? written : literalPlaceholders(d.name);
  }

  /** `d`'s `renamed_from` as its file writes it (a name holding `${` as `$${`). */
  private writtenFormerNames(d: DesiredResource): string[] {
    if (!d.document) return [];
    const written = valueAt(this.current(d.document.file, d.document.index), d.pointer ?? '');
    return isPlainObject(written) ? formerNames(written) : [];
  }

  /**
   * What the document `o` takes the history of (`heirs`, by live id) keeps of its own, for its new
   * file: its `drift` and `ignore_fields`, and a child's of the item it was last in sync as, under
   * its parent's ignored fields (probe MM-5: a rule's `ignore_fields` was dropped).
   */
  private heirSettings(o: LiveResource, heirs: ReadonlyMap<string, DesiredResource>): WrittenSettings | undefined {
    const d = heirs.get(o.id);
    if (d) return historyWritten(this.writtenEntry(d) ?? {}, d, o);
    const parent = o.parentId === undefined ? undefined : heirs.get(o.parentId);
    if (!parent) return undefined;
    const was = this.childHistoryOf(o, parent);
    const entry = (was && this.writtenEntry(was)) ?? {};
    // A child keeps its history too, another environment renaming it by that (probe GH-2): the name
    // it was last in sync as, when the app renamed it since (second read SR105-2), and its `renamed_from`.
    // (As the files were read: the pull may have rewritten the parent's document for the new object already.)
    const former = was ? [...(normName(was.name) === normName(o.name) ? [] : [this.writtenName(was)]), ...formerNames(entry)] : [];
    const history = former.length > 0 ? { renamed_from: former } : {};
    return historyWritten(entry, was, o, ignoredFieldsWritten(this.writtenEntry(parent) ?? {}), history);
  }

  /** The declared child a live child of a renamed parent was last in sync as, in that parent's document. */
  private childHistoryOf(o: LiveResource, parent: DesiredResource): DesiredResource | undefined {
    return this.input.sync.keysWithId(o.id).map((key) => this.desired.get(key)).find((c) => c?.kind === o.kind && c.parent?.key === parent.key);
  }

  /**
   * Why a new file for `l`, which takes a document's history, would lose a placeholder that
   * document writes (in `l`'s entry or a child's): one whose value live no longer holds, or one
   * inside a nested value. Written from live values, another environment would get this one's.
   */
  private placeholdersLost(l: LiveResource, children: readonly LiveResource[]): string | undefined {
    const d = this.historyOf(l);
    if (!d) return undefined;
    const lost = placeholdersKept(this.writtenEntry(d) ?? {}, d, l).lost.map((f) => `\`${f}\``);
    for (const c of children) {
      const was = this.childHistoryOf(c, d);
      if (was) lost.push(...placeholdersKept(this.writtenEntry(was) ?? {}, was, c).lost.map((f) => `its ${c.kind} ${quoteValue(c.name)}'s \`${f}\``));
    }
    if (lost.length === 0) return undefined;
    return `${d.document?.file ?? 'its document'} writes ${lost.join(', ')} with a placeholder (\`\${var.…}\` or \`\${env.…}\`) that live no longer reads as, or inside a nested value: a new file written from live values would give every environment this one's; move the document to its new name by hand, keeping the placeholders (docket writes over no placeholder)`;
  }

  /** Live object `l` as a document of kind `kind` writes it (for `d`'s file, or its parent's), placeholders escaped. */
  private liveDocument(kind: KindName, l: LiveResource, d: DesiredResource): Record<string, unknown> | undefined {
    const document = literalPlaceholders(this.kinds.get(kind)?.toConfig?.(l, this.configContext(d)).document ?? {});
    return isPlainObject(document) ? document : undefined;
  }

  /** `d`'s entry as its file wrote it before this pull (which may take it out). */
  private writtenEntry(d: DesiredResource): Record<string, unknown> | undefined {
    if (!d.document) return undefined;
    const entry = valueAt(this.docValues(d.document.file)[d.document.index], d.pointer ?? '');
    return isPlainObject(entry) ? entry : undefined;
  }

  /**
   * `d`'s document, which the object made in the app under its name keeps, once its history went to
   * a new file: without its `renamed_from`, and without its own settings (withoutOwnSettings).
   */
  private handOverHistory(d: DesiredResource): void {
    if (!d.document) return;
    const { file, index } = d.document;
    const base = d.pointer ?? '';
    let doc = this.current(file, index);
    if (d.renamedFrom.length > 0) doc = setAt(doc, `${base}/renamed_from`, undefined, [], this.owned);
    const entry = valueAt(doc, base);
    if (!isPlainObject(entry) || (entry.drift === undefined && entry.ignore_fields === undefined)) {
      if (d.renamedFrom.length > 0) this.editOf(file).documents.set(index, doc);
      return;
    }
    const id = this.input.plan.ids[refKey(d.kind, d.key)];
    const l = id === undefined ? undefined : this.liveById.get(id);
    this.settingsHandedOver.add(refKey(d.kind, d.key));
    const liveDoc = l ? this.liveDocument(d.kind, l, d) : undefined;
    const written = withoutOwnSettings(entry, liveDoc);
    // A key it now writes goes where the kind's order puts it (a playbook's description before its rules: probe PG-3).
    const order = this.keyOrder(d.kind, liveDoc ?? {});
    for (const key of new Set([...Object.keys(entry), ...Object.keys(written)])) {
      if (written[key] !== entry[key]) doc = setAt(doc, `${base}/${key}`, written[key], order, this.owned);
    }
    if (l) doc = this.childrenHandedOver(doc, d, l, ignoredFieldsWritten(entry));
    this.editOf(file).documents.set(index, doc);
  }

  /**
   * The items of `d`'s document that the new object's children keep (matched by name), once `d`'s
   * own `ignore_fields` went with the renamed one: the fields it ignored for them take those
   * children's live values, as `d`'s own do. Kept, they were the renamed one's children's values,
   * compared from now on (probe PG-1).
   */
  private childrenHandedOver(doc: unknown, d: DesiredResource, l: LiveResource, ignored: readonly string[]): unknown {
    if (ignored.length === 0) return doc;
    for (const c of this.desired.values()) {
      if (c.parent?.kind !== d.kind || c.parent.key !== d.key || c.pointer === undefined) continue;
      const child = this.liveById.get(this.input.plan.ids[refKey(c.kind, c.key)] ?? '');
      if (child?.parentId !== l.id) continue;
      this.childSettingsHandedOver.add(refKey(c.kind, c.key));
      const own = ignoredFieldsWritten(this.writtenEntry(c) ?? {});
      const live = this.liveDocument(c.kind, child, c) ?? {};
      const order = this.keyOrder(c.kind, live);
      for (const field of ignored) {
        if (own.includes(field) || !(field in child.fields)) continue;
        const value = live[field];
        doc = setAt(doc, `${c.pointer}/${field}`, value === null ? undefined : value, order, this.owned);
      }
    }
    return doc;
  }

  /** The order a new key of a `kind` document takes: the live document's, its own keys before its children's list. */
  private keyOrder(kind: KindName, live: Record<string, unknown>): string[] {
    const order = Object.keys(live);
    // Also where the file writes a key after that list (probe OH-4).
    for (const child of this.input.kinds) if (child.parentKind === kind && child.parentField && !order.includes(child.parentField)) order.push(child.parentField);
    return order;
  }

  /**
   * Why a live object cannot be written into a new file: the files still declare it where it was
   * last in sync (its playbook renamed in the app), and this pull does not take it out there (a
   * --target or --kind left that out, or a policy keeps it). Written here too, the next apply
   * would make a copy of it under the old name.
   */
  private stillDeclaredAs(l: LiveResource): string | undefined {
    // (Not a name another live object now holds: a new one made in the app under the old name.)
    const was = this.input.sync.keysWithId(l.id).find((key) => key !== refKey(l.kind, l.key) && this.desired.has(key) && !this.removing.has(key) && !this.keptForUnwritten.has(key) && !this.heldByAnother(key, l.id));
    if (was === undefined) return undefined;
    const named = `${was.slice(0, was.indexOf(':'))} "${was.slice(was.indexOf(':') + 1)}"`;
    // Left there by a policy, not by a filter: pulling again would not move it.
    // (A rule's policy holds its playbook's already: kinds/rule.ts.)
    const policy = this.desired.get(was)?.policy?.drift;
    if (keepsFilesFromPull(policy)) return `the files still declare it as ${named}, whose \`drift: ${policy}\` keeps it there; move it in the files by hand`;
    // Left for another reason (above: edited in the files, moved in the app) when nothing narrowed the pull (probe MX-2).
    if (!this.input.narrowed) return `the files still declare it as ${named}, which this pull leaves there (said above): once that is settled, pull again, or move it in the files by hand`;
    return `the files still declare it as ${named}, which this pull leaves there; pull both together (without --target or --kind) to move it`;
  }

  /** movedLiveOntoDeclared of this pull's plan (made on first use). */
  private movedLive: ReturnType<typeof movedLiveOntoDeclared> | undefined;

  /** `kind:liveId` → the declared key the plan matched that live object to (made on first use). */
  private matchedIds(): Map<string, string> {
    return (this.matched ??= matchedToDeclared(this.input.plan, this.desired.values()));
  }
  private matched: Map<string, string> | undefined;

  /** The declared children that keep a parent removed live in the files by their policy (made on first use). */
  private keptByPolicy(parent: string): readonly DesiredResource[] {
    this.keptByPolicyOf ??= childrenKeptByPolicy(this.desired.values(), this.input.sync);
    return this.keptByPolicyOf(parent);
  }
  private keptByPolicyOf: ((parent: string) => readonly DesiredResource[]) | undefined;

  private children: ((liveId: string) => readonly LiveResource[]) | undefined;
  /** The live children (rules) of a live object. */
  private childrenOf(liveId: string): readonly LiveResource[] {
    this.children ??= childrenLookup(this.input.live);
    return this.children(liveId);
  }

  /** The part of a change pull adopts, or undefined (pending, not drift; or said why not). */
  private consider(c: Change): Pulling | undefined {
    const direction = c.direction ?? 'unknown';
    // Removed from the files and edited in the app since: which one counts is for a person to say.
    const editedLive = editedLiveSince(c, this.input.sync);
    if (editedLive.length > 0) this.notPulled.push(this.entryOf(c, 'changed-both', editedLive, 'removed from the files and changed live since the last sync: keep one by hand (to keep the live edit, put it back in the files)'));
    this.childWorkNotPulled({ kind: c.kind, key: c.key }, childrenEditedLive(c, this.input.sync, (id) => this.childrenOf(id)));
    if (!isDrift(direction)) return undefined;
    // Undeclared playbooks that prune would archive are new files, like every undeclared object.
    if (c.action === 'archive') return undefined;
    const d = this.desired.get(refKey(c.kind, c.key));
    // An object moved in the app (a new one made under its old name): last in sync as another.
    const movedFrom = movedFromOf(c, this.input.sync);
    const policy = c.policy ?? governingPolicy(c, (key) => this.desired.get(key), this.input.sync, movedFrom);
    const l = c.liveId ? this.liveById.get(c.liveId) : undefined;
    const fields = c.fields.filter((f) => liveSide(f.direction)).map((f) => f.field);
    if (keepsFilesFromPull(policy)) {
      // Removed live, an object is made again, not given a value back; its fields are not each changed (probe EI-6).
      const gone = removes(c);
      const reason = policy === 'ignore' ? IGNORED_REASON : gone ? 'drift: revert: `docket apply` makes it again' : 'drift: revert: `docket apply` puts the files’ value back';
      // A field both sides changed is the files' to apply, whatever the policy: not "left as it is" (probe GB).
      const conflicts = c.fields.filter((f) => f.direction === 'both').map((f) => f.field);
      if (fields.length > 0 || conflicts.length === 0) this.notPulled.push(this.entryOf(c, direction, gone ? [] : fields, reason));
      if (conflicts.length > 0) this.notPulled.push(this.entryOf(c, direction, conflicts, 'changed live and in the files since the last sync: `docket apply` puts the files’ value over the live edit (a drift policy covers only what changed live alone)'));
      this.noteUnpulled(c, [...fields, ...conflicts]);
      // Removed live with its parent: the parent's document stays, or this child would go with it (probe GB).
      if (removes(c) && c.parent) addTo(this.policyKeptChildren, refKey(c.parent.kind, c.parent.key), `${c.kind} "${c.key}" (\`drift: ${policy}\`)`);
      // A parent removed live that its own policy keeps in the files keeps its removed children (probe QB-3).
      if (removes(c) && !c.parent) this.policyHeldParents.add(refKey(c.kind, c.key));
      return undefined;
    }
    if (removes(c)) {
      // Gone from its name, but the object last synced under it is still live elsewhere: renamed or
      // moved in the app to a name the files declare too (two playbooks that swapped names). Taken
      // out of the files, it would be lost from both.
      // (Moved under a parent nothing declares, its playbook renamed in the app: this pull writes
      // it there, with its parent, as objects only live, so it is taken out here.)
      this.movedLive ??= movedLiveOntoDeclared({ plan: this.input.plan, desired: this.desired, liveById: this.liveById, kinds: this.input.kinds });
      const now = this.movedLive(c.kind, this.input.sync.idOf(refKey(c.kind, c.key)));
      if (now) {
        this.notPulled.push(this.entryOf(c, direction, [], `still live as ${now.kind} "${now.key}", renamed or moved in the app to a name the files declare too; rename it in the files by hand`));
        return undefined;
      }
      // Removed live, but edited in the files since the last sync: taking it out would lose the edit.
      // (Renamed in the files since, its record is under the former name: the rename is such an edit.)
      const record = d ? recordOfDeclared(d, this.input.sync, (key) => this.desired.has(key))?.[1] : this.input.sync.byKey.get(refKey(c.kind, c.key));
      const edited = d && record ? changedSinceRecord(d, record) : [];
      if (edited.length > 0) {
        this.notPulled.push(this.entryOf(c, direction, edited, removedButEdited()));
        this.editedRemovals.add(refKey(c.kind, c.key));
        if (c.parent) {
          const parent = refKey(c.parent.kind, c.parent.key);
          addTo(this.editedChildren, parent, `${c.kind} "${c.key}"`);
        }
        return undefined;
      }
    }
    // Its name taken in the app by a new object while the one last synced under it was renamed
    // there: that one takes this document's history (historyOf), its name included (the renamed
    // one's `renamed_from`), a rule's too. Where this pull cannot hand it over, the document is left
    // as it is: given to the new one, the history would be lost (SR73-8, probe MX-1, SR77-2).
    const left = d ? this.heirLeftReason(c, d) : undefined;
    if (left !== undefined) {
      this.heirsLeft.add(refKey(c.kind, c.key));
      this.notPulled.push(this.entryOf(c, direction, [], leftForHeir(c.kind, left), d));
      return undefined;
    }
    // Renamed in the app while a new one took its name, and that one is left out by --target: not written alone.
    const cutOff = c.parent && l ? this.heirCutOff(l) : undefined;
    if (cutOff) {
      this.notPulled.push(this.entryOf(c, direction, [], heirLeftOut(cutOff)));
      return undefined;
    }
    // A delete changed live is of an object moved in the app (engine/direction.ts): last in sync
    // as an object the files still declare, it would be declared twice if written here too.
    // Unless that declaration now names another live object (one made in the app under the old name).
    const movedFromHere = movedFromDeclared(c, this.input.sync, this.input.plan.ids, (key) => this.desired.has(key));
    if (movedFromHere !== undefined) {
      this.notPulled.push(this.entryOf(c, direction, [], `was ${c.kind} "${movedFromHere.slice(movedFromHere.indexOf(':') + 1)}" when last in sync, which the files still declare: renamed or moved in the app; move it in the files by hand`));
      return undefined;
    }
    // The live object at this name was last in sync as another object the files declare: written
    // here, its values would take that object's place in this one's document.
    this.heirOf ??= heirsOf(this.desired.values());
    const was = d && l ? renamedOnto(this.input.sync, d, l, (kindKey) => this.desired.has(kindKey), this.heirOf) : undefined;
    if (was !== undefined) {
      const named = was.slice(was.indexOf(':') + 1);
      this.notPulled.push(this.entryOf(c, direction, fields, `the live ${c.kind} of this name was "${named}" when last in sync: renamed in the app onto a name the files declare too; rename them in the files by hand`));
      this.noteUnpulled(c, fields);
      return undefined;
    }
    // What the files would then hold must be what validate takes: the app takes text docket refuses.
    const adding = c.action === 'delete';
    const renaming = fields.includes('name');
    const alike = l && (adding || renaming) ? (this.lookAlikeDeclared(l.kind, c.parent?.key, l.name, d) ?? (renaming ? this.nameHeldByDeclared(l, d) : undefined) ?? (adding ? this.sharedLiveName(l) : undefined)) : undefined;
    const refused = (l ? refusedLiveValue(l, adding ? Object.keys(l.fields) : fields, this.input.findKey) : undefined) ?? alike ?? this.refusedWhenChecked.get(refKey(c.kind, c.key));
    if (refused) {
      this.notPulled.push(this.entryOf(c, direction, adding ? [] : fields, refused, d));
      this.noteUnpulled(c, fields);
      return undefined;
    }
    const conflicts = c.fields.filter((f) => f.direction === 'both').map((f) => f.field);
    if (conflicts.length > 0) {
      // At the first field's own line, not the object's first change's.
      const at = d ? valueSourceOf(d.fieldSources, conflicts[0]!) : undefined;
      const entry = this.entryOf(c, direction, conflicts, 'changed live and in the files since the last sync: keep one by hand');
      this.notPulled.push(at ? { ...entry, file: at.file, line: at.line } : entry);
    }
    this.noteUnpulled(c, conflicts);
    // A reference that moved only because what it names was renamed in the app onto a name the
    // files declare too (two terms that swapped names): that rename is not pulled, so neither is
    // this. Written, it would name the other object, and apply would link this one to it.
    const followed = d ? fields.filter((field) => this.followsSwappedName(d, c, field)) : [];
    for (const field of followed) {
      const ref = d!.refs.find((r) => r.field === field)!;
      const name = String(c.fields.find((f) => f.field === field)!.before);
      this.notPulled.push(this.entryOf(c, direction, [field], `live names ${ref.kind} ${quoteValue(name)}, the one the files name ${quoteValue(ref.key)}, renamed in the app onto a name the files declare too; rename them in the files by hand`, d));
    }
    this.noteUnpulled(c, followed);
    const pulling = fields.filter((field) => !followed.includes(field));
    if (c.liveId && !['delete', 'archive'].includes(c.action) && pulling.length === 0) return undefined;
    // A field both sides changed is not pulled: the object keeps its old record, so the next plan
    // still shows that field as changed on both sides.
    return { change: c, ...(d ? { d } : {}), ...(l ? { l } : {}), fields: pulling, failed: new Set(conflicts) };
  }

  /**
   * Whether a live-side reference `field` of `d` names, live, the object the files' reference names
   * (by its sync record), now under a name the files declare for another object.
   */
  private followsSwappedName(d: DesiredResource, c: Change, field: string): boolean {
    return followsSwappedName(d, c, field, { liveOfKind: (kind) => this.liveByKind.get(kind as KindName) ?? [], declared: (key) => this.declaredKeys.has(key), sync: this.input.sync });
  }

  /**
   * A declared parent the plan has no change for (the new object under its name holds what the
   * files say), whose object last synced under that name was renamed in the app and is left out by
   * --target: left as heirLeftReason leaves a changed one, so keepUnderHeirsLeft leaves what it
   * holds too (a rule "removed live" went with the renamed one: probe RB-3).
   */
  private leaveUnchangedHeirs(lists: readonly Pulling[][]): void {
    if (!this.input.plan.targets?.length) return;
    const checked = new Set<string>();
    for (const o of lists.flat()) {
      const parent = o.change.parent;
      if (!parent) continue;
      const key = refKey(parent.kind, parent.key);
      if (checked.has(key) || this.heirsLeft.has(key)) continue;
      checked.add(key);
      const d = this.desired.get(key);
      const liveId = this.input.plan.ids[key];
      const renamed = d && liveId !== undefined ? this.renamedAwayUnpulled({ kind: parent.kind, key: parent.key, liveId }) : undefined;
      if (!d || !renamed) continue;
      this.heirsLeft.add(key);
      this.notPulled.push({ kind: d.kind, key: d.key, name: d.name, direction: 'changed-live', fields: [], ...(d.source ? { file: d.source.file, line: d.source.line } : {}), reason: leftForHeir(d.kind, renamedAwayOutOfTarget(renamed)) });
    }
  }

  /** Takes out of `list` the children of a document left for a renamed object a --target leaves out: they went with it (probe MX-1). */
  private keepUnderHeirsLeft(list: Pulling[]): void {
    if (this.heirsLeft.size === 0) return;
    const left = (c: Change): boolean => c.parent !== undefined && this.heirsLeft.has(refKey(c.parent.kind, c.parent.key));
    for (const o of list) if (left(o.change)) this.notPulled.push(this.entryOf(o.change, o.change.direction ?? 'changed-live', [], `its ${o.change.parent!.kind} is left as it is (above), and so is what it holds`, o.d));
    list.splice(0, list.length, ...list.filter((o) => !left(o.change)));
  }

  /**
   * Takes out of `toRemove` what stays in the files: an object edited there since the last sync,
   * and the parent of a child that was, with all its children (a playbook archived in the app whose
   * rules the files changed: apply creates it again as the files say).
   */
  private keepEditedRemovals(toRemove: Pulling[]): void {
    // Parents removed live that stay for a child the files edited (a parent edited itself never reached toRemove).
    const keptParents = new Set<string>();
    const policyKept = new Set<string>();
    for (const r of toRemove) {
      const key = refKey(r.change.kind, r.change.key);
      // Its children outside a --target's plan count too: taking the parent out would take them with it.
      const children = r.change.parent ? undefined : (this.editedChildren.get(key) ?? childrenEditedInFiles(this.desired.values(), this.input.sync, key).map((d) => `${d.kind} "${d.key}"`));
      // Its children outside a --target's plan count here too (second read).
      const kept = r.change.parent ? undefined : (this.policyKeptChildren.get(key) ?? this.keptByPolicy(key).map((d) => `${d.kind} "${d.key}" (\`drift: ${d.policy!.drift!}\`)`));
      if (children && children.length > 0) {
        keptParents.add(key);
        this.notPulled.push(this.entryOf(r.change, r.change.direction ?? 'removed-live', [], removedButEdited(children)));
      } else if (kept && kept.length > 0) {
        keptParents.add(key);
        policyKept.add(key);
        this.notPulled.push(this.entryOf(r.change, r.change.direction ?? 'removed-live', [], `removed live, but the policy of what it holds keeps that in the files (${kept.join(', ')}): apply creates it again as they say, or remove it from the files by hand`));
      }
    }
    // Its other children stay with it: each said, not left out of the report (probe GF).
    for (const r of toRemove) {
      const parent = r.change.parent ? refKey(r.change.parent.kind, r.change.parent.key) : undefined;
      if (parent !== undefined && policyKept.has(parent)) this.notPulled.push(this.entryOf(r.change, r.change.direction ?? 'removed-live', [], `removed live with its ${r.change.parent!.kind}, which stays in the files for a policy (above): apply creates it again`));
    }
    // A parent removed live that its own `drift: revert` or `ignore` holds in the files (apply makes
    // it again) keeps its removed children, whatever their own policy: they went with it, and it
    // comes back with them (probe QB-3).
    for (const r of toRemove) {
      const parent = r.change.parent ? refKey(r.change.parent.kind, r.change.parent.key) : undefined;
      if (parent === undefined || !this.policyHeldParents.has(parent) || policyKept.has(parent)) continue;
      keptParents.add(parent);
      this.notPulled.push(this.entryOf(r.change, r.change.direction ?? 'removed-live', [], `removed live with its ${r.change.parent!.kind}, which stays in the files for its own policy: apply creates it again`));
    }
    // An object edited itself stays with all it holds.
    for (const key of this.editedRemovals) keptParents.add(key);
    const stays = (c: Change): boolean => c.parent !== undefined && keptParents.has(refKey(c.parent.kind, c.parent.key));
    toRemove.splice(0, toRemove.length, ...toRemove.filter((r) => !keptParents.has(refKey(r.change.kind, r.change.key)) && !stays(r.change)));
  }

  /**
   * Takes out of `toRemove` a parent removed live (a playbook archived in the app) that `--target`
   * reaches only through a child it names: taking its document out would take every child with it,
   * the ones no target names too, past the removal guard's count (probe YB-1). Its children stay
   * with it; the report says to target the parent.
   */
  private keepParentsNotTargeted(toRemove: Pulling[]): void {
    if (!this.input.plan.targets?.length || !this.input.named) return;
    const parents = new Set(this.input.kinds.map((k) => k.parentKind).filter((k) => k !== undefined));
    const kept = new Set<string>();
    for (const r of toRemove) {
      // (A member a targeted rule's reviewer names is in the plan too, and goes as it did.)
      if (r.change.parent || !parents.has(r.change.kind) || this.input.named(r.change)) continue;
      kept.add(refKey(r.change.kind, r.change.key));
      this.notPulled.push(this.entryOf(r.change, r.change.direction ?? 'removed-live', [], `removed live with all it holds, and --target names only part of it: pull it whole with --target ${bashWord(`${r.change.kind}/${r.change.key}`)}`));
    }
    if (kept.size === 0) return;
    for (const r of toRemove) {
      const parent = r.change.parent ? refKey(r.change.parent.kind, r.change.parent.key) : undefined;
      if (parent !== undefined && kept.has(parent)) this.notPulled.push(this.entryOf(r.change, r.change.direction ?? 'removed-live', [], `removed live with its ${r.change.parent!.kind}, which stays in the files (above)`));
    }
    const stays = (c: Change): boolean => kept.has(refKey(c.kind, c.key)) || (c.parent !== undefined && kept.has(refKey(c.parent.kind, c.parent.key)));
    toRemove.splice(0, toRemove.length, ...toRemove.filter((r) => !stays(r.change)));
  }

  /**
   * Takes out of `toRemove` a document the files would no longer plan without, or that is not this
   * environment's alone: one a document that stays still names where this pull writes nothing (a
   * rule's reviewer the app kept, or written with a variable), and one whose name or e-mail is
   * written with a variable (every environment declares it through that variable).
   */
  private keepStillNamed(toRemove: Pulling[], objects: readonly Pulling[]): void {
    if (toRemove.length === 0) return;
    const removing = new Set(toRemove.map((r) => refKey(r.change.kind, r.change.key)));
    const written = new Set(objects.flatMap((o) => o.fields.map((f) => `${refKey(o.change.kind, o.change.key)}\u0000${f}`)));
    const kept = new Map<string, string>();
    // Its own name first: a document kept for that keeps what it names in turn (below).
    for (const r of toRemove) {
      // A child goes with a parent that goes (its file's document, rules and all): not said kept (fourth read RV5-3).
      if (r.change.parent && removing.has(refKey(r.change.parent.kind, r.change.parent.key))) continue;
      const variables = this.identityVariables(r);
      if (variables.length > 0) kept.set(refKey(r.change.kind, r.change.key), `removed live, but the files name it with ${variables.join(', ')}, which other environments may use too: change the variable for this environment, or remove it by hand`);
    }
    /** Whether a declared document stays in the files: in a kept parent (which keeps what it holds), else not removed or kept. */
    const stays = (key: string, parent: string | undefined): boolean => {
      if (parent !== undefined && kept.has(parent)) return true;
      if (parent !== undefined && removing.has(parent)) return false;
      return !removing.has(key) || kept.has(key);
    };
    // A reference to a kind never declared names the document that makes its object (a template's signer, a Member).
    const targetOf = (ref: { kind: KindName; key: string }): string => this.kinds.get(ref.kind)?.declaredAs?.(ref.key) ?? refKey(ref.kind, ref.key);
    // Until nothing more is kept: what a kept document names stays too.
    for (let more = true; more; ) {
      more = false;
      for (const d of this.desired.values()) {
        if (!d.refs.some((ref) => removing.has(targetOf(ref)))) continue;
        const key = refKey(d.kind, d.key);
        if (!stays(key, d.parent ? refKey(d.parent.kind, d.parent.key) : undefined)) continue;
        for (const ref of d.refs) {
          const target = targetOf(ref);
          if (!removing.has(target) || kept.has(target) || (written.has(`${key}\u0000${ref.field}`) && !this.placeholderAt(d, ref.field))) continue;
          const at = ref.source ? ` at ${ref.source.file}:${ref.source.line}` : '';
          // The organization, of which there is one, by what it is, not as `organization "organization"` (probe KE-6).
          const holder = this.kinds.get(d.kind)?.singleton === true ? `the ${d.kind}` : `${d.kind} ${quoteValue(d.key)}`;
          kept.set(target, `removed live, but ${holder} still names it (\`${ref.field}\`${at}), and without it the files would not plan: change that reference first, or remove both by hand`);
          more = true;
        }
      }
    }
    if (kept.size === 0) return;
    for (const r of toRemove) {
      const reason = kept.get(refKey(r.change.kind, r.change.key));
      if (reason) this.notPulled.push(this.entryOf(r.change, r.change.direction ?? 'removed-live', [], reason, r.d));
    }
    // A kept document keeps what it holds (a playbook its rules), as keepEditedRemovals does.
    const keptWhole = (c: Change): boolean => kept.has(refKey(c.kind, c.key)) || (c.parent !== undefined && kept.has(refKey(c.parent.kind, c.parent.key)));
    toRemove.splice(0, toRemove.length, ...toRemove.filter((r) => !keptWhole(r.change)));
  }

  /** Whether a field of a document is written with a variable (pull never writes over one). */
  private placeholderAt(d: DesiredResource, field: string): boolean {
    if (!d.document) return false;
    const written = valueAt(this.current(d.document.file, d.document.index), `${d.pointer ?? ''}/${field.split('.').join('/')}`);
    // A literal `$${` is no variable: pull writes such a value as it writes any other (probe IE-4).
    return typeof written === 'string' && variablesIn(written).length > 0;
  }

  /**
   * The variables a document's name (or e-mail) is written with, as its top-level values hold them;
   * a rule's, as its item in the playbook's list does (probe JL-1: taken out for one environment,
   * it was every other's rule the next apply of theirs deleted).
   */
  private identityVariables(r: Pulling): string[] {
    const at = r.d?.document;
    if (!at) return [];
    const doc = this.current(at.file, at.index);
    const item = r.d?.pointer ? valueAt(doc, r.d.pointer) : doc;
    if (!isPlainObject(item)) return [];
    for (const value of Object.values(item)) {
      if (typeof value !== 'string' || !value.includes('${')) continue;
      if (this.input.expand(value).toLowerCase() !== r.d!.name.toLowerCase()) continue;
      return [...new Set(variablesIn(value))];
    }
    return [];
  }

  /** Why a live object may not be written: its name shared live (name-refusals.ts). */
  private sharedLiveName(l: LiveResource): string | undefined {
    this.sharedNames ??= sharedLiveNames(this.input.live, (kind) => this.kinds.get(kind)?.parentKind);
    return this.sharedNames(l);
  }

  private sharedNames: ((l: LiveResource) => string | undefined) | undefined;

  /** Why a live name may not be written: it looks like one the files declare (name-refusals.ts). */
  private lookAlikeDeclared(kind: KindName, parentKey: string | undefined, name: string, self?: DesiredResource): string | undefined {
    // Not one this pull takes out of the files (removed live): its name is free once written (probe QT-4).
    this.lookAlikes ??= lookAlikeDeclared(this.input.desired, (d) => this.removing.has(refKey(d.kind, d.key)));
    return this.lookAlikes(kind, parentKey, name, self);
  }

  private lookAlikes: ReturnType<typeof lookAlikeDeclared> | undefined;

  /**
   * Why a rename in the app onto the name another document declares is not written: that
   * document's object holds the name live too (pinned by `id:`, as an ambiguous name's hint says),
   * so the files would declare it twice (probe NB-1). One whose object left the name is not in the way.
   */
  private nameHeldByDeclared(l: LiveResource, d: DesiredResource | undefined): string | undefined {
    const other = this.desired.get(refKey(l.kind, l.key));
    if (!other || other === d) return undefined;
    const holder = this.liveById.get(this.input.plan.ids[refKey(other.kind, other.key)] ?? '');
    if (!holder || holder.id === l.id || holder.name !== l.name) return undefined;
    const at = valueSourceOf(other.fieldSources, 'name') ?? other.source;
    return `renamed in the app to ${quoteValue(l.name)}, the name ${other.kind} ${quoteValue(other.key)} has in the files (${at.file}:${at.line}) and live: written, the files would declare it twice; rename one of them in the app, then pull again`;
  }

  private noteUnpulled(c: Change, fields: readonly string[]): void {
    if (!c.liveId || fields.length === 0) return;
    let set = this.unpulled.get(c.liveId);
    if (!set) this.unpulled.set(c.liveId, (set = new Set()));
    for (const f of fields) set.add(f);
  }

  /** `at`: where the one field the entry is about is written, when it says why that field alone was not pulled. */
  private entryOf(c: Change, direction: Direction, fields: string[], reason?: string, d?: DesiredResource, at?: SourcePos): PullEntry {
    const source = at ?? c.source ?? d?.source;
    return {
      kind: c.kind,
      key: c.key,
      name: c.name,
      direction,
      fields,
      ...(source ? { file: source.file, line: source.line } : {}),
      ...(reason ? { reason } : {}),
    };
  }

  // ---- writing --------------------------------------------------------------------------------

  /** Live text as the file writes text there (keepTextStyle); how the file writes a one-line value is looked up only when the text gains lines. */
  private styledText(file: string, index: number, pointer: string, current: unknown, value: unknown): unknown {
    // A list or mapping (a template's nested fee items): each text in it as the file writes it there.
    // Text that gains lines in a flow collection inside it gets no final break there either (probe VF-5).
    if (typeof value === 'object' && value !== null) return keepTextStyleWithin(current, value, pointer, (at, written) => writesNoFinalBreak(this.documentsOf(file), index, at, written));
    // Text that gains lines where the file had one line, or no text (null, no key: probe JA-2).
    const oneLineToMany = (typeof current !== 'string' || !current.includes('\n')) && typeof value === 'string' && value.replace(/\n+$/, '').includes('\n');
    if (!oneLineToMany) return keepTextStyle(current, value);
    return keepTextStyle(current, value, writesNoFinalBreak(this.documentsOf(file), index, pointer, current));
  }

  /** The file's documents as the edit reads them, parsed once. */
  private documentsOf(file: string): Document.Parsed[] {
    let documents = this.editDocuments.get(file);
    if (!documents) this.editDocuments.set(file, (documents = parseForEdit(asEdited(this.input.read(file) ?? ''))));
    return documents;
  }

  private readonly editDocuments = new Map<string, Document.Parsed[]>();

  private docValues(file: string): unknown[] {
    let docs = this.parsed.get(file);
    if (!docs) {
      const text = this.input.read(file);
      docs = text === undefined ? [] : documentValues(asEdited(text));
      this.parsed.set(file, docs);
    }
    return docs;
  }

  private editOf(file: string): FileEdit {
    let edit = this.edits.get(file);
    if (!edit) this.edits.set(file, (edit = { documents: new Map(), remove: new Set(), exact: new Set(), absent: new Set() }));
    return edit;
  }

  /** The document as it will be written (edits so far included). */
  private current(file: string, index: number): unknown {
    const edit = this.edits.get(file);
    return edit?.documents.has(index) ? edit.documents.get(index) : this.docValues(file)[index];
  }

  private configContext(d: DesiredResource | undefined): ConfigContext {
    const slug = d?.document ? (d.document.file.split('/').pop() ?? '').replace(/\.ya?ml$/, '') : '';
    return {
      slug,
      dir: d?.document ? d.document.file.split('/').slice(0, -1).join('/') : '',
      project: this.input.project,
      live: (kind) => this.liveByKind.get(kind) ?? [],
      lock: this.input.lock,
      schema: this.input.schema,
    };
  }

  /** Writes the pulled fields of an object both sides have into the document that declares it. */
  private writeFields(o: Pulling): void {
    const { d, l } = o;
    const kind = d ? this.kinds.get(d.kind) : undefined;
    if (!d || !l || !kind || !d.document) {
      o.failed.add('*');
      this.notPulled.push(this.entryOf(o.change, o.change.direction ?? 'unknown', o.fields, 'docket cannot tell which document declares it'));
      return;
    }
    const { file, index } = d.document;
    const base = d.pointer ?? '';
    this.writing.push({ file, index, pointer: base, entry: o });
    const ctx = this.configContext(d);
    let liveDoc: Record<string, unknown> | undefined;
    const liveDocument = (): Record<string, unknown> => (liveDoc ??= kind.toConfig?.(l, ctx).document ?? {});
    let doc = this.current(file, index);
    for (const field of o.fields) {
      const at = valueAt(doc, base);
      const written = isPlainObject(at) ? at : {};
      const where: PullField = kind.pullField?.(field, l, written, ctx) ?? this.defaultField(field, l, d, liveDocument());
      if ('cannot' in where) {
        o.failed.add(field);
        // At the field's own line: another changed field of the object may be written elsewhere (probe FQ).
        this.notPulled.push(this.entryOf(o.change, o.change.direction ?? 'unknown', [field], (where.fromApp ? this.sharedUserFile(kind, field, written, file, o.change) : undefined) ?? where.cannot, d, valueSourceOf(d.fieldSources, field)));
        continue;
      }
      if ('file' in where) {
        // Named with a placeholder (`${var.region}.md`), the file is the one the placeholder names in this run.
        this.writeDataFile(resolveDataPath(file, this.input.expand(where.file)), where.text, Boolean(where.yaml), o, field);
        continue;
      }
      const pointer = base + where.pointer;
      const parent = valueAt(liveDocument(), where.pointer.slice(0, where.pointer.lastIndexOf('/')));
      // A document's own keys come before its children's list (a playbook's description before its rules).
      const order = where.pointer.lastIndexOf('/') === 0 ? this.keyOrder(kind.name, liveDocument()) : isPlainObject(parent) ? Object.keys(parent) : [];
      // Live text is written literally: a `${` typed in the app is no placeholder.
      const current = valueAt(doc, pointer);
      const value = literalPlaceholders(kind.keepWritten?.(field, current, where.value, written, this.input.expand) ?? where.value);
      // A field compared exactly (a definition: parsed YAML, line breaks and all) is written as live has it,
      // not in the file's convention for a final line break, which would read back as a change (probe KC-1).
      const exact = 'exact' in where && where.exact === true;
      doc = setAt(doc, pointer, exact ? value : this.styledText(file, index, pointer, current, value), order, this.owned);
      if (exact) this.editOf(file).exact.add(`${index}\u0000${pointer}`);
      if ('noneByHand' in where) {
        (o.noneByHand ??= new Set()).add(field);
        // No null stands for none there either: a merge giving the key is written out instead (probe IG-2).
        this.editOf(file).absent.add(`${index}\u0000${pointer}`);
      }
      (o.pointers ??= new Map()).set(field, [pointer]);
    }
    if (o.change.action === 'rename' && o.fields.includes('name') && !o.failed.has('name')) {
      doc = this.withFormerName(doc, base, d, normName(l.name));
      o.pointers?.get('name')?.push(`${base}/renamed_from`);
    }
    this.editOf(file).documents.set(index, doc);
  }

  /**
   * A rename pulled from the app keeps the name it replaces in `renamed_from`: another environment
   * of these files still has the object under it, and renames it there instead of making a second.
   * Not when another object of the files has that name. Another's `renamed_from` naming it gives it
   * up, and so does one naming its new name: the rename just pulled is the later one (an environment
   * as far back as that one's rename is rare; an environment at the last applied files is the rule).
   */
  private withFormerName(doc: unknown, base: string, d: DesiredResource, name: string): unknown {
    const written = valueAt(doc, base);
    if (!isPlainObject(written)) return doc;
    const had = formerNames(written);
    // The list as the file writes it: a name holding `${` is written `$${` there (probe HY-4).
    // Renamed back to a name it had: that name is its own again, no former one.
    const listed = had.filter((n) => !sameName(n, literalPlaceholders(name)));
    const former = d.name;
    let next = listed;
    if (!listed.some((n) => sameName(n, literalPlaceholders(former))) && !this.namedOtherwise(d, former)) {
      next = [...listed, literalPlaceholders(former)];
      for (const other of this.listingFormer(d, former)) doc = this.withoutFormer(doc, d, other, former);
    }
    // The new name is this object's now: another that lists it as a former name gives it up too, or
    // the files would declare it both as a name and as another's former one (probe XH-2).
    for (const other of this.listingFormer(d, name)) doc = this.withoutFormer(doc, d, other, name);
    if (next.length === had.length && next.every((n, i) => n === had[i])) return doc;
    if (next.length === 0) return setAt(doc, `${base}/renamed_from`, undefined, [], this.owned);
    const keys = Object.keys(written);
    const order = [...keys.slice(0, keys.indexOf('name') + 1), 'renamed_from', ...keys.slice(keys.indexOf('name') + 1)];
    return setAt(doc, `${base}/renamed_from`, next, order, this.owned);
  }

  /** Whether another object of the files is named `former` (in `d`'s scope). */
  private namedOtherwise(d: DesiredResource, former: string): boolean {
    const named = this.desired.get(formerKey(d, former));
    return named !== undefined && named !== d;
  }

  /** The other objects (in `d`'s scope) whose `renamed_from` lists `former`. */
  private listingFormer(d: DesiredResource, former: string): DesiredResource[] {
    if (!this.formerIndex) {
      this.formerIndex = new Map();
      for (const o of this.desired.values()) for (const name of o.renamedFrom) addTo(this.formerIndex, formerKey(o, name), o);
    }
    return (this.formerIndex.get(formerKey(d, former)) ?? []).filter((o) => o !== d);
  }
  /** Declared objects by a former name they list, in their scope: made when a pulled rename first asks. */
  private formerIndex: Map<string, DesiredResource[]> | undefined;

  /** `other`'s `renamed_from` without `former`, edited where it is written: in `doc` when it is `d`'s document (a rule beside it). */
  private withoutFormer(doc: unknown, d: DesiredResource, other: DesiredResource, former: string): unknown {
    if (!other.document) return doc;
    const { file, index } = other.document;
    const same = d.document !== undefined && d.document.file === file && d.document.index === index;
    const base = other.pointer ?? '';
    const root = same ? doc : this.current(file, index);
    const written = valueAt(root, base);
    if (!isPlainObject(written)) return doc;
    const left = formerNames(written).filter((n) => !sameName(n, former));
    const edited = setAt(root, `${base}/renamed_from`, left.length === 0 ? undefined : left, [], this.owned);
    if (same) return edited;
    this.editOf(file).documents.set(index, edited);
    return doc;
  }

  /**
   * An object renamed in the app is renamed in the documents that name it too (a custom template's
   * `custom_term`), else the next plan cannot resolve them. A name written through a variable is
   * reported instead.
   */
  private repointReferences(o: Pulling): void {
    const { change: c, l } = o;
    if (c.action !== 'rename' || c.parent || !l || o.failed.has('name') || o.failed.has('*') || this.renamesHeld.has(refKey(c.kind, c.key))) return;
    for (const { d, ref } of this.referencesTo(c.kind, c.key)) {
      if (!d.document) continue;
      const { file, index } = d.document;
      const pointer = `${d.pointer ?? ''}/${ref.field.split('.').join('/')}`;
      const doc = this.current(file, index);
      const written = valueAt(doc, pointer);
      // The referrer's own pull edited the reference (linked to another object live, or to none):
      // that edit stands, not this rename written over it (probe OP-1), nor a note to undo it (OP-4).
      if (typeof written === 'string' ? variablesIn(written).length === 0 && normName(literalText(written)) !== c.key : written === undefined) continue;
      const linked = this.linkedLive(d, ref.field);
      if (linked !== undefined && !linked.includes(l.id)) {
        // Not pulled now (outside --target or --kind): the referrer links another object live, which its own pull writes.
        const at = ref.source ? `${ref.source.file}:${ref.source.line}` : file;
        const now = linked.length === 0 ? 'links none live now' : `links ${linked.map((id) => quoteValue(this.liveById.get(id)?.name ?? id)).join(', ')} live now`;
        this.notes.push(`${at}: \`${ref.field}\` names ${c.kind} ${quoteValue(c.key)}, renamed ${quoteValue(l.name)} in the app, but ${d.kind} ${quoteValue(d.key)} ${now}: pull it too, or write the name it should link`);
        continue;
      }
      if (typeof written === 'string' && variablesIn(written).length === 0) {
        this.followedRenames.add(o);
        this.editOf(file).documents.set(index, setAt(doc, pointer, literalPlaceholders(l.name), [], this.owned));
        // Its record says so too: the next edit of the reference in the files is the files' alone.
        const key = refKey(d.kind, d.key);
        const record = this.sync.get(key) ?? syncedRecordOf(this.input.sync, this.input.plan.ids[key], key);
        if (record?.fields[ref.field] !== undefined) this.sync.set(key, { ...record, fields: { ...record.fields, [ref.field]: fieldHash(normName(l.name)) } });
      } else {
        const at = ref.source ? `${ref.source.file}:${ref.source.line}` : file;
        // A placeholder is never written over: its variable is what to change.
        const used = typeof written === 'string' ? variablesIn(written) : [];
        const names = [...new Set(used)];
        const variables = names.join(', ');
        // One placeholder is the whole name; among other text, the variables give part of it, or none can (second read SR-10).
        const fit = names.length === 0 ? undefined : placeholderFit(written as string, l.name);
        const fix =
          fit === undefined ? 'write the new name there'
          : fit === 'whole' ? `change ${variables} to it (docket writes over no placeholder)`
          : fit === 'some' ? `change ${variables} so that \`${written as string}\` reads it (docket writes over no placeholder)`
          : `edit the text around ${variables} there, which no value of ${used.length === 1 ? 'it' : 'them'} changes (docket writes over no placeholder)`;
        this.notes.push(`${at}: \`${ref.field}\` names ${c.kind} ${quoteValue(c.key)}, renamed ${quoteValue(l.name)} in the app; ${fix}`);
      }
    }
  }

  /**
   * A playbook, template or rule renamed in the app is renamed in the test files that name it too
   * (`playbook:`, `template:`, a rule in a case's expectations), else `docket test` and `validate`
   * refuse them. Each one is said in the notes.
   */
  private renameInTests(o: Pulling): void {
    const { change: c, l } = o;
    if (c.action !== 'rename' || !l || o.failed.has('name') || o.failed.has('*') || this.renamesHeld.has(refKey(c.kind, c.key))) return;
    const from = c.parent ? c.key.slice(c.parent.key.length + 1) : c.key;
    // A rule's tests name its playbook by its files' name, or by its new one when that was renamed too.
    const parents = c.parent ? new Set([c.parent.key, normName(this.liveById.get(l.parentId ?? '')?.name)]) : undefined;
    for (const [file, mentions] of this.testsNaming(c.kind, from, parents)) {
      // Said in line order, as the diff shows them (probe OW-4).
      const inOrder = mentions.map((m) => ({ ...m, line: this.lineOf(file, m.index, m.pointer) })).sort((a, b) => a.line - b.line);
      // An aliased list names it at its anchor's line for each alias: said once there (probe TG-2).
      const said = new Set<number>();
      for (const { index, pointer, line } of inOrder) {
        this.followedRenames.add(o);
        // Test files are read as written, `${` included: the name goes in unescaped (probe HY-5).
        this.editOf(file).documents.set(index, setAt(this.current(file, index), pointer, l.name, [], this.owned));
        if (said.has(line)) continue;
        said.add(line);
        this.notes.push(`${file}:${line}: now names ${c.kind} ${quoteValue(l.name, Infinity)}, renamed in the app from ${quoteValue(from, Infinity)}`);
        this.done++;
      }
    }
  }

  /**
   * A playbook or rule removed in the app leaves its file, but a test naming it would then be
   * refused by `validate` and `docket test`: each such place is said in the notes (a test is the
   * team's to drop, so pull does not edit it).
   */
  private removedFromTests(o: Pulling): void {
    const { change: c } = o;
    if (o.failed.size > 0) return;
    const name = c.parent ? c.key.slice(c.parent.key.length + 1) : c.key;
    const what = c.parent ? 'remove it from the test' : 'remove the test';
    // Its playbook by its files' name, or by the new one this pull wrote into the tests (renamed in
    // the app too); not a name another declared playbook has (two that swapped names, left as they are).
    const liveName = c.parent?.liveId ? this.liveById.get(c.parent.liveId)?.name : undefined;
    const renamedTo = liveName !== undefined && c.parent && !this.desired.has(refKey(c.parent.kind, normName(liveName))) ? normName(liveName) : undefined;
    const parents = c.parent ? new Set([c.parent.key, ...(renamedTo === undefined ? [] : [renamedTo])]) : undefined;
    // Not removed but still live under another playbook: moved with it, renamed in the app while a
    // new one took its name. The test is that one's to name, not to drop (probe WG-1).
    // Named as it is live now, a rename in the app too (second read SR95B-2).
    const moved = c.parent ? this.liveById.get(this.input.sync.idOf(refKey(c.kind, c.key)) ?? '') : undefined;
    const movedTo = moved ? this.liveById.get(moved.parentId ?? '') : undefined;
    const said = moved && movedTo
      ? `, which moved in the app with its ${c.parent!.kind}, now ${c.kind} ${quoteValue(moved.name, Infinity)} of ${c.parent!.kind} ${quoteValue(movedTo.name, Infinity)}: if the test was written for that one, name them so in the test (validate and docket test refuse it as it is)`
      : `, removed in the app; ${what} (validate and docket test refuse it)`;
    for (const [file, mentions] of this.testsNaming(c.kind, name, parents)) {
      const lines = new Set(mentions.map(({ index, pointer }) => this.lineOf(file, index, pointer)));
      for (const line of lines) this.notes.push(`${file}:${line}: names ${c.kind} ${quoteValue(c.key, Infinity)}${said}`);
    }
  }

  /** Where the test files name an object: a playbook or template as the subject, a rule (of one of `parents`) in the expectations. */
  private testsNaming(kind: KindName, name: string, parents: Set<string> | undefined): Map<string, { index: number; pointer: string }[]> {
    const out = new Map<string, { index: number; pointer: string }[]>();
    const role = testNamesOf(kind);
    if (!role) return out;
    // Rules as the tests match them (README: Matching rules): a name validate takes is a name renamed
    // here; of rules whose names compare alike (Term, TERM), the one the test writes (probe EA-1).
    const resolve = role.part ? this.partsResolver(kind, parents) : undefined;
    const same = (written: string, rule: string): boolean => (resolve ? resolve(written) === rule : nameKey(written) === nameKey(rule));
    for (const file of this.input.tests ?? []) {
      if (this.conflictedTest(file)) continue;
      // The names as the file was read: two objects that swapped names would otherwise each undo the other's edit.
      this.docValues(file).forEach((asRead, index) => {
        const names = testNames(asRead);
        if (!names || names.test !== role.test) return;
        const found = role.part
          ? parents?.has(normName(names.subject.name)) ? names.parts.filter((p) => same(p.name, name)) : []
          : normName(names.subject.name) === name ? [names.subject] : [];
        if (found.length > 0) out.set(file, [...(out.get(file) ?? []), ...found.map((f) => ({ index, pointer: f.pointer }))]);
      });
    }
    return out;
  }

  /**
   * Resolves a name a test writes to the `kind` the files declare in the first of `parents` (their
   * playbook as the files name it), as the tests match it; undefined when it declares none.
   * Indexed once per pull (second read SR103-1).
   */
  private partsResolver(kind: KindName, parents: Set<string> | undefined): ((written: string) => string | undefined) | undefined {
    const parent = parents ? [...parents][0] : undefined;
    if (parent === undefined) return undefined;
    if (!this.declaredParts) {
      this.declaredParts = new Map();
      for (const d of this.input.desired) if (d.parent) addTo(this.declaredParts, `${d.kind}\0${d.parent.key}`, d.key.slice(d.parent.key.length + 1));
    }
    const at = `${kind}\0${parent}`;
    let resolve = this.partResolvers.get(at);
    if (resolve === undefined) {
      const names = this.declaredParts.get(at) ?? [];
      resolve = names.length > 0 ? ruleResolver(names) : null;
      this.partResolvers.set(at, resolve);
    }
    return resolve ?? undefined;
  }
  private declaredParts: Map<string, string[]> | undefined;
  private readonly partResolvers = new Map<string, ((written: string) => string | undefined) | null>();

  /**
   * A test file holding git's conflict markers names nothing pull can read: not edited (its edit
   * would not parse), and said once, where the conflict starts.
   */
  private conflictedTest(file: string): boolean {
    let conflicted = this.conflictedTests.get(file);
    if (conflicted === undefined) {
      const markers = conflictMarkers(this.input.read(file) ?? '');
      conflicted = markers !== undefined;
      this.conflictedTests.set(file, conflicted);
      if (markers) this.notes.push(`${file}:${markers.lines[0]}: holds git's conflict markers ${markersNamed(markers)}, so no name in it is changed to one renamed in the app; resolve the conflict, then run docket validate, which names what to rename`);
    }
    return conflicted;
  }
  private readonly conflictedTests = new Map<string, boolean>();

  private readonly positions = new Map<string, ReturnType<typeof parseWithPositions>['documents']>();
  /** The line a value is written on in a file as read. */
  private lineOf(file: string, index: number, pointer: string): number {
    let docs = this.positions.get(file);
    if (!docs) this.positions.set(file, (docs = parseWithPositions(this.input.read(file) ?? '', file).documents));
    return docs.find((d) => d.index === index)?.positions.valueAt(pointer).line ?? 1;
  }

  /** Declared references, by what they name: indexed once, when the first object renamed in the app asks. */
  private referrers: Map<string, { d: DesiredResource; ref: Ref }[]> | undefined;
  /** The ids the live object of `d` links through `field` (none: an empty list), or undefined when it is not live or the kind keeps no ids. */
  private linkedLive(d: DesiredResource, field: string): string[] | undefined {
    const live = this.liveById.get(this.input.plan.ids[refKey(d.kind, d.key)] ?? '');
    if (!live?.refIds || !Object.hasOwn(live.refIds, field)) return undefined;
    const ids = live.refIds[field];
    return (Array.isArray(ids) ? ids : [ids]).filter((id): id is string => typeof id === 'string' && id !== '');
  }

  private referencesTo(kind: KindName, key: string): readonly { d: DesiredResource; ref: Ref }[] {
    if (!this.referrers) {
      this.referrers = new Map();
      for (const d of this.input.desired) {
        for (const ref of d.refs ?? []) {
          const at = refKey(ref.kind, ref.key);
          const list = this.referrers.get(at);
          if (list) list.push({ d, ref });
          else this.referrers.set(at, [{ d, ref }]);
        }
      }
    }
    return this.referrers.get(refKey(kind, key)) ?? [];
  }

  /** The field's value in the kind's export document; absent there, none (owned kinds) or the live value (partial ones). */
  private defaultField(field: string, l: LiveResource, d: DesiredResource, liveDoc: Record<string, unknown>): PullField {
    const pointer = `/${field.split('.').join('/')}`;
    const value = valueAt(liveDoc, pointer);
    return { pointer, value: value === undefined && d.partial ? l.fields[field] : value };
  }

  private writeDataFile(path: string, text: string, yaml: boolean, o: Pulling, field: string): void {
    // Named by another declared object too: written for this one, it would change that one.
    const other = this.otherSharer(path, o.change);
    // A byte-order mark at the start of a file is read past: the text written would read as another.
    const why = other !== undefined ? `${path} is also the file of ${other.replace(':', ' ')}: written, it would change that one too; give each its own file, or change them by hand` : text.startsWith('\uFEFF') ? `live ${markedText(path)}` : undefined;
    if (why !== undefined) {
      o.failed.add(field);
      this.notPulled.push(this.entryOf(o.change, o.change.direction ?? 'unknown', [field], why, o.d));
      return;
    }
    addTo(this.dataFileOwners, path, o);
    const before = this.dataFiles.get(path) ?? this.input.read(path);
    if (before === undefined) {
      o.failed.add(field);
      this.notPulled.push(this.entryOf(o.change, o.change.direction ?? 'unknown', o.fields, `${path} cannot be read`, o.d));
      return;
    }
    const json = yaml ? jsonObjectOf(before) : undefined;
    const value = json ? documentValues(text)[0] : undefined;
    // What JSON cannot hold (`.inf` live) is edited in as YAML: the file then says it, in YAML's words.
    if (json && isRecord(value) && fitsJson(value)) {
      const kept = jsonLike(before, json, value, true);
      // Kept in the file's key order unless the kind compares order (a section's fields reordered in the app).
      this.dataFiles.set(path, withEndingsOf(before, this.kinds.get(o.change.kind)?.sameField?.(field, text, kept) === false ? jsonLike(before, json, value, false) : kept));
      return;
    }
    if (yaml) {
      // Only what changed is re-formatted: the file is edited to hold the live definition.
      try {
        // Read as docket reads a definition: a field named `null:` is the name null, not "" (probe ZK-1).
        const edited = editYaml(before, { documents: new Map([[0, documentValues(text)[0]]]), bothVersions: true, exactTypes: () => true, placeholders: false });
        // An edit in place keeps the file's key order: where the kind compares order too (the
        // fields of a definition's section, reordered in the app), the live text is written whole (probe GY).
        if (edited.text !== null && this.kinds.get(o.change.kind)?.sameField?.(field, text, edited.text) === false) {
          // The editor's modeline stays, as the README promises of a definition file (probe KN-5).
          // Wherever the file's opening comments hold it (probe SH-1).
          const modeline = headerModeline(before);
          const whole = modeline !== undefined && headerModeline(text) === undefined ? `${modeline}\n${text}` : text;
          this.dataFiles.set(path, withEndingsOf(before, whole));
          // Said as what pull does: a dry run prints the same notes (probe HB).
          this.notes.push(`pull writes ${path} whole from the live text, whose fields are in another order than the file's: comments in it are not kept${modeline !== undefined ? ' (but for its editor modeline)' : ''}`);
        } else this.dataFiles.set(path, edited.text ?? '');
      } catch (error) {
        o.failed.add(field);
        this.notes.push(`docket could not edit ${path} safely (${firstLine(error)}); nothing was written to it`);
      }
      return;
    }
    this.dataFiles.set(path, withEndingsOf(before, text));
  }

  /**
   * A new object whose text export would write into a text file of its own starting with a
   * byte-order mark (read past there). A guard for kinds to come: a custom term writes such a
   * text as `body:` in its document, where it is kept.
   */
  private markedForTextFile(l: LiveResource): string | undefined {
    const kind = this.kinds.get(l.kind);
    if (!Object.values(kind?.dataFiles ?? {}).includes('text')) return undefined;
    const marked = kind?.toConfig?.(l, this.configContext(undefined)).dataFiles?.find((f) => f.content.startsWith('\uFEFF'));
    return marked === undefined ? undefined : `its text for ${marked.name} ${markedText('a file')}`;
  }

  private sharers: Map<string, string[]> | undefined;

  /**
   * Why a user's file (a Word term's docx) that pull cannot write must not be saved over by hand
   * either: another declared object names it too, and the next apply would publish the app's
   * version to that one as well, which cannot be undone (probe CJ-1).
   */
  private sharedUserFile(kind: AnyKind, field: string, written: Record<string, unknown>, docFile: string, change: Change): string | undefined {
    const pathKey = kind.fileFields?.[field];
    const named = pathKey ? written[pathKey] : undefined;
    if (typeof named !== 'string') return undefined;
    const path = resolveDataPath(docFile, this.input.expand(named));
    const other = this.otherSharer(path, change);
    return other === undefined ? undefined : `the service cannot give a Word file back, and ${path} is also the file of ${other.replace(':', ' ')}: saved over with this one's version from the app, the next apply would publish it to that one too; give each its own file, then save the app's version into this one's`;
  }

  /** Another declared object (`kind:key`) that names the data file at `path` besides `change`'s. By the file a write reaches: a link to another object's file is that file (probe HV-5). */
  private otherSharer(path: string, change: Change): string | undefined {
    const self = refKey(change.kind, change.key);
    return this.dataFileSharers().get(this.input.realPath?.(path) ?? path)?.find((key) => key !== self);
  }

  /** The declared objects that name each data file (root-relative path), by `kind:key`. */
  private dataFileSharers(): Map<string, string[]> {
    if (this.sharers) return this.sharers;
    this.sharers = new Map();
    for (const d of this.input.desired) {
      const fields = Object.keys(this.kinds.get(d.kind)?.dataFiles ?? {});
      if (fields.length === 0 || !d.document) continue;
      const doc = valueAt(this.docValues(d.document.file)[d.document.index], d.pointer ?? '');
      for (const field of fields) {
        const named = isPlainObject(doc) ? doc[field] : undefined;
        if (typeof named !== 'string') continue;
        const path = resolveDataPath(d.document.file, this.input.expand(named));
        addTo(this.sharers, this.input.realPath?.(path) ?? path, refKey(d.kind, d.key));
      }
    }
    return this.sharers;
  }

  /**
   * Children made live (rules) go into their parent's list (`rules:`) after the nearest sibling
   * before them in the live order that the file declares (or before the nearest one after them);
   * children removed live leave it.
   */
  private rebuildChildren(inserts: Pulling[], removals: Pulling[]): void {
    const byParent = new Map<string, { inserts: Pulling[]; removals: Pulling[] }>();
    const group = (o: Pulling) => {
      const key = refKey(o.change.parent!.kind, o.change.parent!.key);
      if (!byParent.has(key)) byParent.set(key, { inserts: [], removals: [] });
      return byParent.get(key)!;
    };
    for (const o of inserts) if (o.change.parent) group(o).inserts.push(o);
    for (const o of removals) if (o.change.parent) group(o).removals.push(o);
    for (const [parentKey, work] of byParent) {
      const parent = this.desired.get(parentKey);
      const kind = parent ? this.kinds.get(parent.kind) : undefined;
      const childKind = this.input.kinds.find((k) => k.parentKind === parent?.kind && k.parentField);
      if (!parent?.document || !kind || !childKind?.parentField) {
        for (const o of [...work.inserts, ...work.removals]) o.failed.add('*');
        continue;
      }
      const field = `/${childKind.parentField}`;
      const { file, index } = parent.document;
      const doc = this.current(file, index);
      const list = valueAt(doc, field);
      const items = Array.isArray(list) ? list : [];
      const parentLiveId = this.input.plan.ids[parentKey];
      const siblings = this.input.live.filter((l) => l.kind === childKind.name && l.parentId === parentLiveId);
      // Each item of the list with the live id it is matched to.
      const idAt = new Map<number, string>();
      for (const d of this.input.desired) {
        if (d.kind !== childKind.name || d.parent?.key !== parent.key || !d.pointer) continue;
        const id = this.input.plan.ids[refKey(d.kind, d.key)];
        if (id) idAt.set(Number(d.pointer.slice(field.length + 1)), id);
      }
      const removed = new Set(work.removals.map((o) => Number(o.d?.pointer?.slice(field.length + 1))));
      // A child renamed in the app while a new one took its name there: the renamed one takes the
      // item's history (its name and renamed_from), which another environment renames by (probe LR-1).
      const heirs = new Map(work.inserts.flatMap((o) => {
        const d = o.l && o.l.parentId === parentLiveId ? this.historyOf(o.l) : undefined;
        return d?.pointer ? [[o, d] as const] : [];
      }));
      const historyGone = new Set([...heirs.values()].map((d) => Number(d.pointer!.slice(field.length + 1))));
      for (const d of heirs.values()) this.settingsHandedOver.add(refKey(d.kind, d.key));
      // A field the parent's `ignore_fields` leaves to the app is never pulled, a new child's neither (probe GB).
      const ignored = parent.policy?.ignoreFields ?? [];
      // The item stays the new object's: its history, and its own settings, went with the renamed one.
      const handedOver = (value: Record<string, unknown>, id: string | undefined): Record<string, unknown> => {
        const l = id === undefined ? undefined : siblings.find((s) => s.id === id);
        return withoutOwnSettings(withoutKey(value, 'renamed_from'), l ? this.liveDocument(childKind.name, l, parent) : undefined, ignored);
      };
      const kept: ListEntry[] = items
        .map((value, i) => ({ value: historyGone.has(i) && isPlainObject(value) ? handedOver(value, idAt.get(i)) : value, id: idAt.get(i), from: i }))
        .filter((_, i) => !removed.has(i));
      for (const o of work.removals) this.writing.push({ file, index, pointer: o.d?.pointer ?? field, entry: o });
      const liveOrder = new Map(siblings.map((l, i) => [l, i]));
      // (One live lists under no parent known here goes at the end.)
      const ordered = work.inserts.filter((o) => o.l).sort((a, b) => (liveOrder.get(a.l!) ?? Infinity) - (liveOrder.get(b.l!) ?? Infinity));
      // Inside `[…]` text is a quoted string, which would show a final line break as `\n`.
      const inFlow = ordered.length > 0 && addsToFlowList(this.documentsOf(file), index, field);
      const entries = placeInserts(kept, siblings, ordered, (o) => {
        const asLive = childKind.toConfig?.(o.l!, this.configContext(parent)).document ?? { name: o.l!.name };
        const heir = heirs.get(o);
        const whole = heir ? withKeyAfterName(asLive, 'renamed_from', [this.writtenName(heir), ...this.writtenFormerNames(heir)]) : asLive;
        const exported = ignored.length === 0 ? whole : Object.fromEntries(Object.entries(whole).filter(([k]) => !ignored.includes(k)));
        const escaped = literalPlaceholders(inFlow ? withoutFinalBreaks(exported) : exported);
        // The item whose history it takes keeps its own policy keys, as written (probe MM-5), and the placeholders live still reads as (probe GH-1).
        if (!heir || !isPlainObject(escaped)) return escaped;
        const entry = this.writtenEntry(heir) ?? {};
        const lost = placeholdersKept(entry, heir, o.l!).lost;
        if (lost.length > 0) this.notes.push(placeholdersWrittenOver(o.l!, lost, file));
        return withSettings(escaped, historyWritten(entry, heir, o.l!, ignored));
      });
      // Where each item ends up, once every insert is made (a later one may go before an earlier one).
      const moves = new Map<number, number>();
      entries.forEach((e, at) => {
        if (e.from !== undefined) moves.set(e.from, at);
        if (e.inserted) this.writing.push({ file, index, pointer: `${field}/${at}`, entry: e.inserted, placed: true });
      });
      this.listMoves.push({ file, index, field, moves });
      this.editOf(file).documents.set(index, setAt(doc, field, entries.map((e) => e.value), [], this.owned));
      for (const [o, d] of heirs) {
        this.notes.push(historyHandedOver(o.l!.kind, o.l!.key, d.key, `its new item in ${file}`, d.renamedFrom.length > 0 ? 'its former `renamed_from`' : undefined));
      }
    }
  }

  private removeDocument(o: Pulling): void {
    if (!o.d?.document) {
      o.failed.add('*');
      return;
    }
    this.editOf(o.d.document.file).remove.add(o.d.document.index);
    // So a file that cannot be edited safely leaves it reported as not pulled, its record kept.
    this.writing.push({ file: o.d.document.file, index: o.d.document.index, pointer: '', entry: o });
  }

  /** Digests of live names → those the files give them, of what the plan renames (liveRenames). */
  private renames: LiveRenames | undefined;

  /** An object the files dropped (prune is off, so no change removes it) that changed live since the last sync: for a person to settle. */
  private droppedButEditedLive(l: LiveResource): void {
    // One a change removes (prune on) is said with that change (consider).
    this.removedByPlan ??= new Set(this.input.plan.changes.flatMap((c) => ((c.action === 'archive' || c.action === 'delete') && c.liveId ? [c.liveId] : [])));
    if (this.removedByPlan.has(l.id)) return;
    this.renames ??= liveRenames([...this.input.plan.changes, ...(this.input.plan.held ?? [])], this.input.kinds);
    const edited = (this.input.named?.(l) ?? true) ? droppedEditedLive(l, this.input.sync, this.renames) : [];
    if (edited.length > 0) this.notPulled.push({ kind: l.kind, key: l.key, name: l.name, direction: 'changed-both', fields: edited, reason: 'removed from the files and changed live since the last sync: keep one by hand (to keep the live edit, put it back in the files)' });
    this.childWorkNotPulled({ kind: l.kind, key: l.key }, editedLiveChildren(l.id, this.input.sync, (id) => this.childrenOf(id)));
  }

  /** Rules edited or made in the app inside a playbook the files removed: for a person to settle. */
  private childWorkNotPulled(parent: { kind: KindName; key: string }, work: readonly ChildWork[]): void {
    const parentKind = parent.kind;
    for (const { child, fields, made } of work) {
      if (this.input.childInScope && !this.input.childInScope({ ...child, parent })) continue;
      const reason = made
        ? `its ${parentKind} is removed from the files, and it is in no sync record (made in the app since the last sync, or never recorded): keep one by hand (to keep it, put the ${parentKind} back in the files)`
        : `its ${parentKind} is removed from the files, and it changed live since the last sync: keep one by hand (to keep the live edit, put the ${parentKind} back in the files)`;
      this.notPulled.push({ kind: child.kind, key: child.key, name: child.name, direction: made ? 'only-live' : 'changed-both', fields, reason });
    }
  }

  /** Objects no file declares: a file each, as `docket export` lays it out (next free name). */
  private writeNewObjects(): void {
    const kinds = this.input.kinds;
    const quiet = (k: AnyKind | undefined): boolean => !k || k.deletion === 'never' || Boolean(k.internal) || !k.layout || !k.toConfig;
    const childrenOf = (l: LiveResource): readonly LiveResource[] => this.childrenOf(l.id);
    const fresh = this.input.unmatched.filter((l) => {
      if (quiet(this.kinds.get(l.kind))) return false;
      // Said on every pull until it is adopted, recorded in sync or not (the pull that wrote it records it).
      const pendingIn = pendingDocumentOf(this.input.pendingDocuments, l);
      if (pendingIn !== undefined) {
        this.notes.push(`${pendingIn}: names ${l.kind} ${quoteValue(l.name)}, which is live: add the file it names, rename it to .yaml, then \`docket apply --adopt-files\` (not written again)`);
        return false;
      }
      // Declared before and dropped from the files: not written (as drift says); changed live since, said.
      if (droppedFromFiles(l, this.input.sync, this.input.plan.ids, this.declaredKeys)) {
        this.droppedButEditedLive(l);
        return false;
      }
      // A new file validate would refuse (a rule's text with a control character) is not written.
      const alike = this.lookAlikeDeclared(l.kind, undefined, l.name);
      const cutOff = this.heirCutOff(l);
      const refused = [l, ...childrenOf(l)].map((o) => [o, (o === l ? ((cutOff && heirLeftOut(cutOff)) ?? this.renameHeldByPolicy(l) ?? alike ?? this.refusedWhenChecked.get(refKey(l.kind, l.key)) ?? keyInFileName(l, this.input.findKey) ?? this.placeholdersLost(l, childrenOf(l))) : undefined) ?? this.sharedLiveName(o) ?? this.stillDeclaredAs(o) ?? refusedLiveValue(o, Object.keys(o.fields), this.input.findKey) ?? this.markedForTextFile(o)] as const).find(([, why]) => why !== undefined);
      if (refused) this.notPulled.push({ kind: l.kind, key: l.key, name: l.name, direction: 'only-live', fields: [], reason: `${refused[0] === l ? '' : `its ${refused[0].kind} "${refused[0].name}": `}${refused[1]!}` });
      if (refused) this.unwrittenNew.set(l.id, l);
      const heir = refused ? this.historyOf(l) : undefined;
      if (heir) this.unhandedHistories.set(refKey(heir.kind, heir.key), l.name);
      return !refused;
    });
    if (fresh.length === 0) return;
    const ids = new Set(fresh.map((l) => l.id));
    const live = new Map<KindName, LiveResource[]>();
    for (const [kind, list] of this.liveByKind) live.set(kind, list);
    for (const k of kinds) if (!k.parentKind && k.layout) live.set(k.name, fresh.filter((l) => l.kind === k.name));
    for (const k of kinds) if (k.parentKind) live.set(k.name, (this.liveByKind.get(k.name) ?? []).filter((c) => c.parentId !== undefined && ids.has(c.parentId)));
    const exportKinds = kinds.filter((k) => fresh.some((l) => l.kind === k.name));
    const heirs = new Map(fresh.flatMap((l) => {
      const d = this.historyOf(l);
      return d ? [[l.id, d] as const] : [];
    }));
    const result = buildExport({
      kinds: exportKinds,
      registry: kinds,
      live,
      project: {},
      source: this.input.project,
      lock: this.input.lock,
      schema: this.input.schema,
      paths: this.input.paths,
      taken: this.input.taken,
      ...(this.input.folderOnDisk ? { folderOnDisk: this.input.folderOnDisk } : {}),
      formerNamesOf: (l) => {
        const d = heirs.get(l.id);
        return d ? [this.writtenName(d), ...this.writtenFormerNames(d)] : undefined;
      },
      declaredName: (kind, id) => this.matchedIds().get(`${kind}:${id}`),
      settingsOf: (o) => this.heirSettings(o, heirs),
      pulling: true,
    });
    for (const f of result.files) if (f.path !== 'docket.yaml') this.newFiles.push(f);
    // Its former names went with it: kept, the document now naming another object would claim them too.
    for (const [id, d] of heirs) {
      this.handOverHistory(d);
      const l = fresh.find((x) => x.id === id)!;
      this.notes.push(historyHandedOver(l.kind, l.name, d.name, 'its new file', d.renamedFrom.length > 0 ? `${d.document?.file ?? 'its document'}'s \`renamed_from\`` : undefined));
    }
    for (const l of fresh) {
      const file = result.parts.find((p) => p.kind === l.kind)?.documents[l.id];
      if (file) addTo(this.newFileObjects, file, refKey(l.kind, l.key));
      const missing = result.missing.find((m) => m.kind === l.kind && m.name === l.name);
      this.pulled.push({
        kind: l.kind,
        key: l.key,
        name: l.name,
        direction: 'only-live',
        fields: [],
        newFile: true,
        ...(file ? { file } : {}),
        ...(missing ? { reason: `add ${missing.path} (${missing.what}), then rename ${missing.document} to .yaml: the service cannot give the file back` } : {}),
      });
      // A pending document declares nothing yet: recorded, its object would read as one the files
      // dropped (export records none either; `apply --adopt-files` does, probe PL-3).
      if (missing) continue;
      this.sync.set(refKey(l.kind, l.key), wholeRecord(l));
      for (const child of childrenOf(l)) this.sync.set(refKey(child.kind, child.key), wholeRecord(child));
    }
    // What export says of a whole kind (attachments it cannot list) is not said of a pull's new objects.
    const kindNotes = new Set(exportKinds.flatMap((k) => k.exportNotes ?? []));
    this.notes.push(...result.notes.filter((note) => !kindNotes.has(note)));
  }

  /** Every edited file's new text (problems found there become reports). */
  private render(): FileChange[] {
    const out: FileChange[] = [];
    for (const [file, edit] of this.edits) {
      const before = this.input.read(file) ?? '';
      try {
        const exactTypes = (index: number, pointer: string): boolean => {
          const at = `${index}\u0000${pointer}`;
          return [...edit.exact].some((field) => at === field || at.startsWith(`${field}/`));
        };
        const { result, problems } = this.editUnlessHeld(file, before, edit, exactTypes);
        // Lines as the file will read once written.
        const positions = result.text === null || problems.length === 0 ? [] : parseWithPositions(result.text, file).documents;
        for (const p of problems) {
          const line = positions.find((d) => d.index === p.document - removedBefore(edit.remove, p.document))?.positions.valueAt(p.pointer).line ?? p.line;
          this.problem(file, { ...p, line });
        }
        const after = result.text === null ? null : asJsonWhereJson(before, result.text);
        if (after !== before) out.push({ path: file, before, after });
      } catch (error) {
        const reason = `docket could not edit ${file} safely (${firstLine(error)}); nothing was written to it`;
        // Each object whose change was to go there is told as not pulled, once.
        const entries = new Set(this.writing.filter((x) => x.file === file).map((w) => w.entry));
        for (const entry of entries) {
          // Fields already told as not pulled (a variable, a file the service cannot give) are not told twice.
          const told = entry.failed.has('*') || (entry.fields.length > 0 && entry.fields.every((f) => entry.failed.has(f)));
          const rest = entry.fields.filter((f) => !entry.failed.has(f));
          entry.failed.add('*');
          if (!told) this.notPulled.push(this.entryOf(entry.change, entry.change.direction ?? 'unknown', rest, reason, entry.d));
        }
        if (entries.size === 0) this.notes.push(reason);
        // A test file's names of renamed objects were noted as made when queued: not written, they are withdrawn (probe UF-2).
        const made = `${file}:`;
        for (let i = this.notes.length - 1; i >= 0; i--) {
          if (this.notes[i]!.startsWith(made) && / now names /.test(this.notes[i]!.slice(made.length))) {
            this.notes.splice(i, 1);
            this.done--;
          }
        }
      }
    }
    for (const [path, after] of this.dataFiles) {
      // The object's document could not be edited: its data file stays as it is too.
      if (this.dataFileOwners.get(path)?.some((o) => o.failed.has('*'))) continue;
      const before = this.input.read(path) ?? null;
      const written = before === null ? after : keptBom(before, after);
      if (written !== before) out.push({ path, before, after: written });
    }
    for (const f of this.newFiles) out.push({ path: f.path, before: null, after: f.content });
    return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /**
   * Removals of objects still live, moved in the app into an object no file declares that this pull
   * does not write (a playbook renamed in the app while another took its name): taken out of the
   * files, they would be in none (probe MM-5). Each is kept, with why; see planPull.
   */
  removalsIntoUnwritten(): Map<string, string> {
    const kept = new Map<string, string>();
    for (const r of this.removals) {
      const key = refKey(r.change.kind, r.change.key);
      const live = this.liveById.get(this.input.sync.idOf(key) ?? '');
      const holder = live && (this.unwrittenNew.get(live.id) ?? this.unwrittenNew.get(live.parentId ?? ''));
      if (holder) kept.set(key, `still live in the app, in ${holder.kind} ${quoteValue(holder.name)}, which this pull does not write (said above): left in the files until that is settled`);
    }
    return kept;
  }

  /** The documents unhandedHistories names that this pull did not hold yet: see planPull. */
  historiesUnhanded(): ReadonlyMap<string, string> {
    return new Map([...this.unhandedHistories].filter(([key]) => !this.heldHeirs.has(key)));
  }

  /** Renames that wrote into other files (tests, references) but not into their own: see planPull. */
  renamesUnwritten(): ReadonlySet<string> {
    return new Set([...this.followedRenames].filter((o) => o.failed.has('name') || o.failed.has('*')).map((o) => refKey(o.change.kind, o.change.key)));
  }

  /**
   * The objects whose writing makes a file validate refuses, each with why: the object written at
   * the problem's place (or the nearest place above it that one is written at), else the objects
   * whose data file the document names (an empty body), else (a YAML or document-wide problem)
   * every object written to the file. A removal writes nothing to blame.
   */
  async refusedByCheck(files: readonly FileChange[], check: NonNullable<PullInput['check']>): Promise<Map<string, string>> {
    const refused = new Map<string, string>();
    const refuse = (key: string, p: DocumentProblem, o?: Pulling): void => {
      if (refused.has(key) || this.refusedWhenChecked.has(key)) return;
      // A child made in the app, written without what its parent's `ignore_fields` leaves to the
      // app, which the file needs: nothing in the app is wrong (probe GF).
      const parent = !o?.d && o?.change.parent ? this.desired.get(refKey(o.change.parent.kind, o.change.parent.key)) : undefined;
      const left = (parent?.policy?.ignoreFields ?? []).filter((f) => p.message.includes(`\`${f}\``));
      if (parent && left.length > 0) {
        const named = left.map((f) => `\`${f}\``).join(', ');
        refused.set(key, `${p.path ? `${p.path}: ` : ''}${p.message}: the ${parent.kind}'s \`ignore_fields\` leaves ${named} out of what pull writes, so the file would not validate; write the ${o!.change.kind} into the file by hand, or take ${left.length === 1 ? 'it' : 'them'} out of \`ignore_fields\` and pull again`);
        return;
      }
      // A setting docket.yaml lacks is put right there, not in the app.
      if (SETTING_CODES.has(p.code)) refused.set(key, `${p.message}; ${p.hint ?? 'set it'}, then pull again`);
      else if (RENAME_IN_FILE_CODES.has(p.code)) {
        // The key renamed alone leaves the file naming the other version, which validate refuses as
        // much: the value live has (the plan's before) is written with it, by hand (probe AF-1).
        const values = (o?.change.fields ?? []).filter((f) => f.before !== undefined && !(p.path ?? '').startsWith(f.field)).map((f) => `\`${f.field}: ${JSON.stringify(f.before)}\``);
        const withValues = values.length > 0 ? ` and write ${values.join(', ')} with it, by hand (pull writes no file validate refuses), then plan` : ', then pull again';
        refused.set(key, `${p.path ? `${p.path}: ` : ''}${p.message}, as live now has it: rename the key in the file${withValues} (or set the value back in the app)`);
      }
      else refused.set(key, `${p.path ? `${p.path}: ` : ''}${p.message}, which docket refuses in the files; change it in the app, then pull again`);
    };
    // Data files written: edited ones, and a new object's (its body, its definition).
    const isData = (f: FileChange): boolean => this.dataFiles.has(f.path) || (f.before === null && !this.newFileObjects.has(f.path));
    const dataTexts = new Map(files.filter((f) => f.after !== null && isData(f)).map((f) => [f.path, f.after!]));
    // The documents whose data file is written are checked with its new text, their own written or not.
    const dataOwners = new Map<string, Pulling[]>();
    for (const path of dataTexts.keys()) for (const o of this.dataFileOwners.get(path) ?? []) if (o.d?.document) addTo(dataOwners, o.d.document.file, o);
    const checked = files.filter((f) => !this.dataFiles.has(f.path));
    for (const file of dataOwners.keys()) {
      const text = checked.some((f) => f.path === file) ? undefined : this.input.read(file);
      if (text !== undefined) checked.push({ path: file, before: text, after: text });
    }
    for (const f of checked) {
      // Test files are no resource documents (their own checks are elsewhere).
      // A pending document (a Word term's, waiting for its file) is checked for what docket.yaml
      // lacks only: renamed to .yaml once its file is added, it would be refused for that (probe SI-4).
      const active = activeFileOf(f.path);
      if (f.after === null || !(active !== undefined || /\.ya?ml$/i.test(f.path)) || isTestFile(f.path)) continue;
      const made = this.newFileObjects.get(f.path);
      if (f.before === null && !made) continue; // a new data file (a definition) of a new object
      const found = await check(active ?? f.path, f.after, dataTexts);
      const problems = active !== undefined ? found.filter((p) => SETTING_CODES.has(p.code)) : found;
      if (problems.length === 0) continue;
      if (made) {
        for (const p of problems) for (const key of made) refuse(key, p);
        continue;
      }
      const removed = this.edits.get(f.path)?.remove ?? new Set<number>();
      const owning = (dataOwners.get(f.path) ?? []).filter((o) => !removed.has(o.d!.document!.index));
      const written = this.writing.filter((w) => w.file === f.path && !removed.has(w.index) && !removes(w.entry.change));
      // Each document as written, by path: what each change wrote there.
      const at = new Map<number, Map<string, Writing>>();
      for (const w of written) {
        const index = w.index - removedBefore(removed, w.index);
        if (!at.has(index)) at.set(index, new Map());
        const path = pointerToPath(this.pointerWritten(w));
        if (!at.get(index)!.has(path)) at.get(index)!.set(path, w);
      }
      for (const p of problems) {
        const paths = at.get(p.index);
        const owner = paths ? pathAndParents(p.path ?? '').map((path) => paths.get(path)).find((w) => w !== undefined) : undefined;
        const ofData = owning.filter((o) => o.d!.document!.index - removedBefore(removed, o.d!.document!.index) === p.index);
        const blamed = owner ? [owner.entry] : ofData.length > 0 ? ofData : written.map((w) => w.entry);
        for (const o of blamed) refuse(refKey(o.change.kind, o.change.key), p, o);
      }
    }
    return refused;
  }

  /** Where a change is written, with the list items rebuildChildren moved. */
  private pointerWritten(w: Writing): string {
    return w.placed ? w.pointer : this.moved(w.file, w.index, w.pointer);
  }

  /** Where a place of the file as read is once pull has added, removed and moved list items (a rule). */
  private moved(file: string, index: number, pointer: string): string {
    for (const { file: f, index: i, field, moves } of this.listMoves) {
      if (f !== file || i !== index || !pointer.startsWith(`${field}/`)) continue;
      const [item, ...rest] = pointer.slice(field.length + 1).split('/');
      const to = moves.get(Number(item));
      if (to !== undefined) return [`${field}/${to}`, ...rest].join('/');
    }
    return pointer;
  }

  /**
   * The file edited, with every field a placeholder holds back (its live value differs from what
   * the variable gives) left as the file has it, whole: written in part (a list's other items), it
   * would be reported as not pulled while the file changed, and read as changed on both sides.
   */
  private editUnlessHeld(file: string, before: string, edit: FileEdit, exactTypes: (index: number, pointer: string) => boolean): { result: ReturnType<typeof editYaml>; problems: YamlEditProblem[] } {
    // A test file is read as written: its `${` is text, written over as any (second read SR-1).
    const asWritten = this.input.tests?.includes(file) === true;
    const request = (documents: Map<number, unknown>) => ({ documents, remove: edit.remove, expand: this.input.expand, ...(edit.exact.size > 0 ? { exactTypes } : {}), ...(edit.absent.size > 0 ? { absentAt: (index: number, pointer: string) => edit.absent.has(`${index}\u0000${pointer}`) } : {}), ...(asWritten ? { placeholders: false } : {}) });
    let documents = edit.documents;
    let result = editYaml(before, request(documents));
    const problems = [...result.problems];
    const undone = new Set<string>();
    // Each round undoes at least one more field, or is the last.
    for (;;) {
      let changed = false;
      for (const p of result.problems) {
        const held = this.ownerOf(file, p);
        for (const pointer of held?.owner.entry.pointers?.get(held.field ?? '') ?? []) {
          const key = `${p.document}\u0000${pointer}`;
          if (undone.has(key)) continue;
          undone.add(key);
          if (documents === edit.documents) documents = new Map(documents);
          // As the file has it, where the field is once pull's list edits (a rule added above it) are made.
          documents.set(p.document, setAt(documents.get(p.document), this.moved(file, p.document, pointer), valueAt(this.docValues(file)[p.document], pointer)));
          changed = true;
        }
      }
      if (!changed) return { result, problems };
      result = editYaml(before, request(documents));
      for (const p of result.problems) if (!problems.some((q) => q.document === p.document && q.pointer === p.pointer)) problems.push(p);
    }
  }

  /** The object whose writing holds a problem's place, and the field of it there. */
  private ownerOf(file: string, p: YamlEditProblem): { owner: Writing; field: string | undefined } | undefined {
    // The editor places a problem where the file has the item it patched (a child pull places, where it goes).
    const fieldOf = (w: Writing): string | undefined => {
      const field = p.pointer.slice(w.pointer.length + 1).replace(/\//g, '.');
      return w.entry.fields.find((f) => f === field || field.startsWith(`${f}.`));
    };
    const candidates = this.writing
      .filter((w) => w.file === file && w.index === p.document && (p.pointer === w.pointer || p.pointer.startsWith(`${w.pointer}/`)))
      .sort((a, b) => b.pointer.length - a.pointer.length);
    // An object renamed and edited in the app is written by two changes: the one that wrote this field owns it.
    const owner = candidates.find((w) => w.pointer === candidates[0]!.pointer && fieldOf(w) !== undefined) ?? candidates[0];
    return owner ? { owner, field: fieldOf(owner) } : undefined;
  }

  private problem(file: string, p: YamlEditProblem): void {
    const held = this.ownerOf(file, p);
    const owner = held?.owner;
    // Each variable once, and the live value quoted short: a long rule text may use one many times.
    const names = [...new Set(variablesIn(p.written))];
    const what = names.length > 0 ? names.join(', ') : quoteValue(p.written);
    // What the edit wanted written, each `${` of live's text as `$${`: live holds it as `${` (probe HT-1).
    const live = typeof p.wanted === 'string' ? literalText(p.wanted) : p.wanted;
    // The line end a block scalar (`|`) gives the text written is the file's, not live's (trailing
    // line breaks are never compared): live's value is quoted without it (probe HJ).
    const wanted = typeof live === 'string' ? quoteValue(live.replace(/\n+$/, '')) : JSON.stringify(live);
    // Cleared text is written `""` where no placeholder holds it: live has no value all the same.
    const them = names.length > 1 ? 'them' : 'it';
    // A merge key gives it to other mappings too: the variable is no way to change this one alone (probe OZ-2).
    const change = p.merged
      ? `change the variable or the environment (a merge key, \`<<\`, gives ${names.length > 0 ? them : 'the value'} here, so that changes every mapping that merges it), or write the key in this mapping by hand`
      : 'change the variable or the environment';
    const reason =
      p.wanted === null || p.wanted === undefined || p.wanted === ''
        ? held?.field !== undefined && owner?.entry.noneByHand?.has(held.field)
          ? `live has no value for ${what}, and no value of ${them} stands for none there; ${p.merged ? 'a merge key (`<<`) gives it here and to every mapping that merges it: edit this mapping by hand' : 'delete the key from the file'}`
          : `live has no value for ${what}; ${change}`
        : variablesCouldGive(p.written, live)
          ? // A variable's value reads `$${` as `${` too: said, or the value set as live shows it reads otherwise (probe HV-9).
            `live value ${wanted} differs from ${what}; ${change}${typeof live === 'string' && names.every((n) => n.startsWith('var.')) && variablesTextIn(p.written, live).includes('${') ? ' (a variable\'s value is read as the files are: write each `${` of it as `$${`)' : ''}`
          : // The text around the placeholder changed: no value of the variable gives what live holds.
            `live value ${wanted} differs in the text around ${what}, which no value of ${them} gives; edit the file by hand`;
    if (!owner) {
      this.notes.push(`${file}:${this.lineAsRead(file, p.document, p.pointer) ?? p.line}: ${reason}`);
      return;
    }
    const field = p.pointer.slice(owner.pointer.length + 1).replace(/\//g, '.');
    owner.entry.failed.add(held.field ?? '*');
    const c = owner.entry.change;
    // A part of a field held whole (a definition, a list): what else of it changed live is held back too, and said so (probe JL-2).
    const whole = held?.field !== undefined && field !== held.field ? `; \`${held.field}\` stays whole as the file has it, with whatever else of it changed live (\`docket plan\` shows it)` : '';
    this.notPulled.push({ kind: c.kind, key: c.key, name: c.name, direction: c.direction ?? 'unknown', fields: [field], file, line: this.lineAsRead(file, p.document, p.pointer) ?? p.line, reason: `${reason}${whole}` });
  }

  /**
   * The line a value is on in the file as read: the edit that found the problem may have moved it
   * (a text above it grew), and every other entry of the report, a dry run's too, says lines as read.
   */
  private lineAsRead(file: string, index: number, pointer: string): number | undefined {
    const text = this.input.read(file);
    if (text === undefined) return undefined;
    let parsed = this.readPositions.get(file);
    if (!parsed) this.readPositions.set(file, (parsed = parseWithPositions(text, file)));
    return parsed.documents.find((d) => d.index === index)?.positions.valueAt(pointer).line;
  }

  private readonly readPositions = new Map<string, ReturnType<typeof parseWithPositions>>();

  /**
   * A parent renamed in the app and pulled takes its children's records to its new name: a rule's
   * key starts with its playbook's, and records left under the old one would be forgotten with it
   * (the rules then read as never synced).
   */
  private moveChildRecords(): void {
    // `rule:Old/` → `rule:New/`, for every child kind of every renamed parent.
    const moves = new Map<string, string>();
    for (const [kind, renames] of this.renamed) {
      for (const child of this.input.kinds.filter((k) => k.parentKind === kind)) {
        for (const [from, to] of renames) moves.set(`${child.name}:${from}/`, `${child.name}:${to}/`);
      }
    }
    if (moves.size === 0) return;
    // Each record moves once, however many parents were renamed.
    const movedKey = (key: string): string | undefined => {
      const from = parentPrefixOf(key, moves);
      return from === undefined ? undefined : moves.get(from)! + key.slice(from.length);
    };
    for (const [key, record] of [...this.sync]) {
      const to = record === null ? undefined : movedKey(key);
      if (to === undefined) continue;
      this.sync.delete(key);
      this.sync.set(to, record);
    }
    // A child this pull also renamed was recorded under its new name: its old record is not moved as well.
    const recordedNow = new Set([...this.sync.values()].flatMap((r) => (r ? [r.id] : [])));
    for (const key of this.input.sync.byKey.keys()) {
      const to = movedKey(key);
      // A child this pull takes out (removed live) is forgotten, not moved: declared again, it would read as removed live.
      if (to === undefined || this.sync.has(to) || this.sync.get(key) === null) continue;
      const record = this.input.sync.byKey.get(key);
      if (record && !recordedNow.has(record.id)) this.sync.set(to, record);
    }
  }

  /**
   * The fields a record of live `l` holds, as declared by `d` (none: all of `l`'s). Ignored fields
   * are in no record: a new child's are its parent's, and so are those of one that took a document
   * whose own settings went with the renamed object (handOverHistory, probe OZ-1), which the
   * document now writes with the live values (withoutOwnSettings): those are recorded too.
   */
  private fieldsRecorded(d: DesiredResource | undefined, l: LiveResource, parent: { kind: KindName; key: string } | undefined): string[] {
    const handed = d !== undefined && this.settingsHandedOver.has(refKey(d.kind, d.key));
    // A child the new object keeps, whose parent's ignored fields went: only its own are ignored now.
    const childHanded = d !== undefined && this.childSettingsHandedOver.has(refKey(d.kind, d.key));
    const ignored = childHanded ? ignoredFieldsWritten(this.writtenEntry(d) ?? {}) : (((handed ? undefined : d) ?? (parent ? this.desired.get(refKey(parent.kind, parent.key)) : undefined))?.policy?.ignoreFields ?? []);
    const nowWritten = handed || childHanded ? (d.policy?.ignoreFields ?? []).filter((f) => f in l.fields) : [];
    return [...new Set([...Object.keys(d ? d.fields : l.fields), ...nowWritten])].filter((f) => !ignored.includes(f));
  }

  /**
   * The object made in the app that keeps a document whose own `ignore_fields` went with the renamed
   * one, and the children of it that the document's items now are: they are recorded with those
   * fields, as the document now writes them. Else a later edit of one in the files reads as drift
   * of unknown side, and pull writes the live value over it (probes OZ-1, PG-1). (One pull reported
   * is recorded there already.)
   */
  private recordHandedOver(): void {
    for (const key of [...this.settingsHandedOver, ...this.childSettingsHandedOver]) {
      const d = this.desired.get(key);
      const l = this.liveById.get(this.input.plan.ids[key] ?? '');
      if (!d || !l || this.sync.has(key) || this.unpulled.has(l.id)) continue;
      const record = liveRecord(l, this.fieldsRecorded(d, l, d.parent));
      if (record) this.sync.set(key, record);
    }
  }

  /**
   * Forgets the record under a name an object left, unless this pull recorded under it another
   * object that took the name: names shifted or swapped in the app are reported in no fixed
   * order (probe PH-1).
   */
  private forget(key: string, id: string | undefined): void {
    const now = this.sync.get(key);
    if (!now || now.id === id) this.sync.set(key, null);
  }

  /**
   * An object removed live that this pull takes out of the files: its record may be filed under a
   * former name, its own or its parent's (`rule:Gone/Term` of a playbook the files rename from
   * `Gone`). Forgotten there too when no live object has its id and no other declared object may
   * be filed there: kept, the object declared again would read as removed live (second read SR86B-2).
   */
  private forgetGoneFormers(d: DesiredResource): void {
    const { parents, claims } = this.history();
    for (const former of historyKeys(d, parents)) {
      const record = this.input.sync.byKey.get(former);
      // Not one another declared object may be filed under (its own name or former names, under its
      // playbook's name or former names): that record is its history (second read SR86C-1, -2).
      if (!record || this.sync.has(former) || this.liveById.has(record.id) || [...(claims.get(former) ?? [])].some((x) => x !== d)) continue;
      this.sync.set(former, null);
    }
  }

  /** The declared objects by key, and those whose history each key may be (historyKeys): built once, when a removal is first pulled. */
  private histories: { parents: Map<string, DesiredResource>; claims: Map<string, Set<DesiredResource>> } | undefined;
  private history(): { parents: Map<string, DesiredResource>; claims: Map<string, Set<DesiredResource>> } {
    if (this.histories) return this.histories;
    const parents = declaredByKey(this.input.desired);
    const claims = new Map<string, Set<DesiredResource>>();
    for (const x of this.input.desired) for (const key of historyKeys(x, parents)) (claims.get(key) ?? claims.set(key, new Set()).get(key)!).add(x);
    return (this.histories = { parents, claims });
  }

  private report(o: Pulling): void {
    const c = o.change;
    const direction = c.direction ?? 'unknown';
    if (o.failed.has('*')) return;
    const fields = o.fields.filter((f) => !o.failed.has(f));
    const wholeObject = !c.liveId || c.action === 'delete';
    if (!wholeObject && fields.length === 0) return;
    const { line: _old, ...entry } = this.entryOf(c, direction, wholeObject ? [] : fields, undefined, o.d);
    // A rename and an update of one object (two changes) are one entry.
    const identity = `${entry.kind}\n${entry.key}\n${entry.direction}`;
    const same = this.reported.get(identity);
    if (same) same.fields.push(...entry.fields.filter((f) => !same.fields.includes(f)));
    else {
      this.reported.set(identity, entry);
      this.pulled.push(entry);
    }
    // What could not be pulled keeps its old record (liveRecord): the next plan still sees that side move.
    const key = refKey(c.kind, c.key);
    if (!c.liveId) {
      this.forget(key, undefined);
      if (o.d) this.forgetGoneFormers(o.d);
    } else if (o.l) {
      const fields = this.fieldsRecorded(o.d, o.l, c.parent);
      const unpulled = this.unpulled.get(o.l.id);
      const record = liveRecord(o.l, fields, unpulled, syncedRecordOf(this.input.sync, o.l.id, key));
      // An unpulled field with no record to keep would read as the files' change: the object keeps what it had.
      if (!record) return;
      // Under its live identity (a rename made live is now the files' name too), unless the name was not pulled.
      const liveKey = unpulled?.has('name') ? c.key : c.parent ? `${c.parent.key}/${o.l.name}` : o.l.key;
      if (liveKey !== c.key) {
        this.forget(key, o.l.id);
        if (!c.parent) {
          const renames = this.renamed.get(c.kind);
          if (renames) renames.push([c.key, liveKey]);
          else this.renamed.set(c.kind, [[c.key, liveKey]]);
        }
      }
      this.sync.set(refKey(c.kind, liveKey), record);
    }
  }
}

/** Why an object removed live stays in the files (`children`: those of its the files changed). */
function removedButEdited(children: readonly string[] = []): string {
  const what = children.length > 0 ? `what it holds since the last sync (${children.join(', ')})` : 'it since the last sync';
  return `removed live, but the files changed ${what}: apply creates it again as they say, or remove it from the files by hand`;
}

/** An error's message without the code frame a YAML parser adds below it. */
function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!.replace(/:$/, '');
}

/** The record of an object pulled whole (a new file). */
function wholeRecord(l: LiveResource): SyncRecord {
  return { id: l.id, fields: Object.fromEntries(Object.keys(l.fields).map((f) => [f, fieldHash(l.fields[f])])) };
}

/**
 * The record of what pull wrote; a field it did not pull keeps its old record, so the next plan
 * still sees it move. Undefined when such a field has no old record: left out, it would read as a
 * field the record does not hold (the files' change for a partial kind, unknown for the others),
 * so no new record is made.
 */
function liveRecord(l: LiveResource, fields: readonly string[], unpulled?: ReadonlySet<string>, old?: SyncRecord | null): SyncRecord | undefined {
  const hashes: Record<string, string> = {};
  for (const f of fields) {
    if (!unpulled || !holdsUnpulled(f, unpulled)) hashes[f] = fieldHash(l.fields[f]);
    else if (old?.fields[f] !== undefined) hashes[f] = old.fields[f];
    else return undefined;
  }
  return { id: l.id, fields: hashes };
}

/**
 * Whether a record's field is one pull left, or holds or lies inside one: records keep some fields
 * whole (`review.default_reviewer`, `parameters.term`) where a change may name a part, or the whole.
 */
function holdsUnpulled(field: string, unpulled: ReadonlySet<string>): boolean {
  if (unpulled.has(field)) return true;
  for (const u of unpulled) if (u.startsWith(`${field}.`) || field.startsWith(`${u}.`)) return true;
  return false;
}

/**
 * Text keeps the file's convention for a trailing line break (docket compares text without it):
 * a `|` block keeps its final break, a `|-` block or a one-line value none; new multi-line text
 * gets one unless where it goes writes none (`noFinalBreak`: a one-line `|-` block, a flow collection).
 */
export function keepTextStyle(current: unknown, value: unknown, noFinalBreak = false): unknown {
  if (typeof value !== 'string') return value;
  // No text there before: as the export writes it, but on one line where the place takes no block.
  if (typeof current !== 'string') return noFinalBreak ? value.replace(/\n+$/, '') : value;
  const body = value.replace(/\n+$/, '');
  // Cleared stays cleared: a block's line break kept on nothing would read back as text.
  if (body === '') return '';
  // All of its line breaks: a `|+` block that ends in blank lines keeps them, and its `+`.
  if (current.endsWith('\n')) return `${body}${/\n+$/.exec(current)![0]}`;
  if (current.includes('\n') || noFinalBreak) return body;
  return body.includes('\n') ? `${body}\n` : body;
}

/** Every text inside a value without its final line breaks (docket compares text without them). */
function withoutFinalBreaks(value: unknown): unknown {
  if (typeof value === 'string') return value.replace(/\n+$/, '');
  if (Array.isArray(value)) return value.map(withoutFinalBreaks);
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withoutFinalBreaks(v)]));
  return value;
}

/**
 * keepTextStyle for every text inside a list (item by item, in order) or a mapping (key by key), at
 * `pointer`; `noFinalBreakAt` says where the place takes no final break (writesNoFinalBreak).
 */
function keepTextStyleWithin(current: unknown, value: unknown, pointer: string, noFinalBreakAt: (pointer: string, current: unknown) => boolean): unknown {
  const at = (key: string | number) => joinPointer(pointer, key);
  if (Array.isArray(value)) return value.map((v, i) => keepTextStyleWithin(Array.isArray(current) ? current[i] : undefined, v, at(i), noFinalBreakAt));
  if (isPlainObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, keepTextStyleWithin(isPlainObject(current) ? current[k] : undefined, v, at(k), noFinalBreakAt)]));
  const gainsLines = typeof value === 'string' && value.replace(/\n+$/, '').includes('\n') && (typeof current !== 'string' || !current.includes('\n'));
  return keepTextStyle(current, value, gainsLines && noFinalBreakAt(pointer, current));
}

function sameName(written: unknown, name: string): boolean {
  return typeof written === 'string' && normName(written) === name;
}

/**
 * A resource file written in JSON stays JSON: the YAML edit writes new keys unquoted and flow
 * items with trailing commas, which `jq` and JSON linters refuse (probe DG-2). JSON holds no
 * comments, so the edited value written whole, in the file's key order and indentation, loses nothing.
 */
function asJsonWhereJson(before: string, edited: string): string {
  // (jsonObjectOf reads past a byte-order mark, as trimStart takes it for white space.)
  const was = jsonObjectOf(before);
  if (was === undefined || jsonObjectOf(edited) !== undefined) return edited;
  // As a data file written in JSON is (writeDataFile): by the reader pull edits with.
  const value = documentValues(edited)[0];
  if (!fitsJson(value)) return edited;
  return keptBom(before, withEndingsOf(before, jsonLike(before, was, value, true)));
}

/** A data file that started with a byte-order mark keeps it (editors and some tools on Windows want it). */
function keptBom(before: string, after: string): string {
  return before.startsWith('\uFEFF') && !after.startsWith('\uFEFF') ? `\uFEFF${after}` : after;
}

/** A change pull makes by taking an object out of the files (removed live): it writes nothing. */
function removes(c: Change): boolean {
  return !c.liveId && CREATE_ACTIONS.includes(c.action);
}

/** A path and each path above it, nearest first: `rules[2].actions`, `rules[2]`, `rules`, ``. */
function pathAndParents(path: string): string[] {
  const out = [path];
  let rest = path;
  while (rest !== '') {
    const up = rest.replace(/(?:\.[^.[\]]*|\[\d+\]|^[^.[\]]*)$/, '');
    // A key the path cannot show plainly (a `]` in it): the document itself is what is left.
    rest = up === rest ? '' : up;
    out.push(rest);
  }
  return out;
}

/** Why text starting with a byte-order mark is not written into `where`: the mark is read past there. */
function markedText(where: string): string {
  return `starts with a byte-order mark (U+FEFF), which docket reads past in ${where}; remove it in the app, then pull again`;
}

/** What of `live` the placeholders of `written` would stand for, run together: `live` without the text around them. */
function variablesTextIn(written: string, live: string): string {
  const { pieces } = placeholderParts(written);
  let rest = live.slice(pieces[0]!.length, live.length - (pieces.length > 1 ? pieces.at(-1)!.length : 0));
  for (const piece of pieces.slice(1, -1)) if (piece !== '') rest = rest.replace(piece, '');
  return rest;
}

/** An item of a list pull rewrites: one the file has (`from`, its index there) or one inserted from live. */
interface ListEntry {
  value: unknown;
  id: string | undefined;
  from?: number;
  inserted?: Pulling;
}

/**
 * The list with the objects made live inserted where live has them (`inserts` in live order): each
 * after the nearest item before it live that the list holds (an insert just made counts), else
 * before the nearest one after it the file holds, else at the end. A linked list and indexes by
 * id: thousands of rules made in the app go into a list of thousands in linear time.
 */
function placeInserts(kept: ListEntry[], siblings: readonly LiveResource[], inserts: readonly Pulling[], valueOf: (o: Pulling) => unknown): ListEntry[] {
  interface Node {
    entry: ListEntry;
    prev: Node | undefined;
    next: Node | undefined;
  }
  const head: Node = { entry: { value: undefined, id: undefined }, prev: undefined, next: undefined };
  let tail = head;
  const nodeOf = new Map<string, Node>();
  for (const entry of kept) {
    const node: Node = { entry, prev: tail, next: undefined };
    tail.next = node;
    tail = node;
    if (entry.id !== undefined && !nodeOf.has(entry.id)) nodeOf.set(entry.id, node);
  }
  const linkAfter = (at: Node, entry: ListEntry): Node => {
    const node: Node = { entry, prev: at, next: at.next };
    if (at.next) at.next.prev = node;
    else tail = node;
    at.next = node;
    return node;
  };
  // For each live position, the nearest later sibling the file holds (inserts are not yet there when one looks ahead).
  const nextKept: (Node | undefined)[] = new Array(siblings.length + 1);
  for (let i = siblings.length - 1; i >= 0; i--) nextKept[i] = nodeOf.get(siblings[i + 1]?.id ?? '') ?? nextKept[i + 1];
  const insertAt = new Map(inserts.map((o) => [o.l!, o]));
  let lastHeld: Node | undefined;
  siblings.forEach((s, i) => {
    const o = insertAt.get(s);
    if (!o) {
      lastHeld = nodeOf.get(s.id) ?? lastHeld;
      return;
    }
    const entry: ListEntry = { value: valueOf(o), id: s.id, inserted: o };
    const before = nextKept[i];
    const node = lastHeld ? linkAfter(lastHeld, entry) : before ? linkAfter(before.prev!, entry) : linkAfter(tail, entry);
    nodeOf.set(s.id, node);
    lastHeld = node;
  });
  const out: ListEntry[] = [];
  for (let n = head.next; n; n = n.next) out.push(n.entry);
  const listed = new Set(siblings);
  for (const o of inserts) if (!listed.has(o.l!)) out.push({ value: valueOf(o), id: o.l!.id, inserted: o });
  return out;
}

/**
 * `text` with the line endings and final line breaks of the file it replaces: the blank lines that
 * end it too, which docket compares text without, so a pull of another line keeps them (probe JH-5).
 */
function withEndingsOf(before: string, text: string): string {
  // A file whose lines end in a lone CR (classic Mac OS) keeps them, and its final ones (probe EB-4).
  const loneCr = endsLinesInLoneCr(before);
  const asRead = loneCr ? before.replace(/\r/g, '\n') : before;
  const breaks = asRead === '' ? 1 : finalBreaks(asRead);
  // Counted from the end, not by /\n+$/: that tries every start in a long run of blank lines (second read SR70-8).
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  const body = text.slice(0, end) + '\n'.repeat(breaks);
  if (loneCr) return body.replace(/\r?\n/g, '\r');
  return lineBreakOf(before) === '\r\n' ? body.replace(/\n/g, '\r\n') : body;
}

/** How many line breaks (LF or CRLF) end `text`. */
function finalBreaks(text: string): number {
  let n = 0;
  let at = text.length;
  for (;;) {
    if (text.charCodeAt(at - 1) !== 10) return n;
    at -= text.charCodeAt(at - 2) === 13 ? 2 : 1;
    n++;
  }
}

/** Why a declared `kind` is left as it is for the object it was last synced as, now named as `named` says (heirLeftReason's words). */
function leftForHeir(kind: string, named: string): string {
  return `was last in sync as the live ${kind} now named ${named}`;
}

/** What is said of a name whose last synced object was renamed in the app, out of a --target, while a new one took the name. */
function renamedAwayOutOfTarget(renamed: LiveResource): string {
  return `${quoteValue(renamed.name)} (renamed in the app), and a new one was made under its name: pull both together (without --target) so the renamed one keeps this name in its \`renamed_from\``;
}

/** What syncedElsewhere and renamedAwayUnpulled look at of a change: a parent with no change of its own is looked at so too. */
type ChangeSubject = Pick<Change, 'kind' | 'key' | 'liveId' | 'parent'>;

/** Why an object renamed in the app is not pulled while --target leaves out the one made under its name (`d`, whose history it takes). */
function heirLeftOut(d: DesiredResource): string {
  return `was ${d.kind} ${quoteValue(d.key)} when last in sync, and a new ${d.kind} was made in the app under that name: pull both together (also --target ${bashWord(`${d.kind}/${d.key}`)}) so its \`renamed_from\` goes with the renamed one`;
}

/** The note of an object renamed in the app that took the history of the name a new one took (`where`: its new file or item). */
function historyHandedOver(kind: string, name: string, was: string, where: string, formerList: string | undefined): string {
  return `${kind} ${quoteValue(name)} was ${quoteValue(was)} when last in sync: ${where} lists that name${formerList ? ` and ${formerList}` : ''} in \`renamed_from\`, so another environment renames its copy; ${quoteValue(was)} in the files is now the ${kind} made in the app under that name`;
}

/** A copy of a document with `key` right after its `name` (where export writes `renamed_from`). */
function withKeyAfterName(document: Record<string, unknown>, key: string, value: unknown): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(document)) {
    out[k] = v;
    if (k === 'name') out[key] = value;
  }
  if (!(key in out)) out[key] = value;
  return out;
}

/** Keys a history's placeholders are not looked for in: its identity and history, and its children (each checked as itself). */
const NOT_PLACEHOLDER_FIELDS = new Set(['kind', 'name', 'id', 'renamed_from', 'rules']);

/**
 * The top-level values of `written` (a document's entry, whose history an object renamed in the
 * app takes) that a placeholder gives and that live still reads as: written so in its new file or
 * item, as they were (probe GH-1). `lost`: those that cannot be kept so, live holding another value
 * or the placeholder inside a nested value.
 */
function placeholdersKept(written: Record<string, unknown>, d: DesiredResource, live: LiveResource): { set: Record<string, unknown>; lost: string[] } {
  const set: Record<string, unknown> = {};
  const lost: string[] = [];
  for (const [key, value] of Object.entries(written)) {
    if (NOT_PLACEHOLDER_FIELDS.has(key) || !namesVariable(value)) continue;
    if (typeof value === 'string' && Object.hasOwn(d.fields, key) && canonicalJson(d.fields[key] ?? null) === canonicalJson(live.fields[key] ?? null)) set[key] = value;
    else lost.push(key);
  }
  return { set, lost };
}

/** Whether a written value names a variable anywhere in it (config/interpolate's holdsPlaceholder looks at one string, and at any `${`). */
function namesVariable(value: unknown): boolean {
  if (typeof value === 'string') return variablesIn(value).length > 0;
  if (Array.isArray(value)) return value.some(namesVariable);
  return isPlainObject(value) && Object.values(value).some(namesVariable);
}

/** The note of an item written from live values where its old item gave them by a placeholder live no longer reads as (second read SR105-3). */
function placeholdersWrittenOver(l: LiveResource, fields: readonly string[], file: string): string {
  return `${l.kind} ${quoteValue(l.name)}'s new item in ${file} writes ${fields.map((f) => `\`${f}\``).join(', ')} as live holds it: its old item gave ${fields.length === 1 ? 'it' : 'them'} by a placeholder (\`\${var.…}\` or \`\${env.…}\`) that live no longer reads as; put the placeholder back there if other environments are to keep their own value`;
}

/**
 * What the new file or item of an object renamed in the app keeps of the entry whose history it
 * takes (`written`, last in sync as `d`): its settings (settingsWritten), the placeholders live
 * still reads as (placeholdersKept), and `also` (a child's `renamed_from`).
 */
function historyWritten(written: Record<string, unknown>, d: DesiredResource | undefined, live: LiveResource, inheritedIgnored: readonly string[] = [], also: Record<string, unknown> = {}): WrittenSettings | undefined {
  const settings = settingsWritten(written, inheritedIgnored);
  const values = { ...also, ...(d ? placeholdersKept(written, d, live).set : {}) };
  if (Object.keys(values).length === 0) return settings;
  return { set: { ...settings?.set, ...values }, drop: settings?.drop ?? [] };
}
