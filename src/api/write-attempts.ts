/**
 * Which of a change's writes may have reached the service. An apply stopped by a signal writes a
 * landing mark for each create, invitation or publish that may still land; one whose requests
 * were refused (a 429) and waited to be sent again cannot, and its mark held the next plan back
 * for ten minutes after a `kill -9` (probe TF-1).
 */
import { AsyncLocalStorage } from 'node:async_hooks';

export interface WriteAttempts {
  /** Writes sent and not yet answered. */
  open: number;
  /** A write the service may have carried out: answered other than with a refusal, or not at all. */
  mayHaveLanded: boolean;
  /** A write refused (a 429, a 4xx) or never sent: its retry is not sent once the apply stops. */
  refused: boolean;
  /** Requests waiting for their turn (a permit, the pace, a 429's pause), asked before the first signal, which ends them unsent. */
  queued: number;
}

const current = new AsyncLocalStorage<WriteAttempts>();

/** Runs `write` with the requests it sends, and their ends, counted in `attempts`. */
export function countingWrites<T>(attempts: WriteAttempts, write: () => Promise<T>): Promise<T> {
  return current.run(attempts, write);
}

/**
 * Counts one more `field` for the change under way (none outside one); what it returns takes it
 * back, once however often it is called, and then runs `ended`.
 */
function countOne<A extends unknown[]>(field: 'open' | 'queued', ended: (attempts: WriteAttempts, ...args: A) => void = () => undefined): (...args: A) => void {
  const attempts = current.getStore();
  if (!attempts) return () => undefined;
  attempts[field]++;
  let done = false;
  return (...args) => {
    if (done) return;
    done = true;
    attempts[field]--;
    ended(attempts, ...args);
  };
}

/** Notes a write being sent; call what it returns once it ends, saying whether the service may have carried it out. */
export function writeSent(): (mayHaveLanded: boolean) => void {
  return countOne('open', (attempts, landed: boolean) => {
    if (landed) attempts.mayHaveLanded = true;
    else attempts.refused = true;
  });
}

/**
 * Notes a request of the change under way waiting for its turn, asked before the apply's first
 * signal: that signal ends the wait, and the request is not sent (http.ts queueWait). Call what it
 * returns once the wait ends, either way.
 */
export function waitingForTurn(): () => void {
  return countOne('queued');
}

/**
 * Whether a change's writes may land yet: one is still out, or one ended without a refusal, or none
 * was sent yet (one asked for after the stop, a publish's after its read, is still sent: second
 * read SR92-1). A change with none out and none landed cannot when its every write so far was
 * refused (its retry is not sent once the apply stops), or when it waits for a turn the first signal
 * takes away (probe TF-1: a create waiting for its turn was marked, and the next plan held it back
 * ten minutes).
 */
export function mayLand(attempts: WriteAttempts): boolean {
  return attempts.open > 0 || attempts.mayHaveLanded || (!attempts.refused && attempts.queued === 0);
}

/** An answer that says the service did not carry the write out: a refusal (4xx), a 429 among them; not a 408, which a gateway may give for a write that went on. */
export function refusedUnperformed(status: number): boolean {
  return status >= 400 && status < 500 && status !== 408;
}
