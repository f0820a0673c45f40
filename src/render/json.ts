/**
 * Machine output. The plan JSON is the plan file format itself (what `--out` saves and `apply`
 * reads), so it is the Plan object with its ids sorted; reports and diagnostics get a small stable envelope.
 */
import { windowAround } from '../util/whole-slice.js';
import { compareDiagnostics, type Diagnostic } from '../diagnostics.js';
import { stripControl } from './sanitize.js';
import { lineWithoutSecrets } from '../config/url-secrets.js';
import type { Action, ApplyReport, KindName, Plan, ResultStatus } from '../engine/types.js';
import { skippedBecause } from './facts.js';

/** C1 controls (U+007F–U+009F) and the line separators, escaped: see `jsonText`. */
function escapeControls(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * JSON as docket prints it: C1 controls (U+007F–U+009F) and the line separators escaped, so a
 * value from a service cannot drive a terminal or a log viewer that shows the JSON raw.
 */
export function jsonText(value: unknown): string {
  return `${escapeControls(JSON.stringify(value, null, 2))}\n`;
}

/** Where `changes` sits in the plan's JSON: a key of the top level, so at two spaces. */
const CHANGES_SLOT = '\n  "changes": []';
/** About what one write takes at once (see chunks.ts). */
const CHUNK_CHARS = 64 * 1024;

/**
 * The plan file's text, in pieces of about 64 KB: byte for byte `jsonText` of the plan with its
 * ids sorted, without ever holding the whole text (21,000 creates make 47 MB of it).
 */
export function* planJsonChunks(plan: Plan): Generator<string> {
  // Copied by descriptors, so the configuration digest (a getter) is worked out only as it is written.
  const written = Object.defineProperties({}, Object.getOwnPropertyDescriptors(plan)) as Plan;
  // Sorted, so the same state always serialises the same way (golden files, plan diffs).
  written.ids = Object.fromEntries(Object.entries(plan.ids).sort(([a], [b]) => a.localeCompare(b)));
  const changes = written.changes;
  written.changes = [];
  const outline = jsonText(written);
  const at = outline.indexOf(CHANGES_SLOT);
  if (changes.length === 0 || at < 0) {
    written.changes = changes;
    yield jsonText(written);
    return;
  }
  let batch = `${outline.slice(0, at)}\n  "changes": [`;
  for (let i = 0; i < changes.length; i++) {
    // An element of a list at depth two: its own JSON, each line indented four more spaces.
    batch += `\n    ${escapeControls(JSON.stringify(changes[i], null, 2)).replaceAll('\n', '\n    ')}${i < changes.length - 1 ? ',' : ''}`;
    if (batch.length >= CHUNK_CHARS) {
      yield batch;
      batch = '';
    }
  }
  yield `${batch}\n  ]${outline.slice(at + CHANGES_SLOT.length)}`;
}

export function renderPlanJson(plan: Plan): string {
  return [...planJsonChunks(plan)].join('');
}

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
  ms: number;
}

export function applyReportJson(plan: Plan, report: ApplyReport): ApplyReportJson {
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
        ...(r.blockedBy ? { message: skippedBecause(r, byId), blocked_by: r.blockedBy.failed } : r.message !== undefined ? { message: r.message } : {}),
        ...(r.hint !== undefined ? { hint: r.hint } : {}),
        ...(r.note !== undefined ? { note: r.note } : {}),
        ...(r.written ? { written_fields: r.written } : {}),
        ms: r.ms,
      };
    }),
    done: report.done,
    failed: report.failed,
    skipped: report.skipped,
    not_started: report.notStarted ?? 0,
    ...(report.stopped ? { stopped: report.stopped } : {}),
    ms: report.ms,
  };
}

export function renderApplyReportJson(plan: Plan, report: ApplyReport): string {
  return jsonText(applyReportJson(plan, report));
}

export interface DiagnosticsJson {
  valid: boolean;
  errors: number;
  warnings: number;
  diagnostics: Diagnostic[];
}

export interface ErrorJson {
  format_version: 1;
  error: { code: string; message: string; hint?: string; exit_code: number };
  /** The configuration's problems, when the error is that it is invalid. */
  diagnostics: Diagnostic[];
}

/** What `plan -o json` and `apply -o json` print when they fail: the error and any diagnostics. */
export function renderErrorJson(error: unknown, source?: (file: string, line: number) => string | undefined): string {
  return jsonText(errorJson(error, source));
}

/** An error (a DocketError, or anything thrown) as the error document's fields. */
export function errorJson(error: unknown, source?: (file: string, line: number) => string | undefined): ErrorJson {
  const e = error as { code?: unknown; message?: unknown; hint?: unknown; diagnostics?: unknown; exitCode?: unknown };
  // commander's own codes (`commander.invalidArgument`) are a library's names: to a user they are usage errors.
  const code = typeof e.code !== 'string' ? 'internal' : e.code.startsWith('commander.') ? 'usage' : e.code;
  return {
    format_version: 1,
    error: {
      code,
      message: stripControl(lineWithoutSecrets(typeof e.message === 'string' ? e.message : String(error))),
      ...(typeof e.hint === 'string' ? { hint: stripControl(lineWithoutSecrets(e.hint)) } : {}),
      exit_code: typeof e.exitCode === 'number' ? e.exitCode : 1,
    },
    diagnostics: Array.isArray(e.diagnostics) ? withExcerpts(e.diagnostics as Diagnostic[], source) : [],
  };
}

/** Diagnostics as JSON, each with `excerpt` (the source line) when the file can be read. */
export function withExcerpts(diags: readonly Diagnostic[], source?: (file: string, line: number) => string | undefined): Diagnostic[] {
  return [...diags].sort(compareDiagnostics).map((raw) => {
    // Messages and hints hide a URL's secrets as the excerpt does (a name written into one as it is).
    const d = { ...raw, message: lineWithoutSecrets(raw.message), ...(raw.hint !== undefined ? { hint: lineWithoutSecrets(raw.hint) } : {}) };
    const line = source && d.file && d.line ? source(d.file, d.line) : undefined;
    return line === undefined ? d : { ...d, excerpt: excerptAround(line, d.col ?? 1) };
  });
}

/** Longer lines are cut to this many characters around the column: one value can be a megabyte on one line. */
const EXCERPT_CHARS = 500;

/** The line, or the part of a long one around `col`, with `…` where it was cut; a URL's secrets hidden as messages hide them. */
export function excerptAround(line: string, col: number): string {
  return windowAround(lineWithoutSecrets(line), col - 1, EXCERPT_CHARS, EXCERPT_CHARS / 2).text;
}

export function renderDiagnosticsJson(diags: Diagnostic[], source?: (file: string, line: number) => string | undefined): string {
  const errors = diags.filter((d) => d.severity === 'error').length;
  const body: DiagnosticsJson = {
    valid: errors === 0,
    errors,
    warnings: diags.length - errors,
    diagnostics: withExcerpts(diags, source),
  };
  return jsonText(body);
}
