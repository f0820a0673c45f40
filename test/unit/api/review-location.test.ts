/**
 * Finding the review service's routes (nested or flat) and organization, against the emulator
 * playing each edition of the public docs over loopback.
 */
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { createServiceClient, type ClosableServiceClient } from '../../../src/api/http.js';
import { ReviewApi } from '../../../src/api/review.js';
import type { PathStyleSetting, ReviewLocation } from '../../../src/api/review-location.js';
import { DocketError } from '../../../src/errors.js';
import { DEFAULT_ORGANIZATION_ID, EMULATOR_API_KEY, defaultSeed, startEmulator, type EmulatorVariants, type RunningEmulator } from '../../../src/emulator/server.js';

const OTHER_ORG = '00000000-0000-4000-8000-000000000002';
const running: { emulator: RunningEmulator; client: ClosableServiceClient }[] = [];

afterEach(async () => {
  for (const r of running.splice(0)) {
    await r.client.close();
    await r.emulator.close();
  }
});

async function setup(variants: Partial<EmulatorVariants>, api: { organizationId?: string; pathStyle?: PathStyleSetting }, twoOrganizations = false) {
  const seed = defaultSeed();
  if (twoOrganizations) seed.organizations.push({ ...seed.organizations[0]!, id: OTHER_ORG, name: 'Acme Subsidiary', users: [], playbooks: [] });
  const emulator = await startEmulator({ seed, variants });
  const client = createServiceClient({ service: 'review', baseUrl: emulator.reviewUrl, apiKey: EMULATOR_API_KEY });
  running.push({ emulator, client });
  const located: ReviewLocation[] = [];
  const review = new ReviewApi(client, { ...api, onLocated: (w) => located.push(w) });
  return { emulator, review, located, routes: () => emulator.stats().requests.by_route };
}

async function failure(p: Promise<unknown>): Promise<DocketError> {
  try {
    await p;
  } catch (e) {
    if (e instanceof DocketError) return e;
    throw e;
  }
  throw new Error('expected a DocketError');
}

describe('review path style', () => {
  it('a key that belongs to no organization: the hint names the variable it was read from (probe WK-2)', async () => {
    const agent = new MockAgent();
    agent.disableNetConnect();
    const client = createServiceClient({ service: 'review', baseUrl: 'https://api.gerri.commonpaper.com', apiKey: 'zpka_test_key_123456', apiKeyFrom: 'DOCKET_API_KEY', dispatcher: agent, sleep: async () => {} });
    agent.get('https://api.gerri.commonpaper.com').intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [] }, { headers: { 'content-type': 'application/json' } });
    try {
      expect(await failure(new ReviewApi(client, {}).listPlaybooks())).toMatchObject({ code: 'unknown-organization', hint: 'check DOCKET_API_KEY' });
    } finally {
      await agent.close();
    }
  });

  it('auto with a configured id: the first request is the probe, no extra request on nested routes', async () => {
    const s = await setup({}, { organizationId: DEFAULT_ORGANIZATION_ID });
    await Promise.all([s.review.listPlaybooks(), s.review.listInvitations(), s.review.getOrganization()]);
    expect(s.review.location).toMatchObject({ style: 'nested', organizationId: DEFAULT_ORGANIZATION_ID });
    expect(s.located).toHaveLength(1);
    expect(s.emulator.stats().requests.total).toBe(3);
  });

  it('auto with a configured id finds flat routes after one 404, probing once for concurrent callers', async () => {
    const s = await setup({ reviewPaths: 'flat' }, { organizationId: DEFAULT_ORGANIZATION_ID });
    const [playbooks, invitations, org] = await Promise.all([s.review.listPlaybooks(), s.review.listInvitations(), s.review.getOrganization()]);
    expect(playbooks).toEqual([]);
    expect(invitations).toEqual([]);
    expect(org.id).toBe(DEFAULT_ORGANIZATION_ID);
    expect(s.review.location).toMatchObject({ style: 'flat', organizationId: DEFAULT_ORGANIZATION_ID, prefix: '/v1' });
    expect(s.located).toHaveLength(1);
    const routes = s.routes();
    // One nested attempt, both probes once; the organization read by the probe is not read again.
    expect(routes['GET (no route)']).toBe(2);
    expect(routes['GET /review/v1/organization']).toBe(1);
    expect(routes['GET /review/v1/playbooks']).toBe(1);
    expect(routes['GET /review/v1/invitations']).toBe(1);
  });

  it('auto with a configured id finds flat routes when the first request is the users list, whose 404 also means "no users list"', async () => {
    const s = await setup({ reviewPaths: 'flat', reviewUsers: false }, { organizationId: DEFAULT_ORGANIZATION_ID });
    expect(await s.review.listUsers()).toBeUndefined();
    expect(s.review.location).toMatchObject({ style: 'flat', prefix: '/v1' });
    expect(await s.review.listInvitations()).toEqual(expect.any(Array));
    const nested = await setup({ reviewUsers: false }, { organizationId: DEFAULT_ORGANIZATION_ID });
    expect(await nested.review.listUsers()).toBeUndefined();
    expect(nested.review.location).toMatchObject({ style: 'nested' });
  });

  it('auto without an id uses the only organization the key sees (nested) or the key\'s own (flat)', async () => {
    const nested = await setup({}, {});
    await nested.review.listPlaybooks();
    expect(nested.review.location).toMatchObject({ style: 'nested', organizationId: DEFAULT_ORGANIZATION_ID });
    const flat = await setup({ reviewPaths: 'flat' }, {});
    await flat.review.listPlaybooks();
    expect(flat.review.location).toMatchObject({ style: 'flat', organizationId: DEFAULT_ORGANIZATION_ID });
  });

  it('refuses to guess when the key sees several organizations, and lists them', async () => {
    const s = await setup({}, {}, true);
    const error = await failure(s.review.listPlaybooks());
    expect(error.code).toBe('ambiguous-organization');
    expect(error.message).toContain(`${DEFAULT_ORGANIZATION_ID} (Acme Legal (emulator))`);
    expect(error.message).toContain(`${OTHER_ORG} (Acme Subsidiary)`);
    expect(error.hint).toContain('review.organization_id');
  });

  it('a configured id the key does not see is an error listing the ones it does', async () => {
    const s = await setup({}, { organizationId: '00000000-0000-4000-8000-0000000000ff' });
    const error = await failure(s.review.listPlaybooks());
    expect(error.code).toBe('unknown-organization');
    expect(error.message).toBe(`the review API key does not see organization 00000000-0000-4000-8000-0000000000ff; it sees ${DEFAULT_ORGANIZATION_ID} (Acme Legal (emulator))`);
  });

  it('flat routes with a configured id of another organization is an error', async () => {
    const s = await setup({ reviewPaths: 'flat' }, { organizationId: OTHER_ORG, pathStyle: 'flat' });
    const error = await failure(s.review.listPlaybooks());
    expect(error.message).toContain(`review.organization_id is ${OTHER_ORG}, but the review API key belongs to organization ${DEFAULT_ORGANIZATION_ID}`);
  });

  it('a configured style the service does not have says which setting to change', async () => {
    const flatOnNested = await setup({}, { pathStyle: 'flat' });
    const flat = await failure(flatOnNested.review.listPlaybooks());
    expect(flat.code).toBe('unknown-path-style');
    expect(flat.hint).toContain('set `review.path_style` to auto');
    const nestedOnFlat = await setup({ reviewPaths: 'flat' }, { pathStyle: 'nested' });
    const nested = await failure(nestedOnFlat.review.listPlaybooks());
    expect(nested.code).toBe('unknown-organization');
    expect(nested.hint).toContain('set `review.path_style` to auto or flat');
    // Nested, with an id: the first 404 is looked into once, and said as flat routes.
    const nestedWithId = await setup({ reviewPaths: 'flat' }, { pathStyle: 'nested', organizationId: DEFAULT_ORGANIZATION_ID });
    const routes = await failure(nestedWithId.review.listPlaybooks());
    expect([routes.code, routes.message]).toEqual(['unknown-path-style', `review.path_style is nested, but the review service at ${nestedWithId.emulator.reviewUrl} has flat routes (GET /v1/organization answers, GET /v1/organizations is 404)`]);
    expect(routes.hint).toContain('set `review.path_style` to auto or flat');
    // Once a request there succeeded, a 404 (no users list) is that request's, and nothing is looked into.
    const noUsers = await setup({ reviewUsers: false }, { pathStyle: 'nested', organizationId: DEFAULT_ORGANIZATION_ID });
    await noUsers.review.listPlaybooks();
    expect(await noUsers.review.listUsers()).toBeUndefined();
    expect(Object.keys(noUsers.routes()).filter((r) => r.includes('/v1/organizations') && !r.includes(':org'))).toEqual([]);
    // On nested routes, a 404 for an object is still that object's.
    const real = await setup({}, { pathStyle: 'nested', organizationId: DEFAULT_ORGANIZATION_ID });
    expect((await failure(real.review.listRules('00000000-0000-4000-8000-00000000abcd'))).code).toBe('not-found');
  });

  it('a real 404 on nested routes stays a 404 (the probe confirms nested routes)', async () => {
    const s = await setup({}, { organizationId: DEFAULT_ORGANIZATION_ID });
    const error = await failure(s.review.listRules('00000000-0000-4000-8000-00000000abcd'));
    expect(error.code).toBe('not-found');
    expect(s.review.location?.style).toBe('nested');
  });

  it('says so when neither edition answers', async () => {
    const s = await setup({}, { organizationId: DEFAULT_ORGANIZATION_ID });
    const broken = new ReviewApi(createServiceClient({ service: 'review', baseUrl: `${s.emulator.url}/nothing-here`, apiKey: EMULATOR_API_KEY }), {
      organizationId: DEFAULT_ORGANIZATION_ID,
    });
    const error = await failure(broken.listPlaybooks());
    expect(error.code).toBe('unknown-path-style');
    expect(error.message).toContain('neither GET /v1/organizations nor GET /v1/organization exists');
    // Naming the setting that may hold it, not only the variable (probe CI-2); a `/v1` at its end, what to remove.
    expect(error.hint).toMatch(/^check the review service URL \(`review\.url` in docket\.yaml, or DOCKET_REVIEW_URL where that sets it/);
    const versioned = new ReviewApi(createServiceClient({ service: 'review', baseUrl: `${s.emulator.reviewUrl}/v1`, apiKey: EMULATOR_API_KEY }), {});
    const twice = await failure(versioned.listPlaybooks());
    expect(twice.hint).toMatch(/^remove the \/v1 at the end of the review service URL, which docket adds to every path itself/);
  });

  it('without a users list, listUsers says so (undefined) and the invitation names the new user', async () => {
    const s = await setup({ reviewUsers: false }, {});
    expect(await s.review.listUsers()).toBeUndefined();
    const invitation = await s.review.createInvitation('dave@acme.example', 'Dave');
    const user = s.emulator.store.userByEmail('dave@acme.example')!;
    expect(invitation.relationships).toEqual({ user: { data: { type: 'user', id: user.id } } });
  });
});
