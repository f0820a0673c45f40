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
  /** Its `id:`: `--live` tests the live playbook of that id, as the plan matches it. */
  pinId?: string;
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
  for (const d of desired) if (d.kind === playbookKind.name) out.set(d.key, { name: d.name, source: d.source, rules: [], ...(d.renamedFrom.length > 0 ? { formerNames: d.renamedFrom } : {}), ...(d.pinId ? { pinId: d.pinId } : {}) });
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

/** Which live playbook `--live` tests: the one read before (its id), or the files' (by `id:`, else by name, then the names it is `renamed_from`). */
export type WantedPlaybook = { id: string } | { name: string; pinId?: string; formerNames?: readonly string[] };

/** The live playbook `--live` reviews against. */
export interface LivePlaybook {
  id: string;
  /** Its rules (ids included). */
  subject: PlaybookSubject;
  /** Whom each rule escalates to (`rule name → reviewer id`, sorted; none for a rule without one), which a scratch copy leaves out, and which the reviews' commentary may name. */
  reviewers: string[];
  /** The latest `updated_at` of it and its rules, where the service gives them: an edit put back since still moves it. */
  edited?: string;
}

/**
 * The live playbook a `--live` run reviews against, as the plan matches it (probe UD-2): undefined
 * when none is live; why not, when two live playbooks have the name and no `id:` says which.
 */
export async function livePlaybookSubject(services: Services, wanted: WantedPlaybook): Promise<LivePlaybook | string | undefined> {
  const api = services.review();
  const listed = await api.listPlaybooks();
  const named = (name: string) => listed.filter((p) => normName(p.attributes.name) === normName(name));
  let playbook: (typeof listed)[number] | undefined;
  if ('id' in wanted) playbook = listed.find((p) => p.id === wanted.id);
  else if (wanted.pinId) playbook = listed.find((p) => p.id.toLowerCase() === wanted.pinId!.toLowerCase());
  else {
    for (const name of [wanted.name, ...(wanted.formerNames ?? [])]) {
      const found = named(name);
      if (found.length > 1) return `${found.length} live playbooks are named ${quoteValue(name)}: docket cannot tell which one --live tests, as the plan cannot (ambiguous-match); give the playbook's document the \`id:\` of the one meant`;
      if ((playbook = found[0])) break;
    }
  }
  if (!playbook) return undefined;
  const rules = await api.listRules(playbook.id);
  try {
    const stamps = [playbook.attributes.updated_at, ...rules.map((r) => r.attributes.updated_at)].filter((s): s is string => typeof s === 'string');
    return {
      id: playbook.id,
      subject: {
        name: normName(playbook.attributes.name),
        rules: rules.map((r) => ({ id: r.id, name: normName(r.attributes.name), ...reviewedPart(liveRuleTexts(r.attributes)) })),
      },
      reviewers: rules.flatMap((r) => (typeof r.attributes.reviewer_id === 'string' && r.attributes.reviewer_id !== '' ? [`${normName(r.attributes.name)} → ${r.attributes.reviewer_id}`] : [])).sort(),
      ...(stamps.length > 0 ? { edited: stamps.sort().at(-1)! } : {}),
    };
  } catch (error) {
    throw unreadableValue(`the rules of playbook ${quoteValue(playbook.attributes.name)}`, 'review service', error);
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
