/**
 * playbooks/<slug>.yaml: one Playbook per live playbook with every rule, in the order the service
 * returns them. Playbooks are owned: the file must say exactly what the service holds, so fields
 * are written the way the kind reads them back (no null text, `generate_summary` only when false,
 * `reviewer` only when set).
 */
import { assignSlugs, duplicateNames, LAYOUT } from './layout.js';
import { emptyPart, type ExportPart, type SchemaPaths } from './types.js';
import { blockText, resourceFile } from './yaml.js';

export interface RuleData {
  name: string;
  description: string | null;
  actions: string | null;
  questions: string | null;
  generate_summary: boolean;
  /** E-mail of the rule's reviewer; null: the organization default. */
  reviewer: string | null;
  internal_notes: string | null;
}

export interface PlaybookData {
  id: string;
  name: string;
  description: string | null;
  rules: RuleData[];
}

/** Rule keys in the order DESIGN.md shows them. */
export function ruleDocument(rule: RuleData): Record<string, unknown> {
  const out: Record<string, unknown> = { name: rule.name };
  const text = (key: 'description' | 'actions' | 'questions' | 'internal_notes'): void => {
    const v = rule[key];
    if (v !== null && v !== '') out[key] = blockText(v);
  };
  text('description');
  text('actions');
  text('questions');
  if (rule.generate_summary === false) out.generate_summary = false;
  if (rule.reviewer) out.reviewer = rule.reviewer;
  text('internal_notes');
  return out;
}

export function playbookDocument(playbook: PlaybookData): Record<string, unknown> {
  const doc: Record<string, unknown> = { kind: 'Playbook', name: playbook.name };
  if (playbook.description !== null && playbook.description !== '') doc.description = blockText(playbook.description);
  doc.rules = playbook.rules.map(ruleDocument);
  return doc;
}

export function exportPlaybooks(playbooks: readonly PlaybookData[], paths: SchemaPaths): ExportPart {
  const part = emptyPart('playbook');
  for (const dup of duplicateNames(playbooks.map((p) => p.name))) {
    part.notes.push(`several playbooks are named "${dup}": docket identifies playbooks by name, so plan will refuse them until all but one are renamed`);
  }
  for (const p of playbooks) {
    for (const dup of duplicateNames(p.rules.map((r) => r.name))) {
      part.notes.push(`playbook "${p.name}" has several rules named "${dup}": docket identifies rules by name, so plan will refuse the file until all but one are renamed`);
    }
  }
  for (const { item, slug } of assignSlugs(playbooks, (p) => p.name, (p) => p.id)) {
    part.files.push(resourceFile(`${LAYOUT.playbooks}/${slug}.yaml`, 'playbook.schema.json', [playbookDocument(item)], paths));
  }
  part.count = playbooks.length;
  part.rules = playbooks.reduce((n, p) => n + p.rules.length, 0);
  return part;
}
