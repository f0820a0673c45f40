/** The emulator playing each documented shape of the real services (src/emulator/variants.ts). */
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed, parseSeed } from '../../../src/emulator/seed.js';
import { startAgreements } from './agreements-harness.js';
import { closeAll, list, one, ORG, ORG_PATH, problem } from './harness.js';

afterEach(closeAll);

const TEMPLATES = '/v1/templates';

describe('review path styles', () => {
  it('nested routes exist only in the nested style, flat ones only in the flat style', async () => {
    const nested = await startAgreements();
    expect((await nested.review('GET', `${ORG_PATH}/playbooks`)).status).toBe(200);
    expect((await nested.review('GET', '/v1/playbooks')).status).toBe(404);
    expect((await nested.review('GET', '/v1/organization')).status).toBe(404);

    const flat = await startAgreements({ variants: { reviewPaths: 'flat' } });
    expect((await flat.review('GET', `${ORG_PATH}/playbooks`)).status).toBe(404);
    expect((await flat.review('GET', '/v1/organizations')).status).toBe(404);
    expect(one(await flat.review('GET', '/v1/organization')).id).toBe(ORG);
    const pb = one(await flat.review('POST', '/v1/playbooks', { name: 'NDA' }));
    const rule = one(await flat.review('POST', `/v1/playbooks/${pb.id}/playbook_rules`, { name: 'Term', actions: 'ACCEPT' }));
    expect(list(await flat.review('GET', `/v1/playbooks/${pb.id}/playbook_rules`)).map((r) => r.id)).toEqual([rule.id]);
    expect((await flat.review('PATCH', '/v1/organization', { name: 'Renamed' })).status).toBe(200);
    expect(flat.emu.store.organization(ORG)!.name).toBe('Renamed');
  });

  it('without a users list, …/users is a 404 and invitations name the invited user', async () => {
    const h = await startAgreements({ variants: { reviewUsers: false } });
    expect((await h.review('GET', `${ORG_PATH}/users`)).status).toBe(404);
    const inv = one(await h.review('POST', `${ORG_PATH}/invitations`, { email: 'dave@acme.example' }));
    expect(inv.relationships).toEqual({ user: { data: { type: 'user', id: h.emu.store.userByEmail('dave@acme.example')!.id } } });
  });

  it('keeps archived playbooks in the list, with archived_at, when asked to', async () => {
    const h = await startAgreements({ variants: { listArchived: true } });
    const pb = one(await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'Old' }));
    expect((await h.review('DELETE', `${ORG_PATH}/playbooks/${pb.id}`)).status).toBe(204);
    const [listed] = list(await h.review('GET', `${ORG_PATH}/playbooks`));
    expect(listed?.attributes.archived_at).toEqual(expect.any(String));
    expect((await h.review('GET', `${ORG_PATH}/playbooks/${pb.id}`)).status).toBe(404);
  });
});

describe('more review shapes', () => {
  it('names the invited user as attributes.user_id when asked to', async () => {
    const h = await startAgreements({ variants: { reviewUsers: false, invitationUserAt: 'attribute' } });
    const inv = one(await h.review('POST', `${ORG_PATH}/invitations`, { email: 'dave@acme.example' }));
    expect(inv.attributes.user_id).toBe(h.emu.store.userByEmail('dave@acme.example')!.id);
    expect(inv).not.toHaveProperty('relationships');
  });

  it('marks listed archived playbooks with archived: true or status: archived when asked to', async () => {
    for (const [marker, archived, active] of [
      ['archived', { archived: true }, { archived: false }],
      ['status', { status: 'archived' }, { status: 'active' }],
    ] as const) {
      const h = await startAgreements({ variants: { listArchived: true, archivedMarker: marker } });
      const old = one(await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'Old' }));
      one(await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'New' }));
      await h.review('DELETE', `${ORG_PATH}/playbooks/${old.id}`);
      const listed = list(await h.review('GET', `${ORG_PATH}/playbooks`));
      expect(listed.find((p) => p.id === old.id)!.attributes).toMatchObject(archived);
      expect(listed.find((p) => p.id !== old.id)!.attributes).toMatchObject(active);
      expect(listed[0]!.attributes).not.toHaveProperty('archived_at');
    }
  });

  it('keeps only the documented rule fields when asked to, dropping the others without a word', async () => {
    const h = await startAgreements({ variants: { ruleFields: 'documented' } });
    const pb = one(await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'NDA' }));
    const created = await h.review('POST', `${ORG_PATH}/playbooks/${pb.id}/playbook_rules`, { name: 'Term', actions: 'ACCEPT', internal_notes: 'kept?', generate_summary: false });
    expect(created.status).toBe(201);
    expect(one(created).attributes).toMatchObject({ name: 'Term', actions: 'ACCEPT', internal_notes: null, generate_summary: true });
    const patched = one(await h.review('PATCH', `${ORG_PATH}/playbooks/${pb.id}/playbook_rules/${one(created).id}`, { description: 'd', questions: 'q?' }));
    expect(patched.attributes).toMatchObject({ description: 'd', questions: null });
  });
});

describe('templates', () => {
  it('generic types: type `template`, a lower-case agreement_type and standard_version beside the attributes', async () => {
    const h = await startAgreements({ variants: { templateTypes: 'generic' } });
    const created = await h.ag('POST', TEMPLATES, { type: 'Software License', name: 'SLA' });
    expect(created.status).toBe(201);
    const t = one(created) as { type: string; attributes: Record<string, unknown>; standard_version?: unknown };
    expect(t.type).toBe('template');
    expect(t.attributes.agreement_type).toBe('software_license');
    expect(t.attributes).not.toHaveProperty('standard_version');
    expect(t).toHaveProperty('standard_version', null);
  });

  it('attribute types: type `template`, the type only as attributes.type', async () => {
    const h = await startAgreements({ variants: { templateTypes: 'attribute' } });
    const t = one(await h.ag('POST', TEMPLATES, { type: 'Software License', name: 'SLA' })) as { type: string; attributes: Record<string, unknown> };
    expect(t.type).toBe('template');
    expect(t.attributes.type).toBe('Software License');
    expect(t.attributes).not.toHaveProperty('agreement_type');
  });

  it('nested objects read under their read names and, when asked, replaced whole on update', async () => {
    const h = await startAgreements({ variants: { nestedReadNames: true, nestedUpdate: 'replace' } });
    const t = one(await h.ag('POST', TEMPLATES, { type: 'CSA', name: 'CSA', template_csa_order_form_attributes: { cloud_service_description: 'x', fees_currency: 'EUR' } }));
    expect(t.attributes.template_csa_order_form).toEqual({ cloud_service_description: 'x', fees_currency: 'EUR' });
    expect(t.attributes).not.toHaveProperty('template_csa_order_form_attributes');
    const patched = one(await h.ag('PATCH', `${TEMPLATES}/${t.id}`, { template_csa_order_form_attributes: { fees_currency: 'USD' } }));
    expect(patched.attributes.template_csa_order_form).toEqual({ fees_currency: 'USD' });
  });
});

describe('paging', () => {
  async function users(paging: 'links' | 'meta' | 'none') {
    const h = await startAgreements({ variants: { paging }, seed: defaultSeed({ users: [{ email: 'a@acme.example' }, { email: 'b@acme.example' }] }) });
    return (await h.ag('GET', '/v1/users?page[size]=1')).body as Record<string, unknown>;
  }

  it('answers with links only, meta only, or every item with no paging members', async () => {
    const links = await users('links');
    expect(links).toHaveProperty('links');
    expect(links).not.toHaveProperty('meta');
    const meta = await users('meta');
    expect(meta).toHaveProperty('meta');
    expect(meta).not.toHaveProperty('links');
    const none = await users('none');
    expect(Object.keys(none)).toEqual(['data']);
    expect((none.data as unknown[]).length).toBeGreaterThan(1);
  });

  it('pages without saying so when hidden, and puts its links on a backend host when asked to', async () => {
    const seed = defaultSeed({ users: [{ email: 'a@acme.example' }, { email: 'b@acme.example' }] });
    const hidden = await startAgreements({ variants: { paging: 'hidden' }, seed });
    const first = (await hidden.ag('GET', '/v1/users?page[size]=1')).body as Record<string, unknown[]>;
    expect(Object.keys(first)).toEqual(['data']);
    expect(first.data).toHaveLength(1);
    const second = (await hidden.ag('GET', '/v1/users?page[size]=1&page[number]=2')).body as Record<string, { id: string }[]>;
    expect(second.data![0]!.id).not.toBe((first.data![0] as { id: string }).id);
    const other = await startAgreements({ variants: { linksOrigin: 'other' }, seed });
    const links = ((await other.ag('GET', '/v1/users?page[size]=1')).body as { links: Record<string, string> }).links;
    expect(new URL(links.next!).origin).toBe('http://backend.internal:8080');
    expect(new URL(links.next!).pathname).toBe('/agreements/v1/users');
  });

  it('refuses a page size above the maximum with a 400 naming page[size]', async () => {
    const h = await startAgreements({ variants: { maxPageSize: 50 } });
    const reply = await h.ag('GET', '/v1/users?page[size]=100');
    expect(reply.status).toBe(400);
    expect(problem(reply).errors).toEqual([{ field: 'page[size]', message: 'must be at most 50' }]);
    expect((await h.ag('GET', '/v1/users?page[size]=50')).status).toBe(200);
  });

  it('still checks page[size] on unpaged lists with ignore_page_size, which it marks of no effect there (probe XA-1)', async () => {
    const h = await startAgreements({ variants: { paging: 'none', maxPageSize: 3, ignorePageSize: true } });
    expect((await h.ag('GET', '/v1/users?page[size]=100')).status).toBe(400);
    expect((await h.ag('GET', '/v1/users?page[size]=abc')).status).toBe(400);
    expect((await h.ag('GET', '/v1/users?page[size]=3')).status).toBe(200);
  });

  it('keeps its default page within a smaller maximum, so its own next links are accepted', async () => {
    const users = Array.from({ length: 12 }, (_, i) => ({ email: `u${i}@acme.example` }));
    const h = await startAgreements({ variants: { maxPageSize: 10 }, seed: defaultSeed({ users }) });
    const first = (await h.ag('GET', '/v1/users')).body as { data: unknown[]; links: { next: string } };
    expect(first.data).toHaveLength(10);
    const next = new URL(first.links.next);
    const second = await h.ag('GET', `${next.pathname.replace(/^\/agreements/, '')}${next.search}`);
    expect(second.status).toBe(200);
  });
});

describe('create status, config and seeds', () => {
  it('answers creates with 200 when asked to, and the variant can change at run time', async () => {
    const h = await startAgreements({ variants: { createStatus: 200 } });
    expect((await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'A' })).status).toBe(200);
    const put = await h.control('PUT', '/_emulator/config', { variants: { create_status: 201, review_paths: 'flat' } });
    expect((put.body as { variants: Record<string, unknown> }).variants).toMatchObject({ create_status: 201, review_paths: 'flat' });
    expect((await h.review('POST', '/v1/playbooks', { name: 'B' })).status).toBe(201);
    const bad = await h.control('PUT', '/_emulator/config', { variants: { paging: 'sideways', colour: 'red' } });
    expect(bad.status).toBe(422);
    expect(problem(bad).errors?.map((e) => e.field).sort()).toEqual(['variants.colour', 'variants.paging']);
  });

  it('answers creates with 204 and no body when asked to', async () => {
    const h = await startAgreements({ variants: { createStatus: 204 } });
    const reply = await h.review('POST', `${ORG_PATH}/playbooks`, { name: 'A' });
    expect(reply.status).toBe(204);
    expect(reply.body).toBeUndefined();
    expect(h.emu.store.activePlaybooks(h.emu.store.organization(ORG)!).map((p) => p.name)).toEqual(['A']);
  });

  it('reads variants from a seed file, in snake_case', () => {
    const seed = parseSeed({ variants: { review_paths: 'flat', review_users: false, max_page_size: 25 }, organizations: [] });
    expect(seed.variants).toEqual({ reviewPaths: 'flat', reviewUsers: false, maxPageSize: 25 });
    expect(() => parseSeed({ variants: { create_status: 202 }, organizations: [] })).toThrow(/variants.create_status must be one of: 200, 201, 204/);
    // As --max-page-size takes it (probe LG-2).
    expect(() => parseSeed({ variants: { max_page_size: 500 }, organizations: [] })).toThrow(/variants.max_page_size must be a whole number from 1 to 100, or null/);
  });
});
