/**
 * `docket test --compare-to`: the playbook a test's subject was at the ref. A playbook or rule
 * renamed since (`renamed_from`) is the same one: found under its former name, its rules named as
 * now, so each case compares the rule before and after instead of saying it was not there.
 */
import { normName } from '../engine/normalize.js';
import type { PlaybookSubject, SubjectRule } from '../kinds/support/test-subjects.js';

export function playbookAtRef(name: string, declared: PlaybookSubject | undefined, then: ReadonlyMap<string, PlaybookSubject>): PlaybookSubject | undefined {
  const found = then.get(name) ?? declared?.formerNames?.map((former) => then.get(normName(former))).find((p) => p !== undefined);
  if (!found || !declared) return found;
  const named = new Set(found.rules.map((r) => normName(r.name)));
  const now = (rule: SubjectRule): string | undefined =>
    // Not onto a name the playbook had at the ref as well: that rule is the one of that name.
    declared.rules.find((r) => !named.has(normName(r.name)) && r.formerNames?.some((former) => normName(former) === normName(rule.name)))?.name;
  return { ...found, rules: found.rules.map((rule) => ({ ...rule, name: now(rule) ?? rule.name })) };
}
