/** Agreements of the agreements service: create (drafts, tests, custom values), read, list, void, history. */
import { afterEach, describe, expect, it } from 'vitest';
import { customFieldValues } from '../../../src/emulator/agreement-values.js';
import { defaultSeed, parseSeed, type EmulatorSeed } from '../../../src/emulator/seed.js';
import { ADMIN, startAgreements, type AgreementsHarness } from './agreements-harness.js';
import { closeAll, fields, list, one, problem } from './harness.js';

afterEach(closeAll);

const AGREEMENTS = '/v1/agreements';
const SIGNER = 'sam@acme.example';

const DEFINITION = `title: Referral Agreement
sections:
  - heading: Program
    required: true
    fields:
      program_summary: { label: Summary, input: textarea, required: true }
      payout_model: { label: Payout model, input: select, required: true, options: ["Flat fee", "Percentage"] }
      payout_amount: { label: Amount, input: currency, required: true }
      start_date: { label: Start, input: date, required: true, default: "2026-01-01" }
      channels: { label: Channels, input: multiselect, options: [email, events], default: [email] }
      contact: { label: Contact, input: email }
      tier: { label: Tier, input: radio, options: [gold, silver] }
      notes_header: { label: Notes, input: header }
  - heading: Co-marketing
    required: false
    included: false
    fields:
      comarketing_terms: { label: Terms, input: markdown, required: true }
  - import: governing_law
    defaults: { governing_law_region: Delaware }
`;

function seed(extra: (s: EmulatorSeed) => void = () => undefined): EmulatorSeed {
  const s = defaultSeed({ users: [{ email: SIGNER, name: 'Sam' }] });
  const org = s.organizations[0];
  if (org) {
    org.agreements = {
      templates: [{ id: 'nda-template', type: 'NDA', name: 'Mutual NDA' }, { id: 'csa-template', type: 'CSA', name: 'Cloud' }],
      custom_templates: [{ id: 'referral', name: 'Referral', definition: DEFINITION }],
    };
  }
  extra(s);
  return s;
}

const VALUES = { program_summary: 'Refer customers', payout_model: 'Flat fee', payout_amount: '150.50' };

function body(extra: Record<string, unknown> = {}, agreement: Record<string, unknown> = {}): Record<string, unknown> {
  return { template_id: 'nda-template', owner_email: ADMIN, signer_email: SIGNER, draft: true, agreement: { test_agreement: true, recipient_name: 'Bob', recipient_email: 'bob@beta.example', ...agreement }, ...extra };
}

async function create(h: AgreementsHarness, extra: Record<string, unknown> = {}, agreement: Record<string, unknown> = {}) {
  return h.ag('POST', AGREEMENTS, body(extra, agreement));
}

describe('create', () => {
  it('creates a draft test agreement from a standard template, readable by id', async () => {
    const h = await startAgreements({ seed: seed() });
    const reply = await create(h);
    expect(reply.status).toBe(201);
    const a = one(reply);
    expect(a).toMatchObject({
      type: 'agreement',
      attributes: { agreement_type: 'nda', status: 'draft', template_id: 'nda-template', custom_template_id: null, owner_email: ADMIN, signer_email: SIGNER, test_agreement: true, recipient_name: 'Bob', sent_at: null, voided_at: null, custom_field_values: null },
    });
    expect(one(await h.ag('GET', `${AGREEMENTS}/${a.id}`))).toEqual(a);
    expect((await h.ag('GET', `${AGREEMENTS}/nope`)).status).toBe(404);
  });

  it('accepts every owner and signer form, and refuses anything but exactly one of id or e-mail (422)', async () => {
    const h = await startAgreements({ seed: seed() });
    const users = list(await h.ag('GET', '/v1/users'));
    const id = (email: string) => users.find((u) => u.attributes.email === email)?.id;
    for (const owner of [{ owner_email: ADMIN }, { owner_id: id(ADMIN) }]) {
      for (const signer of [{ signer_email: SIGNER }, { signer_id: id(SIGNER) }]) {
        const reply = await h.ag('POST', AGREEMENTS, { ...body(), owner_email: undefined, signer_email: undefined, ...owner, ...signer });
        expect([reply.status, one(reply).attributes.owner_email, one(reply).attributes.signer_email]).toEqual([201, ADMIN, SIGNER]);
      }
    }
    const cases: [Record<string, unknown>, { field: string; message: string }[]][] = [
      [{ owner_email: ADMIN, owner_id: id(ADMIN) }, [{ field: 'owner_id', message: 'send exactly one of owner_email or owner_id, not both' }]],
      [{ owner_email: undefined }, [{ field: 'owner_email', message: 'owner_email or owner_id is required (exactly one)' }]],
      [{ signer_email: undefined, signer_id: id(SIGNER), signer_email_x: 1 }, []],
      [{ signer_email: SIGNER, signer_id: id(SIGNER) }, [{ field: 'signer_id', message: 'send exactly one of signer_email or signer_id, not both' }]],
      [{ signer_email: undefined }, [{ field: 'signer_email', message: 'signer_email or signer_id is required (exactly one)' }]],
      [{ owner_email: 'stranger@else.example' }, [{ field: 'owner_email', message: 'is not a user of the organization' }]],
      [{ signer_email: undefined, signer_id: 'nope' }, [{ field: 'signer_id', message: 'is not a user of the organization' }]],
    ];
    for (const [extra, errors] of cases) {
      const reply = await create(h, extra);
      if (errors.length === 0) expect(reply.status).toBe(201);
      else expect([reply.status, problem(reply).errors], JSON.stringify(extra)).toEqual([422, errors]);
    }
  });

  it('checks the template, the body and the documented agreement fields (422)', async () => {
    const h = await startAgreements({ seed: seed() });
    const cases: [Record<string, unknown>, Record<string, unknown>, string[]][] = [
      [{ template_id: undefined }, {}, ['template_id']],
      [{ template_id: 'nope' }, {}, ['template_id']],
      [{ agreement: 'x' }, {}, ['agreement']],
      [{ draft: 'yes' }, {}, ['draft']],
      [{ cc_users: [1] }, {}, ['cc_users']],
      [{}, { recipient_email: 'not-an-address', test_agreement: 'yes', include_expiration_type: 'weeks', include_expiration_days: 0 }, ['agreement.recipient_email', 'agreement.test_agreement', 'agreement.include_expiration_type', 'agreement.include_expiration_days']],
      [{}, { include_expiration_date: '2026-02-30', payment_link_url: 'https://pay.example' }, ['agreement.include_expiration_date', 'agreement.payment_link_url']],
      [{}, { custom_field_values: { a: 1 } }, ['agreement.custom_field_values']],
      [{ draft: false }, { recipient_email: undefined }, ['agreement.recipient_email']],
    ];
    for (const [extra, agreement, expected] of cases) {
      const reply = await create(h, extra, agreement);
      expect([reply.status, fields(reply)], JSON.stringify([extra, agreement])).toEqual([422, expected]);
    }
    const paid = await create(h, {}, { include_billing_workflow: true, billing_workflow_type: 'link', payment_link_url: 'https://pay.example', cc_users: undefined });
    expect(paid.status).toBe(201);
    const cc = await create(h, { cc_users: ['c@beta.example', { email: 'd@beta.example' }] });
    expect(one(cc).attributes.cc_users).toEqual(['c@beta.example', 'd@beta.example']);
  });

  it('sends a non-draft (or marks it sent outside the platform), with a history event', async () => {
    const h = await startAgreements({ seed: seed() });
    const sent = one(await create(h, { draft: false }));
    expect(sent.attributes).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
    const manual = one(await create(h, { draft: false }, { manual_send: true, recipient_email: undefined }));
    expect(manual.attributes).toMatchObject({ status: 'sent', manual_send: true });
    const history = list(await h.ag('GET', `${AGREEMENTS}/${sent.id}/history`));
    expect(history.map((e) => e.attributes)).toEqual([expect.objectContaining({ agreement_id: sent.id, event: 'sent', description: `Sent to bob@beta.example by ${ADMIN}`, user_email: ADMIN })]);
    expect(list(await h.ag('GET', `${AGREEMENTS}/${manual.id}/history`))[0]?.attributes.description).toBe(`Marked as sent outside the platform by ${ADMIN}`);
  });
});

describe('custom template values', () => {
  it('fills defaults, keeps what was sent and pins the template version', async () => {
    const h = await startAgreements({ seed: seed() });
    const reply = await create(h, { template_id: 'referral' }, { custom_field_values: { ...VALUES, channels: ['email', 'events'], governing_law_region: 'New York' } });
    expect(reply.status).toBe(201);
    expect(one(reply).attributes).toMatchObject({
      agreement_type: 'custom',
      template_id: null,
      custom_template_id: 'referral',
      custom_template_version_number: 1,
      custom_field_values: { ...VALUES, start_date: '2026-01-01', channels: ['email', 'events'], governing_law_region: 'New York' },
    });
  });

  it('answers 400 naming the field for a missing required value or a value of the wrong kind', async () => {
    const h = await startAgreements({ seed: seed() });
    const cases: [Record<string, unknown>, { field: string; message: string }][] = [
      [{ payout_model: undefined }, { field: 'payout_model', message: 'is required (the template gives no default)' }],
      [{ program_summary: '' }, { field: 'program_summary', message: 'is required (the template gives no default)' }],
      [{ payout_model: 'Hourly' }, { field: 'payout_model', message: 'must be one of the options: Flat fee, Percentage' }],
      [{ tier: 'bronze' }, { field: 'tier', message: 'must be one of the options: gold, silver' }],
      [{ channels: ['email', 'fax'] }, { field: 'channels', message: 'must be a list of options among: email, events' }],
      [{ channels: 'email' }, { field: 'channels', message: 'must be a list of options among: email, events' }],
      [{ payout_amount: 'lots' }, { field: 'payout_amount', message: 'must be a number' }],
      [{ start_date: '01/02/2026' }, { field: 'start_date', message: 'must be a date written YYYY-MM-DD' }],
      [{ contact: 'nobody' }, { field: 'contact', message: 'must be an e-mail address' }],
      [{ program_summary: 5 }, { field: 'program_summary', message: 'must be text' }],
      [{ colour: 'red' }, { field: 'colour', message: 'is not a field of the custom template' }],
      [{ notes_header: 'x' }, { field: 'notes_header', message: 'is a header and takes no value' }],
    ];
    for (const [change, error] of cases) {
      const reply = await create(h, { template_id: 'referral' }, { custom_field_values: { ...VALUES, ...change } });
      expect([reply.status, problem(reply).errors, problem(reply).detail], JSON.stringify(change)).toEqual([400, [error], `invalid custom template field value: ${error.field} ${error.message}`]);
    }
    expect(list(await h.ag('GET', AGREEMENTS))).toEqual([]);
  });

  it('checks values on their own too (the pure function)', () => {
    expect(customFieldValues(DEFINITION, undefined).errors.map((e) => e.field)).toEqual(['program_summary', 'payout_model', 'payout_amount']);
    expect(customFieldValues(DEFINITION, ['x']).errors).toEqual([{ field: 'custom_field_values', message: 'must be an object keyed by the template field keys' }]);
    expect(customFieldValues(DEFINITION, { ...VALUES, payout_amount: 12 }).values).toEqual({ ...VALUES, payout_amount: 12, start_date: '2026-01-01', channels: ['email'], governing_law_region: 'Delaware' });
    expect(customFieldValues(DEFINITION, { ...VALUES, chosen_courts_region: 3 }).errors).toEqual([{ field: 'chosen_courts_region', message: 'must be a string' }]);
  });

  it('does not see custom templates when the feature is off', async () => {
    const h = await startAgreements({ seed: seed((s) => s.organizations[0] && (s.organizations[0].features = { custom_terms: false })) });
    expect(fields(await create(h, { template_id: 'referral' }, { custom_field_values: VALUES }))).toEqual(['template_id']);
    expect(list(await h.ag('GET', '/v1/agreement_types')).some((t) => t.attributes.custom === true)).toBe(false);
  });
});

describe('list, void, history, types and statuses', () => {
  it('lists paged, filtered (Ransack style) and sorted', async () => {
    const h = await startAgreements({ seed: seed() });
    const nda = one(await create(h));
    const csa = one(await create(h, { template_id: 'csa-template', draft: false }));
    const custom = one(await create(h, { template_id: 'referral' }, { custom_field_values: VALUES }));
    const ids = (path: string) => h.ag('GET', path).then((r) => list(r).map((a) => a.id));
    expect(await ids(AGREEMENTS)).toEqual([nda.id, csa.id, custom.id]);
    const page = (await h.ag('GET', `${AGREEMENTS}?page[size]=2&filter[status_eq]=draft`)).body as { data: { id: string }[]; meta: { pagination: unknown }; links: { next: string | null } };
    expect(page.data.map((a) => a.id)).toEqual([nda.id, custom.id]);
    expect(page.meta.pagination).toEqual({ current: 1, next: null, last: 1, records: 2 });
    expect(await ids(`${AGREEMENTS}?filter[agreement_type_eq]=csa`)).toEqual([csa.id]);
    expect(await ids(`${AGREEMENTS}?filter[agreement_type_in][]=csa&filter[agreement_type_in][]=custom`)).toEqual([csa.id, custom.id]);
    expect(await ids(`${AGREEMENTS}?filter[agreement_type_in]=nda,csa&filter[status_not_eq]=sent`)).toEqual([nda.id]);
    expect(await ids(`${AGREEMENTS}?filter[created_at_gteq]=2000-01-01&filter[created_at_lt]=2000-01-02`)).toEqual([]);
    expect(await ids(`${AGREEMENTS}?sort=-agreement_type`)).toEqual([nda.id, custom.id, csa.id]);
    expect(await ids(`${AGREEMENTS}?sort=status,-agreement_type`)).toEqual([nda.id, custom.id, csa.id]);
    expect(await ids(`${AGREEMENTS}?sort=-status`)).toEqual([csa.id, nda.id, custom.id]);
    const bad = await h.ag('GET', `${AGREEMENTS}?filter[owner_eq]=x&sort=owner`);
    expect([bad.status, fields(bad)]).toEqual([422, ['filter[owner_eq]', 'sort']]);
    expect((await h.ag('GET', `${AGREEMENTS}?page[]=1`)).status).toBe(400);
  });

  it('voids an agreement once, recording who and when', async () => {
    const h = await startAgreements({ seed: seed() });
    const a = one(await create(h));
    const voided = await h.ag('PATCH', `${AGREEMENTS}/${a.id}/void`);
    expect(voided.status).toBe(200);
    expect(one(voided).attributes).toMatchObject({ status: 'voided', voided_at: expect.any(String) });
    const again = await h.ag('PATCH', `${AGREEMENTS}/${a.id}/void`);
    expect([again.status, fields(again)]).toEqual([422, ['status']]);
    expect((await h.ag('PATCH', `${AGREEMENTS}/nope/void`)).status).toBe(404);
    const history = list(await h.ag('GET', `${AGREEMENTS}/${a.id}/history`)).map((e) => [e.attributes.event, e.attributes.user_email]);
    expect(history).toEqual([
      ['created', ADMIN],
      ['voided', ADMIN],
    ]);
    const b = one(await create(h));
    const all = list(await h.ag('GET', '/v1/agreement_history')).map((e) => [e.attributes.agreement_id, e.attributes.event]);
    expect(all).toEqual([
      [a.id, 'created'],
      [a.id, 'voided'],
      [b.id, 'created'],
    ]);
    expect((await h.ag('GET', `${AGREEMENTS}/nope/history`)).status).toBe(404);
  });

  it('lists agreement types (custom templates too) and statuses', async () => {
    const h = await startAgreements({ seed: seed() });
    const types = list(await h.ag('GET', '/v1/agreement_types'));
    expect(types.map((t) => t.attributes.value)).toEqual(['nda', 'csa', 'dpa', 'psa', 'design', 'software_license', 'pilot', 'partnership', 'baa', 'loi', 'custom']);
    expect(types.at(-1)?.attributes).toMatchObject({ name: 'Referral', custom: true, custom_template_id: 'referral' });
    expect(list(await h.ag('GET', '/v1/agreement_statuses')).map((s) => s.id)).toEqual(['draft', 'sent', 'viewed', 'signed', 'completed', 'declined', 'voided']);
  });

  it('limits non-test agreements per month when the seed says so; test agreements do not count', async () => {
    const h = await startAgreements({ seed: seed((s) => s.organizations[0]?.agreements && (s.organizations[0].agreements.monthly_agreement_limit = 1)) });
    expect((await create(h, {}, { test_agreement: false })).status).toBe(201);
    const over = await create(h, {}, { test_agreement: false });
    expect([over.status, problem(over).detail]).toEqual([403, "You've reached your plan limit: 1 agreements this month (test agreements do not count)"]);
    expect((await create(h)).status).toBe(201);
    expect(() => parseSeed(seed((s) => s.organizations[0]?.agreements && (s.organizations[0].agreements.monthly_agreement_limit = -1)))).toThrow(/monthly_agreement_limit must be a whole number of at least 0/);
  });
});
