/**
 * `docket test --compare-to`: the playbook a test's subject was at the ref. A playbook or rule
 * renamed since (`renamed_from`) is the same one: found under its former name, its rules named as
 * now, so each case compares the rule before and after instead of saying it was not there.
 */
import { normName } from '../engine/normalize.js';
import type { PlaybookSubject } from '../kinds/support/test-subjects.js';

export function playbookAtRef(name: string, declared: PlaybookSubject | undefined, then: ReadonlyMap<string, PlaybookSubject>): PlaybookSubject | undefined {
  // A former name first: with two playbooks that swapped names, the ref's one of this name is the other.
  const found = declared?.formerNames?.map((former) => then.get(normName(former))).find((p) => p !== undefined) ?? then.get(name);
  if (!found || !declared) return found;
  const named = new Set(found.rules.map((r) => normName(r.name)));
  // Today's name of each former name, for rules not onto a name the playbook had at the ref as well.
  const today = new Map<string, string>();
  for (const rule of declared.rules) {
    if (named.has(normName(rule.name))) continue;
    for (const former of rule.formerNames ?? []) if (!today.has(normName(former))) today.set(normName(former), rule.name);
  }
  return { ...found, rules: found.rules.map((rule) => ({ ...rule, name: today.get(normName(rule.name)) ?? rule.name })) };
}
