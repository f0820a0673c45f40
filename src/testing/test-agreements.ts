/**
 * The draft test agreements of template tests. Each one's `message` starts with the reserved
 * prefix and says which run made it and until when (the rule scratch playbooks use), so a later
 * run voids what a killed one left and leaves a concurrent run's alone. A case that sets its own
 * `message` keeps it: that agreement is voided by its run only.
 */
import type { AgreementsAgreements } from '../api/agreements.js';
import { mapLimit } from '../util/map-limit.js';
import { SCRATCH_PREFIX } from './digest.js';
import { isLeftover, ownerText, type RunIdentity } from './run-owner.js';
import { processAlive } from '../util/process-alive.js';

export function testAgreementMessage(run: RunIdentity): string {
  return `${SCRATCH_PREFIX}a draft test agreement made by docket test for ${ownerText(run)}. Voided when the run ends; a later docket test voids it if the run died.`;
}

/** The `agreement` object of a case: its values, the run's mark, and the test flag last so no value can turn it into a real agreement. */
export function testAgreementObject(values: Record<string, unknown>, custom: boolean, run: RunIdentity): Record<string, unknown> {
  const message = testAgreementMessage(run);
  return custom ? { custom_field_values: values, message, test_agreement: true } : { message, ...values, test_agreement: true };
}

export class TestAgreements {
  private swept: Promise<string[]> | undefined;

  constructor(
    private readonly api: AgreementsAgreements,
    private readonly run: RunIdentity,
    private readonly options: { concurrency: number; now: () => Date; alive?: (pid: number) => boolean },
  ) {}

  /** Whether this run looked (or is looking) for leftovers. */
  get started(): boolean {
    return this.swept !== undefined;
  }

  /**
   * Voids the draft test agreements this run made but never heard of (a create that got no
   * answer): drafts with this run's mark that `known` does not hold. Returns their ids.
   */
  async voidUnanswered(known: readonly string[]): Promise<string[]> {
    const mine = testAgreementMessage(this.run);
    const left = (await this.api.listDrafts()).filter((a) => a.attributes.test_agreement === true && a.attributes.message === mine && !known.includes(a.id));
    await mapLimit(left, this.options.concurrency, (a) => this.api.void(a.id));
    return left.map((a) => a.id);
  }

  /** Voids the draft test agreements crashed runs left (once per run); returns their ids. */
  sweep(): Promise<string[]> {
    this.swept ??= (async () => {
      const alive = this.options.alive ?? processAlive;
      const now = this.options.now();
      const left = (await this.api.listDrafts()).filter((a) => {
        const { status, test_agreement: test, message } = a.attributes;
        return (status === undefined || status === 'draft') && test === true && typeof message === 'string' && message.startsWith(SCRATCH_PREFIX) && isLeftover(message, this.run, now, alive);
      });
      await mapLimit(left, this.options.concurrency, (a) => this.api.void(a.id));
      return left.map((a) => a.id);
    })();
    return this.swept;
  }
}
