/**
 * The plan as a pull-request comment: summary table, warnings, one collapsible section per kind.
 * All user text is escaped or put in code, and the comment stays under the size limit of GitHub
 * comments by dropping field details, then list entries, always leaving balanced `<details>` and
 * closed fences.
 */
import { isolated } from './bidi.js';
import type { Change, FieldChange, Plan } from '../engine/types.js';
import {
  ACTION_ORDER,
  SYMBOL,
  changeLabel,
  countActions,
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
  undeclaredNamed,
  undeclaredSentence,
  unknownNote,
  visibleFields,
  warningSentences,
  type Fmt,
  type KindTitle,
} from './facts.js';
import { countWithin, MARKDOWN_MAX_CHARS, thousands } from './markdown-fit.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';
import { cap, codeSpan, escapeMarkdown, fencedBlock, shortCodeSpan } from './sanitize.js';
import { diffLines, itemDiff, newDiffBudget, sameLineNotes, withNoteLines } from './textdiff.js';
import { aroundChange, formatValue, onePath, reviewPlace, sameShownNote, targetUrl } from './value.js';

export interface PlanMarkdownOptions {
  kindOrder: KindTitle[];
  /** Exclusive upper bound on the output length; GitHub refuses comments over 65,536. */
  maxChars?: number;
  /** The limit a cut report names, when it was fitted to less room than that (fitPrinted). */
  limitSaid?: number;
  /** The `-C` the run was given, for the commands the comment names (adoptFilesCommand). */
  dir?: string;
  /** `-v`: archives show their fields too, as in the text plan. */
  verbose?: boolean;
}

/** Header values and the undeclared names listed are short in practice; a cap keeps the fixed part of the comment bounded (probe JI-1). */
const HEADER_VALUE_CHARS = 200;
/** When even the fixed part is too big, warnings are cut to this many, each this long. */
const FALLBACK_WARNINGS = 10;
const FALLBACK_WARNING_CHARS = 300;
/** A list entry longer than this has its names cut to FALLBACK_WARNING_CHARS once the comment must be cut. */
const LONG_HEAD_CHARS = 1000;

interface MdChange {
  head: string;
  /** The change, whose entry is made again with its names cut short when the comment is cut to size (probe SD-1). */
  change: Change;
  details: string[];
  /** What is listed first when a section is cut: 0 a delete (permanent), 1 an archive or a publish (the rest that cannot be undone), 2 the rest. */
  rank: number;
  /** Its details left out to fit the comment, its kind's others shown. */
  omitted?: boolean;
  /** Its details left out, with no line saying so: past the prefix of its kind whose details fit (the kind's summary counts it). */
  past?: boolean;
}

/** A change's details this big are left out on their own before any kind's are (a text of a megabyte). */
const HUGE_DETAILS = 2_000;
const OMITTED_LINE = '  - _details omitted to fit the comment_';

function detailSize(c: MdChange): number {
  return c.details.reduce((n, l) => n + l.length + 1, 0);
}

interface MdSection {
  title: string;
  changes: MdChange[];
  detailChars: number;
}

interface Layout {
  showDetails: boolean[];
  /** How many changes each section lists; `changes.length` when not cut. */
  shown: number[];
  warnings: string[];
  sections: boolean;
  truncated: boolean;
  /** The limit the note of a cut report names. */
  limitSaid: number;
  /** The `-C` the run was given (PlanMarkdownOptions). */
  dir: string | undefined;
}

/**
 * docket's own sentences: what it writes in backticks (`renamed_from: [Old]`) as code spans, the
 * rest escaped. User text in them is quoted ("Robert `Bobby` Jones", as quoteValue writes it): a
 * backtick inside quotes neither opens nor closes a code span, so it is shown, escaped, as typed.
 */
export function docketText(s: string): string {
  let out = '';
  let plain = '';
  // Escaped in runs; the spaces beside a code span stay (escaping trims a text's ends), none at the start.
  const flush = (): void => {
    out += plain.replace(/^( *)([^]*?)( *)$/, (_, lead: string, text: string, trail: string) => `${out === '' ? '' : lead}${text ? escapeMarkdown(text) : ''}${trail}`);
    plain = '';
  };
  for (let i = 0; i < s.length; ) {
    if (s[i] === '"') {
      const end = quotedEnd(s, i);
      plain += s.slice(i, end);
      i = end;
    } else if (s[i] === '`') {
      const end = codeEnd(s, i);
      if (end === undefined) {
        plain += s[i++];
        continue;
      }
      flush();
      out += codeSpan(s.slice(i + 1, end - 1));
      i = end;
    } else {
      plain += s[i++];
    }
  }
  flush();
  return out;
}

/** Past the quoted text that starts at `at` (a `\"` inside it does not end it); the text's end when unclosed. */
function quotedEnd(s: string, at: number): number {
  let i = at + 1;
  while (i < s.length && s[i] !== '"') i += s[i] === '\\' ? 2 : 1;
  return Math.min(i + 1, s.length);
}

/** Past the code span that starts at `at`, stepping over quoted text inside it; undefined when it does not close on its line. */
function codeEnd(s: string, at: number): number | undefined {
  let i = at + 1;
  while (i < s.length && s[i] !== '`' && s[i] !== '\n') i = s[i] === '"' ? quotedEnd(s, i) : i + 1;
  return s[i] === '`' && i > at + 1 ? i + 1 : undefined;
}

const mdFmt: Fmt = { name: codeSpan, text: docketText };

export function targetLine(plan: Plan): string {
  const t = plan.target;
  const code = (s: string): string => shortCodeSpan(s, HEADER_VALUE_CHARS);
  let line: string;
  if (t.emulator) line = '**Target:** ⚠️ **local emulator** (not the live services)';
  else {
    const parts: string[] = [];
    if (t.review) parts.push(`review ${code(targetUrl(t.review.url))}${reviewPlace(t.review, code)}`);
    if (t.agreements) parts.push(`agreements ${code(targetUrl(t.agreements.url))}${t.agreements.organization_id ? ` (organization ${code(t.agreements.organization_id)})` : ''}`);
    line = `**Target:** ${parts.length > 0 ? parts.join(' · ') : 'none'}`;
  }
  return plan.environment ? `${line} · **Environment:** ${code(plan.environment)}` : line;
}

/** A change's list entry; `capNames` shortens its names, for a comment cut to size. */
function changeHead(c: Change, capNames?: number): string {
  const from = renamedFrom(c);
  const name = (s: string): string => (capNames === undefined ? codeSpan(s) : shortCodeSpan(s, capNames));
  const what = from ? ` ${isolated(name(from.label))} → ${isolated(name(changeLabel(c)))}${renameNote(c)}` : isSingleton(c) ? '' : ` ${name(changeLabel(c))}${namesakeNote(c)}`;
  const lasting = c.action === 'delete' && c.irreversible && !c.policy ? ' (permanent)' : c.versions ? ` (${c.versions} versions)` : '';
  const source = c.source ? ` · ${codeSpan(`${c.source.file}:${c.source.line}`)}` : '';
  const label = directionLabel(c);
  const direction = label ? ` · _${label}_` : '';
  const held = c.policy ? ` · ${escapeMarkdown(heldLabel(c).replace(/`/g, ''))}` : '';
  return `- \`${SYMBOL[c.action]}\` **${c.action}** ${c.kind}${what}${lasting}${source}${direction}${held}`;
}

/** Field lines as a nested list; multi-line text as a diff block indented into its list item. */
function fieldLines(c: Change, field: FieldChange): string[] {
  const f = shownField(field);
  const side = fieldDirectionLabel(c, f);
  const name = `${codeSpan(f.field)}${side ? ` (${side})` : ''}`;
  const sides = fieldSides(c);
  if (f.summary) return [`  - ${name}:`, ...f.summary.map((l) => `    - ${codeSpan(l)}`)];
  if (isMultiline(f)) {
    const [before, after] = [sides === 'after' ? null : f.before, sides === 'before' ? null : f.after];
    const diff = diffLines(before, after);
    if (diff.length === 0) return [`  - ${name}:${sameShownNote(before, after) || ' (no visible difference)'}`];
    const block = fencedBlock(withNoteLines(diff, sameLineNotes(diff)).join('\n'), 'diff').split('\n').map((l) => `    ${l}`);
    return [`  - ${name}:`, ...block];
  }
  if (sides === 'after') return [`  - ${name}: ${codeSpan(formatValue(f.after))}`];
  if (sides === 'before') return [`  - ${name}: ${codeSpan(formatValue(f.before))}`];
  const items = itemDiff(f.before, f.after);
  if (items) return [`  - ${name}:`, ...fencedBlock(items.join('\n'), 'diff').split('\n').map((l) => `    ${l}`)];
  const around = aroundChange(f.before, f.after);
  if (around) return [`  - ${name}: ${isolated(codeSpan(around.before))} → ${isolated(codeSpan(around.after))}${around.note}${sameShownNote(f.before, f.after)}`];
  return [`  - ${name}: ${isolated(codeSpan(formatValue(f.before)))} → ${isolated(codeSpan(formatValue(f.after)))}${sameShownNote(f.before, f.after)}`];
}

/** The tier of a change a drift policy holds: listed last. */
const HELD_RANK = 3;

function buildSections(plan: Plan, kindOrder: KindTitle[], verbose: boolean): MdSection[] {
  // Live changes a policy holds are never applied: listed after every change that is, and no delete
  // of them counted as a permanent one (probe EF-2).
  const section = (title: string, list: Change[], held = false): MdSection => {
    const changes = list.map((c) => ({
      head: changeHead(c),
      change: c,
      details: [...(c.uploads ? [`  - uploads: ${codeSpan(onePath(c.uploads))}`] : []), ...visibleFields(c, verbose).flatMap((f) => fieldLines(c, f))],
      rank: held ? HELD_RANK : c.action === 'delete' ? 0 : c.action === 'archive' || c.irreversible ? 1 : 2,
    }));
    const detailChars = changes.reduce((n, c) => n + c.details.reduce((m, l) => m + l.length + 1, 0), 0);
    return { title, changes, detailChars };
  };
  const sections = groupByKind(plan.changes, kindOrder).map((g) => section(g.title, g.changes));
  if (plan.held?.length) sections.push(section('Live changes the drift policy leaves alone', plan.held, true));
  return sections;
}

function summaryTable(plan: Plan): string[] {
  if (plan.changes.length === 0) return [`**No changes.** ${noChangesSentence(plan)}`];
  const counts = countActions(plan.changes);
  const rows = ACTION_ORDER.filter((a) => counts[a] > 0).map((a) => `| \`${SYMBOL[a]}\` ${a} | ${counts[a]} |`);
  return ['| Action | Count |', '| --- | ---: |', ...rows];
}

function sectionLines(s: MdSection, showDetails: boolean, shown: number): string[] {
  const total = s.changes.length;
  const notes: string[] = [];
  const omitted = s.changes.reduce((n, c) => n + (c.omitted || c.past ? 1 : 0), 0);
  if (!showDetails && s.detailChars > 0) notes.push('details omitted');
  else if (omitted > 0) notes.push(`details of ${thousands(omitted)} omitted`);
  if (shown < total) notes.push(`${thousands(shown)} listed`);
  const count = `${thousands(total)} ${total === 1 ? 'change' : 'changes'}`;
  const summary = escapeMarkdown(`${s.title} (${[count, ...notes].join(', ')})`, 'html');
  const lines = [`<details><summary>${summary}</summary>`, ''];
  // Line by line, not push(...): a spread of a hundred thousand lines overflows the call stack.
  for (const c of s.changes.slice(0, shown)) {
    lines.push(c.head);
    if (showDetails && c.past) continue;
    if (showDetails && c.omitted) lines.push(OMITTED_LINE);
    else if (showDetails) for (const line of c.details) lines.push(line);
  }
  if (shown < total) {
    // Deletes too many to list are counted apart, not mixed into a count of updates (probe GM).
    let deletes = 0;
    for (let i = shown; i < total; i++) if (s.changes[i]!.rank === 0) deletes++;
    lines.push(`- _… and ${thousands(total - shown)} more not listed${deletes > 0 ? `, ${thousands(deletes)} of them permanent deletes` : ''}_`);
  }
  lines.push('', '</details>', '');
  return lines;
}

function render(plan: Plan, sections: MdSection[], layout: Layout): string {
  const lines = ['### docket plan', '', targetLine(plan), '', ...summaryTable(plan), ''];
  if (layout.warnings.length > 0) {
    lines.push('> [!WARNING]');
    // One by one, not push(...): a spread of a hundred thousand lines overflows the call stack.
    for (const w of layout.warnings) lines.push(`> - ${w}`);
    lines.push('');
  }
  if (layout.sections) {
    sections.forEach((s, i) => {
      for (const line of sectionLines(s, layout.showDetails[i] ?? true, layout.shown[i] ?? 0)) lines.push(line);
    });
  }
  const undeclared = undeclaredSentence(plan, false, layout.dir);
  if (undeclared) {
    // A backtick in the folder's name would end the command's code span inside it: then all as typed (second read SR97-4).
    lines.push(layout.dir?.includes('`') ? escapeMarkdown(undeclared) : docketText(undeclared));
    // Named as in the text plan: a file deleted without prune is otherwise a comment of "No changes.".
    for (const u of undeclaredNamed(plan, false)) lines.push(`- ${plural(u.count, u.kind)}: ${u.names.map((n) => shortCodeSpan(n, HEADER_VALUE_CHARS)).join(', ')}${u.more > 0 ? ` and ${u.more} more` : ''} (${docketText(u.reason)})`);
    lines.push('');
  }
  const unknown = unknownNote(plan);
  if (unknown) lines.push(escapeMarkdown(unknown), '');
  if (layout.truncated) {
    lines.push(
      `_Output truncated to stay under the ${thousands(layout.limitSaid)}-character comment limit; run \`docket plan\` locally or use \`-o json\` for the full plan._`,
      '',
    );
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

export function renderPlanMarkdown(plan: Plan, opts: PlanMarkdownOptions): string {
  const maxChars = opts.maxChars ?? MARKDOWN_MAX_CHARS;
  newDiffBudget();
  const sections = buildSections(plan, opts.kindOrder, opts.verbose === true);
  const layout: Layout = {
    showDetails: sections.map(() => true),
    shown: sections.map((s) => s.changes.length),
    warnings: warningSentences(plan, mdFmt),
    sections: true,
    truncated: false,
    limitSaid: opts.limitSaid ?? maxChars,
    dir: opts.dir,
  };
  const full = render(plan, sections, layout);
  if (full.length < maxChars) return full;
  layout.truncated = true;
  // Warnings that would take more than half the comment leave too little room for the changes.
  const warningChars = layout.warnings.reduce((n, w) => n + w.length + 5, 0);
  if (warningChars <= maxChars / 2 || plan.changes.length === 0) {
    const cut = cutToFit(plan, sections, layout, maxChars);
    if (cut) return cut;
  }

  // 3. The warnings would leave little room for the changes (hundreds of look-alike renames): as
  // many as fit in half the comment, each shortened, and a count of the rest; then the changes as above.
  const short = warningSentences(plan, {
    // Secrets hidden before the cut, which could leave a URL's password without its `@` (probe EF-1).
    name: (s) => shortCodeSpan(s, FALLBACK_WARNING_CHARS),
    text: (s) => docketText(cap(lineWithoutSecrets(s), FALLBACK_WARNING_CHARS)),
  });
  layout.warnings = warningsWithin(short, Math.floor(maxChars / 2));
  layout.showDetails = sections.map(() => true);
  layout.shown = sections.map((s) => s.changes.length);
  const fewer = cutToFit(plan, sections, layout, maxChars);
  if (fewer) return fewer;

  // 4. The fixed part alone is too big: keep the table and a few warnings.
  layout.sections = false;
  layout.warnings = warningsWithin(short.slice(0, FALLBACK_WARNINGS), maxChars, short.length - FALLBACK_WARNINGS);
  const fallback = render(plan, sections, layout);
  if (fallback.length < maxChars) return fallback;
  layout.warnings = [];
  return render(plan, sections, layout);
}

/** The first warnings that fit in `budget` characters, and a line counting the ones left out. */
function warningsWithin(warnings: readonly string[], budget: number, alsoLeftOut = 0): string[] {
  const kept = warnings.slice(0, countWithin(warnings, budget, 5));
  const left = warnings.length - kept.length + Math.max(0, alsoLeftOut);
  if (left > 0) kept.push(`_… and ${thousands(left)} more ${left === 1 ? 'warning' : 'warnings'} not listed_`);
  return kept;
}

/** Steps 1 and 2 of cutting the comment to size; undefined when even the fixed part is too big. */
function cutToFit(plan: Plan, sections: MdSection[], layout: Layout, maxChars: number): string | undefined {
  const fits = (): string | undefined => {
    const out = render(plan, sections, layout);
    return out.length < maxChars ? out : undefined;
  };
  const whole = render(plan, sections, layout);
  if (whole.length < maxChars) return whole;
  // A name of tens of thousands of characters is cut before anything else goes, as a listed entry's
  // is: three such names took the details of every change with them (probe CE-3).
  let cut = false;
  for (const s of sections) {
    for (const c of s.changes) {
      if (c.head.length <= LONG_HEAD_CHARS) continue;
      c.head = changeHead(c.change, FALLBACK_WARNING_CHARS);
      cut = true;
    }
  }
  const shorter = cut ? render(plan, sections, layout) : whole;
  if (shorter.length < maxChars) return shorter;

  // 1. Field details go first: a huge change's on its own, biggest first, so that one megabyte of
  // text does not take every other change's with it (probe MC-1); then whole kinds, biggest first.
  let over = shorter.length - maxChars + 1;
  const huge = sections.flatMap((s) => s.changes.filter((c) => detailSize(c) > HUGE_DETAILS)).sort((a, b) => detailSize(b) - detailSize(a));
  for (const c of huge) {
    c.omitted = true;
    over -= detailSize(c) - OMITTED_LINE.length - 1;
    // Checked once the estimate says it fits: a kind's summary grows by its note, which it leaves out (second read SR76-3).
    if (over <= 0) {
      const out = fits();
      if (out) return out;
    }
  }
  // Kinds by the details they still show: one whose huge change is left out is not first for that (second read SR76-2).
  const shownDetails = (s: MdSection | undefined): number => (s ? s.changes.reduce((n, c) => n + (c.omitted ? OMITTED_LINE.length + 1 : detailSize(c)), 0) : 0);
  const bySize = sections.map((_, i) => i).sort((a, b) => shownDetails(sections[b]) - shownDetails(sections[a]));
  for (const i of bySize) {
    if ((sections[i]?.detailChars ?? 0) === 0) continue;
    layout.showDetails[i] = false;
    const out = fits();
    if (out) return withDetailsThatFit(i, out);
  }

  /**
   * The kind whose details were left out last, given back the details of as many of its first
   * changes as the room left holds: one kind of 300 rule edits showed none where twenty fit (probe RG-2).
   */
  function withDetailsThatFit(i: number, out: string): string {
    const s = sections[i]!;
    // Less the summary's longer note (`details of 1,234 omitted`).
    let room = maxChars - 1 - out.length - 40;
    let kept = 0;
    for (const c of s.changes) {
      const cost = c.omitted ? OMITTED_LINE.length + 1 : detailSize(c);
      if (cost > room) break;
      room -= cost;
      kept++;
    }
    if (kept === 0) return out;
    for (const c of s.changes.slice(kept)) c.past = true;
    layout.showDetails[i] = true;
    const more = fits();
    if (more) return more;
    for (const c of s.changes) delete c.past;
    layout.showDetails[i] = false;
    return out;
  }

  // 2. List entries: a prefix of each kind, its removals first (a permanent delete above all, probe
  // GL). Taken round-robin across kinds, the permanent deletes of every kind before anything else
  // of any kind, then archives, then the rest: no delete is left to a count while another kind's
  // update is listed (probe OV-1).
  for (const s of sections) s.changes = s.changes.map((c, i) => ({ c, i })).sort((a, b) => a.c.rank - b.c.rank || a.i - b.i).map(({ c }) => c);
  layout.shown = sections.map(() => 0);
  const base = render(plan, sections, layout);
  if (base.length >= maxChars) return undefined;
  let budget = maxChars - 1 - base.length;
  const open = new Set(sections.keys());
  // Once an entry of a tier is left out, nothing of a later tier is listed, however short (second read SR81-1).
  let leftOut = false;
  for (const tier of [0, 1, 2, HELD_RANK]) {
    if (leftOut) break;
    const inTier = new Set(open);
    while (inTier.size > 0) {
      for (const i of [...inTier]) {
        const n = layout.shown[i] ?? 0;
        const next = sections[i]?.changes[n];
        if (!next || next.rank > tier) {
          inTier.delete(i);
          if (!next) open.delete(i);
          continue;
        }
        const cost = next.head.length + 1;
        if (cost > budget) {
          // A prefix: once one does not fit, nothing after it in the kind is listed.
          inTier.delete(i);
          open.delete(i);
          leftOut = true;
          continue;
        }
        budget -= cost;
        layout.shown[i] = n + 1;
      }
    }
  }
  // The estimate is an upper bound; this only guards against a miscount.
  for (;;) {
    const out = fits();
    if (out) return out;
    const last = layout.shown.findLastIndex((n) => n > 0);
    if (last < 0) return undefined;
    layout.shown[last] = (layout.shown[last] ?? 1) - 1;
  }
}
