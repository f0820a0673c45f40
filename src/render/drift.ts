/**
 * The drift report as text (a CI log), markdown (an issue or PR comment) and JSON. Pure: every
 * name is quoted or put in code, so nothing from a service can break a line or a comment.
 */
import { DIRECTION_LABEL, DRIFT_DIRECTIONS, directionSign } from '../engine/direction.js';
import type { AdoptingItem, DriftItem, DriftReport } from '../engine/drift.js';
import type { Direction, Plan } from '../engine/types.js';
import { adoptFilesCommand, fieldDirectionLabel, plural, shortList, subject } from './facts.js';
import { jsonText } from './json.js';
import { cutNote, fitMarkdown, listShares, MARKDOWN_MAX_CHARS, pushWithin, type ListBudget } from './markdown-fit.js';
import { targetLine as markdownTargetLine } from './markdown.js';
import { painter } from './paint.js';
import { codeSpan, escapeMarkdown, shortCodeSpan } from './sanitize.js';
import { headerLines } from './text.js';
import { oneLine, onePath, quote } from './value.js';

/** Drift groups, most common first (the order DRIFT_DIRECTIONS lists them in). */
const DRIFT_ORDER: readonly Direction[] = [...DRIFT_DIRECTIONS];

function groups(items: readonly DriftItem[]): { direction: Direction; title: string; items: DriftItem[] }[] {
  return DRIFT_ORDER.map((direction) => {
    const label = DIRECTION_LABEL[direction];
    return { direction, title: `${label[0]!.toUpperCase()}${label.slice(1)}`, items: items.filter((i) => i.direction === direction) };
  }).filter((g) => g.items.length > 0);
}

/** The items a report lists: a child removed live with its parent is said on the parent's line (removedWithSaid). */
function listed(items: readonly DriftItem[], report: DriftReport): readonly DriftItem[] {
  if (!report.removedWith) return items;
  const withParent = new Set([...report.removedWith.values()].flat());
  return items.filter((i) => !withParent.has(i));
}

/** ` · with its 40 rules`: the children removed live with a parent, counted on its line instead of a line each (probe RJ-5). */
function removedWithSaid(i: DriftItem, report: DriftReport): string {
  const children = report.removedWith?.get(i);
  if (!children?.length) return '';
  const kinds = [...new Set(children.map((c) => c.kind))];
  return ` · with its ${kinds.map((k) => plural(children.filter((c) => c.kind === k).length, k)).join(', ')}`;
}

/**
 * The docket commands the closing lines name, as the run was given (`docket pull -C legal --env
 * prod`): applied to docket's own words only, never to a live name or value beside them (second read SR104-2).
 */
export type Commands = (text: string) => string;
const AS_WRITTEN: Commands = (text) => text;

/** An object only live that no plan change removes (prune off, or a kind with no removal over the API). */
function leftOnlyLive(i: DriftItem): boolean {
  return i.direction === 'only-live' && i.action === undefined && !i.removed_in_files;
}

/**
 * Objects only live are removed by apply only where prune is on for their kind (playbooks are
 * archived with `--prune`); the app removes the rest. Where the plan removes other objects only
 * live (a rule is deleted), the note names those it leaves, so it is not read as about all of them.
 */
function onlyLiveNote(report: DriftReport, name: (s: string) => string, cmd: Commands): string {
  // Not those a policy holds (`drift: adopt` of their playbook): their item says why apply leaves them (probe LK-4).
  const left = report.drift.filter((i) => leftOnlyLive(i) && i.policy === undefined);
  if (left.length === 0) return '';
  const removedToo = report.drift.some((i) => i.direction === 'only-live' && !i.removed_in_files && !leftOnlyLive(i));
  const them = removedToo && left.length === 1 ? 'it' : 'them';
  const which = removedToo ? `${shortList(left.map((i) => subject(i, name)))}, only live` : 'objects only live';
  const prunable = report.prunable;
  // After apply's clause, a note on it; alone (nothing else for apply to revert), a clause of its own, not a note on pull.
  const alone = !applyReverts(report);
  // One archived only with the object it is in (a rule in a playbook no file declares) takes that whole one with it (probe WG-2).
  const whole = left.some((i) => report.prunedWithParent?.has(i.kind)) ? ', each with the whole object it is in' : '';
  const prune = cmd('`docket apply --prune`');
  if (prunable && left.every((i) => prunable.has(i.kind))) return alone ? `; ${prune} archives the objects only live${whole}` : ` (${which}: with ${prune}${whole})`;
  if (prunable && !left.some((i) => prunable.has(i.kind))) return alone ? '; the app removes the objects only live, no apply does' : ` (${which}: the app removes ${them}, no apply does)`;
  return alone ? `; of the objects only live, ${prune} archives those of the kinds it archives, the app removes the others` : ` (${which}: ${prune} archives those of the kinds it archives, the app removes the others)`;
}

/** Whether an apply reverts any of the drift: not objects only live it leaves, nor live work in objects the files removed. */
function applyReverts(report: DriftReport): boolean {
  // Drift a `drift: adopt` policy holds is never reverted by apply.
  // Nor an object removed live that its document pins by `id:`: the plan refuses to make it again.
  // None while any difference is one apply cannot send (a Word term the files write as text:
  // unsupported-change): the plan stops at it, and apply reverts nothing (probe AG-1, SR99B-2).
  if (holdsUnsendable(report)) return false;
  return report.drift.some((i) => !i.removed_in_files && !leftOnlyLive(i) && i.policy !== 'adopt' && !i.pinned);
}

function holdsUnsendable(report: DriftReport): boolean {
  return report.drift.some((i) => i.fields.some((f) => f.unsendable));
}

/** Where apply reverts none of the drift for changes it cannot send: said, so the closing line does not end at "pull leaves it" (probe AG-1). */
function unsendableNote(report: DriftReport): string {
  return holdsUnsendable(report) ? '; `docket apply` reverts none of it while the files ask for a change the service cannot make (the warning says which: change the files, or the object in the app)' : '';
}

/** Whether pull or apply settles any of the drift: not the live work in objects the files removed (removedNote). */
function revertible(report: DriftReport): boolean {
  return report.drift.some((i) => !i.removed_in_files);
}

/** Whether the report sends users to pull: some drift pull writes, as far as the report tells, and pull, when planned, writes a file. */
export function pullable(report: DriftReport): boolean {
  return report.pullWrites !== false && pullableItems(report);
}

/**
 * Whether pull writes any of the drift: not what it leaves (live work in objects the files
 * removed, removals of objects the files changed, fields both sides changed since the last sync,
 * files only the user has).
 */
function pullableItems(report: DriftReport): boolean {
  // A Word file or PDF changed live: pull says how to put it in place, it writes nothing. Nor an
  // attachment no document declares, named by a template (probe FX); nor a name validate would
  // refuse in the files (shared live, or like a declared one).
  // A name refused leaves the object's other fields to pull (a rename onto a look-alike and an edit, probe GO).
  const writes = (i: DriftItem, field: string): boolean => !report.userFiles?.get(i.kind)?.includes(field) && !report.pullLeaves?.(i, field) && !(field === 'name' && report.pullRefuses?.(i));
  return report.drift.some((i) => !i.removed_in_files && !i.edited_in_files && !i.kept_by_policy && i.policy !== 'revert' && !((i.direction === 'only-live' || i.direction === 'removed-live' || (i.direction === 'changed-live' && (i.fields.length === 0 || (i.action === 'delete' && i.moved_from !== undefined)))) && report.pullRefuses?.(i)) && (i.fields.length === 0 || i.fields.some((f) => f.direction !== 'both' && writes(i, f.field))));
}

/** Objects removed live that the files changed since the last sync: pull keeps them in the files (editedNote). */
function editedNote(report: DriftReport): string | undefined {
  const n = report.drift.filter((i) => i.edited_in_files).length;
  if (n === 0) return undefined;
  // One whose document pins the removed object's id: apply refuses it until that line goes (second read SR79B-3).
  const pinned = report.drift.some((i) => i.edited_in_files && i.pinned);
  return `Of these, ${n} removed live ${n === 1 ? 'stays' : 'stay'} in the files, which changed ${n === 1 ? 'it' : 'them'} (or what ${n === 1 ? 'it belongs' : 'they belong'} with) since the last sync: pull leaves ${n === 1 ? 'it' : 'them'}; \`docket apply\` creates ${n === 1 ? 'it' : 'them'} again as the files say${pinned ? ' (once the `id:` line that pins the removed object is taken out)' : ''}, or remove ${n === 1 ? 'it' : 'them'} from the files by hand.`;
}

/** Objects removed live that a `drift: revert` or `ignore` keeps in the files, their playbook's or a rule's (probes IB-4, QB-4). */
function keptNote(report: DriftReport): string | undefined {
  // Not those the files changed too: the note before says them (second read SR-5).
  const n = report.drift.filter((i) => i.kept_by_policy && !i.edited_in_files).length;
  if (n === 0) return undefined;
  return `Of these, ${n} removed live ${n === 1 ? 'stays' : 'stay'} in the files for a \`drift: revert\` or \`ignore\` of ${n === 1 ? 'its' : 'their'} playbook or of a rule in it: pull leaves ${n === 1 ? 'it' : 'them'}; \`docket apply\` creates ${n === 1 ? 'it' : 'them'} again as the files say, or remove ${n === 1 ? 'it' : 'them'} from the files by hand.`;
}

/** Drift in objects the files removed is for a person to settle: neither pull nor apply does. */
function removedNote(report: DriftReport): string | undefined {
  const n = report.drift.filter((i) => i.removed_in_files).length;
  if (n === 0) return undefined;
  // Not "apply removes it": only what the plan removes (a playbook with prune, its rules) is; the rest only the app can.
  return `Of these, ${n} ${n === 1 ? 'is' : 'are'} live work in objects the files removed, which pull leaves for you to settle: to keep it, put the object back in the files (pull then writes it); otherwise remove it: apply removes what \`docket plan\` lists as to archive or delete (a playbook only with prune), and the app the rest (the kinds with no removal over the API).`;
}

function fieldList(i: DriftItem, code: (s: string) => string): string {
  // No field changed: it was renamed away from a name another live object took (probe JA-1).
  if (i.moved_from !== undefined && (i.fields.length === 0 || i.action === 'delete')) {
    // Edited in the app since it moved: the plan's delete takes the edit with it (probe SI-1).
    const edited = i.fields.length > 0 ? `, and its ${i.fields.map((f) => code(f.field)).join(', ')} changed live since the last sync: applying deletes it with that edit` : '';
    // Its own name kept, under another parent: it went with its playbook's rename in the app (a swap of names, probe NB-9).
    const keptName = i.moved_from !== i.key && i.moved_from.endsWith(`/${i.name}`) && i.key.endsWith(`/${i.name}`);
    if (keptName) return `moved in the app from ${code(quote(i.moved_from))} with its playbook's rename${edited}`;
    return `renamed in the app from ${code(quote(i.moved_from))}, a name another live ${i.kind} holds now${edited}`;
  }
  return i.fields.map((f) => {
    const side = fieldDirectionLabel(i, f);
    // Renamed in the app: what it is called there now, which the files do not say.
    const now = f.field === 'name' && i.live_name !== undefined ? ` now ${code(quote(i.live_name))}` : '';
    return `${code(f.field)}${now}${side ? ` (${side})` : ''}`;
  }).join(', ');
}

/** `3 objects (2 changed live, 1 only live)`. */
export function driftCounts(items: readonly DriftItem[]): string {
  const parts = groups(items).map((g) => `${g.items.length} ${DIRECTION_LABEL[g.direction]}`);
  return `${plural(items.length, 'object')} (${parts.join(', ')})`;
}

export interface DriftTextOptions {
  color: boolean;
  /** `--kind` and `--target` as given: what was compared, when not everything. */
  scope?: readonly ScopeFlag[];
  /** The `-C` the run was given, for the commands the report names (adoptFilesCommand). */
  dir?: string;
  commands?: Commands;
}

/** A `--kind` or `--target` flag as given, and what it compares when that is not plain (said beside it, not as part of it). */
export interface ScopeFlag {
  flag: string;
  note?: string;
}

/** What a report limited by `--kind` or `--target` says of what it left out. */
export function scopeLine(scope: readonly ScopeFlag[] | undefined, show: (s: string) => string): string | undefined {
  if (!scope || scope.length === 0) return undefined;
  // As a partial plan names its targets: hundreds of --target flags are not one line of a CI log.
  return `Compared only ${shortList(scope.map((s) => `${show(s.flag)}${s.note ? ` (${s.note})` : ''}`))}: other differences are not shown.`;
}

export function renderDriftText(plan: Plan, report: DriftReport, opts: DriftTextOptions): string {
  const paint = painter(opts.color);
  const lines = [...headerLines('drift', plan, paint), ''];
  const line = (i: DriftItem): string => {
    const fields = fieldList(i, oneLine);
    const at = i.source ? ` (${onePath(i.source.file)}:${i.source.line})` : '';
    const when = i.updated_at ? ` · updated ${oneLine(i.updated_at)}` : '';
    const policy = i.policy ? ` · drift: ${i.policy}` : '';
    const id = i.live_id ? ` (id ${oneLine(i.live_id)})` : '';
    return `  ${directionSign(i.direction)} ${subject(i, quote)}${id}${at}${fields ? `: ${fields}` : ''}${when}${policy}`;
  };
  for (const g of groups(report.drift)) {
    lines.push(paint('bold', `${g.title} (${g.items.length})`), ...listed(g.items, report).map((i) => `${line(i)}${removedWithSaid(i, report)}`), '');
  }
  if (report.ignored.length > 0) {
    lines.push(paint('bold', `Left alone by drift: ignore (${report.ignored.length})`), ...listed(report.ignored, report).map((i) => `${line(i)}${removedWithSaid(i, report)}`), '');
  }
  const cmd = opts.commands ?? AS_WRITTEN;
  if (report.drift.length === 0) lines.push('No drift: the live services have not moved away from the files.');
  else lines.push(`${paint('bold', 'Drift:')} ${driftCounts(report.drift)}.${revertible(report) ? ` ${cmd(`${pullable(report) ? '`docket pull` writes it into the files' : '`docket pull` leaves it'}${applyReverts(report) ? '; `docket apply` reverts what no `drift: adopt` policy covers' : unsendableNote(report)}`)}${onlyLiveNote(report, quote, cmd)}.` : ''}`);
  // Counts and docket's words alone: shaped whole.
  for (const note of [removedNote(report), editedNote(report), keptNote(report)]) if (note) lines.push(cmd(note));
  const { owed, leftLive } = pendingParts(report.pending);
  // Objects, not changes: a rename and an edit of one rule are two changes of a plan.
  if (owed > 0) lines.push(cmd(`${plural(owed, 'object')} changed in the files ${owed === 1 ? 'is' : 'are'} pending (not drift); \`docket plan\` shows ${owed === 1 ? 'it' : 'them'}.`));
  if (leftLive > 0) lines.push(leftLiveLine(leftLive));
  if (report.adopting?.length) lines.push(adoptingLine(plan, report.adopting, (a) => `${subject(a, quote)} (${onePath(a.file)})`, opts.dir));
  const scope = scopeLine(opts.scope, oneLine);
  if (scope) lines.push(scope);
  return `${lines.join('\n')}\n`;
}

/**
 * Pending objects in two parts: those a plan changes (what an apply still owes), and those the
 * files dropped that no plan removes (prune off, or a kind with no removal over the API), which
 * stay live until someone removes them: no apply ever settles them, so they are said apart.
 */
function pendingParts(pending: readonly DriftItem[]): { owed: number; leftLive: number } {
  const leftLive = pending.filter(isLeftLive).length;
  return { owed: pending.length - leftLive, leftLive };
}

function isLeftLive(i: DriftItem): boolean {
  return i.direction === 'removed-in-files' && i.action === undefined;
}

/** Plain words and one code span: the same line in text and in markdown. */
function leftLiveLine(n: number): string {
  // Not "plan lists them": a plan reads no kind the files dropped every object of.
  return `${plural(n, 'object')} removed from the files ${n === 1 ? 'is' : 'are'} left live (not drift): apply leaves ${n === 1 ? 'it' : 'them'} (prune is off, or the kind has no removal over the API).`;
}

/** Live objects named by pending documents: said once, with what adopting them takes. */
function adoptingLine(plan: Plan, items: readonly AdoptingItem[], show: (a: AdoptingItem) => string, dir: string | undefined): string {
  const n = items.length;
  return `${n} live ${n === 1 ? 'object is' : 'objects are'} named by a pending document (not drift; add the file it names, rename it to .yaml, then \`${adoptFilesCommand(plan, dir)}\`): ${items.map(show).join(', ')}.`;
}

/** A listed object's name, cut to this many characters as shown: a long one is still listed, not left to the count (probe YH-4). */
const LISTED_NAME_CHARS = 300;

/** An object's name in a markdown list (drift, pull). */
export function listedName(name: string): string {
  return shortCodeSpan(name, LISTED_NAME_CHARS);
}

/** `limitSaid`: the limit a cut report names, when it was fitted to less room than that (fitPrinted). */
export function renderDriftMarkdown(plan: Plan, report: DriftReport, maxChars = MARKDOWN_MAX_CHARS, scope?: readonly ScopeFlag[], limitSaid = maxChars, dir?: string, commands: Commands = AS_WRITTEN): string {
  return fitMarkdown((budget) => driftMarkdown(plan, report, budget, limitSaid, scope, dir, commands), maxChars);
}

function driftMarkdown(plan: Plan, report: DriftReport, budget: ListBudget, maxChars: number, scope: readonly ScopeFlag[] | undefined, dir: string | undefined, cmd: Commands): string {
  const lines = ['### docket drift', '', markdownTargetLine(plan), ''];
  if (report.drift.length === 0) lines.push('**No drift.** The live services have not moved away from the files.', '');
  else {
    lines.push('| Direction | Objects |', '| --- | ---: |', ...groups(report.drift).map((g) => `| ${g.title} | ${g.items.length} |`), '');
  }
  const item = (i: DriftItem): string => {
    const fields = fieldList(i, codeSpan);
    const at = i.source ? ` · ${codeSpan(`${i.source.file}:${i.source.line}`)}` : '';
    const when = i.updated_at ? ` · updated ${codeSpan(i.updated_at)}` : '';
    const policy = i.policy ? ` · drift: ${i.policy}` : '';
    const id = i.live_id ? ` (id ${codeSpan(i.live_id)})` : '';
    return `- \`${directionSign(i.direction)}\` ${subject(i, listedName)}${id}${at}${fields ? `: ${fields}` : ''}${when}${policy}`;
  };
  const sections = groups(report.drift);
  const lists = [...sections.map((g) => listed(g.items, report).map((i) => `${item(i)}${removedWithSaid(i, report)}`)), ...(report.ignored.length > 0 ? [listed(report.ignored, report).map((i) => `${item(i)}${removedWithSaid(i, report)}`)] : [])];
  const shares = listShares(budget.left, lists);
  sections.forEach((g, i) => {
    lines.push(`**${escapeMarkdown(g.title)}**`, '');
    pushWithin(lines, lists[i]!, budget, shares[i]);
    lines.push('');
  });
  if (report.ignored.length > 0) {
    lines.push(`**Left alone by \`drift: ignore\`**`, '');
    pushWithin(lines, lists[sections.length]!, budget, shares[sections.length]);
    lines.push('');
  }
  // Not "revert it" of drift a `drift: adopt` policy holds, which apply leaves (probe SI-6).
  const revert = report.drift.some((i) => i.policy === 'adopt') ? 'revert what no `drift: adopt` policy covers' : 'revert it';
  if (revertible(report) && pullable(report)) lines.push(`${cmd(`Run \`docket pull\` to write the drift into the files as a pull request${applyReverts(report) ? `, or \`docket apply\` to ${revert}` : unsendableNote(report)}`)}${onlyLiveNote(report, codeSpan, cmd)}.`, '');
  // As the text's closing line says it: the next step is never left out of a job summary (probe NX-2).
  else if (revertible(report)) lines.push(`${cmd(`\`docket pull\` leaves it${applyReverts(report) ? `; run \`docket apply\` to ${revert}` : unsendableNote(report)}`)}${onlyLiveNote(report, codeSpan, cmd)}.`, '');
  // Docket's own words and code spans: nothing to escape.
  for (const note of [removedNote(report), editedNote(report), keptNote(report)]) if (note) lines.push(`_${cmd(note)}_`, '');
  const { owed, leftLive } = pendingParts(report.pending);
  // Worded so the CI recipe's grep ('^_N objects with pending changes of the files (not drift)') finds what an apply still owes, and only that.
  if (owed > 0) lines.push(`_${plural(owed, 'object')} with pending changes of the files (not drift): see ${cmd('`docket plan`')}._`, '');
  if (leftLive > 0) lines.push(`_${leftLiveLine(leftLive)}_`, '');
  if (report.adopting?.length) lines.push(`_${escapeMarkdown(adoptingLine(plan, report.adopting, (a) => `${a.kind} "${a.name}" (${a.file})`, dir))}_`, '');
  const only = scopeLine(scope, codeSpan);
  if (only) lines.push(`_${only}_`, '');
  if (budget.cut) lines.push(cutNote(maxChars), '');
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

export interface DriftJson {
  format_version: 1;
  created_at: string;
  target: Plan['target'];
  environment?: string;
  /** `--kind` and `--target` as given, when they limited the report: nothing else was compared. */
  kinds?: string[];
  targets?: string[];
  drift: DriftItem[];
  ignored: DriftItem[];
  /** Changes of the files an apply still owes. */
  pending: DriftItem[];
  /** Objects the files removed that no apply removes (prune off, or no removal over the API): not pending, not drift. */
  left_live: DriftItem[];
  adopting: AdoptingItem[];
  summary: { drift: number; ignored: number; pending: number; left_live: number; adopting: number; by_direction: Partial<Record<Direction, number>> };
}

export function renderDriftJson(plan: Plan, report: DriftReport, limits: { kinds?: readonly string[]; targets?: readonly string[] } = {}): string {
  const byDirection: Partial<Record<Direction, number>> = {};
  for (const i of report.drift) byDirection[i.direction] = (byDirection[i.direction] ?? 0) + 1;
  const pending = report.pending.filter((i) => !isLeftLive(i));
  const leftLive = report.pending.filter(isLeftLive);
  const adopting = report.adopting ?? [];
  const body: DriftJson = {
    format_version: 1,
    created_at: plan.created_at,
    target: plan.target,
    ...(plan.environment ? { environment: plan.environment } : {}),
    ...(limits.kinds?.length ? { kinds: [...limits.kinds] } : {}),
    ...(limits.targets?.length ? { targets: [...limits.targets] } : {}),
    drift: report.drift,
    ignored: report.ignored,
    pending,
    left_live: leftLive,
    adopting,
    summary: { drift: report.drift.length, ignored: report.ignored.length, pending: pending.length, left_live: leftLive.length, adopting: adopting.length, by_direction: byDirection },
  };
  return jsonText(body);
}
