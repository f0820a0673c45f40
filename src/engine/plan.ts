/**
 * Builds the Plan, the contract between planning and applying: plain data, serialisable, with a
 * digest of the configuration and a fingerprint of every live object it touches. Pure: the
 * clock and version come in as parameters.
 */
import { takenFrom, type VariableOrigins } from '../config/schema.js';
import { didYouMeanBecause, suggest, suggestAddress } from '../config/suggest.js';
import type { Diagnostic, SourcePos } from '../diagnostics.js';
import { Diagnostics, uniqueDiagnostics } from '../diagnostics.js';
import { sayUnlessUnsent, type UnsentHold, type UnsentProblem } from './unsent.js';
import { digestWithList, digestWithListInSlices } from './canonical.js';
import { problemSourceOf } from '../kinds/support/positions.js';
import { diff, type DiffResult, type KindMeta } from './diff.js';
import { childrenLookup } from './children.js';
import { childrenEditedLive, classifyChanges, editedLiveSince, editedLiveSinceMoved, type ClassifyResult } from './direction.js';
import { pinHints, planHints } from './hints.js';
import { EMPTY_SYNC, withRenamedParents, type SyncState } from './sync.js';
import { byKindActionKey, orderChanges } from './order.js';
import { liveKeysOfRenamed, refKey } from './types.js';
import type { Action, AdoptableFile, Change, DesiredResource, KindName, LiveResource, Ref, LockUpdate, Plan, PlanTarget, UncertainUpload } from './types.js';
import { resolveUncertain } from './uncertain.js';
import { quoteValue } from '../config/quote.js';
import { literalPlaceholders, placeholderFit, variablesIn } from '../config/interpolate.js';
import { alikeIn, lookAlike } from './desired.js';
import { pushAll } from '../util/push-all.js';

export interface BuildPlanInput {
  kinds: KindMeta[];
  desired: DesiredResource[];
  live: LiveResource[];
  prune: Record<string, boolean>;
  /** The configuration digest, or how to work it out when the plan is first saved or read. */
  configDigest: string | (() => string);
  target: PlanTarget;
  environment?: string;
  now: Date;
  version: string;
  /** Which saved plans the docket making it reads (Plan.plan_format), or how to work it out when the plan is first saved. */
  planFormat: string | (() => string);
  warnings?: string[];
  /** Lock entries the reads settled. */
  lockUpdates?: LockUpdate[];
  /** Interrupted uploads no read can settle; an error unless `retryUncertain`. */
  uncertain?: UncertainUpload[];
  retryUncertain?: boolean;
  /**
   * `apply --adopt-files`: this run records the files the plan cannot compare as live, so their
   * ids are ones the target has for the send checks (a template naming a pinned attachment by id).
   */
  adoptFiles?: boolean;
  /** What docket last saw in sync (docket.lock.json): gives every change its direction. */
  sync?: SyncState;
  /** Kinds the live read saw only in part: a declared object it did not find is not "removed live". */
  seenInPart?: ReadonlySet<KindName>;
  /** The plan is only read (drift, pull): a reference whose id the service does not say is no error, as nothing is sent. */
  readOnly?: boolean;
  /**
   * The declared resources a plan cut to `--target`s may send (a target, or a child of one): a
   * reference elsewhere whose id the service does not say is not this plan's to send (the first
   * half of a two-step invite is `--target member/…`).
   */
  sends?: UnsentHold['sends'];
  /** Live objects a pending document (`*.yaml.pending`) names, by `kind:key` → its file: a reference to one says so. */
  pending?: ReadonlyMap<string, string>;
  /** Where each `var.` name got the value this run uses (LoadedConfig.varOrigin). */
  varOrigin?: VariableOrigins;
}

export interface BuildPlanResult {
  plan?: Plan;
  diagnostics: Diagnostic[];
  /** Top-level live objects no file declares (for drift reports). */
  unmatched: LiveResource[];
  /**
   * References `sends` left unchecked, by the resource (`kind:key`) that makes them: errors once
   * the plan cut to `--target`s keeps a change of that resource (one a target depends on).
   */
  unsentReferences?: UnsentProblem[];
}

export function buildPlan(input: BuildPlanInput): BuildPlanResult {
  const sync = withRenamedParents(input.sync ?? EMPTY_SYNC, input.desired, input.kinds, input.live);
  const unsentReferences: UnsentProblem[] = [];
  const hold: UnsentHold = input.sends ? { sends: input.sends, unsent: unsentReferences } : {};
  const result = diff({ kinds: input.kinds, desired: input.desired, live: input.live, prune: input.prune, ...(sync === EMPTY_SYNC ? {} : { records: sync }), ...(input.readOnly ? { readOnly: true } : {}), hold });
  const diagnostics = result.diagnostics;
  const unmatched = result.unmatched;
  const readOnlyWarnings: ReadOnlyWarning[] = [];
  checkReferences(input.desired, result, input.kinds, diagnostics, input.readOnly ? readOnlyWarnings : undefined, hold, input.pending, input.varOrigin);
  const classified = classifyChanges(result.changes, {
    sensitive: new Map(input.kinds.map((k) => [k.name, k.sensitiveFields ?? []])),
    unlisted: new Set([...input.kinds.filter((k) => k.uploadsUnreadable).map((k) => k.name), ...(input.seenInPart ?? [])]),
    desired: input.desired,
    live: input.live,
    sync,
  });
  // A reference the app took away (a reviewer who left) is the live change drift reports and pull
  // takes; one the files changed to name nothing is said (probe FL).
  if (readOnlyWarnings.length > 0) {
    const changedLive = new Set(classified.changes.flatMap((c) => c.fields.filter((f) => f.direction === 'live').map((f) => `${c.kind}:${c.key}|${f.field}`)));
    for (const w of readOnlyWarnings) if (!changedLive.has(`${w.of}|${w.field}`)) diagnostics.add(w.diagnostic);
  }
  checkActions(classified.changes, input.kinds, diagnostics);
  // drift and pull send nothing: what a send would be refused is for plan and apply to say.
  if (!input.readOnly) checkSends(classified.changes, input, input.adoptFiles ? new Set(result.adoptable.map((a) => a.liveId.toLowerCase())) : new Set(), diagnostics, hold);
  const uncertain = resolveUncertain(input.uncertain ?? [], input.desired, Boolean(input.retryUncertain), diagnostics, { ...(input.readOnly ? { readOnly: true } : {}), ...hold, ...((input.uncertain ?? []).length > 0 ? { liveKeys: liveKeysOfRenamed(classified.changes), recordedAs: liveKeyById(input.live) } : {}) });
  const lockUpdates = [...(input.lockUpdates ?? []), ...uncertain.updates];
  const ordered = orderChanges(classified.changes, input.kinds, input.live, Boolean(input.readOnly));
  pushAll(diagnostics.items, ordered.diagnostics.items);
  if (diagnostics.hasErrors()) return { diagnostics: uniqueDiagnostics(diagnostics.sorted()), unmatched };

  // Only the digest's source is kept: the getter must not hold the live objects for the whole apply.
  const digestSource = input.configDigest;
  let configDigest: string | undefined;
  let planFormat: string | undefined;
  const plan: Plan = {
    format_version: 1,
    docket_version: input.version,
    // A getter as config_digest is: a plan only printed never reads the plan schema for it.
    get plan_format() {
      return (planFormat ??= typeof input.planFormat === 'string' ? input.planFormat : input.planFormat());
    },
    created_at: input.now.toISOString(),
    target: input.target,
    ...(input.environment ? { environment: input.environment } : {}),
    // A getter (enumerable, so JSON and spreads include it): a plan only printed never needs it.
    get config_digest() {
      return (configDigest ??= typeof digestSource === 'string' ? digestSource : digestSource());
    },
    changes: ordered.changes,
    // Sorted where it is written (render/json.ts): a plan only printed never needs the order.
    ids: result.ids,
    summary: summarize(ordered.changes),
    warnings: [
      ...(input.warnings ?? []),
      // `apply --adopt-files` records them in this run: no warning asks for what it is doing.
      ...(input.adoptFiles ? [] : result.adoptable.map(adoptableWarning)),
      ...pinHints(result.adoptable, input.desired, input.live, result.ids),
      ...(input.lockUpdates ?? []).map((u) => u.reason),
      ...uncertain.warnings,
      // What the match itself warns of (a `renamed_from` whose new name is live too): said with the plan.
      ...diagnostics.warnings.map(warningText),
      ...planHints({ kinds: input.kinds, desired: input.desired, live: input.live, changes: ordered.changes, ids: result.ids, sync }),
      ...editedLiveWarnings(ordered.changes, input.live, sync),
      ...(classified.heldForMoved ?? []).map(heldForMovedWarning),
    ],
    undeclared: result.undeclared,
    ...(result.adoptable.length > 0 ? { adoptable: result.adoptable } : {}),
    // What a settled write set is read into the records at plan time, not carried in the plan.
    ...(lockUpdates.length > 0 ? { lock_updates: lockUpdates.map(({ synced: _synced, ...u }) => u) } : {}),
    // Sorted as the changes are ranked, not in the order the service listed them (probe EF-4).
    ...(classified.held.length > 0 ? { held: [...classified.held].sort(byKindActionKey(input.kinds)) } : {}),
  };
  return { plan, diagnostics: uniqueDiagnostics(diagnostics.sorted()), unmatched, ...(unsentReferences.length > 0 ? { unsentReferences } : {}) };
}

/** Where a reference is written, with its `path` (`rules[3].reviewer`, `parameters.…`) as validate gives one. */
function refAt(d: DesiredResource, ref: Ref): SourcePos & { path: string } {
  return { ...(ref.source ?? d.source), path: ref.path ?? problemSourceOf(d.fieldSources, ref.field)?.path ?? ref.field };
}

/** A warning found while matching, as the plan's warnings say them: at its file:line, with what to do. */
export function warningText(d: Diagnostic): string {
  const at = d.file ? ` (${d.file}${d.line ? `:${d.line}` : ''})` : '';
  return `${d.message}${at}${d.hint ? `: ${d.hint}` : ''}`;
}

/**
 * Objects the files removed that someone edited in the app since the last sync, and the children
 * (rules) of such an object edited or made there since: the removal takes that work with it.
 */
function editedLiveWarnings(changes: readonly Change[], live: readonly LiveResource[], sync: SyncState): string[] {
  const childrenOf = childrenLookup(live);
  return changes.flatMap((c) => {
    const removes = c.action === 'delete' ? 'deletes' : 'archives';
    const applying = `applying ${removes} it with that edit`;
    const fields = editedLiveSince(c, sync);
    const own = fields.length > 0 ? [`${removedButEditedStart(c)}${fields.join(', ')} changed live since the last sync: ${applying}; to keep the edit, put it back in the files`] : [];
    const moved = editedLiveSinceMoved(c, sync);
    if (moved.length > 0) {
      const was = sync.byId.get(c.liveId!)?.key;
      const from = was ? `, last in sync as ${was.slice(was.indexOf(':') + 1)}` : '';
      own.push(`${c.kind} ${quoteValue(c.key)} moved in the app${from}, and its ${moved.join(', ')} changed live since the last sync: ${applying}; to keep the edit, move it in the files, or \`docket pull\` what it can`);
    }
    const children = childrenEditedLive(c, sync, childrenOf).map(({ child, fields: edited, made }) =>
      made
        ? `${removedButEditedStart(c)}${child.kind} ${quoteValue(child.name)} is in no sync record (made in the app since the last sync, or never recorded): applying ${removes} it with the ${c.kind}; to keep the ${child.kind}, put the ${c.kind} back in the files`
        : `${removedButEditedStart(c)}${child.kind} ${quoteValue(child.name)}: ${edited.join(', ')} changed live since the last sync: ${applying}; to keep the edit, put the ${c.kind} back in the files`,
    );
    return [...own, ...children];
  });
}

/** Why a change under a name without a policy is held: the object the app moved onto the name is another's, under its policy. */
function heldForMovedWarning({ change: c, owner, policy, fresh }: NonNullable<ClassifyResult['heldForMoved']>[number]): string {
  const ownerName = quoteValue(owner.slice(owner.indexOf(':') + 1));
  const start = `${c.kind} ${quoteValue(c.key)}${c.source ? ` (${c.source.file}:${c.source.line})` : ''} is held: the app renamed ${c.kind} ${ownerName}'s object onto this name`;
  const left = `its \`drift: ${policy}\` leaves that object as it is, so apply does not write ${quoteValue(c.key)} onto it`;
  // The files give the name a new object (probe NJ-2), or the two swapped names (probe NC-1).
  return fresh
    ? `${start}, which the files give a new ${c.kind}, and ${left}. \`docket pull\` leaves a rename onto a name the files declare: give the new one another name in the files, or take off the \`drift: ${policy}\` that covers ${ownerName} to have apply put it back`
    : `${start}, and ${left}. \`docket pull\` leaves names swapped in the app: swap them in the files by hand, or take off the \`drift: ${policy}\` that covers ${ownerName} to have apply put both back`;
}

/** How that warning of a change starts (a plan cut to `--target`s drops it with the change). */
export function removedButEditedStart(c: Pick<Change, 'kind' | 'key'>): string {
  return `${c.kind} ${quoteValue(c.key)} is removed from the files, and its `;
}

/** The warning a file the plan cannot compare gives. */
export function adoptableWarning(a: AdoptableFile): string {
  if (a.valuesOnly) {
    const fields = Object.keys(a.values ?? {}).join(', ');
    return `${a.kind} ${quoteValue(a.key, 200)}: cannot compare its ${fields} (${a.reason}), so a change to it is not seen; run \`docket apply --adopt-files\` to record the files' ${fields} as live`;
  }
  return `${a.kind} ${quoteValue(a.key, 200)}: cannot compare ${a.file} (${a.reason}); run \`docket apply --adopt-files\` to record the current file as live`;
}

/** How many changes of each action a plan holds (actions it does not hold are left out). */
export function summarize(changes: Change[]): Plan['summary'] {
  const summary: Partial<Record<Action, number>> = {};
  for (const c of changes) summary[c.action] = (summary[c.action] ?? 0) + 1;
  return summary;
}

/** What drift and pull say of a reference plan refuses, unless the field it is in changed live (`of`: `kind:key`). */
interface ReadOnlyWarning {
  of: string;
  field: string;
  diagnostic: Diagnostic;
}

/** The key of the live object of a kind with an id (lower case), indexed at the first question. */
function liveKeyById(live: readonly LiveResource[]): (kind: string, id: string) => string | undefined {
  let byId: Map<string, string> | undefined;
  return (kind, id) => (byId ??= new Map(live.map((l) => [`${l.kind}:${l.id.toLowerCase()}`, l.key]))).get(`${kind}:${id.toLowerCase()}`);
}

/**
 * A reference to something that exists neither in the files nor live is an error at its line, and
 * so is one to an object whose id the service does not say (the reference could not be sent).
 */
function checkReferences(
  desired: DesiredResource[],
  found: Pick<DiffResult, 'ids' | 'unknownIds' | 'idsWhileNamed' | 'ambiguous' | 'renamedAway'>,
  kinds: KindMeta[],
  diagnostics: Diagnostics,
  /** Read only (drift, pull): where references to nothing go, as warnings, instead of errors. */
  readOnlyWarnings: ReadOnlyWarning[] | undefined,
  /** Cut to `--target`s: references of a resource the plan does not send are held (unsent.ts). */
  hold: UnsentHold,
  pending: ReadonlyMap<string, string> | undefined,
  varOrigin: VariableOrigins | undefined,
): void {
  const readOnly = readOnlyWarnings !== undefined;
  const { ids, unknownIds, ambiguous } = found;
  const warnedWhileNamed = new Set<string>();
  // What is declared, indexed once, at the first reference.
  let declaredKeys: Set<string> | undefined;
  const declared = (): Set<string> => (declaredKeys ??= new Set(desired.map((d) => refKey(d.kind, d.key))));
  // Declared names as they show on screen, per kind (built at the first reference to an undeclared live object of that kind).
  const declaredAlike = new Map<KindName, Map<string, string>>();
  /** Whether the undeclared live object a reference names (`kind:key`) shows as a declared one, once looked at. */
  const lookedAt = new Map<string, boolean>();
  const byName = new Map(kinds.map((k) => [k.name, k]));
  /** The name each live id is known under, by `kind:id` in lower case (built only when a reference is missing). */
  let byLiveId: Map<string, string> | undefined;
  // Names a reference could have meant, per kind: declared or live (built only when one is missing).
  let known: Map<string, string[]> | undefined;
  const namesOf = (kind: string): string[] => {
    known ??= groupKeys([...declared(), ...Object.keys(ids)]);
    return known.get(kind) ?? [];
  };
  // A name missing in many places is looked for once; past a million names compared, the rest go
  // without a "did you mean", so that thousands of wrong references plan in seconds (probe IG-3).
  const suggested = new Map<string, string | undefined>();
  let compared = 0;
  const closeTo = (ref: Ref): string | undefined => {
    const key = refKey(ref.kind, ref.key);
    if (suggested.has(key)) return suggested.get(key);
    const names = namesOf(ref.kind);
    compared += names.length;
    const close = compared > REFERENCE_SUGGESTION_BUDGET ? undefined : (ref.key.includes('@') ? suggestAddress : suggest)(ref.key, names);
    suggested.set(key, close);
    return close;
  };
  for (const d of desired) {
    for (const ref of d.refs) {
      const key = refKey(ref.kind, ref.key);
      const shared = ambiguous[key];
      const unknown = shared ?? (ids[key] ? undefined : unknownIds[key]);
      if (unknown) {
        if (readOnly) {
          // Two live objects the reference could name (a lookalike user made in the app): every plan
          // refuses it, so drift and pull say it, as a warning (probe ZD-3). An unknown id is theirs to miss.
          if (shared) readOnlyWarnings.push({ of: refKey(d.kind, d.key), field: ref.field, diagnostic: { severity: 'warning', code: 'ambiguous-match', message: `\`${ref.field}\` names ${quoteValue(ref.key)}, ${shared.message}`, ...refAt(d, ref), hint: `${shared.hint}; plan and apply refuse it` } });
          continue;
        }
        // Outside the targets: an error only if the cut plan keeps a change of `d` (the caller knows).
        sayUnlessUnsent(d, { severity: 'error', code: shared ? 'ambiguous-match' : 'unknown-id', message: `\`${ref.field}\` names ${quoteValue(ref.key)}, ${unknown.message}`, ...refAt(d, ref), hint: unknown.hint }, hold, diagnostics);
        continue;
      }
      const whileNamed = readOnly || warnedWhileNamed.has(key) ? undefined : found.idsWhileNamed[key];
      if (whileNamed && ids[key]) {
        // Plans today, stops every plan once the app names them no more (probe HA-1): said now, once.
        warnedWhileNamed.add(key);
        diagnostics.add({ severity: 'warning', code: 'id-while-named', message: `\`${ref.field}\` names ${quoteValue(ref.key)}, ${whileNamed.message}`, ...refAt(d, ref), hint: whileNamed.hint });
      }
      if (declared().has(key)) continue;
      if (ids[key]) {
        if (!readOnly) warnLookAlike(d, ref);
        continue;
      }
      const renamedTo = found.renamedAway[key];
      // A kind whose identity never changes (a member's e-mail) is refused the rename at its own
      // document: "name it … here too" would point this reference at another person.
      if (renamedTo !== undefined && byName.get(ref.kind)?.identityFixed) continue;
      if (renamedTo !== undefined) {
        const to = renamedTo.slice(renamedTo.indexOf(':') + 1);
        diagnostics.error('unknown-reference', `\`${ref.field}\` names ${ref.kind} ${quoteValue(ref.key)}, which this plan renames to ${quoteValue(to)}`, {
          ...refAt(d, ref),
          hint: `name it ${quoteValue(literalPlaceholders(to))} here too`,
        });
        continue;
      }
      // A live id where a name goes (`attachments: [<uuid>]`): the name it is the id of is what to write (probe OX-1).
      // (An index made once, at the first such reference: not a scan of every id per reference.)
      byLiveId ??= new Map(Object.entries(ids).map(([k, id]) => [`${k.slice(0, k.indexOf(':'))}:${id.toLowerCase()}`, k.slice(k.indexOf(':') + 1)]));
      const name = byLiveId.get(`${ref.kind}:${ref.key.toLowerCase()}`);
      if (name !== undefined) {
        diagnostics.error('unknown-reference', `\`${ref.field}\` names ${ref.kind} ${quoteValue(ref.key)}, which is the id of ${ref.kind} ${quoteValue(name)}: it takes names`, { ...refAt(d, ref), hint: `write ${quoteValue(literalPlaceholders(name))}` });
        continue;
      }
      // Declared by a pending document, being adopted: not missing, and no other name to suggest
      // (probe PL-1). Live in the organization it was exported from, which a kind the service
      // lists is not here (else it would be matched), and an attachment may not be: adopting
      // there records the source's id as this organization's (probe QO-1).
      const pendingIn = pending?.get(key);
      if (pendingIn !== undefined) {
        const said = `\`${ref.field}\` names ${ref.kind} ${quoteValue(ref.key)}, which only a pending document declares (${pendingIn})`;
        const addIt = 'add the file it names and rename the document to .yaml';
        if (byName.get(ref.kind)?.uploadsUnreadable) {
          refuse(d, ref, `${said}: live in the organization it was exported from, which the service cannot confirm (it cannot list ${ref.kind}s)`, `${addIt}; then, in the organization it was exported from, \`docket apply --adopt-files\`; in another, take its \`id:\` line out first, so apply uploads the file`);
        } else {
          refuse(d, ref, `${said}, and no live ${ref.kind} has that name here`, `${addIt}, taking its \`id:\` line out (an id exported from another organization names nothing here), so apply uploads it`);
        }
        continue;
      }
      const { message, hint: declare } = byName.get(ref.kind)?.describeMissing?.(ref.key, (kindKey) => declared().has(kindKey)) ?? {
        message: `${ref.kind} ${quoteValue(ref.key, 200)}, which is neither declared in the configuration nor exists live`,
        hint: `declare the ${ref.kind} or fix the name`,
      };
      // Written through variables, the value is set where they are, not on this line (probes IA-2, IE-5).
      const variables = ref.written === undefined ? [] : [...new Set(variablesIn(ref.written))];
      const close = closeTo(ref);
      // Said as the files write it: they read `${` as a placeholder (probe HY-3); so does a `var.` value, not an `env.` one.
      const match = close === undefined ? undefined : variables.length > 0 && variables.every((v) => v.startsWith('env.')) ? close : literalPlaceholders(close);
      // Alike on screen (a Cyrillic letter typed for a Latin one): what differs is said, or both read the same (probe KQ-4).
      const alike = match !== undefined && match !== ref.key && lookAlike(match) === lookAlike(ref.key) ? `they differ only in ${alikeIn(ref.key, match)}` : undefined;
      const suggestion = match === undefined ? '' : didYouMeanBecause(match, alike);
      const said = `\`${ref.field}\` ${variables.length > 0 ? `is \`${ref.written}\`, which ` : ''}names ${message}${suggestion}`;
      const defined = variables.filter((v) => v.startsWith('var.')).length;
      // The one definition this run took it from, when there is one to name (probe PM-1); one an
      // environment variable sets is changed there (second read SR82-4).
      const origin = defined === 1 && variables.length === 1 ? varOrigin?.(variables[0]!.slice('var.'.length)) : undefined;
      // The placeholders as the line writes them; what to set, where that differs.
      const written = variables.map((v) => (v.startsWith('env.') ? `the environment variable ${v.slice(4)}` : v)).join(', ');
      const setting = origin?.env !== undefined ? `the environment variable ${origin.env} (which gives ${variables[0]} its value at ${origin.at})` : written;
      const where = defined === 0 || origin?.env !== undefined ? '' : origin ? ` ${takenFrom(origin)}` : ` where ${defined === 1 ? 'it is' : 'they are'} defined (docket.yaml's \`vars\`, or the selected environment's)`;
      // Around the variables, text no value of them changes: a name it does not fit is fixed on this line (probe IF-2).
      const fit = variables.length === 0 || close === undefined ? undefined : placeholderFit(ref.written!, close);
      // Close to a name that exists: the likelier fix leads (declaring it would invite a mistyped address).
      const hint =
        variables.length === 0
          ? match === undefined ? declare : `if you meant ${quoteValue(match)}, write that; else ${declare}`
          : match === undefined ? `${declare}, or change ${setting}${where}`
          : fit === 'whole' ? `if you meant ${quoteValue(match)}, set ${setting} to that${where}; else ${declare}`
          : fit === 'some' ? `if you meant ${quoteValue(match)}, change ${setting}${where} so that \`${ref.written}\` reads that; else ${declare}`
          : `if you meant ${quoteValue(match)}, edit the text around ${written} on this line, which no value of ${variables.length === 1 ? 'it' : 'them'} changes; else ${declare}`;
      refuse(d, ref, said, hint);
    }
  }

  /**
   * A reference to a live object no file declares, named as a declared one shows (a Cyrillic `Т`
   * for a Latin `T`): the plan and the pull request would read as no change while it points
   * elsewhere, a publish that cannot be undone among them (probe RF-1).
   */
  function warnLookAlike(d: DesiredResource, ref: Ref): void {
    // Thousands of rules name a few reviewers: each name is looked at once.
    const key = refKey(ref.kind, ref.key);
    if (lookedAt.has(key) && !lookedAt.get(key)) return;
    // Of the kind referenced only (members, not twenty thousand rules).
    let alike = declaredAlike.get(ref.kind);
    if (alike === undefined) {
      alike = new Map();
      for (const x of desired) if (x.kind === ref.kind) alike.set(lookAlike(x.key), x.key);
      declaredAlike.set(ref.kind, alike);
    }
    const twin = alike.get(lookAlike(ref.key));
    lookedAt.set(key, twin !== undefined && twin !== ref.key);
    if (twin === undefined || twin === ref.key) return;
    sayUnlessUnsent(
      d,
      {
        severity: 'warning',
        code: 'look-alike-reference',
        message: `\`${ref.field}\` names ${ref.kind} ${quoteValue(ref.key, 200)}, which no file declares but is live, and which shows as the declared ${quoteValue(twin, 200)}: they differ only in ${alikeIn(ref.key, twin)}`,
        ...refAt(d, ref),
        hint: `if you meant ${quoteValue(literalPlaceholders(twin))}, write that; else rename one of the two, in the app or in its file, so that they can be told apart`,
      },
      hold,
      diagnostics,
    );
  }

  function refuse(d: DesiredResource, ref: Ref, said: string, hint: string): void {
    // Drift and pull send nothing: a reference to nothing is said as a warning rather than an error
    // that stops them, and not at all where the field changed live (a reviewer who left: that
    // change is what they report and pull).
    if (readOnlyWarnings) readOnlyWarnings.push({ of: refKey(d.kind, d.key), field: ref.field, diagnostic: { severity: 'warning', code: 'unknown-reference', message: said, ...refAt(d, ref), hint: `${hint}; plan and apply refuse it` } });
    // Outside the targets, as an unknown id: `apply --target member/EMAIL` invites a member that
    // a reference elsewhere waits for, such as agreements.actor (probe KE-3).
    else sayUnlessUnsent(d, { severity: 'error', code: 'unknown-reference', message: said, ...refAt(d, ref), hint }, hold, diagnostics);
  }
}

/** How many names the "did you mean" of unknown references compares in one plan, at most (as for `vars`). */
const REFERENCE_SUGGESTION_BUDGET = 1_000_000;

/** `kind:key` strings as kind → keys, without duplicates. */
function groupKeys(keys: Iterable<string>): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const k of keys) {
    const i = k.indexOf(':');
    const kind = k.slice(0, i);
    if (!out.has(kind)) out.set(kind, new Set());
    out.get(kind)!.add(k.slice(i + 1));
  }
  return new Map([...out].map(([k, v]) => [k, [...v]]));
}

/** A plan never holds an action its kind cannot execute. */
function checkActions(changes: Change[], kinds: KindMeta[], diagnostics: Diagnostics): void {
  const byName = new Map(kinds.map((k) => [k.name, k]));
  for (const c of changes) {
    const actions = byName.get(c.kind)?.actions;
    if (!actions || actions.includes(c.action)) continue;
    diagnostics.error('unsupported-change', `${c.kind} ${quoteValue(c.name, 200)} would need ${c.action}, which docket cannot do for a ${c.kind}`, {
      ...(c.source ?? {}),
      hint: `a ${c.kind} can only ${actions.join(', ') || 'be read'}`,
    });
  }
}

/** What a create or update sends must be something the target can take (the kinds say: `refuseSend`). */
function checkSends(changes: Change[], input: Pick<BuildPlanInput, 'kinds' | 'desired' | 'live'>, adopting: ReadonlySet<string>, diagnostics: Diagnostics, hold: UnsentHold): void {
  const byName = new Map(input.kinds.filter((k) => k.refuseSend).map((k) => [k.name, k]));
  if (byName.size === 0) return;
  let desired: Map<string, DesiredResource> | undefined;
  for (const c of changes) {
    const kind = byName.get(c.kind);
    if (!kind || !['create', 'update'].includes(c.action)) continue;
    desired ??= new Map(input.desired.map((d) => [refKey(d.kind, d.key), d]));
    const d = desired.get(refKey(c.kind, c.key));
    if (!d) continue;
    for (const f of c.fields) {
      // What the files hold was live here at the last sync (only the app moved it since, re-pointing
      // a template at another attachment): this organization's, whatever reads can see now (probe QA-1).
      if (f.direction === 'live') continue;
      const refused = kind.refuseSend!(f.field, d.fields[f.field], d.name, input.live, adopting, d);
      // Outside the targets: an error only if the cut plan keeps a change of `d`.
      if (refused) sayUnlessUnsent(d, { severity: 'error', code: 'unsupported-change', message: refused.message, ...(problemSourceOf(d.fieldSources, f.field) ?? d.source), ...(refused.hint ? { hint: refused.hint } : {}) }, hold, diagnostics);
    }
  }
}

/** The configuration digest: what the plan was computed from, without positions or comments. */
export function configDigest(desired: DesiredResource[], settings: unknown): string {
  return digestWithList('content', digestContent(desired), { settings });
}

/** configDigest, worked out a slice at a time (see digestWithListInSlices): the same digest. */
export function configDigestInSlices(desired: DesiredResource[], settings: unknown): Promise<string> {
  return digestWithListInSlices('content', digestContent(desired), { settings });
}

/** What the digest covers, resource by resource in identity order. */
function* digestContent(desired: readonly DesiredResource[]): Generator<unknown> {
  // Code-unit order: total over distinct identities (a collator ranks some distinct texts, such as
  // two Unicode spellings of one name, as equal, leaving their order to the files) and cheap.
  const sorted = desired.map((d) => ({ d, id: `${d.kind}:${d.key}` })).sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  // A policy changes what a plan holds (drift it holds back, fields it ignores): it is part of what was planned.
  // So is what a change carries beside its compared fields (a data file's path, probe GJ).
  for (const { d } of sorted) yield { kind: d.kind, key: d.key, name: d.name, fields: d.fields, createOnly: d.createOnly ?? null, payload: d.payload ?? null, partial: d.partial, refs: d.refs.map((r) => [r.kind, r.key, r.field]), pin: d.pinId ?? null, renamed: d.renamedFrom, ...(d.policy ? { policy: d.policy } : {}) };
}

export function hasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}
