import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { parseMultipart } from '../../../src/emulator/multipart.js';
import { MAX_BODY_BYTES } from '../../../src/emulator/http.js';
import { HttpProblem } from '../../../src/emulator/problem.js';
import { defaultSeed, parseSeed } from '../../../src/emulator/seed.js';
import { stateFromSeed } from '../../../src/emulator/store.js';
import { ADMIN, startAgreements } from './agreements-harness.js';
import { closeAll, fields, one, problem } from './harness.js';

afterEach(closeAll);

const PDF = '%PDF-1.4\nhello\n%%EOF';

describe('attachments', () => {
  it('uploads a PDF (multipart) and reads it back', async () => {
    const h = await startAgreements();
    const res = await h.upload('POST', '/v1/attachments', [
      { name: 'attachment[pdf]', file: PDF, filename: 'policy.pdf', type: 'application/pdf' },
      { name: 'attachment[name]', value: 'Security policy' },
      { name: 'attachment[description]', value: 'Version 3' },
      { name: 'attachment[uploaded_by]', value: ADMIN },
    ]);
    expect(res.status).toBe(201);
    const attachment = one(res);
    expect(attachment).toMatchObject({
      type: 'attachment',
      attributes: {
        name: 'Security policy',
        description: 'Version 3',
        filename: 'policy.pdf',
        byte_size: Buffer.byteLength(PDF),
        sha256: createHash('sha256').update(PDF).digest('hex'),
      },
    });
    expect(Object.keys(attachment.attributes).sort()).toEqual(['byte_size', 'created_at', 'description', 'filename', 'name', 'sha256']);
    expect(one(await h.ag('GET', `/v1/attachments/${attachment.id}`))).toEqual(attachment);
    expect((await h.ag('GET', '/v1/attachments/nope')).status).toBe(404);
  });

  it('answers 413 to a body over its limit, rather than dropping the connection', async () => {
    const h = await startAgreements();
    const big = new Uint8Array(MAX_BODY_BYTES + 1024 * 1024);
    const res = await h.upload('POST', '/v1/attachments', [
      { name: 'attachment[pdf]', file: big, filename: 'huge.pdf', type: 'application/pdf' },
      { name: 'attachment[name]', value: 'Huge' },
    ]);
    expect(res.status).toBe(413);
    expect(problem(res).detail).toContain('request body larger than');
    // The connection is still good for the next request.
    expect((await h.ag('GET', '/v1/custom_terms')).status).toBe(200);
  });

  it('rejects an upload without a name (422), without the file (422), or not multipart (400)', async () => {
    const h = await startAgreements();
    const noName = await h.upload('POST', '/v1/attachments', [{ name: 'attachment[pdf]', file: PDF, filename: 'a.pdf' }]);
    expect(noName.status).toBe(422);
    expect(fields(noName)).toEqual(['attachment[name]']);
    const noFile = await h.upload('POST', '/v1/attachments', [{ name: 'attachment[name]', value: 'X' }]);
    expect(fields(noFile)).toEqual(['attachment[pdf]']);
    const json = await h.ag('POST', '/v1/attachments', { attachment: { name: 'X' } });
    expect(json.status).toBe(400);
    expect(problem(json).detail).toContain('multipart/form-data');
  });
});

describe('statistics and seeds', () => {
  it('counts agreements requests by route template with :id', async () => {
    const h = await startAgreements();
    const term = one(await h.ag('POST', '/v1/custom_terms', { name: 'T', body: 'x', term_type: 'text', user_email: ADMIN }));
    await h.ag('GET', `/v1/custom_terms/${term.id}`);
    await h.ag('POST', `/v1/custom_terms/${term.id}/versions`, { body: 'y', user_email: ADMIN });
    await h.ag('GET', '/v1/templates?full=true');
    await h.ag('GET', '/v1/users');
    await h.ag('DELETE', `/v1/custom_terms/${term.id}`);
    expect(h.emu.stats().requests.by_route).toEqual({
      'DELETE /agreements/v1/custom_terms/:id': 1,
      'GET /agreements/v1/custom_terms/:id': 1,
      'GET /agreements/v1/templates': 1,
      'GET /agreements/v1/users': 1,
      'POST /agreements/v1/custom_terms': 1,
      'POST /agreements/v1/custom_terms/:id/versions': 1,
    });
  });

  it('checks the agreements part of a seed', () => {
    expect(() => parseSeed({ organizations: [{ id: 'o', name: 'O', api_keys: ['k'], users: [], agreements: { templates: [{ name: 'T', type: 'MSA' }], docx_conversion: 'sometimes' } }] })).toThrow(
      /docx_conversion.*templates\[0\]\.type/,
    );
    const seed = defaultSeed();
    const org = seed.organizations[0];
    if (org) org.agreements = { custom_templates: [{ name: 'C', definition: 'sections:\n  - heading: H\n    fields:\n      a: {label: A, input: select}\n' }] };
    expect(() => stateFromSeed(parseSeed(seed), new Date().toISOString())).toThrow(/sections\[0\]\.fields\.a\.options/);
    if (org) org.agreements = { custom_templates: [{ name: 'C', definition: 'sections: []', custom_term_name: 'Missing' }] };
    expect(() => stateFromSeed(parseSeed(seed), new Date().toISOString())).toThrow(/Missing/);
    expect(stateFromSeed(defaultSeed(), new Date().toISOString()).organizations[defaultSeed().organizations[0]?.id ?? '']?.agreements.organization.name).toBe('Acme Legal (emulator)');
  });
});

describe('parseMultipart', () => {
  const type = 'multipart/form-data; boundary=XyZ';
  it('splits fields and files, keeping bytes exact', () => {
    const body = Buffer.concat([
      Buffer.from('preamble\r\n--XyZ\r\nContent-Disposition: form-data; name="name"\r\n\r\nMSA\r\n'),
      Buffer.from('--XyZ\r\nContent-Disposition: form-data; name="docx"; filename="a \\"b\\".docx"\r\nContent-Type: application/octet-stream\r\n\r\n'),
      Buffer.from([0, 13, 10, 45, 45, 255]),
      Buffer.from('\r\n--XyZ--\r\n'),
    ]);
    const parts = parseMultipart(body, type);
    expect(parts.map((p) => [p.name, p.filename, p.contentType])).toEqual([
      ['name', null, null],
      ['docx', 'a "b".docx', 'application/octet-stream'],
    ]);
    expect(parts[0]?.data.toString()).toBe('MSA');
    expect([...(parts[1]?.data ?? [])]).toEqual([0, 13, 10, 45, 45, 255]);
  });

  it('throws a 400 for malformed bodies', () => {
    for (const [body, contentType] of [
      ['--XyZ\r\nContent-Disposition: form-data; name="a"\r\n\r\nunterminated', type],
      ['no boundary here', type],
      ['--XyZ\r\nX-Other: 1\r\n\r\nv\r\n--XyZ--', type],
      ['--XyZ--', 'multipart/form-data'],
    ] as const) {
      expect(() => parseMultipart(Buffer.from(body), contentType)).toThrow(HttpProblem);
    }
  });
});
