/**
 * Rule: declared inside a Playbook document (its `rules:` list), identified as `playbook name /
 * rule name`, matched inside its matched playbook. Seed 000's create rules are checked offline here.
 */
import { suggest } from '../config/suggest.js';
import type { DesiredResource, Ref } from '../engine/types.js';
import { isBlank, isBlankText, liveFlag, liveText, normEmail, normName, normText } from '../engine/normalize.js';
import { quoteValue, showJson } from '../config/quote.js';
import { ApiError } from '../errors.js';
import type { RuleAttrs } from '../api/review.js';
import { MAX_BODY_BYTES } from '../api/answer-limit.js';
import type { ExecContext, KindModule } from './kind.js';
import { OTHER_USERS_ID, forgetRefusedReviewer } from './member.js';
import { freshSiblings } from './support/race.js';
import { ScopeGone } from '../engine/race.js';
import { blockText } from './support/yaml-out.js';
import { policyOf } from './support/policy.js';
import { fieldSourcesUnder, formerNamesAt, posOf, problemAt, valueOf } from './support/positions.js';
import { declaredRules } from './support/review-reads.js';
import { removeOrFindGone } from './support/gone.js';
import { updatedAt } from './support/updated.js';

const TEXT_FIELDS = ['description', 'actions', 'internal_notes', 'questions'] as const;
/** The keys a rule may write (the playbook schema's): any other is the schema's unknown-key. */
const RULE_KEYS: ReadonlySet<string> = new Set(['id', 'renamed_from', 'name', ...TEXT_FIELDS, 'generate_summary', 'reviewer', 'drift', 'ignore_fields']);
/** The fields a rule's entry in its playbook's list holds as text, its name among them. */
const LISTED_TEXT = ['name', ...TEXT_FIELDS] as const;

/** What a rule's entry adds to its playbook's rule list beside its texts (id, type, keys, timestamps, reviewer, measured about 600). */
const RULE_ENTRY_BYTES = 600;
/** The share of the answer limit a playbook's rules may fill: the estimate leaves out what the service adds. */
const ANSWER_ROOM = 0.9;

/**
 * About how many bytes a playbook's rule list is when answered (its texts as JSON, each rule's
 * entry), when over `limit`; else undefined. A character is at most 3 bytes there (control
 * characters are refused before), so most playbooks are judged by counting characters alone.
 */
function ruleListBytesOver(rules: readonly DesiredResource[], limit: number): number | undefined {
  let chars = rules.length * RULE_ENTRY_BYTES;
  for (const r of rules) for (const f of LISTED_TEXT) chars += typeof r.fields[f] === 'string' ? (r.fields[f] as string).length : 0;
  if (chars * 3 <= limit) return undefined;
  let bytes = rules.length * RULE_ENTRY_BYTES;
  for (const r of rules) for (const f of LISTED_TEXT) bytes += typeof r.fields[f] === 'string' ? Buffer.byteLength(JSON.stringify(r.fields[f])) : 0;
  return bytes > limit ? bytes : undefined;
}
const RULE_FIELDS = ['name', ...TEXT_FIELDS, 'generate_summary', 'reviewer'] as const;
/**
 * Payload flag: the file states `generate_summary`. NOTE(api): the public create body documents
 * only name, actions and description; docket sends the other fields only when the file has them.
 */
const STATED_SUMMARY = 'generate_summary_stated';
/** The fields a rule's positions are kept for: the compared ones, its pinned id and former names. */
const SOURCE_FIELDS = [...RULE_FIELDS, 'id', 'renamed_from'] as const;

/** The rule field a key of the service's names (reviewer_id → reviewer), as toWire maps it the other way. */
function fromWire(key: string): string {
  return key === 'reviewer_id' ? 'reviewer' : key;
}

/**
 * A create the service refused for a summary-only rule's missing `actions` (a service whose rules
 * may not keep them, as the variants table says): the error says to give the rule `actions`. Also
 * for docket test's scratch playbook, which makes the rules a plan would (probe JB-4).
 */
export function noteSummaryOnlyRefusal(err: unknown, body: Readonly<Record<string, unknown>>): void {
  if (isBlankText(body.actions) && 'questions' in body) withoutActionsNote(err, "the rule has no `actions`, only `questions` with `generate_summary`, which this service's rules may not keep");
}

/**
 * NOTE(api): the public docs document only name, actions and description for a rule; a service
 * that keeps only those refuses a summary-only rule as without actions, quoting a condition the file
 * meets (probe ID-1): the refusal says what it takes. Text of white space only is none (IF-1).
 */
function withoutActionsNote(err: unknown, why: string): void {
  if (err instanceof ApiError && (err.status === 422 || err.status === 400) && aboutActions(err)) err.message = `${err.message} (${why}: give the rule \`actions\`)`;
}

/**
 * A reviewer the service refuses (no member of the organization now: they left, and without a users
 * list docket could not see it) is said, with what to do (probes PT-3, HD-1).
 */
function reviewerRefusedNote(err: unknown, reviewer: string, sentId: unknown, ctx: Pick<ExecContext, 'pinnedId' | 'distrustId'>): void {
  if (!(err instanceof ApiError) || err.status !== 422 || reviewer === '') return;
  const { fieldErrors, detail, title } = err.details;
  const about = fieldErrors && fieldErrors.length > 0 ? fieldErrors.some((f) => /(^|[/.])reviewer(_id)?$/.test(f.field)) : /\breviewer/i.test(`${title ?? ''} ${detail ?? ''}`);
  if (!about) return;
  err.message = `${err.message} (${forgetRefusedReviewer(ctx, reviewer, sentId)})`;
}

/**
 * The id sent for the files' reviewer was another person's (a Member's `id:` pinned to the wrong
 * user, where no users list can check it): the answer names that person. Said as a failure, not a
 * success the next plan contradicts as a change made in the app, as the organization's default
 * reviewer is (probe QX-1).
 */
function refuseOtherReviewer(ctx: Pick<ExecContext, 'distrustId'>, body: Record<string, unknown>, wanted: unknown, answer: Record<string, unknown> | undefined, held?: (reviewer: string | null) => void): void {
  const made = answer?.reviewer;
  if (typeof body.reviewer_id !== 'string' || typeof wanted !== 'string' || typeof made !== 'string' || answer?.reviewer_id !== body.reviewer_id) return;
  if (normEmail(made) === normEmail(wanted)) return;
  held?.(normEmail(made));
  ctx.distrustId?.('member', normEmail(wanted) ?? wanted, OTHER_USERS_ID);
  throw new Error(`the service made ${quoteValue(made)} the reviewer for the id docket sent for ${quoteValue(wanted)}: the id docket has for that member is another user's (check the Member document's \`id:\`), then apply again`);
}

/** Whether a service's refusal is about a rule's `actions` (a field error, or its words): not another field's (second read SR-2). */
function aboutActions(err: ApiError): boolean {
  const { fieldErrors, detail, title } = err.details;
  if (fieldErrors && fieldErrors.length > 0) return fieldErrors.some((f) => /(^|[/.])actions$/.test(f.field) || /\bactions\b/i.test(f.message));
  return /\bactions\b/i.test(`${title ?? ''} ${detail ?? ''}`);
}

/** Rule fields as the service expects them: reviewer e-mail → reviewer_id. */
function toWire(field: string, value: unknown, resolveMember: (email: string) => string): [string, unknown] {
  if (field === 'reviewer') return ['reviewer_id', value === null ? null : resolveMember(String(value))];
  return [field, value];
}

/**
 * The fields of a write the service's answer holds otherwise (only those it shows), as a note:
 * NOTE(api): the public docs document only name, actions and description, so a service may drop
 * the rest silently, and every later plan would show them again without saying why.
 */
export function unkeptNote(sent: Record<string, unknown>, answer: Record<string, unknown> | undefined, unkept?: (held: Record<string, unknown>) => void, ignored: readonly string[] = [], memberOf?: (id: string) => string | undefined): string | undefined {
  const lost = unkeptFields(sent, answer, memberOf);
  if (lost.length === 0) return undefined;
  unkept?.(Object.fromEntries(lost.map((l) => [l.field, l.held])));
  const names = (fields: readonly { field: string }[]) => fields.map((l) => `\`${l.field}\``).join(', ');
  // An ignored field is never compared again: no plan shows it.
  const shown = lost.filter((l) => !ignored.includes(l.field));
  const left = lost.filter((l) => ignored.includes(l.field));
  const again = shown.length === 0 ? [] : [`the next plan will show ${shown.length === lost.length ? (shown.length === 1 ? 'it' : 'them') : names(shown)} again`];
  const unseen = left.length === 0 ? [] : [`\`ignore_fields\` leaves ${left.length === lost.length ? (left.length === 1 ? 'it' : 'them') : names(left)} out of every plan`];
  return `the service did not keep ${names(lost)} as sent (it holds ${lost.map((l) => l.quoted).join(', ')}): ${[...again, ...unseen].join('; ')}`;
}

/**
 * The fields of a rule write the answer holds otherwise than sent: each as the files name it (the
 * reviewer is sent as its id), with the value a read gives and the answer's value quoted.
 */
export function unkeptFields(sent: Record<string, unknown>, answer: Record<string, unknown> | undefined, memberOf?: (id: string) => string | undefined): { field: string; held: unknown; quoted: string }[] {
  if (!answer) return [];
  const same = (k: string, a: unknown, b: unknown): boolean =>
    k === 'name' ? normName(a) === normName(b) : (TEXT_FIELDS as readonly string[]).includes(k) ? normText(a) === normText(b) : (a ?? null) === (b ?? null);
  return Object.keys(sent)
    .filter((k) => k in answer && !same(k, sent[k], answer[k]))
    .map((k) => ({
      field: fromWire(k),
      held: heldAsRead(answer, k),
      // Each cut as a quote is (`...`): a JSON text sliced lost its closing quote, and the key guard could not tell a key's start.
      quoted: quotedAsHeld(answer, k, memberOf),
    }));
}

/** What the answer holds in a field, quoted as the files write it: a reviewer by e-mail, as the plan names them (probe VB-2). */
function quotedAsHeld(answer: Record<string, unknown>, wireKey: string, memberOf?: (id: string) => string | undefined): string {
  const held = answer[wireKey];
  if (wireKey === 'reviewer_id' && typeof held === 'string') {
    const email = typeof answer.reviewer === 'string' ? answer.reviewer : memberOf?.(held);
    if (email !== undefined) return quoteValue(email);
  }
  return typeof held === 'string' ? quoteValue(held) : showJson(held ?? null);
}

/**
 * A field of a write's answer as a read of the rule gives it; undefined where that cannot be said
 * (a reviewer's e-mail from another id, text of a wrong type).
 */
function heldAsRead(answer: Record<string, unknown>, wireKey: string): unknown {
  if (wireKey === 'name') return normName(answer.name);
  // No reviewer (the service dropped it) reads as none; another id names someone only a read can say.
  if (wireKey === 'reviewer_id') return answer.reviewer_id === null ? null : undefined;
  try {
    return (liveRuleTexts(answer as unknown as RuleAttrs) as Record<string, unknown>)[wireKey];
  } catch {
    return undefined;
  }
}

/** Where a rule's missing actions are best shown: at blank text written for them (or for its questions), else at the rule. */
function missingActions(rule: Record<string, unknown>): { field?: string; detail: string } {
  const { actions, questions } = rule;
  // Written, but with nothing in it: the value is what is wrong.
  if ('actions' in rule && (actions === null || (typeof actions === 'string' && actions.trim() === ''))) {
    const detail =
      actions === null ? ': it has no value' : actions === '' ? ' (got "")' : /^\n+$/.test(actions) ? `: it holds only line breaks (${quoteValue(actions)}), which the service takes as none` : `: ${quoteValue(actions)} is only white space, which the service takes as none`;
    return { field: 'actions', detail };
  }
  if (rule.generate_summary !== false && typeof questions === 'string' && questions.trim() === '' && questions !== '') {
    return { field: 'questions', detail: `: its \`questions\` ${quoteValue(questions)} are only white space, which the service takes as none` };
  }
  return { detail: '' };
}

/** A live rule's text fields and summary flag, read as the kind compares them (a wrong type throws). */
export function liveRuleTexts(a: RuleAttrs): { description: string | null; actions: string | null; internal_notes: string | null; questions: string | null; generate_summary: boolean } {
  return {
    description: liveText(a.description, 'description'),
    actions: liveText(a.actions, 'actions'),
    internal_notes: liveText(a.internal_notes, 'internal_notes'),
    questions: liveText(a.questions, 'questions'),
    generate_summary: liveFlag(a.generate_summary, 'generate_summary', true),
  };
}

/** What a review reads of a rule, from its compared fields (desired or live): no reviewer, no notes. */
export function reviewedPart(fields: Record<string, unknown>): { description: string | null; actions: string | null; questions: string | null; generate_summary: boolean } {
  return {
    description: normText(fields.description),
    actions: normText(fields.actions),
    questions: normText(fields.questions),
    generate_summary: fields.generate_summary !== false,
  };
}

export const ruleKind: KindModule<'rule'> = {
  name: 'rule',
  title: 'Rules',
  noun: ['rule', 'rules'],
  overflowField: 'description',
  service: 'review',
  deletion: 'delete',
  actions: ['create', 'update', 'rename', 'delete'],
  parentKind: 'playbook',
  parentField: 'rules',
  nameField: 'name',
  reads: ['member'],

  /** The `rules:` of a Playbook document (`ctx.parent` is the playbook it declares). */
  toDesired(doc, diag, ctx) {
    const playbook = ctx.parent?.key ?? normName(doc.body.name);
    const rules = Array.isArray(doc.body.rules) ? (doc.body.rules as unknown[]) : [];
    const seen = new Map<string, number>();
    const out: DesiredResource[] = [];
    // One parent for all of a playbook's rules.
    const parent = { kind: 'playbook' as const, key: playbook };
    rules.forEach((entry, i) => {
      // Entries that are not mappings were reported by the schema; skip them, keep checking the rest.
      if (!entry || typeof entry !== 'object' || Array.isArray(entry)) return;
      const rule = entry as Record<string, unknown>;
      const pointer = `/rules/${i}`;
      const name = normName(rule.name);
      const fields: Record<string, unknown> = { name };
      for (const f of TEXT_FIELDS) fields[f] = normText(rule[f]);
      fields.generate_summary = rule.generate_summary === undefined || rule.generate_summary === null ? true : rule.generate_summary === true;
      const reviewer = normEmail(rule.reviewer);
      fields.reviewer = reviewer;

      // Seed 000: actions are required unless the rule only summarises (generate_summary + questions).
      // NOTE(api): text of white space only counts as none (as the emulator's 422 has it, after Rails' `blank?`).
      // A field filled by a broken variable reads as none; the variable is reported where it is defined.
      const unresolved = (field: string): boolean => doc.unresolved?.has(`/rules/${i}/${field}`) === true;
      // A \`generate_summary\` that is no boolean ("yes") is refused by the schema: what it would allow is not known (probe RF-3).
      const summaryUnread = (rule.generate_summary !== undefined && rule.generate_summary !== null && typeof rule.generate_summary !== 'boolean') || unresolved('generate_summary');
      // Nor when a key the schema calls a misspelling of `actions` or `questions` holds them (`action:`, `Actions:`): one error, the key's (probe CF-3).
      const misspelt = Object.keys(rule).some((key) => !RULE_KEYS.has(key) && suggest(key, ['actions', 'questions']) !== undefined);
      if (isBlankText(fields.actions) && !(fields.generate_summary === true && !isBlankText(fields.questions)) && !unresolved('actions') && !unresolved('questions') && !summaryUnread && !misspelt) {
        const why = missingActions(rule);
        // One without a name (an error of its own) is said by its place in the list, not as a rule named "" (probe GK-7).
        const rulePlace = typeof rule.name === 'string' && !isBlank(name) ? `rule ${quoteValue(name, 200)}` : `the rule at rules[${i}]`;
        diag.error('missing-actions', `${rulePlace} needs \`actions\`${why.detail} (only a rule with \`generate_summary: true\` and \`questions\` may omit them)`, {
          // At the value when the value is what is wrong (white space only), else at the rule.
          ...(why.field ? valueOf(doc, `${pointer}/${why.field}`) : posOf(doc, pointer)),
          path: why.field ? `rules[${i}].${why.field}` : `rules[${i}]`,
        });
      }
      // A name that is missing, not text or blank is reported as such: two of them are no duplicate besides.
      const named = typeof rule.name === 'string' && !isBlank(name);
      const first = named ? seen.get(name) : undefined;
      if (first !== undefined) {
        // At the name, as duplicate-resource points: the value is what is repeated.
        // A copy made by an alias (`- *rule`) has its name where the anchor is: it is at the alias.
        const nameAt = problemAt(doc, `/rules/${i}/name`);
        const firstAt = valueOf(doc, `/rules/${first}/name`);
        const copied = nameAt.line === firstAt.line && nameAt.col === firstAt.col;
        diag.error('duplicate-rule', `playbook ${quoteValue(playbook)} declares rule ${quoteValue(name)} twice (first at line ${posOf(doc, `/rules/${first}`).line})`, copied ? { ...posOf(doc, `/rules/${i}`), path: `rules[${i}]` } : nameAt);
      } else if (named) {
        seen.set(name, i);
      }

      const refs: Ref[] = reviewer ? [{ kind: 'member', key: reviewer, field: 'reviewer', source: valueOf(doc, `/rules/${i}/reviewer`) }] : [];
      const fieldSources = fieldSourcesUnder(doc, pointer, SOURCE_FIELDS);
      const policy = policyOf(rule, ctx.parent?.policy);
      out.push({
        kind: 'rule',
        key: `${playbook}/${name}`,
        name,
        parent,
        fields,
        payload: { [STATED_SUMMARY]: rule.generate_summary !== undefined && rule.generate_summary !== null },
        partial: false,
        refs,
        renamedFrom: formerNamesAt(doc, pointer, rule.renamed_from, diag),
        source: posOf(doc, pointer),
        fieldSources,
        ...(typeof rule.id === 'string' ? { pinId: rule.id } : {}),
        ...(policy ? { policy } : {}),
        pointer,
      });
    });
    const listBytes = ruleListBytesOver(out, MAX_BODY_BYTES * ANSWER_ROOM);
    if (listBytes !== undefined) {
      diag.error('rule-list-too-large', `playbook ${quoteValue(playbook, 200)} declares ${out.length.toLocaleString('en-US')} rule${out.length === 1 ? '' : 's'} holding about ${Math.round(listBytes / 1024 / 1024)} MB: the review service answers a playbook's rules in one list, and docket reads no answer over ${MAX_BODY_BYTES / 1024 / 1024} MB, so it could not read them back once applied`, {
        ...posOf(doc, '/rules'),
        path: 'rules',
        hint: `split the rules across several playbooks (about ${Math.floor((MAX_BODY_BYTES * ANSWER_ROOM) / 1024 / 1024)} MB of rules each at most)`,
      });
    }
    return out;
  },

  async fetch(ctx) {
    const [perPlaybook, members] = await Promise.all([declaredRules(ctx), ctx.live('member')]);
    const emailById = new Map(members.map((m) => [m.id, m.key]));
    return perPlaybook.flatMap(({ playbook: p, rules }) =>
      rules.map((r) => {
        const a = r.attributes;
        const reviewer = a.reviewer_id ? (emailById.get(a.reviewer_id) ?? normEmail(a.reviewer)) : null;
        const name = normName(a.name);
        return {
          kind: 'rule' as const,
          id: r.id,
          key: `${normName(p.attributes.name)}/${name}`,
          name,
          parentId: p.id,
          fields: { name, ...liveRuleTexts(a), reviewer },
          refs: reviewer ? [{ kind: 'member' as const, key: reviewer }] : [],
          // Which user, when two share the e-mail and the files pin one (probe BE-1).
          ...(a.reviewer_id ? { refIds: { reviewer: a.reviewer_id } } : {}),
          ...updatedAt(a),
        };
      }),
    );
  },

  /** `generate_summary` unwritten compares as the service's default, true, and is not sent (probe MK-1). */
  sentOnCreate(field, d) {
    return field !== 'generate_summary' || d.payload?.[STATED_SUMMARY] === true;
  },

  /** Keys in the order DESIGN.md shows them; what the kind reads back as "none" is left out. */
  toConfig(live) {
    const f = live.fields;
    const out: Record<string, unknown> = { name: live.name };
    const text = (key: (typeof TEXT_FIELDS)[number]): void => {
      const v = f[key];
      if (typeof v === 'string' && v !== '') out[key] = blockText(v);
    };
    text('description');
    text('actions');
    text('questions');
    if (f.generate_summary === false) out.generate_summary = false;
    if (typeof f.reviewer === 'string') out.reviewer = f.reviewer;
    text('internal_notes');
    return { document: out };
  },

  /**
   * `generate_summary: true`, the default, is left out of a rule written whole (toConfig); where
   * the file states the key (written, a merge's, a placeholder), live's value is written in its
   * place: a merge's key taken out would be written `null`, which docket refuses. A reviewer live
   * no longer has leaves the file.
   */
  pullField(field, live, written) {
    if (field === 'generate_summary' && written.generate_summary !== undefined) return { pointer: '/generate_summary', value: live.fields.generate_summary };
    // No reviewer live leaves the file: an e-mail has no value that stands for none, so one written through a variable is for a person to delete.
    if (field === 'reviewer' && (live.fields.reviewer ?? null) === null) return { pointer: '/reviewer', value: undefined, noneByHand: true };
    return undefined;
  },

  async execute(change, ctx) {
    const api = ctx.services.review();
    const parent = change.parent!;
    const playbookId = parent.liveId ?? ctx.resolveId('playbook', parent.key);
    const resolveMember = (email: string) => ctx.resolveId('member', email);
    switch (change.action) {
      case 'create': {
        // Only what the file states: the service's own defaults stand for the rest.
        const desired = change.desired ?? {};
        const body: Record<string, unknown> = {};
        for (const field of RULE_FIELDS) {
          const value = desired[field];
          if (value === null || value === undefined) continue;
          if (field === 'generate_summary' && desired[STATED_SUMMARY] !== true) continue;
          const [k, v] = toWire(field, value, resolveMember);
          body[k] = v;
        }
        const created = await api.createRule(playbookId, body, change.key).catch(async (err: unknown) => {
          // The playbook went while the apply ran (archived in the app, or set aside by another
          // apply that made the same playbook at the same time): say so, not a bare 404.
          if (err instanceof ApiError && err.status === 404) {
            if (!(await playbookStillLive(ctx, playbookId))) err.message = `${err.message} (playbook ${quoteValue(parent.key)} is no longer live: archived in the app or by another apply at the same time; the next plan shows what is left to make)`;
          }
          noteSummaryOnlyRefusal(err, body);
          if ('reviewer_id' in body) reviewerRefusedNote(err, String(desired.reviewer ?? ''), body.reviewer_id, ctx);
          throw err;
        });
        ctx.registerCreated('rule', change.key, created);
        const note = unkeptNote(body, created.attributes as unknown as Record<string, unknown>, (held) => ctx.registerUnkept?.('rule', change.key, held), ctx.ignoredFields?.('rule', change.key), (id) => ctx.keyOfId?.('member', id));
        refuseOtherReviewer(ctx, body, desired.reviewer, created.attributes as unknown as Record<string, unknown>);
        return note;
      }
      case 'rename':
      case 'update': {
        const body: Record<string, unknown> = {};
        for (const f of change.fields) {
          const [k, v] = toWire(f.field, f.after, resolveMember);
          body[k] = v;
        }
        const updated = await api.updateRule(playbookId, change.liveId!, body, change.key).catch((err: unknown) => {
          // As a create is (probe ID-1), an update that takes the actions away (probe IE-7).
          if ('actions' in body && isBlankText(body.actions)) withoutActionsNote(err, "the update takes the rule's `actions` away, and this service's rules may not keep a rule without them, even with `questions` and `generate_summary`");
          if ('reviewer_id' in body) reviewerRefusedNote(err, String(change.desired?.reviewer ?? ''), body.reviewer_id, ctx);
          throw err;
        });
        const note = unkeptNote(body, updated?.attributes as Record<string, unknown> | undefined, (held) => ctx.registerUnkept?.('rule', change.key, held), ctx.ignoredFields?.('rule', change.key), (id) => ctx.keyOfId?.('member', id));
        refuseOtherReviewer(ctx, body, change.fields.find((f) => f.field === 'reviewer')?.after, updated?.attributes as Record<string, unknown> | undefined, (reviewer) => {
          // Written all the same: the record learns the reviewer the service holds, so the next plan
          // sends the files' one as the files' change, not as one made in the app (second read SR86-2).
          ctx.registerUnkept?.('rule', change.key, { reviewer });
          // Not the reviewer: what is live is another person, which the unkept value records.
          ctx.registerWritten?.('rule', change.key, change.fields.map((f) => f.field).filter((f) => f !== 'reviewer'));
        });
        return note;
      }
      case 'delete':
        return removeOrFindGone(
          () => api.deleteRule(playbookId, change.liveId!, change.key),
          () => ctx.readAfterWrites(`race:rules:${playbookId}`, () => api.listRules(playbookId)),
          (r) => r.id === change.liveId,
          'deleted',
          'not deleted: gone with its playbook, which is no longer live (archived by another apply or in the app, not destroyed); the next plan says what to do',
        );
      default:
        throw new Error(`rule cannot ${change.action}`);
    }
  },

  race: {
    // Nothing in an apply refers to a rule's id: one read per playbook at the end is enough.
    checkAtEnd: true,
    async siblings(change, ctx) {
      const playbookId = change.parent!.liveId ?? ctx.resolveId('playbook', change.parent!.key);
      const api = ctx.services.review();
      return freshSiblings(ctx, `race:rules:${playbookId}`, () => api.listRules(playbookId), change.key, `${change.parent!.key}/`).catch(async (err: unknown) => {
        // The playbook went while the apply ran (probe KY-3): its rules with it, so none of them is live.
        if (!(err instanceof ApiError && err.status === 404)) throw err;
        throw (await playbookStillLive(ctx, playbookId)) ? err : new ScopeGone(`playbook ${quoteValue(change.parent!.key)}`);
      });
    },
    async setAside(duplicate, change, ctx) {
      const playbookId = change.parent!.liveId ?? ctx.resolveId('playbook', change.parent!.key);
      const api = ctx.services.review();
      const gone = await removeOrFindGone(() => api.deleteRule(playbookId, duplicate.id, duplicate.key), () => api.listRules(playbookId), (r) => r.id === duplicate.id, 'deleted');
      return gone ?? 'deleted';
    },
  },
};

/** Whether a playbook a rule's request was answered 404 for is still listed (a read that fails says yes: the 404 stays as it was). */
function playbookStillLive(ctx: Pick<ExecContext, 'readAfterWrites' | 'services'>, playbookId: string): Promise<boolean> {
  return ctx.readAfterWrites('race:playbooks', () => ctx.services.review().listPlaybooks()).then(
    (all) => all.some((p) => p.id === playbookId),
    () => true,
  );
}
