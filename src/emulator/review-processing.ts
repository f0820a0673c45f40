/**
 * Asynchronous review processing: a review is `processing` after its create and becomes
 * `completed` (or `failed` when the stand-in could not read the file) after a delay; so does a
 * counterproposal given as a directive. Like conversion.ts: timers resume after a restart and are
 * cancelled on reset and close; each change is saved.
 */
import { suggestedCounterproposal } from './review-records.js';
import type { EmulatorStore } from './store.js';

export class ReviewScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: EmulatorStore,
    private readonly delayMs: () => number,
  ) {}

  /** Finishes whatever of the review is processing (itself, its counterproposals) after the delay. */
  schedule(orgId: string, reviewId: string, delayMs = this.delayMs()): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.finish(orgId, reviewId);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /** Finishes or schedules what a saved state left processing (the emulator stopped in between), by what is left of the delay since its last change (as conversion.ts). */
  resumePending(): void {
    const now = Date.parse(this.store.timestamp());
    for (const org of Object.values(this.store.state.organizations)) {
      for (const review of Object.values(org.reviews)) {
        const pending = review.status === 'processing' || review.redline_evaluations.some((e) => e.counterproposal?.status === 'processing');
        if (!pending) continue;
        // A loop, not Math.max(...): a review of 100,000 evaluations would pass the argument limit (second read SR100B-7).
        let since = Date.parse(review.updated_at) || 0;
        for (const e of review.redline_evaluations) since = Math.max(since, Date.parse(e.counterproposal?.updated_at ?? '') || 0);
        const left = this.delayMs() - (now - (since || now));
        if (left <= 0) this.finish(org.id, review.id);
        else this.schedule(org.id, review.id, left);
      }
    }
  }

  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private finish(orgId: string, reviewId: string): void {
    const reviews = this.store.organization(orgId)?.reviews;
    const review = reviews && Object.hasOwn(reviews, reviewId) ? reviews[reviewId] : undefined;
    if (!review) return;
    const now = this.store.timestamp();
    if (review.status === 'processing') {
      review.status = review.error === null ? 'completed' : 'failed';
      review.completed_at = now;
      review.updated_at = now;
    }
    for (const e of review.redline_evaluations) {
      const cp = e.counterproposal;
      if (cp?.status !== 'processing') continue;
      cp.suggested_counterproposal_text = cp.new_text ?? suggestedCounterproposal(cp.directive ?? '', e.redline_text);
      cp.status = 'completed';
      cp.updated_at = now;
    }
    // Nobody waits for this write; a failure shows up at the next request's write.
    this.store.persist().catch(() => undefined);
  }
}
