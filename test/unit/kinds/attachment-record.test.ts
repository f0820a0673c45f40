import { describe, expect, it } from 'vitest';
import { attachmentKind } from '../../../src/kinds/attachment.js';
import type { ExecContext } from '../../../src/kinds/kind.js';
import type { Change } from '../../../src/engine/types.js';
import { FileWriteError } from '../../../src/util/file-write-error.js';

const upload: Change = {
  id: 'upload:attachment:Security Exhibit',
  action: 'upload',
  kind: 'attachment',
  key: 'Security Exhibit',
  name: 'Security Exhibit',
  fields: [],
  desired: { file: 'attachments/security.pdf', sha256: 'a'.repeat(64), description: null },
  refs: [],
  dependsOn: [],
  fingerprint: null,
};

describe('attachment upload', () => {
  it('says the id of an upload the service made and named whose record could not be written, with the way on: nothing reads an upload back (probe HC-3)', async () => {
    const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC', syscall: 'write' });
    const pending: string[] = [];
    // Only what an upload's execute uses: the rest of the context is never reached.
    const ctx = {
      project: { agreements: { actor: 'legal-ops@acme.example' } },
      readFile: async () => new Uint8Array([37, 80, 68, 70]),
      services: { agreements: () => ({ uploadAttachment: async (_file: unknown, _meta: unknown, marked: () => Promise<void>) => (await marked(), { id: 'a-new' }) }) },
      recordPending: async (_kind: string, key: string) => void pending.push(key),
      forgetPending: async () => undefined,
      registerId: () => undefined,
      recordFile: async () => {
        throw new FileWriteError('docket.lock.json', full);
      },
    } as unknown as ExecContext;
    const error = (await attachmentKind.execute!(upload, ctx).catch((e: unknown) => e)) as { code: string; message: string; hint: string };
    expect(pending).toEqual(['Security Exhibit']);
    expect([error.code, error.message, error.hint]).toEqual([
      'unknown-outcome',
      'uploaded as attachment a-new, but its record could not be kept: docket.lock.json could not be written (ENOSPC)',
      "free some space, then add `id: a-new` to this attachment's document and run `docket apply --adopt-files`",
    ]);
  });
});
