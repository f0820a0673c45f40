/** The plan step of plan, apply, drift and pull: the engine's planProject with this session's services and settings, and its flags' help. */
import { workingDirectory } from './io.js';
import { plural } from '../render/facts.js';
import { kindsToRead, kindsWithPendingUploads, planProject } from '../engine/project.js';
import { warningText } from '../engine/plan.js';
import { KINDS, kindNamed, type AnyKind } from '../kinds/index.js';
import { pendingByKey } from './pending-documents.js';
import { quoteValue } from '../config/quote.js';
import { formerKeys, refKey, type Change, type DesiredResource, type KindName, type LiveResource, type Plan } from '../engine/types.js';
import { ConfigError } from '../errors.js';
import { compareDiagnostics, uniqueDiagnostics, type Diagnostic } from '../diagnostics.js';
import { VERSION } from '../version.js';
import { planFormat } from './plan-format.js';
import type { Session } from './session.js';
import { hostname } from 'node:os';
import { canonicalUrl, EMULATOR_TARGET, serviceTarget, strandedLegacyEnvironments, type LockFile } from '../config/lock.js';
import { DEFAULT_AGREEMENTS_URL, DEFAULT_REVIEW_URL } from './connect.js';
import { EMULATOR_SYNC_FILE, workLabel } from '../config/work-dir.js';
import { emulatorOrganizations } from '../emulator/identity.js';
import { escapePointer } from '../config/yaml-positions.js';
import path from 'node:path';
import { shapedCommand, type PlanShape } from './command-line.js';
import { applyLockRoot, runningApply, type ApplyLockHolder } from './apply-lock.js';

export async function planInSession(s: Session, targets: readonly string[], flags: Pick<PlanStepOptions, 'retryUncertain' | 'adoptFiles'> = {}): Promise<Plan> {
  return (await planDetailsInSession(s, { targets, ...flags })).plan;
}

export interface PlanStepOptions {
  targets: readonly string[];
  retryUncertain?: boolean;
  /** `apply --adopt-files`: the files the plan cannot compare are recorded as live in this run. */
  adoptFiles?: boolean;
  /** Kinds to read even when no file declares any (`--kind` of drift and pull). */
  alsoRead?: readonly KindName[];
  /** Read undeclared objects in detail (pull). */
  readAll?: boolean;
  /** Kinds read only for the objects the files dropped (drift, pull): not read whole, even with readAll. */
  droppedOnly?: readonly KindName[];
  /** Drift and pull: the plan is only read, never sent. */
  readOnly?: boolean;
  /** Drift and pull `--kind`: the kinds reported (a problem of another kind's object is not theirs). */
  reportedKinds?: readonly KindName[];
  /**
   * Plans these declared resources alone, reading only their kinds, with nothing pruned: as if the
   * files declared nothing else (docket test's look at the one template it tests).
   */
  only?: DesiredResource[];
}

/** The plan with what drift and pull need besides: the live objects, and those no file declares. */
export async function planDetailsInSession(s: Session, opts: PlanStepOptions): Promise<{ plan: Plan; live: LiveResource[]; unmatched: LiveResource[]; readForOthers?: LiveResource[] }> {
  const { targets } = opts;
  const retryUncertain = Boolean(opts.retryUncertain);
  const { workspace: w, connection } = s;
  const p = w.config.project;
  // An apply of this checkout running now: its uploads and publishes under way are marked pending
  // in the lock, which a plan would take for what an interrupted apply left (probe FK). Only the
  // marks made since it started are its own (a pull or a test holds the lock too, and makes none).
  const running = await runningApply(applyLockRoot(p.root));
  const runningSince = running ? Date.parse(running.started) : NaN;
  const started = performance.now();
  s.progress.start('Reading live state');
  try {
    // The commands hints give, as this run was made (inRunShape).
    const shape = { dir: path.relative(workingDirectory(), p.root) || '.', env: p.environment, emulator: s.workspace.lockLocation.emulator };
    const result = await planProject({
      desired: opts.only ?? w.desired,
      services: connection.services,
      lock: Number.isFinite(runningSince) ? withoutPendingMarks(s.lock, runningSince) : s.lock,
      clock: () => new Date(),
      prune: opts.only ? {} : s.prune,
      targets,
      retryUncertain,
      ...(opts.adoptFiles ? { adoptFiles: true } : {}),
      ...(opts.alsoRead ? { alsoRead: opts.alsoRead } : {}),
      ...(opts.readAll ? { readAll: true } : {}),
      ...(opts.droppedOnly?.length ? { droppedOnly: new Set(opts.droppedOnly) } : {}),
      ...(opts.readOnly ? { readOnly: true } : {}),
      ...(opts.reportedKinds?.length ? { reportedKinds: opts.reportedKinds } : {}),
      safety: p.safety,
      concurrency: s.concurrency,
      sync: () => s.sync(),
      landing: () => s.landing(),
      pendingDocuments: () => pendingByKey(p.root, KINDS),
      ...(w.config.varOrigin ? { varOrigin: w.config.varOrigin } : {}),
      meta: {
        configDigest: () => w.digest,
        target: () => connection.target,
        ...(p.environment ? { environment: p.environment } : {}),
        version: VERSION,
        planFormat,
        warnings: w.warnings,
      },
    });
    s.logger.debug(`read ${plural(result.live.length, 'live object')} in ${Math.round(performance.now() - started)} ms`);
    if (!result.plan) {
      const targetErrors = result.diagnostics.every((d) => d.code === 'unknown-target');
      // drift and pull make a plan too, but the user asked for no plan (probe KT-4).
      const what = opts.readOnly ? 'the files could not be compared with the live state' : 'the plan could not be made';
      // With the configuration's own warnings, as validate and a load that stops say them (probe
      // UC-6); drift and pull have said them already (second read SR93B-6).
      const every = opts.readOnly ? result.diagnostics : uniqueDiagnostics([...w.diagnostics, ...result.diagnostics]).sort(compareDiagnostics);
      throw new ConfigError(every.map((d) => inRunShape(d, shape)), targetErrors ? 'the targets do not name known resources' : what, p.root);
    }
    // Read only (drift, pull), what plan and apply would refuse is said, and the rest still reported:
    // a change no request can make, a reference the files changed to name nothing (probe FL), an
    // upload that may have happened.
    if (opts.readOnly) for (const d of result.diagnostics) if (d.severity === 'warning' && SAID_READ_ONLY.has(d.code)) s.logger.info(`Warning: ${warningText(inRunShape(d, shape))}`);
    const lockless = lockKnowsNothing(s, result.plan, result.live);
    if (lockless) result.plan.warnings.push(lockless);
    // (Drift and pull read every kind the lock records: they say what was left live themselves.)
    const unread = opts.only || opts.targets?.length || opts.readOnly ? undefined : syncedButUnread(s);
    if (unread) result.plan.warnings.push(unread);
    result.plan.warnings = result.plan.warnings.map((w) => commandsInRunShape(w, shape));
    if (running && running.command === undefined) {
      const warning = runningApplyWarning(running, p.root);
      result.plan.warnings.unshift(warning);
      // Drift and pull print no plan: said where they say warnings (probe FT).
      if (opts.readOnly) s.logger.info(`Warning: ${warning}`);
    }
    return { plan: result.plan, live: result.live, unmatched: result.unmatched, ...(result.readForOthers ? { readForOthers: result.readForOthers } : {}) };
  } finally {
    s.progress.stop();
  }
}

/**
 * Kinds docket synced (docket.lock.json's records) that no file declares any more, so the plan read
 * none of their objects: a plan that then said only "No changes" read as the files and the service
 * agreeing, with every playbook's file deleted (probe KV-1).
 */
function syncedButUnread(s: Session): string | undefined {
  // As the plan reads them: the kinds of uploads left unconfirmed too (second read SR98B-5).
  const read = new Set<string>([...kindsToRead(s.workspace.desired, s.prune).map((k) => k.name), ...kindsWithPendingUploads(s.lock)]);
  // The organization too: its document deleted, docket manages none of its settings (probe ZD-4);
  // not when a document of it declares nothing, which its own warning says (probe ZL-3).
  const said = new Set(s.workspace.diagnostics.map((d) => d.code));
  const unread = KINDS.filter((k) => !k.parentKind && !k.internal && !read.has(k.name) && !(k.declaresNothingCode !== undefined && said.has(k.declaresNothingCode)));
  // Every kind read (the rule for a configuration that declares them all): no record to look through.
  if (unread.length === 0) return undefined;
  // The records of the services this run talks to, and of the review service it is configured for
  // but does not talk to (every file of its kinds deleted): its section of the sync records.
  const counts = new Map<AnyKind, number>();
  const byName = new Map<string, AnyKind>(unread.map((k) => [k.name, k]));
  // Each key once, by its kind alone: asking the records whether they hold a key reads the record
  // (20,000 of them in a large plan: 70 ms).
  const counted = new Set<string>();
  const count = (key: string): void => {
    const kind = byName.get(key.slice(0, key.indexOf(':')));
    if (!kind || counted.has(key)) return;
    counted.add(key);
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  };
  for (const key of s.sync().byKey.keys()) count(key);
  for (const section of [...reviewSections(s), ...agreementsSections(s)]) for (const key in section) count(key);
  if (counts.size === 0) return undefined;
  // By the kinds' own names: a custom template's noun ("template") would read as a standard one's (probe LS-3).
  const word = (k: AnyKind, n: number): string => `${k.name.replace(/-/g, ' ')}${n === 1 ? '' : 's'}`;
  const listed = [...counts].map(([kind, n]) => `${n} ${word(kind, n)}`).join(', ');
  const prunableCounts = [...counts].filter(([k]) => k.pruneKey !== undefined);
  const prunable = prunableCounts.map(([k, n]) => word(k, n));
  const prunableOne = prunableCounts.reduce((a, [, n]) => a + n, 0) === 1;
  const none = [...counts.keys()].map((k) => `${/^[aeiou]/.test(k.name) ? 'an' : 'a'} ${word(k, 1)}`).join(' or ');
  // `--emulator` keeps its records beside its state.
  const recordedIn = s.connection.target.emulator ? workLabel(EMULATOR_SYNC_FILE) : 'docket.lock.json';
  const one = [...counts.values()].reduce((a, b) => a + b, 0) === 1;
  // Members and the organization docket never removes: the next apply forgets their records (probe DB-2),
  // those of the sections it writes (a run that declares nothing of a service writes none of its own).
  const forgettable = new Map<AnyKind, number>();
  for (const key of s.sync().byKey.keys()) {
    const kind = byName.get(key.slice(0, key.indexOf(':')));
    if (kind?.deletion === 'never') forgettable.set(kind, (forgettable.get(kind) ?? 0) + 1);
  }
  const neverCounts = [...forgettable];
  const neverOne = neverCounts.reduce((a, [, n]) => a + n, 0) === 1;
  const forgotten = neverCounts.length > 0 ? ` (docket never removes ${neverCounts.map(([k, n]) => `${n === 1 ? 'that' : 'those'} ${word(k, n)}`).join(' or ')}: the next apply forgets ${neverOne ? 'its record' : 'their records'})` : '';
  return `${recordedIn} records ${listed} docket synced, and no file declares ${none} any more: this plan ${one ? 'did not read it, and leaves it live as it is' : 'read none of them, and leaves them live as they are'}${prunable.length > 0 ? ` (\`--prune\` reads the ${prunable.join(' and ')} and archives ${prunableOne ? 'it' : 'them'})` : ''}${forgotten}`;
}

/**
 * The sync records of the review service this configuration is for, whether or not this run talks
 * to it: the emulator's organization, or the URL's with the organization configured; with none
 * configured (the key's own organization), every organization's at that URL (probe LE-1).
 */
function reviewSections(s: Session): Readonly<Record<string, string>>[] {
  const review = s.workspace.config.project.review;
  const synced = s.syncDoc.synced ?? {};
  if (s.connection.target.emulator) return [synced[`${EMULATOR_TARGET} ${emulatorOrganizations(s.workspace.config.project).review}`] ?? {}];
  const url = review.url ?? DEFAULT_REVIEW_URL;
  if (review.organization_id) return [synced[serviceTarget(url, review.organization_id)] ?? {}];
  const prefix = `${canonicalUrl(url)} `;
  return Object.entries(synced)
    .filter(([target]) => target.startsWith(prefix))
    .map(([, records]) => records);
}

/**
 * The sync records of the agreements service at the configured URL when this run does not talk to
 * it (no file declares a kind of it any more): every organization's there, as the organization is
 * learned from the service (probe LS-2). The emulator keeps one section for both services, unless
 * docket.yaml names an agreements organization of its own.
 */
function agreementsSections(s: Session): Readonly<Record<string, string>>[] {
  if (s.connection.target.agreements) return [];
  if (s.connection.target.emulator) {
    const organizations = emulatorOrganizations(s.workspace.config.project);
    return organizations.agreements === organizations.review ? [] : [s.syncDoc.synced?.[`${EMULATOR_TARGET} ${organizations.agreements}`] ?? {}];
  }
  const prefix = `${canonicalUrl(s.workspace.config.project.agreements.url ?? DEFAULT_AGREEMENTS_URL)} `;
  return Object.entries(s.syncDoc.synced ?? {})
    .filter(([target]) => target.startsWith(prefix))
    .map(([, records]) => records);
}

/** The lock as a plan beside a running apply reads it: the uploads and publishes it marked since it started are under way, not an interrupted run's. */
function withoutPendingMarks(lock: LockFile, since: number): LockFile {
  const files: LockFile['files'] = {};
  for (const [key, entry] of Object.entries(lock.files)) {
    if (!entry.pending || !(Date.parse(entry.pending.since) >= since)) files[key] = entry;
    else if (entry.id !== undefined) {
      const { pending: _underWay, ...confirmed } = entry;
      files[key] = confirmed;
    }
  }
  return { ...lock, files };
}

/** Said of an apply only: a pull or a test holding the lock marks nothing this plan would misread. */
function runningApplyWarning(holder: ApplyLockHolder, root: string): string {
  const where = holder.checkout !== undefined && holder.checkout !== root ? ` of ${holder.checkout}, which shares this docket.lock.json,` : ' of this checkout';
  return `an apply${where} is running (pid ${holder.pid}${holder.host === hostname() ? '' : ` on ${holder.host}`}, since ${holder.started}): what it is changing now shows here as still to do; plan again once it ends`;
}

/**
 * A hint's `docket apply --target X` as this run was made (its folder, environment, emulator), the
 * target quoted as bash or zsh reads it back: copied as written it acts on the same organization (probe PS-3).
 */
function inRunShape(d: Diagnostic, shape: Omit<PlanShape, 'target'>): Diagnostic {
  return d.hint?.includes('`docket apply --') || d.hint?.includes('`docket plan`') ? { ...d, hint: commandsInRunShape(d.hint, shape) } : d;
}

/** A text's `docket apply --…` commands as this run was made: a hint's, or a warning's of the plan (`--adopt-files`, probe WB-1). */
function commandsInRunShape(text: string, shape: Omit<PlanShape, 'target'>): string {
  if (!text.includes('`docket apply --') && !text.includes('`docket plan`')) return text;
  // `--target X` alone, or flags of no value (`--adopt-files`, `--retry-uncertain`; second read SR82B-2);
  // a bare `docket plan` with the folder and environment of this run too (probe ZA-2).
  return text
    .replace(/`docket plan`/g, () => `\`${shapedCommand('plan', { ...shape, prune: false, retryUncertain: false, target: [] })}\``)
    .replace(/`docket apply --target ([^`<]+)`/g, (_, target: string) => `\`${shapedCommand('apply', { ...shape, target: [target] })}\``)
    .replace(/`docket apply((?: --(?:adopt-files|retry-uncertain))+)`/g, (_, flags: string) => `\`${shapedCommand('apply', { ...shape, target: [], adoptFiles: flags.includes('--adopt-files'), retryUncertain: flags.includes('--retry-uncertain') })}\``);
}

/** Errors of plan and apply that drift and pull, which send nothing, say as warnings. */
const SAID_READ_ONLY: ReadonlySet<string> = new Set(['unsupported-change', 'unknown-reference', 'uncertain-upload', 'uncertain-create', 'ambiguous-match']);

/**
 * Uploads planned while docket.lock.json records nothing for this target (deleted, or made for
 * another organization) although the organization already holds the templates the files declare:
 * the service cannot list attachments, so they read as new, and would be uploaded a second time.
 * So too an upload of an object the sync records say docket synced before, though the lock holds
 * no entry of its upload (a saved plan applied after the lock was lost writes the one, not the other).
 */
function lockKnowsNothing(s: Session, plan: Plan, live: readonly LiveResource[]): string | undefined {
  const said = lockKnowsNothingOf(s, plan, live);
  const uploads = plan.changes.filter((c) => c.action === 'upload').length;
  if (said === undefined && uploads === 0) return undefined;
  const stranded = strandedEntriesNote(s);
  if (said !== undefined) return said + stranded;
  // Nothing else says so (a version 1 lock holds no sync records): the former environment's entries may be these uploads' (probe PJ-2).
  return stranded === '' ? undefined : `${uploads === 1 ? 'the upload above may be of a file that is' : `the ${uploads} uploads above may be of files that are`} live already (the service cannot list them)${stranded}`;
}

/**
 * Entries of a version 1 lock wait under the environment's name: renamed in docket.yaml before an
 * apply moved them to their target's section, the environment reads none of them (probe HP-1).
 */
function strandedEntriesNote(s: Session): string {
  const location = s.workspace.lockLocation;
  const positions = s.workspace.config.project.positions;
  // Once this target has a section of its own, the version 1 entries are no longer read into it (second read).
  if (location.environment === undefined || !positions || (s.lockTarget !== undefined && s.workspace.lockDoc.targets[s.lockTarget] !== undefined)) return '';
  const stranded = strandedLegacyEnvironments(s.workspace.lockDoc, location, (name) => positions.has(`/environments/${escapePointer(name)}`));
  if (stranded.length === 0) return '';
  const names = stranded.map((name) => quoteValue(name, 80)).join(', ');
  // As this run was made (its folder, the emulator), under the former name: copied, it moves those entries.
  const apply = shapedCommand('apply', { dir: path.relative(workingDirectory(), location.root) || '.', env: stranded.length === 1 ? stranded[0]! : 'FORMER', emulator: location.emulator, target: [] });
  return `. docket.lock.json still holds version 1 entries of the environment ${names}, which docket.yaml no longer defines: if this environment was renamed from ${stranded.length === 1 ? 'it' : 'one of them (FORMER below)'}, give it that name again, run \`${apply}\` once (it moves those entries to this target's section), then rename it to ${quoteValue(location.environment, 80)} again`;
}

/** The uploads a warning names with their ids, at most: the rest are counted. */
const MAX_LOST_NAMED = 20;

function lockKnowsNothingOf(s: Session, plan: Plan, live: readonly LiveResource[]): string | undefined {
  const uploads = plan.changes.filter((c) => c.action === 'upload');
  if (uploads.length === 0) return undefined;
  const records = s.sync().byKey;
  // A record under a name another document renames away from, whose upload the lock still holds
  // there, is that one's (`Sec Old` from `Sec`, and a new `Sec`: probe FS); with no entry left, it is lost.
  const renamedAway = new Set(s.workspace.desired.flatMap((d) => formerKeys(d)));
  // Or one whose synced upload another entry now holds, or superseded: a --target apply uploaded
  // `Sec Old` alone, moving the entry, and left `Sec`'s record on the upload it took over (probe MS-1).
  const claimed = new Map<string, string>();
  for (const [key, entry] of Object.entries(s.lock.files)) for (const id of [entry.id, ...(entry.superseded ?? [])]) if (id) claimed.set(id.toLowerCase(), key);
  const heldElsewhere = (key: string): boolean => {
    const id = s.sync().idOf(key)?.toLowerCase();
    const holder = id === undefined ? undefined : claimed.get(id);
    return holder !== undefined && holder !== key;
  };
  // Or one whose synced id another document pins: that one takes it over, so it is not this name's to pin (probe TB-1).
  const pinned = new Map(s.workspace.desired.filter((d) => d.pinId).map((d) => [d.pinId!.toLowerCase(), refKey(d.kind, d.key)]));
  const pinnedElsewhere = (key: string): boolean => {
    const holder = pinned.get(s.sync().idOf(key)?.toLowerCase() ?? '');
    return holder !== undefined && holder !== key;
  };
  const movesAway = (key: string): boolean => (renamedAway.has(key) && s.lock.files[key] !== undefined) || heldElsewhere(key) || pinnedElsewhere(key);
  const lost = uploads.filter((c) => c.liveId === undefined && records.has(refKey(c.kind, c.key)) && !movesAway(refKey(c.kind, c.key)));
  if (lost.length === 1) {
    const [one] = lost as [Change];
    const noun = kindNamed(one.kind)?.noun[0] ?? one.kind;
    // The record names the id it was synced as: the one to pin, which the user could not look up (probe JO-2).
    const syncedId = s.sync().idOf(refKey(one.kind, one.key));
    const pin = syncedId === undefined ? 'pin its id with `id:`' : `pin the id docket synced it as, \`id: ${syncedId}\`, and apply with --adopt-files`;
    return `docket.lock.json records no upload of ${noun} ${quoteValue(one.name, 200)}, though docket synced it before: the upload above may be of a file that is live already (the service cannot list them); to keep the live one, ${pin} (see "Adopting an existing organization" in the README)`;
  }
  if (lost.length > 1) {
    // Each of them, with the id to pin: said of the first alone, the others were uploaded again unwarned (probe LP-2).
    const named = lost.slice(0, MAX_LOST_NAMED).map((c) => {
      const syncedId = s.sync().idOf(refKey(c.kind, c.key));
      return `${quoteValue(c.name, 200)}${syncedId === undefined ? '' : ` (\`id: ${syncedId}\`)`}`;
    });
    const more = lost.length > MAX_LOST_NAMED ? `, and ${lost.length - MAX_LOST_NAMED} more (each id is in docket.lock.json's sync records)` : '';
    const noun = kindNamed(lost[0]!.kind)?.noun[1] ?? `${lost[0]!.kind}s`;
    const nouns = new Set(lost.map((c) => c.kind)).size === 1 ? noun : 'objects';
    return `docket.lock.json records no upload of ${lost.length} ${nouns} docket synced before: ${named.join(', ')}${more}; the uploads above may be of files that are live already (the service cannot list them); to keep the live ones, pin the ids docket synced them as with \`id:\` and apply with --adopt-files (see "Adopting an existing organization" in the README)`;
  }
  if (Object.keys(s.lock.files).length > 0) return undefined;
  // Uploads are made for the objects that name them (templates): one the files declare that is live already names its uploads.
  const unlisted = new Set(KINDS.filter((k) => k.uploadsUnreadable).map((k) => k.name));
  const naming = new Set(KINDS.filter((k) => k.reads?.some((r) => unlisted.has(r))).map((k) => k.name));
  if (!s.workspace.desired.some((d) => naming.has(d.kind) && plan.ids[refKey(d.kind, d.key)] !== undefined)) return undefined;
  // Records of the agreements service say docket applied here, and would have recorded its uploads,
  // unless a live object names uploads by id all the same: an export writes such records, and no
  // upload entry, for an organization whose templates name attachments (probe JD-2). Records of the
  // review service (a run with \`--target\` on a playbook since) say nothing of uploads.
  const agreements = new Set(KINDS.filter((k) => k.service === 'agreements').map((k) => k.name as string));
  const appliedHere = [...records.keys()].some((key) => agreements.has(key.slice(0, key.indexOf(':'))));
  const namesUploads = (): boolean => live.some((l) => naming.has(l.kind) && Object.values(l.refIds ?? {}).some((id) => (Array.isArray(id) ? id.length > 0 : id !== null && id !== undefined && id !== '')));
  if (appliedHere && !namesUploads()) return undefined;
  // Records of this target there are (an export's): only its uploads are missing, which says nothing of a lost or foreign lock (probe YE-3).
  const lacking = appliedHere ? 'records no upload for this target (an export records none: the service cannot give a PDF back)' : 'records nothing for this target (it is missing, or was made for another organization)';
  return `docket.lock.json ${lacking}, yet the organization already holds templates the files declare: the ${uploads.length === 1 ? 'upload' : `${uploads.length} uploads`} above may be of files that are live already (the service cannot list them); to keep a live one, pin its id with \`id:\` (see "Adopting an existing organization" in the README)`;
}

/** `--prune`'s help, from the kinds that declare a prune switch: `archive live playbooks that no file declares`. */
export function pruneHelp(kinds: readonly AnyKind[] = KINDS): string {
  const what = kinds.filter((k) => k.pruneKey).map((k) => `${k.deletion === 'archive' ? 'archive' : 'delete'} live ${k.noun[1]}`);
  return `${what.join(', ')} that no file declares`;
}
