/**
 * Scratch playbooks: the playbook under test as the files declare it, made on the review service
 * under `docket-test: <name> @ <digest>` for the run's reviews and archived when the run ends
 * (also on failure and Ctrl-C). Each one's description says which run made it and until when it
 * may run, so a later run archives what a crashed one left (a dead process on this machine, or a
 * run past its time budget anywhere) and leaves a concurrent run's alone.
 */
import type { ReviewApi } from '../api/review.js';
import { DocketError } from '../errors.js';
import { scratchRuleBody, scratchRuleRefused, unkeptInScratch, type PlaybookSubject, type SubjectRule } from '../kinds/support/test-subjects.js';
import { mapLimit } from '../util/map-limit.js';
import { SCRATCH_PREFIX, scratchName } from './scratch-name.js';
import { isLeftover, ownerText, type RunIdentity } from './run-owner.js';
import { processAlive } from '../util/process-alive.js';

export type { RunIdentity } from './run-owner.js';

export interface ScratchPlaybook {
  id: string;
  name: string;
  rules: SubjectRule[];
}

export function scratchDescription(run: RunIdentity): string {
  return `Made by docket test for ${ownerText(run)}. Archived when the run ends; a later docket test archives it if the run died.`;
}

export class ScratchPlaybooks {
  private readonly made = new Map<string, Promise<ScratchPlaybook>>();
  private readonly archive = new Map<string, string>();
  /** Names whose create got no answer (a hang, the time budget): the service may have made them. */
  private readonly unanswered = new Set<string>();
  private swept: Promise<string[]> | undefined;
  /** Fields of scratch rules the service did not keep as sent: the run's notes say so. */
  readonly unkept: string[] = [];
  /** The same, by the digest of the playbook variant: kept with the cache, so a replay says them too. */
  readonly unkeptOf = new Map<string, string[]>();

  constructor(
    private readonly api: ReviewApi,
    private readonly run: RunIdentity,
    private readonly options: { concurrency: number; now: () => Date; alive?: (pid: number) => boolean },
  ) {}

  /** Archives the scratch playbooks crashed runs left (once per run); returns their names. */
  sweep(): Promise<string[]> {
    this.swept ??= (async () => {
      const alive = this.options.alive ?? processAlive;
      const now = this.options.now();
      const left = (await this.api.listPlaybooks()).filter((p) => p.attributes.name.startsWith(SCRATCH_PREFIX) && isLeftover(p.attributes.description, this.run, now, alive));
      await mapLimit(left, this.options.concurrency, (p) => this.api.archivePlaybook(p.id, p.attributes.name));
      return left.map((p) => p.attributes.name);
    })();
    return this.swept;
  }

  /** The scratch playbook of a digest, made once per run. */
  ensure(subject: PlaybookSubject, digest: string): Promise<ScratchPlaybook> {
    let p = this.made.get(digest);
    if (!p) {
      p = this.create(subject, digest);
      this.made.set(digest, p);
    }
    return p;
  }

  private async create(subject: PlaybookSubject, digest: string): Promise<ScratchPlaybook> {
    await this.sweep();
    const name = scratchName(subject.name, digest);
    // A concurrent run testing the same playbook makes one of the same name: its run tells them apart.
    let created;
    try {
      created = await this.api.createPlaybook({ name, description: scratchDescription(this.run) }, true);
    } catch (error) {
      // Unless surely not carried out (never sent, refused outright), the run's end looks for it.
      if (!(error instanceof DocketError && error.notCarriedOut)) this.unanswered.add(name);
      throw error;
    }
    // Registered before its rules: a failure part-way still archives it.
    this.archive.set(created.id, name);
    const rules = await mapLimit(subject.rules, this.options.concurrency, async (rule) => {
      const live = await this.api.createRule(created.id, scratchRuleBody(rule), `${name}/${rule.name}`).catch((err: unknown) => {
        scratchRuleRefused(err, rule);
        throw err;
      });
      const unkept = unkeptInScratch(rule, live.attributes as unknown as Record<string, unknown>);
      if (unkept) {
        this.unkept.push(`${subject.name}: ${unkept}`);
        this.unkeptOf.set(digest, [...(this.unkeptOf.get(digest) ?? []), `${subject.name}: ${unkept}`]);
      }
      return { ...rule, id: live.id };
    });
    return { id: created.id, name, rules };
  }

  /** Archives every scratch playbook this run made; returns the names it could not archive. */
  async archiveAll(): Promise<string[]> {
    const failed: string[] = [];
    if (this.unanswered.size > 0) {
      // Made by this run though it never heard so: its name, with this run's description.
      const mine = scratchDescription(this.run);
      try {
        for (const p of await this.api.listPlaybooks()) {
          if (this.unanswered.has(p.attributes.name) && p.attributes.description === mine && !this.archive.has(p.id)) this.archive.set(p.id, p.attributes.name);
        }
        this.unanswered.clear();
      } catch {
        failed.push(...this.unanswered);
      }
    }
    await mapLimit([...this.archive], this.options.concurrency, async ([id, name]) => {
      try {
        await this.api.archivePlaybook(id, name);
        this.archive.delete(id);
      } catch {
        failed.push(name);
      }
    });
    return failed;
  }
}
