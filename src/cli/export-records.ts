/**
 * After `docket export` writes a directory: what it wrote is in sync with the live state, so it is
 * recorded in that directory's docket.lock.json as an apply with nothing to change would record it
 * (engine/sync.ts). Without records, an object deleted or archived in the app before the first
 * apply read as the files' own addition, pending, and drift and pull did not see it.
 */
import { hasChanges } from '../engine/plan.js';
import { DocketError, InterruptedError } from '../errors.js';
import type { ExportRecords } from '../export/summary.js';
import { syncAfterApply } from '../engine/sync.js';
import { collectGarbage } from '../util/collect.js';
import { KINDS } from '../kinds/index.js';
import type { Io } from './io.js';
import type { CommonOptions } from './options.js';
import { planDetailsInSession } from './plan-step.js';
import type { KindName } from '../kinds/index.js';
import { withSession } from './session.js';
import { EMULATOR_SYNC_FILE, LOCK_FILE, workLabel } from '../config/work-dir.js';

export interface RecordOptions extends Pick<CommonOptions, 'concurrency' | 'maxRps' | 'verbose'> {
  emulator: boolean;
  deadline: () => number | undefined;
  /** The top-level objects export read (`kind:name`): one the check finds and no file declares was missed by that read. */
  seen?: ReadonlySet<string>;
  /** The kinds exported, read by the check even when the files declare none of them. */
  exported?: readonly KindName[];
}

/**
 * Plans the written directory against the services and, when that shows no changes, writes the
 * records. The live state is read again: a change made in the app since the export's read is then
 * a change of this plan, and nothing is recorded that was not seen in sync.
 */
export async function recordExported(io: Io, dir: string, opts: RecordOptions): Promise<ExportRecords> {
  return await withSession(io, { dir, quiet: true, ...opts }, async (s) => {
    const { plan } = await planDetailsInSession(s, { targets: [], ...(opts.exported ? { alsoRead: opts.exported } : {}) });
    // A list answered short (empty) while export read it leaves no file, so no change: what the
    // check finds live that export never saw tells it.
    // Only kinds it exported: the members a default reviewer names, read with `--kind organization`, were never export's to list.
    const exported = opts.exported ? new Set<string>(opts.exported) : undefined;
    const unseen = opts.seen ? plan.undeclared.reduce((n, u) => n + (exported && !exported.has(u.kind) ? 0 : u.names.filter((name) => !opts.seen!.has(`${u.kind}:${name}`)).length), 0) : 0;
    if (hasChanges(plan) || unseen > 0) {
      const n = plan.changes.length;
      const found = [...(n > 0 ? [`shows ${n} ${n === 1 ? 'change' : 'changes'}`] : []), ...(unseen > 0 ? [`finds ${unseen} live ${unseen === 1 ? 'object' : 'objects'} export's read did not list`] : [])];
      return { skipped: `a plan of the written directory ${found.join(' and ')}: the live state moved while export read it, or a read of it was wrong`, changes: n, ...(unseen > 0 ? { unseen } : {}) };
    }
    let recorded = 0;
    // The pages read are garbage now: collected before the records are made, as apply does (see collectGarbage).
    collectGarbage(s.workspace.desired.length);
    try {
      await s.settle(s.lock, false, (held) => {
        const updates = syncAfterApply({ plan, desired: s.workspace.desired, ids: new Map(Object.entries(plan.ids)), kinds: KINDS, held, state: s.sync() });
        recorded = updates.size;
        return updates;
      });
    } catch (error) {
      // The check ran and found the files in sync: only writing that down failed.
      if (error instanceof InterruptedError || !(error instanceof DocketError)) throw error;
      return { skipped: `writing them failed: ${error.message}` };
    }
    return { recorded, file: opts.emulator ? workLabel(EMULATOR_SYNC_FILE) : LOCK_FILE };
  });
}
