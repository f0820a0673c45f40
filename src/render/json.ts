/**
 * Machine output. The plan JSON is the plan file format itself (what `--out` saves and `apply`
 * reads), so it is the Plan object with its ids sorted; reports and diagnostics get a small stable envelope.
 */
import { lineAround } from './line-window.js';
import { compareDiagnostics, problemCount, type Diagnostic } from '../diagnostics.js';
import { stripControl } from './sanitize.js';
import { usageMessage } from '../errors.js';
import { excerptWithoutSecrets, lineWithoutSecrets, pathWithoutSecrets } from '../config/url-secrets.js';
import type { Plan } from '../engine/types.js';

/**
 * C1 controls (U+007F–U+009F) and the line separators escaped (see `jsonText`), and a CI runner's
 * older workflow command `##[` written `#\u0023[`: JSON reads the same text, where breaking it up
 * as other output is (`# #[`) changed the values, and a saved plan's seal no longer held (probe HJ).
 * (`#` is never JSON's own syntax, so only text in strings holds one.)
 */
function escapeControls(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).replaceAll('##[', '#\\u0023[');
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
  const e = error as { code?: unknown; message?: unknown; wholeMessage?: unknown; hint?: unknown; diagnostics?: unknown; exitCode?: unknown };
  // commander's own codes (`commander.invalidArgument`) are a library's names: to a user they are usage errors.
  const fromCommander = typeof e.code === 'string' && e.code.startsWith('commander.');
  const code = typeof e.code !== 'string' ? 'internal' : fromCommander ? 'usage' : e.code;
  // A message cut for a terminal (a stale plan's reasons) is whole for the programs that read JSON.
  const whole = typeof e.wholeMessage === 'string' ? e.wholeMessage : typeof e.message === 'string' ? e.message : String(error);
  // commander's suggestion (`\n(Did you mean --out?)`) is the hint, not a second line of the message (probe KQ-6).
  const suggested = fromCommander ? /\n\(Did you mean (.+)\?\)\s*$/.exec(whole) : null;
  const text = suggested ? whole.slice(0, suggested.index) : whole;
  const hint = typeof e.hint === 'string' ? e.hint : suggested ? `did you mean ${suggested[1]}?` : undefined;
  return {
    format_version: 1,
    error: {
      code,
      // commander's own `error: ` prefix says on stderr what `error` already says here.
      message: stripControl(lineWithoutSecrets(fromCommander ? usageMessage(text) : text)),
      ...(hint !== undefined ? { hint: stripControl(lineWithoutSecrets(hint)) } : {}),
      exit_code: typeof e.exitCode === 'number' ? e.exitCode : 1,
    },
    diagnostics: Array.isArray(e.diagnostics) ? withExcerpts(e.diagnostics as Diagnostic[], source) : [],
  };
}

/** Diagnostics as JSON, each with `excerpt` (the source line) when the file can be read. */
export function withExcerpts(diags: readonly Diagnostic[], source?: (file: string, line: number) => string | undefined): Diagnostic[] {
  return [...diags].sort(compareDiagnostics).map((raw) => {
    // Messages and hints hide a URL's secrets as the excerpt does (a name written into one as it is).
    // And the path, which names a key as written (a URL used as a key: probe JZ-2).
    const d = { ...raw, message: lineWithoutSecrets(raw.message), ...(raw.hint !== undefined ? { hint: lineWithoutSecrets(raw.hint) } : {}), ...(raw.path !== undefined ? { path: pathWithoutSecrets(raw.path) } : {}) };
    const line = source && d.file && d.line ? source(d.file, d.line) : undefined;
    return line === undefined ? d : { ...d, excerpt: excerptAround(line, d.col ?? 1) };
  });
}

/** Longer lines are cut to this many characters around the column: one value can be a megabyte on one line. */
const EXCERPT_CHARS = 500;

/** The line, or the part of a long one around `col`, with `…` where it was cut; a URL's secrets hidden as messages hide them. */
export function excerptAround(line: string, col: number): string {
  return lineAround(line, col, excerptWithoutSecrets, EXCERPT_CHARS, EXCERPT_CHARS / 2).text;
}

export function renderDiagnosticsJson(diags: Diagnostic[], source?: (file: string, line: number) => string | undefined): string {
  const errors = problemCount(diags, 'error');
  const body: DiagnosticsJson = {
    valid: errors === 0,
    errors,
    warnings: problemCount(diags, 'warning'),
    diagnostics: withExcerpts(diags, source),
  };
  return jsonText(body);
}
