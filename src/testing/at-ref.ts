/**
 * `docket test --compare-to`: the playbook a test's subject was at the ref. A playbook or rule
 * renamed since (`renamed_from`) is the same one: the ref's playbook is found under its former
 * name and reviewed as it was (a rule's name is part of what the reviewer reads), and what the
 * review says of a renamed rule is then read under its name of today, so each case compares the
 * rule before and after instead of saying it was not there.
 */
import { normName } from '../engine/normalize.js';
import type { PlaybookSubject } from '../kinds/support/test-subjects.js';
import type { ReviewFacts } from './types.js';

export interface PlaybookAtRef {
  /** The playbook as the ref declares it. */
  subject: PlaybookSubject;
  /** Today's name of each of its rules renamed since, by its name at the ref. */
  renamed: ReadonlyMap<string, string>;
}

export function playbookAtRef(name: string, declared: PlaybookSubject | undefined, then: ReadonlyMap<string, PlaybookSubject>): PlaybookAtRef | undefined {
  // A former name first: with two playbooks that swapped names, the ref's one of this name is the other.
  const found = declared?.formerNames?.map((former) => then.get(normName(former))).find((p) => p !== undefined) ?? then.get(name);
  if (!found) return undefined;
  const renamed = new Map<string, string>();
  if (!declared) return { subject: found, renamed };
  // Today's name of each former name (the first rule to claim it).
  const claims = new Map<string, string>();
  for (const rule of declared.rules) {
    for (const former of rule.formerNames ?? []) if (normName(former) !== normName(rule.name) && !claims.has(normName(former))) claims.set(normName(former), rule.name);
  }
  // A rename onto a name the ref's playbook had is one only when that rule was renamed away too (a
  // chain: `Hiring` from `Non-solicitation` while `Non-solicitation` from `Governing law`); else
  // the rule of that name is the same one, and the former name's rule was removed.
  const named = new Set(found.rules.map((r) => normName(r.name)));
  for (const rule of found.rules) {
    const now = claims.get(normName(rule.name));
    if (now !== undefined && (!named.has(normName(now)) || claims.has(normName(now)))) renamed.set(rule.name, now);
  }
  return { subject: found, renamed };
}

/** A review of the ref's playbook, its rules named as today. */
export function factsNamedToday(facts: ReviewFacts, renamed: ReadonlyMap<string, string>): ReviewFacts {
  if (renamed.size === 0) return facts;
  const today = (rule: string | null): string | null => (rule === null ? null : (renamed.get(rule) ?? rule));
  return {
    ...facts,
    redlines: facts.redlines.map((r) => (r.rule === null ? r : { ...r, rule: today(r.rule), topic: today(r.rule)! })),
    flags: facts.flags.map((f) => ({ ...f, rule: today(f.rule) })),
  };
}
