/** applyPlan's context, for what the kinds' tests against the emulator do not show: sensitive values and the lock's pending marks. */
import { describe, expect, it } from 'vitest';
import type { LockFile } from '../../../src/config/lock.js';
import { applyPlan, type ApplyPlanInput } from '../../../src/engine/apply.js';
import { buildPlan } from '../../../src/engine/plan.js';
import { FileWriteError } from '../../../src/util/file-write-error.js';
import type { DesiredResource, Plan } from '../../../src/engine/types.js';
import type { AnyKind } from '../../../src/kinds/index.js';
import type { KindModule } from '../../../src/kinds/kind.js';
import { desiredPlaybook, desiredRule, projectConfig } from './builders.js';

/** A playbook-named kind that only creates, running `execute` for each create. */
function creatingKind(execute: KindModule<'playbook'>['execute'], more: Partial<KindModule<'playbook'>> = {}): AnyKind {
  const kind: KindModule<'playbook'> = { name: 'playbook', title: 'Hooks', noun: ['hook', 'hooks'], service: 'review', deletion: 'none', actions: ['create'], fetch: async () => [], execute, ...more };
  return kind as AnyKind;
}

/** Plans the desired resource as a create, then applies it with `more` of applyPlan's input. */
async function planAndApply(kind: AnyKind, desired: DesiredResource, more: Partial<ApplyPlanInput> = {}): Promise<{ plan: Plan; applied: Awaited<ReturnType<typeof applyPlan>> }> {
  const { plan } = buildPlan({ kinds: [kind], desired: [desired], live: [], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test', planFormat: 'test' });
  const applied = await applyPlan(plan!, {
    kinds: [kind],
    services: { review: () => undefined as never, agreements: () => undefined as never },
    project: projectConfig(),
    desired: [desired],
    files: async () => new Uint8Array(),
    lock: { files: {} },
    clock: () => 0,
    concurrency: 1,
    ...more,
  });
  return { plan: plan!, applied };
}

describe('applyPlan', () => {
  it('gives a kind its sensitive values from the desired resources, which the plan does not hold', async () => {
    const seen: unknown[] = [];
    const kind = creatingKind(
      async (change, ctx) => {
        seen.push(change.desired?.token, ctx.sensitive('playbook', change.key, 'token'));
        ctx.registerId('playbook', change.key, 'h-1');
      },
      { sensitiveFields: ['token'] },
    );
    const { plan, applied } = await planAndApply(kind, { ...desiredPlaybook('Hook'), fields: { name: 'Hook', token: 's3cret' } });
    expect(JSON.stringify(plan)).not.toMatch(/s3cret/);
    expect(applied.report.done).toBe(1);
    expect(seen).toEqual([undefined, 's3cret']);
  });

  it('tells the services which ids were live before it or made by its creates, in any letter case: no later create makes one of them', async () => {
    const kind = creatingKind(async (change, ctx) => ctx.registerCreated('playbook', change.key, { id: 'new-1' }));
    const old = { kind: 'playbook' as const, id: '5f0c2a1e-0000-4000-8000-00000000000a', key: 'Old', name: 'Old', fields: { name: 'Old' }, refs: [] };
    const { plan } = buildPlan({ kinds: [kind], desired: [desiredPlaybook('New')], live: [old], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test', planFormat: 'test' });
    let isExisting: ((id: string) => boolean) | undefined;
    const services = { review: () => undefined as never, agreements: () => undefined as never, knowExistingIds: (f: (id: string) => boolean) => void (isExisting = f) };
    await applyPlan(plan!, { kinds: [kind], services, project: projectConfig(), desired: [desiredPlaybook('New')], files: async () => new Uint8Array(), lock: { files: {} }, clock: () => 0, concurrency: 1 });
    expect([old.id, old.id.toUpperCase(), 'NEW-1', 'other'].map((id) => isExisting?.(id))).toEqual([true, true, true, false]);
  });

  it('marks an upload pending, with the injected wall clock, before it is sent, and returns the lock it leaves', async () => {
    const written: LockFile[] = [];
    const entry = { id: 'f-1', file: 'a.pdf', sha256: 'abc', description: null };
    const kind = creatingKind(async (change, ctx) => {
      await ctx.recordPending('playbook', change.key, { file: 'a.pdf', sha256: 'abc', description: null });
      await ctx.recordFile('playbook', change.key, entry);
    });
    const { applied } = await planAndApply(kind, desiredPlaybook('A'), {
      now: () => new Date('2026-11-23T10:00:00.000Z'),
      persistLock: async (lock) => void written.push(lock),
    });
    expect(written.map((l) => l.files['playbook:A'])).toEqual([{ pending: { file: 'a.pdf', sha256: 'abc', description: null, since: '2026-11-23T10:00:00.000Z' } }, entry]);
    expect([applied.lockChanged, applied.lock.files['playbook:A']]).toEqual([true, entry]);
  });

  it('checks right away for a duplicate only of a create another change refers to; the rest share one read at the end', async () => {
    const events: string[] = [];
    let reads = 0;
    const kind = creatingKind(
      async (change, ctx) => {
        events.push(`create ${change.key}`);
        ctx.registerId('playbook', change.key, `mine-${change.key}`);
      },
      {
        race: {
          siblings: async (change, ctx) => {
            const live = await ctx.readAfterWrites('playbooks', async () => {
              events.push(`read ${++reads}`);
              // Another run created C first: its object stays, and this run's is set aside.
              return [{ id: 'theirs-C', key: 'C', createdAt: '2026-01-01T00:00:00Z' }, ...['A', 'B', 'C'].map((k) => ({ id: `mine-${k}`, key: k, createdAt: '2026-01-02T00:00:00Z' }))];
            });
            return live.filter((o) => o.key === change.key);
          },
          setAside: async () => 'archived',
        },
      },
    );
    const desired = ['A', 'B', 'C'].map((n) => desiredPlaybook(n));
    const { plan } = buildPlan({ kinds: [kind], desired, live: [], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test', planFormat: 'test' });
    const [a, b, c] = plan!.changes;
    const referring = { ...plan!, changes: [a!, b!, { ...c!, dependsOn: [a!.id] }] };
    const applied = await applyPlan(referring, { kinds: [kind], services: { review: () => undefined as never, agreements: () => undefined as never }, project: projectConfig(), desired, files: async () => new Uint8Array(), lock: { files: {} }, clock: () => 0, concurrency: 1 });
    expect(events).toEqual(['create A', 'read 1', 'create B', 'create C', 'read 2']);
    expect(applied.ids.get('playbook:C')).toBe('theirs-C');
    expect(applied.report.results.find((r) => r.changeId === c!.id)?.note).toContain('another apply (or someone in the app) created it at the same time');
  });

  it('stopped just after its last create, says the checks were cut short, beside each create and for the whole apply (probe FO)', async () => {
    const stop = new AbortController();
    const kind = creatingKind(
      async (change, ctx) => {
        ctx.registerId('playbook', change.key, `mine-${change.key}`);
        if (change.key === 'B') stop.abort('SIGINT');
      },
      { race: { siblings: async () => [], setAside: async () => 'archived' } },
    );
    const desired = ['A', 'B'].map((n) => desiredPlaybook(n));
    const { plan } = buildPlan({ kinds: [kind], desired, live: [], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test', planFormat: 'test' });
    const input = { kinds: [kind], services: { review: () => undefined as never, agreements: () => undefined as never }, project: projectConfig(), desired, files: async () => new Uint8Array(), lock: { files: {} }, clock: () => 0, concurrency: 1 };
    const { report } = await applyPlan(plan!, { ...input, signal: stop.signal });
    expect(report).toMatchObject({ stopped: 'SIGINT', done: 2, checksCutShort: true });
    expect(report.results.map((r) => r.note)).toEqual([expect.stringContaining('not checked for a duplicate'), expect.stringContaining('not checked for a duplicate')]);
    // Stopped before the last create: not every change is made, and that is what the apply says.
    const early = new AbortController();
    const first = creatingKind(async (change, ctx) => {
      ctx.registerId('playbook', change.key, `mine-${change.key}`);
      early.abort('SIGINT');
    }, { race: { siblings: async () => [], setAside: async () => 'archived' } });
    const cut = await applyPlan(buildPlan({ kinds: [first], desired, live: [], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test', planFormat: 'test' }).plan!, { ...input, kinds: [first], signal: early.signal });
    expect(cut.report).toMatchObject({ stopped: 'SIGINT', done: 1 });
    expect(cut.report.checksCutShort).toBeUndefined();
  });

  it("checks children after their parent, and once the parent went as another run's duplicate, in the kept parent: one it lacks went with the duplicate and is not live (probe IL-1)", async () => {
    const events: string[] = [];
    let parentSetAside = false;
    const playbook = creatingKind(async (change, ctx) => ctx.registerId('playbook', change.key, 'mine-P'), {
      race: {
        checkAtEnd: true,
        siblings: async () => {
          events.push('check P');
          return [
            { id: 'theirs-P', key: 'P', createdAt: '2026-01-01T00:00:00Z' },
            { id: 'mine-P', key: 'P', createdAt: '2026-01-02T00:00:00Z' },
          ];
        },
        setAside: async () => {
          parentSetAside = true;
          return 'archived';
        },
      },
    });
    const rule = {
      ...creatingKind(async (change, ctx) => ctx.registerId('rule', change.key, `mine-${change.key}`), {
        race: {
          siblings: async (change, ctx) => {
            const parent = ctx.resolveId('playbook', 'P');
            events.push(`check ${change.key} in ${parent}`);
            // The service's answer for the rules of an archived playbook.
            if (parent === 'mine-P' && parentSetAside) throw new Error('HTTP 404 Not Found: playbook mine-P not found');
            // The kept playbook: the other run made R1 only.
            return parent === 'theirs-P' ? [{ id: 'theirs-R1', key: 'P/R1' }] : [{ id: `mine-${change.key}`, key: change.key }];
          },
          setAside: async () => 'deleted',
        },
      }),
      name: 'rule',
      parentKind: 'playbook',
    } as AnyKind;
    const desired = [desiredPlaybook('P'), desiredRule('P', 'R1'), desiredRule('P', 'R2')];
    const { plan } = buildPlan({ kinds: [playbook, rule], desired, live: [], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test', planFormat: 'test' });
    const input = { kinds: [playbook, rule], services: { review: () => undefined as never, agreements: () => undefined as never }, project: projectConfig(), desired, files: async () => new Uint8Array(), lock: { files: {} }, clock: () => 0, concurrency: 3, lookAgainMs: 5 };
    const applied = await applyPlan(plan!, input);
    // Three at a time: the rules' checks would start beside the playbook's, before it is set aside.
    // R2 is looked for once more, a moment later: the other apply may still be making it.
    expect(events.slice(0, 1)).toEqual(['check P']);
    expect(events.slice(1).sort()).toEqual(['check P/R1 in theirs-P', 'check P/R2 in theirs-P', 'check P/R2 in theirs-P']);
    expect(applied.report.results.map((r) => r.note ?? '').join('\n')).not.toContain('could not check');
    expect(applied.ids.get('playbook:P')).toBe('theirs-P');
    expect(applied.ids.get('rule:P/R1')).toBe('theirs-R1');
    const [r1, r2] = ['P/R1', 'P/R2'].map((key) => applied.report.results.find((r) => plan!.changes.find((c) => c.id === r.changeId)!.key === key)!);
    expect(r1).toMatchObject({ status: 'done', keptOther: true, note: expect.stringContaining('the kept playbook has its own (id theirs-R1)') });
    expect(r2).toMatchObject({ status: 'failed', message: expect.stringContaining('the kept playbook has no such rule yet, so it is not live') });
    expect(r2!.written).toBeUndefined();
    expect(applied.report).toMatchObject({ done: 2, failed: 1 });

    // A check of the kept playbook that gets no answer: its own copy went all the same, so not done (SR66-3).
    parentSetAside = false;
    events.length = 0;
    const unread = { ...rule, race: { ...rule.race!, siblings: async () => Promise.reject(new Error('HTTP 503 Service Unavailable')) } } as AnyKind;
    const again = await applyPlan(plan!, { ...input, kinds: [playbook, unread] });
    expect(again.report).toMatchObject({ done: 1, failed: 2 });
    expect(again.report.results.filter((r) => r.status === 'failed').map((r) => r.message)).toEqual([
      expect.stringContaining('could not check that the kept playbook has it (HTTP 503 Service Unavailable)'),
      expect.stringContaining('could not check that the kept playbook has it (HTTP 503 Service Unavailable)'),
    ]);

    // A signal while the first rule is looked for again: neither it nor the rules whose check never
    // started are done, their own copies having gone with the playbook (TR66-3).
    const stop = new AbortController();
    const stopping = { ...rule, race: { ...rule.race!, siblings: async () => (stop.abort(), []) } } as AnyKind;
    const stopped = await applyPlan(plan!, { ...input, kinds: [playbook, stopping], concurrency: 1, signal: stop.signal, lookAgainMs: 60_000 });
    expect(stopped.report).toMatchObject({ done: 1, failed: 2, stopped: expect.any(String) });
    expect(stopped.report.results.filter((r) => r.status === 'failed').map((r) => r.message).sort()).toEqual([
      expect.stringContaining('could not check that the kept playbook has it (the apply was stopped before it looked again)'),
      expect.stringContaining('the apply was stopped before it looked for it in the kept playbook'),
    ]);
  });

  it('forgets a pending mark again, back to the upload confirmed before it or to no entry', async () => {
    const confirmed = { id: 'f-0', file: 'old.pdf', sha256: 'old', description: null };
    const written: LockFile[] = [];
    const kind = creatingKind(async (change, ctx) => {
      await ctx.recordPending('playbook', change.key, { file: 'a.pdf', sha256: 'abc', description: null });
      await ctx.forgetPending('playbook', change.key);
      await ctx.forgetPending('playbook', 'never-marked');
    });
    const fresh = await planAndApply(kind, desiredPlaybook('A'), { persistLock: async (lock) => void written.push(lock) });
    expect(written.map((l) => l.files['playbook:A'] === undefined)).toEqual([false, true]);
    expect(fresh.applied.lock.files).toEqual({});
    const again = await planAndApply(kind, desiredPlaybook('A'), { lock: { files: { 'playbook:A': confirmed } } });
    expect(again.applied.lock.files).toEqual({ 'playbook:A': confirmed });
  });

  it('names the file that could not be written before an upload (the in-process emulator\'s state), and sends nothing', async () => {
    let sent = false;
    const kind = creatingKind(async (change, ctx) => {
      await ctx.recordPending('playbook', change.key, { file: 'a.pdf', sha256: 'abc', description: null });
      sent = true;
    });
    const full = Object.assign(new Error('no space left on device'), { code: 'ENOSPC', syscall: 'write' });
    const { applied } = await planAndApply(kind, desiredPlaybook('A'), {
      persistLock: async () => {
        throw new FileWriteError('.docket/emulator.json', full);
      },
    });
    expect(sent).toBe(false);
    expect(applied.report.results[0]).toMatchObject({ status: 'failed', message: expect.stringContaining('.docket/emulator.json could not be written (ENOSPC), so nothing was sent') });
  });
});

describe('applyPlan --adopt-files', () => {
  it('folds away the entries of an adopted object\'s former names, as an upload\'s record does: a rename cut off and settled by adoption left the old entry (probe UJ-2)', async () => {
    const kind = creatingKind(async () => undefined);
    const renamed: DesiredResource = { ...desiredPlaybook('H'), renamedFrom: ['F'] };
    const { plan } = buildPlan({ kinds: [kind], desired: [], live: [], prune: {}, configDigest: 'd', target: { emulator: true }, now: new Date(0), version: 'test', planFormat: 'test' });
    const adopting: Plan = { ...plan!, adoptable: [{ kind: 'playbook', key: 'H', liveId: 'up-h', field: 'sha256', file: 'h.pdf', sha256: 'b'.repeat(64), reason: 'adopted' }] };
    const lock: LockFile = { files: { 'playbook:F': { id: 'up-f', file: 'f.pdf', sha256: 'a'.repeat(64) }, 'playbook:Other': { id: 'up-o', file: 'o.pdf', sha256: 'c'.repeat(64) } } };
    const input = { kinds: [kind], services: { review: () => undefined as never, agreements: () => undefined as never }, project: projectConfig(), files: async () => new Uint8Array(), clock: () => 0, concurrency: 1, adoptFiles: true };
    const applied = await applyPlan(adopting, { ...input, desired: [renamed], lock });
    expect(Object.keys(applied.lock.files).sort()).toEqual(['playbook:H', 'playbook:Other']);
    expect(applied.lock.files['playbook:H']).toMatchObject({ id: 'up-h', file: 'h.pdf' });
    // A former name another document declares now is that one's: left.
    const kept = await applyPlan(adopting, { ...input, desired: [renamed, desiredPlaybook('F')], lock });
    expect(Object.keys(kept.lock.files).sort()).toEqual(['playbook:F', 'playbook:H', 'playbook:Other']);
  });
});
