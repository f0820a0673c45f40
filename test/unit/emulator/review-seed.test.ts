/** Seeded imported files and reviews (what `docket test capture --review <id>` reads). */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed, parseSeed, type EmulatorSeed, type SeedOrganization } from '../../../src/emulator/seed.js';
import { ORG, ORG_PATH, call, closeAll, list, one, problem, start } from './harness.js';
import { docx } from './documents.js';
import { STYLES, startReviews } from './reviews-harness.js';

afterEach(closeAll);

const REVIEW_ID = '11111111-1111-4111-8111-111111111111';
const REDLINE_ID = '22222222-2222-4222-8222-222222222222';

function seedWith(extra: Partial<SeedOrganization>): EmulatorSeed {
  const seed = defaultSeed();
  const org = seed.organizations[0];
  if (org) {
    org.playbooks = [{ name: 'NDA', rules: [{ name: 'Termination', actions: 'REJECT unilateral termination', questions: 'Who may end it?' }, { name: 'Governing Law', actions: 'ACCEPT Delaware' }] }];
    Object.assign(org, extra);
  }
  return seed;
}

describe.each(STYLES)('seeded reviews (%s paths)', (style) => {
  it('serves a completed summary review with recorded decisions', async () => {
    const seed = seedWith({
      imported_files: [{ id: 'f-1', filename: 'nda.txt', content: 'Termination is unilateral.' }],
      reviews: [
        {
          id: REVIEW_ID,
          playbook_name: 'NDA',
          imported_file_filename: 'nda.txt',
          summary_positions: [{ summary: 'Either party may terminate.', document_references: [{ paragraph: 1, text: 'Termination is unilateral.' }] }],
          flag_violations: [
            { rule: 'Termination', decision: 'rejected', reviewer_email: 'rita@acme.example', reasoning: 'One-sided.' },
            { rule: 'Governing Law' },
          ],
        },
      ],
    });
    const h = await startReviews(style, { seed });
    const review = one(await h.review('GET', `${h.prefix}/reviews/${REVIEW_ID}`));
    expect(review.attributes).toMatchObject({ review_type: 'SummaryReview', status: 'completed', imported_file_id: 'f-1', filename: 'nda.txt' });
    expect(review.attributes.summary_positions).toEqual([
      expect.objectContaining({ summary: 'Either party may terminate.', detailed_explanation: null, document_references: [{ paragraph: 1, text: 'Termination is unilateral.' }], summary_review_id: REVIEW_ID }),
    ]);
    const violations = list(await h.review('GET', `${h.prefix}/reviews/${REVIEW_ID}/flag_violations`));
    expect(violations.map((v) => [v.attributes.rule, v.attributes.decision, v.attributes.reviewer, v.attributes.reasoning])).toEqual([
      ['Termination', 'rejected', 'rita@acme.example', 'One-sided.'],
      ['Governing Law', null, null, null],
    ]);
    const termination = h.emu.store.organization(h.emu.store.organizationsForKey('docket-emulator-key')[0]?.id ?? '')?.rules;
    const ruleId = Object.values(termination ?? {}).find((r) => r.name === 'Termination')?.id;
    expect(violations[0]?.attributes.summary_review_flag_id).toBe(ruleId);
    expect((await h.download(`${h.prefix}/reviews/${REVIEW_ID}/download/original`)).bytes.toString()).toBe('Termination is unilateral.');
  });

  it('serves a redline review with recorded outcomes and counterproposals', async () => {
    const seed = seedWith({
      reviews: [
        {
          id: REVIEW_ID,
          playbook_name: 'NDA',
          redline_evaluations: [
            { rule_name: 'Termination', evaluation: 'counterpropose', redline_id: REDLINE_ID, comment: 'Mutual only', counterproposal: { directive: 'Make it mutual', suggested_counterproposal_text: 'Either party may terminate.' } },
            { rule_name: 'Governing Law', evaluation: 'reject', redline_id: REDLINE_ID, rejection_comment: 'Delaware only' },
          ],
        },
      ],
    });
    const h = await startReviews(style, { seed });
    const evaluations = list(await h.review('GET', `${h.prefix}/reviews/${REVIEW_ID}/redline_evaluations`));
    expect(evaluations.map((e) => e.attributes)).toEqual([
      expect.objectContaining({
        evaluation: 'counterpropose',
        redline_id: REDLINE_ID,
        comment: 'Mutual only',
        relevant_rule_topic: { id: expect.any(String), name: 'Termination', questions: 'Who may end it?' },
        counterproposal: expect.objectContaining({ directive: 'Make it mutual', suggested_counterproposal_text: 'Either party may terminate.', status: 'completed' }),
      }),
      expect.objectContaining({ evaluation: 'reject', redline_id: REDLINE_ID, rejection_comment: 'Delaware only', counterproposal: null }),
    ]);
    const review = one(await h.review('GET', `${h.prefix}/reviews/${REVIEW_ID}`));
    expect(review.attributes).toMatchObject({ review_type: 'RedlineReview', imported_file_id: null, filename: null });
    expect((await h.review('GET', `${h.prefix}/reviews/${REVIEW_ID}/download/original`)).status).toBe(404);
    expect((await h.download(`${h.prefix}/reviews/${REVIEW_ID}/download/audit`)).bytes.toString()).toContain('- Termination: **counterpropose**.');
  });
});

describe('seeded reviews', () => {
  it('runs the stand-in when a seeded review gives no results, and completes a processing one after the delay (also after a reset)', async () => {
    const seed = seedWith({
      imported_files: [{ filename: 'msa.docx', content_base64: docx([{ text: 'Termination: ', ins: 'unilateral termination' }]).toString('base64') }],
      reviews: [{ id: REVIEW_ID, playbook_name: 'NDA', imported_file_filename: 'msa.docx', status: 'processing' }],
    });
    // A long delay first, so "processing" is seen whatever the machine's load.
    const h = await startReviews('nested', { seed, reviewDelayMs: 60_000 });
    expect(one(await h.review('GET', `${h.prefix}/reviews/${REVIEW_ID}`)).attributes.status).toBe('processing');
    await h.control('PUT', '/_emulator/config', { review_delay_ms: 5 });
    await h.control('POST', '/_emulator/reset');
    const done = await h.settled(REVIEW_ID);
    expect(done.attributes).toMatchObject({ review_type: 'RedlineReview', status: 'completed' });
    expect((done.attributes.redline_evaluations as { evaluation: string }[]).map((e) => e.evaluation)).toEqual(['reject']);
  });

  it('checks the seed: types, and names that must resolve', async () => {
    const bad = { organizations: [{ id: 'o', name: 'O', api_keys: ['k'], users: [], imported_files: [{ filename: 'a' }], reviews: [{ status: 'done', redline_evaluations: [{ rule_name: 'x', evaluation: 'maybe' }], flag_violations: [{ rule: 'r', document_references: [{ paragraph: 0 }] }] }] }] };
    expect(() => parseSeed(bad)).toThrow(
      /imported_files\[0\] needs exactly one of content or content_base64.*reviews\[0\]\.status must be one of.*redline_evaluations\[0\]\.evaluation must be one of.*document_references\[0\]\.paragraph must be a whole number.*document_references\[0\]\.text must be a string/,
    );
    // A misspelt field would otherwise seed nothing, silently.
    const typo = { organizations: [{ id: 'o', name: 'O', api_keys: ['k'], users: [], playbooks: [{ name: 'NDA', rule: [] }], agreements: { custom_term: [] } }] };
    expect(() => parseSeed(typo)).toThrow(
      'invalid seed: organizations[0].playbooks[0].rule is not a seed field, did you mean `rules`?; organizations[0].agreements.custom_term is not a seed field, did you mean `custom_terms`?',
    );
    // With the other problems, in one report: not one round per kind of problem (probe ES).
    const all = { organizations: [{ id: 'not-uuid', name: 'O', api_keys: ['k'], users: [{ email: 'bad', name: 'B', role: 'admin' }], playbooks: [{ name: 'NDA', rule: [] }] }] };
    expect(() => parseSeed(all)).toThrow('invalid seed: organizations[0].playbooks[0].rule is not a seed field, did you mean `rules`?; organizations[0].id must be a UUID, as docket takes organization ids (got "not-uuid"); organizations[0].users[0].email must be an e-mail address (got "bad")');
    // Beside a wrong type or a missing field too; and a missing api_keys is said as missing (probe GE).
    const typed = { organizations: [{ id: 'acme', name: 'X', users: [{ email: 'notanemail', name: 'A' }, { email: 'b@x.example' }, { email: 'B@x.example' }], default_reviewer_email: 'nobody@x.example', playbooks: [{ name: 'P', rules: 'none' }] }] };
    expect(() => parseSeed(typed)).toThrow(
      "invalid seed: organizations[0].api_keys is missing: list the organization's API keys (an empty list: none works); organizations[0].playbooks[0].rules must be an array; organizations[0].id must be a UUID, as docket takes organization ids (got \"acme\"); organizations[0].users[0].email must be an e-mail address (got \"notanemail\"); organizations[0].users[2].email B@x.example is another user's of this organization too; organizations[0].default_reviewer_email nobody@x.example is not one of organizations[0].users",
    );
    expect(() => parseSeed({ organisations: [] })).toThrow('seed: `organizations` must be an array; seed.organisations is not a seed field, did you mean `organizations`?');
    expect(() => parseSeed({ organizations: [], companies: [] })).toThrow('seed.companies is not a seed field (variants, organizations)');
    const h = await startReviews('nested');
    const cases: [Partial<SeedOrganization>, RegExp][] = [
      [{ reviews: [{ playbook_name: 'Nope' }] }, /names unknown playbook "Nope"/],
      [{ reviews: [{ imported_file_filename: 'nope.pdf' }] }, /names unknown imported file "nope.pdf"/],
      [{ reviews: [{ playbook_name: 'NDA', redline_evaluations: [{ rule_name: 'Nope', evaluation: 'accept' }] }] }, /names "Nope", not a rule of its playbook/],
      [{ reviews: [{ redline_evaluations: [], flag_violations: [] }] }, /has results of both review types/],
      [{ reviews: [{ review_type: 'SummaryReview', redline_evaluations: [] }] }, /is a SummaryReview with results of the other type/],
    ];
    for (const [extra, message] of cases) {
      const reply = await h.control('POST', '/_emulator/reset', seedWith(extra));
      expect(reply.status).toBe(400);
      expect(problem(reply).detail).toMatch(message);
    }
  });
});

describe('an organization opened on first use (the standalone emulator)', () => {
  it('takes the seed organization\'s people and settings, not its playbooks or terms: a bootstrap into it starts from nothing (probe EF)', async () => {
    const seed = seedWith({ default_reviewer_email: 'admin@emulator.local', agreements: { organization: { name: 'Seeded' }, custom_terms: [{ name: 'Seeded term', body: 'Text' }] } });
    const { review, emu } = await start({ seed, openOrganizations: true });
    const other = '12345678-1234-4234-8234-123456789abc';
    expect(list(await review('GET', `/v1/organizations/${other}/playbooks`))).toEqual([]);
    expect(one(await review('GET', `/v1/organizations/${other}`)).attributes.default_reviewer_email).toBe('admin@emulator.local');
    const opened = emu.store.organization(other)!;
    expect([opened.agreements.organization.name, Object.keys(opened.agreements.custom_terms)]).toEqual(['Seeded', []]);
    // Its own key reaches its agreements part (an agreements key acts for the first organization it names: the shared one, the seeded one).
    expect(opened.api_keys).toContain(`docket-emulator-key-${other}`);
    // The seeded one keeps its own.
    expect(list(await review('GET', `${ORG_PATH}/playbooks`)).map((p) => p.attributes.name)).toEqual(['NDA']);
    expect(Object.values(emu.store.organization(ORG)!.agreements.custom_terms).map((t) => t.name)).toEqual(['Seeded term']);
  });

  it('follows the seed a reset loaded: its key opens organizations with its people, a removed seed\'s key opens none (probe EI)', async () => {
    const { review, control, emu } = await start({ seed: seedWith({}), openOrganizations: true });
    const second: EmulatorSeed = { organizations: [{ id: 'eeeeeeee-0000-4000-8000-000000000001', name: 'Second', api_keys: ['seedkey-second-999999'], users: [{ email: 'zed@second.example', role: 'admin' }] }] };
    expect((await control('POST', '/_emulator/reset', second)).status).toBe(200);
    const fresh = '12345678-1234-4234-8234-000000000009';
    expect(list(await review('GET', `/v1/organizations/${fresh}/playbooks`, undefined, { key: 'seedkey-second-999999' }))).toEqual([]);
    const users = list(await review('GET', `/v1/organizations/${fresh}/users`, undefined, { key: 'seedkey-second-999999' }));
    expect(users.map((u) => u.attributes.email)).toEqual(['zed@second.example']);
    expect((await review('GET', '/v1/organizations/12345678-1234-4234-8234-000000000008')).status).toBe(401);
    // Its own key opens an organization too, on its first request whatever the path (the agreements
    // service names none), and with that key alone: the shared key sees what it saw (probe EL).
    const own = '12345678-1234-4234-8234-00000000000a';
    const ownKey = { key: `docket-emulator-key-${own}` };
    expect((await call(`${emu.url}/agreements/v1/custom_terms`, 'GET', undefined, ownKey)).status).toBe(200);
    expect(list(await review('GET', `/v1/organizations/${own}/playbooks`, undefined, ownKey))).toEqual([]);
    expect(list(await review('GET', '/v1/organizations', undefined, ownKey)).map((o) => o.id)).toEqual([own]);
    expect(emu.store.organization(own)!.api_keys).toEqual([`docket-emulator-key-${own}`]);
  });

  it('opens none on a path that is no route (nested paths under flat routes): a 404 changes nothing (probe OL-1)', async () => {
    const { review, emu } = await start({ seed: seedWith({}), openOrganizations: true, variants: { reviewPaths: 'flat' } });
    const other = '12345678-1234-4234-8234-00000000000b';
    expect((await review('GET', `/v1/organizations/${other}/playbooks`)).status).toBe(404);
    expect(emu.store.organization(other)).toBeUndefined();
    // Nor with its own key, which opens one on a route whatever the organization it names (second read SR80B-6).
    const own = { key: `docket-emulator-key-${other}` };
    expect((await review('GET', `/v1/organizations/${other}/playbooks`, undefined, own)).status).not.toBe(200);
    expect(emu.store.organization(other)).toBeUndefined();
    expect((await review('GET', '/v1/playbooks', undefined, own)).status).toBe(200);
    expect(emu.store.organization(other)).toBeDefined();
  });

  it('answers 404 to a path that is no route before its key opens the organization: not 401, which reads as a bad key (probe PD-3)', async () => {
    const { review, emu } = await start({ seed: seedWith({}), openOrganizations: true, variants: { reviewUsers: false } });
    const unopened = '12345678-1234-4234-8234-00000000000c';
    // With its own key, which no organization knows yet.
    expect((await review('GET', `/v1/organizations/${unopened}/users`, undefined, { key: null })).status).toBe(401);
    // A key that is none is refused as such, route or not (second read SR81B-2).
    expect((await review('GET', `/v1/organizations/${unopened}/users`, undefined, { key: 'wrong' })).status).toBe(401);
    expect(emu.store.organization(unopened)).toBeUndefined();
    // With its own key, which no organization knows yet.
    expect((await review('GET', `/v1/organizations/${unopened}/users`, undefined, { key: `docket-emulator-key-${unopened}` })).status).toBe(404);
    // The path names an organization the real service has, though this variant lists no users: it is
    // opened, and the organizations list the run reads next shows it, with the shared key too (probe DE-2).
    expect(emu.store.organization(unopened)).toBeDefined();
    const shared = '12345678-1234-4234-8234-00000000000d';
    expect((await review('GET', `/v1/organizations/${shared}/users`)).status).toBe(404);
    expect(list(await review('GET', '/v1/organizations')).map((o) => o.id)).toContain(shared);
  });
});
