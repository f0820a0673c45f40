/**
 * Reads that must see the caller's own earlier writes, shared where that is safe. A call joins a
 * read of the same key that has not started yet, or else starts one; it never joins a read that is
 * already under way, since that one may have started before the caller's write. So callers that
 * finish their writes together (concurrent invites) share one read instead of making one each.
 */
import { DocketError } from '../errors.js';

export type FreshRead = <T>(key: string, load: () => Promise<T>) => Promise<T>;

/** An answer over the size docket reads: asked for again, it comes again (README, Failure and safety). */
export function tooLarge(error: unknown): boolean {
  return error instanceof DocketError && error.answerTooLarge;
}

export function freshReads(): FreshRead {
  const running = new Map<string, Promise<unknown>>();
  const waiting = new Map<string, Promise<unknown>>();
  /** Reads that ended in an answer too large to read: the same answer would come again. */
  const refused = new Map<string, Promise<unknown>>();
  const ignore = (): void => undefined;

  const start = <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const p = load();
    running.set(key, p);
    const done = (): void => {
      if (running.get(key) === p) running.delete(key);
    };
    p.then(done, (error: unknown) => {
      if (tooLarge(error)) refused.set(key, p);
      done();
    });
    return p;
  };

  return <T>(key: string, load: () => Promise<T>): Promise<T> => {
    const failed = refused.get(key);
    if (failed) return failed as Promise<T>;
    const queued = waiting.get(key);
    if (queued) return queued as Promise<T>;
    const busy = running.get(key);
    if (!busy) return start(key, load);
    const next = busy.then(ignore, ignore).then(() => {
      waiting.delete(key);
      return (refused.get(key) as Promise<T> | undefined) ?? start(key, load);
    });
    waiting.set(key, next);
    return next;
  };
}

/**
 * Reads shared by key for as long as the reader is kept (FreshRead's signature, without its
 * freshness): for the reads that need not see the caller's writes. A read that failed is tried
 * again by the next caller, not handed to all of them, but for an answer too large to read, which
 * would come again.
 */
export function onceReads(): FreshRead {
  const reads = new Map<string, Promise<unknown>>();
  return <T>(key: string, load: () => Promise<T>): Promise<T> => {
    let read = reads.get(key) as Promise<T> | undefined;
    if (!read) {
      read = load();
      reads.set(key, read);
      read.catch((error: unknown) => void (tooLarge(error) || reads.delete(key)));
    }
    return read;
  };
}
