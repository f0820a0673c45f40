import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed } from '../../../src/emulator/seed.js';
import { call, closeAll, fields, list, one, ORG, ORG_PATH, start } from './harness.js';

afterEach(closeAll);

interface PagedBody {
  data: { id: string; attributes: Record<string, unknown> }[];
  meta: { pagination: { current: number; next: number | null; last: number; records: number } };
  links: { self: string; current: string; next: string | null; last: string };
}

/** The default admin plus n users: n + 1 members. */
function seedWithUsers(n: number) {
  return defaultSeed({ users: Array.from({ length: n }, (_, i) => ({ email: `user${String(i).padStart(2, '0')}@acme.example`, name: `User ${i}` })) });
}

describe('organization', () => {
  it('reads the organization with its attributes', async () => {
    const h = await start();
    const org = one(await h.review('GET', ORG_PATH));
    expect(org).toMatchObject({ id: ORG, type: 'organization' });
    expect(org.attributes).toMatchObject({ name: 'Acme Legal (emulator)', default_reviewer_id: null, default_reviewer_email: null });
  });

  it('updates name and default reviewer, changing only the fields sent', async () => {
    const h = await start({ seed: defaultSeed({ users: [{ email: 'alice@acme.example' }] }) });
    const alice = list(await h.review('GET', `${ORG_PATH}/users`)).find((u) => u.attributes.email === 'alice@acme.example');
    const res = await h.review('PATCH', ORG_PATH, { default_reviewer_id: alice?.id });
    expect(res.status).toBe(200);
    expect(one(res).attributes).toMatchObject({ name: 'Acme Legal (emulator)', default_reviewer_id: alice?.id, default_reviewer_email: 'alice@acme.example' });
    const renamed = await h.review('PATCH', ORG_PATH, { name: 'Acme Legal' });
    expect(one(renamed).attributes).toMatchObject({ name: 'Acme Legal', default_reviewer_id: alice?.id });
  });

  it('rejects a non-canonical uuid, a uuid that is not a user, and an empty name (seed 000 errors 3 and 4)', async () => {
    const h = await start();
    for (const bad of ['not-a-uuid', '123e4567e89b12d3a456426614174000', '{123e4567-e89b-12d3-a456-426614174000}']) {
      const res = await h.review('PATCH', ORG_PATH, { default_reviewer_id: bad });
      expect(res.status).toBe(422);
      expect(fields(res)).toEqual(['default_reviewer_id']);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    const stranger = await h.review('PATCH', ORG_PATH, { default_reviewer_id: '123e4567-e89b-42d3-a456-426614174000' });
    expect(stranger.status).toBe(422);
    expect(fields(stranger)).toEqual(['default_reviewer_id']);
    const empty = await h.review('PATCH', ORG_PATH, { name: '  ' });
    expect(empty.status).toBe(422);
    expect(fields(empty)).toEqual(['name']);
    expect(one(await h.review('GET', ORG_PATH)).attributes.name).toBe('Acme Legal (emulator)');
  });
});

describe('invitations', () => {
  it('creates the user at once, and a second invitation of the same e-mail is 422 (seed 000 error 6)', async () => {
    const h = await start();
    const created = await h.review('POST', `${ORG_PATH}/invitations`, { email: 'Carol@Acme.example', name: 'Carol' });
    expect(created.status).toBe(201);
    expect(one(created)).toMatchObject({ type: 'invitation', attributes: { email: 'Carol@Acme.example', name: 'Carol', invited_by_email: 'admin@emulator.local' } });

    const users = list(await h.review('GET', `${ORG_PATH}/users`));
    const carol = users.find((u) => u.attributes.email === 'Carol@Acme.example');
    expect(carol?.attributes).toMatchObject({ name: 'Carol', role: 'member' });
    // An available reviewer at once.
    expect((await h.review('PATCH', ORG_PATH, { default_reviewer_id: carol?.id })).status).toBe(200);

    const again = await h.review('POST', `${ORG_PATH}/invitations`, { email: 'carol@acme.example' });
    expect(again.status).toBe(422);
    expect(fields(again)).toEqual(['email']);
    const invitations = list(await h.review('GET', `${ORG_PATH}/invitations`));
    expect(invitations.map((i) => i.id)).toEqual([one(created).id]);
    expect((await h.review('GET', `${ORG_PATH}/invitations/${one(created).id}`)).status).toBe(200);
  });

  it('takes a Unicode domain and its URL spelling for one mailbox: the second invitation is 422 (probe MW-3)', async () => {
    const h = await start();
    expect((await h.review('POST', `${ORG_PATH}/invitations`, { email: 'Dora@Bücher.example' })).status).toBe(201);
    const again = await h.review('POST', `${ORG_PATH}/invitations`, { email: 'dora@xn--bcher-kva.example' });
    expect(again.status).toBe(422);
    expect(list(await h.review('GET', `${ORG_PATH}/users`)).filter((u) => String(u.attributes.email).toLowerCase().startsWith('dora@'))).toHaveLength(1);
  });

  it('requires an e-mail', async () => {
    const h = await start();
    const res = await h.review('POST', `${ORG_PATH}/invitations`, { name: 'Nobody' });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['email']);
  });
});

describe('pagination', () => {
  it('pages 35 users by 10: 4 pages, a links.next chain and meta.pagination', async () => {
    const h = await start({ seed: seedWithUsers(34) });
    const seen: string[] = [];
    let url: string | null = `${h.emu.reviewUrl}${ORG_PATH}/users?page%5Bsize%5D=10`;
    const pages: PagedBody[] = [];
    while (url) {
      const res = await call(url, 'GET', undefined);
      expect(res.status).toBe(200);
      const body = res.body as PagedBody;
      pages.push(body);
      seen.push(...body.data.map((u) => u.id));
      url = body.links.next;
    }
    expect(pages.map((p) => p.data.length)).toEqual([10, 10, 10, 5]);
    expect(pages.map((p) => p.meta.pagination)).toEqual([
      { current: 1, next: 2, last: 4, records: 35 },
      { current: 2, next: 3, last: 4, records: 35 },
      { current: 3, next: 4, last: 4, records: 35 },
      { current: 4, next: null, last: 4, records: 35 },
    ]);
    expect(new Set(seen).size).toBe(35);
    const first = pages[0];
    expect(first?.links.self).toBe(`${h.emu.reviewUrl}${ORG_PATH}/users`);
    expect(first?.links.current).toBe(`${h.emu.reviewUrl}${ORG_PATH}/users?page%5Bnumber%5D=1&page%5Bsize%5D=10`);
    expect(first?.links.last).toBe(`${h.emu.reviewUrl}${ORG_PATH}/users?page%5Bnumber%5D=4&page%5Bsize%5D=10`);
  });

  it('uses the default page size 15 (or the option) and caps page[size] at 100', async () => {
    const h = await start({ seed: seedWithUsers(119) });
    const byDefault = (await h.review('GET', `${ORG_PATH}/users`)).body as PagedBody;
    expect(byDefault.data.length).toBe(15);
    expect(byDefault.meta.pagination).toEqual({ current: 1, next: 2, last: 8, records: 120 });
    const capped = (await h.review('GET', `${ORG_PATH}/users?page%5Bsize%5D=500`)).body as PagedBody;
    expect(capped.data.length).toBe(100);
    const small = await start({ seed: seedWithUsers(4), pageSize: 2 });
    expect(((await small.review('GET', `${ORG_PATH}/users`)).body as PagedBody).meta.pagination.last).toBe(3);
  });

  it('treats a bare page=N as the page number', async () => {
    const h = await start({ seed: seedWithUsers(19) });
    const body = (await h.review('GET', `${ORG_PATH}/users?page=2`)).body as PagedBody;
    expect(body.meta.pagination).toEqual({ current: 2, next: null, last: 2, records: 20 });
    expect(body.data.length).toBe(5);
  });

  it('answers 400 for any other form of page', async () => {
    const h = await start();
    for (const query of ['page%5B%5D=2', 'page[]=2', 'page%5Bfoo%5D=1', 'page%5Bnumber%5D=0', 'page=abc', 'page=1&page=2']) {
      const res = await h.review('GET', `${ORG_PATH}/users?${query}`);
      expect(res.status, query).toBe(400);
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
  });

  it('returns an empty page past the end', async () => {
    const h = await start();
    const body = (await h.review('GET', `${ORG_PATH}/invitations?page%5Bnumber%5D=3`)).body as PagedBody;
    expect(body.data).toEqual([]);
    expect(body.meta.pagination).toEqual({ current: 3, next: null, last: 1, records: 0 });
  });
});
