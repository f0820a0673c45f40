import { describe, expect, it } from 'vitest';
import { countingWrites, mayLand, refusedUnperformed, waitingForTurn, writeSent, type WriteAttempts } from '../../../src/api/write-attempts.js';

describe('write attempts', () => {
  it('count the writes a change sent until each ends, and whether one may have been carried out, across awaits', async () => {
    const attempts: WriteAttempts = { open: 0, mayHaveLanded: false, refused: false, queued: 0 };
    const seen: boolean[] = [];
    await countingWrites(attempts, async () => {
      // None sent yet: one may still be (a publish's write after its read).
      seen.push(mayLand(attempts));
      await Promise.resolve();
      const refused = writeSent();
      seen.push(mayLand(attempts));
      refused(false);
      refused(true);
      seen.push(mayLand(attempts));
      await new Promise((r) => setTimeout(r, 1));
      writeSent()(true);
    });
    expect(seen).toEqual([true, true, false]);
    expect(attempts).toEqual({ open: 0, mayHaveLanded: true, refused: true, queued: 0 });
    // Outside a change, a write counts for none.
    expect(() => writeSent()(true)).not.toThrow();
  });

  it('say a change waiting for its turn, none of its writes out or landed, cannot land: the first signal ends that wait unsent', async () => {
    const attempts: WriteAttempts = { open: 0, mayHaveLanded: false, refused: false, queued: 0 };
    const seen: boolean[] = [];
    await countingWrites(attempts, async () => {
      const turnCame = waitingForTurn();
      seen.push(mayLand(attempts));
      turnCame();
      turnCame();
      // Its turn came: the write is sent, after the signal too.
      seen.push(mayLand(attempts));
      const answered = writeSent();
      // A second request of it waits while the first is out: the first may land.
      const waiting = waitingForTurn();
      seen.push(mayLand(attempts));
      answered(true);
      seen.push(mayLand(attempts));
      waiting();
    });
    expect(seen).toEqual([false, true, true, true]);
    expect(attempts.queued).toBe(0);
    expect(() => waitingForTurn()()).not.toThrow();
  });

  it('take a refusal, a 429 among them, for a write not carried out, but not a 408 or a 5xx', () => {
    expect([400, 404, 409, 422, 429].map(refusedUnperformed)).toEqual([true, true, true, true, true]);
    expect([200, 201, 204, 408, 500, 502, 504].map(refusedUnperformed)).toEqual([false, false, false, false, false, false, false]);
  });
});
