/**
 * Asynchronous docx → PDF conversion of file custom terms (seed 001): a term is `processing` after
 * a create or a file version and becomes `ready` (or `failed`) after a delay; the change is saved.
 */
import type { DocxConversion } from './agreements-state.js';
import { latest } from './agreements-state.js';
import type { EmulatorStore } from './store.js';

export interface ConversionSettings {
  delayMs: number;
  /** `failed` makes every conversion fail, whatever the organization's seed option says. */
  docxConversion: DocxConversion;
}

export class ConversionScheduler {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    private readonly store: EmulatorStore,
    private readonly settings: () => ConversionSettings,
  ) {}

  /** Finishes the conversion of version `versionNumber` of the term after the configured delay (`delayMs`: what is left of it). */
  schedule(orgId: string, termId: string, versionNumber: number, delayMs = this.settings().delayMs): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.finish(orgId, termId, versionNumber);
    }, delayMs);
    timer.unref();
    this.timers.add(timer);
  }

  /**
   * Finishes or schedules the terms a saved state left `processing` (the emulator stopped
   * mid-conversion): by what is left of the delay since the version was published. Each start
   * waiting the whole delay again, runs shorter than it (an in-process emulator's plan) never saw
   * one finish (probe BH-2).
   */
  resumePending(): void {
    const now = Date.parse(this.store.timestamp());
    for (const org of Object.values(this.store.state.organizations)) {
      for (const term of Object.values(org.agreements.custom_terms)) {
        if (term.conversion_status !== 'processing') continue;
        const version = latest(term.versions);
        const left = this.settings().delayMs - (now - (Date.parse(version.created_at) || now));
        if (left <= 0) this.finish(org.id, term.id, version.version_number);
        else this.schedule(org.id, term.id, version.version_number, left);
      }
    }
  }

  cancelAll(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  private finish(orgId: string, termId: string, versionNumber: number): void {
    const org = this.store.organization(orgId);
    const terms = org?.agreements.custom_terms;
    const term = terms && Object.hasOwn(terms, termId) ? terms[termId] : undefined;
    // A newer version restarted the conversion; its own timer finishes it.
    if (!org || !term || term.conversion_status !== 'processing' || latest(term.versions).version_number !== versionNumber) return;
    const failed = this.settings().docxConversion === 'failed' || org.agreements.docx_conversion === 'failed';
    term.conversion_status = failed ? 'failed' : 'ready';
    term.updated_at = this.store.timestamp();
    // Nobody waits for this write; a failure shows up at the next request's write.
    this.store.persist().catch(() => undefined);
  }
}
