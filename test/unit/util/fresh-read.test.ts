import { describe, expect, it } from 'vitest';
import { freshReads, onceReads } from '../../../src/util/fresh-read.js';
import { DocketError } from '../../../src/errors.js';

/** A load whose calls are counted and which resolves only when told to. */
function gatedLoad() {
  const gates: (() => void)[] = [];
  let calls = 0;
  const load = (): Promise<number> => {
    const n = ++calls;
    return new Promise((resolve) => gates.push(() => resolve(n)));
  };
  return { load, calls: () => calls, open: (i: number) => gates[i]!() };
}

/** A load that always ends in an answer too large to read, its calls counted. */
function tooLargeLoad() {
  let calls = 0;
  const huge = (): Promise<never> => {
    calls++;
    const error = new DocketError('bad-response', 'list rules: answered 200 with a body over 64 MB');
    error.answerTooLarge = true;
    return Promise.reject(error);
  };
  return { huge, calls: () => calls };
}

describe('freshReads', () => {
  it('starts a read at once when none is under way', async () => {
    const read = freshReads();
    const g = gatedLoad();
    const a = read('users', g.load);
    expect(g.calls()).toBe(1);
    g.open(0);
    expect(await a).toBe(1);
  });

  it('never hands a caller a read that started before it asked; later callers share the next one', async () => {
    const read = freshReads();
    const g = gatedLoad();
    const first = read('users', g.load);
    const second = read('users', g.load);
    const third = read('users', g.load);
    expect(g.calls()).toBe(1);
    g.open(0);
    expect(await first).toBe(1);
    await new Promise((r) => setImmediate(r));
    expect(g.calls()).toBe(2);
    g.open(1);
    expect([await second, await third]).toEqual([2, 2]);
  });

  it('keeps keys apart and starts again once nothing is pending', async () => {
    const read = freshReads();
    const users = gatedLoad();
    const other = gatedLoad();
    const a = read('users', users.load);
    const b = read('other', other.load);
    expect([users.calls(), other.calls()]).toEqual([1, 1]);
    users.open(0);
    other.open(0);
    await Promise.all([a, b]);
    const c = read('users', users.load);
    expect(users.calls()).toBe(2);
    users.open(1);
    expect(await c).toBe(2);
  });

  it('a failed read fails its callers only; the next caller reads again', async () => {
    const read = freshReads();
    let calls = 0;
    const failing = () => (++calls === 1 ? Promise.reject(new Error('boom')) : Promise.resolve(calls));
    await expect(read('users', failing)).rejects.toThrow('boom');
    expect(await read('users', failing)).toBe(2);
  });

  it('an answer too large to read is not asked for again: it would come again (probe EY)', async () => {
    const read = freshReads();
    const { huge, calls } = tooLargeLoad();
    for (let i = 0; i < 3; i++) await expect(read('rules', huge)).rejects.toThrow('over 64 MB');
    expect(calls()).toBe(1);
    // Nor by a caller that queued behind the read that ended so.
    const again = freshReads();
    const first = again('rules', huge);
    const queued = again('rules', huge);
    await expect(first).rejects.toThrow('over 64 MB');
    await expect(queued).rejects.toThrow('over 64 MB');
    expect(calls()).toBe(2);
  });
});

describe('onceReads', () => {
  it('serves every caller of a key from its first read, under way or done', async () => {
    const read = onceReads();
    const g = gatedLoad();
    const first = read('race:playbooks', g.load);
    const during = read('race:playbooks', g.load);
    g.open(0);
    expect([await first, await during]).toEqual([1, 1]);
    expect(await read('race:playbooks', g.load)).toBe(1);
    expect(g.calls()).toBe(1);
  });

  it('keeps keys apart', async () => {
    const read = onceReads();
    const g = gatedLoad();
    const a = read('race:rules:p1', g.load);
    const b = read('race:rules:p2', g.load);
    g.open(0);
    g.open(1);
    expect([await a, await b]).toEqual([1, 2]);
  });

  it('a failed read is tried again by the next caller; its own callers see the failure', async () => {
    const read = onceReads();
    let calls = 0;
    const flaky = () => (++calls === 1 ? Promise.reject(new Error('HTTP 503')) : Promise.resolve(calls));
    const first = read('review:users', flaky);
    const joined = read('review:users', flaky);
    await expect(first).rejects.toThrow('HTTP 503');
    await expect(joined).rejects.toThrow('HTTP 503');
    expect(await read('review:users', flaky)).toBe(2);
    expect(await read('review:users', flaky)).toBe(2);
    expect(calls).toBe(2);
  });

  it('an answer too large to read is not asked for again', async () => {
    const read = onceReads();
    const { huge, calls } = tooLargeLoad();
    for (let i = 0; i < 3; i++) await expect(read('race:rules:p1', huge)).rejects.toThrow('over 64 MB');
    expect(calls()).toBe(1);
  });
});
