/**
 * `docket test capture --review <id>`: a PlaybookTest case whose expectations are what reviewers
 * recorded on a real review (redline outcomes, flag decisions), with the contract referenced by
 * imported file id and sha256, so a confidential contract never needs to be committed. Appended
 * to the PlaybookTest of that playbook in the output file (comments kept), or a new file.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../util/atomic-write.js';
import { writtenAs } from '../util/file-write-error.js';
import { isMap, parseAllDocuments, stringify } from 'yaml';
import { asEdited, documentValues, editYaml } from '../pull/yaml-edit.js';
import { quoteValue } from '../config/quote.js';
import { keyWrittenIn, KEYS_STAY_OUT } from '../config/api-keys.js';
import { DocketError } from '../errors.js';
import { endsLinesInLoneCr, lineBreakOf } from '../util/line-break.js';
import { normName } from '../engine/normalize.js';
import type { Services } from '../kinds/kind.js';
import { attributeReview, exactNameKey, nameKey } from './match.js';
import { reviewDone } from './poll.js';
import { findTestFiles, shownCaseName } from './load.js';
import { isPlainObject } from '../util/plain.js';
import { SCRATCH_PREFIX } from './scratch-name.js';
import type { PlaybookSubject, SubjectRule } from '../kinds/support/test-subjects.js';
import type { ReviewFacts } from './types.js';

/**
 * NOTE(api): the allowed flag decisions are not shown (seed 000). These mean the reviewer found
 * the flag wrong (the rule should not have flagged); any other decision confirms it.
 */
const DISMISSED = /^(dismiss(ed)?|false[\s_-]?positive|ignored?|not[\s_-]?applicable|n\/a|invalid|rejected?|no[\s_-]?issue|overruled?)$/i;

export interface CaptureInput {
  reviewId: string;
  /** The playbook's name in the test file; default: the reviewed playbook's live name. */
  playbook?: string;
  name?: string;
  /** A local copy of the contract (`--contract`): its digest stands in when the service gives none, and must match when it does. */
  copy?: { name: string; sha256: string };
  /** The playbooks the configuration declares: their rules attribute results when the reviewed playbook cannot be read. */
  declared?: Map<string, PlaybookSubject>;
}

export interface CapturedCase {
  playbook: string;
  case: Record<string, unknown>;
}

export async function captureCase(services: Services, input: CaptureInput): Promise<CapturedCase> {
  const api = services.review();
  const review = await api.getReview(input.reviewId);
  const a = review.attributes;
  if (reviewDone(a) !== 'done') throw new DocketError('review-not-done', `review ${input.reviewId} is ${String(a.status ?? 'not completed')}; capture needs its results`, 'wait until it is completed');
  const fileId = typeof a.imported_file_id === 'string' ? a.imported_file_id : undefined;
  if (!fileId) throw new DocketError('no-imported-file', `review ${input.reviewId} names no imported file, so a case cannot refer to its contract`);
  // Read even with a local copy: a copy of another contract would cache this review for it.
  const file = await api.getImportedFile(fileId).catch((error: unknown) => {
    // A local copy stands in for a file the service cannot show (the reason --contract exists).
    if (input.copy) return undefined;
    throw error;
  });
  const given = typeof file?.attributes.sha256 === 'string' ? file.attributes.sha256.toLowerCase() : undefined;
  const copied = input.copy?.sha256.toLowerCase();
  if (given && copied && given !== copied) {
    throw new DocketError(
      'contract-mismatch',
      `--contract ${quoteValue(input.copy!.name)} is not the contract review ${input.reviewId} read: its sha256 is ${copied}, and the service gives ${given} for imported file ${fileId}`,
      'pass the local copy of the contract that was reviewed, or leave --contract out: the service gives the digest',
    );
  }
  const sha = given ?? copied;
  if (!sha) throw new DocketError('no-sha256', `the service does not give the sha256 of imported file ${fileId}`, 'pass --contract FILE with a local copy of the contract: docket reads its digest and never uploads or copies it');
  let playbook = input.playbook;
  let rules: { id?: string; name: string; description: string | null; actions: string | null; questions: string | null; generate_summary: boolean }[] = [];
  if (typeof a.playbook_id === 'string') {
    const live = await api.getPlaybook(a.playbook_id).catch(() => undefined);
    if (live) {
      playbook ??= normName(live.attributes.name);
      rules = (await api.listRules(live.id)).map((r) => ({ id: r.id, name: normName(r.attributes.name), description: r.attributes.description, actions: r.attributes.actions, questions: r.attributes.questions, generate_summary: r.attributes.generate_summary }));
    }
  }
  if (!playbook) {
    // Seed 000 shows no read of an archived playbook, and docket test archives its scratch playbooks when a run ends.
    const what = typeof a.playbook_id === 'string' ? `was made against playbook ${a.playbook_id}, which docket cannot read (archived, as a docket test scratch playbook is once its run ends, or deleted)` : 'names no playbook';
    throw new DocketError('unknown-playbook', `review ${input.reviewId} ${what}, so capture cannot tell which playbook the case tests`, 'pass --playbook NAME: the playbook, as declared in this repository, whose test file the case belongs to');
  }
  // A review made by docket test names its scratch playbook: the case tests the playbook it copies.
  const scratch = playbook.startsWith(SCRATCH_PREFIX) ? / @ [0-9a-f]{12}$/.exec(playbook) : null;
  if (scratch) playbook = playbook.slice(SCRATCH_PREFIX.length, scratch.index);
  const declared = declaredPlaybook(input.declared, playbook);
  if (declared) playbook = declared.name;
  if (rules.length === 0) rules = declared?.rules ?? [];
  const today = todaysNames(declared?.rules ?? []);
  const facts = underTodaysNames(attributeReview(review.id, a, withFormerNames(rules, declared?.rules ?? [], today)), today);
  const expect = expectationsOf(facts);
  if (Object.keys(expect).length === 0) throw new DocketError('nothing-recorded', `review ${input.reviewId} has no redline outcomes or flag decisions to capture`, 'record decisions on the review first, or write the case by hand');
  const doc: Record<string, unknown> = {
    name: input.name ?? `captured from review ${input.reviewId}`,
    contract: { imported_file: fileId, sha256: sha.toLowerCase() },
    review_type: facts.review_type,
    expect,
  };
  return { playbook, case: doc };
}

/** The declared playbook a review's playbook is: by its name, else by a `renamed_from` naming it. */
function declaredPlaybook(declared: ReadonlyMap<string, PlaybookSubject> | undefined, name: string): PlaybookSubject | undefined {
  if (!declared) return undefined;
  const key = normName(name);
  return declared.get(key) ?? [...declared.values()].find((p) => p.formerNames?.some((f) => normName(f) === key));
}

/**
 * Today's name of each former name the files' rules list in `renamed_from` (the first rule to
 * claim it); not a name a rule of the files has today (B renamed from A beside a new A: A is A).
 */
export function todaysNames(declared: readonly SubjectRule[]): Map<string, string> {
  const current = new Set(declared.map((r) => nameKey(r.name)));
  const out = new Map<string, string>();
  for (const rule of declared) for (const former of rule.formerNames ?? []) if (!out.has(nameKey(former)) && !current.has(nameKey(former))) out.set(nameKey(former), rule.name);
  return out;
}

/**
 * The rules a review is attributed to, plus each rule the files renamed under its former name:
 * a review made before the rename names the rule as it was then (a flag's text, a topic).
 */
function withFormerNames(rules: readonly SubjectRule[], declared: readonly SubjectRule[], todays: ReadonlyMap<string, string>): SubjectRule[] {
  const named = new Set(rules.map((r) => nameKey(r.name)));
  const out = [...rules];
  for (const [former, today] of todays) {
    if (named.has(former)) continue;
    const rule = rules.find((r) => nameKey(r.name) === nameKey(today)) ?? declared.find((r) => nameKey(r.name) === nameKey(today));
    if (rule) out.push({ ...rule, name: former });
  }
  return out;
}

/** The facts with every rule named as the files name it today (a former name mapped through `renamed_from`). */
function underTodaysNames(facts: ReviewFacts, today: ReadonlyMap<string, string>): ReviewFacts {
  if (today.size === 0) return facts;
  const rename = (name: string | null): string | null => (name === null ? null : (today.get(nameKey(name)) ?? name));
  return {
    ...facts,
    redlines: facts.redlines.map((r) => ({ ...r, rule: rename(r.rule), topic: r.rule === null ? r.topic : rename(r.rule)! })),
    flags: facts.flags.map((f) => ({ ...f, rule: rename(f.rule) })),
  };
}

/** Expectations from the recorded decisions: every topic's outcomes, every decided flag. */
export function expectationsOf(facts: ReviewFacts): Record<string, unknown> {
  const expect: Record<string, unknown> = {};
  const topics = new Map<string, { topic: string; outcomes: string[] }>();
  for (const r of facts.redlines) {
    if (r.evaluation === null) continue;
    // By the rule it was attributed to, as written: Term and TERM are two rules (second read SR103-2).
    const key = r.rule !== null ? `rule\0${exactNameKey(r.rule)}` : `topic\0${nameKey(r.topic)}`;
    const t = topics.get(key) ?? { topic: r.topic, outcomes: [] };
    if (!t.outcomes.includes(r.evaluation)) t.outcomes.push(r.evaluation);
    topics.set(key, t);
  }
  if (topics.size > 0) expect.redlines = [...topics.values()].map((t) => ({ topic: t.topic, evaluation: { in: t.outcomes } }));
  const includes = new Set<string>();
  const excludes = new Set<string>();
  for (const f of facts.flags) {
    if (f.decision === null || f.decision.trim() === '' || f.rule === null) continue;
    (DISMISSED.test(f.decision.trim()) ? excludes : includes).add(f.rule);
  }
  for (const r of includes) excludes.delete(r);
  if (includes.size > 0 || excludes.size > 0) expect.flags = { ...(includes.size > 0 ? { includes: [...includes] } : {}), ...(excludes.size > 0 ? { excludes: [...excludes] } : {}) };
  return expect;
}

/**
 * A case every later command would refuse is not written (probes KO-1, KO-3): one naming rules the
 * playbook does not have (--playbook names another than the review's), or holding an API key
 * someone pasted into a rule's name in the app, which a commit would carry into git.
 */
export function refuseUnreadableCase(made: CapturedCase, playbook: PlaybookSubject, reviewId: string, keys: readonly [string, string][]): void {
  const held = keyWrittenIn(stringify(made.case), keys);
  if (held) throw new DocketError('api-key-in-file', `review ${reviewId}'s results hold the value of ${held.variable}, an API key (a rule named with it in the app): the case would write it into the test file; nothing was written`, `rename the rule in the app, then capture again: ${KEYS_STAY_OUT}`);
  const expect = made.case.expect as { redlines?: { topic: string }[]; flags?: { includes?: string[]; excludes?: string[] } };
  const named = [...(expect.redlines ?? []).map((r) => r.topic), ...(expect.flags?.includes ?? []), ...(expect.flags?.excludes ?? [])];
  const rules = new Set(playbook.rules.map((r) => nameKey(r.name)));
  const unknown = [...new Set(named.filter((n) => !rules.has(nameKey(n))))];
  if (unknown.length === 0) return;
  throw new DocketError(
    'unknown-rule',
    `review ${reviewId} names ${unknown.length === 1 ? 'a rule' : 'rules'} ${unknown.slice(0, 5).map((n) => quoteValue(n, 80)).join(', ')}${unknown.length > 5 ? ` and ${unknown.length - 5} more` : ''} that playbook ${quoteValue(playbook.name, 200)} does not have: validate would refuse the case; nothing was written`,
    'pass --playbook NAME of the playbook the review was made against, or leave it out',
  );
}

/**
 * The test file (relative to `root`) with a case of the playbook whose name reports show as this
 * one's, and that case's name: validate refuses the two (duplicate-case), wherever each is (probe FL-4).
 */
export async function fileWithCaseNamed(root: string, playbook: string, name: string): Promise<{ file: string; name: string } | undefined> {
  const wanted = shownCaseName(name);
  for (const file of await findTestFiles(root)) {
    const text = await readFile(join(root, file), 'utf8').catch(() => '');
    for (const doc of parseAllDocuments(asEdited(text))) {
      const body: unknown = 'errors' in doc && doc.errors.length === 0 ? doc.toJS() : undefined;
      if (!isPlainObject(body) || body.kind !== 'PlaybookTest' || normName(String(body.playbook)) !== normName(playbook) || !Array.isArray(body.cases)) continue;
      const same = body.cases.find((c): c is { name: string } => isPlainObject(c) && typeof c.name === 'string' && shownCaseName(c.name) === wanted);
      if (same) return { file, name: same.name };
    }
  }
  return undefined;
}

/**
 * Appends the case to the file's PlaybookTest of that playbook (keeping comments), or adds one.
 * `shown`: the file as messages name it (relative to where docket runs); `tempDir`: where the new
 * file is written before it replaces the old one whole.
 */
export async function writeCapture(path: string, captured: CapturedCase, options: { shown?: string; tempDir?: string } = {}): Promise<'created' | 'appended'> {
  const shown = options.shown ?? path;
  const replace = (text: string): Promise<void> => writtenAs(shown, writeFileAtomic(path, text, options.tempDir !== undefined ? { tempDir: options.tempDir } : {}));
  let text: string | undefined;
  try {
    text = await readFile(path, 'utf8');
  } catch {
    text = undefined;
  }
  if (text === undefined || text.trim() === '') {
    await replace(stringify({ kind: 'PlaybookTest', playbook: captured.playbook, cases: [captured.case] }));
    return 'created';
  }
  // Read as pull reads a file it edits: a lone CR a line break, a byte-order mark set aside (probe EB-2).
  const docs = parseAllDocuments(asEdited(text));
  if (docs.some((d) => 'errors' in d && d.errors.length > 0)) throw new DocketError('invalid-yaml', `${shown} is not valid YAML; capture does not change it`);
  const target = docs.find((d) => {
    const body = isMap(d.contents) ? (d.toJS() as { kind?: unknown; playbook?: unknown }) : {};
    // As the test loader takes a suite's playbook: by its name, not one alike (NDA, nda; second read SR103-5).
    return body.kind === 'PlaybookTest' && normName(String(body.playbook)) === normName(captured.playbook);
  });
  if (target) {
    // (A name the file has already is refused before the review is read: fileWithCaseNamed.)
    // Edited as pull edits files: the case is lines added after the last one, every other line as it was.
    const index = docs.findIndex((d) => d === target);
    const value = documentValues(asEdited(text))[index] as Record<string, unknown>;
    let edited: string | null;
    try {
      edited = editYaml(text, { documents: new Map([[index, { ...value, cases: [...(Array.isArray(value.cases) ? value.cases : []), captured.case] }]]) }).text;
    } catch (error) {
      throw new DocketError('capture-edit', `docket could not edit ${shown} safely (${error instanceof Error ? error.message.split('\n')[0] : String(error)}); it was not changed`, 'write the case into a new file with --out');
    }
    await replace(edited ?? text);
    return 'appended';
  }
  const added = stringify({ kind: 'PlaybookTest', playbook: captured.playbook, cases: [captured.case] });
  // In the file's own line breaks: a file of lone CRs or CRLF mixed with LF could not be edited again (second read SR103-4).
  const eol = endsLinesInLoneCr(text) ? '\r' : lineBreakOf(text);
  await replace(`${text.replace(/[\r\n]*$/, eol)}---${eol}${added.replace(/\n/g, eol)}`);
  return 'appended';
}
