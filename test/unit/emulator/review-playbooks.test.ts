import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed } from '../../../src/emulator/seed.js';
import { closeAll, fields, list, one, ORG, ORG_PATH, problem, start, type Harness } from './harness.js';

afterEach(closeAll);

const OTHER_ORG = '00000000-0000-4000-8000-000000000002';

async function withPlaybook(h: Harness): Promise<string> {
  const res = await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'Inbound NDA', description: 'NDAs we receive' });
  expect(res.status).toBe(201);
  return one(res).id;
}

describe('authentication and scoping', () => {
  it('answers 401 problem+json without a key or with an unknown key', async () => {
    const h = await start();
    for (const key of [null, 'wrong-key']) {
      const res = await h.review('GET', `${ORG_PATH}/playbooks`, undefined, { key });
      expect(res.status).toBe(401);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
      expect(res.headers.get('x-request-id')).toBeTruthy();
      expect(problem(res)).toMatchObject({ status: 401, title: 'Unauthorized', type: 'https://httpproblems.com/http-status/401' });
      expect(problem(res).trace.requestId).toBe(res.headers.get('x-request-id'));
    }
  });

  it('answers 404 for another organization, even one that exists with another key', async () => {
    const seed = defaultSeed();
    seed.organizations.push({ id: OTHER_ORG, name: 'Other', api_keys: ['other-key'], users: [{ email: 'x@other.example' }] });
    const h = await start({ seed });
    expect((await h.review('GET', `/v1/organizations/${OTHER_ORG}/playbooks`)).status).toBe(404);
    expect((await h.review('GET', '/v1/organizations/11111111-1111-4111-8111-111111111111')).status).toBe(404);
    const own = await h.review('GET', `/v1/organizations/${OTHER_ORG}`, undefined, { key: 'other-key' });
    expect(own.status).toBe(200);
    const orgs = await h.review('GET', '/v1/organizations');
    expect(list(orgs).map((o) => o.id)).toEqual([ORG]);
  });

  it('answers 404 for unknown routes and 405 for a wrong method, both as problems', async () => {
    const h = await start();
    const missing = await h.review('GET', `${ORG_PATH}/nothing-here`);
    expect(missing.status).toBe(404);
    expect(problem(missing).instance).toBe(`/review${ORG_PATH}/nothing-here`);
    const wrong = await h.review('PUT', `${ORG_PATH}/playbooks`, {});
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get('allow')).toBe('GET, POST');
  });

  it('answers 400 for a body that is not JSON', async () => {
    const h = await start();
    const res = await h.review('POST', `${ORG_PATH}/playbooks`, undefined, { raw: '{"name": ' });
    expect(res.status).toBe(400);
    expect(problem(res).detail).toMatch(/not valid JSON/);
  });
});

describe('playbooks', () => {
  it('creates, reads, updates and archives; archived playbooks are not listed and 404 afterwards', async () => {
    const h = await start();
    const created = await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'Inbound NDA', description: '', ignored_key: 1 });
    expect(created.status).toBe(201);
    const pb = one(created);
    expect(pb.type).toBe('playbook');
    expect(pb.attributes).toMatchObject({ id: pb.id, name: 'Inbound NDA', description: '', organization_id: ORG });
    expect(pb.attributes.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);

    const patched = await h.review('PATCH', `${ORG_PATH}/playbooks/${pb.id}`, { description: 'NDAs we receive' });
    expect(one(patched).attributes).toMatchObject({ name: 'Inbound NDA', description: 'NDAs we receive' });
    expect(one(await h.review('GET', `${ORG_PATH}/playbooks/${pb.id}`)).attributes.description).toBe('NDAs we receive');
    expect(list(await h.review('GET', `${ORG_PATH}/playbooks`)).map((p) => p.id)).toEqual([pb.id]);

    const archived = await h.review('DELETE', `${ORG_PATH}/playbooks/${pb.id}`);
    expect(archived.status).toBe(204);
    expect(archived.body).toBeUndefined();
    expect(list(await h.review('GET', `${ORG_PATH}/playbooks`))).toEqual([]);
    expect((await h.review('GET', `${ORG_PATH}/playbooks/${pb.id}`)).status).toBe(404);
    expect((await h.review('PATCH', `${ORG_PATH}/playbooks/${pb.id}`, { name: 'x' })).status).toBe(404);
    expect((await h.review('GET', `${ORG_PATH}/playbooks/${pb.id}/playbook_rules`)).status).toBe(404);
    // Archived, not destroyed.
    expect(h.emu.store.state.organizations[ORG]?.playbooks[pb.id]?.archived_at).toBeTruthy();
  });

  it('rejects a playbook without a name, or with a name of the wrong type, with 422', async () => {
    const h = await start();
    const missing = await h.review('POST', `${ORG_PATH}/playbooks`, { description: 'x' });
    expect(missing.status).toBe(422);
    expect(fields(missing)).toEqual(['name']);
    const typed = await h.review('POST', `${ORG_PATH}/playbooks`, { name: 5, description: false });
    expect(typed.status).toBe(422);
    expect(fields(typed)).toEqual(['name', 'description']);
  });
});

describe('playbook rules', () => {
  it('creates, patches and permanently deletes a rule', async () => {
    const h = await start();
    const pid = await withPlaybook(h);
    const rules = `${ORG_PATH}/playbooks/${pid}/playbook_rules`;
    const created = await h.review('POST', rules, { name: 'Term', actions: 'ACCEPT up to 3 years', questions: 'What is the term?' });
    expect(created.status).toBe(201);
    const rule = one(created);
    expect(rule.type).toBe('playbook_rule');
    expect(rule.attributes).toMatchObject({
      name: 'Term',
      description: null,
      actions: 'ACCEPT up to 3 years',
      internal_notes: null,
      questions: 'What is the term?',
      generate_summary: true,
      reviewer_id: null,
      reviewer: null,
    });

    const patched = await h.review('PATCH', `${rules}/${rule.id}`, { internal_notes: 'Agreed with sales', questions: null });
    expect(patched.status).toBe(200);
    expect(one(patched).attributes).toMatchObject({ name: 'Term', internal_notes: 'Agreed with sales', questions: null, actions: 'ACCEPT up to 3 years' });
    expect(list(await h.review('GET', rules)).map((r) => r.id)).toEqual([rule.id]);

    expect((await h.review('DELETE', `${rules}/${rule.id}`)).status).toBe(204);
    expect((await h.review('GET', `${rules}/${rule.id}`)).status).toBe(404);
    expect(list(await h.review('GET', rules))).toEqual([]);
    expect(h.emu.store.state.organizations[ORG]?.rules[rule.id]).toBeUndefined();
  });

  it('rejects a rule without a name (seed 000 error 1)', async () => {
    const h = await start();
    const pid = await withPlaybook(h);
    const res = await h.review('POST', `${ORG_PATH}/playbooks/${pid}/playbook_rules`, { actions: 'ACCEPT' });
    expect(res.status).toBe(422);
    expect(res.headers.get('content-type')).toContain('application/problem+json');
    expect(fields(res)).toEqual(['name']);
  });

  it('requires actions unless generate_summary is true and questions are present (seed 000 error 2)', async () => {
    const h = await start();
    const pid = await withPlaybook(h);
    const rules = `${ORG_PATH}/playbooks/${pid}/playbook_rules`;
    const noQuestions = await h.review('POST', rules, { name: 'A' });
    expect(noQuestions.status).toBe(422);
    expect(fields(noQuestions)).toEqual(['actions']);
    const summaryOff = await h.review('POST', rules, { name: 'B', questions: 'Q?', generate_summary: false });
    expect(fields(summaryOff)).toEqual(['actions']);
    const ok = await h.review('POST', rules, { name: 'C', questions: 'Q?' });
    expect(ok.status).toBe(201);
    // Re-checked on the merged result of a PATCH.
    const patch = await h.review('PATCH', `${rules}/${one(ok).id}`, { generate_summary: false });
    expect(patch.status).toBe(422);
    expect(fields(patch)).toEqual(['actions']);
    const fixed = await h.review('PATCH', `${rules}/${one(ok).id}`, { generate_summary: false, actions: 'FLAG it' });
    expect(fixed.status).toBe(200);
  });

  it('rejects a reviewer_id that is not a user of the organization (seed 000 error 3)', async () => {
    const h = await start();
    const pid = await withPlaybook(h);
    const rules = `${ORG_PATH}/playbooks/${pid}/playbook_rules`;
    const res = await h.review('POST', rules, { name: 'A', actions: 'x', reviewer_id: '11111111-1111-4111-8111-111111111111' });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['reviewer_id']);
    const created = one(await h.review('POST', rules, { name: 'A', actions: 'x' }));
    const patch = await h.review('PATCH', `${rules}/${created.id}`, { reviewer_id: 'not-a-uuid' });
    expect(fields(patch)).toEqual(['reviewer_id']);
  });

  it('rejects wrong types with 422 naming each field', async () => {
    const h = await start();
    const pid = await withPlaybook(h);
    const res = await h.review('POST', `${ORG_PATH}/playbooks/${pid}/playbook_rules`, { name: 1, actions: 2, generate_summary: 'yes' });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['name', 'actions', 'generate_summary']);
  });

  it('shows the organization default reviewer when the rule has none, and the rule reviewer otherwise', async () => {
    const h = await start({ seed: defaultSeed({ users: [{ email: 'alice@acme.example' }, { email: 'bob@acme.example' }] }) });
    const users = list(await h.review('GET', `${ORG_PATH}/users`));
    const idOf = (email: string): string => users.find((u) => u.attributes.email === email)?.id ?? '';
    const pid = await withPlaybook(h);
    const rules = `${ORG_PATH}/playbooks/${pid}/playbook_rules`;
    const rule = one(await h.review('POST', rules, { name: 'Term', actions: 'x' }));
    expect(rule.attributes.reviewer).toBeNull();

    await h.review('PATCH', ORG_PATH, { default_reviewer_id: idOf('alice@acme.example') });
    expect(one(await h.review('GET', `${rules}/${rule.id}`)).attributes).toMatchObject({ reviewer_id: null, reviewer: 'alice@acme.example' });

    const own = await h.review('PATCH', `${rules}/${rule.id}`, { reviewer_id: idOf('bob@acme.example') });
    expect(one(own).attributes).toMatchObject({ reviewer_id: idOf('bob@acme.example'), reviewer: 'bob@acme.example' });

    const back = await h.review('PATCH', `${rules}/${rule.id}`, { reviewer_id: null });
    expect(one(back).attributes).toMatchObject({ reviewer_id: null, reviewer: 'alice@acme.example' });
  });

  it('serves rules only under their own playbook', async () => {
    const h = await start();
    const a = await withPlaybook(h);
    const b = one(await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'Other' })).id;
    const rule = one(await h.review('POST', `${ORG_PATH}/playbooks/${a}/playbook_rules`, { name: 'R', actions: 'x' }));
    expect((await h.review('GET', `${ORG_PATH}/playbooks/${b}/playbook_rules/${rule.id}`)).status).toBe(404);
  });
});
