/**
 * Keeps a markdown report (drift's issue body, pull's pull-request body) under the size GitHub
 * accepts in one body (65,536 characters): its lists are cut, each with a line saying how many
 * items it left out, and a note says the report was cut. Pure.
 */

import { defuseWorkflowCommands } from './sanitize.js';

/** The limit every markdown report keeps to (`plan`, `drift`, `pull`). */
export const MARKDOWN_MAX_CHARS = 60_000;

/**
 * A report kept under `maxChars` as it is printed: every `##[` becomes `# #[` on its way out
 * (workflow commands defused), one character more for each, so a report of such names rendered
 * to the limit went past GitHub's (probe JY-1). Rendered again with less room until it fits.
 */
export function fitPrinted(render: (maxChars: number) => string, maxChars = MARKDOWN_MAX_CHARS): string {
  let room = maxChars;
  let out = render(room);
  for (let tries = 0; tries < 4; tries++) {
    const over = defuseWorkflowCommands(out).length - maxChars;
    if (over < 0) return out;
    room = Math.max(1_000, room - over - 100);
    out = render(room);
  }
  return out;
}

/** Characters the lists of one rendering may still use; `cut` once one of them was shortened. */
export interface ListBudget {
  left: number;
  cut: boolean;
}

/** How many of `items`, from the first, fit in `budget` characters, each costing its length and `overhead`. */
export function countWithin(items: readonly string[], budget: number, overhead: number): number {
  let used = 0;
  let n = 0;
  for (const item of items) {
    if (used + item.length + overhead > budget) break;
    used += item.length + overhead;
    n++;
  }
  return n;
}

export function thousands(n: number): string {
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * The room each of a report's lists gets of `left`: a list that needs less than an equal share
 * gets all it needs, and what it leaves is shared by the longer ones. A long first section
 * (changed live) must not leave a later one (removed live) with no entry at all, nor a short one
 * leave room unused while a long one is cut (probe LM-1).
 */
export function listShares(left: number, lists: readonly (readonly string[])[]): number[] {
  if (left === Infinity) return lists.map(() => Infinity);
  const needs = lists.map((items) => items.reduce((n, item) => n + item.length + 1, 0));
  const shares = needs.map(() => 0);
  let room = left;
  let open = lists.length;
  for (const i of needs.map((_, at) => at).sort((a, b) => needs[a]! - needs[b]!)) {
    const share = Math.min(needs[i]!, room / open);
    shares[i] = share;
    room -= share;
    open--;
  }
  return shares;
}

/**
 * Pushes as many of `items` as `share` of the budget holds (listShares), then one line saying how
 * many were left out, and what `moreSaid` says of those from the first left out.
 */
export function pushWithin(lines: string[], items: readonly string[], budget: ListBudget, share = budget.left, moreSaid?: (firstLeftOut: number) => string): void {
  let spent = 0;
  let shown = 0;
  for (const item of items) {
    if (spent + item.length + 1 > share) break;
    spent += item.length + 1;
    lines.push(item);
    shown++;
  }
  budget.left -= spent;
  if (shown < items.length) {
    budget.cut = true;
    lines.push(`- _… and ${thousands(items.length - shown)} more not listed_${moreSaid?.(shown) ?? ''}`);
  }
}

/** `items` joined with commas, as many as the budget holds, then how many were left out. */
export function joinWithin(items: readonly string[], budget: ListBudget): string {
  const shown: string[] = [];
  for (const item of items) {
    if (item.length + 2 > budget.left) break;
    budget.left -= item.length + 2;
    shown.push(item);
  }
  if (shown.length === items.length) return shown.join(', ');
  budget.cut = true;
  return [...shown, `… and ${thousands(items.length - shown.length)} more`].join(', ');
}

/** The note a cut report ends with. */
export function cutNote(maxChars: number): string {
  return `_Output truncated to stay under ${thousands(maxChars)} characters; use \`-o json\` or text output for the full report._`;
}

/**
 * `build` renders the report with its lists within a budget. The whole report when it fits;
 * else the fixed part (rendered with no list items) and as many items as the rest holds.
 */
export function fitMarkdown(build: (budget: ListBudget) => string, maxChars = MARKDOWN_MAX_CHARS): string {
  const full = build({ left: Infinity, cut: false });
  if (full.length < maxChars) return full;
  const fixed = build({ left: 0, cut: false }).length;
  return build({ left: Math.max(0, maxChars - fixed - 1), cut: false });
}
