import { afterEach, describe, expect, it } from 'vitest';
import type { EmulatorStats } from '../../../src/emulator/server.js';
import { defaultSeed } from '../../../src/emulator/seed.js';
import { closeAll, fields, list, one, ORG, ORG_PATH, start } from './harness.js';

afterEach(closeAll);

const PLAYBOOKS = `${ORG_PATH}/playbooks`;
const PLAYBOOKS_TEMPLATE = '/review/v1/organizations/:org/playbooks';

describe('statistics', () => {
  it('counts service requests by method and route template, not control requests', async () => {
    const h = await start();
    const pb = one(await h.review('POST', PLAYBOOKS, { name: 'P' }));
    await h.review('GET', PLAYBOOKS);
    await h.review('GET', PLAYBOOKS);
    await h.review('GET', `${PLAYBOOKS}/${pb.id}/playbook_rules`);
    await h.review('GET', `${ORG_PATH}/nope`);
    await h.control('GET', '/_emulator/state');
    const stats = (await h.control('GET', '/_emulator/stats')).body as EmulatorStats;
    expect(stats.requests.total).toBe(5);
    expect(stats.requests.by_route).toEqual({
      'GET (no route)': 1,
      [`GET ${PLAYBOOKS_TEMPLATE}`]: 2,
      [`GET ${PLAYBOOKS_TEMPLATE}/:playbook/playbook_rules`]: 1,
      [`POST ${PLAYBOOKS_TEMPLATE}`]: 1,
    });
    expect(stats.faults_injected).toBe(0);
    expect(h.emu.stats()).toEqual(stats);
  });

  it('reset clears statistics and restores the seed, or loads a new one', async () => {
    const h = await start();
    await h.review('POST', PLAYBOOKS, { name: 'P' });
    // A queued fault goes with the reset too (probe GE).
    expect((await h.control('POST', '/_emulator/faults', { method: 'GET', path_pattern: '/review/v1/organizations/:org/playbooks', status: 503, count: 2 })).status).toBe(201);
    const reset = await h.control('POST', '/_emulator/reset');
    expect(reset.status).toBe(200);
    expect((await h.control('GET', '/_emulator/faults')).body).toEqual({ faults: [] });
    expect(list(await h.review('GET', PLAYBOOKS))).toEqual([]);
    expect(h.emu.stats().requests.total).toBe(1);

    const seed = defaultSeed();
    seed.organizations[0]?.playbooks?.push({ name: 'Seeded', rules: [{ name: 'R', actions: 'x' }] });
    expect((await h.control('POST', '/_emulator/reset', seed)).status).toBe(200);
    expect(list(await h.review('GET', PLAYBOOKS)).map((p) => p.attributes.name)).toEqual(['Seeded']);
    const bad = await h.control('POST', '/_emulator/reset', { organizations: [{ id: 'x' }] });
    expect(bad.status).toBe(400);
    expect(list(await h.review('GET', PLAYBOOKS)).map((p) => p.attributes.name)).toEqual(['Seeded']);
    // A key pasted into another field is never quoted back, as `--seed` refuses it (probe GA).
    const key = 'sk_live_abcdef123456';
    const leaky = await h.control('POST', '/_emulator/reset', { organizations: [{ id: '00000000-0000-4000-8000-0000000000ab', name: 'X', api_keys: [key], users: [{ email: key, name: 'B', role: 'admin' }] }] });
    expect(leaky.status).toBe(400);
    expect(JSON.stringify(leaky.body)).toContain('organizations[0].users[0].email must be an e-mail address (got \\"[redacted]\\")');
    expect(JSON.stringify(leaky.body)).not.toContain('abcdef123456');
  });

  it("a POSTed seed's variants change the ones in force key by key: the command line's it does not name stay", async () => {
    const h = await start({ variants: { reviewPaths: 'flat', reviewUsers: false } });
    expect((await h.control('POST', '/_emulator/reset', { ...defaultSeed(), variants: { paging: 'links' } })).status).toBe(200);
    expect((await h.control('GET', '/_emulator/config')).body).toMatchObject({ variants: { review_paths: 'flat', review_users: false, paging: 'links' } });
  });

  it('says, as the banner does, which variant set through the config route another turns off (probe LG-1)', async () => {
    const h = await start();
    const set = await h.control('PUT', '/_emulator/config', { variants: { invitation_user: false, invitation_user_at: 'attribute' } });
    expect(set.body).toMatchObject({ no_effect: { invitation_user_at: 'invitations name no user, invitation_user=false' } });
    const reset = await h.control('PUT', '/_emulator/config', { variants: { invitation_user: true } });
    expect(reset.body).not.toHaveProperty('no_effect');
  });

  it('drops a request a late fault held across a reset: the fresh state never gets it (probe GF)', async () => {
    const h = await start();
    expect((await h.control('POST', '/_emulator/faults', { method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 'late', delay_ms: 300, count: 1 })).status).toBe(201);
    const held = h.review('POST', PLAYBOOKS, { name: 'Leftover' }).catch(() => 'dropped');
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect((await h.control('POST', '/_emulator/reset')).status).toBe(200);
    expect(await held).toBe('dropped');
    expect(list(await h.review('GET', PLAYBOOKS))).toEqual([]);
  });

  it('reports a request dropped at close while it waited out the latency, before close resolves (probe GE)', async () => {
    const seen: { method: string; status?: number }[] = [];
    const h = await start({ latencyMs: 5_000, onRequest: (r) => void seen.push({ method: r.method, ...(r.status !== undefined ? { status: r.status } : {}) }) });
    const pending = h.review('POST', PLAYBOOKS, { name: 'Latent' }).catch(() => 'dropped');
    await new Promise((resolve) => setTimeout(resolve, 100));
    await h.emu.close();
    expect(seen).toEqual([{ method: 'POST' }]);
    expect(await pending).toBe('dropped');
  });

  it('shows the whole state', async () => {
    const h = await start();
    await h.review('POST', PLAYBOOKS, { name: 'P' });
    const state = (await h.control('GET', '/_emulator/state')).body as { organizations: Record<string, { playbooks: Record<string, { name: string }> }> };
    expect(Object.values(state.organizations[ORG]?.playbooks ?? {}).map((p) => p.name)).toEqual(['P']);
  });

  it('shows a seed\'s secret API keys as [redacted], and the emulator\'s public ones as they are: the route asks no key (probe RC-4)', async () => {
    const seed = defaultSeed();
    seed.organizations[0]!.api_keys.push('sk_live_9f8e7d6c5b4a3210ZZ');
    const h = await start({ seed });
    const state = (await h.control('GET', '/_emulator/state')).body as { organizations: Record<string, { api_keys: string[] }> };
    expect(state.organizations[ORG]!.api_keys).toEqual([...defaultSeed().organizations[0]!.api_keys, '[redacted]']);
    expect(JSON.stringify(state)).not.toContain('9f8e7d6c5b4a3210');
    // The key still works.
    expect((await h.review('GET', PLAYBOOKS, undefined, { key: 'sk_live_9f8e7d6c5b4a3210ZZ' })).status).toBe(200);
  });
});

describe('faults', () => {
  it('answers an injected 429 with Retry-After, only for the matching requests', async () => {
    const h = await start();
    const queued = await h.control('POST', '/_emulator/faults', { method: 'GET', path_pattern: PLAYBOOKS_TEMPLATE, status: 429, count: 2, retry_after: 7 });
    expect(queued.status).toBe(201);
    expect((await h.review('POST', PLAYBOOKS, { name: 'P' })).status).toBe(201);
    for (let i = 0; i < 2; i++) {
      const res = await h.review('GET', PLAYBOOKS);
      expect(res.status).toBe(429);
      expect(res.headers.get('retry-after')).toBe('7');
      expect(res.headers.get('content-type')).toContain('application/problem+json');
    }
    expect((await h.review('GET', PLAYBOOKS)).status).toBe(200);
    expect(h.emu.stats().faults_injected).toBe(2);
  });

  it('says Retry-After on another status only when the fault gives one', async () => {
    const h = await start();
    await h.control('POST', '/_emulator/faults', { method: 'GET', path_pattern: PLAYBOOKS_TEMPLATE, status: 503, count: 1, retry_after: 3 });
    await h.control('POST', '/_emulator/faults', { method: 'GET', path_pattern: PLAYBOOKS_TEMPLATE, status: 503, count: 1 });
    const given = await h.review('GET', PLAYBOOKS);
    expect([given.status, given.headers.get('retry-after')]).toEqual([503, '3']);
    const none = await h.review('GET', PLAYBOOKS);
    expect([none.status, none.headers.get('retry-after')]).toEqual([503, null]);
  });

  it('answers a refusal with a delay once it has passed, performing nothing: a slow 500', async () => {
    const h = await start();
    h.emu.faults.add({ method: 'POST', path_pattern: '/review/v1/organizations/:org/playbooks', status: 500, delay_ms: 300, count: 1 });
    const started = Date.now();
    expect((await h.review('POST', PLAYBOOKS, { name: 'Slow' })).status).toBe(500);
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(Object.values(h.emu.store.organization(ORG)!.playbooks).filter((p) => p.name === 'Slow')).toEqual([]);
  });

  it('queues 5xx programmatically and clears faults', async () => {
    const h = await start();
    h.emu.faults.add({ path_pattern: '/playbooks', status: 503, count: 5 });
    expect((await h.review('GET', PLAYBOOKS)).status).toBe(503);
    expect((await h.control('DELETE', '/_emulator/faults')).status).toBe(204);
    expect((await h.review('GET', PLAYBOOKS)).status).toBe(200);
    const bad = await h.control('POST', '/_emulator/faults', { status: 418 });
    expect(bad.status).toBe(422);
    expect(fields(bad)).toEqual(['status']);
  });

  it('refuses a fault or a setting it would never use (a method no request has, a misspelt key), naming the field', async () => {
    const h = await start();
    const fault = await h.control('POST', '/_emulator/faults', { method: 'FOO', path_pattern: '/playbooks', status: 500, cuont: 2 });
    expect([fault.status, fields(fault).sort()]).toEqual([422, ['cuont', 'method']]);
    const config = await h.control('PUT', '/_emulator/config', { latency: 50 });
    expect([config.status, fields(config)]).toEqual([422, ['latency']]);
    // The key it is closest to, or else every key there is.
    expect(JSON.stringify(fault.body)).toContain('is not a field of a fault, did you mean `count`?');
    expect(JSON.stringify(config.body)).toContain('is not a setting, did you mean `latency_ms`?');
    const nonsense = await h.control('PUT', '/_emulator/config', { speed: 1 });
    expect(JSON.stringify(nonsense.body)).toContain('is not a setting (latency_ms, fault_rate, rate_limit,');
    expect((await h.control('PUT', '/_emulator/config', { latency_ms: 0, review_delay_ms: 0 })).status).toBe(200);
    // Past what --latency takes, or what a timer holds (it would fire at once): refused, not taken and ignored.
    const slow = await h.control('PUT', '/_emulator/config', { latency_ms: 1e12, review_delay_ms: 2 ** 31 });
    expect([slow.status, fields(slow).sort()]).toEqual([422, ['latency_ms', 'review_delay_ms']]);
    expect(JSON.stringify(slow.body)).toContain('must be a number between 0 and 60000');
    const late = await h.control('POST', '/_emulator/faults', { method: 'GET', status: 'late', delay_ms: 1e12 });
    expect([late.status, fields(late)]).toEqual([422, ['delay_ms']]);
    // A Retry-After past what prints as whole seconds (`1e+21`) is refused too (probe FH-3).
    const paceless = await h.control('PUT', '/_emulator/config', { retry_after_seconds: 1e21 });
    expect([paceless.status, fields(paceless)]).toEqual([422, ['retry_after_seconds']]);
    const distant = await h.control('POST', '/_emulator/faults', { method: 'GET', status: 429, retry_after: 1e21 });
    expect([distant.status, fields(distant)]).toEqual([422, ['retry_after']]);
    expect((await h.control('POST', '/_emulator/faults', { method: 'GET', status: 429, retry_after: 1e9 })).status).toBe(201);
    await h.control('DELETE', '/_emulator/faults');
    expect((await h.control('POST', '/_emulator/faults', { method: 'get', status: 500 })).status).toBe(201);
    // A body a transport fault would never send (probe DQ); a status and `malformed` send theirs.
    const dropped = await h.control('POST', '/_emulator/faults', { status: 'drop', body: { message: 'x' } });
    expect([dropped.status, fields(dropped)]).toEqual([422, ['body']]);
    for (const status of [422, 'malformed']) expect((await h.control('POST', '/_emulator/faults', { status, body: { message: 'x' } })).status).toBe(201);
    // Nor a Retry-After (probe CC-7).
    const paced = await h.control('POST', '/_emulator/faults', { status: 'drop', retry_after: 5 });
    expect([paced.status, fields(paced)]).toEqual([422, ['retry_after']]);
    await h.control('DELETE', '/_emulator/faults');
    // A route written as the docs write it (`{id}`) would match nothing: said, with the form that matches.
    const braces = await h.control('POST', '/_emulator/faults', { method: 'POST', path_pattern: '/agreements/v1/custom_terms/{id}/versions', status: 422 });
    expect([braces.status, fields(braces)]).toEqual([422, ['path_pattern']]);
    expect(JSON.stringify(braces.body)).toContain('/agreements/v1/custom_terms/:id/versions');
    // So would a template whose parts are named otherwise, or a part of one: said, with the template.
    const renamed = await h.control('POST', '/_emulator/faults', { method: 'POST', path_pattern: '/review/v1/organizations/:organization_id/playbooks', status: 422 });
    expect([renamed.status, fields(renamed)]).toEqual([422, ['path_pattern']]);
    expect(JSON.stringify(renamed.body)).toContain('is no whole route template, so it would never match: write it as a route template does (/review/v1/organizations/:org/playbooks)');
    const part = await h.control('POST', '/_emulator/faults', { method: 'POST', path_pattern: '/custom_terms/:id/versions', status: 422 });
    expect(JSON.stringify(part.body)).toContain('(/agreements/v1/custom_terms/:id/versions)');
    // In braces with the docs' names for the parts: pointed at the template itself, not a form refused in turn.
    const docs = await h.control('POST', '/_emulator/faults', { method: 'POST', path_pattern: '/review/v1/organizations/{organization_id}/playbooks', status: 422 });
    expect(JSON.stringify(docs.body)).toContain('names a route part in braces, which no path or route template holds: write it as a route template does (/review/v1/organizations/:org/playbooks)');
    // A template with a method it never answers would never fire either.
    const get = await h.control('POST', '/_emulator/faults', { method: 'DELETE', path_pattern: '/agreements/v1/custom_terms/:id/versions', status: 422 });
    expect([get.status, fields(get)]).toEqual([422, ['method']]);
    expect(JSON.stringify(get.body)).toContain('/agreements/v1/custom_terms/:id/versions answers GET, POST, never DELETE');
    // A pattern without parts matches longer paths too (a PATCH of /custom_terms/<id>): taken.
    expect((await h.control('POST', '/_emulator/faults', { method: 'PATCH', path_pattern: '/agreements/v1/custom_terms', status: 500 })).status).toBe(201);
    // Parts named otherwise: the template of the same shape, not a shorter one.
    const item = await h.control('POST', '/_emulator/faults', { method: 'PATCH', path_pattern: '/review/v1/organizations/:org/playbooks/:id', status: 422 });
    expect(JSON.stringify(item.body)).toMatch(/write it as a route template does \(\/review\/v1\/organizations\/:org\/playbooks\/:[a-z_]+\)/);
  });

  it('a final refusal (422) answers without performing the request', async () => {
    const h = await start();
    expect((await h.control('POST', '/_emulator/faults', { method: 'POST', path_pattern: '/playbooks', status: 422 })).status).toBe(201);
    const refused = await h.review('POST', PLAYBOOKS, { name: 'Refused' });
    expect(refused.status).toBe(422);
    expect(refused.headers.get('content-type')).toContain('application/problem+json');
    expect(list(await h.review('GET', PLAYBOOKS))).toEqual([]);
    expect((await h.review('POST', PLAYBOOKS, { name: 'Made' })).status).toBe(201);
  });

  it('"drop" performs the create and closes the connection without an answer', async () => {
    const h = await start();
    await h.control('POST', '/_emulator/faults', { method: 'POST', path_pattern: '/playbooks', status: 'drop' });
    await expect(h.review('POST', PLAYBOOKS, { name: 'Ambiguous' })).rejects.toThrow();
    const after = list(await h.review('GET', PLAYBOOKS));
    expect(after.map((p) => p.attributes.name)).toEqual(['Ambiguous']);
  });

  it('fault_rate 1 faults every service request, but never control routes', async () => {
    const h = await start({ faultRate: 1 });
    for (let i = 0; i < 9; i++) {
      const status = await h.review('GET', PLAYBOOKS).then(
        (r) => r.status,
        () => 'dropped' as const,
      );
      expect([429, 500, 'dropped']).toContain(status);
    }
    expect(h.emu.stats().faults_injected).toBe(9);
    expect((await h.control('PUT', '/_emulator/config', { fault_rate: 0 })).status).toBe(200);
    expect((await h.review('GET', PLAYBOOKS)).status).toBe(200);
  });

  it('picks the random fault with the injected random source', async () => {
    const h = await start({ faultRate: 0.5, random: () => 0.1 });
    const res = await h.review('GET', PLAYBOOKS);
    expect(res.status).toBe(429);
    expect(res.headers.get('retry-after')).toBe('0');
  });
});

describe('rate limit and latency', () => {
  it('answers 429 with Retry-After over the token-bucket rate', async () => {
    const h = await start({ rateLimit: 1, retryAfterSeconds: 3 });
    expect((await h.review('GET', PLAYBOOKS)).status).toBe(200);
    const limited = await h.review('GET', PLAYBOOKS);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('3');
    expect(h.emu.stats().rate_limited).toBe(1);
    // Control routes are never limited.
    expect((await h.control('GET', '/_emulator/stats')).status).toBe(200);
    // Under one request a second, at least until the next token (probe CC-5).
    const slow = await start({ rateLimit: 0.2, retryAfterSeconds: 1 });
    await slow.review('GET', PLAYBOOKS);
    expect((await slow.review('GET', PLAYBOOKS)).headers.get('retry-after')).toBe('5');
  });

  it('applies rate_limit set at run time', async () => {
    const h = await start();
    const config = await h.control('PUT', '/_emulator/config', { rate_limit: 1 });
    expect(config.body).toMatchObject({ rate_limit: 1, retry_after_seconds: 0 });
    await h.review('GET', PLAYBOOKS);
    expect((await h.review('GET', PLAYBOOKS)).status).toBe(429);
    expect((await h.control('PUT', '/_emulator/config', { rate_limit: 'fast' })).status).toBe(422);
  });

  it('holds rate_limit to the range --rate-limit takes, with 0 and null for off', async () => {
    const h = await start();
    const tooSlow = await h.control('PUT', '/_emulator/config', { rate_limit: 0.05 });
    expect(tooSlow.status).toBe(422);
    expect(JSON.stringify(tooSlow.body)).toContain('must be 0 or null (off), or a number between 0.1 and 100000');
    expect((await h.control('PUT', '/_emulator/config', { rate_limit: 100_001 })).status).toBe(422);
    expect((await h.control('PUT', '/_emulator/config', { rate_limit: 0.1 })).body).toMatchObject({ rate_limit: 0.1 });
    expect((await h.control('PUT', '/_emulator/config', { rate_limit: null })).body).toMatchObject({ rate_limit: 0 });
  });

  it('adds latency to every request, and none once it is set to 0', async () => {
    const waits: number[] = [];
    const h = await start({ latencyMs: 120, sleep: async (ms) => void waits.push(ms) });
    expect((await h.review('GET', PLAYBOOKS)).status).toBe(200);
    expect(waits).toEqual([120]);
    h.emu.configure({ latencyMs: 0 });
    await h.review('GET', PLAYBOOKS);
    expect(waits).toEqual([120]);
  });

  it('does not perform a request still in its latency when it is closed', async () => {
    let release = (): void => {};
    let waiting = (): void => {};
    const reached = new Promise<void>((resolve) => (waiting = resolve));
    const h = await start({ latencyMs: 60_000, sleep: () => new Promise<void>((resolve) => ((release = resolve), waiting())) });
    const create = h.review('POST', PLAYBOOKS, { name: 'Too late' }).catch((error: unknown) => error);
    await reached;
    await h.emu.close();
    expect(await create).toBeInstanceOf(Error);
    release();
    // Every microtask the handler would still run comes before the next turn of the loop.
    await new Promise((resolve) => setImmediate(resolve));
    expect(Object.values(h.emu.store.organization(ORG)!.playbooks).map((p) => p.name)).not.toContain('Too late');
  });
});
