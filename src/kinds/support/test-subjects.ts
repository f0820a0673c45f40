/**
 * What `docket test` needs to know about the kinds it tests, kept with the kinds: the playbooks and
 * templates a configuration declares, the rules a scratch playbook is made of, and where the live
 * ones are. src/testing/ asks these questions and never names a kind itself.
 */
import type { SourcePos } from '../../diagnostics.js';
import { quoteValue } from '../../config/quote.js';
import { unreadableValue } from '../../engine/live.js';
import { normName } from '../../engine/normalize.js';
import type { DesiredResource, KindName } from '../../engine/types.js';
import type { TestKind } from '../../testing/names.js';
import type { Services } from '../kind.js';
import { customTemplateKind } from '../custom-template.js';
import { playbookKind } from '../playbook.js';
import { liveRuleTexts, noteSummaryOnlyRefusal, reviewedPart, ruleKind, unkeptFields } from '../rule.js';
import { templateKind } from '../template.js';
import { definitionFieldKeys } from './definition-model.js';

/** A rule as a review uses it: what the reviewer reads. `id` is known once it exists live. */
export interface SubjectRule {
  id?: string;
  name: string;
  description: string | null;
  actions: string | null;
  questions: string | null;
  generate_summary: boolean;
  /** Its `renamed_from`: `docket test --compare-to` finds it at an older ref under one of them. */
  formerNames?: readonly string[];
}

/** The declared object renamed from a subject's name, and its kind. */
export interface RenamedAway {
  kind: KindName;
  name: string;
}

export interface PlaybookSubject {
  name: string;
  source?: SourcePos;
  rules: SubjectRule[];
  /** Another declared playbook is `renamed_from` this name: a test naming it may mean that one. */
  renamedAwayTo?: RenamedAway;
  /** Its `renamed_from`. */
  formerNames?: readonly string[];
}

export interface TemplateSubject {
  name: string;
  /** A custom template (values go in `custom_field_values`) or a standard one. */
  custom: boolean;
  source: SourcePos;
  /** The `--target` of plan that names it (`custom-template/NAME`). */
  target: string;
  /** Its declared resource's kind and key, to find it among the desired resources. */
  ref: { kind: KindName; key: string };
  /** Another declared template is `renamed_from` this name: a test naming it may mean that one. */
  renamedAwayTo?: RenamedAway;
  /** Its `renamed_from`. */
  formerNames?: readonly string[];
  /** The template of the other kind declared under the same name: a test naming it cannot say which it means. */
  sameName?: TemplateSubject;
  /** A custom template's field keys, as its definition gives them all (definitionFieldKeys). */
  fieldKeys?: readonly string[];
}

/** The playbooks the configuration declares, with their rules, by name. */
export function declaredPlaybooks(desired: readonly DesiredResource[]): Map<string, PlaybookSubject> {
  const out = new Map<string, PlaybookSubject>();
  for (const d of desired) if (d.kind === playbookKind.name) out.set(d.key, { name: d.name, source: d.source, rules: [], ...(d.renamedFrom.length > 0 ? { formerNames: d.renamedFrom } : {}) });
  for (const d of desired) {
    if (d.kind !== ruleKind.name || !d.parent) continue;
    out.get(d.parent.key)?.rules.push({ name: d.name, ...reviewedPart(d.fields), ...(d.renamedFrom.length > 0 ? { formerNames: d.renamedFrom } : {}) });
  }
  markRenamedAway(out, desired, playbookKind.name, () => true);
  return out;
}

/** Marks each subject of `kind` whose name another declared one of that kind was renamed from. */
function markRenamedAway<S extends { renamedAwayTo?: RenamedAway }>(subjects: Map<string, S>, desired: readonly DesiredResource[], kind: KindName, ofKind: (subject: S) => boolean): void {
  for (const d of desired) {
    if (d.kind !== kind) continue;
    for (const former of d.renamedFrom) {
      const taken = subjects.get(normName(former));
      if (taken && ofKind(taken) && normName(former) !== d.key) taken.renamedAwayTo = { kind: d.kind, name: d.name };
    }
  }
}

/** The templates (custom and standard) the configuration declares, by name. */
export function declaredTemplates(desired: readonly DesiredResource[]): Map<string, TemplateSubject> {
  const out = new Map<string, TemplateSubject>();
  for (const d of desired) {
    if (d.kind !== customTemplateKind.name && d.kind !== templateKind.name) continue;
    const fieldKeys = d.kind === customTemplateKind.name ? definitionFieldKeys(d.fields.definition) : undefined;
    const subject: TemplateSubject = { name: d.name, custom: d.kind === customTemplateKind.name, source: d.source, target: `${d.kind}/${d.name}`, ref: { kind: d.kind, key: d.key }, ...(d.renamedFrom.length > 0 ? { formerNames: d.renamedFrom } : {}), ...(fieldKeys ? { fieldKeys } : {}) };
    // A custom template and a standard one may share a name: the first is kept, knowing of the other (probe LR-2).
    const first = out.get(d.key);
    if (first && first.custom !== subject.custom) first.sameName = subject;
    else out.set(d.key, subject);
  }
  // `renamed_from` names a former name of the same kind: a custom template's, or a standard template's.
  markRenamedAway(out, desired, customTemplateKind.name, (t) => t.custom);
  markRenamedAway(out, desired, templateKind.name, (t) => !t.custom);
  return out;
}

/**
 * Which names of test documents follow a rename of an object of this kind (`docket pull`): the
 * subject of one kind of test, or (a rule) a part of its playbook's tests.
 */
export function testNamesOf(kind: KindName): { test: TestKind; part: boolean } | undefined {
  if (kind === playbookKind.name) return { test: 'PlaybookTest', part: false };
  if (kind === customTemplateKind.name || kind === templateKind.name) return { test: 'TemplateTest', part: false };
  if (kind === ruleKind.name) return { test: 'PlaybookTest', part: true };
  return undefined;
}

/** `--target` kinds that select tests: a playbook's tests, a template's. */
export const TEST_TARGET_KINDS: readonly string[] = [playbookKind.name, customTemplateKind.name, templateKind.name];

/** The fields of a rule create (seed 000) for a scratch playbook: what the reviewer reads, no reviewer and no notes. */
export function scratchRuleBody(rule: SubjectRule): Record<string, unknown> {
  const body: Record<string, unknown> = { name: rule.name, generate_summary: rule.generate_summary };
  for (const field of ['description', 'actions', 'questions'] as const) if (rule[field] !== null) body[field] = rule[field];
  return body;
}

/** A scratch rule's create the service refused, said as apply says it of the same rule (probe JB-4). */
export function scratchRuleRefused(err: unknown, rule: SubjectRule): void {
  noteSummaryOnlyRefusal(err, scratchRuleBody(rule));
}

/**
 * What the service's answer to a scratch rule's create holds otherwise than sent (a service that
 * drops what it does not document), as a note: the reviews then test the playbook without it.
 */
export function unkeptInScratch(rule: SubjectRule, answer: Record<string, unknown>): string | undefined {
  const lost = unkeptFields(scratchRuleBody(rule), answer);
  if (lost.length === 0) return undefined;
  const fields = lost.map((l) => `\`${l.field}\` (it holds ${l.quoted})`);
  return `the service did not keep ${fields.join(', ')} of rule ${quoteValue(rule.name)} as the files give it: the reviews test the playbook as the service holds it`;
}

/**
 * The live playbook of that name (undefined when none), as `--live` reviews against it: its rules
 * (ids included), and whom each escalates to (`rule name → reviewer id`, sorted; none for a rule
 * without one), which a scratch copy leaves out, and which the reviews' commentary may name.
 */
export async function livePlaybookSubject(services: Services, name: string): Promise<{ id: string; subject: PlaybookSubject; reviewers: string[] } | undefined> {
  const api = services.review();
  const playbook = (await api.listPlaybooks()).find((p) => normName(p.attributes.name) === normName(name));
  if (!playbook) return undefined;
  const rules = await api.listRules(playbook.id);
  try {
    return {
      id: playbook.id,
      subject: {
        name: normName(playbook.attributes.name),
        rules: rules.map((r) => ({ id: r.id, name: normName(r.attributes.name), ...reviewedPart(liveRuleTexts(r.attributes)) })),
      },
      reviewers: rules.flatMap((r) => (typeof r.attributes.reviewer_id === 'string' && r.attributes.reviewer_id !== '' ? [`${normName(r.attributes.name)} → ${r.attributes.reviewer_id}`] : [])).sort(),
    };
  } catch (error) {
    throw unreadableValue(`the rules of playbook ${quoteValue(name)}`, 'review service', error);
  }
}

/**
 * The live id of a template by name (custom templates and standard templates are listed apart), or
 * by a name its `renamed_from` gives, as the plan matches it while the rename is not applied (probe GJ-4).
 */
export async function liveTemplateId(services: Services, subject: TemplateSubject): Promise<string | undefined> {
  const api = services.agreements();
  const list = subject.custom ? await api.listCustomTemplates() : await api.listTemplates();
  for (const name of [subject.name, ...(subject.formerNames ?? [])]) {
    const found = list.find((t) => normName(t.attributes.name) === normName(name));
    if (found) return found.id;
  }
  return undefined;
}
