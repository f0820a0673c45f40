/**
 * The effective playbook digest: what a review of a contract depends on, so that an unchanged
 * playbook needs no new review. It covers each rule's name, description, actions, questions and
 * generate_summary (what the reviewer reads), not `internal_notes` (seed 000: they do not affect how
 * the service applies the rule) nor `reviewer` (whom it escalates to), nor the order of rules.
 */
import { canonicalJson, sha256 } from '../engine/canonical.js';
import type { SubjectRule } from '../kinds/support/test-subjects.js';

export function playbookDigest(rules: readonly SubjectRule[]): string {
  const shape = rules
    .map((r) => ({ name: r.name, description: r.description, actions: r.actions, questions: r.questions, generate_summary: r.generate_summary }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return sha256(canonicalJson(shape));
}
