/**
 * Machine output. The plan JSON is the plan file format itself (what `--out` saves and `apply`
 * reads), so it is the Plan object unchanged; reports and diagnostics get a small stable envelope.
 */
import { compareDiagnostics, type Diagnostic } from '../diagnostics.js';
import type { Action, ApplyReport, KindName, Plan, ResultStatus } from '../engine/types.js';

export function renderPlanJson(plan: Plan): string {
  return `${JSON.stringify(plan, null, 2)}\n`;
}

export interface ApplyResultJson {
  id: string;
  action: Action | null;
  kind: KindName | null;
  key: string | null;
  name: string | null;
  status: ResultStatus;
  message?: string;
  ms: number;
}

export interface ApplyReportJson {
  format_version: 1;
  /** Where the plan was applied (`emulator: true` for the local emulator). */
  target: Plan['target'];
  results: ApplyResultJson[];
  done: number;
  failed: number;
  skipped: number;
  ms: number;
}

export function applyReportJson(plan: Plan, report: ApplyReport): ApplyReportJson {
  const byId = new Map(plan.changes.map((c) => [c.id, c]));
  return {
    format_version: 1,
    target: plan.target,
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
        ...(r.message !== undefined ? { message: r.message } : {}),
        ms: r.ms,
      };
    }),
    done: report.done,
    failed: report.failed,
    skipped: report.skipped,
    ms: report.ms,
  };
}

export function renderApplyReportJson(plan: Plan, report: ApplyReport): string {
  return `${JSON.stringify(applyReportJson(plan, report), null, 2)}\n`;
}

export interface DiagnosticsJson {
  valid: boolean;
  errors: number;
  warnings: number;
  diagnostics: Diagnostic[];
}

export function renderDiagnosticsJson(diags: Diagnostic[]): string {
  const errors = diags.filter((d) => d.severity === 'error').length;
  const body: DiagnosticsJson = {
    valid: errors === 0,
    errors,
    warnings: diags.length - errors,
    diagnostics: [...diags].sort(compareDiagnostics),
  };
  return `${JSON.stringify(body, null, 2)}\n`;
}
