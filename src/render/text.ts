/**
 * The terminal plan, in the Terraform manner: grouped by kind, one line per change with its symbol
 * and source, field-level before/after, multi-line text as a unified diff, a summary line, then
 * warnings and the undeclared note. Pure: colour and verbosity come in as options.
 */
import { isolated } from './bidi.js';
import { isDrift } from '../engine/direction.js';
import type { Change, FieldChange, Plan } from '../engine/types.js';
import {
  SYMBOL,
  changeLabel,
  directionLabel,
  fieldDirectionLabel,
  fieldSides,
  heldLabel,
  groupByKind,
  isMultiline,
  isSingleton,
  namesakeNote,
  noChangesSentence,
  plural,
  renamedFrom,
  renameNote,
  shownField,
  summaryParts,
  undeclaredNamed,
  undeclaredSentence,
  unknownNote,
  visibleFields,
  warningSentences,
  type Fmt,
  type KindTitle,
} from './facts.js';
import { painter, type Paint, type Style } from './paint.js';
import { writeLines } from './chunks.js';
import { stripControl } from './sanitize.js';
import { diffLines, itemDiff, newDiffBudget, NOTE_MARK, sameLineNotes, withNoteLines } from './textdiff.js';
import { aroundChange, formatValue, oneLine, onePath, quote, reviewPlace, sameShownNote, targetUrl } from './value.js';

export { renderApplyReportText, writeApplyReportText } from './apply-text.js';
export { renderDiagnosticsText } from './diagnostics-text.js';

export interface PlanTextOptions {
  color: boolean;
  /** Also list undeclared objects by name and the fields of deleted objects. */
  verbose?: boolean;
  kindOrder: KindTitle[];
  /** The `-C` the run was given, for the commands the plan names (adoptFilesCommand). */
  dir?: string;
}

const CHANGE_INDENT = '  ';
const FIELD_INDENT = '      ';
const DIFF_INDENT = '        ';

const SYMBOL_STYLE: Record<string, Style> = { '+': 'green', '~': 'yellow', '-': 'red', '↑': 'cyan' };

export function targetLine(plan: Pick<Plan, 'target'>, paint: Paint): string {
  const t = plan.target;
  if (t.emulator) return `target: ${paint('yellow', 'local emulator')}`;
  const parts: string[] = [];
  if (t.review) parts.push(`${oneLine(targetUrl(t.review.url))}${reviewPlace(t.review, oneLine)}`);
  if (t.agreements) {
    const org = t.agreements.organization_id ? ` (organization ${oneLine(t.agreements.organization_id)})` : '';
    parts.push(`${t.review ? 'agreements:' : 'agreements'} ${oneLine(targetUrl(t.agreements.url))}${org}`);
  }
  return `target: ${parts.length > 0 ? parts.join(' · ') : 'none'}`;
}

function headline(c: Change, paint: Paint): string {
  const symbol = SYMBOL[c.action];
  const from = renamedFrom(c);
  const what = from ? ` ${isolated(quote(from.label))} → ${isolated(quote(changeLabel(c)))}${renameNote(c)}` : isSingleton(c) ? '' : ` ${quote(changeLabel(c))}${namesakeNote(c)}`;
  const tail: string[] = [];
  if (c.action === 'delete' && c.irreversible && !c.policy) tail.push('(permanent)');
  if (c.versions) tail.push(`(${c.versions} versions)`);
  if (c.source) tail.push(`(${onePath(c.source.file)}:${c.source.line})`);
  const direction = directionLabel(c);
  const line = `${paint(SYMBOL_STYLE[symbol] ?? 'bold', symbol)} ${c.action} ${c.kind}${what}`;
  return `${CHANGE_INDENT}${[line, ...tail].join(' ')}${direction ? ` · ${paint(isDrift(c.direction) ? 'magenta' : 'dim', direction)}` : ''}`;
}

/** The file a change sends whole, which its fields show only a digest of. */
function uploadLine(file: string): string {
  return `${FIELD_INDENT}uploads: ${quote(onePath(file))}`;
}

function fieldLines(c: Change, field: FieldChange, paint: Paint): string[] {
  const f = shownField(field);
  const side = fieldDirectionLabel(c, f);
  const name = `${oneLine(f.field)}${side ? ` (${side})` : ''}`;
  const sides = fieldSides(c);
  if (f.summary) return [`${FIELD_INDENT}${name}:`, ...f.summary.map((l) => `${DIFF_INDENT}${paintDiffLine(oneLine(l), paint)}`)];
  if (isMultiline(f)) {
    const before = sides === 'after' ? null : f.before;
    const after = sides === 'before' ? null : f.after;
    const lines = diffLines(before, after);
    // Two texts that differ only in what output hides of a URL show as one: said why (second read SR99B-3).
    if (lines.length === 0) return [`${FIELD_INDENT}${name}:${sameShownNote(before, after) || ' (no visible difference)'}`];
    return [`${FIELD_INDENT}${name}:`, ...withNoteLines(lines, sameLineNotes(lines)).map((l) => `${DIFF_INDENT}${paintDiffLine(l, paint)}`)];
  }
  if (sides === 'after') return [`${FIELD_INDENT}${name}: ${formatValue(f.after)}`];
  if (sides === 'before') return [`${FIELD_INDENT}${name}: ${formatValue(f.before)}`];
  const items = itemDiff(f.before, f.after);
  if (items) return [`${FIELD_INDENT}${name}:`, ...items.map((l) => `${DIFF_INDENT}${paintDiffLine(l, paint)}`)];
  const around = aroundChange(f.before, f.after);
  if (around) return [`${FIELD_INDENT}${name}: ${isolated(around.before)} → ${isolated(around.after)}${around.note}${sameShownNote(f.before, f.after)}`];
  return [`${FIELD_INDENT}${name}: ${isolated(formatValue(f.before))} → ${isolated(formatValue(f.after))}${sameShownNote(f.before, f.after)}`];
}

function paintDiffLine(line: string, paint: Paint): string {
  if (line.startsWith('@@')) return paint('cyan', line);
  if (line.startsWith(NOTE_MARK)) return paint('dim', line);
  if (line.startsWith('+')) return paint('green', line);
  if (line.startsWith('-')) return paint('red', line);
  return line;
}

/** The plan's warnings as the text plan says them, one `Warning: …` line each, for a run that prints no plan (`apply -o json`). */
export function planWarningLines(plan: Plan): string[] {
  return warningSentences(plan, textFmt).map((w) => `Warning: ${w}`);
}

/** Free text (engine warnings carry user names): cleaned, continuation lines indented. */
const textFmt: Fmt = {
  name: quote,
  text: (s) => stripControl(s).split('\n').join('\n  '),
};

export function renderPlanText(plan: Plan, opts: PlanTextOptions): string {
  return `${[...planTextLines(plan, opts)].join('\n')}\n`;
}

/**
 * The same text, written a chunk at a time: the plan of a bootstrap (twenty thousand creates) is
 * millions of characters, and held whole, with its lines, it was tens of megabytes at once.
 */
export function writePlanText(plan: Plan, opts: PlanTextOptions, write: (text: string) => void, drained?: () => Promise<void>): Promise<void> {
  return writeLines(planTextLines(plan, opts), write, drained);
}

/** A report's first lines: the command and the plan's target, then the environment it was made for. */
export function headerLines(command: string, plan: Plan, paint: Paint): string[] {
  return [`docket ${command} · ${targetLine(plan, paint)}`, ...(plan.environment ? [`environment: ${oneLine(plan.environment)}`] : [])];
}

function* planTextLines(plan: Plan, opts: PlanTextOptions): Generator<string> {
  newDiffBudget();
  const paint = painter(opts.color);
  const verbose = opts.verbose ?? false;
  yield* headerLines('plan', plan, paint);
  yield '';

  if (plan.changes.length === 0) {
    // Live changes a drift policy holds back are differences all the same: listed below, not denied here.
    yield `No changes. ${noChangesSentence(plan)}`;
  } else {
    for (const group of groupByKind(plan.changes, opts.kindOrder)) {
      yield paint('bold', oneLine(group.title));
      for (const c of group.changes) {
        yield headline(c, paint);
        if (c.uploads) yield uploadLine(c.uploads);
        for (const f of visibleFields(c, verbose)) yield* fieldLines(c, f, paint);
      }
      yield '';
    }
    yield `${paint('bold', 'Plan:')} ${summaryParts(plan.changes).join(', ')}.`;
  }

  if (plan.held?.length) {
    yield '';
    yield paint('bold', `Live changes the drift policy leaves alone (${plan.held.length}):`);
    for (const c of plan.held) {
      yield `${headline(c, paint)} · ${heldLabel(c)}`;
      if (c.uploads) yield uploadLine(c.uploads);
      for (const f of visibleFields(c, verbose)) yield* fieldLines(c, f, paint);
    }
  }
  const unknown = unknownNote(plan);
  if (unknown) yield* ['', unknown];

  const warnings = warningSentences(plan, textFmt);
  if (warnings.length > 0) {
    yield '';
    for (const w of warnings) yield `${paint('yellow', 'Warning:')} ${w}`;
  }

  const undeclared = undeclaredSentence(plan, verbose, opts.dir);
  if (undeclared) {
    yield* ['', undeclared];
    // Objects a person may act on (with --prune) are named without -v; the rest with it.
    for (const u of undeclaredNamed(plan, verbose)) {
      yield `  ${plural(u.count, u.kind)}: ${u.names.map(quote).join(', ')}${u.more > 0 ? ` and ${u.more} more (-v lists them)` : ''} (${oneLine(u.reason)})`;
    }
  }
}
