/** applyPlan's context, for what no real kind exercises yet: sensitive values come from the files, never the plan. */
import { describe, expect, it } from 'vitest';
import { applyPlan } from '../../../src/engine/apply.js';
import { buildPlan } from '../../../src/engine/plan.js';
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
});
