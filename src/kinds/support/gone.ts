/**
 * A delete or archive answered `404`: another apply (or someone in the app) removed the object
 * first, which is what was asked. Counted as done only when a read confirms the object is gone: a
 * `404` that meant anything else (a path the service does not know) stays the error it was. The
 * read goes through `readAfterWrites`, so the 404s of one scope share one read.
 */
import { ApiError } from '../../errors.js';

export async function removeOrFindGone(remove: () => Promise<void>, stillThere: () => Promise<boolean>, what: string): Promise<string | undefined> {
  try {
    await remove();
    return undefined;
  } catch (err) {
    if (!(err instanceof ApiError) || err.status !== 404) throw err;
    if (await stillThere().catch(() => true)) throw err;
    return `${what} already (by another apply, or in the app)`;
  }
}

/** Whether a read that answers 404 (the parent itself is gone) found nothing. */
export async function listedOrGone<T>(read: () => Promise<T[]>, found: (item: T) => boolean): Promise<boolean> {
  try {
    return (await read()).some(found);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return false;
    throw err;
  }
}
