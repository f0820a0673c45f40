/** The apply report as JSON (`apply -o json`): one result per change, then the counts. */
import type { Action, ApplyReport, KindName, Plan, ResultStatus } from '../engine/types.js';
import { skippedBecause } from './headline.js';
import { jsonText } from './json.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';

export interface ApplyResultJson {
  id: string;
  action: Action | null;
  kind: KindName | null;
  key: string | null;
  name: string | null;
  status: ResultStatus;
  message?: string;
  /** For a skipped change: the id of the failed change it depended on. */
  blocked_by?: string;
  /** For a failed change: what to do about it, as the error said. */
  hint?: string;
  note?: string;
  /** For a failed change: the fields it wrote live before the failure. */
  written_fields?: string[];
  ms: number;
}

export interface ApplyReportJson {
  format_version: 1;
  /** Where the plan was applied (`emulator: true` for the local emulator). */
  target: Plan['target'];
  /** The docket.yaml environment the plan was made for, as `plan -o json` has it. */
  environment?: string;
  results: ApplyResultJson[];
  done: number;
  failed: number;
  skipped: number;
  /** Changes not started because the apply was stopped. */
  not_started: number;
  /** Why the apply stopped early (`SIGINT`, `SIGTERM`, the time budget), when it did. */
  stopped?: string;
  /** Files `--adopt-files` recorded in docket.lock.json as live (the lock changed: commit it). */
  adopted_files?: string[];
  /**
   * The file docket could not write once the changes were made (docket.lock.json, or with
   * `--emulator` its sync or state file), and why: what it records of this apply is not saved (exit 1).
   */
  unsaved?: { file: string; reason: string };
  ms: number;
}

export function applyReportJson(plan: Plan, report: ApplyReport, adoptedFiles: readonly string[] = [], unsaved?: ApplyReportJson['unsaved']): ApplyReportJson {
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  return {
    format_version: 1,
    target: plan.target,
    ...(plan.environment ? { environment: plan.environment } : {}),
    results: report.results.map((r) => {
      const c = byId.get(r.changeId);
      return {
        id: r.changeId,
        // A result for a change the plan does not hold cannot happen; say so with nulls, not a guess.
        action: c?.action ?? null,
        kind: c?.kind ?? null,
        key: c?.key ?? null,
        name: c?.name ?? null,
        status: r.status,
        // A skip names what failed as the plan showed it, and by id for scripts.
        // A service's words may quote a URL with its password or token: hidden as every message hides them (probe XF-1).
        ...(r.blockedBy ? { message: skippedBecause(r, byId), blocked_by: r.blockedBy.failed } : r.message !== undefined ? { message: lineWithoutSecrets(r.message) } : {}),
        ...(r.hint !== undefined ? { hint: lineWithoutSecrets(r.hint) } : {}),
        ...(r.note !== undefined ? { note: lineWithoutSecrets(r.note) } : {}),
        ...(r.written ? { written_fields: r.written } : {}),
        ms: r.ms,
      };
    }),
    done: report.done,
    failed: report.failed,
    skipped: report.skipped,
    not_started: report.notStarted ?? 0,
    ...(report.stopped ? { stopped: report.stopped } : {}),
    ...(adoptedFiles.length > 0 ? { adopted_files: [...adoptedFiles] } : {}),
    // The report alone read as a clean run while the command exited 1 (probe DI-1).
    ...(unsaved ? { unsaved } : {}),
    ms: report.ms,
  };
}

export function renderApplyReportJson(plan: Plan, report: ApplyReport, adoptedFiles: readonly string[] = [], unsaved?: ApplyReportJson['unsaved']): string {
  return jsonText(applyReportJson(plan, report, adoptedFiles, unsaved));
}
