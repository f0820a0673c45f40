import { DocketError } from '../../../src/errors.js';
import { getEventListeners } from 'node:events';
import { describe, expect, it } from 'vitest';
import { executePlan } from '../../../src/engine/execute.js';
import type { Change, ChangeResult } from '../../../src/engine/types.js';
import { change, deferred, planOf } from './builders.js';
import type { Deferred } from './builders.js';

/** Lets every pending promise callback run (the executor reacts to settled operations). */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** A `run` whose operations finish only when the test says so, tracking what is in flight. */
function controlledRunner() {
  const ops = new Map<string, Deferred>();
  const started: string[] = [];
  const finished = new Set<string>();
  let inFlight = 0;
  let maxInFlight = 0;
  const run = async (c: Change): Promise<void> => {
    started.push(c.id);
    inFlight++;
    maxInFlight = Math.max(maxInFlight, inFlight);
    const op = deferred();
    ops.set(c.id, op);
    try {
      await op.promise;
    } finally {
      inFlight--;
      finished.add(c.id);
    }
  };
  const op = (id: string): Deferred => {
    const found = ops.get(id);
    if (!found) throw new Error(`${id} has not started (started: ${started.join(', ')})`);
    return found;
  };
  return {
    run,
    started,
    op,
    /** Started and not finished yet, oldest first. */
    open: (): string[] => started.filter((id) => !finished.has(id)),
    get inFlight() {
      return inFlight;
    },
    get maxInFlight() {
      return maxInFlight;
    },
  };
}

/** A clock that advances by one millisecond per reading. */
function tickingClock(): () => number {
  let t = 1000;
  return () => t++;
}

const independent = (n: number): Change[] => Array.from({ length: n }, (_, i) => change('update', 'playbook', `P${i}`, { liveId: `pb-${i}` }));

describe('executePlan: concurrency', () => {
  it('runs every change one at a time, in plan order, with concurrency 1', async () => {
    const ran: string[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    const changes = independent(5);
    const report = await executePlan(planOf(changes), {
      concurrency: 1,
      clock: tickingClock(),
      run: async (c) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        await settle();
        ran.push(c.id);
        inFlight--;
      },
    });
    expect(ran).toEqual(changes.map((c) => c.id));
    expect(maxInFlight).toBe(1);
    expect(report).toMatchObject({ done: 5, failed: 0, skipped: 0 });
  });

  it('runs up to N at once and starts the next as soon as one finishes', async () => {
    const runner = controlledRunner();
    const done = executePlan(planOf(independent(6)), { concurrency: 3, clock: tickingClock(), run: runner.run });
    await settle();
    expect(runner.started).toEqual(['update:playbook:P0', 'update:playbook:P1', 'update:playbook:P2']);

    runner.op('update:playbook:P1').resolve();
    await settle();
    expect(runner.started).toHaveLength(4);
    expect(runner.started[3]).toBe('update:playbook:P3');
    expect(runner.inFlight).toBe(3);

    while (runner.open().length > 0) {
      for (const id of runner.open()) runner.op(id).resolve();
      await settle();
    }
    const report = await done;
    expect(runner.maxInFlight).toBe(3);
    expect(report.done).toBe(6);
  });

  it('never exceeds the bound, whatever order operations finish in', async () => {
    const runner = controlledRunner();
    const done = executePlan(planOf(independent(12)), { concurrency: 4, clock: tickingClock(), run: runner.run });
    await settle();
    // Always finish the most recently started operation, so slots free up out of order.
    while (runner.open().length > 0) {
      expect(runner.inFlight).toBeLessThanOrEqual(4);
      runner.op(runner.open().at(-1)!).resolve();
      await settle();
    }
    const report = await done;
    expect(runner.started).toHaveLength(12);
    expect(runner.maxInFlight).toBe(4);
    expect(report.done).toBe(12);
  });

  it('treats a concurrency below 1 as 1', async () => {
    const runner = controlledRunner();
    const done = executePlan(planOf(independent(2)), { concurrency: 0, clock: tickingClock(), run: runner.run });
    await settle();
    expect(runner.started).toEqual(['update:playbook:P0']);
    runner.op('update:playbook:P0').resolve();
    await settle();
    runner.op('update:playbook:P1').resolve();
    expect((await done).done).toBe(2);
    expect(runner.maxInFlight).toBe(1);
  });
});

describe('executePlan: dependencies', () => {
  it('starts a change only after everything it depends on is done', async () => {
    const runner = controlledRunner();
    const playbook = change('create', 'playbook', 'NDA');
    const rule = change('create', 'rule', 'NDA/Term', { dependsOn: [playbook.id] });
    const done = executePlan(planOf([playbook, rule]), { concurrency: 8, clock: tickingClock(), run: runner.run });
    await settle();
    expect(runner.started).toEqual([playbook.id]);
    runner.op(playbook.id).resolve();
    await settle();
    expect(runner.started).toEqual([playbook.id, rule.id]);
    runner.op(rule.id).resolve();
    expect((await done).done).toBe(2);
  });

  it('skips the dependents of a failed change, transitively, and still runs the rest', async () => {
    const a = change('create', 'playbook', 'A');
    const b = change('create', 'rule', 'A/Term', { dependsOn: [a.id] });
    const c = change('update', 'organization', 'organization', { dependsOn: [b.id] });
    const d = change('create', 'playbook', 'D');
    const e = change('create', 'rule', 'D/Term', { dependsOn: [d.id] });
    const ran: string[] = [];
    const seen: ChangeResult[] = [];
    const report = await executePlan(planOf([a, b, c, d, e]), {
      concurrency: 2,
      clock: tickingClock(),
      run: async (x) => {
        ran.push(x.id);
        if (x.id === a.id) throw new Error('HTTP 422: name taken');
      },
      onResult: (result) => seen.push(result),
    });
    expect(ran.sort()).toEqual([a.id, d.id, e.id].sort());
    expect(report.results.map((r) => [r.changeId, r.status])).toEqual([
      [a.id, 'failed'],
      [b.id, 'skipped'],
      [c.id, 'skipped'],
      [d.id, 'done'],
      [e.id, 'done'],
    ]);
    expect(report.results[0]!.message).toBe('HTTP 422: name taken');
    // Both skips name the change that failed, not just the one in between.
    expect(report.results[1]!.message).toBe(`depends on ${a.id}, which failed`);
    expect(report.results[2]!.message).toBe(`depends on ${a.id}, which failed (through ${b.id})`);
    expect(report).toMatchObject({ done: 2, failed: 1, skipped: 2 });
    expect(seen.map((r) => r.changeId).sort()).toEqual([a, b, c, d, e].map((x) => x.id).sort());
  });

  it('skips a change with several dependencies when any one of them fails', async () => {
    const a = change('invite', 'member', 'bob@acme.example');
    const b = change('create', 'playbook', 'B');
    const rule = change('create', 'rule', 'B/Term', { dependsOn: [a.id, b.id] });
    const report = await executePlan(planOf([a, b, rule]), {
      concurrency: 4,
      clock: tickingClock(),
      run: async (x) => {
        if (x.id === a.id) throw new Error('invitation refused');
      },
    });
    expect(report.results.map((r) => r.status)).toEqual(['failed', 'done', 'skipped']);
    expect(report.results[2]!.message).toContain(a.id);
  });

  it('reports a non-Error rejection as text', async () => {
    const report = await executePlan(planOf(independent(1)), {
      concurrency: 1,
      clock: tickingClock(),
      run: () => Promise.reject('boom'),
    });
    expect(report.results[0]).toMatchObject({ status: 'failed', message: 'boom' });
  });

  it('keeps what a failure\'s error says to do about it', async () => {
    const report = await executePlan(planOf(independent(1)), {
      concurrency: 1,
      clock: tickingClock(),
      run: () => Promise.reject(new DocketError('rejected', 'create x: failed with HTTP 308', 'set its URL to "https://new.example"')),
    });
    expect(report.results[0]).toMatchObject({ status: 'failed', message: 'create x: failed with HTTP 308', hint: 'set its URL to "https://new.example"' });
  });

  it('names the file of an upload refused as too large, which no rerun changes (probe MP-2)', async () => {
    const [one] = independent(1);
    const tooLarge = Object.assign(new DocketError('service-error', 'upload x: failed with HTTP 413', 'make smaller what it sends'), { status: 413 });
    const report = await executePlan(planOf([{ ...one!, uploads: 'attachments/big.pdf' }]), { concurrency: 1, clock: tickingClock(), run: () => Promise.reject(tooLarge) });
    expect(report.results[0]).toMatchObject({ status: 'failed', hint: 'the service takes no request this large: make attachments/big.pdf smaller (or split it), then apply again' });
    // A change that sends no file keeps the error's own hint.
    const other = await executePlan(planOf(independent(1)), { concurrency: 1, clock: tickingClock(), run: () => Promise.reject(tooLarge) });
    expect(other.results[0]).toMatchObject({ hint: 'make smaller what it sends' });
  });

  it('marks a write the service may still be carrying out as pending, not as an upload of unknown outcome', async () => {
    const report = await executePlan(planOf(independent(2)), {
      concurrency: 1,
      clock: tickingClock(),
      run: (c) => Promise.reject(c.key === 'P0' ? new DocketError('outcome-pending', 'create x: no answer in time') : new DocketError('unknown-outcome', 'upload a: no answer')),
    });
    expect(report.results.map((r) => [r.pending, r.outcomeUnknown])).toEqual([[true, undefined], [undefined, true]]);
  });

  it('marks an update cut off by a signal once sent as pending too, so the hint says to wait before a re-run; not one never carried out, nor one the service answered (probe SG-1)', async () => {
    const cut = (notCarriedOut: boolean, answeredThere: boolean): DocketError => Object.assign(new DocketError('interrupted', 'interrupted, so not tried again'), { notCarriedOut, answeredThere });
    const errors = [cut(false, false), cut(true, false), cut(false, true)];
    const report = await executePlan(planOf(independent(3)), { concurrency: 1, clock: tickingClock(), run: (c) => Promise.reject(errors[Number(c.key.slice(1))]!) });
    expect(report.results.map((r) => r.pending)).toEqual([true, undefined, undefined]);
  });
});

describe('executePlan: report', () => {
  it('lists results in plan order even when operations finish in another order', async () => {
    const runner = controlledRunner();
    const changes = independent(3);
    const done = executePlan(planOf(changes), { concurrency: 3, clock: tickingClock(), run: runner.run });
    await settle();
    runner.op('update:playbook:P2').resolve();
    await settle();
    runner.op('update:playbook:P0').resolve();
    await settle();
    runner.op('update:playbook:P1').reject(new Error('late failure'));
    const report = await done;
    expect(report.results.map((r) => r.changeId)).toEqual(changes.map((c) => c.id));
    expect(report.results.map((r) => r.status)).toEqual(['done', 'failed', 'done']);
    expect(report).toMatchObject({ done: 2, failed: 1, skipped: 0 });
  });

  it('measures time with the injected clock', async () => {
    let now = 0;
    const report = await executePlan(planOf(independent(1)), {
      concurrency: 1,
      clock: () => now,
      run: async () => {
        now += 250;
      },
    });
    expect(report.results[0]!.ms).toBe(250);
    expect(report.ms).toBe(250);
  });

  it('an empty plan reports nothing and runs nothing', async () => {
    const report = await executePlan(planOf([]), {
      concurrency: 4,
      clock: tickingClock(),
      run: () => Promise.reject(new Error('must not run')),
    });
    expect(report).toMatchObject({ results: [], done: 0, failed: 0, skipped: 0 });
  });
});

describe('executePlan: stopping', () => {
  it('once the signal aborts, starts nothing new, lets what runs finish, and reports the rest as not started', async () => {
    const r = controlledRunner();
    const controller = new AbortController();
    const done = executePlan(planOf(independent(5)), { concurrency: 2, clock: tickingClock(), run: r.run, signal: controller.signal });
    await settle();
    expect(r.open()).toEqual(['update:playbook:P0', 'update:playbook:P1']);
    controller.abort(new Error('SIGTERM'));
    await settle();
    r.op('update:playbook:P0').resolve();
    r.op('update:playbook:P1').resolve();
    const report = await done;
    expect(r.started).toHaveLength(2);
    expect(report.results.map((x) => x.status)).toEqual(['done', 'done', 'not-started', 'not-started', 'not-started']);
    expect(report).toMatchObject({ done: 2, failed: 0, skipped: 0, notStarted: 3, stopped: 'SIGTERM' });
  });

  /** Six changes, two at a time, each failing at once (as a request refused for want of budget would). */
  async function failingAtOnce(hooks: (stop: () => void, started: () => number) => Pick<Parameters<typeof executePlan>[1], 'beforeStart' | 'afterFailure'>) {
    const controller = new AbortController();
    let started = 0;
    const report = await executePlan(planOf(independent(6)), {
      concurrency: 2,
      clock: tickingClock(),
      run: async () => {
        started++;
        throw Object.assign(new Error('not sent'), { unsent: true });
      },
      signal: controller.signal,
      ...hooks(() => controller.abort(new Error('its time budget ran out')), () => started),
    });
    return { started, report };
  }

  it('asks before each start whether to stop, and is told of each failure: either stops what follows, not started', async () => {
    // A budget past its deadline stops the next start, though its timer has not fired: without the
    // check the freed slot would start the next one, and every change would fail the same way.
    const asked = await failingAtOnce((stop, started) => ({ beforeStart: () => (started() >= 2 ? stop() : undefined) }));
    // A failure the budget left unsent stops the run; the second change had started with it.
    const told = await failingAtOnce((stop) => ({ afterFailure: (error) => ((error as { unsent?: boolean }).unsent ? stop() : undefined) }));
    for (const { started, report } of [asked, told]) {
      expect(started).toBe(2);
      expect(report).toMatchObject({ failed: 2, notStarted: 4, stopped: 'its time budget ran out' });
    }
  });

  it('a change whose request was never sent, the run stopping when its turn came, is not started, as what depends on it (probe KL-1)', async () => {
    const controller = new AbortController();
    const upload = change('upload', 'attachment', 'Exhibit');
    const template = change('update', 'template', 'CSA', { liveId: 't-1', dependsOn: [upload.id] });
    const report = await executePlan(planOf([upload, template]), {
      concurrency: 1,
      clock: tickingClock(),
      run: async () => {
        controller.abort(new Error('SIGTERM'));
        throw Object.assign(new Error('upload attachment "Exhibit": not sent: docket was stopping when its turn came'), { neverSent: true });
      },
      signal: controller.signal,
    });
    expect(report.results.map((x) => x.status)).toEqual(['not-started', 'not-started']);
    expect(report).toMatchObject({ done: 0, failed: 0, skipped: 0, notStarted: 2, stopped: 'SIGTERM' });
  });

  it('what depends on a change that fails once the run is stopped is not started, not skipped: the stop, not the failure, left it (probe OM-4)', async () => {
    const controller = new AbortController();
    const cut = change('create', 'playbook', 'P');
    const rule = change('create', 'rule', 'P/R', { dependsOn: [cut.id] });
    const report = await executePlan(planOf([cut, rule]), {
      concurrency: 1,
      clock: tickingClock(),
      run: async () => {
        // The time budget runs out while the request is in flight: it fails, sent.
        controller.abort(new Error('its time budget ran out'));
        throw new Error('create playbook "P": no answer within the time budget');
      },
      signal: controller.signal,
    });
    expect(report.results.map((x) => x.status)).toEqual(['failed', 'not-started']);
    expect(report).toMatchObject({ failed: 1, skipped: 0, notStarted: 1 });
  });

  it('an operation still running after the grace is reported failed with an unknown outcome the service may still be carrying out (pending: no re-run at once)', async () => {
    const r = controlledRunner();
    const controller = new AbortController();
    let graceAsked = 0;
    const done = executePlan(planOf(independent(2)), {
      concurrency: 1,
      clock: tickingClock(),
      run: r.run,
      signal: controller.signal,
      graceMs: 1234,
      wait: async (ms) => {
        graceAsked = ms;
      },
    });
    await settle();
    controller.abort(new Error('SIGINT'));
    const report = await done;
    expect(graceAsked).toBe(1234);
    expect(report.results[0]).toMatchObject({ status: 'failed', message: expect.stringContaining('outcome is unknown'), pending: true });
    expect(report.results[1]).toMatchObject({ status: 'not-started' });
    r.op('update:playbook:P0').resolve();
  });

  it('listens to the signal once, however many changes run (no listener piles up on a long apply)', async () => {
    const controller = new AbortController();
    let most = 0;
    const report = await executePlan(planOf(independent(50)), {
      concurrency: 2,
      clock: tickingClock(),
      signal: controller.signal,
      run: async () => {
        most = Math.max(most, getEventListeners(controller.signal, 'abort').length);
        await settle();
      },
    });
    expect(report.done).toBe(50);
    expect(most).toBe(1);
  });

  it('a note an operation returns is kept on its result', async () => {
    const report = await executePlan(planOf(independent(1)), { concurrency: 1, clock: tickingClock(), run: async () => 'adopted' });
    expect(report.results[0]).toMatchObject({ status: 'done', note: 'adopted' });
  });
});
