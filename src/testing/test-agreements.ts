/**
 * The draft test agreements of template tests. Each one's `message` starts with the reserved
 * prefix and says which run made it and until when (the rule scratch playbooks use), so a later
 * run voids what a killed one left and leaves a concurrent run's alone. A case that sets its own
 * `message` keeps it: that agreement is voided by its run only.
 */
import type { AgreementAttrs, AgreementsAgreements } from '../api/agreements.js';
import type { ApiResource } from '../api/types.js';
import { DocketError } from '../errors.js';
import { mapLimit } from '../util/map-limit.js';
import { SCRATCH_PREFIX } from './scratch-name.js';
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

/** What a sweep of the drafts earlier runs left did: TestAgreements.sweep. */
export interface Swept {
  voided: string[];
  failed: { id: string; error: string }[];
}

export class TestAgreements {
  private swept: Promise<Swept> | undefined;
  /** Every agreement this run knows it made. */
  private readonly made = new Set<string>();

  /** Notes an agreement this run made (so a later lost create is not taken for it). */
  saw(id: string): void {
    this.made.add(id);
  }

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

  /**
   * The draft a create that got no clear answer (a 500, a dropped connection) made, found by its
   * message among this run's drafts it has not made already (`saw`); undefined when there is none, so the
   * create is sent again. Two such drafts (another suite's create lost at the same moment) cannot be
   * told apart: that is an unknown outcome, and the end of the run voids both.
   */
  async findUnanswered(message: unknown): Promise<ApiResource<AgreementAttrs> | undefined> {
    const found = (await this.api.listDrafts()).filter((a) => {
      const { status, test_agreement: test } = a.attributes;
      return (status === undefined || status === 'draft') && test === true && a.attributes.message === message && !this.made.has(a.id);
    });
    if (found.length <= 1) return found[0];
    throw new DocketError('unknown-outcome', `create agreement: no complete answer came back, and ${found.length} draft test agreements of this run could be the one it made`, 'the run voids them when it ends');
  }

  /**
   * Voids the draft test agreements crashed runs left (once per run): the ids voided, and those a
   * void failed for, each with its error (one refused leaves the others voided: probe HM-5). Throws
   * when the drafts could not be listed.
   */
  sweep(): Promise<Swept> {
    this.swept ??= (async () => {
      const alive = this.options.alive ?? processAlive;
      const now = this.options.now();
      const left = (await this.api.listDrafts()).filter((a) => {
        const { status, test_agreement: test, message } = a.attributes;
        return (status === undefined || status === 'draft') && test === true && typeof message === 'string' && message.startsWith(SCRATCH_PREFIX) && isLeftover(message, this.run, now, alive);
      });
      const swept: Swept = { voided: [], failed: [] };
      await mapLimit(left, this.options.concurrency, (a) =>
        this.api.void(a.id).then(
          () => void swept.voided.push(a.id),
          (error: unknown) => void swept.failed.push({ id: a.id, error: error instanceof Error ? error.message : String(error) }),
        ),
      );
      // In the order they were listed, whichever void answered first.
      const order = new Map(left.map((a, i) => [a.id, i]));
      swept.voided.sort((a, b) => order.get(a)! - order.get(b)!);
      swept.failed.sort((a, b) => order.get(a.id)! - order.get(b.id)!);
      return swept;
    })();
    return this.swept;
  }
}
