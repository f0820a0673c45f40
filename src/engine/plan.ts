/**
 * Builds the Plan, the contract between planning and applying: plain data, serialisable, with a
 * digest of the configuration and a fingerprint of every live object it touches. Pure: the
 * clock and version come in as parameters.
 */
import { didYouMean } from '../config/suggest.js';
import type { Diagnostic } from '../diagnostics.js';
import { Diagnostics, uniqueDiagnostics } from '../diagnostics.js';
import { digestWithList } from './canonical.js';
import { diff, type KindMeta } from './diff.js';
import { planHints } from './hints.js';
import { orderChanges } from './order.js';
import { refKey } from './types.js';
import type { Action, Change, DesiredResource, LiveResource, LockUpdate, Plan, PlanTarget, UncertainUpload } from './types.js';
import { resolveUncertain } from './uncertain.js';

export interface BuildPlanInput {
  kinds: KindMeta[];
  desired: DesiredResource[];
  live: LiveResource[];
  prune: Record<string, boolean>;
  configDigest: string;
  target: PlanTarget;
  environment?: string;
  now: Date;
  version: string;
  warnings?: string[];
  /** Lock entries the reads settled. */
  lockUpdates?: LockUpdate[];
  /** Interrupted uploads no read can settle; an error unless `retryUncertain`. */
  uncertain?: UncertainUpload[];
  retryUncertain?: boolean;
}

export interface BuildPlanResult {
  plan?: Plan;
  diagnostics: Diagnostic[];
}

export function buildPlan(input: BuildPlanInput): BuildPlanResult {
  const result = diff({ kinds: input.kinds, desired: input.desired, live: input.live, prune: input.prune });
  const diagnostics = result.diagnostics;
  checkReferences(input.desired, result.ids, input.kinds, diagnostics);
  checkActions(result.changes, input.kinds, diagnostics);
  const uncertain = resolveUncertain(input.uncertain ?? [], input.desired, Boolean(input.retryUncertain), diagnostics);
  const lockUpdates = [...(input.lockUpdates ?? []), ...uncertain.updates];
  const ordered = orderChanges(result.changes, input.kinds, input.live);
  diagnostics.items.push(...ordered.diagnostics.items);
  if (diagnostics.hasErrors()) return { diagnostics: uniqueDiagnostics(diagnostics.sorted()) };

  const plan: Plan = {
    format_version: 1,
    docket_version: input.version,
    created_at: input.now.toISOString(),
    target: input.target,
    ...(input.environment ? { environment: input.environment } : {}),
    config_digest: input.configDigest,
    changes: ordered.changes,
    // Sorted so the same state always serialises the same way (golden files, plan diffs).
    ids: Object.fromEntries(Object.entries(result.ids).sort(([a], [b]) => a.localeCompare(b))),
    summary: summarize(ordered.changes),
    warnings: [
      ...(input.warnings ?? []),
      ...result.adoptable.map(
        (a) => `${a.kind} "${a.key}": cannot compare ${a.file} (${a.reason}); run \`docket apply --adopt-files\` to record the current file as live`,
      ),
      ...(input.lockUpdates ?? []).map((u) => u.reason),
      ...uncertain.warnings,
      ...planHints({ kinds: input.kinds, desired: input.desired, live: input.live, changes: ordered.changes, ids: result.ids }),
    ],
    undeclared: result.undeclared,
    ...(result.adoptable.length > 0 ? { adoptable: result.adoptable } : {}),
    ...(lockUpdates.length > 0 ? { lock_updates: lockUpdates } : {}),
  };
  return { plan, diagnostics: uniqueDiagnostics(diagnostics.sorted()) };
}

/** How many changes of each action a plan holds (actions it does not hold are left out). */
export function summarize(changes: Change[]): Plan['summary'] {
  const summary: Partial<Record<Action, number>> = {};
  for (const c of changes) summary[c.action] = (summary[c.action] ?? 0) + 1;
  return summary;
}

/** A reference to something that exists neither in the files nor live is an error at its line. */
function checkReferences(desired: DesiredResource[], ids: Record<string, string>, kinds: KindMeta[], diagnostics: Diagnostics): void {
  const declared = new Set(desired.map((d) => refKey(d.kind, d.key)));
  const byName = new Map(kinds.map((k) => [k.name, k]));
  // Names a reference could have meant, per kind: declared or live (built only when one is missing).
  let known: Map<string, string[]> | undefined;
  const namesOf = (kind: string): string[] => {
    known ??= groupKeys([...declared, ...Object.keys(ids)]);
    return known.get(kind) ?? [];
  };
  for (const d of desired) {
    for (const ref of d.refs) {
      const key = refKey(ref.kind, ref.key);
      if (declared.has(key) || ids[key]) continue;
      const { message, hint } = byName.get(ref.kind)?.describeMissing?.(ref.key) ?? {
        message: `${ref.kind} "${ref.key}", which is neither declared in the configuration nor exists live`,
        hint: `declare the ${ref.kind} or fix the name`,
      };
      const suggestion = didYouMean(ref.key, namesOf(ref.kind));
      diagnostics.error('unknown-reference', `\`${ref.field}\` names ${message}${suggestion}`, { ...(ref.source ?? d.source), hint });
    }
  }
}

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
    diagnostics.error('unsupported-change', `${c.kind} "${c.name}" would need ${c.action}, which docket cannot do for a ${c.kind}`, {
      ...(c.source ?? {}),
      hint: `a ${c.kind} can only ${actions.join(', ') || 'be read'}`,
    });
  }
}

/** The configuration digest: what the plan was computed from, without positions or comments. */
export function configDigest(desired: DesiredResource[], settings: unknown): string {
  // The same order localeCompare gives, with one collator instead of one per comparison.
  const collate = new Intl.Collator().compare;
  const sorted = desired.map((d) => ({ d, id: `${d.kind}:${d.key}` })).sort((a, b) => collate(a.id, b.id));
  const content = sorted.map(({ d }) => ({ kind: d.kind, key: d.key, name: d.name, fields: d.fields, createOnly: d.createOnly ?? null, partial: d.partial, refs: d.refs.map((r) => [r.kind, r.key, r.field]), pin: d.pinId ?? null, renamed: d.renamedFrom }));
  return digestWithList('content', content, { settings });
}

export function hasChanges(plan: Plan): boolean {
  return plan.changes.length > 0;
}
