/**
 * A delete or archive answered `404`: another apply (or someone in the app) removed the object
 * first, which is what was asked. Counted as done only when a read of its scope confirms the object
 * is gone (a `404` to that read: the scope went with it); a `404` that meant anything else (a path
 * the service does not know) stays the error it was. The read goes through `readAfterWrites`, so
 * the 404s of one scope share one read.
 */
import { ApiError } from '../../errors.js';

export const isNotFound = (err: unknown): boolean => err instanceof ApiError && err.status === 404;

export async function removeOrFindGone<T>(remove: () => Promise<void>, readScope: () => Promise<T[]>, isIt: (item: T) => boolean, what: string, scopeGone?: string): Promise<string | undefined> {
  try {
    await remove();
    return undefined;
  } catch (err) {
    if (!isNotFound(err)) throw err;
    let inScope = true;
    const stillThere = await readScope().then(
      (items) => items.some(isIt),
      (readError: unknown) => ((inScope = !isNotFound(readError)), inScope),
    );
    if (stillThere) throw err;
    // Its scope gone (a rule's playbook archived): not removed, but gone with it, which is not what was asked (probe DF-1).
    return !inScope && scopeGone !== undefined ? scopeGone : `${what} already (by another apply, or in the app)`;
  }
}
