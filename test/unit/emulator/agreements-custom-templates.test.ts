import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed } from '../../../src/emulator/seed.js';
import { ADMIN, startAgreements, type AgreementsHarness } from './agreements-harness.js';
import { closeAll, fields, list, one, problem } from './harness.js';

afterEach(closeAll);

const TEMPLATES = '/v1/custom_templates';

const DEFINITION = `title: Consulting Agreement
terms_label: Statement of Work
parties:
  sender: Company
  recipient: Consultant
sections:
  - heading: Services
    fields:
      scope:
        label: Scope
        input: textarea
        required: true
      start_date:
        label: Start date
        input: date
        default: "2025-01-15"
  - heading: Payment
    required: false
    included: true
    fields:
      payout_model:
        label: Payout model
        input: select
        options: [hourly, fixed]
        default: hourly
      channels:
        label: Channels
        input: multiselect
        options: [email, phone]
        default: [email]
      rate:
        label: Rate
        input: currency
        default: 150
      billing_email:
        label: Billing e-mail
        input: email
        default: billing@acme.example
  - import: governing_law
    defaults:
      governing_law_region: Delaware
      chosen_courts_region: Delaware
`;

async function createTerm(h: AgreementsHarness, name: string): Promise<string> {
  return one(await h.ag('POST', '/v1/custom_terms', { name, body: `${name} body`, term_type: 'text', user_email: ADMIN })).id;
}

async function createTemplate(h: AgreementsHarness, extra: Record<string, unknown> = {}) {
  return h.ag('POST', TEMPLATES, { name: 'Consulting', definition: DEFINITION, user_email: ADMIN, ...extra });
}

describe('custom templates', () => {
  it('creates version 1, publishes version 2 (201), and republishing the same definition is 200 with no new version', async () => {
    const h = await startAgreements();
    const created = await createTemplate(h);
    expect(created.status).toBe(201);
    const tpl = one(created);
    expect(tpl).toMatchObject({ type: 'custom_template', attributes: { name: 'Consulting', current_definition: DEFINITION, current_version_number: 1, custom_term_id: null } });
    expect(Object.keys(tpl.attributes).sort()).toEqual(['created_at', 'current_definition', 'current_version_number', 'custom_term_id', 'name', 'updated_at']);

    const v2def = DEFINITION.replace('Consulting Agreement', 'Consulting Agreement v2');
    const v2 = await h.ag('POST', `${TEMPLATES}/${tpl.id}/versions`, { definition: v2def, user_email: ADMIN });
    expect(v2.status).toBe(201);
    expect(one(v2).attributes).toMatchObject({ current_version_number: 2, current_definition: v2def });

    const same = await h.ag('POST', `${TEMPLATES}/${tpl.id}/versions`, { definition: v2def, user_email: ADMIN });
    expect(same.status).toBe(200);
    expect(one(same).attributes.current_version_number).toBe(2);
    const versions = list(await h.ag('GET', `${TEMPLATES}/${tpl.id}/versions`));
    expect(versions.map((v) => v.attributes.version_number)).toEqual([1, 2]);
    expect(versions[1]?.attributes).toMatchObject({ definition: v2def, created_by_email: ADMIN, custom_term_id: null });
    expect(list(await h.ag('GET', TEMPLATES)).map((t) => t.attributes.current_version_number)).toEqual([2]);
  });

  it('relinking terms through PATCH publishes a version with the same definition; "" unlinks', async () => {
    const h = await startAgreements({ seed: defaultSeed({ users: [{ email: 'alice@acme.example' }] }) });
    const termA = await createTerm(h, 'A');
    const termB = await createTerm(h, 'B');
    const tpl = one(await createTemplate(h, { custom_term_id: termA }));
    expect(tpl.attributes).toMatchObject({ custom_term_id: termA, current_version_number: 1 });

    const renamed = await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { name: 'Consulting 2', custom_term_id: termA });
    expect(renamed.status).toBe(200);
    expect(one(renamed).attributes).toMatchObject({ name: 'Consulting 2', current_version_number: 1 });

    const alice = list(await h.ag('GET', '/v1/users')).find((u) => u.attributes.email === 'alice@acme.example');
    const relinked = await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { custom_term_id: termB, user_id: alice?.id });
    expect(relinked.status).toBe(200);
    expect(one(relinked).attributes).toMatchObject({ custom_term_id: termB, current_version_number: 2, current_definition: DEFINITION });

    const unlinked = one(await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { custom_term_id: '' }));
    expect(unlinked.attributes).toMatchObject({ custom_term_id: null, current_version_number: 3, current_definition: DEFINITION });
    const versions = list(await h.ag('GET', `${TEMPLATES}/${tpl.id}/versions`)).map((v) => v.attributes);
    expect(versions.map((v) => [v.version_number, v.custom_term_id, v.created_by_email])).toEqual([
      [1, termA, ADMIN],
      [2, termB, 'alice@acme.example'],
      [3, null, null],
    ]);
    // Same definition, same (no) terms: nothing to publish.
    expect((await h.ag('POST', `${TEMPLATES}/${tpl.id}/versions`, { definition: DEFINITION, user_email: ADMIN })).status).toBe(200);
  });

  it('republishing the same definition after the linked terms got a new version is a new version', async () => {
    const h = await startAgreements();
    const term = await createTerm(h, 'A');
    const tpl = one(await createTemplate(h, { custom_term_id: term }));
    expect((await h.ag('POST', `${TEMPLATES}/${tpl.id}/versions`, { definition: DEFINITION, user_email: ADMIN })).status).toBe(200);
    await h.ag('POST', `/v1/custom_terms/${term}/versions`, { body: 'new', user_email: ADMIN });
    const res = await h.ag('POST', `${TEMPLATES}/${tpl.id}/versions`, { definition: DEFINITION, user_email: ADMIN });
    expect(res.status).toBe(201);
    expect(one(res).attributes.current_version_number).toBe(2);
  });

  it('rejects unknown terms, users and missing fields with 422', async () => {
    const h = await startAgreements();
    const unknownTerm = await createTemplate(h, { custom_term_id: 'no-such-term' });
    expect(unknownTerm.status).toBe(422);
    expect(fields(unknownTerm)).toEqual(['custom_term_id']);
    expect(fields(await h.ag('POST', TEMPLATES, { name: 'X', definition: DEFINITION }))).toEqual(['user_email']);
    expect(fields(await h.ag('POST', TEMPLATES, { user_email: ADMIN })).sort()).toEqual(['definition', 'name']);
    const tpl = one(await createTemplate(h));
    const badUser = await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { user_id: '00000000-0000-4000-8000-00000000ffff' });
    expect(badUser.status).toBe(422);
    expect(fields(badUser)).toEqual(['user_id']);
    expect(fields(await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { custom_term_id: 'nope' }))).toEqual(['custom_term_id']);
    expect(fields(await h.ag('PATCH', `${TEMPLATES}/${tpl.id}`, { definition: DEFINITION }))).toEqual(['definition']);
    expect(fields(await h.ag('POST', `${TEMPLATES}/${tpl.id}/versions`, { definition: DEFINITION, user_email: 'ghost@x.example' }))).toEqual(['user_email']);
    expect(one(await h.ag('GET', `${TEMPLATES}/${tpl.id}`)).attributes.current_version_number).toBe(1);
    expect((await h.ag('GET', `${TEMPLATES}/nope`)).status).toBe(404);
  });
});

describe('custom template definition validation (400 naming the field)', () => {
  const cases: { rule: string; definition: string; field: string }[] = [
    { rule: 'unknown input type', definition: DEFINITION.replace('input: textarea', 'input: paragraph'), field: 'sections[0].fields.scope.input' },
    {
      rule: 'select without options',
      definition: DEFINITION.replace('        options: [hourly, fixed]\n        default: hourly\n', ''),
      field: 'sections[1].fields.payout_model.options',
    },
    {
      rule: 'duplicate field key across sections',
      definition: DEFINITION.replace('      rate:\n', '      scope:\n'),
      field: 'sections[1].fields.scope',
    },
    { rule: 'select default not among the options', definition: DEFINITION.replace('default: hourly', 'default: weekly'), field: 'sections[1].fields.payout_model.default' },
    { rule: 'multiselect default not a list of options', definition: DEFINITION.replace('default: [email]', 'default: [fax]'), field: 'sections[1].fields.channels.default' },
    { rule: 'bad date default', definition: DEFINITION.replace('"2025-01-15"', '"2025-02-30"'), field: 'sections[0].fields.start_date.default' },
    { rule: 'bad email default', definition: DEFINITION.replace('billing@acme.example', 'billing at acme'), field: 'sections[1].fields.billing_email.default' },
    { rule: 'bad number default', definition: DEFINITION.replace('default: 150', 'default: lots'), field: 'sections[1].fields.rate.default' },
    { rule: 'unknown top-level key', definition: `${DEFINITION}footer: thanks\n`, field: 'footer' },
    { rule: 'unknown field spec key', definition: DEFINITION.replace('        label: Scope\n', '        label: Scope\n        hint: x\n'), field: 'sections[0].fields.scope.hint' },
    { rule: 'unknown import', definition: DEFINITION.replace('import: governing_law', 'import: venue'), field: 'sections[2].import' },
    { rule: 'sections not a list', definition: 'title: T\nsections:\n  heading: x\n', field: 'sections' },
    { rule: 'not a mapping', definition: '- a\n- b\n', field: 'definition' },
    { rule: 'invalid YAML', definition: 'title: [unclosed\n', field: 'definition' },
  ];

  for (const c of cases) {
    it(`${c.rule} → ${c.field}`, async () => {
      const h = await startAgreements();
      const created = await createTemplate(h, { definition: c.definition });
      expect(created.status).toBe(400);
      expect(created.headers.get('content-type')).toContain('application/problem+json');
      expect(fields(created)).toEqual([c.field]);
      expect(problem(created).detail).toContain(c.field);
      const tpl = one(await createTemplate(h));
      const version = await h.ag('POST', `${TEMPLATES}/${tpl.id}/versions`, { definition: c.definition, user_email: ADMIN });
      expect(version.status).toBe(400);
      expect(fields(version)).toEqual([c.field]);
      expect(list(await h.ag('GET', TEMPLATES))).toHaveLength(1);
    });
  }

  it('names every problem at once and accepts numeric strings for numbers', async () => {
    const h = await startAgreements();
    const bad = DEFINITION.replace('input: textarea', 'input: paragraph').replace('default: hourly', 'default: weekly');
    expect(fields(await createTemplate(h, { definition: bad }))).toEqual(['sections[0].fields.scope.input', 'sections[1].fields.payout_model.default']);
    expect((await createTemplate(h, { definition: DEFINITION.replace('default: 150', 'default: "150.50"') })).status).toBe(201);
  });
});
