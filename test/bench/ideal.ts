/**
 * The minimum the API allows, and the ideal wall time, computed from the fixture's shape alone
 * (shapes.ts), never from docket's plan, so a docket that makes extra requests cannot raise its
 * own bar.
 *
 * The model. A command needs some requests; a request can start only when what it needs from
 * earlier answers is known, which sorts requests into dependency levels. Levels run one after the
 * other; inside one, at most `concurrency` requests are in flight and each takes one latency:
 *
 *   ideal = node start + latency × Σ over levels ceil(requests in level / concurrency)
 *
 * where "node start" is the measured wall time of `node -e 0` (a cold CLI cannot beat it). Under
 * a rate limit of R requests/s with the emulator's token bucket (burst R), the ideal is at least
 * node start + (requests − R) / R seconds, and the larger of the two bounds is used.
 *
 * Reads (plan, and apply before it applies), for the kinds the configuration declares:
 *   level 1  the playbook list (unpaged) and the review user list (rules name reviewers); the
 *            agreements user list (the actor is checked at plan time) and organization (the
 *            lock file's section is keyed by it, and no fixture names it); page 1 of the custom
 *            term, custom template and (full) template lists. Paged lists give 100 a page.
 *   level 2  the other pages of those lists (their numbers are known from page 1's `last`); one
 *            rule list per live declared playbook; the body of each live term on page 1 (the
 *            term list has no body, and the body is what is compared).
 *   level 3  the bodies of live terms on later pages.
 *   Attachments cannot be listed or read; the lock file stands in, at no request.
 * Writes, one request each (create = POST, rule and template update = PATCH, term and custom
 * template publish = POST …/versions, attachment = one multipart POST):
 *   apply from empty  level 1: playbooks, custom terms, attachments, templates that name no
 *                     attachment; level 2: rules (need their playbook's id), custom templates
 *                     (need their term's id), templates that name an attachment (need its id).
 *   1 % edit          one level: every change names an object that already exists.
 * `apply PLAN.json` of the edit replaces the full read by one of what the plan touches (its
 * fingerprints must still hold): per edited rule its GET, or its playbook's rule list when fewer;
 * each edited term's GET; the edited custom templates and templates by GET or by list pages,
 * whichever is fewer, and the agreements organization (the lock section). The plan carries every
 * id it needs, so there is no other read.
 */
import { editCounts, hasAgreementsKinds, templateUsesAttachment, totalRules, type FixtureShape } from './shapes.js';

export const PAGE_SIZE = 100;
/** The standalone emulator seeds admin@emulator.local and the three example users: one page. */
const SEEDED_USERS = 4;

/** What the row's command does, for the model. */
export type Work = 'none' | 'apply-from-empty' | 'plan-live' | 'apply-edit' | 'apply-plan-file';

export interface Level {
  label: string;
  requests: number;
}

export interface Ideal {
  /** Levels with at least one request. */
  levels: Level[];
  /** The minimum number of requests the API allows. */
  requests: number;
  /** latency × Σ ceil(level / concurrency), without node start. */
  latencyMs: number;
  /** The rate-limit bound (without node start), when there is a limit. */
  rateLimitMs: number | null;
  nodeStartMs: number;
  /** node start + the larger bound. */
  ms: number;
}

const pages = (items: number): number => Math.max(1, Math.ceil(items / PAGE_SIZE));

/** The read levels of a full read; `live` says whether the declared objects exist (else none do). */
export function readLevels(shape: FixtureShape, live: boolean): Level[] {
  const first: Level = { label: 'lists (first page)', requests: 0 };
  const second: Level = { label: 'rule lists, other pages, term bodies', requests: 0 };
  const third: Level = { label: 'term bodies (later pages)', requests: 0 };
  if (shape.playbooks > 0) first.requests += 1 + pages(SEEDED_USERS);
  if (hasAgreementsKinds(shape)) first.requests += 2;
  const paged = (needed: boolean, items: number): void => {
    if (!needed) return;
    first.requests += 1;
    if (live) second.requests += pages(items) - 1;
  };
  // Custom templates name their term by id, so the term list is needed for them too.
  paged(shape.customTerms > 0 || shape.customTemplates > 0, shape.customTerms);
  paged(shape.customTemplates > 0, shape.customTemplates);
  paged(shape.templates > 0, shape.templates);
  if (live) {
    second.requests += shape.playbooks;
    second.requests += Math.min(shape.customTerms, PAGE_SIZE);
    third.requests += Math.max(0, shape.customTerms - PAGE_SIZE);
  }
  return [first, second, third];
}

export function createLevels(shape: FixtureShape): Level[] {
  let attached = 0;
  for (let j = 0; j < shape.templates; j++) if (templateUsesAttachment(j, shape)) attached++;
  return [
    { label: 'create playbooks, terms, attachments, plain templates', requests: shape.playbooks + shape.customTerms + shape.attachments + (shape.templates - attached) },
    { label: 'create rules, custom templates, templates naming attachments', requests: totalRules(shape) + shape.customTemplates + attached },
  ];
}

export function editWriteLevels(shape: FixtureShape): Level[] {
  const e = editCounts(shape);
  return [{ label: 'update rules and templates, publish terms and custom templates', requests: e.rules + e.customTerms + e.customTemplates + e.templates }];
}

/** The reads `apply PLAN.json` of the edit needs: what the plan touches. */
export function planFileReadLevels(shape: FixtureShape): Level[] {
  const e = editCounts(shape);
  const requests =
    (hasAgreementsKinds(shape) ? 1 : 0) +
    Math.min(e.rules, e.playbooksTouched) + e.customTerms + Math.min(e.customTemplates, pages(shape.customTemplates)) + Math.min(e.templates, pages(shape.templates));
  return [{ label: 'read what the plan touches', requests }];
}

export function minimumLevels(shape: FixtureShape | undefined, work: Work): Level[] {
  if (!shape || work === 'none') return [];
  switch (work) {
    case 'apply-from-empty':
      return [...readLevels(shape, false), ...createLevels(shape)];
    case 'plan-live':
      return readLevels(shape, true);
    case 'apply-edit':
      return [...readLevels(shape, true), ...editWriteLevels(shape)];
    case 'apply-plan-file':
      return [...planFileReadLevels(shape), ...editWriteLevels(shape)];
  }
}

export interface IdealInput {
  levels: Level[];
  latencyMs: number;
  concurrency: number;
  nodeStartMs: number;
  /** Requests per second; 0 or undefined: none. */
  rateLimit?: number;
}

export function idealOf(input: IdealInput): Ideal {
  const levels = input.levels.filter((l) => l.requests > 0);
  const requests = levels.reduce((sum, l) => sum + l.requests, 0);
  const latencyMs = levels.reduce((sum, l) => sum + Math.ceil(l.requests / input.concurrency) * input.latencyMs, 0);
  const rate = input.rateLimit ?? 0;
  // The emulator's bucket starts full with `rate` tokens (burst), then refills at `rate` a second.
  const rateLimitMs = rate > 0 ? (Math.max(0, requests - Math.max(1, rate)) / rate) * 1000 : null;
  return {
    levels,
    requests,
    latencyMs,
    rateLimitMs,
    nodeStartMs: input.nodeStartMs,
    ms: input.nodeStartMs + Math.max(latencyMs, rateLimitMs ?? 0),
  };
}
