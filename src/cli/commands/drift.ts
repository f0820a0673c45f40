/**
 * `docket drift`: the report for a scheduled CI job. Plans as `plan` does, then lists what moved
 * on the live side (by direction and object, with when the service says it changed), apart from
 * what the files change. Exit 2 when there is drift, 0 when there is none, 1 on error.
 */
import { spelledKind } from '../../kinds/spelled-kind.js';
import { Command, Option } from 'commander';
import { childrenLookup } from '../../engine/children.js';
import { driftReport, type DriftItem, type DriftReport } from '../../engine/drift.js';
import { kindsToRead, servicesNeeded, withAlso, type PruneSwitches } from '../../engine/project.js';
import type { Workspace } from '../../engine/workspace.js';
import { liveValueRefusals } from '../../pull/live-value-refusals.js';
import { followsSwappedName, movedFromDeclared, movedLiveOntoDeclared } from '../../pull/moved-live.js';
import { pullRefusesName } from '../../pull/name-refusals.js';
import { keysOf, type KeyFinder } from '../../config/api-keys.js';
import { childInTargets, limitToKinds, namedByTargets, parseTarget, targetsUndeclaredChild, unmatchedInTargets } from '../../engine/target.js';
import { pendingByKey } from '../pending-documents.js';
import { refKey, type Change, type DesiredResource, type KindName, type LiveResource, type Plan } from '../../engine/types.js';
import { addTo } from '../../util/multi-map.js';
import type { SyncState } from '../../engine/sync.js';
import { heirsOf, renamedOnto } from '../../engine/direction.js';
import { exportKinds } from '../../export/layout.js';
import { KINDS } from '../../kinds/index.js';
import { UsageError } from '../../errors.js';
import { pullable, renderDriftJson, renderDriftMarkdown, renderDriftText, type ScopeFlag } from '../../render/drift.js';
import { fitPrinted, MARKDOWN_MAX_CHARS } from '../../render/markdown-fit.js';
import { interruptsOf, useColor, type Io } from '../io.js';
import { repeatable, withCommon, type CommonOptions } from '../options.js';
import { withSession, type SessionOptions } from '../session.js';
import { readWithDroppedKinds } from '../dropped-kinds.js';
import { READ_TIMEOUT_MS, timeoutOption } from './plan.js';
import { withRenamedParents } from '../../engine/sync.js';
import { keyFinder } from '../redact.js';
import { asRunBy } from '../command-line.js';

interface DriftFlags extends CommonOptions {
  output: 'text' | 'json' | 'markdown';
  target: string[];
  kind: string[];
  emulator?: boolean;
  timeout: number;
}

/** `--kind` values (those kinds only, read even when no file declares any), checked like export's. */
export function kindOption(): Option {
  const names = KINDS.filter((k) => k.layout && k.toConfig).map((k) => k.name);
  return repeatable('--kind <KIND>', `only this kind, read even when no file declares one (repeatable): ${names.join(', ')}`, 'every kind');
}

export function kindNames(values: readonly string[]): KindName[] {
  return values.length === 0 ? [] : exportKinds(values, KINDS).map((k) => k.name);
}

/**
 * With `--kind`, a usage error for a `--target` that can select none of those kinds: not of one
 * of them, nor a child of one (a rule of `--kind playbook`), nor naming an object of one (a
 * custom template's term, under `--kind custom-term`). Together they would compare nothing, and a
 * scheduled drift job would pass on "No drift".
 */
export function refuseTargetsOutsideKinds(targets: readonly string[], kinds: readonly KindName[]): SessionOptions['check'] {
  if (kinds.length === 0 || targets.length === 0) return undefined;
  return async (workspace) => {
    for (const text of targets) {
      const target = parseTarget(text, KINDS);
      if ('error' in target) continue; // said by the session, as for any command
      const parent = KINDS.find((k) => k.name === target.kind)?.parentKind;
      const named = workspace.desired.filter((d) => d.kind === target.kind && d.key === target.key).flatMap((d) => d.refs.map((r) => r.kind));
      if ([target.kind, parent, ...named].some((k) => k !== undefined && kinds.includes(k))) continue;
      // A child kind is not a --kind of its own (rules come with their playbook): name its parent's.
      throw new UsageError(`--target ${text} is none of --kind ${kinds.join(', ')}: together they select nothing to compare`, `drop the --target, or add --kind ${parent ?? target.kind}`);
    }
  };
}

/** What a report limited by `--kind` and `--target` compared, as given (nothing when not limited). */
export function scopeOf(opts: { kind: readonly string[]; target: readonly string[] }): ScopeFlag[] {
  const kind = (k: string): ScopeFlag => {
    const what = spelledKind(k, KINDS)?.comparedOnlyDeclared;
    return { flag: `--kind ${k}`, ...(what ? { note: what } : {}) };
  };
  return [...opts.kind.map(kind), ...opts.target.map((t) => ({ flag: `--target ${t}` }))];
}

/** With `--kind`, the services of those kinds too (they may have no file yet). */
export function servicesFor(kinds: readonly KindName[]): Pick<SessionOptions, 'needs'> {
  if (kinds.length === 0) return {};
  return { needs: (w: Workspace, prune: PruneSwitches) => servicesNeeded(withAlso(kindsToRead(w.desired, prune), kinds), w.desired) };
}

export function driftCommand(io: Io, setExit: (code: number) => void): Command {
  return withCommon(new Command('drift'))
    .description('report what changed on the live side since the files (exit 2 when anything did)')
    .addOption(new Option('-o, --output <FORMAT>', 'output format').choices(['text', 'json', 'markdown']).default('text'))
    .addOption(repeatable('--target <KIND/NAME>', 'only this resource (repeatable)', 'every resource'))
    .addOption(kindOption())
    .addOption(timeoutOption(READ_TIMEOUT_MS))
    .option('--emulator', 'run against an in-process emulator (state in DIR/.docket/emulator.json)')
    .action(async (opts: DriftFlags) => {
      const deadline = Date.now() + opts.timeout;
      const kinds = kindNames(opts.kind);
      const check = refuseTargetsOutsideKinds(opts.target, kinds);
      const { plan, report } = await withSession(io, { ...opts, targets: opts.target, deadline: () => deadline, ...servicesFor(kinds), ...(check ? { check } : {}) }, async (s) => {
        // The configuration's warnings (a lock file's merge conflict, say), as plan and validate give them.
        for (const warning of s.workspace.warnings) s.logger.info(`Warning: ${warning}`);
        // A rule of a playbook no file declares is read as pull reads it, so drift takes the targets pull takes (probe LE-2).
        const readAll = targetsUndeclaredChild(opts.target, s.workspace.desired, KINDS);
        const { details, dropped } = await readWithDroppedKinds(s, { targets: opts.target, kinds, ...(readAll ? { readAll } : {}) });
        const limited = kinds.length > 0 ? limitToKinds(details.plan, details.unmatched, new Set(kinds), KINDS) : details;
        const quiet = new Set(KINDS.filter((k) => k.deletion === 'never' || k.internal).map((k) => k.name));
        const pendingDocuments = await pendingByKey(s.workspace.config.project.root, KINDS);
        // (--kind leaves out the parents of other kinds: their children are never asked for.)
        const children = childrenLookup(details.live);
        const inTargets = childInTargets(opts.target, KINDS);
        const liveById = opts.target.length === 0 ? undefined : new Map(details.live.map((l) => [l.id, l]));
        const childrenOf = !liveById ? children : (liveId: string) => {
          const parent = liveById.get(liveId);
          return children(liveId).filter((c) => inTargets(parent ? { ...c, parent: { kind: parent.kind, key: parent.key } } : c));
        };
        const sync = withRenamedParents(s.sync(), s.workspace.desired, KINDS, details.live);
        const unmatched = unmatchedInTargets(limited.unmatched, opts.target, KINDS, details.live);
        const report = driftReport({ plan: limited.plan, unmatched, sync, declared: new Set(s.workspace.desired.map((d) => refKey(d.kind, d.key))), quiet, onlyDropped: new Set(dropped), prunable: prunableKinds(), prunedWithParent: prunedWithParent(), userFiles: new Map(KINDS.filter((k) => k.userFiles).map((k) => [k.name, k.userFiles!])), ...pullRefusals(s.workspace.desired, details.live, details.plan, keyFinder(keysOf(io.env)), sync), pendingDocuments, childrenOf, named: namedByTargets(opts.target, KINDS), desired: s.workspace.desired, kinds: KINDS });
        // The closing line sends users to pull only when pull would write a file: planned as pull
        // plans it, it may only say why not (a value a variable holds, a file two terms share, probe IB-3).
        if (report.drift.length > 0 && pullable(report)) {
          // Loaded only then: most drift runs find none.
          const [{ planPull }, { pullInputOf, withNamedKindsRead, withOnlyLiveRead }] = await Promise.all([import('../../pull/plan.js'), import('../pull-input.js')]);
          const drifted = new Set(report.drift.map((item) => refKey(item.kind, item.key)));
          // Not those pull refuses (a name two share, one like a declared one): the look is spent on what it may write (second read RV6-3).
          const onlyLive = new Set(report.drift.filter((item) => item.direction === 'only-live' && !report.pullRefuses?.(item)).map((item) => refKey(item.kind, item.key)));
          // A pull that cannot be planned (a file saved meanwhile) leaves the report's own account.
          const writes = await (async () => {
            const whole = await withOnlyLiveRead(s, details.live, unmatched.filter((l) => onlyLive.has(refKey(l.kind, l.key))));
            const wholeById = new Map(whole.map((l) => [l.id, l]));
            const live = await withNamedKindsRead(s, whole, whole.filter((l) => drifted.has(refKey(l.kind, l.key))), details.readForOthers);
            return planPull(await pullInputOf(s, io.env, { plan: limited.plan, live, unmatched: unmatched.map((l) => wholeById.get(l.id) ?? l), targets: opts.target }));
          })().then(
            (pulled) => pulled.files.length > 0,
            (error: unknown) => {
              // Said with -v: the closing line then cannot tell whether pull would write a file.
              s.logger.debug(`pull could not be planned for the closing line (${error instanceof Error ? error.message : String(error)})`);
              return undefined;
            },
          );
          if (writes !== undefined) report.pullWrites = writes;
        }
        return { plan: limited.plan, report };
      });
      // One document (JSON, markdown): a signal lets it finish, never leaves half of one (probe MT-1).
      if (opts.output !== 'text') interruptsOf(io).hold('the report is being written');
      // The pull, apply and plan its advice names are run as this drift was: its folder, environment, emulator (probe EC-3).
      const asRun = asRunBy({ dir: opts.dir, env: opts.env, emulator: opts.emulator, target: [] });
      if (opts.output === 'json') io.stdout(renderDriftJson(plan, report, { kinds: [...new Set(kindNames(opts.kind))], targets: opts.target }));
      else if (opts.output === 'markdown') io.stdout(fitPrinted((room) => renderDriftMarkdown(plan, report, room, scopeOf(opts), MARKDOWN_MAX_CHARS, opts.dir, asRun)));
      else io.stdout(renderDriftText(plan, report, { color: useColor(io, opts), scope: scopeOf(opts), dir: opts.dir, commands: asRun }));
      setExit(report.drift.length > 0 ? 2 : 0);
    });
}

/**
 * What pull leaves, for drift not to send users to pull for it: a field's live value its kind
 * leaves (a template naming an attachment no document declares, a Word term where the files have
 * text), an object whose name validate would refuse, or one holding a value docket never writes
 * into the files (an API key, text validate refuses).
 */
function pullRefusals(desired: readonly DesiredResource[], live: readonly LiveResource[], plan: Plan, findKey: KeyFinder, sync: SyncState): Pick<DriftReport, 'pullLeaves' | 'pullRefuses'> {
  const kindLeaves = pullLeavesOf(desired, live, plan.ids);
  const refusesName = pullRefusesName(live, desired, (kind) => KINDS.find((k) => k.name === kind)?.parentKind);
  const refusesValue = liveValueRefusals(live, plan, findKey);
  let declared: Map<string, DesiredResource> | undefined;
  let movedLive: ReturnType<typeof movedLiveOntoDeclared> | undefined;
  let liveById: Map<string, LiveResource> | undefined;
  // Removed live, and still live under a name the files declare, or a parent they declare: as pull tells it.
  const stillLive = (item: Pick<DriftItem, 'kind' | 'key'>): boolean => {
    declared ??= new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
    liveById ??= new Map(live.map((l) => [l.id, l]));
    movedLive ??= movedLiveOntoDeclared({ plan, desired: declared, liveById, kinds: KINDS });
    return movedLive(item.kind, sync.idOf(refKey(item.kind, item.key))) !== undefined;
  };
  // The live object of this name was last in sync as another the files declare: pull leaves its
  // values for a rename by hand, as they are that other object's (probe HN-1).
  let heirOf: ((kindKey: string) => string | undefined) | undefined;
  const renamedOntoDeclared = (item: Pick<DriftItem, 'kind' | 'key'>): boolean => {
    const key = refKey(item.kind, item.key);
    declared ??= new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
    const d = declared.get(key);
    liveById ??= new Map(live.map((l) => [l.id, l]));
    const l = liveById.get(plan.ids[key] ?? '');
    heirOf ??= heirsOf(desired);
    return d !== undefined && l !== undefined && renamedOnto(sync, d, l, (k) => declared!.has(k), heirOf) !== undefined;
  };
  // A delete changed live is of an object moved in the app from one the files still declare: pull
  // leaves it for a move by hand, as it would be declared twice (probe HR-3).
  let deletes: Map<string, Change> | undefined;
  const movedInApp = (item: Pick<DriftItem, 'kind' | 'key'>): boolean => {
    // Held ones too: a delete changed live under `drift: adopt` is held, and pull leaves it all the same (second read).
    deletes ??= new Map([...plan.changes, ...(plan.held ?? [])].filter((c) => c.action === 'delete').map((c) => [refKey(c.kind, c.key), c]));
    const c = deletes.get(refKey(item.kind, item.key));
    declared ??= new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
    return c !== undefined && movedFromDeclared(c, sync, plan.ids, (k) => declared!.has(k)) !== undefined;
  };
  // A reference changed live only as what it names swapped names with a declared object: pull leaves it, as that rename (probe HX-2).
  let changes: Map<string, Change> | undefined;
  let liveByKind: Map<string, LiveResource[]> | undefined;
  const followsSwapped = (item: Pick<DriftItem, 'kind' | 'key'>, field: string): boolean => {
    const key = refKey(item.kind, item.key);
    declared ??= new Map(desired.map((d) => [refKey(d.kind, d.key), d]));
    const d = declared.get(key);
    if (!d?.refs.some((r) => r.field === field)) return false;
    changes ??= new Map([...plan.changes, ...(plan.held ?? [])].map((c) => [refKey(c.kind, c.key), c]));
    const c = changes.get(key);
    if (!liveByKind) {
      liveByKind = new Map();
      for (const l of live) addTo(liveByKind, l.kind, l);
    }
    return c !== undefined && followsSwappedName(d, c, field, { liveOfKind: (kind) => liveByKind!.get(kind) ?? [], declared: (k) => declared!.has(k), sync });
  };
  return {
    pullLeaves: (item, field) => kindLeaves(item, field) || refusesValue.field(item, field) || renamedOntoDeclared(item) || followsSwapped(item, field),
    pullRefuses: (item) =>
      refusesName(item) || (item.direction === 'only-live' && refusesValue.onlyLive(item)) || (item.direction === 'removed-live' && stillLive(item)) || (item.direction === 'changed-live' && movedInApp(item)),
  };
}

/** Whether pull leaves a field's live value, as the object's kind tells from it (a template naming an attachment no document declares). */
function pullLeavesOf(desired: readonly DesiredResource[], live: readonly LiveResource[], ids: Readonly<Record<string, string>>): NonNullable<DriftReport['pullLeaves']> {
  const deciding = new Map(KINDS.filter((k) => k.pullLeaves).map((k) => [k.name, k]));
  const declared = new Map(desired.filter((d) => deciding.has(d.kind)).map((d) => [refKey(d.kind, d.key), d]));
  const liveById = new Map(live.filter((l) => deciding.has(l.kind)).map((l) => [l.id, l]));
  const ofKind = new Map<KindName, LiveResource[]>();
  const liveOf = (kind: KindName): readonly LiveResource[] => ofKind.get(kind) ?? ofKind.set(kind, live.filter((l) => l.kind === kind)).get(kind)!;
  return (item, field) => {
    const key = refKey(item.kind, item.key);
    const d = declared.get(key);
    const l = ids[key] === undefined ? undefined : liveById.get(ids[key]);
    return d !== undefined && l !== undefined && deciding.get(item.kind)!.pullLeaves!(field, l, d, liveOf);
  };
}

/** The kinds `apply --prune` archives only with the object they are in: a rule, with its whole playbook (probe WG-2). */
function prunedWithParent(): Set<KindName> {
  const archived = archivedKinds();
  return new Set(KINDS.filter((k) => k.parentKind !== undefined && archived.has(k.parentKind)).map((k) => k.name));
}

function archivedKinds(): Set<KindName> {
  return new Set(KINDS.filter((k) => k.pruneKey).map((k) => k.name));
}

/**
 * The kinds `apply --prune` removes objects only live of: those it archives, and their children (a
 * rule only live that a plan leaves is in a playbook no file declares, which the archive takes with
 * it; probe NH-4).
 */
function prunableKinds(): Set<KindName> {
  return new Set([...archivedKinds(), ...prunedWithParent()]);
}
