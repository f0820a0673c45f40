import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed, type EmulatorSeed } from '../../../src/emulator/seed.js';
import { ADMIN, startAgreements, waitFor, type AgreementsHarness } from './agreements-harness.js';
import { closeAll, fields, list, one, ORG, problem, type Resource } from './harness.js';

afterEach(closeAll);

const TERMS = '/v1/custom_terms';
const DOCX = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3, 4, 5]);
const DOCX_SHA = createHash('sha256').update(DOCX).digest('hex');

function seedWith(extra: (org: EmulatorSeed['organizations'][number]) => void): EmulatorSeed {
  const seed = defaultSeed({ users: [{ email: 'alice@acme.example', name: 'Alice' }] });
  const org = seed.organizations[0];
  if (org) extra(org);
  return seed;
}

async function createFileTerm(h: AgreementsHarness, name = 'MSA terms') {
  return h.upload('POST', TERMS, [
    { name: 'name', value: name },
    { name: 'term_type', value: 'file' },
    { name: 'docx', file: DOCX, filename: 'msa.docx', type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document' },
    { name: 'user_email', value: ADMIN },
  ]);
}

async function statusOf(h: AgreementsHarness, id: string): Promise<unknown> {
  return one(await h.ag('GET', `${TERMS}/${id}`)).attributes.conversion_status;
}

describe('text custom terms', () => {
  it('creates version 1, reads the body back, renames, and publishes version 2', async () => {
    const h = await startAgreements({ seed: seedWith(() => undefined) });
    const created = await h.ag('POST', TERMS, { name: 'Payment terms', body: '# Pay\n\nNet 30.', term_type: 'text', user_email: 'alice@acme.example' });
    expect(created.status).toBe(201);
    const term = one(created);
    expect(term).toMatchObject({ type: 'custom_term', attributes: { name: 'Payment terms', term_type: 'text', current_version_number: 1, conversion_status: null, body: '# Pay\n\nNet 30.' } });

    const listed = list(await h.ag('GET', TERMS));
    expect(listed).toHaveLength(1);
    expect(Object.keys(listed[0]?.attributes ?? {}).sort()).toEqual(['conversion_status', 'created_at', 'current_version_number', 'name', 'term_type', 'updated_at']);
    expect(one(await h.ag('GET', `${TERMS}/${term.id}`)).attributes.body).toBe('# Pay\n\nNet 30.');

    const renamed = await h.ag('PATCH', `${TERMS}/${term.id}`, { name: 'Payment' });
    expect(renamed.status).toBe(200);
    expect(one(renamed).attributes).toMatchObject({ name: 'Payment', current_version_number: 1 });

    const users = list(await h.ag('GET', '/v1/users'));
    const alice = users.find((u) => u.attributes.email === 'alice@acme.example');
    const published = await h.ag('POST', `${TERMS}/${term.id}/versions`, { body: 'Net 60.', user_id: alice?.id });
    expect(published.status).toBe(201);
    expect(one(published).attributes).toMatchObject({ current_version_number: 2, body: 'Net 60.' });
    expect(one(await h.ag('GET', `${TERMS}/${term.id}`)).attributes).toMatchObject({ current_version_number: 2, body: 'Net 60.' });

    const versions = list(await h.ag('GET', `${TERMS}/${term.id}/versions`));
    expect(versions.map((v) => v.attributes)).toEqual([
      expect.objectContaining({ version_number: 1, body: '# Pay\n\nNet 30.', docx_sha256: null, created_by_email: 'alice@acme.example' }),
      expect.objectContaining({ version_number: 2, body: 'Net 60.', docx_sha256: null, created_by_email: 'alice@acme.example' }),
    ]);
  });

  it('allows only name on PATCH', async () => {
    const h = await startAgreements();
    const term = one(await h.ag('POST', TERMS, { name: 'T', body: 'x', term_type: 'text', user_email: ADMIN }));
    const res = await h.ag('PATCH', `${TERMS}/${term.id}`, { name: 'T2', body: 'y' });
    expect(res.status).toBe(422);
    expect(fields(res)).toEqual(['body']);
    expect(problem(res).errors?.[0]?.message).toBe('only name can be changed; publish a version');
    expect(fields(await h.ag('PATCH', `${TERMS}/${term.id}`, { name: '' }))).toEqual(['name']);
    expect(one(await h.ag('GET', `${TERMS}/${term.id}`)).attributes).toMatchObject({ name: 'T', body: 'x' });
  });

  it('requires user_email or user_id naming a user of the organization (422)', async () => {
    const h = await startAgreements();
    const missing = await h.ag('POST', TERMS, { name: 'T', body: 'x', term_type: 'text' });
    expect(missing.status).toBe(422);
    expect(fields(missing)).toEqual(['user_email']);
    const stranger = await h.ag('POST', TERMS, { name: 'T', body: 'x', term_type: 'text', user_email: 'ghost@elsewhere.example' });
    expect(fields(stranger)).toEqual(['user_email']);
    const badId = await h.ag('POST', TERMS, { name: 'T', body: 'x', term_type: 'text', user_id: '00000000-0000-4000-8000-00000000ffff' });
    expect(fields(badId)).toEqual(['user_id']);
    const noBody = await h.ag('POST', TERMS, { name: '', term_type: 'text', user_email: ADMIN });
    expect(fields(noBody).sort()).toEqual(['body', 'name']);
    const badType = await h.ag('POST', TERMS, { name: 'T', body: 'x', term_type: 'pdf', user_email: ADMIN });
    expect(fields(badType)).toEqual(['term_type']);
    const term = one(await h.ag('POST', TERMS, { name: 'T', body: 'x', term_type: 'text', user_email: ADMIN }));
    const version = await h.ag('POST', `${TERMS}/${term.id}/versions`, { body: 'y' });
    expect(version.status).toBe(422);
    expect(fields(version)).toEqual(['user_email']);
    expect(list(await h.ag('GET', TERMS))).toHaveLength(1);
    expect((await h.ag('GET', `${TERMS}/nope`)).status).toBe(404);
  });

  it('answers 404 on every custom terms and templates path when the feature is off', async () => {
    const h = await startAgreements({ seed: seedWith((org) => (org.features = { custom_terms: false })) });
    const calls = [
      h.ag('GET', TERMS),
      h.ag('POST', TERMS, { name: 'T', body: 'x', term_type: 'text', user_email: ADMIN }),
      h.ag('GET', `${TERMS}/x`),
      h.ag('PATCH', `${TERMS}/x`, { name: 'y' }),
      h.ag('GET', `${TERMS}/x/versions`),
      h.ag('POST', `${TERMS}/x/versions`, { body: 'y', user_email: ADMIN }),
      h.ag('GET', '/v1/custom_templates'),
      h.ag('POST', '/v1/custom_templates', { name: 'C', definition: 'sections: []', user_email: ADMIN }),
      h.ag('GET', '/v1/custom_templates/x'),
      h.ag('PATCH', '/v1/custom_templates/x', { name: 'y' }),
      h.ag('POST', '/v1/custom_templates/x/versions', { definition: 'sections: []', user_email: ADMIN }),
    ];
    for (const res of await Promise.all(calls)) {
      expect(res.status).toBe(404);
      expect(problem(res).detail).toBe('custom terms and templates are not enabled for this organization');
    }
    expect((await h.ag('GET', '/v1/templates')).status).toBe(200);
  });
});

describe('file custom terms', () => {
  it('uploads a docx (multipart): processing, then ready after the conversion delay; the state file follows', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docket-agreements-'));
    try {
      const stateFile = join(dir, 'state.json');
      const h = await startAgreements({ conversionDelayMs: 20, stateFile });
      const created = await createFileTerm(h);
      expect(created.status).toBe(201);
      const term = one(created);
      expect(term.attributes).toMatchObject({ name: 'MSA terms', term_type: 'file', current_version_number: 1, conversion_status: 'processing', body: null });
      await waitFor(() => statusOf(h, term.id), (s) => s === 'ready');
      const saved = await waitFor(
        async () => JSON.parse(await readFile(stateFile, 'utf8')) as { organizations: Record<string, { agreements: { custom_terms: Record<string, { conversion_status: string }> } }> },
        (s) => s.organizations[ORG]?.agreements.custom_terms[term.id]?.conversion_status === 'ready',
      );
      expect(saved).toBeDefined();
      const versions = list(await h.ag('GET', `${TERMS}/${term.id}/versions`));
      expect(versions[0]?.attributes).toMatchObject({ version_number: 1, body: null, docx_sha256: DOCX_SHA, created_by_email: ADMIN });

      const v2 = await h.upload('POST', `${TERMS}/${term.id}/versions`, [
        { name: 'docx', file: new Uint8Array([0x50, 0x4b, 9]), filename: 'msa-v2.docx' },
        { name: 'user_email', value: ADMIN },
      ]);
      expect(v2.status).toBe(201);
      expect(one(v2).attributes).toMatchObject({ current_version_number: 2, conversion_status: 'processing' });
      await waitFor(() => statusOf(h, term.id), (s) => s === 'ready');
    } finally {
      await closeAll();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('resumes a conversion a stopped emulator left processing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'docket-agreements-'));
    try {
      const stateFile = join(dir, 'state.json');
      const first = await startAgreements({ conversionDelayMs: 60_000, stateFile });
      const term = one(await createFileTerm(first));
      await first.emu.close();
      const second = await startAgreements({ conversionDelayMs: 60_000, stateFile });
      expect(await statusOf(second, term.id)).toBe('processing');
      await second.emu.close();
      // Its delay past since the version was published (a run killed mid-conversion, started again
      // later): ready at once, not after the whole delay again, which a short run never sees (probe BH-2).
      const state = JSON.parse(await readFile(stateFile, 'utf8')) as { organizations: Record<string, { agreements: { custom_terms: Record<string, { versions: { created_at: string }[] }> } }> };
      state.organizations[ORG]!.agreements.custom_terms[term.id]!.versions.at(-1)!.created_at = new Date(Date.now() - 120_000).toISOString();
      await writeFile(stateFile, JSON.stringify(state));
      const third = await startAgreements({ conversionDelayMs: 60_000, stateFile });
      expect(await statusOf(third, term.id)).toBe('ready');
    } finally {
      await closeAll();
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('ends failed when the organization seed option says so', async () => {
    const h = await startAgreements({ conversionDelayMs: 5, seed: seedWith((org) => (org.agreements = { docx_conversion: 'failed' })) });
    const term = one(await createFileTerm(h));
    expect(term.attributes.conversion_status).toBe('processing');
    await waitFor(() => statusOf(h, term.id), (s) => s === 'failed');
  });

  it('ends failed when the control route says so, and config shows the conversion settings', async () => {
    const h = await startAgreements({ conversionDelayMs: 5 });
    const config = await h.control('PUT', '/_emulator/config', { docx_conversion: 'failed', conversion_delay_ms: 10 });
    expect(config.status).toBe(200);
    expect(config.body).toMatchObject({ docx_conversion: 'failed', conversion_delay_ms: 10 });
    const term = one(await createFileTerm(h));
    await waitFor(() => statusOf(h, term.id), (s) => s === 'failed');
    expect((await h.control('PUT', '/_emulator/config', { docx_conversion: 'maybe' })).status).toBe(422);
    expect((await h.control('PUT', '/_emulator/config', { conversion_delay_ms: -1 })).status).toBe(422);
    h.emu.configure({ docxConversion: 'ready' });
    const second = one(await createFileTerm(h, 'Other'));
    await waitFor(() => statusOf(h, second.id), (s) => s === 'ready');
  });

  it('rejects a file term without its docx part, and a docx sent to a text term', async () => {
    const h = await startAgreements();
    const noFile = await h.upload('POST', TERMS, [
      { name: 'name', value: 'X' },
      { name: 'term_type', value: 'file' },
      { name: 'user_email', value: ADMIN },
    ]);
    expect(noFile.status).toBe(422);
    expect(fields(noFile)).toEqual(['docx']);
    const json = await h.ag('POST', TERMS, { name: 'X', term_type: 'file', user_email: ADMIN });
    expect(fields(json)).toEqual(['docx']);
    const text = one(await h.ag('POST', TERMS, { name: 'T', body: 'x', term_type: 'text', user_email: ADMIN }));
    const wrong = await h.upload('POST', `${TERMS}/${text.id}/versions`, [
      { name: 'docx', file: DOCX, filename: 'a.docx' },
      { name: 'user_email', value: ADMIN },
    ]);
    expect(fields(wrong).sort()).toEqual(['body', 'docx']);
  });

  it('starts seeded file terms converted, seeded text terms with their body', async () => {
    const seed = seedWith((org) => {
      org.agreements = { custom_terms: [{ id: 'term-1', name: 'Seeded', body: 'Hello' }, { id: 'term-2', name: 'Seeded file', term_type: 'file' }] };
    });
    const h = await startAgreements({ seed });
    const terms = list(await h.ag('GET', TERMS));
    expect(terms.map((t: Resource) => [t.id, t.attributes.conversion_status])).toEqual([
      ['term-1', null],
      ['term-2', 'ready'],
    ]);
    expect(one(await h.ag('GET', `${TERMS}/term-1`)).attributes.body).toBe('Hello');
  });
});
