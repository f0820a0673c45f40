/**
 * How docket test names what it makes on a service (scratch playbooks, test agreements' messages),
 * with no other testing code: plan, drift, pull and export leave them out, and the files may not
 * use the prefix.
 */
import { namesARun } from './run-owner.js';

export const SCRATCH_PREFIX = 'docket-test: ';

export function scratchName(playbook: string, digest: string): string {
  return `${SCRATCH_PREFIX}${playbook} @ ${digest.slice(0, 12)}`;
}

/** A playbook a `docket test` run made for itself: its name and the run its description names. */
export function isScratchPlaybook(name: string, description: string | null | undefined): boolean {
  return name.startsWith(SCRATCH_PREFIX) && / @ [0-9a-f]{12}$/.test(name) && namesARun(description);
}
