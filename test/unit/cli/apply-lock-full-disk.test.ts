/** The apply lock on a full disk: the folder it made goes again (a file of its own, so the write can fail there). */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { makeDir, removeMadeDirs } from '../../helpers/tmpdir.js';

const full = Object.assign(new Error('ENOSPC: no space left on device, write'), { code: 'ENOSPC' });
vi.mock('node:fs/promises', async (original) => ({ ...(await original<typeof import('node:fs/promises')>()), writeFile: vi.fn(async () => Promise.reject(full)) }));

const { acquireApplyLock, applyLockPath } = await import('../../../src/cli/apply-lock.js');

afterAll(removeMadeDirs);

describe('the apply lock on a full disk', () => {
  it('is refused with the disk hint, and leaves no empty .docket/ behind (probe MU-3)', async () => {
    const root = await makeDir({});
    const error = (await acquireApplyLock({ root, timeoutMs: 0 }).catch((e: unknown) => e)) as Error & { code: string; hint: string };
    expect(error.code).toBe('apply-lock-unusable');
    expect(error.hint).toContain('free some space');
    expect(existsSync(dirname(applyLockPath(root)))).toBe(false);
  });
});
