/**
 * An upload the services may carry out without docket learning of it (a killed run, a lost
 * answer): docket.lock.json marks it pending before it is sent, so the next plan looks for it
 * instead of sending it again. A refusal is not such an upload: the mark goes again.
 */
import type { PendingUpload } from '../../config/lock.js';
import type { KindName } from '../../engine/types.js';
import { DocketError } from '../../errors.js';
import type { ExecContext } from '../kind.js';

/**
 * Sends the upload, marking it pending once it has its turn (`send` passes `mark` to the client as
 * `beforeSend`: an upload stopped or killed while it waited was never sent, and leaves no mark),
 * drops the mark when the service surely did not carry it out, and marks it ended when the service
 * answered it with an error (nothing of it can land later).
 */
export async function sendMarked<T>(ctx: ExecContext, kind: KindName, key: string, pending: Omit<PendingUpload, 'since'>, send: (mark: () => Promise<void>) => Promise<T>): Promise<T> {
  try {
    return await send(() => ctx.recordPending(kind, key, pending));
  } catch (err) {
    if (err instanceof DocketError && err.notCarriedOut) await ctx.forgetPending(kind, key);
    else if (err instanceof DocketError && err.answeredThere) await markEnded(ctx, kind, key, pending);
    throw err;
  }
}

async function markEnded(ctx: ExecContext, kind: KindName, key: string, pending: Omit<PendingUpload, 'since'>): Promise<void> {
  try {
    await ctx.recordPending(kind, key, { ...pending, ended: true });
  } catch {
    // The mark stays as it was sent: the next plan waits out its window, as for an unanswered one.
  }
}
