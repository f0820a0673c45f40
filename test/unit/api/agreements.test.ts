/** Agreements endpoint functions: what they send, and how they find the key's organization. */
import { MockAgent } from 'undici';
import { afterEach, describe, expect, it } from 'vitest';
import { AgreementsApi } from '../../../src/api/agreements.js';
import { createServiceClient } from '../../../src/api/http.js';
import { DocketError } from '../../../src/errors.js';

const ORIGIN = 'https://api.commonpaper.com';
const JSON_HEADERS = { 'content-type': 'application/json' };
const agents: MockAgent[] = [];
afterEach(async () => {
  for (const a of agents.splice(0)) await a.close();
});

function setup(organizationId?: string) {
  const agent = new MockAgent();
  agent.disableNetConnect();
  agents.push(agent);
  const client = createServiceClient({ service: 'agreements', baseUrl: ORIGIN, apiKey: 'zpka_test_key_123456', dispatcher: agent, sleep: async () => {} });
  return { mock: agent.get(ORIGIN), api: new AgreementsApi(client, organizationId ? { organizationId } : {}) };
}

const org = (id: string, name: string) => ({ id, type: 'organization', attributes: { name } });
const withOrg = (id: string, organizationId: string) => ({ id, type: 'template_nda', attributes: { name: id, organization_id: organizationId } });

/** Answers the templates and users lists (the organization check reads them) as `answer` says; returns the paths asked for. */
function answerLists(mock: ReturnType<typeof setup>['mock'], answer: (list: string, path: string) => { statusCode: number; data: object }): string[] {
  const asked: string[] = [];
  for (const list of ['/v1/templates', '/v1/users']) {
    mock
      .intercept({ path: (p) => p.startsWith(list) })
      .reply<object>((o) => {
        asked.push(o.path);
        return { ...answer(list, o.path), responseOptions: { headers: JSON_HEADERS } };
      })
      .persist();
  }
  return asked;
}

describe('the agreements organization', () => {
  it('none listed: the hint names the variable the key was read from (probe WK-2)', async () => {
    for (const from of [undefined, 'DOCKET_API_KEY']) {
      const agent = new MockAgent();
      agent.disableNetConnect();
      agents.push(agent);
      const client = createServiceClient({ service: 'agreements', baseUrl: ORIGIN, apiKey: 'zpka_test_key_123456', dispatcher: agent, sleep: async () => {}, ...(from ? { apiKeyFrom: from } : {}) });
      agent.get(ORIGIN).intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [] }, { headers: JSON_HEADERS });
      await expect(new AgreementsApi(client, {}).getOrganization()).rejects.toMatchObject({ code: 'unknown-organization', hint: `check ${from ?? 'DOCKET_AGREEMENTS_API_KEY'}` });
    }
  });

  it('is the only one listed, read once per run', async () => {
    const { mock, api } = setup();
    mock.intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [org('o1', 'Acme')] }, { headers: JSON_HEADERS });
    expect((await api.getOrganization()).id).toBe('o1');
    expect((await api.getOrganization()).id).toBe('o1');
  });

  it('when several are listed, is the one the key\'s templates and users belong to', async () => {
    const { mock, api } = setup();
    mock.intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [org('o1', 'Acme'), org('o2', 'Acme Sub')] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/templates') }).reply(200, { data: [withOrg('t1', 'o2')] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/users') }).reply(200, { data: [{ id: 'u1', type: 'user', attributes: { email: 'a@x', organization_id: null } }] }, { headers: JSON_HEADERS });
    expect((await api.getOrganization()).id).toBe('o2');
  });

  it('refuses to patch data[0] when it cannot tell, and names the setting that decides', async () => {
    const { mock, api } = setup();
    mock.intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [org('o1', 'Acme'), org('o2', 'Acme Sub')] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/templates') }).reply(200, { data: [] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/users') }).reply(200, { data: [] }, { headers: JSON_HEADERS });
    const error = await api.getOrganization().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DocketError);
    expect((error as DocketError).message).toBe("the agreements API key sees 2 organizations (o1 (Acme), o2 (Acme Sub)) and docket cannot tell which one is the key's own");
    expect((error as DocketError).hint).toContain('agreements.organization_id');
  });

  it('is the configured one when agreements.organization_id is set', async () => {
    const { mock, api } = setup('o2');
    mock.intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [org('o1', 'Acme'), org('o2', 'Acme Sub')] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/templates') }).reply(200, { data: [withOrg('t1', 'O2')] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/users') }).reply(200, { data: [] }, { headers: JSON_HEADERS });
    expect((await api.getOrganization()).id).toBe('o2');
  });

  it('refuses a configured organization other than the one the key\'s templates and users belong to', async () => {
    const { mock, api } = setup('o2');
    mock.intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [org('o1', 'Acme'), org('o2', 'Acme Sub')] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/templates') }).reply(200, { data: [withOrg('t1', 'o1')] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/users') }).reply(200, { data: [] }, { headers: JSON_HEADERS });
    const error = (await api.getOrganization().catch((e: unknown) => e)) as DocketError;
    expect([error.code, error.message]).toEqual(['unknown-organization', 'agreements.organization_id is o2, but the templates and users the agreements API key lists belong to o1: the key reads and writes its own organization\'s objects, whichever organization the setting names']);
    expect(error.hint).toBe('set `agreements.organization_id` to o1, or use the API key of organization o2');
  });

  it('reads the templates and users that tell it as lists are read: a refused page size is asked again smaller', async () => {
    const { mock, api } = setup('o2');
    mock.intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [org('o1', 'Acme'), org('o2', 'Acme Sub')] }, { headers: JSON_HEADERS });
    const refused = { errors: [{ status: '400', title: 'Bad Request', detail: 'page[size] must be at most 20, got 100', source: { parameter: 'page[size]' } }] };
    const asked = answerLists(mock, (list, path) =>
      /page%5Bsize%5D=(100|50|25)/.test(path) ? { statusCode: 400, data: refused } : { statusCode: 200, data: { data: list === '/v1/templates' ? [withOrg('t1', 'o1')] : [] } },
    );
    const error = (await api.getOrganization().catch((e: unknown) => e)) as DocketError;
    expect(error.code).toBe('unknown-organization');
    expect(error.message).toContain('belong to o1');
    expect(asked.some((p) => p.startsWith('/v1/templates') && !/page%5Bsize%5D=100/.test(p))).toBe(true);
  });

  it('reads only the first page of the templates and users that tell it (the plan reads the lists itself)', async () => {
    const { mock, api } = setup('o2');
    mock.intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [org('o1', 'Acme'), org('o2', 'Acme Sub')] }, { headers: JSON_HEADERS });
    const asked = answerLists(mock, (list) => ({ statusCode: 200, data: { data: [withOrg(`${list}-1`, 'o2')], meta: { pagination: { current: 1, next: 2, last: 5, records: 5 } } } }));
    expect((await api.getOrganization()).id).toBe('o2');
    expect(asked.filter((p) => /page%5Bnumber%5D/.test(p))).toEqual([]);
    expect(asked).toHaveLength(2);
  });

  it('takes the configured one when the lists that would check it cannot be read', async () => {
    const { mock, api } = setup('o2');
    mock.intercept({ path: (p) => p.startsWith('/v1/organizations') }).reply(200, { data: [org('o1', 'Acme'), org('o2', 'Acme Sub')] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/templates') }).reply(403, { errors: [{ title: 'Forbidden' }] }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/users') }).reply(200, { data: [] }, { headers: JSON_HEADERS });
    expect((await api.getOrganization()).id).toBe('o2');
  });
});

describe('custom term bodies', () => {
  it('creates text terms without term_type and sends term_type=file with a Word term\'s create and versions', async () => {
    const { mock, api } = setup();
    const bodies: string[] = [];
    const term = { data: { id: 't1', type: 'custom_term', attributes: { name: 'T', current_version_number: 1 } } };
    const text = (body: unknown) => (typeof body === 'string' ? body : Buffer.from(body as Buffer).toString('latin1'));
    const word = { data: { ...term.data, id: 'w1', attributes: { ...term.data.attributes, name: 'W' } } };
    mock.intercept({ path: '/v1/custom_terms', method: 'POST' }).reply((o) => (bodies.push(text(o.body)), { statusCode: 201, data: term, responseOptions: { headers: JSON_HEADERS } }));
    mock.intercept({ path: '/v1/custom_terms', method: 'POST' }).reply((o) => (bodies.push(text(o.body)), { statusCode: 201, data: word, responseOptions: { headers: JSON_HEADERS } }));
    const published = { data: { ...term.data, attributes: { ...term.data.attributes, current_version_number: 2 } } };
    mock.intercept({ path: '/v1/custom_terms/t1/versions', method: 'POST' }).reply((o) => (bodies.push(Buffer.from(o.body as Buffer).toString('latin1')), { statusCode: 201, data: published, responseOptions: { headers: JSON_HEADERS } }));
    await api.createTextTerm('T', 'Body', { email: 'legal@acme.example' });
    await api.createFileTerm('W', { data: new Uint8Array([0x50, 0x4b]), filename: 'w.docx' }, { email: 'legal@acme.example' });
    await api.publishTermVersion('t1', 'T', { docx: { data: new Uint8Array([0x50, 0x4b]), filename: 't.docx' } }, { email: 'legal@acme.example' }, 2);
    expect(JSON.parse(bodies[0]!)).toEqual({ name: 'T', body: 'Body', user_email: 'legal@acme.example' });
    for (const [i, file] of [[1, 'w.docx'], [2, 't.docx']] as const) {
      expect(bodies[i]).toMatch(/name="term_type"\r\n\r\nfile\r\n/);
      expect(bodies[i]).toContain(`name="docx"; filename="${file}"`);
    }
  });
});

describe('publishing a version', () => {
  it('is no publish when the answer shows the term (or the custom template) still at its old version', async () => {
    const { mock, api } = setup();
    const at = (n: number | string) => ({ data: { id: 't1', type: 'custom_term', attributes: { name: 'T', current_version_number: n } } });
    mock.intercept({ path: '/v1/custom_terms/t1/versions', method: 'POST' }).reply(201, at(1), { headers: JSON_HEADERS });
    mock.intercept({ path: '/v1/custom_terms/t1/versions', method: 'POST' }).reply(201, at('2'), { headers: JSON_HEADERS });
    const publish = () => api.publishTermVersion('t1', 'T', { body: 'New text' }, { email: 'legal@acme.example' }, 2);
    const err = (await publish().catch((e: unknown) => e)) as DocketError;
    expect([err.code, err.message]).toEqual(['publish-not-made', 'publish custom term "T": the service answered, but the custom term it shows is still at version 1 (this publish makes 2): nothing was published']);
    // Made: the version as the answer numbers it ("2" read as 2).
    await expect(publish()).resolves.toEqual({ version: 2 });
    // A custom template the same way.
    const template = (n: number) => ({ data: { id: 'c1', type: 'custom_template', attributes: { name: 'C', current_version_number: n } } });
    mock.intercept({ path: '/v1/custom_templates/c1/versions', method: 'POST' }).reply(201, template(4), { headers: JSON_HEADERS });
    mock.intercept({ path: '/v1/custom_templates/c1/versions', method: 'POST' }).reply(201, template(5), { headers: JSON_HEADERS });
    const publishTemplate = () => api.publishCustomTemplateVersion('c1', 'C', 'title: C\n', { email: 'legal@acme.example' }, 5);
    expect(((await publishTemplate().catch((e: unknown) => e)) as DocketError).message).toBe('publish custom template "C": the service answered, but the custom template it shows is still at version 4 (this publish makes 5): nothing was published');
    await expect(publishTemplate()).resolves.toBeUndefined();
  });
});

describe('the version a term publish made', () => {
  it("is the answer's number (past the one expected when another client published meanwhile), else the one expected, with what a read found", async () => {
    const { mock, api } = setup();
    const at = (n: number) => ({ data: { id: 't1', type: 'custom_term', attributes: { name: 'T', current_version_number: n } } });
    mock.intercept({ path: '/v1/custom_terms/t1/versions', method: 'POST' }).reply(201, at(4), { headers: JSON_HEADERS });
    // An answer with no body is looked for by reading the term, whose version may be another client's since.
    mock.intercept({ path: '/v1/custom_terms/t1/versions', method: 'POST' }).reply(204, '');
    mock.intercept({ path: '/v1/custom_terms/t1', method: 'GET' }).reply(200, { data: { id: 't1', type: 'custom_term', attributes: { name: 'T', term_type: 'text', body: 'Later', current_version_number: 5 } } }, { headers: JSON_HEADERS });
    const publish = () => api.publishTermVersion('t1', 'T', { body: 'New text' }, { email: 'legal@acme.example' }, 3);
    await expect(publish()).resolves.toEqual({ version: 4 });
    // Read back, the term's version is said beside the one recorded: docket cannot tell whose it is.
    await expect(publish()).resolves.toEqual({ version: 3, read: 5, lost: false });
    // A lost answer is said as lost, and its one read of the term serves: a second read (for the
    // answer's missing id) would find no intercept, and net connect is off.
    mock.intercept({ path: '/v1/custom_terms/t1/versions', method: 'POST' }).replyWithError(new Error('socket hang up'));
    mock.intercept({ path: '/v1/custom_terms/t1', method: 'GET' }).reply(200, { data: { id: 't1', type: 'custom_term', attributes: { name: 'T', term_type: 'text', body: 'New text', current_version_number: 3 } } }, { headers: JSON_HEADERS });
    await expect(publish()).resolves.toEqual({ version: 3, read: 3, lost: true });
  });
});

describe('a publish whose answer was lost', () => {
  it('is sent again when the term or template read back holds another text at the expected number (someone else published: probe KT-1)', async () => {
    const { mock, api } = setup();
    const term = (body: string, n: number) => ({ data: { id: 't1', type: 'custom_term', attributes: { name: 'T', term_type: 'text', body, current_version_number: n } } });
    const posts: string[] = [];
    // A 502: the service answered, and nothing of the publish runs there still (a 504 may: probe CC-2).
    mock.intercept({ path: '/v1/custom_terms/t1/versions', method: 'POST' }).reply(() => (posts.push('502'), { statusCode: 502, data: '' }));
    // The app published its own text meanwhile: version 2 is not this publish.
    mock.intercept({ path: '/v1/custom_terms/t1', method: 'GET' }).reply(200, term('Old text', 2), { headers: JSON_HEADERS }).persist();
    mock.intercept({ path: '/v1/custom_terms/t1/versions', method: 'POST' }).reply(() => (posts.push('201'), { statusCode: 201, data: term('New text', 3), responseOptions: { headers: JSON_HEADERS } }));
    await expect(api.publishTermVersion('t1', 'T', { body: 'New text' }, { email: 'legal@acme.example' }, 2, undefined, (now) => now.body === 'New text')).resolves.toEqual({ version: 3 });
    expect(posts).toEqual(['502', '201']);

    const template = (definition: string, n: number) => ({ data: { id: 'c1', type: 'custom_template', attributes: { name: 'C', current_definition: definition, current_version_number: n } } });
    const sent: string[] = [];
    mock.intercept({ path: '/v1/custom_templates/c1/versions', method: 'POST' }).reply(() => (sent.push('502'), { statusCode: 502, data: '' }));
    mock.intercept({ path: '/v1/custom_templates/c1', method: 'GET' }).reply(200, template('title: Old\n', 5), { headers: JSON_HEADERS }).persist();
    mock.intercept({ path: '/v1/custom_templates/c1/versions', method: 'POST' }).reply(() => (sent.push('201'), { statusCode: 201, data: template('title: C\n', 6), responseOptions: { headers: JSON_HEADERS } }));
    await api.publishCustomTemplateVersion('c1', 'C', 'title: C\n', { email: 'legal@acme.example' }, 5, (now) => now.current_definition === 'title: C\n');
    expect(sent).toEqual(['502', '201']);
  });
});

describe('version numbers', () => {
  it('reads a current_version_number sent as a numeric string as the number: the next version is 3, not "21"', async () => {
    const { mock, api } = setup();
    const term = { id: 't1', type: 'custom_term', attributes: { name: 'T', term_type: 'text', body: 'Text', current_version_number: '2' } };
    const template = { id: 'c1', type: 'custom_template', attributes: { name: 'C', current_definition: '', current_version_number: ' 7 ' } };
    mock.intercept({ path: (p) => p.startsWith('/v1/custom_terms') }).reply(200, { data: [term] }, { headers: JSON_HEADERS });
    mock.intercept({ path: '/v1/custom_terms/t1' }).reply(200, { data: term }, { headers: JSON_HEADERS });
    mock.intercept({ path: (p) => p.startsWith('/v1/custom_templates') }).reply(200, { data: [template] }, { headers: JSON_HEADERS });
    const [listed] = await api.listCustomTerms();
    expect(listed!.attributes.current_version_number + 1).toBe(3);
    expect((await api.getCustomTerm('t1', 'T')).attributes.current_version_number).toBe(2);
    expect((await api.listCustomTemplates())[0]!.attributes.current_version_number).toBe(7);
  });
});

describe('attachment uploads', () => {
  it('that succeed without the new id fail as taken but not named, without claiming that no answer came', async () => {
    const { mock, api } = setup();
    mock.intercept({ path: '/v1/attachments', method: 'POST' }).reply(201, {}, { headers: JSON_HEADERS });
    const file = { data: Buffer.from('%PDF-1.4'), filename: 'security.pdf' };
    const error = (await api.uploadAttachment(file, { name: 'Security', description: null, uploadedBy: 'a@x' }).catch((e: unknown) => e)) as DocketError;
    expect(error.code).toBe('unnamed-upload');
    expect(error.message).toBe('upload attachment "Security": the service took security.pdf but its answer did not name the new attachment, and attachments cannot be listed to find it');
    expect(error.hint).toContain('`id:`');
  });

  it('answered with another attachment (a gateway mix-up) fail as taken but not named: its id is not the new one', async () => {
    const { mock, api } = setup();
    const answer = (name: string) => ({ data: { id: 'a-other', type: 'attachment', attributes: { name } } });
    mock.intercept({ path: '/v1/attachments', method: 'POST' }).reply(201, answer('Pricing Exhibit'), { headers: JSON_HEADERS });
    mock.intercept({ path: '/v1/attachments', method: 'POST' }).reply(201, answer(' security '), { headers: JSON_HEADERS });
    const file = { data: Buffer.from('%PDF-1.4'), filename: 'security.pdf' };
    const error = (await api.uploadAttachment(file, { name: 'Security', description: null, uploadedBy: 'a@x' }).catch((e: unknown) => e)) as DocketError;
    expect([error.code, error.message]).toEqual([
      'unnamed-upload',
      'upload attachment "Security": the service took security.pdf but its answer named another attachment (name "Pricing Exhibit"), not the new one, and attachments cannot be listed to find it',
    ]);
    // Its own name as the service holds it (case and spaces at the ends aside) is the new one.
    expect((await api.uploadAttachment(file, { name: 'Security', description: null, uploadedBy: 'a@x' })).id).toBe('a-other');
  });

  it('that the service answers with a 5xx say what it answered, not that no answer came', async () => {
    const { mock, api } = setup();
    mock.intercept({ path: '/v1/attachments', method: 'POST' }).reply(500, { errors: [{ title: 'boom' }] }, { headers: { ...JSON_HEADERS, 'x-request-id': 'req-42' } });
    const file = { data: Buffer.from('%PDF-1.4'), filename: 'security.pdf' };
    const error = (await api.uploadAttachment(file, { name: 'Security', description: null, uploadedBy: 'a@x' }).catch((e: unknown) => e)) as DocketError;
    expect(error.code).toBe('unknown-outcome');
    expect(error.message).toBe('upload attachment "Security": the service may have received security.pdf, but no answer named a new attachment (the agreements service answered HTTP 500 [request req-42]), and attachments cannot be listed to check; docket did not send it again, so at most one copy may now be orphaned');
  });
});

describe('ids in request paths', () => {
  it('are sent as one segment, and one a URL would read as another route is refused before any request', async () => {
    const { mock, api } = setup('o1');
    const paths: string[] = [];
    mock.intercept({ path: (p) => p.startsWith('/v1/custom_terms/') }).reply((opts) => {
      paths.push(opts.path);
      return { statusCode: 200, data: { data: { id: 'a:b', type: 'custom_term', attributes: { name: 'T', body: 'x', version: 1 } } }, responseOptions: { headers: JSON_HEADERS } };
    });
    await api.getCustomTerm('a:b', 'T');
    expect(paths).toEqual(['/v1/custom_terms/a%3Ab']);
    for (const id of ['..', '../templates', 'x?y']) {
      await expect(api.getCustomTerm(id, 'T')).rejects.toThrow(DocketError);
    }
    expect(paths).toHaveLength(1);
  });
});
