import { describe, expect, it } from 'vitest';
import { Turns } from '../../../src/util/turns.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('Turns', () => {
  it('runs work of one key one at a time, in order, and work of other keys alongside', async () => {
    const turns = new Turns();
    const log: string[] = [];
    const gates = new Map<string, () => void>();
    const work = (name: string) => () =>
      new Promise<string>((resolve) => {
        log.push(`start ${name}`);
        gates.set(name, () => {
          log.push(`end ${name}`);
          resolve(name);
        });
      });
    const a1 = turns.run('a', work('a1'));
    const a2 = turns.run('a', work('a2'));
    const b1 = turns.run('b', work('b1'));
    await tick();
    expect(log).toEqual(['start a1', 'start b1']);
    gates.get('a1')!();
    await tick();
    expect(log).toEqual(['start a1', 'start b1', 'end a1', 'start a2']);
    gates.get('a2')!();
    gates.get('b1')!();
    expect(await Promise.all([a1, a2, b1])).toEqual(['a1', 'a2', 'b1']);
  });

  it('starts the next work of a key after a failure, and the failure reaches only its caller', async () => {
    const turns = new Turns();
    const failed = turns.run('a', () => Promise.reject(new Error('lost')));
    const next = turns.run('a', () => Promise.resolve('sent'));
    await expect(failed).rejects.toThrow('lost');
    await expect(next).resolves.toBe('sent');
  });
});
