/** applyPlan's context, for what the kinds' tests against the emulator do not show: sensitive values and the lock's pending marks. */
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { buildPlan } from '../../../src/engine/plan.js';
import type { LockFile } from '../../../src/config/lock.js';
import type { DesiredResource } from '../../../src/engine/types.js';
import type { AnyKind } from '../../../src/kinds/index.js';
import type { KindModule } from '../../../src/kinds/kind.js';
import { desiredPlaybook, projectConfig } from './builders.js';

describe('applyPlan', () => {
  it('gives a kind its sensitive values from the desired resources, which the plan does not hold', async () => {
    const seen: unknown[] = [];
    const secretKind: KindModule<'playbook'> = {
      name: 'playbook',
      title: 'Hooks',
      noun: ['hook', 'hooks'],
      service: 'review',
      deletion: 'none',
      actions: ['create'],
      sensitiveFields: ['token'],
      fetch: async () => [],
      async execute(change, ctx) {
        seen.push(change.desired?.token, ctx.sensitive('playbook', change.key, 'token'));
        ctx.registerId('playbook', change.key, 'h-1');
      },
    };
    const desired: DesiredResource = { ...desiredPlaybook('Hook'), fields: { name: 'Hook', token: 's3cret' } };
    const { plan } = buildPlan({ kinds: [secretKind as AnyKind], desired: [desired], live: [], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test' });
    expect(JSON.stringify(plan)).not.toMatch(/s3cret/);
    const { report } = await applyPlan(plan!, {
      kinds: [secretKind as AnyKind],
      services: { review: () => undefined as never, agreements: () => undefined as never },
      project: projectConfig(),
      desired: [desired],
      files: async () => new Uint8Array(),
      lock: { files: {} },
      clock: () => 0,
      concurrency: 1,
    });
    expect(report.done).toBe(1);
    expect(seen).toEqual([undefined, 's3cret']);
  });

  it('marks an upload pending, with the injected wall clock, before it is sent, and returns the lock it leaves', async () => {
    const written: LockFile[] = [];
    const uploadKind: KindModule<'attachment'> = {
      name: 'attachment',
      title: 'Files',
      noun: ['file', 'files'],
      service: 'agreements',
      deletion: 'none',
      actions: ['upload'],
      createAction: 'upload',
      fetch: async () => [],
      async execute(change, ctx) {
        await ctx.recordPending('attachment', change.key, { file: 'a.pdf', sha256: 'abc', description: null });
        await ctx.recordFile('attachment', change.key, { id: 'f-1', file: 'a.pdf', sha256: 'abc', description: null });
      },
    };
    const desired: DesiredResource = { ...desiredPlaybook('A'), kind: 'attachment', key: 'A', fields: { name: 'A' } };
    const { plan } = buildPlan({ kinds: [uploadKind as AnyKind], desired: [desired], live: [], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test' });
    const result = await applyPlan(plan!, {
      kinds: [uploadKind as AnyKind],
      services: { review: () => undefined as never, agreements: () => undefined as never },
      project: projectConfig(),
      desired: [desired],
      files: async () => new Uint8Array(),
      lock: { files: {} },
      clock: () => 0,
      now: () => new Date('2026-11-23T10:00:00.000Z'),
      concurrency: 1,
      persistLock: async (lock) => void written.push(lock),
    });
    expect(written.map((l) => l.files['attachment:A'])).toEqual([
      { pending: { file: 'a.pdf', sha256: 'abc', description: null, since: '2026-11-23T10:00:00.000Z' } },
      { id: 'f-1', file: 'a.pdf', sha256: 'abc', description: null },
    ]);
    expect([result.lockChanged, result.lock.files['attachment:A']]).toEqual([true, { id: 'f-1', file: 'a.pdf', sha256: 'abc', description: null }]);
  });
});
