import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed } from '../../../src/emulator/seed.js';
import { ADMIN, startAgreements } from './agreements-harness.js';
import { closeAll, fields, list, one, ORG, ORG_PATH, problem } from './harness.js';

afterEach(closeAll);

interface Paged {
  data: { id: string; type: string; attributes: Record<string, unknown> }[];
  meta: { pagination: { current: number; next: number | null; last: number; records: number } };
  links: { next: string | null };
}

describe('agreements users', () => {
  it('pages users 15 at a time by default, with email, name and role', async () => {
    const users = Array.from({ length: 19 }, (_, i) => ({ email: `u${String(i).padStart(2, '0')}@acme.example`, name: `U ${i}` }));
    const h = await startAgreements({ seed: defaultSeed({ users }) });
    const first = (await h.ag('GET', '/v1/users')).body as Paged;
    expect(first.data).toHaveLength(15);
    expect(first.meta.pagination).toEqual({ current: 1, next: 2, last: 2, records: 20 });
    expect(first.links.next).toContain('/agreements/v1/users?');
    const second = (await h.ag('GET', '/v1/users?page=2')).body as Paged;
    expect(second.data).toHaveLength(5);
    expect(second.meta.pagination.next).toBeNull();
    const all = [...first.data, ...second.data];
    expect(new Set(all.map((u) => u.id)).size).toBe(20);
    expect(all.find((u) => u.attributes.email === ADMIN)).toMatchObject({ type: 'user', attributes: { email: ADMIN, name: 'Emulator Admin', role: 'admin' } });

    const u00 = all.find((u) => u.attributes.email === 'u00@acme.example');
    const user = one(await h.ag('GET', `/v1/users/${u00?.id ?? ''}`));
    expect(user).toMatchObject({ id: u00?.id, type: 'user' });
    expect(user.attributes).toEqual({ email: 'u00@acme.example', name: 'U 0', role: 'member', organization_id: '00000000-0000-4000-8000-000000000001' });
    expect((await h.ag('GET', '/v1/users/00000000-0000-4000-8000-00000000ffff')).status).toBe(404);
    expect((await h.ag('GET', '/v1/users?page[]=2')).status).toBe(400);
  });

  it('needs the API key', async () => {
    const h = await startAgreements();
    const res = await h.ag('GET', '/v1/users', undefined, { key: null });
    expect(res.status).toBe(401);
    expect((await h.ag('GET', '/v1/users', undefined, { key: 'wrong' })).status).toBe(401);
  });
});

describe('agreements organization', () => {
  it('lists the key organization as a one-element list and reads it by id', async () => {
    const h = await startAgreements();
    const orgs = list(await h.ag('GET', '/v1/organizations'));
    expect(orgs).toHaveLength(1);
    expect(orgs[0]).toMatchObject({ id: ORG, type: 'organization' });
    expect(orgs[0]?.attributes).toMatchObject({ name: 'Acme Legal (emulator)', street_address: null, city: null, state: null, zipcode: null, country: null, onboarded: true });
    expect(Object.keys(orgs[0]?.attributes ?? {}).sort()).toEqual(['city', 'country', 'created_at', 'name', 'onboarded', 'state', 'street_address', 'updated_at', 'zipcode']);
    expect(one(await h.ag('GET', `/v1/organizations/${ORG}`)).attributes.name).toBe('Acme Legal (emulator)');
  });

  it('changes only the fields sent, ignores unknown keys, and keeps the review organization apart', async () => {
    const h = await startAgreements();
    const res = await h.ag('PATCH', `/v1/organizations/${ORG}`, { city: 'Paris', country: 'France', color: 'blue', onboarded: false });
    expect(res.status).toBe(200);
    expect(one(res).attributes).toMatchObject({ name: 'Acme Legal (emulator)', city: 'Paris', country: 'France', street_address: null, onboarded: true });
    expect(one(res).attributes).not.toHaveProperty('color');
    const renamed = one(await h.ag('PATCH', `/v1/organizations/${ORG}`, { name: 'Acme SAS', city: null }));
    expect(renamed.attributes).toMatchObject({ name: 'Acme SAS', city: null, country: 'France' });
    expect(one(await h.review('GET', ORG_PATH)).attributes.name).toBe('Acme Legal (emulator)');
    expect(one(await h.ag('GET', `/v1/organizations/${ORG}`)).attributes.name).toBe('Acme SAS');
  });

  it('rejects an empty name (422) and answers 404 for another id', async () => {
    const h = await startAgreements();
    const empty = await h.ag('PATCH', `/v1/organizations/${ORG}`, { name: ' ' });
    expect(empty.status).toBe(422);
    expect(fields(empty)).toEqual(['name']);
    const typed = await h.ag('PATCH', `/v1/organizations/${ORG}`, { zipcode: 75001 });
    expect(fields(typed)).toEqual(['zipcode']);
    const other = '00000000-0000-4000-8000-000000000002';
    expect((await h.ag('GET', `/v1/organizations/${other}`)).status).toBe(404);
    const patchOther = await h.ag('PATCH', `/v1/organizations/${other}`, { name: 'X' });
    expect(patchOther.status).toBe(404);
    expect(patchOther.headers.get('content-type')).toContain('application/problem+json');
    expect(problem(patchOther).instance).toBe(`/agreements/v1/organizations/${other}`);
  });

  it('takes the profile from the seed', async () => {
    const seed = defaultSeed();
    const org = seed.organizations[0];
    if (org) org.agreements = { organization: { name: 'Acme Agreements', city: 'Lyon' } };
    const h = await startAgreements({ seed });
    expect(one(await h.ag('GET', `/v1/organizations/${ORG}`)).attributes).toMatchObject({ name: 'Acme Agreements', city: 'Lyon', zipcode: null });
  });
});

describe('state files written before the agreements service', () => {
  it('load with an empty agreements slot completed', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docket-agreements-'));
    try {
      const first = await startAgreements();
      const state = first.emu.store.snapshot();
      const org = state.organizations[ORG];
      if (org) (org as unknown as { agreements: object }).agreements = {};
      const stateFile = join(dir, 'state.json');
      await writeFile(stateFile, JSON.stringify(state));
      const h = await startAgreements({ stateFile });
      expect(one(await h.ag('GET', `/v1/organizations/${ORG}`)).attributes.name).toBe('Acme Legal (emulator)');
      expect(list(await h.ag('GET', '/v1/custom_terms'))).toEqual([]);
      expect((await h.ag('POST', '/v1/templates', { name: 'N' })).status).toBe(201);
    } finally {
      await closeAll();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
