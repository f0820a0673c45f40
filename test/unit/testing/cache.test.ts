/** The test cache on disk: what it writes is what a pull request from a fork may read. */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { keyValues, redact } from '../../../src/cli/redact.js';
import { TestCache, type CacheKey } from '../../../src/testing/cache.js';
import type { ReviewFacts } from '../../../src/testing/types.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

const KEY: CacheKey = { contract_sha256: 'a'.repeat(64), playbook_digest: 'b'.repeat(64), review_type: 'RedlineReview' };

describe('TestCache', () => {
  it('writes no key a review\'s text holds (one pasted into a live rule comes back in the reviewer\'s words), and replays the text as written (probe JC-1)', async () => {
    const dir = await makeDir({});
    const secret = 'sk_live_Zq9SECRETkey77abcdXYZ';
    const secrets = keyValues({ DOCKET_API_KEY: secret });
    const cache = new TestCache(dir, () => new Date(0), (text) => redact(text, secrets));
    const facts = {
      review_id: 'r-1',
      review_type: 'RedlineReview',
      redlines: [{ topic: `Term ${secret}`, rule: null, evaluation: 'accept', commentary: `Topic "Term ${secret}": fine` }],
      flags: [],
      // The reviewer splits the name into words, lower-cased: the secret part stands alone (probe LL-1).
      positions: [{ summary: null, detailed_explanation: `see ${secret.toUpperCase()}` }, { summary: null, detailed_explanation: 'no sentence mentions sk + live + zq9secretkey77abcdxyz. Questions: none' }],
    } as unknown as ReviewFacts;
    // What the run matches is what it recorded: a replay then reads as the run did (probe MZ-1).
    const [recorded] = await cache.put(KEY, [facts]);
    expect(recorded?.redlines[0]).toMatchObject({ topic: 'Term [redacted]', evaluation: 'accept' });
    const [file] = await readdir(dir);
    const written = await readFile(join(dir, file!), 'utf8');
    expect(written).not.toMatch(/Zq9SECRET|cretkey77abcdxy/i);
    expect(written).toContain('no sentence mentions sk + live + [redacted]. Questions: none');
    expect(written).toContain('Topic \\"Term [redacted]\\": fine');
    const [replayed] = await cache.get(KEY);
    expect(replayed?.redlines[0]).toMatchObject({ topic: 'Term [redacted]', evaluation: 'accept' });
  });

  it('a cache folder that cannot be made (a file in its place) loses the entries, said as unwritten, never the run: its reviews are paid for (probe CA-1)', async () => {
    const dir = await makeDir({ 'test-cache': 'not a folder' });
    const cache = new TestCache(join(dir, 'test-cache', 'review'));
    const facts = { review_id: 'r-1', review_type: 'RedlineReview', redlines: [], flags: [], positions: [] } as unknown as ReviewFacts;
    expect(await cache.put(KEY, [facts])).toEqual([facts]);
    await cache.putNotes('c'.repeat(64), ['a note']);
    await cache.putImportedSha('00000000-0000-4000-8000-000000000009', 'e'.repeat(64));
    expect(cache.unwritten).toBe('ENOTDIR');
  });

  it('keeps a playbook variant\'s notes for replays, and forgets them once it is reviewed again without any (probe NL-4, second read SR78B-2)', async () => {
    const cache = new TestCache(await makeDir({}));
    const digest = 'c'.repeat(64);
    expect(cache.notesFor(digest)).toEqual([]);
    await cache.putNotes(digest, ['P: the service did not keep `questions`']);
    expect(cache.notesFor(digest)).toEqual(['P: the service did not keep `questions`']);
    expect(cache.notesFor('d'.repeat(64))).toEqual([]);
    await cache.putNotes(digest, []);
    expect(cache.notesFor(digest)).toEqual([]);
  });
});
