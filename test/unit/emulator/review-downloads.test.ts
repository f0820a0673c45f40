/** The four downloads of a review, and processing across restarts, resets and the runtime config. */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readZipEntry, zipEntryNames } from '../../../src/emulator/zip.js';
import { call, closeAll, list, ORG, one, problem } from './harness.js';
import { docx } from './documents.js';
import { CONTRACT, DOCX_TYPE, RULES, STYLES, startReviews } from './reviews-harness.js';

let dir: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docket-reviews-'));
});

afterEach(async () => {
  await closeAll();
  await rm(dir, { recursive: true, force: true });
});

describe.each(STYLES)('downloads (%s paths)', (style) => {
  it('serves the original at once and the bundle, audit and processed contract once completed', async () => {
    const h = await startReviews(style, { reviewDelayMs: 60_000 });
    await h.playbook('NDA', RULES);
    const bytes = docx(['Governing law is Delaware.', { text: 'Termination: ', ins: 'unilateral termination' }]);
    const fileId = await h.importFile(bytes, 'msa.docx');
    const review = one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId }));
    const base = `${h.prefix}/reviews/${review.id}/download`;

    const original = await h.download(`${base}/original`);
    expect([original.status, original.headers.get('content-type'), original.headers.get('content-disposition')]).toEqual([200, DOCX_TYPE, 'attachment; filename="msa.docx"']);
    expect(original.bytes.equals(bytes)).toBe(true);
    for (const what of ['bundle', 'audit', 'processed']) {
      const early = await h.review('GET', `${base}/${what}`);
      expect([early.status, problem(early).detail]).toEqual([409, `review ${review.id} is still processing`]);
    }
    // While processing the review shows no results and they have no routes yet.
    expect(one(await h.review('GET', `${h.prefix}/reviews/${review.id}`)).attributes).not.toHaveProperty('redline_evaluations');
    expect(list(await h.review('GET', `${h.prefix}/reviews/${review.id}/redline_evaluations`))).toEqual([]);
    expect(list(await h.review('GET', `${h.prefix}/reviews/${review.id}/flag_violations`))).toEqual([]);

    await h.control('PUT', '/_emulator/config', { review_delay_ms: 0 });
    const second = one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId }));
    await h.settled(second.id);
    const done = `${h.prefix}/reviews/${second.id}/download`;
    const processed = await h.download(`${done}/processed`);
    expect([processed.status, processed.headers.get('content-disposition')]).toEqual([200, 'attachment; filename="msa-processed.docx"']);
    expect(processed.bytes.equals(bytes)).toBe(true);
    const audit = await h.download(`${done}/audit`);
    expect(audit.headers.get('content-type')).toBe('text/markdown; charset=utf-8');
    expect(audit.bytes.toString()).toContain('- Termination: **reject**.');
    const bundle = await h.download(`${done}/bundle`);
    expect([bundle.headers.get('content-type'), bundle.headers.get('content-disposition')]).toEqual(['application/zip', 'attachment; filename="msa-review.zip"']);
    expect(zipEntryNames(bundle.bytes)).toEqual(['review.json', 'audit.md', 'original/msa.docx', 'processed/msa-processed.docx']);
    const json = JSON.parse(readZipEntry(bundle.bytes, 'review.json')?.toString() ?? '{}') as { data: { id: string; attributes: { redline_evaluations: unknown[] } } };
    expect(json.data.id).toBe(second.id);
    expect(json.data.attributes.redline_evaluations).toHaveLength(1);
    expect(readZipEntry(bundle.bytes, 'original/msa.docx')?.equals(bytes)).toBe(true);
    expect((await h.review('GET', `${h.prefix}/reviews/nope/download/bundle`)).status).toBe(404);
  });

  it('answers 409 naming the reason for a failed review', async () => {
    const h = await startReviews(style);
    await h.playbook('NDA', RULES);
    const fileId = await h.importFile(' \n\n ', 'blank.txt');
    const review = one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId }));
    await h.settled(review.id);
    const reply = await h.review('GET', `${h.prefix}/reviews/${review.id}/download/audit`);
    expect([reply.status, problem(reply).detail]).toEqual([409, `review ${review.id} failed: the file has no text`]);
    expect((await h.download(`${h.prefix}/reviews/${review.id}/download/original`)).status).toBe(200);
  });
});

describe('processing', () => {
  it('resumes a review left processing when the emulator restarts from its state file', async () => {
    const stateFile = join(dir, 'state.json');
    const first = await startReviews('nested', { stateFile, reviewDelayMs: 60_000 });
    await first.playbook('NDA', RULES);
    const fileId = await first.importFile(CONTRACT, 'nda.txt');
    const review = one(await first.review('POST', `${first.prefix}/reviews`, { imported_file_id: fileId }));
    await first.emu.close();
    const saved = JSON.parse(await readFile(stateFile, 'utf8')) as { organizations: Record<string, { reviews: Record<string, { status: string }> }> };
    expect(saved.organizations[ORG]?.reviews[review.id]?.status).toBe('processing');

    const second = await startReviews('nested', { stateFile, reviewDelayMs: 5 });
    expect((await second.settled(review.id)).attributes.status).toBe('completed');
    // The completion is saved too.
    await second.emu.close();
    const after = JSON.parse(await readFile(stateFile, 'utf8')) as typeof saved;
    expect(after.organizations[ORG]?.reviews[review.id]?.status).toBe('completed');
  });

  it('cancels pending reviews on reset; the delay is an option and a config key', async () => {
    const h = await startReviews('nested', { reviewDelayMs: 30 });
    expect((await h.control('GET', '/_emulator/config')).body).toMatchObject({ review_delay_ms: 30 });
    await h.playbook('NDA', RULES);
    const fileId = await h.importFile(CONTRACT, 'nda.txt');
    one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId }));
    await h.control('POST', '/_emulator/reset');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(h.emu.store.organization(ORG)?.reviews).toEqual({});
    const bad = await h.control('PUT', '/_emulator/config', { review_delay_ms: -1 });
    expect([bad.status, problem(bad).errors?.[0]?.field]).toEqual([422, 'review_delay_ms']);
  });

  it('loads a state file written before reviews and agreements existed', async () => {
    const stateFile = join(dir, 'old.json');
    const h = await startReviews('nested', { stateFile });
    await h.playbook('NDA', RULES);
    const state = h.emu.store.snapshot() as unknown as { organizations: Record<string, Record<string, unknown>> };
    await h.emu.close();
    for (const org of Object.values(state.organizations)) {
      delete org.imported_files;
      delete org.reviews;
      delete org.review_uploads;
      const agreements = org.agreements as Record<string, unknown>;
      delete agreements.agreements;
      delete agreements.monthly_agreement_limit;
    }
    await writeFile(stateFile, JSON.stringify(state));
    const again = await startReviews('nested', { stateFile });
    const fileId = await again.importFile(CONTRACT, 'nda.txt');
    const review = one(await again.review('POST', `${again.prefix}/reviews`, { imported_file_id: fileId }));
    expect((await again.settled(review.id)).attributes.status).toBe('completed');
    const template = one(await call(`${again.emu.agreementsUrl}/v1/templates`, 'POST', { type: 'NDA', name: 'NDA' }));
    const agreement = await call(`${again.emu.agreementsUrl}/v1/agreements`, 'POST', { template_id: template.id, owner_email: 'admin@emulator.local', signer_email: 'admin@emulator.local', draft: true, agreement: { test_agreement: true } });
    expect(agreement.status).toBe(201);
  });
});
