/**
 * Uploads an interrupted apply sent and never saw confirmed, which no read can settle (the kind
 * says why: its objects cannot be listed, say). Sending the same file again could leave a second copy nobody
 * can delete, so docket stops and says so, unless the person chose: pin the live one's `id:` and
 * adopt it, or `--retry-uncertain`. An upload the configuration no longer wants is only reported.
 */
import type { Diagnostic, Diagnostics } from '../diagnostics.js';
import { sayUnlessUnsent, type UnsentHold } from './unsent.js';
import { formerKeys, refKey, type DesiredResource, type LockUpdate, type Plan, type UncertainUpload } from './types.js';
import { quoteValue } from '../config/quote.js';
import { problemSourceOf } from '../kinds/support/positions.js';

export interface UncertainOutcome {
  /** Entries to rewrite: the pending mark dropped, because the person chose or nothing wants it. */
  updates: LockUpdate[];
  warnings: string[];
}

const short = (sha: string): string => sha.slice(0, 12);

/** How an upload never confirmed is named, wherever it is said. */
const unconfirmed = (u: UncertainUpload): string => `${u.kind} ${quoteValue(u.key, 200)}: an upload of ${u.file} (sha256 ${short(u.sha256)}…) started ${u.since} was never confirmed`;

/**
 * Where a plan that sends nothing, or not everything, puts the stop at an unconfirmed upload: cut to
 * `--target`s, an upload it does not send stops it only if the cut plan keeps it (UnsentHold).
 */
export interface UncertainScope extends UnsentHold {
  /** Drift and pull upload nothing: the stop is said as a warning. */
  readOnly?: boolean;
  /** The live `kind:key` of each object the plan renames, by its declared one (liveKeysOfRenamed). */
  liveKeys?: ReadonlyMap<string, string>;
  /** The key of the live object (for an upload, the one docket.lock.json records) that has an id. */
  recordedAs?: (kind: string, id: string) => string | undefined;
}

export function resolveUncertain(uncertain: readonly UncertainUpload[], desired: readonly DesiredResource[], retry: boolean, diagnostics: Diagnostics, scope: UncertainScope = {}): UncertainOutcome {
  const updates: LockUpdate[] = [];
  const warnings: string[] = [];
  // Almost always none: no index of every declared object for them.
  if (uncertain.length === 0) return { updates, warnings };
  const byKey = new Map(desired.map((d) => [`${d.kind}:${d.key}`, d]));
  // What renames away from an unconfirmed upload's name: an object the service cannot rename is uploaded anew under its new name.
  const renamedTo = new Map(desired.flatMap((d) => formerKeys(d).map((former) => [former, d] as const)));
  // What the plan renames from a name an upload was sent under, though the files do not say so (probe HE-1).
  const renamedBack = new Map([...(scope.liveKeys ?? [])].flatMap(([declared, live]) => (byKey.has(declared) ? [[live, byKey.get(declared)!] as const] : [])));
  for (const u of uncertain) {
    // A Word term renamed in the files is renamed in place (one id): its request may still land there (second read SR89-4).
    const d = byKey.get(`${u.kind}:${u.key}`) ?? (u.landing ? (renamedTo.get(refKey(u.kind, u.key)) ?? renamedBack.get(refKey(u.kind, u.key))) : undefined);
    const what = unconfirmed(u);
    // Of the same file, another description is another upload too: adopted, it would be recorded as the files', and live would not be (probe RQ-5).
    const otherField = d && !u.landing && d.fields[u.field] === u.sha256 ? otherThanSent(d, u) : undefined;
    const drop = (reason: string): void => {
      updates.push({ kind: u.kind, key: u.key, entry: u.settled, reason, pending_since: u.since });
    };
    if (!d && u.landing) {
      // No longer declared: nothing sends it, and the mark stays for its ten minutes, so a document
      // put back meanwhile still waits for the request that may land (probe RQ-1).
      continue;
    } else if (d?.pinId && !namesEarlierUpload(d.pinId, u)) {
      const other = scope.recordedAs?.(u.kind, d.pinId);
      if (other !== undefined && other !== u.key) {
        // The upload docket.lock.json records as another object (an id copied from the wrong one): no
        // answer to this upload, which may be live, unrecorded (probe HE-2).
        const why = `the configuration pins id ${d.pinIdWritten ?? d.pinId}, which docket.lock.json records as the upload of ${u.kind} ${quoteValue(other, 200)}, not this one`;
        drop(`${what} and may exist live as an orphan (${why}); apply forgets it`);
        warnings.push(`${what} and may exist live as an orphan docket cannot list or delete; ${why}, so apply drops the record of it`);
      } else drop(`${what}; the configuration pins id ${d.pinIdWritten ?? d.pinId}, so the pending mark is dropped`);
    } else if (!d || (!u.landing && (d.fields[u.field] !== u.sha256 || otherField !== undefined))) {
      const renamed = d ? undefined : renamedTo.get(refKey(u.kind, u.key));
      // The same path with other bytes (the file changed back) is no other file (probe OT-3).
      const samePath = d !== undefined && Object.values(d.payload ?? {}).includes(u.file);
      const why = d ? (otherField !== undefined ? `its ${otherField} now differs from the one sent with that upload` : samePath ? `${u.file} now holds other bytes than that upload` : 'the configuration now names another file') : renamed ? `the configuration renames it to "${renamed.key}", which is uploaded anew under that name` : 'the configuration no longer declares it';
      drop(`${what} and may exist live as an orphan (${why}); apply forgets it`);
      warnings.push(`${what} and may exist live as an orphan docket cannot list or delete; ${why}, so apply drops the record of it`);
    } else if (retry && scope.sends?.(d) === false) {
      // Outside the targets: this plan sends it not, so the mark stays for the plan that does (probe PQ-1).
      continue;
    } else if (retry) {
      // A publish sent again keeps a note of the first: landing later, it is a second version of the same file, not another's (probe PI-1).
      if (u.landing && u.settled) updates.push({ kind: u.kind, key: u.key, entry: { ...u.settled, abandoned: { sha256: u.sha256, since: u.since } }, reason: `${what}; --retry-uncertain uploads it again`, pending_since: u.since });
      else drop(`${what}; --retry-uncertain uploads it again`);
      warnings.push(
        !u.landing
          ? `${what}; --retry-uncertain: apply uploads it again, and the first copy, if it reached the service, stays as an orphan`
          : d.fields[u.field] === u.sha256
            ? `${what}; --retry-uncertain: apply sends it again, and if the first request still lands, the ${u.kind} is made twice (a second version of the same file, or a second one of that name)`
            : // Other bytes now: the first landing after would be the live version (probe RQ-3); its note says it is docket's, and the next plan publishes the files' again.
              `${what}; --retry-uncertain: apply sends the file as it is now, and if the first request still lands after it, that upload is the live version until the next apply publishes the file again`,
      );
    } else {
      const stop: Diagnostic = {
        severity: 'error',
        code: 'uncertain-upload',
        // At the value (the file named), as every other problem of a data file is (probe LP-5).
        ...(problemSourceOf(d.fieldSources, u.field) ?? d.source),
        ...(u.landing
          ? {
              // Other bytes now: a Word term's request is no orphan but the term's next version, which,
              // landing after a publish of the files' bytes, would be the live one (probe RK-1).
              message: d.fields[u.field] === u.sha256 ? `${what}; ${u.unreadable}, so docket will not send it again yet` : `${what}; ${u.unreadable}, and landing after a publish of the file as it is now it would be the live version, so docket will not publish yet`,
              hint: 'run `docket plan` again in a few minutes: once it is live it is recorded, and one that never landed is forgotten after ten minutes and sent again; `docket apply --retry-uncertain` sends it again now',
            }
          : u.answered
          ? {
              message: `${u.kind} ${quoteValue(u.key, 200)}: the service took the upload of ${u.file} (sha256 ${short(u.sha256)}…) on ${u.since} but did not name the new ${u.kind}, and ${u.unreadable}, so docket cannot learn its id`,
              hint: `find its id in the app, ${d.pinId ? 'put it in this document\'s `id:` in place of the one there (the upload this one replaces)' : 'add it as `id:` to this document'} and run \`docket apply --adopt-files\` (\`--retry-uncertain\` would upload another copy the service may not name either)${ONCE_ADOPTED}`,
            }
          : {
              message: `${what} (the apply was interrupted, or the service's answer was lost or did not name the new ${u.kind}); it may already exist live, and ${u.unreadable}, so docket will not upload it again blindly`,
              hint: `if it is live, ${d.pinId ? 'put its id (from the app) in this document\'s `id:` in place of the one there' : 'add its id (from the app) as `id:` to this document'} and run \`docket apply --adopt-files\`${ONCE_ADOPTED}; if it is not, or a second copy does not matter, run \`docket apply --retry-uncertain\``,
            }),
      };
      // A plan that uploads nothing, or cut to other targets, is not stopped by it (probe FK): a playbook's hotfix waits on no attachment.
      if (scope.readOnly) diagnostics.add({ ...stop, severity: 'warning' });
      else sayUnlessUnsent(d, stop, scope, diagnostics);
    }
  }
  return { updates, warnings };
}

/** The first field the upload was sent with that the files now give another value, if any. */
function otherThanSent(d: DesiredResource, u: UncertainUpload): string | undefined {
  return Object.entries(u.sentWith ?? {}).find(([field, sent]) => field in d.fields && (d.fields[field] ?? null) !== (sent ?? null))?.[0];
}

/**
 * A pin added only to adopt an upload is this organization's id in a document every environment
 * reads: the lock keeps the upload once adopted, and another environment would take the pin as
 * its own (probe RI-4).
 */
const ONCE_ADOPTED = ' (then the `id:` line may go again: docket.lock.json keeps the upload, and another environment reading this document would take the id as its own)';

/**
 * Uploads of a saved plan that an apply since it was made left unconfirmed: the plan would send
 * them again blindly (it gives up only the marks that were there when it was made).
 */
export function unconfirmedSincePlan(plan: Plan, uncertain: readonly UncertainUpload[]): string[] {
  if (uncertain.length === 0) return [];
  // A Word term's create or publish too, whose mark may still land (second read): sent again, the same file is made twice.
  const uploads = new Set(plan.changes.filter((c) => c.action === 'upload' || c.action === 'create' || c.action === 'publish').map((c) => refKey(c.kind, c.key)));
  const givenUp = new Set((plan.lock_updates ?? []).map((u) => `${refKey(u.kind, u.key)}|${u.pending_since ?? ''}`));
  return uncertain
    .filter((u) => uploads.has(refKey(u.kind, u.key)) && !givenUp.has(`${refKey(u.kind, u.key)}|${u.since}`))
    .map((u) => `${unconfirmed(u)}, and ${u.unreadable}; it may already exist live, so the plan would upload it again (docket plan stops at it and says how to go on)`);
}

/**
 * A pin of the object the lock already records (or one it replaced, or the one the upload takes
 * the place of: an attachment renamed is uploaded anew) is no answer to which object the
 * unconfirmed upload made: export writes that `id:`, and an earlier recovery may have left it.
 */
function namesEarlierUpload(pinId: string, u: UncertainUpload): boolean {
  const pin = pinId.toLowerCase();
  const settled = u.settled;
  return [settled?.id, settled?.pinned, ...(settled?.superseded ?? []), ...(u.replaces ?? [])].some((id) => id?.toLowerCase() === pin);
}
