/** Pending documents (`*.yaml.pending`) name what an export could not write whole: found however they are written. */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { pendingDocuments } from '../../../src/config/pending.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'docket-pending-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('pendingDocuments', () => {
  it('finds the kind, name and pinned id of each, also where only the full YAML parser reads the file', async () => {
    await mkdir(join(dir, 'custom-terms'));
    await mkdir(join(dir, 'attachments'));
    await writeFile(join(dir, 'custom-terms/price.yaml.pending'), 'kind: CustomTerm\nname: Price <<list>>\ndocx_file: price.docx\n');
    await writeFile(join(dir, 'attachments/a.yaml.pending'), 'kind: Attachment\nname: Security\nid: 0e123456-1e4a-4b1e-8e1e-0123456789ab\nfile: a.pdf\n');
    await writeFile(join(dir, 'attachments/b.yaml'), 'kind: Attachment\nname: Active\nfile: b.pdf\n');
    await writeFile(join(dir, 'attachments/broken.yaml.pending'), 'kind: [\n');
    expect(await pendingDocuments(dir)).toEqual([
      { yamlKind: 'Attachment', name: 'Security', id: '0e123456-1e4a-4b1e-8e1e-0123456789ab', file: 'attachments/a.yaml.pending' },
      { yamlKind: 'CustomTerm', name: 'Price <<list>>', file: 'custom-terms/price.yaml.pending' },
    ]);
  });
});
