/** How expectations and findings are written in reports: short, and the same everywhere. */
import type { Count, OutcomeSet, TextMatch } from './types.js';

export function countLabel(c: Count): string {
  if (c.min !== undefined && c.min === c.max) return `= ${c.min}`;
  if (c.min !== undefined && c.max !== undefined) return `${c.min}..${c.max}`;
  if (c.max !== undefined) return `≤ ${c.max}`;
  return `≥ ${c.min ?? 0}`;
}

export function outcomesLabel(set: OutcomeSet): string {
  return 'in' in set ? (set.in.length === 1 ? `is ${set.in[0]}` : `in {${set.in.join(', ')}}`) : `not in {${set.not_in.join(', ')}}`;
}

export function textLabel(t: TextMatch): string {
  if ('equals' in t) return `= ${JSON.stringify(t.equals)}`;
  if ('contains' in t) return `contains ${JSON.stringify(t.contains)}`;
  return `~ /${t.matches}/${t.flags}`;
}

/** A text found, shortened for a report line. */
export function quoteFound(text: string | null, max = 80): string {
  if (text === null) return 'none';
  const one = text.replace(/\s+/g, ' ').trim();
  return JSON.stringify(one.length > max ? `${one.slice(0, max - 1)}…` : one);
}
