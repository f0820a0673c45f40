/** Imported files and reviews of the review service, in both path styles. */
import { execFileSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { defaultSeed } from '../../../src/emulator/seed.js';
import { compareCreated } from '../../../src/emulator/store.js';
import { closeAll, fields, list, one, problem } from './harness.js';
import { docx, pdf } from './documents.js';
import { CONTRACT, DOCX_TYPE, RULES, STYLES, startReviews } from './reviews-harness.js';

afterEach(closeAll);

const OTHER_ORG = '00000000-0000-4000-8000-000000000002';

describe.each(STYLES)('imported files (%s paths)', (style) => {
  it('uploads a file (multipart part `file`), lists it paged and reads it back', async () => {
    const h = await startReviews(style);
    const first = await h.upload('POST', `${h.prefix}/imported_files`, [{ name: 'file', file: new Uint8Array(docx(['Hello.'])), filename: 'nda.docx' }]);
    expect(first.status).toBe(201);
    const file = one(first);
    expect(file).toMatchObject({ type: 'imported_file', attributes: { filename: 'nda.docx', content_type: DOCX_TYPE, byte_size: expect.any(Number), sha256: expect.stringMatching(/^[0-9a-f]{64}$/) } });
    await h.importFile('plain text', 'a.txt', 'text/plain');
    await h.importFile(pdf(['x']), 'b.pdf');
    const page = (await h.review('GET', `${h.prefix}/imported_files?page[size]=2`)).body as { data: { attributes: { filename: string; content_type: string } }[]; meta: { pagination: unknown } };
    expect(page.data.map((f) => f.attributes.filename)).toEqual(['nda.docx', 'a.txt']);
    expect(page.meta.pagination).toEqual({ current: 1, next: 2, last: 2, records: 3 });
    const second = list(await h.review('GET', `${h.prefix}/imported_files?page[number]=2&page[size]=2`));
    expect(second.map((f) => [f.attributes.filename, f.attributes.content_type])).toEqual([['b.pdf', 'application/pdf']]);
    expect(one(await h.review('GET', `${h.prefix}/imported_files/${file.id}`)).id).toBe(file.id);
    expect((await h.review('GET', `${h.prefix}/imported_files/nope`)).status).toBe(404);
  });

  it('lists records made in the same millisecond in the order they were made, not by their random ids', () => {
    const made = ['c-id', 'a-id', 'b-id'].map((id) => ({ id, created_at: '2026-01-01T00:00:00.000Z' }));
    expect([...made].sort((a, b) => compareCreated(a.created_at, b.created_at)).map((r) => r.id)).toEqual(['c-id', 'a-id', 'b-id']);
    expect(compareCreated('2026-01-01T00:00:00.001Z', '2026-01-01T00:00:00.000Z')).toBe(1);
  });

  it('refuses a body that is not multipart (400) and a missing, textual or empty file part (422)', async () => {
    const h = await startReviews(style);
    expect((await h.review('POST', `${h.prefix}/imported_files`, { file: 'x' })).status).toBe(400);
    const missing = await h.upload('POST', `${h.prefix}/imported_files`, [{ name: 'other', value: 'x' }]);
    expect([missing.status, problem(missing).errors]).toEqual([422, [{ field: 'file', message: 'is required (the contract, a PDF or DOCX file)' }]]);
    const text = await h.upload('POST', `${h.prefix}/imported_files`, [{ name: 'file', value: 'x' }]);
    expect(problem(text).errors?.[0]?.message).toBe('must be a file part (with a filename)');
    const empty = await h.upload('POST', `${h.prefix}/imported_files`, [{ name: 'file', file: '', filename: 'e.pdf' }]);
    expect(problem(empty).errors?.[0]?.message).toBe('is an empty file');
  });
});

describe.each(STYLES)('reviews (%s paths)', (style) => {
  it('creates a review from an imported file id: processing first, then completed with its results', async () => {
    const h = await startReviews(style);
    const playbookId = await h.playbook('NDA', RULES);
    const fileId = await h.importFile(CONTRACT, 'nda.txt', 'text/plain');
    const created = await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId, playbook_id: playbookId, review_type: 'SummaryReview' });
    expect(created.status).toBe(201);
    const review = one(created);
    expect(review).toMatchObject({ type: 'review', attributes: { review_type: 'SummaryReview', status: 'processing', playbook_id: playbookId, imported_file_id: fileId, filename: 'nda.txt', completed_at: null } });
    expect(review.attributes).not.toHaveProperty('summary_positions');

    const done = await h.settled(review.id);
    expect(done.attributes).toMatchObject({ status: 'completed', completed_at: expect.any(String) });
    const positions = done.attributes.summary_positions as { summary: string; summary_review_id: string }[];
    expect(positions.map((p) => p.summary)).toEqual(['Termination is mutual.', 'Governing law is the State of New York.', 'Not addressed in the contract.']);
    expect(positions[0]?.summary_review_id).toBe(review.id);
    const violations = done.attributes.flag_violations as { rule: string; decision: null; summary_review_id: string }[];
    expect(violations.map((v) => [v.rule, v.decision])).toEqual([
      ['Governing Law', null],
      ['Indemnification', null],
    ]);
    expect(done.attributes).not.toHaveProperty('redline_evaluations');
  });

  it('creates a review from a multipart upload; the upload becomes an imported file; the type follows tracked changes', async () => {
    const h = await startReviews(style);
    await h.playbook('Default', RULES);
    const redlined = docx(['Governing law is Delaware.', { text: 'Either party may end it. ', ins: 'Unilateral termination allowed.' }]);
    const created = await h.upload('POST', `${h.prefix}/reviews`, [{ name: 'file', file: new Uint8Array(redlined), filename: 'msa.docx', type: DOCX_TYPE }]);
    expect(created.status).toBe(201);
    const review = one(created);
    expect(review.attributes.review_type).toBe('RedlineReview');
    const files = list(await h.review('GET', `${h.prefix}/imported_files`));
    expect(files.map((f) => [f.id, f.attributes.filename])).toEqual([[review.attributes.imported_file_id, 'msa.docx']]);
    const done = await h.settled(review.id);
    const evaluations = done.attributes.redline_evaluations as { evaluation: string; relevant_rule_topic: { name: string } }[];
    expect(evaluations.map((e) => [e.relevant_rule_topic.name, e.evaluation])).toEqual([['Termination', 'reject']]);
    expect(done.attributes).not.toHaveProperty('summary_positions');

    const summary = await h.upload('POST', `${h.prefix}/reviews`, [
      { name: 'file', file: new Uint8Array(redlined), filename: 'msa.docx' },
      { name: 'review_type', value: 'SummaryReview' },
    ]);
    expect(one(summary).attributes.review_type).toBe('SummaryReview');
    const plain = await h.upload('POST', `${h.prefix}/reviews`, [{ name: 'file', file: new Uint8Array(docx(['No changes.'])), filename: 'clean.docx' }]);
    expect(one(plain).attributes.review_type).toBe('SummaryReview');
  });

  it('lists reviews paged (30 by default), without results, with the pagination object and links', async () => {
    const h = await startReviews(style);
    await h.playbook('NDA', RULES);
    const fileId = await h.importFile(CONTRACT, 'nda.txt');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push(one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId })).id);
    await h.settled(ids[2] ?? '');
    const all = (await h.review('GET', `${h.prefix}/reviews`)).body as { data: { id: string; attributes: Record<string, unknown> }[]; meta: { pagination: unknown }; links: Record<string, string | null> };
    // Oldest first; reviews made in the same millisecond come in id order.
    expect([...all.data.map((r) => r.id)].sort()).toEqual([...ids].sort());
    const times = all.data.map((r) => Date.parse(String(r.attributes.created_at)));
    expect(times).toEqual([...times].sort((a, b) => a - b));
    expect(all.data[0]?.attributes).not.toHaveProperty('summary_positions');
    expect(all.data[0]?.attributes).not.toHaveProperty('flag_violations');
    expect(all.links.current).toContain('page%5Bsize%5D=30');
    const page2 = (await h.review('GET', `${h.prefix}/reviews?page[number]=2&page[size]=2`)).body as { data: { id: string }[]; meta: { pagination: unknown }; links: Record<string, string | null> };
    expect(page2.data.map((r) => r.id)).toEqual([all.data[2]?.id]);
    expect(page2.meta.pagination).toEqual({ current: 2, next: null, last: 2, records: 3 });
    expect(page2.links.self).toBe(`${h.emu.reviewUrl}${h.prefix}/reviews`);
    expect(page2.links.next).toBeNull();
    expect((await h.review('GET', `${h.prefix}/reviews?page[]=2`)).status).toBe(400);
  });

  it('uses the oldest active playbook when playbook_id is omitted', async () => {
    const h = await startReviews(style);
    const archived = await h.playbook('Old', []);
    await h.review('DELETE', `${h.prefix}/playbooks/${archived}`);
    const current = await h.playbook('Current', RULES);
    const fileId = await h.importFile(CONTRACT, 'nda.txt');
    expect(one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId })).attributes.playbook_id).toBe(current);
  });

  it('rejects bad create bodies with 422 naming the field', async () => {
    const h = await startReviews(style);
    const none = await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: 'x' });
    expect(fields(none).sort()).toEqual(['imported_file_id', 'playbook_id']);
    expect(problem(none).errors?.find((e) => e.field === 'playbook_id')?.message).toBe('is required: the organization has no playbook to use by default');
    const pb = await h.playbook('NDA', RULES);
    const archived = await h.playbook('Archived', []);
    await h.review('DELETE', `${h.prefix}/playbooks/${archived}`);
    const fileId = await h.importFile(CONTRACT, 'nda.txt');
    const cases: [Record<string, unknown>, string[]][] = [
      [{ playbook_id: pb }, ['imported_file_id']],
      [{ imported_file_id: 'nope', playbook_id: pb }, ['imported_file_id']],
      [{ imported_file_id: 7, playbook_id: pb }, ['imported_file_id']],
      [{ imported_file_id: fileId, playbook_id: 'nope' }, ['playbook_id']],
      [{ imported_file_id: fileId, playbook_id: archived }, ['playbook_id']],
      [{ imported_file_id: fileId, review_type: 'FullReview' }, ['review_type']],
      [{ imported_file_id: fileId, filename: '/tmp/x.pdf' }, ['filename']],
    ];
    for (const [body, expected] of cases) {
      const reply = await h.review('POST', `${h.prefix}/reviews`, body);
      expect([reply.status, fields(reply)], JSON.stringify(body)).toEqual([422, expected]);
    }
    const both = await h.upload('POST', `${h.prefix}/reviews`, [
      { name: 'file', file: 'x', filename: 'a.txt' },
      { name: 'imported_file_id', value: fileId },
    ]);
    expect([both.status, fields(both)]).toEqual([422, ['imported_file_id']]);
    const noFile = await h.upload('POST', `${h.prefix}/reviews`, [{ name: 'review_type', value: 'Nope' }]);
    expect(fields(noFile).sort()).toEqual(['file', 'review_type']);
    expect((await h.review('POST', `${h.prefix}/reviews`, undefined, { raw: '{' })).status).toBe(400);
    expect(list(await h.review('GET', `${h.prefix}/reviews`))).toEqual([]);
  });

  it('fails a review of a file the stand-in cannot read', async () => {
    const h = await startReviews(style);
    await h.playbook('NDA', RULES);
    const fileId = await h.importFile(Buffer.from('PK\u0003\u0004 not a zip'), 'broken.docx');
    const review = one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId }));
    const done = await h.settled(review.id);
    expect(done.attributes).toMatchObject({ status: 'failed', error: expect.stringMatching(/not a readable ZIP archive/) });
    expect(done.attributes).not.toHaveProperty('summary_positions');
  });

  it('answers 404 for unknown reviews and reviews of another organization', async () => {
    const seed = defaultSeed();
    seed.organizations.push({ id: OTHER_ORG, name: 'Other', api_keys: ['other-key'], users: [{ email: 'o@other.example', role: 'admin' }], playbooks: [{ name: 'P' }] });
    const h = await startReviews(style, { seed });
    expect((await h.review('GET', `${h.prefix}/reviews/nope`)).status).toBe(404);
    expect((await h.review('GET', `${h.prefix}/reviews/nope/redline_evaluations`)).status).toBe(404);
    const otherPrefix = style === 'nested' ? `/v1/organizations/${OTHER_ORG}` : '/v1';
    const file = one(await h.upload('POST', `${h.prefix}/imported_files`, [{ name: 'file', file: 'Termination.', filename: 't.txt' }]));
    const theirs = await h.review('POST', `${otherPrefix}/reviews`, { imported_file_id: file.id }, { key: 'other-key' });
    expect(fields(theirs)).toEqual(['imported_file_id']);
    const own = await h.review('GET', `${otherPrefix}/imported_files`, undefined, { key: 'other-key' });
    expect(list(own)).toEqual([]);
    expect((await h.review('GET', `${otherPrefix}/imported_files/${file.id}`, undefined, { key: 'other-key' })).status).toBe(404);
  });

  it('counts requests by route template', async () => {
    const h = await startReviews(style);
    await h.playbook('NDA', RULES);
    const fileId = await h.importFile(CONTRACT, 'nda.txt');
    const review = one(await h.review('POST', `${h.prefix}/reviews`, { imported_file_id: fileId }));
    await h.settled(review.id);
    await h.review('GET', `${h.prefix}/reviews/${review.id}/flag_violations`);
    const template = style === 'nested' ? '/review/v1/organizations/:org' : '/review/v1';
    expect(h.emu.stats().requests.by_route).toMatchObject({
      [`POST ${template}/imported_files`]: 1,
      [`POST ${template}/reviews`]: 1,
      [`GET ${template}/reviews/:review`]: expect.any(Number),
      [`GET ${template}/reviews/:review/flag_violations`]: 1,
    });
  });
});

describe('the MCP mint body', () => {
  it('returns a curl command that uploads the local file to a one-use signed URL, which creates the review', async () => {
    const h = await startReviews('nested');
    const pb = await h.playbook('NDA', RULES);
    const path = "/home/o'brien/My Contracts/nda $(v1).pdf";
    const minted = await h.review('POST', `${h.prefix}/reviews`, { filename: path, playbook_id: pb, review_type: 'SummaryReview' });
    expect(minted.status).toBe(200);
    const command = (minted.body as { curl_command: string }).curl_command;
    expect(command).toMatch(/^curl -sS -X PUT -H 'Content-Type: application\/octet-stream' --data-binary '@\/home\/o'\\''brien\/My Contracts\/nda \$\(v1\)\.pdf' http:\/\/\S+\/review\/uploads\/[0-9a-f-]{36}$/);
    // A POSIX shell reads the quoted words back exactly (printf stands in for curl).
    const words = execFileSync('/bin/sh', ['-c', command.replace(/^curl /, "printf '%s\\n' ")], { encoding: 'utf8' }).trimEnd().split('\n');
    expect(words[6]).toBe(`@${path}`);
    const url = words[7] ?? '';

    const uploaded = await fetch(url, { method: 'PUT', body: new Uint8Array(pdf(['Termination is unilateral.'])) });
    expect(uploaded.status).toBe(201);
    const review = ((await uploaded.json()) as { data: { id: string; attributes: Record<string, unknown> } }).data;
    expect(review.attributes).toMatchObject({ review_type: 'SummaryReview', playbook_id: pb, filename: 'nda $(v1).pdf' });
    const done = await h.settled(review.id);
    expect((done.attributes.flag_violations as { rule: string }[]).map((v) => v.rule)).toEqual(['Termination']);
    expect((await fetch(url, { method: 'PUT', body: 'again' })).status).toBe(404);
    expect(h.emu.stats().requests.by_route['PUT /review/uploads/:token']).toBe(2);
    expect((await fetch(`${h.emu.url}/review/uploads/nope`, { method: 'PUT', body: 'x' })).status).toBe(404);
  });

  it('rejects a filename with control characters, a blank one, and an empty upload', async () => {
    const h = await startReviews('flat');
    await h.playbook('NDA', RULES);
    for (const filename of ['/tmp/a\nb.pdf', '/tmp/a\u0000.pdf', '/tmp/\u007f.pdf', '/tmp/\u0085.pdf']) {
      const reply = await h.review('POST', `${h.prefix}/reviews`, { filename });
      expect([reply.status, problem(reply).errors]).toEqual([422, [{ field: 'filename', message: 'must not contain control characters (such as newlines or null bytes)' }]]);
    }
    expect(fields(await h.review('POST', `${h.prefix}/reviews`, { filename: ' ' }))).toEqual(['filename']);
    expect(fields(await h.review('POST', `${h.prefix}/reviews`, { filename: 3 }))).toEqual(['filename']);
    const minted = await h.review('POST', `${h.prefix}/reviews`, { filename: 'nda.docx' });
    const url = /(http:\S+)$/.exec((minted.body as { curl_command: string }).curl_command)?.[1] ?? '';
    expect((await fetch(url, { method: 'PUT' })).status).toBe(400);
  });
});
