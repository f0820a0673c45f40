/**
 * Every seed error condition of the emulator routes `docket test` uses (issue 12), over plain HTTP
 * against one emulator. Seeds 000 and 001 were read line by line; each condition below names the
 * seed line and the test that covers it.
 *
 * Seed 000 (review service): imported files, reviews, redline evaluations, flag violations, downloads.
 *  R1  "Every operation requires the header Authorization"              → requires the API key on every review route
 *  R2  "Access is scoped to the organization in the path"; "results are
 *      limited to the current organization"                            → answers 404 for another organization's path and records
 *  R3  imported file: upload is multipart with a part named `file`      → refuses an imported file that is not a multipart upload of a non-empty `file` part
 *  R4  "Bodies are JSON"; create review JSON body: `imported_file_id`
 *      required (a uuid of the organization's imported files)          → refuses a review without a known imported_file_id
 *  R5  multipart body: "the part name must be `file`"                   → refuses a review upload whose part is not named file
 *  R6  `playbook_id` uuid (a playbook of the organization; not archived) → refuses a review of an unknown or archived playbook
 *  R7  `review_type` RedlineReview or SummaryReview                     → refuses an unknown review_type
 *  R8  MCP mint body: `filename` required, no control characters (Errors 7) → refuses a mint filename that is blank or holds control characters
 *  R9  review list paged by `page[number]` with pagination object and
 *      links; list attributes omit the results                         → pages the review list and refuses a malformed page
 *  R10 get one review: results only from the single-review operation    → gets one review with its results; 404 for an unknown one
 *  R11 redline evaluation PATCH: a `type` among five actions            → records each of the five actions, and refuses another type
 *  R12 optional string `comment`                                        → refuses a comment that is not a string
 *  R13 counterpropose: exactly one of `directive` / `new_text`, each branch
 *      disallows extra properties (Errors 5)                           → refuses a counterproposal with both, neither, or an extra key
 *  R14 flag violation PATCH `decision`; `reviewer` reflects the recorder → records a decision and refuses a blank one
 *  R15 unknown evaluation / violation                                   → 404 for evaluations and violations the review does not have
 *  R16 the four downloads                                               → serves the four downloads of a completed review, and only the original before
 *  Seed 000 Errors 1-4 and 6 (rules, organization, invitations) are not routes of issue 12; their
 *  tests are in test/unit/emulator/review-playbooks.test.ts and review-organization.test.ts.
 *
 * Seed 001 (agreements service), the operations template tests use:
 *  A1  "`Authorization` header is required on every operation"          → requires the API key on every agreement route
 *  A2  `template_id` required, from the template list (standard or custom) → refuses a missing or unknown template_id
 *  A3  owner/signer "exactly one of e-mail or user id"; "Any owner form may
 *      be combined with any signer form (four combinations)"; Errors:
 *      "owner or signer not given by exactly one of id or e-mail"       → takes owner and signer in all four forms, and refuses both or neither
 *  A4  "Users named as owner, signer … must belong to the caller's organization" → refuses an owner or signer outside the organization
 *  A5  `agreement` object required                                      → refuses a create without an agreement object
 *  A6  Errors: custom-template value invalid for its input type → 400 naming
 *      the field (select/radio options, multiselect, number/currency, date, email) → 400 naming each field whose value does not fit its input type
 *  A7  Errors: required custom-template field with no default and no value → 400 naming the field
 *      ("template defaults fill omitted fields")                       → 400 naming a required field without value or default; defaults fill the rest
 *  A8  custom template field values "only for custom templates"         → refuses custom_field_values on a standard template
 *  A9  Errors/Versioning: CSA 3.x attribute under its pre-3.0 name, or the
 *      reverse → 422                                                   → refuses a CSA attribute spelled for the other standard_version
 *  A10 payment_link_url "requires include_billing_workflow true and type `link`";
 *      include_expiration_type `none`/`days`/`date`                    → refuses a payment link without the link workflow and an unknown expiration type
 *  A11 `draft` true: saved, not sent; `test_agreement`; Limits: test agreements
 *      do not count against the monthly limit                          → creates drafts and test agreements; only real ones meet the monthly limit
 *  A12 Pagination: page[number] > 0, bare `page` = page number, any other
 *      form of `page` (`page[]=2`) → 400; Errors: page not scalar → 400 → pages and filters the agreement list, and refuses a malformed page or filter
 *  A13 list "filtered and sorted by created_at, status, agreement_type" → (same test)
 *  A14 get, void ("no longer valid"), history (who, when, description) → gets, voids and shows the history of an agreement; 404 for an unknown one
 *  A15 per-type override objects "only valid for a matching template"  → refuses an override object for another type than the template's
 *  Seed 001 Errors on draft updates (`default_signer_email`, term attribute `id`) and custom template
 *  updates (`user_id`) are not operations template tests use: the emulator does not serve draft
 *  updates, and custom template updates are tested in test/unit/emulator/agreements-custom-templates.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY } from '../../src/emulator/server.js';
import { ACTOR, startTestEmulator, type TestEmulator } from '../helpers/emulator.js';

const ORG = DEFAULT_ORGANIZATION_ID;
const OTHER_ORG = '00000000-0000-4000-8000-0000000000b2';
const OTHER_KEY = 'other-organization-key';
const OUTSIDER = 'outsider@beta.example';

const PLAYBOOK = '10000000-0000-4000-8000-000000000001';
const ARCHIVED = '10000000-0000-4000-8000-000000000002';
const FILE = '20000000-0000-4000-8000-000000000001';
const REDLINE = '30000000-0000-4000-8000-000000000001';
const SUMMARY = '30000000-0000-4000-8000-000000000002';
const PROCESSING = '30000000-0000-4000-8000-000000000003';
const OTHER_REVIEW = '30000000-0000-4000-8000-0000000000b2';
const EVALUATION = '40000000-0000-4000-8000-000000000001';
const VIOLATION = '50000000-0000-4000-8000-000000000001';

const NDA = '60000000-0000-4000-8000-000000000001';
const CSA3 = '60000000-0000-4000-8000-000000000002';
const CSA2 = '60000000-0000-4000-8000-000000000003';
const CUSTOM = '60000000-0000-4000-8000-000000000004';
const OTHER_TEMPLATE = '60000000-0000-4000-8000-0000000000b2';

const DEFINITION = `title: Consulting
sections:
  - heading: Engagement
    required: true
    fields:
      services_summary: { label: Services, input: textarea, required: true }
      start_date: { label: Start, input: date, required: true }
      billing_model: { label: Billing, input: select, required: true, options: [Fixed fee, Hourly], default: Fixed fee }
      delivery: { label: Delivery, input: radio, options: [Remote, On site] }
      modules: { label: Modules, input: multiselect, options: [Migration, Training] }
      hourly_rate: { label: Rate, input: currency }
      headcount: { label: People, input: number }
      billing_contact: { label: Billing contact, input: email }
`;

let emu: TestEmulator;
let review: string;
let agreements: string;

beforeAll(async () => {
  emu = await startTestEmulator({
    // Reviews made here stay processing: nothing in this file waits for one.
    reviewDelayMs: 60_000,
    seed: (seed) => {
      const org = seed.organizations[0]!;
      org.playbooks = [
        {
          id: PLAYBOOK,
          name: 'Inbound NDA',
          rules: [
            { name: 'Term', actions: 'NEEDS REVIEW when the term is perpetual' },
            { name: 'Governing Law', actions: 'REJECT Louisiana' },
          ],
        },
        { id: ARCHIVED, name: 'Old NDA', archived: true, rules: [{ name: 'Term', actions: 'ACCEPT' }] },
      ];
      org.imported_files = [{ id: FILE, filename: 'nda.txt', content: 'The term is perpetual. Governing law: Louisiana.' }];
      org.reviews = [
        {
          id: REDLINE,
          review_type: 'RedlineReview',
          playbook_name: 'Inbound NDA',
          imported_file_filename: 'nda.txt',
          redline_evaluations: [{ id: EVALUATION, rule_name: 'Term', evaluation: 'needs_review', commentary: 'perpetual' }],
        },
        {
          id: SUMMARY,
          review_type: 'SummaryReview',
          playbook_name: 'Inbound NDA',
          imported_file_filename: 'nda.txt',
          summary_positions: [{ summary: 'The term is perpetual.' }],
          flag_violations: [{ id: VIOLATION, rule: 'Term', reasoning: 'perpetual' }],
        },
        { id: PROCESSING, playbook_name: 'Inbound NDA', imported_file_filename: 'nda.txt', status: 'processing' },
      ];
      org.agreements = {
        templates: [
          { id: NDA, type: 'NDA', name: 'Mutual NDA' },
          { id: CSA3, type: 'CSA', name: 'Cloud 3', standard_version: '3.0' },
          { id: CSA2, type: 'CSA', name: 'Cloud 2', standard_version: '2.1' },
        ],
        custom_templates: [{ id: CUSTOM, name: 'Consulting', definition: DEFINITION }],
        monthly_agreement_limit: 1,
      };
      seed.organizations.push({
        id: OTHER_ORG,
        name: 'Beta',
        api_keys: [OTHER_KEY],
        users: [{ email: OUTSIDER, role: 'admin' }],
        playbooks: [{ name: 'Beta NDA', rules: [{ name: 'Term', actions: 'ACCEPT' }] }],
        imported_files: [{ filename: 'beta.txt', content: 'Beta contract.' }],
        reviews: [{ id: OTHER_REVIEW, playbook_name: 'Beta NDA', imported_file_filename: 'beta.txt', summary_positions: [{ summary: 'x' }] }],
        agreements: { templates: [{ id: OTHER_TEMPLATE, type: 'NDA', name: 'Beta NDA' }] },
      });
    },
  });
  review = `${emu.emulator.reviewUrl}/v1/organizations/${ORG}`;
  agreements = `${emu.emulator.agreementsUrl}/v1`;
});

afterAll(async () => {
  await emu.emulator.close();
});

interface Answer {
  status: number;
  // The emulator's JSON, read loosely: each test asserts the members it cares about.
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any -- JSON bodies of many shapes
  headers: Headers;
  bytes: Buffer;
}

async function call(method: string, url: string, body?: unknown, key: string | null = EMULATOR_API_KEY): Promise<Answer> {
  const headers: Record<string, string> = {};
  if (key !== null) headers.authorization = `Bearer ${key}`;
  let payload: string | FormData | undefined;
  if (body instanceof FormData) payload = body;
  else if (body !== undefined) {
    headers['content-type'] = 'application/json';
    payload = JSON.stringify(body);
  }
  const res = await fetch(url, { method, headers, ...(payload === undefined ? {} : { body: payload }) });
  const bytes = Buffer.from(await res.arrayBuffer());
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString('utf8'));
  } catch {
    parsed = undefined;
  }
  return { status: res.status, body: parsed, headers: res.headers, bytes };
}

/** The fields a 4xx names (`errors[].field`). */
function fields(a: Answer): string[] {
  return ((a.body?.errors ?? []) as { field: string }[]).map((e) => e.field);
}

function expectRefused(a: Answer, status: number, field: string): void {
  expect(a.status, JSON.stringify(a.body)).toBe(status);
  expect(fields(a)).toContain(field);
}

function upload(name: string, filename: string | null, content = 'A contract.'): FormData {
  const form = new FormData();
  if (filename === null) form.append(name, content);
  else form.append(name, new Blob([content], { type: 'text/plain' }), filename);
  return form;
}

describe('seed 000: imported files and reviews', () => {
  it('requires the API key on every review route (R1)', async () => {
    for (const path of ['/imported_files', '/reviews', `/reviews/${REDLINE}`, `/reviews/${REDLINE}/redline_evaluations`, `/reviews/${SUMMARY}/flag_violations`, `/reviews/${REDLINE}/download/original`]) {
      expect((await call('GET', `${review}${path}`, undefined, null)).status, path).toBe(401);
      expect((await call('GET', `${review}${path}`, undefined, 'not-a-key')).status, path).toBe(401);
    }
    expect((await call('POST', `${review}/reviews`, { imported_file_id: FILE }, null)).status).toBe(401);
    expect((await call('PATCH', `${review}/reviews/${SUMMARY}/flag_violations/${VIOLATION}`, { decision: 'accepted' }, null)).status).toBe(401);
  });

  it('answers 404 for another organization’s path and records (R2)', async () => {
    const other = `${emu.emulator.reviewUrl}/v1/organizations/${OTHER_ORG}`;
    expect((await call('GET', `${other}/reviews`)).status).toBe(404);
    expect((await call('GET', `${other}/imported_files`)).status).toBe(404);
    expect((await call('GET', `${review}/reviews/${OTHER_REVIEW}`)).status).toBe(404);
    expect((await call('GET', `${review}/reviews/${OTHER_REVIEW}/download/original`)).status).toBe(404);
    const theirs = await call('GET', `${other}/reviews/${OTHER_REVIEW}`, undefined, OTHER_KEY);
    expect(theirs.status).toBe(200);
    expectRefused(await call('POST', `${review}/reviews`, { imported_file_id: theirs.body.data.attributes.imported_file_id, playbook_id: PLAYBOOK }), 422, 'imported_file_id');
  });

  it('refuses an imported file that is not a multipart upload of a non-empty `file` part (R3)', async () => {
    expect((await call('POST', `${review}/imported_files`, { file: 'A contract.' })).status).toBe(400);
    expectRefused(await call('POST', `${review}/imported_files`, upload('document', 'nda.txt')), 422, 'file');
    expectRefused(await call('POST', `${review}/imported_files`, upload('file', null)), 422, 'file');
    expectRefused(await call('POST', `${review}/imported_files`, upload('file', 'empty.txt', '')), 422, 'file');
    const made = await call('POST', `${review}/imported_files`, upload('file', 'msa.txt'));
    expect(made.status).toBe(201);
    expect((await call('GET', `${review}/imported_files/${made.body.data.id}`)).body.data.attributes).toMatchObject({ filename: 'msa.txt', byte_size: 11 });
    expect((await call('GET', `${review}/imported_files/no-such-file`)).status).toBe(404);
    const listed = await call('GET', `${review}/imported_files`);
    expect(listed.body.data.map((f: { id: string }) => f.id)).toEqual(expect.arrayContaining([FILE, made.body.data.id]));
  });

  it('refuses a review without a known imported_file_id (R4)', async () => {
    expectRefused(await call('POST', `${review}/reviews`, { playbook_id: PLAYBOOK }), 422, 'imported_file_id');
    const notJson = await fetch(`${review}/reviews`, { method: 'POST', headers: { authorization: `Bearer ${EMULATOR_API_KEY}`, 'content-type': 'application/json' }, body: '{"imported_file_id": ' });
    expect(notJson.status).toBe(400);
    expectRefused(await call('POST', `${review}/reviews`, { imported_file_id: '', playbook_id: PLAYBOOK }), 422, 'imported_file_id');
    expectRefused(await call('POST', `${review}/reviews`, { imported_file_id: 42, playbook_id: PLAYBOOK }), 422, 'imported_file_id');
    expectRefused(await call('POST', `${review}/reviews`, { imported_file_id: '20000000-0000-4000-8000-00000000dead', playbook_id: PLAYBOOK }), 422, 'imported_file_id');
    const made = await call('POST', `${review}/reviews`, { imported_file_id: FILE, playbook_id: PLAYBOOK, review_type: 'SummaryReview' });
    expect(made.status).toBe(201);
    expect(made.body.data.attributes).toMatchObject({ review_type: 'SummaryReview', imported_file_id: FILE, playbook_id: PLAYBOOK });
  });

  it('refuses a review upload whose part is not named file (R5)', async () => {
    const wrong = upload('document', 'nda.txt');
    wrong.append('playbook_id', PLAYBOOK);
    expectRefused(await call('POST', `${review}/reviews`, wrong), 422, 'file');
    const right = upload('file', 'nda.txt');
    right.append('playbook_id', PLAYBOOK);
    expect((await call('POST', `${review}/reviews`, right)).status).toBe(201);
  });

  it('refuses a review of an unknown or archived playbook (R6)', async () => {
    expectRefused(await call('POST', `${review}/reviews`, { imported_file_id: FILE, playbook_id: '10000000-0000-4000-8000-00000000dead' }), 422, 'playbook_id');
    expectRefused(await call('POST', `${review}/reviews`, { imported_file_id: FILE, playbook_id: ARCHIVED }), 422, 'playbook_id');
  });

  it('refuses an unknown review_type (R7)', async () => {
    expectRefused(await call('POST', `${review}/reviews`, { imported_file_id: FILE, playbook_id: PLAYBOOK, review_type: 'QuickReview' }), 422, 'review_type');
  });

  it('refuses a mint filename that is blank or holds control characters (R8)', async () => {
    for (const filename of ['', '   ', 'nda\n.docx', 'nda\u0000.docx', 'nda\u007f.pdf', 'nda\u009b.pdf']) {
      expectRefused(await call('POST', `${review}/reviews`, { filename, playbook_id: PLAYBOOK }), 422, 'filename');
    }
    const minted = await call('POST', `${review}/reviews`, { filename: "/tmp/o'brien nda.docx", playbook_id: PLAYBOOK });
    expect(minted.status).toBe(200);
    expect(minted.body.curl_command).toContain(`'@/tmp/o'\\''brien nda.docx'`);
  });

  it('pages the review list and refuses a malformed page (R9)', async () => {
    const first = await call('GET', `${review}/reviews?page[size]=2`);
    expect(first.status).toBe(200);
    const { records, last } = first.body.meta.pagination;
    expect(first.body.meta.pagination).toEqual({ current: 1, next: 2, last: Math.ceil(records / 2), records });
    expect(records).toBeGreaterThanOrEqual(3);
    expect(first.body.links.self).toBe(`${review}/reviews`);
    expect(first.body.links.next).toContain('page%5Bnumber%5D=2');
    expect(first.body.data.every((r: { attributes: Record<string, unknown> }) => !('redline_evaluations' in r.attributes) && !('summary_positions' in r.attributes) && !('flag_violations' in r.attributes))).toBe(true);
    const end = await call('GET', `${review}/reviews?page[size]=2&page[number]=${last}`);
    expect(end.body.meta.pagination.next).toBeNull();
    expect(end.body.links.next).toBeNull();
    expect((await call('GET', `${review}/reviews?page=2&page[size]=2`)).body.meta.pagination.current).toBe(2);
    for (const query of ['page[number]=0', 'page[number]=-1', 'page[number]=two', 'page[]=2', 'page[number]=1&page[number]=2']) {
      expect((await call('GET', `${review}/reviews?${query}`)).status, query).toBe(400);
    }
  });

  it('gets one review with its results; 404 for an unknown one (R10)', async () => {
    const redline = await call('GET', `${review}/reviews/${REDLINE}`);
    expect(redline.body.data.attributes).toMatchObject({ review_type: 'RedlineReview', redline_evaluations: [{ id: EVALUATION, relevant_rule_topic: { name: 'Term' } }] });
    const summary = await call('GET', `${review}/reviews/${SUMMARY}`);
    expect(summary.body.data.attributes).toMatchObject({ review_type: 'SummaryReview', summary_positions: [{ summary: 'The term is perpetual.' }], flag_violations: [{ id: VIOLATION, rule: 'Term' }] });
    expect((await call('GET', `${review}/reviews/30000000-0000-4000-8000-00000000dead`)).status).toBe(404);
  });
});

describe('seed 000: redline evaluations and flag violations', () => {
  const evaluation = () => `${review}/reviews/${REDLINE}/redline_evaluations/${EVALUATION}`;
  const violation = () => `${review}/reviews/${SUMMARY}/flag_violations/${VIOLATION}`;

  it('records each of the five actions, and refuses another type (R11)', async () => {
    for (const type of ['accept', 'reject', 'manual', 'needs_review']) {
      const done = await call('PATCH', evaluation(), { type, comment: `${type} it` });
      expect(done.status).toBe(200);
      expect(done.body.data.attributes).toMatchObject({ evaluation: type, comment: `${type} it` });
    }
    const countered = await call('PATCH', evaluation(), { type: 'counterpropose', counterproposal: { new_text: 'A term of five years.' } });
    expect(countered.body.data.attributes).toMatchObject({ evaluation: 'counterpropose', counterproposal: { directive: null, suggested_counterproposal_text: null, status: 'processing' } });
    expect((await call('GET', evaluation())).body.data.attributes.evaluation).toBe('counterpropose');
    for (const body of [{}, { type: 'approve' }, { type: 'ACCEPT' }, { type: null }, { type: ['accept'] }]) {
      expectRefused(await call('PATCH', evaluation(), body), 422, 'type');
    }
  });

  it('refuses a comment that is not a string (R12)', async () => {
    expectRefused(await call('PATCH', evaluation(), { type: 'accept', comment: 42 }), 422, 'comment');
    expectRefused(await call('PATCH', evaluation(), { type: 'accept', comment: { text: 'x' } }), 422, 'comment');
    expect((await call('PATCH', evaluation(), { type: 'accept' })).status).toBe(200);
  });

  it('refuses a counterproposal with both, neither, or an extra key (R13)', async () => {
    const both = await call('PATCH', evaluation(), { type: 'counterpropose', counterproposal: { directive: 'Make it mutual', new_text: 'Mutual.' } });
    expectRefused(both, 422, 'counterproposal');
    expect(both.body.errors[0].message).toMatch(/exactly one of directive or new_text/);
    expectRefused(await call('PATCH', evaluation(), { type: 'counterpropose', counterproposal: {} }), 422, 'counterproposal');
    expectRefused(await call('PATCH', evaluation(), { type: 'counterpropose' }), 422, 'counterproposal');
    expectRefused(await call('PATCH', evaluation(), { type: 'counterpropose', counterproposal: { directive: 'Mutual', tone: 'firm' } }), 422, 'counterproposal.tone');
    expectRefused(await call('PATCH', evaluation(), { type: 'counterpropose', counterproposal: { directive: '' } }), 422, 'counterproposal.directive');
    expectRefused(await call('PATCH', evaluation(), { type: 'accept', counterproposal: { directive: 'Mutual' } }), 422, 'counterproposal');
    const directed = await call('PATCH', evaluation(), { type: 'counterpropose', counterproposal: { directive: 'Make it mutual' }, comment: 'see directive' });
    expect(directed.body.data.attributes).toMatchObject({ comment: 'see directive', counterproposal: { directive: 'Make it mutual', status: 'processing' } });
  });

  it('records a decision and refuses a blank one (R14)', async () => {
    for (const body of [{}, { decision: '' }, { decision: '  ' }, { decision: 7 }, { decision: null }]) {
      expectRefused(await call('PATCH', violation(), body), 422, 'decision');
    }
    const decided = await call('PATCH', violation(), { decision: 'accepted_risk' });
    expect(decided.status).toBe(200);
    expect(decided.body.data.attributes).toMatchObject({ decision: 'accepted_risk', reviewer: expect.stringContaining('@') });
    const listed = await call('GET', `${review}/reviews/${SUMMARY}/flag_violations`);
    expect(listed.body.data).toMatchObject([{ id: VIOLATION, attributes: { decision: 'accepted_risk' } }]);
  });

  it('404 for evaluations and violations the review does not have (R15)', async () => {
    expect((await call('GET', `${review}/reviews/${REDLINE}/redline_evaluations/nope`)).status).toBe(404);
    expect((await call('PATCH', `${review}/reviews/${REDLINE}/redline_evaluations/nope`, { type: 'accept' })).status).toBe(404);
    expect((await call('GET', `${review}/reviews/${SUMMARY}/redline_evaluations/${EVALUATION}`)).status).toBe(404);
    expect((await call('PATCH', `${review}/reviews/${REDLINE}/flag_violations/${VIOLATION}`, { decision: 'x' })).status).toBe(404);
    expect((await call('GET', `${review}/reviews/${PROCESSING}/flag_violations`)).body.data).toEqual([]);
    expect((await call('GET', `${review}/reviews/30000000-0000-4000-8000-00000000dead/redline_evaluations`)).status).toBe(404);
  });

  it('serves the four downloads of a completed review, and only the original before (R16)', async () => {
    for (const what of ['bundle', 'audit', 'processed', 'original']) {
      const got = await call('GET', `${review}/reviews/${SUMMARY}/download/${what}`);
      expect(got.status, what).toBe(200);
      expect(got.headers.get('content-disposition'), what).toMatch(/^attachment; filename="/);
    }
    expect((await call('GET', `${review}/reviews/${SUMMARY}/download/original`)).bytes.toString('utf8')).toBe('The term is perpetual. Governing law: Louisiana.');
    expect((await call('GET', `${review}/reviews/${SUMMARY}/download/bundle`)).bytes.subarray(0, 2).toString('latin1')).toBe('PK');
    for (const what of ['bundle', 'audit', 'processed']) expect((await call('GET', `${review}/reviews/${PROCESSING}/download/${what}`)).status, what).toBe(409);
    expect((await call('GET', `${review}/reviews/${PROCESSING}/download/original`)).status).toBe(200);
    expect((await call('GET', `${review}/reviews/${SUMMARY}/download/pdf`)).status).toBe(404);
  });
});

describe('seed 001: agreements', () => {
  const draft = (agreement: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) => ({
    template_id: NDA,
    owner_email: ACTOR,
    signer_email: ACTOR,
    draft: true,
    agreement: { test_agreement: true, ...agreement },
    ...extra,
  });
  const create = (body: unknown, key?: string) => call('POST', `${agreements}/agreements`, body, key);

  it('requires the API key on every agreement route (A1)', async () => {
    const made = await create(draft());
    expect(made.status).toBe(201);
    const id = made.body.data.id as string;
    for (const [method, path] of [
      ['GET', '/agreements'],
      ['POST', '/agreements'],
      ['GET', `/agreements/${id}`],
      ['PATCH', `/agreements/${id}/void`],
      ['GET', `/agreements/${id}/history`],
    ] as const) {
      expect((await call(method, `${agreements}${path}`, method === 'POST' ? draft() : undefined, null)).status, path).toBe(401);
    }
    expect((await call('GET', `${agreements}/agreements/${id}`)).body.data.attributes.status).toBe('draft');
  });

  it('refuses a missing or unknown template_id (A2)', async () => {
    expectRefused(await create(draft({}, { template_id: undefined })), 422, 'template_id');
    expectRefused(await create(draft({}, { template_id: '60000000-0000-4000-8000-00000000dead' })), 422, 'template_id');
    expectRefused(await create(draft({}, { template_id: OTHER_TEMPLATE })), 422, 'template_id');
  });

  it('takes owner and signer in all four forms, and refuses both or neither (A3)', async () => {
    const users = await call('GET', `${agreements}/users`);
    const actorId = (users.body.data as { id: string; attributes: { email: string } }[]).find((u) => u.attributes.email === ACTOR)!.id;
    for (const parties of [
      { owner_email: ACTOR, signer_email: ACTOR },
      { owner_id: actorId, signer_email: ACTOR },
      { owner_email: ACTOR, signer_id: actorId },
      { owner_id: actorId, signer_id: actorId },
    ]) {
      const body = { template_id: NDA, draft: true, agreement: { test_agreement: true }, ...parties };
      const made = await create(body);
      expect(made.status, JSON.stringify(parties)).toBe(201);
      expect(made.body.data.attributes).toMatchObject({ owner_email: ACTOR, signer_email: ACTOR, owner_id: actorId, signer_id: actorId });
    }
    for (const role of ['owner', 'signer']) {
      const both = draft({}, { [`${role}_id`]: actorId });
      expectRefused(await create(both), 422, `${role}_id`);
      const neither = draft({}, { [`${role}_email`]: undefined });
      expectRefused(await create(neither), 422, `${role}_email`);
    }
  });

  it('refuses an owner or signer outside the organization (A4)', async () => {
    expectRefused(await create(draft({}, { owner_email: OUTSIDER })), 422, 'owner_email');
    expectRefused(await create(draft({}, { signer_email: OUTSIDER })), 422, 'signer_email');
    expectRefused(await create(draft({}, { signer_email: undefined, signer_id: '70000000-0000-4000-8000-00000000dead' })), 422, 'signer_id');
  });

  it('refuses a create without an agreement object (A5)', async () => {
    expectRefused(await create(draft({}, { agreement: undefined })), 422, 'agreement');
    expectRefused(await create(draft({}, { agreement: 'test' })), 422, 'agreement');
  });

  const custom = (values: Record<string, unknown>) => draft({ custom_field_values: values }, { template_id: CUSTOM });
  const VALID = { services_summary: 'Data migration', start_date: '2027-01-15' };

  it('400 naming each field whose value does not fit its input type (A6)', async () => {
    for (const [field, value] of [
      ['billing_model', 'Retainer'],
      ['delivery', 'Hybrid'],
      ['modules', 'Migration'],
      ['modules', ['Migration', 'Hosting']],
      ['hourly_rate', 'lots'],
      ['headcount', 'three'],
      ['start_date', '15/01/2027'],
      ['billing_contact', 'not an address'],
    ] as const) {
      const refused = await create(custom({ ...VALID, [field]: value }));
      expect(refused.status, `${field}=${JSON.stringify(value)}`).toBe(400);
      expect(fields(refused)).toEqual([field]);
      expect(refused.body.detail).toContain(field);
    }
    const fine = await create(custom({ ...VALID, delivery: 'Remote', modules: ['Training'], hourly_rate: '150.50', headcount: 3, billing_contact: 'ap@globex.example' }));
    expect(fine.status, JSON.stringify(fine.body)).toBe(201);
  });

  it('400 naming a required field without value or default; defaults fill the rest (A7)', async () => {
    const missing = await create(custom({ services_summary: 'Data migration' }));
    expect(missing.status).toBe(400);
    expect(fields(missing)).toEqual(['start_date']);
    const blank = await create(custom({ services_summary: '', start_date: '2027-01-15' }));
    expect(blank.status).toBe(400);
    expect(fields(blank)).toEqual(['services_summary']);
    const filled = await create(custom(VALID));
    expect(filled.status).toBe(201);
    expect(filled.body.data.attributes.custom_field_values).toEqual({ ...VALID, billing_model: 'Fixed fee' });
  });

  it('refuses custom_field_values on a standard template (A8)', async () => {
    expectRefused(await create(draft({ custom_field_values: VALID })), 422, 'agreement.custom_field_values');
  });

  it('refuses a CSA attribute spelled for the other standard_version (A9)', async () => {
    const csa = (template: string, agreement: Record<string, unknown>) => create(draft(agreement, { template_id: template }));
    const old = await csa(CSA3, { include_increased_cap_amount: true });
    expectRefused(old, 422, 'agreement.include_increased_cap_amount');
    expect(old.body.errors[0].message).toContain('include_supercap');
    expectRefused(await csa(CSA3, { include_unlimited_claims_other: 'fraud' }), 422, 'agreement.include_unlimited_claims_other');
    expectRefused(await csa(CSA3, { csa: { increased_cap_amount_qty: 2 } }), 422, 'agreement.csa.increased_cap_amount_qty');
    expect((await csa(CSA3, { include_supercap: true, supercap_qty: 2 })).status).toBe(201);
    const renamed = await csa(CSA2, { include_supercap: true });
    expectRefused(renamed, 422, 'agreement.include_supercap');
    expect(renamed.body.errors[0].message).toContain('include_increased_cap_amount');
    expect((await csa(CSA2, { include_increased_cap_amount: true })).status).toBe(201);
    // Not a CSA: the names are nobody's business.
    expect((await csa(NDA, { include_supercap: true })).status).toBe(201);
    // A template made over the API (as docket apply makes it) is checked the same way.
    const made = await call('POST', `${agreements}/templates`, { type: 'CSA', name: 'Cloud 3 (API)', standard_version: '3.0', template_csa_order_form_attributes: { cloud_service_description: 'x' } });
    expect(made.status).toBe(201);
    expectRefused(await csa(made.body.data.id, { include_increased_cap_amount: true }), 422, 'agreement.include_increased_cap_amount');
  });

  it('refuses an override object for another type than the template’s (A15)', async () => {
    expectRefused(await create(draft({ csa: { provider: 'Acme' } })), 422, 'agreement.csa');
    expectRefused(await create(draft({ dpa_attributes: { include_security_policy: true } }, { template_id: CSA2 })), 422, 'agreement.dpa_attributes');
    expectRefused(await create(draft({ custom_field_values: VALID, psa_statement_of_work_attributes: {} }, { template_id: CUSTOM })), 422, 'agreement.psa_statement_of_work_attributes');
    expectRefused(await create(draft({ csa: 'Acme' }, { template_id: CSA2 })), 422, 'agreement.csa');
    const fitting = await create(draft({ csa: { provider: 'Acme' }, csa_order_form_attributes: { subscription_period: 2 } }, { template_id: CSA2 }));
    expect(fitting.status, JSON.stringify(fitting.body)).toBe(201);
  });

  it('refuses a payment link without the link workflow and an unknown expiration type (A10)', async () => {
    expectRefused(await create(draft({ payment_link_url: 'https://pay.example/x' })), 422, 'agreement.payment_link_url');
    expectRefused(await create(draft({ payment_link_url: 'https://pay.example/x', include_billing_workflow: true, billing_workflow_type: 'processor' })), 422, 'agreement.payment_link_url');
    expect((await create(draft({ payment_link_url: 'https://pay.example/x', include_billing_workflow: true, billing_workflow_type: 'link' }))).status).toBe(201);
    expectRefused(await create(draft({ include_expiration_type: 'weeks' })), 422, 'agreement.include_expiration_type');
    expectRefused(await create(draft({ test_agreement: 'yes' })), 422, 'agreement.test_agreement');
    expectRefused(await create(draft({}, { draft: 'yes' })), 422, 'draft');
  });

  it('creates drafts and test agreements; only real ones meet the monthly limit (A11)', async () => {
    const real = await create(draft({ test_agreement: false }));
    expect(real.status).toBe(201);
    expect(real.body.data.attributes).toMatchObject({ status: 'draft', test_agreement: false, sent_at: null });
    const over = await create(draft({ test_agreement: false }));
    expect(over.status).toBe(403);
    expect(over.body.detail).toMatch(/plan limit/);
    const test = await create(draft());
    expect(test.status).toBe(201);
    expect(test.body.data.attributes).toMatchObject({ status: 'draft', test_agreement: true });
  });

  it('pages and filters the agreement list, and refuses a malformed page or filter (A12, A13)', async () => {
    const csa = await create(draft({}, { template_id: CSA2 }));
    expect(csa.status).toBe(201);
    const ids = async (query: string): Promise<string[]> => {
      const got = await call('GET', `${agreements}/agreements?${query}`);
      expect(got.status, query).toBe(200);
      return got.body.data.map((a: { id: string }) => a.id);
    };
    const all = await ids('page[size]=100');
    expect(all.length).toBeGreaterThan(4);
    const page = await call('GET', `${agreements}/agreements?page[size]=2&page[number]=2`);
    expect(page.body.meta.pagination).toMatchObject({ current: 2, records: all.length, last: Math.ceil(all.length / 2) });
    expect(page.body.data.map((a: { id: string }) => a.id)).toEqual(all.slice(2, 4));
    expect(await ids('page=2&page[size]=2')).toEqual(all.slice(2, 4));
    expect((await call('GET', `${agreements}/agreements`)).body.data.length).toBe(Math.min(15, all.length));
    for (const query of ['page[]=2', 'page[number]=0', 'page[number]=x', 'page[foo]=1', 'page=1&page=2']) {
      const refused = await call('GET', `${agreements}/agreements?${query}`);
      expect(refused.status, query).toBe(400);
      expect(refused.body.detail, query).toMatch(/page/);
    }
    expect(await ids(`filter[agreement_type_eq]=csa&page[size]=100`)).toContain(csa.body.data.id);
    expect(await ids(`filter[agreement_type_eq]=csa&page[size]=100`)).not.toContain(all.find((id) => id !== csa.body.data.id && id !== undefined));
    const drafts = await ids('filter[status_eq]=draft&page[size]=100');
    expect(drafts).toEqual(all);
    expect(await ids('filter[status_not_eq]=draft')).toEqual([]);
    expect(await ids(`filter[created_at_gt]=2999-01-01`)).toEqual([]);
    expect(await ids('sort=-created_at&page[size]=100')).toEqual([...all].reverse());
    expectRefused(await call('GET', `${agreements}/agreements?filter[recipient_name_eq]=x`), 422, 'filter[recipient_name_eq]');
    expectRefused(await call('GET', `${agreements}/agreements?sort=recipient_name`), 422, 'sort');
  });

  it('gets, voids and shows the history of an agreement; 404 for an unknown one (A14)', async () => {
    const made = (await create(draft({ recipient_name: 'Globex' }))).body.data.id as string;
    const got = await call('GET', `${agreements}/agreements/${made}`);
    expect(got.body.data.attributes).toMatchObject({ status: 'draft', recipient_name: 'Globex', test_agreement: true, template_id: NDA });
    const voided = await call('PATCH', `${agreements}/agreements/${made}/void`);
    expect(voided.status).toBe(200);
    expect(voided.body.data.attributes).toMatchObject({ status: 'voided', voided_at: expect.any(String) });
    expectRefused(await call('PATCH', `${agreements}/agreements/${made}/void`), 422, 'status');
    const history = await call('GET', `${agreements}/agreements/${made}/history`);
    expect(history.body.data.map((e: { attributes: { event: string; user_email: string; created_at: string } }) => e.attributes.event)).toEqual(['created', 'voided']);
    expect(history.body.data[0].attributes).toMatchObject({ agreement_id: made, user_email: ACTOR, description: expect.stringContaining('Draft created') });
    const unknown = '80000000-0000-4000-8000-00000000dead';
    for (const [method, path] of [
      ['GET', `/agreements/${unknown}`],
      ['PATCH', `/agreements/${unknown}/void`],
      ['GET', `/agreements/${unknown}/history`],
    ] as const) {
      expect((await call(method, `${agreements}${path}`)).status, path).toBe(404);
    }
    expect((await call('GET', `${agreements}/agreements/${made}`, undefined, OTHER_KEY)).status).toBe(404);
  });
});
