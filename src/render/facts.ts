/**
 * What the text and markdown renderers both say about a plan (counts, labels, warnings, the
 * undeclared note), built once so the two outputs never disagree. Strings come back raw or through
 * the caller's formatter: escaping is the renderer's job.
 */
import { DIRECTION_LABEL } from '../engine/direction.js';
import { guardWarning, guardWarnings } from '../engine/guard.js';
import { CREATE_ACTIONS, isFilesSide, type Action, type Change, type Direction, type FieldChange, type FieldDirection, type KindName, type Plan } from '../engine/types.js';
import { identityWithoutSecrets } from '../config/url-secrets.js';
import { bashWord, dirFlag } from '../util/shell-word.js';

export interface KindTitle {
  name: KindName;
  title: string;
}

/** Summary and table order. */
export const ACTION_ORDER: readonly Action[] = ['create', 'update', 'rename', 'publish', 'delete', 'archive', 'invite', 'upload'];

/** Always named in the summary line, even at zero, so the line reads the same on every run. */
const ALWAYS_COUNTED: ReadonlySet<Action> = new Set<Action>(['create', 'update', 'delete']);

export const SYMBOL: Record<Action, string> = {
  create: '+',
  invite: '+',
  upload: '+',
  update: '~',
  rename: '~',
  publish: '↑',
  delete: '-',
  archive: '-',
};

export function countActions(changes: Change[]): Record<Action, number> {
  const counts = Object.fromEntries(ACTION_ORDER.map((a) => [a, 0])) as Record<Action, number>;
  for (const c of changes) counts[c.action] += 1;
  return counts;
}

/** `["2 to create", "0 to update", "1 to publish", "0 to delete"]`. */
export function summaryParts(changes: Change[]): string[] {
  const counts = countActions(changes);
  return ACTION_ORDER.filter((a) => ALWAYS_COUNTED.has(a) || counts[a] > 0).map((a) => `${counts[a]} to ${a}`);
}

export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n} ${n === 1 ? one : many}`;
}

export interface KindGroup {
  kind: KindName;
  title: string;
  changes: Change[];
}

/** Changes grouped in `kindOrder`; kinds missing from it follow in plan order rather than vanish. */
export function groupByKind(changes: Change[], kindOrder: KindTitle[]): KindGroup[] {
  const byKind = new Map<KindName, Change[]>();
  for (const c of changes) {
    const list = byKind.get(c.kind) ?? [];
    list.push(c);
    byKind.set(c.kind, list);
  }
  const groups: KindGroup[] = [];
  for (const k of kindOrder) {
    const list = byKind.get(k.name);
    if (!list) continue;
    groups.push({ kind: k.name, title: k.title, changes: list });
    byKind.delete(k.name);
  }
  for (const [kind, list] of byKind) groups.push({ kind, title: kind, changes: list });
  return groups;
}

import { changeLabel, isSingleton, namesakeNote, renamedFrom } from './headline.js';

export { changeHeadline, changeLabel, headlineOf, isSingleton, namesakeNote, renamedFrom, renameNote, skippedBecause } from './headline.js';

/** `playbook "Inbound NDA"`, or just `organization` for a singleton (drift and pull reports). */
export function subject(o: { kind: string; key: string; name?: string }, name: (key: string) => string): string {
  return isSingleton(o) ? o.kind : `${o.kind} ${name(o.name === undefined ? o.key : identityWithoutSecrets(o.key, o.name))}`;
}

/**
 * Field lines a change shows: creates their values, permanent deletes what they destroy (a reviewer
 * approving one sees what is lost, probe YE-2), archives (they can be restored) and removals a drift
 * policy holds back only when asked, renames minus the name.
 */
export function visibleFields(c: Change, verbose: boolean): FieldChange[] {
  const sides = fieldSides(c);
  if (sides === 'before') return verbose || (c.action === 'delete' && !c.policy) ? c.fields.filter((f) => f.before != null) : [];
  if (sides === 'after') return c.fields.filter((f) => f.after != null || f.sent !== undefined);
  const skip = renamedFrom(c)?.field;
  return c.fields.filter((f) => f.field !== skip);
}

/** How a field shows: one side only for creates and removals (an upload that replaces an object has both). */
export function fieldSides(c: Change): 'after' | 'before' | 'both' {
  if (CREATE_ACTIONS.includes(c.action) && !(c.action === 'upload' && c.liveId)) return 'after';
  if (c.action === 'delete' || c.action === 'archive') return 'before';
  return 'both';
}

/** The field as shown: what apply sends on the after side, where the files write it otherwise than it is compared. */
export function shownField(f: FieldChange): FieldChange {
  return f.sent === undefined ? f : { ...f, after: f.sent };
}

export function isMultiline(f: FieldChange): boolean {
  return (typeof f.before === 'string' && f.before.includes('\n')) || (typeof f.after === 'string' && f.after.includes('\n'));
}

/** Formatting hooks: quote/code a name, clean/escape free text. */
export interface Fmt {
  name(label: string): string;
  text(s: string): string;
}

const LISTED_NAMES = 5;

/** The first few items, then how many more. */
export function shortList(items: readonly string[], listed = LISTED_NAMES): string {
  const shown = items.slice(0, listed);
  const rest = items.length - shown.length;
  return rest > 0 ? `${shown.join(', ')} and ${rest} more` : shown.join(', ');
}

function nameList(labels: string[], fmt: Fmt): string {
  return shortList(labels.map((l) => fmt.name(l)));
}

/** A plan with no changes; with live changes a drift policy holds back, those are not denied. */
export function noChangesSentence(plan: Plan, heldListed = true): string {
  // Cut to --targets, the rest was not looked at: only the targets are said to match (probe KV-5).
  const what = plan.targets?.length ? `The live services match the configuration for ${plan.targets.length === 1 ? 'the target' : 'the targets'}` : 'The live services match the configuration';
  if (!plan.held?.length) return `${what}.`;
  if (heldListed) return `${what}, except for the live changes listed below that a drift policy leaves alone.`;
  return `${what}, except for ${plural(plan.held.length, 'live change')} a drift policy leaves alone (\`docket plan\` lists them).`;
}

/** Every warning sentence, without a `Warning:` prefix: partial plan, permanence, then the plan's own. */
export function warningSentences(plan: Plan, fmt: Fmt): string[] {
  // That apply will refuse the plan comes first: a comment cut for length must not lose it.
  const refusals = new Set((plan.guard ?? []).map(guardWarning));
  const out: string[] = guardWarnings(plan.guard ?? []).map((w) => fmt.text(w));
  if (plan.targets && plan.targets.length > 0) {
    const they = plan.targets.length === 1 ? 'what it depends on' : 'what they depend on';
    out.push(`this plan is partial: only ${nameList(plan.targets, fmt)} and ${they}; other differences are not shown.`);
  }
  const irreversible = plan.changes.filter((c) => c.irreversible);
  const deletesByKind = new Map<KindName, Change[]>();
  const publishes: Change[] = [];
  for (const c of irreversible) {
    if (c.action === 'delete') deletesByKind.set(c.kind, [...(deletesByKind.get(c.kind) ?? []), c]);
    else if (c.action === 'publish') publishes.push(c);
  }
  for (const [kind, deletes] of deletesByKind) {
    // Two of one name are told apart by their live ids, as their changes are (second read SR97-3).
    const named = shortList(deletes.map((c) => `${fmt.name(changeLabel(c))}${namesakeNote(c)}`));
    out.push(`${plural(deletes.length, kind)} will be permanently deleted (cannot be undone): ${named}.`);
  }
  if (publishes.length > 0) {
    const go = publishes.length === 1 ? 'goes' : 'go';
    const what = publishes.map((c) => `${c.kind} ${fmt.name(changeLabel(c))}${c.versions ? ` (${c.versions} versions)` : ''}`);
    // Versions, not publishes, are what cannot be undone: one publish may make two (probe LQ-1).
    const versions = publishes.reduce((n, c) => n + (c.versions ?? 1), 0);
    const count = versions > publishes.length ? ` (${versions} versions)` : '';
    out.push(`${plural(publishes.length, 'publish', 'publishes')}${count} ${go} live at once and cannot be undone: ${shortList(what)}.`);
  }
  for (const c of irreversible) {
    if (c.action === 'delete' || c.action === 'publish') continue;
    out.push(`${c.action} ${c.kind} ${fmt.name(changeLabel(c))} is permanent and cannot be undone.`);
  }
  for (const w of plan.warnings) if (!refusals.has(w)) out.push(fmt.text(w));
  return out;
}

/**
 * `docket apply --adopt-files` with the run's `-C` (`dir`, when a command that was given one renders
 * it: `show` reads a file, not a folder), `--env` and `--emulator`, so that copied it acts on the
 * same configuration and organization (probes SK-3, WB-1).
 */
export function adoptFilesCommand(plan: Pick<Plan, 'environment' | 'target'>, dir?: string): string {
  return `docket apply${dir !== undefined ? dirFlag(dir) : ''}${plan.environment !== undefined ? ` --env ${bashWord(plan.environment)}` : ''}${plan.target.emulator ? ' --emulator' : ''} --adopt-files`;
}

/** `3 live objects are not declared in any file and are left alone (members: 2, playbooks: 1).` */
export function undeclaredSentence(plan: Plan, verbose = false, dir?: string): string | undefined {
  const groups = plan.undeclared.filter((u) => u.count > 0 && (verbose || !u.quiet));
  const total = groups.reduce((n, u) => n + u.count, 0);
  if (total === 0) return undefined;
  const per = groups.map((u) => `${u.kind}s: ${u.count}`).join(', ');
  const verb = total === 1 ? 'is not declared in any file and is left alone' : 'are not declared in any file and are left alone';
  // Named by a pending document (an export's): adopted once its file is there, as drift says (probe RI-3).
  const pending = groups.reduce((n, u) => n + (u.pending ?? 0), 0);
  const adopt = pending === 0 ? '' : `; ${pending === total ? (total === 1 ? 'it is' : 'they are') : `${pending} of them ${pending === 1 ? 'is' : 'are'}`} named by a pending document: add the file it names, rename the document to .yaml, then \`${adoptFilesCommand(plan, dir)}\``;
  return `${plural(total, 'live object')} ${verb} (${per})${adopt}.`;
}

/** Undeclared objects named without -v, per kind: those a person may act on (with --prune). */
const MAX_NAMED = 10;

/** The undeclared objects a plan names, per kind: the first ten of those `--prune` would act on, every one with -v. */
export function undeclaredNamed(plan: Plan, verbose: boolean): { kind: string; count: number; names: string[]; more: number; reason: string }[] {
  return plan.undeclared
    .filter((u) => u.count > 0 && (verbose || u.prunable))
    .map((u) => {
      const names = verbose ? u.names : u.names.slice(0, MAX_NAMED);
      return { kind: u.kind, count: u.count, names, more: u.names.length - names.length, reason: u.reason };
    });
}

/** What a change's headline says of its direction; nothing when docket cannot tell (see unknownNote). */
export function directionLabel(c: Change): string | undefined {
  return c.direction && c.direction !== 'unknown' ? DIRECTION_LABEL[c.direction] : undefined;
}

/** How a field's side reads (`in files`, `live`, `live and in files`): plan and drift say it alike. */
export const FIELD_DIRECTION_LABEL: Record<FieldDirection, string> = { live: 'live', files: 'in files', both: 'live and in files', unknown: 'unknown' };

/** For an object changed on both sides, or partly of unknown side: which side each field moved on. */
export function fieldDirectionLabel(c: { direction?: Direction; fields: readonly { direction?: FieldDirection }[] }, f: { direction?: FieldDirection }): string | undefined {
  if (!f.direction || !sidesPerField(c)) return undefined;
  return FIELD_DIRECTION_LABEL[f.direction];
}

/** Whether the fields of a change name different sides: only then is each field's side worth saying. */
function sidesPerField(c: { direction?: Direction; fields: readonly { direction?: FieldDirection }[] }): boolean {
  if (c.direction === 'changed-both') return true;
  return c.direction === 'unknown' && c.fields.some((f) => f.direction !== undefined && f.direction !== 'unknown');
}

/** How a held change's policy reads. */
export function heldLabel(c: Change): string {
  // The files' own change, held as the object live under its name is another's (probe NJ-2): pull does not take it either.
  if (isFilesSide(c.direction)) return `drift: ${c.policy ?? 'adopt'} of the object live under this name (see the warning)`;
  return c.policy === 'ignore' ? 'drift: ignore (left alone)' : 'drift: adopt (apply leaves it for `docket pull`)';
}

/** The note under a plan whose changes include some docket cannot tell the direction of. */
export function unknownNote(plan: Plan): string | undefined {
  const n = plan.changes.filter((c) => c.direction === 'unknown').length;
  if (n === 0) return undefined;
  const they = n === 1 ? 'it was' : 'they were';
  // No record, or one that does not hold a field (left to the app by `ignore_fields` then).
  return `${plural(n, 'change')} ${n === 1 ? 'has' : 'have'} no sync record that says which side moved, so docket cannot tell whether ${they} made live or in the files (apply and pull record one).`;
}
