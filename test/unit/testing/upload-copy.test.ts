import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UploadCopy } from '../../../src/testing/upload-copy.js';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

afterAll(removeMadeDirs);

describe('UploadCopy', () => {
  it('records per lock section and sha256 (any case), and forgets', async () => {
    const root = await makeDir({});
    const copy = UploadCopy.in(root);
    await copy.record('https://r.example org-1', [['ABC', 'file-1']]);
    await copy.record('https://r.example org-2', [['abc', 'file-2']]);
    expect(await copy.idFor('https://r.example org-1', 'abc')).toBe('file-1');
    expect(await UploadCopy.in(root).idFor('https://r.example org-2', 'ABC')).toBe('file-2');
    await copy.record('https://r.example org-1', [['abc', undefined]]);
    expect(await copy.idFor('https://r.example org-1', 'abc')).toBeUndefined();
  });

  it('a write that fails costs nothing but that record: the next one is written', async () => {
    const root = await makeDir({});
    // `.docket` a file: the copy cannot be written.
    await writeFile(join(root, '.docket'), 'in the way');
    const copy = UploadCopy.in(root);
    await copy.record('t', [['abc', 'file-1']]);
    // Kept, for the run to say at its end.
    expect(copy.unwritten).toBe('ENOTDIR');
    await rm(join(root, '.docket'));
    await copy.record('t', [['def', 'file-2']]);
    expect(await copy.idFor('t', 'def')).toBe('file-2');
  });

  it('reads an unreadable or foreign copy as holding nothing', async () => {
    const root = await makeDir({});
    await mkdir(join(root, '.docket/test-cache'), { recursive: true });
    for (const text of ['{', '[]', '{"version": 2, "uploads": {"t": {"abc": "x"}}}', '{"version": 1, "uploads": {"t": {"abc": 7}}}']) {
      await writeFile(join(root, '.docket/test-cache/uploads.json'), text);
      expect(await UploadCopy.in(root).idFor('t', 'abc'), text).toBeUndefined();
    }
    await UploadCopy.in(root).record('t', [['abc', 'file-1']]);
    expect(JSON.parse(await readFile(join(root, '.docket/test-cache/uploads.json'), 'utf8'))).toEqual({ version: 1, uploads: { t: { abc: 'file-1' } } });
  });
});
