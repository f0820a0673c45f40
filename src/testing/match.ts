/**
 * The matchers: how a review's results are attributed to the rules of the playbook under test, and
 * how each expectation is checked against them. Pure; the rules below are the README's
 * "Matching rules", word for word in effect:
 *
 * - Names (rules, topics) compare after Unicode NFKC, collapsed whitespace and lower case; where
 *   two rules of the playbook compare alike that way (Term, TERM), as written (composed, blanks collapsed).
 * - A redline evaluation belongs to the rule whose id is its `relevant_rule_topic.id`, else the
 *   rule named as its `relevant_rule_topic.name`; otherwise to no rule (it still counts under its
 *   topic's name).
 * - A flag violation belongs to the first rule found by: (1) `summary_review_flag_id` equal to the
 *   rule's id; (2) its `rule` text equal to the rule's name; (3) equal to the rule's actions,
 *   description or questions (seed 000: "the playbook rule text or summary that was evaluated");
 *   (4) starting with the rule's name followed by `:`, `.`, ` -`, ` –` or ` —`; (5) the one rule
 *   whose name appears in it as whole words, the longest such name when several do. Otherwise it
 *   belongs to no rule: it counts in `count` but never satisfies `includes` nor breaks `excludes`.
 */
import type { SubjectRule } from '../kinds/support/test-subjects.js';
import { isPlainObject } from '../util/plain.js';
import { quoteFound } from './labels.js';
import type { Count, ExpectationResult, ExpectationSpec, FlagFact, PositionFact, RedlineFact, ReviewFacts, TextMatch } from './types.js';
import { escapeRegExp } from '../util/escape-regexp.js';
import { addTo } from '../util/multi-map.js';

/** How much of a commentary a failed `commentary` check shows. */
const COMMENTARY_SHOWN = 600;

export function nameKey(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, ' ').trim().toLowerCase();
}

/** A name as written, for rules that nameKey takes alike: composed, blanks collapsed; case and compatibility forms count. */
export function exactNameKey(text: string): string {
  return text.normalize('NFC').replace(/\s+/g, ' ').trim();
}

/** The one of `names` that `written` names: the one written so, else the only one alike (probe EA-2). */
export function ruleNamed(written: string, names: readonly string[]): string | undefined {
  return ruleResolver(names)(written);
}

/** ruleNamed over one list of names, indexed once: a pull or a validate resolves thousands of names against it (second read SR103-1). */
export function ruleResolver(names: readonly string[]): (written: string) => string | undefined {
  const exact = new Map<string, string>();
  for (const n of names) if (!exact.has(exactNameKey(n))) exact.set(exactNameKey(n), n);
  const alike = alikeIn(names);
  return (written) => {
    const found = exact.get(exactNameKey(written));
    if (found !== undefined) return found;
    const same = alike(written);
    return same.length === 1 ? same[0] : undefined;
  };
}

/** The names of `names` that compare alike to a name (nameKey), indexed once. */
export function alikeIn(names: readonly string[]): (written: string) => readonly string[] {
  const alike = new Map<string, string[]>();
  for (const n of names) addTo(alike, nameKey(n), n);
  return (written) => alike.get(nameKey(written)) ?? [];
}

/**
 * The rule of the longest name found; of several that long (names alike: Term, TERM), the only one
 * `exactly` takes (the text writes it so), else none (probe EA-2, second read SR103-3).
 */
function longestFound(found: readonly SubjectRule[], exactly: (r: SubjectRule) => boolean): SubjectRule | undefined {
  const longest = Math.max(0, ...found.map((r) => r.name.length));
  const best = found.filter((r) => r.name.length === longest);
  if (best.length <= 1) return best[0];
  const exact = best.filter(exactly);
  return exact.length === 1 ? exact[0] : undefined;
}

const str = (v: unknown): string | null => (typeof v === 'string' ? v : null);
const items = (v: unknown): Record<string, unknown>[] =>
  Array.isArray(v) ? v.filter(isPlainObject).map((x) => (isPlainObject(x.attributes) ? { id: x.id, ...x.attributes } : x)) : [];

/** A review's results (the single-review attributes) attributed to the rules it was made with. */
export function attributeReview(reviewId: string, attributes: Record<string, unknown>, rules: readonly SubjectRule[]): ReviewFacts {
  const byId = new Map(rules.filter((r) => r.id).map((r) => [r.id!, r.name]));
  const ruleOf = ruleResolver(rules.map((r) => r.name));
  const redlines: RedlineFact[] = items(attributes.redline_evaluations).map((e) => {
    const topic = isPlainObject(e.relevant_rule_topic) ? e.relevant_rule_topic : {};
    const name = str(topic.name) ?? '';
    const rule = (typeof topic.id === 'string' ? byId.get(topic.id) : undefined) ?? ruleOf(name) ?? null;
    return { topic: rule ?? name, rule, evaluation: str(e.evaluation), commentary: str(e.commentary) };
  });
  const flags: FlagFact[] = items(attributes.flag_violations).map((v) => ({
    rule: attributeFlag(str(v.rule), str(v.summary_review_flag_id), rules),
    text: str(v.rule),
    decision: str(v.decision),
  }));
  const positions: PositionFact[] = items(attributes.summary_positions).map((p) => ({ summary: str(p.summary), detailed_explanation: str(p.detailed_explanation) }));
  return { review_id: reviewId, review_type: str(attributes.review_type) ?? 'unknown', redlines, flags, positions };
}

/** The rule a flag violation is about, by the rules in this module's comment, or null. */
export function attributeFlag(text: string | null, flagId: string | null, rules: readonly SubjectRule[]): string | null {
  if (flagId) {
    const byId = rules.find((r) => r.id === flagId);
    if (byId) return byId.name;
  }
  if (text === null) return null;
  const key = nameKey(text);
  const named = ruleNamed(text, rules.map((r) => r.name));
  if (named !== undefined) return named;
  const byText = rules.find((r) => [r.actions, r.description, r.questions].some((t) => t !== null && nameKey(t) === key));
  if (byText) return byText.name;
  const written = exactNameKey(text);
  const headed = longestFound(
    rules.filter((r) => {
      const name = nameKey(r.name);
      return key.startsWith(name) && /^(:|\.|\s[-\u2013\u2014])/.test(key.slice(name.length));
    }),
    (r) => written.startsWith(exactNameKey(r.name)),
  );
  if (headed) return headed.name;
  const mentioned = rules.filter((r) => new RegExp(`(^|[^\\p{L}\\p{N}])${escapeRegExp(nameKey(r.name))}($|[^\\p{L}\\p{N}])`, 'u').test(key));
  return longestFound(mentioned, (r) => written.includes(exactNameKey(r.name)))?.name ?? null;
}

/** Whether a result's rule is the one a test names: as written where the playbook has rules alike (`exact`). */
function sameRule(got: string, written: string, exact: boolean | undefined): boolean {
  return exact ? exactNameKey(got) === exactNameKey(written) : nameKey(got) === nameKey(written);
}

export function inCount(n: number, c: Count): boolean {
  return (c.min === undefined || n >= c.min) && (c.max === undefined || n <= c.max);
}

export function matchText(t: TextMatch, text: string | null): boolean {
  if (text === null) return false;
  if ('equals' in t) return text.trim() === t.equals.trim();
  if ('contains' in t) return text.toLowerCase().includes(t.contains.toLowerCase());
  return new RegExp(t.matches, t.unicode ? `${t.flags}u` : t.flags).test(text);
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** Checks one review expectation against one review's attributed results. */
export function checkReview(spec: ExpectationSpec, facts: ReviewFacts): ExpectationResult {
  switch (spec.type) {
    case 'redline': {
      const mine = facts.redlines.filter((r) => sameRule(r.topic, spec.topic, spec.exact));
      const outcomes = mine.map((r) => r.evaluation ?? 'none');
      const got = mine.length === 0 ? `no evaluation of ${JSON.stringify(spec.topic)}${facts.review_type === 'SummaryReview' ? ' (a SummaryReview has none)' : ''}` : outcomes.join(', ');
      const count = spec.count ?? { min: 1 };
      // The expectation's label states the count (`count = 0`); got says only what was found.
      if (!inCount(mine.length, count)) return { ok: false, got: mine.length === 0 ? got : `${plural(mine.length, 'evaluation')} (${got})` };
      if (spec.evaluation) {
        const set = 'in' in spec.evaluation ? spec.evaluation.in : spec.evaluation.not_in;
        // The test file's outcomes are lower case (load.ts): the service's are compared in any case too (probe QY-4).
        const inSet = (o: string): boolean => set.includes(o.toLowerCase());
        const ok = 'in' in spec.evaluation ? outcomes.every(inSet) : !outcomes.some(inSet);
        if (!ok) return { ok, got };
      }
      if (spec.commentary && mine.length > 0 && !mine.some((r) => matchText(spec.commentary!, r.commentary))) {
        // Whole enough to show what the check was about, which may be at its end (an escalation: probe GJ-5).
        return { ok: false, got: `commentary ${quoteFound(mine[0]!.commentary, COMMENTARY_SHOWN)}` };
      }
      return { ok: true, got };
    }
    case 'flag-includes':
    case 'flag-excludes': {
      const flagged = facts.flags.some((f) => f.rule !== null && sameRule(f.rule, spec.rule, spec.exact));
      return { ok: spec.type === 'flag-includes' ? flagged : !flagged, got: flagList(facts.flags) };
    }
    case 'flag-count':
      return { ok: inCount(facts.flags.length, spec.count), got: `${plural(facts.flags.length, 'flag')}${facts.flags.length > 0 ? ` (${flagList(facts.flags)})` : ''}` };
    case 'position': {
      const matching = facts.positions.filter((p) => (!spec.summary || matchText(spec.summary, p.summary)) && (!spec.detailed_explanation || matchText(spec.detailed_explanation, p.detailed_explanation)));
      const ok = inCount(matching.length, spec.count);
      // What the expectation compared: an explanation's text alone is quoted as the explanation (probe HM-2).
      const shownOf = (p: PositionFact, max?: number): string =>
        !spec.detailed_explanation ? quoteFound(p.summary, max) : !spec.summary ? `explanation ${quoteFound(p.detailed_explanation, max)}` : `${quoteFound(p.summary, max)} (explanation ${quoteFound(p.detailed_explanation, max)})`;
      if (ok) return { ok, got: matching.length === 0 ? 'no matching position' : shownOf(matching[0]!) };
      // Some matched (too many, or too few): those, as what the count was about. None: what there was instead.
      const listed = matching.length > 0 ? matching : facts.positions;
      const shown = listed.slice(0, 3).map((p) => shownOf(p, 60));
      const more = listed.length > 3 ? `, and ${listed.length - 3} more` : '';
      return { ok, got: `${plural(matching.length, 'matching position')} of ${facts.positions.length}${shown.length > 0 ? `: ${shown.join(', ')}${more}` : ''}` };
    }
    default:
      return { ok: false, got: `not a review expectation (${spec.type})` };
  }
}

function flagList(flags: FlagFact[]): string {
  if (flags.length === 0) return 'no flags';
  return flags.map((f) => f.rule ?? `unattributed ${quoteFound(f.text, 40)}`).join(', ');
}

/** What creating a test agreement gave: accepted, or rejected with the fields the error named. */
export type AgreementFacts = { accepted: true; agreement_id: string } | { accepted: false; fields: string[]; detail: string };

export function checkAgreement(spec: ExpectationSpec, facts: AgreementFacts): ExpectationResult {
  const got = facts.accepted ? 'accepted' : `rejected${facts.fields.length > 0 ? ` (${facts.fields.join(', ')})` : ''}: ${facts.detail}`;
  if (spec.type === 'accepted') return { ok: facts.accepted, got };
  if (spec.type !== 'rejected') return { ok: false, got: `not a template expectation (${spec.type})` };
  if (facts.accepted) return { ok: false, got };
  return { ok: spec.field === undefined || facts.fields.some((f) => fieldNames(f, spec.field!)), got };
}

/**
 * A field the service named (`hourly_rate`, `agreement.custom_field_values.hourly_rate`,
 * `values[hourly_rate]`, a JSON:API `source.pointer` such as `/data/attributes/hourly_rate`) is the
 * expected one.
 */
export function fieldNames(named: string, expected: string): boolean {
  const a = named.toLowerCase();
  // Written as the service paths it, `agreement.hourly_rate` and `values[hourly_rate]` name `hourly_rate` too (probe OK-2);
  // nothing else is taken off: `signer.email` is not `counterparty.email` (second read SR80B-3).
  const e = asWrittenPlain(expected.toLowerCase());
  return a === e || a.endsWith(`.${e}`) || a.endsWith(`[${e}]`) || a.endsWith(`/${e}`);
}

/** `agreement.x` → `x`, `values[x]` → `x`; any other field as it is. */
function asWrittenPlain(field: string): string {
  const wrapped = /^values\[([^[\]]+)\]$/.exec(field);
  if (wrapped) return wrapped[1]!;
  return field.startsWith('agreement.') ? field.slice('agreement.'.length) : field;
}
